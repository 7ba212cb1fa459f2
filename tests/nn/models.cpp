// bem::nn models as sequence models: the concept, presets and parameter
// counts, causality, determinism across runs and thread counts, the
// optimizer's arithmetic, the float tanh, that training lowers the loss,
// the loss each output kind trains with, and the figures report() sends.
#include <bem/nn/models.hpp>
#include <bem/harness/parameters.hpp>
#include <bem/harness/sequence_model.hpp>
#include <doctest/doctest.h>
#include <tasks/temporal.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

using namespace bem;
using namespace bem::nn;

static_assert(assert_pluggable_model<e88_model>());
static_assert(assert_pluggable_model<mamba2_model>());
static_assert(assert_pluggable_model<linear_rnn_model>());
static_assert(assert_pluggable_model<mlp_model>());
static_assert(reporting_model<e88_model>);
static_assert(checkpointing_model<e88_model> && checkpointing_model<mlp_model>);

namespace {
using kv_list = std::vector<std::pair<std::string, parameter_value>>;

tasks::sequence_batch fsm_batch(int B, int T, std::uint64_t seed, std::int64_t first = 0) {
  parameters p;
  p.set("length", std::int64_t{T});
  tasks::fsm_task task(p);
  tasks::sequence_batch b;
  task.generate(0, seed, first, B, b);
  return b;
}
template <class M>
M make(const kv_list& kv) {
  parameters p;
  for (const auto& [k, v] : kv) p.set(k, v);
  M m(p);
  p.check_all_used();
  return m;
}
tasks::task_spec binary_spec() {
  parameters p;
  p.set("length", std::int64_t{8});
  return tasks::fsm_task(p).spec();
}
template <class M>
kv_list small_config() {
  if constexpr (std::is_same_v<M, e88_model>)
    return {{"dim", std::int64_t{16}}, {"heads", std::int64_t{2}}, {"n_state", std::int64_t{8}}, {"checkpoint_every", std::int64_t{5}}};
  else if constexpr (std::is_same_v<M, mamba2_model>)
    return {{"d_model", std::int64_t{16}}, {"headdim", std::int64_t{8}}, {"layers", std::int64_t{2}}, {"checkpoint_every", std::int64_t{5}}};
  else
    return {{"hidden", std::int64_t{16}}};
}
}  // namespace

TEST_CASE("float tanh agrees with std::tanh within 5e-7 (a few float ulps near 1)") {
  double worst = 0;
  for (int i = -240000; i <= 240000; ++i) {
    const float x = static_cast<float>(i) * 5e-5f;
    worst = std::max(worst, std::abs(static_cast<double>(tanh_s(x)) - std::tanh(static_cast<double>(x))));
  }
  CHECK(worst < 5e-7);
}

TEST_CASE("presets have the seed's shapes (parameter counts from the formulas)") {
  const auto spec = binary_spec();  // vocab 2, one logit
  auto e1 = make<e88_model>({{"preset", std::string("E88-1L")}});
  e1.reset(spec, 1);
  // emb 2*128; per layer: norm 128, W_qkv 128*1536, W_a 128*16, dt_bias 16, A_log 16, W_o 512*128;
  // final norm 128, head 128 + 1. No output gate: the authors' E88 leaves it off.
  CHECK(e1.parameter_count() == 256u + 128 + 128 * 1536 + 128 * 16 + 32 + 512 * 128 + 128 + 129);
  auto e1_gated = make<e88_model>({{"preset", std::string("E88-1L")}, {"gate", true}});
  e1_gated.reset(spec, 1);
  CHECK(e1_gated.parameter_count() == e1.parameter_count() + 128 * 512);  // W_g
  auto e4 = make<e88_model>({{"preset", std::string("E88-4L")}});
  e4.reset(spec, 1);
  CHECK(e4.parameter_count() == 128u + 4 * (64 + 64 * 384 + 64 * 4 + 8 + 128 * 64) + 64 + 65);
  auto m32 = make<mamba2_model>({{"preset", std::string("Mamba2-32L")}});
  m32.reset(spec, 1);
  // per layer: norm 64, W_in 64*(128+160+2), conv 160*4+160, dt_bias/A_log/D 3*2, norm_w 128, W_out 128*64
  CHECK(m32.parameter_count() == 128u + 32 * (64 + 64 * 290 + 800 + 6 + 128 + 128 * 64) + 64 + 65);
  auto l = make<linear_rnn_model>({});
  l.reset(spec, 1);
  CHECK(l.parameter_count() == 256u + 128 + 3 * 128 * 128 + 128 + 129);
  auto m = make<mlp_model>({});
  m.reset(spec, 1);
  CHECK(m.parameter_count() == 256u + 4 * (128 + 128 * 128 + 128) + 128 + 129);
}

