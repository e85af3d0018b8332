//! The ops of a reduction kind: combining two partial results (MLIR's
//! `arith::getReductionOp`) and the neutral value each partial result
//! starts from (MLIR's `arith::getIdentityValueAttr`), for the kinds
//! [`AtomicRmwKind`] names. Used by `affine-loop-unroll-jam` (combining the
//! jammed copies' results) and `gpu-split-reduction` (lanes' partial sums).

use crate::affine::analysis::reductions::AtomicRmwKind;
use crate::arith::{
    ArithAddfOp, ArithAddiOp, ArithAndiOp, ArithMaximumfOp, ArithMaxnumfOp, ArithMaxsiOp, ArithMaxuiOp,
    ArithMinimumfOp, ArithMinnumfOp, ArithMinsiOp, ArithMinuiOp, ArithMulfOp, ArithMuliOp, ArithOriOp, ArithXoriOp,
};
use lf_ir::builder::Builder;
use lf_ir::floatfmt::f64_to_bits;
use lf_ir::{AttrData, Attribute, Context, Signedness, Type, TypeData, Value};

/// `lhs kind rhs` at the insertion point; `None` for `assign`, which
/// has no combining op.
pub fn combine(b: &mut Builder<'_>, kind: AtomicRmwKind, lhs: Value, rhs: Value) -> Option<Value> {
    use AtomicRmwKind as K;
    Some(match kind {
        K::Addf => ArithAddfOp::build(b, lhs, rhs).result(b),
        K::Addi => ArithAddiOp::build(b, lhs, rhs).result(b),
        K::Mulf => ArithMulfOp::build(b, lhs, rhs).result(b),
        K::Muli => ArithMuliOp::build(b, lhs, rhs).result(b),
        K::Maximumf => ArithMaximumfOp::build(b, lhs, rhs).result(b),
        K::Minimumf => ArithMinimumfOp::build(b, lhs, rhs).result(b),
        K::Maxnumf => ArithMaxnumfOp::build(b, lhs, rhs).result(b),
        K::Minnumf => ArithMinnumfOp::build(b, lhs, rhs).result(b),
        K::Maxs => ArithMaxsiOp::build(b, lhs, rhs).result(b),
        K::Mins => ArithMinsiOp::build(b, lhs, rhs).result(b),
        K::Maxu => ArithMaxuiOp::build(b, lhs, rhs).result(b),
        K::Minu => ArithMinuiOp::build(b, lhs, rhs).result(b),
        K::Ori => ArithOriOp::build(b, lhs, rhs).result(b),
        K::Andi => ArithAndiOp::build(b, lhs, rhs).result(b),
        K::Xori => ArithXoriOp::build(b, lhs, rhs).result(b),
        K::Assign => return None,
    })
}

/// The neutral value of `kind` as an attribute of type `ty` (`x kind n ==
/// x` for every `x`): 0 for sums, or, xor and unsigned maximum; 1 for
/// products; all ones for and and unsigned minimum; the smallest and the
/// largest value for the signed maximum and minimum; -inf and +inf for the
/// float maxima and minima. `None` for `assign`, or a type that is not a
/// float or signless integer (or `index`).
pub fn identity_attr(ctx: &Context, kind: AtomicRmwKind, ty: Type) -> Option<Attribute> {
    use AtomicRmwKind as K;
    match ctx.type_data(ty) {
        TypeData::Float(fk) => {
            let v = match kind {
                K::Addf => 0.0,
                K::Mulf => 1.0,
                K::Maximumf | K::Maxnumf => f64::NEG_INFINITY,
                K::Minimumf | K::Minnumf => f64::INFINITY,
                _ => return None,
            };
            let bits = f64_to_bits(*fk, v);
            Some(ctx.get_attr(AttrData::Float { bits, ty }))
        }
        data @ (TypeData::Integer {
            signedness: Signedness::Signless,
            ..
        }
        | TypeData::Index) => {
            // Signless values are kept sign-extended: all ones is -1.
            // `index` reduces as a 64-bit integer.
            let width = match data {
                TypeData::Integer { width, .. } => *width,
                _ => 64,
            };
            let v = match kind {
                K::Addi | K::Ori | K::Xori | K::Maxu => 0,
                K::Muli if width == 1 => -1,
                K::Muli => 1,
                K::Andi | K::Minu => -1,
                // The signed extremes, as far as an attribute holds them.
                K::Maxs | K::Mins if width == 0 || width > 128 => return None,
                K::Maxs if width == 128 => i128::MIN,
                K::Mins if width == 128 => i128::MAX,
                K::Maxs => -(1i128 << (width - 1)),
                K::Mins => (1i128 << (width - 1)) - 1,
                _ => return None,
            };
            Some(ctx.integer_attr(v, ty))
        }
        _ => None,
    }
}

