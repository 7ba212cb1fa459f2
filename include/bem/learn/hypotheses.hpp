// The learning BEM's hypothesis classes, as circuits an expert runs
// (docs/learning-bem.md, "Hypotheses").
//
//   circuit_builder       gate lists built gate by gate, structurally hashed,
//                         constants folded (a 0 node costs one ANDN, a 1 one
//                         more NOT, made only when used);
//   truth_table_circuit   any function of n <= 16 inputs, m outputs, as a
//                         shared mux tree (a ternary mux gate per ROBDD node,
//                         inputs tested from the last to the first);
//   moore_step_circuit    one step of a Moore machine: (token bits, state
//                         bits) -> (next state bits, output of the next state);
//   counter_circuit       a b-bit two's-complement saturating up/down counter
//                         d with a sticky "went negative" flag n: each token
//                         adds +1, -1 or 0 (saturating at the ends), then
//                         n |= d < 0; a readout of (d, n);
//   recall_circuit        the induction memory: store the current token under
//                         the previous one, recall what followed the current
//                         one's key, answer recalled - offset (or NULL).
// Token t enters as `token_bits` bits, bit j = (t >> j) & 1.
#pragma once

#include <bem/circuits/gate.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/version.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace learn {

/// Builds a gate list node by node (inputs are nodes 0..n-1).
class circuit_builder {
 public:
  using node = std::uint32_t;

  explicit circuit_builder(std::size_t inputs) : n_(inputs) {
    if (inputs == 0) throw std::invalid_argument("circuit_builder: a circuit needs at least one input");
  }
  node input(std::size_t i) const {
    if (i >= n_) throw std::out_of_range("circuit_builder: input " + std::to_string(i));
    return static_cast<node>(i);
  }
  node constant(bool v) {
    if (!zero_) zero_ = add(gate{gate_op::andn, 0, 0, 0, 0});  // x0 & ~x0
    if (!v) return *zero_;
    if (!one_) one_ = add(gate{gate_op::not_, 0, *zero_, 0, 0});
    return *one_;
  }
  bool is_constant(node a, bool v) const noexcept { return v ? (one_ && a == *one_) : (zero_ && a == *zero_); }

  node not_(node a) {
    if (is_constant(a, false)) return constant(true);
    if (is_constant(a, true)) return constant(false);
    return add(gate{gate_op::not_, 0, a, 0, 0});
  }
  node and_(node a, node b) {
    if (a == b) return a;
    if (is_constant(a, false) || is_constant(b, false)) return constant(false);
    if (is_constant(a, true)) return b;
    if (is_constant(b, true)) return a;
    return add(gate{gate_op::and_, 0, std::min(a, b), std::max(a, b), 0});
  }
  node or_(node a, node b) {
    if (a == b) return a;
    if (is_constant(a, true) || is_constant(b, true)) return constant(true);
    if (is_constant(a, false)) return b;
    if (is_constant(b, false)) return a;
    return add(gate{gate_op::or_, 0, std::min(a, b), std::max(a, b), 0});
  }
  node xor_(node a, node b) {
    if (a == b) return constant(false);
    if (is_constant(a, false)) return b;
    if (is_constant(b, false)) return a;
    if (is_constant(a, true)) return not_(b);
    if (is_constant(b, true)) return not_(a);
    return add(gate{gate_op::xor_, 0, std::min(a, b), std::max(a, b), 0});
  }
  /// s ? t : e.
  node mux(node s, node t, node e) {
    if (t == e) return t;
    if (is_constant(s, true)) return t;
    if (is_constant(s, false)) return e;
    if (is_constant(t, true) && is_constant(e, false)) return s;
    if (is_constant(t, false) && is_constant(e, true)) return not_(s);
    return add(gate{gate_op::ternary, ternary_tt::mux, s, t, e});
  }
  /// [bits == value] for a little-endian group of nodes.
  node equals(const std::vector<node>& bits, std::uint64_t value) {
    node r = constant(true);
    for (std::size_t j = 0; j < bits.size(); ++j) r = and_(r, (value >> j) & 1u ? bits[j] : not_(bits[j]));
    return r;
  }

