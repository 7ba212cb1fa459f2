// ROBDD circuits: reduced ordered binary decision diagrams with shared nodes.
//
// A node (v, lo, hi) is the function "input v ? hi : lo". Node 0 is the
// constant 0, node 1 the constant 1. Variables are tested in the fixed order
// 0, 1, ..., n - 1 from the root down (a node's children test only larger
// variables). `robdd_builder` is the manager: `make` goes through a unique
// table, so no two nodes have the same (v, lo, hi) and no node has lo == hi
// — the diagram is reduced, and then canonical: within one builder two
// functions are equal exactly when their node ids are equal. `ite`
// (if-then-else, with a computed table) gives every Boolean operation.
//
// `robdd` is the multi-output circuit: the nodes reachable from m roots,
// numbered in depth-first post-order from root 0 to root m - 1 (low child
// before high child), so children come before parents. That numbering
// depends only on the functions, so two robdd objects compare equal exactly
// when they compute the same outputs — even when built by different builders.
//
// Gate count G = internal nodes: each is one 2:1 multiplexer, evaluated as
// lo ^ (x & (hi ^ lo)) (three word operations). Every node of a robdd is
// reachable from a root, hence live.
//
// Evaluation runs the nodes by variable, the last variable first (a
// program of steps made at construction): a node reads only nodes of later
// variables, so the nodes of one variable are independent of each other and
// the core overlaps them. In the post-order numbering a node mostly reads
// the node written just before it, and at W = 128 and 256 that ran at 9-10
// TSC ticks per node against 2.4-2.8 by variable (docs/circuits.md).
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

BEM_NAMESPACE_BEGIN

/// A decision node: input `var` ? hi : lo. Terminals have var = terminal_var.
struct bdd_node {
  static constexpr std::uint32_t terminal_var = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t var = terminal_var;
  std::uint32_t lo = 0, hi = 0;
  friend bool operator==(const bdd_node&, const bdd_node&) = default;
};

/// The ROBDD manager: unique table, computed table, ite.
class robdd_builder {
 public:
  static constexpr std::uint32_t false_node = 0, true_node = 1;

  /// A manager for functions of `n` inputs.
  explicit robdd_builder(std::size_t n) : n_(n) {
    nodes_.push_back({});  // 0
    nodes_.push_back({});  // 1
  }

  std::size_t inputs() const noexcept { return n_; }
  /// Nodes created so far, terminals included.
  std::size_t size() const noexcept { return nodes_.size(); }
  const bdd_node& node(std::uint32_t id) const { return nodes_.at(id); }

  /// The constant function b.
  static constexpr std::uint32_t constant(bool b) noexcept { return b ? true_node : false_node; }
  /// The projection onto input i.
  std::uint32_t var(std::size_t i) {
    if (i >= n_)
      throw std::invalid_argument("robdd_builder: input " + std::to_string(i) + " of only " + std::to_string(n_));
    return make(static_cast<std::uint32_t>(i), false_node, true_node);
  }
  /// The unique node (v, lo, hi), or lo itself when lo == hi (reduction).
  /// Throws std::invalid_argument unless v < inputs(), lo and hi are nodes
  /// of this builder and both test variables after v (the fixed order
  /// 0..n-1 from the root, which evaluation relies on).
  std::uint32_t make(std::uint32_t v, std::uint32_t lo, std::uint32_t hi) {
    if (v >= n_)
      throw std::invalid_argument("robdd_builder::make: variable " + std::to_string(v) + " of only " +
                                  std::to_string(n_) + " inputs");
    if (lo >= nodes_.size() || hi >= nodes_.size())
      throw std::invalid_argument("robdd_builder::make: child " + std::to_string(std::max(lo, hi)) +
                                  " is not a node (" + std::to_string(nodes_.size()) + " so far)");
    if (nodes_[lo].var <= v || nodes_[hi].var <= v)
      throw std::invalid_argument("robdd_builder::make: a child of a node on variable " + std::to_string(v) +
                                  " tests variable " + std::to_string(std::min(nodes_[lo].var, nodes_[hi].var)) +
                                  " (the order is 0..n-1 from the root)");
    if (lo == hi) return lo;
    const auto [it, inserted] = unique_.try_emplace(key{v, lo, hi}, static_cast<std::uint32_t>(nodes_.size()));
    if (inserted) nodes_.push_back({v, lo, hi});
    return it->second;
  }

  /// f ? g : h.
  std::uint32_t ite(std::uint32_t f, std::uint32_t g, std::uint32_t h) {
    if (f == true_node) return g;
    if (f == false_node) return h;
    if (g == h) return g;
    if (g == true_node && h == false_node) return f;
    const key k{f, g, h};
    if (auto it = computed_.find(k); it != computed_.end()) return it->second;
    const std::uint32_t v = std::min({top(f), top(g), top(h)});
    const std::uint32_t lo = ite(cofactor(f, v, false), cofactor(g, v, false), cofactor(h, v, false));
    const std::uint32_t hi = ite(cofactor(f, v, true), cofactor(g, v, true), cofactor(h, v, true));
    const std::uint32_t r = make(v, lo, hi);
    computed_.emplace(k, r);
    return r;
  }
  std::uint32_t negate(std::uint32_t f) { return ite(f, false_node, true_node); }
  std::uint32_t apply_and(std::uint32_t f, std::uint32_t g) { return ite(f, g, false_node); }
  std::uint32_t apply_or(std::uint32_t f, std::uint32_t g) { return ite(f, true_node, g); }
  std::uint32_t apply_xor(std::uint32_t f, std::uint32_t g) { return ite(f, negate(g), g); }

