// bem's CDCL SAT solver, tuned for the small formulas a BEM verifies.
//
// cdcl_solver decides a CNF (DIMACS literals) under optional assumptions and
// answers SAT, UNSAT or UNKNOWN (conflict budget spent). It is the classic
// MiniSat/Glucose design:
//   - two watched literals per clause with a blocking literal;
//   - first-UIP conflict analysis, learned clauses minimised recursively
//     (a literal is dropped when its reason clause is implied by the rest);
//   - VSIDS variable activity (binary heap, decay 0.95) with phase saving;
//   - Luby restarts (unit 300 conflicts);
//   - learned-clause reduction by literal block distance (LBD <= 2 kept for
//     ever, the worse half of the rest deleted, first after 2000 conflicts,
//     then every 2000 + 300 k).
// Small formulas: every array is sized by the variable count, clauses live in
// one flat arena, every watch list is a slice of one watch arena (sized once
// from the formula's literal counts; a list that overflows moves to the
// arena's end, compaction lays them out afresh), binary clauses are decided
// from their watcher alone, and there is no preprocessing, so an empty
// solver costs a few allocations and solving starts at once. add(f) copies
// f's flat arrays once and adds its clauses without per-clause set-up.
// Up to 64 variables (the "small mode", left for good when a 65th variable
// appears; the clauses are then watched as above):
//   - no watches: every literal has an occurrence list whose records hold
//     the clause's positive and negative variables as two 64-bit masks; the
//     assignment is two masks (true, false), so when a literal becomes false
//     every clause holding it is decided (satisfied, unit, conflicting,
//     neither) by a few mask operations, eight records at a time with
//     AVX-512, and nothing is written back;
//   - conflict analysis merges reason clauses as masks, and minimisation
//     walks reasons over masks;
//   - decisions scan the unassigned variables for the highest activity (no
//     heap), and a fresh solver starts from Jeroslow-Wang activities and
//     phases (sum of 2^-|C| over the clauses of each literal).
//
// Guarantees (laws):
//   1. A SAT answer's model satisfies every clause ever added and every
//      assumption: solve() evaluates them before returning and throws
//      std::logic_error if not (which would be a solver bug).
//   2. With a proof attached (trace_proof before the first clause), an UNSAT
//      answer without assumptions leaves a DRAT proof that ends with the
//      empty clause; under assumptions it ends with the clause of the negated
//      failed assumptions. Every lemma is a RUP lemma (drat.hpp checks it);
//      deleted learned clauses appear as deletion steps, and clauses that are
//      reasons of current assignments are never deleted.
//   3. failed_assumptions() after UNSAT is a subset of the assumptions whose
//      conjunction with the clauses is unsatisfiable (an unsat core over
//      assumptions); for a core over clauses use drat_check (drat.hpp).
//   4. Incremental: clauses may be added between solve() calls; learned
//      clauses stay valid because the clause set only grows.
//   5. Deterministic: the same clauses, assumptions and budget give the same
//      answer, model and proof.
#pragma once

#include <bem/prover/cnf.hpp>
#include <bem/prover/proof.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

BEM_NAMESPACE_BEGIN
namespace prover {


namespace detail {
/// Internal literal: 2 * (variable - 1) + (negative ? 1 : 0).
using ilit = std::uint32_t;
inline constexpr std::uint32_t no_ref = 0xffffffffu;
inline constexpr ilit ilit_of(int l) noexcept {
  // Without a branch: random signs would mispredict half the time.
  const auto neg = static_cast<std::uint32_t>(l < 0);
  const std::uint32_t v = (static_cast<std::uint32_t>(l) ^ (0u - neg)) + neg;  // |l|
  return 2u * (v - 1u) + neg;
}
inline constexpr int dimacs_of(ilit p) noexcept {
  const int v = static_cast<int>(p >> 1) + 1;
  return (p & 1u) ? -v : v;
}
struct watcher {
  std::uint32_t cref;
  ilit blocker;
};
/// One literal's watch list inside the solver's watch arena.
struct watch_list {
  std::uint32_t off, size, cap;
};
/// Luby sequence 1 1 2 1 1 2 4 ... (index from 0).
inline double luby(std::uint64_t i) noexcept {
  std::uint64_t size = 1;
  int seq = 0;
  while (size < i + 1) {
    ++seq;
    size = 2 * size + 1;
  }
  while (size - 1 != i) {
    size = (size - 1) >> 1;
    --seq;
    i %= size;
  }
  double r = 1;
  for (int k = 0; k < seq; ++k) r *= 2;
  return r;
}
}  // namespace detail

/// Counters of one solver's work (cumulative over solve() calls).
struct cdcl_statistics {
  std::uint64_t conflicts = 0, decisions = 0, propagations = 0, restarts = 0, reductions = 0;
  std::uint64_t learned = 0, learned_literals = 0, minimised_literals = 0, deleted = 0;
};

class cdcl_solver {
 public:
  /// Tag of the sat_backend concept (bem/prover/sat_backend.hpp).
  using sat_backend_concept = sat_backend_t;
  static constexpr const char* backend_name = "bem-cdcl";

  cdcl_solver() = default;
  /// A solver holding f's clauses (variables 1..f.num_vars()).
  explicit cdcl_solver(const cnf& f, drat_proof* proof = nullptr) {
    trace_proof(proof);
    add(f);
  }

  /// Records the DRAT proof into `proof` (nullptr: no proof). Call before
  /// adding clauses.
  void trace_proof(drat_proof* proof) noexcept { proof_ = proof; }

  /// Makes variables 1..n exist.
  void reserve_vars(int n) {
    if (n > num_vars_) grow(n);
  }
  /// A fresh variable; returns its DIMACS index.
  int new_var() {
    grow(num_vars_ + 1);
    return num_vars_;
  }
  int num_vars() const noexcept { return num_vars_; }

