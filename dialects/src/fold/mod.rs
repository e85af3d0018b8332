//! What the constant folders of `arith` and `math` share (MLIR's
//! `CommonFolders.h`): constants decoded into elements, elementwise maps,
//! integer and float arithmetic at a type's width. The folders themselves,
//! as MLIR 22's `fold` methods, live with their dialects
//! ([`crate::arith::ir::fold`], [`crate::math::ir::fold`]).
//!
//! Each folder is an [`lf_ir::FoldFn`]: it reads the op and the constant
//! value of each operand (`None` where not constant) and returns one
//! [`FoldResult`] per result, or `None` when the op does not fold. Folders
//! never change the IR; the caller materializes `FoldResult::Attr` constants
//! (with [`crate::arith::materialize_constant`]) and replaces uses.
//!
//! Constants are scalars (`IntegerAttr`/`FloatAttr` in MLIR's terms) or dense
//! elements of a vector or tensor (a splat or one value per element); folds
//! work elementwise on the latter, as MLIR's `constFoldBinaryOp` does.
//! Integer ops wrap at the type's width (`index` is 64 bits); floats are
//! computed in the type's own precision with round-to-nearest-even.

pub mod float;
pub mod int;

use lf_ir::attrs::{AttrData, DenseValues};
use lf_ir::ods::constraints::element_or_self;
use lf_ir::{Attribute, Body, Context, FloatKind, FoldResult, OpId, Type, TypeData};

/// One element of a constant.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Elem {
    /// An integer, normalized for its element type (see [`int::store`]).
    Int(i128),
    /// A float's bits in its element type's format.
    Float(u64),
}

/// The elements of a constant: one value for a scalar or a splat.
#[derive(Clone, Debug)]
pub struct Elems {
    /// The values, row-major; one value is a scalar or a splat.
    pub vals: Vec<Elem>,
}

/// The elements of a constant attribute (integer, float or dense elements).
pub fn decode(ctx: &Context, a: Attribute) -> Option<Elems> {
    let vals = match ctx.attr_data(a) {
        AttrData::Integer { value, .. } => vec![Elem::Int(*value)],
        AttrData::Float { bits, .. } => vec![Elem::Float(*bits)],
        AttrData::DenseElements { values, .. } => match values {
            DenseValues::Int(v) => v.iter().map(|x| Elem::Int(*x)).collect(),
            DenseValues::Float(v) => v.iter().map(|x| Elem::Float(*x)).collect(),
        },
        _ => return None,
    };
    Some(Elems { vals })
}

/// Whether `ty` is a vector or tensor (a constant of it is dense elements).
fn is_shaped_value_type(ctx: &Context, ty: Type) -> bool {
    matches!(
        ctx.type_data(ty),
        TypeData::Vector { .. } | TypeData::Tensor { .. } | TypeData::UnrankedTensor { .. }
    )
}

/// The number of elements of a statically shaped vector or tensor.
fn num_elements(ctx: &Context, ty: Type) -> Option<usize> {
    let shape = ctx.type_data(ty).shape()?;
    let mut n: usize = 1;
    for &d in shape {
        n = n.checked_mul(usize::try_from(d).ok()?)?;
    }
    Some(n)
}

/// The constant attribute of type `ty` holding `vals` (a scalar attribute for
/// a scalar type; dense elements, a splat when all values are equal, for a
/// vector or tensor of static shape).
pub fn encode(ctx: &Context, ty: Type, vals: Vec<Elem>) -> Option<Attribute> {
    if !is_shaped_value_type(ctx, ty) {
        return match vals.as_slice() {
            [Elem::Int(v)] => Some(ctx.integer_attr(*v, ty)),
            [Elem::Float(b)] => Some(ctx.get_attr(AttrData::Float { bits: *b, ty })),
            _ => None,
        };
    }
    let n = num_elements(ctx, ty)?;
    let first = *vals.first()?;
    let uniform = vals.iter().all(|v| *v == first);
    if !uniform && vals.len() != n {
        return None;
    }
    let vals = if uniform { vec![first] } else { vals };
    let values = match first {
        Elem::Int(_) => DenseValues::Int(
            vals.iter()
                .map(|v| match v {
                    Elem::Int(x) => Some(*x),
                    Elem::Float(_) => None,
                })
                .collect::<Option<Vec<_>>>()?
                .into(),
        ),
        Elem::Float(_) => DenseValues::Float(
            vals.iter()
                .map(|v| match v {
                    Elem::Float(x) => Some(*x),
                    Elem::Int(_) => None,
                })
                .collect::<Option<Vec<_>>>()?
                .into(),
        ),
    };
    Some(ctx.get_attr(AttrData::DenseElements { ty, values }))
}

