// bem::nn — the Mamba2 (SSD) block, sequential-scan form, after the
// reference implementation (mamba_ssm Mamba2 with ngroups = 1):
//
//   [z, xBC, dt_raw] = u W_in                       no bias
//   xBC = silu(causal depthwise conv1d(xBC))        kernel K = 4, with bias
//   [x, B, C] = split(xBC)                          B, C (d_state each) shared by heads
//   dt_h = softplus(dt_raw_h + dt_bias_h);  A_h = -exp(A_log_h);  a_h = exp(dt_h A_h)
//   variant negative_eigenvalue: a_h := 2 a_h - 1   (eigenvalues in (-1, 1))
//   h_t[h,p,:] = a_h h_{t-1}[h,p,:] + dt_h x[h,p] B          p < headdim
//   y[h,p] = C . h_t[h,p,:] + D_h x[h,p]
//   y~ = y * silu(z);  y^ = y~ / sqrt(mean(y~^2) + 1e-5) * w   gated RMSNorm
//   out = y^ W_out
//
// d_inner = expand * d_model, heads = d_inner / headdim. Backward through the
// scan, going back in time (dh is the carry):
//   dh += C (x) dy_t;  dC += sum_p h_t[p] dy[p];  dx = D dy + dt (B . dh);  dD += dy x
//   dB += dt sum_p x[p] dh[p];  d dt += sum_p x[p] (B . dh[p]);  da = sum dh * h_{t-1}
//   dh = a dh;  then a = exp(dt A): d dt += da a A,  dA += da a dt,  dA_log += dA A.
// The state h is kept every `chunk` steps and recomputed in between, as in E88.
//
// Layout and kernels (what makes the scan fast on a CPU): a head's state is
// stored [d_state][headdim], row s holding h[., s] over the head's channels.
// Then the update h[s][:] = a h[s][:] + (dt B[s]) x[:], the readout
// y[:] += C[s] h[s][:] and, going back, dh[s][:] += C[s] dy[:] and
// B.dh[:] += B[s] dh[s][:] all run along contiguous channels as SIMD vector
// operations (GCC/Clang vector extensions, ops.hpp); only dC[s] and dB[s]
// need a horizontal sum, one per state row and step. When headdim is 1, 2 or
// 4 SIMD vectors (64 = 4 x 16 floats with AVX-512), the backward step keeps
// x, dy, B.dh and the h_{t-1}.dh partial sums in registers. The depthwise
// convolution runs on tap-major weights, and its backward pass gathers
// dxBC_raw[t] = sum_j w[j] dc[t + K-1-j] so each row is written once. The
// projections go through ops.hpp's register-blocked matrix product.
#pragma once

#include <bem/nn/ops.hpp>
#include <bem/version.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace nn {

enum class mamba2_variant { standard, negative_eigenvalue };

inline const char* to_string(mamba2_variant v) noexcept {
  return v == mamba2_variant::standard ? "standard" : "negative_eigenvalue";
}

struct mamba2_config {
  int dim = 64;        ///< d_model
  int d_state = 16;    ///< N
  int expand = 2;      ///< d_inner = expand * d_model
  int headdim = 64;    ///< P; heads = d_inner / P
  int d_conv = 4;      ///< K
  mamba2_variant variant = mamba2_variant::standard;
  int chunk = 32;      ///< checkpoint interval of the scan state
};

template <class S>
class mamba2_layer {
 public:
  using config = mamba2_config;

  struct workspace {
    int T = 0;
    std::vector<S> P, c, xbc, dt, a, y, yg, rstd, yn, ckpt, seg;
    std::vector<S> dP, dxbc, dyn, dyg, dy, dc, dtmp;
    std::vector<S> WinT, WoutT;
    std::vector<S> convT, dconvT;  ///< conv weights and their gradient, tap-major (K x conv channels)
  };

