#!/usr/bin/env bash
# The loop transformations that MLIR also has (issue 27's speed table), each with its default
# options, through bench/passes.sh on the 100k inputs, lf-opt against mlir-opt in the same
# run. Same arguments as passes.sh without --passes:
#   bash bench/loop-passes.sh [--inputs FILE,...] [--runs N] [--threads N] [--out FILE]
# Not here: affine-loop-tile and affine-loop-fusion, on which mlir-opt-22 runs out of memory
# on these inputs (bench/RESULTS.md says what was measured for them instead). Unroll and
# unroll-jam go through --pass-pipeline: mlir-opt-22 cannot nest them under the module from a flag.
exec bash "$(dirname "${BASH_SOURCE[0]}")/passes.sh" \
  --passes '--affine-loop-normalize|--pass-pipeline=builtin.module(func.func(affine-loop-unroll))|--pass-pipeline=builtin.module(func.func(affine-loop-unroll-jam))|--affine-scalrep|--affine-loop-invariant-code-motion' "$@"
