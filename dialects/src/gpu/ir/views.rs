//! Typed views of the `gpu` ops, generated from their declarations by
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

/// The cases of `gpu::Dimension` (`#gpu<dim ...>`, declared by [`super::DIMENSION`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Dimension {
    /// `x`.
    X,
    /// `y`.
    Y,
    /// `z`.
    Z,
}

impl Dimension {
    /// Every case, in declaration order.
    pub const ALL: [Dimension; 3] = [
        Dimension::X,
        Dimension::Y,
        Dimension::Z,
    ];

    /// The case's position in the declaration.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The keyword of the case.
    pub fn keyword(self) -> &'static str {
        super::DIMENSION.cases[self as usize]
    }

    /// The attribute holding the case.
    pub fn attr(self, ctx: &Context) -> Attribute {
        super::DIMENSION.attr(ctx, self as usize)
    }

    /// The case an attribute holds.
    pub fn from_attr(ctx: &Context, a: Attribute) -> Option<Self> {
        super::DIMENSION.decode(ctx, a).map(|i| Self::ALL[i])
    }
}

/// The cases of `gpu::AddressSpace` (`#gpu.address_space<...>`, declared by [`super::ADDRESS_SPACE`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AddressSpace {
    /// `global`.
    Global,
    /// `workgroup`.
    Workgroup,
    /// `private`.
    Private,
}

impl AddressSpace {
    /// Every case, in declaration order.
    pub const ALL: [AddressSpace; 3] = [
        AddressSpace::Global,
        AddressSpace::Workgroup,
        AddressSpace::Private,
    ];

    /// The case's position in the declaration.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The keyword of the case.
    pub fn keyword(self) -> &'static str {
        super::ADDRESS_SPACE.cases[self as usize]
    }

    /// The attribute holding the case.
    pub fn attr(self, ctx: &Context) -> Attribute {
        super::ADDRESS_SPACE.attr(ctx, self as usize)
    }

    /// The case an attribute holds.
    pub fn from_attr(ctx: &Context, a: Attribute) -> Option<Self> {
        super::ADDRESS_SPACE.decode(ctx, a).map(|i| Self::ALL[i])
    }
}

/// A view of an `gpu.module` op: A top level compilation unit containing code to be run on a GPU.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuModuleOp(OpId);

impl OpView for GpuModuleOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[0]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuModuleOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuModuleOp {
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
    /// The declaration of attribute `targets`.
    pub fn targets_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `targets`, if set.
    pub fn targets<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Sets or removes attribute `targets`.
    pub fn set_targets(self, b: &mut Builder<'_>, v: Option<Attribute>) {
        let value = v;
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// The declaration of attribute `offloadingHandler`.
    pub fn offloading_handler_attr_def() -> &'static AttrDef {
        &Self::def().attributes[2]
    }
    /// Attribute `offloadingHandler`, if set.
    pub fn offloading_handler<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[2])
    }
    /// Sets or removes attribute `offloadingHandler`.
    pub fn set_offloading_handler(self, b: &mut Builder<'_>, v: Option<Attribute>) {
        let value = v;
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[2], value));
    }
    /// Region `bodyRegion` (held by `ir.body().regions_body(op)`).
    pub fn body_region<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 0)
    }
    /// The block of region `bodyRegion`.
    pub fn body_region_block<'c>(self, ir: &impl Ir<'c>) -> BlockId {
        let b = ir.body();
        b.regions_body(self.0).entry_block(b.region(self.0, 0)).expect("a block")
    }
    /// Creates an `gpu.module` at the builder's insertion point and location, with regions that have no block yet.
    pub fn build_empty(b: &mut Builder<'_>, sym_name: &str) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        let v = sym_name;
        st.property(&Self::def().attributes[0], access::str_attr(ctx, v));
        st.regions(1);
        Self(st.create(b))
    }
}

/// A view of an `gpu.func` op: Function executable on a GPU.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuFuncOp(OpId);

