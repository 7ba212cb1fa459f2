// bem::machine<N, K, W, Policies>: the BEM's fast path and mid path, and the
// structural configuration the slow path (bem/machine/slow_path.hpp) changes.
//
// Execution state (REFERENCE.md §1): STATE s, N bit-sliced words of W lanes
// (bem/machine/state.hpp); SHARED M, K bits plus P Q16.16 parameters Theta;
// the learning state Theta_L (bandit statistics and log-weights in fixed
// point, bem/machine/selection.hpp); the expert table, the routing index and
// the routing meta (the fast-path part of the structural configuration C);
// the append-only, hash-chained trace.
//
// Fast-path step:
//   0. observe     obs = O(s, M) = (task_id, context_hash, local_bits,
//                  feature_bits) through the observation policy
//                  (bem/machine/observation.hpp), or given by the caller;
//   1. query key   q = F_id(task_id, context_hash)
//                    = make_checked_identifier(expert_class, task_id mod 64,
//                                              mix64(context_hash ^ task_id) mod 2^14)
//      (the key lives in the experts' class, with valid ECC bits, so Gray
//      similarity compares like with like);
//   2. candidates  ROUTE_QUERY(q, f, k_large) through the router policy, the
//      filter f = (class_bit(expert_class), shards): all shards, or with
//      `shards_from_features` the shard mask feature_bits (bit s admits
//      shard s; 0 admits all);
//   3. selection   the top k_small candidates by UCB1 under task_id, or one
//      sampled by exp(z + score) (bem/machine/selection.hpp);
//   4. experts     BEM_EXPERT_BATCH under the lane scheme:
//        all_lanes    one chosen expert applies to all lanes;
//        lane_groups  lane group g (lanes [g W / k_small, (g + 1) W / k_small))
//                     gets the g-th chosen expert (the best one where fewer
//                     came back);
//        per_lane     every lane observes (observe_lane), routes and selects
//                     on its own and gets its own expert (W evaluations: the
//                     rare, costly scheme);
//      experts write STATE, SHARED, Theta and their memory (bem/machine/expert.hpp);
//   5. log         one trace entry (fast_step_kind) holding task_id, q and
//      the chosen identifiers, then one theta_write_kind entry per Theta
//      parameter an expert wrote: a bounded payload.
// STATS_UPDATE comes with the reward: `reward(task, slot, r)`, r in [0, 1],
// logged (stats_update_kind). Mid path: `mid_path_update()` applies the
// fixed-point step to the log-weights of every expert visited since the last
// call, logged (mid_path_kind). The program's own Theta writes
// (`set_shared_parameter`) are logged too, so `replay_learning` rebuilds
// Theta_L and Theta from the log alone (bem/machine/replay.hpp).
//
// The first entry of every log (configuration_kind) holds the machine's
// configuration: what replay needs in binary, then §6.1's description as
// JSON (`configuration_json()`).
//
// Cost: every step does work bounded by the configuration alone — one router
// query (its own bound), k_large scores, k_small expert evaluations (W with
// per_lane), one log entry of fixed size plus one per Theta write target —
// never by the step count or the history. `last_work()` reports the step's
// deterministic work counts; tests/machine checks that they do not change
// with history length.
//
// Structure. Experts are added before the first step (`add_expert`, the
// initial configuration); afterwards the structural configuration changes
// only through the slow path's verified patches (bem/machine/slow_path.hpp),
// which alone can call the mutators of `structure_access`. A retired slot
// (an expert merged or split away) is never reused: slots index the
// statistics, which are sized once by max_experts.
//
// ## machine_policies (concept)
// Minimal definition — a struct naming
//   `using circuit = ...;`      a bem::circuit_representation over lane_word<W>
//   `using router = ...;`       a bem::router
//   `using sat_backend = ...;`  a bem::prover::sat_backend (for verified patches)
// plus optionally `using observation = ...;` (a bem::observation_policy,
// default bem::field_observation) and `static constexpr std::size_t
// shared_parameters` (P, default 16).
// Law: the machine uses each policy only through its concept.
// Model: bem::default_machine_policies (gate_list, multi_index_router,
// prover::cdcl_solver, field_observation).
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/detail/json_text.hpp>
#include <bem/machine/expert.hpp>
#include <bem/machine/fixed_point.hpp>
#include <bem/machine/identifier.hpp>
#include <bem/machine/identifier_map.hpp>
#include <bem/machine/lanes.hpp>
#include <bem/machine/observation.hpp>
#include <bem/machine/selection.hpp>
#include <bem/machine/state.hpp>
#include <bem/machine/trace_log.hpp>
#include <bem/prng.hpp>
#include <bem/prover/cdcl.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/route/exact_router.hpp>
#include <bem/route/multi_index_router.hpp>
#include <bem/route/router.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN

