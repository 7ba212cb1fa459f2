// The safety-constrained program of bem_benchmark_suite_v0.0.1, section 5.3:
// a loop of T_large steps manipulating an index i and other registers, with
// the safety property S = (i in [0, M) and BAD never set) in the Hoare/VC
// form of bem's prover. This header is the program: its distribution, its
// concrete semantics (the interpreter an independent monitor runs) and its
// Hoare form. The BEM that runs it, as experts of a bem::machine, is
// bem/learn/safety_bem.hpp; docs/safety.md describes the benchmark.
//
// A program of shape (L instructions, width w, R registers), drawn from the
// run seed with bem's PRNG (bem/prng.hpp):
//   rng = xoshiro256ss(derive_seed(seed, fnv1a64("safety program"),
//                                  L << 16 | w << 8 | R));
//   M = 2 + rng.uniform_below(2^w - 2), the bound: M in [2, 2^w - 1];
//   then for each instruction k = 0..L-1 in order:
//     kind = rng.uniform_below(6), then its operands, in this order:
//       advance          none
//       stride           c = 1 + rng.uniform_below(M - 1)      (c in [1, M))
//       load             p = rng.uniform_below(R)
//       access           q = rng.uniform_below(R), s = rng.uniform_below(R)
//       mix              q, s as for access, op = rng.uniform_below(3)
//       reset            p = rng.uniform_below(R)
// The variables: pc (the loop's position, in [0, L)), i (w bits, unsigned),
// registers r_0..r_{R-1} (w bits, unsigned, arithmetic modulo 2^w) and the
// flag BAD. One step runs instruction pc, then pc := (pc == L - 1 ? 0 :
// pc + 1):
//   advance     i := (i == M - 1) ? 0 : i + 1
//   stride c    i := (i >= M - c) ? i - (M - c) : i + c
//   load p      i := (r_p < M) ? r_p : i
//   access q s  BAD := BAD || i >= M;  r_q := r_q ^ (r_s + i)   (a bounds-
//               checked access a[i]: the check sets BAD when i is out of range)
//   mix q s op  r_q := r_q + r_s, r_q ^ r_s or r_q - r_s (op 0, 1, 2)
//   reset p     i := (r_p & 1) == 1 ? 0 : i
// Every instruction keeps i < M from any state with i < M (none of them
// depends on pc for that), so S is an inductive invariant: no step from a
// state in S sets BAD or leaves [0, M).
//
// Lanes: the machine runs W copies of the process side by side (its W
// lanes); copy l starts from pc = 0, BAD = 0 and, drawn from
//   xoshiro256ss(derive_seed(seed, fnv1a64("safety lanes"), l)),
// i = uniform_below(M), then r_0..r_{R-1} = uniform_below(2^w) in order.
//
// The state as bits (`safety_layout`, the encoding the machine's STATE and
// the monitor share): pc in bits [0, p) with p = max(1, ceil(log2 L)), i in
// [p, p + w), BAD at p + w, r_j in [p + w + 1 + j w, + w); the program must
// fit 64 bits.
//
// The Hoare form (`safety_hoare_form`): one location `loop`, one edge per
// instruction guarded by pc == k, Init: pc == 0 && i < M && !BAD, BAD:
// BAD || i >= M, annotation S: i < M && !BAD (&& pc < L when L < 2^p).
// hoare_check proves it (tests/safety).
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/harness/reflected_parameters.hpp>
#include <bem/prng.hpp>
#include <bem/prover/hoare.hpp>
#include <bem/version.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace tasks {

/// The program's shape.
struct safety_program_spec {
  int instructions = 16;  ///< L, 2..64 (one routing shard per instruction)
  int width = 8;          ///< w, bits of i and of each register, 4..16
  int registers = 4;      ///< R, 1..8
};

