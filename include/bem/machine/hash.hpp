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
// merkle_accumulator computes the same root for leaves that arrive one at a
// time, in 2 KiB whatever their number.
#pragma once

#include <bem/platform/cpu_features.hpp>
#include <bem/version.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// The SHA extensions (x86-64, GCC or Clang): compiled for them by a target
// attribute whatever the build's -march, used only where CPUID reports them.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BEM_DETAIL_SHA_NI 1
#include <immintrin.h>
#else
#define BEM_DETAIL_SHA_NI 0
#endif

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

/// One application of the compression function to the 64 bytes at `block`,
/// in portable code (usable in constant expressions).
template <class Byte>
constexpr void sha256_compress_portable(std::array<std::uint32_t, 8>& state, const Byte* block) noexcept {
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

#if BEM_DETAIL_SHA_NI
/// True where the CPU has the SHA extensions (CPUID.7.0:EBX bit 29) and
/// SSSE3 and SSE4.1 (CPUID.1:ECX bits 9, 19), which sha256_compress_ni uses.
inline bool sha256_ni_available() noexcept {
  const cpu_features& f = this_cpu();
  return f.sha && f.ssse3 && f.sse41;
}

/// The compression function with the SHA extensions: sha256rnds2 does two
/// rounds on the state held as ABEF / CDGH, sha256msg1 / msg2 the message
/// schedule, four words at a time. Same result as the portable code (tested
/// on random blocks and the FIPS vectors), about 8x faster.
__attribute__((target("sha,ssse3,sse4.1"))) inline void sha256_compress_ni(std::array<std::uint32_t, 8>& state,
                                                                           const std::uint8_t* block) noexcept {
  // state[0..3] = A B C D, state[4..7] = E F G H (lowest lane first).
  const __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state.data()));
  const __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state.data() + 4));
  const __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  const __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
  const __m128i abef_in = abef, cdgh_in = cdgh;
  // The message's words are big-endian.
  const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
  __m128i w[4];
  for (int g = 0; g < 4; ++g)
    w[g] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * g)), swap);
  for (int g = 0; g < 16; ++g) {
    if (g >= 4) {
      // W[t..t+3] from W[t-16..t-1]: msg1 adds sigma0 of W[t-15..t-12] to
      // W[t-16..t-13], then W[t-7..t-4] is added, and msg2 adds sigma1 of
      // W[t-2], W[t-1] and of the words it makes.
      const __m128i w7 = _mm_alignr_epi8(w[(g - 1) % 4], w[(g - 2) % 4], 4);
      w[g % 4] = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(w[g % 4], w[(g - 3) % 4]), w7),
                                      w[(g - 1) % 4]);
    }
    const __m128i wk = _mm_add_epi32(
        w[g % 4], _mm_loadu_si128(reinterpret_cast<const __m128i*>(sha256_round_constants.data() + 4 * g)));
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
    abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
  }
  abef = _mm_add_epi32(abef, abef_in);
  cdgh = _mm_add_epi32(cdgh, cdgh_in);
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state.data()), _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state.data() + 4), _mm_alignr_epi8(dchg, feba, 8));
}
#endif

