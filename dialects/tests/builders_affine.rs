//! Every `affine` op built through its builder (`affine.yield` through its
//! parents' builders), verified, and printed as mlir-opt 22 prints it (see
//! [`common::check`]).

mod common;

use common::{map, set};
use lf_dialects::affine::*;
use lf_dialects::arith::ArithAddfOp;
use lf_ir::builder::Builder;
use lf_ir::view::ValueList;
use lf_ir::{Value, DYNAMIC};

/// The kind of reduction named `name` (`"addf"`).
fn reduction(name: &str) -> i64 {
    REDUCTION_KINDS
        .iter()
        .find(|k| k.0 == name)
        .expect("a reduction kind")
        .1
}

/// `affine.apply`, `affine.min` and `affine.max` of `i` and the symbol `n`.
fn index_ops(b: &mut Builder<'_>, i: Value, n: Value) -> Value {
    let j = AffineApplyOp::build(b, &[i, n], map("(d0)[s0] -> (d0 * 2 + s0)")).result(b);
    AffineMinOp::build(b, &[i, j, n], map("(d0, d1)[s0] -> (d0, d1 + 4, s0)"));
    AffineMaxOp::build(b, &[i], map("(d0) -> (d0 - 1, 0)")).result(b)
}

/// Nested `affine.for` loops (constant, map and `min` bounds, a step, and
/// loop-carried values) with loads and stores, and an `affine.if` with an
/// `else` and results.
fn loops(b: &mut Builder<'_>, a: Value, n: Value, x: Value) {
    let f32 = b.ctx().common().f32;
    AffineForOp::build(b, AffineBound::constant(0), AffineBound::value(n), 1, &[], |b, i, _| {
        let lb = AffineBound::map(map("(d0) -> (d0)"), &[i]);
        let ub = AffineBound::map(map("(d0)[s0] -> (d0 + 8, s0)"), &[i, n]);
        AffineForOp::build(b, lb, ub, 2, &[x], |b, j, acc| {
            let v = AffineLoadOp::build(b, a, &[i, j], map("(d0, d1) -> (d0, d1 + 1)")).result(b);
            let sum = ArithAddfOp::build(b, acc[0], v).result(b);
            let keep = AffineIfOp::build(
                b,
                set("(d0)[s0] : (s0 - d0 - 1 >= 0)"),
                &[j, n],
                &[f32],
                |_| ValueList::from_slice(&[sum]),
                Some(&mut |_: &mut Builder<'_>| ValueList::from_slice(&[v])),
            );
            let keep = keep.results(b)[0];
            AffineStoreOp::build(b, keep, a, &[i, j], map("(d0, d1) -> (d0, d1)"));
            ValueList::from_slice(&[keep])
        });
        ValueList::new()
    });
}

/// `affine.vector_load`/`affine.vector_store` and an `affine.if` without
/// `else`, in a loop.
fn vectors(b: &mut Builder<'_>, a: Value) {
    let ctx = b.ctx();
    let v4 = common::vector(ctx, &[4], ctx.common().f32);
    AffineForOp::build(
        b,
        AffineBound::constant(0),
        AffineBound::constant(64),
        4,
        &[],
        |b, i, _| {
            let v = AffineVectorLoadOp::build(b, a, &[i], v4, map("(d0) -> (0, d0)")).result(b);
            AffineIfOp::build(
                b,
                set("(d0) : (d0 - 16 >= 0, d0 mod 8 == 0)"),
                &[i],
                &[],
                |b| {
                    AffineVectorStoreOp::build(b, v, a, &[i], map("(d0) -> (1, d0)"));
                    ValueList::new()
                },
                None,
            );
            ValueList::new()
        },
    );
}

/// `affine.parallel` with `max`/`min` bounds and a sum reduction.
fn parallel(b: &mut Builder<'_>, a: Value, n: Value) {
    let f32 = b.ctx().common().f32;
    AffineParallelOp::build(
        b,
        &[f32],
        &[reduction("addf")],
        &[map("()[s0] -> (0)"), map("()[s0] -> (0, s0 - 64)")],
        &[n],
        &[map("()[s0] -> (s0)"), map("()[s0] -> (s0, 64)")],
        &[n],
        &[1, 4],
        |b, ivs| {
            let v = AffineLoadOp::build(b, a, ivs, map("(d0, d1) -> (d0, d1)")).result(b);
            ValueList::from_slice(&[v])
        },
    );
}

#[test]
fn every_affine_op_builds_like_mlir() {
    let ctx = common::context();
    let c = ctx.common();
    let a_ty = common::memref(&ctx, &[DYNAMIC, 128], c.f32);
    let (body, module) = common::module(&ctx, |b| {
        common::func(b, "affine", &[a_ty, c.index, c.index, c.f32], &[c.index], |b, args| {
            let (a, i, n, x) = (args[0], args[1], args[2], args[3]);
            let m = index_ops(b, i, n);
            loops(b, a, n, x);
            vectors(b, a);
            parallel(b, a, n);
            ValueList::from_slice(&[m])
        });
    });
    common::check(&ctx, &body, module, "affine");
}
