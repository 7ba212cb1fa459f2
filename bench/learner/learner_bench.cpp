// bench/learner: the learning BEM (model "bem") against PyTorch E88-1L
// inference on TXC and parity at T = 256.
//
//   learner_bench [--out DIR] [--batch 256] [--length 256] [--train-sequences 2000] [--seconds 1]
//
// For each task it trains the BEM on sequences of length <= 64 (at most
// --train-sequences, batches of 64, as the cross suite), switches learning
// off and times predict() on one batch of B test sequences of length T,
// repeated for at least --seconds; it prints
//   ours task=NAME tokens_per_s=X accuracy=A sequences=B length=T
// and fails (exit 1) when the accuracy on that batch is below 0.999.
// With --out it also writes what the peer needs for the same work: the test
// batch (DIR/NAME.inputs, int32 B*T), an E88-1L initialised from seed 1
// (DIR/e88.params, DIR/e88.layout as bench/nn writes them) and bem::nn's
// logits for the batch (DIR/NAME.logits, float32 B*T), so the peer can show
// it computes the same function. Inference cost does not depend on the
// weights' values, so an untrained E88 is a fair stand-in for a trained one.
#include <bem/harness/parameters.hpp>
#include <bem/learn/learning_bem.hpp>
#include <bem/nn/models.hpp>
#include <tasks/parity.hpp>
#include <tasks/temporal.hpp>

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

/// Trains on the task's train split, times predict on its last split (the
/// test length); returns 0 when accurate enough.
template <class Task>
int run(const char* name, Task task, const options& o) {
  bem::learn::learning_bem model;
  model.reset(task.spec(), 1);
  bem::tasks::sequence_batch b;
  for (int first = 0; first < o.train_sequences; first += 64) {
    task.generate(0, 1, first, std::min(64, o.train_sequences - first), b);
    model.learn(b);
  }
  model.set_learning(false);

  const std::size_t test_split = task.splits().size() - 1;
  bem::tasks::sequence_batch test;
  task.generate(test_split, 2, 0, o.batch, test);
  bem::tasks::prediction out;
  int reps = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double sec = 0;
  do {
    model.predict(test, out);
    ++reps;
    sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } while (sec < o.seconds);
  // The answers of the last repetition count: the work was not dropped.
  std::int64_t right = 0, total = 0;
  for (std::int32_t s = 0; s < test.batch_size; ++s)
    for (std::int32_t t = 0; t < test.length; ++t) {
      if (!test.scored(s, t)) continue;
      right += (out.at(s, t)[0] > 0) == (test.target(s, t) != 0) ? 1 : 0;
      ++total;
    }
  const double accuracy = static_cast<double>(right) / static_cast<double>(total);
  const double tps = static_cast<double>(o.batch) * o.length * reps / sec;
  std::printf("ours task=%s tokens_per_s=%.0f accuracy=%.6f sequences=%d length=%d hypotheses=%zu\n", name, tps,
              accuracy, o.batch, o.length, model.hypotheses().size());

  if (!o.out.empty()) {
    write_raw(o.out + "/" + name + ".inputs", test.inputs);
    bem::parameters p;
    p.set("preset", std::string("E88-1L"));
    p.set("threads", std::int64_t{1});
    bem::nn::e88_model e88(p);
    e88.reset(task.spec(), 1);
    e88.set_learning(false);
    // Per-position logits: the TXC batch's shape serves both tasks (the peer
    // reads every position).
    bem::parameters tp;
    tp.set("length", std::int64_t{o.length});
    bem::tasks::txc_task txc(tp);
    bem::tasks::prediction logits;
    logits.reset(test.batch_size, test.length, 1);
    bem::tasks::sequence_batch same = test;
    e88.predict(same, logits);
    write_raw(o.out + "/" + name + ".logits", logits.logits);
    auto& eng = e88.engine();
    write_raw(o.out + "/e88.params", eng.params());
    std::ofstream lay(o.out + "/e88.layout");
    for (const auto& blk : eng.net().table().blocks())
      lay << blk.name << ' ' << blk.rows << ' ' << blk.cols << ' ' << (blk.decay ? 1 : 0) << '\n';
  }
  if (accuracy < 0.999) {
    std::printf("RESULT name=learner failed=the BEM's accuracy on %s at T = %d is %.6f, below 0.999\n", name, o.length,
                accuracy);
    return 1;
  }
  return 0;
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
  if (o.batch < 1 || o.length < 1 || o.train_sequences < 64 || !(o.seconds > 0)) {
    std::fprintf(stderr, "learner_bench: --batch and --length must be positive, --train-sequences >= 64, --seconds > 0\n");
    return 2;
  }
  bem::parameters txc_p;
  txc_p.set("length", std::int64_t{64});
  txc_p.set("test_lengths", std::vector<std::int64_t>{o.length});
  bem::parameters parity_p;
  parity_p.set("train_lengths", std::vector<std::int64_t>{16, 32, 64});
  parity_p.set("test_lengths", std::vector<std::int64_t>{o.length});
  int status = run("txc", bem::tasks::txc_task(txc_p), o);
  status |= run("parity", bem::tasks::parity_task(parity_p), o);
  return status;
}
