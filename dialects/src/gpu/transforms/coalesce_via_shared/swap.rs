//! The seed's idx/idy swap (DIGEST §004.4, case A special case): a global
//! load indexed by both `idx` and `idy` (`A[idx][idy]`) that is not
//! coalesced may become coalesced when the kernel's x and y roles are
//! exchanged — the GPU analogue of loop interchange. The swap renames
//! threads: thread `(tx, ty)` of block `(bx, by)` becomes thread `(ty, tx)`
//! of block `(by, bx)` in a launch whose grid and block sizes along x and y
//! are exchanged. Every block keeps the same set of threads, so barriers
//! and shared memory mean what they meant: the swap is always legal. It is
//! done when it strictly increases the global accesses the half-warp rule
//! finds coalesced, each weighted by how often a thread executes it, or,
//! on a tie, strictly decreases the non-coalesced stores (a transpose: the
//! non-coalesced access moves from the store to the load, which the
//! transposed tile of case A can read through shared memory; a store stays
//! as it is).

use crate::gpu::analysis::coalescing::{check_half_warp, Verdict, HALF_WARP};
use crate::gpu::analysis::kernel_access::{
    kernel_accesses, KernelAccess, LaunchIds, LinearIndex, MemorySpace, Subscript, Term,
};
use crate::gpu::transforms::kernel_merge::resize_launch;
use crate::gpu::GpuLaunchOp;
use lf_ir::builder::Builder;
use lf_ir::view::Ir;
use lf_ir::Value;

/// How often a thread executes an access whose loop has no constant trip
/// count (the seed leaves it open; as in `gpu-map-loops`' model).
const UNKNOWN_TRIP: u64 = 16;

/// `t` with x and y exchanged.
fn swapped_term(t: Term) -> Term {
    match t {
        Term::Thread(0) => Term::Thread(1),
        Term::Thread(1) => Term::Thread(0),
        Term::Block(0) => Term::Block(1),
        Term::Block(1) => Term::Block(0),
        other => other,
    }
}

/// `l` with x and y exchanged.
fn swapped_index(l: &LinearIndex) -> LinearIndex {
    let mut terms: Vec<(Term, i64)> = l.terms.iter().map(|&(t, c)| (swapped_term(t), c)).collect();
    terms.sort_by_key(|(t, _)| *t);
    LinearIndex {
        terms,
        constant: l.constant,
    }
}

/// The access as it reads after the swap.
fn swapped_access(a: &KernelAccess) -> KernelAccess {
    let mut out = a.clone();
    out.subscripts = a
        .subscripts
        .iter()
        .map(|s| match s {
            Subscript::Linear(l) => Subscript::Linear(swapped_index(l)),
            other => other.clone(),
        })
        .collect();
    out
}

/// The launch's ids after the swap (sizes exchanged).
fn swapped_ids(ids: &LaunchIds) -> LaunchIds {
    let mut out = *ids;
    out.block_size.swap(0, 1);
    out.grid_size.swap(0, 1);
    out
}

/// How often a thread executes `a`: the product of its loops' trip counts.
fn executions(a: &KernelAccess) -> u64 {
    a.loops
        .iter()
        .map(|l| l.trip_count.map_or(UNKNOWN_TRIP, |t| t.max(0) as u64))
        .fold(1u64, |acc, t| acc.saturating_mul(t))
}

/// The weighted count of global accesses that `keep` selects.
fn weight(accesses: &[KernelAccess], keep: impl Fn(&KernelAccess) -> bool) -> u64 {
    accesses
        .iter()
        .filter(|a| a.space == MemorySpace::Global && keep(a))
        .map(executions)
        .fold(0u64, |acc, w| acc.saturating_add(w))
}

/// The weighted count of coalesced global accesses.
fn coalesced_weight(accesses: &[KernelAccess], ids: &LaunchIds) -> u64 {
    weight(accesses, |a| check_half_warp(a, ids, HALF_WARP) == Verdict::Coalesced)
}

/// The weighted count of non-coalesced global stores.
fn uncoalesced_store_weight(accesses: &[KernelAccess], ids: &LaunchIds) -> u64 {
    weight(accesses, |a| {
        a.is_store && matches!(check_half_warp(a, ids, HALF_WARP), Verdict::NotCoalesced(_))
    })
}

