// bem::nn — the E88 layer: a matrix-state recurrence with tanh INSIDE the
// time step, as its authors implement it (public `elman` code), plus the
// seed's simpler write rule and the ablation without tanh.
//
// Per layer, input u_t (width d), H heads, per-head state S of n x d_v
// (row i = key index, column j = value index):
//
//   [q, k, v] = silu(u W_qkv)                  W_qkv: d x (2 H n + H d_v), no bias
//   k^ = k / (|k| + 1e-6),  q^ = q / (|q| + 1e-6)            (per head)
//   z_h = u . W_a[:, h] + dt_bias_h
//   alpha_h = exp(-exp(A_log_h) softplus(z_h))               in (0, 1)
//   variant authors:  r = S^T k^;  delta = v - r;   S = tanh(alpha S + k^ delta^T)
//   variant simple:   S = tanh(alpha S + k^ v^T)             (the seed's formula
//                     S := tanh(alpha S + v k^T) with the write strength 1;
//                     the seed leaves the readout open: we keep the q readout
//                     so that only the write rule differs from `authors`)
//   variant linear:   S = alpha S + k^ delta^T                (the authors' delta
//                     rule with the tanh removed; its transition alpha I - k^ k^T
//                     still depends on the input and has the eigenvalue
//                     alpha - 1 < 0 along k^)
//   variant simple_linear: S = alpha S + k^ v^T               (seed section 6.4
//                     exactly: the seed's rule with the tanh removed, a purely
//                     linear, diagonal-decay recurrence in time)
//   o = S^T q^
//   o = o * silu(u W_g)                                       optional output gate
//   y = concat_h(o) W_o                                       W_o: H d_v x d, no bias
//
// Backward through the recurrence, going back in time (dS is the carry):
//   dq^ = S_t do;  dS += q^ do^T
//   dpre = dS * (1 - S_t^2)                (linear, simple_linear: dpre = dS)
//   dalpha = sum(dpre * S_{t-1})
//   authors/linear: ddelta = dpre^T k^;  dv = ddelta;
//                   dk^ = dpre delta - S_{t-1} ddelta;  dS = alpha dpre - k^ ddelta^T
//   simple, simple_linear: dv = dpre^T k^;  dk^ = dpre v;  dS = alpha dpre
// Storing S_t for every t would cost T H n d_v values per sequence (134 MB
// for E88-1L at T = 2048); instead the forward pass keeps S at every
// `chunk`-th step and the backward pass recomputes the C states of one chunk
// at a time: memory T/C + C states per head instead of T.
#pragma once

#include <bem/nn/ops.hpp>
#include <bem/version.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace nn {

enum class e88_variant { authors, simple, linear, simple_linear };

/// The write rule subtracts the state's current value for k^ (delta rule).
constexpr bool uses_delta_rule(e88_variant v) noexcept { return v == e88_variant::authors || v == e88_variant::linear; }
/// The state update goes through tanh.
constexpr bool uses_tanh(e88_variant v) noexcept { return v == e88_variant::authors || v == e88_variant::simple; }

inline const char* to_string(e88_variant v) noexcept {
  switch (v) {
    case e88_variant::authors: return "authors";
    case e88_variant::simple: return "simple";
    case e88_variant::linear: return "linear";
    case e88_variant::simple_linear: return "simple_linear";
  }
  return "?";
}

struct e88_config {
  int dim = 128;      ///< d, the residual stream width
  int heads = 16;     ///< H
  int n_state = 32;   ///< n, key width per head
  int head_v = 32;    ///< d_v, value width per head (the authors use n_state)
  bool gate = false;  ///< output gate o * silu(u W_g); off as in the authors' E88 ("gating hurts E88")
  e88_variant variant = e88_variant::authors;
  int chunk = 32;     ///< checkpoint interval C of the recurrent state
};

template <class S>
class e88_layer {
 public:
  using config = e88_config;

  /// Activations of one sequence (one per thread), sized for T tokens.
  struct workspace {
    int T = 0;
    std::vector<S> P, qn, kn, v, qnorm, knorm, z, alpha, o, G, og;
    std::vector<S> ckpt, seg;
    std::vector<S> dP, dqn, dkn, dalpha, dog, dob, dG, dz, carry, dvbuf;
    std::vector<S> WqkvT, WaT, WgT, WoT;  // transposed weights for backward
  };

