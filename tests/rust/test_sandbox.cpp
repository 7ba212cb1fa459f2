// Hostile submissions against the Rust cargo runner: model-written Rust is
// untrusted, and runs code at compile time (const evaluation, include_str!)
// as well as at test time. Every case here submits a crate that attacks the
// host — loops, bombs, floods, escapes, network, leftover processes, deleting
// data — and checks three things: the sample is recorded as a failure with
// the verdict it should get, evaluate() returns within its limits, and the
// host saw no effect. The last cases check that the runner goes on.
//
// Needs cargo/rustc and a working bubblewrap: without them the binary exits
// with 77 (meson's "skipped") before any case runs and says why. The path of
// bem-sandbox-exec comes from $BEM_SANDBOX_EXEC (the meson build sets it).
#include "cargo_runner.hpp"
#include "dataset.hpp"
#include "sandbox.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace rust_cargo;
namespace fs = std::filesystem;

namespace {

// Short limits keep the test fast: a crate here compiles in well under a
// second (2 s beside stress-ng --cpu 2), so only the endless const
// evaluation ever needs the build limit.
constexpr double build_wall_s = 10;  // the spec's limit
// A test step here takes under 0.1 s, 1.1 s with the sleepers' 1 s sleep,
// and 1.7 s of that beside stress-ng --cpu 2: room for a busier machine.
constexpr double test_wall_s = 5;
// A step its clock did not stop runs until RLIMIT_CPU stops it: this much
// CPU time, so at least as much wall time, whatever else the machine runs.
constexpr double step_cpu_s = resource_limits{}.cpu_seconds;
static_assert(step_cpu_s > build_wall_s && step_cpu_s > test_wall_s);
// bubblewrap's processes outside the sandbox's process limit.
constexpr int sandbox_own_processes = 4;
// How long to wait for leftovers to go before calling them left: killed
// processes go in milliseconds, but on a busy machine their reaping waits
// its turn. Waiting costs only when a case fails.
constexpr double settle_s = 30;
// Large enough for cargo. The bomb that meets it only reserves memory: one
// that touched each page took 3 s to reach 1 GiB here (Rust 1.95's
// debug-build fill and this VM's page faults), and could time out.
constexpr std::uint64_t small_address_space_bytes = 1ull << 30;

using crate_files = std::map<std::string, std::string>;
using clock_type = std::chrono::steady_clock;

const std::string tag = std::to_string(getpid());
// Everything this test writes on the host, all under /tmp/hostile*.
const fs::path work_root = "/tmp/hostile-work-" + tag;  // the worker's parent folder
const fs::path worker_dir = work_root / "w0";           // the sandbox's only writable folder
const fs::path marker_path = "/tmp/hostile-marker-" + tag;
const fs::path secret_path = "/tmp/hostile-secret-" + tag + ".txt";
const fs::path dataset_dir = "/tmp/hostile-dataset-" + tag;
// A folder the sandbox shows read-only (as it shows /usr), holding a dataset.
const fs::path readonly_root = "/tmp/hostile-readonly-" + tag;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// Fills the @NAME@ placeholders of a Rust template; @PID@ is always known.
std::string fill(std::string rust, const std::vector<std::pair<std::string, std::string>>& values = {}) {
  rust = replace_all(std::move(rust), "@PID@", tag);
  rust = replace_all(std::move(rust), "@WORK_ROOT@", work_root.string());
  for (const auto& [k, v] : values) rust = replace_all(std::move(rust), "@" + k + "@", v);
  return rust;
}

const std::string manifest =
    "[package]\nname = \"hostile\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n"
    "[lib]\npath = \"src/lib.rs\"\ndoctest = false\n\n[dependencies]\n";

// A complete crate as the runner assembles it (docs/rust-benchmarks.md):
// the manifest, src/lib.rs with the tests module declared before its first
// item, src/bem_tests.rs.
crate_files crate(const std::string& lib_body, const std::string& tests_body) {
  return {{"Cargo.toml", manifest},
          {"src/lib.rs", with_tests_module(lib_body)},
          {"src/bem_tests.rs", "#[allow(unused_imports)]\nuse super::*;\n\n" + tests_body}};
}

/// The task's own tests of a crate: those of its src/bem_tests.rs.
std::vector<std::string> expected_tests(const crate_files& files) {
  const auto it = files.find("src/bem_tests.rs");
  return it == files.end() ? std::vector<std::string>{} : test_function_names(it->second);
}

void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::optional<std::string> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Host processes (other than this one) with `needle` in their command line.
int processes_with_argument(const std::string& needle) {
  int n = 0;
  const std::string self = std::to_string(getpid());
  std::error_code ec;
  for (fs::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
    const auto name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos || name == self) continue;
    auto cmdline = read_file(it->path() / "cmdline");
    if (!cmdline) continue;  // it went away
    for (char& c : *cmdline)
      if (c == '\0') c = ' ';
    if (cmdline->find(needle) != std::string::npos) ++n;
  }
  return n;
}

/// Host processes descending from this one: the sandboxes it started and
/// everything in them, zombies, orphans and new sessions included (they are
/// reparented inside the sandbox's PID namespace, never out of it).
int descendants() {
  std::map<int, int> parent;
  std::error_code ec;
  for (fs::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
    const auto name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto stat = read_file(it->path() / "stat");
    if (!stat) continue;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const auto close = stat->rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat->substr(close + 1));
    char state = 0;
    int ppid = 0;
    if (rest >> state >> ppid) parent[std::stoi(name)] = ppid;
  }
  const int self = getpid();
  int n = 0;
  for (const auto& [pid, ppid] : parent) {
    int up = ppid;
    for (int depth = 0; up > 1 && up != self && depth < 4096; ++depth) {
      const auto at = parent.find(up);
      up = at == parent.end() ? 0 : at->second;
    }
    if (up == self) ++n;
  }
  return n;
}

