// CEGIS: counterexample-guided synthesis of small circuits (gate lists).
//
// cegis<B>(spec, h) looks for a bem::gate_list of at most h.max_gates gates,
// using the operations h allows, that computes the specification `spec` on
// its whole domain D. It alternates two queries:
//   synthesise  one SAT query (back end B) over a fixed-size gate template:
//               "some choice of operations and operands agrees with every
//               example collected so far";
//   verify      spec.verify(candidate): the spec's own check over all of D
//               (evaluation of a truth table; a SAT miter against a
//               reference circuit), which returns a counterexample input
//               with its expected outputs, or nothing when the candidate is
//               correct.
// Each counterexample becomes an example and the loop repeats. A candidate
// always agrees with the examples so far and a counterexample is an input
// where it disagrees, so every round adds a new input of D: the loop ends
// after at most |D| + 1 rounds per size.
//
// The gate template of size g (SAT encoding). Nodes 0..n-1 are the inputs,
// n + i is gate i. Per gate: one selector per allowed operation kind
// (exactly one true), and per operand slot one selector per earlier node
// (exactly one true); a kind "any ternary table" adds 8 table variables.
// Per output: one selector per node. Per example x -> y: a literal per gate
// value and per operand value, with clauses
//   sel(i, slot, p)  =>  operand(i, slot) == value(p)
//   kind(i, k) and operands = (a, b, c)  =>  value(n+i) == T_k(a, b, c)
//   out_sel(k, p)    =>  value(p) == y_k.
// Symmetry breaking that keeps every function reachable: for an operation
// symmetric in two operands (AND, OR, XOR, symmetric ternary tables, any
// table) those operand nodes are ordered (a <= b); unused operand slots
// point at node 0. With h.minimise (the default) sizes g = h.min_gates,
// h.min_gates + 1, ... are tried in increasing order, and every gate of a
// size-g template must be used (by a later gate or an output): a circuit
// with an unused gate has a smaller one, which an earlier size found.
// Without minimise one template of size max_gates is solved, unused gates
// allowed (they are padding and are removed from the answer).
//
// Answers (cegis_result):
//   found       `circuit` computes spec on all of D (spec.verify said so);
//               under minimise it has the fewest gates of any circuit over
//               the allowed operations;
//   no_circuit  the synthesis query was UNSAT at every size tried: no
//               circuit of at most max_gates gates (with minimise and
//               min_gates > 0: of min_gates..max_gates gates, all of them
//               used) agrees even with `examples` (a subset of D), so none
//               computes spec;
//   unknown     the conflict budget or the iteration limit ran out.
// Iterations (synthesis queries), verifications and their times are
// reported, per size as well.
//
// ## synthesis_spec
// Minimal definition — a type `S` with
//   `using synthesis_spec_concept = bem::prover::synthesis_spec_t;`
//        the explicit opt-in (docs/architecture.md);
//   `s.inputs()`, `s.outputs()`              n >= 1 and m >= 1 (std::size_t);
//   `s.verify(c)` for a `const bem::gate_list& c` with n inputs and m
//        outputs, returning std::optional<bem::prover::io_example>.
// Laws:
//   1. verify(c) is empty exactly when c's outputs equal the specification's
//      on every input of the domain D.
//   2. A returned example's input lies in D, its output is the
//      specification's output there, and c's output differs from it.
//   3. Determinism: the same candidate gets the same answer.
// (cegis checks law 2 on every counterexample and throws std::logic_error
// when it fails.)
// Models in the library: truth_table_spec (a table over n <= 16 inputs,
// optionally restricted to a care set), circuit_spec<B> (a reference gate
// list on D = all inputs, inputs satisfying a CNF, or an explicit list;
// checked by a SAT miter, or by evaluation for a list).
//
// Example (compiled by tests/prover/cegis.cpp):
//
//     struct parity_spec {                       // odd parity of n inputs
//       using synthesis_spec_concept = bem::prover::synthesis_spec_t;
//       std::size_t n = 3;
//       std::size_t inputs() const { return n; }
//       std::size_t outputs() const { return 1; }
//       std::optional<bem::prover::io_example> verify(const bem::gate_list& c) const {
//         for (std::uint64_t x = 0; x < (std::uint64_t{1} << n); ++x) {
//           bem::prover::io_example e;
//           for (std::size_t j = 0; j < n; ++j) e.input.push_back((x >> j) & 1u);
//           e.output = {std::popcount(x) % 2 == 1};
//           if (bem::prover::evaluate(c, e.input) != e.output) return e;
//         }
//         return std::nullopt;
//       }
//     };
//     static_assert(bem::prover::synthesis_spec<parity_spec>);
//     bem::prover::hypothesis_class h;            // AND, OR, XOR, NOT, ANDN; minimise
//     h.max_gates = 3;
//     auto r = bem::prover::cegis(parity_spec{}, h);
//     // r.status == found, r.circuit->gate_count() == 2
#pragma once