struct default_machine_policies {
  using circuit = gate_list;
  using router = multi_index_router;
  using sat_backend = prover::cdcl_solver;
  using observation = field_observation;
  static constexpr std::size_t shared_parameters = 16;
};

namespace detail {
template <class P>
concept names_machine_policies = requires {
  typename P::circuit;
  typename P::router;
  typename P::sat_backend;
};
template <class P>
constexpr std::size_t shared_parameters_of() {
  if constexpr (requires { P::shared_parameters; }) return P::shared_parameters;
  else return 16;
}
template <class P>
struct observation_of {
  using type = field_observation;
};
template <class P>
  requires requires { typename P::observation; }
struct observation_of<P> {
  using type = typename P::observation;
};
}  // namespace detail

/// How the chosen experts cover the W lanes (file comment, step 4).
enum class lane_scheme : std::uint8_t { all_lanes, lane_groups, per_lane };

constexpr const char* to_string(lane_scheme s) noexcept {
  switch (s) {
    case lane_scheme::all_lanes: return "all_lanes";
    case lane_scheme::lane_groups: return "lane_groups";
    case lane_scheme::per_lane: return "per_lane";
  }
  return "?";
}

struct machine_config {
  std::size_t tasks = 1;               ///< task ids lie in [0, tasks)
  std::size_t max_experts = 4096;      ///< N_expert_max: slots ever created (statistics are sized once)
  std::size_t max_gates = 4096;        ///< G_max: an expert's circuit size bound (gates, or the representation's size)
  std::size_t k_large = 16;            ///< K_cand of ROUTE_QUERY
  std::size_t k_small = 1;             ///< experts applied per step, 1..4
  lane_scheme lanes = lane_scheme::all_lanes;  ///< all_lanes needs k_small = 1, lane_groups k_small > 1
  std::uint32_t expert_class = 1;      ///< identifier class of experts and query keys
  bool sample = false;                 ///< sample one candidate instead of the top k_small
  bool shards_from_features = false;   ///< route only to the shards set in feature_bits (0: all)
  ucb_parameters ucb{};
  log_weight_parameters log_weights{};
  std::uint64_t seed = 1;              ///< for sampling
  std::size_t log_segment_entries = trace_log_default_segment_entries;
  /// Empty: the trace stays in memory; else it streams to this file in
  /// segments, memory bounded whatever the number of steps
  /// (bem/machine/trace_log.hpp; `bem-bench log verify FILE` checks it).
  std::string log_file;
  trace_fsync log_fsync = trace_fsync::on_close;
};

/// Deterministic work of one step.
struct step_work {
  std::uint32_t router_buckets_probed = 0;
  std::uint32_t router_entries_examined = 0;
  std::uint32_t candidates = 0;
  std::uint32_t experts_applied = 0;  ///< expert evaluations: 0, 1 (all lanes), k_small (groups) or W (per lane)
  std::size_t log_payload_bytes = 0;
  friend bool operator==(const step_work&, const step_work&) = default;
};

// Trace entry kinds the machine writes (payloads little-endian; docs/machine.md).
inline constexpr std::uint32_t configuration_kind = 0;  ///< replay header (binary) + §6.1 JSON
inline constexpr std::uint32_t fast_step_kind = 1;      ///< u32 task, u32 q, u32 id per chosen expert
inline constexpr std::uint32_t mid_path_kind = 2;       ///< u32 experts updated, u64 S (Q32.32) after
inline constexpr std::uint32_t stats_update_kind = 3;   ///< u32 task, u32 slot, u32 reward (Q16.16 raw)
inline constexpr std::uint32_t theta_write_kind = 4;    ///< u32 parameter, i32 value (Q16.16 raw) after the write
/// The configuration entry's binary part: magic, then the fields replay needs.
inline constexpr std::uint32_t configuration_magic = 0x31434542u;  // "BEC1"

namespace detail {
inline void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) { put_le(out, v, 4); }
inline void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) { put_le(out, v, 8); }
}  // namespace detail

template <class M>
class slow_path;

