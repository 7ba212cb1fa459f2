// The BEM of BEM suite sections 5.1 and 5.2: a bem::machine whose experts
// are threshold circuits over the context's bits, proposed by the slow path
// from the logged rewards as verified patches, chosen by the bandit, and
// restructured when a change detector sees the world move.
//
// STATE (N = 32 bits per lane, all W = 64 lanes alike): bits [0, d) hold the
// context X_t (the environment writes them; the observation policy reads
// them as the step's local bits), bits [16, 20) the action the applied
// expert writes. An expert is a policy x -> argmax_a (b_a + sum_j w_a,j x_j)
// with integer weights (bem/circuits/linear_argmax.hpp): the greedy policy
// of a linear model of the rewards, which on these environments
// (mu_a(x) = sigma(w_a . x)) can express the optimal policy exactly, since
// sigma is increasing.
//
// The experts are an ensemble (Lu and Van Roy, "Ensemble Sampling", 2017):
// member m keeps, per action a, a ridge fit theta_m,a = A_a^-1 (b_m,a +
// lambda theta0_m,a) where A_a = lambda I + sum z z^T over the rounds that
// took a (shared), b_m,a = sum (r + sigma eps_m,t) z (its own perturbed
// rewards, eps standard normal) and theta0_m,a ~ N(0, sigma^2 / lambda I)
// its prior sample. Each round the machine samples one member (the
// machine's sampling mode: probability proportional to exp(z_i + score_i),
// z the mid path's log-weights, score UCB1 on the member's rewards) and the
// member's circuit decides: choosing a member at random is ensemble
// sampling's exploration, and the log-weights steer the choice toward
// members that earned more (STATS_UPDATE credits the reward to every member
// whose policy takes the same action at that context, EXP4-style, so learn
// does not depend on which member chose).
//
// Slow path (bem/machine/slow_path.hpp). Refits happen after 16, 32, 64, ...
// rounds from a (re)start, then every `refit_every`: each member's weights
// are quantised to `weight_bits` bits (scaled by its largest weight: argmax
// does not change under a positive scale) and, where they changed, submitted
// as macro_refine of the member's slot with the domain `false`: a refit
// promises no behaviour (it is learning), only what BAD states: the written
// action lies in [0, K) (BAD = the action bits >= K, over STATE bits
// [16, 20)), checked by bad_reach and consecution through SAT_CHECK. PoX does
// not gate refits (difficulty -1e9): the bandit judges them.
//
// Change detection (5.2): a two-sided CUSUM per action on the residuals
// r - mu_hat_a(x) of the unperturbed ridge fit (allowance `change_drift`,
// alarm at `change_threshold`, running once `change_warmup` rounds followed
// the last start and the action has 30 rounds; per action, because a change
// that leaves the usual action's mean alone shows only in the rarely taken
// ones, whose residuals a shared statistic would drown). An alarm triggers
// the structural updates: the statistics restart from the rounds since the
// alarming CUSUM's estimated change point (the last round it was 0, from a ring
// buffer of 8,192 rounds), every member is split in two (expert_split on the
// domains x_0 = 0 and x_0 = 1, each child equal to its parent: verified by
// equivalence, consecution and bad_reach) up to `max_ensemble` members, and
// all are refitted (macro_refine): more members while the posterior is wide.
// After `merge_after` rounds without an alarm the members beyond `ensemble`
// merge back: each is refitted to its partner's circuit and retired by
// expert_merge (equivalence on the whole domain). Every accepted patch is an
// event (round, class): the records count them by type and per change.
//
// Determinism: the perturbations come from the policy's xoshiro256**
// (normals as the Irwin-Hall sum of 12 uniforms minus 6: no libm), and
// every patch decision from learn calls alone, so law 3 holds (tested) and
// a seed gives the same actions everywhere up to the double arithmetic of
// the ridge fits (-ffp-contract=off in the plugin).
#pragma once

#include <bem/circuits/linear_argmax.hpp>
#include <bem/learn/bandit_policy.hpp>
#include <bem/machine/machine.hpp>
#include <bem/machine/observation.hpp>
#include <bem/machine/slow_path.hpp>
#include <bem/prng.hpp>
#include <bem/route/exact_router.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

struct bem_bandit_machine_policies : default_machine_policies {
  using router = exact_router;  // every member is a candidate: the ensemble is small
};

