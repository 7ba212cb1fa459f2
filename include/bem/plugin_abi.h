/* Deprecated forwarding header: <bem/plugin_abi.h> moved to <bem/plugin/abi.h> in bem 0.1 and this
 * path goes in 0.2 (CHANGELOG.md). */
#ifndef BEM_FORWARD_BEM_PLUGIN_ABI_H
#define BEM_FORWARD_BEM_PLUGIN_ABI_H
#warning "<bem/plugin_abi.h> is deprecated: include <bem/plugin/abi.h>"
#include <bem/plugin/abi.h>
#endif
