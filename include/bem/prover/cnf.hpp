// CNF formulas in two forms.
//
// The general form, bem::prover::cnf, is a flat list of clauses over DIMACS
// literals: variable v (1-based) appears as +v or -v. It has no bound on the
// number of variables and is what DIMACS files, proofs and the solvers use.
//
// The bounded form, bem::prover::bounded_cnf<N>, is the core specification's
// clause representation: each clause is a pair of N-bit sets (pos_bits,
// neg_bits), bit v-1 of pos_bits meaning "literal +v occurs", bit v-1 of
// neg_bits meaning "literal -v occurs". N is a compile-time bound of at most
// 128 variables (static_assert), so a clause is at most four 64-bit words and
// evaluating it against an assignment is a handful of AND/OR operations:
//     clause satisfied by assignment a  <=>  (pos & a) | (neg & ~a) != 0.
// Laws:
//   1. to_bounded(c) then to_general() gives the same clauses with each
//      clause's literals sorted by variable, positive before negative, and
//      duplicate literals removed.
//   2. satisfies(f, a) agrees between the two forms for every assignment.
//   3. A clause with pos & neg != 0 is a tautology and is satisfied by every
//      assignment in both forms.
#pragma once

#include <bem/version.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {

/// A CNF formula over DIMACS literals (+v / -v, v >= 1), stored flat.
class cnf {
 public:
  cnf() = default;
  explicit cnf(int num_vars) : vars_(num_vars) {
    if (num_vars < 0) throw std::invalid_argument("bem::prover::cnf: negative variable count");
  }

  /// Declared variable count; add_clause raises it when a literal needs more.
  int num_vars() const noexcept { return vars_; }
  /// Never below the largest variable a clause uses (solvers and checkers
  /// size their arrays by num_vars()).
  void set_num_vars(int n) {
    if (n < 0) throw std::invalid_argument("bem::prover::cnf: negative variable count");
    if (n < used_)
      throw std::invalid_argument("bem::prover::cnf: " + std::to_string(n) + " variables, but a clause uses variable " +
                                  std::to_string(used_));
    vars_ = n;
  }
  /// Number of clauses.
  std::size_t size() const noexcept { return starts_.size(); }
  bool empty() const noexcept { return starts_.empty(); }
  /// Total number of literal occurrences.
  std::size_t literal_count() const noexcept { return lits_.size(); }

  /// Reserves room for `clauses` more clauses with `literals` more literals.
  void reserve(std::size_t clauses, std::size_t literals) {
    starts_.reserve(starts_.size() + clauses);
    lits_.reserve(lits_.size() + literals);
  }

  /// Appends a clause (literals as given; 0 is not allowed in it).
  void add_clause(std::span<const int> clause) {
    starts_.push_back(static_cast<std::uint32_t>(lits_.size()));
    for (int l : clause) {
      if (l == 0 || l == std::numeric_limits<int>::min())
        throw std::invalid_argument("bem::prover::cnf: literal 0 inside a clause");
      const int v = std::abs(l);
      if (v > vars_) vars_ = v;
      if (v > used_) used_ = v;
      lits_.push_back(l);
    }
  }
  void add_clause(std::initializer_list<int> clause) { add_clause(std::span<const int>(clause.begin(), clause.size())); }

  /// The literals of clause i.
  std::span<const int> operator[](std::size_t i) const noexcept {
    const std::size_t b = starts_[i];
    const std::size_t e = i + 1 < starts_.size() ? starts_[i + 1] : lits_.size();
    return {lits_.data() + b, e - b};
  }

  void clear() noexcept {
    lits_.clear();
    starts_.clear();
    vars_ = used_ = 0;
  }

  friend bool operator==(const cnf&, const cnf&) = default;

 private:
  int vars_ = 0;
  int used_ = 0;  ///< the largest variable of any clause
  std::vector<int> lits_;
  std::vector<std::uint32_t> starts_;
};

/// An assignment as one bool per variable; index v-1 holds variable v.
using assignment = std::vector<bool>;

/// True when literal l is true under a (a must cover |l|).
inline bool literal_true(const assignment& a, int l) noexcept {
  const bool v = a[static_cast<std::size_t>(std::abs(l) - 1)];
  return l > 0 ? v : !v;
}

