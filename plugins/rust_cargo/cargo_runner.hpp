// One sample from model output to verdict: write the crate, `cargo build`,
// `cargo test`, each confined and with its own time limit.
#pragma once

#include "sandbox.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace rust_cargo {

/// The Rust toolchain that judges: found once, outside the sandbox.
struct toolchain {
  std::string cargo, rustc, sysroot;
  std::string cargo_version, rustc_version;  ///< as `--version` prints them
  /// Folders the sandbox must expose read-only (those not under /usr).
  std::vector<std::string> readonly_dirs() const;
  /// Uses $CARGO / $RUSTC when set, else `cargo` and `rustc` on PATH, and
  /// resolves rustup proxies to the toolchain's own binaries. Throws when
  /// there is no working toolchain.
  static toolchain detect();
};

/// Why a sample failed (or "passed").
enum class verdict { passed, compile_error, build_timeout, test_failure, test_timeout, no_tests, resource_limit };
const char* verdict_name(verdict v);
/// Every verdict, in the enum's order.
inline constexpr verdict all_verdicts[] = {verdict::passed,        verdict::compile_error, verdict::build_timeout,
                                           verdict::test_failure,  verdict::test_timeout,  verdict::no_tests,
                                           verdict::resource_limit};

struct sample_outcome {
  verdict result = verdict::compile_error;
  bool compiled = false;
  /// The task's own tests only (the expected names given to evaluate()):
  /// tests the sample adds are never counted. Missing: expected but not
  /// reported as run (disabled, never reached, or ignored).
  int tests_passed = 0, tests_failed = 0, tests_missing = 0;
  std::vector<std::string> error_codes;  ///< rustc codes of the build's errors, e.g. E0382, in order, unique
  /// Why it failed, short: the first compiler error, the test output's end,
  /// or which limit fired, its value and the step (limit verdicts, signals).
  std::string first_error;
  /// The last step_log_bytes of each stream of each step (the test step's
  /// only when the build succeeded): panics and "signal: ..." lines go to
  /// stderr, which first_error does not keep.
  std::string build_stdout_tail, build_stderr_tail, test_stdout_tail, test_stderr_tail;
  double build_seconds = 0, test_seconds = 0;
  std::int64_t build_peak_rss_kib = 0, test_peak_rss_kib = 0;
  bool passed() const { return result == verdict::passed; }
  int tests_executed() const { return tests_passed + tests_failed; }
};

struct runner_limits {
  resource_limits build, test;
};

/// How much of each step's stdout and stderr a sample_outcome keeps.
inline constexpr std::size_t step_log_bytes = 2048;
/// The last `bytes` of `text` (fewer: never starting inside a UTF-8 character).
std::string text_tail(const std::string& text, std::size_t bytes);

/// What a process of a step died of, when cargo says: its "process didn't
/// exit successfully: `...` (signal: N...)" line on stderr (the test
/// binary's, rustc's). 0 when cargo reports none.
int reported_child_signal(const std::string& cargo_stderr);
/// "SIGXFSZ" for 25 and so on; "signal N" for one without a name here.
std::string signal_name(int signal);
/// When a step failed because one of `limits` fired, what says so: which
/// limit, its value and the step ("" when no limit is to blame). `step` is
/// "build" or "test"; `r` its result.
std::string limit_diagnostic(const std::string& step, const confined_result& r, const resource_limits& limits);

/// Evaluates crates in one worker folder: each sample gets a fresh
/// subfolder (the only writable folder of its sandbox), removed afterwards,
/// so no sample sees another's files or build products.
class cargo_runner {
 public:
  cargo_runner(toolchain tc, sandbox box, runner_limits limits, std::filesystem::path worker_dir);
  /// Builds and tests the crate. `expected_tests` are the task's own tests
  /// as libtest names them (task::test_names): the sample passes only when
  /// the test binary exits 0 and libtest reports every one of them passed,
  /// each exactly once.
  sample_outcome evaluate(const std::map<std::string, std::string>& crate_files,
                          const std::vector<std::string>& expected_tests);

 private:
  std::vector<std::pair<std::string, std::string>> environment(const std::filesystem::path& dir) const;
  toolchain tc_;
  sandbox box_;
  runner_limits limits_;
  std::filesystem::path dir_;
  std::uint64_t samples_ = 0;
  /// cargo asks rustc about itself before every build (`rustc -vV` and the
  /// target's file names and cfg: three processes, a quarter of a small
  /// crate's build step) and keeps the answers in target/.rustc_info.json,
  /// keyed by the compiler. Each sample starts in a fresh target folder, so
  /// the runner gives it the answers of its first build step, read back
  /// before any sample's tests ran: no sample code has run by then.
  std::string rustc_info_;
};

/// Parses cargo's --message-format=json output: the codes and the first
/// rendered message of compiler errors.
void parse_compiler_messages(const std::string& cargo_stdout, std::vector<std::string>& codes, std::string& first);
/// What libtest reported, test by test: its "test NAME ... ok|FAILED|ignored"
/// lines (should-panic tests included).
struct test_report {
  std::map<std::string, std::string> results;  ///< name -> "ok", "FAILED" or "ignored"
  std::vector<std::string> repeated;           ///< names reported more than once: forged output
};
test_report parse_test_report(const std::string& test_stdout);
/// True when a rustc error code comes from the borrow checker (moves,
/// borrows, lifetimes of references).
bool is_borrow_check_error(const std::string& code);

}  // namespace rust_cargo
