// Mamba2 and the two baselines: every parameter's gradient against central
// finite differences; Mamba2 in both variants with the scan checkpointed
// every 3 steps, and at head widths that take each of the scan's code paths
// (headdim a multiple of 1, 2 or 4 SIMD vectors, and with a scalar tail).
#include "gradcheck.hpp"

#include <bem/nn/baseline_layers.hpp>
#include <bem/nn/mamba2.hpp>
#include <doctest/doctest.h>

using namespace bem::nn;

namespace {
/// A small Mamba2 network (vocab 3, width 6, d_state 4, conv 4, the scan
/// checkpointed every 3 steps) whose every gradient must match central
/// finite differences to 1e-6.
void check_mamba2(int layers, int expand, int headdim, mamba2_variant v) {
  network<double, mamba2_layer>::config c;
  c.vocab = 3;
  c.dim = 6;
  c.layers = layers;
  c.layer.dim = 6;
  c.layer.d_state = 4;
  c.layer.expand = expand;
  c.layer.headdim = headdim;
  c.layer.d_conv = 4;
  c.layer.variant = v;
  c.layer.chunk = 3;
  const auto r = nntest::gradcheck<mamba2_layer>(c, 3, 7, false, 21);
  CHECK_MESSAGE(r.failures.empty(), r.failures);
  CHECK(r.worst_block_error < 1e-6);
}
}  // namespace

TEST_CASE("Mamba2 gradients match finite differences for every parameter and variant") {
  for (auto v : {mamba2_variant::standard, mamba2_variant::negative_eigenvalue}) {
    CAPTURE(to_string(v));
    check_mamba2(2, 2, 4, v);  // 3 heads
  }
}

TEST_CASE("Mamba2 gradients at head widths that take every scan kernel") {
  // SIMD lanes of double: 2 (SSE2), 4 (AVX), 8 (AVX-512). headdim = 1, 2 or 4
  // vectors takes the register-resident backward step; L + 1 and 2L + 1 the
  // general loop with a scalar tail.
  constexpr int L = bem::nn::detail::simd<double>::lanes;
  for (int hd : {L, 2 * L, 4 * L, L + 1, 2 * L + 1})
    for (auto v : {mamba2_variant::standard, mamba2_variant::negative_eigenvalue}) {
      CAPTURE(hd);
      CAPTURE(to_string(v));
      int expand = 1;  // the smallest expand giving at least 2 heads
      while ((expand * 6) % hd != 0 || expand * 6 / hd < 2) ++expand;
      check_mamba2(1, expand, hd, v);
    }
}

TEST_CASE("Mamba2 class-final head gradients match finite differences") {
  network<double, mamba2_layer>::config c;
  c.vocab = 4;
  c.dim = 4;
  c.layers = 1;
  c.out_width = 3;
  c.layer.dim = 4;
  c.layer.d_state = 2;
  c.layer.headdim = 4;
  c.layer.chunk = 2;
  const auto r = nntest::gradcheck<mamba2_layer>(c, 3, 6, true, 8);
  CHECK_MESSAGE(r.failures.empty(), r.failures);
}

TEST_CASE("linear RNN gradients match finite differences") {
  network<double, linear_rnn_layer>::config c;
  c.vocab = 3;
  c.dim = 5;
  c.layers = 2;
  c.layer.dim = 5;
  c.layer.hidden = 6;
  const auto r = nntest::gradcheck<linear_rnn_layer>(c, 3, 7, false, 31);
  CHECK_MESSAGE(r.failures.empty(), r.failures);
}

TEST_CASE("MLP gradients match finite differences") {
  network<double, mlp_layer>::config c;
  c.vocab = 3;
  c.dim = 6;
  c.layers = 4;
  c.layer.dim = 6;
  const auto r = nntest::gradcheck<mlp_layer>(c, 3, 5, false, 41);
  CHECK_MESSAGE(r.failures.empty(), r.failures);
}
