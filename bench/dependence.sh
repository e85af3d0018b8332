#!/usr/bin/env bash
# Speed of the affine dependence analysis: `test-memref-dependence-check` in lf-opt against
# mlir-opt on generated programs (bench/gen_affine.py): the usual mix and a variant with
# many accesses per nest (--dense-accesses). Both tools run the pass per function (mlir-opt:
# --pass-pipeline='builtin.module(func.func(test-memref-dependence-check))'; lf-opt's pass
# is anchored on func.func), in the same run, on the same file, and their remark lines must be
# equal. The functions on which MLIR's Fourier-Motzkin projection explodes (minutes, or
# `LLVM ERROR: out of memory`, which would end mlir-opt's run) are first turned into
# declarations by bench/dep_filter.py (it asks lf-opt, which stops those at FM_MAX_ROWS).
# Usage:
#   bash bench/dependence.sh [--ops N] [--seed S] [--variants mix,dense]
# Environment: MLIR_OPT (default mlir-opt-22), LF_OPT (default target/release/lf-opt).
set -uo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GEN=$ROOT/bench/generated
MLIR_OPT=${MLIR_OPT:-mlir-opt-22}
LF_OPT=${LF_OPT:-$ROOT/target/release/lf-opt}
export LF_OPT
OPS=100000
SEED=1
VARIANTS=mix,dense
while [ $# -gt 0 ]; do
  case $1 in
    --ops) OPS=$2; shift ;;
    --seed) SEED=$2; shift ;;
    --variants) VARIANTS=$2; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$LF_OPT" ] || { echo "build lf-opt first: cargo build --release -p lf-tools" >&2; exit 1; }
mkdir -p "$GEN"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Runs a command; prints "wall cpu" seconds (cpu = user + sys), its stderr in $1.
timed() {
  local err=$1; shift
  /usr/bin/time -f '%e %U %S' -o "$TMP/time" "$@" -o /dev/null 2> "$err"
  awk '{printf "%s %.2f", $1, $2 + $3}' "$TMP/time"
}

printf '| input | ops | functions kept | accesses | remark lines | mlir-opt wall s | lf-opt wall s | mlir-opt cpu s | lf-opt cpu s | speedup (cpu) | same remarks |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n'
for variant in ${VARIANTS//,/ }; do
  f=$GEN/dep-$variant-$OPS-s$SEED.mlir
  flag=
  [ "$variant" = dense ] && flag=--dense-accesses
  python3 "$ROOT/bench/gen_affine.py" --ops "$OPS" --seed "$SEED" $flag -o "$f" 2>/dev/null
  kept=$f.kept.mlir
  python3 "$ROOT/bench/dep_filter.py" "$f" "$kept" 2> "$TMP/filter"
  nf=$(grep -c 'func\.func @' "$kept"); nall=$(grep -c 'func\.func' "$f")
  ops=$(python3 -c "import json;print(json.load(open('$f.meta'))['count'])")
  acc=$(grep -c 'affine\.load\|affine\.store' "$kept")
  read -r mw mc <<< "$(timed "$TMP/m.txt" "$MLIR_OPT" --pass-pipeline='builtin.module(func.func(test-memref-dependence-check))' "$kept")"
  read -r lw lc <<< "$(timed "$TMP/l.txt" "$LF_OPT" --test-memref-dependence-check "$kept")"
  grep -E '^[^ ]+:[0-9]+:[0-9]+: (remark|error): ' "$TMP/m.txt" > "$TMP/m.r"
  grep -E '^[^ ]+:[0-9]+:[0-9]+: (remark|error): ' "$TMP/l.txt" > "$TMP/l.r"
  same=yes
  cmp -s "$TMP/m.r" "$TMP/l.r" || same="NO"
  printf '| %s | %s | %s of %s | %s | %s | %s | %s | %s | %s | %.1fx | %s |\n' "$variant" "$ops" "$nf" "$nall" "$acc" \
    "$(wc -l < "$TMP/m.r")" "$mw" "$lw" "$mc" "$lc" "$(echo "$mc / $lc" | bc -l)" "$same"
done
