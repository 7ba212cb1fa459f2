/* bem plugin ABI, version 2 — plain C.
 *
 * A plugin is a shared module exporting one function,
 *
 *     const bem_plugin_v1* bem_plugin_entry_v2(void);   (BEM_PLUGIN_ENTRY)
 *
 * that returns a table living as long as the module. The table starts with
 * the ABI version and its own size, so a host can refuse a plugin built
 * against another version before touching anything else. Nothing C++ crosses
 * this boundary: no exceptions, no STL types, no RTTI. Every function is
 * noexcept; a function that can fail returns BEM_OK or BEM_ERROR and writes a
 * NUL-terminated message into the caller's buffer `err` of `err_size` bytes.
 *
 * Ownership: handles (`void*`) are created and destroyed by the plugin.
 * Strings returned by a handle stay valid until the handle is destroyed (or,
 * for the table's own strings, as long as the module is loaded). Batch and
 * logit buffers belong to the host; the plugin only reads or fills them.
 *
 * Growth rule: a later minor revision may append fields to a struct and must
 * raise `struct_size`; a host reads only fields that lie within the size the
 * plugin declares. Any incompatible change bumps BEM_PLUGIN_ABI_VERSION and
 * the entry point's name.
 *
 * The structs passed by pointer carry `struct_size` too, as their first
 * field, so they grow by the same rule. Whoever fills one sets it: the host
 * for a batch and for the spec it hands a model; for the `spec` and `split`
 * a task writes, the host zeroes the struct and sets struct_size to its own
 * size, and the task writes only the fields that fit in it and sets
 * struct_size to the size it wrote. The reader reads only within it.
 *
 * History. ABI 2: bem_task_spec_v1, bem_split_v1 and bem_batch_v1 gained
 * struct_size; a model's set_learning, parameter_count and report can fail
 * like every other call, with BEM_ERROR and a message (in ABI 1 their errors
 * were lost, and a failed parameter_count read as -1 parameters). A module
 * built for ABI 1 exports bem_plugin_entry_v1 and is refused with a request
 * to rebuild it. The type names keep their `_v1`: in C a type name never
 * reaches the binary, so renaming them would protect nothing that the entry
 * point's name and abi_version do not; a plugin written for ABI 1 stops at
 * compile time where a signature changed, and one built with BEM_PLUGIN
 * needs no edit at all. Since: describe_parameters appended to the task,
 * model and benchmark tables (a table without it loads; its parameters are
 * undocumented).
 */
#ifndef BEM_PLUGIN_ABI_H
#define BEM_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BEM_PLUGIN_ABI_VERSION 2u
/* The entry point, and its name for dlsym. */
#define BEM_PLUGIN_ENTRY bem_plugin_entry_v2
#define BEM_PLUGIN_ENTRY_NAME "bem_plugin_entry_v2"

#if defined(_WIN32)
#define BEM_PLUGIN_EXPORT __declspec(dllexport)
#else
#define BEM_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

enum { BEM_OK = 0, BEM_ERROR = 1 };

/* Output kinds, as bem::tasks::output_kind. */
enum {
  BEM_OUTPUT_BINARY_PER_POSITION = 0,
  BEM_OUTPUT_BINARY_FINAL = 1,
  BEM_OUTPUT_CLASS_FINAL = 2
};

/* Split roles, as bem::tasks::split_role. */
enum { BEM_SPLIT_TRAIN = 0, BEM_SPLIT_VALIDATION = 1, BEM_SPLIT_TEST = 2 };

/* A task's declaration of its data. Strings are owned by the task handle. */
typedef struct bem_task_spec_v1 {
  uint32_t struct_size;
  int32_t vocab_size;
  int32_t output_kind;
  int32_t num_classes;
  int32_t tag_count;          /* number of tag labels, 0 when no tag */
  const char* token_names;    /* names separated by '\n' */
  const char* tag_name;       /* "" when no tag */
  const char* tag_labels;     /* labels separated by '\n' */
} bem_task_spec_v1;

/* One split: the training distribution or a test condition. */
typedef struct bem_split_v1 {
  uint32_t struct_size;
  const char* name;
  int32_t role;
  int32_t length;
  const char* condition_json; /* a JSON object, e.g. {"length":128} */
} bem_split_v1;

/* A batch in host memory: arrays of batch_size * length (inputs, targets,
 * mask) and batch_size (lengths, tags) elements, row-major. */
