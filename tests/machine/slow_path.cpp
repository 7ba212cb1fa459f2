// The slow path: one accepted patch of each class, one rejected patch for
// every kind of verification condition (its counterexample logged), the
// lifecycle, PoX, budgets, the scheduler's credit, degraded and suspended
// modes, snapshots, rollback and restore.
#include <bem/circuits/gate_list.hpp>
#include <bem/machine/machine.hpp>
#include <bem/machine/slow_path.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

// A namespace of its own: the test files share one unity unit.
namespace slow_path_test {
namespace {

using machine_t = bem::machine<8, 64, 64>;
using slow_t = bem::slow_path<machine_t>;
using expert_t = machine_t::expert_type;
using bem::gate;
using bem::gate_op;

bem::identifier id_of(std::uint32_t e) { return bem::make_checked_identifier(1, e % 64, (e * 613 + 11) % 16384); }
bem::read_spec reads(std::initializer_list<std::uint32_t> bits) {
  bem::read_spec r;
  for (auto b : bits) r.bits.push_back({bem::read_bit::source::state, b});
  return r;
}
bem::write_spec writes(std::initializer_list<std::uint32_t> bits) {
  bem::write_spec w;
  for (auto b : bits) w.bits.push_back({b, bem::write_bit::mode::overwrite});
  return w;
}
/// gate fields: op, truth table, a, b, c.
gate g2(gate_op op, std::uint32_t a, std::uint32_t b) { return gate{op, 0, a, b, 0}; }

/// y = x0 & x1 written to `out`, in `gates` gates (1 or 3).
expert_t and_expert(std::uint32_t id, std::uint32_t out, int gates = 1) {
  std::vector<gate> g{g2(gate_op::and_, 0, 1)};
  if (gates == 3) g = {g2(gate_op::and_, 0, 1), g2(gate_op::or_, 2, 2), g2(gate_op::and_, 3, 2)};
  return {id_of(id), reads({0, 1}), bem::gate_list(2, g, {static_cast<std::uint32_t>(1 + g.size())}), writes({out})};
}
/// y = input `which` of (x0, x1, x2) copied to `out`, the expert reading s0, s1, s2.
expert_t copy_expert(std::uint32_t id, std::uint32_t which, std::uint32_t out) {
  return {id_of(id), reads({0, 1, 2}), bem::gate_list(3, {g2(gate_op::and_, which, which)}, {3}), writes({out})};
}
/// s3 = s0 ? s1 : s2 (a ternary mux gate).
expert_t mux_expert(std::uint32_t id) {
  return {id_of(id), reads({0, 1, 2}), bem::gate_list(3, {gate{gate_op::ternary, bem::ternary_tt::mux, 0, 1, 2}}, {3}),
          writes({3})};
}
/// Writes constant 1 to `out` (x | ~x over s0).
expert_t one_expert(std::uint32_t id, std::initializer_list<std::uint32_t> outs) {
  std::vector<std::uint32_t> o(outs.size(), 2);
  return {id_of(id), reads({0}), bem::gate_list(1, {g2(gate_op::not_, 0, 0), g2(gate_op::or_, 0, 1)}, o),
          [&] {
            bem::write_spec w;
            for (auto b : outs) w.bits.push_back({b, bem::write_bit::mode::overwrite});
            return w;
          }()};
}

machine_t make_machine() {
  machine_t m(bem::machine_config{});
  m.add_expert(and_expert(1, 2, 3));  // slot 0: s2 = s0 & s1, three gates
  m.add_expert(mux_expert(2));        // slot 1: s3 = s0 ? s1 : s2
  m.add_expert(copy_expert(3, 0, 4)); // slot 2: s4 = s0
  m.add_expert(copy_expert(4, 0, 4)); // slot 3: s4 = s0 as well (a twin of slot 2)
  return m;
}

/// Every patch event of the log for patch `id`: (state, rejection).
std::vector<std::pair<bem::patch_state, bem::patch_rejection>> events(const machine_t& m, std::uint64_t id) {
  std::vector<std::pair<bem::patch_state, bem::patch_rejection>> out;
  for (std::size_t k = 0; k < m.log().size(); ++k) {
    const auto& e = m.log().entry(k);
    if (e.kind != bem::patch_event_kind) continue;
    if (bem::detail::get_le(e.payload, 0, 8) != id) continue;
    out.emplace_back(static_cast<bem::patch_state>(e.payload[9]), static_cast<bem::patch_rejection>(e.payload[10]));
  }
  return out;
}

/// The counterexample logged with patch `id`'s rejection: (bit, value) pairs.
std::vector<std::pair<std::uint32_t, bool>> logged_counterexample(const machine_t& m, std::uint64_t id) {
  for (std::size_t k = 0; k < m.log().size(); ++k) {
    const auto& e = m.log().entry(k);
    if (e.kind != bem::patch_event_kind || bem::detail::get_le(e.payload, 0, 8) != id) continue;
    if (static_cast<bem::patch_state>(e.payload[9]) != bem::patch_state::rejected || e.payload.size() < 16) continue;
    std::vector<std::pair<std::uint32_t, bool>> cx;
    const std::size_t n = bem::detail::get_le(e.payload, 12, 4);
    for (std::size_t i = 0; i < n; ++i)
      cx.emplace_back(static_cast<std::uint32_t>(bem::detail::get_le(e.payload, 16 + 5 * i, 4)), e.payload[20 + 5 * i] != 0);
    return cx;
  }
  return {};
}

bool value_in(const std::vector<std::pair<std::uint32_t, bool>>& cx, std::uint32_t bit) {
  for (const auto& [b, v] : cx)
    if (b == bit) return v;
  FAIL("bit ", bit, " is not in the counterexample");
  return false;
}

}  // namespace

TEST_CASE("one patch of each class is verified, accepted and applied") {
  machine_t m = make_machine();
  bem::verified_program prog;
  prog.init = !bem::state_bit(7) && !bem::state_bit(6);
  slow_t slow(m, {}, prog);

  SUBCASE("circuit_superopt: a 1-gate AND replaces the 3-gate one") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::circuit_superopt;
    p.slot = 0;
    p.experts.push_back(and_expert(1, 2, 1));
    const auto& r = slow.decide(p);
    CHECK(r.state == bem::patch_state::accepted);
    CHECK(m.expert_at(0).circuit().gate_count() == 1);
    CHECK(r.pox.dC == doctest::Approx(2.0 / 3.0));
    CHECK(r.vcs.size() == 3);
    CHECK(r.vcs[0].answer == bem::vc_answer::holds);
    CHECK(r.vcs[1].answer == bem::vc_answer::not_applicable);  // implied by equivalence everywhere
    CHECK(slow.last_apply_work() == bem::apply_work{1, 1, 0, 0});
    CHECK(events(m, r.id) == std::vector<std::pair<bem::patch_state, bem::patch_rejection>>{
                                 {bem::patch_state::generated, bem::patch_rejection::none},
                                 {bem::patch_state::queued, bem::patch_rejection::none},
                                 {bem::patch_state::verified, bem::patch_rejection::none},
                                 {bem::patch_state::accepted, bem::patch_rejection::none}});
  }
  SUBCASE("macro_refine: equal on its domain s0, different elsewhere") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::macro_refine;
    p.slot = 0;
    p.experts.push_back({id_of(1), reads({0, 1}), bem::gate_list(2, {g2(gate_op::and_, 1, 1)}, {2}), writes({2})});
    p.domains = {bem::state_bit(0)};  // s2 = s1 agrees with s0 & s1 where s0 holds
    CHECK(slow.decide(p).state == bem::patch_state::accepted);
    // Everywhere it would not agree: a refinement without a domain is refused.
    p.domains.clear();
    p.slot = 0;
    p.experts[0] = {id_of(1), reads({0, 1}), bem::gate_list(2, {g2(gate_op::or_, 0, 1)}, {2}), writes({2})};
    CHECK(slow.decide(p).state == bem::patch_state::rejected);
  }
  SUBCASE("expert_split: the mux splits on s0 into its two cofactors") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::expert_split;
    p.slot = 1;
    p.experts = {copy_expert(20, 1, 3), copy_expert(21, 2, 3)};
    p.domains = {bem::state_bit(0), !bem::state_bit(0)};
    p.reward_gain = 0.5;  // a larger structure: the proposer must expect a gain (PoX)
    const auto& r = slow.decide(p);
    INFO(r.reason);
    REQUIRE(r.state == bem::patch_state::accepted);
    CHECK_FALSE(m.slot_live(1));
    CHECK(m.slot_of(id_of(20)).has_value());
    CHECK(m.slot_of(id_of(21)).has_value());
    CHECK(m.router().size() == 5);
    CHECK(slow.last_apply_work() == bem::apply_work{2, 2, 3, 0});
  }
  SUBCASE("expert_merge: two experts with one function become one") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::expert_merge;
    p.slot = 2;
    p.other_slot = 3;
    const auto& r = slow.decide(p);
    CHECK(r.state == bem::patch_state::accepted);
    CHECK_FALSE(m.slot_live(3));
    CHECK(r.pox.dS > 0);
  }
  SUBCASE("macro_create: a fused expert equal to running its parts in order") {
    // Parts: s4 = s0 (slot 2), then s5 = s4 (a new helper's effect, via a
    // macro of one more part: slot 0, s2 = s0 & s1).
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::macro_create;
    p.parts = {2, 0};
    p.experts.push_back({id_of(30), reads({0, 1}),
                         bem::gate_list(2, {g2(gate_op::and_, 0, 0), g2(gate_op::and_, 0, 1)}, {2, 3}),
                         writes({4, 2})});
    p.reward_gain = 0.3;
    const auto& r = slow.decide(p);
    CHECK(r.state == bem::patch_state::accepted);
    CHECK(m.slot_of(id_of(30)).has_value());
  }
  SUBCASE("invariant_add, then invariant_strengthen") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::invariant_add;
    p.invariant = !bem::state_bit(7);  // no expert writes s7; Init has it clear
    const auto& r = slow.decide(p);
    REQUIRE(r.state == bem::patch_state::accepted);
    CHECK(r.pox.dI == 1.0);
    CHECK(slow.program().locations[0].annotation == !bem::state_bit(7));
    p.kind = bem::patch_class::invariant_strengthen;
    p.invariant = !bem::state_bit(7) && !bem::state_bit(6);
    CHECK(slow.decide(p).state == bem::patch_state::accepted);
    CHECK(slow.program().locations[0].annotation == (!bem::state_bit(7) && !bem::state_bit(6)));
  }
  SUBCASE("ann_reindex: the index rebuilt with four tables holds the same experts") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::ann_reindex;
    p.index = bem::multi_index_config{4, 15, bem::probe_until_exact};
    const auto& r = slow.decide(p);
    CHECK(r.state == bem::patch_state::accepted);
    CHECK(m.router().configuration().tables == 4);
    CHECK(m.router().size() == 4);
    CHECK(slow.last_apply_work().router_rebuilds == 1);
  }
  SUBCASE("route_meta_update: k_large 8 within the bounds") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::route_meta_update;
    p.meta = m.config();
    p.meta.k_large = 8;
    CHECK(slow.decide(p).state == bem::patch_state::accepted);
    CHECK(m.config().k_large == 8);
  }
  CHECK(slow.counters().accepted >= 1);
  CHECK(m.log().verify() == bem::trace_log::npos);
}

