// HASH: SHA-256 (FIPS 180-4) and Merkle roots over 32-byte leaves.
//
// SHA-256 is implemented here (no dependency) and is usable in constant
// expressions: `static_assert(bem::sha256("abc") == ...)` compiles. It takes
// bytes as std::byte, std::uint8_t or char (a std::string_view hashes its
// bytes, no terminator). Messages are limited to 2^61 - 1 bytes (the length
// field counts bits in 64 bits).
//
//   sha256_hasher h;  h.update(a);  h.update(b);  h.final() == sha256(a || b)
//
// final() is const: it returns the digest of everything fed so far and leaves
// the hasher as it was, so a caller may keep feeding it (a running digest).
//
// Merkle root (merkle_root): the Merkle Tree Hash of RFC 6962 section 2.1 over
// leaves that are 32-byte values (typically digests of larger records):
//
//   leaf hash   L(x)    = SHA-256(0x00 || x)           x: one 32-byte leaf
//   node hash   N(a, b) = SHA-256(0x01 || a || b)
//   MTH([])             = SHA-256("")                  (no leaves)
//   MTH([x])            = L(x)
//   MTH(D[0:n])         = N(MTH(D[0:k]), MTH(D[k:n])),  k = the largest power
//                                                        of two below n.
//
// The prefix bytes 0x00 / 0x01 separate the two domains, so no leaf can be
// passed off as an inner node (second-preimage attacks on the tree). The rule
// for an odd count is PROMOTION, not duplication: computed level by level,
// an unpaired last node moves up a level unchanged (this yields exactly the
// RFC 6962 split above). Bitcoin's rule, duplicating the last node, gives
// [a, b, c] and [a, b, c, c] the same root (CVE-2012-2459); promotion does not.
#pragma once

#include <bem/version.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

BEM_NAMESPACE_BEGIN

/// A SHA-256 digest, byte 0 first as FIPS 180-4 writes it.
using sha256_digest = std::array<std::uint8_t, 32>;

namespace detail {
inline constexpr std::array<std::uint32_t, 64> sha256_round_constants = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};

inline constexpr std::array<std::uint32_t, 8> sha256_initial_state = {
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};

template <class Byte>
constexpr std::uint8_t byte_value(Byte b) noexcept {
  return static_cast<std::uint8_t>(b);
}

