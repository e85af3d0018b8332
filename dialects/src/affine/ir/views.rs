//! Typed views of the `affine` ops, generated from their declarations by
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

/// A view of an `affine.apply` op: affine apply operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineApplyOp(OpId);

impl OpView for AffineApplyOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[0]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        AffineApplyOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl AffineApplyOp {
    /// Operands `mapOperands`.
    pub fn map_operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `mapOperands`.
    pub fn set_map_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `map`.
    pub fn map_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `map`, undecoded.
    pub fn map_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `map`.
    pub fn map<'c>(self, ir: &impl Ir<'c>) -> &'c AffineMap {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_affine_map(ctx, a)
    }
    /// Sets attribute `map`.
    pub fn set_map(self, b: &mut Builder<'_>, v: AffineMap) {
        let ctx = b.ctx();
        let value = Some(access::affine_map_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `affine.apply` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, map_operands: &[Value], map: AffineMap) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(map_operands);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = map;
        st.property(&Self::def().attributes[0], access::affine_map_attr(ctx, v));
        Self(st.create(b))
    }
}

/// A view of an `affine.for` op: for operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineForOp(OpId);

impl OpView for AffineForOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[1]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        AffineForOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl AffineForOp {
    /// Operands `lowerBoundOperands`.
    pub fn lower_bound_operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `lowerBoundOperands`.
    pub fn set_lower_bound_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Operands `upperBoundOperands`.
    pub fn upper_bound_operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Replaces operands `upperBoundOperands`.
    pub fn set_upper_bound_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 1, values));
    }
    /// Operands `inits`.
    pub fn inits<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Replaces operands `inits`.
    pub fn set_inits(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 2, values));
    }
    /// Results `results`.
    pub fn results<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::results(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `lowerBoundMap`.
    pub fn lower_bound_map_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `lowerBoundMap`, undecoded.
    pub fn lower_bound_map_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `lowerBoundMap`.
    pub fn lower_bound_map<'c>(self, ir: &impl Ir<'c>) -> &'c AffineMap {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_affine_map(ctx, a)
    }
    /// Sets attribute `lowerBoundMap`.
    pub fn set_lower_bound_map(self, b: &mut Builder<'_>, v: AffineMap) {
        let ctx = b.ctx();
        let value = Some(access::affine_map_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `upperBoundMap`.
    pub fn upper_bound_map_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `upperBoundMap`, undecoded.
    pub fn upper_bound_map_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[1])
    }
    /// Attribute `upperBoundMap`.
    pub fn upper_bound_map<'c>(self, ir: &impl Ir<'c>) -> &'c AffineMap {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[1]);
        access::as_affine_map(ctx, a)
    }
    /// Sets attribute `upperBoundMap`.
    pub fn set_upper_bound_map(self, b: &mut Builder<'_>, v: AffineMap) {
        let ctx = b.ctx();
        let value = Some(access::affine_map_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// The declaration of attribute `step`.
    pub fn step_attr_def() -> &'static AttrDef {
        &Self::def().attributes[2]
    }
    /// Attribute `step`, undecoded.
    pub fn step_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[2])
    }
    /// Attribute `step`.
    pub fn step<'c>(self, ir: &impl Ir<'c>) -> i64 {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[2]);
        access::as_int(ctx, a)
    }
    /// Sets attribute `step`.
    pub fn set_step(self, b: &mut Builder<'_>, v: i64) {
        let ctx = b.ctx();
        let value = Some(access::int_attr(ctx, IntWidth::Index, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[2], value));
    }
    /// Region `region` (held by `ir.body().regions_body(op)`).
    pub fn region<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 0)
    }
    /// The block of region `region`.
    pub fn region_block<'c>(self, ir: &impl Ir<'c>) -> BlockId {
        let b = ir.body();
        b.regions_body(self.0).entry_block(b.region(self.0, 0)).expect("a block")
    }
    /// Creates an `affine.for` at the builder's insertion point and location, with regions that have no block yet.
    #[allow(clippy::too_many_arguments)]
    pub fn build_empty(b: &mut Builder<'_>, lower_bound_operands: &[Value], upper_bound_operands: &[Value], inits: &[Value], results_ty: &[Type], lower_bound_map: AffineMap, upper_bound_map: AffineMap, step: i64) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(lower_bound_operands);
        st.operands(upper_bound_operands);
        st.operands(inits);
        st.results(results_ty);
        let v = lower_bound_map;
        st.property(&Self::def().attributes[0], access::affine_map_attr(ctx, v));
        let v = upper_bound_map;
        st.property(&Self::def().attributes[1], access::affine_map_attr(ctx, v));
        let v = step;
        st.property(&Self::def().attributes[2], access::int_attr(ctx, IntWidth::Index, v));
        st.regions(1);
        Self(st.create(b))
    }
}

