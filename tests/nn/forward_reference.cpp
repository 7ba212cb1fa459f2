// Forward passes of E88 and Mamba2 against a naive re-implementation of
// REFERENCE.md section 2 (the design notes) and docs/nn.md's model wrapper.
//
// The gradient checks only compare backward with finite differences of
// forward, so a wrong sign, gate, readout or normalisation in forward would
// pass them. Here every output is recomputed from the equations with plain
// loops over doubles, one time step at a time; the only things taken from the
// library are the parameter values (by block name) and the storage convention
// of ops.hpp (weights input-major, y = x W; conv_w as torch's [channel][tap]).
// Checked: each layer alone (every variant, E88 with and without the gate,
// Mamba2 at head widths that take the scan's vector and scalar paths), whole
// networks in double and float (binary and class heads), and e88_model /
// mamba2_model predictions with the library's own initialisation.
#include <bem/nn/models.hpp>
#include <bem/harness/parameters.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using namespace bem;
using namespace bem::nn;

namespace {
using row = std::vector<double>;
using seq = std::vector<row>;  // [T][width]

double silu(double x) { return x / (1.0 + std::exp(-x)); }
double softplus(double x) { return std::log1p(std::exp(x)); }

/// Every parameter block's values as doubles, by name.
struct weights {
  std::map<std::string, row> blocks;
  template <class S>
  weights(const param_table& t, const S* p) {
    for (const auto& b : t.blocks()) blocks[b.name] = row(p + b.offset, p + b.offset + b.size);
  }
  const row& operator[](const std::string& name) const {
    const auto it = blocks.find(name);
    if (it == blocks.end()) throw std::out_of_range("no parameter block " + name);
    return it->second;
  }
};

/// y[t] = x[t] W, W input-major (in x out).
seq project(const seq& x, const row& W, std::size_t out) {
  seq y(x.size(), row(out, 0.0));
  for (std::size_t t = 0; t < x.size(); ++t)
    for (std::size_t i = 0; i < x[t].size(); ++i)
      for (std::size_t o = 0; o < out; ++o) y[t][o] += x[t][i] * W[i * out + o];
  return y;
}

/// x / sqrt(mean(x^2) + 1e-5) * w. REFERENCE.md gives eps 1e-5 for Mamba2's
/// gated norm; it leaves the block norms' eps open, and the library uses the
/// same 1e-5 there (ops.hpp rms_eps).
row rmsnorm(const row& x, const row& w) {
  double ms = 0;
  for (double v : x) ms += v * v;
  const double r = 1.0 / std::sqrt(ms / static_cast<double>(x.size()) + 1e-5);
  row y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] * r * w[i];
  return y;
}

std::size_t size(int n) { return static_cast<std::size_t>(n); }

