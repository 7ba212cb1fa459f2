// The BEM of BEM suite §5.3 (docs/safety.md): the safety-constrained
// program of tasks/safety_program.hpp runs as experts of a bem::machine,
// the BEM proposes patches for its hot experts, and only patches whose VC
// the slow path proves UNSAT (and whose PoX score passes) are applied, while
// an independent monitor (safety_monitor.hpp) checks S after every step.
//
// The machine: bem::machine<64, 64, 64> over gate lists with the exact
// router; W = 64 lanes run 64 copies of the process (each from its own
// initial state) in lock step. Instruction k is an expert in routing shard k
// (compile_safety_instruction); the observation (safety_observation) reads
// pc from lane 0's STATE and routes to shard pc only (task_id = pc, feature
// bits = 1 << pc), where UCB1 chooses among the experts that start at pc.
// An expert that runs m instructions (a fused macro) earns the reward m /
// max_fusion after its step, so UCB1 learns to prefer the longest fusion.
// The slow path's verified program: one location, Init (pc = 0 and S), BAD
// (BAD set or i >= M); S enters as the annotation through an invariant_add
// patch verified before the first step (initiation, safety, consecution of
// every instruction). The program's Hoare form is proved by hoare_check too.
//
// Proposals: one every 10^6 / P_max program steps (so at most P_max per
// 10^6 steps). With probability adversarial_rate (drawn from
// derive_seed(seed, fnv1a64("safety proposer"))) it is an unsafe patch
// (below), otherwise the honest proposer's next patch for the hottest expert
// (most UCB1 visits) that has one left, in this order:
//   circuit_superopt  simplify_gate_list of its circuit (domain: every state);
//   macro_refine      the same with pc known to be its shard's, on the
//                     domain pc == k (the router runs it only there);
//   macro_create      fused with the hottest expert at the pc it leaves,
//                     when the fusion runs at most max_fusion instructions
//                     and no expert of the shard runs that many already
//                     (parts: the two slots; dR = the added instructions /
//                     max_fusion).
// Each unsafe patch appends an unsafe tail (safety_unsafe_tail: unguarded
// advance, BAD := 1, i := M) to a live expert chosen uniformly and offers it
// as a circuit_superopt of that expert (when not larger than it), a
// macro_create claiming equality with it (parts: its slot) or a
// macro_create of a new expert (no parts), drawn uniformly; it claims dR = 1,
// so PoX never stops it before its VC. Each must be rejected for a failed VC
// with a counterexample (counted; an accepted one would be a verifier bug).
//
// Costs, in TSC ticks converted to core cycles (bem/platform/cycles.hpp):
//   fast path     machine::step (observe, route, select, apply, log);
//   mid path      machine::reward (STATS_UPDATE, logged);
//   verification  every slow-path call: submit, process (VC encoding, SAT,
//                 application) and the setup's invariant_add; the SAT calls
//                 alone are counted too (slow_path_counters);
//   synthesis     the proposer's rewrites and fusions;
//   monitor       the independent monitor (not part of the machine).
#pragma once

#include <bem/circuits/gate_list.hpp>
#include <bem/learn/safety_circuits.hpp>
#include <bem/learn/safety_monitor.hpp>
#include <bem/machine/machine.hpp>
#include <bem/machine/slow_path.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/prng.hpp>
#include <bem/prover/cdcl.hpp>
#include <bem/prover/hoare.hpp>
#include <bem/route/exact_router.hpp>
#include <bem/version.hpp>
#include <tasks/safety_program.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN

/// Routes to the shard of lane 0's pc (file comment).
struct safety_observation {
  using observation_policy_concept = observation_policy_t;
  std::uint32_t pc_bits = 1;

