#include "cargo_runner.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <sys/statvfs.h>
#include <unistd.h>

namespace rust_cargo {
namespace {

namespace fs = std::filesystem;

// Runs a trusted command of ours (toolchain discovery), returns its stdout.
std::string capture(const std::string& command) {
  std::string out;
  FILE* p = popen((command + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) return out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
  if (pclose(p) != 0) return {};
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string find_program(const char* env_name, const char* name) {
  if (const char* e = std::getenv(env_name); e != nullptr && *e) return e;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const auto end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return {};
}

bool under(const std::string& path, const std::string& dir) {
  return path == dir || path.rfind(dir + "/", 0) == 0;
}

}  // namespace

std::vector<std::string> toolchain::readonly_dirs() const {
  std::vector<std::string> dirs;
  if (!under(sysroot, "/usr")) dirs.push_back(sysroot);
  const std::string cargo_dir = fs::path(cargo).parent_path().string();
  if (!under(cargo_dir, "/usr") && !under(cargo_dir, sysroot)) dirs.push_back(cargo_dir);
  return dirs;
}

toolchain toolchain::detect() {
  toolchain tc;
  const std::string rustc = find_program("RUSTC", "rustc");
  const std::string cargo = find_program("CARGO", "cargo");
  if (rustc.empty() || cargo.empty())
    throw std::runtime_error("no Rust toolchain: cargo and rustc must be on PATH (or set CARGO and RUSTC)");
  tc.sysroot = capture(quote(rustc) + " --print sysroot");
  if (tc.sysroot.empty()) throw std::runtime_error("'" + rustc + " --print sysroot' failed");
  // rustup's proxies need RUSTUP_HOME, which the sandbox does not show: use
  // the toolchain's own binaries when the sysroot has them.
  const fs::path own_cargo = fs::path(tc.sysroot) / "bin" / "cargo";
  const fs::path own_rustc = fs::path(tc.sysroot) / "bin" / "rustc";
  const bool from_env = std::getenv("CARGO") != nullptr && *std::getenv("CARGO");
  // Not made canonical: a rustup proxy resolves to `rustup`, which takes its
  // role from the name it was started by.
  tc.cargo = !from_env && access(own_cargo.c_str(), X_OK) == 0 ? own_cargo.string() : fs::absolute(cargo).string();
  tc.rustc = access(own_rustc.c_str(), X_OK) == 0 ? own_rustc.string() : fs::absolute(rustc).string();
  tc.cargo_version = capture(quote(tc.cargo) + " --version");
  tc.rustc_version = capture(quote(tc.rustc) + " --version");
  if (tc.cargo_version.empty() || tc.rustc_version.empty())
    throw std::runtime_error("the Rust toolchain at " + tc.sysroot + " does not run");
  if (tc.cargo_version.rfind("cargo ", 0) != 0 || tc.rustc_version.rfind("rustc ", 0) != 0)
    throw std::runtime_error(tc.cargo + " and " + tc.rustc + " say they are '" + tc.cargo_version + "' and '" +
                             tc.rustc_version + "', not cargo and rustc (set CARGO and RUSTC to the programs)");
  return tc;
}

const char* verdict_name(verdict v) {
  switch (v) {
    case verdict::passed: return "passed";
    case verdict::compile_error: return "compile_error";
    case verdict::build_timeout: return "build_timeout";
    case verdict::test_failure: return "test_failure";
    case verdict::test_timeout: return "test_timeout";
    case verdict::no_tests: return "no_tests";
    case verdict::resource_limit: return "resource_limit";
  }
  return "?";
}

void parse_compiler_messages(const std::string& out, std::vector<std::string>& codes, std::string& first) {
  std::size_t start = 0;
  while (start < out.size()) {
    auto end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    const auto line = std::string_view(out).substr(start, end - start);
    start = end + 1;
    if (line.empty() || line.front() != '{') continue;
    const auto j = nlohmann::json::parse(line, nullptr, false);
    // Compared, not read with value(): a field of another type (a sample's
    // build can print such lines) is not a compiler error, not an exception.
    const auto field_is = [](const nlohmann::json& o, const char* key, const char* want) {
      const auto it = o.find(key);
      return it != o.end() && *it == want;
    };
    if (j.is_discarded() || !field_is(j, "reason", "compiler-message") || !j.contains("message")) continue;
    const auto& m = j["message"];
    if (!m.is_object() || !field_is(m, "level", "error")) continue;
    if (m.contains("code") && m["code"].is_object() && m["code"].contains("code") && m["code"]["code"].is_string()) {
      const std::string code = m["code"]["code"];
      if (std::find(codes.begin(), codes.end(), code) == codes.end()) codes.push_back(code);
    }
    if (first.empty() && m.contains("rendered") && m["rendered"].is_string())
      first = m["rendered"].get<std::string>().substr(0, 800);
  }
}

namespace {

/// One libtest result line, "test NAME[ - should panic] ... STATUS[...]",
/// matched by hand: std::regex recurses once per character, and a long line
/// printed by a sample would overflow the stack.
bool parse_test_line(std::string_view line, std::string_view& name, std::string_view& status) {
  constexpr std::string_view head = "test ", panic = " - should panic", dots = " ... ";
  if (!line.starts_with(head)) return false;
  line.remove_prefix(head.size());
  const auto end = line.find_first_of(" \t\r\v\f");
  if (end == 0 || end == std::string_view::npos || line[end] != ' ') return false;
  name = line.substr(0, end);
  line.remove_prefix(end);
  if (line.starts_with(panic)) line.remove_prefix(panic.size());
  if (!line.starts_with(dots)) return false;
  line.remove_prefix(dots.size());
  for (std::string_view word : {"ok", "FAILED", "ignored"}) {
    if (!line.starts_with(word)) continue;
    const bool whole = line.size() == word.size() ||
                       !(std::isalnum(static_cast<unsigned char>(line[word.size()])) || line[word.size()] == '_');
    if (!whole) return false;
    status = word;
    return true;
  }
  return false;
}

}  // namespace

test_report parse_test_report(const std::string& out) {
  // libtest's pretty format; with several test threads each line is whole.
  test_report r;
  std::size_t start = 0;
  while (start < out.size()) {
    auto end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    const auto line = std::string_view(out).substr(start, end - start);
    start = end + 1;
    std::string_view name, status;
    if (!parse_test_line(line, name, status)) continue;
    if (!r.results.emplace(std::string(name), std::string(status)).second &&
        std::find(r.repeated.begin(), r.repeated.end(), name) == r.repeated.end())
      r.repeated.emplace_back(name);
  }
  return r;
}

bool is_borrow_check_error(const std::string& code) {
  static const std::array<const char*, 22> codes = {"E0373", "E0381", "E0382", "E0384", "E0499", "E0502", "E0503",
                                                    "E0505", "E0506", "E0507", "E0508", "E0509", "E0515", "E0521",
                                                    "E0594", "E0596", "E0597", "E0621", "E0623", "E0713", "E0716",
                                                    "E0106"};
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

std::string text_tail(const std::string& text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  std::size_t at = text.size() - bytes;
  // Past UTF-8 continuation bytes (10xxxxxx): at most three follow a lead byte.
  for (int i = 0; i < 3 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80; ++i) ++at;
  return text.substr(at);
}

int reported_child_signal(const std::string& err) {
  // cargo's last words about a process of its own that failed:
  //   process didn't exit successfully: `CMD` (signal: 25)                  (cargo 1.95)
  //   process didn't exit successfully: `CMD` (signal: 25, SIGXFSZ: ...)    (older)
  constexpr std::string_view head = "process didn't exit successfully: ", marker = "(signal: ";
  const auto at = err.rfind(head);
  if (at == std::string::npos) return 0;
  const auto line_end = std::min(err.find('\n', at), err.size());
  const auto line = std::string_view(err).substr(at, line_end - at);
  const auto sig = line.rfind(marker);
  if (sig == std::string_view::npos) return 0;
  const auto digits = line.substr(sig + marker.size());
  int n = 0;
  if (digits.empty() || !std::isdigit(static_cast<unsigned char>(digits.front()))) return 0;
  // More digits than an int holds name no signal: a line a sample forged
  // (accumulating them overflowed, found by tests/fuzz).
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  return ec == std::errc() ? n : 0;
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGSEGV: return "SIGSEGV";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGSYS: return "SIGSYS";
    default: return "signal " + std::to_string(signal);
  }
}

namespace {

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string mib(std::uint64_t bytes) { return number(static_cast<double>(bytes) / double(1u << 20)) + " MiB"; }

}  // namespace

std::string limit_diagnostic(const std::string& step, const confined_result& r, const resource_limits& limits) {
  const std::string in = "the " + step + " step";
  if (r.timed_out)
    return in + " ran past its wall-clock limit of " + number(limits.wall_seconds) + " s (" + step +
           "_timeout_s) and was killed";
  if (r.output_flood)
    return in + " wrote more than " + mib(limits.output_kill_bytes) + " of output and was killed (output flood)";
  if (r.disk_full)
    return in + " filled the worker folder's disk cap of " + mib(limits.disk_bytes) +
           " (the sandbox's limit on all the files a sample writes)";
  // cargo itself, or the process cargo says failed (the test binary, rustc).
  int sig = r.signal;
  std::string who = "cargo";
  if (sig == 0) {
    sig = reported_child_signal(r.err);
    who = step == "test" ? "the test binary" : "a compiler process";
  }
  if (sig == SIGXFSZ)
    return in + ": " + who + " was killed by SIGXFSZ, writing a file past the file-size limit of " +
           mib(limits.file_bytes) + " (max_file_mib)";
  if (sig == SIGXCPU)
    return in + ": " + who + " was killed by SIGXCPU, past the CPU-time limit of " + number(limits.cpu_seconds) +
           " s per process (2 x " + step + "_timeout_s + 5 s)";
  // Rust's allocation-failure handler prints this line and aborts: under
  // RLIMIT_AS an allocation fails once the address space is used up.
  const auto oom = r.err.rfind("memory allocation of ");
  if (sig == SIGABRT && oom != std::string::npos) {
    const auto end = std::min(r.err.find('\n', oom), r.err.size());
    return in + ": " + who + " ran out of memory under the address-space limit of " + mib(limits.address_space_bytes) +
           " (memory_limit_mib): " + r.err.substr(oom, std::min<std::size_t>(end - oom, 200));
  }
  return {};
}

cargo_runner::cargo_runner(toolchain tc, sandbox box, runner_limits limits, fs::path worker_dir)
    : tc_(std::move(tc)), box_(std::move(box)), limits_(limits), dir_(std::move(worker_dir)) {
  // Only this user may reach the samples' files: run as root, a sample's
  // files are root's on the host, setuid bit included.
  fs::create_directories(dir_);
  if (fs::is_symlink(dir_)) throw std::runtime_error(dir_.string() + " is a symbolic link, not a worker folder");
  fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::replace);
}

std::vector<std::pair<std::string, std::string>> cargo_runner::environment(const fs::path& dir) const {
  const std::string d = dir.string();
  return {{"PATH", (fs::path(tc_.cargo).parent_path() / "").string() + ":" + tc_.sysroot + "/bin:/usr/bin:/bin"},
          {"HOME", d},
          {"TMPDIR", "/tmp"},
          {"CARGO_HOME", d + "/.cargo-home"},
          {"CARGO_TARGET_DIR", d + "/target"},
          {"RUSTC", tc_.rustc},
          // One compilation per sample, no incremental caches, no debug info:
          // nothing here is reused or debugged, so it is work for nothing.
          {"CARGO_INCREMENTAL", "0"},
          {"CARGO_PROFILE_DEV_DEBUG", "0"},
          {"CARGO_PROFILE_TEST_DEBUG", "0"},
          {"CARGO_NET_OFFLINE", "true"},
          {"CARGO_TERM_COLOR", "never"},
          {"RUST_BACKTRACE", "0"}};
}

namespace {

// A sample may take write permission away from its own files so that they
// survive it (and decide the next sample's verdict): give the owner full
// access back, without following links, before removing the folder.
void remove_sample_folder(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(dir, ec))) return;
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add | fs::perm_options::nofollow, ec);
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_directory(ec) && !it->is_symlink(ec))
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add | fs::perm_options::nofollow, ec);
  }
  fs::remove_all(dir, ec);
  if (ec || fs::exists(fs::symlink_status(dir)))
    throw std::runtime_error("cannot remove the sample folder " + dir.string() + ": " + ec.message());
}

