//! Typed views of the `arith` ops, generated from their declarations by
//! `lf_ir::ods::views`: do not edit. Regenerate with
//! `LF_UPDATE_VIEWS=1 cargo test -p lf-dialects --test generated_views`.

#![allow(unused_imports)]

use lf_ir::affine::{AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::ods::access;
use lf_ir::ods::IntWidth;
use lf_ir::view::{Ir, OpView, ValueList};
use lf_ir::{Attribute, BlockId, Context, OpDef, OpId, RegionId, Type, Value};
use lf_ir::ods::AttrDef;

/// The cases of `arith::CmpIPredicate` (declared by [`super::CMPI_PREDICATE`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CmpIPredicate {
    /// `eq` (0).
    Eq,
    /// `ne` (1).
    Ne,
    /// `slt` (2).
    Slt,
    /// `sle` (3).
    Sle,
    /// `sgt` (4).
    Sgt,
    /// `sge` (5).
    Sge,
    /// `ult` (6).
    Ult,
    /// `ule` (7).
    Ule,
    /// `ugt` (8).
    Ugt,
    /// `uge` (9).
    Uge,
}

impl CmpIPredicate {
    /// Every case, in declaration order.
    pub const ALL: [CmpIPredicate; 10] = [
        CmpIPredicate::Eq,
        CmpIPredicate::Ne,
        CmpIPredicate::Slt,
        CmpIPredicate::Sle,
        CmpIPredicate::Sgt,
        CmpIPredicate::Sge,
        CmpIPredicate::Ult,
        CmpIPredicate::Ule,
        CmpIPredicate::Ugt,
        CmpIPredicate::Uge,
    ];

    /// The value the attribute stores.
    pub fn value(self) -> i64 {
        match self {
            CmpIPredicate::Eq => 0,
            CmpIPredicate::Ne => 1,
            CmpIPredicate::Slt => 2,
            CmpIPredicate::Sle => 3,
            CmpIPredicate::Sgt => 4,
            CmpIPredicate::Sge => 5,
            CmpIPredicate::Ult => 6,
            CmpIPredicate::Ule => 7,
            CmpIPredicate::Ugt => 8,
            CmpIPredicate::Uge => 9,
        }
    }

    /// The case storing `value`.
    pub fn from_value(value: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.value() == value)
    }

    /// The keyword of the case in the custom syntax.
    pub fn keyword(self) -> &'static str {
        match self {
            CmpIPredicate::Eq => "eq",
            CmpIPredicate::Ne => "ne",
            CmpIPredicate::Slt => "slt",
            CmpIPredicate::Sle => "sle",
            CmpIPredicate::Sgt => "sgt",
            CmpIPredicate::Sge => "sge",
            CmpIPredicate::Ult => "ult",
            CmpIPredicate::Ule => "ule",
            CmpIPredicate::Ugt => "ugt",
            CmpIPredicate::Uge => "uge",
        }
    }

    /// The attribute holding the case.
    pub fn attr(self, ctx: &Context) -> Attribute {
        super::CMPI_PREDICATE.attr(ctx, self.value())
    }

    /// The case an attribute holds.
    pub fn from_attr(ctx: &Context, a: Attribute) -> Option<Self> {
        super::CMPI_PREDICATE.decode(ctx, a).and_then(Self::from_value)
    }
}

/// The cases of `arith::CmpFPredicate` (declared by [`super::CMPF_PREDICATE`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CmpFPredicate {
    /// `false` (0).
    False,
    /// `oeq` (1).
    Oeq,
    /// `ogt` (2).
    Ogt,
    /// `oge` (3).
    Oge,
    /// `olt` (4).
    Olt,
    /// `ole` (5).
    Ole,
    /// `one` (6).
    One,
    /// `ord` (7).
    Ord,
    /// `ueq` (8).
    Ueq,
    /// `ugt` (9).
    Ugt,
    /// `uge` (10).
    Uge,
    /// `ult` (11).
    Ult,
    /// `ule` (12).
    Ule,
    /// `une` (13).
    Une,
    /// `uno` (14).
    Uno,
    /// `true` (15).
    True,
}

