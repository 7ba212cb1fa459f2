// Balanced parentheses, Dyck-1 (bem_benchmark_suite_v0.0.1, section 3.2).
//
// Tokens: "(" = 0, ")" = 1. Depth after a prefix = #"(" - #")". A word is
// valid when no prefix has negative depth and the whole word has depth 0.
//
// Distribution of one sequence of a split with length T (even) and depth
// bound D (all draws from the sequence's own generator,
// tasks::sequence_rng(seed, split, index), in this order):
//   1. valid = bernoulli(valid_fraction)                 (one uniform01 draw);
//   2. a word s drawn UNIFORMLY among the valid words of length T whose
//      maximum depth is <= D (T uniform01 draws, see dyck1_table below);
//   3. only when !valid: kind = uniform_below(3) picks one perturbation, each
//      of which always makes s invalid:
//        0 missing_close  one ")" becomes "(" (final depth 2), the i-th
//                         (i = uniform_below(n), counted from the left from
//                         0) of the n ")" whose flip keeps every depth <= D
//                         (the flip raises every later depth by 2); with
//                         D = 1 there is none (the word ends at depth 2), and
//                         the i-th of all T/2 ")" is flipped;
//        1 extra_close    the i-th "(" (i = uniform_below(T/2)) becomes ")"
//                         (final depth -2);
//        2 misordered     among the top-level pairs of s (positions p with
//                         depth 0 before p, in order), the i-th
//                         (i = uniform_below(#pairs)) and its matching ")" at q
//                         are swapped: s[p] = ")", s[q] = "(" (depth -1 after
//                         p, final depth 0).
// D bounds every word's depth, valid or not (BEM 3.2.2: training depth <=
// D_train, test depths truncated at D), except missing_close words at D = 1,
// which reach depth 2; D > T/2 does not bind.
//
// Uniform sampling: W(pos, d) = number of ways to complete a prefix of `pos`
// tokens at depth d into a valid word of length T with every depth in
// [0, min(D, T/2)]: W(T, 0) = 1, W(T, d > 0) = 0,
// W(pos, d) = W(pos+1, d+1) [d+1 <= min(D, T/2)] + W(pos+1, d-1) [d >= 1],
// computed in IEEE double from pos = T-1 down to 0; whenever an entry of row
// pos exceeds 2^512 the whole row is multiplied by 2^-512 (exact, so every
// row is a power-of-two multiple of the true counts and ratios within a row
// are those of the double counts). Sampling from depth 0: at position pos at
// depth d, with A = W(pos+1, d+1) (0 when d+1 > min(D, T/2)) and
// B = W(pos+1, d-1) (0 when d = 0), draw u = uniform01() and emit "(" iff
// u < A / (A + B), else ")". The double counts are exact integers while
// below 2^53 (for every D when T <= 58), with a few ulps of relative error
// beyond.
//
// Labels:
//   labels = "online"  y_t = 1 iff every prefix s_1..s_t has depth >= 0
//                      (once invalid, stays invalid); every position scored;
//                      output kind binary_per_position;
//   labels = "final"   Y = 1 iff s is valid, only position T-1 scored; output
//                      kind binary_final. The generator takes Y from the
//                      construction (valid draw), not from scanning s.
// Tag "max_depth_bucket": the word's own maximum prefix depth m (over all
// prefixes, the empty one included, so m >= 0) in buckets
//   "0", "1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65+"
// (m = 0 happens only for invalid words such as ")(" ).
//
// Parameters: train_length (T_train, even, default 32), train_depth
// (D_train >= 1, default 4), test_lengths (even, default [T_train,
// 2 T_train, 4 T_train]), test_depths (>= 1, default [D_train, 2 D_train]),
// valid_fraction (in [0, 1], default 0.5), labels ("online" | "final",
// default "online").
// Splits: "train" and "validation" (T_train, D_train), then "test/T=<T>,D=<D>"
// for every T of test_lengths (outer) and D of test_depths (inner); the
// condition of each holds length and depth. The training words all have
// length exactly T_train (the seed allows "length <= T_train").
//
// Reference solver: a depth counter with a sticky "went negative" flag,
// reading only input tokens; it answers the online label at every position,
// or for final labels [never negative and depth == 0].
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
#include <memory>
#include <string>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace tasks {

