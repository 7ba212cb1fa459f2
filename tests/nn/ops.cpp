// bem::nn's matrix-product kernel (ops.hpp gemm_acc, behind linear_forward and
// linear_backward): every tile shape and tail against the plain triple loop,
// in float and double, for row-major and transposed A; and the parameter
// initialisers against their documented distributions.
#include <bem/nn/ops.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

using namespace bem::nn;

namespace {
template <class S>
double worst_gemm_error(int M, int N, int K, bool transposed_a, std::uint64_t seed) {
  bem::xoshiro256ss rng(seed);
  auto fill = [&](std::vector<S>& v) {
    for (auto& x : v) x = static_cast<S>(2 * rng.uniform01() - 1);
  };
  std::vector<S> A(static_cast<std::size_t>(M) * static_cast<std::size_t>(K)), B(static_cast<std::size_t>(K) * static_cast<std::size_t>(N)),
      C(static_cast<std::size_t>(M) * static_cast<std::size_t>(N));
  fill(A);
  fill(B);
  fill(C);
  std::vector<double> ref(C.begin(), C.end());
  const std::size_t rsa = transposed_a ? 1 : static_cast<std::size_t>(K), csa = transposed_a ? static_cast<std::size_t>(M) : 1;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k)
        ref[static_cast<std::size_t>(m) * static_cast<std::size_t>(N) + static_cast<std::size_t>(n)] +=
            static_cast<double>(A[static_cast<std::size_t>(m) * rsa + static_cast<std::size_t>(k) * csa]) *
            static_cast<double>(B[static_cast<std::size_t>(k) * static_cast<std::size_t>(N) + static_cast<std::size_t>(n)]);
  gemm_acc(C.data(), static_cast<std::size_t>(N), A.data(), rsa, csa, B.data(), static_cast<std::size_t>(N), M, N, K);
  double worst = 0;
  for (std::size_t i = 0; i < C.size(); ++i) worst = std::max(worst, std::abs(static_cast<double>(C[i]) - ref[i]));
  return worst;
}
}  // namespace

TEST_CASE("gemm_acc matches the plain loop for every tile shape and tail") {
  std::uint64_t seed = 1;
  for (int M : {1, 3, 8, 9, 17})
    for (int N : {1, 5, 16, 33, 70, 290})
      for (int K : {1, 7, 64, 130})
        for (bool tr : {false, true}) {
          CAPTURE(M);
          CAPTURE(N);
          CAPTURE(K);
          CAPTURE(tr);
          CHECK(worst_gemm_error<double>(M, N, K, tr, seed) < 1e-12 * K);
          CHECK(worst_gemm_error<float>(M, N, K, tr, seed) < 2e-6 * K);
          ++seed;
        }
}

TEST_CASE("linear_forward agrees with the plain loop to rounding") {
  // Each output accumulates over the inputs in ascending order from its
  // initial value (bias or zero), as "for i: y += x_i w_i" does.
  const int T = 11, I = 13, O = 37;
  bem::xoshiro256ss rng(7);
  std::vector<double> X(T * I), W(I * O), b(O), Y(T * O), R(T * O);
  for (auto* v : {&X, &W, &b})
    for (auto& x : *v) x = 2 * rng.uniform01() - 1;
  linear_forward(Y.data(), X.data(), W.data(), b.data(), T, I, O);
  for (int t = 0; t < T; ++t)
    for (int o = 0; o < O; ++o) {
      double y = b[static_cast<std::size_t>(o)];
      for (int i = 0; i < I; ++i) y = std::fma(X[static_cast<std::size_t>(t * I + i)], W[static_cast<std::size_t>(i * O + o)], y);
      R[static_cast<std::size_t>(t * O + o)] = y;
    }
  double worst = 0;
  for (std::size_t i = 0; i < Y.size(); ++i) worst = std::max(worst, std::abs(Y[i] - R[i]));
  CHECK(worst < 1e-14);
}

TEST_CASE("hsum adds every lane") {
  using V = bem::nn::detail::simd<double>::type;
  constexpr int L = bem::nn::detail::simd<double>::lanes;
  V v{};
  double want = 0;
  for (int l = 0; l < L; ++l) {
    v[l] = 1.0 + l * 0.25;
    want += v[l];
  }
  CHECK(bem::nn::detail::hsum<double>(v) == doctest::Approx(want).epsilon(1e-15));
  using F = bem::nn::detail::simd<float>::type;
  F f{};
  for (int l = 0; l < bem::nn::detail::simd<float>::lanes; ++l) f[l] = static_cast<float>(l + 1);
  const int n = bem::nn::detail::simd<float>::lanes;
  CHECK(bem::nn::detail::hsum<float>(f) == static_cast<float>(n * (n + 1) / 2));
}

