#include "report.hpp"
#include "results_dir.hpp"

#include "build_info.hpp"  // generated: git revision and build flags

#include <bem/platform/hwinfo.hpp>
#include <bem/version.hpp>
#include <metrics/statistics.hpp>
#include <metrics/svg_plot.hpp>
#include <range/v3/algorithm/stable_sort.hpp>
#include <range/v3/numeric/accumulate.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view/chunk.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

namespace bench_driver {

namespace fs = std::filesystem;

namespace {

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

/// Hardware fields that are measurements (they vary between runs).
bool is_calibration_field(const std::string& k) {
  return k == "tsc_hz" || k == "tsc_per_core_cycle" || k == "core_clock_hz_estimate" || k == "cycle_method";
}

std::string summary_key(const json& r) {
  json k = {{"task", r.value("task", "")},
            {"task_version", r.contains("task_version") ? r["task_version"] : json(nullptr)},
            {"model", r.value("model", "")},
            {"model_version", r.contains("model_version") ? r["model_version"] : json(nullptr)},
            {"config", r.contains("config") ? r["config"] : json(nullptr)},
            {"split", r.contains("split") ? r["split"] : json(nullptr)},
            {"metric", r.value("metric", "")},
            {"breakdown", r.contains("breakdown") ? r["breakdown"] : json(nullptr)}};
  return k.dump();
}

std::string html_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string fmt(double v, int digits = 4) {
  if (!std::isfinite(v)) return "–";
  std::ostringstream os;
  os << std::setprecision(digits) << v;
  return os.str();
}

std::string compact(const json& j) {
  if (!j.is_object() || j.empty()) return "";
  std::string s;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!s.empty()) s += ", ";
    s += it.key() + "=" + (it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
  }
  return s;
}

json read_metrics_json(const std::string& path_or_dir) {
  fs::path p = path_or_dir;
  if (fs::is_directory(p)) p /= "metrics.json";
  std::ifstream in(p);
  if (!in) throw std::runtime_error(p.string() + ": cannot open");
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    throw std::runtime_error(p.string() + ": not valid JSON: " + e.what());
  }
}

/// Headline accuracy metric of a task's summaries.
std::string headline(const std::vector<const json*>& entries) {
  for (const auto* e : entries)
    if ((*e)["metric"] == "per_position_accuracy") return "per_position_accuracy";
  return "accuracy";
}

/// The model's name and its parameters.
std::string model_label(const json& e) {
  const std::string mp = compact(e["config"]["model"]);
  return e.value("model", "") + (mp.empty() ? "" : " (" + mp + ")");
}

/// The model and what distinguishes the split besides its length.
std::string series_label(const json& e) {
  std::string label = model_label(e);
  json other = json::object();
  if (e.contains("condition") && e["condition"].is_object())
    for (auto it = e["condition"].begin(); it != e["condition"].end(); ++it)
      if (it.key() != "length") other[it.key()] = it.value();
  const std::string oc = compact(other);
  if (!oc.empty()) label += " [" + oc + "]";
  return label;
}

/// A number, or a string holding one, with 4 significant digits (for a
/// legend: "1.414" for "1.4142135623730951"); anything else as it is.
json short_number(const json& v) {
  double x;
  if (v.is_number()) x = v.get<double>();
  else if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    char* end = nullptr;
    x = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) return v;
  } else {
    return v;
  }
  return fmt(x);
}

/// The numbers among JSON values (null, a missing value, is skipped).
constexpr auto numbers = ranges::views::filter(&json::is_number) |
                         ranges::views::transform([](const json& v) { return v.get<double>(); });

/// The mean of a range of doubles; NaN when it is empty.
template <class R>
double mean_of(R&& values) {
  const auto n = ranges::distance(values);
  return n ? ranges::accumulate(values, 0.0) / static_cast<double>(n) : std::nan("");
}

/// The series with its points in order of x (a stable sort: points of one x
/// keep their order).
bem::metrics::plot_series sorted_by_x(const bem::metrics::plot_series& s) {
  auto idx = ranges::views::iota(std::size_t{0}, s.x.size()) | ranges::to<std::vector>();
  ranges::stable_sort(idx, std::less<>{}, [&](std::size_t i) { return s.x[i]; });
  bem::metrics::plot_series sorted;
  sorted.label = s.label;
  for (auto i : idx) {
    sorted.x.push_back(s.x[i]);
    sorted.y.push_back(s.y[i]);
    if (!s.y_low.empty()) sorted.y_low.push_back(s.y_low[i]);
    if (!s.y_high.empty()) sorted.y_high.push_back(s.y_high[i]);
  }
  return sorted;
}

