// The CDCL solver against brute force, assumptions, the conflict budget,
// incremental contexts and the sat_backend concept.
#include "common.hpp"

#include <bem/prover/cdcl.hpp>
#include <bem/prover/drat.hpp>
#include <bem/prover/incremental.hpp>
#include <bem/prover/random_cnf.hpp>
#include <bem/prover/sat_backend.hpp>
#include <doctest/doctest.h>

#include <iterator>
#include <limits>
#include <span>
#include <vector>

using namespace bem::prover;

TEST_CASE("CDCL agrees with brute force on every small instance; every model satisfies") {
  int counts[2] = {};
  for (int n = 1; n <= 12; ++n) {
    for (int ratio10 : {10, 20, 30, 45, 70}) {
      for (std::uint64_t j = 0; j < 40; ++j) {
        const int m = std::max(1, n * ratio10 / 10);
        const random_cnf_cell cell{n, m, 1, std::min(n, 3)};
        const cnf f = random_cnf(cell, 5, j);
        cdcl_solver s(f);
        const sat_result r = s.solve();
        const bool truth = prover_test::brute_force_sat(f);
        REQUIRE(r != sat_result::unknown);
        CHECK((r == sat_result::sat) == truth);
        if (r == sat_result::sat) CHECK(satisfies(f, s.model()));
        ++counts[truth ? 1 : 0];
      }
    }
  }
  MESSAGE("unsat ", counts[0], " sat ", counts[1]);
  CHECK(counts[0] > 300);  // both answers well represented
  CHECK(counts[1] > 300);
}

TEST_CASE("trivial formulas") {
  cdcl_solver empty;
  CHECK(empty.solve() == sat_result::sat);
  cdcl_solver with_empty_clause;
  CHECK_FALSE(with_empty_clause.add_clause(std::span<const int>{}));
  CHECK(with_empty_clause.solve() == sat_result::unsat);
  cdcl_solver units;
  units.add_clause({1});
  CHECK_FALSE(units.add_clause({-1}));
  CHECK(units.solve() == sat_result::unsat);
  cdcl_solver free_vars;
  free_vars.reserve_vars(10);
  free_vars.add_clause({3, -3});
  CHECK(free_vars.solve() == sat_result::sat);
  CHECK(free_vars.model().size() == 10);
}

TEST_CASE("clauses given to add_clause before add(cnf) keep propagating") {
  // add() lays out the watch lists afresh: the earlier clauses must be in them.
  cdcl_solver s;
  s.add_clause({1, 2});
  cnf f(2);
  f.add_clause({-1, -2});
  s.add(f);
  REQUIRE(s.solve({-1}) == sat_result::sat);  // -1 forces 2 through (1 v 2)
  CHECK(s.model() == assignment{false, true});
  cdcl_solver t;
  t.add_clause({1, 2});
  cnf g(2);
  g.add_clause({-1});
  g.add_clause({-2, 1});
  t.add(g);
  CHECK(t.solve() == sat_result::unsat);
  // Mixed at random against brute force, over and under 64 variables.
  for (int n : {8, 80}) {
    for (std::uint64_t j = 0; j < 60; ++j) {
      const cnf a = random_cnf({n, n * 2, 1, 3}, 31, j), b = random_cnf({n, n * 2, 1, 3}, 32, j);
      cdcl_solver mixed;
      cnf both(n);
      for (std::size_t i = 0; i < a.size(); ++i) {
        mixed.add_clause(a[i]);
        both.add_clause(a[i]);
      }
      mixed.add(b);
      for (std::size_t i = 0; i < b.size(); ++i) both.add_clause(b[i]);
      cdcl_solver fresh(both);
      const sat_result r = mixed.solve();
      CHECK(r == fresh.solve());
      if (n <= 12) CHECK((r == sat_result::sat) == prover_test::brute_force_sat(both));
    }
  }
}

TEST_CASE("an assumption that is not a literal is refused") {
  cdcl_solver s;
  s.add_clause({1, 2});
  const int zero = 0, least = std::numeric_limits<int>::min();
  CHECK_THROWS_AS(s.solve(std::span<const int>(&zero, 1)), std::invalid_argument);
  CHECK_THROWS_AS(s.solve(std::span<const int>(&least, 1)), std::invalid_argument);
  CHECK(s.solve() == sat_result::sat);
}