  e88_layer() = default;
  e88_layer(const config& c, param_table& table, const std::string& prefix) : c_(c) {
    if (c.dim < 1 || c.heads < 1 || c.n_state < 1 || c.head_v < 1 || c.chunk < 1)
      throw std::invalid_argument("e88: dim, heads, n_state, head_v and chunk must be >= 1");
    if (c.head_v > max_head_v) throw std::invalid_argument("e88: head_v must be <= 256");
    kq_ = c.heads * c.n_state;
    vw_ = c.heads * c.head_v;
    wq_ = 2 * kq_ + vw_;
    W_qkv_ = table.add(prefix + "W_qkv", c.dim, wq_, init_kind::xavier);
    W_a_ = table.add(prefix + "W_a", c.dim, c.heads, init_kind::xavier);
    dt_bias_ = table.add(prefix + "dt_bias", 1, c.heads, init_kind::dt_bias, false);
    A_log_ = table.add(prefix + "A_log", 1, c.heads, init_kind::e88_a_log, false);
    if (c.gate) W_g_ = table.add(prefix + "W_g", c.dim, vw_, init_kind::xavier);
    W_o_ = table.add(prefix + "W_o", vw_, c.dim, init_kind::xavier);
  }

  const config& cfg() const noexcept { return c_; }
  std::size_t state_values() const noexcept { return static_cast<std::size_t>(vw_) * static_cast<std::size_t>(c_.n_state); }

  void resize(workspace& w, int T, bool training) const {
    w.T = T;
    const auto t = static_cast<std::size_t>(T);
    const auto H = static_cast<std::size_t>(c_.heads);
    w.P.resize(t * static_cast<std::size_t>(wq_));
    w.qn.resize(t * static_cast<std::size_t>(kq_));
    w.kn.resize(t * static_cast<std::size_t>(kq_));
    w.v.resize(t * static_cast<std::size_t>(vw_));
    w.qnorm.resize(t * H);
    w.knorm.resize(t * H);
    w.z.resize(t * H);
    w.alpha.resize(t * H);
    w.o.resize(t * static_cast<std::size_t>(vw_));
    w.G.resize(c_.gate ? t * static_cast<std::size_t>(vw_) : 0);
    w.og.resize(t * static_cast<std::size_t>(vw_));
    const std::size_t st = static_cast<std::size_t>(c_.n_state) * static_cast<std::size_t>(c_.head_v);
    const std::size_t nck = (t + static_cast<std::size_t>(c_.chunk) - 1) / static_cast<std::size_t>(c_.chunk);
    w.ckpt.resize(training ? nck * H * st : 0);
    w.seg.resize(training ? (static_cast<std::size_t>(c_.chunk) + 1) * st : st);
    if (training) {
      w.dP.resize(t * static_cast<std::size_t>(wq_));
      w.dqn.resize(t * static_cast<std::size_t>(kq_));
      w.dkn.resize(t * static_cast<std::size_t>(kq_));
      w.dvbuf.resize(t * static_cast<std::size_t>(vw_));
      w.dalpha.resize(t * H);
      w.dz.resize(t * H);
      w.dog.resize(t * static_cast<std::size_t>(vw_));
      w.dob.resize(t * static_cast<std::size_t>(vw_));
      w.dG.resize(c_.gate ? t * static_cast<std::size_t>(vw_) : 0);
      w.carry.resize(2 * st + static_cast<std::size_t>(c_.head_v) * 2 + static_cast<std::size_t>(c_.n_state));
    }
  }

