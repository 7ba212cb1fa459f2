#include <bem/identifier.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>

#include <bit>

TEST_CASE("identifier fields round-trip") {
  const auto id = bem::make_identifier(0x2A, 0x15, 0x3F, 0x1234);
  CHECK(bem::identifier_class(id) == 0x2A);
  CHECK(bem::identifier_ecc(id) == 0x15);
  CHECK(bem::identifier_shard(id) == 0x3F);
  CHECK(bem::identifier_local(id) == 0x1234);
}

TEST_CASE("Gray code is linear and invertible; similarity is 32 minus the Gray distance") {
  bem::xoshiro256ss rng(3);
  for (int i = 0; i < 10000; ++i) {
    const auto a = static_cast<std::uint32_t>(rng.next()), b = static_cast<std::uint32_t>(rng.next());
    CHECK(bem::gray_decode(bem::gray_code(a)) == a);
    CHECK((bem::gray_code(a) ^ bem::gray_code(b)) == bem::gray_code(a ^ b));
    CHECK(bem::gray_similarity(a, b) == 32 - std::popcount(bem::gray_code(a) ^ bem::gray_code(b)));
  }
  // Consecutive integers differ in one Gray bit.
  for (std::uint32_t u = 0; u < 1000; ++u) CHECK(bem::gray_similarity(u, u + 1) == 31);
}
