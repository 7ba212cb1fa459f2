// Circuits of the safety-constrained program (BEM suite §5.3,
// tasks/safety_program.hpp) and the rewrites the BEM proposes for them:
//
//   compile_safety_instruction  instruction k as an expert's read spec, gate
//       list and write spec over the program's STATE layout. The compiler is
//       a plain one: each word operation becomes its generic gate template
//       (a full adder per bit of every sum, a bit-serial comparator, a mux
//       per bit, constants materialised as gates), the code a compiler
//       emits before any optimisation;
//   simplify_gate_list  a verified rewrite's candidate: constant
//       propagation (optionally with some inputs known, e.g. pc = k on the
//       instruction's own routing shard), every gate reduced to the function
//       of its distinct non-constant operands (so x & x, x ^ x, a mux with a
//       constant select fold), structural hashing, and dead gates removed.
//       The result is only a proposal: the slow path proves it equal to the
//       expert it replaces (on the domain) before it is applied;
//   compose_safety_experts  the fusion of two experts run one after the
//       other: one expert reading what either reads, the second part
//       reading the first part's outputs, writing what either writes
//       (overwrites only, as every expert here writes);
//   safety_predicates  S, BAD and Init as state predicates over one lane's
//       bits, for the slow path's verified program.
#pragma once

#include <bem/circuits/gate_list.hpp>
#include <bem/machine/expert.hpp>
#include <bem/machine/predicate.hpp>
#include <bem/version.hpp>
#include <tasks/safety_program.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN

/// An expert's parts before it gets an identifier.
struct safety_circuit {
  read_spec reads;
  gate_list circuit;
  write_spec writes;
};

namespace detail {

/// Builds a gate list over the STATE bits it reads, word operations as
/// their generic templates (no folding: that is simplify_gate_list's job).
class safety_circuit_builder {
 public:
  using node = std::uint32_t;
  using word = std::vector<node>;  ///< least significant bit first

  explicit safety_circuit_builder(std::vector<std::uint32_t> reads) : reads_(std::move(reads)) {}

  word input(std::uint32_t first_bit, std::uint32_t n) const {
    word w;
    for (std::uint32_t j = 0; j < n; ++j) w.push_back(input_bit(first_bit + j));
    return w;
  }
  node input_bit(std::uint32_t bit) const {
    const auto it = std::find(reads_.begin(), reads_.end(), bit);
    if (it == reads_.end()) throw std::logic_error("safety_circuit_builder: state bit " + std::to_string(bit) + " is not read");
    return static_cast<node>(it - reads_.begin());
  }

  node gate2(gate_op op, node a, node b) { return push({op, 0, a, b, 0}); }
  node ternary(std::uint8_t tt, node a, node b, node c) { return push({gate_op::ternary, tt, a, b, c}); }
  node not_(node a) { return push({gate_op::not_, 0, a, a, 0}); }
  node zero() { return gate2(gate_op::andn, 0, 0); }  // x & ~x
  node one() { return not_(zero()); }

