// Compiled gate lists: straight-line code generated at compile time for a
// circuit known then.
//
// `static_gate_list<N, G, M>` is a gate list in std::arrays, usable as
// constexpr data (bem/circuits/random_circuit.hpp generates them at compile
// time). `compiled_circuit<C>`, for a `static constexpr` static_gate_list
// object C, expands C's gates with an index_sequence into one statement per
// gate — `v[N + i] = apply<op_i, tt_i>(v[a_i], v[b_i], v[c_i])` with every
// operation and index a constant — so the compiler sees exactly the code a
// person would write for this circuit: no loop, no dispatch, operands in
// registers where it can keep them. The circuit is taken by reference (a
// reference template argument) so the symbol names stay short.
//
// Gate count and liveness are those of the gate list (bem/circuits/gate_list.hpp).
// Law: compiled_circuit<C> computes exactly what C.to_gate_list() computes.
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/version.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN

/// A gate list of N inputs, G gates and M outputs in fixed arrays.
template <std::size_t N, std::size_t G, std::size_t M>
struct static_gate_list {
  static constexpr std::size_t n = N, g = G, m = M;
  std::array<gate, G> gates{};
  std::array<std::uint32_t, M> outputs{};

  /// The same circuit as a (run-time) gate_list.
  gate_list to_gate_list() const {
    return gate_list(N, std::vector<gate>(gates.begin(), gates.end()),
                     std::vector<std::uint32_t>(outputs.begin(), outputs.end()));
  }
  /// Gates some output depends on.
  constexpr std::size_t live_gates() const { return live_gate_count(N, gates, outputs); }
  /// True when every gate has a known operation and reads only earlier nodes
  /// (all three operand fields: the compiled form names each one, used or
  /// not) and every output names a node: what compiled_circuit requires.
  constexpr bool valid() const {
    for (std::size_t i = 0; i < G; ++i) {
      const gate& g = gates[i];
      if (static_cast<unsigned>(g.op) > static_cast<unsigned>(gate_op::ternary)) return false;
      if (g.a >= N + i || g.b >= N + i || g.c >= N + i) return false;
    }
    for (const auto o : outputs)
      if (o >= N + G) return false;
    return true;
  }
};

namespace detail {
/// One gate on values of type T: a bit_sliced_word with the formulas of
/// apply_gate, or (GCC) a vector chunk with its ternaries through gl_op, one
/// vpternlogq where the target has it.
template <gate_op Op, std::uint8_t Tt, class T>
[[gnu::always_inline]] inline T compiled_gate(const T& a, const T& b, const T& c) {
  if constexpr (Op == gate_op::and_) return a & b;
  else if constexpr (Op == gate_op::or_) return a | b;
  else if constexpr (Op == gate_op::xor_) return a ^ b;
  else if constexpr (Op == gate_op::not_) return ~a;
  else if constexpr (Op == gate_op::andn) return a & ~b;
#if defined(__GNUC__)
  else if constexpr (!bit_sliced_word<T>) return gl_op<Tt>::f(a, b, c);
#endif
  else if constexpr (Tt == ternary_tt::mux) return (a & b) | (~a & c);
  else if constexpr (Tt == ternary_tt::majority) return (a & b) | (c & (a | b));
  else if constexpr (Tt == ternary_tt::xor3) return a ^ b ^ c;
  else return ternary_by_anf(ternary_anf(Tt), a, b, c);
}

/// Where a compiled circuit reads its inputs and writes its outputs: arrays
/// of words W ...
template <class W>
struct compiled_words {
  using value = W;
  const W* in;
  W* out;
  template <std::uint32_t I>
  [[gnu::always_inline]] const W& input() const {
    return in[I];
  }
  [[gnu::always_inline]] void output(std::size_t k, const W& x) const { out[k] = x; }
};
#if defined(__GNUC__)
/// ... or one chunk V (a may_alias GCC vector) of each of an array of words
/// of S bytes, addressed from the chunk's first byte.
template <class V, std::size_t S>
struct compiled_chunks {
  using value = V;
  const char* in;
  char* out;
  template <std::uint32_t I>
  [[gnu::always_inline]] V input() const {
    return *reinterpret_cast<const V*>(in + I * S);
  }
  [[gnu::always_inline]] void output(std::size_t k, const V& x) const { *reinterpret_cast<V*>(out + k * S) = x; }
};
#endif
}  // namespace detail

