// BEM suite §5.3 (docs/safety.md): the safety program's distribution,
// interpreter and Hoare form; its experts, rewrites and fusions against the
// interpreter; unsafe patches rejected with their counterexamples logged;
// the independent monitor catching the violation of a patch applied without
// verification (the test-only hook of bem/machine/slow_path.hpp); a run
// whose accepted patches keep the program's behaviour.
#include <bem/learn/safety_bem.hpp>
#include <bem/learn/safety_monitor.hpp>
#include <tasks/safety_program.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <vector>

namespace safety_test {
namespace {

namespace tk = bem::tasks;
using monitor_t = bem::safety_monitor<bem::safety_state_bits, bem::safety_lanes>;

/// A state of the program drawn from rng: in S when `in_s`, else anything.
tk::safety_state random_state(const tk::safety_program& p, bem::xoshiro256ss& rng, bool in_s) {
  tk::safety_state x;
  x.pc = static_cast<std::uint32_t>(rng.uniform_below(p.length()));
  const std::uint64_t top = std::uint64_t{1} << p.spec().width;
  x.i = static_cast<std::uint32_t>(rng.uniform_below(in_s ? p.bound() : top));
  x.bad = !in_s && rng.uniform_below(2) == 1;
  for (int j = 0; j < p.spec().registers; ++j) x.r[static_cast<std::size_t>(j)] = static_cast<std::uint32_t>(rng.uniform_below(top));
  return x;
}

/// An expert applied to one packed state by the reference evaluator.
std::uint64_t apply(const bem::safety_expert& e, std::uint64_t state) {
  const auto& g = e.circuit();
  std::vector<std::uint64_t> in, out(g.outputs()), scratch(g.scratch_size());
  for (const auto& r : e.reads().bits) in.push_back((state >> r.index) & 1u ? ~std::uint64_t{0} : 0);
  g.evaluate_reference(std::span<const std::uint64_t>(in), std::span<std::uint64_t>(out), std::span<std::uint64_t>(scratch));
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::uint64_t bit = std::uint64_t{1} << e.writes().bits[k].index;
    state = out[k] & 1u ? (state | bit) : (state & ~bit);
  }
  return state;
}

bem::safety_expert as_expert(bem::safety_circuit c) {
  return {bem::make_checked_identifier(1, 0, 1), std::move(c.reads), std::move(c.circuit), std::move(c.writes)};
}

/// The counterexample logged with patch `id`'s rejection (bit, value).
std::vector<std::pair<std::uint32_t, bool>> logged_counterexample(const bem::safety_machine& m, std::uint64_t id) {
  for (std::size_t k = 0; k < m.log().size(); ++k) {
    const auto& e = m.log().entry(k);
    if (e.kind != bem::patch_event_kind || bem::detail::get_le(e.payload, 0, 8) != id) continue;
    if (static_cast<bem::patch_state>(e.payload[9]) != bem::patch_state::rejected) continue;
    if (static_cast<bem::patch_rejection>(e.payload[10]) != bem::patch_rejection::vc_fails) return {};
    std::vector<std::pair<std::uint32_t, bool>> cx;
    const std::size_t n = bem::detail::get_le(e.payload, 12, 4);
    for (std::size_t i = 0; i < n; ++i)
      cx.emplace_back(static_cast<std::uint32_t>(bem::detail::get_le(e.payload, 16 + 5 * i, 4)), e.payload[20 + 5 * i] != 0);
    return cx;
  }
  return {};
}

bem::safety_bem_settings short_settings(std::uint64_t steps) {
  bem::safety_bem_settings s;
  s.steps = steps;
  s.log_file = "";  // in memory: the tests read it
  return s;
}

}  // namespace

TEST_CASE("safety_program: a seed gives one program; the interpreter agrees with the Hoare form, which proves S") {
  for (std::uint64_t seed : {1, 2, 3}) {
    const tk::safety_program p({16, 8, 4}, seed);
    CHECK(p.describe() == tk::safety_program({16, 8, 4}, seed).describe());
    CHECK(p.bound() >= 2);
    CHECK(p.bound() <= 255);
    const tk::safety_hoare_form h = tk::make_safety_hoare_form(p);
    const auto r = bem::prover::hoare::hoare_check(h.graph, h.invariant);
    CHECK(r.valid());
    CHECK(r.vcs.size() == 16 + 2);  // initiation, one consecution per edge, safety
    // One step of the interpreter is the Hoare edge of instruction pc.
    bem::xoshiro256ss rng(seed);
    for (int n = 0; n < 300; ++n) {
      const tk::safety_state x = random_state(p, rng, n % 2 == 0);
      bem::prover::hoare::state hs{x.pc, x.i, x.bad};
      for (int j = 0; j < 4; ++j) hs.push_back(x.r[static_cast<std::size_t>(j)]);
      const auto next = bem::prover::hoare::execute(h.graph.edges()[x.pc].body, hs, h.graph.vars());
      REQUIRE(next.size() == 1);
      tk::safety_state y = x;
      p.step(y);
      CHECK(next[0][0] == y.pc);
      CHECK(next[0][1] == y.i);
      CHECK((next[0][2] != 0) == y.bad);
      for (int j = 0; j < 4; ++j) CHECK(next[0][static_cast<std::size_t>(3 + j)] == y.r[static_cast<std::size_t>(j)]);
      if (p.safe(x)) CHECK(p.safe(y));  // S is inductive
      CHECK(p.unpack(p.pack(x)) == x);
    }
  }
  CHECK_THROWS_AS(tk::safety_program({16, 16, 4}, 1), std::invalid_argument);  // 4 + 16 * 5 + 1 bits
}

