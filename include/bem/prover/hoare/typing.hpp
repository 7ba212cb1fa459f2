// The typer of HOARE_CHECK's expressions (bem/prover/hoare/language.hpp):
// the type an expression has, the type an integer literal takes from its
// context, and the check of every operation against the type its context
// expects. The interpreter and the encoder both type through
// detail::typer::check, so the rules are written once.
//
// Rules (node n where type t is expected; operands typed as returned):
//   Boolean constant, ! && || =>   t must be bool; operands bool;
//   integer literal                t must be an integer type it fits in;
//   variable                       its declared type must be t;
//   + - * unary- & | ^ ~           t must be an integer type, the operation's
//                                  own type t; operands t;
//   == != < <= > >=                t must be bool; operands share one type,
//                                  taken from an operand that is not a
//                                  literal (two literals: an error); the
//                                  orderings need integers;
//   ite(c, a, b)                   c bool; a and b have the ite's type t.
// A violation is a std::invalid_argument naming the expression.
#pragma once

#include <bem/prover/hoare/language.hpp>
#include <bem/version.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

BEM_NAMESPACE_BEGIN
namespace prover {
namespace hoare {

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

  /// Checks node n where the context expects type t (the rules in the file
  /// comment) and returns the type its operands are to be read in: bool for
  /// the connectives, the branches' type for ite, the common operand type
  /// for a comparison, t otherwise. Throws std::invalid_argument on a
  /// violation. The interpreter and the encoder call it once per node.
  value_type check(const node& n, const value_type& t) {
    auto require_bool = [&](const char* what) {
      if (!t.is_bool) fail(n, std::string("is ") + what + " where an integer is expected");
    };
    auto require_int = [&]() {
      if (t.is_bool) fail(n, "is an integer operation where a Boolean is expected");
    };
    switch (n.kind) {
      case op::bconst: require_bool("a Boolean constant"); return t;
      case op::iconst:
        require_int();
        if (!fits(n.value, t)) fail(n, "does not fit in " + to_string(t));
        return t;
      case op::var: resolve(n, t); return t;
      case op::lnot: require_bool("a negation"); return t;
      case op::land: require_bool("a conjunction"); return t;
      case op::lor: require_bool("a disjunction"); return t;
      case op::implies: require_bool("an implication"); return t;
      case op::ite: return resolve(n, t);
      case op::add:
      case op::sub:
      case op::mul:
      case op::band:
      case op::bor:
      case op::bxor:
      case op::neg:
      case op::bnot: require_int(); resolve(n, t); return t;
      case op::eq:
      case op::ne:
      case op::lt:
      case op::le:
      case op::gt:
      case op::ge: {
        require_bool("a comparison");
        const value_type u = operands(n);
        if (u.is_bool && n.kind != op::eq && n.kind != op::ne) fail(n, "orders Booleans");
        return u;
      }
    }
    fail(n, "has an unknown operation");
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

}  // namespace detail

}  // namespace hoare
}  // namespace prover
BEM_NAMESPACE_END
