// The hardware report: what seed sections 1.2 and 6.1 require every result to
// state (CPU model and microarchitecture, SIMD width W_hw, base clock, and
// whether cycles are measured or estimated), plus the TSC calibration, the
// kernel and the hypervisor. `bem-bench hwinfo` prints `to_text`; result
// records carry `to_fields`.
//
// On x86-64 everything comes from CPUID, XGETBV, the shared TSC calibration
// (bem/platform/cycles.hpp) and uname. Elsewhere the CPUID-derived fields read
// "unknown" (integers -1) and only the clock estimate, counters, CPU count
// and kernel are filled in.
#pragma once

#include <bem/detail/json_text.hpp>
#include <bem/platform/cpu_features.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/utsname.h>
#include <unistd.h>
#define BEM_DETAIL_HAVE_UNAME 1
#else
#define BEM_DETAIL_HAVE_UNAME 0
#endif

BEM_NAMESPACE_BEGIN

/// What the machine is, as far as the benchmark results depend on it.
struct hardware_report {
  std::string cpu_vendor;         ///< CPUID vendor id, e.g. "AuthenticAMD"
  std::string cpu_model;          ///< brand string, e.g. "AMD EPYC"
  std::string microarchitecture;  ///< e.g. "Zen 4", or "unknown (family 0x.. model 0x..)"
  int family = -1;                ///< display family (base + extended), -1 if unknown
  int model = -1;                 ///< display model (with extended model), -1 if unknown
  int stepping = -1;              ///< -1 if unknown
  int simd_width_bits = 0;        ///< W_hw: 512, 256 or 128 (usable: the OS must enable the state)
  std::string simd_extensions;    ///< usable extensions, widest first, space separated
  std::string circuit_code;       ///< bem::jit_circuit's back end here: "avx512", "avx2" or "interpreter"
  double base_clock_hz = 0;       ///< reported base clock (NaN if none)
  std::string base_clock_source;  ///< "cpuid 0x16", "brand string" or "TSC frequency (no base clock reported)"
  double tsc_hz = 0;              ///< TSC ticks per second
  std::string tsc_source;         ///< see tsc_calibration::tsc_source
  double tsc_per_core_cycle = 0;  ///< TSC ticks per core cycle
  double core_clock_hz_estimate = 0;  ///< tsc_hz / tsc_per_core_cycle (dependent-add loop)
  bool counters_available = false;    ///< perf_event_open cycle counters work
  std::string cycle_method;           ///< cycle_counter::method()
  int logical_cpus = 0;               ///< online logical CPUs
  std::string kernel;                 ///< uname: system, release, machine
  std::string hypervisor;             ///< e.g. "KVM"; "none" on bare metal; "unknown" off x86
};

