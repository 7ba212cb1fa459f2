// metrics.json, report.html and the regression gate.
#pragma once

#include "suite.hpp"

#include <bem/plugin/host.hpp>
#include <metrics/records.hpp>

#include <iosfwd>
#include <set>
#include <string>
#include <vector>

namespace bench_driver {

using json = bem::metrics::json;

/// The run's context: hardware report, compiler, flags, git revision, date,
/// suite and plugins.
json build_context(const suite& s, const std::vector<std::string>& command_line, const bem::plugin_registry& reg);

/// Refuses records that lack a field of the record schema (metrics/records.hpp)
/// that report, resume and the summaries read, or hold it as another type:
/// bem-bench writes every one in every record, so such a record was written
/// by something else or edited. Throws std::runtime_error naming `path`, the
/// record and the field.
void check_records(const std::vector<json>& records, const std::string& path);

/// The run ids whose run_wall_time record says "ok": the runs that finished.
std::set<std::string> finished_runs(const std::vector<json>& records);

/// Across-seed summaries of per-seed records: mean, sample standard
/// deviation and a Student-t 95% interval per (task, model, configuration,
/// split, metric, breakdown).
json summarize_records(const std::vector<json>& records);

/// Reads DIR/context.json and DIR/results.jsonl of every directory and
/// writes out_dir/metrics.json and out_dir/report.html.
void write_outputs(const std::vector<std::string>& dirs, const std::string& out_dir);

/// The regression gate. Returns 0 (no drop), 1 (a gated metric dropped by
/// more than max_drop or disappeared); throws std::runtime_error for
/// unreadable input.
int compare_metrics(const std::string& baseline, const std::string& current, double max_drop, bool include_timing,
                    bool across_models,
                    std::ostream& out);

}  // namespace bench_driver
