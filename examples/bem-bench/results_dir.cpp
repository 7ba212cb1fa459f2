#include "results_dir.hpp"

#include "suite.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace bench_driver {

namespace fs = std::filesystem;

results_dir_lock::results_dir_lock(const std::string& dir) {
  const std::string path = (fs::path(dir) / ".bem-bench.lock").string();
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(path + ": cannot open the lock file: " + std::strerror(errno));
  // The holder can end between a refused F_SETLK and the F_GETLK that asks
  // who it is: then try again.
  for (int attempt = 0; attempt < 100; ++attempt) {
    struct flock want{};
    want.l_type = F_WRLCK;
    want.l_whence = SEEK_SET;
    if (::fcntl(fd_, F_SETLK, &want) == 0) return;
    if (errno != EACCES && errno != EAGAIN) break;
    struct flock held = want;
    if (::fcntl(fd_, F_GETLK, &held) == 0 && held.l_type != F_UNLCK) {
      ::close(fd_);
      throw config_error(dir + " is being written by another bem-bench run (pid " + std::to_string(held.l_pid) +
                         ", holding " + path + "): wait for it to end, or choose another --out");
    }
  }
  const int e = errno;
  ::close(fd_);
  throw std::runtime_error(path + ": cannot lock: " + std::strerror(e));
}

results_dir_lock::~results_dir_lock() { ::close(fd_); }

namespace {

void write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t w = ::write(fd, bytes.data(), bytes.size());
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
    bytes.remove_prefix(static_cast<std::size_t>(w));
  }
}

/// fsync, where the file system has one (EINVAL: it has none to offer).
void sync_file(int fd, const std::string& path) {
  if (::fsync(fd) != 0 && errno != EINVAL) throw std::runtime_error(path + ": fsync failed: " + std::strerror(errno));
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view contents) {
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // The pid keeps two processes (a run and a report) off each other's file.
  const std::string tmp = (dir / ("." + target.filename().string() + "." + std::to_string(::getpid()) + ".tmp")).string();
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(tmp + ": cannot open for writing: " + std::strerror(errno));
  try {
    kill_hook::in_file(path, fd, contents);
    write_all(fd, contents, tmp);
    sync_file(fd, tmp);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error(path + ": cannot replace: " + std::strerror(e));
  }
  if (const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
    (void)::fsync(d);  // the rename itself survives a power loss
    ::close(d);
  }
}

namespace kill_hook {
namespace {

struct state {
  std::string kind;  ///< "record", "torn-record", "file"; empty: disarmed
  long record = 0;   ///< for the record kinds
  std::string file;  ///< for "file"
  std::string results_path;
  long lines_before = 0;
  pid_t driver = 0;
};

state& armed() {
  static state s = [] {
    state h;
    const char* v = std::getenv("BEM_BENCH_TEST_KILL");
    if (v == nullptr || *v == '\0') return h;
    const std::string spec = v;
    const auto colon = spec.find(':');
    h.kind = spec.substr(0, colon);
    const std::string arg = colon == std::string::npos ? "" : spec.substr(colon + 1);
    if (h.kind == "file") {
      h.file = arg;
    } else if (h.kind == "record" || h.kind == "torn-record") {
      h.record = std::strtol(arg.c_str(), nullptr, 10);
    }
    if (arg.empty() || (h.kind != "file" && h.record < 1) ||
        (h.kind != "file" && h.kind != "record" && h.kind != "torn-record"))
      throw config_error("BEM_BENCH_TEST_KILL='" + spec + "': takes record:N, torn-record:N or file:NAME");
    h.driver = ::getpid();
    return h;
  }();
  return s;
}

long lines_in(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return static_cast<long>(std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
}

[[noreturn]] void die() {
  if (::getpid() != armed().driver) ::kill(armed().driver, SIGKILL);  // a run's child: the driver first
  ::raise(SIGKILL);
  std::abort();  // not reached
}

}  // namespace

void arm(const std::string& results_path) {
  state& s = armed();
  if (s.kind.empty()) return;
  s.results_path = results_path;
  s.lines_before = lines_in(results_path);
  s.driver = ::getpid();
}

void before_record(const bem::metrics::json& record) {
  const state& s = armed();
  if (s.kind != "record" && s.kind != "torn-record") return;
  if (lines_in(s.results_path) - s.lines_before + 1 != s.record) return;
  if (s.kind == "torn-record") {
    const std::string line = record.dump(-1, ' ', false, bem::metrics::json::error_handler_t::replace) + "\n";
    const int fd = ::open(s.results_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd >= 0) write_all(fd, std::string_view(line).substr(0, line.size() / 2), s.results_path);
  }
  die();
}

void in_file(const std::string& path, int fd, std::string_view contents) {
  const state& s = armed();
  if (s.kind != "file" || fs::path(path).filename() != s.file) return;
  write_all(fd, contents.substr(0, contents.size() / 2), path);
  die();
}

}  // namespace kill_hook

}  // namespace bench_driver
