// W-lane words and the BIT-ALU.
//
// A BEM runs W copies ("lanes") of its state side by side, bit-sliced: one
// W-bit word holds bit k of every lane, lane l in bit l (REFERENCE.md §1).
// `lane_word<W>` is that word for W a multiple of 64 fixed at compile time
// (64, 128, 256, 512, 1024, ...), and the free functions below are the
// BIT-ALU of the core specification: and, or, xor, not, andnot, shift and
// rotate by k across all W bits, popcount, parity, blend.
//
// ## Layout
// W/64 little-endian 64-bit words: lane l is bit (l % 64) of word (l / 64).
// The word is processed in chunks of C bits, C the largest power of two
// dividing W but at most 512 (C = W for W = 64..512, 512 for 1024, 2048...),
// and aligned to C/8 bytes: 64 for every W >= 512 that is a multiple of 512,
// so such a word is a whole number of cache-line-aligned 512-bit vectors.
//
// ## Semantics (the laws the tests check bit by bit)
//   lane(a & b, l) = lane(a, l) && lane(b, l); likewise |, ^, ~ per lane.
//   andnot(a, b)   = a & ~b                      ("a and not b").
//   blend(m, a, b) = (m & a) | (~m & b)          (lane l from a where m is 1).
//   shift_left(a, k):  lane l of the result is lane l - k of a, 0 for l < k
//                      (bits move towards higher lanes); k >= W gives zeros.
//   shift_right(a, k): lane l of the result is lane l + k of a, 0 for
//                      l + k >= W.
//   rotate_left(a, k): lane (l + k) mod W of the result is lane l of a, for
//                      every k (k mod W is used); rotate_right is its inverse.
//   popcount(a): number of lanes set; parity(a) = popcount(a) mod 2.
//   word_popcounts(a): word i of the result = popcount of word i of a (the
//                      vector form; popcount(a) is the sum of its words).
// `and`, `or`, `xor`, `not` are reserved alternative tokens in C++, so the
// function forms are spelt `and_`, `or_`, `xor_`, `not_` (as in Boost.Hana).
//
// ## Speed
// With GCC or Clang the word is processed as GCC vector-extension chunks of
// C bits. The compiler maps each chunk operation onto the widest
// vector instructions the target has: with -march=native on an AVX-512
// machine a W = 512 AND is one `vpandq zmm`, `acc ^ (a & b)` one
// `vpternlogq`, word_popcounts one `vpopcntq zmm`; on a plain x86-64 target
// the same code becomes SSE2 instructions (two, four or more per chunk), so
// it is correct everywhere and fast where the hardware allows. Other
// compilers get a plain loop over the 64-bit words. Everything is inline and
// passed by reference, so no vector type crosses a function-call ABI.
//
// ## bit_sliced_word
// The concept circuit evaluation is written against: a copyable,
// default-constructible, equality-comparable type with &, |, ^, ~ giving the
// same type. Models: std::uint64_t (64 lanes) and every lane_word<W>.
// `lane_count_v<T>` is the number of lanes of a model.
#pragma once

#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

BEM_NAMESPACE_BEGIN

/// A word of independent bit lanes: copyable, default-constructible,
/// comparable, with the four bitwise operators closed over the type.
template <class T>
concept bit_sliced_word = std::copyable<T> && std::default_initializable<T> && std::equality_comparable<T> &&
                          requires(const T a, const T b) {
                            { a & b } -> std::convertible_to<T>;
                            { a | b } -> std::convertible_to<T>;
                            { a ^ b } -> std::convertible_to<T>;
                            { ~a } -> std::convertible_to<T>;
                          };

namespace detail {

#if defined(__GNUC__)
#define BEM_DETAIL_LANES_VECTOR 1
/// A GCC vector of `Bytes / 8` 64-bit words.
template <std::size_t Bytes>
struct u64_vector {
  typedef std::uint64_t type __attribute__((vector_size(Bytes)));
};
#else
#define BEM_DETAIL_LANES_VECTOR 0
#endif

/// Bits per chunk of a lane_word<W>: the largest power of two that divides
/// W, at most 512 (GCC vectors have power-of-two sizes).
constexpr std::size_t lane_chunk_bits(std::size_t w) noexcept {
  std::size_t c = 64;
  while (c < 512 && w % (2 * c) == 0) c *= 2;
  return c;
}

struct lane_ops;

}  // namespace detail

/// W lanes of one bit each, W a positive multiple of 64 (see the file comment).
template <std::size_t W>
  requires(W >= 64 && W % 64 == 0)
class alignas(detail::lane_chunk_bits(W) / 8) lane_word {
 public:
  static constexpr std::size_t width = W;             ///< lanes
  static constexpr std::size_t word_count = W / 64;  ///< 64-bit words

