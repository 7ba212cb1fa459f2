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
//   4. encoding (std::uint64_t and lane_word<W>, words made of 64-bit
//      words): a threaded program of 16-bit fields (a node's field is its
//      slot * 4, so the address is one scaled index for words of up to 32
//      bytes). Each run becomes blocks of at most 16 operations of a common
//      kind (AND, OR, XOR, ANDN, NOT, mux, majority, xor3), or of at most
//      255 of another table. A block is a header (entry, end slot) and its
//      operands, padded so that operation i of a block is at a fixed offset.
// The evaluator dispatches once per block with one switch: a common kind is
// a Duff's device of 16 straight-line operations entered at operation
// 16 - m for a block of m, so no loop, no remainder and no branch inside a
// block (a W = 256 gate is one ymm operation, a ternary one vpternlogq with
// AVX-512); full blocks have their own straight line that loads the fields
// ahead of their use. Why: at W = 256 the work per gate is at the machine's memory
// limit (two or three operand loads and one store; measured on Zen 4 about
// 2.3 memory operations per cycle), so what counts is the memory operations
// per gate beyond those (binary gates read their four 16-bit fields with
// one 64-bit load per two gates), the instructions per gate (the bextr
// controls stay in registers: detail::gl_ctl) and the branches per run (one
// indirect jump per block instead of a switch, a call, a loop exit and a
// remainder loop; a dispatch per gate, even with values kept in registers,
// measured 2-3x slower: docs/circuits.md). Generic blocks run a loop from a table
// of 256 + 16 + 4 kernels. Other word types, and programs of more than
// 16383 slots (inputs plus operations after fusion: fields of 16 bits), run
// the same schedule with the word's own operators. `op_count()` and `run_count()` report the program's size.
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/circuits/gate.hpp>
#include <bem/circuits/lut.hpp>
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

#if defined(__GNUC__) && (defined(__AVX512F__) || defined(__BMI__))
#include <immintrin.h>
#endif

BEM_NAMESPACE_BEGIN

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

/// The threaded program's encoding (see gate_list::schedule): 16-bit fields,
/// a node's field is its slot * 4, so the byte address of slot j for words
/// of S bytes is v + field * (S / 4), one scaled address for S <= 32.
inline constexpr std::size_t gl_block = 16;  ///< gates per block of a common kind
inline constexpr std::size_t gl_common = 8;  ///< common kinds (Duff blocks)
/// Entry numbers: common kind K entered at gate e (block of 16 - e gates) is
/// K * 16 + e; then the generic blocks of arity 1..3 and the end.
inline constexpr std::uint16_t gl_generic = gl_common * gl_block;  // + arity - 1
inline constexpr std::uint16_t gl_end = gl_generic + 3;
/// Fields per gate of a block of the common kind's arity (a ternary gate
/// takes 4, one unused, so that every gate is one aligned 64-bit load).
constexpr std::size_t gl_stride(std::size_t arity) { return arity == 3 ? 4 : arity; }

/// The BMI bextr controls of fields 1 and 2 (start | length << 8). The
/// evaluator makes them opaque once per evaluation, so that they stay in two
/// registers: with a constant control, GCC loads the constant into a
/// register again before every bextr (measured: 10 -> 8 instructions per
/// ternary gate, a mux block 2.0 -> 1.55 ticks per gate).
struct gl_ctl {
  std::uint64_t p1 = 0x1010, p2 = 0x1020;
};

/// Gates on words of S bytes, in blocks of one target vector, their operands
/// addressed by 16-bit fields (see above); `d` is the gate's destination.
/// A gate may read a gate written just before it (the may_alias blocks keep
/// loads after earlier stores).
template <std::size_t S>
struct gate_list_block {
  /// Block size: the largest power of two dividing S, at most one vector.
  static constexpr std::size_t bytes = [] {
    std::size_t b = 8;
    while (2 * b <= gate_list_vector_bytes && S % (2 * b) == 0) b *= 2;
    return b;
  }();
  using V = typename gate_list_vec<bytes>::type;

