/* plugin_abi.h compiled as C (C99, -Wpedantic): the ABI really is plain C.
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
