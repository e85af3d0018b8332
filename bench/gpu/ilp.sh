#!/usr/bin/env bash
# gpu-merge-policy's rule 4 (a kernel without loops thread-merged by ilp-factor) on straight-line
# kernels: bench/gpu/ilp_drivers.mlir (an elementwise kernel and a 3-point row stencil with bound
# guards, 4096x4096 floats, 5 calls each) through gpu-optimize-kernels' steps with
# ilp-factor=0 (rule off), 4 (the default) and 8, as CUDA with per-launch timing.
#
#   bash bench/gpu/ilp.sh prepare   here (lf-opt, lf-translate): bench/gpu/.ilp/ilp{0,4,8}.cu
#   bash bench/gpu/ilp.sh run       on the GPU machine (carry bench/gpu/.ilp): builds, runs each
#                                   variant 3 times, checks that the checksums agree and prints the
#                                   median launch time per kernel and variant
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUTD=$HERE/.ilp
FACTORS="0 4 8"
case "${1:-}" in
  prepare)
    BIN=${LF_BIN:-$HERE/../../target/release}
    mkdir -p "$OUTD"
    for f in $FACTORS; do
      pipeline="builtin.module(func.func(gpu-map-loops,vectorize-access,coalesce-via-shared,gpu-merge-policy{ilp-factor=$f},prefetch,gpu-partition-camping,gpu-host-data-placement,canonicalize,cse),gpu-kernel-outlining)"
      "$BIN/lf-opt" "$HERE/ilp_drivers.mlir" --pass-pipeline="$pipeline" -o "$OUTD/ilp$f.mlir" 2> "$OUTD/ilp$f.remarks" || exit 1
      "$BIN/lf-translate" --target=cuda --profile-launches "$OUTD/ilp$f.mlir" -o "$OUTD/ilp$f.cu" || exit 1
      echo "ilp-factor=$f: $(grep -c 'thread merge by' "$OUTD/ilp$f.remarks") kernel(s) merged by rule 4"
    done ;;
  run)
    [ -d "$OUTD" ] || { echo "no bench/gpu/.ilp: run 'ilp.sh prepare' first and carry it" >&2; exit 1; }
    cd "$OUTD" || exit 1
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    for f in $FACTORS; do nvcc -O3 -arch=sm_90 -o "ilp$f" "ilp$f.cu" || exit 1; done
    for r in 1 2 3; do
      for f in $FACTORS; do
        "./ilp$f" > "out$f.$r.txt" 2> "prof$f.$r.txt" || { echo "ilp$f run $r failed"; exit 1; }
      done
    done
    sums=$(cat out*.txt | sort -u | wc -l)
    echo "checksums: $(cat out0.1.txt) ($sums distinct over all runs; 1 expected)"
    python3 - $FACTORS <<'PY'
import glob, re, statistics, sys
print("| kernel | " + " | ".join(f"ilp-factor={f} ms" for f in sys.argv[1:]) + " |")
print("|---|" + "---:|" * len(sys.argv[1:]))
times = {}
for f in sys.argv[1:]:
    for path in glob.glob(f"prof{f}.*.txt"):
        for kernel, ms in re.findall(r"lf-profile: launch (\S+) ms=([0-9.]+)", open(path).read()):
            times.setdefault(kernel, {}).setdefault(f, []).append(float(ms))
for kernel in sorted(times):
    print(f"| {kernel} | " + " | ".join(f"{statistics.median(times[kernel].get(f, [0])):.4f}" for f in sys.argv[1:]) + " |")
PY
    ;;
  *) sed -n '2,/^set -u/p' "$0" | sed '$d'; exit 2 ;;
esac