/// E88 (REFERENCE.md section 2). The `simple` variants follow docs/nn.md:
/// the seed's write S = tanh(alpha S + k^ v^T) (write strength 1, no delta
/// rule) with the authors' q readout kept, since the seed leaves it open.
seq e88_reference(const weights& W, const std::string& pre, const e88_config& c, const seq& u) {
  const std::size_t H = size(c.heads), n = size(c.n_state), dv = size(c.head_v), T = u.size();
  const bool delta_rule = c.variant == e88_variant::authors || c.variant == e88_variant::linear;
  const bool squash = c.variant == e88_variant::authors || c.variant == e88_variant::simple;
  const seq qkv = project(u, W[pre + "W_qkv"], 2 * H * n + H * dv);  // [q | k | v], head-major in each
  const seq za = project(u, W[pre + "W_a"], H);
  const row& dt_bias = W[pre + "dt_bias"];
  const row& A_log = W[pre + "A_log"];
  const seq g = c.gate ? project(u, W[pre + "W_g"], H * dv) : seq{};
  std::vector<row> S(H, row(n * dv, 0.0));  // S[h][i dv + j]: i key, j value
  seq o(T, row(H * dv));
  for (std::size_t t = 0; t < T; ++t) {
    const row& P = qkv[t];
    auto unit = [&](std::size_t off) {  // silu, then x / (|x| + 1e-6)
      row x(n);
      double nrm = 0;
      for (std::size_t i = 0; i < n; ++i) nrm += (x[i] = silu(P[off + i])) * x[i];
      for (double& v : x) v /= std::sqrt(nrm) + 1e-6;
      return x;
    };
    for (std::size_t h = 0; h < H; ++h) {
      const row q = unit(h * n), k = unit(H * n + h * n);
      row write(dv);
      for (std::size_t j = 0; j < dv; ++j) write[j] = silu(P[2 * H * n + h * dv + j]);
      const double alpha = std::exp(-std::exp(A_log[h]) * softplus(za[t][h] + dt_bias[h]));
      row& Sh = S[h];
      if (delta_rule)  // delta = v - S^T k^
        for (std::size_t j = 0; j < dv; ++j)
          for (std::size_t i = 0; i < n; ++i) write[j] -= Sh[i * dv + j] * k[i];
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < dv; ++j) {
          const double pre_act = alpha * Sh[i * dv + j] + k[i] * write[j];
          Sh[i * dv + j] = squash ? std::tanh(pre_act) : pre_act;
        }
      for (std::size_t j = 0; j < dv; ++j) {  // o = S^T q^, then the optional gate
        double oj = 0;
        for (std::size_t i = 0; i < n; ++i) oj += Sh[i * dv + j] * q[i];
        if (c.gate) oj *= silu(g[t][h * dv + j]);
        o[t][h * dv + j] = oj;
      }
    }
  }
  return project(o, W[pre + "W_o"], size(c.dim));
}

/// Mamba2 (REFERENCE.md section 2, one group); `min_decay`, if given,
/// receives the smallest a_h seen (the negative-eigenvalue variant must reach below 0).
seq mamba2_scan_reference(const weights& W, const std::string& pre, const mamba2_config& c, const seq& u,
                          double* min_decay) {
  const std::size_t di = size(c.expand * c.dim), Pd = size(c.headdim), nh = di / Pd, N = size(c.d_state);
  const std::size_t K = size(c.d_conv), cd = di + 2 * N, T = u.size();
  const seq zxd = project(u, W[pre + "W_in"], di + cd + nh);  // [z | xBC | dt_raw]
  const row &conv_w = W[pre + "conv_w"], &conv_b = W[pre + "conv_b"], &dt_bias = W[pre + "dt_bias"];
  const row &A_log = W[pre + "A_log"], &D = W[pre + "D"], &norm_w = W[pre + "gate_norm_w"];
  row hs(nh * Pd * N, 0.0);  // h[head][p][s]
  seq yn(T);
  for (std::size_t t = 0; t < T; ++t) {
    const row& Z = zxd[t];
    // causal depthwise conv as torch's Conv1d(padding K-1) cut to T outputs:
    // tap K-1 multiplies the current input, tap j the input K-1-j steps back.
    row xbc(cd);
    for (std::size_t ch = 0; ch < cd; ++ch) {
      double acc = conv_b[ch];
      for (std::size_t j = 0; j < K; ++j)
        if (t + j >= K - 1) acc += conv_w[ch * K + j] * zxd[t + j - (K - 1)][di + ch];
      xbc[ch] = silu(acc);
    }
    const double* x = xbc.data();
    const double* B = x + di;
    const double* C = B + N;
    row y(di);
    for (std::size_t hd = 0; hd < nh; ++hd) {
      const double dt = softplus(Z[di + cd + hd] + dt_bias[hd]);
      double a = std::exp(dt * -std::exp(A_log[hd]));
      if (c.variant == mamba2_variant::negative_eigenvalue) a = 2 * a - 1;
      if (min_decay) *min_decay = std::min(*min_decay, a);
      for (std::size_t p = 0; p < Pd; ++p) {
        const double xp = x[hd * Pd + p];
        double yp = D[hd] * xp;
        for (std::size_t s = 0; s < N; ++s) {
          double& hv = hs[(hd * Pd + p) * N + s];
          hv = a * hv + dt * xp * B[s];
          yp += C[s] * hv;
        }
        y[hd * Pd + p] = yp;
      }
    }
    for (std::size_t i = 0; i < di; ++i) y[i] *= silu(Z[i]);  // gate by z, then norm
    yn[t] = rmsnorm(y, norm_w);
  }
  return project(yn, W[pre + "W_out"], size(c.dim));
}
seq mamba2_reference(const weights& W, const std::string& pre, const mamba2_config& c, const seq& u) {
  return mamba2_scan_reference(W, pre, c, u, nullptr);
}