/// The single value of a scalar or splat constant.
pub fn splat_value(ctx: &Context, a: Option<Attribute>) -> Option<Elem> {
    let e = decode(ctx, a?)?;
    match e.vals.as_slice() {
        [v] => Some(*v),
        _ => None,
    }
}

/// Folds elementwise: `f` maps the elements of the operands (splats are
/// broadcast) to one result element, or `None` to refuse the whole fold.
pub fn map_elems(
    ctx: &Context,
    result_ty: Type,
    operands: &[Attribute],
    mut f: impl FnMut(&[Elem]) -> Option<Elem>,
) -> Option<Attribute> {
    let decoded: Vec<Elems> = operands.iter().map(|a| decode(ctx, *a)).collect::<Option<_>>()?;
    let len = decoded.iter().map(|e| e.vals.len()).max()?;
    if decoded.iter().any(|e| e.vals.len() != 1 && e.vals.len() != len) {
        return None;
    }
    let mut out = Vec::with_capacity(len);
    let mut args = Vec::with_capacity(decoded.len());
    for i in 0..len {
        args.clear();
        args.extend(
            decoded
                .iter()
                .map(|e| if e.vals.len() == 1 { e.vals[0] } else { e.vals[i] }),
        );
        out.push(f(&args)?);
    }
    encode(ctx, result_ty, out)
}

/// All operands constant, or `None`.
pub fn all_const(operands: &[Option<Attribute>]) -> Option<Vec<Attribute>> {
    operands.iter().copied().collect()
}

/// The float format of a scalar type or of a shaped type's elements.
pub fn float_kind(ctx: &Context, ty: Type) -> Option<FloatKind> {
    match ctx.type_data(element_or_self(ctx, ty)) {
        TypeData::Float(k) => Some(*k),
        _ => None,
    }
}

/// The bit width of an integer (or `index`: 64) scalar or element type.
pub fn int_width(ctx: &Context, ty: Type) -> Option<u32> {
    match ctx.type_data(element_or_self(ctx, ty)) {
        TypeData::Integer { width, .. } => Some(*width),
        TypeData::Index => Some(64),
        _ => None,
    }
}

/// MLIR's `getZeroAttr(type)`: `0`, `0.0`, or a zero splat of a static shape.
pub fn zero_attr(ctx: &Context, ty: Type) -> Option<Attribute> {
    let zero = if float_kind(ctx, ty).is_some() {
        Elem::Float(0)
    } else {
        int_width(ctx, ty)?;
        Elem::Int(0)
    };
    encode(ctx, ty, vec![zero])
}

/// A one-result fold to an attribute.
pub fn attr(a: Option<Attribute>) -> Option<lf_ir::FoldResults> {
    a.map(|a| smallvec::smallvec![FoldResult::Attr(a)])
}

/// A one-result fold to an existing value.
pub fn value(v: lf_ir::Value) -> Option<lf_ir::FoldResults> {
    Some(smallvec::smallvec![FoldResult::Value(v)])
}

/// The type of `op`'s first result.
pub fn result_type(body: &Body, op: OpId) -> Type {
    body.value_type(body.result(op, 0))
}

/// The op defining `v`, if it is named `name`.
pub fn defined_by(ctx: &Context, body: &Body, v: lf_ir::Value, def: &'static lf_ir::OpDef) -> Option<OpId> {
    let d = body.defining_op(v)?;
    lf_ir::view::is_op(ctx, body, d, def).then_some(d)
}

/// The value attribute of a constant-like op defining `v` (what a fold
/// driver passes as the operand's constant).
pub fn constant_value(ctx: &Context, body: &Body, v: lf_ir::Value) -> Option<Attribute> {
    lf_ir::constants::constant_value(ctx, body, v)
}

/// Runs `op`'s folder with the constants of its operands found through their
/// defining constant-like ops; `None` when the op has no folder or does not fold.
pub fn fold_op(ctx: &Context, body: &Body, op: OpId) -> Option<lf_ir::FoldResults> {
    let f = ctx.op_def(body.op_name(op))?.fold?;
    let consts: Vec<Option<Attribute>> = body.operands(op).map(|v| constant_value(ctx, body, v)).collect();
    f(ctx, body, op, &consts)
}
