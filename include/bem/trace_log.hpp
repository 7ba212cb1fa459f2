// Deprecated forwarding header: <bem/trace_log.hpp> moved to <bem/machine/trace_log.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/trace_log.hpp> is deprecated: include <bem/machine/trace_log.hpp>"
#include <bem/machine/trace_log.hpp>