  mamba2_layer() = default;
  mamba2_layer(const config& c, param_table& table, const std::string& prefix) : c_(c) {
    if (c.dim < 1 || c.d_state < 1 || c.expand < 1 || c.headdim < 1 || c.d_conv < 1 || c.chunk < 1)
      throw std::invalid_argument("mamba2: dim, d_state, expand, headdim, d_conv and chunk must be >= 1");
    di_ = c.expand * c.dim;
    if (di_ % c.headdim != 0) throw std::invalid_argument("mamba2: expand * d_model must be a multiple of headdim");
    nh_ = di_ / c.headdim;
    cd_ = di_ + 2 * c.d_state;
    inw_ = di_ + cd_ + nh_;
    W_in_ = table.add(prefix + "W_in", c.dim, inw_, init_kind::xavier);
    conv_w_ = table.add(prefix + "conv_w", cd_, c.d_conv, init_kind::uniform_fan, true, c.d_conv);
    conv_b_ = table.add(prefix + "conv_b", 1, cd_, init_kind::uniform_fan, true, c.d_conv);
    dt_bias_ = table.add(prefix + "dt_bias", 1, nh_, init_kind::dt_bias, false);
    A_log_ = table.add(prefix + "A_log", 1, nh_, init_kind::mamba_a_log, false);
    D_ = table.add(prefix + "D", 1, nh_, init_kind::ones, false);
    norm_w_ = table.add(prefix + "gate_norm_w", 1, di_, init_kind::ones);
    W_out_ = table.add(prefix + "W_out", di_, c.dim, init_kind::xavier);
  }

  const config& cfg() const noexcept { return c_; }
  std::size_t state_values() const noexcept { return static_cast<std::size_t>(di_) * static_cast<std::size_t>(c_.d_state); }

  void resize(workspace& w, int T, bool training) const {
    w.T = T;
    const auto t = static_cast<std::size_t>(T);
    const std::size_t st = state_values();
    const std::size_t nck = (t + static_cast<std::size_t>(c_.chunk) - 1) / static_cast<std::size_t>(c_.chunk);
    const std::size_t hst = static_cast<std::size_t>(c_.headdim) * static_cast<std::size_t>(c_.d_state);
    w.P.resize(t * static_cast<std::size_t>(inw_));
    w.c.resize(t * static_cast<std::size_t>(cd_));
    w.xbc.resize(t * static_cast<std::size_t>(cd_));
    w.dt.resize(t * static_cast<std::size_t>(nh_));
    w.a.resize(t * static_cast<std::size_t>(nh_));
    w.y.resize(t * static_cast<std::size_t>(di_));
    w.yg.resize(t * static_cast<std::size_t>(di_));
    w.rstd.resize(t);
    w.yn.resize(t * static_cast<std::size_t>(di_));
    w.ckpt.resize(training ? nck * st : 0);
    w.seg.resize(training ? (static_cast<std::size_t>(c_.chunk) + 1) * hst : hst);
    if (training) {
      w.dP.resize(t * static_cast<std::size_t>(inw_));
      w.dxbc.resize(t * static_cast<std::size_t>(cd_));
      w.dyn.resize(t * static_cast<std::size_t>(di_));
      w.dyg.resize(t * static_cast<std::size_t>(di_));
      w.dy.resize(t * static_cast<std::size_t>(di_));
      w.dc.resize(t * static_cast<std::size_t>(cd_));
      w.dtmp.resize(hst + static_cast<std::size_t>(c_.headdim));
      w.dconvT.resize(static_cast<std::size_t>(c_.d_conv) * static_cast<std::size_t>(cd_));
    }
    w.convT.resize(static_cast<std::size_t>(c_.d_conv) * static_cast<std::size_t>(cd_));
  }

  std::size_t workspace_bytes(int T) const {
    workspace w;
    resize(w, T, true);
    std::size_t n = 0;
    for (auto* v : {&w.P, &w.c, &w.xbc, &w.dt, &w.a, &w.y, &w.yg, &w.rstd, &w.yn, &w.ckpt, &w.seg, &w.dP, &w.dxbc,
                    &w.dyn, &w.dyg, &w.dy, &w.dc, &w.dtmp, &w.convT, &w.dconvT})
      n += v->size();
    n += 2 * static_cast<std::size_t>(c_.dim) * static_cast<std::size_t>(inw_) + static_cast<std::size_t>(di_) * static_cast<std::size_t>(c_.dim);
    return n * sizeof(S);
  }

  void prepare_backward(const S* p, workspace& w) const {
    w.WinT.resize(static_cast<std::size_t>(c_.dim) * static_cast<std::size_t>(inw_));
    transpose(w.WinT.data(), p + W_in_, c_.dim, inw_);
    w.WoutT.resize(static_cast<std::size_t>(di_) * static_cast<std::size_t>(c_.dim));
    transpose(w.WoutT.data(), p + W_out_, di_, c_.dim);
  }

