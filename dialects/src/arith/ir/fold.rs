//! Folders of the `arith` ops, following MLIR 22's `ArithOps.cpp` `fold`
//! methods: constant folding, and the identities that need no new ops.
//!
//! What MLIR does in place inside `fold` (`cmpi` moving a constant to the
//! right, `extui(extui(x))`, `trunci(extsi(x))` to a narrower `trunci`) changes
//! the op rather than replacing it; lf's folders never change the IR, so
//! those are left to canonicalization patterns.

use crate::arith::{
    ArithAddiOp, ArithAndiOp, ArithCmpfOp, ArithCmpiOp, ArithConstantOp, ArithExtfOp, ArithExtsiOp, ArithExtuiOp,
    ArithNegfOp, ArithSubiOp, ArithTruncfOp, ArithXoriOp, CmpIPredicate, FastMathFlags,
};
use crate::fold::float::{self, BinOp};
use crate::fold::int::{self, sval, uval};
use crate::fold::{
    all_const, attr, defined_by, encode, float_kind, int_width, map_elems, result_type, splat_value, value, zero_attr,
    Elem,
};
use lf_ir::ods::constraints::element_or_self;
use lf_ir::view::OpView;
use lf_ir::{Attribute, Body, Context, OpId, TypeData};

type Folded = Option<lf_ir::FoldResults>;

/// The splat/scalar integer value of a constant operand, as an unsigned and
/// a signed number of the element width.
fn const_int(ctx: &Context, a: Option<Attribute>, width: u32) -> Option<(u128, i128)> {
    match splat_value(ctx, a)? {
        Elem::Int(v) => Some((uval(v, width), sval(v, width))),
        Elem::Float(_) => None,
    }
}

fn width_of(ctx: &Context, body: &Body, op: OpId) -> Option<u32> {
    int_width(ctx, body.value_type(body.operand(op, 0)))
}

fn is_zero(ctx: &Context, a: Option<Attribute>, w: u32) -> bool {
    const_int(ctx, a, w).is_some_and(|(u, _)| u == 0)
}

fn is_one(ctx: &Context, a: Option<Attribute>, w: u32) -> bool {
    const_int(ctx, a, w).is_some_and(|(u, _)| u == 1)
}

fn is_all_ones(ctx: &Context, a: Option<Attribute>, w: u32) -> bool {
    const_int(ctx, a, w).is_some_and(|(u, _)| u == int::umax(w))
}

/// Constant-folds an integer binary op whose result has the operands' type.
fn int_binary(
    ctx: &Context,
    body: &Body,
    op: OpId,
    operands: &[Option<Attribute>],
    f: impl Fn(i128, i128, u32) -> Option<i128>,
) -> Folded {
    let consts = all_const(operands)?;
    let ty = result_type(body, op);
    let w = int_width(ctx, ty)?;
    attr(map_elems(ctx, ty, &consts, |e| match e {
        [Elem::Int(x), Elem::Int(y)] => f(*x, *y, w).map(|r| Elem::Int(int::store(r, w))),
        _ => None,
    }))
}

/// Constant-folds a float binary op whose result has the operands' type.
fn float_binary(
    ctx: &Context,
    body: &Body,
    op: OpId,
    operands: &[Option<Attribute>],
    f: impl Fn(lf_ir::FloatKind, u64, u64) -> u64,
) -> Folded {
    let consts = all_const(operands)?;
    let ty = result_type(body, op);
    let k = float_kind(ctx, ty)?;
    attr(map_elems(ctx, ty, &consts, |e| match e {
        [Elem::Float(x), Elem::Float(y)] => Some(Elem::Float(f(k, *x, *y))),
        _ => None,
    }))
}

fn operand(body: &Body, op: OpId, i: usize) -> lf_ir::Value {
    body.operand(op, i)
}

/// A commutative op's operands with a lone constant moved to the right, as
/// MLIR's `Commutative` trait does in place before the op's own fold.
fn commuted(
    body: &Body,
    op: OpId,
    operands: &[Option<Attribute>],
) -> (lf_ir::Value, lf_ir::Value, [Option<Attribute>; 2]) {
    let (l, r) = (body.operand(op, 0), body.operand(op, 1));
    if operands[0].is_some() && operands[1].is_none() {
        (r, l, [operands[1], operands[0]])
    } else {
        (l, r, [operands[0], operands[1]])
    }
}

