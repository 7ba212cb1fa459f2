// Exact identification of the smallest Moore machine consistent with
// labelled words, by SAT (the encoding of Heule & Verwer, "Exact DFA
// identification using SAT solvers", ICGI 2010, in Moore form).
//
// ## What is computed
// A sample is a set of words over symbols 0..alphabet-1 with a label (0, 1
// or unknown) for every non-empty prefix. identify_moore returns a complete
// Moore machine (start state 0, a successor for every state and symbol, an
// output bit per state) that gives every known label, with the fewest states
// any such machine has, or says that none has at most max_states states.
// learn_moore does the same over a large training set by counterexamples: it
// identifies on a small sample, runs the machine over the whole set, adds the
// words it gets wrong and repeats.
//
// ## The encoding at k states
// The prefix tree (APTA) has a node per distinct prefix of the sample, the
// root being the empty prefix, and the node's known label; two words that
// label one prefix differently make the sample inconsistent. Subtrees without
// a known label constrain nothing and are dropped. With n nodes, an alphabet
// of A symbols and colours (states) 0..k-1 the variables are
//   x(v, i)     node v has colour i, i.e. the machine is in state i after
//               reading v's prefix                              (n k)
//   y(a, i, j)  state i goes to state j on symbol a             (A k^2)
//   z(i)        state i outputs 1                               (k)
// and the clause families
//   (1) every node has a colour:          x(v, 0) | ... | x(v, k-1)
//   (2) the start state: the root is 0:   x(root, 0), !x(root, i) for i > 0
//   (3) a labelled node's colour outputs its label:
//                                         !x(v, i) | z(i)   (label 1)
//                                         !x(v, i) | !z(i)  (label 0)
//   (4) an edge fixes a transition: for the child c of p by a,
//                                         !x(p, i) | !x(c, j) | y(a, i, j)
//   (5) a transition fixes the child:     !x(p, i) | !y(a, i, j) | x(c, j)
//   (6) the machine is deterministic and complete: for every a and i,
//                                         y(a, i, 0) | ... | y(a, i, k-1) and
//                                         !y(a, i, j) | !y(a, i, h) for j < h
//   (7) symmetry breaking: the members m_0 = root, m_1, ..., m_{c-1} of a
//       clique of pairwise distinguished nodes get distinct colours:
//                                         x(m_t, t)
// No clause says "at most one colour per node": the soundness argument below
// derives it.
//
// ## Symmetry breaking
// Two nodes are distinguished when some suffix u leads both to a labelled
// node and the labels differ (found by walking both subtrees in parallel,
// breadth first); a consistent machine never gives them one state, because
// it would then be in one state after both prefixes followed by u. A greedy
// clique of pairwise distinguished nodes is grown from the root over the
// first nodes in breadth-first order (each step adds the candidate with most
// distinguished partners among those still eligible), and its members are
// fixed to colours 0, 1, ..., c-1 (7). Any consistent machine maps the clique
// to c distinct states and can be renumbered so that these are 0..c-1 with
// the start state 0, so (7) keeps every machine up to renumbering; and c is a
// lower bound on the state count, so k starts at c. The remaining colours
// stay interchangeable (no breadth-first ordering predicates).
//
// ## Why it is exact
// Sound: in a model, (6) makes y a complete deterministic table. By
// induction on depth, every node has exactly one colour, the state the table
// reaches from state 0 on the node's prefix: the root by (2); for the child c
// by a of a node p coloured i, with j = the successor y names, c has colour j
// by (5) (or by (1): any colour of c forces its y(a, i, .) by (4), and (6)
// allows only j), and no other colour by (4) and (6). So (3) makes the
// output of the state reached on every labelled prefix its label: the
// machine decoded from y and z gives every known label. It is checked
// against the sample once more before it is returned, and a disagreement
// throws std::logic_error (an encoder or back-end bug, never an answer).
// (1) and (5) are each redundant given the other; both are kept because
// they propagate in opposite directions (a parent's colour and a transition
// fix the child; a child's colours fix transitions), which saves the solver
// conflicts.
// Complete: any consistent k-state machine, renumbered as above, gives a
// model (x from its run over the tree, y its table, z its outputs) that
// satisfies (1)-(7). So UNSAT at k means no consistent machine has k states,
// k = 1, 2, ... are tried in order (from the clique's size, which no smaller
// machine reaches), and the first SAT answer has the fewest states.
//
// ## Cost and limits
// The encoding at k has n k + A k^2 + k variables and about 2 n k^2 +
// A k^3 / 2 clauses; every SAT call uses a fresh back end (the encodings of
// two k share no variables' meaning). A prefix tree of more than
// max_tree_nodes nodes is refused (too_large), and so is an encoding beyond
// int variable numbers or 2^32 literals; a SAT call that spends its
// conflict budget ends the search (unknown), because a larger k would not
// prove the smaller one impossible.
//
// A machine identified from short words generalises to all lengths only when
// it is the target's own. A sample makes sure of that for a minimal target
// of k states whose start state some non-empty word re-enters when, for the
// empty word and a non-empty access word s of every state, it holds s a e
// for every symbol a and every e of max(k-2, 0) symbols, labelled at every
// prefix: the labels of the s then tell k states apart, and those of s a e
// fix every transition, so every consistent machine of at most k states
// gives every non-empty word the target's label.
//
// Example (compiled by tests/learn/automaton_identification.cpp):
//
//     using bem::learn::labelled_word;
//     // Parity of the ones read so far, labelled at every prefix.
//     const std::vector<labelled_word> sample = {
//         {{0, 1, 1, 0, 1}, {0, 1, 0, 0, 1}},
//         {{1, 0, 0, 1}, {1, 1, 1, 0}},
//     };
//     const auto r = bem::learn::identify_moore(sample, 2);
//     // r.status == found, r.machine.states == 2, and for every word w of
//     // the sample r.machine.consistent(w).
#pragma once

