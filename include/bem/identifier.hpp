// Expert identifiers: the 32-bit layout, its Gray code and similarity.
//
// Layout (BEM v0.0.1 core, most significant bits first):
//   bits 31..26  class  (6 bits)  what kind of node this is (expert, macro...)
//   bits 25..20  ecc    (6 bits)  check bits over shard and local (see ecc_*)
//   bits 19..14  shard  (6 bits)
//   bits 13..0   local  (14 bits)
// Gray code g(u) = u ^ (u >> 1); similarity sim(a, b) = 32 - popcount(g(a) ^ g(b)).
// g is linear over GF(2), so g(a) ^ g(b) = g(a ^ b): storing g(u) lets any
// Hamming-distance index find exact similarity neighbours. Random identifiers
// have Binomial(32, 1/2) distances, so ties are common and every recall figure
// must state its tie rule.
#pragma once

#include <bem/version.hpp>

#include <bit>
#include <cstdint>

BEM_NAMESPACE_BEGIN

using identifier = std::uint32_t;

inline constexpr int identifier_class_bits = 6;
inline constexpr int identifier_ecc_bits = 6;
inline constexpr int identifier_shard_bits = 6;
inline constexpr int identifier_local_bits = 14;

constexpr std::uint32_t identifier_class(identifier id) noexcept { return id >> 26; }
constexpr std::uint32_t identifier_ecc(identifier id) noexcept { return (id >> 20) & 0x3Fu; }
constexpr std::uint32_t identifier_shard(identifier id) noexcept { return (id >> 14) & 0x3Fu; }
constexpr std::uint32_t identifier_local(identifier id) noexcept { return id & 0x3FFFu; }

/// Packs the four fields (each masked to its width).
constexpr identifier make_identifier(std::uint32_t cls, std::uint32_t ecc, std::uint32_t shard,
                                     std::uint32_t local) noexcept {
  return ((cls & 0x3Fu) << 26) | ((ecc & 0x3Fu) << 20) | ((shard & 0x3Fu) << 14) | (local & 0x3FFFu);
}

/// Gray code g(u) = u ^ (u >> 1).
constexpr std::uint32_t gray_code(std::uint32_t u) noexcept { return u ^ (u >> 1); }

/// Inverse Gray code: u from g(u).
constexpr std::uint32_t gray_decode(std::uint32_t g) noexcept {
  g ^= g >> 16;
  g ^= g >> 8;
  g ^= g >> 4;
  g ^= g >> 2;
  g ^= g >> 1;
  return g;
}

/// sim(a, b) = 32 - popcount(g(a) ^ g(b)), in [0, 32].
constexpr int gray_similarity(identifier a, identifier b) noexcept {
  return 32 - std::popcount(gray_code(a) ^ gray_code(b));
}

/// Hamming distance between stored Gray codes (32 - similarity).
constexpr int gray_distance(std::uint32_t gray_a, std::uint32_t gray_b) noexcept {
  return std::popcount(gray_a ^ gray_b);
}

static_assert(gray_decode(gray_code(0xDEADBEEFu)) == 0xDEADBEEFu);
static_assert(gray_similarity(5, 5) == 32);

BEM_NAMESPACE_END
