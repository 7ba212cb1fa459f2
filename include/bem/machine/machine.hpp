// bem::machine<N, K, W, Policies>: the BEM fast path and mid path, composed.
//
// Execution state (REFERENCE.md §1): STATE s, N bit-sliced words of W lanes
// (bem/machine/state.hpp); SHARED M, K bits plus P Q16.16 parameters; the expert
// table, the routing index and the bandit statistics; the append-only trace.
//
// Fast-path step for an observation (task_id, context_hash, local_bits,
// feature_bits):
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
//   4. experts     BEM_EXPERT_BATCH: one chosen expert applies to all lanes;
//      with k_small > 1 lane group g (W / k_small consecutive lanes) gets the
//      g-th chosen expert (bem/machine/expert.hpp lane schemes);
//   5. log         one trace entry (kind fast_step_kind) holding task_id, q and
//      the chosen identifiers: a bounded payload;
// and STATS_UPDATE comes with the reward: `reward(task, slot, r)`, r in
// [0, 1]. local_bits is not read by the step: experts read STATE and SHARED,
// which the caller writes between steps.
// Mid path: `mid_path_update()` applies the clipped adaptive-rate step
// (bem/machine/selection.hpp) to the log-weights of every expert visited since the
// last call and logs it.
//
// Cost: every step does work bounded by the configuration alone — one router
// query (its own bound), k_large scores, k_small expert evaluations, one log
// entry of fixed size — never by the step count or the history. `last_work()`
// reports the step's deterministic work counts; tests/machine checks that
// they do not change with history length.
//
// ## machine_policies (concept)
// Minimal definition — a struct naming
//   `using circuit = ...;`      a bem::circuit_representation over lane_word<W>
//   `using router = ...;`       a bem::router
//   `using sat_backend = ...;`  a bem::prover::sat_backend (for verified patches)
// plus optionally `static constexpr std::size_t shared_parameters` (P, default 16).
// Law: the machine uses each policy only through its concept.
// Model: bem::default_machine_policies (gate_list, multi_index_router,
// prover::cdcl_solver).
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/machine/expert.hpp>
#include <bem/machine/identifier.hpp>
#include <bem/machine/lanes.hpp>
#include <bem/prng.hpp>
#include <bem/prover/cdcl.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/route/multi_index_router.hpp>
#include <bem/route/router.hpp>
#include <bem/machine/selection.hpp>
#include <bem/machine/state.hpp>
#include <bem/machine/trace_log.hpp>
#include <bem/version.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

BEM_NAMESPACE_BEGIN

struct default_machine_policies {
  using circuit = gate_list;
  using router = multi_index_router;
  using sat_backend = prover::cdcl_solver;
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
}  // namespace detail

/// What the machine observes at a step.
struct observation {
  std::uint32_t task_id = 0;
  std::uint64_t context_hash = 0;
  std::uint64_t local_bits = 0;
  std::uint64_t feature_bits = 0;
};

struct machine_config {
  std::size_t tasks = 1;               ///< task ids lie in [0, tasks)
  std::size_t max_experts = 4096;      ///< size of the expert table (statistics are sized once)
  std::size_t k_large = 16;            ///< K_cand of ROUTE_QUERY
  std::size_t k_small = 1;             ///< experts applied per step, 1..4
  std::uint32_t expert_class = 1;      ///< identifier class of experts and query keys
  bool sample = false;                 ///< sample one candidate instead of the top k_small
  bool shards_from_features = false;   ///< route only to the shards set in feature_bits (0: all)
  ucb_parameters ucb{};
  log_weight_parameters log_weights{};
  std::uint64_t seed = 1;              ///< for sampling
  std::size_t log_segment_entries = trace_log_default_segment_entries;
};

/// Deterministic work of one step.
struct step_work {
  std::uint32_t router_buckets_probed = 0;
  std::uint32_t router_entries_examined = 0;
  std::uint32_t candidates = 0;
  std::uint32_t experts_applied = 0;  ///< expert evaluations: 0, 1 (all lanes) or k_small (one per lane group)
  std::size_t log_payload_bytes = 0;
  friend bool operator==(const step_work&, const step_work&) = default;
};