  word constant(std::uint64_t v, std::size_t n) {
    word w;
    for (std::size_t j = 0; j < n; ++j) w.push_back((v >> j) & 1u ? one() : zero());
    return w;
  }
  /// a + b + carry_in modulo 2^n: a full adder per bit.
  word add(const word& a, const word& b, node carry) {
    word s;
    for (std::size_t j = 0; j < a.size(); ++j) {
      s.push_back(ternary(ternary_tt::xor3, a[j], b[j], carry));
      carry = ternary(ternary_tt::majority, a[j], b[j], carry);
    }
    return s;
  }
  word add(const word& a, const word& b) { return add(a, b, zero()); }
  word sub(const word& a, const word& b) {  // a + ~b + 1
    word nb;
    for (node x : b) nb.push_back(not_(x));
    return add(a, nb, one());
  }
  word xor_(const word& a, const word& b) {
    word s;
    for (std::size_t j = 0; j < a.size(); ++j) s.push_back(gate2(gate_op::xor_, a[j], b[j]));
    return s;
  }
  node eq(const word& a, const word& b) {
    node differ = zero();
    for (std::size_t j = 0; j < a.size(); ++j) differ = gate2(gate_op::or_, differ, gate2(gate_op::xor_, a[j], b[j]));
    return not_(differ);
  }
  /// a < b, unsigned: from the least significant bit, lt = (a_j == b_j) ? lt : b_j.
  node ult(const word& a, const word& b) {
    node lt = zero();
    for (std::size_t j = 0; j < a.size(); ++j) lt = ternary(0x8E, a[j], b[j], lt);
    return lt;
  }
  word mux(node c, const word& t, const word& e) {
    word s;
    for (std::size_t j = 0; j < t.size(); ++j) s.push_back(ternary(ternary_tt::mux, c, t[j], e[j]));
    return s;
  }

  /// The gate list with these outputs.
  gate_list finish(const std::vector<node>& outputs) const { return gate_list(reads_.size(), gates_, outputs); }

 private:
  node push(gate g) {
    gates_.push_back(g);
    return static_cast<node>(reads_.size() + gates_.size() - 1);
  }
  std::vector<std::uint32_t> reads_;
  std::vector<gate> gates_;
};

/// An op's truth table over (a, b, c), gate_list's convention (bit a<<2|b<<1|c).
constexpr std::uint8_t gate_table(const gate& g) noexcept {
  switch (g.op) {
    case gate_op::and_: return 0xC0;
    case gate_op::or_: return 0xFC;
    case gate_op::xor_: return 0x3C;
    case gate_op::not_: return 0x0F;
    case gate_op::andn: return 0x30;
    case gate_op::ternary: return g.tt;
  }
  return 0;
}

inline read_spec state_reads(const std::vector<std::uint32_t>& bits) {
  read_spec r;
  for (auto b : bits) r.bits.push_back({read_bit::source::state, b});
  return r;
}

}  // namespace detail

/// Instruction k of `p` as an expert's parts (file comment): it reads pc and
/// the variables it uses, writes pc and the variables it changes.
inline safety_circuit compile_safety_instruction(const tasks::safety_program& p, std::uint32_t k) {
  using tasks::safety_op;
  const tasks::safety_layout& L = p.layout();
  const tasks::safety_instruction& x = p.body().at(k);
  const std::uint32_t w = L.width;
  std::vector<std::uint32_t> reads;
  const auto read_word = [&](std::uint32_t at, std::uint32_t n) {
    for (std::uint32_t j = 0; j < n; ++j)
      if (std::find(reads.begin(), reads.end(), at + j) == reads.end()) reads.push_back(at + j);
  };
  read_word(L.pc(), L.pc_bits);
  read_word(L.i(), w);
  switch (x.op) {
    case safety_op::load:
    case safety_op::reset: read_word(L.reg(x.p), w); break;
    case safety_op::access: read_word(L.bad(), 1), read_word(L.reg(x.q), w), read_word(L.reg(x.s), w); break;
    case safety_op::mix: read_word(L.reg(x.q), w), read_word(L.reg(x.s), w); break;
    default: break;
  }
  detail::safety_circuit_builder b(reads);
  std::vector<std::uint32_t> outs, written;
  const auto write_word = [&](std::uint32_t at, const detail::safety_circuit_builder::word& v) {
    for (std::uint32_t j = 0; j < v.size(); ++j) outs.push_back(v[j]), written.push_back(at + j);
  };
  const auto pc = b.input(L.pc(), L.pc_bits);
  const auto last = b.eq(pc, b.constant(p.length() - 1, L.pc_bits));
  write_word(L.pc(), b.mux(last, b.constant(0, L.pc_bits), b.add(pc, b.constant(1, L.pc_bits))));
  const auto i = b.input(L.i(), w);
  const std::uint32_t M = p.bound();
  switch (x.op) {
    case safety_op::advance:
      write_word(L.i(), b.mux(b.eq(i, b.constant(M - 1, w)), b.constant(0, w), b.add(i, b.constant(1, w))));
      break;
    case safety_op::stride: {
      const std::uint32_t d = M - x.c;
      const auto below = b.ult(i, b.constant(d, w));
      write_word(L.i(), b.mux(below, b.add(i, b.constant(x.c, w)), b.sub(i, b.constant(d, w))));
      break;
    }
    case safety_op::load: {
      const auto r = b.input(L.reg(x.p), w);
      write_word(L.i(), b.mux(b.ult(r, b.constant(M, w)), r, i));
      break;
    }
    case safety_op::access: {
      const auto in_range = b.ult(i, b.constant(M, w));
      write_word(L.bad(), {b.gate2(gate_op::or_, b.input_bit(L.bad()), b.not_(in_range))});
      write_word(L.reg(x.q), b.xor_(b.input(L.reg(x.q), w), b.add(b.input(L.reg(x.s), w), i)));
      break;
    }
    case safety_op::mix: {
      const auto a = b.input(L.reg(x.q), w), c = b.input(L.reg(x.s), w);
      write_word(L.reg(x.q), x.mix_op == 0 ? b.add(a, c) : x.mix_op == 1 ? b.xor_(a, c) : b.sub(a, c));
      break;
    }
    case safety_op::reset: {
      const auto r = b.input(L.reg(x.p), w);
      write_word(L.i(), b.mux(r[0], b.constant(0, w), i));
      break;
    }
  }
  write_spec ws;
  for (auto bit : written) ws.bits.push_back({bit, write_bit::mode::overwrite});
  return {detail::state_reads(reads), b.finish(outs), std::move(ws)};
}

