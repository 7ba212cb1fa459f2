// Honest cycle counting.
//
// The suite reports cost in core cycles (seed section 1.2). Where the machine
// exposes hardware counters, `cycle_counter` reads real cycles and retired
// instructions through perf_event_open. Where it does not (the usual case on
// the project's KVM guests), it counts
// time-stamp-counter ticks and converts them to core cycles with a measured
// ratio, and says so: its `method()` then reads "estimated via TSC (...)"
// with the TSC frequency and the ratio, and every result record carries it.
//
// On x86-64 the timer is the TSC read with fences (lfence; rdtsc at the
// start, rdtscp; lfence at the end), so neither earlier nor later
// instructions leak into the interval. On other architectures there is no
// TSC: the "ticks" are std::chrono::steady_clock nanoseconds (a 1 GHz tick),
// `tsc_is_hardware` is false, and the estimated label says "estimated via
// steady clock" instead.
//
// Calibration (TSC frequency and TSC ticks per core cycle) costs about
// 0.1 s and is done once per process, on first use, thread-safely
// (`tsc_info()`).
#pragma once

#include <bem/platform/cpu_features.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <ctime>

// BEM_DETAIL_FORCE_NO_TSC=1 takes the non-x86 path on x86-64 too; only the
// fallback's own test executable sets it (never mix it with other code).
#ifndef BEM_DETAIL_FORCE_NO_TSC
#define BEM_DETAIL_FORCE_NO_TSC 0
#endif

#if (defined(__x86_64__) || defined(_M_X64)) && !BEM_DETAIL_FORCE_NO_TSC
#define BEM_DETAIL_HAVE_TSC 1
#else
#define BEM_DETAIL_HAVE_TSC 0
#endif

// The add chain that measures the core clock is written in assembly where we
// can (it must cost one cycle per add at every optimisation level: the C++
// loop compiled at -O0 keeps its accumulator in memory, about 10 cycles an
// add). This does not depend on the TSC, so the forced fallback keeps it.
#if defined(__GNUC__) && defined(__x86_64__)
#define BEM_DETAIL_ADD_CHAIN_ASM 1
#define BEM_DETAIL_ADD_CHAIN_STEP "add %[inc], %[acc]\n\t"
#define BEM_DETAIL_ADD_CHAIN_LOOP "dec %[n]\n\tjnz 1b"
#elif defined(__GNUC__) && defined(__aarch64__)
#define BEM_DETAIL_ADD_CHAIN_ASM 1
#define BEM_DETAIL_ADD_CHAIN_STEP "add %[acc], %[acc], %[inc]\n\t"
#define BEM_DETAIL_ADD_CHAIN_LOOP "subs %[n], %[n], #1\n\tb.ne 1b"
#else
#define BEM_DETAIL_ADD_CHAIN_ASM 0
#endif

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/perf_event.h>)
#define BEM_DETAIL_HAVE_PERF 1
#include <linux/perf_event.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#endif
#ifndef BEM_DETAIL_HAVE_PERF
#define BEM_DETAIL_HAVE_PERF 0
#endif

BEM_NAMESPACE_BEGIN

/// True where read_tsc_begin/end read a hardware time-stamp counter (x86-64);
/// false where they fall back to steady_clock nanoseconds.
inline constexpr bool tsc_is_hardware = BEM_DETAIL_HAVE_TSC != 0;

/// Reads the TSC at the start of a timed interval: `lfence; rdtsc`, so every
/// earlier instruction has completed before the read. Fallback elsewhere:
/// steady_clock nanoseconds.
inline std::uint64_t read_tsc_begin() noexcept {
#if BEM_DETAIL_HAVE_TSC
  std::uint32_t lo, hi;
  asm volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
#else
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
#endif
}

/// Reads the TSC at the end of a timed interval: `rdtscp; lfence`, so the
/// timed instructions have completed before the read and later ones do not
/// start before it. Fallback elsewhere: steady_clock nanoseconds.
inline std::uint64_t read_tsc_end() noexcept {
#if BEM_DETAIL_HAVE_TSC
  std::uint32_t lo, hi, aux;
  asm volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
  (void)aux;
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
#else
  return read_tsc_begin();
#endif
}

