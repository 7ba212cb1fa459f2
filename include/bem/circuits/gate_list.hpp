// Gate lists: circuits as a list of word operations, and their fast
// interpreter.
//
// A gate list over n inputs numbers its nodes: 0..n-1 are the inputs, n + i
// is gate i. Gate i reads only nodes below n + i (the list is in topological
// order). Operations: AND, OR, XOR, NOT, ANDN (a & ~b) with one or two
// operands, and TERNARY: any 3-input function given by an 8-bit truth table
// `tt`, whose bit (a << 2 | b << 1 | c) is the output for operand values a,
// b, c (the vpternlog convention: 0xCA is a ? b : c, 0xE8 majority, 0x96
// three-way XOR). Outputs name nodes (an input or a gate).
//
// Gate count G = number of gates (a ternary gate counts one). A gate is live
// when some output depends on it through the graph; `live_gate_count` counts
// those. Compilers delete dead gates from straight-line code, so cost per
// gate is only meaningful per live gate.
//
// Evaluation. `evaluate_reference` is the plain interpreter: one switch per
// gate, in list order. `evaluate` is the fast one. At construction the list
// is compiled once into a program of operations, each a function of 1..3
// nodes given by an 8-bit table (vpternlog convention):
//   1. every gate becomes such an operation (repeated operands merged,
//      operands the table ignores dropped);
//   2. fusion: a gate read only by one later gate (and not an output) is
//      folded into that reader when the two read at most 3 nodes together
//      and the fused table is a kind the list already has (so fusion never
//      adds a kind, hence never a run);
//   3. greedy list scheduling: repeatedly the kind (arity, table) with the
//      highest priority among ready operations is chosen and all its ready
//      operations are emitted, including those that become ready along the
//      way. Three priorities are tried (most ready; the longest remaining
//      chain; ready count weighted by chain length) and the order with the
//      fewest runs is kept. That is a topological order in long runs of one
//      kind, each run writing consecutive scratch slots.
// The evaluator switches once per run, not once per gate. For std::uint64_t
// and lane_word<W> (words made of 64-bit words, bem/lanes.hpp) a run's loop
// works straight on the bytes in blocks of one target vector (a W = 256 gate
// is one ymm operation, a ternary one vpternlogq with AVX-512), unrolled by
// four, with operand offsets pre-multiplied (32-byte units) and two operands
// fetched by one 64-bit load; other word types use their own operators.
// `op_count()` and `run_count()` report the program's size.
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__GNUC__) && defined(__AVX512F__)
#include <immintrin.h>
#endif

BEM_NAMESPACE_BEGIN

/// The operations of a gate list.
enum class gate_op : std::uint8_t {
  and_ = 0,  ///< a & b
  or_ = 1,   ///< a | b
  xor_ = 2,  ///< a ^ b
  not_ = 3,  ///< ~a
  andn = 4,  ///< a & ~b
  ternary = 5,  ///< truth table tt over (a, b, c)
};

/// Number of operands of an operation.
constexpr int gate_arity(gate_op op) noexcept {
  return op == gate_op::not_ ? 1 : op == gate_op::ternary ? 3 : 2;
}

/// One gate: operation, truth table (ternary only, else 0), operand nodes
/// (unused operands are 0).
struct gate {
  gate_op op = gate_op::and_;
  std::uint8_t tt = 0;
  std::uint32_t a = 0, b = 0, c = 0;
  friend constexpr bool operator==(const gate&, const gate&) = default;
};

/// Well-known truth tables of ternary gates.
namespace ternary_tt {
inline constexpr std::uint8_t mux = 0xCA;       ///< a ? b : c
inline constexpr std::uint8_t majority = 0xE8;  ///< at least two of a, b, c
inline constexpr std::uint8_t xor3 = 0x96;      ///< a ^ b ^ c
inline constexpr std::uint8_t and3 = 0x80;      ///< a & b & c
inline constexpr std::uint8_t or3 = 0xFE;       ///< a | b | c
}  // namespace ternary_tt

/// The algebraic normal form of an 8-bit truth table: bit S (S a subset of
/// {a = 4, b = 2, c = 1}) is the coefficient of the product of S's
/// variables (bit 0: the constant). Its own inverse (the Moebius transform).
constexpr std::uint8_t ternary_anf(std::uint8_t tt) noexcept {
  unsigned f = tt;
  for (unsigned bit = 1; bit < 8; bit <<= 1)
    for (unsigned s = 0; s < 8; ++s)
      if (s & bit) f ^= ((f >> (s ^ bit)) & 1u) << s;
  return static_cast<std::uint8_t>(f);
}

