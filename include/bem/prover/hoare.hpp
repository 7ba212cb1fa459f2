// HOARE_CHECK: a guarded-command language over bounded integer and Boolean
// variables, weakest preconditions by substitution, and the per-edge
// verification conditions of an annotated control-flow graph, each
// bit-blasted to CNF and required UNSAT.
//
// ## The language
// Variables (bem::prover::hoare::variables) are Booleans or integers of a
// declared width w in 1..64 bits, unsigned (values 0..2^w-1) or signed
// (two's complement, -2^(w-1)..2^(w-1)-1). Arithmetic wraps modulo 2^w,
// exactly as the machine words do.
//
// Expressions (`expr`) are built with C++ operators on the handles that
// `variables::bool_var` / `int_var` return, and on integer and bool literals:
//   integers  + - * (binary and unary minus), & | ^ ~ (bitwise),
//             == != < <= > >= (signed or unsigned by the operands' type),
//   Booleans  ! && || == !=, implies(p, q), ite(c, a, b) for both kinds.
// Integer literals are untyped: they take the type of the other operand
// (the assigned variable for an assignment) and must fit in it. Operands of
// one operation must have the same type; a mismatch, an integer literal that
// does not fit, or a comparison of two literals is a std::invalid_argument
// naming the expression.
//
// Statements (`stmt`), the guarded commands:
//   skip()                           nothing;
//   assign(x, e), assign({{x, e}, {y, f}})
//                                    (simultaneous) assignment;
//   assume(g)                        the guard: executions where g is false
//                                    are discarded;
//   havoc(x)                         x takes any value of its type;
//   seq({s1, s2, ...})               sequential composition;
//   choice({s1, s2, ...})            nondeterministic choice;
//   guarded(g, {{x, e}, ...})        assume(g) then the assignment.
// WP by substitution (Dijkstra):
//   WP(x := e, P) = P[e/x]            WP(assume g, P) = g => P
//   WP(s1; s2, P) = WP(s1, WP(s2, P)) WP(s1 [] s2, P) = WP(s1, P) && WP(s2, P)
//   WP(havoc x, P) = forall x'. P[x'/x], x' a fresh variable. The universal
//   quantifier only ever occurs positively in a WP, so in the negated VC it
//   is existential: x' is simply one more free variable of the SAT query.
//
// ## The CFG and HOARE_CHECK
// A `cfg` holds the variables, locations and edges; each edge u -> v carries
// a statement (typically a guarded assignment), the initial location l0 and
// the initial condition Init, a global BAD predicate and optional error
// locations (reaching one is itself BAD). Annotations P_u map locations to
// predicates (a missing location means `true`). hoare_check<B>(g, P) runs one
// SAT query per verification condition, each freshly bit-blasted
// (bem/prover/bitblast.hpp) and decided by back end B (bem/prover/sat_backend.hpp):
//   initiation   Init && !P_l0                         must be UNSAT;
//   consecution  P_u && !WP(stmt_e, P_v), each edge e   must be UNSAT;
//   safety       P_u && BAD (P_u alone at an error location), each location
//                                                      must be UNSAT.
// All UNSAT means P is an inductive invariant that excludes BAD, so no
// execution from a state satisfying Init ever reaches BAD. A SAT answer is a
// counterexample: the state from the model, the failed VC, its location and
// edge, and (for consecution) a successor state that violates P_v, found by
// executing the edge concretely from that state (`execute`); if the model did
// not replay, hoare_check throws std::logic_error (it would be an encoder
// bug), so every counterexample reported has been re-checked by concrete
// evaluation.
//
//     bem::prover::hoare::cfg g;
//     auto i = g.int_var("i", 8), M = g.int_var("M", 8);
//     auto head = g.add_location("head"), done = g.add_location("exit");
//     g.set_initial(head, i == 0);                                 // i := 0
//     g.add_edge(head, head, guarded(i < M, {{i, i + 1}}));
//     g.add_edge(head, done, assume(i >= M));
//     g.set_bad(i > M);
//     auto r = hoare_check(g, {{head, i <= M}, {done, i == M}});   // r.valid()
#pragma once

#include <bem/prover/bitblast.hpp>
#include <bem/prover/cdcl.hpp>
#include <bem/prover/cnf.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/version.hpp>

#include <chrono>
#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {
namespace hoare {

// ---- types and variables ----------------------------------------------------

/// A variable's type: Boolean, or an integer of `width` bits.
struct value_type {
  bool is_bool = true;
  int width = 1;
  bool is_signed = false;

  static constexpr value_type boolean() noexcept { return {true, 1, false}; }
  static constexpr value_type integer(int w, bool s = false) noexcept { return {false, w, s}; }
  friend constexpr bool operator==(const value_type&, const value_type&) = default;
};

inline std::string to_string(const value_type& t) {
  if (t.is_bool) return "bool";
  return (t.is_signed ? "s" : "u") + std::to_string(t.width);
}

/// A declared variable.
struct variable {
  std::string name;
  value_type type;
};

/// A state: one value per variable, indexed like the variable table.
/// Booleans are 0 / 1; integers are their value in the type (signed types
/// negative where negative); a u64 value >= 2^63 is stored as its bit pattern.
using state = std::vector<std::int64_t>;

class expr;

namespace detail {

enum class op : std::uint8_t {
  bconst, iconst, var,
  lnot, land, lor, implies,       // Boolean
  ite,                            // both kinds
  add, sub, mul, neg,             // integer arithmetic
  band, bor, bxor, bnot,          // bitwise
  eq, ne, lt, le, gt, ge,         // comparisons
};

struct node {
  op kind = op::bconst;
  std::int64_t value = 0;  // constants; the variable index for op::var
  std::shared_ptr<const node> a, b, c;
};
using node_ptr = std::shared_ptr<const node>;

inline node_ptr make(op k, node_ptr a = {}, node_ptr b = {}, node_ptr c = {}, std::int64_t v = 0) {
  auto n = std::make_shared<node>();
  n->kind = k;
  n->value = v;
  n->a = std::move(a);
  n->b = std::move(b);
  n->c = std::move(c);
  return n;
}

}  // namespace detail

/// An expression (an immutable shared DAG; copies are cheap).
class expr {
 public:
  /// The Boolean constant (only `bool` itself converts).
  template <class T>
    requires std::same_as<T, bool>
  expr(T b) : n_(detail::make(detail::op::bconst, {}, {}, {}, b ? 1 : 0)) {}
  /// An untyped integer literal.
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  expr(T v) : n_(detail::make(detail::op::iconst, {}, {}, {}, static_cast<std::int64_t>(v))) {}
  explicit expr(detail::node_ptr n) : n_(std::move(n)) {}