impl OpView for GpuFuncOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[1]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuFuncOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuFuncOp {
    /// The declaration of attribute `function_type`.
    pub fn function_type_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `function_type`, undecoded.
    pub fn function_type_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `function_type`.
    pub fn function_type<'c>(self, ir: &impl Ir<'c>) -> Type {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_type(ctx, a)
    }
    /// Sets attribute `function_type`.
    pub fn set_function_type(self, b: &mut Builder<'_>, v: Type) {
        let ctx = b.ctx();
        let value = Some(access::type_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `arg_attrs`.
    pub fn arg_attrs_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `arg_attrs`, if set.
    pub fn arg_attrs<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Sets or removes attribute `arg_attrs`.
    pub fn set_arg_attrs(self, b: &mut Builder<'_>, v: Option<Attribute>) {
        let value = v;
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// The declaration of attribute `res_attrs`.
    pub fn res_attrs_attr_def() -> &'static AttrDef {
        &Self::def().attributes[2]
    }
    /// Attribute `res_attrs`, if set.
    pub fn res_attrs<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[2])
    }
    /// Sets or removes attribute `res_attrs`.
    pub fn set_res_attrs(self, b: &mut Builder<'_>, v: Option<Attribute>) {
        let value = v;
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[2], value));
    }
    /// The declaration of attribute `workgroup_attrib_attrs`.
    pub fn workgroup_attrib_attrs_attr_def() -> &'static AttrDef {
        &Self::def().attributes[3]
    }
    /// Attribute `workgroup_attrib_attrs`, if set.
    pub fn workgroup_attrib_attrs<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[3])
    }
    /// Sets or removes attribute `workgroup_attrib_attrs`.
    pub fn set_workgroup_attrib_attrs(self, b: &mut Builder<'_>, v: Option<Attribute>) {
        let value = v;
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[3], value));
    }
    /// The declaration of attribute `private_attrib_attrs`.
    pub fn private_attrib_attrs_attr_def() -> &'static AttrDef {
        &Self::def().attributes[4]
    }
    /// Attribute `private_attrib_attrs`, if set.
    pub fn private_attrib_attrs<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[4])
    }
    /// Sets or removes attribute `private_attrib_attrs`.
    pub fn set_private_attrib_attrs(self, b: &mut Builder<'_>, v: Option<Attribute>) {
        let value = v;
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[4], value));
    }
    /// The declaration of attribute `known_block_size`.
    pub fn known_block_size_attr_def() -> &'static AttrDef {
        &Self::def().attributes[5]
    }
    /// Attribute `known_block_size`, undecoded, if set.
    pub fn known_block_size_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[5])
    }
    /// Attribute `known_block_size`, if set.
    pub fn known_block_size<'c>(self, ir: &impl Ir<'c>) -> Option<Vec<i64>> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[5]).map(|a| access::as_int_array(ctx, a))
    }
    /// Sets or removes attribute `known_block_size`.
    pub fn set_known_block_size(self, b: &mut Builder<'_>, v: Option<&[i64]>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_array_attr(ctx, IntWidth::I32, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[5], value));
    }
    /// The declaration of attribute `known_grid_size`.
    pub fn known_grid_size_attr_def() -> &'static AttrDef {
        &Self::def().attributes[6]
    }
    /// Attribute `known_grid_size`, undecoded, if set.
    pub fn known_grid_size_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[6])
    }
    /// Attribute `known_grid_size`, if set.
    pub fn known_grid_size<'c>(self, ir: &impl Ir<'c>) -> Option<Vec<i64>> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[6]).map(|a| access::as_int_array(ctx, a))
    }
    /// Sets or removes attribute `known_grid_size`.
    pub fn set_known_grid_size(self, b: &mut Builder<'_>, v: Option<&[i64]>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_array_attr(ctx, IntWidth::I32, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[6], value));
    }
    /// The declaration of attribute `known_cluster_size`.
    pub fn known_cluster_size_attr_def() -> &'static AttrDef {
        &Self::def().attributes[7]
    }
    /// Attribute `known_cluster_size`, undecoded, if set.
    pub fn known_cluster_size_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[7])
    }
    /// Attribute `known_cluster_size`, if set.
    pub fn known_cluster_size<'c>(self, ir: &impl Ir<'c>) -> Option<Vec<i64>> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[7]).map(|a| access::as_int_array(ctx, a))
    }
    /// Sets or removes attribute `known_cluster_size`.
    pub fn set_known_cluster_size(self, b: &mut Builder<'_>, v: Option<&[i64]>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_array_attr(ctx, IntWidth::I32, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[7], value));
    }
    /// Region `body` (held by `ir.body().regions_body(op)`).
    pub fn body<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 0)
    }
    /// Creates an `gpu.func` at the builder's insertion point and location, with regions that have no block yet.
    pub fn build_empty(b: &mut Builder<'_>, function_type: Type) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        let v = function_type;
        st.property(&Self::def().attributes[0], access::type_attr(ctx, v));
        st.regions(1);
        Self(st.create(b))
    }
}

