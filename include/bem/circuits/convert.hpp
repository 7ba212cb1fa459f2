// Conversions between circuit representations.
//
// Every conversion preserves the function exactly (circuit law 3); the tests
// check it bit for bit, exhaustively for small input counts.
//
//   to_gate_list(anf)    each monomial a chain of ANDs, each output a chain
//                        of XORs; the constant 1 (and an empty output, 0)
//                        is a ternary gate with truth table 0xFF (0x00).
//   to_gate_list(robdd)  each node one ternary multiplexer (0xCA: var ? hi : lo).
//                        Both need n >= 1 (a gate, a constant's included,
//                        reads a node) and throw std::invalid_argument for
//                        a circuit of no inputs.
//   to_robdd(gate_list), to_robdd(anf)   symbolic evaluation with ite.
//   to_anf(gate_list), to_anf(robdd)     symbolic evaluation over GF(2):
//                        AND multiplies polynomials, XOR adds them. The ANF of
//                        a circuit can be exponentially large, so both stop
//                        with std::length_error once a product would exceed
//                        `max_terms` monomials; they need n <= 64.
// Gate counts are not preserved (each representation counts its own gates).
#pragma once

#include <bem/circuits/anf.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/robdd.hpp>
#include <bem/version.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

namespace detail {
/// Appends a gate and returns its node.
inline std::uint32_t push_gate(std::size_t n, std::vector<gate>& gates, gate g) {
  gates.push_back(g);
  return static_cast<std::uint32_t>(n + gates.size() - 1);
}
inline void require_inputs(const char* what, std::size_t n) {
  if (n == 0) throw std::invalid_argument(std::string(what) + ": a gate list needs at least one input");
}
}  // namespace detail

/// The ANF as a gate list of AND chains and XOR chains.
inline gate_list to_gate_list(const anf_circuit& c) {
  const std::size_t n = c.inputs();
  detail::require_inputs("to_gate_list(anf_circuit)", n);
  std::vector<gate> gates;
  std::vector<std::uint32_t> outs;
  for (std::size_t k = 0; k < c.outputs(); ++k) {
    const anf_polynomial& p = c.polynomial(k);
    if (p.empty()) {
      outs.push_back(detail::push_gate(n, gates, {gate_op::ternary, 0x00, 0, 0, 0}));
      continue;
    }
    std::uint32_t acc = 0;
    for (std::size_t t = 0; t < p.size(); ++t) {
      std::uint32_t term;
      if (p[t] == 0) {
        term = detail::push_gate(n, gates, {gate_op::ternary, 0xFF, 0, 0, 0});
      } else {
        monomial r = p[t];
        term = static_cast<std::uint32_t>(std::countr_zero(r));
        for (r &= r - 1; r; r &= r - 1)
          term = detail::push_gate(n, gates, {gate_op::and_, 0, term, static_cast<std::uint32_t>(std::countr_zero(r)), 0});
      }
      acc = t == 0 ? term : detail::push_gate(n, gates, {gate_op::xor_, 0, acc, term, 0});
    }
    outs.push_back(acc);
  }
  return gate_list(n, std::move(gates), std::move(outs));
}

/// The ROBDD as a gate list: one multiplexer per node.
inline gate_list to_gate_list(const robdd& c) {
  const std::size_t n = c.inputs();
  detail::require_inputs("to_gate_list(robdd)", n);
  std::vector<gate> gates;
  const auto& nodes = c.nodes();
  std::vector<std::uint32_t> node_of(nodes.size());
  node_of[0] = detail::push_gate(n, gates, {gate_op::ternary, 0x00, 0, 0, 0});
  node_of[1] = detail::push_gate(n, gates, {gate_op::ternary, 0xFF, 0, 0, 0});
  for (std::size_t i = 2; i < nodes.size(); ++i)
    node_of[i] = detail::push_gate(n, gates, {gate_op::ternary, ternary_tt::mux, nodes[i].var, node_of[nodes[i].hi],
                                              node_of[nodes[i].lo]});
  std::vector<std::uint32_t> outs;
  for (auto r : c.roots()) outs.push_back(node_of[r]);
  return gate_list(n, std::move(gates), std::move(outs));
}