/// Polls `done` every 50 ms for up to `seconds`; true once it held.
template <class F>
bool eventually(double seconds, F done) {
  const auto t0 = clock_type::now();
  for (;;) {
    if (done()) return true;
    if (seconds_since(t0) > seconds) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// ---------------------------------------------------------------------------
// The toolchain and sandbox, found once before any case runs.

struct judge {
  toolchain tc;
  sandbox box;
};
std::optional<judge> the_judge;

void remove_host_files() {
  std::error_code ec;
  // A sample may have left read-only folders in the worker folder (never
  // follow its symlinks: they may point anywhere on the host).
  fs::permissions(worker_dir, fs::perms::owner_all, fs::perm_options::add, ec);
  for (fs::recursive_directory_iterator it(work_root, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ignored;
    if (it->symlink_status(ignored).type() == fs::file_type::directory)
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ignored);
  }
  for (const auto& p : {work_root, marker_path, secret_path, dataset_dir, readonly_root}) fs::remove_all(p, ec);
}

// A doctest listener: before the first case it finds cargo and bubblewrap or
// exits 77; after the last it removes this test's files from /tmp.
class sandbox_gate : public doctest::IReporter {
 public:
  explicit sandbox_gate(const doctest::ContextOptions&) {}
  void test_run_start() override {
    const char* helper = std::getenv("BEM_SANDBOX_EXEC");
    if (helper == nullptr || access(helper, X_OK) != 0) {
      // A build error, not a missing tool: fail rather than skip.
      std::fprintf(stderr, "test_sandbox: set BEM_SANDBOX_EXEC to the path of bem-sandbox-exec (got '%s')\n",
                   helper ? helper : "");
      std::exit(1);
    }
    try {
      judge j{toolchain::detect(), {}};
      std::string why;
      j.box = sandbox::detect(helper, j.tc.readonly_dirs(), {}, why);
      if (!j.box.confined()) skip("no sandbox: " + why);
      std::fprintf(stderr, "test_sandbox: %s, %s, bubblewrap %s\n", j.tc.cargo_version.c_str(),
                   j.tc.rustc_version.c_str(), j.box.bwrap.c_str());
      the_judge = std::move(j);
    } catch (const std::exception& e) {
      skip(e.what());
    }
  }
  void test_run_end(const doctest::TestRunStats&) override { remove_host_files(); }
  void report_query(const doctest::QueryData&) override {}
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}

 private:
  [[noreturn]] static void skip(const std::string& why) {
    std::fprintf(stderr, "test_sandbox: skipped: %s\n", why.c_str());
    std::exit(77);  // meson: skipped
  }
};
REGISTER_LISTENER("hostile_sandbox_gate", 1, sandbox_gate);

/// The limits of every runner here: the spec's build limit, a short test one.
runner_limits short_limits() {
  runner_limits limits;
  limits.build.wall_seconds = build_wall_s;
  limits.test.wall_seconds = test_wall_s;
  return limits;
}

/// One runner for every case, in one worker folder: the later cases see
/// whatever the earlier ones left behind, as a real run would.
cargo_runner& runner() {
  static cargo_runner r(the_judge->tc, the_judge->box, short_limits(), worker_dir);
  return r;
}

/// evaluate(), checking that every step ended by itself or by its clock.
/// `watch`, when given, is called every 50 ms on this thread while the
/// sample runs on another (to look at the host's processes meanwhile).
sample_outcome evaluate(const crate_files& files, cargo_runner& with = runner(),
                        const std::function<void()>& watch = {}) {
  REQUIRE(the_judge.has_value());
  const auto t0 = clock_type::now();
  auto pending = std::async(std::launch::async, [&] { return with.evaluate(files, expected_tests(files)); });
  while (pending.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
    if (watch) watch();
  auto o = pending.get();
  const double seconds = seconds_since(t0);
  MESSAGE("verdict ", std::string(verdict_name(o.result)), ", build ", o.build_seconds, " s, test ", o.test_seconds,
          " s, evaluate ", seconds, " s, peak RSS build ", o.build_peak_rss_kib, " KiB test ", o.test_peak_rss_kib,
          " KiB, tests ", o.tests_passed, " passed ", o.tests_failed, " failed");
  // Not how fast (a busy machine slows every step): that the clock, and not
  // RLIMIT_CPU after step_cpu_s, ended a step that did not end by itself,
  // and not before its time.
  CHECK(o.build_seconds < step_cpu_s);
  CHECK(o.test_seconds < step_cpu_s);
  if (o.result == verdict::build_timeout) CHECK(o.build_seconds >= build_wall_s);
  if (o.result == verdict::test_timeout) CHECK(o.test_seconds >= test_wall_s);
  return o;
}

/// A hostile sample: never passed.
sample_outcome evaluate_hostile(const crate_files& files, cargo_runner& with = runner(),
                                const std::function<void()>& watch = {}) {
  auto o = evaluate(files, with, watch);
  CHECK_FALSE(o.passed());
  return o;
}

const char* const adder_lib = "pub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n";
const char* const adder_tests = R"rs(
#[test]
fn adds() { assert_eq!(add(2, 3), 5); }
#[test]
fn adds_negatives() { assert_eq!(add(-2, -3), -5); }
#[test]
fn zero_is_neutral() { assert_eq!(add(7, 0), 7); }
)rs";

}  // namespace

// ---------------------------------------------------------------------------
// The parsers (no toolchain needed, but the gate runs first anyway).

TEST_CASE("parse_test_report reads libtest's test lines, never its summary") {
  const std::string out =
      "running 4 tests\ntest bem_tests::a ... ok\ntest bem_tests::b - should panic ... ok\n"
      "test bem_tests::c ... FAILED\ntest bem_tests::d ... ignored, slow\ntest bem_tests::e ... \n\n"
      "test result: ok. 99 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
  const auto r = parse_test_report(out);
  CHECK(r.results == std::map<std::string, std::string>{
                         {"bem_tests::a", "ok"}, {"bem_tests::b", "ok"}, {"bem_tests::c", "FAILED"},
                         {"bem_tests::d", "ignored"}});
  CHECK(r.repeated.empty());
  // A test reported twice: someone else printed one of the lines.
  const auto twice = parse_test_report("test bem_tests::c ... FAILED\nfailures:\ntest bem_tests::c ... ok\n");
  CHECK(twice.repeated == std::vector<std::string>{"bem_tests::c"});
  CHECK(parse_test_report("no tests ran\n").results.empty());
  // Lines a sample prints can be long: matched without recursion per
  // character (std::regex overflowed the stack at about 50 KB).
  const std::string long_line = "test " + std::string(1 << 20, 'a') + " ... ok";
  CHECK(parse_test_report("\ntest " + std::string(300000, 'a') + "\n" + long_line + "\n").results.size() == 1);
  // What the pattern refused, it still refuses.
  for (const char* no : {"test  ... ok", "test a\t... ok", "test a ... okay", "test a ...  ok", "Test a ... ok"})
    CHECK_MESSAGE(parse_test_report(std::string(no) + "\n").results.empty(), no);
}

TEST_CASE("parse_compiler_messages keeps the errors' codes and the first error") {
  // A warning first: it must not become the first error.
  const std::string out =
      R"({"reason":"compiler-message","package_id":"hostile 0.1.0","message":{"level":"warning",)"
      R"("message":"unused variable: `x`","code":{"code":"unused_variables","explanation":null},)"
      R"("rendered":"warning: unused variable: `x`\n"}})"
      "\n"
      "   Compiling hostile v0.1.0\n"
      R"({"reason":"compiler-message","package_id":"hostile 0.1.0","message":{"level":"error",)"
      R"("message":"borrow of moved value: `v`","code":{"code":"E0382","explanation":"..."},)"
      R"("rendered":"error[E0382]: borrow of moved value: `v`\n"}})"
      "\n"
      R"({"reason":"build-finished","success":false})"
      "\n";
  std::vector<std::string> codes;
  std::string first;
  parse_compiler_messages(out, codes, first);
  CHECK(codes == std::vector<std::string>{"E0382"});
  CHECK(first == "error[E0382]: borrow of moved value: `v`\n");
}

TEST_CASE("parse_compiler_messages passes over fields of other types") {
  // Found by tests/fuzz (fuzz_cargo_messages): a "reason" or "level" that is
  // not a string threw nlohmann::json's type_error out of the judge.
  const std::string out =
      "{\"reason\":5,\"message\":{\"level\":\"error\"}}\n"
      "{\"reason\":\"compiler-message\",\"message\":{\"level\":7,\"code\":{\"code\":1}}}\n"
      "{\"reason\":\"compiler-message\",\"message\":[1]}\n"
      R"({"reason":"compiler-message","message":{"level":"error","code":{"code":"E0499"},"rendered":"e"}})"
      "\n";
  std::vector<std::string> codes;
  std::string first;
  parse_compiler_messages(out, codes, first);
  CHECK(codes == std::vector<std::string>{"E0499"});
  CHECK(first == "e");
}

