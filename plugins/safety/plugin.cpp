// BEM suite section 5.3, the safety-constrained program with verified
// optimisation, as the benchmark `safety_program` (docs/safety.md): the
// program of tasks/safety_program.hpp runs for T_large steps as experts of a
// bem::machine (bem/learn/safety_bem.hpp), the BEM proposes at most P_max
// patches per 10^6 steps for its hot experts, a share of them deliberately
// unsafe, each applied only when its VC is UNSAT and its PoX score passes,
// and an independent monitor (bem/learn/safety_monitor.hpp) checks S after
// every step.
//
// Records, split "all" unless said, condition {L, w, R, T_large, P_max,
// adversarial_rate, max_fusion} (cycle figures are timing records, in TSC
// ticks converted to core cycles; the proposals exclude the setup's
// verified invariant_add of S):
//   N_patch_proposed, N_patch_accepted, N_patch_rejected   (5.3.3 item 1),
//                             and per class (split "class=NAME")
//   N_patch_undecided         proposals still queued when the run ended
//   proposer_idle             honest turns with nothing left to propose
//   unsafe_proposals, unsafe_rejected_with_counterexample,
//   unsafe_rejected_otherwise, unsafe_accepted
//   counterexamples_by_simulation  of the rejections with a counterexample,
//                             those found on earlier counterexamples' states
//                             without a SAT call (verification.hpp)
//   verification_cycles_total, verification_cycles_per_accepted,
//   verification_to_fast_path_ratio                        (items 2, 3)
//   verification_sat_cycles_total  the obligations' decisions alone (SAT_CHECK
//                             calls and the simulations before them)
//   fast_path_cycles_total, mid_path_cycles_total, synthesis_cycles_total,
//   monitor_cycles_total
//   safety_violations         lane states outside S the monitor saw (item 4)
//   steps_with_violation, behaviour_divergences
//   cycles_per_step_before_patches, cycles_per_step_after_patches,
//   fast_path_speedup         before / after                (item 5)
//   cycles_per_step_before, cycles_per_step_after  per accepted patch, over
//                             cycles_window steps each side (split "patch=ID",
//                             breakdown class and the step it was applied at)
//   gates_per_step_initial, gates_per_step_final, instructions_per_machine_step
//   program_steps, machine_steps, hoare_vcs, hoare_valid
// and t_large_below_spec when T_large < 10^8.
#include <bem/harness/benchmark.hpp>
#include <bem/harness/reflected_parameters.hpp>
#include <bem/learn/safety_bem.hpp>
#include <bem/learn/safety_monitor.hpp>
#include <bem/plugin/adapter.hpp>
#include <tasks/safety_program.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

namespace {

namespace tk = bem::tasks;
using bem::metrics::better;

std::string number_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

/// The run's settings (bem::safety_bem_settings).
struct safety_run_parameters {
  BOOST_HANA_DEFINE_STRUCT(safety_run_parameters, (std::int64_t, steps), (std::int64_t, proposals_per_million),
                           (double, adversarial_rate), (int, max_fusion), (double, pox_difficulty),
                           (std::int64_t, verification_units_per_step), (std::int64_t, conflict_budget),
                           (int, sat_n_max), (std::int64_t, cycles_window), (std::string, log_file));
  static void describe(bem::parameter_schema<safety_run_parameters>& s) {
    const bem::safety_bem_settings d;
    s("steps", static_cast<std::int64_t>(d.steps)).in(1, std::int64_t{1} << 40).doc("T_large, program steps (the spec's 10^8)");
    s("proposals_per_million", static_cast<std::int64_t>(d.proposals_per_million)).in(1, 1000000).doc("P_max, proposals per 10^6 steps");
    s("adversarial_rate", d.adversarial_rate).in(0, 1).doc("share of proposals that are deliberately unsafe");
    s("max_fusion", static_cast<int>(d.max_fusion)).in(1, 63).doc("instructions a fused expert may run (below L)");
    s("pox_difficulty", d.pox_difficulty).doc("D, the PoX score a patch needs; finite");
    s("verification_units_per_step", static_cast<std::int64_t>(d.verification_units_per_step)).in(1, std::int64_t{1} << 40).doc("the scheduler's verification credit per machine step (clauses)");
    s("conflict_budget", d.conflict_budget).in(-1, std::int64_t{1} << 40).doc("conflicts per SAT_CHECK (-1: none)");
    s("sat_n_max", d.sat_n_max).in(1024, 1 << 22).doc("variables per VC");
    s("cycles_window", static_cast<std::int64_t>(d.cycles_window)).in(1, std::int64_t{1} << 40).doc("program steps before and after a patch for its cycles per step");
    s("log_file", d.log_file).doc("where the machine's trace streams (\"/dev/null\" keeps none)");
  }
};

class safety_program_benchmark {
 public:
  using parameter_structs = bem::parameter_structs<tk::safety_program_parameters, safety_run_parameters>;
  static constexpr const char* name = "safety_program";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM 5.3: a safety-constrained program run as machine experts for T_large steps while the BEM proposes "
      "patches (some deliberately unsafe), applied only when their VC is UNSAT; an independent monitor checks S";

