// Bit-blasting: a Tseitin encoder from Boolean and fixed-width bit-vector
// operations to CNF.
//
// bem::prover::bit_blaster builds a CNF (bem::prover::cnf, DIMACS literals)
// one gate at a time. Every operation returns a literal (an `int`: +v or -v)
// or a bit-vector (`bitvec`, literals least significant bit first) whose value
// in every model of the CNF equals the operation applied to its operands'
// values (the Tseitin definitions are equivalences, not implications). That
// makes the encoding usable under either polarity: a formula and its
// negation are both encoded correctly.
//
// Variable 1 is the constant TRUE (a unit clause fixes it), so `true_lit()`
// is +1 and `false_lit()` is -1. Constants are folded: AND with FALSE is
// FALSE without a clause, XOR with TRUE is a negation, and equal or
// complementary operands are simplified. Two-input AND and XOR gates are
// hashed structurally, so asking twice for the same gate returns the same
// literal.
//
// Bit-vectors are two's-complement words of a fixed width w (1..64). The
// arithmetic wraps modulo 2^w (add, sub, neg, mul keep the low w bits); the
// comparisons come in unsigned (ult, ule) and signed (slt, sle) forms; eq
// compares all bits. Widths of the two operands must agree
// (std::invalid_argument otherwise).
//
// Laws (checked exhaustively for 4-bit words by tests/prover/hoare.cpp):
//   1. For every model a of formula(): value(a, op(x, y)) = op(value(a, x),
//      value(a, y)) for each operation op, with the concrete operation
//      wrapping modulo 2^w and signed comparisons reading the words as
//      two's-complement numbers.
//   2. Every assignment of the free (input) variables extends to a model:
//      the encoder never constrains inputs, except through assert_true and
//      add_clause, which the caller issues.
//   3. Variable numbers are dense: 1..num_vars() are the variables made
//      (inputs by fresh(), gate outputs), formula().num_vars() is
//      num_vars(); an input no clause mentions is simply unconstrained.
//
// The CNF is handed to any SAT back end (bem/prover/sat_backend.hpp): at once
// with sat_check<B>(formula()), or incrementally with flush(backend, from),
// which adds the clauses from index `from` on and returns the new end; CEGIS
// (bem/prover/cegis.hpp) grows one solver that way.
//
//     bem::prover::bit_blaster bb;
//     auto x = bb.fresh_bv(4), y = bb.fresh_bv(4);
//     bb.assert_true(bb.eq(bb.add(x, y), bb.constant_bv(4, 3)));   // x + y == 3 (mod 16)
//     bb.assert_true(bb.ult(bb.constant_bv(4, 9), x));             // x > 9
//     auto r = bem::prover::sat_check<bem::prover::cdcl_solver>(bb.formula());
//     // r.result == sat; bb.value(r.model, x) + bb.value(r.model, y) == 3 + 16
#pragma once

#include <bem/prover/cnf.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/version.hpp>

#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {

/// A fixed-width bit-vector of literals, least significant bit first.
struct bitvec {
  std::vector<int> bits;
  int width() const noexcept { return static_cast<int>(bits.size()); }
  int operator[](int i) const { return bits[static_cast<std::size_t>(i)]; }
  friend bool operator==(const bitvec&, const bitvec&) = default;
};

/// The Tseitin encoder (see the header comment for the laws).
class bit_blaster {
 public:
  /// An empty formula holding only the constant TRUE (variable 1).
  bit_blaster() {
    vars_ = 1;
    f_.set_num_vars(1);
    f_.add_clause({1});
  }

  // ---- literals -------------------------------------------------------

  static constexpr int true_lit() noexcept { return 1; }
  static constexpr int false_lit() noexcept { return -1; }
  static constexpr int constant(bool b) noexcept { return b ? 1 : -1; }
  static constexpr bool is_constant(int l) noexcept { return l == 1 || l == -1; }

