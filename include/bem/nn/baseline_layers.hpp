// bem::nn — the two baselines of the temporal nonlinearity seed:
//
// linear_rnn_layer (seed section 3.1 "Linear-RNN"): a purely linear
// recurrence, no nonlinearity in time,
//     h_t = A h_{t-1} + B u_t,   y_t = C h_t,   h_{-1} = 0
// stored input-major as h_t = h_{t-1} W_A + u_t W_B, y_t = h_t W_C
// (W_A = A^T, hidden x hidden; initialised to 0.95 I so memory starts long
// and stable). Backward: g_t = dy_t W_C^T + g_{t+1} W_A^T;
// dW_A += h_{t-1}^T g_t; dW_B += u_t^T g_t; du_t = g_t W_B^T. The hidden
// states are T x hidden values per sequence, the size of any activation, so
// they are stored, not checkpointed.
//
// mlp_layer (seed "MLP", no recurrence): y_t = silu(u_t W + b), position by
// position; the model's blocks then see only the current token.
#pragma once

#include <bem/nn/ops.hpp>
#include <bem/version.hpp>

#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace nn {

struct linear_rnn_config {
  int dim = 128;     ///< residual stream width
  int hidden = 128;  ///< recurrent state width
};

template <class S>
class linear_rnn_layer {
 public:
  using config = linear_rnn_config;
  struct workspace {
    std::vector<S> h, g, WAT, WBT, WCT;
  };

  linear_rnn_layer() = default;
  linear_rnn_layer(const config& c, param_table& table, const std::string& prefix) : c_(c) {
    if (c.dim < 1 || c.hidden < 1) throw std::invalid_argument("linear_rnn: dim and hidden must be >= 1");
    W_A_ = table.add(prefix + "W_A", c.hidden, c.hidden, init_kind::scaled_eye);
    W_B_ = table.add(prefix + "W_B", c.dim, c.hidden, init_kind::xavier);
    W_C_ = table.add(prefix + "W_C", c.hidden, c.dim, init_kind::xavier);
  }
  const config& cfg() const noexcept { return c_; }
  std::size_t state_values() const noexcept { return static_cast<std::size_t>(c_.hidden); }

  void resize(workspace& w, int T, bool training) const {
    const auto n = static_cast<std::size_t>(T) * static_cast<std::size_t>(c_.hidden);
    w.h.resize(n);
    w.g.resize(training ? n : 0);
  }
  std::size_t workspace_bytes(int T) const {
    return (2 * static_cast<std::size_t>(T) * static_cast<std::size_t>(c_.hidden) +
            static_cast<std::size_t>(c_.hidden) * static_cast<std::size_t>(c_.hidden + 2 * c_.dim)) * sizeof(S);
  }
  void prepare_backward(const S* p, workspace& w) const {
    const std::size_t hh = static_cast<std::size_t>(c_.hidden), dd = static_cast<std::size_t>(c_.dim);
    w.WAT.resize(hh * hh);
    transpose(w.WAT.data(), p + W_A_, c_.hidden, c_.hidden);
    w.WBT.resize(hh * dd);
    transpose(w.WBT.data(), p + W_B_, c_.dim, c_.hidden);
    w.WCT.resize(hh * dd);
    transpose(w.WCT.data(), p + W_C_, c_.hidden, c_.dim);
  }

  void forward(const S* p, const S* u, S* y, int T, workspace& w, bool /*training*/) const {
    const std::size_t hh = static_cast<std::size_t>(c_.hidden);
    linear_forward(w.h.data(), u, p + W_B_, static_cast<const S*>(nullptr), T, c_.dim, c_.hidden);
    for (int t = 1; t < T; ++t)  // h_t += h_{t-1} W_A
      linear_forward(w.h.data() + static_cast<std::size_t>(t) * hh, w.h.data() + static_cast<std::size_t>(t - 1) * hh,
                     p + W_A_, static_cast<const S*>(nullptr), 1, c_.hidden, c_.hidden, true);
    linear_forward(y, w.h.data(), p + W_C_, static_cast<const S*>(nullptr), T, c_.hidden, c_.dim);
  }

