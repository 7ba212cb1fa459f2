// STATE and SHARED (bem/machine/state.hpp): bit-sliced layout, round trips through
// lanes and through the run-time-sized variants, the Q16.16 format.
#include <bem/prng.hpp>
#include <bem/machine/state.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

TEST_CASE("state: word k holds bit k of every lane") {
  bem::state<5, 128> s;
  s.set_bit(3, 70, true);
  CHECK(s[3].lane(70));
  CHECK(s[3].word(1) == (std::uint64_t{1} << 6));
  CHECK(bem::popcount(s[3]) == 1);
  for (std::size_t k = 0; k < 5; ++k)
    if (k != 3) CHECK(s[k] == bem::lane_word<128>::zeros());
  CHECK(s.lane_bits(70).to_ulong() == 0b01000u);
  CHECK(s.lane_bits(69).none());
}

TEST_CASE("state: per-lane bits round-trip and agree with the static/dynamic conversions") {
  bem::xoshiro256ss g(11);
  bem::state<13, 256> s;
  for (std::size_t l = 0; l < 256; ++l) s.set_lane_bits(l, std::bitset<13>(g.next()));
  bem::xoshiro256ss h(11);
  for (std::size_t l = 0; l < 256; ++l) CHECK(s.lane_bits(l) == std::bitset<13>(h.next()));
  const bem::dynamic_state d = bem::to_dynamic(s);
  CHECK(d.bits() == 13);
  CHECK(d.lanes() == 256);
  for (std::size_t k = 0; k < 13; ++k)
    for (std::size_t l = 0; l < 256; ++l) CHECK(d.bit(k, l) == s.bit(k, l));
  CHECK(bem::from_dynamic<13, 256>(d) == s);
  bem::dynamic_state e = d;
  e.set_bit(12, 255, !e.bit(12, 255));
  CHECK_FALSE(e == d);
  CHECK_FALSE(bem::from_dynamic<13, 256>(e) == s);
  CHECK_THROWS_WITH_AS((bem::from_dynamic<13, 512>(d)), doctest::Contains("W = 256; expected N = 13, W = 512"),
                       std::invalid_argument);
}

TEST_CASE("shared_memory: bits, 64-bit words at any offset, parameters, dynamic round trip") {
  bem::shared_memory<200, 3> m;
  m.store_word(70, 0xDEADBEEF01234567ull);
  CHECK(m.load_word(70) == 0xDEADBEEF01234567ull);
  CHECK(m.bit(70) == true);  // bit 0 of ...67 is 1
  CHECK(m.bit(69) == false);
  CHECK(m.count() == static_cast<std::size_t>(std::popcount(0xDEADBEEF01234567ull)));
  CHECK(m.load_word(136) == 0);
  CHECK_THROWS_WITH_AS(m.store_word(137, 1), doctest::Contains("offset 137"), std::out_of_range);
  m.parameter(2) = bem::q16_16::from_double(-1.25);
  const bem::dynamic_shared_memory d = bem::to_dynamic(m);
  CHECK(d.bits() == 200);
  CHECK(d.parameters() == 3);
  CHECK(d.parameter(2).raw == -81920);
  CHECK(d.memory().count() == m.count());
  CHECK(bem::from_dynamic<200, 3>(d) == m);
  bem::dynamic_shared_memory e = d;
  e.parameter(0) = bem::q16_16::from_raw(1);
  CHECK_FALSE(bem::from_dynamic<200, 3>(e) == m);
  CHECK_THROWS_AS((bem::from_dynamic<200, 4>(d)), std::invalid_argument);
}

TEST_CASE("q16_16: Q16.16 conversion, rounding, saturation and arithmetic") {
  using q = bem::q16_16;
  CHECK(q::from_double(1.0).raw == 65536);
  CHECK(q::from_double(-0.5).raw == -32768);
  CHECK(q::from_double(1.0 / 65536).raw == 1);
  CHECK(q::from_double(1.5 / 65536).raw == 2);    // tie away from zero
  CHECK(q::from_double(-1.5 / 65536).raw == -2);
  CHECK(q::from_double(1e9).raw == std::numeric_limits<std::int32_t>::max());
  CHECK(q::from_double(-1e9).raw == std::numeric_limits<std::int32_t>::min());
  CHECK_THROWS_AS(q::from_double(std::nan("")), std::invalid_argument);
  CHECK(q::from_double(3.25).to_double() == 3.25);
  CHECK((q::from_double(1.5) + q::from_double(2.25)).to_double() == 3.75);
  CHECK((q::from_double(1.5) - q::from_double(2.25)).to_double() == -0.75);
  CHECK((q::from_double(1.5) * q::from_double(-2.25)).to_double() == -3.375);
  CHECK((q::from_raw(1) * q::from_raw(32768)).raw == 1);  // 2^-16 * 0.5 rounds to nearest: half -> up
  CHECK((q::from_raw(1) * q::from_raw(32767)).raw == 0);
  CHECK((q::from_double(30000) + q::from_double(30000)).raw == std::numeric_limits<std::int32_t>::max());
  CHECK((q::from_double(-30000) - q::from_double(30000)).raw == std::numeric_limits<std::int32_t>::min());
  CHECK((q::from_double(300) * q::from_double(300)).raw == std::numeric_limits<std::int32_t>::max());
}
