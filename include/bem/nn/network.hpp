// bem::nn — a whole sequence model around one layer type, and its loss.
//
//   r_0 = E[token_t]                                   embedding, vocab x d
//   r_l = r_{l-1} + layer_l(RMSNorm_l(r_{l-1}))        l = 1..L (pre-norm residual
//                                                      blocks; the same function as
//                                                      the E88 authors' wrapper
//                                                      "residual = x + residual;
//                                                      x = RMSNorm(residual); x = layer(x)")
//   logits_t = RMSNorm_f(r_L) W_head + b_head          width 1 (binary) or num_classes
//
// Loss, averaged over every scored position of the batch (mask = 1 and
// t < length):
//   binary outputs: BCE with logits, softplus(z) - y z;  dL/dz = sigmoid(z) - y
//   class outputs:  cross-entropy, logsumexp(z) - z_y;    dL/dz = softmax(z) - onehot(y)
//
// A layer type L<S> provides: a constructor (config, param_table&, prefix),
// resize(ws, T, training), prepare_backward(p, ws), forward(p, u, y, T, ws,
// training), backward(p, g, u, dy, du, T, ws), state_values(),
// workspace_bytes(T). Everything here works on one sequence at a time; the
// trainer (trainer.hpp) splits a batch's sequences across threads.
#pragma once

#include <bem/nn/ops.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace nn {

template <class S, template <class> class Layer>
class network {
 public:
  using layer_type = Layer<S>;
  using layer_config = typename layer_type::config;

  struct config {
    int vocab = 2;
    int dim = 64;
    int layers = 1;
    int out_width = 1;
    layer_config layer{};
  };

  struct workspace {
    int T = 0;
    bool training = false;
    std::vector<S> R, xn, rstd, ytmp, f, rstdf, logits, dlogits, df, dR, dxn;
    std::vector<S> headT;
    std::vector<typename layer_type::workspace> lw;
  };

  network() = default;
  explicit network(const config& c) : c_(c) {
    if (c.vocab < 1 || c.dim < 1 || c.layers < 1 || c.out_width < 1)
      throw std::invalid_argument("network: vocab, dim, layers and out_width must be >= 1");
    emb_ = table_.add("embedding", c.vocab, c.dim, init_kind::normal);
    for (int l = 0; l < c.layers; ++l) {
      const std::string pre = "layers." + std::to_string(l) + ".";
      norm_.push_back(table_.add(pre + "norm_w", 1, c.dim, init_kind::ones));
      layers_.emplace_back(c.layer, table_, pre);
    }
    normf_ = table_.add("norm_f", 1, c.dim, init_kind::ones);
    head_w_ = table_.add("head_w", c.dim, c.out_width, init_kind::xavier);
    head_b_ = table_.add("head_b", 1, c.out_width, init_kind::zeros);
  }

  const config& cfg() const noexcept { return c_; }
  const param_table& table() const noexcept { return table_; }
  std::size_t size() const noexcept { return table_.size(); }
  const std::vector<layer_type>& layers() const noexcept { return layers_; }

  /// Recurrent state values per sequence, all layers.
  std::size_t state_values() const noexcept {
    std::size_t n = 0;
    for (const auto& l : layers_) n += l.state_values();
    return n;
  }

  /// Bytes of one training workspace for T tokens (one per thread).
  std::size_t workspace_bytes(int T) const {
    const std::size_t t = static_cast<std::size_t>(T), d = static_cast<std::size_t>(c_.dim), L = layers_.size();
    const std::size_t o = static_cast<std::size_t>(c_.out_width);
    // R, xn, rstd, (ytmp f df dR dxn), rstdf, (logits dlogits), and headT (prepare_backward's transposed head)
    std::size_t n = (L + 1) * t * d + L * t * d + L * t + 5 * t * d + t + 2 * t * o + d * o;
    n *= sizeof(S);
    for (const auto& l : layers_) n += l.workspace_bytes(T);
    return n;
  }

