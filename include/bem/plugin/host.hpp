// The host side of the plugin ABI: finding, loading and calling plugins.
//
// Search order (first hit of a name wins, later ones are reported as
// shadowed): each --plugin-path entry, then each entry of BEM_PLUGIN_PATH
// (':'-separated), then the install directory. An entry may be a directory
// (every `*.so` in it is loaded, not recursively) or a file; an entry that
// does not exist is remembered and named when a lookup finds nothing.
//
// A plugin that cannot be used is recorded with one of four distinct errors
// and the others stay usable, so a broken plugin fails only the runs that
// need it:
//   cannot load     dlopen failed (not a shared object, missing dependency);
//   no entry point  the module has no `bem_plugin_entry_v1`;
//   ABI mismatch    the table's abi_version or struct_size is not ours;
//   invalid table   required fields are missing.
#pragma once

#include <bem/harness/benchmark.hpp>
#include <bem/plugin/abi.h>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN

/// A plugin call that failed; the message is the plugin's error text.
class plugin_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class load_error_kind { cannot_load, no_entry_point, abi_mismatch, invalid_table };

constexpr std::string_view to_string(load_error_kind k) noexcept {
  switch (k) {
    case load_error_kind::cannot_load: return "cannot load";
    case load_error_kind::no_entry_point: return "no entry point";
    case load_error_kind::abi_mismatch: return "ABI mismatch";
    case load_error_kind::invalid_table: return "invalid table";
  }
  return "unknown";
}

struct plugin_load_failure {
  std::string path;
  load_error_kind kind;
  std::string message;
  std::string describe() const { return path + ": " + std::string(to_string(kind)) + ": " + message; }
};

/// Where a task or model type came from.
struct plugin_origin {
  std::string plugin;  ///< plugin name, or "built-in"
  std::string path;    ///< module path, empty for built-ins
  std::string plugin_version;
  std::string library_abi_tag;
};

struct task_entry {
  const bem_task_type_v1* type;
  plugin_origin origin;
};
struct model_entry {
  const bem_model_type_v1* type;
  plugin_origin origin;
};
struct benchmark_entry {
  const bem_benchmark_type_v1* type;
  plugin_origin origin;
};

namespace detail {
constexpr std::size_t error_capacity = 4096;

/// A field appended to a C table after its first release (the ABI's growth
/// rule), or null when the plugin's table ends before it (`struct_size`).
template <class Table, class Field>
Field appended_field(const Table* table, Field Table::*field) noexcept {
  const auto offset = static_cast<std::size_t>(reinterpret_cast<const char*>(&(table->*field)) -
                                               reinterpret_cast<const char*>(table));
  return table->struct_size >= offset + sizeof(Field) ? table->*field : nullptr;
}

inline std::vector<std::string> split_path_list(std::string_view s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t c = s.find(':', start);
    const auto part = s.substr(start, c == std::string_view::npos ? std::string_view::npos : c - start);
    if (!part.empty()) out.emplace_back(part);
    if (c == std::string_view::npos) break;
    start = c + 1;
  }
  return out;
}
}  // namespace detail

/// The plugin search path: --plugin-path entries, BEM_PLUGIN_PATH, install dir.
inline std::vector<std::string> plugin_search_path(const std::vector<std::string>& command_line,
                                                   const std::string& install_dir) {
  std::vector<std::string> dirs = command_line;
  if (const char* env = std::getenv("BEM_PLUGIN_PATH")) {
    for (auto& d : detail::split_path_list(env)) dirs.push_back(std::move(d));
  }
  if (!install_dir.empty()) dirs.push_back(install_dir);
  return dirs;
}

/// Loads plugins and indexes their tasks and models by name.
class plugin_registry {
 public:
  plugin_registry() = default;
  plugin_registry(const plugin_registry&) = delete;
  plugin_registry& operator=(const plugin_registry&) = delete;
  ~plugin_registry() {
    // Instances must be gone before their modules; the caller's job.
    for (void* h : handles_) dlclose(h);
  }

  /// Registers a model compiled into the host (through bem/plugin/adapter.hpp).
  void add_builtin_model(const bem_model_type_v1* type) {
    add_model(type, plugin_origin{"built-in", "", BEM_VERSION_STRING, BEM_ABI_TAG});
  }

