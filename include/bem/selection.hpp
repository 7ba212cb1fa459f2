// Deprecated forwarding header: <bem/selection.hpp> moved to <bem/machine/selection.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/selection.hpp> is deprecated: include <bem/machine/selection.hpp>"
#include <bem/machine/selection.hpp>
