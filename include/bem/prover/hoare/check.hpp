// HOARE_CHECK: the control-flow graph, its annotations and the per-edge
// verification conditions, each bit-blasted to CNF (encoder.hpp) and
// required UNSAT. The language: bem/prover/hoare/language.hpp.
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
#include <bem/prover/hoare/encoder.hpp>
#include <bem/prover/hoare/interpreter.hpp>
#include <bem/prover/hoare/language.hpp>
#include <bem/prover/hoare/wp.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/version.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {
namespace hoare {

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
