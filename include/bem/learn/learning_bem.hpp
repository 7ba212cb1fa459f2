// The learning BEM: a sequence model on bem::machine that learns the §3 and
// temporal tasks by synthesising experts as verified patches
// (docs/learning-bem.md).
//
// Streaming. The W = 256 lanes of one word run W sequences of a batch side by
// side; one fast-path step per token: the program writes the token's bits
// into STATE bits [0, token_bits), step() observes (the routing shard mask
// in SHARED bits [0, 64)), routes, selects by UCB1 and applies the chosen
// expert, which updates its own STATE register and the prediction register
// and writes its shard into the routing mask ("pins" itself: the rest of the
// sequence routes to it). The prediction is read from the prediction
// register at every position.
//
// Hypotheses (bem/learn/hypotheses.hpp), each one expert in a shard of its
// own, proposed by the model's proposer from the labelled training sequences
// it has seen and added through the slow path as verified patches:
//   moore    the smallest Moore machine consistent with the training labels,
//            found exactly by SAT (bem/learn/automaton_identification.hpp);
//            its step circuit made smaller by CEGIS where it can be
//            (circuit_superopt: equivalence proven);
//   counter  saturating up/down counters of `counter_bits` bits with a sticky
//            "went negative" flag and a readout: every assignment of +1 / -1
//            / 0 to the tokens (alphabets up to 4) and readouts d >= k,
//            d == k, never negative, never negative and d == 0; those that
//            fit the training labels best are proposed;
//   recall   the induction memory of class outputs: store each token under
//            the previous one in a per-lane HASH-addressed SHARED memory,
//            recall what followed the current token's predecessor, answer
//            recalled - offset (offset learned), NULL when nothing was stored.
// Nothing tells the model which task it faces: the families proposed depend
// only on the output kind (binary or class) and the vocabulary size.
//
// Competition. Every `holdout_every`-th training batch is held out: each live
// hypothesis runs it pinned (the program sets its shard's mask bit first),
// and its accuracy there, less an Occam term of 2^-12 per bit of its
// description within its family, is its reward (STATS_UPDATE), followed by
// a mid-path update: equally accurate hypotheses rank by minimum description
// length (a 2-state parity machine over a counter, a counter's handful of
// bits over a 6-state machine that fits bounded-depth Dyck-1 words). Unpinned runs (predict) leave the choice to UCB1 at the
// first step. Evaluation (set_learning(false)) changes no statistics, no
// structure, and leaves STATE and SHARED as it found them.
//
// Probabilities. A hypothesis's answer gets probability a = (right + 1) /
// (total + 2) from its held-out record (Laplace), so cross-entropy is finite.
#pragma once

#include <bem/circuits/gate_list.hpp>
#include <bem/harness/parameters.hpp>
#include <bem/harness/reflected_parameters.hpp>
#include <bem/learn/automaton_identification.hpp>
#include <bem/learn/hypotheses.hpp>
#include <bem/machine/machine.hpp>
#include <bem/machine/slow_path.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/prover/cegis.hpp>
#include <bem/route/exact_router.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace learn {

/// The learning BEM's machine: N STATE bits, K SHARED bits, W lanes; the
/// exact router (a few dozen experts at most).
struct learning_bem_policies : default_machine_policies {
  using router = exact_router;
};

/// The model's parameters, declared once (docs/learning-bem.md, "Parameters").
struct learning_bem_parameters {
  BOOST_HANA_DEFINE_STRUCT(learning_bem_parameters, (int, counter_bits), (int, max_states),
                           (std::int64_t, max_sequences), (std::int64_t, holdout_every),
                           (std::int64_t, conflict_budget), (std::int64_t, synthesis_conflicts),
                           (std::string, log_file));
  static void describe(parameter_schema<learning_bem_parameters>& s) {
    s("counter_bits", 16).in(2, 62).doc("b: a counter is exact while |d| < 2^(b-1)");
    s("max_states", 8).in(1, 32).doc("Moore machines up to this many states");
    s("max_sequences", 2000).in(1, 1 << 20).doc("training sequences kept for the proposer");
    s("holdout_every", 4).in(2, 1000).doc("every n-th training batch ranks the hypotheses");
    s("conflict_budget", 200000).in(1, std::int64_t{1} << 40).doc("conflicts per verification SAT_CHECK");
    s("synthesis_conflicts", 20000)
        .in(1, std::int64_t{1} << 40)
        .doc("conflicts per identification or CEGIS query (UNKNOWN past it: no hypothesis)");
    s("log_file", "/dev/null").doc("where the machine's trace streams (\"/dev/null\" keeps none)");
  }
};

