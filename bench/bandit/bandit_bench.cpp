// bench/run bandit: the BEM's regret against its peers on the environments of
// BEM 5.1 and 5.2 (tasks/contextual_bandit.hpp), d = 8, K = 4, T = 10^5,
// seeds 1..5, every policy with its default settings (docs/bandits.md):
//   RESULT name=bandit ratio = LinUCB's mean regret / the BEM's (stationary),
//     goal >= 0.5 (the BEM within 2x of LinUCB);
//   RESULT name=bandit_nonstationary ratio = the best baseline's mean regret /
//     the BEM's (J = 4 changes), goal >= 1 (the BEM below every baseline).
// Regret is pseudo-regret in expected reward, exact and the same on every
// machine; the seconds per run are printed for scale (wall clock, this host).
// Options: --rounds T, --seeds S.
#include <bem/learn/bandit_policies.hpp>
#include <bem/platform/other_cpu.hpp>
#include <tasks/contextual_bandit.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct outcome {
  double regret = 0, seconds = 0;
};

template <class P>
outcome play(int changes, std::int64_t T, std::uint64_t seed) {
  bem::tasks::nonstationary_bandit env({8, 4, 1.0}, changes, T, seed);
  const auto rounds = env.draw_rounds();
  P policy({8, 4}, bem::bandit_policy_settings{}, seed);
  outcome o;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::int64_t t = 0; t < T; ++t) {
    const auto& r = rounds[static_cast<std::size_t>(t)];
    const int a = policy.choose(r.context);
    policy.learn(r.context, a, static_cast<double>((r.rewards >> a) & 1u));
    o.regret += env.segment(env.segment_of(t)).gap(r.context, a);
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

struct row {
  std::string name;
  double regret = 0, seconds = 0;
};

template <class P>
row mean_over_seeds(int changes, std::int64_t T, int seeds) {
  row r{P::name, 0, 0};
  std::printf("  %-18s", P::name);
  for (int s = 1; s <= seeds; ++s) {
    const outcome o = play<P>(changes, T, static_cast<std::uint64_t>(s));
    std::printf(" %9.1f", o.regret);
    r.regret += o.regret / seeds;
    r.seconds += o.seconds / seeds;
  }
  std::printf("  | mean %9.1f  %7.2f s/run\n", r.regret, r.seconds);
  std::fflush(stdout);
  return r;
}

std::vector<row> table(int changes, std::int64_t T, int seeds) {
  std::printf("%s: d 8, K 4, T %lld, J %d; regret per seed 1..%d\n", changes ? "5.2 piecewise-stationary" : "5.1 stationary",
              static_cast<long long>(T), changes, seeds);
  std::vector<row> rows;
  rows.push_back(mean_over_seeds<bem::bem_bandit_policy>(changes, T, seeds));
  rows.push_back(mean_over_seeds<bem::uniform_policy>(changes, T, seeds));
  rows.push_back(mean_over_seeds<bem::ucb1_per_context_policy>(changes, T, seeds));
  rows.push_back(mean_over_seeds<bem::discounted_ucb1_per_context_policy>(changes, T, seeds));
  rows.push_back(mean_over_seeds<bem::epsilon_greedy_logistic_policy>(changes, T, seeds));
  rows.push_back(mean_over_seeds<bem::linucb_policy>(changes, T, seeds));
  rows.push_back(mean_over_seeds<bem::sliding_window_linucb_policy>(changes, T, seeds));
  rows.push_back(mean_over_seeds<bem::discounted_linucb_policy>(changes, T, seeds));
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  // Other processes' share of the machine while this bench runs (bem/platform/other_cpu.hpp):
  // printed as every bench prints it, though regrets do not depend on it.
  const bem::other_cpu_meter other_cpu;
  std::int64_t T = 100000;
  int seeds = 5;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) T = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--seeds") && i + 1 < argc) seeds = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: bandit_bench [--rounds T] [--seeds S]\n");
      return 2;
    }
  }
  if (T < 10 || seeds < 1) {
    std::fprintf(stderr, "bandit_bench: need --rounds >= 10 and --seeds >= 1\n");
    return 2;
  }
  const std::vector<row> stationary = table(0, T, seeds);
  const std::vector<row> changing = table(4, T, seeds);
  const double bem = stationary[0].regret;
  const double linucb = std::find_if(stationary.begin(), stationary.end(), [](const row& r) { return r.name == "linucb"; })->regret;
  const auto best = std::min_element(changing.begin() + 1, changing.end(),
                                     [](const row& a, const row& b) { return a.regret < b.regret; });
  std::printf("best baseline, piecewise-stationary: %s (%.1f)\n", best->name.c_str(), best->regret);
  const double other = other_cpu.share();
  std::printf("RESULT name=bandit ratio=%.3f goal=0.5 %s\n", linucb / bem, bem::other_cpu_field(other).c_str());
  std::printf("RESULT name=bandit_nonstationary ratio=%.3f goal=1 %s\n", best->regret / changing[0].regret,
              bem::other_cpu_field(other).c_str());
  return 0;
}
