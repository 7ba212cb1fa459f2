// Threshold circuits: the gate list of x -> argmax_a (b_a + sum_j w_a,j x_j)
// over d input bits with integer weights, the lowest a on a tie.
//
// That is the policy of a linear model of the rewards over binary context
// bits (bem::bem_bandit_policy's experts): each score is a sum of the weights
// of the set bits, so the circuit adds w_a,j AND x_j (the weight's bits, each
// either x_j or the constant 0) in two's complement, full adders as a 3-way
// XOR and a majority gate, then scans a = 1..K-1 keeping the best score and
// its index (the sign of best - s_a decides; muxes carry the winner).
// Constants are folded as the circuit is built, so a weight's zero bits cost
// nothing. Outputs: the action's `action_bits` bits, least significant
// first.
//
// Size: about 2 gates per set weight bit and score bit, plus 2 (score width)
// per comparison and (score width + action bits) muxes per action: about
// 2,300 gates at d = 8, K = 4 with 8-bit weights.
#pragma once

#include <bem/circuits/gate.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

namespace detail {

/// Builds a gate list over n inputs, folding constants: a signal is either
/// a constant or a node.
class folding_builder {
 public:
  struct signal {
    bool constant = true;
    bool value = false;   ///< the constant's value
    std::uint32_t node = 0;
  };

  explicit folding_builder(std::size_t inputs) : n_(inputs) {}

  static signal zero() { return {}; }
  static signal one() { return {true, true, 0}; }
  static signal input(std::uint32_t i) { return {false, false, i}; }

  signal xor3(signal a, signal b, signal c) {
    // Fold constants: x ^ 0 = x, x ^ 1 = !x.
    bool flip = false;
    std::vector<signal> live;
    for (const signal& s : {a, b, c}) {
      if (s.constant) flip ^= s.value;
      else live.push_back(s);
    }
    signal r;
    if (live.empty()) return {true, flip, 0};
    if (live.size() == 1) r = live[0];
    else if (live.size() == 2) r = emit({gate_op::xor_, 0, live[0].node, live[1].node, 0});
    else r = emit({gate_op::ternary, ternary_tt::xor3, live[0].node, live[1].node, live[2].node});
    return flip ? negate(r) : r;
  }

  signal majority(signal a, signal b, signal c) {
    // maj(x, y, 0) = x & y, maj(x, y, 1) = x | y; two constants decide unless they differ.
    std::vector<signal> live;
    int ones = 0, zeros = 0;
    for (const signal& s : {a, b, c}) {
      if (!s.constant) live.push_back(s);
      else if (s.value) ++ones;
      else ++zeros;
    }
    if (ones >= 2) return one();
    if (zeros >= 2) return zero();
    if (live.size() == 1) return live[0];  // one 0 and one 1
    if (live.size() == 2)
      return emit({ones ? gate_op::or_ : gate_op::and_, 0, live[0].node, live[1].node, 0});
    return emit({gate_op::ternary, ternary_tt::majority, a.node, b.node, c.node});
  }

  signal negate(signal a) {
    if (a.constant) return {true, !a.value, 0};
    return emit({gate_op::not_, 0, a.node, 0, 0});
  }

  signal and2(signal a, signal b) {
    if (a.constant) return a.value ? b : zero();
    if (b.constant) return b.value ? a : zero();
    return emit({gate_op::and_, 0, a.node, b.node, 0});
  }

  /// s ? a : b.
  signal mux(signal s, signal a, signal b) {
    if (s.constant) return s.value ? a : b;
    if (a.constant && b.constant && a.value == b.value) return a;
    if (!a.constant && !b.constant && a.node == b.node) return a;
    const signal av = materialise(a), bv = materialise(b);
    return emit({gate_op::ternary, ternary_tt::mux, s.node, av.node, bv.node});
  }

  /// A node carrying the signal (constants become x0 ^ x0 and its negation).
  signal materialise(signal s) {
    if (!s.constant) return s;
    if (n_ == 0) throw std::invalid_argument("linear_argmax_circuit: needs at least one input");
    if (!const0_) const0_ = emit({gate_op::xor_, 0, 0, 0, 0}).node;
    if (!s.value) return {false, false, *const0_};
    if (!const1_) const1_ = emit({gate_op::not_, 0, *const0_, 0, 0}).node;
    return {false, false, *const1_};
  }

  gate_list finish(const std::vector<signal>& outputs) {
    std::vector<std::uint32_t> out;
    for (const signal& s : outputs) out.push_back(materialise(s).node);
    return gate_list(n_, std::move(gates_), std::move(out));
  }

 private:
  signal emit(gate g) {
    gates_.push_back(g);
    return {false, false, static_cast<std::uint32_t>(n_ + gates_.size() - 1)};
  }

  std::size_t n_;
  std::vector<gate> gates_;
  std::optional<std::uint32_t> const0_, const1_;
};

}  // namespace detail

