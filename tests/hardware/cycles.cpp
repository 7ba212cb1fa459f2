// Cycle counting: fenced TSC reads, calibration, the cycle counter. Every
// check here holds on a busy machine: timings are compared with a clock read
// around them or with each other in the same run, or are the fastest of many
// short runs; how fast things are is bench/'s business.
#include "cpuinfo.hpp"

#include <bem/platform/cycles.hpp>
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <string_view>
#include <thread>

#include <unistd.h>

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

void busy_wait(std::chrono::milliseconds d) {
  const auto end = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < end) {
  }
}

}  // namespace

TEST_CASE("the TSC never runs backwards") {
  std::uint64_t prev = bem::read_tsc_begin();
  int backwards = 0;
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t a = bem::read_tsc_begin();
    const std::uint64_t b = bem::read_tsc_end();
    backwards += (a < prev) + (b < a);
    prev = b;
  }
  CHECK(backwards == 0);
  // ... and does advance.
  const std::uint64_t t0 = bem::read_tsc_begin();
  busy_wait(std::chrono::milliseconds(1));
  CHECK(bem::read_tsc_end() > t0);
}

TEST_CASE("TSC calibration is positive and repeatable") {
  std::string source1, source2;
  const double hz1 = bem::calibrate_tsc_hz(&source1);
  const double hz2 = bem::calibrate_tsc_hz(&source2);
  CHECK(hz1 > 1e8);
  CHECK(hz1 < 1e11);
  // Load cannot move this: the TSC is compared with CLOCK_MONOTONIC_RAW
  // across a sleep, each end read as the narrowest of 16 bracketed pairs, so
  // a preemption only widens a pair that is then not used (error about 1e-5).
  CHECK(std::fabs(hz1 - hz2) <= 0.02 * hz1);
  CHECK(!source1.empty());
  CHECK(bem::calibrate_tsc_hz() > 0);  // the source is optional
  if (bem::tsc_is_hardware) {
    // The source, less the note a TSC not reported invariant adds.
    const std::string note = bem::detail::tsc_invariance_note(false);
    std::string base = source1;
    if (base.size() >= note.size() && base.compare(base.size() - note.size(), note.size(), note) == 0)
      base.resize(base.size() - note.size());
    const bool known = starts_with(base, "measured against CLOCK_MONOTONIC_RAW") || base == "sysfs tsc_freq_khz" ||
                       base == "cpuid 0x15" || base == "cpuid 0x40000010 (hypervisor)";
    CHECK_MESSAGE(known, source1);
  } else {
    CHECK(hz1 == 1e9);
  }
}

TEST_CASE("the shared calibration is consistent and computed once") {
  const bem::tsc_calibration& c = bem::tsc_info();
  CHECK(c.tsc_hz > 0);
  CHECK(!c.tsc_source.empty());
  CHECK(c.tsc_per_core_cycle > 0);
  CHECK(c.core_clock_hz == doctest::Approx(c.tsc_hz / c.tsc_per_core_cycle));
  // Plausible core clock: 0.2 to 10 GHz.
  CHECK(c.core_clock_hz > 2e8);
  CHECK(c.core_clock_hz < 1e10);
  const bem::tsc_calibration* other = nullptr;
  std::thread t([&] { other = &bem::tsc_info(); });
  t.join();
  CHECK(other == &c);
}

TEST_CASE("a TSC not reported invariant is named in the source") {
  CHECK(bem::detail::tsc_invariance_note(true).empty());
  const std::string note = bem::detail::tsc_invariance_note(false);
  CHECK(starts_with(note, "; CPUID does not report an invariant TSC"));
  std::string source;
  (void)bem::calibrate_tsc_hz(&source);
  const bool noted = source.find(note) != std::string::npos;
  CHECK(noted == !bem::detail::tsc_reported_invariant());
  CHECK(bem::tsc_info().tsc_source.find(note) == (noted ? bem::tsc_info().tsc_source.size() - note.size()
                                                        : std::string::npos));
#if defined(__x86_64__) && defined(__linux__)
  // Linux derives its nonstop_tsc flag from the same CPUID bit.
  if (const auto flags = bemtest::cpuinfo_field("flags"))
    CHECK(bem::detail::tsc_reported_invariant() == ((" " + *flags + " ").find(" nonstop_tsc ") != std::string::npos));
#endif
}

