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
// dividing W but at most 512 (C = W for W = 64, 128, 256, 512; 64 for
// W = 192 or 320, 128 for 384 or 640; 512 for 1024, 2048...),
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
// V bits, V = min(C, the widest integer vector of the compilation target):
// 512 with AVX-512F, 256 with AVX2, 128 with SSE2 (every x86-64) or NEON,
// otherwise 64 (plain std::uint64_t words). A chunk is therefore always one
// register of the target and never lowered through memory: with
// -march=native on an AVX-512 machine a W = 512 AND is one `vpandq zmm` and
// W = 1024 two; on a plain x86-64 target W = 512 is four `pand xmm`.
// Where the target has them, the BIT-ALU uses the best instruction per step
// (intrinsics, each with a portable fallback that computes the same bits):
//   shift/rotate by a compile-time k  valignq (whole-word part, one per
//                                     chunk) + vpshldq/vpshrdq (bit part)
//                                     with AVX-512 VBMI2; k % 64 == 0 is the
//                                     valignq alone; SSE2: shufpd/pslldq +
//                                     psllq, psrlq, por
//   shift/rotate by a run-time k      vpermt2q + vpshldvq (AVX-512 VBMI2)
//   blend                             vpternlogq (AVX-512)
//   word_popcounts, popcount          vpopcntq (AVX-512 VPOPCNTDQ)
// The compile-time forms `shift_left<K>(a)` etc. are what a loop that moves
// by a fixed distance should call (microbenchmark 2.1 does); the run-time
// forms fold to the same code only when the compiler can see k.
// Everything is inline and takes words by reference.
// ## bit_sliced_word
// The concept circuit evaluation is written against: a copyable,
// default-constructible, equality-comparable type with &, |, ^, ~ giving the
// same type exactly (so not bool, whose ~true = -2 is true again once
// converted back). Models: std::uint64_t (64 lanes) and every lane_word<W>.
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
#include <utility>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__)
#include <immintrin.h>
#define BEM_DETAIL_LANES_X86 1
#else
#define BEM_DETAIL_LANES_X86 0
#endif

BEM_NAMESPACE_BEGIN

/// A word of independent bit lanes: copyable, default-constructible,
/// comparable, with the four bitwise operators closed over the type: each
/// gives T itself. Merely convertible to T is not enough: bool's operators
/// give int, and ~true = -2 converts back to true, so a bool "word" would
/// evaluate NOT wrongly (uint8_t and uint16_t, promoted to int as well, are
/// not models either).
template <class T>
concept bit_sliced_word = std::copyable<T> && std::default_initializable<T> && std::equality_comparable<T> &&
                          requires(const T a, const T b) {
                            { a & b } -> std::same_as<T>;
                            { a | b } -> std::same_as<T>;
                            { a ^ b } -> std::same_as<T>;
                            { ~a } -> std::same_as<T>;
                          };

namespace detail {

#if defined(__GNUC__)
#define BEM_DETAIL_LANES_VECTOR 1
#define BEM_DETAIL_LANES_INLINE [[gnu::always_inline]] inline
/// A GCC vector of `Bytes / 8` 64-bit words.
template <std::size_t Bytes>
struct u64_vector {
  typedef std::uint64_t type __attribute__((vector_size(Bytes)));
  /// The same vector as an lvalue that may alias the words it overlays.
  typedef std::uint64_t alias __attribute__((vector_size(Bytes), may_alias));
};
#else
#define BEM_DETAIL_LANES_VECTOR 0
#define BEM_DETAIL_LANES_INLINE inline
#endif

/// Bits per chunk of a lane_word<W>: the largest power of two that divides
/// W, at most 512 (GCC vectors have power-of-two sizes). Sets the alignment.
constexpr std::size_t lane_chunk_bits(std::size_t w) noexcept {
  std::size_t c = 64;
  while (c < 512 && w % (2 * c) == 0) c *= 2;
  return c;
}

/// The widest integer vector of the compilation target, in bits (64: none).
inline constexpr std::size_t target_vector_bits =
#if !BEM_DETAIL_LANES_VECTOR
    64;
#elif defined(__AVX512F__)
    512;
#elif defined(__AVX2__)
    256;
#elif defined(__SSE2__) || defined(__ARM_NEON) || defined(__ALTIVEC__) || defined(__wasm_simd128__)
    128;
#else
    64;
#endif

/// Bits per processing chunk of a lane_word<W>: one register of the target.
constexpr std::size_t lane_work_bits(std::size_t w) noexcept {
  return std::min(lane_chunk_bits(w), target_vector_bits);
}

/// The chunk type of `Bits` bits: a GCC vector, or one std::uint64_t.
template <std::size_t Bits>
struct chunk_of {
  using type = std::uint64_t;
};
#if BEM_DETAIL_LANES_VECTOR
template <std::size_t Bits>
  requires(Bits > 64)
struct chunk_of<Bits> {
  using type = typename u64_vector<Bits / 8>::type;
};
#endif

/// Chunk-level steps: the best instruction where the target has one, and a
/// portable expression computing the same bits otherwise. V is a chunk type
/// (std::uint64_t or a GCC vector of 2, 4 or 8 words).
struct chunk_ops {
  template <class V>
  static constexpr std::size_t words = sizeof(V) / 8;

#if BEM_DETAIL_LANES_X86
#if defined(__AVX512VL__)
  static constexpr bool vl = true;
#else
  static constexpr bool vl = false;
#endif
#endif

