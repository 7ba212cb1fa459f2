// Gate lists: circuits as a list of word operations, and their fast
// interpreter.
//
// A gate list over n inputs numbers its nodes: 0..n-1 are the inputs, n + i
// is gate i. Gate i reads only nodes below n + i (the list is in topological
// order). Operations: AND, OR, XOR, NOT, ANDN (a & ~b) with one or two
// operands, and TERNARY: any 3-input function given by an 8-bit truth table
// `tt`, whose bit (a << 2 | b << 1 | c) is the output for operand values a,
// b, c (the vpternlog convention: 0xCA is a ? b : c, 0xE8 majority, 0x96
// three-way XOR). Outputs name nodes (an input or a gate).
//
// Gate count G = number of gates (a ternary gate counts one). A gate is live
// when some output depends on it through the graph; `live_gate_count` counts
// those. Compilers delete dead gates from straight-line code, so cost per
// gate is only meaningful per live gate.
//
// Evaluation. `evaluate_reference` is the plain interpreter: one switch per
// gate, in list order. `evaluate` is the fast one. At construction the list
// is scheduled once by greedy list scheduling: repeatedly, the operation
// kind (operation and truth table) with the most ready gates is chosen and
// all its ready gates are emitted, including gates that become ready along
// the way. That is a topological order, and it turns the list into long
// runs of one operation, each run writing consecutive scratch slots. The
// evaluator then switches once per run, not once per gate, and the loop body
// of a run is one fixed word operation with two (or three) indexed loads and
// one store: no unpredictable branch per gate. The random circuits of
// microbenchmark 2.3 need 22-53 runs for G = 64-512.
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

/// The operations of a gate list.
enum class gate_op : std::uint8_t {
  and_ = 0,  ///< a & b
  or_ = 1,   ///< a | b
  xor_ = 2,  ///< a ^ b
  not_ = 3,  ///< ~a
  andn = 4,  ///< a & ~b
  ternary = 5,  ///< truth table tt over (a, b, c)
};

/// Number of operands of an operation.
constexpr int gate_arity(gate_op op) noexcept {
  return op == gate_op::not_ ? 1 : op == gate_op::ternary ? 3 : 2;
}

/// One gate: operation, truth table (ternary only, else 0), operand nodes
/// (unused operands are 0).
struct gate {
  gate_op op = gate_op::and_;
  std::uint8_t tt = 0;
  std::uint32_t a = 0, b = 0, c = 0;
  friend constexpr bool operator==(const gate&, const gate&) = default;
};

/// Well-known truth tables of ternary gates.
namespace ternary_tt {
inline constexpr std::uint8_t mux = 0xCA;       ///< a ? b : c
inline constexpr std::uint8_t majority = 0xE8;  ///< at least two of a, b, c
inline constexpr std::uint8_t xor3 = 0x96;      ///< a ^ b ^ c
inline constexpr std::uint8_t and3 = 0x80;      ///< a & b & c
inline constexpr std::uint8_t or3 = 0xFE;       ///< a | b | c
}  // namespace ternary_tt

/// The algebraic normal form of an 8-bit truth table: bit S (S a subset of
/// {a = 4, b = 2, c = 1}) is the coefficient of the product of S's
/// variables (bit 0: the constant). Its own inverse (the Moebius transform).
constexpr std::uint8_t ternary_anf(std::uint8_t tt) noexcept {
  unsigned f = tt;
  for (unsigned bit = 1; bit < 8; bit <<= 1)
    for (unsigned s = 0; s < 8; ++s)
      if (s & bit) f ^= ((f >> (s ^ bit)) & 1u) << s;
  return static_cast<std::uint8_t>(f);
}

/// A ternary gate of any truth table from its ANF coefficients (`anf` as
/// from ternary_anf): an XOR of the products of a, b, c that appear.
template <bit_sliced_word W>
constexpr W ternary_by_anf(std::uint8_t anf, const W& a, const W& b, const W& c) {
  W r = zero_word<W>();
  if (anf & 0x01) r = ~r;
  if (anf & 0x02) r = r ^ c;
  if (anf & 0x04) r = r ^ b;
  if (anf & 0x08) r = r ^ (b & c);
  if (anf & 0x10) r = r ^ a;
  if (anf & 0x20) r = r ^ (a & c);
  if (anf & 0x40) r = r ^ (a & b);
  if (anf & 0x80) r = r ^ (a & b & c);
  return r;
}

