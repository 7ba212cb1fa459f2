// Bit-blasting against concrete arithmetic, weakest preconditions against
// concrete execution, and HOARE_CHECK on safe and unsafe loops.
#include <bem/prng.hpp>
#include <bem/prover/bitblast.hpp>
#include <bem/prover/cdcl.hpp>
#include <bem/prover/hoare.hpp>
#include <bem/prover/sat_backend.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using namespace bem::prover;
namespace hl = bem::prover::hoare;

namespace {

std::int64_t as_signed(std::uint64_t v, int w) {
  const std::uint64_t sign = std::uint64_t{1} << (w - 1);
  return static_cast<std::int64_t>(v ^ sign) - static_cast<std::int64_t>(sign);
}

/// Fixes x and y by assumptions, solves, reads r; then requires that r
/// cannot take any other value (r != expected is UNSAT under the same
/// assumptions): the encoding is a function, both polarities.
struct bv_harness {
  bit_blaster bb;
  bitvec x, y;
  int w;
  explicit bv_harness(int width) : w(width) {
    x = bb.fresh_bv(w);
    y = bb.fresh_bv(w);
  }
  std::vector<int> fix(std::uint64_t xv, std::uint64_t yv) const {
    std::vector<int> a;
    for (int i = 0; i < w; ++i) {
      a.push_back(((xv >> i) & 1u) ? x[i] : -x[i]);
      a.push_back(((yv >> i) & 1u) ? y[i] : -y[i]);
    }
    return a;
  }
};

}  // namespace

TEST_CASE("bit-blasting agrees with concrete arithmetic exhaustively at 4 bits (both polarities)") {
  constexpr int w = 4;
  constexpr std::uint64_t mask = 15;
  bv_harness h(w);
  struct vec_op {
    const char* name;
    bitvec r;
    std::function<std::uint64_t(std::uint64_t, std::uint64_t)> f;
  };
  struct cmp_op {
    const char* name;
    int r;
    std::function<bool(std::uint64_t, std::uint64_t)> f;
  };
  auto& bb = h.bb;
  const int c = bb.fresh();  // ite condition: x < y (unsigned), from the encoder itself
  bb.add_clause({-c, bb.ult(h.x, h.y)});
  bb.add_clause({c, -bb.ult(h.x, h.y)});
  std::vector<vec_op> vops = {
      {"add", bb.add(h.x, h.y), [](auto a, auto b) { return (a + b) & mask; }},
      {"sub", bb.sub(h.x, h.y), [](auto a, auto b) { return (a - b) & mask; }},
      {"neg", bb.neg(h.x), [](auto a, auto) { return (0 - a) & mask; }},
      {"mul", bb.mul(h.x, h.y), [](auto a, auto b) { return (a * b) & mask; }},
      {"and", bb.bv_and(h.x, h.y), [](auto a, auto b) { return a & b; }},
      {"or", bb.bv_or(h.x, h.y), [](auto a, auto b) { return a | b; }},
      {"xor", bb.bv_xor(h.x, h.y), [](auto a, auto b) { return a ^ b; }},
      {"not", bb.bv_not(h.x), [](auto a, auto) { return ~a & mask; }},
      {"ite", bb.bv_ite(c, h.x, h.y), [](auto a, auto b) { return a < b ? a : b; }},
      {"add-with-carry", bb.add(h.x, h.y, bit_blaster::true_lit()), [](auto a, auto b) { return (a + b + 1) & mask; }},
  };
  std::vector<cmp_op> cops = {
      {"eq", bb.eq(h.x, h.y), [](auto a, auto b) { return a == b; }},
      {"ult", bb.ult(h.x, h.y), [](auto a, auto b) { return a < b; }},
      {"ule", bb.ule(h.x, h.y), [](auto a, auto b) { return a <= b; }},
      {"slt", bb.slt(h.x, h.y), [](auto a, auto b) { return as_signed(a, w) < as_signed(b, w); }},
      {"sle", bb.sle(h.x, h.y), [](auto a, auto b) { return as_signed(a, w) <= as_signed(b, w); }},
  };
  // One "differs from expected" literal per op and input pair is built on
  // the fly: r != constant is a literal of the same encoder.
  cdcl_solver s;
  std::size_t flushed = bb.flush(s, 0);
  int checked = 0;
  for (std::uint64_t xv = 0; xv <= mask; ++xv)
    for (std::uint64_t yv = 0; yv <= mask; ++yv) {
      const auto fixed = h.fix(xv, yv);
      REQUIRE(s.solve(fixed) == sat_result::sat);
      for (const auto& op : vops) {
        const std::uint64_t want = op.f(xv, yv);
        INFO(op.name, " x=", xv, " y=", yv);
        CHECK(bit_blaster::value(s.model(), op.r) == want);
      }
      for (const auto& op : cops) {
        INFO(op.name, " x=", xv, " y=", yv);
        CHECK(bit_blaster::value(s.model(), op.r) == op.f(xv, yv));
      }
      // Other polarity: no model gives a different answer.
      std::vector<int> differs;
      for (const auto& op : vops) differs.push_back(-bb.eq(op.r, bit_blaster::constant_bv(w, op.f(xv, yv))));
      for (const auto& op : cops) differs.push_back(op.f(xv, yv) ? -op.r : op.r);
      const int any = bb.or_all(differs);
      flushed = bb.flush(s, flushed);
      auto a = fixed;
      a.push_back(any);
      CHECK(s.solve(a) == sat_result::unsat);
      ++checked;
    }
  CHECK(checked == 256);
  // The signed value reader.
  CHECK(bit_blaster::signed_value(s.model(), bit_blaster::constant_bv(4, 0xF)) == -1);
}

