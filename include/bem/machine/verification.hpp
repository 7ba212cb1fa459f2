// Verification conditions of the slow path, decided by SAT_CHECK. Initiation
// and safety are deltas of an incremental context (bem/prover/incremental.hpp)
// whose base CNF holds the definitions of the current annotation; every
// other obligation is checked alone, in a solver of its own (check_alone),
// after consecution, bad_reach and equivalence have been evaluated on the
// states of earlier counterexamples (refute_on_pool: only refutes).
//
// What is encoded, for one lane (lanes are independent: experts are
// bit-sliced and every predicate speaks of one lane):
//   state        s_i, the lane's state bit i before a step (a variable per
//                bit some formula reads);
//   an expert    T_e(s, s'): its read spec gathers x from s and from free
//                variables for SHARED and memory-slot bits (SHARED is not
//                constrained: any value), its circuit (as a gate list:
//                bem/circuits/convert.hpp) is Tseitin-encoded, and its
//                state writes give s' in order (overwrite: s'_i = y_k;
//                xor: s'_i = (value so far) ^ y_k); bits it does not write
//                keep s_i. SHARED, Theta and memory writes do not touch
//                STATE and are outside these conditions.
//   the CFG      locations u with a guard at_u (where the machine is) and an
//                annotation P_u; every live expert is an edge out of every
//                location (the router may choose any of them at any step).
//                The default CFG is one location, guard true, annotated with
//                the conjunction of the invariants.
// Obligations (each a SAT query that must be UNSAT; SAT gives a
// counterexample, the lane's state bits in the model):
//   equivalence   D(s) and s'_a != s'_b on some state bit: two experts (or
//                 an expert and a composition of experts, run in sequence)
//                 differ on the domain D; their SHARED, Theta and memory
//                 writes must be the same descriptors (checked first);
//   consecution   at_u(s) and P_u(s) and T_e(s, s') and, for some v,
//                 at_v(s') and not P_v(s'): P_u => WP(e, P_v) fails on an
//                 edge (Hoare consistency);
//   bad_reach     at_u(s) and P_u(s) and T_e(s, s') and BAD(s'): a BAD state
//                 one step from an annotated state (newly reachable BAD);
//   initiation    Init(s) and at_u(s) and not P_u(s);
//   safety        at_u(s) and P_u(s) and BAD(s);
//   implication   P_new(s) and not P_old(s) (a strengthening must imply
//                 what it replaces);
//   index         some 32-bit identifier is in the expert table and not in
//                 the routing index or the other way round (ann_reindex);
//   meta_bounds   the routing meta's bounds and the fast-path cost bound fail
//                 for the proposed values (route_meta_update): 1 <= k_small
//                 <= 4, k_small <= k_large <= 256, and k_large * 1 +
//                 k_small * G_max <= fast_path_budget, in 32-bit arithmetic.
// Limits (§1.3 item 7, "SAT/Hoare constraints"): a delta above n_max
// variables or m_max clauses is not checked (answer limit_exceeded), and
// every SAT_CHECK has a conflict budget (UNKNOWN when it runs out).
#pragma once

#include <bem/circuits/convert.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/jit.hpp>
#include <bem/machine/expert.hpp>
#include <bem/machine/identifier.hpp>
#include <bem/machine/predicate.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/prover/bitblast.hpp>
#include <bem/prover/cegis.hpp>
#include <bem/prover/cnf.hpp>
#include <bem/prover/incremental.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN

/// The kinds of obligation (file comment).
enum class vc_kind : std::uint8_t { equivalence, consecution, bad_reach, initiation, safety, implication, index, meta_bounds };

constexpr const char* to_string(vc_kind k) noexcept {
  switch (k) {
    case vc_kind::equivalence: return "equivalence";
    case vc_kind::consecution: return "consecution";
    case vc_kind::bad_reach: return "bad_reach";
    case vc_kind::initiation: return "initiation";
    case vc_kind::safety: return "safety";
    case vc_kind::implication: return "implication";
    case vc_kind::index: return "index";
    case vc_kind::meta_bounds: return "meta_bounds";
  }
  return "?";
}

/// The answer to one obligation.
enum class vc_answer : std::uint8_t { holds, fails, unknown, limit_exceeded, not_applicable };

