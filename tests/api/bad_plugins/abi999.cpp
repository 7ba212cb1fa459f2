// A plugin built against a future ABI: its table says abi_version 999. The
// host must report "ABI mismatch" without reading anything else.
#include <bem/plugin/abi.h>

extern "C" BEM_PLUGIN_EXPORT const bem_plugin_v1* BEM_PLUGIN_ENTRY(void) {
  static const bem_plugin_v1 table = {999u, sizeof(bem_plugin_v1), "from_the_future", "1", "v999", 0u, nullptr,
                                      0u, nullptr, 0u, nullptr};
  return &table;
}
