// Bit-exact agreement between ANF, ROBDD, the interpreted gate list (fast
// and plain), the gate list compiled at run time and the compiled gate
// list: exhaustive for 3, 8 and 10 inputs (every assignment is one lane),
// random lanes for 32 inputs. Conversions round-trip; the ROBDD is reduced
// and canonical; the ANF is canonical.
#include "helpers.hpp"

#include <bem/circuits/anf.hpp>
#include <bem/circuits/compiled.hpp>
#include <bem/circuits/convert.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/jit.hpp>
#include <bem/circuits/random_circuit.hpp>
#include <bem/circuits/robdd.hpp>
#include <bem/machine/lanes.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <span>
#include <tuple>
#include <vector>

using namespace circuit_test;

namespace {

/// Every lane of every representation of `c` equals the scalar semantics.
template <class W>
void check_all_representations(const bem::gate_list& c, const std::vector<W>& in) {
  const auto fast = eval(c, in);
  const auto plain = eval_reference(c, in);
  const auto bdd = bem::to_robdd(c);
  const auto anf = bem::to_anf(c);
  const auto via_bdd = eval(bdd, in);
  const auto via_anf = eval(anf, in);
  const auto bdd_list = eval(bem::to_gate_list(bdd), in);
  const auto anf_list = eval(bem::to_gate_list(anf), in);
  const auto generated = eval(bem::jit_circuit(c), in);  // the best back end this CPU has
  for (std::size_t l = 0; l < lanes_of<W>(); ++l) {
    const auto want = scalar_eval(c, lane_inputs(in, l));
    for (std::size_t k = 0; k < c.outputs(); ++k) {
      CAPTURE(l);
      CAPTURE(k);
      REQUIRE(lane_of(fast[k], l) == want[k]);
      REQUIRE(lane_of(plain[k], l) == want[k]);
      REQUIRE(lane_of(via_bdd[k], l) == want[k]);
      REQUIRE(lane_of(via_anf[k], l) == want[k]);
      REQUIRE(lane_of(bdd_list[k], l) == want[k]);
      REQUIRE(lane_of(anf_list[k], l) == want[k]);
      REQUIRE(lane_of(generated[k], l) == want[k]);
    }
  }
}

constexpr auto small8 = bem::static_random_circuit<8, 40, 4>(11);
constexpr auto small10 = bem::static_random_circuit<10, 60, 5>(12);
constexpr auto wide32 = bem::static_random_circuit<32, 128, 8>(13);

}  // namespace

TEST_CASE("every ternary truth table: all representations agree with the table, exhaustively") {
  const bem::gate_list c = every_ternary_table();
  const auto in = exhaustive_inputs<std::uint64_t>(3);
  const auto fast = eval(c, in);
  for (unsigned tt = 0; tt < 256; ++tt) CHECK((fast[tt] & 0xFFu) == tt);
  check_all_representations(c, in);
}

TEST_CASE("random circuits of 8 and 10 inputs: exhaustive agreement, compiled included") {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    CAPTURE(seed);
    check_all_representations(bem::random_gate_list({8, 4, 48, 16}, seed), exhaustive_inputs<bem::lane_word<256>>(8));
    check_all_representations(bem::random_gate_list({10, 3, 40, 12}, seed),
                              exhaustive_inputs<bem::lane_word<1024>>(10));
  }
  const auto in8 = exhaustive_inputs<bem::lane_word<256>>(8);
  CHECK(eval(bem::compiled_circuit<small8>{}, in8) == eval(small8.to_gate_list(), in8));
  const auto in10 = exhaustive_inputs<bem::lane_word<1024>>(10);
  CHECK(eval(bem::compiled_circuit<small10>{}, in10) == eval_reference(small10.to_gate_list(), in10));
  check_all_representations(small10.to_gate_list(), in10);
}