/// A view of an `gpu.return` op: Terminator for GPU functions.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuReturnOp(OpId);

impl OpView for GpuReturnOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[2]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuReturnOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuReturnOp {
    /// Operands `operands`.
    pub fn operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `operands`.
    pub fn set_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Creates an `gpu.return` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, operands: &[Value]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(operands);
        Self(st.create(b))
    }
}

/// A view of an `gpu.terminator` op: Terminator for GPU launch regions.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuTerminatorOp(OpId);

impl OpView for GpuTerminatorOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[3]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuTerminatorOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuTerminatorOp {
    /// Creates an `gpu.terminator` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>) -> Self {
        let st = b.op_state(Self::def());
        Self(st.create(b))
    }
}

/// A view of an `gpu.yield` op: GPU yield operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuYieldOp(OpId);

impl OpView for GpuYieldOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[4]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuYieldOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuYieldOp {
    /// Operands `values`.
    pub fn values<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `values`.
    pub fn set_values(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Creates an `gpu.yield` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, values_: &[Value]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(values_);
        Self(st.create(b))
    }
}

/// A view of an `gpu.thread_id` op: Returns the thread id along a dimension.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuThreadIdOp(OpId);

impl OpView for GpuThreadIdOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[5]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuThreadIdOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuThreadIdOp {
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `dimension`.
    pub fn dimension_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `dimension`, undecoded.
    pub fn dimension_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `dimension`.
    pub fn dimension<'c>(self, ir: &impl Ir<'c>) -> Dimension {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        Dimension::from_attr(ctx, a).expect("a case of gpu::Dimension")
    }
    /// Sets attribute `dimension`.
    pub fn set_dimension(self, b: &mut Builder<'_>, v: Dimension) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `upper_bound`.
    pub fn upper_bound_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `upper_bound`, undecoded, if set.
    pub fn upper_bound_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Attribute `upper_bound`, if set.
    pub fn upper_bound<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1]).map(|a| access::as_int(ctx, a))
    }
    /// Sets or removes attribute `upper_bound`.
    pub fn set_upper_bound(self, b: &mut Builder<'_>, v: Option<i64>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_attr(ctx, IntWidth::Index, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// Creates an `gpu.thread_id` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, dimension: Dimension) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = dimension;
        st.property(&Self::def().attributes[0], v.attr(ctx));
        Self(st.create(b))
    }
}

/// A view of an `gpu.block_id` op: Returns the block id along a dimension.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuBlockIdOp(OpId);

impl OpView for GpuBlockIdOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[6]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuBlockIdOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuBlockIdOp {
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `dimension`.
    pub fn dimension_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `dimension`, undecoded.
    pub fn dimension_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `dimension`.
    pub fn dimension<'c>(self, ir: &impl Ir<'c>) -> Dimension {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        Dimension::from_attr(ctx, a).expect("a case of gpu::Dimension")
    }
    /// Sets attribute `dimension`.
    pub fn set_dimension(self, b: &mut Builder<'_>, v: Dimension) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `upper_bound`.
    pub fn upper_bound_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `upper_bound`, undecoded, if set.
    pub fn upper_bound_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Attribute `upper_bound`, if set.
    pub fn upper_bound<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1]).map(|a| access::as_int(ctx, a))
    }
    /// Sets or removes attribute `upper_bound`.
    pub fn set_upper_bound(self, b: &mut Builder<'_>, v: Option<i64>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_attr(ctx, IntWidth::Index, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// Creates an `gpu.block_id` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, dimension: Dimension) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = dimension;
        st.property(&Self::def().attributes[0], v.attr(ctx));
        Self(st.create(b))
    }
}

