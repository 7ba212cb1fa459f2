// Finite-difference gradient checks for bem::nn networks (double precision).
//
// For every parameter p_i of a small network the analytic gradient of the
// mean batch loss (network::backward through batch_loss_grad) is compared
// with the central difference (L(p_i + h) - L(p_i - h)) / 2h, h = 1e-5.
// A block passes when its norm-wise relative error
//   ||g_num - g_ana|| / (||g_num|| + ||g_ana||)
// is below 1e-6 and every element agrees within 1e-6 relative (1e-9 absolute
// floor for gradients that are zero up to rounding).
#pragma once

#include <bem/nn/network.hpp>
#include <bem/prng.hpp>
#include <tasks/batch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace nntest {

/// A batch of B sequences of length T with random tokens and targets; the
/// second sequence is shorter (padding must not matter). `classes`: one
/// scored position per sequence (the last real one), targets in [0, width).
inline bem::tasks::sequence_batch random_batch(int B, int T, int vocab, int width, bool classes, std::uint64_t seed) {
  bem::tasks::sequence_batch b;
  b.reset(B, T);
  bem::xoshiro256ss rng(seed);
  for (int s = 0; s < B; ++s) {
    const int len = (s == 1 && T > 2) ? T - 2 : T;
    b.lengths[static_cast<std::size_t>(s)] = len;
    for (int t = 0; t < T; ++t) {
      b.input(s, t) = static_cast<std::int32_t>(rng.uniform_below(static_cast<std::uint64_t>(vocab)));
      if (t >= len) continue;
      if (!classes) {
        b.target(s, t) = static_cast<std::int32_t>(rng.uniform_below(2));
        b.scored(s, t) = 1;
      } else if (t == len - 1) {
        b.target(s, t) = static_cast<std::int32_t>(rng.uniform_below(static_cast<std::uint64_t>(width)));
        b.scored(s, t) = 1;
      }
    }
  }
  return b;
}

struct gradcheck_result {
  double worst_block_error = 0;  ///< largest norm-wise relative error over blocks
  std::string failures;          ///< empty when every block passes
  std::size_t checked = 0;       ///< parameters checked
};

/// Analytic gradient of the mean loss over the batch; returns the loss.
template <template <class> class Layer>
double analytic(const bem::nn::network<double, Layer>& net, const std::vector<double>& p, std::vector<double>& g,
                const bem::tasks::sequence_batch& b, bool classes) {
  typename bem::nn::network<double, Layer>::workspace w;
  g.assign(p.size(), 0.0);
  const double scale = 1.0 / static_cast<double>(b.scored_positions());
  return bem::nn::batch_loss_grad(net, p.data(), g.data(), b, classes, 0, b.batch_size, scale, w) * scale;
}

template <template <class> class Layer>
gradcheck_result gradcheck(const typename bem::nn::network<double, Layer>::config& c, int B, int T, bool classes,
                           std::uint64_t seed) {
  bem::nn::network<double, Layer> net(c);
  std::vector<double> p(net.size()), g;
  net.table().initialise(p.data(), seed);
  const auto b = random_batch(B, T, c.vocab, c.out_width, classes, seed + 1);
  analytic(net, p, g, b, classes);
  const double scale = 1.0 / static_cast<double>(b.scored_positions());
  typename bem::nn::network<double, Layer>::workspace w;
  auto loss = [&] {
    return bem::nn::batch_loss_grad(net, p.data(), static_cast<double*>(nullptr), b, classes, 0, B, scale, w) * scale;
  };
  gradcheck_result r;
  std::ostringstream fail;
  const double h = 1e-5;
  for (const auto& blk : net.table().blocks()) {
    double diff2 = 0, num2 = 0, ana2 = 0;
    int bad = 0;
    for (std::size_t i = blk.offset; i < blk.offset + blk.size; ++i) {
      const double keep = p[i];
      p[i] = keep + h;
      const double lp = loss();
      p[i] = keep - h;
      const double lm = loss();
      p[i] = keep;
      const double num = (lp - lm) / (2 * h);
      diff2 += (num - g[i]) * (num - g[i]);
      num2 += num * num;
      ana2 += g[i] * g[i];
      if (std::abs(num - g[i]) > 1e-6 * std::max(std::abs(num), std::abs(g[i])) + 1e-9 && bad++ < 3)
        fail << blk.name << "[" << i - blk.offset << "]: numeric " << num << " analytic " << g[i] << "\n";
      ++r.checked;
    }
    const double denom = std::sqrt(num2) + std::sqrt(ana2);
    const double rel = denom > 0 ? std::sqrt(diff2) / denom : 0.0;
    r.worst_block_error = std::max(r.worst_block_error, rel);
    if (rel >= 1e-6) fail << blk.name << ": block relative error " << rel << "\n";
    if (denom == 0) fail << blk.name << ": gradient is identically zero (untested)\n";
  }
  r.failures = fail.str();
  return r;
}

}  // namespace nntest