  std::size_t gate_count() const noexcept { return gates_.size(); }
  /// The gate list of `outputs`, without the gates no output reads (the
  /// constants made on the way, branches folded away).
  gate_list build(const std::vector<node>& outputs) const {
    std::vector<bool> live(n_ + gates_.size(), false);
    for (node o : outputs) live[o] = true;
    for (std::size_t i = gates_.size(); i-- > 0;) {
      if (!live[n_ + i]) continue;
      const gate& g = gates_[i];
      const int k = gate_arity(g.op);
      live[g.a] = true;
      if (k > 1) live[g.b] = true;
      if (k > 2) live[g.c] = true;
    }
    std::vector<node> renumber(n_ + gates_.size());
    for (std::size_t i = 0; i < n_; ++i) renumber[i] = static_cast<node>(i);
    std::vector<gate> kept;
    for (std::size_t i = 0; i < gates_.size(); ++i) {
      if (!live[n_ + i]) continue;
      gate g = gates_[i];
      const int k = gate_arity(g.op);
      g.a = renumber[g.a];
      if (k > 1) g.b = renumber[g.b];
      if (k > 2) g.c = renumber[g.c];
      renumber[n_ + i] = static_cast<node>(n_ + kept.size());
      kept.push_back(g);
    }
    std::vector<std::uint32_t> outs;
    for (node o : outputs) outs.push_back(renumber[o]);
    return gate_list(n_, std::move(kept), std::move(outs));
  }

 private:
  node add(const gate& g) {
    const auto key = std::make_tuple(static_cast<int>(g.op), g.tt, g.a, g.b, g.c);
    if (const auto it = hashed_.find(key); it != hashed_.end()) return it->second;
    gates_.push_back(g);
    const node id = static_cast<node>(n_ + gates_.size() - 1);
    hashed_.emplace(key, id);
    return id;
  }

  std::size_t n_;
  std::vector<gate> gates_;
  std::map<std::tuple<int, std::uint8_t, node, node, node>, node> hashed_;
  std::optional<node> zero_, one_;
};

/// Any function of n <= 16 inputs into m <= 64 outputs (rows[x] bit k =
/// output k on input x), as shared mux trees over the inputs.
inline gate_list truth_table_circuit(std::size_t n, std::size_t m, const std::vector<std::uint64_t>& rows) {
  if (n == 0 || n > 16 || rows.size() != (std::size_t{1} << n) || m == 0 || m > 64)
    throw std::invalid_argument("truth_table_circuit: needs 1..16 inputs, 2^n rows and 1..64 outputs");
  circuit_builder b(n);
  // node of the sub-table of output k over inputs 0..v-1 at a fixed prefix
  // of the higher inputs; memoised by the sub-table's contents.
  std::map<std::pair<std::size_t, std::vector<bool>>, circuit_builder::node> memo;
  const std::function<circuit_builder::node(std::size_t, const std::vector<bool>&)> build =
      [&](std::size_t v, const std::vector<bool>& table) -> circuit_builder::node {
    bool all0 = true, all1 = true;
    for (bool x : table) (x ? all0 : all1) = false;
    if (all0) return b.constant(false);
    if (all1) return b.constant(true);
    const auto key = std::make_pair(v, table);
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
    const std::size_t half = table.size() / 2;  // input v-1 is the highest bit of the index
    const std::vector<bool> lo(table.begin(), table.begin() + static_cast<std::ptrdiff_t>(half));
    const std::vector<bool> hi(table.begin() + static_cast<std::ptrdiff_t>(half), table.end());
    const auto r = b.mux(b.input(v - 1), build(v - 1, hi), build(v - 1, lo));
    memo.emplace(key, r);
    return r;
  };
  std::vector<circuit_builder::node> outs;
  for (std::size_t k = 0; k < m; ++k) {
    std::vector<bool> column(rows.size());
    for (std::size_t x = 0; x < rows.size(); ++x) column[x] = (rows[x] >> k) & 1u;
    outs.push_back(build(n, column));
  }
  return b.build(outs);
}

/// Bits to number `count` values (at least 1).
constexpr std::uint32_t bits_for(std::uint64_t count) noexcept {
  return count <= 2 ? 1u : static_cast<std::uint32_t>(std::bit_width(count - 1));
}