/// A view of an `gpu.block_dim` op: Returns the number of threads in the thread block (aka the block size) along a dimension.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuBlockDimOp(OpId);

impl OpView for GpuBlockDimOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[7]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuBlockDimOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuBlockDimOp {
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `dimension`.
    pub fn dimension_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `dimension`, undecoded.
    pub fn dimension_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `dimension`.
    pub fn dimension<'c>(self, ir: &impl Ir<'c>) -> Dimension {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        Dimension::from_attr(ctx, a).expect("a case of gpu::Dimension")
    }
    /// Sets attribute `dimension`.
    pub fn set_dimension(self, b: &mut Builder<'_>, v: Dimension) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `upper_bound`.
    pub fn upper_bound_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `upper_bound`, undecoded, if set.
    pub fn upper_bound_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Attribute `upper_bound`, if set.
    pub fn upper_bound<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1]).map(|a| access::as_int(ctx, a))
    }
    /// Sets or removes attribute `upper_bound`.
    pub fn set_upper_bound(self, b: &mut Builder<'_>, v: Option<i64>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_attr(ctx, IntWidth::Index, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// Creates an `gpu.block_dim` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, dimension: Dimension) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = dimension;
        st.property(&Self::def().attributes[0], v.attr(ctx));
        Self(st.create(b))
    }
}

/// A view of an `gpu.grid_dim` op: Returns the number of thread blocks in the grid along a dimension.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuGridDimOp(OpId);

impl OpView for GpuGridDimOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[8]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuGridDimOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuGridDimOp {
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `dimension`.
    pub fn dimension_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `dimension`, undecoded.
    pub fn dimension_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `dimension`.
    pub fn dimension<'c>(self, ir: &impl Ir<'c>) -> Dimension {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        Dimension::from_attr(ctx, a).expect("a case of gpu::Dimension")
    }
    /// Sets attribute `dimension`.
    pub fn set_dimension(self, b: &mut Builder<'_>, v: Dimension) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `upper_bound`.
    pub fn upper_bound_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `upper_bound`, undecoded, if set.
    pub fn upper_bound_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Attribute `upper_bound`, if set.
    pub fn upper_bound<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1]).map(|a| access::as_int(ctx, a))
    }
    /// Sets or removes attribute `upper_bound`.
    pub fn set_upper_bound(self, b: &mut Builder<'_>, v: Option<i64>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_attr(ctx, IntWidth::Index, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// Creates an `gpu.grid_dim` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, dimension: Dimension) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = dimension;
        st.property(&Self::def().attributes[0], v.attr(ctx));
        Self(st.create(b))
    }
}

/// A view of an `gpu.global_id` op: Returns the unique global thread id along a dimension.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuGlobalIdOp(OpId);

impl OpView for GpuGlobalIdOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[9]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuGlobalIdOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuGlobalIdOp {
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `dimension`.
    pub fn dimension_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `dimension`, undecoded.
    pub fn dimension_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `dimension`.
    pub fn dimension<'c>(self, ir: &impl Ir<'c>) -> Dimension {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        Dimension::from_attr(ctx, a).expect("a case of gpu::Dimension")
    }
    /// Sets attribute `dimension`.
    pub fn set_dimension(self, b: &mut Builder<'_>, v: Dimension) {
        let ctx = b.ctx();
        let value = Some(v.attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `upper_bound`.
    pub fn upper_bound_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `upper_bound`, undecoded, if set.
    pub fn upper_bound_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Attribute `upper_bound`, if set.
    pub fn upper_bound<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1]).map(|a| access::as_int(ctx, a))
    }
    /// Sets or removes attribute `upper_bound`.
    pub fn set_upper_bound(self, b: &mut Builder<'_>, v: Option<i64>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_attr(ctx, IntWidth::Index, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// Creates an `gpu.global_id` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>, dimension: Dimension) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        let v = dimension;
        st.property(&Self::def().attributes[0], v.attr(ctx));
        Self(st.create(b))
    }
}

/// A view of an `gpu.lane_id` op: Returns the id of the thread within a subgroup.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuLaneIdOp(OpId);

