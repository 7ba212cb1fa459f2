#include "runner.hpp"

#include "report.hpp"
#include "results_dir.hpp"

#include <bem/platform/cycles.hpp>
#include <bem/plugin/adapter.hpp>
#include <bem/prng.hpp>
#include <bem/plugin/toml_parameters.hpp>
#include <metrics/sequence_metrics.hpp>

#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <span>

namespace bench_driver {

using json = bem::metrics::json;
namespace fs = std::filesystem;

namespace {

/// Minimum test sequences per configuration in BEM suite 3.x full protocols.
constexpr std::int64_t full_protocol_test_sequences = 10000;

const bem_model_type_v1* resolve_model(const run_spec& r, bem::plugin_registry& reg, const bem::task_entry* task,
                                       std::string& origin, std::string& error) {
  if (r.model == "reference") {
    if (task == nullptr) {
      error = reg.not_found_message("task", r.task);
      return nullptr;
    }
    if (task->type->reference_model == nullptr) {
      error = "task '" + r.task + "' has no reference solver";
      return nullptr;
    }
    origin = task->origin.plugin;
    return task->type->reference_model;
  }
  const auto* m = reg.find_model(r.model);
  if (m == nullptr) {
    error = reg.not_found_message("model", r.model);
    return nullptr;
  }
  origin = m->origin.plugin;
  return m->type;
}

/// A creation error that names a parameter ("parameter 'x': ..."), as a
/// configuration error at that key's place in the suite:
/// "FILE:LINE:COLUMN: task 'rtc': parameter 'x': ...". Other errors are left
/// to fail their runs.
void config_error_if_parameter(const run_spec& r, const std::string& table, const std::string& subject,
                               const bem::plugin_error& e) {
  static const std::regex key_re("parameter '([^']+)'");
  std::smatch m;
  if (!std::regex_search(e.detail(), m, key_re)) return;
  throw config_error(locate(r, table, m[1].str()).str() + ": " + subject + ": " + e.detail());
}

/// A run's configuration: its task's and model's parameters, and the
/// protocol for a task trained and tested on sequences. A benchmark reads
/// no protocol (batch_size, test_sequences, ...): in its configuration the
/// protocol would only keep two equal measurements from pairing.
json run_configuration(const run_spec& r, json task_cfg, json model_cfg, bool benchmark) {
  json c = {{"task", std::move(task_cfg)}, {"model", std::move(model_cfg)}};
  if (!benchmark) c["protocol"] = json::parse(bem::parameters_to_json(r.proto.as_values()));
  return c;
}

/// Everything fixed about one run before it executes.
struct prepared_run {
  const run_spec* spec = nullptr;
  const bem_benchmark_type_v1* bench_type = nullptr;  ///< set when the "task" is a microbenchmark
  const bem_task_type_v1* task_type = nullptr;
  const bem_model_type_v1* model_type = nullptr;
  std::string task_plugin, model_plugin;
  std::string resolve_error;  ///< non-empty: the run fails with this
  std::string task_toml, model_toml;
  json config;
  std::string run_id;
};

prepared_run prepare(const run_spec& r, bem::plugin_registry& reg) {
  prepared_run p;
  p.spec = &r;
  p.task_toml = bem::parameters_to_toml(r.task_params);
  p.model_toml = bem::parameters_to_toml(r.model_params);
  json task_cfg = json::parse(bem::parameters_to_json(r.task_params));
  json model_cfg = json::parse(bem::parameters_to_json(r.model_params));
  const auto* task = reg.find_task(r.task);
  if (const auto* bench = reg.find_benchmark(r.task)) {
    p.bench_type = bench->type;
    p.task_plugin = bench->origin.plugin;
    bem::benchmark_instance b(bench->type, p.task_toml, p.task_plugin);  // throws plugin_error for bad parameters
    task_cfg = json::parse(b.effective_parameters());
    if (r.model != "none" && !b.takes_model())
      p.resolve_error = "'" + r.task + "' is a microbenchmark and takes no model (got '" + r.model + "')";
  } else if (r.model == "none") {
    p.resolve_error = task ? "task '" + r.task + "' needs a model" : reg.not_found_message("task", r.task);
  } else if (task == nullptr) {
    p.resolve_error = reg.not_found_message("task", r.task);
  } else {
    p.task_type = task->type;
    p.task_plugin = task->origin.plugin;
    bem::task_instance t(task->type, p.task_toml, p.task_plugin);  // throws plugin_error for bad parameters
    task_cfg = json::parse(t.effective_parameters());
    p.model_type = resolve_model(r, reg, task, p.model_plugin, p.resolve_error);
    if (p.model_type != nullptr) {
      bem::model_instance m(p.model_type, p.model_toml, p.model_plugin);
      model_cfg = json::parse(m.effective_parameters());
    }
  }
  p.config = run_configuration(r, task_cfg, model_cfg, p.bench_type != nullptr);
  const char* task_version = p.bench_type ? p.bench_type->version : p.task_type ? p.task_type->version : "";
  json identity = {{"task", r.task},
                   {"task_version", task_version},
                   {"model", r.model},
                   {"model_version", p.model_type ? p.model_type->version : ""},
                   {"config", p.config},
                   {"seed", r.seed}};
  p.run_id = bem::metrics::hex_id(identity.dump());
  return p;
}

/// Writes the records of one run, all sharing its identity fields.
class run_recorder {
 public:
  run_recorder(bem::metrics::jsonl_appender& out, const suite& s, const prepared_run& p) : out_(out) {
    base_ = {{"run_id", p.run_id},
             {"suite", s.name},
             {"run", p.spec->label},
             {"task", p.spec->task},
             {"task_version", p.bench_type  ? json(p.bench_type->version)
                              : p.task_type ? json(p.task_type->version)
                                            : json(nullptr)},
             {"task_plugin", p.task_plugin},
             {"model", p.spec->model},
             {"model_version", p.model_type ? json(p.model_type->version) : json(nullptr)},
             {"model_plugin", p.model_plugin},
             {"config", p.config},
             {"seed", p.spec->seed},
             {"status", "ok"},
             {"error", nullptr},
             {"timing", false}};
    if (p.bench_type == nullptr && p.spec->proto.test_sequences < full_protocol_test_sequences)
      base_["notes"] = json::array({"test_sequences=" + std::to_string(p.spec->proto.test_sequences) +
                                    " is below the 10^4 per configuration of the BEM suite's full protocol"});
  }