/// `arith.constant`: its value.
pub fn fold_constant(ctx: &Context, body: &Body, op: OpId, _: &[Option<Attribute>]) -> Folded {
    attr(Some(ArithConstantOp::from_op_unchecked(op).value(&(ctx, body))))
}

/// `arith.addi`: `x + 0 -> x`, `(a - b) + b -> a`, `b + (a - b) -> a`, constants.
pub fn fold_addi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let (lhs, rhs, operands) = commuted(body, op, operands);
    let operands = &operands[..];
    let w = width_of(ctx, body, op)?;
    if is_zero(ctx, operands[1], w) {
        return value(lhs);
    }
    if let Some(sub) = defined_by(ctx, body, lhs, ArithSubiOp::def()) {
        if body.operand(sub, 1) == rhs {
            return value(body.operand(sub, 0));
        }
    }
    if let Some(sub) = defined_by(ctx, body, rhs, ArithSubiOp::def()) {
        if body.operand(sub, 1) == lhs {
            return value(body.operand(sub, 0));
        }
    }
    int_binary(ctx, body, op, operands, |a, b, _| Some(a.wrapping_add(b)))
}

/// `arith.subi`: `x - x -> 0`, `x - 0 -> x`, `(a + b) - b -> a`, `(a + b) - a -> b`, constants.
pub fn fold_subi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let w = width_of(ctx, body, op)?;
    let (lhs, rhs) = (operand(body, op, 0), operand(body, op, 1));
    if lhs == rhs {
        if let Some(z) = zero_attr(ctx, result_type(body, op)) {
            return attr(Some(z));
        }
    }
    if is_zero(ctx, operands[1], w) {
        return value(lhs);
    }
    if let Some(add) = defined_by(ctx, body, lhs, ArithAddiOp::def()) {
        if body.operand(add, 1) == rhs {
            return value(body.operand(add, 0));
        }
        if body.operand(add, 0) == rhs {
            return value(body.operand(add, 1));
        }
    }
    int_binary(ctx, body, op, operands, |a, b, _| Some(a.wrapping_sub(b)))
}

/// `arith.muli`: `x * 0 -> 0`, `x * 1 -> x`, constants.
pub fn fold_muli(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let (lhs, rhs, operands) = commuted(body, op, operands);
    let operands = &operands[..];
    let w = width_of(ctx, body, op)?;
    if is_zero(ctx, operands[1], w) {
        return value(rhs);
    }
    if is_one(ctx, operands[1], w) {
        return value(lhs);
    }
    int_binary(ctx, body, op, operands, |a, b, _| Some(a.wrapping_mul(b)))
}

/// `arith.divui`: `x / 1 -> x`; constants unless dividing by zero.
pub fn fold_divui(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let w = width_of(ctx, body, op)?;
    if is_one(ctx, operands[1], w) {
        return value(operand(body, op, 0));
    }
    int_binary(ctx, body, op, operands, |a, b, w| {
        let (a, b) = (uval(a, w), uval(b, w));
        (b != 0).then(|| (a / b) as i128)
    })
}

/// `arith.divsi`: `x / 1 -> x`; constants unless dividing by zero or overflowing.
pub fn fold_divsi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let w = width_of(ctx, body, op)?;
    if is_one(ctx, operands[1], w) {
        return value(operand(body, op, 0));
    }
    int_binary(ctx, body, op, operands, int::sdiv_ov)
}

/// `arith.ceildivui`: `x / 1 -> x`; constants unless dividing by zero.
pub fn fold_ceildivui(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let w = width_of(ctx, body, op)?;
    if is_one(ctx, operands[1], w) {
        return value(operand(body, op, 0));
    }
    int_binary(ctx, body, op, operands, int::ceildivui)
}

/// `arith.ceildivsi`: `x / 1 -> x`; constants unless a step overflows or divides by zero.
pub fn fold_ceildivsi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let w = width_of(ctx, body, op)?;
    if is_one(ctx, operands[1], w) {
        return value(operand(body, op, 0));
    }
    int_binary(ctx, body, op, operands, int::ceildivsi)
}