  const detail::node_ptr& node() const noexcept { return n_; }
  /// The variable index when this is a variable, else -1.
  std::int64_t var_index() const noexcept { return n_->kind == detail::op::var ? n_->value : -1; }

 private:
  detail::node_ptr n_;
};

namespace detail {
inline expr un(op k, const expr& a) { return expr(make(k, a.node())); }
inline expr bin(op k, const expr& a, const expr& b) { return expr(make(k, a.node(), b.node())); }
}  // namespace detail

inline expr operator!(const expr& a) { return detail::un(detail::op::lnot, a); }
inline expr operator&&(const expr& a, const expr& b) { return detail::bin(detail::op::land, a, b); }
inline expr operator||(const expr& a, const expr& b) { return detail::bin(detail::op::lor, a, b); }
inline expr implies(const expr& a, const expr& b) { return detail::bin(detail::op::implies, a, b); }
inline expr ite(const expr& c, const expr& t, const expr& e) {
  return expr(detail::make(detail::op::ite, c.node(), t.node(), e.node()));
}
inline expr operator+(const expr& a, const expr& b) { return detail::bin(detail::op::add, a, b); }
inline expr operator-(const expr& a, const expr& b) { return detail::bin(detail::op::sub, a, b); }
inline expr operator*(const expr& a, const expr& b) { return detail::bin(detail::op::mul, a, b); }
inline expr operator-(const expr& a) { return detail::un(detail::op::neg, a); }
inline expr operator&(const expr& a, const expr& b) { return detail::bin(detail::op::band, a, b); }
inline expr operator|(const expr& a, const expr& b) { return detail::bin(detail::op::bor, a, b); }
inline expr operator^(const expr& a, const expr& b) { return detail::bin(detail::op::bxor, a, b); }
inline expr operator~(const expr& a) { return detail::un(detail::op::bnot, a); }
inline expr operator==(const expr& a, const expr& b) { return detail::bin(detail::op::eq, a, b); }
inline expr operator!=(const expr& a, const expr& b) { return detail::bin(detail::op::ne, a, b); }
inline expr operator<(const expr& a, const expr& b) { return detail::bin(detail::op::lt, a, b); }
inline expr operator<=(const expr& a, const expr& b) { return detail::bin(detail::op::le, a, b); }
inline expr operator>(const expr& a, const expr& b) { return detail::bin(detail::op::gt, a, b); }
inline expr operator>=(const expr& a, const expr& b) { return detail::bin(detail::op::ge, a, b); }

/// The variable table.
class variables {
 public:
  /// Declares a Boolean variable; returns its handle.
  expr bool_var(std::string name) { return declare(std::move(name), value_type::boolean()); }
  /// Declares an integer variable of `width` bits (1..64).
  expr int_var(std::string name, int width, bool is_signed = false) {
    if (width < 1 || width > 64)
      throw std::invalid_argument("bem::prover::hoare: variable " + name + " has width " + std::to_string(width) +
                                  ", outside 1..64");
    return declare(std::move(name), value_type::integer(width, is_signed));
  }
  /// Declares a variable of a given type (no name check: fresh variables).
  expr declare(std::string name, value_type t) {
    for (const auto& v : vars_)
      if (v.name == name) throw std::invalid_argument("bem::prover::hoare: variable " + name + " declared twice");
    vars_.push_back({std::move(name), t});
    return handle(vars_.size() - 1);
  }
  /// The handle of variable k.
  expr handle(std::size_t k) const {
    if (k >= vars_.size()) throw std::out_of_range("bem::prover::hoare: no variable " + std::to_string(k));
    return expr(detail::make(detail::op::var, {}, {}, {}, static_cast<std::int64_t>(k)));
  }
  /// The index of a variable by name, or -1.
  std::int64_t index_of(std::string_view name) const noexcept {
    for (std::size_t k = 0; k < vars_.size(); ++k)
      if (vars_[k].name == name) return static_cast<std::int64_t>(k);
    return -1;
  }
  std::size_t size() const noexcept { return vars_.size(); }
  const variable& operator[](std::size_t k) const { return vars_.at(k); }

