// E88: every parameter's gradient against central finite differences, for
// each variant, with and without the output gate, through a recurrence that
// is checkpointed every 3 steps (chunks 3, 3, 1 of T = 7), and for the
// class-final head.
#include "gradcheck.hpp"

#include <bem/nn/e88.hpp>
#include <doctest/doctest.h>

using namespace bem::nn;

namespace {
network<double, e88_layer>::config small_e88(e88_variant v, bool gate, int chunk) {
  network<double, e88_layer>::config c;
  c.vocab = 3;
  c.dim = 8;
  c.layers = 2;
  c.out_width = 1;
  c.layer.dim = 8;
  c.layer.heads = 2;
  c.layer.n_state = 4;
  c.layer.head_v = 3;
  c.layer.gate = gate;
  c.layer.variant = v;
  c.layer.chunk = chunk;
  return c;
}
}  // namespace

TEST_CASE("E88 gradients match finite differences for every parameter, variant and gate") {
  for (auto v : {e88_variant::authors, e88_variant::simple, e88_variant::linear, e88_variant::simple_linear})
    for (bool gate : {true, false}) {
      CAPTURE(to_string(v));
      CAPTURE(gate);
      const auto r = nntest::gradcheck<e88_layer>(small_e88(v, gate, 3), 3, 7, false, 11);
      CHECK_MESSAGE(r.failures.empty(), r.failures);
      CHECK(r.worst_block_error < 1e-6);
      CHECK(r.checked > 500);
    }
}

TEST_CASE("E88 class-final head: cross-entropy gradients match finite differences") {
  auto c = small_e88(e88_variant::authors, true, 2);
  c.out_width = 3;
  c.layers = 1;
  const auto r = nntest::gradcheck<e88_layer>(c, 3, 6, true, 5);
  CHECK_MESSAGE(r.failures.empty(), r.failures);
}

TEST_CASE("E88 checkpoint interval changes memory, not gradients") {
  const auto b = nntest::random_batch(2, 9, 3, 1, false, 3);
  std::vector<double> g1;
  double l1 = 0;
  for (int chunk : {1, 4, 9}) {
    network<double, e88_layer> net(small_e88(e88_variant::authors, true, chunk));
    std::vector<double> p(net.size()), g;
    net.table().initialise(p.data(), 9);
    const double l = nntest::analytic(net, p, g, b, false);
    if (chunk == 1) {
      g1 = g;
      l1 = l;
    } else {
      CHECK(l == l1);
      CHECK(g == g1);
    }
  }
}
