// expect: bem::tasks::sequence_task: the task needs `std::vector<split_info> splits() const`
// A task without splits(), checked with bem::tasks::assert_pluggable_task.
#include <tasks/concepts.hpp>

struct no_splits_task {
  static constexpr const char* name = "broken";
  static constexpr const char* version = "1";
  static constexpr const char* description = "no splits";
  explicit no_splits_task(bem::parameters&) {}
  bem::tasks::task_spec spec() const { return {}; }
  void generate(std::size_t, std::uint64_t, std::int64_t, std::int32_t, bem::tasks::sequence_batch&) const {}
};

static_assert(bem::tasks::assert_pluggable_task<no_splits_task>());
