//! Typed views of the `memref` ops, generated from their declarations by
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

/// A view of an `memref.alloc` op: memory allocation operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefAllocOp(OpId);

impl OpView for MemrefAllocOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[0]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefAllocOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefAllocOp {
    /// Operands `dynamicSizes`.
    pub fn dynamic_sizes<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `dynamicSizes`.
    pub fn set_dynamic_sizes(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Operands `symbolOperands`.
    pub fn symbol_operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Replaces operands `symbolOperands`.
    pub fn set_symbol_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 1, values));
    }
    /// Result `memref`.
    pub fn memref<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `alignment`.
    pub fn alignment_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `alignment`, undecoded, if set.
    pub fn alignment_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0])
    }
    /// Attribute `alignment`, if set.
    pub fn alignment<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[0]).map(|a| access::as_int(ctx, a))
    }
    /// Sets or removes attribute `alignment`.
    pub fn set_alignment(self, b: &mut Builder<'_>, v: Option<i64>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `memref.alloc` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, dynamic_sizes: &[Value], symbol_operands: &[Value], memref_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(dynamic_sizes);
        st.operands(symbol_operands);
        st.results(&[memref_ty]);
        Self(st.create(b))
    }
}

/// A view of an `memref.alloca` op: stack memory allocation operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefAllocaOp(OpId);

impl OpView for MemrefAllocaOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[1]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefAllocaOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefAllocaOp {
    /// Operands `dynamicSizes`.
    pub fn dynamic_sizes<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `dynamicSizes`.
    pub fn set_dynamic_sizes(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Operands `symbolOperands`.
    pub fn symbol_operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Replaces operands `symbolOperands`.
    pub fn set_symbol_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 1, values));
    }
    /// Result `memref`.
    pub fn memref<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `alignment`.
    pub fn alignment_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `alignment`, undecoded, if set.
    pub fn alignment_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0])
    }
    /// Attribute `alignment`, if set.
    pub fn alignment<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[0]).map(|a| access::as_int(ctx, a))
    }
    /// Sets or removes attribute `alignment`.
    pub fn set_alignment(self, b: &mut Builder<'_>, v: Option<i64>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `memref.alloca` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, dynamic_sizes: &[Value], symbol_operands: &[Value], memref_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(dynamic_sizes);
        st.operands(symbol_operands);
        st.results(&[memref_ty]);
        Self(st.create(b))
    }
}

/// A view of an `memref.dealloc` op: memory deallocation operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefDeallocOp(OpId);

impl OpView for MemrefDeallocOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[2]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefDeallocOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefDeallocOp {
    /// Operand `memref`.
    pub fn memref<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `memref`.
    pub fn set_memref(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Creates an `memref.dealloc` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, memref: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[memref]);
        Self(st.create(b))
    }
}

/// A view of an `memref.load` op: load operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefLoadOp(OpId);

impl OpView for MemrefLoadOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[3]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefLoadOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefLoadOp {
    /// Operand `memref`.
    pub fn memref<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `memref`.
    pub fn set_memref(self, b: &mut Builder<'_>, value: Value) {
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
    /// The declaration of attribute `nontemporal`.
    pub fn nontemporal_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `nontemporal`, undecoded, if set.
    pub fn nontemporal_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0])
    }
    /// Attribute `nontemporal`, if set.
    pub fn nontemporal<'c>(self, ir: &impl Ir<'c>) -> Option<bool> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[0]).map(|a| access::as_bool(ctx, a))
    }
    /// Sets or removes attribute `nontemporal`.
    pub fn set_nontemporal(self, b: &mut Builder<'_>, v: Option<bool>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::bool_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `alignment`.
    pub fn alignment_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `alignment`, undecoded, if set.
    pub fn alignment_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Attribute `alignment`, if set.
    pub fn alignment<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1]).map(|a| access::as_int(ctx, a))
    }
    /// Sets or removes attribute `alignment`.
    pub fn set_alignment(self, b: &mut Builder<'_>, v: Option<i64>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// Creates an `memref.load` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, memref: Value, indices: &[Value]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[memref]);
        st.operands(indices);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `memref.store` op: store operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefStoreOp(OpId);

impl OpView for MemrefStoreOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[4]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefStoreOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefStoreOp {
    /// Operand `value`.
    pub fn value<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `value`.
    pub fn set_value(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `memref`.
    pub fn memref<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `memref`.
    pub fn set_memref(self, b: &mut Builder<'_>, value: Value) {
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
    /// The declaration of attribute `nontemporal`.
    pub fn nontemporal_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `nontemporal`, undecoded, if set.
    pub fn nontemporal_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0])
    }
    /// Attribute `nontemporal`, if set.
    pub fn nontemporal<'c>(self, ir: &impl Ir<'c>) -> Option<bool> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[0]).map(|a| access::as_bool(ctx, a))
    }
    /// Sets or removes attribute `nontemporal`.
    pub fn set_nontemporal(self, b: &mut Builder<'_>, v: Option<bool>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::bool_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `alignment`.
    pub fn alignment_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `alignment`, undecoded, if set.
    pub fn alignment_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Attribute `alignment`, if set.
    pub fn alignment<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1]).map(|a| access::as_int(ctx, a))
    }
    /// Sets or removes attribute `alignment`.
    pub fn set_alignment(self, b: &mut Builder<'_>, v: Option<i64>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// Creates an `memref.store` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, value_: Value, memref: Value, indices: &[Value]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[value_]);
        st.operands(&[memref]);
        st.operands(indices);
        Self(st.create(b))
    }
}

