// The timed loops of microbenchmark 2.1 (BIT-ALU throughput), shared by the
// `bitalu_throughput` plugin and bench/bitalu so both time the same code.
//
// The exact code pattern (docs/bit-alu.md shows it too). U independent
// streams j (U = streams<O, W>, 1 to 8: the most whose registers fit the
// target's vector registers, see below), each with an operand word x[j], a
// second operand y[j] and a checksum word c[j], all W bits and filled from
// bem's PRNG (c[j] = 0):
//
//   for (i = 0; i < L_loop / U; ++i)
//     for (j = 0; j < U; ++j) {
//       and, or, xor, andnot:   x[j] = op(x[j], y[j]);          c[j] += x[j];
//       not, shift_*, rotate_*: x[j] = op(x[j]);                c[j] += x[j];   (k = 1, a fixed constant:
//                               the compile-time forms, e.g. bem::shift_left<1>(x[j]))
//       blend:                  x[j] = blend(y[j], x[j], c[j]); c[j] += x[j];
//       popcount:               x[j] += y[j];  c[j] += word_popcounts(x[j]);
//       parity:                 x[j] += y[j];  n[j] += parity(x[j]);
//     }
//   checksum = the sum of every 64-bit word of every c[j] and of n[j] << 16 (j mod 4), modulo 2^64
// where += adds the 64-bit words modulo 2^64 (one vpaddq per chunk, the
// cost of an XOR; an XOR checksum would cancel to 0 for ops whose result
// repeats with an even period, such as not and xor).
//
// Each op's result is the next iteration's operand and enters the checksum,
// so no iteration can be removed, hoisted or folded; the U streams are
// independent, so the loop measures throughput rather than the latency of
// one chain. Why several: a shift or rotation of a 128- or 256-bit word is
// valignq (3 cycles on Zen 4) then vpshldq (2) on the stream's chain, 5
// cycles per op, so 4 streams cap it at 1.25 cycles per op while the units
// could do one per cycle; 8 streams hide that latency (with AVX2 on Zen 3
// the chain is vperm2i128, vpalignr, vpsrlq, vpor: 4 streams read 2.07
// TSC ticks per shift, 6 read 1.69). Why not always 8: a stream holds x
// and c, and y where the op reads it (not, the shifts and rotations do
// not), so 2 or 3 registers per chunk (a chunk is one vector register,
// lanes.hpp), and streams that do not fit the register file are spilled to
// the stack on every iteration, which then times loads and stores instead
// of the op (W = 1024 with AVX2, 4 streams of 4 chunks: 4.5 TSC ticks per
// AND against 1.6 with one stream). So U is the most streams, up to 8,
// that leave four of the target's vector registers (16 without AVX-512, 32
// with) for an op's temporaries. With AVX-512: 8 at W = 128..512; at
// W = 1024 (two chunks) 4 for ops that read y and 7 for those that do not.
// With AVX2: 4 and 6 at W = 128 and 256, 2 and 3 at 512, 1 at 1024. The
// exception is a shift or rotation, which has at least 2 streams: in one
// stream the chunks of a word are chained through their neighbours, and
// the spilled checksums of a second stream cost less than the latency it
// hides (W = 1024 with AVX2: 9.2 TSC ticks per shift with one stream, 6.6
// with two). W = 64 (general registers): 4. popcount and parity need an
// input that changes: one word add of y[j] per iteration supplies it (an
// XOR would alternate between two inputs, and the popcount checksum
// cancelled to 0 over an even count), and is part of their cost. The
// shifts empty x[j] after W rounds and then shift zeros: the same
// instructions, so the timing holds, but their checksum stops depending on
// L_loop there. L_loop is rounded down to a multiple of U; the op count is
// that multiple. The loops start on a 64-byte boundary (-falign-loops=64,
// plugins/meson.build): on Zen 3 a loop of a dozen instructions that
// crossed one ran at half speed.
#pragma once

#include <bem/machine/lanes.hpp>
#include <bem/prng.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bitalu {

enum class op { and_, or_, xor_, not_, andnot, shift_left, shift_right, rotate_left, rotate_right, popcount, parity, blend };

inline constexpr std::array<std::pair<op, std::string_view>, 12> op_names{{
    {op::and_, "and"},
    {op::or_, "or"},
    {op::xor_, "xor"},
    {op::not_, "not"},
    {op::andnot, "andnot"},
    {op::shift_left, "shift_left"},
    {op::shift_right, "shift_right"},
    {op::rotate_left, "rotate_left"},
    {op::rotate_right, "rotate_right"},
    {op::popcount, "popcount"},
    {op::parity, "parity"},
    {op::blend, "blend"},
}};

