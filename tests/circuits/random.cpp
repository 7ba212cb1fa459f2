// The random circuit generators: exact gate counts, every gate live,
// non-trivial outputs, determinism, and the compile-time circuit equal to
// the run-time one.
#include "helpers.hpp"

#include <bem/circuits/compiled.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/random_circuit.hpp>
#include <bem/machine/lanes.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <span>
#include <vector>

using namespace circuit_test;

namespace {
constexpr auto c256 = bem::static_random_circuit<32, 256, 8>(2024);
static_assert(c256.live_gates() == 256);
static_assert(bem::compiled_circuit<c256>::live_gates() == 256);
}  // namespace

TEST_CASE("layered random gate lists: exactly G gates, all live, non-trivial outputs") {
  for (std::size_t g : {64u, 128u, 256u, 512u}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      CAPTURE(g);
      CAPTURE(seed);
      const auto c = bem::random_gate_list({32, 8, g, 64}, seed);
      CHECK(c.gate_count() == g);
      CHECK(c.live_gates() == g);
      CHECK(c.outputs() == 8);
      CHECK(c.run_count() < g);  // the schedule groups gates into runs
      CHECK_FALSE(bem::find_trivial_output(c, seed).has_value());
    }
  }
}

TEST_CASE("live_gate_count sees a dead gate") {
  auto c = bem::random_gate_list({32, 8, 64, 64}, 9);
  auto gates = c.gates();
  gates.push_back({bem::gate_op::xor_, 0, 40, 41, 0});  // feeds no output
  const bem::gate_list with_dead(32, gates, c.output_nodes());
  CHECK(with_dead.gate_count() == 65);
  CHECK(with_dead.live_gates() == 64);
}

TEST_CASE("the generator is deterministic, and the compile-time circuit is the run-time one") {
  CHECK(bem::random_gate_list({32, 8, 256, 64}, 2024) == c256.to_gate_list());
  CHECK_FALSE(bem::random_gate_list({32, 8, 256, 64}, 2025) == c256.to_gate_list());
}

TEST_CASE("the circuits microbenchmark 2.3 runs are non-trivial") {
  // plugins/expert: gate lists of seed 0x2303'0000 + G, ANF and ROBDD from
  // the run seed (checked again there before timing).
  for (std::size_t g : {64u, 128u, 256u, 512u}) {
    CAPTURE(g);
    const auto c = bem::random_gate_list({32, 8, g, 64}, 0x23030000u + g);
    CHECK(c.live_gates() == g);
    CHECK_FALSE(bem::find_trivial_output(c).has_value());
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      CHECK_FALSE(bem::find_trivial_output(bem::random_anf(32, 8, g, seed)).has_value());
      CHECK_FALSE(bem::find_trivial_output(bem::random_robdd(32, 8, g, seed)).has_value());
    }
  }
}

TEST_CASE("find_trivial_output names a constant output and a copied input") {
  const auto c = bem::random_gate_list({32, 8, 64, 64}, 5);
  auto outputs = c.output_nodes();
  outputs[3] = 7;  // output 3 is input 7
  CHECK(bem::find_trivial_output(bem::gate_list(32, c.gates(), outputs)) == "output 3 equals input 7");
  auto gates = c.gates();
  gates.push_back({bem::gate_op::xor_, 0, 40, 40, 0});  // x ^ x = 0
  outputs = c.output_nodes();
  outputs[0] = static_cast<std::uint32_t>(32 + gates.size() - 1);
  CHECK(bem::find_trivial_output(bem::gate_list(32, gates, outputs)) == "output 0 is constant 0");
  gates.push_back({bem::gate_op::not_, 0, static_cast<std::uint32_t>(32 + gates.size() - 1), 0, 0});  // 1
  outputs[0] = static_cast<std::uint32_t>(32 + gates.size() - 1);
  CHECK(bem::find_trivial_output(bem::gate_list(32, gates, outputs)) == "output 0 is constant 1");
}

TEST_CASE("random ANF and ROBDD reach their gate counts") {
  for (std::size_t g : {64u, 128u, 256u, 512u}) {
    const auto a = bem::random_anf(32, 8, g, 1);
    CHECK(a.gate_count() >= g);
    CHECK(a.gate_count() < g + 4);  // the first count to reach G; one monomial adds at most 4
    const auto b = bem::random_robdd(32, 8, g, 1);
    CHECK(b.gate_count() >= g);
    CHECK(b.outputs() == 8);
    CHECK(bem::random_anf(32, 8, g, 1) == a);
    CHECK(bem::random_robdd(32, 8, g, 1) == b);
  }
}

TEST_CASE("bad shapes are refused") {
  CHECK_THROWS_AS(bem::random_gate_list({32, 8, 4, 64}, 1), std::invalid_argument);
  CHECK_THROWS_AS(bem::random_anf(65, 8, 10, 1), std::invalid_argument);
  // Gate counts too few inputs cannot reach (these looped for ever). Four
  // inputs have 15 monomials of degree 1..4: 17 ANDs and 14 XORs per output.
  CHECK_THROWS_WITH_AS(bem::random_anf(4, 2, 63, 1), doctest::Contains("reach at most 62 gates"),
                       std::invalid_argument);
  const auto full = bem::random_anf(4, 2, 62, 1);  // the largest: every monomial in both outputs
  CHECK(full.gate_count() == 62);
  CHECK(full.polynomial(0).size() == 15);
  // A function of 3 inputs has at most 1 + 2 + 2 internal nodes.
  CHECK_THROWS_WITH_AS(bem::random_robdd(3, 1, 6, 1), doctest::Contains("did not reach 6 nodes"),
                       std::invalid_argument);
  CHECK(bem::random_robdd(3, 1, 4, 1).gate_count() >= 4);
}
