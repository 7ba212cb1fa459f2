// expect: bem::tasks::sequence_task: the task needs `void generate(std::size_t split, std::uint64_t seed, std::int64_t first, std::int32_t count, sequence_batch& out) const`
// generate() exists but is not const, handed to BEM_PLUGIN.
#include <bem/plugin/adapter.hpp>

struct mutable_generate_task {
  static constexpr const char* name = "broken";
  static constexpr const char* version = "1";
  static constexpr const char* description = "generate is not const";
  explicit mutable_generate_task(bem::parameters&) {}
  bem::tasks::task_spec spec() const { return {}; }
  std::vector<bem::tasks::split_info> splits() const { return {}; }
  void generate(std::size_t, std::uint64_t, std::int64_t, std::int32_t, bem::tasks::sequence_batch&) {}
};

BEM_PLUGIN("broken", "1", BEM_TASKS(mutable_generate_task), BEM_MODELS())