/// The fixed shift/rotate distance of the 2.1 loops.
inline constexpr std::size_t shift_k = 1;
/// Vector registers of the target (x86-64: 32 with AVX-512, else 16).
inline constexpr std::size_t vector_registers =
#if defined(__AVX512F__)
    32;
#else
    16;
#endif

/// Whether op o moves lanes: the shifts and the rotations.
constexpr bool moves_lanes(op o) noexcept {
  return o == op::shift_left || o == op::shift_right || o == op::rotate_left || o == op::rotate_right;
}

/// Whether op o reads the second operand y: not and the moves do not, so
/// their streams need no register for it.
constexpr bool reads_second_operand(op o) noexcept { return o != op::not_ && !moves_lanes(o); }

/// The most streams a loop has (operands holds this many).
inline constexpr std::size_t max_streams = 8;

/// Independent streams of op o's loop at width W (see the file comment):
/// the most, up to 8, whose x and c, and y where the op reads it (2 or 3
/// vector registers per chunk), leave four vector registers for the op's
/// temporaries, and at least 2 for the shifts and rotations; 4 for words in
/// general registers.
constexpr std::size_t streams_of(op o, std::size_t w) noexcept {
  if (w < 128 || bem::detail::target_vector_bits < 128) return 4;
  const std::size_t per_stream = (reads_second_operand(o) ? 3 : 2) * (w / bem::detail::lane_work_bits(w));
  std::size_t u = max_streams;
  while (u > 1 && u * per_stream > vector_registers - 4) --u;
  return moves_lanes(o) ? std::max<std::size_t>(u, 2) : u;
}
template <op O, std::size_t W>
inline constexpr std::size_t streams = streams_of(O, W);

/// Operands of one run: stream j uses x[j], y[j] (j < streams_of(op, W)).
template <std::size_t W>
struct operands {
  std::array<bem::lane_word<W>, max_streams> x, y;
};

/// Every stream's operands, stream by stream (x then y, word by word), so a
/// loop of U streams reads the same values whatever U another loop has.
template <std::size_t W>
operands<W> make_operands(std::uint64_t seed) {
  bem::xoshiro256ss g(seed);
  operands<W> o;
  for (std::size_t j = 0; j < max_streams; ++j)
    for (std::size_t i = 0; i < W / 64; ++i) {
      o.x[j].set_word(i, g.next());
      o.y[j].set_word(i, g.next());
    }
  return o;
}

/// An empty asm that makes v opaque to the optimiser: the op's result must
/// exist as such before it enters the checksum (GCC otherwise rewrites
/// c += ~x as c - x - 1, three instructions instead of two). Emits nothing.
template <class V>
inline void keep(V& v) noexcept {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  if constexpr (sizeof(V) == 8) asm("" : "+r"(v));
  else asm("" : "+v"(v));
#else
  (void)v;
#endif
}

/// Word-by-word operations for lane_word::map: keep, and addition modulo 2^64.
inline constexpr auto keep_words = [](auto& v, const auto&) { keep(v); };
inline constexpr auto add_words = [](auto& a, const auto& b) { a += b; };

/// One stream's step of the loop above for op O. A function, not a lambda:
/// GCC does not always inline a lambda, and a step called out of line
/// spills every stream around the call (W = 1024, AVX2: 40 TSC ticks per
/// shift, 8.5 once inlined).
template <op O, std::size_t W>
[[gnu::always_inline]] inline void step(bem::lane_word<W>& x, const bem::lane_word<W>& y, bem::lane_word<W>& c,
                                        std::uint64_t& n) noexcept {
  using L = bem::lane_word<W>;
  if constexpr (O == op::and_) x = x & y;
  else if constexpr (O == op::or_) x = x | y;
  else if constexpr (O == op::xor_) x = x ^ y;
  else if constexpr (O == op::not_) x = ~x;
  else if constexpr (O == op::andnot) x = bem::andnot(x, y);
  else if constexpr (O == op::shift_left) x = bem::shift_left<shift_k>(x);
  else if constexpr (O == op::shift_right) x = bem::shift_right<shift_k>(x);
  else if constexpr (O == op::rotate_left) x = bem::rotate_left<shift_k>(x);
  else if constexpr (O == op::rotate_right) x = bem::rotate_right<shift_k>(x);
  else if constexpr (O == op::blend) x = bem::blend(y, x, c);
  else x = L::map(x, y, add_words);  // popcount, parity: a new input
  // No instruction; x as such in its register (at W = 64 GCC otherwise
  // packed popcount's four streams into one vector: 4x flattering).
  x = L::map(x, x, keep_words);
  if constexpr (O == op::popcount) c = L::map(c, bem::word_popcounts(x), add_words);
  else if constexpr (O == op::parity) n += bem::parity(x) ? 1u : 0u;
  else c = L::map(c, x, add_words);  // c += x
}

