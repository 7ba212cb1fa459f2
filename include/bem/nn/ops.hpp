// bem::nn — the elementary operations of the small sequence models, each as
// an explicit forward function and, where it has parameters or inputs that
// need gradients, an explicit backward function (llm.c style: flat buffers,
// row-major, no autodiff, no hidden allocation).
//
// Conventions used by every file of include/bem/nn:
//   * a sequence's activations are row-major [T x width] arrays;
//   * a linear map's weight is stored input-major, W[i * O + o] (I x O), so
//     that y = x W (+ b). This is the transpose of PyTorch's nn.Linear.weight;
//     the layout lets the forward pass and dW = x^T dy run as AXPYs over the
//     contiguous output index, which compilers vectorise without fast-math;
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
#include <string>
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

/// Y[T x O] (=|+=) X[T x I] W[I x O] (+ b). Rows are processed four at a time
/// so each weight row loaded from cache serves four tokens.
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
  int t = 0;
  for (; t + 4 <= T; t += 4) {
    S* y0 = Y + static_cast<std::size_t>(t) * Os;
    S* y1 = y0 + Os;
    S* y2 = y1 + Os;
    S* y3 = y2 + Os;
    const S* x0 = X + static_cast<std::size_t>(t) * Is;
    for (int i = 0; i < I; ++i) {
      const S* w = W + static_cast<std::size_t>(i) * Os;
      const S a0 = x0[i], a1 = x0[Is + static_cast<std::size_t>(i)], a2 = x0[2 * Is + static_cast<std::size_t>(i)],
              a3 = x0[3 * Is + static_cast<std::size_t>(i)];
      for (int o = 0; o < O; ++o) {
        const S wo = w[o];
        y0[o] += a0 * wo;
        y1[o] += a1 * wo;
        y2[o] += a2 * wo;
        y3[o] += a3 * wo;
      }
    }
  }
  for (; t < T; ++t) {
    S* y = Y + static_cast<std::size_t>(t) * Os;
    const S* x = X + static_cast<std::size_t>(t) * Is;
    for (int i = 0; i < I; ++i) {
      const S* w = W + static_cast<std::size_t>(i) * Os;
      const S a = x[i];
      for (int o = 0; o < O; ++o) y[o] += a * w[o];
    }
  }
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
  int t = 0;
  for (; t + 4 <= T; t += 4) {
    const S* d0 = dY + static_cast<std::size_t>(t) * Os;
    const S* d1 = d0 + Os;
    const S* d2 = d1 + Os;
    const S* d3 = d2 + Os;
    const S* x0 = X + static_cast<std::size_t>(t) * Is;
    for (int i = 0; i < I; ++i) {
      S* w = dW + static_cast<std::size_t>(i) * Os;
      const S a0 = x0[i], a1 = x0[Is + static_cast<std::size_t>(i)], a2 = x0[2 * Is + static_cast<std::size_t>(i)],
              a3 = x0[3 * Is + static_cast<std::size_t>(i)];
      for (int o = 0; o < O; ++o) w[o] += a0 * d0[o] + a1 * d1[o] + a2 * d2[o] + a3 * d3[o];
    }
  }
  for (; t < T; ++t) {
    const S* d = dY + static_cast<std::size_t>(t) * Os;
    const S* x = X + static_cast<std::size_t>(t) * Is;
    for (int i = 0; i < I; ++i) {
      S* w = dW + static_cast<std::size_t>(i) * Os;
      const S a = x[i];
      for (int o = 0; o < O; ++o) w[o] += a * d[o];
    }
  }
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
    S m = 0;
    for (int i = 0; i < d; ++i) {
      const S xh = x[o + static_cast<std::size_t>(i)] * r;
      dw[i] += dy[o + static_cast<std::size_t>(i)] * xh;
      m += dy[o + static_cast<std::size_t>(i)] * w[i] * xh;
    }
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