/// A view of an `affine.if` op: if-then-else operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineIfOp(OpId);

impl OpView for AffineIfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[2]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        AffineIfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl AffineIfOp {
    /// Operands `operands`.
    pub fn operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `operands`.
    pub fn set_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Results `results`.
    pub fn results<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::results(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `condition`.
    pub fn condition_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `condition`, undecoded.
    pub fn condition_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `condition`.
    pub fn condition<'c>(self, ir: &impl Ir<'c>) -> &'c IntegerSet {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_integer_set(ctx, a)
    }
    /// Sets attribute `condition`.
    pub fn set_condition(self, b: &mut Builder<'_>, v: IntegerSet) {
        let ctx = b.ctx();
        let value = Some(access::integer_set_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Region `thenRegion` (held by `ir.body().regions_body(op)`).
    pub fn then_region<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 0)
    }
    /// The block of region `thenRegion`.
    pub fn then_region_block<'c>(self, ir: &impl Ir<'c>) -> BlockId {
        let b = ir.body();
        b.regions_body(self.0).entry_block(b.region(self.0, 0)).expect("a block")
    }
    /// Region `elseRegion` (held by `ir.body().regions_body(op)`).
    pub fn else_region<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 1)
    }
    /// The block of region `elseRegion`, if it has one.
    pub fn else_region_block<'c>(self, ir: &impl Ir<'c>) -> Option<BlockId> {
        let b = ir.body();
        b.regions_body(self.0).entry_block(b.region(self.0, 1))
    }
    /// Creates an `affine.if` at the builder's insertion point and location, with regions that have no block yet.
    pub fn build_empty(b: &mut Builder<'_>, operands: &[Value], results_ty: &[Type], condition: IntegerSet) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(operands);
        st.results(results_ty);
        let v = condition;
        st.property(&Self::def().attributes[0], access::integer_set_attr(ctx, v));
        st.regions(2);
        Self(st.create(b))
    }
}

/// A view of an `affine.load` op: affine load operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineLoadOp(OpId);

impl OpView for AffineLoadOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[3]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        AffineLoadOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl AffineLoadOp {
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
    /// The declaration of attribute `map`.
    pub fn map_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `map`, undecoded.
    pub fn map_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `map`.
    pub fn map<'c>(self, ir: &impl Ir<'c>) -> &'c AffineMap {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_affine_map(ctx, a)
    }
    /// Sets attribute `map`.
    pub fn set_map(self, b: &mut Builder<'_>, v: AffineMap) {
        let ctx = b.ctx();
        let value = Some(access::affine_map_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `affine.load` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, memref: Value, indices: &[Value], map: AffineMap) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(&[memref]);
        st.operands(indices);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = map;
        st.property(&Self::def().attributes[0], access::affine_map_attr(ctx, v));
        Self(st.create(b))
    }
}

/// A view of an `affine.max` op: max operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineMaxOp(OpId);

impl OpView for AffineMaxOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[4]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        AffineMaxOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl AffineMaxOp {
    /// Operands `mapOperands`.
    pub fn map_operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `mapOperands`.
    pub fn set_map_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `map`.
    pub fn map_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `map`, undecoded.
    pub fn map_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `map`.
    pub fn map<'c>(self, ir: &impl Ir<'c>) -> &'c AffineMap {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_affine_map(ctx, a)
    }
    /// Sets attribute `map`.
    pub fn set_map(self, b: &mut Builder<'_>, v: AffineMap) {
        let ctx = b.ctx();
        let value = Some(access::affine_map_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `affine.max` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, map_operands: &[Value], map: AffineMap) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(map_operands);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = map;
        st.property(&Self::def().attributes[0], access::affine_map_attr(ctx, v));
        Self(st.create(b))
    }
}

/// A view of an `affine.min` op: min operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineMinOp(OpId);