/// The shape as a parameter struct.
struct safety_program_parameters {
  BOOST_HANA_DEFINE_STRUCT(safety_program_parameters, (int, instructions), (int, width), (int, registers));
  static void describe(parameter_schema<safety_program_parameters>& s) {
    s("instructions", 16).in(2, 64).doc("L, the loop body's instructions (each an expert, routed by pc)");
    s("width", 8).in(4, 16).doc("w, bits of the index i and of each register");
    s("registers", 4).in(1, 8).doc("R, registers besides i; the state must fit 64 bits");
  }
};

/// Where each variable lives in a lane's 64 state bits (file comment).
struct safety_layout {
  std::uint32_t pc_bits = 1, width = 8, registers = 4;
  std::uint32_t pc() const noexcept { return 0; }
  std::uint32_t i() const noexcept { return pc_bits; }
  std::uint32_t bad() const noexcept { return pc_bits + width; }
  std::uint32_t reg(std::uint32_t j) const noexcept { return pc_bits + width + 1 + j * width; }
  std::uint32_t bits() const noexcept { return reg(registers); }
};

/// One lane's program state.
struct safety_state {
  std::uint32_t pc = 0;
  std::uint32_t i = 0;
  bool bad = false;
  std::array<std::uint32_t, 8> r{};
  friend bool operator==(const safety_state&, const safety_state&) = default;
};

enum class safety_op : std::uint8_t { advance, stride, load, access, mix, reset };
inline constexpr int safety_op_count = 6;

constexpr const char* to_string(safety_op o) noexcept {
  switch (o) {
    case safety_op::advance: return "advance";
    case safety_op::stride: return "stride";
    case safety_op::load: return "load";
    case safety_op::access: return "access";
    case safety_op::mix: return "mix";
    case safety_op::reset: return "reset";
  }
  return "?";
}

/// One instruction of the loop body (operands as the file comment draws them).
struct safety_instruction {
  safety_op op = safety_op::advance;
  std::uint32_t c = 0;             ///< stride
  std::uint32_t p = 0, q = 0, s = 0;  ///< register operands
  std::uint32_t mix_op = 0;        ///< 0 +, 1 ^, 2 -
};

