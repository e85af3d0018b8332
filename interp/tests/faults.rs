//! Faults and limits: each is a diagnostic at the op's line with exit status 1,
//! never a panic.

use lf_interp::exec::ExecOptions;
use lf_interp::{load, run_loaded, BlockOrder, Options, Outcome};

fn run_with(src: &str, opts: Options) -> Outcome {
    match load("t.lfir", src) {
        Ok(l) => run_loaded(&l, &opts),
        Err(e) => Outcome {
            stderr: e,
            code: 1,
            ..Outcome::default()
        },
    }
}

fn run(src: &str) -> Outcome {
    run_with(
        src,
        Options {
            entry: "main".into(),
            ..Options::default()
        },
    )
}

fn kernel(src: &str, entry: &str, exec: ExecOptions) -> Outcome {
    run_with(
        src,
        Options {
            entry: entry.into(),
            random_inputs: Some(1),
            exec,
            ..Options::default()
        },
    )
}

#[track_caller]
fn fails_at(out: &Outcome, line: u32, msg: &str) {
    assert_eq!(out.code, 1, "expected a failure, got: {}", out.stderr);
    let want = format!("t.lfir:{line}:");
    assert!(out.stderr.contains(&want), "expected {want} in:\n{}", out.stderr);
    assert!(out.stderr.contains(msg), "expected '{msg}' in:\n{}", out.stderr);
}

const GLOBAL_RACE: &str = r#"
func.func @k(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = arith.constant 1.0 : f32
    memref.store %v, %out[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}
"#;

#[test]
fn race_on_global_memory_between_blocks() {
    let out = kernel(GLOBAL_RACE, "k", ExecOptions::default());
    fails_at(
        &out,
        9,
        "data race on global memory: thread (0, 0, 0) of block (1, 0, 0) writes element [0]",
    );
    assert!(
        out.stderr.contains("in another block of the same launch"),
        "{}",
        out.stderr
    );
    // The same in reverse block order names the other block first.
    let out = kernel(
        GLOBAL_RACE,
        "k",
        ExecOptions {
            block_order: BlockOrder::Reverse,
            ..ExecOptions::default()
        },
    );
    fails_at(&out, 9, "thread (0, 0, 0) of block (0, 0, 0) writes");
}

#[test]
fn barrier_orders_threads_of_a_block() {
    // Thread 0 writes, all wait, thread 1 reads: no race.
    let src = r#"
func.func @k(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %v = arith.constant 1.0 : f32
      memref.store %v, %out[%c0] : memref<4xf32>
    }
    gpu.barrier
    %w = memref.load %out[%c0] : memref<4xf32>
    %o = arith.addi %tx, %c1 : index
    memref.store %w, %out[%o] : memref<4xf32>
    gpu.terminator
  }
  return
}
"#;
    let out = kernel(src, "k", ExecOptions::default());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("arg0: memref<4xf32> sum = "), "{text}");
    // Without the barrier the same program races.
    let out = kernel(&src.replace("    gpu.barrier\n", ""), "k", ExecOptions::default());
    fails_at(&out, 13, "data race on global memory");
}

#[test]
fn uninitialized_read() {
    let src = r#"
func.func private @printF32(f32)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<2xf32>
  %v = arith.constant 2.0 : f32
  memref.store %v, %m[%c0] : memref<2xf32>
  %a = memref.load %m[%c0] : memref<2xf32>
  %b = memref.load %m[%c1] : memref<2xf32>
  call @printF32(%b) : (f32) -> ()
  return
}
"#;
    assert_eq!(run(src).code, 0);
    let out = run_with(
        src,
        Options {
            entry: "main".into(),
            exec: ExecOptions {
                check_uninit: true,
                ..ExecOptions::default()
            },
            ..Options::default()
        },
    );
    fails_at(&out, 10, "read of uninitialized memory: element [1] of a 2xf32 buffer");
}

