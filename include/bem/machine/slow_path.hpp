// The slow path: the structural configuration C of a bem::machine changes
// only through verified patches (REFERENCE.md §1; docs/machine.md, "The slow
// path").
//
// Patch classes and what each changes:
//   expert_split          retires `slot` and adds experts[0], experts[1] (new
//                         identifiers), each equal to the old expert on its
//                         domain (domains[0], domains[1]);
//   expert_merge          retires `other_slot`, whose expert equals the one in
//                         `slot` on domains[0];
//   macro_create          adds experts[0]; with `parts` (slots, in order) it
//                         stands for running those experts one after another
//                         and must equal that on domains[0];
//   macro_refine          replaces the expert in `slot` by experts[0] (same
//                         identifier), equal to the old one on domains[0];
//   circuit_superopt      the same, a cheaper circuit (the PoX cost term);
//   invariant_add         conjoins `invariant` to location `location`'s
//                         annotation;
//   invariant_strengthen  replaces that annotation by `invariant`, which must
//                         imply it;
//   ann_reindex           rebuilds the routing index (with `index`
//                         parameters for a multi_index_router);
//   route_meta_update     sets the routing meta (k_large, k_small, lane
//                         scheme, sampling, UCB and mid-path parameters) from
//                         `meta`.
// The verification condition VC(Delta) of a patch is the disjunction of the
// obligations of bem/machine/verification.hpp it needs, checked one SAT_CHECK
// each, in this order:
//   split      equivalence (each new expert with the old on its domain),
//              consecution, bad_reach (each new expert);
//   merge      equivalence;
//   create     equivalence with the parts (if any), consecution, bad_reach;
//   refine, superopt
//              equivalence on the domain, then consecution and bad_reach
//              (implied, and skipped as not_applicable, when the domain is
//              `true`: an expert equal to one that kept the annotations
//              everywhere keeps them too);
//   invariant_add, invariant_strengthen
//              implication (strengthen only), initiation, safety,
//              consecution of every live expert, under the new annotation;
//   ann_reindex  index;  route_meta_update  meta_bounds.
// SAT_CHECK(VC) = UNSAT means every obligation holds; the first SAT answer
// (a counterexample, logged), UNKNOWN (conflict budget) or limit_exceeded
// rejects the patch.
//
// Lifecycle: GENERATED (submit) -> QUEUED (well formed, PoX computed) ->
// VERIFIED (VC UNSAT) -> ACCEPTED (applied) or, at any stage, REJECTED with a
// reason. Every transition is a trace entry (patch_event_kind).
//
// PoX: score = w_R dR + w_S dS + w_C dC + w_I dI, with
//   dR  the proposer's estimate of the reward gain, clamped to [-1, 1];
//   dS  (S_before - S_after) / (N_expert_max (1 + G_max)), S = live experts
//       + their gates: structure removed, as a share of the machine's
//       capacity (so a first expert is not judged against an empty table);
//   dC  (c_before - c_after) / max(1, c_before), c = the gates of the slots
//       the patch replaces or splits (a split counts its larger part): the
//       per-step cost of running them;
//   dI  1 for invariant_add and invariant_strengthen, else 0.
// A patch is verified only if score >= D (the difficulty); the queue serves
// the highest priority score / max(eps, C_verif) first (ties: older first),
// C_verif the deterministic estimate of its VC's size in clauses.
//
// Scheduler: compute is split between acting (the fast path: the caller's
// steps), synthetic work (the proposers) and verification. Each on_step()
// earns `synthesis_units_per_step` and `verification_units_per_step` units
// (one unit = one clause of a VC, deterministic, so a run's patch decisions
// are the same on every machine); process() verifies while the head of the
// queue's C_verif fits the verification credit, charging the clauses really
// built. Proposers draw on synthesis_credit() through spend_synthesis().
// Cycles are measured too and reported (verification_cycles_total).
//
// Budgets and modes:
//   proposals  at most proposal_budget_per_million submissions per 10^6
//              steps (refused beyond: a counted rejection);
//   applies    at most apply_budget_per_million patches applied per 10^6
//              steps (verified patches wait);
//   degraded   evaluated at the end of every `window_steps` steps: when the
//              mean performance of the window (report_performance) fell by
//              more than `performance_drop` below the previous window's and
//              the PoX yield of the window (the scores of the patches
//              applied in it minus verification_cost_weight times its
//              verification units / 10^6) is <= 0, no patch is verified or
//              applied until a window without a drop;
//   suspended  while the safety-violation rate (report_safety_violation per
//              step) in the current window exceeds delta_safe, patches are
//              verified but not applied.
// Applying a patch never blocks the fast path longer than its bound: it runs
// between steps, never inside one, and costs at most 2 expert copies (G_max
// gates each) and 3 router updates (H buckets each) for expert patches, one
// router rebuild over the live experts for ann_reindex, and nothing that
// grows with the history; apply_work() reports the counts of the last one.
//
// Snapshots: snapshot() serialises C (the expert table with retired slots,
// the routing meta and router parameters, the CFG annotations, BAD, Init) to
// a self-checking byte string (SHA-256 trailer; header naming N, K, W, P, the
// circuit and router types); restore() loads one (refusing a snapshot of
// another configuration, naming the difference); rollback(id) returns to a
// kept snapshot. Each is logged with the snapshot's digest. Statistics
// (Theta_L) are not part of C and stay.
#pragma once

#include <bem/circuits/convert.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/jit.hpp>
#include <bem/detail/json_text.hpp>
#include <bem/machine/expert.hpp>
#include <bem/machine/hash.hpp>
#include <bem/machine/machine.hpp>
#include <bem/machine/predicate.hpp>
#include <bem/machine/verification.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN

enum class patch_class : std::uint8_t {
  expert_split,
  expert_merge,
  macro_create,
  macro_refine,
  circuit_superopt,
  invariant_add,
  invariant_strengthen,
  ann_reindex,
  route_meta_update
};
inline constexpr std::size_t patch_class_count = 9;

constexpr const char* to_string(patch_class c) noexcept {
  switch (c) {
    case patch_class::expert_split: return "expert_split";
    case patch_class::expert_merge: return "expert_merge";
    case patch_class::macro_create: return "macro_create";
    case patch_class::macro_refine: return "macro_refine";
    case patch_class::circuit_superopt: return "circuit_superopt";
    case patch_class::invariant_add: return "invariant_add";
    case patch_class::invariant_strengthen: return "invariant_strengthen";
    case patch_class::ann_reindex: return "ann_reindex";
    case patch_class::route_meta_update: return "route_meta_update";
  }
  return "?";
}

enum class patch_state : std::uint8_t { generated, queued, verified, accepted, rejected };

constexpr const char* to_string(patch_state s) noexcept {
  switch (s) {
    case patch_state::generated: return "GENERATED";
    case patch_state::queued: return "QUEUED";
    case patch_state::verified: return "VERIFIED";
    case patch_state::accepted: return "ACCEPTED";
    case patch_state::rejected: return "REJECTED";
  }
  return "?";
}

/// Why a patch was rejected.
enum class patch_rejection : std::uint8_t {
  none,
  malformed,             ///< names a slot, location or expert that cannot be
  proposal_budget,       ///< over proposal_budget_per_million
  pox_below_difficulty,  ///< score < D
  vc_fails,              ///< SAT: a counterexample
  vc_unknown,            ///< the conflict budget ran out
  vc_limit,              ///< over n_max or m_max
  stale                  ///< the configuration changed under it before it was applied
};

