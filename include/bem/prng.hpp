// The project's pseudo-random number generator.
//
// All task data comes from this file, never from std::*_distribution (whose
// algorithms are implementation-defined), so a seed yields the same bytes on
// every machine and compiler. The definitions below are the specification:
//
//   splitmix64(state):  state += 0x9E3779B97F4A7C15;
//                       z = state;
//                       z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
//                       z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
//                       return z ^ (z >> 31);
//   xoshiro256** (Blackman & Vigna 2018), state s[0..3] filled by four
//   successive splitmix64 outputs of the seed;
//       result = rotl(s[1] * 5, 7) * 9; t = s[1] << 17;
//       s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
//       s[2] ^= t; s[3] = rotl(s[3], 45).
//   uniform_below(n):   Lemire's multiply-shift with rejection: draw x,
//                       m = x * n (128-bit); reject while low64(m) < (2^64 - n) mod n;
//                       return high64(m).  Exactly uniform on [0, n).
//   uniform01():        (next() >> 11) * 2^-53, a multiple of 2^-53 in [0, 1).
//   bernoulli(p):       uniform01() < p.
//   bit():              one fresh bit per call, taken from a 64-bit output
//                       from its least significant bit upwards; a new
//                       output is drawn after 64 bits.
//   derive_seed(seed, a, b, c): the stream for item c of stream b of
//                       purpose a, with mix(x) = mix64(x), the output of
//                       splitmix64 from state x (one step):
//                       h = mix(seed); h = mix(h ^ a); h = mix(h ^ b);
//                       h = mix(h ^ c).
//
//   fnv1a64(text):      64-bit FNV-1a of the bytes of `text`.
//
// Tasks give every sequence its own generator, seeded by
// sequence_seed(run seed, split name, sequence index)
//   = derive_seed(run seed, fnv1a64(split name), sequence index),
// so a sequence's bytes depend neither on batch size, thread count or shard,
// nor on which other splits a task declares.
#pragma once

#include <bem/version.hpp>

#include <cstdint>
#include <limits>
#include <string_view>

BEM_NAMESPACE_BEGIN

namespace detail {
__extension__ typedef unsigned __int128 uint128;  // GCC/Clang extension; Lemire's method needs the high word
}

/// One step of splitmix64: advances `state` and returns the next output.
constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  state += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A 64-bit mix of one value (one splitmix64 step from that state).
constexpr std::uint64_t mix64(std::uint64_t x) noexcept { return splitmix64(x); }

/// Seed of item `c` of stream `b` of purpose `a` under a run seed: a chain of
/// mixes so that neighbouring (a, b, c) give unrelated streams.
constexpr std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0,
                                    std::uint64_t c = 0) noexcept {
  std::uint64_t h = mix64(seed);
  h = mix64(h ^ a);
  h = mix64(h ^ b);
  h = mix64(h ^ c);
  return h;
}

/// 64-bit FNV-1a hash of a byte string (names streams by text).
constexpr std::uint64_t fnv1a64(std::string_view text) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

/// Seed of sequence `index` of the split called `split_name`.
constexpr std::uint64_t sequence_seed(std::uint64_t seed, std::string_view split_name, std::int64_t index) noexcept {
  return derive_seed(seed, fnv1a64(split_name), static_cast<std::uint64_t>(index));
}

/// xoshiro256** with the helpers every task generator needs.
class xoshiro256ss {
 public:
  using result_type = std::uint64_t;

  constexpr explicit xoshiro256ss(std::uint64_t seed) noexcept {
    std::uint64_t sm = seed;
    for (auto& w : s_) w = splitmix64(sm);
  }

  /// A generator with the given raw state (for test vectors); not all zero.
  static constexpr xoshiro256ss from_state(std::uint64_t s0, std::uint64_t s1, std::uint64_t s2,
                                           std::uint64_t s3) noexcept {
    xoshiro256ss g(0);
    g.s_[0] = s0;
    g.s_[1] = s1;
    g.s_[2] = s2;
    g.s_[3] = s3;
    return g;
  }

  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }

  constexpr result_type operator()() noexcept { return next(); }

  constexpr std::uint64_t next() noexcept {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Exactly uniform integer in [0, n); n must be positive.
  constexpr std::uint64_t uniform_below(std::uint64_t n) noexcept {
    std::uint64_t x = next();
    detail::uint128 m = static_cast<detail::uint128>(x) * n;
    std::uint64_t low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;  // (2^64 - n) mod n
      while (low < threshold) {
        x = next();
        m = static_cast<detail::uint128>(x) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  /// Uniform integer in [lo, hi] (inclusive); lo <= hi. The width is taken
  /// modulo 2^64 so that any range, the whole of int64 included, is exact.
  constexpr std::int64_t uniform_int(std::int64_t lo, std::int64_t hi) noexcept {
    const std::uint64_t width = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    const std::uint64_t offset = width == ~std::uint64_t{0} ? next() : uniform_below(width + 1);
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + offset);
  }

  /// A multiple of 2^-53 in [0, 1).
  constexpr double uniform01() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  constexpr bool bernoulli(double p) noexcept { return uniform01() < p; }

  /// One fair bit, 64 per generator output (least significant first).
  constexpr bool bit() noexcept {
    if (bits_left_ == 0) {
      bit_buffer_ = next();
      bits_left_ = 64;
    }
    const bool b = bit_buffer_ & 1u;
    bit_buffer_ >>= 1;
    --bits_left_;
    return b;
  }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4]{};
  std::uint64_t bit_buffer_ = 0;
  int bits_left_ = 0;
};

BEM_NAMESPACE_END
