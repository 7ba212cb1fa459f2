// bench/run taskgen: generating the temporal tasks' data with bem's generator
// (xoshiro256**, one PRNG output per 64 bits) against the same data drawn the
// way a C++ port of the seed's generator would, with std::mt19937_64 and
// std::bernoulli_distribution, in one process on the same sizes. Both
// compute identical labels (RTC, B x T); a checksum of every label keeps both
// loops live.
#include <bem/platform/other_cpu.hpp>
#include <bem/prng.hpp>
#include <tasks/temporal.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

constexpr int batch = 256, length = 2048, repeats = 20;

double seconds_of(const auto& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main() {
  // Other processes' share of the machine while this bench runs (bem/platform/other_cpu.hpp).
  const bem::other_cpu_meter other_cpu;
  bem::parameters p;
  p.set("length", std::int64_t{length});
  const bem::tasks::rtc_task task(p);
  bem::tasks::sequence_batch b;
  std::uint64_t ours_sum = 0, peer_sum = 0;
  const auto ours_run = [&] {
    for (int r = 0; r < repeats; ++r) {
      task.generate(0, 1, static_cast<std::int64_t>(r) * batch, batch, b);
      for (auto y : b.targets) ours_sum += static_cast<std::uint64_t>(y);
    }
  };
  std::vector<std::int32_t> x(static_cast<std::size_t>(batch) * length), y(x.size());
  const auto peer_run = [&] {
    for (int r = 0; r < repeats; ++r) {
      std::mt19937_64 engine(static_cast<std::uint64_t>(r));
      std::bernoulli_distribution coin(0.5);
      for (int s = 0; s < batch; ++s) {
        std::int64_t c = 0;
        for (int t = 0; t < length; ++t) {
          const int bit = coin(engine) ? 1 : 0;
          c += bit;
          x[static_cast<std::size_t>(s) * length + static_cast<std::size_t>(t)] = bit;
          y[static_cast<std::size_t>(s) * length + static_cast<std::size_t>(t)] = c >= (t + 2) / 2;
        }
      }
      for (auto v : y) peer_sum += static_cast<std::uint64_t>(v);
    }
  };
  // Alternately, best of 7 each: both see the same machine (timed one after
  // the other, the load of the moment decided the ratio: 0.97-1.84).
  double ours = 1e30, peer = 1e30;
  for (int rep = 0; rep < 7; ++rep) {
    ours = std::min(ours, seconds_of(ours_run));
    peer = std::min(peer, seconds_of(peer_run));
  }
  const double tokens = static_cast<double>(batch) * length * repeats;
  std::printf("%-40s %14s\n", "generator (RTC, B=256, T=2048)", "tokens/s");
  std::printf("%-40s %14.3e\n", "bem rtc_task (xoshiro256**)", tokens / ours);
  std::printf("%-40s %14.3e\n", "std::mt19937_64 + bernoulli_distribution", tokens / peer);
  std::printf("checksums %llu %llu (label sums; different streams)\n", static_cast<unsigned long long>(ours_sum),
              static_cast<unsigned long long>(peer_sum));
  const double other = other_cpu.share();
  std::fputs(bem::other_cpu_warning(other).c_str(), stdout);
  std::printf("RESULT name=taskgen ratio=%.2f goal=1.0 %s\n", peer / ours, bem::other_cpu_field(other).c_str());
  return 0;
}
