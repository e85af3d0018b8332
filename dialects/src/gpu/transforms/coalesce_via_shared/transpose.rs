//! Case A with `idx` in a higher dimension and `idy` in the innermost one
//! (DIGEST §004.4-§004.6): the transpose tile. A load
//! `A[.. idx + e ..][idy + f]` with no loop index is not coalesced (the 16
//! lanes of a half-warp read 16 rows). The segments
//! `A[(idx - tidx) + e + l][(idy - tidy) + f + t]`, `l, t < T`, form a
//! `T x T` tile that the `T` neighbouring y-blocks of a `T x 1` block would
//! share (§004.5: the segments overlap along y), so the conversion and the
//! y-block merge that realises the reuse are one step: the block becomes
//! `T x T`, each thread loads one element of the tile coalesced
//! (`sT[tidy][tidx] = A[.. idx - tidx + tidy ..][idy - tidy + tidx]`), a
//! barrier, and the access reads the transposed element `sT[tidx][tidy]`.
//! Each tile element is loaded once and read once by the merged block (`T²`
//! reads of `T²` elements); every element off the diagonal is read by a
//! thread other than the one that loaded it.
//!
//! Under a bound guard (`affine.if` on `idx` and `idy` in the kernel body,
//! as `gpu-map-loops` adds when an extent is not a multiple of the block),
//! the loader and the barrier go before the guard: the loader under a copy
//! of the guard evaluated at the mirrored thread's ids (`idx - tidx + tidy`,
//! `idy - tidy + tidx`: the thread that reads the element this one loads),
//! the barrier unconditional, the read inside the guard. A thread loads an
//! element exactly when the thread that reads it passes its guard.
//!
//! When the threads along x or y (grid times block) are not a multiple of
//! `T`, the grid is rounded up if every memory access of the kernel is
//! under a bound guard in its body (the other ops there free of memory
//! effects, the guards without results or else blocks): each guard gets `idx < X`, `idy < Y` (the old extents) added,
//! so the extra threads only take part in the loaders (for their mirrored
//! threads) and the barriers.

use crate::affine::{AffineApplyOp, AffineIfOp, AffineLoadOp, AffineStoreOp};
use crate::gpu::analysis::kernel_access::{linearize, KernelAccess, LaunchIds, LinearIndex, MemorySpace, Term};
use crate::gpu::{GpuBarrierOp, GpuLaunchOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::{Ir, OpView, ValueList};
use lf_ir::Value;

/// The bound guard around a converted load.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The `affine.if` (directly in the kernel body; the load in its then
    /// block).
    pub if_op: AffineIfOp,
    /// Per operand of the guard, `k` such that the operand at the mirrored
    /// thread is `v + k·(tidx - tidy)` (`k = cy - cx` for `v = cx·idx +
    /// cy·idy + uniform terms`).
    pub shifts: Vec<i64>,
}

/// One load converted through a transposed tile.
#[derive(Clone, Debug)]
pub struct TransposeTile {
    /// The `affine.load`.
    pub load: AffineLoadOp,
    /// The subscript holding `idx` (a higher one than the innermost, which
    /// holds `idy`).
    pub dim: usize,
    /// The bound guard the load sits under, if any.
    pub guard: Option<Guard>,
}

/// The coefficient `c` of the absolute id along `d` when the `d` terms of
/// `l` are `c·(bid·B + tid)` (`c·bid` when the block has one thread along
/// `d`): `Some(0)` when `l` does not use `d`, `None` when the block and
/// thread ids occur other than through the absolute id.
pub fn absolute_coef(l: &LinearIndex, ids: &LaunchIds, d: usize) -> Option<i64> {
    let (t, b) = (l.coef(Term::Thread(d)), l.coef(Term::Block(d)));
    match ids.block_size[d]? {
        1 => Some(b),
        bs if b == bs.checked_mul(t)? => Some(t),
        _ => None,
    }
}