TEST_CASE("every kind of verification condition rejects an unsafe patch, its counterexample logged") {
  machine_t m = make_machine();
  bem::verified_program prog;
  prog.init = !bem::state_bit(7) && !bem::state_bit(6) && !bem::state_bit(5);
  prog.bad = bem::state_bit(6) && bem::state_bit(5);
  slow_t slow(m, {}, prog);
  // No expert of make_machine writes s5, s6 or s7: this invariant is
  // inductive, initial and excludes BAD.
  const bem::state_predicate safe = !bem::state_bit(7) && !(bem::state_bit(6) && bem::state_bit(5));

  SUBCASE("equivalence: an OR offered as the AND") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::circuit_superopt;
    p.slot = 0;
    p.experts.push_back({id_of(1), reads({0, 1}), bem::gate_list(2, {g2(gate_op::or_, 0, 1)}, {2}), writes({2})});
    const auto& r = slow.decide(p);
    REQUIRE(r.state == bem::patch_state::rejected);
    CHECK(r.rejection == bem::patch_rejection::vc_fails);
    REQUIRE_FALSE(r.vcs.empty());
    CHECK(r.vcs.back().kind == bem::vc_kind::equivalence);
    const auto cx = logged_counterexample(m, r.id);
    CHECK(cx == r.vcs.back().counterexample);
    CHECK(value_in(cx, 0) != value_in(cx, 1));  // where AND and OR differ
  }
  SUBCASE("consecution: a new expert breaks the annotation") {
    bem::patch<bem::gate_list> add;
    add.kind = bem::patch_class::invariant_add;
    add.invariant = safe;
    REQUIRE(slow.decide(add).state == bem::patch_state::accepted);
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::macro_create;
    p.experts.push_back(copy_expert(40, 0, 7));  // s7 = s0
    p.reward_gain = 0.5;
    const auto& r = slow.decide(p);
    REQUIRE(r.state == bem::patch_state::rejected);
    REQUIRE_FALSE(r.vcs.empty());
    CHECK(r.vcs.back().kind == bem::vc_kind::consecution);
    const auto cx = logged_counterexample(m, r.id);
    CHECK(value_in(cx, 0));         // s0 = 1 sets s7
    CHECK_FALSE(value_in(cx, 7));   // from a state where the invariant held
  }
  SUBCASE("bad_reach: a new expert sets BAD") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::macro_create;
    p.experts.push_back(one_expert(41, {6, 5}));
    p.reward_gain = 0.5;
    const auto& r = slow.decide(p);
    REQUIRE(r.state == bem::patch_state::rejected);
    REQUIRE_FALSE(r.vcs.empty());
    CHECK(r.vcs.back().kind == bem::vc_kind::bad_reach);
    CHECK_FALSE(logged_counterexample(m, r.id).empty());
  }
  SUBCASE("initiation: an invariant the initial states do not satisfy") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::invariant_add;
    p.invariant = bem::state_bit(7);
    const auto& r = slow.decide(p);
    REQUIRE(r.state == bem::patch_state::rejected);
    REQUIRE_FALSE(r.vcs.empty());
    CHECK(r.vcs.back().kind == bem::vc_kind::initiation);
    CHECK_FALSE(value_in(logged_counterexample(m, r.id), 7));
  }
  SUBCASE("safety: an annotation that admits BAD") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::invariant_add;
    p.invariant = !bem::state_bit(7) || bem::state_bit(0);  // inductive, and says nothing of s5, s6
    const auto& r = slow.decide(p);
    REQUIRE(r.state == bem::patch_state::rejected);
    REQUIRE_FALSE(r.vcs.empty());
    CHECK(r.vcs.back().kind == bem::vc_kind::safety);
    const auto cx = logged_counterexample(m, r.id);
    CHECK(value_in(cx, 5));
    CHECK(value_in(cx, 6));
  }
  SUBCASE("implication: a 'strengthening' that does not imply the annotation") {
    bem::patch<bem::gate_list> add;
    add.kind = bem::patch_class::invariant_add;
    add.invariant = safe;
    REQUIRE(slow.decide(add).state == bem::patch_state::accepted);
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::invariant_strengthen;
    p.invariant = !(bem::state_bit(6) && bem::state_bit(5));
    const auto& r = slow.decide(p);
    REQUIRE(r.state == bem::patch_state::rejected);
    REQUIRE_FALSE(r.vcs.empty());
    CHECK(r.vcs.back().kind == bem::vc_kind::implication);
    CHECK(value_in(logged_counterexample(m, r.id), 7));
  }
  SUBCASE("meta_bounds: k_small = 5, and a k_large past the fast-path budget") {
    bem::patch<bem::gate_list> p;
    p.kind = bem::patch_class::route_meta_update;
    p.meta = m.config();
    p.meta.k_small = 5;
    const auto& r = slow.decide(p);
    REQUIRE(r.state == bem::patch_state::rejected);
    REQUIRE_FALSE(r.vcs.empty());
    CHECK(r.vcs.back().kind == bem::vc_kind::meta_bounds);
    bem::slow_path_config tight;
    tight.limits.fast_path_budget = 4096 + 15;  // G_max = 4096: k_large 16 + 1 * 4096 is one too many
    slow_t strict(m, tight, prog);
    p.meta.k_small = 1;
    CHECK(strict.decide(p).state == bem::patch_state::rejected);
    p.meta.k_large = 15;
    CHECK(strict.decide(p).state == bem::patch_state::accepted);
  }
  SUBCASE("index: a table and an index that differ by one identifier") {
    bem::vc_engine<bem::prover::cdcl_solver, bem::gate_list> engine(prog, {});
    const std::vector<bem::identifier> table{id_of(1), id_of(2), id_of(3)};
    const std::vector<bem::identifier> index{id_of(1), id_of(3)};
    const auto v = engine.index_equality(table, index);
    CHECK(v.kind == bem::vc_kind::index);
    CHECK(v.answer == bem::vc_answer::fails);
    CHECK(engine.index_equality(table, table).answer == bem::vc_answer::holds);
  }
  CHECK(m.log().verify() == bem::trace_log::npos);
}