/// docs/nn.md: r_0 = E[token]; r_l = r_{l-1} + layer_l(RMSNorm_l(r_{l-1}));
/// logits = RMSNorm_f(r_L) W_head + b_head (the authors' wrapper in pre-norm form).
template <class LayerRef>
seq network_reference(const weights& W, int layers, int out_width, const std::int32_t* tokens, int T, LayerRef layer) {
  const row& E = W["embedding"];
  const std::size_t d = W["norm_f"].size();
  seq r(size(T));
  for (std::size_t t = 0; t < r.size(); ++t) {
    const auto first = E.begin() + static_cast<std::ptrdiff_t>(size(tokens[t]) * d);
    r[t] = row(first, first + static_cast<std::ptrdiff_t>(d));
  }
  for (int l = 0; l < layers; ++l) {
    const std::string pre = "layers." + std::to_string(l) + ".";
    seq x(r.size());
    for (std::size_t t = 0; t < r.size(); ++t) x[t] = rmsnorm(r[t], W[pre + "norm_w"]);
    const seq y = layer(pre, x);
    for (std::size_t t = 0; t < r.size(); ++t)
      for (std::size_t i = 0; i < d; ++i) r[t][i] += y[t][i];
  }
  for (auto& rt : r) rt = rmsnorm(rt, W["norm_f"]);
  seq logits = project(r, W["head_w"], size(out_width));
  for (auto& lt : logits)
    for (std::size_t o = 0; o < lt.size(); ++o) lt[o] += W["head_b"][o];
  return logits;
}

/// Library values within tol (relative to 1 + |reference|) of the reference.
template <class S>
constexpr double tolerance = std::is_same_v<S, double> ? 1e-12 : 1e-5;

template <class S>
void check_close(const seq& ref, const S* got, const char* what, double tol) {
  double worst = 0;
  std::size_t at_t = 0, at_i = 0;
  for (std::size_t t = 0; t < ref.size(); ++t)
    for (std::size_t i = 0; i < ref[t].size(); ++i) {
      const double err = std::abs(static_cast<double>(got[t * ref[t].size() + i]) - ref[t][i]) / (1.0 + std::abs(ref[t][i]));
      if (!(err <= worst)) worst = err, at_t = t, at_i = i;  // NaN sticks
    }
  CHECK_MESSAGE(worst <= tol, what << ": worst relative error " << worst << " at t=" << at_t << " i=" << at_i
                                   << " (reference " << ref[at_t][at_i] << ")");
}

/// The initialisation leaves norm weights at 1, biases at 0, Mamba2's D at 1
/// and dt near 1e-2, which would hide a missing weight, bias or skip term or
/// a mixed-up decay: move them off those values (dt into [0.05, 0.5]).
template <class S>
void spread_parameters(const param_table& table, S* p, std::uint64_t seed) {
  xoshiro256ss rng(seed);
  for (const auto& b : table.blocks())
    for (std::size_t i = b.offset; i < b.offset + b.size; ++i) {
      if (b.init == init_kind::dt_bias)
        p[i] = static_cast<S>(std::log(std::expm1(0.05 + 0.45 * rng.uniform01())));
      else if (b.init == init_kind::ones || b.init == init_kind::zeros)
        p[i] += static_cast<S>(rng.uniform01() - 0.5);
    }
}

