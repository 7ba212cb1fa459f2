// bem::nn — why a trained network succeeds or fails (temporal nonlinearity
// seed, section 6), computed on a held-out batch with targets.
//
//   gradient flow (6.2)  grad_norm[t-1] = mean over sequences of ||dL_last / dx_t||,
//                        x_t = E[token_t] the embedded input at position t
//                        (the residual stream entering layer 1), L_last the
//                        loss at the sequence's last scored position. It is
//                        how much of the final decision's training signal
//                        reaches position t: flat for a model that carries
//                        information across time, decaying in (T - t) for one
//                        that forgets. Taken at the input so every model,
//                        recurrent or not, is measured at the same place.
//                        With gradient_of::full_loss the same norm for the
//                        seed's L, the mean loss over the sequence's scored
//                        positions: ||dL/dx_t||, every later output's signal
//                        together with position t's own
//                        (grad_norm_full_loss_by_position).
//   count probe (6.3)    ridge regression from the final hidden state h_t
//                        (residual stream after the last layer: what the head
//                        reads) to the running count c_t = #{i <= t : token_i
//                        = 1} (the seed's cumsum(x) for bit streams), fitted
//                        on every position of the first half of the batch's
//                        sequences and evaluated on the second half:
//                        probe_loss[t-1] = mean (w . h_t + b - c_t)^2 and
//                        probe_r2[t-1] = 1 - probe_loss / variance of c_t,
//                        both over the held-out sequences (NaN where c_t does
//                        not vary).
//
// Sums are kept per thread and added in thread order, so results depend only
// on the parameters, the batch and the thread count.
#pragma once

#include <bem/detail/cholesky.hpp>
#include <bem/nn/network.hpp>
#include <bem/nn/trainer.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace nn {

namespace detail {
inline int last_scored_position(const tasks::sequence_batch& b, std::int32_t s, int T) {
  for (int t = T; t-- > 0;)
    if (b.scored(s, t)) return t;
  return -1;
}

/// Solves (A + lambda I) x = y for symmetric positive semi-definite A (n x n,
/// row-major) by Cholesky; lambda = ridge * mean diagonal keeps it definite.
inline std::vector<double> ridge_solve(std::vector<double> A, std::vector<double> y, std::size_t n, double ridge) {
  double diag = 0;
  for (std::size_t i = 0; i < n; ++i) diag += A[i * n + i];
  const double lambda = ridge * std::max(diag / static_cast<double>(n), 1e-12);
  for (std::size_t i = 0; i < n; ++i) A[i * n + i] += lambda;
  if (!bem::detail::cholesky_in_place(A.data(), n, 0.0))
    throw std::runtime_error("count probe: normal equations are not positive definite");
  bem::detail::cholesky_solve_in_place(A.data(), n, y.data());
  return y;
}
}  // namespace detail

/// Which loss grad_norm_by_position differentiates.
enum class gradient_of {
  last_position,  ///< the loss at the sequence's last scored position
  full_loss,      ///< the mean loss over the sequence's scored positions
};

/// grad_norm[t-1] for t = 1..b.length (NaN where no sequence reaches t).
template <template <class> class Layer>
std::vector<double> grad_norm_by_position(trainer<Layer>& tr, const tasks::sequence_batch& b, bool classes,
                                          gradient_of loss = gradient_of::last_position) {
  const auto& net = tr.net();
  const std::size_t d = static_cast<std::size_t>(net.cfg().dim), L = static_cast<std::size_t>(b.length);
  const float* p = tr.params().data();
  std::vector<std::vector<double>> sum(static_cast<std::size_t>(tr.threads()), std::vector<double>(L, 0.0));
  std::vector<std::vector<std::int64_t>> count(sum.size(), std::vector<std::int64_t>(L, 0));
  tr.for_each_sequence_range(b.batch_size, [&](int k, std::int32_t lo, std::int32_t hi,
                                               typename network<float, Layer>::workspace& w, std::vector<float>& g) {
    net.prepare_backward(p, w);
    for (std::int32_t s = lo; s < hi; ++s) {
      const int T = std::min(b.lengths[static_cast<std::size_t>(s)], b.length);
      const int last = T > 0 ? detail::last_scored_position(b, s, T) : -1;
      if (last < 0) continue;
      const std::int32_t* tok = b.inputs.data() + b.index(s, 0);
      net.resize(w, T, true);
      net.forward(p, tok, T, w);
      const int width = net.cfg().out_width;
      if (loss == gradient_of::full_loss) {
        int scored = 0;
        for (int t = 0; t < T; ++t) scored += b.scored(s, t) != 0;
        sequence_loss(w.logits.data(), w.dlogits.data(), b, s, T, width, classes, 1.0f / static_cast<float>(scored));
      } else {
        sequence_loss(w.logits.data(), w.dlogits.data(), b, s, T, width, classes, 1.0f);
        // Keep only the last scored position's loss.
        std::fill(w.dlogits.begin(), w.dlogits.begin() + static_cast<std::ptrdiff_t>(last) * width, 0.0f);
        std::fill(w.dlogits.begin() + static_cast<std::ptrdiff_t>(last + 1) * width, w.dlogits.end(), 0.0f);
      }
      net.backward(p, g.data(), tok, T, w);  // parameter gradients land in scratch g, unused
      const float* dx = net.input_gradient(w);
      for (int t = 0; t <= last; ++t) {
        double n2 = 0;
        for (std::size_t j = 0; j < d; ++j) n2 += static_cast<double>(dx[static_cast<std::size_t>(t) * d + j]) *
                                                 static_cast<double>(dx[static_cast<std::size_t>(t) * d + j]);
        sum[static_cast<std::size_t>(k)][static_cast<std::size_t>(t)] += std::sqrt(n2);
        ++count[static_cast<std::size_t>(k)][static_cast<std::size_t>(t)];
      }
    }
  });
  std::vector<double> out(L, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t t = 0; t < L; ++t) {
    double s = 0;
    std::int64_t n = 0;
    for (std::size_t k = 0; k < sum.size(); ++k) {
      s += sum[k][t];
      n += count[k][t];
    }
    if (n > 0) out[t] = s / static_cast<double>(n);
  }
  return out;
}

