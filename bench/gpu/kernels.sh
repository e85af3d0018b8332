#!/usr/bin/env bash
# The seed-004 kernel-optimizer rows of the GPU suite (issue 30, item 9;
# BENCHMARKS.md §2): matmul 4096^3, matvec 16384^2, transpose 8192^2, a
# complex-scale kernel (32M complex numbers, float2) and the fig3 chain (64M
# floats) fused with float4, each as the naive kernel of gpu-map-loops and
# after each step of the pipeline, in the same GPU call as the hand-written
# references of ../shared/anchors-gpu (roofline, matmul, matvec, transpose,
# fig3).
#
# A thin wrapper: bench/gpu/polybench.sh does the work with these settings,
# in bench/gpu/.kernels/ (prepared) and bench/gpu/.refs/ (anchors); the
# report is bench/gpu/kernels_report.py, the section of RESULTS.md is marked
# kernels.
#
#   bench/gpu/kernels.sh prepare       here (cargo): pipelines, CUDA, reduced-size checks
#   bench/gpu/kernels.sh build-check   here, no GPU: every harness and program builds
#   bench/gpu/kernels.sh run           on the GPU machine (carry bench/gpu/.kernels, bench/gpu/.refs)
#   bench/gpu/kernels.sh record DIR    here: kernels.md into RESULTS.md
#
# Every variable of polybench.sh applies; the defaults here:
#   WORKLOADS      matmul matvec transpose complex_scale fig3_dead
#   VARIANTS       naive coal merge prefetch tile opt split (cumulative seed steps; naive is the baseline);
#                  a step that does not apply to a workload leaves its kernel unchanged
#   PIPELINE_naive gpu-map-loops (cost model: matmul j on x, i on y) + placement + outlining
#   PIPELINE_coal  + coalesce-via-shared
#   PIPELINE_merge + gpu-merge-policy
#   PIPELINE_prefetch + prefetch
#   PIPELINE_tile  gpu-block-tile alone (lf's step: square block, register tile, shared operands)
#   PIPELINE_opt   gpu-optimize-kernels (the whole sequence)
#   PIPELINE_split gpu-split-reduction{reassociate-float=true chunk=4 lanes=128} and
#                  vectorize-access{width=4} before gpu-optimize-kernels (lf's step for
#                  kernels with few threads that each reduce: matvec; declines elsewhere)
#   per workload:  transpose: merge = + diagonal-reorder; complex_scale: coal =
#                  + vectorize-access{width=2}; fig3_dead: naive = one kernel per nest,
#                  coal = affine-fusion-with-halo (fused), merge = fused with
#                  vector-width=4 + vectorize-access{width=4} (float4), prefetch, tile, opt
#                  and split = their steps after the float4 one
#   RUNS=5 KRUNS=15 CPU_RUNS=1 SAN_TOOLS="memcheck racecheck" SAN_VARIANTS="opt"
#   ANCHOR_PROGS="roofline matmul matvec transpose fig3" DEADLINE_S=560
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
export SUITE=kernels
export WORKLOADS=${WORKLOADS:-matmul matvec transpose complex_scale fig3_dead}
export VARIANTS=${VARIANTS:-naive coal merge prefetch tile opt split}
steps() { # the passes after gpu-map-loops -> the whole pipeline
  echo "builtin.module(func.func(gpu-map-loops${1:+,$1},gpu-host-data-placement,canonicalize,cse),gpu-kernel-outlining)"
}
fused() { # passes after the fusion [, the fusion's options] -> fig3's pipeline
  echo "builtin.module(func.func(affine-loop-normalize,canonicalize,affine-loop-distribute{mode=one-statement},affine-fusion-with-halo${2:+{$2\}},swap-array-alloc${1:+,$1},gpu-map-loops,gpu-host-data-placement,canonicalize,cse),gpu-kernel-outlining)"
}
# (not ${X:=...}: a '}' in the default would end the expansion)
[ -n "${PIPELINE_naive:-}" ] || PIPELINE_naive=$(steps "")
[ -n "${PIPELINE_coal:-}" ] || PIPELINE_coal=$(steps "coalesce-via-shared")
[ -n "${PIPELINE_merge:-}" ] || PIPELINE_merge=$(steps "coalesce-via-shared,gpu-merge-policy")
[ -n "${PIPELINE_prefetch:-}" ] || PIPELINE_prefetch=$(steps "coalesce-via-shared,gpu-merge-policy,prefetch")
[ -n "${PIPELINE_tile:-}" ] || PIPELINE_tile=$(steps "gpu-block-tile")
[ -n "${PIPELINE_opt:-}" ] || PIPELINE_opt=$(steps "gpu-optimize-kernels")
[ -n "${PIPELINE_split:-}" ] || PIPELINE_split=$(steps "gpu-split-reduction{reassociate-float=true chunk=4 lanes=128},vectorize-access{width=4},gpu-optimize-kernels")
[ -n "${PIPELINE_merge_transpose:-}" ] || PIPELINE_merge_transpose=$(steps "coalesce-via-shared,gpu-merge-policy,diagonal-reorder")
[ -n "${PIPELINE_prefetch_transpose:-}" ] || PIPELINE_prefetch_transpose=$(steps "coalesce-via-shared,gpu-merge-policy,diagonal-reorder,prefetch")
[ -n "${PIPELINE_coal_complex_scale:-}" ] || PIPELINE_coal_complex_scale=$(steps "vectorize-access{width=2},coalesce-via-shared")
# fig3: naive = one kernel per nest (BENCHMARKS.md's naive), coal = fused (the
# fusion step), merge = fused with groups of 4 iterations per thread and float4
# accesses, then the later steps on that kernel
F4_STEP="vectorize-access{width=4}"
[ -n "${PIPELINE_coal_fig3_dead:-}" ] || PIPELINE_coal_fig3_dead=$(fused "")
[ -n "${PIPELINE_merge_fig3_dead:-}" ] || PIPELINE_merge_fig3_dead=$(fused "$F4_STEP" "vector-width=4")
[ -n "${PIPELINE_prefetch_fig3_dead:-}" ] || PIPELINE_prefetch_fig3_dead=$(fused "$F4_STEP,prefetch" "vector-width=4")
[ -n "${PIPELINE_tile_fig3_dead:-}" ] || PIPELINE_tile_fig3_dead=$(fused "$F4_STEP,gpu-block-tile" "vector-width=4")
[ -n "${PIPELINE_opt_fig3_dead:-}" ] || PIPELINE_opt_fig3_dead=$(fused "$F4_STEP,gpu-optimize-kernels" "vector-width=4")
[ -n "${PIPELINE_split_fig3_dead:-}" ] || PIPELINE_split_fig3_dead=$(fused "gpu-split-reduction{reassociate-float=true chunk=4 lanes=128},$F4_STEP,gpu-optimize-kernels" "vector-width=4")
export PIPELINE_naive PIPELINE_coal PIPELINE_merge PIPELINE_prefetch PIPELINE_tile PIPELINE_opt PIPELINE_split PIPELINE_merge_transpose \
  PIPELINE_prefetch_transpose PIPELINE_coal_complex_scale PIPELINE_coal_fig3_dead PIPELINE_merge_fig3_dead \
  PIPELINE_prefetch_fig3_dead PIPELINE_tile_fig3_dead PIPELINE_opt_fig3_dead PIPELINE_split_fig3_dead
export RUNS=${RUNS:-5} KRUNS=${KRUNS:-15} CPU_RUNS=${CPU_RUNS:-1}
export SAN_TOOLS=${SAN_TOOLS:-memcheck racecheck} SAN_VARIANTS=${SAN_VARIANTS:-opt}
export ANCHOR_PROGS=${ANCHOR_PROGS:-roofline matmul matvec transpose fig3} DEADLINE_S=${DEADLINE_S:-560}
case "${1:-}" in
  prepare | run | build-check | record) exec bash "$HERE/polybench.sh" "$@" ;;
  *) sed -n '2,/^set -u/p' "$0" | sed '$d'; exit 2 ;;
esac
