// Generated guarded-command programs for HOARE_CHECK's cost (the Hoare half
// of the BEM suite's microbenchmark 2.4), documented as the specification
// requires, SAFE and UNSAFE both.
//
// Program `index` of cell (registers r, width w, edges e) under run seed s:
//   rng = xoshiro256** seeded with derive_seed(s, 0x40a2e7c3, r << 40 | w << 32 | e, index)
//   variables: the index i, the accumulator a, registers x_0 .. x_{r-1}, all
//     unsigned of w bits; constants M = 1 + rng.uniform_below(2^(w-2) - 1)
//     (so M * k and i + 1 never wrap) and k = 1 + rng.uniform_below(3);
//   locations: head (initial, Init: i == 0 && a == 0) and exit;
//   e loop edges head -> head, edge j drawn in order:
//     p = rng.uniform_below(r), c = 1 + rng.uniform_below(2^w - 1),
//     cmp = rng.uniform_below(3) (0: x_p < c, 1: x_p != c, 2: x_p >= c - 1,
//     each satisfiable for some x_p), q = rng.uniform_below(r),
//     s = rng.uniform_below(r), op = rng.uniform_below(3) (0: +, 1: ^, 2: &);
//     the edge: guarded(i < M && x_p cmp c,
//                       {i := i + 1, a := a + k, x_q := x_q op x_s});
//   the exit edge head -> exit: assume(i >= M);
//   BAD: i > M, or a != k * i (the accumulator lost count).
// The annotations P_head = (i <= M && a == k * i) and P_exit = (i == M &&
// a == k * M) are an inductive invariant excluding BAD: SAFE, every VC
// UNSAT. The UNSAFE variant changes edge 0's bound to i <= M: from a state
// with i == M and x_p meeting the guard the edge reaches i = M + 1, so its
// consecution VC is SAT (and a counterexample exists for every draw).
// Sizes grow with w (the multiplication k * i is bit-blasted), e (one
// consecution VC per edge) and r (the guards' and assignments' registers).
// Everything comes from bem's PRNG (bem/prng.hpp): the same (s, r, w, e,
// index) gives the same program on every machine.
#pragma once

#include <bem/prng.hpp>
#include <bem/prover/hoare/check.hpp>
#include <bem/prover/hoare/language.hpp>
#include <bem/version.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {
namespace hoare {

/// One cell of the program distribution.
struct random_program_cell {
  int registers = 4;  ///< r >= 1
  int width = 16;     ///< w in [4, 32]
  int edges = 4;      ///< e >= 1 loop edges
  void validate() const {
    if (registers < 1 || registers > 256) throw std::invalid_argument("random_program: registers must lie in [1, 256]");
    if (width < 4 || width > 32) throw std::invalid_argument("random_program: width must lie in [4, 32]");
    if (edges < 1 || edges > 4096) throw std::invalid_argument("random_program: edges must lie in [1, 4096]");
  }
};

/// A generated program with its annotations.
struct random_program {
  cfg graph;
  annotations invariant;
  std::size_t unsafe_edge = 0;  ///< the edge the UNSAFE variant widened (edge 0)
};

inline constexpr std::uint64_t random_program_stream = 0x40a2e7c3;

/// Program `index` of `cell` under `seed`, SAFE or UNSAFE (file comment).
inline random_program make_random_program(const random_program_cell& cell, std::uint64_t seed, std::uint64_t index,
                                          bool safe) {
  cell.validate();
  const auto w = static_cast<std::uint64_t>(cell.width);
  xoshiro256ss rng(derive_seed(seed, random_program_stream,
                               static_cast<std::uint64_t>(cell.registers) << 40 | w << 32 |
                                   static_cast<std::uint64_t>(cell.edges),
                               index));
  random_program p;
  cfg& g = p.graph;
  const expr i = g.int_var("i", cell.width), a = g.int_var("a", cell.width);
  std::vector<expr> x;
  for (int j = 0; j < cell.registers; ++j) x.push_back(g.int_var("x" + std::to_string(j), cell.width));
  const auto M = static_cast<std::int64_t>(1 + rng.uniform_below((std::uint64_t{1} << (w - 2)) - 1));
  const auto k = static_cast<std::int64_t>(1 + rng.uniform_below(3));
  const location head = g.add_location("head"), done = g.add_location("exit");
  g.set_initial(head, i == 0 && a == 0);
  for (int j = 0; j < cell.edges; ++j) {
    const auto reg = [&] { return x[static_cast<std::size_t>(rng.uniform_below(static_cast<std::uint64_t>(cell.registers)))]; };
    const expr xp = reg();
    const auto c = static_cast<std::int64_t>(1 + rng.uniform_below((std::uint64_t{1} << w) - 1));
    const std::uint64_t cmp = rng.uniform_below(3);
    const expr xq = reg(), xs = reg();
    const std::uint64_t op = rng.uniform_below(3);
    const expr test = cmp == 0 ? xp < c : cmp == 1 ? xp != c : xp >= c - 1;
    const expr bound = (safe || j != 0) ? i < M : i <= M;
    const expr update = op == 0 ? xq + xs : op == 1 ? (xq ^ xs) : (xq & xs);
    g.add_edge(head, head, guarded(bound && test, {{i, i + 1}, {a, a + k}, {xq, update}}));
  }
  g.add_edge(head, done, assume(i >= M));
  g.set_bad(i > M || a != i * k);
  p.invariant = {{head, i <= M && a == i * k}, {done, i == M && a == i * k}};
  return p;
}

}  // namespace hoare
}  // namespace prover
BEM_NAMESPACE_END