  void resize(workspace& w, int T, bool training) const {
    if (w.T == T && w.training == training && w.lw.size() == layers_.size()) return;
    w.T = T;
    w.training = training;
    const std::size_t t = static_cast<std::size_t>(T), d = static_cast<std::size_t>(c_.dim), L = layers_.size();
    w.R.resize((L + 1) * t * d);
    w.xn.resize(L * t * d);
    w.rstd.resize(L * t);
    w.ytmp.resize(t * d);
    w.f.resize(t * d);
    w.rstdf.resize(t);
    w.logits.resize(t * static_cast<std::size_t>(c_.out_width));
    w.dlogits.resize(training ? w.logits.size() : 0);
    w.df.resize(training ? t * d : 0);
    w.dR.resize(training ? t * d : 0);
    w.dxn.resize(training ? t * d : 0);
    w.lw.resize(L);
    for (std::size_t l = 0; l < L; ++l) layers_[l].resize(w.lw[l], T, training);
  }

  void prepare_backward(const S* p, workspace& w) const {
    w.headT.resize(static_cast<std::size_t>(c_.dim) * static_cast<std::size_t>(c_.out_width));
    transpose(w.headT.data(), p + head_w_, c_.dim, c_.out_width);
    if (w.lw.size() != layers_.size()) w.lw.resize(layers_.size());
    for (std::size_t l = 0; l < layers_.size(); ++l) layers_[l].prepare_backward(p, w.lw[l]);
  }

  /// After forward(): the final hidden state h_t (residual stream after the
  /// last layer, before the final norm), T x dim.
  const S* final_hidden(const workspace& w) const noexcept {
    return w.R.data() + layers_.size() * static_cast<std::size_t>(w.T) * static_cast<std::size_t>(c_.dim);
  }
  /// After backward(): dLoss/dx_t at the embedded inputs, T x dim.
  const S* input_gradient(const workspace& w) const noexcept { return w.dR.data(); }

  /// Logits of one sequence (T tokens) into w.logits. `w` must be resized for T.
  void forward(const S* p, const std::int32_t* tokens, int T, workspace& w) const {
    const std::size_t t = static_cast<std::size_t>(T), d = static_cast<std::size_t>(c_.dim);
    for (std::size_t i = 0; i < t; ++i) {
      const auto tok = tokens[i];
      if (tok < 0 || tok >= c_.vocab) throw std::out_of_range("network: token id outside [0, vocab_size)");
      const S* e = p + emb_ + static_cast<std::size_t>(tok) * d;
      std::copy(e, e + d, w.R.data() + i * d);
    }
    for (std::size_t l = 0; l < layers_.size(); ++l) {
      const S* r = w.R.data() + l * t * d;
      S* xn = w.xn.data() + l * t * d;
      rmsnorm_forward(xn, w.rstd.data() + l * t, r, p + norm_[l], T, c_.dim);
      layers_[l].forward(p, xn, w.ytmp.data(), T, w.lw[l], w.training);
      S* rn = w.R.data() + (l + 1) * t * d;
      for (std::size_t i = 0; i < t * d; ++i) rn[i] = r[i] + w.ytmp[i];
    }
    rmsnorm_forward(w.f.data(), w.rstdf.data(), w.R.data() + layers_.size() * t * d, p + normf_, T, c_.dim);
    linear_forward(w.logits.data(), w.f.data(), p + head_w_, p + head_b_, T, c_.dim, c_.out_width);
  }

  /// Accumulates into g the gradient for w.dlogits (set by the loss) after
  /// forward() of the same sequence with a training workspace.
  void backward(const S* p, S* g, const std::int32_t* tokens, int T, workspace& w) const {
    const std::size_t t = static_cast<std::size_t>(T), d = static_cast<std::size_t>(c_.dim), L = layers_.size();
    linear_backward(w.df.data(), g + head_w_, g + head_b_, w.dlogits.data(), w.f.data(), w.headT.data(), T, c_.dim,
                    c_.out_width);
    rmsnorm_backward(w.dR.data(), g + normf_, w.df.data(), w.R.data() + L * t * d, w.rstdf.data(), p + normf_, T, c_.dim,
                     false);
    for (std::size_t l = L; l-- > 0;) {
      // r_{l+1} = r_l + layer(norm(r_l)): dR flows to both terms.
      layers_[l].backward(p, g, w.xn.data() + l * t * d, w.dR.data(), w.dxn.data(), T, w.lw[l]);
      rmsnorm_backward(w.dR.data(), g + norm_[l], w.dxn.data(), w.R.data() + l * t * d, w.rstd.data() + l * t,
                       p + norm_[l], T, c_.dim, true);
    }
    for (std::size_t i = 0; i < t; ++i) {
      S* e = g + emb_ + static_cast<std::size_t>(tokens[i]) * d;
      const S* dr = w.dR.data() + i * d;
      for (std::size_t j = 0; j < d; ++j) e[j] += dr[j];
    }
  }

