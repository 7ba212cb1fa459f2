// expect: bem::tasks::pluggable_task: the task needs a constructor taking `bem::parameters&`
// A complete sequence task that a plugin cannot create (default-constructible only).
#include <bem/plugin/adapter.hpp>

struct fixed_task {
  static constexpr const char* name = "fixed";
  static constexpr const char* version = "1";
  static constexpr const char* description = "no parameters constructor";
  bem::tasks::task_spec spec() const { return {}; }
  std::vector<bem::tasks::split_info> splits() const { return {}; }
  void generate(std::size_t, std::uint64_t, std::int64_t, std::int32_t, bem::tasks::sequence_batch&) const {}
};

BEM_PLUGIN("broken", "1", BEM_TASKS(fixed_task), BEM_MODELS())