constexpr const char* to_string(vc_answer a) noexcept {
  switch (a) {
    case vc_answer::holds: return "holds";
    case vc_answer::fails: return "fails";
    case vc_answer::unknown: return "unknown";
    case vc_answer::limit_exceeded: return "limit_exceeded";
    case vc_answer::not_applicable: return "not_applicable";
  }
  return "?";
}

/// SAT/Hoare limits (§1.3 item 7).
struct vc_limits {
  int n_max = 1 << 18;               ///< variables per VC (base plus delta; an obligation checked alone: its own)
  std::size_t m_max = 1u << 21;      ///< clauses per delta
  std::int64_t conflicts = 200000;   ///< conflict budget per SAT_CHECK (< 0: none)
  std::uint32_t fast_path_budget = 1u << 16;  ///< meta_bounds: k_large + k_small * G_max must not exceed it
};

/// One obligation's outcome.
struct vc_report {
  vc_kind kind = vc_kind::equivalence;
  vc_answer answer = vc_answer::not_applicable;
  std::string what;  ///< which edge, location or expert; and why, when it fails
  /// SAT: the counterexample's state bits (index, value), ascending.
  std::vector<std::pair<std::uint32_t, bool>> counterexample;
  int variables = 0;
  std::size_t clauses = 0;
  std::uint64_t sat_calls = 0;
  std::uint64_t cycles = 0;  ///< TSC ticks (or steady_clock ns: bem/platform/cycles.hpp) in SAT_CHECK or simulation
  bool by_simulation = false;  ///< refuted on a state of earlier counterexamples, without SAT (refute_on_pool)
};

/// A CFG location: where the machine is (guard) and what holds there.
struct cfg_location {
  std::string name;
  state_predicate at;          ///< guard
  state_predicate annotation;  ///< P_u
  friend bool operator==(const cfg_location&, const cfg_location&) = default;
};

/// The verification part of the structural configuration: the CFG's
/// locations, BAD and the initial condition.
struct verified_program {
  std::vector<cfg_location> locations{{"any", state_predicate{}, state_predicate{}}};
  state_predicate bad = state_predicate::constant(false);
  state_predicate init = state_predicate{};
  friend bool operator==(const verified_program&, const verified_program&) = default;
};

namespace detail {

/// The gate list of a circuit the verifier can encode.
template <class C>
gate_list verifiable_gate_list(const C& c) {
  if constexpr (std::is_same_v<C, gate_list>) return c;
  else if constexpr (requires { c.source(); }) return c.source();  // jit_circuit
  else return to_gate_list(c);                                     // ANF, ROBDD
}

/// Literals for one lane's state bits, made on demand.
class lane_vars {
 public:
  explicit lane_vars(prover::bit_blaster& bb) : bb_(&bb) {}
  int operator()(std::uint32_t i) {
    auto [it, fresh] = lits_.try_emplace(i, 0);
    if (fresh) it->second = bb_->fresh();
    return it->second;
  }
  const std::map<std::uint32_t, int>& made() const noexcept { return lits_; }
  void rebind(prover::bit_blaster& bb) noexcept { bb_ = &bb; }

