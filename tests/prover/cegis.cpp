// CEGIS: known minimal circuits, the "no circuit of at most G gates" proof
// (cross-checked by brute force), reference-circuit specs with SAT miters,
// and termination of the counterexample loop. Every returned circuit is
// checked exhaustively against its specification here, independently of
// the spec's own verify.
#include <bem/prng.hpp>
#include <bem/prover/cegis.hpp>
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <vector>

using namespace bem::prover;
using bem::gate;
using bem::gate_list;
using bem::gate_op;

namespace {

/// Output word of circuit c on row x (bit k = output k), by the plain interpreter.
std::uint64_t run(const gate_list& c, std::uint64_t x) {
  std::vector<bool> in(c.inputs());
  for (std::size_t j = 0; j < in.size(); ++j) in[j] = (x >> j) & 1u;
  const auto out = evaluate(c, in);
  std::uint64_t r = 0;
  for (std::size_t k = 0; k < out.size(); ++k) r |= std::uint64_t{out[k]} << k;
  return r;
}

/// c computes f on every row of n inputs.
bool computes(const gate_list& c, std::size_t n, const std::function<std::uint64_t(std::uint64_t)>& f) {
  for (std::uint64_t x = 0; x < (std::uint64_t{1} << n); ++x)
    if (run(c, x) != f(x)) return false;
  return true;
}

std::uint64_t majority3(std::uint64_t x) { return std::popcount(x & 7) >= 2 ? 1 : 0; }

/// Brute force: does some circuit of exactly g gates over `ops` (binary, all
/// operand pairs, in list order) with one output agree with f on the given
/// rows? Node values are bit masks over the rows.
bool brute_force_exists(std::size_t n, std::size_t g, const std::vector<gate_op>& ops,
                        const std::vector<std::uint64_t>& rows, const std::function<std::uint64_t(std::uint64_t)>& f) {
  std::vector<std::uint64_t> v(n + g);
  std::uint64_t target = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    target |= (f(rows[r]) & 1u) << r;
    for (std::size_t j = 0; j < n; ++j) v[j] |= ((rows[r] >> j) & 1u) << r;
  }
  const std::uint64_t all = rows.size() == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << rows.size()) - 1;
  std::function<bool(std::size_t)> place = [&](std::size_t i) -> bool {
    if (i == g) {
      for (std::size_t o = 0; o < n + g; ++o)
        if ((v[o] & all) == target) return true;
      return false;
    }
    for (gate_op op : ops)
      for (std::size_t a = 0; a < n + i; ++a)
        for (std::size_t b = 0; b < n + i; ++b) {
          v[n + i] = bem::apply_gate<std::uint64_t>(op, 0, v[a], v[b], v[a]);
          if (place(i + 1)) return true;
        }
    return false;
  };
  return place(0);
}

}  // namespace

TEST_CASE("CEGIS: XOR of two inputs needs exactly one gate") {
  const auto spec = truth_table_spec::from_function(2, 1, [](std::uint64_t x) { return (x ^ (x >> 1)) & 1u; });
  hypothesis_class h;
  h.max_gates = 3;
  const auto r = cegis(spec, h);
  REQUIRE(r.status == cegis_status::found);
  REQUIRE(r.circuit);
  CHECK(r.circuit->gate_count() == 1);
  CHECK(r.circuit->gates()[0].op == gate_op::xor_);
  CHECK(computes(*r.circuit, 2, [](std::uint64_t x) { return (x ^ (x >> 1)) & 1u; }));
  REQUIRE(r.sizes.size() == 2);
  CHECK(r.sizes[0].gates == 0);
  CHECK(r.sizes[0].status == cegis_status::no_circuit);
  CHECK(r.sizes[1].status == cegis_status::found);
  CHECK(r.iterations == r.sizes[0].iterations + r.sizes[1].iterations);
  CHECK(r.seconds >= r.synth_seconds);
  // Without XOR it takes three gates of AND/OR/ANDN... and NOT is not needed.
  hypothesis_class no_xor;
  no_xor.ops = {gate_op::and_, gate_op::or_, gate_op::andn, gate_op::not_};
  no_xor.max_gates = 4;
  const auto r3 = cegis(spec, no_xor);
  REQUIRE(r3.status == cegis_status::found);
  CHECK(r3.circuit->gate_count() == 3);
  CHECK(computes(*r3.circuit, 2, [](std::uint64_t x) { return (x ^ (x >> 1)) & 1u; }));
}

