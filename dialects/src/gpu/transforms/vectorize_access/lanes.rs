//! Aggressive mode's last step: the arithmetic of the `w` copies on
//! vectors. `w` neighbouring `arith.addf/subf/mulf/divf`, lane `k` on
//! `vector.extract %V[k]` (or all on one scalar, broadcast), become one
//! vector op; a `vector.from_elements` of the `w` lanes of one vector in
//! order becomes that vector; extracts and broadcasts left unused go.

use crate::arith::{ArithAddfOp, ArithDivfOp, ArithMulfOp, ArithSubfOp, FastMathFlags};
use crate::vector::{vector_shape, VectorBroadcastOp, VectorExtractOp, VectorFromElementsOp};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{BlockId, OpDef, OpId, Value};

type Build = fn(&mut Builder<'_>, Value, Value) -> Value;

/// The binary float ops lifted, with their builders.
fn binary(b: &Builder<'_>, op: OpId) -> Option<(&'static OpDef, Build, FastMathFlags)> {
    if let Some(x) = ArithAddfOp::cast(b, op) {
        return Some((
            ArithAddfOp::def(),
            |b, l, r| ArithAddfOp::build(b, l, r).result(b),
            x.fastmath(b),
        ));
    }
    if let Some(x) = ArithSubfOp::cast(b, op) {
        return Some((
            ArithSubfOp::def(),
            |b, l, r| ArithSubfOp::build(b, l, r).result(b),
            x.fastmath(b),
        ));
    }
    if let Some(x) = ArithMulfOp::cast(b, op) {
        return Some((
            ArithMulfOp::def(),
            |b, l, r| ArithMulfOp::build(b, l, r).result(b),
            x.fastmath(b),
        ));
    }
    ArithDivfOp::cast(b, op).map(|x| {
        (
            ArithDivfOp::def(),
            (|b: &mut Builder<'_>, l, r| ArithDivfOp::build(b, l, r).result(b)) as Build,
            x.fastmath(b),
        )
    })
}

/// `V` when `vals[k]` is `vector.extract V[k]` for every lane of a `V` of `w` lanes.
fn lanes_of(b: &Builder<'_>, vals: &[Value]) -> Option<Value> {
    let mut src = None;
    for (k, &v) in vals.iter().enumerate() {
        let e = VectorExtractOp::cast(b, b.body().defining_op(v)?)?;
        if e.static_position(b) != [k as i64] || src.is_some_and(|s| s != e.source(b)) {
            return None;
        }
        src = Some(e.source(b));
    }
    let s = src?;
    (vector_shape(b.ctx(), b.body().value_type(s))?.0 == vals.len() as i64).then_some(s)
}

/// Lifts the arithmetic of `block`'s lanes to vectors; returns how many ops were made.
pub fn lift(b: &mut Builder<'_>, block: BlockId, w: usize) -> usize {
    let mut made = 0;
    let mut i = 0;
    loop {
        let ops: Vec<OpId> = b.body().block_ops(block).collect();
        if i + w > ops.len() {
            break;
        }
        let window = &ops[i..i + w];
        let kinds: Vec<_> = window.iter().map(|&o| binary(b, o)).collect();
        let same = kinds.iter().all(|k| {
            k.as_ref()
                .zip(kinds[0].as_ref())
                .is_some_and(|(a, z)| std::ptr::eq(a.0, z.0) && a.2 == FastMathFlags::NONE && z.2 == a.2)
        });
        if !same {
            i += 1;
            continue;
        }
        let build = kinds[0].as_ref().expect("same").1;
        let operand = |b: &Builder<'_>, j: usize| -> Option<Result<Value, Value>> {
            let vals: Vec<Value> = window.iter().map(|&o| b.body().operand(o, j)).collect();
            if let Some(v) = lanes_of(b, &vals) {
                return Some(Ok(v));
            }
            vals.iter().all(|&v| v == vals[0]).then(|| Err(vals[0]))
        };
        let (Some(l), Some(r)) = (operand(b, 0), operand(b, 1)) else {
            i += 1;
            continue;
        };
        if l.is_err() && r.is_err() {
            i += 1;
            continue;
        }
        let vty = match (l, r) {
            (Ok(v), _) | (_, Ok(v)) => b.body().value_type(v),
            _ => unreachable!(),
        };
        b.set_insertion_point_before(window[0]);
        let vec = |b: &mut Builder<'_>, x: Result<Value, Value>| match x {
            Ok(v) => v,
            Err(s) => VectorBroadcastOp::build(b, s, vty).vector(b),
        };
        let (lv, rv) = (vec(b, l), vec(b, r));
        let res = build(b, lv, rv);
        let extracts: Vec<Value> = (0..w)
            .map(|k| VectorExtractOp::build(b, res, &[], &[k as i64]).result(b))
            .collect();
        for (&o, &e) in window.iter().zip(&extracts) {
            let old = b.body().result(o, 0);
            b.replace_all_uses_with(old, e);
            b.erase_op(o);
        }
        made += 1;
        i += 1;
    }
    // from_elements of the lanes of one vector, in order: that vector.
    let ops: Vec<OpId> = b.body().block_ops(block).collect();
    for o in ops {
        if let Some(fe) = VectorFromElementsOp::cast(b, o) {
            let vals = fe.elements(b);
            if let Some(v) = lanes_of(b, &vals).filter(|&v| b.body().value_type(v) == b.body().value_type(fe.dest(b))) {
                let d = fe.dest(b);
                b.replace_all_uses_with(d, v);
                b.erase_op(o);
            }
        }
    }
    // Unused extracts and broadcasts.
    loop {
        let dead: Vec<OpId> = b
            .body()
            .block_ops(block)
            .filter(|&o| {
                (VectorExtractOp::isa(b, o) || VectorBroadcastOp::isa(b, o))
                    && !b.body().has_uses(b.body().result(o, 0))
            })
            .collect();
        if dead.is_empty() {
            break;
        }
        for o in dead {
            b.erase_op(o);
        }
    }
    made
}
