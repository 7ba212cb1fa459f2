// Intervals, t quantiles and summaries against known values.
#include <doctest/doctest.h>
#include <metrics/statistics.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace bem::metrics;

TEST_CASE("Wilson interval matches known values") {
  const interval a = wilson_interval(8, 10);
  CHECK(a.method == "wilson");
  CHECK(a.low == doctest::Approx(0.4902).epsilon(0.0001));
  CHECK(a.high == doctest::Approx(0.9433).epsilon(0.0001));

  const interval zero = wilson_interval(0, 10);
  CHECK(zero.low == 0.0);
  CHECK(zero.high == doctest::Approx(0.2775).epsilon(0.0005));
  const interval all = wilson_interval(10, 10);
  CHECK(all.low == doctest::Approx(0.7225).epsilon(0.0005));
  CHECK(all.high == 1.0);

  const interval half = wilson_interval(50, 100);  // symmetric about 1/2
  CHECK(half.low + half.high == doctest::Approx(1.0));
  CHECK(half.low == doctest::Approx(0.4038).epsilon(0.0005));

  const interval none = wilson_interval(0, 0);
  CHECK(none.low == 0.0);
  CHECK(none.high == 1.0);

  // z = 1 narrows it.
  const interval narrow = wilson_interval(8, 10, 1.0);
  CHECK(narrow.low > a.low);
  CHECK(narrow.high < a.high);

  CHECK_THROWS_AS(wilson_interval(11, 10), std::invalid_argument);
  CHECK_THROWS_AS(wilson_interval(-1, 10), std::invalid_argument);
  CHECK_THROWS_AS(wilson_interval(1, 2, 0.0), std::invalid_argument);
}

TEST_CASE("Student t 0.975 quantiles") {
  // The usual 4-decimal table values.
  CHECK(std::fabs(student_t_975(1) - 12.7062) < 5e-5);
  CHECK(std::fabs(student_t_975(2) - 4.3027) < 5e-5);
  CHECK(std::fabs(student_t_975(10) - 2.2281) < 5e-5);
  CHECK(std::fabs(student_t_975(30) - 2.0423) < 5e-5);
  CHECK(std::fabs(student_t_975(100) - 1.9840) < 5e-5);
  // Beyond the table, against 30-digit values (mpmath), to 1e-6 absolute.
  struct known {
    std::int64_t df;
    double t;
  };
  for (const known k : {known{31, 2.03951344639641}, known{35, 2.03010792825034}, known{40, 2.02107539030627},
                        known{50, 2.00855911210076}, known{60, 2.00029782201426}, known{100, 1.98397151852355},
                        known{120, 1.97993040508244}, known{1000, 1.96233908082641},
                        known{100000, 1.95998770753461}}) {
    CAPTURE(k.df);
    CHECK(std::fabs(student_t_975(k.df) - k.t) < 1e-6);
  }
  // Decreasing in df, towards z.
  for (std::int64_t df = 1; df < 200; ++df) CHECK(student_t_975(df) > student_t_975(df + 1));
  CHECK(student_t_975(10000000) == doctest::Approx(z_975).epsilon(1e-6));
  CHECK_THROWS_AS(student_t_975(0), std::invalid_argument);
}

