// BEM suite microbenchmark 2.4, SAT/Hoare kernel cost, as the `sat_check`
// microbenchmark.
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
// Parameters: n (list, default [32, 64, 128]), ratios (list of m/n, default
// [4, 8]: 4n cells are all SAT, 8n cells the mixed population), instances (L_inst,
// default 100; the full suite uses 10000, and fewer than 10^4 add an
// `instances_below_spec` note record), budget (conflicts per instance,
// default 100000), proofs (default true), min_len / max_len (3 / 5).
#include <bem/harness/benchmark.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/plugin/adapter.hpp>
#include <bem/prover/cdcl.hpp>
#include <bem/prover/drat.hpp>
#include <bem/prover/random_cnf.hpp>
#include <metrics/statistics.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace pv = bem::prover;

struct sat_check_benchmark {
  static constexpr const char* name = "sat_check";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM 2.4: SAT_CHECK and PROOF_CHECK cost on random CNF (lengths 3..5), bem's CDCL solver and DRAT checker";

  explicit sat_check_benchmark(bem::parameters& p)
      : ns_(p.get_int_list("n", {32, 64, 128})),
        ratios_(p.get_int_list("ratios", {4, 8})),
        instances_(p.get_int_in("instances", 100, 1, 10000000)),
        budget_(p.get_int_in("budget", 100000, 1, std::int64_t{1} << 40)),
        proofs_(p.get_bool("proofs", true)),
        min_len_(static_cast<int>(p.get_int_in("min_len", 3, 1, 64))),
        max_len_(static_cast<int>(p.get_int_in("max_len", 5, 1, 64))) {
    for (auto n : ns_)
      if (n < 1 || n > 100000) throw bem::parameter_error("n", "each n must be in 1..100000");
    for (auto r : ratios_)
      if (r < 1 || r > 1000) throw bem::parameter_error("ratios", "each ratio m/n must be in 1..1000");
    if (max_len_ < min_len_) throw bem::parameter_error("max_len", "must be at least min_len");
    for (auto n : ns_)
      if (max_len_ > n) throw bem::parameter_error("max_len", "must not exceed the smallest n");
  }

  void run(std::uint64_t seed, bem::benchmark_sink& sink) {
    bem::cycle_counter counter;
    const std::string cycles_unit = counter.unit();
    if (instances_ < 10000) bem::emit_below_spec(sink, "instances", instances_, "instances", 10000, "BEM 2.4 (L_inst)");
    for (auto n64 : ns_) {
      for (auto ratio : ratios_) {
        const int n = static_cast<int>(n64);
        const pv::random_cnf_cell cell{n, static_cast<int>(ratio * n64), min_len_, max_len_};
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
    for (std::int64_t j = 0; j < instances_; ++j) {
      const pv::cnf f = pv::random_cnf(cell, seed, static_cast<std::uint64_t>(j));
      proof.clear();
      counter.start();
      pv::cdcl_solver solver(f, proofs_ ? &proof : nullptr);
      solver.set_conflict_budget(budget_);
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
        if (proofs_) {
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
        bem::tasks::number_field("n", cell.n), bem::tasks::number_field("m", cell.m),
        bem::tasks::number_field("ratio", ratio), bem::tasks::number_field("min_len", min_len_),
        bem::tasks::number_field("max_len", max_len_), bem::tasks::number_field("budget", budget_),
        bem::tasks::string_field("proofs", proofs_ ? "traced" : "off"),
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
    emit("unknown_count", static_cast<double>(unknown), "instances", better::lower, instances_, "instances", false);
    emit("unsat_count", static_cast<double>(unsat), "instances", better::none, instances_, "instances", false);
    emit("cycles_per_SAT_CHECK", solve_cycles / static_cast<double>(instances_), cycles_unit, better::lower,
         instances_, "instances", true);
    if (proofs_ && unsat > 0)
      emit("cycles_per_PROOF_CHECK", proof_cycles / static_cast<double>(unsat), cycles_unit, better::lower, unsat,
           "UNSAT proofs", true);
    emit("instances_per_second", solve_seconds > 0 ? static_cast<double>(instances_) / solve_seconds : 0.0,
         "instances/s", better::higher, instances_, "instances", true);
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

  std::vector<std::int64_t> ns_, ratios_;
  std::int64_t instances_, budget_;
  bool proofs_;
  int min_len_, max_len_;
};

}  // namespace

BEM_PLUGIN("sat", "1", BEM_TASKS(), BEM_MODELS(), BEM_BENCHMARKS(sat_check_benchmark))