impl OpView for AffineMinOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[5]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        AffineMinOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl AffineMinOp {
    /// Operands `mapOperands`.
    pub fn map_operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `mapOperands`.
    pub fn set_map_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `map`.
    pub fn map_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `map`, undecoded.
    pub fn map_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `map`.
    pub fn map<'c>(self, ir: &impl Ir<'c>) -> &'c AffineMap {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_affine_map(ctx, a)
    }
    /// Sets attribute `map`.
    pub fn set_map(self, b: &mut Builder<'_>, v: AffineMap) {
        let ctx = b.ctx();
        let value = Some(access::affine_map_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `affine.min` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, map_operands: &[Value], map: AffineMap) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(map_operands);
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = map;
        st.property(&Self::def().attributes[0], access::affine_map_attr(ctx, v));
        Self(st.create(b))
    }
}

/// A view of an `affine.parallel` op: multi-index parallel band operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineParallelOp(OpId);

impl OpView for AffineParallelOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[6]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        AffineParallelOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl AffineParallelOp {
    /// Operands `mapOperands`.
    pub fn map_operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `mapOperands`.
    pub fn set_map_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Results `results`.
    pub fn results<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::results(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `reductions`.
    pub fn reductions_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `reductions`.
    pub fn reductions<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        a
    }
    /// Sets attribute `reductions`.
    pub fn set_reductions(self, b: &mut Builder<'_>, v: Attribute) {
        let value = Some(v);
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `lowerBoundsMap`.
    pub fn lower_bounds_map_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `lowerBoundsMap`, undecoded.
    pub fn lower_bounds_map_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[1])
    }
    /// Attribute `lowerBoundsMap`.
    pub fn lower_bounds_map<'c>(self, ir: &impl Ir<'c>) -> &'c AffineMap {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[1]);
        access::as_affine_map(ctx, a)
    }
    /// Sets attribute `lowerBoundsMap`.
    pub fn set_lower_bounds_map(self, b: &mut Builder<'_>, v: AffineMap) {
        let ctx = b.ctx();
        let value = Some(access::affine_map_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// The declaration of attribute `lowerBoundsGroups`.
    pub fn lower_bounds_groups_attr_def() -> &'static AttrDef {
        &Self::def().attributes[2]
    }
    /// Attribute `lowerBoundsGroups`.
    pub fn lower_bounds_groups<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[2]);
        a
    }
    /// Sets attribute `lowerBoundsGroups`.
    pub fn set_lower_bounds_groups(self, b: &mut Builder<'_>, v: Attribute) {
        let value = Some(v);
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[2], value));
    }
    /// The declaration of attribute `upperBoundsMap`.
    pub fn upper_bounds_map_attr_def() -> &'static AttrDef {
        &Self::def().attributes[3]
    }
    /// Attribute `upperBoundsMap`, undecoded.
    pub fn upper_bounds_map_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[3])
    }
    /// Attribute `upperBoundsMap`.
    pub fn upper_bounds_map<'c>(self, ir: &impl Ir<'c>) -> &'c AffineMap {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[3]);
        access::as_affine_map(ctx, a)
    }
    /// Sets attribute `upperBoundsMap`.
    pub fn set_upper_bounds_map(self, b: &mut Builder<'_>, v: AffineMap) {
        let ctx = b.ctx();
        let value = Some(access::affine_map_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[3], value));
    }
    /// The declaration of attribute `upperBoundsGroups`.
    pub fn upper_bounds_groups_attr_def() -> &'static AttrDef {
        &Self::def().attributes[4]
    }
    /// Attribute `upperBoundsGroups`.
    pub fn upper_bounds_groups<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[4]);
        a
    }
    /// Sets attribute `upperBoundsGroups`.
    pub fn set_upper_bounds_groups(self, b: &mut Builder<'_>, v: Attribute) {
        let value = Some(v);
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[4], value));
    }
    /// The declaration of attribute `steps`.
    pub fn steps_attr_def() -> &'static AttrDef {
        &Self::def().attributes[5]
    }
    /// Attribute `steps`.
    pub fn steps<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[5]);
        a
    }
    /// Sets attribute `steps`.
    pub fn set_steps(self, b: &mut Builder<'_>, v: Attribute) {
        let value = Some(v);
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[5], value));
    }
    /// Region `region` (held by `ir.body().regions_body(op)`).
    pub fn region<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 0)
    }
    /// The block of region `region`.
    pub fn region_block<'c>(self, ir: &impl Ir<'c>) -> BlockId {
        let b = ir.body();
        b.regions_body(self.0).entry_block(b.region(self.0, 0)).expect("a block")
    }
    /// Creates an `affine.parallel` at the builder's insertion point and location, with regions that have no block yet.
    #[allow(clippy::too_many_arguments)]
    pub fn build_empty(b: &mut Builder<'_>, map_operands: &[Value], results_ty: &[Type], reductions: Attribute, lower_bounds_map: AffineMap, lower_bounds_groups: Attribute, upper_bounds_map: AffineMap, upper_bounds_groups: Attribute, steps: Attribute) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(map_operands);
        st.results(results_ty);
        let v = reductions;
        st.property(&Self::def().attributes[0], v);
        let v = lower_bounds_map;
        st.property(&Self::def().attributes[1], access::affine_map_attr(ctx, v));
        let v = lower_bounds_groups;
        st.property(&Self::def().attributes[2], v);
        let v = upper_bounds_map;
        st.property(&Self::def().attributes[3], access::affine_map_attr(ctx, v));
        let v = upper_bounds_groups;
        st.property(&Self::def().attributes[4], v);
        let v = steps;
        st.property(&Self::def().attributes[5], v);
        st.regions(1);
        Self(st.create(b))
    }
}

