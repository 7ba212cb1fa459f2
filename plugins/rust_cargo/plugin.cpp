// The rust_cargo plugin: the M31R Rust code-generation suite (benchmarks_v1)
// as a model-evaluating benchmark. A model writes Rust for every task; the
// crate is built and tested confined; compile plus tests are the only judge.
// docs/rust-benchmarks.md describes the dataset, the models, the execution
// and every metric.
#include "cargo_runner.hpp"
#include "dataset.hpp"
#include "models.hpp"

#include <bem/plugin/adapter.hpp>
#include <bem/prng.hpp>
#include <bem/plugin/toml_parameters.hpp>
#include <metrics/pass_at_k.hpp>
#include <metrics/statistics.hpp>

#include <nlohmann/json.hpp>

#include <dlfcn.h>
#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

namespace rust_cargo {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

/// This module's own folder: bem-sandbox-exec lives beside it.
fs::path module_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&module_dir), &info) == 0 || info.dli_fname == nullptr) return {};
  return fs::absolute(info.dli_fname).parent_path();
}

/// A fresh folder of the temporary directory that only this user can reach
/// (mkdtemp: never a name someone else could have planted a link at).
fs::path private_temp_folder() {
  std::string name = (fs::temp_directory_path() / "bem-rust-XXXXXX").string();
  if (::mkdtemp(name.data()) == nullptr)
    throw std::runtime_error("cannot create a work folder under " + fs::temp_directory_path().string() + ": " +
                             std::strerror(errno));
  return name;
}

std::string default_dataset() {
  if (const char* e = std::getenv("BEM_RUST_DATASET"); e && *e) return e;
  for (const char* d : {BEM_RUST_DATASET_SOURCE_DIR, BEM_RUST_DATASET_INSTALL_DIR})
    if (fs::is_directory(d)) return d;
  return BEM_RUST_DATASET_INSTALL_DIR;
}

/// Everything measured for one task.
struct task_result {
  std::vector<std::string> sampled_outputs;
  std::vector<sample_outcome> sampled;
  std::optional<std::string> greedy_output;
  std::optional<sample_outcome> greedy;
  double generation_seconds = 0;
  std::optional<std::int64_t> tokens;
  std::string generation_error;  ///< non-empty: the model failed on this task; its samples count as failures
};

}  // namespace

class rust_cargo_benchmark {
 public:
  static constexpr const char* name = "rust_cargo";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "M31R Rust code-generation suite (benchmarks_v1): a model writes Rust, cargo build + cargo test in a sandbox "
      "judge it; compile rate, unbiased pass@k, greedy pass@1 per category, latency, memory";