  /// A new unconstrained variable (a positive literal).
  int fresh() {
    ++vars_;
    f_.set_num_vars(vars_);
    return vars_;
  }
  int num_vars() const noexcept { return vars_; }

  /// The formula built so far.
  const cnf& formula() const noexcept { return f_; }

  /// Adds a clause (DIMACS literals over existing variables).
  void add_clause(std::span<const int> c) {
    for (int l : c)
      if (l == 0 || std::abs(l) > vars_)
        throw std::invalid_argument("bem::prover::bit_blaster: clause literal " + std::to_string(l) +
                                    " names no existing variable");
    f_.add_clause(c);
  }
  void add_clause(std::initializer_list<int> c) { add_clause(std::span<const int>(c.begin(), c.size())); }

  /// Requires literal l to be true (a unit clause; FALSE adds the empty clause).
  void assert_true(int l) {
    if (l == true_lit()) return;
    if (l == false_lit()) {
      f_.add_clause(std::span<const int>{});
      return;
    }
    add_clause({l});
  }

  static constexpr int not_(int a) noexcept { return -a; }

  int and_(int a, int b) {
    if (a == false_lit() || b == false_lit() || a == -b) return false_lit();
    if (a == true_lit()) return b;
    if (b == true_lit() || a == b) return a;
    if (std::abs(a) > std::abs(b)) std::swap(a, b);
    const auto key = gate_key(a, b);
    if (auto it = and_cache_.find(key); it != and_cache_.end()) return it->second;
    const int g = fresh();
    f_.add_clause({-g, a});
    f_.add_clause({-g, b});
    f_.add_clause({g, -a, -b});
    and_cache_.emplace(key, g);
    return g;
  }
  int or_(int a, int b) { return -and_(-a, -b); }
  int xor_(int a, int b) {
    if (a == false_lit()) return b;
    if (b == false_lit()) return a;
    if (a == true_lit()) return -b;
    if (b == true_lit()) return -a;
    if (a == b) return false_lit();
    if (a == -b) return true_lit();
    // Normalise signs: xor(-a, b) = -xor(a, b).
    bool neg = false;
    if (a < 0) a = -a, neg = !neg;
    if (b < 0) b = -b, neg = !neg;
    if (a > b) std::swap(a, b);
    const auto key = gate_key(a, b);
    int g;
    if (auto it = xor_cache_.find(key); it != xor_cache_.end()) {
      g = it->second;
    } else {
      g = fresh();
      f_.add_clause({-g, a, b});
      f_.add_clause({-g, -a, -b});
      f_.add_clause({g, -a, b});
      f_.add_clause({g, a, -b});
      xor_cache_.emplace(key, g);
    }
    return neg ? -g : g;
  }
  int iff(int a, int b) { return -xor_(a, b); }
  int implies(int a, int b) { return or_(-a, b); }
  /// c ? t : e
  int ite(int c, int t, int e) {
    if (c == true_lit()) return t;
    if (c == false_lit()) return e;
    if (t == e) return t;
    if (t == -e) return xor_(c, e);
    if (t == true_lit() || t == c) return or_(c, e);
    if (t == false_lit() || t == -c) return and_(-c, e);
    if (e == true_lit() || e == -c) return or_(-c, t);
    if (e == false_lit() || e == c) return and_(c, t);
    const int g = fresh();
    f_.add_clause({-g, -c, t});
    f_.add_clause({-g, c, e});
    f_.add_clause({g, -c, -t});
    f_.add_clause({g, c, -e});
    f_.add_clause({g, -t, -e});  // redundant, helps propagation
    f_.add_clause({-g, t, e});
    return g;
  }
  /// Majority of three (the carry of a full adder).
  int maj(int a, int b, int c) {
    if (is_constant(a) || is_constant(b) || is_constant(c) || a == b || a == -b || a == c || a == -c || b == c ||
        b == -c)
      return or_(and_(a, b), and_(c, or_(a, b)));
    const int g = fresh();
    f_.add_clause({-g, a, b});
    f_.add_clause({-g, a, c});
    f_.add_clause({-g, b, c});
    f_.add_clause({g, -a, -b});
    f_.add_clause({g, -a, -c});
    f_.add_clause({g, -b, -c});
    return g;
  }
  /// Conjunction / disjunction of any number of literals (empty: TRUE / FALSE).
  int and_all(std::span<const int> ls) {
    int r = true_lit();
    for (int l : ls) r = and_(r, l);
    return r;
  }
  int or_all(std::span<const int> ls) {
    int r = false_lit();
    for (int l : ls) r = or_(r, l);
    return r;
  }