#include <bem/prover/cdcl.hpp>
#include <bem/prover/cnf.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace learn {

/// A word over symbols 0..alphabet-1 with a label per prefix: labels[t] is the
/// label (0 or 1) of the prefix symbols[0..t], or -1 when unknown. Online
/// tasks label every prefix; final-label tasks only the last.
struct labelled_word {
  std::vector<std::uint32_t> symbols;
  std::vector<std::int8_t> labels;  // same size as symbols
};

/// A complete Moore machine: states 0..states-1, start state 0, next[s *
/// alphabet + a] the successor, output[s] the label of a prefix ending in s.
/// The default is the one-state machine over two symbols that outputs 0.
struct moore_machine {
  std::uint32_t states = 1, alphabet = 2;
  std::vector<std::uint32_t> next = {0, 0};
  std::vector<std::uint8_t> output = {0};

  /// The successor of state s on symbol a (s < states, a < alphabet).
  std::uint32_t step(std::uint32_t s, std::uint32_t a) const {
    return next[static_cast<std::size_t>(s) * alphabet + a];
  }
  /// The labels it gives every prefix of `symbols` (a symbol outside the
  /// alphabet: std::invalid_argument).
  std::vector<std::uint8_t> run(std::span<const std::uint32_t> symbols) const {
    if (next.size() != static_cast<std::size_t>(states) * alphabet || output.size() != states)
      throw std::logic_error("bem::learn::moore_machine: " + std::to_string(next.size()) + " successors and " +
                             std::to_string(output.size()) + " outputs for " + std::to_string(states) +
                             " states over " + std::to_string(alphabet) + " symbols");
    std::vector<std::uint8_t> out;
    out.reserve(symbols.size());
    std::uint32_t s = 0;
    for (std::size_t t = 0; t < symbols.size(); ++t) {
      if (symbols[t] >= alphabet)
        throw std::invalid_argument("bem::learn::moore_machine::run: symbol " + std::to_string(symbols[t]) +
                                    " at position " + std::to_string(t) + " is not below the alphabet size " +
                                    std::to_string(alphabet));
      s = step(s, symbols[t]);
      out.push_back(output[s]);
    }
    return out;
  }
  /// True when it gives every known label of w.
  bool consistent(const labelled_word& w) const {
    if (w.labels.size() != w.symbols.size())
      throw std::invalid_argument("bem::learn::moore_machine::consistent: " + std::to_string(w.labels.size()) +
                                  " labels for " + std::to_string(w.symbols.size()) + " symbols");
    const std::vector<std::uint8_t> out = run(w.symbols);
    for (std::size_t t = 0; t < out.size(); ++t)
      if (w.labels[t] >= 0 && out[t] != static_cast<std::uint8_t>(w.labels[t])) return false;
    return true;
  }
  friend bool operator==(const moore_machine&, const moore_machine&) = default;
};