/// A ternary gate: the common tables by their formulas, any other by its ANF.
template <bit_sliced_word W>
constexpr W apply_ternary(std::uint8_t tt, const W& a, const W& b, const W& c) {
  switch (tt) {
    case ternary_tt::mux: return (a & b) | (~a & c);
    case ternary_tt::majority: return (a & b) | (c & (a | b));
    case ternary_tt::xor3: return a ^ b ^ c;
    case ternary_tt::and3: return a & b & c;
    case ternary_tt::or3: return a | b | c;
    default: return ternary_by_anf(ternary_anf(tt), a, b, c);
  }
}

/// One gate applied to its operand values.
template <bit_sliced_word W>
constexpr W apply_gate(gate_op op, std::uint8_t tt, const W& a, const W& b, const W& c) {
  switch (op) {
    case gate_op::and_: return a & b;
    case gate_op::or_: return a | b;
    case gate_op::xor_: return a ^ b;
    case gate_op::not_: return ~a;
    case gate_op::andn: return a & ~b;
    case gate_op::ternary: return apply_ternary(tt, a, b, c);
  }
  return a;
}

/// Number of gates some output depends on. `gates` in topological order over
/// `n` inputs; `outputs` name nodes.
constexpr std::size_t live_gate_count(std::size_t n, std::span<const gate> gates, std::span<const std::uint32_t> outputs) {
  std::vector<bool> live(n + gates.size(), false);
  for (auto o : outputs) live[o] = true;
  std::size_t count = 0;
  for (std::size_t i = gates.size(); i-- > 0;) {
    if (!live[n + i]) continue;
    ++count;
    const gate& g = gates[i];
    const int k = gate_arity(g.op);
    live[g.a] = true;
    if (k > 1) live[g.b] = true;
    if (k > 2) live[g.c] = true;
  }
  return count;
}

/// A gate list over `inputs()` inputs with a fast interpreter (see above).
class gate_list {
 public:
  using circuit_tag = circuit_representation_tag;

  gate_list() = default;

  /// Takes the gates (topological: gate i reads nodes < n + i) and the
  /// output nodes; throws std::invalid_argument naming the first bad gate or
  /// output.
  gate_list(std::size_t n, std::vector<gate> gates, std::vector<std::uint32_t> outputs)
      : n_(n), gates_(std::move(gates)), outputs_(std::move(outputs)) {
    for (std::size_t i = 0; i < gates_.size(); ++i) {
      const gate& g = gates_[i];
      if (static_cast<unsigned>(g.op) > static_cast<unsigned>(gate_op::ternary))
        throw std::invalid_argument("gate_list: gate " + std::to_string(i) + " has an unknown operation");
      const std::size_t limit = n_ + i;
      const int k = gate_arity(g.op);
      if (g.a >= limit || (k > 1 && g.b >= limit) || (k > 2 && g.c >= limit))
        throw std::invalid_argument("gate_list: gate " + std::to_string(i) + " reads a node >= " +
                                    std::to_string(limit) + " (gates must be in topological order)");
    }
    for (std::size_t k = 0; k < outputs_.size(); ++k)
      if (outputs_[k] >= n_ + gates_.size())
        throw std::invalid_argument("gate_list: output " + std::to_string(k) + " names node " +
                                    std::to_string(outputs_[k]) + ", which does not exist");
    schedule();
  }

  std::size_t inputs() const noexcept { return n_; }
  std::size_t outputs() const noexcept { return outputs_.size(); }
  /// G: every gate of the list.
  std::size_t gate_count() const noexcept { return gates_.size(); }
  /// Gates some output depends on.
  std::size_t live_gates() const { return live_gate_count(n_, gates_, outputs_); }
  /// n + G words: every node's value.
  std::size_t scratch_size() const noexcept { return n_ + gates_.size(); }