TEST_CASE("obligations are first refuted on earlier counterexamples' states; what holds is proved by SAT") {
  bem::verified_program prog;
  prog.bad = bem::state_bit(5);
  prog.locations[0].annotation = !bem::state_bit(5);
  bem::vc_engine<bem::prover::cdcl_solver, bem::gate_list> engine(prog, {});
  const auto bit = [](const bem::vc_report& v, std::uint32_t b) { return value_in(v.counterexample, b); };
  // s5 = s0 & s1: only SAT finds s0 = s1 = 1 (the pool's one state, all zero, does not reach BAD).
  const auto first = engine.bad_reach(and_expert(10, 5));
  REQUIRE(first.answer == bem::vc_answer::fails);
  CHECK_FALSE(first.by_simulation);
  CHECK(first.sat_calls == 1);
  CHECK((bit(first, 0) && bit(first, 1) && !bit(first, 5)));
  // s5 = s0 fails on that state: no SAT call, the same kind of counterexample.
  const auto second = engine.bad_reach(copy_expert(11, 0, 5));
  REQUIRE(second.answer == bem::vc_answer::fails);
  CHECK(second.by_simulation);
  CHECK(second.sat_calls == 0);
  CHECK((bit(second, 0) && !bit(second, 5)));
  // Writing s6 never reaches BAD: simulation finds nothing, SAT proves it.
  const auto third = engine.bad_reach(and_expert(12, 6));
  CHECK(third.answer == bem::vc_answer::holds);
  CHECK_FALSE(third.by_simulation);
  CHECK(third.sat_calls == 1);
  // Consecution and equivalence take the same path.
  CHECK(engine.consecution(copy_expert(13, 1, 5)).by_simulation);
  const auto differ = engine.equivalence(copy_expert(14, 0, 4), copy_expert(15, 1, 4), bem::state_predicate{});
  REQUIRE(differ.answer == bem::vc_answer::fails);
  CHECK(bit(differ, 0) != bit(differ, 1));
  CHECK(engine.equivalence(copy_expert(16, 0, 4), copy_expert(17, 0, 4), bem::state_predicate{}).answer ==
        bem::vc_answer::holds);
}

