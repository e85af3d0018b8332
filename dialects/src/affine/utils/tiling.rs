//! Tiling a band of perfectly nested `affine.for` loops and strip-mining
//! one loop, with the bounds MLIR gives them (`tilePerfectlyNested` and
//! `constructTiledIndexSetHyperRect` in `Affine/Utils/LoopUtils.cpp`).
//!
//! A band `for %i = lb to ub step s` tiled by `t` becomes a tile-space loop
//! `for %it = lb to ub step s*t` around an intra-tile (point) loop
//! `for %ii = %it to UB step s`, where `UB` is
//! - `%it + tc*s` when the trip count `tc` is a known constant below `t`;
//! - `%it + t*s` when `t` divides the trip count (its largest known
//!   divisor);
//! - `min(%it + t*s, ub)` otherwise.
//!
//! The tile-space loops of the band come first, outermost first, then the
//! point loops in the same order; the band's body moves into the innermost
//! point loop, reading the point loops' induction variables. Whether the
//! reordering is legal, and whether the band is a hyper-rectangle, is the
//! caller's question ([`super::loop_bands::non_rectangular_loop`]).

use super::trip_count_bound::{constant_trip_count, largest_divisor_of_trip_count};
use crate::affine::{AffineBound, AffineForOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::{Ir, OpView, ValueList};
use lf_ir::Value;

/// The upper bound of the point loop of `orig` tiled by `size`, whose
/// tile-space loop has induction variable `tile_iv` (see the module
/// documentation); `None` when `size * step` overflows.
pub fn intra_tile_upper_bound<'c>(
    ir: &impl Ir<'c>,
    orig: AffineForOp,
    tile_iv: Value,
    size: u64,
) -> Option<AffineBound> {
    let step = orig.step(ir);
    let span = i64::try_from(size).ok()?.checked_mul(step)?;
    let shift = |c: i64| AffineBound::map(AffineMap::new(1, 0, vec![AffineExpr::dim(0).add_const(c)]), &[tile_iv]);
    if let Some(tc) = constant_trip_count(ir, orig).filter(|tc| *tc < size) {
        return Some(shift((tc as i64).checked_mul(step)?));
    }
    if largest_divisor_of_trip_count(ir, orig) % size != 0 {
        let ub = orig.upper_bound(ir);
        let nd = ub.map.num_dims();
        let mut results = vec![AffineExpr::dim(nd).add_const(span)];
        results.extend(ub.map.results().iter().cloned());
        let map = AffineMap::new(nd + 1, ub.map.num_symbols(), results);
        let mut operands: Vec<Value> = ub.operands[..nd as usize].to_vec();
        operands.push(tile_iv);
        operands.extend_from_slice(&ub.operands[nd as usize..]);
        return Some(AffineBound::map(map, &operands));
    }
    Some(shift(span))
}

/// Whether every tile size times its loop's step fits 64 bits.
pub fn tile_sizes_fit<'c>(ir: &impl Ir<'c>, band: &[AffineForOp], sizes: &[u64]) -> bool {
    band.iter()
        .zip(sizes)
        .all(|(l, s)| i64::try_from(*s).ok().and_then(|s| s.checked_mul(l.step(ir))).is_some())
}

/// Tiles the perfect band `band` (no loop-carried values, a hyper-rectangle,
/// [`tile_sizes_fit`]) by `sizes` (one per loop, each at least 1) as MLIR's
/// `tilePerfectlyNested`: returns the tile-space loops then the point loops.
pub fn tile_perfectly_nested(b: &mut Builder<'_>, band: &[AffineForOp], sizes: &[u64]) -> Vec<AffineForOp> {
    assert_eq!(band.len(), sizes.len());
    let root = band[0];
    let loc = b.body().op_loc(root.op());
    let mut tiled: Vec<AffineForOp> = Vec::with_capacity(2 * band.len());
    b.guarded(|b| {
        b.set_loc(loc);
        b.set_insertion_point_before(root.op());
        for (l, size) in band.iter().zip(sizes) {
            let step = l.step(b) * *size as i64;
            let f = AffineForOp::build(b, l.lower_bound(b), l.upper_bound(b), step, &[], |_, _, _| {
                ValueList::new()
            });
            b.set_insertion_point_before(f.yield_op(b).op());
            tiled.push(f);
        }
        for (i, (l, size)) in band.iter().zip(sizes).enumerate() {
            let tile_iv = tiled[i].iv(b);
            let ub = intra_tile_upper_bound(b, *l, tile_iv, *size).expect("tile sizes checked to fit");
            let f = AffineForOp::build(b, AffineBound::value(tile_iv), ub, l.step(b), &[], |_, _, _| {
                ValueList::new()
            });
            b.set_insertion_point_before(f.yield_op(b).op());
            tiled.push(f);
        }
        let inner = band[band.len() - 1].region_block(b);
        if let Some(first) = b.body().first_op(inner) {
            b.splice_rest_of_block(first, true);
        }
    });
    for (i, l) in band.iter().enumerate() {
        let (old, new) = (l.iv(b), tiled[band.len() + i].iv(b));
        b.replace_all_uses_with(old, new);
    }
    b.erase_op(root.op());
    tiled
}

/// Strip-mines `l` by `factor` in place: its step becomes `step * factor`
/// and a new point loop inside it, with the bounds tiling gives it
/// ([`intra_tile_upper_bound`]), runs its body. Returns the point loop, or
/// `None` (nothing changed) when `factor * step` overflows. The loop must
/// carry no values.
pub fn strip_mine(b: &mut Builder<'_>, l: AffineForOp, factor: u64) -> Option<AffineForOp> {
    let step = l.step(b);
    let iv = l.iv(b);
    let ub = intra_tile_upper_bound(b, l, iv, factor)?;
    let loc = b.body().op_loc(l.op());
    let block = l.region_block(b);
    let first = b.body().first_op(block)?;
    let inner = b.guarded(|b| {
        b.set_loc(loc);
        b.set_insertion_point_before(first);
        let inner = AffineForOp::build(b, AffineBound::value(iv), ub, step, &[], |_, _, _| ValueList::new());
        b.set_insertion_point_before(inner.yield_op(b).op());
        if first != inner.op() {
            b.splice_rest_of_block(first, true);
        }
        inner
    });
    let new_iv = inner.iv(b);
    let inner_op = inner.op();
    b.replace_uses_if(iv, new_iv, |body, user| {
        user != inner_op && body.is_ancestor(inner_op, user)
    });
    l.set_step(b, step * factor as i64);
    Some(inner)
}