  /// Adds a clause (DIMACS literals; empty = the empty clause). Returns false
  /// once the clause set is unsatisfiable at the top level.
  bool add_clause(std::span<const int> clause) {
    original_.add_clause(clause);
    return add_internal(clause);
  }
  bool add_clause(std::initializer_list<int> c) { return add_clause(std::span<const int>(c.begin(), c.size())); }
  /// Adds every clause of f (and declares its variables).
  bool add(const cnf& f) {
    if (original_.empty() && original_.num_vars() == 0) {
      original_ = f;  // one copy of the flat arrays instead of a clause-by-clause append
    } else {
      original_.reserve(f.size(), f.literal_count());
      for (std::size_t i = 0; i < f.size(); ++i) original_.add_clause(f[i]);
      original_.set_num_vars(std::max(original_.num_vars(), f.num_vars()));
    }
    reserve_vars(f.num_vars());
    mem_.reserve(mem_.size() + f.literal_count() + hdr * f.size());
    // Size every watch list once from the literal occurrence counts (an upper
    // bound on the watches the formula places) plus room for learned
    // clauses, all in the one watch arena.
    cancel_until(0);  // f's literals are within 1..f.num_vars(), reserved above
    if (num_vars_ > 0 && !laid_out_) {
      std::vector<std::uint32_t>& occ = toclear_;
      occ.assign(2 * static_cast<std::size_t>(num_vars_), 0);
      // Clauses given to add_clause() before are in the arena already: the
      // layout empties every list, so they are counted and attached again.
      for (std::size_t cr = 0; cr < mem_.size(); cr += hdr + mem_[cr])
        for (std::uint32_t k = 0; k < mem_[cr]; ++k) ++occ[mem_[cr + hdr + k]];
      // A fresh solver over up to 64 variables also gets its initial order
      // (initial_order) from the same pass.
      const bool order = small_ && stats_.conflicts == 0 && trail_n_ == 0;
      if (order) jw_.assign(2 * static_cast<std::size_t>(num_vars_), 0.0);
      for (std::size_t i = 0; i < f.size(); ++i) {
        const auto c = f[i];
        // 2^-|c| built from its exponent bits.
        const double x = std::bit_cast<double>(static_cast<std::uint64_t>(1023 - std::min<std::size_t>(c.size(), 1000)) << 52);
        for (int l : c) {
          const detail::ilit p = detail::ilit_of(l);
          ++occ[p];
          if (order) jw_[p] += x;
        }
      }
      layout_watches(occ);
      toclear_.clear();
      reattach_at_root();
      if (order) initial_order();
    }
    for (std::size_t i = 0; i < f.size(); ++i)
      if (!add_at_root(f[i])) break;
    return ok_;
  }

  /// Conflicts allowed per solve() call before it answers UNKNOWN (< 0: no
  /// limit, the default).
  void set_conflict_budget(std::int64_t conflicts) noexcept { budget_ = conflicts; }

  /// Decides the clauses under the assumptions (DIMACS literals).
  sat_result solve(std::span<const int> assumptions = {}) {
    model_.clear();
    failed_.clear();
    if (!ok_) return sat_result::unsat;
    assumptions_.clear();
    for (int a : assumptions) {
      if (a == 0 || a == std::numeric_limits<int>::min())
        throw std::invalid_argument("bem::prover::cdcl_solver::solve: assumption " + std::to_string(a) +
                                    " is not a literal");
      reserve_vars(std::abs(a));
      assumptions_.push_back(detail::ilit_of(a));
    }
    std::uint64_t spent = 0;
    std::uint64_t restart_at = restart_limit();
    std::uint64_t since_restart = 0;
    for (;;) {
      const std::uint32_t confl = propagate();
      if (confl != detail::no_ref) {
        ++stats_.conflicts;
        ++spent;
        ++since_restart;
        if (level() == 0) {
          ok_ = false;
          emit_add({});
          return sat_result::unsat;
        }
        if (small_) learn_from_small(confl);
        else learn_from(confl);
        decay();
        if (stats_.conflicts >= next_reduce_) reduce();
        if (budget_ >= 0 && spent >= static_cast<std::uint64_t>(budget_)) {
          cancel_until(0);
          return sat_result::unknown;
        }
        if (since_restart >= restart_at) {
          cancel_until(0);
          ++stats_.restarts;
          ++luby_index_;
          since_restart = 0;
          restart_at = restart_limit();
        }
        continue;
      }
      detail::ilit next = detail::no_ref;
      while (static_cast<std::size_t>(level()) < assumptions_.size()) {
        const detail::ilit p = assumptions_[static_cast<std::size_t>(level())];
        if (val(p) > 0) {
          new_level();
        } else if (val(p) < 0) {
          analyze_final(p);
          cancel_until(0);
          return sat_result::unsat;
        } else {
          next = p;
          break;
        }
      }
      if (next == detail::no_ref) {
        next = pick_branch();
        if (next == detail::no_ref) {
          finish_sat();
          return sat_result::sat;
        }
        ++stats_.decisions;
      }
      new_level();
      enqueue(next, detail::no_ref);
    }
  }
  sat_result solve(std::initializer_list<int> a) { return solve(std::span<const int>(a.begin(), a.size())); }

  /// The model of the last SAT answer (index v-1 = value of variable v).
  const assignment& model() const noexcept { return model_; }
  /// Value of variable v (1-based) in the last model.
  bool value(int v) const { return model_.at(static_cast<std::size_t>(v - 1)); }
  /// After UNSAT under assumptions: the assumptions (DIMACS) that failed.
  const std::vector<int>& failed_assumptions() const noexcept { return failed_; }
  /// Every clause added so far, as given.
  const cnf& clauses() const noexcept { return original_; }
  const cdcl_statistics& stats() const noexcept { return stats_; }
  /// False once the clauses are unsatisfiable without assumptions.
  bool okay() const noexcept { return ok_; }

 private:
  static constexpr std::size_t hdr = 3;  // size, flags (bit 0 learned, 1 deleted, lbd << 2), activity
  /// Marks a watcher whose clause is binary: the blocker is the other
  /// literal, so propagation never reads the clause.
  static constexpr std::uint32_t bin_flag = 0x80000000u;

