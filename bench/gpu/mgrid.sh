#!/usr/bin/env bash
# The seed-002 mgrid rows of the GPU suite (issue 32, item 6; BENCHMARKS.md §2,
# row "mgrid rprj3 / interp"): Mgrid's Rprj3 (restriction: a 128^3 fine-grid
# interior onto a 64^3 coarse one) and Interp (prolongation: a 128^3 coarse
# interior onto a 256^3 fine one), fp64 (examples/gen.py rprj3|interp large),
# through gpu-map-loops at the thread granularities N, 2N, 4N and 8N of the
# paper (thread-granularity), against a single-core CPU build of the same
# source, in the same GPU call as the copy-bandwidth ceiling of
# ../shared/anchors-gpu (roofline).
#
# A thin wrapper: bench/gpu/polybench.sh does the work with these settings,
# in bench/gpu/.mgrid/ (prepared) and bench/gpu/.refs/ (anchors); the report is
# bench/gpu/mgrid_report.py, the section of RESULTS.md is marked mgrid.
#
#   bench/gpu/mgrid.sh prepare       here (cargo): pipelines, CUDA, reduced-size checks
#   bench/gpu/mgrid.sh build-check   here, no GPU: every harness and program builds, CPU runs
#   bench/gpu/mgrid.sh run           on the GPU machine (carry bench/gpu/.mgrid, bench/gpu/.refs)
#   bench/gpu/mgrid.sh record DIR    here: mgrid.md into RESULTS.md
#
# Every variable of polybench.sh applies; the defaults here:
#   WORKLOADS    rprj3 (MK=130 MJ=66: the paper's "128^3" is Rprj3's problem
#                size, the fine grid) interp (MM=130 MU=258: fine grid 256^3)
#   VARIANTS     n n2 n4 n8 (n is the baseline and the reference every other
#                variant's full-size result must equal, bit for bit)
#   PIPELINE_n   gpu-map-loops (cost model) + gpu-host-data-placement + outlining:
#                a thread per output point (granularity N)
#   PIPELINE_n2  + thread-granularity{factor=2 vector-width=2} after the mapping
#                (the paper's double2)
#   PIPELINE_n4  + thread-granularity{factor=4 vector-width=2 output-streams=2}
#   PIPELINE_n8  + thread-granularity{factor=8 vector-width=2 output-streams=4}
#                (thread-granularity's default dimension, x, throughout)
#   PIPELINE_n2v, PIPELINE_n4v, PIPELINE_n8v  (not in the default VARIANTS)
#                n2, n4, n8 + vectorize-access{width=2} after thread-granularity:
#                a thread's two lanes as one double2 access where aligned (the
#                paper's packed vector memory instructions); e.g.
#                VARIANTS="n n2 n4 n8 n2v n4v n8v" bench/gpu/mgrid.sh prepare
#   SKIP_FAILED=1  a variant whose pipeline fails at prepare (thread-granularity
#                not there yet) is skipped with a SKIP line, not a failure
#   CPU=1        the single-core CPU build (the seed's speedup-over-CPU)
#   RUNS=9 KRUNS=41 (kernel time: the median of the 41 instrumented calls)
#   CPU_RUNS=11 SAN_TOOLS=memcheck ANCHOR_PROGS=roofline DEADLINE_S=290
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
export SUITE=mgrid
export WORKLOADS=${WORKLOADS:-rprj3 interp}
export VARIANTS=${VARIANTS:-n n2 n4 n8}
steps() { # the passes after the mapping -> the whole pipeline
  echo "builtin.module(func.func(gpu-map-loops${1:+,$1},gpu-host-data-placement),gpu-kernel-outlining)"
}
# (not ${X:=...}: a '}' in the default would end the expansion)
[ -n "${PIPELINE_n:-}" ] || PIPELINE_n=$(steps "")
[ -n "${PIPELINE_n2:-}" ] || PIPELINE_n2=$(steps "thread-granularity{factor=2 vector-width=2}")
[ -n "${PIPELINE_n4:-}" ] || PIPELINE_n4=$(steps "thread-granularity{factor=4 vector-width=2 output-streams=2}")
[ -n "${PIPELINE_n8:-}" ] || PIPELINE_n8=$(steps "thread-granularity{factor=8 vector-width=2 output-streams=4}")
# the same with the lanes' accesses merged into double2 ones
[ -n "${PIPELINE_n2v:-}" ] || PIPELINE_n2v=$(steps "thread-granularity{factor=2 vector-width=2},vectorize-access{width=2}")
[ -n "${PIPELINE_n4v:-}" ] ||
  PIPELINE_n4v=$(steps "thread-granularity{factor=4 vector-width=2 output-streams=2},vectorize-access{width=2}")
[ -n "${PIPELINE_n8v:-}" ] ||
  PIPELINE_n8v=$(steps "thread-granularity{factor=8 vector-width=2 output-streams=4},vectorize-access{width=2}")
export PIPELINE_n PIPELINE_n2 PIPELINE_n4 PIPELINE_n8 PIPELINE_n2v PIPELINE_n4v PIPELINE_n8v
export SKIP_FAILED=${SKIP_FAILED:-1} CPU=${CPU:-1}
export RUNS=${RUNS:-9} KRUNS=${KRUNS:-41} CPU_RUNS=${CPU_RUNS:-11}
export SAN_TOOLS=${SAN_TOOLS:-memcheck}
export ANCHOR_PROGS=${ANCHOR_PROGS:-roofline} DEADLINE_S=${DEADLINE_S:-290}
case "${1:-}" in
  prepare | run | build-check | record) exec bash "$HERE/polybench.sh" "$@" ;;
  *) sed -n '2,/^set -u/p' "$0" | sed '$d'; exit 2 ;;
esac
