// Result records: one measurement each, written as JSON lines.
//
// Schema of a record (keys in this order of meaning; JSON objects are written
// with sorted keys so files are byte-stable):
//   run_id        16 hex digits, FNV-1a of the run's identity (task, versions,
//                 model, full configuration, seed); the same in every record
//                 of one run and across machines
//   suite, run    suite name and the run's label in the suite file
//   task, task_version, task_plugin, model, model_version, model_plugin
//   config        {"task": {...}, "model": {...}, "protocol": {...}}: every
//                 parameter with its effective value, defaults included
//   seed          the run seed
//   split         the split measured ("test/T=64", "train", ...); condition
//                 {"length": 64, ...} what distinguishes it
//   metric, value, unit, better ("higher" | "lower" | "none")
//   ci            {"low", "high", "method", "level": 0.95} or null
//   n, n_unit     how many units stand behind the value
//   breakdown     {"max_depth_bucket": "3-4"} — present only for breakdowns
//   series, series_axis   e.g. accuracy at each position — present only then
//   timing        true for values that measure time (they differ between runs)
//   notes         protocol remarks, e.g. fewer test sequences than the spec's
//   status        "ok" or "failed"; error: the error text or null
#pragma once

#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace metrics {

using json = nlohmann::json;

/// Appends JSON lines to a file, each flushed to the file system (fsync) as
/// soon as it is written, so a crash loses nothing already measured.
class jsonl_appender {
 public:
  jsonl_appender() = default;
  explicit jsonl_appender(const std::string& path, bool truncate) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0644);
    if (fd_ < 0) throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
  }
  jsonl_appender(const jsonl_appender&) = delete;
  jsonl_appender& operator=(const jsonl_appender&) = delete;
  jsonl_appender(jsonl_appender&& o) noexcept : fd_(o.fd_), path_(std::move(o.path_)) { o.fd_ = -1; }
  jsonl_appender& operator=(jsonl_appender&& o) noexcept {
    std::swap(fd_, o.fd_);
    std::swap(path_, o.path_);
    return *this;
  }
  ~jsonl_appender() {
    if (fd_ >= 0) ::close(fd_);
  }

  void append(const json& record) {
    std::string line = record.dump(-1, ' ', false, json::error_handler_t::replace);
    line += '\n';
    const char* p = line.data();
    std::size_t left = line.size();
    while (left > 0) {
      const ssize_t w = ::write(fd_, p, left);
      if (w < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
      }
      p += w;
      left -= static_cast<std::size_t>(w);
    }
    if (::fsync(fd_) != 0 && errno != EINVAL)
      throw std::runtime_error(path_ + ": fsync failed: " + std::strerror(errno));
  }

 private:
  int fd_ = -1;
  std::string path_;
};

/// Reads a JSON-lines file. A malformed line is an error naming file and line,
/// except a truncated last line (a crash mid-write), which is dropped and
/// reported through `dropped_last`.
inline std::vector<json> read_jsonl(const std::string& path, bool* dropped_last = nullptr) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  const bool last_complete = [&] {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f || f.tellg() == 0) return true;
    f.seekg(-1, std::ios::end);
    char c = 0;
    f.get(c);
    return c == '\n';
  }();
  std::vector<json> out;
  if (dropped_last) *dropped_last = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    try {
      out.push_back(json::parse(lines[i]));
    } catch (const json::exception& e) {  // parse_error, and out_of_range for a number beyond double
      if (i + 1 == lines.size() && !last_complete) {
        if (dropped_last) *dropped_last = true;
        break;
      }
      throw std::runtime_error(path + ":" + std::to_string(i + 1) + ": malformed record: " + e.what());
    }
  }
  return out;
}

/// FNV-1a 64 of text as 16 hex digits (run identifiers).
inline std::string hex_id(std::string_view text) {
  std::uint64_t h = fnv1a64(text);
  static constexpr char digits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) s[static_cast<std::size_t>(i)] = digits[h & 15u];
  return s;
}

}  // namespace metrics
BEM_NAMESPACE_END
