// bench/bitalu: the BEM 2.1 loops (plugins/bitalu/kernels.hpp) against the
// machine's own instruction throughput limit, measured in the same run.
//
// Calibration: for each instruction class the BIT-ALU needs (bitwise logic,
// 64-bit-element shift, cross-word permute, 64-bit popcount), a loop of
// 8 independent chains of that one instruction at the chunk width C the
// word uses (min(W, widest vector: 512 with AVX-512, 256 with AVX, 128 with
// SSE2, 64 otherwise)); an empty asm per instruction keeps the value in a
// register and stops the compiler folding the chain, and costs nothing. The
// best of several repetitions gives t_class, TSC ticks per instruction.
//
// Limit of an op: the fewest instructions its 2.1 loop body needs per
// C-bit chunk, times t_class, times W / C chunks:
//   and, or, xor, not, andnot, blend  2 logic (the op, the checksum XOR)
//   popcount                          2 logic + 1 popcount
//   shift_*, rotate_* (k = 1)         2 logic + 2 shift + 1 permute (C > 64),
//                                     1 logic + 1 shift-or-rotate + 1 logic (C = 64)
// Summing classes assumes they never overlap on different ports, so the
// limit time is, if anything, too long: ratios err in our favour, by at most
// the overlap. parity (a horizontal reduction) is printed but not in the
// ratio. ratio = limit time / our time (1 = at the limit); RESULT prints the
// worst op's ratio, goal 0.8 (within 1.25x of the limit).
#include "kernels.hpp"

#include <bem/cycles.hpp>

#if defined(__AVX512VPOPCNTDQ__) && defined(__AVX512VL__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

