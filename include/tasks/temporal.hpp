// The temporal nonlinearity tasks RTC, TXC and FSM
// (temporal_nonlinearity_benchmark.md, section 2).
//
// Distribution: x_1..x_T i.i.d. fair bits (xoshiro256ss::bit of the
// sequence's own generator, one bit per position in order). With
// c_t = x_1 + ... + x_t (t counted from 1), every position is scored and
//   RTC  y_t = [c_t >= ceil(t/2)]    running majority threshold;
//   TXC  y_t = c_t mod 2             prefix parity (XOR chain);
//   FSM  y_t = [c_t >= 3]            the absorbing 4-state machine A->B->C->D.
//
// Parameters: `length` (T, default 64) — training and validation length;
// `test_lengths` (default [T]) — one test split per length. The seed's study
// trains and tests at the same T.
//
// Each task's reference_model is an exact solver written independently of the
// generator's formula: a counter compared with the position (RTC), a 2-state
// automaton (TXC), the 4-state automaton itself (FSM).
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>
#include <tasks/concepts.hpp>
#include <tasks/reference_solver.hpp>
#include <tasks/splits.hpp>

#include <cstdint>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace tasks {

namespace detail {

/// Shared body of the three temporal tasks; `Label(count, t)` gives y_t.
template <class Derived>
class temporal_task_base {
 public:
  explicit temporal_task_base(parameters& p) {
    length_ = static_cast<std::int32_t>(p.get_int_in("length", 64, 1, 1 << 20));
    test_lengths_ = read_lengths(p, "test_lengths", {length_});
    reject_duplicates(test_lengths_, "test_lengths");
  }

  task_spec spec() const { return bit_stream_spec(output_kind::binary_per_position); }

  std::vector<split_info> splits() const {
    std::vector<split_info> out;
    out.push_back({"train", split_role::train, length_, {number_field("length", length_)}});
    out.push_back({"validation", split_role::validation, length_, {number_field("length", length_)}});
    add_length_test_splits(out, test_lengths_);
    return out;
  }

  void generate(std::size_t split, std::uint64_t seed, std::int64_t first, std::int32_t count,
                sequence_batch& out) const {
    const split_info s = splits().at(split);
    out.reset(count, s.length);
    for (std::int32_t b = 0; b < count; ++b) {
      xoshiro256ss rng = sequence_rng(seed, s, first + b);
      std::int64_t c = 0;
      for (std::int32_t t = 0; t < s.length; ++t) {
        const int x = rng.bit();
        c += x;
        out.input(b, t) = x;
        out.target(b, t) = Derived::label(c, t + 1) ? 1 : 0;
        out.scored(b, t) = 1;
      }
    }
  }

  std::int32_t length() const noexcept { return length_; }

 private:
  std::int32_t length_;
  std::vector<std::int32_t> test_lengths_;
};

/// Shared body of the reference solvers: `Derived::step(state, x, t)` returns
/// the next state, `Derived::output(state, t)` the label.
template <class Derived>
class automaton_model : public reference_solver_base {
 public:
  using reference_solver_base::reference_solver_base;
  void predict(const sequence_batch& b, prediction& out) {
    for (std::int32_t i = 0; i < b.batch_size; ++i) {
      std::int64_t state = 0;
      for (std::int32_t t = 0; t < b.length; ++t) {
        state = Derived::step(state, b.input(i, t), t + 1);
        out.at(i, t)[0] = Derived::output(state, t + 1) ? certain_logit : -certain_logit;
      }
    }
  }
};

}  // namespace detail

/// Exact RTC solver: a counter compared with the position (2c >= t).
struct rtc_reference : detail::automaton_model<rtc_reference> {
  using automaton_model::automaton_model;
  static constexpr const char* description = "running counter, outputs 2*count >= t";
  static std::int64_t step(std::int64_t count, int x, std::int64_t) { return count + x; }
  static bool output(std::int64_t count, std::int64_t t) { return 2 * count >= t; }
};

/// Exact TXC solver: the two-state parity automaton.
struct txc_reference : detail::automaton_model<txc_reference> {
  using automaton_model::automaton_model;
  static constexpr const char* description = "two-state parity automaton";
  static std::int64_t step(std::int64_t state, int x, std::int64_t) { return x ? 1 - state : state; }
  static bool output(std::int64_t state, std::int64_t) { return state == 1; }
};

/// Exact FSM solver: the automaton A(0) -1-> B(1) -1-> C(2) -1-> D(3), D absorbing.
struct fsm_reference : detail::automaton_model<fsm_reference> {
  using automaton_model::automaton_model;
  static constexpr const char* description = "the 4-state absorbing automaton A->B->C->D";
  static std::int64_t step(std::int64_t state, int x, std::int64_t) {
    constexpr std::int64_t next_on_one[4] = {1, 2, 3, 3};
    return x ? next_on_one[state] : state;
  }
  static bool output(std::int64_t state, std::int64_t) { return state == 3; }
};

/// Running Threshold Count: y_t = [c_t >= ceil(t/2)].
class rtc_task : public detail::temporal_task_base<rtc_task> {
 public:
  static constexpr const char* name = "rtc";
  static constexpr const char* version = "1";
  static constexpr const char* description = "Running Threshold Count: y_t = [#ones(x_1..x_t) >= ceil(t/2)]";
  using reference_model = rtc_reference;
  using temporal_task_base::temporal_task_base;
  static bool label(std::int64_t c, std::int64_t t) { return c >= (t + 1) / 2; }
};

/// Temporal XOR Chain: y_t = x_1 xor ... xor x_t.
class txc_task : public detail::temporal_task_base<txc_task> {
 public:
  static constexpr const char* name = "txc";
  static constexpr const char* version = "1";
  static constexpr const char* description = "Temporal XOR Chain: y_t = x_1 xor ... xor x_t (prefix parity)";
  using reference_model = txc_reference;
  using temporal_task_base::temporal_task_base;
  static bool label(std::int64_t c, std::int64_t) { return c % 2 == 1; }
};

/// Finite State Machine: y_t = [c_t >= 3].
class fsm_task : public detail::temporal_task_base<fsm_task> {
 public:
  static constexpr const char* name = "fsm";
  static constexpr const char* version = "1";
  static constexpr const char* description = "Finite State Machine: y_t = 1 once three ones have been seen";
  using reference_model = fsm_reference;
  using temporal_task_base::temporal_task_base;
  static bool label(std::int64_t c, std::int64_t) { return c >= 3; }
};

static_assert(pluggable_task<rtc_task> && pluggable_task<txc_task> && pluggable_task<fsm_task>);

}  // namespace tasks
BEM_NAMESPACE_END
