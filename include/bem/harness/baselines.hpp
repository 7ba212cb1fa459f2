// Baseline models that need no training beyond counting.
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/harness/sequence_model.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

BEM_NAMESPACE_BEGIN

/// Predicts the class seen most often at scored training positions, with
/// logits log(count + 1) (add-one smoothing), the same at every position.
/// On a binary task it is the "always predict the majority label" baseline;
/// on FSM and RTC that label is 1 and its accuracy has closed forms
/// (REFERENCE.md section 2, checked by tests/tasks/baselines.cpp).
class majority_class_model {
 public:
  static constexpr const char* name = "majority_class";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "predicts the most frequent training label at every position (add-one smoothed log-counts as logits)";

  majority_class_model() = default;
  explicit majority_class_model(parameters&) {}

  void reset(const tasks::task_spec& spec, std::uint64_t /*seed*/) {
    spec_ = spec;
    counts_.assign(static_cast<std::size_t>(spec.num_classes), 0);
  }
  void set_learning(bool on) { learning_ = on; }

  /// Counts the labels of the batch; the loss is the cross-entropy (nats per
  /// scored position) of the counts before the update.
  double learn(const tasks::sequence_batch& b) {
    if (!learning_) return std::nan("");
    const std::vector<double> logp = log_probabilities();
    double loss = 0;
    std::int64_t n = 0;
    for (std::size_t i = 0; i < b.mask.size(); ++i) {
      if (!b.mask[i]) continue;
      const auto c = static_cast<std::size_t>(b.targets[i]);
      if (c >= counts_.size()) continue;
      loss -= logp[c];
      ++counts_[c];
      ++n;
    }
    return n ? loss / static_cast<double>(n) : std::nan("");
  }

  void predict(const tasks::sequence_batch& b, tasks::prediction& out) {
    const std::vector<double> logp = log_probabilities();
    const std::size_t positions = static_cast<std::size_t>(b.batch_size) * static_cast<std::size_t>(b.length);
    if (spec_.output == tasks::output_kind::class_final) {
      for (std::size_t i = 0; i < positions; ++i)
        for (std::size_t c = 0; c < logp.size(); ++c)
          out.logits[i * logp.size() + c] = static_cast<float>(logp[c]);
    } else {
      const float logit = static_cast<float>(logp[1] - logp[0]);
      for (std::size_t i = 0; i < positions; ++i) out.logits[i] = logit;
    }
  }

  std::size_t parameter_count() const { return counts_.size(); }

  const std::vector<std::int64_t>& counts() const noexcept { return counts_; }

 private:
  std::vector<double> log_probabilities() const {
    double total = 0;
    for (auto c : counts_) total += static_cast<double>(c) + 1.0;
    std::vector<double> lp(counts_.size());
    for (std::size_t i = 0; i < counts_.size(); ++i) lp[i] = std::log((static_cast<double>(counts_[i]) + 1.0) / total);
    return lp;
  }

  tasks::task_spec spec_;
  std::vector<std::int64_t> counts_;
  bool learning_ = true;
};

static_assert(pluggable_model<majority_class_model>);

BEM_NAMESPACE_END
