// bem::nn — AdamW with cosine annealing and gradient clipping, a threaded
// trainer, and the sequence_model adapter shared by every trained model.
//
// One step (the same arithmetic as torch.nn.utils.clip_grad_norm_ followed by
// torch.optim.AdamW and a CosineAnnealingLR stepped after each update):
//   norm = ||g||_2 over all parameters;  if clip > 0 and norm > clip: g *= clip / (norm + 1e-6)
//   lr_s = lr_min + (lr - lr_min) (1 + cos(pi min(s, total_steps) / total_steps)) / 2
//          (s = steps taken before this one; total_steps = 0: constant lr)
//   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
//   p -= lr_s wd p                              only for blocks with decay (decoupled)
//   p -= lr_s (m / (1 - b1^(s+1))) / (sqrt(v / (1 - b2^(s+1))) + eps)
// The decay and dt parameters (A_log, dt_bias, D) are registered without
// decay by their layers. A suite sets total_steps = epochs * ceil(train_sequences
// / batch_size), the number of learn() calls of a run.
//
// Threads: a batch's sequences are split into `threads` contiguous ranges;
// each thread runs forward and backward of its range into its own gradient
// buffer, and the buffers are summed in thread order. The reduction order is
// fixed, so the same seed and thread count give bit-identical results. Every
// thread keeps one sequence's activations (plus the state checkpoints), so
// memory does not grow with the batch size.
//
// Divergence: a step whose loss or gradient norm is not finite (a recurrence
// whose state overflowed) throws training_diverged before anything changes,
// so a run reports "diverged at step s" instead of training on NaN and
// scoring NaN logits.
#pragma once

#include <bem/nn/network.hpp>
#include <bem/nn/ops.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace nn {

struct adamw_config {
  double lr = 1e-3;
  double lr_min = 0.0;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.01;
  double grad_clip = 1.0;        ///< global norm; 0 disables clipping
  std::int64_t total_steps = 0;  ///< cosine period; 0: constant learning rate
};

/// AdamW over a flat parameter array described by a param_table.
template <class S>
class adamw {
 public:
  adamw() = default;
  adamw(const adamw_config& c, std::size_t n) : c_(c), m_(n, S(0)), v_(n, S(0)) {}

  double learning_rate() const noexcept {
    if (c_.total_steps <= 0) return c_.lr;
    const double s = static_cast<double>(std::min(step_, c_.total_steps));
    return c_.lr_min + (c_.lr - c_.lr_min) * 0.5 * (1.0 + std::cos(3.14159265358979323846 * s / static_cast<double>(c_.total_steps)));
  }
  std::int64_t steps() const noexcept { return step_; }

  /// The gradient's global L2 norm, the value update() clips against.
  double gradient_norm(const S* g) const {
    double sq = 0;
    for (std::size_t i = 0; i < m_.size(); ++i) sq += static_cast<double>(g[i]) * static_cast<double>(g[i]);
    return std::sqrt(sq);
  }

  /// Applies one update; returns the gradient norm before clipping.
  double update(const param_table& table, S* p, S* g) { return update(table, p, g, gradient_norm(g)); }
  /// The same, with the norm already computed by gradient_norm(g).
  double update(const param_table& table, S* p, S* g, double norm) {
    const S gs = (c_.grad_clip > 0 && norm > c_.grad_clip) ? static_cast<S>(c_.grad_clip / (norm + 1e-6)) : S(1);
    const double lr = learning_rate();
    ++step_;
    const double bc1 = 1.0 - std::pow(c_.beta1, static_cast<double>(step_));
    const double bc2 = 1.0 - std::pow(c_.beta2, static_cast<double>(step_));
    const S b1 = static_cast<S>(c_.beta1), b2 = static_cast<S>(c_.beta2);
    const S step_size = static_cast<S>(lr / bc1), sbc2 = static_cast<S>(std::sqrt(bc2)), eps = static_cast<S>(c_.eps);
    for (const param_block& b : table.blocks()) {
      const S shrink = b.decay ? static_cast<S>(1.0 - lr * c_.weight_decay) : S(1);
      for (std::size_t i = b.offset; i < b.offset + b.size; ++i) {
        const S gi = g[i] * gs;
        m_[i] = b1 * m_[i] + (S(1) - b1) * gi;
        v_[i] = b2 * v_[i] + (S(1) - b2) * gi * gi;
        p[i] *= shrink;
        p[i] -= step_size * m_[i] / (std::sqrt(v_[i]) / sbc2 + eps);
      }
    }
    return norm;
  }

 private:
  adamw_config c_{};
  std::vector<S> m_, v_;
  std::int64_t step_ = 0;
};

/// Thrown by a training step whose loss or gradient norm is not finite; the
/// parameters and optimizer state are those before the step.
class training_diverged : public std::runtime_error {
 public:
  training_diverged(std::int64_t step, double loss, double grad_norm)
      : std::runtime_error("training diverged at step " + std::to_string(step) + ": loss " + std::to_string(loss) +
                           ", gradient norm " + std::to_string(grad_norm) +
                           " (a state overflowed; try a lower lr or shorter sequences)"),
        step_(step) {}
  /// The 1-based step that diverged.
  std::int64_t step() const noexcept { return step_; }

 private:
  std::int64_t step_;
};

/// Trains and runs one network<float, Layer> on batches, with threads.
template <template <class> class Layer>
class trainer {
 public:
  using net_type = network<float, Layer>;