/// The subscript holding `idx` when `acc` has the transpose shape: every
/// subscript linear, no loop index, `idx` (coefficient 1) in exactly one
/// subscript above the innermost and without `idy`, `idy` (coefficient 1)
/// in the innermost without `idx`, no x or y id in the other subscripts.
pub fn transpose_shape(acc: &KernelAccess, ids: &LaunchIds) -> Option<usize> {
    if acc.is_store || acc.space != MemorySpace::Global {
        return None;
    }
    let subs: Vec<&LinearIndex> = acc.subscripts.iter().map(|s| s.linear()).collect::<Option<_>>()?;
    let rank = subs.len();
    if rank < 2
        || subs
            .iter()
            .any(|s| s.terms.iter().any(|(t, _)| matches!(t, Term::Loop(_))))
    {
        return None;
    }
    let inner = subs[rank - 1];
    if absolute_coef(inner, ids, 1)? != 1 || inner.uses_dim(0) {
        return None;
    }
    let with_x: Vec<usize> = (0..rank - 1).filter(|&k| subs[k].uses_dim(0)).collect();
    let [h] = with_x.as_slice() else {
        return None;
    };
    if absolute_coef(subs[*h], ids, 0)? != 1 || subs[*h].uses_dim(1) {
        return None;
    }
    if (0..rank - 1).any(|k| k != *h && subs[k].uses_dim(1)) {
        return None;
    }
    Some(*h)
}

/// The reuse rule (§004.5) for a `tile x tile` transposed tile read by the
/// merged `tile x tile` block: it loads `tile²` elements, its threads read
/// `tile²` distinct ones, each once; it passes when the reads are at least
/// the loads and more than one element is read, as for case B.
pub fn transpose_reused(tile: i64) -> bool {
    // Thread (tx, ty) reads element (tx, ty) of the transposed tile: the
    // reads are the tile's elements, each once.
    let loaded = tile * tile;
    let (reads, distinct) = (loaded, loaded);
    reads >= loaded && distinct >= 2
}

/// Whether the transpose-shaped load `acc` (subscript `dim` holding `idx`)
/// can be converted: directly in the kernel body (a barrier there is
/// reached by every thread) or in the then block of a bound guard there
/// (an `affine.if` whose operands are affine in `idx` and `idy`, the load's
/// indices defined before it), an array the kernel does not write, the
/// reuse rule. The rows need not be aligned: a misaligned row of 16 floats
/// touches at most one more 32-byte sector (one more 64-byte segment on the
/// seed's GPU), against 16 rows when not converted.
pub fn plan_transpose<'c>(
    ir: &impl Ir<'c>,
    ids: &LaunchIds,
    acc: &KernelAccess,
    dim: usize,
    all: &[KernelAccess],
    tile: i64,
) -> Result<TransposeTile, String> {
    let load = AffineLoadOp::cast(ir, acc.op).ok_or("case A (transposed tile): not an affine.load")?;
    let body = ir.body();
    let parent = body.parent_op(acc.op).ok_or("a load outside any op")?;
    let guard = if parent == ids.launch {
        None
    } else {
        Some(guard_of(ir, ids, load, parent)?)
    };
    if all.iter().any(|a| a.is_store && a.memref == acc.memref) {
        return Err("case A (transposed tile): the kernel also writes this array".into());
    }
    if !transpose_reused(tile) {
        return Err("the data loaded to shared memory would not be reused (§004.5)".into());
    }
    Ok(TransposeTile { load, dim, guard })
}

/// The bound guard `parent` of `load`, when the loader can be hoisted out
/// of it.
fn guard_of<'c>(ir: &impl Ir<'c>, ids: &LaunchIds, load: AffineLoadOp, parent: lf_ir::OpId) -> Result<Guard, String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let inside = |what: &str| {
        format!(
            "case A (transposed tile) inside '{}'{what}: only loads directly in the kernel body or under a bound guard there are converted (the barrier must be reached by every thread of the block)",
            ctx.op_name_str(body.op_name(parent))
        )
    };
    let Some(if_op) = AffineIfOp::cast(ir, parent) else {
        return Err(inside(""));
    };
    if body.parent_op(parent) != Some(ids.launch) {
        return Err(inside(" nested in other ops"));
    }
    if body.op_block(load.op()) != Some(if_op.then_block(ir)) {
        return Err(inside(" (its else block)"));
    }
    if load.indices(ir).iter().any(|&v| body.is_defined_inside(v, parent)) {
        return Err(inside(" with indices computed under it"));
    }
    let mut shifts = Vec::new();
    for v in if_op.operands(ir).iter() {
        let s = linearize(ctx, body, ids, *v);
        let k = s.linear().and_then(|l| {
            if l.terms.iter().any(|(t, _)| matches!(t, Term::Loop(_))) {
                return None;
            }
            Some(absolute_coef(l, ids, 1)? - absolute_coef(l, ids, 0)?)
        });
        match k {
            Some(k) => shifts.push(k),
            None => return Err(inside(" whose operands are not affine in idx and idy")),
        }
    }
    Ok(Guard { if_op, shifts })
}

