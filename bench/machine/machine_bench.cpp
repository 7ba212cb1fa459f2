// bench/run machine: the fast-path step of bem::machine against the sum of its
// parts, each measured alone in the same run on the same inputs, and the
// slow path's verified patches per second on a stated patch mix.
//
// The machine: N = 64 STATE bits, K = 1024 SHARED bits, W = 256 lanes,
// 10^4 experts (8 STATE inputs, 4 outputs xor-ed into STATE, random 32-gate
// lists), the default multi-index router, k_large = 16, the trace log on.
// Steps run on a precomputed list of observations; the parts are timed on
// exactly what those steps did:
//   route    router.query(q, filter, 16) for each step's key;
//   select   the UCB1 top-k_small over each step's candidate slots, with the
//            statistics the steps left;
//   experts  each step's chosen experts applied to the state (one for all
//            lanes at k_small = 1; four lane groups at k_small = 4);
//   log      one trace entry of the step's payload size appended.
// RESULT ratio = (sum of the parts' ticks per step) / (a whole step's ticks),
// the worse of k_small = 1 and 4; goal 0.85: the composition adds at most
// about 15% to its parts. Ticks are TSC ticks (estimated cycles: these
// machines have no hardware counters), medians of 7 interleaved rounds.
//
// The patch mix (verified patches per second): for each of 200 rounds, a
// circuit_superopt (a gate list against the same function with redundant
// gates: UNSAT, accepted), a macro_create that keeps the annotation
// (accepted), and one that breaks it (SAT, rejected with its counterexample),
// on a machine of 64 experts with one invariant over 4 STATE bits.
//
// Usage: machine_bench [--steps N] (default 20000 per round)
#include <bem/circuits/random_circuit.hpp>
#include <bem/machine/machine.hpp>
#include <bem/machine/slow_path.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/platform/other_cpu.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

constexpr std::size_t N = 64, K = 1024, W = 256, experts = 10000;
using machine_t = bem::machine<N, K, W>;
using word = bem::lane_word<W>;

