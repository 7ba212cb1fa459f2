// A plugin whose table, and every answer of its tasks, models and
// benchmarks, is drawn from bytes the harness (fuzz_plugin_table.cpp) hands
// it before each load. What it varies: the ABI version, every struct_size
// (the table's, the types', the spec's, the splits', the records'), which
// entries and strings are NULL, the counts, the strings themselves (names,
// JSON that is or is not JSON), the spec's numbers, split roles and
// lengths, return codes and their messages. What it keeps honest, as no
// host could check it: a non-NULL pointer points at memory of the size the
// ABI says, counts do not exceed the arrays given, error messages are
// NUL-terminated within err_size, and lengths stay small enough to
// allocate (a length is what the host allocates for).
#include <bem/plugin/abi.h>

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace {

struct fuzz_state {
  std::vector<std::uint8_t> bytes;
  std::unique_ptr<FuzzedDataProvider> in;
  std::deque<std::string> strings;  // every string handed out lives until the next input
  std::deque<std::vector<const char*>> string_arrays;
  bem_plugin_v1 plugin{};
  std::deque<bem_task_type_v1> tasks;
  std::deque<bem_model_type_v1> models;
  std::deque<bem_benchmark_type_v1> benchmarks;
  std::vector<const bem_task_type_v1*> task_table;
  std::vector<const bem_model_type_v1*> model_table;
  std::vector<const bem_benchmark_type_v1*> benchmark_table;
  int handle = 0;  // what create returns the address of
};

fuzz_state& state() {
  static fuzz_state s;
  return s;
}
FuzzedDataProvider& in() { return *state().in; }

const char* text() {
  if (in().ConsumeIntegralInRange(0, 7) == 0) return nullptr;
  return state().strings.emplace_back(in().ConsumeRandomLengthString(64)).c_str();
}
const char* present_text() { return state().strings.emplace_back(in().ConsumeRandomLengthString(64)).c_str(); }

std::uint32_t size_of(std::uint32_t full) {
  switch (in().ConsumeIntegralInRange(0, 3)) {
    case 0: return full;
    case 1: return in().ConsumeIntegralInRange<std::uint32_t>(0, full);
    case 2: return in().ConsumeIntegral<std::uint32_t>();
    default: return full;
  }
}

template <class F>
F maybe(F f) {
  return in().ConsumeIntegralInRange(0, 9) == 0 ? nullptr : f;
}

int result(char* err, std::size_t err_size) {
  if (in().ConsumeIntegralInRange(0, 5) != 0) return BEM_OK;
  if (err_size > 0 && in().ConsumeBool()) std::snprintf(err, err_size, "%s", present_text());
  return BEM_ERROR;
}

void* create(const char*, char* err, std::size_t err_size) {
  if (result(err, err_size) != BEM_OK) return nullptr;
  return &state().handle;
}
void destroy(void*) {}
const char* effective_parameters(void*) { return text(); }
int describe_parameters(const char** json, char* err, std::size_t err_size) {
  *json = text();
  return result(err, err_size);
}

void spec(void*, bem_task_spec_v1* out) {
  bem_task_spec_v1 s{};
  s.struct_size = size_of(sizeof s);
  s.vocab_size = in().ConsumeIntegral<std::int32_t>();
  s.output_kind = in().ConsumeIntegral<std::int32_t>();
  s.num_classes = in().ConsumeIntegral<std::int32_t>();
  s.tag_count = in().ConsumeIntegral<std::int32_t>();
  s.token_names = text();
  s.tag_name = text();
  s.tag_labels = text();
  std::memcpy(out, &s, std::min<std::size_t>(out->struct_size, sizeof s));
}
std::int32_t split_count(void*) { return in().ConsumeIntegralInRange<std::int32_t>(-2, 6); }
void split(void*, std::int32_t, bem_split_v1* out) {
  bem_split_v1 s{};
  s.struct_size = size_of(sizeof s);
  s.name = text();
  s.role = in().ConsumeIntegralInRange<std::int32_t>(-1, 3);
  s.length = in().ConsumeIntegralInRange<std::int32_t>(-2, 64);
  s.condition_json = text();
  std::memcpy(out, &s, std::min<std::size_t>(out->struct_size, sizeof s));
}
int generate(void*, std::int32_t, std::uint64_t, std::int64_t, bem_batch_v1* out, char* err, std::size_t err_size) {
  const auto n = static_cast<std::size_t>(out->batch_size) * static_cast<std::size_t>(out->length);
  for (std::size_t i = 0; i < n; ++i) {
    out->inputs[i] = in().ConsumeIntegral<std::int32_t>();
    out->targets[i] = in().ConsumeIntegral<std::int32_t>();
    out->mask[i] = in().ConsumeIntegral<std::uint8_t>();
  }
  for (std::int32_t b = 0; b < out->batch_size; ++b) {
    out->lengths[b] = in().ConsumeIntegral<std::int32_t>();
    out->tags[b] = in().ConsumeIntegral<std::int32_t>();
  }
  return result(err, err_size);
}

int reset(void*, const bem_task_spec_v1*, std::uint64_t, char* err, std::size_t err_size) { return result(err, err_size); }
int set_learning(void*, int, char* err, std::size_t err_size) { return result(err, err_size); }
int learn(void*, const bem_batch_v1*, double* loss, char* err, std::size_t err_size) {
  *loss = in().ConsumeFloatingPoint<double>();
  return result(err, err_size);
}
int predict(void*, const bem_batch_v1* b, float* logits, char* err, std::size_t err_size) {
  // The host sized logits for its own width; one logit per position is
  // within it for every output kind.
  const auto n = static_cast<std::size_t>(b->batch_size) * static_cast<std::size_t>(b->length);
  for (std::size_t i = 0; i < n; ++i) logits[i] = in().ConsumeFloatingPoint<float>();
  return result(err, err_size);
}
int parameter_count(void*, std::int64_t* count, char* err, std::size_t err_size) {
  *count = in().ConsumeIntegral<std::int64_t>();
  return result(err, err_size);
}
int report(void*, bem_metric_sink_v1 sink, void* context, char* err, std::size_t err_size) {
  for (int i = in().ConsumeIntegralInRange(0, 3); i > 0; --i) {
    const char* metric = text();
    const double value = in().ConsumeFloatingPoint<double>();
    sink(context, metric, value, text());
  }
  return result(err, err_size);
}
int diagnose(void*, const bem_batch_v1*, bem_series_sink_v1 sink, void* context, char* err, std::size_t err_size) {
  for (int i = in().ConsumeIntegralInRange(0, 3); i > 0; --i) {
    std::vector<double> values(in().ConsumeIntegralInRange(0, 8));
    for (auto& v : values) v = in().ConsumeFloatingPoint<double>();
    const char* metric = text();
    sink(context, metric, values.empty() && in().ConsumeBool() ? nullptr : values.data(), values.size(), text());
  }
  return result(err, err_size);
}
int checkpoint(void*, int, char* err, std::size_t err_size) { return result(err, err_size); }
int machine_configuration(void*, const char** json, char* err, std::size_t err_size) {
  *json = text();
  return result(err, err_size);
}

void send_records(bem_record_sink_v1 sink, void* context) {
  for (int i = in().ConsumeIntegralInRange(0, 3); i > 0; --i) {
    bem_record_v1 r{};
    r.struct_size = size_of(sizeof r);
    r.split = text();
    r.condition_json = text();
    r.metric = text();
    r.value = in().ConsumeFloatingPoint<double>();
    r.unit = text();
    r.better = in().ConsumeIntegral<std::int32_t>();
    r.timing = in().ConsumeIntegral<std::int32_t>();
    r.has_ci = in().ConsumeIntegral<std::int32_t>();
    r.ci_low = in().ConsumeFloatingPoint<double>();
    r.ci_high = in().ConsumeFloatingPoint<double>();
    r.ci_method = text();
    r.n = in().ConsumeIntegral<std::int64_t>();
    r.n_unit = text();
    auto& pairs = state().string_arrays.emplace_back();
    r.breakdown_size = in().ConsumeIntegralInRange<std::uint32_t>(0, 3);
    for (std::uint32_t k = 0; k < 2 * r.breakdown_size; ++k) pairs.push_back(text());
    r.breakdown = r.breakdown_size == 0 && in().ConsumeBool() ? nullptr : pairs.data();
    sink(context, &r);
  }
}
int run(void*, std::uint64_t, bem_record_sink_v1 sink, void* context, char* err, std::size_t err_size) {
  send_records(sink, context);
  return result(err, err_size);
}
int run_with_context(void*, const bem_run_context_v1*, bem_record_sink_v1 sink, void* context, char* err,
                     std::size_t err_size) {
  send_records(sink, context);
  return result(err, err_size);
}

const bem_model_type_v1* make_model() {
  if (in().ConsumeIntegralInRange(0, 9) == 0) return nullptr;
  auto& m = state().models.emplace_back();
  m.struct_size = size_of(sizeof m);
  m.name = text();
  m.version = text();
  m.description = text();
  m.create = maybe(&create);
  m.destroy = maybe(&destroy);
  m.effective_parameters = maybe(&effective_parameters);
  m.reset = maybe(&reset);
  m.set_learning = maybe(&set_learning);
  m.learn = maybe(&learn);
  m.predict = maybe(&predict);
  m.parameter_count = maybe(&parameter_count);
  m.report = maybe(&report);
  m.diagnose = maybe(&diagnose);
  m.checkpoint = maybe(&checkpoint);
  m.machine_configuration = maybe(&machine_configuration);
  m.describe_parameters = maybe(&describe_parameters);
  return &m;
}

const bem_task_type_v1* make_task() {
  if (in().ConsumeIntegralInRange(0, 9) == 0) return nullptr;
  auto& t = state().tasks.emplace_back();
  t.struct_size = size_of(sizeof t);
  t.name = text();
  t.version = text();
  t.description = text();
  t.create = maybe(&create);
  t.destroy = maybe(&destroy);
  t.effective_parameters = maybe(&effective_parameters);
  t.spec = maybe(&spec);
  t.split_count = maybe(&split_count);
  t.split = maybe(&split);
  t.generate = maybe(&generate);
  t.reference_model = in().ConsumeBool() ? make_model() : nullptr;
  t.describe_parameters = maybe(&describe_parameters);
  return &t;
}

const bem_benchmark_type_v1* make_benchmark() {
  if (in().ConsumeIntegralInRange(0, 9) == 0) return nullptr;
  auto& b = state().benchmarks.emplace_back();
  b.struct_size = size_of(sizeof b);
  b.name = text();
  b.version = text();
  b.description = text();
  b.create = maybe(&create);
  b.destroy = maybe(&destroy);
  b.effective_parameters = maybe(&effective_parameters);
  b.run = maybe(&run);
  b.run_with_context = maybe(&run_with_context);
  b.describe_parameters = maybe(&describe_parameters);
  return &b;
}

}  // namespace