#include <bem/circuits/gate_list.hpp>
#include <bem/prover/bitblast.hpp>
#include <bem/prover/cdcl.hpp>
#include <bem/prover/cnf.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {

/// One input vector of a specification with its outputs (bit j of the input
/// is input j; bit k of the output is output k).
struct io_example {
  std::vector<bool> input;
  std::vector<bool> output;
  friend bool operator==(const io_example&, const io_example&) = default;
};

/// The outputs of gate list c on one input vector.
inline std::vector<bool> evaluate(const gate_list& c, const std::vector<bool>& input) {
  if (input.size() != c.inputs())
    throw std::invalid_argument("bem::prover::evaluate: " + std::to_string(input.size()) + " input bits for a circuit of " +
                                std::to_string(c.inputs()) + " inputs");
  std::vector<std::uint64_t> in(c.inputs()), out(c.outputs()), scratch(c.scratch_size());
  for (std::size_t j = 0; j < in.size(); ++j) in[j] = input[j] ? ~std::uint64_t{0} : 0;
  c.evaluate_reference<std::uint64_t>(in, out, scratch);
  std::vector<bool> r(out.size());
  for (std::size_t k = 0; k < out.size(); ++k) r[k] = out[k] & 1u;
  return r;
}

/// The opt-in tag of synthesis_spec.
struct synthesis_spec_t {};

namespace detail {
template <class S>
concept synthesis_spec_opted_in = requires { typename S::synthesis_spec_concept; } &&
                                  std::derived_from<typename S::synthesis_spec_concept, synthesis_spec_t>;
template <class S>
concept has_synthesis_spec_members = requires(const S& s, const gate_list& c) {
  { s.inputs() } -> std::convertible_to<std::size_t>;
  { s.outputs() } -> std::convertible_to<std::size_t>;
  { s.verify(c) } -> std::same_as<std::optional<io_example>>;
};
}  // namespace detail

/// A specification CEGIS can synthesise against (see the header comment).
template <class S>
concept synthesis_spec = detail::synthesis_spec_opted_in<S> && detail::has_synthesis_spec_members<S>;

/// Where a spec is used: readable errors instead of a concept dump.
template <class S>
consteval bool assert_synthesis_spec() {
  static_assert(
      detail::synthesis_spec_opted_in<S>,
      "bem::prover::synthesis_spec: opt in with `using synthesis_spec_concept = bem::prover::synthesis_spec_t;`");
  static_assert(detail::has_synthesis_spec_members<S>,
                "bem::prover::synthesis_spec: the specification needs inputs(), outputs() and "
                "verify(const bem::gate_list&) -> std::optional<bem::prover::io_example>");
  return true;
}

// ---- encoding gate lists ----------------------------------------------------------

/// Tseitin encoding of a gate list: the literals of its outputs given the
/// literals of its inputs (structurally hashed, constants folded).
inline std::vector<int> encode_gate_list(bit_blaster& bb, const gate_list& c, std::span<const int> inputs) {
  if (inputs.size() != c.inputs())
    throw std::invalid_argument("bem::prover::encode_gate_list: " + std::to_string(inputs.size()) +
                                " input literals for a circuit of " + std::to_string(c.inputs()) + " inputs");
  std::vector<int> v(inputs.begin(), inputs.end());
  v.reserve(c.scratch_size());
  for (const gate& g : c.gates()) {
    const int a = v[g.a];
    const int b = gate_arity(g.op) > 1 ? v[g.b] : 0;
    const int cc = gate_arity(g.op) > 2 ? v[g.c] : 0;
    int r = 0;
    switch (g.op) {
      case gate_op::and_: r = bb.and_(a, b); break;
      case gate_op::or_: r = bb.or_(a, b); break;
      case gate_op::xor_: r = bb.xor_(a, b); break;
      case gate_op::not_: r = -a; break;
      case gate_op::andn: r = bb.and_(a, -b); break;
      case gate_op::ternary: {
        // Shannon expansion on a, then b, then c over the table's bits.
        auto bit = [&](unsigned idx) { return bit_blaster::constant((g.tt >> idx) & 1u); };
        auto over_c = [&](unsigned ab) { return bb.ite(cc, bit(ab << 1 | 1u), bit(ab << 1)); };
        auto over_b = [&](unsigned a_) { return bb.ite(b, over_c(a_ << 1 | 1u), over_c(a_ << 1)); };
        r = bb.ite(a, over_b(1), over_b(0));
        break;
      }
    }
    v.push_back(r);
  }
  std::vector<int> out;
  out.reserve(c.outputs());
  for (auto o : c.output_nodes()) out.push_back(v[o]);
  return out;
}