impl CmpFPredicate {
    /// Every case, in declaration order.
    pub const ALL: [CmpFPredicate; 16] = [
        CmpFPredicate::False,
        CmpFPredicate::Oeq,
        CmpFPredicate::Ogt,
        CmpFPredicate::Oge,
        CmpFPredicate::Olt,
        CmpFPredicate::Ole,
        CmpFPredicate::One,
        CmpFPredicate::Ord,
        CmpFPredicate::Ueq,
        CmpFPredicate::Ugt,
        CmpFPredicate::Uge,
        CmpFPredicate::Ult,
        CmpFPredicate::Ule,
        CmpFPredicate::Une,
        CmpFPredicate::Uno,
        CmpFPredicate::True,
    ];

    /// The value the attribute stores.
    pub fn value(self) -> i64 {
        match self {
            CmpFPredicate::False => 0,
            CmpFPredicate::Oeq => 1,
            CmpFPredicate::Ogt => 2,
            CmpFPredicate::Oge => 3,
            CmpFPredicate::Olt => 4,
            CmpFPredicate::Ole => 5,
            CmpFPredicate::One => 6,
            CmpFPredicate::Ord => 7,
            CmpFPredicate::Ueq => 8,
            CmpFPredicate::Ugt => 9,
            CmpFPredicate::Uge => 10,
            CmpFPredicate::Ult => 11,
            CmpFPredicate::Ule => 12,
            CmpFPredicate::Une => 13,
            CmpFPredicate::Uno => 14,
            CmpFPredicate::True => 15,
        }
    }

    /// The case storing `value`.
    pub fn from_value(value: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.value() == value)
    }

    /// The keyword of the case in the custom syntax.
    pub fn keyword(self) -> &'static str {
        match self {
            CmpFPredicate::False => "false",
            CmpFPredicate::Oeq => "oeq",
            CmpFPredicate::Ogt => "ogt",
            CmpFPredicate::Oge => "oge",
            CmpFPredicate::Olt => "olt",
            CmpFPredicate::Ole => "ole",
            CmpFPredicate::One => "one",
            CmpFPredicate::Ord => "ord",
            CmpFPredicate::Ueq => "ueq",
            CmpFPredicate::Ugt => "ugt",
            CmpFPredicate::Uge => "uge",
            CmpFPredicate::Ult => "ult",
            CmpFPredicate::Ule => "ule",
            CmpFPredicate::Une => "une",
            CmpFPredicate::Uno => "uno",
            CmpFPredicate::True => "true",
        }
    }

    /// The attribute holding the case.
    pub fn attr(self, ctx: &Context) -> Attribute {
        super::CMPF_PREDICATE.attr(ctx, self.value())
    }

    /// The case an attribute holds.
    pub fn from_attr(ctx: &Context, a: Attribute) -> Option<Self> {
        super::CMPF_PREDICATE.decode(ctx, a).and_then(Self::from_value)
    }
}

/// The cases of `arith::RoundingMode` (declared by [`super::ROUNDING_MODE`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum RoundingMode {
    /// `to_nearest_even` (0).
    ToNearestEven,
    /// `downward` (1).
    Downward,
    /// `upward` (2).
    Upward,
    /// `toward_zero` (3).
    TowardZero,
    /// `to_nearest_away` (4).
    ToNearestAway,
}

impl RoundingMode {
    /// Every case, in declaration order.
    pub const ALL: [RoundingMode; 5] = [
        RoundingMode::ToNearestEven,
        RoundingMode::Downward,
        RoundingMode::Upward,
        RoundingMode::TowardZero,
        RoundingMode::ToNearestAway,
    ];