  /// A measured value. Plugins' figures, series and records come here too,
  /// so the name is checked: the end records' names are the driver's own
  /// (run_wall_time marks a finished run for --resume and the summaries).
  void metric(const std::string& split, const json& condition, const bem::metrics::metric_value& m, bool timing = false) {
    if (m.metric.empty()) throw std::invalid_argument("a value without a name");
    if (m.metric == "run_wall_time" || m.metric == "run_error")
      throw std::invalid_argument("'" + m.metric + "' names the driver's own record of a run's end");
    write(make(split, condition, m, timing));
  }

  void simple(const std::string& split, const std::string& name, double value, const std::string& unit,
              bem::metrics::better b, bool timing, std::int64_t n = 0, const std::string& n_unit = "") {
    bem::metrics::metric_value m = named(name, value, unit, n, n_unit);
    m.direction = b;
    metric(split, json::object(), m, timing);
  }

  /// From now on every record carries the machine's §6.1 configuration.
  void set_machine(const std::string& configuration) {
    json c = json::parse(configuration, nullptr, false);
    if (!c.is_object()) throw std::runtime_error("machine_configuration: the model returned no JSON object");
    base_["machine"] = std::move(c);
  }

  void failure(const std::string& error) {
    json r = make(nullptr, json::object(), named("run_error", std::nan(""), "", 0, ""), false);
    r["status"] = "failed";
    r["error"] = error;
    write(r);
  }

  /// The last record of every run; its presence marks the run as finished.
  void finish(double seconds, bool ok) {
    json r = make(nullptr, json::object(), named("run_wall_time", seconds, "s", 1, "runs"), true);
    r["status"] = ok ? "ok" : "failed";
    write(r);
  }

 private:
  void write(const json& record) {
    kill_hook::before_record(record);
    out_.append(record);
  }

  static bem::metrics::metric_value named(const std::string& name, double value, const std::string& unit,
                                          std::int64_t n, const std::string& n_unit) {
    bem::metrics::metric_value m;
    m.metric = name;
    m.value = value;
    m.unit = unit;
    m.n = n;
    m.n_unit = n_unit;
    return m;
  }

  json make(const json& split, const json& condition, const bem::metrics::metric_value& m, bool timing) const {
    json r = base_;
    r["split"] = split;
    r["condition"] = condition;
    r["metric"] = m.metric;
    r["value"] = std::isfinite(m.value) ? json(m.value) : json(nullptr);
    r["unit"] = m.unit;
    r["better"] = std::string(bem::metrics::to_string(m.direction));
    r["ci"] = m.ci ? json{{"low", m.ci->low}, {"high", m.ci->high}, {"method", m.ci->method}, {"level", 0.95}}
                   : json(nullptr);
    r["n"] = m.n;
    r["n_unit"] = m.n_unit;
    if (!m.breakdown.empty()) {
      json b = json::object();
      for (const auto& [k, v] : m.breakdown) b[k] = v;
      r["breakdown"] = b;
    }
    if (!m.series.empty()) {
      json s = json::array();
      for (double v : m.series) s.push_back(std::isfinite(v) ? json(v) : json(nullptr));
      r["series"] = s;
      r["series_axis"] = m.series_axis;
    }
    r["timing"] = timing;
    return r;
  }