/// Whether `a` is an access of the seed's `A[idx][idy]` kind: global, not
/// coalesced, `tidx` and `tidy` in different subscripts.
fn is_idx_idy_access(a: &KernelAccess, ids: &LaunchIds) -> bool {
    if a.space != MemorySpace::Global {
        return false;
    }
    let dim_of = |t: Term| {
        a.subscripts
            .iter()
            .position(|s| s.linear().is_some_and(|l| l.coef(t) != 0))
    };
    matches!((dim_of(Term::Thread(0)), dim_of(Term::Thread(1))), (Some(x), Some(y)) if x != y)
        && matches!(check_half_warp(a, ids, HALF_WARP), Verdict::NotCoalesced(_))
}

/// The swap decided for one launch: the coalesced weight before and after,
/// and the weight of non-coalesced stores before and after.
#[derive(Clone, Copy, Debug)]
pub struct Swap {
    /// Coalesced global accesses (weighted) before.
    pub before: u64,
    /// Coalesced global accesses (weighted) after.
    pub after: u64,
    /// Non-coalesced global stores (weighted) before.
    pub stores_before: u64,
    /// Non-coalesced global stores (weighted) after.
    pub stores_after: u64,
}

/// Whether to swap x and y in `launch`: `Ok(Some)` when an `A[idx][idy]`
/// access is not coalesced and the swap makes more accesses coalesced, or
/// as many and fewer stores non-coalesced;
/// `Ok(None)` when there is nothing to do; `Err` when a swap would help but
/// cannot be done.
pub fn plan_swap<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> Result<Option<Swap>, String> {
    let ids = LaunchIds::of(ir, launch);
    let accesses = kernel_accesses(ir, launch);
    if !accesses.iter().any(|a| is_idx_idy_access(a, &ids)) {
        return Ok(None);
    }
    let before = coalesced_weight(&accesses, &ids);
    let swapped: Vec<KernelAccess> = accesses.iter().map(swapped_access).collect();
    let after = coalesced_weight(&swapped, &swapped_ids(&ids));
    let stores_before = uncoalesced_store_weight(&accesses, &ids);
    let stores_after = uncoalesced_store_weight(&swapped, &swapped_ids(&ids));
    if after < before || (after == before && stores_after >= stores_before) {
        return Ok(None);
    }
    let constant = ids.block_size[..2]
        .iter()
        .chain(&ids.grid_size[..2])
        .all(Option::is_some);
    if !constant {
        return Err("swapping idx and idy would coalesce more accesses, but the launch sizes are not constants".into());
    }
    Ok(Some(Swap {
        before,
        after,
        stores_before,
        stores_after,
    }))
}

/// Exchanges the x and y roles of `launch`: sizes, and every use of the
/// ids and size arguments in its body.
pub fn apply_swap(b: &mut Builder<'_>, launch: GpuLaunchOp) {
    let ids = LaunchIds::of(b, launch);
    let (Some(bx), Some(by), Some(gx), Some(gy)) =
        (ids.block_size[0], ids.block_size[1], ids.grid_size[0], ids.grid_size[1])
    else {
        return;
    };
    resize_launch(b, launch, 0, gy, by);
    resize_launch(b, launch, 1, gx, bx);
    let pairs: [(Value, Value); 4] = [
        (ids.thread[0], ids.thread[1]),
        (ids.block[0], ids.block[1]),
        (ids.block_dim[0], ids.block_dim[1]),
        (ids.grid_dim[0], ids.grid_dim[1]),
    ];
    for (x, y) in pairs {
        let uses = |v: Value, b: &Builder<'_>| -> Vec<(lf_ir::OpId, usize)> {
            b.body()
                .uses(v)
                .map(|u| (b.body().use_owner(u), b.body().use_operand_index(u)))
                .collect()
        };
        let (ux, uy) = (uses(x, b), uses(y, b));
        for (op, i) in ux {
            b.modify_in_place(op, |_, body| body.set_operand(op, i, y));
        }
        for (op, i) in uy {
            b.modify_in_place(op, |_, body| body.set_operand(op, i, x));
        }
    }
}
