// last_token_count — a task plugin written outside the library, in one file.
//
// Distribution: a sequence has n real tokens, n uniform in [ceil(T/2), T]
// (T = the split's length), each token i.i.d. uniform over `vocab` symbols,
// all drawn from the sequence's own generator (bem::tasks::sequence_rng):
// first n, then the tokens in order. The one scored position is the last
// real one, n - 1; its class is how often the last token occurred before it,
// capped at `max_count`: y = min(#{t < n-1 : x_t = x_{n-1}}, max_count).
//
// Parameters: `vocab` (default 4, in [2, 64]), `max_count` (default 7, in
// [1, 255]), `length` (T of train and validation, default 32, in [2, 4096]),
// `test_lengths` (default [T, 2T]: one test split each).
#include <bem/plugin/adapter.hpp>
#include <tasks/splits.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using namespace bem::tasks;

// Exact solver: counts every token as it goes; at each position it answers
// as if that position were the last one, so it is causal.
struct last_token_count_reference {
  static constexpr const char* name = "last_token_count_reference";
  static constexpr const char* version = "1";
  static constexpr const char* description = "counts each token seen so far";
  last_token_count_reference() = default;
  explicit last_token_count_reference(bem::parameters&) {}
  void reset(const task_spec& spec, std::uint64_t) { spec_ = spec; }
  void set_learning(bool) {}
  double learn(const sequence_batch&) { return 0.0; }
  void predict(const sequence_batch& b, prediction& out) {
    for (std::int32_t i = 0; i < b.batch_size; ++i) {
      std::vector<std::int32_t> seen(static_cast<std::size_t>(spec_.vocab_size), 0);
      for (std::int32_t t = 0; t < b.length; ++t) {
        std::int32_t& c = seen[static_cast<std::size_t>(b.input(i, t))];
        out.at(i, t)[std::min(c, spec_.num_classes - 1)] = 30.0f;  // all other logits stay 0
        ++c;
      }
    }
  }
  std::size_t parameter_count() const { return 0; }
  task_spec spec_;
};

class last_token_count_task {
 public:
  static constexpr const char* name = "last_token_count";
  static constexpr const char* version = "1";
  static constexpr const char* description = "class = earlier occurrences of the last token, capped";
  using reference_model = last_token_count_reference;

  explicit last_token_count_task(bem::parameters& p)
      : vocab_(static_cast<std::int32_t>(p.get_int_in("vocab", 4, 2, 64))),
        max_count_(static_cast<std::int32_t>(p.get_int_in("max_count", 7, 1, 255))),
        length_(static_cast<std::int32_t>(p.get_int_in("length", 32, 2, 4096))),
        test_lengths_(read_lengths(p, "test_lengths", {length_, 2 * length_}, 4096)) {}

  task_spec spec() const {
    task_spec s{vocab_, output_kind::class_final, max_count_ + 1, {}, "", {}};  // vocabulary, output, classes
    for (std::int32_t v = 0; v < vocab_; ++v) s.token_names.push_back("s" + std::to_string(v));
    return s;
  }

  std::vector<split_info> splits() const {
    std::vector<split_info> out{{"train", split_role::train, length_, {number_field("length", length_)}},
                                {"validation", split_role::validation, length_, {number_field("length", length_)}}};
    for (auto L : test_lengths_)
      out.push_back({"test/T=" + std::to_string(L), split_role::test, L, {number_field("length", L)}});
    return out;
  }

  void generate(std::size_t split, std::uint64_t seed, std::int64_t first, std::int32_t count,
                sequence_batch& out) const {
    const split_info s = splits().at(split);
    out.reset(count, s.length);
    for (std::int32_t b = 0; b < count; ++b) {
      bem::xoshiro256ss rng = sequence_rng(seed, s, first + b);
      const auto n = static_cast<std::int32_t>(rng.uniform_int((s.length + 1) / 2, s.length));
      for (std::int32_t t = 0; t < n; ++t) out.input(b, t) = static_cast<std::int32_t>(rng.uniform_below(vocab_));
      const auto last = out.input(b, n - 1);
      const auto before = std::count(&out.input(b, 0), &out.input(b, n - 1), last);
      out.lengths[static_cast<std::size_t>(b)] = n;
      out.target(b, n - 1) = static_cast<std::int32_t>(std::min<std::ptrdiff_t>(before, max_count_));
      out.scored(b, n - 1) = 1;
    }
  }

 private:
  std::int32_t vocab_, max_count_, length_;
  std::vector<std::int32_t> test_lengths_;
};

}  // namespace

BEM_PLUGIN("custom_example", "1", BEM_TASKS(last_token_count_task), BEM_MODELS())
