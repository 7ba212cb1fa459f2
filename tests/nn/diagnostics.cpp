// The seed section 6 diagnostics of include/bem/nn/diagnostics.hpp: the
// gradient flow series against the (finite-difference checked) parameter
// gradient of the embedding, and the count probe on networks whose hidden
// state does and does not hold the running count.
#include <bem/nn/models.hpp>
#include <bem/harness/parameters.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>
#include <tasks/temporal.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace bem;
using namespace bem::nn;

static_assert(diagnosing_model<e88_model>);
static_assert(diagnosing_model<mamba2_model>);
static_assert(diagnosing_model<linear_rnn_model>);
static_assert(diagnosing_model<mlp_model>);

namespace {
template <class M>
M make(std::initializer_list<std::pair<const char*, parameter_value>> kv) {
  parameters p;
  for (const auto& [k, v] : kv) p.set(k, v);
  p.set("threads", std::int64_t{2});
  return M(p);
}

/// One sequence per row, tokens 0..T-1 all distinct (vocab = T), so the
/// gradient at embedding row t is exactly dL/dx_t.
tasks::sequence_batch distinct_token_batch(int B, int T, std::uint64_t seed) {
  tasks::sequence_batch b;
  b.reset(B, T);
  xoshiro256ss rng(seed);
  for (int s = 0; s < B; ++s) {
    b.lengths[static_cast<std::size_t>(s)] = T;
    for (int t = 0; t < T; ++t) {
      b.input(s, t) = (t + s) % T;
      b.target(s, t) = static_cast<std::int32_t>(rng.next() & 1u);
      b.scored(s, t) = 1;
    }
  }
  return b;
}

std::size_t block_offset(const param_table& table, std::string_view name) {
  for (const auto& blk : table.blocks())
    if (blk.name == name) return blk.offset;
  FAIL("no parameter block " << name);
  return 0;
}

template <class M>
void check_grad_norm_matches_embedding_gradient(M& model, gradient_of loss) {
  const int T = 12, B = 3;
  tasks::task_spec spec;
  spec.vocab_size = T;
  model.reset(spec, 7);
  // A few training steps so the weights are not at their initial values.
  for (int i = 0; i < 3; ++i) model.learn(distinct_token_batch(4, T, 100 + static_cast<std::uint64_t>(i)));
  const tasks::sequence_batch b = distinct_token_batch(B, T, 5);
  auto& tr = model.engine();
  const std::vector<double> series = grad_norm_by_position(tr, b, false, loss);
  REQUIRE(series.size() == static_cast<std::size_t>(T));

  // Expected: per sequence, the embedding gradient of the last position's
  // loss alone, or of the mean loss over all positions (batch_loss_grad is
  // checked against finite differences).
  const auto& net = tr.net();
  const std::size_t d = static_cast<std::size_t>(net.cfg().dim), emb = block_offset(net.table(), "embedding");
  std::vector<double> expected(static_cast<std::size_t>(T), 0.0);
  typename std::remove_cvref_t<decltype(net)>::workspace w;
  for (int s = 0; s < B; ++s) {
    tasks::sequence_batch one;
    one.reset(1, T);
    one.lengths[0] = T;
    for (int t = 0; t < T; ++t) {
      one.input(0, t) = b.input(s, t);
      one.target(0, t) = b.target(s, t);
    }
    const bool full = loss == gradient_of::full_loss;
    for (int t = full ? 0 : T - 1; t < T; ++t) one.scored(0, t) = 1;
    std::vector<float> g(net.size(), 0.0f);
    batch_loss_grad(net, tr.params().data(), g.data(), one, false, 0, 1, full ? 1.0f / T : 1.0f, w);
    for (int t = 0; t < T; ++t) {
      const float* row = g.data() + emb + static_cast<std::size_t>(one.input(0, t)) * d;
      double n2 = 0;
      for (std::size_t j = 0; j < d; ++j) n2 += static_cast<double>(row[j]) * row[j];
      expected[static_cast<std::size_t>(t)] += std::sqrt(n2) / B;
    }
  }
  for (int t = 0; t < T; ++t) {
    CAPTURE(t);
    CHECK(series[static_cast<std::size_t>(t)] == doctest::Approx(expected[static_cast<std::size_t>(t)]).epsilon(1e-5));
  }
}
template <class M>
void check_grad_norms(M& model) {
  for (auto loss : {gradient_of::last_position, gradient_of::full_loss}) {
    CAPTURE(static_cast<int>(loss));
    check_grad_norm_matches_embedding_gradient(model, loss);
  }
}
}  // namespace