/// The TSC frequency, where it came from, and the core clock relative to it.
struct tsc_calibration {
  double tsc_hz = 0;  ///< TSC ticks per second (1e9 for the steady-clock fallback)
  /// "sysfs tsc_freq_khz", "cpuid 0x15", "cpuid 0x40000010 (hypervisor)" (each
  /// only when it agrees with a measurement to 0.5%), "measured against
  /// CLOCK_MONOTONIC_RAW (60 ms)" (possibly followed by the disagreeing
  /// nominal value), or "steady_clock nanoseconds (no TSC on this architecture)";
  /// followed by detail::tsc_invariance_note where CPUID does not report an
  /// invariant TSC.
  std::string tsc_source;
  double tsc_per_core_cycle = 0;  ///< TSC ticks per core cycle (core cycles = ticks / this)
  double core_clock_hz = 0;       ///< tsc_hz / tsc_per_core_cycle
};

namespace detail {

/// Nanoseconds of CLOCK_MONOTONIC_RAW (not slewed by NTP), or of
/// steady_clock where that clock does not exist.
inline std::int64_t raw_clock_ns() noexcept {
#if defined(CLOCK_MONOTONIC_RAW)
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
#else
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
#endif
}

/// A (TSC, clock) pair taken as close together as possible: the clock read
/// is bracketed by two TSC reads and the narrowest of several brackets wins,
/// so a preemption in the middle of one does not spoil the pair.
struct tsc_clock_pair {
  double tsc;
  std::int64_t ns;
};
inline tsc_clock_pair tsc_clock_sample() noexcept {
  tsc_clock_pair best{0, 0};
  std::uint64_t best_width = std::numeric_limits<std::uint64_t>::max();
  for (int i = 0; i < 16; ++i) {
    const std::uint64_t t0 = read_tsc_begin();
    const std::int64_t ns = raw_clock_ns();
    const std::uint64_t t1 = read_tsc_end();
    if (t1 - t0 < best_width) {
      best_width = t1 - t0;
      best = {static_cast<double>(t0) + static_cast<double>(t1 - t0) / 2, ns};
    }
  }
  return best;
}

/// TSC ticks per second measured against CLOCK_MONOTONIC_RAW over `ms`
/// milliseconds (slept, not spun: an invariant TSC ticks on while the core
/// sleeps, and sleeping leaves the shared machine's cores to others; where
/// CPUID does not report one, calibrate_tsc_hz's source says so).
inline double measure_tsc_hz(int ms) {
  const tsc_clock_pair a = tsc_clock_sample();
  timespec req{ms / 1000, static_cast<long>(ms % 1000) * 1000000L};
  while (nanosleep(&req, &req) != 0 && errno == EINTR) {
  }
  const tsc_clock_pair b = tsc_clock_sample();
  if (b.ns <= a.ns) return 0;
  return (b.tsc - a.tsc) * 1e9 / static_cast<double>(b.ns - a.ns);
}

/// A nominal TSC frequency the platform states, with its source; 0 if none.
inline std::pair<double, std::string> nominal_tsc_hz() {
  {
    std::ifstream f("/sys/devices/system/cpu/cpu0/tsc_freq_khz");
    double khz = 0;
    if (f >> khz && khz > 0) return {khz * 1e3, "sysfs tsc_freq_khz"};
  }
#if BEM_DETAIL_HAVE_TSC
  // eax: denominator, ebx: numerator of TSC/crystal ratio; ecx: crystal Hz
  // (all zero where leaf 0x15 lies above the maximum).
  const detail::cpuid_regs l15 = detail::cpuid(0x15);
  if (l15.a != 0 && l15.b != 0 && l15.c != 0) return {static_cast<double>(l15.c) * l15.b / l15.a, "cpuid 0x15"};
  if (this_cpu().hypervisor) {
    const unsigned max_hv = detail::cpuid(0x40000000).a;
    if (max_hv >= 0x40000010 && max_hv < 0x40010000) {
      const unsigned khz = detail::cpuid(0x40000010).a;  // VMware / KVM timing leaf: eax = TSC kHz
      if (khz != 0) return {static_cast<double>(khz) * 1e3, "cpuid 0x40000010 (hypervisor)"};
    }
  }
#endif
  return {0, {}};
}

/// Whether CPUID says the TSC is invariant (leaf 0x80000007, EDX bit 8): it
/// ticks at one rate in every P-, C- and T-state. The calibration assumes it
/// (it sleeps while timing the TSC, and converts ticks with one ratio).
inline bool tsc_reported_invariant() noexcept {
#if BEM_DETAIL_HAVE_TSC
  return (detail::cpuid(0x80000007).d >> 8) & 1u;  // zero above the maximum leaf
#else
  return true;  // no TSC: the ticks are steady_clock nanoseconds
#endif
}

/// What the TSC source label adds when the TSC is not reported invariant
/// (many hypervisors hide the flag even where the host's TSC is invariant).
inline std::string tsc_invariance_note(bool invariant) {
  return invariant ? std::string() : "; CPUID does not report an invariant TSC, so ticks may stop or change rate "
                                     "with the core's power state";
}

/// `adds` dependent integer additions, each waiting for the previous one:
/// add has a latency of one core cycle on every current core, so the chain
/// takes `adds` core cycles. Register-register adds (not add-immediate, which
/// some renamers fold away). The loop counter runs on a separate chain.
/// Assembly on x86-64 and AArch64; elsewhere a C++ loop whose chain is one
/// add per cycle only when the caller is compiled with optimisation.
inline std::uint64_t dependent_adds(std::uint64_t blocks, std::uint64_t acc, std::uint64_t inc) noexcept {
  constexpr std::uint64_t per_block = 100;
  if (blocks == 0) return acc;
#if BEM_DETAIL_ADD_CHAIN_ASM
  asm volatile("1:\n\t"
               ".rept 100\n\t" BEM_DETAIL_ADD_CHAIN_STEP ".endr\n\t" BEM_DETAIL_ADD_CHAIN_LOOP
               : [acc] "+&r"(acc), [n] "+&r"(blocks)
               : [inc] "r"(inc)
               : "cc");
#elif defined(__GNUC__)
  for (std::uint64_t i = 0; i < blocks; ++i) {
    for (std::uint64_t j = 0; j < per_block; ++j) {
      acc += inc;
      asm volatile("" : "+r"(acc));  // the compiler can neither fold nor reassociate the chain
    }
  }
#else
  volatile std::uint64_t v = acc;
  for (std::uint64_t i = 0; i < blocks * per_block; ++i) v = v + inc;
  acc = v;
#endif
  (void)per_block;
  return acc;
}

}  // namespace detail