 private:
  prover::bit_blaster* bb_;
  std::map<std::uint32_t, int> lits_;
};

/// A lane's state after a step: written bits, else the bits before.
struct next_state {
  lane_vars* before = nullptr;
  std::map<std::uint32_t, int> written;
  int operator()(std::uint32_t i) const {
    const auto it = written.find(i);
    return it != written.end() ? it->second : (*before)(i);
  }
};

/// T_e from the state `from`; SHARED and memory reads are free variables
/// (the same variable for the same bit within one call's `free`).
template <class C>
next_state encode_expert(prover::bit_blaster& bb, const expert<C>& e, const std::function<int(std::uint32_t)>& from,
                         lane_vars& before, std::map<std::pair<int, std::uint32_t>, int>& free) {
  std::vector<int> x;
  for (const read_bit& r : e.reads().bits) {
    if (r.from == read_bit::source::state) {
      x.push_back(from(r.index));
    } else {
      auto [it, fresh] = free.try_emplace({static_cast<int>(r.from), r.index}, 0);
      if (fresh) it->second = bb.fresh();
      x.push_back(it->second);
    }
  }
  const std::vector<int> y = prover::encode_gate_list(bb, verifiable_gate_list(e.circuit()), x);
  next_state s{&before, {}};
  for (std::size_t k = 0; k < y.size(); ++k) {
    const write_bit& w = e.writes().bits[k];
    if (w.to != write_bit::target::state) continue;
    const auto it = s.written.find(w.index);
    const int so_far = it != s.written.end() ? it->second : from(w.index);
    s.written[w.index] = w.how == write_bit::mode::overwrite ? y[k] : bb.xor_(so_far, y[k]);
  }
  return s;
}

/// The non-STATE writes of an expert, for the equivalence precondition.
template <class C>
std::vector<write_bit> non_state_writes(const expert<C>& e) {
  std::vector<write_bit> out;
  for (const auto& w : e.writes().bits)
    if (w.to != write_bit::target::state) out.push_back(w);
  return out;
}

/// Up to 64 concrete lane states, one per bit of a word: bit j of word(i) is
/// state j's bit i. A bit no state sets is 0, so an unused slot is the
/// all-zero state (a state like any other).
class state_pool {
 public:
  std::uint64_t word(std::uint32_t i) const {
    const auto it = words_.find(i);
    return it == words_.end() ? 0 : it->second;
  }
  /// Adds a state (its bits not given are 0) in place of the oldest.
  void add(const std::vector<std::pair<std::uint32_t, bool>>& bits) {
    const std::uint64_t m = std::uint64_t{1} << next_;
    for (auto& [i, w] : words_) w &= ~m;
    for (const auto& [i, v] : bits)
      if (v) words_[i] |= m;
    next_ = (next_ + 1) % 64;
  }
  /// State j's bits among `which`, ascending.
  std::vector<std::pair<std::uint32_t, bool>> state(unsigned j, const std::set<std::uint32_t>& which) const {
    std::vector<std::pair<std::uint32_t, bool>> out;
    for (const std::uint32_t i : which) out.emplace_back(i, ((word(i) >> j) & 1) != 0);
    return out;
  }

 private:
  std::map<std::uint32_t, std::uint64_t> words_;
  unsigned next_ = 0;
};

using state_words = std::function<std::uint64_t(std::uint32_t)>;

/// encode_expert's T_e evaluated on 64 states at once: the state bits it
/// writes (the others keep `from`'s). SHARED and memory reads are free in
/// the encoding; 0 is one of their values.
template <class C>
std::map<std::uint32_t, std::uint64_t> simulate_expert(const expert<C>& e, const state_words& from) {
  std::vector<std::uint64_t> x;
  for (const read_bit& r : e.reads().bits) x.push_back(r.from == read_bit::source::state ? from(r.index) : 0);
  const gate_list g = verifiable_gate_list(e.circuit());
  std::vector<std::uint64_t> y(g.outputs()), scratch(g.scratch_size());
  g.evaluate_reference<std::uint64_t>(x, y, scratch);
  std::map<std::uint32_t, std::uint64_t> written;
  for (std::size_t k = 0; k < y.size(); ++k) {
    const write_bit& w = e.writes().bits[k];
    if (w.to != write_bit::target::state) continue;
    const auto it = written.find(w.index);
    const std::uint64_t so_far = it != written.end() ? it->second : from(w.index);
    written[w.index] = w.how == write_bit::mode::overwrite ? y[k] : so_far ^ y[k];
  }
  return written;
}

/// The state after a simulated step: written bits, else `before`'s.
inline state_words after_step(std::map<std::uint32_t, std::uint64_t> written, state_words before) {
  return [written = std::move(written), before = std::move(before)](std::uint32_t i) {
    const auto it = written.find(i);
    return it != written.end() ? it->second : before(i);
  };
}

}  // namespace detail

