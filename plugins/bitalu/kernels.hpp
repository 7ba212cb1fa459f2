// The timed loops of microbenchmark 2.1 (BIT-ALU throughput), shared by the
// `bitalu_throughput` plugin and bench/bitalu so both time the same code.
//
// The exact code pattern (docs/bit-alu.md shows it too). U independent
// streams j (U = streams<W>: 8 where a word is one vector register of a
// target with 32 of them, else 4), each with an operand word x[j], a second
// operand y[j] and a checksum word c[j], all W bits and filled from bem's
// PRNG (c[j] = 0):
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
// one chain. Why 8 where they fit: a shift or rotation of a 128- or 256-bit
// word is valignq (3 cycles on Zen 4) then vpshldq (2) on the stream's
// chain, 5 cycles per op, so 4 streams cap it at 1.25 cycles per op while
// the units could do one per cycle; 8 streams hide that latency. 8 streams
// need 3 x 8 registers (x, y, c), so one-register words on AVX-512 only;
// elsewhere 8 would spill and 4 it is. popcount and parity need an input
// that changes: one word add of y[j] per iteration supplies it (an XOR
// would alternate between two inputs, and the popcount checksum cancelled
// to 0 over an even count), and is part of their cost. The shifts empty
// x[j] after W rounds and then shift zeros: the same instructions, so the
// timing holds, but their checksum stops depending on L_loop there. L_loop is rounded down to a multiple of U; the op count is
// that multiple.
#pragma once

#include <bem/lanes.hpp>
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

/// Independent streams of the loops at width W (see the file comment): 8
/// when 8 streams' x, y and c fit the vector registers, else 4.
template <std::size_t W>
inline constexpr std::size_t streams =
    W >= 128 && bem::detail::target_vector_bits >= 128 &&
            3 * 8 * (W / bem::detail::lane_work_bits(W)) <= vector_registers
        ? 8
        : 4;

/// Operands of one run: stream j uses x[j], y[j].
template <std::size_t W>
struct operands {
  std::array<bem::lane_word<W>, streams<W>> x, y;
};

template <std::size_t W>
operands<W> make_operands(std::uint64_t seed) {
  bem::xoshiro256ss g(seed);
  operands<W> o;
  for (std::size_t j = 0; j < streams<W>; ++j)
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

/// The loop above for one op: `rounds` rounds of the streams<W> streams;
/// returns the checksum. Streams are named variables, not an array, so
/// that they stay in registers.
template <op O, std::size_t W>
[[gnu::noinline]] std::uint64_t run_loop(const operands<W>& in, std::uint64_t rounds) {
  using L = bem::lane_word<W>;
  constexpr std::size_t U = streams<W>;
  static_assert(U == 4 || U == 8);
  // Streams 4..7 exist only for U = 8 (unused, they cost nothing).
  L x0 = in.x[0], x1 = in.x[1], x2 = in.x[2], x3 = in.x[3];
  const L y0 = in.y[0], y1 = in.y[1], y2 = in.y[2], y3 = in.y[3];
  L x4, x5, x6, x7, y4, y5, y6, y7;
  if constexpr (U == 8) x4 = in.x[4], x5 = in.x[5], x6 = in.x[6], x7 = in.x[7];
  if constexpr (U == 8) y4 = in.y[4], y5 = in.y[5], y6 = in.y[6], y7 = in.y[7];
  L c0, c1, c2, c3, c4, c5, c6, c7;
  std::uint64_t n0 = 0, n1 = 0, n2 = 0, n3 = 0, n4 = 0, n5 = 0, n6 = 0, n7 = 0;
  const auto step = [](L& x, const L& y, L& c, std::uint64_t& n) {
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
  };
  for (std::uint64_t i = 0; i < rounds; ++i) {
    step(x0, y0, c0, n0);
    step(x1, y1, c1, n1);
    step(x2, y2, c2, n2);
    step(x3, y3, c3, n3);
    if constexpr (U == 8) {
      step(x4, y4, c4, n4);
      step(x5, y5, c5, n5);
      step(x6, y6, c6, n6);
      step(x7, y7, c7, n7);
    }
  }
  // Summed, not XORed: equal streams' sums (not's is -rounds/2 per word,
  // whatever the operands) would cancel. By value: a pointer to a stream
  // (an array of them, say) kept 16-byte words in memory inside the loop
  // (W = 128 ran 2x slower).
  const auto plus = [](const L& a, const L& b) { return L::map(a, b, add_words); };
  L c = plus(plus(c0, c1), plus(c2, c3));
  std::uint64_t sum = n0 + (n1 << 16) + (n2 << 32) + (n3 << 48);
  if constexpr (U == 8) {
    c = plus(c, plus(plus(c4, c5), plus(c6, c7)));
    sum += n4 + (n5 << 16) + (n6 << 32) + (n7 << 48);
  }
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