/// The same function without the gates no output depends on (gates keep
/// their order; nodes are renumbered).
inline gate_list remove_dead_gates(const gate_list& c) {
  const std::size_t n = c.inputs();
  const auto& gs = c.gates();
  std::vector<bool> live(n + gs.size(), false);
  for (auto o : c.output_nodes()) live[o] = true;
  for (std::size_t i = gs.size(); i-- > 0;) {
    if (!live[n + i]) continue;
    const int k = gate_arity(gs[i].op);
    live[gs[i].a] = true;
    if (k > 1) live[gs[i].b] = true;
    if (k > 2) live[gs[i].c] = true;
  }
  std::vector<std::uint32_t> map(n + gs.size());
  for (std::size_t j = 0; j < n; ++j) map[j] = static_cast<std::uint32_t>(j);
  std::vector<gate> kept;
  for (std::size_t i = 0; i < gs.size(); ++i) {
    if (!live[n + i]) continue;
    gate g = gs[i];
    const int k = gate_arity(g.op);
    g.a = map[g.a];
    g.b = k > 1 ? map[g.b] : 0;
    g.c = k > 2 ? map[g.c] : 0;
    map[n + i] = static_cast<std::uint32_t>(n + kept.size());
    kept.push_back(g);
  }
  std::vector<std::uint32_t> outs;
  for (auto o : c.output_nodes()) outs.push_back(map[o]);
  return gate_list(n, std::move(kept), std::move(outs));
}

// ---- specifications ------------------------------------------------------------------

/// A truth table over n <= 16 inputs and m <= 64 outputs: row x (input bit
/// j = bit j of x) holds the outputs (bit k = output k). The domain D is
/// every row, or a care set given with restrict_to. verify evaluates the
/// candidate bit-sliced on all rows (64 per word) and returns the first
/// mismatching row of D.
class truth_table_spec {
 public:
  using synthesis_spec_concept = synthesis_spec_t;