 private:
  std::vector<variable> vars_;
};

// ---- concrete values ----------------------------------------------------------

/// v reduced to type t (wrap-around for integers, != 0 for Booleans).
inline std::int64_t normalise(std::int64_t v, const value_type& t) noexcept {
  if (t.is_bool) return v != 0 ? 1 : 0;
  if (t.width == 64) return v;
  const std::uint64_t mask = (std::uint64_t{1} << t.width) - 1;
  std::uint64_t u = static_cast<std::uint64_t>(v) & mask;
  if (t.is_signed && ((u >> (t.width - 1)) & 1u)) u |= ~mask;
  return static_cast<std::int64_t>(u);
}

/// True when the literal v is a value of type t.
inline bool fits(std::int64_t v, const value_type& t) noexcept {
  if (t.is_bool) return v == 0 || v == 1;
  if (t.width == 64) return t.is_signed || v >= 0;
  if (t.is_signed) {
    const std::int64_t half = std::int64_t{1} << (t.width - 1);
    return v >= -half && v < half;
  }
  return v >= 0 && static_cast<std::uint64_t>(v) < (std::uint64_t{1} << t.width);
}

// ---- printing -----------------------------------------------------------------

namespace detail {
inline const char* op_text(op k) noexcept {
  switch (k) {
    case op::land: return " && ";
    case op::lor: return " || ";
    case op::implies: return " => ";
    case op::add: return " + ";
    case op::sub: return " - ";
    case op::mul: return " * ";
    case op::band: return " & ";
    case op::bor: return " | ";
    case op::bxor: return " ^ ";
    case op::eq: return " == ";
    case op::ne: return " != ";
    case op::lt: return " < ";
    case op::le: return " <= ";
    case op::gt: return " > ";
    case op::ge: return " >= ";
    default: return " ? ";
  }
}
inline void print(const node& n, const variables* vars, std::string& out) {
  switch (n.kind) {
    case op::bconst: out += n.value ? "true" : "false"; return;
    case op::iconst: out += std::to_string(n.value); return;
    case op::var: {
      const auto k = static_cast<std::size_t>(n.value);
      out += vars && k < vars->size() ? (*vars)[k].name : "v" + std::to_string(k);
      return;
    }
    case op::lnot: out += "!"; print(*n.a, vars, out); return;
    case op::neg: out += "-"; print(*n.a, vars, out); return;
    case op::bnot: out += "~"; print(*n.a, vars, out); return;
    case op::ite:
      out += "(";
      print(*n.a, vars, out);
      out += " ? ";
      print(*n.b, vars, out);
      out += " : ";
      print(*n.c, vars, out);
      out += ")";
      return;
    default:
      out += "(";
      print(*n.a, vars, out);
      out += op_text(n.kind);
      print(*n.b, vars, out);
      out += ")";
      return;
  }
}
}  // namespace detail

/// The expression as text (fully parenthesised; names from `vars` if given).
inline std::string to_string(const expr& e, const variables* vars = nullptr) {
  std::string s;
  detail::print(*e.node(), vars, s);
  return s;
}
inline std::string to_string(const expr& e, const variables& vars) { return to_string(e, &vars); }

/// A state as text: {name = value, ...}.
inline std::string to_string(const state& s, const variables& vars) {
  std::string out = "{";
  for (std::size_t k = 0; k < s.size() && k < vars.size(); ++k) {
    if (k) out += ", ";
    out += vars[k].name + " = ";
    out += vars[k].type.is_bool ? (s[k] ? "true" : "false") : std::to_string(s[k]);
  }
  return out + "}";
}

// ---- typing and evaluation ------------------------------------------------------

namespace detail {

/// Types expressions against a variable table (memoised per node).
class typer {
 public:
  explicit typer(const variables& v) : vars_(v) {}

  /// The synthesised type; nullopt for an untyped integer literal (or an
  /// operation on literals only).
  std::optional<value_type> synth(const node& n) {
    if (auto it = memo_.find(&n); it != memo_.end()) return it->second;
    std::optional<value_type> t;
    switch (n.kind) {
      case op::bconst:
      case op::lnot:
      case op::land:
      case op::lor:
      case op::implies:
      case op::eq:
      case op::ne:
      case op::lt:
      case op::le:
      case op::gt:
      case op::ge: t = value_type::boolean(); break;
      case op::iconst: break;
      case op::var: {
        const auto k = static_cast<std::size_t>(n.value);
        if (k >= vars_.size())
          throw std::invalid_argument("bem::prover::hoare: variable index " + std::to_string(k) +
                                      " is not in the variable table");
        t = vars_[k].type;
        break;
      }
      case op::neg:
      case op::bnot: t = synth(*n.a); break;
      case op::ite: t = synth(*n.b); if (!t) t = synth(*n.c); break;
      default: t = synth(*n.a); if (!t) t = synth(*n.b); break;
    }
    memo_.emplace(&n, t);
    return t;
  }

  /// The type of n where the context expects `want` (nullopt: no
  /// expectation); throws on a mismatch.
  value_type resolve(const node& n, std::optional<value_type> want) {
    std::optional<value_type> t = synth(n);
    if (!t) t = want;
    if (!t) fail(n, "cannot infer the width of an operation on integer literals only");
    if (want && *want != *t)
      fail(n, "has type " + to_string(*t) + " where " + to_string(*want) + " is expected");
    return *t;
  }

  /// The common operand type of a binary operation (must not be bool for
  /// arithmetic/comparisons, may be for == and !=).
  value_type operands(const node& n) {
    std::optional<value_type> t = synth(*n.a);
    if (!t) t = synth(*n.b);
    if (!t) fail(n, "compares two integer literals");
    return *t;
  }

  [[noreturn]] void fail(const node& n, const std::string& why) const {
    std::string s;
    print(n, &vars_, s);
    throw std::invalid_argument("bem::prover::hoare: expression " + s + " " + why);
  }

  const variables& vars() const noexcept { return vars_; }