constexpr const char* to_string(patch_rejection r) noexcept {
  switch (r) {
    case patch_rejection::none: return "none";
    case patch_rejection::malformed: return "malformed";
    case patch_rejection::proposal_budget: return "proposal_budget";
    case patch_rejection::pox_below_difficulty: return "pox_below_difficulty";
    case patch_rejection::vc_fails: return "vc_fails";
    case patch_rejection::vc_unknown: return "vc_unknown";
    case patch_rejection::vc_limit: return "vc_limit";
    case patch_rejection::stale: return "stale";
  }
  return "?";
}

/// A proposed structural change (file comment: which fields each class reads).
template <class C>
struct patch {
  patch_class kind = patch_class::circuit_superopt;
  std::uint32_t slot = 0;
  std::uint32_t other_slot = 0;
  std::vector<expert<C>> experts;
  std::vector<state_predicate> domains;  ///< missing: `true`
  std::vector<std::uint32_t> parts;      ///< macro_create as a fusion of these slots
  state_predicate invariant;
  std::size_t location = 0;
  machine_config meta;
  std::optional<multi_index_config> index;
  double reward_gain = 0.0;  ///< dR, the proposer's estimate
  std::string origin;        ///< who proposed it (recorded)
};

struct pox_weights {
  double w_R = 1.0, w_S = 1.0, w_C = 1.0, w_I = 0.5;
  double difficulty = 0.0;  ///< D
  double eps = 1e-9;        ///< priority = score / max(eps, C_verif)
};

struct pox_score {
  double dR = 0, dS = 0, dC = 0, dI = 0, score = 0;
};

struct slow_path_config {
  pox_weights pox;
  vc_limits limits;
  std::uint64_t proposal_budget_per_million = 1000000;
  std::uint64_t apply_budget_per_million = 10000;
  std::uint64_t verification_units_per_step = 1000;
  std::uint64_t synthesis_units_per_step = 1000;
  std::uint64_t window_steps = 10000;
  double performance_drop = 0.05;
  double verification_cost_weight = 0.01;
  double delta_safe = 0.0;
  std::size_t snapshots_kept = 8;
};

/// What happened to one patch.
struct patch_record {
  std::uint64_t id = 0;
  patch_class kind = patch_class::circuit_superopt;
  patch_state state = patch_state::generated;
  patch_rejection rejection = patch_rejection::none;
  std::string origin;
  std::string reason;  ///< for a rejection, in words
  pox_score pox;
  double verification_cost = 0;  ///< C_verif, clauses (estimate)
  double priority = 0;
  std::vector<vc_report> vcs;
  std::uint64_t submitted_step = 0, decided_step = 0;
  std::uint64_t verification_units = 0;  ///< clauses really built
  std::uint64_t verification_cycles = 0;
  std::uint64_t sat_calls = 0;
};

/// Counters for records (§5.3.3 and the machine issue).
struct slow_path_counters {
  std::uint64_t proposed = 0, accepted = 0, rejected = 0, verified = 0;
  std::array<std::uint64_t, patch_class_count> accepted_by_class{}, rejected_by_class{}, proposed_by_class{};
  std::uint64_t sat_calls = 0;
  std::uint64_t verification_cycles = 0;
  std::uint64_t verification_units = 0;
  std::uint64_t counterexamples = 0;
  std::uint64_t counterexamples_by_simulation = 0;  ///< of which found without SAT (vc_report::by_simulation)
  std::uint64_t snapshots = 0, rollbacks = 0;
  std::uint64_t degraded_windows = 0, suspended_windows = 0;
};

/// Work of the last patch application (the bound of the file comment).
struct apply_work {
  std::uint32_t experts_copied = 0;
  std::uint32_t gates_copied = 0;
  std::uint32_t router_updates = 0;
  std::uint32_t router_rebuilds = 0;
  friend bool operator==(const apply_work&, const apply_work&) = default;
};

// Trace entry kinds of the slow path (docs/machine.md).
inline constexpr std::uint32_t patch_event_kind = 16;
inline constexpr std::uint32_t snapshot_kind = 17;
inline constexpr std::uint32_t restore_kind = 18;
inline constexpr std::uint32_t slow_mode_kind = 19;

/// Thrown by restore() for bytes that are not a snapshot of this machine.
class snapshot_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class M>
class slow_path {
 public:
  using machine_type = M;
  using circuit_type = typename M::circuit_type;
  using expert_type = typename M::expert_type;
  using backend_type = typename M::sat_backend_type;
  using patch_type = patch<circuit_type>;

  explicit slow_path(M& machine, slow_path_config cfg = {}, verified_program program = {})
      : m_(&machine), cfg_(cfg), program_(std::move(program)) {
    if (program_.locations.empty()) throw std::invalid_argument("slow_path: the CFG needs at least one location");
    if (cfg.window_steps == 0) throw std::invalid_argument("slow_path: window_steps must be at least 1");
    if (!(cfg.delta_safe >= 0) || !(cfg.performance_drop >= 0))
      throw std::invalid_argument("slow_path: delta_safe and performance_drop must be >= 0");
    for (const auto& loc : program_.locations) check_predicate(loc.at, "location guard"), check_predicate(loc.annotation, "annotation");
    check_predicate(program_.bad, "BAD");
    check_predicate(program_.init, "Init");
    engine_ = std::make_unique<vc_engine<backend_type, circuit_type>>(program_, cfg_.limits);
  }

  // ---- proposing and deciding ---------------------------------------------

  /// GENERATED -> QUEUED, or REJECTED (malformed, proposal budget, PoX below
  /// the difficulty). Returns the patch's id.
  std::uint64_t submit(patch_type p) {
    patch_record r;
    r.id = next_id_++;
    r.kind = p.kind;
    r.origin = p.origin;
    r.submitted_step = m_->steps();
    ++counters_.proposed;
    ++counters_.proposed_by_class[static_cast<std::size_t>(p.kind)];
    log_event(r, patch_state::generated);
    if (proposals_in_block() >= cfg_.proposal_budget_per_million) {
      reject(r, patch_rejection::proposal_budget,
             "over the proposal budget of " + std::to_string(cfg_.proposal_budget_per_million) + " per 10^6 steps");
      return finish(std::move(r));
    }
    ++proposals_this_block_;
    if (std::string why = malformed(p); !why.empty()) {
      reject(r, patch_rejection::malformed, why);
      return finish(std::move(r));
    }
    r.pox = score(p);
    r.verification_cost = estimate_cost(p);
    r.priority = r.pox.score / std::max(cfg_.pox.eps, r.verification_cost);
    if (r.pox.score < cfg_.pox.difficulty) {
      reject(r, patch_rejection::pox_below_difficulty,
             "PoX score " + std::to_string(r.pox.score) + " below the difficulty " + std::to_string(cfg_.pox.difficulty));
      return finish(std::move(r));
    }
    r.state = patch_state::queued;
    log_event(r, patch_state::queued);
    const std::uint64_t id = r.id;
    queue_.push_back({std::move(p), std::move(r)});
    return id;
  }

  /// Called after every fast-path step: earns credit, closes windows.
  void on_step() {
    verification_credit_ += cfg_.verification_units_per_step;
    synthesis_credit_ += cfg_.synthesis_units_per_step;
    const std::uint64_t s = m_->steps();
    if (s / 1000000 != block_) {
      block_ = s / 1000000;
      proposals_this_block_ = applies_this_block_ = 0;
    }
    if (++window_step_count_ >= cfg_.window_steps) close_window();
  }

