// The parity task family: parity and majority of a bit string (suite section 3.1).
#include <bem/plugin/adapter.hpp>
#include <tasks/parity.hpp>

BEM_PLUGIN("parity", "1", BEM_TASKS(bem::tasks::parity_task, bem::tasks::majority_task), BEM_MODELS())