/// A view of an `memref.dim` op: dimension index operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefDimOp(OpId);

impl OpView for MemrefDimOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[5]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefDimOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefDimOp {
    /// Operand `source`.
    pub fn source<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `source`.
    pub fn set_source(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `index`.
    pub fn index<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `index`.
    pub fn set_index(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `memref.dim` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, source: Value, index: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[source]);
        st.operands(&[index]);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `memref.cast` op: memref cast operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefCastOp(OpId);

impl OpView for MemrefCastOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[6]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefCastOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefCastOp {
    /// Operand `source`.
    pub fn source<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `source`.
    pub fn set_source(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Result `dest`.
    pub fn dest<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `memref.cast` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, source: Value, dest_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[source]);
        st.results(&[dest_ty]);
        Self(st.create(b))
    }
}

/// A view of an `memref.copy` op: copies the data from the source to the destination memref.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefCopyOp(OpId);

impl OpView for MemrefCopyOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[7]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefCopyOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefCopyOp {
    /// Operand `source`.
    pub fn source<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `source`.
    pub fn set_source(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `target`.
    pub fn target<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `target`.
    pub fn set_target(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Creates an `memref.copy` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, source: Value, target: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[source]);
        st.operands(&[target]);
        Self(st.create(b))
    }
}

/// A view of an `memref.get_global` op: get the memref pointing to a global variable.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefGetGlobalOp(OpId);

impl OpView for MemrefGetGlobalOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[8]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefGetGlobalOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefGetGlobalOp {
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `name`.
    pub fn name_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `name`, undecoded.
    pub fn name_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `name`.
    pub fn name<'c>(self, ir: &impl Ir<'c>) -> &'c str {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_symbol(ctx, a)
    }
    /// Sets attribute `name`.
    pub fn set_name(self, b: &mut Builder<'_>, v: &str) {
        let ctx = b.ctx();
        let value = Some(access::symbol_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `memref.get_global` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, result_ty: Type, name: &str) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.results(&[result_ty]);
        let v = name;
        st.property(&Self::def().attributes[0], access::symbol_attr(ctx, v));
        Self(st.create(b))
    }
}

/// A view of an `memref.global` op: declare or define a global memref variable.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefGlobalOp(OpId);