/// A smaller gate list computing the same outputs where the inputs in
/// `known` (input index -> value) hold (file comment); inputs are kept.
inline gate_list simplify_gate_list(const gate_list& g, const std::map<std::uint32_t, bool>& known = {}) {
  // A reference: a node of the new list (>= 0) or a constant (-1: 0, -2: 1).
  using ref = std::int64_t;
  constexpr ref zero = -1, one = -2;
  const std::size_t n = g.inputs();
  std::vector<gate> out;
  std::vector<ref> value(n + g.gate_count());
  for (std::size_t j = 0; j < n; ++j) {
    const auto it = known.find(static_cast<std::uint32_t>(j));
    value[j] = it == known.end() ? static_cast<ref>(j) : (it->second ? one : zero);
  }
  std::map<std::array<std::int64_t, 4>, ref> hashed;  // (table, operands) -> node
  const auto emit = [&](std::uint8_t tt, std::vector<ref> vars) -> ref {
    // vars: distinct nodes, ascending; tt over (a = vars[0], b = vars[1], c = vars[2]).
    while (vars.size() < 3) vars.push_back(vars.empty() ? 0 : vars.back());
    gate x{gate_op::ternary, tt, static_cast<std::uint32_t>(vars[0]), static_cast<std::uint32_t>(vars[1]),
           static_cast<std::uint32_t>(vars[2])};
    if (vars[1] == vars[2] && vars[0] != vars[1]) {  // two variables: name the plain op where there is one
      if (tt == 0xC0) x = {gate_op::and_, 0, x.a, x.b, 0};
      else if (tt == 0xFC) x = {gate_op::or_, 0, x.a, x.b, 0};
      else if (tt == 0x3C) x = {gate_op::xor_, 0, x.a, x.b, 0};
      else if (tt == 0x30) x = {gate_op::andn, 0, x.a, x.b, 0};
    } else if (vars[0] == vars[1] && vars[1] == vars[2] && tt == 0x0F) {
      x = {gate_op::not_, 0, x.a, x.a, 0};
    }
    const std::array<std::int64_t, 4> key{static_cast<std::int64_t>(x.op) << 8 | x.tt, x.a, x.b, x.c};
    if (const auto it = hashed.find(key); it != hashed.end()) return it->second;
    out.push_back(x);
    const ref r = static_cast<ref>(n + out.size() - 1);
    hashed.emplace(key, r);
    return r;
  };
  for (std::size_t k = 0; k < g.gate_count(); ++k) {
    const gate& x = g.gates()[k];
    const std::uint8_t tt = detail::gate_table(x);
    const std::array<ref, 3> operand{value[x.a], value[x.b], value[x.c]};
    // The distinct non-constant operands the table reads, ascending.
    std::vector<ref> vars;
    for (int s = 0; s < 3; ++s) {
      const int bit = 2 - s;  // a is bit 2 of the index
      bool read = false;
      for (unsigned idx = 0; idx < 8; ++idx)
        read = read || (((tt >> idx) & 1u) != ((tt >> (idx ^ (1u << bit))) & 1u));
      if (read && operand[static_cast<std::size_t>(s)] >= 0) vars.push_back(operand[static_cast<std::size_t>(s)]);
    }
    std::sort(vars.begin(), vars.end());
    vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
    // The function of those variables: enumerate them.
    const auto f = [&](unsigned assignment) {
      unsigned idx = 0;
      for (int s = 0; s < 3; ++s) {
        const ref o = operand[static_cast<std::size_t>(s)];
        bool v;
        if (o == zero) v = false;
        else if (o == one) v = true;
        else {
          const auto pos = std::find(vars.begin(), vars.end(), o) - vars.begin();
          v = pos < static_cast<std::ptrdiff_t>(vars.size()) && ((assignment >> (2 - pos)) & 1u);
        }
        idx |= static_cast<unsigned>(v) << (2 - s);
      }
      return ((tt >> idx) & 1u) != 0;
    };
    // Drop variables the function does not depend on.
    std::vector<ref> support;
    for (std::size_t v = 0; v < vars.size(); ++v) {
      bool depends = false;
      for (unsigned a = 0; a < 8; ++a) depends = depends || f(a) != f(a ^ (4u >> v));
      if (depends) support.push_back(vars[v]);
    }
    // The table over the support (a = support[0], b, c the next ones); it
    // ignores the positions past the support, which emit() fills with the
    // last variable again.
    std::uint8_t table = 0;
    for (unsigned idx = 0; idx < 8; ++idx) {
      unsigned assignment = 0;
      for (std::size_t v = 0; v < vars.size(); ++v) {
        const auto sp = std::find(support.begin(), support.end(), vars[v]) - support.begin();
        if (sp < static_cast<std::ptrdiff_t>(support.size()) && ((idx >> (2 - sp)) & 1u)) assignment |= 4u >> v;
      }
      if (f(assignment)) table |= static_cast<std::uint8_t>(1u << idx);
    }
    ref r;
    if (support.empty()) r = f(0) ? one : zero;
    else if (support.size() == 1 && table == 0xF0) r = support[0];  // the variable itself
    else r = emit(table, support);
    value[n + k] = r;
  }
  // Outputs; constants become gates (x & ~x, and its negation) over input 0.
  std::vector<std::uint32_t> outs;
  for (auto o : g.output_nodes()) {
    ref r = value[o];
    if (r < 0) {
      const ref z = emit(0x30, {0});  // x0 & ~x0
      r = r == zero ? z : emit(0x0F, {z});
    }
    outs.push_back(static_cast<std::uint32_t>(r));
  }
  // Dead gates out, the rest renumbered.
  std::vector<bool> live(n + out.size(), false);
  for (auto o : outs) live[o] = true;
  for (std::size_t k = out.size(); k-- > 0;)
    if (live[n + k]) live[out[k].a] = live[out[k].b] = live[out[k].c] = true;
  std::vector<std::uint32_t> renumber(n + out.size());
  for (std::size_t j = 0; j < n; ++j) renumber[j] = static_cast<std::uint32_t>(j);
  std::vector<gate> kept;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (!live[n + k]) continue;
    gate x = out[k];
    x.a = renumber[x.a], x.b = renumber[x.b], x.c = renumber[x.c];
    renumber[n + k] = static_cast<std::uint32_t>(n + kept.size());
    kept.push_back(x);
  }
  for (auto& o : outs) o = renumber[o];
  return gate_list(n, std::move(kept), std::move(outs));
}