/// `arith.floordivsi`: `x / 1 -> x`; constants unless overflowing or dividing by zero.
pub fn fold_floordivsi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let w = width_of(ctx, body, op)?;
    if is_one(ctx, operands[1], w) {
        return value(operand(body, op, 0));
    }
    // As MLIR: `sfloordiv_ov` assigns (not accumulates) the overflow flag, so
    // over dense elements only the last element's division decides, and an
    // element divided by zero keeps its dividend.
    let consts = all_const(operands)?;
    let ty = result_type(body, op);
    let mut refused = false;
    let r = map_elems(ctx, ty, &consts, |e| match e {
        [Elem::Int(a), Elem::Int(b)] => {
            if sval(*b, w) == 0 {
                refused = true;
                return Some(Elem::Int(*a));
            }
            let q = int::floordivsi(*a, *b, w);
            refused = q.is_none();
            Some(Elem::Int(int::store(q.unwrap_or(*a), w)))
        }
        _ => None,
    });
    if refused {
        return None;
    }
    attr(r)
}

/// `arith.remui`: `x % 1 -> 0`; constants unless dividing by zero.
pub fn fold_remui(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let w = width_of(ctx, body, op)?;
    if is_one(ctx, operands[1], w) {
        return attr(zero_attr(ctx, result_type(body, op)));
    }
    int_binary(ctx, body, op, operands, |a, b, w| {
        let (a, b) = (uval(a, w), uval(b, w));
        (b != 0).then(|| (a % b) as i128)
    })
}

/// `arith.remsi`: `x % 1 -> 0`; constants unless dividing by zero.
pub fn fold_remsi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let w = width_of(ctx, body, op)?;
    if is_one(ctx, operands[1], w) {
        return attr(zero_attr(ctx, result_type(body, op)));
    }
    int_binary(ctx, body, op, operands, |a, b, w| {
        let (a, b) = (sval(a, w), sval(b, w));
        // `MIN % -1` is 0 (APInt's srem); checked_rem refuses it at 128 bits only.
        (b != 0).then(|| a.checked_rem(b).unwrap_or(0))
    })
}

/// `arith.andi`: `x & 0 -> 0`, `x & -1 -> x`, `x & x -> x`, `x & ~x -> 0`,
/// `a & (a & b) -> a & b`, constants.
pub fn fold_andi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let (lhs, rhs, operands) = commuted(body, op, operands);
    let operands = &operands[..];
    let w = width_of(ctx, body, op)?;
    if is_zero(ctx, operands[1], w) {
        return value(rhs);
    }
    if is_all_ones(ctx, operands[1], w) {
        return value(lhs);
    }
    if lhs == rhs {
        return value(lhs);
    }
    for (x, other) in [(lhs, rhs), (rhs, lhs)] {
        if let Some(xor) = defined_by(ctx, body, other, ArithXoriOp::def()) {
            let c = crate::fold::constant_value(ctx, body, body.operand(xor, 1));
            if body.operand(xor, 0) == x && is_all_ones(ctx, c, w) {
                if let Some(z) = zero_attr(ctx, result_type(body, op)) {
                    return attr(Some(z));
                }
            }
        }
    }
    for (prev, other) in [(lhs, rhs), (rhs, lhs)] {
        if let Some(p) = defined_by(ctx, body, prev, ArithAndiOp::def()) {
            if body.operand(p, 0) == other || body.operand(p, 1) == other {
                return value(body.result(p, 0));
            }
        }
    }
    int_binary(ctx, body, op, operands, |a, b, _| Some(a & b))
}

/// `arith.ori`: `x | 0 -> x`, `x | -1 -> -1`, `x | x -> x`, `x | ~x -> -1`, constants.
pub fn fold_ori(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let (lhs, rhs, operands) = commuted(body, op, operands);
    let operands = &operands[..];
    let w = width_of(ctx, body, op)?;
    if is_zero(ctx, operands[1], w) {
        return value(lhs);
    }
    if is_all_ones(ctx, operands[1], w) {
        return attr(operands[1]);
    }
    if lhs == rhs {
        return value(lhs);
    }
    for (x, other) in [(lhs, rhs), (rhs, lhs)] {
        if let Some(xor) = defined_by(ctx, body, other, ArithXoriOp::def()) {
            let c = crate::fold::constant_value(ctx, body, body.operand(xor, 1));
            if body.operand(xor, 0) == x && is_all_ones(ctx, c, w) {
                return value(body.operand(xor, 1));
            }
        }
    }
    int_binary(ctx, body, op, operands, |a, b, _| Some(a | b))
}

