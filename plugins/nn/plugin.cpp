// The trained sequence models of include/bem/nn: E88, Mamba2, the linear RNN
// and the MLP, each with the temporal nonlinearity seed's presets
// (docs/nn.md lists every parameter).
#include <bem/nn/models.hpp>
#include <bem/plugin/adapter.hpp>

BEM_PLUGIN("nn", "1", BEM_MODELS(bem::nn::e88_model, bem::nn::mamba2_model, bem::nn::linear_rnn_model, bem::nn::mlp_model))