struct identification_options {
  std::uint32_t max_states = 8;           // try k = 1 .. max_states
  std::int64_t conflict_budget = 200000;  // per SAT call (< 0: none); UNKNOWN when it runs out
  bool symmetry_breaking = true;          // the clique of pairwise distinguished nodes fixed, k from its size
  std::size_t max_tree_nodes = 200000;    // a prefix tree above this is refused (status too_large)
};

enum class identification_status { found, no_machine, unknown, too_large, inconsistent_sample };

constexpr std::string_view to_string(identification_status s) noexcept {
  switch (s) {
    case identification_status::found: return "found";
    case identification_status::no_machine: return "no_machine";
    case identification_status::unknown: return "unknown";
    case identification_status::too_large: return "too_large";
    case identification_status::inconsistent_sample: return "inconsistent_sample";
  }
  return "?";
}

struct identification_result {
  identification_status status = identification_status::no_machine;
  /// found: a machine with the fewest states (<= max_states) consistent with
  /// the sample, its states numbered in breadth-first order from the start
  /// (symbols in increasing order), so equal behaviour gives equal tables.
  moore_machine machine;
  std::size_t tree_nodes = 0;  ///< nodes of the prefix tree (APTA), root included
  std::size_t sat_calls = 0;
  std::uint64_t conflicts = 0;  ///< if the back end reports them (stats().conflicts); else 0
  /// CNF size (clauses) at each k tried; learn_moore: of every SAT call of
  /// every round, in order.
  std::vector<std::size_t> clauses_per_k;
};

namespace detail {

inline constexpr std::uint32_t no_node = std::numeric_limits<std::uint32_t>::max();

/// The prefix tree of a sample: node 0 is the empty prefix, child[v *
/// alphabet + a] the node of v's prefix followed by a (or no_node), label[v]
/// the prefix's known label or -1.
struct prefix_tree {
  std::uint32_t alphabet = 2;
  std::vector<std::uint32_t> child;
  std::vector<std::int8_t> label;

