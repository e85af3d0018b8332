//! Side effects as the rewriting drivers and transforms see them: which ops
//! may be erased when unused, and which may be moved (speculated). Both
//! come from the op declarations' interfaces ([`lf_ir::interfaces`]): the
//! memory effects each op declares on its operands and results (an op with
//! no declared effects and no `PURE` trait has unknown effects; ops with
//! `RECURSIVE_MEMORY_EFFECTS` have those of the ops in their regions, as
//! MLIR's `RecursiveMemoryEffects`) and speculatability.

use lf_ir::attrs::AttrData;
use lf_ir::interfaces::{all_effect_kinds, Effects};
use lf_ir::{Body, Context, OpId, Traits};

/// Whether `op` has no side effects: `PURE`, or recursive effects with only
/// effect-free ops nested.
pub fn is_effect_free(ctx: &Context, body: &Body, op: OpId) -> bool {
    lf_ir::interfaces::is_memory_effect_free(ctx, body, op)
}

/// Ops whose only effect is reading memory.
pub fn is_read_only(ctx: &Context, body: &Body, op: OpId) -> bool {
    let mut reads = false;
    let only_reads = all_effect_kinds(ctx, body, op, &mut |k| {
        reads |= !k.all().is_empty();
        Effects::READ.contains(k.all())
    });
    only_reads && reads
}

/// Whether the effects of `op`, and of the ops nested in it when its
/// effects are theirs, are at most reads and allocations of their own
/// results: what MLIR's `wouldOpBeTriviallyDead` lets go.
fn only_reads_or_allocates(ctx: &Context, body: &Body, op: OpId) -> bool {
    all_effect_kinds(ctx, body, op, &mut |k| {
        Effects::READ.contains(k.operands.with(k.other)) && Effects::READ.with(Effects::ALLOC).contains(k.results)
    })
}

/// MLIR's `isOpTriviallyDead`: no result is used, the op is not a
/// terminator or symbol, and its effects (with those of the ops nested in
/// it, for structured control flow) are at most reads and allocations.
pub fn is_trivially_dead(ctx: &Context, body: &Body, op: OpId) -> bool {
    if body.results(op).any(|r| body.has_uses(r)) {
        return false;
    }
    let Some(def) = ctx.op_def(body.op_name(op)) else {
        return false;
    };
    if def.has(Traits::TERMINATOR) || def.has(Traits::SYMBOL) {
        return false;
    }
    def.has(Traits::PURE) || only_reads_or_allocates(ctx, body, op)
}

/// Whether `op` may run where it would not have run (hoisted out of a loop
/// that might not execute): effect-free, and speculatable as its
/// declaration says (a division whose divisor might be zero, or `-1` for
/// signed division, is not).
pub fn is_speculatable(ctx: &Context, body: &Body, op: OpId) -> bool {
    lf_ir::interfaces::is_speculatable(ctx, body, op)
}

/// The integer value of a constant-like op's result.
pub fn constant_int(ctx: &Context, body: &Body, v: lf_ir::Value) -> Option<i128> {
    let a = crate::rewrite::constant_value(ctx, body, v)?;
    match ctx.attr_data(a) {
        AttrData::Integer { value, .. } => Some(*value),
        _ => None,
    }
}