/// N >= 1 state bits and K >= N shared bits (REFERENCE.md §1: M_t has K >= N
/// bits); W a multiple of 64 (lane_word<W>), checked here so that another W
/// names no machine instead of failing inside one.
template <std::size_t N, std::size_t K, std::size_t W, class Policies = default_machine_policies>
  requires(N >= 1 && K >= N && W >= 64 && W % 64 == 0)
class machine {
  static_assert(detail::names_machine_policies<Policies>,
                "bem::machine: Policies must name `circuit`, `router` and `sat_backend`");

 public:
  using policies = Policies;
  using circuit_type = typename Policies::circuit;
  using router_type = typename Policies::router;
  using sat_backend_type = typename Policies::sat_backend;
  using observation_type = typename detail::observation_of<Policies>::type;
  using word_type = lane_word<W>;
  using expert_type = expert<circuit_type>;
  using state_type = state<N, W>;
  static constexpr std::size_t shared_parameters = detail::shared_parameters_of<Policies>();
  using shared_type = shared_memory<K, shared_parameters>;
  static constexpr std::size_t state_bits = N, shared_bits = K, lanes = W;

  static_assert(assert_circuit_representation<circuit_type, word_type>());
  static_assert(assert_router<router_type>());
  static_assert(prover::assert_sat_backend<sat_backend_type>());
  static_assert(assert_observation_policy<observation_type, N, K, W, shared_parameters>());

  explicit machine(machine_config c, router_type r = router_type{}, observation_type obs = observation_type{})
      : cfg_(c), router_(std::move(r)), observer_(std::move(obs)), selection_(c.tasks, c.max_experts),
        log_(trace_log_options{c.log_segment_entries, c.log_file, c.log_fsync}), rng_(c.seed), ucb_(ucb_fixed::from(c.ucb)),
        mid_(log_weight_fixed::from(c.log_weights)) {
    check_routing_meta(c);
    if (c.expert_class >= static_cast<std::uint32_t>(identifier_classes))
      throw std::invalid_argument("machine: expert_class must be below 64");
    if (c.max_gates == 0) throw std::invalid_argument("machine: max_gates (G_max) must be at least 1");
    if constexpr (requires { observer_.check_fits(N, K); }) observer_.check_fits(N, K);
    build_group_masks();
    result_.candidates.reserve(c.k_large);
    log_configuration();
  }

  /// Adds an expert to the initial configuration (before the first step; later
  /// the configuration changes only through verified patches). Its identifier
  /// must carry the expert class and be new, its reads and writes must lie
  /// within N state, K shared bits and P parameters, and its circuit within
  /// G_max; returns its slot.
  std::uint32_t add_expert(expert_type e) {
    if (steps_ != 0)
      throw std::logic_error("machine::add_expert: the machine has stepped; the configuration changes only through "
                             "verified patches (bem::slow_path)");
    return insert_expert(std::move(e));
  }

  /// The query key F_id(task_id, context_hash).
  identifier query_key(const observation& o) const noexcept {
    const std::uint64_t h = mix64(o.context_hash ^ o.task_id);
    return make_checked_identifier(cfg_.expert_class, o.task_id % identifier_shards,
                                   static_cast<std::uint32_t>(h & 0x3FFFu));
  }

  /// The observation O(s, M) of the current STATE and SHARED.
  observation observe() const { return observer_.observe(state_, shared_); }

  /// One fast-path step on the machine's own observation.
  std::span<const std::uint32_t> step() {
    if (cfg_.lanes == lane_scheme::per_lane) return step_per_lane();
    return step(observe());
  }

  /// One fast-path step on a given observation; returns the slots of the
  /// applied experts (best first). Not for the per-lane scheme, whose lanes
  /// observe for themselves (use step()).
  std::span<const std::uint32_t> step(const observation& o) {
    if (cfg_.lanes == lane_scheme::per_lane)
      throw std::logic_error("machine::step(observation): the per-lane scheme observes each lane: call step()");
    if (o.task_id >= cfg_.tasks) throw std::out_of_range("machine::step: task_id out of range");
    work_ = {};
    const identifier q = route(o);
    chosen_count_ = 0;
    if (!candidate_slots_.empty()) {
      if (cfg_.sample) {
        chosen_[0] = selection_.sample(o.task_id, candidate_slots_, rng_, ucb_);
        chosen_count_ = 1;
      } else {
        chosen_count_ = selection_.select_top(o.task_id, candidate_slots_, cfg_.k_small,
                                              std::span<std::uint32_t>(chosen_.data(), 4), ucb_);
      }
    }
    apply_chosen();
    append_step_log(o.task_id, q, std::span<const std::uint32_t>(chosen_.data(), chosen_count_));
    log_theta_writes(std::span<const std::uint32_t>(chosen_.data(), chosen_count_));
    ++steps_;
    return {chosen_.data(), chosen_count_};
  }

