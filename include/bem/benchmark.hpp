// Deprecated forwarding header: <bem/benchmark.hpp> moved to <bem/harness/benchmark.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/benchmark.hpp> is deprecated: include <bem/harness/benchmark.hpp>"
#include <bem/harness/benchmark.hpp>