    /// The value the attribute stores.
    pub fn value(self) -> i64 {
        match self {
            RoundingMode::ToNearestEven => 0,
            RoundingMode::Downward => 1,
            RoundingMode::Upward => 2,
            RoundingMode::TowardZero => 3,
            RoundingMode::ToNearestAway => 4,
        }
    }

    /// The case storing `value`.
    pub fn from_value(value: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.value() == value)
    }

    /// The keyword of the case in the custom syntax.
    pub fn keyword(self) -> &'static str {
        match self {
            RoundingMode::ToNearestEven => "to_nearest_even",
            RoundingMode::Downward => "downward",
            RoundingMode::Upward => "upward",
            RoundingMode::TowardZero => "toward_zero",
            RoundingMode::ToNearestAway => "to_nearest_away",
        }
    }

    /// The attribute holding the case.
    pub fn attr(self, ctx: &Context) -> Attribute {
        super::ROUNDING_MODE.attr(ctx, self.value())
    }

    /// The case an attribute holds.
    pub fn from_attr(ctx: &Context, a: Attribute) -> Option<Self> {
        super::ROUNDING_MODE.decode(ctx, a).and_then(Self::from_value)
    }
}

/// A set of `arith::FastMathFlags` flags (`#arith.fastmath<...>`, declared by [`super::FASTMATH`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct FastMathFlags(pub u32);

impl FastMathFlags {
    /// No flag (`none`).
    pub const NONE: FastMathFlags = FastMathFlags(0);
    /// `reassoc`.
    pub const REASSOC: FastMathFlags = FastMathFlags(1 << 0);
    /// `nnan`.
    pub const NNAN: FastMathFlags = FastMathFlags(1 << 1);
    /// `ninf`.
    pub const NINF: FastMathFlags = FastMathFlags(1 << 2);
    /// `nsz`.
    pub const NSZ: FastMathFlags = FastMathFlags(1 << 3);
    /// `arcp`.
    pub const ARCP: FastMathFlags = FastMathFlags(1 << 4);
    /// `contract`.
    pub const CONTRACT: FastMathFlags = FastMathFlags(1 << 5);
    /// `afn`.
    pub const AFN: FastMathFlags = FastMathFlags(1 << 6);
    /// `fast`: several flags at once.
    pub const FAST: FastMathFlags = FastMathFlags(0x7f);

    /// Whether every flag of `other` is set.
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// The attribute holding the flags.
    pub fn attr(self, ctx: &Context) -> Attribute {
        super::FASTMATH.attr(ctx, self.0)
    }

    /// The flags an attribute holds.
    pub fn from_attr(ctx: &Context, a: Attribute) -> Option<Self> {
        super::FASTMATH.bits(ctx, a).map(FastMathFlags)
    }
}

impl std::ops::BitOr for FastMathFlags {
    type Output = Self;
    fn bitor(self, other: Self) -> Self {
        FastMathFlags(self.0 | other.0)
    }
}

/// A set of `arith::IntegerOverflowFlags` flags (`#arith.overflow<...>`, declared by [`super::OVERFLOW`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct IntegerOverflowFlags(pub u32);

impl IntegerOverflowFlags {
    /// No flag (`none`).
    pub const NONE: IntegerOverflowFlags = IntegerOverflowFlags(0);
    /// `nsw`.
    pub const NSW: IntegerOverflowFlags = IntegerOverflowFlags(1 << 0);
    /// `nuw`.
    pub const NUW: IntegerOverflowFlags = IntegerOverflowFlags(1 << 1);

    /// Whether every flag of `other` is set.
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// The attribute holding the flags.
    pub fn attr(self, ctx: &Context) -> Attribute {
        super::OVERFLOW.attr(ctx, self.0)
    }

    /// The flags an attribute holds.
    pub fn from_attr(ctx: &Context, a: Attribute) -> Option<Self> {
        super::OVERFLOW.bits(ctx, a).map(IntegerOverflowFlags)
    }
}

impl std::ops::BitOr for IntegerOverflowFlags {
    type Output = Self;
    fn bitor(self, other: Self) -> Self {
        IntegerOverflowFlags(self.0 | other.0)
    }
}

