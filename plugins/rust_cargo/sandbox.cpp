#include "sandbox.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rust_cargo {
namespace {

namespace fs = std::filesystem;

// Empty folders over the hidden ones: small, since nothing needs to write there.
constexpr const char* hidden_tmpfs_bytes = "65536";

std::vector<std::string> bwrap_prefix(const sandbox& box, const std::string& workdir,
                                      const std::vector<std::pair<std::string, std::string>>& env,
                                      const resource_limits& limits) {
  std::vector<std::string> a = {box.bwrap, "--unshare-all", "--unshare-user", "--uid", "65534", "--gid", "65534",
                                "--hostname", "sandbox", "--die-with-parent", "--ro-bind", "/usr", "/usr"};
  // Debian merges /bin, /lib... into /usr with symlinks; older layouts bind them.
  for (const char* d : {"/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"}) {
    std::error_code ec;
    if (fs::is_symlink(d, ec)) {
      a.insert(a.end(), {"--symlink", fs::read_symlink(d, ec).string(), d});
    } else if (fs::is_directory(d, ec)) {
      a.insert(a.end(), {"--ro-bind", d, d});
    }
  }
  // The linker is reached through /etc/alternatives (cc); nothing else of /etc.
  for (const char* f : {"/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d"}) {
    a.insert(a.end(), {"--ro-bind-try", f, f});
  }
  // /tmp is memory: sized (bubblewrap >= 0.8 has --size), so a sample cannot fill the host's memory there.
  a.insert(a.end(), {"--proc", "/proc", "--dev", "/dev", "--size", std::to_string(limits.tmp_bytes), "--tmpfs", "/tmp"});
  for (const auto& d : box.readonly_dirs) a.insert(a.end(), {"--ro-bind", d, d});
  a.insert(a.end(), {"--ro-bind", box.exec_helper, box.exec_helper});
  // After every read-only folder, so whichever of them holds the dataset
  // (/usr/local/share/..., a toolchain folder) shows an empty folder there;
  // before the worker folder, which stays visible even inside one.
  for (const auto& d : box.hidden_dirs) a.insert(a.end(), {"--size", hidden_tmpfs_bytes, "--tmpfs", d});
  // The worker folder: a tmpfs of the step's disk limit, which
  // bem-sandbox-exec fills from the host's folder and copies back (--mirror),
  // or, uncapped, the host's folder itself.
  if (limits.disk_bytes > 0)
    a.insert(a.end(), {"--size", std::to_string(limits.disk_bytes), "--tmpfs", workdir});
  else
    a.insert(a.end(), {"--bind", workdir, workdir});
  a.insert(a.end(), {"--chdir", workdir, "--clearenv"});
  for (const auto& [k, v] : env) a.insert(a.end(), {"--setenv", k, v});
  // Only the worker folder and /tmp take writes: bubblewrap's root and /dev
  // are unsized memory, so they become read-only, and /dev/shm tiny.
  a.insert(a.end(), {"--size", hidden_tmpfs_bytes, "--tmpfs", "/dev/shm", "--remount-ro", "/dev", "--remount-ro", "/"});
  a.emplace_back("--");
  return a;
}

void set_limit(int resource, std::uint64_t value) {
  rlimit r{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
  setrlimit(resource, &r);
}

// A pids cgroup caps the number of processes where RLIMIT_NPROC cannot: a
// root host maps the sandbox to uid 0, which the kernel exempts from
// RLIMIT_NPROC. Made per run when cgroups are writable (root), else absent.
class pids_cgroup {
 public:
  explicit pids_cgroup(std::uint64_t max) {
    static std::atomic<unsigned> counter{0};
    const std::string name = "bem-sandbox-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    for (const char* base : {"/sys/fs/cgroup/pids", "/sys/fs/cgroup"}) {
      const std::string dir = std::string(base) + "/" + name;
      if (mkdir(dir.c_str(), 0755) != 0) continue;
      if (write_file(dir + "/pids.max", std::to_string(max))) {
        path_ = dir;
        break;
      }
      rmdir(dir.c_str());
    }
  }
  pids_cgroup(const pids_cgroup&) = delete;
  pids_cgroup& operator=(const pids_cgroup&) = delete;
  ~pids_cgroup() {
    // The processes were killed; the kernel may need a moment to let go.
    for (int i = 0; i < 50 && !path_.empty() && rmdir(path_.c_str()) != 0; ++i) usleep(10000);
  }
  /// In the child before exec: join the cgroup (async-signal-safe calls only).
  void join() const {
    if (path_.empty()) return;
    const std::string procs = path_ + "/cgroup.procs";
    const int fd = open(procs.c_str(), O_WRONLY);
    if (fd >= 0) {
      (void)!write(fd, "0", 1);
      close(fd);
    }
  }
  bool active() const { return !path_.empty(); }

 private:
  static bool write_file(const std::string& path, const std::string& text) {
    const int fd = open(path.c_str(), O_WRONLY);
    if (fd < 0) return false;
    const bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    close(fd);
    return ok;
  }
  std::string path_;
};

/// Closes every descriptor from `first` on (in a forked child: async-signal-safe).
void close_from(int first) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, static_cast<unsigned>(first), ~0u, 0u) == 0) return;
#endif
  rlimit r{};
  const long last = getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur != RLIM_INFINITY ? static_cast<long>(r.rlim_cur)
                                                                                     : 65536;
  for (long fd = first; fd < last; ++fd) close(static_cast<int>(fd));
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

