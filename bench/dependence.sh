#!/usr/bin/env bash
# Speed of the affine dependence analysis: `test-memref-dependence-check` in lf-opt against
# mlir-opt on the generated 100k-op programs (bench/gen_affine.py), the usual mix and a
# variant with many accesses per nest (--dense-accesses). Both tools run the pass per
# function (mlir-opt: --pass-pipeline='builtin.module(func.func(test-memref-dependence-check))';
# lf-opt's pass is anchored on func.func), in the same run, and their remark lines must be
# equal. Usage:
#   bash bench/dependence.sh [--ops N] [--runs N] [--seed S] [--threads N]
# Environment: MLIR_OPT (default mlir-opt-22), LF_OPT (default target/release/lf-opt).
set -uo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GEN=$ROOT/bench/generated
MLIR_OPT=${MLIR_OPT:-mlir-opt-22}
LF_OPT=${LF_OPT:-$ROOT/target/release/lf-opt}
OPS=100000
RUNS=3
SEED=1
THREADS=
while [ $# -gt 0 ]; do
  case $1 in
    --ops) OPS=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    --seed) SEED=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$LF_OPT" ] || { echo "build lf-opt first: cargo build --release -p lf-tools" >&2; exit 1; }
mkdir -p "$GEN"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
MLIR_THREADS=()
LF_THREADS=()
if [ -n "$THREADS" ]; then
  MLIR_THREADS=(--mlir-disable-threading)
  [ "$THREADS" = 1 ] || MLIR_THREADS=()
  LF_THREADS=(--threads="$THREADS")
fi

# best of RUNS wall-clock seconds of a command whose stderr goes to $2
best() {
  local out=$1; shift
  local b=
  for _ in $(seq "$RUNS"); do
    local s e t
    s=$(date +%s.%N)
    "$@" -o /dev/null 2> "$out"
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc)
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
  done
  echo "$b"
}

printf '| input | ops | accesses | remark lines | mlir-opt s | lf-opt s | speedup | same remarks |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---|\n'
for variant in mix dense; do
  f=$GEN/dep-$variant-$OPS-s$SEED.mlir
  flag=
  [ $variant = dense ] && flag=--dense-accesses
  python3 "$ROOT/bench/gen_affine.py" --ops "$OPS" --seed "$SEED" $flag -o "$f" 2>/dev/null
  ops=$(python3 -c "import json;print(json.load(open('$f.meta'))['count'])")
  acc=$(grep -c 'affine\.load\|affine\.store' "$f")
  tm=$(best "$TMP/m.txt" "$MLIR_OPT" "${MLIR_THREADS[@]}" \
        --pass-pipeline='builtin.module(func.func(test-memref-dependence-check))' "$f")
  tl=$(best "$TMP/l.txt" "$LF_OPT" "${LF_THREADS[@]}" --test-memref-dependence-check "$f")
  grep -E '^[^ ]+:[0-9]+:[0-9]+: (remark|error): ' "$TMP/m.txt" > "$TMP/m.r"
  grep -E '^[^ ]+:[0-9]+:[0-9]+: (remark|error): ' "$TMP/l.txt" > "$TMP/l.r"
  same=yes
  cmp -s "$TMP/m.r" "$TMP/l.r" || same="NO ($(diff "$TMP/m.r" "$TMP/l.r" | grep -c '^[<>]') lines differ)"
  printf '| %s | %s | %s | %s | %.2f | %.2f | %.1fx | %s |\n' "$variant" "$ops" "$acc" "$(wc -l < "$TMP/m.r")" \
    "$tm" "$tl" "$(echo "$tm / $tl" | bc -l)" "$same"
done