/// A view of an `arith.addi` op: integer addition operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithAddiOp(OpId);

impl OpView for ArithAddiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[0]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithAddiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithAddiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `overflowFlags`.
    pub fn overflow_flags_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `overflowFlags`, undecoded.
    pub fn overflow_flags_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `overflowFlags`.
    pub fn overflow_flags<'c>(self, ir: &impl Ir<'c>) -> IntegerOverflowFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        IntegerOverflowFlags::from_attr(ctx, a).expect("a case of arith::IntegerOverflowFlags")
    }
    /// Sets attribute `overflowFlags`.
    pub fn set_overflow_flags(self, b: &mut Builder<'_>, v: IntegerOverflowFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.addi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.subi` op: integer subtraction operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithSubiOp(OpId);

impl OpView for ArithSubiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[1]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithSubiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithSubiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `overflowFlags`.
    pub fn overflow_flags_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `overflowFlags`, undecoded.
    pub fn overflow_flags_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `overflowFlags`.
    pub fn overflow_flags<'c>(self, ir: &impl Ir<'c>) -> IntegerOverflowFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        IntegerOverflowFlags::from_attr(ctx, a).expect("a case of arith::IntegerOverflowFlags")
    }
    /// Sets attribute `overflowFlags`.
    pub fn set_overflow_flags(self, b: &mut Builder<'_>, v: IntegerOverflowFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.subi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.muli` op: integer multiplication operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithMuliOp(OpId);

impl OpView for ArithMuliOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[2]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithMuliOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithMuliOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `overflowFlags`.
    pub fn overflow_flags_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `overflowFlags`, undecoded.
    pub fn overflow_flags_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `overflowFlags`.
    pub fn overflow_flags<'c>(self, ir: &impl Ir<'c>) -> IntegerOverflowFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        IntegerOverflowFlags::from_attr(ctx, a).expect("a case of arith::IntegerOverflowFlags")
    }
    /// Sets attribute `overflowFlags`.
    pub fn set_overflow_flags(self, b: &mut Builder<'_>, v: IntegerOverflowFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.muli` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.shli` op: integer left-shift.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithShliOp(OpId);

impl OpView for ArithShliOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[3]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithShliOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithShliOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `overflowFlags`.
    pub fn overflow_flags_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `overflowFlags`, undecoded.
    pub fn overflow_flags_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `overflowFlags`.
    pub fn overflow_flags<'c>(self, ir: &impl Ir<'c>) -> IntegerOverflowFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        IntegerOverflowFlags::from_attr(ctx, a).expect("a case of arith::IntegerOverflowFlags")
    }
    /// Sets attribute `overflowFlags`.
    pub fn set_overflow_flags(self, b: &mut Builder<'_>, v: IntegerOverflowFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.shli` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.divsi` op: signed integer division operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithDivsiOp(OpId);

impl OpView for ArithDivsiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[4]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithDivsiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithDivsiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.divsi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.divui` op: unsigned integer division operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithDivuiOp(OpId);

impl OpView for ArithDivuiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[5]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithDivuiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithDivuiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.divui` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.remsi` op: signed integer division remainder operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithRemsiOp(OpId);

impl OpView for ArithRemsiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[6]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithRemsiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithRemsiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.remsi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.remui` op: unsigned integer division remainder operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithRemuiOp(OpId);

impl OpView for ArithRemuiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[7]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithRemuiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithRemuiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.remui` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.ceildivsi` op: signed ceil integer division operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithCeildivsiOp(OpId);

impl OpView for ArithCeildivsiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[8]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithCeildivsiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithCeildivsiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.ceildivsi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.ceildivui` op: unsigned ceil integer division operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithCeildivuiOp(OpId);

impl OpView for ArithCeildivuiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[9]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithCeildivuiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithCeildivuiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.ceildivui` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.floordivsi` op: signed floor integer division operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithFloordivsiOp(OpId);

impl OpView for ArithFloordivsiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[10]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithFloordivsiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithFloordivsiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.floordivsi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.maxsi` op: signed integer maximum operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithMaxsiOp(OpId);

impl OpView for ArithMaxsiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[11]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithMaxsiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithMaxsiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.maxsi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.maxui` op: unsigned integer maximum operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithMaxuiOp(OpId);

impl OpView for ArithMaxuiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[12]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithMaxuiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithMaxuiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.maxui` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.minsi` op: signed integer minimum operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithMinsiOp(OpId);

impl OpView for ArithMinsiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[13]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithMinsiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithMinsiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.minsi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.minui` op: unsigned integer minimum operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithMinuiOp(OpId);

impl OpView for ArithMinuiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[14]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithMinuiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithMinuiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.minui` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.andi` op: integer binary and.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithAndiOp(OpId);

impl OpView for ArithAndiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[15]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithAndiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithAndiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.andi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.ori` op: integer binary or.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithOriOp(OpId);

impl OpView for ArithOriOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[16]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithOriOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithOriOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.ori` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.xori` op: integer binary xor.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithXoriOp(OpId);

impl OpView for ArithXoriOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[17]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithXoriOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithXoriOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.xori` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.shrsi` op: signed integer right-shift.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithShrsiOp(OpId);

impl OpView for ArithShrsiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[18]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithShrsiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithShrsiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.shrsi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.shrui` op: unsigned integer right-shift.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithShruiOp(OpId);

impl OpView for ArithShruiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[19]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithShruiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithShruiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.shrui` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.addf` op: floating point addition operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithAddfOp(OpId);

impl OpView for ArithAddfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[20]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithAddfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithAddfOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `fastmath`, undecoded.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `fastmath`.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.addf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.subf` op: floating point subtraction operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithSubfOp(OpId);

impl OpView for ArithSubfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[21]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithSubfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithSubfOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `fastmath`, undecoded.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `fastmath`.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.subf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.mulf` op: floating point multiplication operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithMulfOp(OpId);

impl OpView for ArithMulfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[22]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithMulfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithMulfOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `fastmath`, undecoded.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `fastmath`.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.mulf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.divf` op: floating point division operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithDivfOp(OpId);

impl OpView for ArithDivfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[23]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithDivfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithDivfOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `fastmath`, undecoded.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `fastmath`.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.divf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.remf` op: floating point division remainder operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithRemfOp(OpId);

impl OpView for ArithRemfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[24]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithRemfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithRemfOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `fastmath`, undecoded.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `fastmath`.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.remf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.maximumf` op: floating-point maximum operation (NaN-propagating).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithMaximumfOp(OpId);

impl OpView for ArithMaximumfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[25]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithMaximumfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithMaximumfOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `fastmath`, undecoded.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `fastmath`.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.maximumf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.minimumf` op: floating-point minimum operation (NaN-propagating).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithMinimumfOp(OpId);

impl OpView for ArithMinimumfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[26]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithMinimumfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithMinimumfOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `fastmath`, undecoded.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `fastmath`.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.minimumf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.maxnumf` op: floating-point maximum operation (IEEE maxNum).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithMaxnumfOp(OpId);

impl OpView for ArithMaxnumfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[27]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithMaxnumfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithMaxnumfOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `fastmath`, undecoded.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `fastmath`.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.maxnumf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.minnumf` op: floating-point minimum operation (IEEE minNum).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithMinnumfOp(OpId);

impl OpView for ArithMinnumfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[28]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithMinnumfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithMinnumfOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `fastmath`, undecoded.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `fastmath`.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.minnumf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.negf` op: floating point negation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithNegfOp(OpId);

impl OpView for ArithNegfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[29]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithNegfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithNegfOp {
    /// Operand `operand`.
    pub fn operand<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `operand`.
    pub fn set_operand(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `fastmath`, undecoded.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `fastmath`.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.negf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.cmpi` op: integer comparison operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithCmpiOp(OpId);

impl OpView for ArithCmpiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[30]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithCmpiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithCmpiOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `predicate`.
    pub fn predicate_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `predicate`, undecoded.
    pub fn predicate_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `predicate`.
    pub fn predicate<'c>(self, ir: &impl Ir<'c>) -> CmpIPredicate {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        CmpIPredicate::from_attr(ctx, a).expect("a case of arith::CmpIPredicate")
    }
    /// Sets attribute `predicate`.
    pub fn set_predicate(self, b: &mut Builder<'_>, v: CmpIPredicate) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.cmpi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value, predicate: CmpIPredicate) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = predicate;
        st.property(&Self::def().attributes[0], v.attr(ctx));
        Self(st.create(b))
    }
}

