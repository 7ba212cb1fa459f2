#!/usr/bin/env python3
"""PyTorch side of bench/nn: the same E88-1L and Mamba2-4L as ordinary
PyTorch modules, trained from the weights and batches nn_bench exported.

    torch_peer.py DIR OURS_TXT

DIR holds NAME.layout / NAME.params / NAME.data / NAME.losses from nn_bench;
OURS_TXT its stdout. Weights are stored input-major (y = x @ W), exactly as
bem::nn keeps them, so the modules use x @ W. The same AdamW (decay only for
the blocks nn_bench marks), clip_grad_norm_(1.0), lr 1e-3, BCE with logits.

Written as a PyTorch user would: every projection, nonlinearity and norm runs
once over the whole (B, T) batch; only the recurrence loops over time, on
per-step tensors split off once with unbind (indexing x[:, t] inside the loop
instead makes autograd scatter each step's gradient into a zero tensor of
the whole sequence: backward becomes O(T^2)). Mamba2 is run in both
formulations people use, the sequential scan and the chunked SSD form
(ssd_minimal of the Mamba2 authors), and the faster one is the peer.

Timing as nn_bench's: the warm-up steps untimed, then tokens/s from the
median of the timed steps (config line: warmup, steps). Prints a table, the
loss cross-check (every step, warm-up included) and
    RESULT name=nn ratio=X goal=3 other_cpu=S
with X the smaller of the two models' throughput ratios (ours / PyTorch's
best) and S the largest share of the machine other processes used while any
side was timed (bench/other_cpu.py); above 0.10 a warning line says the
figure is unreliable.
"""
import math
import os
import statistics
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import other_cpu  # noqa: E402


def load(dirname, name):
    layout = []
    for line in open(f"{dirname}/{name}.layout"):
        n, r, c, d = line.split()
        layout.append((n, int(r), int(c), d == "1"))
    flat = np.fromfile(f"{dirname}/{name}.params", dtype=np.float32)
    params, off = {}, 0
    for n, r, c, d in layout:
        params[n] = torch.nn.Parameter(torch.from_numpy(flat[off:off + r * c].reshape(r, c).copy()))
        off += r * c
    assert off == flat.size
    return layout, params


def rmsnorm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * w


class E88(torch.nn.Module):
    """E88 (authors' form): delta rule inside tanh, q readout; the output gate
    when the weights have one (layers.L.W_g)."""

    def __init__(self, params, layers, H, n, dv):
        super().__init__()
        self.p = torch.nn.ParameterDict({k.replace(".", "_"): v for k, v in params.items()})
        self.layers, self.H, self.n, self.dv = layers, H, n, dv

    def g(self, name):
        return self.p[name.replace(".", "_")]

    def layer(self, l, u):
        g = lambda s: self.g(f"layers.{l}.{s}")
        B, T, _ = u.shape
        H, n, dv = self.H, self.n, self.dv
        qkv = F.silu(u @ g("W_qkv"))
        q = qkv[..., : H * n].reshape(B, T, H, n)
        k = qkv[..., H * n: 2 * H * n].reshape(B, T, H, n)
        v = qkv[..., 2 * H * n:].reshape(B, T, H, dv)
        q = q / (q.norm(dim=-1, keepdim=True) + 1e-6)
        k = k / (k.norm(dim=-1, keepdim=True) + 1e-6)
        alpha = torch.exp(-torch.exp(g("A_log")[0]) * F.softplus(u @ g("W_a") + g("dt_bias")[0]))
        # Time-major, split once: step t's tensors are contiguous (B, H, .) blocks.
        qs, ks, vs = (x.transpose(0, 1).contiguous().unbind(0) for x in (q, k, v))
        alphas = alpha.transpose(0, 1)[..., None, None].contiguous().unbind(0)
        S = u.new_zeros(B, H, n, dv)
        outs = []
        # The per-head products are 32 x 32: broadcast-and-sum beat batched
        # matmul and einsum for them in our trials (2 threads).
        for t in range(T):
            kt = ks[t].unsqueeze(-1)
            r = (kt * S).sum(-2)  # S^T k^
            S = torch.tanh(alphas[t] * S + kt * (vs[t] - r).unsqueeze(-2))
            outs.append((qs[t].unsqueeze(-1) * S).sum(-2))  # S^T q^
        o = torch.stack(outs, 1).reshape(B, T, H * dv)
        if f"layers_{l}_W_g" in self.p:
            o = o * F.silu(u @ g("W_g"))
        return o @ g("W_o")

    def forward(self, tokens):
        r = self.g("embedding")[tokens]
        for l in range(self.layers):
            r = r + self.layer(l, rmsnorm(r, self.g(f"layers.{l}.norm_w")[0]))
        return (rmsnorm(r, self.g("norm_f")[0]) @ self.g("head_w") + self.g("head_b")[0])[..., 0]


