// expect: bem::sequence_model: the model needs `std::size_t parameter_count() const`
// parameter_count() exists but is not const: the concept asks for a const one.
#include <bem/harness/sequence_model.hpp>

struct mutable_count_model {
  void reset(const bem::tasks::task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const bem::tasks::sequence_batch&) { return 0.0; }
  void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction&) {}
  std::size_t parameter_count() { return 0; }
};

static_assert(bem::assert_sequence_model<mutable_count_model>());