 private:
  const variables& vars_;
  std::unordered_map<const node*, std::optional<value_type>> memo_;
};

inline std::uint64_t bits_of(std::int64_t v) noexcept { return static_cast<std::uint64_t>(v); }

/// Concrete evaluation in type t (checks types as it goes).
inline std::int64_t eval(const node& n, const value_type& t, const state& s, typer& ty) {
  auto req_bool = [&](const char* what) {
    if (!t.is_bool) ty.fail(n, std::string("is ") + what + " where an integer is expected");
  };
  auto req_int = [&]() {
    if (t.is_bool) ty.fail(n, "is an integer operation where a Boolean is expected");
  };
  const value_type B = value_type::boolean();
  switch (n.kind) {
    case op::bconst: req_bool("a Boolean constant"); return n.value;
    case op::iconst:
      req_int();
      if (!fits(n.value, t)) ty.fail(n, "does not fit in " + to_string(t));
      return normalise(n.value, t);
    case op::var: {
      ty.resolve(n, t);
      const auto k = static_cast<std::size_t>(n.value);
      if (k >= s.size()) throw std::invalid_argument("bem::prover::hoare: the state has no variable " + std::to_string(k));
      return normalise(s[k], t);
    }
    case op::lnot: req_bool("a negation"); return eval(*n.a, B, s, ty) ? 0 : 1;
    case op::land: req_bool("a conjunction"); return eval(*n.a, B, s, ty) && eval(*n.b, B, s, ty) ? 1 : 0;
    case op::lor: req_bool("a disjunction"); return eval(*n.a, B, s, ty) || eval(*n.b, B, s, ty) ? 1 : 0;
    case op::implies: req_bool("an implication"); return !eval(*n.a, B, s, ty) || eval(*n.b, B, s, ty) ? 1 : 0;
    case op::ite: {
      const value_type r = ty.resolve(n, t);
      return eval(*n.a, B, s, ty) ? eval(*n.b, r, s, ty) : eval(*n.c, r, s, ty);
    }
    case op::add:
    case op::sub:
    case op::mul:
    case op::band:
    case op::bor:
    case op::bxor: {
      req_int();
      ty.resolve(n, t);
      const std::uint64_t x = bits_of(eval(*n.a, t, s, ty)), y = bits_of(eval(*n.b, t, s, ty));
      std::uint64_t r = 0;
      switch (n.kind) {
        case op::add: r = x + y; break;
        case op::sub: r = x - y; break;
        case op::mul: r = x * y; break;
        case op::band: r = x & y; break;
        case op::bor: r = x | y; break;
        default: r = x ^ y; break;
      }
      return normalise(static_cast<std::int64_t>(r), t);
    }
    case op::neg:
    case op::bnot: {
      req_int();
      ty.resolve(n, t);
      const std::uint64_t x = bits_of(eval(*n.a, t, s, ty));
      return normalise(static_cast<std::int64_t>(n.kind == op::neg ? 0 - x : ~x), t);
    }
    case op::eq:
    case op::ne:
    case op::lt:
    case op::le:
    case op::gt:
    case op::ge: {
      req_bool("a comparison");
      const value_type u = ty.operands(n);
      if (u.is_bool && n.kind != op::eq && n.kind != op::ne) ty.fail(n, "orders Booleans");
      const std::int64_t x = eval(*n.a, u, s, ty), y = eval(*n.b, u, s, ty);
      bool lt = false;
      if (u.is_signed)
        lt = x < y;
      else
        lt = bits_of(x) < bits_of(y);
      switch (n.kind) {
        case op::eq: return x == y;
        case op::ne: return x != y;
        case op::lt: return lt;
        case op::le: return lt || x == y;
        case op::gt: return !lt && x != y;
        default: return !lt;
      }
    }
  }
  return 0;
}

}  // namespace detail

/// The value of e in state s (Booleans 0 / 1). `want` types integer
/// literals at the top (needed only when e is an operation on literals).
inline std::int64_t eval(const expr& e, const state& s, const variables& vars,
                         std::optional<value_type> want = std::nullopt) {
  detail::typer ty(vars);
  return detail::eval(*e.node(), ty.resolve(*e.node(), want), s, ty);
}
/// True when the predicate p holds in s.
inline bool holds(const expr& p, const state& s, const variables& vars) {
  return eval(p, s, vars, value_type::boolean()) != 0;
}

// ---- statements ---------------------------------------------------------------

namespace detail {
enum class stmt_kind : std::uint8_t { skip, assign, assume, havoc, seq, choice };
struct stmt_node;
}  // namespace detail

/// A guarded command (an immutable shared tree; copies are cheap).
class stmt {
 public:
  explicit stmt(std::shared_ptr<const detail::stmt_node> n) : n_(std::move(n)) {}
  const detail::stmt_node& node() const noexcept { return *n_; }
  const detail::stmt_node* get() const noexcept { return n_.get(); }