TEST_CASE("malformed patches, PoX below the difficulty and budgets are refused with their reasons") {
  machine_t m = make_machine();
  bem::slow_path_config cfg;
  cfg.pox.difficulty = 0.1;
  cfg.proposal_budget_per_million = 4;
  slow_t slow(m, cfg);
  bem::patch<bem::gate_list> p;
  p.kind = bem::patch_class::circuit_superopt;
  p.slot = 9;  // no such slot
  p.experts.push_back(and_expert(1, 2, 1));
  const auto& bad = slow.decide(p);
  CHECK(bad.rejection == bem::patch_rejection::malformed);
  CHECK(bad.reason == "slot 9 holds no live expert");
  p.slot = 0;
  p.experts[0] = and_expert(99, 2, 1);  // another identifier
  CHECK(slow.decide(p).reason == "a replacement keeps the slot's identifier");
  // The same circuit again: dC = 0 and dR = 0 score 0 < D.
  p.experts[0] = and_expert(1, 2, 3);
  const auto& low = slow.decide(p);
  CHECK(low.rejection == bem::patch_rejection::pox_below_difficulty);
  CHECK(low.sat_calls == 0);
  p.experts[0] = and_expert(1, 2, 1);
  CHECK(slow.decide(p).state == bem::patch_state::accepted);
  // The fifth proposal in this block of 10^6 steps is over the budget.
  CHECK(slow.decide(p).rejection == bem::patch_rejection::proposal_budget);
  CHECK(slow.counters().proposed == 5);
  CHECK(slow.counters().rejected == 4);
}

