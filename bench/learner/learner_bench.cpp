// bench/learner: the learning BEM (model "bem") against PyTorch E88-1L
// inference on TXC and parity at T = 256.
//
//   learner_bench [--out DIR] [--batch 256] [--length 256] [--train-sequences 2000] [--seconds 1]
//
// For each task it trains the BEM on sequences of length <= 64 (at most
// --train-sequences, batches of 64, as configs/cross.toml), switches learning
// off and times predict() on one batch of B test sequences of length T,
// repeated for at least --seconds; it prints
//   ours task=NAME tokens_per_s=X accuracy=A sequences=B length=T ... other_cpu=S
// (S: the share of the machine other processes used while it was timed,
// bem/platform/other_cpu.hpp)
// and fails (exit 1) when the accuracy on that batch is below 0.999. For TXC
// it also times T = 64 and T = 4096 and prints
//   flat task=txc cycles_ratio=R
// R = tokens/s at T = 64 over tokens/s at T = 4096 (the cost per token at
// 4096 relative to 64; the goal is R <= 1.1).
// With --out it also writes what the peer needs for the same work: the test
// batch (DIR/NAME.inputs, int32 B*T), an E88-1L initialised from seed 1
// (DIR/e88.params, DIR/e88.layout as bench/nn writes them) and bem::nn's
// logits for the batch (DIR/NAME.logits, float32 B*T), so the peer can show
// it computes the same function. Inference cost does not depend on the
// weights' values, so an untrained E88 is a fair stand-in for a trained one.
#include <bem/harness/parameters.hpp>
#include <bem/learn/learning_bem.hpp>
#include <bem/nn/models.hpp>
#include <bem/platform/other_cpu.hpp>
#include <tasks/parity.hpp>
#include <tasks/temporal.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct options {
  std::string out;
  int batch = 256, length = 256, train_sequences = 2000;
  double seconds = 1.0;
};

template <class T>
void write_raw(const std::string& path, const std::vector<T>& v) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
}

/// Tokens per second of model.predict on `batch`, repeated for at least
/// `seconds`; the scored answers of the last repetition go to `accuracy`
/// (so the work is used and cannot be dropped).
double time_predict(bem::learn::learning_bem& model, const bem::tasks::sequence_batch& batch, double seconds,
                    double& accuracy) {
  bem::tasks::prediction out;
  int reps = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double sec = 0;
  do {
    model.predict(batch, out);
    ++reps;
    sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } while (sec < seconds);
  std::int64_t right = 0, total = 0;
  for (std::int32_t s = 0; s < batch.batch_size; ++s)
    for (std::int32_t t = 0; t < batch.length; ++t) {
      if (!batch.scored(s, t)) continue;
      right += (out.at(s, t)[0] > 0) == (batch.target(s, t) != 0) ? 1 : 0;
      ++total;
    }
  accuracy = static_cast<double>(right) / static_cast<double>(total);
  return static_cast<double>(batch.batch_size) * batch.length * reps / sec;
}

/// The E88-1L the peer runs, and bem::nn's logits for `test`.
void export_peer_inputs(const char* name, const bem::tasks::task_spec& spec, const bem::tasks::sequence_batch& test,
                        const std::string& dir) {
  write_raw(dir + "/" + name + ".inputs", test.inputs);
  bem::parameters p;
  p.set("preset", std::string("E88-1L"));
  p.set("threads", std::int64_t{1});
  bem::nn::e88_model e88(p);
  e88.reset(spec, 1);
  e88.set_learning(false);
  // Every position's logit (parity scores only the last; the peer reads all).
  bem::tasks::prediction logits;
  logits.reset(test.batch_size, test.length, 1);
  e88.predict(test, logits);
  write_raw(dir + "/" + name + ".logits", logits.logits);
  auto& eng = e88.engine();
  write_raw(dir + "/e88.params", eng.params());
  std::ofstream lay(dir + "/e88.layout");
  for (const auto& blk : eng.net().table().blocks())
    lay << blk.name << ' ' << blk.rows << ' ' << blk.cols << ' ' << (blk.decay ? 1 : 0) << '\n';
}

