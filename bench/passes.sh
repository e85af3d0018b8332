#!/usr/bin/env bash
# Pass speed: lf-opt against mlir-opt running the same pass on the generated affine programs,
# in the same run, outputs compared byte for byte. Usage:
#   bash bench/passes.sh --passes 'FLAG|FLAG|...' [--inputs FILE,...] [--runs N] [--threads N] [--out FILE]
# Each FLAG is given to both tools as it is, e.g. --affine-loop-unroll=unroll-factor=2.
# Default inputs: bench/generated/affine-100k.custom.mlir (bench/gen_affine.py --ops 100000
# --seed 1) and its variant with many accesses per nest (--dense-accesses).
# Environment: MLIR_OPT (default mlir-opt-22), LF_OPT (default target/release/lf-opt).
# --threads N gives both tools N threads (mlir-opt: N=1 is --mlir-disable-threading; N>1
# leaves MLIR's default pool); default: each tool's default.
set -uo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GEN=$ROOT/bench/generated
MLIR_OPT=${MLIR_OPT:-mlir-opt-22}
LF_OPT=${LF_OPT:-$ROOT/target/release/lf-opt}
RUNS=3
PASSES=
THREADS=
INPUTS=
OUT=
while [ $# -gt 0 ]; do
  case $1 in
    --passes) PASSES=$2; shift ;;
    --inputs) INPUTS=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --out) OUT=$2; shift ;;
    -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$PASSES" ] || { echo "--passes is required" >&2; exit 2; }
mkdir -p "$GEN"
if [ -z "$INPUTS" ]; then
  python3 "$ROOT/bench/gen_affine.py" --ops 100000 --seed 1 --form custom -o "$GEN/affine-100k.custom.mlir" >&2 || exit 1
  INPUTS=$GEN/affine-100k.custom.mlir
  python3 "$ROOT/bench/gen_affine.py" --ops 100000 --seed 1 --dense-accesses --form custom -o "$GEN/affine-100k-dense.custom.mlir" >&2 || exit 1
  INPUTS=$INPUTS,$GEN/affine-100k-dense.custom.mlir
fi
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
mflags=() lflags=()
if [ -n "$THREADS" ]; then
  lflags+=(--threads="$THREADS")
  [ "$THREADS" = 1 ] && mflags+=(--mlir-disable-threading)
fi
# Runs a command; prints "wall_ms cpu_ms" (cpu = user + sys, steadier on a shared machine).
# The wall clock is read around GNU time (whose %e has 10 ms steps, a tenth of a 100 ms run);
# its own start-up, about a millisecond, is counted for both tools alike.
secs() {
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f '%U %S' -o "$TMPD/time" "$@" > "$TMPD/last" 2>&1
  t1=$(date +%s%N)
  awk -v w="$(( (t1 - t0) / 1000000 ))" '{printf "%d %d\n", w, ($1 + $2) * 1000}' "$TMPD/time"
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
table="| input | pass | ops | mlir-opt wall ms (median of $RUNS) | lf-opt wall ms | speed-up (wall) | mlir-opt cpu ms | lf-opt cpu ms | speed-up (cpu) | fastest run ms (mlir-opt / lf-opt) | speed-up (fastest) | same output |"$'\n'"|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
IFS=, read -ra LIST <<< "$INPUTS"
IFS='|' read -ra FLAGS <<< "$PASSES"
for f in "${LIST[@]}"; do
  ops=$(grep -c '' "$f"); [ -f "$f.meta" ] && ops=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["count"])' "$f.meta")
  for flag in "${FLAGS[@]}"; do
    "$MLIR_OPT" "${mflags[@]}" "$flag" "$f" -o "$TMPD/m.mlir" || { echo "mlir-opt failed on $f" >&2; continue; }
    "$LF_OPT" "${lflags[@]}" "$flag" "$f" -o "$TMPD/l.mlir" || { echo "lf-opt failed on $f" >&2; continue; }
    same=yes; cmp -s "$TMPD/m.mlir" "$TMPD/l.mlir" || same=NO
    mt=() lt=() mc=() lc=()
    for ((r = 0; r < RUNS; r++)); do
      read -r ms cpu < <(secs "$MLIR_OPT" "${mflags[@]}" "$flag" "$f" -o /dev/null); mt+=("$ms"); mc+=("$cpu")
      read -r ms cpu < <(secs "$LF_OPT" "${lflags[@]}" "$flag" "$f" -o /dev/null); lt+=("$ms"); lc+=("$cpu")
    done
    m=$(median "${mt[@]}"); l=$(median "${lt[@]}"); m2=$(median "${mc[@]}"); l2=$(median "${lc[@]}")
    x=$(awk -v a="$m" -v b="$l" 'BEGIN{printf "%.1fx", a/(b>0?b:1)}')
    x2=$(awk -v a="$m2" -v b="$l2" 'BEGIN{printf "%.1fx", a/(b>0?b:1)}')
    # The fastest run of each tool: what is left when the machine's noise
    # (which only adds time) is smallest; the goal is judged on the medians.
    m3=$(printf '%s\n' "${mt[@]}" | sort -g | head -1); l3=$(printf '%s\n' "${lt[@]}" | sort -g | head -1)
    x3=$(awk -v a="$m3" -v b="$l3" 'BEGIN{printf "%.1fx", a/(b>0?b:1)}')
    row="| \`$(basename "$f")\` | \`${flag}\` | $ops | $m | $l | $x | $m2 | $l2 | $x2 | $m3 / $l3 | $x3 | $same |"
    echo "$row" >&2
    table+=$'\n'"$row"
  done
done
hdr="threads: ${THREADS:-default}; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); lf-opt $(cd "$ROOT" && git rev-parse --short HEAD) (${LF_OPT#"$ROOT"/})"
if [ -n "$OUT" ]; then printf '%s\n\n%s\n' "$hdr" "$table" > "$OUT"; fi
printf '%s\n\n%s\n' "$hdr" "$table"