  /// The task's performance signal for this step (e.g. reward or accuracy).
  void report_performance(double value) {
    window_performance_ += value;
    ++window_performance_count_;
  }
  /// An independent monitor's report of a safety violation this step.
  void report_safety_violation() {
    ++window_violations_;
    update_suspension();
  }

  /// Verifies and applies queued patches while the verification credit
  /// covers the head's estimate (and, when nothing else limits it, at most
  /// `max_patches`); returns how many were decided.
  std::size_t process(std::size_t max_patches = static_cast<std::size_t>(-1)) {
    std::size_t decided = 0;
    apply_waiting();
    while (decided < max_patches && !degraded_ && !queue_.empty()) {
      const auto best = std::max_element(queue_.begin(), queue_.end(), [](const entry& a, const entry& b) {
        return a.record.priority < b.record.priority || (a.record.priority == b.record.priority && a.record.id > b.record.id);
      });
      if (static_cast<double>(verification_credit_) < best->record.verification_cost) break;
      entry e = std::move(*best);
      queue_.erase(best);
      verify(e);
      ++decided;
      if (e.record.state == patch_state::verified) {
        waiting_.push_back(std::move(e));
        apply_waiting();
      } else {
        finish(std::move(e.record));
      }
    }
    return decided;
  }

  /// Verifies and decides one patch now, whatever the credit (for proposers
  /// that wait for the answer, and for tests); returns its record.
  const patch_record& decide(patch_type p) {
    const std::uint64_t id = submit(std::move(p));
    if (const auto* r = record(id); r != nullptr && r->state == patch_state::rejected) return *r;
    const auto it = std::find_if(queue_.begin(), queue_.end(), [&](const entry& e) { return e.record.id == id; });
    entry e = std::move(*it);
    queue_.erase(it);
    verify(e);
    if (e.record.state == patch_state::verified) {
      waiting_.push_back(std::move(e));
      apply_waiting();
      if (const auto* r = record(id)) return *r;
      return waiting_record(id);
    }
    finish(std::move(e.record));
    return *record(id);
  }

#ifdef BEM_SLOW_PATH_TEST_HOOKS
  /// TEST ONLY: compiled only where BEM_SLOW_PATH_TEST_HOOKS is defined (the
  /// tests/safety executable), never in a plugin. Applies a well-formed
  /// patch WITHOUT verifying it, as a broken verifier would, so a test can
  /// show that an independent monitor catches what an unsafe patch does.
  /// Logged as accepted; returns its id.
  std::uint64_t apply_unverified_for_tests(patch_type p) {
    if (std::string why = malformed(p); !why.empty()) throw std::invalid_argument("apply_unverified_for_tests: " + why);
    entry e{std::move(p), {}};
    e.record.id = next_id_++;
    e.record.kind = e.patch.kind;
    e.record.origin = "UNVERIFIED (test hook): " + e.patch.origin;
    e.record.submitted_step = m_->steps();
    const std::uint64_t id = e.record.id;
    apply(e);
    return id;
  }
#endif

  /// A decided patch's record (nullptr while it is queued or waiting).
  const patch_record* record(std::uint64_t id) const {
    const auto it = decided_.find(id);
    return it == decided_.end() ? nullptr : &it->second;
  }
  const std::map<std::uint64_t, patch_record>& decided() const noexcept { return decided_; }
  std::size_t queued() const noexcept { return queue_.size(); }
  std::size_t waiting() const noexcept { return waiting_.size(); }
  const slow_path_counters& counters() const noexcept { return counters_; }
  const apply_work& last_apply_work() const noexcept { return apply_work_; }
  bool degraded() const noexcept { return degraded_; }
  bool suspended() const noexcept { return suspended_; }
  const verified_program& program() const noexcept { return program_; }
  const slow_path_config& config() const noexcept { return cfg_; }

  std::uint64_t synthesis_credit() const noexcept { return synthesis_credit_; }
  std::uint64_t verification_credit() const noexcept { return verification_credit_; }
  /// A proposer spends synthesis credit (at most what there is); returns
  /// what it was granted.
  std::uint64_t spend_synthesis(std::uint64_t units) {
    const std::uint64_t granted = std::min(units, synthesis_credit_);
    synthesis_credit_ -= granted;
    return granted;
  }