/// A view of an `affine.store` op: affine store operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineStoreOp(OpId);

impl OpView for AffineStoreOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[7]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        AffineStoreOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl AffineStoreOp {
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
    /// The declaration of attribute `map`.
    pub fn map_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `map`, undecoded.
    pub fn map_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `map`.
    pub fn map<'c>(self, ir: &impl Ir<'c>) -> &'c AffineMap {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_affine_map(ctx, a)
    }
    /// Sets attribute `map`.
    pub fn set_map(self, b: &mut Builder<'_>, v: AffineMap) {
        let ctx = b.ctx();
        let value = Some(access::affine_map_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `affine.store` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, value_: Value, memref: Value, indices: &[Value], map: AffineMap) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(&[value_]);
        st.operands(&[memref]);
        st.operands(indices);
        let v = map;
        st.property(&Self::def().attributes[0], access::affine_map_attr(ctx, v));
        Self(st.create(b))
    }
}

/// A view of an `affine.vector_load` op: affine vector load operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineVectorLoadOp(OpId);

impl OpView for AffineVectorLoadOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[8]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        AffineVectorLoadOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl AffineVectorLoadOp {
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
    /// The declaration of attribute `map`.
    pub fn map_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `map`, undecoded.
    pub fn map_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `map`.
    pub fn map<'c>(self, ir: &impl Ir<'c>) -> &'c AffineMap {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_affine_map(ctx, a)
    }
    /// Sets attribute `map`.
    pub fn set_map(self, b: &mut Builder<'_>, v: AffineMap) {
        let ctx = b.ctx();
        let value = Some(access::affine_map_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `affine.vector_load` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, memref: Value, indices: &[Value], result_ty: Type, map: AffineMap) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(&[memref]);
        st.operands(indices);
        st.results(&[result_ty]);
        let v = map;
        st.property(&Self::def().attributes[0], access::affine_map_attr(ctx, v));
        Self(st.create(b))
    }
}

/// A view of an `affine.vector_store` op: affine vector store operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineVectorStoreOp(OpId);

impl OpView for AffineVectorStoreOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[9]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        AffineVectorStoreOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl AffineVectorStoreOp {
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
    /// The declaration of attribute `map`.
    pub fn map_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `map`, undecoded.
    pub fn map_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `map`.
    pub fn map<'c>(self, ir: &impl Ir<'c>) -> &'c AffineMap {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_affine_map(ctx, a)
    }
    /// Sets attribute `map`.
    pub fn set_map(self, b: &mut Builder<'_>, v: AffineMap) {
        let ctx = b.ctx();
        let value = Some(access::affine_map_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `affine.vector_store` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, value_: Value, memref: Value, indices: &[Value], map: AffineMap) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(&[value_]);
        st.operands(&[memref]);
        st.operands(indices);
        let v = map;
        st.property(&Self::def().attributes[0], access::affine_map_attr(ctx, v));
        Self(st.create(b))
    }
}

/// A view of an `affine.yield` op: Yield values to parent operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineYieldOp(OpId);

impl OpView for AffineYieldOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[10]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        AffineYieldOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl AffineYieldOp {
    /// Operands `operands`.
    pub fn operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `operands`.
    pub fn set_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Creates an `affine.yield` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, operands: &[Value]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(operands);
        Self(st.create(b))
    }
}