TEST_CASE("unknown variants and inconsistent shapes are rejected") {
  parameters p;
  p.set("variant", std::string("quadratic"));
  CHECK_THROWS_AS(e88_model{p}, parameter_error);
  parameters q;
  q.set("headdim", std::int64_t{48});
  CHECK_THROWS_AS(mamba2_model{q}, parameter_error);
  // head_v defaults to n_state: the error names the key that was set.
  parameters wide;
  wide.set("n_state", std::int64_t{300});
  CHECK_THROWS_WITH_AS(e88_model{wide}, doctest::Contains("'n_state'"), parameter_error);
  wide.set("head_v", std::int64_t{64});
  CHECK_NOTHROW(e88_model{wide});
}

TEST_CASE_TEMPLATE("causal, pure prediction and reproducible training", M, e88_model, mamba2_model, linear_rnn_model,
                   mlp_model) {
  const auto spec = binary_spec();
  auto a = make<M>(small_config<M>());
  auto b = make<M>(small_config<M>());
  a.reset(spec, 7);
  b.reset(spec, 7);
  std::vector<double> la, lb;
  for (int s = 0; s < 3; ++s) {
    const auto batch = fsm_batch(8, 24, 3, s * 8);
    la.push_back(a.learn(batch));
    lb.push_back(b.learn(batch));
  }
  CHECK(la == lb);  // bit-identical for the same seed and thread count
  a.set_learning(false);
  auto test = fsm_batch(4, 24, 99);
  tasks::prediction p1, p2;
  p1.reset_for(test, spec);
  p2.reset_for(test, spec);
  a.predict(test, p1);
  a.predict(test, p2);
  CHECK(p1.logits == p2.logits);
  // causality: changing the inputs after position 10 leaves logits 0..10 unchanged
  for (int t = 11; t < 24; ++t) test.input(0, t) = 1 - test.input(0, t);
  a.predict(test, p2);
  for (int t = 0; t <= 10; ++t) CHECK(p1.at(0, t)[0] == p2.at(0, t)[0]);
  bool later_changed = false;
  for (int t = 11; t < 24; ++t) later_changed |= p1.at(0, t)[0] != p2.at(0, t)[0];
  CHECK(later_changed);
}

TEST_CASE_TEMPLATE("a restored checkpoint predicts as the model did when it was kept", M, e88_model, mamba2_model,
                   linear_rnn_model, mlp_model) {
  const auto spec = binary_spec();
  auto m = make<M>(small_config<M>());
  m.reset(spec, 5);
  CHECK_THROWS_AS(m.restore_checkpoint(), std::logic_error);  // nothing kept yet
  const auto test = fsm_batch(4, 24, 77);
  tasks::prediction kept, later, restored;
  for (auto* p : {&kept, &later, &restored}) p->reset_for(test, spec);
  m.learn(fsm_batch(8, 24, 3));
  m.keep_checkpoint();
  m.predict(test, kept);
  for (int s = 1; s < 4; ++s) m.learn(fsm_batch(8, 24, 3, s * 8));
  m.predict(test, later);
  CHECK(later.logits != kept.logits);  // training moved the weights
  m.restore_checkpoint();
  m.predict(test, restored);
  CHECK(restored.logits == kept.logits);
  m.reset(spec, 5);  // a reset forgets the checkpoint
  CHECK_THROWS_AS(m.restore_checkpoint(), std::logic_error);
}

TEST_CASE("one and two threads agree to float rounding") {
  const auto spec = binary_spec();
  kv_list c1 = small_config<e88_model>(), c2 = c1;
  c1.emplace_back("threads", std::int64_t{1});
  c2.emplace_back("threads", std::int64_t{2});
  auto one = make<e88_model>(c1);
  auto two = make<e88_model>(c2);
  one.reset(spec, 5);
  two.reset(spec, 5);
  for (int s = 0; s < 3; ++s) {
    const auto batch = fsm_batch(6, 20, 4, s * 6);
    const double l1 = one.learn(batch), l2 = two.learn(batch);
    CHECK(l1 == doctest::Approx(l2).epsilon(1e-5));
    CHECK(one.engine().last_grad_norm() == doctest::Approx(two.engine().last_grad_norm()).epsilon(1e-4));
  }
  // One sequence, two threads: the idle thread's buffer still holds the last
  // batch's gradient and must add nothing.
  const auto single = fsm_batch(1, 20, 4, 99);
  CHECK(one.learn(single) == doctest::Approx(two.learn(single)).epsilon(1e-5));
  CHECK(one.engine().last_grad_norm() == doctest::Approx(two.engine().last_grad_norm()).epsilon(1e-4));
}

