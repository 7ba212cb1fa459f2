// A program of your own that uses the bem headers: it builds the TXC task
// from parameters, draws test data and scores the task's exact reference
// solver on it. Shown in full in docs/using-the-headers.md.
#include <bem/harness/parameters.hpp>
#include <bem/harness/sequence_model.hpp>
#include <bem/plugin/toml_parameters.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>
#include <tasks/concepts.hpp>
#include <tasks/temporal.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>

/// Fraction of the scored positions of `count` sequences that `model` gets right.
template <bem::tasks::sequence_task Task, bem::sequence_model Model>
double accuracy(const Task& task, Model& model, std::size_t split, std::uint64_t seed, std::int32_t count) {
  const bem::tasks::task_spec spec = task.spec();
  bem::tasks::sequence_batch batch;
  task.generate(split, seed, /*first=*/0, count, batch);
  bem::tasks::prediction out;
  out.reset_for(batch, spec);  // one logit per position, num_classes for class outputs
  model.predict(batch, out);
  std::int64_t right = 0, total = 0;
  for (std::int32_t b = 0; b < batch.batch_size; ++b)
    for (std::int32_t t = 0; t < batch.length; ++t) {
      if (!batch.scored(b, t)) continue;
      const float* logits = out.at(b, t);
      const auto guess = spec.output == bem::tasks::output_kind::class_final
                             ? static_cast<std::int32_t>(std::max_element(logits, logits + out.width) - logits)
                             : (logits[0] > 0.0f ? 1 : 0);
      right += guess == batch.target(b, t) ? 1 : 0;
      ++total;
    }
  return total > 0 ? static_cast<double>(right) / static_cast<double>(total) : 0.0;
}

int main() try {
  bem::parameters params = bem::parameters_from_toml("length = 32\ntest_lengths = [32, 256]", "main.cpp");
  const bem::tasks::txc_task task(params);
  params.check_all_used();  // a misspelt key is an error, not a silent default

  bem::tasks::txc_task::reference_model model;
  model.reset(task.spec(), /*seed=*/1);
  model.set_learning(false);

  std::printf("bem %s, ABI %s, task %s v%s, parameters %s\n", bem::version_string, bem::abi_tag,
              bem::tasks::txc_task::name, bem::tasks::txc_task::version,
              bem::parameters_to_json(params.effective()).c_str());
  bool exact = true;
  const auto splits = task.splits();
  for (std::size_t s = 0; s < splits.size(); ++s) {
    const double acc = accuracy(task, model, s, /*seed=*/1, /*count=*/64);
    std::printf("  %-12s T=%-4d accuracy %.3f\n", splits[s].name.c_str(), splits[s].length, acc);
    exact = exact && acc == 1.0;
  }
  return exact ? 0 : 1;
} catch (const bem::parameter_error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
