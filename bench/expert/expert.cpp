// bench/run expert: evaluating a random 32-input, 8-output circuit with every
// gate live on W = 256 lanes, eight ways, in one process on the same inputs:
//   ours  bem::gate_list::evaluate        the scheduled interpreter
//   peer  a plain switch interpreter      one switch per gate (written below)
//   bound memory_line_G                   straight-line code that loads every
//                                         operand from a scratch array and
//                                         stores every result there: an
//                                         interpreter's memory work with no
//                                         decoding and no dispatch, operand
//                                         addresses in the instructions
//   bound register_line_G                 the same with every operand offset
//                                         in a register (an immediate moved
//                                         there, one instruction each); an
//                                         interpreter's must be loaded from
//                                         its program (see gen.cpp)
//   ours  bem::compiled_circuit<C>::run   straight-line code from templates
//   peer  straight_line_G                 the same code as plain C++ statements
//   ours  bem::jit_circuit::evaluate      code generated at run time for the
//                                         gate list: the best back end this
//                                         CPU has, and AVX2 where that is
//                                         AVX-512 (its generation time is
//                                         printed too)
// G in {64, 128, 256, 512}; `ops` and `runs` are the size of the
// interpreter's program (gate_list::op_count, run_count).
// Each loop flips one input lane per iteration and XORs every output into a
// checksum; all eight checksums must agree (the bench fails otherwise), which
// also keeps every evaluation live. Timings are TSC ticks per live gate,
// the best of 7 repetitions, taken round-robin (each repetition times all
// eight in turn). Goals: interpreted under 1.2 ticks per live gate at
// G = 256 and 512 (smaller G pay the fixed cost of copying 32 inputs over
// fewer gates), and the same for the code generated at run time; compiled
// within 1.5x of straight-line code. RESULT ratio = switch interpreter time /
// ours (interpreted), goal 2.0.
#include "circuits.hpp"
#include "straight_line.hpp"

#include <bem/circuits/compiled.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/jit.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/platform/other_cpu.hpp>
#include <bem/machine/lanes.hpp>
#include <bem/prng.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