def segsum(x):
    T = x.size(-1)
    x = x[..., None].expand(*x.shape, T)
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool), diagonal=-1)
    x = x.masked_fill(~mask, 0)
    xs = torch.cumsum(x, dim=-2)
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool), diagonal=0)
    return xs.masked_fill(~mask, -torch.inf)


def ssd_minimal(X, A, Bm, Cm, block):
    """Chunked SSD (Mamba2 authors' ssd_minimal_discrete). X: b l h p, A: b l h, B, C: b l h n."""
    b, l, h, p = X.shape
    c = l // block
    X = X.reshape(b, c, block, h, p)
    A = A.reshape(b, c, block, h).permute(0, 3, 1, 2)
    Bm = Bm.reshape(b, c, block, h, -1)
    Cm = Cm.reshape(b, c, block, h, -1)
    A_cumsum = torch.cumsum(A, dim=-1)
    L = torch.exp(segsum(A))
    Y_diag = torch.einsum("bclhn,bcshn,bhcls,bcshp->bclhp", Cm, Bm, L, X)
    decay_states = torch.exp(A_cumsum[:, :, :, -1:] - A_cumsum)
    states = torch.einsum("bclhn,bhcl,bclhp->bchpn", Bm, decay_states, X)
    states = torch.cat([torch.zeros_like(states[:, :1]), states], dim=1)
    decay_chunk = torch.exp(segsum(F.pad(A_cumsum[:, :, :, -1], (1, 0))))
    new_states = torch.einsum("bhzc,bchpn->bzhpn", decay_chunk, states)
    states = new_states[:, :-1]
    Y_off = torch.einsum("bclhn,bchpn,bhcl->bclhp", Cm, states, torch.exp(A_cumsum))
    return (Y_diag + Y_off).reshape(b, l, h, p)


class Mamba2(torch.nn.Module):
    def __init__(self, params, layers, d, N, expand=2, headdim=64, K=4, chunked=False):
        super().__init__()
        self.p = torch.nn.ParameterDict({k.replace(".", "_"): v for k, v in params.items()})
        self.layers, self.d, self.N, self.K = layers, d, N, K
        self.di = expand * d
        self.P = headdim
        self.nh = self.di // headdim
        self.cd = self.di + 2 * N
        self.chunked = chunked

    def g(self, name):
        return self.p[name.replace(".", "_")]

    def layer(self, l, u):
        g = lambda s: self.g(f"layers.{l}.{s}")
        Bsz, T, _ = u.shape
        di, cd, nh, P, N, K = self.di, self.cd, self.nh, self.P, self.N, self.K
        proj = u @ g("W_in")
        z, xr, dtr = proj[..., :di], proj[..., di:di + cd], proj[..., di + cd:]
        xbc = F.conv1d(xr.transpose(1, 2), g("conv_w")[:, None, :], g("conv_b")[0], padding=K - 1, groups=cd)
        xbc = F.silu(xbc[..., :T].transpose(1, 2))
        x = xbc[..., :di].reshape(Bsz, T, nh, P)
        Bm, Cm = xbc[..., di:di + N], xbc[..., di + N:]
        dt = F.softplus(dtr + g("dt_bias")[0])
        A = -torch.exp(g("A_log")[0])
        if self.chunked:
            y = ssd_minimal(x * dt[..., None], A * dt, Bm[:, :, None, :].expand(Bsz, T, nh, N),
                            Cm[:, :, None, :].expand(Bsz, T, nh, N), 64)
        else:
            a = torch.exp(dt * A)
            dtx = dt[..., None] * x
            # Time-major, split once (see E88.layer).
            a_s = a.transpose(0, 1)[..., None, None].contiguous().unbind(0)
            dtxs = dtx.transpose(0, 1)[..., None].contiguous().unbind(0)
            Bs = Bm.transpose(0, 1)[:, :, None, None, :].contiguous().unbind(0)
            Cs = Cm.transpose(0, 1)[:, :, None, None, :].contiguous().unbind(0)
            h = u.new_zeros(Bsz, nh, P, N)
            ys = []
            for t in range(T):
                h = a_s[t] * h + dtxs[t] * Bs[t]
                ys.append((h * Cs[t]).sum(-1))  # C . h per channel
            y = torch.stack(ys, 1)
        y = (y + g("D")[0][:, None] * x).reshape(Bsz, T, di)
        yn = rmsnorm(y * F.silu(z), g("gate_norm_w")[0])
        return yn @ g("W_out")

    def forward(self, tokens):
        r = self.g("embedding")[tokens]
        for l in range(self.layers):
            r = r + self.layer(l, rmsnorm(r, self.g(f"layers.{l}.norm_w")[0]))
        return (rmsnorm(r, self.g("norm_f")[0]) @ self.g("head_w") + self.g("head_b")[0])[..., 0]


