// ANF circuits: each output an XOR of AND-monomials (algebraic normal form).
//
// A monomial is a set of input variables, stored as a 64-bit mask (bit j:
// input j), so an ANF circuit has at most 64 inputs; the empty monomial
// (mask 0) is the constant 1. Output k is the XOR of its monomials. The
// representation is canonical: `anf_circuit` keeps every output's monomials
// sorted and free of duplicates (two equal monomials cancel, x ^ x = 0), so
// two ANF circuits compute the same function exactly when they compare
// equal.
//
// Gate count G, counting the two-input word operations evaluation performs
// (no sharing between monomials): a monomial of degree d costs d - 1 ANDs;
// an output of t monomials costs t - 1 XORs (the constant monomial is a
// term like any other: XOR with all ones). Every gate of an ANF is live.
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

/// A monomial: bit j set = input j is a factor; 0 is the constant 1.
using monomial = std::uint64_t;

/// A polynomial over GF(2): sorted, duplicate-free monomials.
using anf_polynomial = std::vector<monomial>;

/// Sorts `p` and cancels equal pairs (x ^ x = 0): the canonical form.
inline void anf_normalize(anf_polynomial& p) {
  std::sort(p.begin(), p.end());
  std::size_t w = 0;
  for (std::size_t i = 0; i < p.size();) {
    std::size_t j = i;
    while (j < p.size() && p[j] == p[i]) ++j;
    if ((j - i) % 2 == 1) p[w++] = p[i];
    i = j;
  }
  p.resize(w);
}

/// p ^ q for canonical p, q (a merge that drops common monomials).
inline anf_polynomial anf_xor(const anf_polynomial& p, const anf_polynomial& q) {
  anf_polynomial r;
  r.reserve(p.size() + q.size());
  std::set_symmetric_difference(p.begin(), p.end(), q.begin(), q.end(), std::back_inserter(r));
  return r;
}

/// p & q for canonical p, q; throws std::length_error when the product has
/// more than `max_terms` monomials before cancellation.
inline anf_polynomial anf_and(const anf_polynomial& p, const anf_polynomial& q, std::size_t max_terms) {
  if (p.size() * q.size() > max_terms)
    throw std::length_error("ANF product of " + std::to_string(p.size()) + " and " + std::to_string(q.size()) +
                            " monomials exceeds the limit of " + std::to_string(max_terms) + " terms");
  anf_polynomial r;
  r.reserve(p.size() * q.size());
  for (auto x : p)
    for (auto y : q) r.push_back(x | y);
  anf_normalize(r);
  return r;
}

/// An ANF circuit: n <= 64 inputs, one canonical polynomial per output.
class anf_circuit {
 public:
  using circuit_representation_concept = circuit_representation_t;
  static constexpr const char* representation_name = "anf_circuit";  ///< for records (§6.1)

  anf_circuit() = default;

  /// Takes one polynomial per output and brings each to canonical form;
  /// throws std::invalid_argument if n > 64 or a monomial names an input
  /// >= n.
  anf_circuit(std::size_t n, std::vector<anf_polynomial> outputs) : n_(n), polys_(std::move(outputs)) {
    if (n_ > 64) throw std::invalid_argument("anf_circuit: at most 64 inputs, got " + std::to_string(n_));
    const monomial allowed = n_ == 64 ? ~monomial{0} : ((monomial{1} << n_) - 1);
    for (std::size_t k = 0; k < polys_.size(); ++k) {
      for (auto t : polys_[k])
        if (t & ~allowed)
          throw std::invalid_argument("anf_circuit: output " + std::to_string(k) + " has a monomial over input " +
                                      std::to_string(std::countr_zero(t & ~allowed)) + " of only " +
                                      std::to_string(n_));
      anf_normalize(polys_[k]);
    }
    flatten();
  }

  std::size_t inputs() const noexcept { return n_; }
  std::size_t outputs() const noexcept { return polys_.size(); }
  /// G = ANDs (degree - 1 per monomial) + XORs (terms - 1 per output).
  std::size_t gate_count() const noexcept {
    std::size_t g = 0;
    for (const auto& p : polys_) {
      if (!p.empty()) g += p.size() - 1;
      for (auto t : p)
        if (t) g += static_cast<std::size_t>(std::popcount(t)) - 1;
    }
    return g;
  }
  /// No scratch: terms are accumulated in registers.
  std::size_t scratch_size() const noexcept { return 0; }
  /// Output k's canonical polynomial.
  const anf_polynomial& polynomial(std::size_t k) const { return polys_.at(k); }
  /// Total number of monomials.
  std::size_t term_count() const noexcept { return term_start_.empty() ? 0 : term_start_.size() - 1; }

  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out, std::span<W>) const {
    detail::check_circuit_spans("anf_circuit", n_, polys_.size(), 0, in.size(), out.size(), 0);
    const W ones = ones_word<W>();
    std::size_t t = 0;
    for (std::size_t k = 0; k < polys_.size(); ++k) {
      W acc = zero_word<W>();
      for (std::size_t e = t + polys_[k].size(); t < e; ++t) {
        const std::uint32_t b = term_start_[t], end = term_start_[t + 1];
        W prod = b == end ? ones : in[flat_vars_[b]];
        for (std::uint32_t j = b + 1; j < end; ++j) prod = prod & in[flat_vars_[j]];
        acc = acc ^ prod;
      }
      out[k] = acc;
    }
  }
  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out) const {
    evaluate(in, out, std::span<W>{});
  }

  /// Equal circuits compute equal functions (the form is canonical).
  friend bool operator==(const anf_circuit& x, const anf_circuit& y) { return x.n_ == y.n_ && x.polys_ == y.polys_; }

 private:
  // Variables of every monomial, output by output, in one flat buffer.
  void flatten() {
    flat_vars_.clear();
    term_start_.assign(1, 0);
    for (const auto& p : polys_)
      for (auto t : p) {
        for (monomial r = t; r; r &= r - 1) flat_vars_.push_back(static_cast<std::uint8_t>(std::countr_zero(r)));
        term_start_.push_back(static_cast<std::uint32_t>(flat_vars_.size()));
      }
  }

  std::size_t n_ = 0;
  std::vector<anf_polynomial> polys_;
  std::vector<std::uint8_t> flat_vars_;
  std::vector<std::uint32_t> term_start_;
};

BEM_NAMESPACE_END
