//! The lower bound of the cleanup loop that unrolling by a factor leaves
//! (MLIR's `getCleanupLoopLowerBound`), from the trip count map of
//! [`super::trip_count_bound`].

use super::map_composition::canonicalize_map_and_operands;
use super::trip_count_bound::trip_count_map;
use crate::affine::{AffineApplyOp, AffineBound, AffineForOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::Value;

/// The lower bound of the cleanup loop when `for_op` is unrolled by
/// `factor` (MLIR's `getCleanupLoopLowerBound`): `max_k(lb + (tc_k - tc_k mod
/// factor) * step)` over the trip count map's results `tc_k`, composed,
/// simplified and canonicalized. `None` without a trip count map. The IR is
/// left as it was (the `affine.apply` ops built to compose the map are
/// erased again).
///
/// With `keep_lower_bound`, `lb` itself is one more result of the `max`.
/// MLIR's bound assumes a trip count that is not negative: for a loop that
/// runs no iteration because its upper bound is below its lower bound
/// (`2 to %n` with `%n = 0`), `tc - tc mod factor` is negative and the
/// cleanup loop would run iterations below `lb` that the loop never ran.
/// The extra result keeps the cleanup loop (and the unrolled loop, which
/// stops at this bound) inside the loop's range.
pub fn cleanup_loop_lower_bound(
    b: &mut Builder<'_>,
    for_op: AffineForOp,
    factor: u64,
    keep_lower_bound: bool,
) -> Option<AffineBound> {
    let tc = trip_count_map(b, for_op)?;
    let step = for_op.step(b);
    let lb = for_op.lower_bound(b);
    let loc = b.body().op_loc(for_op.op());
    let (lb_value, bumps) = b.guarded(|b| {
        b.set_insertion_point_before(for_op.op());
        b.set_loc(loc);
        let lb_value = AffineApplyOp::build(b, &lb.operands, lb.map.clone()).result(b);
        let factor = factor as i64;
        let bumps: Vec<Value> = tc
            .map
            .results()
            .iter()
            .map(|e| {
                let bump = e.sub(&e.modulo_const(factor)).mul_const(step);
                let map = AffineMap::new(tc.map.num_dims(), tc.map.num_symbols(), vec![bump]);
                AffineApplyOp::build(b, &tc.operands, map).result(b)
            })
            .collect();
        (lb_value, bumps)
    });
    let n = tc.map.num_results() as u32;
    let mut results: Vec<AffineExpr> = (0..n)
        .map(|i| AffineExpr::dim(0).add(&AffineExpr::dim(i + 1)))
        .collect();
    if keep_lower_bound {
        results.push(AffineExpr::dim(0));
    }
    let map = AffineMap::new(1 + n, 0, results);
    let mut operands = vec![lb_value];
    operands.extend_from_slice(&bumps);
    let (ctx, body) = (b.ctx(), b.body());
    let (map, operands) = match canonicalize_map_and_operands(ctx, body, &map, &operands) {
        Some((m, o)) => (m, o),
        None => (map, operands),
    };
    let map = map.simplify();
    let (map, operands) = match canonicalize_map_and_operands(ctx, body, &map, &operands) {
        Some((m, o)) => (m, o),
        None => (map, operands),
    };
    for v in bumps.into_iter().chain(std::iter::once(lb_value)) {
        if !b.body().has_uses(v) {
            let op = b.body().defining_op(v).expect("an affine.apply result");
            b.erase_op(op);
        }
    }
    Some(AffineBound::map(map, &operands))
}