  explicit rust_cargo_benchmark(bem::parameters& p) {
    // Where the dataset lies and how many workers judge it say nothing about
    // what was measured: they differ between machines and checkouts, and a
    // result's configuration must not (the regression gate pairs results by
    // configuration). Read here, recorded on the first record's condition,
    // and left out of `p`, whose every read becomes the configuration. The
    // dataset enters the configuration by its contents instead (below).
    {
      bem::parameters machine = p;  // the same type checks and messages
      dataset_dir_ = machine.get_string("dataset", default_dataset());
      const auto cores = static_cast<std::int64_t>(std::max(1u, std::thread::hardware_concurrency()));
      workers_ = static_cast<int>(machine.get_int("workers", cores));
      bem::parameters rest;
      for (const auto& [k, v] : p.given())
        if (k != "dataset" && k != "workers") rest.set(k, v);
      p = std::move(rest);
    }
    categories_ = p.get_string_list("categories", {});
    task_patterns_ = p.get_string_list("tasks", {});
    difficulties_ = p.get_string_list("difficulties", {});
    const auto check_names = [](const char* key, const std::vector<std::string>& given,
                                const std::vector<std::string>& known) {
      std::string listed;
      for (std::size_t i = 0; i < known.size(); ++i)
        listed += (i == 0 ? "" : i + 1 == known.size() ? " or " : ", ") + known[i];
      for (const auto& v : given)
        if (std::find(known.begin(), known.end(), v) == known.end())
          throw bem::parameter_error(key, "each must be " + listed + ", got \"" + v + "\"");
    };
    check_names("categories", categories_, category_names());
    check_names("difficulties", difficulties_, difficulty_names());
    samples_ = static_cast<int>(p.get_int("samples", 10));
    greedy_ = p.get_bool("greedy", true);
    request_.temperature = p.get_double("temperature", 0.8);
    request_.top_p = p.get_double("top_p", 0.95);
    limits_.build.wall_seconds = p.get_double("build_timeout_s", 10);
    limits_.test.wall_seconds = p.get_double("test_timeout_s", 10);
    const auto memory = static_cast<std::uint64_t>(p.get_int("memory_limit_mib", 4096)) << 20;
    const auto processes = static_cast<std::uint64_t>(p.get_int("max_processes", 512));
    const auto file = static_cast<std::uint64_t>(p.get_int("max_file_mib", 256)) << 20;
    const auto tmp = static_cast<std::uint64_t>(p.get_int("max_tmp_mib", 256)) << 20;
    for (auto* l : {&limits_.build, &limits_.test}) {
      l->cpu_seconds = 2 * l->wall_seconds + 5;
      l->address_space_bytes = memory;
      l->processes = processes;
      l->file_bytes = file;
      l->tmp_bytes = tmp;
    }
    unconfined_ok_ = p.get_bool("unsafe_unconfined", false);
    if (samples_ < 0) throw bem::parameter_error("samples", "must be >= 0");
    if (samples_ == 0 && !greedy_) throw bem::parameter_error("samples", "0 samples and greedy = false: nothing to do");
    if (workers_ < 1) throw bem::parameter_error("workers", "must be >= 1");
    if (tmp == 0) throw bem::parameter_error("max_tmp_mib", "must be >= 1");
    // Read now so a malformed task fails the run's configuration, not its end.
    // The whole folder, read once: pinned says it holds v1 as published,
    // whatever part of it runs (dataset_sha256 names the part).
    data_ = load_dataset(dataset_dir_);
    pinned_v1_ = data_.version == "benchmarks_v1" && data_.manifest_hash() == benchmarks_v1_manifest_sha256;
    if (!categories_.empty()) {
      std::erase_if(data_.tasks, [&](const task& t) {
        return std::find(categories_.begin(), categories_.end(), t.category) == categories_.end();
      });
      // Category folders are optional: one selected must hold tasks.
      for (const auto& c : categories_)
        if (std::none_of(data_.tasks.begin(), data_.tasks.end(), [&](const task& t) { return t.category == c; }))
          throw bem::parameter_error("categories", "the dataset at " + dataset_dir_ + " has no " + c + " task");
    }
    if (!task_patterns_.empty()) {
      const auto matches = [](const std::string& g, const task& t) {
        return fnmatch(g.c_str(), t.id.c_str(), 0) == 0 || fnmatch(g.c_str(), (t.category + "/" + t.id).c_str(), 0) == 0;
      };
      // Each glob must select something: a misspelt id would otherwise be
      // dropped silently and the suite would run fewer tasks than it names.
      for (const auto& g : task_patterns_)
        if (std::none_of(data_.tasks.begin(), data_.tasks.end(), [&](const task& t) { return matches(g, t); }))
          throw bem::parameter_error("tasks", "no task matches \"" + g + "\"" +
                                                  (categories_.empty() ? "" : " in the selected categories"));
      std::erase_if(data_.tasks, [&](const task& t) {
        return std::none_of(task_patterns_.begin(), task_patterns_.end(), [&](const std::string& g) { return matches(g, t); });
      });
    }
    if (!difficulties_.empty()) {
      std::erase_if(data_.tasks, [&](const task& t) {
        return std::find(difficulties_.begin(), difficulties_.end(), t.difficulty) == difficulties_.end();
      });
      if (data_.tasks.empty()) throw bem::parameter_error("difficulties", "no selected task has these difficulties");
    }
    // The dataset in the configuration: its version and the SHA-256 of the
    // selected tasks' manifest, so results on different contents never pair
    // (and `bem-bench compare` refuses them). Given in a suite, they pin it:
    // a run on other contents stops here.
    manifest_hash_ = data_.manifest_hash();
    for (const auto& [key, actual] : {std::pair<const char*, std::string>{"benchmark_version", data_.version},
                                      {"dataset_sha256", manifest_hash_}}) {
      const std::string wanted = p.get_string(key, actual);  // the default is the dataset's own
      if (wanted != actual)
        throw bem::parameter_error(key, "the dataset at " + dataset_dir_ + " has '" + actual + "', not '" + wanted + "'");
    }
  }