TEST_CASE("counted intervals: scaled when multiplexed, NaN when nothing was counted") {
  using read = bem::detail::perf_group_read;
  // Ran the whole interval: the counts as they are.
  auto [cycles, instructions] = bem::detail::counted_interval({100, 50, 1000, 1000, true}, {1100, 2050, 3000, 3000, true});
  CHECK(cycles == 1000);
  CHECK(instructions == 2000);
  // Counted a quarter of the interval: extrapolated to all of it.
  std::tie(cycles, instructions) = bem::detail::counted_interval({0, 0, 0, 0, true}, {250, 500, 4000, 1000, true});
  CHECK(cycles == 1000);
  CHECK(instructions == 2000);
  // Never scheduled in the interval (multiplexed out, or a hybrid CPU's other
  // core type): nothing was counted, which is not 0 cycles.
  std::tie(cycles, instructions) = bem::detail::counted_interval({500, 700, 1000, 600, true}, {500, 700, 5000, 600, true});
  CHECK(std::isnan(cycles));
  CHECK(std::isnan(instructions));
  // A failed read.
  CHECK(std::isnan(bem::detail::counted_interval(read{}, {100, 100, 10, 10, true}).first));
  CHECK(std::isnan(bem::detail::counted_interval({0, 0, 0, 0, true}, read{}).first));
}

TEST_CASE("counted intervals of a hybrid CPU's groups: summed, scaled only when multiplexed") {
  using read = bem::detail::perf_group_read;
  // Over 4000 ns the thread ran 3000 ns on a P-core and 1000 on an E-core:
  // each group counted its part, and the parts add up to the interval.
  const read a[2] = {{0, 0, 0, 0, true}, {0, 0, 0, 0, true}};
  const read b[2] = {{3000, 6000, 4000, 3000, true}, {700, 900, 4000, 1000, true}};
  auto [cycles, instructions] = bem::detail::counted_interval(a, b);
  CHECK(cycles == 3700);
  CHECK(instructions == 6900);
  // Multiplexed: the groups ran for half the interval between them.
  const read half[2] = {{1500, 3000, 4000, 1500, true}, {350, 450, 4000, 500, true}};
  std::tie(cycles, instructions) = bem::detail::counted_interval(a, half);
  CHECK(cycles == 3700);
  CHECK(instructions == 6900);
  // Only one kind of core ran: its counts, unscaled.
  const read one[2] = {{2000, 4000, 4000, 4000, true}, {0, 0, 4000, 0, true}};
  std::tie(cycles, instructions) = bem::detail::counted_interval(a, one);
  CHECK(cycles == 2000);
  CHECK(instructions == 4000);
  // No group ran, one read failed, or the reads do not pair up: NaN.
  const read idle[2] = {{0, 0, 4000, 0, true}, {0, 0, 4000, 0, true}};
  CHECK(std::isnan(bem::detail::counted_interval(a, idle).first));
  const read failed[2] = {{3000, 6000, 4000, 3000, true}, read{}};
  CHECK(std::isnan(bem::detail::counted_interval(a, failed).first));
  CHECK(std::isnan(bem::detail::counted_interval(std::span(a, 1), std::span(b, 2)).first));
  CHECK(std::isnan(bem::detail::counted_interval(std::span(a, 0), std::span(b, 0)).first));
}

TEST_CASE("core PMUs: one per kind of core on a hybrid CPU, none listed on others") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("bem-pmus-" + std::to_string(::getpid()));
  fs::remove_all(root);
  auto pmu = [&](const char* name, const char* type) {
    fs::create_directories(root / name);
    if (type != nullptr) std::ofstream(root / name / "type") << type << "\n";
  };
  // A hybrid Intel CPU, beside event sources that are not core PMUs and
  // entries without a numeric type.
  pmu("cpu_core", "8");
  pmu("cpu_atom", "10");
  pmu("software", "1");
  pmu("cpu_broken", "x");
  pmu("cpu_untyped", nullptr);
  CHECK(bem::detail::core_pmu_types(root.c_str()) == std::vector<std::uint32_t>{8, 10});
  // One core PMU, named "cpu": the plain events count every core.
  fs::remove_all(root);
  pmu("cpu", "4");
  pmu("software", "1");
  CHECK(bem::detail::core_pmu_types(root.c_str()).empty());
  fs::remove_all(root);
  CHECK(bem::detail::core_pmu_types(root.c_str()).empty());
#if defined(__linux__)
  // This machine's own list, and the counter's groups where it counts.
  const auto types = bem::detail::core_pmu_types();
  const bem::cycle_counter c;
  if (c.measured())
    CHECK(c.core_pmus_counted() == std::max<std::size_t>(1, types.size()));
  else
    CHECK(c.core_pmus_counted() == 0);