TEST_CASE("32 inputs, random lanes: gate list (fast, plain, compiled), and ANF and ROBDD with their conversions") {
  const auto in = random_inputs<bem::lane_word<512>>(32, 99);
  const auto list = wide32.to_gate_list();
  const auto want = eval_reference(list, in);
  CHECK(eval(list, in) == want);
  CHECK(eval(bem::compiled_circuit<wide32>{}, in) == want);
  const auto in64 = random_inputs<std::uint64_t>(32, 5);
  CHECK(eval(bem::compiled_circuit<wide32>{}, in64) == eval_reference(list, in64));
  // 16-byte words take the compiled form's vector path (compiled.hpp).
  const auto in128 = random_inputs<bem::lane_word<128>>(32, 6);
  CHECK(eval(bem::compiled_circuit<wide32>{}, in128) == eval_reference(list, in128));

  const auto anf = bem::random_anf(32, 8, 200, 3);
  const auto anf_bdd = bem::to_robdd(anf);
  CHECK(eval(anf_bdd, in) == eval(anf, in));
  CHECK(eval(bem::to_gate_list(anf), in) == eval(anf, in));
  const auto bdd = bem::random_robdd(32, 8, 200, 4);
  CHECK(eval(bem::to_gate_list(bdd), in) == eval(bdd, in));
  CHECK(eval(bem::to_anf(bdd), in) == eval(bdd, in));
}

TEST_CASE("edge-case lists: every representation and conversion agrees, exhaustively; round trips compare equal") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    const std::size_t n = 1 + seed % 6;
    const auto c = edge_list(n, seed % 40, 1 + seed % 5, seed);
    check_all_representations(c, exhaustive_inputs<std::uint64_t>(n));
    const auto bdd = bem::to_robdd(c);
    const auto anf = bem::to_anf(c);
    CHECK(bem::to_robdd(anf) == bdd);
    CHECK(bem::to_anf(bdd) == anf);
    CHECK(bem::to_robdd(bem::to_gate_list(bdd)) == bdd);
    CHECK(bem::to_anf(bem::to_gate_list(anf)) == anf);
    check_all_representations(edge_list(8, 60, 5, 1000 + seed), exhaustive_inputs<bem::lane_word<256>>(8));
  }
  // No gates (outputs are inputs, one repeated), no outputs, constants only.
  check_all_representations(bem::gate_list(3, {}, {2, 0, 2}), exhaustive_inputs<std::uint64_t>(3));
  check_all_representations(bem::gate_list(3, {}, {}), exhaustive_inputs<std::uint64_t>(3));
  check_all_representations(
      bem::gate_list(1, {{bem::gate_op::xor_, 0, 0, 0, 0}, {bem::gate_op::not_, 0, 1, 0, 0}}, {1, 2, 0, 1}),
      exhaustive_inputs<std::uint64_t>(1));
  // Zero inputs: ANF and ROBDD hold constants (a gate list cannot: its
  // gates need operands, and to_gate_list refuses).
  const bem::anf_circuit k(0, {{0}, {}});
  const std::vector<std::uint64_t> none;
  const std::vector<std::uint64_t> ones_zero = {~0ull, 0};
  CHECK(eval(k, none) == ones_zero);
  CHECK(eval(bem::to_robdd(k), none) == ones_zero);
  CHECK(bem::to_anf(bem::to_robdd(k)) == k);
  CHECK_THROWS_AS(bem::to_gate_list(k), std::invalid_argument);
  // 64 inputs, the ANF's maximum: input 63, the full product, the constant.
  const bem::anf_circuit wide(64, {{bem::monomial{1} << 63, ~bem::monomial{0}, 0}, {0x8000000000000001ull}});
  const auto in = random_inputs<bem::lane_word<256>>(64, 3);
  CHECK(eval(bem::to_robdd(wide), in) == eval(wide, in));
  CHECK(eval(bem::to_gate_list(wide), in) == eval(wide, in));
  CHECK(bem::to_anf(bem::to_gate_list(wide)) == wide);
  CHECK(bem::to_anf(bem::to_robdd(wide)) == wide);
}

namespace {
constexpr bem::static_gate_list<3, 0, 2> no_gates{{}, {2, 0}};
constexpr bem::static_gate_list<3, 0, 0> nothing{};
}  // namespace