  void forward(const S* p, const S* u, S* out, int T, workspace& w, bool training) const {
    const int N = c_.d_state, K = c_.d_conv, Pd = c_.headdim;
    const std::size_t inw = static_cast<std::size_t>(inw_), cd = static_cast<std::size_t>(cd_), di = static_cast<std::size_t>(di_),
                      nh = static_cast<std::size_t>(nh_);
    linear_forward(w.P.data(), u, p + W_in_, static_cast<const S*>(nullptr), T, c_.dim, inw_);
    // causal depthwise convolution: c[t] = b + sum_j w[j] xr[t - (K-1) + j]
    transpose(w.convT.data(), p + conv_w_, cd_, K);
    for (int t = 0; t < T; ++t) {
      S* ct = w.c.data() + static_cast<std::size_t>(t) * cd;
      for (std::size_t ch = 0; ch < cd; ++ch) ct[ch] = p[conv_b_ + ch];
      for (int j = 0; j < K; ++j) {
        const int src = t - (K - 1) + j;
        if (src < 0) continue;
        const S* xr = w.P.data() + static_cast<std::size_t>(src) * inw + di;
        const S* wj = w.convT.data() + static_cast<std::size_t>(j) * cd;
        for (std::size_t ch = 0; ch < cd; ++ch) ct[ch] += wj[ch] * xr[ch];
      }
      S* xt = w.xbc.data() + static_cast<std::size_t>(t) * cd;
      for (std::size_t ch = 0; ch < cd; ++ch) xt[ch] = silu_s(ct[ch]);
      for (std::size_t h = 0; h < nh; ++h) {
        const S dt = softplus_s(w.P[static_cast<std::size_t>(t) * inw + di + cd + h] + p[dt_bias_ + h]);
        const S a = std::exp(-dt * std::exp(p[A_log_ + h]));
        w.dt[static_cast<std::size_t>(t) * nh + h] = dt;
        w.a[static_cast<std::size_t>(t) * nh + h] = c_.variant == mamba2_variant::negative_eigenvalue ? S(2) * a - S(1) : a;
      }
    }
    // the scan, one head at a time; the state of a head is kept [d_state][headdim]
    // (row s holds h[., s] over the head's channels), so the update and the
    // readout run along contiguous channels.
    const std::size_t hst = static_cast<std::size_t>(Pd) * static_cast<std::size_t>(N);
    for (std::size_t h = 0; h < nh; ++h) {
      S* hs = w.seg.data();
      std::fill(hs, hs + hst, S(0));
      const S D = p[D_ + h];
      for (int t = 0; t < T; ++t) {
        if (training && t % c_.chunk == 0)
          std::copy(hs, hs + hst, w.ckpt.data() + static_cast<std::size_t>(t / c_.chunk) * state_values() + h * hst);
        step_readout(hs, w.y.data() + static_cast<std::size_t>(t) * di + h * static_cast<std::size_t>(Pd), D, t, h, w);
      }
    }
    // gated RMSNorm and output projection
    for (int t = 0; t < T; ++t)
      for (std::size_t i = 0; i < di; ++i)
        w.yg[static_cast<std::size_t>(t) * di + i] = w.y[static_cast<std::size_t>(t) * di + i] * silu_s(w.P[static_cast<std::size_t>(t) * inw + i]);
    rmsnorm_forward(w.yn.data(), w.rstd.data(), w.yg.data(), p + norm_w_, T, di_);
    linear_forward(out, w.yn.data(), p + W_out_, static_cast<const S*>(nullptr), T, di_, c_.dim);
  }

