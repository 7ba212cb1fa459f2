// Deprecated forwarding header: <bem/plugin.hpp> moved to <bem/plugin/adapter.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/plugin.hpp> is deprecated: include <bem/plugin/adapter.hpp>"
#include <bem/plugin/adapter.hpp>