sandbox sandbox::detect(const std::string& exec_helper, const std::vector<std::string>& toolchain_dirs,
                        const std::vector<std::string>& hidden, std::string& why) {
  sandbox box;
  box.exec_helper = exec_helper;
  sandbox unconfined;
  unconfined.exec_helper = exec_helper;
  if (const char* chosen = std::getenv("BEM_BWRAP"); chosen != nullptr && *chosen != '\0') {
    if (access(chosen, X_OK) != 0) {
      why = std::string("BEM_BWRAP names ") + chosen + ", which is not an executable file (" + std::strerror(errno) + ")";
      return unconfined;
    }
    box.bwrap = chosen;
  }
  for (const char* p : {"/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"}) {
    if (!box.bwrap.empty()) break;
    if (access(p, X_OK) == 0) box.bwrap = p;
  }
  if (box.bwrap.empty()) {
    why = "bubblewrap (bwrap) is not installed";
    return unconfined;
  }
  box.readonly_dirs = toolchain_dirs;
  auto holds = [](const std::string& dir, const std::string& path) {
    return dir == "/" || path == dir || path.rfind(dir + "/", 0) == 0;
  };
  std::vector<std::string> needed = {"/usr", "/etc", fs::path(exec_helper).parent_path().string()};
  needed.insert(needed.end(), toolchain_dirs.begin(), toolchain_dirs.end());
  for (const auto& h : hidden) {
    std::error_code ec;
    const auto dir = fs::canonical(h, ec);
    if (ec || !fs::is_directory(dir, ec)) continue;  // not there: nothing to hide
    for (const auto& n : needed) {
      if (holds(dir.string(), n)) {
        why = "the folder " + dir.string() + " (to hide: it holds the dataset) contains " + n +
              ", which the sandbox needs";
        return unconfined;
      }
    }
    if (std::find(box.hidden_dirs.begin(), box.hidden_dirs.end(), dir.string()) == box.hidden_dirs.end())
      box.hidden_dirs.push_back(dir.string());
  }
  char tmpl[] = "/tmp/bem-sandbox-probe-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) {
    why = std::string("cannot create a probe folder: ") + std::strerror(errno);
    return unconfined;
  }
  resource_limits probe;
  probe.wall_seconds = 20;
  const auto r = run_confined(box, {"/bin/sh", "-c", "echo probe > probe && cat probe"}, tmpl, {}, probe);
  std::error_code ec;
  fs::remove_all(tmpl, ec);
  if (!r.ok() || r.out != "probe\n") {
    why = "bubblewrap cannot build a sandbox here (exit " + std::to_string(r.exit_code) + "): " + r.err.substr(0, 300);
    return unconfined;
  }
  if (geteuid() == 0 && !pids_cgroup(probe.processes).active())
    box.weakness = "processes not capped: running as root without a writable pids cgroup";
  return box;
}