/// Experts a then b as one (file comment): reads a's bits then b's others,
/// writes a's bits then b's others (b's value where both write).
template <class C>
safety_circuit compose_safety_experts(const expert<C>& a, const expert<C>& b) {
  const auto state_bits = [](const expert<C>& e) {
    std::vector<std::uint32_t> v;
    for (const auto& r : e.reads().bits) {
      if (r.from != read_bit::source::state) throw std::invalid_argument("compose_safety_experts: a non-STATE read");
      v.push_back(r.index);
    }
    for (const auto& w : e.writes().bits)
      if (w.to != write_bit::target::state || w.how != write_bit::mode::overwrite)
        throw std::invalid_argument("compose_safety_experts: only STATE overwrites compose");
    return v;
  };
  const std::vector<std::uint32_t> ra = state_bits(a), rb = state_bits(b);
  std::vector<std::uint32_t> reads = ra;
  for (auto x : rb)
    if (std::find(reads.begin(), reads.end(), x) == reads.end()) reads.push_back(x);
  const std::size_t n = reads.size();
  const auto pos = [&](std::uint32_t bit) {
    return static_cast<std::uint32_t>(std::find(reads.begin(), reads.end(), bit) - reads.begin());
  };
  std::vector<gate> gates;
  // Part a: its inputs are the macro's.
  const gate_list& ga = a.circuit();
  std::vector<std::uint32_t> map_a(ga.inputs() + ga.gate_count());
  for (std::size_t j = 0; j < ga.inputs(); ++j) map_a[j] = pos(ra[j]);
  for (std::size_t k = 0; k < ga.gate_count(); ++k) {
    gate x = ga.gates()[k];
    x.a = map_a[x.a], x.b = map_a[x.b], x.c = map_a[x.c];
    map_a[ga.inputs() + k] = static_cast<std::uint32_t>(n + gates.size());
    gates.push_back(x);
  }
  std::map<std::uint32_t, std::uint32_t> after_a;  // state bit -> node after part a
  for (std::size_t o = 0; o < ga.outputs(); ++o) after_a[a.writes().bits[o].index] = map_a[ga.output_nodes()[o]];
  // Part b reads the state part a left.
  const gate_list& gb = b.circuit();
  std::vector<std::uint32_t> map_b(gb.inputs() + gb.gate_count());
  for (std::size_t j = 0; j < gb.inputs(); ++j) {
    const auto it = after_a.find(rb[j]);
    map_b[j] = it != after_a.end() ? it->second : pos(rb[j]);
  }
  for (std::size_t k = 0; k < gb.gate_count(); ++k) {
    gate x = gb.gates()[k];
    x.a = map_b[x.a], x.b = map_b[x.b], x.c = map_b[x.c];
    map_b[gb.inputs() + k] = static_cast<std::uint32_t>(n + gates.size());
    gates.push_back(x);
  }
  std::map<std::uint32_t, std::uint32_t> final_value = after_a;
  for (std::size_t o = 0; o < gb.outputs(); ++o) final_value[b.writes().bits[o].index] = map_b[gb.output_nodes()[o]];
  std::vector<std::uint32_t> written;
  for (const auto& w : a.writes().bits) written.push_back(w.index);
  for (const auto& w : b.writes().bits)
    if (std::find(written.begin(), written.end(), w.index) == written.end()) written.push_back(w.index);
  std::vector<std::uint32_t> outs;
  write_spec ws;
  for (auto bit : written) {
    outs.push_back(final_value.at(bit));
    ws.bits.push_back({bit, write_bit::mode::overwrite});
  }
  return {detail::state_reads(reads), gate_list(n, std::move(gates), std::move(outs)), std::move(ws)};
}

