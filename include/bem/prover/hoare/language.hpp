// HOARE_CHECK's language: a guarded-command language over bounded integer
// and Boolean variables — types, the variable table, expressions, statements
// and their text. The parts of bem::prover::hoare (bem/prover/hoare.hpp
// includes them all): this header; typing.hpp (the typer); interpreter.hpp
// (concrete semantics); wp.hpp (weakest preconditions); encoder.hpp
// (bit-blasting to CNF); check.hpp (the CFG and HOARE_CHECK).
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
// Their semantics: `execute` (interpreter.hpp) and `wp` (wp.hpp).
#pragma once

#include <bem/version.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
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

}  // namespace hoare
}  // namespace prover
BEM_NAMESPACE_END
