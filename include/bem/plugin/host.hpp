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
//   no entry point  the module has no BEM_PLUGIN_ENTRY (`bem_plugin_entry_v2`);
//   ABI mismatch    the table's abi_version or struct_size is not ours, or
//                   the module was built for ABI 1 (`bem_plugin_entry_v1`);
//   invalid table   required fields are missing.
//
// Instances (task_instance, model_instance, benchmark_instance) turn every
// failed call into a plugin_error naming the instance, its plugin when the
// caller says which, and the call: "model 'e88' (plugin nn) learn: ...". The
// host's own callbacks (sinks for records, figures and series) never let an
// exception unwind through the plugin's frames: the first one is kept and
// thrown as the error of the call that was running.
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

/// A plugin call that failed. what() names the instance, its plugin and the
/// call; detail() is the reason alone, as the plugin (or the host's check)
/// gave it.
class plugin_error : public std::runtime_error {
 public:
  explicit plugin_error(const std::string& what) : plugin_error(what, what) {}
  plugin_error(const std::string& what, std::string detail) : std::runtime_error(what), detail_(std::move(detail)) {}
  const std::string& detail() const noexcept { return detail_; }

 private:
  std::string detail_;
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

/// The entry point of plugin ABI 1, recognised only to say that a module
/// must be rebuilt.
constexpr const char* abi1_entry_name = "bem_plugin_entry_v1";

/// How an instance is named in its errors, "model 'e88' (plugin nn)", and
/// the errors themselves: "<name> CALL: REASON".
class call_site {
 public:
  call_site(const char* kind, const char* name, const std::string& plugin)
      : name_(std::string(kind) + " '" + (name ? name : "") + "'" + (plugin.empty() ? "" : " (plugin " + plugin + ")")) {}
  [[noreturn]] void fail(std::string_view call, const std::string& reason) const {
    throw plugin_error(name_ + " " + std::string(call) + ": " + reason, reason);
  }
  /// Throws the plugin's message when a call did not return BEM_OK.
  void check(int rc, std::string_view call, const char* err) const {
    if (rc != BEM_OK) fail(call, *err ? err : "failed without a message");
  }
  /// A string the plugin returned, which must not be NULL.
  std::string text(const char* s, std::string_view call) const {
    if (s == nullptr) fail(call, "returned NULL");
    return s;
  }