  bool add_internal(std::span<const int> clause) {
    int top = 0;
    for (int l : clause) top = std::max(top, std::abs(l));
    reserve_vars(top);
    if (!ok_) return false;
    cancel_until(0);
    return add_at_root(clause);
  }
  /// add_internal once the clause's variables exist and the solver is at
  /// level 0.
  bool add_at_root(std::span<const int> clause) {
    if (!ok_) return false;
    // Literals keep their given order (the first two are watched). Short
    // clauses are checked for duplicates and tautologies pairwise, long ones
    // through the seen_ marks.
    tmp_.resize(clause.size());
    detail::ilit* const t = tmp_.data();
    std::size_t j = 0;
    bool changed = false;
    if (clause.size() <= 8) {
      for (int l : clause) {
        const detail::ilit p = detail::ilit_of(l);
        if (val(p) > 0) return true;  // satisfied at level 0
        if (val(p) < 0) {             // false at level 0
          changed = true;
          continue;
        }
        bool duplicate = false;
        for (std::size_t k = 0; k < j; ++k) {
          if (t[k] == (p ^ 1u)) return true;  // tautology
          duplicate |= t[k] == p;
        }
        if (duplicate) changed = true;
        else t[j++] = p;
      }
    } else {
      bool skip = false;
      for (int l : clause) {
        const detail::ilit p = detail::ilit_of(l);
        const std::uint8_t mark = static_cast<std::uint8_t>(1u + (p & 1u));  // 1 positive, 2 negative
        std::uint8_t& s = seen_[p >> 1];
        if (val(p) > 0 || (s != 0 && s != mark)) {
          skip = true;  // satisfied at level 0, or a tautology
          break;
        }
        if (val(p) < 0 || s == mark) {
          changed = true;  // false at level 0, or a duplicate
          continue;
        }
        s = mark;
        t[j++] = p;
      }
      for (std::size_t k = 0; k < j; ++k) seen_[t[k] >> 1] = 0;
      if (skip) return true;
    }
    tmp_.resize(j);
    // A clause that is empty, given so or by its false literals, ends the
    // proof: law 2 (an UNSAT answer's proof derives the empty clause).
    if (changed || tmp_.empty()) emit_add(tmp_);
    if (tmp_.empty()) {
      ok_ = false;
      return false;
    }
    if (tmp_.size() == 1) {
      enqueue(tmp_[0], detail::no_ref);
      if (propagate() != detail::no_ref) {
        ok_ = false;
        emit_add({});
        return false;
      }
      return true;
    }
    attach(alloc(tmp_, false, 0));
    return true;
  }
  std::int8_t val(detail::ilit p) const noexcept { return vals_[p]; }
  int level() const noexcept { return static_cast<int>(trail_lim_.size()); }
  std::uint32_t* lits(std::uint32_t cr) noexcept { return mem_.data() + cr + hdr; }
  std::uint32_t csize(std::uint32_t cr) const noexcept { return mem_[cr]; }
  bool learned(std::uint32_t cr) const noexcept { return mem_[cr + 1] & 1u; }
  std::uint32_t lbd(std::uint32_t cr) const noexcept { return mem_[cr + 1] >> 2; }
  float cact(std::uint32_t cr) const noexcept { return std::bit_cast<float>(mem_[cr + 2]); }
  void set_cact(std::uint32_t cr, float a) noexcept { mem_[cr + 2] = std::bit_cast<std::uint32_t>(a); }

  void grow(int n) {
    const auto nv = static_cast<std::size_t>(n);
    vals_.resize(2 * nv, 0);
    wl_.resize(2 * nv, detail::watch_list{0, 0, 0});
    trail_.resize(nv, 0);
    level_.resize(nv, 0);
    reason_.resize(nv, detail::no_ref);
    activity_.resize(nv, 0.0);
    phase_.resize(nv, 1);
    seen_.resize(nv, 0);
    heap_pos_.resize(nv, -1);
    stamp_.resize(nv + 1, 0);
    learnt_.resize(nv + 1, 0);
    if (!small_)
      for (int v = num_vars_; v < n; ++v) heap_insert(static_cast<std::uint32_t>(v));
    num_vars_ = n;
    original_.set_num_vars(std::max(original_.num_vars(), n));
    if (small_ && n > small_vars) leave_small();
  }

  /// Switches from occurrence lists to watched literals (the variable count
  /// passed 64). Happens between solve() calls, at level 0 with everything
  /// propagated: each clause's non-false literals move to the front, so the
  /// two watched literals are unassigned or true (occurrence propagation is
  /// complete, so no clause is unit at level 0).
  void leave_small() {
    cancel_until(0);
    small_ = false;
    tmask_ = fmask_ = 0;
    level_mask_.clear();
    heap_.clear();
    for (int v = 0; v < num_vars_; ++v) heap_insert(static_cast<std::uint32_t>(v));
    std::vector<std::uint64_t>().swap(occ_pos_);
    std::vector<std::uint64_t>().swap(occ_neg_);
    std::vector<std::uint32_t>().swap(occ_ref_);
    unfalsified_first();
    if (!mem_.empty()) {
      rebuild_lists();
    } else {  // nothing attached yet: add(f) still sizes the lists
      laid_out_ = false;
      for (auto& l : wl_) l = {0, 0, 0};
    }
  }

  /// At level 0 with everything propagated: each clause's literals that are
  /// not false move to the front, so watching the first two is sound
  /// (occurrence propagation is complete, so no clause is unit there).
  void unfalsified_first() {
    for (std::size_t cr = 0; cr < mem_.size(); cr += hdr + mem_[cr]) {
      std::uint32_t* c = mem_.data() + cr + hdr;
      std::stable_partition(c, c + mem_[cr], [&](detail::ilit q) { return val(q) >= 0; });
    }
  }

  /// Attaches the arena's clauses to freshly laid-out lists, at level 0.
  void reattach_at_root() {
    if (!small_) unfalsified_first();
    for (std::size_t cr = 0; cr < mem_.size(); cr += hdr + mem_[cr]) attach(static_cast<std::uint32_t>(cr));
  }

  /// Initial decision order and phases for a fresh solver over up to 64
  /// variables (weights summed into jw_ by add()): each variable's
  /// activity starts at its Jeroslow-Wang weight (sum of 2^-|C| over the
  /// clauses holding it), its phase at the sign of larger weight. On random
  /// 3..5-CNF this saves a quarter to a third of the conflicts at n = 32..64
  /// (at n = 128 it costs conflicts, so larger formulas start from VSIDS
  /// alone).
  void initial_order() {
    const double* const w = jw_.data();
    for (std::size_t v = 0; v < static_cast<std::size_t>(num_vars_); ++v) {
      activity_[v] = w[2 * v] + w[2 * v + 1];
      phase_[v] = w[2 * v] >= w[2 * v + 1] ? 0 : 1;
    }
  }

