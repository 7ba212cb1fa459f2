// Key-value retrieval (bem_benchmark_suite_v0.0.1, section 3.3).
//
// A sequence of K pairs is
//   [START] k_0 v_0 k_1 v_1 ... k_{K-1} v_{K-1} [SEP] q [END]
// of length 2K + 4. Token ids: [START] = 0, [SEP] = 1, [END] = 2, key a
// (a in [0, n_keys)) = 3 + a, value v (v in [0, n_values)) = 3 + n_keys + v;
// vocab_size = 3 + n_keys + n_values.
//
// Distribution of one sequence of a split with K pairs and query regime r
// (all draws from the sequence's own generator,
// tasks::sequence_rng(seed, split, index), in this order):
//   1. keys: partial Fisher-Yates on a = [0, 1, ..., n_keys-1]: for
//      i = 0..K-1, swap a[i] with a[i + uniform_below(n_keys - i)]; then
//      k_i = a[i] (K distinct keys, uniform without replacement, in order);
//   2. values: for i = 0..K-1, v_i = uniform_below(n_values) (with
//      replacement);
//   3. missing = bernoulli(missing_fraction) (always drawn, one uniform01);
//   4. the query:
//      missing:  q = a[K + uniform_below(n_keys - K)] (uniform among the keys
//                not in the sequence; a as left by step 1), label NULL =
//                class n_values, tag "missing";
//      present:  a pair index j, q = k_j, label v_j, tag floor(3j/K)
//                (0 "early", 1 "middle", 2 "late"). j is drawn by the
//                regime: "uniform": j = uniform_below(K); "early", "middle",
//                "late" (regime index g = 0, 1, 2): j uniform among the
//                indices with floor(3j/K) = g, i.e.
//                j = lo + uniform_below(hi - lo) with lo = ceil(gK/3),
//                hi = ceil((g+1)K/3).
// Output kind class_final with num_classes = n_values + 1 (NULL is always a
// class, even when missing_fraction = 0); only the [END] position 2K+3 is
// scored, target = the label. lengths[b] = 2K + 4.
//
// Parameters: pairs (K_train, default 8), n_keys (default 64), n_values
// (default 64), missing_fraction (in [0, 1], default 0), test_pairs
// (default [K_train, 2 K_train], each >= 3 so that every third is non-empty,
// none listed twice). n_keys must be >= every K used, and > every K when
// missing_fraction > 0.
// Splits: "train" and "validation" (K_train, regime "uniform"), then for every
// K of test_pairs and regime in {uniform, early, middle, late}:
// "test/K=<K>,pos=<regime>". Conditions: length (2K+4), pairs (K), position
// (the regime).
//
// Reference solver: a dictionary key -> value filled while reading the
// pairs; after [SEP] the query token is looked up (NULL when absent). It
// reads only input tokens, learns n_keys and n_values from the spec
// (num_classes - 1 values, vocab_size - 3 - n_values keys), and writes a row
// of num_classes logits at every position: +certain_logit for its current
// answer (NULL before the query), -certain_logit for every other class.
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>
#include <tasks/concepts.hpp>
#include <tasks/reference_solver.hpp>
#include <tasks/splits.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace tasks {

/// Exact solver: a dictionary filled while reading the sequence.
class kv_retrieval_reference : public reference_solver_base {
 public:
  static constexpr const char* description = "dictionary of the pairs read so far, looked up with the query";

  using reference_solver_base::reference_solver_base;
  void reset(const task_spec& spec, std::uint64_t) {
    classes_ = spec.num_classes;
    n_values_ = spec.num_classes - 1;
    n_keys_ = spec.vocab_size - 3 - n_values_;
  }
  void predict(const sequence_batch& b, prediction& out) {
    const std::int32_t null_class = n_values_;
    std::vector<std::int32_t> dict(static_cast<std::size_t>(std::max(n_keys_, 0)), -1);
    for (std::int32_t i = 0; i < b.batch_size; ++i) {
      const std::int32_t real = b.lengths[static_cast<std::size_t>(i)];
      std::fill(dict.begin(), dict.end(), -1);
      bool querying = false;
      std::int32_t pending_key = -1, answer = null_class;
      for (std::int32_t t = 0; t < b.length; ++t) {
        if (t < real) {
          const std::int32_t tok = b.input(i, t);
          if (tok == 0) {  // [START]
            std::fill(dict.begin(), dict.end(), -1);
            querying = false;
            answer = null_class;
          } else if (tok == 1) {  // [SEP]
            querying = true;
          } else if (tok >= 3 && tok < 3 + n_keys_) {  // a key
            const std::int32_t key = tok - 3;
            if (querying) {
              const std::int32_t v = dict[static_cast<std::size_t>(key)];
              answer = v >= 0 ? v : null_class;
            } else {
              pending_key = key;
            }
          } else if (tok >= 3 + n_keys_ && pending_key >= 0) {  // a value
            dict[static_cast<std::size_t>(pending_key)] = tok - 3 - n_keys_;
            pending_key = -1;
          }
        }
        float* row = out.at(i, t);
        for (std::int32_t c = 0; c < classes_; ++c) row[c] = c == answer ? certain_logit : -certain_logit;
      }
    }
  }