  /// Element e of the result is element e + Off of the 2n-word
  /// concatenation (lo, hi); Off in [0, n). valignq where the target has it.
  template <std::size_t Off, class V>
  BEM_DETAIL_LANES_INLINE static V align(const V& hi, const V& lo) noexcept {
    if constexpr (Off == 0) {
      return lo;
    } else {
      static_assert(Off < words<V>);
#if BEM_DETAIL_LANES_X86 && defined(__AVX512F__)
      // The zero-masked forms with an all-ones mask are the same valignq
      // (a merge-masked form would tie the destination to a source and cost
      // a register move); the plain intrinsics start from
      // _mm*_undefined_*, which GCC 12 reports as possibly uninitialised.
      if constexpr (sizeof(V) == 64) return (V)_mm512_maskz_alignr_epi64(0xFF, (__m512i)hi, (__m512i)lo, Off);
#endif
#if BEM_DETAIL_LANES_X86 && defined(__AVX512VL__)
      if constexpr (sizeof(V) == 32) return (V)_mm256_maskz_alignr_epi64(0xF, (__m256i)hi, (__m256i)lo, Off);
      if constexpr (sizeof(V) == 16) return (V)_mm_maskz_alignr_epi64(0x3, (__m128i)hi, (__m128i)lo, Off);
#endif
#if BEM_DETAIL_LANES_VECTOR && defined(__clang__)
      // Clang has no __builtin_shuffle; its shufflevector takes constant indices.
      return [&]<std::size_t... E>(std::index_sequence<E...>) {
        return __builtin_shufflevector(lo, hi, static_cast<int>(Off + E)...);
      }(std::make_index_sequence<words<V>>{});
#elif BEM_DETAIL_LANES_VECTOR
      using I = typename u64_vector<sizeof(V)>::type;
      I idx;
      for (std::size_t e = 0; e < words<V>; ++e) idx[e] = Off + e;
      return __builtin_shuffle(lo, hi, idx);
#endif
    }
  }

  /// As align, with a run-time off in [0, n). vpermt2q with AVX-512 (VL for
  /// chunks under 512 bits); a word loop otherwise.
  template <class V>
  BEM_DETAIL_LANES_INLINE static V align(const V& hi, const V& lo, std::size_t off) noexcept {
    if constexpr (words<V> == 1) {
      return off == 0 ? lo : hi;
    } else {
#if BEM_DETAIL_LANES_X86 && defined(__AVX512F__)
      if constexpr (sizeof(V) == 64) {
        const __m512i idx = _mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(off)),
                                             _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
        return (V)_mm512_permutex2var_epi64((__m512i)lo, idx, (__m512i)hi);
      }
#endif
#if BEM_DETAIL_LANES_X86 && defined(__AVX512VL__)
      if constexpr (sizeof(V) == 32) {
        const __m256i idx = _mm256_add_epi64(_mm256_set1_epi64x(static_cast<long long>(off)),
                                             _mm256_set_epi64x(3, 2, 1, 0));
        return (V)_mm256_permutex2var_epi64((__m256i)lo, idx, (__m256i)hi);
      }
      if constexpr (sizeof(V) == 16) {
        const __m128i idx = _mm_add_epi64(_mm_set1_epi64x(static_cast<long long>(off)), _mm_set_epi64x(1, 0));
        return (V)_mm_permutex2var_epi64((__m128i)lo, idx, (__m128i)hi);
      }
#endif
      V r{};
      for (std::size_t e = 0; e < words<V>; ++e) r[e] = off + e < words<V> ? lo[off + e] : hi[off + e - words<V>];
      return r;
    }
  }