  explicit prefix_tree(std::uint32_t symbols) : alphabet(symbols) { add_node(); }
  std::size_t size() const noexcept { return label.size(); }
  std::uint32_t child_of(std::uint32_t v, std::uint32_t a) const noexcept {
    return child[static_cast<std::size_t>(v) * alphabet + a];
  }
  std::uint32_t add_node() {
    label.push_back(-1);
    child.resize(child.size() + alphabet, no_node);
    return static_cast<std::uint32_t>(label.size() - 1);
  }
};

/// Throws std::invalid_argument naming the word, position and field of the
/// first malformed entry.
inline void check_sample(std::span<const labelled_word> words, std::uint32_t alphabet, std::string_view who) {
  const std::string at = "bem::learn::" + std::string(who) + ": ";
  if (alphabet == 0) throw std::invalid_argument(at + "the alphabet is empty");
  for (std::size_t w = 0; w < words.size(); ++w) {
    const labelled_word& word = words[w];
    if (word.labels.size() != word.symbols.size())
      throw std::invalid_argument(at + "word " + std::to_string(w) + ": " + std::to_string(word.labels.size()) +
                                  " labels for " + std::to_string(word.symbols.size()) + " symbols");
    for (std::size_t t = 0; t < word.symbols.size(); ++t) {
      if (word.symbols[t] >= alphabet)
        throw std::invalid_argument(at + "word " + std::to_string(w) + ", position " + std::to_string(t) +
                                    ": symbol " + std::to_string(word.symbols[t]) +
                                    " is not below the alphabet size " + std::to_string(alphabet));
      if (word.labels[t] < -1 || word.labels[t] > 1)
        throw std::invalid_argument(at + "word " + std::to_string(w) + ", position " + std::to_string(t) +
                                    ": label " + std::to_string(word.labels[t]) + " is not -1, 0 or 1");
    }
  }
}

inline void check_options(const identification_options& o, std::string_view who) {
  if (o.max_states == 0)
    throw std::invalid_argument("bem::learn::" + std::string(who) + ": max_states is 0; a machine has a state");
}

enum class tree_growth { grown, too_large, inconsistent };

/// Adds the words to t (checked by check_sample), refusing to grow past
/// max_nodes nodes.
inline tree_growth grow_tree(prefix_tree& t, std::span<const labelled_word> words, std::size_t max_nodes) {
  for (const labelled_word& w : words) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < w.symbols.size(); ++i) {
      const std::size_t slot = static_cast<std::size_t>(v) * t.alphabet + w.symbols[i];
      if (t.child[slot] == no_node) {
        if (t.size() >= max_nodes) return tree_growth::too_large;
        const std::uint32_t c = t.add_node();
        t.child[slot] = c;
      }
      v = t.child[slot];
      if (w.labels[i] < 0) continue;
      if (t.label[v] >= 0 && t.label[v] != w.labels[i]) return tree_growth::inconsistent;
      t.label[v] = w.labels[i];
    }
  }
  return tree_growth::grown;
}

/// The nodes of t whose subtree holds a known label, renumbered breadth first
/// (root 0, then by depth, siblings by symbol): the tree the encoding uses.
inline prefix_tree labelled_core(const prefix_tree& t) {
  const std::size_t n = t.size();
  // A child has a larger number than its parent, so one backward pass sees
  // every child before its parent.
  std::vector<char> useful(n, 0);
  for (std::size_t v = n; v-- > 0;) {
    bool u = t.label[v] >= 0;
    for (std::uint32_t a = 0; a < t.alphabet && !u; ++a) {
      const std::uint32_t c = t.child_of(static_cast<std::uint32_t>(v), a);
      u = c != no_node && useful[c];
    }
    useful[v] = u;
  }
  prefix_tree out(t.alphabet);
  out.label[0] = t.label[0];
  std::vector<std::uint32_t> old_of = {0};
  for (std::size_t h = 0; h < old_of.size(); ++h)
    for (std::uint32_t a = 0; a < t.alphabet; ++a) {
      const std::uint32_t c = t.child_of(old_of[h], a);
      if (c == no_node || !useful[c]) continue;
      const std::uint32_t nc = out.add_node();
      out.child[h * t.alphabet + a] = nc;
      out.label[nc] = t.label[c];
      old_of.push_back(c);
    }
  return out;
}

/// True when a suffix u found within `max_steps` node pairs (breadth first)
/// leads v and w to labelled nodes with different labels. Not finding one
/// within the bound answers false, which only weakens the symmetry breaking.
inline bool distinguished(const prefix_tree& t, std::uint32_t v, std::uint32_t w, std::size_t max_steps,
                          std::deque<std::pair<std::uint32_t, std::uint32_t>>& queue) {
  queue.clear();
  queue.emplace_back(v, w);
  for (std::size_t steps = 0; !queue.empty() && steps < max_steps; ++steps) {
    const auto [p, q] = queue.front();
    queue.pop_front();
    if (t.label[p] >= 0 && t.label[q] >= 0 && t.label[p] != t.label[q]) return true;
    for (std::uint32_t a = 0; a < t.alphabet; ++a) {
      const std::uint32_t cp = t.child_of(p, a), cq = t.child_of(q, a);
      if (cp != no_node && cq != no_node) queue.emplace_back(cp, cq);
    }
  }
  return false;
}