TEST_CASE("AdamW: one step by hand, decay skipped for no-decay blocks, cosine schedule") {
  param_table t;
  t.add("w", 1, 2, init_kind::zeros, true);
  t.add("A_log", 1, 1, init_kind::zeros, false);
  adamw_config c;
  c.lr = 0.1;
  c.lr_min = 0.01;
  c.weight_decay = 0.5;
  c.grad_clip = 1.0;
  c.total_steps = 4;
  adamw<double> opt(c, 3);
  std::vector<double> p = {1.0, -2.0, 3.0}, g = {3.0, 4.0, 0.0};  // norm 5, clipped to 1
  const double norm = opt.update(t, p.data(), g.data());
  CHECK(norm == doctest::Approx(5.0));
  // first step: m / (1 - b1) = g', v / (1 - b2) = g'^2, so the Adam step is lr * sign(g')
  CHECK(p[0] == doctest::Approx(1.0 * (1 - 0.1 * 0.5) - 0.1).epsilon(1e-6));
  CHECK(p[1] == doctest::Approx(-2.0 * (1 - 0.1 * 0.5) - 0.1).epsilon(1e-6));
  CHECK(p[2] == doctest::Approx(3.0));  // no decay, zero gradient
  const double pi = 3.14159265358979;
  const double lr1 = 0.01 + 0.09 * 0.5 * (1 + std::cos(pi / 4));
  CHECK(opt.learning_rate() == doctest::Approx(lr1));

  // Second step: norm 0.5 is under the clip, so g is used as it is (not
  // scaled up to the clip); lr_1 from the schedule; both moments carried over.
  const double g1[2] = {3.0 / 5.000001, 4.0 / 5.000001};  // step 1's clipped gradient
  const double p1[2] = {p[0], p[1]};
  std::vector<double> g2 = {0.3, 0.4, 0.0};
  CHECK(opt.update(t, p.data(), g2.data()) == doctest::Approx(0.5));
  for (int i = 0; i < 2; ++i) {
    const double m = 0.9 * (0.1 * g1[i]) + 0.1 * g2[static_cast<std::size_t>(i)];
    const double v = 0.999 * (0.001 * g1[i] * g1[i]) + 0.001 * g2[static_cast<std::size_t>(i)] * g2[static_cast<std::size_t>(i)];
    const double want = p1[i] * (1 - lr1 * 0.5) - lr1 * (m / (1 - 0.9 * 0.9)) / (std::sqrt(v / (1 - 0.999 * 0.999)) + 1e-8);
    CHECK(p[static_cast<std::size_t>(i)] == doctest::Approx(want).epsilon(1e-9));
  }

  // The schedule reaches lr_min after total_steps and stays there.
  const double expected[] = {0.01 + 0.09 * 0.5 * (1 + std::cos(pi * 3 / 4)), 0.01, 0.01, 0.01};
  for (double want : expected) {
    std::vector<double> zero(3, 0.0);
    opt.update(t, p.data(), zero.data());
    CHECK(opt.learning_rate() == doctest::Approx(want));
  }
  CHECK(opt.steps() == 6);
}

TEST_CASE("training lowers the loss (E88 on FSM)") {
  const auto spec = binary_spec();
  kv_list c = small_config<e88_model>();
  c.emplace_back("lr", 0.01);
  auto m = make<e88_model>(c);
  m.reset(spec, 2);
  double first = 0, last = 0;
  for (int s = 0; s < 40; ++s) {
    const double l = m.learn(fsm_batch(16, 16, 6, s * 16));
    if (s == 0) first = l;
    last = l;
  }
  CHECK(last < 0.6 * first);
  std::vector<std::string> names;
  m.report([&](std::string_view metric, double v, std::string_view) {
    names.emplace_back(metric);
    CHECK(std::isfinite(v));
  });
  CHECK(names.size() == 5);
}

