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
//
// ECC (identifier_ecc_for, make_checked_identifier, ecc_check): an extended
// (SEC-DED) shortened Hamming code whose 20 data bits are shard|local, i.e.
// bits 19..0 of the identifier, d_i = bit i. The class field (bits 31..26) is
// outside the code: it is neither protected nor altered by ecc_check.
//
//   Data bit d_i has the 5-bit column h_i, the i-th integer of 1..25 that is
//   not a power of two (a Hamming(31,26) code shortened to its first 25
//   positions, whose power-of-two positions 1,2,4,8,16 hold the check bits):
//
//     i   :  0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19
//     h_i :  3  5  6  7  9 10 11 12 13 14 15 17 18 19 20 21 22 23 24 25
//
//   Check bit c_j (j = 0..4) = XOR of the d_i whose h_i has bit j set, i.e.
//   c_j = parity(d & M_j) with
//     M_0 = 0xAAD5B, M_1 = 0x3366D, M_2 = 0x3C78E, M_3 = 0xC07F0, M_4 = 0xFF800.
//   Overall parity p = parity(d) ^ c_0 ^ ... ^ c_4, so the 26 protected bits
//   have even weight.
//   The ecc field holds c_0..c_4 in its bits 0..4 (identifier bits 20..24) and
//   p in its bit 5 (identifier bit 25).
//
//   Decoding: syndrome s = (recomputed c) ^ (stored c), 5 bits; q = parity of
//   all 26 protected bits.  The 25 columns (h_i and 2^j) are distinct and
//   nonzero, so
//     s = 0,  q = 0  -> ok;
//     s = 0,  q = 1  -> p itself flipped (corrected, bit 25);
//     s != 0, q = 1  -> the single bit whose column is s flipped (corrected);
//                       s in 26..31 names no position: uncorrectable;
//     s != 0, q = 0  -> an even number (two) of errors: uncorrectable.
//   The code is linear with minimum distance 4, so every single error is
//   corrected and every double error detected; three or more errors may be
//   miscorrected (the SEC-DED limit). Tests check all of this exhaustively.
#pragma once

#include <bem/version.hpp>

#include <array>
#include <bit>
#include <cstddef>
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

// ---- ECC over shard | local ---------------------------------------------------

/// Number of bits the ECC protects: 20 data bits (shard, local) + 6 ecc bits.
inline constexpr int identifier_ecc_protected_bits = 26;

namespace detail {
/// Column h_i of data bit i (see the table at the top of this file).
inline constexpr std::array<std::uint32_t, 20> ecc_data_columns = {
    3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 22, 23, 24, 25};

/// M_j: the data bits that check bit j covers.
constexpr std::array<std::uint32_t, 5> ecc_make_masks() noexcept {
  std::array<std::uint32_t, 5> m{};
  for (std::uint32_t i = 0; i < 20; ++i)
    for (std::uint32_t j = 0; j < 5; ++j)
      if ((ecc_data_columns[i] >> j) & 1u) m[j] |= 1u << i;
  return m;
}
inline constexpr std::array<std::uint32_t, 5> ecc_masks = ecc_make_masks();
static_assert(ecc_masks[0] == 0xAAD5Bu && ecc_masks[1] == 0x3366Du && ecc_masks[2] == 0x3C78Eu &&
                  ecc_masks[3] == 0xC07F0u && ecc_masks[4] == 0xFF800u,
              "the ECC masks documented above");

/// The five Hamming check bits c_4..c_0 of a 20-bit data word.
constexpr std::uint32_t ecc_check_bits(std::uint32_t data) noexcept {
  std::uint32_t c = 0;
  for (std::uint32_t j = 0; j < 5; ++j) c |= static_cast<std::uint32_t>(std::popcount(data & ecc_masks[j]) & 1) << j;
  return c;
}

/// The identifier bit a nonzero syndrome names, or -1 when it names none.
constexpr int ecc_position_bit(std::uint32_t syndrome) noexcept {
  if (std::has_single_bit(syndrome)) return 20 + std::countr_zero(syndrome);  // a check bit
  for (int i = 0; i < 20; ++i)
    if (ecc_data_columns[static_cast<std::size_t>(i)] == syndrome) return i;
  return -1;
}

/// Identifier bit flipped, indexed by syndrome (0 and 26..31 map to -1).
constexpr std::array<std::int8_t, 32> ecc_make_position_table() noexcept {
  std::array<std::int8_t, 32> t{};
  t[0] = -1;
  for (std::uint32_t s = 1; s < 32; ++s) t[s] = static_cast<std::int8_t>(ecc_position_bit(s));
  return t;
}
inline constexpr std::array<std::int8_t, 32> ecc_position_table = ecc_make_position_table();
}  // namespace detail

/// The 6-bit ecc field for (shard, local), each masked to its width: check
/// bits c_0..c_4 in bits 0..4, overall parity in bit 5.
constexpr std::uint32_t identifier_ecc_for(std::uint32_t shard, std::uint32_t local) noexcept {
  const std::uint32_t data = ((shard & 0x3Fu) << 14) | (local & 0x3FFFu);
  const std::uint32_t c = detail::ecc_check_bits(data);
  const auto p = static_cast<std::uint32_t>(std::popcount(data ^ (c << 20)) & 1);
  return c | (p << 5);
}

/// An identifier whose ecc field is the code of its shard and local fields.
constexpr identifier make_checked_identifier(std::uint32_t cls, std::uint32_t shard, std::uint32_t local) noexcept {
  return make_identifier(cls, identifier_ecc_for(shard, local), shard, local);
}

/// What ecc_check found.
///   ok:               the 26 protected bits form a codeword; corrected == id.
///   corrected_single: one protected bit was wrong; corrected has it flipped
///                     back and flipped_bit names it (identifier bit 0..25).
///   uncorrectable:    two errors (or a detectable larger pattern); corrected
///                     == id, unchanged.
/// The class field (bits 26..31) is copied unchanged in every case.
struct ecc_result {
  identifier corrected;
  enum status { ok, corrected_single, uncorrectable } status;
  int flipped_bit;  ///< identifier bit corrected, or -1
};

/// Decodes an identifier's shard, local and ecc fields (SEC-DED, see above).
constexpr ecc_result ecc_check(identifier id) noexcept {
  const std::uint32_t data = id & 0xFFFFFu;
  const std::uint32_t ecc = identifier_ecc(id);
  const std::uint32_t syndrome = detail::ecc_check_bits(data) ^ (ecc & 0x1Fu);
  const bool odd = (std::popcount(id & 0x3FFFFFFu) & 1) != 0;
  if (syndrome == 0) {
    if (!odd) return {id, ecc_result::ok, -1};
    return {id ^ (1u << 25), ecc_result::corrected_single, 25};
  }
  const int bit = detail::ecc_position_table[syndrome];
  if (!odd || bit < 0) return {id, ecc_result::uncorrectable, -1};
  return {id ^ (1u << bit), ecc_result::corrected_single, bit};
}

static_assert(ecc_check(make_checked_identifier(1, 2, 3)).status == ecc_result::ok);
static_assert(ecc_check(make_checked_identifier(1, 2, 3) ^ (1u << 7)).corrected == make_checked_identifier(1, 2, 3));

BEM_NAMESPACE_END