/// Bandit benchmarks (BEM 5.1, 5.2): the regret curve R_t against t of every
/// policy, log-log as the spec suggests, one chart per environment (d, K, T,
/// J), from the mean over seeds of the `regret_at_t` records.
void regret_curves(std::ostream& h, const std::vector<const json*>& entries) {
  std::map<std::string, std::map<std::string, bem::metrics::plot_series>> charts;  // environment -> label -> curve
  for (const auto* e : entries) {
    const json& r = *e;
    if (r["metric"] != "regret_at_t" || !r["mean"].is_number() || !r["condition"].is_object()) continue;
    const json& c = r["condition"];
    if (!c.contains("t") || !c.contains("policy") || !c["policy"].is_string()) continue;
    const double t = c["t"].get<double>(), regret = r["mean"].get<double>();
    if (!(t > 0 && regret > 0)) continue;  // no logarithm of 0
    // The chart: the environment; the curve: the policy and its
    // hyperparameters. Two runs of one configuration give the same curve
    // (the rounds are the seed's, whatever else runs), drawn once.
    json environment = json::object(), settings = json::object();
    for (auto it = c.begin(); it != c.end(); ++it) {
      const std::string& k = it.key();
      if (k == "d" || k == "actions" || k == "T" || k == "J") environment[k] = it.value();
      else if (k != "t" && k != "policy") settings[k] = short_number(it.value());
    }
    std::string label = c["policy"].get<std::string>();
    if (!settings.empty()) label += " [" + compact(settings) + "]";
    auto& s = charts[compact(environment)][label];
    s.label = label;
    if (std::find(s.x.begin(), s.x.end(), std::log10(t)) != s.x.end()) continue;
    s.x.push_back(std::log10(t));
    s.y.push_back(std::log10(regret));
  }
  for (auto& [environment, curves] : charts) {
    std::vector<bem::metrics::plot_series> v;
    for (auto& [label, s] : curves) {
      bem::metrics::plot_series sorted = sorted_by_x(s);
      sorted.y_low = sorted.y_high = sorted.y;
      v.push_back(std::move(sorted));
    }
    bem::metrics::plot_options o;
    o.title = "regret curve, log-log, mean over seeds: " + environment;
    o.x_label = "log10 t";
    o.y_label = "log10 regret R_t";
    h << bem::metrics::line_chart_svg(v, o) << "\n";
  }
}

/// Suites whose records carry a "category" condition (the Rust code suite):
/// one table per breakdown `key` (category, difficulty, goal, tag), one row
/// per model and value of `key`, one column per headline metric. A goal's
/// row says its name beside its id ("G6 type inference"); a goal no task
/// measures has tasks = 0 and no rates.
void breakdown_table(std::ostream& h, const std::vector<const json*>& entries, const std::string& key) {
  static const std::vector<std::string> columns = {"tasks",          "compile_rate",   "pass@1",
                                                   "pass@5",         "pass@10",        "greedy_pass@1",
                                                   "tests_executed", "borrow_check_failures"};
  std::vector<std::pair<std::string, std::string>> rows;
  std::map<std::pair<std::string, std::string>, std::map<std::string, double>> cells;
  std::set<std::string> used;
  for (const auto* e : entries) {
    const json& r = *e;
    if (!r.contains("condition") || !r["condition"].is_object() || !r["condition"].contains(key) ||
        !r["condition"][key].is_string() || r["condition"].contains("rustc_error") || !r["mean"].is_number())
      continue;
    const std::string metric = r.value("metric", "");
    if (std::find(columns.begin(), columns.end(), metric) == columns.end()) continue;
    std::string label = r["condition"][key].get<std::string>();
    if (r["condition"].contains(key + "_name") && r["condition"][key + "_name"].is_string())
      label += " " + r["condition"][key + "_name"].get<std::string>();
    const auto row = std::make_pair(series_label(r), label);
    if (!cells.count(row)) rows.push_back(row);
    cells[row][metric] = r["mean"].get<double>();
    used.insert(metric);
  }
  if (rows.empty()) return;
  h << "<table><tr><th>model</th><th>" << html_escape(key) << "</th>";
  for (const auto& c : columns)
    if (used.count(c)) h << "<th>" << html_escape(c) << "</th>";
  h << "</tr>\n";
  for (const auto& row : rows) {
    h << "<tr><td>" << html_escape(row.first) << "</td><td>" << html_escape(row.second) << "</td>";
    for (const auto& c : columns) {
      if (!used.count(c)) continue;
      const auto& values = cells[row];
      const auto it = values.find(c);
      h << "<td class=\"num\">" << (it == values.end() ? std::string("–") : fmt(it->second)) << "</td>";
    }
    h << "</tr>\n";
  }
  h << "</table>\n";
}

/// The page's head and the run's context: suite, build, hardware.
void write_header(std::ostream& h, const json& ctx) {
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>bem report: "
    << html_escape(ctx["suite"].value("name", "")) << "</title>\n<style>"
    << "body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}"
    << "table{border-collapse:collapse;margin:1em 0;font-size:0.9em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
    << "th{background:#f0f0f0}.fail{color:#b00}.num{text-align:right;font-variant-numeric:tabular-nums}"
    << "h2{border-bottom:1px solid #ddd;padding-bottom:4px}svg{margin:0.5em 0}</style></head><body>\n";
  h << "<h1>bem report: " << html_escape(ctx["suite"].value("name", "")) << "</h1>\n";
  h << "<p>" << html_escape(ctx["suite"].value("description", "")) << "</p>\n<table>";
  for (const char* k : {"date", "bem_version", "git_revision", "compiler", "build_flags"})
    h << "<tr><th>" << k << "</th><td>" << html_escape(ctx.contains(k) ? (ctx[k].is_string() ? ctx[k].get<std::string>() : ctx[k].dump()) : "")
      << "</td></tr>";
  if (ctx.contains("hardware"))
    for (auto it = ctx["hardware"].begin(); it != ctx["hardware"].end(); ++it)
      h << "<tr><th>" << html_escape(it.key()) << "</th><td>"
        << html_escape(it.value().is_string() ? it.value().get<std::string>() : it.value().dump()) << "</td></tr>";
  h << "</table>\n";
}

/// The failed and unfinished runs, with their errors; nothing when none failed.
void write_failures(std::ostream& h, const json& metrics) {
  if (!metrics.contains("failures") || metrics["failures"].empty()) return;
  h << "<h2 class=\"fail\">Failed runs</h2><table><tr><th>task</th><th>model</th><th>seed</th><th>error</th></tr>";
  for (const auto& f : metrics["failures"])
    h << "<tr><td>" << html_escape(f.value("task", "")) << "</td><td>" << html_escape(f.value("model", ""))
      << "</td><td>" << f["seed"].dump() << "</td><td class=\"fail\">" << html_escape(f.value("error", ""))
      << "</td></tr>";
  h << "</table>\n";
}