/// S, BAD and Init of the program as predicates over one lane's STATE bits.
struct safety_predicates {
  state_predicate S;     ///< i < M && !BAD
  state_predicate bad;   ///< BAD || i >= M
  state_predicate init;  ///< pc == 0 && S
  /// pc == k: the routing shard of instruction k.
  static state_predicate pc_is(const tasks::safety_program& p, std::uint32_t k) {
    state_predicate x;
    for (std::uint32_t j = 0; j < p.layout().pc_bits; ++j) {
      const state_predicate b = state_bit(p.layout().pc() + j);
      x = x && (((k >> j) & 1u) ? b : !b);
    }
    return x;
  }
};

inline safety_predicates make_safety_predicates(const tasks::safety_program& p) {
  const tasks::safety_layout& L = p.layout();
  // i < M from the least significant bit: lt = M_j ? (!i_j || lt) : (!i_j && lt).
  state_predicate lt = state_predicate::constant(false);
  for (std::uint32_t j = 0; j < L.width; ++j) {
    const state_predicate ij = state_bit(L.i() + j);
    lt = ((p.bound() >> j) & 1u) ? (!ij || lt) : (!ij && lt);
  }
  const state_predicate bad_bit = state_bit(L.bad());
  safety_predicates s;
  s.S = lt && !bad_bit;
  s.bad = bad_bit || !lt;
  s.init = safety_predicates::pc_is(p, 0) && s.S;
  return s;
}

