// Executing a suite: training, evaluation and records.
#pragma once

#include "suite.hpp"

#include <bem/plugin/host.hpp>
#include <metrics/records.hpp>

#include <functional>
#include <string>
#include <vector>

namespace bench_driver {

struct run_options {
  std::string out_dir;
  std::string only;          ///< glob over "LABEL/TASK/MODEL", empty: all
  int shard_index = 0;       ///< this shard, 0-based
  int shard_count = 1;
  bool resume = false;
  bool progress_bar = false; ///< a bar on a terminal, else one line per run
  bool in_process = false;   ///< runs in the driver's process (a debugger's view); a crash then ends the suite
  double run_timeout_s = 0;  ///< a run in a child process is killed after this long (0: never)
};

struct run_totals {
  int selected = 0, skipped = 0, ok = 0, failed = 0;
};

/// Checks every run's task and model parameters against the plugins before
/// anything runs; throws config_error naming the suite location. Runs whose
/// task or model is missing are not configuration errors: they fail alone.
void validate_suite(const suite& s, bem::plugin_registry& registry);

/// Runs the suite, appending records to out_dir/results.jsonl as they are
/// measured, and returns the totals. Configuration errors (two runs of one
/// identity, a directory another run is writing, a results file already
/// holding records without --resume) are thrown before anything is written;
/// `before_writing` is called after those checks, before the first record
/// (the driver writes context.json there), and `after_running` after the
/// last run (metrics.json, report.html), both with the directory locked.
run_totals run_suite(const suite& s, bem::plugin_registry& registry, const run_options& opt,
                     const std::function<void()>& before_writing = {},
                     const std::function<void()>& after_running = {});

/// True when out_dir/results.jsonl exists and is not empty.
bool holds_records(const std::string& out_dir);

/// "LABEL/TASK/MODEL" for --only.
std::string run_selector(const run_spec& r);

}  // namespace bench_driver