/// The headline accuracy against sequence length, one series per model
/// configuration, from the test splits that record a length.
void length_chart(std::ostream& h, const std::string& task, const std::vector<const json*>& entries) {
  const std::string head = headline(entries);
  std::map<std::string, bem::metrics::plot_series> series;
  std::vector<std::string> order;
  for (const auto* e : entries) {
    const json& r = *e;
    if (r["metric"] != head || r.contains("breakdown") || !r["split"].is_string() ||
        r["split"].get<std::string>().rfind("test", 0) != 0 || !r["condition"].contains("length"))
      continue;
    const std::string label = series_label(r);
    if (!series.count(label)) {
      order.push_back(label);
      series[label].label = label;
    }
    auto& s = series[label];
    s.x.push_back(r["condition"]["length"].get<double>());
    s.y.push_back(r["mean"].is_number() ? r["mean"].get<double>() : std::nan(""));
    const bool has_ci = r["ci"].is_object();
    s.y_low.push_back(has_ci ? r["ci"]["low"].get<double>() : s.y.back());
    s.y_high.push_back(has_ci ? r["ci"]["high"].get<double>() : s.y.back());
  }
  if (order.empty()) return;
  std::vector<bem::metrics::plot_series> v;
  for (const auto& l : order) v.push_back(sorted_by_x(series[l]));
  bem::metrics::plot_options o;
  o.title = task + ": " + head + " against sequence length (mean over seeds, 95% CI)";
  o.x_label = "sequence length T";
  o.y_label = head;
  o.log2_x = true;
  o.y_min = 0.0;
  o.y_max = 1.0;
  h << bem::metrics::line_chart_svg(v, o) << "\n";
}

/// Series by position, one chart per test length T with every model
/// configuration measured there (seed section 6.1: each model, task and T):
/// accuracy, then the models' diagnostics. Long series are drawn as means of
/// buckets of positions, at most 512 points per curve, to keep the report
/// small; the records hold every position.
void position_charts(std::ostream& h, const std::string& task, const std::vector<const json*>& entries) {
  struct position_plot {
    const char* metric;
    const char* title;
    const char* y_label;
    bool log10_y;  // gradient norms span decades
    std::optional<double> y_min, y_max;
  };
  const position_plot position_plots[] = {
      {"accuracy_by_position", "accuracy by position", "accuracy", false, 0.0, 1.0},
      {"grad_norm_by_position", "gradient reaching position t from the last output, ||dL_last/dx_t||",
       "log10 gradient norm", true, std::nullopt, std::nullopt},
      {"grad_norm_full_loss_by_position", "gradient of the mean loss at position t, ||dL/dx_t||",
       "log10 gradient norm", true, std::nullopt, std::nullopt},
      {"probe_r2_by_position", "linear probe of the hidden state for the running count (held-out R^2)", "R^2",
       false, std::nullopt, 1.0},
  };
  constexpr std::size_t max_points = 512;
  for (const auto& plot : position_plots) {
    std::map<double, std::vector<const json*>> by_length;  // ordered by T; entries in order of appearance
    for (const auto* e : entries) {
      const json& r = *e;
      if (r["metric"] != plot.metric || r.contains("breakdown") || !r.contains("series")) continue;
      by_length[r["condition"].value("length", 0.0)].push_back(e);
    }
    for (const auto& [length, at_length] : by_length) {
      std::vector<bem::metrics::plot_series> v;
      std::size_t bucket = 1;
      for (const auto* e : at_length)
        bucket = std::max(bucket, ((*e)["series"].size() + max_points - 1) / max_points);
      for (const auto* e : at_length) {
        const json& series = (*e)["series"];
        bem::metrics::plot_series s;
        s.label = series_label(*e);
        const auto value = [&](const json& v) {
          const double x = v.is_number() ? v.get<double>() : std::nan("");
          return !plot.log10_y ? x : x > 0 ? std::log10(x) : std::nan("");
        };
        std::size_t first = 0;  // buckets of positions first+1 .. first+bucket, 1-based
        for (const auto b : series | ranges::views::transform(value) | ranges::views::chunk(bucket)) {
          const auto size = static_cast<std::size_t>(ranges::distance(b));
          s.x.push_back(static_cast<double>(2 * first + size + 1) / 2);
          s.y.push_back(mean_of(b | ranges::views::filter([](double v) { return std::isfinite(v); })));
          first += size;
        }
        v.push_back(std::move(s));
      }
      bem::metrics::plot_options o;
      o.title = task + ": " + plot.title + " at T = " + fmt(length) + " (mean over seeds" +
                (bucket > 1 ? ", drawn as means of " + std::to_string(bucket) + " positions" : std::string()) + ")";
      o.x_label = "position t";
      o.y_label = plot.y_label;
      o.y_min = plot.y_min;
      o.y_max = plot.y_max;
      h << bem::metrics::line_chart_svg(v, o) << "\n";
    }
  }
}

