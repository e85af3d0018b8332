//! Typed views of the `func` ops, generated from their declarations by
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

/// A view of an `func.func` op: An operation with a name containing a single `SSACFG` region.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FuncFuncOp(OpId);

impl OpView for FuncFuncOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[0]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        FuncFuncOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl FuncFuncOp {
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
    /// The declaration of attribute `function_type`.
    pub fn function_type_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `function_type`, undecoded.
    pub fn function_type_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[1])
    }
    /// Attribute `function_type`.
    pub fn function_type<'c>(self, ir: &impl Ir<'c>) -> Type {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[1]);
        access::as_type(ctx, a)
    }
    /// Sets attribute `function_type`.
    pub fn set_function_type(self, b: &mut Builder<'_>, v: Type) {
        let ctx = b.ctx();
        let value = Some(access::type_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// The declaration of attribute `sym_visibility`.
    pub fn sym_visibility_attr_def() -> &'static AttrDef {
        &Self::def().attributes[2]
    }
    /// Attribute `sym_visibility`, undecoded, if set.
    pub fn sym_visibility_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[2])
    }
    /// Attribute `sym_visibility`, if set.
    pub fn sym_visibility<'c>(self, ir: &impl Ir<'c>) -> Option<&'c str> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[2]).map(|a| access::as_str(ctx, a))
    }
    /// Sets or removes attribute `sym_visibility`.
    pub fn set_sym_visibility(self, b: &mut Builder<'_>, v: Option<&str>) {
        let ctx = b.ctx();
        let value = v.map(|v| access::str_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[2], value));
    }
    /// The declaration of attribute `arg_attrs`.
    pub fn arg_attrs_attr_def() -> &'static AttrDef {
        &Self::def().attributes[3]
    }
    /// Attribute `arg_attrs`, if set.
    pub fn arg_attrs<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[3])
    }
    /// Sets or removes attribute `arg_attrs`.
    pub fn set_arg_attrs(self, b: &mut Builder<'_>, v: Option<Attribute>) {
        let value = v;
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[3], value));
    }
    /// The declaration of attribute `res_attrs`.
    pub fn res_attrs_attr_def() -> &'static AttrDef {
        &Self::def().attributes[4]
    }
    /// Attribute `res_attrs`, if set.
    pub fn res_attrs<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[4])
    }
    /// Sets or removes attribute `res_attrs`.
    pub fn set_res_attrs(self, b: &mut Builder<'_>, v: Option<Attribute>) {
        let value = v;
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[4], value));
    }
    /// The declaration of attribute `no_inline`.
    pub fn no_inline_attr_def() -> &'static AttrDef {
        &Self::def().attributes[5]
    }
    /// Whether the `no_inline` flag is set.
    pub fn no_inline<'c>(self, ir: &impl Ir<'c>) -> bool {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[5]).is_some()
    }
    /// Sets or clears the `no_inline` flag.
    pub fn set_no_inline(self, b: &mut Builder<'_>, on: bool) {
        let ctx = b.ctx();
        let value = on.then(|| access::unit_attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[5], value));
    }
    /// Region `body` (held by `ir.body().regions_body(op)`).
    pub fn body<'c>(self, ir: &impl Ir<'c>) -> RegionId {
        ir.body().region(self.0, 0)
    }
    /// Creates an `func.func` at the builder's insertion point and location, with regions that have no block yet.
    pub fn build_empty(b: &mut Builder<'_>, sym_name: &str, function_type: Type) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        let v = sym_name;
        st.property(&Self::def().attributes[0], access::str_attr(ctx, v));
        let v = function_type;
        st.property(&Self::def().attributes[1], access::type_attr(ctx, v));
        st.regions(1);
        Self(st.create(b))
    }
}

/// A view of an `func.return` op: Function return operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FuncReturnOp(OpId);

impl OpView for FuncReturnOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[1]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        FuncReturnOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl FuncReturnOp {
    /// Operands `operands`.
    pub fn operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Replaces operands `operands`.
    pub fn set_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 0, values));
    }
    /// Creates an `func.return` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, operands: &[Value]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(operands);
        Self(st.create(b))
    }
}

/// A view of an `func.call` op: call operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FuncCallOp(OpId);