  /// Peak bytes of `workspace` for T tokens while training (per thread).
  std::size_t workspace_bytes(int T) const {
    workspace w;
    resize(w, T, true);
    std::size_t n = 0;
    for (auto* v : {&w.P, &w.qn, &w.kn, &w.v, &w.qnorm, &w.knorm, &w.z, &w.alpha, &w.o, &w.G, &w.og, &w.ckpt, &w.seg,
                    &w.dP, &w.dqn, &w.dkn, &w.dalpha, &w.dog, &w.dob, &w.dG, &w.dz, &w.carry, &w.dvbuf})
      n += v->size();
    n += 2 * static_cast<std::size_t>(c_.dim) * static_cast<std::size_t>(wq_ + c_.heads + vw_) +
         static_cast<std::size_t>(vw_) * static_cast<std::size_t>(c_.dim);
    return n * sizeof(S);
  }

  /// Transposed weights for backward; once per batch and thread.
  void prepare_backward(const S* p, workspace& w) const {
    w.WqkvT.resize(static_cast<std::size_t>(c_.dim) * static_cast<std::size_t>(wq_));
    transpose(w.WqkvT.data(), p + W_qkv_, c_.dim, wq_);
    w.WaT.resize(static_cast<std::size_t>(c_.dim) * static_cast<std::size_t>(c_.heads));
    transpose(w.WaT.data(), p + W_a_, c_.dim, c_.heads);
    if (c_.gate) {
      w.WgT.resize(static_cast<std::size_t>(c_.dim) * static_cast<std::size_t>(vw_));
      transpose(w.WgT.data(), p + W_g_, c_.dim, vw_);
    }
    w.WoT.resize(static_cast<std::size_t>(c_.dim) * static_cast<std::size_t>(vw_));
    transpose(w.WoT.data(), p + W_o_, vw_, c_.dim);
  }

  /// y[T x d] = layer(u[T x d]). With `training`, keeps what backward needs
  /// (state checkpoints every `chunk` steps).
  void forward(const S* p, const S* u, S* y, int T, workspace& w, bool training) const {
    const int d = c_.dim, H = c_.heads, n = c_.n_state, dv = c_.head_v;
    linear_forward(w.P.data(), u, p + W_qkv_, static_cast<const S*>(nullptr), T, d, wq_);
    // silu, per-head L2 normalisation of q and k.
    for (int t = 0; t < T; ++t) {
      const S* Pt = w.P.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(wq_);
      for (int h = 0; h < H; ++h) {
        for (int which = 0; which < 2; ++which) {
          const S* src = Pt + which * kq_ + h * n;
          S* dst = (which == 0 ? w.qn.data() : w.kn.data()) + static_cast<std::size_t>(t) * static_cast<std::size_t>(kq_) +
                   static_cast<std::size_t>(h) * static_cast<std::size_t>(n);
          for (int i = 0; i < n; ++i) dst[i] = silu_s(src[i]);
          const S nrm = std::sqrt(dot(dst, dst, n));
          (which == 0 ? w.qnorm : w.knorm)[static_cast<std::size_t>(t) * static_cast<std::size_t>(H) + static_cast<std::size_t>(h)] = nrm;
          const S inv = S(1) / (nrm + S(1e-6));
          for (int i = 0; i < n; ++i) dst[i] *= inv;
        }
      }
      S* vt = w.v.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(vw_);
      for (int j = 0; j < vw_; ++j) vt[j] = silu_s(Pt[2 * kq_ + j]);
    }
    // Per-head decay alpha = exp(-exp(A_log) softplus(u . W_a + dt_bias)).
    linear_forward(w.z.data(), u, p + W_a_, p + dt_bias_, T, d, H);
    for (int t = 0; t < T; ++t)
      for (int h = 0; h < H; ++h) {
        const std::size_t i = static_cast<std::size_t>(t) * static_cast<std::size_t>(H) + static_cast<std::size_t>(h);
        w.alpha[i] = std::exp(-std::exp(p[A_log_ + static_cast<std::size_t>(h)]) * softplus_s(w.z[i]));
      }
    // The recurrence, one head at a time (its n x d_v state stays in L1).
    const std::size_t st = static_cast<std::size_t>(n) * static_cast<std::size_t>(dv);
    std::vector<S>& Sbuf = w.seg;  // first st values hold the running state
    for (int h = 0; h < H; ++h) {
      S* Sm = Sbuf.data();
      std::fill(Sm, Sm + st, S(0));
      for (int t = 0; t < T; ++t) {
        if (training && t % c_.chunk == 0)
          std::copy(Sm, Sm + st,
                    w.ckpt.data() + (static_cast<std::size_t>(t / c_.chunk) * static_cast<std::size_t>(H) + static_cast<std::size_t>(h)) * st);
        step(Sm, t, h, w);
        readout(Sm, t, h, w);
      }
    }
    // Output gate and projection.
    const std::size_t m = static_cast<std::size_t>(T) * static_cast<std::size_t>(vw_);
    if (c_.gate) {
      linear_forward(w.G.data(), u, p + W_g_, static_cast<const S*>(nullptr), T, d, vw_);
      for (std::size_t i = 0; i < m; ++i) w.og[i] = w.o[i] * silu_s(w.G[i]);
    } else {
      std::copy(w.o.begin(), w.o.begin() + static_cast<std::ptrdiff_t>(m), w.og.begin());
    }
    linear_forward(y, w.og.data(), p + W_o_, static_cast<const S*>(nullptr), T, vw_, d);
  }

