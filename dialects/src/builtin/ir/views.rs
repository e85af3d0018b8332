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
    /// Creates an `builtin.module` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>) -> Self {
        let st = b.op_state(Self::def());
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