class bem_bandit_policy {
 public:
  static constexpr const char* name = "bem";
  static constexpr bool learns = true;
  static constexpr std::size_t state_bits = 32;
  static constexpr std::uint32_t action_base = 16;  ///< STATE bits [16, 20): the action
  static constexpr int action_bits = 4;
  static constexpr std::size_t buffer_rounds = 8192;
  using machine_type = machine<state_bits, 64, 64, bem_bandit_machine_policies>;
  using slow_type = slow_path<machine_type>;

  /// An accepted structural patch and the round (1-based learn call) that caused it.
  struct structural_event {
    std::uint64_t round = 0;
    patch_class kind = patch_class::macro_refine;
    std::uint64_t verification_cycles = 0;  ///< its VC's SAT calls (TSC ticks)
  };

  bem_bandit_policy(const bandit_shape& s, const bandit_policy_settings& p, std::uint64_t seed)
      : shape_(checked(s, p)), p_(p), rng_(derive_seed(seed, fnv1a64("bem bandit perturbations"))),
        m_(std::make_unique<machine_type>(config(s, p, seed), exact_router{}, observation(s))),
        slow_(std::make_unique<slow_type>(*m_, slow_config(), program(s.actions))), features_(dim()),
        inverse_(static_cast<std::size_t>(s.actions) * dim() * dim(), 0.0),
        mean_b_(static_cast<std::size_t>(s.actions) * dim(), 0.0), pulls_(static_cast<std::size_t>(s.actions), 0) {
    reset_inverse();
    for (int i = 0; i < p.ensemble; ++i) {
      member mem = new_member();
      mem.scores = fit(mem);
      mem.slot = m_->add_expert(expert_of(mem.scores, next_identifier()));
      members_.push_back(std::move(mem));
    }
  }

  int choose(std::uint32_t x) {
    auto& st = m_->state_words();
    for (int j = 0; j < shape_.d; ++j)
      st[static_cast<std::size_t>(j)] = machine_type::word_type::broadcast(((x >> j) & 1u) ? ~std::uint64_t{0} : 0);
    const auto chosen = m_->step();
    int a = 0;
    for (int b = 0; b < action_bits; ++b) a |= static_cast<int>(st.bit(action_base + static_cast<std::size_t>(b), 0)) << b;
    if (chosen.size() != 1 || a >= shape_.actions)
      throw std::logic_error("bem_bandit_policy: the applied expert wrote no valid action");
    return a;
  }

  void learn(std::uint32_t x, int a, double r) {
    ++round_;
    detail::bandit_features(x, shape_.d, features_.data());
    // Credit every member whose policy takes a at x (EXP4-style).
    for (const member& mem : members_)
      if (mem.scores.best(x) == a) m_->reward(0, mem.slot, r);
    slow_->on_step();
    const bool alarm = detect(a, r);
    add_round(x, a, r);
    buffer_[static_cast<std::size_t>((round_ - 1) % buffer_rounds)] = {x, static_cast<std::uint8_t>(a), r};
    if (round_ % static_cast<std::uint64_t>(p_.mid_path_every) == 0) m_->mid_path_update();
    if (alarm) {
      restructure_after_change();
    } else if (round_ >= next_refit_) {
      refit_all();
      schedule_refit();
    }
    if (members_.size() > static_cast<std::size_t>(p_.ensemble) && round_ - last_start_ >= static_cast<std::uint64_t>(p_.merge_after))
      merge_extras();
  }

  // ---- what the records read ----------------------------------------------
  const machine_type& bem() const noexcept { return *m_; }
  slow_type& slow() noexcept { return *slow_; }
  const slow_type& slow() const noexcept { return *slow_; }
  const std::vector<structural_event>& structural_events() const noexcept { return events_; }
  /// Rounds at which the change detector fired.
  const std::vector<std::uint64_t>& alarms() const noexcept { return alarms_; }
  std::size_t members() const noexcept { return members_.size(); }
  /// Member i's integer scores (its circuit computes their argmax).
  const linear_scores& member_scores(std::size_t i) const { return members_.at(i).scores; }
  std::uint32_t member_slot(std::size_t i) const { return members_.at(i).slot; }
  /// The expert a refit of member `i` to `scores` would submit (tests build unsafe variants from it).
  machine_type::expert_type member_expert(std::size_t i, const linear_scores& scores) const {
    return expert_of(scores, m_->expert_at(members_.at(i).slot).id());
  }
  /// The largest number of gates of a member's circuit so far.
  std::size_t max_gates_seen() const noexcept { return max_gates_seen_; }

 private:
  struct member {
    std::uint32_t slot = 0;
    std::vector<double> b;       ///< b_m,a, K x (d + 1)
    std::vector<double> prior;   ///< theta0_m,a
    linear_scores scores;
  };
  struct logged_round {
    std::uint32_t x = 0;
    std::uint8_t a = 0;
    double r = 0;
  };