  std::uint32_t alloc(std::span<const detail::ilit> c, bool is_learned, std::uint32_t lbd_value) {
    const auto cr = static_cast<std::uint32_t>(mem_.size());
    mem_.resize(mem_.size() + hdr + c.size());
    std::uint32_t* m = mem_.data() + cr;
    m[0] = static_cast<std::uint32_t>(c.size());
    m[1] = (is_learned ? 1u : 0u) | (lbd_value << 2);
    m[2] = 0;
    std::copy(c.begin(), c.end(), m + hdr);
    if (is_learned) {
      set_cact(cr, static_cast<float>(cla_inc_));
      learned_.push_back(cr);
    }
    return cr;
  }
  [[gnu::always_inline]] void attach(std::uint32_t cr) {
    const std::uint32_t* c = lits(cr);
    if (small_) {
      // Every literal's occurrence list gets the clause's variable masks.
      const std::uint32_t sz = csize(cr);
      std::uint64_t pos = 0, neg = 0;
      for (std::uint32_t k = 0; k < sz; ++k) {  // without a branch on the sign
        const std::uint64_t bit = std::uint64_t{1} << (c[k] >> 1), sign = 0 - std::uint64_t{c[k] & 1u};
        neg |= bit & sign;
        pos |= bit & ~sign;
      }
      for (std::uint32_t k = 0; k < sz; ++k) {
        if (wl_[c[k]].size == wl_[c[k]].cap) relocate(c[k]);
        detail::watch_list& l = wl_[c[k]];
        const std::uint32_t at = l.off + l.size++;
        occ_pos_[at] = pos;
        occ_neg_[at] = neg;
        occ_ref_[at] = cr;
      }
      return;
    }
    const std::uint32_t tag = csize(cr) == 2 ? bin_flag : 0u;
    const detail::ilit c0 = c[0], c1 = c[1];
    watch_push(c0, {cr | tag, c1});
    watch_push(c1, {cr | tag, c0});
  }
  [[gnu::always_inline]] void watch_push(detail::ilit p, detail::watcher w) {
    if (wl_[p].size == wl_[p].cap) relocate(p);
    detail::watch_list& l = wl_[p];
    warena_[l.off + l.size++] = w;
  }
  /// Moves list p to the end of the arena with twice the room (the old slot
  /// becomes garbage until the next compaction). May reallocate the arena.
  [[gnu::noinline]] void relocate(detail::ilit p) {
    detail::watch_list& l = wl_[p];
    const std::uint32_t cap = std::max<std::uint32_t>(8u, 2u * l.cap);
    if (small_) {
      const auto off = static_cast<std::uint32_t>(occ_ref_.size());
      occ_pos_.resize(off + cap);
      occ_neg_.resize(off + cap);
      occ_ref_.resize(off + cap);
      std::copy_n(occ_pos_.data() + l.off, l.size, occ_pos_.data() + off);
      std::copy_n(occ_neg_.data() + l.off, l.size, occ_neg_.data() + off);
      std::copy_n(occ_ref_.data() + l.off, l.size, occ_ref_.data() + off);
      l.off = off;
      l.cap = cap;
      return;
    }
    const auto off = static_cast<std::uint32_t>(warena_.size());
    warena_.resize(warena_.size() + cap);
    std::copy_n(warena_.data() + l.off, l.size, warena_.data() + off);
    l.off = off;
    l.cap = cap;
  }
  /// Lays out every list empty with room for counts[p] + slack watches.
  void layout_watches(const std::vector<std::uint32_t>& counts) {
    laid_out_ = true;
    std::size_t total = 0;
    const std::uint32_t slack = small_ ? occ_slack : watch_slack;
    for (std::size_t p = 0; p < wl_.size(); ++p) {
      // Small mode: every learned clause lands in the lists of all its
      // literals, so each list gets half its count again (8% faster at
      // (64, 8n) than the bare slack, fewer relocations; twice the count was
      // slower again).
      const std::uint32_t cap = (p < counts.size() ? counts[p] + (small_ ? counts[p] / 2 : 0u) : 0u) + slack;
      wl_[p] = {static_cast<std::uint32_t>(total), 0, cap};
      total += cap;
    }
    if (small_) {  // propagation never relocates here, so no reserve
      occ_pos_.assign(total, 0);
      occ_neg_.assign(total, 0);
      occ_ref_.assign(total, 0);
      return;
    }
    warena_.clear();
    // Room for relocated lists without moving the arena again.
    warena_.reserve(2 * total);
    warena_.resize(total);
  }

  void enqueue(detail::ilit p, std::uint32_t from) noexcept {
    vals_[p] = 1;
    vals_[p ^ 1u] = -1;
    const std::uint32_t v = p >> 1;
    if (small_) (p & 1u ? fmask_ : tmask_) |= std::uint64_t{1} << v;
    level_[v] = level();
    reason_[v] = from;
    trail_[trail_n_++] = p;
  }

  /// Unit propagation; returns the conflicting clause or no_ref.
  std::uint32_t propagate() { return small_ ? propagate_small() : propagate_watches(); }

  /// Unit propagation over occurrence lists (up to 64 variables): the
  /// assignment is two 64-bit masks (true and false variables) and every
  /// occurrence record holds its clause's positive and negative variable
  /// masks, so a clause is decided (satisfied, unit, conflicting or neither)
  /// by a few mask operations without touching clause memory, and nothing is
  /// written back. Every clause of a literal that became false is looked at,
  /// eight at a time with AVX-512.
  [[gnu::noinline]] std::uint32_t propagate_small() {
    std::uint32_t confl = detail::no_ref;
    std::int8_t* const vals = vals_.data();
    std::uint32_t* const reasons = reason_.data();
    int* const levels = level_.data();
    detail::ilit* const trail = trail_.data();
    const detail::watch_list* const wl = wl_.data();
    const std::uint64_t* const opos = occ_pos_.data();
    const std::uint64_t* const oneg = occ_neg_.data();
    const std::uint32_t* const oref = occ_ref_.data();
    const int lvl = level();
    std::uint64_t tm = tmask_, fm = fmask_;
    std::size_t head = qhead_;
    std::size_t tn = trail_n_;
    std::uint64_t props = 0;
    // Record k of the current list: unit or conflicting under (tm, fm)?
    // Assigns the unit literal; returns false on a conflict.
    auto visit = [&](std::uint32_t at) -> bool {
      const std::uint64_t pos = opos[at], neg = oneg[at];
      if ((pos & tm) | (neg & fm)) return true;
      const std::uint64_t free = (pos | neg) & ~(tm | fm);
      if (free & (free - 1)) return true;
      if (free == 0) {
        confl = oref[at];
        return false;
      }
      const auto v = static_cast<std::uint32_t>(std::countr_zero(free));
      const std::uint64_t sign = 0 - static_cast<std::uint64_t>((neg & free) != 0);
      const detail::ilit q = 2 * v + static_cast<std::uint32_t>(sign & 1u);
      fm |= free & sign;
      tm |= free & ~sign;
      vals[q] = 1;
      vals[q ^ 1u] = -1;
      levels[v] = lvl;
      reasons[v] = oref[at];
      trail[tn++] = q;
      return true;
    };
    while (head < tn) {
      const detail::ilit false_lit = trail[head++] ^ 1u;
      const detail::watch_list l = wl[false_lit];
      ++props;
      std::uint32_t k = 0;
#if defined(__AVX512F__)
      for (; k < l.size; k += 8) {
        const std::uint32_t left = l.size - k;
        const __mmask8 lanes = left >= 8 ? __mmask8(0xff) : static_cast<__mmask8>((1u << left) - 1u);
        const __m512i pos = _mm512_mask_loadu_epi64(_mm512_setzero_si512(), lanes, opos + l.off + k);
        const __m512i neg = _mm512_mask_loadu_epi64(_mm512_setzero_si512(), lanes, oneg + l.off + k);
        const __m512i t8 = _mm512_set1_epi64(static_cast<long long>(tm));
        const __m512i f8 = _mm512_set1_epi64(static_cast<long long>(fm));
        const __m512i sat = _mm512_or_si512(_mm512_and_si512(pos, t8), _mm512_and_si512(neg, f8));
        const __m512i open = _mm512_set1_epi64(static_cast<long long>(~(tm | fm)));
        const __m512i free = _mm512_and_si512(open, _mm512_or_si512(pos, neg));
        const __m512i rest = _mm512_and_si512(free, _mm512_sub_epi64(free, _mm512_set1_epi64(1)));
        unsigned m = _mm512_mask_testn_epi64_mask(_mm512_mask_testn_epi64_mask(lanes, sat, sat), rest, rest);
        while (m) {
          const auto lane = static_cast<std::uint32_t>(std::countr_zero(m));
          m &= m - 1;
          if (!visit(l.off + k + lane)) goto conflict;
        }
      }
#else
      for (; k < l.size; ++k)
        if (!visit(l.off + k)) goto conflict;
#endif
    }
    goto done;
  conflict:
    head = tn;
  done:
    stats_.propagations += props;
    qhead_ = head;
    trail_n_ = tn;
    tmask_ = tm;
    fmask_ = fm;
    return confl;
  }