/// Straight-line evaluation of the static_gate_list `C` (a reference to a
/// static constexpr object).
template <const auto& C>
class compiled_circuit {
  using list_type = std::remove_cvref_t<decltype(C)>;
  static constexpr std::size_t N = list_type::n, G = list_type::g, M = list_type::m;
  static_assert(C.valid(),
                "bem::compiled_circuit: a gate has an unknown operation or reads a node that is not earlier "
                "(unused operands included), or an output names no node");

 public:
  using circuit_representation_concept = circuit_representation_t;
  static constexpr const char* representation_name = "compiled_circuit";  ///< for records (§6.1)

  static constexpr std::size_t inputs() noexcept { return N; }
  static constexpr std::size_t outputs() noexcept { return M; }
  /// G: every gate of the list.
  static constexpr std::size_t gate_count() noexcept { return G; }
  /// Gates some output depends on (computed at compile time).
  static constexpr std::size_t live_gates() noexcept { return live_gates_; }
  /// None: the node values live in a local array the compiler allocates.
  static constexpr std::size_t scratch_size() noexcept { return 0; }

  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out, std::span<W>) const {
    detail::check_circuit_spans("compiled_circuit", N, M, 0, in.size(), out.size(), 0);
    run<W>(in.data(), out.data());
  }
  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out) const {
    evaluate(in, out, std::span<W>{});
  }

  /// The unchecked hot path: in[0..N) to out[0..M). Gate values live in
  /// uninitialised local storage (no zeroing), operands below N are read
  /// from `in` directly, so what remains is the gates' own operations.
  template <bit_sliced_word W>
  static void run(const W* in, W* out) {
#if defined(__GNUC__)
    if constexpr (detail::gate_list_raw<W>::value && sizeof(W) == 16) {
      // A lane_word<128> (a struct of two 64-bit words) runs on a GCC
      // vector instead: GCC's scalar replacement of aggregates splits a
      // 16-byte struct into its two halves, and then stored every gate's
      // value as two 64-bit halves and read it back as one vector (1.8 TSC
      // ticks per gate at W = 128 against 0.57 at W = 256; 0.55 on vectors).
      // Wider words are not split, and on vectors ran 13-33% slower at
      // G = 64 and 128 (W = 256), so they keep the word path.
      using block = detail::gate_list_block<sizeof(W)>;
      const char* const i = reinterpret_cast<const char*>(in);
      char* const o = reinterpret_cast<char*>(out);
      for (std::size_t c = 0; c < sizeof(W); c += block::bytes)
        run_gates(detail::compiled_chunks<typename block::V, sizeof(W)>{i + c, o + c}, std::make_index_sequence<G>{},
                  std::make_index_sequence<M>{});
      return;
    }
#endif
    run_gates(detail::compiled_words<W>{in, out}, std::make_index_sequence<G>{}, std::make_index_sequence<M>{});
  }

 private:
  // The node array is a local of the function that holds the gates' fold,
  // never a capture: a gate list expanded in a lambda that GCC outlines (it
  // did for G = 512 in the expert plugin) writes every gate through the
  // captured pointer, 512 stores the compiler cannot drop, and ran at 1.15
  // TSC ticks per gate instead of 0.48.
  template <class IO, std::size_t... I, std::size_t... K>
  [[gnu::always_inline]] static void run_gates([[maybe_unused]] IO io, std::index_sequence<I...>,
                                                std::index_sequence<K...>) {
    using T = typename IO::value;
    union storage {
      T v[G > 0 ? G : 1];  // no gates (outputs that are inputs): ISO C++ has no zero-size arrays
      storage() {}
    } s;
    [[maybe_unused]] T* v = s.v;  // unused with no gates and no outputs
    ((v[I] = detail::compiled_gate<C.gates[I].op, C.gates[I].tt, T>(node<C.gates[I].a>(io, v), node<C.gates[I].b>(io, v),
                                                                    node<C.gates[I].c>(io, v))),
     ...);
    (io.output(K, node<C.outputs[K]>(io, v)), ...);
  }

  template <std::uint32_t I, class IO, class T>
  [[gnu::always_inline]] static decltype(auto) node(const IO& io, const T* v) {
    if constexpr (I < N)
      return io.template input<I>();
    else
      return v[I - N];
  }
  static constexpr std::size_t live_gates_ = C.live_gates();
};

BEM_NAMESPACE_END
