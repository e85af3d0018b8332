//! Every `math` op built through its builder (fast-math flags through the
//! setters), verified, and printed as mlir-opt 22 prints it (see
//! [`common::check`]).

mod common;

use lf_dialects::arith::FastMathFlags;
use lf_dialects::math::*;
use lf_ir::builder::Builder;
use lf_ir::view::ValueList;
use lf_ir::Value;

/// The unary float ops on `x` (`f32`), and some on `v` (`vector<4xf32>`).
fn unary_ops(b: &mut Builder<'_>, x: Value, v: Value) {
    let sqrt = MathSqrtOp::build(b, x);
    sqrt.set_fastmath(b, FastMathFlags::AFN);
    MathRsqrtOp::build(b, x);
    MathExpOp::build(b, x);
    MathExp2Op::build(b, x);
    MathLogOp::build(b, x);
    MathLog2Op::build(b, x);
    MathSinOp::build(b, x);
    MathCosOp::build(b, v);
    let tanh = MathTanhOp::build(b, x);
    tanh.set_fastmath(b, FastMathFlags::NNAN | FastMathFlags::NINF);
    MathAbsfOp::build(b, x);
    MathFloorOp::build(b, x);
    MathCeilOp::build(b, v);
}

#[test]
fn every_math_op_builds_like_mlir() {
    let ctx = common::context();
    let c = ctx.common();
    let vf = common::vector(&ctx, &[4], c.f32);
    let (body, module) = common::module(&ctx, |b| {
        common::func(b, "math", &[c.f32, c.f32, c.i32, vf], &[c.f32], |b, args| {
            let (x, y, i, v) = (args[0], args[1], args[2], args[3]);
            unary_ops(b, x, v);
            MathAbsiOp::build(b, i);
            let pow = MathPowfOp::build(b, x, y);
            pow.set_fastmath(b, FastMathFlags::FAST);
            MathFmaOp::build(b, v, v, v);
            let fma = MathFmaOp::build(b, x, y, pow.result(b));
            ValueList::from_slice(&[fma.result(b)])
        });
    });
    common::check(&ctx, &body, module, "math");
}