TEST_CASE("assumptions: answers match a solver given them as units; failed assumptions form a core") {
  bem::xoshiro256ss rng(11);
  for (std::uint64_t j = 0; j < 200; ++j) {
    const cnf f = random_cnf({10, 30, 2, 3}, 17, j);
    cdcl_solver s(f);
    for (int round = 0; round < 3; ++round) {
      std::vector<int> a;
      for (int k = 0; k < 4; ++k) {
        const int v = 1 + static_cast<int>(rng.uniform_below(10));
        a.push_back(rng.bit() ? v : -v);
      }
      cnf with_units = f;
      for (int l : a) with_units.add_clause({l});
      const sat_result r = s.solve(a);
      CHECK((r == sat_result::sat) == prover_test::brute_force_sat(with_units));
      if (r == sat_result::sat) {
        CHECK(satisfies(with_units, s.model()));
      } else {
        cnf core = f;
        for (int l : s.failed_assumptions()) {
          CHECK(std::find(a.begin(), a.end(), l) != a.end());
          core.add_clause({l});
        }
        CHECK_FALSE(prover_test::brute_force_sat(core));
      }
    }
    CHECK((s.solve() == sat_result::sat) == prover_test::brute_force_sat(f));  // assumptions last one call
  }
}

TEST_CASE("conflict budget returns UNKNOWN, then the full answer") {
  // (64, 8n) instances need hundreds of conflicts.
  int unknown = 0;
  for (std::uint64_t j = 0; j < 5; ++j) {
    const cnf f = random_cnf({64, 512, 3, 5}, 1, j);
    cdcl_solver s(f);
    s.set_conflict_budget(3);
    const sat_result r = s.solve();
    if (r == sat_result::unknown) {
      ++unknown;
      CHECK(s.stats().conflicts == 3);
    }
    s.set_conflict_budget(-1);
    const sat_result full = s.solve();
    CHECK(full != sat_result::unknown);
    if (full == sat_result::sat) CHECK(satisfies(f, s.model()));
    cdcl_solver fresh(f);
    CHECK(fresh.solve() == full);
  }
  CHECK(unknown == 5);
}

TEST_CASE("restarts follow the Luby sequence in units of 300 conflicts") {
  const double luby[] = {1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1};
  for (std::uint64_t i = 0; i < std::size(luby); ++i) {
    CAPTURE(i);
    CHECK(bem::prover::detail::luby(i) == luby[i]);
  }
  CHECK(bem::prover::detail::luby(62) == 32);  // the end of the subsequence of length 63
  // Restarts after 300, 600, 1200, 1500, 1800 and 2400 conflicts (1 1 2 1 1
  // 2 units); a budget of 3000 stops the run before the seventh (4 units, at
  // 3600). This instance needs about 15000 conflicts.
  const cnf f = random_cnf({200, 852, 3, 3}, 7, 0);
  cdcl_solver s(f);
  s.set_conflict_budget(3000);
  REQUIRE(s.solve() == sat_result::unknown);
  CHECK(s.stats().conflicts == 3000);
  CHECK(s.stats().restarts == 6);
}

TEST_CASE("incremental context: base + deltas under assumptions equals a fresh solve") {
  for (std::uint64_t j = 0; j < 60; ++j) {
    const cnf base = random_cnf({12, 30, 2, 4}, 23, j);
    incremental_context<cdcl_solver> ctx(base, 12);
    std::vector<cnf> deltas;
    for (std::uint64_t k = 0; k < 4; ++k) {
      deltas.push_back(random_cnf({12, 8, 1, 3}, 29, j * 16 + k));
      CHECK(ctx.add_delta(deltas.back()) == k);
    }
    CHECK((ctx.check_base() == sat_result::sat) == prover_test::brute_force_sat(base));
    for (std::size_t k = 0; k < 4; ++k) {
      cnf both = base;
      for (std::size_t i = 0; i < deltas[k].size(); ++i) both.add_clause(deltas[k][i]);
      const sat_result r = ctx.check(k);
      REQUIRE(r != sat_result::unknown);
      CHECK((r == sat_result::sat) == prover_test::brute_force_sat(both));
      if (r == sat_result::sat) {
        CHECK(satisfies(both, ctx.model()));
      } else if (prover_test::brute_force_sat(base)) {
        const auto failed = ctx.failed_patches();
        CHECK(failed == std::vector<std::size_t>{k});
      }
    }
    const std::size_t pair[2] = {0, 1};
    cnf two = base;
    for (std::size_t k : pair)
      for (std::size_t i = 0; i < deltas[k].size(); ++i) two.add_clause(deltas[k][i]);
    CHECK((ctx.check(pair) == sat_result::sat) == prover_test::brute_force_sat(two));
    ctx.retire(0);
    ctx.retire(0);  // retiring twice changes nothing
    CHECK_THROWS_AS(ctx.check(std::size_t{0}), std::invalid_argument);
    // Law 2: the unit -a_0 is in the solver, so even the back end itself can
    // no longer put delta 0 in force (a_0 = user_vars + 1, law 3).
    const int a0 = 13;
    CHECK(ctx.backend().solve(std::span<const int>(&a0, 1)) == sat_result::unsat);
    cnf base_and_1 = base;
    for (std::size_t i = 0; i < deltas[1].size(); ++i) base_and_1.add_clause(deltas[1][i]);
    CHECK((ctx.check(1) == sat_result::sat) == prover_test::brute_force_sat(base_and_1));
  }
  incremental_context<cdcl_solver> small(cnf(3));
  CHECK_THROWS_AS(small.add_delta(cnf(4)), std::invalid_argument);
  CHECK_THROWS_AS(small.check(std::size_t{7}), std::out_of_range);
  CHECK_THROWS_AS(small.retire(0), std::out_of_range);
}