/// Every summary that is not a series: mean, interval, seeds; the timing
/// values after the others.
void summary_table(std::ostream& h, const std::vector<const json*>& entries) {
  h << "<table><tr><th>model</th><th>split</th><th>metric</th><th>breakdown</th><th>mean</th><th>95% CI</th>"
       "<th>seeds</th><th>unit</th></tr>\n";
  for (int pass = 0; pass < 2; ++pass)
    for (const auto* e : entries) {
      const json& r = *e;
      if (r.value("timing", false) != (pass == 1) || r.contains("series")) continue;
      std::string ci = "–";
      if (r["ci"].is_object()) ci = "[" + fmt(r["ci"]["low"].get<double>()) + ", " + fmt(r["ci"]["high"].get<double>()) + "]";
      h << "<tr><td>" << html_escape(series_label(r)) << "</td><td>"
        << html_escape(r["split"].is_string() ? r["split"].get<std::string>() : "") << "</td><td>"
        << html_escape(r.value("metric", "")) << "</td><td>"
        << html_escape(r.contains("breakdown") ? compact(r["breakdown"]) : "") << "</td><td class=\"num\">"
        << fmt(r["mean"].is_number() ? r["mean"].get<double>() : std::nan("")) << "</td><td class=\"num\">" << ci
        << "</td><td class=\"num\">" << r.value("n_seeds", 0) << "</td><td>" << html_escape(r.value("unit", ""))
        << "</td></tr>\n";
    }
  h << "</table>\n";
}

/// The page's end: how the timing values were obtained.
void write_footer(std::ostream& h, const json& ctx) {
  h << "<p>Timing values (marked by <code>timing</code> in the records) are "
    << html_escape(ctx.contains("hardware_calibration") ? ctx["hardware_calibration"].value("cycle_method", "") : "")
    << ".</p>\n</body></html>\n";
}

/// The summaries grouped by task, tasks in order of first appearance.
std::vector<std::pair<std::string, std::vector<const json*>>> by_task(const json& summary) {
  std::vector<std::pair<std::string, std::vector<const json*>>> groups;
  for (const auto& e : summary) {
    const std::string t = e.value("task", "");
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == t; });
    if (it == groups.end()) it = groups.insert(groups.end(), {t, {}});
    it->second.push_back(&e);
  }
  return groups;
}

/// For each task (section "task") or model (section "model") name in the
/// summary, the keys of config[section] whose values differ between its
/// entries: what tells its configurations apart.
std::map<std::string, std::set<std::string>> varying_keys(const json& summary, const char* section) {
  std::map<std::string, json> first;
  std::map<std::string, std::set<std::string>> varying;
  for (const auto& e : summary) {
    const std::string name = e.value(section, "");
    const json& c = e["config"][section];
    if (!c.is_object()) continue;
    auto [it, fresh] = first.emplace(name, c);
    varying[name];
    if (fresh) continue;
    for (auto kv = c.begin(); kv != c.end(); ++kv)
      if (!it->second.contains(kv.key()) || it->second[kv.key()] != kv.value()) varying[name].insert(kv.key());
    for (auto kv = it->second.begin(); kv != it->second.end(); ++kv)
      if (!c.contains(kv.key())) varying[name].insert(kv.key());
  }
  return varying;
}

/// `name (k=v, ...)` with only the keys in `keys` of config[section].
std::string label_with(const json& e, const char* section, const std::set<std::string>& keys) {
  json shown = json::object();
  const json& c = e["config"][section];
  if (c.is_object())
    for (const auto& k : keys)
      if (c.contains(k)) shown[k] = c[k];
  const std::string p = compact(shown);
  return e.value(section, "") + (p.empty() ? "" : " (" + p + ")");
}

/// The task's name and its categorical settings (string parameters, such
/// as Dyck-1's labels), which make different tasks of one family.
std::string task_label(const json& e) {
  std::string label = e.value("task", "");
  json kinds = json::object();
  if (e["config"]["task"].is_object())
    for (auto it = e["config"]["task"].begin(); it != e["config"]["task"].end(); ++it)
      if (it.value().is_string()) kinds[it.key()] = it.value();
  const std::string k = compact(kinds);
  return k.empty() ? label : label + " (" + k + ")";
}

/// A mean with its 95% interval, "0.998 [0.997, 0.999]".
std::string with_interval(const json& e) {
  std::string s = fmt(e["mean"].is_number() ? e["mean"].get<double>() : std::nan(""));
  if (e["ci"].is_object()) s += " [" + fmt(e["ci"]["low"].get<double>()) + ", " + fmt(e["ci"]["high"].get<double>()) + "]";
  return s;
}

/// The page's opening summary: for every task x model, the task's headline
/// metric on its test splits (no per-tag breakdowns): the worst split and
/// the longest one, each with its interval across seeds.
void overview_table(std::ostream& h, const json& summary) {
  struct cell {
    const json* worst = nullptr;
    const json* longest = nullptr;
    int splits = 0;
  };
  std::vector<std::pair<std::pair<std::string, std::string>, cell>> rows;
  auto models = varying_keys(summary, "model");
  for (const auto& [task, entries] : by_task(summary)) {
    const std::string metric = headline(entries);
    for (const json* e : entries) {
      const json& r = *e;
      if (r.value("metric", "") != metric || r.contains("breakdown") || r.value("timing", false) || !r["mean"].is_number() ||
          !r["split"].is_string() || r["split"].get<std::string>().rfind("test", 0) != 0)
        continue;
      const auto key = std::make_pair(task_label(r), label_with(r, "model", models[r.value("model", "")]));
      auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& x) { return x.first == key; });
      if (it == rows.end()) it = rows.insert(rows.end(), {key, cell{}});
      cell& c = it->second;
      ++c.splits;
      if (!c.worst || r["mean"].get<double>() < (*c.worst)["mean"].get<double>()) c.worst = e;
      const auto length = [](const json& x) {
        return x.contains("condition") && x["condition"].is_object() ? x["condition"].value("length", 0.0) : 0.0;
      };
      if (!c.longest || length(r) > length(*c.longest)) c.longest = e;
    }
  }
  if (rows.empty()) return;
  h << "<h2>Summary</h2>\n<p>Each task's headline metric on its test splits, mean over seeds with a Student-t 95% "
       "interval: the worst split and the longest one. Details per task follow.</p>\n"
       "<table><tr><th>task</th><th>model</th><th>metric</th><th>test splits</th><th>worst split</th><th>worst</th>"
       "<th>longest split</th><th>at the longest</th></tr>\n";
  for (const auto& [key, c] : rows)
    h << "<tr><td>" << html_escape(key.first) << "</td><td>" << html_escape(key.second) << "</td><td>"
      << html_escape((*c.worst)["metric"].get<std::string>()) << "</td><td class=\"num\">" << c.splits << "</td><td>"
      << html_escape((*c.worst)["split"].get<std::string>()) << "</td><td class=\"num\">" << with_interval(*c.worst)
      << "</td><td>" << html_escape((*c.longest)["split"].get<std::string>()) << "</td><td class=\"num\">"
      << with_interval(*c.longest) << "</td></tr>\n";
  h << "</table>\n";
}

