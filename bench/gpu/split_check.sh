#!/usr/bin/env bash
# gpu-split-reduction on the GPU at a size where it applies (the reduced-size
# drivers of examples/run are too short for 32 lanes): examples/run/matvec.mlir
# scaled to 8x256, through the split pipelines of the matvec rows
# (bench/gpu/RESULTS.md), emitted as CUDA; on the GPU the programs must print
# mlir-runner's output of the original, and compute-sanitizer memcheck and
# racecheck must report nothing.
#
#   bench/gpu/split_check.sh prepare   here: lf-opt, lf-run, mlir-runner, lf-translate
#   bench/gpu/split_check.sh run       on the GPU machine (carry bench/gpu/.split)
set -eu
cd "$(dirname "$0")/../.."
D=bench/gpu/.split
case "${1:-}" in
  prepare)
    rm -rf "$D" && mkdir -p "$D"
    sed 's/6x10/8x256/g; s/memref<10xf32>/memref<256xf32>/g; s/memref<6xf32>/memref<8xf32>/g; s/0 to 10 /0 to 256 /g; s/0 to 6 /0 to 8 /g' \
      examples/run/matvec.mlir > "$D/mv8x256.mlir"
    cp examples/run/run.sh "$D/"
    bash "$D/run.sh" -o "$PWD/$D/out" mv8x256 > /dev/null
    L=target/release
    for v in "split:gpu-split-reduction{reassociate-float=true},gpu-optimize-kernels" \
             "splitv:gpu-split-reduction{reassociate-float=true chunk=4},vectorize-access{width=4},gpu-optimize-kernels" \
             "split128:gpu-split-reduction{reassociate-float=true chunk=4 lanes=128},vectorize-access{width=4},gpu-optimize-kernels"; do
      n=${v%%:*}
      $L/lf-opt "$D/mv8x256.mlir" --verify-semantics -o "$D/$n.mlir" 2> "$D/$n.remarks" \
        --pass-pipeline="builtin.module(func.func(gpu-map-loops,${v#*:},gpu-host-data-placement,canonicalize,cse),gpu-kernel-outlining)"
      grep -q "reduction split" "$D/$n.remarks" || { echo "FAIL $n: not split"; exit 1; }
      $L/lf-run "$D/$n.mlir" | sed 's/base@ = 0x[0-9a-f]*/base@ = 0x0/' | cmp -s - "$D/out/mv8x256.out" ||
        { echo "FAIL $n: lf-run differs from mlir-runner"; exit 1; }
      $L/lf-translate "$D/$n.mlir" --target=cuda -o "$D/$n.cu"
      echo "ok   $n: split, lf-run prints mlir-runner's output"
    done ;;
  run)
    cd "$D"
    for n in split splitv split128; do
      nvcc -O3 -arch=sm_90 -o "$n" "$n.cu"
      if ./"$n" | sed 's/base@ = 0x[0-9a-f]*/base@ = 0x0/' | cmp -s - out/mv8x256.out; then r=same; else r=DIFFERENT; fi
      m=$(compute-sanitizer --tool memcheck ./"$n" 2>&1 | grep -E 'ERROR SUMMARY' || true)
      c=$(compute-sanitizer --tool racecheck ./"$n" 2>&1 | grep -E 'RACECHECK SUMMARY' || true)
      echo "SPLIT|$n|$r|$m|$c"
    done ;;
  *) sed -n '2,/^set -eu/p' "$0" | sed '$d'; exit 2 ;;
esac
