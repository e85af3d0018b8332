//! Workgroup (shared-memory) buffers added to a launch by the kernel
//! passes that stage global data: `coalesce-via-shared` and
//! `gpu-promote-shared`, and the bytes of memrefs for the shared-memory
//! budgets of those passes and `block-merge`.

use crate::affine::utils::memory_footprint::element_bytes;
use crate::gpu::{AddressSpace, GpuLaunchOp};
use lf_ir::builder::Builder;
use lf_ir::view::Ir;
use lf_ir::{TypeData, Value};

/// The bytes of an element of the memref `m` (8, the widest scalar, when
/// its element type has no size: `index`; a budget then errs on the safe
/// side).
pub fn memref_element_bytes<'c>(ir: &impl Ir<'c>, m: Value) -> i64 {
    let ctx = ir.ctx();
    match ctx.type_data(ir.body().value_type(m)) {
        TypeData::MemRef { element, .. } => element_bytes(ctx, *element).map_or(8, |b| b as i64),
        _ => 8,
    }
}

/// The bytes of the memref `m` (its static shape times its element's
/// bytes; 0 for a value that is not a memref).
pub fn memref_bytes<'c>(ir: &impl Ir<'c>, m: Value) -> i64 {
    match ir.ctx().type_data(ir.body().value_type(m)) {
        TypeData::MemRef { shape, .. } => shape
            .iter()
            .fold(memref_element_bytes(ir, m), |acc, &d| acc.saturating_mul(d.max(1))),
        _ => 0,
    }
}

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
