//! Promoting the body of an `affine.for` that runs exactly once into the
//! block around it (MLIR's `promoteIfSingleIteration` in
//! `Affine/Utils/LoopUtils.cpp`).

use super::trip_count_bound::{constant_trip_count, upper_bound_on_trip_count};
use crate::affine::{AffineApplyOp, AffineForOp};
use crate::arith::ArithConstantOp;
use lf_ir::affine::AffineMap;
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{BlockId, Value};

/// If `for_op` runs exactly one iteration (its trip count is known to be 1,
/// and its lower bound has one result), replaces it by its body and
/// returns true; otherwise changes nothing and returns false.
///
/// The induction variable becomes the lower bound: a constant lower bound
/// is an `arith.constant` at the start of `constants` (the function's entry
/// block, where MLIR puts it; before the loop when `None`), a single
/// operand with the identity map is that operand, anything else an
/// `affine.apply` of the lower bound map before the loop. The carried
/// values become their initial values and the loop's results the values
/// its body yields.
pub fn promote_if_single_iteration(b: &mut Builder<'_>, for_op: AffineForOp, constants: Option<BlockId>) -> bool {
    if constant_trip_count(b, for_op) != Some(1) || upper_bound_on_trip_count(b, for_op) != Some(1) {
        return false;
    }
    let lb = for_op.lower_bound(b);
    if lb.map.num_results() != 1 {
        return false;
    }
    let iv = for_op.iv(b);
    let loc = b.body().op_loc(for_op.op());
    if b.body().has_uses(iv) {
        let replacement: Value = b.guarded(|b| {
            b.set_loc(loc);
            if let Some(c) = lb.map.single_constant_result() {
                match constants {
                    Some(block) => b.set_insertion_point_to_start(block),
                    None => b.set_insertion_point_before(for_op.op()),
                }
                ArithConstantOp::index(b, c)
            } else if lb.map == AffineMap::get_multi_dim_identity(1) {
                lb.operands[0]
            } else {
                b.set_insertion_point_before(for_op.op());
                AffineApplyOp::build(b, &lb.operands, lb.map.clone()).result(b)
            }
        });
        b.replace_all_uses_with(iv, replacement);
    }
    let inits = for_op.inits(b);
    let args = for_op.region_iter_args(b);
    for (arg, init) in args.iter().zip(&inits) {
        b.replace_all_uses_with(*arg, *init);
    }
    let yield_op = for_op.yield_op(b).op();
    let yielded: Vec<Value> = b.body().operands(yield_op).collect();
    let results: Vec<Value> = b.body().results(for_op.op()).collect();
    for (r, y) in results.iter().zip(&yielded) {
        b.replace_all_uses_with(*r, *y);
    }
    b.erase_op(yield_op);
    let block = for_op.region_block(b);
    if let Some(first) = b.body().first_op(block) {
        b.guarded(|b| {
            b.set_insertion_point_before(for_op.op());
            b.splice_rest_of_block(first, false);
        });
    }
    b.erase_op(for_op.op());
    true
}