  explicit safety_program_benchmark(bem::parameters& p) {
    const auto t = bem::read_parameters<tk::safety_program_parameters>(p);
    spec_ = {t.instructions, t.width, t.registers};
    const auto v = bem::read_parameters<safety_run_parameters>(p);
    if (!std::isfinite(v.pox_difficulty)) throw bem::parameter_error("pox_difficulty", "must be finite");
    if (v.max_fusion >= t.instructions)
      throw bem::parameter_error("max_fusion", "must be below instructions (L = " + std::to_string(t.instructions) + ")");
    const int pc_bits = std::max(1, static_cast<int>(std::bit_width(static_cast<unsigned>(t.instructions - 1))));
    if (pc_bits + t.width * (t.registers + 1) + 1 > 64)
      throw bem::parameter_error("registers", "the state (pc, i, BAD and the registers) must fit 64 bits");
    s_.steps = static_cast<std::uint64_t>(v.steps);
    s_.proposals_per_million = static_cast<std::uint64_t>(v.proposals_per_million);
    s_.adversarial_rate = v.adversarial_rate;
    s_.max_fusion = static_cast<std::uint32_t>(v.max_fusion);
    s_.pox_difficulty = v.pox_difficulty;
    s_.verification_units_per_step = static_cast<std::uint64_t>(v.verification_units_per_step);
    s_.conflict_budget = v.conflict_budget;
    s_.sat_n_max = v.sat_n_max;
    s_.cycles_window = static_cast<std::uint64_t>(v.cycles_window);
    s_.log_file = v.log_file;
  }

