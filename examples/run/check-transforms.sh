#!/bin/sh
# Checks that lf's generic transforms keep the results of every driver here:
# each driver goes through `lf-opt --pass-pipeline=...`, then through the same
# mlir-opt lowering and mlir-runner as run.sh, and must print exactly
# expected/NAME.out. lf-opt runs with --verify-semantics, so a pass that changes
# what @main prints is named (with its position in the pipeline) by lf-opt itself.
#
#   ./check-transforms.sh                      # the default pipelines, all drivers
#   ./check-transforms.sh 'canonicalize' lu    # one pipeline (inside builtin.module(...)), some drivers
#
# Environment: LF_OPT (default: lf-opt on PATH, else target/debug/lf-opt),
# MLIR_OPT, MLIR_RUNNER, MLIR_LIBDIR as in run.sh.
set -eu
cd "$(dirname "$0")"
LF_OPT=${LF_OPT:-$(command -v lf-opt || echo ../../target/debug/lf-opt)}
MLIR_OPT=${MLIR_OPT:-$(command -v mlir-opt-22 || command -v mlir-opt)}
MLIR_RUNNER=${MLIR_RUNNER:-$(command -v mlir-runner-22 || command -v mlir-runner)}
MLIR_LIBDIR=${MLIR_LIBDIR:-/usr/lib/llvm-22/lib}
lib() { ls "$MLIR_LIBDIR/$1.so" "$MLIR_LIBDIR/$1.so".* 2>/dev/null | head -n 1; }
LIBS="$(lib libmlir_runner_utils),$(lib libmlir_c_runner_utils)"
LOWER="--lower-affine --convert-scf-to-cf --convert-math-to-llvm \
--convert-arith-to-llvm --finalize-memref-to-llvm --convert-func-to-llvm \
--convert-cf-to-llvm --reconcile-unrealized-casts"

if [ $# -gt 0 ]; then pipelines=$1; shift; else
  pipelines='canonicalize;lower-affine,canonicalize;func.func(loop-invariant-code-motion);lower-affine,loop-invariant-code-motion,canonicalize,cse;inline{max-callee-ops=100000}'
fi
if [ $# -eq 0 ]; then set -- $(ls *.mlir | sed 's/\.mlir$//'); fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
IFS_SAVE=$IFS
for name in "$@"; do
  IFS=';'
  for p in $pipelines; do
    IFS=$IFS_SAVE
    # shellcheck disable=SC2086
    if "$LF_OPT" "$name.mlir" --pass-pipeline="builtin.module($p)" --verify-semantics -o "$tmp/t.mlir" &&
       "$MLIR_OPT" "$tmp/t.mlir" $LOWER |
       "$MLIR_RUNNER" -e main -entry-point-result=void -shared-libs="$LIBS" |
       sed 's/base@ = 0x[0-9a-f]*/base@ = 0x0/' > "$tmp/out" &&
       cmp -s "$tmp/out" "expected/$name.out"; then
      echo "ok   $name  $p"
    else
      echo "FAIL $name  $p"
      status=1
    fi
  done
  IFS=$IFS_SAVE
done
exit $status