TEST_CASE("bit-blasting agrees with concrete arithmetic on random 16- and 64-bit values") {
  bem::xoshiro256ss rng(2024);
  for (int w : {16, 64}) {
    const std::uint64_t mask = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
    bv_harness h(w);
    auto& bb = h.bb;
    const bitvec add = bb.add(h.x, h.y), sub = bb.sub(h.x, h.y);
    const int ult = bb.ult(h.x, h.y), slt = bb.slt(h.x, h.y), sle = bb.sle(h.x, h.y), eq = bb.eq(h.x, h.y);
    cdcl_solver s;
    bb.flush(s, 0);
    for (int k = 0; k < 40; ++k) {
      std::uint64_t xv = rng.next() & mask, yv = rng.next() & mask;
      if (k % 8 == 0) yv = xv;                 // equal operands
      if (k % 8 == 1) xv = mask, yv = 1;       // wrap-around
      REQUIRE(s.solve(h.fix(xv, yv)) == sat_result::sat);
      const auto& m = s.model();
      CHECK(bit_blaster::value(m, add) == ((xv + yv) & mask));
      CHECK(bit_blaster::value(m, sub) == ((xv - yv) & mask));
      CHECK(bit_blaster::value(m, ult) == (xv < yv));
      const std::int64_t sx = w == 64 ? static_cast<std::int64_t>(xv) : as_signed(xv, w);
      const std::int64_t sy = w == 64 ? static_cast<std::int64_t>(yv) : as_signed(yv, w);
      CHECK(bit_blaster::value(m, slt) == (sx < sy));
      CHECK(bit_blaster::value(m, sle) == (sx <= sy));
      CHECK(bit_blaster::value(m, eq) == (xv == yv));
    }
  }
}

