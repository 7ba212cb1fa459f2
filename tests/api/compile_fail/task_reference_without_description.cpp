// expect: bem::pluggable_model: the model needs `static constexpr const char* name, version, description`
// A complete task whose reference solver does not describe itself: the
// plugin must not build (before, the task silently had no reference solver).
#include <bem/plugin/adapter.hpp>

#include <vector>

struct undescribed_reference {
  static constexpr const char* name = "undescribed_reference";
  static constexpr const char* version = "1";
  explicit undescribed_reference(bem::parameters&) {}
  void reset(const bem::tasks::task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const bem::tasks::sequence_batch&) { return 0.0; }
  void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction&) {}
  std::size_t parameter_count() const { return 0; }
};

struct task_with_undescribed_reference {
  static constexpr const char* name = "with_undescribed_reference";
  static constexpr const char* version = "1";
  static constexpr const char* description = "its reference solver has no description";
  using reference_model = undescribed_reference;
  explicit task_with_undescribed_reference(bem::parameters&) {}
  bem::tasks::task_spec spec() const { return {}; }
  std::vector<bem::tasks::split_info> splits() const {
    return {{"train", bem::tasks::split_role::train, 4, {}}, {"test", bem::tasks::split_role::test, 4, {}}};
  }
  void generate(std::size_t, std::uint64_t, std::int64_t, std::int32_t count, bem::tasks::sequence_batch& out) const {
    out.reset(count, 4);
  }
};

BEM_PLUGIN("broken", "1", BEM_TASKS(task_with_undescribed_reference), BEM_MODELS())
