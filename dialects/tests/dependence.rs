//! The affine dependence analysis through its API: precisions, kinds,
//! components, non-affine ops and loop parallelism.

use lf_dialects::affine::analysis::{
    check_memref_access_dependence, dependence_kind, is_loop_memory_parallel, DependenceKind, DependenceResult,
    MemRefAccesses, Precision,
};
use lf_dialects::affine::{AffineForOp, AffineLoadOp, AffineStoreOp};
use lf_dialects::memref::MemrefStoreOp;
use lf_ir::view::OpView;
use lf_ir::{Body, Context, OpId};
use lf_pass::analysis::for_each_op_in;

fn ctx() -> Context {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    ctx
}

/// Parses one function and calls `f` with its body, its affine accesses
/// and its `affine.for` ops (walk order).
fn with_function(src: &str, f: impl FnOnce(&Context, &Body, &[OpId], &[OpId])) {
    let ctx = ctx();
    let m = lf_ir::parse_source(&ctx, src, "in.mlir").expect("parses");
    let rb = m.body.regions_body(m.op);
    let func = rb
        .region_blocks(m.body.regions(m.op)[0])
        .flat_map(|b| rb.block_ops(b))
        .next()
        .expect("a function");
    let fb = rb.regions_body(func);
    let regions = rb.regions(func).to_vec();
    let (mut accesses, mut loops) = (Vec::new(), Vec::new());
    for_each_op_in(fb, &regions, &mut |op, _| {
        let ir = (&ctx, fb);
        if AffineLoadOp::isa(&ir, op) || AffineStoreOp::isa(&ir, op) {
            accesses.push(op);
        }
        if AffineForOp::isa(&ir, op) {
            loops.push(op);
        }
    });
    f(&ctx, fb, &accesses, &loops);
}

const NEXT: &str = r#"
func.func @f(%a: memref<100xf32>, %b: memref<100xf32>) {
  %c = arith.constant 0.0 : f32
  affine.for %i = 0 to 99 {
    affine.store %c, %a[%i + 1] : memref<100xf32>
    %v = affine.load %a[%i] : memref<100xf32>
    affine.store %v, %b[%i] : memref<100xf32>
  }
  return
}
"#;

#[test]
fn constant_distance_and_kind() {
    with_function(NEXT, |ctx, body, acc, loops| {
        for p in [Precision::MlirCompatible, Precision::Exact] {
            let r = check_memref_access_dependence(ctx, body, acc[0], acc[1], 1, p, true);
            let DependenceResult::HasDependence { components } = r else {
                panic!("{r:?}")
            };
            assert_eq!(components.len(), 1);
            assert_eq!(components[0].distance(), Some(1));
            assert_eq!(components[0].loop_op, Some(loops[0]));
            assert_eq!(
                check_memref_access_dependence(ctx, body, acc[0], acc[1], 2, p, true),
                DependenceResult::NoDependence
            );
            // Different memrefs, and two reads, never depend.
            assert_eq!(
                check_memref_access_dependence(ctx, body, acc[0], acc[2], 1, p, true),
                DependenceResult::NoDependence
            );
        }
        assert_eq!(dependence_kind(ctx, body, acc[0], acc[1]), Some(DependenceKind::Flow));
        assert_eq!(dependence_kind(ctx, body, acc[1], acc[0]), Some(DependenceKind::Anti));
        assert_eq!(dependence_kind(ctx, body, acc[0], acc[0]), Some(DependenceKind::Output));
        assert_eq!(dependence_kind(ctx, body, acc[1], acc[1]), Some(DependenceKind::Input));
        assert!(!is_loop_memory_parallel(ctx, body, loops[0], Precision::Exact));
    });
}

#[test]
fn strides_that_never_meet() {
    // Writes A[3(i + j)], reads A[6(i + j) + 1]: 3a = 6b + 1 has no integer
    // solution, which both precisions find.
    let src = r#"
func.func @f(%a: memref<300xf32>) {
  %c = arith.constant 0.0 : f32
  affine.for %i = 0 to 50 {
    affine.for %j = 0 to 50 {
      affine.store %c, %a[%i * 3 + %j * 3] : memref<300xf32>
      %v = affine.load %a[%i * 6 + %j * 6 + 1] : memref<300xf32>
    }
  }
  return
}
"#;
    with_function(src, |ctx, body, acc, _| {
        let exact = check_memref_access_dependence(ctx, body, acc[0], acc[1], 1, Precision::Exact, true);
        assert_eq!(exact, DependenceResult::NoDependence);
        let cache = MemRefAccesses::new();
        let mlir = cache.check(ctx, body, acc[0], acc[1], 1, Precision::MlirCompatible, true);
        assert_eq!(mlir, DependenceResult::NoDependence);
    });
}

#[test]
fn parallel_loops() {
    let src = r#"
func.func @f(%a: memref<100x100xf32>, %b: memref<100x100xf32>) {
  affine.for %i = 0 to 100 {
    affine.for %j = 1 to 100 {
      %v = affine.load %a[%i, %j - 1] : memref<100x100xf32>
      affine.store %v, %a[%i, %j] : memref<100x100xf32>
      %w = affine.load %b[%i, %j] : memref<100x100xf32>
    }
  }
  return
}
"#;
    with_function(src, |ctx, body, _, loops| {
        for p in [Precision::MlirCompatible, Precision::Exact] {
            assert!(
                is_loop_memory_parallel(ctx, body, loops[0], p),
                "the outer loop is parallel"
            );
            assert!(
                !is_loop_memory_parallel(ctx, body, loops[1], p),
                "the inner loop carries a dependence"
            );
        }
    });
}

#[test]
fn non_affine_ops_assume_a_dependence() {
    let src = r#"
func.func private @g(memref<10xf32>)
func.func @f(%a: memref<10xf32>, %n: index) {
  %c = arith.constant 0.0 : f32
  affine.for %i = 0 to 10 {
    affine.store %c, %a[%i] : memref<10xf32>
    memref.store %c, %a[%n] : memref<10xf32>
  }
  return
}
"#;
    let ctx = ctx();
    let m = lf_ir::parse_source(&ctx, src, "in.mlir").expect("parses");
    let rb = m.body.regions_body(m.op);
    let func = rb
        .region_blocks(m.body.regions(m.op)[0])
        .flat_map(|b| rb.block_ops(b))
        .nth(1)
        .unwrap();
    let fb = rb.regions_body(func);
    let regions = rb.regions(func).to_vec();
    let mut ops = Vec::new();
    for_each_op_in(fb, &regions, &mut |op, _| ops.push(op));
    let store = ops
        .iter()
        .copied()
        .find(|&o| AffineStoreOp::isa(&(&ctx, fb), o))
        .unwrap();
    let mstore = ops
        .iter()
        .copied()
        .find(|&o| MemrefStoreOp::isa(&(&ctx, fb), o))
        .unwrap();
    let r = check_memref_access_dependence(&ctx, fb, mstore, store, 1, Precision::Exact, true);
    let DependenceResult::Failure { reason } = r else {
        panic!("{r:?}")
    };
    assert!(reason.contains("memref.store"), "{reason}");
    let lp = ops.iter().copied().find(|&o| AffineForOp::isa(&(&ctx, fb), o)).unwrap();
    assert!(!is_loop_memory_parallel(&ctx, fb, lp, Precision::Exact));
}