TEST_CASE("a step whose loss is not finite throws training_diverged and changes nothing") {
  // lr 10 makes the first AdamW step put entries of +-10 into the linear
  // RNN's recurrence, so the next forward pass overflows within a few
  // positions and its loss is NaN.
  const auto spec = binary_spec();
  auto m = make<linear_rnn_model>({{"hidden", std::int64_t{16}}, {"lr", 10.0}, {"grad_clip", 0.0}});
  m.reset(spec, 3);
  const auto batch = fsm_batch(4, 64, 8);
  CHECK(std::isfinite(m.learn(batch)));
  const std::vector<float> before = m.engine().params();
  const std::int64_t steps_before = m.engine().optimizer().steps();
  std::int64_t diverged_at = 0;
  try {
    m.learn(batch);
  } catch (const training_diverged& e) {
    diverged_at = e.step();
    CHECK(std::string(e.what()).find("training diverged at step 2") == 0);
  }
  CHECK(diverged_at == 2);
  CHECK(m.engine().params() == before);
  CHECK(m.engine().optimizer().steps() == steps_before);
}

TEST_CASE("a finite loss whose gradient overflows throws training_diverged too") {
  // Every parameter 0 but three: both tokens embed as e_0, the final norm's
  // gain on component 0 is 1e-3 and its head weight -3.4e38 (near the float
  // maximum). Each logit is then about -1.4e36 and the loss, taken in double,
  // is finite, but the gain's gradient sums 3.4e38 / count * 4 over the
  // positions labelled 1 and overflows float.
  const auto spec = binary_spec();
  auto m = make<mlp_model>({{"hidden", std::int64_t{16}}});
  m.reset(spec, 3);
  auto& p = m.engine().params();
  std::fill(p.begin(), p.end(), 0.0f);
  for (const auto& b : m.engine().net().table().blocks()) {
    if (b.name == "embedding")
      for (int r = 0; r < b.rows; ++r) p[b.offset + static_cast<std::size_t>(r * b.cols)] = 1.0f;
    if (b.name == "norm_f") p[b.offset] = 1e-3f;
    if (b.name == "head_w") p[b.offset] = -3.4e38f;
  }
  const std::vector<float> before = p;
  std::string error;
  try {
    m.learn(fsm_batch(1, 64, 8));
  } catch (const training_diverged& e) {
    error = e.what();
  }
  CHECK(error.find("training diverged at step 1: loss ") == 0);
  CHECK(error.find("nan") == std::string::npos);  // the loss is finite (about 1.25e36)
  CHECK(error.find("loss inf") == std::string::npos);
  CHECK(error.find("gradient norm inf") != std::string::npos);
  CHECK(m.engine().params() == before);
  CHECK(m.engine().optimizer().steps() == 0);
}

TEST_CASE("every Mamba2 preset has its depth; the linear RNN's width follows hidden; E88 takes n_state 256 alone") {
  const auto spec = binary_spec();
  for (const auto& [preset, depth] : std::vector<std::pair<std::string, std::size_t>>{
           {"Mamba2-4L", 4}, {"Mamba2-8L", 8}, {"Mamba2-16L", 16}, {"Mamba2-32L", 32}}) {
    CAPTURE(preset);
    auto m = make<mamba2_model>({{"preset", preset}});
    m.reset(spec, 1);
    CHECK(m.engine().net().layers().size() == depth);
    CHECK(m.engine().net().cfg().dim == 64);
  }
  // dim defaults to hidden: emb 2*16, norm 16, W_A, W_B, W_C 16*16 each, final norm 16, head 16 + 1
  auto l = make<linear_rnn_model>({{"hidden", std::int64_t{16}}});
  l.reset(spec, 1);
  CHECK(l.engine().net().cfg().dim == 16);
  CHECK(l.parameter_count() == 32u + 16 + 3 * 16 * 16 + 16 + 17);
  // head_v defaults to n_state and may be 256, so n_state 256 needs no head_v.
  auto e = make<e88_model>({{"n_state", std::int64_t{256}}});
  CHECK(e.layer_config().head_v == 256);
}

namespace {
/// The figures report() sends, by name.
template <class M>
std::vector<std::pair<std::string, double>> reported(const M& m) {
  std::vector<std::pair<std::string, double>> r;
  m.report([&](std::string_view metric, double v, std::string_view) { r.emplace_back(std::string(metric), v); });
  return r;
}
double figure(const std::vector<std::pair<std::string, double>>& r, const std::string& name) {
  for (const auto& [k, v] : r)
    if (k == name) return v;
  return -1;  // not reported
}
}  // namespace

