// expect: success
// Positive control: the complete versions of the broken types above compile
// (with -Werror), so the harness cannot pass by failing everything.
#include <bem/plugin/adapter.hpp>

struct complete_model {
  static constexpr const char* name = "complete_model";
  static constexpr const char* version = "1";
  static constexpr const char* description = "has everything";
  complete_model() = default;
  explicit complete_model(bem::parameters&) {}
  void reset(const bem::tasks::task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const bem::tasks::sequence_batch&) { return 0.0; }
  void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction&) {}
  std::size_t parameter_count() const { return 0; }
};

struct complete_task {
  static constexpr const char* name = "complete_task";
  static constexpr const char* version = "1";
  static constexpr const char* description = "has everything";
  using reference_model = complete_model;
  explicit complete_task(bem::parameters&) {}
  bem::tasks::task_spec spec() const { return {}; }
  std::vector<bem::tasks::split_info> splits() const { return {}; }
  void generate(std::size_t, std::uint64_t, std::int64_t, std::int32_t, bem::tasks::sequence_batch&) const {}
};

static_assert(bem::assert_sequence_model<complete_model>());
static_assert(bem::tasks::assert_pluggable_task<complete_task>());
static_assert(bem::solvable_task<complete_task>);

BEM_PLUGIN("complete", "1", BEM_TASKS(complete_task), BEM_MODELS(complete_model))
