// expect: bem::sequence_model: the model needs `void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction&)`
// A model that forgot predict(), checked with bem::assert_sequence_model.
#include <bem/harness/sequence_model.hpp>

struct no_predict_model {
  void reset(const bem::tasks::task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const bem::tasks::sequence_batch&) { return 0.0; }
  std::size_t parameter_count() const { return 0; }
};

static_assert(bem::assert_sequence_model<no_predict_model>());