extern "C" {

/// The harness's way in: the bytes the next entry call builds its table from.
BEM_PLUGIN_EXPORT void fuzzed_plugin_set_input(const std::uint8_t* data, std::size_t size) {
  auto& s = state();
  s.bytes.assign(data, data + size);
  s.in = std::make_unique<FuzzedDataProvider>(s.bytes.data(), s.bytes.size());
  s.strings.clear();
  s.string_arrays.clear();
  s.tasks.clear();
  s.models.clear();
  s.benchmarks.clear();
}

BEM_PLUGIN_EXPORT const bem_plugin_v1* BEM_PLUGIN_ENTRY(void) {
  auto& s = state();
  if (!s.in || in().ConsumeIntegralInRange(0, 15) == 0) return nullptr;
  s.plugin = {};
  s.plugin.abi_version = in().ConsumeIntegralInRange(0, 15) == 0 ? in().ConsumeIntegral<std::uint32_t>()
                                                                  : BEM_PLUGIN_ABI_VERSION;
  s.plugin.struct_size = size_of(sizeof s.plugin);
  s.plugin.name = text();
  s.plugin.version = text();
  s.plugin.library_abi_tag = text();
  s.task_table.clear();
  s.model_table.clear();
  s.benchmark_table.clear();
  for (int i = in().ConsumeIntegralInRange(0, 3); i > 0; --i) s.task_table.push_back(make_task());
  for (int i = in().ConsumeIntegralInRange(0, 3); i > 0; --i) s.model_table.push_back(make_model());
  for (int i = in().ConsumeIntegralInRange(0, 3); i > 0; --i) s.benchmark_table.push_back(make_benchmark());
  s.plugin.task_count = static_cast<std::uint32_t>(s.task_table.size());
  s.plugin.model_count = static_cast<std::uint32_t>(s.model_table.size());
  s.plugin.benchmark_count = static_cast<std::uint32_t>(s.benchmark_table.size());
  s.plugin.tasks = in().ConsumeIntegralInRange(0, 9) == 0 ? nullptr : s.task_table.data();
  s.plugin.models = in().ConsumeIntegralInRange(0, 9) == 0 ? nullptr : s.model_table.data();
  s.plugin.benchmarks = in().ConsumeIntegralInRange(0, 9) == 0 ? nullptr : s.benchmark_table.data();
  return &s.plugin;
}

}  // extern "C"