/// A ternary gate of any truth table from its ANF coefficients (`anf` as
/// from ternary_anf): an XOR of the products of a, b, c that appear.
template <bit_sliced_word W>
constexpr W ternary_by_anf(std::uint8_t anf, const W& a, const W& b, const W& c) {
  W r = zero_word<W>();
  if (anf & 0x01) r = ~r;
  if (anf & 0x02) r = r ^ c;
  if (anf & 0x04) r = r ^ b;
  if (anf & 0x08) r = r ^ (b & c);
  if (anf & 0x10) r = r ^ a;
  if (anf & 0x20) r = r ^ (a & c);
  if (anf & 0x40) r = r ^ (a & b);
  if (anf & 0x80) r = r ^ (a & b & c);
  return r;
}

/// A ternary gate: the common tables by their formulas, any other by its ANF.
template <bit_sliced_word W>
constexpr W apply_ternary(std::uint8_t tt, const W& a, const W& b, const W& c) {
  switch (tt) {
    case ternary_tt::mux: return (a & b) | (~a & c);
    case ternary_tt::majority: return (a & b) | (c & (a | b));
    case ternary_tt::xor3: return a ^ b ^ c;
    case ternary_tt::and3: return a & b & c;
    case ternary_tt::or3: return a | b | c;
    default: return ternary_by_anf(ternary_anf(tt), a, b, c);
  }
}

/// One gate applied to its operand values.
template <bit_sliced_word W>
constexpr W apply_gate(gate_op op, std::uint8_t tt, const W& a, const W& b, const W& c) {
  switch (op) {
    case gate_op::and_: return a & b;
    case gate_op::or_: return a | b;
    case gate_op::xor_: return a ^ b;
    case gate_op::not_: return ~a;
    case gate_op::andn: return a & ~b;
    case gate_op::ternary: return apply_ternary(tt, a, b, c);
  }
  return a;
}

namespace detail {

/// Word types the fast interpreter may process as raw bytes: plain 64-bit
/// words whose & | ^ ~ act bit by bit on their object representation
/// (std::uint64_t, and lane_word<W> by its documented layout of W/64
/// 64-bit words). Other word types use their own operators.
template <class W>
struct gate_list_raw : std::false_type {};
#if defined(__GNUC__)
template <>
struct gate_list_raw<std::uint64_t> : std::true_type {};
template <std::size_t N>
struct gate_list_raw<lane_word<N>>
    : std::bool_constant<sizeof(lane_word<N>) == N / 8 && std::is_trivially_copyable_v<lane_word<N>>> {};

/// The widest integer vector of the target in bytes (8: none).
inline constexpr std::size_t gate_list_vector_bytes =
#if defined(__AVX512F__)
    64;
#elif defined(__AVX2__)
    32;
#elif defined(__SSE2__) || defined(__ARM_NEON) || defined(__ALTIVEC__) || defined(__wasm_simd128__)
    16;
#else
    8;
#endif

/// A vector of B bytes that may alias the words it is read from.
template <std::size_t B>
struct gate_list_vec {
  typedef std::uint64_t type __attribute__((vector_size(B), may_alias));
};
template <>
struct gate_list_vec<8> {
  typedef std::uint64_t type __attribute__((may_alias));
};

// Tables of the common functions of fewer than 3 slots (slot a = bit 2,
// b = bit 1; the table does not depend on the slots not read).
inline constexpr std::uint8_t tt2_and = 0xC0;   ///< a & b
inline constexpr std::uint8_t tt2_or = 0xFC;    ///< a | b
inline constexpr std::uint8_t tt2_xor = 0x3C;   ///< a ^ b
inline constexpr std::uint8_t tt2_andn = 0x30;  ///< a & ~b
inline constexpr std::uint8_t tt1_not = 0x0F;   ///< ~a

/// The function of table TT on blocks: of (a, b, c), of (a, b) (c not read)
/// or of a (b, c not read). One vpternlogq where the target has it and the
/// function is not a single plain operation; else the formula (the ANF for
/// uncommon tables, folded at compile time).
template <std::uint8_t TT>
struct gl_op {
  template <class V>
  [[gnu::always_inline]] static V f(V a) {
    if constexpr (TT == tt1_not)
      return ~a;
    else
      return f(a, a, a);
  }
  template <class V>
  [[gnu::always_inline]] static V f(V a, V b) {
    if constexpr (TT == tt2_and)
      return a & b;
    else if constexpr (TT == tt2_or)
      return a | b;
    else if constexpr (TT == tt2_xor)
      return a ^ b;
    else if constexpr (TT == tt2_andn)
      return a & ~b;
    else
      return f(a, b, b);
  }
  template <class V>
  [[gnu::always_inline]] static V f(V a, V b, V c) {
#if defined(__AVX512F__)
    if constexpr (sizeof(V) == 64) return (V)_mm512_ternarylogic_epi64((__m512i)a, (__m512i)b, (__m512i)c, TT);
#endif
#if defined(__AVX512VL__)
    if constexpr (sizeof(V) == 32) return (V)_mm256_ternarylogic_epi64((__m256i)a, (__m256i)b, (__m256i)c, TT);
    if constexpr (sizeof(V) == 16) return (V)_mm_ternarylogic_epi64((__m128i)a, (__m128i)b, (__m128i)c, TT);
#endif
    if constexpr (TT == ternary_tt::mux) {
      return c ^ (a & (b ^ c));
    } else if constexpr (TT == ternary_tt::majority) {
      return (a & b) | (c & (a | b));
    } else if constexpr (TT == ternary_tt::xor3) {
      return a ^ b ^ c;
    } else {
      constexpr std::uint8_t anf = ternary_anf(TT);
      V r = a ^ a;
      if constexpr ((anf & 0x01) != 0) r = ~r;
      if constexpr ((anf & 0x02) != 0) r ^= c;
      if constexpr ((anf & 0x04) != 0) r ^= b;
      if constexpr ((anf & 0x08) != 0) r ^= b & c;
      if constexpr ((anf & 0x10) != 0) r ^= a;
      if constexpr ((anf & 0x20) != 0) r ^= a & c;
      if constexpr ((anf & 0x40) != 0) r ^= a & b;
      if constexpr ((anf & 0x80) != 0) r ^= a & b & c;
      return r;
    }
  }
};

/// The table of the 2-slot function with values t2 bit (a << 1 | b).
constexpr std::uint8_t tt_of_2(unsigned t2) {
  unsigned tt = 0;
  for (unsigned idx = 0; idx < 8; ++idx) tt |= ((t2 >> (idx >> 1)) & 1u) << idx;
  return static_cast<std::uint8_t>(tt);
}
/// The table of the 1-slot function with values t1 bit a.
constexpr std::uint8_t tt_of_1(unsigned t1) {
  unsigned tt = 0;
  for (unsigned idx = 0; idx < 8; ++idx) tt |= ((t1 >> (idx >> 2)) & 1u) << idx;
  return static_cast<std::uint8_t>(tt);
}

/// Runs of one operation on words of S bytes, in blocks of one target
/// vector. Operands are offsets in units of 32 bytes (gate_list::unit): the
/// byte offset itself for S = 32, a scaled address for S = 64, 128, 256.
/// Loops are unrolled by 4; a gate may read a gate written earlier in its
/// run (the may_alias blocks keep loads after earlier stores).
template <std::size_t S>
struct gate_list_block {
  /// Block size: the largest power of two dividing S, at most one vector.
  static constexpr std::size_t bytes = [] {
    std::size_t b = 8;
    while (2 * b <= gate_list_vector_bytes && S % (2 * b) == 0) b *= 2;
    return b;
  }();
  using V = typename gate_list_vec<bytes>::type;