inline constexpr std::uint32_t fast_step_kind = 1;
inline constexpr std::uint32_t mid_path_kind = 2;

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
  using word_type = lane_word<W>;
  using expert_type = expert<circuit_type>;
  static constexpr std::size_t shared_parameters = detail::shared_parameters_of<Policies>();

  static_assert(assert_circuit_representation<circuit_type, word_type>());
  static_assert(assert_router<router_type>());
  static_assert(prover::assert_sat_backend<sat_backend_type>());

  explicit machine(machine_config c, router_type r = router_type{})
      : cfg_(c), router_(std::move(r)), selection_(c.tasks, c.max_experts), log_(c.log_segment_entries),
        rng_(c.seed) {
    if (c.k_small < 1 || c.k_small > 4) throw std::invalid_argument("machine: k_small must lie in [1, 4]");
    if (c.k_large < c.k_small || c.k_large > max_k_cand)
      throw std::invalid_argument("machine: k_large must lie in [k_small, " + std::to_string(max_k_cand) + "]");
    if (c.expert_class >= static_cast<std::uint32_t>(identifier_classes))
      throw std::invalid_argument("machine: expert_class must be below 64");
    if (!(c.ucb.c_explore >= 0.0 && std::isfinite(c.ucb.c_explore)))
      throw std::invalid_argument("machine: ucb.c_explore must be finite and >= 0");
    check_log_weight_parameters(c.log_weights);
    for (std::size_t g = 0; g < c.k_small; ++g) {
      word_type m = word_type::zeros();
      for (std::size_t l = g * W / c.k_small; l < (g + 1) * W / c.k_small; ++l) m.set_lane(l, true);
      group_masks_.push_back(m);
    }
    result_.candidates.reserve(c.k_large);
  }

  /// Adds an expert (its identifier must carry the expert class and be new,
  /// its reads and writes must lie within N state and K shared bits);
  /// returns its slot. Experts are added before serving or between steps.
  std::uint32_t add_expert(expert_type e) {
    e.check_fits(N, K);
    if (identifier_class(e.id()) != cfg_.expert_class)
      throw std::invalid_argument("machine: expert identifier has class " + std::to_string(identifier_class(e.id())) +
                                  ", the machine routes class " + std::to_string(cfg_.expert_class));
    if (experts_.size() >= cfg_.max_experts) throw std::length_error("machine: expert table is full (max_experts)");
    if (!router_.insert(e.id())) throw std::invalid_argument("machine: expert identifier already present");
    const auto slot = static_cast<std::uint32_t>(experts_.size());
    slot_of_.emplace(e.id(), slot);
    experts_.push_back(std::move(e));
    return slot;
  }

  /// The query key F_id(task_id, context_hash).
  identifier query_key(const observation& o) const noexcept {
    const std::uint64_t h = mix64(o.context_hash ^ o.task_id);
    return make_checked_identifier(cfg_.expert_class, o.task_id % identifier_shards,
                                   static_cast<std::uint32_t>(h & 0x3FFFu));
  }

  /// One fast-path step; returns the slots of the applied experts (best first).
  std::span<const std::uint32_t> step(const observation& o) {
    if (o.task_id >= cfg_.tasks) throw std::out_of_range("machine::step: task_id out of range");
    work_ = {};
    const identifier q = query_key(o);
    const std::uint64_t shards = cfg_.shards_from_features && o.feature_bits != 0 ? o.feature_bits : all_shards;
    router_.query(q, route_filter{class_bit(cfg_.expert_class), shards}, cfg_.k_large, result_);
    work_.router_buckets_probed = result_.buckets_probed;
    work_.router_entries_examined = result_.entries_examined;
    candidate_slots_.clear();
    for (const auto& c : result_.candidates) candidate_slots_.push_back(slot_of_.at(c.id));
    work_.candidates = static_cast<std::uint32_t>(candidate_slots_.size());

    chosen_count_ = 0;
    if (!candidate_slots_.empty()) {
      if (cfg_.sample) {
        chosen_[0] = selection_.sample(o.task_id, candidate_slots_, rng_, cfg_.ucb);
        chosen_count_ = 1;
      } else {
        chosen_count_ = selection_.select_top(o.task_id, candidate_slots_, cfg_.k_small, chosen_, cfg_.ucb);
      }
    }
    apply_chosen();
    append_step_log(o.task_id, q);
    ++steps_;
    return {chosen_.data(), chosen_count_};
  }

  /// STATS_UPDATE: the reward (in [0, 1]) for an expert applied under a task:
  /// the selection table sums it, the expert's own statistics count a visit
  /// and, for r >= 0.5, a win.
  /// Throws std::out_of_range, changing nothing, for a task or slot that
  /// does not exist (selection_table::record checks the task first), and
  /// std::invalid_argument, changing nothing, for a reward outside [0, 1]
  /// or NaN (it would corrupt wins and the log-weights for good).
  void reward(std::uint32_t task_id, std::uint32_t slot, double r) {
    // The statistics have room for max_experts: check the slot is filled.
    if (slot >= experts_.size())
      throw std::out_of_range("machine::reward: no expert in slot " + std::to_string(slot));
    selection_.record(task_id, slot, r);
    experts_[slot].record(r >= 0.5);
  }

  /// The mid-path log-weight update, logged.
  void mid_path_update() {
    selection_.update_log_weights(cfg_.log_weights);
    trace_entry e;
    e.step = steps_;
    e.kind = mid_path_kind;
    log_.append(std::move(e));
  }

  state<N, W>& state_words() noexcept { return state_; }
  const state<N, W>& state_words() const noexcept { return state_; }
  /// SHARED bit i (experts read SHARED; the program writes it between steps).
  void set_shared_bit(std::size_t i, bool v) {
    shared_.set_bit(i, v);
    std::uint64_t& w = shared_words_[i / 64];
    w = v ? (w | (std::uint64_t{1} << (i % 64))) : (w & ~(std::uint64_t{1} << (i % 64)));
  }
  const shared_memory<K, shared_parameters>& shared() const noexcept { return shared_; }
  /// Parameter i of SHARED (Theta, Q16.16), for the program to read and
  /// write: mid_path_update() changes the log-weights (doubles in the
  /// selection table), never Theta. SHARED
  /// bits change only through set_shared_bit, which keeps the experts' copy.
  q16_16& shared_parameter(std::size_t i) { return shared_.parameter(check_parameter(i)); }
  const q16_16& shared_parameter(std::size_t i) const { return shared_.parameter(check_parameter(i)); }

  const expert_type& expert_at(std::uint32_t slot) const { return experts_.at(slot); }
  std::size_t expert_count() const noexcept { return experts_.size(); }
  const router_type& router() const noexcept { return router_; }
  const selection_table& selection() const noexcept { return selection_; }
  const trace_log& log() const noexcept { return log_; }
  std::uint64_t steps() const noexcept { return steps_; }
  const step_work& last_work() const noexcept { return work_; }
  const machine_config& config() const noexcept { return cfg_; }

 private:
  void apply_chosen() {
    std::span<word_type> s(&state_[0], N);
    std::span<const std::uint64_t> m(shared_words_.data(), shared_words_.size());
    if (chosen_count_ == 0) {  // no candidate: the state stays
    } else if (chosen_count_ == 1 || cfg_.k_small == 1) {
      batch_.apply_all(experts_[chosen_[0]], s, m);
    } else {
      // Lane group g follows the g-th chosen expert; missing ones repeat the best.
      for (std::size_t g = 0; g < cfg_.k_small; ++g)
        group_experts_[g] = &experts_[chosen_[g < chosen_count_ ? g : 0]];
      batch_.apply_masked(std::span<const expert_type* const>(group_experts_.data(), cfg_.k_small),
                          std::span<const word_type>(group_masks_.data(), cfg_.k_small), s, m);
    }
    // Expert evaluations: one on all lanes, or one per lane group.
    work_.experts_applied = chosen_count_ == 0                             ? 0
                            : chosen_count_ == 1 || cfg_.k_small == 1 ? 1
                                                                       : static_cast<std::uint32_t>(cfg_.k_small);
  }

  void append_step_log(std::uint32_t task_id, identifier q) {
    trace_entry e;
    e.step = steps_;
    e.kind = fast_step_kind;
    e.payload.reserve(4 * (2 + 4));
    auto put = [&](std::uint32_t v) {
      for (int b = 0; b < 4; ++b) e.payload.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
    };
    put(task_id);
    put(q);
    for (std::size_t i = 0; i < chosen_count_; ++i) put(experts_[chosen_[i]].id());
    work_.log_payload_bytes = e.payload.size();
    log_.append(std::move(e));
  }

  static std::size_t check_parameter(std::size_t i) {
    if (i >= shared_parameters)
      throw std::out_of_range("machine: SHARED parameter " + std::to_string(i) + ", but there are " +
                              std::to_string(shared_parameters));
    return i;
  }

  machine_config cfg_;
  router_type router_;
  selection_table selection_;
  trace_log log_;
  xoshiro256ss rng_;
  state<N, W> state_{};
  shared_memory<K, shared_parameters> shared_{};
  std::array<std::uint64_t, (K + 63) / 64> shared_words_{};
  std::vector<expert_type> experts_;
  std::unordered_map<identifier, std::uint32_t> slot_of_;
  expert_batch<circuit_type, word_type> batch_;
  std::vector<word_type> group_masks_;
  std::array<const expert_type*, 4> group_experts_{};
  route_result result_;
  std::vector<std::uint32_t> candidate_slots_;
  std::array<std::uint32_t, 4> chosen_{};
  std::size_t chosen_count_ = 0;
  std::uint64_t steps_ = 0;
  step_work work_;
};

BEM_NAMESPACE_END