TEST_CASE("is_borrow_check_error") {
  CHECK(is_borrow_check_error("E0382"));  // use after move
  CHECK(is_borrow_check_error("E0499"));  // two mutable borrows
  CHECK(is_borrow_check_error("E0502"));
  CHECK_FALSE(is_borrow_check_error("E0308"));  // mismatched types
  CHECK_FALSE(is_borrow_check_error("E0425"));  // unresolved name
  CHECK_FALSE(is_borrow_check_error(""));
}

TEST_CASE("cargo's report of a process killed by a signal, and the limit it names") {
  // cargo 1.95 writes the number alone, older cargo its name too.
  const std::string caused =
      "error: test failed, to rerun pass `--lib`\n\nCaused by:\n  process didn't exit successfully: ";
  CHECK(reported_child_signal(caused + "`/w/target/debug/deps/x-1f (signal: 3)` (signal: 25)\n") == 25);
  CHECK(reported_child_signal(caused + "`/w/x` (signal: 24, SIGXCPU: CPU time limit exceeded)\n") == 24);
  CHECK(reported_child_signal(caused + "`/w/x` (exit status: 101)\n") == 0);
  // Found by tests/fuzz (fuzz_cargo_messages): digits beyond int overflowed
  // the accumulator (undefined behaviour); they name no signal.
  CHECK(reported_child_signal(caused + "`/w/x` (signal: 040000000001=00000000}\n") == 0);
  CHECK(reported_child_signal(caused + "`/w/x` (signal: 99999999999999999999)\n") == 0);
  CHECK(reported_child_signal("test result: FAILED\n") == 0);
  CHECK(signal_name(25) == "SIGXFSZ");
  CHECK(signal_name(64) == "signal 64");
  resource_limits limits;
  limits.file_bytes = 16u << 20;
  limits.cpu_seconds = 25;
  limits.address_space_bytes = 1ull << 30;
  confined_result r;
  r.exit_code = 101;
  r.err = caused + "`/w/x` (signal: 25)\n";
  CHECK(limit_diagnostic("test", r, limits) ==
        "the test step: the test binary was killed by SIGXFSZ, writing a file past the file-size limit of 16 MiB "
        "(max_file_mib)");
  r.err = caused + "`/w/x` (signal: 24)\n";
  CHECK(limit_diagnostic("test", r, limits).find("SIGXCPU, past the CPU-time limit of 25 s") != std::string::npos);
  r.err = "memory allocation of 1048576 bytes failed\n" + caused + "`/w/x` (signal: 6)\n";
  CHECK(limit_diagnostic("test", r, limits) ==
        "the test step: the test binary ran out of memory under the address-space limit of 1024 MiB "
        "(memory_limit_mib): memory allocation of 1048576 bytes failed");
  r.err = caused + "`/w/x` (signal: 11)\n";  // no limit sends SIGSEGV
  CHECK(limit_diagnostic("test", r, limits).empty());
  r.signal = 25;  // cargo itself
  r.exit_code = -1;
  CHECK(limit_diagnostic("build", r, limits).find("the build step: cargo was killed by SIGXFSZ") == 0);
  r = {};
  r.timed_out = true;
  limits.wall_seconds = 10;
  CHECK(limit_diagnostic("build", r, limits) ==
        "the build step ran past its wall-clock limit of 10 s (build_timeout_s) and was killed");
}

TEST_CASE("text_tail keeps the end and never starts inside a UTF-8 character") {
  CHECK(text_tail("abc", 10) == "abc");
  CHECK(text_tail("abcdef", 2) == "ef");
  CHECK(text_tail("a\xC3\xA9z", 2) == "z");                           // é is two bytes: the tail starts after it
  CHECK(text_tail("\xE2\x82\xAC\xE2\x82\xAC", 4) == "\xE2\x82\xAC");  // € is three
}

// ---------------------------------------------------------------------------
// Hostile submissions, in file order (doctest's default), then the run goes on.

TEST_CASE("sandbox: a well-behaved crate passes, so the failures below are the attacks'") {
  const auto o = evaluate(crate(adder_lib, adder_tests));
  CHECK(o.result == verdict::passed);
  CHECK(o.tests_passed == 3);
  CHECK(o.tests_failed == 0);
}

// ---------------------------------------------------------------------------
// Integrity: a wrong answer must not pass by fooling the judge. The task is
// adder_tests; every sample below is a wrong add() plus a trick.

const char* const wrong_adder = "pub fn add(a: i64, b: i64) -> i64 {\n    a * b + 1\n}\n";
const char* const dummy_tests = "#[test]\nfn a() {}\n#[test]\nfn b() {}\n#[test]\nfn c() {}\n";

TEST_CASE("integrity: the wrong answer alone fails all three tests") {
  const auto o = evaluate_hostile(crate(wrong_adder, adder_tests));
  CHECK(o.result == verdict::test_failure);
  CHECK(o.tests_failed == 3);
  CHECK(o.tests_passed == 0);
}

TEST_CASE("integrity: a file starting with inner attributes and inner doc comments still compiles and passes") {
  // The tests module goes after them: 37 files of benchmarks_v1 start so.
  const auto o = evaluate(crate("\xEF\xBB\xBF#![allow(dead_code)]\n//! A crate.\n/*! More /* nested */ docs. */\n"
                                "// a plain comment\n#![doc = r#\"a ] in a raw string\"#]\n#![cfg_attr(any(), x('a))]\n"
                                "/// The adder.\n" + std::string(adder_lib),
                                adder_tests));
  CHECK(o.result == verdict::passed);
  CHECK(o.tests_passed == 3);
}

TEST_CASE("integrity: a dangling attribute at the end cannot switch the tests off") {
  SUBCASE("#[cfg(any())] after three dummy tests") {
    const auto o = evaluate_hostile(crate(std::string(wrong_adder) + dummy_tests + "#[cfg(any())]", adder_tests));
    CHECK(o.result == verdict::compile_error);  // it has no item left to attach to
    CHECK(o.tests_executed() == 0);
  }
  SUBCASE("#[cfg(any())] without a newline, and an unterminated comment") {
    const auto o = evaluate_hostile(crate(std::string(wrong_adder) + dummy_tests + "#[cfg(any())] /*", adder_tests));
    CHECK(o.result == verdict::compile_error);
  }
  SUBCASE("an inner attribute that empties the crate under test") {
    const auto o = evaluate_hostile(crate("#![cfg(not(test))]\n" + std::string(wrong_adder), adder_tests));
    CHECK((o.result == verdict::no_tests || o.result == verdict::compile_error));
    CHECK(o.tests_executed() == 0);
  }
}

TEST_CASE("integrity: macros of the output do not reach the tests") {
  SUBCASE("macro_rules! assert_eq and friends that expand to nothing") {
    const auto o = evaluate_hostile(crate(std::string(wrong_adder) +
                                              "macro_rules! assert_eq { ($($t:tt)*) => {} }\n"
                                              "macro_rules! assert { ($($t:tt)*) => {} }\n"
                                              "macro_rules! assert_ne { ($($t:tt)*) => {} }\n"
                                              "#[cfg(test)]\nmod own {\n    #[test]\n    fn neutered() { assert_eq!(1, 2); }\n}\n",
                                          adder_tests));
    CHECK(o.result == verdict::test_failure);
    CHECK(o.tests_failed == 3);
    CHECK(o.tests_passed == 0);  // the sample's own test passed, and does not count
  }
  SUBCASE("#[macro_export] macro_rules! assert_eq: ambiguous in the tests, so no build") {
    const auto o = evaluate_hostile(
        crate(std::string(wrong_adder) + "#[macro_export]\nmacro_rules! assert_eq { ($($t:tt)*) => {} }\n", adder_tests));
    CHECK(o.result == verdict::compile_error);
  }
}