  /// Loads every plugin found along `search_path` (files and directories).
  void load_search_path(const std::vector<std::string>& search_path) {
    namespace fs = std::filesystem;
    for (const auto& entry : search_path) {
      std::error_code ec;
      if (fs::is_directory(entry, ec)) {
        std::vector<fs::path> files;
        for (const auto& f : fs::directory_iterator(entry, ec))
          if (f.path().extension() == ".so" && (f.is_regular_file(ec) || f.is_symlink(ec))) files.push_back(f.path());
        std::sort(files.begin(), files.end());  // deterministic order
        for (const auto& f : files) load_file(f.string());
      } else if (fs::exists(entry, ec)) {
        load_file(entry);
      } else {
        missing_.push_back(entry);  // named when a lookup then finds nothing
      }
      searched_.push_back(entry);
    }
  }

  /// Loads one module; returns false (and records why) if it is unusable.
  bool load_file(const std::string& path) {
    const std::string canonical = std::filesystem::weakly_canonical(path).string();
    if (std::find(loaded_paths_.begin(), loaded_paths_.end(), canonical) != loaded_paths_.end()) return true;
    void* h = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      const char* e = dlerror();
      failures_.push_back({canonical, load_error_kind::cannot_load, e ? e : "dlopen failed"});
      return false;
    }
    dlerror();
    void* sym = dlsym(h, BEM_PLUGIN_ENTRY_NAME);
    if (sym == nullptr) {
      failures_.push_back({canonical, load_error_kind::no_entry_point,
                           "the module does not export " BEM_PLUGIN_ENTRY_NAME " (is it a bem plugin?)"});
      dlclose(h);
      return false;
    }
    auto entry = reinterpret_cast<bem_plugin_entry_v1_fn>(sym);
    const bem_plugin_v1* table = entry();
    if (table == nullptr) {
      failures_.push_back({canonical, load_error_kind::invalid_table, BEM_PLUGIN_ENTRY_NAME " returned NULL"});
      dlclose(h);
      return false;
    }
    // The benchmark fields were appended: a table that ends before them is
    // complete, and has no benchmarks.
    if (table->abi_version != BEM_PLUGIN_ABI_VERSION || table->struct_size < offsetof(bem_plugin_v1, benchmark_count)) {
      failures_.push_back({canonical, load_error_kind::abi_mismatch,
                           "plugin ABI version " + std::to_string(table->abi_version) + " (table of " +
                               std::to_string(table->struct_size) + " bytes), host expects version " +
                               std::to_string(BEM_PLUGIN_ABI_VERSION) + " (" + std::to_string(sizeof(bem_plugin_v1)) +
                               " bytes); rebuild the plugin against this bem"});
      dlclose(h);
      return false;
    }
    if (std::string why = validate(*table); !why.empty()) {
      failures_.push_back({canonical, load_error_kind::invalid_table, why});
      dlclose(h);
      return false;
    }
    handles_.push_back(h);
    loaded_paths_.push_back(canonical);
    plugin_origin origin{table->name, canonical, table->version ? table->version : "",
                         table->library_abi_tag ? table->library_abi_tag : ""};
    plugins_.push_back(origin);
    for (std::uint32_t i = 0; i < table->task_count; ++i) add_task(table->tasks[i], origin);
    for (std::uint32_t i = 0; i < table->model_count; ++i) add_model(table->models[i], origin);
    for (std::uint32_t i = 0; i < benchmark_count(*table); ++i) add_benchmark(table->benchmarks[i], origin);
    return true;
  }

  const task_entry* find_task(std::string_view name) const {
    for (const auto& t : tasks_)
      if (name == t.type->name) return &t;
    return nullptr;
  }
  const model_entry* find_model(std::string_view name) const {
    for (const auto& m : models_)
      if (name == m.type->name) return &m;
    return nullptr;
  }

  const benchmark_entry* find_benchmark(std::string_view name) const {
    for (const auto& b : benchmarks_)
      if (name == b.type->name) return &b;
    return nullptr;
  }

  const std::vector<task_entry>& tasks() const noexcept { return tasks_; }
  const std::vector<benchmark_entry>& benchmarks() const noexcept { return benchmarks_; }
  const std::vector<model_entry>& models() const noexcept { return models_; }
  const std::vector<plugin_origin>& plugins() const noexcept { return plugins_; }
  const std::vector<plugin_load_failure>& failures() const noexcept { return failures_; }
  const std::vector<std::string>& shadowed() const noexcept { return shadowed_; }
  const std::vector<std::string>& searched() const noexcept { return searched_; }
  /// Search path entries that do not exist (a mistyped BEM_PLUGIN_PATH entry,
  /// say; bem-bench refuses a missing --plugin-path before loading).
  const std::vector<std::string>& missing() const noexcept { return missing_; }

  /// Text for a lookup that found nothing: names the plugins that failed and
  /// the search path entries that do not exist.
  std::string not_found_message(std::string_view what, std::string_view name) const {
    std::string m = "no plugin provides " + std::string(what) + " '" + std::string(name) + "'";
    if (!failures_.empty()) {
      m += "; plugins that failed to load:";
      for (const auto& f : failures_) m += " [" + f.describe() + "]";
    }
    if (!missing_.empty()) {
      m += "; plugin search path entries that do not exist:";
      for (const auto& d : missing_) m += " " + d;
    }
    return m;
  }

 private:
  /// The plugin table's benchmarks, an appended field: none when the table
  /// ends before it.
  static std::uint32_t benchmark_count(const bem_plugin_v1& t) noexcept {
    return t.struct_size >= offsetof(bem_plugin_v1, benchmarks) + sizeof(t.benchmarks) ? t.benchmark_count : 0;
  }
  /// Everything the host calls or prints is there. A model table whose size
  /// ends before `diagnose` is complete: diagnose and later were appended.
  static bool complete(const bem_model_type_v1* m) noexcept {
    return m != nullptr && m->struct_size >= offsetof(bem_model_type_v1, diagnose) && m->name && m->version &&
           m->description && m->create && m->destroy && m->reset && m->set_learning && m->learn && m->predict &&
           m->parameter_count && m->effective_parameters;
  }
  static std::string validate(const bem_plugin_v1& t) {
    if (t.name == nullptr) return "plugin table has no name";
    if (t.task_count > 0 && t.tasks == nullptr) return "task table is NULL";
    if (t.model_count > 0 && t.models == nullptr) return "model table is NULL";
    for (std::uint32_t i = 0; i < t.task_count; ++i) {
      const auto* tt = t.tasks[i];
      if (tt == nullptr || tt->struct_size < sizeof(bem_task_type_v1) || !tt->name || !tt->version ||
          !tt->description || !tt->create || !tt->destroy || !tt->spec || !tt->split_count || !tt->split ||
          !tt->generate || !tt->effective_parameters)
        return "task entry " + std::to_string(i) + " is incomplete or too small";
      if (tt->reference_model != nullptr && !complete(tt->reference_model))
        return "task entry " + std::to_string(i) + " ('" + tt->name + "'): its reference model is incomplete or too small";
    }
    for (std::uint32_t i = 0; i < t.model_count; ++i)
      if (!complete(t.models[i])) return "model entry " + std::to_string(i) + " is incomplete or too small";
    const std::uint32_t benchmarks = benchmark_count(t);
    if (benchmarks > 0 && t.benchmarks == nullptr) return "benchmark table is NULL";
    for (std::uint32_t i = 0; i < benchmarks; ++i) {
      const auto* b = t.benchmarks[i];
      // run_with_context was appended: a table without it is still complete.
      if (b == nullptr || b->struct_size < offsetof(bem_benchmark_type_v1, run_with_context) || !b->name ||
          !b->version || !b->description || !b->create || !b->destroy || !b->run || !b->effective_parameters)
        return "benchmark entry " + std::to_string(i) + " is incomplete or too small";
    }
    return {};
  }
  void add_benchmark(const bem_benchmark_type_v1* b, const plugin_origin& o) {
    if (find_benchmark(b->name) || find_task(b->name)) {
      shadowed_.push_back(std::string("benchmark '") + b->name + "' from " + o.path);
      return;
    }
    benchmarks_.push_back({b, o});
  }
  void add_task(const bem_task_type_v1* t, const plugin_origin& o) {
    if (find_task(t->name) || find_benchmark(t->name)) {
      shadowed_.push_back(std::string("task '") + t->name + "' from " + o.path);
      return;
    }
    tasks_.push_back({t, o});
  }
  void add_model(const bem_model_type_v1* m, const plugin_origin& o) {
    if (find_model(m->name)) {
      shadowed_.push_back(std::string("model '") + m->name + "' from " + (o.path.empty() ? o.plugin : o.path));
      return;
    }
    models_.push_back({m, o});
  }

  std::vector<void*> handles_;
  std::vector<std::string> loaded_paths_;
  std::vector<plugin_origin> plugins_;
  std::vector<task_entry> tasks_;
  std::vector<model_entry> models_;
  std::vector<benchmark_entry> benchmarks_;
  std::vector<plugin_load_failure> failures_;
  std::vector<std::string> shadowed_;
  std::vector<std::string> searched_;
  std::vector<std::string> missing_;
};

