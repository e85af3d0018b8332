//! The constants a merged loop reads from outside its kernel, cloned into
//! the kernel.
//!
//! `gpu-kernel-outlining` passes a value defined outside a `gpu.launch` as
//! a kernel argument, as MLIR's does, so the loop bounds, steps and
//! coefficients of a merged loop reach the GPU compiler as unknowns. A
//! merged loop's control (the inner step and bounds, the outer step) is
//! then per-trip arithmetic the compiler cannot fold: on an H200 the
//! rotated SYN-LM loop is 9% faster with its constants in the kernel
//! (docs/design/loop-merge.md). Only the constants the merged loop uses
//! move, and only their uses inside the kernel: what
//! `gpu-launch-sink-index-computations` does for every constant, for the
//! loop the pass built.

use crate::arith::ArithConstantOp;
use crate::gpu::utils::launch_inputs::clone_into_body;
use crate::gpu::GpuLaunchOp;
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{OpId, Value};

/// Clones the `arith.constant`s defined outside `launch` that ops of
/// `merged` (inside it) read to the start of its body, and points every use
/// inside the kernel at the clones; returns how many were cloned.
pub fn sink_into_kernel(b: &mut Builder<'_>, launch: GpuLaunchOp, merged: OpId) -> usize {
    let mut outside: Vec<Value> = Vec::new();
    walk(b.body(), merged, WalkOrder::PreOrder, &mut |body, op| {
        for v in body.operands(op) {
            let constant = body.defining_op(v).is_some_and(|d| ArithConstantOp::isa(b, d));
            if constant && !body.is_defined_inside(v, launch.op()) && !outside.contains(&v) {
                outside.push(v);
            }
        }
        WalkControl::Advance
    });
    let ops: Vec<OpId> = outside
        .iter()
        .map(|&v| b.body().defining_op(v).expect("a constant"))
        .collect();
    clone_into_body(b, launch, &ops);
    outside.len()
}
