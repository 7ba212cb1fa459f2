#include <bem/prng.hpp>
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>

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
  static_assert(bem::derive_seed(5, 6, 7, 8) == bem::derive_seed(5, 6, 7, 8));
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