  truth_table_spec(std::size_t n, std::size_t m, std::vector<std::uint64_t> rows) : n_(n), m_(m), rows_(std::move(rows)) {
    if (n < 1 || n > 16) throw std::invalid_argument("bem::prover::truth_table_spec: n = " + std::to_string(n) + " is outside 1..16");
    if (m < 1 || m > 64) throw std::invalid_argument("bem::prover::truth_table_spec: m = " + std::to_string(m) + " is outside 1..64");
    if (rows_.size() != (std::size_t{1} << n))
      throw std::invalid_argument("bem::prover::truth_table_spec: " + std::to_string(rows_.size()) + " rows for " +
                                  std::to_string(n) + " inputs (need 2^n)");
    const std::uint64_t mask = m == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << m) - 1;
    for (auto& r : rows_) r &= mask;
    care_.assign(rows_.size(), true);
  }
  /// The table of f(x) -> outputs for every row x.
  template <class F>
  static truth_table_spec from_function(std::size_t n, std::size_t m, F&& f) {
    std::vector<std::uint64_t> rows(n <= 16 ? std::size_t{1} << n : 0);
    for (std::size_t x = 0; x < rows.size(); ++x) rows[x] = static_cast<std::uint64_t>(f(static_cast<std::uint64_t>(x)));
    return truth_table_spec(n, m, std::move(rows));
  }
  /// Restricts D to the given rows.
  void restrict_to(std::span<const std::uint64_t> domain) {
    care_.assign(rows_.size(), false);
    for (auto x : domain) {
      if (x >= rows_.size()) throw std::invalid_argument("bem::prover::truth_table_spec: row " + std::to_string(x) + " does not exist");
      care_[x] = true;
    }
  }

  std::size_t inputs() const noexcept { return n_; }
  std::size_t outputs() const noexcept { return m_; }
  std::uint64_t row(std::uint64_t x) const { return rows_.at(x); }
  bool in_domain(std::uint64_t x) const { return care_.at(x); }

  std::optional<io_example> verify(const gate_list& c) const {
    check_shape(c);
    std::vector<std::uint64_t> in(n_), out(m_), scratch(c.scratch_size());
    for (std::uint64_t base = 0; base < rows_.size(); base += 64) {
      const std::size_t count = std::min<std::size_t>(64, rows_.size() - base);
      for (std::size_t j = 0; j < n_; ++j) {
        std::uint64_t w = 0;
        for (std::size_t r = 0; r < count; ++r) w |= (((base + r) >> j) & 1u) << r;
        in[j] = w;
      }
      c.evaluate<std::uint64_t>(in, out, scratch);
      for (std::size_t r = 0; r < count; ++r) {
        const std::uint64_t x = base + r;
        if (!care_[x]) continue;
        std::uint64_t got = 0;
        for (std::size_t k = 0; k < m_; ++k) got |= ((out[k] >> r) & 1u) << k;
        if (got != rows_[x]) return example(x);
      }
    }
    return std::nullopt;
  }

  /// Row x as an example.
  io_example example(std::uint64_t x) const {
    io_example e;
    for (std::size_t j = 0; j < n_; ++j) e.input.push_back((x >> j) & 1u);
    for (std::size_t k = 0; k < m_; ++k) e.output.push_back((rows_.at(x) >> k) & 1u);
    return e;
  }

 private:
  void check_shape(const gate_list& c) const {
    if (c.inputs() != n_ || c.outputs() != m_)
      throw std::invalid_argument("bem::prover::truth_table_spec: a candidate with " + std::to_string(c.inputs()) + " inputs and " +
                                  std::to_string(c.outputs()) + " outputs");
  }
  std::size_t n_, m_;
  std::vector<std::uint64_t> rows_;
  std::vector<bool> care_;
};

/// A reference circuit on a domain D: all 2^n inputs, the inputs satisfying
/// a CNF over variables 1..n (variable j+1 is input j), or an explicit list
/// of input vectors. verify decides equivalence on D with a SAT miter
/// (back end B): candidate and reference share the input literals, the
/// domain clauses hold, and some output pair differs; SAT gives the
/// counterexample, UNSAT proves equivalence on D. For an explicit list it
/// evaluates both circuits instead. `miter_queries()` counts SAT calls.
template <class B = cdcl_solver>
  requires(assert_sat_backend<B>())
class circuit_spec {
 public:
  using synthesis_spec_concept = synthesis_spec_t;

  /// D = every input vector.
  explicit circuit_spec(gate_list reference) : ref_(std::move(reference)) { check_ref(); }
  /// D = the input vectors that satisfy `domain` (variable j+1 = input j).
  circuit_spec(gate_list reference, cnf domain) : ref_(std::move(reference)), domain_(std::move(domain)) {
    check_ref();
    if (domain_->num_vars() > static_cast<int>(ref_.inputs()))
      throw std::invalid_argument("bem::prover::circuit_spec: the domain CNF uses variable " +
                                  std::to_string(domain_->num_vars()) + " of a circuit with " +
                                  std::to_string(ref_.inputs()) + " inputs");
  }
  /// D = the given input vectors.
  circuit_spec(gate_list reference, std::vector<std::vector<bool>> domain) : ref_(std::move(reference)), list_(std::move(domain)) {
    check_ref();
    for (const auto& x : *list_)
      if (x.size() != ref_.inputs()) throw std::invalid_argument("bem::prover::circuit_spec: a domain vector of the wrong length");
  }

  std::size_t inputs() const noexcept { return ref_.inputs(); }
  std::size_t outputs() const noexcept { return ref_.outputs(); }
  const gate_list& reference() const noexcept { return ref_; }
  std::size_t miter_queries() const noexcept { return queries_; }