/// TSC ticks per second. Measures the TSC against CLOCK_MONOTONIC_RAW over
/// about 60 ms; where the platform states a nominal frequency (sysfs
/// tsc_freq_khz, CPUID 0x15, or the hypervisor's CPUID 0x40000010) and it
/// agrees with the measurement to 0.5%, the nominal value is used.
/// `source`, when given, receives which (see tsc_calibration::tsc_source).
inline double calibrate_tsc_hz(std::string* source = nullptr) {
  if constexpr (!tsc_is_hardware) {
    if (source) *source = "steady_clock nanoseconds (no TSC on this architecture)";
    return 1e9;
  }
  constexpr int ms = 60;
  const double measured = detail::measure_tsc_hz(ms);
  std::string label = "measured against CLOCK_MONOTONIC_RAW (" + std::to_string(ms) + " ms)";
  const auto [nominal, nominal_source] = detail::nominal_tsc_hz();
  double hz = measured;
  if (nominal > 0) {
    if (std::fabs(nominal - measured) <= 0.005 * measured) {
      hz = nominal;
      label = nominal_source;
    } else {
      char buf[96];
      std::snprintf(buf, sizeof buf, "; %s said %.4f GHz, which disagrees", nominal_source.c_str(), nominal / 1e9);
      label += buf;
    }
  }
  label += detail::tsc_invariance_note(detail::tsc_reported_invariant());
  if (source) *source = std::move(label);
  return hz;
}