/// One step of a Moore machine with `states` states over an alphabet of
/// `alphabet` symbols: inputs (token bits, then state bits), outputs (next
/// state bits, then the output of the next state). `next(s, a)` and
/// `output(s)` describe the machine; unused codes go to state 0.
template <class Next, class Output>
gate_list moore_step_circuit(std::uint32_t states, std::uint32_t alphabet, Next&& next, Output&& output) {
  const std::uint32_t tb = bits_for(alphabet), sb = bits_for(states);
  const std::size_t n = tb + sb;
  std::vector<std::uint64_t> rows(std::size_t{1} << n, 0);
  for (std::size_t x = 0; x < rows.size(); ++x) {
    const std::uint32_t a = static_cast<std::uint32_t>(x & ((1u << tb) - 1));
    const std::uint32_t s = static_cast<std::uint32_t>(x >> tb);
    const std::uint32_t t = a < alphabet && s < states ? static_cast<std::uint32_t>(next(s, a)) : 0;
    rows[x] = t | (static_cast<std::uint64_t>(output(t) ? 1 : 0) << sb);
  }
  return truth_table_circuit(n, sb + 1, rows);
}

/// What a counter reads out (on d and n after the token).
enum class counter_readout : std::uint8_t {
  at_least,          ///< d >= threshold
  equal,             ///< d == threshold
  never_negative,    ///< !n
  balanced_closed,   ///< !n && d == 0
};

struct counter_spec {
  std::vector<std::int8_t> delta;  ///< per token: +1, -1 or 0
  counter_readout readout = counter_readout::at_least;
  std::int64_t threshold = 0;
  std::uint32_t bits = 16;  ///< b, two's complement: d in [-2^(b-1), 2^(b-1) - 1]
  friend bool operator==(const counter_spec&, const counter_spec&) = default;

  /// Reference semantics (the circuit must agree): one token.
  void step(std::int64_t& d, bool& n, std::uint32_t token) const {
    const std::int64_t hi = (std::int64_t{1} << (bits - 1)) - 1, lo = -(std::int64_t{1} << (bits - 1));
    const int dl = token < delta.size() ? delta[token] : 0;
    if (dl > 0 && d < hi) ++d;
    if (dl < 0 && d > lo) --d;
    n = n || d < 0;
  }
  bool answer(std::int64_t d, bool n) const {
    switch (readout) {
      case counter_readout::at_least: return d >= threshold;
      case counter_readout::equal: return d == threshold;
      case counter_readout::never_negative: return !n;
      case counter_readout::balanced_closed: return !n && d == 0;
    }
    return false;
  }
  std::string describe() const {
    std::string s = "counter(" + std::to_string(bits) + " bits; deltas";
    for (auto x : delta) s += ' ' + std::to_string(static_cast<int>(x));
    switch (readout) {
      case counter_readout::at_least: return s + "; d >= " + std::to_string(threshold) + ")";
      case counter_readout::equal: return s + "; d == " + std::to_string(threshold) + ")";
      case counter_readout::never_negative: return s + "; never negative)";
      case counter_readout::balanced_closed: return s + "; never negative and d == 0)";
    }
    return s + ")";
  }
};