  /// Unit propagation over the two-watched-literal lists (more than 64
  /// variables). The value, clause, trail and watch arrays are held in
  /// locals: stores through the int8 value array may alias anything, which
  /// would otherwise force the compiler to reload every member pointer in
  /// the inner loop. Binary clauses are decided from the watcher alone.
  [[gnu::noinline]] std::uint32_t propagate_watches() {
    std::uint32_t confl = detail::no_ref;
    std::int8_t* const vals = vals_.data();
    std::uint32_t* const mem = mem_.data();
    std::uint32_t* const reasons = reason_.data();
    int* const levels = level_.data();
    detail::ilit* const trail = trail_.data();
    detail::watch_list* const wl = wl_.data();
    detail::watcher* base = warena_.data();
    const int lvl = level();
    std::size_t head = qhead_;
    std::size_t tn = trail_n_;
    std::uint64_t props = 0;
    while (head < tn) {
      const detail::ilit false_lit = trail[head++] ^ 1u;
      detail::watch_list& ws = wl[false_lit];
      detail::watcher* i = base + ws.off;
      detail::watcher* j = i;
      detail::watcher* end = i + ws.size;
      ++props;
      while (i != end) {
        const detail::watcher w0 = *i++;
        const std::int8_t bv = vals[w0.blocker];
        if (bv > 0) {
          *j++ = w0;
          continue;
        }
        if (w0.cref & bin_flag) {
          *j++ = w0;
          const std::uint32_t cr = w0.cref & ~bin_flag;
          if (bv < 0) {
            confl = cr;
            break;
          }
          const detail::ilit q = w0.blocker;
          vals[q] = 1;
          vals[q ^ 1u] = -1;
          levels[q >> 1] = lvl;
          reasons[q >> 1] = cr;
          trail[tn++] = q;
          continue;
        }
        const std::uint32_t cr = w0.cref;
        std::uint32_t* c = mem + cr + hdr;
        // The other watched literal without a branch (false_lit is one of
        // c[0], c[1]); it moves to slot 0, false_lit to slot 1. A
        // data-dependent swap branch mispredicts about half the time.
        const detail::ilit first = c[0] ^ c[1] ^ false_lit;
        c[0] = first;
        c[1] = false_lit;
        if (vals[first] > 0) {
          *j++ = {cr, first};
          continue;
        }
        const std::uint32_t sz = mem[cr];
        std::uint32_t k = 2;
        for (; k < sz; ++k)
          if (vals[c[k]] >= 0) break;
        if (k < sz) {
          const detail::ilit nw = c[k];
          c[1] = nw;
          c[k] = false_lit;
          detail::watch_list& l = wl[nw];
          if (l.size == l.cap) [[unlikely]] {
            const std::ptrdiff_t io = i - base, jo = j - base, eo = end - base;
            relocate(nw);
            base = warena_.data();
            i = base + io;
            j = base + jo;
            end = base + eo;
          }
          base[l.off + l.size++] = {cr, first};
          continue;
        }
        *j++ = {cr, first};
        if (vals[first] < 0) {
          confl = cr;
          break;
        }
        vals[first] = 1;
        vals[first ^ 1u] = -1;
        levels[first >> 1] = lvl;
        reasons[first >> 1] = cr;
        trail[tn++] = first;
      }
      if (confl != detail::no_ref) {
        while (i != end) *j++ = *i++;
        ws.size = static_cast<std::uint32_t>(j - (base + ws.off));
        head = tn;
        break;
      }
      ws.size = static_cast<std::uint32_t>(j - (base + ws.off));
    }
    stats_.propagations += props;
    qhead_ = head;
    trail_n_ = tn;
    return confl;
  }

  [[gnu::always_inline]] void cancel_until(int lvl) noexcept {
    if (level() > lvl) backtrack(lvl);
  }
  void backtrack(int lvl) noexcept {
    const std::size_t stop = trail_lim_[static_cast<std::size_t>(lvl)];
    const std::size_t heap_before = heap_.size();
    std::uint64_t unassigned = 0;
    for (std::size_t k = trail_n_; k-- > stop;) {
      const detail::ilit p = trail_[k];
      const std::uint32_t v = p >> 1;
      unassigned |= std::uint64_t{1} << (v & 63u);
      vals_[p] = vals_[p ^ 1u] = 0;
      phase_[v] = static_cast<std::uint8_t>(p & 1u);
      if (!small_ && heap_pos_[v] < 0) {
        heap_pos_[v] = static_cast<int>(heap_.size());
        heap_.push_back(v);
      }
    }
    trail_n_ = stop;
    if (small_) {
      tmask_ &= ~unassigned;
      fmask_ &= ~unassigned;
    }
    // Sift the returned variables up one by one, or rebuild the heap
    // bottom-up (linear) when they outnumber what was there.
    if (heap_.size() - heap_before > heap_before) {
      for (std::size_t i = heap_.size() / 2; i-- > 0;) heap_down(i);
    } else {
      for (std::size_t i = heap_before; i < heap_.size(); ++i) heap_up(i);
    }
    trail_lim_.resize(static_cast<std::size_t>(lvl));
    if (small_) level_mask_.resize(static_cast<std::size_t>(lvl));
    qhead_ = stop;
  }

  void new_level() {
    trail_lim_.push_back(static_cast<std::uint32_t>(trail_n_));
    if (small_) level_mask_.push_back(tmask_ | fmask_);
  }

