// Random circuits whose every gate is live, for microbenchmark 2.3 and tests.
//
// Layered gate lists (`random_gate_list`, `static_random_circuit`). For n
// inputs, m outputs and exactly G >= m gates:
//   1. Layer widths are fixed from the outputs backwards: the last layer has
//      m gates (they are the outputs, in order); each earlier layer is at
//      most twice as wide as the one after it and at most `max_width` (64),
//      and the widths add up to G.
//   2. Each gate draws its operation from the PRNG, out of 20: AND 4, OR 3,
//      XOR 4, ANDN 3, NOT 1, ternary multiplexer (0xCA) 2, majority (0xE8)
//      2, three-way XOR (0x96) 1.
//   3. Liveness by covering: the gates of layer k are shuffled and handed
//      out as first, then second (then third) operands of the gates of layer
//      k + 1, so every gate of layer k feeds some gate of layer k + 1 (a NOT
//      is turned into an XOR when a layer has too few operand slots). By
//      induction from the outputs, every gate is live: live gates = G.
//   4. Every other operand is uniform over all earlier nodes (inputs and
//      gates of earlier layers), distinct from the gate's other operands.
// The PRNG is bem::xoshiro256ss seeded with `seed`; the generator is
// constexpr, so `static_random_circuit<N, G, M>(seed)` builds a circuit at
// compile time for bem::compiled_circuit, identical to random_gate_list's.
//
// ANF (`random_anf`): monomials of degree 1..4 over distinct inputs, added
// to outputs 0, 1, ..., m - 1 in turn (a monomial already present is
// redrawn) until the ANF gate count reaches G; all gates of an ANF are live.
// ROBDD (`random_robdd`): the same monomials of degree 1..3 XORed into the
// outputs in turn until the shared diagram has at least G internal nodes.
// Both throw std::invalid_argument where n inputs cannot give G: the ANF
// before drawing (G above every monomial in every output), the ROBDD after
// 64 rounds per output without a new largest node count.
//
// `find_trivial_output` is the check that a generated expert is non-trivial
// (BEM 2.3): no output constant or a copy of an input on random assignments.
#pragma once

#include <bem/circuits/anf.hpp>
#include <bem/circuits/circuit.hpp>
#include <bem/circuits/compiled.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/robdd.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

/// Shape of a random layered gate list.
struct random_circuit_spec {
  std::size_t inputs = 32;   ///< n
  std::size_t outputs = 8;   ///< m (the last layer)
  std::size_t gates = 256;   ///< G, exactly (>= m)
  std::size_t max_width = 64;  ///< widest layer
};