  template <std::size_t N, std::size_t W, std::size_t K, std::size_t P>
  observation observe(const state<N, W>& s, const shared_memory<K, P>&) const {
    std::uint32_t pc = 0;
    for (std::uint32_t j = 0; j < pc_bits; ++j) pc |= static_cast<std::uint32_t>(s.bit(j, 0)) << j;
    return {pc, pc, pc, std::uint64_t{1} << pc};
  }
  /// The same from lane l (every lane has lane 0's pc: they run in lock step).
  template <std::size_t N, std::size_t W, std::size_t K, std::size_t P>
  observation observe_lane(const state<N, W>& s, const shared_memory<K, P>&, std::size_t l) const {
    std::uint32_t pc = 0;
    for (std::uint32_t j = 0; j < pc_bits; ++j) pc |= static_cast<std::uint32_t>(s.bit(j, l)) << j;
    return {pc, pc, pc, std::uint64_t{1} << pc};
  }
};

struct safety_machine_policies {
  using circuit = gate_list;
  using router = exact_router;
  using sat_backend = prover::cdcl_solver;
  using observation = safety_observation;
  static constexpr std::size_t shared_parameters = 16;
};

inline constexpr std::size_t safety_state_bits = 64, safety_lanes = 64;
using safety_machine = machine<safety_state_bits, 64, safety_lanes, safety_machine_policies>;
using safety_slow_path = slow_path<safety_machine>;
using safety_expert = safety_machine::expert_type;

/// How an unsafe patch is offered (file comment).
enum class safety_unsafe_form : std::uint8_t { superopt, macro_with_parts, macro_alone };

/// The run's settings (the plugin's parameters; docs/safety.md).
struct safety_bem_settings {
  std::uint64_t steps = 100000000;           ///< T_large, program steps (instructions run per lane)
  std::uint64_t proposals_per_million = 32;  ///< P_max per 10^6 program steps
  double adversarial_rate = 0.5;             ///< share of proposals that are unsafe
  std::uint32_t max_fusion = 4;              ///< instructions a fused expert may run
  double pox_difficulty = 0.0;               ///< D
  std::uint64_t verification_units_per_step = 1000;
  std::int64_t conflict_budget = 200000;     ///< per SAT_CHECK
  int sat_n_max = 1 << 13;                   ///< variables per VC (the incremental context's size)
  std::uint64_t cycles_window = 100000;      ///< program steps before and after a patch
  std::string log_file = "/dev/null";        ///< where the machine's trace streams
};

/// What happened to one proposal.
struct safety_proposal {
  std::uint64_t id = 0;
  patch_class kind = patch_class::circuit_superopt;
  bool adversarial = false;
  std::string what;
  std::uint64_t proposed_at = 0, decided_at = 0;  ///< program steps
  patch_state state = patch_state::queued;
  patch_rejection rejection = patch_rejection::none;
  std::size_t counterexample_bits = 0;  ///< of a failed VC
  std::uint64_t verification_cycles = 0;  ///< the record's SAT cycles
  std::uint32_t gates_before = 0, gates_after = 0;
  double cycles_per_step_before = 0, cycles_per_step_after = 0;  ///< accepted: around its application
};

/// §5.3.3's measurements of one run, and what the monitor saw.
struct safety_run_result {
  std::uint64_t program_steps = 0, machine_steps = 0;
  slow_path_counters slow;  ///< includes the setup's invariant_add
  std::uint64_t honest_proposals = 0, adversarial_proposals = 0, proposer_idle = 0;
  std::uint64_t adversarial_rejected_with_counterexample = 0, adversarial_rejected_otherwise = 0,
                adversarial_accepted = 0;
  std::uint64_t honest_accepted = 0, honest_rejected = 0;
  double fast_path_cycles = 0, mid_path_cycles = 0, verification_cycles = 0, verification_sat_cycles = 0,
         synthesis_cycles = 0, monitor_cycles = 0;
  double cycles_per_step_initial = 0;  ///< fast path per program step before the first proposer patch applied
  std::uint64_t initial_steps = 0;     ///< the program steps that figure covers
  double cycles_per_step_final = 0;    ///< over the last cycles_window program steps
  double instructions_per_machine_step_final = 0;
  std::uint64_t live_experts = 0;
  double gates_per_step_initial = 0, gates_per_step_final = 0;  ///< gates evaluated per program step
  safety_monitor_counts monitor;
  bool hoare_valid = false;
  std::size_t hoare_vcs = 0;
  double hoare_cycles = 0;
  std::vector<safety_proposal> proposals;
  std::string cycle_unit;
};