/// Trains the BEM on the task's train split; times predict on each test
/// split (split index -> tokens/s in `rates`). Returns false when a test
/// split's accuracy is below 0.999.
template <class Task>
bool run(const char* name, const Task& task, const options& o, std::vector<double>& rates) {
  bem::learn::learning_bem model;
  model.reset(task.spec(), 1);
  bem::tasks::sequence_batch b;
  for (int first = 0; first < o.train_sequences; first += 64) {
    task.generate(0, 1, first, std::min(64, o.train_sequences - first), b);
    model.learn(b);
  }
  model.set_learning(false);
  bool ok = true;
  const auto splits = task.splits();
  for (std::size_t s = 0; s < splits.size(); ++s) {
    if (splits[s].role != bem::tasks::split_role::test) continue;
    bem::tasks::sequence_batch test;
    task.generate(s, 2, 0, o.batch, test);
    double accuracy = 0;
    const bem::other_cpu_meter other_cpu;
    rates.push_back(time_predict(model, test, o.seconds, accuracy));
    const double other = other_cpu.share();
    if (splits[s].length != o.length) continue;
    std::printf("ours task=%s tokens_per_s=%.0f accuracy=%.6f sequences=%d length=%d hypotheses=%zu %s\n", name,
                rates.back(), accuracy, o.batch, o.length, model.hypotheses().size(),
                bem::other_cpu_field(other).c_str());
    if (!o.out.empty()) export_peer_inputs(name, task.spec(), test, o.out);
    if (accuracy < 0.999) {
      std::printf("RESULT name=learner failed=the BEM's accuracy on %s at T = %d is %.6f, below 0.999\n", name,
                  o.length, accuracy);
      ok = false;
    }
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "learner_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--out") o.out = next();
    else if (a == "--batch") o.batch = std::atoi(next().c_str());
    else if (a == "--length") o.length = std::atoi(next().c_str());
    else if (a == "--train-sequences") o.train_sequences = std::atoi(next().c_str());
    else if (a == "--seconds") o.seconds = std::atof(next().c_str());
    else {
      std::fprintf(stderr,
                   "usage: learner_bench [--out DIR] [--batch B] [--length T] [--train-sequences N] [--seconds S]\n");
      return 2;
    }
  }
  if (o.batch < 1 || o.length < 1 || o.length == 64 || o.length == 4096 || o.train_sequences < 64 ||
      !(o.seconds > 0)) {
    std::fprintf(stderr, "learner_bench: --batch must be positive, --length positive and neither 64 nor 4096 (timed "
                         "apart), --train-sequences >= 64, --seconds > 0\n");
    return 2;
  }
  // TXC: trained at T = 64; test splits T = 64, the bench's T, and 4096.
  bem::parameters txc_p;
  txc_p.set("length", std::int64_t{64});
  txc_p.set("test_lengths", std::vector<std::int64_t>{64, o.length, 4096});
  std::vector<double> txc_rates;
  bool ok = run("txc", bem::tasks::txc_task(txc_p), o, txc_rates);
  std::printf("flat task=txc tokens_per_s_T64=%.0f tokens_per_s_T4096=%.0f cycles_ratio=%.3f\n", txc_rates[0],
              txc_rates[2], txc_rates[0] / txc_rates[2]);
  bem::parameters parity_p;
  parity_p.set("train_lengths", std::vector<std::int64_t>{16, 32, 64});
  parity_p.set("test_lengths", std::vector<std::int64_t>{o.length});
  std::vector<double> parity_rates;
  ok &= run("parity", bem::tasks::parity_task(parity_p), o, parity_rates);
  return ok ? 0 : 1;
}
