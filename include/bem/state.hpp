// Deprecated forwarding header: <bem/state.hpp> moved to <bem/machine/state.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/state.hpp> is deprecated: include <bem/machine/state.hpp>"
#include <bem/machine/state.hpp>