impl OpView for GpuLaneIdOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[10]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuLaneIdOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuLaneIdOp {
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `upper_bound`.
    pub fn upper_bound_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `upper_bound`, undecoded, if set.
    pub fn upper_bound_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0])
    }
    /// Attribute `upper_bound`, if set.
    pub fn upper_bound<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[0]).map(|a| access::as_int(ctx, a))
    }
    /// Sets or removes attribute `upper_bound`.
    pub fn set_upper_bound(self, b: &mut Builder<'_>, v: Option<i64>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::int_attr(ctx, IntWidth::Index, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `gpu.lane_id` at the builder's insertion point and location (the type of `result` is derived).
    pub fn build(b: &mut Builder<'_>) -> Self {
        let mut st = b.op_state(Self::def());
        let ty = st.inferred_result(b.ctx(), b.body(), 0);
        st.results(&[ty]);
        Self(st.create(b))
    }
}

/// A view of an `gpu.barrier` op: Synchronizes all work items of a workgroup.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuBarrierOp(OpId);

impl OpView for GpuBarrierOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[11]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuBarrierOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuBarrierOp {
    /// Creates an `gpu.barrier` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>) -> Self {
        let st = b.op_state(Self::def());
        Self(st.create(b))
    }
}

/// A view of an `gpu.launch` op: GPU kernel launch operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuLaunchOp(OpId);

impl OpView for GpuLaunchOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[12]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuLaunchOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuLaunchOp {
    /// Operands `asyncDependencies`.
    pub fn async_dependencies<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `asyncDependencies`.
    pub fn set_async_dependencies(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Operand `gridSizeX`.
    pub fn grid_size_x<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `gridSizeX`.
    pub fn set_grid_size_x(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Operand `gridSizeY`.
    pub fn grid_size_y<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Sets operand `gridSizeY`.
    pub fn set_grid_size_y(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 2, 0, value));
    }
    /// Operand `gridSizeZ`.
    pub fn grid_size_z<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 3)
    }
    /// Sets operand `gridSizeZ`.
    pub fn set_grid_size_z(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 3, 0, value));
    }
    /// Operand `blockSizeX`.
    pub fn block_size_x<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 4)
    }
    /// Sets operand `blockSizeX`.
    pub fn set_block_size_x(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 4, 0, value));
    }
    /// Operand `blockSizeY`.
    pub fn block_size_y<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 5)
    }
    /// Sets operand `blockSizeY`.
    pub fn set_block_size_y(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 5, 0, value));
    }
    /// Operand `blockSizeZ`.
    pub fn block_size_z<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 6)
    }
    /// Sets operand `blockSizeZ`.
    pub fn set_block_size_z(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 6, 0, value));
    }
    /// Operand `clusterSizeX`, if present.
    pub fn cluster_size_x<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_operand(ir.ctx(), ir.body(), self.0, Self::def(), 7)
    }
    /// Sets or removes operand `clusterSizeX`.
    pub fn set_cluster_size_x(self, b: &mut Builder<'_>, value: Option<Value>) {
        let values: ValueList = value.into_iter().collect();
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 7, &values));
    }
    /// Operand `clusterSizeY`, if present.
    pub fn cluster_size_y<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_operand(ir.ctx(), ir.body(), self.0, Self::def(), 8)
    }
    /// Sets or removes operand `clusterSizeY`.
    pub fn set_cluster_size_y(self, b: &mut Builder<'_>, value: Option<Value>) {
        let values: ValueList = value.into_iter().collect();
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 8, &values));
    }
    /// Operand `clusterSizeZ`, if present.
    pub fn cluster_size_z<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_operand(ir.ctx(), ir.body(), self.0, Self::def(), 9)
    }
    /// Sets or removes operand `clusterSizeZ`.
    pub fn set_cluster_size_z(self, b: &mut Builder<'_>, value: Option<Value>) {
        let values: ValueList = value.into_iter().collect();
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 9, &values));
    }
    /// Operand `dynamicSharedMemorySize`, if present.
    pub fn dynamic_shared_memory_size<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_operand(ir.ctx(), ir.body(), self.0, Self::def(), 10)
    }
    /// Sets or removes operand `dynamicSharedMemorySize`.
    pub fn set_dynamic_shared_memory_size(self, b: &mut Builder<'_>, value: Option<Value>) {
        let values: ValueList = value.into_iter().collect();
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 10, &values));
    }
    /// Result `asyncToken`, if present.
    pub fn async_token<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `module`.
    pub fn module_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `module`, undecoded, if set.
    pub fn module_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0])
    }
    /// Attribute `module`, if set.
    pub fn module<'c>(self, ir: &impl Ir<'c>) -> Option<&'c str> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[0]).map(|a| access::as_symbol(ctx, a))
    }
    /// Sets or removes attribute `module`.
    pub fn set_module(self, b: &mut Builder<'_>, v: Option<&str>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::symbol_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `function`.
    pub fn function_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `function`, undecoded, if set.
    pub fn function_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Attribute `function`, if set.
    pub fn function<'c>(self, ir: &impl Ir<'c>) -> Option<&'c str> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1]).map(|a| access::as_symbol(ctx, a))
    }
    /// Sets or removes attribute `function`.
    pub fn set_function(self, b: &mut Builder<'_>, v: Option<&str>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::symbol_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// Region `body` (held by `ir.body().regions_body(op)`).
    pub fn body<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 0)
    }
    /// Creates an `gpu.launch` at the builder's insertion point and location, with regions that have no block yet.
    #[allow(clippy::too_many_arguments)]
    pub fn build_empty(b: &mut Builder<'_>, async_dependencies: &[Value], grid_size_x: Value, grid_size_y: Value, grid_size_z: Value, block_size_x: Value, block_size_y: Value, block_size_z: Value, cluster_size_x: Option<Value>, cluster_size_y: Option<Value>, cluster_size_z: Option<Value>, dynamic_shared_memory_size: Option<Value>, async_token_ty: Option<Type>) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(async_dependencies);
        st.operands(&[grid_size_x]);
        st.operands(&[grid_size_y]);
        st.operands(&[grid_size_z]);
        st.operands(&[block_size_x]);
        st.operands(&[block_size_y]);
        st.operands(&[block_size_z]);
        st.operands(cluster_size_x.as_slice());
        st.operands(cluster_size_y.as_slice());
        st.operands(cluster_size_z.as_slice());
        st.operands(dynamic_shared_memory_size.as_slice());
        st.results(async_token_ty.as_slice());
        st.regions(1);
        Self(st.create(b))
    }
}