/// Whether combining values with `kind` in any grouping and order gives the
/// same result bit for bit: true for the integer kinds (wrapping sums and
/// products, bitwise ops, minima and maxima) and for `maximumf`/`minimumf`
/// (NaN wins, -0 < +0); false for float sums and products (rounding) and for
/// `maxnumf`/`minnumf` (which of -0 and +0 they return is unspecified).
pub fn is_exactly_reassociable(kind: AtomicRmwKind) -> bool {
    use AtomicRmwKind as K;
    !matches!(kind, K::Addf | K::Mulf | K::Maxnumf | K::Minnumf | K::Assign)
}

#[cfg(test)]
mod tests {
    use super::*;
    use AtomicRmwKind as K;

    fn int(ctx: &Context, a: Option<Attribute>) -> Option<i128> {
        match ctx.attr_data(a?) {
            AttrData::Integer { value, .. } => Some(*value),
            _ => None,
        }
    }

    fn float(ctx: &Context, a: Option<Attribute>) -> Option<u64> {
        match ctx.attr_data(a?) {
            AttrData::Float { bits, .. } => Some(*bits),
            _ => None,
        }
    }

    #[test]
    fn neutral_values() {
        let ctx = Context::new();
        let c = ctx.common();
        assert_eq!(float(&ctx, identity_attr(&ctx, K::Addf, c.f32)), Some(0));
        assert_eq!(
            float(&ctx, identity_attr(&ctx, K::Mulf, c.f32)),
            Some(1.0f32.to_bits() as u64)
        );
        assert_eq!(
            float(&ctx, identity_attr(&ctx, K::Maximumf, c.f32)),
            Some(f32::NEG_INFINITY.to_bits() as u64)
        );
        assert_eq!(
            float(&ctx, identity_attr(&ctx, K::Minimumf, c.f64)),
            Some(f64::INFINITY.to_bits())
        );
        assert_eq!(
            int(&ctx, identity_attr(&ctx, K::Maxs, c.i32)),
            Some(i128::from(i32::MIN))
        );
        assert_eq!(
            int(&ctx, identity_attr(&ctx, K::Mins, c.i32)),
            Some(i128::from(i32::MAX))
        );
        assert_eq!(int(&ctx, identity_attr(&ctx, K::Minu, c.i64)), Some(-1));
        assert_eq!(int(&ctx, identity_attr(&ctx, K::Andi, c.index)), Some(-1));
        assert_eq!(int(&ctx, identity_attr(&ctx, K::Muli, c.index)), Some(1));
        assert_eq!(int(&ctx, identity_attr(&ctx, K::Xori, c.i32)), Some(0));
        let i128_ty = ctx.integer_type(128);
        assert_eq!(int(&ctx, identity_attr(&ctx, K::Maxs, i128_ty)), Some(i128::MIN));
        assert_eq!(int(&ctx, identity_attr(&ctx, K::Addi, i128_ty)), Some(0));
        assert_eq!(identity_attr(&ctx, K::Assign, c.f32), None);
        assert_eq!(
            identity_attr(&ctx, K::Addi, c.f32),
            None,
            "an integer kind has no float neutral value"
        );
        assert_eq!(identity_attr(&ctx, K::Addf, c.i32), None);
    }

    #[test]
    fn which_kinds_reassociate_exactly() {
        for k in AtomicRmwKind::ALL {
            let float_rounding = matches!(k, K::Addf | K::Mulf | K::Maxnumf | K::Minnumf | K::Assign);
            assert_eq!(is_exactly_reassociable(k), !float_rounding, "{k:?}");
        }
    }
}
