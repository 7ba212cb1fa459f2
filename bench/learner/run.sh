#!/usr/bin/env bash
# bench/learner: the learning BEM in evaluation mode vs PyTorch E88-1L
# inference, TXC and parity at T = 256, B = 256 (override: bench/run learner --
# --batch B --length T). Our side: one thread. The peer: Debian's
# python3-torch, forward only under no_grad, 2 threads, OpenBLAS and tcmalloc
# (the fair set-up of bench/nn). RESULT ratio = the smaller of the two tasks'
# BEM tokens/s over PyTorch tokens/s, goal 100; the bench fails when the
# BEM's accuracy on either batch is below 0.999.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${BEM_BUILD_DIR:-$here/../../build}
exe=$build/bench/learner/learner_bench
if [ ! -x "$exe" ]; then echo "RESULT name=learner failed=learner_bench not built in $build"; exit 1; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
if ! "$py" -c 'import torch' 2>/dev/null; then
  "$exe" "$@" || { echo "RESULT name=learner failed=learner_bench exited with an error"; exit 1; }
  echo "RESULT name=learner skipped=python3-torch not installed (apt-get install python3-torch)"
  exit 0
fi
"$exe" --out "$tmp" "$@" | tee "$tmp/ours.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
preload=""
[ -f /usr/lib/x86_64-linux-gnu/libtcmalloc.so.4 ] && preload=/usr/lib/x86_64-linux-gnu/libtcmalloc.so.4
blas=/usr/lib/x86_64-linux-gnu/openblas-pthread
LD_PRELOAD=$preload LD_LIBRARY_PATH=$blas${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} OMP_NUM_THREADS=2 \
  "$py" "$here/torch_inference.py" "$tmp" "$tmp/ours.txt"
