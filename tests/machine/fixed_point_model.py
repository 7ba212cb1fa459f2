#!/usr/bin/env python3
"""An independent model of the machine's fixed-point mid path and selection.

fixed_point_model.py [--check FILE | --write FILE]

Written from the text of include/bem/machine/fixed_point.hpp and
include/bem/machine/selection.hpp (their file comments are the
specification), not from their code: Python integers, no floating point
except where the text itself says so (q16_16::from_double for parameters).
It prints, one per line, the values of the fixed-point functions at fixed
arguments and the action sequences of two seeded runs of the selection rule
(`select_top` with k = 1, and `sample`), with the final learning state.
tests/machine/fixed_point.cpp compares the C++ code with this output, which
is committed as tests/machine/fixed_point_expected.txt; --check FILE fails
when the committed file is not what this model computes (so the file is
never edited by hand), --write FILE rewrites it.

The seeded runs (the same in tests/machine/fixed_point.cpp):
  2 tasks, 8 experts; candidates, in the router's order: task 0
  [3, 1, 4, 0, 5, 2, 7, 6], task 1 the reverse. Step t = 0..2999 serves task
  t % 2; the chosen expert i gets the reward
      raw = min(65536, (env.next() >> 48) * (i + 1) // 8)
  from env = xoshiro256**(2026), and every 25 steps the mid-path update runs.
  Run "top": select_top, k = 1, c_explore = sqrt(2), log-weights c_eta = 0.1,
  eps = 1e-8, L_max = 1, dz_max = 0.5.
  Run "sample": sample with sel = xoshiro256**(7), c_explore = 0.5, c_eta =
  0.5, eps = 1e-8, L_max = 1, dz_max = 0.25.
"""
import decimal
import math
import sys

M64 = (1 << 64) - 1


# ---- bem/prng.hpp ---------------------------------------------------------
def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


class Xoshiro:
    def __init__(self, seed):
        self.s = []
        st = seed & M64
        for _ in range(4):
            st, z = splitmix64(st)
            self.s.append(z)

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def uniform_below(self, n):
        threshold = ((1 << 64) - n) % n
        while True:
            m = self.next() * n
            if (m & M64) >= threshold:
                return m >> 64


# ---- fixed_point.hpp ------------------------------------------------------
def q16_from_double(v):
    """q16_16::from_double: round to nearest, ties away from zero, saturate."""
    r = v * 65536.0
    r = math.floor(r + 0.5) if r >= 0 else -math.floor(-r + 0.5)
    return max(-(1 << 31), min((1 << 31) - 1, r))


decimal.getcontext().prec = 80
LN2_Q32 = int((decimal.Decimal(2).ln() * (1 << 32)).to_integral_value())
LOG2E_Q32 = int(((1 / decimal.Decimal(2).ln()) * (1 << 32)).to_integral_value())
EXP2_NEG_Q32 = [0] + [int((decimal.Decimal(2) ** (-(decimal.Decimal(2) ** -j)) * (1 << 32)).to_integral_value())
                      for j in range(1, 17)]


def isqrt(x):
    return math.isqrt(x)


def log2_q16(n):
    n = max(1, n)
    k = n.bit_length() - 1
    y = n << (63 - k)
    frac = 0
    for _ in range(16):
        y = (y * y) >> 63
        frac <<= 1
        if y >= 1 << 64:
            frac |= 1
            y >>= 1
    return (k << 16) | frac


def ln_q16(n):
    return (log2_q16(n) * LN2_Q32) >> 32


def sqrt_q16(x):
    return isqrt(x << 16)


def exp2_neg_q32(y):
    a, f = y >> 16, y & 0xFFFF
    r = 1 << 32
    for j in range(1, 17):
        if (f >> (16 - j)) & 1:
            r = (r * EXP2_NEG_Q32[j]) >> 32
    return 0 if a >= 33 else r >> a


def exp_neg_q32(d):
    y = (d * LOG2E_Q32) >> 32
    return 0 if y >= 1 << 40 else exp2_neg_q32(y)