  /// The node addressed by field `Pos` (0..3) of x: one instruction for any
  /// field (bextr) where the target has BMI.
  template <unsigned Pos>
  [[gnu::always_inline]] static const char* at(const char* v, std::uint64_t x, [[maybe_unused]] gl_ctl c = {}) {
    std::size_t f;
    if constexpr (Pos == 0)
      f = static_cast<std::uint16_t>(x);
    else if constexpr (Pos == 3)
      f = static_cast<std::size_t>(x >> 48);
    else
#if defined(__BMI__)
      f = static_cast<std::size_t>(__builtin_ia32_bextr_u64(x, Pos == 1 ? c.p1 : c.p2));
#else
      f = static_cast<std::uint16_t>(x >> (16 * Pos));
#endif
    return v + f * (S / 4);
  }
  [[gnu::always_inline]] static V load(const char* p) { return *reinterpret_cast<const V*>(p); }
  [[gnu::always_inline]] static void store(char* p, V x) { *reinterpret_cast<V*>(p) = x; }
  [[gnu::always_inline]] static void copy(char* d, const char* s) { store(d, load(s)); }
  /// 8 bytes of the program: up to four fields with one load.
  [[gnu::always_inline]] static std::uint64_t fields(const std::uint16_t* f) {
    std::uint64_t x;
    __builtin_memcpy(&x, f, 8);
    return x;
  }

  /// Gates of 1, 2, 3 operands, their fields at Pos, Pos + 1, ... of x.
  template <class Op, unsigned Pos = 0>
  [[gnu::always_inline]] static void g1(char* d, const char* v, std::uint64_t x, gl_ctl c = {}) {
    const char* a = at<Pos>(v, x, c);
    for (std::size_t i = 0; i < S; i += bytes) store(d + i, Op::f(load(a + i)));
  }
  template <class Op, unsigned Pos = 0>
  [[gnu::always_inline]] static void g2(char* d, const char* v, std::uint64_t x, gl_ctl c = {}) {
    const char *a = at<Pos>(v, x, c), *b = at<Pos + 1>(v, x, c);
    for (std::size_t i = 0; i < S; i += bytes) store(d + i, Op::f(load(a + i), load(b + i)));
  }
  template <class Op>
  [[gnu::always_inline]] static void g3(char* d, const char* v, std::uint64_t x, gl_ctl k = {}) {
    const char *a = at<0>(v, x, k), *b = at<1>(v, x, k), *c = at<2>(v, x, k);
    for (std::size_t i = 0; i < S; i += bytes) store(d + i, Op::f(load(a + i), load(b + i), load(c + i)));
  }

  /// A full block of 16 binary (Arity 2) or ternary (3) gates of Op, the
  /// block's end at d. Every 64-bit word of fields is loaded four words
  /// ahead of its use, so that operand addresses are known when the operand
  /// loads issue (an asm loop of binary gates: 1.44 cycles per gate with
  /// each word loaded just before use, 1.29 with all loaded first).
  template <class Op, int Arity>
  [[gnu::always_inline]] static void full(char* d, const char* v, const std::uint16_t* f, gl_ctl c) {
    std::uint64_t x[Arity == 2 ? 8 : 16];
    full_steps<Op, Arity>(d, v, f, x, c, std::make_integer_sequence<int, Arity == 2 ? 8 : 16>{});
  }
  // (Static functions, not lambdas: GCC does not always inline a lambda,
  // and then x lives in memory.)
  static constexpr int ahead = 4;
  template <class Op, int Arity, int... J>
  [[gnu::always_inline]] static void full_steps(char* d, const char* v, const std::uint16_t* f, std::uint64_t* x, gl_ctl c,
                                                std::integer_sequence<int, J...>) {
    ((J < ahead ? void(x[J] = fields(f + 4 * J)) : void()), ...);
    (full_step<Op, Arity, J, sizeof...(J)>(d, v, f, x, c), ...);
  }
  template <class Op, int Arity, int J, std::size_t Words>
  [[gnu::always_inline]] static void full_step(char* d, const char* v, const std::uint16_t* f, std::uint64_t* x, gl_ctl c) {
    if constexpr (J + ahead < static_cast<int>(Words)) x[J + ahead] = fields(f + 4 * (J + ahead));
    if constexpr (Arity == 2) {
      g2<Op>(d - (16 - 2 * J) * S, v, x[J], c);
      g2<Op, 2>(d - (15 - 2 * J) * S, v, x[J], c);
    } else {
      g3<Op>(d - (16 - J) * S, v, x[J], c);
    }
  }

