// bem::nn's matrix-product kernel (ops.hpp gemm_acc, behind linear_forward and
// linear_backward): every tile shape and tail against the plain triple loop,
// in float and double, for row-major and transposed A.
#include <bem/nn/ops.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
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
  using V = detail::simd<double>::type;
  constexpr int L = detail::simd<double>::lanes;
  V v{};
  double want = 0;
  for (int l = 0; l < L; ++l) {
    v[l] = 1.0 + l * 0.25;
    want += v[l];
  }
  CHECK(detail::hsum<double>(v) == doctest::Approx(want).epsilon(1e-15));
  using F = detail::simd<float>::type;
  F f{};
  for (int l = 0; l < detail::simd<float>::lanes; ++l) f[l] = static_cast<float>(l + 1);
  const int n = detail::simd<float>::lanes;
  CHECK(detail::hsum<float>(f) == static_cast<float>(n * (n + 1) / 2));
}
