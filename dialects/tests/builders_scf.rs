//! Every `scf` op built through its builder (terminators through their
//! parents' builders), verified, and printed as mlir-opt 22 prints it (see
//! [`common::check`]).

mod common;

use lf_dialects::arith::{ArithAddfOp, ArithCmpfOp, ArithConstantOp, ArithMulfOp, CmpFPredicate};
use lf_dialects::memref::{MemrefLoadOp, MemrefStoreOp};
use lf_dialects::scf::*;
use lf_ir::builder::Builder;
use lf_ir::view::ValueList;
use lf_ir::{Type, Value, DYNAMIC};

/// `%a + %b` (`arith.addf`).
fn addf(b: &mut Builder<'_>, x: Value, y: Value) -> Value {
    ArithAddfOp::build(b, x, y).result(b)
}

/// `scf.for` with a loop-carried sum, one without results over `i32`, and
/// `scf.if` with and without results and `else`.
fn for_and_if(b: &mut Builder<'_>, a: Value, n: Value, cond: Value, x: Value) -> Value {
    let ctx = b.ctx();
    let (c0, c1) = (ArithConstantOp::index(b, 0), ArithConstantOp::index(b, 1));
    let sum = ScfForOp::build(b, c0, n, c1, &[x], |b, i, acc| {
        let v = MemrefLoadOp::build(b, a, &[i]).result(b);
        ValueList::from_slice(&[addf(b, acc[0], v)])
    });
    let sum = sum.results(b)[0];
    let i32 = ctx.common().i32;
    let (lo, hi) = (ArithConstantOp::int(b, 0, i32), ArithConstantOp::int(b, 8, i32));
    ScfForOp::build(b, lo, hi, hi, &[], |_, _, _| ValueList::new());
    let picked = ScfIfOp::build(
        b,
        cond,
        &[ctx.common().f32],
        |_| ValueList::from_slice(&[x]),
        Some(&mut |_: &mut Builder<'_>| ValueList::from_slice(&[sum])),
    );
    ScfIfOp::build(
        b,
        cond,
        &[],
        |b| {
            MemrefStoreOp::build(b, x, a, &[c0]);
            ValueList::new()
        },
        None,
    );
    picked.results(b)[0]
}

/// `scf.while` doubling `x` while it is below `limit`.
fn while_loop(b: &mut Builder<'_>, x: Value, limit: Value) -> Value {
    let f32: Type = b.ctx().common().f32;
    let w = ScfWhileOp::build(
        b,
        &[x],
        &[f32],
        |b, args| {
            let below = ArithCmpfOp::build(b, args[0], limit, CmpFPredicate::Olt).result(b);
            (below, ValueList::from_slice(args))
        },
        |b, args| ValueList::from_slice(&[addf(b, args[0], args[0])]),
    );
    w.results(b)[0]
}

/// `scf.parallel` reducing a sum and a product, and one over two dimensions
/// without results.
fn parallel_loops(b: &mut Builder<'_>, a: Value, n: Value, x: Value) {
    let (c0, c1) = (ArithConstantOp::index(b, 0), ArithConstantOp::index(b, 1));
    ScfParallelOp::build(
        b,
        &[c0],
        &[n],
        &[c1],
        &[x, x],
        |b, ivs| {
            let v = MemrefLoadOp::build(b, a, &[ivs[0]]).result(b);
            ValueList::from_slice(&[v, v])
        },
        |b, i, lhs, rhs| match i {
            0 => addf(b, lhs, rhs),
            _ => ArithMulfOp::build(b, lhs, rhs).result(b),
        },
    );
    ScfParallelOp::build(
        b,
        &[c0, c0],
        &[n, n],
        &[c1, c1],
        &[],
        |b, ivs| {
            MemrefStoreOp::build(b, x, a, &[ivs[1]]);
            ValueList::new()
        },
        |_, _, _, _| unreachable!("no reductions"),
    );
}

#[test]
fn every_scf_op_builds_like_mlir() {
    let ctx = common::context();
    let c = ctx.common();
    let a_ty = common::memref(&ctx, &[DYNAMIC], c.f32);
    let (body, module) = common::module(&ctx, |b| {
        common::func(b, "scf", &[a_ty, c.index, c.i1, c.f32], &[c.f32], |b, args| {
            let (a, n, cond, x) = (args[0], args[1], args[2], args[3]);
            let y = for_and_if(b, a, n, cond, x);
            let z = while_loop(b, y, x);
            parallel_loops(b, a, n, z);
            let once = ScfExecuteRegionOp::build(b, &[c.f32], |b| ValueList::from_slice(&[addf(b, z, z)]));
            once.set_no_inline(b, true);
            once.results(b)
        });
    });
    common::check(&ctx, &body, module, "scf");
}
