// bem::learn — the trained sequence models of bem::nn (E88, Mamba2) as
// character language models (BEM suite §4.1), at a stated training budget.
//
// The network is bem::nn's own: embedding of the 96 symbols of C, the
// pre-norm residual blocks, the final RMSNorm and a linear head of 96
// logits, with the softmax cross-entropy of network.hpp at every position
// (nn::sequence_loss, class outputs). Nothing here is a second copy of it:
// a window of text is a tasks::sequence_batch whose target at position t is
// the symbol after input t, every position scored.
//
// Training (truncated backpropagation through time): each step takes
// `batch` windows of `window` symbols at starts drawn uniformly from the
// training text (bem's PRNG), the recurrent state starting from zero in
// each, and makes one AdamW step on the mean cross-entropy (cosine schedule
// from lr to lr_min over the run). Steps = ceil(train_symbols / (batch *
// window)); the symbols consumed, steps * batch * window, are reported.
//
// Scoring (frozen, §4.1.2): the test is the continuation of the training
// text. Its symbols are taken in chunks of window/2; the window that scores
// a chunk starts window/2 symbols before it (in train for the first chunk),
// so each test symbol is predicted once, from a state that has read between
// window/2 and window - 1 symbols before it: the context length the model
// was trained on, as the layers start every sequence from a zero state. The
// cost of that overlap (each symbol read twice) is in the cycles.
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/nn/models.hpp>
#include <bem/nn/network.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace learn {

/// The budget and optimiser of a character LM run.
struct nn_lm_settings {
  std::int64_t train_symbols = 4'000'000;  ///< training symbols to consume (rounded up to whole steps)
  int window = 256;                        ///< symbols per training sequence (the BPTT length)
  int batch = 8;                           ///< sequences per AdamW step
  double lr = 5e-3, lr_min = 5e-4;         ///< cosine schedule over the run's steps
  int threads = 2;
};

/// One window of a text: inputs text[start, start + length), targets one
/// symbol later, scored from position `scored_from`.
struct lm_window {
  std::size_t start = 0;
  std::int32_t length = 0;
  std::int32_t scored_from = 0;
};

/// Fills `b` with `windows`, padded to the longest (shorter ones have their
/// length in b.lengths). Targets must lie inside `text`.
inline void fill_lm_batch(std::span<const std::uint32_t> text, std::span<const lm_window> windows,
                          tasks::sequence_batch& b) {
  std::int32_t T = 1;
  for (const auto& w : windows) T = std::max(T, w.length);
  b.reset(static_cast<std::int32_t>(windows.size()), T);
  for (std::size_t s = 0; s < windows.size(); ++s) {
    const lm_window& w = windows[s];
    if (w.length > 0 && w.start + static_cast<std::size_t>(w.length) >= text.size())
      throw std::out_of_range("fill_lm_batch: a window's last target lies beyond the text");
    const auto si = static_cast<std::int32_t>(s);
    b.lengths[s] = w.length;
    for (std::int32_t t = 0; t < w.length; ++t) {
      b.input(si, t) = static_cast<std::int32_t>(text[w.start + static_cast<std::size_t>(t)]);
      b.target(si, t) = static_cast<std::int32_t>(text[w.start + static_cast<std::size_t>(t) + 1]);
      b.scored(si, t) = t >= w.scored_from ? 1 : 0;
    }
  }
}

/// The scoring windows of the symbols text[from, text.size()) (the file
/// comment): chunks of `window / 2` targets, each window starting up to
/// window / 2 symbols before its chunk.
inline std::vector<lm_window> scoring_windows(std::size_t text_size, std::size_t from, int window) {
  if (from == 0) throw std::invalid_argument("scoring_windows: the first scored symbol needs one symbol before it");
  const std::size_t chunk = static_cast<std::size_t>(std::max(1, window / 2));
  const std::size_t lead = static_cast<std::size_t>(window) - chunk;
  std::vector<lm_window> v;
  for (std::size_t first = from; first < text_size; first += chunk) {
    const std::size_t end = std::min(text_size, first + chunk);  // targets [first, end)
    const std::size_t start = first - 1 - std::min(first - 1, lead);
    v.push_back({start, static_cast<std::int32_t>(end - 1 - start), static_cast<std::int32_t>(first - 1 - start)});
  }
  return v;
}