 private:
  std::shared_ptr<const detail::stmt_node> n_;
};

namespace detail {
struct stmt_node {
  stmt_kind kind = stmt_kind::skip;
  std::vector<std::pair<std::size_t, expr>> assigns;  // assign: (variable, value), simultaneous
  std::optional<expr> cond;                           // assume
  std::size_t var = 0;                                // havoc
  std::vector<stmt> parts;                            // seq, choice
};
inline std::size_t target_of(const expr& x) {
  if (x.var_index() < 0)
    throw std::invalid_argument("bem::prover::hoare: the target " + to_string(x) + " of an assignment is not a variable");
  return static_cast<std::size_t>(x.var_index());
}
inline stmt make_stmt(stmt_node n) { return stmt(std::make_shared<const stmt_node>(std::move(n))); }
}  // namespace detail

inline stmt skip() { return detail::make_stmt({}); }
/// x_1, ..., x_k := e_1, ..., e_k (simultaneous; targets distinct).
inline stmt assign(std::vector<std::pair<expr, expr>> assignments) {
  detail::stmt_node n;
  n.kind = detail::stmt_kind::assign;
  for (auto& [x, e] : assignments) {
    const std::size_t k = detail::target_of(x);
    for (const auto& [j, f] : n.assigns)
      if (j == k) throw std::invalid_argument("bem::prover::hoare: " + to_string(x) + " is assigned twice at once");
    n.assigns.emplace_back(k, e);
  }
  return detail::make_stmt(std::move(n));
}
inline stmt assign(const expr& x, const expr& e) { return assign(std::vector<std::pair<expr, expr>>{{x, e}}); }
inline stmt assume(const expr& g) {
  detail::stmt_node n;
  n.kind = detail::stmt_kind::assume;
  n.cond = g;
  return detail::make_stmt(std::move(n));
}
inline stmt havoc(const expr& x) {
  detail::stmt_node n;
  n.kind = detail::stmt_kind::havoc;
  n.var = detail::target_of(x);
  return detail::make_stmt(std::move(n));
}
inline stmt seq(std::vector<stmt> parts) {
  detail::stmt_node n;
  n.kind = detail::stmt_kind::seq;
  n.parts = std::move(parts);
  return detail::make_stmt(std::move(n));
}
/// Nondeterministic choice (an empty choice blocks, like assume(false)).
inline stmt choice(std::vector<stmt> parts) {
  detail::stmt_node n;
  n.kind = detail::stmt_kind::choice;
  n.parts = std::move(parts);
  return detail::make_stmt(std::move(n));
}
/// assume(g); x_1, ..., x_k := e_1, ..., e_k.
inline stmt guarded(const expr& g, std::vector<std::pair<expr, expr>> assignments) {
  return seq({assume(g), assign(std::move(assignments))});
}

/// The statement as text.
inline std::string to_string(const stmt& s, const variables* vars = nullptr) {
  const auto& n = s.node();
  auto name = [&](std::size_t k) { return vars && k < vars->size() ? (*vars)[k].name : "v" + std::to_string(k); };
  std::string out;
  switch (n.kind) {
    case detail::stmt_kind::skip: return "skip";
    case detail::stmt_kind::assign: {
      std::string l, r;
      for (const auto& [k, e] : n.assigns) {
        if (!l.empty()) l += ", ", r += ", ";
        l += name(k);
        r += to_string(e, vars);
      }
      return l + " := " + r;
    }
    case detail::stmt_kind::assume: return "assume " + to_string(*n.cond, vars);
    case detail::stmt_kind::havoc: return "havoc " + name(n.var);
    case detail::stmt_kind::seq:
    case detail::stmt_kind::choice:
      out = "(";
      for (std::size_t i = 0; i < n.parts.size(); ++i) {
        if (i) out += n.kind == detail::stmt_kind::seq ? "; " : " [] ";
        out += to_string(n.parts[i], vars);
      }
      return out + ")";
  }
  return out;
}
inline std::string to_string(const stmt& s, const variables& vars) { return to_string(s, &vars); }

/// Values a havoc statement may pick during `execute`: per havoc statement
/// node, the candidate values (absent: every value of the type, allowed up
/// to 16 bits).
using havoc_values = std::map<const detail::stmt_node*, std::vector<std::int64_t>>;

namespace detail {
inline void execute(const stmt& st, const state& s, const variables& vars, const havoc_values* hv,
                    std::vector<state>& out) {
  const auto& n = st.node();
  switch (n.kind) {
    case stmt_kind::skip: out.push_back(s); return;
    case stmt_kind::assume:
      if (holds(*n.cond, s, vars)) out.push_back(s);
      return;
    case stmt_kind::assign: {
      state t = s;
      for (const auto& [k, e] : n.assigns) t[k] = eval(e, s, vars, vars[k].type);
      out.push_back(std::move(t));
      return;
    }
    case stmt_kind::havoc: {
      const value_type ty = vars[n.var].type;
      if (hv) {
        if (auto it = hv->find(&n); it != hv->end()) {
          for (std::int64_t v : it->second) {
            state t = s;
            t[n.var] = normalise(v, ty);
            out.push_back(std::move(t));
          }
          return;
        }
      }
      if (ty.width > 16)
        throw std::invalid_argument("bem::prover::hoare::execute: havoc of " + vars[n.var].name +
                                    " (wider than 16 bits) needs candidate values");
      for (std::uint64_t v = 0; v < (std::uint64_t{1} << ty.width); ++v) {
        state t = s;
        t[n.var] = normalise(static_cast<std::int64_t>(v), ty);
        out.push_back(std::move(t));
      }
      return;
    }
    case stmt_kind::seq: {
      std::vector<state> cur{s}, next;
      for (const auto& p : n.parts) {
        next.clear();
        for (const auto& x : cur) execute(p, x, vars, hv, next);
        cur.swap(next);
      }
      out.insert(out.end(), cur.begin(), cur.end());
      return;
    }
    case stmt_kind::choice:
      for (const auto& p : n.parts) execute(p, s, vars, hv, out);
      return;
  }
}
}  // namespace detail

/// Every final state of st from s (the concrete semantics; assume discards,
/// choice and havoc branch).
inline std::vector<state> execute(const stmt& st, const state& s, const variables& vars,
                                  const havoc_values* hv = nullptr) {
  if (s.size() < vars.size())
    throw std::invalid_argument("bem::prover::hoare::execute: the state has " + std::to_string(s.size()) +
                                " values for " + std::to_string(vars.size()) + " variables");
  std::vector<state> out;
  detail::execute(st, s, vars, hv, out);
  return out;
}

// ---- weakest preconditions ----------------------------------------------------------

namespace detail {
/// Simultaneous substitution of variables by expressions, memoised per node.
class substituter {
 public:
  explicit substituter(const std::vector<std::pair<std::size_t, expr>>& m) {
    for (const auto& [k, e] : m) map_.emplace(k, e.node());
  }
  node_ptr apply(const node_ptr& n) {
    if (!n) return n;
    if (n->kind == op::var) {
      auto it = map_.find(static_cast<std::size_t>(n->value));
      return it == map_.end() ? n : it->second;
    }
    if (n->kind == op::bconst || n->kind == op::iconst) return n;
    if (auto it = memo_.find(n.get()); it != memo_.end()) return it->second;
    node_ptr a = apply(n->a), b = apply(n->b), c = apply(n->c);
    node_ptr r = (a == n->a && b == n->b && c == n->c) ? n : make(n->kind, a, b, c, n->value);
    memo_.emplace(n.get(), r);
    return r;
  }