/// The index of the first clause that a falsifies, or f.size() when a
/// satisfies every clause. Variables beyond a.size() count as false.
inline std::size_t first_falsified(const cnf& f, const assignment& a) noexcept {
  for (std::size_t i = 0; i < f.size(); ++i) {
    bool sat = false;
    for (int l : f[i]) {
      const auto v = static_cast<std::size_t>(std::abs(l) - 1);
      const bool x = v < a.size() && a[v];
      if (x == (l > 0)) {
        sat = true;
        break;
      }
    }
    if (!sat) return i;
  }
  return f.size();
}

/// True when a satisfies every clause of f.
inline bool satisfies(const cnf& f, const assignment& a) noexcept { return first_falsified(f, a) == f.size(); }

/// An N-bit set stored as 64-bit words; bit i is variable i+1.
template <int N>
struct var_bits {
  static_assert(N >= 1 && N <= 128, "bem::prover::var_bits: the bounded form holds 1..128 variables");
  static constexpr int words = (N + 63) / 64;
  std::array<std::uint64_t, words> w{};

  constexpr void set(int var) noexcept { w[static_cast<std::size_t>((var - 1) / 64)] |= std::uint64_t{1} << ((var - 1) % 64); }
  constexpr bool test(int var) const noexcept {
    return (w[static_cast<std::size_t>((var - 1) / 64)] >> ((var - 1) % 64)) & 1u;
  }
  constexpr bool any() const noexcept {
    std::uint64_t o = 0;
    for (auto x : w) o |= x;
    return o != 0;
  }
  constexpr int count() const noexcept {
    int c = 0;
    for (auto x : w) c += std::popcount(x);
    return c;
  }
  friend constexpr bool operator==(const var_bits&, const var_bits&) = default;
};

/// A clause in the core specification's form: (pos_bits, neg_bits).
template <int N>
struct bounded_clause {
  var_bits<N> pos;  ///< pos_bits: variables occurring positively
  var_bits<N> neg;  ///< neg_bits: variables occurring negatively

  /// True when the clause holds under assignment a (bit v-1 = value of v).
  constexpr bool satisfied_by(const var_bits<N>& a) const noexcept {
    std::uint64_t o = 0;
    for (int i = 0; i < var_bits<N>::words; ++i) {
      const auto k = static_cast<std::size_t>(i);
      o |= (pos.w[k] & a.w[k]) | (neg.w[k] & ~a.w[k]);
    }
    return o != 0;
  }
  /// True when some variable occurs with both signs.
  constexpr bool tautology() const noexcept {
    for (int i = 0; i < var_bits<N>::words; ++i)
      if (pos.w[static_cast<std::size_t>(i)] & neg.w[static_cast<std::size_t>(i)]) return true;
    return false;
  }
  friend constexpr bool operator==(const bounded_clause&, const bounded_clause&) = default;
};

/// A CNF over at most N <= 128 variables in (pos_bits, neg_bits) form.
template <int N>
struct bounded_cnf {
  static constexpr int max_vars = N;
  int num_vars = 0;
  std::vector<bounded_clause<N>> clauses;

  /// True when every clause holds under a.
  bool satisfied_by(const var_bits<N>& a) const noexcept {
    for (const auto& c : clauses)
      if (!c.satisfied_by(a)) return false;
    return true;
  }

  /// The general form (law 1: sorted by variable, duplicates removed).
  cnf to_general() const {
    cnf out(num_vars);
    std::vector<int> lits;
    for (const auto& c : clauses) {
      lits.clear();
      for (int v = 1; v <= N; ++v) {
        if (c.pos.test(v)) lits.push_back(v);
        if (c.neg.test(v)) lits.push_back(-v);
      }
      out.add_clause(lits);
    }
    return out;
  }
};

/// Converts a general CNF; throws std::invalid_argument when a variable
/// exceeds N.
template <int N>
bounded_cnf<N> to_bounded(const cnf& f) {
  if (f.num_vars() > N)
    throw std::invalid_argument("bem::prover::to_bounded: the formula has " + std::to_string(f.num_vars()) +
                                " variables, the bound is " + std::to_string(N));
  bounded_cnf<N> out;
  out.num_vars = f.num_vars();
  out.clauses.reserve(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) {
    bounded_clause<N> c;
    for (int l : f[i]) (l > 0 ? c.pos : c.neg).set(std::abs(l));
    out.clauses.push_back(c);
  }
  return out;
}

/// An assignment packed into bits (bit v-1 = value of v).
template <int N>
var_bits<N> pack(const assignment& a) {
  var_bits<N> b;
  for (std::size_t v = 0; v < a.size() && v < static_cast<std::size_t>(N); ++v)
    if (a[v]) b.set(static_cast<int>(v) + 1);
  return b;
}

}  // namespace prover
BEM_NAMESPACE_END