TEST_CASE("the queue serves priority first, within the verification credit earned by steps") {
  machine_t m = make_machine();
  bem::slow_path_config cfg;
  cfg.verification_units_per_step = 10;
  slow_t slow(m, cfg);
  bem::patch<bem::gate_list> merge;
  merge.kind = bem::patch_class::expert_merge;
  merge.slot = 2;
  merge.other_slot = 3;
  bem::patch<bem::gate_list> opt;
  opt.kind = bem::patch_class::circuit_superopt;
  opt.slot = 0;
  opt.experts.push_back(and_expert(1, 2, 1));
  const auto merge_id = slow.submit(merge);
  const auto opt_id = slow.submit(opt);
  CHECK(slow.queued() == 2);
  CHECK(slow.process() == 0);  // no credit yet
  for (int t = 0; t < 1000; ++t) {
    m.step({0, static_cast<std::uint64_t>(t), 0, 0});
    slow.on_step();
  }
  CHECK(slow.process(1) == 1);
  // The superopt (score 2/3 + a smaller structure, cheap) outranks the merge.
  REQUIRE(slow.record(opt_id) != nullptr);
  CHECK(slow.record(merge_id) == nullptr);
  CHECK(slow.process() == 1);
  CHECK(slow.record(merge_id)->state == bem::patch_state::accepted);
  CHECK(slow.verification_credit() < 10000);  // charged what was built
}