namespace {

constexpr std::size_t W = 256;
using word = bem::lane_word<W>;
constexpr int iterations = 20000, repeats = 7;

/// The peer: the plain interpreter a first implementation would write.
void switch_interpreter(const bem::gate_list& c, const word* in, word* out, word* v) {
  const std::size_t n = c.inputs();
  for (std::size_t i = 0; i < n; ++i) v[i] = in[i];
  const auto& gates = c.gates();
  for (std::size_t i = 0; i < gates.size(); ++i) {
    const bem::gate& g = gates[i];
    word r;
    switch (g.op) {
      case bem::gate_op::and_: r = v[g.a] & v[g.b]; break;
      case bem::gate_op::or_: r = v[g.a] | v[g.b]; break;
      case bem::gate_op::xor_: r = v[g.a] ^ v[g.b]; break;
      case bem::gate_op::not_: r = ~v[g.a]; break;
      case bem::gate_op::andn: r = v[g.a] & ~v[g.b]; break;
      case bem::gate_op::ternary:
        switch (g.tt) {
          case bem::ternary_tt::mux: r = (v[g.a] & v[g.b]) | (~v[g.a] & v[g.c]); break;
          case bem::ternary_tt::majority: r = (v[g.a] & v[g.b]) | (v[g.c] & (v[g.a] | v[g.b])); break;
          default: r = v[g.a] ^ v[g.b] ^ v[g.c]; break;
        }
        break;
    }
    v[n + i] = r;
  }
  const auto& outs = c.output_nodes();
  for (std::size_t k = 0; k < outs.size(); ++k) out[k] = v[outs[k]];
}

/// Operations the interpreter runs per evaluation (gate_list::op_count where
/// the header has it; the gate count for an interpreter without fusion).
template <class L>
std::size_t op_count(const L& l) {
  if constexpr (requires { l.op_count(); })
    return l.op_count();
  else
    return l.gate_count();
}

/// Runs the core at its working clock before anything is timed. TSC ticks
/// are constant-rate, so a core still ramping up from idle makes whatever is
/// timed first (G = 64, about 1 ms per repetition) look slower: on an idle
/// machine G = 64 read 3.0-3.5 ticks per gate without this, 2.2-2.3 under load.
std::uint64_t warm_up() {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  std::uint64_t x = 1;
  while (std::chrono::steady_clock::now() < until)
    for (int i = 0; i < 100000; ++i) x = bem::mix64(x + static_cast<std::uint64_t>(i));
  return x;
}

/// A memory line (gen.cpp) as an evaluator of words.
auto line(void (*f)(const char*, char*, char*)) {
  static_assert(sizeof(word) == expert_bench::line_word_bytes);
  return [f](const word* in, word* out, word* v) {
    f(reinterpret_cast<const char*>(in), reinterpret_cast<char*>(out), reinterpret_cast<char*>(v));
  };
}

struct timing {
  double ticks_per_eval = 1e300;  // the best repetition so far
  std::uint64_t checksum = 0;
};

/// One repetition of `iterations` evaluations of `eval(in, out)` from the
/// same inputs every time (so every repetition has the same checksum); keeps
/// the best TSC ticks per evaluation in t.
template <class F>
void measure_once(F&& eval, timing& t) {
  bem::xoshiro256ss rng(42);
  std::vector<word> in(32);
  for (auto& w : in)
    for (auto& x : w.words()) x = rng.next();
  word out[8], acc = word::zeros();
  const std::uint64_t t0 = bem::read_tsc_begin();
  for (int i = 0; i < iterations; ++i) {
    eval(in.data(), out);
    for (const auto& y : out) acc ^= y;
    const std::size_t bit = static_cast<std::size_t>(i) % 32, lane = (static_cast<std::size_t>(i) * 7919u) % W;
    in[bit].flip_lane(lane);
  }
  const std::uint64_t t1 = bem::read_tsc_end();
  t.ticks_per_eval = std::min(t.ticks_per_eval, static_cast<double>(t1 - t0) / iterations);
  std::uint64_t sum = 0;
  for (auto x : acc.words()) sum = bem::mix64(sum ^ x);
  t.checksum = sum;
}

struct row {
  double ours_interp, peer_interp, memory_line, register_line, ours_compiled, peer_compiled, ours_jit, ours_jit_avx2;
  std::size_t live, ops, runs, jit_ops;
  double jit_generation_us;
  bool agree;
};

template <const auto& C, class Straight, class Memory, class Register>
row bench_circuit(Straight straight, Memory memory, Register registers) {
  const bem::gate_list list = C.to_gate_list();
  const auto generation_start = std::chrono::steady_clock::now();
  const bem::jit_circuit jit(list);
  jit.prepare<word>();
  const double generation_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - generation_start).count();
  const bem::jit_circuit jit_avx2(list, {bem::jit_backend::avx2});
  std::vector<word> scratch(list.scratch_size()), peer_scratch(list.scratch_size()), line_scratch(C.n + C.g),
      jit_scratch(jit.scratch_size()), jit_avx2_scratch(jit_avx2.scratch_size());
  // Round-robin: each repetition times all eight once, so that a slow spell
  // of this shared machine (30% between runs is common) slows every column
  // alike instead of one, and the ratios between columns stay meaningful.
  timing ours, peer, memory_line, register_line, compiled, straight_line, generated, generated_avx2;
  for (int r = 0; r < repeats; ++r) {
    measure_once(
        [&](const word* in, word* out) {
          list.evaluate(std::span<const word>(in, 32), std::span<word>(out, 8), std::span<word>(scratch));
        },
        ours);
    measure_once([&](const word* in, word* out) { switch_interpreter(list, in, out, peer_scratch.data()); }, peer);
    measure_once([&](const word* in, word* out) { memory(in, out, line_scratch.data()); }, memory_line);
    measure_once([&](const word* in, word* out) { registers(in, out, line_scratch.data()); }, register_line);
    measure_once([&](const word* in, word* out) { bem::compiled_circuit<C>::run(in, out); }, compiled);
    measure_once(straight, straight_line);
    measure_once(
        [&](const word* in, word* out) {
          jit.evaluate(std::span<const word>(in, 32), std::span<word>(out, 8), std::span<word>(jit_scratch));
        },
        generated);
    measure_once(
        [&](const word* in, word* out) {
          jit_avx2.evaluate(std::span<const word>(in, 32), std::span<word>(out, 8), std::span<word>(jit_avx2_scratch));
        },
        generated_avx2);
  }
  const double live = static_cast<double>(list.live_gates());
  return {ours.ticks_per_eval / live,
          peer.ticks_per_eval / live,
          memory_line.ticks_per_eval / live,
          register_line.ticks_per_eval / live,
          compiled.ticks_per_eval / live,
          straight_line.ticks_per_eval / live,
          generated.ticks_per_eval / live,
          generated_avx2.ticks_per_eval / live,
          list.live_gates(),
          op_count(list),
          list.run_count(),
          jit.op_count(),
          generation_us,
          ours.checksum == peer.checksum && ours.checksum == memory_line.checksum &&
              ours.checksum == register_line.checksum && ours.checksum == compiled.checksum &&
              ours.checksum == straight_line.checksum && ours.checksum == generated.checksum &&
              ours.checksum == generated_avx2.checksum};
}

}  // namespace

