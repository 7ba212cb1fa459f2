// Small, dependency-free statistics for benchmark results: confidence
// intervals for proportions and means, and a numerically careful summary.
//
// Definitions (all intervals are two-sided, nominal 95% by default):
//
//   wilson_interval(s, n, z)   Wilson score interval for a binomial proportion
//                              p = s / n:
//                                centre = (p + z^2/(2n)) / (1 + z^2/n)
//                                half   = z sqrt(p(1-p)/n + z^2/(4n^2)) / (1 + z^2/n)
//                              clamped to [0, 1]; method "wilson". It stays
//                              inside [0, 1] and is honest at p = 0 or 1 (where
//                              the normal "Wald" interval collapses to a point).
//                              n == 0 gives {0, 1}: no data, no information.
//
//   student_t_975(df)          the 0.975 quantile of Student's t with df degrees
//                              of freedom (so +-t covers 95%). Exact to better
//                              than 1e-6 : a table for df 1..30 (computed with
//                              30-digit arithmetic), and beyond it the
//                              Cornish-Fisher expansion of Abramowitz & Stegun
//                              26.7.5 to the 1/df^4 term, whose error is below
//                              1e-6 for df > 30.
//
//   summarize(xs)              n, mean and the SAMPLE standard deviation
//                              (divisor n - 1) by Welford's one-pass update,
//                              which does not lose precision when the mean is
//                              large relative to the spread. Undefined values
//                              are NaN: the mean of n == 0 values, the
//                              standard deviation of n < 2 values.
//
//   t_interval(s)              mean +- student_t_975(n - 1) * stddev / sqrt(n),
//                              method "t". For n < 2 there is no spread estimate;
//                              the result is the point {mean, mean} with method
//                              "t (n<2, no interval)", so a reader can never
//                              mistake it for a precise estimate. A point
//                              interval also results when every value is equal
//                              (stddev 0), e.g. per-sequence accuracies that are
//                              all 1; that is the t interval's known weakness,
//                              not a claim of certainty.
//
//   cluster_t_interval(totals, sizes)
//                              interval for a ratio estimator over independent
//                              clusters (e.g. sequences), whose members (e.g.
//                              positions) may be dependent:
//                                r       = sum(totals) / sum(sizes)
//                                var(r)  = n / (n - 1) * sum_i (totals_i - r sizes_i)^2 / sum(sizes)^2
//                                r +- student_t_975(n - 1) * sqrt(var(r)),
//                              n = number of clusters with sizes_i > 0; method
//                              "t over clusters". This is the linearized
//                              (cluster-robust, "CR1") variance of a ratio; when
//                              every cluster has the same size it equals
//                              t_interval(summarize(totals_i / sizes_i)) exactly.
//                              n < 2 gives the point {r, r} with method
//                              "t over clusters (n<2, no interval)".
//
//   quantile(xs, q)            the q-quantile, 0 <= q <= 1, interpolated
//                              linearly between order statistics (Hyndman and
//                              Fan's type 7, R's and NumPy's default):
//                                h = q (n - 1), x_(floor h) + (h - floor h)(x_(floor h + 1) - x_(floor h))
//                              so q = 0 is the minimum, q = 1 the maximum and
//                              q = 0.5 the usual median. NaN for n == 0.
#pragma once

#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace metrics {

/// A confidence interval and the name of the method that produced it.
struct interval {
  double low = 0.0;
  double high = 0.0;
  std::string method;
};

/// The z of a two-sided 95% normal interval, the 0.975 quantile of N(0, 1).
inline constexpr double z_975 = 1.959963984540054;

/// Wilson score interval for `successes` out of `n`; {0, 1} when n == 0.
/// Throws std::invalid_argument unless 0 <= successes <= n and z > 0.
inline interval wilson_interval(std::int64_t successes, std::int64_t n, double z = z_975) {
  if (n < 0 || successes < 0 || successes > n)
    throw std::invalid_argument("wilson_interval: need 0 <= successes <= n, got " + std::to_string(successes) +
                                " of " + std::to_string(n));
  if (!(z > 0.0)) throw std::invalid_argument("wilson_interval: z must be positive");
  if (n == 0) return {0.0, 1.0, "wilson"};
  const double nn = static_cast<double>(n);
  const double p = static_cast<double>(successes) / nn;
  const double z2 = z * z;
  const double denom = 1.0 + z2 / nn;
  const double centre = (p + z2 / (2.0 * nn)) / denom;
  const double half = z * std::sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn)) / denom;
  double lo = centre - half;
  double hi = centre + half;
  // At p = 0 (p = 1) the bound is 0 (1) analytically; force it so rounding
  // cannot leave a tiny positive (sub-one) value.
  if (successes == 0) lo = 0.0;
  if (successes == n) hi = 1.0;
  if (lo < 0.0) lo = 0.0;
  if (hi > 1.0) hi = 1.0;
  return {lo, hi, "wilson"};
}