TEST_CASE("summarize and t_interval") {
  const std::vector<double> xs = {2, 4, 4, 4, 5, 5, 7, 9};
  const summary s = summarize(xs);
  CHECK(s.n == 8);
  CHECK(s.mean == doctest::Approx(5.0));
  CHECK(s.stddev == doctest::Approx(std::sqrt(32.0 / 7.0)));
  const interval iv = t_interval(s);
  CHECK(iv.method == "t");
  const double half = 2.36462425159279 * std::sqrt(32.0 / 7.0) / std::sqrt(8.0);
  CHECK(iv.low == doctest::Approx(5.0 - half));
  CHECK(iv.high == doctest::Approx(5.0 + half));

  // Large offset: a naive sum-of-squares formula would lose every digit.
  const std::vector<double> big = {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
  const summary b = summarize(big);
  CHECK(b.mean == doctest::Approx(1e9 + 10));
  CHECK(b.stddev == doctest::Approx(std::sqrt(30.0)).epsilon(1e-9));

  const summary empty = summarize(std::vector<double>{});
  CHECK(empty.n == 0);
  CHECK(std::isnan(empty.mean));
  CHECK(std::isnan(empty.stddev));

  const std::vector<double> one_value = {0.25};
  const summary one = summarize(one_value);
  CHECK(one.n == 1);
  CHECK(one.mean == 0.25);
  CHECK(std::isnan(one.stddev));
  const interval point = t_interval(one);
  CHECK(point.low == 0.25);
  CHECK(point.high == 0.25);
  CHECK(point.method == "t (n<2, no interval)");

  const std::vector<double> same = {3, 3, 3};
  const summary z = summarize(same);
  CHECK(z.stddev == 0.0);
  CHECK(t_interval(z).low == 3.0);
}

TEST_CASE("cluster t interval") {
  // Equal cluster sizes: exactly the t interval of the cluster means.
  const std::vector<double> totals = {3, 1, 4, 2, 4};
  const std::vector<double> sizes = {4, 4, 4, 4, 4};
  std::vector<double> means;
  for (std::size_t i = 0; i < totals.size(); ++i) means.push_back(totals[i] / sizes[i]);
  const interval want = t_interval(summarize(means));
  const interval got = cluster_t_interval(totals, sizes);
  CHECK(got.method == "t over clusters");
  CHECK(got.low == doctest::Approx(want.low));
  CHECK(got.high == doctest::Approx(want.high));

  // Unequal sizes: centred on the pooled ratio (hand-computed).
  const std::vector<double> t2 = {3, 2, 4, 3};
  const std::vector<double> m2 = {4, 3, 4, 3};
  const interval r = cluster_t_interval(t2, m2);
  CHECK(r.low == doctest::Approx(0.5919942319132425));
  CHECK(r.high == doctest::Approx(1.1222914823724717));
  CHECK((r.low + r.high) / 2 == doctest::Approx(12.0 / 14.0));

  // Empty clusters are ignored; one cluster gives a point.
  const std::vector<double> t3 = {3, 0};
  const std::vector<double> m3 = {4, 0};
  const interval p = cluster_t_interval(t3, m3);
  CHECK(p.low == 0.75);
  CHECK(p.high == 0.75);
  CHECK(p.method == "t over clusters (n<2, no interval)");
  CHECK_THROWS_AS(cluster_t_interval(t3, m2), std::invalid_argument);
}

TEST_CASE("compensated sum") {
  std::vector<double> xs = {1.0, 1e100, 1.0, -1e100};
  CHECK(compensated_sum(xs) == 2.0);
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> infs = {1.0, inf, inf};
  CHECK(compensated_sum(infs) == inf);
}

TEST_CASE("quantile interpolates between order statistics (type 7)") {
  const std::vector<double> xs = {4.0, 1.0, 3.0, 2.0};  // unsorted on purpose
  CHECK(quantile(xs, 0.0) == 1.0);
  CHECK(quantile(xs, 1.0) == 4.0);
  CHECK(quantile(xs, 0.5) == doctest::Approx(2.5));
  CHECK(quantile(xs, 0.25) == doctest::Approx(1.75));   // h = 0.75
  CHECK(quantile(xs, 0.99) == doctest::Approx(3.97));   // h = 2.97
  CHECK(quantile({7.0}, 0.99) == 7.0);
  CHECK(std::isnan(quantile({}, 0.5)));
  CHECK_THROWS_AS(quantile(xs, 1.5), std::invalid_argument);
  CHECK_THROWS_AS(quantile(xs, -0.1), std::invalid_argument);
}
