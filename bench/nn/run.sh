#!/usr/bin/env bash
# bench/nn: bem::nn vs PyTorch training throughput, E88-1L and Mamba2-4L,
# B = 256, T = 256, one warm-up step then the median of 5 timed steps on each
# side (override: bench/run nn -- --batch B --length T --warmup W --steps N).
# Our side is nn_bench_native (-march=native, as PyTorch dispatches to AVX2/
# AVX-512 at run time); the peer is Debian's python3-torch on 2 threads with
# OpenBLAS and tcmalloc (REFERENCE.md section 4: the fair set-up).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${BEM_BUILD_DIR:-$here/../../build}
exe=$build/bench/nn/nn_bench_native
[ -x "$exe" ] || exe=$build/bench/nn/nn_bench
if [ ! -x "$exe" ]; then echo "RESULT name=nn failed=nn_bench not built in $build"; exit 1; fi
py=/usr/bin/python3
if ! "$py" -c 'import torch' 2>/dev/null; then
  "$exe" "$@" || { echo "RESULT name=nn failed=nn_bench exited with an error"; exit 1; }
  echo "RESULT name=nn skipped=python3-torch not installed (apt-get install python3-torch)"
  exit 0
fi
batch=256 length=256 warmup=1 steps=5
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --batch) batch=${args[$((i + 1))]} ;;
    --length) length=${args[$((i + 1))]} ;;
    --warmup) warmup=${args[$((i + 1))]} ;;
    --steps) steps=${args[$((i + 1))]} ;;
  esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "config batch=$batch length=$length warmup=$warmup steps=$steps" > "$tmp/ours.txt"
"$exe" --out "$tmp" --batch "$batch" --length "$length" --warmup "$warmup" --steps "$steps" "$@" >> "$tmp/ours.txt" || exit 1
preload=""
[ -f /usr/lib/x86_64-linux-gnu/libtcmalloc.so.4 ] && preload=/usr/lib/x86_64-linux-gnu/libtcmalloc.so.4
blas=/usr/lib/x86_64-linux-gnu/openblas-pthread
LD_PRELOAD=$preload LD_LIBRARY_PATH=$blas${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} OMP_NUM_THREADS=2 \
  "$py" "$here/torch_peer.py" "$tmp" "$tmp/ours.txt"