/// BEM §6.3's optional composite scores, informative: S_fast =
/// tokens_per_second x (1 - error rate), both averaged over the parity and
/// key-value retrieval test splits a model ran; S_learn = 1 / (1 +
/// normalized_regret) per bandit policy; S_safe = 1 / (1 +
/// verification_to_fast_path_ratio) per §5.3 run, and 0 with any safety
/// violation (the spec's "severely penalizes": a violation is a failure).
void composite_scores(std::ostream& h, const json& summary) {
  struct fast {
    double tps = 0, err = 0;
    int n_tps = 0, n_err = 0;
    std::set<std::string> tasks;
  };
  std::map<std::string, fast> by_model;
  std::vector<std::pair<std::string, double>> learn;
  struct safe {
    std::optional<double> ratio, violations;
  };
  std::map<std::string, safe> safety;
  auto models = varying_keys(summary, "model"), tasks = varying_keys(summary, "task");
  for (const auto& e : summary) {
    const std::string task = e.value("task", ""), metric = e.value("metric", "");
    const std::string split = e["split"].is_string() ? e["split"].get<std::string>() : "";
    if (!e["mean"].is_number()) continue;
    const double mean = e["mean"].get<double>();
    if (metric == "verification_to_fast_path_ratio" || metric == "safety_violations") {
      safe& s = safety[label_with(e, "task", tasks[task]) + (split.empty() ? "" : ", " + split)];
      (metric == "safety_violations" ? s.violations : s.ratio) = mean;
    }
    if (e.contains("breakdown")) continue;
    if ((task == "parity" || task == "kv_retrieval") && split.rfind("test", 0) == 0) {
      fast& f = by_model[label_with(e, "model", models[e.value("model", "")])];
      if (metric == "tokens_per_second") f.tps += mean, ++f.n_tps, f.tasks.insert(task);
      if (metric == "error_rate") f.err += mean, ++f.n_err;
    }
    if (metric == "normalized_regret")
      learn.emplace_back(label_with(e, "task", tasks[task]) + ", " + split, 1.0 / (1.0 + mean));
  }
  if (by_model.empty() && learn.empty() && safety.empty()) return;
  h << "<h2>Composite scores (BEM §6.3, informative)</h2>\n<table><tr><th>score</th><th>for</th><th>value</th>"
       "<th>from</th></tr>\n";
  for (const auto& [model, f] : by_model) {
    if (f.n_tps == 0 || f.n_err == 0) continue;
    std::string from;
    for (const auto& t : f.tasks) from += (from.empty() ? "" : ", ") + t;
    h << "<tr><td>S_fast = tokens/s x (1 - error rate)</td><td>" << html_escape(model) << "</td><td class=\"num\">"
      << fmt((f.tps / f.n_tps) * (1.0 - f.err / f.n_err)) << "</td><td>" << html_escape(from) << " test splits</td></tr>\n";
  }
  for (const auto& [what, score] : learn)
    h << "<tr><td>S_learn = 1 / (1 + regret per round)</td><td>" << html_escape(what) << "</td><td class=\"num\">"
      << fmt(score) << "</td><td>normalized_regret</td></tr>\n";
  for (const auto& [what, s] : safety) {
    if (!s.ratio || !s.violations) continue;
    const double score = *s.violations > 0 ? 0.0 : 1.0 / (1.0 + *s.ratio);
    h << "<tr><td>S_safe = 1 / (1 + verification / fast path), 0 with a violation</td><td>" << html_escape(what)
      << "</td><td class=\"num\">" << fmt(score) << "</td><td>verification_to_fast_path_ratio, safety_violations</td></tr>\n";
  }
  if (safety.empty())
    h << "<tr><td>S_safe</td><td>–</td><td>not measured</td><td>no BEM §5.3 safety_program run in these records</td></tr>\n";
  h << "</table>\n";
}

/// report.html: the context, the summary of every task x model, the
/// failures, then one section per task.
std::string render_html(const json& metrics) {
  const json& ctx = metrics["context"];
  std::ostringstream h;
  write_header(h, ctx);
  overview_table(h, metrics["summary"]);
  composite_scores(h, metrics["summary"]);
  write_failures(h, metrics);
  for (const auto& [task, entries] : by_task(metrics["summary"])) {
    h << "<h2>" << html_escape(task) << "</h2>\n";
    for (const char* key : {"category", "difficulty", "goal", "tag"}) breakdown_table(h, entries, key);
    length_chart(h, task, entries);
    position_charts(h, task, entries);
    regret_curves(h, entries);
    summary_table(h, entries);
  }
  write_footer(h, ctx);
  return h.str();
}

}  // namespace

