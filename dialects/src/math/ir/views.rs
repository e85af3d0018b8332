//! Typed views of the `math` ops, generated from their declarations by
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

/// A view of an `math.sqrt` op: sqrt of the specified value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathSqrtOp(OpId);

impl OpView for MathSqrtOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[0]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathSqrtOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathSqrtOp {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.sqrt` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.rsqrt` op: reciprocal of sqrt (1 / sqrt of the specified value).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathRsqrtOp(OpId);

impl OpView for MathRsqrtOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[1]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathRsqrtOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathRsqrtOp {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.rsqrt` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.exp` op: base-e exponential of the specified value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathExpOp(OpId);

impl OpView for MathExpOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[2]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathExpOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathExpOp {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.exp` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.exp2` op: base-2 exponential of the specified value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathExp2Op(OpId);

impl OpView for MathExp2Op {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[3]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathExp2Op(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathExp2Op {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.exp2` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.log` op: base-e logarithm of the specified value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathLogOp(OpId);

impl OpView for MathLogOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[4]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathLogOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathLogOp {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.log` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.log2` op: base-2 logarithm of the specified value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathLog2Op(OpId);

impl OpView for MathLog2Op {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[5]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathLog2Op(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathLog2Op {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.log2` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.sin` op: sine of the specified value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathSinOp(OpId);

impl OpView for MathSinOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[6]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathSinOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathSinOp {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.sin` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.cos` op: cosine of the specified value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathCosOp(OpId);

impl OpView for MathCosOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[7]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathCosOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathCosOp {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.cos` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.tanh` op: hyperbolic tangent of the specified value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathTanhOp(OpId);

impl OpView for MathTanhOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[8]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathTanhOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathTanhOp {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.tanh` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.absf` op: floating point absolute-value operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathAbsfOp(OpId);

impl OpView for MathAbsfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[9]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathAbsfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathAbsfOp {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.absf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.floor` op: floor of the specified value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathFloorOp(OpId);

impl OpView for MathFloorOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[10]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathFloorOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathFloorOp {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.floor` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.ceil` op: ceiling of the specified value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathCeilOp(OpId);

impl OpView for MathCeilOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[11]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathCeilOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathCeilOp {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.ceil` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.absi` op: integer absolute-value operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathAbsiOp(OpId);

impl OpView for MathAbsiOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[12]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathAbsiOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathAbsiOp {
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
    /// Creates an `math.absi` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, operand: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[operand]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.powf` op: floating point raised to the power of operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathPowfOp(OpId);

impl OpView for MathPowfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[13]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathPowfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathPowfOp {
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.powf` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, lhs: Value, rhs: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lhs]);
        st.operands(&[rhs]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `math.fma` op: floating point fused multipy-add operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MathFmaOp(OpId);

impl OpView for MathFmaOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[14]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MathFmaOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MathFmaOp {
    /// Operand `a`.
    pub fn a<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `a`.
    pub fn set_a(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `b`.
    pub fn b<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `b`.
    pub fn set_b(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Operand `c`.
    pub fn c<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Sets operand `c`.
    pub fn set_c(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 2, 0, value));
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
    pub fn fastmath<'c>(self, ir: &impl Ir<'c>) -> crate::arith::FastMathFlags {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        crate::arith::FastMathFlags::from_attr(ctx, a).expect("a case of arith::FastMathFlags")
    }
    /// Sets attribute `fastmath`.
    pub fn set_fastmath(self, b: &mut Builder<'_>, v: crate::arith::FastMathFlags) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `math.fma` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, a_: Value, b_: Value, c: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[a_]);
        st.operands(&[b_]);
        st.operands(&[c]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}
