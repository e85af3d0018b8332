//! `--profile-divergence` and `--compare-traces` in the library: the
//! instrumentation exists only when asked for, loop instances follow calls
//! and barriers, parallel loops in kernels are profiled.

use lf_interp::program::{Inst, Instrument};
use lf_interp::{load, load_with, run_loaded, Options};

/// One block of 64 threads (two warps): an outer loop of 2 iterations, each
/// with a barrier and a call of @inner, whose loop runs `tid % 4` times; an
/// scf.parallel of 3x2 iterations; a store per thread.
const KERNEL: &str = r#"
func.func @inner(%t: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.remui %t, %c4 : index
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (index) {
    %a2 = arith.addi %a, %c1 : index
    scf.yield %a2 : index
  }
  return %s : index
}
func.func @k(%out: memref<64xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %r = scf.for %o = %c0 to %c2 step %c1 iter_args(%a = %c0) -> (index) {
      gpu.barrier
      %s = func.call @inner(%tx) : (index) -> index
      %a2 = arith.addi %a, %s : index
      scf.yield %a2 : index
    }
    scf.parallel (%p, %q) = (%c0, %c0) to (%c3, %c2) step (%c1, %c1) {
      scf.reduce
    }
    memref.store %r, %out[%tx] : memref<64xindex>
    gpu.terminator
  }
  return
}
"#;

fn count(code: &[Inst], f: fn(&Inst) -> bool) -> usize {
    code.iter().filter(|i| f(i)).count()
}

fn instrumentation(i: &Inst) -> bool {
    matches!(
        i,
        Inst::LoopEnter { .. }
            | Inst::LoopIter { .. }
            | Inst::LoopExit { .. }
            | Inst::TraceStore { .. }
            | Inst::TraceVStore { .. }
    )
}

#[test]
fn no_instrumentation_unless_asked() {
    let plain = load("t.lfir", KERNEL).expect("loads");
    let code: Vec<Inst> = plain.prog.funcs.iter().flat_map(|f| f.code.clone()).collect();
    assert_eq!(count(&code, instrumentation), 0);
    assert!(plain.prog.loops.is_empty());
    let both = Instrument {
        loops: true,
        stores: true,
    };
    let full = load_with("t.lfir", KERNEL, None, both).expect("loads");
    let code2: Vec<Inst> = full.prog.funcs.iter().flat_map(|f| f.code.clone()).collect();
    // Three loops (enter, iter, exit each) and one store.
    assert_eq!(full.prog.loops.len(), 3);
    assert_eq!(count(&code2, instrumentation), 3 * 3 + 1);
    assert_eq!(code2.len(), code.len() + 10);
}

#[test]
fn profile_through_calls_barriers_and_parallel_loops() {
    let opts = Options {
        entry: "k".into(),
        random_inputs: Some(1),
        profile_divergence: true,
        ..Options::default()
    };
    let l = load_with(
        "t.lfir",
        KERNEL,
        None,
        Instrument {
            loops: true,
            stores: false,
        },
    )
    .expect("loads");
    let out = run_loaded(&l, &opts);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<String> = out
        .profile
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    // @inner's loop: per warp and outer iteration, lanes run 0..3 times
    // (8 lanes each): 2 warps x 2 = 4 instances, issued 4 x 3 = 12,
    // active 4 x 48 = 192, 192 / 384 = 50%.
    assert_eq!(rows[2], "t.lfir:7:8 scf.for 4 12 192 50.00%", "{}", out.profile);
    assert_eq!(rows[3], "t.lfir:21:10 scf.for 2 4 128 100.00%", "{}", out.profile);
    assert_eq!(rows[4], "t.lfir:27:5 scf.parallel 2 12 384 100.00%", "{}", out.profile);
    assert_eq!(rows.len(), 5);
    // Without the flag: no profile, the same output and one instruction per
    // profiling event fewer.
    let plain = load("t.lfir", KERNEL).expect("loads");
    let out2 = run_loaded(
        &plain,
        &Options {
            profile_divergence: false,
            ..opts
        },
    );
    assert!(out2.profile.is_empty());
    assert_eq!(out2.stdout, out.stdout);
    assert!(out2.steps < out.steps);
}