typedef struct bem_batch_v1 {
  uint32_t struct_size;
  int32_t batch_size;
  int32_t length;
  int32_t* inputs;
  int32_t* targets;
  uint8_t* mask;
  int32_t* lengths;
  int32_t* tags;
} bem_batch_v1;

/* Receives one extra figure from a model. */
typedef void (*bem_metric_sink_v1)(void* context, const char* metric, double value, const char* unit);

/* Receives one diagnostic series from a model: values[t - 1] for positions
 * t = 1..count (NaN where undefined). */
typedef void (*bem_series_sink_v1)(void* context, const char* metric, const double* values, size_t count,
                                   const char* unit);

typedef struct bem_model_type_v1 bem_model_type_v1;

typedef struct bem_task_type_v1 {
  uint32_t struct_size;
  const char* name;
  const char* version;
  const char* description;
  /* Creates a task from TOML text holding its parameters (may be empty). */
  void* (*create)(const char* parameters_toml, char* err, size_t err_size);
  void (*destroy)(void* task);
  /* Parameters as the task resolved them, defaults included: a JSON object. */
  const char* (*effective_parameters)(void* task);
  void (*spec)(void* task, bem_task_spec_v1* out);
  int32_t (*split_count)(void* task);
  void (*split)(void* task, int32_t index, bem_split_v1* out);
  /* Fills `out` (already sized by the host: out->batch_size = count,
   * out->length = the split's length) with sequences first..first+count-1. */
  int (*generate)(void* task, int32_t split, uint64_t seed, int64_t first, bem_batch_v1* out, char* err,
                  size_t err_size);
  /* The task's exact reference solver, or NULL. */
  const bem_model_type_v1* reference_model;
  /* Appended (read only within struct_size): NULL, or the documentation of
   * the parameters `create` accepts: *json is set to a JSON array of objects
   * {"name", "type", "default", "derived", "accepts", "doc"} that lives as
   * long as the module (bem-bench list --parameters prints it). */
  int (*describe_parameters)(const char** json, char* err, size_t err_size);
} bem_task_type_v1;

struct bem_model_type_v1 {
  uint32_t struct_size;
  const char* name;
  const char* version;
  const char* description;
  void* (*create)(const char* parameters_toml, char* err, size_t err_size);
  void (*destroy)(void* model);
  const char* (*effective_parameters)(void* model);
  /* Forgets everything learned and initialises for a task. */
  int (*reset)(void* model, const bem_task_spec_v1* spec, uint64_t seed, char* err, size_t err_size);
  int (*set_learning)(void* model, int enabled, char* err, size_t err_size);
  int (*learn)(void* model, const bem_batch_v1* batch, double* loss, char* err, size_t err_size);
  /* Writes batch_size * length * width logits, width = 1 for binary outputs
   * and num_classes for class outputs. */
  int (*predict)(void* model, const bem_batch_v1* batch, float* logits, char* err, size_t err_size);
  int (*parameter_count)(void* model, int64_t* count, char* err, size_t err_size);
  /* Reports extra figures; may be NULL. A figure whose unit is "s", "ms",
   * "us", "ns", "cycles" or "TSC ticks" measures time and is recorded as such
   * (it varies between runs). */
  int (*report)(void* model, bem_metric_sink_v1 sink, void* context, char* err, size_t err_size);
  /* Appended (read only within struct_size): NULL, or diagnostics of the
   * trained model on a held-out batch (targets included), sent to `sink` as
   * series by position: gradient flow, probes of the hidden state. Must not
   * change the model. */
  int (*diagnose)(void* model, const bem_batch_v1* batch, bem_series_sink_v1 sink, void* context, char* err,
                  size_t err_size);
  /* Appended (read only within struct_size): NULL, or the model's
   * checkpoint of what it has learned: BEM_CHECKPOINT_KEEP remembers the
   * current state (replacing an earlier one), BEM_CHECKPOINT_RESTORE returns
   * to the remembered one. The driver keeps the best validation epoch and
   * restores it before testing. */
  int (*checkpoint)(void* model, int action, char* err, size_t err_size);
  /* Appended (read only within struct_size): NULL, or the structural
   * configuration (BEM spec §6.1) of the bem::machine the model runs on:
   * sets *json to a JSON object valid until the next call on the handle.
   * Called after reset; the driver puts it in every record of the run. */
  int (*machine_configuration)(void* model, const char** json, char* err, size_t err_size);
  /* Appended (read only within struct_size): NULL, or the documentation of
   * the parameters `create` accepts: *json is set to a JSON array of objects
   * {"name", "type", "default", "derived", "accepts", "doc"} that lives as
   * long as the module (bem-bench list --parameters prints it). */
  int (*describe_parameters)(const char** json, char* err, size_t err_size);
};