  // ---- bit-vectors ----------------------------------------------------

  /// The w-bit constant `value mod 2^w`.
  static bitvec constant_bv(int w, std::uint64_t value) {
    check_width(w);
    bitvec r;
    r.bits.resize(static_cast<std::size_t>(w));
    for (int i = 0; i < w; ++i) r.bits[static_cast<std::size_t>(i)] = constant((value >> i) & 1u);
    return r;
  }
  /// w fresh variables.
  bitvec fresh_bv(int w) {
    check_width(w);
    bitvec r;
    r.bits.resize(static_cast<std::size_t>(w));
    for (auto& b : r.bits) b = fresh();
    return r;
  }

  bitvec bv_not(const bitvec& a) const {
    bitvec r = a;
    for (auto& b : r.bits) b = -b;
    return r;
  }
  bitvec bv_and(const bitvec& a, const bitvec& b) { return zip(a, b, [this](int x, int y) { return and_(x, y); }); }
  bitvec bv_or(const bitvec& a, const bitvec& b) { return zip(a, b, [this](int x, int y) { return or_(x, y); }); }
  bitvec bv_xor(const bitvec& a, const bitvec& b) { return zip(a, b, [this](int x, int y) { return xor_(x, y); }); }
  /// c ? a : b, bit by bit.
  bitvec bv_ite(int c, const bitvec& a, const bitvec& b) {
    return zip(a, b, [this, c](int x, int y) { return ite(c, x, y); });
  }

  /// a + b + carry_in (mod 2^w): a ripple-carry adder.
  bitvec add(const bitvec& a, const bitvec& b, int carry_in = false_lit()) {
    same_width(a, b, "add");
    bitvec r;
    r.bits.resize(a.bits.size());
    int carry = carry_in;
    for (std::size_t i = 0; i < a.bits.size(); ++i) {
      r.bits[i] = xor_(xor_(a.bits[i], b.bits[i]), carry);
      if (i + 1 < a.bits.size()) carry = maj(a.bits[i], b.bits[i], carry);
    }
    return r;
  }
  /// a - b (mod 2^w) = a + ~b + 1.
  bitvec sub(const bitvec& a, const bitvec& b) {
    same_width(a, b, "sub");
    return add(a, bv_not(b), true_lit());
  }
  /// -a (mod 2^w).
  bitvec neg(const bitvec& a) { return sub(constant_bv(a.width(), 0), a); }
  /// a * b (mod 2^w): shift-and-add.
  bitvec mul(const bitvec& a, const bitvec& b) {
    same_width(a, b, "mul");
    const int w = a.width();
    bitvec acc = constant_bv(w, 0);
    for (int i = 0; i < w; ++i) {
      bitvec partial = constant_bv(w, 0);
      for (int j = 0; j + i < w; ++j)
        partial.bits[static_cast<std::size_t>(j + i)] = and_(a[j], b[i]);
      acc = add(acc, partial);
    }
    return acc;
  }

