// Plugin tables written by hand, one variant per module (BEM_TABLE_VARIANT):
//   1  a task whose reference model is all zeros: "invalid table" (the host
//      would otherwise call through its NULL pointers);
//   2  a task whose version is NULL: "invalid table" (listing it would
//      stream a NULL string);
//   3  a table of the size before the benchmark fields were appended: it
//      loads with its task, and the host reads nothing past struct_size (the
//      benchmark fields hold an entry the host would refuse);
//   4  a table whose struct_size ends inside its own header: "ABI mismatch";
//   5  a complete benchmark "hand_bench" and no task;
//   6  a task named "hand_bench": loaded after 5, it is shadowed (a task and
//      a benchmark share one name space).
// The task and benchmark tables are of the size before describe_parameters
// was appended, as a plugin built then has them: they load, undocumented.
// The functions are never called: the host checks the tables only.
#include <bem/plugin/abi.h>

#include <cstddef>

namespace {

void* create(const char*, char*, size_t) { return nullptr; }
void destroy(void*) {}
const char* effective_parameters(void*) { return "{}"; }
void spec(void*, bem_task_spec_v1*) {}
int32_t split_count(void*) { return 0; }
void split(void*, int32_t, bem_split_v1*) {}
int generate(void*, int32_t, uint64_t, int64_t, bem_batch_v1*, char*, size_t) { return BEM_ERROR; }
int run(void*, uint64_t, bem_record_sink_v1, void*, char*, size_t) { return BEM_ERROR; }

const bem_model_type_v1 all_zero_model{};

constexpr auto task_size = static_cast<uint32_t>(offsetof(bem_task_type_v1, describe_parameters));
constexpr auto bench_size = static_cast<uint32_t>(offsetof(bem_benchmark_type_v1, describe_parameters));

const bem_task_type_v1 task = {task_size, BEM_TABLE_VARIANT == 6 ? "hand_bench" : "hand_task",
                               BEM_TABLE_VARIANT == 2 ? nullptr : "1", "a task table written by hand",
                               create, destroy, effective_parameters, spec, split_count, split, generate,
                               BEM_TABLE_VARIANT == 1 ? &all_zero_model : nullptr};
const bem_task_type_v1* const tasks[] = {&task};
const bem_benchmark_type_v1* const refused_benchmarks[] = {nullptr};
const bem_benchmark_type_v1 bench = {bench_size, "hand_bench", "1", "a benchmark table written by hand",
                                     create, destroy, effective_parameters, run, nullptr};
const bem_benchmark_type_v1* const benchmarks[] = {&bench};

}  // namespace

extern "C" BEM_PLUGIN_EXPORT const bem_plugin_v1* BEM_PLUGIN_ENTRY(void) {
  constexpr int v = BEM_TABLE_VARIANT;
  static const bem_plugin_v1 table = {
      BEM_PLUGIN_ABI_VERSION,
      v == 3   ? static_cast<uint32_t>(offsetof(bem_plugin_v1, benchmark_count))
      : v == 4 ? static_cast<uint32_t>(offsetof(bem_plugin_v1, name))
               : static_cast<uint32_t>(sizeof(bem_plugin_v1)),
      "hand_tables", "1", "",
      v == 5 ? 0u : 1u, tasks, 0u, nullptr,
      v == 3 || v == 5 ? 1u : 0u, v == 5 ? benchmarks : refused_benchmarks};
  return &table;
}
