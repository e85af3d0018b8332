#!/usr/bin/env bash
# The seed-001 SYN-LM rows of the GPU suite (issue 31, item 6; BENCHMARKS.md
# §2, row "divergent nest, SYN-LM"): 1M threads, outer 1000, inner trip counts
# uniform on [20-VAR, 20+VAR] for VAR = 0, 5, 10, bodies of 4 and 32 FMAs
# (examples/gen.py syn_lm_f<FMAS>_var<VAR> large), through gpu-map-loops
# without and with loop-merge, in the same GPU call as the hand-written
# SYN-LM kernels of ../shared/anchors-gpu (synlm: nested, nested_nounroll,
# merged (miscompiled by ptxas), merged_dv, merged_sel).
#
# A thin wrapper: bench/gpu/polybench.sh does the work with these settings,
# in bench/gpu/.loopmerge/ (prepared) and bench/gpu/.refs/ (anchors); the
# report is bench/gpu/loopmerge_report.py, the section of RESULTS.md is marked
# loopmerge.
#
#   bench/gpu/loopmerge.sh prepare       here (cargo): pipelines, CUDA, reduced-size checks
#   bench/gpu/loopmerge.sh build-check   here, no GPU: every harness and program builds
#   bench/gpu/loopmerge.sh run           on the GPU machine (carry bench/gpu/.loopmerge, bench/gpu/.refs)
#   bench/gpu/loopmerge.sh record DIR    here: loopmerge.md into RESULTS.md
#
# Every variable of polybench.sh applies; the defaults here:
#   WORKLOADS      syn_lm_f4_var0 syn_lm_f4_var5 syn_lm_f4_var10 syn_lm_f32_var0 syn_lm_f32_var5 syn_lm_f32_var10
#   VARIANTS       naive merged auto unroll1 select branch prefetch sunk (naive is the baseline and the reference
#                  every other variant's full-size result must equal, bit for bit)
#   PIPELINE_naive gpu-map-loops (cost model) + gpu-host-data-placement + outlining: nested loops
#   PIPELINE_merged  + loop-merge{depth=1} after the placement (the default: the rotated form,
#                    up to 4 inner iterations per trip)
#   PIPELINE_auto    + loop-merge{depth=1 auto=true} after the placement
#   PIPELINE_unroll1 + loop-merge{depth=1 unroll=1}: the rotated form, one inner iteration per trip
#   PIPELINE_select  + loop-merge{depth=1 form=select}: an inner iteration or a transition per trip
#   PIPELINE_branch  + loop-merge{depth=1 form=branch}: the textbook form, which
#                    ptxas 13.x may miscompile (then its row says FAIL)
#   PIPELINE_prefetch + loop-merge{depth=1 prefetch=true}: the rotated form, the next
#                    trip count loaded one outer iteration ahead
#   PIPELINE_sunk    naive + gpu-launch-sink-index-computations before outlining
#                    (every constant in the kernel: what sinking alone gives the nest;
#                    loop-merge clones the constants its loop reads into the kernel itself)
#   SKIP_FAILED=1  a variant whose pipeline fails at prepare (loop-merge not
#                  there yet) is skipped with a SKIP line, not a failure
#   CPU=0          no CPU build (one core would take minutes per workload)
#   RUNS=3 KRUNS=21 SAN_TOOLS=memcheck SAN_VARIANTS="merged auto"
#   ANCHOR_PROGS=synlm DEADLINE_S=480
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
export SUITE=loopmerge
export WORKLOADS=${WORKLOADS:-syn_lm_f4_var0 syn_lm_f4_var5 syn_lm_f4_var10 syn_lm_f32_var0 syn_lm_f32_var5 syn_lm_f32_var10}
export VARIANTS=${VARIANTS:-naive merged auto unroll1 select branch prefetch sunk}
steps() { # the passes after the placement -> the whole pipeline
  echo "builtin.module(func.func(gpu-map-loops,gpu-host-data-placement${1:+,$1}),gpu-kernel-outlining)"
}
# (not ${X:=...}: a '}' in the default would end the expansion)
[ -n "${PIPELINE_naive:-}" ] || PIPELINE_naive=$(steps "")
[ -n "${PIPELINE_merged:-}" ] || PIPELINE_merged=$(steps "loop-merge{depth=1}")
[ -n "${PIPELINE_auto:-}" ] || PIPELINE_auto=$(steps "loop-merge{depth=1 auto=true}")
[ -n "${PIPELINE_unroll1:-}" ] || PIPELINE_unroll1=$(steps "loop-merge{depth=1 unroll=1}")
[ -n "${PIPELINE_select:-}" ] || PIPELINE_select=$(steps "loop-merge{depth=1 form=select}")
[ -n "${PIPELINE_branch:-}" ] || PIPELINE_branch=$(steps "loop-merge{depth=1 form=branch}")
[ -n "${PIPELINE_prefetch:-}" ] || PIPELINE_prefetch=$(steps "loop-merge{depth=1 prefetch=true}")
[ -n "${PIPELINE_sunk:-}" ] ||
  PIPELINE_sunk="builtin.module(func.func(gpu-map-loops,gpu-host-data-placement,gpu-launch-sink-index-computations),gpu-kernel-outlining)"
export PIPELINE_naive PIPELINE_merged PIPELINE_auto PIPELINE_unroll1 PIPELINE_select PIPELINE_branch PIPELINE_prefetch PIPELINE_sunk
export SKIP_FAILED=${SKIP_FAILED:-1} CPU=${CPU:-0}
export RUNS=${RUNS:-3} KRUNS=${KRUNS:-21}
export SAN_TOOLS=${SAN_TOOLS:-memcheck} SAN_VARIANTS=${SAN_VARIANTS:-merged auto}
export ANCHOR_PROGS=${ANCHOR_PROGS:-synlm} DEADLINE_S=${DEADLINE_S:-480}
case "${1:-}" in
  prepare | run | build-check | record) exec bash "$HERE/polybench.sh" "$@" ;;
  *) sed -n '2,/^set -u/p' "$0" | sed '$d'; exit 2 ;;
esac
