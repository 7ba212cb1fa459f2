// A plugin built for plugin ABI 1: it exports bem_plugin_entry_v1 and not
// the current entry point. The host must report "ABI mismatch", say that the
// module was built for ABI 1 and must be rebuilt, and never call it.
#include <bem/plugin/abi.h>

#include <cstdlib>

extern "C" BEM_PLUGIN_EXPORT const void* bem_plugin_entry_v1(void) {
  std::abort();  // an ABI 1 table cannot be read by this host: it must not even ask for one
}