/// A drawn program: the bound M and the loop body.
class safety_program {
 public:
  safety_program(const safety_program_spec& spec, std::uint64_t seed) : spec_(spec) {
    if (spec.instructions < 2 || spec.instructions > 64) throw std::invalid_argument("safety_program: L must lie in [2, 64]");
    if (spec.width < 4 || spec.width > 16) throw std::invalid_argument("safety_program: width must lie in [4, 16]");
    if (spec.registers < 1 || spec.registers > 8) throw std::invalid_argument("safety_program: registers must lie in [1, 8]");
    const auto L = static_cast<std::uint32_t>(spec.instructions), w = static_cast<std::uint32_t>(spec.width),
               R = static_cast<std::uint32_t>(spec.registers);
    layout_ = {std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::bit_width(L - 1))), w, R};
    if (layout_.bits() > 64)
      throw std::invalid_argument("safety_program: the state needs " + std::to_string(layout_.bits()) +
                                  " bits (pc, i, BAD and the registers); at most 64 fit");
    xoshiro256ss rng(derive_seed(seed, fnv1a64("safety program"), std::uint64_t{L} << 16 | std::uint64_t{w} << 8 | R));
    mask_ = (std::uint32_t{1} << w) - 1;
    M_ = 2 + static_cast<std::uint32_t>(rng.uniform_below((std::uint64_t{1} << w) - 2));
    for (std::uint32_t k = 0; k < L; ++k) {
      safety_instruction x;
      x.op = static_cast<safety_op>(rng.uniform_below(safety_op_count));
      const auto reg = [&] { return static_cast<std::uint32_t>(rng.uniform_below(R)); };
      switch (x.op) {
        case safety_op::advance: break;
        case safety_op::stride: x.c = 1 + static_cast<std::uint32_t>(rng.uniform_below(M_ - 1)); break;
        case safety_op::load:
        case safety_op::reset: x.p = reg(); break;
        case safety_op::access: x.q = reg(), x.s = reg(); break;
        case safety_op::mix:
          x.q = reg(), x.s = reg();
          x.mix_op = static_cast<std::uint32_t>(rng.uniform_below(3));
          break;
      }
      body_.push_back(x);
    }
  }

  const safety_program_spec& spec() const noexcept { return spec_; }
  const safety_layout& layout() const noexcept { return layout_; }
  std::uint32_t bound() const noexcept { return M_; }  ///< M
  std::uint32_t length() const noexcept { return static_cast<std::uint32_t>(body_.size()); }  ///< L
  const std::vector<safety_instruction>& body() const noexcept { return body_; }

  /// S: i in [0, M) and BAD not set.
  bool safe(const safety_state& x) const noexcept { return x.i < M_ && !x.bad; }

  /// One step: instruction pc, then pc advances (file comment).
  void step(safety_state& x) const noexcept {
    const safety_instruction& k = body_[x.pc];
    switch (k.op) {
      case safety_op::advance: x.i = x.i == M_ - 1 ? 0 : (x.i + 1) & mask_; break;
      case safety_op::stride: x.i = x.i >= M_ - k.c ? x.i - (M_ - k.c) : (x.i + k.c) & mask_; break;
      case safety_op::load:
        if (x.r[k.p] < M_) x.i = x.r[k.p];
        break;
      case safety_op::access:
        x.bad = x.bad || x.i >= M_;
        x.r[k.q] = (x.r[k.q] ^ ((x.r[k.s] + x.i) & mask_)) & mask_;
        break;
      case safety_op::mix: {
        const std::uint32_t a = x.r[k.q], b = x.r[k.s];
        x.r[k.q] = (k.mix_op == 0 ? a + b : k.mix_op == 1 ? a ^ b : a - b) & mask_;
        break;
      }
      case safety_op::reset:
        if (x.r[k.p] & 1) x.i = 0;
        break;
    }
    x.pc = x.pc == length() - 1 ? 0 : x.pc + 1;
  }

  /// Copy `lane`'s initial state (file comment).
  safety_state initial_state(std::uint64_t seed, std::uint64_t lane) const {
    xoshiro256ss rng(derive_seed(seed, fnv1a64("safety lanes"), lane));
    safety_state x;
    x.i = static_cast<std::uint32_t>(rng.uniform_below(M_));
    for (int j = 0; j < spec_.registers; ++j) x.r[static_cast<std::size_t>(j)] = static_cast<std::uint32_t>(rng.uniform_below(mask_ + std::uint64_t{1}));
    return x;
  }

  /// The state as the layout's bits.
  std::uint64_t pack(const safety_state& x) const noexcept {
    std::uint64_t v = std::uint64_t{x.pc} | std::uint64_t{x.i} << layout_.i() | std::uint64_t{x.bad} << layout_.bad();
    for (std::uint32_t j = 0; j < layout_.registers; ++j) v |= std::uint64_t{x.r[j]} << layout_.reg(j);
    return v;
  }
  safety_state unpack(std::uint64_t v) const noexcept {
    safety_state x;
    const auto field = [&](std::uint32_t at, std::uint32_t n) {
      return static_cast<std::uint32_t>((v >> at) & ((std::uint64_t{1} << n) - 1));
    };
    x.pc = field(0, layout_.pc_bits);
    x.i = field(layout_.i(), layout_.width);
    x.bad = field(layout_.bad(), 1) != 0;
    for (std::uint32_t j = 0; j < layout_.registers; ++j) x.r[j] = field(layout_.reg(j), layout_.width);
    return x;
  }

  /// A one-line description, e.g. "M = 77; 0 advance; 1 stride 12; ...".
  std::string describe() const {
    std::string s = "M = " + std::to_string(M_);
    for (std::size_t k = 0; k < body_.size(); ++k) {
      const auto& x = body_[k];
      s += "; " + std::to_string(k) + " " + to_string(x.op);
      if (x.op == safety_op::stride) s += " " + std::to_string(x.c);
      if (x.op == safety_op::load || x.op == safety_op::reset) s += " r" + std::to_string(x.p);
      if (x.op == safety_op::access || x.op == safety_op::mix) s += " r" + std::to_string(x.q) + " r" + std::to_string(x.s);
      if (x.op == safety_op::mix) s += x.mix_op == 0 ? " +" : x.mix_op == 1 ? " ^" : " -";
    }
    return s;
  }

 private:
  safety_program_spec spec_;
  safety_layout layout_;
  std::uint32_t M_ = 2, mask_ = 0xFF;
  std::vector<safety_instruction> body_;
};

