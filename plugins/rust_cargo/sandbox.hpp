// Confined execution of untrusted builds and tests.
//
// Model-generated Rust runs code at compile time (const evaluation, macros
// such as include_str!) as well as at test time, so both `cargo build` and
// `cargo test` go through `run_confined`. With bubblewrap it gets: no network
// (own network namespace), its own PID namespace (nothing outlives the run),
// a read-only view of only the system and toolchain folders (with the
// dataset's folders hidden, wherever they lie), one writable folder (the
// sample's, a tmpfs of limited size that bem-sandbox-exec fills from the
// host's folder and copies back; the root, /dev and everything else
// read-only), an empty /tmp of limited size, none of the host's open files
// or environment, resource limits (address space, CPU time, file size, open
// files, processes) and a wall-clock limit after which the whole sandbox is
// killed. Output is captured up to a cap; a flood beyond a hard cap kills
// the run (docs/rust-benchmarks.md).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rust_cargo {

struct resource_limits {
  double wall_seconds = 10;
  double cpu_seconds = 20;                             ///< per process (RLIMIT_CPU)
  std::uint64_t address_space_bytes = 4ull << 30;      ///< RLIMIT_AS
  std::uint64_t file_bytes = 256ull << 20;             ///< RLIMIT_FSIZE: largest file written
  std::uint64_t tmp_bytes = 256ull << 20;              ///< size of the sandbox's /tmp (a tmpfs, in memory)
  /// All the worker folder may hold during a step (a tmpfs, in memory,
  /// copied back to the host's folder after it); 0: the host's folder
  /// itself, uncapped. Only with bubblewrap.
  std::uint64_t disk_bytes = 1ull << 30;
  std::uint64_t open_files = 512;                      ///< RLIMIT_NOFILE
  std::uint64_t processes = 512;                       ///< RLIMIT_NPROC inside the sandbox (threads count)
  std::size_t captured_output_bytes = 256u << 10;      ///< kept per stream
  std::size_t output_kill_bytes = 64u << 20;           ///< total output that kills the run
};

struct confined_result {
  int exit_code = -1;        ///< -1 when killed by a signal
  int signal = 0;            ///< the signal that killed the command (inside the sandbox too), 0: none
  bool timed_out = false;
  bool output_flood = false; ///< killed for writing more than output_kill_bytes
  bool output_truncated = false;
  bool disk_full = false;    ///< the step filled its worker folder's disk_bytes (writes failed with "no space")
  std::string out, err;      ///< captured (possibly truncated) stdout and stderr
  double seconds = 0;
  std::int64_t peak_rss_kib = -1;  ///< largest resident set of any one of the step's processes; -1: unknown (killed)
  bool ok() const { return exit_code == 0 && !timed_out && !output_flood; }
};

/// How commands are confined. `bwrap` empty: not confined at all (only for
/// code the dataset itself ships, or when the user passed the unsafe flag).
struct sandbox {
  std::string exec_helper;                 ///< bem-sandbox-exec: limits and peak memory (always used)
  std::string bwrap;                       ///< path of bubblewrap ($BEM_BWRAP, else found), "" when unconfined
  std::vector<std::string> readonly_dirs;  ///< toolchain folders to expose read-only
  /// Folders that must not be seen inside (the dataset: solutions and
  /// tests), canonical paths: each is covered by an empty tmpfs where a
  /// read-only folder (/usr, the toolchain's) would show it.
  std::vector<std::string> hidden_dirs;
  /// A limit the sandbox cannot enforce here, said in the records ("" when
  /// none): running as root without a writable pids cgroup, processes are
  /// not capped (the kernel exempts uid 0, which the sandbox's user maps
  /// to, from RLIMIT_NPROC).
  std::string weakness;
  /// Finds bubblewrap ($BEM_BWRAP when set, else /usr/bin/bwrap,
  /// /bin/bwrap or /usr/local/bin/bwrap) and checks that it can build a sandbox here, with
  /// `hidden` (existing folders; made canonical) hidden; `why` says what
  /// failed when it returns an unconfined sandbox. A hidden folder that
  /// holds a folder the sandbox needs (/usr, the toolchain) cannot be hidden:
  /// unconfined, with the reason.
  static sandbox detect(const std::string& exec_helper, const std::vector<std::string>& toolchain_dirs,
                        const std::vector<std::string>& hidden, std::string& why);
  bool confined() const { return !bwrap.empty(); }
};

/// Runs `argv` with `workdir` as its working directory and only writable
/// folder, the environment `env` (nothing else is inherited), stdin read
/// from `stdin_file` (empty: nothing).
confined_result run_confined(const sandbox& box, const std::vector<std::string>& argv, const std::string& workdir,
                             const std::vector<std::pair<std::string, std::string>>& env,
                             const resource_limits& limits, const std::string& stdin_file = {});

}  // namespace rust_cargo
