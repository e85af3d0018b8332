//! Workgroup (shared-memory) buffers added to a launch by the kernel
//! passes that stage global data: `coalesce-via-shared` and
//! `gpu-promote-shared`.

use crate::gpu::{AddressSpace, GpuLaunchOp};
use lf_ir::builder::Builder;
use lf_ir::{TypeData, Value};

/// A new workgroup attribution of `launch` of the given `shape`, with the
/// element type of the memref `like`. The launch must have no private
/// attributions (the planners check it).
pub fn add_workgroup_buffer(b: &mut Builder<'_>, launch: GpuLaunchOp, like: Value, shape: &[i64]) -> Value {
    let ctx = b.ctx();
    let element = match ctx.type_data(b.body().value_type(like)) {
        TypeData::MemRef { element, .. } => *element,
        _ => unreachable!("staged data comes from a memref"),
    };
    let ty = ctx.get_type(TypeData::MemRef {
        shape: shape.to_vec().into_boxed_slice(),
        element,
        layout: None,
        memory_space: Some(AddressSpace::Workgroup.attr(ctx)),
    });
    launch
        .add_workgroup_attribution(b, ty)
        .unwrap_or_else(|| unreachable!("planned launches have no private attributions"))
}
