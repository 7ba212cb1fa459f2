// The learning BEM (include/bem/learn/learning_bem.hpp) as the model `bem`:
// a sequence model on bem::machine that runs on every sequence task beside
// E88, Mamba2 and the baselines (docs/learning-bem.md).
#include <bem/learn/learning_bem.hpp>
#include <bem/plugin/adapter.hpp>

BEM_PLUGIN("learning_bem", "1", BEM_MODELS(bem::learn::learning_bem))