TEST_CASE("CEGIS: ANDN is not symmetric, so both x0 & ~x1 and x1 & ~x0 take one gate") {
  // The template orders the operands of symmetric operations only; ordering
  // ANDN's too would leave one of these two functions without a 1-gate circuit.
  hypothesis_class h;
  h.ops = {gate_op::andn};
  h.max_gates = 1;
  for (unsigned a = 0; a < 2; ++a) {
    auto f = [a](std::uint64_t x) { return ((x >> a) & ~(x >> (1 - a))) & 1u; };
    const auto r = cegis(truth_table_spec::from_function(2, 1, f), h);
    CAPTURE(a);
    REQUIRE(r.status == cegis_status::found);
    CHECK(r.circuit->gate_count() == 1);
    CHECK(r.circuit->gates()[0].a == a);
    CHECK(r.circuit->gates()[0].b == 1 - a);
    CHECK(computes(*r.circuit, 2, f));
  }
}

TEST_CASE("CEGIS: no 1-gate AND/OR circuit computes majority-3; the minimum is 4, confirmed by brute force") {
  const auto spec = truth_table_spec::from_function(3, 1, majority3);
  hypothesis_class h;
  h.ops = {gate_op::and_, gate_op::or_};
  h.max_gates = 1;
  const auto r = cegis(spec, h);
  CHECK(r.status == cegis_status::no_circuit);
  CHECK_FALSE(r.circuit);
  MESSAGE(r.message);
  CHECK(r.message.find("no circuit of at most 1 gates") != std::string::npos);
  // The examples collected are a certificate: brute force agrees that no
  // circuit of 0 or 1 AND/OR gates fits even those rows.
  std::vector<std::uint64_t> rows;
  for (const auto& e : r.examples) {
    std::uint64_t x = 0;
    for (std::size_t j = 0; j < 3; ++j) x |= std::uint64_t{e.input[j]} << j;
    CHECK(std::uint64_t{e.output[0]} == majority3(x));
    rows.push_back(x);
  }
  CHECK_FALSE(brute_force_exists(3, 0, h.ops, rows, majority3));
  CHECK_FALSE(brute_force_exists(3, 1, h.ops, rows, majority3));

  h.max_gates = 6;
  const auto r4 = cegis(spec, h);
  REQUIRE(r4.status == cegis_status::found);
  CHECK(r4.circuit->gate_count() == 4);
  CHECK(computes(*r4.circuit, 3, majority3));
  for (const auto& g : r4.circuit->gates()) CHECK((g.op == gate_op::and_ || g.op == gate_op::or_));
  // Brute force over all 8 rows: no 3-gate AND/OR circuit, a 4-gate one exists.
  std::vector<std::uint64_t> all{0, 1, 2, 3, 4, 5, 6, 7};
  CHECK_FALSE(brute_force_exists(3, 3, h.ops, all, majority3));
  CHECK(brute_force_exists(3, 4, h.ops, all, majority3));

  // With the majority ternary gate (or any ternary table) it is one gate.
  hypothesis_class t;
  t.ops = {gate_op::ternary};
  t.ternary_tables = {bem::ternary_tt::mux, bem::ternary_tt::majority};
  t.max_gates = 2;
  const auto rt = cegis(spec, t);
  REQUIRE(rt.status == cegis_status::found);
  CHECK(rt.circuit->gate_count() == 1);
  CHECK(rt.circuit->gates()[0].tt == bem::ternary_tt::majority);
  CHECK(computes(*rt.circuit, 3, majority3));
}

