// The C++ side of the plugin ABI: turns concept-checked task and model
// classes into the plain-C tables of bem/plugin/abi.h.
//
//     #include <bem/plugin/adapter.hpp>
//     BEM_PLUGIN("my_tasks", "1.0", BEM_TASKS(my_task), BEM_MODELS())
//
// (any of BEM_TASKS, BEM_MODELS and BEM_BENCHMARKS, each at most once, in any
// order) expands to the exported entry point BEM_PLUGIN_ENTRY
// (`bem_plugin_entry_v2`). Every call that crosses the boundary is wrapped
// so that an exception becomes error text: a throwing task fails the run
// that uses it, never the host. Build plugins with hidden visibility (meson:
// gnu_symbol_visibility : 'hidden'); the entry point is the one exported
// symbol.
//
// The same adapters serve the host for built-in models, so a built-in model
// and a plugin model go through one code path.
#pragma once

#include <bem/harness/benchmark.hpp>
#include <bem/harness/reflected_parameters.hpp>
#include <bem/plugin/abi.h>
#include <bem/harness/sequence_model.hpp>
#include <bem/plugin/toml_parameters.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>
#include <tasks/concepts.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

BEM_NAMESPACE_BEGIN

/// A task that has an exact reference solver (`T::reference_model`).
template <class T>
concept solvable_task = tasks::pluggable_task<T> && requires { typename T::reference_model; } &&
                        pluggable_model<typename T::reference_model>;

namespace detail {

inline void write_error(char* err, std::size_t size, std::string_view msg) noexcept {
  if (err == nullptr || size == 0) return;
  const std::size_t n = std::min(size - 1, msg.size());
  std::memcpy(err, msg.data(), n);
  err[n] = '\0';
}

/// Runs `f`, turning any exception into BEM_ERROR plus text.
template <class F>
int guarded(char* err, std::size_t size, F&& f) noexcept {
  try {
    f();
    return BEM_OK;
  } catch (const std::exception& e) {
    write_error(err, size, e.what());
  } catch (...) {
    write_error(err, size, "unknown exception");
  }
  return BEM_ERROR;
}

/// Throws unless the caller's struct is at least as large as the one this
/// plugin was built with (every field is ABI 2's own: none appended yet).
template <class Struct>
void require_whole(const Struct& s, const char* what) {
  if (s.struct_size < sizeof(Struct))
    throw std::invalid_argument(std::string(what) + " of " + std::to_string(s.struct_size) +
                                " bytes, smaller than plugin ABI " + std::to_string(BEM_PLUGIN_ABI_VERSION) + "'s " +
                                std::to_string(sizeof(Struct)));
}

/// Writes `value` into the caller's `out` only as far as out->struct_size
/// reaches (a host built before a field was appended has no room for it) and
/// sets struct_size to the bytes written.
template <class Struct>
void write_within(Struct* out, Struct value) noexcept {
  const std::size_t n = std::min<std::size_t>(out->struct_size, sizeof(Struct));
  value.struct_size = static_cast<std::uint32_t>(n);
  std::memcpy(static_cast<void*>(out), &value, n);
}

inline std::string join_lines(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "\n" : "") + v[i];
  return s;
}

