// A shared module that is not a bem plugin: it exports a function, but not
// BEM_PLUGIN_ENTRY (the name is misspelt). The host must report
// "no entry point".
#include <bem/plugin/abi.h>

extern "C" BEM_PLUGIN_EXPORT int bem_plugin_entry(void) { return 1; }
