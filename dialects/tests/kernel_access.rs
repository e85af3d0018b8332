//! The kernel-access analysis of seed 004 (DIGEST §004.3) through its API:
//! subscripts of a naive matmul kernel as linear forms in thread ids,
//! block ids and loop indices, flat offsets, and unresolved indices.

use lf_dialects::gpu::analysis::kernel_access::{kernel_accesses, MemorySpace, Subscript, Term};
use lf_dialects::gpu::GpuLaunchOp;
use lf_ir::view::OpView;
use lf_ir::{Body, Context};
use lf_pass::analysis::for_each_op_in;

/// Parses one function and calls `f` with its body and its first launch.
fn with_launch(src: &str, f: impl FnOnce(&Context, &Body, GpuLaunchOp)) {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    let m = lf_ir::parse_source(&ctx, src, "in.mlir").expect("parses");
    let rb = m.body.regions_body(m.op);
    let func = rb
        .region_blocks(m.body.regions(m.op)[0])
        .flat_map(|b| rb.block_ops(b))
        .next()
        .expect("a function");
    let fb = rb.regions_body(func);
    let regions = rb.regions(func).to_vec();
    let mut launch = None;
    for_each_op_in(fb, &regions, &mut |op, _| {
        if launch.is_none() {
            launch = GpuLaunchOp::cast(&(&ctx, fb), op);
        }
    });
    f(&ctx, fb, launch.expect("a gpu.launch"));
}

const MATMUL: &str = r#"
#map = affine_map<(d0, d1) -> (d0 * 64 + d1)>
#map1 = affine_map<(d0, d1) -> (d0 * 4 + d1)>
func.func @matmul(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>, %p: memref<256xindex>) {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c64, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c4, %sz = %c1) {
    %idx = affine.apply #map(%bx, %tx)
    %idy = affine.apply #map1(%by, %ty)
    %s = affine.for %i = 0 to 256 iter_args(%acc = %cst) -> (f32) {
      %x = affine.load %a[%idy, %i] : memref<256x256xf32>
      %y = affine.load %b[%i, %idx] : memref<256x256xf32>
      %m = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %m : f32
      affine.yield %n : f32
    }
    %k = memref.load %p[%idx] : memref<256xindex>
    %z = memref.load %a[%k, %idx] : memref<256x256xf32>
    affine.store %s, %c[%idy, %idx] : memref<256x256xf32>
    gpu.terminator
  }
  return
}
"#;

#[test]
fn naive_matmul_subscripts_are_linear_in_ids_and_loops() {
    with_launch(MATMUL, |ctx, body, launch| {
        let acc = kernel_accesses(&(ctx, body), launch);
        assert_eq!(acc.len(), 5);
        let a = &acc[0];
        assert!(!a.is_store && a.space == MemorySpace::Global);
        let iv = a.loops[0].iv;
        assert_eq!(a.loops[0].trip_count, Some(256));
        let row = a.subscripts[0].linear().unwrap();
        assert_eq!(
            (row.coef(Term::Block(1)), row.coef(Term::Thread(1)), row.constant),
            (4, 1, 0)
        );
        assert_eq!(a.subscripts[1].linear().unwrap().coef(Term::Loop(iv)), 1);
        // b[i][idx]: flat offset 256*i + 64*bidx + tidx.
        let flat = acc[1].flat_offset().unwrap();
        assert_eq!(flat.coef(Term::Loop(iv)), 256);
        assert_eq!(flat.coef(Term::Block(0)), 64);
        assert_eq!(flat.coef(Term::Thread(0)), 1);
        assert_eq!(acc[1].row_pitch(), Some(256));
        // p[idx] is resolved, a[p[idx]][idx] is not.
        assert!(acc[2].unresolved().is_none());
        assert!(matches!(acc[3].subscripts[0], Subscript::Unresolved(_)));
        assert!(acc[3].flat_offset().is_none());
        assert!(acc[4].is_store && acc[4].loops.is_empty());
        let shown = acc[4].subscripts[0].linear().unwrap().display_with(|t| t.to_string());
        assert_eq!(shown, "tidy + 4*bidy");
    });
}