  /// (a << S) | (b >> (64 - S)) word by word, S in [1, 63]: vpshldq.
  template <unsigned S, class V>
  BEM_DETAIL_LANES_INLINE static V funnel_left(const V& a, const V& b) noexcept {
    static_assert(S >= 1 && S <= 63);
#if BEM_DETAIL_LANES_X86 && defined(__AVX512VBMI2__)
    if constexpr (sizeof(V) == 64) return (V)_mm512_shldi_epi64((__m512i)a, (__m512i)b, S);
#if defined(__AVX512VL__)
    if constexpr (sizeof(V) == 32) return (V)_mm256_shldi_epi64((__m256i)a, (__m256i)b, S);
    if constexpr (sizeof(V) == 16) return (V)_mm_shldi_epi64((__m128i)a, (__m128i)b, S);
#endif
#endif
    return (a << S) | (b >> (64 - S));
  }

  /// (a >> S) | (b << (64 - S)) word by word, S in [1, 63]: vpshrdq.
  template <unsigned S, class V>
  BEM_DETAIL_LANES_INLINE static V funnel_right(const V& a, const V& b) noexcept {
    static_assert(S >= 1 && S <= 63);
#if BEM_DETAIL_LANES_X86 && defined(__AVX512VBMI2__)
    if constexpr (sizeof(V) == 64) return (V)_mm512_shrdi_epi64((__m512i)a, (__m512i)b, S);
#if defined(__AVX512VL__)
    if constexpr (sizeof(V) == 32) return (V)_mm256_shrdi_epi64((__m256i)a, (__m256i)b, S);
    if constexpr (sizeof(V) == 16) return (V)_mm_shrdi_epi64((__m128i)a, (__m128i)b, S);
#endif
#endif
    return (a >> S) | (b << (64 - S));
  }

  /// funnel_left / funnel_right with a run-time s in [0, 63] (s = 0 gives a):
  /// vpshldvq / vpshrdvq.
  template <class V>
  BEM_DETAIL_LANES_INLINE static V funnel(const V& a, const V& b, unsigned s, bool left) noexcept {
#if BEM_DETAIL_LANES_X86 && defined(__AVX512VBMI2__)
    if constexpr (sizeof(V) == 64) {
      const __m512i n = _mm512_set1_epi64(s);
      return left ? (V)_mm512_shldv_epi64((__m512i)a, (__m512i)b, n) : (V)_mm512_shrdv_epi64((__m512i)a, (__m512i)b, n);
    }
#if defined(__AVX512VL__)
    if constexpr (sizeof(V) == 32) {
      const __m256i n = _mm256_set1_epi64x(s);
      return left ? (V)_mm256_shldv_epi64((__m256i)a, (__m256i)b, n) : (V)_mm256_shrdv_epi64((__m256i)a, (__m256i)b, n);
    }
    if constexpr (sizeof(V) == 16) {
      const __m128i n = _mm_set1_epi64x(s);
      return left ? (V)_mm_shldv_epi64((__m128i)a, (__m128i)b, n) : (V)_mm_shrdv_epi64((__m128i)a, (__m128i)b, n);
    }
#endif
#endif
    // The double shift is exact for every s in [0, 63] without a shift by 64.
    return left ? (a << s) | ((b >> 1) >> (63 - s)) : (a >> s) | ((b << 1) << (63 - s));
  }

