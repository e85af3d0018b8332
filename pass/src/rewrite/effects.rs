//! Side effects as the rewriting drivers and transforms see them: which ops
//! may be erased when unused, and which may be moved (speculated).
//!
//! lf's op declarations carry `PURE` and `MEMORY_EFFECTS` traits. An op with
//! neither is treated as having unknown effects, except the ops with
//! `RECURSIVE_MEMORY_EFFECTS` (structured control flow), whose effects are
//! those of the ops in their regions (MLIR's `RecursiveMemoryEffects`).
//! `MEMORY_READ` and `MEMORY_ALLOC` mark ops whose only effect is reading
//! memory or allocating their result: they are dead when unused.

use lf_ir::attrs::AttrData;
use lf_ir::{Body, Context, OpId, Traits};

fn traits(ctx: &Context, body: &Body, op: OpId) -> Traits {
    ctx.op_def(body.op_name(op)).map_or(Traits::NONE, |d| d.traits)
}

/// Whether `op` has no side effects: `PURE`, or recursive effects with only
/// effect-free ops nested.
pub fn is_effect_free(ctx: &Context, body: &Body, op: OpId) -> bool {
    let t = traits(ctx, body, op);
    t.contains(Traits::PURE)
        || (t.contains(Traits::RECURSIVE_MEMORY_EFFECTS) && all_nested(ctx, body, op, is_effect_free))
}

/// Whether every op directly in the regions of `op` satisfies `holds`.
fn all_nested(ctx: &Context, body: &Body, op: OpId, holds: fn(&Context, &Body, OpId) -> bool) -> bool {
    let rb = body.regions_body(op);
    body.regions(op)
        .iter()
        .all(|&r| rb.region_blocks(r).all(|b| rb.block_ops(b).all(|o| holds(ctx, rb, o))))
}

/// Ops whose only effect is reading memory.
pub fn is_read_only(ctx: &Context, body: &Body, op: OpId) -> bool {
    traits(ctx, body, op).contains(Traits::MEMORY_READ)
}

/// Whether the effects of `op`, and of the ops nested in it when its
/// effects are theirs, are at most reads and allocations of their own
/// results: what MLIR's `wouldOpBeTriviallyDead` lets go.
fn only_reads_or_allocates(ctx: &Context, body: &Body, op: OpId) -> bool {
    let t = traits(ctx, body, op);
    t.contains(Traits::PURE)
        || t.contains(Traits::MEMORY_ALLOC)
        || t.contains(Traits::MEMORY_READ)
        || (t.contains(Traits::RECURSIVE_MEMORY_EFFECTS) && all_nested(ctx, body, op, only_reads_or_allocates))
}

/// MLIR's `isOpTriviallyDead`: no result is used, the op is not a
/// terminator or symbol, and its effects (with those of the ops nested in
/// it, for structured control flow) are at most reads and allocations.
pub fn is_trivially_dead(ctx: &Context, body: &Body, op: OpId) -> bool {
    if body.results(op).any(|r| body.has_uses(r)) {
        return false;
    }
    let t = traits(ctx, body, op);
    if t.contains(Traits::TERMINATOR) || t.contains(Traits::SYMBOL) || ctx.op_def(body.op_name(op)).is_none() {
        return false;
    }
    only_reads_or_allocates(ctx, body, op)
}

/// Whether `op` may run where it would not have run (hoisted out of a loop
/// that might not execute): effect-free, and not a division whose divisor
/// might be zero (or `-1` for signed division), as MLIR's speculatability.
pub fn is_speculatable(ctx: &Context, body: &Body, op: OpId) -> bool {
    if !traits(ctx, body, op).contains(Traits::PURE) {
        return false;
    }
    let name = ctx.op_name_str(body.op_name(op));
    let signed = match name {
        "arith.divsi" | "arith.ceildivsi" | "arith.floordivsi" => true,
        "arith.divui" | "arith.ceildivui" | "arith.remsi" | "arith.remui" => false,
        _ => return true,
    };
    if body.num_operands(op) < 2 {
        return false;
    }
    match constant_int(ctx, body, body.operand(op, 1)) {
        Some(0) => false,
        Some(-1) => !signed,
        Some(_) => true,
        None => false,
    }
}

/// The integer value of a constant-like op's result.
pub fn constant_int(ctx: &Context, body: &Body, v: lf_ir::Value) -> Option<i128> {
    let a = crate::rewrite::constant_value(ctx, body, v)?;
    match ctx.attr_data(a) {
        AttrData::Integer { value, .. } => Some(*value),
        _ => None,
    }
}