  /// All lanes 0.
  constexpr lane_word() noexcept = default;

  static constexpr lane_word zeros() noexcept { return lane_word(); }
  static constexpr lane_word ones() noexcept {
    lane_word r;
    for (auto& x : r.w_) x = ~std::uint64_t{0};
    return r;
  }
  /// The word whose 64-bit words are `words` (word 0 holds lanes 0..63).
  static constexpr lane_word from_words(std::span<const std::uint64_t, word_count> words) noexcept {
    lane_word r;
    for (std::size_t i = 0; i < word_count; ++i) r.w_[i] = words[i];
    return r;
  }
  /// Every word equal to `x` (lane l = bit l % 64 of x).
  static constexpr lane_word broadcast(std::uint64_t x) noexcept {
    lane_word r;
    for (auto& v : r.w_) v = x;
    return r;
  }

  /// 64-bit word i (lanes 64 i .. 64 i + 63); i < word_count.
  constexpr std::uint64_t word(std::size_t i) const noexcept { return w_[i]; }
  constexpr void set_word(std::size_t i, std::uint64_t v) noexcept { w_[i] = v; }
  /// The words, word 0 first.
  constexpr std::span<const std::uint64_t, word_count> words() const noexcept { return std::span(w_); }
  constexpr std::span<std::uint64_t, word_count> words() noexcept { return std::span(w_); }

  /// Lane l's bit; l < W.
  constexpr bool lane(std::size_t l) const noexcept { return (w_[l / 64] >> (l % 64)) & 1u; }
  constexpr void set_lane(std::size_t l, bool v) noexcept {
    const std::uint64_t m = std::uint64_t{1} << (l % 64);
    w_[l / 64] = v ? (w_[l / 64] | m) : (w_[l / 64] & ~m);
  }

  friend constexpr bool operator==(const lane_word&, const lane_word&) noexcept = default;

  friend lane_word operator&(const lane_word& a, const lane_word& b) noexcept {
    return map(a, b, [](auto& x, const auto& y) { x &= y; });
  }
  friend lane_word operator|(const lane_word& a, const lane_word& b) noexcept {
    return map(a, b, [](auto& x, const auto& y) { x |= y; });
  }
  friend lane_word operator^(const lane_word& a, const lane_word& b) noexcept {
    return map(a, b, [](auto& x, const auto& y) { x ^= y; });
  }
  friend lane_word operator~(const lane_word& a) noexcept {
    return map(a, a, [](auto& x, const auto&) { x = ~x; });
  }
  lane_word& operator&=(const lane_word& b) noexcept { return *this = *this & b; }
  lane_word& operator|=(const lane_word& b) noexcept { return *this = *this | b; }
  lane_word& operator^=(const lane_word& b) noexcept { return *this = *this ^ b; }

  /// Applies f(x, b_chunk, c_chunk) to each chunk x of a copy of `a` and
  /// returns the copy: f updates x in place and must act bitwise (chunks are
  /// GCC vectors of C bits (see the file comment), or single words without GCC). Taking
  /// chunks by reference keeps vector types off every call ABI.
  template <class F>
  static lane_word map3(const lane_word& a, const lane_word& b, const lane_word& c, F f) noexcept {
    lane_word r;
#if BEM_DETAIL_LANES_VECTOR
    for (std::size_t i = 0; i < chunk_count; ++i) {
      chunk x, y, z;
      std::memcpy(&x, a.w_ + i * chunk_words, sizeof x);
      std::memcpy(&y, b.w_ + i * chunk_words, sizeof y);
      std::memcpy(&z, c.w_ + i * chunk_words, sizeof z);
      f(x, y, z);
      std::memcpy(r.w_ + i * chunk_words, &x, sizeof x);
    }
#else
    for (std::size_t i = 0; i < word_count; ++i) {
      r.w_[i] = a.w_[i];
      f(r.w_[i], b.w_[i], c.w_[i]);
    }
#endif
    return r;
  }

  /// Applies f(x, b_chunk) to each chunk x of a copy of `a` (see map3).
  template <class F>
  static lane_word map(const lane_word& a, const lane_word& b, F f) noexcept {
    lane_word r;
#if BEM_DETAIL_LANES_VECTOR
    for (std::size_t i = 0; i < chunk_count; ++i) {
      chunk x, y;
      std::memcpy(&x, a.w_ + i * chunk_words, sizeof x);
      std::memcpy(&y, b.w_ + i * chunk_words, sizeof y);
      f(x, y);
      std::memcpy(r.w_ + i * chunk_words, &x, sizeof x);
    }
#else
    for (std::size_t i = 0; i < word_count; ++i) {
      r.w_[i] = a.w_[i];
      f(r.w_[i], b.w_[i]);
    }
#endif
    return r;
  }

