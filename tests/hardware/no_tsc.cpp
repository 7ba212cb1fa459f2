// The fallback for architectures without a TSC, exercised on x86-64 by
// forcing it (BEM_DETAIL_FORCE_NO_TSC=1, set for this executable only).
#include <bem/platform/cycles.hpp>
#include <bem/platform/hwinfo.hpp>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>

static_assert(!bem::tsc_is_hardware, "this test must be built with BEM_DETAIL_FORCE_NO_TSC=1");

TEST_CASE("fallback: ticks are steady-clock nanoseconds") {
  std::string source;
  CHECK(bem::calibrate_tsc_hz(&source) == 1e9);
  CHECK(source == "steady_clock nanoseconds (no TSC on this architecture)");
  const auto steady_ns = [] {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  // Read between two readings of the steady clock, on the same scale: within
  // them however long the reads were preempted.
  const auto before = steady_ns();
  const std::uint64_t t = bem::read_tsc_begin();
  const auto after = steady_ns();
  CHECK(t >= static_cast<std::uint64_t>(before));
  CHECK(t <= static_cast<std::uint64_t>(after));
  CHECK(bem::read_tsc_end() >= t);
}

TEST_CASE("fallback: the estimate says steady clock, not TSC") {
  const auto& cal = bem::tsc_info();
  CHECK(cal.tsc_per_core_cycle > 0);
  CHECK(cal.core_clock_hz > 2e8);
  CHECK(cal.core_clock_hz < 1e10);
  const bem::cycle_counter c(false);
  CHECK(c.method().rfind("estimated via steady clock (1.000 GHz ticks, ", 0) == 0);
  CHECK(c.method().find("TSC") == std::string::npos);
  CHECK(std::string(c.unit()) == "cycles (estimated via steady clock)");
  CHECK(std::string(bem::cycle_counting_method(false)) == "estimated via steady clock");
  bem::cycle_counter d(false);
  const auto t0 = std::chrono::steady_clock::now();
  d.start();
  const auto t1 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - t1 < std::chrono::milliseconds(20)) {
  }
  const auto s = d.stop();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // The same clock read around the interval: it holds the 20 ms wait and lies
  // within the reads, however busy the machine.
  CHECK(s.tsc_ticks >= 20e6);  // nanoseconds
  CHECK(s.seconds <= wall);
  CHECK(std::isnan(s.instructions));
}

TEST_CASE("fallback: the report says unknown and stays valid JSON") {
  const auto r = bem::probe_hardware();
  CHECK(r.cpu_vendor == "unknown");
  CHECK(r.cpu_model == "unknown");
  CHECK(r.microarchitecture == "unknown");
  CHECK(r.family == -1);
  CHECK(r.hypervisor == "unknown");
  CHECK(std::isnan(r.base_clock_hz));
  CHECK(r.logical_cpus >= 1);
  for (const auto& [name, value] : bem::to_fields(r)) {
    CAPTURE(name);
    CHECK(nlohmann::json::parse(value).is_primitive());
  }
  CHECK(bem::to_text(r).find("Base clock") != std::string::npos);
}
