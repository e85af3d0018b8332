//! The memory writes of the ops inside a kernel loop, with `gpu.barrier`s
//! (which order memory but write nothing) left out: what `prefetch` and
//! `gpu-partition-camping` check before moving loads or reordering
//! iterations.

use crate::gpu::GpuBarrierOp;
use lf_ir::interfaces::{memory_effects, Effect, EffectInstance};
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Context, OpId};

/// The write effects of the ops nested in `op` (not `op` itself), or the
/// name of an op whose effects are unknown.
pub fn nested_writes(ctx: &Context, body: &lf_ir::Body, op: OpId) -> Result<Vec<EffectInstance>, String> {
    let mut out = Vec::new();
    let mut unknown = None;
    walk(body, op, WalkOrder::PreOrder, &mut |b, o| {
        if o == op || GpuBarrierOp::isa(&(ctx, b), o) || b.num_regions(o) > 0 {
            return WalkControl::Advance;
        }
        match memory_effects(ctx, b, o) {
            Some(effects) => out.extend(effects.into_iter().filter(|e| e.effect == Effect::Write)),
            None => {
                unknown = Some(ctx.op_name_str(b.op_name(o)).to_string());
                return WalkControl::Interrupt;
            }
        }
        WalkControl::Advance
    });
    match unknown {
        Some(name) => Err(format!("'{name}' has unknown memory effects")),
        None => Ok(out),
    }
}