  void backward(const S* p, S* g, const S* u, const S* dout, S* du, int T, workspace& w) const {
    const int N = c_.d_state, K = c_.d_conv, Pd = c_.headdim;
    const std::size_t inw = static_cast<std::size_t>(inw_), cd = static_cast<std::size_t>(cd_), di = static_cast<std::size_t>(di_),
                      nh = static_cast<std::size_t>(nh_), Ns = static_cast<std::size_t>(N);
    const std::size_t tt = static_cast<std::size_t>(T);
    linear_backward(w.dyn.data(), g + W_out_, static_cast<S*>(nullptr), dout, w.yn.data(), w.WoutT.data(), T, di_, c_.dim);
    rmsnorm_backward(w.dyg.data(), g + norm_w_, w.dyn.data(), w.yg.data(), w.rstd.data(), p + norm_w_, T, di_, false);
    // dP is written in full below (z, then the dt columns in the scan, then xBC_raw
    // from the convolution), so it needs no clearing.
    for (std::size_t t = 0; t < tt; ++t)
      for (std::size_t i = 0; i < di; ++i) {
        const S z = w.P[t * inw + i], sz = sigmoid_s(z);  // silu(z) = z sz, silu'(z) = sz (1 + z (1 - sz))
        w.dy[t * di + i] = w.dyg[t * di + i] * (z * sz);
        w.dP[t * inw + i] = w.dyg[t * di + i] * w.y[t * di + i] * (sz * (S(1) + z * (S(1) - sz)));
      }
    std::fill(w.dxbc.begin(), w.dxbc.begin() + static_cast<std::ptrdiff_t>(tt * cd), S(0));
    const std::size_t hst = static_cast<std::size_t>(Pd) * Ns;
    S* dh = w.dtmp.data();
    const int nck = (T + c_.chunk - 1) / c_.chunk;
    const S a_scale = c_.variant == mamba2_variant::negative_eigenvalue ? S(2) : S(1);
    for (std::size_t h = 0; h < nh; ++h) {
      const S A = -std::exp(p[A_log_ + h]);
      const S D = p[D_ + h];
      S dA = 0, dD = 0;
      std::fill(dh, dh + hst, S(0));
      for (int c = nck - 1; c >= 0; --c) {
        const int t0 = c * c_.chunk, t1 = std::min(T, t0 + c_.chunk);
        S* seg = w.seg.data();
        const S* ck = w.ckpt.data() + static_cast<std::size_t>(c) * state_values() + h * hst;
        std::copy(ck, ck + hst, seg);
        for (int t = t0; t < t1; ++t) {
          S* nxt = seg + static_cast<std::size_t>(t - t0 + 1) * hst;
          step(nxt - hst, nxt, t, h, w);
        }
        for (int t = t1 - 1; t >= t0; --t) {
          const std::size_t ts = static_cast<std::size_t>(t);
          const S* Hp = seg + static_cast<std::size_t>(t - t0) * hst;
          const S dt = w.dt[ts * nh + h];
          S ddt = 0, dae = 0;
          const S ae = w.a[ts * nh + h];
          if (Pd == lanes)
            backward_step_n<1>(Hp, Hp + hst, dh, t, h, D, dt, ae, ddt, dae, dD, w);
          else if (Pd == 2 * lanes)
            backward_step_n<2>(Hp, Hp + hst, dh, t, h, D, dt, ae, ddt, dae, dD, w);
          else if (Pd == 4 * lanes)
            backward_step_n<4>(Hp, Hp + hst, dh, t, h, D, dt, ae, ddt, dae, dD, w);
          else
            backward_step(Hp, Hp + hst, dh, w.dtmp.data() + hst, t, h, D, dt, ae, ddt, dae, dD, w);
          // a = exp(dt A) (scaled by 2 for the negative-eigenvalue variant)
          const S a = std::exp(dt * A);
          const S da = dae * a_scale * a;
          ddt += da * A;
          dA += da * dt;
          // dt = softplus(dt_raw + dt_bias)
          const S draw = ddt * sigmoid_s(w.P[ts * inw + di + cd + h] + p[dt_bias_ + h]);
          w.dP[ts * inw + di + cd + h] = draw;
          g[dt_bias_ + h] += draw;
        }
      }
      g[A_log_ + h] += dA * A;
      g[D_ + h] += dD;
    }
    // silu and the causal convolution back to xBC_raw
    for (std::size_t i = 0; i < tt * cd; ++i) w.dc[i] = w.dxbc[i] * silu_grad_s(w.c[i]);
    // dxr[src] = sum_j w[j] dc[src + (K-1) - j] (gathered, so each row is written once);
    // dw[j] += sum_t xr[t - (K-1) + j] dc[t]
    S* dwT = w.dconvT.data();
    std::fill(dwT, dwT + static_cast<std::size_t>(K) * cd, S(0));
    for (int t = 0; t < T; ++t) {
      const S* dct = w.dc.data() + static_cast<std::size_t>(t) * cd;
      for (std::size_t ch = 0; ch < cd; ++ch) g[conv_b_ + ch] += dct[ch];
      S* dxr = w.dP.data() + static_cast<std::size_t>(t) * inw + di;
      std::fill(dxr, dxr + cd, S(0));
      for (int j = 0; j < K; ++j) {
        const int src = t - (K - 1) + j;
        if (src >= 0) {
          const S* xr = w.P.data() + static_cast<std::size_t>(src) * inw + di;
          S* dwj = dwT + static_cast<std::size_t>(j) * cd;
          for (std::size_t ch = 0; ch < cd; ++ch) dwj[ch] += xr[ch] * dct[ch];
        }
        const int dst = t + (K - 1) - j;
        if (dst < T) {
          const S* wj = w.convT.data() + static_cast<std::size_t>(j) * cd;
          const S* dcd = w.dc.data() + static_cast<std::size_t>(dst) * cd;
          for (std::size_t ch = 0; ch < cd; ++ch) dxr[ch] += wj[ch] * dcd[ch];
        }
      }
    }
    for (std::size_t ch = 0; ch < cd; ++ch)
      for (int j = 0; j < K; ++j) g[conv_w_ + ch * static_cast<std::size_t>(K) + static_cast<std::size_t>(j)] += dwT[static_cast<std::size_t>(j) * cd + ch];
    linear_backward(du, g + W_in_, static_cast<S*>(nullptr), w.dP.data(), u, w.WinT.data(), T, c_.dim, inw_);
  }