/// TSC ticks per core cycle (below 1 when the core runs faster than the TSC).
/// Times a chain of dependent register adds (1 core cycle each) with the TSC
/// and takes the minimum over many short repetitions: each lasts about 20 us
/// (sized with `tsc_hz`), so on a busy or shared machine some of them run
/// without being preempted, and interference only ever adds ticks.
inline double measure_tsc_per_core_cycle(double tsc_hz) {
  if (!(tsc_hz > 0)) tsc_hz = 1e9;
  const std::uint64_t blocks = static_cast<std::uint64_t>(std::clamp(tsc_hz * 20e-6 / 100, 10.0, 1e6));
  const std::uint64_t adds = blocks * 100;
  std::uint64_t acc = static_cast<std::uint64_t>(detail::raw_clock_ns());
  const std::uint64_t inc = acc | 1;
  double best = std::numeric_limits<double>::infinity();
  acc = detail::dependent_adds(blocks * 20, acc, inc);  // warm-up: code cache, clock ramp
  for (int rep = 0; rep < 200; ++rep) {
    const std::uint64_t t0 = read_tsc_begin();
    acc = detail::dependent_adds(blocks, acc, inc);
    const std::uint64_t t1 = read_tsc_end();
    best = std::min(best, static_cast<double>(t1 - t0) / static_cast<double>(adds));
  }
#if defined(__GNUC__)
  asm volatile("" : : "r"(acc));  // keep the result observable
#endif
  return best;
}

/// Calibrates now (about 0.1 s): TSC frequency and its source, TSC ticks per
/// core cycle, core clock.
inline tsc_calibration calibrate_tsc() {
  tsc_calibration c;
  c.tsc_hz = calibrate_tsc_hz(&c.tsc_source);
  c.tsc_per_core_cycle = measure_tsc_per_core_cycle(c.tsc_hz);
  c.core_clock_hz = c.tsc_hz / c.tsc_per_core_cycle;
  return c;
}

/// The environment variable through which a host shares its calibration
/// with the plugins it loads: "<tsc_hz> <tsc_per_core_cycle> <tsc_source>".
/// Plugins are built with hidden visibility, so each holds its own copy of
/// tsc_info()'s static; without this each would calibrate again and convert
/// ticks to cycles with a slightly different ratio from the one the host
/// records in its results' context.
inline constexpr const char* calibration_environment_variable = "BEM_TSC_CALIBRATION";

namespace detail {

inline std::string format_calibration(const tsc_calibration& c) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g %.17g ", c.tsc_hz, c.tsc_per_core_cycle);
  return buf + c.tsc_source;
}

/// The calibration in `text` (format_calibration's form), or nothing when it
/// is absent or malformed.
inline std::optional<tsc_calibration> parse_calibration(const char* text) {
  if (text == nullptr) return std::nullopt;
  char* end = nullptr;
  tsc_calibration c;
  c.tsc_hz = std::strtod(text, &end);
  if (end == text || *end != ' ') return std::nullopt;
  const char* next = end + 1;
  c.tsc_per_core_cycle = std::strtod(next, &end);
  if (end == next || *end != ' ') return std::nullopt;
  if (!(std::isfinite(c.tsc_hz) && c.tsc_hz > 0 && std::isfinite(c.tsc_per_core_cycle) && c.tsc_per_core_cycle > 0))
    return std::nullopt;
  c.tsc_source = end + 1;
  c.core_clock_hz = c.tsc_hz / c.tsc_per_core_cycle;
  return c;
}

}  // namespace detail

/// The process-wide calibration, computed on first use (thread-safe) and
/// shared by every cycle_counter and the hardware report; in a module loaded
/// by a host that called share_calibration_with_plugins(), the host's.
inline const tsc_calibration& tsc_info() {
  static const tsc_calibration c = [] {
    if (auto shared = detail::parse_calibration(std::getenv(calibration_environment_variable))) return *shared;
    return calibrate_tsc();
  }();
  return c;
}

#if defined(__unix__)
/// Publishes this module's calibration (calibrating now if needed) in the
/// environment, for the plugins loaded after it. Call once, from the main
/// thread, before loading plugins or starting threads (setenv is not
/// thread-safe); bem-bench does so before it runs a suite.
inline void share_calibration_with_plugins() {
  ::setenv(calibration_environment_variable, detail::format_calibration(tsc_info()).c_str(), 1);
}
#endif

/// How cycles are obtained, without figures (the part that stays the same
/// between runs): "measured (perf_event_open)", "estimated via TSC", or
/// without a TSC "estimated via steady clock".
constexpr const char* cycle_counting_method(bool measured) noexcept {
  return measured ? "measured (perf_event_open)" : tsc_is_hardware ? "estimated via TSC" : "estimated via steady clock";
}

