// PROOF_CHECK: a backward DRAT checker with core marking.
//
// drat_check(F, P) answers ACCEPT when the DRAT proof P refutes the CNF F and
// REJECT (with the reason and the failing step) otherwise. The algorithm is
// DRAT-trim's backward check:
//   1. Forward pass: replay P on F's clauses (additions activate the lemma,
//      deletions deactivate a clause with the same literal set) up to the
//      first added empty clause, or the end of P.
//   2. The final clause set must reach a conflict by unit propagation alone;
//      the clauses in that conflict's implication graph are marked "core".
//   3. Backward pass: undo the steps in reverse. A deletion re-activates its
//      clause; an addition deactivates its lemma and, only when the lemma is
//      marked, checks it against the clauses active before it: RUP (assign
//      the lemma's negation, unit-propagate, require a conflict), else RAT on
//      its first literal (every active clause D containing the negated pivot
//      must give a RUP conflict for lemma + D minus the negated pivot). The
//      clauses used by each successful check are marked in turn.
//   4. The marked clauses of F form an unsat core (drat_result::core).
// Each check propagates from the empty assignment over watched literals, so
// no top-level state has to be kept consistent across deletions; formulas of
// at most a few hundred variables make this cheap.
//
// Deviations from the pure DRAT semantics, both sound (they keep clauses that
// F implies, so a lemma checked against them is still implied by F, and a
// RAT check only becomes stricter): deletions of unit clauses are ignored (as
// DRAT-trim does), and deleting a clause that is not present is ignored and
// counted (drat_result::ignored_deletions).
//
// Laws:
//   1. Soundness: ACCEPT implies F is unsatisfiable. In particular no proof is
//      ever accepted for a satisfiable F.
//   2. Completeness for RUP/RAT proofs: a proof whose every needed lemma is RUP
//      or RAT (on its first literal) at its position is accepted — our
//      solver's proofs and those of CaDiCaL.
//   3. The core is unsatisfiable: drat_check(core clauses, P) accepts too.
#pragma once

#include <bem/prover/cnf.hpp>
#include <bem/prover/proof.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {

/// The answer of PROOF_CHECK.
enum class proof_verdict { accept, reject };

constexpr std::string_view to_string(proof_verdict v) noexcept { return v == proof_verdict::accept ? "ACCEPT" : "REJECT"; }

/// Outcome of drat_check.
struct drat_result {
  proof_verdict verdict = proof_verdict::reject;
  std::string reason;                  ///< why REJECT ("" on ACCEPT)
  std::size_t failed_step = 0;         ///< 0-based proof step that failed (REJECT on a lemma)
  std::vector<std::size_t> core;       ///< indices of F's clauses in the unsat core (ACCEPT)
  std::size_t lemmas = 0;              ///< addition steps considered (up to the empty clause)
  std::size_t checked = 0;             ///< lemmas that were marked and checked
  std::size_t rat_checks = 0;          ///< lemmas that needed the RAT check
  std::size_t ignored_deletions = 0;   ///< deletions of absent or unit clauses
  bool accepted() const noexcept { return verdict == proof_verdict::accept; }
};

namespace detail {

class drat_checker {
 public:
  drat_checker(const cnf& f, const drat_proof& p) : f_(f), p_(p) {}