  /// Bitwise m ? a : b: one vpternlogq with AVX-512. vpternlogq overwrites
  /// its first operand, so that is `a` (imm 0xE2 = B ? A : C for
  /// (A, B, C) = (a, m, b)): in `x = blend(m, x, y)` the old x dies there and
  /// a loop-invariant mask is never copied.
  template <class V>
  BEM_DETAIL_LANES_INLINE static V select(const V& m, const V& a, const V& b) noexcept {
#if BEM_DETAIL_LANES_X86 && defined(__AVX512F__)
    if constexpr (sizeof(V) == 64) return (V)_mm512_ternarylogic_epi64((__m512i)a, (__m512i)m, (__m512i)b, 0xE2);
#if defined(__AVX512VL__)
    if constexpr (sizeof(V) == 32) return (V)_mm256_ternarylogic_epi64((__m256i)a, (__m256i)m, (__m256i)b, 0xE2);
    if constexpr (sizeof(V) == 16) return (V)_mm_ternarylogic_epi64((__m128i)a, (__m128i)m, (__m128i)b, 0xE2);
#endif
#endif
    return b ^ (m & (a ^ b));
  }

  /// Word-by-word popcounts: vpopcntq with AVX-512 VPOPCNTDQ.
  template <class V>
  BEM_DETAIL_LANES_INLINE static V popcounts(const V& a) noexcept {
#if BEM_DETAIL_LANES_X86 && defined(__AVX512VPOPCNTDQ__)
    if constexpr (sizeof(V) == 64) return (V)_mm512_popcnt_epi64((__m512i)a);
#if defined(__AVX512VL__)
    if constexpr (sizeof(V) == 32) return (V)_mm256_popcnt_epi64((__m256i)a);
    if constexpr (sizeof(V) == 16) return (V)_mm_popcnt_epi64((__m128i)a);
#endif
#endif
    if constexpr (words<V> == 1) {
      return static_cast<std::uint64_t>(std::popcount(a));
    } else {
      V r;
      for (std::size_t e = 0; e < words<V>; ++e) r[e] = static_cast<std::uint64_t>(std::popcount(a[e]));
      return r;
    }
  }