class learning_bem {
 public:
  static constexpr std::size_t N = 512, K = std::size_t{1} << 20, W = 256;
  using machine_type = machine<N, K, W, learning_bem_policies>;
  using slow_type = slow_path<machine_type>;
  static constexpr std::size_t routing_mask_bits = 64;  ///< SHARED [0, 64): the shard mask routing reads
  static constexpr std::size_t memory_base = 64;        ///< SHARED: the recall memory starts here

  static constexpr const char* name = "bem";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "learning BEM on bem::machine<512, 2^20, 256>: Moore machines by exact SAT identification, counters and an "
      "induction memory, synthesised as verified patches and chosen by UCB1 on held-out batches";

  using parameter_structs = bem::parameter_structs<learning_bem_parameters>;
  explicit learning_bem(parameters& p) : s_(read_parameters<learning_bem_parameters>(p)) {}
  /// With every parameter at its default.
  learning_bem() : learning_bem(defaults()) {}
  explicit learning_bem(learning_bem_parameters s) : s_(std::move(s)) {}

  // ---- sequence_model ---------------------------------------------------------

  void reset(const tasks::task_spec& spec, std::uint64_t seed) {
    spec_ = spec;
    seed_ = seed;
    token_bits_ = bits_for(static_cast<std::uint64_t>(spec.vocab_size));
    classes_ = spec.output == tasks::output_kind::class_final;
    class_bits_ = classes_ ? bits_for(static_cast<std::uint64_t>(spec.num_classes)) : 1;
    prediction_bits_ = classes_ ? class_bits_ + 1 : 1;  // class bits and a NULL flag
    next_register_ = token_bits_ + prediction_bits_;
    if (next_register_ > N) throw std::invalid_argument("bem model: the vocabulary needs more STATE bits than N");
    machine_config cfg;
    cfg.tasks = 1;
    cfg.max_experts = 64;
    cfg.max_gates = 1 << 16;
    cfg.k_large = 64;
    cfg.shards_from_features = true;
    // Held-out accuracy decides: a small exploration term, so a hypothesis
    // added late (fewer held-out visits) does not win on its bonus.
    cfg.ucb.c_explore = 0.05;
    cfg.seed = seed;
    cfg.log_file = s_.log_file;
    cfg.log_fsync = trace_fsync::never;
    field_observation obs;
    obs.feature_offset = 0;
    obs.feature_bits = routing_mask_bits;
    m_ = std::make_unique<machine_type>(cfg, exact_router{}, obs);
    slow_path_config sc;
    sc.limits.conflicts = s_.conflict_budget;
    slow_ = std::make_unique<slow_type>(*m_, sc);
    hypotheses_.clear();
    train_.clear();
    learning_ = true;
    batches_ = 0;
    budget_ = {};
    proposed_.clear();
    moore_tried_at_ = 0;
  }

  void set_learning(bool on) { learning_ = on; }

  double learn(const tasks::sequence_batch& batch) {
    require_reset();
    if (!learning_) return std::numeric_limits<double>::quiet_NaN();
    const bool held_out = ++batches_ % static_cast<std::uint64_t>(s_.holdout_every) == 0;
    const double loss = hypotheses_.empty() ? std::log(2.0) : loss_of(batch);
    if (held_out) {
      rank_on(batch);
    } else {
      remember(batch);
      propose();
    }
    return loss;
  }

  void predict(const tasks::sequence_batch& batch, tasks::prediction& out) {
    require_reset();
    const int w = spec_.logits_per_position();
    if (out.batch_size != batch.batch_size || out.length != batch.length || out.width != w)
      out.reset(batch.batch_size, batch.length, w);
    if (hypotheses_.empty()) {  // nothing learned yet: no preference
      std::fill(out.logits.begin(), out.logits.end(), 0.0f);
      return;
    }
    // Evaluation leaves STATE and SHARED as it found them.
    run_restoring(batch, [&](std::int32_t b, std::int32_t t, const answer& a) { write_logits(out.at(b, t), a); });
  }

  std::size_t parameter_count() const {
    std::size_t gates = 0;
    if (m_)
      for (std::uint32_t i = 0; i < m_->slot_count(); ++i)
        if (m_->slot_live(i)) gates += m_->expert_at(i).circuit().gate_count();
    return gates;
  }

  /// The machine's structural configuration and the slow path's limits and
  /// budgets (§6.1), for every record of a run.
  std::string machine_configuration() const {
    require_reset();
    return "{\"machine\":" + m_->configuration_json() + ",\"slow_path\":" + slow_->configuration_json() + "}";
  }

