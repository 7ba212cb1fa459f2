#!/usr/bin/env python3
"""examples/slurm/bem-array.sh on a real Slurm: a controller and a node on
localhost with a generated configuration, the example's job array over a small
suite in 4 shards, the shards merged by `bem-bench report` and compared with a
single-process run apart from timing; then a shard killed mid-run (as by a
time limit or the OOM killer) and submitted again, which continues with
--resume without repeating its finished run.

Needs root: it installs Debian's slurm-wlm and munge with apt when missing and
runs munged, slurmctld and slurmd as root. Otherwise, or when apt cannot
install them (offline), it prints why and exits 77 (skipped). The daemons run
in a temporary directory of their own (key, sockets, state, spool, logs, free
ports), so a system Slurm is neither used nor disturbed, and they are stopped
and the directory removed at the end, failed or not.

Paths come from the environment (tests/slurm/meson.build): BEM_BENCH,
BEM_PLUGIN_DIR, BEM_SOURCE_ROOT."""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

BENCH = os.environ["BEM_BENCH"]
PLUGIN_DIR = os.environ["BEM_PLUGIN_DIR"]
SOURCE = os.environ["BEM_SOURCE_ROOT"]
ARRAY_SCRIPT = os.path.join(SOURCE, "examples", "slurm", "bem-array.sh")
sys.path.insert(0, os.path.join(SOURCE, "tests", "driver"))
from bench_records import SMALL_SUITE, records, stable  # noqa: E402

SKIP = 77
SHARDS = 4  # SMALL_SUITE's 8 runs: two per shard
PROGRAMS = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol", "scancel"]
JOB_WAIT_S = 120


def skip(reason):
    print("skipped: " + reason)
    sys.exit(SKIP)


def install_slurm():
    """Installs slurm-wlm and munge with apt unless every program is there."""
    if all(shutil.which(p) for p in PROGRAMS):
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "--no-install-recommends", "slurm-wlm", "munge"]
    r = subprocess.run(install, capture_output=True, text=True, env=env)
    if r.returncode != 0:  # the package lists may be missing or stale
        subprocess.run(["apt-get", "update"], capture_output=True, env=env)
        r = subprocess.run(install, capture_output=True, text=True, env=env)
    missing = [p for p in PROGRAMS if not shutil.which(p)]
    if r.returncode != 0 or missing:
        skip("apt-get could not install slurm-wlm and munge (exit %d; missing %s): %s"
             % (r.returncode, ", ".join(missing) or "nothing", r.stderr.strip()[-500:]))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read(path):
    with open(path) as f:
        return f.read()


