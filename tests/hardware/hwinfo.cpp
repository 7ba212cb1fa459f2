// The hardware report: probe, text table, JSON fields.
#include "cpuinfo.hpp"

#include <bem/platform/hwinfo.hpp>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace {
const bem::hardware_report& report() {
  static const bem::hardware_report r = bem::probe_hardware();
  return r;
}
}  // namespace

TEST_CASE("probe_hardware fills the required fields") {
  const auto& r = report();
  CHECK(!r.cpu_vendor.empty());
  CHECK(!r.cpu_model.empty());
  CHECK(!r.microarchitecture.empty());
  CHECK(!r.simd_extensions.empty());
  CHECK(!r.base_clock_source.empty());
  CHECK(!r.tsc_source.empty());
  CHECK(!r.kernel.empty());
  CHECK(!r.hypervisor.empty());
  CHECK(r.logical_cpus >= 1);
  CHECK(r.tsc_hz > 0);
  CHECK(r.tsc_per_core_cycle > 0);
  CHECK(r.core_clock_hz_estimate == doctest::Approx(r.tsc_hz / r.tsc_per_core_cycle));
  const bem::cycle_counter c;
  CHECK(r.counters_available == c.measured());
  CHECK(r.cycle_method == c.method());
  if (r.counters_available)
    CHECK(r.cycle_method == "measured (perf_event_open)");
  else
    CHECK(r.cycle_method.rfind("estimated", 0) == 0);
}

#if defined(__x86_64__)
TEST_CASE("x86-64: CPUID fields are consistent") {
  const auto& r = report();
  CHECK(r.cpu_vendor.size() == 12);
  CHECK(r.cpu_vendor != "unknown");
  CHECK(r.family > 0);
  CHECK(r.model >= 0);
  CHECK(r.stepping >= 0);
  const std::set<int> widths{128, 256, 512};
  CHECK(widths.count(r.simd_width_bits) == 1);
  const auto has = [&](const std::string& e) { return (" " + r.simd_extensions + " ").find(" " + e + " ") != std::string::npos; };
  CHECK(has("sse2"));
  CHECK((r.simd_width_bits == 512) == has("avx512f"));
  CHECK((r.simd_width_bits >= 256) == has("avx2"));
  // The circuit code generator uses the widest of the two it knows.
  CHECK(r.circuit_code == (has("avx512f") && has("avx512vl") ? "avx512" : has("avx2") ? "avx2" : "interpreter"));
  CHECK(r.base_clock_hz > 0);
  const std::set<std::string> sources{"cpuid 0x16", "brand string", "TSC frequency (no base clock reported)"};
  CHECK(sources.count(r.base_clock_source) == 1);
  if (r.base_clock_source == "TSC frequency (no base clock reported)") CHECK(r.base_clock_hz == r.tsc_hz);
}
#endif

TEST_CASE("microarchitecture tables") {
  using namespace bem::detail;
  CHECK(amd_microarchitecture(0x17, 0x01) == "Zen");
  CHECK(amd_microarchitecture(0x17, 0x08) == "Zen+");
  CHECK(amd_microarchitecture(0x17, 0x31) == "Zen 2");
  CHECK(amd_microarchitecture(0x17, 0x71) == "Zen 2");
  CHECK(amd_microarchitecture(0x19, 0x01) == "Zen 3");
  CHECK(amd_microarchitecture(0x19, 0x21) == "Zen 3");
  CHECK(amd_microarchitecture(0x19, 0x11) == "Zen 4");
  CHECK(amd_microarchitecture(0x19, 0x61) == "Zen 4");
  CHECK(amd_microarchitecture(0x19, 0xa0) == "Zen 4");
  CHECK(amd_microarchitecture(0x1a, 0x02) == "Zen 5");
  CHECK(amd_microarchitecture(0x1a, 0x44) == "Zen 5");
  CHECK(amd_microarchitecture(0x42, 0x00).empty());
  CHECK(intel_microarchitecture(6, 0x55, 4) == "Skylake-SP");
  CHECK(intel_microarchitecture(6, 0x55, 7) == "Cascade Lake");
  CHECK(intel_microarchitecture(6, 0x55, 5) == "Cascade Lake");  // the stepping ranges' edges
  CHECK(intel_microarchitecture(6, 0x55, 10) == "Cooper Lake");
  CHECK(intel_microarchitecture(6, 0x8f, 8) == "Sapphire Rapids");
  CHECK(intel_microarchitecture(6, 0x97, 2) == "Alder Lake");
  CHECK(intel_microarchitecture(6, 0x6a, 6) == "Ice Lake-SP");
  CHECK(intel_microarchitecture(6, 0x01, 0).empty());
}