json build_context(const suite& s, const std::vector<std::string>& command_line, const bem::plugin_registry& reg) {
  json ctx;
  ctx["date"] = utc_now();
  ctx["bem_version"] = bem::version_string;
  ctx["abi_tag"] = bem::abi_tag;
  ctx["git_revision"] = BEM_GIT_REVISION;
  ctx["compiler"] = BEM_COMPILER;
  ctx["build_flags"] = BEM_BUILD_FLAGS;
  ctx["command_line"] = command_line;
  ctx["suite"] = {{"name", s.name}, {"description", s.description}, {"source", s.source}, {"runs", s.runs.size()}};
  const auto hw = bem::probe_hardware();
  json hardware = json::object(), calibration = json::object();
  // A base clock that is really the measured TSC frequency varies like it.
  const bool base_is_tsc = hw.base_clock_source.rfind("TSC", 0) == 0;
  for (const auto& [k, v] : bem::to_fields(hw))
    (is_calibration_field(k) || (base_is_tsc && k == "base_clock_hz") ? calibration : hardware)[k] = json::parse(v);
  // The stable part of how cycles are obtained; the figures are in the calibration.
  hardware["cycle_counting"] = bem::cycle_counting_method(hw.counters_available);
  ctx["hardware"] = hardware;
  ctx["W_hw"] = hw.simd_width_bits;  // §6.1: the SIMD width the machine's lanes map to
  ctx["hardware_calibration"] = calibration;
  json plugins = json::array();
  for (const auto& p : reg.plugins())
    plugins.push_back({{"name", p.plugin}, {"version", p.plugin_version}, {"path", p.path}, {"abi_tag", p.library_abi_tag}});
  ctx["plugins"] = plugins;
  json failures = json::array();
  for (const auto& f : reg.failures()) failures.push_back(f.describe());
  ctx["plugin_failures"] = failures;
  return ctx;
}

void check_records(const std::vector<json>& records, const std::string& path) {
  struct field {
    const char* name;
    const char* type;
    bool (*holds)(const json&);
  };
  static const field fields[] = {
      {"run_id", "a string", [](const json& v) { return v.is_string(); }},
      {"task", "a string", [](const json& v) { return v.is_string(); }},
      {"model", "a string", [](const json& v) { return v.is_string(); }},
      {"metric", "a string", [](const json& v) { return v.is_string(); }},
      {"status", "a string", [](const json& v) { return v.is_string(); }},
      {"seed", "a non-negative integer", [](const json& v) { return v.is_number_unsigned(); }},
      {"config", "an object with \"task\" and \"model\"",
       [](const json& v) { return v.is_object() && v.contains("task") && v.contains("model"); }},
      {"ci", "null or an object with numbers \"low\" and \"high\"",
       [](const json& v) {
         return v.is_null() || (v.is_object() && v.contains("low") && v["low"].is_number() && v.contains("high") &&
                                v["high"].is_number());
       }},
      {"split", "present", [](const json&) { return true; }},
      {"condition", "present", [](const json&) { return true; }},
      {"value", "present", [](const json&) { return true; }},
      {"error", "present", [](const json&) { return true; }},
  };
  for (std::size_t i = 0; i < records.size(); ++i) {
    const json& r = records[i];
    const std::string which = path + ": record " + std::to_string(i + 1);
    if (!r.is_object()) throw std::runtime_error(which + " is not a JSON object (not a record bem-bench writes)");
    for (const auto& f : fields)
      if (!r.contains(f.name) || !f.holds(r[f.name]))
        throw std::runtime_error(which + ": field '" + f.name + "' " + (r.contains(f.name) ? "is not " : "missing, must be ") +
                                 f.type + " (not a record bem-bench writes)");
  }
}

std::set<std::string> finished_runs(const std::vector<json>& records) {
  std::set<std::string> ids;
  for (const auto& r : records)
    if (r.value("metric", "") == "run_wall_time" && r.value("status", "") == "ok") ids.insert(r.value("run_id", ""));
  return ids;
}

json summarize_records(const std::vector<json>& records) {
  // Only runs that finished: the records a failed or interrupted run wrote
  // before it stopped describe a measurement that did not complete.
  const std::set<std::string> finished = finished_runs(records);
  std::vector<std::string> order;
  std::map<std::string, std::vector<const json*>> groups;
  for (const auto& r : records) {
    if (r.value("status", "") != "ok" || r.value("metric", "") == "run_wall_time") continue;
    if (!finished.count(r.value("run_id", ""))) continue;
    const std::string k = summary_key(r);
    if (!groups.count(k)) order.push_back(k);
    groups[k].push_back(&r);
  }
  json out = json::array();
  for (const auto& k : order) {
    auto& g = groups[k];
    // By seed: merged shards and a single run give the same summary, to the bit.
    std::sort(g.begin(), g.end(), [](const json* a, const json* b) {
      const auto sa = (*a)["seed"].get<std::uint64_t>(), sb = (*b)["seed"].get<std::uint64_t>();
      return sa != sb ? sa < sb : (*a)["run_id"].get<std::string>() < (*b)["run_id"].get<std::string>();
    });
    const json& first = *g.front();
    const auto field = [&g](const char* key) {
      return g | ranges::views::transform([key](const json* r) -> const json& { return (*r)[key]; });
    };
    const json seeds = field("seed") | ranges::to<std::vector<json>>();
    const auto values = field("value") | numbers | ranges::to<std::vector<double>>();
    json e;
    for (const char* f : {"task", "task_version", "model", "model_version", "config", "split", "condition", "metric",
                          "unit", "better", "timing", "breakdown", "series_axis"})
      if (first.contains(f)) e[f] = first[f];
    e["n_seeds"] = g.size();
    e["seeds"] = seeds;
    if (values.empty()) {
      e["mean"] = nullptr;
      e["stddev"] = nullptr;
      e["ci"] = nullptr;
    } else {
      const auto sum = bem::metrics::summarize(values);
      e["mean"] = sum.mean;
      e["stddev"] = values.size() > 1 ? json(sum.stddev) : json(nullptr);
      if (values.size() > 1) {
        const auto ci = bem::metrics::t_interval(sum);
        e["ci"] = {{"low", ci.low}, {"high", ci.high}, {"method", "t across seeds"}, {"level", 0.95}};
      } else if (first["ci"].is_object()) {
        e["ci"] = first["ci"];  // one seed: the within-run interval
      } else {
        e["ci"] = nullptr;
      }
    }
    if (first.contains("series")) {
      // Position by position, over the seeds whose series has this length.
      const std::size_t T = first["series"].size();
      auto same_length =  // not const: a filter view caches its begin
          g | ranges::views::filter([T](const json* r) { return r->contains("series") && (*r)["series"].size() == T; });
      json s = json::array();
      for (std::size_t i = 0; i < T; ++i) {
        const double m = mean_of(same_length | ranges::views::transform([i](const json* r) { return (*r)["series"][i]; }) |
                                 numbers);
        s.push_back(std::isnan(m) ? json(nullptr) : json(m));
      }
      e["series"] = s;
    }
    out.push_back(std::move(e));
  }
  return out;
}

