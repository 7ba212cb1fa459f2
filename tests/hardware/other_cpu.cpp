// Other processes' share of the machine (bem/platform/other_cpu.hpp), on
// fixed /proc snapshots: parsing, the share, and the RESULT field.
#include <bem/platform/other_cpu.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace {
// Two readings of a 2-CPU machine 1 s apart at USER_HZ 100 (200 jiffies in
// all); guest time is inside user and must not be counted twice.
constexpr const char* stat_before =
    "cpu  1000 20 300 5000 40 5 6 7 100 0\n"
    "cpu0 500 10 150 2500 20 3 3 4 50 0\n"
    "cpu1 500 10 150 2500 20 2 3 3 50 0\n"
    "intr 12345 0 0\n";
// busy +130 (user 100, nice 0, system 20, irq 2, softirq 3, steal 5),
// idle +60, iowait +10: total +200.
constexpr const char* stat_after =
    "cpu  1100 20 320 5060 50 7 9 12 150 0\n"
    "cpu0 550 10 160 2530 25 4 4 6 75 0\n"
    "cpu1 550 10 160 2530 25 3 5 6 75 0\n";
// The command name holds a space and a ')': fields count from the last ')'.
// utime 70, stime 10, cutime 15, cstime 5 in the second reading.
constexpr const char* self_before =
    "4242 (nn bench) x) R 1 4242 4242 0 -1 4194304 100 0 0 0 20 5 0 0 20 0 3 0 99 1000000 200 18446744073709551615\n";
constexpr const char* self_after =
    "4242 (nn bench) x) R 1 4242 4242 0 -1 4194304 900 0 0 0 70 10 15 5 20 0 3 0 99 1000000 200 18446744073709551615\n";
}  // namespace

TEST_CASE("parse_proc_stat: busy and total jiffies of the aggregate cpu line") {
  const bem::cpu_jiffies j = bem::parse_proc_stat(stat_before);
  CHECK(j.busy == 1000u + 20 + 300 + 5 + 6 + 7);
  CHECK(j.total == j.busy + 5000 + 40);
  // Older kernels end the line at steal; a tab separates as well as spaces.
  const bem::cpu_jiffies short_line = bem::parse_proc_stat("cpu\t1 2 3 4 5 6 7 8\n");
  CHECK(short_line.busy == 1u + 2 + 3 + 6 + 7 + 8);
  CHECK(short_line.total == 36u);
}

TEST_CASE("parse_proc_stat names what is wrong") {
  CHECK_THROWS_WITH_AS(bem::parse_proc_stat("cpu0 1 2 3 4 5 6 7 8\n"), "/proc/stat: line 1 does not start with 'cpu'",
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(bem::parse_proc_stat("cpu 1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7 8\n"),
                       "/proc/stat: line 1 has no field steal", std::runtime_error);
  CHECK_THROWS_WITH_AS(bem::parse_proc_stat("cpu 1 2 x 4 5 6 7 8\n"),
                       "/proc/stat: field system is not a count: 'x'", std::runtime_error);
}

TEST_CASE("parse_process_stat: utime + stime + cutime + cstime after the command name") {
  CHECK(bem::parse_process_stat(self_before) == 25u);
  CHECK(bem::parse_process_stat(self_after) == 100u);
  CHECK_THROWS_WITH_AS(bem::parse_process_stat("4242 nn_bench R 1"), "/proc/self/stat: no ')' closing the command name",
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(bem::parse_process_stat("4242 (nn) R 1 4242 4242 0 -1 4194304 100 0 0 0 20 5"),
                       "/proc/self/stat: has no field 16", std::runtime_error);
}

TEST_CASE("other_cpu_share: the machine's busy time less our own, over all CPUs' time") {
  const bem::cpu_snapshot before{bem::parse_proc_stat(stat_before), bem::parse_process_stat(self_before)};
  const bem::cpu_snapshot after{bem::parse_proc_stat(stat_after), bem::parse_process_stat(self_after)};
  // (130 busy - 75 ours) / 200.
  CHECK(bem::other_cpu_share(before, after) == doctest::Approx(55.0 / 200));
  // Our ticks counted above the machine's sampled busy ticks: 0, not negative.
  bem::cpu_snapshot greedy = after;
  greedy.own = before.own + 140;
  CHECK(bem::other_cpu_share(before, greedy) == 0.0);
  // No tick passed: nothing measured.
  CHECK(std::isnan(bem::other_cpu_share(before, before)));
}

TEST_CASE("the RESULT field and the warning above 10%") {
  CHECK(bem::other_cpu_field(0.03) == "other_cpu=0.03");
  CHECK(bem::other_cpu_field(0.276) == "other_cpu=0.28");
  CHECK(bem::other_cpu_field(std::nan("")) == "other_cpu=unknown");
  CHECK(bem::other_cpu_warning(0.10).empty());
  CHECK(bem::other_cpu_warning(std::nan("")).empty());
  CHECK(bem::other_cpu_warning(0.34) ==
        "warning: other processes used 34% of the CPUs while this bench was timed: its figure is unreliable\n");
}

TEST_CASE("other_cpu_meter reads this machine's /proc") {
  const bem::other_cpu_meter meter;
  const double share = meter.share();
  // NaN only when no tick passed; otherwise a share.
  if (!std::isnan(share)) {
    CHECK(share >= 0.0);
    CHECK(share <= 1.0);
  }
}
