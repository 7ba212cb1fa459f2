// DIMACS CNF (include/bem/prover/dimacs.hpp). Bad input is a dimacs_error;
// a formula read back from write_dimacs must be the same formula.
#include "fuzz_common.hpp"

#include <bem/prover/dimacs.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace pv = bem::prover;
  try {
    const pv::cnf f = pv::parse_dimacs(fuzz::as_text(data, size), "fuzz.cnf");
    if (!(pv::parse_dimacs(pv::write_dimacs(f), "written") == f)) fuzz::law_broken("parse_dimacs(write_dimacs(f)) != f");
  } catch (const pv::dimacs_error&) {
  }
  return 0;
}
