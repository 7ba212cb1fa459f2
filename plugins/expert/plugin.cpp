// Microbenchmark 2.3 of the BEM suite, expert evaluation cost, as the task
// `expert_eval`. For each representation, G and W: one expert e_G with
// n_i = 32 inputs read from STATE bits 0..31 and m_i = 8 outputs XORed into
// STATE bits 32..39, STATE initialised with pseudorandom bits, then L_loop
// iterations of
//     BEM_EXPERT_BATCH(e_G, STATE, SHARED)     (expert_batch::apply_all)
//     flip `flips` pseudorandom (bit, lane) positions of the inputs
// timed with bem::cycle_counter. The outputs accumulate (XOR) in STATE bits
// 32..39 and are folded into a 64-bit checksum written to SHARED word 0 and
// reported, so every evaluation is live. Before timing, each expert is
// checked non-trivial (bem::find_trivial_output: no output constant or equal
// to an input on 512 random assignments); a trivial one fails the run.
// Representations (parameter
// `representations`):
//   gate_list   the interpreted gate list (scheduled runs), mode "interpreted"
//   compiled    the same circuit as straight-line code, mode "compiled": a
//               fixed circuit per G generated at compile time
//               (static_random_circuit<32, G, 8>, seed 0x2303'0000 + G)
//   anf         random ANF with gate count about G (seeded by the run seed)
//   robdd       random ROBDD with about G internal nodes (run seed)
//   jit, anf_jit, robdd_jit
//               the circuit of gate_list, anf or robdd converted to a gate
//               list and compiled to machine code at run time
//               (bem::jit_circuit), mode "jit"; the condition says which back
//               end ran ("avx512", "avx2", or "interpreter" where the CPU
//               has neither)
// gate_list and compiled evaluate the same circuit, so their difference is
// interpretation alone; each *_jit row evaluates its twin's circuit on its
// twin's input stream, so their checksums are equal. Records per
// (representation, G, W), split "rep=gate_list,mode=interpreted,G=256,W=256":
//   checksum             deterministic, from SHARED
//   gates, live_gates    the representation's G and its live gates
//   cycles_per_batch     total cycles / L_loop ("cycles (estimated via TSC)"
//                        or "cycles (measured, perf_event_open)")
//   cycles_per_lane      cycles_per_batch / W
//   batches_per_second   clock_frequency_hz / cycles_per_batch
//   tsc_ticks_per_live_gate  TSC ticks per batch / live gates (steady_clock
//                            nanoseconds where there is no TSC: the unit says)
//   vector_bits          bits per vector instruction of the code that ran (as
//                        compiled; the generated code's for jit rows)
//   generated_ops        (jit rows) operations of the generated program
//   generation_us        (jit rows) time to generate the code, microseconds
// G and live gates are always the representation's own (an ANF's ANDs and
// XORs, an ROBDD's nodes), also in the jit rows.
// Parameters: expert_parameters below (`bem-bench list --parameters`).
#include <bem/harness/benchmark.hpp>
#include <bem/circuits/anf.hpp>
#include <bem/circuits/compiled.hpp>
#include <bem/circuits/convert.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/jit.hpp>
#include <bem/circuits/random_circuit.hpp>
#include <bem/circuits/robdd.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/machine/expert.hpp>
#include <bem/machine/lanes.hpp>
#include <bem/plugin/adapter.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

constexpr std::uint64_t circuit_seed(std::size_t g) { return 0x23030000u + g; }
constexpr auto circuit64 = bem::static_random_circuit<32, 64, 8>(circuit_seed(64));
constexpr auto circuit128 = bem::static_random_circuit<32, 128, 8>(circuit_seed(128));
constexpr auto circuit256 = bem::static_random_circuit<32, 256, 8>(circuit_seed(256));
constexpr auto circuit512 = bem::static_random_circuit<32, 512, 8>(circuit_seed(512));

constexpr std::size_t n_inputs = 32, n_outputs = 8, state_bits = 40;

/// The representations a run may ask for, the default being all of them.
constexpr std::array<const char*, 7> known_reps = {"gate_list", "compiled", "jit",      "anf",
                                                   "anf_jit",   "robdd",    "robdd_jit"};