bem::expert<bem::gate_list> random_expert(bem::xoshiro256ss& rng, std::set<bem::identifier>& used) {
  bem::identifier id;
  do {
    id = bem::make_checked_identifier(1, static_cast<std::uint32_t>(rng.uniform_below(64)),
                                      static_cast<std::uint32_t>(rng.uniform_below(1 << 14)));
  } while (!used.insert(id).second);
  bem::read_spec r;
  for (int i = 0; i < 8; ++i) r.bits.push_back({bem::read_bit::source::state, static_cast<std::uint32_t>(rng.uniform_below(N))});
  bem::write_spec w;
  for (int i = 0; i < 4; ++i)
    w.bits.push_back({static_cast<std::uint32_t>(rng.uniform_below(N)), bem::write_bit::mode::xor_into});
  return {id, std::move(r), bem::random_gate_list({8, 4, 32, 16}, rng.next()), std::move(w)};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct step_parts {
  double whole = 0, route = 0, select = 0, experts = 0, log = 0;
};

/// One round: `steps` whole steps, then each part alone on what they did.
step_parts round(std::size_t k_small, std::size_t steps, std::uint64_t seed, std::uint64_t& sink) {
  bem::machine_config cfg;
  cfg.tasks = 4;
  cfg.k_small = k_small;
  cfg.lanes = k_small == 1 ? bem::lane_scheme::all_lanes : bem::lane_scheme::lane_groups;
  cfg.max_experts = experts;
  machine_t m(cfg);
  bem::xoshiro256ss rng(seed);
  std::set<bem::identifier> used;
  for (std::size_t i = 0; i < experts; ++i) m.add_expert(random_expert(rng, used));
  for (std::size_t k = 0; k < N; ++k)
    for (auto& x : m.state_words()[k].words()) x = rng.next();
  std::vector<bem::observation> obs(steps);
  for (auto& o : obs) o = {static_cast<std::uint32_t>(rng.uniform_below(4)), rng.next(), 0, 0};
  // Warm statistics, so UCB scores differ.
  for (std::size_t t = 0; t < 2000; ++t) {
    const auto c = m.step(obs[t % steps]);
    if (!c.empty()) m.reward(obs[t % steps].task_id, c[0], static_cast<double>(rng.uniform_below(2)));
  }
  step_parts p;
  // Whole steps; record what each did.
  std::vector<std::vector<std::uint32_t>> chosen(steps);
  std::uint64_t t0 = bem::read_tsc_begin();
  for (std::size_t t = 0; t < steps; ++t) {
    const auto c = m.step(obs[t]);
    chosen[t].assign(c.begin(), c.end());
  }
  p.whole = static_cast<double>(bem::read_tsc_end() - t0) / static_cast<double>(steps);
  sink ^= m.state_words()[0].word(0);

  // route
  bem::route_result res;
  std::vector<std::vector<std::uint32_t>> candidates(steps);
  t0 = bem::read_tsc_begin();
  for (std::size_t t = 0; t < steps; ++t) {
    m.router().query(m.query_key(obs[t]), {bem::class_bit(1), bem::all_shards}, cfg.k_large, res);
    sink += res.candidates.size();
  }
  p.route = static_cast<double>(bem::read_tsc_end() - t0) / static_cast<double>(steps);
  for (std::size_t t = 0; t < steps; ++t) {
    m.router().query(m.query_key(obs[t]), {bem::class_bit(1), bem::all_shards}, cfg.k_large, res);
    for (const auto& c : res.candidates) candidates[t].push_back(*m.slot_of(c.id));
  }
  // select
  const bem::ucb_fixed ucb = bem::ucb_fixed::from(cfg.ucb);
  std::uint32_t out[4];
  t0 = bem::read_tsc_begin();
  for (std::size_t t = 0; t < steps; ++t) sink += m.selection().select_top(obs[t].task_id, candidates[t], k_small, out, ucb) + out[0];
  p.select = static_cast<double>(bem::read_tsc_end() - t0) / static_cast<double>(steps);
  // experts
  bem::state<N, W> s = m.state_words();
  bem::expert_batch<bem::gate_list, word> batch;
  std::vector<word> masks;
  for (std::size_t g = 0; g < k_small; ++g) {
    word mk;
    for (std::size_t l = g * W / k_small; l < (g + 1) * W / k_small; ++l) mk.set_lane(l, true);
    masks.push_back(mk);
  }
  const std::span<const std::uint64_t> shared = m.shared().words();
  std::vector<const machine_t::expert_type*> group(k_small);
  t0 = bem::read_tsc_begin();
  for (std::size_t t = 0; t < steps; ++t) {
    if (chosen[t].empty()) continue;
    if (k_small == 1) {
      batch.apply_all(m.expert_at(chosen[t][0]), std::span<word>(&s[0], N), shared);
    } else {
      for (std::size_t g = 0; g < k_small; ++g) group[g] = &m.expert_at(chosen[t][g < chosen[t].size() ? g : 0]);
      batch.apply_masked(group, masks, std::span<word>(&s[0], N), shared);
    }
  }
  p.experts = static_cast<double>(bem::read_tsc_end() - t0) / static_cast<double>(steps);
  sink ^= s[1].word(0);
  // log
  bem::trace_log log;
  t0 = bem::read_tsc_begin();
  for (std::size_t t = 0; t < steps; ++t) {
    bem::trace_entry e{t, bem::fast_step_kind, {}};
    e.payload.resize(8 + 4 * chosen[t].size());
    std::memcpy(e.payload.data(), &obs[t].task_id, 4);
    log.append(std::move(e));
  }
  p.log = static_cast<double>(bem::read_tsc_end() - t0) / static_cast<double>(steps);
  sink ^= log.head()[0];
  return p;
}

/// Patches decided per second on the stated mix.
double patches_per_second(std::uint64_t& sink, int rounds, std::uint64_t& accepted, std::uint64_t& rejected) {
  using small_t = bem::machine<16, 64, 64>;
  small_t m(bem::machine_config{});
  bem::xoshiro256ss rng(5);
  std::set<bem::identifier> used;
  for (int i = 0; i < 64; ++i) {
    bem::identifier id;
    do id = bem::make_checked_identifier(1, static_cast<std::uint32_t>(rng.uniform_below(64)),
                                         static_cast<std::uint32_t>(rng.uniform_below(1 << 14)));
    while (!used.insert(id).second);
    bem::read_spec r;
    for (std::uint32_t j = 0; j < 6; ++j) r.bits.push_back({bem::read_bit::source::state, 4 + (j + static_cast<std::uint32_t>(i)) % 12});
    bem::write_spec w;
    for (std::uint32_t j = 0; j < 2; ++j) w.bits.push_back({4 + (static_cast<std::uint32_t>(i) + 5 * j) % 12, bem::write_bit::mode::xor_into});
    m.add_expert({id, r, bem::random_gate_list({6, 2, 20, 8}, rng.next()), w});
  }
  bem::verified_program prog;
  prog.init = !bem::state_bit(0) && !bem::state_bit(1) && !bem::state_bit(2) && !bem::state_bit(3);
  prog.locations[0].annotation = prog.init;  // no expert writes bits 0..3
  bem::slow_path<small_t> slow(m, {}, prog);
  const std::uint64_t t0 = bem::read_tsc_begin();
  const auto ns0 = bem::detail::raw_clock_ns();
  for (int r = 0; r < rounds; ++r) {
    const std::uint32_t slot = static_cast<std::uint32_t>(rng.uniform_below(64));
    const auto& e = m.expert_at(slot);
    // The same function with two redundant gates appended (x & x of its last node).
    const bem::gate_list& g = e.circuit();
    std::vector<bem::gate> gates = g.gates();
    std::vector<std::uint32_t> outs = g.output_nodes();
    const auto last = static_cast<std::uint32_t>(g.inputs() + gates.size() - 1);
    gates.push_back({bem::gate_op::and_, 0, last, last, 0});
    gates.push_back({bem::gate_op::or_, 0, last + 1, last + 1, 0});
    bem::patch<bem::gate_list> bloat;  // install the bloated one, then optimise it back
    bloat.kind = bem::patch_class::circuit_superopt;
    bloat.slot = slot;
    bloat.reward_gain = 0.1;
    bloat.experts.push_back({e.id(), e.reads(), bem::gate_list(g.inputs(), gates, outs), e.writes()});
    sink += static_cast<std::uint64_t>(slow.decide(bloat).state);
    bem::patch<bem::gate_list> opt = bloat;
    opt.experts = {bem::expert<bem::gate_list>(e.id(), e.reads(), bem::gate_list(g.inputs(), g.gates(), outs), e.writes())};
    opt.reward_gain = 0;
    sink += static_cast<std::uint64_t>(slow.decide(opt).state);
    // A new expert that keeps bits 0..3 (writes 4..15), and one that writes bit 2.
    for (const std::uint32_t target : {4 + static_cast<std::uint32_t>(r % 12), 2u}) {
      bem::identifier id;
      do id = bem::make_checked_identifier(1, static_cast<std::uint32_t>(rng.uniform_below(64)),
                                           static_cast<std::uint32_t>(rng.uniform_below(1 << 14)));
      while (!used.insert(id).second);
      bem::patch<bem::gate_list> create;
      create.kind = bem::patch_class::macro_create;
      create.reward_gain = 0.5;
      bem::read_spec rs;
      for (std::uint32_t j = 0; j < 6; ++j) rs.bits.push_back({bem::read_bit::source::state, 4 + j});
      create.experts.push_back({id, rs, bem::random_gate_list({6, 1, 16, 8}, rng.next()),
                                bem::write_spec{{{target, bem::write_bit::mode::overwrite}}}});
      const auto& rec = slow.decide(create);
      sink += static_cast<std::uint64_t>(rec.state);
    }
  }
  const double seconds = static_cast<double>(bem::detail::raw_clock_ns() - ns0) * 1e-9;
  sink += bem::read_tsc_end() - t0;
  accepted = slow.counters().accepted;
  rejected = slow.counters().rejected;
  return static_cast<double>(slow.counters().accepted + slow.counters().rejected) / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  // Other processes' share of the machine while this bench runs (bem/platform/other_cpu.hpp).
  const bem::other_cpu_meter other_cpu;
  std::size_t steps = 20000;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
      steps = static_cast<std::size_t>(std::strtoull(argv[++i], nullptr, 10));
    } else {
      std::fprintf(stderr, "usage: machine_bench [--steps N]\n");
      return 2;
    }
  }
  if (steps < 1000) {
    std::fprintf(stderr, "machine_bench: --steps must be at least 1000\n");
    return 2;
  }
  std::uint64_t sink = 0;
  std::printf("bem::machine<64, 1024, 256>, 10^4 experts (32 gates), k_large = 16, log on; %zu steps per round;\n"
              "TSC ticks per step (estimated cycles), medians of 7 interleaved rounds\n\n",
              steps);
  std::printf("%-8s %10s %10s %10s %10s %10s %10s %12s %8s\n", "k_small", "step", "route", "select", "experts", "log",
              "parts", "per lane", "ratio");
  double worst = 1e9;
  for (const std::size_t k : {std::size_t{1}, std::size_t{4}}) {
    std::vector<double> whole, route, select, experts_, log, ratio;
    for (int r = 0; r < 7; ++r) {
      const step_parts p = round(k, steps, 100 + static_cast<std::uint64_t>(r), sink);
      whole.push_back(p.whole);
      route.push_back(p.route);
      select.push_back(p.select);
      experts_.push_back(p.experts);
      log.push_back(p.log);
      ratio.push_back((p.route + p.select + p.experts + p.log) / p.whole);
    }
    const double parts = median(route) + median(select) + median(experts_) + median(log);
    std::printf("%-8zu %10.0f %10.0f %10.0f %10.0f %10.0f %10.0f %12.2f %8.3f\n", k, median(whole), median(route),
                median(select), median(experts_), median(log), parts, median(whole) / W, median(ratio));
    worst = std::min(worst, median(ratio));
  }
  std::uint64_t accepted = 0, rejected = 0;
  const double pps = patches_per_second(sink, 200, accepted, rejected);
  std::printf("\nslow path, patch mix of 800 (superopt up and back, a safe and an unsafe macro_create per round):\n"
              "  %.0f patches decided per second (%llu accepted, %llu rejected)\n",
              pps, static_cast<unsigned long long>(accepted), static_cast<unsigned long long>(rejected));
  std::printf("(sink %llu)\n", static_cast<unsigned long long>(sink & 0xF));
  const double other = other_cpu.share();
  std::fputs(bem::other_cpu_warning(other).c_str(), stdout);
  std::printf("RESULT name=machine ratio=%.3f goal=0.85 %s\n", worst, bem::other_cpu_field(other).c_str());
  return 0;
}