  std::size_t dim() const noexcept { return static_cast<std::size_t>(shape_.d + 1); }

  static bandit_shape checked(const bandit_shape& s, const bandit_policy_settings& p) {
    detail::check_bandit_shape(s, "bem_bandit_policy");
    const auto need = [](bool ok, const char* what) {
      if (!ok) throw std::invalid_argument(std::string("bem_bandit_policy: ") + what);
    };
    need(p.mid_path_every >= 1, "mid_path_every must be >= 1");
    need(p.ensemble >= 1 && p.max_ensemble >= p.ensemble && p.max_ensemble <= 64,
         "need 1 <= ensemble <= max_ensemble <= 64");
    need(p.perturbation >= 0 && std::isfinite(p.perturbation), "perturbation must be finite and >= 0");
    need(p.prior_precision > 0 && std::isfinite(p.prior_precision), "prior_precision must be finite and > 0");
    need(p.refit_every >= 1, "refit_every must be >= 1");
    need(p.weight_bits >= 2 && p.weight_bits <= 16, "weight_bits must lie in [2, 16]");
    need(p.change_drift >= 0 && std::isfinite(p.change_drift), "change_drift must be finite and >= 0");
    need(p.change_threshold > 0, "change_threshold must be > 0 (infinity turns detection off)");
    need(p.change_warmup >= 0 && p.merge_after >= 1, "change_warmup must be >= 0 and merge_after >= 1");
    need(p.c_explore >= 0 && std::isfinite(p.c_explore), "c_explore must be finite and >= 0");
    return s;
  }

  static machine_config config(const bandit_shape&, const bandit_policy_settings& p, std::uint64_t seed) {
    machine_config c;
    c.tasks = 1;
    // Slots are never reused: the initial members, two per split, none per refit or merge.
    c.max_experts = 4096;
    c.max_gates = std::size_t{1} << 16;
    c.k_large = static_cast<std::size_t>(p.max_ensemble);
    c.k_small = 1;
    c.sample = true;
    c.ucb.c_explore = p.c_explore;
    c.seed = seed;
    return c;
  }
  static field_observation observation(const bandit_shape& s) {
    field_observation o;
    o.local_offset = 0;
    o.local_bits = static_cast<std::uint32_t>(s.d);
    return o;
  }
  static slow_path_config slow_config() {
    slow_path_config c;
    c.pox.difficulty = -1e9;  // the bandit judges a refit, not PoX
    c.proposal_budget_per_million = 1000000;
    c.apply_budget_per_million = 1000000;
    return c;
  }
  /// BAD: the action bits read a number >= K.
  static verified_program program(int actions) {
    // v >= c over bits i..0, most significant first.
    std::function<state_predicate(int, int)> at_least = [&](int i, int c) -> state_predicate {
      if (i < 0) return state_predicate::constant(true);
      const state_predicate b = state_predicate::bit(action_base + static_cast<std::uint32_t>(i));
      return ((c >> i) & 1) ? (b && at_least(i - 1, c)) : (b || at_least(i - 1, c));
    };
    verified_program v;
    v.bad = actions >= (1 << action_bits) ? state_predicate::constant(false) : at_least(action_bits - 1, actions);
    return v;
  }

  identifier next_identifier() {
    const auto n = static_cast<std::uint32_t>(identifiers_++);
    return make_checked_identifier(1, n % 64, static_cast<std::uint32_t>(mix64(0xBA4D17 ^ n) & 0x3FFF));
  }

  machine_type::expert_type expert_of(const linear_scores& s, identifier id) const {
    gate_list g = linear_argmax_circuit(s, action_bits);
    read_spec r;
    for (int j = 0; j < shape_.d; ++j) r.bits.push_back({read_bit::source::state, static_cast<std::uint32_t>(j)});
    write_spec w;
    for (int b = 0; b < action_bits; ++b) w.bits.push_back({action_base + static_cast<std::uint32_t>(b), write_bit::mode::overwrite});
    max_gates_seen_ = std::max(max_gates_seen_, g.gate_count());
    return {id, std::move(r), std::move(g), std::move(w)};
  }

  double normal() {  // Irwin-Hall: exact arithmetic, the same on every machine
    double s = 0;
    for (int i = 0; i < 12; ++i) s += rng_.uniform01();
    return s - 6.0;
  }

