//! Where a kernel synchronizes: the check the kernel passes make before a
//! rewrite that moves work between threads or adds barriers of its own.

use crate::gpu::GpuBarrierOp;
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId};

/// Whether `op` (or an op inside it) is a `gpu.barrier`.
pub fn contains_barrier(ctx: &Context, body: &Body, op: OpId) -> bool {
    let mut found = false;
    walk(body, op, WalkOrder::PreOrder, &mut |b, o| {
        if GpuBarrierOp::isa(&(ctx, b), o) {
            found = true;
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    found
}