  void backward(const S* p, S* g, const S* u, const S* dy, S* du, int T, workspace& w) const {
    (void)p;
    const std::size_t hh = static_cast<std::size_t>(c_.hidden);
    linear_backward(w.g.data(), g + W_C_, static_cast<S*>(nullptr), dy, w.h.data(), w.WCT.data(), T, c_.hidden, c_.dim);
    for (int t = T - 2; t >= 0; --t)  // g_t += g_{t+1} W_A^T
      linear_forward(w.g.data() + static_cast<std::size_t>(t) * hh, w.g.data() + static_cast<std::size_t>(t + 1) * hh,
                     w.WAT.data(), static_cast<const S*>(nullptr), 1, c_.hidden, c_.hidden, true);
    if (T > 1)  // dW_A += sum_t h_{t-1}^T g_t
      linear_backward(static_cast<S*>(nullptr), g + W_A_, static_cast<S*>(nullptr), w.g.data() + hh, w.h.data(),
                      static_cast<const S*>(nullptr), T - 1, c_.hidden, c_.hidden);
    linear_backward(du, g + W_B_, static_cast<S*>(nullptr), w.g.data(), u, w.WBT.data(), T, c_.dim, c_.hidden);
  }

 private:
  config c_{};
  std::size_t W_A_ = 0, W_B_ = 0, W_C_ = 0;
};

struct mlp_config {
  int dim = 128;
};

template <class S>
class mlp_layer {
 public:
  using config = mlp_config;
  struct workspace {
    std::vector<S> pre, dpre, WT;
  };

  mlp_layer() = default;
  mlp_layer(const config& c, param_table& table, const std::string& prefix) : c_(c) {
    if (c.dim < 1) throw std::invalid_argument("mlp: dim must be >= 1");
    W_ = table.add(prefix + "W", c.dim, c.dim, init_kind::xavier);
    b_ = table.add(prefix + "b", 1, c.dim, init_kind::zeros);
  }
  const config& cfg() const noexcept { return c_; }
  std::size_t state_values() const noexcept { return 0; }

  void resize(workspace& w, int T, bool training) const {
    const auto n = static_cast<std::size_t>(T) * static_cast<std::size_t>(c_.dim);
    w.pre.resize(n);
    w.dpre.resize(training ? n : 0);
  }
  std::size_t workspace_bytes(int T) const {
    return (2 * static_cast<std::size_t>(T) + static_cast<std::size_t>(c_.dim)) * static_cast<std::size_t>(c_.dim) * sizeof(S);
  }
  void prepare_backward(const S* p, workspace& w) const {
    w.WT.resize(static_cast<std::size_t>(c_.dim) * static_cast<std::size_t>(c_.dim));
    transpose(w.WT.data(), p + W_, c_.dim, c_.dim);
  }
  void forward(const S* p, const S* u, S* y, int T, workspace& w, bool /*training*/) const {
    linear_forward(w.pre.data(), u, p + W_, p + b_, T, c_.dim, c_.dim);
    const std::size_t n = static_cast<std::size_t>(T) * static_cast<std::size_t>(c_.dim);
    for (std::size_t i = 0; i < n; ++i) y[i] = silu_s(w.pre[i]);
  }
  void backward(const S* /*p*/, S* g, const S* u, const S* dy, S* du, int T, workspace& w) const {
    const std::size_t n = static_cast<std::size_t>(T) * static_cast<std::size_t>(c_.dim);
    for (std::size_t i = 0; i < n; ++i) w.dpre[i] = dy[i] * silu_grad_s(w.pre[i]);
    linear_backward(du, g + W_, g + b_, w.dpre.data(), u, w.WT.data(), T, c_.dim, c_.dim);
  }

 private:
  config c_{};
  std::size_t W_ = 0, b_ = 0;
};

}  // namespace nn
BEM_NAMESPACE_END