/// The program in the prover's Hoare form, with S as its annotation.
struct safety_hoare_form {
  prover::hoare::cfg graph;
  prover::hoare::annotations invariant;  ///< S at the loop location
  prover::hoare::expr pc = 0, i = 0, bad = false;  ///< the variables (set by make_safety_hoare_form)
  std::vector<prover::hoare::expr> r;
};

/// The Hoare form of `p` (file comment); variable order pc, i, BAD, r_0...
inline safety_hoare_form make_safety_hoare_form(const safety_program& p) {
  namespace h = prover::hoare;
  safety_hoare_form f;
  h::cfg& g = f.graph;
  const auto L = static_cast<std::int64_t>(p.length()), M = static_cast<std::int64_t>(p.bound());
  const int w = p.spec().width;
  f.pc = g.int_var("pc", static_cast<int>(p.layout().pc_bits));
  f.i = g.int_var("i", w);
  f.bad = g.bool_var("BAD");
  for (int j = 0; j < p.spec().registers; ++j) f.r.push_back(g.int_var("r" + std::to_string(j), w));
  const h::expr &pc = f.pc, &i = f.i, &bad = f.bad;
  const h::location loop = g.add_location("loop");
  g.set_initial(loop, pc == 0 && i < M && !bad);
  const h::expr next_pc = h::ite(pc == L - 1, 0, pc + 1);
  for (std::int64_t k = 0; k < L; ++k) {
    const safety_instruction& x = p.body()[static_cast<std::size_t>(k)];
    const h::expr guard = pc == k;
    std::vector<std::pair<h::expr, h::expr>> set{{pc, next_pc}};
    switch (x.op) {
      case safety_op::advance: set.push_back({i, h::ite(i == M - 1, 0, i + 1)}); break;
      case safety_op::stride: {
        const auto d = M - static_cast<std::int64_t>(x.c);
        set.push_back({i, h::ite(i >= d, i - d, i + static_cast<std::int64_t>(x.c))});
        break;
      }
      case safety_op::load: set.push_back({i, h::ite(f.r[x.p] < M, f.r[x.p], i)}); break;
      case safety_op::access:
        set.push_back({bad, bad || i >= M});
        set.push_back({f.r[x.q], f.r[x.q] ^ (f.r[x.s] + i)});
        break;
      case safety_op::mix: {
        const h::expr &a = f.r[x.q], &b = f.r[x.s];
        set.push_back({a, x.mix_op == 0 ? a + b : x.mix_op == 1 ? (a ^ b) : a - b});
        break;
      }
      case safety_op::reset: set.push_back({i, h::ite((f.r[x.p] & 1) == 1, 0, i)}); break;
    }
    g.add_edge(loop, loop, h::guarded(guard, set), std::to_string(k) + " " + to_string(x.op));
  }
  g.set_bad(bad || i >= M);
  h::expr S = i < M && !bad;
  if (L < (std::int64_t{1} << p.layout().pc_bits)) S = S && pc < L;
  f.invariant = {{loop, S}};
  return f;
}

}  // namespace tasks
BEM_NAMESPACE_END