  /// Extra figures for the records (docs/learning-bem.md, "Records"); the
  /// configuration is in every record (machine_configuration).
  template <class F>
  void report(F&& emit) const {
    if (!m_) return;
    emit("hypotheses", static_cast<double>(hypotheses_.size()), "experts");
    emit("training_sequences", static_cast<double>(budget_.train_sequences), "sequences");
    emit("training_tokens", static_cast<double>(budget_.train_tokens), "tokens");
    emit("held_out_sequences", static_cast<double>(budget_.held_out_sequences), "sequences");
    emit("fast_path_cycles", static_cast<double>(budget_.fast_cycles), "TSC ticks");
    emit("mid_path_cycles", static_cast<double>(budget_.mid_cycles), "TSC ticks");
    emit("slow_path_cycles", static_cast<double>(budget_.slow_cycles), "TSC ticks");
    emit("synthesis_sat_calls", static_cast<double>(budget_.synthesis_sat_calls), "SAT calls");
    const auto& c = slow_->counters();
    emit("patches_proposed", static_cast<double>(c.proposed), "patches");
    emit("patches_accepted", static_cast<double>(c.accepted), "patches");
    emit("patches_rejected", static_cast<double>(c.rejected), "patches");
    emit("verification_sat_calls", static_cast<double>(c.sat_calls), "SAT calls");
    emit("verification_cycles", static_cast<double>(c.verification_cycles), "TSC ticks");
    if (const auto* h = chosen_hypothesis()) {
      emit("chosen_family", static_cast<double>(h->family), "0 moore, 1 counter, 2 recall");
      emit("chosen_gates", static_cast<double>(m_->expert_at(h->slot).circuit().gate_count()), "gates");
      emit("chosen_held_out_accuracy", h->accuracy(), "fraction");
    }
  }

  // ---- introspection (tests, the bench) --------------------------------------------

  enum family_kind : std::uint8_t { moore = 0, counter = 1, recall = 2 };
  struct hypothesis {
    family_kind family = moore;
    std::string description;
    std::uint32_t slot = 0, shard = 0;
    std::uint32_t register_base = 0, register_bits = 0;
    double train_accuracy = 0;
    double description_bits = 0;  ///< bits that name it within its family (the Occam term)
    std::uint64_t held_out_right = 0, held_out_total = 0;
    double accuracy() const {
      return (static_cast<double>(held_out_right) + 1.0) / (static_cast<double>(held_out_total) + 2.0);
    }
  };
  const std::vector<hypothesis>& hypotheses() const noexcept { return hypotheses_; }
  const machine_type& bem() const { return *m_; }
  const slow_type& slow() const { return *slow_; }
  /// The hypothesis UCB1 picks at a sequence's first step (nullptr: none).
  const hypothesis* chosen_hypothesis() const {
    if (!m_ || hypotheses_.empty()) return nullptr;
    std::vector<std::uint32_t> slots;
    for (const auto& h : hypotheses_) slots.push_back(h.slot);
    std::uint32_t best = 0;
    m_->selection().select_top(0, slots, 1, std::span<std::uint32_t>(&best, 1), ucb_fixed::from(m_->config().ucb));
    for (const auto& h : hypotheses_)
      if (h.slot == best) return &h;
    return nullptr;
  }

 private:
  /// One lane's answer at one position.
  struct answer {
    std::uint32_t value = 0;  ///< the bit, or the class
    bool null = false;        ///< class outputs: nothing recalled
    const hypothesis* by = nullptr;
  };

  void require_reset() const {
    if (!m_) throw std::logic_error("bem model: reset() must come first");
  }

  // ---- running sequences through the machine ---------------------------------------

  /// Runs every sequence of `batch`, W at a time (one per lane), pinned to
  /// `pin` when given; calls on(b, t, answer) at every position of every
  /// real sequence.
  template <class F>
  void run(const tasks::sequence_batch& batch, std::optional<std::uint32_t> pin, F&& on) {
    for (std::int32_t first = 0; first < batch.batch_size; first += static_cast<std::int32_t>(W))
      run_chunk(batch, first, std::min<std::int32_t>(static_cast<std::int32_t>(W), batch.batch_size - first), pin, on);
  }

  /// run(batch, unpinned, on), leaving STATE and SHARED as it found them.
  template <class F>
  void run_restoring(const tasks::sequence_batch& batch, F&& on) {
    const auto state_before = m_->state_words();
    const std::vector<std::uint64_t> shared_before(m_->shared().words().begin(), m_->shared().words().end());
    run(batch, std::nullopt, on);
    m_->state_words() = state_before;
    m_->set_shared_bits(shared_before);
  }