  /// STATS_UPDATE: the reward (in [0, 1]) for an expert applied under a task,
  /// logged: the selection table sums it, the expert's own statistics count
  /// a visit and, for r >= 0.5, a win. Throws std::out_of_range, changing
  /// nothing, for a task or slot that does not exist, and
  /// std::invalid_argument, changing nothing, for a reward outside [0, 1] or
  /// NaN.
  void reward(std::uint32_t task_id, std::uint32_t slot, double r) {
    if (!(r >= 0.0 && r <= 1.0))
      throw std::invalid_argument("machine::reward: reward " + std::to_string(r) + " is not in [0, 1]");
    reward_raw(task_id, slot, static_cast<std::uint32_t>(q16_16::from_double(r).raw));
  }
  /// The same with the reward as Q16.16 raw in [0, 65536].
  void reward_raw(std::uint32_t task_id, std::uint32_t slot, std::uint32_t r) {
    if (slot >= experts_.size() || !experts_[slot])
      throw std::out_of_range("machine::reward: no expert in slot " + std::to_string(slot));
    selection_.record_raw(task_id, slot, r);
    experts_[slot]->record(r >= static_cast<std::uint32_t>(q16_16::one_raw / 2));
    trace_entry e{steps_, stats_update_kind, {}};
    detail::put_u32(e.payload, task_id);
    detail::put_u32(e.payload, slot);
    detail::put_u32(e.payload, r);
    log_.append(std::move(e));
  }

  /// The mid-path log-weight update, logged.
  void mid_path_update() {
    const std::size_t updated = selection_.update_log_weights(mid_);
    trace_entry e{steps_, mid_path_kind, {}};
    detail::put_u32(e.payload, static_cast<std::uint32_t>(updated));
    detail::put_u64(e.payload, selection_.loss_accumulator_raw());
    log_.append(std::move(e));
  }

  state_type& state_words() noexcept { return state_; }
  const state_type& state_words() const noexcept { return state_; }
  /// SHARED bit i (the program writes it between steps; experts read and
  /// write SHARED during them).
  void set_shared_bit(std::size_t i, bool v) { shared_.set_bit(i, v); }
  /// Clears SHARED bits [begin, end), e.g. an experts' memory between sequences.
  void clear_shared(std::size_t begin, std::size_t end) { shared_.clear_range(begin, end); }
  /// Sets all K SHARED bits from words (as shared().words() gave them),
  /// e.g. to return to a state saved before an evaluation; Theta stays.
  void set_shared_bits(std::span<const std::uint64_t> words) {
    if (words.size() != shared_type::word_count)
      throw std::invalid_argument("machine::set_shared_bits: " + std::to_string(words.size()) + " words, SHARED has " +
                                  std::to_string(shared_type::word_count));
    std::copy(words.begin(), words.end(), shared_.words().begin());
    if constexpr (K % 64 != 0) shared_.words()[shared_type::word_count - 1] &= (std::uint64_t{1} << (K % 64)) - 1;
  }
  const shared_type& shared() const noexcept { return shared_; }
  /// Parameter i of Theta (Q16.16).
  const q16_16& shared_parameter(std::size_t i) const { return shared_.parameter(check_parameter(i)); }
  /// Sets parameter i of Theta, logged (theta_write_kind).
  void set_shared_parameter(std::size_t i, q16_16 v) {
    shared_.parameter(check_parameter(i)) = v;
    log_theta(static_cast<std::uint32_t>(i));
  }