/// The method label written into results: "measured (perf_event_open)" or
/// "estimated via TSC (2.596 GHz, 0.707 TSC ticks per core cycle)" (the ratio
/// part only when `tsc_per_core_cycle` is given). Without a hardware TSC:
/// "estimated via steady clock (1.000 GHz ticks, ...)". Every estimated label
/// starts with "estimated".
inline std::string cycle_method_label(bool measured, double tsc_hz,
                                      double tsc_per_core_cycle = std::numeric_limits<double>::quiet_NaN()) {
  if (measured) return cycle_counting_method(true);
  char buf[128];
  const char* what = cycle_counting_method(false);
  const char* unit = tsc_is_hardware ? "GHz" : "GHz ticks";
  const char* ticks = tsc_is_hardware ? "TSC ticks" : "ticks";
  if (std::isfinite(tsc_per_core_cycle))
    std::snprintf(buf, sizeof buf, "%s (%.3f %s, %.3f %s per core cycle)", what, tsc_hz / 1e9, unit,
                  tsc_per_core_cycle, ticks);
  else
    std::snprintf(buf, sizeof buf, "%s (%.3f %s)", what, tsc_hz / 1e9, unit);
  return buf;
}

namespace detail {

/// One read of the perf_event_open group (cycles, instructions): counts and
/// the group's time_enabled / time_running in ns; `ok` false when the read
/// failed.
struct perf_group_read {
  std::uint64_t cycles = 0, instructions = 0, enabled = 0, running = 0;
  bool ok = false;
};

/// Cycles and instructions counted between two reads of each group, one
/// group per core PMU (detail::core_pmu_types): the groups' counts are
/// summed. Where the kernel multiplexed the counters, the groups ran for
/// only part of time_enabled and the sum is scaled up by time_enabled over
/// their summed time_running (as perf stat does). On a hybrid CPU each
/// group runs only while the thread is on its kind of core, so without
/// multiplexing the running times add up to the enabled time and nothing is
/// scaled. NaN when a read failed or no group ran in the interval: then
/// nothing was counted, and 0 would pass for a measurement.
inline std::pair<double, double> counted_interval(std::span<const perf_group_read> a,
                                                  std::span<const perf_group_read> b) noexcept {
  constexpr double none = std::numeric_limits<double>::quiet_NaN();
  if (a.empty() || a.size() != b.size()) return {none, none};
  double cycles = 0, instructions = 0, enabled = 0, running = 0;
  for (std::size_t g = 0; g < a.size(); ++g) {
    if (!a[g].ok || !b[g].ok) return {none, none};
    cycles += static_cast<double>(b[g].cycles - a[g].cycles);
    instructions += static_cast<double>(b[g].instructions - a[g].instructions);
    // Every group is enabled for the whole interval: the same time, up to
    // the few nanoseconds between their reads.
    enabled = std::max(enabled, static_cast<double>(b[g].enabled - a[g].enabled));
    if (b[g].running > a[g].running) running += static_cast<double>(b[g].running - a[g].running);
  }
  if (running <= 0) return {none, none};
  const double scale = running < enabled ? enabled / running : 1.0;
  return {cycles * scale, instructions * scale};
}

/// One group's interval (a CPU with one core PMU).
inline std::pair<double, double> counted_interval(const perf_group_read& a, const perf_group_read& b) noexcept {
  return counted_interval(std::span<const perf_group_read>(&a, 1), std::span<const perf_group_read>(&b, 1));
}

/// The perf event types of the core PMUs, where the CPU has several: a
/// hybrid CPU lists one event source per kind of core under `devices`
/// (Intel since Alder Lake: cpu_core and cpu_atom, each with a `type`
/// file), and a plain cycles event opened there counts only on the cores of
/// one of them, so a thread that moves to the other kind would lose its
/// cycles. Empty where there is one core PMU (named "cpu", or none at all):
/// then the plain PERF_TYPE_HARDWARE event counts on every core. Sorted;
/// entries whose `type` is not a number are skipped.
inline std::vector<std::uint32_t> core_pmu_types(const char* devices = "/sys/bus/event_source/devices") {
  std::vector<std::uint32_t> types;
#if BEM_DETAIL_HAVE_PERF
  DIR* dir = ::opendir(devices);
  if (dir == nullptr) return types;
  while (const dirent* e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (name.rfind("cpu_", 0) != 0) continue;
    std::ifstream f(std::string(devices) + "/" + name + "/type");
    unsigned long type = 0;
    if (f >> type && type <= 0xFFFFFFFFul) types.push_back(static_cast<std::uint32_t>(type));
  }
  ::closedir(dir);
  std::sort(types.begin(), types.end());
#else
  (void)devices;
#endif
  return types;
}

}  // namespace detail