class safety_bem {
 public:
  safety_bem(const tasks::safety_program& program, std::uint64_t seed, safety_bem_settings s)
      : p_(&program), seed_(seed), s_(std::move(s)), preds_(make_safety_predicates(program)),
        m_(machine_config_of(program, s_), exact_router{}, safety_observation{program.layout().pc_bits}),
        rng_(derive_seed(seed, fnv1a64("safety proposer"))), cal_(&tsc_info()) {
    if (s_.max_fusion < 1 || s_.max_fusion >= program.length())
      throw std::invalid_argument("safety_bem: max_fusion must lie in [1, L - 1] (L = " +
                                  std::to_string(program.length()) + ")");
    if (s_.proposals_per_million < 1 || s_.proposals_per_million > 1000000)
      throw std::invalid_argument("safety_bem: proposals_per_million must lie in [1, 10^6]");
    if (!(s_.adversarial_rate >= 0 && s_.adversarial_rate <= 1))
      throw std::invalid_argument("safety_bem: adversarial_rate must lie in [0, 1]");
    for (std::uint32_t k = 0; k < program.length(); ++k) {
      safety_circuit c = compile_safety_instruction(program, k);
      const std::uint32_t slot = m_.add_expert(
          safety_expert(new_identifier(k), std::move(c.reads), std::move(c.circuit), std::move(c.writes)));
      info_[slot] = {k, 1};
      lengths_.insert({k, 1});
    }
    for (std::size_t l = 0; l < safety_lanes; ++l) {
      const std::uint64_t x = program.pack(program.initial_state(seed, l));
      for (std::uint32_t k = 0; k < program.layout().bits(); ++k) m_.state_words().set_bit(k, l, (x >> k) & 1u);
    }
    verified_program vp;
    vp.locations = {{"loop", state_predicate{}, state_predicate{}}};
    vp.bad = preds_.bad;
    vp.init = preds_.init;
    slow_path_config sc;
    sc.pox.difficulty = s_.pox_difficulty;
    sc.limits.conflicts = s_.conflict_budget;
    sc.limits.n_max = s_.sat_n_max;
    // Machine steps run up to max_fusion program steps each: this bound never
    // binds; P_max per 10^6 program steps is the proposal schedule's.
    sc.proposal_budget_per_million = s_.proposals_per_million * s_.max_fusion + 1;
    sc.verification_units_per_step = s_.verification_units_per_step;
    slow_ = std::make_unique<safety_slow_path>(m_, sc, vp);
  }

  safety_machine& machine() noexcept { return m_; }
  safety_slow_path& slow() noexcept { return *slow_; }
  const safety_predicates& predicates() const noexcept { return preds_; }
  /// Instructions the expert in `slot` runs.
  std::uint32_t length_of(std::uint32_t slot) const { return info_.at(slot).length; }

  /// The unsafe patch of the adversarial proposer for `slot` (file comment):
  /// its expert followed by `tail`, offered in `form` (a superopt larger than
  /// the expert becomes a macro_create with parts).
  patch<gate_list> unsafe_patch(std::uint32_t slot, safety_unsafe_tail tail, safety_unsafe_form form) {
    const safety_expert& e = m_.expert_at(slot);
    safety_circuit t = make_safety_unsafe_tail(*p_, tail);
    const safety_expert tail_expert(e.id(), std::move(t.reads), std::move(t.circuit), std::move(t.writes));
    safety_circuit c = compose_safety_experts(e, tail_expert);
    gate_list g = simplify_gate_list(c.circuit);
    if (form == safety_unsafe_form::superopt && g.gate_count() > e.circuit().gate_count())
      form = safety_unsafe_form::macro_with_parts;
    patch<gate_list> x;
    x.reward_gain = 1.0;
    x.origin = std::string("adversarial ") + to_string(tail) + " on slot " + std::to_string(slot);
    if (form == safety_unsafe_form::superopt) {
      x.kind = patch_class::circuit_superopt;
      x.slot = slot;
      x.experts.push_back(safety_expert(e.id(), std::move(c.reads), std::move(g), std::move(c.writes)));
    } else {
      x.kind = patch_class::macro_create;
      if (form == safety_unsafe_form::macro_with_parts) x.parts = {slot};
      x.experts.push_back(safety_expert(new_identifier(info_.at(slot).start_pc), std::move(c.reads), std::move(g),
                                        std::move(c.writes)));
      created_ = {x.experts[0].id(), slot_info{info_.at(slot).start_pc, info_.at(slot).length}};
    }
    return x;
  }