  drat_result run() {
    drat_result r;
    const std::size_t m = f_.size();
    int max_var = f_.num_vars();
    for (std::size_t i = 0; i < p_.size(); ++i)
      for (int l : p_[i]) max_var = std::max(max_var, std::abs(l));
    nv_ = static_cast<std::size_t>(max_var);
    vals_.assign(2 * nv_ + 2, 0);
    reason_.assign(nv_ + 1, none);
    seen_.assign(nv_ + 1, 0);
    watches_.assign(2 * nv_ + 2, {});

    for (std::size_t i = 0; i < m; ++i) add_clause(f_[i]);
    // A formula holding the empty clause is refuted by that clause alone
    // (every lemma is RUP against it): CaDiCaL writes an empty proof there.
    for (std::size_t i = 0; i < m; ++i)
      if (f_[i].empty()) {
        r.core = {i};
        r.verdict = proof_verdict::accept;
        return r;
      }
    std::unordered_multimap<std::uint64_t, std::uint32_t> index;
    for (std::uint32_t c = 0; c < static_cast<std::uint32_t>(m); ++c) index.emplace(key(c), c);

    // 1. forward pass
    step_clause_.assign(p_.size(), none);
    std::size_t end = p_.size();
    for (std::size_t s = 0; s < p_.size(); ++s) {
      if (!p_.is_deletion(s)) {
        ++r.lemmas;
        const std::uint32_t c = add_clause(p_[s]);
        step_clause_[s] = c;
        index.emplace(key(c), c);
        if (p_[s].empty()) {
          end = s + 1;
          break;
        }
        continue;
      }
      std::uint32_t found = none;
      if (p_[s].size() > 1) {
        tmp_.clear();
        for (int l : p_[s]) tmp_.push_back(enc(l));
        normalise(tmp_);
        auto range = index.equal_range(hash(tmp_));
        for (auto it = range.first; it != range.second; ++it) {
          if (active_[it->second] && same(it->second)) {
            found = it->second;
            index.erase(it);
            break;
          }
        }
      }
      if (found == none) {
        ++r.ignored_deletions;
      } else {
        active_[found] = 0;
        step_clause_[s] = found;
      }
    }

    // 2. the final clause set must propagate to a conflict
    if (!rup(std::span<const ilit>{})) {
      r.reason = "the proof does not derive the empty clause: unit propagation on its final clause set finds no conflict";
      r.failed_step = end;
      return r;
    }
    // 3. backward pass
    for (std::size_t s = end; s-- > 0;) {
      const std::uint32_t c = step_clause_[s];
      if (c == none) continue;
      if (p_.is_deletion(s)) {
        active_[c] = 1;
        continue;
      }
      active_[c] = 0;
      if (!marked_[c]) continue;
      ++r.checked;
      const auto lemma = lits(c);
      if (rup(lemma)) continue;
      ++r.rat_checks;
      if (!rat(c, p_[s])) {
        r.reason = "proof step " + std::to_string(s + 1) + " (lemma" + text(p_[s]) +
                   ") is neither RUP nor RAT on its first literal";
        r.failed_step = s;
        return r;
      }
    }
    for (std::size_t i = 0; i < m; ++i)
      if (marked_[i]) r.core.push_back(i);
    r.verdict = proof_verdict::accept;
    return r;
  }

 private:
  static constexpr std::uint32_t none = 0xffffffffu;
  using ilit = std::uint32_t;  // 2 * var + negative, var >= 1
  static ilit enc(int l) noexcept {
    return l > 0 ? 2u * static_cast<std::uint32_t>(l) : 2u * static_cast<std::uint32_t>(-l) + 1u;
  }

  static void normalise(std::vector<ilit>& c) {
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
  }
  static std::uint64_t hash(const std::vector<ilit>& c) noexcept {
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ c.size();
    for (auto p : c) h = (h ^ p) * 0x100000001b3ull + (h >> 29);
    return h;
  }
  /// True when clause c has the literal set held in tmp_.
  bool same(std::uint32_t c) {
    auto l = lits(c);
    sorted_.assign(l.begin(), l.end());
    normalise(sorted_);
    return sorted_ == tmp_;
  }
  std::uint64_t key(std::uint32_t c) {
    auto l = lits(c);
    sorted_.assign(l.begin(), l.end());
    normalise(sorted_);
    return hash(sorted_);
  }
  static std::string text(std::span<const int> c) {
    std::string s;
    for (int l : c) {
      s.push_back(' ');
      s.append(std::to_string(l));
    }
    s.append(" 0");
    return s;
  }

  std::span<ilit> lits(std::uint32_t c) noexcept { return {lits_.data() + start_[c], size_[c]}; }

  /// Stores a clause (duplicates removed, the first literal kept first);
  /// attaches two watches when it has two or more literals.
  std::uint32_t add_clause(std::span<const int> given) {
    const auto c = static_cast<std::uint32_t>(start_.size());
    start_.push_back(static_cast<std::uint32_t>(lits_.size()));
    bool taut = false;
    for (int l : given) {
      const ilit p = enc(l);
      bool dup = false;
      for (std::size_t k = start_[c]; k < lits_.size(); ++k) {
        if (lits_[k] == p) dup = true;
        if (lits_[k] == (p ^ 1u)) taut = true;
      }
      if (!dup) lits_.push_back(p);
    }
    size_.push_back(static_cast<std::uint32_t>(lits_.size() - start_[c]));
    active_.push_back(1);
    marked_.push_back(0);
    taut_.push_back(taut ? 1 : 0);
    if (!taut) {
      if (size_[c] >= 2) {
        watches_[lits_[start_[c]]].push_back(c);
        watches_[lits_[start_[c] + 1]].push_back(c);
      } else if (size_[c] == 1) {
        units_.push_back(c);
      }
    }
    return c;
  }

  std::int8_t val(ilit p) const noexcept { return vals_[p]; }
  void assign(ilit p, std::uint32_t why) {
    vals_[p] = 1;
    vals_[p ^ 1u] = -1;
    reason_[p >> 1] = why;
    trail_.push_back(p);
  }
  void reset() {
    for (auto p : trail_) {
      vals_[p] = vals_[p ^ 1u] = 0;
      reason_[p >> 1] = none;
    }
    trail_.clear();
  }

