// The entropy-rate reference of BEM suite §4.1.2 (testing, step 3): an
// interpolated modified Kneser-Ney n-gram model (Chen and Goodman 1998,
// "An empirical study of smoothing techniques for language modeling",
// §3.5 / §4.1.6), trained once on a symbol sequence and scored on another.
//
// Symbols are integers in [0, V). An n-gram is stored exactly, packed into
// 64 bits with b = bit_width(V - 1) bits per symbol, the oldest symbol
// highest, so the highest order is at most 64 / b (9 for the 96-character
// alphabet, 4 for a vocabulary of up to 2^16 tokens); sorting the packed
// n-grams groups them by context.
//
// Probability of w after the history h (the last n - 1 symbols), order n:
//   p_n(w | h) = max(c_n(h w) - D_n(c_n(h w)), 0) / c_n(h .)
//                + gamma_n(h) p_{n-1}(w | h'),      h' = h without its oldest symbol
//   gamma_n(h) = (D_n1 N1(h .) + D_n2 N2(h .) + D_n3+ N3+(h .)) / c_n(h .)
// where c_n(h w) is the count of h w in the training sequence at the highest
// order and its continuation count N1+(. h w), the number of distinct
// symbols seen before h w, at every lower order; c_n(h .) is their sum over
// w and Nk(h .) the number of w with count k (3+: at least 3). A context h
// never seen gives p_n = p_{n-1}; p_0(w) = 1 / V. The discounts of order n
// come from its count-of-counts n1..n4:
//   Y = n1 / (n1 + 2 n2),  D_n1 = 1 - 2 Y n2 / n1,  D_n2 = 2 - 3 Y n3 / n2,
//   D_n3+ = 3 - 4 Y n4 / n3
// (each clamped to [0, k], and 0.5, 1, 1.5 where a count-of-count is 0).
// Where fewer than n - 1 symbols precede a position, the highest order it
// can use is the number that do, plus one. Every p_n sums to 1 over w, so
// the model is a distribution over all V symbols, never 0.
//
// Sampling draws from the same mixture exactly: at the highest order whose
// context was seen, a symbol w with probability max(c - D, 0) / c(h .),
// otherwise (probability gamma) the next lower order, down to uniform.
#pragma once

#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace learn {

class kneser_ney_model {
 public:
  /// The model of `train` over symbols [0, vocabulary), orders 1..max_order.
  kneser_ney_model(std::span<const std::uint32_t> train, std::uint32_t vocabulary, int max_order)
      : V_(vocabulary), b_(std::max(1, static_cast<int>(std::bit_width(vocabulary - 1u)))), N_(max_order) {
    if (vocabulary < 2) throw std::invalid_argument("kneser_ney_model: the vocabulary needs at least 2 symbols");
    if (max_order < 1 || max_order * b_ > 64)
      throw std::invalid_argument("kneser_ney_model: order " + std::to_string(max_order) + " with " +
                                  std::to_string(b_) + "-bit symbols does not fit 64 bits (at most " +
                                  std::to_string(64 / b_) + ")");
    for (auto s : train)
      if (s >= V_) throw std::invalid_argument("kneser_ney_model: a training symbol lies outside the vocabulary");
    levels_.resize(static_cast<std::size_t>(N_) + 1);
    // The highest order: raw counts of every n-gram of the sequence.
    std::vector<std::uint64_t> keys;
    for (int n = N_; n >= 1; --n) {
      keys.clear();
      if (n == N_) {
        for (std::size_t i = static_cast<std::size_t>(n) - 1; i < train.size(); ++i)
          keys.push_back(pack(train.subspan(i + 1 - static_cast<std::size_t>(n), static_cast<std::size_t>(n))));
      } else {
        // Continuation counts: one per distinct (n+1)-gram, keyed by its last n symbols.
        for (auto k : levels_[static_cast<std::size_t>(n) + 1].grams) keys.push_back(k & mask(n));
      }
      std::sort(keys.begin(), keys.end());
      build_level(n, keys);
    }
  }

  std::uint32_t vocabulary() const noexcept { return V_; }
  int max_order() const noexcept { return N_; }
  /// Distinct n-grams stored at order n.
  std::size_t grams(int n) const { return levels_.at(static_cast<std::size_t>(n)).grams.size(); }
  /// The three discounts of order n.
  std::array<double, 3> discounts(int n) const { return levels_.at(static_cast<std::size_t>(n)).D; }