 private:
  std::unordered_map<std::size_t, node_ptr> map_;
  std::unordered_map<const node*, node_ptr> memo_;
};
}  // namespace detail

/// Records the fresh variables that WP introduced for havoc statements.
struct wp_fresh {
  std::vector<std::pair<const detail::stmt_node*, std::size_t>> havocs;  ///< (havoc node, fresh variable)
};

/// WP(st, post) by substitution. Fresh variables for havoc are declared in
/// `vars` (named x'1, x'2, ...) and listed in `fresh` when given.
inline expr wp(const stmt& st, const expr& post, variables& vars, wp_fresh* fresh = nullptr) {
  const auto& n = st.node();
  switch (n.kind) {
    case detail::stmt_kind::skip: return post;
    case detail::stmt_kind::assign: {
      // Each value has its target's type (checked here, as execute() does:
      // x (u8) := y (s8) would turn x < 5 into a signed y < 5). A literal
      // value goes in as ite(true, e, x), which has x's type: bare, i := 0
      // would turn i < 5 into 0 < 5, a comparison of two untyped literals.
      detail::typer types(vars);
      std::vector<std::pair<std::size_t, expr>> typed;
      for (const auto& [k, e] : n.assigns) {
        const bool untyped = !types.synth(*e.node());
        types.resolve(*e.node(), vars[k].type);
        typed.emplace_back(k, untyped ? ite(expr(true), e, vars.handle(k)) : e);
      }
      return expr(detail::substituter(typed).apply(post.node()));
    }
    case detail::stmt_kind::assume: return implies(*n.cond, post);
    case detail::stmt_kind::havoc: {
      const variable v = vars[n.var];
      std::string name;
      for (int k = 1;; ++k) {
        name = v.name + "'" + std::to_string(k);
        if (vars.index_of(name) < 0) break;
      }
      const expr x = vars.declare(name, v.type);
      if (fresh) fresh->havocs.emplace_back(&n, static_cast<std::size_t>(x.var_index()));
      return expr(detail::substituter({{n.var, x}}).apply(post.node()));
    }
    case detail::stmt_kind::seq: {
      expr p = post;
      for (std::size_t i = n.parts.size(); i-- > 0;) p = wp(n.parts[i], p, vars, fresh);
      return p;
    }
    case detail::stmt_kind::choice: {
      if (n.parts.empty()) return true;
      expr p = wp(n.parts[0], post, vars, fresh);
      for (std::size_t i = 1; i < n.parts.size(); ++i) p = p && wp(n.parts[i], post, vars, fresh);
      return p;
    }
  }
  return post;
}

// ---- bit-blasting expressions -----------------------------------------------------------

/// Encodes expressions over a variable table into a bit_blaster: each
/// variable is one bit-vector of its width (Booleans: one literal), created
/// on first use; subexpressions are memoised per (node, type).
class expr_encoder {
 public:
  expr_encoder(bit_blaster& bb, const variables& vars) : bb_(bb), ty_(vars) {}

  /// The literal of a predicate.
  int encode_bool(const expr& e) { return encode(*e.node(), value_type::boolean())[0]; }
  /// The bit-vector of an integer expression (typed by `want` where it is
  /// made of literals only).
  bitvec encode_int(const expr& e, std::optional<value_type> want = std::nullopt) {
    return encode(*e.node(), ty_.resolve(*e.node(), want));
  }
  /// The bit-vector of variable k (created on first use).
  const bitvec& variable_bits(std::size_t k) {
    if (k >= env_.size()) env_.resize(k + 1);
    if (!env_[k]) env_[k] = bb_.fresh_bv(ty_.vars()[k].type.width);
    return *env_[k];
  }
  /// The value of variable k in a model (0 when the variable was never used).
  std::int64_t value(const assignment& a, std::size_t k) const {
    if (k >= env_.size() || !env_[k]) return 0;
    const value_type& t = ty_.vars()[k].type;
    return t.is_signed ? bit_blaster::signed_value(a, *env_[k]) : static_cast<std::int64_t>(bit_blaster::value(a, *env_[k]));
  }

 private:
  bitvec encode(const detail::node& n, const value_type& t) {
    using detail::op;
    const std::uint64_t key_t = (t.is_bool ? 0u : 1u) | (t.is_signed ? 2u : 0u) | (static_cast<unsigned>(t.width) << 2);
    const auto key = std::make_pair(&n, key_t);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    auto req_bool = [&](const char* what) {
      if (!t.is_bool) ty_.fail(n, std::string("is ") + what + " where an integer is expected");
    };
    auto req_int = [&]() {
      if (t.is_bool) ty_.fail(n, "is an integer operation where a Boolean is expected");
    };
    const value_type B = value_type::boolean();
    auto lit = [](int l) { return bitvec{{l}}; };
    auto b = [&](const detail::node_ptr& x) { return encode(*x, B)[0]; };
    bitvec r;
    switch (n.kind) {
      case op::bconst: req_bool("a Boolean constant"); r = lit(bit_blaster::constant(n.value != 0)); break;
      case op::iconst:
        req_int();
        if (!fits(n.value, t)) ty_.fail(n, "does not fit in " + to_string(t));
        r = bit_blaster::constant_bv(t.width, static_cast<std::uint64_t>(n.value));
        break;
      case op::var: ty_.resolve(n, t); r = variable_bits(static_cast<std::size_t>(n.value)); break;
      case op::lnot: req_bool("a negation"); r = lit(-b(n.a)); break;
      case op::land: req_bool("a conjunction"); r = lit(bb_.and_(b(n.a), b(n.b))); break;
      case op::lor: req_bool("a disjunction"); r = lit(bb_.or_(b(n.a), b(n.b))); break;
      case op::implies: req_bool("an implication"); r = lit(bb_.implies(b(n.a), b(n.b))); break;
      case op::ite: {
        const value_type u = ty_.resolve(n, t);
        const int c = b(n.a);
        r = bb_.bv_ite(c, encode(*n.b, u), encode(*n.c, u));
        break;
      }
      case op::add:
      case op::sub:
      case op::mul:
      case op::band:
      case op::bor:
      case op::bxor: {
        req_int();
        ty_.resolve(n, t);
        const bitvec x = encode(*n.a, t), y = encode(*n.b, t);
        switch (n.kind) {
          case op::add: r = bb_.add(x, y); break;
          case op::sub: r = bb_.sub(x, y); break;
          case op::mul: r = bb_.mul(x, y); break;
          case op::band: r = bb_.bv_and(x, y); break;
          case op::bor: r = bb_.bv_or(x, y); break;
          default: r = bb_.bv_xor(x, y); break;
        }
        break;
      }
      case op::neg:
      case op::bnot: {
        req_int();
        ty_.resolve(n, t);
        const bitvec x = encode(*n.a, t);
        r = n.kind == op::neg ? bb_.neg(x) : bb_.bv_not(x);
        break;
      }
      case op::eq:
      case op::ne:
      case op::lt:
      case op::le:
      case op::gt:
      case op::ge: {
        req_bool("a comparison");
        const value_type u = ty_.operands(n);
        if (u.is_bool && n.kind != op::eq && n.kind != op::ne) ty_.fail(n, "orders Booleans");
        const bitvec x = encode(*n.a, u), y = encode(*n.b, u);
        int l = 0;
        switch (n.kind) {
          case op::eq: l = bb_.eq(x, y); break;
          case op::ne: l = -bb_.eq(x, y); break;
          case op::lt: l = u.is_signed ? bb_.slt(x, y) : bb_.ult(x, y); break;
          case op::le: l = u.is_signed ? bb_.sle(x, y) : bb_.ule(x, y); break;
          case op::gt: l = u.is_signed ? bb_.slt(y, x) : bb_.ult(y, x); break;
          default: l = u.is_signed ? bb_.sle(y, x) : bb_.ule(y, x); break;
        }
        r = lit(l);
        break;
      }
    }
    memo_.emplace(key, r);
    return r;
  }

