//! The values a `gpu.launch` body uses from above, in the order MLIR's
//! `getUsedValuesDefinedAbove` finds them (ops in post-order: an op's
//! regions before its own operands): the kernel's arguments after
//! outlining, and the candidates `gpu-launch-sink-index-computations` sinks.

use crate::gpu::GpuLaunchOp;
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{Body, Context, Value};
use rustc_hash::FxHashSet;

/// The values defined outside `launch` and used in its body, each once, in
/// first-use order of a post-order walk.
pub fn used_values_defined_above(ctx: &Context, body: &Body, launch: GpuLaunchOp) -> Vec<Value> {
    let ir = (ctx, body);
    let mut used: Vec<Value> = Vec::new();
    let mut seen: FxHashSet<Value> = FxHashSet::default();
    walk_regions(body, &[launch.body(&ir)], WalkOrder::PostOrder, &mut |b, x| {
        if std::ptr::eq(b, body) {
            for v in b.operands(x) {
                if !b.is_defined_inside(v, launch.op()) && seen.insert(v) {
                    used.push(v);
                }
            }
        }
        WalkControl::Advance
    });
    used
}