  bem::metrics::jsonl_appender& out_;
  json base_;
};

std::string headline_metric(const bem::tasks::task_spec& spec) {
  return spec.output == bem::tasks::output_kind::binary_per_position ? "per_position_accuracy" : "accuracy";
}

double find_metric(const std::vector<bem::metrics::metric_value>& v, const std::string& name) {
  for (const auto& m : v)
    if (m.metric == name && m.breakdown.empty()) return m.value;
  return std::nan("");
}

struct split_ref {
  std::int32_t index;
  std::string name;
  json condition;
};

/// Evaluates `count` sequences of a split with learning off.
struct evaluation {
  std::vector<bem::metrics::metric_value> metrics;
  double predict_cycles = 0;
  double prefix_cycles = 0;  ///< predicting the same sequences without their last token
  std::int64_t tokens = 0, sequences = 0;
};

/// The batch without each sequence's last real token (nothing scored): what a
/// model computes before the final answer step.
void drop_last_token(const bem::tasks::sequence_batch& b, bem::tasks::sequence_batch& out) {
  out.reset(b.batch_size, b.length - 1);
  for (std::int32_t s = 0; s < b.batch_size; ++s) {
    for (std::int32_t t = 0; t < out.length; ++t) out.input(s, t) = b.input(s, t);
    out.lengths[static_cast<std::size_t>(s)] = std::max(1, b.lengths[static_cast<std::size_t>(s)] - 1);
    out.tags[static_cast<std::size_t>(s)] = b.tags[static_cast<std::size_t>(s)];
  }
}

evaluation evaluate(bem::task_instance& task, bem::model_instance& model, const bem::tasks::task_spec& spec,
                    const split_ref& split, std::uint64_t seed, std::int64_t count, std::int64_t batch_size,
                    bem::cycle_counter& counter, bool check_purity) {
  evaluation e;
  bem::metrics::sequence_evaluator ev(spec);
  bem::tasks::sequence_batch batch, prefix;
  bem::tasks::prediction pred, again;
  // Final-answer tasks also time the prefix, for the cost of the answer step.
  const bool final_answer = spec.output != bem::tasks::output_kind::binary_per_position;
  for (std::int64_t first = 0; first < count; first += batch_size) {
    const auto n = static_cast<std::int32_t>(std::min(batch_size, count - first));
    task.generate(split.index, seed, first, n, batch);
    pred.reset_for(batch, spec);
    counter.start();
    model.predict(batch, pred);
    const auto sample = counter.stop();
    e.predict_cycles += sample.cycles;
    if (final_answer && batch.length >= 2) {
      drop_last_token(batch, prefix);
      again.reset_for(prefix, spec);
      counter.start();
      model.predict(prefix, again);
      e.prefix_cycles += counter.stop().cycles;
    }
    if (check_purity && first == 0) {
      again.reset_for(batch, spec);
      model.predict(batch, again);
      if (std::memcmp(pred.logits.data(), again.logits.data(), pred.logits.size() * sizeof(float)) != 0)
        throw std::runtime_error("model '" + std::string(model.type()->name) +
                                 "' gave different logits for the same batch with learning off "
                                 "(law 1 of bem::sequence_model: evaluation must not change the model)");
    }
    for (auto l : batch.lengths) e.tokens += l;
    e.sequences += n;
    ev.add(batch, pred);
  }
  e.metrics = ev.results();
  return e;
}

/// A microbenchmark measures itself; each of its records becomes one of ours.
/// One that evaluates a model (code generation) also gets the model and a
/// folder of the run's own for its artefacts: OUT/artifacts/RUN_ID.
void execute_benchmark(const prepared_run& p, run_recorder& rec, const std::string& out_dir) {
  bem::benchmark_instance bench(p.bench_type, p.task_toml, p.task_plugin);
  bem::benchmark_context context;
  context.seed = p.spec->seed;
  context.model = p.spec->model;
  context.model_parameters_toml = p.model_toml;
  if (bench.takes_model()) {
    const auto dir = fs::path(out_dir) / "artifacts" / p.run_id;
    fs::create_directories(dir);
    context.artifact_dir = dir.string();
  }
  bench.run(context, [&](const bem::benchmark_record& r, const std::string& condition) {
    rec.metric(r.split, json::parse(condition), r.value, r.timing);
  });
}

/// A task's splits by role: the first train and validation split, every test split.
struct split_roles {
  std::optional<split_ref> train, validation;
  std::vector<split_ref> tests;
};

split_roles roles_of(const bem::task_instance& task, const std::string& task_name) {
  split_roles roles;
  for (std::int32_t i = 0; i < task.split_count(); ++i) {
    const auto s = task.split(i);
    split_ref ref{i, s.name, json::parse(s.condition_json)};
    if (s.role == BEM_SPLIT_TRAIN && !roles.train) roles.train = ref;
    else if (s.role == BEM_SPLIT_VALIDATION && !roles.validation) roles.validation = ref;
    else if (s.role == BEM_SPLIT_TEST) roles.tests.push_back(ref);
  }
  if (roles.tests.empty()) throw std::runtime_error("task '" + task_name + "' declares no test split");
  return roles;
}

/// One run's task and model, created and reset, with what every phase reads.
struct run_state {
  const run_spec& spec;
  bem::task_instance task;
  bem::model_instance model;
  bem::tasks::task_spec task_spec;
  split_roles splits;
  bem::cycle_counter& counter;
  run_recorder& rec;
};

/// Training: fresh sequences every epoch, optional early stopping, and the
/// records of how it went.
void train(run_state& run) {
  const run_spec& r = run.spec;
  const protocol& proto = r.proto;
  auto& task = run.task;
  auto& model = run.model;
  const auto& spec = run.task_spec;
  const auto& splits = run.splits;
  if (!splits.train) throw std::runtime_error("task '" + r.task + "' declares no train split");
  bem::tasks::sequence_batch batch;
  double last_loss = std::nan(""), best = -1;
  std::int64_t epochs_run = 0, best_epoch = 0, since_best = 0, tokens = 0;
  double seconds = 0;
  // The best validation epoch's weights are what the test splits see,
  // where the model keeps checkpoints (the seed's early stopping reports
  // its best epoch).
  const bool validating = splits.validation && proto.validation_sequences > 0;
  const bool keep_best = proto.restore_best && validating && model.checkpoints();
  for (std::int64_t epoch = 0; epoch < proto.epochs; ++epoch) {
    model.set_learning(true);
    double loss_sum = 0;
    std::int64_t loss_n = 0;
    for (std::int64_t first = 0; first < proto.train_sequences; first += proto.batch_size) {
      const auto n = static_cast<std::int32_t>(std::min(proto.batch_size, proto.train_sequences - first));
      task.generate(splits.train->index, r.seed, epoch * proto.train_sequences + first, n, batch);
      const auto t0 = std::chrono::steady_clock::now();
      const double loss = model.learn(batch);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      for (auto l : batch.lengths) tokens += l;
      // learn() gives the batch's mean per scored position: weigh it by them
      const std::int64_t scored = batch.scored_positions();
      if (std::isfinite(loss) && scored > 0) {
        loss_sum += loss * static_cast<double>(scored);
        loss_n += scored;
      }
    }
    ++epochs_run;
    last_loss = loss_n ? loss_sum / static_cast<double>(loss_n) : std::nan("");
    if (validating) {
      model.set_learning(false);
      const auto v = evaluate(task, model, spec, *splits.validation, r.seed, proto.validation_sequences,
                              proto.batch_size, run.counter, false);
      const double score = find_metric(v.metrics, headline_metric(spec));
      if (score > best) {
        best = score;
        best_epoch = epoch + 1;
        since_best = 0;
        if (keep_best) model.keep_checkpoint();
      } else if (proto.patience > 0 && ++since_best >= proto.patience) {
        break;
      }
    } else {
      best_epoch = epoch + 1;
    }
  }
  const bool restore = keep_best && best_epoch > 0 && best_epoch < epochs_run;
  if (restore) model.restore_checkpoint();
  using bem::metrics::better;
  auto& rec = run.rec;
  rec.simple("train", "final_train_loss", last_loss, "nats per scored position", better::lower, false);
  rec.simple("train", "tested_epoch", static_cast<double>(restore ? best_epoch : epochs_run), "epoch", better::none,
             false);
  rec.simple("train", "epochs_run", static_cast<double>(epochs_run), "epochs", better::none, false);
  rec.simple("train", "epochs_to_converge", static_cast<double>(best_epoch), "epochs", better::lower, false);
  if (best >= 0)
    rec.simple("validation", "best_validation_" + headline_metric(spec), best, "fraction", better::higher, false);
  rec.simple("train", "train_tokens_per_second", seconds > 0 ? static_cast<double>(tokens) / seconds : std::nan(""),
             "tokens/s", better::higher, true, tokens, "tokens");
}

/// The cost records of one evaluated test split (BEM 1.2, 3.3).
void record_costs(run_recorder& rec, const split_ref& split, const evaluation& e, const bem::cycle_counter& counter) {
  using bem::metrics::better;
  bem::metrics::metric_value t;
  t.n = e.tokens;
  t.n_unit = "tokens";
  // BEM 1.2: tokens_per_second = clock_frequency_hz / cycles_per_token (the
  // calibrated core clock; with hardware counters the cycles are measured).
  t.metric = "tokens_per_second";
  t.value = e.predict_cycles > 0 ? counter.calibration().core_clock_hz * static_cast<double>(e.tokens) / e.predict_cycles
                                 : std::nan("");
  t.unit = "tokens/s";
  t.direction = better::higher;
  rec.metric(split.name, split.condition, t, true);
  t.metric = "cycles_per_token";
  t.value = e.tokens ? e.predict_cycles / static_cast<double>(e.tokens) : std::nan("");
  t.unit = counter.unit();
  t.direction = better::lower;
  rec.metric(split.name, split.condition, t, true);
  t.metric = "cycles_per_sequence";
  t.value = e.sequences ? e.predict_cycles / static_cast<double>(e.sequences) : std::nan("");
  t.n = e.sequences;
  t.n_unit = "sequences";
  rec.metric(split.name, split.condition, t, true);
  if (e.prefix_cycles > 0) {
    // BEM 3.3's cost of the final answer step: the whole sequence minus the
    // same sequence without its last token, per sequence (a difference of
    // two timings, so it can come out slightly negative for cheap steps).
    t.metric = "cycles_per_query";
    t.value = (e.predict_cycles - e.prefix_cycles) / static_cast<double>(e.sequences);
    rec.metric(split.name, split.condition, t, true);
  }
}

/// Every test split, scored with learning off: its metrics, then its costs.
/// The first split is also predicted twice, to check law 1 (purity).
void test(run_state& run) {
  const protocol& proto = run.spec.proto;
  bool first_split = true;
  for (const auto& split : run.splits.tests) {
    const auto e = evaluate(run.task, run.model, run.task_spec, split, run.spec.seed, proto.test_sequences,
                            proto.batch_size, run.counter, first_split);
    first_split = false;
    for (const auto& m : e.metrics) run.rec.metric(split.name, split.condition, m);
    record_costs(run.rec, split, e, run.counter);
  }
}

/// Seed 6-style diagnostics of the trained model, on the first
/// diagnostic_sequences sequences of the first test split (already scored,
/// never trained on).
void diagnose(run_state& run) {
  if (!run.model.diagnoses() || run.spec.proto.diagnostic_sequences <= 0) return;
  const split_ref& split = run.splits.tests.front();
  bem::tasks::sequence_batch batch;
  run.task.generate(split.index, run.spec.seed, 0, static_cast<std::int32_t>(run.spec.proto.diagnostic_sequences),
                    batch);
  run.model.diagnose(batch, [&](std::string_view metric, std::span<const double> series, std::string_view unit) {
    bem::metrics::metric_value m;
    m.metric = std::string(metric);
    m.unit = std::string(unit);
    m.series.assign(series.begin(), series.end());
    m.series_axis = "position";
    std::vector<double> finite;
    for (double v : series)
      if (std::isfinite(v)) finite.push_back(v);
    m.value = bem::metrics::summarize(finite).mean;  // unweighted over positions, as accuracy_by_position
    m.n = batch.batch_size;
    m.n_unit = "sequences";
    run.rec.metric(split.name, split.condition, m);
  });
}

/// Whether a model's figure in `unit` measures time (and so varies between
/// runs): seconds, cycles and TSC ticks, as the ABI's report documents.
bool measures_time(std::string_view unit) {
  for (std::string_view u : {"s", "ms", "us", "ns", "cycles", "TSC ticks"})
    if (unit == u) return true;
  return false;
}

/// Executes one run: a microbenchmark measures itself; a task and a model
/// go through training, the model's size, the test splits, diagnostics and
/// the model's own figures, each phase writing its records as it goes.
void execute(const prepared_run& p, run_recorder& rec, bem::cycle_counter& counter, const std::string& out_dir) {
  if (p.bench_type != nullptr) return execute_benchmark(p, rec, out_dir);
  const run_spec& r = *p.spec;
  run_state run{r, {p.task_type, p.task_toml, p.task_plugin}, {p.model_type, p.model_toml, p.model_plugin}, {}, {},
                counter, rec};
  run.task_spec = bem::detail::spec_from_c(run.task.c_spec());
  run.model.reset(run.task.c_spec(), bem::derive_seed(r.seed, bem::fnv1a64("model")));
  if (const std::string m = run.model.machine_configuration(); !m.empty()) rec.set_machine(m);
  run.splits = roles_of(run.task, r.task);

  if (r.proto.train_sequences > 0) train(run);
  run.model.set_learning(false);
  rec.simple("model", "parameter_count", static_cast<double>(run.model.parameter_count()), "parameters",
             bem::metrics::better::none, false);
  test(run);
  diagnose(run);
  run.model.report([&](std::string_view metric, double value, std::string_view unit) {
    rec.simple("model", std::string(metric), value, std::string(unit), bem::metrics::better::none, measures_time(unit));
  });
}

/// Progress on stderr: a bar on a terminal, one line per finished run otherwise.
class progress {
 public:
  progress(int total, bool bar) : total_(total), bar_(bar) {}
  void done(const prepared_run& p, bool ok, double seconds, const std::string& error) {
    ++finished_;
    const std::string what = p.spec->task + " x " + p.spec->model + " seed=" + std::to_string(p.spec->seed);
    if (bar_) {
      constexpr int width = 30;
      const int fill = total_ ? finished_ * width / total_ : width;
      std::fprintf(stderr, "\r[%s%s] %d/%d %-50.50s", std::string(static_cast<std::size_t>(fill), '#').c_str(),
                   std::string(static_cast<std::size_t>(width - fill), '.').c_str(), finished_, total_, what.c_str());
      if (!ok) std::fprintf(stderr, "\n  failed: %s\n", error.c_str());
      if (finished_ == total_) std::fprintf(stderr, "\n");
    } else {
      std::fprintf(stderr, "[%d/%d] %s %s (%.2f s)%s%s\n", finished_, total_, ok ? "ok    " : "FAILED", what.c_str(),
                   seconds, ok ? "" : ": ", ok ? "" : error.c_str());
    }
    std::fflush(stderr);
  }

