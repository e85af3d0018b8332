//! Folders of the `math` ops, as MLIR 22's `MathOps.cpp`: only those whose
//! result MLIR computes exactly (IEEE-correct rounding, independent of the
//! host's libm): `absf`, `absi`, `ceil`, `floor`, `sqrt` (f32 and f64, not
//! for negative inputs, `-0.0` included). MLIR 22 does not fold `fma`. Transcendental functions
//! (`exp`, `log`, `sin`, ..., `powf`), which MLIR folds with the host's libm,
//! are not folded, so lf's output never depends on the machine.

use crate::arith::ir::fold::unary_float;
use crate::fold::float;
use crate::fold::{all_const, attr, float_kind, int_width, map_elems, result_type, Elem};
use lf_ir::{Attribute, Body, Context, FloatKind, OpId};

type Folded = Option<lf_ir::FoldResults>;

/// `math.absf`: constants.
pub fn fold_absf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    unary_float(ctx, body, op, operands, float::abs)
}

/// `math.floor`: constants.
pub fn fold_floor(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    unary_float(ctx, body, op, operands, |k, a| float::round_integral(k, a, false))
}

/// `math.ceil`: constants.
pub fn fold_ceil(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    unary_float(ctx, body, op, operands, |k, a| float::round_integral(k, a, true))
}

/// `math.sqrt`: non-negative `f32`/`f64` constants (MLIR folds no other width).
pub fn fold_sqrt(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let consts = all_const(operands)?;
    let ty = result_type(body, op);
    let k = float_kind(ctx, ty)?;
    if !matches!(k, FloatKind::F32 | FloatKind::F64) {
        return None;
    }
    attr(map_elems(ctx, ty, &consts, |e| match e {
        [Elem::Float(x)] if !float::is_negative(k, *x) => Some(Elem::Float(float::sqrt(k, *x))),
        _ => None,
    }))
}

/// `math.absi`: constants (the minimum value maps to itself).
pub fn fold_absi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let consts = all_const(operands)?;
    let ty = result_type(body, op);
    let w = int_width(ctx, ty)?;
    attr(map_elems(ctx, ty, &consts, |e| match e {
        [Elem::Int(v)] => Some(Elem::Int(crate::fold::int::store(
            crate::fold::int::sval(*v, w).wrapping_abs(),
            w,
        ))),
        _ => None,
    }))
}