/// A view of an `gpu.launch_func` op: Launches a function as a GPU kernel.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuLaunchFuncOp(OpId);

impl OpView for GpuLaunchFuncOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[13]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuLaunchFuncOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuLaunchFuncOp {
    /// Operands `asyncDependencies`.
    pub fn async_dependencies<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `asyncDependencies`.
    pub fn set_async_dependencies(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Operand `gridSizeX`.
    pub fn grid_size_x<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `gridSizeX`.
    pub fn set_grid_size_x(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Operand `gridSizeY`.
    pub fn grid_size_y<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Sets operand `gridSizeY`.
    pub fn set_grid_size_y(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 2, 0, value));
    }
    /// Operand `gridSizeZ`.
    pub fn grid_size_z<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 3)
    }
    /// Sets operand `gridSizeZ`.
    pub fn set_grid_size_z(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 3, 0, value));
    }
    /// Operand `blockSizeX`.
    pub fn block_size_x<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 4)
    }
    /// Sets operand `blockSizeX`.
    pub fn set_block_size_x(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 4, 0, value));
    }
    /// Operand `blockSizeY`.
    pub fn block_size_y<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 5)
    }
    /// Sets operand `blockSizeY`.
    pub fn set_block_size_y(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 5, 0, value));
    }
    /// Operand `blockSizeZ`.
    pub fn block_size_z<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 6)
    }
    /// Sets operand `blockSizeZ`.
    pub fn set_block_size_z(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 6, 0, value));
    }
    /// Operand `clusterSizeX`, if present.
    pub fn cluster_size_x<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_operand(ir.ctx(), ir.body(), self.0, Self::def(), 7)
    }
    /// Sets or removes operand `clusterSizeX`.
    pub fn set_cluster_size_x(self, b: &mut Builder<'_>, value: Option<Value>) {
        let values: ValueList = value.into_iter().collect();
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 7, &values));
    }
    /// Operand `clusterSizeY`, if present.
    pub fn cluster_size_y<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_operand(ir.ctx(), ir.body(), self.0, Self::def(), 8)
    }
    /// Sets or removes operand `clusterSizeY`.
    pub fn set_cluster_size_y(self, b: &mut Builder<'_>, value: Option<Value>) {
        let values: ValueList = value.into_iter().collect();
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 8, &values));
    }
    /// Operand `clusterSizeZ`, if present.
    pub fn cluster_size_z<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_operand(ir.ctx(), ir.body(), self.0, Self::def(), 9)
    }
    /// Sets or removes operand `clusterSizeZ`.
    pub fn set_cluster_size_z(self, b: &mut Builder<'_>, value: Option<Value>) {
        let values: ValueList = value.into_iter().collect();
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 9, &values));
    }
    /// Operand `dynamicSharedMemorySize`, if present.
    pub fn dynamic_shared_memory_size<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_operand(ir.ctx(), ir.body(), self.0, Self::def(), 10)
    }
    /// Sets or removes operand `dynamicSharedMemorySize`.
    pub fn set_dynamic_shared_memory_size(self, b: &mut Builder<'_>, value: Option<Value>) {
        let values: ValueList = value.into_iter().collect();
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 10, &values));
    }
    /// Operands `kernelOperands`.
    pub fn kernel_operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 11)
    }
    /// Replaces operands `kernelOperands`.
    pub fn set_kernel_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 11, values));
    }
    /// Operand `asyncObject`, if present.
    pub fn async_object<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_operand(ir.ctx(), ir.body(), self.0, Self::def(), 12)
    }
    /// Sets or removes operand `asyncObject`.
    pub fn set_async_object(self, b: &mut Builder<'_>, value: Option<Value>) {
        let values: ValueList = value.into_iter().collect();
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 12, &values));
    }
    /// Result `asyncToken`, if present.
    pub fn async_token<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `kernel`.
    pub fn kernel_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `kernel`.
    pub fn kernel<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        a
    }
    /// Sets attribute `kernel`.
    pub fn set_kernel(self, b: &mut Builder<'_>, v: Attribute) {
        let value = Some(v);
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `gpu.launch_func` at the builder's insertion point and location.
    #[allow(clippy::too_many_arguments)]
    pub fn build(b: &mut Builder<'_>, async_dependencies: &[Value], grid_size_x: Value, grid_size_y: Value, grid_size_z: Value, block_size_x: Value, block_size_y: Value, block_size_z: Value, cluster_size_x: Option<Value>, cluster_size_y: Option<Value>, cluster_size_z: Option<Value>, dynamic_shared_memory_size: Option<Value>, kernel_operands: &[Value], async_object: Option<Value>, async_token_ty: Option<Type>, kernel: Attribute) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(async_dependencies);
        st.operands(&[grid_size_x]);
        st.operands(&[grid_size_y]);
        st.operands(&[grid_size_z]);
        st.operands(&[block_size_x]);
        st.operands(&[block_size_y]);
        st.operands(&[block_size_z]);
        st.operands(cluster_size_x.as_slice());
        st.operands(cluster_size_y.as_slice());
        st.operands(cluster_size_z.as_slice());
        st.operands(dynamic_shared_memory_size.as_slice());
        st.operands(kernel_operands);
        st.operands(async_object.as_slice());
        st.results(async_token_ty.as_slice());
        let v = kernel;
        st.property(&Self::def().attributes[0], v);
        Self(st.create(b))
    }
}