TEST_CASE("report: state bytes count hidden floats per layer; peak memory follows the longest sequence since reset") {
  const auto spec = binary_spec();
  auto m = make<linear_rnn_model>({{"hidden", std::int64_t{16}}, {"dim", std::int64_t{8}}, {"layers", std::int64_t{2}}});
  m.reset(spec, 1);
  auto r = reported(m);
  CHECK(figure(r, "state_bytes_per_sequence") == static_cast<double>(2 * 16 * sizeof(float)));
  CHECK(figure(r, "peak_training_bytes") == -1);  // nothing trained yet
  m.learn(fsm_batch(4, 12, 1));
  m.learn(fsm_batch(4, 8, 2));
  CHECK(figure(reported(m), "peak_training_bytes") == static_cast<double>(m.engine().peak_training_bytes(12)));
  // A reset starts a new task: what was trained before no longer counts.
  m.reset(spec, 1);
  CHECK(figure(reported(m), "peak_training_bytes") == -1);
  m.learn(fsm_batch(4, 8, 2));
  r = reported(m);
  CHECK(figure(r, "peak_training_bytes") == static_cast<double>(m.engine().peak_training_bytes(8)));
  CHECK(figure(r, "optimizer_steps") == 1);
  CHECK(m.engine().peak_training_bytes(8) < m.engine().peak_training_bytes(12));

  auto mlp = make<mlp_model>({{"hidden", std::int64_t{8}}});
  mlp.reset(spec, 1);
  CHECK(figure(reported(mlp), "state_bytes_per_sequence") == 0);
}

TEST_CASE("with learning off, learn returns NaN and changes nothing") {
  const auto spec = binary_spec();
  auto m = make<mlp_model>({{"hidden", std::int64_t{8}}});
  m.reset(spec, 1);
  const std::vector<float> before = m.engine().params();
  m.set_learning(false);
  CHECK(std::isnan(m.learn(fsm_batch(4, 8, 1))));
  CHECK(m.engine().params() == before);
  CHECK(m.engine().optimizer().steps() == 0);
  m.set_learning(true);
  CHECK(std::isfinite(m.learn(fsm_batch(4, 8, 1))));
  CHECK(m.engine().optimizer().steps() == 1);
}

TEST_CASE("the loss matches the output kind: BCE for binary outputs, per position or final; cross-entropy for classes") {
  // Every parameter zero makes every logit 0: each scored position then
  // costs ln 2 under BCE and ln K under a K-class cross-entropy.
  tasks::sequence_batch b;
  b.reset(3, 5);
  for (int s = 0; s < 3; ++s) {
    b.scored(s, 4) = 1;
    b.target(s, 4) = s % 2;
  }
  struct kind {
    tasks::output_kind output;
    int classes;
    double loss;
  };
  for (const kind k : {kind{tasks::output_kind::binary_per_position, 2, std::log(2.0)},
                       kind{tasks::output_kind::binary_final, 2, std::log(2.0)},
                       kind{tasks::output_kind::class_final, 3, std::log(3.0)}}) {
    CAPTURE(tasks::to_string(k.output));
    tasks::task_spec spec;
    spec.output = k.output;
    spec.num_classes = k.classes;
    auto m = make<mlp_model>({{"hidden", std::int64_t{4}}});
    m.reset(spec, 1);
    std::fill(m.engine().params().begin(), m.engine().params().end(), 0.0f);
    CHECK(m.learn(b) == doctest::Approx(k.loss).epsilon(1e-6));
  }
}

TEST_CASE("training after predicting a sequence of the same length") {
  // predict() and learn() share the workspaces; one sized for prediction
  // must be resized before a training step uses its gradient buffers.
  const auto spec = binary_spec();
  auto a = make<mlp_model>({{"hidden", std::int64_t{8}}});
  auto b = make<mlp_model>({{"hidden", std::int64_t{8}}});
  a.reset(spec, 4);
  b.reset(spec, 4);
  const auto batch = fsm_batch(4, 10, 5);
  tasks::prediction out;
  out.reset_for(batch, spec);
  a.predict(batch, out);
  CHECK(a.learn(batch) == b.learn(batch));
  CHECK(a.engine().params() == b.engine().params());
}
