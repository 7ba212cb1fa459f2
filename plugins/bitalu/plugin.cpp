// Microbenchmark 2.1 of the BEM suite, BIT-ALU throughput, as the task
// `bitalu_throughput`. For each op and each W: the loop of kernels.hpp,
// L_loop iterations, timed with bem::cycle_counter; the checksum is stored to
// SHARED and reported. Records per (op, W), split "op=xor,W=256":
//   checksum          low 48 bits of the checksum read back from SHARED (deterministic)
//   cycles_per_op     total cycles / ops (n: L_loop rounded down to a multiple
//                     of the loop's U streams), unit "cycles (estimated via TSC)"
//                     or "cycles (measured, perf_event_open)"; breakdown: method
//                     (bem::cycle_counting_method),
//                     shift_k, streams (the loop's U at this W, kernels.hpp),
//                     vector_bits (the width of the vector instructions the
//                     loop runs on, as this plugin was compiled: W_hw is the
//                     CPU's, this is the code's)
//   ops_per_second    clock_frequency_hz / cycles_per_op
//   bits_per_second   ops_per_second * W
// Parameters: bitalu_parameters below (`bem-bench list --parameters`).
#include "kernels.hpp"

#include <bem/harness/benchmark.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/plugin/adapter.hpp>
#include <bem/machine/state.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace {

struct bitalu_parameters {
  BOOST_HANA_DEFINE_STRUCT(bitalu_parameters, (std::vector<std::int64_t>, W), (std::int64_t, L_loop),
                           (std::vector<std::string>, ops));
  static void describe(bem::parameter_schema<bitalu_parameters>& s) {
    std::vector<std::string> all;
    for (const auto& [o, n] : bitalu::op_names) all.emplace_back(n);
    s("W", {64, 128, 256, 512, 1024}).one_of({64, 128, 256, 512, 1024}).doc("lane widths");
    s("L_loop", 10000000).in(1000, 1000000000000).doc("iterations timed (2.1 asks for at least 10^7)");
    s("ops", all).one_of(all).doc("the BIT-ALU ops measured");
  }
};

struct bitalu_throughput {
  static constexpr const char* name = "bitalu_throughput";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM 2.1: BIT-ALU throughput per op and lane width W (cycles_per_op, ops_per_second, bits_per_second)";

  using parameter_structs = bem::parameter_structs<bitalu_parameters>;

  explicit bitalu_throughput(bem::parameters& p) : v_(bem::read_parameters<bitalu_parameters>(p)) {
    for (const auto& n : v_.ops)
      for (const auto& [o, on] : bitalu::op_names)
        if (on == n) ops_.push_back(o);
  }

  void run(std::uint64_t seed, bem::benchmark_sink& sink) {
    bem::cycle_counter counter;
    const std::string unit = counter.unit();
    const double clock_hz = counter.calibration().core_clock_hz;
    if (v_.L_loop < 10000000) bem::emit_below_spec(sink, "L_loop", v_.L_loop, "iterations", 10000000, "BEM 2.1");
    bem::shared_memory<64, 0> shared;
    for (auto w : v_.W) {
      for (auto o : ops_) {
        std::uint64_t checksum = 0, ops = 0, streams = 0, vector_bits = 0;
        bem::cycle_sample s{};
        const std::uint64_t op_seed = bem::derive_seed(seed, bem::fnv1a64("bitalu"), static_cast<std::uint64_t>(w));
        const auto measure = [&]<std::size_t W>() {
          streams = bitalu::streams_of(o, W);
          vector_bits = bem::detail::lane_work_bits(W);
          const std::uint64_t rounds = static_cast<std::uint64_t>(v_.L_loop) / streams;
          ops = rounds * streams;
          const auto in = bitalu::make_operands<W>(op_seed);
          (void)bitalu::run_op<W>(o, in, rounds / 16 + 1);  // warm-up: caches, clock
          counter.start();
          checksum = bitalu::run_op<W>(o, in, rounds);
          s = counter.stop();
        };
        switch (w) {
          case 64: measure.template operator()<64>(); break;
          case 128: measure.template operator()<128>(); break;
          case 256: measure.template operator()<256>(); break;
          case 512: measure.template operator()<512>(); break;
          default: measure.template operator()<1024>(); break;
        }
        shared.store_word(0, checksum);  // step 4 of 2.1: the checksum goes to SHARED
        std::string op_name;
        for (const auto& [k, n] : bitalu::op_names)
          if (k == o) op_name = n;
        bem::benchmark_record r;
        r.split = "op=" + op_name + ",W=" + std::to_string(w);
        r.condition = {bem::tasks::string_field("op", op_name), bem::tasks::number_field("W", w)};
        r.value.n = static_cast<std::int64_t>(ops);
        r.value.n_unit = "ops";
        r.value.metric = "checksum";
        r.value.value = static_cast<double>(shared.load_word(0) & ((std::uint64_t{1} << 48) - 1));
        r.value.unit = "low 48 bits of the checksum";
        sink.emit(r);
        const double cpo = s.cycles / static_cast<double>(ops);
        r.timing = true;
        r.value.metric = "cycles_per_op";
        r.value.value = cpo;
        r.value.unit = unit;
        r.value.direction = bem::metrics::better::lower;
        // The method without its figures, which vary between runs: they are
        // the run's context (hardware_calibration).
        r.value.breakdown = {{"method", bem::cycle_counting_method(counter.measured())},
                             {"shift_k", std::to_string(bitalu::shift_k)},
                             {"streams", std::to_string(streams)}, {"vector_bits", std::to_string(vector_bits)}};
        sink.emit(r);
        r.value.metric = "ops_per_second";
        r.value.value = clock_hz / cpo;
        r.value.unit = "ops/s";
        r.value.direction = bem::metrics::better::higher;
        sink.emit(r);
        r.value.metric = "bits_per_second";
        r.value.value = clock_hz / cpo * static_cast<double>(w);
        r.value.unit = "bits/s";
        sink.emit(r);
      }
    }
  }

 private:
  bitalu_parameters v_;
  std::vector<bitalu::op> ops_;
};

}  // namespace

BEM_PLUGIN("bitalu", "1", BEM_TASKS(), BEM_MODELS(), BEM_BENCHMARKS(bitalu_throughput))