/// `arith.xori`: `x ^ 0 -> x`, `x ^ x -> 0`, `(x ^ a) ^ a -> x` (either order), constants.
pub fn fold_xori(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let (lhs, rhs, operands) = commuted(body, op, operands);
    let operands = &operands[..];
    let w = width_of(ctx, body, op)?;
    if is_zero(ctx, operands[1], w) {
        return value(lhs);
    }
    if lhs == rhs {
        if let Some(z) = zero_attr(ctx, result_type(body, op)) {
            return attr(Some(z));
        }
    }
    if let Some(p) = defined_by(ctx, body, lhs, ArithXoriOp::def()) {
        if body.operand(p, 1) == rhs {
            return value(body.operand(p, 0));
        }
        if body.operand(p, 0) == rhs {
            return value(body.operand(p, 1));
        }
    }
    if let Some(p) = defined_by(ctx, body, rhs, ArithXoriOp::def()) {
        if body.operand(p, 1) == lhs {
            return value(body.operand(p, 0));
        }
        if body.operand(p, 0) == lhs {
            return value(body.operand(p, 1));
        }
    }
    int_binary(ctx, body, op, operands, |a, b, _| Some(a ^ b))
}

/// Shifts: `x << 0 -> x` (and `>>`); constants unless the amount is at least the width.
fn fold_shift(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>], kind: u8) -> Folded {
    let w = width_of(ctx, body, op)?;
    if is_zero(ctx, operands[1], w) {
        return value(operand(body, op, 0));
    }
    // As MLIR: the "amount below the width" check is assigned per element,
    // so over dense elements the last element decides; an element shifted by
    // the width or more gives what `APInt` gives (zeros, or sign bits).
    let consts = all_const(operands)?;
    let ty = result_type(body, op);
    let mut bounded = true;
    let r = map_elems(ctx, ty, &consts, |e| match e {
        [Elem::Int(a), Elem::Int(b)] => {
            let b = uval(*b, w);
            bounded = b < w as u128;
            let v = match (kind, bounded) {
                (0, true) => a << b,
                (1, true) => (uval(*a, w) >> b) as i128,
                (_, true) => sval(*a, w) >> b,
                (2, false) => sval(*a, w) >> 127,
                _ => 0,
            };
            Some(Elem::Int(int::store(v, w)))
        }
        _ => None,
    });
    if !bounded {
        return None;
    }
    attr(r)
}

/// `arith.shli`.
pub fn fold_shli(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_shift(ctx, body, op, operands, 0)
}

/// `arith.shrui`.
pub fn fold_shrui(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_shift(ctx, body, op, operands, 1)
}

/// `arith.shrsi`.
pub fn fold_shrsi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_shift(ctx, body, op, operands, 2)
}

/// Integer min/max: `op(x, x) -> x`, the absorbing and neutral bounds, constants.
fn fold_int_min_max(
    ctx: &Context,
    body: &Body,
    op: OpId,
    operands: &[Option<Attribute>],
    max: bool,
    signed: bool,
) -> Folded {
    let (lhs, rhs, operands) = commuted(body, op, operands);
    let operands = &operands[..];
    let w = width_of(ctx, body, op)?;
    if lhs == rhs {
        return value(rhs);
    }
    if let Some((u, s)) = const_int(ctx, operands[1], w) {
        let (is_max, is_min) = if signed {
            (s == int::smax(w), s == int::smin(w))
        } else {
            (u == int::umax(w), u == 0)
        };
        // max(x, MAX) -> MAX, max(x, MIN) -> x; min(x, MIN) -> MIN, min(x, MAX) -> x.
        if (max && is_max) || (!max && is_min) {
            return value(rhs);
        }
        if (max && is_min) || (!max && is_max) {
            return value(lhs);
        }
    }
    int_binary(ctx, body, op, operands, |a, b, w| {
        let a_less = if signed {
            sval(a, w) < sval(b, w)
        } else {
            uval(a, w) < uval(b, w)
        };
        Some(if a_less == max { b } else { a })
    })
}

/// `arith.maxsi`.
pub fn fold_maxsi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_int_min_max(ctx, body, op, operands, true, true)
}

/// `arith.maxui`.
pub fn fold_maxui(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_int_min_max(ctx, body, op, operands, true, false)
}

/// `arith.minsi`.
pub fn fold_minsi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_int_min_max(ctx, body, op, operands, false, true)
}

/// `arith.minui`.
pub fn fold_minui(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_int_min_max(ctx, body, op, operands, false, false)
}

/// Whether a constant operand is a float scalar/splat satisfying `pred` (on its bits).
fn float_is(
    ctx: &Context,
    body: &Body,
    op: OpId,
    a: Option<Attribute>,
    pred: impl Fn(lf_ir::FloatKind, u64) -> bool,
) -> bool {
    let Some(k) = float_kind(ctx, result_type(body, op)) else {
        return false;
    };
    matches!(splat_value(ctx, a), Some(Elem::Float(b)) if pred(k, b))
}