 private:
  int total_, finished_ = 0;
  bool bar_;
};

/// Executes one run in this process and writes all its records, the last
/// (run_wall_time) included; returns its error, empty when it succeeded.
std::string run_here(const prepared_run& p, run_recorder& rec, bem::cycle_counter& counter, const std::string& out_dir) {
  const auto t0 = std::chrono::steady_clock::now();
  std::string error = p.resolve_error;
  if (error.empty()) {
    try {
      execute(p, rec, counter, out_dir);
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = "an exception without a message";
    } catch (...) {
      error = "an exception that is not a std::exception";
    }
  }
  if (!error.empty()) rec.failure(error);
  rec.finish(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), error.empty());
  return error;
}

/// Cuts a record torn by a process that died while writing it, so the
/// records appended next start on a line of their own.
void drop_torn_last_line(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return;
  const off_t end = ::lseek(fd, 0, SEEK_END);
  off_t keep = 0;  // the bytes up to and including the last newline
  char buf[4096];
  for (off_t hi = end; hi > 0;) {
    const off_t lo = std::max<off_t>(0, hi - static_cast<off_t>(sizeof buf));
    const ssize_t n = ::pread(fd, buf, static_cast<std::size_t>(hi - lo), lo);
    if (n <= 0) {
      keep = end;  // unreadable: leave the file as it is
      break;
    }
    std::size_t i = static_cast<std::size_t>(n);
    while (i > 0 && buf[i - 1] != '\n') --i;
    if (i > 0) {
      keep = lo + static_cast<off_t>(i);
      break;
    }
    hi = lo;
  }
  if (keep < end) (void)!::ftruncate(fd, keep);
  ::close(fd);
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

/// Why a child process ended without finishing its run.
std::string abnormal_end(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return "the run's process was killed by signal " + std::to_string(sig) + " (" + (name ? name : "?") +
           ") before it finished: a plugin crashed";
  }
  if (WIFEXITED(status))
    return "the run's process exited with status " + std::to_string(WEXITSTATUS(status)) +
           " before it finished: a plugin called exit()";
  return "the run's process ended abnormally before it finished";
}

/// The process group of the run in progress in a child process (0: none),
/// for the signal handler below.
volatile std::sig_atomic_t run_group = 0;

/// SIGINT, SIGTERM, SIGHUP to the driver: the run's process group (its own,
/// so that a timeout reaches what it started) goes too, then the driver.
extern "C" void end_with_the_run(int sig) {
  if (run_group > 0) ::kill(-static_cast<pid_t>(run_group), SIGKILL);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

/// The child's last message, "done LENGTH\n" then LENGTH bytes of error text
/// ("" for success), or "unwritten LENGTH\n" and why its records could not
/// be written. Complete once those bytes have arrived.
struct child_report {
  std::string kind, text;
  bool complete = false;
  static std::string frame(const std::string& kind, const std::string& text) {
    return kind + " " + std::to_string(text.size()) + "\n" + text;
  }
  void parse(const std::string& data) {
    const auto nl = data.find('\n');
    const auto space = data.find(' ');
    if (nl == std::string::npos || space == std::string::npos || space > nl) return;
    const std::size_t length = std::strtoull(data.c_str() + space + 1, nullptr, 10);
    if (data.size() - nl - 1 < length) return;
    kind = data.substr(0, space);
    text = data.substr(nl + 1, length);
    complete = true;
  }
};

/// Executes one run in a child process, so that a plugin that crashes,
/// aborts, calls exit() or hangs past the time limit fails its own run and
/// the suite goes on. The child, in a process group of its own, writes the
/// records (one O_APPEND write each) and ends with a report through a pipe.
/// The run counts as finished when that report is complete, whatever
/// processes the plugin left holding the pipe: those are killed with the
/// group. A child that ends without it did not finish, and the parent
/// records why.
std::string run_in_child(const prepared_run& p, run_recorder& rec, const std::string& results_path,
                         const std::string& out_dir, double timeout_s) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);  // the child must not write the parent's buffered output again
  const pid_t parent = ::getpid();
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(e));
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a driver killed by SIGKILL takes the run along
    if (::getppid() != parent) ::_exit(1);
    ::close(fds[0]);
    std::string message;
    try {
      bem::cycle_counter counter;  // hardware counters count the thread that opened them
      message = child_report::frame("done", run_here(p, rec, counter, out_dir));
    } catch (const std::exception& e) {  // run_here failed to write a record
      message = child_report::frame("unwritten", e.what());
    }
    std::fflush(nullptr);  // before the report: the parent kills the group once it has it
    for (std::size_t at = 0; at < message.size();) {
      const ssize_t w = ::write(fds[1], message.data() + at, message.size() - at);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      at += static_cast<std::size_t>(w);
    }
    ::_exit(0);  // no atexit handlers or static destructors: they are the parent's
  }
  ::setpgid(pid, pid);  // also here: no race with the kills below
  run_group = pid;
  ::close(fds[1]);
  ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
  std::string data;
  child_report report;
  bool timed_out = false, exited = false;
  int status = 0;
  char buf[4096];
  const auto drain = [&] {
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) data.append(buf, static_cast<std::size_t>(n));
    report.parse(data);
  };
  while (!report.complete && !exited) {
    int wait_ms = 100;  // the child's end is checked at least this often
    if (timeout_s > 0) {
      const double left = timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (left <= 0) {
        timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min(left * 1000.0 + 1.0, 100.0));
    }
    pollfd pfd{fds[0], POLLIN, 0};
    (void)::poll(&pfd, 1, wait_ms);
    drain();
    // Ended? Asked without reaping it (WNOWAIT): while the child is a zombie
    // its pid, and so its group's id, cannot be reused before the kill below.
    siginfo_t info{};
    if (!report.complete && (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
                             info.si_pid == pid)) {
      exited = true;  // (or waitid failed): all it wrote is in the pipe now
      drain();
    }
  }
  ::kill(-pid, SIGKILL);  // what the run left behind, or the run itself on a timeout
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run_group = 0;
  ::close(fds[0]);
  if (report.complete && report.kind == "done") return report.text;
  // The child did not finish: its last record may be half written.
  drop_torn_last_line(results_path);
  const std::string error =
      timed_out ? "the run exceeded the time limit of " + seconds_text(timeout_s) + " (--run-timeout) and was killed"
      : report.complete ? "the run's records could not be written: " + report.text
                        : abnormal_end(status);
  rec.failure(error);
  rec.finish(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), false);
  return error;
}