TEST_CASE("grad_norm_by_position is the embedding gradient of the last position's loss, or of the mean loss") {
  SUBCASE("e88") {
    auto m = make<e88_model>({{"dim", std::int64_t{16}}, {"heads", std::int64_t{2}}, {"n_state", std::int64_t{4}}});
    check_grad_norms(m);
  }
  SUBCASE("mamba2") {
    auto m = make<mamba2_model>(
        {{"d_model", std::int64_t{16}}, {"layers", std::int64_t{2}}, {"headdim", std::int64_t{8}},
         {"d_state", std::int64_t{4}}, {"checkpoint_every", std::int64_t{5}}});
    check_grad_norms(m);
  }
  SUBCASE("linear_rnn") {
    auto m = make<linear_rnn_model>({{"hidden", std::int64_t{8}}});
    check_grad_norms(m);
  }
}

TEST_CASE("without recurrence no gradient reaches earlier positions; with it, it does") {
  const int T = 10;
  tasks::task_spec spec;
  spec.vocab_size = T;
  const auto b = distinct_token_batch(4, T, 9);
  auto mlp = make<mlp_model>({{"hidden", std::int64_t{16}}, {"layers", std::int64_t{2}}});
  mlp.reset(spec, 1);
  const auto g = grad_norm_by_position(mlp.engine(), b, false);
  for (int t = 0; t < T - 1; ++t) CHECK(g[static_cast<std::size_t>(t)] == 0.0);
  CHECK(g[T - 1] > 0.0);
  auto e88 = make<e88_model>({{"dim", std::int64_t{16}}, {"heads", std::int64_t{2}}, {"n_state", std::int64_t{4}}});
  e88.reset(spec, 1);
  const auto ge = grad_norm_by_position(e88.engine(), b, false);
  for (int t = 0; t < T; ++t) CHECK(ge[static_cast<std::size_t>(t)] > 0.0);
}

TEST_CASE("ridge_solve solves a small system") {
  // A = [[4, 2, 0], [2, 5, 1], [0, 1, 3]], x = (1, -2, 3): y = A x.
  const std::vector<double> A = {4, 2, 0, 2, 5, 1, 0, 1, 3}, y = {0, -5, 7};
  const auto x = bem::nn::detail::ridge_solve(A, y, 3, 0.0);
  CHECK(x[0] == doctest::Approx(1.0));
  CHECK(x[1] == doctest::Approx(-2.0));
  CHECK(x[2] == doctest::Approx(3.0));
}