  std::optional<io_example> verify(const gate_list& c) const {
    if (c.inputs() != ref_.inputs() || c.outputs() != ref_.outputs())
      throw std::invalid_argument("bem::prover::circuit_spec: the candidate's shape differs from the reference's");
    if (list_) {
      for (const auto& x : *list_) {
        io_example e{x, evaluate(ref_, x)};
        if (evaluate(c, x) != e.output) return e;
      }
      return std::nullopt;
    }
    bit_blaster bb;
    const bitvec in = bb.fresh_bv(static_cast<int>(ref_.inputs()));
    if (domain_) {
      std::vector<int> cl;
      for (std::size_t i = 0; i < domain_->size(); ++i) {
        cl.clear();
        for (int l : (*domain_)[i]) cl.push_back(l > 0 ? in[l - 1] : -in[-l - 1]);
        bb.add_clause(cl);
      }
    }
    const auto yc = encode_gate_list(bb, c, in.bits);
    const auto yr = encode_gate_list(bb, ref_, in.bits);
    std::vector<int> diff;
    for (std::size_t k = 0; k < yc.size(); ++k) diff.push_back(bb.xor_(yc[k], yr[k]));
    bb.assert_true(bb.or_all(diff));
    ++queries_;
    const check_outcome r = sat_check<B>(bb.formula());
    if (r.result == sat_result::unsat) return std::nullopt;
    if (r.result != sat_result::sat) throw std::logic_error("bem::prover::circuit_spec: the miter query had no answer");
    io_example e;
    for (int j = 0; j < in.width(); ++j) e.input.push_back(bit_blaster::value(r.model, in[j]));
    e.output = evaluate(ref_, e.input);
    if (evaluate(c, e.input) == e.output)
      throw std::logic_error("bem::prover::circuit_spec: the miter's counterexample does not replay");
    return e;
  }

 private:
  void check_ref() const {
    if (ref_.inputs() < 1 || ref_.outputs() < 1)
      throw std::invalid_argument("bem::prover::circuit_spec: the reference needs at least one input and one output");
  }
  gate_list ref_;
  std::optional<cnf> domain_;
  std::optional<std::vector<std::vector<bool>>> list_;
  mutable std::size_t queries_ = 0;
};

// ---- the hypothesis class and the answer ---------------------------------------------------

/// Which circuits CEGIS searches.
struct hypothesis_class {
  std::size_t max_gates = 4;  ///< G
  /// The default operations: every binary one and NOT.
  static constexpr gate_op binary_basis[] = {gate_op::and_, gate_op::or_, gate_op::xor_, gate_op::not_, gate_op::andn};
  /// Allowed operations; gate_op::ternary allows the tables below.
  std::vector<gate_op> ops{std::begin(binary_basis), std::end(binary_basis)};
  /// With gate_op::ternary in ops: the allowed tables (empty: any table).
  std::vector<std::uint8_t> ternary_tables;
  /// Search sizes min_gates..max_gates in increasing order (a minimal answer).
  bool minimise = true;
  std::size_t min_gates = 0;
};

enum class cegis_status { found, no_circuit, unknown };

constexpr std::string_view to_string(cegis_status s) noexcept {
  switch (s) {
    case cegis_status::found: return "found";
    case cegis_status::no_circuit: return "no circuit";
    case cegis_status::unknown: return "unknown";
  }
  return "?";
}

struct cegis_options {
  std::int64_t conflict_budget = -1;       ///< per synthesis query; < 0: none
  std::size_t max_iterations = 1u << 20;   ///< synthesis queries in all
  std::vector<io_example> initial_examples;  ///< known rows of the spec to start from
};

/// One template size's search.
struct cegis_size_report {
  std::size_t gates = 0;
  cegis_status status = cegis_status::unknown;
  std::size_t iterations = 0;  ///< synthesis queries at this size
  double seconds = 0;
};

/// CEGIS's answer.
struct cegis_result {
  cegis_status status = cegis_status::unknown;
  std::optional<gate_list> circuit;      ///< found: verified on all of D (unused gates removed)
  std::vector<io_example> examples;      ///< counterexamples collected (no_circuit: already unrealisable)
  std::size_t iterations = 0;            ///< synthesis queries
  std::size_t verifications = 0;         ///< spec.verify calls
  double synth_seconds = 0, verify_seconds = 0, seconds = 0;
  std::vector<cegis_size_report> sizes;  ///< per template size, in the order tried
  std::string message;
};

namespace detail {

/// The size-g gate template in a SAT back end (see the header comment).
template <class B>
class gate_template {
 public:
  struct kind {
    gate_op op;
    std::uint8_t tt;  // over (a, b, c), bit a<<2|b<<1|c
    bool any;         // any ternary table (tt from table variables)
    int arity;
    bool sym_ab, sym_bc;
  };