TEST_CASE("CEGIS: full adder (5 gates) and 2-bit adder (7 gates), minimal over AND/OR/XOR/NOT/ANDN") {
  auto full = [](std::uint64_t x) -> std::uint64_t { return static_cast<std::uint64_t>(std::popcount(x & 7)); };
  hypothesis_class h;
  h.max_gates = 6;
  const auto fa = cegis(truth_table_spec::from_function(3, 2, full), h);
  REQUIRE(fa.status == cegis_status::found);
  CHECK(fa.circuit->gate_count() == 5);
  CHECK(computes(*fa.circuit, 3, full));
  for (const auto& s : fa.sizes)
    if (s.gates < 5) CHECK(s.status == cegis_status::no_circuit);

  auto add2 = [](std::uint64_t x) { return (x & 3) + ((x >> 2) & 3); };
  hypothesis_class h2;
  h2.max_gates = 7;
  const auto r = cegis(truth_table_spec::from_function(4, 3, add2), h2);
  REQUIRE(r.status == cegis_status::found);
  CHECK(r.circuit->gate_count() == 7);
  CHECK(computes(*r.circuit, 4, add2));
  REQUIRE(r.sizes.size() == 8);
  for (std::size_t g = 0; g < 7; ++g) CHECK(r.sizes[g].status == cegis_status::no_circuit);  // none of 0..6 gates
  MESSAGE("2-bit adder: ", r.iterations, " synthesis queries, ", r.synth_seconds, " s synthesising, ",
          r.verify_seconds, " s verifying");
  // Without minimisation: one template of G = 8 gates, padding removed.
  hypothesis_class h3;
  h3.max_gates = 8;
  h3.minimise = false;
  const auto r8 = cegis(truth_table_spec::from_function(4, 3, add2), h3);
  REQUIRE(r8.status == cegis_status::found);
  CHECK(r8.circuit->gate_count() <= 8);
  CHECK(r8.circuit->live_gates() == r8.circuit->gate_count());
  CHECK(computes(*r8.circuit, 4, add2));
}

TEST_CASE("CEGIS: every 3-input function, with any ternary table in one gate and with binary gates minimally") {
  hypothesis_class any;
  any.ops = {gate_op::ternary};
  any.max_gates = 1;
  hypothesis_class bin;
  bin.max_gates = 8;
  int sizes[9] = {};
  for (std::uint64_t tt = 0; tt < 256; ++tt) {
    auto f = [tt](std::uint64_t x) { return (tt >> x) & 1u; };
    const auto spec = truth_table_spec::from_function(3, 1, f);
    const auto r = cegis(spec, any);
    REQUIRE(r.status == cegis_status::found);
    CHECK(r.circuit->gate_count() <= 1);
    CHECK(computes(*r.circuit, 3, f));
    if (tt % 8 == 3) {  // a sample of the binary-basis searches (each proves its minimum)
      const auto rb = cegis(spec, bin);
      REQUIRE(rb.status == cegis_status::found);
      CHECK(computes(*rb.circuit, 3, f));
      ++sizes[rb.circuit->gate_count()];
    }
  }
  MESSAGE("minimal sizes of 32 sampled 3-input functions: 0:", sizes[0], " 1:", sizes[1], " 2:", sizes[2], " 3:",
          sizes[3], " 4:", sizes[4], " 5:", sizes[5], " 6:", sizes[6], " 7:", sizes[7], " 8:", sizes[8]);
}