/// The 0.975 quantile of Student's t with `df` >= 1 degrees of freedom.
/// Throws std::invalid_argument for df < 1.
inline double student_t_975(std::int64_t df) {
  // t_{0.975, df} for df = 1..30, to 12 significant digits (mpmath, 30 digits).
  static constexpr std::array<double, 30> table = {
      12.7062047361747, 4.30265272974946, 3.18244630528371, 2.77644510519779, 2.57058183563632,
      2.44691185114497, 2.36462425159279, 2.30600413520417, 2.26215716279821, 2.22813885198627,
      2.20098516009164, 2.17881282966723, 2.16036865646279, 2.14478668791780, 2.13144954555978,
      2.11990529922125, 2.10981557783332, 2.10092204024104, 2.09302405440831, 2.08596344726586,
      2.07961384472768, 2.07387306790403, 2.06865761041905, 2.06389856162803, 2.05953855275330,
      2.05552943864287, 2.05183051648029, 2.04840714179525, 2.04522964213270, 2.04227245630124};
  if (df < 1) throw std::invalid_argument("student_t_975: degrees of freedom must be >= 1, got " + std::to_string(df));
  if (df <= 30) return table[static_cast<std::size_t>(df - 1)];
  // Cornish-Fisher expansion (Abramowitz & Stegun 26.7.5).
  const double z = z_975;
  const double z2 = z * z;
  const double z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
  const double g1 = (z3 + z) / 4.0;
  const double g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
  const double g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
  const double g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92160.0;
  const double v = static_cast<double>(df);
  return z + (g1 + (g2 + (g3 + g4 / v) / v) / v) / v;
}

/// Count, mean and sample standard deviation (divisor n - 1).
struct summary {
  std::int64_t n = 0;
  double mean = std::numeric_limits<double>::quiet_NaN();    ///< NaN when n == 0
  double stddev = std::numeric_limits<double>::quiet_NaN();  ///< NaN when n < 2
};

/// Welford's one-pass mean and variance.
inline summary summarize(std::span<const double> xs) {
  summary s;
  double mean = 0.0;
  double m2 = 0.0;
  std::int64_t n = 0;
  for (double x : xs) {
    ++n;
    const double delta = x - mean;
    mean += delta / static_cast<double>(n);
    m2 += delta * (x - mean);
  }
  s.n = n;
  if (n >= 1) s.mean = mean;
  if (n >= 2) s.stddev = std::sqrt((m2 > 0.0 ? m2 : 0.0) / static_cast<double>(n - 1));
  return s;
}

/// Student t interval for the mean; the point {mean, mean} for n < 2 (see above).
inline interval t_interval(const summary& s) {
  if (s.n < 2) return {s.mean, s.mean, "t (n<2, no interval)"};
  const double half = student_t_975(s.n - 1) * s.stddev / std::sqrt(static_cast<double>(s.n));
  return {s.mean - half, s.mean + half, "t"};
}

namespace detail {
/// Neumaier's compensated running sum. When the plain sum is not finite
/// (an infinite or NaN term, or overflow) it is returned as is, so +inf
/// terms give +inf rather than the NaN of inf - inf in the compensation.
struct neumaier_sum {
  double sum = 0.0;
  double c = 0.0;
  void add(double x) noexcept {
    const double t = sum + x;
    if (std::isfinite(t)) c += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  double value() const noexcept { return std::isfinite(sum) ? sum + c : sum; }
};
}  // namespace detail

/// Sum of a range by Neumaier's compensated summation (exact for
/// {1, 1e100, 1, -1e100}); +inf and NaN terms propagate as in a plain sum.
inline double compensated_sum(std::span<const double> xs) {
  detail::neumaier_sum s;
  for (double x : xs) s.add(x);
  return s.value();
}

/// Cluster-robust t interval of the ratio sum(totals) / sum(sizes) (see above).
/// Clusters with sizes_i <= 0 are ignored. Throws std::invalid_argument when
/// the spans differ in length. With no cluster of positive size the result is
/// {NaN, NaN}.
inline interval cluster_t_interval(std::span<const double> totals, std::span<const double> sizes) {
  if (totals.size() != sizes.size())
    throw std::invalid_argument("cluster_t_interval: totals and sizes differ in length");
  detail::neumaier_sum acc_t, acc_m;
  std::int64_t n = 0;
  for (std::size_t i = 0; i < totals.size(); ++i) {
    if (!(sizes[i] > 0.0)) continue;
    ++n;
    acc_t.add(totals[i]);
    acc_m.add(sizes[i]);
  }
  const double sum_t = acc_t.value();
  const double sum_m = acc_m.value();
  if (n == 0) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan, "t over clusters (n<2, no interval)"};
  }
  const double r = sum_t / sum_m;
  if (n < 2) return {r, r, "t over clusters (n<2, no interval)"};
  double ss = 0.0;
  for (std::size_t i = 0; i < totals.size(); ++i) {
    if (!(sizes[i] > 0.0)) continue;
    const double e = totals[i] - r * sizes[i];
    ss += e * e;
  }
  const double nn = static_cast<double>(n);
  const double se = std::sqrt(nn / (nn - 1.0) * ss) / sum_m;
  const double half = student_t_975(n - 1) * se;
  return {r - half, r + half, "t over clusters"};
}

/// The q-quantile of xs by linear interpolation (type 7, see above). Throws
/// std::invalid_argument for q outside [0, 1].
inline double quantile(std::vector<double> xs, double q) {
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("quantile: q must lie in [0, 1]");
  if (xs.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(xs.begin(), xs.end());
  const double h = q * static_cast<double>(xs.size() - 1);
  const auto lo = static_cast<std::size_t>(h);
  const auto hi = std::min(lo + 1, xs.size() - 1);
  return xs[lo] + (h - static_cast<double>(lo)) * (xs[hi] - xs[lo]);
}

}  // namespace metrics
BEM_NAMESPACE_END