  /// Sequences first .. first+lanes-1 of `batch`, one per lane.
  template <class F>
  void run_chunk(const tasks::sequence_batch& batch, std::int32_t first, std::int32_t lanes,
                 std::optional<std::uint32_t> pin, F& on) {
    auto& st = m_->state_words();
    for (std::size_t k = 0; k < N; ++k) st[k] = lane_word<W>::zeros();
    m_->clear_shared(0, routing_mask_bits);
    if (memory_span_ != 0) m_->clear_shared(memory_base, memory_base + memory_span_);
    if (pin) m_->set_shared_bit(*pin, true);
    const std::uint64_t t0 = read_tsc_begin();
    for (std::int32_t t = 0; t < batch.length; ++t) {
      for (std::uint32_t j = 0; j < token_bits_; ++j) {
        lane_word<W> w;
        for (std::int32_t l = 0; l < lanes; ++l)
          if ((static_cast<std::uint32_t>(batch.input(first + l, t)) >> j) & 1u) w.set_lane(static_cast<std::size_t>(l), true);
        st[j] = w;
      }
      m_->step();
      const hypothesis* h = pinned();
      for (std::int32_t l = 0; l < lanes; ++l) {
        if (t >= batch.lengths[static_cast<std::size_t>(first + l)]) continue;
        answer a;
        a.by = h;
        for (std::uint32_t j = 0; j < (classes_ ? class_bits_ : 1u); ++j)
          a.value |= static_cast<std::uint32_t>(st.bit(token_bits_ + j, static_cast<std::size_t>(l))) << j;
        if (classes_) a.null = st.bit(token_bits_ + class_bits_, static_cast<std::size_t>(l));
        on(first + l, t, a);
      }
    }
    budget_.fast_cycles += read_tsc_end() - t0;
  }

  /// The hypothesis whose shard the routing mask holds (after step 0).
  const hypothesis* pinned() const {
    for (const auto& h : hypotheses_)
      if (m_->shared().bit(h.shard)) return &h;
    return nullptr;
  }

  /// The class an answer stands for (NULL is the last class).
  std::int32_t class_of(const answer& a) const {
    if (a.null) return spec_.num_classes - 1;
    return static_cast<std::int32_t>(std::min<std::uint32_t>(a.value, static_cast<std::uint32_t>(spec_.num_classes - 1)));
  }

  void write_logits(float* logits, const answer& a) const {
    const double p = a.by ? a.by->accuracy() : 0.5;
    if (!classes_) {
      const float l = static_cast<float>(std::log(p / (1.0 - p)));
      logits[0] = a.value ? l : -l;
      return;
    }
    // Softmax: the answer gets p, the others share 1 - p.
    const int c = spec_.num_classes;
    const float high = static_cast<float>(std::log(p * (c - 1) / (1.0 - p)));
    for (int k = 0; k < c; ++k) logits[k] = 0.0f;
    logits[class_of(a)] = high;
  }

  bool correct(const tasks::sequence_batch& batch, std::int32_t b, std::int32_t t, const answer& a) const {
    const std::int32_t y = batch.target(b, t);
    return classes_ ? class_of(a) == y : static_cast<std::int32_t>(a.value) == y;
  }

  double loss_of(const tasks::sequence_batch& batch) {
    double nats = 0;
    std::int64_t scored = 0;
    run_restoring(batch, [&](std::int32_t b, std::int32_t t, const answer& a) {
      if (!batch.scored(b, t)) return;
      const double p = a.by ? a.by->accuracy() : 0.5;
      nats -= std::log(correct(batch, b, t, a) ? p : (classes_ ? (1.0 - p) / (spec_.num_classes - 1) : 1.0 - p));
      ++scored;
    });
    return scored ? nats / static_cast<double>(scored) : std::numeric_limits<double>::quiet_NaN();
  }

  /// Held-out batch: every hypothesis runs it pinned; accuracy is its reward.
  void rank_on(const tasks::sequence_batch& batch) {
    budget_.held_out_sequences += static_cast<std::uint64_t>(batch.batch_size);
    for (auto& h : hypotheses_) {
      std::uint64_t right = 0, total = 0;
      run(batch, h.shard, [&](std::int32_t b, std::int32_t t, const answer& a) {
        if (!batch.scored(b, t)) return;
        right += correct(batch, b, t, a) ? 1 : 0;
        ++total;
      });
      h.held_out_right += right;
      h.held_out_total += total;
      const std::uint64_t t0 = read_tsc_begin();
      if (total > 0) m_->reward(0, h.slot, reward_of(h, static_cast<double>(right) / static_cast<double>(total)));
      budget_.mid_cycles += read_tsc_end() - t0;
    }
    const std::uint64_t t0 = read_tsc_begin();
    m_->mid_path_update();
    budget_.mid_cycles += read_tsc_end() - t0;
  }

