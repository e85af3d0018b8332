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

/// Clones `ops` (defined above `launch`, operands first) to the start of
/// its body, in order, and points every use inside the body at the clones:
/// what sinking a value into a kernel means (outlining then no longer
/// passes it as a kernel argument).
pub fn clone_into_body(b: &mut lf_ir::builder::Builder<'_>, launch: GpuLaunchOp, ops: &[lf_ir::OpId]) {
    let region = launch.body(b);
    let Some(entry) = b.body().entry_block(region) else {
        return;
    };
    match b.body().block_ops(entry).next() {
        Some(first) => b.set_insertion_point_before(first),
        None => b.set_insertion_point_to_end(entry),
    }
    let mut map = lf_ir::clone::ValueMap::default();
    for &op in ops {
        let clone = b.clone_op(op, &mut map);
        let pairs: Vec<(Value, Value)> = b.body().results(op).zip(b.body().results(clone)).collect();
        for (old, new) in pairs {
            b.replace_uses_if(old, new, |body, user| {
                body.is_ancestor(launch.op(), user) && user != launch.op()
            });
        }
    }
}