 private:
  using vec = typename detail::simd<S>::type;
  static constexpr int lanes = detail::simd<S>::lanes;

  /// hout = a hin + dt x (x) B for head h at time t (hout may be hin); the
  /// same expression (upd) as step_readout's, so the backward pass recomputes
  /// the forward states exactly (with GCC -march=native, float training is
  /// bit-identical for checkpoint intervals 1, 7 and 32).
  void step(const S* hin, S* hout, int t, std::size_t h, const workspace& w) const {
    const int N = c_.d_state, Pd = c_.headdim;
    const std::size_t ts = static_cast<std::size_t>(t), Ps = static_cast<std::size_t>(Pd);
    const auto [xt, B, C] = inputs_at(t, h, w);
    const S dt = w.dt[ts * static_cast<std::size_t>(nh_) + h];
    const S a = w.a[ts * static_cast<std::size_t>(nh_) + h];
    for (int s = 0; s < N; ++s) {
      const S* ri = hin + static_cast<std::size_t>(s) * Ps;
      S* ro = hout + static_cast<std::size_t>(s) * Ps;
      const S bs = dt * B[s];
      int q = 0;
      for (; q + lanes <= Pd; q += lanes) detail::vstore(ro + q, upd(detail::vload<vec>(ri + q), a, bs, detail::vload<vec>(xt + q)));
      for (; q < Pd; ++q) ro[q] = upd(ri[q], a, bs, xt[q]);
    }
  }

  template <class T>
  static T upd(T hv, S a, S bs, T xv) noexcept {
    return a * hv + bs * xv;
  }

  /// Where time step t of head h reads: its x (headdim values) and the B, C
  /// the heads share (d_state values each), all in xbc's row t.
  struct step_inputs {
    const S *x, *B, *C;
  };
  step_inputs inputs_at(int t, std::size_t h, const workspace& w) const {
    const S* row = w.xbc.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(cd_);
    const S* B = row + static_cast<std::size_t>(di_);
    return {row + h * static_cast<std::size_t>(c_.headdim), B, B + c_.d_state};
  }
  /// The same places in dxbc, where the backward pass adds their gradients,
  /// and the step's output gradient dy.
  struct step_gradients {
    S *dx, *dB, *dC;
    const S* dy;
  };
  step_gradients gradients_at(int t, std::size_t h, workspace& w) const {
    const std::size_t ts = static_cast<std::size_t>(t), di = static_cast<std::size_t>(di_),
                      hd = h * static_cast<std::size_t>(c_.headdim);
    S* row = w.dxbc.data() + ts * static_cast<std::size_t>(cd_);
    return {row + hd, row + di, row + di + static_cast<std::size_t>(c_.d_state), w.dy.data() + ts * di + hd};
  }