 private:
  std::int32_t classes_ = 1;
  std::int32_t n_values_ = 0;
  std::int32_t n_keys_ = 0;
};

/// Associative recall of the value paired with a query key.
class kv_retrieval_task {
 public:
  static constexpr const char* name = "kv_retrieval";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "Key-value retrieval: [START] k1 v1 .. kK vK [SEP] q [END], answer the value of q (or NULL) at [END]";
  using reference_model = kv_retrieval_reference;

  /// Query regimes: where in the sequence the queried pair lies.
  enum regime : std::int32_t { uniform = -1, early = 0, middle = 1, late = 2 };
  static constexpr const char* regime_name(std::int32_t r) noexcept {
    switch (r) {
      case early: return "early";
      case middle: return "middle";
      case late: return "late";
      default: return "uniform";
    }
  }

  explicit kv_retrieval_task(parameters& p) {
    pairs_ = static_cast<std::int32_t>(p.get_int_in("pairs", 8, 1, 1 << 20));
    n_keys_ = static_cast<std::int32_t>(p.get_int_in("n_keys", 64, 1, 1 << 20));
    n_values_ = static_cast<std::int32_t>(p.get_int_in("n_values", 64, 1, 1 << 16));
    missing_fraction_ = p.get_double_in("missing_fraction", 0.0, 0.0, 1.0);
    const std::int64_t K = pairs_;
    // The defaults come from `pairs`: a K below 3 is that key's error.
    if (K < 3 && !p.contains("test_pairs"))
      throw parameter_error("pairs", "the default test_pairs [K, 2K] need K >= 3 (early, middle and late need one "
                                     "pair each): set pairs >= 3 or list test_pairs, got " + std::to_string(K));
    for (auto k : p.get_int_list("test_pairs", {K, 2 * K})) {
      if (k < 3 || k > (1 << 20))
        throw parameter_error("test_pairs", "pair counts must lie in [3, 1048576] (early, middle and late need one "
                                            "pair each), got " + std::to_string(k));
      test_pairs_.push_back(static_cast<std::int32_t>(k));
    }
    if (test_pairs_.empty()) throw parameter_error("test_pairs", "must list at least one pair count");
    reject_duplicates(test_pairs_, "test_pairs");
    std::int32_t most = pairs_;
    for (auto k : test_pairs_) most = std::max(most, k);
    if (n_keys_ < most)
      throw parameter_error("n_keys", "must be at least the largest pair count " + std::to_string(most) + ", got " +
                                          std::to_string(n_keys_));
    if (missing_fraction_ > 0.0 && n_keys_ <= most)
      throw parameter_error("n_keys", "must exceed the largest pair count " + std::to_string(most) +
                                          " when missing_fraction > 0 (a missing query needs an unused key), got " +
                                          std::to_string(n_keys_));

    add_split("train", split_role::train, pairs_, uniform);
    add_split("validation", split_role::validation, pairs_, uniform);
    for (auto k : test_pairs_)
      for (std::int32_t r : {std::int32_t{uniform}, std::int32_t{early}, std::int32_t{middle}, std::int32_t{late}})
        add_split("test/K=" + std::to_string(k) + ",pos=" + regime_name(r), split_role::test, k, r);
  }

  task_spec spec() const {
    task_spec s;
    s.vocab_size = 3 + n_keys_ + n_values_;
    s.output = output_kind::class_final;
    s.num_classes = n_values_ + 1;
    s.token_names = {"[START]", "[SEP]", "[END]"};
    for (std::int32_t a = 0; a < n_keys_; ++a) s.token_names.push_back("k" + std::to_string(a));
    for (std::int32_t v = 0; v < n_values_; ++v) s.token_names.push_back("v" + std::to_string(v));
    s.tag_name = "query_position";
    s.tag_labels = {"early", "middle", "late", "missing"};
    return s;
  }

