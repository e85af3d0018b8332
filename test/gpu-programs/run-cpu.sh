#!/bin/sh
# Regenerates NAME.expected from NAME.cpu.mlir with mlir-runner (MLIR 22), base
# addresses replaced by 0x0. Usage: ./run-cpu.sh [NAME...]
set -eu
cd "$(dirname "$0")"
MLIR_OPT=${MLIR_OPT:-$(command -v mlir-opt-22 || command -v mlir-opt)}
MLIR_RUNNER=${MLIR_RUNNER:-$(command -v mlir-runner-22 || command -v mlir-runner || echo /usr/lib/llvm-22/bin/mlir-runner)}
MLIR_LIBDIR=${MLIR_LIBDIR:-/usr/lib/llvm-22/lib}
lib() { ls "$MLIR_LIBDIR/$1.so" "$MLIR_LIBDIR/$1.so".* 2>/dev/null | head -n 1; }
LIBS="$(lib libmlir_runner_utils),$(lib libmlir_c_runner_utils)"
if [ $# -eq 0 ]; then set -- $(ls *.cpu.mlir | sed 's/\.cpu\.mlir$//'); fi
for name in "$@"; do
  "$MLIR_OPT" "$name.cpu.mlir" --lower-affine --convert-scf-to-cf --convert-math-to-llvm \
      --convert-arith-to-llvm --finalize-memref-to-llvm --convert-func-to-llvm \
      --convert-cf-to-llvm --reconcile-unrealized-casts \
    | "$MLIR_RUNNER" -e main -entry-point-result=void -shared-libs="$LIBS" \
    | sed 's/base@ = 0x[0-9a-f]*/base@ = 0x0/' > "$name.expected"
  echo "wrote $name.expected"
done