  [[gnu::always_inline]] static const char* at(const char* v, std::uint32_t off) {
    if constexpr (S % 32 == 0)
      return v + static_cast<std::size_t>(off) * (S / 32);
    else if constexpr (32 % S == 0)
      return v + static_cast<std::size_t>(off / (32 / S));
    else
      return v + static_cast<std::size_t>(off / 32) * S;
  }
  [[gnu::always_inline]] static V load(const char* p) { return *reinterpret_cast<const V*>(p); }
  [[gnu::always_inline]] static void store(char* p, V x) { *reinterpret_cast<V*>(p) = x; }
  [[gnu::always_inline]] static void copy(char* d, const char* s) { store(d, load(s)); }

  template <class Op>
  [[gnu::always_inline]] static void gate1(char* d, const char* v, const std::uint32_t* o) {
    const char* a = at(v, o[0]);
    for (std::size_t i = 0; i < S; i += bytes) store(d + i, Op::f(load(a + i)));
  }
  /// Two operands with one 64-bit load.
  [[gnu::always_inline]] static std::uint64_t pair(const std::uint32_t* o) {
    std::uint64_t x;
    __builtin_memcpy(&x, o, 8);
    return x;
  }
  template <class Op>
  [[gnu::always_inline]] static void gate2(char* d, const char* v, const std::uint32_t* o) {
    const std::uint64_t ab = pair(o);
    const char* a = at(v, static_cast<std::uint32_t>(ab));
    const char* b = at(v, static_cast<std::uint32_t>(ab >> 32));
    for (std::size_t i = 0; i < S; i += bytes) store(d + i, Op::f(load(a + i), load(b + i)));
  }
  template <class Op>
  [[gnu::always_inline]] static void gate3(char* d, const char* v, const std::uint32_t* o) {
    const std::uint64_t ab = pair(o);
    const char* a = at(v, static_cast<std::uint32_t>(ab));
    const char* b = at(v, static_cast<std::uint32_t>(ab >> 32));
    const char* c = at(v, o[2]);
    for (std::size_t i = 0; i < S; i += bytes) store(d + i, Op::f(load(a + i), load(b + i), load(c + i)));
  }

