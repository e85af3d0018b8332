//! Every `func` op built through its builder, verified, and printed as
//! mlir-opt 22 prints it (see [`common::check`]).

mod common;

use lf_dialects::func::*;
use lf_ir::view::ValueList;

#[test]
fn every_func_op_builds_like_mlir() {
    let ctx = common::context();
    let c = ctx.common();
    let (body, module) = common::module(&ctx, |b| {
        // A private declaration: `build_empty` leaves the body empty.
        let decl = FuncFuncOp::build_empty(b, "decl", ctx.function_type(&[c.i32], &[c.f32]));
        decl.set_sym_visibility(b, Some("private"));
        // A function returning two values, never inlined.
        let pair = common::func(b, "pair", &[c.i32, c.f32], &[c.i32, c.f32], |_, args| {
            ValueList::from_slice(args)
        });
        pair.set_no_inline(b, true);
        common::func(b, "caller", &[c.i32, c.f32], &[c.f32], |b, args| {
            let pair_ty = ctx.function_type(&[c.i32, c.f32], &[c.i32, c.f32]);
            let x = FuncCallOp::build(b, &[args[0]], &[c.f32], "decl").results(b)[0];
            let f = FuncConstantOp::build(b, pair_ty, "pair").result(b);
            let r = FuncCallIndirectOp::build(b, f, &[args[0], x], &[c.i32, c.f32]).results(b);
            FuncCallOp::build(b, &[r[0], r[1]], &[c.i32, c.f32], "pair");
            ValueList::from_slice(&[r[1]])
        });
    });
    common::check(&ctx, &body, module, "func");
}
