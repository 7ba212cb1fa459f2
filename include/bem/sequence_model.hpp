// Deprecated forwarding header: <bem/sequence_model.hpp> moved to <bem/harness/sequence_model.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/sequence_model.hpp> is deprecated: include <bem/harness/sequence_model.hpp>"
#include <bem/harness/sequence_model.hpp>
