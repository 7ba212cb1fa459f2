// Fixed-point numbers and the few functions the mid path needs, computed
// with integer operations only, so every machine and C library gives the
// same bits (the mid-path step must be bit-exact; libm's log, sqrt and exp
// may differ in the last place between libraries and with FMA contraction).
//
// Formats (raw integer = value * 2^fraction bits):
//   q16_16   Q16.16 in std::int32_t: range [-32768, 32768 - 2^-16],
//            resolution 2^-16. from_double rounds to nearest (ties away from
//            zero) and saturates; + and - saturate; * computes
//            (a * b + 2^15) >> 16 in 64 bits (round to nearest, ties towards
//            +infinity) and saturates.
//   Q32.32   a std::uint64_t or std::int64_t holding value * 2^32 (squares of
//            Q16.16 numbers, exactly).
//   Q0.32    a std::uint64_t in [0, 2^32] holding a value in [0, 1].
//
// Functions (every rounding stated; `>>` on a negative number is not used):
//   isqrt(x)          floor(sqrt(x)) for a 64-bit unsigned x, exactly (a
//                     double's sqrt as the guess, corrected by integer steps).
//   log2_q16(n)       log2(n) for an integer n >= 1, in Q16.16, truncated:
//                     k = floor(log2 n); y = n * 2^(63 - k) as Q1.63 in
//                     [1, 2); then 16 times: y = floor(y^2 / 2^63) (Q2.63);
//                     if y >= 2^64 the next fraction bit is 1 and y = y / 2
//                     (exact: y is even there); else it is 0. Result
//                     k * 2^16 + the 16 fraction bits.
//   ln_q16(n)         ln(n) = log2(n) * ln 2 for n >= 1, in Q16.16:
//                     floor(log2_q16(n) * LN2_Q32 / 2^32), LN2_Q32 =
//                     2977044472 = round(ln 2 * 2^32).
//   sqrt_q16(x)       sqrt of a Q16.16 value x >= 0, in Q16.16:
//                     isqrt(x_raw * 2^16).
//   exp2_neg_q32(y)   2^(-y) for a Q16.16 value y >= 0, in Q0.32: with
//                     a = floor(y), f the 16 fraction bits of y,
//                     r = 2^32; for j = 1..16, if bit (16 - j) of f is set,
//                     r = floor(r * EXP2_NEG_Q32[j] / 2^32), where
//                     EXP2_NEG_Q32[j] = round(2^(-2^-j) * 2^32); then
//                     r = floor(r / 2^a) (0 once a >= 33).
//   exp_neg_q32(d)    e^(-d) for a Q16.16 value d >= 0, in Q0.32:
//                     exp2_neg_q32(floor(d * LOG2E_Q32 / 2^32)), LOG2E_Q32 =
//                     6196328019 = round(log2(e) * 2^32).
// tests/machine/fixed_point_model.py computes the same functions from this
// text in Python, and the tests compare them over many arguments.
#pragma once

#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <stdexcept>

BEM_NAMESPACE_BEGIN

/// A Q16.16 fixed-point number (see the file comment).
struct q16_16 {
  std::int32_t raw = 0;

  static constexpr int fraction_bits = 16;
  static constexpr double scale = 65536.0;
  static constexpr std::int32_t one_raw = 1 << 16;

  static constexpr q16_16 from_raw(std::int32_t r) noexcept { return q16_16{r}; }
  /// Nearest representable value, ties away from zero, saturated to the
  /// range; NaN is an error. (std::round of a double is exact IEEE
  /// arithmetic: the same on every machine.)
  static q16_16 from_double(double v) {
    if (std::isnan(v)) throw std::invalid_argument("q16_16::from_double: NaN has no fixed-point value");
    const double r = std::round(v * scale);
    if (r >= static_cast<double>(std::numeric_limits<std::int32_t>::max()))
      return {std::numeric_limits<std::int32_t>::max()};
    if (r <= static_cast<double>(std::numeric_limits<std::int32_t>::min()))
      return {std::numeric_limits<std::int32_t>::min()};
    return {static_cast<std::int32_t>(r)};
  }
  constexpr double to_double() const noexcept { return static_cast<double>(raw) / scale; }

  friend constexpr bool operator==(q16_16, q16_16) noexcept = default;
  friend constexpr auto operator<=>(q16_16, q16_16) noexcept = default;

  friend constexpr q16_16 operator+(q16_16 a, q16_16 b) noexcept { return saturate(std::int64_t{a.raw} + b.raw); }
  friend constexpr q16_16 operator-(q16_16 a, q16_16 b) noexcept { return saturate(std::int64_t{a.raw} - b.raw); }
  friend constexpr q16_16 operator*(q16_16 a, q16_16 b) noexcept {
    const std::int64_t p = std::int64_t{a.raw} * b.raw + (std::int64_t{1} << 15);
    return saturate(p >> 16);  // arithmetic shift: floor, so +2^15 rounds to nearest
  }