/// A view of an `gpu.alloc` op: GPU memory allocation operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuAllocOp(OpId);

impl OpView for GpuAllocOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[14]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuAllocOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuAllocOp {
    /// Operands `asyncDependencies`.
    pub fn async_dependencies<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `asyncDependencies`.
    pub fn set_async_dependencies(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Operands `dynamicSizes`.
    pub fn dynamic_sizes<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Replaces operands `dynamicSizes`.
    pub fn set_dynamic_sizes(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 1, values));
    }
    /// Operands `symbolOperands`.
    pub fn symbol_operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Replaces operands `symbolOperands`.
    pub fn set_symbol_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 2, values));
    }
    /// Result `memref`.
    pub fn memref<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Result `asyncToken`, if present.
    pub fn async_token<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_result(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// The declaration of attribute `hostShared`.
    pub fn host_shared_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Whether the `hostShared` flag is set.
    pub fn host_shared<'c>(self, ir: &impl Ir<'c>) -> bool {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0]).is_some()
    }
    /// Sets or clears the `hostShared` flag.
    pub fn set_host_shared(self, b: &mut Builder<'_>, on: bool) {
        let ctx = b.ctx();
        let value = on.then(|| access::unit_attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `gpu.alloc` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, async_dependencies: &[Value], dynamic_sizes: &[Value], symbol_operands: &[Value], memref_ty: Type, async_token_ty: Option<Type>) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(async_dependencies);
        st.operands(dynamic_sizes);
        st.operands(symbol_operands);
        st.results(&[memref_ty]);
        st.results(async_token_ty.as_slice());
        Self(st.create(b))
    }
}