TEST_CASE("a compiled circuit of no gates (outputs that are inputs)") {
  // Its node storage had zero size (ISO C++ forbids it: -Wpedantic), and
  // with no outputs either its node pointer went unused (-Wunused).
  const auto in = exhaustive_inputs<std::uint64_t>(3);
  CHECK(eval(bem::compiled_circuit<no_gates>{}, in) == std::vector<std::uint64_t>{in[2], in[0]});
  const auto in128 = exhaustive_inputs<bem::lane_word<128>>(3);
  CHECK(eval(bem::compiled_circuit<no_gates>{}, in128) == std::vector<bem::lane_word<128>>{in128[2], in128[0]});
  CHECK(eval(bem::compiled_circuit<nothing>{}, in).empty());
  CHECK(eval(bem::compiled_circuit<nothing>{}, in128).empty());
}

TEST_CASE("conversions round-trip") {
  const auto anf = bem::random_anf(32, 8, 150, 21);
  CHECK(bem::to_anf(bem::to_gate_list(anf)) == anf);
  CHECK(bem::to_anf(bem::to_robdd(anf)) == anf);
  const auto bdd = bem::random_robdd(32, 8, 150, 22);
  CHECK(bem::to_robdd(bem::to_gate_list(bdd)) == bdd);
  CHECK(bem::to_robdd(bem::to_anf(bdd)) == bdd);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto list = bem::random_gate_list({10, 4, 50, 16}, seed);
    const auto bdd2 = bem::to_robdd(list);
    CHECK(bem::to_robdd(bem::to_gate_list(bdd2)) == bdd2);
    CHECK(bem::to_robdd(bem::to_anf(list)) == bdd2);
    CHECK(bem::to_anf(bem::to_gate_list(bem::to_anf(list))) == bem::to_anf(list));
  }
}

TEST_CASE("the ROBDD is reduced, ordered and canonical") {
  bem::robdd_builder b(4);
  const auto x0 = b.var(0), x1 = b.var(1), x2 = b.var(2), x3 = b.var(3);
  // (x0 & x1) ^ x2 built two ways gives the same node.
  const auto f = b.apply_xor(b.apply_and(x0, x1), x2);
  const auto g = b.apply_or(b.apply_and(b.negate(x2), b.apply_and(x1, x0)),
                            b.apply_and(x2, b.negate(b.apply_and(x0, x1))));
  CHECK(f == g);
  CHECK(b.apply_xor(f, f) == bem::robdd_builder::false_node);
  CHECK(b.apply_or(x3, b.negate(x3)) == bem::robdd_builder::true_node);
  const auto list = bem::random_gate_list({10, 6, 60, 16}, 5);
  const auto c = bem::to_robdd(list);
  std::set<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> seen;
  for (std::size_t i = 2; i < c.nodes().size(); ++i) {
    const auto& nd = c.nodes()[i];
    CHECK(nd.lo != nd.hi);                                          // reduced: no redundant test
    CHECK(seen.insert({nd.var, nd.lo, nd.hi}).second);              // reduced: no duplicate node
    CHECK(nd.lo < i);                                               // children first
    CHECK(nd.hi < i);
    for (auto child : {nd.lo, nd.hi})
      if (child >= 2) CHECK(c.nodes()[child].var > nd.var);  // fixed order
  }
  // Equal functions from different builders and circuits: equal diagrams.
  CHECK(bem::to_robdd(bem::to_anf(list)) == c);
  const auto other = bem::to_robdd(bem::random_gate_list({10, 6, 60, 16}, 6));
  CHECK_FALSE(other == c);
}

