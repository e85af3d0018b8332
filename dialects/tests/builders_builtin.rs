//! Every `builtin` op built through its builder, verified, and printed as
//! mlir-opt 22 prints it (see [`common::check`]).

mod common;

use lf_dialects::builtin::*;
use lf_ir::view::OpView;

#[test]
fn every_builtin_op_builds_like_mlir() {
    let ctx = common::context();
    let c = ctx.common();
    let (body, module) = common::module(&ctx, |b| {
        // A named module nested in the top-level one, holding a function.
        let inner = BuiltinModuleOp::build(b);
        inner.set_sym_name(b, Some("inner"));
        let block = inner.body_region_block(b);
        let mut ib = b.nested(inner.op()).expect("a module has a nested body");
        ib.set_insertion_point_to_end(block);
        common::func(&mut ib, "casts", &[c.i32, c.f32], &[c.i64], |b, args| {
            let one = BuiltinUnrealizedConversionCastOp::build(b, &[args[0]], &[c.i64]).outputs(b);
            BuiltinUnrealizedConversionCastOp::build(b, args, &[c.index, c.f16, c.i1]);
            BuiltinUnrealizedConversionCastOp::build(b, &[], &[c.i8]);
            one
        });
        // An empty one.
        let empty = BuiltinModuleOp::build(b);
        empty.set_sym_name(b, Some("empty"));
        empty.set_sym_visibility(b, Some("private"));
    });
    common::check(&ctx, &body, module, "builtin");
}