#endif
  CHECK(bem::cycle_counter(false).core_pmus_counted() == 0);
}

TEST_CASE("measure_tsc_per_core_cycle gives a plausible ratio") {
  const double hz = bem::tsc_info().tsc_hz;
  const double r = bem::measure_tsc_per_core_cycle(hz);
  CHECK(r > 0);
  CHECK(hz / r > 2e8);
  CHECK(hz / r < 1e10);
}

TEST_CASE("cycle_method_label gives the documented strings") {
  CHECK(bem::cycle_method_label(true, 2.596e9) == "measured (perf_event_open)");
  CHECK(bem::cycle_method_label(true, 2.596e9, 0.707) == "measured (perf_event_open)");
  if (bem::tsc_is_hardware) {
    CHECK(bem::cycle_method_label(false, 2.596e9, 0.707) ==
          "estimated via TSC (2.596 GHz, 0.707 TSC ticks per core cycle)");
    CHECK(bem::cycle_method_label(false, 2.596e9) == "estimated via TSC (2.596 GHz)");
  }
  CHECK(starts_with(bem::cycle_method_label(false, 1e9, 1.0), "estimated"));
}

TEST_CASE("the cycle counter's method matches whether counters are available") {
  const bem::cycle_counter c;
  const auto& cal = bem::tsc_info();
  if (c.measured()) {
    CHECK(c.method() == "measured (perf_event_open)");
  } else {
    CHECK(c.method() == bem::cycle_method_label(false, cal.tsc_hz, cal.tsc_per_core_cycle));
    CHECK(starts_with(c.method(), bem::tsc_is_hardware ? "estimated via TSC (" : "estimated"));
    CHECK(!c.counts_instructions());
  }
  CHECK(&c.calibration() == &cal);

  const bem::cycle_counter never(false);
  CHECK_FALSE(never.measured());
  CHECK(starts_with(never.method(), "estimated"));
}

TEST_CASE("a busy interval of known length is timed within 20%") {
  for (const bool try_counters : {true, false}) {
    CAPTURE(try_counters);
    bem::cycle_counter c(try_counters);
    const auto t0 = std::chrono::steady_clock::now();
    c.start();
    busy_wait(std::chrono::milliseconds(20));
    const bem::cycle_sample s = c.stop();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // The interval holds the 20 ms wait and lies inside the clock reads around
    // it, however long preemption made it: 20% is the calibration's leeway.
    CHECK(s.seconds > 0.020 * 0.8);
    CHECK(s.seconds < wall * 1.2);
    CHECK(s.tsc_ticks == doctest::Approx(s.seconds * c.calibration().tsc_hz));
    CHECK(s.cycles > 0);
    CHECK(s.measured == c.measured());
    if (s.measured) {
      CHECK(s.instructions > 0);
    } else {
      CHECK(std::isnan(s.instructions));
      CHECK(s.cycles == doctest::Approx(s.tsc_ticks / c.calibration().tsc_per_core_cycle));
    }
    // stop() does not reset: a later stop covers a longer interval.
    CHECK(c.stop().tsc_ticks >= s.tsc_ticks);
  }
}

#if defined(__x86_64__)
namespace {
// `blocks` x 100 dependent 64-bit multiplies: 3 cycles each on every x86-64
// core since Core 2 and Zen 1. Returns the chain's value.
std::uint64_t dependent_multiplies(std::uint64_t blocks, std::uint64_t acc) {
  const std::uint64_t k = 0x9E3779B97F4A7C15ull;
  asm volatile(
      "1:\n\t"
      ".rept 100\n\t"
      "imul %[k], %[acc]\n\t"
      ".endr\n\t"
      "dec %[n]\n\t"
      "jnz 1b"
      : [acc] "+&r"(acc), [n] "+&r"(blocks)
      : [k] "r"(k)
      : "cc");
  return acc;
}
}  // namespace
#endif