 private:
  friend struct detail::lane_ops;
  static constexpr std::size_t chunk_words = detail::lane_chunk_bits(W) / 64;
  static constexpr std::size_t chunk_count = word_count / chunk_words;
#if BEM_DETAIL_LANES_VECTOR
  using chunk = typename detail::u64_vector<chunk_words * 8>::type;
#endif

  std::uint64_t w_[word_count] = {};
};

/// Number of lanes of a bit_sliced_word model.
template <class T>
inline constexpr std::size_t lane_count_v = 0;
template <>
inline constexpr std::size_t lane_count_v<std::uint64_t> = 64;
template <std::size_t W>
inline constexpr std::size_t lane_count_v<lane_word<W>> = W;

static_assert(bit_sliced_word<std::uint64_t>);
static_assert(bit_sliced_word<lane_word<64>> && bit_sliced_word<lane_word<512>>);

// ---- BIT-ALU ---------------------------------------------------------------

template <std::size_t W>
lane_word<W> and_(const lane_word<W>& a, const lane_word<W>& b) noexcept { return a & b; }
template <std::size_t W>
lane_word<W> or_(const lane_word<W>& a, const lane_word<W>& b) noexcept { return a | b; }
template <std::size_t W>
lane_word<W> xor_(const lane_word<W>& a, const lane_word<W>& b) noexcept { return a ^ b; }
template <std::size_t W>
lane_word<W> not_(const lane_word<W>& a) noexcept { return ~a; }
/// a & ~b.
template <std::size_t W>
lane_word<W> andnot(const lane_word<W>& a, const lane_word<W>& b) noexcept {
  return lane_word<W>::map(a, b, [](auto& x, const auto& y) { x &= ~y; });
}
/// (mask & a) | (~mask & b): lane l from a where mask has a 1, else from b.
template <std::size_t W>
lane_word<W> blend(const lane_word<W>& mask, const lane_word<W>& a, const lane_word<W>& b) noexcept {
  return lane_word<W>::map3(mask, a, b, [](auto& m, const auto& x, const auto& y) { m = (m & x) | (~m & y); });
}

namespace detail {

/// Shifts and rotates, on chunks (the friend of lane_word that sees them).
///
/// A move by k lanes is a move by q = k / 64 whole words and s = k % 64
/// bits. Word i of the result of shift_left is
///   (A[i] << s) | ((B[i] >> 1) >> (63 - s)),  A[i] = a[i - q], B[i] = a[i - q - 1]
/// (words outside the word are 0; for rotations indices wrap around), and
/// symmetrically for the right moves. The double shift is exact for every s
/// in [0, 63] without a shift by 64. The word moves are
/// __builtin_shuffle over two neighbouring source chunks, which the compiler
/// turns into valignq / vpermt2q (AVX-512), shuffles (SSE/AVX), or scalar
/// moves; with k a compile-time constant everything folds.
struct lane_ops {
  /// Word i of the result is word (i - d) of a; out-of-range words are 0,
  /// or, with `rotate`, taken modulo the word count.
  template <std::size_t W>
  static lane_word<W> move_words(const lane_word<W>& a, std::ptrdiff_t d, bool rotate) noexcept {
    using L = lane_word<W>;
    lane_word<W> r;
#if BEM_DETAIL_LANES_VECTOR
    using chunk = typename L::chunk;
    using index = typename detail::u64_vector<L::chunk_words * 8>::type;
    constexpr auto cw = static_cast<std::ptrdiff_t>(L::chunk_words);
    constexpr auto cc = static_cast<std::ptrdiff_t>(L::chunk_count);
    const auto get = [&](std::ptrdiff_t j, chunk& v) noexcept {  // by reference: no vector crosses a call ABI
      v = chunk{};
      if (rotate) j = ((j % cc) + cc) % cc;
      if (j >= 0 && j < cc) std::memcpy(&v, a.w_ + j * cw, sizeof v);
    };
    for (std::ptrdiff_t c = 0; c < cc; ++c) {
      const std::ptrdiff_t t = c * cw - d;                                  // global source of word 0
      const std::ptrdiff_t hi = t >= 0 ? t / cw : -((-t + cw - 1) / cw);   // floor(t / cw)
      const std::ptrdiff_t off = t - hi * cw;                                // in [0, cw)
      index idx;
      for (std::ptrdiff_t e = 0; e < cw; ++e) idx[e] = static_cast<std::uint64_t>(off + e);
      chunk lo, up;
      get(hi, lo);
      get(hi + 1, up);
      const chunk v = __builtin_shuffle(lo, up, idx);
      std::memcpy(r.w_ + c * cw, &v, sizeof v);
    }
#else
    const auto n = static_cast<std::ptrdiff_t>(L::word_count);
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      std::ptrdiff_t j = i - d;
      if (rotate) j = ((j % n) + n) % n;
      r.w_[i] = (j >= 0 && j < n) ? a.w_[j] : 0;
    }
#endif
    return r;
  }

