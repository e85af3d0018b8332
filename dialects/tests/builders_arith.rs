//! Every `arith` op built through its builder (with its optional
//! attributes set through the setters), verified, and printed as mlir-opt 22
//! prints it (see [`common::check`]).

mod common;

use lf_dialects::arith::*;
use lf_ir::builder::Builder;
use lf_ir::view::ValueList;
use lf_ir::{AttrData, Attribute, Context, DenseValues, Type, Value};

/// The `f32` constant `v` as an attribute.
fn f32_attr(ctx: &Context, v: f32) -> Attribute {
    ctx.get_attr(AttrData::Float {
        bits: u64::from(v.to_bits()),
        ty: ctx.common().f32,
    })
}

/// The integer ops on `a`, `b` (`i32`, with overflow flags on those that
/// have them) and `v` (`vector<4xi32>`).
fn integer_ops(b: &mut Builder<'_>, x: Value, y: Value, v: Value) {
    let add = ArithAddiOp::build(b, x, y);
    add.set_overflow_flags(b, IntegerOverflowFlags::NSW | IntegerOverflowFlags::NUW);
    let sub = ArithSubiOp::build(b, x, y);
    sub.set_overflow_flags(b, IntegerOverflowFlags::NUW);
    ArithMuliOp::build(b, x, y);
    let shl = ArithShliOp::build(b, x, y);
    shl.set_overflow_flags(b, IntegerOverflowFlags::NSW);
    ArithDivsiOp::build(b, x, y);
    ArithDivuiOp::build(b, x, y);
    ArithRemsiOp::build(b, x, y);
    ArithRemuiOp::build(b, x, y);
    ArithCeildivsiOp::build(b, x, y);
    ArithCeildivuiOp::build(b, x, y);
    ArithFloordivsiOp::build(b, x, y);
    ArithMaxsiOp::build(b, x, y);
    ArithMaxuiOp::build(b, x, y);
    ArithMinsiOp::build(b, x, y);
    ArithMinuiOp::build(b, x, y);
    ArithAndiOp::build(b, x, y);
    ArithOriOp::build(b, x, y);
    ArithXoriOp::build(b, x, y);
    ArithShrsiOp::build(b, x, y);
    ArithShruiOp::build(b, x, y);
    ArithAddiOp::build(b, v, v);
    let cmp = ArithCmpiOp::build(b, x, y, CmpIPredicate::Slt).result(b);
    ArithCmpiOp::build(b, v, v, CmpIPredicate::Uge);
    ArithSelectOp::build(b, cmp, x, y);
}

/// The float ops on `f`, `g` (`f32`, with fast-math flags on some) and `v`
/// (`vector<4xf32>`).
fn float_ops(b: &mut Builder<'_>, f: Value, g: Value, v: Value) {
    let add = ArithAddfOp::build(b, f, g);
    add.set_fastmath(b, FastMathFlags::FAST);
    ArithSubfOp::build(b, f, g);
    let mul = ArithMulfOp::build(b, f, g);
    mul.set_fastmath(b, FastMathFlags::NNAN | FastMathFlags::CONTRACT);
    ArithDivfOp::build(b, f, g);
    ArithRemfOp::build(b, f, g);
    ArithMaximumfOp::build(b, f, g);
    ArithMinimumfOp::build(b, f, g);
    ArithMaxnumfOp::build(b, f, g);
    ArithMinnumfOp::build(b, f, g);
    ArithNegfOp::build(b, f);
    ArithMulfOp::build(b, v, v);
    let cmp = ArithCmpfOp::build(b, f, g, CmpFPredicate::Olt).result(b);
    let une = ArithCmpfOp::build(b, v, v, CmpFPredicate::Une);
    une.set_fastmath(b, FastMathFlags::NINF);
    ArithSelectOp::build(b, cmp, f, g);
}

/// Constants of each kind: index, integers, floats, a dense vector.
fn constants(b: &mut Builder<'_>) {
    let ctx = b.ctx();
    ArithConstantOp::index(b, 42);
    ArithConstantOp::int(b, -7, ctx.common().i32);
    ArithConstantOp::int(b, 1, ctx.common().i1);
    ArithConstantOp::of(b, f32_attr(ctx, 1.5));
    let v4 = common::vector(ctx, &[4], ctx.common().i32);
    let splat = ctx.get_attr(AttrData::DenseElements {
        ty: v4,
        values: DenseValues::Int([3].into()),
    });
    ArithConstantOp::build(b, v4, splat);
}

/// Every cast, from `i` (`i32`) and `f` (`f32`).
fn casts(b: &mut Builder<'_>, i: Value, f: Value) {
    let c = b.ctx().common();
    ArithExtsiOp::build(b, i, c.i64);
    ArithExtuiOp::build(b, i, c.i64);
    ArithTrunciOp::build(b, i, c.i8);
    ArithSitofpOp::build(b, i, c.f32);
    ArithUitofpOp::build(b, i, c.f64);
    ArithFptosiOp::build(b, f, c.i32);
    ArithFptouiOp::build(b, f, c.i64);
    ArithIndexCastOp::build(b, i, c.index);
    ArithIndexCastuiOp::build(b, i, c.index);
    ArithBitcastOp::build(b, i, c.f32);
    ArithExtfOp::build(b, f, c.f64);
    ArithTruncfOp::build(b, f, c.f16);
    let t = ArithTruncfOp::build(b, f, c.bf16);
    t.set_roundingmode(b, Some(RoundingMode::TowardZero));
    t.set_fastmath(b, Some(FastMathFlags::AFN));
}

#[test]
fn every_arith_op_builds_like_mlir() {
    let ctx = common::context();
    let c = ctx.common();
    let vi = common::vector(&ctx, &[4], c.i32);
    let vf = common::vector(&ctx, &[4], c.f32);
    let inputs: [Type; 6] = [c.i32, c.i32, c.f32, c.f32, vi, vf];
    let (body, module) = common::module(&ctx, |b| {
        common::func(b, "arith", &inputs, &[], |b, args| {
            integer_ops(b, args[0], args[1], args[4]);
            float_ops(b, args[2], args[3], args[5]);
            constants(b);
            casts(b, args[0], args[2]);
            ValueList::new()
        });
    });
    common::check(&ctx, &body, module, "arith");
}