  /// A 64-bit value saturated to Q16.16's range.
  static constexpr q16_16 saturate(std::int64_t v) noexcept {
    return {static_cast<std::int32_t>(std::clamp<std::int64_t>(v, std::numeric_limits<std::int32_t>::min(),
                                                               std::numeric_limits<std::int32_t>::max()))};
  }
};

namespace fixed {

__extension__ typedef unsigned __int128 uint128;  // GCC/Clang: the products below need 128 bits

inline constexpr std::uint64_t LN2_Q32 = 2977044472u;      ///< round(ln 2 * 2^32)
inline constexpr std::uint64_t LOG2E_Q32 = 6196328019u;    ///< round(log2(e) * 2^32)
inline constexpr std::uint64_t one_q32 = std::uint64_t{1} << 32;

/// EXP2_NEG_Q32[j] = round(2^(-2^-j) * 2^32), j = 1..16 (index 0 unused).
inline constexpr std::array<std::uint64_t, 17> EXP2_NEG_Q32 = {
    0,          3037000500, 3611622603, 3938502376, 4112874773, 4202935003, 4248701965,
    4271771996, 4283353945, 4289156690, 4292061010, 4293513907, 4294240540, 4294603903,
    4294785595, 4294876445, 4294921870};

/// floor(sqrt(x)), exactly. At run time a double's square root is the first
/// guess and integer steps correct it, so the answer is the exact floor
/// whatever the guess's rounding (the same bits on every machine).
constexpr std::uint64_t isqrt(std::uint64_t x) noexcept {
  if (x < 2) return x;
  std::uint64_t r = 0;
  if (std::is_constant_evaluated()) {
    for (int b = 31; b >= 0; --b) {  // bit by bit: the result has at most 32 bits
      const std::uint64_t c = r | (std::uint64_t{1} << b);
      if (c * c <= x) r = c;
    }
    return r;
  }
  r = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::sqrt(static_cast<double>(x))), 0xFFFFFFFFu);
  while (r * r > x) --r;
  while (r < 0xFFFFFFFFu && (r + 1) * (r + 1) <= x) ++r;
  return r;
}

/// log2(n) in Q16.16, truncated, for n >= 1 (0 for n = 0 is not defined:
/// the caller passes max(1, n)).
constexpr std::uint32_t log2_q16(std::uint64_t n) noexcept {
  if (n == 0) n = 1;
  const int k = std::bit_width(n) - 1;
  uint128 y = static_cast<uint128>(n) << (63 - k);  // Q1.63 in [2^63, 2^64)
  std::uint32_t frac = 0;
  for (int i = 0; i < 16; ++i) {
    y = (y * y) >> 63;  // Q2.63 in [2^63, 2^65)
    frac <<= 1;
    if (y >= (static_cast<uint128>(1) << 64)) {
      frac |= 1u;
      y >>= 1;
    }
  }
  return (static_cast<std::uint32_t>(k) << 16) | frac;
}

/// ln(n) in Q16.16 for n >= 1: floor(log2_q16(n) * LN2_Q32 / 2^32).
constexpr std::uint32_t ln_q16(std::uint64_t n) noexcept {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(log2_q16(n)) * LN2_Q32) >> 32);
}

/// sqrt of a non-negative Q16.16 raw value, in Q16.16: isqrt(x * 2^16).
constexpr std::uint32_t sqrt_q16(std::uint64_t x_raw) noexcept {
  return static_cast<std::uint32_t>(isqrt(x_raw << 16));
}

/// 2^(-y) in Q0.32 for a non-negative Q16.16 raw value y.
constexpr std::uint64_t exp2_neg_q32(std::uint64_t y_raw) noexcept {
  const std::uint64_t a = y_raw >> 16;
  const std::uint64_t f = y_raw & 0xFFFFu;
  std::uint64_t r = one_q32;
  for (int j = 1; j <= 16; ++j)
    if ((f >> (16 - j)) & 1u) r = static_cast<std::uint64_t>((static_cast<uint128>(r) * EXP2_NEG_Q32[j]) >> 32);
  return a >= 33 ? 0 : r >> a;
}

/// e^(-d) in Q0.32 for a non-negative Q16.16 raw value d.
constexpr std::uint64_t exp_neg_q32(std::uint64_t d_raw) noexcept {
  const uint128 y = (static_cast<uint128>(d_raw) * LOG2E_Q32) >> 32;
  return y >= (static_cast<uint128>(1) << 40) ? 0 : exp2_neg_q32(static_cast<std::uint64_t>(y));
}

}  // namespace fixed

BEM_NAMESPACE_END
