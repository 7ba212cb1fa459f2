// The kernel's view of the first CPU, for tests that check CPUID-derived
// fields against it (Linux builds its /proc/cpuinfo from the same CPUID).
#pragma once

#include <fstream>
#include <optional>
#include <string>
#include <string_view>

namespace bemtest {

/// The value of `key` ("cpu family", "flags", ...) in /proc/cpuinfo's first
/// processor block, trimmed; nothing when the file or the key is missing.
inline std::optional<std::string> cpuinfo_field(std::string_view key) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line) && !line.empty();) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    name.erase(name.find_last_not_of(" \t") + 1);
    if (name != key) continue;
    const auto from = line.find_first_not_of(" \t", colon + 1);
    return from == std::string::npos ? std::string() : line.substr(from);
  }
  return std::nullopt;
}

}  // namespace bemtest
