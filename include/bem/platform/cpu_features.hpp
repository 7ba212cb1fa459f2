// The CPU's instruction-set extensions, probed once (CPUID and XGETBV).
//
// Every part of bem that picks a code path by CPU (the JIT's back end, the
// routers' AVX-512 kernels, SHA-256 with the SHA extensions, the hardware
// report) asks this header, so a process sees one answer everywhere.
//
// A vector extension counts as present only when the CPU has it and the OS
// saves its registers (XCR0): AVX-class flags need the XMM and YMM state,
// AVX-512-class flags the opmask, ZMM_Hi256 and Hi16_ZMM state as well. On a
// CPU that is not x86-64, or a compiler without <cpuid.h>, every flag is false.
#pragma once

#include <bem/version.hpp>

#include <cstdint>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#endif

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <cpuid.h>
#define BEM_DETAIL_HAVE_CPUID 1
#else
#define BEM_DETAIL_HAVE_CPUID 0
#endif

BEM_NAMESPACE_BEGIN

/// What this CPU and OS let a process run (see the file comment).
struct cpu_features {
  // Base (no OS state needed beyond x86-64's).
  bool sse2 = false, sse3 = false, ssse3 = false, sse41 = false, sse42 = false;
  bool popcnt = false, bmi1 = false, bmi2 = false, pclmulqdq = false, aes = false, sha = false, gfni = false;
  // AVX class (XMM and YMM state saved by the OS).
  bool avx = false, avx2 = false, fma = false, f16c = false, vaes = false, vpclmulqdq = false, avxvnni = false;
  // AVX-512 class (opmask and ZMM state saved as well).
  bool avx512f = false, avx512dq = false, avx512cd = false, avx512bw = false, avx512vl = false;
  bool avx512ifma = false, avx512vbmi = false, avx512vbmi2 = false, avx512vnni = false, avx512bitalg = false;
  bool avx512vpopcntdq = false, avx512bf16 = false, avx512fp16 = false, avx512vp2intersect = false;
  bool hypervisor = false;  ///< CPUID.1:ECX bit 31: running under a hypervisor
};

namespace detail {

struct cpuid_regs {
  unsigned a = 0, b = 0, c = 0, d = 0;
};

/// CPUID leaf `leaf`, sub-leaf `sub`; all zero where there is no CPUID or a
/// basic or extended leaf lies above the CPU's maximum. Hypervisor leaves
/// (0x40000000..) are asked as they are: the caller checks their signature.
inline cpuid_regs cpuid(unsigned leaf, unsigned sub = 0) noexcept {
  cpuid_regs r;
#if BEM_DETAIL_HAVE_CPUID
  const bool hypervisor_range = (leaf & 0xf0000000u) == 0x40000000u;
  if (!hypervisor_range && __get_cpuid_max(leaf & 0x80000000u, nullptr) < leaf) return r;
  __cpuid_count(leaf, sub, r.a, r.b, r.c, r.d);
#else
  (void)leaf;
  (void)sub;
#endif
  return r;
}

/// XCR0, the register state the OS saves (0 without OSXSAVE).
inline std::uint64_t xcr0() noexcept {
#if BEM_DETAIL_HAVE_CPUID
  if (((cpuid(1).c >> 27) & 1u) == 0) return 0;
  std::uint32_t lo = 0, hi = 0;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
#else
  return 0;
#endif
}

inline cpu_features probe_cpu_features() noexcept {
  cpu_features f;
  const cpuid_regs l1 = cpuid(1);
  const cpuid_regs l7 = cpuid(7, 0);
  const cpuid_regs l7s1 = l7.a >= 1 ? cpuid(7, 1) : cpuid_regs{};
  const auto bit = [](unsigned reg, int b) { return ((reg >> b) & 1u) != 0; };
  const std::uint64_t x = xcr0();
  const bool os_avx = (x & 0x6) == 0x6;                  // XMM, YMM
  const bool os_avx512 = os_avx && (x & 0xe0) == 0xe0;  // opmask, ZMM_Hi256, Hi16_ZMM

  f.sse2 = bit(l1.d, 26);
  f.sse3 = bit(l1.c, 0);
  f.ssse3 = bit(l1.c, 9);
  f.sse41 = bit(l1.c, 19);
  f.sse42 = bit(l1.c, 20);
  f.popcnt = bit(l1.c, 23);
  f.pclmulqdq = bit(l1.c, 1);
  f.aes = bit(l1.c, 25);
  f.bmi1 = bit(l7.b, 3);
  f.bmi2 = bit(l7.b, 8);
  f.sha = bit(l7.b, 29);
  f.gfni = bit(l7.c, 8);
  f.hypervisor = bit(l1.c, 31);

  f.avx = os_avx && bit(l1.c, 28);
  f.avx2 = os_avx && bit(l7.b, 5);
  f.fma = os_avx && bit(l1.c, 12);
  f.f16c = os_avx && bit(l1.c, 29);
  f.vaes = os_avx && bit(l7.c, 9);
  f.vpclmulqdq = os_avx && bit(l7.c, 10);
  f.avxvnni = os_avx && bit(l7s1.a, 4);

  f.avx512f = os_avx512 && bit(l7.b, 16);
  if (f.avx512f) {
    f.avx512dq = bit(l7.b, 17);
    f.avx512cd = bit(l7.b, 28);
    f.avx512bw = bit(l7.b, 30);
    f.avx512vl = bit(l7.b, 31);
    f.avx512ifma = bit(l7.b, 21);
    f.avx512vbmi = bit(l7.c, 1);
    f.avx512vbmi2 = bit(l7.c, 6);
    f.avx512vnni = bit(l7.c, 11);
    f.avx512bitalg = bit(l7.c, 12);
    f.avx512vpopcntdq = bit(l7.c, 14);
    f.avx512bf16 = bit(l7s1.a, 5);
    f.avx512fp16 = bit(l7.d, 23);
    f.avx512vp2intersect = bit(l7.d, 8);
  }
  return f;
}

}  // namespace detail

/// This process's CPU features, probed on the first call.
inline const cpu_features& this_cpu() noexcept {
  static const cpu_features f = detail::probe_cpu_features();
  return f;
}

namespace detail {
/// Whether this build can emit and run x86-64 code at all (the CPU may
/// still lack the extensions: see best_jit_backend).
inline constexpr bool jit_x86_target =
#if defined(__x86_64__) && defined(__GNUC__) && (defined(__unix__) || defined(__APPLE__)) && defined(MAP_ANONYMOUS)
    true;
#else
    false;
#endif
}  // namespace detail

/// Where a jit_circuit's evaluations run (bem/circuits/jit.hpp).
enum class jit_backend : std::uint8_t {
  interpreter = 0,  ///< gate_list::evaluate (no code generated)
  avx2 = 1,         ///< VEX code, 16 vector registers
  avx512 = 2,       ///< EVEX code, 32 vector registers, vpternlogq (AVX-512F with VL)
};

constexpr const char* jit_backend_name(jit_backend b) noexcept {
  switch (b) {
    case jit_backend::avx2: return "avx2";
    case jit_backend::avx512: return "avx512";
    default: return "interpreter";
  }
}

/// The best back end this process can use (interpreter where the build
/// cannot generate x86-64 code).
inline jit_backend best_jit_backend() noexcept {
  if constexpr (!detail::jit_x86_target) {
    return jit_backend::interpreter;
  } else {
    const cpu_features& f = this_cpu();
    return f.avx512f && f.avx512vl ? jit_backend::avx512 : f.avx2 ? jit_backend::avx2 : jit_backend::interpreter;
  }
}

BEM_NAMESPACE_END
