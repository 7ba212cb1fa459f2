#!/usr/bin/env bash
# bench/rust: throughput of judging benchmarks_v1's reference answers.
# Ours: bem-bench with the rust_cargo plugin (bubblewrap sandbox, one worker
# per core, `cargo build --tests` then `cargo test`: the crate compiles once).
# Peer: the public harness's pipeline (naive_pipeline.py): a fresh folder per
# task, `cargo build` then `cargo test`, one after another, unconfined.
# Both must give every task the same verdict. Options after --:
#   --tasks GLOB   only matching task ids (default: all)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${BEM_BUILD_DIR:-$here/../../build}
root=$(cd "$here/../.." && pwd)
bench=$build/examples/bem-bench/bem-bench
if [ ! -x "$bench" ] || [ ! -f "$build/plugins/bem_rust_cargo.so" ]; then
  echo "RESULT name=rust failed=bem-bench or the rust_cargo plugin not built in $build"; exit 1
fi
command -v cargo >/dev/null || { echo "RESULT name=rust skipped=no cargo on PATH"; exit 0; }
glob="*"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  [ "${args[$i]}" = "--tasks" ] && glob=${args[$((i + 1))]}
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/suite.toml" <<TOML
name = "rust-bench"
[[run]]
task = "rust_cargo"
model = "oracle"
seeds = [1]
[run.params]
samples = 1
greedy = false
tasks = ["$glob"]
TOML
# Other processes' share of the machine while ours runs: this shell's
# counters, bem-bench being its waited-for child (bench/other_cpu.py).
cpu_before=$(python3 "$here/../other_cpu.py" snapshot $$)
start=$(date +%s%N)
"$bench" run "$tmp/suite.toml" --out "$tmp/ours" > "$tmp/ours.log" 2>&1 || { cat "$tmp/ours.log"; exit 1; }
end=$(date +%s%N)
cpu_after=$(python3 "$here/../other_cpu.py" snapshot $$)
ours=$(( (end - start) / 1000000 ))e-3
python3 "$here/naive_pipeline.py" --dataset "$root/plugins/rust_cargo/benchmarks_v1" --tasks "$glob" \
  --ours "$tmp/ours" --ours-seconds "$ours" --ours-cpu "$cpu_before" "$cpu_after"