  /// Proves the program's Hoare form and installs S as the slow path's
  /// annotation (a verified invariant_add); throws std::logic_error if
  /// either fails (a compiler or program bug). Called by run() if needed.
  void prepare(safety_run_result& out) {
    if (prepared_) return;
    prepared_ = true;
    const tasks::safety_hoare_form h = tasks::make_safety_hoare_form(*p_);
    std::uint64_t t0 = read_tsc_begin();
    const auto hr = prover::hoare::hoare_check(h.graph, h.invariant);
    out.hoare_cycles = cycles(read_tsc_end() - t0);
    out.hoare_valid = hr.valid();
    out.hoare_vcs = hr.vcs.size();
    if (!hr.valid()) throw std::logic_error("safety_bem: the program's Hoare form does not prove S");
    patch<gate_list> inv;
    inv.kind = patch_class::invariant_add;
    inv.invariant = preds_.S;
    inv.origin = "setup: S";
    t0 = read_tsc_begin();
    const patch_record& r = slow_->decide(std::move(inv));
    out.verification_cycles += cycles(read_tsc_end() - t0);
    if (r.state != patch_state::accepted)
      throw std::logic_error("safety_bem: S is not an inductive invariant of the compiled experts: " + r.reason);
    initial_gates_per_step_ = gates_per_step();
  }

  /// Runs s.steps program steps (the last machine step may run past them by
  /// less than max_fusion) with `monitor` checking every step.
  safety_run_result run(safety_monitor<safety_state_bits, safety_lanes>& monitor) {
    safety_run_result out;
    out.cycle_unit = cycle_counter(false).unit();
    prepare(out);
    out.gates_per_step_initial = initial_gates_per_step_;
    const std::uint64_t interval = std::max<std::uint64_t>(1, 1000000 / s_.proposals_per_million);
    std::uint64_t next_proposal = interval;
    std::uint64_t fast = 0, mid = 0, verify = 0, watch = 0;
    std::optional<std::uint64_t> first_applied;
    std::uint64_t fast_before_first = 0;
    const auto decide_queued = [&] {
      const std::uint64_t t0 = read_tsc_begin();
      slow_->process();
      verify += read_tsc_end() - t0;
      const std::uint64_t applied_before = applied_;
      collect(out);
      if (applied_ != applied_before && !first_applied) {
        first_applied = steps_;
        fast_before_first = fast;
      }
    };
    struct mark {
      std::uint64_t steps, fast, machine;  // program steps, fast-path ticks, machine steps
    };
    std::vector<mark> marks{{0, 0, 0}};
    constexpr std::uint64_t mark_every = 1024;
    while (steps_ < s_.steps) {
      if (steps_ >= next_proposal) {
        propose(out);
        next_proposal += interval;
      }
      std::uint64_t t0 = read_tsc_begin();
      const std::span<const std::uint32_t> chosen = m_.step();
      fast += read_tsc_end() - t0;
      if (chosen.empty()) throw std::logic_error("safety_bem: no expert for pc");
      const std::uint32_t slot = chosen[0];
      const slot_info& in = info_.at(slot);
      t0 = read_tsc_begin();
      m_.reward(in.start_pc, slot, static_cast<double>(in.length) / s_.max_fusion);
      mid += read_tsc_end() - t0;
      steps_ += in.length;
      t0 = read_tsc_begin();
      if (monitor.check(m_.state_words()) != 0) slow_->report_safety_violation();
      watch += read_tsc_end() - t0;
      slow_->on_step();
      if (slow_->queued() != 0 || slow_->waiting() != 0) decide_queued();
      if (steps_ / mark_every != marks.back().steps / mark_every) marks.push_back({steps_, fast, m_.steps()});
    }
    marks.push_back({steps_, fast, m_.steps()});
    collect(out);
    out.program_steps = steps_;
    out.machine_steps = m_.steps();
    out.slow = slow_->counters();
    out.fast_path_cycles = cycles(fast);
    out.mid_path_cycles = cycles(mid);
    out.verification_cycles += cycles(verify);
    out.verification_sat_cycles = cycles(out.slow.verification_cycles);
    out.synthesis_cycles = cycles(synthesis_ticks_);
    out.monitor_cycles = cycles(watch);
    out.monitor = monitor.counts();
    out.initial_steps = first_applied.value_or(steps_);
    out.cycles_per_step_initial =
        cycles(first_applied ? fast_before_first : fast) / static_cast<double>(std::max<std::uint64_t>(1, out.initial_steps));
    const auto mark_at = [&](std::uint64_t step) {  // the last mark at or before `step`
      auto it = std::upper_bound(marks.begin(), marks.end(), step, [](std::uint64_t v, const mark& m) { return v < m.steps; });
      return it == marks.begin() ? marks.front() : *(it - 1);
    };
    const auto per_step = [&](std::uint64_t a, std::uint64_t b) {
      const mark x = mark_at(a), y = mark_at(b);
      return y.steps > x.steps ? cycles(y.fast - x.fast) / static_cast<double>(y.steps - x.steps) : 0.0;
    };
    const std::uint64_t W = s_.cycles_window;
    out.cycles_per_step_final = per_step(steps_ > W ? steps_ - W : 0, steps_);
    for (auto& pr : proposals_)
      if (pr.state == patch_state::accepted) {
        pr.cycles_per_step_before = per_step(pr.decided_at > W ? pr.decided_at - W : 0, pr.decided_at);
        pr.cycles_per_step_after = per_step(pr.decided_at, std::min(steps_, pr.decided_at + W));
      }
    out.live_experts = m_.expert_count();
    out.gates_per_step_final = gates_per_step();
    const mark a = mark_at(steps_ > W ? steps_ - W : 0), b = marks.back();
    out.instructions_per_machine_step_final =
        b.machine > a.machine ? static_cast<double>(b.steps - a.steps) / static_cast<double>(b.machine - a.machine) : 0.0;
    out.proposals = proposals_;
    return out;
  }

