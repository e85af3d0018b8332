//! The memory footprint of a loop body (MLIR's `getMemoryFootprintBytes`
//! in `Affine/Analysis/Utils.cpp`), which `affine-loop-tile`'s cache model
//! reads.

use crate::affine::AffineForOp;
use lf_ir::view::Ir;

/// The bytes of the memrefs that the body of `for_op` touches in one
/// iteration of it, `None` when unknown.
pub fn memory_footprint_bytes<'c>(_ir: &impl Ir<'c>, _for_op: AffineForOp) -> Option<u64> {
    None
}