#[test]
fn out_of_bounds_on_the_host() {
    let src = r#"
func.func @main() {
  %m = memref.alloc() : memref<4x5xf32>
  %v = arith.constant 2.0 : f32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 6 {
      affine.store %v, %m[%i, %j] : memref<4x5xf32>
    }
  }
  return
}
"#;
    fails_at(
        &run(src),
        7,
        "out-of-bounds access: index [0, 5] is outside the shape [4, 5] (dimension 1)",
    );
}

#[test]
fn step_and_memory_limits() {
    let looping = r#"
func.func @main() {
  %t = arith.constant true
  scf.while : () -> () {
    scf.condition(%t)
  } do {
    scf.yield
  }
  return
}
"#;
    let out = run_with(
        looping,
        Options {
            entry: "main".into(),
            exec: ExecOptions {
                max_steps: 1000,
                ..ExecOptions::default()
            },
            ..Options::default()
        },
    );
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("step limit exceeded: 1000 instructions"),
        "{}",
        out.stderr
    );
    let big = r#"
func.func @main() {
  %m = memref.alloc() : memref<100000x100000xf32>
  return
}
"#;
    fails_at(&run(big), 3, "memory limit exceeded");
}

#[test]
fn division_by_zero_and_poison() {
    let src = r#"
func.func @main() {
  %a = arith.constant 7 : i32
  %z = arith.constant 0 : i32
  %q = arith.divsi %a, %z : i32
  return
}
"#;
    fails_at(&run(src), 5, "integer division by zero");
    let src = r#"
func.func @main() {
  %a = arith.constant -128 : i8
  %m = arith.constant -1 : i8
  %q = arith.divsi %a, %m : i8
  return
}
"#;
    fails_at(&run(src), 5, "signed integer division overflow");
}

#[test]
fn bad_input_is_a_diagnostic() {
    fails_at(
        &run("func.func @main() {\n  %x = arith.addi %y, %y : i32\n  return\n}\n"),
        2,
        "",
    );
    let out = run("func.func @other() {\n  return\n}\n");
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("no function named '@main'"), "{}", out.stderr);
    let src = "func.func private @ext(f32)\nfunc.func @main() {\n  %v = arith.constant 1.0 : f32\n  call @ext(%v) : (f32) -> ()\n  return\n}\n";
    fails_at(&run(src), 4, "external function that lf-run does not provide");
    let src = "func.func @main() {\n  %v = arith.constant dense<1.0> : tensor<4xf32>\n  return\n}\n";
    fails_at(&run(src), 2, "not supported by lf-run");
    let src = "func.func @main(%a: index) {\n  return\n}\n";
    let out = run(src);
    assert!(out.stderr.contains("kernel mode"), "{}", out.stderr);
}

#[test]
fn subview_and_copy() {
    let src = r#"
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %m = memref.alloc() : memref<3x4xf32>
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 4 {
      %s = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i, %j)
      %si = arith.index_cast %s : index to i32
      %f = arith.sitofp %si : i32 to f32
      affine.store %f, %m[%i, %j] : memref<3x4xf32>
    }
  }
  %sv = memref.subview %m[1, 1] [2, 2] [1, 2] : memref<3x4xf32> to memref<2x2xf32, strided<[4, 2], offset: 5>>
  %c = memref.alloc() : memref<2x2xf32>
  memref.copy %sv, %c : memref<2x2xf32, strided<[4, 2], offset: 5>> to memref<2x2xf32>
  %u = memref.cast %c : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %c2 = arith.constant 2 : index
  %bad = memref.subview %m[%c2, 0] [2, 4] [1, 1] : memref<3x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
  return
}
"#;
    let out = run(src);
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(text.contains("[[5,   7], \n [9,   11]]"), "{text}{}", out.stderr);
    fails_at(&out, 19, "out-of-bounds subview");
}