impl OpView for FuncCallOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[2]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        FuncCallOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl FuncCallOp {
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
    /// The declaration of attribute `callee`.
    pub fn callee_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `callee`, undecoded.
    pub fn callee_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `callee`.
    pub fn callee<'c>(self, ir: &impl Ir<'c>) -> &'c str {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_symbol(ctx, a)
    }
    /// Sets attribute `callee`.
    pub fn set_callee(self, b: &mut Builder<'_>, v: &str) {
        let ctx = b.ctx();
        let value = Some(access::symbol_attr(ctx, v));
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
    /// The declaration of attribute `no_inline`.
    pub fn no_inline_attr_def() -> &'static AttrDef {
        &Self::def().attributes[3]
    }
    /// Whether the `no_inline` flag is set.
    pub fn no_inline<'c>(self, ir: &impl Ir<'c>) -> bool {
        access::property(ir.ctx(), ir.body(), self.0, &Self::def().attributes[3]).is_some()
    }
    /// Sets or clears the `no_inline` flag.
    pub fn set_no_inline(self, b: &mut Builder<'_>, on: bool) {
        let ctx = b.ctx();
        let value = on.then(|| access::unit_attr(ctx));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[3], value));
    }
    /// Creates an `func.call` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, operands: &[Value], results_ty: &[Type], callee: &str) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.operands(operands);
        st.results(results_ty);
        let v = callee;
        st.property(&Self::def().attributes[0], access::symbol_attr(ctx, v));
        Self(st.create(b))
    }
}

/// A view of an `func.call_indirect` op: indirect call operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FuncCallIndirectOp(OpId);

impl OpView for FuncCallIndirectOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[3]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        FuncCallIndirectOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl FuncCallIndirectOp {
    /// Operand `callee`.
    pub fn callee<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// Sets operand `callee`.
    pub fn set_callee(self, b: &mut Builder<'_>, value: Value) {
        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), 0, 0, value));
    }
    /// Operands `callee_operands`.
    pub fn callee_operands<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), 1)
    }
    /// Replaces operands `callee_operands`.
    pub fn set_callee_operands(self, b: &mut Builder<'_>, values: &[Value]) {
        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), 1, values));
    }
    /// Results `results`.
    pub fn results<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        access::results(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `arg_attrs`.
    pub fn arg_attrs_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `arg_attrs`, if set.
    pub fn arg_attrs<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[0])
    }
    /// Sets or removes attribute `arg_attrs`.
    pub fn set_arg_attrs(self, b: &mut Builder<'_>, v: Option<Attribute>) {
        let value = v;
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// The declaration of attribute `res_attrs`.
    pub fn res_attrs_attr_def() -> &'static AttrDef {
        &Self::def().attributes[1]
    }
    /// Attribute `res_attrs`, if set.
    pub fn res_attrs<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {
        let ctx = ir.ctx();
        access::property(ctx, ir.body(), self.0, &Self::def().attributes[1])
    }
    /// Sets or removes attribute `res_attrs`.
    pub fn set_res_attrs(self, b: &mut Builder<'_>, v: Option<Attribute>) {
        let value = v;
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[1], value));
    }
    /// Creates an `func.call_indirect` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, callee: Value, callee_operands: &[Value], results_ty: &[Type]) -> Self {
        let mut st = b.op_state(Self::def());
        st.operands(&[callee]);
        st.operands(callee_operands);
        st.results(results_ty);
        Self(st.create(b))
    }
}

/// A view of an `func.constant` op: constant.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FuncConstantOp(OpId);

impl OpView for FuncConstantOp {
    #[inline]
    fn def() -> &'static OpDef {
        super::OPS[4]
    }
    #[inline]
    fn from_op_unchecked(op: OpId) -> Self {
        FuncConstantOp(op)
    }
    #[inline]
    fn op(self) -> OpId {
        self.0
    }
}

impl FuncConstantOp {
    /// Result `result`.
    pub fn result<'c>(self, ir: &impl Ir<'c>) -> Value {
        access::result(ir.ctx(), ir.body(), self.0, Self::def(), 0)
    }
    /// The declaration of attribute `value`.
    pub fn value_attr_def() -> &'static AttrDef {
        &Self::def().attributes[0]
    }
    /// Attribute `value`, undecoded.
    pub fn value_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {
        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), &Self::def().attributes[0])
    }
    /// Attribute `value`.
    pub fn value<'c>(self, ir: &impl Ir<'c>) -> &'c str {
        let ctx = ir.ctx();
        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), &Self::def().attributes[0]);
        access::as_symbol(ctx, a)
    }
    /// Sets attribute `value`.
    pub fn set_value(self, b: &mut Builder<'_>, v: &str) {
        let ctx = b.ctx();
        let value = Some(access::symbol_attr(ctx, v));
        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, &Self::def().attributes[0], value));
    }
    /// Creates an `func.constant` at the builder's insertion point and location.
    pub fn build(b: &mut Builder<'_>, result_ty: Type, value_: &str) -> Self {
        let ctx = b.ctx();
        let mut st = b.op_state(Self::def());
        st.results(&[result_ty]);
        let v = value_;
        st.property(&Self::def().attributes[0], access::symbol_attr(ctx, v));
        Self(st.create(b))
    }
}