int main() {
  // Other processes' share of the machine while this bench runs (bem/platform/other_cpu.hpp).
  const bem::other_cpu_meter other_cpu;
  [[maybe_unused]] volatile std::uint64_t warm = warm_up();  // volatile: the spin stays
  const row rows[] = {
      bench_circuit<expert_bench::circuit64>([](const word* in, word* out) { straight_line_64(in, out); },
                                             line(expert_bench::memory_line_64), line(expert_bench::register_line_64)),
      bench_circuit<expert_bench::circuit128>([](const word* in, word* out) { straight_line_128(in, out); },
                                             line(expert_bench::memory_line_128), line(expert_bench::register_line_128)),
      bench_circuit<expert_bench::circuit256>([](const word* in, word* out) { straight_line_256(in, out); },
                                             line(expert_bench::memory_line_256), line(expert_bench::register_line_256)),
      bench_circuit<expert_bench::circuit512>([](const word* in, word* out) { straight_line_512(in, out); },
                                             line(expert_bench::memory_line_512), line(expert_bench::register_line_512))};
  std::printf("expert evaluation, n = 32, m = 8, W = %zu, TSC ticks per live gate (best of %d x %d evaluations)\n", W,
              repeats, iterations);
  std::printf("%-6s %-6s %5s %5s %12s %12s %8s %12s %12s %8s %12s %12s %8s %7s\n", "G", "live", "ops", "runs",
              "ours interp", "switch", "ratio", "memory line", "register ln", "ours/reg", "ours compil", "straight",
              "ratio", "agree");
  bool agree = true;
  double interp_worst = 0, register_line_worst = 0, compiled_ratio = 0, ratio = 1e300;
  for (const row& r : rows) {
    std::printf("%-6zu %-6zu %5zu %5zu %12.3f %12.3f %8.2f %12.3f %12.3f %8.2f %12.3f %12.3f %8.2f %7s\n", r.live,
                r.live, r.ops, r.runs, r.ours_interp, r.peer_interp, r.peer_interp / r.ours_interp, r.memory_line,
                r.register_line, r.ours_interp / r.register_line, r.ours_compiled, r.peer_compiled,
                r.peer_compiled / r.ours_compiled, r.agree ? "yes" : "NO");
    agree = agree && r.agree;
    if (r.live >= 256) {
      interp_worst = std::max(interp_worst, r.ours_interp);
      register_line_worst = std::max(register_line_worst, r.register_line);
    }
    compiled_ratio = std::max(compiled_ratio, r.ours_compiled / r.peer_compiled);
    ratio = std::min(ratio, r.peer_interp / r.ours_interp);
  }
  // The same rows, for the code generated at run time: its program size,
  // how long generating it took, and its time beside the interpreter's and
  // the compiler's for the same circuit.
  std::printf("\nrun-time generated code (jit_circuit, back end %s), same runs\n",
              bem::jit_backend_name(bem::best_jit_backend()));
  std::printf("%-6s %5s %14s %12s %12s %12s %12s %12s\n", "G", "ops", "generation us", "ours jit", "straight",
              "jit/straight", "interp/jit", "jit (avx2)");
  double jit_worst = 0;
  for (const row& r : rows) {
    std::printf("%-6zu %5zu %14.1f %12.3f %12.3f %12.2f %12.2f %12.3f\n", r.live, r.jit_ops, r.jit_generation_us,
                r.ours_jit, r.peer_compiled, r.ours_jit / r.peer_compiled, r.ours_interp / r.ours_jit,
                r.ours_jit_avx2);
    if (r.live >= 256) jit_worst = std::max(jit_worst, r.ours_jit);
  }
  if (!agree) {
    std::printf("checksums disagree: an evaluator is wrong\n");
    return 1;
  }
  std::printf("goal: interpreted under 1.2 ticks per live gate at G = 256, 512: worst %.3f (%s)\n", interp_worst,
              interp_worst < 1.2 ? "met" : "not met");
  std::printf("bound: the register line (no decoding, no dispatch) at G = 256, 512: worst %.3f\n", register_line_worst);
  std::printf("run-time generated code (jit_circuit) under 1.2 ticks per live gate at G = 256, 512: worst %.3f (%s)\n",
              jit_worst, jit_worst < 1.2 ? "met" : "not met");
  std::printf("goal: compiled within 1.5x of straight-line code: worst %.2fx (%s)\n", compiled_ratio,
              compiled_ratio <= 1.5 ? "met" : "not met");
  const double other = other_cpu.share();
  std::fputs(bem::other_cpu_warning(other).c_str(), stdout);
  std::printf("RESULT name=expert ratio=%.2f goal=2.0 %s\n", ratio, bem::other_cpu_field(other).c_str());
  return 0;
}
