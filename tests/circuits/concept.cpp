// The circuit_representation concept: the documented example compiles and
// runs, every model satisfies the concept for 64-bit words and lane words,
// and a type without the opt-in tag does not.
#include <bem/circuits/anf.hpp>
#include <bem/circuits/circuit.hpp>
#include <bem/circuits/compiled.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/random_circuit.hpp>
#include <bem/circuits/robdd.hpp>
#include <bem/machine/lanes.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <span>

namespace {

// The example of bem/circuits/circuit.hpp, word for word.
struct majority3 {  // a hand-written 3-input majority
  using circuit_representation_concept = bem::circuit_representation_t;
  std::size_t inputs() const { return 3; }
  std::size_t outputs() const { return 1; }
  std::size_t gate_count() const { return 4; }
  std::size_t scratch_size() const { return 0; }
  template <class W> void evaluate(std::span<const W> in, std::span<W> out, std::span<W>) const {
    out[0] = (in[0] & in[1]) | (in[2] & (in[0] | in[1]));
  }
  template <class W> void evaluate(std::span<const W> in, std::span<W> out) const {
    evaluate(in, out, std::span<W>{});
  }
};
static_assert(bem::circuit_representation<majority3, std::uint64_t>);

/// Structurally a circuit, but it never opted in.
struct untagged {
  std::size_t inputs() const { return 1; }
  std::size_t outputs() const { return 1; }
  std::size_t gate_count() const { return 0; }
  std::size_t scratch_size() const { return 0; }
  template <class W> void evaluate(std::span<const W>, std::span<W>, std::span<W>) const {}
  template <class W> void evaluate(std::span<const W>, std::span<W>) const {}
};
static_assert(!bem::circuit_representation<untagged, std::uint64_t>);
/// The 0.1 spelling of the opt-in no longer opts in (one spelling only).
struct old_spelling : untagged {
  using circuit_tag = bem::circuit_representation_t;
};
static_assert(!bem::circuit_representation<old_spelling, std::uint64_t>);
/// A tag derived from the concept's tag opts in; any other type does not.
struct derived_tag : bem::circuit_representation_t {};
struct derived_opt_in : untagged {
  using circuit_representation_concept = derived_tag;
};
static_assert(bem::circuit_representation<derived_opt_in, std::uint64_t>);
struct unrelated_tag {};
struct wrong_tag : untagged {
  using circuit_representation_concept = unrelated_tag;
};
static_assert(!bem::circuit_representation<wrong_tag, std::uint64_t>);

constexpr auto tiny = bem::static_random_circuit<4, 6, 2>(7);
using tiny_compiled = bem::compiled_circuit<tiny>;

template <class W>
constexpr bool all_models() {
  return bem::circuit_representation<bem::anf_circuit, W> && bem::circuit_representation<bem::robdd, W> &&
         bem::circuit_representation<bem::gate_list, W> && bem::circuit_representation<tiny_compiled, W> &&
         bem::assert_circuit_representation<bem::gate_list, W>();
}
static_assert(all_models<std::uint64_t>());
static_assert(all_models<bem::lane_word<256>>());
static_assert(all_models<bem::lane_word<1024>>());
static_assert(!bem::circuit_representation<bem::gate_list, double>);

}  // namespace

TEST_CASE("the documented example computes majority lane by lane") {
  const std::array<std::uint64_t, 3> in = {0b11110000, 0b11001100, 0b10101010};
  std::array<std::uint64_t, 1> out{};
  majority3{}.evaluate(std::span<const std::uint64_t>(in), std::span<std::uint64_t>(out));
  CHECK(out[0] == 0b11101000);  // majority's truth table, 0xE8
}

TEST_CASE("evaluate rejects spans of the wrong size, naming the sizes") {
  const auto c = bem::random_gate_list({4, 2, 6, 64}, 1);
  std::array<std::uint64_t, 3> in{};
  std::array<std::uint64_t, 2> out{};
  CHECK_THROWS_WITH_AS(c.evaluate(std::span<const std::uint64_t>(in), std::span<std::uint64_t>(out)),
                       doctest::Contains("needs 4 input, 2 output"), std::invalid_argument);
}
