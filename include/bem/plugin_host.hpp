// Deprecated forwarding header: <bem/plugin_host.hpp> moved to <bem/plugin/host.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/plugin_host.hpp> is deprecated: include <bem/plugin/host.hpp>"
#include <bem/plugin/host.hpp>
