// PROOF_CHECK: our solver's DRAT proofs are accepted, cores are unsatisfiable,
// corrupted proofs and proofs for satisfiable formulas are rejected; a
// hand-built proof that needs RAT.
#include "common.hpp"

#include <bem/prover/cdcl.hpp>
#include <bem/prover/drat.hpp>
#include <bem/prover/random_cnf.hpp>
#include <doctest/doctest.h>

#include <vector>

using namespace bem::prover;

namespace {
struct solved {
  cnf f;
  drat_proof proof;
  sat_result result;
};
solved solve_with_proof(const cnf& f) {
  solved s{f, {}, sat_result::unknown};
  cdcl_solver solver(f, &s.proof);
  s.result = solver.solve();
  return s;
}
}  // namespace

TEST_CASE("every UNSAT answer on small instances has an accepted proof and an unsatisfiable core") {
  int unsat = 0;
  for (int n = 4; n <= 12; ++n) {
    for (std::uint64_t j = 0; j < 60; ++j) {
      const cnf f = random_cnf({n, n * 6, 2, 3}, 31, j);
      const solved s = solve_with_proof(f);
      if (s.result != sat_result::unsat) continue;
      ++unsat;
      const drat_result r = drat_check(f, s.proof);
      REQUIRE_MESSAGE(r.accepted(), r.reason);
      CHECK_FALSE(r.core.empty());
      const cnf core = core_formula(f, r);
      CHECK(core.size() <= f.size());
      CHECK_FALSE(prover_test::brute_force_sat(core));
      CHECK(drat_check(core, s.proof).accepted());  // law 3
    }
  }
  CHECK(unsat > 200);
}

TEST_CASE("proofs at the benchmark's threshold cell, text and binary, are accepted") {
  int unsat = 0;
  for (std::uint64_t j = 0; j < 40; ++j) {
    const cnf f = random_cnf({32, 256, 3, 5}, 1, j);
    const solved s = solve_with_proof(f);
    if (s.result != sat_result::unsat) continue;
    ++unsat;
    CHECK(s.proof[s.proof.size() - 1].empty());  // ends with the empty clause
    CHECK(drat_check(f, parse_drat(s.proof.to_text())).accepted());
    CHECK(drat_check(f, parse_drat(s.proof.to_binary())).accepted());
  }
  CHECK(unsat > 10);
}

TEST_CASE("long runs: proofs with clause deletions are accepted") {
  // (96, 8n) needs several thousand conflicts, so the learned clause database
  // is reduced and the proof carries deletion steps.
  bool saw_deletions = false;
  for (std::uint64_t j = 0; j < 8 && !saw_deletions; ++j) {
    const cnf f = random_cnf({96, 768, 3, 5}, 1, j);
    const solved s = solve_with_proof(f);
    if (s.result != sat_result::unsat) continue;
    bool deletions = false;
    for (std::size_t i = 0; i < s.proof.size(); ++i) deletions |= s.proof.is_deletion(i);
    if (!deletions) continue;
    saw_deletions = true;
    const drat_result r = drat_check(f, s.proof);
    CHECK_MESSAGE(r.accepted(), r.reason);
  }
  CHECK(saw_deletions);
}

TEST_CASE("long runs over at most 64 variables: reductions and deletions with occurrence lists") {
  // Pigeonhole, 8 pigeons into 7 holes: 56 variables, thousands of
  // conflicts, so the solver's small-formula mode reduces its learned
  // clauses (a reason clause's implied literal may sit anywhere there).
  const int holes = 7, pigeons = 8;
  cnf f(pigeons * holes);
  auto x = [&](int i, int j) { return i * holes + j + 1; };
  for (int i = 0; i < pigeons; ++i) {
    std::vector<int> c;
    for (int j = 0; j < holes; ++j) c.push_back(x(i, j));
    f.add_clause(c);
  }
  for (int j = 0; j < holes; ++j)
    for (int a = 0; a < pigeons; ++a)
      for (int b = a + 1; b < pigeons; ++b) f.add_clause({-x(a, j), -x(b, j)});
  drat_proof proof;
  cdcl_solver s(f, &proof);
  REQUIRE(s.solve() == sat_result::unsat);
  CHECK(s.stats().reductions > 0);
  CHECK(s.stats().deleted > 0);
  const drat_result r = drat_check(f, proof);
  CHECK_MESSAGE(r.accepted(), r.reason);
}

TEST_CASE("proofs under assumptions end with the negated failed assumptions") {
  int checked = 0;
  for (std::uint64_t j = 0; j < 100; ++j) {
    const cnf f = random_cnf({12, 40, 2, 3}, 37, j);
    drat_proof p;
    cdcl_solver s(f, &p);
    const int a[3] = {1, -2, 3};
    if (s.solve(a) != sat_result::unsat) continue;
    cnf with_units = f;
    for (int l : a) with_units.add_clause({l});
    CHECK(drat_check(with_units, p).accepted());
    ++checked;
  }
  CHECK(checked > 10);
}

TEST_CASE("a formula holding the empty clause: the solver's proof ends with it, and any proof is accepted") {
  cnf f(2);
  f.add_clause({1, 2});
  f.add_clause(std::span<const int>{});
  const auto s = solve_with_proof(f);
  REQUIRE(s.result == sat_result::unsat);
  REQUIRE(s.proof.size() >= 1);
  CHECK(s.proof[s.proof.size() - 1].empty());  // law 2
  const auto r = drat_check(f, s.proof);
  CHECK(r.accepted());
  CHECK(r.core == std::vector<std::size_t>{1});
  CHECK(drat_check(f, drat_proof{}).accepted());  // CaDiCaL's empty proof
  // The checker is not lenient elsewhere: without the empty clause (and
  // without units, so propagation alone finds nothing) the empty proof fails.
  cnf g(2);
  g.add_clause({1, 2});
  g.add_clause({1, -2});
  g.add_clause({-1, 2});
  g.add_clause({-1, -2});
  CHECK_FALSE(drat_check(g, drat_proof{}).accepted());
}

