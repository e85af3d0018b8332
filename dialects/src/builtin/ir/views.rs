//! Typed views of the `builtin` ops, generated from their declarations by
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

/// A view of an `builtin.module` op: A top level container operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct BuiltinModuleOp(OpId);

impl OpView for BuiltinModuleOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[0]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        BuiltinModuleOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl BuiltinModuleOp {
    /// The declaration of attribute `sym_name`.
    pub fn sym_name_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `sym_name`, undecoded, if set.
    pub fn sym_name_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[0])
    }
    /// Attribute `sym_name`, if set.
    pub fn sym_name<'c>(self, ir: &impl Ir<'c>) -> Option<&'c str> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[0]).map(|a| access::as_str(ctx, a))
    }
    /// Sets or removes attribute `sym_name`.
    pub fn set_sym_name(self, b: &mut Builder<'_>, v: Option<&str>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::str_attr(ctx, v));
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
    /// Region `bodyRegion` (held by `ir.body().regions_body(op)`).
    pub fn body_region<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 0)
    }
    /// The block of region `bodyRegion`.
    pub fn body_region_block<'c>(self, ir: &impl Ir<'c>) -> BlockId {
        let b = ir.body();
        b.regions_body(self.0).entry_block(b.region(self.0, 0)).expect("a block")
    }
    /// Creates an `builtin.module` at the builder's insertion point and location, with regions that have no block yet.
    pub fn build_empty(b: &mut Builder<'_>) -> Self {
        let mut st = b.op_state(Self::def());
        st.regions(1);
        Self(st.create(b))
    }
}

/// A view of an `builtin.unrealized_conversion_cast` op: An unrealized conversion from one set of types to another.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct BuiltinUnrealizedConversionCastOp(OpId);

impl OpView for BuiltinUnrealizedConversionCastOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[1]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        BuiltinUnrealizedConversionCastOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl BuiltinUnrealizedConversionCastOp {
    /// Operands `inputs`.
    pub fn inputs<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `inputs`.
    pub fn set_inputs(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Results `outputs`.
    pub fn outputs<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::results(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Creates an `builtin.unrealized_conversion_cast` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, inputs: &[Value], outputs_ty: &[Type]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(inputs);
        st.results(outputs_ty);
        Self(st.create(b))
    }
}