TEST_CASE("each initialiser draws its documented distribution, reproducibly") {
  // Fixed seed, so the moments below are fixed numbers; the tolerances are
  // 4 to 6 standard errors of each, and a wrong scale or range is far outside.
  param_table t;
  const std::size_t xavier = t.add("xavier", 60, 40, init_kind::xavier);
  const std::size_t normal = t.add("normal", 1, 20000, init_kind::normal);
  const std::size_t ones = t.add("ones", 3, 3, init_kind::ones);
  const std::size_t zeros = t.add("zeros", 3, 3, init_kind::zeros);
  const std::size_t fan = t.add("fan", 1, 5000, init_kind::uniform_fan, true, 9);
  const std::size_t e88 = t.add("e88", 1, 20000, init_kind::e88_a_log);
  const std::size_t mamba = t.add("mamba", 1, 20000, init_kind::mamba_a_log);
  const std::size_t dt = t.add("dt", 1, 20000, init_kind::dt_bias);
  const std::size_t eye = t.add("eye", 6, 6, init_kind::scaled_eye);
  const std::size_t mamba2 = t.add("mamba2", 1, 20000, init_kind::mamba_a_log);
  std::vector<double> p(t.size());
  t.initialise(p.data(), 17);
  struct moments {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, mean = 0, square = 0;
  };
  auto over = [&](std::size_t off, std::size_t n, auto f) {
    moments m;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = f(p[off + i]);
      m.lo = std::min(m.lo, v);
      m.hi = std::max(m.hi, v);
      m.mean += v / static_cast<double>(n);
      m.square += v * v / static_cast<double>(n);
    }
    return m;
  };
  const auto same = [](double v) { return v; };

  // Xavier: U(-a, a), a = sqrt(6 / (60 + 40)); variance a^2 / 3.
  const double a = std::sqrt(6.0 / 100.0);
  const moments x = over(xavier, 2400, same);
  CHECK(x.lo >= -a);
  CHECK(x.hi <= a);
  CHECK(x.hi > 0.99 * a);
  CHECK(std::fabs(x.mean) < 0.02);
  CHECK(x.square == doctest::Approx(a * a / 3).epsilon(0.08));
  // N(0, 1): mean, variance and the mass within one standard deviation.
  const moments g = over(normal, 20000, same);
  CHECK(std::fabs(g.mean) < 0.04);
  CHECK(g.square == doctest::Approx(1.0).epsilon(0.05));
  const moments inside = over(normal, 20000, [](double v) { return std::fabs(v) < 1 ? 1.0 : 0.0; });
  CHECK(inside.mean == doctest::Approx(0.6827).epsilon(0.02));
  for (int i = 0; i < 9; ++i) {
    CHECK(p[ones + static_cast<std::size_t>(i)] == 1.0);
    CHECK(p[zeros + static_cast<std::size_t>(i)] == 0.0);
  }
  // U(-1/sqrt(fan), 1/sqrt(fan)), fan = 9: variance 1/27.
  const moments f = over(fan, 5000, same);
  CHECK(f.lo >= -1.0 / 3);
  CHECK(f.hi <= 1.0 / 3);
  CHECK(f.square == doctest::Approx(1.0 / 27).epsilon(0.08));
  // E88's A = exp(A_log) ~ U(0, 16), mean 8; Mamba2's ~ U(1, 16), mean 8.5.
  const auto expo = [](double v) { return std::exp(v); };
  const moments ae = over(e88, 20000, expo), am = over(mamba, 20000, expo);
  CHECK(ae.lo > 0);
  CHECK(ae.lo < 0.1);
  CHECK(ae.hi <= 16 * (1 + 1e-12));
  CHECK(ae.mean == doctest::Approx(8.0).epsilon(0.02));
  CHECK(am.lo >= 1 - 1e-12);
  CHECK(am.lo < 1.05);
  CHECK(am.hi <= 16 * (1 + 1e-12));
  CHECK(am.mean == doctest::Approx(8.5).epsilon(0.02));
  // dt = softplus(dt_bias) is log-uniform on [1e-3, 0.1].
  const moments ld = over(dt, 20000, [](double v) { return std::log(std::log1p(std::exp(v))); });
  CHECK(ld.lo >= std::log(1e-3) - 1e-9);
  CHECK(ld.hi <= std::log(0.1) + 1e-9);
  CHECK(ld.mean == doctest::Approx((std::log(1e-3) + std::log(0.1)) / 2).epsilon(0.01));
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) CHECK(p[eye + static_cast<std::size_t>(r * 6 + c)] == (r == c ? 0.95 : 0.0));

  // The same seed gives the same values; another seed, or another block of
  // the same kind, gives others.
  std::vector<double> again(t.size()), other(t.size());
  t.initialise(again.data(), 17);
  t.initialise(other.data(), 18);
  CHECK(again == p);
  CHECK(other[normal] != p[normal]);
  CHECK(p[mamba2] != p[mamba]);
}
