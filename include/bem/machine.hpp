// Deprecated forwarding header: <bem/machine.hpp> moved to <bem/machine/machine.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/machine.hpp> is deprecated: include <bem/machine/machine.hpp>"
#include <bem/machine/machine.hpp>