confined_result run_confined(const sandbox& box, const std::vector<std::string>& argv, const std::string& workdir,
                             const std::vector<std::pair<std::string, std::string>>& env,
                             const resource_limits& limits, const std::string& stdin_file) {
  confined_result res;
  std::vector<std::string> full = box.confined() ? bwrap_prefix(box, workdir, env, limits) : std::vector<std::string>{};
  // RLIMIT_NPROC is counted per user namespace: the helper sets it inside,
  // after bwrap made the namespace, so it counts the sandbox's processes only.
  full.insert(full.end(), {box.exec_helper, std::to_string(limits.processes)});
  // The helper copies the host's folder (its descriptor 4) into the capped
  // tmpfs and back; without bubblewrap there is no tmpfs, and no cap.
  const bool mirrored = box.confined() && limits.disk_bytes > 0;
  if (mirrored) full.emplace_back("--mirror");
  full.emplace_back("--");
  full.insert(full.end(), argv.begin(), argv.end());
  std::vector<char*> cargv;
  for (auto& s : full) cargv.push_back(s.data());
  cargv.push_back(nullptr);
  std::vector<std::string> envs;
  for (const auto& [k, v] : env) envs.push_back(k + "=" + v);
  std::vector<char*> cenv;
  for (auto& s : envs) cenv.push_back(s.data());
  cenv.push_back(nullptr);

  int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1}, report_pipe[2] = {-1, -1};
  const auto close_pipes = [&] {
    for (int* p : {out_pipe, err_pipe, report_pipe})
      for (int i : {0, 1})
        if (p[i] >= 0) close(p[i]);
  };
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0 || pipe2(report_pipe, O_CLOEXEC) != 0) {
    res.err = std::string("pipe: ") + std::strerror(errno);
    close_pipes();
    return res;
  }
  const int host_folder = mirrored ? open(workdir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
  if (mirrored && host_folder < 0) {
    res.err = "cannot open the worker folder " + workdir + ": " + std::strerror(errno);
    close_pipes();
    return res;
  }
  const pids_cgroup cgroup(limits.processes);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    res.err = std::string("fork: ") + std::strerror(errno);
    close_pipes();
    if (host_folder >= 0) close(host_folder);
    return res;
  }
  if (pid == 0) {
    // Own process group, so the whole tree can be killed at the limit.
    setpgid(0, 0);
    cgroup.join();
    const int in = open(stdin_file.empty() ? "/dev/null" : stdin_file.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) _exit(126);
    dup2(in, 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    dup2(report_pipe[1], 3);  // bem-sandbox-exec's report; bwrap passes it on
    if (mirrored) dup2(host_folder, 4);  // the helper's alone: it closes it on exec
    // Nothing else of ours reaches the sandbox: descriptors without
    // close-on-exec (another worker's open crate file, a model server's
    // socket held by a library) would be writable there.
    close_from(mirrored ? 5 : 4);
    set_limit(RLIMIT_AS, limits.address_space_bytes);
    // The hard limit a second above the soft one: at the soft limit the
    // kernel sends SIGXCPU, which says which limit fired; at equal limits
    // it sends SIGKILL, which says nothing.
    const auto cpu = static_cast<rlim_t>(limits.cpu_seconds);
    const rlimit cpu_limit{cpu, cpu + 1};
    setrlimit(RLIMIT_CPU, &cpu_limit);
    set_limit(RLIMIT_FSIZE, limits.file_bytes);
    set_limit(RLIMIT_NOFILE, limits.open_files);
    set_limit(RLIMIT_CORE, 0);
    if (!box.confined() && chdir(workdir.c_str()) != 0) _exit(126);
    // Never our environment (API keys): bubblewrap, as the sandbox's first
    // process, would show it in /proc/1/environ.
    execve(cargv[0], cargv.data(), cenv.data());
    dprintf(2, "cannot execute %s: %s\n", cargv[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);  // also here: no race with the kill below
  if (host_folder >= 0) close(host_folder);
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(report_pipe[1]);
  for (int fd : {out_pipe[0], err_pipe[0], report_pipe[0]}) fcntl(fd, F_SETFL, O_NONBLOCK);

  std::string report;
  pollfd fds[3] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}, {report_pipe[0], POLLIN, 0}};
  std::string* sinks[3] = {&res.out, &res.err, &report};
  std::size_t total = 0;
  bool exited = false, killed = false;
  int status = 0;
  rusage usage{};
  auto kill_all = [&] {
    kill(-pid, SIGKILL);
    killed = true;
  };
  std::chrono::steady_clock::time_point drain_until{};
  for (;;) {
    if (!exited) {
      const pid_t w = wait4(pid, &status, WNOHANG, &usage);
      if (w == pid) {
        exited = true;
        // Anything the command left running in its group dies with it.
        kill(-pid, SIGKILL);
        drain_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
      }
    }
    if (fds[0].fd < 0 && fds[1].fd < 0 && fds[2].fd < 0 && exited) break;
    if (exited && std::chrono::steady_clock::now() > drain_until) break;
    if (!exited && !killed && seconds_since(t0) > limits.wall_seconds) {
      res.timed_out = true;
      kill_all();
    }
    if (poll(fds, 3, 20) < 0 && errno != EINTR) break;
    for (int i = 0; i < 3; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      char buf[65536];
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        total += static_cast<std::size_t>(n);
        const std::size_t room = limits.captured_output_bytes - std::min(sinks[i]->size(), limits.captured_output_bytes);
        sinks[i]->append(buf, std::min<std::size_t>(room, static_cast<std::size_t>(n)));
        if (static_cast<std::size_t>(n) > room) res.output_truncated = true;
        if (total > limits.output_kill_bytes && !killed) {
          res.output_flood = true;
          kill_all();
        }
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        close(fds[i].fd);
        fds[i].fd = -1;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  if (!exited) {
    kill(-pid, SIGKILL);
    wait4(pid, &status, 0, &usage);
  }
  res.seconds = seconds_since(t0);
  // Only bem-sandbox-exec sees the step's whole tree (bubblewrap does not
  // pass it on); a step killed at a limit reports nothing: unknown.
  res.peak_rss_kib = -1;
  if (const auto at = report.find("peak_rss_kib "); at != std::string::npos)
    res.peak_rss_kib = std::atoll(report.c_str() + at + 13);
  res.disk_full = report.find("disk_full\n") != std::string::npos;
  if (WIFEXITED(status)) {
    res.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    res.signal = WTERMSIG(status);
  }
  // The command's own death by a signal, as bem-sandbox-exec saw it: the
  // status it exits with says only 128 + N (bubblewrap passes that on).
  if (const auto at = report.find("signal "); at != std::string::npos && res.signal == 0) {
    if (const int sig = std::atoi(report.c_str() + at + 7); sig > 0) {
      res.signal = sig;
      res.exit_code = -1;
    }
  }
  return res;
}

}  // namespace rust_cargo