  /// The expert in `slot`; throws std::out_of_range for a slot never filled
  /// or retired.
  const expert_type& expert_at(std::uint32_t slot) const {
    if (slot >= experts_.size() || !experts_[slot])
      throw std::out_of_range("machine::expert_at: no expert in slot " + std::to_string(slot));
    return *experts_[slot];
  }
  bool slot_live(std::uint32_t slot) const noexcept { return slot < experts_.size() && experts_[slot].has_value(); }
  /// Slots ever created (live or retired).
  std::size_t slot_count() const noexcept { return experts_.size(); }
  /// Live experts.
  std::size_t expert_count() const noexcept { return live_experts_; }
  std::optional<std::uint32_t> slot_of(identifier id) const {
    return slot_of_.find(id);
  }
  const router_type& router() const noexcept { return router_; }
  const observation_type& observer() const noexcept { return observer_; }
  const selection_table& selection() const noexcept { return selection_; }
  const trace_log& log() const noexcept { return log_; }
  std::uint64_t steps() const noexcept { return steps_; }
  const step_work& last_work() const noexcept { return work_; }
  const machine_config& config() const noexcept { return cfg_; }

  /// §6.1's BEM configuration as a JSON object (keys sorted): N, K, W, P,
  /// N_expert_max, G_max, the router's parameters, the routing meta, the
  /// bandit and mid-path hyperparameters, the SAT limits of the verifier
  /// back end. The slow path adds its budgets (slow_path::configuration_json).
  std::string configuration_json() const {
    std::vector<std::pair<std::string, std::string>> f;
    const auto num = [&](const char* k, double v) {
      std::string s;
      detail::json_number_into(s, v);
      f.emplace_back(k, s);
    };
    const auto str = [&](const char* k, const std::string& v) {
      std::string s;
      detail::json_escape_into(s, v);
      f.emplace_back(k, s);
    };
    num("N", N);
    num("K", K);
    num("W", W);
    num("P", shared_parameters);
    num("N_expert_max", static_cast<double>(cfg_.max_experts));
    num("G_max", static_cast<double>(cfg_.max_gates));
    num("tasks", static_cast<double>(cfg_.tasks));
    num("k_large", static_cast<double>(cfg_.k_large));
    num("k_small", static_cast<double>(cfg_.k_small));
    str("lane_scheme", to_string(cfg_.lanes));
    str("selection", cfg_.sample ? "sample exp(z + UCB1)" : "top k_small by UCB1");
    num("ucb_c_explore", q16_16::from_raw(static_cast<std::int32_t>(ucb_.c_explore_raw)).to_double());
    num("mid_path_c_eta", q16_16::from_raw(static_cast<std::int32_t>(mid_.c_eta_raw)).to_double());
    num("mid_path_eps", static_cast<double>(mid_.eps_raw) / 4294967296.0);
    num("mid_path_loss_max", q16_16::from_raw(static_cast<std::int32_t>(mid_.loss_max_raw)).to_double());
    num("mid_path_step_max", q16_16::from_raw(static_cast<std::int32_t>(mid_.step_max_raw)).to_double());
    num("fixed_point_fraction_bits", q16_16::fraction_bits);
    str("circuit", circuit_name());
    str("sat_backend", sat_backend_type::backend_name);
    for (auto& kv : router_parameters()) f.push_back(std::move(kv));
    std::sort(f.begin(), f.end());
    std::string out = "{";
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (i) out += ',';
      detail::json_escape_into(out, f[i].first);
      out += ':' + f[i].second;
    }
    return out + "}";
  }

 private:
  template <class M>
  friend class slow_path;

  static void check_routing_meta(const machine_config& c) {
    if (c.k_small < 1 || c.k_small > 4) throw std::invalid_argument("machine: k_small must lie in [1, 4]");
    if (c.k_large < c.k_small || c.k_large > max_k_cand)
      throw std::invalid_argument("machine: k_large must lie in [k_small, " + std::to_string(max_k_cand) + "]");
    if (c.lanes == lane_scheme::all_lanes && c.k_small != 1 && !c.sample)
      throw std::invalid_argument("machine: the all_lanes scheme applies one expert: k_small must be 1 "
                                  "(lane_groups gives each of k_small lane groups its own)");
    if (c.lanes == lane_scheme::lane_groups && c.k_small < 2)
      throw std::invalid_argument("machine: the lane_groups scheme needs k_small >= 2 groups");
    if (c.lanes == lane_scheme::per_lane && (c.k_small != 1 || c.sample))
      throw std::invalid_argument("machine: the per_lane scheme selects one expert per lane by UCB1 (k_small = 1, "
                                  "sample = false)");
    if (c.lanes == lane_scheme::lane_groups && c.sample)
      throw std::invalid_argument("machine: sampling chooses one expert: use the all_lanes scheme");
    (void)ucb_fixed::from(c.ucb);
    check_log_weight_parameters(c.log_weights);
  }

  void build_group_masks() {
    group_masks_.clear();
    const std::size_t groups = cfg_.lanes == lane_scheme::lane_groups ? cfg_.k_small : 1;
    for (std::size_t g = 0; g < groups; ++g) {
      word_type m = word_type::zeros();
      for (std::size_t l = g * W / groups; l < (g + 1) * W / groups; ++l) m.set_lane(l, true);
      group_masks_.push_back(m);
    }
  }

  std::uint32_t insert_expert(expert_type e) {
    e.check_fits(N, K, shared_parameters, W);
    if (identifier_class(e.id()) != cfg_.expert_class)
      throw std::invalid_argument("machine: expert identifier has class " + std::to_string(identifier_class(e.id())) +
                                  ", the machine routes class " + std::to_string(cfg_.expert_class));
    if (const std::size_t size = circuit_size(e.circuit()); size > cfg_.max_gates)
      throw std::invalid_argument("machine: the expert's circuit has " + std::to_string(size) +
                                  " gates, above G_max = " + std::to_string(cfg_.max_gates));
    if (experts_.size() >= cfg_.max_experts)
      throw std::length_error("machine: the expert table is full (max_experts slots created)");
    if (slot_of_.contains(e.id()) || !router_.insert(e.id()))
      throw std::invalid_argument("machine: expert identifier already present");
    const auto slot = static_cast<std::uint32_t>(experts_.size());
    slot_of_.insert(e.id(), slot);
    note_theta_targets(e);
    experts_.emplace_back(std::move(e));
    ++live_experts_;
    return slot;
  }

  /// Retires a slot: its expert leaves the router and the table (the slot is
  /// never reused).
  void retire_expert(std::uint32_t slot) {
    const identifier id = expert_at(slot).id();
    router_.erase(id);
    slot_of_.erase(id);
    experts_[slot].reset();
    --live_experts_;
  }

  /// Replaces a live slot's expert by one with the same identifier (its
  /// statistics stay with the slot).
  void replace_expert(std::uint32_t slot, expert_type e) {
    const expert_type& old = expert_at(slot);
    if (e.id() != old.id()) throw std::invalid_argument("machine: a replaced expert keeps its identifier");
    e.check_fits(N, K, shared_parameters, W);
    if (const std::size_t size = circuit_size(e.circuit()); size > cfg_.max_gates)
      throw std::invalid_argument("machine: the expert's circuit has " + std::to_string(size) +
                                  " gates, above G_max = " + std::to_string(cfg_.max_gates));
    note_theta_targets(e);
    experts_[slot].emplace(std::move(e));
  }

  void set_routing_meta(const machine_config& c) {
    check_routing_meta(c);
    cfg_.k_large = c.k_large;
    cfg_.k_small = c.k_small;
    cfg_.lanes = c.lanes;
    cfg_.sample = c.sample;
    cfg_.ucb = c.ucb;
    cfg_.log_weights = c.log_weights;
    ucb_ = ucb_fixed::from(c.ucb);
    mid_ = log_weight_fixed::from(c.log_weights);
    build_group_masks();
  }

  void set_router(router_type r) { router_ = std::move(r); }

  static std::size_t circuit_size(const circuit_type& c) {
    if constexpr (requires { c.gate_count(); }) return c.gate_count();
    else if constexpr (requires { c.size(); }) return c.size();
    else return 0;
  }
  static std::string circuit_name() {
    if constexpr (requires { circuit_type::representation_name; }) return circuit_type::representation_name;
    else return "unnamed circuit representation";
  }
  std::vector<std::pair<std::string, std::string>> router_parameters() const {
    std::vector<std::pair<std::string, std::string>> f;
    const auto num = [&](const char* k, double v) {
      std::string s;
      detail::json_number_into(s, v);
      f.emplace_back(k, s);
    };
    const auto str = [&](const char* k, const char* v) {
      std::string s;
      detail::json_escape_into(s, v);
      f.emplace_back(k, s);
    };
    if constexpr (std::is_same_v<router_type, multi_index_router>) {
      const auto& rc = router_.configuration();
      str("router", "multi_index_router");
      num("route_H", rc.tables);
      std::string widths = "[";
      for (int t = 0; t < rc.tables; ++t) widths += (t ? "," : "") + std::to_string(router_.key_bits(t));
      f.emplace_back("route_B", widths + "]");
      num("route_C_entry", rc.capacity);
      if (rc.probe_radius == probe_until_exact) str("route_probe_radius", "until exact");
      else num("route_probe_radius", rc.probe_radius);
      str("route_D_max_M_max",
          "probe radius bounds the search per table (D_max); C_entry bounds entries read per bucket (M_max)");
    } else if constexpr (std::is_same_v<router_type, exact_router>) {
      str("router", "exact_router");
      str("route_D_max_M_max", "exact scan of the admitted partitions: no bound below N");
    } else {
      str("router", "user-defined");
    }
    return f;
  }

  /// The Theta parameters any expert writes (their values are logged after
  /// each step that applies such an expert).
  void note_theta_targets(const expert_type& e) {
    for (const auto& w : e.writes().bits)
      if (w.to == write_bit::target::theta && w.index < shared_parameters) writes_theta_ = true;
  }

  shared_view shared_span() noexcept { return {shared_.words(), shared_.theta()}; }
  std::span<const std::uint64_t> shared_bits_span() const noexcept { return shared_.words(); }

  /// Steps 1-2: the query and its candidates' slots.
  identifier route(const observation& o) {
    const identifier q = query_key(o);
    const std::uint64_t shards = cfg_.shards_from_features && o.feature_bits != 0 ? o.feature_bits : all_shards;
    router_.query(q, route_filter{class_bit(cfg_.expert_class), shards}, cfg_.k_large, result_);
    work_.router_buckets_probed += result_.buckets_probed;
    work_.router_entries_examined += result_.entries_examined;
    candidate_slots_.clear();
    for (const auto& c : result_.candidates) candidate_slots_.push_back(*slot_of_.find(c.id));  // the router holds live ids only
    work_.candidates += static_cast<std::uint32_t>(candidate_slots_.size());
    return q;
  }

  void apply_chosen() {
    std::span<word_type> s(&state_[0], N);
    if (chosen_count_ == 0) {  // no candidate: the state stays
    } else if (cfg_.lanes == lane_scheme::all_lanes || chosen_count_ == 1) {
      const expert_type& e = *experts_[chosen_[0]];
      if (e.writes_state_only()) batch_.apply_all(e, s, shared_bits_span());
      else batch_.apply_all(e, s, shared_span());
      work_.experts_applied = 1;
    } else {
      // Lane group g follows the g-th chosen expert; missing ones repeat the best.
      bool state_only = true;
      for (std::size_t g = 0; g < cfg_.k_small; ++g) {
        group_experts_[g] = &*experts_[chosen_[g < chosen_count_ ? g : 0]];
        state_only = state_only && group_experts_[g]->writes_state_only();
      }
      const std::span<const expert_type* const> ex(group_experts_.data(), cfg_.k_small);
      const std::span<const word_type> masks(group_masks_.data(), cfg_.k_small);
      if (state_only) batch_.apply_masked(ex, masks, s, shared_bits_span());
      else batch_.apply_masked(ex, masks, s, shared_span());
      work_.experts_applied = static_cast<std::uint32_t>(cfg_.k_small);
    }
  }

  /// The per-lane scheme: every lane observes, routes, selects and applies
  /// its own expert; one log entry lists each lane's choice.
  std::span<const std::uint32_t> step_per_lane() {
    static_assert(detail::has_observe_lane<observation_type, N, K, W, shared_parameters>,
                  "bem::machine: the per_lane scheme needs the observation policy's observe_lane(s, m, lane)");
    work_ = {};
    lane_chosen_.assign(W, no_slot);
    lane_tasks_.assign(W, 0);
    const state_type before = state_;  // every lane observes the state before the step
    for (std::size_t l = 0; l < W; ++l) {
      const observation o = observer_.observe_lane(before, shared_, l);
      if (o.task_id >= cfg_.tasks) throw std::out_of_range("machine::step: task_id out of range");
      lane_tasks_[l] = o.task_id;
      route(o);
      std::uint32_t pick = 0;
      if (selection_.select_top(o.task_id, candidate_slots_, 1, std::span<std::uint32_t>(&pick, 1), ucb_) == 0)
        continue;
      lane_chosen_[l] = pick;
      word_type mask = word_type::zeros();
      mask.set_lane(l, true);
      const expert_type* e = &*experts_[pick];
      const std::span<const expert_type* const> ex(&e, 1);
      const std::span<const word_type> masks(&mask, 1);
      std::span<word_type> s(&state_[0], N);
      if (e->writes_state_only()) batch_.apply_masked(ex, masks, s, shared_bits_span());
      else batch_.apply_masked(ex, masks, s, shared_span());
      ++work_.experts_applied;
    }
    trace_entry e{steps_, fast_step_kind, {}};
    detail::put_u32(e.payload, static_cast<std::uint32_t>(W));
    for (std::size_t l = 0; l < W; ++l) {
      detail::put_u32(e.payload, lane_tasks_[l]);
      detail::put_u32(e.payload, lane_chosen_[l] == no_slot ? 0 : experts_[lane_chosen_[l]]->id());
    }
    work_.log_payload_bytes = e.payload.size();
    log_.append(std::move(e));
    log_theta_writes(lane_chosen_);
    ++steps_;
    return lane_chosen_;
  }

  void append_step_log(std::uint32_t task_id, identifier q, std::span<const std::uint32_t> chosen) {
    trace_entry e{steps_, fast_step_kind, {}};
    e.payload.reserve(4 * (2 + 4));
    detail::put_u32(e.payload, task_id);
    detail::put_u32(e.payload, q);
    for (const auto slot : chosen) detail::put_u32(e.payload, experts_[slot]->id());
    work_.log_payload_bytes = e.payload.size();
    log_.append(std::move(e));
  }

  /// One theta_write_kind entry per Theta parameter the applied experts
  /// write (its value after the step), in parameter order.
  void log_theta_writes(std::span<const std::uint32_t> applied) {
    if (!writes_theta_) return;
    std::array<bool, shared_parameters> written{};
    for (const auto slot : applied) {
      if (slot == no_slot) continue;
      for (const auto& w : experts_[slot]->writes().bits)
        if (w.to == write_bit::target::theta) written[w.index] = true;
    }
    for (std::uint32_t i = 0; i < shared_parameters; ++i)
      if (written[i]) log_theta(i);
  }
  void log_theta(std::uint32_t i) {
    trace_entry e{steps_, theta_write_kind, {}};
    detail::put_u32(e.payload, i);
    detail::put_u32(e.payload, static_cast<std::uint32_t>(shared_.parameter(i).raw));
    work_.log_payload_bytes += e.payload.size();
    log_.append(std::move(e));
  }

  /// The log's first entry: what replay needs, then §6.1 as JSON.
  void log_configuration() {
    trace_entry e{0, configuration_kind, {}};
    detail::put_u32(e.payload, configuration_magic);
    detail::put_u64(e.payload, cfg_.tasks);
    detail::put_u64(e.payload, cfg_.max_experts);
    detail::put_u64(e.payload, shared_parameters);
    detail::put_u32(e.payload, mid_.c_eta_raw);
    detail::put_u64(e.payload, mid_.eps_raw);
    detail::put_u32(e.payload, mid_.loss_max_raw);
    detail::put_u32(e.payload, mid_.step_max_raw);
    const std::string json = configuration_json();
    e.payload.insert(e.payload.end(), json.begin(), json.end());
    log_.append(std::move(e));
  }

  static std::size_t check_parameter(std::size_t i) {
    if (i >= shared_parameters)
      throw std::out_of_range("machine: SHARED parameter " + std::to_string(i) + ", but there are " +
                              std::to_string(shared_parameters));
    return i;
  }

  static constexpr std::uint32_t no_slot = ~std::uint32_t{0};

  machine_config cfg_;
  router_type router_;
  observation_type observer_;
  selection_table selection_;
  trace_log log_;
  xoshiro256ss rng_;
  ucb_fixed ucb_;
  log_weight_fixed mid_;
  state_type state_{};
  shared_type shared_{};
  std::vector<std::optional<expert_type>> experts_;
  std::size_t live_experts_ = 0;
  bool writes_theta_ = false;
  identifier_map slot_of_;
  expert_batch<circuit_type, word_type> batch_;
  std::vector<word_type> group_masks_;
  std::array<const expert_type*, 4> group_experts_{};
  route_result result_;
  std::vector<std::uint32_t> candidate_slots_;
  std::array<std::uint32_t, 4> chosen_{};
  std::size_t chosen_count_ = 0;
  std::vector<std::uint32_t> lane_chosen_;
  std::vector<std::uint32_t> lane_tasks_;
  std::uint64_t steps_ = 0;
  step_work work_;
};

BEM_NAMESPACE_END