/// A view of an `gpu.dealloc` op: GPU memory deallocation operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuDeallocOp(OpId);

impl OpView for GpuDeallocOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[15]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuDeallocOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuDeallocOp {
    /// Operands `asyncDependencies`.
    pub fn async_dependencies<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `asyncDependencies`.
    pub fn set_async_dependencies(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Operand `memref`.
    pub fn memref<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `memref`.
    pub fn set_memref(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Result `asyncToken`, if present.
    pub fn async_token<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `gpu.dealloc` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, async_dependencies: &[Value], memref: Value, async_token_ty: Option<Type>) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(async_dependencies);
        st.operands(&[memref]);
        st.results(async_token_ty.as_slice());
        Self(st.create(b))
    }
}

/// A view of an `gpu.memcpy` op: GPU memcpy operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuMemcpyOp(OpId);

impl OpView for GpuMemcpyOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[16]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuMemcpyOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuMemcpyOp {
    /// Operands `asyncDependencies`.
    pub fn async_dependencies<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `asyncDependencies`.
    pub fn set_async_dependencies(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Operand `dst`.
    pub fn dst<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `dst`.
    pub fn set_dst(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Operand `src`.
    pub fn src<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Sets operand `src`.
    pub fn set_src(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 2, 0, value));
    }
    /// Result `asyncToken`, if present.
    pub fn async_token<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `gpu.memcpy` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, async_dependencies: &[Value], dst: Value, src: Value, async_token_ty: Option<Type>) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(async_dependencies);
        st.operands(&[dst]);
        st.operands(&[src]);
        st.results(async_token_ty.as_slice());
        Self(st.create(b))
    }
}

/// A view of an `gpu.memset` op: GPU memset operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuMemsetOp(OpId);

impl OpView for GpuMemsetOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[17]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuMemsetOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuMemsetOp {
    /// Operands `asyncDependencies`.
    pub fn async_dependencies<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `asyncDependencies`.
    pub fn set_async_dependencies(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Operand `dst`.
    pub fn dst<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Sets operand `dst`.
    pub fn set_dst(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 1, 0, value));
    }
    /// Operand `value`.
    pub fn value<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 2)
    }
    /// Sets operand `value`.
    pub fn set_value(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 2, 0, value));
    }
    /// Result `asyncToken`, if present.
    pub fn async_token<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `gpu.memset` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, async_dependencies: &[Value], dst: Value, value_: Value, async_token_ty: Option<Type>) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(async_dependencies);
        st.operands(&[dst]);
        st.operands(&[value_]);
        st.results(async_token_ty.as_slice());
        Self(st.create(b))
    }
}

/// A view of an `gpu.wait` op: Wait for async gpu ops to complete.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GpuWaitOp(OpId);

impl OpView for GpuWaitOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[18]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        GpuWaitOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl GpuWaitOp {
    /// Operands `asyncDependencies`.
    pub fn async_dependencies<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `asyncDependencies`.
    pub fn set_async_dependencies(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Result `asyncToken`, if present.
    pub fn async_token<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        access::optional_result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `gpu.wait` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, async_dependencies: &[Value], async_token_ty: Option<Type>) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(async_dependencies);
        st.results(async_token_ty.as_slice());
        Self(st.create(b))
    }
}