/// The unsafe tails the adversarial proposer appends to an expert (each
/// breaks S from some state in S: docs/safety.md).
enum class safety_unsafe_tail : std::uint8_t {
  unguarded_advance,  ///< i := i + 1, no wrap at M
  set_bad,            ///< BAD := 1
  index_to_bound      ///< i := M
};
inline constexpr int safety_unsafe_tail_count = 3;

constexpr const char* to_string(safety_unsafe_tail t) noexcept {
  switch (t) {
    case safety_unsafe_tail::unguarded_advance: return "unguarded_advance";
    case safety_unsafe_tail::set_bad: return "set_bad";
    case safety_unsafe_tail::index_to_bound: return "index_to_bound";
  }
  return "?";
}

/// The tail as an expert's parts (reads i or BAD; writes i or BAD).
inline safety_circuit make_safety_unsafe_tail(const tasks::safety_program& p, safety_unsafe_tail t) {
  const tasks::safety_layout& L = p.layout();
  std::vector<std::uint32_t> reads;
  for (std::uint32_t j = 0; j < L.width; ++j) reads.push_back(L.i() + j);
  reads.push_back(L.bad());
  detail::safety_circuit_builder b(reads);
  std::vector<std::uint32_t> outs;
  write_spec ws;
  const auto i = b.input(L.i(), L.width);
  detail::safety_circuit_builder::word v;
  switch (t) {
    case safety_unsafe_tail::unguarded_advance: v = b.add(i, b.constant(1, L.width)); break;
    case safety_unsafe_tail::index_to_bound: v = b.constant(p.bound(), L.width); break;
    case safety_unsafe_tail::set_bad:
      outs.push_back(b.one());
      ws.bits.push_back({L.bad(), write_bit::mode::overwrite});
      break;
  }
  for (std::uint32_t j = 0; j < v.size(); ++j) {
    outs.push_back(v[j]);
    ws.bits.push_back({L.i() + j, write_bit::mode::overwrite});
  }
  return {detail::state_reads(reads), b.finish(outs), std::move(ws)};
}

BEM_NAMESPACE_END
