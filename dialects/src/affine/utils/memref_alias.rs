//! May two memrefs name overlapping memory? The part of MLIR's
//! `LocalAliasAnalysis` that the affine memory passes use (`affine-scalrep`
//! asks it about the memref of every op between a store and a load).
//!
//! Each memref is first traced to the value it is a view of (through ops
//! with no memory effect that take a memref and give one: `memref.subview`,
//! `memref.cast`, `memref.reinterpret_cast`, `memref.view`). Two traced
//! values cannot alias when they differ and either both are allocations
//! (results with an `Alloc` effect), or one is an allocation and the other
//! is defined outside the allocation's scope or is an entry block argument
//! of it: the enclosing function for `memref.alloc`, the closest op with
//! MLIR's `AutomaticAllocationScope` trait (`affine.for`,
//! `affine.parallel`, `scf.parallel`, `gpu.launch`, a function) for
//! `memref.alloca`. Anything else may alias. lf does not follow values
//! through the block arguments and results of region ops (MLIR does), so it
//! answers "may alias" for them: never less conservative than MLIR.

use crate::affine::{AffineForOp, AffineParallelOp};
use crate::gpu::GpuLaunchOp;
use crate::memref::MemrefAllocaOp;
use crate::scf::ScfParallelOp;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::types::TypeData;
use lf_ir::view::OpView;
use lf_ir::{Body, Context, OpId, Traits, Value, ValueDef};

/// Whether `v` has a memref type.
pub fn is_memref(ctx: &Context, body: &Body, v: Value) -> bool {
    matches!(
        ctx.type_data(body.value_type(v)),
        TypeData::MemRef { .. } | TypeData::UnrankedMemRef { .. }
    )
}

/// The value `v` is a view of: `v` itself unless an effect-free op with a
/// memref operand made it (then, that operand's underlying value).
pub fn underlying_memref(ctx: &Context, body: &Body, mut v: Value) -> Value {
    for _ in 0..64 {
        let Some(def) = body.defining_op(v) else { return v };
        if !lf_ir::interfaces::is_memory_effect_free(ctx, body, def) || !body.regions(def).is_empty() {
            return v;
        }
        match body.operands(def).find(|&o| is_memref(ctx, body, o)) {
            Some(src) => v = src,
            None => return v,
        }
    }
    v
}

/// The op whose regions bound an allocation: `Some(None)` for the function
/// (the pass's body root), `Some(Some(op))` for an op, `None` when `v` is
/// not an allocation.
fn allocation_scope(ctx: &Context, body: &Body, v: Value) -> Option<Option<OpId>> {
    let def = body.defining_op(v)?;
    let effects = memory_effects(ctx, body, def)?;
    if !effects.iter().any(|e| e.effect == Effect::Alloc && e.value == Some(v)) {
        return None;
    }
    let automatic = MemrefAllocaOp::isa(&(ctx, body), def);
    let mut cur = body.parent_op(def);
    while let Some(p) = cur {
        if is_function_like(ctx, body, p) || (automatic && is_automatic_allocation_scope(ctx, body, p)) {
            return Some(Some(p));
        }
        cur = body.parent_op(p);
    }
    Some(None)
}

fn is_function_like(ctx: &Context, body: &Body, op: OpId) -> bool {
    ctx.op_def(body.op_name(op))
        .is_some_and(|d| d.has(Traits::ISOLATED_FROM_ABOVE))
}

/// Ops with MLIR's `AutomaticAllocationScope` trait (functions aside).
fn is_automatic_allocation_scope(ctx: &Context, body: &Body, op: OpId) -> bool {
    let ir = (ctx, body);
    AffineForOp::isa(&ir, op)
        || AffineParallelOp::isa(&ir, op)
        || ScfParallelOp::isa(&ir, op)
        || GpuLaunchOp::isa(&ir, op)
}

/// The op holding the region `v` is defined in (`None`: the body's root)
/// and whether `v` is an argument of that region's entry block.
fn definition_site(body: &Body, v: Value) -> (Option<OpId>, bool) {
    match body.value_def(v) {
        ValueDef::OpResult { op, .. } => (body.parent_op(op), false),
        ValueDef::BlockArg { block, .. } => {
            let region = body.block_region(block);
            let parent = region.and_then(|r| body.region_parent(r));
            let entry = region.and_then(|r| body.entry_block(r)) == Some(block);
            (parent, entry)
        }
    }
}

/// Whether `a` is a proper ancestor of `b` (`None`: the body's root, the
/// ancestor of every op).
fn properly_encloses(body: &Body, a: Option<OpId>, b: Option<OpId>) -> bool {
    match (a, b) {
        (None, None) => false,
        (None, Some(_)) => true,
        (Some(_), None) => false,
        (Some(a), Some(b)) => a != b && body.is_ancestor(a, b),
    }
}

/// Whether the memrefs `a` and `b` may name overlapping memory (MLIR's
/// `!aliasAnalysis.alias(a, b).isNo()` with `LocalAliasAnalysis`).
pub fn may_alias(ctx: &Context, body: &Body, a: Value, b: Value) -> bool {
    let (a, b) = (underlying_memref(ctx, body, a), underlying_memref(ctx, body, b));
    if a == b {
        return true;
    }
    let (sa, sb) = (allocation_scope(ctx, body, a), allocation_scope(ctx, body, b));
    let (scope, other) = match (sa, sb) {
        (Some(_), Some(_)) => return false,
        (None, None) => return true,
        (Some(s), None) => (s, b),
        (None, Some(s)) => (s, a),
    };
    let (site, entry_arg) = definition_site(body, other);
    if properly_encloses(body, site, scope) {
        return false;
    }
    !(site == scope && entry_arg)
}