/// One layer on a random input, against `reference`, with and without the
/// training-time checkpointing (chunk 3 of T = 7).
template <class S, template <class> class Layer, class Ref>
void check_layer(const typename Layer<S>::config& c, Ref reference, std::uint64_t seed) {
  param_table table;
  const Layer<S> layer(c, table, "l.");
  std::vector<S> p(table.size());
  table.initialise(p.data(), seed);
  spread_parameters(table, p.data(), seed + 1);
  const int T = 7;
  const std::size_t d = size(c.dim);
  xoshiro256ss rng(seed + 2);
  std::vector<S> u(size(T) * d);
  seq ud(size(T), row(d));
  for (std::size_t i = 0; i < u.size(); ++i) ud[i / d][i % d] = u[i] = static_cast<S>(3 * rng.uniform01() - 1.5);
  const seq ref = reference(weights(table, p.data()), "l.", c, ud);
  for (bool training : {false, true}) {
    CAPTURE(training);
    typename Layer<S>::workspace ws;
    layer.resize(ws, T, training);
    std::vector<S> y(u.size());
    layer.forward(p.data(), u.data(), y.data(), T, ws, training);
    check_close(ref, y.data(), "layer output", tolerance<S>);
  }
}

/// A two-layer network on a batch of two sequences (lengths 7 and 5).
template <class S, template <class> class Layer, class Ref>
void check_network(const typename network<S, Layer>::config& c, Ref layer_reference, std::uint64_t seed) {
  const network<S, Layer> net(c);
  std::vector<S> p(net.size());
  net.table().initialise(p.data(), seed);
  spread_parameters(net.table(), p.data(), seed + 1);
  const weights W(net.table(), p.data());
  xoshiro256ss rng(seed + 2);
  typename network<S, Layer>::workspace ws;
  for (int T : {7, 5}) {
    CAPTURE(T);
    std::vector<std::int32_t> tokens(static_cast<std::size_t>(T));
    for (auto& tok : tokens) tok = static_cast<std::int32_t>(rng.uniform_below(static_cast<std::uint64_t>(c.vocab)));
    net.resize(ws, T, false);
    net.forward(p.data(), tokens.data(), T, ws);
    const seq ref = network_reference(W, c.layers, c.out_width, tokens.data(), T,
                                      [&](const std::string& pre, const seq& x) { return layer_reference(W, pre, c.layer, x); });
    check_close(ref, ws.logits.data(), "logits", tolerance<S>);
  }
}

e88_config small_e88(e88_variant v, bool gate) {
  e88_config c;
  c.dim = 6;
  c.heads = 2;
  c.n_state = 4;
  c.head_v = 3;
  c.gate = gate;
  c.variant = v;
  c.chunk = 3;
  return c;
}
mamba2_config small_mamba2(mamba2_variant v, int dim, int headdim) {
  mamba2_config c;
  c.dim = dim;  // d_inner = 2 dim
  c.d_state = 3;
  c.headdim = headdim;
  c.variant = v;
  c.chunk = 3;
  return c;
}
constexpr e88_variant all_e88[] = {e88_variant::authors, e88_variant::simple, e88_variant::linear, e88_variant::simple_linear};
constexpr mamba2_variant all_mamba2[] = {mamba2_variant::standard, mamba2_variant::negative_eigenvalue};
}  // namespace

TEST_CASE_TEMPLATE("E88 layer forward equals the REFERENCE.md equations", S, double, float) {
  for (auto v : all_e88)
    for (bool gate : {true, false}) {
      CAPTURE(to_string(v));
      CAPTURE(gate);
      check_layer<S, e88_layer>(small_e88(v, gate), e88_reference, 31);
    }
}