/// A task created through the C table; methods throw plugin_error.
class task_instance {
 public:
  task_instance(const bem_task_type_v1* type, const std::string& parameters_toml) : type_(type) {
    char err[detail::error_capacity] = {0};
    handle_ = type_->create(parameters_toml.c_str(), err, sizeof err);
    if (handle_ == nullptr) throw plugin_error(std::string("task '") + type_->name + "': " + err);
    type_->spec(handle_, &spec_);
    if (std::string why = check_splits(); !why.empty()) {
      type_->destroy(handle_);
      handle_ = nullptr;
      throw plugin_error(std::string("task '") + type_->name + "': " + why);
    }
  }
  task_instance(const task_instance&) = delete;
  task_instance& operator=(const task_instance&) = delete;
  ~task_instance() {
    if (handle_) type_->destroy(handle_);
  }

  const bem_task_type_v1* type() const noexcept { return type_; }
  const bem_task_spec_v1& c_spec() const noexcept { return spec_; }
  std::string effective_parameters() const { return type_->effective_parameters(handle_); }
  std::int32_t split_count() const { return type_->split_count(handle_); }
  bem_split_v1 split(std::int32_t i) const {
    if (i < 0 || i >= split_count())
      throw plugin_error(std::string("task '") + type_->name + "': no split " + std::to_string(i) + " (it has " +
                         std::to_string(split_count()) + ")");
    bem_split_v1 s{};
    type_->split(handle_, i, &s);
    return s;
  }