bem::read_spec inputs_spec() {
  bem::read_spec r;
  for (std::uint32_t j = 0; j < n_inputs; ++j) r.bits.push_back({bem::read_bit::source::state, j});
  return r;
}
bem::write_spec outputs_spec() {
  bem::write_spec w;
  for (std::uint32_t k = 0; k < n_outputs; ++k)
    w.bits.push_back({static_cast<std::uint32_t>(n_inputs) + k, bem::write_bit::mode::xor_into});
  return w;
}

struct measurement {
  bem::cycle_sample sample;
  std::uint64_t checksum;
};

/// What a jit row adds: the generated program's size, how long generating
/// it took, and the back end (null for the other rows).
struct generated {
  std::size_t ops = 0;
  double us = 0;
  const char* backend = nullptr;
  std::size_t vector_bits = 0;  ///< of the generated code; 0: it runs the interpreter
};

/// The 2.3 loop for one expert on W-lane words.
template <std::size_t W, class C>
measurement run_loop(const C& circuit, std::uint64_t seed, std::int64_t l_loop, int flips,
                     bem::cycle_counter& counter, std::vector<std::uint64_t>& shared) {
  using word = bem::lane_word<W>;
  const bem::expert<C> e(static_cast<bem::identifier>(seed), inputs_spec(), circuit, outputs_spec());
  bem::xoshiro256ss rng(seed);
  std::vector<word> state(state_bits);
  for (std::size_t k = 0; k < n_inputs; ++k)
    for (auto& x : state[k].words()) x = rng.next();
  bem::expert_batch<C, word> batch;
  const auto step = [&](std::int64_t iterations) {
    for (std::int64_t i = 0; i < iterations; ++i) {
      batch.apply_all(e, std::span<word>(state), shared);
      std::uint64_t r = rng.next();
      for (int f = 0; f < flips; ++f, r >>= 16) {
        const std::size_t bit = r & 31u, lane = (r >> 5) % W;
        state[bit].flip_lane(lane);  // full width: see lane_word::flip_lane
      }
    }
  };
  step(l_loop / 20 + 1);  // warm-up: caches, branch predictors, clock
  counter.start();
  step(l_loop);
  const bem::cycle_sample s = counter.stop();
  std::uint64_t sum = 0;
  for (std::size_t k = n_inputs; k < state_bits; ++k)
    for (auto x : state[k].words()) sum = bem::mix64(sum ^ x);
  shared[0] = sum;  // the checksum goes to SHARED
  return {s, shared[0]};
}

struct expert_parameters {
  BOOST_HANA_DEFINE_STRUCT(expert_parameters, (std::vector<std::int64_t>, G), (std::vector<std::int64_t>, W),
                           (std::int64_t, L_loop), (int, flips), (std::vector<std::string>, representations));
  static void describe(bem::parameter_schema<expert_parameters>& s) {
    const std::vector<std::string> reps(known_reps.begin(), known_reps.end());
    s("G", {64, 128, 256, 512}).one_of({64, 128, 256, 512}).doc("gates (the compiled circuits exist for these)");
    s("W", {64, 256}).one_of({64, 128, 256, 512}).doc("lanes per batch");
    s("L_loop", 1000000).in(1, 1000000000000).doc("batches timed (2.3 asks for at least 10^6)");
    s("flips", 2).in(0, 4).doc("input bits flipped between batches");
    s("representations", reps).one_of(reps).doc("the circuit representations measured");
  }
};