  /// Held-out accuracy minus the Occam term (2^-12 per description bit):
  /// among equally accurate hypotheses the shortest wins, as minimum
  /// description length prefers.
  static double reward_of(const hypothesis& h, double accuracy) {
    return std::clamp(accuracy - h.description_bits * occam_per_bit, 0.0, 1.0);
  }
  static constexpr double occam_per_bit = 1.0 / 4096.0;
  /// The proposer offers counters that fit at least this share of the
  /// training labels (fewer would only fill slots and held-out time).
  static constexpr double minimum_fit = 0.9;

  // ---- the proposer ----------------------------------------------------------------

  /// A training sequence: tokens and the known labels (binary outputs: 0/1
  /// or -1; class outputs: the class at scored positions, -1 elsewhere).
  struct example {
    std::vector<std::uint32_t> tokens;
    std::vector<std::int32_t> labels;
  };

  void remember(const tasks::sequence_batch& batch) {
    for (std::int32_t b = 0; b < batch.batch_size && train_.size() < static_cast<std::size_t>(s_.max_sequences); ++b) {
      example e;
      const std::int32_t len = std::min(batch.lengths[static_cast<std::size_t>(b)], batch.length);
      for (std::int32_t t = 0; t < len; ++t) {
        e.tokens.push_back(static_cast<std::uint32_t>(batch.input(b, t)));
        e.labels.push_back(batch.scored(b, t) ? batch.target(b, t) : -1);
      }
      budget_.train_tokens += static_cast<std::uint64_t>(len);
      ++budget_.train_sequences;
      train_.push_back(std::move(e));
      fresh_data_ = true;
    }
  }

  void propose() {
    if (!fresh_data_) return;
    fresh_data_ = false;
    const std::uint64_t t0 = read_tsc_begin();
    if (classes_) {
      propose_recall();
    } else {
      propose_counters();
      propose_moore();
    }
    budget_.slow_cycles += read_tsc_end() - t0;
  }

  double train_accuracy_of(const std::function<void(const example&, std::vector<std::int32_t>&)>& answers) const {
    std::uint64_t right = 0, total = 0;
    std::vector<std::int32_t> out;
    for (const auto& e : train_) {
      answers(e, out);
      for (std::size_t t = 0; t < e.labels.size(); ++t) {
        if (e.labels[t] < 0) continue;
        right += out[t] == e.labels[t] ? 1 : 0;
        ++total;
      }
    }
    return total ? static_cast<double>(right) / static_cast<double>(total) : 0.0;
  }

  /// A STATE register of `bits` bits for a new hypothesis.
  std::optional<std::uint32_t> allocate(std::uint32_t bits) {
    if (next_register_ + bits > N) return std::nullopt;
    const std::uint32_t base = static_cast<std::uint32_t>(next_register_);
    next_register_ += bits;
    return base;
  }

  /// Submits hypothesis `e` (its circuit with the pin output last) as a
  /// macro_create patch; records it when accepted.
  bool add_hypothesis(family_kind f, std::string description, double description_bits, const gate_list& circuit,
                      read_spec reads, write_spec writes, std::uint32_t register_base, std::uint32_t register_bits,
                      double train_accuracy, memory_port memory = {}) {
    if (hypotheses_.size() >= routing_mask_bits || proposed_.contains(description)) return false;
    proposed_.insert(description);
    const std::uint32_t shard = static_cast<std::uint32_t>(hypotheses_.size());
    // The pin: a constant-1 output into the routing mask's bit `shard`.
    writes.bits.push_back({shard, write_bit::mode::overwrite, write_bit::target::shared, write_bit::reduction::any});
    const identifier id = make_checked_identifier(1, shard, static_cast<std::uint32_t>(mix64(seed_ ^ shard) & 0x3FFF));
    patch<gate_list> p;
    p.kind = patch_class::macro_create;
    p.experts.push_back(expert<gate_list>(id, std::move(reads), with_pin(circuit), std::move(writes), std::move(memory)));
    p.reward_gain = train_accuracy;
    p.origin = "learning_bem:" + description;
    const patch_record& r = slow_->decide(std::move(p));
    if (r.state != patch_state::accepted) return false;
    hypothesis h;
    h.family = f;
    h.description = std::move(description);
    h.slot = *m_->slot_of(id);
    h.shard = shard;
    h.register_base = register_base;
    h.register_bits = register_bits;
    h.train_accuracy = train_accuracy;
    h.description_bits = description_bits;
    hypotheses_.push_back(std::move(h));
    return true;
  }

