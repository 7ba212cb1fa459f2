// expect: bem::pluggable_model: the model needs `static constexpr const char* name, version, description`
// A complete sequence model that does not name itself, handed to BEM_PLUGIN.
#include <bem/plugin/adapter.hpp>

struct anonymous_model {
  static constexpr const char* version = "1";
  static constexpr const char* description = "has no name";
  explicit anonymous_model(bem::parameters&) {}
  void reset(const bem::tasks::task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const bem::tasks::sequence_batch&) { return 0.0; }
  void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction&) {}
  std::size_t parameter_count() const { return 0; }
};

BEM_PLUGIN("broken", "1", BEM_TASKS(), BEM_MODELS(anonymous_model))
