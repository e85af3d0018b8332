//! Unit tests of the reduction matcher and of `loop_parallel` (op names in
//! test programs).

use super::*;
use lf_ir::view::collect_ops;
use lf_ir::{Body, Context};

/// Runs `f` on the `affine.for` ops (pre-order) of the first function of `src`.
pub(crate) fn with_loops(src: &str, f: impl FnOnce(&(&Context, &Body), &[AffineForOp])) {
    let ctx = Context::new();
    crate::register_all(&ctx);
    let m = lf_ir::parse_source(&ctx, src, "t.mlir").expect("parses");
    let module = m.body.regions_body(m.op);
    let func = module
        .block_ops(module.entry_block(module.region(m.op, 0)).unwrap())
        .next()
        .unwrap();
    let body = module.regions_body(func);
    let loops = collect_ops::<AffineForOp>(&ctx, body, module.regions(func));
    f(&(&ctx, body), &loops);
}

fn kinds(src: &str) -> Vec<Option<AtomicRmwKind>> {
    let mut out = Vec::new();
    with_loops(src, |ir, loops| {
        let n = loops[0].inits(ir).len();
        out = (0..n).map(|i| reduction_kind(ir, loops[0], i)).collect();
    });
    out
}

fn one(op: &str, ty: &str) -> String {
    format!(
        "func.func @f(%m: memref<8x{ty}>, %z: {ty}) -> {ty} {{\n\
         %r = affine.for %i = 0 to 8 iter_args(%a = %z) -> ({ty}) {{\n\
         %x = affine.load %m[%i] : memref<8x{ty}>\n\
         %y = {op} %x, %a : {ty}\n\
         affine.yield %y : {ty}\n}}\nreturn %r : {ty}\n}}\n"
    )
}

#[test]
fn kinds_agree_with_the_attribute_table() {
    for k in AtomicRmwKind::ALL {
        assert_eq!(REDUCTION_KINDS[k as usize].1, k.value());
        assert_eq!(AtomicRmwKind::from_value(k.value()), Some(k));
    }
    assert_eq!(AtomicRmwKind::from_value(16), None);
    assert_eq!(AtomicRmwKind::from_value(-1), None);
    assert_eq!(AtomicRmwKind::Maxnumf.keyword(), "maxnumf");
}

#[test]
fn every_combiner_is_recognized() {
    use AtomicRmwKind as K;
    for (op, ty, k) in [
        ("arith.addf", "f32", K::Addf),
        ("arith.mulf", "f64", K::Mulf),
        ("arith.addi", "i32", K::Addi),
        ("arith.muli", "i64", K::Muli),
        ("arith.andi", "i8", K::Andi),
        ("arith.ori", "i1", K::Ori),
        ("arith.xori", "i16", K::Xori),
        ("arith.maximumf", "f32", K::Maximumf),
        ("arith.minimumf", "f32", K::Minimumf),
        ("arith.maxnumf", "f32", K::Maxnumf),
        ("arith.minnumf", "f32", K::Minnumf),
        ("arith.maxsi", "i32", K::Maxs),
        ("arith.minsi", "i32", K::Mins),
        ("arith.maxui", "i32", K::Maxu),
        ("arith.minui", "i32", K::Minu),
    ] {
        assert_eq!(kinds(&one(op, ty)), vec![Some(k)], "{op}");
    }
    for op in ["arith.subf", "arith.divf"] {
        assert_eq!(kinds(&one(op, "f32")), vec![None], "{op}");
    }
    assert_eq!(kinds(&one("arith.subi", "i32")), vec![None]);
}

#[test]
fn types_affine_parallel_accepts() {
    let ctx = Context::new();
    crate::register_all(&ctx);
    let c = ctx.common();
    assert!(AtomicRmwKind::Addf.matches_type(&ctx, c.f32));
    assert!(!AtomicRmwKind::Addf.matches_type(&ctx, c.i32));
    assert!(AtomicRmwKind::Addi.matches_type(&ctx, c.i32));
    assert!(!AtomicRmwKind::Addi.matches_type(&ctx, c.index));
    // MLIR's verifier takes signed maxima only on signed integer types,
    // which `arith` does not compute on.
    assert!(!AtomicRmwKind::Maxs.matches_type(&ctx, c.i32));
    assert!(!AtomicRmwKind::Maxnumf.matches_type(&ctx, c.f32));
}