  /// Given dy[T x d], accumulates parameter gradients into g and writes du.
  /// Requires forward(..., training = true) on the same u and prepare_backward.
  void backward(const S* p, S* g, const S* u, const S* dy, S* du, int T, workspace& w) const {
    const int d = c_.dim, H = c_.heads, n = c_.n_state, dv = c_.head_v;
    const std::size_t m = static_cast<std::size_t>(T) * static_cast<std::size_t>(vw_);
    // y = og W_o
    linear_backward(w.dog.data(), g + W_o_, static_cast<S*>(nullptr), dy, w.og.data(), w.WoT.data(), T, vw_, d);
    // og = o * silu(G)
    if (c_.gate) {
      for (std::size_t i = 0; i < m; ++i) {
        w.dob[i] = w.dog[i] * silu_s(w.G[i]);
        w.dG[i] = w.dog[i] * w.o[i] * silu_grad_s(w.G[i]);
      }
    } else {
      std::copy(w.dog.begin(), w.dog.begin() + static_cast<std::ptrdiff_t>(m), w.dob.begin());
    }
    // The recurrence, chunk by chunk from the end, recomputing states.
    const std::size_t st = static_cast<std::size_t>(n) * static_cast<std::size_t>(dv);
    S* dS = w.carry.data();
    S* ddelta = dS + st;
    S* delta = ddelta + dv;
    const int nck = (T + c_.chunk - 1) / c_.chunk;
    for (int h = 0; h < H; ++h) {
      std::fill(dS, dS + st, S(0));
      for (int c = nck - 1; c >= 0; --c) {
        const int t0 = c * c_.chunk, t1 = std::min(T, t0 + c_.chunk);
        S* seg = w.seg.data();
        std::copy(w.ckpt.data() + (static_cast<std::size_t>(c) * static_cast<std::size_t>(H) + static_cast<std::size_t>(h)) * st,
                  w.ckpt.data() + (static_cast<std::size_t>(c) * static_cast<std::size_t>(H) + static_cast<std::size_t>(h) + 1) * st, seg);
        for (int t = t0; t < t1; ++t) {
          S* nxt = seg + static_cast<std::size_t>(t - t0 + 1) * st;
          std::copy(seg + static_cast<std::size_t>(t - t0) * st, seg + static_cast<std::size_t>(t - t0 + 1) * st, nxt);
          step(nxt, t, h, w);
        }
        for (int t = t1 - 1; t >= t0; --t) {
          const S* Sp = seg + static_cast<std::size_t>(t - t0) * st;
          const S* Sc = Sp + st;
          const std::size_t hk = static_cast<std::size_t>(t) * static_cast<std::size_t>(kq_) + static_cast<std::size_t>(h) * static_cast<std::size_t>(n);
          const std::size_t hv = static_cast<std::size_t>(t) * static_cast<std::size_t>(vw_) + static_cast<std::size_t>(h) * static_cast<std::size_t>(dv);
          const std::size_t ha = static_cast<std::size_t>(t) * static_cast<std::size_t>(H) + static_cast<std::size_t>(h);
          const S* q = w.qn.data() + hk;
          const S* k = w.kn.data() + hk;
          const S* v = w.v.data() + hv;
          const S* dout = w.dob.data() + hv;
          const S a = w.alpha[ha];
          // readout o = S_t^T q^
          S* dq = w.dqn.data() + hk;
          for (int i = 0; i < n; ++i) {
            const S* row = Sc + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
            S* drow = dS + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
            dq[i] = dot(row, dout, dv);
            const S qi = q[i];
            for (int j = 0; j < dv; ++j) drow[j] += qi * dout[j];
          }
          // through tanh: dpre = dS (1 - S_t^2), in place
          if (uses_tanh(c_.variant))
            for (std::size_t e = 0; e < st; ++e) dS[e] *= S(1) - Sc[e] * Sc[e];
          S da = 0;
          {
            S acc[8] = {};
            std::size_t e = 0;
            for (; e + 8 <= st; e += 8)
              for (int l = 0; l < 8; ++l) acc[l] += dS[e + static_cast<std::size_t>(l)] * Sp[e + static_cast<std::size_t>(l)];
            for (; e < st; ++e) acc[0] += dS[e] * Sp[e];
            da = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
          }
          w.dalpha[ha] = da;
          // ddelta = dpre^T k^ (or dv for the simple variant)
          std::fill(ddelta, ddelta + dv, S(0));
          for (int i = 0; i < n; ++i) {
            const S* drow = dS + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
            const S ki = k[i];
            for (int j = 0; j < dv; ++j) ddelta[j] += ki * drow[j];
          }
          S* dvt = w.dvbuf.data() + hv;
          for (int j = 0; j < dv; ++j) dvt[j] = ddelta[j];
          S* dkt = w.dkn.data() + hk;
          if (!uses_delta_rule(c_.variant)) {
            for (int i = 0; i < n; ++i) dkt[i] = dot(dS + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv), v, dv);
            for (std::size_t e = 0; e < st; ++e) dS[e] *= a;
          } else {
            // delta = v - S_{t-1}^T k^
            for (int j = 0; j < dv; ++j) delta[j] = v[j];
            for (int i = 0; i < n; ++i) {
              const S* row = Sp + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
              const S ki = k[i];
              for (int j = 0; j < dv; ++j) delta[j] -= row[j] * ki;
            }
            for (int i = 0; i < n; ++i) {
              const S* drow = dS + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
              const S* row = Sp + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
              dkt[i] = dot(drow, delta, dv) - dot(row, ddelta, dv);
            }
            // carry: dS_{t-1} = alpha dpre - k^ ddelta^T
            for (int i = 0; i < n; ++i) {
              S* drow = dS + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
              const S ki = k[i];
              for (int j = 0; j < dv; ++j) drow[j] = a * drow[j] - ki * ddelta[j];
            }
          }
        }
      }
    }
    // alpha = exp(gam), gam = -exp(A_log) softplus(z), z = u W_a + dt_bias
    for (int t = 0; t < T; ++t)
      for (int h = 0; h < H; ++h) {
        const std::size_t i = static_cast<std::size_t>(t) * static_cast<std::size_t>(H) + static_cast<std::size_t>(h);
        const S eA = std::exp(p[A_log_ + static_cast<std::size_t>(h)]);
        const S sp = softplus_s(w.z[i]);
        const S dgam = w.dalpha[i] * w.alpha[i];
        g[A_log_ + static_cast<std::size_t>(h)] += dgam * (-eA * sp);
        w.dz[i] = dgam * (-eA) * sigmoid_s(w.z[i]);
      }
    // L2 normalisation and silu back to the projection pre-activations:
    //   x^ = x / (N + eps):  dx = dx^ / (N + eps) - x (x . dx^) / (N (N + eps)^2)
    for (int t = 0; t < T; ++t) {
      const S* Pt = w.P.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(wq_);
      S* dPt = w.dP.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(wq_);
      for (int h = 0; h < H; ++h)
        for (int which = 0; which < 2; ++which) {
          const std::size_t off = static_cast<std::size_t>(t) * static_cast<std::size_t>(kq_) + static_cast<std::size_t>(h) * static_cast<std::size_t>(n);
          const S* xn = (which == 0 ? w.qn : w.kn).data() + off;
          const S* dxn = (which == 0 ? w.dqn : w.dkn).data() + off;
          const S N = (which == 0 ? w.qnorm : w.knorm)[static_cast<std::size_t>(t) * static_cast<std::size_t>(H) + static_cast<std::size_t>(h)];
          const S inv = S(1) / (N + S(1e-6));
          // x = xn (N + eps), so x (x . dxn) / (N (N+eps)^2) = xn (xn . dxn) (N + eps) / N * inv
          const S proj = N > S(0) ? dot(xn, dxn, n) / N : S(0);
          const S* pre = Pt + which * kq_ + h * n;
          S* dpre = dPt + which * kq_ + h * n;
          for (int i = 0; i < n; ++i) dpre[i] = (dxn[i] * inv - xn[i] * proj) * silu_grad_s(pre[i]);
        }
      const S* dvt = w.dvbuf.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(vw_);
      for (int j = 0; j < vw_; ++j) dPt[2 * kq_ + j] = dvt[j] * silu_grad_s(Pt[2 * kq_ + j]);
    }
    linear_backward(du, g + W_qkv_, static_cast<S*>(nullptr), w.dP.data(), u, w.WqkvT.data(), T, d, wq_);
    linear_backward(du, g + W_a_, g + dt_bias_, w.dz.data(), u, w.WaT.data(), T, d, H, true);
    if (c_.gate) linear_backward(du, g + W_g_, static_cast<S*>(nullptr), w.dG.data(), u, w.WgT.data(), T, d, vw_, true);
  }

 private:
  /// One recurrence step of head h at time t, in place on S (n x d_v).
  void step(S* Sm, int t, int h, workspace& w) const {
    const int n = c_.n_state, dv = c_.head_v;
    const S* k = w.kn.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(kq_) + static_cast<std::size_t>(h) * static_cast<std::size_t>(n);
    const S* v = w.v.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(vw_) + static_cast<std::size_t>(h) * static_cast<std::size_t>(dv);
    const S a = w.alpha[static_cast<std::size_t>(t) * static_cast<std::size_t>(c_.heads) + static_cast<std::size_t>(h)];
    S dl[max_head_v];
    if (!uses_delta_rule(c_.variant)) {
      for (int j = 0; j < dv; ++j) dl[j] = v[j];
    } else {
      for (int j = 0; j < dv; ++j) dl[j] = v[j];
      for (int i = 0; i < n; ++i) {
        const S* row = Sm + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
        const S ki = k[i];
        for (int j = 0; j < dv; ++j) dl[j] -= row[j] * ki;
      }
    }
    if (!uses_tanh(c_.variant)) {
      for (int i = 0; i < n; ++i) {
        S* row = Sm + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
        const S ki = k[i];
        for (int j = 0; j < dv; ++j) row[j] = a * row[j] + ki * dl[j];
      }
    } else {
      for (int i = 0; i < n; ++i) {
        S* row = Sm + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
        const S ki = k[i];
        for (int j = 0; j < dv; ++j) row[j] = tanh_s(a * row[j] + ki * dl[j]);
      }
    }
  }

  /// o_t = S_t^T q^ for head h.
  void readout(const S* Sm, int t, int h, workspace& w) const {
    const int n = c_.n_state, dv = c_.head_v;
    const S* q = w.qn.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(kq_) + static_cast<std::size_t>(h) * static_cast<std::size_t>(n);
    S* o = w.o.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(vw_) + static_cast<std::size_t>(h) * static_cast<std::size_t>(dv);
    std::fill(o, o + dv, S(0));
    for (int i = 0; i < n; ++i) {
      const S* row = Sm + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
      const S qi = q[i];
      for (int j = 0; j < dv; ++j) o[j] += qi * row[j];
    }
  }

  static constexpr int max_head_v = 256;
  config c_{};
  int kq_ = 0, vw_ = 0, wq_ = 0;
  std::size_t W_qkv_ = 0, W_a_ = 0, dt_bias_ = 0, A_log_ = 0, W_g_ = 0, W_o_ = 0;
};

}  // namespace nn
BEM_NAMESPACE_END