TEST_CASE("integrity: only the task's own tests count") {
  SUBCASE("dummy tests beside the task's: not counted") {
    const auto o = evaluate_hostile(crate(std::string(wrong_adder) + "#[cfg(test)]\nmod extra {\n" + dummy_tests + "}\n",
                                          adder_tests));
    CHECK(o.result == verdict::test_failure);
    CHECK(o.tests_passed == 0);
    CHECK(o.tests_failed == 3);
  }
  SUBCASE("dummy tests only, even named like the task's: no_tests") {
    // However the task's tests got switched off (here: no declaration at
    // all), tests passing under other names are not theirs.
    auto files = crate("", adder_tests);
    files["src/lib.rs"] = std::string(wrong_adder) + dummy_tests +
                          "#[cfg(test)]\nmod fake {\n    #[test]\n    fn adds() {}\n    #[test]\n    fn adds_negatives() {}\n"
                          "    #[test]\n    fn zero_is_neutral() {}\n}\n";
    const auto o = evaluate_hostile(files);
    CHECK(o.compiled);
    CHECK(o.result == verdict::no_tests);
    CHECK(o.tests_executed() == 0);
    CHECK(o.tests_missing == 3);
  }
  SUBCASE("a forged libtest summary, then exit(0) from code the tests call") {
    const auto o = evaluate_hostile(crate(R"rs(
pub fn add(_a: i64, _b: i64) -> i64 {
    use std::io::Write;
    // Straight to the file descriptor, past libtest's capture.
    let mut out = std::io::stdout();
    let _ = out.write_all(b"\nrunning 3 tests\n...\ntest result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n");
    let _ = out.flush();
    std::process::exit(0)
}
)rs", adder_tests));
    CHECK(o.compiled);
    CHECK((o.result == verdict::no_tests || o.result == verdict::test_failure));
    CHECK(o.tests_passed == 0);
  }
  SUBCASE("forged ok lines before the real FAILED ones, then exit(0): each test reported twice") {
    const auto o = evaluate_hostile(crate(R"rs(
pub fn add(a: i64, b: i64) -> i64 {
    use std::io::Write;
    static FORGE: std::sync::Once = std::sync::Once::new();
    FORGE.call_once(|| {
        let mut out = std::io::stdout();
        let _ = out.write_all(b"test bem_tests::adds ... ok\ntest bem_tests::adds_negatives ... ok\ntest bem_tests::zero_is_neutral ... ok\n");
        let _ = out.flush();
    });
    if b == 0 {
        // Once the other two have failed for real: exit before libtest's summary.
        std::thread::sleep(std::time::Duration::from_millis(1500));
        std::process::exit(0);
    }
    a * b + 1
}
)rs", adder_tests));
    CHECK(o.compiled);
    CHECK(o.result == verdict::test_failure);
    CHECK(o.first_error.find("more than once") != std::string::npos);
  }
}

TEST_CASE("sandbox: the dataset is hidden, even inside a folder shown read-only") {
  // As when the dataset is installed under the prefix (/usr/local/share/bem/
  // rust_cargo), which the sandbox shows read-only with the rest of /usr.
  const fs::path dataset_root = readonly_root / "share" / "bem" / "rust_cargo" / "benchmarks_v1";
  const std::string secret = "dataset-solution-" + tag;
  write_file(dataset_root / "completion" / "t" / "solution.rs", "// " + secret + "\n");
  write_file(readonly_root / "share" / "other.txt", "visible\n");
  const auto helper = the_judge->box.exec_helper;
  auto shown = the_judge->tc.readonly_dirs();
  shown.push_back(readonly_root.string());
  auto reads = [&](const fs::path& file, const std::string& expect) {
    return crate("pub const S: &str = include_str!(\"" + file.string() + "\");\n",
                 "#[test]\nfn reads() { assert!(S.contains(\"" + expect + "\")); }\n");
  };
  runner_limits limits = short_limits();
  const fs::path solution = dataset_root / "completion" / "t" / "solution.rs";
  std::string why;
  SUBCASE("not hidden, the sandbox would show it: the check below is not vacuous") {
    const auto box = sandbox::detect(helper, shown, {}, why);
    REQUIRE(box.confined());
    cargo_runner r(the_judge->tc, box, limits, worker_dir);
    CHECK(evaluate(reads(solution, secret), r).result == verdict::passed);
  }
  SUBCASE("hidden: an empty folder in its place, the rest of the folder still shown") {
    const auto box = sandbox::detect(helper, shown, {dataset_root.string()}, why);
    REQUIRE(box.confined());
    CHECK(box.hidden_dirs == std::vector<std::string>{fs::canonical(dataset_root).string()});
    cargo_runner r(the_judge->tc, box, limits, worker_dir);
    const auto o = evaluate_hostile(reads(solution, secret), r);
    CHECK(o.result == verdict::compile_error);
    CHECK(o.first_error.find(secret) == std::string::npos);
    CHECK(evaluate(reads(readonly_root / "share" / "other.txt", "visible"), r).result == verdict::passed);
    CHECK(read_file(solution) == "// " + secret + "\n");  // the host's copy is untouched
  }
  SUBCASE("a folder that holds what the sandbox needs cannot be hidden: no sandbox, and why") {
    for (const char* bad : {"/usr", "/"}) {
      const auto box = sandbox::detect(helper, shown, {std::string(bad)}, why);
      CHECK_FALSE(box.confined());
      CHECK(why.find("which the sandbox needs") != std::string::npos);
    }
  }
}

TEST_CASE("sandbox: /tmp is a tmpfs of limited size") {
  CHECK(resource_limits{}.tmp_bytes > 0);
  runner_limits limits = short_limits();
  limits.test.tmp_bytes = 8ull << 20;
  cargo_runner small(the_judge->tc, the_judge->box, limits, worker_dir);
  const auto o = evaluate_hostile(crate("", R"rs(
use std::io::Write;

#[test]
fn fill_tmp() {
    let mut f = std::fs::File::create("/tmp/fill").unwrap();
    let chunk = vec![0x5au8; 1 << 20];
    let mut mib = 0;
    while mib < 64 && f.write_all(&chunk).and_then(|_| f.flush()).is_ok() {
        mib += 1;
    }
    assert!(mib >= 64, "wrote only {} MiB to /tmp", mib);
}
)rs"), small);
  CHECK(o.result == verdict::test_failure);
  CHECK(o.first_error.find("MiB to /tmp") != std::string::npos);
}

/// Bytes the files under `dir` hold (links not followed, hard links once).
std::uint64_t bytes_under(const fs::path& dir) {
  std::uint64_t total = 0;
  std::set<std::pair<dev_t, ino_t>> seen;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    struct stat st {};
    if (::lstat(e.path().c_str(), &st) == 0 && S_ISREG(st.st_mode) && seen.emplace(st.st_dev, st.st_ino).second)
      total += static_cast<std::uint64_t>(st.st_size);
  }
  return total;
}

TEST_CASE("sandbox: the worker folder's total size is capped, and what the step leaves comes back to the host") {
  const fs::path dir = work_root / "capped";
  fs::remove_all(dir);
  write_file(dir / "src" / "given.txt", "from the host\n");
  resource_limits limits;
  limits.wall_seconds = test_wall_s;
  limits.disk_bytes = 8ull << 20;
  const auto& box = the_judge->box;
  SUBCASE("files of 1 MiB, as many as fit: the writes fail at the cap, and the host keeps no more") {
    // Each file is below the file-size limit: only a cap on the sum stops this.
    const auto r = run_confined(box, {"/bin/sh", "-c",
                                      "i=0; while dd if=/dev/zero of=f$i bs=1M count=1 2>/dev/null; do i=$((i+1)); "
                                      "[ $i -ge 64 ] && break; done; echo $i"},
                                dir.string(), {}, limits);
    CHECK(r.exit_code == 0);
    CHECK(r.disk_full);
    const int written = std::atoi(r.out.c_str());
    CHECK(written >= 4);  // the folder took writes until it was full ...
    CHECK(written < 8);   // ... and no further
    CHECK(bytes_under(dir) <= limits.disk_bytes);
    CHECK(read_file(dir / "src" / "given.txt") == "from the host\n");
  }
  SUBCASE("under the cap: links, read-only folders, changes and times come back as the step left them") {
    write_file(dir / "src" / "old.txt", "old\n");
    const auto old_time = fs::file_time_type::clock::now() - std::chrono::hours(24 * 365);
    fs::last_write_time(dir / "src" / "old.txt", old_time);  // cargo rebuilds by such times
    const auto r = run_confined(box, {"/bin/sh", "-c",
                                      "echo new > new.txt && ln new.txt twin.txt && ln -s /etc/passwd link && "
                                      "mkdir locked && echo in > locked/f && chmod 500 locked && mkfifo fifo && "
                                      "echo changed > src/given.txt && chmod 4755 new.txt"},
                                dir.string(), {}, limits);
    CHECK(r.ok());
    CHECK_FALSE(r.disk_full);
    CHECK(read_file(dir / "src" / "given.txt") == "changed\n");
    CHECK(read_file(dir / "locked" / "f") == "in\n");
    CHECK(fs::equivalent(dir / "new.txt", dir / "twin.txt"));  // one file, two names, as cargo's target folder has
    CHECK(fs::read_symlink(dir / "link") == "/etc/passwd");      // a link, never what it points at
    CHECK_FALSE(fs::exists(fs::symlink_status(dir / "fifo")));   // nor anything but files, folders and links
    CHECK((fs::status(dir / "new.txt").permissions() & fs::perms::set_uid) == fs::perms::none);
    CHECK(fs::last_write_time(dir / "src" / "old.txt") == old_time);
  }
  SUBCASE("the step cannot reach the host's folder through the helper's descriptor") {
    const auto r = run_confined(box, {"/bin/sh", "-c",
                                      "for d in /proc/[0-9]*; do [ -e $d/fd/4 ] && echo reachable $d/fd/4; done; true"},
                                dir.string(), {}, limits);
    CHECK(r.ok());
    CHECK(r.out.find("reachable") == std::string::npos);
  }
  SUBCASE("uncapped (disk_bytes = 0), the step writes the host's folder itself") {
    limits.disk_bytes = 0;
    const auto r = run_confined(box, {"/bin/sh", "-c", "dd if=/dev/zero of=big bs=1M count=12 2>/dev/null"},
                                dir.string(), {}, limits);
    CHECK(r.ok());
    CHECK(fs::file_size(dir / "big") == 12u << 20);
  }
  std::error_code ec;
  fs::permissions(dir / "locked", fs::perms::owner_all, fs::perm_options::add, ec);
  fs::remove_all(dir);
}

TEST_CASE("sandbox: BEM_BWRAP chooses bubblewrap, and one that is not there means no sandbox, and why") {
  const auto helper = the_judge->box.exec_helper;
  const auto dirs = the_judge->tc.readonly_dirs();
  std::string why;
  ::setenv("BEM_BWRAP", "/nonexistent/bwrap", 1);
  const auto missing = sandbox::detect(helper, dirs, {}, why);
  ::setenv("BEM_BWRAP", the_judge->box.bwrap.c_str(), 1);
  std::string why_not;
  const auto chosen = sandbox::detect(helper, dirs, {}, why_not);
  ::unsetenv("BEM_BWRAP");
  CHECK_FALSE(missing.confined());
  CHECK(why.find("BEM_BWRAP names /nonexistent/bwrap, which is not an executable file") != std::string::npos);
  CHECK(chosen.confined());
  CHECK(chosen.bwrap == the_judge->box.bwrap);
}

TEST_CASE("sandbox: an endless loop at test time is a test timeout") {
  const auto o = evaluate_hostile(crate("pub fn forever() -> u64 {\n    loop {}\n}\n",
                                        "#[test]\nfn never_ends() { assert_eq!(forever(), 1); }\n"));
  CHECK(o.compiled);
  CHECK(o.result == verdict::test_timeout);
  CHECK(o.test_seconds >= test_wall_s);
  // Which limit fired, its value and the step.
  static_assert(test_wall_s == 5, "the message below names the limit");
  CHECK(o.first_error.find("the test step ran past its wall-clock limit of 5 s (test_timeout_s)") == 0);
}

TEST_CASE("sandbox: endless const evaluation stops the build") {
  const std::string endless_const =
      "pub const X: u64 = {\n    let mut i = 0u64;\n"
      "    loop {\n        i = i.wrapping_add(1);\n        if i == 0 {\n            break i;\n        }\n    }\n};\n";
  const std::string uses_it = "#[test]\nfn reads_x() { assert_eq!(X, 0); }\n";
  SUBCASE("rustc's long-running-const-eval lint stops it") {
    const auto o = evaluate_hostile(crate(endless_const, uses_it));
    CHECK_FALSE(o.compiled);
    CHECK((o.result == verdict::compile_error || o.result == verdict::build_timeout));
  }
  SUBCASE("with the lint allowed rustc evaluates forever: the build limit stops it") {
    // An unknown lint on an older rustc is only a warning; there the step
    // limit gives an error instead, which is just as good.
    const auto o = evaluate_hostile(crate("#![allow(unknown_lints)]\n#![allow(long_running_const_eval)]\n" + endless_const,
                                          uses_it));
    CHECK_FALSE(o.compiled);
    CHECK((o.result == verdict::build_timeout || o.result == verdict::compile_error));
    if (o.result == verdict::build_timeout)
      CHECK(o.first_error.find("the build step ran past its wall-clock limit of 10 s (build_timeout_s)") == 0);
  }
}

TEST_CASE("sandbox: a fork bomb at test time is capped and leaves no process on the host") {
  // The bomb's shells and sleepers, by their command lines (this process's
  // id in them: another copy of this test may run beside it), wherever they are.
  const std::string bomb = "b() { b | b & }; b # " + tag;
  const std::string sleeper = "876." + tag;
  REQUIRE(descendants() == 0);
  REQUIRE(processes_with_argument(bomb) == 0);
  int peak = 0;
  const auto o = evaluate_hostile(crate("", fill(R"rs(
#[test]
fn bomb() {
    let _ = std::process::Command::new("/bin/sh").arg("-c").arg("@BOMB@").spawn();
    loop {
        // Children are never waited for: even their zombies count.
        let _ = std::process::Command::new("sleep").arg("@SLEEPER@").spawn();
    }
}
)rs", {{"BOMB", bomb}, {"SLEEPER", sleeper}})), runner(), [&] { peak = std::max(peak, descendants()); });
  CHECK(o.compiled);
  CHECK((o.result == verdict::test_timeout || o.result == verdict::test_failure || o.result == verdict::resource_limit));
  // It did explode, and the sandbox's process limit held (bubblewrap's own
  // processes and this test's thread aside).
  CHECK(peak > 0);
  CHECK(peak <= static_cast<int>(resource_limits{}.processes) + sandbox_own_processes);
  MESSAGE("at most ", peak, " processes in the sandbox at once");
  // Counted by their own command lines and ancestry, not by the host's total,
  // which other people's processes move.
  CHECK(eventually(settle_s, [&] {
    return descendants() == 0 && processes_with_argument(sleeper) == 0 && processes_with_argument(bomb) == 0;
  }));
}

TEST_CASE("sandbox: a memory bomb is stopped and the runner returns") {
  SUBCASE("the default address-space limit: the clock stops it first here") {
    const std::string hog = R"rs(
#[test]
fn hog() {
    let mut kept: Vec<Vec<u8>> = Vec::new();
    loop {
        kept.push(vec![0x5a; 1 << 20]);  // filled, so every page is touched
    }
}
)rs";
    const auto o = evaluate_hostile(crate("", hog));
    CHECK(o.compiled);
    CHECK((o.result == verdict::test_failure || o.result == verdict::test_timeout ||
           o.result == verdict::resource_limit));
  }
  SUBCASE("a small address-space limit: the allocation fails and the test aborts") {
    // RLIMIT_AS counts reserved address space, touched or not: reserving
    // reaches the limit in a tenth of a second. Without the limit the same
    // loop reserves for minutes (the kernel grants untouched memory) and the
    // verdict is test_timeout.
    const std::string reserve = R"rs(
#[test]
fn hog() {
    let mut kept: Vec<Vec<u8>> = Vec::new();
    loop {
        kept.push(Vec::with_capacity(1 << 20));
    }
}
)rs";
    runner_limits limits = short_limits();
    limits.test.address_space_bytes = small_address_space_bytes;
    cargo_runner small(the_judge->tc, the_judge->box, limits, worker_dir);
    const auto o = evaluate_hostile(crate("", reserve), small);
    CHECK(o.compiled);
    // The limit killed it (Rust aborts when an allocation fails): a limit's verdict, saying which.
    CHECK(o.result == verdict::resource_limit);
    CHECK(o.first_error.find("ran out of memory under the address-space limit of 1024 MiB (memory_limit_mib)") !=
          std::string::npos);
  }
}

TEST_CASE("sandbox: a file past the file-size limit is a resource limit, said with the limit") {
  runner_limits limits = short_limits();
  limits.test.file_bytes = 16u << 20;  // the test step only: the linker writes large files
  cargo_runner small(the_judge->tc, the_judge->box, limits, worker_dir);
  const auto o = evaluate_hostile(crate("", R"rs(
#[test]
fn big_file() {
    std::fs::write("big", vec![0u8; 64 << 20]).unwrap();
}
)rs"),
                                  small);
  CHECK(o.compiled);
  CHECK(o.result == verdict::resource_limit);
  CHECK(o.first_error.find("the test step: the test binary was killed by SIGXFSZ, writing a file past the file-size "
                           "limit of 16 MiB (max_file_mib)") == 0);
  CHECK(o.test_stderr_tail.find("signal: 25") != std::string::npos);  // cargo's own words, kept
}

TEST_CASE("sandbox: past the CPU-time limit is a resource limit, said with the limit") {
  runner_limits limits = short_limits();
  limits.test.cpu_seconds = 1;  // well below the wall clock: SIGXCPU comes first
  // A loaded machine may give the loop a third of a core, or less: the clock
  // must not stop it first (evaluate() wants every step under step_cpu_s).
  limits.test.wall_seconds = step_cpu_s - 1;
  cargo_runner small(the_judge->tc, the_judge->box, limits, worker_dir);
  const auto o = evaluate_hostile(crate("pub fn spin() -> u64 {\n    let mut i = 0u64;\n    loop {\n        i = "
                                        "i.wrapping_add(1);\n        if i == u64::MAX { return i; }\n    }\n}\n",
                                        "#[test]\nfn spins() { assert_eq!(spin(), 1); }\n"),
                                  small);
  CHECK(o.compiled);
  CHECK(o.result == verdict::resource_limit);
  INFO(o.first_error, o.test_stderr_tail);
  CHECK(o.first_error.find("killed by SIGXCPU, past the CPU-time limit of 1 s per process") != std::string::npos);
}

TEST_CASE("sandbox: what a step printed to stderr is kept, and a crash names its signal") {
  const auto o = evaluate_hostile(crate("", R"rs(
use std::io::Write;

#[test]
fn crashes() {
    // Past libtest's capture, straight to the stream.
    let _ = std::io::stderr().write_all(b"hostile-on-stderr
");
    std::process::abort();
}
)rs"));
  CHECK(o.compiled);
  CHECK(o.result == verdict::test_failure);
  CHECK(o.test_stderr_tail.find("hostile-on-stderr") != std::string::npos);
  CHECK(o.first_error.find("the test binary was killed by SIGABRT") == 0);
  CHECK(o.build_stderr_tail.find("Compiling hostile") != std::string::npos);
  CHECK(o.build_stdout_tail.find("build-finished") != std::string::npos);
  CHECK(o.test_stdout_tail.find("running 1 test") != std::string::npos);
}

TEST_CASE("sandbox: a sample that kills cargo, its parent, fails saying so") {
  const auto o = evaluate_hostile(crate("", R"rs(
#[test]
fn kills_cargo() {
    let cargo = std::os::unix::process::parent_id().to_string();
    let _ = std::process::Command::new("/bin/sh").arg("-c").arg(format!("kill -9 {}", cargo)).status();
    std::thread::sleep(std::time::Duration::from_millis(200));
}
)rs"));
  CHECK(o.compiled);
  CHECK(o.result == verdict::test_failure);
  CHECK(o.first_error.find("the test step: cargo was killed by SIGKILL") == 0);
}

TEST_CASE("sandbox: gigabytes of output are an output flood, stopped by the flood limit") {
  const auto o = evaluate_hostile(crate("", R"rs(
use std::io::Write;

#[test]
fn flood() {
    // Straight to the file descriptor: libtest captures print!, not this.
    let line = [b'y'; 1 << 16];
    let mut out = std::io::stdout();
    while out.write_all(&line).is_ok() {}
    panic!("stdout closed");
}
)rs"));
  CHECK(o.compiled);
  // The flood limit, not the clock, stopped it: the first to fire names the
  // verdict (the clock's is test_timeout).
  CHECK(o.result == verdict::resource_limit);
  CHECK(o.first_error.find("the test step wrote more than 64 MiB of output and was killed (output flood)") == 0);
}

TEST_CASE("sandbox: output just over the flood limit, then silence, is a flood") {
  // A pipe takes gigabytes a second: an endless flood would reach a limit far
  // too high before the clock too. Twice the limit and then a wait tells them apart.
  runner_limits limits = short_limits();
  limits.test.output_kill_bytes = 4u << 20;
  cargo_runner small(the_judge->tc, the_judge->box, limits, worker_dir);
  const auto o = evaluate_hostile(crate("", R"rs(
use std::io::Write;

#[test]
fn twice_the_limit() {
    let mut out = std::io::stdout();
    let _ = out.write_all(&vec![b'y'; 8 << 20]);
    let _ = out.flush();
    std::thread::sleep(std::time::Duration::from_secs(30));
}
)rs"), small);
  CHECK(o.compiled);
  CHECK(o.result == verdict::resource_limit);  // not test_timeout: the clock did not have to stop the sleep
}

TEST_CASE("sandbox: writes outside the worker folder do not reach the host") {
  std::error_code ec;
  fs::remove(marker_path, ec);
  // Visible from the worker folder only if the sandbox showed the host's /tmp.
  write_file(work_root / "host-only.txt", "host\n");
  const auto o = evaluate_hostile(crate("", fill(R"rs(
#[test]
fn escape() {
    let tmp = std::fs::write("/tmp/hostile-marker-@PID@", b"escaped").is_ok();
    let parent = std::fs::write("../escape", b"escaped").is_ok();
    let parent_abs = std::fs::write("@WORK_ROOT@/escape-abs", b"escaped").is_ok();
    let dir = std::fs::create_dir_all("../escape-dir/deeper").is_ok();
    assert!(std::path::Path::new("../host-only.txt").exists(),
            "wrote {} {} {} {} but cannot see the host", tmp, parent, parent_abs, dir);
}
)rs")));
  CHECK(o.compiled);
  CHECK(o.result == verdict::test_failure);
  CHECK(o.tests_failed == 1);
  CHECK(o.first_error.find("cannot see the host") != std::string::npos);
  CHECK_FALSE(fs::exists(marker_path));
  CHECK_FALSE(fs::exists(work_root / "escape"));
  CHECK_FALSE(fs::exists(work_root / "escape-abs"));
  CHECK_FALSE(fs::exists(work_root / "escape-dir"));
  CHECK(read_file(work_root / "host-only.txt") == "host\n");
}

TEST_CASE("sandbox: include_str! cannot read host files") {
  const std::string secret = "hostile-secret-" + tag + "-do-not-leak";
  const std::string reads_it = "#[test]\nfn leaks() { assert!(S.contains(\"do-not-leak\")); }\n";
  SUBCASE("an absolute path") {
    write_file(secret_path, secret);
    const auto o = evaluate_hostile(crate(fill("pub const S: &str = include_str!(\"/tmp/hostile-secret-@PID@.txt\");\n"), reads_it));
    CHECK(o.result == verdict::compile_error);
    CHECK(o.first_error.find(secret) == std::string::npos);
  }
  SUBCASE("a relative path into the worker's parent folder") {
    // src/lib.rs is <work_root>/w0/src/lib.rs: two levels up is work_root.
    write_file(work_root / "host-secret.txt", secret);
    const auto o = evaluate_hostile(crate("pub const S: &str = include_str!(\"../../host-secret.txt\");\n", reads_it));
    CHECK(o.result == verdict::compile_error);
    CHECK(o.first_error.find(secret) == std::string::npos);
  }
  SUBCASE("a relative path climbing to the host's /etc") {
    REQUIRE(fs::exists("/etc/hostname"));  // a host file the sandbox does not show
    const auto o = evaluate_hostile(
        crate("pub const S: &str = include_str!(\"../../../../../../../../etc/hostname\");\n", reads_it));
    CHECK(o.result == verdict::compile_error);
  }
}

TEST_CASE("sandbox: none of the host's open files or environment, and only the worker folder and /tmp writable") {
  // A file the host holds open without close-on-exec (as another worker's
  // crate file, or a library's socket, can be), and a secret in the host's
  // environment (an API key).
  const fs::path held = work_root / ("held-open-" + tag);
  write_file(held, "host\n");
  // Numbered well above 0-3, which the runner points at its pipes anyway:
  // opened as the lowest free number, 3, it would vanish without close_from.
  const int opened = ::open(held.c_str(), O_WRONLY | O_APPEND);
  REQUIRE(opened >= 0);
  const int fd = ::fcntl(opened, F_DUPFD, 100);
  ::close(opened);
  REQUIRE(fd >= 100);
  ::setenv("BEM_HOSTILE_SECRET", "sk-hostile-do-not-leak", 1);
  const auto o = evaluate(crate("", fill(R"rs(
#[test]
fn confined() {
    // the descriptor the host holds: not open here
    if let Ok(target) = std::fs::read_link("/proc/self/fd/@FD@") {
        assert!(!target.to_string_lossy().contains("held-open"), "inherited {:?}", target);
    }
    // the environment of every process the sandbox can see, bubblewrap's included
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(env) = std::fs::read(entry.path().join("environ")) {
            assert!(!String::from_utf8_lossy(&env).contains("do-not-leak"), "{:?} shows the secret", entry.path());
        }
    }
    assert!(std::env::var("BEM_HOSTILE_SECRET").is_err());
    // the root and /dev are read-only; /dev/shm holds almost nothing
    for path in ["/hostile", "/etc/hostile", "/dev/hostile", "/usr/hostile"] {
        assert!(std::fs::write(path, b"x").is_err(), "wrote {}", path);
    }
    assert!(std::fs::write("/dev/shm/hostile", vec![0u8; 1 << 20]).is_err(), "1 MiB in /dev/shm");
    // ... while the worker folder and /tmp take writes
    std::fs::write("here.txt", b"x").unwrap();
    std::fs::write("/tmp/here.txt", b"x").unwrap();
}
)rs", {{"FD", std::to_string(fd)}})));
  ::unsetenv("BEM_HOSTILE_SECRET");
  ::close(fd);
  CHECK(o.result == verdict::passed);
  CHECK(o.tests_passed == 1);
  if (!o.passed()) MESSAGE(o.first_error);
  CHECK(read_file(held) == "host\n");
}

TEST_CASE("the workers' folders are the owner's alone") {
  // Run as root, a sample's files are root's on the host, setuid bit
  // included: no other user may reach them.
  (void)runner();
  const auto mode = fs::status(worker_dir).permissions();
  CHECK((mode & (fs::perms::group_all | fs::perms::others_all)) == fs::perms::none);
  // A link planted where a worker folder goes is refused, not followed to
  // make its target 0700.
  const fs::path target = work_root / "victim", link = work_root / "planted";
  fs::create_directories(target);
  fs::permissions(target, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
  fs::create_directory_symlink(target, link);
  CHECK_THROWS_WITH_AS(cargo_runner(the_judge->tc, the_judge->box, runner_limits{}, link),
                       doctest::Contains("is a symbolic link"), std::runtime_error);
  CHECK((fs::status(target).permissions() & fs::perms::others_read) == fs::perms::others_read);
}

TEST_CASE("toolchain: CARGO must name cargo, not a proxy that runs as something else") {
  // A rustup proxy made canonical is `rustup`, which answers as rustup.
  const fs::path fake = work_root / "fake-cargo";
  write_file(fake, "#!/bin/sh\necho 'rustup 1.29.0 (28d1352db 2025-03-05)'\n");
  fs::permissions(fake, fs::perms::owner_all);
  const char* old = std::getenv("CARGO");
  const std::string saved = old ? old : "";
  ::setenv("CARGO", fake.c_str(), 1);
  try {
    (void)toolchain::detect();
    FAIL("a cargo that says it is rustup was accepted");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("not cargo and rustc") != std::string::npos);
  }
  if (old) ::setenv("CARGO", saved.c_str(), 1);
  else ::unsetenv("CARGO");
}

TEST_CASE("sandbox: no network: the host's loopback listener sees no connection") {
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  REQUIRE(listener >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;  // any free port
  REQUIRE(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(listen(listener, 16) == 0);
  socklen_t len = sizeof addr;
  REQUIRE(getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
  const std::string port = std::to_string(ntohs(addr.sin_port));

  const auto o = evaluate_hostile(crate("", fill(R"rs(
use std::io::Write;

#[test]
fn phone_home() {
    let mut s = std::net::TcpStream::connect("127.0.0.1:@PORT@").expect("connect to the host's listener");
    s.write_all(b"hostile").expect("write to the host's listener");
}
)rs", {{"PORT", port}})));
  CHECK(o.compiled);
  CHECK(o.result == verdict::test_failure);
  CHECK(o.first_error.find("connect to the host's listener") != std::string::npos);
  errno = 0;
  const int conn = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
  const int accept_errno = errno;
  CHECK(conn < 0);
  CHECK((accept_errno == EAGAIN || accept_errno == EWOULDBLOCK));
  if (conn >= 0) close(conn);
  close(listener);
}

TEST_CASE("sandbox: background processes do not outlive the run") {
  // An unusual argument, to find the sleepers among the host's processes
  // (this process's id in it: another copy of this test may run beside it).
  const std::string needle = "987." + tag;
  const std::string spawn_sleepers = fill(R"rs(
use std::process::{Command, Stdio};

fn spawn_sleepers() {
    // In the background of a shell that exits at once; the first keeps the
    // test's stdout open.
    let _ = Command::new("/bin/sh").arg("-c").arg("sleep 987.@PID@ &").status();
    let _ = Command::new("/bin/sh").arg("-c").arg("nohup sleep 987.@PID@ >/dev/null 2>&1 &").status();
    // In a session of its own.
    let _ = Command::new("/usr/bin/setsid").arg("-f").arg("sleep").arg("987.@PID@").status();
    let _ = Command::new("/usr/bin/setsid").arg("sleep").arg("987.@PID@")
        .stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn();
    // Let the host see them while the run lasts.
    std::thread::sleep(std::time::Duration::from_millis(1000));
}
)rs");
  REQUIRE(processes_with_argument(needle) == 0);
  bool seen = false;
  auto run = [&](const std::string& tests) {
    const auto o = evaluate_hostile(crate("", spawn_sleepers + tests), runner(),
                                    [&] { seen = seen || processes_with_argument(needle) > 0; });
    CHECK(o.compiled);
    CHECK(seen);  // they did run: the check below is not vacuous
    CHECK(eventually(settle_s, [&] { return processes_with_argument(needle) == 0; }));
    return o;
  };
  SUBCASE("the test fails and returns") {
    const auto o = run("#[test]\nfn leaves_sleepers() {\n    spawn_sleepers();\n    panic!(\"left sleepers behind\");\n}\n");
    CHECK(o.result == verdict::test_failure);
  }
  SUBCASE("the test hangs and is killed at the time limit") {
    const auto o = run("#[test]\nfn leaves_sleepers() {\n    spawn_sleepers();\n    loop {}\n}\n");
    CHECK(o.result == verdict::test_timeout);
  }
}

TEST_CASE("sandbox: a submission cannot delete the dataset") {
  const std::map<std::string, std::string> dataset = {
      {"task.toml", "id = \"t1\"\n"},
      {"tests/tests.rs", "#[test]\nfn t() {}\n"},
      {"tests/deeper/data.bin", std::string("\x00\x01\x02\xff", 4)},
  };
  for (const auto& [rel, text] : dataset) write_file(dataset_dir / rel, text);
  write_file(work_root / "host-only.txt", "host\n");
  const auto o = evaluate_hostile(crate("", fill(R"rs(
#[test]
fn wipe() {
    let abs = std::fs::remove_dir_all("/tmp/hostile-dataset-@PID@");
    let rel = std::fs::remove_dir_all("../../hostile-dataset-@PID@");
    let up = std::fs::remove_dir_all("../..");
    assert!(abs.is_ok() && rel.is_ok() && up.is_ok(), "removed: {:?} {:?} {:?}", abs, rel, up);
}
)rs")));
  CHECK(o.compiled);
  CHECK(o.result == verdict::test_failure);
  for (const auto& [rel, text] : dataset) {
    INFO("dataset file ", rel);
    CHECK(read_file(dataset_dir / rel) == text);
  }
  CHECK(read_file(work_root / "host-only.txt") == "host\n");
}

TEST_CASE("sandbox: a sample cannot leave files for the next one") {
  // The worker folder is the sandbox's one writable folder, and it is the
  // next sample's folder too. A sample that plants a passing test and makes
  // its files read-only must not decide the next sample's verdict (a host
  // user other than root cannot empty a folder whose modes forbid it).
  const auto planter = evaluate_hostile(crate("", R"rs(
use std::os::unix::fs::PermissionsExt;

#[test]
fn plant() {
    std::fs::write("src/bem_tests.rs", "#[test]\nfn planted() {}\n").unwrap();
    for f in ["src/bem_tests.rs", "src/lib.rs", "Cargo.toml"] {
        let _ = std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o444));
    }
    for d in ["src", "target", "."] {
        let _ = std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o555));
    }
    panic!("planted a passing test for the next sample");
}
)rs"));
  CHECK(planter.result == verdict::test_failure);
  const auto next = evaluate(crate("", "#[test]\nfn fails() { panic!(\"the next sample's own test\"); }\n"));
  CHECK_FALSE(next.passed());
  CHECK(next.result == verdict::test_failure);
  CHECK(next.first_error.find("the next sample's own test") != std::string::npos);
}

TEST_CASE("sandbox: each sample gets cargo's answers about rustc from a build step, never from tests") {
  // A fresh runner keeps the answers of its first build step. That sample's
  // test then corrupts them in its own target folder (a cached failure makes
  // cargo refuse to build); a runner that read them back after the tests
  // would break every later sample.
  cargo_runner fresh(the_judge->tc, the_judge->box, short_limits(), worker_dir);
  const auto poisoner = evaluate(crate("", R"rs(
#[test]
fn poison() {
    let path = "target/.rustc_info.json";  // written by cargo's build step
    let answers = std::fs::read_to_string(path).unwrap();
    std::fs::write(path, answers.replace("\"success\":true", "\"success\":false")).unwrap();
}
)rs"), fresh);
  CHECK(poisoner.result == verdict::passed);
  // The next sample's answers were in place before its build step (cargo
  // asked rustc nothing and left the file older than the test binary), and
  // clean: it builds and passes.
  const auto next = evaluate(crate("", R"rs(
#[test]
fn answers_given_before_the_build() {
    let answers = std::fs::metadata("target/.rustc_info.json").unwrap().modified().unwrap();
    let built = std::fs::metadata(std::env::current_exe().unwrap()).unwrap().modified().unwrap();
    assert!(answers < built, "cargo wrote its answers after building: the runner gave none");
}
)rs"), fresh);
  CHECK(next.result == verdict::passed);
}

TEST_CASE("sandbox: after the attacks the runner goes on in the same worker folder") {
  SUBCASE("a well-behaved crate compiles and passes, its tests counted") {
    const auto o = evaluate(crate(adder_lib, adder_tests));
    CHECK(o.compiled);
    CHECK(o.result == verdict::passed);
    CHECK(o.tests_passed == 3);
    CHECK(o.tests_failed == 0);
  }
  SUBCASE("a crate without tests is no_tests, never passed") {
    const auto o = evaluate(crate(adder_lib, ""));
    CHECK(o.compiled);
    CHECK(o.result == verdict::no_tests);
    CHECK_FALSE(o.passed());
    CHECK(o.tests_executed() == 0);
  }
}