  /// step() in place, then y[q] = D x[q] + sum_s C[s] h[s][q].
  void step_readout(S* hs, S* yt, S D, int t, std::size_t h, const workspace& w) const {
    const int N = c_.d_state, Pd = c_.headdim;
    const std::size_t ts = static_cast<std::size_t>(t), Ps = static_cast<std::size_t>(Pd);
    const auto [xt, B, C] = inputs_at(t, h, w);
    const S dt = w.dt[ts * static_cast<std::size_t>(nh_) + h];
    const S a = w.a[ts * static_cast<std::size_t>(nh_) + h];
    int q = 0;
    for (; q + 2 * lanes <= Pd; q += 2 * lanes) {  // two vectors at a time: two independent sums
      const vec x0 = detail::vload<vec>(xt + q), x1 = detail::vload<vec>(xt + q + lanes);
      vec y0 = D * x0, y1 = D * x1;
      for (int s = 0; s < N; ++s) {
        S* r = hs + static_cast<std::size_t>(s) * Ps + static_cast<std::size_t>(q);
        const S bs = dt * B[s];
        const vec v0 = upd(detail::vload<vec>(r), a, bs, x0), v1 = upd(detail::vload<vec>(r + lanes), a, bs, x1);
        detail::vstore(r, v0);
        detail::vstore(r + lanes, v1);
        y0 += C[s] * v0;
        y1 += C[s] * v1;
      }
      detail::vstore(yt + q, y0);
      detail::vstore(yt + q + lanes, y1);
    }
    for (; q + lanes <= Pd; q += lanes) {
      const vec xv = detail::vload<vec>(xt + q);
      vec yv = D * xv;
      for (int s = 0; s < N; ++s) {
        S* r = hs + static_cast<std::size_t>(s) * Ps + static_cast<std::size_t>(q);
        const vec v = upd(detail::vload<vec>(r), a, dt * B[s], xv);
        detail::vstore(r, v);
        yv += C[s] * v;
      }
      detail::vstore(yt + q, yv);
    }
    for (; q < Pd; ++q) {
      const S xq = xt[q];
      S yq = D * xq;
      for (int s = 0; s < N; ++s) {
        S* r = hs + static_cast<std::size_t>(s) * Ps + static_cast<std::size_t>(q);
        const S v = upd(*r, a, dt * B[s], xq);
        *r = v;
        yq += C[s] * v;
      }
      yt[q] = yq;
    }
  }

  /// backward_step for headdim == NQ SIMD vectors: x, dy, B.dh and the
  /// h_{t-1}.dh partial sums stay in registers.
  template <int NQ>
  void backward_step_n(const S* Hp, const S* Hc, S* dh, int t, std::size_t h, S D, S dt, S ae, S& ddt, S& dae, S& dD,
                       workspace& w) const {
    const int N = c_.d_state;
    constexpr std::size_t Ps = static_cast<std::size_t>(NQ * lanes);
    const auto [xt, B, C] = inputs_at(t, h, w);
    const auto [dxt, dB, dC, dyt] = gradients_at(t, h, w);
    vec dyv[NQ], xv[NQ], bd[NQ], pa[NQ];
#pragma GCC unroll 8
    for (int i = 0; i < NQ; ++i) {
      dyv[i] = detail::vload<vec>(dyt + i * lanes);
      xv[i] = detail::vload<vec>(xt + i * lanes);
      bd[i] = vec{};
      pa[i] = vec{};
    }
    for (int s = 0; s < N; ++s) {
      const S cs = C[s], bs = B[s];
      const std::size_t o = static_cast<std::size_t>(s) * Ps;
      S* d = dh + o;
      const S* hc = Hc + o;
      const S* hp = Hp + o;
      vec pc = vec{}, pb = vec{};
#pragma GCC unroll 8
      for (int i = 0; i < NQ; ++i) {
        const vec dv = detail::vload<vec>(d + i * lanes) + cs * dyv[i];
        pc += detail::vload<vec>(hc + i * lanes) * dyv[i];
        pb += xv[i] * dv;
        pa[i] += detail::vload<vec>(hp + i * lanes) * dv;
        bd[i] += bs * dv;
        detail::vstore(d + i * lanes, ae * dv);
      }
      dC[s] += detail::hsum<S>(pc);
      dB[s] += dt * detail::hsum<S>(pb);
    }
    vec pt = pa[0], vt = xv[0] * bd[0], vd = dyv[0] * xv[0];
    detail::vstore(dxt, detail::vload<vec>(dxt) + D * dyv[0] + dt * bd[0]);
#pragma GCC unroll 8
    for (int i = 1; i < NQ; ++i) {
      pt += pa[i];
      vt += xv[i] * bd[i];
      vd += dyv[i] * xv[i];
      detail::vstore(dxt + i * lanes, detail::vload<vec>(dxt + i * lanes) + D * dyv[i] + dt * bd[i]);
    }
    dae += detail::hsum<S>(pt);
    ddt += detail::hsum<S>(vt);
    dD += detail::hsum<S>(vd);
  }