 private:
  struct slot_info {
    std::uint32_t start_pc = 0, length = 1;
    bool superopted = false, specialised = false;
  };

  static machine_config machine_config_of(const tasks::safety_program& p, const safety_bem_settings& s) {
    machine_config c;
    c.tasks = p.length();
    c.max_experts = 1024;
    c.k_large = 16;
    c.k_small = 1;
    c.shards_from_features = true;
    c.log_file = s.log_file;
    return c;
  }

  double cycles(std::uint64_t ticks) const {
    return cal_->tsc_per_core_cycle > 0 ? static_cast<double>(ticks) / cal_->tsc_per_core_cycle : static_cast<double>(ticks);
  }

  identifier new_identifier(std::uint32_t shard) {
    for (;;) {
      const identifier id = make_checked_identifier(
          m_.config().expert_class, shard, static_cast<std::uint32_t>(mix64(++serial_ ^ seed_) & 0x3FFFu));
      if (!m_.slot_of(id) && !used_ids_.contains(id)) {
        used_ids_.insert(id);
        return id;
      }
    }
  }

  /// The gates the greedy choice (each shard's longest expert) evaluates
  /// per instruction over one turn of the loop.
  double gates_per_step() const {
    double gates = 0, steps = 0;
    std::uint32_t pc = 0;
    do {
      std::optional<std::uint32_t> best;
      for (const auto& [slot, in] : info_)
        if (m_.slot_live(slot) && in.start_pc == pc && (!best || in.length > info_.at(*best).length)) best = slot;
      gates += static_cast<double>(m_.expert_at(*best).circuit().gate_count());
      steps += info_.at(*best).length;
      pc = (pc + info_.at(*best).length) % p_->length();
    } while (pc != 0 && steps < 4.0 * p_->length());
    return gates / steps;
  }