  /// (A << s) | ((B >> 1) >> (63 - s)) word by word (left), or
  /// (A >> s) | ((B << 1) << (63 - s)) (right); s in [0, 63].
  template <std::size_t W>
  static lane_word<W> funnel(const lane_word<W>& a, const lane_word<W>& b, unsigned s, bool left) noexcept {
    using L = lane_word<W>;
    lane_word<W> r;
#if BEM_DETAIL_LANES_VECTOR
    using chunk = typename L::chunk;
    for (std::size_t i = 0; i < L::chunk_count; ++i) {
      chunk x, y;
      std::memcpy(&x, a.w_ + i * L::chunk_words, sizeof x);
      std::memcpy(&y, b.w_ + i * L::chunk_words, sizeof y);
      x = left ? (x << s) | ((y >> 1) >> (63 - s)) : (x >> s) | ((y << 1) << (63 - s));
      std::memcpy(r.w_ + i * L::chunk_words, &x, sizeof x);
    }
#else
    for (std::size_t i = 0; i < L::word_count; ++i)
      r.w_[i] = left ? (a.w_[i] << s) | ((b.w_[i] >> 1) >> (63 - s)) : (a.w_[i] >> s) | ((b.w_[i] << 1) << (63 - s));
#endif
    return r;
  }

  template <std::size_t W>
  static lane_word<W> move(const lane_word<W>& a, std::size_t k, bool left, bool rotate) noexcept {
    if constexpr (W == 64) {  // one word: the machine's own shifts and rotates (k < 64 here)
      const std::uint64_t x = a.w_[0];
      lane_word<W> r;
      r.w_[0] = rotate ? (left ? std::rotl(x, static_cast<int>(k)) : std::rotr(x, static_cast<int>(k)))
                       : (left ? x << k : x >> k);
      return r;
    }
    const auto q = static_cast<std::ptrdiff_t>(k / 64);
    const auto s = static_cast<unsigned>(k % 64);
    const std::ptrdiff_t sign = left ? 1 : -1;
    return funnel(move_words(a, sign * q, rotate), move_words(a, sign * (q + 1), rotate), s, left);
  }
};

}  // namespace detail

/// Lanes move k places towards higher lanes; vacated lanes are 0; k >= W
/// gives all zeros.
template <std::size_t W>
lane_word<W> shift_left(const lane_word<W>& a, std::size_t k) noexcept {
  if (k >= W) return lane_word<W>();
  return detail::lane_ops::move(a, k, true, false);
}

/// Lanes move k places towards lower lanes; vacated lanes are 0; k >= W
/// gives all zeros.
template <std::size_t W>
lane_word<W> shift_right(const lane_word<W>& a, std::size_t k) noexcept {
  if (k >= W) return lane_word<W>();
  return detail::lane_ops::move(a, k, false, false);
}

/// Lane l moves to lane (l + k) mod W.
template <std::size_t W>
lane_word<W> rotate_left(const lane_word<W>& a, std::size_t k) noexcept {
  return detail::lane_ops::move(a, k % W, true, true);
}

/// Lane l moves to lane (l - k) mod W.
template <std::size_t W>
lane_word<W> rotate_right(const lane_word<W>& a, std::size_t k) noexcept {
  return detail::lane_ops::move(a, k % W, false, true);
}

/// Word i of the result is the number of set bits of word i of a.
template <std::size_t W>
lane_word<W> word_popcounts(const lane_word<W>& a) noexcept {
  lane_word<W> r;
  for (std::size_t i = 0; i < W / 64; ++i) r.set_word(i, static_cast<std::uint64_t>(std::popcount(a.word(i))));
  return r;
}

/// Number of lanes that are 1.
template <std::size_t W>
std::size_t popcount(const lane_word<W>& a) noexcept {
  std::size_t c = 0;
  for (std::size_t i = 0; i < W / 64; ++i) {
    c += static_cast<std::size_t>(std::popcount(a.word(i)));
#if defined(__GNUC__) && !defined(__clang__)
    // GCC 12.2 at -O3 -march=znver3+AVX-512 vectorises this reduction wrongly
    // (popcount of lane_word<256>::ones() gave 126; the lanes-native test
    // caught it). The empty asm keeps the sum scalar: one popcnt per word.
    asm("" : "+r"(c));
#endif
  }
  return c;
}

/// popcount(a) mod 2: the XOR of all lanes.
template <std::size_t W>
bool parity(const lane_word<W>& a) noexcept {
  std::uint64_t x = 0;
  for (std::size_t i = 0; i < W / 64; ++i) x ^= a.word(i);
  return (std::popcount(x) & 1) != 0;
}

BEM_NAMESPACE_END