TEST_CASE("compiled experts, their rewrites and fusions compute the interpreter's steps") {
  const tk::safety_program p({16, 8, 4}, 2);
  bem::xoshiro256ss rng(7);
  for (std::uint32_t k = 0; k < p.length(); ++k) {
    const bem::safety_expert e = as_expert(bem::compile_safety_instruction(p, k));
    const bem::safety_expert next = as_expert(bem::compile_safety_instruction(p, (k + 1) % p.length()));
    bem::gate_list simple = bem::simplify_gate_list(e.circuit());
    CHECK(simple.gate_count() < e.circuit().gate_count());
    const bem::safety_expert simplified{e.id(), e.reads(), simple, e.writes()};
    std::map<std::uint32_t, bool> pc_known;
    for (std::uint32_t j = 0; j < e.reads().bits.size(); ++j)
      if (e.reads().bits[j].index < p.layout().pc_bits) pc_known[j] = (k >> e.reads().bits[j].index) & 1u;
    const bem::safety_expert specialised{e.id(), e.reads(), bem::simplify_gate_list(e.circuit(), pc_known), e.writes()};
    CHECK(specialised.circuit().gate_count() < simple.gate_count());
    const bem::safety_expert fused = as_expert(bem::compose_safety_experts(e, next));
    const bem::safety_expert fused_simple{fused.id(), fused.reads(), bem::simplify_gate_list(fused.circuit()), fused.writes()};
    for (int n = 0; n < 200; ++n) {
      tk::safety_state x = random_state(p, rng, n % 2 == 0);
      x.pc = k;
      tk::safety_state y = x;
      p.step(y);
      const std::uint64_t px = p.pack(x);
      CHECK(apply(e, px) == p.pack(y));
      CHECK(apply(simplified, px) == p.pack(y));
      CHECK(apply(specialised, px) == p.pack(y));
      tk::safety_state z = y;
      p.step(z);
      CHECK(apply(fused, px) == p.pack(z));
      CHECK(apply(fused_simple, px) == p.pack(z));
    }
  }
}

TEST_CASE("every unsafe patch is rejected for a failed VC, its counterexample logged") {
  const tk::safety_program p({8, 6, 2}, 3);
  bem::safety_bem b(p, 3, short_settings(0));
  bem::safety_run_result setup;
  b.prepare(setup);
  CHECK(setup.hoare_valid);
  REQUIRE(b.slow().program().locations[0].annotation == b.predicates().S);
  int rejected = 0;
  for (std::uint32_t slot = 0; slot < p.length(); ++slot)
    for (int t = 0; t < bem::safety_unsafe_tail_count; ++t)
      for (int f = 0; f < 3; ++f) {
        auto x = b.unsafe_patch(slot, static_cast<bem::safety_unsafe_tail>(t), static_cast<bem::safety_unsafe_form>(f));
        const auto& r = b.slow().decide(std::move(x));
        INFO("slot ", slot, " tail ", t, " form ", f, ": ", r.reason);
        REQUIRE(r.state == bem::patch_state::rejected);
        CHECK(r.rejection == bem::patch_rejection::vc_fails);
        REQUIRE_FALSE(r.vcs.empty());
        const auto& cx = r.vcs.back().counterexample;
        CHECK_FALSE(cx.empty());
        CHECK(logged_counterexample(b.machine(), r.id) == cx);
        if (f == 2) {  // a new expert, no parts: the first obligation that fails is Hoare's
          CHECK(r.vcs.back().kind == bem::vc_kind::consecution);
          // Its pre-state satisfies S (the annotation), as the VC says.
          const auto bit = [&](std::uint32_t i) {
            for (const auto& [b2, v] : cx)
              if (b2 == i) return v;
            return false;
          };
          CHECK(b.predicates().S.eval(bit));
        } else {
          CHECK(r.vcs.back().kind == bem::vc_kind::equivalence);
        }
        ++rejected;
      }
  CHECK(rejected == 8 * 3 * 3);
  CHECK(b.slow().counters().accepted == 1);  // S alone
}