  gate_template(std::size_t n, std::size_t m, std::size_t g, const hypothesis_class& h, B& backend)
      : n_(n), m_(m), g_(g), s_(backend) {
    for (gate_op op : h.ops) {
      if (op == gate_op::ternary) {
        if (h.ternary_tables.empty())
          kinds_.push_back({op, 0, true, 3, true, true});
        else
          for (auto tt : h.ternary_tables) kinds_.push_back(make_kind(op, tt));
      } else {
        kinds_.push_back(make_kind(op, table_of(op)));
      }
    }
    if (kinds_.empty()) throw std::invalid_argument("bem::prover::cegis: the hypothesis class allows no operation");
    slots_ = 1;
    for (const auto& k : kinds_) slots_ = std::max(slots_, k.arity);
    build(h.minimise);
  }

  const std::vector<kind>& kinds() const noexcept { return kinds_; }

  /// Adds the clauses of one example.
  void add_example(const io_example& e) {
    std::vector<int> v(n_ + g_);
    for (std::size_t j = 0; j < n_; ++j) v[j] = bit_blaster::constant(e.input[j]);
    for (std::size_t i = 0; i < g_; ++i) {
      const std::size_t avail = n_ + i;
      int opnd[3] = {0, 0, 0};
      for (int j = 0; j < slots_; ++j) {
        const int o = bb_.fresh();
        opnd[j] = o;
        for (std::size_t p = 0; p < avail; ++p) {
          const int s = sel_[i][static_cast<std::size_t>(j)][p];
          clause({-s, -v[p], o});
          clause({-s, v[p], -o});
        }
      }
      const int out = bb_.fresh();
      v[n_ + i] = out;
      for (std::size_t k = 0; k < kinds_.size(); ++k) {
        const kind& kd = kinds_[k];
        const int sk = kind_[i][k];
        const unsigned combos = 1u << kd.arity;
        for (unsigned x = 0; x < combos; ++x) {
          // operand values of this combination: slot 0 is the top bit.
          std::vector<int> cl{-sk};
          unsigned idx = 0;
          for (int j = 0; j < kd.arity; ++j) {
            const bool val = (x >> (kd.arity - 1 - j)) & 1u;
            cl.push_back(val ? -opnd[j] : opnd[j]);
            idx |= static_cast<unsigned>(val) << (2 - j);
          }
          if (kd.any) {
            const int t = table_[i][idx];
            auto c1 = cl;
            c1.push_back(-t);
            c1.push_back(out);
            clause(c1);
            cl.push_back(t);
            cl.push_back(-out);
            clause(cl);
          } else {
            // binary / unary kinds: the table does not depend on the unused
            // operands, so any value of them gives the same bit.
            cl.push_back(((kd.tt >> idx) & 1u) ? out : -out);
            clause(cl);
          }
        }
      }
    }
    for (std::size_t k = 0; k < m_; ++k)
      for (std::size_t p = 0; p < n_ + g_; ++p) clause({-out_[k][p], e.output[k] ? v[p] : -v[p]});
    flush();
  }

  /// The candidate of the back end's current model.
  gate_list decode() const {
    std::vector<gate> gates;
    for (std::size_t i = 0; i < g_; ++i) {
      std::size_t k = 0;
      while (k < kinds_.size() && !s_.value(kind_[i][k])) ++k;
      if (k == kinds_.size()) throw std::logic_error("bem::prover::cegis: a model selects no operation");
      const kind& kd = kinds_[k];
      gate gt;
      gt.op = kd.op;
      if (kd.op == gate_op::ternary) {
        gt.tt = kd.tt;
        if (kd.any) {
          gt.tt = 0;
          for (unsigned b = 0; b < 8; ++b)
            if (s_.value(table_[i][b])) gt.tt = static_cast<std::uint8_t>(gt.tt | (1u << b));
        }
      }
      std::uint32_t ops[3] = {0, 0, 0};
      for (int j = 0; j < kd.arity; ++j) ops[j] = pick(sel_[i][static_cast<std::size_t>(j)]);
      gt.a = ops[0];
      gt.b = ops[1];
      gt.c = ops[2];
      gates.push_back(gt);
    }
    std::vector<std::uint32_t> outs;
    for (std::size_t k = 0; k < m_; ++k) outs.push_back(pick(out_[k]));
    return gate_list(n_, std::move(gates), std::move(outs));
  }