/// What a training run did.
struct nn_lm_training {
  std::int64_t steps = 0;
  std::int64_t symbols = 0;         ///< steps * batch * window
  double final_bits_per_symbol = 0; ///< mean training cross-entropy of the last steps (the last 5 %)
};

/// A bem::nn model (nn::e88_model, nn::mamba2_model) as a character LM.
/// `architecture` holds the model's own parameters (preset, layers, ...);
/// the optimiser's come from the settings.
template <class Model>
class nn_char_lm {
 public:
  nn_char_lm(bem::parameters architecture, const nn_lm_settings& s, std::uint32_t vocabulary, std::uint64_t seed)
      : s_(s) {
    if (s.window < 2 || s.batch < 1 || s.train_symbols < 1)
      throw std::invalid_argument("nn_char_lm: window >= 2, batch >= 1 and train_symbols >= 1");
    const std::int64_t per_step = static_cast<std::int64_t>(s.window) * s.batch;
    steps_ = (s.train_symbols + per_step - 1) / per_step;
    architecture.set("lr", s.lr);
    architecture.set("lr_min", s.lr_min);
    architecture.set("total_steps", steps_);
    architecture.set("threads", std::int64_t{s.threads});
    model_ = Model(architecture);
    tasks::task_spec spec;
    spec.vocab_size = static_cast<std::int32_t>(vocabulary);
    spec.output = tasks::output_kind::class_final;  // `vocabulary` logits a position
    spec.num_classes = static_cast<std::int32_t>(vocabulary);
    model_.reset(spec, seed);
  }

  std::int64_t steps() const noexcept { return steps_; }
  std::size_t parameter_count() const { return model_.parameter_count(); }
  Model& model() noexcept { return model_; }

  /// Trains on `text` (the file comment); window starts come from `seed`.
  nn_lm_training train(std::span<const std::uint32_t> text, std::uint64_t seed) {
    const auto T = static_cast<std::size_t>(s_.window);
    if (text.size() < T + 1) throw std::invalid_argument("nn_char_lm: the training text is shorter than one window");
    xoshiro256ss rng(derive_seed(seed, fnv1a64("nn_char_lm windows"), 0));
    std::vector<lm_window> w(static_cast<std::size_t>(s_.batch));
    tasks::sequence_batch b;
    nn_lm_training r;
    const std::int64_t tail = std::max<std::int64_t>(1, steps_ / 20);
    double tail_loss = 0;
    for (std::int64_t step = 0; step < steps_; ++step) {
      for (auto& x : w) x = {rng.uniform_below(text.size() - T), static_cast<std::int32_t>(T), 0};
      fill_lm_batch(text, w, b);
      const double nats = model_.engine().step(b, true);
      if (step >= steps_ - tail) tail_loss += nats;
    }
    r.steps = steps_;
    r.symbols = steps_ * static_cast<std::int64_t>(T) * s_.batch;
    r.final_bits_per_symbol = tail_loss / static_cast<double>(tail) / std::numbers::ln2;
    return r;
  }

  /// Total bits, -log2 p, of the symbols text[from, text.size()), frozen
  /// (the file comment); the threads split each batch of windows.
  double code_length(std::span<const std::uint32_t> text, std::size_t from, std::int32_t windows_per_batch = 64) {
    const auto all = scoring_windows(text.size(), from, s_.window);
    auto& eng = model_.engine();
    tasks::sequence_batch b;
    double nats = 0;
    for (std::size_t i = 0; i < all.size(); i += static_cast<std::size_t>(windows_per_batch)) {
      const auto n = std::min(all.size() - i, static_cast<std::size_t>(windows_per_batch));
      fill_lm_batch(text, std::span(all).subspan(i, n), b);
      std::vector<double> part(static_cast<std::size_t>(eng.threads()), 0.0);
      eng.for_each_sequence_range(b.batch_size, [&](int k, std::int32_t lo, std::int32_t hi, auto& ws, auto&) {
        part[static_cast<std::size_t>(k)] = nn::batch_loss_grad(eng.net(), eng.params().data(), static_cast<float*>(nullptr),
                                                                b, true, lo, hi, 1.0f, ws);
      });
      for (double x : part) nats += x;
    }
    return nats / std::numbers::ln2;
  }

 private:
  nn_lm_settings s_;
  std::int64_t steps_ = 0;
  Model model_;
};

}  // namespace learn
BEM_NAMESPACE_END
