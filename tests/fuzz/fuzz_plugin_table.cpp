// Plugin tables as the host reads them (include/bem/plugin/host.hpp and
// adapter.hpp's spec_from_c): the fuzzed plugin (fuzzed_plugin.cpp) builds
// its table and every answer from the bytes; the harness loads it the way
// bem-bench does and uses each task, model and benchmark it registered.
// A table the host cannot use is a load failure it records; a type that
// misbehaves when used is a plugin_error.
#include "fuzz_common.hpp"

#include <bem/plugin/adapter.hpp>
#include <bem/plugin/host.hpp>

#include <dlfcn.h>

#ifndef FUZZED_PLUGIN
#error "define FUZZED_PLUGIN as the path of the fuzzed plugin module"
#endif

namespace {

using set_input_fn = void (*)(const std::uint8_t*, std::size_t);

// The harness keeps the module loaded, so the registry's dlopen and dlclose
// of each input only count references and the module keeps its state.
set_input_fn set_input() {
  static const set_input_fn f = [] {
    void* h = dlopen(FUZZED_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      std::fprintf(stderr, "%s\n", dlerror());
      std::abort();
    }
    return reinterpret_cast<set_input_fn>(dlsym(h, "fuzzed_plugin_set_input"));
  }();
  return f;
}

template <class F>
void expecting_plugin_error(F&& f) {
  try {
    f();
  } catch (const bem::plugin_error&) {
  }
}

void use_model(const bem_model_type_v1* type, const bem_task_spec_v1& spec) {
  expecting_plugin_error([&] {
    (void)bem::describe_parameters(type, "model", "fuzzed");
    bem::model_instance m(type, "", "fuzzed");
    (void)m.effective_parameters();
    m.reset(spec, 1);
    (void)m.machine_configuration();
    m.set_learning(true);
    bem::tasks::sequence_batch b;
    b.reset(2, 3);
    (void)m.learn(b);
    bem::tasks::prediction p;
    p.reset(2, 3, 1);
    m.predict(b, p);
    (void)m.parameter_count();
    m.report([](std::string_view, double, std::string_view) {});
    m.diagnose(b, [](std::string_view, std::span<const double> v, std::string_view) {
      for (double x : v) (void)x;
    });
    if (m.checkpoints()) {
      m.keep_checkpoint();
      m.restore_checkpoint();
    }
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  set_input()(data, size);
  bem::plugin_registry reg;
  reg.load_file(FUZZED_PLUGIN);
  for (const auto& f : reg.failures()) (void)f.describe();
  (void)reg.not_found_message("task", "absent");
  for (const auto& t : reg.tasks()) {
    bem_task_spec_v1 spec{};
    expecting_plugin_error([&] {
      (void)bem::describe_parameters(t.type, "task", "fuzzed");
      bem::task_instance task(t.type, "", "fuzzed");
      (void)task.effective_parameters();
      spec = task.c_spec();
      (void)bem::detail::spec_from_c(spec);
      for (std::int32_t i = 0; i < task.split_count(); ++i) {
        (void)task.split(i);
        bem::tasks::sequence_batch b;
        task.generate(i, 1, 0, 2, b);
      }
    });
    if (t.type->reference_model) use_model(t.type->reference_model, spec);
  }
  for (const auto& m : reg.models()) use_model(m.type, bem_task_spec_v1{sizeof(bem_task_spec_v1)});
  for (const auto& b : reg.benchmarks()) {
    expecting_plugin_error([&] {
      (void)bem::describe_parameters(b.type, "benchmark", "fuzzed");
      bem::benchmark_instance bench(b.type, "", "fuzzed");
      (void)bench.effective_parameters();
      bem::benchmark_context c;
      if (bench.takes_model()) c.model = "fuzzed";
      bench.run(c, [](const bem::benchmark_record&, const std::string&) {});
    });
  }
  return 0;
}
