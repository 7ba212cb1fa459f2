// E88 and Mamba2 as character LMs (bem/learn/language_model_nn.hpp): the
// windows that train and score them, the gradient of the per-position
// softmax head over C against finite differences, and the frozen score.
#include "../nn/gradcheck.hpp"

#include <bem/learn/language_model_nn.hpp>
#include <tasks/corpus.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace {

using namespace bem;

std::vector<std::uint32_t> symbols(const std::string& s) {
  std::vector<std::uint32_t> v;
  for (char c : s) v.push_back(static_cast<std::uint32_t>(tasks::symbol_of(c)));
  return v;
}

const std::string line = "The page lock protects the list of free pages; take it before the zone lock.\n";

/// A batch as the char LM makes them: two training windows, and the scoring
/// windows of the last 9 symbols of a 30-symbol text (window 8: chunks of 4,
/// the first scored from position 4, the last one shorter).
tasks::sequence_batch lm_batch() {
  const auto text = symbols(line);
  std::vector<learn::lm_window> w = {{0, 8, 0}, {13, 8, 0}};
  for (const auto& x : learn::scoring_windows(30, 21, 8)) w.push_back(x);
  tasks::sequence_batch b;
  learn::fill_lm_batch(std::span(text).first(30), w, b);
  return b;
}

/// Every gradient of the mean per-position cross-entropy over C against
/// central differences (h = 1e-5), each element within 1e-6 relative.
template <template <class> class Layer>
void check_gradients(const typename nn::network<double, Layer>::config& c) {
  const nn::network<double, Layer> net(c);
  std::vector<double> p(net.size()), g;
  net.table().initialise(p.data(), 3);
  const auto b = lm_batch();
  nntest::analytic(net, p, g, b, true);
  const double scale = 1.0 / static_cast<double>(b.scored_positions());
  typename nn::network<double, Layer>::workspace w;
  auto loss = [&] { return nn::batch_loss_grad(net, p.data(), static_cast<double*>(nullptr), b, true, 0, b.batch_size, scale, w) * scale; };
  int bad = 0;
  for (const auto& blk : net.table().blocks()) {
    double gnorm = 0;
    for (std::size_t i = blk.offset; i < blk.offset + blk.size; ++i) {
      const double keep = p[i];
      p[i] = keep + 1e-5;
      const double lp = loss();
      p[i] = keep - 1e-5;
      const double lm = loss();
      p[i] = keep;
      const double num = (lp - lm) / 2e-5;
      gnorm += g[i] * g[i];
      if (std::abs(num - g[i]) > 1e-6 * std::max(std::abs(num), std::abs(g[i])) + 1e-9 && bad++ < 5)
        FAIL_CHECK(blk.name << "[" << i - blk.offset << "]: numeric " << num << ", analytic " << g[i]);
    }
    CHECK_MESSAGE(gnorm > 0, blk.name << " has no gradient (untested)");
  }
}

}  // namespace

TEST_CASE("scoring windows predict each symbol once, from up to window - 1 symbols before it") {
  for (int window : {2, 7, 8, 256})
    for (std::size_t from : {1u, 5u, 300u}) {
      CAPTURE(window);
      CAPTURE(from);
      const std::size_t n = 1000;
      std::vector<int> seen(n, 0);
      for (const auto& w : learn::scoring_windows(n, from, window)) {
        CHECK(w.length <= window);
        for (std::int32_t t = w.scored_from; t < w.length; ++t) {
          const std::size_t target = w.start + static_cast<std::size_t>(t) + 1;
          ++seen[target];
          // the state has read min(target, window / 2) symbols or more
          CHECK(static_cast<std::size_t>(t) + 1 >= std::min<std::size_t>(target, static_cast<std::size_t>(window / 2)));
        }
        CHECK(w.start + static_cast<std::size_t>(w.length) < n);
      }
      for (std::size_t i = 0; i < n; ++i) CHECK(seen[i] == (i >= from ? 1 : 0));
    }
  CHECK_THROWS_AS(learn::scoring_windows(10, 0, 8), std::invalid_argument);
}

