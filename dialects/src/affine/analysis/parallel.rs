//! Whether the iterations of an `affine.for` may run in parallel as far as
//! memory is concerned (MLIR's `isLoopMemoryParallel`).

use super::alias::distinct_memrefs;
use super::domain::nesting_depth;
use super::{DependenceResult, MemRefAccesses, Precision};
use crate::affine::{AffineForOp, AffineIfOp, AffineLoadOp, AffineStoreOp, AffineYieldOp};
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::types::TypeData;
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, Value};

/// Whether `op`'s only effects are allocations (of `v` when given):
/// MLIR's `hasSingleEffect<MemoryEffects::Allocate>`.
fn only_allocates(ctx: &Context, body: &Body, op: OpId, v: Option<Value>) -> bool {
    match memory_effects(ctx, body, op) {
        Some(effects) if !effects.is_empty() => effects
            .iter()
            .all(|e| e.effect == Effect::Alloc && (v.is_none() || e.value == v)),
        _ => false,
    }
}

/// Whether `v` is allocated by an op nested inside `loop_op`.
fn locally_allocated(ctx: &Context, body: &Body, v: Value, loop_op: OpId) -> bool {
    match body.defining_op(v) {
        Some(def) => def != loop_op && body.is_ancestor(loop_op, def) && only_allocates(ctx, body, def, Some(v)),
        None => false,
    }
}

fn effect_free(ctx: &Context, body: &Body, op: OpId) -> bool {
    memory_effects(ctx, body, op).is_some_and(|e| e.is_empty())
}

/// Why the iterations of a loop may not run in parallel as far as memory
/// goes (the first reason [`parallel_blocker`] finds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParallelBlocker {
    /// The op is not an `affine.for`, or it yields a memref.
    NotAnalyzable,
    /// An op inside has memory effects the analysis does not look into (a
    /// call, a `memref.load`, ...).
    OpaqueEffects(OpId),
    /// A dependence between two accesses may be carried by the loop.
    Dependence {
        /// The source access.
        src: OpId,
        /// The destination access.
        dst: OpId,
        /// The check's answer (found, or undecided with a reason).
        result: DependenceResult,
    },
}

/// MLIR's `isLoopMemoryParallel`: no memref result, no op with unknown or
/// non-allocation effects other than affine accesses, and no dependence at
/// the loop's depth between any two accesses of memrefs not allocated in
/// the loop.
pub(crate) fn is_loop_memory_parallel(
    accesses: &MemRefAccesses,
    ctx: &Context,
    body: &Body,
    for_op: OpId,
    precision: Precision,
) -> bool {
    parallel_blocker(accesses, ctx, body, for_op, precision).is_none()
}

/// The first reason why `for_op`'s iterations may not be independent as
/// far as memory goes, or `None` when they are (see
/// [`is_loop_memory_parallel`]).
pub fn parallel_blocker(
    accesses: &MemRefAccesses,
    ctx: &Context,
    body: &Body,
    for_op: OpId,
    precision: Precision,
) -> Option<ParallelBlocker> {
    let ir = (ctx, body);
    let Some(f) = AffineForOp::cast(&ir, for_op) else {
        return Some(ParallelBlocker::NotAnalyzable);
    };
    if f.results(&ir).iter().any(|&r| {
        matches!(
            ctx.type_data(body.value_type(r)),
            TypeData::MemRef { .. } | TypeData::UnrankedMemRef { .. }
        )
    }) {
        return Some(ParallelBlocker::NotAnalyzable);
    }
    let mut ops = Vec::new();
    let mut opaque = None;
    walk(body, for_op, WalkOrder::PostOrder, &mut |body, op| {
        let ir = (ctx, body);
        if let Some(l) = AffineLoadOp::cast(&ir, op) {
            if !locally_allocated(ctx, body, l.memref(&ir), for_op) {
                ops.push((op, l.memref(&ir), false));
            }
        } else if let Some(s) = AffineStoreOp::cast(&ir, op) {
            if !locally_allocated(ctx, body, s.memref(&ir), for_op) {
                ops.push((op, s.memref(&ir), true));
            }
        } else if !AffineForOp::isa(&ir, op)
            && !AffineYieldOp::isa(&ir, op)
            && !AffineIfOp::isa(&ir, op)
            && !only_allocates(ctx, body, op, None)
            && !effect_free(ctx, body, op)
        {
            opaque = Some(op);
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    if let Some(op) = opaque {
        return Some(ParallelBlocker::OpaqueEffects(op));
    }
    let depth = nesting_depth(ctx, body, for_op) + 1;
    // MLIR checks every ordered pair and stops at the first dependence;
    // the answer does not depend on the order, so the pairs most likely to
    // depend go first: a store with itself (it writes one element in two
    // iterations whenever its subscripts do not tell the iterations apart).
    // Pairs of distinct memrefs or of two loads have no dependence (the
    // check's first answer), so they are skipped before the check builds
    // the accesses' relations.
    let self_pairs = ops.iter().filter(|a| a.2).map(|&a| (a, a));
    let other_pairs = ops
        .iter()
        .flat_map(|&a| ops.iter().map(move |&b| (a, b)))
        .filter(|(a, b)| a.0 != b.0 || !a.2);
    let candidates = self_pairs
        .chain(other_pairs)
        .filter(|(a, b)| (a.2 || b.2) && !distinct_memrefs(ctx, body, a.1, b.1));
    for ((a, ..), (b, ..)) in candidates {
        let r = accesses.check(ctx, body, a, b, depth, precision, false);
        if !matches!(r, DependenceResult::NoDependence) {
            return Some(ParallelBlocker::Dependence {
                src: a,
                dst: b,
                result: r,
            });
        }
    }
    None
}
