// Shared helpers of the circuit tests: lane access, input patterns and a
// scalar reference semantics written independently of the library's word
// formulas (truth tables are read bit by bit).
#pragma once

#include <bem/circuits/gate_list.hpp>
#include <bem/machine/lanes.hpp>
#include <bem/prng.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace circuit_test {

template <class W>
bool lane_of(const W& w, std::size_t l) {
  if constexpr (std::is_same_v<W, std::uint64_t>)
    return (w >> l) & 1u;
  else
    return w.lane(l);
}
template <class W>
void set_lane_of(W& w, std::size_t l, bool v) {
  if constexpr (std::is_same_v<W, std::uint64_t>)
    w = v ? (w | (std::uint64_t{1} << l)) : (w & ~(std::uint64_t{1} << l));
  else
    w.set_lane(l, v);
}
template <class W>
constexpr std::size_t lanes_of() {
  if constexpr (std::is_same_v<W, std::uint64_t>)
    return 64;
  else
    return W::width;
}

/// Input words where lane l carries the assignment l (input j = bit j of l):
/// every assignment of n inputs when the word has 2^n lanes.
template <class W>
std::vector<W> exhaustive_inputs(std::size_t n) {
  std::vector<W> in(n, W{});
  for (std::size_t l = 0; l < lanes_of<W>(); ++l)
    for (std::size_t j = 0; j < n; ++j) set_lane_of(in[j], l, (l >> j) & 1u);
  return in;
}

template <class W>
std::vector<W> random_inputs(std::size_t n, std::uint64_t seed) {
  bem::xoshiro256ss rng(seed);
  std::vector<W> in(n, W{});
  for (auto& w : in)
    for (std::size_t l = 0; l < lanes_of<W>(); ++l) set_lane_of(w, l, rng.bit());
  return in;
}

/// The gate list's outputs for one assignment, gate by gate with bools.
inline std::vector<bool> scalar_eval(const bem::gate_list& c, const std::vector<bool>& x) {
  std::vector<bool> v(x);
  for (const auto& g : c.gates()) {
    const bool a = v[g.a], b = v[g.b], cc = v[g.c];
    bool r = false;
    switch (g.op) {
      case bem::gate_op::and_: r = a && b; break;
      case bem::gate_op::or_: r = a || b; break;
      case bem::gate_op::xor_: r = a != b; break;
      case bem::gate_op::not_: r = !a; break;
      case bem::gate_op::andn: r = a && !b; break;
      case bem::gate_op::ternary: r = (g.tt >> ((a ? 4 : 0) | (b ? 2 : 0) | (cc ? 1 : 0))) & 1u; break;
    }
    v.push_back(r);
  }
  std::vector<bool> out;
  for (auto o : c.output_nodes()) out.push_back(v[o]);
  return out;
}

/// One ternary gate per truth table tt (output tt) over inputs (a, b, c) =
/// (2, 1, 0): on exhaustive_inputs(3), lane l is the assignment a = bit 2,
/// b = bit 1, c = bit 0 of l, so output tt must hold tt in its lanes 0..7.
inline bem::gate_list every_ternary_table() {
  std::vector<bem::gate> gates;
  std::vector<std::uint32_t> outs;
  for (unsigned tt = 0; tt < 256; ++tt) {
    gates.push_back({bem::gate_op::ternary, static_cast<std::uint8_t>(tt), 2, 1, 0});
    outs.push_back(static_cast<std::uint32_t>(3 + tt));
  }
  return bem::gate_list(3, std::move(gates), std::move(outs));
}

/// c's outputs for inputs `in` (its own evaluate, allocating scratch).
template <class W, class C>
std::vector<W> eval(const C& c, const std::vector<W>& in) {
  std::vector<W> out(c.outputs());
  c.evaluate(std::span<const W>(in), std::span<W>(out));
  return out;
}

/// The gate list's outputs by its plain (reference) interpreter.
template <class W>
std::vector<W> eval_reference(const bem::gate_list& c, const std::vector<W>& in) {
  std::vector<W> out(c.outputs()), scratch(c.scratch_size());
  c.evaluate_reference(std::span<const W>(in), std::span<W>(out), std::span<W>(scratch));
  return out;
}

/// Lane l's input assignment.
template <class W>
std::vector<bool> lane_inputs(const std::vector<W>& in, std::size_t l) {
  std::vector<bool> x;
  for (const auto& w : in) x.push_back(lane_of(w, l));
  return x;
}

/// A list the layered generator cannot give: any ternary table, repeated
/// operands (a & a, tt(a, a, b)), constant gates (x ^ x), dead gates, and
/// outputs that are inputs, constants or repeated.
inline bem::gate_list edge_list(std::size_t n, std::size_t g, std::size_t m, std::uint64_t seed) {
  bem::xoshiro256ss rng(seed);
  std::vector<bem::gate> gates;
  for (std::size_t i = 0; i < g; ++i) {
    const auto limit = static_cast<std::uint32_t>(n + i);
    auto pick = [&] {
      if (i > 0 && rng.uniform_below(2) == 0) return limit - 1 - static_cast<std::uint32_t>(rng.uniform_below(std::min<std::uint64_t>(i, 3)));
      return static_cast<std::uint32_t>(rng.uniform_below(limit));
    };
    bem::gate x{static_cast<bem::gate_op>(rng.uniform_below(6)), 0, pick(), 0, 0};
    x.b = rng.uniform_below(6) == 0 ? x.a : pick();
    x.c = rng.uniform_below(6) == 0 ? x.b : pick();
    if (x.op == bem::gate_op::ternary) x.tt = static_cast<std::uint8_t>(rng.next());
    gates.push_back(x);
  }
  std::vector<std::uint32_t> outs;
  for (std::size_t k = 0; k < m; ++k) outs.push_back(static_cast<std::uint32_t>(rng.uniform_below(n + g)));
  if (m > 1) outs.back() = outs.front();
  return bem::gate_list(n, std::move(gates), std::move(outs));
}

}  // namespace circuit_test