#[test]
fn not_reductions() {
    // Used twice; the same combined value yielded twice; a chain of two
    // combiners; a combiner in a nested region; the reduced value is a
    // carried value; yielded at another position.
    let cases = [
        "func.func @f(%z: f32) {\n%r = affine.for %i = 0 to 8 iter_args(%a = %z) -> (f32) {\n\
         %y = arith.addf %a, %a : f32\naffine.yield %y : f32\n}\nreturn\n}\n",
        "func.func @f(%z: f32) {\n%r:2 = affine.for %i = 0 to 8 iter_args(%a = %z, %b = %z) -> (f32, f32) {\n\
         %y = arith.addf %a, %b : f32\naffine.yield %y, %y : f32, f32\n}\nreturn\n}\n",
        "func.func @f(%z: f32, %w: f32) {\n%r = affine.for %i = 0 to 8 iter_args(%a = %z) -> (f32) {\n\
         %y = arith.addf %a, %w : f32\n%u = arith.addf %y, %w : f32\naffine.yield %u : f32\n}\nreturn\n}\n",
        "func.func @f(%z: f32, %w: f32) {\n%r = affine.for %i = 0 to 8 iter_args(%a = %z) -> (f32) {\n\
         %u = affine.if affine_set<(d0) : (d0 >= 0)>(%i) -> f32 {\n%y = arith.addf %a, %w : f32\n\
         affine.yield %y : f32\n} else {\naffine.yield %w : f32\n}\naffine.yield %u : f32\n}\nreturn\n}\n",
        "func.func @f(%z: f32, %w: f32) {\n%r:2 = affine.for %i = 0 to 8 iter_args(%a = %z, %b = %z) -> (f32, f32) {\n\
         %y = arith.addf %a, %w : f32\naffine.yield %b, %y : f32, f32\n}\nreturn\n}\n",
    ];
    for src in cases {
        assert!(kinds(src).iter().all(|k| k.is_none()), "{src}");
    }
}

#[test]
fn some_of_several() {
    // %a is a sum; %b is yielded unchanged; %c is a product whose reduced
    // value is computed in the loop.
    let src = "func.func @f(%z: f32, %w: f32) {\n\
        %r:3 = affine.for %i = 0 to 8 iter_args(%a = %z, %b = %z, %c = %z) -> (f32, f32, f32) {\n\
        %x = arith.addf %w, %w : f32\n%y = arith.addf %a, %w : f32\n%u = arith.mulf %x, %c : f32\n\
        affine.yield %y, %b, %u : f32, f32, f32\n}\nreturn\n}\n";
    assert_eq!(
        kinds(src),
        vec![Some(AtomicRmwKind::Addf), None, Some(AtomicRmwKind::Mulf)]
    );
    with_loops(src, |ir, loops| {
        let rs = supported_reductions(ir, loops[0]);
        assert_eq!(rs.iter().map(|r| r.iter_arg).collect::<Vec<_>>(), vec![0, 2]);
        let body = ir.1;
        assert_eq!(
            body.defining_op(rs[1].value),
            body.defining_op(body.operand(rs[1].combiner, 0))
        );
    });
}

#[test]
fn parallel_loops() {
    use crate::affine::analysis::loop_parallel::{is_loop_parallel_with_reductions, is_parallel};
    use crate::affine::analysis::{MemRefAccesses, Precision};
    let src = "func.func @f(%a: memref<8x8xf32>, %z: f32) {\n\
        affine.for %i = 0 to 8 {\naffine.for %j = 1 to 8 {\n\
        %x = affine.load %a[%i, %j - 1] : memref<8x8xf32>\naffine.store %x, %a[%i, %j] : memref<8x8xf32>\n}\n}\n\
        %r = affine.for %k = 0 to 8 iter_args(%s = %z) -> (f32) {\n\
        %x = affine.load %a[%k, 0] : memref<8x8xf32>\n%y = arith.maximumf %s, %x : f32\naffine.yield %y : f32\n}\n\
        return\n}\n";
    with_loops(src, |ir, loops| {
        let cache = MemRefAccesses::new();
        for p in [Precision::MlirCompatible, Precision::Exact] {
            // The outer loop is parallel, the inner one carries a[i][j-1] -> a[i][j].
            assert!(is_parallel(ir, loops[0], p));
            assert!(!is_parallel(ir, loops[1], p));
            // A reduction: parallel only when reductions are allowed.
            assert!(!is_parallel(ir, loops[2], p));
            let r = is_loop_parallel_with_reductions(&cache, ir, loops[2], p).expect("parallel with reductions");
            assert_eq!(r.len(), 1);
            assert_eq!(r[0].kind, AtomicRmwKind::Maximumf);
            assert!(is_loop_parallel_with_reductions(&cache, ir, loops[1], p).is_none());
        }
    });
}
