// Look-up tables of up to three nodes: the form in which gate lists are
// optimised before they are run, by bem::gate_list's interpreter and by
// bem::jit_circuit's code generator.
//
// A lut is a function of k = 1..3 distinct nodes (its leaves) given by an
// 8-bit truth table in the vpternlog convention: bit (x0 << 2 | x1 << 1 | x2)
// is the value for leaf values x0, x1, x2, and the table does not depend on
// slots >= k. Every gate of a gate list is one lut (repeated operands merged,
// operands the table ignores dropped); `fuse_single_readers` folds a gate
// read by exactly one later gate into that reader when the two read at most
// three nodes together, so one lut then does the work of several gates.
#pragma once

#include <bem/circuits/gate.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

BEM_NAMESPACE_BEGIN

namespace detail {

// Tables of the common functions of fewer than 3 slots (slot a = bit 2,
// b = bit 1; the table does not depend on the slots not read).
inline constexpr std::uint8_t tt2_and = 0xC0;     ///< a & b
inline constexpr std::uint8_t tt2_or = 0xFC;      ///< a | b
inline constexpr std::uint8_t tt2_xor = 0x3C;     ///< a ^ b
inline constexpr std::uint8_t tt2_andn = 0x30;    ///< a & ~b
inline constexpr std::uint8_t tt2_b_andn_a = 0x0C;  ///< ~a & b
inline constexpr std::uint8_t tt1_not = 0x0F;     ///< ~a
inline constexpr std::uint8_t tt1_identity = 0xF0;  ///< a

/// A function of k = 1..3 distinct nodes by an 8-bit table (see above).
struct lut {
  std::uint8_t k = 0, tt = 0;
  std::uint32_t leaf[3] = {0, 0, 0};
};

/// The table of `f` (bool(const bool* slot_values)) over three slots.
template <class F>
constexpr std::uint8_t table_of(F f) {
  unsigned tt = 0;
  for (unsigned idx = 0; idx < 8; ++idx) {
    const bool x[3] = {((idx >> 2) & 1u) != 0, ((idx >> 1) & 1u) != 0, (idx & 1u) != 0};
    if (f(x)) tt |= 1u << idx;
  }
  return static_cast<std::uint8_t>(tt);
}

/// The table's value for slot values slot[0..2].
constexpr bool table_value(std::uint8_t tt, const bool* slot) {
  return ((tt >> ((slot[0] ? 4 : 0) | (slot[1] ? 2 : 0) | (slot[2] ? 1 : 0))) & 1u) != 0;
}

/// True when the table's value changes with slot j (0..2).
constexpr bool table_depends_on(std::uint8_t tt, std::size_t j) {
  const unsigned bit = 4u >> j;
  for (unsigned idx = 0; idx < 8; ++idx)
    if (((tt >> idx) ^ (tt >> (idx ^ bit))) & 1u) return true;
  return false;
}

/// The lut over `leaves` (k distinct nodes) that computes value(node -> bool),
/// where `node(v)` gives the value of leaf v.
template <class Value>
constexpr lut make_lut(const std::uint32_t* leaves, std::size_t k, Value value) {
  lut l;
  l.k = static_cast<std::uint8_t>(k);
  for (std::size_t j = 0; j < k; ++j) l.leaf[j] = leaves[j];
  l.tt = table_of([&](const bool* x) {
    auto node = [&](std::uint32_t v) {
      for (std::size_t j = 0; j < k; ++j)
        if (leaves[j] == v) return x[j];
      return false;  // not reached: every node read is a leaf
    };
    return value(node);
  });
  return l;
}

/// Drops the slots the table does not depend on (a constant keeps slot 0:
/// its evaluators read one node for it).
constexpr lut drop_unused(lut l) {
  std::uint32_t keep[3] = {0, 0, 0};
  std::size_t pos[3] = {0, 0, 0};
  std::size_t k = 0;
  for (std::size_t j = 0; j < l.k; ++j)
    if (table_depends_on(l.tt, j)) {
      pos[k] = j;
      keep[k++] = l.leaf[j];
    }
  if (k == l.k) return l;
  if (k == 0) keep[k++] = l.leaf[0];  // a constant: pos[0] = 0, read but ignored
  lut r;
  r.k = static_cast<std::uint8_t>(k);
  for (std::size_t j = 0; j < k; ++j) r.leaf[j] = keep[j];
  r.tt = table_of([&](const bool* x) {
    bool old[3] = {false, false, false};
    for (std::size_t j = 0; j < k; ++j) old[pos[j]] = x[j];
    return table_value(l.tt, old);
  });
  return r;
}

/// l with repeated leaves merged (the first occurrence kept: leaves may
/// coincide, a gate's operands or values aliased to one another) and the
/// leaves its table ignores dropped.
constexpr lut normalized(lut l) {
  std::uint32_t leaves[3] = {0, 0, 0};
  std::size_t k = 0;
  for (std::size_t j = 0; j < l.k; ++j)
    if (std::find(leaves, leaves + k, l.leaf[j]) == leaves + k) leaves[k++] = l.leaf[j];
  if (k != l.k) {
    const lut old = l;
    l = make_lut(leaves, k, [&](auto node) {
      bool x[3] = {false, false, false};
      for (std::size_t j = 0; j < old.k; ++j) x[j] = node(old.leaf[j]);
      return table_value(old.tt, x);
    });
  }
  return drop_unused(l);
}

/// A gate as a lut over its distinct operands.
constexpr lut gate_lut(const gate& g) {
  const int arity = gate_arity(g.op);
  lut l;
  l.k = static_cast<std::uint8_t>(arity);
  const std::uint32_t ops[3] = {g.a, g.b, g.c};
  for (int j = 0; j < arity; ++j) l.leaf[j] = ops[j];
  l.tt = table_of([&](const bool* x) {
    const bool a = x[0], b = arity > 1 ? x[1] : a, c = arity > 2 ? x[2] : a;
    return apply_gate<std::uint64_t>(g.op, g.tt, a ? ~0ull : 0ull, b ? ~0ull : 0ull, c ? ~0ull : 0ull) != 0;
  });
  return normalized(l);
}

/// The 4-bit table, bit (a << 1 | b), of an 8-bit table of slots a and b
/// (one that ignores slot c).
constexpr unsigned table2_bits(std::uint8_t tt) {
  return (tt & 1u) | ((tt >> 1) & 2u) | ((tt >> 2) & 4u) | ((tt >> 3) & 8u);
}

/// The luts of a gate list (gate i is lut i; leaves are nodes: inputs
/// 0..n-1, gate i is node n + i), with the fusion bookkeeping.
struct lut_graph {
  std::size_t n = 0;
  std::vector<lut> luts;
  std::vector<bool> absorbed;          ///< lut i was folded into its reader
  std::vector<std::uint32_t> readers;  ///< luts and outputs reading node v
};

/// One lut per gate, reader counts including the outputs.
inline lut_graph lut_graph_of(std::size_t n, std::span<const gate> gates, std::span<const std::uint32_t> outputs) {
  lut_graph g;
  g.n = n;
  g.luts.resize(gates.size());
  g.absorbed.assign(gates.size(), false);
  g.readers.assign(n + gates.size(), 0);
  for (auto o : outputs) ++g.readers[o];
  for (std::size_t i = 0; i < gates.size(); ++i) {
    g.luts[i] = gate_lut(gates[i]);
    for (std::size_t q = 0; q < g.luts[i].k; ++q) ++g.readers[g.luts[i].leaf[q]];
  }
  return g;
}

/// Fusion: for each lut in order, repeatedly folds a leaf that is a lut read
/// by nobody else (and not an output) into it when the two read at most 3
/// nodes together and `allow(fused)` accepts the result. The folded lut is
/// marked absorbed; reader counts follow.
template <class Allow>
void fuse_single_readers(lut_graph& g, Allow allow) {
  const std::size_t n = g.n;
  for (std::size_t i = 0; i < g.luts.size(); ++i) {
    if (g.absorbed[i]) continue;
    lut& l = g.luts[i];
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t j = 0; j < l.k && !changed; ++j) {
        const std::uint32_t x = l.leaf[j];
        if (x < n || g.readers[x] != 1) continue;  // an input, or read elsewhere too
        const lut inner = g.luts[x - n];
        std::uint32_t leaves[3];
        std::size_t k = 0;
        bool fits = true;
        auto add = [&](std::uint32_t v) {
          if (std::find(leaves, leaves + k, v) != leaves + k) return;
          if (k == 3)
            fits = false;
          else
            leaves[k++] = v;
        };
        for (std::size_t q = 0; q < l.k; ++q)
          if (q != j) add(l.leaf[q]);
        for (std::size_t q = 0; q < inner.k; ++q) add(inner.leaf[q]);
        if (!fits) continue;
        const lut outer = l;
        const lut fused = drop_unused(make_lut(leaves, k, [&](auto node) {
          bool xi[3] = {false, false, false}, xo[3] = {false, false, false};
          for (std::size_t q = 0; q < inner.k; ++q) xi[q] = node(inner.leaf[q]);
          for (std::size_t q = 0; q < outer.k; ++q) xo[q] = q == j ? table_value(inner.tt, xi) : node(outer.leaf[q]);
          return table_value(outer.tt, xo);
        }));
        if (!allow(fused)) continue;
        // Reader counts: x and its reads are gone; i reads the fused leaves.
        g.absorbed[x - n] = true;
        for (std::size_t q = 0; q < inner.k; ++q) --g.readers[inner.leaf[q]];
        for (std::size_t q = 0; q < outer.k; ++q) --g.readers[outer.leaf[q]];
        for (std::size_t q = 0; q < fused.k; ++q) ++g.readers[fused.leaf[q]];
        l = fused;
        changed = true;
      }
    }
  }
}

}  // namespace detail

BEM_NAMESPACE_END