  template <class Op>
  static const std::uint32_t* run1(std::size_t cnt, const char* v, char* d, const std::uint32_t* o) {
    for (; cnt >= 4; cnt -= 4, o += 4, d += 4 * S) {
      gate1<Op>(d, v, o);
      gate1<Op>(d + S, v, o + 1);
      gate1<Op>(d + 2 * S, v, o + 2);
      gate1<Op>(d + 3 * S, v, o + 3);
    }
    for (; cnt > 0; --cnt, o += 1, d += S) gate1<Op>(d, v, o);
    return o;
  }
  template <class Op>
  static const std::uint32_t* run2(std::size_t cnt, const char* v, char* d, const std::uint32_t* o) {
    for (; cnt >= 4; cnt -= 4, o += 8, d += 4 * S) {
      gate2<Op>(d, v, o);
      gate2<Op>(d + S, v, o + 2);
      gate2<Op>(d + 2 * S, v, o + 4);
      gate2<Op>(d + 3 * S, v, o + 6);
    }
    for (; cnt > 0; --cnt, o += 2, d += S) gate2<Op>(d, v, o);
    return o;
  }
  template <class Op>
  static const std::uint32_t* run3(std::size_t cnt, const char* v, char* d, const std::uint32_t* o) {
    for (; cnt >= 4; cnt -= 4, o += 12, d += 4 * S) {
      gate3<Op>(d, v, o);
      gate3<Op>(d + S, v, o + 3);
      gate3<Op>(d + 2 * S, v, o + 6);
      gate3<Op>(d + 3 * S, v, o + 9);
    }
    for (; cnt > 0; --cnt, o += 3, d += S) gate3<Op>(d, v, o);
    return o;
  }

  using run_fn = const std::uint32_t* (*)(std::size_t, const char*, char*, const std::uint32_t*);
  /// A run of any table of 3 slots: one kernel per table.
  static const std::uint32_t* run3_any(std::uint8_t tt, std::size_t cnt, const char* v, char* d,
                                       const std::uint32_t* o) {
    static constexpr auto table = []<std::size_t... T>(std::index_sequence<T...>) {
      return std::array<run_fn, 256>{&run3<gl_op<static_cast<std::uint8_t>(T)>>...};
    }(std::make_index_sequence<256>{});
    return table[tt](cnt, v, d, o);
  }
  /// A run of any function of 2 slots (tt = tt_of_2(t2)).
  static const std::uint32_t* run2_any(std::uint8_t tt, std::size_t cnt, const char* v, char* d,
                                       const std::uint32_t* o) {
    static constexpr auto table = []<std::size_t... T>(std::index_sequence<T...>) {
      return std::array<run_fn, 16>{&run2<gl_op<tt_of_2(T)>>...};
    }(std::make_index_sequence<16>{});
    return table[(tt & 1u) | ((tt >> 1) & 2u) | ((tt >> 2) & 4u) | ((tt >> 3) & 8u)](cnt, v, d, o);
  }
  /// A run of any function of 1 slot (tt = tt_of_1(t1)).
  static const std::uint32_t* run1_any(std::uint8_t tt, std::size_t cnt, const char* v, char* d,
                                       const std::uint32_t* o) {
    if (tt == tt1_not) return run1<gl_op<tt1_not>>(cnt, v, d, o);
    static constexpr auto table = []<std::size_t... T>(std::index_sequence<T...>) {
      return std::array<run_fn, 4>{&run1<gl_op<tt_of_1(T)>>...};
    }(std::make_index_sequence<4>{});
    return table[(tt & 1u) | ((tt >> 3) & 2u)](cnt, v, d, o);
  }
};
#endif

}  // namespace detail

/// Number of gates some output depends on. `gates` in topological order over
/// `n` inputs; `outputs` name nodes.
constexpr std::size_t live_gate_count(std::size_t n, std::span<const gate> gates, std::span<const std::uint32_t> outputs) {
  std::vector<bool> live(n + gates.size(), false);
  for (auto o : outputs) live[o] = true;
  std::size_t count = 0;
  for (std::size_t i = gates.size(); i-- > 0;) {
    if (!live[n + i]) continue;
    ++count;
    const gate& g = gates[i];
    const int k = gate_arity(g.op);
    live[g.a] = true;
    if (k > 1) live[g.b] = true;
    if (k > 2) live[g.c] = true;
  }
  return count;
}

/// A gate list over `inputs()` inputs with a fast interpreter (see above).
class gate_list {
 public:
  using circuit_tag = circuit_representation_tag;