namespace detail {

/// AMD microarchitecture by family and model (ranges as in Linux's
/// arch/x86/kernel/cpu/amd.c); empty if not in the table.
inline std::string amd_microarchitecture(int family, int model) {
  const auto in = [&](int lo, int hi) { return model >= lo && model <= hi; };
  switch (family) {
    case 0x10: return "K10";
    case 0x15:
      if (in(0x00, 0x01)) return "Bulldozer";
      if (in(0x02, 0x1f)) return "Piledriver";
      if (in(0x30, 0x3f)) return "Steamroller";
      if (in(0x60, 0x7f)) return "Excavator";
      return {};
    case 0x16:
      if (in(0x00, 0x0f)) return "Jaguar";
      if (in(0x30, 0x3f)) return "Puma";
      return {};
    case 0x17:
      if (model == 0x08 || model == 0x18) return "Zen+";
      if (in(0x00, 0x2f) || in(0x50, 0x5f)) return "Zen";
      if (in(0x30, 0x4f) || in(0x60, 0x7f) || in(0x90, 0x91) || in(0xa0, 0xaf)) return "Zen 2";
      return {};
    case 0x18: return "Zen (Hygon Dhyana)";
    case 0x19:
      if (in(0x40, 0x4f)) return "Zen 3+";
      if (in(0x00, 0x0f) || in(0x20, 0x5f)) return "Zen 3";
      if (in(0x10, 0x1f) || in(0x60, 0xaf)) return "Zen 4";
      return {};
    case 0x1a:
      if (in(0x00, 0x2f) || in(0x40, 0x4f) || in(0x60, 0x7f)) return "Zen 5";
      return {};
    default: return {};
  }
}

/// Intel microarchitecture (core name) by family 6 model; empty if unknown.
inline std::string intel_microarchitecture(int family, int model, int stepping) {
  if (family == 0xf) return "NetBurst";
  if (family != 6) return {};
  switch (model) {
    case 0x0f: case 0x16: return "Core (Merom)";
    case 0x17: case 0x1d: return "Penryn";
    case 0x1a: case 0x1e: case 0x1f: case 0x2e: return "Nehalem";
    case 0x25: case 0x2c: case 0x2f: return "Westmere";
    case 0x2a: case 0x2d: return "Sandy Bridge";
    case 0x3a: case 0x3e: return "Ivy Bridge";
    case 0x3c: case 0x3f: case 0x45: case 0x46: return "Haswell";
    case 0x3d: case 0x47: case 0x4f: case 0x56: return "Broadwell";
    case 0x4e: case 0x5e: return "Skylake";
    case 0x55:
      if (stepping >= 10) return "Cooper Lake";
      if (stepping >= 5) return "Cascade Lake";
      return "Skylake-SP";
    case 0x8e: case 0x9e: return "Kaby Lake / Coffee Lake (Skylake core)";
    case 0xa5: case 0xa6: return "Comet Lake (Skylake core)";
    case 0x66: return "Cannon Lake";
    case 0x7d: case 0x7e: return "Ice Lake";
    case 0x6a: case 0x6c: return "Ice Lake-SP";
    case 0x8c: case 0x8d: return "Tiger Lake";
    case 0xa7: return "Rocket Lake";
    case 0x97: case 0x9a: return "Alder Lake";
    case 0xbe: return "Alder Lake-N (Gracemont)";
    case 0xb7: case 0xba: case 0xbf: return "Raptor Lake";
    case 0x8f: return "Sapphire Rapids";
    case 0xcf: return "Emerald Rapids";
    case 0xaa: case 0xac: return "Meteor Lake";
    case 0xbd: return "Lunar Lake";
    case 0xc5: case 0xc6: return "Arrow Lake";
    case 0xad: case 0xae: return "Granite Rapids";
    case 0xaf: return "Sierra Forest";
    case 0x1c: case 0x26: case 0x27: case 0x35: case 0x36: return "Bonnell (Atom)";
    case 0x37: case 0x4a: case 0x4d: case 0x5a: case 0x5d: return "Silvermont";
    case 0x4c: return "Airmont";
    case 0x5c: case 0x5f: return "Goldmont";
    case 0x7a: return "Goldmont Plus";
    case 0x86: case 0x96: case 0x9c: return "Tremont";
    case 0x57: return "Knights Landing";
    case 0x85: return "Knights Mill";
    default: return {};
  }
}

/// "KVM" etc. from the 12-byte signature of CPUID 0x40000000.
inline std::string hypervisor_name(std::string_view sig) {
  static constexpr std::pair<std::string_view, std::string_view> known[] = {
      {"KVMKVMKVM", "KVM"},
      {"Microsoft Hv", "Hyper-V"},
      {"VMwareVMware", "VMware"},
      {"XenVMMXenVMM", "Xen"},
      {"TCGTCGTCGTCG", "QEMU (TCG)"},
      {"VBoxVBoxVBox", "VirtualBox"},
      {" lrpepyh  vr", "Parallels"},
      {"bhyve bhyve ", "bhyve"},
      {"ACRNACRNACRN", "ACRN"},
      {"QNXQVMBSQG", "QNX"},
      {"Linux KVM Hv", "KVM (Hyper-V emulation)"},
  };
  while (!sig.empty() && (sig.back() == '\0' || sig.back() == ' ')) sig.remove_suffix(1);
  for (const auto& [s, name] : known) {
    std::string_view t = s;
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    if (sig == t) return std::string(name);
  }
  std::string out;
  for (char c : sig) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return out.empty() ? std::string("unknown (empty signature)") : "unknown (\"" + out + "\")";
}

/// Display family, model and stepping from CPUID leaf 1's EAX (Intel SDM
/// vol. 2, CPUID): the extended family is added only to base family 0xf; the
/// extended model, shifted left by four, only to base families 6 and 0xf.
struct cpu_signature {
  int family = -1, model = -1, stepping = -1;
};
inline cpu_signature decode_cpu_signature(std::uint32_t eax) noexcept {
  const int base_family = static_cast<int>((eax >> 8) & 0xf);
  const int base_model = static_cast<int>((eax >> 4) & 0xf);
  cpu_signature s;
  s.stepping = static_cast<int>(eax & 0xf);
  s.family = base_family == 0xf ? base_family + static_cast<int>((eax >> 20) & 0xff) : base_family;
  s.model = (base_family == 0x6 || base_family == 0xf) ? base_model + (static_cast<int>((eax >> 16) & 0xf) << 4)
                                                        : base_model;
  return s;
}

/// The frequency after '@' in a brand string ("... @ 2.60GHz"), in Hz; 0 if none.
inline double brand_string_clock_hz(std::string_view brand) {
  const auto at = brand.find('@');
  if (at == std::string_view::npos) return 0;
  std::string_view rest = brand.substr(at + 1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  double v = 0;
  const auto r = std::from_chars(rest.data(), rest.data() + rest.size(), v);
  if (r.ec != std::errc() || !(v > 0)) return 0;
  std::string_view unit(r.ptr, static_cast<std::size_t>(rest.data() + rest.size() - r.ptr));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (unit.substr(0, 3) == "GHz") return v * 1e9;
  if (unit.substr(0, 3) == "MHz") return v * 1e6;
  return 0;
}

inline std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

inline std::string hex(int v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", static_cast<unsigned>(v));
  return buf;
}

#if BEM_DETAIL_HAVE_TSC
/// Fills vendor, model, family/model/stepping, microarchitecture, SIMD,
/// base clock (from CPUID) and hypervisor.
inline void probe_cpuid(hardware_report& r) {
  const cpuid_regs l0 = cpuid(0);
  const unsigned max_leaf = l0.a;
  char vendor[13];
  std::memcpy(vendor + 0, &l0.b, 4);
  std::memcpy(vendor + 4, &l0.d, 4);
  std::memcpy(vendor + 8, &l0.c, 4);
  vendor[12] = '\0';
  r.cpu_vendor = vendor;

  const cpu_signature sig = decode_cpu_signature(cpuid(1).a);
  r.family = sig.family;
  r.model = sig.model;
  r.stepping = sig.stepping;

  // Brand string.
  if (cpuid(0x80000000).a >= 0x80000004) {
    char brand[49] = {};
    for (unsigned i = 0; i < 3; ++i) {
      const cpuid_regs x = cpuid(0x80000002 + i);
      std::memcpy(brand + 16 * i + 0, &x.a, 4);
      std::memcpy(brand + 16 * i + 4, &x.b, 4);
      std::memcpy(brand + 16 * i + 8, &x.c, 4);
      std::memcpy(brand + 16 * i + 12, &x.d, 4);
    }
    r.cpu_model = trim(brand);
  }
  if (r.cpu_model.empty()) r.cpu_model = "unknown";

  // Microarchitecture.
  std::string uarch;
  if (r.cpu_vendor == "AuthenticAMD" || r.cpu_vendor == "HygonGenuine")
    uarch = amd_microarchitecture(r.family, r.model);
  else if (r.cpu_vendor == "GenuineIntel")
    uarch = intel_microarchitecture(r.family, r.model, r.stepping);
  r.microarchitecture = uarch.empty() ? "unknown (family " + hex(r.family) + " model " + hex(r.model) + ")" : uarch;

  // SIMD: the usable extensions (bem/platform/cpu_features.hpp), widest first.
  const cpu_features& f = this_cpu();
  const std::pair<bool, std::string_view> ext[] = {
      {f.avx512f, "avx512f"},       {f.avx512dq, "avx512dq"},     {f.avx512cd, "avx512cd"},
      {f.avx512bw, "avx512bw"},     {f.avx512vl, "avx512vl"},     {f.avx512ifma, "avx512ifma"},
      {f.avx512vbmi, "avx512vbmi"}, {f.avx512vbmi2, "avx512vbmi2"}, {f.avx512vnni, "avx512vnni"},
      {f.avx512bitalg, "avx512bitalg"}, {f.avx512vpopcntdq, "avx512vpopcntdq"}, {f.avx512bf16, "avx512bf16"},
      {f.avx512fp16, "avx512fp16"}, {f.avx512vp2intersect, "avx512vp2intersect"}, {f.avxvnni, "avxvnni"},
      {f.avx2, "avx2"},             {f.avx, "avx"},               {f.fma, "fma"},
      {f.f16c, "f16c"},             {f.vaes, "vaes"},             {f.vpclmulqdq, "vpclmulqdq"},
      {f.gfni, "gfni"},             {f.sse42, "sse4.2"},          {f.sse41, "sse4.1"},
      {f.ssse3, "ssse3"},           {f.sse3, "sse3"},             {f.sse2, "sse2"},
      {f.popcnt, "popcnt"},         {f.bmi1, "bmi1"},             {f.bmi2, "bmi2"},
      {f.pclmulqdq, "pclmulqdq"},   {f.aes, "aes"},               {f.sha, "sha"}};
  for (const auto& [present, name] : ext) {
    if (!present) continue;
    if (!r.simd_extensions.empty()) r.simd_extensions += ' ';
    r.simd_extensions += name;
  }
  r.simd_width_bits = f.avx512f ? 512 : f.avx2 ? 256 : 128;  // SSE2 is part of x86-64

  // Base clock: CPUID 0x16 (Intel), else the brand string.
  if (max_leaf >= 0x16) {
    const cpuid_regs l16 = cpuid(0x16);
    if ((l16.a & 0xffff) != 0) {
      r.base_clock_hz = static_cast<double>(l16.a & 0xffff) * 1e6;
      r.base_clock_source = "cpuid 0x16";
    }
  }
  if (r.base_clock_source.empty()) {
    const double hz = brand_string_clock_hz(r.cpu_model);
    if (hz > 0) {
      r.base_clock_hz = hz;
      r.base_clock_source = "brand string";
    }
  }

  // Hypervisor.
  if (f.hypervisor) {
    const cpuid_regs h = cpuid(0x40000000);
    char sig[13];
    std::memcpy(sig + 0, &h.b, 4);
    std::memcpy(sig + 4, &h.c, 4);
    std::memcpy(sig + 8, &h.d, 4);
    sig[12] = '\0';
    r.hypervisor = hypervisor_name(std::string_view(sig, std::strlen(sig)));
  } else {
    r.hypervisor = "none";
  }
}
#endif

}  // namespace detail

/// Probes the machine (CPUID, XGETBV, uname, the shared TSC calibration and
/// a perf_event_open attempt). The first call in a process pays for the TSC
/// calibration (about 0.1 s).
inline hardware_report probe_hardware() {
  hardware_report r;
  r.circuit_code = jit_backend_name(best_jit_backend());
#if BEM_DETAIL_HAVE_TSC
  detail::probe_cpuid(r);
#else
  r.cpu_vendor = "unknown";
  r.cpu_model = "unknown";
  r.microarchitecture = "unknown";
  r.hypervisor = "unknown";
#if defined(__aarch64__)
  r.simd_width_bits = 128;
  r.simd_extensions = "neon (mandatory on AArch64; SVE not probed)";
#else
  r.simd_extensions = "unknown";
#endif
#endif
  const tsc_calibration& cal = tsc_info();
  r.tsc_hz = cal.tsc_hz;
  r.tsc_source = cal.tsc_source;
  r.tsc_per_core_cycle = cal.tsc_per_core_cycle;
  r.core_clock_hz_estimate = cal.core_clock_hz;
  if (r.base_clock_source.empty()) {
    if (tsc_is_hardware) {
      r.base_clock_hz = cal.tsc_hz;
      r.base_clock_source = "TSC frequency (no base clock reported)";
    } else {
      r.base_clock_hz = std::numeric_limits<double>::quiet_NaN();
      r.base_clock_source = "unknown (no base clock reported)";
    }
  }
  {
    const cycle_counter counter;
    r.counters_available = counter.measured();
    r.cycle_method = counter.method();
  }
#if BEM_DETAIL_HAVE_UNAME
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  r.logical_cpus = n > 0 ? static_cast<int>(n) : static_cast<int>(std::thread::hardware_concurrency());
  utsname u{};
  if (uname(&u) == 0)
    r.kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
  else
    r.kernel = "unknown";
#else
  r.logical_cpus = static_cast<int>(std::thread::hardware_concurrency());
  r.kernel = "unknown";
#endif
  return r;
}

namespace detail {
inline std::string ghz_text(double hz) {
  if (!std::isfinite(hz)) return "unknown";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f GHz", hz / 1e9);
  return buf;
}
}  // namespace detail

/// A readable table, one "label  value" line per field.
inline std::string to_text(const hardware_report& r) {
  char buf[64];
  std::vector<std::pair<std::string_view, std::string>> rows;  // (label, value); the labels are literals
  rows.emplace_back("CPU vendor", r.cpu_vendor);
  rows.emplace_back("CPU model", r.cpu_model);
  rows.emplace_back("Microarchitecture", r.microarchitecture);
  if (r.family >= 0) {
    std::snprintf(buf, sizeof buf, "0x%x / 0x%x / %d", static_cast<unsigned>(r.family),
                  static_cast<unsigned>(r.model), r.stepping);
    rows.emplace_back("Family / model / stepping", buf);
  } else {
    rows.emplace_back("Family / model / stepping", "unknown");
  }
  rows.emplace_back("SIMD width W_hw", r.simd_width_bits > 0 ? std::to_string(r.simd_width_bits) + " bits" : "unknown");
  rows.emplace_back("SIMD extensions", r.simd_extensions);
  rows.emplace_back("Circuit code generator", r.circuit_code + " (bem::jit_circuit)");
  rows.emplace_back("Base clock", detail::ghz_text(r.base_clock_hz) + " (" + r.base_clock_source + ")");
  std::snprintf(buf, sizeof buf, "%.6f GHz", r.tsc_hz / 1e9);
  rows.emplace_back("TSC frequency", std::string(buf) + " (" + r.tsc_source + ")");
  std::snprintf(buf, sizeof buf, "%.3f", r.tsc_per_core_cycle);
  rows.emplace_back("TSC ticks per core cycle", buf);
  rows.emplace_back("Core clock (estimated)", detail::ghz_text(r.core_clock_hz_estimate) + " (dependent-add loop)");
  rows.emplace_back("Hardware counters", r.counters_available ? "yes (perf_event_open)" : "no");
  rows.emplace_back("Cycle counts", r.cycle_method);
  rows.emplace_back("Logical CPUs", std::to_string(r.logical_cpus));
  rows.emplace_back("Kernel", r.kernel);
  rows.emplace_back("Hypervisor", r.hypervisor);
  std::size_t width = 0;
  for (const auto& row : rows) width = std::max(width, row.first.size());
  std::string out;
  for (const auto& [label, value] : rows) {
    out += label;
    out.append(width + 2 - label.size(), ' ');
    out += value;
    out += '\n';
  }
  return out;
}

/// (name, JSON value) pairs in a fixed order (the hardware_report member
/// order and names): strings JSON-escaped, numbers in shortest round-trip
/// form (non-finite as null), Booleans true/false.
inline std::vector<std::pair<std::string, std::string>> to_fields(const hardware_report& r) {
  std::vector<std::pair<std::string, std::string>> f;
  const auto str = [&](const char* name, const std::string& v) {
    std::string s;
    detail::json_escape_into(s, v);
    f.emplace_back(name, std::move(s));
  };
  const auto num = [&](const char* name, double v) {
    std::string s;
    detail::json_number_into(s, v);
    f.emplace_back(name, std::move(s));
  };
  const auto integer = [&](const char* name, int v) { f.emplace_back(name, std::to_string(v)); };
  str("cpu_vendor", r.cpu_vendor);
  str("cpu_model", r.cpu_model);
  str("microarchitecture", r.microarchitecture);
  integer("family", r.family);
  integer("model", r.model);
  integer("stepping", r.stepping);
  integer("simd_width_bits", r.simd_width_bits);
  str("simd_extensions", r.simd_extensions);
  str("circuit_code", r.circuit_code);
  num("base_clock_hz", r.base_clock_hz);
  str("base_clock_source", r.base_clock_source);
  num("tsc_hz", r.tsc_hz);
  str("tsc_source", r.tsc_source);
  num("tsc_per_core_cycle", r.tsc_per_core_cycle);
  num("core_clock_hz_estimate", r.core_clock_hz_estimate);
  f.emplace_back("counters_available", r.counters_available ? "true" : "false");
  str("cycle_method", r.cycle_method);
  integer("logical_cpus", r.logical_cpus);
  str("kernel", r.kernel);
  str("hypervisor", r.hypervisor);
  return f;
}

BEM_NAMESPACE_END