TEST_CASE("dependent chains: an add costs a cycle, a multiply three adds") {
  // Many short runs, the fastest counts: on a busy machine too, some run
  // without being preempted. Adds and multiplies alternate, so a core clock
  // that moves with the machine's load (boost, a busy SMT sibling) moves for
  // both alike.
  bem::cycle_counter c;
  constexpr std::uint64_t blocks = 1000;  // 1e5 operations, about 30 us
  double best_add = 1e300;
  std::uint64_t adds = 3;
#if defined(__x86_64__)
  double best_mul = 1e300;
  std::uint64_t muls = 3;
#endif
  for (int rep = 0; rep < 200; ++rep) {
    c.start();
    adds = bem::detail::dependent_adds(blocks, adds, 5);
    best_add = std::min(best_add, c.stop().cycles);
#if defined(__x86_64__)
    c.start();
    muls = dependent_multiplies(blocks, muls);
    best_mul = std::min(best_mul, c.stop().cycles);
#endif
  }
  CHECK(adds == 3 + 5 * 100 * blocks * 200);  // the chain really ran
  const double per_add = best_add / static_cast<double>(blocks * 100);
  CAPTURE(c.method());
  CAPTURE(per_add);
  CHECK(std::isfinite(per_add));
  CHECK(per_add > 0);
  // Hardware counters count this thread's own core cycles, whatever the clock
  // or other processes do. Estimated, cycles are TSC ticks over a ratio
  // calibrated on dependent adds when the process started, so the figure is
  // one by construction, off by however much the core clock has moved since
  // (0.78 per add was seen beside other processes): how far is a property of
  // the machine, not of this code.
  if (c.measured()) {
    CHECK(per_add > 0.8);
    CHECK(per_add < 5.0);
  }
#if defined(__x86_64__)
  // A different instruction, measured beside the adds: neither a wrong ratio
  // nor a wrong TSC frequency changes the quotient, but a counter that does
  // not follow the work (or mixes up intervals) does.
  CHECK(muls % 2 == 1);  // odd times odd: the chain's value is used
  const double per_mul = best_mul / static_cast<double>(blocks * 100);
  CAPTURE(per_mul);
  CHECK(per_mul / per_add > 2.4);
  CHECK(per_mul / per_add < 4.0);
#endif
}

TEST_CASE("an empty interval is cheap") {
  bem::cycle_counter c;
  double best = 1e300;
  for (int i = 0; i < 1000; ++i) {
    c.start();
    best = std::min(best, c.stop().tsc_ticks);
  }
  CHECK(std::isfinite(best));
  // The fenced reads cost tens of ticks; a system call would cost hundreds.
  // The fastest of 1000: preemption cannot reach every one.
  if (!c.measured() && bem::tsc_is_hardware) CHECK(best < 2000);
}

TEST_CASE("a calibration survives the environment, and a malformed one is ignored") {
  const bem::tsc_calibration& own = bem::tsc_info();
  const auto back = bem::detail::parse_calibration(bem::detail::format_calibration(own).c_str());
  REQUIRE(back.has_value());
  CHECK(back->tsc_hz == own.tsc_hz);  // %.17g round-trips a double exactly
  CHECK(back->tsc_per_core_cycle == own.tsc_per_core_cycle);
  CHECK(back->core_clock_hz == doctest::Approx(own.core_clock_hz));
  CHECK(back->tsc_source == own.tsc_source);
  for (const char* bad : {"", "2.6e9", "2.6e9 0.7", "x 0.7 src", "2.6e9 -1 src", "0 0.7 src", "2.6e9 nan src"})
    CHECK_FALSE(bem::detail::parse_calibration(bad).has_value());
  CHECK_FALSE(bem::detail::parse_calibration(nullptr).has_value());
  const auto ok = bem::detail::parse_calibration("2.5e9 0.5 cpuid 0x15");
  REQUIRE(ok.has_value());
  CHECK(ok->core_clock_hz == doctest::Approx(5e9));
  CHECK(ok->tsc_source == "cpuid 0x15");
#if defined(__unix__)
  bem::share_calibration_with_plugins();
  const auto shared = bem::detail::parse_calibration(std::getenv(bem::calibration_environment_variable));
  REQUIRE(shared.has_value());
  CHECK(shared->tsc_per_core_cycle == own.tsc_per_core_cycle);
#endif
}

TEST_CASE("cycle_counter moves") {
  bem::cycle_counter a;
  const bool measured = a.measured();
  const std::string method = a.method();
  bem::cycle_counter b(std::move(a));
  CHECK(b.measured() == measured);
  CHECK(b.method() == method);
  bem::cycle_counter c(false);
  c = std::move(b);
  CHECK(c.measured() == measured);
  // The moved-to counter still counts: some work takes some ticks.
  c.start();
  volatile std::uint64_t sink = 0;
  for (std::uint64_t i = 0; i < 100000; ++i) sink = sink + i;
  CHECK(c.stop().tsc_ticks > 0);
}
