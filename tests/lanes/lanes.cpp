// Every BIT-ALU operation of bem/machine/lanes.hpp against a naive bit-by-bit
// reference (a std::vector<bool> of the W lanes), for every W the library
// names, on random words from bem's PRNG; shifts and rotates by every k in
// [0, W] (and beyond, for rotations and shifts that clear the word).
#include <bem/machine/lanes.hpp>
#include <bem/prng.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using bits = std::vector<bool>;

template <std::size_t W>
bits to_bits(const bem::lane_word<W>& a) {
  bits b(W);
  for (std::size_t l = 0; l < W; ++l) b[l] = ((a.word(l / 64) >> (l % 64)) & 1u) != 0;
  return b;
}

template <std::size_t W>
bem::lane_word<W> random_word(bem::xoshiro256ss& g) {
  bem::lane_word<W> a;
  for (std::size_t i = 0; i < W / 64; ++i) a.set_word(i, g.next());
  return a;
}

template <std::size_t W>
void check_word(bem::xoshiro256ss& g) {
  using L = bem::lane_word<W>;
  static_assert(bem::bit_sliced_word<L>);
  static_assert(bem::lane_count_v<L> == W);
  static_assert(alignof(L) == std::min<std::size_t>(W & (~W + 1), 512) / 8);  // C / 8, C = W's largest power-of-two factor, <= 512
  CHECK(to_bits(L::zeros()) == bits(W, false));
  CHECK(to_bits(L::ones()) == bits(W, true));
  CHECK(L() == L::zeros());
  for (int rep = 0; rep < 4; ++rep) {
    const L a = random_word<W>(g), b = random_word<W>(g), m = random_word<W>(g);
    const bits A = to_bits(a), B = to_bits(b), M = to_bits(m);
    bits r_and(W), r_or(W), r_xor(W), r_not(W), r_andnot(W), r_blend(W);
    std::size_t ones = 0;
    for (std::size_t l = 0; l < W; ++l) {
      r_and[l] = A[l] && B[l];
      r_or[l] = A[l] || B[l];
      r_xor[l] = A[l] != B[l];
      r_not[l] = !A[l];
      r_andnot[l] = A[l] && !B[l];
      r_blend[l] = M[l] ? A[l] : B[l];
      ones += A[l] ? 1 : 0;
      CHECK(a.lane(l) == A[l]);
    }
    CHECK(to_bits(a & b) == r_and);
    CHECK(to_bits(bem::and_(a, b)) == r_and);
    CHECK(to_bits(a | b) == r_or);
    CHECK(to_bits(bem::or_(a, b)) == r_or);
    CHECK(to_bits(a ^ b) == r_xor);
    CHECK(to_bits(bem::xor_(a, b)) == r_xor);
    CHECK(to_bits(~a) == r_not);
    CHECK(to_bits(bem::not_(a)) == r_not);
    CHECK(to_bits(bem::andnot(a, b)) == r_andnot);
    CHECK(to_bits(bem::blend(m, a, b)) == r_blend);
    CHECK(bem::popcount(a) == ones);
    CHECK(bem::parity(a) == (ones % 2 == 1));
    L c = a;
    c &= b;
    CHECK(c == (a & b));
    c = a;
    c |= b;
    CHECK(c == (a | b));
    c = a;
    c ^= b;
    CHECK(c == (a ^ b));
    CHECK((a == b) == (A == B));
    CHECK(a == L::from_words(a.words()));
    const L pc = bem::word_popcounts(a);
    for (std::size_t i = 0; i < W / 64; ++i)
      CHECK(pc.word(i) == static_cast<std::uint64_t>(std::popcount(a.word(i))));

    // Shifts and rotations by every k in [0, W], rotations also past W.
    for (std::size_t k = 0; k <= W + 65; ++k) {
      bits sl(W, false), sr(W, false), rl(W), rr(W);
      for (std::size_t l = 0; l < W; ++l) {
        if (l >= k) sl[l] = A[l - k];
        if (l + k < W) sr[l] = A[l + k];
        rl[(l + k) % W] = A[l];
        rr[l] = A[(l + k) % W];
      }
      CHECK_MESSAGE(to_bits(bem::shift_left(a, k)) == sl, "W=", W, " k=", k);
      CHECK_MESSAGE(to_bits(bem::shift_right(a, k)) == sr, "W=", W, " k=", k);
      CHECK_MESSAGE(to_bits(bem::rotate_left(a, k)) == rl, "W=", W, " k=", k);
      CHECK_MESSAGE(to_bits(bem::rotate_right(a, k)) == rr, "W=", W, " k=", k);
    }
  }
  // lane set/get: every lane alone.
  for (std::size_t l = 0; l < W; ++l) {
    L e;
    e.set_lane(l, true);
    CHECK(bem::popcount(e) == 1);
    CHECK(e.lane(l));
    CHECK(bem::parity(e));
    e.set_lane(l, false);
    CHECK(e == L::zeros());
  }
  // flip_lane inverts exactly lane l of any word: as set_lane(l, !lane(l)).
  const L a = random_word<W>(g);
  for (std::size_t l = 0; l < W; ++l) {
    L flipped = a, expected = a;
    flipped.flip_lane(l);
    expected.set_lane(l, !a.lane(l));
    CHECK_MESSAGE(flipped == expected, "W=", W, " l=", l);
  }
  // Parity of all-ones is W mod 2 = 0, popcount W.
  CHECK(bem::popcount(L::ones()) == W);
  CHECK(!bem::parity(L::ones()));
  CHECK(L::broadcast(0x8000000000000001ull).word(W / 64 - 1) == 0x8000000000000001ull);
}

}  // namespace