  /// A generic block: cnt gates of table TT and `Arity` operands, fields
  /// packed (Arity per gate), written to d, d + S, ...
  template <class Op, int Arity>
  static void run(std::size_t cnt, const char* v, char* d, const std::uint16_t* f) {
    for (; cnt > 0; --cnt, f += Arity, d += S) {
      std::uint64_t x = f[0];
      if constexpr (Arity > 1) x |= std::uint64_t{f[1]} << 16;
      if constexpr (Arity > 2) x |= std::uint64_t{f[2]} << 32;
      if constexpr (Arity == 1) g1<Op>(d, v, x);
      else if constexpr (Arity == 2) g2<Op>(d, v, x);
      else g3<Op>(d, v, x);
    }
  }
  using run_fn = void (*)(std::size_t, const char*, char*, const std::uint16_t*);
  /// A block of any table of `arity` slots: one kernel per table (indexed by
  /// the table's values on the slots it reads).
  static void run_any(int arity, std::uint8_t tt, std::size_t cnt, const char* v, char* d, const std::uint16_t* f) {
    static constexpr auto t3 = []<std::size_t... T>(std::index_sequence<T...>) {
      return std::array<run_fn, 256>{&run<gl_op<static_cast<std::uint8_t>(T)>, 3>...};
    }(std::make_index_sequence<256>{});
    static constexpr auto t2 = []<std::size_t... T>(std::index_sequence<T...>) {
      return std::array<run_fn, 16>{&run<gl_op<tt_of_2(T)>, 2>...};
    }(std::make_index_sequence<16>{});
    static constexpr auto t1 = []<std::size_t... T>(std::index_sequence<T...>) {
      return std::array<run_fn, 4>{&run<gl_op<tt_of_1(T)>, 1>...};
    }(std::make_index_sequence<4>{});
    if (arity == 3) t3[tt](cnt, v, d, f);
    else if (arity == 2) t2[table2_bits(tt)](cnt, v, d, f);
    else t1[(tt & 1u) | ((tt >> 3) & 2u)](cnt, v, d, f);
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
  using circuit_representation_concept = circuit_representation_t;
  static constexpr const char* representation_name = "gate_list";  ///< for records (§6.1)
  /// evaluate takes `in` as the first n words of `scratch`, and then does
  /// not copy the inputs (bem/circuits/circuit.hpp).
  static constexpr bool inputs_in_place = true;

  gate_list() = default;

  /// Takes the gates (topological: gate i reads nodes < n + i) and the
  /// output nodes; throws std::invalid_argument naming the first bad gate or
  /// output. Operands an operation does not use, and a non-ternary's table,
  /// are stored as 0 whatever they were.
  gate_list(std::size_t n, std::vector<gate> gates, std::vector<std::uint32_t> outputs)
      : n_(n), gates_(std::move(gates)), outputs_(std::move(outputs)) {
    for (std::size_t i = 0; i < gates_.size(); ++i) {
      gate& g = gates_[i];
      if (static_cast<unsigned>(g.op) > static_cast<unsigned>(gate_op::ternary))
        throw std::invalid_argument("gate_list: gate " + std::to_string(i) + " has an unknown operation");
      const std::size_t limit = n_ + i;
      const int k = gate_arity(g.op);
      if (g.a >= limit || (k > 1 && g.b >= limit) || (k > 2 && g.c >= limit))
        throw std::invalid_argument("gate_list: gate " + std::to_string(i) + " reads a node >= " +
                                    std::to_string(limit) + " (gates must be in topological order)");
      // Stored in the documented form (struct gate): what the operation does
      // not use is 0, so code that reads every field reads nothing unchecked.
      if (k < 2) g.b = 0;
      if (k < 3) g.c = 0;
      if (g.op != gate_op::ternary) g.tt = 0;
    }
    for (std::size_t k = 0; k < outputs_.size(); ++k)
      if (outputs_[k] >= n_ + gates_.size())
        throw std::invalid_argument("gate_list: output " + std::to_string(k) + " names node " +
                                    std::to_string(outputs_[k]) + ", which does not exist");
    if (n_ + gates_.size() > std::uint64_t{0xFFFFFFFFu})
      throw std::invalid_argument("gate_list: more than 2^32 - 1 nodes");
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
  /// Number of runs of equal operations in the schedule (the fast
  /// interpreter dispatches once per block: one per run, more for runs of
  /// over 16 operations).
  std::size_t run_count() const noexcept { return runs_.size(); }
  /// Number of operations the fast interpreter executes per evaluation:
  /// gates left after fusion (each a function of at most 3 nodes).
  std::size_t op_count() const noexcept { return ops_; }

  /// The fast interpreter (scheduled runs; see the header comment). `in`
  /// is either scratch's first n words (the inputs in place, not copied)
  /// or disjoint from scratch.
  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out, std::span<W> scratch) const {
    detail::check_circuit_spans("gate_list", n_, outputs_.size(), scratch_size(), in.size(), out.size(),
                                scratch.size());
#if defined(__GNUC__)
    if constexpr (detail::gate_list_raw<W>::value) {
      if (code_.empty()) {  // over 16383 slots (n + op_count()): fields do not fit 16 bits
        evaluate_words<W>(in.data(), out.data(), out.size(), scratch.data());
        return;
      }
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
  /// Generic words: the same program with the word operations of W.
  template <bit_sliced_word W>
  void evaluate_words(const W* in, W* out, std::size_t m, W* v) const {
    if (in != v) std::copy(in, in + n_, v);  // else the inputs are in place
    W* dst = v + n_;
    const std::uint32_t* o = operands_.data();
    auto at = [v](std::uint32_t slot) -> const W& { return v[slot]; };
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
  // The threaded program's blocks (detail::gate_list_block): one switch per
  // block, cases numbered entry = kind * 16 + e, each common kind a Duff's
  // device of 16 straight-line gates entered at gate e, so a block of
  // 16 - e gates runs with no loop and no further branch. Gate i writes
  // slot end - 16 + i (`end` from the header) and reads its fields at
  // f + stride * i (the encoder pads the first e gates' fields). Binary
  // gates read their fields in pairs (one 64-bit load for two gates); an odd
  // entry loads its pair and joins the second gate of it. A full block
  // (entry 0) of a binary or ternary kind runs gate_list_block::full
  // instead, which loads the fields four words ahead of their use. Not
  // done: the same in the Duff chain (it needs entries with loads of their
  // own, and GCC then lays the chain out with a jump per pair), and one
  // straight line per block size (8x the code, slower: measured 1.54 ->
  // 1.62 ticks per gate at G = 256).
#define BEM_GL_GATE(OP, AR, I)                                                                    \
  if constexpr (AR == 1) blk::template g1<OP>(d - (16 - (I)) * S, v, f[I], ctl);                   \
  else blk::template g3<OP>(d - (16 - (I)) * S, v, blk::fields(f + 4 * (I)), ctl);
#define BEM_GL_PAIR(K, OP, J)                                                                     \
  case K * 16 + 2 * J:                                                                            \
    x = blk::fields(f + 4 * J);                                                                   \
    blk::template g2<OP>(d - (16 - 2 * J) * S, v, x, ctl);                                         \
  bem_gl_odd_##K##_##J:                                                                           \
    blk::template g2<OP, 2>(d - (15 - 2 * J) * S, v, x, ctl);
#define BEM_GL_ODD(K, J)                                                                          \
  case K * 16 + 2 * J + 1:                                                                        \
    x = blk::fields(f + 4 * J);                                                                   \
    goto bem_gl_odd_##K##_##J;
#define BEM_GL_BINARY(K, OP)                                                                      \
  case K * 16:                                                                                    \
    blk::template full<OP, 2>(d, v, f, ctl);                                                       \
    p = f + 32;                                                                                   \
    continue;                                                                                     \
  bem_gl_odd_##K##_0:                                                                             \
    blk::template g2<OP, 2>(d - 15 * S, v, x, ctl);                                                \
    [[fallthrough]];                                                                              \
  BEM_GL_PAIR(K, OP, 1) [[fallthrough]];                                                          \
  BEM_GL_PAIR(K, OP, 2) [[fallthrough]]; BEM_GL_PAIR(K, OP, 3) [[fallthrough]];                  \
  BEM_GL_PAIR(K, OP, 4) [[fallthrough]]; BEM_GL_PAIR(K, OP, 5) [[fallthrough]];                  \
  BEM_GL_PAIR(K, OP, 6) [[fallthrough]]; BEM_GL_PAIR(K, OP, 7)                                   \
    p = f + 32;                                                                                   \
    continue;
#define BEM_GL_ODDS(K)                                                                            \
  BEM_GL_ODD(K, 0) BEM_GL_ODD(K, 1) BEM_GL_ODD(K, 2) BEM_GL_ODD(K, 3)                             \
  BEM_GL_ODD(K, 4) BEM_GL_ODD(K, 5) BEM_GL_ODD(K, 6) BEM_GL_ODD(K, 7)
#define BEM_GL_ONE(OP, AR, I)                                                                     \
  case (I):                                                                                       \
    BEM_GL_GATE(OP, AR, (I) % 16)                                                                 \
    [[fallthrough]];
#define BEM_GL_OTHER(K, OP, AR)                                                                   \
  case K * 16:                                                                                    \
    if constexpr (AR == 3) {                                                                      \
      blk::template full<OP, 3>(d, v, f, ctl);                                                     \
      p = f + 64;                                                                                 \
      continue;                                                                                   \
    } else {                                                                                      \
      BEM_GL_GATE(OP, AR, 0)                                                                      \
    }                                                                                             \
    [[fallthrough]];                                                                              \
  BEM_GL_ONE(OP, AR, K * 16 + 1) BEM_GL_ONE(OP, AR, K * 16 + 2)                                   \
  BEM_GL_ONE(OP, AR, K * 16 + 3) BEM_GL_ONE(OP, AR, K * 16 + 4) BEM_GL_ONE(OP, AR, K * 16 + 5)    \
  BEM_GL_ONE(OP, AR, K * 16 + 6) BEM_GL_ONE(OP, AR, K * 16 + 7) BEM_GL_ONE(OP, AR, K * 16 + 8)    \
  BEM_GL_ONE(OP, AR, K * 16 + 9) BEM_GL_ONE(OP, AR, K * 16 + 10) BEM_GL_ONE(OP, AR, K * 16 + 11)  \
  BEM_GL_ONE(OP, AR, K * 16 + 12) BEM_GL_ONE(OP, AR, K * 16 + 13) BEM_GL_ONE(OP, AR, K * 16 + 14) \
  case K * 16 + 15:                                                                               \
    BEM_GL_GATE(OP, AR, 15)                                                                       \
    p = f + 16 * detail::gl_stride(AR);                                                           \
    continue;

  /// Words of S bytes made of 64-bit words (std::uint64_t, lane_word<W>):
  /// the threaded program straight on the bytes.
  template <std::size_t S>
  void evaluate_raw(const char* in, char* out, std::size_t m, char* v) const {
    using blk = detail::gate_list_block<S>;
    using detail::gl_op;
    // Members in locals: the stores through may_alias blocks could
    // otherwise alias them, and the compiler would reload them.
    const std::size_t in_bytes = n_ * S;
    const std::uint32_t* const outs = output_slots_.data();
    if (in != v)  // else the inputs are in place
      for (std::size_t i = 0; i < in_bytes; i += blk::bytes) blk::copy(v + i, in + i);
    const std::uint16_t* p = code_.data();
    std::uint64_t x;  // the fields of a binary pair
    detail::gl_ctl ctl;
    asm("" : "+r"(ctl.p1), "+r"(ctl.p2));
    for (;;) {
      // Header: entry, end slot field, (generic blocks) table and count.
      const std::uint64_t h = blk::fields(p);
      char* const d = v + ((h >> 16) & 0xFFFFu) * (S / 4);
      const std::uint16_t* const f = p + 4;
      switch (static_cast<std::uint8_t>(h)) {
        BEM_GL_BINARY(0, gl_op<detail::tt2_and>)
        BEM_GL_BINARY(1, gl_op<detail::tt2_or>)
        BEM_GL_BINARY(2, gl_op<detail::tt2_xor>)
        BEM_GL_BINARY(3, gl_op<detail::tt2_andn>)
        BEM_GL_OTHER(4, gl_op<detail::tt1_not>, 1)
        BEM_GL_OTHER(5, gl_op<ternary_tt::mux>, 3)
        BEM_GL_OTHER(6, gl_op<ternary_tt::majority>, 3)
        BEM_GL_OTHER(7, gl_op<ternary_tt::xor3>, 3)
        BEM_GL_ODDS(0)
        BEM_GL_ODDS(1)
        BEM_GL_ODDS(2)
        BEM_GL_ODDS(3)
        case detail::gl_generic:
        case detail::gl_generic + 1:
        case detail::gl_generic + 2: {
          const int arity = static_cast<int>(h & 0xFFFFu) - detail::gl_generic + 1;
          const std::size_t cnt = (h >> 40) & 0xFFu;
          blk::run_any(arity, static_cast<std::uint8_t>(h >> 32), cnt, v, d - cnt * S, f);
          p = f + (cnt * static_cast<std::size_t>(arity) + 3) / 4 * 4;
          continue;
        }
        default:  // detail::gl_end
          for (std::size_t k = 0; k < m; ++k)
            for (std::size_t i = 0; i < S; i += blk::bytes) blk::copy(out + k * S + i, v + outs[k] * S + i);
          return;
      }
    }
  }
#undef BEM_GL_GATE
#undef BEM_GL_PAIR
#undef BEM_GL_ODD
#undef BEM_GL_BINARY
#undef BEM_GL_ODDS
#undef BEM_GL_ONE
#undef BEM_GL_OTHER
#endif

  using lut = detail::lut;
  struct run {
    std::uint8_t k, tt;
    std::uint32_t count;
  };

  /// Compiles the list into the program (see the header comment).
  void schedule() {
    const std::size_t g = gates_.size();
    detail::lut_graph graph = detail::lut_graph_of(n_, gates_, outputs_);
    // Fusion only into tables the list already has: no new kind, so no new run.
    std::vector<bool> allowed(4 * 256, false);
    for (const lut& l : graph.luts) allowed[(l.k << 8) | l.tt] = true;
    detail::fuse_single_readers(graph, [&](const lut& fused) { return allowed[(fused.k << 8) | fused.tt]; });
    const std::vector<lut>& luts = graph.luts;
    const std::vector<bool>& absorbed = graph.absorbed;

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
      for (std::size_t q = 0; q < l.k; ++q) operands_.push_back(slot[l.leaf[q]]);
    }
    ops_ = order.size();
    output_slots_.resize(outputs_.size());
    for (std::size_t k = 0; k < outputs_.size(); ++k) output_slots_[k] = slot[outputs_[k]];
#if defined(__GNUC__)
    encode(luts, order, slot);
#endif
  }

#if defined(__GNUC__)
  /// The common kind (detail::gl_common of them) of (arity, table), or -1.
  static int common_kind(std::uint8_t k, std::uint8_t tt) {
    constexpr std::uint8_t tables[detail::gl_common] = {detail::tt2_and,     detail::tt2_or,        detail::tt2_xor,
                                                        detail::tt2_andn,    detail::tt1_not,       ternary_tt::mux,
                                                        ternary_tt::majority, ternary_tt::xor3};
    constexpr std::uint8_t arity[detail::gl_common] = {2, 2, 2, 2, 1, 3, 3, 3};
    for (int c = 0; c < static_cast<int>(detail::gl_common); ++c)
      if (arity[c] == k && tables[c] == tt) return c;
    return -1;
  }

  /// The threaded program (see evaluate_raw): per run, blocks of at most 16
  /// gates of a common kind (fields padded so that gate i of a block is at
  /// stride * i) or of at most 255 of another (fields packed); a header of
  /// four fields each: entry, end slot, table | count << 8, 0. Left empty
  /// where slot * 4 would not fit 16 bits.
  template <class Luts>
  void encode(const Luts& luts, const std::vector<std::uint32_t>& order, const std::vector<std::uint32_t>& slot) {
    code_.clear();
    if ((n_ + order.size()) * 4 > 0xFFFFu) return;
    const auto field = [&](std::uint32_t node) { return static_cast<std::uint16_t>(slot[node] * 4); };
    std::size_t j = 0;  // position in order
    for (const run& r : runs_) {
      const int kind = common_kind(r.k, r.tt);
      const std::size_t block = kind >= 0 ? detail::gl_block : 255;
      for (std::size_t done = 0; done < r.count;) {
        const std::size_t m = std::min<std::size_t>(block, r.count - done);
        const auto end = static_cast<std::uint16_t>((n_ + j + m) * 4);
        if (kind >= 0) {
          const std::size_t e = detail::gl_block - m, stride = detail::gl_stride(r.k);
          code_.insert(code_.end(), {static_cast<std::uint16_t>(kind * detail::gl_block + e), end, 0, 0});
          code_.insert(code_.end(), e * stride, 0);
          for (std::size_t i = 0; i < m; ++i) {
            const auto& l = luts[order[j + i]];
            for (std::size_t q = 0; q < stride; ++q) code_.push_back(q < l.k ? field(l.leaf[q]) : 0);
          }
        } else {
          code_.insert(code_.end(), {static_cast<std::uint16_t>(detail::gl_generic + r.k - 1), end,
                                     static_cast<std::uint16_t>(r.tt | (m << 8)), 0});
          for (std::size_t i = 0; i < m; ++i) {
            const auto& l = luts[order[j + i]];
            for (std::size_t q = 0; q < l.k; ++q) code_.push_back(field(l.leaf[q]));
          }
        }
        code_.resize((code_.size() + 3) / 4 * 4, 0);  // whole 64-bit words
        done += m;
        j += m;
      }
    }
    code_.insert(code_.end(), {detail::gl_end, 0, 0, 0});
  }
#endif

  std::size_t n_ = 0;
  std::vector<gate> gates_;
  std::vector<std::uint32_t> outputs_;
  std::vector<run> runs_;                    // the schedule
  std::vector<std::uint32_t> operands_;      // operand slots, run by run (generic words)
  std::vector<std::uint16_t> code_;          // the threaded program (raw words), see encode
  std::vector<std::uint32_t> output_slots_;  // output slots in the schedule
  std::size_t ops_ = 0;                      // luts in the program
};

BEM_NAMESPACE_END
