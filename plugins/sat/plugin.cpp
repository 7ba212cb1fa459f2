// BEM suite microbenchmark 2.4, SAT/Hoare kernel cost: the `sat_check`
// microbenchmark (SAT half) and `hoare_check` (Hoare half, at the end).
//
// For each cell (n, m = ratio * n) it draws L_inst formulas from the
// documented random CNF distribution (bem/prover/random_cnf.hpp; the seed of
// instance j is derived from the run seed, n, m and j), runs SAT_CHECK on each
// with bem's CDCL solver (a fresh solver per instance, DRAT proof traced when
// `proofs` is on) and PROOF_CHECK (bem/prover/drat.hpp) on every UNSAT proof.
// Formula generation is not timed. Records per cell, split "n=64,m=512":
//   fraction_sat              SAT / decided instances (Wilson 95% interval;
//                             absent when no instance was decided)
//   unknown_count             instances whose conflict budget ran out
//   unsat_count               UNSAT instances (= proofs checked)
//   cycles_per_SAT_CHECK      total SAT_CHECK cycles / L_inst   (timing)
//   cycles_per_PROOF_CHECK    total PROOF_CHECK cycles / UNSAT instances (timing)
//   instances_per_second      L_inst / total SAT_CHECK seconds  (timing)
//   {sat,unsat}_latency_{p50,p99,max}  per-instance SAT_CHECK seconds (timing)
// Cycle units say how they were obtained (bem/platform/cycles.hpp). A proof that is
// rejected, or a model that fails its check, is a prover bug: the benchmark
// throws and the driver records the failure.
//
// Parameters: sat_parameters below (`bem-bench list --parameters`).
#include <bem/harness/benchmark.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/plugin/adapter.hpp>
#include <bem/prover/cdcl.hpp>
#include <bem/prover/drat.hpp>
#include <bem/prover/hoare/random_program.hpp>
#include <bem/prover/random_cnf.hpp>
#include <metrics/statistics.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace pv = bem::prover;

struct sat_parameters {
  BOOST_HANA_DEFINE_STRUCT(sat_parameters, (std::vector<std::int64_t>, n), (std::vector<std::int64_t>, ratios),
                           (std::int64_t, instances), (std::int64_t, budget), (bool, proofs), (int, min_len),
                           (int, max_len));
  static void describe(bem::parameter_schema<sat_parameters>& s) {
    s("n", {32, 64, 128}).in(1, 100000).doc("variables per formula");
    s("ratios", {4, 8}).in(1, 1000).doc("clauses per variable m/n (4: all SAT, 8: the mixed population)");
    s("instances", 100).in(1, 10000000).doc("L_inst per cell (the full suite: 10^4)");
    s("budget", 100000).in(1, std::int64_t{1} << 40).doc("conflicts per instance before it counts as unknown");
    s("proofs", true).doc("trace DRAT proofs and PROOF_CHECK each UNSAT one");
    s("min_len", 3).in(1, 64).doc("the shortest clause");
    s("max_len", 5).in(1, 64).doc("the longest clause (min_len .. the smallest n)");
  }
};

struct sat_check_benchmark {
  static constexpr const char* name = "sat_check";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM 2.4: SAT_CHECK and PROOF_CHECK cost on random CNF (lengths 3..5), bem's CDCL solver and DRAT checker";

  using parameter_structs = bem::parameter_structs<sat_parameters>;

  explicit sat_check_benchmark(bem::parameters& p) : v_(bem::read_parameters<sat_parameters>(p)) {
    if (v_.max_len < v_.min_len) throw bem::parameter_error("max_len", "must be at least min_len");
    for (auto n : v_.n)
      if (v_.max_len > n) throw bem::parameter_error("max_len", "must not exceed the smallest n");
  }

  void run(std::uint64_t seed, bem::benchmark_sink& sink) {
    bem::cycle_counter counter;
    const std::string cycles_unit = counter.unit();
    if (v_.instances < 10000)
      bem::emit_below_spec(sink, "instances", v_.instances, "instances", 10000, "BEM 2.4 (L_inst)");
    for (auto n64 : v_.n) {
      for (auto ratio : v_.ratios) {
        const int n = static_cast<int>(n64);
        const pv::random_cnf_cell cell{n, static_cast<int>(ratio * n64), v_.min_len, v_.max_len};
        run_cell(cell, static_cast<int>(ratio), seed, counter, cycles_unit, sink);
      }
    }
  }