#[test]
fn gpu_ids_allocas_and_private_memory() {
    // An outlined kernel: a workgroup alloca shared by the block, a private
    // attribution per thread, every id op; thread 0 sums the block's values.
    let src = r#"
module attributes {gpu.container_module} {
  func.func @k(%out: memref<6xindex>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    gpu.launch_func @m::@k blocks in (%c3, %c2, %c1) threads in (%c2, %c2, %c1) args(%out : memref<6xindex>)
    return
  }
  gpu.module @m {
    gpu.func @k(%out: memref<6xindex>) private(%p : memref<1xindex, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bdx = gpu.block_dim x
      %gdx = gpu.grid_dim x
      %gid = gpu.global_id x
      %s = memref.alloca() : memref<4xindex, #gpu.address_space<workgroup>>
      %t = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%ty, %tx)
      %v0 = arith.addi %gid, %gdx : index
      %v1 = arith.muli %v0, %bdx : index
      memref.store %v1, %p[%c0] : memref<1xindex, #gpu.address_space<private>>
      %v2 = memref.load %p[%c0] : memref<1xindex, #gpu.address_space<private>>
      memref.store %v2, %s[%t] : memref<4xindex, #gpu.address_space<workgroup>>
      gpu.barrier
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %sum = affine.for %i = 0 to 4 iter_args(%a = %c0) -> (index) {
          %x = memref.load %s[%i] : memref<4xindex, #gpu.address_space<workgroup>>
          %n = arith.addi %a, %x : index
          affine.yield %n : index
        }
        %b = affine.apply affine_map<(d0, d1) -> (d1 * 3 + d0)>(%bx, %by)
        memref.store %sum, %out[%b] : memref<6xindex>
      }
      gpu.return
    }
  }
}
"#;
    let out = kernel(src, "k", ExecOptions::default());
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Block (bx, by): threads tx in 0..2 (twice, for ty): gid = 2 bx + tx,
    // value (gid + 3) * 2; sum over the 4 threads = 2 * ((2bx+3) + (2bx+4)) * 2 = 16 bx + 28.
    // out = [28, 44, 60, 28, 44, 60]: sum 264.
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("arg0: memref<6xindex> sum = 264 "), "{text}");
}

#[test]
fn faults_in_callees_name_the_calls_and_the_launch() {
    let src = r#"
func.func @get(%m: memref<4xf32>, %i: index) -> f32 {
  %v = memref.load %m[%i] : memref<4xf32>
  return %v : f32
}
func.func @k(%m: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c5, %sy = %c1, %sz = %c1) {
    %v = func.call @get(%m, %tx) : (memref<4xf32>, index) -> f32
    gpu.terminator
  }
  return
}
"#;
    let out = kernel(src, "k", ExecOptions::default());
    fails_at(
        &out,
        3,
        "index [4] is outside the shape [4] (dimension 0) in thread (4, 0, 0)",
    );
    assert!(
        out.stderr.contains("t.lfir:11:10: note: called from here"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("t.lfir:9:3: note: in the kernel launched here"),
        "{}",
        out.stderr
    );
}

#[test]
fn races_between_iterations_of_parallel_loops() {
    // Each iteration reads its left neighbour, which another iteration writes:
    // not parallel.
    let src = r#"
func.func @main() {
  %m = memref.alloc() : memref<8xf32>
  %v = arith.constant 1.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %v, %m[%i] : memref<8xf32>
  }
  affine.parallel (%i) = (1) to (8) {
    %x = affine.load %m[%i - 1] : memref<8xf32>
    affine.store %x, %m[%i] : memref<8xf32>
  }
  return
}
"#;
    let out = run(src);
    fails_at(
        &out,
        9,
        "data race between iterations of a parallel loop: iteration (2) reads element [1] of a 8xf32 buffer, which iteration (1) wrote",
    );
    assert!(
        out.stderr
            .contains("t.lfir:10:5: note: the other access, by iteration (1)"),
        "{}",
        out.stderr
    );
    // Writing one's own element only: no race, and reductions go through registers.
    let ok = r#"