/// The completion-count table of Dyck-1 words of length T with depth <= D,
/// and the uniform sampler built on it (see the header comment).
class dyck1_table {
 public:
  /// Most entries a table may hold (256 MiB of doubles).
  static constexpr std::int64_t max_entries = std::int64_t{1} << 25;

  static std::int64_t entries(std::int32_t T, std::int32_t D) noexcept {
    return (std::int64_t{T} + 1) * (std::int64_t{std::min(D, T / 2)} + 1);
  }

  dyck1_table(std::int32_t T, std::int32_t D) : T_(T), D_(std::min(D, T / 2)) {
    w_.assign(static_cast<std::size_t>(entries(T, D)), 0.0);
    at(T_, 0) = 1.0;
    for (std::int32_t pos = T_ - 1; pos >= 0; --pos) {
      double row_max = 0.0;
      for (std::int32_t d = 0; d <= D_; ++d) {
        double v = 0.0;
        if (d + 1 <= D_) v += at(pos + 1, d + 1);
        if (d >= 1) v += at(pos + 1, d - 1);
        at(pos, d) = v;
        row_max = std::max(row_max, v);
      }
      if (row_max > 0x1p512)
        for (std::int32_t d = 0; d <= D_; ++d) at(pos, d) *= 0x1p-512;
    }
  }

  std::int32_t length() const noexcept { return T_; }
  /// The binding bound min(D, T/2).
  std::int32_t depth_bound() const noexcept { return D_; }
  /// W(pos, d), scaled by a power of two that depends on pos only.
  double weight(std::int32_t pos, std::int32_t d) const noexcept { return w_[index(pos, d)]; }

  /// Probability that "(" follows a prefix of `pos` tokens at depth d.
  double open_probability(std::int32_t pos, std::int32_t d) const noexcept {
    const double a = d + 1 <= D_ ? weight(pos + 1, d + 1) : 0.0;
    const double b = d >= 1 ? weight(pos + 1, d - 1) : 0.0;
    // Both below the double range of their row (T in the thousands, depth
    // at an extreme): such a prefix has probability under 2^-1000 and is
    // never drawn; 0.5 keeps the value finite.
    return a + b > 0 ? a / (a + b) : 0.5;
  }

  /// Writes a uniform valid word (T tokens, 0 = "(", 1 = ")") to `out`.
  void sample(xoshiro256ss& rng, std::int32_t* out) const {
    std::int32_t d = 0;
    for (std::int32_t pos = 0; pos < T_; ++pos) {
      const bool open = rng.uniform01() < open_probability(pos, d);
      out[pos] = open ? 0 : 1;
      d += open ? 1 : -1;
    }
  }

 private:
  std::size_t index(std::int32_t pos, std::int32_t d) const noexcept {
    return static_cast<std::size_t>(pos) * static_cast<std::size_t>(D_ + 1) + static_cast<std::size_t>(d);
  }
  double& at(std::int32_t pos, std::int32_t d) noexcept { return w_[index(pos, d)]; }

  std::int32_t T_;
  std::int32_t D_;
  std::vector<double> w_;
};

/// The three perturbations that turn a valid word into an invalid one.
enum class dyck1_perturbation : std::int32_t { missing_close = 0, extra_close = 1, misordered = 2 };

