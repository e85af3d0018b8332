//! The library API that `lf-run --gpu-backend=opencl|cuda` will use to run one
//! launch: find a kernel, get its source alone.

use lf_targets::module::Program;
use lf_targets::{OpenClProfile, Options, Target};

const SRC: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @axpy(%a: f32, %x: memref<64xf32>, %y: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %xi = memref.load %x[%i] : memref<64xf32>
      %yi = memref.load %y[%i] : memref<64xf32>
      %p = arith.mulf %a, %xi : f32
      %s = arith.addf %p, %yi : f32
      memref.store %s, %y[%i] : memref<64xf32>
      gpu.return
    }
    gpu.func @wide(%x: memref<64xi16>) kernel {
      %i = gpu.thread_id x
      %c = arith.constant 1 : i16
      memref.store %c, %x[%i] : memref<64xi16>
      gpu.return
    }
  }
}
"#;

fn with_program(f: impl FnOnce(&lf_ir::Context, &Program<'_>)) {
    let ctx = lf_ir::Context::new();
    lf_dialects::register_all(&ctx);
    let owned = lf_ir::parse_source(&ctx, SRC, "api.lfir").unwrap();
    lf_ir::verify(&ctx, &owned.body, owned.op).unwrap();
    let program = Program::collect(&ctx, &owned.body, owned.op).unwrap();
    f(&ctx, &program);
}

#[test]
fn one_kernel_as_opencl_and_cuda() {
    with_program(|ctx, program| {
        let k = program
            .kernel("kernels", "axpy")
            .expect("kernel found by @module::@name");
        let opts = Options::new(Target::OpenCl);
        let cl = lf_targets::opencl::kernel_source(ctx, k, k.name, &opts).unwrap();
        assert!(cl.starts_with("__kernel void axpy(float arg0, __global float* arg1, __global float* arg2) {"));
        assert!(cl.contains("arg2[thread_id_x] = v3;"), "{cl}");
        let full = lf_targets::opencl::kernel_program(ctx, &[("kernels", k)], &opts).unwrap();
        assert!(full.contains("int lf_mod(int a, int b)") && full.contains(&cl));
        let cu = lf_targets::cuda::kernel_source(ctx, k, k.name).unwrap();
        assert!(cu.starts_with("extern \"C\" __global__ void axpy(float arg0, float* arg1, float* arg2) {"));
        assert!(program.kernel("kernels", "nope").is_none());
    });
}

#[test]
fn profile_rules_apply_per_kernel() {
    with_program(|ctx, program| {
        let k = program.kernel("kernels", "wide").unwrap();
        let errs = lf_targets::opencl::kernel_source(ctx, k, k.name, &Options::new(Target::OpenCl)).unwrap_err();
        assert_eq!(errs.len(), 1);
        let d = &errs[0];
        assert!(d.message.contains("'no byte-addressable stores'"), "{}", d.message);
        let pos = d.pos.as_ref().unwrap();
        assert_eq!((pos.line, pos.col), (16, 7));
        let mut generic = Options::new(Target::OpenCl);
        generic.profile = OpenClProfile::Generic;
        let cl = lf_targets::opencl::kernel_source(ctx, k, k.name, &generic).unwrap();
        assert!(cl.contains("__global short* arg0"));
    });
}

/// Bitcasts the verifier refuses, given to the emitters as they are (the
/// library does not require verified IR): diagnostics at the op, no code.
const BAD_BITCASTS: &str = r#"
module {
  func.func @widths(%x: i32) -> f64 {
    %f = arith.bitcast %x : i32 to f64
    return %f : f64
  }
  func.func @index(%i: index) -> i64 {
    %b = arith.bitcast %i : index to i64
    return %b : i64
  }
}
"#;

#[test]
fn bitcasts_the_emitters_cannot_write_are_diagnostics() {
    let ctx = lf_ir::Context::new();
    lf_dialects::register_all(&ctx);
    let owned = lf_ir::parse_source(&ctx, BAD_BITCASTS, "bad.lfir").unwrap();
    assert!(
        lf_ir::verify(&ctx, &owned.body, owned.op).is_err(),
        "the verifier refuses these"
    );
    for target in [Target::Cuda, Target::OpenCl] {
        let errs = lf_targets::translate(&ctx, &owned.body, owned.op, &Options::new(target)).unwrap_err();
        let found: Vec<(u32, &str)> = errs
            .iter()
            .map(|d| (d.pos.as_ref().unwrap().line, d.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    4,
                    "'arith.bitcast' from 'i32' to 'f64' is not supported by the emitter: \
                     the types must have the same bit width"
                ),
                (
                    8,
                    "'arith.bitcast' from 'index' to 'i64' is not supported by the emitter: \
                     only integers and floats can be bitcast"
                ),
            ],
            "{target:?}"
        );
    }
}