def train(dirname, name, make, B, T, warmup, steps):
    """Runs every step nn_bench ran; returns (tokens/s of the median timed
    step, every step's loss, other processes' share during the timed steps)."""
    layout, params = load(dirname, name)
    model = make(params)
    decay = [params[n] for n, r, c, d in layout if d]
    nodecay = [params[n] for n, r, c, d in layout if not d]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": nodecay, "weight_decay": 0.0}],
                            lr=1e-3, betas=(0.9, 0.999), eps=1e-8)
    raw = np.fromfile(f"{dirname}/{name}.data", dtype=np.int32).reshape(warmup + steps, 2, B, T)
    losses, seconds = [], []
    meter = other_cpu.OtherCpuMeter()
    for s in range(warmup + steps):
        if s == warmup:
            meter.restart()
        t0 = time.perf_counter()
        x = torch.from_numpy(raw[s, 0].astype(np.int64))
        y = torch.from_numpy(raw[s, 1].astype(np.float32))
        logits = model(x)
        loss = F.binary_cross_entropy_with_logits(logits, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(list(params.values()), 1.0)
        opt.step()
        losses.append(loss.item())
        if s >= warmup:
            seconds.append(time.perf_counter() - t0)
    return B * T / statistics.median(seconds), losses, meter.share()


def main():
    dirname, ours_txt = sys.argv[1], sys.argv[2]
    torch.set_num_threads(2)
    ours = {}
    B = T = warmup = steps = None
    for line in open(ours_txt):
        if not line.startswith("ours "):
            if line.startswith("config "):
                kv = dict(f.split("=") for f in line.split()[1:])
                B, T = int(kv["batch"]), int(kv["length"])
                warmup, steps = int(kv["warmup"]), int(kv["steps"])
            continue
        kv = dict(f.split("=", 1) for f in line.split()[1:])
        share = math.nan if kv["other_cpu"] == "unknown" else float(kv["other_cpu"])
        ours[kv["model"]] = (float(kv["tokens_per_s"]), [float(v) for v in kv["losses"].split(",")], share)
    rows, ratios, ok = [], [], True
    peers = {
        "e88": [("sequential", lambda p: E88(p, 1, 16, 32, 32))],
        "mamba2": [("sequential scan", lambda p: Mamba2(p, 4, 64, 16)),
                   ("chunked SSD", lambda p: Mamba2(p, 4, 64, 16, chunked=True))],
    }
    for name, (our_tps, our_losses, our_share) in ours.items():
        best = None
        for label, make in peers[name]:
            tps, losses, share = train(dirname, name, make, B, T, warmup, steps)
            diff = max(abs(a - b) / max(abs(b), 1e-12) for a, b in zip(our_losses, losses))
            ok &= diff < 1e-4
            rows.append((name, "pytorch " + label, tps, losses, diff, share))
            best = tps if best is None else max(best, tps)
        rows.append((name, "bem::nn", our_tps, our_losses, 0.0, our_share))
        ratios.append((name, our_tps / best))
    print(f"B = {B}, T = {T}: {warmup} warm-up step(s), then the median of {steps} timed steps")
    print(f"{'model':8} {'implementation':24} {'tokens/s':>10} {'other_cpu':>9}  "
          "losses per step (max rel. diff to bem::nn)")
    for name, impl, tps, losses, diff, share in rows:
        print(f"{name:8} {impl:24} {tps:10.0f} {share:9.2f}  {', '.join(f'{l:.6f}' for l in losses)}  ({diff:.1e})")
    for name, r in ratios:
        print(f"ratio {name}: {r:.2f}x (bem::nn over PyTorch's best)")
    print(f"losses agree to 1e-4 relative: {'yes' if ok else 'NO'}")
    worst = min(r for _, r in ratios)
    # The worst side's share: either side slowed moves the ratio.
    shares = [row[5] for row in rows if not math.isnan(row[5])]
    share = max(shares) if shares else math.nan
    print(other_cpu.warning(share), end="")
    print(f"RESULT name=nn ratio={worst:.2f} goal=3 {other_cpu.field(share)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