  detail::ilit pick_branch() noexcept {
    if (small_) {
      // Up to 64 variables: a scan of the unassigned ones replaces the heap
      // (bumping is then one addition, backtracking reinserts nothing).
      std::uint64_t todo = ~(tmask_ | fmask_) & all_vars();
      if (!todo) return detail::no_ref;
      const double* const act = activity_.data();
      auto best = static_cast<std::uint32_t>(std::countr_zero(todo));
      double top = act[best];
      todo &= todo - 1;
      while (todo) {
        const auto v = static_cast<std::uint32_t>(std::countr_zero(todo));
        todo &= todo - 1;
        if (act[v] > top) {
          top = act[v];
          best = v;
        }
      }
      return 2 * best + phase_[best];
    }
    while (!heap_.empty()) {
      const std::uint32_t v = heap_pop();
      if (vals_[2 * v] == 0) return 2 * v + phase_[v];
    }
    return detail::no_ref;
  }

  // ---- VSIDS heap (max-heap on activity_) ----
  bool heap_less(std::uint32_t a, std::uint32_t b) const noexcept { return activity_[a] > activity_[b]; }
  void heap_up(std::size_t i) noexcept {
    const std::uint32_t v = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / 2;
      if (!heap_less(v, heap_[parent])) break;
      heap_[i] = heap_[parent];
      heap_pos_[heap_[i]] = static_cast<int>(i);
      i = parent;
    }
    heap_[i] = v;
    heap_pos_[v] = static_cast<int>(i);
  }
  void heap_down(std::size_t i) noexcept {
    const std::uint32_t v = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
      std::size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && heap_less(heap_[child + 1], heap_[child])) ++child;
      if (!heap_less(heap_[child], v)) break;
      heap_[i] = heap_[child];
      heap_pos_[heap_[i]] = static_cast<int>(i);
      i = child;
    }
    heap_[i] = v;
    heap_pos_[v] = static_cast<int>(i);
  }
  void heap_insert(std::uint32_t v) {
    heap_.push_back(v);
    heap_up(heap_.size() - 1);
  }
  std::uint32_t heap_pop() noexcept {
    const std::uint32_t top = heap_[0];
    heap_pos_[top] = -1;
    heap_[0] = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      heap_pos_[heap_[0]] = 0;
      heap_down(0);
    }
    return top;
  }
  void bump_var(std::uint32_t v) noexcept {
    if ((activity_[v] += var_inc_) > 1e100) {
      for (auto& a : activity_) a *= 1e-100;
      var_inc_ *= 1e-100;
    }
    if (heap_pos_[v] >= 0) heap_up(static_cast<std::size_t>(heap_pos_[v]));
  }
  void bump_clause(std::uint32_t cr) noexcept {
    set_cact(cr, cact(cr) + static_cast<float>(cla_inc_));
    if (cact(cr) > 1e20f) {
      for (auto c : learned_) set_cact(c, cact(c) * 1e-20f);
      cla_inc_ *= 1e-20;
    }
  }
  void decay() noexcept {
    var_inc_ /= 0.95;
    cla_inc_ /= 0.999;
  }

  // ---- conflict analysis ----
  std::uint32_t abstract_level(std::uint32_t v) const noexcept { return 1u << (level_[v] & 31); }

  /// First-UIP analysis of conflict confl, minimisation, backjump and the
  /// asserting assignment. The learned clause is built in learnt_ (sized
  /// num_vars + 1 by grow) through local pointers: stores through the uint8
  /// seen_ array may alias anything, and member vectors would be reloaded
  /// after each.
  void learn_from(std::uint32_t confl) {
    std::uint8_t* const seen = seen_.data();
    const int* const levels = level_.data();
    const detail::ilit* const trail = trail_.data();
    const std::uint32_t* const reasons = reason_.data();
    detail::ilit* const out = learnt_.data();
    const int cur = level();
    std::size_t len = 1;
    int path = 0;
    detail::ilit p = detail::no_ref;
    std::size_t index = trail_n_;
    do {
      if (learned(confl)) bump_clause(confl);
      const std::uint32_t* c = lits(confl);
      const std::uint32_t sz = csize(confl);
      // The implied literal is skipped by variable: a binary reason may hold
      // it in either slot.
      const std::uint32_t pivot = p == detail::no_ref ? detail::no_ref : p >> 1;
      for (std::uint32_t k = 0; k < sz; ++k) {
        const detail::ilit q = c[k];
        const std::uint32_t v = q >> 1;
        if (v == pivot || seen[v] || levels[v] == 0) continue;
        bump_var(v);
        seen[v] = 1;
        if (levels[v] >= cur) ++path;
        else out[len++] = q;
      }
      while (!seen[trail[--index] >> 1]) {
      }
      p = trail[index];
      confl = reasons[p >> 1];
      seen[p >> 1] = 0;
      --path;
    } while (path > 0);
    out[0] = p ^ 1u;

    // Recursive minimisation.
    toclear_.assign(out, out + len);
    std::uint32_t abstract = 0;
    for (std::size_t k = 1; k < len; ++k) abstract |= abstract_level(out[k] >> 1);
    std::size_t j = 1;
    for (std::size_t k = 1; k < len; ++k) {
      const std::uint32_t v = out[k] >> 1;
      if (reasons[v] == detail::no_ref || !redundant(out[k], abstract)) out[j++] = out[k];
    }
    stats_.minimised_literals += len - j;
    len = j;
    for (auto q : toclear_) seen[q >> 1] = 0;
    finish_learning(len);
  }

  /// The learned clause out[0..len) (asserting literal first): backjump,
  /// proof step, attach and the asserting assignment.
  void finish_learning(std::size_t len) {
    const int* const levels = level_.data();
    detail::ilit* const out = learnt_.data();
    const std::span<const detail::ilit> learnt(out, len);

    // Backjump level: the highest level below the current one, moved to slot 1.
    int bt = 0;
    if (len > 1) {
      std::size_t max_k = 1;
      for (std::size_t k = 2; k < len; ++k)
        if (levels[out[k] >> 1] > levels[out[max_k] >> 1]) max_k = k;
      std::swap(out[1], out[max_k]);
      bt = levels[out[1] >> 1];
    }
    // Literal block distance.
    ++stamp_counter_;
    std::uint32_t lbd_value = 0;
    for (auto q : learnt) {
      const auto lv = static_cast<std::size_t>(levels[q >> 1]);
      if (stamp_[lv] != stamp_counter_) {
        stamp_[lv] = stamp_counter_;
        ++lbd_value;
      }
    }
    ++stats_.learned;
    stats_.learned_literals += len;
    emit_add(learnt);
    cancel_until(bt);
    if (len == 1) {
      enqueue(out[0], detail::no_ref);
    } else {
      const std::uint32_t cr = alloc(learnt, true, lbd_value);
      attach(cr);
      enqueue(out[0], cr);
    }
  }

  std::uint64_t all_vars() const noexcept {
    return num_vars_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << num_vars_) - 1;
  }
  std::uint64_t clause_vars(std::uint32_t cr) const noexcept {
    const std::uint32_t* c = mem_.data() + cr + hdr;
    std::uint64_t m = 0;
    for (std::uint32_t k = 0, sz = mem_[cr]; k < sz; ++k) m |= std::uint64_t{1} << (c[k] >> 1);
    return m;
  }

  /// learn_from for up to 64 variables: the seen set, the learned clause,
  /// the variables of level 0 and of the current level are 64-bit masks, so
  /// a reason clause is merged with a few mask operations and only its new
  /// variables are visited. Minimisation is the same recursive test as
  /// redundant(), over masks.
  void learn_from_small(std::uint32_t confl) {
    const detail::ilit* const trail = trail_.data();
    const std::uint32_t* const reasons = reason_.data();
    const int cur = level();
    const std::uint64_t assigned = tmask_ | fmask_;
    const std::uint64_t root = level_mask_[0];
    const std::uint64_t at_cur = assigned & ~level_mask_[static_cast<std::size_t>(cur - 1)];
    std::uint64_t seen = root, lower = 0;
    int path = 0;
    detail::ilit p = detail::no_ref;
    std::size_t index = trail_n_;
    do {
      if (learned(confl)) bump_clause(confl);
      const std::uint64_t fresh = clause_vars(confl) & ~seen;
      seen |= fresh;
      for (std::uint64_t b = fresh; b; b &= b - 1) bump_var(static_cast<std::uint32_t>(std::countr_zero(b)));
      path += std::popcount(fresh & at_cur);
      lower |= fresh & ~at_cur;
      do p = trail[--index];
      while (!((seen >> (p >> 1)) & 1u));
      confl = reasons[p >> 1];
      --path;
    } while (path > 0);

    // Recursive minimisation: a literal goes when every other variable of
    // its reason is in the clause, at level 0 or (recursively) goes too.
    std::uint32_t abstract = 0;
    for (std::uint64_t b = lower; b; b &= b - 1) abstract |= abstract_level(static_cast<std::uint32_t>(std::countr_zero(b)));
    std::uint64_t implied = lower | root;  // variables implied by the clause
    std::uint64_t kept = 0;
    std::uint32_t stack[64];
    for (std::uint64_t b = lower; b; b &= b - 1) {
      const auto v = static_cast<std::uint32_t>(std::countr_zero(b));
      if (reasons[v] == detail::no_ref) {
        kept |= std::uint64_t{1} << v;
        continue;
      }
      std::uint64_t visited = 0;
      std::size_t top = 0;
      stack[top++] = v;
      bool ok = true;
      while (ok && top > 0) {
        const std::uint32_t u = stack[--top];
        std::uint64_t rest = clause_vars(reasons[u]) & ~(std::uint64_t{1} << u) & ~implied & ~visited;
        for (; rest; rest &= rest - 1) {
          const auto w = static_cast<std::uint32_t>(std::countr_zero(rest));
          if (reasons[w] == detail::no_ref || !(abstract_level(w) & abstract)) {
            ok = false;
            break;
          }
          visited |= std::uint64_t{1} << w;
          stack[top++] = w;
        }
      }
      if (ok) implied |= visited;
      else kept |= std::uint64_t{1} << v;
    }
    detail::ilit* const out = learnt_.data();
    out[0] = p ^ 1u;
    std::size_t len = 1;
    for (std::uint64_t b = kept; b; b &= b - 1) {
      const auto v = static_cast<std::uint32_t>(std::countr_zero(b));
      out[len++] = 2 * v + static_cast<std::uint32_t>((tmask_ >> v) & 1u);  // the false literal of v
    }
    stats_.minimised_literals += static_cast<std::uint64_t>(std::popcount(lower) - std::popcount(kept));
    finish_learning(len);
  }

  bool redundant(detail::ilit p, std::uint32_t abstract) {
    stack_.clear();
    stack_.push_back(p);
    const std::size_t top = toclear_.size();
    while (!stack_.empty()) {
      const std::uint32_t pivot = stack_.back() >> 1;
      const std::uint32_t cr = reason_[pivot];
      stack_.pop_back();
      const std::uint32_t* c = lits(cr);
      const std::uint32_t sz = csize(cr);
      for (std::uint32_t k = 0; k < sz; ++k) {
        const detail::ilit q = c[k];
        const std::uint32_t v = q >> 1;
        if (v == pivot || seen_[v] || level_[v] == 0) continue;
        if (reason_[v] != detail::no_ref && (abstract_level(v) & abstract)) {
          seen_[v] = 1;
          stack_.push_back(q);
          toclear_.push_back(q);
        } else {
          for (std::size_t t = top; t < toclear_.size(); ++t) seen_[toclear_[t] >> 1] = 0;
          toclear_.resize(top);
          return false;
        }
      }
    }
    return true;
  }

  /// The assumptions responsible for assumption p being false.
  void analyze_final(detail::ilit p) {
    failed_.clear();
    failed_.push_back(detail::dimacs_of(p));
    const std::uint32_t pv = p >> 1;
    if (level_[pv] > 0) {
      seen_[pv] = 1;
      for (std::size_t k = trail_n_; k-- > trail_lim_[0];) {
        const std::uint32_t v = trail_[k] >> 1;
        if (!seen_[v]) continue;
        const std::uint32_t r = reason_[v];
        if (r == detail::no_ref) {
          failed_.push_back(detail::dimacs_of(trail_[k]));  // an assumption (possibly -p itself)
        } else {
          const std::uint32_t* c = lits(r);
          for (std::uint32_t i = 0; i < csize(r); ++i)
            if ((c[i] >> 1) != v && level_[c[i] >> 1] > 0) seen_[c[i] >> 1] = 1;
        }
        seen_[v] = 0;
      }
      seen_[pv] = 0;
    }
    if (proof_) {
      neg_.clear();
      for (int a : failed_) neg_.push_back(-a);
      proof_->add(neg_);
    }
  }

  // ---- learned clause reduction ----
  void reduce() {
    ++stats_.reductions;
    next_reduce_ = stats_.conflicts + 2000 + 300 * stats_.reductions;
    std::vector<std::uint32_t> candidates;
    candidates.reserve(learned_.size());
    for (auto cr : learned_) {
      // A reason's implied literal is c[0] or c[1] with watches, anywhere
      // with occurrence lists.
      bool locked = false;
      for (std::uint32_t k = 0; k < csize(cr); ++k) {
        const detail::ilit q = lits(cr)[k];
        locked |= val(q) > 0 && reason_[q >> 1] == cr;
      }
      if (lbd(cr) > 2 && !locked) candidates.push_back(cr);
    }
    std::sort(candidates.begin(), candidates.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (lbd(a) != lbd(b)) return lbd(a) > lbd(b);
      return cact(a) < cact(b);
    });
    const std::size_t drop = candidates.size() / 2;
    for (std::size_t k = 0; k < drop; ++k) {
      const std::uint32_t cr = candidates[k];
      mem_[cr + 1] |= 2u;
      if (proof_) {
        neg_.clear();
        for (std::uint32_t i = 0; i < csize(cr); ++i) neg_.push_back(detail::dimacs_of(lits(cr)[i]));
        proof_->del(neg_);
      }
      ++stats_.deleted;
    }
    compact();
  }

  /// Copies live clauses into a fresh arena and rebuilds the watch lists.
  void compact() {
    std::vector<std::uint32_t> fresh;
    fresh.reserve(mem_.size());
    std::vector<std::uint32_t> kept;
    for (std::size_t cr = 0; cr < mem_.size();) {
      const std::uint32_t sz = mem_[cr];
      const std::size_t next = cr + hdr + sz;
      if (!(mem_[cr + 1] & 2u)) {
        const auto to = static_cast<std::uint32_t>(fresh.size());
        fresh.insert(fresh.end(), mem_.begin() + static_cast<std::ptrdiff_t>(cr), mem_.begin() + static_cast<std::ptrdiff_t>(next));
        if (mem_[cr + 1] & 1u) kept.push_back(to);
        mem_[cr + 2] = to;  // forwarding address (the copy keeps the activity)
      }
      cr = next;
    }
    for (std::size_t k = 0; k < trail_n_; ++k) {
      std::uint32_t& r = reason_[trail_[k] >> 1];
      if (r != detail::no_ref) r = mem_[r + 2];
    }
    mem_.swap(fresh);
    learned_.swap(kept);
    rebuild_lists();
  }

  /// Lays out the watch (or occurrence) lists afresh and attaches every
  /// clause of the arena.
  void rebuild_lists() {
    std::vector<std::uint32_t>& counts = toclear_;
    counts.assign(wl_.size(), 0);
    for (std::size_t cr = 0; cr < mem_.size(); cr += hdr + mem_[cr]) {
      if (small_) {
        for (std::uint32_t k = 0; k < mem_[cr]; ++k) ++counts[mem_[cr + hdr + k]];
      } else {
        ++counts[mem_[cr + hdr]];
        ++counts[mem_[cr + hdr + 1]];
      }
    }
    layout_watches(counts);
    counts.clear();
    for (std::size_t cr = 0; cr < mem_.size(); cr += hdr + mem_[cr]) attach(static_cast<std::uint32_t>(cr));
  }

  std::uint64_t restart_limit() const noexcept { return static_cast<std::uint64_t>(restart_unit * detail::luby(luby_index_)); }

  void finish_sat() {
    model_.assign(static_cast<std::size_t>(num_vars_), false);
    for (int v = 0; v < num_vars_; ++v) model_[static_cast<std::size_t>(v)] = vals_[2 * static_cast<std::size_t>(v)] > 0;
    // Every clause ever added, evaluated on the full assignment (every
    // variable is assigned here) before it is undone.
    const std::int8_t* const vals = vals_.data();
    for (std::size_t i = 0; i < original_.size(); ++i) {
      // Every literal is looked at (no early exit): clauses are short, and
      // an exit at a random position would mispredict.
      bool satisfied = false;
      for (int l : original_[i]) satisfied |= vals[detail::ilit_of(l)] > 0;
      if (!satisfied)
        throw std::logic_error("bem::prover::cdcl_solver: internal error, the model falsifies clause " + std::to_string(i));
    }
    cancel_until(0);
    for (auto a : assumptions_)
      if (!literal_true(model_, detail::dimacs_of(a)))
        throw std::logic_error("bem::prover::cdcl_solver: internal error, the model falsifies an assumption");
  }

  void emit_add(std::span<const detail::ilit> c) {
    if (!proof_) return;
    neg_.clear();
    for (auto p : c) neg_.push_back(detail::dimacs_of(p));
    proof_->add(neg_);
  }

  int num_vars_ = 0;
  bool ok_ = true;
  drat_proof* proof_ = nullptr;
  std::int64_t budget_ = -1;
  cnf original_;
  std::vector<std::uint32_t> mem_;
  std::vector<std::uint32_t> learned_;
  // Luby restart unit in conflicts: 300 against 100 cut the median
  // (128, 8n) time by about 15% over 200 instances, with no change beyond
  // noise at n <= 64.
  static constexpr double restart_unit = 300;
  static constexpr std::uint32_t watch_slack = 6;  // room per list for learned clauses
  static constexpr std::uint32_t occ_slack = 8;
  static constexpr int small_vars = 64;  // occurrence lists up to this many variables
  bool small_ = true, laid_out_ = false;
  std::uint64_t tmask_ = 0, fmask_ = 0;  // small mode: true and false variables
  std::vector<std::uint64_t> occ_pos_, occ_neg_;  // small mode: occurrence records
  std::vector<std::uint32_t> occ_ref_;
  std::vector<double> jw_;
  std::vector<std::uint64_t> level_mask_;  // small mode: variables assigned before each level
  std::vector<detail::watch_list> wl_;
  std::vector<detail::watcher> warena_;
  std::vector<std::int8_t> vals_;
  std::vector<int> level_;
  std::vector<std::uint32_t> reason_;
  std::vector<double> activity_;
  std::vector<std::uint8_t> phase_, seen_;
  std::vector<std::uint32_t> heap_;
  std::vector<int> heap_pos_;
  std::vector<std::uint64_t> stamp_;
  std::uint64_t stamp_counter_ = 0;
  std::vector<detail::ilit> trail_;  // sized num_vars; trail_n_ entries used
  std::size_t trail_n_ = 0;
  std::vector<detail::ilit> assumptions_, learnt_, toclear_, stack_, tmp_;
  std::vector<std::uint32_t> trail_lim_;
  std::size_t qhead_ = 0;
  double var_inc_ = 1, cla_inc_ = 1;
  std::uint64_t luby_index_ = 0, next_reduce_ = 2000;
  assignment model_;
  std::vector<int> failed_, neg_;
  cdcl_statistics stats_;
};

static_assert(sat_backend<cdcl_solver>);

}  // namespace prover
BEM_NAMESPACE_END