/// Decides the obligations for one annotation (`verified_program`) with back
/// end B, on circuits of type C. Cheap obligations that need no annotation
/// (equivalence, implication, index, meta_bounds) use the same context.
template <class B, class C>
class vc_engine {
 public:
  vc_engine(verified_program program, vc_limits limits)
      : program_(std::move(program)), limits_(limits), vars_(base_) {
    // Base: the definitions of at_u, P_u, BAD and Init over s (Tseitin
    // equivalences: they constrain nothing by themselves).
    for (const auto& loc : program_.locations)
      base_lits_.push_back({loc.at.encode(base_, vars_fn()), loc.annotation.encode(base_, vars_fn())});
    bad_now_ = program_.bad.encode(base_, vars_fn());
    init_ = program_.init.encode(base_, vars_fn());
    base_clauses_ = base_.formula().size();
    context_ = std::make_unique<prover::incremental_context<B>>(base_.formula(), limits_.n_max);
    context_->set_conflict_budget(limits_.conflicts);
  }

  const verified_program& program() const noexcept { return program_; }
  const vc_limits& limits() const noexcept { return limits_; }

  /// consecution of expert e on every location: P_u => WP(e, P_v).
  vc_report consecution(const expert<C>& e) {
    // Every annotation `true`: P_v holds after any step, so no SAT call.
    if (std::all_of(program_.locations.begin(), program_.locations.end(),
                    [](const cfg_location& l) { return l.annotation.is_constant(true); }))
      return vacuous(vc_kind::consecution, "every annotation is true");
    const std::string what = "edge of expert " + std::to_string(e.id());
    if (auto r = refute_on_pool(vc_kind::consecution, what, [&](const detail::state_words& s) {
          const detail::state_words t = detail::after_step(detail::simulate_expert(e, s), s);
          std::uint64_t after = 0;
          for (const auto& loc : program_.locations) after |= loc.at.eval_words(t) & ~loc.annotation.eval_words(t);
          return annotated_words(s) & after;
        }))
      return *r;
    return check_alone(vc_kind::consecution, what,
                       [&](prover::bit_blaster& bb, detail::lane_vars& s) {
                         std::map<std::pair<int, std::uint32_t>, int> free;
                         const detail::next_state t = detail::encode_expert(bb, e, s_fn(s), s, free);
                         const std::function<int(std::uint32_t)> next = [&t](std::uint32_t i) { return t(i); };
                         std::vector<int> after;  // at_v(s') and not P_v(s'), some v
                         for (const auto& loc : program_.locations)
                           after.push_back(bb.and_(loc.at.encode(bb, next), -loc.annotation.encode(bb, next)));
                         const int before = annotated(bb, s_fn(s));
                         return bb.and_(before, bb.or_all(after));
                       });
  }

  /// bad_reach: a BAD state one step from an annotated state through e.
  vc_report bad_reach(const expert<C>& e) {
    const std::string what = "BAD after expert " + std::to_string(e.id());
    if (auto r = refute_on_pool(vc_kind::bad_reach, what, [&](const detail::state_words& s) {
          return annotated_words(s) & program_.bad.eval_words(detail::after_step(detail::simulate_expert(e, s), s));
        }))
      return *r;
    return check_alone(vc_kind::bad_reach, what,
                       [&](prover::bit_blaster& bb, detail::lane_vars& s) {
                         std::map<std::pair<int, std::uint32_t>, int> free;
                         const detail::next_state t = detail::encode_expert(bb, e, s_fn(s), s, free);
                         const int before = annotated(bb, s_fn(s));
                         return bb.and_(before, program_.bad.encode(bb, [&t](std::uint32_t i) { return t(i); }));
                       });
  }

  /// initiation: Init => P_u wherever at_u.
  vc_report initiation() {
    return check(vc_kind::initiation, "initial condition", [&](prover::bit_blaster& bb, detail::lane_vars&) {
      std::vector<int> v;
      for (const auto& u : base_lits_) v.push_back(bb.and_(u.at, -u.p));
      return bb.and_(init_, bb.or_all(v));
    });
  }

  /// safety: no annotated state is BAD.
  vc_report safety() {
    return check(vc_kind::safety, "annotations exclude BAD", [&](prover::bit_blaster& bb, detail::lane_vars&) {
      std::vector<int> v;
      for (const auto& u : base_lits_) v.push_back(bb.and_(u.at, u.p));
      return bb.and_(bb.or_all(v), bad_now_);
    });
  }