/// Keeps only the records of runs that finished successfully, the file
/// replaced whole; returns their ids. A last line torn by a killed driver
/// is dropped with them.
std::set<std::string> prune_unfinished(const std::string& path) {
  if (!fs::exists(path)) return {};
  bool torn = false;
  const auto records = bem::metrics::read_jsonl(path, &torn);
  if (torn) std::fprintf(stderr, "note: %s: dropped a torn last line (the run that wrote it runs again)\n", path.c_str());
  check_records(records, path);
  std::set<std::string> finished = finished_runs(records);
  std::string kept;
  for (const auto& r : records)
    if (finished.count(r.value("run_id", ""))) kept += r.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  write_file_atomically(path, kept);
  return finished;
}

}  // namespace

std::string run_selector(const run_spec& r) { return r.label + "/" + r.task + "/" + r.model; }

bool holds_records(const std::string& out_dir) {
  std::error_code ec;
  const auto size = fs::file_size(fs::path(out_dir) / "results.jsonl", ec);
  return !ec && size > 0;
}

void validate_suite(const suite& s, bem::plugin_registry& registry) {
  std::set<std::string> checked;
  for (const auto& r : s.runs) {
    const std::string key = r.task + "\n" + r.model + "\n" + bem::parameters_to_json(r.task_params) + "\n" +
                            bem::parameters_to_json(r.model_params);
    if (!checked.insert(key).second) continue;
    if (const auto* bench = registry.find_benchmark(r.task)) {
      try {
        bem::benchmark_instance b(bench->type, bem::parameters_to_toml(r.task_params));
        if (!b.takes_model() && !r.model_params.empty())
          throw config_error(locate(r, "model_params", r.model_params.begin()->first).str() + ": '" + r.task +
                             "' is a microbenchmark and takes no model, so [run.model_params] would have no effect");
      } catch (const bem::plugin_error& e) {
        config_error_if_parameter(r, "params", "benchmark '" + r.task + "'", e);
      }
      continue;
    }
    const auto* task = registry.find_task(r.task);
    if (task == nullptr) continue;  // fails alone at run time
    try {
      bem::task_instance t(task->type, bem::parameters_to_toml(r.task_params));
    } catch (const bem::plugin_error& e) {
      config_error_if_parameter(r, "params", "task '" + r.task + "'", e);
      continue;
    }
    std::string origin, error;
    const auto* model = resolve_model(r, registry, task, origin, error);
    if (model == nullptr) continue;
    try {
      bem::model_instance m(model, bem::parameters_to_toml(r.model_params));
    } catch (const bem::plugin_error& e) {
      config_error_if_parameter(r, "model_params", "model '" + std::string(model->name) + "'", e);
    }
  }
}