TEST_CASE("the bit-blaster folds constants and hashes gates") {
  bit_blaster bb;
  const int a = bb.fresh(), b = bb.fresh();
  const std::size_t before = bb.formula().size();
  CHECK(bb.and_(a, bit_blaster::false_lit()) == bit_blaster::false_lit());
  CHECK(bb.and_(a, bit_blaster::true_lit()) == a);
  CHECK(bb.xor_(a, bit_blaster::true_lit()) == -a);
  CHECK(bb.xor_(a, a) == bit_blaster::false_lit());
  CHECK(bb.formula().size() == before);
  const int g = bb.and_(a, b);
  CHECK(bb.and_(b, a) == g);
  CHECK(bb.xor_(-a, b) == -bb.xor_(a, b));
  CHECK_THROWS_AS(bb.add(bb.fresh_bv(3), bb.fresh_bv(4)), std::invalid_argument);
  CHECK_THROWS_AS(bb.add_clause({bb.num_vars() + 1}), std::invalid_argument);
  // The example of the header comment.
  bit_blaster e;
  auto x = e.fresh_bv(4), y = e.fresh_bv(4);
  e.assert_true(e.eq(e.add(x, y), bit_blaster::constant_bv(4, 3)));
  e.assert_true(e.ult(bit_blaster::constant_bv(4, 9), x));
  auto r = sat_check<cdcl_solver>(e.formula());
  REQUIRE(r.result == sat_result::sat);
  CHECK(bit_blaster::value(r.model, x) > 9);
  CHECK(bit_blaster::value(r.model, x) + bit_blaster::value(r.model, y) == 3 + 16);
}

namespace {

/// The loop i := 0; while (i < M) i := i + 1 (or i <= M when off_by_one),
/// over 8-bit unsigned i and a symbolic 8-bit M; BAD = i > M.
struct counting_loop {
  hl::cfg g;
  hl::expr i = g.int_var("i", 8);
  hl::expr M = g.int_var("M", 8);
  hl::location head = g.add_location("head");
  hl::location done = g.add_location("exit");
  std::size_t body = 0;
  explicit counting_loop(bool off_by_one) {
    g.set_initial(head, i == 0);
    body = g.add_edge(head, head, hl::guarded(off_by_one ? i <= M : i < M, {{i, i + 1}}), "i := i + 1");
    g.add_edge(head, done, hl::assume(off_by_one ? i > M : i >= M));
    g.set_bad(i > M);
  }
};

/// Runs the loop concretely from Init (i = 0) with the given M; returns the
/// visited states at head, stopping when BAD holds or the loop exits.
std::vector<hl::state> run_loop(const counting_loop& L, std::int64_t M) {
  std::vector<hl::state> trace{{0, M}};
  for (int step = 0; step < 600; ++step) {
    const hl::state& s = trace.back();
    if (hl::holds(L.g.bad(), s, L.g.vars())) break;
    const auto next = hl::execute(L.g.edges()[L.body].body, s, L.g.vars());
    if (next.empty()) break;  // guard false: the loop exits
    REQUIRE(next.size() == 1);
    trace.push_back(next[0]);
  }
  return trace;
}

}  // namespace

TEST_CASE("HOARE_CHECK proves the safe loop safe: every VC UNSAT") {
  counting_loop L(false);
  const hl::annotations P = {{L.head, L.i <= L.M}, {L.done, L.i == L.M}};
  const auto r = hl::hoare_check(L.g, P);
  CHECK(r.valid());
  CHECK_FALSE(r.unknown());
  CHECK(r.counterexamples.empty());
  // 1 initiation + 2 edges + 2 locations.
  REQUIRE(r.vcs.size() == 5);
  for (const auto& v : r.vcs) {
    CHECK(v.result == sat_result::unsat);
    CHECK(v.clauses > 0);
  }
  CHECK(r.vcs[1].kind == hl::vc_kind::consecution);
  CHECK(r.vcs[1].edge == std::optional<std::size_t>(0));
  // Concrete cross-check: from every M the loop stays out of BAD and ends at i = M.
  for (std::int64_t M = 0; M < 256; M += 17) {
    const auto t = run_loop(L, M);
    CHECK(t.back()[0] == M);
    for (const auto& s : t) CHECK_FALSE(hl::holds(L.g.bad(), s, L.g.vars()));
  }
}