  /// XOR of the words of a chunk.
  template <class V>
  BEM_DETAIL_LANES_INLINE static std::uint64_t xor_words(const V& a) noexcept {
    if constexpr (words<V> == 1) {
      return a;
    } else if constexpr (words<V> == 2) {
      return a[0] ^ a[1];
    } else {
      using H = typename chunk_of<sizeof(V) * 4>::type;  // fold halves: extract + xor at each width
      H lo, hi;
      std::memcpy(&lo, &a, sizeof lo);
      std::memcpy(&hi, reinterpret_cast<const char*>(&a) + sizeof lo, sizeof hi);
      return xor_words(H(lo ^ hi));
    }
  }
};

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

  /// Inverts lane l; l < W. Chunk-wide: the one-lane mask is built in
  /// registers and XORed into every chunk, so a full-width read of the word
  /// that follows gets the stored chunk forwarded. After set_lane's 64-bit
  /// store, a 256-bit read cannot be forwarded and waits for the store to
  /// reach the cache (measured: 20-25 TSC ticks per 2.3 iteration of two
  /// flips, 12% of a compiled G = 256 expert).
  BEM_DETAIL_LANES_INLINE void flip_lane(std::size_t l) noexcept {
#if BEM_DETAIL_LANES_VECTOR
    if constexpr (chunk_words > 1) {
      chunk word_number{};  // 0, 1, ..., chunk_words - 1
      for (std::size_t k = 0; k < chunk_words; ++k) word_number[k] = k;
      const chunk bit = chunk{} + (std::uint64_t{1} << (l % 64));
      for (std::size_t i = 0; i < chunk_count; ++i) {
        const chunk here = (chunk)(word_number == chunk{} + (l / 64 - i * chunk_words));  // all ones where l is
        store(*this, i, load(*this, i) ^ (bit & here));
      }
      return;
    }
#endif
    w_[l / 64] ^= std::uint64_t{1} << (l % 64);
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
  /// returns the copy: f updates x in place and must act bitwise or word by
  /// word. Chunks are one register of the target (see the file comment):
  /// GCC vectors of 128, 256 or 512 bits, or single std::uint64_t words.
  template <class F>
  BEM_DETAIL_LANES_INLINE static lane_word map3(const lane_word& a, const lane_word& b, const lane_word& c,
                                                F f) noexcept {
    lane_word r;
    for (std::size_t i = 0; i < chunk_count; ++i) {
      chunk x = load(a, i), y = load(b, i), z = load(c, i);
      f(x, y, z);
      store(r, i, x);
    }
    return r;
  }

  /// Applies f(x, b_chunk) to each chunk x of a copy of `a` (see map3).
  template <class F>
  BEM_DETAIL_LANES_INLINE static lane_word map(const lane_word& a, const lane_word& b, F f) noexcept {
    lane_word r;
    for (std::size_t i = 0; i < chunk_count; ++i) {
      chunk x = load(a, i), y = load(b, i);
      f(x, y);
      store(r, i, x);
    }
    return r;
  }

 private:
  friend struct detail::lane_ops;
  static constexpr std::size_t chunk_words = detail::lane_work_bits(W) / 64;
  static constexpr std::size_t chunk_count = word_count / chunk_words;
  using chunk = typename detail::chunk_of<detail::lane_work_bits(W)>::type;

  // Chunks are read and written in place through a may_alias vector lvalue
  // (the storage is aligned to at least the chunk size). A memcpy would do
  // the same, but GCC 12 then keeps a loop-carried word in a different
  // register from the one it computes into and adds a register move per
  // chunk and step (measured: 8 extra vmovdqa64 per 2.1 loop iteration).
  BEM_DETAIL_LANES_INLINE static chunk load(const lane_word& a, std::size_t i) noexcept {
#if BEM_DETAIL_LANES_VECTOR
    if constexpr (chunk_words > 1) {
      using A = typename detail::u64_vector<chunk_words * 8>::alias;
      return *reinterpret_cast<const A*>(a.w_ + i * chunk_words);
    } else
#endif
      return a.w_[i];
  }
  BEM_DETAIL_LANES_INLINE static void store(lane_word& a, std::size_t i, const chunk& v) noexcept {
#if BEM_DETAIL_LANES_VECTOR
    if constexpr (chunk_words > 1) {
      using A = typename detail::u64_vector<chunk_words * 8>::alias;
      *reinterpret_cast<A*>(a.w_ + i * chunk_words) = v;
    } else
#endif
      a.w_[i] = v;
  }

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
/// One vpternlogq per chunk with AVX-512.
template <std::size_t W>
lane_word<W> blend(const lane_word<W>& mask, const lane_word<W>& a, const lane_word<W>& b) noexcept {
  return lane_word<W>::map3(mask, a, b,
                            [](auto& m, const auto& x, const auto& y) { m = detail::chunk_ops::select(m, x, y); });
}

namespace detail {

/// Shifts and rotates, on chunks (the friend of lane_word that sees them).
///
/// A move by k lanes is a move by q = k / 64 whole words and s = k % 64
/// bits. Word i of the result of shift_left is
///   (A[i] << s) | (B[i] >> (64 - s)),  A[i] = a[i - q], B[i] = a[i - q - 1]
/// (words outside the word are 0; for rotations indices wrap around; s = 0
/// needs A alone), and symmetrically for the right moves with
///   (A[i] >> s) | (B[i] << (64 - s)),  A[i] = a[i + q], B[i] = a[i + q + 1].
/// A and B are whole-word moves: each output chunk of one is `align` of two
/// neighbouring source chunks (valignq with AVX-512, one instruction; with k
/// a compile-time constant the offset is an immediate), and the bit part is
/// a funnel shift (vpshldq / vpshrdq with AVX-512 VBMI2).
struct lane_ops {
  static constexpr std::ptrdiff_t floor_div(std::ptrdiff_t a, std::ptrdiff_t b) noexcept {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
  }

  /// Source chunk J: 0 outside the word, or J mod chunk_count with Rot.
  template <std::ptrdiff_t J, bool Rot, std::size_t W>
  BEM_DETAIL_LANES_INLINE static typename lane_word<W>::chunk source(const lane_word<W>& a) noexcept {
    using L = lane_word<W>;
    constexpr auto cc = static_cast<std::ptrdiff_t>(L::chunk_count);
    if constexpr (Rot) {
      return L::load(a, static_cast<std::size_t>(((J % cc) + cc) % cc));
    } else if constexpr (J < 0 || J >= cc) {
      return typename L::chunk{};
    } else {
      return L::load(a, static_cast<std::size_t>(J));
    }
  }

  /// Chunk C of the whole-word move by D words: word i of the move is word
  /// i - D of a (0 outside, or modulo the word count with Rot).
  template <std::ptrdiff_t D, bool Rot, std::size_t C, std::size_t W>
  BEM_DETAIL_LANES_INLINE static typename lane_word<W>::chunk moved_chunk(const lane_word<W>& a) noexcept {
    using L = lane_word<W>;
    constexpr auto n = static_cast<std::ptrdiff_t>(L::chunk_words);
    constexpr std::ptrdiff_t t = static_cast<std::ptrdiff_t>(C) * n - D;  // source of the chunk's word 0
    constexpr std::ptrdiff_t h = floor_div(t, n);
    constexpr auto off = static_cast<std::size_t>(t - h * n);
    if constexpr (off == 0) {
      return source<h, Rot>(a);
    } else {
      return chunk_ops::align<off>(source<h + 1, Rot>(a), source<h, Rot>(a));
    }
  }

  /// Shift (Rot = false) or rotate by the compile-time K < W, Left or right.
  template <std::size_t K, bool Left, bool Rot, std::size_t W>
  BEM_DETAIL_LANES_INLINE static lane_word<W> move_c(const lane_word<W>& a) noexcept {
    using L = lane_word<W>;
    static_assert(K < W);
    constexpr auto q = static_cast<std::ptrdiff_t>(K / 64);
    constexpr auto s = static_cast<unsigned>(K % 64);
    constexpr std::ptrdiff_t sign = Left ? 1 : -1;
    L r;
    [&]<std::size_t... C>(std::index_sequence<C...>) {
      (L::store(r, C,
                [&] {
                  const auto x = moved_chunk<sign * q, Rot, C>(a);
                  if constexpr (s == 0) {
                    return x;
                  } else {
                    const auto y = moved_chunk<sign * (q + 1), Rot, C>(a);
                    if constexpr (Left) return chunk_ops::funnel_left<s>(x, y);
                    else return chunk_ops::funnel_right<s>(x, y);
                  }
                }()),
       ...);
    }(std::make_index_sequence<L::chunk_count>{});
    return r;
  }

  /// Chunk c of the whole-word move by a run-time d (see moved_chunk).
  template <std::size_t W>
  BEM_DETAIL_LANES_INLINE static typename lane_word<W>::chunk moved_chunk(const lane_word<W>& a, std::ptrdiff_t d,
                                                                          bool rot, std::size_t c) noexcept {
    using L = lane_word<W>;
    using V = typename L::chunk;
    constexpr auto n = static_cast<std::ptrdiff_t>(L::chunk_words);
    constexpr auto cc = static_cast<std::ptrdiff_t>(L::chunk_count);
    const std::ptrdiff_t t = static_cast<std::ptrdiff_t>(c) * n - d;
    const std::ptrdiff_t h = floor_div(t, n);
    const auto off = static_cast<std::size_t>(t - h * n);
    const auto get = [&](std::ptrdiff_t j) noexcept {
      if (rot) return L::load(a, static_cast<std::size_t>(((j % cc) + cc) % cc));
      return (j >= 0 && j < cc) ? L::load(a, static_cast<std::size_t>(j)) : V{};
    };
    const V lo = get(h);
    return off == 0 ? lo : chunk_ops::align(get(h + 1), lo, off);
  }

  /// Shift or rotate by a run-time k < W.
  template <std::size_t W>
  static lane_word<W> move(const lane_word<W>& a, std::size_t k, bool left, bool rotate) noexcept {
    using L = lane_word<W>;
    L r;
    if constexpr (W == 64) {  // one word: the machine's own shifts and rotates (k < 64 here)
      const std::uint64_t x = a.w_[0];
      r.w_[0] = rotate ? (left ? std::rotl(x, static_cast<int>(k)) : std::rotr(x, static_cast<int>(k)))
                       : (left ? x << k : x >> k);
      return r;
    }
    const auto q = static_cast<std::ptrdiff_t>(k / 64);
    const auto s = static_cast<unsigned>(k % 64);
    const std::ptrdiff_t sign = left ? 1 : -1;
    for (std::size_t c = 0; c < L::chunk_count; ++c) {
      const auto x = moved_chunk(a, sign * q, rotate, c);
      L::store(r, c, s == 0 ? x : chunk_ops::funnel(x, moved_chunk(a, sign * (q + 1), rotate, c), s, left));
    }
    return r;
  }

  template <std::size_t W>
  BEM_DETAIL_LANES_INLINE static typename lane_word<W>::chunk load(const lane_word<W>& a, std::size_t i) noexcept {
    return lane_word<W>::load(a, i);
  }
  template <std::size_t W>
  BEM_DETAIL_LANES_INLINE static void store(lane_word<W>& a, std::size_t i,
                                            const typename lane_word<W>::chunk& v) noexcept {
    lane_word<W>::store(a, i, v);
  }
  template <std::size_t W>
  static constexpr std::size_t chunk_count = lane_word<W>::chunk_count;
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

/// shift_left(a, K) with K fixed at compile time: the whole-word part becomes
/// immediates (valignq), the bit part one funnel shift per chunk.
template <std::size_t K, std::size_t W>
BEM_DETAIL_LANES_INLINE lane_word<W> shift_left(const lane_word<W>& a) noexcept {
  if constexpr (K >= W) return lane_word<W>();
  else return detail::lane_ops::move_c<K, true, false>(a);
}
/// shift_right(a, K) with K fixed at compile time.
template <std::size_t K, std::size_t W>
BEM_DETAIL_LANES_INLINE lane_word<W> shift_right(const lane_word<W>& a) noexcept {
  if constexpr (K >= W) return lane_word<W>();
  else return detail::lane_ops::move_c<K, false, false>(a);
}
/// rotate_left(a, K) with K fixed at compile time.
template <std::size_t K, std::size_t W>
BEM_DETAIL_LANES_INLINE lane_word<W> rotate_left(const lane_word<W>& a) noexcept {
  return detail::lane_ops::move_c<K % W, true, true>(a);
}
/// rotate_right(a, K) with K fixed at compile time.
template <std::size_t K, std::size_t W>
BEM_DETAIL_LANES_INLINE lane_word<W> rotate_right(const lane_word<W>& a) noexcept {
  return detail::lane_ops::move_c<K % W, false, true>(a);
}

/// Word i of the result is the number of set bits of word i of a
/// (vpopcntq per chunk with AVX-512 VPOPCNTDQ).
template <std::size_t W>
lane_word<W> word_popcounts(const lane_word<W>& a) noexcept {
  return lane_word<W>::map(a, a, [](auto& x, const auto&) { x = detail::chunk_ops::popcounts(x); });
}

/// Number of lanes that are 1.
template <std::size_t W>
std::size_t popcount(const lane_word<W>& a) noexcept {
#if BEM_DETAIL_LANES_X86 && defined(__AVX512VPOPCNTDQ__)
  if constexpr (detail::lane_work_bits(W) > 64) {
    // vpopcntq per chunk, the per-word counts summed as vectors, one
    // horizontal sum at the end.
    auto sum = detail::chunk_ops::popcounts(detail::lane_ops::load(a, 0));
    for (std::size_t i = 1; i < detail::lane_ops::chunk_count<W>; ++i)
      sum += detail::chunk_ops::popcounts(detail::lane_ops::load(a, i));
    std::uint64_t c = 0;
    for (std::size_t e = 0; e < sizeof sum / 8; ++e) c += sum[e];
    return static_cast<std::size_t>(c);
  }
#endif
  std::size_t c = 0;
  for (std::size_t i = 0; i < W / 64; ++i) {
    c += static_cast<std::size_t>(std::popcount(a.word(i)));
#if defined(__GNUC__) && !defined(__clang__)
    // GCC 12.2 at -O3 -march=znver3+AVX-512 vectorises this reduction wrongly
    // (popcount of lane_word<256>::ones() gave 126; the lanes-native test
    // caught it). The empty asm keeps the sum scalar: one popcnt per word.
    // (With VPOPCNTDQ the explicit vector form above is used instead.)
    asm("" : "+r"(c));
#endif
  }
  return c;
}

/// popcount(a) mod 2: the XOR of all lanes. The chunks are XORed as
/// vectors, then the words of the last chunk, then the bits of one word.
template <std::size_t W>
bool parity(const lane_word<W>& a) noexcept {
  auto x = detail::lane_ops::load(a, 0);
  for (std::size_t i = 1; i < detail::lane_ops::chunk_count<W>; ++i) x ^= detail::lane_ops::load(a, i);
  const std::uint64_t v = detail::chunk_ops::xor_words(x);
#if defined(__GNUC__)
  return __builtin_parityll(v) != 0;
#else
  return (std::popcount(v) & 1) != 0;
#endif
}

BEM_NAMESPACE_END