TEST_CASE("a window's target at t is the symbol after its input at t") {
  const auto b = lm_batch();
  const auto text = symbols(line);
  CHECK(b.batch_size == 5);  // 2 training windows, 3 scoring windows
  CHECK(b.lengths[4] == 5);  // inputs 24..28, target 29 scored only
  for (std::int32_t s = 0; s < b.batch_size; ++s)
    for (std::int32_t t = 0; t + 1 < b.lengths[static_cast<std::size_t>(s)]; ++t) CHECK(b.target(s, t) == b.input(s, t + 1));
  CHECK(b.input(1, 0) == static_cast<std::int32_t>(text[13]));
  CHECK(b.scored_positions() == 16 + 9);
  tasks::sequence_batch bad;
  const std::vector<learn::lm_window> beyond = {{25, 5, 0}};
  CHECK_THROWS_AS(learn::fill_lm_batch(std::span(text).first(30), beyond, bad), std::out_of_range);
}

TEST_CASE("the softmax head over C: E88's and Mamba2's gradients match finite differences") {
  nn::network<double, nn::e88_layer>::config e;
  e.vocab = e.out_width = tasks::alphabet_size;
  e.dim = e.layer.dim = 6;
  e.layer.heads = 2, e.layer.n_state = 3, e.layer.head_v = 2, e.layer.chunk = 3;
  check_gradients<nn::e88_layer>(e);
  nn::network<double, nn::mamba2_layer>::config m;
  m.vocab = m.out_width = tasks::alphabet_size;
  m.dim = m.layer.dim = 4;
  m.layer.d_state = 3, m.layer.headdim = 4, m.layer.chunk = 3;
  check_gradients<nn::mamba2_layer>(m);
}

TEST_CASE("a small Mamba2 learns a repeated line, and its score is the softmax of its logits") {
  std::string text;
  for (int i = 0; i < 40; ++i) text += line;
  const auto all = symbols(text);
  const std::size_t train = all.size() - 3 * line.size();
  parameters arch;
  arch.set("layers", std::int64_t{1});
  arch.set("d_model", std::int64_t{16});
  arch.set("headdim", std::int64_t{16});
  learn::nn_lm_settings s;
  s.train_symbols = 150 * 4 * 32, s.window = 32, s.batch = 4, s.lr = 1e-2, s.lr_min = 1e-3, s.threads = 2;
  learn::nn_char_lm<nn::mamba2_model> m(arch, s, tasks::alphabet_size, 5);
  CHECK(m.steps() == 150);
  const std::span<const std::uint32_t> a(all);
  const double before = m.code_length(a, train) / static_cast<double>(all.size() - train);
  CHECK(before > 5.0);  // untrained: about log2 96 = 6.6 bits
  const auto r = m.train(a.first(train), 5);
  CHECK(r.symbols == 150 * 4 * 32);
  const double after = m.code_length(a, train) / static_cast<double>(all.size() - train);
  CHECK(after < 1.0);
  CHECK(r.final_bits_per_symbol < 1.5);
  // The same bits from the model's logits, softmax by hand, window by window.
  const auto windows = learn::scoring_windows(all.size(), train, s.window);
  tasks::sequence_batch b;
  learn::fill_lm_batch(a, windows, b);
  tasks::prediction out;
  out.reset(b.batch_size, b.length, tasks::alphabet_size);
  m.model().predict(b, out);
  double bits = 0;
  for (std::int32_t q = 0; q < b.batch_size; ++q)
    for (std::int32_t t = 0; t < b.lengths[static_cast<std::size_t>(q)]; ++t) {
      if (!b.scored(q, t)) continue;
      const float* z = out.at(q, t);
      double se = 0;
      for (int k = 0; k < tasks::alphabet_size; ++k) se += std::exp(static_cast<double>(z[k]));
      bits -= std::log2(std::exp(static_cast<double>(z[b.target(q, t)])) / se);
    }
  CHECK(m.code_length(a, train) == doctest::Approx(bits).epsilon(1e-5));
}