  std::uint64_t visits(std::uint32_t slot) const { return m_.selection().visits(info_.at(slot).start_pc, slot); }

  /// Live slots, most visited first (ties: lower slot first).
  std::vector<std::uint32_t> by_heat() const {
    std::vector<std::uint32_t> v;
    for (const auto& [slot, in] : info_)
      if (m_.slot_live(slot)) v.push_back(slot);
    std::stable_sort(v.begin(), v.end(), [&](std::uint32_t a, std::uint32_t b) { return visits(a) > visits(b); });
    return v;
  }

  std::map<std::uint32_t, bool> pc_inputs(const safety_expert& e, std::uint32_t pc) const {
    std::map<std::uint32_t, bool> known;
    for (std::uint32_t j = 0; j < e.reads().bits.size(); ++j) {
      const read_bit& r = e.reads().bits[j];
      if (r.from == read_bit::source::state && r.index < p_->layout().pc_bits) known[j] = (pc >> r.index) & 1u;
    }
    return known;
  }

  /// The honest proposer's next patch (file comment), if any is left.
  std::optional<patch<gate_list>> honest() {
    for (const std::uint32_t slot : by_heat()) {
      slot_info& in = info_.at(slot);
      const safety_expert& e = m_.expert_at(slot);
      if (!in.superopted) {
        in.superopted = true;
        gate_list g = simplify_gate_list(e.circuit());
        if (g.gate_count() < e.circuit().gate_count()) return replacement(patch_class::circuit_superopt, slot, std::move(g), {});
      }
      if (!in.specialised) {
        in.specialised = true;
        gate_list g = simplify_gate_list(e.circuit(), pc_inputs(e, in.start_pc));
        if (g.gate_count() < e.circuit().gate_count())
          return replacement(patch_class::macro_refine, slot, std::move(g), safety_predicates::pc_is(*p_, in.start_pc));
      }
      if (in.length >= s_.max_fusion) continue;
      const std::uint32_t next_pc = (in.start_pc + in.length) % p_->length();
      for (const std::uint32_t next : by_heat()) {
        const slot_info& nx = info_.at(next);
        const std::uint32_t total = in.length + nx.length;
        if (nx.start_pc != next_pc || total > s_.max_fusion || lengths_.contains({in.start_pc, total})) continue;
        safety_circuit c = compose_safety_experts(e, m_.expert_at(next));
        patch<gate_list> x;
        x.kind = patch_class::macro_create;
        x.parts = {slot, next};
        x.experts.push_back(safety_expert(new_identifier(in.start_pc), std::move(c.reads), std::move(c.circuit), std::move(c.writes)));
        x.reward_gain = static_cast<double>(nx.length) / s_.max_fusion;
        x.origin = "fuse pc " + std::to_string(in.start_pc) + " x" + std::to_string(total);
        lengths_.insert({in.start_pc, total});  // proposed once, whatever its fate
        created_ = {x.experts[0].id(), slot_info{in.start_pc, total}};
        return x;
      }
    }
    return std::nullopt;
  }

  patch<gate_list> replacement(patch_class kind, std::uint32_t slot, gate_list g, std::optional<state_predicate> domain) {
    const safety_expert& e = m_.expert_at(slot);
    patch<gate_list> x;
    x.kind = kind;
    x.slot = slot;
    x.experts.push_back(safety_expert(e.id(), e.reads(), std::move(g), e.writes()));
    if (domain) x.domains = {*domain};
    x.origin = std::string(to_string(kind)) + " slot " + std::to_string(slot);
    return x;
  }

  /// An unsafe patch on a live slot drawn uniformly, its tail and form drawn
  /// uniformly (file comment).
  patch<gate_list> adversarial() {
    std::vector<std::uint32_t> live;
    for (const auto& [slot, in] : info_)
      if (m_.slot_live(slot)) live.push_back(slot);
    const std::uint32_t slot = live[rng_.uniform_below(live.size())];
    const auto tail = static_cast<safety_unsafe_tail>(rng_.uniform_below(safety_unsafe_tail_count));
    const auto form = static_cast<safety_unsafe_form>(rng_.uniform_below(3));
    return unsafe_patch(slot, tail, form);
  }

