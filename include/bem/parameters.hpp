// Deprecated forwarding header: <bem/parameters.hpp> moved to <bem/harness/parameters.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/parameters.hpp> is deprecated: include <bem/harness/parameters.hpp>"
#include <bem/harness/parameters.hpp>
