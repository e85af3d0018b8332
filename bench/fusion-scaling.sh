#!/usr/bin/env bash
# affine-loop-fusion scaling: one function with N sibling nests (bench/gen_fusion_siblings.py),
# N = 100, 1000, 10000, through lf-opt and mlir-opt-22 (greedy mode, the default), timed, and
# the nests left counted. Prints a markdown table. Usage:
#   bash bench/fusion-scaling.sh [--sizes 100,1000,10000] [--timeout SECONDS] [--depth 1|2]
# Environment: MLIR_OPT (default mlir-opt-22), LF_OPT (default target/release/lf-opt; build it
# without LTO: CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
# cargo build --release -p lf-tools).
# Each tool also runs without the pass (parse + print) so the pass's own time is the difference.
set -uo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GEN=$ROOT/bench/generated
MLIR_OPT=${MLIR_OPT:-mlir-opt-22}
LF_OPT=${LF_OPT:-$ROOT/target/release/lf-opt}
SIZES=100,1000,10000
TIMEOUT=600
DEPTH=1
while [ $# -gt 0 ]; do
  case $1 in
    --sizes) SIZES=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    --depth) DEPTH=$2; shift ;;
    -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$GEN"
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

# seconds TOOL ARGS...: wall time of one run (or ">TIMEOUT"), output in $TMPD/out.mlir
seconds() {
  local start end
  start=$(date +%s.%N)
  if timeout "$TIMEOUT" "$@" -o "$TMPD/out.mlir" 2>/dev/null; then
    end=$(date +%s.%N)
    echo "$start $end" | awk '{printf "%.2f", $2 - $1}'
  else
    echo ">$TIMEOUT"
    : > "$TMPD/out.mlir"
  fi
}

echo "| sibling nests | lf-opt (s) | lf-opt parse+print (s) | nests left (lf) | mlir-opt-22 (s) | mlir-opt-22 parse+print (s) | nests left (mlir) |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
IFS=, read -r -a sizes <<< "$SIZES"
for n in "${sizes[@]}"; do
  f=$GEN/fusion-siblings-$n-d$DEPTH.mlir
  python3 "$ROOT/bench/gen_fusion_siblings.py" --nests "$n" --depth "$DEPTH" -o "$f"
  lf=$(seconds "$LF_OPT" "$f" --affine-loop-fusion)
  lf_left=$(grep -c 'affine.for' "$TMPD/out.mlir")
  lf_base=$(seconds "$LF_OPT" "$f")
  ml=$(seconds "$MLIR_OPT" "$f" --affine-loop-fusion)
  ml_left=$(grep -c 'affine.for' "$TMPD/out.mlir")
  [ "$ml" = ">$TIMEOUT" ] && ml_left="-"
  ml_base=$(seconds "$MLIR_OPT" "$f")
  echo "| $n | $lf | $lf_base | $((lf_left / DEPTH)) | $ml | $ml_base | $([ "$ml_left" = "-" ] && echo - || echo $((ml_left / DEPTH))) |"
done
