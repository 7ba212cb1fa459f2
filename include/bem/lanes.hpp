// Deprecated forwarding header: <bem/lanes.hpp> moved to <bem/machine/lanes.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/lanes.hpp> is deprecated: include <bem/machine/lanes.hpp>"
#include <bem/machine/lanes.hpp>