  /// The circuit with one more output, constant 1 (the pin).
  static gate_list with_pin(const gate_list& g) {
    std::vector<gate> gates = g.gates();
    std::vector<std::uint32_t> outs = g.output_nodes();
    const auto n = static_cast<std::uint32_t>(g.inputs());
    gates.push_back(gate{gate_op::andn, 0, 0, 0, 0});
    gates.push_back(gate{gate_op::not_, 0, n + static_cast<std::uint32_t>(gates.size()) - 1, 0, 0});
    outs.push_back(n + static_cast<std::uint32_t>(gates.size()) - 1);
    return gate_list(g.inputs(), std::move(gates), std::move(outs));
  }

  read_spec token_reads() const {
    read_spec r;
    for (std::uint32_t j = 0; j < token_bits_; ++j) r.bits.push_back({read_bit::source::state, j});
    return r;
  }

  // Counters: binary outputs over alphabets of at most 4 tokens.
  void propose_counters() {
    const auto v = static_cast<std::uint32_t>(spec_.vocab_size);
    const auto counter_bits = static_cast<std::uint32_t>(s_.counter_bits);
    if (v > 4 || hypotheses_.size() + 3 > routing_mask_bits) return;
    std::vector<std::pair<double, counter_spec>> scored;
    std::vector<std::int8_t> delta(v, 0);
    const auto consider = [&](const counter_spec& c) {
      const double acc = train_accuracy_of([&](const example& e, std::vector<std::int32_t>& out) {
        out.assign(e.tokens.size(), 0);
        std::int64_t d = 0;
        bool n = false;
        for (std::size_t t = 0; t < e.tokens.size(); ++t) {
          c.step(d, n, e.tokens[t]);
          out[t] = c.answer(d, n) ? 1 : 0;
        }
      });
      scored.emplace_back(acc, c);
    };
    std::uint32_t combos = 1;
    for (std::uint32_t i = 0; i < v; ++i) combos *= 3;
    for (std::uint32_t code = 1; code < combos; ++code) {
      std::uint32_t x = code;
      for (std::uint32_t i = 0; i < v; ++i, x /= 3) delta[i] = static_cast<std::int8_t>(static_cast<int>(x % 3) - 1);
      for (std::int64_t k = -4; k <= 8; ++k) consider({delta, counter_readout::at_least, k, counter_bits});
      for (std::int64_t k = -2; k <= 2; ++k) consider({delta, counter_readout::equal, k, counter_bits});
      consider({delta, counter_readout::never_negative, 0, counter_bits});
      consider({delta, counter_readout::balanced_closed, 0, counter_bits});
    }
    // The best fits, simplest readout first on ties (the enumeration order).
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::size_t added = 0;
    for (const auto& [acc, c] : scored) {
      // The best fits only, and only counters that fit most labels.
      if (added == 2 || acc < scored.front().first - 1e-12 || acc < minimum_fit) break;
      const std::uint32_t bits = c.bits + 1;  // d and n
      if (proposed_.contains(c.describe())) continue;
      const auto base = allocate(bits);
      if (!base) return;
      read_spec r = token_reads();
      for (std::uint32_t j = 0; j < bits; ++j) r.bits.push_back({read_bit::source::state, *base + j});
      write_spec w;
      for (std::uint32_t j = 0; j < bits; ++j) w.bits.push_back({*base + j, write_bit::mode::overwrite});
      w.bits.push_back({token_bits_, write_bit::mode::overwrite});  // the answer
      // Deltas: log2(3) bits a token; readout: 2 bits for its kind, plus the
      // threshold k in Elias's gamma code of |k| + 1 and a sign bit, so
      // smaller thresholds are shorter (d >= 0 before d >= -1).
      const double threshold_bits =
          c.readout == counter_readout::at_least || c.readout == counter_readout::equal
              ? 2.0 * std::floor(std::log2(1.0 + static_cast<double>(c.threshold < 0 ? -c.threshold : c.threshold))) + 2
              : 0.0;
      const double bits_named = static_cast<double>(c.delta.size()) * std::log2(3.0) + 2 + threshold_bits;
      if (add_hypothesis(counter, c.describe(), bits_named,
                         counter_circuit(c, static_cast<std::uint32_t>(spec_.vocab_size)), std::move(r), std::move(w),
                         *base, bits, acc))
        ++added;
    }
  }

