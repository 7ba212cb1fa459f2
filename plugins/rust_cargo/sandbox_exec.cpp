// bem-sandbox-exec: the first process inside the sandbox.
//
//     bem-sandbox-exec NPROC [--mirror] -- COMMAND [ARG...]
//
// Sets RLIMIT_NPROC (counted per user namespace, so it must be set inside
// the sandbox's namespace to count only the sandbox's processes), runs
// COMMAND, and reports the peak resident set of COMMAND's whole process tree
// on file descriptor 3 — which COMMAND never sees — as "peak_rss_kib N".
// bubblewrap's own process tree does not pass that figure on to the host.
// When a signal killed COMMAND it also reports "signal N" there: the exit
// status it gives (128 + N, as a shell does) reaches the host through
// bubblewrap looking like an exit code, and a limit's signal (SIGXFSZ,
// SIGXCPU) or a kill must not be taken for the command's own failure.
//
// --mirror caps all the step may write to its worker folder: the working
// directory is then an empty tmpfs of that size, and descriptor 4 the
// host's worker folder. The folder is copied in before COMMAND runs and
// copied back over the host's after it ends, so the host keeps at most the
// tmpfs's size (and mirror_max_entries entries). COMMAND never holds the
// host's folder: descriptor 4 is closed on exec, and this process is made
// undumpable, so /proc/PID/fd/4 is closed to the sample too. A full tmpfs
// (or too many entries) is reported as "disk_full".
#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace {

constexpr int host_folder_fd = 4;
/// Entries (files, folders, links) a step may leave: a tmpfs caps bytes,
/// not inodes, and each costs the host one.
constexpr long mirror_max_entries = 100000;
/// Folders deep: each level holds two descriptors while it is copied.
constexpr int mirror_max_depth = 100;
/// Less free space than this in the tmpfs after the step: it filled it.
constexpr unsigned long long full_margin_bytes = 1ull << 20;

struct mirror_error : std::runtime_error {
  bool full;  ///< the step's own doing (no space, too many entries), not an I/O failure
  mirror_error(const std::string& what, bool full) : std::runtime_error(what), full(full) {}
};

[[noreturn]] void fail(const std::string& what, int err = errno) {
  throw mirror_error(what + ": " + std::strerror(err), err == ENOSPC || err == EDQUOT);
}

/// An owner's mode for what is copied: never setuid or setgid (run as root,
/// the host folder's files are root's), always the owner's to remove.
mode_t kept_mode(mode_t m, bool folder) { return (m & 0777) | (folder ? S_IRWXU : S_IRUSR | S_IWUSR); }

/// Opens `name` in `dir` without following a link; a folder or file the
/// sample made unreadable to its owner is made readable first.
int open_entry(int dir, const char* name, int flags, mode_t owner_bits) {
  int fd = openat(dir, name, flags | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == EACCES) {
    struct stat st {};
    if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0) fchmodat(dir, name, (st.st_mode & 07777) | owner_bits, 0);
    fd = openat(dir, name, flags | O_NOFOLLOW | O_CLOEXEC);
  }
  if (fd < 0) fail(std::string("open ") + name);
  return fd;
}

/// Calls f(name) for each entry of the folder `dir` but . and ..
template <class F>
void for_each_entry(int dir, F&& f) {
  const int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("open folder");
  DIR* d = fdopendir(fd);
  if (d == nullptr) {
    const int e = errno;
    close(fd);
    fail("fdopendir", e);
  }
  try {
    while (const dirent* e = readdir(d)) {
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
      f(std::string(e->d_name));
    }
  } catch (...) {
    closedir(d);
    throw;
  }
  closedir(d);
}

/// Copies a folder's contents: folders, regular files (hard links kept as
/// links) and symbolic links (as links, never followed), with their times
/// (cargo decides what to rebuild by them); other kinds (FIFOs, sockets)
/// are left out.
class tree_copy {
 public:
  explicit tree_copy(int destination_root) : root_(destination_root) {}