 private:
  void run_cell(const pv::random_cnf_cell& cell, int ratio, std::uint64_t seed, bem::cycle_counter& counter,
                const std::string& cycles_unit, bem::benchmark_sink& sink) {
    std::int64_t sat = 0, unsat = 0, unknown = 0;
    double solve_cycles = 0, solve_seconds = 0, proof_cycles = 0;
    std::vector<double> sat_lat, unsat_lat;
    pv::drat_proof proof;
    for (std::int64_t j = 0; j < v_.instances; ++j) {
      const pv::cnf f = pv::random_cnf(cell, seed, static_cast<std::uint64_t>(j));
      proof.clear();
      counter.start();
      pv::cdcl_solver solver(f, v_.proofs ? &proof : nullptr);
      solver.set_conflict_budget(v_.budget);
      const pv::sat_result r = solver.solve();  // a SAT model is checked inside
      const bem::cycle_sample s = counter.stop();
      solve_cycles += s.cycles;
      solve_seconds += s.seconds;
      if (r == pv::sat_result::sat) {
        ++sat;
        sat_lat.push_back(s.seconds);
      } else if (r == pv::sat_result::unsat) {
        ++unsat;
        unsat_lat.push_back(s.seconds);
        if (v_.proofs) {
          counter.start();
          const pv::drat_result check = pv::drat_check(f, proof);
          proof_cycles += counter.stop().cycles;
          if (!check.accepted())
            throw std::logic_error("sat_check: PROOF_CHECK rejected the solver's proof of instance " +
                                   std::to_string(j) + ": " + check.reason);
        }
      } else {
        ++unknown;
      }
    }
    const std::string split = "n=" + std::to_string(cell.n) + ",m=" + std::to_string(cell.m);
    const std::vector<bem::tasks::condition_field> condition = {
        bem::tasks::number_field("n", cell.n),
        bem::tasks::number_field("m", cell.m),
        bem::tasks::number_field("ratio", ratio),
        bem::tasks::number_field("min_len", v_.min_len),
        bem::tasks::number_field("max_len", v_.max_len),
        bem::tasks::number_field("budget", v_.budget),
        bem::tasks::string_field("proofs", v_.proofs ? "traced" : "off"),
        bem::tasks::string_field("population", pv::population(cell.n, cell.m))};
    auto emit = [&](const std::string& metric, double value, const std::string& unit, bem::metrics::better dir,
                    std::int64_t count, const std::string& n_unit, bool timing) {
      bem::benchmark_record rec;
      rec.split = split;
      rec.condition = condition;
      rec.value = bem::metrics::scalar_metric(metric, value, unit, dir, count, n_unit);
      rec.timing = timing;
      if (metric == "fraction_sat" && sat + unsat > 0) rec.value.ci = bem::metrics::wilson_interval(sat, sat + unsat);
      sink.emit(rec);
    };
    using bem::metrics::better;
    if (sat + unsat > 0)  // no fraction when the budget left every instance undecided
      emit("fraction_sat", static_cast<double>(sat) / static_cast<double>(sat + unsat), "fraction", better::none,
           sat + unsat, "decided instances", false);
    emit("unknown_count", static_cast<double>(unknown), "instances", better::lower, v_.instances, "instances", false);
    emit("unsat_count", static_cast<double>(unsat), "instances", better::none, v_.instances, "instances", false);
    emit("cycles_per_SAT_CHECK", solve_cycles / static_cast<double>(v_.instances), cycles_unit, better::lower,
         v_.instances, "instances", true);
    if (v_.proofs && unsat > 0)
      emit("cycles_per_PROOF_CHECK", proof_cycles / static_cast<double>(unsat), cycles_unit, better::lower, unsat,
           "UNSAT proofs", true);
    emit("instances_per_second", solve_seconds > 0 ? static_cast<double>(v_.instances) / solve_seconds : 0.0,
         "instances/s", better::higher, v_.instances, "instances", true);
    for (auto* lat : {&sat_lat, &unsat_lat}) {
      if (lat->empty()) continue;
      const std::string prefix = lat == &sat_lat ? "sat_latency_" : "unsat_latency_";
      const auto count = static_cast<std::int64_t>(lat->size());
      const std::string n_unit = lat == &sat_lat ? "SAT instances" : "UNSAT instances";
      emit(prefix + "p50", bem::metrics::quantile(*lat, 0.50), "s", better::lower, count, n_unit, true);
      emit(prefix + "p99", bem::metrics::quantile(*lat, 0.99), "s", better::lower, count, n_unit, true);
      emit(prefix + "max", *std::max_element(lat->begin(), lat->end()), "s", better::lower, count, n_unit, true);
    }
  }

  sat_parameters v_;
};


// ---- the Hoare half: HOARE_CHECK on generated guarded-command programs ----------------
//
// For each cell (registers r, width w, loop edges e) and each variant (SAFE:
// the generated invariant holds; UNSAFE: edge 0's bound widened) it draws
// `programs` programs from the documented distribution
// (bem/prover/hoare/random_program.hpp; program j's seed is derived from the
// run seed, the cell and j) and runs HOARE_CHECK on each (bem's CDCL, every
// VC bit-blasted afresh). Generation is not timed. Records per cell and
// variant, split "r=4,w=16,e=4,safe":
//   vcs_per_check             verification conditions per HOARE_CHECK (e + 4)
//   cnf_clauses_per_check     CNF clauses over its VCs, mean over programs
//   cycles_per_HOARE_CHECK    total cycles / programs            (timing)
//   checks_per_second         programs / total seconds           (timing)
// A SAFE program that fails or an UNSAFE one that verifies is a prover bug:
// the benchmark throws and the driver records the failure.