void write_outputs(const std::vector<std::string>& dirs, const std::string& out_dir) try {
  json context;
  std::vector<std::vector<json>> per_dir;
  for (const auto& d : dirs) {
    const fs::path dir = d;
    if (context.is_null()) {
      const std::string path = (dir / "context.json").string();
      std::ifstream in(path);
      if (!in) throw std::runtime_error(path + ": cannot open (is this a results directory?)");
      context = json::parse(in, nullptr, false);
      if (context.is_discarded()) throw std::runtime_error(path + ": not valid JSON");
      if (!context.is_object() || !context.contains("suite") || !context["suite"].is_object())
        throw std::runtime_error(path + ": not a context.json written by bem-bench (no \"suite\" object)");
    }
    bool dropped = false;
    const std::string results = (dir / "results.jsonl").string();
    per_dir.push_back(bem::metrics::read_jsonl(results, &dropped));
    if (dropped) std::fprintf(stderr, "note: %s: dropped a torn last line\n", results.c_str());
    check_records(per_dir.back(), results);
  }
  // A run found in several directories (a shard run twice, a directory
  // given twice) counts once: from the first directory where it finished,
  // else the first where it appears.
  std::map<std::string, std::size_t> source;
  for (std::size_t i = 0; i < per_dir.size(); ++i)
    for (const auto& id : finished_runs(per_dir[i])) source.emplace(id, i);
  for (std::size_t i = 0; i < per_dir.size(); ++i)
    for (const auto& r : per_dir[i]) source.emplace(r.value("run_id", ""), i);
  std::vector<json> records;
  for (std::size_t i = 0; i < per_dir.size(); ++i) {
    std::size_t repeated = 0;
    for (auto& r : per_dir[i]) {
      if (source[r.value("run_id", "")] == i) records.push_back(std::move(r));
      else ++repeated;
    }
    if (repeated)
      std::fprintf(stderr, "note: %s/results.jsonl: left out %zu records of runs read from another directory\n",
                   dirs[i].c_str(), repeated);
  }
  json failures = json::array();
  std::set<std::string> ended;  // runs with a run_wall_time record, failed or not
  for (const auto& r : records) {
    if (r.value("metric", "") == "run_wall_time") ended.insert(r.value("run_id", ""));
    if (r.value("status", "") == "failed" && r.value("metric", "") == "run_error")
      failures.push_back({{"run_id", r["run_id"]}, {"task", r["task"]}, {"model", r["model"]}, {"seed", r["seed"]},
                          {"error", r["error"]}});
  }
  // A run with records but no end record was interrupted: it is left out of
  // the summaries, and said here.
  std::set<std::string> unfinished;
  for (const auto& r : records) {
    const std::string id = r.value("run_id", "");
    if (ended.count(id) || !unfinished.insert(id).second) continue;
    failures.push_back({{"run_id", r["run_id"]}, {"task", r["task"]}, {"model", r["model"]}, {"seed", r["seed"]},
                        {"error", "unfinished: the run was interrupted before its last record (--resume runs it again)"}});
  }
  json metrics = {{"context", context}, {"results", records}, {"summary", summarize_records(records)},
                  {"failures", failures}};
  fs::create_directories(out_dir);
  write_file_atomically((fs::path(out_dir) / "metrics.json").string(), metrics.dump(1) + "\n");
  write_file_atomically((fs::path(out_dir) / "report.html").string(), render_html(metrics));
} catch (const json::exception& e) {
  // A field of another type than the schema's: an error naming the directories.
  std::string named;
  for (const auto& d : dirs) named += (named.empty() ? "" : ", ") + d;
  throw std::runtime_error(named + ": records that bem-bench cannot read: " + e.what());
}

/// The comparison key: a summary's identity, without the model when a new
/// model is compared with a baseline model.
std::string compare_key(const json& e, bool across_models) {
  if (!across_models) return summary_key(e);
  json k = json::parse(summary_key(e));
  k.erase("model");
  k.erase("model_version");
  if (k["config"].is_object()) k["config"].erase("model");
  return k.dump();
}