impl OpView for MemrefGlobalOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[9]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefGlobalOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefGlobalOp {
    /// The declaration of attribute `sym_name`.
    pub fn sym_name_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `sym_name`, undecoded.
    pub fn sym_name_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `sym_name`.
    pub fn sym_name<'c>(self, ir: &impl Ir<'c>) -> &'c str {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_str(ctx, a)
    }
    /// Sets attribute `sym_name`.
    pub fn set_sym_name(self, b: &mut Builder<'_>, v: &str) {
        let ctx = b.ctx();
        let value = Some(access::str_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `sym_visibility`.
    pub fn sym_visibility_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `sym_visibility`, undecoded, if set.
    pub fn sym_visibility_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Attribute `sym_visibility`, if set.
    pub fn sym_visibility<'c>(self, ir: &impl Ir<'c>) -> Option<&'c str> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1]).map(|a| access::as_str(ctx, a))
    }
    /// Sets or removes attribute `sym_visibility`.
    pub fn set_sym_visibility(self, b: &mut Builder<'_>, v: Option<&str>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::str_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// The declaration of attribute `type`.
    pub fn type_attr_def() -> &'static AttrDef {
        &Self::def().attributes[2]
    }
    /// Attribute `type`, undecoded.
    pub fn type_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[2])
    }
    /// Attribute `type`.
    pub fn type_<'c>(self, ir: &impl Ir<'c>) -> Type {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[2]);
        access::as_type(ctx, a)
    }
    /// Sets attribute `type`.
    pub fn set_type(self, b: &mut Builder<'_>, v: Type) {
        let ctx = b.ctx();
        let value = Some(access::type_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[2], value));
    }
    /// The declaration of attribute `initial_value`.
    pub fn initial_value_attr_def() -> &'static AttrDef {
        &Self::def().attributes[3]
    }
    /// Attribute `initial_value`, if set.
    pub fn initial_value<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[3])
    }
    /// Sets or removes attribute `initial_value`.
    pub fn set_initial_value(self, b: &mut Builder<'_>, v: Option<Attribute>) {
        let value = v;
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[3], value));
    }
    /// The declaration of attribute `constant`.
    pub fn constant_attr_def() -> &'static AttrDef {
        &Self::def().attributes[4]
    }
    /// Whether the `constant` flag is set.
    pub fn constant<'c>(self, ir: &impl Ir<'c>) -> bool {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[4]).is_some()
    }
    /// Sets or clears the `constant` flag.
    pub fn set_constant(self, b: &mut Builder<'_>, on: bool) {
        let ctx = b.ctx();
        let value = on.then(|| access::unit_attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[4], value));
    }
    /// The declaration of attribute `alignment`.
    pub fn alignment_attr_def() -> &'static AttrDef {
        &Self::def().attributes[5]
    }
    /// Attribute `alignment`, undecoded, if set.
    pub fn alignment_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[5])
    }
    /// Attribute `alignment`, if set.
    pub fn alignment<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[5]).map(|a| access::as_int(ctx, a))
    }
    /// Sets or removes attribute `alignment`.
    pub fn set_alignment(self, b: &mut Builder<'_>, v: Option<i64>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[5], value));
    }
    /// Creates an `memref.global` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, sym_name: &str, type_: Type) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        let v = sym_name;
        st.property(&Self::def().attributes[0], access::str_attr(ctx, v));
        let v = type_;
        st.property(&Self::def().attributes[2], access::type_attr(ctx, v));
        Self(st.create(b))
    }
}

/// A view of an `memref.subview` op: memref subview operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefSubviewOp(OpId);

impl OpView for MemrefSubviewOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[10]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefSubviewOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefSubviewOp {
    /// Operand `source`.
    pub fn source<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `source`.
    pub fn set_source(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operands `offsets`.
    pub fn offsets<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Replaces operands `offsets`.
    pub fn set_offsets(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 1, values));
    }
    /// Operands `sizes`.
    pub fn sizes<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Replaces operands `sizes`.
    pub fn set_sizes(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 2, values));
    }
    /// Operands `strides`.
    pub fn strides<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 3)
    }
    /// Replaces operands `strides`.
    pub fn set_strides(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 3, values));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `static_offsets`.
    pub fn static_offsets_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `static_offsets`, undecoded.
    pub fn static_offsets_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `static_offsets`.
    pub fn static_offsets<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_int_array(ctx, a)
    }
    /// Sets attribute `static_offsets`.
    pub fn set_static_offsets(self, b: &mut Builder<'_>, v: &[i64]) {
        let ctx = b.ctx();
        let value = Some(access::int_array_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `static_sizes`.
    pub fn static_sizes_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `static_sizes`, undecoded.
    pub fn static_sizes_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[1])
    }
    /// Attribute `static_sizes`.
    pub fn static_sizes<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[1]);
        access::as_int_array(ctx, a)
    }
    /// Sets attribute `static_sizes`.
    pub fn set_static_sizes(self, b: &mut Builder<'_>, v: &[i64]) {
        let ctx = b.ctx();
        let value = Some(access::int_array_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// The declaration of attribute `static_strides`.
    pub fn static_strides_attr_def() -> &'static AttrDef {
        &Self::def().attributes[2]
    }
    /// Attribute `static_strides`, undecoded.
    pub fn static_strides_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[2])
    }
    /// Attribute `static_strides`.
    pub fn static_strides<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[2]);
        access::as_int_array(ctx, a)
    }
    /// Sets attribute `static_strides`.
    pub fn set_static_strides(self, b: &mut Builder<'_>, v: &[i64]) {
        let ctx = b.ctx();
        let value = Some(access::int_array_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[2], value));
    }
    /// Creates an `memref.subview` at the builder's insertion point and location.
    #[allow(clippy::too_many_arguments)]
    pub fn build(b: &mut Builder<'_>, source: Value, offsets: &[Value], sizes: &[Value], strides: &[Value], result_ty: Type, static_offsets: &[i64], static_sizes: &[i64], static_strides: &[i64]) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(&[source]);
        st.operands(offsets);
        st.operands(sizes);
        st.operands(strides);
        st.results(&[result_ty]);
        let v = static_offsets;
        st.property(&Self::def().attributes[0], access::int_array_attr(ctx, IntWidth::I64, v));
        let v = static_sizes;
        st.property(&Self::def().attributes[1], access::int_array_attr(ctx, IntWidth::I64, v));
        let v = static_strides;
        st.property(&Self::def().attributes[2], access::int_array_attr(ctx, IntWidth::I64, v));
        Self(st.create(b))
    }
}

