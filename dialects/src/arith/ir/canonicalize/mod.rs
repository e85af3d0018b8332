//! Canonicalization patterns of the `arith` dialect (constant folding and
//! identities such as `x + 0` are the ops' folders).

mod cmpf_int;

use crate::arith::{ArithAddiOp, ArithCmpfOp, ArithConstantOp, IntegerOverflowFlags};
use lf_ir::attrs::AttrData;
use lf_ir::view::OpView;
use lf_ir::{OpId, Traits, Value};
use lf_pass::rewrite::{constant_value, FnPattern, PatternRewriter, PatternSet};

/// Adds the patterns.
pub fn add_patterns(set: &mut PatternSet) {
    set.add(FnPattern::new("arith-constant-to-rhs", None, constant_to_rhs));
    set.add(FnPattern::on::<ArithCmpfOp>(
        "arith-cmpf-int-to-fp-const",
        cmpf_int::cmpf_of_int_to_fp_const,
    ));
    set.add(FnPattern::on::<ArithAddiOp>(
        "arith-addi-add-constant",
        addi_add_constant,
    ));
}

/// `op(c, x)` -> `op(x, c)` for commutative ops.
fn constant_to_rhs(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let (ctx, body) = (rw.ctx(), rw.body());
    // MLIR moves the constant operand of every `Commutative` op to the right.
    let commutative = ctx.op_def(body.op_name(op)).is_some_and(|d| d.has(Traits::COMMUTATIVE));
    if !commutative || body.num_operands(op) != 2 {
        return false;
    }
    let (a, b) = (body.operand(op, 0), body.operand(op, 1));
    if constant_value(ctx, body, a).is_none() || constant_value(ctx, body, b).is_some() {
        return false;
    }
    rw.modify_in_place(op, |_, body| body.set_operands(op, &[b, a]));
    true
}

fn int_constant(rw: &PatternRewriter<'_>, v: Value) -> Option<(i128, lf_ir::Type)> {
    let a = constant_value(rw.ctx(), rw.body(), v)?;
    match rw.ctx().attr_data(a) {
        AttrData::Integer { value, ty } => Some((*value, *ty)),
        _ => None,
    }
}

/// Wraps `v` to the width of integer type `ty` (sign-extended, as stored).
pub(super) fn wrap(rw: &PatternRewriter<'_>, v: i128, ty: lf_ir::Type) -> i128 {
    let width = match rw.ctx().type_data(ty) {
        lf_ir::TypeData::Integer { width, .. } => *width,
        _ => 64,
    };
    if width >= 128 {
        return v;
    }
    let shift = 128 - width;
    (v << shift) >> shift
}

/// `(x + c1) + c2` -> `x + (c1 + c2)` (MLIR's `AddIAddConstant`), when the
/// inner add has no overflow flags.
fn addi_add_constant(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let body = rw.body();
    let Some((c2, ty)) = int_constant(rw, body.operand(op, 1)) else {
        return false;
    };
    let Some(inner) = body.defining_op(body.operand(op, 0)) else {
        return false;
    };
    let Some(inner_add) = ArithAddiOp::cast(rw, inner) else {
        return false;
    };
    let Some((c1, _)) = int_constant(rw, body.operand(inner, 1)) else {
        return false;
    };
    let no_flags = |o: ArithAddiOp| o.overflow_flags(rw) == IntegerOverflowFlags::NONE;
    if !no_flags(ArithAddiOp::from_op_unchecked(op)) || !no_flags(inner_add) {
        return false;
    }
    let x = body.operand(inner, 0);
    let sum = wrap(rw, c1 + c2, ty);
    let c = rw.ctx().integer_attr(sum, ty);
    let cv = ArithConstantOp::of(rw, c).result(rw);
    rw.modify_in_place(op, |_, body| body.set_operands(op, &[x, cv]));
    true
}
