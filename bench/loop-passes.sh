#!/usr/bin/env bash
# The loop transformations that MLIR also has (issue 27's speed table): each pass with its
# default options through bench/passes.sh on the 100k inputs, lf-opt against mlir-opt in the
# same run. Same arguments as passes.sh without --passes:
#   bash bench/loop-passes.sh [--inputs FILE,...] [--runs N] [--threads N] [--out FILE]
# affine-loop-fusion's output is not meant to be mlir-opt's (lf's fusion decides legality
# exactly, MLIR's changes the results of some programs): its "same output" column says NO.
exec bash "$(dirname "${BASH_SOURCE[0]}")/passes.sh" \
  --passes '--affine-loop-normalize|--affine-loop-tile|--affine-loop-unroll|--affine-loop-unroll-jam|--affine-scalrep|--affine-loop-invariant-code-motion|--affine-loop-fusion' "$@"