/// Whether every op directly in the kernel body of `launch` is free of
/// memory effects (no regions), a guard (`affine.if` without results and
/// without an else block that does something) or the terminator: extra
/// threads that fail every guard then do nothing.
pub fn only_guarded_effects<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> bool {
    let (ctx, body) = (ir.ctx(), ir.body());
    let Some(block) = body.regions_body(launch.op()).entry_block(launch.body(ir)) else {
        return false;
    };
    body.block_ops(block).all(|op| {
        if let Some(g) = AffineIfOp::cast(ir, op) {
            // An else block would run for the threads the added bounds
            // exclude.
            let empty_else = g.else_block(ir).is_none_or(|e| body.first_op(e) == body.terminator(e));
            return body.num_results(op) == 0 && empty_else;
        }
        if body.num_regions(op) != 0 {
            return false;
        }
        body.terminator(block) == Some(op) || lf_ir::interfaces::is_memory_effect_free(ctx, body, op)
    })
}

/// Adds `idx <= X - 1` and `idy <= Y - 1` (`extents = [X, Y]`, the threads
/// before a rounded-up re-blocking to a `T x T` block) to every guard
/// directly in the kernel body, keeping the extra threads out of them;
/// the guards of `tiles` get the shifts of the two new operands.
pub fn exclude_extra_threads(b: &mut Builder<'_>, launch: GpuLaunchOp, extents: [i64; 2], tiles: &mut [TransposeTile]) {
    let block = b
        .body()
        .regions_body(launch.op())
        .entry_block(launch.body(b))
        .expect("a launch has a body");
    let guards: Vec<AffineIfOp> = b
        .body()
        .block_ops(block)
        .filter_map(|op| AffineIfOp::cast(b, op))
        .collect();
    if guards.is_empty() {
        return;
    }
    let Some(first) = b.body().first_op(block) else {
        return;
    };
    let [tidx, tidy, _] = launch.thread_ids(b);
    let [bidx, bidy, _] = launch.block_ids(b);
    let t = ids_side(b, launch);
    b.set_insertion_point_before(first);
    b.set_loc_of(launch.op());
    let absolute = AffineMap::new(2, 0, vec![AffineExpr::dim(0).mul_const(t[0]).add(&AffineExpr::dim(1))]);
    let idx = AffineApplyOp::build(b, &[bidx, tidx], absolute.clone()).result(b);
    let absolute = AffineMap::new(2, 0, vec![AffineExpr::dim(0).mul_const(t[1]).add(&AffineExpr::dim(1))]);
    let idy = AffineApplyOp::build(b, &[bidy, tidy], absolute).result(b);
    for g in guards {
        let set = g.condition(b).clone();
        let (nd, ns) = (set.num_dims(), set.num_symbols());
        let mut constraints = set.constraints().to_vec();
        let mut eq = set.eq_flags().to_vec();
        constraints.push(AffineExpr::dim(nd).mul_const(-1).add_const(extents[0] - 1));
        constraints.push(AffineExpr::dim(nd + 1).mul_const(-1).add_const(extents[1] - 1));
        eq.extend([false, false]);
        let operands: Vec<Value> = g.operands(b).iter().copied().collect();
        let (dims, syms) = operands.split_at(nd as usize);
        let mut new_operands = dims.to_vec();
        new_operands.extend([idx, idy]);
        new_operands.extend_from_slice(syms);
        g.set_condition(b, lf_ir::affine::IntegerSet::new(nd + 2, ns, constraints, eq));
        g.set_operands(b, &new_operands);
        for tile in tiles.iter_mut() {
            if let Some(tg) = tile.guard.as_mut().filter(|tg| tg.if_op == g) {
                // Mirrored: idx - tidx + tidy, idy + tidx - tidy.
                let at = nd as usize;
                tg.shifts.splice(at..at, [-1, 1]);
            }
        }
    }
}