  void folder(int from, int to, const std::string& at, int depth) {
    if (depth > mirror_max_depth) throw mirror_error("folders nested deeper than " + std::to_string(mirror_max_depth), true);
    for_each_entry(from, [&](const std::string& name) {
      if (++entries_ > mirror_max_entries)
        throw mirror_error("more than " + std::to_string(mirror_max_entries) + " files and folders", true);
      const std::string path = at.empty() ? name : at + "/" + name;
      struct stat st {};
      if (fstatat(from, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) fail("stat " + path);
      if (S_ISDIR(st.st_mode)) {
        if (mkdirat(to, name.c_str(), S_IRWXU) != 0) fail("mkdir " + path);
        const int f = open_entry(from, name.c_str(), O_RDONLY | O_DIRECTORY, S_IRWXU);
        const int t = open_entry(to, name.c_str(), O_RDONLY | O_DIRECTORY, 0);
        try {
          folder(f, t, path, depth + 1);
        } catch (...) {
          close(f);
          close(t);
          throw;
        }
        close(f);
        close(t);
        fchmodat(to, name.c_str(), kept_mode(st.st_mode, true), 0);
        keep_times(to, name, st);
      } else if (S_ISREG(st.st_mode)) {
        file(from, to, name, path, st);
      } else if (S_ISLNK(st.st_mode)) {
        char target[4096];
        const ssize_t n = readlinkat(from, name.c_str(), target, sizeof target - 1);
        if (n < 0) fail("readlink " + path);
        target[n] = '\0';
        if (symlinkat(target, to, name.c_str()) != 0) fail("symlink " + path);
        keep_times(to, name, st);
      }
    });
  }

 private:
  void file(int from, int to, const std::string& name, const std::string& path, const struct stat& st) {
    if (st.st_nlink > 1) {
      const auto [it, first] = linked_.emplace(std::make_pair(st.st_dev, st.st_ino), path);
      if (!first) {
        if (linkat(root_, it->second.c_str(), to, name.c_str(), 0) != 0) fail("link " + path);
        return;
      }
    }
    const int in = open_entry(from, name.c_str(), O_RDONLY, S_IRUSR);
    const int out = openat(to, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, S_IRUSR | S_IWUSR);
    if (out < 0) {
      const int e = errno;
      close(in);
      fail("create " + path, e);
    }
    try {
      char buf[1 << 16];
      for (ssize_t n; (n = read(in, buf, sizeof buf)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail("read " + path);
        for (ssize_t done = 0; done < n;) {
          const ssize_t w = write(out, buf + done, static_cast<std::size_t>(n - done));
          if (w < 0 && errno == EINTR) continue;
          if (w < 0) fail("write " + path);
          done += w;
        }
      }
    } catch (...) {
      close(in);
      close(out);
      throw;
    }
    fchmod(out, kept_mode(st.st_mode, false));
    close(in);
    close(out);
    keep_times(to, name, st);
  }

  static void keep_times(int dir, const std::string& name, const struct stat& st) {
    const timespec times[2] = {st.st_atim, st.st_mtim};
    utimensat(dir, name.c_str(), times, AT_SYMLINK_NOFOLLOW);
  }

  int root_;
  long entries_ = 0;
  std::map<std::pair<dev_t, ino_t>, std::string> linked_;  ///< a file with several links: where it was copied first
};

/// Removes a folder's contents, folders the sample made read-only included.
void remove_contents(int dir, int depth = 0) {
  if (depth > mirror_max_depth + 1) throw mirror_error("folders nested too deep to remove", false);
  for_each_entry(dir, [&](const std::string& name) {
    struct stat st {};
    if (fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) fail("stat " + name);
    if (S_ISDIR(st.st_mode)) {
      fchmodat(dir, name.c_str(), (st.st_mode & 07777) | S_IRWXU, 0);
      const int sub = open_entry(dir, name.c_str(), O_RDONLY | O_DIRECTORY, S_IRWXU);
      try {
        remove_contents(sub, depth + 1);
      } catch (...) {
        close(sub);
        throw;
      }
      close(sub);
    }
    if (unlinkat(dir, name.c_str(), S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) != 0) fail("remove " + name);
  });
}

/// The working directory's folder, copied from or to the host's (fd 4).
void mirror(bool to_host) {
  const int here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (here < 0) fail("open the working directory");
  try {
    if (to_host) {
      remove_contents(host_folder_fd);
      tree_copy(host_folder_fd).folder(here, host_folder_fd, "", 0);
    } else {
      tree_copy(here).folder(host_folder_fd, here, "", 0);
    }
  } catch (...) {
    close(here);
    throw;
  }
  close(here);
}

bool tmpfs_full() {
  struct statvfs s {};
  return statvfs(".", &s) == 0 && static_cast<unsigned long long>(s.f_bavail) * s.f_frsize < full_margin_bytes;
}

}  // namespace

int main(int argc, char** argv) {
  const bool mirrored = argc >= 3 && std::strcmp(argv[2], "--mirror") == 0;
  const int dashes = mirrored ? 3 : 2;
  if (argc < dashes + 2 || std::strcmp(argv[dashes], "--") != 0) {
    std::fprintf(stderr, "usage: bem-sandbox-exec NPROC [--mirror] -- COMMAND [ARG...]\n");
    return 2;
  }
  char** command = argv + dashes + 1;
  const rlim_t nproc = std::strtoull(argv[1], nullptr, 10);
  const rlimit limit{nproc, nproc};
  if (setrlimit(RLIMIT_NPROC, &limit) != 0) {
    std::fprintf(stderr, "bem-sandbox-exec: setrlimit(RLIMIT_NPROC): %s\n", std::strerror(errno));
    return 125;
  }
  const bool report = fcntl(3, F_GETFD) != -1;
  if (report) fcntl(3, F_SETFD, FD_CLOEXEC);  // the command must not write our report
  bool disk_full = false;
  if (mirrored) {
    if (fcntl(host_folder_fd, F_SETFD, FD_CLOEXEC) != 0) {
      std::fprintf(stderr, "bem-sandbox-exec: --mirror without the host's folder on descriptor 4\n");
      return 125;
    }
    prctl(PR_SET_DUMPABLE, 0);  // no /proc/PID/fd/4 and no ptrace for the command
    try {
      mirror(false);
    } catch (const mirror_error& e) {
      std::fprintf(stderr, "bem-sandbox-exec: copying the worker folder in: %s\n", e.what());
      if (report && e.full) dprintf(3, "disk_full\n");
      return 125;
    }
  }
  const pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "bem-sandbox-exec: fork: %s\n", std::strerror(errno));
    return 125;
  }
  if (pid == 0) {
    execv(command[0], command);
    std::fprintf(stderr, "bem-sandbox-exec: cannot execute %s: %s\n", command[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  int code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  if (mirrored) {
    disk_full = tmpfs_full();
    try {
      mirror(true);
    } catch (const mirror_error& e) {
      // What the host keeps is then partial: the step fails.
      std::fprintf(stderr, "bem-sandbox-exec: copying the worker folder back: %s\n", e.what());
      disk_full = disk_full || e.full;
      if (code == 0) code = 125;
    }
  }
  if (report) {
    dprintf(3, "peak_rss_kib %ld\n", usage.ru_maxrss);
    if (WIFSIGNALED(status)) dprintf(3, "signal %d\n", WTERMSIG(status));
    if (disk_full) dprintf(3, "disk_full\n");
  }
  return code;
}
