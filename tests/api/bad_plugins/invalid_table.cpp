// A plugin with the right ABI version whose table is unusable: one task
// entry is NULL. The host must report "invalid table".
#include <bem/plugin/abi.h>

namespace {
const bem_task_type_v1* const no_tasks[] = {nullptr};
}

extern "C" BEM_PLUGIN_EXPORT const bem_plugin_v1* BEM_PLUGIN_ENTRY(void) {
  static const bem_plugin_v1 table = {BEM_PLUGIN_ABI_VERSION, sizeof(bem_plugin_v1), "incomplete", "1", "", 1u,
                                      no_tasks, 0u, nullptr, 0u, nullptr};
  return &table;
}
