#include <bem/machine/identifier.hpp>
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

// ---- ECC ------------------------------------------------------------------------
// Counting failures in plain loops and asserting once keeps the exhaustive
// sweeps (tens of millions of decodes) to a fraction of a second.

namespace {
constexpr std::uint32_t data_of(std::uint32_t id) { return id & 0xFFFFFu; }
constexpr std::uint32_t id_with_data(std::uint32_t cls, std::uint32_t data) {
  return bem::make_checked_identifier(cls, data >> 14, data & 0x3FFFu);
}
}  // namespace

TEST_CASE("ECC: the documented parity-check matrix, computed independently") {
  // c_j covers data bit i iff bit j of the i-th non-power-of-two in 1..25 is set.
  std::uint32_t columns[20] = {}, next = 0;
  for (std::uint32_t p = 1; p <= 25; ++p)
    if (!std::has_single_bit(p)) columns[next++] = p;
  REQUIRE(next == 20);
  for (std::uint32_t i = 0; i < 20; ++i) {
    const std::uint32_t ecc = bem::identifier_ecc_for((1u << i) >> 14, (1u << i) & 0x3FFFu);
    CHECK((ecc & 0x1Fu) == columns[i]);
    // One data bit plus its column: the overall parity makes the weight even.
    CHECK(((ecc >> 5) & 1u) == ((1u + static_cast<std::uint32_t>(std::popcount(columns[i]))) & 1u));
  }
  CHECK(bem::identifier_ecc_for(0, 0) == 0);
  // Fields are masked to their widths, as make_identifier does.
  CHECK(bem::identifier_ecc_for(0x40 | 5, 0x4000 | 77) == bem::identifier_ecc_for(5, 77));
  const auto id = bem::make_checked_identifier(0x2A, 0x15, 0x1234);
  CHECK(bem::identifier_class(id) == 0x2A);
  CHECK(bem::identifier_shard(id) == 0x15);
  CHECK(bem::identifier_local(id) == 0x1234);
  CHECK(bem::identifier_ecc(id) == bem::identifier_ecc_for(0x15, 0x1234));
}

TEST_CASE("ECC: the code is linear with minimum distance 4 (exhaustive over all 2^20 data words)") {
  long not_linear = 0, lighter_than_4 = 0, weight_4 = 0;
  const std::uint32_t probe = 0x5A5A5u;
  for (std::uint32_t d = 1; d < (1u << 20); ++d) {
    const std::uint32_t e = bem::identifier_ecc_for(d >> 14, d & 0x3FFFu);
    const std::uint32_t e_probe = bem::identifier_ecc_for(probe >> 14, probe & 0x3FFFu);
    const std::uint32_t x = d ^ probe;
    if (bem::identifier_ecc_for(x >> 14, x & 0x3FFFu) != (e ^ e_probe)) ++not_linear;
    const int w = std::popcount(d) + std::popcount(e);
    if (w < 4) ++lighter_than_4;
    if (w == 4) ++weight_4;
  }
  CHECK(not_linear == 0);
  CHECK(lighter_than_4 == 0);  // distance >= 4: SEC-DED
  CHECK(weight_4 > 0);         // and exactly 4
}

TEST_CASE("ECC: every data word decodes as ok and every single flip of the 26 protected bits is corrected "
          "(exhaustive: 2^20 words x 27 cases)") {
  long bad_ok = 0, bad_single = 0;
  std::uint32_t first_bad = 0xFFFFFFFFu;
  for (std::uint32_t d = 0; d < (1u << 20); ++d) {
    const std::uint32_t id = id_with_data(d & 0x3Fu, d);
    const auto clean = bem::ecc_check(id);
    if (clean.status != bem::ecc_result::ok || clean.corrected != id || clean.flipped_bit != -1) {
      ++bad_ok;
      first_bad = id;
    }
    for (int b = 0; b < bem::identifier_ecc_protected_bits; ++b) {
      const auto r = bem::ecc_check(id ^ (1u << b));
      if (r.status != bem::ecc_result::corrected_single || r.corrected != id || r.flipped_bit != b) {
        ++bad_single;
        first_bad = id;
      }
    }
  }
  INFO("first failing identifier: " << first_bad);
  CHECK(bad_ok == 0);
  CHECK(bad_single == 0);
}