TEST_CASE("CEGIS against a reference circuit: SAT miter on all inputs, on a CNF domain, on a list") {
  // A bloated 6-input reference: out0 = x0 ^ x1 ^ x2 built from AND/OR/NOT
  // (plus a dead gate), out1 = (x3 & x4) | (x3 & ~x4) = x3.
  std::vector<gate> g = {
      {gate_op::not_, 0, 0, 0, 0},   // 6: ~x0
      {gate_op::not_, 0, 1, 0, 0},   // 7: ~x1
      {gate_op::and_, 0, 0, 7, 0},   // 8: x0 & ~x1
      {gate_op::and_, 0, 6, 1, 0},   // 9: ~x0 & x1
      {gate_op::or_, 0, 8, 9, 0},    // 10: x0 ^ x1
      {gate_op::not_, 0, 10, 0, 0},  // 11
      {gate_op::not_, 0, 2, 0, 0},   // 12
      {gate_op::and_, 0, 10, 12, 0}, // 13
      {gate_op::and_, 0, 11, 2, 0},  // 14
      {gate_op::or_, 0, 13, 14, 0},  // 15: x0 ^ x1 ^ x2
      {gate_op::and_, 0, 3, 4, 0},   // 16
      {gate_op::andn, 0, 3, 4, 0},   // 17
      {gate_op::or_, 0, 16, 17, 0},  // 18: x3
      {gate_op::xor_, 0, 5, 5, 0},   // 19: dead
  };
  const gate_list ref(6, g, {15, 18});
  auto f = [&](std::uint64_t x) { return run(ref, x); };
  circuit_spec spec(ref);
  hypothesis_class h;
  h.max_gates = 4;
  const auto r = cegis(spec, h);
  REQUIRE(r.status == cegis_status::found);
  CHECK(r.circuit->gate_count() == 2);  // two XORs; out1 is input 3 itself
  CHECK(r.circuit->output_nodes()[1] == 3);
  CHECK(computes(*r.circuit, 6, f));
  CHECK(spec.miter_queries() == r.verifications);
  CHECK(r.iterations <= 64 + 3);

  // On the domain x2 = 0 (a CNF over the inputs: the unit clause -3), one
  // XOR suffices, and the answer is wrong off the domain.
  cnf dom;
  dom.add_clause({-3});
  circuit_spec on_dom(ref, dom);
  const auto rd = cegis(on_dom, h);
  REQUIRE(rd.status == cegis_status::found);
  CHECK(rd.circuit->gate_count() == 1);
  bool wrong_somewhere = false;
  for (std::uint64_t x = 0; x < 64; ++x) {
    if ((x >> 2) & 1u)
      wrong_somewhere = wrong_somewhere || run(*rd.circuit, x) != f(x);
    else
      CHECK(run(*rd.circuit, x) == f(x));
  }
  CHECK(wrong_somewhere);

  // On an explicit list: the rows where x0 = x1 = 0; out0 = x2 needs no gate.
  std::vector<std::vector<bool>> list;
  for (std::uint64_t x = 0; x < 64; ++x)
    if ((x & 3) == 0) {
      std::vector<bool> v(6);
      for (std::size_t j = 0; j < 6; ++j) v[j] = (x >> j) & 1u;
      list.push_back(v);
    }
  circuit_spec on_list(ref, list);
  const auto rl = cegis(on_list, h);
  REQUIRE(rl.status == cegis_status::found);
  CHECK(rl.circuit->gate_count() == 0);
  for (const auto& v : list) CHECK(evaluate(*rl.circuit, v) == evaluate(ref, v));
}

TEST_CASE("the counterexample loop terminates: every example is new, at most |D| + 1 rounds per size") {
  bem::xoshiro256ss rng(7);
  hypothesis_class h;
  h.max_gates = 4;
  for (int k = 0; k < 6; ++k) {
    std::vector<std::uint64_t> rows(16);
    for (auto& v : rows) v = rng.next() & 1u;
    const truth_table_spec spec(4, 1, rows);
    const auto r = cegis(spec, h);
    CHECK(r.status != cegis_status::unknown);
    std::set<std::vector<bool>> seen;
    for (const auto& e : r.examples) CHECK(seen.insert(e.input).second);
    for (const auto& s : r.sizes) CHECK(s.iterations <= 16 + 1);
    if (r.status == cegis_status::found) {
      CHECK(computes(*r.circuit, 4, [&](std::uint64_t x) { return rows[x]; }));
    } else {
      CHECK(r.message.find("at most 4") != std::string::npos);
    }
  }
  // The iteration limit and the conflict budget give UNKNOWN, not a wrong answer.
  cegis_options o;
  o.max_iterations = 2;
  const auto parity = truth_table_spec::from_function(4, 1, [](std::uint64_t x) { return std::popcount(x) & 1u; });
  const auto lim = cegis(parity, h, o);
  CHECK(lim.status == cegis_status::unknown);
  CHECK(lim.iterations == 2);
  // A care set: only the rows listed count.
  auto sparse = truth_table_spec::from_function(4, 1, [](std::uint64_t x) { return std::popcount(x) & 1u; });
  const std::vector<std::uint64_t> care{0, 3, 5, 15};  // parity 0 on all of them
  sparse.restrict_to(care);
  const auto rs = cegis(sparse, h);
  REQUIRE(rs.status == cegis_status::found);
  for (auto x : care) CHECK(run(*rs.circuit, x) == 0u);
  // One gate (a constant 0, such as x XOR x) where parity of all 16 rows takes
  // three: rows outside the care set are not checked.
  CHECK(rs.circuit->gate_count() == 1);
  CHECK(rs.examples.size() <= care.size());
}