 private:
  config c_{};
  param_table table_;
  std::size_t emb_ = 0, normf_ = 0, head_w_ = 0, head_b_ = 0;
  std::vector<std::size_t> norm_;
  std::vector<layer_type> layers_;
};

/// Loss of sequence `s` from its logits (T x width); returns the SUM of the
/// per-position losses (double) and, when dlogits is not null, writes
/// scale * dLoss/dlogits (zero at unscored positions).
template <class S>
double sequence_loss(const S* logits, S* dlogits, const tasks::sequence_batch& b, std::int32_t s, int T, int width,
                     bool classes, S scale) {
  double loss = 0;
  if (dlogits) std::fill(dlogits, dlogits + static_cast<std::size_t>(T) * static_cast<std::size_t>(width), S(0));
  for (int t = 0; t < T; ++t) {
    if (!b.scored(s, t)) continue;
    const S* z = logits + static_cast<std::size_t>(t) * static_cast<std::size_t>(width);
    const int y = b.target(s, t);
    if (!classes) {
      const double zz = static_cast<double>(z[0]);
      loss += std::max(zz, 0.0) - (y ? zz : 0.0) + std::log1p(std::exp(-std::abs(zz)));
      if (dlogits) dlogits[static_cast<std::size_t>(t)] = scale * (S(1) / (S(1) + std::exp(-z[0])) - S(y ? 1 : 0));
    } else {
      if (y < 0 || y >= width) throw std::out_of_range("network: class target outside [0, num_classes)");
      S mx = z[0];
      for (int k = 1; k < width; ++k) mx = std::max(mx, z[k]);
      double se = 0;
      for (int k = 0; k < width; ++k) se += std::exp(static_cast<double>(z[k] - mx));
      loss += std::log(se) + static_cast<double>(mx) - static_cast<double>(z[y]);
      if (dlogits) {
        S* dz = dlogits + static_cast<std::size_t>(t) * static_cast<std::size_t>(width);
        for (int k = 0; k < width; ++k)
          dz[k] = scale * (static_cast<S>(std::exp(static_cast<double>(z[k] - mx)) / se) - S(k == y ? 1 : 0));
      }
    }
  }
  return loss;
}

/// Forward (and, with g != null, backward) over sequences [lo, hi) of a batch;
/// returns the summed loss. `scale` is 1 / (scored positions of the whole
/// batch), so the gradients summed over all sequences are those of the mean.
/// The single-thread building block of the trainer and of the gradient checks.
template <class S, template <class> class Layer>
double batch_loss_grad(const network<S, Layer>& net, const S* p, S* g, const tasks::sequence_batch& b, bool classes,
                       std::int32_t lo, std::int32_t hi, S scale, typename network<S, Layer>::workspace& w) {
  double loss = 0;
  if (g) net.prepare_backward(p, w);
  for (std::int32_t s = lo; s < hi; ++s) {
    const int T = std::min(b.lengths[static_cast<std::size_t>(s)], b.length);
    if (T <= 0) continue;
    net.resize(w, T, g != nullptr);
    const std::int32_t* tok = b.inputs.data() + b.index(s, 0);
    net.forward(p, tok, T, w);
    loss += sequence_loss(w.logits.data(), g ? w.dlogits.data() : static_cast<S*>(nullptr), b, s, T, net.cfg().out_width,
                          classes, scale);
    if (g) net.backward(p, g, tok, T, w);
  }
  return loss;
}

}  // namespace nn
BEM_NAMESPACE_END