struct count_probe_result {
  std::vector<double> loss;  ///< probe_loss[t-1], held-out mean squared error
  std::vector<double> r2;    ///< probe_r2[t-1]
};

/// The linear probe for the running count (needs at least 2 sequences).
template <template <class> class Layer>
count_probe_result count_probe_by_position(trainer<Layer>& tr, const tasks::sequence_batch& b, double ridge = 1e-4) {
  if (b.batch_size < 2) throw std::invalid_argument("count probe: needs at least 2 sequences");
  const auto& net = tr.net();
  const std::size_t d = static_cast<std::size_t>(net.cfg().dim), n = d + 1, L = static_cast<std::size_t>(b.length);
  const float* p = tr.params().data();
  const std::int32_t half = b.batch_size / 2;
  const std::size_t threads = static_cast<std::size_t>(tr.threads());
  using workspace = typename network<float, Layer>::workspace;

  // Visits (h_t with a trailing 1, c_t) for every position of sequences [lo, hi).
  auto visit = [&](std::int32_t lo, std::int32_t hi, workspace& w, auto&& f) {
    std::vector<double> h(n);
    for (std::int32_t s = lo; s < hi; ++s) {
      const int T = std::min(b.lengths[static_cast<std::size_t>(s)], b.length);
      if (T <= 0) continue;
      const std::int32_t* tok = b.inputs.data() + b.index(s, 0);
      net.resize(w, T, false);
      net.forward(p, tok, T, w);
      const float* H = net.final_hidden(w);
      double c = 0;
      for (int t = 0; t < T; ++t) {
        c += tok[t] == 1 ? 1.0 : 0.0;
        for (std::size_t j = 0; j < d; ++j) h[j] = static_cast<double>(H[static_cast<std::size_t>(t) * d + j]);
        h[d] = 1.0;
        f(static_cast<std::size_t>(t), h, c);
      }
    }
  };

  // Fit on the first half: normal equations, lower triangle accumulated.
  std::vector<std::vector<double>> A(threads, std::vector<double>(n * n, 0.0)), y(threads, std::vector<double>(n, 0.0));
  tr.for_each_sequence_range(half, [&](int k, std::int32_t lo, std::int32_t hi, workspace& w, std::vector<float>&) {
    auto& a = A[static_cast<std::size_t>(k)];
    auto& r = y[static_cast<std::size_t>(k)];
    visit(lo, hi, w, [&](std::size_t, const std::vector<double>& h, double c) {
      for (std::size_t i = 0; i < n; ++i) {
        r[i] += h[i] * c;
        for (std::size_t j = 0; j <= i; ++j) a[i * n + j] += h[i] * h[j];
      }
    });
  });
  for (std::size_t k = 1; k < threads; ++k)
    for (std::size_t i = 0; i < n * n; ++i) A[0][i] += A[k][i];
  for (std::size_t k = 1; k < threads; ++k)
    for (std::size_t i = 0; i < n; ++i) y[0][i] += y[k][i];
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) A[0][i * n + j] = A[0][j * n + i];
  const std::vector<double> wgt = detail::ridge_solve(std::move(A[0]), std::move(y[0]), n, ridge);

  // Evaluate on the second half, per position.
  struct sums {
    std::vector<double> se, c, c2;
    std::vector<std::int64_t> m;
  };
  std::vector<sums> acc(threads, sums{std::vector<double>(L, 0.0), std::vector<double>(L, 0.0),
                                      std::vector<double>(L, 0.0), std::vector<std::int64_t>(L, 0)});
  tr.for_each_sequence_range(b.batch_size - half, [&](int k, std::int32_t lo, std::int32_t hi, workspace& w,
                                                      std::vector<float>&) {
    auto& a = acc[static_cast<std::size_t>(k)];
    visit(half + lo, half + hi, w, [&](std::size_t t, const std::vector<double>& h, double c) {
      double pred = 0;
      for (std::size_t i = 0; i < n; ++i) pred += wgt[i] * h[i];
      a.se[t] += (pred - c) * (pred - c);
      a.c[t] += c;
      a.c2[t] += c * c;
      ++a.m[t];
    });
  });
  count_probe_result out;
  out.loss.assign(L, std::numeric_limits<double>::quiet_NaN());
  out.r2.assign(L, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t t = 0; t < L; ++t) {
    double se = 0, c = 0, c2 = 0;
    std::int64_t m = 0;
    for (const auto& a : acc) {
      se += a.se[t];
      c += a.c[t];
      c2 += a.c2[t];
      m += a.m[t];
    }
    if (m == 0) continue;
    const double md = static_cast<double>(m);
    out.loss[t] = se / md;
    const double var = c2 / md - (c / md) * (c / md);
    if (var > 1e-12) out.r2[t] = 1.0 - out.loss[t] / var;
  }
  return out;
}

}  // namespace nn
BEM_NAMESPACE_END