/// One application of the compression function to the 64 bytes at `block`:
/// the SHA extensions where the CPU has them (at run time), else portable
/// code; portable in constant expressions.
template <class Byte>
constexpr void sha256_compress(std::array<std::uint32_t, 8>& state, const Byte* block) noexcept {
  static_assert(sizeof(Byte) == 1, "sha256_compress: blocks are bytes");
#if BEM_DETAIL_SHA_NI
  if (!std::is_constant_evaluated() && sha256_ni_available()) {
    sha256_compress_ni(state, reinterpret_cast<const std::uint8_t*>(block));
    return;
  }
#endif
  sha256_compress_portable(state, block);
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
  // Defined before update() uses them: clang 14 evaluates sha256() in the
  // static_assert below only when absorb<Byte> is defined ahead of its caller.
  /// Copies n bytes into the buffer at `at` (a memcpy outside constant
  /// evaluation: byte by byte, a hash of a few dozen bytes spent more time
  /// buffering than compressing).
  template <class Byte>
  constexpr void buffer_bytes(std::size_t at, const Byte* p, std::size_t n) noexcept {
    if (std::is_constant_evaluated()) {
      for (std::size_t i = 0; i < n; ++i) buffer_[at + i] = detail::byte_value(p[i]);
    } else if (n != 0) {
      __builtin_memcpy(buffer_.data() + at, p, n);
    }
  }

  template <class Byte>
  constexpr sha256_hasher& absorb(const Byte* p, std::size_t n) noexcept {
    length_ += n;
    if (buffered_ != 0) {
      const std::size_t take = n < 64 - buffered_ ? n : 64 - buffered_;
      buffer_bytes(buffered_, p, take);
      buffered_ += take;
      p += take;
      n -= take;
      if (buffered_ != 64) return *this;
      detail::sha256_compress(state_, buffer_.data());
      buffered_ = 0;
    }
    for (; n >= 64; n -= 64, p += 64) detail::sha256_compress(state_, p);
    buffer_bytes(0, p, n);
    buffered_ = n;
    return *this;
  }

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
    std::array<std::uint32_t, 8> st = state_;
    std::array<std::uint8_t, 64> block = buffer_;
    std::size_t used = buffered_;
    block[used++] = 0x80;
    if (used > 56) {  // no room for the length: one more block
      for (std::size_t i = used; i < 64; ++i) block[i] = 0;
      detail::sha256_compress(st, block.data());
      used = 0;
    }
    for (std::size_t i = used; i < 56; ++i) block[i] = 0;
    const std::uint64_t bit_length = length_ * 8;
    for (std::size_t i = 0; i < 8; ++i) block[56 + i] = static_cast<std::uint8_t>(bit_length >> (56 - 8 * i));
    detail::sha256_compress(st, block.data());
    sha256_digest out{};
    for (std::size_t i = 0; i < 8; ++i)
      for (std::size_t k = 0; k < 4; ++k) out[4 * i + k] = static_cast<std::uint8_t>(st[i] >> (24 - 8 * k));
    return out;
  }

 private:
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

/// The same root for leaves that arrive one at a time, in O(log n) memory
/// (2 KiB, whatever n): for n leaves so far it keeps the root of one perfect
/// subtree per set bit of n (2^j leaves at bit j), like a binary counter;
/// add() carries equal subtrees upwards and root() folds them from the
/// smallest up, which is merkle_root's split (its first part is the largest
/// perfect subtree). Used where a segment's leaves are streamed (the trace
/// file's writer and verifier).
class merkle_accumulator {
 public:
  constexpr void add(const sha256_digest& leaf) noexcept {
    sha256_digest carry = merkle_leaf_hash(leaf);
    std::size_t level = 0;
    for (; (count_ >> level) & 1u; ++level) carry = merkle_node_hash(subtrees_[level], carry);
    subtrees_[level] = carry;
    ++count_;
  }

  /// Leaves added since construction or clear().
  constexpr std::uint64_t size() const noexcept { return count_; }

  /// merkle_root of the leaves added so far (SHA-256("") for none).
  constexpr sha256_digest root() const noexcept {
    if (count_ == 0) return sha256(std::string_view{});
    sha256_digest folded{};
    bool any = false;
    for (std::size_t level = 0; level < 64; ++level) {
      if (((count_ >> level) & 1u) == 0) continue;
      folded = any ? merkle_node_hash(subtrees_[level], folded) : subtrees_[level];
      any = true;
    }
    return folded;
  }

  constexpr void clear() noexcept { count_ = 0; }

 private:
  std::array<sha256_digest, 64> subtrees_{};
  std::uint64_t count_ = 0;
};

static_assert(sha256("abc")[0] == 0xba && sha256("abc")[31] == 0xad, "SHA-256 works in constant expressions");

BEM_NAMESPACE_END
