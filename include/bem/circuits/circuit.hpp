// Circuit representations: the policy concept behind ANF, ROBDD, gate lists
// and compiled gate lists.
//
// An expert's circuit C_i maps n input bits to m output bits (REFERENCE.md
// section 1). Evaluation is bit-sliced: input word j holds input bit j of
// every lane, output word k receives output bit k of every lane, and every
// operation is a word-wide BIT-ALU operation, so one evaluation serves all W
// lanes at once. The word type is any `bit_sliced_word` (std::uint64_t, or a
// W-lane word such as bem::lane_word<W>).
//
// The word (bem::bit_sliced_word, bem/machine/lanes.hpp): copyable,
// default-constructible, with & | ^ ~ and ==, acting lane by lane. Law used
// here: `Word::zeros()` where it exists, else the value-initialised `Word{}`,
// has every lane 0. Models: std::uint64_t, bem::lane_word<W>.
//
// ## circuit_representation<C, Word>
// Minimal definition — a type `C` with
//   - the opt-in:
//     `using circuit_representation_concept = bem::circuit_representation_t;`
//     (the project's one spelling, docs/architecture.md; structure alone
//     never makes a type a circuit: a class that merely has an evaluate
//     member does not promise the laws below);
//   - `c.inputs()`, `c.outputs()`: n and m (std::size_t);
//   - `c.gate_count()`: the representation's gate count G (each
//     representation documents what it counts; see docs/circuits.md);
//   - `c.scratch_size()`: how many words of scratch one evaluation needs;
//   - `c.evaluate(in, out, scratch)` with `std::span<const Word> in` (n
//     words), `std::span<Word> out` (m words) and `std::span<Word> scratch`
//     (scratch_size() words): the allocation-free hot path;
//   - `c.evaluate(in, out)`: the same, allocating its scratch (convenience).
//   Optional: `static constexpr const char* representation_name`, how a
//   bem::machine names the representation in its configuration (records).
// Optional: `C::inputs_in_place` (a static constexpr bool), true when
// evaluate accepts `in` as the first n words of `scratch` and then reads the
// inputs where they are instead of copying them (a caller that gathers
// its inputs, as bem::expert does, saves n word copies per evaluation).
// bem::gate_list has it; detail::circuit_inputs_in_place<C> reads it.
// Laws:
//   1. Lane independence: output bit k of lane l depends only on the input
//      bits of lane l, and is C's k-th output function of them — the same
//      function for every lane and every word type.
//   2. Determinism: evaluate has no state; equal inputs give equal outputs,
//      whatever the scratch held before.
//   3. Conversions (bem/circuits/convert.hpp) preserve the function exactly.
// Models: bem::anf_circuit, bem::robdd, bem::gate_list (interpreted),
//   bem::compiled_circuit<C> (straight-line code for a circuit known at
//   compile time).
// Example (compiled by tests/circuits/concept.cpp):
//
//     struct majority3 {  // a hand-written 3-input majority
//       using circuit_representation_concept = bem::circuit_representation_t;
//       std::size_t inputs() const { return 3; }
//       std::size_t outputs() const { return 1; }
//       std::size_t gate_count() const { return 4; }
//       std::size_t scratch_size() const { return 0; }
//       template <class W> void evaluate(std::span<const W> in, std::span<W> out, std::span<W>) const {
//         out[0] = (in[0] & in[1]) | (in[2] & (in[0] | in[1]));
//       }
//       template <class W> void evaluate(std::span<const W> in, std::span<W> out) const {
//         evaluate(in, out, std::span<W>{});
//       }
//     };
//     static_assert(bem::circuit_representation<majority3, std::uint64_t>);
#pragma once

#include <bem/machine/lanes.hpp>
#include <bem/version.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

BEM_NAMESPACE_BEGIN

/// The opt-in tag of circuit_representation.
struct circuit_representation_t {};

namespace detail {
template <class C>
concept circuit_opted_in = requires { typename C::circuit_representation_concept; } &&
                           std::derived_from<typename C::circuit_representation_concept, circuit_representation_t>;
template <class C>
concept has_circuit_shape = requires(const C& c) {
  { c.inputs() } -> std::convertible_to<std::size_t>;
  { c.outputs() } -> std::convertible_to<std::size_t>;
  { c.gate_count() } -> std::convertible_to<std::size_t>;
  { c.scratch_size() } -> std::convertible_to<std::size_t>;
};
template <class C, class W>
concept has_circuit_evaluate = requires(const C& c, std::span<const W> in, std::span<W> out, std::span<W> scratch) {
  c.evaluate(in, out, scratch);
  c.evaluate(in, out);
};
}  // namespace detail

/// A circuit representation evaluated bit-sliced on words of type W.
template <class C, class W>
concept circuit_representation = bit_sliced_word<W> && detail::circuit_opted_in<C> && detail::has_circuit_shape<C> &&
                                 detail::has_circuit_evaluate<C, W>;

/// Checks circuit_representation<C, W> with one readable message per missing part.
template <class C, class W>
consteval bool assert_circuit_representation() {
  static_assert(bit_sliced_word<W>, "bem::circuit_representation: the word type needs & | ^ ~ and ==");
  static_assert(detail::circuit_opted_in<C>,
                "bem::circuit_representation: opt in with `using circuit_representation_concept = "
                "bem::circuit_representation_t;`");
  static_assert(detail::has_circuit_shape<C>,
                "bem::circuit_representation: the circuit needs inputs(), outputs(), gate_count() and scratch_size()");
  static_assert(detail::has_circuit_evaluate<C, W>,
                "bem::circuit_representation: the circuit needs evaluate(span<const W>, span<W>, span<W> scratch) "
                "and evaluate(span<const W>, span<W>)");
  return true;
}

/// The all-zero word: `W::zeros()` where it exists, else `W{}`.
template <bit_sliced_word W>
constexpr W zero_word() {
  if constexpr (requires { { W::zeros() } -> std::convertible_to<W>; })
    return W::zeros();
  else
    return W{};
}

/// The all-ones word.
template <bit_sliced_word W>
constexpr W ones_word() {
  return ~zero_word<W>();
}

namespace detail {
/// Throws std::invalid_argument unless the spans fit the circuit.
inline void check_circuit_spans(const char* what, std::size_t n, std::size_t m, std::size_t need_scratch,
                                std::size_t in, std::size_t out, std::size_t scratch) {
  if (in != n || out != m || scratch < need_scratch)
    throw std::invalid_argument(std::string(what) + ": evaluate needs " + std::to_string(n) + " input, " +
                                std::to_string(m) + " output and " + std::to_string(need_scratch) +
                                " scratch words, got " + std::to_string(in) + ", " + std::to_string(out) + " and " +
                                std::to_string(scratch));
}

/// C::inputs_in_place where C declares it (see the concept above), else false.
template <class C>
inline constexpr bool circuit_inputs_in_place = [] {
  if constexpr (requires { C::inputs_in_place; })
    return static_cast<bool>(C::inputs_in_place);
  else
    return false;
}();
}  // namespace detail

BEM_NAMESPACE_END