  /// implication: P_new => P_old.
  vc_report implication(const state_predicate& p_new, const state_predicate& p_old) {
    return check_alone(vc_kind::implication, "new invariant implies the old one",
                 [&](prover::bit_blaster& bb, detail::lane_vars& s) {
                   return bb.and_(p_new.encode(bb, s_fn(s)), -p_old.encode(bb, s_fn(s)));
                 });
  }

  /// equivalence of two experts' effects on the domain D.
  vc_report equivalence(const expert<C>& a, const expert<C>& b, const state_predicate& domain) {
    const std::string what = "expert " + std::to_string(a.id()) + " against " + std::to_string(b.id());
    if (detail::non_state_writes(a) != detail::non_state_writes(b) || !(a.memory() == b.memory()))
      return precondition_failure(vc_kind::equivalence, what + ": their SHARED, Theta or memory writes differ");
    const expert<C>* seq[] = {&b};
    return equivalence_with_sequence(a, seq, domain, what);
  }

  /// equivalence of an expert with a sequence of experts run in order (a
  /// macro against its parts) on the domain D; only STATE effects.
  vc_report equivalence_with_sequence(const expert<C>& macro, std::span<const expert<C>* const> parts,
                                      const state_predicate& domain, std::string what = {}) {
    if (what.empty()) what = "macro " + std::to_string(macro.id()) + " against its " + std::to_string(parts.size()) + " parts";
    if (domain.is_constant(false)) return vacuous(vc_kind::equivalence, what + ": the domain is empty");
    if (auto r = refute_on_pool(vc_kind::equivalence, what, [&](const detail::state_words& s) {
          const auto m = detail::simulate_expert(macro, s);
          detail::state_words cur = s;
          std::set<std::uint32_t> bits;
          for (const expert<C>* part : parts) {
            auto written = detail::simulate_expert(*part, cur);
            for (const auto& w : written) bits.insert(w.first);
            cur = detail::after_step(std::move(written), cur);
          }
          for (const auto& w : m) bits.insert(w.first);
          const detail::state_words mine = detail::after_step(m, s);
          std::uint64_t differ = 0;
          for (const std::uint32_t bit : bits) differ |= mine(bit) ^ cur(bit);
          return domain.eval_words(s) & differ;
        }))
      return *r;
    return check_alone(vc_kind::equivalence, what, [&](prover::bit_blaster& bb, detail::lane_vars& s) {
      // SHARED and memory reads: one variable per bit for the macro and the
      // first part (they read at the same moment, the same slot when their
      // ports agree); later parts read fresh ones, since earlier parts may
      // have written SHARED or moved the key: a sound over-approximation.
      std::map<std::pair<int, std::uint32_t>, int> free;
      const detail::next_state m = detail::encode_expert(bb, macro, s_fn(s), s, free);
      // The parts in order, each reading what the previous ones left.
      detail::next_state cur{&s, {}};
      for (std::size_t i = 0; i < parts.size(); ++i) {
        const detail::next_state prev = cur;
        std::map<std::pair<int, std::uint32_t>, int> later;
        detail::next_state step = detail::encode_expert(bb, *parts[i], [&prev](std::uint32_t b) { return prev(b); },
                                                        s, i == 0 ? free : later);
        for (auto& [bit, lit] : step.written) cur.written[bit] = lit;
      }
      std::vector<std::uint32_t> bits;
      for (const auto& [bit, lit] : m.written) bits.push_back(bit);
      for (const auto& [bit, lit] : cur.written) bits.push_back(bit);
      std::vector<int> differ;
      for (auto bit : bits) differ.push_back(bb.xor_(m(bit), cur(bit)));
      return bb.and_(domain.encode(bb, s_fn(s)), bb.or_all(differ));
    });
  }

  /// index: the identifiers of the table and of the index are the same set.
  vc_report index_equality(std::span<const identifier> table, std::span<const identifier> index) {
    return check_alone(vc_kind::index, "routing index against the expert table",
                 [&](prover::bit_blaster& bb, detail::lane_vars&) {
                   const prover::bitvec x = bb.fresh_bv(32);
                   const auto member = [&](std::span<const identifier> set) {
                     std::vector<int> eq;
                     for (const identifier id : set) eq.push_back(bb.eq(x, prover::bit_blaster::constant_bv(32, id)));
                     return bb.or_all(eq);
                   };
                   return bb.xor_(member(table), member(index));
                 });
  }