  gate_list() = default;

  /// Takes the gates (topological: gate i reads nodes < n + i) and the
  /// output nodes; throws std::invalid_argument naming the first bad gate or
  /// output.
  gate_list(std::size_t n, std::vector<gate> gates, std::vector<std::uint32_t> outputs)
      : n_(n), gates_(std::move(gates)), outputs_(std::move(outputs)) {
    for (std::size_t i = 0; i < gates_.size(); ++i) {
      const gate& g = gates_[i];
      if (static_cast<unsigned>(g.op) > static_cast<unsigned>(gate_op::ternary))
        throw std::invalid_argument("gate_list: gate " + std::to_string(i) + " has an unknown operation");
      const std::size_t limit = n_ + i;
      const int k = gate_arity(g.op);
      if (g.a >= limit || (k > 1 && g.b >= limit) || (k > 2 && g.c >= limit))
        throw std::invalid_argument("gate_list: gate " + std::to_string(i) + " reads a node >= " +
                                    std::to_string(limit) + " (gates must be in topological order)");
    }
    for (std::size_t k = 0; k < outputs_.size(); ++k)
      if (outputs_[k] >= n_ + gates_.size())
        throw std::invalid_argument("gate_list: output " + std::to_string(k) + " names node " +
                                    std::to_string(outputs_[k]) + ", which does not exist");
    if (n_ + gates_.size() > std::uint64_t{0xFFFFFFFFu} / unit)
      throw std::invalid_argument("gate_list: more than 2^27 nodes");
    schedule();
  }

  std::size_t inputs() const noexcept { return n_; }
  std::size_t outputs() const noexcept { return outputs_.size(); }
  /// G: every gate of the list.
  std::size_t gate_count() const noexcept { return gates_.size(); }
  /// Gates some output depends on.
  std::size_t live_gates() const { return live_gate_count(n_, gates_, outputs_); }
  /// n + G words: every node's value.
  std::size_t scratch_size() const noexcept { return n_ + gates_.size(); }

  const std::vector<gate>& gates() const noexcept { return gates_; }
  const std::vector<std::uint32_t>& output_nodes() const noexcept { return outputs_; }
  /// Number of runs of equal operations in the schedule (what the fast
  /// interpreter switches on).
  std::size_t run_count() const noexcept { return runs_.size(); }
  /// Number of operations the fast interpreter executes per evaluation:
  /// gates left after fusion (each a function of at most 3 nodes).
  std::size_t op_count() const noexcept { return ops_; }

  /// The fast interpreter (scheduled runs; see the header comment).
  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out, std::span<W> scratch) const {
    detail::check_circuit_spans("gate_list", n_, outputs_.size(), scratch_size(), in.size(), out.size(),
                                scratch.size());
#if defined(__GNUC__)
    if constexpr (detail::gate_list_raw<W>::value) {
      evaluate_raw<sizeof(W)>(reinterpret_cast<const char*>(in.data()), reinterpret_cast<char*>(out.data()),
                              out.size(), reinterpret_cast<char*>(scratch.data()));
      return;
    }
#endif
    evaluate_words<W>(in.data(), out.data(), out.size(), scratch.data());
  }

  /// evaluate with its own scratch (allocates).
  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out) const {
    std::vector<W> scratch(scratch_size());
    evaluate(in, out, std::span<W>(scratch));
  }

  /// The plain interpreter: one switch per gate, in list order. The
  /// reference the fast one is tested against, and the bench's peer.
  template <bit_sliced_word W>
  void evaluate_reference(std::span<const W> in, std::span<W> out, std::span<W> scratch) const {
    detail::check_circuit_spans("gate_list", n_, outputs_.size(), scratch_size(), in.size(), out.size(),
                                scratch.size());
    W* v = scratch.data();
    std::copy(in.begin(), in.end(), v);
    for (std::size_t i = 0; i < gates_.size(); ++i) {
      const gate& g = gates_[i];
      const int k = gate_arity(g.op);
      v[n_ + i] = apply_gate<W>(g.op, g.tt, v[g.a], k > 1 ? v[g.b] : v[g.a], k > 2 ? v[g.c] : v[g.a]);
    }
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = v[outputs_[k]];
  }

  /// Equal lists: same inputs, gates and outputs (a structural, not a
  /// functional, comparison).
  friend bool operator==(const gate_list& x, const gate_list& y) {
    return x.n_ == y.n_ && x.gates_ == y.gates_ && x.outputs_ == y.outputs_;
  }

 private:
  // Operands are stored as offset units: node slot * 32 (the byte offset of
  // the slot for 32-byte words, so W = 256 needs no scaling at all).
  static constexpr std::size_t unit = 32;

  /// Generic words: the same program with the word operations of W.
  template <bit_sliced_word W>
  void evaluate_words(const W* in, W* out, std::size_t m, W* v) const {
    std::copy(in, in + n_, v);
    W* dst = v + n_;
    const std::uint32_t* o = operands_.data();
    auto at = [v](std::uint32_t off) -> const W& { return v[off / unit]; };
    for (const run& r : runs_) {
      const std::uint8_t tt = r.tt;
      switch (r.k) {
        case 1:
          for (std::size_t j = 0; j < r.count; ++j, o += 1) dst[j] = apply_ternary(tt, at(o[0]), at(o[0]), at(o[0]));
          break;
        case 2:
          for (std::size_t j = 0; j < r.count; ++j, o += 2) dst[j] = apply_ternary(tt, at(o[0]), at(o[1]), at(o[1]));
          break;
        default:
          for (std::size_t j = 0; j < r.count; ++j, o += 3) dst[j] = apply_ternary(tt, at(o[0]), at(o[1]), at(o[2]));
          break;
      }
      dst += r.count;
    }
    for (std::size_t k = 0; k < m; ++k) out[k] = v[output_slots_[k]];
  }

