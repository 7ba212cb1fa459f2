// Deprecated forwarding header: <bem/hash.hpp> moved to <bem/machine/hash.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/hash.hpp> is deprecated: include <bem/machine/hash.hpp>"
#include <bem/machine/hash.hpp>