TEST_CASE("formulas that outgrow 64 variables between solve() calls (occurrence lists to watches)") {
  // Up to 64 variables the solver propagates over occurrence lists with
  // variable masks; the 65th variable moves it to watched literals, keeping
  // its clauses, learned clauses and level-0 assignments.
  int unsat = 0, sat = 0;
  for (std::uint64_t j = 0; j < 30; ++j) {
    const cnf small = random_cnf({40 + static_cast<int>(j % 25), 300, 3, 5}, 41, j);
    const cnf big = random_cnf({100, 420 + static_cast<int>(j % 5) * 20, 3, 5}, 43, j);
    drat_proof proof;
    cdcl_solver s(small, &proof);
    const int assumption[1] = {j % 2 ? 1 : -1};
    const sat_result first = s.solve(assumption);  // leaves learned clauses behind
    cnf small_and_unit = small;
    small_and_unit.add_clause({assumption[0]});
    CHECK(first == cdcl_solver(small_and_unit).solve());
    s.set_conflict_budget(static_cast<std::int64_t>(j % 3));  // an UNKNOWN now and then
    (void)s.solve();
    s.set_conflict_budget(-1);
    cnf both = small;
    for (std::size_t i = 0; i < big.size(); ++i) {
      both.add_clause(big[i]);
      s.add_clause(big[i]);
    }
    CHECK(s.num_vars() == 100);
    const sat_result r = s.solve();
    REQUIRE(r != sat_result::unknown);
    CHECK(r == cdcl_solver(both).solve());
    if (r == sat_result::sat) {
      ++sat;
      CHECK(satisfies(both, s.model()));
    } else {
      ++unsat;
      CHECK(drat_check(both, proof).accepted());
    }
  }
  CHECK(sat > 3);
  CHECK(unsat > 3);
  // One variable at a time past 64, with a solve in between.
  cdcl_solver grow(random_cnf({60, 200, 3, 4}, 47, 0));
  cnf all = grow.clauses();
  for (int step = 0; step < 10; ++step) {
    const int v = grow.new_var();
    const std::vector<int> c = {v, -(1 + step), v - 3};
    grow.add_clause(c);
    all.add_clause(c);
    const sat_result r = grow.solve({-v});
    cnf with_unit = all;
    with_unit.add_clause({-v});
    CHECK(r == cdcl_solver(with_unit).solve());
    if (r == sat_result::sat) CHECK(satisfies(with_unit, grow.model()));
  }
}

namespace {
// The example of bem/prover/sat_backend.hpp.
struct cdcl_twice {
  using sat_backend_concept = bem::prover::sat_backend_t;
  static constexpr const char* backend_name = "cdcl-twice";
  bem::prover::cdcl_solver s;
  void reserve_vars(int n) { s.reserve_vars(n); }
  bool add_clause(std::span<const int> c) { return s.add_clause(c); }
  void set_conflict_budget(std::int64_t b) { s.set_conflict_budget(b); }
  bem::prover::sat_result solve(std::span<const int> a) { return s.solve(a); }
  bool value(int v) const { return s.value(v); }
};
static_assert(bem::prover::sat_backend<cdcl_twice>);

// Same members, no opt-in tag: not a back end.
struct lookalike {
  static constexpr const char* backend_name = "x";
  void reserve_vars(int) {}
  bool add_clause(std::span<const int>) { return true; }
  void set_conflict_budget(std::int64_t) {}
  bem::prover::sat_result solve(std::span<const int>) { return bem::prover::sat_result::sat; }
  bool value(int) const { return false; }
};
static_assert(!bem::prover::sat_backend<lookalike>);
// The 0.1 opt-in no longer opts in (one spelling only).
struct old_spelling : lookalike {
  using sat_backend_tag = void;
};
static_assert(!bem::prover::sat_backend<old_spelling>);

// Opted in, but answers with a model that is wrong: sat_check must notice.
struct liar : lookalike {
  using sat_backend_concept = bem::prover::sat_backend_t;
};
static_assert(bem::prover::sat_backend<liar>);
}  // namespace

TEST_CASE("sat_backend concept: the documented example, model checking of any back end") {
  const cnf f = random_cnf({20, 60, 3, 3}, 2, 0);
  const cnf& formula = f;
  auto r = bem::prover::sat_check<cdcl_twice>(formula);
  const auto ours = sat_check<cdcl_solver>(f);
  CHECK(r.result == ours.result);
  if (r.result == sat_result::sat) CHECK(satisfies(f, r.model));
  cnf needs_true(1);
  needs_true.add_clause({1});
  CHECK_THROWS_AS(sat_check<liar>(needs_true), std::logic_error);
}