namespace detail {

constexpr gate random_gate_op(xoshiro256ss& rng) {
  const auto r = rng.uniform_below(20);
  if (r < 4) return {gate_op::and_, 0, 0, 0, 0};
  if (r < 7) return {gate_op::or_, 0, 0, 0, 0};
  if (r < 11) return {gate_op::xor_, 0, 0, 0, 0};
  if (r < 14) return {gate_op::andn, 0, 0, 0, 0};
  if (r < 15) return {gate_op::not_, 0, 0, 0, 0};
  if (r < 17) return {gate_op::ternary, ternary_tt::mux, 0, 0, 0};
  if (r < 19) return {gate_op::ternary, ternary_tt::majority, 0, 0, 0};
  return {gate_op::ternary, ternary_tt::xor3, 0, 0, 0};
}

constexpr std::uint32_t& operand(gate& g, int k) { return k == 0 ? g.a : k == 1 ? g.b : g.c; }

/// The layered generator (see the header comment). Throws
/// std::invalid_argument for impossible shapes.
constexpr void generate_layered(const random_circuit_spec& s, std::uint64_t seed, std::vector<gate>& gates,
                                std::vector<std::uint32_t>& outputs) {
  if (s.inputs < 3 || s.outputs == 0 || s.gates < s.outputs || s.max_width < s.outputs)
    throw std::invalid_argument("random circuit: need inputs >= 3, 1 <= outputs <= gates and outputs <= max_width");
  // Widths, from the outputs backwards.
  std::vector<std::size_t> back;
  back.push_back(s.outputs);
  std::size_t left = s.gates - s.outputs;
  while (left > 0) {
    std::size_t w = std::min({2 * back.back(), s.max_width, left});
    back.push_back(w);
    left -= w;
  }
  xoshiro256ss rng(seed);
  gates.clear();
  const std::size_t n = s.inputs;
  std::size_t prev_begin = 0, prev_end = n;  // nodes of the previous layer (inputs first)
  for (std::size_t l = back.size(); l-- > 0;) {
    const std::size_t w = back[l];
    const std::size_t begin = gates.size();
    for (std::size_t i = 0; i < w; ++i) gates.push_back(random_gate_op(rng));
    const bool first_layer = prev_begin == 0 && prev_end == n;
    if (!first_layer) {
      // Enough operand slots to cover the previous layer.
      std::size_t slots = 0;
      for (std::size_t i = 0; i < w; ++i) slots += static_cast<std::size_t>(gate_arity(gates[begin + i].op));
      for (std::size_t i = 0; i < w && slots < prev_end - prev_begin; ++i)
        if (gates[begin + i].op == gate_op::not_) {
          gates[begin + i].op = gate_op::xor_;
          ++slots;
        }
    }
    // Covering: the previous layer, shuffled, over operand slots in order.
    std::vector<std::uint32_t> cover;
    for (std::size_t v = prev_begin; v < prev_end; ++v) cover.push_back(static_cast<std::uint32_t>(v));
    for (std::size_t i = cover.size(); i > 1; --i) std::swap(cover[i - 1], cover[rng.uniform_below(i)]);
    std::vector<int> filled(w, 0);
    std::size_t next = 0;
    for (int k = 0; k < 3 && next < cover.size(); ++k)
      for (std::size_t i = 0; i < w && next < cover.size(); ++i)
        if (gate_arity(gates[begin + i].op) > k) {
          operand(gates[begin + i], k) = cover[next++];
          filled[i] = k + 1;
        }
    // The remaining operands: any earlier node, distinct within the gate.
    const std::size_t limit = n + begin;  // nodes below this layer
    for (std::size_t i = 0; i < w; ++i) {
      gate& g = gates[begin + i];
      for (int k = filled[i]; k < gate_arity(g.op); ++k) {
        std::uint32_t v = 0;
        bool clash = true;
        while (clash) {
          v = static_cast<std::uint32_t>(rng.uniform_below(limit));
          clash = false;
          for (int j = 0; j < k; ++j) clash = clash || operand(g, j) == v;
        }
        operand(g, k) = v;
      }
    }
    prev_begin = n + begin;
    prev_end = n + gates.size();
  }
  outputs.clear();
  for (std::size_t v = prev_begin; v < prev_end; ++v) outputs.push_back(static_cast<std::uint32_t>(v));
}

/// A random monomial of degree 1..max_degree over distinct inputs < n.
inline monomial random_monomial(xoshiro256ss& rng, std::size_t n, int max_degree) {
  const int d = 1 + static_cast<int>(rng.uniform_below(static_cast<std::uint64_t>(max_degree)));
  monomial t = 0;
  while (std::popcount(t) < d) t |= monomial{1} << rng.uniform_below(n);
  return t;
}

}  // namespace detail

/// A random layered gate list with exactly spec.gates gates, all live.
inline gate_list random_gate_list(const random_circuit_spec& spec, std::uint64_t seed) {
  std::vector<gate> gates;
  std::vector<std::uint32_t> outputs;
  detail::generate_layered(spec, seed, gates, outputs);
  return gate_list(spec.inputs, std::move(gates), std::move(outputs));
}

/// The same circuit as random_gate_list({N, M, G}, seed), built at compile
/// time (use in a constexpr initializer).
template <std::size_t N, std::size_t G, std::size_t M>
constexpr static_gate_list<N, G, M> static_random_circuit(std::uint64_t seed) {
  std::vector<gate> gates;
  std::vector<std::uint32_t> outputs;
  detail::generate_layered({N, M, G, 64}, seed, gates, outputs);
  static_gate_list<N, G, M> s;
  for (std::size_t i = 0; i < G; ++i) s.gates[i] = gates[i];
  for (std::size_t k = 0; k < M; ++k) s.outputs[k] = outputs[k];
  return s;
}