  struct key_hash {
    std::size_t operator()(const std::pair<const detail::node*, std::uint64_t>& k) const noexcept {
      return std::hash<const void*>()(k.first) ^ (k.second * 0x9E3779B97F4A7C15ull);
    }
  };
  bit_blaster& bb_;
  detail::typer ty_;
  std::vector<std::optional<bitvec>> env_;
  std::unordered_map<std::pair<const detail::node*, std::uint64_t>, bitvec, key_hash> memo_;
};

// ---- the CFG ------------------------------------------------------------------------------

using location = std::size_t;

/// An edge u -> v labelled by a statement.
struct edge {
  location from = 0, to = 0;
  stmt body = skip();
  std::string label;  ///< defaults to the statement's text
};

/// A control-flow graph over a variable table.
class cfg {
 public:
  expr bool_var(std::string name) { return vars_.bool_var(std::move(name)); }
  expr int_var(std::string name, int width, bool is_signed = false) {
    return vars_.int_var(std::move(name), width, is_signed);
  }
  const variables& vars() const noexcept { return vars_; }

  location add_location(std::string name) {
    names_.push_back(std::move(name));
    error_.push_back(0);
    return names_.size() - 1;
  }
  std::size_t add_edge(location from, location to, stmt body, std::string label = {}) {
    check_location(from);
    check_location(to);
    if (label.empty()) label = to_string(body, vars_);
    edges_.push_back({from, to, std::move(body), std::move(label)});
    return edges_.size() - 1;
  }
  /// The initial location and condition Init (default: true).
  void set_initial(location l, expr init = true) {
    check_location(l);
    initial_ = l;
    init_ = std::move(init);
  }
  /// The BAD predicate, checked at every location (default: false).
  void set_bad(expr bad) { bad_ = std::move(bad); }
  /// Reaching l is BAD (an assertion failure location).
  void mark_error(location l) {
    check_location(l);
    error_[l] = 1;
  }

  std::size_t locations() const noexcept { return names_.size(); }
  const std::string& name(location l) const { return names_.at(l); }
  const std::vector<edge>& edges() const noexcept { return edges_; }
  location initial() const {
    if (!initial_) throw std::logic_error("bem::prover::hoare::cfg: no initial location (call set_initial)");
    return *initial_;
  }
  const expr& init() const noexcept { return init_; }
  const expr& bad() const noexcept { return bad_; }
  bool is_error(location l) const { return error_.at(l) != 0; }

 private:
  void check_location(location l) const {
    if (l >= names_.size()) throw std::out_of_range("bem::prover::hoare::cfg: no location " + std::to_string(l));
  }
  variables vars_;
  std::vector<std::string> names_;
  std::vector<std::uint8_t> error_;
  std::vector<edge> edges_;
  std::optional<location> initial_;
  expr init_ = true;
  expr bad_ = false;
};

/// Annotations: P_u per location (a missing location means `true`).
using annotations = std::map<location, expr>;

// ---- HOARE_CHECK -------------------------------------------------------------------------------

/// The three kinds of verification condition.
enum class vc_kind { initiation, consecution, safety };

constexpr std::string_view to_string(vc_kind k) noexcept {
  switch (k) {
    case vc_kind::initiation: return "initiation";
    case vc_kind::consecution: return "consecution";
    case vc_kind::safety: return "safety";
  }
  return "?";
}

/// One VC's query.
struct vc_report {
  vc_kind kind = vc_kind::initiation;
  location loc = 0;                  ///< initiation, safety: the location; consecution: the edge's source
  std::optional<std::size_t> edge;   ///< consecution: the edge index
  sat_result result = sat_result::unknown;
  int vars = 0;                      ///< CNF variables of the VC
  std::size_t clauses = 0;           ///< CNF clauses of the VC
  double seconds = 0;                ///< encoding + solving
};

/// A failed VC, with its replayed witness.
struct counterexample {
  vc_kind kind = vc_kind::initiation;
  location loc = 0;                  ///< as in vc_report
  std::optional<std::size_t> edge;   ///< consecution: the failed edge
  location to = 0;                   ///< consecution: the edge's target
  state pre;                         ///< the state that breaks the VC (program variables)
  state post;                        ///< consecution: a successor of `pre` along the edge violating P_to
  std::string message;               ///< what failed, in words, with the states
};

/// HOARE_CHECK's answer.
struct hoare_result {
  std::vector<vc_report> vcs;                   ///< every VC, in the order checked
  std::vector<counterexample> counterexamples;  ///< one per SAT VC, in the same order
  double seconds = 0;

