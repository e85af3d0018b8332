//! Trip counts of `affine.for` loops as affine maps, and the lower bound of
//! the cleanup loop that unrolling by a factor leaves (MLIR's
//! `getTripCountMapAndOperands`, `getConstantTripCount`,
//! `getLargestDivisorOfTripCount` and `getCleanupLoopLowerBound`).
//!
//! A loop `for %i = max(lb) to min(ub_1, .., ub_n) step s` with a single
//! lower bound expression runs `min_k ceildiv(ub_k - lb, s)` times: the trip
//! count map has one result per upper bound expression. Both bounds
//! constant give the constant map `ceildiv(max(ub - lb, 0), s)`; a lower
//! bound with several results gives no map.

use super::map_composition::canonicalize_map_and_operands;
use crate::affine::{AffineApplyOp, AffineForOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{Body, Context, Value};

/// A map and its operands (dimensions, then symbols).
#[derive(Clone, Debug, PartialEq)]
pub struct MapAndOperands {
    /// The map.
    pub map: AffineMap,
    /// Its operands.
    pub operands: Vec<Value>,
}

/// The trip count of `for_op` as a map (one result per upper bound
/// expression; the trip count is their minimum) and its operands, or `None`
/// when the lower bound has several results (MLIR's
/// `getTripCountMapAndOperands`: the difference of the bounds composed with
/// their `affine.apply` producers, canonicalized and simplified, each result
/// then divided by the step, rounding up).
pub fn trip_count_map(ctx: &Context, body: &Body, for_op: AffineForOp) -> Option<MapAndOperands> {
    let ir = (ctx, body);
    let step = for_op.step(&ir);
    let (lb, ub) = (for_op.lower_bound(&ir), for_op.upper_bound(&ir));
    if let (Some(l), Some(u)) = (lb.as_constant(), ub.as_constant()) {
        let span = u.saturating_sub(l).max(0);
        return Some(MapAndOperands {
            map: AffineMap::get_constant_map(lf_ir::affine::ceil_div(span, step).unwrap_or(0)),
            operands: Vec::new(),
        });
    }
    if lb.map.num_results() != 1 {
        return None;
    }
    // The difference ub - lb over [ub dims, lb dims, ub symbols, lb symbols]
    // (MLIR's `AffineValueMap::difference`).
    let (ud, us) = (ub.map.num_dims(), ub.map.num_symbols());
    let (ld, ls) = (lb.map.num_dims(), lb.map.num_symbols());
    let lb_shifted = lb.map.shift_dims(ud, 0).shift_symbols(us, 0);
    let lb_expr = lb_shifted.result(0).clone();
    let diffs: Vec<AffineExpr> = ub.map.results().iter().map(|e| e.sub(&lb_expr)).collect();
    let map = AffineMap::new(ud + ld, us + ls, diffs);
    let mut operands: Vec<Value> = Vec::with_capacity(ub.operands.len() + lb.operands.len());
    operands.extend_from_slice(&ub.operands[..ud as usize]);
    operands.extend_from_slice(&lb.operands[..ld as usize]);
    operands.extend_from_slice(&ub.operands[ud as usize..]);
    operands.extend_from_slice(&lb.operands[ld as usize..]);
    let (map, operands) = match canonicalize_map_and_operands(ctx, body, &map, &operands) {
        Some((m, o)) => (m, o),
        None => (map.simplify(), operands),
    };
    let results: Vec<AffineExpr> = map.results().iter().map(|e| e.ceil_div_const(step)).collect();
    Some(MapAndOperands {
        map: AffineMap::new(map.num_dims(), map.num_symbols(), results),
        operands,
    })
}

/// The trip count of `for_op` when it is a known constant (the smallest of
/// the trip count map's results, all constants), as MLIR's
/// `getConstantTripCount` gives it (a negative constant reads as a large
/// unsigned number, as there).
pub fn constant_trip_count(ctx: &Context, body: &Body, for_op: AffineForOp) -> Option<u64> {
    let tc = trip_count_map(ctx, body, for_op)?;
    let mut out: Option<u64> = None;
    for r in tc.map.results() {
        let c = r.as_constant()? as u64;
        out = Some(out.map_or(c, |o| o.min(c)));
    }
    out
}

/// The largest number known to divide the trip count of `for_op` (MLIR's
/// `getLargestDivisorOfTripCount`): the gcd over the trip count map's
/// results of the constant (`u64::MAX` for 0) or the expression's largest
/// known divisor; 1 without a trip count map.
pub fn largest_divisor_of_trip_count(ctx: &Context, body: &Body, for_op: AffineForOp) -> u64 {
    let Some(tc) = trip_count_map(ctx, body, for_op) else {
        return 1;
    };
    let mut gcd: Option<u64> = None;
    for r in tc.map.results() {
        let this = match r.as_constant() {
            Some(0) => u64::MAX,
            Some(c) => c as u64,
            None => r.get_largest_known_divisor() as u64,
        };
        gcd = Some(gcd.map_or(this, |g| gcd_u64(g, this)));
    }
    gcd.unwrap_or(1)
}

fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

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
) -> Option<MapAndOperands> {
    let tc = trip_count_map(b.ctx(), b.body(), for_op)?;
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
    Some(MapAndOperands { map, operands })
}