TEST_CASE("HOARE_CHECK finds the off-by-one loop's counterexample, and it really violates") {
  counting_loop L(true);
  // The annotation of the correct loop is not inductive for i <= M.
  const auto r = hl::hoare_check(L.g, {{L.head, L.i <= L.M}});
  CHECK_FALSE(r.valid());
  REQUIRE_FALSE(r.counterexamples.empty());  // also: safety at the unannotated exit
  const auto& cx = r.counterexamples[0];
  CHECK(cx.kind == hl::vc_kind::consecution);
  CHECK(cx.edge == std::optional<std::size_t>(L.body));
  MESSAGE(cx.message);
  CHECK(cx.message.find("edge 0") != std::string::npos);
  CHECK(cx.message.find("i := i + 1") != std::string::npos);
  const std::int64_t i = cx.pre[0], M = cx.pre[1];
  CHECK(i == M);  // the only state where one more step leaves i <= M
  CHECK(cx.post == hl::state{M + 1, M});
  CHECK(hl::holds(L.g.bad(), cx.post, L.g.vars()));
  // Replay from the initial state: the loop reaches the counterexample state
  // and then BAD, for the M the solver chose.
  const auto t = run_loop(L, M);
  CHECK(std::find(t.begin(), t.end(), cx.pre) != t.end());
  CHECK(hl::holds(L.g.bad(), t.back(), L.g.vars()));
  CHECK(t.back() == cx.post);

  // Its true invariant (i <= M + 1, M < 255 so that M + 1 does not wrap) is
  // inductive, and then safety fails at a reachable BAD state.
  L.g.set_initial(L.head, L.i == 0 && L.M < 255);
  const hl::annotations P2 = {{L.head, L.i <= L.M + 1 && L.M < 255}};
  const auto r2 = hl::hoare_check(L.g, P2);
  CHECK_FALSE(r2.valid());
  REQUIRE_FALSE(r2.counterexamples.empty());
  const auto& c2 = r2.counterexamples[0];
  CHECK(c2.kind == hl::vc_kind::safety);
  CHECK(c2.loc == L.head);
  CHECK(c2.pre[0] == c2.pre[1] + 1);
  CHECK(run_loop(L, c2.pre[1]).back() == c2.pre);
  // With M = 255 the 8-bit loop never exceeds M (i wraps first): M < 255
  // was needed, and the Init restricted to M = 255 is safe.
  hl::cfg& g = L.g;
  g.set_initial(L.head, L.i == 0 && L.M == 255);
  CHECK(hl::hoare_check(g, {{L.head, L.M == 255}, {L.done, L.M == 255}}).valid());
}

TEST_CASE("a wrong (non-inductive) annotation is reported with the failing edge") {
  counting_loop L(false);
  // i <= M && i < 5 holds initially and excludes BAD, but is not preserved.
  const auto r = hl::hoare_check(L.g, {{L.head, L.i <= L.M && L.i < 5}, {L.done, L.i == L.M}});
  CHECK_FALSE(r.valid());
  REQUIRE(r.counterexamples.size() >= 1);
  const auto& cx = r.counterexamples[0];
  CHECK(cx.kind == hl::vc_kind::consecution);
  CHECK(cx.edge == std::optional<std::size_t>(L.body));
  CHECK(cx.loc == L.head);
  CHECK(cx.to == L.head);
  CHECK(cx.pre[0] == 4);
  CHECK(cx.post[0] == 5);
  CHECK(cx.pre[1] > 4);
  // The failure is the step, not the start or safety.
  for (const auto& v : r.vcs)
    if (v.kind != hl::vc_kind::consecution) CHECK(v.result == sat_result::unsat);
  // The exit edge's annotation is also broken there: i < 5 does not give i == M.
  bool exit_edge = false;
  for (const auto& c : r.counterexamples) exit_edge = exit_edge || c.edge == std::optional<std::size_t>(1);
  CHECK_FALSE(exit_edge);  // i <= M && i >= M still gives i == M
  // stop_at_first_failure stops there.
  hl::hoare_options o;
  o.stop_at_first_failure = true;
  const auto r1 = hl::hoare_check(L.g, {{L.head, L.i <= L.M && L.i < 5}}, o);
  CHECK(r1.vcs.size() == 2);
  // A wrong initial annotation fails initiation.
  const auto r2 = hl::hoare_check(L.g, {{L.head, L.i == 1}});
  REQUIRE_FALSE(r2.counterexamples.empty());
  CHECK(r2.counterexamples[0].kind == hl::vc_kind::initiation);
  CHECK(r2.counterexamples[0].pre[0] == 0);
}