  /// §6.1's structural settings as JSON (keys sorted).
  std::string configuration_json() const {
    std::vector<std::pair<std::string, double>> f = {
        {"pox_w_R", cfg_.pox.w_R},
        {"pox_w_S", cfg_.pox.w_S},
        {"pox_w_C", cfg_.pox.w_C},
        {"pox_w_I", cfg_.pox.w_I},
        {"pox_difficulty_D", cfg_.pox.difficulty},
        {"sat_n_max", static_cast<double>(cfg_.limits.n_max)},
        {"sat_m_max", static_cast<double>(cfg_.limits.m_max)},
        {"sat_conflict_budget", static_cast<double>(cfg_.limits.conflicts)},
        {"fast_path_budget", static_cast<double>(cfg_.limits.fast_path_budget)},
        {"proposal_budget_per_million_steps", static_cast<double>(cfg_.proposal_budget_per_million)},
        {"patch_budget_per_million_steps", static_cast<double>(cfg_.apply_budget_per_million)},
        {"verification_units_per_step", static_cast<double>(cfg_.verification_units_per_step)},
        {"synthesis_units_per_step", static_cast<double>(cfg_.synthesis_units_per_step)},
        {"window_steps", static_cast<double>(cfg_.window_steps)},
        {"degraded_performance_drop", cfg_.performance_drop},
        {"delta_safe", cfg_.delta_safe},
        {"cfg_locations", static_cast<double>(program_.locations.size())}};
    std::sort(f.begin(), f.end());
    std::string out = "{";
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (i) out += ',';
      detail::json_escape_into(out, f[i].first);
      out += ':';
      detail::json_number_into(out, f[i].second);
    }
    return out + "}";
  }

  // ---- snapshots -----------------------------------------------------------

  /// The structural configuration as bytes, kept (the last snapshots_kept)
  /// and logged; returns its id.
  std::uint64_t snapshot() {
    std::vector<std::uint8_t> bytes = serialize();
    const std::uint64_t id = next_snapshot_++;
    log_snapshot(snapshot_kind, id, bytes);
    kept_.push_back({id, bytes});
    while (kept_.size() > cfg_.snapshots_kept) kept_.pop_front();
    ++counters_.snapshots;
    return id;
  }
  /// The bytes of kept snapshot `id`.
  const std::vector<std::uint8_t>& snapshot_bytes(std::uint64_t id) const {
    for (const auto& k : kept_)
      if (k.first == id) return k.second;
    throw std::out_of_range("slow_path: snapshot " + std::to_string(id) + " is not kept");
  }
  /// Returns to a kept snapshot (logged); queued and waiting patches are
  /// rejected as stale.
  void rollback(std::uint64_t id) {
    const std::vector<std::uint8_t> bytes = snapshot_bytes(id);
    restore(bytes);
    ++counters_.rollbacks;
  }
  /// Loads a snapshot (from this run or a saved one: resume); throws
  /// snapshot_error, changing nothing, for bytes that are not a snapshot of
  /// a machine of this configuration.
  void restore(std::span<const std::uint8_t> bytes) {
    decoded d = deserialize(bytes);  // throws before anything changes
    install(std::move(d));
    log_snapshot(restore_kind, 0, std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
    for (auto& e : queue_) stale(e.record);
    for (auto& e : waiting_) stale(e.record);
    queue_.clear();
    waiting_.clear();
  }

 private:
  struct entry {
    patch_type patch;
    patch_record record;
  };

  // ---- well-formedness, PoX, cost -------------------------------------------

  void check_predicate(const state_predicate& p, const char* what) const {
    for (auto b : p.support())
      if (b >= M::state_bits)
        throw std::invalid_argument(std::string("slow_path: ") + what + " reads state bit " + std::to_string(b) +
                                    ", but N = " + std::to_string(M::state_bits));
  }

  std::string live_slot(std::uint32_t slot, const char* field) const {
    if (!m_->slot_live(slot)) return std::string(field) + " " + std::to_string(slot) + " holds no live expert";
    return {};
  }
  std::string new_expert(const expert_type& e) const {
    try {
      e.check_fits(M::state_bits, M::shared_bits, M::shared_parameters, M::lanes);
    } catch (const std::exception& x) {
      return x.what();
    }
    if (identifier_class(e.id()) != m_->config().expert_class)
      return "expert " + std::to_string(e.id()) + " has class " + std::to_string(identifier_class(e.id())) +
             ", the machine routes class " + std::to_string(m_->config().expert_class);
    if (M::circuit_size(e.circuit()) > m_->config().max_gates)
      return "expert " + std::to_string(e.id()) + " has " + std::to_string(M::circuit_size(e.circuit())) +
             " gates, above G_max = " + std::to_string(m_->config().max_gates);
    return {};
  }
  std::string predicates_fit(const patch_type& p) const {
    for (const auto& d : p.domains)
      for (auto b : d.support())
        if (b >= M::state_bits) return "a domain reads state bit " + std::to_string(b);
    for (auto b : p.invariant.support())
      if (b >= M::state_bits) return "the invariant reads state bit " + std::to_string(b);
    return {};
  }

  /// Empty when the patch is well formed; else why not.
  std::string malformed(const patch_type& p) const {
    const auto need_experts = [&](std::size_t n) -> std::string {
      if (p.experts.size() != n)
        return std::string(to_string(p.kind)) + " needs " + std::to_string(n) + " expert(s), got " +
               std::to_string(p.experts.size());
      for (const auto& e : p.experts)
        if (std::string w = new_expert(e); !w.empty()) return w;
      return {};
    };
    std::string w = predicates_fit(p);
    if (!w.empty()) return w;
    switch (p.kind) {
      case patch_class::expert_split:
        if (!(w = live_slot(p.slot, "slot")).empty() || !(w = need_experts(2)).empty()) return w;
        if (p.experts[0].id() == p.experts[1].id() || m_->slot_of(p.experts[0].id()) || m_->slot_of(p.experts[1].id()))
          return "a split needs two new, distinct identifiers";
        if (m_->slot_count() + 2 > m_->config().max_experts) return "no room for two more slots (N_expert_max)";
        return {};
      case patch_class::expert_merge:
        if (!(w = live_slot(p.slot, "slot")).empty() || !(w = live_slot(p.other_slot, "other_slot")).empty()) return w;
        if (p.slot == p.other_slot) return "an expert cannot merge with itself";
        return p.experts.empty() ? std::string{} : "a merge names slots, not experts";
      case patch_class::macro_create:
        if (!(w = need_experts(1)).empty()) return w;
        if (m_->slot_of(p.experts[0].id())) return "macro_create needs a new identifier";
        if (m_->slot_count() + 1 > m_->config().max_experts) return "no room for another slot (N_expert_max)";
        for (auto s : p.parts)
          if (!(w = live_slot(s, "part")).empty()) return w;
        return {};
      case patch_class::macro_refine:
      case patch_class::circuit_superopt:
        if (!(w = live_slot(p.slot, "slot")).empty() || !(w = need_experts(1)).empty()) return w;
        if (p.experts[0].id() != m_->expert_at(p.slot).id()) return "a replacement keeps the slot's identifier";
        return {};
      case patch_class::invariant_add:
      case patch_class::invariant_strengthen:
        if (p.location >= program_.locations.size())
          return "location " + std::to_string(p.location) + " does not exist (" +
                 std::to_string(program_.locations.size()) + " locations)";
        return {};
      case patch_class::ann_reindex:
        if (p.index && !std::is_same_v<typename M::router_type, multi_index_router>)
          return "index parameters given for a router that is not a multi_index_router";
        if constexpr (std::is_same_v<typename M::router_type, multi_index_router>) {
          if (p.index) try {
              multi_index_router probe(*p.index);
            } catch (const std::exception& x) {
              return x.what();
            }
        }
        return {};
      case patch_class::route_meta_update:
        return {};  // the bounds are the VC's
    }
    return "unknown patch class";
  }

  static double gates_of(const expert_type& e) { return static_cast<double>(M::circuit_size(e.circuit())); }

  /// N_expert_max experts of G_max gates each (and one for the expert).
  double structure_capacity() const {
    return static_cast<double>(m_->config().max_experts) * (1.0 + static_cast<double>(m_->config().max_gates));
  }

  double structure_size() const {
    double s = 0;
    for (std::uint32_t i = 0; i < m_->slot_count(); ++i)
      if (m_->slot_live(i)) s += 1 + gates_of(m_->expert_at(i));
    return s;
  }

  pox_score score(const patch_type& p) const {
    pox_score x;
    x.dR = std::clamp(p.reward_gain, -1.0, 1.0);
    const double s_before = structure_size();
    double s_after = s_before, c_before = 0, c_after = 0;
    switch (p.kind) {
      case patch_class::expert_split: {
        const double old = gates_of(m_->expert_at(p.slot));
        s_after += 1 + gates_of(p.experts[0]) + gates_of(p.experts[1]) - old;
        c_before = old;
        c_after = std::max(gates_of(p.experts[0]), gates_of(p.experts[1]));
        break;
      }
      case patch_class::expert_merge: s_after -= 1 + gates_of(m_->expert_at(p.other_slot)); break;
      case patch_class::macro_create: s_after += 1 + gates_of(p.experts[0]); break;
      case patch_class::macro_refine:
      case patch_class::circuit_superopt:
        c_before = gates_of(m_->expert_at(p.slot));
        c_after = gates_of(p.experts[0]);
        s_after += c_after - c_before;
        break;
      case patch_class::invariant_add:
      case patch_class::invariant_strengthen: x.dI = 1; break;
      case patch_class::ann_reindex:
      case patch_class::route_meta_update: break;
    }
    x.dS = (s_before - s_after) / structure_capacity();
    x.dC = (c_before - c_after) / std::max(1.0, c_before);
    x.score = cfg_.pox.w_R * x.dR + cfg_.pox.w_S * x.dS + cfg_.pox.w_C * x.dC + cfg_.pox.w_I * x.dI;
    return x;
  }

  /// C_verif: a deterministic estimate of the VC's clauses (gates encode to
  /// about 3 clauses each; an annotation to 3 per node of its text).
  double estimate_cost(const patch_type& p) const {
    double annotation = 0;
    for (const auto& l : program_.locations) annotation += static_cast<double>(l.annotation.serialize().size() + l.at.serialize().size());
    const auto expert_cost = [&](const expert_type& e) { return 3.0 * gates_of(e) + 2.0 * annotation + 8; };
    double c = 0;
    switch (p.kind) {
      case patch_class::expert_split:
        for (const auto& e : p.experts) c += 3 * expert_cost(e) + expert_cost(m_->expert_at(p.slot));
        break;
      case patch_class::expert_merge:
        c = expert_cost(m_->expert_at(p.slot)) + expert_cost(m_->expert_at(p.other_slot));
        break;
      case patch_class::macro_create:
        c = 3 * expert_cost(p.experts[0]);
        for (auto s : p.parts) c += expert_cost(m_->expert_at(s));
        break;
      case patch_class::macro_refine:
      case patch_class::circuit_superopt: c = 3 * expert_cost(p.experts[0]) + expert_cost(m_->expert_at(p.slot)); break;
      case patch_class::invariant_add:
      case patch_class::invariant_strengthen:
        for (std::uint32_t i = 0; i < m_->slot_count(); ++i)
          if (m_->slot_live(i)) c += expert_cost(m_->expert_at(i)) + 3.0 * static_cast<double>(p.invariant.serialize().size());
        c += 4 * annotation;
        break;
      case patch_class::ann_reindex: c = 200.0 * static_cast<double>(m_->expert_count()); break;
      case patch_class::route_meta_update: c = 400; break;
    }
    return c;
  }

  // ---- verification -----------------------------------------------------------

  /// Runs the patch's obligations in order; QUEUED -> VERIFIED or REJECTED.
  void verify(entry& e) {
    patch_type& p = e.patch;
    patch_record& r = e.record;
    // The configuration may have changed since it was queued.
    if (std::string why = malformed(p); !why.empty()) {
      reject(r, patch_rejection::stale, "no longer applies: " + why);
      return;
    }
    std::vector<std::function<vc_report()>> obligations;
    const auto domain = [&](std::size_t i) { return i < p.domains.size() ? p.domains[i] : state_predicate{}; };
    const auto changed_expert = [&](const expert_type& x) {
      obligations.push_back([this, &x] { return engine_->consecution(x); });
      obligations.push_back([this, &x] { return engine_->bad_reach(x); });
    };
    std::unique_ptr<vc_engine<backend_type, circuit_type>> candidate;
    switch (p.kind) {
      case patch_class::expert_split:
        for (std::size_t i = 0; i < 2; ++i)
          obligations.push_back([this, &p, i, domain] {
            return engine_->equivalence(p.experts[i], m_->expert_at(p.slot), domain(i));
          });
        changed_expert(p.experts[0]);
        changed_expert(p.experts[1]);
        break;
      case patch_class::expert_merge:
        obligations.push_back([this, &p, domain] {
          return engine_->equivalence(m_->expert_at(p.slot), m_->expert_at(p.other_slot), domain(0));
        });
        break;
      case patch_class::macro_create:
        if (!p.parts.empty())
          obligations.push_back([this, &p, domain] {
            std::vector<const expert_type*> parts;
            for (auto s : p.parts) parts.push_back(&m_->expert_at(s));
            return engine_->equivalence_with_sequence(p.experts[0], parts, domain(0));
          });
        changed_expert(p.experts[0]);
        break;
      case patch_class::macro_refine:
      case patch_class::circuit_superopt:
        obligations.push_back([this, &p, domain] {
          return engine_->equivalence(p.experts[0], m_->expert_at(p.slot), domain(0));
        });
        if (domain(0).is_constant(true)) {
          for (vc_kind k : {vc_kind::consecution, vc_kind::bad_reach})
            obligations.push_back([k] {
              vc_report x;
              x.kind = k;
              x.answer = vc_answer::not_applicable;
              x.what = "implied by equivalence on every state";
              return x;
            });
        } else {
          changed_expert(p.experts[0]);
        }
        break;
      case patch_class::invariant_add:
      case patch_class::invariant_strengthen: {
        verified_program next = program_;
        state_predicate& a = next.locations[p.location].annotation;
        const state_predicate old = a;
        a = p.kind == patch_class::invariant_add ? (a && p.invariant) : p.invariant;
        candidate = std::make_unique<vc_engine<backend_type, circuit_type>>(next, cfg_.limits);
        auto* c = candidate.get();
        if (p.kind == patch_class::invariant_strengthen)
          obligations.push_back([c, &p, old] { return c->implication(p.invariant, old); });
        obligations.push_back([c] { return c->initiation(); });
        obligations.push_back([c] { return c->safety(); });
        for (std::uint32_t i = 0; i < m_->slot_count(); ++i)
          if (m_->slot_live(i)) obligations.push_back([this, c, i] { return c->consecution(m_->expert_at(i)); });
        break;
      }
      case patch_class::ann_reindex:
        obligations.push_back([this, &p] {
          std::vector<identifier> table;
          for (std::uint32_t i = 0; i < m_->slot_count(); ++i)
            if (m_->slot_live(i)) table.push_back(m_->expert_at(i).id());
          rebuilt_ = build_router(p);
          // The index's contents as its own routing path answers them: the
          // identifiers an exact-match query finds at similarity 32; and it
          // must hold no more than those.
          std::vector<identifier> index;
          route_result res;
          for (const identifier id : table) {
            rebuilt_->query(id, route_filter{}, 1, res);
            if (!res.candidates.empty() && res.candidates[0].similarity == 32) index.push_back(res.candidates[0].id);
          }
          if (rebuilt_->size() != table.size())
            return precondition(vc_kind::index, "the rebuilt index holds " + std::to_string(rebuilt_->size()) +
                                                    " identifiers, the table " + std::to_string(table.size()));
          return engine_->index_equality(table, index);
        });
        break;
      case patch_class::route_meta_update:
        obligations.push_back([this, &p] {
          return engine_->meta_bounds(static_cast<std::uint32_t>(std::min<std::size_t>(p.meta.k_large, 0xFFFFFFFFu)),
                                      static_cast<std::uint32_t>(std::min<std::size_t>(p.meta.k_small, 0xFFFFFFFFu)),
                                      static_cast<std::uint32_t>(m_->config().max_gates));
        });
        break;
    }
    for (auto& ob : obligations) {
      vc_report v = ob();
      r.sat_calls += v.sat_calls;
      r.verification_cycles += v.cycles;
      r.verification_units += v.clauses;
      counters_.sat_calls += v.sat_calls;
      counters_.verification_cycles += v.cycles;
      counters_.verification_units += v.clauses;
      window_verification_units_ += v.clauses;
      const vc_answer a = v.answer;
      const vc_kind k = v.kind;
      const bool simulated = v.by_simulation;
      const std::string what = v.what;
      r.vcs.push_back(std::move(v));
      if (a == vc_answer::holds || a == vc_answer::not_applicable) continue;
      if (a == vc_answer::fails) {
        ++counters_.counterexamples;
        counters_.counterexamples_by_simulation += simulated ? 1 : 0;
        reject(r, patch_rejection::vc_fails, std::string(to_string(k)) + " fails: " + what);
      } else if (a == vc_answer::unknown) {
        reject(r, patch_rejection::vc_unknown, std::string(to_string(k)) + " unknown within the conflict budget: " + what);
      } else {
        reject(r, patch_rejection::vc_limit, std::string(to_string(k)) + " over the SAT limits: " + what);
      }
      break;
    }
    verification_credit_ -= std::min<std::uint64_t>(verification_credit_, r.verification_units);
    if (r.state != patch_state::rejected) {
      r.state = patch_state::verified;
      ++counters_.verified;
      log_event(r, patch_state::verified);
      if (candidate) candidate_engine_[r.id] = std::move(candidate);
    }
  }

  static vc_report precondition(vc_kind k, std::string what) {
    vc_report v;
    v.kind = k;
    v.answer = vc_answer::fails;
    v.what = std::move(what);
    return v;
  }

  std::unique_ptr<typename M::router_type> build_router(const patch_type& p) const {
    std::unique_ptr<typename M::router_type> r;
    if constexpr (std::is_same_v<typename M::router_type, multi_index_router>)
      r = std::make_unique<multi_index_router>(p.index.value_or(m_->router().configuration()));
    else
      r = std::make_unique<typename M::router_type>();
    for (std::uint32_t i = 0; i < m_->slot_count(); ++i)
      if (m_->slot_live(i)) r->insert(m_->expert_at(i).id());
    return r;
  }

  // ---- application --------------------------------------------------------------

  /// Applies waiting (verified) patches unless suspended or over budget.
  void apply_waiting() {
    while (!waiting_.empty() && !suspended_ && !degraded_ && applies_this_block_ < cfg_.apply_budget_per_million) {
      entry e = std::move(waiting_.front());
      waiting_.pop_front();
      apply(e);
    }
  }

  void apply(entry& e) {
    patch_type& p = e.patch;
    apply_work_ = {};
    const auto copied = [&](const expert_type& x) {
      ++apply_work_.experts_copied;
      apply_work_.gates_copied += static_cast<std::uint32_t>(gates_of(x));
    };
    switch (p.kind) {
      case patch_class::expert_split:
        m_->retire_expert(p.slot);
        for (auto& x : p.experts) {
          copied(x);
          m_->insert_expert(std::move(x));
        }
        apply_work_.router_updates = 3;
        break;
      case patch_class::expert_merge:
        m_->retire_expert(p.other_slot);
        apply_work_.router_updates = 1;
        break;
      case patch_class::macro_create:
        copied(p.experts[0]);
        m_->insert_expert(std::move(p.experts[0]));
        apply_work_.router_updates = 1;
        break;
      case patch_class::macro_refine:
      case patch_class::circuit_superopt:
        copied(p.experts[0]);
        m_->replace_expert(p.slot, std::move(p.experts[0]));
        break;
      case patch_class::invariant_add:
      case patch_class::invariant_strengthen: {
        state_predicate& a = program_.locations[p.location].annotation;
        a = p.kind == patch_class::invariant_add ? (a && p.invariant) : p.invariant;
        const auto it = candidate_engine_.find(e.record.id);
        engine_ = it != candidate_engine_.end() ? std::move(it->second)
                                                : std::make_unique<vc_engine<backend_type, circuit_type>>(program_, cfg_.limits);
        candidate_engine_.erase(e.record.id);
        break;
      }
      case patch_class::ann_reindex:
        m_->set_router(std::move(*rebuilt_));
        rebuilt_.reset();
        apply_work_.router_rebuilds = 1;
        break;
      case patch_class::route_meta_update: {
        machine_config c = m_->config();
        c.k_large = p.meta.k_large;
        c.k_small = p.meta.k_small;
        c.lanes = p.meta.lanes;
        c.sample = p.meta.sample;
        c.ucb = p.meta.ucb;
        c.log_weights = p.meta.log_weights;
        m_->set_routing_meta(c);
        break;
      }
    }
    // Patches verified but not yet applied were checked against the
    // configuration this one just changed.
    for (auto& w : waiting_) stale(w.record);
    waiting_.clear();
    ++applies_this_block_;
    window_pox_ += e.record.pox.score;
    e.record.state = patch_state::accepted;
    ++counters_.accepted;
    ++counters_.accepted_by_class[static_cast<std::size_t>(e.record.kind)];
    log_event(e.record, patch_state::accepted);
    finish(std::move(e.record));
  }

  // ---- records, modes ------------------------------------------------------------

  void reject(patch_record& r, patch_rejection why, std::string reason) {
    r.state = patch_state::rejected;
    r.rejection = why;
    r.reason = std::move(reason);
    ++counters_.rejected;
    ++counters_.rejected_by_class[static_cast<std::size_t>(r.kind)];
    log_event(r, patch_state::rejected);
  }
  void stale(patch_record& r) {
    reject(r, patch_rejection::stale, "the configuration changed before it was applied");
    finish(std::move(r));
  }
  std::uint64_t finish(patch_record r) {
    r.decided_step = m_->steps();
    const std::uint64_t id = r.id;
    decided_.insert_or_assign(id, std::move(r));
    return id;
  }
  const patch_record& waiting_record(std::uint64_t id) const {
    for (const auto& e : waiting_)
      if (e.record.id == id) return e.record;
    throw std::logic_error("slow_path: patch " + std::to_string(id) + " is neither decided nor waiting");
  }

  std::uint64_t proposals_in_block() const noexcept { return proposals_this_block_; }

  void close_window() {
    const double mean =
        window_performance_count_ ? window_performance_ / static_cast<double>(window_performance_count_) : 0.0;
    const double yield =
        window_pox_ - cfg_.verification_cost_weight * static_cast<double>(window_verification_units_) / 1e6;
    const bool drop = window_performance_count_ > 0 && previous_mean_ &&
                      mean < *previous_mean_ - cfg_.performance_drop;
    const bool was = degraded_;
    degraded_ = drop && yield <= 0.0 ? true : (drop ? degraded_ : false);
    if (degraded_) ++counters_.degraded_windows;
    if (degraded_ != was) log_mode(degraded_ ? 1 : 0);
    if (window_performance_count_ > 0) previous_mean_ = mean;
    if (suspended_) ++counters_.suspended_windows;
    window_step_count_ = 0;
    window_performance_ = 0;
    window_performance_count_ = 0;
    window_pox_ = 0;
    window_verification_units_ = 0;
    window_violations_ = 0;
    update_suspension();
    if (!degraded_ && !suspended_) apply_waiting();
  }

  void update_suspension() {
    const double steps = static_cast<double>(std::max<std::uint64_t>(1, window_step_count_));
    const bool now = static_cast<double>(window_violations_) / steps > cfg_.delta_safe;
    if (now != suspended_) {
      suspended_ = now;
      log_mode(suspended_ ? 3 : 2);
    }
  }

  /// Trace entries: patch events, snapshots and modes (docs/machine.md).
  void log_event(const patch_record& r, patch_state s) {
    trace_entry e{m_->steps(), patch_event_kind, {}};
    detail::put_u64(e.payload, r.id);
    e.payload.push_back(static_cast<std::uint8_t>(r.kind));
    e.payload.push_back(static_cast<std::uint8_t>(s));
    e.payload.push_back(static_cast<std::uint8_t>(r.rejection));
    if (s == patch_state::rejected && !r.vcs.empty() && r.vcs.back().answer == vc_answer::fails) {
      const vc_report& v = r.vcs.back();
      e.payload.push_back(static_cast<std::uint8_t>(v.kind));
      detail::put_u32(e.payload, static_cast<std::uint32_t>(v.counterexample.size()));
      for (const auto& [bit, value] : v.counterexample) {
        detail::put_u32(e.payload, bit);
        e.payload.push_back(value ? 1 : 0);
      }
    }
    if (s == patch_state::rejected) e.payload.insert(e.payload.end(), r.reason.begin(), r.reason.end());
    m_->log_.append(std::move(e));
  }
  void log_snapshot(std::uint32_t kind, std::uint64_t id, const std::vector<std::uint8_t>& bytes) {
    trace_entry e{m_->steps(), kind, {}};
    detail::put_u64(e.payload, id);
    const sha256_digest d = sha256(std::span<const std::uint8_t>(bytes));
    e.payload.insert(e.payload.end(), d.begin(), d.end());
    detail::put_u64(e.payload, bytes.size());
    m_->log_.append(std::move(e));
  }
  /// 0 / 1: degraded mode off / on; 2 / 3: suspension off / on.
  void log_mode(std::uint8_t mode) {
    trace_entry e{m_->steps(), slow_mode_kind, {mode}};
    m_->log_.append(std::move(e));
  }

  // ---- snapshot bytes ------------------------------------------------------------

  struct decoded {
    machine_config meta;
    std::optional<multi_index_config> index;
    std::vector<std::optional<expert_type>> slots;
    verified_program program;
  };

  static constexpr std::string_view snapshot_magic = "BEMSNAP1";

  static void put_string(std::vector<std::uint8_t>& out, std::string_view s) {
    detail::put_u32(out, static_cast<std::uint32_t>(s.size()));
    out.insert(out.end(), s.begin(), s.end());
  }
  static std::string circuit_name() { return M::circuit_name(); }
  static std::string router_name() {
    if constexpr (std::is_same_v<typename M::router_type, multi_index_router>) return "multi_index_router";
    else if constexpr (std::is_same_v<typename M::router_type, exact_router>) return "exact_router";
    else return "router";
  }

  std::vector<std::uint8_t> serialize() const {
    std::vector<std::uint8_t> out(snapshot_magic.begin(), snapshot_magic.end());
    for (std::uint64_t v : {std::uint64_t{M::state_bits}, std::uint64_t{M::shared_bits}, std::uint64_t{M::lanes},
                            std::uint64_t{M::shared_parameters}, std::uint64_t{m_->config().max_experts},
                            std::uint64_t{m_->config().tasks}, std::uint64_t{m_->config().max_gates}})
      detail::put_u64(out, v);
    put_string(out, circuit_name());
    put_string(out, router_name());
    const machine_config& c = m_->config();
    detail::put_u64(out, c.k_large);
    detail::put_u64(out, c.k_small);
    out.push_back(static_cast<std::uint8_t>(c.lanes));
    out.push_back(c.sample ? 1 : 0);
    for (double v : {c.ucb.c_explore, c.log_weights.c_eta, c.log_weights.eps, c.log_weights.loss_max,
                     c.log_weights.step_max})
      detail::put_u64(out, std::bit_cast<std::uint64_t>(v));
    if constexpr (std::is_same_v<typename M::router_type, multi_index_router>) {
      const auto& rc = m_->router().configuration();
      for (int v : {rc.tables, rc.capacity, rc.probe_radius}) detail::put_u32(out, static_cast<std::uint32_t>(v));
    }
    detail::put_u64(out, m_->slot_count());
    for (std::uint32_t i = 0; i < m_->slot_count(); ++i) {
      out.push_back(m_->slot_live(i) ? 1 : 0);
      if (m_->slot_live(i)) put_expert(out, m_->expert_at(i));
    }
    detail::put_u32(out, static_cast<std::uint32_t>(program_.locations.size()));
    for (const auto& l : program_.locations) {
      put_string(out, l.name);
      put_string(out, l.at.serialize());
      put_string(out, l.annotation.serialize());
    }
    put_string(out, program_.bad.serialize());
    put_string(out, program_.init.serialize());
    const sha256_digest d = sha256(std::span<const std::uint8_t>(out));
    out.insert(out.end(), d.begin(), d.end());
    return out;
  }

  static void put_expert(std::vector<std::uint8_t>& out, const expert_type& e) {
    detail::put_u32(out, e.id());
    detail::put_u32(out, static_cast<std::uint32_t>(e.reads().bits.size()));
    for (const auto& r : e.reads().bits) {
      out.push_back(static_cast<std::uint8_t>(r.from));
      detail::put_u32(out, r.index);
    }
    detail::put_u32(out, static_cast<std::uint32_t>(e.writes().bits.size()));
    for (const auto& w : e.writes().bits) {
      detail::put_u32(out, w.index);
      out.push_back(static_cast<std::uint8_t>(w.how));
      out.push_back(static_cast<std::uint8_t>(w.to));
      out.push_back(static_cast<std::uint8_t>(w.reduce));
      detail::put_u32(out, static_cast<std::uint32_t>(w.theta_step_raw));
    }
    const memory_port& mp = e.memory();
    for (std::uint32_t v : {mp.base, mp.slots, mp.slot_bits}) detail::put_u32(out, v);
    out.push_back(mp.per_lane ? 1 : 0);
    detail::put_u32(out, static_cast<std::uint32_t>(mp.key_bits.size()));
    for (auto k : mp.key_bits) detail::put_u32(out, k);
    detail::put_u64(out, mp.salt);
    out.push_back(static_cast<std::uint8_t>(mp.hash));
    const gate_list g = detail::verifiable_gate_list(e.circuit());
    detail::put_u32(out, static_cast<std::uint32_t>(g.inputs()));
    detail::put_u32(out, static_cast<std::uint32_t>(g.gate_count()));
    for (const gate& x : g.gates()) {
      out.push_back(static_cast<std::uint8_t>(x.op));
      out.push_back(x.tt);
      for (std::uint32_t v : {x.a, x.b, x.c}) detail::put_u32(out, v);
    }
    detail::put_u32(out, static_cast<std::uint32_t>(g.output_nodes().size()));
    for (auto o : g.output_nodes()) detail::put_u32(out, o);
  }

  /// A reader that throws snapshot_error past the end.
  struct reader {
    std::span<const std::uint8_t> b;
    std::size_t at = 0;
    std::uint64_t u(int bytes) {
      need(static_cast<std::size_t>(bytes));
      const std::uint64_t v = detail::get_le(b, at, bytes);
      at += static_cast<std::size_t>(bytes);
      return v;
    }
    std::uint8_t byte() { return static_cast<std::uint8_t>(u(1)); }
    std::string str() {
      const std::size_t n = static_cast<std::size_t>(u(4));
      need(n);
      std::string s(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + n));
      at += n;
      return s;
    }
    void need(std::size_t n) const {
      if (at + n > b.size())
        throw snapshot_error("snapshot: truncated at byte " + std::to_string(at) + " (needs " + std::to_string(n) +
                             " more of " + std::to_string(b.size()) + ")");
    }
  };

  static circuit_type circuit_from(gate_list g) {
    if constexpr (std::is_same_v<circuit_type, gate_list>) return g;
    else if constexpr (std::is_constructible_v<circuit_type, gate_list>) return circuit_type(std::move(g));
    else if constexpr (std::is_same_v<circuit_type, anf_circuit>) return to_anf(g);
    else return to_robdd(g);
  }

  decoded deserialize(std::span<const std::uint8_t> bytes) const {
    if (bytes.size() < snapshot_magic.size() + 32 ||
        !std::equal(snapshot_magic.begin(), snapshot_magic.end(), bytes.begin()))
      throw snapshot_error("snapshot: not a machine snapshot (no BEMSNAP1 magic)");
    const auto body = bytes.first(bytes.size() - 32);
    const sha256_digest d = sha256(body);
    if (!std::equal(d.begin(), d.end(), bytes.end() - 32))
      throw snapshot_error("snapshot: corrupt (its SHA-256 trailer does not match its contents)");
    reader r{body, snapshot_magic.size()};
    const char* names[] = {"N", "K", "W", "P", "N_expert_max", "tasks", "G_max"};
    const std::uint64_t here[] = {M::state_bits, M::shared_bits, M::lanes, M::shared_parameters,
                                  m_->config().max_experts, m_->config().tasks, m_->config().max_gates};
    for (std::size_t i = 0; i < 7; ++i) {
      const std::uint64_t v = r.u(8);
      if (v != here[i])
        throw snapshot_error("snapshot from another configuration: " + std::string(names[i]) + " = " +
                             std::to_string(v) + " in the snapshot, " + std::to_string(here[i]) + " here");
    }
    for (const auto& [what, mine] : {std::pair<const char*, std::string>{"circuit", circuit_name()},
                                     std::pair<const char*, std::string>{"router", router_name()}}) {
      const std::string v = r.str();
      if (v != mine)
        throw snapshot_error("snapshot from another configuration: " + std::string(what) + " " + v +
                             " in the snapshot, " + mine + " here");
    }
    decoded out;
    out.meta = m_->config();
    out.meta.k_large = r.u(8);
    out.meta.k_small = r.u(8);
    out.meta.lanes = static_cast<lane_scheme>(r.byte());
    out.meta.sample = r.byte() != 0;
    double* doubles[] = {&out.meta.ucb.c_explore, &out.meta.log_weights.c_eta, &out.meta.log_weights.eps,
                         &out.meta.log_weights.loss_max, &out.meta.log_weights.step_max};
    for (double* x : doubles) *x = std::bit_cast<double>(r.u(8));
    if constexpr (std::is_same_v<typename M::router_type, multi_index_router>) {
      multi_index_config rc;
      rc.tables = static_cast<int>(static_cast<std::int32_t>(r.u(4)));
      rc.capacity = static_cast<int>(static_cast<std::int32_t>(r.u(4)));
      rc.probe_radius = static_cast<int>(static_cast<std::int32_t>(r.u(4)));
      out.index = rc;
    }
    const std::uint64_t slots = r.u(8);
    if (slots > m_->config().max_experts) throw snapshot_error("snapshot: more slots than N_expert_max");
    try {
      for (std::uint64_t i = 0; i < slots; ++i) {
        if (r.byte() == 0) {
          out.slots.emplace_back();
          continue;
        }
        const identifier id = static_cast<identifier>(r.u(4));
        read_spec rs;
        for (std::uint64_t n = r.u(4), j = 0; j < n; ++j) {
          read_bit b;
          b.from = static_cast<read_bit::source>(r.byte());
          b.index = static_cast<std::uint32_t>(r.u(4));
          rs.bits.push_back(b);
        }
        write_spec ws;
        for (std::uint64_t n = r.u(4), j = 0; j < n; ++j) {
          write_bit w;
          w.index = static_cast<std::uint32_t>(r.u(4));
          w.how = static_cast<write_bit::mode>(r.byte());
          w.to = static_cast<write_bit::target>(r.byte());
          w.reduce = static_cast<write_bit::reduction>(r.byte());
          w.theta_step_raw = static_cast<std::int32_t>(static_cast<std::uint32_t>(r.u(4)));
          ws.bits.push_back(w);
        }
        memory_port mp;
        mp.base = static_cast<std::uint32_t>(r.u(4));
        mp.slots = static_cast<std::uint32_t>(r.u(4));
        mp.slot_bits = static_cast<std::uint32_t>(r.u(4));
        mp.per_lane = r.byte() != 0;
        for (std::uint64_t n = r.u(4), j = 0; j < n; ++j) mp.key_bits.push_back(static_cast<std::uint32_t>(r.u(4)));
        mp.salt = r.u(8);
        mp.hash = static_cast<memory_port::hashing>(r.byte());
        const std::size_t inputs = static_cast<std::size_t>(r.u(4));
        std::vector<gate> gates;
        for (std::uint64_t n = r.u(4), j = 0; j < n; ++j) {
          gate g;
          g.op = static_cast<gate_op>(r.byte());
          g.tt = r.byte();
          g.a = static_cast<std::uint32_t>(r.u(4));
          g.b = static_cast<std::uint32_t>(r.u(4));
          g.c = static_cast<std::uint32_t>(r.u(4));
          gates.push_back(g);
        }
        std::vector<std::uint32_t> outs;
        for (std::uint64_t n = r.u(4), j = 0; j < n; ++j) outs.push_back(static_cast<std::uint32_t>(r.u(4)));
        expert_type e(id, std::move(rs), circuit_from(gate_list(inputs, std::move(gates), std::move(outs))),
                      std::move(ws), std::move(mp));
        e.check_fits(M::state_bits, M::shared_bits, M::shared_parameters, M::lanes);
        out.slots.emplace_back(std::move(e));
      }
      out.program.locations.clear();
      for (std::uint64_t n = r.u(4), j = 0; j < n; ++j) {
        cfg_location l;
        l.name = r.str();
        l.at = state_predicate::parse(r.str());
        l.annotation = state_predicate::parse(r.str());
        out.program.locations.push_back(std::move(l));
      }
      out.program.bad = state_predicate::parse(r.str());
      out.program.init = state_predicate::parse(r.str());
    } catch (const snapshot_error&) {
      throw;
    } catch (const std::exception& x) {
      throw snapshot_error(std::string("snapshot: malformed contents: ") + x.what());
    }
    if (r.at != body.size()) throw snapshot_error("snapshot: trailing bytes after the configuration");
    if (out.program.locations.empty()) throw snapshot_error("snapshot: a CFG without locations");
    return out;
  }

  void install(decoded d) {
    m_->set_routing_meta(d.meta);
    // The slot table: slots of the snapshot, retired beyond it; live ones replaced.
    for (std::uint32_t i = 0; i < m_->slot_count(); ++i)
      if (m_->slot_live(i)) m_->retire_expert(i);
    m_->experts_.resize(d.slots.size());
    m_->slot_of_.clear();
    m_->live_experts_ = 0;
    typename M::router_type fresh = [&] {
      if constexpr (std::is_same_v<typename M::router_type, multi_index_router>)
        return multi_index_router(d.index.value_or(multi_index_config{}));
      else
        return typename M::router_type{};
    }();
    for (std::uint32_t i = 0; i < d.slots.size(); ++i) {
      if (!d.slots[i]) continue;
      fresh.insert(d.slots[i]->id());
      m_->slot_of_.insert(d.slots[i]->id(), i);
      m_->note_theta_targets(*d.slots[i]);
      m_->experts_[i] = std::move(d.slots[i]);
      ++m_->live_experts_;
    }
    m_->set_router(std::move(fresh));
    program_ = std::move(d.program);
    engine_ = std::make_unique<vc_engine<backend_type, circuit_type>>(program_, cfg_.limits);
    candidate_engine_.clear();
  }

  M* m_;
  slow_path_config cfg_;
  verified_program program_;
  std::unique_ptr<vc_engine<backend_type, circuit_type>> engine_;
  std::map<std::uint64_t, std::unique_ptr<vc_engine<backend_type, circuit_type>>> candidate_engine_;
  std::unique_ptr<typename M::router_type> rebuilt_;
  std::vector<entry> queue_;
  std::deque<entry> waiting_;
  std::map<std::uint64_t, patch_record> decided_;
  std::uint64_t next_id_ = 1;
  slow_path_counters counters_;
  apply_work apply_work_;
  std::uint64_t verification_credit_ = 0, synthesis_credit_ = 0;
  std::uint64_t block_ = 0, proposals_this_block_ = 0, applies_this_block_ = 0;
  std::uint64_t window_step_count_ = 0, window_performance_count_ = 0, window_violations_ = 0;
  std::uint64_t window_verification_units_ = 0;
  double window_performance_ = 0, window_pox_ = 0;
  std::optional<double> previous_mean_;
  bool degraded_ = false, suspended_ = false;
  std::deque<std::pair<std::uint64_t, std::vector<std::uint8_t>>> kept_;
  std::uint64_t next_snapshot_ = 1;
};

BEM_NAMESPACE_END
