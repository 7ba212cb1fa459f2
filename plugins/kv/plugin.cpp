// The key-value task family: associative retrieval (suite section 3.3).
#include <bem/plugin/adapter.hpp>
#include <tasks/kv_retrieval.hpp>

BEM_PLUGIN("kv", "1", BEM_TASKS(bem::tasks::kv_retrieval_task), BEM_MODELS())