TEST_CASE("WP by substitution agrees with concrete execution on every 3-bit state") {
  hl::variables vars;
  auto x = vars.int_var("x", 3), y = vars.int_var("y", 3, true), b = vars.bool_var("b");
  // A statement with every construct: guards, choice, havoc, simultaneous
  // assignment, signed and unsigned arithmetic.
  const hl::stmt st = hl::seq({
      hl::choice({hl::guarded(b, {{x, x + 1}, {y, y - 2}}), hl::seq({hl::assume(!b), hl::havoc(y)}),
                  hl::assign({{x, hl::ite(y == 0, x, x * 3)}, {b, x < 4}})}),
      hl::assign(b, y < -1 || x == 7),
      hl::assign({{x, x ^ 5}, {y, -y}}),
  });
  const std::vector<hl::expr> posts = {b, x < 6 && y >= 0, hl::implies(b, y != -3 && x != 2), (x & 1) == 0 || y < 3 || b};
  int checked = 0;
  for (const hl::expr& post : posts) {
    hl::variables v2 = vars;
    const hl::expr w = hl::wp(st, post, v2);
    CHECK(v2.size() == vars.size() + 1);  // one fresh variable for the havoc
    for (std::int64_t xv = 0; xv < 8; ++xv)
      for (std::int64_t yv = -4; yv < 4; ++yv)
        for (std::int64_t bv = 0; bv < 2; ++bv) {
          const hl::state s{xv, yv, bv};
          bool all = true;
          for (const auto& t : hl::execute(st, s, vars)) all = all && hl::holds(post, t, vars);
          // WP has the havoc's fresh variable free (universally quantified).
          bool wp_all = true;
          for (std::int64_t f = -4; f < 4; ++f) wp_all = wp_all && hl::holds(w, {xv, yv, bv, f}, v2);
          CHECK(all == wp_all);
          ++checked;
        }
  }
  CHECK(checked == 4 * 128);
  // Substitution is syntactic and the printed form says so.
  CHECK(hl::to_string(hl::wp(hl::assign(x, x + 1), x <= 5, vars), vars) == "((x + 1) <= 5)");
  CHECK(hl::to_string(hl::wp(hl::assume(b), x == 1, vars), vars) == "(b => (x == 1))");
  // Simultaneous: every value is read from the state before the statement,
  // in execution and in WP alike; a swap shows it.
  hl::variables sv;
  auto p = sv.int_var("p", 4), q = sv.int_var("q", 4);
  const hl::stmt swap = hl::assign({{p, q}, {q, p}});
  const auto swapped = hl::execute(swap, hl::state{3, 9}, sv);
  REQUIRE(swapped.size() == 1);
  CHECK(swapped[0] == hl::state{9, 3});
  CHECK(hl::to_string(hl::wp(swap, p < q, sv), sv) == "(q < p)");
}

