//! Every `memref` op built through its builder (optional attributes through
//! the setters), verified, and printed as mlir-opt 22 prints it (see
//! [`common::check`]).

mod common;

use lf_dialects::arith::ArithConstantOp;
use lf_dialects::memref::*;
use lf_ir::builder::Builder;
use lf_ir::view::ValueList;
use lf_ir::{AttrData, Context, DenseValues, Type, TypeData, Value, DYNAMIC};

/// `memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]>`
/// (aligned) and `memref.global @buf : memref<16xi32> = uninitialized`.
fn globals(b: &mut Builder<'_>, table_ty: Type) {
    let ctx = b.ctx();
    let c = ctx.common();
    let tensor = ctx.get_type(TypeData::Tensor {
        shape: [2].into(),
        element: c.f32,
        encoding: None,
    });
    let values = [1.0f32, 2.0].map(|v| u64::from(v.to_bits()));
    let init = ctx.get_attr(AttrData::DenseElements {
        ty: tensor,
        values: DenseValues::Float(values.into()),
    });
    let table = MemrefGlobalOp::build(b, "table", table_ty);
    table.set_sym_visibility(b, Some("private"));
    table.set_constant(b, true);
    table.set_initial_value(b, Some(init));
    table.set_alignment(b, Some(64));
    let buf = MemrefGlobalOp::build(b, "buf", common::memref(ctx, &[16], c.i32));
    buf.set_initial_value(b, Some(c.unit));
}

/// Allocations: static, dynamic with a layout symbol and alignment, on the stack.
fn allocations(b: &mut Builder<'_>, n: Value) {
    let ctx = b.ctx();
    let f32 = ctx.common().f32;
    let a = MemrefAllocOp::build(b, &[], &[], common::memref(ctx, &[4, 8], f32));
    let shifted = ctx.get_attr(AttrData::AffineMap(common::map("(d0)[s0] -> (d0 + s0)")));
    let dynamic = common::memref_in(ctx, &[DYNAMIC], f32, Some(shifted), None);
    let d = MemrefAllocOp::build(b, &[n], &[n], dynamic);
    d.set_alignment(b, Some(64));
    let s = MemrefAllocaOp::build(b, &[n], &[], common::memref(ctx, &[DYNAMIC], f32));
    s.set_alignment(b, Some(16));
    MemrefDeallocOp::build(b, a.memref(b));
    MemrefDeallocOp::build(b, d.memref(b));
}

/// Views of `a` (`memref<8x16xf32>`): subview, reinterpret_cast, casts, and
/// a view of an `i8` buffer.
fn views(b: &mut Builder<'_>, ctx: &Context, a: Value, i: Value, n: Value) {
    let c = ctx.common();
    let strided = ctx.get_attr(AttrData::Strided {
        strides: [16, 1].into(),
        offset: DYNAMIC,
    });
    let tile = common::memref_in(ctx, &[4, 4], c.f32, Some(strided), None);
    MemrefSubviewOp::build(b, a, &[i], &[], &[], tile, &[DYNAMIC, 0], &[4, 4], &[1, 1]);
    let rows = common::memref(ctx, &[DYNAMIC, 4], c.f32);
    MemrefReinterpretCastOp::build(b, a, &[], &[n], &[], rows, &[0], &[DYNAMIC, 4], &[4, 1]);
    let dyn_rows = MemrefCastOp::build(b, a, common::memref(ctx, &[DYNAMIC, 16], c.f32)).dest(b);
    let unranked = ctx.get_type(TypeData::UnrankedMemRef {
        element: c.f32,
        memory_space: None,
    });
    MemrefCastOp::build(b, dyn_rows, unranked);
    let bytes = MemrefAllocaOp::build(b, &[], &[], common::memref(ctx, &[2048], c.i8)).memref(b);
    let zero = ArithConstantOp::index(b, 0);
    MemrefViewOp::build(b, bytes, zero, &[n], rows);
}

#[test]
fn every_memref_op_builds_like_mlir() {
    let ctx = common::context();
    let c = ctx.common();
    let a_ty = common::memref(&ctx, &[8, 16], c.f32);
    let table_ty = common::memref(&ctx, &[2], c.f32);
    let (body, module) = common::module(&ctx, |b| {
        globals(b, table_ty);
        common::func(b, "memref", &[a_ty, a_ty, c.index, c.index], &[c.f32], |b, args| {
            let (a, a2, i, n) = (args[0], args[1], args[2], args[3]);
            allocations(b, n);
            let x = MemrefLoadOp::build(b, a, &[i, n]);
            x.set_nontemporal(b, Some(true));
            let x = x.result(b);
            MemrefStoreOp::build(b, x, a, &[n, i]);
            let st = MemrefStoreOp::build(b, x, a, &[i, i]);
            st.set_alignment(b, Some(4));
            MemrefDimOp::build(b, a, i);
            MemrefCopyOp::build(b, a, a2);
            let t = MemrefGetGlobalOp::build(b, table_ty, "table").result(b);
            views(b, &ctx, a, i, n);
            ValueList::from_slice(&[MemrefLoadOp::build(b, t, &[i]).result(b)])
        });
    });
    common::check(&ctx, &body, module, "memref");
}