/// The counter step: inputs (token bits, d bits, n), outputs (d' bits, n',
/// answer). `tokens` is the alphabet size.
inline gate_list counter_circuit(const counter_spec& c, std::uint32_t tokens) {
  if (c.bits < 2 || c.bits > 62) throw std::invalid_argument("counter_circuit: bits must lie in [2, 62]");
  const std::uint32_t tb = bits_for(tokens), b = c.bits;
  circuit_builder g(tb + b + 1);
  std::vector<circuit_builder::node> tok, d;
  for (std::uint32_t j = 0; j < tb; ++j) tok.push_back(g.input(j));
  for (std::uint32_t j = 0; j < b; ++j) d.push_back(g.input(tb + j));
  const auto n = g.input(tb + b);
  circuit_builder::node inc = g.constant(false), dec = g.constant(false);
  for (std::uint32_t t = 0; t < tokens && t < c.delta.size(); ++t) {
    if (c.delta[t] > 0) inc = g.or_(inc, g.equals(tok, t));
    if (c.delta[t] < 0) dec = g.or_(dec, g.equals(tok, t));
  }
  // Saturation: max = 0111..1, min = 1000..0.
  circuit_builder::node at_max = g.not_(d[b - 1]), at_min = d[b - 1];
  for (std::uint32_t j = 0; j + 1 < b; ++j) {
    at_max = g.and_(at_max, d[j]);
    at_min = g.and_(at_min, g.not_(d[j]));
  }
  const auto up = g.and_(inc, g.not_(at_max)), down = g.and_(dec, g.not_(at_min));
  // Bit j flips going up when bits below are all 1, going down when all 0.
  std::vector<circuit_builder::node> next;
  circuit_builder::node ones = g.constant(true), zeros = g.constant(true);
  for (std::uint32_t j = 0; j < b; ++j) {
    const auto flip = g.or_(g.and_(up, ones), g.and_(down, zeros));
    next.push_back(g.xor_(d[j], flip));
    ones = g.and_(ones, d[j]);
    zeros = g.and_(zeros, g.not_(d[j]));
  }
  const auto n_next = g.or_(n, next[b - 1]);
  // d' == value, and d' >= value (signed: compare with the sign bits inverted).
  const auto equal_to = [&](std::int64_t v) {
    return g.equals(next, static_cast<std::uint64_t>(v) & ((b == 64 ? 0 : (std::uint64_t{1} << b)) - 1));
  };
  const auto at_least = [&](std::int64_t v) {
    // unsigned compare of (d' ^ 2^(b-1)) >= (v ^ 2^(b-1)), from the top bit down.
    const std::uint64_t k = (static_cast<std::uint64_t>(v) ^ (std::uint64_t{1} << (b - 1))) & ((std::uint64_t{1} << b) - 1);
    circuit_builder::node ge = g.constant(true);  // equal so far counts as >=
    for (std::uint32_t j = 0; j < b; ++j) {  // from the least significant bit: ge = (x_j > k_j) | (x_j == k_j & ge)
      const auto x = j == b - 1 ? g.not_(next[j]) : next[j];
      ge = (k >> j) & 1u ? g.and_(x, ge) : g.or_(x, ge);
    }
    return ge;
  };
  const std::int64_t hi = (std::int64_t{1} << (b - 1)) - 1, lo = -(std::int64_t{1} << (b - 1));
  circuit_builder::node answer = g.constant(false);
  switch (c.readout) {
    case counter_readout::at_least:
      answer = c.threshold > hi ? g.constant(false) : c.threshold <= lo ? g.constant(true) : at_least(c.threshold);
      break;
    case counter_readout::equal:
      answer = c.threshold > hi || c.threshold < lo ? g.constant(false) : equal_to(c.threshold);
      break;
    case counter_readout::never_negative: answer = g.not_(n_next); break;
    case counter_readout::balanced_closed: answer = g.and_(g.not_(n_next), equal_to(0)); break;
  }
  std::vector<circuit_builder::node> outs = next;
  outs.push_back(n_next);
  outs.push_back(answer);
  return g.build(outs);
}

/// The induction memory step: inputs (current token bits, the slot's token
/// bits, the slot's presence bit), outputs (slot token bits := current,
/// presence := 1, previous-token register := current, class bits of
/// recalled - offset, NULL flag = !presence).
inline gate_list recall_circuit(std::uint32_t token_bits, std::uint32_t class_bits, std::uint64_t offset) {
  const std::uint32_t tb = token_bits;
  circuit_builder g(2 * tb + 1);
  std::vector<circuit_builder::node> cur, slot;
  for (std::uint32_t j = 0; j < tb; ++j) cur.push_back(g.input(j));
  for (std::uint32_t j = 0; j < tb; ++j) slot.push_back(g.input(tb + j));
  const auto present = g.input(2 * tb);
  std::vector<circuit_builder::node> outs = cur;  // slot token := current
  outs.push_back(g.constant(true));               // presence
  for (auto c : cur) outs.push_back(c);           // previous := current
  // recalled + (2^w - offset) mod 2^w, ripple-carry with a constant.
  const std::uint32_t w = std::max(tb, class_bits);
  const std::uint64_t add = ((std::uint64_t{1} << w) - (offset & ((std::uint64_t{1} << w) - 1))) & ((std::uint64_t{1} << w) - 1);
  circuit_builder::node carry = g.constant(false);
  for (std::uint32_t j = 0; j < class_bits; ++j) {
    const auto x = j < tb ? slot[j] : g.constant(false);
    const auto k = g.constant((add >> j) & 1u);
    outs.push_back(g.xor_(g.xor_(x, k), carry));
    carry = g.or_(g.and_(x, k), g.and_(carry, g.xor_(x, k)));
  }
  outs.push_back(g.not_(present));
  return g.build(outs);
}

}  // namespace learn
BEM_NAMESPACE_END
