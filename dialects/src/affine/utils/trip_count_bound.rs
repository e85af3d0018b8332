//! Trip counts of `affine.for` loops as MLIR computes them
//! (`getTripCountMapAndOperands`, `getConstantTripCount`,
//! `getUpperBoundOnTripCount`, `getLargestDivisorOfTripCount` in
//! `Affine/Analysis/LoopAnalysis.cpp`), and the difference of two bound
//! maps (`AffineValueMap::difference`) they are built from, as bounds
//! generic over the IR view (tiling, normalization, unrolling and
//! unroll-and-jam use them).
//!
//! Unlike [`AffineForOp::constant_trip_count`], which needs constant
//! bounds, these see through bounds whose difference is constant
//! (`affine.for %j = %i to %i + 4` runs 4 times).

use super::map_composition::canonicalize_map_and_operands;
use crate::affine::{AffineBound, AffineForOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::view::Ir;
use lf_ir::{Body, Context, Value};

/// `a - b` for two bounds with as many results (MLIR's
/// `AffineValueMap::difference`): the operands are `a`'s dimensions, `b`'s
/// dimensions, `a`'s symbols, `b`'s symbols, and the map is then fully
/// composed with its `affine.apply` producers, canonicalized and simplified.
pub fn bound_difference(ctx: &Context, body: &Body, a: &AffineBound, b: &AffineBound) -> AffineBound {
    debug_assert_eq!(a.map.num_results(), b.map.num_results());
    let (na, sa) = (a.map.num_dims() as usize, a.map.num_symbols() as usize);
    let (nb, sb) = (b.map.num_dims() as usize, b.map.num_symbols() as usize);
    let mut operands: Vec<Value> = Vec::with_capacity(a.operands.len() + b.operands.len());
    operands.extend_from_slice(&a.operands[..na]);
    operands.extend_from_slice(&b.operands[..nb]);
    operands.extend_from_slice(&a.operands[na..]);
    operands.extend_from_slice(&b.operands[nb..]);
    let b_map = b.map.shift_dims(na as u32, 0).shift_symbols(sa as u32, 0);
    let results: Vec<AffineExpr> = a
        .map
        .results()
        .iter()
        .zip(b_map.results())
        .map(|(x, y)| x.sub(y))
        .collect();
    let map = AffineMap::new((na + nb) as u32, (sa + sb) as u32, results);
    canonical(ctx, body, map, operands)
}

/// `map(operands)` fully composed, canonicalized and simplified.
pub fn canonical(ctx: &Context, body: &Body, map: AffineMap, operands: Vec<Value>) -> AffineBound {
    match canonicalize_map_and_operands(ctx, body, &map, &operands) {
        Some((m, o)) => AffineBound::map(m, &o),
        None => AffineBound::map(map, &operands),
    }
}

/// The trip count of `for_op` as a map (one result per upper bound result:
/// the loop runs the minimum of them), `None` when the lower bound has
/// several results. Constant bounds give a constant (never negative).
pub fn trip_count_map<'c>(ir: &impl Ir<'c>, for_op: AffineForOp) -> Option<AffineBound> {
    let step = for_op.step(ir);
    if let (Some(lb), Some(ub)) = (for_op.constant_lower_bound(ir), for_op.constant_upper_bound(ir)) {
        let span = ub.saturating_sub(lb).max(0);
        return Some(AffineBound::constant((span + step - 1) / step));
    }
    let (lb, ub) = (for_op.lower_bound(ir), for_op.upper_bound(ir));
    if lb.map.num_results() != 1 {
        return None;
    }
    let splat = vec![lb.map.result(0).clone(); ub.map.num_results()];
    let lb_splat = AffineBound::map(
        AffineMap::new(lb.map.num_dims(), lb.map.num_symbols(), splat),
        &lb.operands,
    );
    let diff = bound_difference(ir.ctx(), ir.body(), &ub, &lb_splat);
    let results: Vec<AffineExpr> = diff.map.results().iter().map(|r| r.ceil_div_const(step)).collect();
    let map = AffineMap::new(diff.map.num_dims(), diff.map.num_symbols(), results);
    Some(AffineBound::map(map, &diff.operands))
}

/// The constant results of the trip count map, as MLIR reads them
/// (`uint64_t`: a negative count reads as a huge one), `None` unless all
/// are constant.
fn constant_counts<'c>(ir: &impl Ir<'c>, for_op: AffineForOp) -> Option<Vec<u64>> {
    let map = trip_count_map(ir, for_op)?.map;
    map.results()
        .iter()
        .map(|r| r.as_constant().map(|c| c as u64))
        .collect()
}

/// The number of iterations when it is known (MLIR's
/// `getConstantTripCount`: the minimum of the trip count map's results when
/// all are constant).
pub fn constant_trip_count<'c>(ir: &impl Ir<'c>, for_op: AffineForOp) -> Option<u64> {
    constant_counts(ir, for_op)?.into_iter().min()
}

/// The largest constant result of the trip count map, when all are
/// constant (MLIR's `getUpperBoundOnTripCount`).
pub fn upper_bound_on_trip_count<'c>(ir: &impl Ir<'c>, for_op: AffineForOp) -> Option<u64> {
    constant_counts(ir, for_op)?.into_iter().max()
}

/// The largest number known to divide the trip count (MLIR's
/// `getLargestDivisorOfTripCount`): 1 when the trip count map cannot be
/// built; a zero trip count is divided by everything (`u64::MAX`).
pub fn largest_divisor_of_trip_count<'c>(ir: &impl Ir<'c>, for_op: AffineForOp) -> u64 {
    let Some(tc) = trip_count_map(ir, for_op) else {
        return 1;
    };
    let mut g: Option<u64> = None;
    for r in tc.map.results() {
        let this = match r.as_constant() {
            Some(0) => u64::MAX,
            Some(c) => c as u64,
            None => r.get_largest_known_divisor() as u64,
        };
        g = Some(match g {
            Some(x) => gcd(x, this),
            None => this,
        });
    }
    g.unwrap_or(1)
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