  member new_member() {
    member mem;
    const std::size_t n = static_cast<std::size_t>(shape_.actions) * dim();
    mem.b.assign(n, 0.0);
    mem.prior.resize(n);
    const double sd = p_.perturbation / std::sqrt(p_.prior_precision);
    for (double& v : mem.prior) v = sd * normal();
    return mem;
  }

  double* inverse(int a) noexcept { return &inverse_[static_cast<std::size_t>(a) * dim() * dim()]; }
  void reset_inverse() {
    std::fill(inverse_.begin(), inverse_.end(), 0.0);
    std::fill(mean_b_.begin(), mean_b_.end(), 0.0);
    std::fill(pulls_.begin(), pulls_.end(), 0);
    for (int a = 0; a < shape_.actions; ++a)
      for (std::size_t i = 0; i < dim(); ++i) inverse(a)[i * dim() + i] = 1.0 / p_.prior_precision;
    for (member& mem : members_) std::fill(mem.b.begin(), mem.b.end(), 0.0);
  }

  /// The ridge statistics and every member's perturbed sums take round (x, a, r).
  void add_round(std::uint32_t x, int a, double r) {
    detail::bandit_features(x, shape_.d, features_.data());
    const std::size_t n = dim();
    scratch_.resize(n);
    detail::sherman_morrison_add(inverse(a), features_.data(), n, scratch_.data());
    const std::size_t base = static_cast<std::size_t>(a) * n;
    for (std::size_t i = 0; i < n; ++i) mean_b_[base + i] += r * features_[i];
    for (member& mem : members_) {
      const double target = r + p_.perturbation * normal();
      for (std::size_t i = 0; i < n; ++i) mem.b[base + i] += target * features_[i];
    }
    ++pulls_[static_cast<std::size_t>(a)];
  }

  /// CUSUM on the residual of this round; true on an alarm.
  bool detect(int a, double r) {
    if (round_ - last_start_ <= static_cast<std::uint64_t>(p_.change_warmup) || pulls_[static_cast<std::size_t>(a)] < 30)
      return false;
    const std::size_t n = dim();
    const double* m = inverse(a);
    const std::size_t base = static_cast<std::size_t>(a) * n;
    double mu = 0;  // theta_hat . z = b . (A^-1 z)
    for (std::size_t i = 0; i < n; ++i) {
      double row = 0;
      for (std::size_t j = 0; j < n; ++j) row += m[i * n + j] * features_[j];
      mu += mean_b_[base + i] * row;
    }
    const double e = r - std::clamp(mu, 0.0, 1.0);
    cusum& c = cusums_[static_cast<std::size_t>(a)];
    c.up = std::max(0.0, c.up + e - p_.change_drift);
    c.down = std::max(0.0, c.down - e - p_.change_drift);
    if (c.up == 0) c.up_zero = round_;
    if (c.down == 0) c.down_zero = round_;
    if (c.up > p_.change_threshold) change_start_ = c.up_zero;
    else if (c.down > p_.change_threshold) change_start_ = c.down_zero;
    else return false;
    return true;
  }

  linear_scores fit(const member& mem) const {
    const std::size_t n = dim();
    std::vector<double> theta(static_cast<std::size_t>(shape_.actions) * n);
    double largest = 0;
    for (int a = 0; a < shape_.actions; ++a) {
      const double* m = &inverse_[static_cast<std::size_t>(a) * n * n];
      const std::size_t base = static_cast<std::size_t>(a) * n;
      for (std::size_t i = 0; i < n; ++i) {
        double v = 0;
        for (std::size_t j = 0; j < n; ++j) v += m[i * n + j] * (mem.b[base + j] + p_.prior_precision * mem.prior[base + j]);
        theta[base + i] = v;
        largest = std::max(largest, std::fabs(v));
      }
    }
    linear_scores s{shape_.d, shape_.actions, std::vector<std::int32_t>(theta.size(), 0)};
    if (largest > 0) {
      const double scale = static_cast<double>((1 << (p_.weight_bits - 1)) - 1) / largest;
      for (std::size_t i = 0; i < theta.size(); ++i) s.weights[i] = static_cast<std::int32_t>(std::lround(theta[i] * scale));
    }
    return s;
  }

  bool submit(patch<gate_list> p, std::uint64_t round) {
    const patch_class kind = p.kind;
    const patch_record& r = slow_->decide(std::move(p));
    if (r.state != patch_state::accepted) return false;
    events_.push_back({round, kind, r.verification_cycles});
    return true;
  }