fn is_float_value(k: lf_ir::FloatKind, bits: u64, v: f64, negative: bool) -> bool {
    float::to_f64(k, bits) == v && float::is_negative(k, bits) == negative && !float::is_nan(k, bits)
}

/// `arith.addf`: `x + -0.0 -> x`, constants.
pub fn fold_addf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let (lhs, _, operands) = commuted(body, op, operands);
    let operands = &operands[..];
    if float_is(ctx, body, op, operands[1], |k, b| is_float_value(k, b, 0.0, true)) {
        return value(lhs);
    }
    float_binary(ctx, body, op, operands, |k, a, b| float::binary(k, BinOp::Add, a, b))
}

/// `arith.subf`: `x - +0.0 -> x`, constants.
pub fn fold_subf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    if float_is(ctx, body, op, operands[1], |k, b| is_float_value(k, b, 0.0, false)) {
        return value(operand(body, op, 0));
    }
    float_binary(ctx, body, op, operands, |k, a, b| float::binary(k, BinOp::Sub, a, b))
}

/// `arith.mulf`: `x * 1.0 -> x`, constants.
pub fn fold_mulf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let (lhs, _, operands) = commuted(body, op, operands);
    let operands = &operands[..];
    if float_is(ctx, body, op, operands[1], |k, b| is_float_value(k, b, 1.0, false)) {
        return value(lhs);
    }
    float_binary(ctx, body, op, operands, |k, a, b| float::binary(k, BinOp::Mul, a, b))
}

/// `arith.divf`: `x / 1.0 -> x`, constants.
pub fn fold_divf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    if float_is(ctx, body, op, operands[1], |k, b| is_float_value(k, b, 1.0, false)) {
        return value(operand(body, op, 0));
    }
    float_binary(ctx, body, op, operands, |k, a, b| float::binary(k, BinOp::Div, a, b))
}

/// `arith.remf`: constants (`fmod`).
pub fn fold_remf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    float_binary(ctx, body, op, operands, |k, a, b| float::binary(k, BinOp::Rem, a, b))
}

/// Float min/max: `op(x, x) -> x`, `op(x, neutral infinity) -> x`, constants.
fn fold_float_min_max(
    ctx: &Context,
    body: &Body,
    op: OpId,
    operands: &[Option<Attribute>],
    max: bool,
    propagate: bool,
) -> Folded {
    let (lhs, rhs, operands) = commuted(body, op, operands);
    let operands = &operands[..];
    if lhs == rhs {
        return value(rhs);
    }
    // maximumf(x, -inf) -> x, minimumf(x, +inf) -> x; maxnumf/minnumf(x, NaN) -> x.
    let neutral = if max { f64::NEG_INFINITY } else { f64::INFINITY };
    let is_neutral = |k, b| {
        if propagate {
            float::to_f64(k, b) == neutral
        } else {
            float::is_nan(k, b)
        }
    };
    if float_is(ctx, body, op, operands[1], is_neutral) {
        return value(lhs);
    }
    float_binary(ctx, body, op, operands, |k, a, b| {
        float::min_max(k, a, b, max, propagate)
    })
}

/// `arith.maximumf`.
pub fn fold_maximumf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_float_min_max(ctx, body, op, operands, true, true)
}

/// `arith.minimumf`.
pub fn fold_minimumf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_float_min_max(ctx, body, op, operands, false, true)
}

/// `arith.maxnumf`.
pub fn fold_maxnumf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_float_min_max(ctx, body, op, operands, true, false)
}

/// `arith.minnumf`.
pub fn fold_minnumf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_float_min_max(ctx, body, op, operands, false, false)
}

/// `arith.negf`: `-(-x) -> x`, constants.
pub fn fold_negf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    if let Some(inner) = defined_by(ctx, body, operand(body, op, 0), ArithNegfOp::def()) {
        return value(body.operand(inner, 0));
    }
    unary_float(ctx, body, op, operands, float::neg)
}

/// Constant-folds a unary float op (result type = operand type).
pub(crate) fn unary_float(
    ctx: &Context,
    body: &Body,
    op: OpId,
    operands: &[Option<Attribute>],
    f: impl Fn(lf_ir::FloatKind, u64) -> u64,
) -> Folded {
    let consts = all_const(operands)?;
    let ty = result_type(body, op);
    let k = float_kind(ctx, ty)?;
    attr(map_elems(ctx, ty, &consts, |e| match e {
        [Elem::Float(x)] => Some(Elem::Float(f(k, *x))),
        _ => None,
    }))
}