TEST_CASE("the ROBDD builder and constructor refuse nodes out of range or out of order") {
  bem::robdd_builder b(2);
  const auto x1 = b.var(1);
  CHECK_THROWS_WITH_AS(b.make(2, 0, 1), doctest::Contains("variable 2 of only 2 inputs"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(b.make(0, 0, 99), doctest::Contains("child 99 is not a node"), std::invalid_argument);
  // x1 ? 1 : x0 with x1 tested first: a child on an earlier variable.
  const auto x0 = b.var(0);
  CHECK_THROWS_WITH_AS(b.make(1, x0, bem::robdd_builder::true_node), doctest::Contains("tests variable 0"),
                       std::invalid_argument);
  CHECK_THROWS_AS(b.make(1, x1, bem::robdd_builder::true_node), std::invalid_argument);  // same variable
  CHECK(b.make(0, x1, bem::robdd_builder::true_node) == b.apply_or(x0, x1));
  const std::uint32_t bad_root[] = {static_cast<std::uint32_t>(b.size())};
  CHECK_THROWS_WITH_AS(bem::robdd(b, bad_root), doctest::Contains("is not a node of the builder"),
                       std::invalid_argument);
}

TEST_CASE("gate lists store unused operands and tables as 0; every consumer reads only used ones") {
  // A NOT whose b and c, an AND whose c and table, are anything at all.
  const bem::gate_list c(2, {{bem::gate_op::not_, 0x5A, 0, 1000000, 1000000}, {bem::gate_op::and_, 0xFF, 0, 2, 5000000}},
                         {2, 3});
  CHECK(c.gates()[0] == bem::gate{bem::gate_op::not_, 0, 0, 0, 0});
  CHECK(c.gates()[1] == bem::gate{bem::gate_op::and_, 0, 0, 2, 0});
  const std::vector<std::uint64_t> in = {0b1010, 0b1100};
  const std::vector<std::uint64_t> want = {~std::uint64_t{0b1010}, 0};  // ~x0, x0 & ~x0
  CHECK(eval(c, in) == want);
  CHECK(eval(bem::to_robdd(c), in) == want);
  CHECK(eval(bem::to_anf(c), in) == want);
  CHECK(eval(bem::jit_circuit(c), in) == want);
}

TEST_CASE("ANF is canonical: duplicate monomials cancel, order does not matter") {
  const bem::anf_circuit a(4, {{0b0011, 0b0100, 0b0011, 0b1000}, {0}});
  const bem::anf_circuit b(4, {{0b1000, 0b0100}, {0}});
  CHECK(a == b);
  CHECK(a.gate_count() == 1);  // x2 ^ x3: one XOR; the constant output: none
  const bem::anf_circuit c(4, {{0b0111, 0b0001}});
  CHECK(c.gate_count() == 3);  // x0 x1 x2: two ANDs, then one XOR
  CHECK_THROWS_AS(bem::anf_circuit(65, {}), std::invalid_argument);
  CHECK_THROWS_WITH_AS(bem::anf_circuit(4, {{0b10000}}), doctest::Contains("input 4"), std::invalid_argument);
}

TEST_CASE("gate lists reject non-topological gates; ANF conversion stops at its term limit") {
  CHECK_THROWS_WITH_AS(bem::gate_list(2, {{bem::gate_op::and_, 0, 0, 2, 0}}, {2}),
                       doctest::Contains("gate 0 reads a node >= 2"), std::invalid_argument);
  CHECK_THROWS_AS(bem::gate_list(2, {{bem::gate_op::and_, 0, 0, 1, 0}}, {3}), std::invalid_argument);
  // (x0 ^ x1) (x2 ^ x3) ... over 16 inputs has 2^8 monomials.
  std::vector<bem::gate> gates;
  for (std::uint32_t i = 0; i < 8; ++i) gates.push_back({bem::gate_op::xor_, 0, 2 * i, 2 * i + 1, 0});
  std::uint32_t acc = 16;
  for (std::uint32_t i = 1; i < 8; ++i) {
    gates.push_back({bem::gate_op::and_, 0, acc, 16 + i, 0});
    acc = static_cast<std::uint32_t>(16 + gates.size() - 1);
  }
  const bem::gate_list product(16, gates, {acc});
  CHECK(bem::to_anf(product).polynomial(0).size() == 256);
  CHECK_THROWS_AS(bem::to_anf(product, 100), std::length_error);
}

TEST_CASE("a default-constructed ROBDD is the empty circuit: two terminals, no gates") {
  const bem::robdd r;
  CHECK(r.gate_count() == 0);
  CHECK(r.scratch_size() == 2);
  CHECK(r.inputs() == 0);
  CHECK(r.outputs() == 0);
  std::vector<std::uint64_t> scratch(r.scratch_size());
  r.evaluate(std::span<const std::uint64_t>(), std::span<std::uint64_t>(), std::span<std::uint64_t>(scratch));
  CHECK(scratch[0] == 0);
  CHECK(scratch[1] == ~0ull);
}
