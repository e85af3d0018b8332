#!/usr/bin/env bash
# The seed-000 fusion rows of the GPU suite (issue 29, item 6; BENCHMARKS.md
# §2): fig3_chain (64M floats, B an argument: live), fig3_dead (the same chain
# with B a local allocation: dead), ll18 (4096 x 4096), stencil4_chain
# (8192 x 8192, the intermediates arguments: live) and stencil4_dead (the
# intermediates local: dead, as in the hand-written fused kernels), each as
# one kernel per nest (slk) and through fuse-halo-gpu
# (fused), in the same GPU call as the hand-written references of
# ../shared/anchors-gpu (fig3, ll18 and stencil only).
#
# A thin wrapper: bench/gpu/polybench.sh does the work with these settings,
# in bench/gpu/.fusion/ (prepared) and bench/gpu/.refs/ (anchors); the report
# is bench/gpu/fusion_report.py, the section of RESULTS.md is marked fusion.
#
#   bench/gpu/fusion.sh prepare       here (cargo): pipelines, CUDA, reduced-size checks
#   bench/gpu/fusion.sh build-check   here, no GPU: every harness and program builds
#   bench/gpu/fusion.sh run           on the GPU machine (carry bench/gpu/.fusion, bench/gpu/.refs)
#   bench/gpu/fusion.sh record DIR    here: fusion.md into RESULTS.md
#
# Every variable of polybench.sh applies; the defaults here:
#   WORKLOADS            fig3_chain fig3_dead ll18 stencil4_chain stencil4_dead
#   VARIANTS             slk fused (slk is the baseline)
#   PIPELINE_fused       builtin.module(fuse-halo-gpu)
#   PIPELINE_slk         1-D: one kernel per nest, thread per element, 256 threads
#   PIPELINE_slk_ll18, PIPELINE_slk_stencil4_chain, PIPELINE_slk_stencil4_dead
#                        2-D: the inner (contiguous) loop on x, 32x16 blocks
#   RUNS=5 KRUNS=15      the kernels' time (the compared number) is the median
#                        of 15 instrumented calls; the whole call (copies of
#                        every array both ways) of 5
#   CPU_RUNS=1           the CPU build is the reference of the checks, not timed
#   SAN_TOOLS="memcheck racecheck" SAN_VARIANTS=fused
#   ANCHOR_PROGS="fig3 ll18 stencil" DEADLINE_S=290
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
export SUITE=fusion
export WORKLOADS=${WORKLOADS:-fig3_chain fig3_dead ll18 stencil4_chain stencil4_dead}
export VARIANTS=${VARIANTS:-slk fused}
slk() { # block sizes, mapping -> one kernel per nest
  echo "builtin.module(func.func(gpu-map-loops{mapping=$2 block-sizes=$1},gpu-host-data-placement),gpu-kernel-outlining)"
}
# (not ${X:=...}: a '}' in the default would end the expansion)
[ -n "${PIPELINE_fused:-}" ] || PIPELINE_fused='builtin.module(fuse-halo-gpu)'
[ -n "${PIPELINE_slk:-}" ] || PIPELINE_slk=$(slk 256,1 identity)
# 2-D: identity would put the outer (row) loop on x, uncoalesced; the
# hand-written slk kernels and the fused kernels put the inner loop on x
[ -n "${PIPELINE_slk_ll18:-}" ] || PIPELINE_slk_ll18=$(slk 32,16 1,0)
[ -n "${PIPELINE_slk_stencil4_chain:-}" ] || PIPELINE_slk_stencil4_chain=$(slk 32,16 1,0)
[ -n "${PIPELINE_slk_stencil4_dead:-}" ] || PIPELINE_slk_stencil4_dead=$(slk 32,16 1,0)
export PIPELINE_fused PIPELINE_slk PIPELINE_slk_ll18 PIPELINE_slk_stencil4_chain PIPELINE_slk_stencil4_dead
export RUNS=${RUNS:-5} KRUNS=${KRUNS:-15} CPU_RUNS=${CPU_RUNS:-1}
export SAN_TOOLS=${SAN_TOOLS:-memcheck racecheck} SAN_VARIANTS=${SAN_VARIANTS:-fused}
export ANCHOR_PROGS=${ANCHOR_PROGS:-fig3 ll18 stencil} DEADLINE_S=${DEADLINE_S:-290}
case "${1:-}" in
  prepare | run | build-check | record) exec bash "$HERE/polybench.sh" "$@" ;;
  *) sed -n '2,/^set -u/p' "$0" | sed '$d'; exit 2 ;;
esac