  /// Number of internal nodes reachable from `roots` (shared nodes once).
  std::size_t reachable_internal(std::span<const std::uint32_t> roots) const {
    std::vector<bool> seen(nodes_.size(), false);
    std::vector<std::uint32_t> stack(roots.begin(), roots.end());
    std::size_t count = 0;
    while (!stack.empty()) {
      const std::uint32_t id = stack.back();
      stack.pop_back();
      if (id <= true_node || seen[id]) continue;
      seen[id] = true;
      ++count;
      stack.push_back(nodes_[id].lo);
      stack.push_back(nodes_[id].hi);
    }
    return count;
  }

 private:
  struct key {
    std::uint32_t a, b, c;
    friend bool operator==(const key&, const key&) = default;
  };
  struct key_hash {
    std::size_t operator()(const key& k) const noexcept {
      std::uint64_t h = (static_cast<std::uint64_t>(k.a) << 32 | k.b) * 0x9E3779B97F4A7C15ull;
      h ^= (h >> 29) ^ (static_cast<std::uint64_t>(k.c) * 0xBF58476D1CE4E5B9ull);
      return static_cast<std::size_t>(h ^ (h >> 32));
    }
  };
  std::uint32_t top(std::uint32_t f) const noexcept { return nodes_[f].var; }
  std::uint32_t cofactor(std::uint32_t f, std::uint32_t v, bool value) const noexcept {
    const bdd_node& x = nodes_[f];
    if (x.var != v) return f;  // f does not test v at its top (v is above f's variables)
    return value ? x.hi : x.lo;
  }

  std::size_t n_;
  std::vector<bdd_node> nodes_;
  std::unordered_map<key, std::uint32_t, key_hash> unique_;
  std::unordered_map<key, std::uint32_t, key_hash> computed_;
};

/// A multi-output ROBDD circuit (see the header comment).
class robdd {
 public:
  using circuit_representation_concept = circuit_representation_t;
  static constexpr const char* representation_name = "robdd";  ///< for records (§6.1)

  /// No inputs, no outputs: the two terminals only.
  robdd() : nodes_(2) {}

  /// The functions `roots` (node ids of `b`), one per output, with their
  /// reachable nodes renumbered canonically.
  robdd(const robdd_builder& b, std::span<const std::uint32_t> roots) : n_(b.inputs()) {
    nodes_.push_back({});
    nodes_.push_back({});
    std::vector<std::uint32_t> map(b.size(), unmapped);
    map[0] = 0;
    map[1] = 1;
    for (auto r : roots) {
      if (r >= b.size())
        throw std::invalid_argument("robdd: root " + std::to_string(r) + " is not a node of the builder (" +
                                    std::to_string(b.size()) + " nodes)");
      roots_.push_back(copy(b, r, map));
    }
    // The evaluation program: by variable, last first (see the header comment).
    for (std::uint32_t i = 2; i < nodes_.size(); ++i) steps_.push_back({nodes_[i].var, nodes_[i].lo, nodes_[i].hi, i});
    std::stable_sort(steps_.begin(), steps_.end(), [](const step& x, const step& y) { return x.var > y.var; });
  }

  std::size_t inputs() const noexcept { return n_; }
  std::size_t outputs() const noexcept { return roots_.size(); }
  /// G = internal nodes (each a 2:1 multiplexer).
  std::size_t gate_count() const noexcept { return nodes_.size() - 2; }
  /// One word per node, terminals included.
  std::size_t scratch_size() const noexcept { return nodes_.size(); }
  /// Nodes, terminals first, children before parents.
  const std::vector<bdd_node>& nodes() const noexcept { return nodes_; }
  /// Each output's node.
  const std::vector<std::uint32_t>& roots() const noexcept { return roots_; }

  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out, std::span<W> scratch) const {
    detail::check_circuit_spans("robdd", n_, roots_.size(), scratch_size(), in.size(), out.size(), scratch.size());
    W* s = scratch.data();
    s[0] = zero_word<W>();
    s[1] = ones_word<W>();
    // Members in locals: stores of lane words may alias anything, so the
    // compiler would reload them after every node (2x slower at W = 256).
    const step* p = steps_.data();
    const std::size_t count = steps_.size();
    const W* x = in.data();
    for (std::size_t j = 0; j < count; ++j) {
      const step st = p[j];
      const W lo = s[st.lo];
      s[st.dst] = lo ^ (x[st.var] & (s[st.hi] ^ lo));
    }
    const std::uint32_t* r = roots_.data();
    const std::size_t m = roots_.size();
    for (std::size_t k = 0; k < m; ++k) out[k] = s[r[k]];
  }
  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out) const {
    std::vector<W> scratch(scratch_size());
    evaluate(in, out, std::span<W>(scratch));
  }

  /// Equal exactly when the output functions are equal (canonical numbering).
  friend bool operator==(const robdd& x, const robdd& y) {
    return x.n_ == y.n_ && x.nodes_ == y.nodes_ && x.roots_ == y.roots_;
  }

 private:
  static constexpr std::uint32_t unmapped = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t copy(const robdd_builder& b, std::uint32_t id, std::vector<std::uint32_t>& map) {
    if (map[id] != unmapped) return map[id];
    const bdd_node& x = b.node(id);
    const std::uint32_t lo = copy(b, x.lo, map);
    const std::uint32_t hi = copy(b, x.hi, map);
    map[id] = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back({x.var, lo, hi});
    return map[id];
  }

  /// One node's evaluation: s[dst] = s[lo] ^ (in[var] & (s[hi] ^ s[lo])).
  struct step {
    std::uint32_t var, lo, hi, dst;
  };

  std::size_t n_ = 0;
  std::vector<bdd_node> nodes_;
  std::vector<std::uint32_t> roots_;
  std::vector<step> steps_;  // the nodes by variable, last first
};

BEM_NAMESPACE_END
