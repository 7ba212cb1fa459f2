// Weakest preconditions of HOARE_CHECK's statements
// (bem/prover/hoare/language.hpp), by substitution (Dijkstra):
//   WP(x := e, P) = P[e/x]            WP(assume g, P) = g => P
//   WP(s1; s2, P) = WP(s1, WP(s2, P)) WP(s1 [] s2, P) = WP(s1, P) && WP(s2, P)
//   WP(havoc x, P) = forall x'. P[x'/x], x' a fresh variable. The universal
//   quantifier only ever occurs positively in a WP, so in the negated VC it
//   is existential: x' is simply one more free variable of the SAT query.
// An assignment's values are typed by their targets (typing.hpp) before
// they are substituted.
#pragma once

#include <bem/prover/hoare/language.hpp>
#include <bem/prover/hoare/typing.hpp>
#include <bem/version.hpp>

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {
namespace hoare {

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

}  // namespace hoare
}  // namespace prover
BEM_NAMESPACE_END