/// A greedy clique of pairwise distinguished nodes of t (breadth-first
/// numbered), starting with the root, among the first `candidates` nodes, of
/// at most `limit` members; the root first, then in the order chosen.
inline std::vector<std::uint32_t> distinguished_clique(const prefix_tree& t, std::size_t candidates, std::size_t limit,
                                                       std::size_t max_steps) {
  const std::size_t m = std::min(t.size(), candidates);
  std::vector<char> edge(m * m, 0);
  std::deque<std::pair<std::uint32_t, std::uint32_t>> queue;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i + 1; j < m; ++j)
      edge[i * m + j] = edge[j * m + i] =
          distinguished(t, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j), max_steps, queue);
  std::vector<std::uint32_t> clique = {0};
  std::vector<std::uint32_t> pool;  // distinguished from every member so far
  for (std::uint32_t j = 1; j < m; ++j)
    if (edge[j]) pool.push_back(j);
  while (!pool.empty() && clique.size() < limit) {
    std::size_t best = 0, best_partners = 0;
    for (std::size_t p = 0; p < pool.size(); ++p) {
      std::size_t partners = 0;
      for (std::uint32_t q : pool) partners += static_cast<std::size_t>(edge[pool[p] * m + q]);
      if (p == 0 || partners > best_partners) best = p, best_partners = partners;
    }
    const std::uint32_t chosen = pool[best];
    clique.push_back(chosen);
    std::erase_if(pool, [&](std::uint32_t q) { return !edge[chosen * m + q]; });
  }
  return clique;
}

/// Variable numbers (DIMACS) of the encoding at k colours.
struct colouring_vars {
  std::uint64_t nodes, k, alphabet;
  int x(std::uint64_t v, std::uint64_t i) const noexcept { return static_cast<int>(v * k + i + 1); }
  int y(std::uint64_t a, std::uint64_t i, std::uint64_t j) const noexcept {
    return static_cast<int>(nodes * k + (a * k + i) * k + j + 1);
  }
  int z(std::uint64_t i) const noexcept { return static_cast<int>(nodes * k + alphabet * k * k + i + 1); }
  std::uint64_t count() const noexcept { return nodes * k + alphabet * k * k + k; }
  /// An upper bound on the literals of colouring_cnf.
  std::uint64_t literals() const noexcept { return nodes * (6 * k * k + 3 * k + 1) + 2 * alphabet * k * k * k + k; }
  /// True when DIMACS numbers and prover::cnf's 32-bit offsets hold the encoding.
  bool fits() const noexcept {
    return count() <= static_cast<std::uint64_t>(std::numeric_limits<int>::max()) &&
           literals() <= std::numeric_limits<std::uint32_t>::max();
  }
};