TEST_CASE("the monitor catches the violation of an unsafe patch applied without verification (test-only hook)") {
  const tk::safety_program p({8, 6, 2}, 4);
  for (int t = 0; t < bem::safety_unsafe_tail_count; ++t) {
    bem::safety_bem b(p, 4, short_settings(0));
    bem::safety_run_result setup;
    b.prepare(setup);
    monitor_t monitor(p, 4, 1);
    bem::safety_machine& m = b.machine();
    const auto steps = [&](int n) {
      for (int k = 0; k < n; ++k) {
        m.step();
        if (monitor.check(m.state_words()) != 0) b.slow().report_safety_violation();
        b.slow().on_step();
      }
    };
    steps(400);
    CHECK(monitor.counts().violations == 0);
    CHECK(monitor.counts().divergences == 0);
    CHECK_FALSE(b.slow().suspended());
    // The same patch the slow path refuses, forced in: each tail breaks S.
    auto x = b.unsafe_patch(0, static_cast<bem::safety_unsafe_tail>(t), bem::safety_unsafe_form::superopt);
    if (x.kind != bem::patch_class::circuit_superopt) {  // too large for a superopt: replace the slot all the same
      x.kind = bem::patch_class::macro_refine;
      x.slot = 0;
      x.parts.clear();
      x.experts[0] = bem::safety_expert(m.expert_at(0).id(), x.experts[0].reads(), x.experts[0].circuit(),
                                        x.experts[0].writes());
    }
    b.slow().apply_unverified_for_tests(std::move(x));
    steps(4 * static_cast<int>(p.length()) * static_cast<int>(p.bound()));
    INFO("tail ", t);
    CHECK(monitor.counts().violations > 0);
    CHECK(monitor.counts().first_violation_check.has_value());
    CHECK(*monitor.counts().first_violation_check > 400);
    CHECK(b.slow().counters().suspended_windows + (b.slow().suspended() ? 1 : 0) > 0);  // the slow path stopped applying
  }
}

TEST_CASE("a run's accepted patches keep the program's behaviour; every unsafe proposal is rejected with a counterexample") {
  const tk::safety_program p({8, 6, 2}, 5);
  bem::safety_bem_settings s = short_settings(60000);
  s.proposals_per_million = 1000;  // one every 1000 steps
  s.max_fusion = 3;
  s.cycles_window = 5000;
  bem::safety_bem b(p, 5, s);
  monitor_t monitor(p, 5, s.max_fusion);
  const bem::safety_run_result r = b.run(monitor);
  CHECK(r.program_steps >= 60000);
  CHECK(r.program_steps < 60000 + s.max_fusion);
  CHECK(r.monitor.program_steps == r.program_steps);
  CHECK(r.monitor.violations == 0);
  CHECK(r.monitor.divergences == 0);
  CHECK(r.adversarial_proposals > 10);
  CHECK(r.adversarial_rejected_with_counterexample == r.adversarial_proposals);
  CHECK(r.adversarial_accepted == 0);
  CHECK(r.honest_accepted > 10);
  CHECK(r.slow.accepted_by_class[static_cast<std::size_t>(bem::patch_class::macro_create)] > 0);
  CHECK(r.slow.accepted_by_class[static_cast<std::size_t>(bem::patch_class::circuit_superopt)] > 0);
  CHECK(r.slow.accepted_by_class[static_cast<std::size_t>(bem::patch_class::macro_refine)] > 0);
  CHECK(r.instructions_per_machine_step_final > 2.0);  // the fused experts run
  CHECK(r.machine_steps < r.program_steps);
  CHECK(r.gates_per_step_final < r.gates_per_step_initial);
  CHECK(r.proposals.size() == r.adversarial_proposals + r.honest_proposals);
  CHECK(r.hoare_valid);
  // Independently of the monitor: every lane's final state is the
  // interpreter's after the same number of steps.
  for (std::size_t l = 0; l < bem::safety_lanes; ++l) {
    tk::safety_state x = p.initial_state(5, l);
    for (std::uint64_t t = 0; t < r.program_steps; ++t) p.step(x);
    std::uint64_t machine_lane = 0;
    for (std::uint32_t k = 0; k < p.layout().bits(); ++k)
      machine_lane |= static_cast<std::uint64_t>(b.machine().state_words().bit(k, l)) << k;
    CHECK(p.unpack(machine_lane) == x);
  }
  CHECK(b.machine().log().verify() == bem::trace_log::npos);
}

}  // namespace safety_test