  /// Sequences first .. first+count-1 of split `split` into `out`. A failure
  /// names the split and the sequences asked for.
  void generate(std::int32_t split, std::uint64_t seed, std::int64_t first, std::int32_t count,
                tasks::sequence_batch& out) const {
    const bem_split_v1 s = this->split(split);
    out.reset(count, s.length);
    bem_batch_v1 c{out.batch_size, out.length, out.inputs.data(), out.targets.data(), out.mask.data(),
                   out.lengths.data(), out.tags.data()};
    char err[detail::error_capacity] = {0};
    if (type_->generate(handle_, split, seed, first, &c, err, sizeof err) != BEM_OK)
      throw plugin_error(std::string("task '") + type_->name + "' generate (split '" + s.name + "', sequences " +
                         std::to_string(first) + ".." + std::to_string(first + count - 1) + ", seed " +
                         std::to_string(seed) + "): " + err);
  }

 private:
  /// The splits the host relies on: each named, and uniquely (records are
  /// keyed by the name), with a known role and a positive length. "" if so.
  std::string check_splits() const {
    const std::int32_t n = split_count();
    std::vector<std::string> names;
    for (std::int32_t i = 0; i < n; ++i) {
      bem_split_v1 s{};
      type_->split(handle_, i, &s);
      const std::string at = "split " + std::to_string(i);
      if (s.name == nullptr || *s.name == '\0') return at + " has no name (each split needs a unique name)";
      const std::string named = at + " ('" + s.name + "')";
      if (std::find(names.begin(), names.end(), s.name) != names.end())
        return named + ": another split has the same name (records are keyed by it)";
      if (s.role != BEM_SPLIT_TRAIN && s.role != BEM_SPLIT_VALIDATION && s.role != BEM_SPLIT_TEST)
        return named + ": unknown role " + std::to_string(s.role);
      if (s.length < 1) return named + ": length " + std::to_string(s.length) + " (must be at least 1)";
      names.emplace_back(s.name);
    }
    return {};
  }

  const bem_task_type_v1* type_;
  void* handle_ = nullptr;
  bem_task_spec_v1 spec_{};
};

/// A model created through the C table; methods throw plugin_error.
class model_instance {
 public:
  model_instance(const bem_model_type_v1* type, const std::string& parameters_toml) : type_(type) {
    char err[detail::error_capacity] = {0};
    handle_ = type_->create(parameters_toml.c_str(), err, sizeof err);
    if (handle_ == nullptr) throw plugin_error(std::string("model '") + type_->name + "': " + err);
  }
  model_instance(const model_instance&) = delete;
  model_instance& operator=(const model_instance&) = delete;
  ~model_instance() {
    if (handle_) type_->destroy(handle_);
  }