/// Clause families (1)-(7) of the header comment; clique.size() <= k.
inline prover::cnf colouring_cnf(const prefix_tree& t, std::uint32_t k, std::span<const std::uint32_t> clique) {
  const colouring_vars var{t.size(), k, t.alphabet};
  prover::cnf f(static_cast<int>(var.count()));
  f.reserve(t.size() * (2 * std::size_t{k} * k + k + 1) + std::size_t{t.alphabet} * k * k * k, var.literals());
  std::vector<int> c;
  for (std::uint32_t v = 0; v < t.size(); ++v) {  // (1)
    c.clear();
    for (std::uint32_t i = 0; i < k; ++i) c.push_back(var.x(v, i));
    f.add_clause(c);
  }
  f.add_clause({var.x(0, 0)});  // (2)
  for (std::uint32_t i = 1; i < k; ++i) f.add_clause({-var.x(0, i)});
  for (std::uint32_t v = 0; v < t.size(); ++v)  // (3)
    if (t.label[v] >= 0)
      for (std::uint32_t i = 0; i < k; ++i) f.add_clause({-var.x(v, i), t.label[v] ? var.z(i) : -var.z(i)});
  for (std::uint32_t p = 0; p < t.size(); ++p)  // (4), (5)
    for (std::uint32_t a = 0; a < t.alphabet; ++a) {
      const std::uint32_t ch = t.child_of(p, a);
      if (ch == no_node) continue;
      for (std::uint32_t i = 0; i < k; ++i)
        for (std::uint32_t j = 0; j < k; ++j) {
          f.add_clause({-var.x(p, i), -var.x(ch, j), var.y(a, i, j)});
          f.add_clause({-var.x(p, i), -var.y(a, i, j), var.x(ch, j)});
        }
    }
  for (std::uint32_t a = 0; a < t.alphabet; ++a)  // (6)
    for (std::uint32_t i = 0; i < k; ++i) {
      c.clear();
      for (std::uint32_t j = 0; j < k; ++j) c.push_back(var.y(a, i, j));
      f.add_clause(c);
      for (std::uint32_t j = 0; j < k; ++j)
        for (std::uint32_t h = j + 1; h < k; ++h) f.add_clause({-var.y(a, i, j), -var.y(a, i, h)});
    }
  for (std::uint32_t m = 1; m < clique.size(); ++m) f.add_clause({var.x(clique[m], m)});  // (7)
  return f;
}

/// The same machine with its states numbered breadth first from the start
/// state (symbols in increasing order); unreachable states follow in their
/// old order.
inline moore_machine breadth_first_numbered(const moore_machine& m) {
  std::vector<std::uint32_t> number(m.states, no_node), old_of = {0};
  number[0] = 0;
  for (std::size_t h = 0; h < old_of.size(); ++h)
    for (std::uint32_t a = 0; a < m.alphabet; ++a) {
      const std::uint32_t s = m.step(old_of[h], a);
      if (number[s] != no_node) continue;
      number[s] = static_cast<std::uint32_t>(old_of.size());
      old_of.push_back(s);
    }
  for (std::uint32_t s = 0; s < m.states; ++s)
    if (number[s] == no_node) {
      number[s] = static_cast<std::uint32_t>(old_of.size());
      old_of.push_back(s);
    }
  moore_machine out;
  out.states = m.states;
  out.alphabet = m.alphabet;
  out.next.resize(m.next.size());
  out.output.resize(m.states);
  for (std::uint32_t s = 0; s < m.states; ++s) {
    out.output[s] = m.output[old_of[s]];
    for (std::uint32_t a = 0; a < m.alphabet; ++a) out.next[std::size_t{s} * m.alphabet + a] = number[m.step(old_of[s], a)];
  }
  return out;
}

/// Nodes compared when looking for a clique, and node pairs walked per
/// comparison: enough for the cliques of small machines, bounded work on
/// large trees.
inline constexpr std::size_t clique_candidates_per_state = 8;
inline constexpr std::size_t clique_extra_candidates = 64;
inline constexpr std::size_t clique_steps_per_pair = 2048;

