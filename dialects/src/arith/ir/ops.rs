//! What the generated `arith` views lack: the semantics of the comparison
//! predicates (one definition for the folders, the interpreter and the
//! lowerings) and builders of constants.

use super::views::{ArithConstantOp, CmpFPredicate, CmpIPredicate};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{Attribute, Context, Location, OperationState, Type, Value};

impl CmpIPredicate {
    /// Whether the predicate holds for two integers of one width, given as
    /// their signed and their unsigned values at that width.
    #[inline]
    pub fn holds(self, signed: (i128, i128), unsigned: (u128, u128)) -> bool {
        let ((sa, sb), (ua, ub)) = (signed, unsigned);
        match self {
            CmpIPredicate::Eq => ua == ub,
            CmpIPredicate::Ne => ua != ub,
            CmpIPredicate::Slt => sa < sb,
            CmpIPredicate::Sle => sa <= sb,
            CmpIPredicate::Sgt => sa > sb,
            CmpIPredicate::Sge => sa >= sb,
            CmpIPredicate::Ult => ua < ub,
            CmpIPredicate::Ule => ua <= ub,
            CmpIPredicate::Ugt => ua > ub,
            CmpIPredicate::Uge => ua >= ub,
        }
    }

    /// Whether the predicate holds for equal operands.
    pub fn holds_for_equal(self) -> bool {
        matches!(
            self,
            CmpIPredicate::Eq | CmpIPredicate::Sle | CmpIPredicate::Sge | CmpIPredicate::Ule | CmpIPredicate::Uge
        )
    }

    /// The predicate with the operands swapped (`a < b` is `b > a`).
    pub fn swapped(self) -> CmpIPredicate {
        match self {
            CmpIPredicate::Slt => CmpIPredicate::Sgt,
            CmpIPredicate::Sle => CmpIPredicate::Sge,
            CmpIPredicate::Sgt => CmpIPredicate::Slt,
            CmpIPredicate::Sge => CmpIPredicate::Sle,
            CmpIPredicate::Ult => CmpIPredicate::Ugt,
            CmpIPredicate::Ule => CmpIPredicate::Uge,
            CmpIPredicate::Ugt => CmpIPredicate::Ult,
            CmpIPredicate::Uge => CmpIPredicate::Ule,
            p => p,
        }
    }
}

impl CmpFPredicate {
    /// Whether the predicate holds for two floats (ordered predicates are
    /// false and unordered ones true when either is NaN).
    #[inline]
    pub fn holds(self, a: f64, b: f64) -> bool {
        let uno = a.is_nan() || b.is_nan();
        match self {
            CmpFPredicate::False => false,
            CmpFPredicate::Oeq => !uno && a == b,
            CmpFPredicate::Ogt => !uno && a > b,
            CmpFPredicate::Oge => !uno && a >= b,
            CmpFPredicate::Olt => !uno && a < b,
            CmpFPredicate::Ole => !uno && a <= b,
            CmpFPredicate::One => !uno && a != b,
            CmpFPredicate::Ord => !uno,
            CmpFPredicate::Ueq => uno || a == b,
            CmpFPredicate::Ugt => uno || a > b,
            CmpFPredicate::Uge => uno || a >= b,
            CmpFPredicate::Ult => uno || a < b,
            CmpFPredicate::Ule => uno || a <= b,
            CmpFPredicate::Une => uno || a != b,
            CmpFPredicate::Uno => uno,
            CmpFPredicate::True => true,
        }
    }
}

impl ArithConstantOp {
    /// `arith.constant` of `value`, whose type is the result's (an
    /// integer, float or dense elements attribute).
    pub fn of(b: &mut Builder<'_>, value: Attribute) -> ArithConstantOp {
        let ty = lf_ir::builder::attr_type(b.ctx(), value).expect("a typed constant attribute");
        ArithConstantOp::build(b, ty, value)
    }

    /// `arith.constant N : index`; returns its result.
    pub fn index(b: &mut Builder<'_>, n: i64) -> Value {
        let ctx = b.ctx();
        let c = ArithConstantOp::of(b, ctx.integer_attr(n as i128, ctx.common().index));
        c.result(b)
    }

    /// Whether [`ArithConstantOp::zero`] can make a zero of `ty` (an
    /// integer, index or float type).
    pub fn has_zero(ctx: &Context, ty: Type) -> bool {
        let data = ctx.type_data(ty);
        data.is_float() || data.is_integer() || data.is_index()
    }

    /// `arith.constant 0 : ty` for an integer, index or float type;
    /// returns its result, or `None` for any other type.
    pub fn zero(b: &mut Builder<'_>, ty: Type) -> Option<Value> {
        let ctx = b.ctx();
        if !Self::has_zero(ctx, ty) {
            return None;
        }
        let attr = if ctx.type_data(ty).is_float() {
            ctx.get_attr(lf_ir::AttrData::Float { bits: 0, ty })
        } else {
            ctx.integer_attr(0, ty)
        };
        Some(ArithConstantOp::of(b, attr).result(b))
    }

    /// `arith.constant N : ty` for an integer type; returns its result.
    pub fn int(b: &mut Builder<'_>, n: i128, ty: Type) -> Value {
        let ctx = b.ctx();
        let c = ArithConstantOp::of(b, ctx.integer_attr(n, ty));
        c.result(b)
    }

    /// The state of a detached `arith.constant` of `value` with result type
    /// `ty` at `loc`: the dialect's constant materializer (see
    /// [`lf_ir::constants`]); `None` when the attribute cannot be an
    /// `arith.constant` of that type ([`super::is_buildable_with`]).
    pub fn materialize(ctx: &Context, value: Attribute, ty: Type, loc: Location) -> Option<OperationState> {
        if !super::is_buildable_with(ctx, value, ty) {
            return None;
        }
        let def = ArithConstantOp::def();
        let mut st = OperationState::new(ctx.op_name(def.name), loc);
        st.result_types.push(ty);
        st.props = Some(ctx.dict_attr(vec![(ctx.intern(def.attributes[0].name), value)]));
        Some(st)
    }
}