TEST_CASE("ECC: every double error is detected as uncorrectable (exhaustive: 2^20 words x 325 pairs)") {
  // All 325 pairs of the 26 protected bits on every data word...
  long missed = 0, cases = 0;
  for (std::uint32_t d = 0; d < (1u << 20); ++d) {
    const std::uint32_t id = id_with_data((d * 7u) & 0x3Fu, d);
    for (int a = 0; a < 26; ++a)
      for (int b = a + 1; b < 26; ++b) {
        const std::uint32_t bad = id ^ (1u << a) ^ (1u << b);
        const auto r = bem::ecc_check(bad);
        ++cases;
        if (r.status != bem::ecc_result::uncorrectable || r.corrected != bad || r.flipped_bit != -1) ++missed;
      }
  }
  CHECK(cases == (1L << 20) * 325);
  bem::xoshiro256ss rng(41);
  // ...and 10^5 random (word, pair) draws.
  for (int t = 0; t < 100000; ++t) {
    const auto d = static_cast<std::uint32_t>(rng.uniform_below(1u << 20));
    const std::uint32_t id = id_with_data(static_cast<std::uint32_t>(rng.uniform_below(64)), d);
    const auto a = static_cast<int>(rng.uniform_below(26));
    auto b = static_cast<int>(rng.uniform_below(25));
    if (b >= a) ++b;
    if (bem::ecc_check(id ^ (1u << a) ^ (1u << b)).status != bem::ecc_result::uncorrectable) ++missed;
  }
  CHECK(missed == 0);
}

TEST_CASE("ECC: the class field is outside the code") {
  bem::xoshiro256ss rng(43);
  for (int t = 0; t < 1000; ++t) {
    const auto d = static_cast<std::uint32_t>(rng.uniform_below(1u << 20));
    const auto cls = static_cast<std::uint32_t>(rng.uniform_below(64));
    const std::uint32_t id = id_with_data(cls, d);
    CHECK(data_of(id) == d);
    // Any change of class alone still decodes as ok and is kept as is.
    const std::uint32_t other = id ^ (static_cast<std::uint32_t>(1 + rng.uniform_below(63)) << 26);
    const auto r = bem::ecc_check(other);
    CHECK(r.status == bem::ecc_result::ok);
    CHECK(r.corrected == other);
    // A corrected single error keeps the class.
    const auto s = bem::ecc_check(other ^ (1u << rng.uniform_below(26)));
    CHECK(s.status == bem::ecc_result::corrected_single);
    CHECK(bem::identifier_class(s.corrected) == bem::identifier_class(other));
  }
}

TEST_CASE("ECC: syndromes 26..31 with odd parity (three or more errors) are reported uncorrectable") {
  // Three flips whose columns XOR to 26..31 exist, e.g. data bits with columns 3, 9 and 16 (check bit 4):
  // 3 ^ 9 ^ 16 = 26. Find such triples exhaustively and check them on one word.
  const std::uint32_t id = bem::make_checked_identifier(7, 0x2B, 0x0F0F);
  long seen = 0, wrong = 0;
  const auto column = [](int bit) -> std::uint32_t {
    if (bit >= 20) return 1u << (bit - 20);
    std::uint32_t n = 0;
    for (std::uint32_t p = 1;; ++p)
      if (!std::has_single_bit(p) && n++ == static_cast<std::uint32_t>(bit)) return p;
  };
  for (int a = 0; a < 25; ++a)
    for (int b = a + 1; b < 25; ++b)
      for (int c = b + 1; c < 25; ++c)
        if ((column(a) ^ column(b) ^ column(c)) >= 26) {
          ++seen;
          const auto r = bem::ecc_check(id ^ (1u << a) ^ (1u << b) ^ (1u << c));
          if (r.status != bem::ecc_result::uncorrectable || r.flipped_bit != -1) ++wrong;
        }
  CHECK(seen > 0);
  CHECK(wrong == 0);
}