  trainer() = default;
  trainer(const typename net_type::config& nc, const adamw_config& oc, int threads, std::uint64_t seed)
      : net_(nc), opt_(oc, net_.size()), threads_(std::max(1, threads)) {
    params_.assign(net_.size(), 0.0f);
    net_.table().initialise(params_.data(), seed);
    ws_.resize(static_cast<std::size_t>(threads_));
    grads_.assign(static_cast<std::size_t>(threads_), std::vector<float>(net_.size(), 0.0f));
  }

  const net_type& net() const noexcept { return net_; }
  std::vector<float>& params() noexcept { return params_; }
  const std::vector<float>& params() const noexcept { return params_; }
  const adamw<float>& optimizer() const noexcept { return opt_; }
  double last_grad_norm() const noexcept { return grad_norm_; }
  int threads() const noexcept { return threads_; }

  /// One AdamW step on the batch; returns the mean loss per scored position.
  double step(const tasks::sequence_batch& b, bool classes) {
    const std::int64_t count = b.scored_positions();
    if (count == 0) return std::nan("");
    const float scale = 1.0f / static_cast<float>(count);
    std::vector<double> loss(static_cast<std::size_t>(threads_), 0.0);
    run_threads(b.batch_size, [&](int k, std::int32_t lo, std::int32_t hi) {
      auto& g = grads_[static_cast<std::size_t>(k)];
      std::fill(g.begin(), g.end(), 0.0f);
      loss[static_cast<std::size_t>(k)] =
          batch_loss_grad(net_, params_.data(), g.data(), b, classes, lo, hi, scale, ws_[static_cast<std::size_t>(k)]);
    });
    std::vector<float>& g0 = grads_[0];
    for (std::size_t k = 1; k < grads_.size(); ++k)
      for (std::size_t i = 0; i < g0.size(); ++i) g0[i] += grads_[k][i];
    double total = 0;
    for (double l : loss) total += l;
    const double mean = total / static_cast<double>(count), norm = opt_.gradient_norm(g0.data());
    if (!std::isfinite(mean) || !std::isfinite(norm)) throw training_diverged(opt_.steps() + 1, mean, norm);
    grad_norm_ = opt_.update(net_.table(), params_.data(), g0.data(), norm);
    return mean;
  }

  /// Logits for every position (zero beyond a sequence's length).
  void predict(const tasks::sequence_batch& b, tasks::prediction& out) {
    const int width = net_.cfg().out_width;
    std::fill(out.logits.begin(), out.logits.end(), 0.0f);
    run_threads(b.batch_size, [&](int k, std::int32_t lo, std::int32_t hi) {
      auto& w = ws_[static_cast<std::size_t>(k)];
      for (std::int32_t s = lo; s < hi; ++s) {
        const int T = std::min(b.lengths[static_cast<std::size_t>(s)], b.length);
        if (T <= 0) continue;
        net_.resize(w, T, false);
        net_.forward(params_.data(), b.inputs.data() + b.index(s, 0), T, w);
        std::copy(w.logits.begin(), w.logits.begin() + static_cast<std::ptrdiff_t>(T) * width, out.at(s, 0));
      }
    });
  }

  /// Calls f(thread, lo, hi, workspace&, gradient scratch&) on the threads,
  /// sequences [0, B) split in contiguous ranges as in training (the
  /// diagnostics use it; the scratch is this thread's gradient buffer).
  template <class F>
  void for_each_sequence_range(std::int32_t B, F&& f) {
    run_threads(B, [&](int k, std::int32_t lo, std::int32_t hi) {
      f(k, lo, hi, ws_[static_cast<std::size_t>(k)], grads_[static_cast<std::size_t>(k)]);
    });
  }

  /// Peak bytes while training sequences of T tokens: parameters, gradients
  /// (one buffer per thread), AdamW moments and one workspace per thread.
  std::size_t peak_training_bytes(int T) const {
    return net_.size() * sizeof(float) * (3 + static_cast<std::size_t>(threads_)) +
           static_cast<std::size_t>(threads_) * net_.workspace_bytes(T);
  }

 private:
  template <class F>
  void run_threads(std::int32_t B, F&& f) {
    const int n = static_cast<int>(std::min<std::int32_t>(threads_, std::max<std::int32_t>(B, 1)));
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
    auto body = [&](int k) {
      try {
        const std::int32_t lo = static_cast<std::int32_t>(static_cast<std::int64_t>(B) * k / n);
        const std::int32_t hi = static_cast<std::int32_t>(static_cast<std::int64_t>(B) * (k + 1) / n);
        f(k, lo, hi);
      } catch (...) {
        errors[static_cast<std::size_t>(k)] = std::current_exception();
      }
    };
    // Threads beyond n (a batch smaller than the thread count) contribute zero gradients.
    for (int k = n; k < threads_; ++k) std::fill(grads_[static_cast<std::size_t>(k)].begin(), grads_[static_cast<std::size_t>(k)].end(), 0.0f);
    std::vector<std::thread> pool;
    for (int k = 1; k < n; ++k) pool.emplace_back(body, k);
    body(0);
    for (auto& t : pool) t.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
  }

  net_type net_;
  adamw<float> opt_;
  int threads_ = 1;
  std::vector<float> params_;
  std::vector<typename net_type::workspace> ws_;
  std::vector<std::vector<float>> grads_;
  double grad_norm_ = 0;
};

}  // namespace nn
BEM_NAMESPACE_END
