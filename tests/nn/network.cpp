// The network wrapper (network.hpp) and the two baseline layers
// (baseline_layers.hpp) beyond their gradients: the workspace size the
// trainer reports, the documented initial transition of the linear RNN,
// which positions the loss averages over, and the id checks that keep a
// token or class outside the tables from being read.
#include "gradcheck.hpp"

#include <bem/nn/baseline_layers.hpp>
#include <bem/nn/network.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

using namespace bem;
using namespace bem::nn;

namespace {
template <class S>
std::size_t values_held(std::initializer_list<const std::vector<S>*> vs) {
  std::size_t n = 0;
  for (const auto* v : vs) n += v->size();
  return n;
}
template <class S>
std::size_t values_held(const typename linear_rnn_layer<S>::workspace& w) {
  return values_held<S>({&w.h, &w.g, &w.WAT, &w.WBT, &w.WCT});
}
template <class S>
std::size_t values_held(const typename mlp_layer<S>::workspace& w) {
  return values_held<S>({&w.pre, &w.dpre, &w.WT});
}

/// Bytes a training workspace holds once it has run forward and backward on
/// one sequence of T tokens: every buffer of the network and of its layers.
template <template <class> class Layer>
std::size_t bytes_after_training_step(const typename network<double, Layer>::config& c, int T) {
  network<double, Layer> net(c);
  std::vector<double> p(net.size()), g(net.size(), 0.0);
  net.table().initialise(p.data(), 5);
  const auto b = nntest::random_batch(1, T, c.vocab, c.out_width, c.out_width > 1, 6);
  typename network<double, Layer>::workspace w;
  batch_loss_grad(net, p.data(), g.data(), b, c.out_width > 1, 0, 1, 1.0, w);
  std::size_t n = values_held<double>({&w.R, &w.xn, &w.rstd, &w.ytmp, &w.f, &w.rstdf, &w.logits, &w.dlogits, &w.df,
                                       &w.dR, &w.dxn, &w.headT});
  for (const auto& lw : w.lw) n += values_held<double>(lw);
  return n * sizeof(double);
}
}  // namespace

TEST_CASE("workspace_bytes is what a training workspace holds after a step (linear RNN, MLP)") {
  // peak_training_bytes, a reported figure, is built from these.
  network<double, linear_rnn_layer>::config rc;
  rc.vocab = 3;
  rc.dim = 5;
  rc.layers = 2;
  rc.out_width = 3;
  rc.layer.dim = 5;
  rc.layer.hidden = 7;
  network<double, linear_rnn_layer> rnn(rc);
  CHECK(bytes_after_training_step<linear_rnn_layer>(rc, 9) == rnn.workspace_bytes(9));
  // each layer by itself: h and g (T x hidden), W_A^T, W_B^T, W_C^T
  CHECK(rnn.layers()[0].workspace_bytes(9) == (2 * 9 * 7 + 7 * 7 + 2 * 7 * 5) * sizeof(double));

  network<double, mlp_layer>::config mc;
  mc.vocab = 2;
  mc.dim = 6;
  mc.layers = 3;
  mc.layer.dim = 6;
  network<double, mlp_layer> mlp(mc);
  CHECK(bytes_after_training_step<mlp_layer>(mc, 4) == mlp.workspace_bytes(4));
  // pre-activations and their gradient (T x dim each), W^T
  CHECK(mlp.layers()[0].workspace_bytes(4) == (2 * 4 * 6 + 6 * 6) * sizeof(double));
}

TEST_CASE("the linear RNN's transition starts at 0.95 I in every layer") {
  network<double, linear_rnn_layer>::config c;
  c.dim = 3;
  c.layers = 2;
  c.layer.dim = 3;
  c.layer.hidden = 4;
  network<double, linear_rnn_layer> net(c);
  std::vector<double> p(net.size());
  net.table().initialise(p.data(), 11);
  int found = 0;
  for (const auto& blk : net.table().blocks()) {
    if (blk.name.find("W_A") == std::string::npos) continue;
    ++found;
    REQUIRE(blk.rows == 4);
    REQUIRE(blk.cols == 4);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        CAPTURE(blk.name);
        CAPTURE(i);
        CAPTURE(j);
        CHECK(p[blk.offset + static_cast<std::size_t>(i * 4 + j)] == (i == j ? 0.95 : 0.0));
      }
  }
  CHECK(found == 2);
}

TEST_CASE("scored_positions counts masked positions within each sequence's length") {
  tasks::sequence_batch b;
  b.reset(3, 6);
  b.lengths = {6, 4, 0};
  for (int t : {1, 3, 5}) b.scored(0, t) = 1;        // 3 of 6
  for (int t : {0, 1, 2, 3, 5}) b.scored(1, t) = 1;  // 4: t = 5 is padding
  b.scored(2, 0) = 1;                                // 0: an empty sequence
  CHECK(b.scored_positions() == 7);

  // The loss is their mean: with every parameter zero each logit is 0 and
  // each scored position costs ln 2, so the mean is ln 2 whatever the mask.
  network<double, mlp_layer>::config c;
  c.dim = 4;
  c.layer.dim = 4;
  network<double, mlp_layer> net(c);
  std::vector<double> p(net.size(), 0.0), g(net.size(), 0.0);
  typename network<double, mlp_layer>::workspace w;
  const double scale = 1.0 / static_cast<double>(b.scored_positions());
  CHECK(batch_loss_grad(net, p.data(), g.data(), b, false, 0, 3, scale, w) * scale == doctest::Approx(std::log(2.0)));
  // ... and the bias of the head gets the mean of sigmoid(0) - y = 1/2 - y
  // over those same positions (all targets are 0 here).
  CHECK(g[net.table().blocks().back().offset] == doctest::Approx(0.5));
}

TEST_CASE("a token id or class target outside its range is refused, the last valid one accepted") {
  network<double, mlp_layer>::config c;
  c.vocab = 3;
  c.dim = 2;
  c.layer.dim = 2;
  network<double, mlp_layer> net(c);
  std::vector<double> p(net.size());
  net.table().initialise(p.data(), 1);
  typename network<double, mlp_layer>::workspace w;
  net.resize(w, 2, false);
  const std::int32_t last[] = {0, 2}, past[] = {0, 3}, negative[] = {-1, 0};
  CHECK_NOTHROW(net.forward(p.data(), last, 2, w));
  CHECK_THROWS_AS(net.forward(p.data(), past, 2, w), std::out_of_range);
  CHECK_THROWS_AS(net.forward(p.data(), negative, 2, w), std::out_of_range);

  // three classes: target 2 is the last, 3 is one past it
  tasks::sequence_batch b;
  b.reset(1, 1);
  b.scored(0, 0) = 1;
  const double logits[3] = {0.0, 0.0, 0.0};
  double dlogits[3];
  b.target(0, 0) = 2;
  CHECK(sequence_loss(logits, dlogits, b, 0, 1, 3, true, 1.0) == doctest::Approx(std::log(3.0)));
  CHECK(dlogits[2] == doctest::Approx(1.0 / 3 - 1));
  b.target(0, 0) = 3;
  CHECK_THROWS_AS(sequence_loss(logits, dlogits, b, 0, 1, 3, true, 1.0), std::out_of_range);
}