namespace {

/// The fields of a task configuration that name the data it ran on (the
/// rust_cargo suite records its dataset's version and SHA-256 there):
/// results on different data are not comparable.
const char* const data_fields[] = {"benchmark_version", "dataset_sha256"};

json data_of(const json& e) {
  json d = json::object();
  if (!e.contains("config") || !e["config"].is_object()) return d;
  const json& config = e["config"];
  if (!config.contains("task") || !config["task"].is_object()) return d;
  for (const char* f : data_fields)
    if (config["task"].contains(f)) d[f] = config["task"][f];
  return d;
}

/// The comparison key without the data fields: equal for two results that
/// differ only in the data they ran on.
std::string key_without_data(const json& e, bool across_models) {
  json k = json::parse(compare_key(e, across_models));
  if (k["config"].is_object() && k["config"]["task"].is_object())
    for (const char* f : data_fields) k["config"]["task"].erase(f);
  return k.dump();
}

/// Refuses to gate results whose configurations differ only in their data:
/// a drop there says nothing about the model.
void check_same_data(const json& base, const json& cur, bool across_models) {
  std::map<std::string, json> current_data;
  for (const auto& e : cur["summary"]) current_data.emplace(key_without_data(e, across_models), data_of(e));
  std::set<std::string> mismatches;
  for (const auto& b : base["summary"]) {
    const auto it = current_data.find(key_without_data(b, across_models));
    const json data = data_of(b);
    if (it == current_data.end() || data.empty() || it->second == data) continue;
    mismatches.insert(b.value("task", "") + ": baseline " + compact(data) + ", current " + compact(it->second));
  }
  if (mismatches.empty()) return;
  std::string list;
  for (const auto& m : mismatches) list += "\n  " + m;
  throw std::runtime_error("the baseline and the current results ran on different data, so they are not comparable "
                           "(run both on the same dataset version and contents):" + list);
}

}  // namespace

int compare_metrics(const std::string& baseline, const std::string& current, double max_drop, bool include_timing,
                    bool across_models, std::ostream& out) try {
  const json base = read_metrics_json(baseline), cur = read_metrics_json(current);
  for (const auto& [file, j] : {std::pair<const std::string&, const json&>{baseline, base}, {current, cur}}) {
    const bool ok = j.is_object() && j.contains("summary") && j["summary"].is_array() &&
                    std::all_of(j["summary"].begin(), j["summary"].end(), [](const json& e) {
                      return e.is_object() && e.contains("mean") && e.contains("config");
                    });
    if (!ok) throw std::runtime_error(file + ": not a metrics.json written by bem-bench (no list of summaries)");
  }
  check_same_data(base, cur, across_models);
  std::map<std::string, const json*> current_by_key;
  for (const auto& [file, j] : {std::pair<const std::string&, const json&>{baseline, base}, {current, cur}}) {
    std::map<std::string, const json*> by_key;
    for (const auto& e : j["summary"])
      if (!by_key.emplace(compare_key(e, across_models), &e).second)
        throw std::runtime_error(file + ": several models give '" + e.value("metric", "") +
                                 "' for one configuration; --across-models compares one model per file");
    if (&j == &cur) current_by_key = std::move(by_key);
  }
  int gated = 0, failed = 0;
  out << std::left << std::setw(8) << "status" << std::setw(60) << "task / model / split / metric" << std::right
      << std::setw(12) << "baseline" << std::setw(12) << "current" << std::setw(10) << "change" << "\n";
  for (const auto& b : base["summary"]) {
    if (b.value("better", "") != "higher") continue;
    if (b.value("timing", false) && !include_timing) continue;
    if (!b["mean"].is_number()) continue;
    ++gated;
    // Fields a summary may lack are read with value() or after contains():
    // operator[] of a const object is undefined for a missing key.
    const json split = b.value("split", json());
    std::string what = b.value("task", "") + " / " + b.value("model", "") + " / " +
                       (split.is_string() ? split.get<std::string>() : "-") + " / " + b.value("metric", "");
    if (b.contains("breakdown")) what += " [" + compact(b["breakdown"]) + "]";
    const json& config = b["config"];  // present: checked above
    const std::string model_config = config.is_object() && config.contains("model") ? compact(config["model"]) : "";
    if (!model_config.empty()) what += " (" + model_config + ")";
    const double bv = b["mean"].get<double>();
    auto it = current_by_key.find(compare_key(b, across_models));
    if (it == current_by_key.end() || !(*it->second)["mean"].is_number()) {
      ++failed;
      out << std::left << std::setw(8) << "MISSING" << std::setw(60) << what << std::right << std::setw(12) << fmt(bv)
          << std::setw(12) << "-" << std::setw(10) << "-" << "\n";
      continue;
    }
    const double cv = (*it->second)["mean"].get<double>();
    // A drop of exactly max_drop passes: the limit gets a relative margin
    // of 1e-12 for the rounding of (bv - cv).
    const bool bad = bv - cv > max_drop * std::fabs(bv) * (1 + 1e-12);
    failed += bad;
    std::ostringstream change;
    change << std::showpos << std::fixed << std::setprecision(1);
    if (bv != 0) change << (cv - bv) / std::fabs(bv) * 100 << "%";
    else change << std::setprecision(3) << cv - bv << " abs";
    out << std::left << std::setw(8) << (bad ? "FAIL" : "ok") << std::setw(60) << what << std::right << std::setw(12)
        << fmt(bv) << std::setw(12) << fmt(cv) << std::setw(10) << change.str() << "\n";
  }
  out << gated - failed << " passed, " << failed << " failed (gate: relative drop above " << max_drop * 100
      << "% on higher-is-better metrics" << (include_timing ? "" : ", timing excluded") << ")\n";
  return failed ? 1 : 0;
} catch (const json::exception& e) {
  // A field of another type than bem-bench writes: an error naming the files.
  throw std::runtime_error(baseline + ", " + current + ": not metrics.json files bem-bench can compare: " + e.what());
}

}  // namespace bench_driver
