//! Loop utilities for moving computation between loop nests (fusion): the
//! perfectly nested band of a nest, promoting a loop that runs once,
//! giving a cloned loop a slice's bounds, and redirecting an access to a
//! smaller buffer with its subscripts shifted.

use super::loop_bands::perfectly_nested_loops;
use crate::affine::ir::AffineBound;
use crate::affine::{AffineApplyOp, AffineForOp, AffineLoadOp, AffineStoreOp, AffineYieldOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{Body, Context, OpId, Value};

/// The perfectly nested band starting at `root`
/// ([`perfectly_nested_loops`]), ended before the first inner loop with
/// results (`iter_args`).
pub fn perfect_band(ctx: &Context, body: &Body, root: AffineForOp) -> Vec<AffineForOp> {
    let mut band = perfectly_nested_loops(&(ctx, body), root);
    let end = band[1..]
        .iter()
        .position(|l| body.num_results(l.op()) != 0)
        .map_or(band.len(), |k| k + 1);
    band.truncate(end);
    band
}

/// `d0 + c` as a one-dimensional map.
pub fn shifted_dim_map(c: i64) -> AffineMap {
    AffineMap::new(1, 0, vec![AffineExpr::dim(0) + c])
}

/// The value `v + c` at the builder's insertion point (`v` itself when `c`
/// is 0, else an `affine.apply`).
pub fn shifted_value(b: &mut Builder<'_>, v: Value, c: i64) -> Value {
    if c == 0 {
        return v;
    }
    let apply = AffineApplyOp::build(b, &[v], shifted_dim_map(c));
    apply.result(b)
}

/// Replaces `for_op`, which runs exactly once with its induction variable
/// equal to `iv_value` (a value defined before the loop), by its body:
/// the body's ops move before the loop, the induction variable's uses go to
/// `iv_value`, and the loop is erased. The loop must carry no values.
pub fn promote_single_iteration(b: &mut Builder<'_>, for_op: AffineForOp, iv_value: Value) {
    let iv = for_op.iv(b);
    b.replace_all_uses_with(iv, iv_value);
    let block = for_op.region_block(b);
    let ops: Vec<OpId> = b.body().block_ops(block).collect();
    for op in ops {
        if AffineYieldOp::isa(b, op) {
            continue;
        }
        b.move_op_before(op, for_op.op());
    }
    b.erase_op(for_op.op());
}

/// Sets the bounds of `for_op` to the slice `[max(lb, v + lo), min(ub, v +
/// hi + 1))` of its constant range `[lb, ub)`, leaving out the constant
/// side where it cannot bind (`clip_lb`, `clip_ub` false).
pub fn set_slice_bounds(
    b: &mut Builder<'_>,
    for_op: AffineForOp,
    v: Value,
    (lo, hi): (i64, i64),
    (lb, ub): (i64, i64),
    (clip_lb, clip_ub): (bool, bool),
) {
    let mut lbs = vec![AffineExpr::dim(0) + lo];
    if clip_lb {
        lbs.push(AffineExpr::constant(lb));
    }
    let mut ubs = vec![AffineExpr::dim(0) + (hi + 1)];
    if clip_ub {
        ubs.push(AffineExpr::constant(ub));
    }
    for_op.set_lower_bound(b, AffineBound::map(AffineMap::new(1, 0, lbs), &[v]));
    for_op.set_upper_bound(b, AffineBound::map(AffineMap::new(1, 0, ubs), &[v]));
}

/// Redirects the affine load or store `op` to `memref`, subtracting
/// `offsets[r]` (a value plus a constant, or a constant alone) from
/// subscript `r`. The values are added to the map's dimensions where the
/// access does not use them yet.
pub fn redirect_access(b: &mut Builder<'_>, op: OpId, memref: Value, offsets: &[(Option<Value>, i64)]) {
    let (map, mut operands) = if let Some(l) = AffineLoadOp::cast(b, op) {
        (l.map(b).clone(), l.indices(b).to_vec())
    } else if let Some(s) = AffineStoreOp::cast(b, op) {
        (s.map(b).clone(), s.indices(b).to_vec())
    } else {
        return;
    };
    let (nd, ns) = (map.num_dims(), map.num_symbols());
    let mut dims: Vec<Value> = operands[..nd as usize].to_vec();
    let syms: Vec<Value> = operands[nd as usize..].to_vec();
    let mut results = Vec::new();
    for (r, e) in map.results().iter().enumerate() {
        let (v, c) = offsets[r];
        let mut ne = e.clone() - c;
        if let Some(v) = v {
            let pos = match dims.iter().position(|d| *d == v) {
                Some(p) => p as u32,
                None => {
                    dims.push(v);
                    (dims.len() - 1) as u32
                }
            };
            ne = ne - AffineExpr::dim(pos);
        }
        results.push(ne);
    }
    // Symbols keep their positions: the new dimensions go after the old ones.
    let new_nd = dims.len() as u32;
    let new_map = AffineMap::new(new_nd, ns, results).simplify();
    operands = dims;
    operands.extend(syms);
    if let Some(l) = AffineLoadOp::cast(b, op) {
        l.set_memref(b, memref);
        l.set_indices(b, &operands);
        l.set_map(b, new_map);
    } else if let Some(s) = AffineStoreOp::cast(b, op) {
        s.set_memref(b, memref);
        s.set_indices(b, &operands);
        s.set_map(b, new_map);
    }
}