  // Moore machines: exact identification, then CEGIS on the step circuit.
  void propose_moore() {
    if (hypotheses_.size() >= routing_mask_bits) return;
    // A hypothesis of another family that already fits every training label
    // leaves nothing for a machine to add once one was sought.
    const bool perfect = std::any_of(hypotheses_.begin(), hypotheses_.end(),
                                     [](const hypothesis& h) { return h.train_accuracy == 1.0; });
    if (perfect && moore_tried_at_ != 0) return;
    // Once a machine fits the training set, identify again only when it grew.
    if (moore_tried_at_ == train_.size()) return;
    moore_tried_at_ = train_.size();
    std::vector<labelled_word> words;
    for (const auto& e : train_) {
      labelled_word w;
      w.symbols = e.tokens;
      for (auto l : e.labels) w.labels.push_back(static_cast<std::int8_t>(l < 0 ? -1 : l));
      words.push_back(std::move(w));
    }
    identification_options o;
    o.max_states = static_cast<std::uint32_t>(s_.max_states);
    o.conflict_budget = s_.synthesis_conflicts;
    std::size_t rounds = 0;
    const identification_result r =
        learn_moore(std::span<const labelled_word>(words), static_cast<std::uint32_t>(spec_.vocab_size), o, &rounds);
    budget_.synthesis_sat_calls += r.sat_calls;
    std::uint64_t clauses = 0;
    for (auto c : r.clauses_per_k) clauses += c;
    slow_->spend_synthesis(clauses);
    if (r.status != identification_status::found) return;
    const moore_machine& mm = r.machine;
    std::string description = "moore(" + std::to_string(mm.states) + " states;";
    for (auto x : mm.next) description += ' ' + std::to_string(x);
    description += ";";
    for (auto x : mm.output) description += ' ' + std::to_string(x);
    description += ")";
    const std::uint32_t sb = bits_for(mm.states);
    const auto base = allocate(sb);
    if (!base) return;
    const gate_list step = moore_step_circuit(
        mm.states, mm.alphabet, [&](std::uint32_t s, std::uint32_t a) { return mm.step(s, a); },
        [&](std::uint32_t s) { return mm.output[s] != 0; });
    read_spec rd = token_reads();
    for (std::uint32_t j = 0; j < sb; ++j) rd.bits.push_back({read_bit::source::state, *base + j});
    write_spec w;
    for (std::uint32_t j = 0; j < sb; ++j) w.bits.push_back({*base + j, write_bit::mode::overwrite});
    w.bits.push_back({token_bits_, write_bit::mode::overwrite});
    const double acc = train_accuracy_of([&](const example& e, std::vector<std::int32_t>& out) {
      const auto labels = mm.run(e.tokens);
      out.assign(labels.begin(), labels.end());
    });
    // k states: a successor per (state, symbol) and an output per state.
    const double bits_named = static_cast<double>(mm.states) * mm.alphabet * std::log2(static_cast<double>(std::max(2u, mm.states))) + mm.states;
    if (!add_hypothesis(moore, description, bits_named, step, rd, w, *base, sb, acc)) return;
    superoptimise(hypotheses_.back(), step);
  }

  /// CEGIS over the step circuit's truth table (inputs token + state bits,
  /// outputs next state + answer): a smaller circuit is offered as a
  /// circuit_superopt patch, whose equivalence the slow path proves.
  void superoptimise(const hypothesis& h, const gate_list& step) {
    const std::size_t n = step.inputs(), m = step.outputs();
    if (n > 6 || step.gate_count() <= 1) return;
    const auto spec = prover::truth_table_spec::from_function(n, m, [&](std::uint64_t x) {
      std::vector<bool> in(n);
      for (std::size_t j = 0; j < n; ++j) in[j] = (x >> j) & 1u;
      const auto out = prover::evaluate(step, in);
      std::uint64_t y = 0;
      for (std::size_t k = 0; k < m; ++k) y |= static_cast<std::uint64_t>(out[k]) << k;
      return y;
    });
    prover::hypothesis_class hc;
    hc.max_gates = step.gate_count() - 1;
    prover::cegis_options co;
    co.conflict_budget = s_.synthesis_conflicts;
    const auto r = prover::cegis(spec, hc, co);
    budget_.synthesis_sat_calls += r.iterations;
    if (r.status != prover::cegis_status::found || !r.circuit || r.circuit->gate_count() >= step.gate_count()) return;
    const expert<gate_list>& old = m_->expert_at(h.slot);
    patch<gate_list> p;
    p.kind = patch_class::circuit_superopt;
    p.slot = h.slot;
    p.experts.push_back(expert<gate_list>(old.id(), old.reads(), with_pin(*r.circuit), old.writes(), old.memory()));
    p.origin = "learning_bem:cegis " + h.description;
    slow_->decide(std::move(p));
  }