TEST_CASE_TEMPLATE("Mamba2 layer forward equals the REFERENCE.md equations", S, double, float) {
  // Head widths 3, 4, 12 and 16 take the scan's scalar, vector + scalar-tail
  // and one-, two- and four-vector paths with SSE2 or AVX-512 lanes.
  for (auto v : all_mamba2)
    for (auto [dim, headdim] : {std::pair{6, 3}, std::pair{8, 4}, std::pair{6, 12}, std::pair{8, 16}}) {
      CAPTURE(to_string(v));
      CAPTURE(headdim);
      check_layer<S, mamba2_layer>(small_mamba2(v, dim, headdim), mamba2_reference, 41);
    }
  // The variant must actually produce negative decays on these weights.
  param_table table;
  const auto c = small_mamba2(mamba2_variant::negative_eigenvalue, 6, 4);
  const mamba2_layer<double> layer(c, table, "l.");
  std::vector<double> p(table.size());
  table.initialise(p.data(), 41);
  spread_parameters(table, p.data(), 42);
  double min_decay = 1;
  mamba2_scan_reference(weights(table, p.data()), "l.", c, seq(5, row(6, 0.5)), &min_decay);
  CHECK(min_decay < -0.2);
}

TEST_CASE_TEMPLATE("E88 and Mamba2 network logits equal the reference wrapper", S, double, float) {
  for (int out_width : {1, 3}) {
    CAPTURE(out_width);
    for (auto v : all_e88) {
      CAPTURE(to_string(v));
      const typename network<S, e88_layer>::config c{
          .vocab = 3, .dim = 6, .layers = 2, .out_width = out_width, .layer = small_e88(v, true)};
      check_network<S, e88_layer>(c, e88_reference, 51);
    }
    for (auto v : all_mamba2) {
      CAPTURE(to_string(v));
      const typename network<S, mamba2_layer>::config c{
          .vocab = 3, .dim = 6, .layers = 2, .out_width = out_width, .layer = small_mamba2(v, 6, 4)};
      check_network<S, mamba2_layer>(c, mamba2_reference, 61);
    }
  }
}

TEST_CASE("e88_model and mamba2_model predictions equal the reference (library initialisation, float)") {
  tasks::task_spec spec;
  spec.vocab_size = 3;
  tasks::sequence_batch b;  // batch of two, the second sequence padded after 5 tokens
  b.reset(2, 7);
  b.lengths[1] = 5;
  xoshiro256ss rng(71);
  for (auto& tok : b.inputs) tok = static_cast<std::int32_t>(rng.uniform_below(3));
  auto compare = [&](auto& model, auto layer_reference) {
    model.reset(spec, 73);
    tasks::prediction out;
    out.reset_for(b, spec);
    model.predict(b, out);
    const weights W(model.engine().net().table(), model.engine().params().data());
    for (int s = 0; s < 2; ++s) {
      CAPTURE(s);
      const auto layer = [&](const std::string& pre, const seq& x) {
        return layer_reference(W, pre, model.layer_config(), x);
      };
      const seq ref = network_reference(W, model.layers(), 1, b.inputs.data() + b.index(s, 0), b.lengths[size(s)], layer);
      check_close(ref, out.at(s, 0), "model logits", tolerance<float>);
    }
  };
  for (const char* v : {"authors", "simple", "linear", "simple_linear"}) {
    CAPTURE(v);
    parameters p;
    p.set("preset", std::string("E88-4L"));
    p.set("layers", std::int64_t{2});
    p.set("dim", std::int64_t{8});
    p.set("n_state", std::int64_t{4});
    p.set("variant", std::string(v));
    e88_model m(p);
    compare(m, e88_reference);
  }
  for (const char* v : {"standard", "negative_eigenvalue"}) {
    CAPTURE(v);
    parameters p;
    p.set("layers", std::int64_t{2});
    p.set("d_model", std::int64_t{8});
    p.set("headdim", std::int64_t{4});
    p.set("d_state", std::int64_t{4});
    p.set("variant", std::string(v));
    mamba2_model m(p);
    compare(m, mamba2_reference);
  }
}