TEST_CASE("corrupted proofs are rejected") {
  int tested = 0;
  for (std::uint64_t j = 0; j < 60; ++j) {
    const cnf f = random_cnf({32, 256, 3, 5}, 1, j);
    const solved s = solve_with_proof(f);
    if (s.result != sat_result::unsat) continue;
    drat_proof only_empty;
    only_empty.add(std::span<const int>{});
    const drat_result trivial = drat_check(f, only_empty);
    if (trivial.accepted()) continue;  // refutable by unit propagation alone
    ++tested;
    CHECK_FALSE(drat_check(f, drat_proof{}).accepted());
    CHECK(trivial.reason.find("does not derive the empty clause") != std::string::npos);

    // Every lemma's literals negated.
    drat_proof flipped;
    for (std::size_t i = 0; i < s.proof.size(); ++i) {
      std::vector<int> c(s.proof[i].begin(), s.proof[i].end());
      for (int& l : c) l = -l;
      if (s.proof.is_deletion(i)) flipped.del(c);
      else flipped.add(c);
    }
    const drat_result rf = drat_check(f, flipped);
    CHECK_FALSE(rf.accepted());
    CHECK_FALSE(rf.reason.empty());

    // The proof's first half, then the empty clause.
    drat_proof half = s.proof;
    half.truncate(s.proof.size() / 4);
    half.add(std::span<const int>{});
    CHECK_FALSE(drat_check(f, half).accepted());
  }
  CHECK(tested > 5);
}

TEST_CASE("soundness: no proof is accepted for a satisfiable formula") {
  int tested = 0;
  for (std::uint64_t j = 0; j < 60; ++j) {
    const cnf f = random_cnf({32, 256, 3, 5}, 1, j);
    const solved s = solve_with_proof(f);
    if (s.result != sat_result::unsat) continue;
    const drat_result r = drat_check(f, s.proof);
    REQUIRE(r.accepted());
    // Drop core clauses one at a time until the rest is satisfiable: the
    // original proof must then be rejected.
    for (std::size_t drop : r.core) {
      cnf g(f.num_vars());
      for (std::size_t i = 0; i < f.size(); ++i)
        if (i != drop) g.add_clause(f[i]);
      cdcl_solver check(g);
      if (check.solve() != sat_result::sat) continue;
      CHECK(satisfies(g, check.model()));
      CHECK_FALSE(drat_check(g, s.proof).accepted());
      ++tested;
      break;
    }
  }
  CHECK(tested > 5);
}

TEST_CASE("RAT: an extended-resolution definition is accepted, on its first literal only, and its candidates are checked") {
  // F forces a = b = 1 (its three binary clauses) and then leaves c and d no
  // value (its four 4-literal clauses), but propagation alone finds no
  // conflict in F. The proof names a and b by a fresh x (x <-> a and b): the
  // clause x -a -b is not RUP but RAT on x, its resolvents with -x a and -x b
  // being tautologies. The 4-literal clauses are then restated over x and
  // deleted, so the final conflict runs through x -a -b and the backward
  // pass must check it.
  const int a = 1, b = 2, c = 3, d = 4, x = 5, e = 6, g = 7;
  cnf f(4);
  f.add_clause({a, b});
  f.add_clause({a, -b});
  f.add_clause({-a, b});
  for (int sc : {c, -c})
    for (int sd : {d, -d}) f.add_clause({-a, -b, sc, sd});
  auto proof = [&](std::initializer_list<int> definition, bool junk_first) {
    drat_proof p;
    if (junk_first) p.add({e, -x, c, d});
    p.add({-x, a});  // RAT on -x: no clause holds x yet
    p.add({-x, b});
    p.add(definition);
    for (int sc : {c, -c})
      for (int sd : {d, -d}) p.add({-x, sc, sd});
    for (int sc : {c, -c})
      for (int sd : {d, -d}) p.del({-a, -b, sc, sd});
    p.add({a});
    p.add({b});
    p.add({-x, c});
    p.add({-x});
    p.add(std::span<const int>{});  // a, b and -x falsify x -a -b
    return p;
  };

  const drat_result r = drat_check(f, proof({x, -a, -b}, false));
  REQUIRE_MESSAGE(r.accepted(), r.reason);
  CHECK(r.rat_checks == 1);
  CHECK(r.core.size() == f.size());  // every clause of F is needed

  // RAT is checked on the first literal only: on -a the resolvent with a -b
  // is the lemma itself again, not RUP, so the proof fails at that step.
  const drat_result ra = drat_check(f, proof({-a, x, -b}, false));
  CHECK_FALSE(ra.accepted());
  CHECK(ra.failed_step == 2);
  CHECK(ra.reason.find("neither RUP nor RAT") != std::string::npos);

  // A lemma is checked when a RAT check resolves on it, even if nothing else
  // uses it. With -e g added to F, the lemma e -x c d put first is neither
  // RUP nor RAT on e (its resolvent with -e g is not RUP), yet its resolvent
  // with x -a -b is RUP, so only the RAT check of x -a -b marks it.
  cnf fe = f;
  fe.add_clause({-e, g});
  const drat_result rj = drat_check(fe, proof({x, -a, -b}, true));
  CHECK_FALSE(rj.accepted());
  CHECK(rj.failed_step == 0);
}