/// Searches k = max(first_k, clique size), ..., max_states on the prefix tree
/// `raw` of `sample` and fills r (all but tree_nodes; sat_calls, conflicts
/// and clauses_per_k are added to).
template <class Backend>
void identify_in_tree(const prefix_tree& raw, std::span<const labelled_word> sample, const identification_options& o,
                      std::uint32_t first_k, identification_result& r) {
  const prefix_tree t = labelled_core(raw);
  std::vector<std::uint32_t> clique = {0};
  if (o.symmetry_breaking)
    clique = distinguished_clique(t, clique_candidates_per_state * o.max_states + clique_extra_candidates,
                                  std::size_t{o.max_states} + 1, clique_steps_per_pair);
  for (std::uint64_t k = std::max<std::uint64_t>({1, first_k, clique.size()}); k <= o.max_states; ++k) {
    const colouring_vars var{t.size(), k, t.alphabet};
    if (!var.fits()) {
      r.status = identification_status::too_large;
      return;
    }
    const prover::cnf f = colouring_cnf(t, static_cast<std::uint32_t>(k), clique);
    r.clauses_per_k.push_back(f.size());
    Backend b;
    if constexpr (requires { b.add(f); }) {
      b.add(f);  // a back end's bulk path (cdcl_solver sizes its watch lists once)
    } else {
      b.reserve_vars(f.num_vars());
      for (std::size_t i = 0; i < f.size(); ++i) b.add_clause(f[i]);
    }
    b.set_conflict_budget(o.conflict_budget);
    const prover::sat_result answer = b.solve(std::span<const int>{});
    ++r.sat_calls;
    if constexpr (requires(const Backend& cb) {
                    { cb.stats().conflicts } -> std::convertible_to<std::uint64_t>;
                  })
      r.conflicts += b.stats().conflicts;
    if (answer == prover::sat_result::unknown) {
      r.status = identification_status::unknown;
      return;
    }
    if (answer == prover::sat_result::unsat) continue;
    moore_machine m;
    m.states = static_cast<std::uint32_t>(k);
    m.alphabet = t.alphabet;
    m.next.assign(k * t.alphabet, 0);
    m.output.assign(k, 0);
    for (std::uint32_t i = 0; i < k; ++i) {
      m.output[i] = b.value(var.z(i)) ? 1 : 0;
      for (std::uint32_t a = 0; a < t.alphabet; ++a)
        for (std::uint32_t j = 0; j < k; ++j)
          if (b.value(var.y(a, i, j))) {
            m.next[std::size_t{i} * t.alphabet + a] = j;
            break;
          }
    }
    for (std::size_t w = 0; w < sample.size(); ++w)
      if (!m.consistent(sample[w]))
        throw std::logic_error(std::string("bem::learn::identify_moore: the ") + std::to_string(k) +
                               "-state machine decoded from back end " + Backend::backend_name +
                               "'s model disagrees with word " + std::to_string(w) +
                               " of the sample (an encoder or back-end bug)");
    r.machine = breadth_first_numbered(m);
    r.status = identification_status::found;
    return;
  }
  r.status = identification_status::no_machine;
}

/// How learn_moore grows its sample: the shortest words first, then the
/// shortest counterexamples of each round.
inline constexpr std::size_t learn_initial_words = 4;
inline constexpr std::size_t learn_counterexamples_per_round = 8;

}  // namespace detail

/// The smallest Moore machine consistent with every known label of `sample`
/// (exact: found at k means no machine with k-1 states is consistent).
/// A malformed sample (a symbol outside the alphabet, a label other than -1,
/// 0, 1, labels and symbols of different lengths) or max_states = 0:
/// std::invalid_argument naming the word and position.
template <class Backend = prover::cdcl_solver>
  requires(prover::assert_sat_backend<Backend>())
identification_result identify_moore(std::span<const labelled_word> sample, std::uint32_t alphabet,
                                     const identification_options& options = {}) {
  detail::check_sample(sample, alphabet, "identify_moore");
  detail::check_options(options, "identify_moore");
  identification_result r;
  detail::prefix_tree tree(alphabet);
  const detail::tree_growth g = detail::grow_tree(tree, sample, options.max_tree_nodes);
  r.tree_nodes = tree.size();
  if (g == detail::tree_growth::too_large) r.status = identification_status::too_large;
  else if (g == detail::tree_growth::inconsistent) r.status = identification_status::inconsistent_sample;
  else detail::identify_in_tree<Backend>(tree, sample, options, 1, r);
  return r;
}