run_totals run_suite(const suite& s, bem::plugin_registry& registry, const run_options& opt,
                     const std::function<void()>& before_writing, const std::function<void()>& after_running) {
  run_totals totals;
  std::vector<const run_spec*> selected;
  for (std::size_t i = 0; i < s.runs.size(); ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(opt.shard_count)) != opt.shard_index) continue;
    if (!opt.only.empty() && fnmatch(opt.only.c_str(), run_selector(s.runs[i]).c_str(), 0) != 0) continue;
    selected.push_back(&s.runs[i]);
  }
  totals.selected = static_cast<int>(selected.size());

  // Every identity is known before the results file is touched: two runs
  // with one identity would share their records, and resume would take
  // either for both.
  std::vector<prepared_run> prepared;
  std::map<std::string, const run_spec*> by_id;
  for (const auto* r : selected) {
    prepared_run p;
    try {
      p = prepare(*r, registry);
    } catch (const std::exception& e) {  // a plugin that fails at creation fails its run
      p.spec = r;
      p.resolve_error = e.what();
      p.config = run_configuration(*r, json::parse(bem::parameters_to_json(r->task_params)),
                                   json::parse(bem::parameters_to_json(r->model_params)),
                                   registry.find_benchmark(r->task) != nullptr);
      p.run_id = bem::metrics::hex_id(json{{"task", r->task}, {"model", r->model}, {"config", p.config}, {"seed", r->seed}}.dump());
    }
    if (const auto [it, fresh] = by_id.emplace(p.run_id, r); !fresh)
      throw config_error(r->where.str() + ": run '" + r->label + "' (" + r->task + " x " + r->model + ", seed " +
                         std::to_string(r->seed) + ") measures exactly what run '" + it->second->label + "' at " +
                         it->second->where.str() +
                         " does, once the plugins' defaults are filled in; a repeat would count one measurement twice");
    prepared.push_back(std::move(p));
  }

  const std::string results = (fs::path(opt.out_dir) / "results.jsonl").string();
  fs::create_directories(opt.out_dir);
  const results_dir_lock lock(opt.out_dir);  // before anything in the directory is read or written
  if (!opt.resume && holds_records(opt.out_dir))
    throw config_error(results + " already holds the records of an earlier run: --resume continues it; to start "
                       "afresh, choose another --out or remove that file");
  if (before_writing) before_writing();
  std::set<std::string> finished;
  if (opt.resume) finished = prune_unfinished(results);
  bem::metrics::jsonl_appender out(results, !opt.resume);
  kill_hook::arm(results);

  std::vector<const prepared_run*> todo;
  for (const auto& p : prepared) {
    if (finished.count(p.run_id)) {
      ++totals.skipped;
      continue;
    }
    todo.push_back(&p);
  }

  std::optional<bem::cycle_counter> counter;  // in a child process each run opens its own
  if (opt.in_process) {
    counter.emplace();
  } else {
    ::signal(SIGCHLD, SIG_DFL);  // an inherited SIG_IGN would reap the children before waitpid saw them
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::signal(sig, end_with_the_run);
  }
  progress bar(static_cast<int>(todo.size()), opt.progress_bar);
  for (const auto* p : todo) {
    run_recorder rec(out, s, *p);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string error = opt.in_process ? run_here(*p, rec, *counter, opt.out_dir)
                                             : run_in_child(*p, rec, results, opt.out_dir, opt.run_timeout_s);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    (error.empty() ? totals.ok : totals.failed) += 1;
    bar.done(*p, error.empty(), seconds, error);
  }
  if (after_running) after_running();
  return totals;
}

}  // namespace bench_driver
