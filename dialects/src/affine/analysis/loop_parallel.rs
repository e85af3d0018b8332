//! Whether an `affine.for` is parallel: MLIR's `isLoopParallel`
//! (`AffineAnalysis.cpp`), on the memory dependence analysis of
//! [`super::MemRefAccesses`] and the reductions of [`super::reductions`].
//!
//! A loop is parallel when its iterations are independent as far as memory
//! goes ([`super::is_loop_memory_parallel`]) and it carries no value from
//! one iteration to the next, or, when reductions are allowed, every
//! carried value is a supported reduction.

use super::reductions::{supported_reductions, LoopReduction};
use super::{MemRefAccesses, Precision};
use crate::affine::AffineForOp;
use lf_ir::view::{Ir, OpView};

/// Whether the iterations of `for_op` may run in parallel: no loop-carried
/// values (`iter_args`) and no memory dependence carried by the loop
/// (MLIR's `isLoopParallel(forOp)`). `precision` says how dependences are
/// decided ([`Precision::MlirCompatible`] for MLIR's answers).
pub fn is_parallel<'c>(ir: &impl Ir<'c>, for_op: AffineForOp, precision: Precision) -> bool {
    is_parallel_cached(&MemRefAccesses::new(), ir, for_op, precision)
}

/// [`is_parallel`] with a dependence cache shared across questions on one
/// function (the one of [`super::DependenceAnalysis`]).
pub fn is_parallel_cached<'c>(
    accesses: &MemRefAccesses,
    ir: &impl Ir<'c>,
    for_op: AffineForOp,
    precision: Precision,
) -> bool {
    for_op.inits(ir).is_empty() && accesses.is_loop_memory_parallel(ir.ctx(), ir.body(), for_op.op(), precision)
}

/// Whether `for_op` is parallel when its supported reductions may be
/// combined in any order (MLIR's `isLoopParallel(forOp,
/// &parallelReductions)`): `Some` of the reductions, one per loop-carried
/// value in order, when every carried value is a supported reduction
/// ([`super::reductions::loop_reduction`]) and no memory dependence is
/// carried by the loop; `None` otherwise.
pub fn is_loop_parallel_with_reductions<'c>(
    accesses: &MemRefAccesses,
    ir: &impl Ir<'c>,
    for_op: AffineForOp,
    precision: Precision,
) -> Option<Vec<LoopReduction>> {
    let reductions = supported_reductions(ir, for_op);
    if reductions.len() != for_op.inits(ir).len() {
        return None;
    }
    accesses
        .is_loop_memory_parallel(ir.ctx(), ir.body(), for_op.op(), precision)
        .then_some(reductions)
}