  /// One time step of the scan's backward pass for head h (Hp = h_{t-1},
  /// Hc = h_t, dh the carry, bdh scratch of headdim values):
  ///   dh += C (x) dy;  dC += sum_q h_t dy;  bdh = B . dh;  dx += D dy + dt bdh;
  ///   ddt += x . bdh;  dB += dt sum_q x dh;  dae += h_{t-1} . dh;  dD += dy . x;  dh *= a.
  void backward_step(const S* Hp, const S* Hc, S* dh, S* bdh, int t, std::size_t h, S D, S dt, S ae, S& ddt, S& dae,
                     S& dD, workspace& w) const {
    const int N = c_.d_state, Pd = c_.headdim;
    const std::size_t Ps = static_cast<std::size_t>(Pd);
    const auto [xt, B, C] = inputs_at(t, h, w);
    const auto [dxt, dB, dC, dyt] = gradients_at(t, h, w);
    std::fill(bdh, bdh + Pd, S(0));
    vec pa[4] = {};  // four partial sums, so the accumulation is not one long dependency chain
    S pas = 0;
    for (int s = 0; s < N; ++s) {
      const S cs = C[s], bs = B[s];
      const std::size_t o = static_cast<std::size_t>(s) * Ps;
      S* d = dh + o;
      const S* hc = Hc + o;
      const S* hp = Hp + o;
      vec pc = vec{}, pb = vec{};
      S pcs = 0, pbs = 0;
      int q = 0;
      for (; q + lanes <= Pd; q += lanes) {
        const vec dyv = detail::vload<vec>(dyt + q);
        const vec dv = detail::vload<vec>(d + q) + cs * dyv;
        pc += detail::vload<vec>(hc + q) * dyv;
        pb += detail::vload<vec>(xt + q) * dv;
        pa[(q / lanes) & 3] += detail::vload<vec>(hp + q) * dv;
        detail::vstore(bdh + q, detail::vload<vec>(bdh + q) + bs * dv);
        detail::vstore(d + q, ae * dv);
      }
      for (; q < Pd; ++q) {
        const S dv = d[q] + cs * dyt[q];
        pcs += hc[q] * dyt[q];
        pbs += xt[q] * dv;
        pas += hp[q] * dv;
        bdh[q] += bs * dv;
        d[q] = ae * dv;
      }
      dC[s] += detail::hsum<S>(pc) + pcs;
      dB[s] += dt * (detail::hsum<S>(pb) + pbs);
    }
    dae += detail::hsum<S>((pa[0] + pa[2]) + (pa[1] + pa[3])) + pas;
    vec vt = vec{}, vd = vec{};
    S st = 0, sd = 0;
    int q = 0;
    for (; q + lanes <= Pd; q += lanes) {
      const vec dyv = detail::vload<vec>(dyt + q), xv = detail::vload<vec>(xt + q), bv = detail::vload<vec>(bdh + q);
      detail::vstore(dxt + q, detail::vload<vec>(dxt + q) + D * dyv + dt * bv);
      vt += xv * bv;
      vd += dyv * xv;
    }
    for (; q < Pd; ++q) {
      dxt[q] += D * dyt[q] + dt * bdh[q];
      st += xt[q] * bdh[q];
      sd += dyt[q] * xt[q];
    }
    ddt += detail::hsum<S>(vt) + st;
    dD += detail::hsum<S>(vd) + sd;
  }

  config c_{};
  int di_ = 0, nh_ = 0, cd_ = 0, inw_ = 0;
  std::size_t W_in_ = 0, conv_w_ = 0, conv_b_ = 0, dt_bias_ = 0, A_log_ = 0, D_ = 0, norm_w_ = 0, W_out_ = 0;
};

}  // namespace nn
BEM_NAMESPACE_END