/// The `i1` constant (or `i1` splat of `ty`'s shape) of a comparison result.
fn bool_attr(ctx: &Context, ty: lf_ir::Type, v: bool) -> Option<Attribute> {
    encode(ctx, ty, vec![Elem::Int(i128::from(v))])
}

fn cmpi_apply(pred: CmpIPredicate, a: i128, b: i128, w: u32) -> bool {
    pred.holds((sval(a, w), sval(b, w)), (uval(a, w), uval(b, w)))
}

fn is_i1(ctx: &Context, t: lf_ir::Type) -> bool {
    element_or_self(ctx, t) == ctx.common().i1
}

/// `arith.cmpi`: equal operands, `ext(x : i1) != 0 -> x`, `x != 0 -> x` and
/// `x == 1 -> x` on `i1`, constants.
pub fn fold_cmpi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let pred = ArithCmpiOp::from_op_unchecked(op).predicate(&(ctx, body));
    let (lhs, rhs) = (operand(body, op, 0), operand(body, op, 1));
    let rty = result_type(body, op);
    if lhs == rhs {
        return attr(bool_attr(ctx, rty, pred.holds_for_equal()));
    }
    let w = width_of(ctx, body, op)?;
    // MLIR moves a lone constant to the right (swapping the predicate) in
    // place and folds again; the identities below see that order.
    let (lhs, operands, pred) = if operands[0].is_some() && operands[1].is_none() {
        (rhs, [operands[1], operands[0]], pred.swapped())
    } else {
        (lhs, [operands[0], operands[1]], pred)
    };
    let operands = &operands[..];
    if is_zero(ctx, operands[1], w) {
        for ext in [ArithExtsiOp::def(), ArithExtuiOp::def()] {
            if let Some(e) = defined_by(ctx, body, lhs, ext) {
                let src = body.operand(e, 0);
                if is_i1(ctx, body.value_type(src)) && pred == CmpIPredicate::Ne {
                    return value(src);
                }
            }
        }
        if is_i1(ctx, body.value_type(lhs)) && pred == CmpIPredicate::Ne {
            return value(lhs);
        }
    }
    if is_one(ctx, operands[1], w) && is_i1(ctx, body.value_type(lhs)) && pred == CmpIPredicate::Eq {
        return value(lhs);
    }
    let consts = all_const(operands)?;
    attr(map_elems(ctx, rty, &consts, |e| match e {
        [Elem::Int(a), Elem::Int(b)] => Some(Elem::Int(i128::from(cmpi_apply(pred, *a, *b, w)))),
        _ => None,
    }))
}

/// `arith.cmpf`: scalar constants; a NaN constant on either side decides
/// the result on its own (as MLIR: both sides are then taken as NaN).
pub fn fold_cmpf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let pred = ArithCmpfOp::from_op_unchecked(op).predicate(&(ctx, body));
    let k = float_kind(ctx, body.value_type(operand(body, op, 0)))?;
    let scalar = |a: Option<Attribute>| match a.map(|a| ctx.attr_data(a)) {
        Some(lf_ir::AttrData::Float { bits, .. }) => Some(*bits),
        _ => None,
    };
    let (mut l, mut r) = (scalar(operands[0]), scalar(operands[1]));
    if let Some(x) = l.filter(|x| float::is_nan(k, *x)) {
        r = Some(x);
    }
    if let Some(x) = r.filter(|x| float::is_nan(k, *x)) {
        l = Some(x);
    }
    let (l, r) = (l?, r?);
    attr(Some(ctx.integer_attr(
        i128::from(pred.holds(float::to_f64(k, l), float::to_f64(k, r))),
        ctx.common().i1,
    )))
}

