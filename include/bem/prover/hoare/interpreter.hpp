// The concrete semantics of HOARE_CHECK's language
// (bem/prover/hoare/language.hpp): values reduced to their type, `eval` of
// expressions and `execute` of statements (every final state: assume
// discards, choice and havoc branch). hoare_check (check.hpp) replays every
// counterexample with them.
#pragma once

#include <bem/prover/hoare/language.hpp>
#include <bem/prover/hoare/typing.hpp>
#include <bem/version.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {
namespace hoare {

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

// ---- expressions -----------------------------------------------------------------

namespace detail {

inline std::uint64_t bits_of(std::int64_t v) noexcept { return static_cast<std::uint64_t>(v); }

/// Concrete evaluation in type t (each node typed by typer::check first).
inline std::int64_t eval(const node& n, const value_type& t, const state& s, typer& ty) {
  const value_type u = ty.check(n, t);  // the operands' type
  switch (n.kind) {
    case op::bconst: return n.value;
    case op::iconst: return normalise(n.value, t);
    case op::var: {
      const auto k = static_cast<std::size_t>(n.value);
      if (k >= s.size()) throw std::invalid_argument("bem::prover::hoare: the state has no variable " + std::to_string(k));
      return normalise(s[k], t);
    }
    case op::lnot: return eval(*n.a, u, s, ty) ? 0 : 1;
    case op::land: return eval(*n.a, u, s, ty) && eval(*n.b, u, s, ty) ? 1 : 0;
    case op::lor: return eval(*n.a, u, s, ty) || eval(*n.b, u, s, ty) ? 1 : 0;
    case op::implies: return !eval(*n.a, u, s, ty) || eval(*n.b, u, s, ty) ? 1 : 0;
    case op::ite: return eval(*n.a, value_type::boolean(), s, ty) ? eval(*n.b, u, s, ty) : eval(*n.c, u, s, ty);
    case op::add:
    case op::sub:
    case op::mul:
    case op::band:
    case op::bor:
    case op::bxor: {
      const std::uint64_t x = bits_of(eval(*n.a, u, s, ty)), y = bits_of(eval(*n.b, u, s, ty));
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
      const std::uint64_t x = bits_of(eval(*n.a, u, s, ty));
      return normalise(static_cast<std::int64_t>(n.kind == op::neg ? 0 - x : ~x), t);
    }
    case op::eq:
    case op::ne:
    case op::lt:
    case op::le:
    case op::gt:
    case op::ge: {
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

// ---- statements ------------------------------------------------------------------

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

}  // namespace hoare
}  // namespace prover
BEM_NAMESPACE_END
