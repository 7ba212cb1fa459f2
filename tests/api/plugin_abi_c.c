/* bem/plugin/abi.h compiled as C (C99, -Wpedantic): the ABI really is plain C.
 * The sizes seen by a C compiler are exported so the ODR test can compare
 * them with the C++ view of the same structs. */
#include <bem/plugin/abi.h>

size_t bem_test_c_sizeof_plugin(void);
size_t bem_test_c_sizeof_task_type(void);
size_t bem_test_c_sizeof_model_type(void);
size_t bem_test_c_sizeof_batch(void);
unsigned bem_test_c_abi_version(void);

size_t bem_test_c_sizeof_plugin(void) { return sizeof(bem_plugin_v1); }
size_t bem_test_c_sizeof_task_type(void) { return sizeof(bem_task_type_v1); }
size_t bem_test_c_sizeof_model_type(void) { return sizeof(struct bem_model_type_v1); }
size_t bem_test_c_sizeof_batch(void) { return sizeof(bem_batch_v1); }
unsigned bem_test_c_abi_version(void) { return BEM_PLUGIN_ABI_VERSION; }

/* Every struct, the ones passed by pointer too, starts with its size, so
 * each can grow by the growth rule (C99 has no _Static_assert: an array of
 * size -1 stops the build instead). */
typedef char bem_test_batch_starts_with_size[offsetof(bem_batch_v1, struct_size) == 0 ? 1 : -1];
typedef char bem_test_spec_starts_with_size[offsetof(bem_task_spec_v1, struct_size) == 0 ? 1 : -1];
typedef char bem_test_split_starts_with_size[offsetof(bem_split_v1, struct_size) == 0 ? 1 : -1];
typedef char bem_test_abi_is_2[BEM_PLUGIN_ABI_VERSION == 2u ? 1 : -1];

/* A model table written in C, with the calls whose signatures ABI 2
 * changed: each can fail and report through err (meson.build makes a
 * mismatched function pointer an error). */
static int bem_test_set_learning(void* model, int enabled, char* err, size_t err_size) {
  (void)model, (void)enabled, (void)err, (void)err_size;
  return BEM_OK;
}
static int bem_test_parameter_count(void* model, int64_t* count, char* err, size_t err_size) {
  (void)model, (void)err, (void)err_size;
  *count = 0;
  return BEM_OK;
}
static int bem_test_report(void* model, bem_metric_sink_v1 sink, void* context, char* err, size_t err_size) {
  (void)model, (void)err, (void)err_size;
  sink(context, "figure", 1.0, "unit");
  return BEM_OK;
}
extern const struct bem_model_type_v1 bem_test_c_model;
const struct bem_model_type_v1 bem_test_c_model = {.struct_size = sizeof(struct bem_model_type_v1),
                                                   .set_learning = bem_test_set_learning,
                                                   .parameter_count = bem_test_parameter_count,
                                                   .report = bem_test_report};

/* A C plugin names its entry point through the header. */
BEM_PLUGIN_EXPORT const bem_plugin_v1* BEM_PLUGIN_ENTRY(void);
