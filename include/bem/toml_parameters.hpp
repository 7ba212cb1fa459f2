// Deprecated forwarding header: <bem/toml_parameters.hpp> moved to <bem/plugin/toml_parameters.hpp> in bem 0.1 and this
// path goes in 0.2 (CHANGELOG.md).
#pragma once
#warning "<bem/toml_parameters.hpp> is deprecated: include <bem/plugin/toml_parameters.hpp>"
#include <bem/plugin/toml_parameters.hpp>
