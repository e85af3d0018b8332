//! MLIR's `CmpFIntToFPConst`: `arith.cmpf` of an integer converted with
//! `arith.sitofp`/`arith.uitofp` against a float constant becomes an
//! `arith.cmpi` of the integer (or a constant `i1` when the comparison is
//! decided), when the conversion cannot change the comparison's outcome.
//!
//! Handled for `f32` and `f64` constants and integers of up to 64 bits;
//! MLIR also rewrites other float types.

use crate::arith::{
    ArithCmpfOp, ArithCmpiOp, ArithConstantOp, ArithSitofpOp, ArithUitofpOp, CmpFPredicate, CmpIPredicate as IPred,
};
use lf_ir::attrs::AttrData;
use lf_ir::view::OpView;
use lf_ir::{FloatKind, OpId, TypeData, Value};
use lf_pass::rewrite::{constant_value, PatternRewriter};

/// The `arith.cmpi` predicate for an ordered or unordered `arith.cmpf`
/// predicate, `None` for the others.
fn integer_predicate(pred: CmpFPredicate, unsigned: bool) -> Option<IPred> {
    let pick = |s: IPred, u: IPred| if unsigned { u } else { s };
    use CmpFPredicate as F;
    Some(match pred {
        F::Oeq | F::Ueq => IPred::Eq,
        F::Ogt | F::Ugt => pick(IPred::Sgt, IPred::Ugt),
        F::Oge | F::Uge => pick(IPred::Sge, IPred::Uge),
        F::Olt | F::Ult => pick(IPred::Slt, IPred::Ult),
        F::Ole | F::Ule => pick(IPred::Sle, IPred::Ule),
        F::One | F::Une => IPred::Ne,
        _ => return None,
    })
}

/// A float constant's value with its format's rounding of integers.
#[derive(Clone, Copy)]
struct FloatConst {
    value: f64,
    single: bool,
}

impl FloatConst {
    /// The mantissa width (with the implicit bit), as `getFPMantissaWidth`.
    fn mantissa_width(self) -> i32 {
        if self.single {
            24
        } else {
            53
        }
    }

    /// `ilogb` of the largest finite value.
    fn max_exponent(self) -> i32 {
        if self.single {
            127
        } else {
            1023
        }
    }

    /// An integer rounded to nearest (ties to even) in this format.
    fn round(self, v: i128) -> f64 {
        if self.single {
            v as f32 as f64
        } else {
            v as f64
        }
    }
}

/// `ilogb` of a finite non-zero `x` (its binary exponent); very negative
/// for zero and subnormals, `i32::MAX` for infinities.
fn ilogb(x: f64) -> i32 {
    if x.is_infinite() {
        return i32::MAX;
    }
    let exponent = ((x.to_bits() >> 52) & 0x7ff) as i32;
    if exponent == 0 {
        return i32::MIN + 1;
    }
    exponent - 1023
}

/// The pattern.
pub fn cmpf_of_int_to_fp_const(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let (ctx, body) = (rw.ctx(), rw.body());
    let pred = ArithCmpfOp::from_op_unchecked(op).predicate(rw);
    let (lhs, rhs) = (body.operand(op, 0), body.operand(op, 1));
    let Some(c) = constant_value(ctx, body, rhs) else {
        return false;
    };
    let AttrData::Float { bits, ty } = ctx.attr_data(c) else {
        return false;
    };
    let rhs = match ctx.type_data(*ty) {
        TypeData::Float(FloatKind::F32) => FloatConst {
            value: f32::from_bits(*bits as u32) as f64,
            single: true,
        },
        TypeData::Float(FloatKind::F64) => FloatConst {
            value: f64::from_bits(*bits),
            single: false,
        },
        _ => return false,
    };
    if rhs.value.is_nan() {
        return false;
    }
    let Some(conversion) = body.defining_op(lhs) else {
        return false;
    };
    let unsigned = if ArithSitofpOp::isa(rw, conversion) {
        false
    } else if ArithUitofpOp::isa(rw, conversion) {
        true
    } else {
        return false;
    };
    let int_value = body.operand(conversion, 0);
    let int_ty = body.value_type(int_value);
    let width = match ctx.type_data(int_ty) {
        TypeData::Integer { width, .. } if (1..=64).contains(width) => *width as i32,
        _ => return false,
    };
    let value_bits = if unsigned { width } else { width - 1 };
    if width > rhs.mantissa_width() {
        // The conversion rounds: give up where that could change the outcome.
        let exponent = ilogb(rhs.value);
        if exponent == i32::MAX {
            if rhs.max_exponent() < value_bits {
                return false;
            }
        } else if rhs.mantissa_width() <= exponent && exponent <= value_bits {
            return false;
        }
    }
    let decided = |rw: &mut PatternRewriter<'_>, value: bool| {
        let i1 = rw.ctx().common().i1;
        let attr = rw.ctx().integer_attr(i128::from(value), i1);
        let v = ArithConstantOp::of(rw, attr).result(rw);
        rw.replace_op(op, &[v]);
        true
    };
    let mut ipred = match pred {
        // The conversion makes no NaN.
        CmpFPredicate::Ord => return decided(rw, true),
        CmpFPredicate::Uno => return decided(rw, false),
        p => match integer_predicate(p, unsigned) {
            Some(ip) => ip,
            None => return false,
        },
    };
    // Beyond the integer type's range: decided.
    let (min, max): (i128, i128) = if unsigned {
        (0, (1i128 << width) - 1)
    } else {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    };
    if rhs.round(max) < rhs.value {
        let below = [IPred::Ne, IPred::Slt, IPred::Sle, IPred::Ult, IPred::Ule];
        return decided(rw, below.contains(&ipred));
    }
    if rhs.round(min) > rhs.value {
        let above = [IPred::Ne, IPred::Sgt, IPred::Sge, IPred::Ugt, IPred::Uge];
        return decided(rw, above.contains(&ipred));
    }
    // The constant truncated towards zero, if the integer type holds it.
    let truncated = rhs.value.trunc();
    if truncated < min as f64 || truncated > max as f64 {
        return false;
    }
    let rhs_int = truncated as i128;
    if rhs_int < min || rhs_int > max {
        return false;
    }
    if rhs.value != 0.0 && rhs.round(rhs_int) != rhs.value {
        // A fractional constant: adjust the predicate, or decide.
        let negative = rhs.value < 0.0;
        match ipred {
            IPred::Ne => return decided(rw, true),
            IPred::Eq => return decided(rw, false),
            IPred::Ule if negative => return decided(rw, false),
            IPred::Sle if negative => ipred = IPred::Slt,
            IPred::Ult if negative => return decided(rw, false),
            IPred::Ult => ipred = IPred::Ule,
            IPred::Slt if !negative => ipred = IPred::Sle,
            IPred::Ugt if negative => return decided(rw, true),
            IPred::Sgt if negative => ipred = IPred::Sge,
            IPred::Uge if negative => return decided(rw, true),
            IPred::Uge => ipred = IPred::Ugt,
            IPred::Sge if !negative => ipred = IPred::Sgt,
            _ => {}
        }
    }
    // The integer constant, as its type stores it (sign-extended).
    let stored = super::wrap(rw, rhs_int, int_ty);
    let ctx = rw.ctx();
    let int_const = ctx.integer_attr(stored, int_ty);
    rw.set_insertion_point_before(op);
    let c = ArithConstantOp::of(rw, int_const).result(rw);
    let result: Value = ArithCmpiOp::build(rw, int_value, c, ipred).result(rw);
    rw.replace_op(op, &[result]);
    true
}