class Cluster:
    """munged, slurmctld and slurmd on localhost, all under `root`."""

    def __init__(self, root):
        self.root = root
        self.daemons = []
        self.jobs = []
        self.conf = os.path.join(root, "slurm.conf")
        self.env = dict(os.environ, SLURM_CONF=self.conf)
        for k in ("SLURM_JOB_ID", "SLURM_ARRAY_JOB_ID"):  # in case meson itself runs under Slurm
            self.env.pop(k, None)

    def path(self, *names):
        return os.path.join(self.root, *names)

    def start(self):
        for d in ("munge", "state", "spool", "log"):
            os.mkdir(self.path(d), 0o700)
        key = self.path("munge", "munge.key")
        with open(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as f:
            f.write(os.urandom(1024))
        socket_path = self.path("munge", "munge.socket")
        self.spawn("munged", ["munged", "-F", "--force", "--key-file", key, "--socket", socket_path,
                              "--pid-file", self.path("munge", "munged.pid"),
                              "--log-file", self.path("log", "munged.log"),
                              "--seed-file", self.path("munge", "munged.seed")])
        self.wait_for(lambda: os.path.exists(socket_path), 20, "munged to open its socket")
        with open(self.conf, "w") as f:
            f.write(self.configuration(socket_path))
        self.spawn("slurmctld", ["slurmctld", "-D", "-i", "-f", self.conf])
        self.spawn("slurmd", ["slurmd", "-D", "-f", self.conf, "-N", "localhost"])
        self.wait_for(lambda: self.client("sinfo", "-h", "-n", "localhost", "-o", "%T", check=False) == "idle",
                      60, "the node to be idle")

    def configuration(self, munge_socket):
        # No cgroups, accounting or job completion log: proctrack/linuxproc and
        # task/none run anywhere; the node's CPUs and memory are taken as
        # written (config_overrides), so a container's odd topology cannot
        # drain it.
        return f"""\
ClusterName=bemtest
SlurmctldHost={socket.gethostname().split('.')[0]}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
AuthType=auth/munge
AuthInfo=socket={munge_socket}
CredType=cred/munge
StateSaveLocation={self.path('state')}
SlurmdSpoolDir={self.path('spool')}
SlurmctldPidFile={self.path('slurmctld.pid')}
SlurmdPidFile={self.path('slurmd.pid')}
SlurmctldLogFile={self.path('log', 'slurmctld.log')}
SlurmdLogFile={self.path('log', 'slurmd.log')}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs={os.cpu_count()} RealMemory=500 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
"""

    def spawn(self, name, argv):
        log = open(self.path("log", name + ".out"), "w")
        self.daemons.append((name, subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=self.env)))
        log.close()

    def wait_for(self, done, seconds, what):
        deadline = time.monotonic() + seconds
        while not done():
            for name, p in self.daemons:
                if p.poll() is not None:
                    raise AssertionError(f"{name} exited ({p.returncode}) while waiting for {what}")
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {seconds} s for {what}")
            time.sleep(0.2)

    def client(self, *argv, check=True):
        r = subprocess.run(argv, capture_output=True, text=True, env=self.env, timeout=60)
        if check and r.returncode != 0:
            raise AssertionError(f"{' '.join(argv)}: exit {r.returncode}: {r.stderr}")
        return r.stdout.strip()

    def submit(self, workdir, array, *script_args, env=None):
        """sbatch's the example over `array` from `workdir`; returns the job id."""
        export = "ALL" + "".join(f",{k}={v}" for k, v in (env or {}).items())
        job = self.client("sbatch", "--parsable", f"--array={array}", "--cpus-per-task=1", f"--chdir={workdir}",
                          f"--output={workdir}/slurm-%A_%a.out", f"--export={export}",
                          ARRAY_SCRIPT, *script_args)
        self.jobs.append(job)
        return job

    def wait_for_jobs(self, *jobs):
        """Waits until the jobs' tasks have ended; returns {task: (state, exit code)}."""
        self.wait_for(lambda: not self.client("squeue", "-h", "-j", ",".join(jobs), "-o", "%i", check=False),
                      JOB_WAIT_S, "jobs " + ", ".join(jobs))
        ended = {}
        for job in jobs:
            for line in self.client("scontrol", "-o", "show", "job", job).splitlines():
                fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
                ended[(job, fields["ArrayTaskId"])] = (fields["JobState"], fields["ExitCode"])
        return ended

    def logs(self):
        text = []
        for name in sorted(os.listdir(self.path("log"))):
            tail = read(self.path("log", name))[-3000:]
            text.append(f"--- {name} (end) ---\n{tail}")
        return "\n".join(text)

    def stop(self):
        if self.jobs:
            subprocess.run(["scancel", *self.jobs], capture_output=True, env=self.env)
        for name, p in reversed(self.daemons):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()


def by_identity(recs):
    """Records in an order that does not depend on which shard wrote them."""
    key = lambda x: (x["run_id"], x["split"] or "", x["metric"], json.dumps(x.get("breakdown")))
    return sorted(stable(recs), key=key)