/// Applies `kind` to the valid word s[0..T) (T/2 of each token) of depth at
/// most D, drawing its position from `rng` as the header comment states. The
/// result is never valid.
inline void dyck1_perturb(std::int32_t* s, std::int32_t T, std::int32_t D, dyck1_perturbation kind,
                          xoshiro256ss& rng) {
  if (kind == dyck1_perturbation::misordered) {
    std::int64_t pairs = 0, depth = 0;
    for (std::int32_t t = 0; t < T; ++t) {
      if (depth == 0) ++pairs;
      depth += s[t] == 0 ? 1 : -1;
    }
    auto pick = static_cast<std::int64_t>(rng.uniform_below(static_cast<std::uint64_t>(pairs)));
    depth = 0;
    std::int32_t p = 0;
    for (; p < T; ++p) {
      if (depth == 0 && pick-- == 0) break;
      depth += s[p] == 0 ? 1 : -1;
    }
    std::int32_t q = p;
    depth = 0;
    do {
      depth += s[q] == 0 ? 1 : -1;
      ++q;
    } while (depth != 0);
    --q;  // the ")" that closes s[p]
    std::swap(s[p], s[q]);
    return;
  }
  if (kind == dyck1_perturbation::extra_close) {  // the i-th "(" (token 0) becomes ")": depths only fall
    auto pick = static_cast<std::int64_t>(rng.uniform_below(static_cast<std::uint64_t>(T / 2)));
    for (std::int32_t t = 0; t < T; ++t)
      if (s[t] == 0 && pick-- == 0) {
        s[t] = 1;
        return;
      }
    return;
  }
  // missing_close: a ")" at t may flip when the highest depth from t on,
  // raised by 2, stays within D. later_max = max depth after tokens t..T-1.
  std::vector<std::uint8_t> allowed(static_cast<std::size_t>(T), 0);
  std::int64_t depth = 0, n = 0, later_max = 0;  // the word ends at depth 0
  for (std::int32_t t = T - 1; t >= 0; --t) {
    later_max = std::max(later_max, depth);  // depth after token t
    if (s[t] == 1 && later_max + 2 <= D) allowed[static_cast<std::size_t>(t)] = 1, ++n;
    depth += s[t] == 1 ? 1 : -1;  // depth before token t
  }
  if (n == 0) {  // D = 1: every flip reaches depth 2
    n = T / 2;
    for (std::int32_t t = 0; t < T; ++t) allowed[static_cast<std::size_t>(t)] = s[t] == 1;
  }
  auto pick = static_cast<std::int64_t>(rng.uniform_below(static_cast<std::uint64_t>(n)));
  for (std::int32_t t = 0; t < T; ++t)
    if (allowed[static_cast<std::size_t>(t)] && pick-- == 0) {
      s[t] = 0;
      return;
    }
}

/// The tag of a word whose maximum prefix depth is m (m >= 0).
constexpr std::int32_t dyck1_depth_bucket(std::int64_t m) noexcept {
  if (m <= 2) return static_cast<std::int32_t>(m < 0 ? 0 : m);
  std::int32_t bucket = 3;
  for (std::int64_t top = 4; m > top && bucket < 8; top *= 2) ++bucket;
  return bucket;
}

/// Exact solver: a depth counter with a sticky "went negative" flag.
class dyck1_reference : public reference_solver_base {
 public:
  static constexpr const char* description =
      "depth counter: online answer [never negative], final answer [never negative and depth 0]";

  using reference_solver_base::reference_solver_base;
  void reset(const task_spec& spec, std::uint64_t) { final_ = spec.output == output_kind::binary_final; }
  void predict(const sequence_batch& b, prediction& out) {
    for (std::int32_t i = 0; i < b.batch_size; ++i) {
      const std::int32_t real = b.lengths[static_cast<std::size_t>(i)];
      std::int64_t depth = 0;
      bool never_negative = true;
      float answer = certain_logit;
      for (std::int32_t t = 0; t < b.length; ++t) {
        if (t < real) {
          depth += b.input(i, t) == 0 ? 1 : -1;
          if (depth < 0) never_negative = false;
          const bool yes = final_ ? never_negative && depth == 0 : never_negative;
          answer = yes ? certain_logit : -certain_logit;
        }
        out.at(i, t)[0] = answer;
      }
    }
  }

 private:
  bool final_ = false;
};

/// Dyck-1 recognition with online (prefix-valid) or final (valid) labels.
class dyck1_task {
 public:
  static constexpr const char* name = "dyck1";
  static constexpr const char* version = "2";  // 2: missing_close keeps the depth bound
  static constexpr const char* description =
      "Dyck-1: uniform valid words of depth <= D or one-edit invalid words; online or final validity labels";
  using reference_model = dyck1_reference;