/// The loop above for one op: `rounds` rounds of its streams<O, W>
/// streams; returns the checksum. Streams are named variables, not an
/// array, so that they stay in registers; those past U exist only as names
/// (unused, they cost nothing).
template <op O, std::size_t W>
[[gnu::noinline]] std::uint64_t run_loop(const operands<W>& in, std::uint64_t rounds) {
  using L = bem::lane_word<W>;
  constexpr std::size_t U = streams<O, W>;
  static_assert(U >= 1 && U <= max_streams);
  L x0 = in.x[0], x1 = in.x[1], x2 = in.x[2], x3 = in.x[3], x4 = in.x[4], x5 = in.x[5], x6 = in.x[6], x7 = in.x[7];
  const L y0 = in.y[0], y1 = in.y[1], y2 = in.y[2], y3 = in.y[3], y4 = in.y[4], y5 = in.y[5], y6 = in.y[6],
          y7 = in.y[7];
  L c0, c1, c2, c3, c4, c5, c6, c7;
  std::uint64_t n0 = 0, n1 = 0, n2 = 0, n3 = 0, n4 = 0, n5 = 0, n6 = 0, n7 = 0;
  for (std::uint64_t i = rounds; i > 0; --i) {  // counting down: one flag-setting decrement per round, no compare
    step<O>(x0, y0, c0, n0);
    if constexpr (U > 1) step<O>(x1, y1, c1, n1);
    if constexpr (U > 2) step<O>(x2, y2, c2, n2);
    if constexpr (U > 3) step<O>(x3, y3, c3, n3);
    if constexpr (U > 4) step<O>(x4, y4, c4, n4);
    if constexpr (U > 5) step<O>(x5, y5, c5, n5);
    if constexpr (U > 6) step<O>(x6, y6, c6, n6);
    if constexpr (U > 7) step<O>(x7, y7, c7, n7);
  }
  // Summed, not XORed: equal streams' sums (not's is -rounds/2 per word,
  // whatever the operands) would cancel. By value: a pointer to a stream
  // (an array of them, say) kept 16-byte words in memory inside the loop
  // (W = 128 ran 2x slower). Streams past U add zeros.
  const auto plus = [](const L& a, const L& b) { return L::map(a, b, add_words); };
  const L c = plus(plus(plus(c0, c1), plus(c2, c3)), plus(plus(c4, c5), plus(c6, c7)));
  std::uint64_t sum = n0 + (n1 << 16) + (n2 << 32) + (n3 << 48) + n4 + (n5 << 16) + (n6 << 32) + (n7 << 48);
  for (std::size_t i = 0; i < W / 64; ++i) sum += c.word(i);
  return sum;
}

/// run_loop for a run-time op.
template <std::size_t W>
std::uint64_t run_op(op o, const operands<W>& in, std::uint64_t rounds) {
  switch (o) {
    case op::and_: return run_loop<op::and_, W>(in, rounds);
    case op::or_: return run_loop<op::or_, W>(in, rounds);
    case op::xor_: return run_loop<op::xor_, W>(in, rounds);
    case op::not_: return run_loop<op::not_, W>(in, rounds);
    case op::andnot: return run_loop<op::andnot, W>(in, rounds);
    case op::shift_left: return run_loop<op::shift_left, W>(in, rounds);
    case op::shift_right: return run_loop<op::shift_right, W>(in, rounds);
    case op::rotate_left: return run_loop<op::rotate_left, W>(in, rounds);
    case op::rotate_right: return run_loop<op::rotate_right, W>(in, rounds);
    case op::popcount: return run_loop<op::popcount, W>(in, rounds);
    case op::parity: return run_loop<op::parity, W>(in, rounds);
    case op::blend: return run_loop<op::blend, W>(in, rounds);
  }
  return 0;
}

}  // namespace bitalu