  void refit(member& mem) {
    linear_scores s = fit(mem);
    if (s.weights == mem.scores.weights) return;
    patch<gate_list> p;
    p.kind = patch_class::macro_refine;
    p.slot = mem.slot;
    p.experts.push_back(expert_of(s, m_->expert_at(mem.slot).id()));
    p.domains.push_back(state_predicate::constant(false));
    p.origin = "bem_bandit:refit";
    if (submit(std::move(p), round_)) mem.scores = std::move(s);
  }
  void refit_all() {
    for (member& mem : members_) refit(mem);
  }
  void schedule_refit() {
    period_ = std::min<std::uint64_t>(period_ * 2, static_cast<std::uint64_t>(p_.refit_every));
    next_refit_ = round_ + period_;
  }

  /// The alarm's structural updates (file comment).
  void restructure_after_change() {
    alarms_.push_back(round_);
    const std::uint64_t start = std::max(change_start_,
                                         round_ > buffer_rounds ? round_ - buffer_rounds : 0);
    last_start_ = round_;
    for (cusum& c : cusums_) c = {0, 0, round_, round_};
    // Split: each member in two, children equal to the parent on x_0 = 0 and x_0 = 1.
    const std::size_t before = members_.size();
    for (std::size_t i = 0; i < before && members_.size() < static_cast<std::size_t>(p_.max_ensemble); ++i) {
      if (m_->slot_count() + 2 > m_->config().max_experts) break;
      member& parent = members_[i];
      patch<gate_list> p;
      p.kind = patch_class::expert_split;
      p.slot = parent.slot;
      p.experts.push_back(expert_of(parent.scores, next_identifier()));
      p.experts.push_back(expert_of(parent.scores, next_identifier()));
      p.domains.push_back(!state_predicate::bit(0));
      p.domains.push_back(state_predicate::bit(0));
      p.origin = "bem_bandit:change";
      const identifier first = p.experts[0].id(), second = p.experts[1].id();
      if (!submit(std::move(p), round_)) continue;
      member child = new_member();
      child.scores = members_[i].scores;
      child.slot = *m_->slot_of(second);
      members_[i].slot = *m_->slot_of(first);
      members_.push_back(std::move(child));
    }
    // The statistics restart from the rounds since the estimated change point.
    reset_inverse();
    for (std::uint64_t t = start + 1; t <= round_; ++t) {
      const logged_round& lr = buffer_[static_cast<std::size_t>((t - 1) % buffer_rounds)];
      add_round(lr.x, lr.a, lr.r);
    }
    refit_all();
    period_ = 8;
    schedule_refit();
  }

  /// Members beyond `ensemble` take their partner's circuit and merge into it.
  void merge_extras() {
    while (members_.size() > static_cast<std::size_t>(p_.ensemble)) {
      member& extra = members_.back();
      const member& partner = members_[(members_.size() - 1) % static_cast<std::size_t>(p_.ensemble)];
      if (extra.scores.weights != partner.scores.weights) {
        patch<gate_list> p;
        p.kind = patch_class::macro_refine;
        p.slot = extra.slot;
        p.experts.push_back(expert_of(partner.scores, m_->expert_at(extra.slot).id()));
        p.domains.push_back(state_predicate::constant(false));
        p.origin = "bem_bandit:merge";
        if (!submit(std::move(p), round_)) return;
        extra.scores = partner.scores;
      }
      patch<gate_list> p;
      p.kind = patch_class::expert_merge;
      p.slot = partner.slot;
      p.other_slot = extra.slot;
      p.domains.push_back(state_predicate::constant(true));
      p.origin = "bem_bandit:merge";
      if (!submit(std::move(p), round_)) return;
      members_.pop_back();
    }
  }

  bandit_shape shape_;
  bandit_policy_settings p_;
  xoshiro256ss rng_;
  std::unique_ptr<machine_type> m_;
  std::unique_ptr<slow_type> slow_;
  std::vector<double> features_, inverse_, mean_b_, scratch_;
  std::vector<std::uint64_t> pulls_;
  std::vector<member> members_;
  std::vector<logged_round> buffer_ = std::vector<logged_round>(buffer_rounds);
  std::vector<structural_event> events_;
  std::vector<std::uint64_t> alarms_;
  std::uint64_t round_ = 0, last_start_ = 0, next_refit_ = 16, period_ = 16, identifiers_ = 0;
  /// A two-sided CUSUM per action, with the last rounds its sides were 0.
  struct cusum {
    double up = 0, down = 0;
    std::uint64_t up_zero = 0, down_zero = 0;
  };
  std::vector<cusum> cusums_ = std::vector<cusum>(16);
  std::uint64_t change_start_ = 0;
  mutable std::size_t max_gates_seen_ = 0;
};

BEM_NAMESPACE_END