/// A random ANF of n <= 64 inputs and m outputs with gate count >= G (the
/// first count to reach it).
inline anf_circuit random_anf(std::size_t n, std::size_t m, std::size_t g, std::uint64_t seed) {
  if (n < 4 || n > 64 || m == 0) throw std::invalid_argument("random_anf: need 4 <= n <= 64 and m >= 1");
  // The largest count there is: every monomial of degree 1..4 in every
  // output (outputs are filled in turn, so none is full before all are).
  std::size_t monomials = 0, ands = 0, choose = 1;
  for (std::size_t d = 1; d <= 4; ++d) {
    choose = choose * (n - d + 1) / d;  // C(n, d)
    monomials += choose;
    ands += choose * (d - 1);
  }
  if (g > m * (ands + monomials - 1))
    throw std::invalid_argument("random_anf: " + std::to_string(n) + " inputs and " + std::to_string(m) +
                                " outputs reach at most " + std::to_string(m * (ands + monomials - 1)) +
                                " gates, not " + std::to_string(g));
  xoshiro256ss rng(seed);
  std::vector<anf_polynomial> polys(m);
  std::size_t count = 0;
  for (std::size_t k = 0; count < g; k = (k + 1) % m) {
    monomial t = detail::random_monomial(rng, n, 4);
    while (std::find(polys[k].begin(), polys[k].end(), t) != polys[k].end()) t = detail::random_monomial(rng, n, 4);
    count += static_cast<std::size_t>(std::popcount(t)) - 1 + (polys[k].empty() ? 0 : 1);
    polys[k].push_back(t);
  }
  return anf_circuit(n, std::move(polys));
}

/// A random ROBDD of n inputs and m outputs with at least G internal nodes.
inline robdd random_robdd(std::size_t n, std::size_t m, std::size_t g, std::uint64_t seed) {
  if (n < 3 || n > 64 || m == 0) throw std::invalid_argument("random_robdd: need 3 <= n <= 64 and m >= 1");
  xoshiro256ss rng(seed);
  robdd_builder b(n);
  std::vector<std::uint32_t> roots(m, robdd_builder::false_node);
  // Few inputs bound the node count below G: give up after 64 rounds per
  // output without a new largest count.
  std::size_t largest = 0, rounds_without_growth = 0;
  for (std::size_t k = 0;; k = (k + 1) % m) {
    const std::size_t nodes = b.reachable_internal(roots);
    if (nodes >= g) break;
    if (nodes > largest) {
      largest = nodes;
      rounds_without_growth = 0;
    } else if (++rounds_without_growth > 64 * m) {
      throw std::invalid_argument("random_robdd: " + std::to_string(n) + " inputs and " + std::to_string(m) +
                                  " outputs did not reach " + std::to_string(g) + " nodes (at most " +
                                  std::to_string(largest) + " seen)");
    }
    std::uint32_t prod = robdd_builder::true_node;
    for (monomial r = detail::random_monomial(rng, n, 3); r; r &= r - 1)
      prod = b.apply_and(prod, b.var(static_cast<std::size_t>(std::countr_zero(r))));
    roots[k] = b.apply_xor(roots[k], prod);
  }
  return robdd(b, roots);
}

/// The first output of `c` that is trivial on 512 random assignments of its
/// inputs (drawn from `seed`): constant, or equal to one of the inputs; as
/// "output k is ...". Empty when every output is non-trivial. A random check,
/// so "non-trivial" means "seen to vary and to differ from every input".
template <class C>
  requires circuit_representation<C, std::uint64_t>
std::optional<std::string> find_trivial_output(const C& c, std::uint64_t seed = 1) {
  const std::size_t n = c.inputs(), m = c.outputs();
  std::vector<std::uint64_t> in(n), out(m), ones(m, 0), zeros(m, 0), differs(m * n, 0);
  xoshiro256ss rng(seed);
  for (int round = 0; round < 8; ++round) {  // 8 x 64 lanes
    for (auto& x : in) x = rng.next();
    c.evaluate(std::span<const std::uint64_t>(in), std::span<std::uint64_t>(out));
    for (std::size_t k = 0; k < m; ++k) {
      ones[k] |= out[k];
      zeros[k] |= ~out[k];
      for (std::size_t j = 0; j < n; ++j) differs[k * n + j] |= out[k] ^ in[j];
    }
  }
  for (std::size_t k = 0; k < m; ++k) {
    const std::string name = "output " + std::to_string(k);
    if (!ones[k]) return name + " is constant 0";
    if (!zeros[k]) return name + " is constant 1";
    for (std::size_t j = 0; j < n; ++j)
      if (!differs[k * n + j]) return name + " equals input " + std::to_string(j);
  }
  return std::nullopt;
}

BEM_NAMESPACE_END
