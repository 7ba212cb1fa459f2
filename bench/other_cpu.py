"""The share of the machine other processes used while a Python peer was
timed: the measurement of include/bem/platform/other_cpu.hpp, for the
benches' Python sides (see that header for the definition).

    meter = OtherCpuMeter()      # at the start of the timed part
    ...
    share = meter.share()        # NaN where /proc cannot be read
    print(warning(share), end="")
    print(f"RESULT name=... ratio=... goal=... {field(share)}")

A shell script measures a program it runs through its own shell's counters
(its waited-for children are in cutime and cstime):

    before=$(python3 bench/other_cpu.py snapshot $$)
    ...
    after=$(python3 bench/other_cpu.py snapshot $$)

and parse_snapshot() reads each line back ("busy total own", in ticks).
"""
import math

UNRELIABLE_ABOVE = 0.10
_STAT_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def parse_proc_stat(text):
    """(busy, total) jiffies from /proc/stat's aggregate cpu line."""
    tokens = text.split("\n", 1)[0].split()
    if not tokens or tokens[0] != "cpu":
        raise ValueError("/proc/stat: line 1 does not start with 'cpu'")
    if len(tokens) < 1 + len(_STAT_FIELDS):
        raise ValueError(f"/proc/stat: line 1 has no field {_STAT_FIELDS[len(tokens) - 1]}")
    v = dict(zip(_STAT_FIELDS, (int(t) for t in tokens[1:1 + len(_STAT_FIELDS)])))
    busy = v["user"] + v["nice"] + v["system"] + v["irq"] + v["softirq"] + v["steal"]
    return busy, busy + v["idle"] + v["iowait"]


def parse_process_stat(text):
    """utime + stime + cutime + cstime (fields 14-17) of /proc/PID/stat."""
    fields = text[text.rindex(")") + 1:].split()  # fields 3 onwards
    if len(fields) < 15:
        raise ValueError(f"/proc/self/stat: has no field {len(fields) + 3}")
    return sum(int(f) for f in fields[11:15])


def snapshot(pid="self"):
    try:
        with open("/proc/stat") as s, open(f"/proc/{pid}/stat") as p:
            return parse_proc_stat(s.read()), parse_process_stat(p.read())
    except OSError:
        return None


def parse_snapshot(line):
    """A `snapshot PID` line back into a snapshot (None for "unknown")."""
    if line.strip() == "unknown":
        return None
    busy, total, own = (int(f) for f in line.split())
    return (busy, total), own


def share_between(before, after):
    if before is None or after is None:
        return math.nan
    (busy0, total0), own0 = before
    (busy1, total1), own1 = after
    if total1 <= total0:
        return math.nan
    return min(1.0, max(0.0, ((busy1 - busy0) - (own1 - own0)) / (total1 - total0)))


class OtherCpuMeter:
    def __init__(self):
        self.restart()

    def restart(self):
        self.start = snapshot()

    def share(self):
        return share_between(self.start, snapshot())


def field(share):
    return "other_cpu=unknown" if math.isnan(share) else f"other_cpu={share:.2f}"


def warning(share):
    if math.isnan(share) or share <= UNRELIABLE_ABOVE:
        return ""
    return (f"warning: other processes used {100 * share:.0f}% of the CPUs while this bench was timed: "
            "its figure is unreliable\n")


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 3 or sys.argv[1] != "snapshot":
        sys.exit("usage: other_cpu.py snapshot PID")
    snap = snapshot(sys.argv[2])
    print("unknown" if snap is None else f"{snap[0][0]} {snap[0][1]} {snap[1]}")