  const bem_model_type_v1* type() const noexcept { return type_; }
  std::string effective_parameters() const { return type_->effective_parameters(handle_); }

  void reset(const bem_task_spec_v1& spec, std::uint64_t seed) {
    char err[detail::error_capacity] = {0};
    if (type_->reset(handle_, &spec, seed, err, sizeof err) != BEM_OK)
      throw plugin_error(std::string("model '") + type_->name + "' reset: " + err);
  }
  void set_learning(bool on) { type_->set_learning(handle_, on ? 1 : 0); }
  double learn(tasks::sequence_batch& b) {
    bem_batch_v1 c = view(b);
    double loss = 0;
    char err[detail::error_capacity] = {0};
    if (type_->learn(handle_, &c, &loss, err, sizeof err) != BEM_OK)
      throw plugin_error(std::string("model '") + type_->name + "' learn: " + err);
    return loss;
  }
  /// `out` must already be sized (prediction::reset).
  void predict(tasks::sequence_batch& b, tasks::prediction& out) {
    bem_batch_v1 c = view(b);
    char err[detail::error_capacity] = {0};
    if (type_->predict(handle_, &c, out.logits.data(), err, sizeof err) != BEM_OK)
      throw plugin_error(std::string("model '") + type_->name + "' predict: " + err);
  }
  std::int64_t parameter_count() const { return type_->parameter_count(handle_); }

  /// Calls `f(metric, value, unit)` for each extra figure the model reports.
  void report(const std::function<void(std::string_view, double, std::string_view)>& f) const {
    if (type_->report == nullptr) return;
    type_->report(
        handle_,
        [](void* ctx, const char* metric, double value, const char* unit) {
          (*static_cast<const std::function<void(std::string_view, double, std::string_view)>*>(ctx))(metric, value,
                                                                                                      unit);
        },
        const_cast<void*>(static_cast<const void*>(&f)));
  }

  /// Whether the model computes diagnostic series (a plugin built before the
  /// field was appended does not).
  bool diagnoses() const noexcept { return diagnose_entry() != nullptr; }
  /// Calls `f(metric, series, unit)` for each diagnostic series of the model
  /// on `b` (targets included); does nothing when !diagnoses().
  void diagnose(tasks::sequence_batch& b,
                const std::function<void(std::string_view, std::span<const double>, std::string_view)>& f) {
    const auto entry = diagnose_entry();
    if (entry == nullptr) return;
    bem_batch_v1 c = view(b);
    char err[detail::error_capacity] = {0};
    const int rc = entry(
        handle_, &c,
        [](void* ctx, const char* metric, const double* values, std::size_t count, const char* unit) {
          (*static_cast<const std::function<void(std::string_view, std::span<const double>, std::string_view)>*>(
              ctx))(metric, std::span<const double>(values, count), unit);
        },
        const_cast<void*>(static_cast<const void*>(&f)), err, sizeof err);
    if (rc != BEM_OK) throw plugin_error(std::string("model '") + type_->name + "' diagnose: " + err);
  }

  /// Whether the model can keep and restore a checkpoint (a plugin built
  /// before the field was appended cannot).
  bool checkpoints() const noexcept { return checkpoint_entry() != nullptr; }
  /// Remembers what the model has learned; requires checkpoints().
  void keep_checkpoint() { checkpoint(BEM_CHECKPOINT_KEEP, "keep_checkpoint"); }
  /// Returns to the kept checkpoint; requires checkpoints().
  void restore_checkpoint() { checkpoint(BEM_CHECKPOINT_RESTORE, "restore_checkpoint"); }

 private:
  decltype(bem_model_type_v1::diagnose) diagnose_entry() const noexcept {
    return detail::appended_field(type_, &bem_model_type_v1::diagnose);
  }
  decltype(bem_model_type_v1::checkpoint) checkpoint_entry() const noexcept {
    return detail::appended_field(type_, &bem_model_type_v1::checkpoint);
  }
  void checkpoint(int action, const char* what) {
    const auto entry = checkpoint_entry();
    if (entry == nullptr) throw plugin_error(std::string("model '") + type_->name + "' has no checkpoints");
    char err[detail::error_capacity] = {0};
    if (entry(handle_, action, err, sizeof err) != BEM_OK)
      throw plugin_error(std::string("model '") + type_->name + "' " + what + ": " + err);
  }
  static bem_batch_v1 view(tasks::sequence_batch& b) {
    return {b.batch_size, b.length, b.inputs.data(), b.targets.data(), b.mask.data(), b.lengths.data(),
            b.tags.data()};
  }
  const bem_model_type_v1* type_;
  void* handle_ = nullptr;
};