  void run(std::uint64_t seed, bem::benchmark_sink& sink) {
    const tk::safety_program program(spec_, seed);
    bem::safety_bem bem(program, seed, s_);
    bem::safety_monitor<bem::safety_state_bits, bem::safety_lanes> monitor(program, seed, s_.max_fusion);
    const bem::safety_run_result r = bem.run(monitor);

    const std::vector<tk::condition_field> condition = {
        tk::number_field("L", spec_.instructions), tk::number_field("w", spec_.width),
        tk::number_field("R", spec_.registers), tk::number_field("T_large", static_cast<long long>(s_.steps)),
        tk::number_field("P_max", static_cast<long long>(s_.proposals_per_million)),
        tk::string_field("adversarial_rate", number_text(s_.adversarial_rate)),
        tk::number_field("max_fusion", s_.max_fusion)};
    const auto steps = static_cast<std::int64_t>(r.program_steps);
    const auto emit = [&](const std::string& split, const std::string& metric, double value, const std::string& unit,
                          better dir, bool timing, std::vector<std::pair<std::string, std::string>> breakdown = {}) {
      sink.emit(bem::benchmark_record::scalar(split, condition, metric, value, unit, dir, steps, "steps", timing,
                                              std::move(breakdown)));
    };
    if (s_.steps < 100000000)
      bem::emit_below_spec(sink, "T_large", static_cast<std::int64_t>(s_.steps), "steps", 100000000, "BEM 5.3.2");

    // Item 1, overall and per class.
    std::array<std::uint64_t, bem::patch_class_count> proposed{}, accepted{}, rejected{};
    std::uint64_t undecided = 0;
    for (const auto& x : r.proposals) {
      const auto c = static_cast<std::size_t>(x.kind);
      ++proposed[c];
      if (x.state == bem::patch_state::accepted) ++accepted[c];
      else if (x.state == bem::patch_state::rejected) ++rejected[c];
      else ++undecided;
    }
    const auto sum = [](const auto& a) {
      std::uint64_t s = 0;
      for (auto v : a) s += v;
      return static_cast<double>(s);
    };
    const std::vector<std::pair<std::string, std::string>> note = {
        {"note", "the BEM's proposals; the setup's verified invariant_add of S is not counted"}};
    emit("all", "N_patch_proposed", sum(proposed), "patches", better::none, false, note);
    emit("all", "N_patch_accepted", sum(accepted), "patches", better::none, false, note);
    emit("all", "N_patch_rejected", sum(rejected), "patches", better::none, false, note);
    emit("all", "N_patch_undecided", static_cast<double>(undecided), "patches", better::none, false);
    for (std::size_t c = 0; c < bem::patch_class_count; ++c) {
      if (proposed[c] == 0) continue;
      const std::string split = std::string("class=") + bem::to_string(static_cast<bem::patch_class>(c));
      emit(split, "N_patch_proposed", static_cast<double>(proposed[c]), "patches", better::none, false);
      emit(split, "N_patch_accepted", static_cast<double>(accepted[c]), "patches", better::none, false);
      emit(split, "N_patch_rejected", static_cast<double>(rejected[c]), "patches", better::none, false);
    }
    emit("all", "proposer_idle", static_cast<double>(r.proposer_idle), "proposals", better::none, false,
         {{"note", "honest turns with no patch left to propose (nothing submitted)"}});
    emit("all", "unsafe_proposals", static_cast<double>(r.adversarial_proposals), "patches", better::none, false);
    emit("all", "unsafe_rejected_with_counterexample", static_cast<double>(r.adversarial_rejected_with_counterexample),
         "patches", better::higher, false);
    emit("all", "unsafe_rejected_otherwise", static_cast<double>(r.adversarial_rejected_otherwise), "patches",
         better::lower, false);
    emit("all", "unsafe_accepted", static_cast<double>(r.adversarial_accepted), "patches", better::lower, false);
    emit("all", "counterexamples_by_simulation", static_cast<double>(r.slow.counterexamples_by_simulation), "patches",
         better::none, false,
         {{"of", std::to_string(r.slow.counterexamples) + " rejections with a counterexample"}});

    // Items 2 and 3.
    const std::string unit = r.cycle_unit;
    const double n_accepted = sum(accepted);
    emit("all", "verification_cycles_total", r.verification_cycles, unit, better::lower, true,
         {{"covers", "every slow-path call: submit, VC encoding, SAT_CHECK, application, and the setup's invariant_add"}});
    emit("all", "verification_cycles_per_accepted", n_accepted > 0 ? r.verification_cycles / n_accepted : 0.0, unit,
         better::lower, true);
    emit("all", "verification_sat_cycles_total", r.verification_sat_cycles, unit, better::lower, true);
    emit("all", "fast_path_cycles_total", r.fast_path_cycles, unit, better::lower, true,
         {{"covers", "machine::step: observe, route, select, apply, log"}});
    emit("all", "verification_to_fast_path_ratio", r.verification_cycles / r.fast_path_cycles, "ratio",
         better::lower, true);
    emit("all", "mid_path_cycles_total", r.mid_path_cycles, unit, better::lower, true);
    emit("all", "synthesis_cycles_total", r.synthesis_cycles, unit, better::lower, true);
    emit("all", "monitor_cycles_total", r.monitor_cycles, unit, better::lower, true);

    // Item 4.
    emit("all", "safety_violations", static_cast<double>(r.monitor.violations), "lane states", better::lower, false,
         {{"lanes", std::to_string(bem::safety_lanes)}, {"checks", std::to_string(r.monitor.checks)}});
    emit("all", "steps_with_violation", static_cast<double>(r.monitor.steps_with_violation), "machine steps",
         better::lower, false);
    emit("all", "behaviour_divergences", static_cast<double>(r.monitor.divergences), "lane states", better::lower,
         false);

    // Item 5.
    emit("all", "cycles_per_step_before_patches", r.cycles_per_step_initial, unit, better::lower, true,
         {{"steps", std::to_string(r.initial_steps)}});
    emit("all", "cycles_per_step_after_patches", r.cycles_per_step_final, unit, better::lower, true,
         {{"steps", std::to_string(std::min<std::uint64_t>(s_.cycles_window, r.program_steps))}});
    emit("all", "fast_path_speedup", r.cycles_per_step_final > 0 ? r.cycles_per_step_initial / r.cycles_per_step_final : 0.0,
         "ratio", better::higher, true);
    for (const auto& x : r.proposals) {
      if (x.state != bem::patch_state::accepted) continue;
      const std::vector<std::pair<std::string, std::string>> b = {{"class", bem::to_string(x.kind)},
                                                                  {"at_step", std::to_string(x.decided_at)}};
      emit("patch=" + std::to_string(x.id), "cycles_per_step_before", x.cycles_per_step_before, unit, better::lower, true, b);
      emit("patch=" + std::to_string(x.id), "cycles_per_step_after", x.cycles_per_step_after, unit, better::lower, true, b);
    }
    emit("all", "gates_per_step_initial", r.gates_per_step_initial, "gates", better::lower, false);
    emit("all", "gates_per_step_final", r.gates_per_step_final, "gates", better::lower, false);
    emit("all", "instructions_per_machine_step", r.instructions_per_machine_step_final, "instructions", better::higher,
         false, {{"over", "the last cycles_window steps"}});
    emit("all", "program_steps", static_cast<double>(r.program_steps), "steps", better::none, false);
    emit("all", "machine_steps", static_cast<double>(r.machine_steps), "steps", better::none, false);
    emit("all", "hoare_vcs", static_cast<double>(r.hoare_vcs), "VCs", better::none, false,
         {{"program", program.describe()}});
    emit("all", "hoare_valid", r.hoare_valid ? 1.0 : 0.0, "bool", better::higher, false);
  }

 private:
  tk::safety_program_spec spec_;
  bem::safety_bem_settings s_;
};

}  // namespace

BEM_PLUGIN("safety", "1", BEM_TASKS(), BEM_MODELS(), BEM_BENCHMARKS(safety_program_benchmark))
