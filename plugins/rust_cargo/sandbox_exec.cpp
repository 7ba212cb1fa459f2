// bem-sandbox-exec: the first process inside the sandbox.
//
//     bem-sandbox-exec NPROC -- COMMAND [ARG...]
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
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 4 || std::strcmp(argv[2], "--") != 0) {
    std::fprintf(stderr, "usage: bem-sandbox-exec NPROC -- COMMAND [ARG...]\n");
    return 2;
  }
  const rlim_t nproc = std::strtoull(argv[1], nullptr, 10);
  const rlimit limit{nproc, nproc};
  if (setrlimit(RLIMIT_NPROC, &limit) != 0) {
    std::fprintf(stderr, "bem-sandbox-exec: setrlimit(RLIMIT_NPROC): %s\n", std::strerror(errno));
    return 125;
  }
  const bool report = fcntl(3, F_GETFD) != -1;
  if (report) fcntl(3, F_SETFD, FD_CLOEXEC);  // the command must not write our report
  const pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "bem-sandbox-exec: fork: %s\n", std::strerror(errno));
    return 125;
  }
  if (pid == 0) {
    execv(argv[3], argv + 3);
    std::fprintf(stderr, "bem-sandbox-exec: cannot execute %s: %s\n", argv[3], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  if (report) {
    dprintf(3, "peak_rss_kib %ld\n", usage.ru_maxrss);
    if (WIFSIGNALED(status)) dprintf(3, "signal %d\n", WTERMSIG(status));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}