TEST_CASE("safety in the benchmark's 5.3 form: an index stays in [0, M), a BAD flag is never set") {
  for (bool off_by_one : {false, true}) {
    hl::cfg g;
    auto i = g.int_var("i", 6), M = g.int_var("M", 6), bad = g.bool_var("bad");
    auto head = g.add_location("head"), access = g.add_location("access");
    g.set_initial(head, i == 0 && !bad);
    g.add_edge(head, access, hl::assume(off_by_one ? i <= M : i < M));
    // a[i] := ...: out-of-range access sets the BAD flag.
    g.add_edge(access, head, hl::assign({{bad, bad || !(i < M)}, {i, i + 1}}));
    g.set_bad(bad);
    const hl::annotations P = {{head, i <= M && !bad}, {access, i < M && !bad}};
    const auto r = hl::hoare_check(g, P);
    CHECK(r.valid() == !off_by_one);
    if (off_by_one) {
      REQUIRE_FALSE(r.counterexamples.empty());
      const auto& cx = r.counterexamples[0];
      CHECK(cx.kind == hl::vc_kind::consecution);
      CHECK(cx.edge == std::optional<std::size_t>(0));
      CHECK(cx.pre[0] == cx.pre[1]);  // i == M reaches the access
    }
  }
  // The same with an error location (an assertion) instead of a flag.
  hl::cfg g;
  auto i = g.int_var("i", 6, true), n = g.int_var("n", 6, true);
  auto head = g.add_location("head"), err = g.add_location("error");
  g.set_initial(head, i == 10 && n == -5);
  g.add_edge(head, head, hl::guarded(i > n, {{i, i - 1}}));
  g.add_edge(head, err, hl::assume(i < -5 || i > 10));
  g.mark_error(err);
  const hl::annotations P = {{head, i >= -5 && i <= 10 && n == -5}, {err, false}};
  CHECK(hl::hoare_check(g, P).valid());
  const auto r = hl::hoare_check(g, {{head, i >= -5 && i <= 10 && n == -5}});  // error location unannotated
  CHECK_FALSE(r.valid());
  REQUIRE(r.counterexamples.size() == 1);
  CHECK(r.counterexamples[0].kind == hl::vc_kind::safety);
  CHECK(r.counterexamples[0].loc == err);
}

TEST_CASE("the language rejects ill-typed expressions with a message naming them") {
  hl::cfg g;
  auto i = g.int_var("i", 8), j = g.int_var("j", 4), b = g.bool_var("b");
  auto l = g.add_location("l");
  g.set_initial(l);
  // The encoder (hoare_check) and the interpreter (holds) type through the
  // same rules: each must reject p with the same message.
  const hl::state zero(g.vars().size(), 0);
  auto expect_error = [&](const hl::expr& p, const std::string& part) {
    try {
      (void)hl::hoare_check(g, {{l, p}});
      const std::string text = "no error for " + hl::to_string(p, g.vars());
      FAIL(text);
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find(part) != std::string::npos);
    }
    CHECK_THROWS_WITH_AS((void)hl::holds(p, zero, g.vars()), doctest::Contains(part.c_str()), std::invalid_argument);
  };
  expect_error(i < 300, "does not fit in u8");
  expect_error(i + j == 0, "u4");
  expect_error(i + b == 0, "bool");
  expect_error(hl::expr(1) < 2, "compares two integer literals");
  expect_error(b < b, "orders Booleans");
  CHECK_THROWS_AS(hl::assign(i + 1, 0), std::invalid_argument);
  CHECK_THROWS_AS(hl::assign({{i, 0}, {i, 1}}), std::invalid_argument);
  CHECK_THROWS_AS(g.int_var("i", 8), std::invalid_argument);
  CHECK_THROWS_AS(g.int_var("k", 65), std::invalid_argument);
  // Signed 64-bit and unsigned 64-bit extremes evaluate with wrap-around.
  hl::variables v;
  auto s = v.int_var("s", 64, true), u = v.int_var("u", 64);
  CHECK(hl::holds(s + 1 < s, {INT64_MAX, 0}, v));
  CHECK(hl::holds(u + 1 == 0, {0, -1}, v));
  CHECK(hl::holds(u > 5, {0, -1}, v));  // 2^64 - 1 is large, unsigned
}