enum { BEM_CHECKPOINT_KEEP = 0, BEM_CHECKPOINT_RESTORE = 1 };

/* One measurement of a microbenchmark (a task that measures itself rather
 * than generating sequences: BIT-ALU throughput, routing, SAT...). */
enum { BEM_BETTER_NONE = 0, BEM_BETTER_HIGHER = 1, BEM_BETTER_LOWER = 2 };

typedef struct bem_record_v1 {
  uint32_t struct_size;
  const char* split;          /* the measured configuration's name, e.g. "W=256" */
  const char* condition_json; /* a JSON object: what distinguishes it, e.g. {"W":256} */
  const char* metric;
  double value;
  const char* unit;
  int32_t better;             /* BEM_BETTER_* */
  int32_t timing;             /* 1 when the value measures time (it varies between runs) */
  int32_t has_ci;             /* 1 when ci_low, ci_high and ci_method hold a 95% interval */
  double ci_low;
  double ci_high;
  const char* ci_method;
  int64_t n;                  /* units behind the value */
  const char* n_unit;
  /* Appended (read only where struct_size covers them): how the value was
   * obtained or what it is made of, as breakdown_size (key, value) pairs of
   * strings, e.g. {"streams", "8"}; breakdown holds 2 * breakdown_size. */
  uint32_t breakdown_size;
  const char* const* breakdown;
} bem_record_v1;

/* Receives one record; the record and its strings live only during the call. */
typedef void (*bem_record_sink_v1)(void* context, const bem_record_v1* record);

/* What a run gives a benchmark beyond its seed. */
typedef struct bem_run_context_v1 {
  uint32_t struct_size;
  uint64_t seed;
  const char* model;                  /* the suite's model name; "none" when it names none */
  const char* model_parameters_toml;  /* the run's [run.model_params] */
  const char* artifact_dir;           /* an existing folder of this run's own, or "" */
} bem_run_context_v1;

typedef struct bem_benchmark_type_v1 {
  uint32_t struct_size;
  const char* name;
  const char* version;
  const char* description;
  void* (*create)(const char* parameters_toml, char* err, size_t err_size);
  void (*destroy)(void* benchmark);
  const char* (*effective_parameters)(void* benchmark);
  /* Runs the whole measurement, sending each record to `sink` as it exists. */
  int (*run)(void* benchmark, uint64_t seed, bem_record_sink_v1 sink, void* context, char* err, size_t err_size);
  /* Appended (read only within struct_size): NULL, or `run` with the whole
   * run context. A benchmark that sets it evaluates a model of its own kind,
   * named in context->model (the Rust code-generation suite does), and may
   * keep files in context->artifact_dir; the host then accepts a model. */
  int (*run_with_context)(void* benchmark, const bem_run_context_v1* run_context, bem_record_sink_v1 sink,
                          void* context, char* err, size_t err_size);
  /* Appended (read only within struct_size): NULL, or the documentation of
   * the parameters `create` accepts: *json is set to a JSON array of objects
   * {"name", "type", "default", "derived", "accepts", "doc"} that lives as
   * long as the module (bem-bench list --parameters prints it). */
  int (*describe_parameters)(const char** json, char* err, size_t err_size);
} bem_benchmark_type_v1;

typedef struct bem_plugin_v1 {
  uint32_t abi_version;       /* BEM_PLUGIN_ABI_VERSION */
  uint32_t struct_size;       /* sizeof(bem_plugin_v1) as the plugin saw it */
  const char* name;
  const char* version;
  const char* library_abi_tag; /* the C++ inline namespace it was built with */
  uint32_t task_count;
  const bem_task_type_v1* const* tasks;
  uint32_t model_count;
  const bem_model_type_v1* const* models;
  uint32_t benchmark_count;
  const bem_benchmark_type_v1* const* benchmarks;
} bem_plugin_v1;

typedef const bem_plugin_v1* (*bem_plugin_entry_v2_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* BEM_PLUGIN_ABI_H */
