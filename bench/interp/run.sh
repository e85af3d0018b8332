#!/bin/sh
# lf-run's speed: interpreter instructions per second on a CPU-level and a
# GPU-level 256^3 matmul (release build). Prints lf-run's --stats lines.
#
#   bench/interp/run.sh            # builds lf-run (release) first
#   LF_RUN=path/to/lf-run bench/interp/run.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ -z "${LF_RUN:-}" ]; then
  (cd "$root" && cargo build --release -q -p lf-tools --bin lf-run)
  LF_RUN="${CARGO_TARGET_DIR:-$root/target}/release/lf-run"
fi
echo "== CPU: matmul.mlir (@main)"
"$LF_RUN" "$here/matmul.mlir" --stats
echo "== GPU: matmul_gpu.mlir (@matmul, kernel mode, race checking)"
"$LF_RUN" "$here/matmul_gpu.mlir" --entry=matmul --random-inputs=1 --stats