  std::vector<split_info> splits() const { return splits_; }

  void generate(std::size_t split, std::uint64_t seed, std::int64_t first, std::int32_t count,
                sequence_batch& out) const {
    const split_info& s = splits_.at(split);
    const std::int32_t K = pairs_of_.at(split);
    const std::int32_t r = regime_of_.at(split);
    out.reset(count, s.length);
    std::vector<std::int32_t> a(static_cast<std::size_t>(n_keys_));
    for (std::int32_t i = 0; i < n_keys_; ++i) a[static_cast<std::size_t>(i)] = i;
    std::vector<std::pair<std::size_t, std::size_t>> swaps;
    std::vector<std::int32_t> values(static_cast<std::size_t>(K));
    for (std::int32_t b = 0; b < count; ++b) {
      xoshiro256ss rng = sequence_rng(seed, s, first + b);
      swaps.clear();
      for (std::int32_t i = 0; i < K; ++i) {
        const auto ui = static_cast<std::size_t>(i);
        const auto other = ui + static_cast<std::size_t>(rng.uniform_below(static_cast<std::uint64_t>(n_keys_ - i)));
        std::swap(a[ui], a[other]);
        swaps.emplace_back(ui, other);
      }
      for (auto& v : values) v = static_cast<std::int32_t>(rng.uniform_below(static_cast<std::uint64_t>(n_values_)));
      const bool missing = rng.bernoulli(missing_fraction_);
      std::int32_t query = 0, label = 0, tag = 0;
      if (missing) {
        query = a[static_cast<std::size_t>(K) + static_cast<std::size_t>(rng.uniform_below(
                                                     static_cast<std::uint64_t>(n_keys_ - K)))];
        label = n_values_;
        tag = 3;
      } else {
        std::int64_t j = 0;
        if (r == uniform) {
          j = static_cast<std::int64_t>(rng.uniform_below(static_cast<std::uint64_t>(K)));
        } else {
          const std::int64_t lo = (std::int64_t{r} * K + 2) / 3, hi = (std::int64_t{r + 1} * K + 2) / 3;
          j = lo + static_cast<std::int64_t>(rng.uniform_below(static_cast<std::uint64_t>(hi - lo)));
        }
        query = a[static_cast<std::size_t>(j)];
        label = values[static_cast<std::size_t>(j)];
        tag = static_cast<std::int32_t>(3 * j / K);
      }
      out.input(b, 0) = 0;
      for (std::int32_t i = 0; i < K; ++i) {
        out.input(b, 1 + 2 * i) = 3 + a[static_cast<std::size_t>(i)];
        out.input(b, 2 + 2 * i) = 3 + n_keys_ + values[static_cast<std::size_t>(i)];
      }
      out.input(b, 2 * K + 1) = 1;
      out.input(b, 2 * K + 2) = 3 + query;
      out.input(b, 2 * K + 3) = 2;
      out.target(b, 2 * K + 3) = label;
      out.scored(b, 2 * K + 3) = 1;
      out.tags[static_cast<std::size_t>(b)] = tag;
      // Undo the swaps so that `a` is the identity again for the next sequence.
      for (auto it = swaps.rbegin(); it != swaps.rend(); ++it) std::swap(a[it->first], a[it->second]);
    }
  }

 private:
  void add_split(std::string name, split_role role, std::int32_t K, std::int32_t r) {
    splits_.push_back({std::move(name), role, 2 * K + 4,
                       {number_field("length", 2 * K + 4), number_field("pairs", K), string_field("position", regime_name(r))}});
    pairs_of_.push_back(K);
    regime_of_.push_back(r);
  }

  std::int32_t pairs_ = 8;
  std::int32_t n_keys_ = 64;
  std::int32_t n_values_ = 64;
  double missing_fraction_ = 0.0;
  std::vector<std::int32_t> test_pairs_;
  std::vector<split_info> splits_;
  std::vector<std::int32_t> pairs_of_;
  std::vector<std::int32_t> regime_of_;
};

static_assert(pluggable_task<kv_retrieval_task>);

}  // namespace tasks
BEM_NAMESPACE_END