 private:
  static std::uint8_t table_of(gate_op op) noexcept {
    switch (op) {
      case gate_op::and_: return 0xC0;
      case gate_op::or_: return 0xFC;
      case gate_op::xor_: return 0x3C;
      case gate_op::not_: return 0x0F;
      case gate_op::andn: return 0x30;
      case gate_op::ternary: return 0;
    }
    return 0;
  }
  static bool bit(std::uint8_t tt, unsigned a, unsigned b, unsigned c) noexcept { return (tt >> (a << 2 | b << 1 | c)) & 1u; }
  static kind make_kind(gate_op op, std::uint8_t tt) {
    const int arity = gate_arity(op);
    bool ab = arity >= 2, bc = arity >= 3;
    for (unsigned a = 0; a < 2; ++a)
      for (unsigned b = 0; b < 2; ++b)
        for (unsigned c = 0; c < 2; ++c) {
          if (bit(tt, a, b, c) != bit(tt, b, a, c)) ab = false;
          if (bit(tt, a, b, c) != bit(tt, a, c, b)) bc = false;
        }
    return {op, tt, false, arity, ab, bc};
  }

  void clause(std::initializer_list<int> c) { clause(std::vector<int>(c)); }
  void clause(const std::vector<int>& c) {
    std::vector<int> out;
    for (int l : c) {
      if (l == bit_blaster::true_lit()) return;
      if (l != bit_blaster::false_lit()) out.push_back(l);
    }
    if (out.empty()) {
      bb_.assert_true(bit_blaster::false_lit());
      return;
    }
    bb_.add_clause(out);
  }
  void exactly_one(const std::vector<int>& xs) {
    clause(xs);
    for (std::size_t i = 0; i < xs.size(); ++i)
      for (std::size_t j = i + 1; j < xs.size(); ++j) clause({-xs[i], -xs[j]});
  }
  std::vector<int> fresh_n(std::size_t k) {
    std::vector<int> r(k);
    for (auto& x : r) x = bb_.fresh();
    return r;
  }

  void build(bool require_use) {
    kind_.resize(g_);
    sel_.resize(g_);
    table_.resize(g_);
    for (std::size_t i = 0; i < g_; ++i) {
      const std::size_t avail = n_ + i;
      kind_[i] = fresh_n(kinds_.size());
      exactly_one(kind_[i]);
      sel_[i].resize(static_cast<std::size_t>(slots_));
      for (auto& s : sel_[i]) {
        s = fresh_n(avail);
        exactly_one(s);
      }
      bool any = false;
      for (const auto& k : kinds_) any = any || k.any;
      if (any) table_[i] = fresh_n(8);
      for (std::size_t k = 0; k < kinds_.size(); ++k) {
        const kind& kd = kinds_[k];
        const int sk = kind_[i][k];
        for (int j = kd.arity; j < slots_; ++j) clause({-sk, sel_[i][static_cast<std::size_t>(j)][0]});
        auto order = [&](std::size_t s1, std::size_t s2) {  // operand s1 <= operand s2
          for (std::size_t p = 0; p < avail; ++p)
            for (std::size_t q = 0; q < p; ++q) clause({-sk, -sel_[i][s1][p], -sel_[i][s2][q]});
        };
        if (kd.sym_ab) order(0, 1);
        if (kd.sym_bc) order(1, 2);
      }
    }
    out_.resize(m_);
    for (auto& o : out_) {
      o = fresh_n(n_ + g_);
      exactly_one(o);
    }
    if (require_use) {
      for (std::size_t i = 0; i < g_; ++i) {
        std::vector<int> uses;
        for (const auto& o : out_) uses.push_back(o[n_ + i]);
        for (std::size_t l = i + 1; l < g_; ++l)
          for (const auto& s : sel_[l]) uses.push_back(s[n_ + i]);
        clause(uses);
      }
    }
    flush();
  }

  std::uint32_t pick(const std::vector<int>& sel) const {
    for (std::size_t p = 0; p < sel.size(); ++p)
      if (s_.value(sel[p])) return static_cast<std::uint32_t>(p);
    throw std::logic_error("bem::prover::cegis: a model selects no node");
  }
  void flush() { flushed_ = bb_.flush(s_, flushed_); }

