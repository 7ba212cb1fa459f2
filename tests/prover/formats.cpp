// CNF forms, DIMACS and DRAT text/binary formats, the random CNF generator.
#include <bem/prover/cnf.hpp>
#include <bem/prover/dimacs.hpp>
#include <bem/prover/proof.hpp>
#include <bem/prover/random_cnf.hpp>
#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace bem::prover;

TEST_CASE("bounded (pos_bits, neg_bits) form agrees with the general form") {
  bem::xoshiro256ss rng(7);
  for (int j = 0; j < 50; ++j) {
    const cnf f = random_cnf({100, 300, 1, 6}, 3, static_cast<std::uint64_t>(j));
    const auto b = to_bounded<128>(f);
    const cnf g = b.to_general();
    REQUIRE(g.size() == f.size());
    for (std::size_t i = 0; i < f.size(); ++i) CHECK(g[i].size() == f[i].size());  // distinct variables: no merging
    for (int t = 0; t < 20; ++t) {
      assignment a(100);
      for (std::size_t v = 0; v < 100; ++v) a[v] = rng.bit();
      CHECK(satisfies(f, a) == b.satisfied_by(pack<128>(a)));
      CHECK(satisfies(g, a) == satisfies(f, a));
    }
  }
  cnf taut(3);
  taut.add_clause({1, -1});
  const auto bt = to_bounded<3>(taut);
  CHECK(bt.clauses[0].tautology());
  CHECK(bt.satisfied_by(var_bits<3>{}));
  cnf dup(2);
  dup.add_clause({2, 1, 2});
  CHECK(to_bounded<2>(dup).to_general()[0].size() == 2);
  CHECK_THROWS_AS(to_bounded<32>(cnf(33)), std::invalid_argument);
}

TEST_CASE("law 1: to_general sorts by variable, positive before negative, without duplicates") {
  cnf f(4);
  f.add_clause({-3, 2, 3, -1, 2, -3});
  f.add_clause({4});
  const cnf g = to_bounded<4>(f).to_general();
  REQUIRE(g.size() == 2);
  const std::vector<int> first(g[0].begin(), g[0].end());
  CHECK(first == std::vector<int>{-1, 2, 3, -3});
  CHECK(g[1].size() == 1);
  CHECK(g[1][0] == 4);
  CHECK(g.num_vars() == 4);
}

TEST_CASE("first_falsified: variables beyond the assignment count as false") {
  cnf f;
  f.add_clause({1});
  f.add_clause({-4});  // 4 is beyond the assignment: false, so -4 holds
  f.add_clause({3});   // and 3 does not
  f.add_clause({-1});
  const assignment a{true};
  CHECK(first_falsified(f, a) == 2);
  CHECK_FALSE(satisfies(f, a));
  cnf g;
  g.add_clause({-2, -3});
  CHECK(satisfies(g, assignment{}));
  CHECK(first_falsified(g, assignment{}) == g.size());
}

TEST_CASE("DIMACS round trip") {
  for (int j = 0; j < 20; ++j) {
    const cnf f = random_cnf({40, 170, 1, 5}, 9, static_cast<std::uint64_t>(j));
    CHECK(parse_dimacs(write_dimacs(f)) == f);
  }
  const cnf g = parse_dimacs("c a comment\np cnf 3 2\n1 -2\n 3 0 -1\n0\n%\n0 garbage after the end marker\n");
  REQUIRE(g.size() == 2);
  CHECK(g[0].size() == 3);
  CHECK(g[1][0] == -1);
  CHECK(parse_dimacs("p cnf 0 1\n0\n").size() == 1);  // the empty clause
}

namespace {
std::size_t error_line(const std::string& text) {
  try {
    (void)parse_dimacs(text, "t.cnf");
  } catch (const dimacs_error& e) {
    CHECK(std::string(e.what()).rfind("t.cnf:" + std::to_string(e.line()) + ": ", 0) == 0);
    return e.line();
  }
  return 0;
}
}  // namespace

TEST_CASE("DIMACS errors name the line") {
  CHECK(error_line("c x\n1 2 0\n") == 2);                        // clause before header
  CHECK(error_line("p cnf 3\n") == 1);                           // malformed header
  CHECK(error_line("p cnf 3 1\n\n1 x 0\n") == 3);                // not an integer
  CHECK(error_line("p cnf 3 2\n1 2 0\n1 -4 0\n") == 3);          // variable out of range
  CHECK(error_line("p cnf 3 2\n1 2 0\n1\n-3\n") == 3);           // unterminated clause: where it starts
  CHECK(error_line("p cnf 3 3\n1 2 0\n") == 1);                  // count mismatch: the header
  CHECK(error_line("p cnf 3 1\np cnf 3 1\n") == 2);              // second header
  CHECK(error_line("") == 1);                                    // no header
  CHECK(error_line("p cnf 3 1\n-9223372036854775808 0\n") == 2);  // no negation overflow: out of range
  CHECK(error_line("p cnf 3 1\n+-2 0\n") == 2);                 // one sign only
  CHECK(parse_dimacs("p cnf 3 1\n+2 -3 0\n")[0][0] == 2);        // a plus sign alone is fine
}

TEST_CASE("a cnf never declares fewer variables than its clauses use") {
  cnf f;
  f.add_clause({1, -5});
  CHECK_THROWS_AS(f.set_num_vars(2), std::invalid_argument);
  CHECK(f.num_vars() == 5);
  f.set_num_vars(9);  // more is fine
  CHECK(f.num_vars() == 9);
  f.clear();
  f.set_num_vars(0);
}

