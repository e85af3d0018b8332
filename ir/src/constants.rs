//! Constants without naming a dialect: the value of a constant-like op,
//! and making an op that holds a given constant (MLIR's
//! `Dialect::materializeConstant`).
//!
//! A constant-like op ([`Traits::CONSTANT_LIKE`]) folds, with no operands
//! known, to its value: [`constant_value`] asks its folder. A dialect whose
//! ops fold to constants registers a [`MaterializeFn`] with
//! [`register_constant_materializer`]; the folding drivers call
//! [`materialize_constant`] with the dialect of the op they folded.

use crate::{Attribute, Body, Context, FoldResult, Location, OperationState, Traits, Type, Value};
use parking_lot::RwLock;

/// The state of an op holding constant `value` of type `ty` at `loc`, or
/// `None` when the dialect cannot make one (MLIR's `materializeConstant`).
pub type MaterializeFn = fn(ctx: &Context, value: Attribute, ty: Type, loc: Location) -> Option<OperationState>;

/// The constant value of `v`, if a constant-like op defines it (the
/// attribute its folder gives).
pub fn constant_value(ctx: &Context, body: &Body, v: Value) -> Option<Attribute> {
    let op = body.defining_op(v)?;
    let def = ctx.op_def(body.op_name(op))?;
    if !def.has(Traits::CONSTANT_LIKE) || body.num_results(op) != 1 {
        return None;
    }
    match (def.fold?)(ctx, body, op, &[])?.as_slice() {
        [FoldResult::Attr(a)] => Some(*a),
        _ => None,
    }
}

#[derive(Default)]
struct Materializers(RwLock<Vec<(Box<str>, MaterializeFn)>>);

/// Registers how dialect `dialect` materializes the constants its ops fold to.
pub fn register_constant_materializer(ctx: &Context, dialect: &str, f: MaterializeFn) {
    let m = ctx.extension::<Materializers>();
    let mut all = m.0.write();
    match all.iter_mut().find(|(d, _)| &**d == dialect) {
        Some(slot) => slot.1 = f,
        None => all.push((dialect.into(), f)),
    }
}

/// The state of an op holding `value` of type `ty`, made by the
/// materializer of `dialect` (`None` if it has none or cannot).
pub fn materialize_constant(
    ctx: &Context,
    dialect: &str,
    value: Attribute,
    ty: Type,
    loc: Location,
) -> Option<OperationState> {
    let m = ctx.extension::<Materializers>();
    let f = m.0.read().iter().find(|(d, _)| &**d == dialect).map(|(_, f)| *f)?;
    f(ctx, value, ty, loc)
}

/// The value of `v` when it is the result of a constant-like op holding an
/// integer (or index) attribute.
pub fn constant_int(ctx: &Context, body: &Body, v: Value) -> Option<i128> {
    match ctx.attr_data(constant_value(ctx, body, v)?) {
        crate::AttrData::Integer { value, .. } => Some(*value),
        _ => None,
    }
}