  void propose(safety_run_result& out) {
    const std::uint64_t s0 = read_tsc_begin();
    const bool unsafe = rng_.uniform01() < s_.adversarial_rate;
    created_.reset();
    std::optional<patch<gate_list>> x = unsafe ? std::optional(adversarial()) : honest();
    synthesis_ticks_ += read_tsc_end() - s0;
    if (!x) {
      ++out.proposer_idle;
      return;
    }
    safety_proposal pr;
    pr.kind = x->kind;
    pr.adversarial = unsafe;
    pr.what = x->origin;
    pr.proposed_at = steps_;
    pr.gates_after = static_cast<std::uint32_t>(x->experts.empty() ? 0 : x->experts[0].circuit().gate_count());
    if (x->kind == patch_class::circuit_superopt || x->kind == patch_class::macro_refine)
      pr.gates_before = static_cast<std::uint32_t>(m_.expert_at(x->slot).circuit().gate_count());
    std::uint64_t units = 0;
    for (const auto& e : x->experts) units += e.circuit().gate_count();
    slow_->spend_synthesis(units);
    (unsafe ? out.adversarial_proposals : out.honest_proposals) += 1;
    const std::uint64_t t0 = read_tsc_begin();
    pr.id = slow_->submit(std::move(*x));
    out.verification_cycles += cycles(read_tsc_end() - t0);
    if (created_) pending_info_.insert_or_assign(pr.id, *created_);
    proposals_.push_back(pr);
    pending_.push_back(proposals_.size() - 1);
  }

  /// Reads the decisions of pending proposals.
  void collect(safety_run_result& out) {
    std::vector<std::size_t> still;
    for (const std::size_t k : pending_) {
      safety_proposal& pr = proposals_[k];
      const patch_record* r = slow_->record(pr.id);
      if (r == nullptr) {
        still.push_back(k);
        continue;
      }
      pr.state = r->state;
      pr.rejection = r->rejection;
      pr.decided_at = steps_;
      pr.verification_cycles = r->verification_cycles;
      if (r->state == patch_state::rejected && r->rejection == patch_rejection::vc_fails && !r->vcs.empty())
        pr.counterexample_bits = r->vcs.back().counterexample.size();
      const bool accepted = r->state == patch_state::accepted;
      if (pr.adversarial) {
        if (accepted) ++out.adversarial_accepted;
        else if (pr.counterexample_bits > 0) ++out.adversarial_rejected_with_counterexample;
        else ++out.adversarial_rejected_otherwise;
      } else {
        (accepted ? out.honest_accepted : out.honest_rejected) += 1;
      }
      if (accepted) ++applied_;
      if (const auto it = pending_info_.find(pr.id); it != pending_info_.end()) {
        if (accepted) info_[*m_.slot_of(it->second.first)] = it->second.second;
        else if (!pr.adversarial) lengths_.erase({it->second.second.start_pc, it->second.second.length});  // may be proposed again
        pending_info_.erase(it);
      }
    }
    pending_ = std::move(still);
  }

  const tasks::safety_program* p_;
  std::uint64_t seed_;
  safety_bem_settings s_;
  safety_predicates preds_;
  safety_machine m_;
  std::unique_ptr<safety_slow_path> slow_;
  xoshiro256ss rng_;
  const tsc_calibration* cal_;
  std::map<std::uint32_t, slot_info> info_;
  std::optional<std::pair<identifier, slot_info>> created_;  ///< the expert the next proposal adds
  std::map<std::uint64_t, std::pair<identifier, slot_info>> pending_info_;  ///< by patch id
  std::set<std::pair<std::uint32_t, std::uint32_t>> lengths_;  ///< (start pc, instructions) proposed or present
  std::set<identifier> used_ids_;
  std::vector<safety_proposal> proposals_;
  std::vector<std::size_t> pending_;
  std::uint64_t serial_ = 0, steps_ = 0, applied_ = 0, synthesis_ticks_ = 0;
  double initial_gates_per_step_ = 0;
  bool prepared_ = false;
};

BEM_NAMESPACE_END