  /// a == b (all bits).
  int eq(const bitvec& a, const bitvec& b) {
    same_width(a, b, "eq");
    int r = true_lit();
    for (std::size_t i = 0; i < a.bits.size(); ++i) r = and_(r, iff(a.bits[i], b.bits[i]));
    return r;
  }
  /// a < b, unsigned.
  int ult(const bitvec& a, const bitvec& b) {
    same_width(a, b, "ult");
    return less(a, b, false_lit(), false);
  }
  /// a <= b, unsigned.
  int ule(const bitvec& a, const bitvec& b) {
    same_width(a, b, "ule");
    return less(a, b, true_lit(), false);
  }
  /// a < b, two's complement.
  int slt(const bitvec& a, const bitvec& b) {
    same_width(a, b, "slt");
    return less(a, b, false_lit(), true);
  }
  /// a <= b, two's complement.
  int sle(const bitvec& a, const bitvec& b) {
    same_width(a, b, "sle");
    return less(a, b, true_lit(), true);
  }

  // ---- reading a model --------------------------------------------------

  /// Value of literal l in assignment a (index v-1 = variable v).
  static bool value(const assignment& a, int l) { return literal_true(a, l); }
  /// Unsigned value of a bit-vector in a.
  static std::uint64_t value(const assignment& a, const bitvec& x) {
    std::uint64_t r = 0;
    for (int i = 0; i < x.width(); ++i)
      if (literal_true(a, x[i])) r |= std::uint64_t{1} << i;
    return r;
  }
  /// Two's-complement value of a bit-vector in a.
  static std::int64_t signed_value(const assignment& a, const bitvec& x) {
    const std::uint64_t u = value(a, x);
    const int w = x.width();
    if (w == 64) return static_cast<std::int64_t>(u);
    const std::uint64_t sign = std::uint64_t{1} << (w - 1);
    return static_cast<std::int64_t>(u ^ sign) - static_cast<std::int64_t>(sign);
  }

  /// Adds clauses [from, formula().size()) to a back end (reserving the
  /// variables first) and returns formula().size(): call it again with the
  /// returned index to hand over only what was encoded since.
  template <class B>
    requires(assert_sat_backend<B>())
  std::size_t flush(B& backend, std::size_t from) const {
    backend.reserve_vars(vars_);
    for (std::size_t i = from; i < f_.size(); ++i) backend.add_clause(f_[i]);
    return f_.size();
  }

 private:
  static void check_width(int w) {
    if (w < 1 || w > 64)
      throw std::invalid_argument("bem::prover::bit_blaster: width " + std::to_string(w) + " is outside 1..64");
  }
  static void same_width(const bitvec& a, const bitvec& b, const char* what) {
    if (a.width() != b.width())
      throw std::invalid_argument(std::string("bem::prover::bit_blaster: ") + what + " of widths " +
                                  std::to_string(a.width()) + " and " + std::to_string(b.width()));
  }
  template <class F>
  bitvec zip(const bitvec& a, const bitvec& b, F&& f) {
    same_width(a, b, "bitwise operation");
    bitvec r;
    r.bits.resize(a.bits.size());
    for (std::size_t i = 0; i < a.bits.size(); ++i) r.bits[i] = f(a.bits[i], b.bits[i]);
    return r;
  }
  /// a < b (or a <= b when `equal` is TRUE), from the least significant bit
  /// up: lt_i = (~a_i & b_i) | (~(a_i ^ b_i) & lt_{i-1}). For signed words the
  /// sign bits swap roles (a negative a is the smaller).
  int less(const bitvec& a, const bitvec& b, int equal, bool is_signed) {
    int lt = equal;
    const std::size_t w = a.bits.size();
    for (std::size_t i = 0; i < w; ++i) {
      int x = a.bits[i], y = b.bits[i];
      if (is_signed && i + 1 == w) std::swap(x, y);
      lt = ite(iff(x, y), lt, and_(-x, y));
    }
    return lt;
  }
  static std::uint64_t gate_key(int a, int b) noexcept {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32 | static_cast<std::uint32_t>(b);
  }

  cnf f_;
  int vars_ = 0;
  std::unordered_map<std::uint64_t, int> and_cache_, xor_cache_;  // structural hashing
};

}  // namespace prover
BEM_NAMESPACE_END