/// `arith.select`: equal arms, constant condition, `select(c, true, false) -> c`,
/// `select(a == b, a, b) -> b` (and `!=`), constant vectors elementwise.
pub fn fold_select(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let (c, t, f) = (operand(body, op, 0), operand(body, op, 1), operand(body, op, 2));
    if t == f {
        return value(t);
    }
    match splat_value(ctx, operands[0]) {
        Some(Elem::Int(1)) => return value(t),
        Some(Elem::Int(0)) => return value(f),
        _ => {}
    }
    let rty = result_type(body, op);
    if rty == ctx.common().i1 && is_one(ctx, operands[1], 1) && is_zero(ctx, operands[2], 1) {
        return value(c);
    }
    if let Some(cmp) = defined_by(ctx, body, c, ArithCmpiOp::def()) {
        let pred = ArithCmpiOp::from_op_unchecked(cmp).predicate(&(ctx, body));
        let (cl, cr) = (body.operand(cmp, 0), body.operand(cmp, 1));
        let (eq, ne) = (pred == CmpIPredicate::Eq, pred == CmpIPredicate::Ne);
        if (eq || ne) && ((cl == t && cr == f) || (cr == t && cl == f)) {
            return value(if ne { t } else { f });
        }
    }
    let is_dense =
        |a: Option<Attribute>| matches!(a.map(|a| ctx.attr_data(a)), Some(lf_ir::AttrData::DenseElements { .. }));
    if operands.iter().all(|a| is_dense(*a)) {
        let consts = all_const(operands)?;
        return attr(map_elems(ctx, rty, &consts, |e| match e {
            [Elem::Int(c), a, b] => Some(if *c != 0 { *a } else { *b }),
            _ => None,
        }));
    }
    None
}

/// Constant-folds a cast elementwise; `f` maps an operand element to a result element.
fn cast(
    ctx: &Context,
    body: &Body,
    op: OpId,
    operands: &[Option<Attribute>],
    f: impl Fn(Elem) -> Option<Elem>,
) -> Folded {
    let consts = all_const(operands)?;
    attr(map_elems(ctx, result_type(body, op), &consts, |e| f(e[0])))
}

fn in_out_widths(ctx: &Context, body: &Body, op: OpId) -> Option<(u32, u32)> {
    Some((width_of(ctx, body, op)?, int_width(ctx, result_type(body, op))?))
}

/// `arith.extsi`: constants.
pub fn fold_extsi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let (wi, wo) = in_out_widths(ctx, body, op)?;
    cast(ctx, body, op, operands, |e| match e {
        Elem::Int(v) => Some(Elem::Int(int::store(sval(v, wi), wo))),
        Elem::Float(_) => None,
    })
}

/// `arith.extui`: constants.
pub fn fold_extui(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let (wi, wo) = in_out_widths(ctx, body, op)?;
    cast(ctx, body, op, operands, |e| match e {
        Elem::Int(v) => Some(Elem::Int(int::store(uval(v, wi) as i128, wo))),
        Elem::Float(_) => None,
    })
}

/// `arith.trunci`: `trunci(ext(x)) -> x` when `x` has the result type, constants.
pub fn fold_trunci(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let src = operand(body, op, 0);
    for ext in [ArithExtsiOp::def(), ArithExtuiOp::def()] {
        if let Some(e) = defined_by(ctx, body, src, ext) {
            let x = body.operand(e, 0);
            if element_or_self(ctx, body.value_type(x)) == element_or_self(ctx, result_type(body, op)) {
                return value(x);
            }
        }
    }
    let (_, wo) = in_out_widths(ctx, body, op)?;
    cast(ctx, body, op, operands, |e| match e {
        Elem::Int(v) => Some(Elem::Int(int::store(v, wo))),
        Elem::Float(_) => None,
    })
}

/// `arith.index_cast` (sign-extends or truncates) and `arith.index_castui`
/// (zero-extends or truncates): constants.
fn fold_index_cast_impl(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>], signed: bool) -> Folded {
    let (wi, wo) = in_out_widths(ctx, body, op)?;
    cast(ctx, body, op, operands, |e| match e {
        Elem::Int(v) => {
            let x = if signed { sval(v, wi) } else { uval(v, wi) as i128 };
            Some(Elem::Int(int::store(x, wo)))
        }
        Elem::Float(_) => None,
    })
}

/// `arith.index_cast`.
pub fn fold_index_cast(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_index_cast_impl(ctx, body, op, operands, true)
}

/// `arith.index_castui`.
pub fn fold_index_castui(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    fold_index_cast_impl(ctx, body, op, operands, false)
}

fn int_to_float(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>], signed: bool) -> Folded {
    let wi = width_of(ctx, body, op)?;
    let k = float_kind(ctx, result_type(body, op))?;
    cast(ctx, body, op, operands, |e| match e {
        Elem::Int(v) => {
            let (mag, neg) = if signed {
                let s = sval(v, wi);
                (s.unsigned_abs(), s < 0)
            } else {
                (uval(v, wi), false)
            };
            Some(Elem::Float(float::from_int(k, mag, neg)))
        }
        Elem::Float(_) => None,
    })
}

