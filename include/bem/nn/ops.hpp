// bem::nn — the elementary operations of the small sequence models, each as
// an explicit forward function and, where it has parameters or inputs that
// need gradients, an explicit backward function (llm.c style: flat buffers,
// row-major, no autodiff, no hidden allocation).
//
// Conventions used by every file of include/bem/nn:
//   * a sequence's activations are row-major [T x width] arrays;
//   * a linear map's weight is stored input-major, W[i * O + o] (I x O), so
//     that y = x W (+ b). This is the transpose of PyTorch's nn.Linear.weight;
//     the layout lets y = x W, dW = x^T dy and dx = dy W^T all run through
//     one register-blocked kernel (gemm_acc) whose SIMD vectors lie along a
//     contiguous output index, with no reassociation of sums (no fast-math);
//   * backward functions ACCUMULATE into parameter gradients (+=) and
//     OVERWRITE input gradients unless their name says otherwise;
//   * everything is a template on the scalar type S: float for training,
//     double for the finite-difference gradient checks of tests/nn.
#pragma once

#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace nn {

// ---------------------------------------------------------------------------
// Scalar nonlinearities.
//
// tanh is the inner loop of E88 (H * n * d_v evaluations per token, twice with
// checkpoint recomputation). For float it is the rational minimax
// approximation used by Eigen (generic_fast_tanh_float): odd polynomial of
// degree 13 over even polynomial of degree 6, input clamped to +-7.9053;
// maximum absolute error 4e-7 against std::tanh (a few float ulps near +-1;
// tests/nn checks 5e-7 over [-12, 12]). Unlike std::tanh it is branch-free arithmetic, so
// loops over it vectorise. For double (gradient checks) std::tanh is used.
// ---------------------------------------------------------------------------

inline float tanh_s(float x) noexcept {
  constexpr float c = 7.90531110763549805f;
  x = x < -c ? -c : (x > c ? c : x);
  const float x2 = x * x;
  float p = -2.76076847742355e-16f;
  p = p * x2 + 2.00018790482477e-13f;
  p = p * x2 + -8.60467152213735e-11f;
  p = p * x2 + 5.12229709037114e-08f;
  p = p * x2 + 1.48572235717979e-05f;
  p = p * x2 + 6.37261928875436e-04f;
  p = p * x2 + 4.89352455891786e-03f;
  p = p * x;
  float q = 1.19825839466702e-06f;
  q = q * x2 + 1.18534705686654e-04f;
  q = q * x2 + 2.26843463243900e-03f;
  q = q * x2 + 4.89352518554385e-03f;
  return p / q;
}
inline double tanh_s(double x) noexcept { return std::tanh(x); }

/// Logistic sigmoid, 1 / (1 + e^-x), written as 0.5 + 0.5 tanh(x / 2) so the
/// float version shares tanh's vectorisable form.
template <class S>
inline S sigmoid_s(S x) noexcept {
  return S(0.5) + S(0.5) * tanh_s(S(0.5) * x);
}

/// softplus(x) = log(1 + e^x), exact form for large x.
template <class S>
inline S softplus_s(S x) noexcept {
  return x > S(20) ? x : std::log1p(std::exp(x));
}

/// Inverse of softplus: log(e^y - 1), y > 0.
inline double inv_softplus(double y) { return y + std::log(-std::expm1(-y)); }

/// silu(x) = x sigmoid(x); silu'(x) = s (1 + x (1 - s)).
template <class S>
inline S silu_s(S x) noexcept {
  return x * sigmoid_s(x);
}
template <class S>
inline S silu_grad_s(S x) noexcept {
  const S s = sigmoid_s(x);
  return s * (S(1) + x * (S(1) - s));
}

