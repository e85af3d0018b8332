//! Replacing an `affine.for` that runs exactly once by its body (MLIR's
//! `promoteIfSingleIteration`).

use super::trip_count_bound::{constant_trip_count, upper_bound_on_trip_count};
use crate::affine::{AffineApplyOp, AffineForOp};
use crate::arith::ArithConstantOp;
use crate::func::FuncFuncOp;
use crate::gpu::GpuFuncOp;
use lf_ir::affine::AffineMap;
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{BlockId, OpId, Value};

/// If `for_op` runs exactly once (every result of its trip count map is the
/// constant 1) and its lower bound has one result, moves its body before it and erases it, as MLIR's
/// `promoteIfSingleIteration`: the induction variable becomes the lower
/// bound (an `arith.constant` at the start of the enclosing function's entry
/// block for a constant bound, the bound's only operand for the map `(d0) ->
/// (d0)`, else an `affine.apply` of the bound before the loop), the carried
/// block arguments the initial values, and the loop's results the yielded
/// values. Returns whether the loop was promoted.
pub fn promote_if_single_iteration(b: &mut Builder<'_>, for_op: AffineForOp) -> bool {
    if constant_trip_count(b, for_op) != Some(1) || upper_bound_on_trip_count(b, for_op) != Some(1) {
        return false;
    }
    let lb = for_op.lower_bound(b);
    if lb.map.num_results() != 1 {
        return false;
    }
    let op = for_op.op();
    let loc = b.body().op_loc(op);
    let iv = for_op.iv(b);
    if b.body().has_uses(iv) {
        let replacement = b.guarded(|b| {
            b.set_loc(loc);
            if let Some(c) = lb.as_constant() {
                let entry = function_entry_block(b, op);
                b.set_insertion_point_to_start(entry);
                ArithConstantOp::index(b, c)
            } else if lb.map == AffineMap::get_multi_dim_identity(1) {
                lb.operands[0]
            } else {
                b.set_insertion_point_before(op);
                AffineApplyOp::build(b, &lb.operands, lb.map.clone()).result(b)
            }
        });
        b.replace_all_uses_with(iv, replacement);
    }
    let inits = for_op.inits(b);
    let args = for_op.region_iter_args(b);
    for (a, v) in args.iter().zip(&inits) {
        b.replace_all_uses_with(*a, *v);
    }
    let yield_op = for_op.yield_op(b).op();
    let yielded: Vec<Value> = b.body().operands(yield_op).collect();
    let results: Vec<Value> = b.body().results(op).collect();
    for (r, v) in results.iter().zip(&yielded) {
        b.replace_all_uses_with(*r, *v);
    }
    b.erase_op(yield_op);
    let block = for_op.region_block(b);
    if let Some(first) = b.body().first_op(block) {
        b.guarded(|b| {
            b.set_insertion_point_before(op);
            b.splice_rest_of_block(first, false);
        });
    }
    b.erase_op(op);
    true
}

/// The entry block of the function around `op` (MLIR's
/// `getParentOfType<FunctionOpInterface>`): the closest `func.func` or
/// `gpu.func`, else the outermost region of the body (the function a pass
/// anchored on `func.func` runs on).
pub fn function_entry_block(b: &Builder<'_>, op: OpId) -> BlockId {
    let body = b.body();
    let mut cur = op;
    loop {
        match body.parent_op(cur) {
            Some(p) if FuncFuncOp::isa(b, p) || GpuFuncOp::isa(b, p) => {
                let region = body.region(p, 0);
                return body.entry_block(region).expect("a function with a body");
            }
            Some(p) => cur = p,
            None => {
                let block = body.op_block(cur).expect("op is in a block");
                let region = body.block_region(block).expect("block is in a region");
                return body.entry_block(region).expect("a region with blocks");
            }
        }
    }
}