# ---- selection.hpp --------------------------------------------------------
class Table:
    def __init__(self, tasks, experts):
        self.tasks, self.experts = tasks, experts
        self.visits = [[0] * experts for _ in range(tasks)]
        self.wins = [[0] * experts for _ in range(tasks)]
        self.n = [0] * tasks
        self.z = [0] * experts
        self.lp = [0] * experts
        self.vp = [0] * experts
        self.s = 0

    def score(self, task, i, c):
        v = max(1, self.visits[task][i])
        mean = self.wins[task][i] // v
        ratio = ln_q16(max(1, self.n[task])) // v
        return mean + ((c * sqrt_q16(ratio) + (1 << 15)) >> 16)

    def select_top1(self, task, cands, c):
        best, best_score = None, None
        for i in cands:  # ties keep the earlier candidate
            sc = self.score(task, i, c)
            if best is None or sc > best_score:
                best, best_score = i, sc
        return best

    def sample(self, task, cands, rng, c):
        logit = [self.z[i] + self.score(task, i, c) for i in cands]
        m = max(logit)
        w = [exp_neg_q32(m - x) for x in logit]
        u = rng.uniform_below(sum(w))
        for i, wi in zip(cands, w):
            if u < wi:
                return i
            u -= wi
        raise AssertionError("unreachable")

    def record(self, task, i, r):
        self.visits[task][i] += 1
        self.wins[task][i] += r
        self.n[task] += 1
        self.lp[i] += 65536 - r
        self.vp[i] += 1

    def update(self, c_eta, eps, loss_max, step_max):
        g = {}
        for i in range(self.experts):
            if self.vp[i]:
                g[i] = min(self.lp[i] // self.vp[i], loss_max)
                self.s = min(M64, self.s + g[i] * g[i])
        if not g:
            return
        eta = (c_eta << 16) // max(1, isqrt(min(M64, self.s + eps)))
        for i, gi in g.items():
            step = min((eta * gi + (1 << 15)) >> 16, step_max)
            self.z[i] = max(-(1 << 31), min((1 << 31) - 1, self.z[i] - step))
            self.lp[i] = self.vp[i] = 0


def eps_q32(eps):
    e = eps * 4294967296.0
    e = math.floor(e + 0.5)
    return max(1, e)


def run(mode):
    t = Table(2, 8)
    order = [3, 1, 4, 0, 5, 2, 7, 6]
    cands = [order, order[::-1]]
    env = Xoshiro(2026)
    sel = Xoshiro(7)
    if mode == "top":
        c, lw = q16_from_double(math.sqrt(2)), (0.1, 1e-8, 1.0, 0.5)
    else:
        c, lw = q16_from_double(0.5), (0.5, 1e-8, 1.0, 0.25)
    c_eta, eps, loss_max, step_max = (q16_from_double(lw[0]), eps_q32(lw[1]), q16_from_double(lw[2]),
                                      q16_from_double(lw[3]))
    actions = []
    for step in range(3000):
        task = step % 2
        i = t.select_top1(task, cands[task], c) if mode == "top" else t.sample(task, cands[task], sel, c)
        actions.append(i)
        r = min(65536, (env.next() >> 48) * (i + 1) // 8)
        t.record(task, i, r)
        if step % 25 == 24:
            t.update(c_eta, eps, loss_max, step_max)
    return actions, t


def lines():
    out = []
    out.append("log2_q16 " + " ".join(str(log2_q16(n)) for n in
                                      list(range(1, 65)) + [1000, 65535, 65536, 10 ** 9, M64]))
    out.append("ln_q16 " + " ".join(str(ln_q16(n)) for n in [1, 2, 3, 10, 100, 12345, 10 ** 6, 2 ** 40]))
    out.append("sqrt_q16 " + " ".join(str(sqrt_q16(x)) for x in [0, 1, 2, 65536, 131072, 10 ** 6, 2 ** 31 - 1]))
    out.append("exp2_neg_q32 " + " ".join(str(exp2_neg_q32(y)) for y in
                                          [0, 1, 0x8000, 0xFFFF, 0x10000, 0x18000, 5 << 16, 31 << 16,
                                           (32 << 16) + 1, 33 << 16, 123456789]))
    out.append("exp_neg_q32 " + " ".join(str(exp_neg_q32(d)) for d in [0, 1, 65536, 3 * 65536, 10 ** 7, 1 << 40]))
    out.append("exp2_table " + " ".join(str(v) for v in EXP2_NEG_Q32[1:]))
    for mode in ("top", "sample"):
        actions, t = run(mode)
        out.append(f"{mode}_actions " + "".join(str(a) for a in actions))
        out.append(f"{mode}_z " + " ".join(str(v) for v in t.z))
        out.append(f"{mode}_S {t.s}")
        out.append(f"{mode}_visits " + " ".join(str(v) for row in t.visits for v in row))
        out.append(f"{mode}_wins " + " ".join(str(v) for row in t.wins for v in row))
    return out


def main(argv):
    text = "\n".join(lines()) + "\n"
    if len(argv) == 3 and argv[1] == "--write":
        with open(argv[2], "w") as f:
            f.write(text)
        return 0
    if len(argv) == 3 and argv[1] == "--check":
        with open(argv[2]) as f:
            committed = f.read()
        if committed != text:
            print(f"{argv[2]} is not what the model computes: run {argv[0]} --write {argv[2]}")
            return 1
        print(f"{argv[2]}: the model's output, {len(text.splitlines())} lines")
        return 0
    if len(argv) == 1:
        sys.stdout.write(text)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