TEST_CASE("degraded mode stops patches while performance drops without PoX yield; suspension stops applying") {
  machine_t m = make_machine();
  bem::slow_path_config cfg;
  cfg.window_steps = 10;
  slow_t slow(m, cfg);
  const auto run_window = [&](double perf) {
    for (int t = 0; t < 10; ++t) {
      m.step({0, 1, 0, 0});
      slow.report_performance(perf);
      slow.on_step();
    }
  };
  run_window(1.0);
  run_window(0.2);  // a drop, and no patch applied: yield 0
  CHECK(slow.degraded());
  bem::patch<bem::gate_list> opt;
  opt.kind = bem::patch_class::circuit_superopt;
  opt.slot = 0;
  opt.experts.push_back(and_expert(1, 2, 1));
  const auto id = slow.submit(opt);
  CHECK(slow.process() == 0);
  run_window(0.2);  // no further drop: back to normal
  CHECK_FALSE(slow.degraded());
  CHECK(slow.process() == 1);
  CHECK(slow.record(id)->state == bem::patch_state::accepted);

  // A safety violation suspends application; the verified patch waits.
  slow.report_safety_violation();
  CHECK(slow.suspended());
  bem::patch<bem::gate_list> merge;
  merge.kind = bem::patch_class::expert_merge;
  merge.slot = 2;
  merge.other_slot = 3;
  const auto& waiting = slow.decide(merge);
  CHECK(waiting.state == bem::patch_state::verified);
  CHECK(slow.waiting() == 1);
  CHECK(m.slot_live(3));
  run_window(0.2);  // a window without violations ends the suspension
  CHECK_FALSE(slow.suspended());
  CHECK_FALSE(m.slot_live(3));
  // Mode changes are logged: degraded on, off; suspended on, off.
  std::vector<int> modes;
  for (std::size_t k = 0; k < m.log().size(); ++k)
    if (m.log().entry(k).kind == bem::slow_mode_kind) modes.push_back(m.log().entry(k).payload[0]);
  CHECK(modes == std::vector<int>{1, 0, 3, 2});
}

