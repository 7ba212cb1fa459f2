// bench/nn: training throughput of bem::nn's E88-1L and Mamba2-4L, and the
// data for the PyTorch side of the comparison (bench/nn/run.sh, torch_peer.py).
//
//   nn_bench [--out DIR] [--batch 256] [--length 256] [--warmup 1] [--steps 5]
//            [--threads 2] [--models e88,mamba2]
//
// For each model it initialises the preset from seed 1, writes DIR/NAME.params
// (float32, the flat parameter array), DIR/NAME.layout (one line per block:
// name rows cols decay), DIR/NAME.data (int32 inputs then int32 targets of
// every step's TXC batch, warm-up steps first), then runs `warmup` untimed and
// `steps` timed AdamW steps (lr 1e-3, weight decay 0.01, clip 1.0, constant
// learning rate), writes DIR/NAME.losses (every step's) and one line per model:
//   ours model=NAME tokens_per_s=X losses=l1,l2,... other_cpu=S
// X is B*T over the median timed step; S the share of the machine other
// processes used during the timed steps (bem/platform/other_cpu.hpp).
// Without --out nothing is written but the timing lines.
#include <bem/nn/models.hpp>
#include <bem/harness/parameters.hpp>
#include <bem/platform/other_cpu.hpp>
#include <tasks/temporal.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {
struct options {
  std::string out;
  int batch = 256, length = 256, warmup = 1, steps = 5, threads = 2;
  std::string models = "e88,mamba2";
};

template <class M>
int run(const char* label, const options& o, bem::parameters p) {
  p.set("threads", std::int64_t{o.threads});
  M model(p);
  bem::parameters tp;
  tp.set("length", std::int64_t{o.length});
  bem::tasks::txc_task task(tp);
  model.reset(task.spec(), 1);
  auto& eng = model.engine();
  const int all_steps = o.warmup + o.steps;
  std::vector<bem::tasks::sequence_batch> batches(static_cast<std::size_t>(all_steps));
  for (int s = 0; s < all_steps; ++s) task.generate(0, 1, static_cast<std::int64_t>(s) * o.batch, o.batch, batches[static_cast<std::size_t>(s)]);
  if (!o.out.empty()) {
    const std::string base = o.out + "/" + label;
    std::ofstream(base + ".params", std::ios::binary)
        .write(reinterpret_cast<const char*>(eng.params().data()), static_cast<std::streamsize>(eng.params().size() * sizeof(float)));
    std::ofstream lay(base + ".layout");
    for (const auto& b : eng.net().table().blocks()) lay << b.name << ' ' << b.rows << ' ' << b.cols << ' ' << (b.decay ? 1 : 0) << '\n';
    std::ofstream data(base + ".data", std::ios::binary);
    for (const auto& b : batches) {
      data.write(reinterpret_cast<const char*>(b.inputs.data()), static_cast<std::streamsize>(b.inputs.size() * 4));
      data.write(reinterpret_cast<const char*>(b.targets.data()), static_cast<std::streamsize>(b.targets.size() * 4));
    }
  }
  std::vector<double> losses, step_seconds;
  bem::other_cpu_meter other_cpu;
  for (std::size_t s = 0; s < batches.size(); ++s) {
    if (s == static_cast<std::size_t>(o.warmup)) other_cpu.restart();
    const auto t0 = std::chrono::steady_clock::now();
    losses.push_back(model.learn(batches[s]));
    if (s >= static_cast<std::size_t>(o.warmup))
      step_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const double other = other_cpu.share();
  // The median step: one step slowed by another process's burst moves it little.
  std::sort(step_seconds.begin(), step_seconds.end());
  const std::size_t n = step_seconds.size();
  const double median = n % 2 ? step_seconds[n / 2] : (step_seconds[n / 2 - 1] + step_seconds[n / 2]) / 2;
  const double tps = static_cast<double>(o.batch) * o.length / median;
  std::ostringstream ls;
  for (std::size_t i = 0; i < losses.size(); ++i) ls << (i ? "," : "") << std::to_string(losses[i]);
  std::printf("ours model=%s tokens_per_s=%.0f losses=%s params=%zu peak_bytes=%zu %s\n", label, tps, ls.str().c_str(),
              model.parameter_count(), eng.peak_training_bytes(o.length), bem::other_cpu_field(other).c_str());
  if (!o.out.empty()) {
    std::ofstream lo(o.out + "/" + label + ".losses");
    for (double l : losses) lo << std::to_string(l) << '\n';
  }
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "nn_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--out") o.out = next();
    else if (a == "--batch") o.batch = std::atoi(next().c_str());
    else if (a == "--length") o.length = std::atoi(next().c_str());
    else if (a == "--warmup") o.warmup = std::atoi(next().c_str());
    else if (a == "--steps") o.steps = std::atoi(next().c_str());
    else if (a == "--threads") o.threads = std::atoi(next().c_str());
    else if (a == "--models") o.models = next();
    else {
      std::fprintf(stderr, "usage: nn_bench [--out DIR] [--batch B] [--length T] [--warmup W] [--steps N] [--threads K] [--models e88,mamba2]\n");
      return 2;
    }
  }
  if (o.batch < 1 || o.length < 1 || o.steps < 1 || o.threads < 1 || o.warmup < 0) {
    std::fprintf(stderr, "nn_bench: batch, length, steps and threads must be >= 1, warmup >= 0\n");
    return 2;
  }
  try {
    if (o.models.find("e88") != std::string::npos) {
      bem::parameters p;
      p.set("preset", std::string("E88-1L"));
      run<bem::nn::e88_model>("e88", o, p);
    }
    if (o.models.find("mamba2") != std::string::npos) {
      bem::parameters p;
      p.set("preset", std::string("Mamba2-4L"));
      run<bem::nn::mamba2_model>("mamba2", o, p);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nn_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