/// A view of an `arith.cmpf` op: floating-point comparison operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithCmpfOp(OpId);

impl OpView for ArithCmpfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[31]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithCmpfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithCmpfOp {
    /// Operand `lhs`.
    pub fn lhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lhs`.
    pub fn set_lhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `rhs`.
    pub fn rhs<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `rhs`.
    pub fn set_rhs(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `predicate`.
    pub fn predicate_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `predicate`, undecoded.
    pub fn predicate_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `predicate`.
    pub fn predicate<'c>(self, ir: &impl Ir<'c>) -> CmpFPredicate {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        CmpFPredicate::from_attr(ctx, a).expect("a case of arith::CmpFPredicate")
    }
    /// Sets attribute `predicate`.
    pub fn set_predicate(self, b: &mut Builder<'_>, v: CmpFPredicate) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `fastmath`, undecoded.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[1])
    }
    /// Attribute `fastmath`.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[1]);
        FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// Creates an `arith.cmpf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value, predicate: CmpFPredicate) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = predicate;
        st.property(&Self::def().attributes[0], v.attr(ctx));
        Self(st.create(b))
    }
}

/// A view of an `arith.select` op: select operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithSelectOp(OpId);

impl OpView for ArithSelectOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[32]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithSelectOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithSelectOp {
    /// Operand `condition`.
    pub fn condition<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `condition`.
    pub fn set_condition(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `true_value`.
    pub fn true_value<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `true_value`.
    pub fn set_true_value(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Operand `false_value`.
    pub fn false_value<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Sets operand `false_value`.
    pub fn set_false_value(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 2, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.select` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, condition: Value, true_value: Value, false_value: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[condition]);
        st.operands(&[true_value]);
        st.operands(&[false_value]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.constant` op: integer or floating point constant.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithConstantOp(OpId);

impl OpView for ArithConstantOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[33]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithConstantOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithConstantOp {
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `value`.
    pub fn value_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `value`.
    pub fn value<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        a
    }
    /// Sets attribute `value`.
    pub fn set_value(self, b: &mut Builder<'_>, v: Attribute) {
        let value = Some(v);
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.constant` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, result_ty: Type, value_: Attribute) -> Self {
        let mut st = b.op_state(Self::def());
        st.results(&[result_ty]);
        let v = value_;
        st.property(&Self::def().attributes[0], v);
        Self(st.create(b))
    }
}

/// A view of an `arith.extsi` op: integer sign extension operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithExtsiOp(OpId);

impl OpView for ArithExtsiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[34]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithExtsiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithExtsiOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.extsi` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.extui` op: integer zero extension operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithExtuiOp(OpId);

impl OpView for ArithExtuiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[35]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithExtuiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithExtuiOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.extui` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.sitofp` op: cast from integer type to floating-point.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithSitofpOp(OpId);

impl OpView for ArithSitofpOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[36]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithSitofpOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithSitofpOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.sitofp` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.uitofp` op: cast from unsigned integer type to floating-point.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithUitofpOp(OpId);

impl OpView for ArithUitofpOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[37]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithUitofpOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithUitofpOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.uitofp` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.fptosi` op: cast from floating-point type to integer type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithFptosiOp(OpId);

impl OpView for ArithFptosiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[38]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithFptosiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithFptosiOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.fptosi` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.fptoui` op: cast from floating-point type to integer type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithFptouiOp(OpId);

impl OpView for ArithFptouiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[39]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithFptouiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithFptouiOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.fptoui` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.index_cast` op: cast between index and integer types.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithIndexCastOp(OpId);

impl OpView for ArithIndexCastOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[40]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithIndexCastOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithIndexCastOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.index_cast` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.index_castui` op: unsigned cast between index and integer types.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithIndexCastuiOp(OpId);

impl OpView for ArithIndexCastuiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[41]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithIndexCastuiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithIndexCastuiOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.index_castui` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.bitcast` op: bitcast between values of equal bit width.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithBitcastOp(OpId);

impl OpView for ArithBitcastOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[42]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithBitcastOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithBitcastOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `arith.bitcast` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.extf` op: cast from floating-point to wider floating-point.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithExtfOp(OpId);

impl OpView for ArithExtfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[43]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithExtfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithExtfOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `fastmath`, undecoded, if set.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0])
    }
    /// Attribute `fastmath`, if set.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> Option<FastMathFlags> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[0]).map(|a| FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags"))
    }
    /// Sets or removes attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: Option<FastMathFlags>) {
        let ctx = b.ctx();
        let value = v.map(|v| v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.extf` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.trunci` op: integer truncation operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithTrunciOp(OpId);

impl OpView for ArithTrunciOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[44]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithTrunciOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithTrunciOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `overflowFlags`.
    pub fn overflow_flags_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `overflowFlags`, undecoded.
    pub fn overflow_flags_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `overflowFlags`.
    pub fn overflow_flags<'c>(self, ir: &impl Ir<'c>) -> IntegerOverflowFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        IntegerOverflowFlags::from_attr(ctx, a).expect("a case of arith::IntegerOverflowFlags")
    }
    /// Sets attribute `overflowFlags`.
    pub fn set_overflow_flags(self, b: &mut Builder<'_>, v: IntegerOverflowFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `arith.trunci` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}

/// A view of an `arith.truncf` op: cast from floating-point to narrower floating-point.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithTruncfOp(OpId);

impl OpView for ArithTruncfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[45]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ArithTruncfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ArithTruncfOp {
    /// Operand `in`.
    pub fn in_<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `in`.
    pub fn set_in(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `out`.
    pub fn out<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `roundingmode`.
    pub fn roundingmode_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `roundingmode`, undecoded, if set.
    pub fn roundingmode_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0])
    }
    /// Attribute `roundingmode`, if set.
    pub fn roundingmode<'c>(self, ir: &impl Ir<'c>) -> Option<RoundingMode> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[0]).map(|a| RoundingMode::from_attr(ctx, a).expect("a case of arith::RoundingMode"))
    }
    /// Sets or removes attribute `roundingmode`.
    pub fn set_roundingmode(self, b: &mut Builder<'_>, v: Option<RoundingMode>) {
        let ctx = b.ctx();
        let value = v.map(|v| v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `fastmath`.
    pub fn fastmath_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `fastmath`, undecoded, if set.
    pub fn fastmath_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Attribute `fastmath`, if set.
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> Option<FastMathFlags> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1]).map(|a| FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags"))
    }
    /// Sets or removes attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: Option<FastMathFlags>) {
        let ctx = b.ctx();
        let value = v.map(|v| v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// Creates an `arith.truncf` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, in_: Value, out_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[in_]);
        st.results(&[out_ty]);
        Self(st.create(b))
    }
}
