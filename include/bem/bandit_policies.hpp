// Deprecated forwarding header: <bem/bandit_policies.hpp> moved to <bem/learn/bandit_policies.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/bandit_policies.hpp> is deprecated: include <bem/learn/bandit_policies.hpp>"
#include <bem/learn/bandit_policies.hpp>