/// The gate list's functions as a ROBDD.
inline robdd to_robdd(const gate_list& c) {
  const std::size_t n = c.inputs();
  robdd_builder b(n);
  std::vector<std::uint32_t> f(n + c.gate_count());
  for (std::size_t i = 0; i < n; ++i) f[i] = b.var(i);
  const auto& gates = c.gates();
  for (std::size_t i = 0; i < gates.size(); ++i) {
    const gate& g = gates[i];
    const std::uint32_t a = f[g.a], x = f[g.b], y = f[g.c];
    std::uint32_t r = 0;
    switch (g.op) {
      case gate_op::and_: r = b.apply_and(a, x); break;
      case gate_op::or_: r = b.apply_or(a, x); break;
      case gate_op::xor_: r = b.apply_xor(a, x); break;
      case gate_op::not_: r = b.negate(a); break;
      case gate_op::andn: r = b.apply_and(a, b.negate(x)); break;
      case gate_op::ternary: {
        // Shannon expansion on a, then b; the leaves are functions of c.
        auto leaf = [&](unsigned ab) {
          const bool c0 = (g.tt >> (ab << 1)) & 1u, c1 = (g.tt >> ((ab << 1) | 1u)) & 1u;
          if (c0 == c1) return robdd_builder::constant(c0);
          return c1 ? y : b.negate(y);
        };
        const std::uint32_t l00 = leaf(0), l01 = leaf(1), l10 = leaf(2), l11 = leaf(3);
        r = b.ite(a, b.ite(x, l11, l10), b.ite(x, l01, l00));
        break;
      }
    }
    f[n + i] = r;
  }
  std::vector<std::uint32_t> roots;
  for (auto o : c.output_nodes()) roots.push_back(f[o]);
  return robdd(b, roots);
}

/// The ANF's functions as a ROBDD.
inline robdd to_robdd(const anf_circuit& c) {
  robdd_builder b(c.inputs());
  std::vector<std::uint32_t> roots;
  for (std::size_t k = 0; k < c.outputs(); ++k) {
    std::uint32_t acc = robdd_builder::false_node;
    for (monomial t : c.polynomial(k)) {
      std::uint32_t prod = robdd_builder::true_node;
      for (monomial r = t; r; r &= r - 1) prod = b.apply_and(prod, b.var(static_cast<std::size_t>(std::countr_zero(r))));
      acc = b.apply_xor(acc, prod);
    }
    roots.push_back(acc);
  }
  return robdd(b, roots);
}

/// Default limit on the monomials of one ANF product.
inline constexpr std::size_t anf_default_max_terms = std::size_t{1} << 20;

/// The gate list's functions in ANF (n <= 64; std::length_error past max_terms).
inline anf_circuit to_anf(const gate_list& c, std::size_t max_terms = anf_default_max_terms) {
  const std::size_t n = c.inputs();
  if (n > 64) throw std::invalid_argument("to_anf: at most 64 inputs, got " + std::to_string(n));
  std::vector<anf_polynomial> f(n + c.gate_count());
  for (std::size_t i = 0; i < n; ++i) f[i] = {monomial{1} << i};
  const anf_polynomial one = {0};
  const auto& gates = c.gates();
  for (std::size_t i = 0; i < gates.size(); ++i) {
    const gate& g = gates[i];
    const anf_polynomial& a = f[g.a];
    anf_polynomial r;
    switch (g.op) {
      case gate_op::and_: r = anf_and(a, f[g.b], max_terms); break;
      case gate_op::or_: r = anf_xor(anf_xor(a, f[g.b]), anf_and(a, f[g.b], max_terms)); break;
      case gate_op::xor_: r = anf_xor(a, f[g.b]); break;
      case gate_op::not_: r = anf_xor(a, one); break;
      case gate_op::andn: r = anf_and(a, anf_xor(f[g.b], one), max_terms); break;
      case gate_op::ternary: {
        const std::uint8_t k = ternary_anf(g.tt);
        const anf_polynomial& x = f[g.b];
        const anf_polynomial& y = f[g.c];
        if (k & 0x01) r = anf_xor(r, one);
        if (k & 0x02) r = anf_xor(r, y);
        if (k & 0x04) r = anf_xor(r, x);
        if (k & 0x08) r = anf_xor(r, anf_and(x, y, max_terms));
        if (k & 0x10) r = anf_xor(r, a);
        if (k & 0x20) r = anf_xor(r, anf_and(a, y, max_terms));
        if (k & 0x40) r = anf_xor(r, anf_and(a, x, max_terms));
        if (k & 0x80) r = anf_xor(r, anf_and(anf_and(a, x, max_terms), y, max_terms));
        break;
      }
    }
    f[n + i] = std::move(r);
  }
  std::vector<anf_polynomial> outs;
  for (auto o : c.output_nodes()) outs.push_back(f[o]);
  return anf_circuit(n, std::move(outs));
}

/// The ROBDD's functions in ANF: node = lo ^ x (hi ^ lo).
inline anf_circuit to_anf(const robdd& c, std::size_t max_terms = anf_default_max_terms) {
  if (c.inputs() > 64) throw std::invalid_argument("to_anf: at most 64 inputs, got " + std::to_string(c.inputs()));
  const auto& nodes = c.nodes();
  std::vector<anf_polynomial> f(nodes.size());
  f[1] = {0};
  for (std::size_t i = 2; i < nodes.size(); ++i) {
    const anf_polynomial x = {monomial{1} << nodes[i].var};
    f[i] = anf_xor(f[nodes[i].lo], anf_and(x, anf_xor(f[nodes[i].hi], f[nodes[i].lo]), max_terms));
  }
  std::vector<anf_polynomial> outs;
  for (auto r : c.roots()) outs.push_back(f[r]);
  return anf_circuit(c.inputs(), std::move(outs));
}

BEM_NAMESPACE_END
