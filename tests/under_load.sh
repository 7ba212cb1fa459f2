#!/usr/bin/env bash
# tests/under_load.sh [N] [-- MESON_TEST_ARGS...]
# Runs `meson test` N times (default 10) while `stress-ng --cpu 2` keeps two
# cores busy: no test may depend on a quiet machine (timings belong in
# bench/). The build is used as it is (--no-rebuild): build first.
# Arguments after -- go to meson test, e.g. `-- --suite hardware --suite rust`.
# Prints each run's result and time, then "P of N runs passed"; exit status 0
# when every run passed, 1 when one failed (its log is kept, named in the
# output), 2 on usage errors or without stress-ng. BEM_BUILD_DIR names the
# build folder (default: build).
set -uo pipefail
build=${BEM_BUILD_DIR:-build}
runs=10
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  runs=$1
  shift
fi
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: tests/under_load.sh [N] [-- MESON_TEST_ARGS...]" >&2
  exit 2
fi
[ "${1:-}" = "--" ] && shift
if ! command -v stress-ng > /dev/null; then
  echo "tests/under_load.sh: stress-ng not found (Debian: apt-get install stress-ng)" >&2
  exit 2
fi
if [ ! -f "$build/build.ninja" ]; then
  echo "tests/under_load.sh: no meson build in '$build' (set BEM_BUILD_DIR)" >&2
  exit 2
fi

stress-ng --cpu 2 --timeout 0 --quiet &
stress_pid=$!
# stress-ng ends its workers when it gets SIGTERM.
stop_stress() {
  kill -TERM "$stress_pid" 2> /dev/null
  wait "$stress_pid" 2> /dev/null
}
trap stop_stress EXIT
trap 'exit 130' INT TERM
sleep 1
if ! kill -0 "$stress_pid" 2> /dev/null; then
  echo "tests/under_load.sh: stress-ng did not start" >&2
  exit 2
fi

passed=0
for ((i = 1; i <= runs; i++)); do
  start=$(date +%s)
  meson test -C "$build" --no-rebuild --print-errorlogs "$@" > "$build/meson-logs/under_load_run.txt" 2>&1
  status=$?
  seconds=$(($(date +%s) - start))
  summary=$(grep -E '^(Ok|Fail|Timeout|Skipped|Expected Fail|Unexpected Pass):' "$build/meson-logs/under_load_run.txt" |
    tr -s ' ' | paste -sd ' ' -)
  # A selection that matches no test is an error, not a pass.
  [ -z "$summary" ] && status=1
  if [ $status -eq 0 ]; then
    passed=$((passed + 1))
    echo "run $i of $runs: passed in ${seconds} s ($summary)"
  else
    kept="$build/meson-logs/under_load_failed_$i.txt"
    cp "$build/meson-logs/under_load_run.txt" "$kept"
    cp "$build/meson-logs/testlog.txt" "$build/meson-logs/under_load_failed_${i}_testlog.txt" 2> /dev/null
    echo "run $i of $runs: FAILED in ${seconds} s ($summary); log: $kept"
    grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT|ERROR)' "$kept" | sed 's/^/    /'
  fi
done
echo "$passed of $runs runs passed under stress-ng --cpu 2"
[ "$passed" -eq "$runs" ]
