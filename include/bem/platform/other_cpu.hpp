// How much of the machine other processes used while a bench was timed.
//
// A bench's ratio compares two timings; when other processes share the cores
// either side can be slowed, in either direction, and the ratio means little.
// So every bench prints the share of all CPUs' time that went to processes
// other than itself during its timed part, on its RESULT line
// (`other_cpu=0.03`), and warns above 10%.
//
//   share = (busy jiffies of all CPUs - this process's own CPU ticks)
//           / (all jiffies of all CPUs)                    over the interval
//
// Busy jiffies come from /proc/stat's aggregate `cpu` line (user, nice,
// system, irq, softirq, steal; guest time is already inside user and nice);
// the denominator is the same line's total (busy + idle + iowait), which is
// elapsed time x online CPUs counted by the same clock. Our own ticks are
// utime + stime + cutime + cstime of /proc/self/stat: a bench's threads and
// the peer programs it ran and waited for are its own work, not another
// process's. Both files count in USER_HZ ticks. Where /proc is not readable
// (not Linux) the share is NaN and prints as `other_cpu=unknown`.
// bench/other_cpu.py is the same measurement for the Python peers.
#pragma once

#include <bem/version.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

BEM_NAMESPACE_BEGIN

/// Above this share of other processes a bench's figure is unreliable.
inline constexpr double other_cpu_unreliable_above = 0.10;

/// The aggregate `cpu` line of /proc/stat, in USER_HZ ticks.
struct cpu_jiffies {
  std::uint64_t busy = 0;   ///< user + nice + system + irq + softirq + steal
  std::uint64_t total = 0;  ///< busy + idle + iowait
};

namespace detail {
inline std::uint64_t stat_number(std::string_view token, const char* file, const std::string& field) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec != std::errc{} || end != token.data() + token.size())
    throw std::runtime_error(std::string(file) + ": field " + field + " is not a count: '" + std::string(token) + "'");
  return v;
}

inline std::string_view next_token(std::string_view& rest) {
  const auto start = rest.find_first_not_of(" \t");
  if (start == std::string_view::npos || rest[start] == '\n') {
    rest = {};
    return {};
  }
  rest.remove_prefix(start);
  const auto end = std::min(rest.find_first_of(" \t\n"), rest.size());
  const std::string_view token = rest.substr(0, end);
  rest.remove_prefix(end);
  return token;
}

inline std::string read_whole(const char* path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace detail

/// Parses /proc/stat's first line, `cpu  user nice system idle iowait irq
/// softirq steal [guest guest_nice]`. Throws naming the missing or bad field.
inline cpu_jiffies parse_proc_stat(std::string_view text) {
  static constexpr const char* file = "/proc/stat";
  static constexpr const char* names[] = {"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"};
  std::string_view rest = text;
  if (detail::next_token(rest) != "cpu") throw std::runtime_error("/proc/stat: line 1 does not start with 'cpu'");
  std::uint64_t v[8];
  for (int i = 0; i < 8; ++i) {
    const std::string_view token = detail::next_token(rest);
    if (token.empty()) throw std::runtime_error(std::string(file) + ": line 1 has no field " + names[i]);
    v[i] = detail::stat_number(token, file, names[i]);
  }
  cpu_jiffies j;
  j.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  j.total = j.busy + v[3] + v[4];
  return j;
}

/// Parses /proc/PID/stat: utime + stime + cutime + cstime (fields 14-17), in
/// USER_HZ ticks. The command name (field 2) may hold spaces and parentheses,
/// so the fields are counted from its last ')'.
inline std::uint64_t parse_process_stat(std::string_view text) {
  static constexpr const char* file = "/proc/self/stat";
  const auto paren = text.rfind(')');
  if (paren == std::string_view::npos) throw std::runtime_error("/proc/self/stat: no ')' closing the command name");
  std::string_view rest = text.substr(paren + 1);
  std::uint64_t ticks = 0;
  for (int field = 3; field <= 17; ++field) {
    const std::string_view token = detail::next_token(rest);
    if (token.empty()) throw std::runtime_error(std::string(file) + ": has no field " + std::to_string(field));
    if (field >= 14) ticks += detail::stat_number(token, file, std::to_string(field));
  }
  return ticks;
}

/// One reading of the machine's and this process's CPU time.
struct cpu_snapshot {
  cpu_jiffies machine;
  std::uint64_t own = 0;
};

/// Share of all CPUs' time other processes used between two snapshots, in
/// [0, 1]. NaN when no tick passed (nothing measured). Own time is counted
/// by the scheduler precisely and the machine's by sampling ticks, so a busy
/// interval can read slightly below 0: clamped.
inline double other_cpu_share(const cpu_snapshot& before, const cpu_snapshot& after) {
  if (after.machine.total <= before.machine.total) return std::nan("");
  const double total = static_cast<double>(after.machine.total - before.machine.total);
  const double busy = static_cast<double>(after.machine.busy) - static_cast<double>(before.machine.busy);
  const double own = static_cast<double>(after.own) - static_cast<double>(before.own);
  return std::clamp((busy - own) / total, 0.0, 1.0);
}

/// The RESULT line's field: `other_cpu=0.03`, or `other_cpu=unknown`.
inline std::string other_cpu_field(double share) {
  if (std::isnan(share)) return "other_cpu=unknown";
  char buf[32];
  std::snprintf(buf, sizeof buf, "other_cpu=%.2f", share);
  return buf;
}

/// A line saying the figure is unreliable when other processes used more than
/// other_cpu_unreliable_above of the machine; empty otherwise.
inline std::string other_cpu_warning(double share) {
  if (std::isnan(share) || share <= other_cpu_unreliable_above) return {};
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "warning: other processes used %.0f%% of the CPUs while this bench was timed: its figure is unreliable\n",
                100 * share);
  return buf;
}

/// Reads /proc/stat and /proc/self/stat now; all zero where they cannot be
/// read.
inline cpu_snapshot read_cpu_snapshot() {
  cpu_snapshot s;
  const std::string stat = detail::read_whole("/proc/stat");
  const std::string self = detail::read_whole("/proc/self/stat");
  if (stat.empty() || self.empty()) return s;
  s.machine = parse_proc_stat(stat);
  s.own = parse_process_stat(self);
  return s;
}

/// Measures other processes' share of the machine from construction (or
/// restart()) to share().
class other_cpu_meter {
 public:
  other_cpu_meter() : start_(read_cpu_snapshot()) {}
  void restart() { start_ = read_cpu_snapshot(); }
  double share() const {
    if (start_.machine.total == 0) return std::nan("");
    return other_cpu_share(start_, read_cpu_snapshot());
  }

 private:
  cpu_snapshot start_;
};

BEM_NAMESPACE_END