/// `arith.sitofp`: constants, rounded to nearest even.
pub fn fold_sitofp(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    int_to_float(ctx, body, op, operands, true)
}

/// `arith.uitofp`: constants, rounded to nearest even.
pub fn fold_uitofp(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    int_to_float(ctx, body, op, operands, false)
}

fn float_to_int(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>], signed: bool) -> Folded {
    let k = float_kind(ctx, body.value_type(operand(body, op, 0)))?;
    let wo = int_width(ctx, result_type(body, op))?;
    cast(ctx, body, op, operands, |e| match e {
        Elem::Float(b) => {
            // Truncated toward zero; out of range or NaN is invalid: no fold.
            let t = float::trunc_to_int(k, b)?;
            // Bounds are powers of two, exact in f64.
            let (lo, hi) = if signed {
                (-(2f64.powi(wo as i32 - 1)), 2f64.powi(wo as i32 - 1))
            } else {
                (0.0, 2f64.powi(wo as i32))
            };
            if !(t >= lo && t < hi) {
                return None;
            }
            let v = if t < 0.0 { t as i128 } else { (t as u128) as i128 };
            Some(Elem::Int(int::store(v, wo)))
        }
        Elem::Int(_) => None,
    })
}

/// `arith.fptosi`: constants whose truncation fits the result type.
pub fn fold_fptosi(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    float_to_int(ctx, body, op, operands, true)
}

/// `arith.fptoui`: constants whose truncation fits the result type.
pub fn fold_fptoui(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    float_to_int(ctx, body, op, operands, false)
}

/// Whether `op` (an `arith.extf` or `arith.truncf`) carries the `contract` flag.
fn fastmath_has_contract(ctx: &Context, body: &Body, op: OpId) -> bool {
    let ir = (ctx, body);
    let flags = match ArithExtfOp::cast(&ir, op) {
        Some(e) => e.fastmath(&ir),
        None => ArithTruncfOp::from_op_unchecked(op).fastmath(&ir),
    };
    flags.is_some_and(|f| f.contains(FastMathFlags::CONTRACT))
}

/// `arith.extf`: `extf(truncf(x)) -> x` when both carry `contract` and `x`
/// has the result type; constants (exact).
pub fn fold_extf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    if let Some(t) = defined_by(ctx, body, operand(body, op, 0), ArithTruncfOp::def()) {
        let x = body.operand(t, 0);
        if body.value_type(x) == result_type(body, op)
            && fastmath_has_contract(ctx, body, t)
            && fastmath_has_contract(ctx, body, op)
        {
            return value(x);
        }
    }
    let from = float_kind(ctx, body.value_type(operand(body, op, 0)))?;
    let to = float_kind(ctx, result_type(body, op))?;
    cast(ctx, body, op, operands, |e| match e {
        Elem::Float(b) => float::convert_exact(from, to, b).map(Elem::Float),
        Elem::Int(_) => None,
    })
}

/// `arith.truncf`: `truncf(extf(x)) -> x` when `x` has the result type;
/// constants only when exact in the result type (as MLIR).
pub fn fold_truncf(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    if let Some(e) = defined_by(ctx, body, operand(body, op, 0), ArithExtfOp::def()) {
        let x = body.operand(e, 0);
        if element_or_self(ctx, body.value_type(x)) == element_or_self(ctx, result_type(body, op)) {
            return value(x);
        }
    }
    let from = float_kind(ctx, body.value_type(operand(body, op, 0)))?;
    let to = float_kind(ctx, result_type(body, op))?;
    cast(ctx, body, op, operands, |e| match e {
        Elem::Float(b) => float::convert_exact(from, to, b).map(Elem::Float),
        Elem::Int(_) => None,
    })
}

/// `arith.bitcast`: constants reinterpreted (scalars and dense elements).
pub fn fold_bitcast(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Folded {
    let rty = result_type(body, op);
    let out_float = float_kind(ctx, rty).is_some();
    let w = match ctx.type_data(element_or_self(ctx, rty)) {
        TypeData::Integer { width, .. } => *width,
        TypeData::Float(k) => k.width(),
        _ => return None,
    };
    cast(ctx, body, op, operands, |e| {
        let raw = match e {
            Elem::Int(v) => uval(v, w),
            Elem::Float(b) => b as u128,
        };
        Some(if out_float {
            Elem::Float(raw as u64)
        } else {
            Elem::Int(int::store(raw as i128, w))
        })
    })
}