/// Counterexample-guided over a large training set: starts from a few words
/// (the shortest first), identifies, runs the machine over all of `training`,
/// adds the words (cut after their first wrong label) it gets wrong, and
/// repeats until it is consistent with all of `training` (found), no machine
/// of max_states fits the growing sample (no_machine), or a limit is hit.
/// `rounds` reports how many identifications ran.
/// The sample starts with the 4 shortest words (ties: the earlier first) and
/// each round adds the 8 shortest distinct counterexamples. Each round's
/// search starts at the previous round's state count: the sample only
/// grows, so no smaller machine can fit it. Every round adds a labelled
/// prefix the tree lacked, so the loop ends. tree_nodes is the final
/// sample's; sat_calls and conflicts are summed over the rounds.
template <class Backend = prover::cdcl_solver>
  requires(prover::assert_sat_backend<Backend>())
identification_result learn_moore(std::span<const labelled_word> training, std::uint32_t alphabet,
                                  const identification_options& options = {}, std::size_t* rounds = nullptr) {
  detail::check_sample(training, alphabet, "learn_moore");
  detail::check_options(options, "learn_moore");
  std::vector<std::size_t> by_length(training.size());
  for (std::size_t i = 0; i < by_length.size(); ++i) by_length[i] = i;
  std::stable_sort(by_length.begin(), by_length.end(),
                   [&](std::size_t a, std::size_t b) { return training[a].symbols.size() < training[b].symbols.size(); });

  identification_result r;
  detail::prefix_tree tree(alphabet);
  std::vector<labelled_word> sample;
  std::size_t ran = 0;
  // Adds words to the sample and the tree; false (with r.status set) when
  // the tree refuses them.
  const auto add = [&](std::vector<labelled_word> words) {
    const detail::tree_growth g = detail::grow_tree(tree, words, options.max_tree_nodes);
    r.tree_nodes = tree.size();
    if (g == detail::tree_growth::too_large) r.status = identification_status::too_large;
    if (g == detail::tree_growth::inconsistent) r.status = identification_status::inconsistent_sample;
    for (auto& w : words) sample.push_back(std::move(w));
    return g == detail::tree_growth::grown;
  };

  std::vector<labelled_word> first;
  for (std::size_t i = 0; i < std::min(by_length.size(), detail::learn_initial_words); ++i)
    first.push_back(training[by_length[i]]);
  bool go = add(std::move(first));
  std::uint32_t first_k = 1;
  while (go) {
    detail::identify_in_tree<Backend>(tree, sample, options, first_k, r);
    ++ran;
    if (r.status != identification_status::found) break;
    first_k = r.machine.states;
    // The wrong words cut after their first wrong label, shortest first.
    std::vector<std::pair<std::size_t, std::size_t>> wrong;  // (cut length, word)
    for (std::size_t i : by_length) {
      const labelled_word& w = training[i];
      const std::vector<std::uint8_t> out = r.machine.run(w.symbols);
      for (std::size_t t = 0; t < out.size(); ++t)
        if (w.labels[t] >= 0 && out[t] != static_cast<std::uint8_t>(w.labels[t])) {
          wrong.emplace_back(t + 1, i);
          break;
        }
    }
    if (wrong.empty()) break;  // consistent with all of training: found
    std::stable_sort(wrong.begin(), wrong.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<labelled_word> counterexamples;
    for (const auto& [length, i] : wrong) {
      if (counterexamples.size() == detail::learn_counterexamples_per_round) break;
      const auto& s = training[i].symbols;
      const bool seen = std::any_of(counterexamples.begin(), counterexamples.end(), [&](const labelled_word& c) {
        return c.symbols.size() == length && std::equal(c.symbols.begin(), c.symbols.end(), s.begin());
      });
      if (seen) continue;
      counterexamples.push_back({{s.begin(), s.begin() + static_cast<std::ptrdiff_t>(length)},
                                 {training[i].labels.begin(),
                                  training[i].labels.begin() + static_cast<std::ptrdiff_t>(length)}});
    }
    go = add(std::move(counterexamples));
  }
  if (r.status != identification_status::found) r.machine = moore_machine{};
  if (rounds) *rounds = ran;
  return r;
}

}  // namespace learn
BEM_NAMESPACE_END