TEST_CASE("the count probe reads a count the hidden state holds, and not one it lacks") {
  // A linear RNN set by hand: embeddings E[1] = (4,0,0,0), E[0] = (0,4,0,0);
  // the block's RMSNorm maps token 1 to (2,0,0,0), W_B adds half of it to
  // h[0], W_A = I keeps it, and W_C writes h[0] into residual component 2,
  // which the embeddings leave at zero: the final hidden state holds c_t.
  auto m = make<linear_rnn_model>({{"hidden", std::int64_t{4}}, {"dim", std::int64_t{4}}});
  tasks::task_spec spec;
  m.reset(spec, 3);
  auto& tr = m.engine();
  const auto& table = tr.net().table();
  float* p = tr.params().data();
  const std::size_t emb = block_offset(table, "embedding"), wa = block_offset(table, "layers.0.W_A"),
                    wb = block_offset(table, "layers.0.W_B"), wc = block_offset(table, "layers.0.W_C");
  for (std::size_t i = 0; i < 8; ++i) p[emb + i] = 0;
  p[emb + 1] = 4;      // E[0] = (0,4,0,0)
  p[emb + 4 + 0] = 4;  // E[1] = (4,0,0,0)
  for (std::size_t i = 0; i < 16; ++i) p[wa + i] = i % 5 == 0 ? 1.0f : 0.0f;
  for (std::size_t i = 0; i < 16; ++i) p[wb + i] = p[wc + i] = 0;
  p[wb + 0] = 0.5f;    // h[0] += 0.5 * u[0]
  p[wc + 2] = 1.0f;    // y[2] = h[0]

  parameters tp;
  tp.set("length", std::int64_t{24});
  tasks::rtc_task task(tp);
  tasks::sequence_batch b;
  task.generate(0, 11, 0, 64, b);

  const auto holds = count_probe_by_position(tr, b);
  REQUIRE(holds.r2.size() == 24u);
  for (std::size_t t = 2; t < 24; ++t) {
    CAPTURE(t);
    CHECK(holds.r2[t] > 0.999);
    CHECK(holds.loss[t] < 1e-3);
  }

  p[wc + 2] = 0.0f;  // the count no longer reaches the hidden state
  const auto lacks = count_probe_by_position(tr, b);
  double mean_r2 = 0;
  for (std::size_t t = 2; t < 24; ++t) mean_r2 += lacks.r2[t] / 22.0;
  CHECK(mean_r2 < 0.5);
  CHECK(lacks.loss[23] > 1.0);
  // probe_r2 = 1 - probe_loss / variance of c_t over the held-out sequences
  // (the second half), computed here from the tokens.
  for (std::size_t t = 0; t < 24; ++t) {
    double c1 = 0, c2 = 0;
    for (std::int32_t s = 32; s < 64; ++s) {
      double c = 0;
      for (std::size_t u = 0; u <= t; ++u) c += b.input(s, static_cast<std::int32_t>(u)) == 1 ? 1.0 : 0.0;
      c1 += c / 32;
      c2 += c * c / 32;
    }
    CAPTURE(t);
    if (c2 - c1 * c1 > 1e-12)
      CHECK(lacks.r2[t] == doctest::Approx(1.0 - lacks.loss[t] / (c2 - c1 * c1)));
    else
      CHECK(std::isnan(lacks.r2[t]));
  }

  // Held out means held out: the first half reads only ones (c_t = t + 1,
  // a constant hidden state, so the probe predicts their mean everywhere),
  // the second only zeros (c_t = 0, another constant state). Scored on the
  // second half, the error is one constant at every position, and c_t does
  // not vary there, so there is no R2.
  tasks::sequence_batch split;
  split.reset(64, 24);
  for (std::int32_t s = 0; s < 64; ++s)
    for (std::int32_t t = 0; t < 24; ++t) {
      split.input(s, t) = s < 32 ? 1 : 0;
      split.scored(s, t) = 1;
    }
  const auto halves = count_probe_by_position(tr, split);
  for (std::size_t t = 0; t < 24; ++t) {
    CAPTURE(t);
    CHECK(halves.loss[t] > 0.1);
    CHECK(halves.loss[t] == doctest::Approx(halves.loss[0]));
    CHECK(std::isnan(halves.r2[t]));
  }
}

TEST_CASE("diagnose sends four series of the batch's length and leaves the model unchanged") {
  auto m = make<e88_model>({{"dim", std::int64_t{16}}, {"heads", std::int64_t{2}}, {"n_state", std::int64_t{4}}});
  parameters tp;
  tp.set("length", std::int64_t{16});
  tasks::rtc_task task(tp);
  m.reset(task.spec(), 1);
  tasks::sequence_batch b;
  task.generate(0, 2, 0, 8, b);
  m.learn(b);
  m.set_learning(false);
  tasks::prediction before, after;
  before.reset_for(b, task.spec());
  after.reset_for(b, task.spec());
  m.predict(b, before);
  std::vector<std::string> names;
  m.diagnose(b, [&](std::string_view metric, std::span<const double> series, std::string_view) {
    names.emplace_back(metric);
    CHECK(series.size() == 16u);
  });
  m.predict(b, after);
  CHECK(names == std::vector<std::string>{"grad_norm_by_position", "grad_norm_full_loss_by_position",
                                          "probe_loss_by_position", "probe_r2_by_position"});
  CHECK(before.logits == after.logits);
}