struct expert_eval {
  static constexpr const char* name = "expert_eval";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM 2.3: expert evaluation cost per representation, G and W (cycles_per_batch, cycles_per_lane, "
      "batches_per_second, live gates)";

  using parameter_structs = bem::parameter_structs<expert_parameters>;

  explicit expert_eval(bem::parameters& p) : v_(bem::read_parameters<expert_parameters>(p)) {}

  void run(std::uint64_t seed, bem::benchmark_sink& sink) {
    bem::cycle_counter counter;
    const std::string unit = counter.unit();
    const double clock_hz = counter.calibration().core_clock_hz;
    if (v_.L_loop < 1000000) bem::emit_below_spec(sink, "L_loop", v_.L_loop, "batches", 1000000, "BEM 2.3");
    std::vector<std::uint64_t> shared(2, 0);
    for (const auto& rep : v_.representations)
      for (auto g64 : v_.G)
        for (auto w : v_.W) {
          const std::size_t g = static_cast<std::size_t>(g64);
          // compiled and the jit rows draw their twin's stream: the same
          // circuit on the same inputs, so the checksums must agree.
          const std::string twin = interpreted_twin(rep);
          const std::uint64_t s = bem::derive_seed(seed, bem::fnv1a64(twin), g, static_cast<std::uint64_t>(w));
          std::size_t gates = 0, live = 0;
          measurement m{};
          generated gen;
          const auto by_width = [&](const auto& circuit) {
            // 2.3 asks for a non-trivial expert: refuse to time one whose
            // output is constant or a copy of an input.
            if (const auto why = bem::find_trivial_output(circuit, s))
              throw std::runtime_error("expert_eval: the " + rep + " expert at G = " + std::to_string(g) +
                                       " is trivial (" + *why + ")");
            for_width(w, [&](auto lanes) {
              m = run_loop<decltype(lanes)::value>(circuit, s, v_.L_loop, v_.flips, counter, shared);
            });
          };
          // An interpreted representation, or (a jit row) its circuit as a
          // gate list compiled now; G and live gates are the twin's own.
          const auto interpreted_or_jit = [&](const auto& c) {
            gates = c.gate_count();
            if constexpr (requires { c.live_gates(); })
              live = c.live_gates();
            else
              live = gates;  // every ANF gate and ROBDD node is live
            if (rep == twin) {
              by_width(c);
              return;
            }
            bem::gate_list list;
            if constexpr (std::is_same_v<std::remove_cvref_t<decltype(c)>, bem::gate_list>)
              list = c;
            else
              list = bem::to_gate_list(c);
            const auto start = std::chrono::steady_clock::now();
            const bem::jit_circuit code(std::move(list));
            for_width(w, [&](auto lanes) {
              using word = bem::lane_word<decltype(lanes)::value>;
              code.prepare<word>();
              gen.us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
              gen.vector_bits = code.vector_bits<word>();
            });
            gen.ops = code.op_count();
            gen.backend = bem::jit_backend_name(code.backend());
            by_width(code);
          };
          if (rep == "compiled") {
            const auto run_compiled = [&]<const auto& C>() {
              const bem::compiled_circuit<C> c;
              gates = c.gate_count();
              live = c.live_gates();
              by_width(c);
            };
            switch (g) {
              case 64: run_compiled.template operator()<circuit64>(); break;
              case 128: run_compiled.template operator()<circuit128>(); break;
              case 256: run_compiled.template operator()<circuit256>(); break;
              default: run_compiled.template operator()<circuit512>(); break;
            }
          } else if (twin == "gate_list") {
            interpreted_or_jit(static_list(g));
          } else if (twin == "anf") {
            interpreted_or_jit(bem::random_anf(n_inputs, n_outputs, g, bem::derive_seed(seed, bem::fnv1a64("anf"), g)));
          } else {
            interpreted_or_jit(
                bem::random_robdd(n_inputs, n_outputs, g, bem::derive_seed(seed, bem::fnv1a64("robdd"), g)));
          }
          emit(sink, rep, g, static_cast<std::size_t>(w), gates, live, m, gen, unit, clock_hz);
        }
  }

 private:
  /// The interpreted representation whose circuit and input stream a row
  /// uses: itself, or gate_list / anf / robdd for compiled and the jit rows.
  static std::string interpreted_twin(const std::string& rep) {
    if (rep == "compiled" || rep == "jit") return "gate_list";
    if (rep == "anf_jit") return "anf";
    if (rep == "robdd_jit") return "robdd";
    return rep;
  }
  /// f(std::integral_constant<std::size_t, W>) for the row's W (64, 128,
  /// 256 or 512, checked by the constructor).
  template <class F>
  static void for_width(std::int64_t w, F f) {
    switch (w) {
      case 64: f(std::integral_constant<std::size_t, 64>{}); break;
      case 128: f(std::integral_constant<std::size_t, 128>{}); break;
      case 256: f(std::integral_constant<std::size_t, 256>{}); break;
      default: f(std::integral_constant<std::size_t, 512>{}); break;
    }
  }

  static bem::gate_list static_list(std::size_t g) {
    switch (g) {
      case 64: return circuit64.to_gate_list();
      case 128: return circuit128.to_gate_list();
      case 256: return circuit256.to_gate_list();
      default: return circuit512.to_gate_list();
    }
  }

  void emit(bem::benchmark_sink& sink, const std::string& rep, std::size_t g, std::size_t w, std::size_t gates,
            std::size_t live, const measurement& m, const generated& gen, const std::string& unit,
            double clock_hz) const {
    const std::string mode = rep == "compiled" ? "compiled" : gen.backend ? "jit" : "interpreted";
    bem::benchmark_record r;
    r.split = "rep=" + rep + ",mode=" + mode + ",G=" + std::to_string(g) + ",W=" + std::to_string(w);
    r.condition = {bem::tasks::string_field("representation", rep), bem::tasks::string_field("mode", mode),
                   bem::tasks::number_field("G", static_cast<long long>(g)),
                   bem::tasks::number_field("W", static_cast<long long>(w))};
    if (gen.backend) r.condition.push_back(bem::tasks::string_field("backend", gen.backend));
    // Figures computed from cycles say how the cycles were obtained (the
    // method without its run-to-run figures, as in bitalu's records).
    const auto put = [&](const char* metric, double value, std::string u, bem::metrics::better b, bool timing,
                         bool from_cycles = false) {
      r.value = bem::metrics::scalar_metric(metric, value, std::move(u), b, v_.L_loop, "batches");
      if (from_cycles) r.value.breakdown = {{"method", bem::cycle_counting_method(m.sample.measured)}};
      r.timing = timing;
      sink.emit(r);
    };
    // What describes the circuit, or its one code generation, stands on one.
    const auto put_one = [&](const char* metric, double value, std::string u, bem::metrics::better b, bool timing,
                             const char* n_unit) {
      r.value = bem::metrics::scalar_metric(metric, value, std::move(u), b, 1, n_unit);
      r.timing = timing;
      sink.emit(r);
    };
    using bem::metrics::better;
    put("checksum", static_cast<double>(m.checksum & 0xFFFFFFFFFFFFull), "low 48 bits of the SHARED checksum", better::none, false);
    put_one("gates", static_cast<double>(gates), "gates", better::none, false, "circuits");
    put_one("live_gates", static_cast<double>(live), "gates", better::none, false, "circuits");
    const double per_batch = m.sample.cycles / static_cast<double>(v_.L_loop);
    put("cycles_per_batch", per_batch, unit, better::lower, true, true);
    put("cycles_per_lane", per_batch / static_cast<double>(w), unit, better::lower, true, true);
    put("batches_per_second", clock_hz / per_batch, "batches/s", better::higher, true, true);
    put("tsc_ticks_per_live_gate",
        m.sample.tsc_ticks / static_cast<double>(v_.L_loop) / static_cast<double>(live ? live : 1),
        bem::tsc_is_hardware ? "TSC ticks" : "steady_clock nanoseconds (no TSC on this architecture)", better::lower,
        true);
    // The width of the vector instructions that ran (the code's, where W_hw
    // is the CPU's): the compiled lane words', or the generated code's.
    put_one("vector_bits",
            static_cast<double>(gen.vector_bits != 0 ? gen.vector_bits : bem::detail::lane_work_bits(w)), "bits",
            better::none, false, "circuits");
    if (gen.backend) {
      put_one("generated_ops", static_cast<double>(gen.ops), "operations", better::none, false, "circuits");
      put_one("generation_us", gen.us, "microseconds", better::lower, true, "code generations");
    }
  }

  expert_parameters v_;
};

}  // namespace

BEM_PLUGIN("expert", "1", BEM_BENCHMARKS(expert_eval))