TEST_CASE("snapshots: rollback returns the configuration; a snapshot of another machine or a corrupt one is refused") {
  machine_t m = make_machine();
  bem::verified_program prog;
  prog.init = !bem::state_bit(7);
  slow_t slow(m, {}, prog);
  const auto before = slow.snapshot();
  bem::patch<bem::gate_list> split;
  split.kind = bem::patch_class::expert_split;
  split.slot = 1;
  split.experts = {copy_expert(20, 1, 3), copy_expert(21, 2, 3)};
  split.domains = {bem::state_bit(0), !bem::state_bit(0)};
  split.reward_gain = 0.5;
  REQUIRE(slow.decide(split).state == bem::patch_state::accepted);
  bem::patch<bem::gate_list> add;
  add.kind = bem::patch_class::invariant_add;
  add.invariant = !bem::state_bit(7);
  REQUIRE(slow.decide(add).state == bem::patch_state::accepted);
  const auto after = slow.snapshot();
  slow.rollback(before);
  CHECK(m.slot_live(1));
  CHECK_FALSE(m.slot_of(id_of(20)).has_value());
  CHECK(m.router().size() == 4);
  CHECK(slow.program().locations[0].annotation == bem::state_predicate{});
  slow.rollback(after);
  CHECK_FALSE(m.slot_live(1));
  CHECK(m.slot_of(id_of(21)).has_value());
  CHECK(slow.program().locations[0].annotation == !bem::state_bit(7));
  CHECK(slow.counters().rollbacks == 2);
  // The machine still steps and routes on the restored table.
  CHECK_FALSE(m.step({0, 3, 0, 0}).empty());

  // Resume into a fresh machine of the same configuration.
  machine_t fresh(bem::machine_config{});
  slow_t other(fresh);
  other.restore(slow.snapshot_bytes(after));
  CHECK(fresh.expert_count() == m.expert_count());
  CHECK(fresh.expert_at(*fresh.slot_of(id_of(20))).circuit().gate_count() == 1);

  // Another configuration: named.
  bem::machine<16, 64, 64> wider(bem::machine_config{});
  bem::slow_path<bem::machine<16, 64, 64>> wide(wider);
  CHECK_THROWS_WITH_AS(wide.restore(slow.snapshot_bytes(after)),
                       "snapshot from another configuration: N = 8 in the snapshot, 16 here", bem::snapshot_error);
  // Corrupt and truncated bytes, and bytes that are not a snapshot.
  std::vector<std::uint8_t> bytes = slow.snapshot_bytes(after);
  bytes[bytes.size() / 2] ^= 0x10;
  CHECK_THROWS_WITH_AS(other.restore(bytes), doctest::Contains("corrupt"), bem::snapshot_error);
  const std::vector<std::uint8_t> text{'h', 'e', 'l', 'l', 'o'};
  CHECK_THROWS_WITH_AS(other.restore(text), doctest::Contains("not a machine snapshot"), bem::snapshot_error);
  // Snapshots and restores are logged with their digests.
  std::size_t logged = 0;
  for (std::size_t k = 0; k < m.log().size(); ++k)
    logged += m.log().entry(k).kind == bem::snapshot_kind || m.log().entry(k).kind == bem::restore_kind;
  CHECK(logged == 4);
  CHECK_THROWS_AS(slow.rollback(999), std::out_of_range);
}

TEST_CASE("the slow path's §6.1 settings, and patches that change the structure under a queued one") {
  machine_t m = make_machine();
  slow_t slow(m);
  const std::string json = slow.configuration_json();
  for (const char* key : {"\"patch_budget_per_million_steps\":10000", "\"pox_difficulty_D\":0", "\"sat_n_max\":262144",
                          "\"delta_safe\":0", "\"pox_w_R\":1"})
    CHECK_MESSAGE(json.find(key) != std::string::npos, key, " in ", json);
  // A superopt of slot 3 queued, then slot 3 merged away: the superopt is stale.
  bem::patch<bem::gate_list> opt;
  opt.kind = bem::patch_class::circuit_superopt;
  opt.slot = 3;
  opt.experts.push_back(copy_expert(4, 0, 4));
  opt.reward_gain = 0.01;
  const auto queued = slow.submit(opt);
  bem::patch<bem::gate_list> merge;
  merge.kind = bem::patch_class::expert_merge;
  merge.slot = 2;
  merge.other_slot = 3;
  REQUIRE(slow.decide(merge).state == bem::patch_state::accepted);
  for (int t = 0; t < 10; ++t) slow.on_step();  // credit to verify the queued one
  slow.process();
  REQUIRE(slow.record(queued) != nullptr);
  CHECK(slow.record(queued)->rejection == bem::patch_rejection::stale);
}

}  // namespace slow_path_test