  explicit dyck1_task(parameters& p) {
    train_length_ = static_cast<std::int32_t>(p.get_int_in("train_length", 32, 2, 1 << 20));
    if (train_length_ % 2 != 0) throw parameter_error("train_length", "must be even, got " + std::to_string(train_length_));
    train_depth_ = static_cast<std::int32_t>(p.get_int_in("train_depth", 4, 1, 1 << 20));
    const std::int64_t L = train_length_;
    test_lengths_ = read_lengths(p, "test_lengths", {L, 2 * L, 4 * L});
    for (auto T : test_lengths_)
      if (T < 2 || T % 2 != 0) throw parameter_error("test_lengths", "lengths must be even and >= 2, got " + std::to_string(T));
    reject_duplicates(test_lengths_, "test_lengths");
    const std::int64_t D = train_depth_;
    for (auto d : p.get_int_list("test_depths", {D, 2 * D})) {
      if (d < 1 || d > (1 << 20)) throw parameter_error("test_depths", "depths must lie in [1, 1048576], got " + std::to_string(d));
      test_depths_.push_back(static_cast<std::int32_t>(d));
    }
    if (test_depths_.empty()) throw parameter_error("test_depths", "must list at least one depth");
    reject_duplicates(test_depths_, "test_depths");
    valid_fraction_ = p.get_double_in("valid_fraction", 0.5, 0.0, 1.0);
    final_ = p.get_choice("labels", "online", {"online", "final"}) == "final";

    add_split("train", split_role::train, train_length_, train_depth_, "train_length");
    add_split("validation", split_role::validation, train_length_, train_depth_, "train_length");
    for (auto T : test_lengths_)
      for (auto d : test_depths_)
        add_split("test/T=" + std::to_string(T) + ",D=" + std::to_string(d), split_role::test, T, d, "test_lengths");
  }

  task_spec spec() const {
    task_spec s;
    s.vocab_size = 2;
    s.output = final_ ? output_kind::binary_final : output_kind::binary_per_position;
    s.num_classes = 2;
    s.token_names = {"(", ")"};
    s.tag_name = "max_depth_bucket";
    s.tag_labels = {"0", "1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65+"};
    return s;
  }

  std::vector<split_info> splits() const { return splits_; }

  void generate(std::size_t split, std::uint64_t seed, std::int64_t first, std::int32_t count,
                sequence_batch& out) const {
    const split_info& s = splits_.at(split);
    const dyck1_table& table = *tables_.at(split);
    const std::int32_t T = s.length;
    out.reset(count, T);
    for (std::int32_t b = 0; b < count; ++b) {
      xoshiro256ss rng = sequence_rng(seed, s, first + b);
      const bool valid = rng.bernoulli(valid_fraction_);
      std::int32_t* word = out.inputs.data() + out.index(b, 0);
      table.sample(rng, word);
      if (!valid)
        dyck1_perturb(word, T, depths_[split], static_cast<dyck1_perturbation>(rng.uniform_below(3)), rng);
      std::int64_t depth = 0, max_depth = 0;
      bool prefix_valid = true;
      for (std::int32_t t = 0; t < T; ++t) {
        depth += word[t] == 0 ? 1 : -1;
        max_depth = std::max(max_depth, depth);
        prefix_valid = prefix_valid && depth >= 0;
        if (!final_) {
          out.target(b, t) = prefix_valid ? 1 : 0;
          out.scored(b, t) = 1;
        }
      }
      if (final_) {
        out.target(b, T - 1) = valid ? 1 : 0;
        out.scored(b, T - 1) = 1;
      }
      out.tags[static_cast<std::size_t>(b)] = dyck1_depth_bucket(max_depth);
    }
  }

  /// The sampler of split `i` (shared by splits with the same length and bound).
  const dyck1_table& table(std::size_t i) const { return *tables_.at(i); }

 private:
  void add_split(std::string name, split_role role, std::int32_t T, std::int32_t D, const char* length_key) {
    if (dyck1_table::entries(T, D) > dyck1_table::max_entries)
      throw parameter_error(length_key, "length " + std::to_string(T) + " with depth bound " + std::to_string(D) +
                                            " needs a sampling table of more than 2^25 entries");
    std::shared_ptr<const dyck1_table> table;
    for (std::size_t i = 0; i < splits_.size() && !table; ++i)
      if (tables_[i]->length() == T && tables_[i]->depth_bound() == std::min(D, T / 2)) table = tables_[i];
    if (!table) table = std::make_shared<const dyck1_table>(T, D);
    splits_.push_back({std::move(name), role, T, {number_field("length", T), number_field("depth", D)}});
    tables_.push_back(std::move(table));
    depths_.push_back(D);
  }

  std::int32_t train_length_ = 32;
  std::int32_t train_depth_ = 4;
  std::vector<std::int32_t> test_lengths_;
  std::vector<std::int32_t> test_depths_;
  double valid_fraction_ = 0.5;
  bool final_ = false;
  std::vector<split_info> splits_;
  std::vector<std::shared_ptr<const dyck1_table>> tables_;
  std::vector<std::int32_t> depths_;  // each split's D, which bounds its invalid words too
};

static_assert(pluggable_task<dyck1_task>);

}  // namespace tasks
BEM_NAMESPACE_END
