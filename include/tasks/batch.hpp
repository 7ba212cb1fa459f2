// The data that passes between a sequence task and a sequence model.
//
// A batch holds `batch_size` sequences padded to `length` tokens, stored
// row-major (`inputs[b * length + t]`). Each sequence has its own number of
// real tokens (`lengths[b]`) and a per-position score mask: the positions a
// model is judged on. A task whose label comes at the end of the sequence
// (parity, key-value retrieval) marks one position, the last real one, so the
// three output kinds share one layout:
//
//   binary_per_position: a 0/1 target at every masked position;
//   binary_final:        a 0/1 target at the one masked position;
//   class_final:         a class in [0, num_classes) at the one masked position.
//
// Models answer with logits: one per position for binary outputs (the
// log-odds of 1), `num_classes` per position for class outputs.
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace tasks {

enum class output_kind : std::int32_t { binary_per_position = 0, binary_final = 1, class_final = 2 };

constexpr std::string_view to_string(output_kind k) noexcept {
  switch (k) {
    case output_kind::binary_per_position: return "binary_per_position";
    case output_kind::binary_final: return "binary_final";
    case output_kind::class_final: return "class_final";
  }
  return "unknown";
}

/// What a model needs to know about a task to be built for it.
struct task_spec {
  std::int32_t vocab_size = 2;                   ///< input tokens lie in [0, vocab_size)
  output_kind output = output_kind::binary_per_position;
  std::int32_t num_classes = 2;                  ///< 2 for binary outputs
  std::vector<std::string> token_names;          ///< one per token, for reports and docs
  std::string tag_name;                          ///< per-sequence tag used for breakdowns, "" if none
  std::vector<std::string> tag_labels;           ///< label of each tag value, e.g. "early"

  /// Logits a model writes per position: 1 for binary outputs, num_classes otherwise.
  constexpr std::int32_t logits_per_position() const noexcept {
    return output == output_kind::class_final ? num_classes : 1;
  }
};

enum class split_role : std::int32_t { train = 0, validation = 1, test = 2 };

constexpr std::string_view to_string(split_role r) noexcept {
  switch (r) {
    case split_role::train: return "train";
    case split_role::validation: return "validation";
    case split_role::test: return "test";
  }
  return "unknown";
}

/// One named field of a split's condition, e.g. {"length", "128"}. The value
/// is JSON text (a number, or a quoted string).
struct condition_field {
  std::string key;
  std::string json_value;
};

/// A split is one data distribution of a task: the training distribution, or
/// one test condition (a length, a depth, a query position...).
struct split_info {
  std::string name;                        ///< unique within the task, e.g. "test/T=128"
  split_role role = split_role::test;
  std::int32_t length = 0;                 ///< tokens per sequence, padding included
  std::vector<condition_field> condition;  ///< what distinguishes it, recorded in results
};

/// A batch of padded sequences with targets and a score mask.
struct sequence_batch {
  std::int32_t batch_size = 0;
  std::int32_t length = 0;
  std::vector<std::int32_t> inputs;   ///< [batch_size * length] token ids
  std::vector<std::int32_t> targets;  ///< [batch_size * length] 0/1 or class at masked positions, else 0
  std::vector<std::uint8_t> mask;     ///< [batch_size * length] 1 where the position is scored
  std::vector<std::int32_t> lengths;  ///< [batch_size] real tokens of each sequence
  std::vector<std::int32_t> tags;     ///< [batch_size] per-sequence tag (0 when the task has none)

  /// Resizes for `b` sequences of `t` tokens and clears every field.
  void reset(std::int32_t b, std::int32_t t) {
    batch_size = b;
    length = t;
    const auto n = static_cast<std::size_t>(b) * static_cast<std::size_t>(t);
    inputs.assign(n, 0);
    targets.assign(n, 0);
    mask.assign(n, 0);
    lengths.assign(static_cast<std::size_t>(b), t);
    tags.assign(static_cast<std::size_t>(b), 0);
  }

  std::size_t index(std::int32_t b, std::int32_t t) const noexcept {
#if BEM_CHECKED
    assert(b >= 0 && b < batch_size && t >= 0 && t < length);
#endif
    return static_cast<std::size_t>(b) * static_cast<std::size_t>(length) + static_cast<std::size_t>(t);
  }
  std::int32_t& input(std::int32_t b, std::int32_t t) noexcept { return inputs[index(b, t)]; }
  std::int32_t input(std::int32_t b, std::int32_t t) const noexcept { return inputs[index(b, t)]; }
  std::int32_t& target(std::int32_t b, std::int32_t t) noexcept { return targets[index(b, t)]; }
  std::int32_t target(std::int32_t b, std::int32_t t) const noexcept { return targets[index(b, t)]; }
  std::uint8_t& scored(std::int32_t b, std::int32_t t) noexcept { return mask[index(b, t)]; }
  bool scored(std::int32_t b, std::int32_t t) const noexcept { return mask[index(b, t)] != 0; }

  /// Positions that count: mask set and within the sequence's length.
  std::int64_t scored_positions() const noexcept {
    std::int64_t n = 0;
    for (std::int32_t b = 0; b < batch_size; ++b) {
      const std::int32_t len = std::min(lengths[static_cast<std::size_t>(b)], length);
      for (std::int32_t t = 0; t < len; ++t) n += scored(b, t) ? 1 : 0;
    }
    return n;
  }
};

/// A model's answer for a batch: `width` logits per position.
struct prediction {
  std::int32_t batch_size = 0;
  std::int32_t length = 0;
  std::int32_t width = 1;
  std::vector<float> logits;  ///< [batch_size * length * width]

  void reset(std::int32_t b, std::int32_t t, std::int32_t w) {
    batch_size = b;
    length = t;
    width = w;
    logits.assign(static_cast<std::size_t>(b) * static_cast<std::size_t>(t) * static_cast<std::size_t>(w), 0.0f);
  }
  void reset_for(const sequence_batch& batch, const task_spec& spec) {
    reset(batch.batch_size, batch.length, spec.logits_per_position());
  }
  float* at(std::int32_t b, std::int32_t t) noexcept {
#if BEM_CHECKED
    assert(b >= 0 && b < batch_size && t >= 0 && t < length);
#endif
    return logits.data() + (static_cast<std::size_t>(b) * static_cast<std::size_t>(length) + static_cast<std::size_t>(t)) *
                               static_cast<std::size_t>(width);
  }
  const float* at(std::int32_t b, std::int32_t t) const noexcept {
    return const_cast<prediction*>(this)->at(b, t);
  }
};

/// Helper for tasks: a condition field holding a number.
inline condition_field number_field(std::string key, long long v) { return {std::move(key), std::to_string(v)}; }
/// Helper for tasks: a condition field holding a string, escaped as JSON.
inline condition_field string_field(std::string key, std::string_view v) {
  std::string s;
  bem::detail::json_escape_into(s, v);
  return {std::move(key), std::move(s)};
}

}  // namespace tasks
BEM_NAMESPACE_END