  /// meta_bounds for proposed routing meta (file comment).
  vc_report meta_bounds(std::uint32_t k_large, std::uint32_t k_small, std::uint32_t g_max) {
    return check_alone(vc_kind::meta_bounds, "routing meta k_large = " + std::to_string(k_large) + ", k_small = " +
                                           std::to_string(k_small) + ", G_max = " + std::to_string(g_max),
                 [&](prover::bit_blaster& bb, detail::lane_vars&) {
                   using bbl = prover::bit_blaster;
                   const auto c = [](std::uint64_t v) { return bbl::constant_bv(40, v); };
                   const prover::bitvec kl = c(k_large), ks = c(k_small), g = c(g_max);
                   std::vector<int> ok{bb.ule(c(1), ks), bb.ule(ks, c(4)), bb.ule(ks, kl), bb.ule(kl, c(256)),
                                       bb.ule(bb.add(kl, bb.mul(ks, g)), c(limits_.fast_path_budget))};
                   return -bb.and_all(ok);
                 });
  }

 private:
  struct location_lits {
    int at, p;
  };

  std::function<int(std::uint32_t)> vars_fn() { return [this](std::uint32_t i) { return vars_(i); }; }
  static std::function<int(std::uint32_t)> s_fn(detail::lane_vars& s) {
    return [&s](std::uint32_t i) { return s(i); };
  }

  /// at_u and P_u at some location u, over the state bits `lit` gives.
  int annotated(prover::bit_blaster& bb, const std::function<int(std::uint32_t)>& lit) const {
    std::vector<int> v;
    for (const auto& loc : program_.locations)
      v.push_back(bb.and_(loc.at.encode(bb, lit), loc.annotation.encode(bb, lit)));
    return bb.or_all(v);
  }

  /// annotated() on the states of `s`, a bit per state.
  std::uint64_t annotated_words(const detail::state_words& s) const {
    std::uint64_t v = 0;
    for (const auto& loc : program_.locations) v |= loc.at.eval_words(s) & loc.annotation.eval_words(s);
    return v;
  }

  /// Simulation before SAT: the obligation's violation evaluated on the
  /// counterexamples of earlier failed obligations (pool_), 64 at once. A
  /// state that violates it is a counterexample like SAT's (the state bits
  /// the obligation reads; SHARED and memory reads 0), found for a few
  /// thousand cycles instead of an encoding and a solver: the adversarial
  /// proposer's unsafe tails fail on states seen before. It can only refute;
  /// an obligation that holds is always proved by SAT.
  template <class F>
  std::optional<vc_report> refute_on_pool(vc_kind kind, const std::string& what, F&& violation) {
    const std::uint64_t t0 = read_tsc_begin();
    std::set<std::uint32_t> read;
    const detail::state_words s = [&](std::uint32_t i) {
      read.insert(i);
      return pool_.word(i);
    };
    const std::uint64_t v = violation(s);
    if (v == 0) return std::nullopt;
    vc_report r;
    r.kind = kind;
    r.answer = vc_answer::fails;
    r.what = what + " (on a state of earlier counterexamples)";
    r.by_simulation = true;
    r.counterexample = pool_.state(static_cast<unsigned>(std::countr_zero(v)), read);
    r.cycles = read_tsc_end() - t0;
    return r;
  }

  vc_report precondition_failure(vc_kind k, std::string what) {
    vc_report r;
    r.kind = k;
    r.answer = vc_answer::fails;
    r.what = std::move(what);
    return r;
  }

  /// An obligation that holds without a SAT call (answered not_applicable, with why).
  static vc_report vacuous(vc_kind kind, std::string why) {
    vc_report r;
    r.kind = kind;
    r.answer = vc_answer::not_applicable;
    r.what = std::move(why);
    return r;
  }