  // Recall: class outputs; learns the answer's offset from the training set.
  void propose_recall() {
    const std::uint32_t tb = token_bits_;
    const std::uint64_t slots = std::uint64_t{1} << tb;
    const std::uint64_t span = W * slots * (tb + 1);
    if (memory_base + span > K || hypotheses_.size() >= routing_mask_bits) return;
    // What the memory recalls at each labelled position, and the offset
    // (recalled - label) most of them agree on.
    std::map<std::int64_t, std::uint64_t> offsets;
    const auto recall_all = [&](const example& e, auto&& at) {
      std::map<std::uint32_t, std::uint32_t> memory;  // key: previous token -> the token after it
      std::optional<std::uint32_t> prev;
      for (std::size_t t = 0; t < e.tokens.size(); ++t) {
        std::optional<std::uint32_t> recalled;
        if (prev)
          if (const auto it = memory.find(*prev); it != memory.end()) recalled = it->second;
        at(t, recalled);
        if (prev) memory[*prev] = e.tokens[t];
        prev = e.tokens[t];
      }
    };
    const std::int32_t null_class = spec_.num_classes - 1;
    for (const auto& e : train_)
      recall_all(e, [&](std::size_t t, std::optional<std::uint32_t> r) {
        if (e.labels[t] >= 0 && e.labels[t] != null_class && r) ++offsets[static_cast<std::int64_t>(*r) - e.labels[t]];
      });
    if (offsets.empty()) return;
    const std::int64_t offset =
        std::max_element(offsets.begin(), offsets.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
            ->first;
    if (offset < 0) return;
    const std::string description = "recall(offset " + std::to_string(offset) + ")";
    if (proposed_.contains(description)) return;
    const double acc = train_accuracy_of([&](const example& e, std::vector<std::int32_t>& out) {
      out.assign(e.tokens.size(), null_class);
      recall_all(e, [&](std::size_t t, std::optional<std::uint32_t> r) {
        out[t] = r ? static_cast<std::int32_t>(*r) - static_cast<std::int32_t>(offset) : null_class;
      });
    });
    const auto base = allocate(tb);  // the previous token: the memory's key
    if (!base) return;
    memory_port port;
    port.base = memory_base;
    port.slots = static_cast<std::uint32_t>(slots);
    port.slot_bits = tb + 1;
    port.per_lane = true;
    for (std::uint32_t j = 0; j < tb; ++j) port.key_bits.push_back(*base + j);
    port.hash = memory_port::hashing::multiplicative;
    port.salt = mix64(seed_) | 1u;
    read_spec r = token_reads();
    for (std::uint32_t j = 0; j <= tb; ++j) r.bits.push_back({read_bit::source::memory, j});
    write_spec w;
    for (std::uint32_t j = 0; j <= tb; ++j) w.bits.push_back({j, write_bit::mode::overwrite, write_bit::target::memory});
    for (std::uint32_t j = 0; j < tb; ++j) w.bits.push_back({*base + j, write_bit::mode::overwrite});
    for (std::uint32_t j = 0; j < class_bits_; ++j) w.bits.push_back({token_bits_ + j, write_bit::mode::overwrite});
    w.bits.push_back({token_bits_ + class_bits_, write_bit::mode::overwrite});  // NULL flag
    if (add_hypothesis(recall, description, static_cast<double>(tb),
                       recall_circuit(tb, class_bits_, static_cast<std::uint64_t>(offset)), std::move(r), std::move(w),
                       *base, tb, acc, std::move(port)))
      memory_span_ = static_cast<std::size_t>(span);
  }

  struct learning_budget {
    std::uint64_t train_sequences = 0, train_tokens = 0, held_out_sequences = 0;
    std::uint64_t fast_cycles = 0, mid_cycles = 0, slow_cycles = 0;
    std::uint64_t synthesis_sat_calls = 0;
  };

  static learning_bem_parameters defaults() {
    parameters none;
    return read_parameters<learning_bem_parameters>(none);
  }

  learning_bem_parameters s_;
  tasks::task_spec spec_;
  std::uint64_t seed_ = 0;
  std::uint32_t token_bits_ = 1, class_bits_ = 1, prediction_bits_ = 1;
  bool classes_ = false;
  std::size_t next_register_ = 0;
  std::size_t memory_span_ = 0;
  std::unique_ptr<machine_type> m_;
  std::unique_ptr<slow_type> slow_;
  std::vector<hypothesis> hypotheses_;
  std::vector<example> train_;
  std::set<std::string> proposed_;
  std::size_t moore_tried_at_ = 0;
  bool fresh_data_ = false;
  bool learning_ = true;
  std::uint64_t batches_ = 0;
  learning_budget budget_;
};

}  // namespace learn
BEM_NAMESPACE_END