/// Dot product with 8 independent partial sums: deterministic, and the
/// partial-sum form vectorises without reassociating floating-point sums.
template <class S>
inline S dot(const S* a, const S* b, int n) noexcept {
  S acc[8] = {};
  int i = 0;
  for (; i + 8 <= n; i += 8)
    for (int l = 0; l < 8; ++l) acc[l] += a[i + l] * b[i + l];
  for (; i < n; ++i) acc[0] += a[i] * b[i];
  return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

// ---------------------------------------------------------------------------
// Linear maps, W input-major (I x O).
// ---------------------------------------------------------------------------

// The matrix products run through one register-blocked kernel, C += A B:
// a tile of MR rows x 2 SIMD vectors of C stays in registers while k runs
// over the shared dimension in ascending order, each C element accumulating
// c += a_k b_k from its initial value (one fused multiply-add where the
// target has FMA and the compiler contracts, as it does the plain loop).
// That is the per-element sequence of the plain loop "for k: c += a_k b_k",
// so the results do not depend on the tiling. SIMD vectors are GCC/Clang
// vector extensions (GCC >= 12 for __builtin_shufflevector) sized to the
// target: 64 bytes with AVX-512, 32 with AVX, 16 otherwise.
namespace detail {
#if defined(__AVX512F__)
inline constexpr std::size_t simd_bytes = 64;
inline constexpr int gemm_mr = 8;
#elif defined(__AVX__)
inline constexpr std::size_t simd_bytes = 32;
inline constexpr int gemm_mr = 4;
#else
inline constexpr std::size_t simd_bytes = 16;
inline constexpr int gemm_mr = 4;
#endif
template <class S>
struct simd {
  typedef S type __attribute__((vector_size(simd_bytes)));
  static constexpr int lanes = static_cast<int>(simd_bytes / sizeof(S));
};
template <class V, class S>
inline V vload(const S* p) noexcept {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class S, class V>
inline void vstore(S* p, const V& v) noexcept {
  std::memcpy(p, &v, sizeof v);
}

/// Sum of a SIMD vector's lanes by halving (a fixed order): the two halves are
/// added with __builtin_shufflevector, so the vector stays in registers.
template <class H, std::size_t Off, class V, std::size_t... I>
inline H vhalf(const V& v, std::index_sequence<I...>) noexcept {
  return __builtin_shufflevector(v, v, (I + Off)...);
}
template <class S, std::size_t Bytes, class V>
inline S hsum_bytes(const V& v) noexcept {
  constexpr std::size_t n = Bytes / sizeof(S);
  if constexpr (n == 1) {
    return v[0];
  } else if constexpr (n == 2) {
    return v[0] + v[1];
  } else {
    typedef S half __attribute__((vector_size(Bytes / 2)));
    const half lo = vhalf<half, 0>(v, std::make_index_sequence<n / 2>{});
    const half hi = vhalf<half, n / 2>(v, std::make_index_sequence<n / 2>{});
    return hsum_bytes<S, Bytes / 2>(lo + hi);
  }
}
template <class S>
inline S hsum(const typename simd<S>::type& v) noexcept {
  return hsum_bytes<S, simd_bytes>(v);
}

/// C[MR x NV*lanes] += A[MR x K] B[K x NV*lanes]; A(m, k) = A[m rsa + k csa].
template <class S, int MR, int NV>
inline void gemm_tile(S* C, std::size_t ldc, const S* A, std::size_t rsa, std::size_t csa, const S* B, std::size_t ldb,
                      int K) noexcept {
  using V = typename simd<S>::type;
  constexpr int L = simd<S>::lanes;
  V acc[MR][NV];
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[r][v] = vload<V>(C + static_cast<std::size_t>(r) * ldc + static_cast<std::size_t>(v * L));
  for (int k = 0; k < K; ++k) {
    const S* b = B + static_cast<std::size_t>(k) * ldb;
    V bv[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) bv[v] = vload<V>(b + v * L);
    const S* a = A + static_cast<std::size_t>(k) * csa;
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      const S ar = a[static_cast<std::size_t>(r) * rsa];
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[r][v] += ar * bv[v];
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) vstore(C + static_cast<std::size_t>(r) * ldc + static_cast<std::size_t>(v * L), acc[r][v]);
}

/// The last N - n0 < lanes columns of C[M x N] += A B: B's columns (K in
/// blocks of 64) and each row block of C's are copied into zero-padded
/// vectors, so the tail runs through the same kernel and the same per-element
/// operation order (a C element goes through memory between k blocks, which
/// does not change its value).
template <class S>
inline void gemm_tail(S* C, std::size_t ldc, const S* A, std::size_t rsa, std::size_t csa, const S* B, std::size_t ldb,
                      int M, int n0, int N, int K) noexcept {
  constexpr int L = simd<S>::lanes, KB = 64, MR = gemm_mr;
  const int w = N - n0;
  S bp[KB * L];
  S cp[MR * L];
  for (int k0 = 0; k0 < K; k0 += KB) {
    const int kb = std::min(KB, K - k0);
    for (int k = 0; k < kb; ++k)
      for (int j = 0; j < L; ++j)
        bp[k * L + j] = j < w ? B[static_cast<std::size_t>(k0 + k) * ldb + static_cast<std::size_t>(n0 + j)] : S(0);
    const S* Ak = A + static_cast<std::size_t>(k0) * csa;
    for (int m = 0; m < M;) {
      const int mr = M - m >= MR ? MR : 1;
      S* Cm = C + static_cast<std::size_t>(m) * ldc + static_cast<std::size_t>(n0);
      for (int r = 0; r < mr; ++r)
        for (int j = 0; j < L; ++j) cp[r * L + j] = j < w ? Cm[static_cast<std::size_t>(r) * ldc + static_cast<std::size_t>(j)] : S(0);
      if (mr == MR)
        gemm_tile<S, MR, 1>(cp, static_cast<std::size_t>(L), Ak + static_cast<std::size_t>(m) * rsa, rsa, csa, bp,
                            static_cast<std::size_t>(L), kb);
      else
        gemm_tile<S, 1, 1>(cp, static_cast<std::size_t>(L), Ak + static_cast<std::size_t>(m) * rsa, rsa, csa, bp,
                           static_cast<std::size_t>(L), kb);
      for (int r = 0; r < mr; ++r)
        for (int j = 0; j < w; ++j) Cm[static_cast<std::size_t>(r) * ldc + static_cast<std::size_t>(j)] = cp[r * L + j];
      m += mr;
    }
  }
}

/// Full-vector columns [0, n_end) of C[MR x N] += A B.
template <class S, int MR>
inline void gemm_rows(S* C, std::size_t ldc, const S* A, std::size_t rsa, std::size_t csa, const S* B, std::size_t ldb,
                      int n_end, int K) noexcept {
  constexpr int L = simd<S>::lanes;
  int n = 0;
  for (; n + 2 * L <= n_end; n += 2 * L) gemm_tile<S, MR, 2>(C + n, ldc, A, rsa, csa, B + n, ldb, K);
  for (; n + L <= n_end; n += L) gemm_tile<S, MR, 1>(C + n, ldc, A, rsa, csa, B + n, ldb, K);
}
}  // namespace detail

/// C[M x N] += A[M x K] B[K x N], B and C row-major with leading dimensions
/// ldb, ldc; A(m, k) = A[m rsa + k csa] (rsa = lda, csa = 1 for row-major A;
/// rsa = 1, csa = lda for a transposed one). Each C element is accumulated
/// over k in ascending order, one multiply-add at a time.
template <class S>
void gemm_acc(S* C, std::size_t ldc, const S* A, std::size_t rsa, std::size_t csa, const S* B, std::size_t ldb, int M, int N,
              int K) noexcept {
  constexpr int MR = detail::gemm_mr, L = detail::simd<S>::lanes;
  const int n_end = N / L * L;
  if (n_end > 0) {
    int m = 0;
    for (; m + MR <= M; m += MR)
      detail::gemm_rows<S, MR>(C + static_cast<std::size_t>(m) * ldc, ldc, A + static_cast<std::size_t>(m) * rsa, rsa, csa, B,
                               ldb, n_end, K);
    for (; m < M; ++m)
      detail::gemm_rows<S, 1>(C + static_cast<std::size_t>(m) * ldc, ldc, A + static_cast<std::size_t>(m) * rsa, rsa, csa, B,
                              ldb, n_end, K);
  }
  if (n_end < N) detail::gemm_tail(C, ldc, A, rsa, csa, B, ldb, M, n_end, N, K);
}

/// Y[T x O] (=|+=) X[T x I] W[I x O] (+ b).
template <class S>
void linear_forward(S* Y, const S* X, const S* W, const S* b, int T, int I, int O, bool accumulate = false) {
  const std::size_t Os = static_cast<std::size_t>(O), Is = static_cast<std::size_t>(I);
  if (!accumulate)
    for (int t = 0; t < T; ++t) {
      S* y = Y + static_cast<std::size_t>(t) * Os;
      if (b)
        std::copy(b, b + O, y);
      else
        std::fill(y, y + O, S(0));
    }
  else if (b)
    for (int t = 0; t < T; ++t)
      for (int o = 0; o < O; ++o) Y[static_cast<std::size_t>(t) * Os + static_cast<std::size_t>(o)] += b[o];
  gemm_acc(Y, Os, X, Is, std::size_t{1}, W, Os, T, O, I);
}

/// WT[O x I] = transpose of W[I x O].
template <class S>
void transpose(S* WT, const S* W, int I, int O) {
  for (int i = 0; i < I; ++i)
    for (int o = 0; o < O; ++o)
      WT[static_cast<std::size_t>(o) * static_cast<std::size_t>(I) + static_cast<std::size_t>(i)] =
          W[static_cast<std::size_t>(i) * static_cast<std::size_t>(O) + static_cast<std::size_t>(o)];
}

/// Backward of Y = X W + b:
///   dW += X^T dY,  db += sum_t dY[t],  dX (=|+=) dY W^T.
/// `WT` is W transposed (O x I), prepared by the caller once per batch;
/// `dX` may be null when the input needs no gradient.
template <class S>
void linear_backward(S* dX, S* dW, S* db, const S* dY, const S* X, const S* WT, int T, int I, int O,
                     bool accumulate_dx = false) {
  const std::size_t Os = static_cast<std::size_t>(O), Is = static_cast<std::size_t>(I);
  if (db)
    for (int t = 0; t < T; ++t)
      for (int o = 0; o < O; ++o) db[o] += dY[static_cast<std::size_t>(t) * Os + static_cast<std::size_t>(o)];
  gemm_acc(dW, Os, X, std::size_t{1}, Is, dY, Os, I, O, T);
  if (dX) linear_forward(dX, dY, WT, static_cast<const S*>(nullptr), T, O, I, accumulate_dx);
}

// ---------------------------------------------------------------------------
// RMSNorm: y = x / sqrt(mean(x^2) + eps) * w, per row of width d.
// ---------------------------------------------------------------------------

inline constexpr double rms_eps = 1e-5;

/// Writes y and the per-row reciprocal RMS `rstd` (kept for backward).
template <class S>
void rmsnorm_forward(S* y, S* rstd, const S* x, const S* w, int T, int d) {
  for (int t = 0; t < T; ++t) {
    const S* xr = x + static_cast<std::size_t>(t) * static_cast<std::size_t>(d);
    S* yr = y + static_cast<std::size_t>(t) * static_cast<std::size_t>(d);
    const S r = S(1) / std::sqrt(dot(xr, xr, d) / S(d) + S(rms_eps));
    rstd[t] = r;
    for (int i = 0; i < d; ++i) yr[i] = xr[i] * r * w[i];
  }
}

/// With xh = x rstd:  dw += sum_t dy * xh;
///   dx = rstd (dy w - xh mean(dy w xh))   (accumulated into dx when asked).
template <class S>
void rmsnorm_backward(S* dx, S* dw, const S* dy, const S* x, const S* rstd, const S* w, int T, int d,
                      bool accumulate_dx) {
  for (int t = 0; t < T; ++t) {
    const std::size_t o = static_cast<std::size_t>(t) * static_cast<std::size_t>(d);
    const S r = rstd[t];
    S acc[8] = {};
    int i = 0;
    for (; i + 8 <= d; i += 8)
      for (int l = 0; l < 8; ++l) {
        const std::size_t k = o + static_cast<std::size_t>(i + l);
        const S xh = x[k] * r;
        dw[i + l] += dy[k] * xh;
        acc[l] += dy[k] * w[i + l] * xh;
      }
    for (; i < d; ++i) {
      const S xh = x[o + static_cast<std::size_t>(i)] * r;
      dw[i] += dy[o + static_cast<std::size_t>(i)] * xh;
      acc[0] += dy[o + static_cast<std::size_t>(i)] * w[i] * xh;
    }
    S m = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    m /= S(d);
    for (int i = 0; i < d; ++i) {
      const S xh = x[o + static_cast<std::size_t>(i)] * r;
      const S g = r * (dy[o + static_cast<std::size_t>(i)] * w[i] - xh * m);
      if (accumulate_dx)
        dx[o + static_cast<std::size_t>(i)] += g;
      else
        dx[o + static_cast<std::size_t>(i)] = g;
    }
  }
}

// ---------------------------------------------------------------------------
// Parameter bookkeeping: every model keeps all parameters in one flat array;
// a table names each block, its shape, how it is initialised and whether
// AdamW decays it. Gradient checks, the optimiser and the PyTorch export
// (bench/nn) all walk this table.
// ---------------------------------------------------------------------------

enum class init_kind {
  xavier,        ///< U(-a, a), a = sqrt(6 / (fan_in + fan_out))
  normal,        ///< N(0, 1) (embeddings, as torch.nn.Embedding)
  ones,          ///< 1 (norm weights, Mamba2's D)
  zeros,         ///< 0 (biases)
  uniform_fan,   ///< U(-1/sqrt(fan), 1/sqrt(fan)), fan given at registration (torch's Conv1d default)
  e88_a_log,     ///< log U(0, 16)  (E88 authors)
  mamba_a_log,   ///< log U(1, 16)  (Mamba2)
  dt_bias,       ///< inverse softplus of exp(U(log 1e-3, log 0.1))
  scaled_eye,    ///< 0.95 I (linear RNN transition: long, stable memory at start)
};

struct param_block {
  std::string name;  ///< e.g. "layers.0.W_qkv"
  std::size_t offset = 0, size = 0;
  int rows = 1, cols = 1;  ///< shape as stored (rows x cols, row-major)
  init_kind init = init_kind::xavier;
  bool decay = true;  ///< AdamW weight decay applies
  int fan = 0;        ///< fan-in for init_kind::uniform_fan
};

class param_table {
 public:
  /// Registers a block of rows x cols values and returns its offset.
  std::size_t add(std::string name, int rows, int cols, init_kind init, bool decay = true, int fan = 0) {
    param_block b;
    b.name = std::move(name);
    b.offset = total_;
    b.rows = rows;
    b.cols = cols;
    b.size = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    b.init = init;
    b.decay = decay;
    b.fan = fan;
    total_ += b.size;
    blocks_.push_back(std::move(b));
    return blocks_.back().offset;
  }
  const std::vector<param_block>& blocks() const noexcept { return blocks_; }
  std::size_t size() const noexcept { return total_; }

  /// Fills `p` from `seed` block by block with the documented initialisers.
  /// Normal draws use Box-Muller on the project's generator (bem/prng.hpp).
  template <class S>
  void initialise(S* p, std::uint64_t seed) const {
    for (std::size_t bi = 0; bi < blocks_.size(); ++bi) {
      const param_block& b = blocks_[bi];
      xoshiro256ss rng(derive_seed(seed, 0x6e6e696e6974ull /* "nninit" */, bi));
      S* q = p + b.offset;
      const double fan_in = b.rows, fan_out = b.cols;  // input-major weights: rows = fan-in
      for (std::size_t i = 0; i < b.size; ++i) {
        double v = 0;
        switch (b.init) {
          case init_kind::xavier: {
            const double a = std::sqrt(6.0 / (fan_in + fan_out));
            v = (2 * rng.uniform01() - 1) * a;
            break;
          }
          case init_kind::normal: {
            const double u1 = 1.0 - rng.uniform01(), u2 = rng.uniform01();
            v = std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
            break;
          }
          case init_kind::ones: v = 1; break;
          case init_kind::zeros: v = 0; break;
          case init_kind::uniform_fan: v = (2 * rng.uniform01() - 1) / std::sqrt(static_cast<double>(b.fan)); break;
          case init_kind::e88_a_log: v = std::log(16.0 * (1.0 - rng.uniform01())); break;
          case init_kind::mamba_a_log: v = std::log(1.0 + 15.0 * rng.uniform01()); break;
          case init_kind::dt_bias: {
            const double dt = std::exp(std::log(1e-3) + rng.uniform01() * (std::log(0.1) - std::log(1e-3)));
            v = inv_softplus(dt);
            break;
          }
          case init_kind::scaled_eye: v = i % static_cast<std::size_t>(b.cols + 1) == 0 ? 0.95 : 0.0; break;
        }
        q[i] = static_cast<S>(v);
      }
    }
  }

 private:
  std::vector<param_block> blocks_;
  std::size_t total_ = 0;
};

}  // namespace nn
BEM_NAMESPACE_END