func.func private @printF32(f32)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m = memref.alloc() : memref<4x4xf32>
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %s = arith.addi %i, %j : index
    %si = arith.index_cast %s : index to i32
    %f = arith.sitofp %si : i32 to f32
    memref.store %f, %m[%i, %j] : memref<4x4xf32>
  }
  %t = scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) init (%zero) -> f32 {
    %x = memref.load %m[%j, %i] : memref<4x4xf32>
    scf.reduce(%x : f32) {
    ^bb0(%a: f32, %b: f32):
      %y = arith.addf %a, %b : f32
      scf.reduce.return %y : f32
    }
  }
  call @printF32(%t) : (f32) -> ()
  return
}
"#;
    let out = run(ok);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "48");
    // Two iterations of an scf.parallel write one element.
    let bad = ok.replace("memref.store %f, %m[%i, %j]", "memref.store %f, %m[%i, %c0]");
    fails_at(
        &run(&bad),
        13,
        "iteration (0, 1) writes element [0, 0] of a 4x4xf32 buffer, which iteration (0, 0) wrote",
    );
}

/// Undefined behaviour that crashes the compiled program (issue 25, item 7):
/// a dealloc of stack memory or of a global, and a use of stack memory after
/// its function returned. Each is a fault at the op, with a note at the
/// `memref.alloca` where there is one.
#[test]
fn dealloc_of_stack_or_global_memory_and_stack_use_after_return() {
    let dealloc_alloca = r#"
func.func @main() {
  %m = memref.alloca() : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return
}
"#;
    let out = run(dealloc_alloca);
    fails_at(&out, 4, "deallocation of memory allocated by 'memref.alloca'");
    assert!(
        out.stderr.contains("t.lfir:3:"),
        "no note at the alloca:\n{}",
        out.stderr
    );
    assert!(out.stderr.contains("allocated here"), "{}", out.stderr);

    let dealloc_cast_of_alloca = r#"
func.func @main() {
  %m = memref.alloca() : memref<4xf32>
  %c = memref.cast %m : memref<4xf32> to memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  return
}
"#;
    fails_at(
        &run(dealloc_cast_of_alloca),
        5,
        "deallocation of memory allocated by 'memref.alloca'",
    );

    let dealloc_global = r#"
memref.global "private" @g : memref<4xf32> = dense<1.0>
func.func @main() {
  %m = memref.get_global @g : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return
}
"#;
    fails_at(
        &run(dealloc_global),
        5,
        "deallocation of a 'memref.global' (undefined behaviour",
    );

    let use_after_return = r#"
func.func @make() -> memref<4xf32> {
  %m = memref.alloca() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  memref.store %v, %m[%c0] : memref<4xf32>
  return %m : memref<4xf32>
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %m = call @make() : () -> memref<4xf32>
  %v = memref.load %m[%c0] : memref<4xf32>
  return
}
"#;
    let out = run(use_after_return);
    fails_at(
        &out,
        12,
        "access to memory of a 'memref.alloca' after its function returned",
    );
    assert!(
        out.stderr.contains("t.lfir:3:"),
        "no note at the alloca:\n{}",
        out.stderr
    );

    let print_after_return = r#"
func.func private @printMemrefF32(memref<*xf32>)
func.func @make() -> memref<4xf32> {
  %m = memref.alloca() : memref<4xf32>
  return %m : memref<4xf32>
}
func.func @main() {
  %m = call @make() : () -> memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
"#;
    fails_at(
        &run(print_after_return),
        10,
        "printing memory of a 'memref.alloca' after its function returned",
    );

    // Stack memory used while its function runs (also by callees, and in
    // a loop that allocates on every iteration) is fine, as are globals read
    // from several functions.
    let fine = r#"
func.func private @printMemrefF32(memref<*xf32>)
memref.global "private" @g : memref<2xf32> = dense<3.0>
func.func @fill(%m: memref<2xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %v, %m[%c0] : memref<2xf32>
  memref.store %v, %m[%c1] : memref<2xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %g = memref.get_global @g : memref<2xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    %m = memref.alloca() : memref<2xf32>
    %v = memref.load %g[%c0] : memref<2xf32>
    func.call @fill(%m, %v) : (memref<2xf32>, f32) -> ()
    %u = memref.cast %m : memref<2xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  %h = memref.alloc() : memref<2xf32>
  memref.dealloc %h : memref<2xf32>
  return
}
"#;
    let out = run(fine);
    assert_eq!(out.code, 0, "{}", out.stderr);
}