#if defined(__GNUC__)
  /// Words of S bytes made of 64-bit words (std::uint64_t, lane_word<W>):
  /// vector blocks straight on the bytes (see detail::gate_list_block).
  template <std::size_t S>
  void evaluate_raw(const char* in, char* out, std::size_t m, char* v) const {
    using blk = detail::gate_list_block<S>;
    using detail::gl_op;
    for (std::size_t i = 0; i < n_ * S; i += blk::bytes) blk::copy(v + i, in + i);
    char* dst = v + n_ * S;
    const std::uint32_t* o = operands_.data();
    for (const run& r : runs_) {
      const std::size_t cnt = r.count;
      if (r.k == 3) {
        switch (r.tt) {
          case ternary_tt::mux: o = blk::template run3<gl_op<ternary_tt::mux>>(cnt, v, dst, o); break;
          case ternary_tt::majority: o = blk::template run3<gl_op<ternary_tt::majority>>(cnt, v, dst, o); break;
          case ternary_tt::xor3: o = blk::template run3<gl_op<ternary_tt::xor3>>(cnt, v, dst, o); break;
          default: o = blk::run3_any(r.tt, cnt, v, dst, o); break;
        }
      } else if (r.k == 2) {
        switch (r.tt) {
          case detail::tt2_and: o = blk::template run2<gl_op<detail::tt2_and>>(cnt, v, dst, o); break;
          case detail::tt2_or: o = blk::template run2<gl_op<detail::tt2_or>>(cnt, v, dst, o); break;
          case detail::tt2_xor: o = blk::template run2<gl_op<detail::tt2_xor>>(cnt, v, dst, o); break;
          case detail::tt2_andn: o = blk::template run2<gl_op<detail::tt2_andn>>(cnt, v, dst, o); break;
          default: o = blk::run2_any(r.tt, cnt, v, dst, o); break;
        }
      } else {
        o = blk::run1_any(r.tt, cnt, v, dst, o);
      }
      dst += cnt * S;
    }
    for (std::size_t k = 0; k < m; ++k)
      for (std::size_t i = 0; i < S; i += blk::bytes) blk::copy(out + k * S + i, v + output_slots_[k] * S + i);
  }
