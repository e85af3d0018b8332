//! Typed views of the `vector` ops, generated from their declarations by
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

/// A view of an `vector.broadcast` op: broadcast operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct VectorBroadcastOp(OpId);

impl OpView for VectorBroadcastOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[0]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        VectorBroadcastOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl VectorBroadcastOp {
    /// Operand `source`.
    pub fn source<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `source`.
    pub fn set_source(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `vector`.
    pub fn vector<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `vector.broadcast` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, source: Value, vector_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[source]);
        st.results(&[vector_ty]);
        Self(st.create(b))
    }
}

/// A view of an `vector.extract` op: extract operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct VectorExtractOp(OpId);

impl OpView for VectorExtractOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[1]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        VectorExtractOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl VectorExtractOp {
    /// Operand `source`.
    pub fn source<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `source`.
    pub fn set_source(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operands `dynamic_position`.
    pub fn dynamic_position<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Replaces operands `dynamic_position`.
    pub fn set_dynamic_position(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 1, values));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `static_position`.
    pub fn static_position_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `static_position`, undecoded.
    pub fn static_position_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `static_position`.
    pub fn static_position<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_int_array(ctx, a)
    }
    /// Sets attribute `static_position`.
    pub fn set_static_position(self, b: &mut Builder<'_>, v: &[i64]) {
        let ctx = b.ctx();
        let value = Some(access::int_array_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `vector.extract` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, source: Value, dynamic_position: &[Value], static_position: &[i64]) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(&[source]);
        st.operands(dynamic_position);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = static_position;
        st.property(&Self::def().attributes[0], access::int_array_attr(ctx, IntWidth::I64, v));
        Self(st.create(b))
    }
}

/// A view of an `vector.from_elements` op: operation that defines a vector from scalar elements.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct VectorFromElementsOp(OpId);

impl OpView for VectorFromElementsOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[2]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        VectorFromElementsOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl VectorFromElementsOp {
    /// Operands `elements`.
    pub fn elements<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `elements`.
    pub fn set_elements(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Result `dest`.
    pub fn dest<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `vector.from_elements` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, elements: &[Value], dest_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(elements);
        st.results(&[dest_ty]);
        Self(st.create(b))
    }
}

/// A view of an `vector.insert` op: insert operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct VectorInsertOp(OpId);

impl OpView for VectorInsertOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[3]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        VectorInsertOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl VectorInsertOp {
    /// Operand `valueToStore`.
    pub fn value_to_store<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `valueToStore`.
    pub fn set_value_to_store(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `dest`.
    pub fn dest<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `dest`.
    pub fn set_dest(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Operands `dynamic_position`.
    pub fn dynamic_position<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Replaces operands `dynamic_position`.
    pub fn set_dynamic_position(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 2, values));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `static_position`.
    pub fn static_position_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `static_position`, undecoded.
    pub fn static_position_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `static_position`.
    pub fn static_position<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_int_array(ctx, a)
    }
    /// Sets attribute `static_position`.
    pub fn set_static_position(self, b: &mut Builder<'_>, v: &[i64]) {
        let ctx = b.ctx();
        let value = Some(access::int_array_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `vector.insert` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, value_to_store: Value, dest: Value, dynamic_position: &[Value], static_position: &[i64]) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(&[value_to_store]);
        st.operands(&[dest]);
        st.operands(dynamic_position);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = static_position;
        st.property(&Self::def().attributes[0], access::int_array_attr(ctx, IntWidth::I64, v));
        Self(st.create(b))
    }
}

/// A view of an `vector.load` op: reads an n-D slice of memory into an n-D vector.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct VectorLoadOp(OpId);

impl OpView for VectorLoadOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[4]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        VectorLoadOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl VectorLoadOp {
    /// Operand `base`.
    pub fn base<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `base`.
    pub fn set_base(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operands `indices`.
    pub fn indices<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Replaces operands `indices`.
    pub fn set_indices(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 1, values));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `vector.load` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, base: Value, indices: &[Value], result_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[base]);
        st.operands(indices);
        st.results(&[result_ty]);
        Self(st.create(b))
    }
}

/// A view of an `vector.store` op: writes an n-D vector to an n-D slice of memory.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct VectorStoreOp(OpId);

impl OpView for VectorStoreOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[5]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        VectorStoreOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl VectorStoreOp {
    /// Operand `valueToStore`.
    pub fn value_to_store<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `valueToStore`.
    pub fn set_value_to_store(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `base`.
    pub fn base<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `base`.
    pub fn set_base(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Operands `indices`.
    pub fn indices<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Replaces operands `indices`.
    pub fn set_indices(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 2, values));
    }
    /// Creates an `vector.store` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, value_to_store: Value, base: Value, indices: &[Value]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[value_to_store]);
        st.operands(&[base]);
        st.operands(indices);
        Self(st.create(b))
    }
}