TEST_CASE("bit_sliced_word: std::uint64_t and lane_word satisfy it, other types do not") {
  static_assert(bem::bit_sliced_word<std::uint64_t>);
  static_assert(bem::lane_count_v<std::uint64_t> == 64);
  static_assert(!bem::bit_sliced_word<double>);
  static_assert(!bem::bit_sliced_word<std::vector<bool>>);
  // bool's & | ^ ~ give int: ~true is -2, true again once converted back, so
  // a circuit evaluated on bool "words" would get NOT wrong. The small
  // unsigned types are promoted to int too (their results happen to truncate
  // back right), and are not models either: the operators must give T.
  static_assert(!bem::bit_sliced_word<bool>);
  static_assert(!bem::bit_sliced_word<std::uint8_t>);
  static_assert(!bem::bit_sliced_word<std::uint16_t>);
  static_assert(bem::bit_sliced_word<std::uint32_t>);
}

TEST_CASE("BIT-ALU agrees with a bit-by-bit reference for W = 64") {
  bem::xoshiro256ss g(bem::derive_seed(1, 64));
  check_word<64>(g);
}
TEST_CASE("BIT-ALU agrees with a bit-by-bit reference for W = 128") {
  bem::xoshiro256ss g(bem::derive_seed(1, 128));
  check_word<128>(g);
}
TEST_CASE("BIT-ALU agrees with a bit-by-bit reference for W = 256") {
  bem::xoshiro256ss g(bem::derive_seed(1, 256));
  check_word<256>(g);
}
TEST_CASE("BIT-ALU agrees with a bit-by-bit reference for W = 512") {
  bem::xoshiro256ss g(bem::derive_seed(1, 512));
  check_word<512>(g);
}
TEST_CASE("BIT-ALU agrees with a bit-by-bit reference for W = 1024") {
  bem::xoshiro256ss g(bem::derive_seed(1, 1024));
  check_word<1024>(g);
}
TEST_CASE("BIT-ALU agrees with a bit-by-bit reference for W = 192, 640 and 2048 (any multiple of 64)") {
  bem::xoshiro256ss g(bem::derive_seed(1, 2048));
  check_word<192>(g);
  check_word<640>(g);  // chunks of 128 bits, 16-byte aligned
  check_word<2048>(g);
}

namespace {

/// The compile-time forms shift_left<K>(a) etc. agree with the run-time ones
/// (which the bit-by-bit reference checks above) for every K in Ks.
template <std::size_t W, std::size_t... Ks>
void check_constant_moves(bem::xoshiro256ss& g) {
  for (int rep = 0; rep < 3; ++rep) {
    const auto a = random_word<W>(g);
    const auto one = [&a]<std::size_t K>() {
      CHECK_MESSAGE(bem::shift_left<K>(a) == bem::shift_left(a, K), "W=", W, " K=", K);
      CHECK_MESSAGE(bem::shift_right<K>(a) == bem::shift_right(a, K), "W=", W, " K=", K);
      CHECK_MESSAGE(bem::rotate_left<K>(a) == bem::rotate_left(a, K), "W=", W, " K=", K);
      CHECK_MESSAGE(bem::rotate_right<K>(a) == bem::rotate_right(a, K), "W=", W, " K=", K);
    };
    (one.template operator()<Ks>(), ...);
  }
}

/// A move by K = 64 q + s takes whole-word moves by q and q + 1 (each chunk
/// an align of two source chunks at offset q mod chunk_words, at most 8
/// words per chunk) and a funnel shift by s unless s = 0. So every q in
/// 0..7 with a bit part covers every align offset; 0, 64 and 192 are moves
/// without one; W - 64 and W - 1 reach the top; W, W + 1 and 2W + 3 clear
/// a shifted word and wrap a rotated one. (Each K instantiates all four
/// moves for the word's chunks: a longer list costs compile time, not
/// coverage.)
template <std::size_t W>
void check_constant_moves_all(bem::xoshiro256ss& g) {
  check_constant_moves<W, 1, 64 + 63, 128 + 1, 192 + 31, 256 + 2, 320 + 60, 384 + 33, 448 + 7, 0, 64, 192, W - 64,
                       W - 1, W, W + 1, 2 * W + 3>(g);
}

}  // namespace

TEST_CASE("compile-time shifts and rotations agree with the run-time ones") {
  bem::xoshiro256ss g(bem::derive_seed(3, 1));
  check_constant_moves_all<64>(g);
  check_constant_moves_all<128>(g);
  check_constant_moves_all<192>(g);
  check_constant_moves_all<256>(g);
  check_constant_moves_all<512>(g);
  check_constant_moves_all<640>(g);  // five 128-bit chunks (also with AVX-512)
  check_constant_moves_all<1024>(g);
  check_constant_moves_all<2048>(g);
}

TEST_CASE("shifts and rotations compose as their definitions say") {
  bem::xoshiro256ss g(7);
  const auto a = random_word<512>(g);
  bem::lane_word<512> lane0;
  lane0.set_lane(0, true);
  // rotate_left by 1 = shift_left by 1 plus the old top lane in lane 0.
  CHECK(bem::rotate_left(a, 1) == (bem::shift_left(a, 1) | (a.lane(511) ? lane0 : bem::lane_word<512>())));
  CHECK(bem::rotate_left(bem::rotate_right(a, 77), 77) == a);
  CHECK(bem::shift_right(bem::shift_left(a, 3), 3) == (a & bem::shift_right(bem::lane_word<512>::ones(), 3)));
}
