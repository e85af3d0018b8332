//! When merging a loop with its enclosing loops is legal (DIGEST §001.4):
//! no synchronization in the nest (threads would reach a barrier in
//! different merged trips) and no exit that leaves the loops other than
//! through their own conditions. Merging never reorders the work of one
//! thread, so nothing else is needed.

use crate::affine::{AffineApplyOp, AffineLoadOp, AffineMaxOp, AffineMinOp, AffineStoreOp, AffineYieldOp};
use crate::func::FuncCallOp;
use crate::gpu::GpuBarrierOp;
use crate::scf::{ScfConditionOp, ScfYieldOp};
use lf_ir::view::{Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{OpId, Traits, Value};
use rustc_hash::FxHashSet;

/// Why the nest rooted at `outer` cannot be merged, if it cannot: a
/// barrier, a call (a `func.func` pass cannot see the callee, which may
/// synchronize), a region with several blocks, or a terminator other than
/// the structured loops' and ifs' own (an exit that leaves the loops).
pub fn check_nest<'c>(ir: &impl Ir<'c>, outer: OpId) -> Result<(), String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let mut why = None;
    walk(body, outer, WalkOrder::PreOrder, &mut |body, op| {
        let ir = (ctx, body);
        let at = crate::support::at(ctx, body, op);
        if GpuBarrierOp::isa(&ir, op) {
            why = Some(format!(
                "a gpu.barrier{at} is in the nest: threads would reach it in different merged trips"
            ));
        } else if let Some(call) = FuncCallOp::cast(&ir, op) {
            why = Some(format!(
                "the nest calls @{}{at}, which may synchronize (the callee is not visible to a func.func pass; \
inline it first)",
                call.callee(&ir)
            ));
        } else if (0..body.num_regions(op)).any(|i| body.region_blocks(body.region(op, i)).nth(1).is_some()) {
            why = Some(format!(
                "an op{at} has a region with several blocks (unstructured control flow)"
            ));
        } else if is_foreign_terminator(&ir, op) {
            why = Some(format!(
                "'{}'{at} leaves the loops other than through their conditions",
                ctx.op_name_str(body.op_name(op))
            ));
        }
        if why.is_some() {
            WalkControl::Interrupt
        } else {
            WalkControl::Advance
        }
    });
    why.map_or(Ok(()), Err)
}

/// A terminator that is not a structured region's own yield or condition.
fn is_foreign_terminator<'c>(ir: &impl Ir<'c>, op: OpId) -> bool {
    let def = ir.ctx().op_def(ir.body().op_name(op));
    def.is_some_and(|d| d.has(Traits::TERMINATOR))
        && !ScfYieldOp::isa(ir, op)
        && !ScfConditionOp::isa(ir, op)
        && !AffineYieldOp::isa(ir, op)
        && !crate::scf::ScfReduceReturnOp::isa(ir, op)
        && !crate::scf::ScfReduceOp::isa(ir, op)
}

/// The affine ops that read an induction variable in `ivs` (directly or
/// through `affine.apply`/`affine.min`/`affine.max`) as a dimension or
/// symbol, inside `root`: those that must become `memref` ops once the
/// variables are block arguments of an `scf.while` (no longer valid affine
/// dimensions). `Err` names an affine op that cannot be rewritten that way
/// (a bound of an inner `affine.for`, an `affine.if` condition, ...).
pub fn affine_users<'c>(ir: &impl Ir<'c>, root: OpId, ivs: &[Value]) -> Result<Vec<OpId>, String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let mut tainted: FxHashSet<Value> = ivs.iter().copied().collect();
    let mut work: Vec<Value> = ivs.to_vec();
    let mut rewrite = Vec::new();
    let mut seen = FxHashSet::default();
    while let Some(v) = work.pop() {
        for u in body.uses(v) {
            let user = body.use_owner(u);
            if !body.is_ancestor(root, user) || !seen.insert(user) {
                continue;
            }
            let is_affine_value =
                AffineApplyOp::isa(ir, user) || AffineMinOp::isa(ir, user) || AffineMaxOp::isa(ir, user);
            if is_affine_value {
                let r = body.result(user, 0);
                if tainted.insert(r) {
                    work.push(r);
                }
            } else if AffineLoadOp::isa(ir, user) {
                rewrite.push(user);
            } else if let Some(s) = AffineStoreOp::cast(ir, user) {
                if s.indices(ir).contains(&v) {
                    rewrite.push(user);
                } else {
                    seen.remove(&user);
                }
            } else if is_affine_dialect(ctx, body, user) && !AffineYieldOp::isa(ir, user) && !is_init_only(ir, user, v)
            {
                return Err(format!(
                    "'{}'{} uses an induction variable of the merged loops as an affine dimension or symbol",
                    ctx.op_name_str(body.op_name(user)),
                    crate::support::at(ctx, body, user)
                ));
            }
        }
    }
    rewrite.sort_unstable();
    rewrite.dedup();
    Ok(rewrite)
}

/// Whether `v` is only an initial value (`iter_args`) of `affine.for` `op`.
fn is_init_only<'c>(ir: &impl Ir<'c>, op: OpId, v: Value) -> bool {
    crate::affine::AffineForOp::cast(ir, op).is_some_and(|f| {
        let lb = f.lower_bound(ir);
        let ub = f.upper_bound(ir);
        !lb.operands.contains(&v) && !ub.operands.contains(&v)
    })
}

/// Whether `op` belongs to the affine dialect.
fn is_affine_dialect(ctx: &lf_ir::Context, body: &lf_ir::Body, op: OpId) -> bool {
    let name = ctx.op_name_str(body.op_name(op));
    name.split('.').next() == Some(crate::affine::AffineForOp::def().name.split('.').next().unwrap_or(""))
}