  /// Every VC was UNSAT: the annotations are an inductive invariant that
  /// excludes BAD.
  bool valid() const noexcept {
    for (const auto& v : vcs)
      if (v.result != sat_result::unsat) return false;
    return !vcs.empty();
  }
  /// Some VC ran out of its conflict budget.
  bool unknown() const noexcept {
    for (const auto& v : vcs)
      if (v.result == sat_result::unknown) return true;
    return false;
  }
};

struct hoare_options {
  std::int64_t conflict_budget = -1;  ///< per VC; < 0: none
  bool stop_at_first_failure = false; ///< stop after the first SAT or UNKNOWN VC
};

/// HOARE_CHECK(cfg, annotations) with SAT back end B (see the header comment).
template <class B = cdcl_solver>
  requires(assert_sat_backend<B>())
hoare_result hoare_check(const cfg& g, const annotations& ann, const hoare_options& opt = {}) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  hoare_result out;
  const variables& pv = g.vars();
  const std::size_t nv = pv.size();
  for (const auto& [l, p] : ann)
    if (l >= g.locations())
      throw std::invalid_argument("bem::prover::hoare_check: an annotation names location " + std::to_string(l) +
                                  ", which does not exist");
  auto annotation = [&](location l) -> expr {
    auto it = ann.find(l);
    return it == ann.end() ? expr(true) : it->second;
  };
  auto where = [&](location l) { return "location " + g.name(l); };

  // One VC: encode `query` (a predicate that must be unsatisfiable) and solve.
  auto run = [&](vc_report rep, const variables& vars, const std::function<int(expr_encoder&)>& query,
                 const std::function<void(expr_encoder&, const assignment&, counterexample&)>& explain) {
    const auto t0 = clock::now();
    bit_blaster bb;
    expr_encoder enc(bb, vars);
    for (std::size_t k = 0; k < nv; ++k) enc.variable_bits(k);  // every program variable in the model
    bb.assert_true(query(enc));
    const check_outcome r = sat_check<B>(bb.formula(), opt.conflict_budget);
    rep.result = r.result;
    rep.vars = bb.num_vars();
    rep.clauses = bb.formula().size();
    rep.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    if (r.result == sat_result::sat) {
      counterexample cx;
      cx.kind = rep.kind;
      cx.loc = rep.loc;
      cx.edge = rep.edge;
      cx.pre.resize(nv);
      for (std::size_t k = 0; k < nv; ++k) cx.pre[k] = enc.value(r.model, k);
      explain(enc, r.model, cx);
      out.counterexamples.push_back(std::move(cx));
    }
    out.vcs.push_back(rep);
    return r.result == sat_result::unsat;
  };
  auto stop = [&](bool ok) { return !ok && opt.stop_at_first_failure; };
  auto done = [&]() {
    out.seconds = std::chrono::duration<double>(clock::now() - start).count();
    return out;
  };

  // Initiation: Init && !P_l0.
  {
    const location l0 = g.initial();
    const expr p0 = annotation(l0);
    vc_report rep;
    rep.kind = vc_kind::initiation;
    rep.loc = l0;
    const bool ok = run(
        rep, pv, [&](expr_encoder& e) { return e.encode_bool(g.init() && !p0); },
        [&](expr_encoder&, const assignment&, counterexample& cx) {
          if (!holds(g.init(), cx.pre, pv) || holds(p0, cx.pre, pv))
            throw std::logic_error("bem::prover::hoare_check: the initiation counterexample does not replay");
          cx.message = "initiation: the initial state " + to_string(cx.pre, pv) + " satisfies Init but not the annotation of " +
                       where(l0) + ": " + to_string(p0, pv);
        });
    if (stop(ok)) return done();
  }

  // Consecution: P_u && !WP(stmt, P_v), one per edge.
  for (std::size_t ei = 0; ei < g.edges().size(); ++ei) {
    const edge& e = g.edges()[ei];
    variables vars = pv;  // WP may declare fresh variables for havoc
    wp_fresh fresh;
    const expr pu = annotation(e.from), pvv = annotation(e.to);
    const expr w = wp(e.body, pvv, vars, &fresh);
    vc_report rep;
    rep.kind = vc_kind::consecution;
    rep.loc = e.from;
    rep.edge = ei;
    const bool ok = run(
        rep, vars,
        [&](expr_encoder& en) {
          for (const auto& [node, k] : fresh.havocs) en.variable_bits(k);
          return en.encode_bool(pu && !w);
        },
        [&](expr_encoder& en, const assignment& model, counterexample& cx) {
          cx.to = e.to;
          havoc_values hv;
          for (const auto& [node, k] : fresh.havocs) hv[node].push_back(en.value(model, k));
          if (!holds(pu, cx.pre, pv))
            throw std::logic_error("bem::prover::hoare_check: the consecution counterexample violates P_u");
          bool found = false;
          for (auto& s : execute(e.body, cx.pre, pv, &hv))
            if (!holds(pvv, s, pv)) {
              cx.post = std::move(s);
              found = true;
              break;
            }
          if (!found)
            throw std::logic_error("bem::prover::hoare_check: the consecution counterexample of edge " +
                                   std::to_string(ei) + " does not replay");
          cx.message = "consecution fails on edge " + std::to_string(ei) + " (" + g.name(e.from) + " -> " +
                       g.name(e.to) + ": " + e.label + "): from " + to_string(cx.pre, pv) + ", which satisfies the annotation of " +
                       where(e.from) + ", the edge reaches " + to_string(cx.post, pv) +
                       ", which violates the annotation of " + where(e.to) + ": " + to_string(pvv, pv);
        });
    if (stop(ok)) return done();
  }

  // Safety: P_u && BAD (P_u alone at an error location), one per location.
  for (location l = 0; l < g.locations(); ++l) {
    const expr pu = annotation(l);
    const bool err = g.is_error(l);
    vc_report rep;
    rep.kind = vc_kind::safety;
    rep.loc = l;
    const bool ok = run(
        rep, pv, [&](expr_encoder& e) { return err ? e.encode_bool(pu) : e.encode_bool(pu && g.bad()); },
        [&](expr_encoder&, const assignment&, counterexample& cx) {
          if (!holds(pu, cx.pre, pv) || (!err && !holds(g.bad(), cx.pre, pv)))
            throw std::logic_error("bem::prover::hoare_check: the safety counterexample does not replay");
          cx.message = "safety: the state " + to_string(cx.pre, pv) + " satisfies the annotation of " + where(l) +
                       (err ? std::string(", an error location") : " and BAD: " + to_string(g.bad(), pv));
        });
    if (stop(ok)) return done();
  }
  return done();
}

}  // namespace hoare
}  // namespace prover
BEM_NAMESPACE_END
