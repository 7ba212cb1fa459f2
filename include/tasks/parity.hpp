// Parity and majority (bem_benchmark_suite_v0.0.1, section 3.1).
//
// Distribution of one sequence (all draws from the sequence's own generator,
// tasks::sequence_rng(seed, split, index), in this order):
//   1. its length T: in the train and validation splits,
//      T = train_lengths[uniform_below(train_lengths.size())] (so a length
//      listed twice is drawn twice as often); in the test split "test/T=L",
//      T = L and nothing is drawn;
//   2. its bits x_1..x_T: i.i.d. fair bits, xoshiro256ss::bit(), in order.
// The label Y is given at the last real position T only:
//   parity    Y = x_1 xor ... xor x_T;
//   majority  Y = [x_1 + ... + x_T >= T/2], i.e. [2 * sum >= T] (a tie at
//             even T counts as 1).
// Batch layout: every sequence of a split is padded with token 0 to the
// split's length (max(train_lengths) for train and validation, L for a test
// split); lengths[b] = T; only position T-1 is scored (mask), target Y there.
// Output kind binary_final; no tag.
//
// Parameters:
//   train_lengths  list, default [16, 32, 64]: lengths of the training
//                  distribution (the validation split uses the same one);
//   test_lengths   list, default [8, 16, 32, 64, 128, 256]: one test split
//                  "test/T=L" per length, no length listed twice.
// Splits: "train" and "validation" (condition: lengths = "16,32,64" as text),
// then "test/T=L" for each L (condition: length = L).
//
// Reference solvers, written independently of the generator's formula and
// reading only input tokens at positions < lengths[b]:
//   parity    the two-state automaton (even/odd), flipped by every 1;
//   majority  a signed counter d (+1 for a 1, -1 for a 0), answering d >= 0.
// Both write their running answer (+-certain_logit) at every real position
// and keep the last real position's answer over the padding.
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
#include <vector>

BEM_NAMESPACE_BEGIN
namespace tasks {

namespace detail {

/// "16,32,64"
inline std::string parity_join_numbers(const std::vector<std::int32_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s;
}

/// Shared body of parity and majority; `Derived::label(sum, T)` gives Y.
template <class Derived>
class final_bit_task_base {
 public:
  explicit final_bit_task_base(parameters& p) {
    train_lengths_ = read_lengths(p, "train_lengths", {16, 32, 64});
    test_lengths_ = read_lengths(p, "test_lengths", {8, 16, 32, 64, 128, 256});
    reject_duplicates(test_lengths_, "test_lengths");
    max_train_ = *std::max_element(train_lengths_.begin(), train_lengths_.end());
  }

  task_spec spec() const { return bit_stream_spec(output_kind::binary_final); }

  std::vector<split_info> splits() const {
    std::vector<split_info> out;
    const std::string lengths = parity_join_numbers(train_lengths_);
    out.push_back({"train", split_role::train, max_train_, {string_field("lengths", lengths)}});
    out.push_back({"validation", split_role::validation, max_train_, {string_field("lengths", lengths)}});
    add_length_test_splits(out, test_lengths_);
    return out;
  }

  void generate(std::size_t split, std::uint64_t seed, std::int64_t first, std::int32_t count,
                sequence_batch& out) const {
    const split_info s = splits().at(split);
    const bool mixed = s.role != split_role::test;
    out.reset(count, s.length);
    for (std::int32_t b = 0; b < count; ++b) {
      xoshiro256ss rng = sequence_rng(seed, s, first + b);
      const std::int32_t T =
          mixed ? train_lengths_[static_cast<std::size_t>(rng.uniform_below(train_lengths_.size()))] : s.length;
      std::int64_t sum = 0;
      for (std::int32_t t = 0; t < T; ++t) {
        const int x = rng.bit();
        sum += x;
        out.input(b, t) = x;
      }
      out.lengths[static_cast<std::size_t>(b)] = T;
      out.target(b, T - 1) = Derived::label(sum, T) ? 1 : 0;
      out.scored(b, T - 1) = 1;
    }
  }

  const std::vector<std::int32_t>& train_lengths() const noexcept { return train_lengths_; }
  const std::vector<std::int32_t>& test_lengths() const noexcept { return test_lengths_; }

 private:
  std::vector<std::int32_t> train_lengths_;
  std::vector<std::int32_t> test_lengths_;
  std::int32_t max_train_ = 0;
};

/// Shared body of the two reference solvers: `Derived::step(state, x)` gives
/// the next state, `Derived::output(state)` the answer.
template <class Derived>
class final_bit_reference : public reference_solver_base {
 public:
  using reference_solver_base::reference_solver_base;
  void predict(const sequence_batch& b, prediction& out) {
    for (std::int32_t i = 0; i < b.batch_size; ++i) {
      const std::int32_t real = b.lengths[static_cast<std::size_t>(i)];
      std::int64_t state = 0;
      float answer = -certain_logit;
      for (std::int32_t t = 0; t < b.length; ++t) {
        if (t < real) {
          state = Derived::step(state, b.input(i, t));
          answer = Derived::output(state) ? certain_logit : -certain_logit;
        }
        out.at(i, t)[0] = answer;
      }
    }
  }
};

}  // namespace detail

/// Exact parity solver: the two-state automaton.
struct parity_reference : detail::final_bit_reference<parity_reference> {
  using final_bit_reference::final_bit_reference;
  static constexpr const char* description = "two-state parity automaton over the real tokens";
  static std::int64_t step(std::int64_t odd, int x) { return x ? 1 - odd : odd; }
  static bool output(std::int64_t odd) { return odd == 1; }
};

/// Exact majority solver: the signed counter #ones - #zeros.
struct majority_reference : detail::final_bit_reference<majority_reference> {
  using final_bit_reference::final_bit_reference;
  static constexpr const char* description = "signed counter (#ones - #zeros) over the real tokens, answers >= 0";
  static std::int64_t step(std::int64_t d, int x) { return x ? d + 1 : d - 1; }
  static bool output(std::int64_t d) { return d >= 0; }
};

/// Parity: Y = x_1 xor ... xor x_T at the last position.
class parity_task : public detail::final_bit_task_base<parity_task> {
 public:
  static constexpr const char* name = "parity";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "Parity: Y = x_1 xor ... xor x_T of fair bits, answered at the last position; train on mixed lengths";
  using reference_model = parity_reference;
  using final_bit_task_base::final_bit_task_base;
  static bool label(std::int64_t sum, std::int64_t) { return sum % 2 == 1; }
};

/// Majority: Y = [sum >= T/2] at the last position.
class majority_task : public detail::final_bit_task_base<majority_task> {
 public:
  static constexpr const char* name = "majority";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "Majority: Y = [#ones >= T/2] of fair bits, answered at the last position; train on mixed lengths";
  using reference_model = majority_reference;
  using final_bit_task_base::final_bit_task_base;
  static bool label(std::int64_t sum, std::int64_t T) { return 2 * sum >= T; }
};

static_assert(pluggable_task<parity_task> && pluggable_task<majority_task>);

}  // namespace tasks
BEM_NAMESPACE_END
