// Deprecated forwarding header: <bem/hwinfo.hpp> moved to <bem/platform/hwinfo.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/hwinfo.hpp> is deprecated: include <bem/platform/hwinfo.hpp>"
#include <bem/platform/hwinfo.hpp>