#endif

  /// One operation of the program: a function of k = 1..3 nodes as an 8-bit
  /// table over slots (leaf[0], leaf[1], leaf[2]) in the vpternlog
  /// convention; it does not depend on slots >= k.
  struct lut {
    std::uint8_t k = 0, tt = 0;
    std::uint32_t leaf[3] = {0, 0, 0};
  };
  struct run {
    std::uint8_t k, tt;
    std::uint32_t count;
  };

  /// The table of `f` (bool(const bool* slot_values)) over three slots.
  template <class F>
  static std::uint8_t table_of(F f) {
    unsigned tt = 0;
    for (unsigned idx = 0; idx < 8; ++idx) {
      const bool x[3] = {((idx >> 2) & 1u) != 0, ((idx >> 1) & 1u) != 0, (idx & 1u) != 0};
      if (f(x)) tt |= 1u << idx;
    }
    return static_cast<std::uint8_t>(tt);
  }
  static bool lut_value(const lut& l, const bool* slot) {
    return ((l.tt >> ((slot[0] ? 4 : 0) | (slot[1] ? 2 : 0) | (slot[2] ? 1 : 0))) & 1u) != 0;
  }

  /// The lut over `leaves` (distinct nodes) that computes value(node -> bool).
  template <class Value>
  static lut make_lut(const std::uint32_t* leaves, std::size_t k, Value value) {
    lut l;
    l.k = static_cast<std::uint8_t>(k);
    for (std::size_t j = 0; j < k; ++j) l.leaf[j] = leaves[j];
    l.tt = table_of([&](const bool* x) {
      auto node = [&](std::uint32_t v) {
        for (std::size_t j = 0; j < k; ++j)
          if (leaves[j] == v) return x[j];
        return false;  // not reached: every node read is a leaf
      };
      return value(node);
    });
    return l;
  }

  /// Drops the slots the table does not depend on (a constant keeps slot 0:
  /// the program reads one node for it).
  static lut drop_unused(lut l) {
    std::uint32_t keep[3];
    std::size_t k = 0;
    for (std::size_t j = 0; j < l.k; ++j) {
      const unsigned bit = 4u >> j;
      bool depends = false;
      for (unsigned idx = 0; idx < 8; ++idx) depends = depends || (((l.tt >> idx) ^ (l.tt >> (idx ^ bit))) & 1u) != 0;
      if (depends) keep[k++] = l.leaf[j];
    }
    if (k == l.k) return l;
    if (k == 0) keep[k++] = l.leaf[0];
    const lut old = l;
    return make_lut(keep, k, [&](auto node) {
      bool x[3] = {false, false, false};
      for (std::size_t j = 0; j < old.k; ++j) x[j] = node_or_false(node, old.leaf[j], keep, k);
      return lut_value(old, x);
    });
  }
  template <class Node>
  static bool node_or_false(Node node, std::uint32_t v, const std::uint32_t* keep, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j)
      if (keep[j] == v) return node(v);
    return false;  // a slot the table ignores
  }

  /// Gate i as a lut over its distinct operands.
  static lut gate_lut(const gate& g) {
    const int arity = gate_arity(g.op);
    const std::uint32_t ops[3] = {g.a, g.b, g.c};
    std::uint32_t leaves[3];
    std::size_t k = 0;
    for (int j = 0; j < arity; ++j)
      if (std::find(leaves, leaves + k, ops[j]) == leaves + k) leaves[k++] = ops[j];
    return drop_unused(make_lut(leaves, k, [&](auto node) {
      const bool a = node(g.a), b = arity > 1 ? node(g.b) : a, c = arity > 2 ? node(g.c) : a;
      return apply_gate<std::uint64_t>(g.op, g.tt, a ? ~0ull : 0ull, b ? ~0ull : 0ull, c ? ~0ull : 0ull) != 0;
    }));
  }

  /// Compiles the list into the program (see the header comment).
  void schedule() {
    const std::size_t g = gates_.size();
    std::vector<lut> luts(g);
    std::vector<std::uint32_t> readers(n_ + g, 0);  // luts (and outputs) reading a node
    std::vector<bool> absorbed(g, false);
    for (auto o : outputs_) readers[o] += 1;
    std::vector<bool> allowed(4 * 256, false);
    for (std::size_t i = 0; i < g; ++i) {
      luts[i] = gate_lut(gates_[i]);
      allowed[(luts[i].k << 8) | luts[i].tt] = true;
      for (std::size_t q = 0; q < luts[i].k; ++q) ++readers[luts[i].leaf[q]];
    }
    for (std::size_t i = 0; i < g; ++i) {
      lut& l = luts[i];
      for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t j = 0; j < l.k && !changed; ++j) {
          const std::uint32_t x = l.leaf[j];
          if (x < n_ || readers[x] != 1) continue;  // an input, or read elsewhere too
          const lut inner = luts[x - n_];
          std::uint32_t leaves[3];
          std::size_t k = 0;
          bool fits = true;
          auto add = [&](std::uint32_t v) {
            if (std::find(leaves, leaves + k, v) != leaves + k) return;
            if (k == 3)
              fits = false;
            else
              leaves[k++] = v;
          };
          for (std::size_t q = 0; q < l.k; ++q)
            if (q != j) add(l.leaf[q]);
          for (std::size_t q = 0; q < inner.k; ++q) add(inner.leaf[q]);
          if (!fits) continue;
          const lut outer = l;
          const lut fused = drop_unused(make_lut(leaves, k, [&](auto node) {
            bool xi[3] = {false, false, false}, xo[3] = {false, false, false};
            for (std::size_t q = 0; q < inner.k; ++q) xi[q] = node(inner.leaf[q]);
            for (std::size_t q = 0; q < outer.k; ++q) xo[q] = q == j ? lut_value(inner, xi) : node(outer.leaf[q]);
            return lut_value(outer, xo);
          }));
          if (!allowed[(fused.k << 8) | fused.tt]) continue;  // no new kind, so no new runs
          // Reader counts: x and its reads are gone; i reads the fused leaves.
          absorbed[x - n_] = true;
          for (std::size_t q = 0; q < inner.k; ++q) --readers[inner.leaf[q]];
          for (std::size_t q = 0; q < outer.k; ++q) --readers[outer.leaf[q]];
          for (std::size_t q = 0; q < fused.k; ++q) ++readers[fused.leaf[q]];
          l = fused;
          changed = true;
        }
      }
    }

    // Scheduling over the luts left.
    auto kind = [&](std::size_t i) -> std::uint32_t { return (static_cast<std::uint32_t>(luts[i].k) << 8) | luts[i].tt; };
    constexpr std::size_t kinds = 4 * 256;
    std::vector<std::uint32_t> waiting(g, 0);          // unscheduled lut leaves
    std::vector<std::vector<std::uint32_t>> users(g);  // luts reading lut i
    std::size_t left = 0;
    for (std::size_t i = 0; i < g; ++i) {
      if (absorbed[i]) continue;
      ++left;
      for (std::size_t q = 0; q < luts[i].k; ++q) {
        const std::uint32_t x = luts[i].leaf[q];
        if (x >= n_) {
          ++waiting[i];
          users[x - n_].push_back(static_cast<std::uint32_t>(i));
        }
      }
    }
    // Height: the longest chain of luts from a lut to the end.
    std::vector<std::uint32_t> height(g, 0);
    for (std::size_t i = g; i-- > 0;)
      for (auto u : users[i]) height[i] = std::max(height[i], height[u] + 1);
    // Priorities tried; the order with the fewest runs is kept.
    auto list_schedule = [&](int mode) {
      std::vector<std::uint32_t> wait = waiting;
      std::vector<std::vector<std::uint32_t>> ready(kinds);
      std::vector<std::uint64_t> score(kinds, 0);
      auto push = [&](std::uint32_t i) {
        const std::uint32_t k = kind(i);
        ready[k].push_back(i);
        if (mode == 0) score[k] += 1;
        else if (mode == 1) score[k] = std::max<std::uint64_t>(score[k], (std::uint64_t{height[i]} << 20) | ready[k].size());
        else score[k] += 1 + height[i];
      };
      for (std::size_t i = 0; i < g; ++i)
        if (!absorbed[i] && wait[i] == 0) push(static_cast<std::uint32_t>(i));
      std::vector<std::uint32_t> ord;
      ord.reserve(left);
      std::size_t runs = 0;
      while (ord.size() < left) {
        std::size_t best = 0;
        for (std::size_t k = 1; k < kinds; ++k)
          if (score[k] > score[best]) best = k;
        ++runs;
        // Drain this kind; luts it makes ready join the run if of the same kind.
        for (std::size_t q = 0; q < ready[best].size(); ++q) {
          const std::uint32_t i = ready[best][q];
          ord.push_back(i);
          for (auto u : users[i])
            if (--wait[u] == 0) push(u);
        }
        ready[best].clear();
        score[best] = 0;
      }
      return std::pair{runs, ord};
    };
    std::vector<std::uint32_t> order;
    std::size_t fewest = ~std::size_t{0};
    for (int mode = 0; mode < 3; ++mode) {
      auto [runs, ord] = list_schedule(mode);
      if (runs < fewest) {
        fewest = runs;
        order = std::move(ord);
      }
    }
    std::vector<std::uint32_t> slot(n_ + g, 0);
    for (std::size_t i = 0; i < n_; ++i) slot[i] = static_cast<std::uint32_t>(i);
    for (std::size_t j = 0; j < order.size(); ++j) slot[n_ + order[j]] = static_cast<std::uint32_t>(n_ + j);
    runs_.clear();
    operands_.clear();
    for (std::size_t j = 0; j < order.size(); ++j) {
      const lut& l = luts[order[j]];
      // Luts of one kind scheduled back to back form one run; a lut may
      // read an earlier lut of its own run (runs are evaluated in order).
      if (runs_.empty() || runs_.back().k != l.k || runs_.back().tt != l.tt) runs_.push_back({l.k, l.tt, 0});
      ++runs_.back().count;
      for (std::size_t q = 0; q < l.k; ++q) operands_.push_back(slot[l.leaf[q]] * static_cast<std::uint32_t>(unit));
    }
    ops_ = order.size();
    output_slots_.resize(outputs_.size());
    for (std::size_t k = 0; k < outputs_.size(); ++k) output_slots_[k] = slot[outputs_[k]];
  }

  std::size_t n_ = 0;
  std::vector<gate> gates_;
  std::vector<std::uint32_t> outputs_;
  std::vector<run> runs_;                    // the schedule
  std::vector<std::uint32_t> operands_;      // operand slots * unit, run by run
  std::vector<std::uint32_t> output_slots_;  // output slots in the schedule
  std::size_t ops_ = 0;                      // luts in the program
};

BEM_NAMESPACE_END
