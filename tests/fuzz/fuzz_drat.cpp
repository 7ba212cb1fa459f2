// DRAT proofs, text and binary (include/bem/prover/proof.hpp), and the
// checker that reads them (drat.hpp). Bad input is a dimacs_error naming
// the line or byte; a parsed proof must survive both writers.
#include "fuzz_common.hpp"

#include <bem/prover/dimacs.hpp>
#include <bem/prover/drat.hpp>
#include <bem/prover/proof.hpp>

#include <cstdlib>

namespace {
// An unsatisfiable formula over 3 variables (every sign pattern of
// x1, x2, x3 is excluded), so that a fuzzed proof has something to refute.
const bem::prover::cnf& formula() {
  static const bem::prover::cnf f = bem::prover::parse_dimacs(
      "p cnf 3 8\n1 2 3 0\n1 2 -3 0\n1 -2 3 0\n1 -2 -3 0\n-1 2 3 0\n-1 2 -3 0\n-1 -2 3 0\n-1 -2 -3 0\n", "formula");
  return f;
}
// The checker's memory grows with the largest variable of the proof, as
// drat-trim's does: proofs naming variables beyond this are parsed and
// round-tripped but not checked, or one input would take gigabytes.
constexpr int checked_variables = 1 << 16;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace pv = bem::prover;
  try {
    const pv::drat_proof p = pv::parse_drat(fuzz::as_text(data, size), "fuzz.drat");
    if (!(pv::parse_drat(p.to_text(), "text") == p)) fuzz::law_broken("parse_drat(p.to_text()) != p");
    if (!(pv::parse_drat(p.to_binary(), "binary") == p)) fuzz::law_broken("parse_drat(p.to_binary()) != p");
    int largest = 0;
    for (std::size_t i = 0; i < p.size(); ++i)
      for (int l : p[i]) largest = std::max(largest, std::abs(l));
    if (largest <= checked_variables) {
      const auto r = pv::drat_check(formula(), p);
      if (r.accepted()) (void)pv::core_formula(formula(), r);
    }
  } catch (const pv::dimacs_error&) {
  }
  return 0;
}