  /// p(w | history), the history's last max_order - 1 symbols used.
  double probability(std::span<const std::uint32_t> history, std::uint32_t w) const {
    const int top = std::min<int>(N_, static_cast<int>(history.size()) + 1);
    double p = 1.0 / static_cast<double>(V_);
    for (int n = 1; n <= top; ++n) {
      const level& L = levels_[static_cast<std::size_t>(n)];
      const std::uint64_t h = n == 1 ? 0 : pack(history.last(static_cast<std::size_t>(n) - 1));
      const auto c = context(L, h);
      if (!c) continue;
      const std::uint64_t key = n == 1 ? w : (h << b_) | w;
      const auto it = std::lower_bound(L.grams.begin() + c->first, L.grams.begin() + c->last, key);
      double discounted = 0;
      if (it != L.grams.begin() + c->last && *it == key) {
        const std::uint32_t k = L.counts[static_cast<std::size_t>(it - L.grams.begin())];
        discounted = std::max(0.0, static_cast<double>(k) - L.D[std::min<std::uint32_t>(k, 3) - 1]);
      }
      p = (discounted + gamma_mass(L, *c) * p) / static_cast<double>(c->total);
    }
    return p;
  }

  /// A symbol drawn from p(. | history) (the file comment).
  std::uint32_t sample(std::span<const std::uint32_t> history, xoshiro256ss& rng) const {
    const int top = std::min<int>(N_, static_cast<int>(history.size()) + 1);
    for (int n = top; n >= 1; --n) {
      const level& L = levels_[static_cast<std::size_t>(n)];
      const std::uint64_t h = n == 1 ? 0 : pack(history.last(static_cast<std::size_t>(n) - 1));
      const auto c = context(L, h);
      if (!c) continue;
      double u = rng.uniform01() * static_cast<double>(c->total);
      for (std::size_t i = c->first; i < c->last; ++i) {
        const std::uint32_t k = L.counts[i];
        u -= std::max(0.0, static_cast<double>(k) - L.D[std::min<std::uint32_t>(k, 3) - 1]);
        if (u < 0) return static_cast<std::uint32_t>(L.grams[i] & mask(1));
      }
      // The rest, gamma_n(h), goes to the lower order.
    }
    return static_cast<std::uint32_t>(rng.uniform_below(V_));
  }

 private:
  struct context_range {
    std::size_t first, last;  // its n-grams in grams[first, last)
    std::uint64_t total;      // c(h .)
    std::uint32_t n1, n2, n3;
  };
  struct level {
    std::vector<std::uint64_t> grams;   // sorted, distinct
    std::vector<std::uint32_t> counts;  // count or continuation count of each
    std::vector<std::uint64_t> contexts;            // sorted, distinct: gram >> b
    std::vector<context_range> ranges;              // one per context
    std::array<double, 3> D{};
  };

  std::uint64_t mask(int n) const { return n * b_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (n * b_)) - 1; }
  std::uint64_t pack(std::span<const std::uint32_t> s) const {
    std::uint64_t k = 0;
    for (auto x : s) k = (k << b_) | x;
    return k;
  }

  void build_level(int n, const std::vector<std::uint64_t>& sorted) {
    level& L = levels_[static_cast<std::size_t>(n)];
    std::array<std::uint64_t, 5> coc{};  // count-of-counts n1..n4
    for (std::size_t i = 0; i < sorted.size();) {
      std::size_t j = i;
      while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
      const auto k = static_cast<std::uint32_t>(j - i);
      L.grams.push_back(sorted[i]);
      L.counts.push_back(k);
      if (k <= 4) ++coc[k];
      i = j;
    }
    const double n1 = static_cast<double>(coc[1]), n2 = static_cast<double>(coc[2]), n3 = static_cast<double>(coc[3]),
                 n4 = static_cast<double>(coc[4]);
    L.D = {0.5, 1.0, 1.5};
    if (n1 > 0 && n2 > 0 && n3 > 0 && n4 > 0) {
      const double Y = n1 / (n1 + 2 * n2);
      L.D = {std::clamp(1 - 2 * Y * n2 / n1, 0.0, 1.0), std::clamp(2 - 3 * Y * n3 / n2, 0.0, 2.0),
             std::clamp(3 - 4 * Y * n4 / n3, 0.0, 3.0)};
    }
    for (std::size_t i = 0; i < L.grams.size();) {
      const std::uint64_t h = L.grams[i] >> b_;
      context_range r{i, i, 0, 0, 0, 0};
      while (r.last < L.grams.size() && (L.grams[r.last] >> b_) == h) {
        const std::uint32_t k = L.counts[r.last++];
        r.total += k;
        (k == 1 ? r.n1 : k == 2 ? r.n2 : r.n3) += 1;
      }
      L.contexts.push_back(h);
      L.ranges.push_back(r);
      i = r.last;
    }
  }

  static const context_range* context(const level& L, std::uint64_t h) {
    const auto it = std::lower_bound(L.contexts.begin(), L.contexts.end(), h);
    if (it == L.contexts.end() || *it != h) return nullptr;
    return &L.ranges[static_cast<std::size_t>(it - L.contexts.begin())];
  }
  static double gamma_mass(const level& L, const context_range& c) {
    return L.D[0] * c.n1 + L.D[1] * c.n2 + L.D[2] * c.n3;
  }

  std::uint32_t V_;
  int b_, N_;
  std::vector<level> levels_;
};

}  // namespace learn
BEM_NAMESPACE_END