  /// Builds the delta on a copy of the base encoder (fresh variables after
  /// the base's), asserts the violation literal, checks it in the
  /// incremental context, retires the delta.
  template <class F>
  vc_report check(vc_kind kind, std::string what, F&& violation) {
    prover::bit_blaster bb = base_;
    detail::lane_vars s = vars_;
    s.rebind(bb);
    const int v = violation(bb, s);
    bb.assert_true(v);
    prover::cnf delta(bb.num_vars());
    for (std::size_t i = base_clauses_; i < bb.formula().size(); ++i) delta.add_clause(bb.formula()[i]);
    vc_report r = within_limits(kind, std::move(what), bb.num_vars(), delta.size());
    if (r.answer == vc_answer::limit_exceeded) return r;
    const auto id = context_->add_delta(delta);
    solve(*context_, id, s, r);
    context_->retire(id);
    // A retired delta's clauses stay in the solver (satisfied by its
    // activation unit): past a few times the base, start again from the
    // base so that a long run's checks do not slow down as patches accumulate.
    retired_clauses_ += delta.size();
    if (retired_clauses_ > 4 * base_clauses_ + (std::size_t{1} << 16)) {
      context_ = std::make_unique<prover::incremental_context<B>>(base_.formula(), limits_.n_max);
      context_->set_conflict_budget(limits_.conflicts);
      retired_clauses_ = 0;
    }
    return r;
  }

  /// An obligation that reads no annotation (equivalence, implication,
  /// index, meta_bounds), checked alone in a solver of its own. The base
  /// only defines literals (Tseitin equivalences constrain nothing), so the
  /// answer is the same; without the base's variables and the retired deltas
  /// the solver has a few hundred variables to decide instead of thousands
  /// (equivalence proofs of fused macros took about 3x longer in the
  /// shared context), and nothing of the base is copied.
  template <class F>
  vc_report check_alone(vc_kind kind, std::string what, F&& violation) {
    prover::bit_blaster bb;
    detail::lane_vars s(bb);
    const int v = violation(bb, s);
    bb.assert_true(v);
    vc_report r = within_limits(kind, std::move(what), bb.num_vars(), bb.formula().size());
    if (r.answer == vc_answer::limit_exceeded) return r;
    prover::incremental_context<B> alone(bb.formula());
    alone.set_conflict_budget(limits_.conflicts);
    solve(alone, std::nullopt, s, r);
    if (r.answer == vc_answer::fails && !r.counterexample.empty()) pool_.add(r.counterexample);
    return r;
  }

  /// The report of an obligation of `variables` and `clauses`: unknown yet,
  /// or limit_exceeded above n_max / m_max.
  vc_report within_limits(vc_kind kind, std::string what, int variables, std::size_t clauses) const {
    vc_report r;
    r.kind = kind;
    r.what = std::move(what);
    r.variables = variables;
    r.clauses = clauses;
    if (variables > limits_.n_max || clauses > limits_.m_max) {
      r.answer = vc_answer::limit_exceeded;
      r.what += ": " + std::to_string(variables) + " variables (n_max " + std::to_string(limits_.n_max) + "), " +
                std::to_string(clauses) + " clauses (m_max " + std::to_string(limits_.m_max) + ")";
    }
    return r;
  }

  /// SAT_CHECK of delta `id` (or the context's base alone); a model's state
  /// bits are the counterexample.
  static void solve(prover::incremental_context<B>& ctx, std::optional<std::size_t> id, const detail::lane_vars& s,
                    vc_report& r) {
    const std::uint64_t t0 = read_tsc_begin();
    const prover::sat_result answer = id ? ctx.check(*id) : ctx.check_base();
    r.cycles = read_tsc_end() - t0;
    r.sat_calls = 1;
    if (answer == prover::sat_result::sat) {
      const prover::assignment model = ctx.model();
      r.answer = vc_answer::fails;
      for (const auto& [bit, lit] : s.made())
        r.counterexample.emplace_back(bit, model[static_cast<std::size_t>(lit - 1)]);
    } else {
      r.answer = answer == prover::sat_result::unsat ? vc_answer::holds : vc_answer::unknown;
    }
  }

  verified_program program_;
  vc_limits limits_;
  prover::bit_blaster base_;
  detail::lane_vars vars_;
  std::vector<location_lits> base_lits_;
  int bad_now_ = 0, init_ = 0;
  std::size_t base_clauses_ = 0, retired_clauses_ = 0;
  std::unique_ptr<prover::incremental_context<B>> context_;
  detail::state_pool pool_;  ///< refute_on_pool's states
};

BEM_NAMESPACE_END
