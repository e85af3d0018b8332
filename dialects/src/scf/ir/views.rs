//! Typed views of the `scf` ops, generated from their declarations by
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

/// A view of an `scf.for` op: for operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ScfForOp(OpId);

impl OpView for ScfForOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[0]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ScfForOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ScfForOp {
    /// Operand `lowerBound`.
    pub fn lower_bound<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `lowerBound`.
    pub fn set_lower_bound(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operand `upperBound`.
    pub fn upper_bound<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `upperBound`.
    pub fn set_upper_bound(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Operand `step`.
    pub fn step<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Sets operand `step`.
    pub fn set_step(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 2, 0, value));
    }
    /// Operands `initArgs`.
    pub fn init_args<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 3)
    }
    /// Replaces operands `initArgs`.
    pub fn set_init_args(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 3, values));
    }
    /// Results `results`.
    pub fn results<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::results(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `unsignedCmp`.
    pub fn unsigned_cmp_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Whether the `unsignedCmp` flag is set.
    pub fn unsigned_cmp<'c>(self, ir: &impl Ir<'c>) -> bool {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0]).is_some()
    }
    /// Sets or clears the `unsignedCmp` flag.
    pub fn set_unsigned_cmp(self, b: &mut Builder<'_>, on: bool) {
        let ctx = b.ctx();
        let value = on.then(|| access::unit_attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
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
    /// Creates an `scf.for` at the builder's insertion point and location, with regions that have no block yet.
    pub fn build_empty(b: &mut Builder<'_>, lower_bound: Value, upper_bound: Value, step: Value, init_args: &[Value], results_ty: &[Type]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[lower_bound]);
        st.operands(&[upper_bound]);
        st.operands(&[step]);
        st.operands(init_args);
        st.results(results_ty);
        st.regions(1);
        Self(st.create(b))
    }
}

/// A view of an `scf.if` op: if-then-else operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ScfIfOp(OpId);

impl OpView for ScfIfOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[1]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ScfIfOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ScfIfOp {
    /// Operand `condition`.
    pub fn condition<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `condition`.
    pub fn set_condition(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Results `results`.
    pub fn results<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::results(ir.ctx(), ir.body(), self.0, Self::def(), 0)
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
    /// Creates an `scf.if` at the builder's insertion point and location, with regions that have no block yet.
    pub fn build_empty(b: &mut Builder<'_>, condition: Value, results_ty: &[Type]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[condition]);
        st.results(results_ty);
        st.regions(2);
        Self(st.create(b))
    }
}

/// A view of an `scf.while` op: a generic 'while' loop.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ScfWhileOp(OpId);

impl OpView for ScfWhileOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[2]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ScfWhileOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ScfWhileOp {
    /// Operands `inits`.
    pub fn inits<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `inits`.
    pub fn set_inits(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Results `results`.
    pub fn results<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::results(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Region `before` (held by `ir.body().regions_body(op)`).
    pub fn before<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 0)
    }
    /// Region `after` (held by `ir.body().regions_body(op)`).
    pub fn after<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 1)
    }
    /// Creates an `scf.while` at the builder's insertion point and location, with regions that have no block yet.
    pub fn build_empty(b: &mut Builder<'_>, inits: &[Value], results_ty: &[Type]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(inits);
        st.results(results_ty);
        st.regions(2);
        Self(st.create(b))
    }
}

/// A view of an `scf.condition` op: loop continuation condition.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ScfConditionOp(OpId);

impl OpView for ScfConditionOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[3]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ScfConditionOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ScfConditionOp {
    /// Operand `condition`.
    pub fn condition<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `condition`.
    pub fn set_condition(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operands `args`.
    pub fn args<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Replaces operands `args`.
    pub fn set_args(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 1, values));
    }
    /// Creates an `scf.condition` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, condition: Value, args: &[Value]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[condition]);
        st.operands(args);
        Self(st.create(b))
    }
}

/// A view of an `scf.execute_region` op: operation that executes its region exactly once.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ScfExecuteRegionOp(OpId);

impl OpView for ScfExecuteRegionOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[4]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ScfExecuteRegionOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ScfExecuteRegionOp {
    /// Results `results`.
    pub fn results<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::results(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `no_inline`.
    pub fn no_inline_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Whether the `no_inline` flag is set.
    pub fn no_inline<'c>(self, ir: &impl Ir<'c>) -> bool {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0]).is_some()
    }
    /// Sets or clears the `no_inline` flag.
    pub fn set_no_inline(self, b: &mut Builder<'_>, on: bool) {
        let ctx = b.ctx();
        let value = on.then(|| access::unit_attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Region `region` (held by `ir.body().regions_body(op)`).
    pub fn region<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 0)
    }
    /// Creates an `scf.execute_region` at the builder's insertion point and location, with regions that have no block yet.
    pub fn build_empty(b: &mut Builder<'_>, results_ty: &[Type]) -> Self {
        let mut st = b.op_state(Self::def());
        st.results(results_ty);
        st.regions(1);
        Self(st.create(b))
    }
}

/// A view of an `scf.yield` op: loop yield and termination operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ScfYieldOp(OpId);

impl OpView for ScfYieldOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[5]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ScfYieldOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ScfYieldOp {
    /// Operands `results`.
    pub fn results<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `results`.
    pub fn set_results(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Creates an `scf.yield` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, results: &[Value]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(results);
        Self(st.create(b))
    }
}

/// A view of an `scf.parallel` op: parallel for operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ScfParallelOp(OpId);

impl OpView for ScfParallelOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[6]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ScfParallelOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ScfParallelOp {
    /// Operands `lowerBound`.
    pub fn lower_bound<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `lowerBound`.
    pub fn set_lower_bound(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Operands `upperBound`.
    pub fn upper_bound<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Replaces operands `upperBound`.
    pub fn set_upper_bound(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 1, values));
    }
    /// Operands `step`.
    pub fn step<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Replaces operands `step`.
    pub fn set_step(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 2, values));
    }
    /// Operands `initVals`.
    pub fn init_vals<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 3)
    }
    /// Replaces operands `initVals`.
    pub fn set_init_vals(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 3, values));
    }
    /// Results `results`.
    pub fn results<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::results(ir.ctx(), ir.body(), self.0, Self::def(), 0)
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
    /// Creates an `scf.parallel` at the builder's insertion point and location, with regions that have no block yet.
    pub fn build_empty(b: &mut Builder<'_>, lower_bound: &[Value], upper_bound: &[Value], step: &[Value], init_vals: &[Value], results_ty: &[Type]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(lower_bound);
        st.operands(upper_bound);
        st.operands(step);
        st.operands(init_vals);
        st.results(results_ty);
        st.regions(1);
        Self(st.create(b))
    }
}

/// A view of an `scf.reduce` op: reduce operation for scf.parallel.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ScfReduceOp(OpId);

impl OpView for ScfReduceOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[7]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ScfReduceOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ScfReduceOp {
    /// Operands `operands`.
    pub fn operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `operands`.
    pub fn set_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Creates an `scf.reduce` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, operands: &[Value]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(operands);
        Self(st.create(b))
    }
}

/// A view of an `scf.reduce.return` op: terminator for reduce operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ScfReduceReturnOp(OpId);

impl OpView for ScfReduceReturnOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[8]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        ScfReduceReturnOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl ScfReduceReturnOp {
    /// Operand `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `result`.
    pub fn set_result(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Creates an `scf.reduce.return` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, result: Value) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[result]);
        Self(st.create(b))
    }
}