// [doc] the synthesis_spec example of cegis.hpp
struct parity_spec {                       // odd parity of n inputs
  using synthesis_spec_concept = bem::prover::synthesis_spec_t;
  std::size_t n = 3;
  std::size_t inputs() const { return n; }
  std::size_t outputs() const { return 1; }
  std::optional<bem::prover::io_example> verify(const bem::gate_list& c) const {
    for (std::uint64_t x = 0; x < (std::uint64_t{1} << n); ++x) {
      bem::prover::io_example e;
      for (std::size_t j = 0; j < n; ++j) e.input.push_back((x >> j) & 1u);
      e.output = {std::popcount(x) % 2 == 1};
      if (bem::prover::evaluate(c, e.input) != e.output) return e;
    }
    return std::nullopt;
  }
};
static_assert(bem::prover::synthesis_spec<parity_spec>);
// [/doc]

/// Every member, but the 0.1 opt-in, which no longer opts in (one spelling only).
struct old_spelling_spec {
  using synthesis_spec_tag = void;
  std::size_t inputs() const { return 1; }
  std::size_t outputs() const { return 1; }
  std::optional<bem::prover::io_example> verify(const bem::gate_list&) const { return std::nullopt; }
};

TEST_CASE("a user-defined synthesis_spec (the header example)") {
  bem::prover::hypothesis_class h;            // AND, OR, XOR, NOT, ANDN; minimise
  h.max_gates = 3;
  auto r = bem::prover::cegis(parity_spec{}, h);
  REQUIRE(r.status == cegis_status::found);
  CHECK(r.circuit->gate_count() == 2);
  CHECK(computes(*r.circuit, 3, [](std::uint64_t x) { return std::popcount(x) & 1u; }));
  static_assert(!bem::prover::synthesis_spec<int>);
  static_assert(!bem::prover::synthesis_spec<old_spelling_spec>);
  static_assert(bem::prover::synthesis_spec<truth_table_spec>);
  static_assert(bem::prover::synthesis_spec<circuit_spec<>>);
}

namespace {
/// Breaks law 2 on purpose: its "counterexample" is one the candidate passes
/// (or, with `short_input`, one of the wrong shape).
struct lying_spec {
  using synthesis_spec_concept = bem::prover::synthesis_spec_t;
  bool short_input = false;
  std::size_t inputs() const { return 2; }
  std::size_t outputs() const { return 1; }
  std::optional<io_example> verify(const gate_list& c) const {
    io_example e;
    e.input = {1, 0};
    e.output = evaluate(c, e.input);
    if (short_input) e.input.pop_back();
    return e;
  }
};
}  // namespace

TEST_CASE("CEGIS refuses a counterexample that breaks law 2 instead of looping on it") {
  hypothesis_class h;
  h.max_gates = 2;
  cegis_options opt;
  opt.max_iterations = 10;  // were the lie accepted, the loop would repeat it until this limit
  CHECK_THROWS_WITH_AS(cegis(lying_spec{}, h, opt), doctest::Contains("a counterexample the candidate does not fail"),
                       std::logic_error);
  CHECK_THROWS_WITH_AS(cegis(lying_spec{true}, h, opt),
                       doctest::Contains("a counterexample the candidate does not fail"), std::logic_error);
}

TEST_CASE("remove_dead_gates keeps every operand a live gate reads, third operands included") {
  // Inputs 0..2. Gate 3 is dead; gate 4 is read only as gate 6's third
  // operand; gate 5 only as its second; gate 6 is the output.
  const gate_list c(3,
                    {
                        {gate_op::xor_, 0, 0, 1, 0},                         // 3: dead
                        {gate_op::and_, 0, 1, 2, 0},                         // 4: x1 & x2
                        {gate_op::not_, 0, 0, 0, 0},                         // 5: ~x0
                        {gate_op::ternary, bem::ternary_tt::mux, 0, 5, 4},   // 6: x0 ? ~x0 : x1 & x2
                    },
                    {6});
  const gate_list d = remove_dead_gates(c);
  REQUIRE(d.gate_count() == 3);
  CHECK(d.gates()[0] == gate{gate_op::and_, 0, 1, 2, 0});
  CHECK(d.gates()[1] == gate{gate_op::not_, 0, 0, 0, 0});
  CHECK(d.gates()[2] == gate{gate_op::ternary, bem::ternary_tt::mux, 0, 4, 3});
  CHECK(d.output_nodes() == std::vector<std::uint32_t>{5});
  for (std::uint64_t x = 0; x < 8; ++x) {
    const std::vector<bool> in = {(x & 1u) != 0, (x & 2u) != 0, (x & 4u) != 0};
    CHECK(evaluate(d, in) == evaluate(c, in));
  }
}