/// A microbenchmark created through the C table; run() throws plugin_error.
class benchmark_instance {
 public:
  benchmark_instance(const bem_benchmark_type_v1* type, const std::string& parameters_toml) : type_(type) {
    char err[detail::error_capacity] = {0};
    handle_ = type_->create(parameters_toml.c_str(), err, sizeof err);
    if (handle_ == nullptr) throw plugin_error(std::string("benchmark '") + type_->name + "': " + err);
  }
  benchmark_instance(const benchmark_instance&) = delete;
  benchmark_instance& operator=(const benchmark_instance&) = delete;
  ~benchmark_instance() {
    if (handle_) type_->destroy(handle_);
  }

  const bem_benchmark_type_v1* type() const noexcept { return type_; }
  std::string effective_parameters() const { return type_->effective_parameters(handle_); }

  /// The benchmark evaluates a model of its own kind (it takes the run context).
  bool takes_model() const noexcept { return run_with_context() != nullptr; }

  /// Runs the benchmark; `on_record` gets each record as it is measured with
  /// the condition as JSON text.
  void run(std::uint64_t seed, const std::function<void(const benchmark_record&, const std::string&)>& on_record) {
    benchmark_context c;
    c.seed = seed;
    run(c, on_record);
  }
  void run(const benchmark_context& run_context,
           const std::function<void(const benchmark_record&, const std::string&)>& on_record) {
    struct context {
      const std::function<void(const benchmark_record&, const std::string&)>* f;
      std::string error;
    } ctx{&on_record, {}};
    const bem_record_sink_v1 sink = [](void* c, const bem_record_v1* r) {
      auto& cx = *static_cast<context*>(c);
      if (!cx.error.empty()) return;
      try {
        benchmark_record rec;
        rec.split = r->split ? r->split : "";
        rec.value.metric = r->metric ? r->metric : "";
        rec.value.value = r->value;
        rec.value.unit = r->unit ? r->unit : "";
        rec.value.direction = r->better == BEM_BETTER_HIGHER  ? metrics::better::higher
                              : r->better == BEM_BETTER_LOWER ? metrics::better::lower
                                                              : metrics::better::none;
        rec.timing = r->timing != 0;
        if (r->has_ci) rec.value.ci = metrics::interval{r->ci_low, r->ci_high, r->ci_method ? r->ci_method : ""};
        rec.value.n = r->n;
        rec.value.n_unit = r->n_unit ? r->n_unit : "";
        if (const char* const* b = detail::appended_field(r, &bem_record_v1::breakdown))
          for (std::uint32_t i = 0; i < r->breakdown_size; ++i)
            rec.value.breakdown.emplace_back(b[2 * i] ? b[2 * i] : "", b[2 * i + 1] ? b[2 * i + 1] : "");
        (*cx.f)(rec, r->condition_json ? r->condition_json : "{}");
      } catch (const std::exception& e) {  // never unwind through the plugin's C frames
        cx.error = e.what();
      }
    };
    char err[detail::error_capacity] = {0};
    int rc;
    if (const auto with_context = run_with_context()) {
      const bem_run_context_v1 c{sizeof(bem_run_context_v1), run_context.seed, run_context.model.c_str(),
                                 run_context.model_parameters_toml.c_str(), run_context.artifact_dir.c_str()};
      rc = with_context(handle_, &c, sink, &ctx, err, sizeof err);
    } else if (run_context.model != "none") {
      throw plugin_error(std::string("benchmark '") + type_->name + "' takes no model (got '" + run_context.model +
                         "')");
    } else {
      rc = type_->run(handle_, run_context.seed, sink, &ctx, err, sizeof err);
    }
    if (!ctx.error.empty()) throw plugin_error(std::string("benchmark '") + type_->name + "' record: " + ctx.error);
    if (rc != BEM_OK) throw plugin_error(std::string("benchmark '") + type_->name + "': " + err);
  }

 private:
  decltype(bem_benchmark_type_v1::run_with_context) run_with_context() const noexcept {
    return detail::appended_field(type_, &bem_benchmark_type_v1::run_with_context);
  }
  const bem_benchmark_type_v1* type_;
  void* handle_ = nullptr;
};

BEM_NAMESPACE_END