/// A step that failed on a disk still full once its sample's files are gone
/// failed for the machine, not the model (another worker's sample may be
/// filling it): the run stops with that error rather than score the sample.
void check_disk_space(const fs::path& dir) {
  struct statvfs fs_info {};
  if (statvfs(dir.c_str(), &fs_info) != 0) return;
  const auto free_bytes = static_cast<std::uint64_t>(fs_info.f_bavail) * fs_info.f_frsize;
  if (free_bytes < (64ull << 20))
    throw std::runtime_error("the disk holding " + dir.string() + " has " + std::to_string(free_bytes >> 20) +
                             " MiB left: a build or test failed for want of space, which says nothing of the model");
}

/// cargo's answers about rustc, as the build step left them in the target
/// folder; "" when they are not there or not what cargo writes.
std::string read_rustc_info(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(file, ec)) || fs::file_size(file, ec) > (64u << 10)) return {};
  std::ifstream in(file, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("rustc_fingerprint") || !parsed.contains("outputs"))
    return {};
  return text;
}

}  // namespace

sample_outcome cargo_runner::evaluate(const std::map<std::string, std::string>& files,
                                      const std::vector<std::string>& expected_tests) {
  sample_outcome o;
  // A fresh folder per sample: nothing a sample leaves behind can reach the next.
  const fs::path dir = dir_ / ("sample-" + std::to_string(samples_++));
  remove_sample_folder(dir);
  fs::create_directories(dir);
  for (const auto& [rel, text] : files) {
    const auto p = dir / rel;
    fs::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + p.string());
  }
  const auto env = environment(dir);
  const fs::path rustc_info = dir / "target" / ".rustc_info.json";
  if (!rustc_info_.empty()) {
    fs::create_directories(rustc_info.parent_path());
    std::ofstream(rustc_info, std::ios::binary) << rustc_info_;
  }
  // The task's compile_command (`cargo build`: the library as itself) and the
  // test harness in one cargo call: `--tests` alone would compile only the
  // cfg(test) crate, so code that breaks the plain build would pass. `cargo
  // test` then finds the harness fresh and only runs it.
  const auto build = run_confined(
      box_, {tc_.cargo, "build", "--offline", "--lib", "--tests", "--message-format=json"}, dir.string(), env,
      limits_.build);
  o.build_seconds = build.seconds;
  o.build_peak_rss_kib = build.peak_rss_kib;
  o.build_stdout_tail = text_tail(build.out, step_log_bytes);
  o.build_stderr_tail = text_tail(build.err, step_log_bytes);
  if (rustc_info_.empty() && !build.timed_out && !build.output_flood && build.signal == 0)
    rustc_info_ = read_rustc_info(rustc_info);
  if (!build.ok()) {
    parse_compiler_messages(build.out, o.error_codes, o.first_error);
    const std::string limit = limit_diagnostic("build", build, limits_.build);
    if (o.first_error.empty()) o.first_error = text_tail(build.err, 800);
    if (build.timed_out) {
      o.result = verdict::build_timeout;
    } else if (!limit.empty() || build.signal != 0) {
      // Nothing a crate compiles can kill cargo (no build scripts, no
      // dependencies): a signal to it is a limit's or the machine's.
      o.result = verdict::resource_limit;
    } else {
      o.result = verdict::compile_error;
    }
    if (!limit.empty())
      o.first_error = limit + "\n" + o.first_error;
    else if (build.signal != 0)
      o.first_error = "the build step: cargo was killed by " + signal_name(build.signal) + "\n" + o.first_error;
    else if (const int sig = reported_child_signal(build.err); sig != 0 && o.error_codes.empty())
      o.first_error = "the build step: a compiler process was killed by " + signal_name(sig) + "\n" + o.first_error;
    remove_sample_folder(dir);
    check_disk_space(dir_);  // after the sample's own files are gone: a sample may fill the disk itself
    return o;
  }
  o.compiled = true;
  const auto test = run_confined(box_, {tc_.cargo, "test", "--offline", "--lib"}, dir.string(), env, limits_.test);
  o.test_seconds = test.seconds;
  o.test_peak_rss_kib = test.peak_rss_kib;
  o.test_stdout_tail = text_tail(test.out, step_log_bytes);
  o.test_stderr_tail = text_tail(test.err, step_log_bytes);
  // Only the task's own tests count, each reported exactly once: tests the
  // sample adds, and libtest's summary lines (anyone can print those), do not.
  const auto report = parse_test_report(test.out);
  std::vector<std::string> missing;
  for (const auto& name : expected_tests) {
    const auto it = report.results.find(name);
    if (it == report.results.end() || it->second == "ignored") missing.push_back(name);
    else if (it->second == "ok") ++o.tests_passed;
    else ++o.tests_failed;
  }
  o.tests_missing = static_cast<int>(missing.size());
  auto tail = [&] { return text_tail(test.out.size() > 0 ? test.out : test.err, 800); };
  const std::string limit = limit_diagnostic("test", test, limits_.test);
  const int binary_signal = reported_child_signal(test.err);
  if (test.timed_out) {
    o.result = verdict::test_timeout;
    o.first_error = limit + "\n" + tail();
  } else if (!limit.empty()) {
    o.result = verdict::resource_limit;  // an output flood, or a limit's signal
    o.first_error = limit + "\n" + tail();
  } else if (!report.repeated.empty()) {
    o.result = verdict::test_failure;
    o.first_error = "libtest reported test " + report.repeated.front() + " more than once: forged test output\n" + tail();
  } else if (test.signal != 0) {
    // The sample killed cargo (its parent): what libtest printed is not the
    // end of the run, and cargo never judged the test binary's exit.
    o.result = verdict::test_failure;
    o.first_error = "the test step: cargo was killed by " + signal_name(test.signal) +
                    " (not by a limit of the sandbox), so the test binary's outcome is unknown\n" + tail();
  } else if (o.tests_executed() == 0 && test.exit_code == 0) {
    o.result = verdict::no_tests;  // none of the task's tests ran: a failure, never a pass
  } else if (test.exit_code == 0 && o.tests_failed == 0 && missing.empty() && !expected_tests.empty()) {
    o.result = verdict::passed;
  } else {
    o.result = verdict::test_failure;
    const std::string killed =
        binary_signal == 0 ? "" : "the test binary was killed by " + signal_name(binary_signal) + "\n";
    o.first_error = killed + (missing.empty() ? tail()
                                              : "the task's test " + missing.front() + " did not run (" +
                                                    std::to_string(missing.size()) + " of " +
                                                    std::to_string(expected_tests.size()) + " missing)\n" + tail());
  }
  remove_sample_folder(dir);
  if (!test.ok()) check_disk_space(dir_);
  return o;
}

}  // namespace rust_cargo
