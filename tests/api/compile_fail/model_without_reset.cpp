// expect: bem::sequence_model: the model needs `void reset(const bem::tasks::task_spec&, std::uint64_t seed)`
// A pluggable model without reset(), handed to BEM_PLUGIN.
#include <bem/plugin/adapter.hpp>

struct no_reset_model {
  static constexpr const char* name = "no_reset";
  static constexpr const char* version = "1";
  static constexpr const char* description = "forgot reset";
  explicit no_reset_model(bem::parameters&) {}
  void set_learning(bool) {}
  double learn(const bem::tasks::sequence_batch&) { return 0.0; }
  void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction&) {}
  std::size_t parameter_count() const { return 0; }
};

BEM_PLUGIN("broken", "1", BEM_TASKS(), BEM_MODELS(no_reset_model))