TEST_CASE("CPUID signatures decode to the display family and model") {
  using bem::detail::decode_cpu_signature;
  const auto is = [](std::uint32_t eax, int family, int model, int stepping) {
    const auto s = decode_cpu_signature(eax);
    CAPTURE(eax);
    CHECK(s.family == family);
    CHECK(s.model == model);
    CHECK(s.stepping == stepping);
  };
  is(0x00050654, 6, 0x55, 4);     // Skylake-SP: extended model 5
  is(0x000A0671, 6, 0xA7, 1);     // Rocket Lake
  is(0x00830F10, 0x17, 0x31, 0);  // Zen 2 (Rome): family 0xf + extended family 8
  is(0x00A20F10, 0x19, 0x21, 0);  // Zen 3 (Vermeer)
  is(0x00A10F11, 0x19, 0x11, 1);  // Zen 4 (Genoa)
  is(0x00000F29, 0xF, 0x2, 9);    // NetBurst: family 0xf, no extension
  // Base family 5: the extended fields are not part of the display values.
  is(0x00F10543, 5, 0x4, 3);
}

#if defined(__x86_64__) && defined(__linux__)
TEST_CASE("x86-64 Linux: family, model and stepping agree with /proc/cpuinfo") {
  // Guests may hide the stepping; family and model are always there.
  const auto family = bemtest::cpuinfo_field("cpu family"), model = bemtest::cpuinfo_field("model");
  REQUIRE(family);
  REQUIRE(model);
  CHECK(report().family == std::stoi(*family));
  CHECK(report().model == std::stoi(*model));
  if (const auto stepping = bemtest::cpuinfo_field("stepping")) CHECK(report().stepping == std::stoi(*stepping));
}
#endif

TEST_CASE("brand-string clock and hypervisor names") {
  using namespace bem::detail;
  CHECK(brand_string_clock_hz("Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz") == doctest::Approx(2.4e9));
  CHECK(brand_string_clock_hz("Intel(R) Core(TM)2 CPU T7200 @2.00GHz") == doctest::Approx(2.0e9));
  CHECK(brand_string_clock_hz("Some CPU @ 800MHz") == doctest::Approx(8e8));
  CHECK(brand_string_clock_hz("AMD EPYC 9654 96-Core Processor") == 0);
  CHECK(brand_string_clock_hz("odd @ fast") == 0);
  CHECK(hypervisor_name(std::string_view("KVMKVMKVM\0\0\0", 12)) == "KVM");
  CHECK(hypervisor_name("Microsoft Hv") == "Hyper-V");
  CHECK(hypervisor_name("VMwareVMware") == "VMware");
  CHECK(hypervisor_name("XenVMMXenVMM") == "Xen");
  CHECK(hypervisor_name("NewThing") == "unknown (\"NewThing\")");
}

TEST_CASE("to_fields: fixed order, unique keys, valid JSON scalars") {
  const auto fields = bem::to_fields(report());
  const std::vector<std::string> expected{
      "cpu_vendor",        "cpu_model",    "microarchitecture",  "family",
      "model",             "stepping",     "simd_width_bits",    "simd_extensions",
      "circuit_code",      "base_clock_hz",     "base_clock_source", "tsc_hz",        "tsc_source",
      "tsc_per_core_cycle", "core_clock_hz_estimate", "counters_available", "cycle_method",
      "logical_cpus",      "kernel",       "hypervisor"};
  REQUIRE(fields.size() == expected.size());
  std::set<std::string> keys;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& [name, value] = fields[i];
    CAPTURE(name);
    CAPTURE(value);
    CHECK(name == expected[i]);
    CHECK(keys.insert(name).second);
    nlohmann::json j;
    CHECK_NOTHROW(j = nlohmann::json::parse(value));
    CHECK(j.is_primitive());
  }
  // The values round-trip.
  const auto value_of = [&](const std::string& k) {
    for (const auto& [n, v] : fields)
      if (n == k) return nlohmann::json::parse(v);
    return nlohmann::json();
  };
  CHECK(value_of("cpu_vendor").get<std::string>() == report().cpu_vendor);
  CHECK(value_of("tsc_hz").get<double>() == report().tsc_hz);
  CHECK(value_of("simd_width_bits").get<int>() == report().simd_width_bits);
  CHECK(value_of("counters_available").get<bool>() == report().counters_available);
}

TEST_CASE("to_fields escapes strings and writes non-finite numbers as null") {
  bem::hardware_report r;
  r.cpu_model = "quote \" backslash \\ newline \n tab \t";
  r.base_clock_hz = std::numeric_limits<double>::quiet_NaN();
  for (const auto& [name, value] : bem::to_fields(r)) {
    CAPTURE(name);
    const auto j = nlohmann::json::parse(value);
    if (name == "cpu_model") CHECK(j.get<std::string>() == r.cpu_model);
    if (name == "base_clock_hz") CHECK(j.is_null());
  }
}

TEST_CASE("to_text is a table with one line per field") {
  const std::string t = bem::to_text(report());
  CHECK(!t.empty());
  CHECK(t.back() == '\n');
  for (const char* label : {"CPU vendor", "CPU model", "Microarchitecture", "SIMD width W_hw", "Base clock",
                            "TSC frequency", "TSC ticks per core cycle", "Core clock (estimated)",
                            "Hardware counters", "Cycle counts", "Logical CPUs", "Kernel", "Hypervisor"}) {
    CAPTURE(label);
    const bool at_line_start = t.rfind(label, 0) == 0 || t.find(std::string("\n") + label) != std::string::npos;
    CHECK(at_line_start);
  }
  CHECK(t.find(report().cycle_method) != std::string::npos);
  CHECK(t.find(report().cpu_model) != std::string::npos);
}
