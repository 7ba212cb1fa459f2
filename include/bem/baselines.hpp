// Deprecated forwarding header: <bem/baselines.hpp> moved to <bem/harness/baselines.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/baselines.hpp> is deprecated: include <bem/harness/baselines.hpp>"
#include <bem/harness/baselines.hpp>
