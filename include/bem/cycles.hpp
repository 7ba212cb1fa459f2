// Deprecated forwarding header: <bem/cycles.hpp> moved to <bem/platform/cycles.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/cycles.hpp> is deprecated: include <bem/platform/cycles.hpp>"
#include <bem/platform/cycles.hpp>