/// The integer linear scores of a threshold circuit: weights[a * (d + 1) + j]
/// = w_a,j for j < d and weights[a * (d + 1) + d] = b_a.
struct linear_scores {
  int d = 0;        ///< input bits
  int actions = 0;  ///< K
  std::vector<std::int32_t> weights;

  std::int32_t weight(int a, int j) const {
    return weights.at(static_cast<std::size_t>(a) * static_cast<std::size_t>(d + 1) + static_cast<std::size_t>(j));
  }
  /// The score of action a at input x (bit j of x is x_j).
  std::int64_t score(int a, std::uint32_t x) const {
    std::int64_t s = weight(a, d);
    for (int j = 0; j < d; ++j)
      if ((x >> j) & 1u) s += weight(a, j);
    return s;
  }
  /// argmax_a score(a, x), the lowest a on a tie: what the circuit computes.
  int best(std::uint32_t x) const {
    int b = 0;
    for (int a = 1; a < actions; ++a)
      if (score(a, x) > score(b, x)) b = a;
    return b;
  }
};

/// The circuit of `s.best` over s.d inputs, with `action_bits` outputs
/// (least significant first). Throws std::invalid_argument for a shape that
/// does not fit (no input, fewer than 2 actions, an action number that does
/// not fit in action_bits, or weights beyond +-2^24).
inline gate_list linear_argmax_circuit(const linear_scores& s, int action_bits) {
  if (s.d < 1 || s.actions < 2 || action_bits < 1 || action_bits > 16 || s.actions > (1 << action_bits) ||
      s.weights.size() != static_cast<std::size_t>(s.actions) * static_cast<std::size_t>(s.d + 1))
    throw std::invalid_argument("linear_argmax_circuit: need d >= 1, 2 <= K <= 2^action_bits and K (d + 1) weights");
  std::int64_t bound = 0;  // the largest |score|
  for (int a = 0; a < s.actions; ++a) {
    std::int64_t sum = 0;
    for (int j = 0; j <= s.d; ++j) {
      const std::int64_t w = s.weight(a, j);
      if (w > (1 << 24) || w < -(1 << 24))
        throw std::invalid_argument("linear_argmax_circuit: weight " + std::to_string(w) + " beyond +-2^24");
      sum += w < 0 ? -w : w;
    }
    bound = std::max(bound, sum);
  }
  // Scores fit `width` bits in two's complement, and so does a difference
  // of two of them with one more bit.
  int width = 1;
  while ((std::int64_t{1} << (width - 1)) <= bound) ++width;
  const int diff_width = width + 1;

  using signal = detail::folding_builder::signal;
  detail::folding_builder b(static_cast<std::size_t>(s.d));
  const auto constant_bits = [&](std::int64_t v) {
    std::vector<signal> bits(static_cast<std::size_t>(diff_width));
    for (int i = 0; i < diff_width; ++i) bits[static_cast<std::size_t>(i)] = ((v >> i) & 1) ? b.one() : b.zero();
    return bits;
  };
  const auto add = [&](const std::vector<signal>& x, const std::vector<signal>& y, signal carry) {
    std::vector<signal> sum(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      sum[i] = b.xor3(x[i], y[i], carry);
      if (i + 1 < x.size()) carry = b.majority(x[i], y[i], carry);
    }
    return sum;
  };
  std::vector<std::vector<signal>> scores;
  for (int a = 0; a < s.actions; ++a) {
    std::vector<signal> acc = constant_bits(s.weight(a, s.d));
    for (int j = 0; j < s.d; ++j) {
      std::vector<signal> term = constant_bits(s.weight(a, j));
      for (signal& t : term) t = b.and2(t, detail::folding_builder::input(static_cast<std::uint32_t>(j)));
      acc = add(acc, term, b.zero());
    }
    scores.push_back(std::move(acc));
  }
  // Scan: take a when best - s_a < 0 (strictly better), keeping the lowest on a tie.
  std::vector<signal> best = scores[0];
  std::vector<signal> index(static_cast<std::size_t>(action_bits), b.zero());
  for (int a = 1; a < s.actions; ++a) {
    std::vector<signal> not_sa(scores[static_cast<std::size_t>(a)].size());
    for (std::size_t i = 0; i < not_sa.size(); ++i) not_sa[i] = b.negate(scores[static_cast<std::size_t>(a)][i]);
    const signal take = add(best, not_sa, b.one()).back();  // best + ~s_a + 1 = best - s_a; its sign
    for (std::size_t i = 0; i < best.size(); ++i) best[i] = b.mux(take, scores[static_cast<std::size_t>(a)][i], best[i]);
    for (int i = 0; i < action_bits; ++i)
      index[static_cast<std::size_t>(i)] =
          b.mux(take, ((a >> i) & 1) ? b.one() : b.zero(), index[static_cast<std::size_t>(i)]);
  }
  return b.finish(index);
}

BEM_NAMESPACE_END