  /// Propagates from the current trail; returns the conflicting clause.
  std::uint32_t propagate(std::size_t head) {
    while (head < trail_.size()) {
      const ilit false_lit = trail_[head++] ^ 1u;
      auto& ws = watches_[false_lit];
      std::size_t j = 0;
      for (std::size_t i = 0; i < ws.size(); ++i) {
        const std::uint32_t c = ws[i];
        if (!active_[c]) {
          ws[j++] = c;
          continue;
        }
        ilit* l = lits_.data() + start_[c];
        if (l[0] == false_lit) std::swap(l[0], l[1]);
        if (val(l[0]) > 0) {
          ws[j++] = c;
          continue;
        }
        bool moved = false;
        for (std::uint32_t k = 2; k < size_[c]; ++k) {
          if (val(l[k]) >= 0) {
            std::swap(l[1], l[k]);
            watches_[l[1]].push_back(c);
            moved = true;
            break;
          }
        }
        if (moved) continue;
        ws[j++] = c;
        if (val(l[0]) < 0) {
          for (++i; i < ws.size(); ++i) ws[j++] = ws[i];
          ws.resize(j);
          return c;
        }
        assign(l[0], c);
      }
      ws.resize(j);
    }
    return none;
  }

  /// Marks the clauses behind a conflict.
  void mark_conflict(std::uint32_t confl) {
    marked_[confl] = 1;
    for (auto p : lits(confl)) seen_[p >> 1] = 1;
    for (std::size_t k = trail_.size(); k-- > 0;) {
      const std::uint32_t v = trail_[k] >> 1;
      if (!seen_[v]) continue;
      seen_[v] = 0;
      const std::uint32_t r = reason_[v];
      if (r == none) continue;
      marked_[r] = 1;
      for (auto p : lits(r)) seen_[p >> 1] = 1;
    }
    for (auto p : lits(confl)) seen_[p >> 1] = 0;
  }

  /// True when assigning the negation of `lemma` propagates to a conflict
  /// (marking the clauses used).
  template <class Range>
  bool rup(const Range& lemma) {
    reset();
    std::uint32_t confl = none;
    for (auto p : lemma) {
      const ilit q = static_cast<ilit>(p) ^ 1u;
      if (val(q) < 0) {  // lemma is a tautology
        reset();
        return true;
      }
      if (val(q) == 0) assign(q, none);
    }
    for (auto u : units_) {
      if (!active_[u]) continue;
      const ilit q = lits_[start_[u]];
      if (val(q) < 0) {
        confl = u;
        break;
      }
      if (val(q) == 0) assign(q, u);
    }
    if (confl == none) confl = propagate(0);
    if (confl == none) {
      reset();
      return false;
    }
    mark_conflict(confl);
    reset();
    return true;
  }

  bool rat(std::uint32_t c, std::span<const int> as_written) {
    if (as_written.empty()) return false;
    const ilit pivot = enc(as_written[0]);
    const auto lemma = std::vector<ilit>(lits(c).begin(), lits(c).end());
    std::vector<ilit> resolvent;
    for (std::uint32_t d = 0; d < static_cast<std::uint32_t>(start_.size()); ++d) {
      if (!active_[d] || taut_[d]) continue;
      const auto dl = lits(d);
      if (std::find(dl.begin(), dl.end(), pivot ^ 1u) == dl.end()) continue;
      resolvent = lemma;
      for (auto q : dl)
        if (q != (pivot ^ 1u)) resolvent.push_back(q);
      if (!rup(resolvent)) return false;
      marked_[d] = 1;
    }
    return true;
  }

  const cnf& f_;
  const drat_proof& p_;
  std::size_t nv_ = 0;
  std::vector<ilit> lits_, trail_, tmp_, sorted_;
  std::vector<std::uint32_t> start_, size_, units_, reason_, step_clause_;
  std::vector<std::uint8_t> active_, marked_, taut_, seen_;
  std::vector<std::int8_t> vals_;
  std::vector<std::vector<std::uint32_t>> watches_;
};

}  // namespace detail

/// PROOF_CHECK: checks that DRAT proof `proof` refutes `formula`.
inline drat_result drat_check(const cnf& formula, const drat_proof& proof) {
  return detail::drat_checker(formula, proof).run();
}

/// The sub-formula of F made of the core clauses of an accepted check.
inline cnf core_formula(const cnf& formula, const drat_result& r) {
  cnf out(formula.num_vars());
  for (auto i : r.core) out.add_clause(formula[i]);
  return out;
}

}  // namespace prover
BEM_NAMESPACE_END