inline std::vector<std::string> split_lines(const char* s) {
  std::vector<std::string> out;
  if (s == nullptr || *s == '\0') return out;
  std::string_view v(s);
  std::size_t start = 0;
  while (true) {
    const std::size_t nl = v.find('\n', start);
    out.emplace_back(v.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return out;
}

inline std::string condition_json(const std::vector<tasks::condition_field>& c) {
  std::string s = "{";
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (i) s += ',';
    json_escape_into(s, c[i].key);
    s += ':' + c[i].json_value;
  }
  return s + "}";
}

/// A C spec whose strings point into `owner` (which must outlive it).
struct c_spec_holder {
  std::string token_names, tag_labels, tag_name;
  bem_task_spec_v1 c{};
  explicit c_spec_holder(const tasks::task_spec& s)
      : token_names(join_lines(s.token_names)), tag_labels(join_lines(s.tag_labels)), tag_name(s.tag_name) {
    c.struct_size = sizeof(bem_task_spec_v1);
    c.vocab_size = s.vocab_size;
    c.output_kind = static_cast<std::int32_t>(s.output);
    c.num_classes = s.num_classes;
    c.tag_count = static_cast<std::int32_t>(s.tag_labels.size());
    c.token_names = token_names.c_str();
    c.tag_name = tag_name.c_str();
    c.tag_labels = tag_labels.c_str();
  }
};

inline tasks::task_spec spec_from_c(const bem_task_spec_v1& c) {
  tasks::task_spec s;
  s.vocab_size = c.vocab_size;
  s.output = static_cast<tasks::output_kind>(c.output_kind);
  s.num_classes = c.num_classes;
  s.token_names = split_lines(c.token_names);
  s.tag_name = c.tag_name ? c.tag_name : "";
  s.tag_labels = split_lines(c.tag_labels);
  return s;
}

/// A class that names the parameter structs it reads
/// (`using parameter_structs = bem::parameter_structs<...>;`).
template <class T>
concept declares_parameters = requires { typename T::parameter_structs; };

/// The describe_parameters entry of T's table: T's parameter documentation
/// as JSON, built on the first call; null when T declares no parameter struct.
template <class T>
constexpr auto describe_parameters_entry() {
  using entry = int (*)(const char**, char*, std::size_t);
  if constexpr (declares_parameters<T>) {
    return static_cast<entry>([](const char** json, char* err, std::size_t size) noexcept {
      return guarded(err, size, [&] {
        static const std::string text = parameter_docs_json(typename T::parameter_structs{});
        *json = text.c_str();
      });
    });
  } else {
    return static_cast<entry>(nullptr);
  }
}

/// Copies a C batch view into a sequence_batch.
inline void batch_from_c(const bem_batch_v1& c, tasks::sequence_batch& b) {
  require_whole(c, "the host's batch");
  b.reset(c.batch_size, c.length);
  const std::size_t n = b.inputs.size(), m = static_cast<std::size_t>(c.batch_size);
  std::copy_n(c.inputs, n, b.inputs.data());
  std::copy_n(c.targets, n, b.targets.data());
  std::copy_n(c.mask, n, b.mask.data());
  std::copy_n(c.lengths, m, b.lengths.data());
  std::copy_n(c.tags, m, b.tags.data());
}

/// Copies a sequence_batch into a C batch view of the same shape.
inline void batch_to_c(const tasks::sequence_batch& b, bem_batch_v1& c) {
  require_whole(c, "the host's batch");
  if (b.batch_size != c.batch_size || b.length != c.length)
    throw std::runtime_error("generated batch has shape " + std::to_string(b.batch_size) + "x" +
                             std::to_string(b.length) + ", the host asked for " + std::to_string(c.batch_size) + "x" +
                             std::to_string(c.length));
  std::copy(b.inputs.begin(), b.inputs.end(), c.inputs);
  std::copy(b.targets.begin(), b.targets.end(), c.targets);
  std::copy(b.mask.begin(), b.mask.end(), c.mask);
  std::copy(b.lengths.begin(), b.lengths.end(), c.lengths);
  std::copy(b.tags.begin(), b.tags.end(), c.tags);
}

template <class Model>
struct model_adapter {
  static_assert(assert_pluggable_model<Model>());

  struct holder {
    parameters params;
    Model model;
    std::string effective;
    tasks::task_spec spec;
    tasks::sequence_batch batch;
    tasks::prediction out;
    std::string machine;  // the last machine_configuration()
    explicit holder(parameters p) : params(std::move(p)), model(params) {
      params.check_all_used();
      effective = parameters_to_json(params.effective());
    }
  };
  static holder& self(void* h) noexcept { return *static_cast<holder*>(h); }

  static void* create(const char* toml, char* err, std::size_t size) noexcept {
    holder* h = nullptr;
    guarded(err, size, [&] { h = new holder(parameters_from_toml(toml ? toml : "", Model::name)); });
    return h;
  }
  static void destroy(void* h) noexcept { delete static_cast<holder*>(h); }
  static const char* effective_parameters(void* h) noexcept { return self(h).effective.c_str(); }
  static int reset(void* h, const bem_task_spec_v1* spec, std::uint64_t seed, char* err, std::size_t size) noexcept {
    return guarded(err, size, [&] {
      require_whole(*spec, "the host's task spec");
      self(h).spec = spec_from_c(*spec);
      self(h).model.reset(self(h).spec, seed);
    });
  }
  static int set_learning(void* h, int enabled, char* err, std::size_t size) noexcept {
    return guarded(err, size, [&] { self(h).model.set_learning(enabled != 0); });
  }
  static int learn(void* h, const bem_batch_v1* b, double* loss, char* err, std::size_t size) noexcept {
    return guarded(err, size, [&] {
      batch_from_c(*b, self(h).batch);
      *loss = static_cast<double>(self(h).model.learn(self(h).batch));
    });
  }
  static int predict(void* h, const bem_batch_v1* b, float* logits, char* err, std::size_t size) noexcept {
    return guarded(err, size, [&] {
      auto& s = self(h);
      batch_from_c(*b, s.batch);
      s.out.reset_for(s.batch, s.spec);
      s.model.predict(s.batch, s.out);
      std::copy(s.out.logits.begin(), s.out.logits.end(), logits);
    });
  }
  static int parameter_count(void* h, std::int64_t* count, char* err, std::size_t size) noexcept {
    return guarded(err, size, [&] { *count = static_cast<std::int64_t>(self(h).model.parameter_count()); });
  }
  static int report(void* h, bem_metric_sink_v1 sink, void* ctx, char* err, std::size_t size) noexcept {
    return guarded(err, size, [&] {
      if constexpr (reporting_model<Model>) {
        self(h).model.report([&](std::string_view metric, double value, std::string_view unit) {
          const std::string m(metric), u(unit);
          sink(ctx, m.c_str(), value, u.c_str());
        });
      }
    });
  }
  static int diagnose(void* h, const bem_batch_v1* b, bem_series_sink_v1 sink, void* ctx, char* err,
                      std::size_t size) noexcept {
    return guarded(err, size, [&] {
      if constexpr (diagnosing_model<Model>) {
        auto& s = self(h);
        batch_from_c(*b, s.batch);
        s.model.diagnose(s.batch, [&](std::string_view metric, std::span<const double> series, std::string_view unit) {
          const std::string m(metric), u(unit);
          sink(ctx, m.c_str(), series.data(), series.size(), u.c_str());
        });
      }
    });
  }

  static int checkpoint(void* h, int action, char* err, std::size_t size) noexcept {
    return guarded(err, size, [&] {
      if constexpr (checkpointing_model<Model>) {
        if (action == BEM_CHECKPOINT_KEEP)
          self(h).model.keep_checkpoint();
        else if (action == BEM_CHECKPOINT_RESTORE)
          self(h).model.restore_checkpoint();
        else
          throw std::invalid_argument("checkpoint: unknown action " + std::to_string(action));
      }
    });
  }

  static int machine_configuration(void* h, const char** json, char* err, std::size_t size) noexcept {
    return guarded(err, size, [&] {
      if constexpr (machine_model<Model>) {
        self(h).machine = self(h).model.machine_configuration();
        *json = self(h).machine.c_str();
      }
    });
  }

  static constexpr bem_model_type_v1 type = {
      sizeof(bem_model_type_v1), Model::name, Model::version, Model::description, &create, &destroy,
      &effective_parameters, &reset, &set_learning, &learn, &predict, &parameter_count,
      reporting_model<Model> ? &report : nullptr, diagnosing_model<Model> ? &diagnose : nullptr,
      checkpointing_model<Model> ? &checkpoint : nullptr, machine_model<Model> ? &machine_configuration : nullptr,
      describe_parameters_entry<Model>()};
};

/// A task that declares `using reference_model = ...;`.
template <class T>
concept declares_reference = requires { typename T::reference_model; };

/// True; when `Task` declares a reference model, asserts that it is a
/// pluggable model, so a solver missing a requirement stops the build with
/// the message naming it instead of silently leaving the task unsolved.
template <class Task>
consteval bool assert_reference_model() {
  if constexpr (declares_reference<Task>) return assert_pluggable_model<typename Task::reference_model>();
  else return true;
}

template <class Task>
struct task_adapter {
  static_assert(tasks::assert_pluggable_task<Task>());
  static_assert(assert_reference_model<Task>());

  struct holder {
    parameters params;
    Task task;
    std::string effective;
    c_spec_holder spec;
    std::vector<tasks::split_info> splits;
    std::vector<std::string> conditions;
    tasks::sequence_batch batch;
    explicit holder(parameters p) : params(std::move(p)), task(params), spec(task.spec()), splits(task.splits()) {
      params.check_all_used();
      effective = parameters_to_json(params.effective());
      for (const auto& s : splits) conditions.push_back(condition_json(s.condition));
    }
  };
  static holder& self(void* h) noexcept { return *static_cast<holder*>(h); }

  static void* create(const char* toml, char* err, std::size_t size) noexcept {
    holder* h = nullptr;
    guarded(err, size, [&] { h = new holder(parameters_from_toml(toml ? toml : "", Task::name)); });
    return h;
  }
  static void destroy(void* h) noexcept { delete static_cast<holder*>(h); }
  static const char* effective_parameters(void* h) noexcept { return self(h).effective.c_str(); }
  static void spec(void* h, bem_task_spec_v1* out) noexcept { write_within(out, self(h).spec.c); }
  static std::int32_t split_count(void* h) noexcept { return static_cast<std::int32_t>(self(h).splits.size()); }
  static void split(void* h, std::int32_t i, bem_split_v1* out) noexcept {
    const auto& s = self(h).splits[static_cast<std::size_t>(i)];
    write_within(out, bem_split_v1{sizeof(bem_split_v1), s.name.c_str(), static_cast<std::int32_t>(s.role), s.length,
                                   self(h).conditions[static_cast<std::size_t>(i)].c_str()});
  }
  static int generate(void* h, std::int32_t split, std::uint64_t seed, std::int64_t first, bem_batch_v1* out,
                      char* err, std::size_t size) noexcept {
    return guarded(err, size, [&] {
      auto& s = self(h);
      s.task.generate(static_cast<std::size_t>(split), seed, first, out->batch_size, s.batch);
      batch_to_c(s.batch, *out);
    });
  }

  static constexpr const bem_model_type_v1* reference() noexcept {
    if constexpr (solvable_task<Task>) return &model_adapter<typename Task::reference_model>::type;
    else return nullptr;
  }

  static constexpr bem_task_type_v1 type = {
      sizeof(bem_task_type_v1), Task::name, Task::version, Task::description, &create, &destroy,
      &effective_parameters, &spec, &split_count, &split, &generate, reference(), describe_parameters_entry<Task>()};
};

template <class Benchmark>
struct benchmark_adapter {
  static_assert(assert_pluggable_benchmark<Benchmark>());

  struct holder {
    parameters params;
    Benchmark bench;
    std::string effective;
    explicit holder(parameters p) : params(std::move(p)), bench(params) {
      params.check_all_used();
      effective = parameters_to_json(params.effective());
    }
  };
  /// Forwards C++ records to the host's C sink.
  struct c_sink final : benchmark_sink {
    bem_record_sink_v1 sink;
    void* context;
    c_sink(bem_record_sink_v1 s, void* c) : sink(s), context(c) {}
    void emit(const benchmark_record& r) override {
      const std::string condition = condition_json(r.condition);
      const auto& v = r.value;
      bem_record_v1 c{};
      c.struct_size = sizeof(bem_record_v1);
      c.split = r.split.c_str();
      c.condition_json = condition.c_str();
      c.metric = v.metric.c_str();
      c.value = v.value;
      c.unit = v.unit.c_str();
      c.better = v.direction == metrics::better::higher  ? BEM_BETTER_HIGHER
                 : v.direction == metrics::better::lower ? BEM_BETTER_LOWER
                                                         : BEM_BETTER_NONE;
      c.timing = r.timing ? 1 : 0;
      c.has_ci = v.ci ? 1 : 0;
      c.ci_low = v.ci ? v.ci->low : 0.0;
      c.ci_high = v.ci ? v.ci->high : 0.0;
      c.ci_method = v.ci ? v.ci->method.c_str() : "";
      c.n = v.n;
      c.n_unit = v.n_unit.c_str();
      std::vector<const char*> breakdown;
      for (const auto& [key, value] : v.breakdown) {
        breakdown.push_back(key.c_str());
        breakdown.push_back(value.c_str());
      }
      c.breakdown_size = static_cast<std::uint32_t>(v.breakdown.size());
      c.breakdown = breakdown.data();
      sink(context, &c);
    }
  };
  static holder& self(void* h) noexcept { return *static_cast<holder*>(h); }

  static void* create(const char* toml, char* err, std::size_t size) noexcept {
    holder* h = nullptr;
    guarded(err, size, [&] { h = new holder(parameters_from_toml(toml ? toml : "", Benchmark::name)); });
    return h;
  }
  static void destroy(void* h) noexcept { delete static_cast<holder*>(h); }
  static const char* effective_parameters(void* h) noexcept { return self(h).effective.c_str(); }
  static int run(void* h, std::uint64_t seed, bem_record_sink_v1 sink, void* ctx, char* err, std::size_t size) noexcept {
    return guarded(err, size, [&] {
      c_sink s(sink, ctx);
      if constexpr (detail::has_run<Benchmark>) {
        self(h).bench.run(seed, s);
      } else {
        benchmark_context c;
        c.seed = seed;
        self(h).bench.run(c, s);
      }
    });
  }
  static int run_with_context(void* h, const bem_run_context_v1* c, bem_record_sink_v1 sink, void* ctx, char* err,
                              std::size_t size) noexcept {
    return guarded(err, size, [&] {
      benchmark_context context;
      context.seed = c->seed;
      context.model = c->model ? c->model : "none";
      context.model_parameters_toml = c->model_parameters_toml ? c->model_parameters_toml : "";
      context.artifact_dir = c->artifact_dir ? c->artifact_dir : "";
      c_sink s(sink, ctx);
      self(h).bench.run(context, s);
    });
  }
  static constexpr auto context_entry() {
    if constexpr (detail::has_context_run<Benchmark>) {
      return &run_with_context;
    } else {
      return static_cast<decltype(&run_with_context)>(nullptr);
    }
  }

  static constexpr bem_benchmark_type_v1 type = {sizeof(bem_benchmark_type_v1), Benchmark::name, Benchmark::version,
                                                 Benchmark::description, &create, &destroy, &effective_parameters,
                                                 &run, context_entry(), describe_parameters_entry<Benchmark>()};
};

template <class... Tasks>
struct task_list {
  static constexpr std::size_t size = sizeof...(Tasks);
  static constexpr const bem_task_type_v1* table[size + 1] = {&task_adapter<Tasks>::type..., nullptr};
};
template <class... Models>
struct model_list {
  static constexpr std::size_t size = sizeof...(Models);
  static constexpr const bem_model_type_v1* table[size + 1] = {&model_adapter<Models>::type..., nullptr};
};

template <class... Benchmarks>
struct benchmark_list {
  static constexpr std::size_t size = sizeof...(Benchmarks);
  static constexpr const bem_benchmark_type_v1* table[size + 1] = {&benchmark_adapter<Benchmarks>::type..., nullptr};
};

/// The list of kind `List` among `Lists`, or an empty one.
template <template <class...> class List, class... Lists>
struct pick_list {
  using type = List<>;
};
template <template <class...> class List, class... Items, class... Rest>
struct pick_list<List, List<Items...>, Rest...> {
  using type = List<Items...>;
};
template <template <class...> class List, class First, class... Rest>
struct pick_list<List, First, Rest...> : pick_list<List, Rest...> {};

template <class... Lists>
constexpr bem_plugin_v1 make_plugin_table(const char* name, const char* version) {
  using tasks_t = typename pick_list<task_list, Lists...>::type;
  using models_t = typename pick_list<model_list, Lists...>::type;
  using benchmarks_t = typename pick_list<benchmark_list, Lists...>::type;
  return {BEM_PLUGIN_ABI_VERSION,
          sizeof(bem_plugin_v1),
          name,
          version,
          BEM_ABI_TAG,
          static_cast<std::uint32_t>(tasks_t::size),
          tasks_t::table,
          static_cast<std::uint32_t>(models_t::size),
          models_t::table,
          static_cast<std::uint32_t>(benchmarks_t::size),
          benchmarks_t::table};
}

}  // namespace detail
BEM_NAMESPACE_END

/// The task classes a plugin exports.
#define BEM_TASKS(...) ::bem::detail::task_list<__VA_ARGS__>
/// The model classes a plugin exports.
#define BEM_MODELS(...) ::bem::detail::model_list<__VA_ARGS__>
/// The microbenchmark classes a plugin exports.
#define BEM_BENCHMARKS(...) ::bem::detail::benchmark_list<__VA_ARGS__>

/// Defines the plugin's entry point. NAME and VERSION are string literals;
/// then BEM_TASKS(...), BEM_MODELS(...), BEM_BENCHMARKS(...) as needed.
#define BEM_PLUGIN(NAME, VERSION, ...)                                                                    \
  extern "C" BEM_PLUGIN_EXPORT const bem_plugin_v1* BEM_PLUGIN_ENTRY(void) {                            \
    static constexpr bem_plugin_v1 table = ::bem::detail::make_plugin_table<__VA_ARGS__>(NAME, VERSION);  \
    return &table;                                                                                        \
  }