  std::size_t n_, m_, g_;
  B& s_;
  bit_blaster bb_;
  std::size_t flushed_ = 0;
  std::vector<kind> kinds_;
  int slots_ = 1;
  std::vector<std::vector<int>> kind_;               // [gate][kind]
  std::vector<std::vector<std::vector<int>>> sel_;   // [gate][slot][node]
  std::vector<std::vector<int>> table_;              // [gate][8] (any-table kinds)
  std::vector<std::vector<int>> out_;                // [output][node]
};

}  // namespace detail

/// CEGIS(spec, h) with SAT back end B (see the header comment).
template <class B = cdcl_solver, class Spec>
  requires(assert_sat_backend<B>() && assert_synthesis_spec<Spec>())
cegis_result cegis(const Spec& spec, const hypothesis_class& h, const cegis_options& opt = {}) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const std::size_t n = spec.inputs(), m = spec.outputs();
  if (n < 1 || m < 1) throw std::invalid_argument("bem::prover::cegis: the specification needs inputs and outputs");
  if (h.min_gates > h.max_gates) throw std::invalid_argument("bem::prover::cegis: min_gates > max_gates");
  cegis_result res;
  for (const auto& e : opt.initial_examples) {
    if (e.input.size() != n || e.output.size() != m)
      throw std::invalid_argument("bem::prover::cegis: an initial example of the wrong shape");
    res.examples.push_back(e);
  }
  auto seconds_since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  auto finish = [&](cegis_status s, std::string msg) {
    res.status = s;
    res.message = std::move(msg);
    res.seconds = seconds_since(start);
    return res;
  };

  const std::size_t first = h.minimise ? h.min_gates : h.max_gates;
  for (std::size_t g = first; g <= h.max_gates; ++g) {
    const auto t_size = clock::now();
    cegis_size_report rep;
    rep.gates = g;
    B solver;
    solver.set_conflict_budget(opt.conflict_budget);
    detail::gate_template<B> tmpl(n, m, g, h, solver);
    for (const auto& e : res.examples) tmpl.add_example(e);
    for (;;) {
      if (res.iterations >= opt.max_iterations) {
        rep.seconds = seconds_since(t_size);
        res.sizes.push_back(rep);
        return finish(cegis_status::unknown, "the iteration limit of " + std::to_string(opt.max_iterations) + " was reached");
      }
      ++res.iterations;
      ++rep.iterations;
      const auto t0 = clock::now();
      const sat_result r = solver.solve(std::span<const int>{});
      res.synth_seconds += seconds_since(t0);
      if (r == sat_result::unknown) {
        rep.seconds = seconds_since(t_size);
        res.sizes.push_back(rep);
        return finish(cegis_status::unknown,
                      "the synthesis query at " + std::to_string(g) + " gates ran out of its conflict budget");
      }
      if (r == sat_result::unsat) {
        rep.status = cegis_status::no_circuit;
        break;
      }
      gate_list candidate = tmpl.decode();
      const auto t1 = clock::now();
      std::optional<io_example> cex = spec.verify(candidate);
      res.verify_seconds += seconds_since(t1);
      ++res.verifications;
      if (!cex) {
        rep.status = cegis_status::found;
        rep.seconds = seconds_since(t_size);
        res.sizes.push_back(rep);
        res.circuit = remove_dead_gates(candidate);
        const std::size_t got = res.circuit->gate_count();
        return finish(cegis_status::found, "a circuit of " + std::to_string(got) + " gates after " +
                                               std::to_string(res.iterations) + " synthesis queries");
      }
      if (cex->input.size() != n || cex->output.size() != m || evaluate(candidate, cex->input) == cex->output)
        throw std::logic_error("bem::prover::cegis: the specification returned a counterexample the candidate does not fail");
      res.examples.push_back(*cex);
      tmpl.add_example(*cex);
    }
    rep.seconds = seconds_since(t_size);
    res.sizes.push_back(rep);
  }
  const std::string sizes = h.minimise && h.min_gates > 0
                                ? "of " + std::to_string(h.min_gates) + ".." + std::to_string(h.max_gates) + " gates"
                                : "of at most " + std::to_string(h.max_gates) + " gates";
  return finish(cegis_status::no_circuit,
                "no circuit " + sizes + " over the allowed operations; " +
                    std::to_string(res.examples.size()) + " examples already rule every one out");
}

}  // namespace prover
BEM_NAMESPACE_END