  void run(const bem::benchmark_context& context, bem::benchmark_sink& sink) {
    bem::parameters model_params = bem::parameters_from_toml(context.model_parameters_toml, "model_params");
    if (context.model == "none")
      throw std::runtime_error("rust_cargo evaluates a code model: name one (oracle, identity, command, "
                               "openai_completions, openai_chat, stored)");
    const std::string helper = (module_dir() / "bem-sandbox-exec").string();
    if (access(helper.c_str(), X_OK) != 0) throw std::runtime_error("missing " + helper + " (built with the plugin)");
    const auto factory = make_model_factory(context.model, model_params, helper);
    model_params.check_all_used();
    const auto tc = toolchain::detect();
    std::string why;
    // The sandbox hides the dataset (solutions and tests), wherever it lies:
    // this run's, and the source and installed copies of every version.
    const auto box = sandbox::detect(helper, tc.readonly_dirs(),
                                     {dataset_dir_, BEM_RUST_DATASET_SOURCE_DIR,
                                      fs::path(BEM_RUST_DATASET_INSTALL_DIR).parent_path().string()},
                                     why);
    const bool trusted_outputs = context.model == "oracle" || context.model == "identity";
    if (!box.confined() && !trusted_outputs && !unconfined_ok_)
      throw std::runtime_error("refusing to build and run model-generated code without a sandbox (" + why +
                               "); install bubblewrap, or pass unsafe_unconfined = true to run it unconfined");

    const fs::path work = context.artifact_dir.empty() ? private_temp_folder() : fs::path(context.artifact_dir) / "work";
    // Each worker's folder below is its owner's alone (cargo_runner makes it so).
    std::vector<task_result> results(data_.tasks.size());
    std::atomic<std::size_t> next{0};
    std::mutex error_mutex;
    std::string fatal;
    const auto t0 = std::chrono::steady_clock::now();
    auto worker = [&](int index) {
      try {
        auto model = factory.make();
        cargo_runner runner(tc, box, limits_, work / ("worker-" + std::to_string(index)));
        for (std::size_t i; (i = next++) < data_.tasks.size();) run_task(data_.tasks[i], *model, runner, context.seed, results[i]);
      } catch (const std::exception& e) {
        std::lock_guard lock(error_mutex);
        if (fatal.empty()) fatal = e.what();
        next = data_.tasks.size();
      }
    };
    std::vector<std::thread> threads;
    const int n_workers = std::min<int>(workers_, static_cast<int>(data_.tasks.size()));
    for (int w = 0; w < n_workers; ++w) threads.emplace_back(worker, w);
    for (auto& t : threads) t.join();
    std::error_code ec;
    fs::remove_all(work, ec);
    if (!fatal.empty()) throw std::runtime_error(fatal);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!context.artifact_dir.empty()) write_artifacts(context, results);
    emit_records(sink, results, tc, box, why, wall, n_workers);
  }

 private:
  void run_task(const task& t, code_model& model, cargo_runner& runner, std::uint64_t seed, task_result& r) const {
    // Identical outputs get identical verdicts (the suite is deterministic),
    // so each distinct output of a task is built and tested once.
    std::map<std::string, sample_outcome> seen;
    auto judge = [&](const std::string& out) {
      if (auto it = seen.find(out); it != seen.end()) return it->second;
      return seen[out] = runner.evaluate(t.crate_files(out), t.test_names);
    };
    const std::uint64_t task_seed = bem::derive_seed(seed, bem::fnv1a64(t.id), 0);
    // The sampled and the greedy requests fail alone: what one of them
    // generated is judged even when the other failed.
    const auto attempt = [&](auto&& generate) {
      try {
        generate();
      } catch (const std::exception& e) {
        if (r.generation_error.empty()) r.generation_error = e.what();
      }
    };
    if (samples_ > 0) attempt([&] {
      sample_request req = request_;
      req.n = samples_;
      req.seed = task_seed;
      auto got = model.generate(t, req);
      if (got.outputs.size() != static_cast<std::size_t>(samples_))
        throw std::runtime_error("the model returned " + std::to_string(got.outputs.size()) + " outputs, not " +
                                 std::to_string(samples_));
      r.sampled_outputs = std::move(got.outputs);
      r.generation_seconds += got.seconds;
      r.tokens = got.tokens;
    });
    if (greedy_) attempt([&] {
      sample_request req = request_;
      req.n = 1;
      req.greedy = true;
      req.seed = task_seed;
      auto got = model.generate(t, req);
      if (got.outputs.size() != 1) throw std::runtime_error("the model returned no greedy output");
      r.greedy_output = got.outputs.front();
      r.generation_seconds += got.seconds;
      if (r.tokens && got.tokens) *r.tokens += *got.tokens;
      else if (samples_ == 0) r.tokens = got.tokens;
      else r.tokens.reset();
    });
    for (const auto& out : r.sampled_outputs) r.sampled.push_back(judge(out));
    if (r.greedy_output) r.greedy = judge(*r.greedy_output);
  }

  void write_artifacts(const bem::benchmark_context& context, const std::vector<task_result>& results) const {
    const fs::path dir = context.artifact_dir;
    std::ofstream samples(dir / "samples.jsonl"), evaluations(dir / "evaluations.jsonl");
    auto outcome_json = [](const sample_outcome& o) {
      return json{{"verdict", verdict_name(o.result)}, {"compiled", o.compiled}, {"passed", o.passed()},
                  {"tests_passed", o.tests_passed}, {"tests_failed", o.tests_failed},
                  {"tests_missing", o.tests_missing},
                  {"error_codes", o.error_codes}, {"first_error", o.first_error},
                  {"build_seconds", o.build_seconds}, {"test_seconds", o.test_seconds},
                  {"build_peak_rss_kib", o.build_peak_rss_kib}, {"test_peak_rss_kib", o.test_peak_rss_kib},
                  {"build_stdout_tail", o.build_stdout_tail}, {"build_stderr_tail", o.build_stderr_tail},
                  {"test_stdout_tail", o.test_stdout_tail}, {"test_stderr_tail", o.test_stderr_tail}};
    };
    // A sample's output and what its steps printed may be any bytes: invalid
    // UTF-8 becomes U+FFFD rather than stop the run at its end.
    const auto line_of = [](const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); };
    for (std::size_t i = 0; i < results.size(); ++i) {
      const auto& t = data_.tasks[i];
      const auto& r = results[i];
      auto line = [&](int sample, bool greedy, const std::string& out, const sample_outcome& o) {
        json base = {{"task", t.id}, {"category", t.category}, {"sample", sample}, {"greedy", greedy},
                     {"temperature", greedy ? 0.0 : request_.temperature}, {"model", context.model}};
        json s = base;
        s["output"] = out;
        samples << line_of(s) << '\n';
        base.update(outcome_json(o));
        evaluations << line_of(base) << '\n';
      };
      for (std::size_t k = 0; k < r.sampled.size(); ++k) line(static_cast<int>(k), false, r.sampled_outputs[k], r.sampled[k]);
      if (r.greedy) line(0, true, *r.greedy_output, *r.greedy);
      if (!r.generation_error.empty())
        evaluations << line_of(json{{"task", t.id}, {"category", t.category}, {"generation_error", r.generation_error}})
                    << '\n';
    }
  }

  void emit_records(bem::benchmark_sink& sink, const std::vector<task_result>& results, const toolchain& tc,
                    const sandbox& box, const std::string& why, double wall, int workers) const {
    using bem::metrics::better;
    auto emit = [&](const std::string& split, std::vector<bem::tasks::condition_field> cond, const std::string& metric,
                    double value, const std::string& unit, better dir, bool timing, std::int64_t n,
                    const std::string& n_unit) {
      bem::benchmark_record rec;
      rec.split = split;
      rec.condition = std::move(cond);
      rec.value = bem::metrics::scalar_metric(metric, value, unit, dir, n, n_unit);
      rec.timing = timing;
      sink.emit(rec);
    };
    // What judged: toolchain, dataset and sandbox, on the first record.
    using bem::tasks::string_field;
    emit("all",
         {string_field("benchmark_version", data_.version),
          string_field("dataset_sha256", manifest_hash_),
          {"dataset_is_pinned_v1", pinned_v1_ ? "true" : "false"},
          string_field("dataset", dataset_dir_),
          string_field("rustc", tc.rustc_version),
          string_field("cargo", tc.cargo_version),
          string_field("sandbox", !box.confined()        ? "none: " + why
                                       : box.weakness.empty() ? std::string("bubblewrap")
                                                              : "bubblewrap (" + box.weakness + ")"),
          bem::tasks::number_field("workers", workers)},
         "tasks", static_cast<double>(data_.tasks.size()), "tasks", better::none, false,
         static_cast<std::int64_t>(data_.tasks.size()), "tasks");

    const std::vector<bem::tasks::condition_field> all_cond = {string_field("category", "all")};
    // The same records for all tasks, each category, difficulty, goal and
    // tag run (the spec's section 19 reports by metadata, section 3 names the
    // goals): split "all", the category, "difficulty=hard", "goal=G5" or
    // "tag=closures".
    struct task_group {
      std::string split;
      std::vector<bem::tasks::condition_field> cond;
      std::vector<std::size_t> idx;
      bool counts_tasks;  ///< with a "tasks" record
      bool gated;         ///< rates say which way is better, so the regression gate reads them
    };
    struct group_options {
      bool counts_tasks = false;
      bool keep_empty = false;  ///< goals only: one no selected task measures (G6 in v1) says tasks = 0
      bool gated = true;
    };
    std::vector<task_group> groups;
    const auto add_group = [&](std::string split, std::vector<bem::tasks::condition_field> cond, auto&& member,
                               group_options opt = {}) {
      task_group g{std::move(split), std::move(cond), {}, opt.counts_tasks, opt.gated};
      for (std::size_t i = 0; i < data_.tasks.size(); ++i)
        if (member(data_.tasks[i])) g.idx.push_back(i);
      if (!g.idx.empty() || opt.keep_empty) groups.push_back(std::move(g));
    };
    add_group("all", all_cond, [](const task&) { return true; });
    for (const auto& c : category_names())
      add_group(c, {string_field("category", c)}, [&](const task& t) { return t.category == c; });
    for (const auto& d : difficulty_names())
      add_group("difficulty=" + d, {string_field("difficulty", d)}, [&](const task& t) { return t.difficulty == d; });
    for (const auto& gl : goals())
      add_group("goal=" + gl.id, {string_field("goal", gl.id), string_field("goal_name", gl.name)},
                [&](const task& t) {
                  const auto mine = goals_of(t);
                  return std::find(mine.begin(), mine.end(), gl.id) != mine.end();
                }, {.counts_tasks = true, .keep_empty = true});
    // Tags inform but do not gate: most v1 tags have one or two tasks, and a
    // 5% gate on those would block every release on noise.
    std::set<std::string> tags;
    for (const auto& t : data_.tasks) tags.insert(t.tags.begin(), t.tags.end());
    for (const auto& tag : tags)
      add_group("tag=" + tag, {string_field("tag", tag)}, [&](const task& t) {
        return std::find(t.tags.begin(), t.tags.end(), tag) != t.tags.end();
      }, {.counts_tasks = true, .gated = false});
    for (const auto& [g, cond, idx, counts_tasks, gated] : groups) {
      const better higher = gated ? better::higher : better::none, lower = gated ? better::lower : better::none;
      const auto T = static_cast<std::int64_t>(idx.size());
      if (counts_tasks || T == 0)
        emit(g, cond, "tasks", static_cast<double>(T), "tasks", better::none, false, T, "tasks");
      if (T == 0) continue;  // no rate for no tasks
      std::int64_t samples = 0, compiled = 0, tests = 0, borrow = 0, gen_errors = 0;
      std::map<std::string, std::int64_t> verdicts;
      for (auto i : idx) {
        const auto& r = results[i];
        if (!r.generation_error.empty()) ++gen_errors;
        for (const auto& o : r.sampled) {
          ++samples;
          compiled += o.compiled;
          tests += o.tests_executed();
          ++verdicts[verdict_name(o.result)];
          if (std::any_of(o.error_codes.begin(), o.error_codes.end(), is_borrow_check_error)) ++borrow;
        }
      }
      const std::int64_t drawn = T * samples_;  // generation errors count as failed samples
      if (samples_ > 0) {
        emit(g, cond, "compile_rate", drawn ? static_cast<double>(compiled) / static_cast<double>(drawn) : 0,
             "fraction", higher, false, drawn, "samples");
        for (int k : {1, 5, 10}) {
          if (samples_ < k) {
            // The unbiased estimator needs n >= k samples per task; say so.
            emit(g, cond, "pass@" + std::to_string(k) + "_not_computed", samples_, "samples per task (needs " +
                 std::to_string(k) + ")", better::none, false, T, "tasks");
            continue;
          }
          double sum = 0;
          for (auto i : idx) {
            const auto c = std::count_if(results[i].sampled.begin(), results[i].sampled.end(),
                                         [](const sample_outcome& o) { return o.passed(); });
            sum += bem::metrics::pass_at_k(samples_, c, k);
          }
          emit(g, cond, "pass@" + std::to_string(k), T ? sum / static_cast<double>(T) : 0, "fraction",
               higher, false, T, "tasks");
        }
        emit(g, cond, "tests_executed", static_cast<double>(tests), "tests", better::none, false, samples, "samples");
        emit(g, cond, "borrow_check_failures", static_cast<double>(borrow), "samples", lower, false, samples,
             "samples");
        // Every verdict, 0 included: a category without compile errors says
        // samples_compile_error = 0 rather than nothing.
        for (const verdict v : all_verdicts)
          emit(g, cond, std::string("samples_") + verdict_name(v), static_cast<double>(verdicts[verdict_name(v)]),
               "samples", better::none, false, samples, "samples");
      }
      if (greedy_) {
        std::int64_t pass = 0, comp = 0;
        for (auto i : idx) {
          if (!results[i].greedy) continue;
          pass += results[i].greedy->passed();
          comp += results[i].greedy->compiled;
        }
        emit(g, cond, "greedy_pass@1", T ? static_cast<double>(pass) / static_cast<double>(T) : 0, "fraction",
             higher, false, T, "tasks");
        emit(g, cond, "greedy_compile_rate", T ? static_cast<double>(comp) / static_cast<double>(T) : 0, "fraction",
             higher, false, T, "tasks");
      }
      if (gen_errors) emit(g, cond, "generation_errors", static_cast<double>(gen_errors), "tasks", lower, false, T, "tasks");
    }

    // Which rustc errors the failures were, over all samples (greedy included).
    std::map<std::string, std::int64_t> codes;
    std::vector<double> build_s, test_s, build_rss, test_rss, gen_s;
    double gen_total = 0;
    std::int64_t tokens = 0, outputs = 0;
    bool tokens_known = true;
    for (const auto& r : results) {
      std::vector<const sample_outcome*> all;
      for (const auto& o : r.sampled) all.push_back(&o);
      if (r.greedy) all.push_back(&*r.greedy);
      for (const auto* o : all) {
        for (const auto& c : o->error_codes) ++codes[c];
        build_s.push_back(o->build_seconds);
        // Steps killed at a limit have no known peak (-1): left out.
        if (o->build_peak_rss_kib >= 0) build_rss.push_back(static_cast<double>(o->build_peak_rss_kib) / 1024.0);
        if (o->compiled) {
          test_s.push_back(o->test_seconds);
          if (o->test_peak_rss_kib >= 0) test_rss.push_back(static_cast<double>(o->test_peak_rss_kib) / 1024.0);
        }
      }
      const auto n_out = static_cast<std::int64_t>(all.size());
      outputs += n_out;
      gen_total += r.generation_seconds;
      // A request returns all its outputs at once: a task's time per output
      // is one value, so this figure's n counts tasks.
      if (n_out) gen_s.push_back(r.generation_seconds / static_cast<double>(n_out));
      if (r.tokens) tokens += *r.tokens;
      else tokens_known = false;
    }
    for (const auto& [code, count] : codes)
      emit("all", {string_field("category", "all"), string_field("rustc_error", code)}, "rustc_error_" + code,
           static_cast<double>(count), "samples", better::none, false, outputs, "samples");
    auto quantiles = [&](const std::string& metric, const std::vector<double>& xs, const std::string& unit,
                         const std::string& n_unit = "samples") {
      if (xs.empty()) return;
      const auto n = static_cast<std::int64_t>(xs.size());
      emit("all", all_cond, metric + "_p50", bem::metrics::quantile(xs, 0.5), unit, better::lower, true, n, n_unit);
      emit("all", all_cond, metric + "_p95", bem::metrics::quantile(xs, 0.95), unit, better::lower, true, n, n_unit);
    };
    quantiles("build_seconds", build_s, "s");
    quantiles("test_seconds", test_s, "s");
    quantiles("build_peak_rss", build_rss, "MiB");
    quantiles("test_peak_rss", test_rss, "MiB");
    quantiles("generation_seconds_per_sample", gen_s, "s", "tasks");
    if (tokens_known && tokens > 0)
      emit("all", all_cond, "generation_seconds_per_token", gen_total / static_cast<double>(tokens), "s",
           better::lower, true, tokens, "tokens");
    std::int64_t evaluated = 0;
    for (const auto& r : results) evaluated += static_cast<std::int64_t>(r.sampled.size() + (r.greedy ? 1 : 0));
    emit("all", all_cond, "samples_per_second", wall > 0 ? static_cast<double>(evaluated) / wall : 0, "samples/s",
         better::higher, true, evaluated, "samples");
  }

  std::string dataset_dir_, manifest_hash_;
  std::vector<std::string> categories_, task_patterns_, difficulties_;
  int samples_ = 10;
  bool greedy_ = true;
  sample_request request_;
  int workers_ = 1;
  runner_limits limits_;
  bool unconfined_ok_ = false;
  bool pinned_v1_ = false;  ///< the dataset folder, whole, is the pinned benchmarks_v1
  dataset data_;
};

}  // namespace rust_cargo

BEM_PLUGIN("rust_cargo", "1.0.0", BEM_TASKS(), BEM_MODELS(), BEM_BENCHMARKS(rust_cargo::rust_cargo_benchmark))