/// The block size of `launch` along x and y, as constants.
fn ids_side(b: &Builder<'_>, launch: GpuLaunchOp) -> [i64; 2] {
    let ids = LaunchIds::of(b, launch);
    [ids.block_size[0].unwrap_or(1), ids.block_size[1].unwrap_or(1)]
}

/// Replaces the load of `t` by the loader `buf[tidy][tidx] = A[.. idx -
/// tidx + tidy ..][idy - tidy + tidx]`, a `gpu.barrier` and the read
/// `buf[tidx][tidy]`: at the load's position, or with a guard, the loader
/// under the mirrored guard and the barrier before the guard. Run after the
/// re-blocking to the `T x T` block (the load's indices are then on the new
/// ids).
pub fn rewrite_transpose(b: &mut Builder<'_>, launch: GpuLaunchOp, t: &TransposeTile, buf: Value) {
    let load = t.load;
    let map = load.map(b).clone();
    let (nd, ns) = (map.num_dims(), map.num_symbols());
    let rank = map.num_results();
    let indices: Vec<Value> = load.indices(b).to_vec();
    let (dims, syms) = indices.split_at(nd as usize);
    let memref = load.memref(b);
    let [tidx, tidy, _] = launch.thread_ids(b);
    let (tx, ty) = (AffineExpr::dim(nd), AffineExpr::dim(nd + 1));
    let mut results = map.results().to_vec();
    results[t.dim] = results[t.dim].sub(&tx).add(&ty);
    results[rank - 1] = results[rank - 1].sub(&ty).add(&tx);
    let loader_map = AffineMap::new(nd + 2, ns, results);
    let mut operands = dims.to_vec();
    operands.push(tidx);
    operands.push(tidy);
    operands.extend_from_slice(syms);
    let identity = AffineMap::get_multi_dim_identity(2);
    let emit_loader = |b: &mut Builder<'_>| {
        let v = AffineLoadOp::build(b, memref, &operands, loader_map.clone()).result(b);
        AffineStoreOp::build(b, v, buf, &[tidy, tidx], identity.clone());
    };
    match &t.guard {
        None => {
            b.set_insertion_point_before(load.op());
            b.set_loc_of(load.op());
            emit_loader(b);
        }
        Some(g) => {
            b.set_insertion_point_before(g.if_op.op());
            b.set_loc_of(load.op());
            let condition = g.if_op.condition(b).clone();
            let guard_operands: Vec<Value> = g.if_op.operands(b).iter().copied().collect();
            let mirrored: Vec<Value> = guard_operands
                .iter()
                .zip(&g.shifts)
                .map(|(&v, &k)| {
                    if k == 0 {
                        return v;
                    }
                    let e = AffineExpr::dim(0)
                        .add(&AffineExpr::dim(1).mul_const(k))
                        .sub(&AffineExpr::dim(2).mul_const(k));
                    AffineApplyOp::build(b, &[v, tidx, tidy], AffineMap::new(3, 0, vec![e])).result(b)
                })
                .collect();
            AffineIfOp::build(
                b,
                condition,
                &mirrored,
                &[],
                |b| {
                    emit_loader(b);
                    ValueList::new()
                },
                None,
            );
        }
    }
    GpuBarrierOp::build(b);
    b.set_insertion_point_before(load.op());
    b.set_loc_of(load.op());
    let new = AffineLoadOp::build(b, buf, &[tidx, tidy], identity.clone()).result(b);
    let old = load.result(b);
    b.replace_all_uses_with(old, new);
    b.erase_op(load.op());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transposed_tile_is_reused() {
        assert!(transpose_reused(16));
        assert!(transpose_reused(32));
        assert!(!transpose_reused(1));
    }
}