/// One timed interval.
struct cycle_sample {
  /// core cycles: counted, or TSC ticks / TSC ticks per core cycle; NaN when
  /// counters are in use but could not count this interval (see
  /// detail::counted_interval)
  double cycles;
  double instructions;  ///< retired instructions; NaN when not measured
  double tsc_ticks;     ///< TSC ticks (steady-clock ns without a TSC)
  double seconds;       ///< tsc_ticks / TSC frequency
  bool measured;        ///< true: cycles come from hardware counters
};

/// Counts core cycles of an interval: start(), the work, stop().
///
/// The constructor tries perf_event_open for CPU cycles and retired
/// instructions of the calling thread, user space only: one group (cycles
/// leading, instructions) on a CPU with one core PMU, and one group per core
/// PMU on a hybrid CPU (detail::core_pmu_types), whose counts are summed, so
/// that cycles on either kind of core are counted; if any of those groups
/// cannot be opened, none is used. If that works, `measured()` is true and
/// method() is "measured (perf_event_open)"; the counters then belong to the
/// constructing thread, so start and stop it on that thread. Otherwise
/// cycles are TSC ticks / TSC ticks per core cycle, and start()/stop() make
/// no system call (two fenced TSC reads).
class cycle_counter {
 public:
  /// Core PMUs counted at most (a hybrid CPU has two or three).
  static constexpr std::size_t max_core_pmus = 4;

  /// `try_counters = false` skips perf_event_open and always estimates.
  explicit cycle_counter(bool try_counters = true) : cal_(&tsc_info()) {
    if (try_counters) open_counters();
    method_ = cycle_method_label(measured(), cal_->tsc_hz, cal_->tsc_per_core_cycle);
  }
  cycle_counter(const cycle_counter&) = delete;
  cycle_counter& operator=(const cycle_counter&) = delete;
  cycle_counter(cycle_counter&& o) noexcept
      : cal_(o.cal_), method_(std::move(o.method_)), groups_(std::exchange(o.groups_, {})),
        group_count_(std::exchange(o.group_count_, 0)), start_tsc_(o.start_tsc_), start_(o.start_) {}
  cycle_counter& operator=(cycle_counter&& o) noexcept {
    if (this != &o) {
      close_counters();
      cal_ = o.cal_;
      method_ = std::move(o.method_);
      groups_ = std::exchange(o.groups_, {});
      group_count_ = std::exchange(o.group_count_, 0);
      start_tsc_ = o.start_tsc_;
      start_ = o.start_;
    }
    return *this;
  }
  ~cycle_counter() { close_counters(); }

  /// True when cycles come from hardware counters.
  bool measured() const noexcept { return group_count_ > 0; }
  /// True when retired instructions are counted too (on every core PMU).
  bool counts_instructions() const noexcept {
    for (std::size_t g = 0; g < group_count_; ++g)
      if (groups_[g].instructions_fd < 0) return false;
    return measured();
  }
  /// Core PMUs counted: 1 on most CPUs, one per kind of core on a hybrid
  /// CPU, 0 when cycles are estimated.
  std::size_t core_pmus_counted() const noexcept { return group_count_; }
  /// cycle_method_label(measured(), TSC frequency, ticks per core cycle).
  const std::string& method() const noexcept { return method_; }
  /// The unit of a cycle figure: says how cycles were obtained and stays the
  /// same between runs (the calibration figures behind an estimate vary).
  const char* unit() const noexcept {
    if (measured()) return "cycles (measured, perf_event_open)";
    return tsc_is_hardware ? "cycles (estimated via TSC)" : "cycles (estimated via steady clock)";
  }
  /// The shared calibration in use.
  const tsc_calibration& calibration() const noexcept { return *cal_; }

  /// Marks the start of an interval.
  void start() noexcept {
    if (measured()) start_ = read_counters();
    start_tsc_ = read_tsc_begin();
  }

