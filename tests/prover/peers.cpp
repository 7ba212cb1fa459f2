// Agreement with CaDiCaL (library, when libcadical-dev is installed) and
// acceptance of proofs written by Debian's cadical binary (when installed).
#include <bem/prover/cdcl.hpp>
#include <bem/prover/dimacs.hpp>
#include <bem/prover/drat.hpp>
#include <bem/prover/random_cnf.hpp>
#include <bem/prover/sat_backend.hpp>
#include <doctest/doctest.h>

#if BEM_HAVE_CADICAL
#include <bem/prover/cadical_backend.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace bem::prover;

#if BEM_HAVE_CADICAL
TEST_CASE("agreement with CaDiCaL on random instances of the benchmark's cells") {
  struct cell_count {
    random_cnf_cell cell;
    std::uint64_t count;
  };
  int answers[2] = {};
  for (const auto& [cell, count] : {cell_count{{32, 128, 3, 5}, 100}, cell_count{{32, 256, 3, 5}, 200},
                                    cell_count{{64, 256, 3, 5}, 50}, cell_count{{64, 512, 3, 5}, 60}}) {
    for (std::uint64_t j = 0; j < count; ++j) {
      const cnf f = random_cnf(cell, 2024, j);
      const check_outcome ours = sat_check<cdcl_solver>(f);
      const check_outcome theirs = sat_check<cadical_backend>(f);
      REQUIRE(ours.result != sat_result::unknown);
      CHECK_MESSAGE(ours.result == theirs.result, "n=" << cell.n << " m=" << cell.m << " instance " << j);
      ++answers[ours.result == sat_result::sat ? 1 : 0];
    }
  }
  CHECK(answers[0] > 50);
  CHECK(answers[1] > 50);
}

TEST_CASE("the CaDiCaL back end honours budgets and assumptions") {
  cadical_backend b;
  b.reserve_vars(2);
  b.add_clause(std::vector<int>{1, 2});
  const int a[2] = {-1, -2};
  CHECK(b.solve(a) == sat_result::unsat);
  CHECK(b.solve(std::span<const int>{}) == sat_result::sat);
}
#endif

#ifdef BEM_CADICAL_BINARY
namespace {
std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("proofs written by Debian's cadical binary are accepted; corrupted ones rejected") {
  char dir_template[] = "/tmp/bem-prover-XXXXXX";
  const char* dir = mkdtemp(dir_template);
  REQUIRE(dir != nullptr);
  const std::string cnf_path = std::string(dir) + "/f.cnf", proof_path = std::string(dir) + "/f.drat";
  int checked = 0;
  for (std::uint64_t j = 0; j < 40 && checked < 12; ++j) {
    const cnf f = random_cnf({32, 256, 3, 5}, 1, j);
    if (sat_check<cdcl_solver>(f).result != sat_result::unsat) continue;
    {
      std::ofstream out(cnf_path);
      out << write_dimacs(f);
    }
    for (const char* format : {"--binary=true", "--binary=false"}) {
      const std::string cmd = std::string(BEM_CADICAL_BINARY) + " -q " + format + " " + cnf_path + " " + proof_path +
                              " > /dev/null 2>&1";
      const int status = std::system(cmd.c_str());
      REQUIRE(WIFEXITED(status));
      REQUIRE(WEXITSTATUS(status) == 20);  // UNSATISFIABLE
      const drat_proof p = parse_drat(read_all(proof_path), proof_path);
      const drat_result r = drat_check(f, p);
      CHECK_MESSAGE(r.accepted(), r.reason);
      drat_proof flipped;
      for (std::size_t i = 0; i < p.size(); ++i) {
        std::vector<int> c(p[i].begin(), p[i].end());
        for (int& l : c) l = -l;
        if (p.is_deletion(i)) flipped.del(c);
        else flipped.add(c);
      }
      drat_proof only_empty;
      only_empty.add(std::span<const int>{});
      if (!drat_check(f, only_empty).accepted()) CHECK_FALSE(drat_check(f, flipped).accepted());
    }
    ++checked;
  }
  std::remove(cnf_path.c_str());
  std::remove(proof_path.c_str());
  rmdir(dir);
  CHECK(checked >= 10);
}
#endif