TEST_CASE("DRAT text and binary formats round trip; errors are located") {
  drat_proof p;
  p.add({1, -2});
  p.del({3, 4, -5});
  p.add({-200, 70000});
  p.add({});
  CHECK(parse_drat(p.to_text()) == p);
  CHECK(parse_drat(p.to_binary()) == p);
  CHECK(p.additions() == 3);
  CHECK(parse_drat("c comment\n1 2 0 d 1 2\n0\n0\n").size() == 3);
  try {
    (void)parse_drat("1 2 0\n3 q 0\n", "p.drat");
    FAIL("no error");
  } catch (const dimacs_error& e) {
    CHECK(e.line() == 2);
  }
  try {
    (void)parse_drat("1 2 0\n3 4\n\n", "p.drat");
    FAIL("no error");
  } catch (const dimacs_error& e) {
    CHECK(e.line() == 2);
  }
  CHECK_THROWS_AS((void)parse_drat(std::string("a\x02", 2)), dimacs_error);  // truncated binary step
  // UTF-8 in a text comment does not make the proof binary.
  CHECK(parse_drat("c lemma from caf\xc3\xa9\n1 2 0\n0\n").size() == 2);
  // A text proof may start with a deletion, with a space or a tab after the d.
  const drat_proof td = parse_drat("d 1 2 0\n-1 0\n");
  REQUIRE(td.size() == 2);
  CHECK(td.is_deletion(0));
  CHECK(td[0].size() == 2);
  CHECK_FALSE(td.is_deletion(1));
  CHECK(td[1][0] == -1);
  CHECK(parse_drat("d\t3 0\n") == parse_drat("d 3 0\n"));
  // Binary literals at the one-byte edge: 2*63+1 = 127 takes one byte, 2*64 = 128 two
  // (low seven bits with the continuation bit, then the rest).
  drat_proof edge;
  edge.add({-63, 64, -64});
  CHECK(edge.to_binary() == std::string("a\x7f\x80\x01\x81\x01\0", 7));
  CHECK(parse_drat(edge.to_binary()) == edge);
  // A binary proof starting "d " (deleting [+16]) is still binary: its NUL bytes say so.
  drat_proof d;
  d.del({16, 3});
  d.add({});
  CHECK(parse_drat(d.to_binary()) == d);
}

TEST_CASE("a truncated DRAT proof forgets its removed steps, kinds included") {
  drat_proof p;
  p.add({1, 2});
  p.del({1, 2});
  p.del({3});
  p.truncate(1);
  REQUIRE(p.size() == 1);
  p.add({-4});  // takes the place of the removed deletion
  REQUIRE(p.size() == 2);
  CHECK_FALSE(p.is_deletion(1));
  CHECK(p.additions() == 2);
  CHECK(p.to_text() == "1 2 0\n-4 0\n");
  p.truncate(5);  // past the end: nothing changes
  CHECK(p.size() == 2);
}

TEST_CASE("random CNF generator: documented distribution, deterministic") {
  const random_cnf_cell cell{64, 512, 3, 5};
  int lengths[6] = {};
  for (std::uint64_t j = 0; j < 20; ++j) {
    const cnf f = random_cnf(cell, 42, j);
    CHECK(f == random_cnf(cell, 42, j));
    CHECK(f.num_vars() == 64);
    REQUIRE(f.size() == 512);
    for (std::size_t i = 0; i < f.size(); ++i) {
      const auto c = f[i];
      REQUIRE(c.size() >= 3);
      REQUIRE(c.size() <= 5);
      ++lengths[c.size()];
      for (std::size_t a = 0; a < c.size(); ++a)
        for (std::size_t b = a + 1; b < c.size(); ++b) CHECK(std::abs(c[a]) != std::abs(c[b]));
    }
  }
  for (int k = 3; k <= 5; ++k) CHECK(lengths[k] > 3000);  // uniform: about 3413 each
  CHECK(random_cnf(cell, 42, 0) != random_cnf(cell, 42, 1));
  CHECK(random_cnf(cell, 42, 0) != random_cnf(cell, 43, 0));
  // Same bytes on every machine: a pinned fingerprint of one instance.
  CHECK(bem::fnv1a64(write_dimacs(random_cnf({32, 128, 3, 5}, 1, 0))) == 5190665792997478949ull);
  // Cells that cannot be drawn are refused before any draw: a clause of 5
  // distinct variables out of 4 would never finish (so REQUIRE, not CHECK).
  REQUIRE_THROWS_WITH_AS(random_cnf_cell({4, 10, 3, 5}).validate(),
                         doctest::Contains("need 1 <= min_len <= max_len <= n, got 3..5 with n = 4"), std::invalid_argument);
  CHECK_NOTHROW(random_cnf_cell({5, 10, 3, 5}).validate());
  CHECK_THROWS_AS(random_cnf_cell({4, 10, 0, 2}).validate(), std::invalid_argument);
  CHECK_THROWS_AS(random_cnf_cell({4, 10, 3, 2}).validate(), std::invalid_argument);
  CHECK_THROWS_AS(random_cnf_cell({0, 10, 1, 1}).validate(), std::invalid_argument);
  CHECK_THROWS_AS(random_cnf_cell({4, -1, 1, 1}).validate(), std::invalid_argument);
  CHECK(random_cnf({4, 0, 1, 1}, 1, 0).size() == 0);
  CHECK_THROWS_AS(random_cnf({4, 10, 3, 5}, 1, 0), std::invalid_argument);
}