namespace {

#if defined(__x86_64__) && defined(__AVX512F__)
constexpr std::size_t native_bits = 512;
#elif defined(__x86_64__) && defined(__AVX__)
constexpr std::size_t native_bits = 256;
#elif defined(__x86_64__)
constexpr std::size_t native_bits = 128;
#else
constexpr std::size_t native_bits = 64;
#endif

enum class cls { logic, shift, permute, popcount };

/// Keeps v in a register of its width and unknown to the optimiser.
template <class V>
inline void opaque(V& v) {
  if constexpr (sizeof(V) == 8) asm volatile("" : "+r"(v));
#if defined(__x86_64__)
  else if constexpr (sizeof(V) == 64 || sizeof(V) == 32) asm volatile("" : "+v"(v));
  else asm volatile("" : "+x"(v));
#endif
}

/// TSC ticks per instruction of class `c` at C bits, best of 7.
template <std::size_t C, cls c>
[[gnu::noinline]] double calibrate() {
  using V = std::conditional_t<C == 64, std::uint64_t, typename bem::detail::u64_vector<C / 8>::type>;
  V b{}, a0{}, a1{}, a2{}, a3{}, a4{}, a5{}, a6{}, a7{};
  b += 0x5a5a5a5a5a5a5a5aull;  // named variables, not an array: they stay in registers
  a0 += 0x1111111111111111ull;
  a1 += 0x2222222222222222ull;
  a2 += 0x3333333333333333ull;
  a3 += 0x4444444444444444ull;
  a4 += 0x5555555555555555ull;
  a5 += 0x6666666666666666ull;
  a6 += 0x7777777777777777ull;
  a7 += 0x8888888888888888ull;
  const auto step = [&b](V& a) {
    if constexpr (c == cls::logic) a ^= b;
    else if constexpr (c == cls::shift) a = a << 1;
    else if constexpr (c == cls::permute) {
      if constexpr (C == 64) a = std::rotl(a, 1);
      else {
        using I = typename bem::detail::u64_vector<C / 8>::type;
        I idx;
        for (std::size_t e = 0; e < C / 64; ++e) idx[e] = (e + 1) % (C / 64);
        a = __builtin_shuffle(a, idx);
      }
    } else {
      if constexpr (C == 64) a = static_cast<std::uint64_t>(std::popcount(a));
      else {
#if defined(__AVX512VPOPCNTDQ__) && defined(__AVX512VL__)
        if constexpr (C == 512) a = (V)_mm512_popcnt_epi64((__m512i)a);
        else if constexpr (C == 256) a = (V)_mm256_popcnt_epi64((__m256i)a);
        else a = (V)_mm_popcnt_epi64((__m128i)a);
#else
        for (std::size_t e = 0; e < C / 64; ++e) a[e] = static_cast<std::uint64_t>(std::popcount(a[e]));
#endif
      }
    }
    opaque(a);
  };
  constexpr std::uint64_t rounds = 200000;
  double best = std::numeric_limits<double>::infinity();
  for (int rep = 0; rep < 7; ++rep) {
    const std::uint64_t t0 = bem::read_tsc_begin();
    for (std::uint64_t i = 0; i < rounds; ++i) {
      step(a0);
      step(a1);
      step(a2);
      step(a3);
      step(a4);
      step(a5);
      step(a6);
      step(a7);
    }
    const std::uint64_t t1 = bem::read_tsc_end();
    best = std::min(best, static_cast<double>(t1 - t0) / (8.0 * rounds));
  }
  V all = a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
  opaque(all);  // the chains' results stay observable
  return best;
}

struct times {
  double logic, shift, permute, popcount;
};

template <std::size_t C>
times calibrate_all() {
  return {calibrate<C, cls::logic>(), calibrate<C, cls::shift>(), calibrate<C, cls::permute>(),
          calibrate<C, cls::popcount>()};
}

/// Limit ticks per op (see the file comment); negative: not in the ratio.
double limit(bitalu::op o, std::size_t w, std::size_t c, const times& t) {
  const double chunks = static_cast<double>(w / c);
  switch (o) {
    case bitalu::op::popcount: return chunks * (2 * t.logic + t.popcount);
    case bitalu::op::shift_left:
    case bitalu::op::shift_right:
    case bitalu::op::rotate_left:
    case bitalu::op::rotate_right:
      return c == 64 ? chunks * (t.logic + t.shift) : chunks * (2 * t.logic + 2 * t.shift + t.permute);
    case bitalu::op::parity: return -1;
    default: return chunks * 2 * t.logic;
  }
}

template <std::size_t W>
double measure(bitalu::op o, std::uint64_t rounds, std::uint64_t& sink) {
  const auto in = bitalu::make_operands<W>(bem::derive_seed(1, W));
  double best = std::numeric_limits<double>::infinity();
  for (int rep = 0; rep < 3; ++rep) {
    const std::uint64_t t0 = bem::read_tsc_begin();
    sink ^= bitalu::run_op<W>(o, in, rounds);
    const std::uint64_t t1 = bem::read_tsc_end();
    best = std::min(best, static_cast<double>(t1 - t0) / static_cast<double>(rounds * bitalu::streams));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t l_loop = 10000000;
  if (argc > 1) l_loop = std::strtoull(argv[1], nullptr, 10);
  const std::uint64_t rounds = std::max<std::uint64_t>(l_loop / bitalu::streams, 1);
  const auto& cal = bem::tsc_info();
  std::printf("widest vector: %zu bits; TSC %.3f GHz, %.3f TSC ticks per core cycle (%s); L_loop = %llu\n",
              native_bits, cal.tsc_hz / 1e9, cal.tsc_per_core_cycle,
              bem::cycle_method_label(false, cal.tsc_hz, cal.tsc_per_core_cycle).c_str(),
              static_cast<unsigned long long>(rounds * bitalu::streams));
  times t[4];
  t[0] = calibrate_all<64>();
  if constexpr (native_bits >= 128) t[1] = calibrate_all<128>();
  if constexpr (native_bits >= 256) t[2] = calibrate_all<256>();
  if constexpr (native_bits >= 512) t[3] = calibrate_all<512>();
  std::printf("calibration, TSC ticks per instruction (logic / shift / permute / popcount):\n");
  for (std::size_t i = 0, c = 64; c <= native_bits; ++i, c *= 2)
    std::printf("  %4zu bits: %.3f / %.3f / %.3f / %.3f\n", c, t[i].logic, t[i].shift, t[i].permute, t[i].popcount);
  std::printf("\n%-13s %5s %12s %12s %12s %8s\n", "op", "W", "ticks/op", "limit", "cycles/op", "ratio");
  double worst = std::numeric_limits<double>::infinity();
  std::string worst_name;
  std::uint64_t sink = 0;
  for (std::size_t w : {64, 128, 256, 512, 1024}) {
    const std::size_t c = std::min(w, native_bits);
    const std::size_t ci = c == 64 ? 0 : c == 128 ? 1 : c == 256 ? 2 : 3;
    for (const auto& [o, name] : bitalu::op_names) {
      double ours = 0;
      switch (w) {
        case 64: ours = measure<64>(o, rounds, sink); break;
        case 128: ours = measure<128>(o, rounds, sink); break;
        case 256: ours = measure<256>(o, rounds, sink); break;
        case 512: ours = measure<512>(o, rounds, sink); break;
        default: ours = measure<1024>(o, rounds, sink); break;
      }
      const double lim = limit(o, w, c, t[ci]);
      const double ratio = lim > 0 ? lim / ours : std::numeric_limits<double>::quiet_NaN();
      std::printf("%-13.*s %5zu %12.3f %12.3f %12.3f %8.2f\n", static_cast<int>(name.size()), name.data(), w, ours,
                  lim, ours / cal.tsc_per_core_cycle, ratio);
      if (lim > 0 && ratio < worst) {
        worst = ratio;
        worst_name = std::string(name) + ",W=" + std::to_string(w);
      }
    }
  }
  std::printf("\nchecksum %016llx; worst: %s\n", static_cast<unsigned long long>(sink), worst_name.c_str());
  std::printf("RESULT name=bitalu ratio=%.2f goal=0.8\n", worst);
  return 0;
}
