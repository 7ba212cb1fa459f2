#include <bem/prng.hpp>
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <limits>

TEST_CASE("splitmix64 matches its reference output") {
  std::uint64_t s = 0;
  CHECK(bem::splitmix64(s) == 0xE220A8397B1DCDAFull);
  CHECK(bem::splitmix64(s) == 0x6E789E6AA1B965F4ull);
}

TEST_CASE("xoshiro256** matches the reference implementation from state {1,2,3,4}") {
  auto g = bem::xoshiro256ss::from_state(1, 2, 3, 4);
  CHECK(g.next() == 11520ull);
  CHECK(g.next() == 0ull);
  CHECK(g.next() == 1509978240ull);
  CHECK(g.next() == 1215971899390074240ull);
}

TEST_CASE("uniform_below is exact and in range") {
  bem::xoshiro256ss g(42);
  std::int64_t counts[3] = {0, 0, 0};
  for (int i = 0; i < 30000; ++i) {
    auto v = g.uniform_below(3);
    REQUIRE(v < 3);
    ++counts[v];
  }
  for (auto c : counts) CHECK(std::abs(c - 10000) < 400);
  // n = 2^63 + 1 exercises the rejection branch heavily.
  for (int i = 0; i < 100; ++i) CHECK(g.uniform_below((1ull << 63) + 1) <= (1ull << 63));
}

TEST_CASE("uniform_below is the documented stream: Lemire's method, rejecting as often as it takes") {
  // The header's definition transcribed on a twin generator. For n = 2^63 + 1
  // the threshold (2^64 - n) mod n is 2^63 - 1, so about half the draws are
  // rejected and runs of two or more rejections occur every few calls.
  __extension__ typedef unsigned __int128 u128;
  bem::xoshiro256ss g(7), twin(7);
  const std::uint64_t n = (1ull << 63) + 1;
  const std::uint64_t threshold = (0 - n) % n;
  REQUIRE(threshold == (1ull << 63) - 1);
  int repeated_rejections = 0;
  for (int i = 0; i < 200; ++i) {
    u128 m = 0;
    int draws = 0;
    do {
      m = static_cast<u128>(twin.next()) * n;
      ++draws;
    } while (static_cast<std::uint64_t>(m) < threshold);
    repeated_rejections += draws > 2;
    CHECK(g.uniform_below(n) == static_cast<std::uint64_t>(m >> 64));
  }
  CHECK(repeated_rejections > 10);
}

TEST_CASE("bit() consumes one output per 64 bits, least significant first") {
  bem::xoshiro256ss a(9), b(9);
  const std::uint64_t word = b.next();
  for (int i = 0; i < 64; ++i) CHECK(a.bit() == static_cast<bool>((word >> i) & 1u));
  const std::uint64_t word2 = b.next();
  CHECK(a.bit() == static_cast<bool>(word2 & 1u));
}

TEST_CASE("derived seeds separate streams and are stable") {
  CHECK(bem::derive_seed(1, 2, 3) != bem::derive_seed(1, 3, 2));
  CHECK(bem::sequence_seed(1, "train", 0) != bem::sequence_seed(1, "test", 0));
  CHECK(bem::fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(bem::fnv1a64("a") == 0xaf63dc4c8601ec8cull);
  // The documented chain h = mix(seed); h = mix(h ^ a); ... computed by hand
  // (Python) from the header comment.
  static_assert(bem::derive_seed(5, 6, 7, 8) == 0x7240631b041b3f21ull);
}

TEST_CASE("uniform_int covers every range, the whole of int64 included") {
  constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  // The whole range: lo plus one raw output, modulo 2^64.
  bem::xoshiro256ss a(21), b(21);
  for (int i = 0; i < 100; ++i)
    CHECK(a.uniform_int(lo, hi) == static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + b.next()));
  // Wider than INT64_MAX, not the whole range: in range, and both halves reached.
  bem::xoshiro256ss g(22);
  int negative = 0, positive = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::int64_t v = g.uniform_int(lo + 1, hi);
    REQUIRE(v > lo);
    (v < 0 ? negative : positive) += 1;
  }
  CHECK(negative > 400);
  CHECK(positive > 400);
  // Ranges at the ends of int64, and a single value.
  for (int i = 0; i < 100; ++i) {
    const std::int64_t top = g.uniform_int(hi - 2, hi), bottom = g.uniform_int(lo, lo + 2);
    CHECK((top >= hi - 2 && top <= hi));
    CHECK((bottom >= lo && bottom <= lo + 2));
    CHECK(g.uniform_int(-7, -7) == -7);
  }
  // An ordinary range is lo + uniform_below(width + 1), as it always was:
  // task data drawn with it does not change.
  bem::xoshiro256ss c(23), d(23);
  for (int i = 0; i < 100; ++i) CHECK(c.uniform_int(-5, 9) == -5 + static_cast<std::int64_t>(d.uniform_below(15)));
}

TEST_CASE("uniform01 is a multiple of 2^-53 in [0,1)") {
  bem::xoshiro256ss g(3);
  for (int i = 0; i < 1000; ++i) {
    const double u = g.uniform01();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    CHECK(u * 0x1.0p53 == static_cast<double>(static_cast<std::uint64_t>(u * 0x1.0p53)));
  }
}
