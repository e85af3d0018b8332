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

use crate::affine::{AffineLoadOp, AffineStoreOp};
use crate::gpu::analysis::coalescing::HALF_WARP;
use crate::gpu::analysis::kernel_access::{KernelAccess, LaunchIds, LinearIndex, MemorySpace, Term};
use crate::gpu::{GpuBarrierOp, GpuLaunchOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::{Ir, OpView};
use lf_ir::Value;

/// One load converted through a transposed tile.
#[derive(Clone, Debug)]
pub struct TransposeTile {
    /// The `affine.load`.
    pub load: AffineLoadOp,
    /// The subscript holding `idx` (a higher one than the innermost, which
    /// holds `idy`).
    pub dim: usize,
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
    let loaded = tile * tile;
    let reads = tile * tile;
    let distinct = (0..tile)
        .flat_map(|tx| (0..tile).map(move |ty| (tx, ty)))
        .collect::<std::collections::BTreeSet<_>>()
        .len() as i64;
    reads >= loaded && distinct >= 2
}

/// Whether the transpose-shaped load `acc` (subscript `dim` holding `idx`)
/// can be converted: directly in the kernel body (a barrier there is
/// reached by every thread), an array the kernel does not write, rows of
/// the tile 16-element aligned, the reuse rule.
pub fn plan_transpose<'c>(
    ir: &impl Ir<'c>,
    ids: &LaunchIds,
    acc: &KernelAccess,
    dim: usize,
    all: &[KernelAccess],
    tile: i64,
) -> Result<TransposeTile, String> {
    let load = AffineLoadOp::cast(ir, acc.op).ok_or("case A (transposed tile): not an affine.load")?;
    let parent = ir.body().parent_op(acc.op).ok_or("a load outside any op")?;
    if parent != ids.launch {
        return Err(format!(
            "case A (transposed tile) inside '{}': only loads directly in the kernel body are converted (the barrier must be reached by every thread of the block)",
            ir.ctx().op_name_str(ir.body().op_name(parent))
        ));
    }
    if all.iter().any(|a| a.is_store && a.memref == acc.memref) {
        return Err("case A (transposed tile): the kernel also writes this array".into());
    }
    if ids.block_size[0].is_none_or(|bx| bx <= 1) {
        return Err("case A (transposed tile): one thread along x".into());
    }
    // The tile's rows: `l` moves by the stride of subscript `dim` (the
    // flat coefficient of tidx); every block-uniform term moves the tile
    // by whole 16-element segments.
    let flat = acc.flat_offset().ok_or("not row-major with static inner sizes")?;
    let stride = flat.coef(Term::Thread(0));
    if stride % HALF_WARP != 0 {
        return Err(format!(
            "case A (transposed tile): the rows are not 16-element aligned (the stride of the idx subscript is {stride})"
        ));
    }
    for &(t, c) in &flat.terms {
        if !matches!(t, Term::Thread(0 | 1) | Term::Block(0 | 1)) && c % HALF_WARP != 0 {
            return Err(format!(
                "case A (transposed tile): the rows are not 16-element aligned ({t} moves them by {c} elements)"
            ));
        }
    }
    if flat.constant % HALF_WARP != 0 {
        return Err(format!(
            "case A (transposed tile): the rows are not 16-element aligned (offset {} % 16 = {})",
            flat.constant,
            flat.constant.rem_euclid(HALF_WARP)
        ));
    }
    if !transpose_reused(tile) {
        return Err("the data loaded to shared memory would not be reused (§004.5)".into());
    }
    Ok(TransposeTile { load, dim })
}

/// Replaces the load of `t` by the loader `buf[tidy][tidx] = A[.. idx -
/// tidx + tidy ..][idy - tidy + tidx]`, a `gpu.barrier` and the read
/// `buf[tidx][tidy]`, at the load's position. Run after the re-blocking to
/// the `T x T` block (the load's indices are then on the new ids).
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
    b.set_insertion_point_before(load.op());
    b.set_loc_of(load.op());
    let identity = AffineMap::get_multi_dim_identity(2);
    let v = AffineLoadOp::build(b, memref, &operands, loader_map).result(b);
    AffineStoreOp::build(b, v, buf, &[tidy, tidx], identity.clone());
    GpuBarrierOp::build(b);
    let new = AffineLoadOp::build(b, buf, &[tidx, tidy], identity).result(b);
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
