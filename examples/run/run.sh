#!/bin/sh
# Lowers each driver in this folder (or the ones named) to the LLVM dialect with
# mlir-opt and runs its @main with mlir-runner (upstream MLIR 22, Debian
# mlir-22-tools). Output goes to stdout, each driver preceded by "== NAME".
#
#   ./run.sh                  # all drivers
#   ./run.sh matmul lu        # some of them
#   ./run.sh -o DIR [NAME..]  # also write DIR/NAME.out, with the printed base
#                             # addresses ("base@ = 0x...") replaced by 0x0
#
# Environment: MLIR_OPT, MLIR_RUNNER, MLIR_LIBDIR override the tool locations.
set -eu
cd "$(dirname "$0")"
MLIR_OPT=${MLIR_OPT:-$(command -v mlir-opt-22 || command -v mlir-opt)}
MLIR_RUNNER=${MLIR_RUNNER:-$(command -v mlir-runner-22 || command -v mlir-runner)}
MLIR_LIBDIR=${MLIR_LIBDIR:-/usr/lib/llvm-22/lib}
lib() { ls "$MLIR_LIBDIR/$1.so" "$MLIR_LIBDIR/$1.so".* 2>/dev/null | head -n 1; }
LIBS="$(lib libmlir_runner_utils),$(lib libmlir_c_runner_utils)"
PIPELINE="--lower-affine --convert-scf-to-cf --convert-math-to-llvm \
--convert-arith-to-llvm --finalize-memref-to-llvm --convert-func-to-llvm \
--convert-cf-to-llvm --reconcile-unrealized-casts"

outdir=
if [ "${1:-}" = "-o" ]; then outdir=$2; shift 2; mkdir -p "$outdir"; fi
if [ $# -eq 0 ]; then set -- $(ls *.mlir | sed 's/\.mlir$//'); fi

status=0
for name in "$@"; do
  echo "== $name"
  # shellcheck disable=SC2086
  if out=$("$MLIR_OPT" "$name.mlir" $PIPELINE \
          | "$MLIR_RUNNER" -e main -entry-point-result=void -shared-libs="$LIBS"); then
    echo "$out"
    if [ -n "$outdir" ]; then
      echo "$out" | sed 's/base@ = 0x[0-9a-f]*/base@ = 0x0/' > "$outdir/$name.out"
    fi
  else
    echo "FAILED: $name" >&2
    status=1
  fi
done
exit $status