/// One application of the compression function to the 64 bytes at `block`.
template <class Byte>
constexpr void sha256_compress(std::array<std::uint32_t, 8>& state, const Byte* block) noexcept {
  std::array<std::uint32_t, 64> w{};
  for (std::size_t t = 0; t < 16; ++t)
    w[t] = (std::uint32_t{byte_value(block[4 * t])} << 24) | (std::uint32_t{byte_value(block[4 * t + 1])} << 16) |
           (std::uint32_t{byte_value(block[4 * t + 2])} << 8) | std::uint32_t{byte_value(block[4 * t + 3])};
  for (std::size_t t = 16; t < 64; ++t) {
    const std::uint32_t s0 = std::rotr(w[t - 15], 7) ^ std::rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t s1 = std::rotr(w[t - 2], 17) ^ std::rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (std::size_t t = 0; t < 64; ++t) {
    const std::uint32_t big_s1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
    const std::uint32_t ch = (e & f) ^ (~e & g);
    const std::uint32_t t1 = h + big_s1 + ch + sha256_round_constants[t] + w[t];
    const std::uint32_t big_s0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
    const std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    const std::uint32_t t2 = big_s0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

constexpr int hex_digit_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace detail

/// Incremental SHA-256. Feed bytes with update() in any number of calls; the
/// digest depends only on their concatenation.
class sha256_hasher {
 public:
  constexpr sha256_hasher() noexcept = default;

  constexpr sha256_hasher& update(std::span<const std::byte> bytes) noexcept { return absorb(bytes.data(), bytes.size()); }
  constexpr sha256_hasher& update(std::span<const std::uint8_t> bytes) noexcept {
    return absorb(bytes.data(), bytes.size());
  }
  constexpr sha256_hasher& update(std::string_view text) noexcept { return absorb(text.data(), text.size()); }

  /// Bytes fed so far.
  constexpr std::uint64_t size() const noexcept { return length_; }

  /// The digest of the bytes fed so far (FIPS 180-4 padding: 0x80, zeros to
  /// 56 mod 64, the bit length as 64-bit big-endian). Leaves *this unchanged.
  constexpr sha256_digest final() const noexcept {
    sha256_hasher tail = *this;
    const std::uint64_t bit_length = length_ * 8;
    const std::uint8_t one = 0x80, zero = 0x00;
    tail.absorb(&one, 1);
    while (tail.buffered_ != 56) tail.absorb(&zero, 1);
    std::array<std::uint8_t, 8> be{};
    for (std::size_t i = 0; i < 8; ++i) be[i] = static_cast<std::uint8_t>(bit_length >> (56 - 8 * i));
    tail.absorb(be.data(), be.size());
    sha256_digest out{};
    for (std::size_t i = 0; i < 8; ++i)
      for (std::size_t k = 0; k < 4; ++k) out[4 * i + k] = static_cast<std::uint8_t>(tail.state_[i] >> (24 - 8 * k));
    return out;
  }

 private:
  template <class Byte>
  constexpr sha256_hasher& absorb(const Byte* p, std::size_t n) noexcept {
    length_ += n;
    if (buffered_ != 0) {
      while (n != 0 && buffered_ != 64) {
        buffer_[buffered_++] = detail::byte_value(*p++);
        --n;
      }
      if (buffered_ != 64) return *this;
      detail::sha256_compress(state_, buffer_.data());
      buffered_ = 0;
    }
    for (; n >= 64; n -= 64, p += 64) detail::sha256_compress(state_, p);
    while (n != 0) {
      buffer_[buffered_++] = detail::byte_value(*p++);
      --n;
    }
    return *this;
  }

  std::array<std::uint32_t, 8> state_ = detail::sha256_initial_state;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
};

/// One-shot SHA-256 of a byte string.
constexpr sha256_digest sha256(std::span<const std::byte> bytes) noexcept { return sha256_hasher{}.update(bytes).final(); }
constexpr sha256_digest sha256(std::span<const std::uint8_t> bytes) noexcept {
  return sha256_hasher{}.update(bytes).final();
}
constexpr sha256_digest sha256(std::string_view text) noexcept { return sha256_hasher{}.update(text).final(); }

/// Lower-case hexadecimal, two digits per byte, byte 0 first.
inline std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(2 * bytes.size(), '0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 0xF];
  }
  return out;
}

/// Parses 64 hexadecimal digits (either case) into a digest; throws
/// std::invalid_argument on any other input.
constexpr sha256_digest digest_from_hex(std::string_view hex) {
  if (hex.size() != 64) throw std::invalid_argument("digest_from_hex: expected 64 hexadecimal digits");
  sha256_digest out{};
  for (std::size_t i = 0; i < 32; ++i) {
    const int hi = detail::hex_digit_value(hex[2 * i]), lo = detail::hex_digit_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) throw std::invalid_argument("digest_from_hex: not a hexadecimal digit");
    out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return out;
}

// ---- Merkle roots -----------------------------------------------------------------

/// Domain-separation prefixes of RFC 6962: leaves 0x00, inner nodes 0x01.
inline constexpr std::uint8_t merkle_leaf_prefix = 0x00;
inline constexpr std::uint8_t merkle_node_prefix = 0x01;

/// L(x) = SHA-256(0x00 || x).
constexpr sha256_digest merkle_leaf_hash(const sha256_digest& leaf) noexcept {
  const std::uint8_t prefix = merkle_leaf_prefix;
  return sha256_hasher{}.update(std::span<const std::uint8_t>(&prefix, 1)).update(leaf).final();
}

/// N(a, b) = SHA-256(0x01 || a || b).
constexpr sha256_digest merkle_node_hash(const sha256_digest& left, const sha256_digest& right) noexcept {
  const std::uint8_t prefix = merkle_node_prefix;
  return sha256_hasher{}.update(std::span<const std::uint8_t>(&prefix, 1)).update(left).update(right).final();
}

/// The RFC 6962 Merkle Tree Hash of `leaves` (see the top of this file):
/// pairs neighbours level by level and promotes an unpaired last node.
/// O(n) hashes, O(n) scratch.
constexpr sha256_digest merkle_root(std::span<const sha256_digest> leaves) {
  if (leaves.empty()) return sha256(std::string_view{});
  std::vector<sha256_digest> level(leaves.size());
  for (std::size_t i = 0; i < leaves.size(); ++i) level[i] = merkle_leaf_hash(leaves[i]);
  std::size_t n = level.size();
  while (n > 1) {
    std::size_t out = 0;
    for (std::size_t i = 0; i + 1 < n; i += 2) level[out++] = merkle_node_hash(level[i], level[i + 1]);
    if (n % 2 == 1) level[out++] = level[n - 1];  // promotion
    n = out;
  }
  return level[0];
}

static_assert(sha256("abc")[0] == 0xba && sha256("abc")[31] == 0xad, "SHA-256 works in constant expressions");

BEM_NAMESPACE_END