/// A view of an `memref.view` op: memref view operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefViewOp(OpId);

impl OpView for MemrefViewOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[11]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefViewOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefViewOp {
    /// Operand `source`.
    pub fn source<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `source`.
    pub fn set_source(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `byte_shift`.
    pub fn byte_shift<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `byte_shift`.
    pub fn set_byte_shift(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Operands `sizes`.
    pub fn sizes<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Replaces operands `sizes`.
    pub fn set_sizes(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 2, values));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `memref.view` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, source: Value, byte_shift: Value, sizes: &[Value], result_ty: Type) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[source]);
        st.operands(&[byte_shift]);
        st.operands(sizes);
        st.results(&[result_ty]);
        Self(st.create(b))
    }
}

/// A view of an `memref.reinterpret_cast` op: memref reinterpret cast operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemrefReinterpretCastOp(OpId);

impl OpView for MemrefReinterpretCastOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[12]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        MemrefReinterpretCastOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl MemrefReinterpretCastOp {
    /// Operand `source`.
    pub fn source<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `source`.
    pub fn set_source(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operands `offsets`.
    pub fn offsets<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Replaces operands `offsets`.
    pub fn set_offsets(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 1, values));
    }
    /// Operands `sizes`.
    pub fn sizes<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Replaces operands `sizes`.
    pub fn set_sizes(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 2, values));
    }
    /// Operands `strides`.
    pub fn strides<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 3)
    }
    /// Replaces operands `strides`.
    pub fn set_strides(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 3, values));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `static_offsets`.
    pub fn static_offsets_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `static_offsets`, undecoded.
    pub fn static_offsets_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `static_offsets`.
    pub fn static_offsets<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_int_array(ctx, a)
    }
    /// Sets attribute `static_offsets`.
    pub fn set_static_offsets(self, b: &mut Builder<'_>, v: &[i64]) {
        let ctx = b.ctx();
        let value = Some(access::int_array_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `static_sizes`.
    pub fn static_sizes_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `static_sizes`, undecoded.
    pub fn static_sizes_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[1])
    }
    /// Attribute `static_sizes`.
    pub fn static_sizes<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[1]);
        access::as_int_array(ctx, a)
    }
    /// Sets attribute `static_sizes`.
    pub fn set_static_sizes(self, b: &mut Builder<'_>, v: &[i64]) {
        let ctx = b.ctx();
        let value = Some(access::int_array_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// The declaration of attribute `static_strides`.
    pub fn static_strides_attr_def() -> &'static AttrDef {
        &Self::def().attributes[2]
    }
    /// Attribute `static_strides`, undecoded.
    pub fn static_strides_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[2])
    }
    /// Attribute `static_strides`.
    pub fn static_strides<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[2]);
        access::as_int_array(ctx, a)
    }
    /// Sets attribute `static_strides`.
    pub fn set_static_strides(self, b: &mut Builder<'_>, v: &[i64]) {
        let ctx = b.ctx();
        let value = Some(access::int_array_attr(ctx, IntWidth::I64, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[2], value));
    }
    /// Creates an `memref.reinterpret_cast` at the builder's insertion point and location.
    #[allow(clippy::too_many_arguments)]
    pub fn build(b: &mut Builder<'_>, source: Value, offsets: &[Value], sizes: &[Value], strides: &[Value], result_ty: Type, static_offsets: &[i64], static_sizes: &[i64], static_strides: &[i64]) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(&[source]);
        st.operands(offsets);
        st.operands(sizes);
        st.operands(strides);
        st.results(&[result_ty]);
        let v = static_offsets;
        st.property(&Self::def().attributes[0], access::int_array_attr(ctx, IntWidth::I64, v));
        let v = static_sizes;
        st.property(&Self::def().attributes[1], access::int_array_attr(ctx, IntWidth::I64, v));
        let v = static_strides;
        st.property(&Self::def().attributes[2], access::int_array_attr(ctx, IntWidth::I64, v));
        Self(st.create(b))
    }
}