  const std::vector<gate>& gates() const noexcept { return gates_; }
  const std::vector<std::uint32_t>& output_nodes() const noexcept { return outputs_; }
  /// Number of runs of equal operations in the schedule (what the fast
  /// interpreter switches on).
  std::size_t run_count() const noexcept { return runs_.size(); }

  /// The fast interpreter (scheduled runs; see the header comment).
  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out, std::span<W> scratch) const {
    detail::check_circuit_spans("gate_list", n_, outputs_.size(), scratch_size(), in.size(), out.size(),
                                scratch.size());
    W* v = scratch.data();
    std::copy(in.begin(), in.end(), v);
    W* dst = v + n_;
    const std::uint32_t* o = operands_.data();
    for (const run& r : runs_) {
      const std::size_t cnt = r.count;
      switch (r.op) {
        case gate_op::and_:
          for (std::size_t k = 0; k < cnt; ++k, o += 2) dst[k] = v[o[0]] & v[o[1]];
          break;
        case gate_op::or_:
          for (std::size_t k = 0; k < cnt; ++k, o += 2) dst[k] = v[o[0]] | v[o[1]];
          break;
        case gate_op::xor_:
          for (std::size_t k = 0; k < cnt; ++k, o += 2) dst[k] = v[o[0]] ^ v[o[1]];
          break;
        case gate_op::andn:
          for (std::size_t k = 0; k < cnt; ++k, o += 2) dst[k] = v[o[0]] & ~v[o[1]];
          break;
        case gate_op::not_:
          for (std::size_t k = 0; k < cnt; ++k, o += 1) dst[k] = ~v[o[0]];
          break;
        case gate_op::ternary:
          ternary_run(r.tt, cnt, v, dst, o);
          o += 3 * cnt;
          break;
      }
      dst += cnt;
    }
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = v[output_slots_[k]];
  }

  /// evaluate with its own scratch (allocates).
  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out) const {
    std::vector<W> scratch(scratch_size());
    evaluate(in, out, std::span<W>(scratch));
  }

  /// The plain interpreter: one switch per gate, in list order. The
  /// reference the fast one is tested against, and the bench's peer.
  template <bit_sliced_word W>
  void evaluate_reference(std::span<const W> in, std::span<W> out, std::span<W> scratch) const {
    detail::check_circuit_spans("gate_list", n_, outputs_.size(), scratch_size(), in.size(), out.size(),
                                scratch.size());
    W* v = scratch.data();
    std::copy(in.begin(), in.end(), v);
    for (std::size_t i = 0; i < gates_.size(); ++i) {
      const gate& g = gates_[i];
      const int k = gate_arity(g.op);
      v[n_ + i] = apply_gate<W>(g.op, g.tt, v[g.a], k > 1 ? v[g.b] : v[g.a], k > 2 ? v[g.c] : v[g.a]);
    }
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = v[outputs_[k]];
  }

  /// Equal lists: same inputs, gates and outputs (a structural, not a
  /// functional, comparison).
  friend bool operator==(const gate_list& x, const gate_list& y) {
    return x.n_ == y.n_ && x.gates_ == y.gates_ && x.outputs_ == y.outputs_;
  }

 private:
  struct run {
    gate_op op;
    std::uint8_t tt;
    std::uint32_t count;
  };

  template <bit_sliced_word W>
  static void ternary_run(std::uint8_t tt, std::size_t cnt, const W* v, W* dst, const std::uint32_t* o) {
    // One dispatch per run; each case's loop has a fixed body.
    switch (tt) {
      case ternary_tt::mux:
        for (std::size_t k = 0; k < cnt; ++k, o += 3) {
          const W& a = v[o[0]];
          dst[k] = (a & v[o[1]]) | (~a & v[o[2]]);
        }
        return;
      case ternary_tt::majority:
        for (std::size_t k = 0; k < cnt; ++k, o += 3) {
          const W& a = v[o[0]];
          const W& b = v[o[1]];
          dst[k] = (a & b) | (v[o[2]] & (a | b));
        }
        return;
      case ternary_tt::xor3:
        for (std::size_t k = 0; k < cnt; ++k, o += 3) dst[k] = v[o[0]] ^ v[o[1]] ^ v[o[2]];
        return;
      default: {
        const std::uint8_t anf = ternary_anf(tt);
        for (std::size_t k = 0; k < cnt; ++k, o += 3) dst[k] = ternary_by_anf(anf, v[o[0]], v[o[1]], v[o[2]]);
        return;
      }
    }
  }

  /// Greedy list scheduling into runs: repeatedly take the operation kind
  /// with the most ready gates (a gate is ready when its operands are
  /// scheduled; ties go to the smaller kind) and schedule its ready gates,
  /// including those that become ready meanwhile, until none of that kind
  /// is left. Deterministic; a topological order by construction.
  void schedule() {
    const std::size_t g = gates_.size();
    auto kind = [&](std::size_t i) -> std::uint32_t {
      const gate& x = gates_[i];
      return (static_cast<std::uint32_t>(x.op) << 8) | (x.op == gate_op::ternary ? x.tt : 0u);
    };
    constexpr std::size_t kinds = 6 * 256;
    std::vector<std::uint32_t> waiting(g, 0);          // unscheduled gate operands
    std::vector<std::vector<std::uint32_t>> users(g);  // gates reading gate i
    for (std::size_t i = 0; i < g; ++i) {
      const gate& x = gates_[i];
      const int k = gate_arity(x.op);
      const std::uint32_t ops[3] = {x.a, x.b, x.c};
      for (int j = 0; j < k; ++j) {
        bool repeat = false;
        for (int q = 0; q < j; ++q) repeat = repeat || ops[q] == ops[j];
        if (ops[j] >= n_ && !repeat) {
          ++waiting[i];
          users[ops[j] - n_].push_back(static_cast<std::uint32_t>(i));
        }
      }
    }
    std::vector<std::vector<std::uint32_t>> ready(kinds);
    for (std::size_t i = 0; i < g; ++i)
      if (waiting[i] == 0) ready[kind(i)].push_back(static_cast<std::uint32_t>(i));
    std::vector<std::uint32_t> order;
    order.reserve(g);
    while (order.size() < g) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < kinds; ++k)
        if (ready[k].size() > ready[best].size()) best = k;
      // Drain this kind; gates it makes ready join the run if of the same kind.
      for (std::size_t q = 0; q < ready[best].size(); ++q) {
        const std::uint32_t i = ready[best][q];
        order.push_back(i);
        for (auto u : users[i])
          if (--waiting[u] == 0) ready[kind(u)].push_back(u);
      }
      ready[best].clear();
    }
    std::vector<std::uint32_t> slot(n_ + g);
    for (std::size_t i = 0; i < n_; ++i) slot[i] = static_cast<std::uint32_t>(i);
    for (std::size_t j = 0; j < g; ++j) slot[n_ + order[j]] = static_cast<std::uint32_t>(n_ + j);
    runs_.clear();
    operands_.clear();
    for (std::size_t j = 0; j < g; ++j) {
      const gate& x = gates_[order[j]];
      const std::uint8_t tt = x.op == gate_op::ternary ? x.tt : 0;
      // Gates of one kind scheduled back to back form one run; a gate may
      // read an earlier gate of its own run (runs are evaluated in order).
      if (runs_.empty() || runs_.back().op != x.op || runs_.back().tt != tt)
        runs_.push_back({x.op, tt, 0});
      ++runs_.back().count;
      const int k = gate_arity(x.op);
      operands_.push_back(slot[x.a]);
      if (k > 1) operands_.push_back(slot[x.b]);
      if (k > 2) operands_.push_back(slot[x.c]);
    }
    output_slots_.resize(outputs_.size());
    for (std::size_t k = 0; k < outputs_.size(); ++k) output_slots_[k] = slot[outputs_[k]];
  }

  std::size_t n_ = 0;
  std::vector<gate> gates_;
  std::vector<std::uint32_t> outputs_;
  std::vector<run> runs_;                   // the schedule
  std::vector<std::uint32_t> operands_;     // operand slots, run by run
  std::vector<std::uint32_t> output_slots_;  // output slots in the schedule
};

BEM_NAMESPACE_END
