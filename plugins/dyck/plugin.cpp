// The Dyck task family: Dyck-1 recognition with online or final labels (suite section 3.2).
#include <bem/plugin/adapter.hpp>
#include <tasks/dyck.hpp>

BEM_PLUGIN("dyck", "1", BEM_TASKS(bem::tasks::dyck1_task), BEM_MODELS())