struct hoare_parameters {
  BOOST_HANA_DEFINE_STRUCT(hoare_parameters, (std::vector<std::int64_t>, registers),
                           (std::vector<std::int64_t>, widths), (std::vector<std::int64_t>, edges),
                           (std::int64_t, programs), (std::int64_t, budget));
  static void describe(bem::parameter_schema<hoare_parameters>& s) {
    s("registers", {4}).in(1, 256).doc("registers x_j per program besides the index and the accumulator");
    s("widths", {8, 16, 32}).in(4, 32).doc("bits per variable");
    s("edges", {1, 4, 16}).in(1, 4096).doc("guarded loop edges (one consecution VC each)");
    s("programs", 20).in(1, 1000000).doc("programs per cell and variant");
    s("budget", 1000000).in(1, std::int64_t{1} << 40).doc("conflicts per VC before it counts as unknown");
  }
};

struct hoare_check_benchmark {
  static constexpr const char* name = "hoare_check";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM 2.4's Hoare half: HOARE_CHECK cost on generated guarded-command loops, SAFE and UNSAFE, bem's CDCL";

  using parameter_structs = bem::parameter_structs<hoare_parameters>;

  explicit hoare_check_benchmark(bem::parameters& p) : v_(bem::read_parameters<hoare_parameters>(p)) {}

  void run(std::uint64_t seed, bem::benchmark_sink& sink) {
    bem::cycle_counter counter;
    const std::string cycles_unit = counter.unit();
    for (auto r : v_.registers)
      for (auto w : v_.widths)
        for (auto e : v_.edges)
          for (bool safe : {true, false})
            run_cell({static_cast<int>(r), static_cast<int>(w), static_cast<int>(e)}, safe, seed, counter,
                     cycles_unit, sink);
  }

 private:
  void run_cell(const pv::hoare::random_program_cell& cell, bool safe, std::uint64_t seed, bem::cycle_counter& counter,
                const std::string& cycles_unit, bem::benchmark_sink& sink) {
    double cycles = 0, seconds = 0, clauses = 0, vcs = 0;
    pv::hoare::hoare_options opt;
    opt.conflict_budget = v_.budget;
    for (std::int64_t j = 0; j < v_.programs; ++j) {
      const auto prog = pv::hoare::make_random_program(cell, seed, static_cast<std::uint64_t>(j), safe);
      counter.start();
      const pv::hoare::hoare_result r = pv::hoare::hoare_check(prog.graph, prog.invariant, opt);
      const bem::cycle_sample sample = counter.stop();
      cycles += sample.cycles;
      seconds += sample.seconds;
      if (r.unknown())
        throw std::runtime_error("hoare_check: program " + std::to_string(j) + " ran out of its conflict budget (" +
                                 std::to_string(v_.budget) + "); raise `budget`");
      if (r.valid() != safe)
        throw std::logic_error("hoare_check: the " + std::string(safe ? "SAFE" : "UNSAFE") + " program " +
                               std::to_string(j) + (safe ? " failed to verify" : " verified"));
      vcs += static_cast<double>(r.vcs.size());
      for (const auto& vc : r.vcs) clauses += static_cast<double>(vc.clauses);
    }
    const std::string split = "r=" + std::to_string(cell.registers) + ",w=" + std::to_string(cell.width) +
                              ",e=" + std::to_string(cell.edges) + (safe ? ",safe" : ",unsafe");
    const std::vector<bem::tasks::condition_field> condition = {
        bem::tasks::number_field("registers", cell.registers), bem::tasks::number_field("width", cell.width),
        bem::tasks::number_field("edges", cell.edges), bem::tasks::string_field("variant", safe ? "safe" : "unsafe")};
    const auto n = static_cast<double>(v_.programs);
    auto emit = [&](const std::string& metric, double value, const std::string& unit, bem::metrics::better dir,
                    bool timing) {
      bem::benchmark_record rec;
      rec.split = split;
      rec.condition = condition;
      rec.value = bem::metrics::scalar_metric(metric, value, unit, dir, v_.programs, "programs");
      rec.timing = timing;
      sink.emit(rec);
    };
    using bem::metrics::better;
    emit("vcs_per_check", vcs / n, "VCs", better::none, false);
    emit("cnf_clauses_per_check", clauses / n, "clauses", better::none, false);
    emit("cycles_per_HOARE_CHECK", cycles / n, cycles_unit, better::lower, true);
    emit("checks_per_second", seconds > 0 ? n / seconds : 0.0, "checks/s", better::higher, true);
  }

  hoare_parameters v_;
};

}  // namespace

BEM_PLUGIN("sat", "1", BEM_TASKS(), BEM_MODELS(), BEM_BENCHMARKS(sat_check_benchmark, hoare_check_benchmark))
