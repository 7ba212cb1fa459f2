// Deprecated forwarding header: <bem/identifier.hpp> moved to <bem/machine/identifier.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/identifier.hpp> is deprecated: include <bem/machine/identifier.hpp>"
#include <bem/machine/identifier.hpp>