def summaries(metrics):
    return sorted(json.dumps(e, sort_keys=True) for e in stable(metrics["summary"]))


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def test(cluster, tmp):
    work = os.path.join(tmp, "work")
    os.mkdir(work)
    suite = os.path.join(work, "suite.toml")
    with open(suite, "w") as f:
        f.write(SMALL_SUITE)
    bench_env = {"BEM_BENCH": BENCH, "BEM_PLUGIN_PATH": PLUGIN_DIR}

    def bench(*args):
        r = subprocess.run([BENCH, *args], capture_output=True, text=True, env=dict(os.environ, **bench_env),
                           timeout=300)
        check(r.returncode == 0, f"bem-bench {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
        return r

    single = os.path.join(tmp, "single")
    bench("run", suite, "--out", single)
    single_metrics = json.loads(read(os.path.join(single, "metrics.json")))
    run_ids = {x["run_id"] for x in records(single)}
    check(len(run_ids) == 8, f"the suite expands to {len(run_ids)} runs, not 8")

    def shard(i):
        return os.path.join(work, "results", f"shard-{i}")

    def merged_equals_single(name):
        out = os.path.join(tmp, name)
        bench("report", *(shard(i) for i in range(SHARDS)), "--out", out)
        merged = json.loads(read(os.path.join(out, "metrics.json")))
        check(by_identity(merged["results"]) == by_identity(records(single)),
              f"{name}: the merged records differ from a single run's apart from timing")
        check(summaries(merged) == summaries(single_metrics),
              f"{name}: the merged summaries differ from a single run's apart from timing")
        check(not merged["failures"], f"{name}: failures {merged['failures']}")

    # The whole array, as examples/slurm/bem-array.sh's header submits it.
    started = time.monotonic()
    job = cluster.submit(work, f"0-{SHARDS - 1}", suite, env=bench_env)
    ended = cluster.wait_for_jobs(job)
    check(sorted(ended) == [(job, str(i)) for i in range(SHARDS)], f"tasks {sorted(ended)}")
    check(all(v == ("COMPLETED", "0:0") for v in ended.values()), f"array tasks ended {ended}")
    for i in range(SHARDS):
        ids = {x["run_id"] for x in records(shard(i))}
        check(len(ids) == 2, f"shard {i} ran {sorted(ids)}, not 2 of the 8 runs")
    merged_equals_single("merged")
    print(f"array of {SHARDS} shards, merged and compared: {time.monotonic() - started:.1f} s")

    # Shard 1 again from nothing, killed by SIGKILL halfway through writing its
    # second run's second record; beside it, a partial array without the
    # shard count, which the script must refuse rather than run the whole suite.
    started = time.monotonic()
    first_run = records(shard(1))
    first_run = first_run[: next(i for i, x in enumerate(first_run) if x["metric"] == "run_wall_time") + 1]
    shutil.rmtree(shard(1))
    killed = cluster.submit(work, "1", suite, str(SHARDS), env=dict(bench_env, BEM_BENCH_TEST_KILL=
                                                                      "torn-record:%d" % (len(first_run) + 2)))
    refused = cluster.submit(work, "3", suite)
    ended = cluster.wait_for_jobs(killed, refused)
    check(ended[(killed, "1")][0] != "COMPLETED", f"the killed shard ended {ended[(killed, '1')]}")
    check(ended[(refused, "3")] == ("FAILED", "2:0"), f"the partial array ended {ended[(refused, '3')]}")
    check("name the shard count" in read(os.path.join(work, f"slurm-{refused}_3.out")),
          read(os.path.join(work, f"slurm-{refused}_3.out")))
    results = os.path.join(shard(1), "results.jsonl")
    lines = read(results).splitlines(True)
    check(not lines[-1].endswith("\n"), "the killed shard's last record is not torn")
    kept = lines[: len(first_run)]
    check(stable(json.loads(x) for x in kept) == stable(first_run),
          "the killed shard's finished run differs from the first array's")

    resumed = cluster.submit(work, "1", suite, str(SHARDS), env=bench_env)
    ended = cluster.wait_for_jobs(resumed)
    check(ended[(resumed, "1")] == ("COMPLETED", "0:0"), f"the resumed shard ended {ended[(resumed, '1')]}")
    log = read(os.path.join(work, f"slurm-{resumed}_1.out"))
    check("2 runs: 1 ok, 0 failed, 1 skipped" in log, "the resumed shard's log:\n" + log)
    # Not run again: the finished run's records are still the very bytes the
    # killed job wrote, timing values included.
    check(read(results).splitlines(True)[: len(kept)] == kept, "the finished run's records were rewritten")
    merged_equals_single("merged-after-resume")
    print(f"a shard killed, resumed by a second job, merged and compared: {time.monotonic() - started:.1f} s")


def main():
    if os.geteuid() != 0:
        skip("needs root, to install slurm-wlm and munge and to run munged, slurmctld and slurmd")
    started = time.monotonic()
    install_slurm()
    print(f"slurm-wlm and munge present: {time.monotonic() - started:.1f} s")
    tmp = tempfile.mkdtemp(prefix="bem-slurm-")
    cluster = Cluster(tmp)
    try:
        started = time.monotonic()
        cluster.start()
        print(f"munged, slurmctld and slurmd up, the node idle: {time.monotonic() - started:.1f} s")
        test(cluster, tmp)
    except AssertionError as e:
        print("FAIL: " + str(e))
        print(cluster.logs())
        return 1
    finally:
        cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