 private:
  std::string name_;
};

/// The host's side of a sink that a plugin calls: runs the host's callback
/// and keeps its first exception, which must not unwind through the
/// plugin's C frames; after one, later calls do nothing.
struct sink_guard {
  std::string error;
  template <class F>
  void operator()(F&& f) noexcept {
    if (!error.empty()) return;
    try {
      f();
    } catch (const std::exception& e) {
      error = *e.what() ? e.what() : "an exception without a message";
    } catch (...) {
      error = "an exception that is not a std::exception";
    }
  }
  /// After the plugin's call: the host's failure, if any, as the call's error.
  void check(const call_site& site, std::string_view call, const char* what) const {
    if (!error.empty()) site.fail(call, std::string("the host failed to take ") + what + ": " + error);
  }
};

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
      if (dlsym(h, detail::abi1_entry_name) != nullptr)
        failures_.push_back({canonical, load_error_kind::abi_mismatch,
                             std::string("the module exports ") + detail::abi1_entry_name +
                                 ": it was built for plugin ABI 1, and this host speaks ABI " +
                                 std::to_string(BEM_PLUGIN_ABI_VERSION) + "; rebuild it against this bem"});
      else
        failures_.push_back({canonical, load_error_kind::no_entry_point,
                             "the module does not export " BEM_PLUGIN_ENTRY_NAME " (is it a bem plugin?)"});
      dlclose(h);
      return false;
    }
    auto entry = reinterpret_cast<bem_plugin_entry_v2_fn>(sym);
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
      // describe_parameters was appended: a table without it is still complete.
      if (tt == nullptr || tt->struct_size < offsetof(bem_task_type_v1, describe_parameters) || !tt->name || !tt->version ||
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

/// The parameter documentation of a task, model or benchmark type (`kind`
/// names it in errors): the JSON array of bem/plugin/abi.h's
/// describe_parameters, or "" when the type declares none or its table ends
/// before the field was appended. A failed call throws plugin_error.
template <class Type>
std::string describe_parameters(const Type* type, const char* kind, const std::string& plugin = {}) {
  const auto entry = detail::appended_field(type, &Type::describe_parameters);
  if (entry == nullptr) return "";
  const detail::call_site site(kind, type->name, plugin);
  const char* json = nullptr;
  char err[detail::error_capacity] = {0};
  site.check(entry(&json, err, sizeof err), "describe_parameters", err);
  return site.text(json, "describe_parameters");
}

/// A task created through the C table; methods throw plugin_error. `plugin`
/// names its plugin in the errors (empty: not named).
class task_instance {
 public:
  task_instance(const bem_task_type_v1* type, const std::string& parameters_toml, const std::string& plugin = {})
      : type_(type), site_("task", type->name, plugin) {
    char err[detail::error_capacity] = {0};
    handle_ = type_->create(parameters_toml.c_str(), err, sizeof err);
    if (handle_ == nullptr) site_.fail("create", *err ? err : "failed without a message");
    try {
      spec_.struct_size = sizeof spec_;
      type_->spec(handle_, &spec_);
      if (spec_.struct_size < sizeof spec_) site_.fail("spec", undersized(spec_.struct_size, sizeof spec_));
      check_splits();
    } catch (...) {
      type_->destroy(handle_);
      throw;
    }
  }
  task_instance(const task_instance&) = delete;
  task_instance& operator=(const task_instance&) = delete;
  ~task_instance() { type_->destroy(handle_); }

  const bem_task_type_v1* type() const noexcept { return type_; }
  const bem_task_spec_v1& c_spec() const noexcept { return spec_; }
  std::string effective_parameters() const {
    return site_.text(type_->effective_parameters(handle_), "effective_parameters");
  }
  std::int32_t split_count() const { return type_->split_count(handle_); }
  /// Split `i`, checked each time it is asked for (see check_split).
  bem_split_v1 split(std::int32_t i) const {
    const std::string at = "split " + std::to_string(i);
    if (i < 0 || i >= split_count()) site_.fail(at, "no such split (it has " + std::to_string(split_count()) + ")");
    bem_split_v1 s{};
    s.struct_size = sizeof s;
    type_->split(handle_, i, &s);
    if (s.struct_size < sizeof s) site_.fail(at, undersized(s.struct_size, sizeof s));
    check_split(s, at);
    return s;
  }

  /// Sequences first .. first+count-1 of split `split` into `out`. A failure
  /// names the split and the sequences asked for.
  void generate(std::int32_t split, std::uint64_t seed, std::int64_t first, std::int32_t count,
                tasks::sequence_batch& out) const {
    const bem_split_v1 s = this->split(split);
    out.reset(count, s.length);
    bem_batch_v1 c{sizeof(bem_batch_v1), out.batch_size, out.length, out.inputs.data(), out.targets.data(),
                   out.mask.data(), out.lengths.data(), out.tags.data()};
    char err[detail::error_capacity] = {0};
    if (const int rc = type_->generate(handle_, split, seed, first, &c, err, sizeof err); rc != BEM_OK)
      site_.check(rc,
                  "generate (split '" + std::string(s.name) + "', sequences " + std::to_string(first) + ".." +
                      std::to_string(first + count - 1) + ", seed " + std::to_string(seed) + ")",
                  err);
  }

 private:
  static std::string undersized(std::uint32_t got, std::size_t wanted) {
    return "filled " + std::to_string(got) + " bytes, fewer than plugin ABI " + std::to_string(BEM_PLUGIN_ABI_VERSION) +
           "'s " + std::to_string(wanted);
  }
  /// What the host relies on in a split: a name, a known role and a
  /// positive length. Checked at every call, not only at creation: the
  /// host sizes batches by the length a later call gives (a negative one
  /// reached std::vector, found by tests/fuzz).
  void check_split(const bem_split_v1& s, const std::string& at) const {
    if (s.name == nullptr || *s.name == '\0') site_.fail(at, "no name (each split needs a unique name)");
    const std::string named = at + " ('" + s.name + "')";
    if (s.role != BEM_SPLIT_TRAIN && s.role != BEM_SPLIT_VALIDATION && s.role != BEM_SPLIT_TEST)
      site_.fail(named, "unknown role " + std::to_string(s.role));
    if (s.length < 1) site_.fail(named, "length " + std::to_string(s.length) + " (must be at least 1)");
  }
  /// At creation: every split is well formed and uniquely named (records
  /// are keyed by the name).
  void check_splits() const {
    const std::int32_t n = split_count();
    std::vector<std::string> names;
    for (std::int32_t i = 0; i < n; ++i) {
      const bem_split_v1 s = split(i);
      if (std::find(names.begin(), names.end(), s.name) != names.end())
        site_.fail("split " + std::to_string(i) + " ('" + s.name + "')",
                   "another split has the same name (records are keyed by it)");
      names.emplace_back(s.name);
    }
  }

  const bem_task_type_v1* type_;
  detail::call_site site_;
  void* handle_ = nullptr;
  bem_task_spec_v1 spec_{};
};

/// A model created through the C table; methods throw plugin_error. `plugin`
/// names its plugin in the errors (empty: not named).
class model_instance {
 public:
  model_instance(const bem_model_type_v1* type, const std::string& parameters_toml, const std::string& plugin = {})
      : type_(type), site_("model", type->name, plugin) {
    char err[detail::error_capacity] = {0};
    handle_ = type_->create(parameters_toml.c_str(), err, sizeof err);
    if (handle_ == nullptr) site_.fail("create", *err ? err : "failed without a message");
  }
  model_instance(const model_instance&) = delete;
  model_instance& operator=(const model_instance&) = delete;
  ~model_instance() { type_->destroy(handle_); }

  const bem_model_type_v1* type() const noexcept { return type_; }
  std::string effective_parameters() const {
    return site_.text(type_->effective_parameters(handle_), "effective_parameters");
  }

  void reset(const bem_task_spec_v1& spec, std::uint64_t seed) {
    char err[detail::error_capacity] = {0};
    site_.check(type_->reset(handle_, &spec, seed, err, sizeof err), "reset", err);
  }
  void set_learning(bool on) {
    char err[detail::error_capacity] = {0};
    site_.check(type_->set_learning(handle_, on ? 1 : 0, err, sizeof err), "set_learning", err);
  }
  double learn(tasks::sequence_batch& b) {
    bem_batch_v1 c = view(b);
    double loss = 0;
    char err[detail::error_capacity] = {0};
    site_.check(type_->learn(handle_, &c, &loss, err, sizeof err), "learn", err);
    return loss;
  }
  /// `out` must already be sized (prediction::reset).
  void predict(tasks::sequence_batch& b, tasks::prediction& out) {
    bem_batch_v1 c = view(b);
    char err[detail::error_capacity] = {0};
    site_.check(type_->predict(handle_, &c, out.logits.data(), err, sizeof err), "predict", err);
  }
  std::int64_t parameter_count() const {
    std::int64_t count = -1;
    char err[detail::error_capacity] = {0};
    site_.check(type_->parameter_count(handle_, &count, err, sizeof err), "parameter_count", err);
    if (count < 0) site_.fail("parameter_count", "a count of " + std::to_string(count) + " parameters");
    return count;
  }

  /// Calls `f(metric, value, unit)` for each extra figure the model reports.
  void report(const std::function<void(std::string_view, double, std::string_view)>& f) const {
    if (type_->report == nullptr) return;
    struct context {
      const std::function<void(std::string_view, double, std::string_view)>* f;
      detail::sink_guard guard;
    } ctx{&f, {}};
    char err[detail::error_capacity] = {0};
    const int rc = type_->report(
        handle_,
        [](void* c, const char* metric, double value, const char* unit) {
          auto& cx = *static_cast<context*>(c);
          cx.guard([&] { (*cx.f)(metric ? metric : "", value, unit ? unit : ""); });
        },
        &ctx, err, sizeof err);
    ctx.guard.check(site_, "report", "a figure");
    site_.check(rc, "report", err);
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
    struct context {
      const std::function<void(std::string_view, std::span<const double>, std::string_view)>* f;
      detail::sink_guard guard;
    } ctx{&f, {}};
    char err[detail::error_capacity] = {0};
    const int rc = entry(
        handle_, &c,
        [](void* cv, const char* metric, const double* values, std::size_t count, const char* unit) {
          auto& cx = *static_cast<context*>(cv);
          cx.guard([&] { (*cx.f)(metric ? metric : "", std::span<const double>(values, count), unit ? unit : ""); });
        },
        &ctx, err, sizeof err);
    ctx.guard.check(site_, "diagnose", "a series");
    site_.check(rc, "diagnose", err);
  }

  /// Whether the model can keep and restore a checkpoint (a plugin built
  /// before the field was appended cannot).
  bool checkpoints() const noexcept { return checkpoint_entry() != nullptr; }
  /// Remembers what the model has learned; requires checkpoints().
  void keep_checkpoint() { checkpoint(BEM_CHECKPOINT_KEEP, "keep_checkpoint"); }
  /// Returns to the kept checkpoint; requires checkpoints().
  void restore_checkpoint() { checkpoint(BEM_CHECKPOINT_RESTORE, "restore_checkpoint"); }

  /// The §6.1 configuration of the machine the model runs on, a JSON object;
  /// empty when the model runs on none (or was built before the field).
  std::string machine_configuration() const {
    const auto entry = detail::appended_field(type_, &bem_model_type_v1::machine_configuration);
    if (entry == nullptr) return {};
    const char* json = nullptr;
    char err[detail::error_capacity] = {0};
    site_.check(entry(handle_, &json, err, sizeof err), "machine_configuration", err);
    return site_.text(json, "machine_configuration");
  }

 private:
  decltype(bem_model_type_v1::diagnose) diagnose_entry() const noexcept {
    return detail::appended_field(type_, &bem_model_type_v1::diagnose);
  }
  decltype(bem_model_type_v1::checkpoint) checkpoint_entry() const noexcept {
    return detail::appended_field(type_, &bem_model_type_v1::checkpoint);
  }
  void checkpoint(int action, const char* call) {
    const auto entry = checkpoint_entry();
    if (entry == nullptr) site_.fail(call, "the model has no checkpoints");
    char err[detail::error_capacity] = {0};
    site_.check(entry(handle_, action, err, sizeof err), call, err);
  }
  static bem_batch_v1 view(tasks::sequence_batch& b) {
    return {sizeof(bem_batch_v1), b.batch_size, b.length, b.inputs.data(), b.targets.data(), b.mask.data(),
            b.lengths.data(), b.tags.data()};
  }
  const bem_model_type_v1* type_;
  detail::call_site site_;
  void* handle_ = nullptr;
};

/// A microbenchmark created through the C table; run() throws plugin_error.
/// `plugin` names its plugin in the errors (empty: not named).
class benchmark_instance {
 public:
  benchmark_instance(const bem_benchmark_type_v1* type, const std::string& parameters_toml,
                     const std::string& plugin = {})
      : type_(type), site_("benchmark", type->name, plugin) {
    char err[detail::error_capacity] = {0};
    handle_ = type_->create(parameters_toml.c_str(), err, sizeof err);
    if (handle_ == nullptr) site_.fail("create", *err ? err : "failed without a message");
  }
  benchmark_instance(const benchmark_instance&) = delete;
  benchmark_instance& operator=(const benchmark_instance&) = delete;
  ~benchmark_instance() { type_->destroy(handle_); }

  const bem_benchmark_type_v1* type() const noexcept { return type_; }
  std::string effective_parameters() const {
    return site_.text(type_->effective_parameters(handle_), "effective_parameters");
  }

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
      detail::sink_guard guard;
    } ctx{&on_record, {}};
    const bem_record_sink_v1 sink = [](void* c, const bem_record_v1* r) {
      auto& cx = *static_cast<context*>(c);
      cx.guard([&] {
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
      });
    };
    char err[detail::error_capacity] = {0};
    int rc;
    if (const auto with_context = run_with_context()) {
      const bem_run_context_v1 c{sizeof(bem_run_context_v1), run_context.seed, run_context.model.c_str(),
                                 run_context.model_parameters_toml.c_str(), run_context.artifact_dir.c_str()};
      rc = with_context(handle_, &c, sink, &ctx, err, sizeof err);
    } else if (run_context.model != "none") {
      site_.fail("run", "it takes no model (got '" + run_context.model + "')");
    } else {
      rc = type_->run(handle_, run_context.seed, sink, &ctx, err, sizeof err);
    }
    ctx.guard.check(site_, "run", "a record");
    site_.check(rc, "run", err);
  }

 private:
  decltype(bem_benchmark_type_v1::run_with_context) run_with_context() const noexcept {
    return detail::appended_field(type_, &bem_benchmark_type_v1::run_with_context);
  }
  const bem_benchmark_type_v1* type_;
  detail::call_site site_;
  void* handle_ = nullptr;
};

BEM_NAMESPACE_END
