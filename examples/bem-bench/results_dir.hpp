// Crash safety of a results directory: one run writes it at a time, its
// report files are replaced whole, and a test hook kills the driver at
// chosen points so that tests of --resume cannot pass by luck.
#pragma once

#include <metrics/records.hpp>

#include <string>
#include <string_view>

namespace bench_driver {

/// Holds DIR/.bem-bench.lock while a run writes DIR. A POSIX record lock:
/// it ends with its process however that ends (SIGKILL included, so a
/// killed run leaves nothing that blocks --resume) and the run's child
/// processes do not inherit it. Throws config_error naming DIR and the
/// holder's pid when another process holds it.
class results_dir_lock {
 public:
  explicit results_dir_lock(const std::string& dir);
  results_dir_lock(const results_dir_lock&) = delete;
  results_dir_lock& operator=(const results_dir_lock&) = delete;
  ~results_dir_lock();

 private:
  int fd_ = -1;
};

/// Replaces the file at `path` whole: writes a temporary file beside it,
/// fsyncs it, renames it over `path` and fsyncs the directory, so a reader
/// or a crash finds the old contents or the new, never part of either.
void write_file_atomically(const std::string& path, std::string_view contents);

/// The test hook (tests/driver): with BEM_BENCH_TEST_KILL set, the driver
/// and its run die by SIGKILL, as on an OOM kill, at
///   record:N       the N-th record this invocation writes, before any of it
///   torn-record:N  the N-th record, halfway through writing it
///   file:NAME      halfway through writing the directory's file NAME
///                  (metrics.json, report.html, context.json, results.jsonl)
/// Unset (always, outside tests), each call below is one branch.
namespace kill_hook {
/// Records the results file and the records it already holds (the count
/// starts after them) and this process as the driver.
void arm(const std::string& results_path);
/// Called before each record is appended, in whichever process writes it.
void before_record(const bem::metrics::json& record);
/// Called with a file's temporary descriptor before its contents are written.
void in_file(const std::string& path, int fd, std::string_view contents);
}  // namespace kill_hook

}  // namespace bench_driver