TEST_CASE("assigning a literal: it takes the target's type; a value of another type is an error") {
  hl::cfg g;
  auto i = g.int_var("i", 8), M = g.int_var("M", 8);
  auto a = g.add_location("a"), b = g.add_location("b");
  g.set_initial(a, M == 3);
  g.add_edge(a, b, hl::assign({{i, 0}, {M, 7}}));  // WP(i < 5) used to be (0 < 5): two untyped literals
  const auto ok = hl::hoare_check(g, {{b, i < 5 && i <= M}});
  CHECK(ok.valid());
  const auto wrong = hl::hoare_check(g, {{b, i == 1}});
  CHECK_FALSE(wrong.valid());  // the literal's value, not its type alone
  hl::variables vars = g.vars();
  CHECK(hl::to_string(hl::wp(hl::assign(i, 0), i < 5, vars), vars) == "((true ? 0 : i) < 5)");
  // u8 := s8: execute() refuses it, and so does WP (x < 5 would become a signed y < 5).
  hl::cfg h;
  auto x = h.int_var("x", 8), s = h.int_var("s", 8, true);
  auto c = h.add_location("c"), d = h.add_location("d");
  h.set_initial(c, s == -1);
  h.add_edge(c, d, hl::assign(x, s));
  CHECK_THROWS_WITH_AS((void)hl::hoare_check(h, {{d, x < 5}}), doctest::Contains("where u8 is expected"),
                       std::invalid_argument);
}

TEST_CASE("the header example") {
  using namespace bem::prover::hoare;
  // [header example]
  bem::prover::hoare::cfg g;
  auto i = g.int_var("i", 8), M = g.int_var("M", 8);
  auto head = g.add_location("head"), done = g.add_location("exit");
  g.set_initial(head, i == 0);  // i := 0
  g.add_edge(head, head, guarded(i < M, {{i, i + 1}}));
  g.add_edge(head, done, assume(i >= M));
  g.set_bad(i > M);
  auto r = hoare_check(g, {{head, i <= M}, {done, i == M}});  // r.valid()
  CHECK(r.valid());
  CHECK(r.seconds >= 0);
}

TEST_CASE("generated programs (microbenchmark 2.4's Hoare half): SAFE ones verify, UNSAFE ones fail on edge 0") {
  using namespace bem::prover::hoare;
  for (const random_program_cell cell : {random_program_cell{1, 4, 1}, random_program_cell{4, 8, 3},
                                         random_program_cell{8, 16, 6}}) {
    for (std::uint64_t index = 0; index < 4; ++index) {
      CAPTURE(cell.registers);
      CAPTURE(cell.width);
      CAPTURE(index);
      const random_program safe = make_random_program(cell, 7, index, true);
      CHECK(safe.graph.edges().size() == static_cast<std::size_t>(cell.edges) + 1);
      const hoare_result ok = hoare_check(safe.graph, safe.invariant);
      CHECK(ok.valid());
      const random_program unsafe = make_random_program(cell, 7, index, false);
      const hoare_result bad = hoare_check(unsafe.graph, unsafe.invariant);
      CHECK_FALSE(bad.valid());
      REQUIRE_FALSE(bad.counterexamples.empty());
      // The only widened edge is edge 0: its consecution is what fails.
      for (const auto& c : bad.counterexamples) {
        CHECK(c.kind == vc_kind::consecution);
        CHECK(c.edge == std::optional<std::size_t>(unsafe.unsafe_edge));
      }
      // The same seed and index give the same program; the next index another.
      const random_program again = make_random_program(cell, 7, index, true);
      for (std::size_t e = 0; e < safe.graph.edges().size(); ++e)
        CHECK(again.graph.edges()[e].label == safe.graph.edges()[e].label);
      const random_program next = make_random_program(cell, 7, index + 100, true);
      bool differs = false;
      for (std::size_t e = 0; e < safe.graph.edges().size(); ++e)
        differs |= next.graph.edges()[e].label != safe.graph.edges()[e].label;
      CHECK(differs);
    }
  }
  CHECK_THROWS_AS(make_random_program({0, 8, 1}, 1, 0, true), std::invalid_argument);
  CHECK_THROWS_AS(make_random_program({1, 40, 1}, 1, 0, true), std::invalid_argument);
}