  /// The interval since the last start() (stop() may be called repeatedly).
  cycle_sample stop() noexcept {
    const std::uint64_t end_tsc = read_tsc_end();
    cycle_sample s{};
    s.tsc_ticks = static_cast<double>(end_tsc - start_tsc_);
    s.seconds = s.tsc_ticks / cal_->tsc_hz;
    s.instructions = std::numeric_limits<double>::quiet_NaN();
    if (measured()) {
      const reads end = read_counters();
      const auto [cycles, instructions] = detail::counted_interval(std::span(start_.data(), group_count_),
                                                                   std::span(end.data(), group_count_));
      s.cycles = cycles;
      if (counts_instructions()) s.instructions = instructions;
      s.measured = true;
    } else {
      s.cycles = s.tsc_ticks / cal_->tsc_per_core_cycle;
      s.measured = false;
    }
    return s;
  }

 private:
  using counts = detail::perf_group_read;
  using reads = std::array<counts, max_core_pmus>;
  struct group {
    int cycles_fd = -1;
    int instructions_fd = -1;
  };

  reads read_counters() const noexcept {
    reads r{};
#if BEM_DETAIL_HAVE_PERF
    for (std::size_t g = 0; g < group_count_; ++g) {
      // PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING:
      // nr, time_enabled, time_running, value[nr].
      std::uint64_t buf[5] = {0, 0, 0, 0, 0};
      const ssize_t n = ::read(groups_[g].cycles_fd, buf, sizeof buf);
      if (n >= static_cast<ssize_t>(4 * sizeof(std::uint64_t))) {
        r[g].enabled = buf[1];
        r[g].running = buf[2];
        r[g].cycles = buf[3];
        if (buf[0] >= 2) r[g].instructions = buf[4];
        r[g].ok = true;
      }
    }
#endif
    return r;
  }

#if BEM_DETAIL_HAVE_PERF
  /// Opens the group of core PMU `pmu_type` (0: the plain hardware events)
  /// as groups_[group_count_]; false when its cycles event cannot be opened.
  bool open_group(std::uint32_t pmu_type) noexcept {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    // A hybrid CPU's PMU is named in the config's upper half (Linux 5.13:
    // PERF_PMU_TYPE_SHIFT, 32, which older headers lack).
    const std::uint64_t pmu = std::uint64_t{pmu_type} << 32;
    attr.config = pmu | PERF_COUNT_HW_CPU_CYCLES;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    const long leader = ::syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (leader < 0) return false;
    group& g = groups_[group_count_++];
    g.cycles_fd = static_cast<int>(leader);
    attr.config = pmu | PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 0;
    const long member = ::syscall(SYS_perf_event_open, &attr, 0, -1, g.cycles_fd, PERF_FLAG_FD_CLOEXEC);
    if (member >= 0) g.instructions_fd = static_cast<int>(member);
    return true;
  }
#endif

  void open_counters() noexcept {
#if BEM_DETAIL_HAVE_PERF
    std::vector<std::uint32_t> types;
    try {
      types = detail::core_pmu_types();
    } catch (...) {  // no memory for a few integers: estimate instead
      return;
    }
    if (types.size() > max_core_pmus) return;  // a CPU we cannot count whole: estimate
    if (types.empty()) types.push_back(0);
    for (const std::uint32_t t : types)
      if (!open_group(t)) {  // counting some kinds of core only would lose cycles silently
        close_counters();
        return;
      }
    for (std::size_t g = 0; g < group_count_; ++g)
      if (::ioctl(groups_[g].cycles_fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) != 0 ||
          ::ioctl(groups_[g].cycles_fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0) {
        close_counters();
        return;
      }
    // Some virtual machines open the events but never count: check.
    const reads a = read_counters();
    (void)detail::dependent_adds(1000, 1, 1);
    const reads b = read_counters();
    const double counted = detail::counted_interval(std::span(a.data(), group_count_),
                                                    std::span(b.data(), group_count_)).first;
    if (!(counted > 0)) close_counters();
#endif
  }

  void close_counters() noexcept {
#if BEM_DETAIL_HAVE_PERF
    for (std::size_t g = 0; g < group_count_; ++g) {
      if (groups_[g].instructions_fd >= 0) ::close(groups_[g].instructions_fd);
      if (groups_[g].cycles_fd >= 0) ::close(groups_[g].cycles_fd);
    }
#endif
    groups_ = {};
    group_count_ = 0;
  }

  const tsc_calibration* cal_;
  std::string method_;
  std::array<group, max_core_pmus> groups_{};
  std::size_t group_count_ = 0;
  std::uint64_t start_tsc_ = 0;
  reads start_{};
};

BEM_NAMESPACE_END
