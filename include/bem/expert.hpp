// Deprecated forwarding header: <bem/expert.hpp> moved to <bem/machine/expert.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/expert.hpp> is deprecated: include <bem/machine/expert.hpp>"
#include <bem/machine/expert.hpp>
