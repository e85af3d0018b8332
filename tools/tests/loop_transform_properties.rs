//! Property test of the loop transformations: random runnable affine programs
//! ([`lf_lit::runnable_gen`]) through random sequences of the passes (with
//! random options) keep their results under `lf-run`.
//!
//! For each case: lf-opt runs `builtin.module(func.func(P1,P2,...))` on the
//! program (it must succeed: a pass that cannot transform a loop declines),
//! then `lf-run --compare` runs the program before and after on the same
//! random inputs and must find them equal. A failing case is re-run with
//! `--verify-semantics` to name the first pass that changed the results.
//!
//! `LF_PROPERTY_CASES=N` sets the number of cases (default [`CASES`]),
//! `LF_PROPERTY_SEED=S` the first seed (default 1), and
//! `LF_PROPERTY_SECONDS=T` a time budget after which no new case starts
//! (default [`SECONDS`]; CI runs on two slow cores). The seed of a failing
//! case reproduces it: `LF_PROPERTY_SEED=S LF_PROPERTY_CASES=1`, and
//! `LF_PROPERTY_DIR=DIR` keeps the programs and lf-opt's outputs there.

use lf_lit::affine_gen::Rng;
use lf_lit::property::{run_cases, run_tool as run};
use lf_lit::runnable_gen::program;
use std::path::Path;

const LF_OPT: &str = env!("CARGO_BIN_EXE_lf-opt");
const LF_RUN: &str = env!("CARGO_BIN_EXE_lf-run");

/// Cases run in CI.
const CASES: usize = 300;
/// CI's time budget in seconds.
const SECONDS: u64 = 240;
/// Passes per case, at most.
const MAX_SEQUENCE: u64 = 4;

/// The passes and option sets a sequence draws from. Every pass here must be
/// registered (checked by [`every_pass_is_registered`]).
const PASSES: &[&str] = &[
    "affine-loop-normalize",
    "affine-loop-normalize{promote-single-iter=true}",
    "affine-loop-tile{tile-size=2}",
    "affine-loop-tile{tile-sizes=3,2}",
    "affine-loop-tile{tile-size=4 separate=true}",
    "affine-loop-tile{cache-size=1}",
    "affine-loop-strip-mine{factor=2}",
    "affine-loop-strip-mine{factor=3 depth=1}",
    "affine-loop-fusion",
    "affine-loop-fusion{mode=producer}",
    "affine-loop-fusion{mode=sibling}",
    "affine-loop-fusion{maximal=true}",
    "affine-loop-fusion{fusion-maximal=true compute-tolerance=1.5}",
    "affine-loop-interchange{auto=true}",
    "affine-loop-interchange{permutation=1,0}",
    "affine-loop-distribute",
    "affine-loop-distribute{mode=one-statement}",
    "ihop-pre",
    "affine-scalrep",
    "affine-loop-invariant-code-motion",
    "affine-loop-unroll{unroll-factor=2}",
    "affine-loop-unroll{unroll-factor=3 cleanup-unroll=true}",
    "affine-loop-unroll{unroll-full-threshold=8}",
    "affine-loop-unroll{unroll-factor=-1}",
    "affine-loop-unroll{unroll-factor=4 unroll-up-to-factor=true}",
    "affine-loop-unroll{unroll-num-reps=2}",
    "affine-loop-unroll-jam{unroll-jam-factor=2}",
    "affine-loop-unroll-jam{unroll-jam-factor=3}",
    "affine-parallelize",
    "affine-parallelize{parallel-reductions=true}",
    "canonicalize",
    "cse",
    "loop-invariant-code-motion",
    "gpu-map-loops{remarks=false}",
    "gpu-map-loops{remarks=false mapping=identity block-sizes=8,4 block-volume=32}",
    "gpu-map-loops{remarks=false block-volume=16 max-depth=2 fragments=nests-and-straight-line}",
    "affine-fusion-with-halo{remarks=false tile-sizes=4,2}",
    "affine-fusion-with-halo{remarks=false tile-sizes=8 group=all keep-intermediates=all}",
    "affine-fusion-with-halo{remarks=false outer-threads=2 tile-sizes=4,4}",
    "swap-array-alloc{remarks=false}",
    "swap-array-alloc{remarks=false reorder=true}",
];

/// The name of the pass a `PASSES` entry runs.
fn pass_name(entry: &str) -> &str {
    entry.split('{').next().unwrap_or(entry)
}

/// One case: `None` when it held, else what went wrong.
fn case(seed: u64, dir: &Path) -> Option<String> {
    let mut rng = Rng::new(seed ^ 0x9e37_79b9);
    let len = rng.range(1, MAX_SEQUENCE as i64) as usize;
    let passes: Vec<&str> = (0..len).map(|_| *rng.pick(PASSES)).collect();
    let pipeline = format!("builtin.module(func.func({}))", passes.join(","));
    let input = dir.join(format!("p{seed}.mlir"));
    let output = dir.join(format!("p{seed}.out.mlir"));
    std::fs::write(&input, program(seed)).expect("write the program");
    let (input, output) = (input.to_str().expect("path"), output.to_str().expect("path"));
    let inputs = format!("--random-inputs={seed}");
    let (ok, text) = run(LF_RUN, &[input, "--entry=k", &inputs]);
    if !ok {
        return Some(format!("seed {seed}: the generated program does not run:\n{text}"));
    }
    let pass_flag = format!("--pass-pipeline={pipeline}");
    let (ok, text) = run(LF_OPT, &[input, &pass_flag, "-o", output]);
    if !ok {
        return Some(format!("seed {seed}: lf-opt failed on {pipeline}:\n{text}"));
    }
    // A relative tolerance: `affine-parallelize{parallel-reductions=true}`
    // reassociates floating-point sums (lf-run combines a parallel
    // reduction's partial results in its own order); a wrong element
    // differs by far more.
    let (ok, text) = run(
        LF_RUN,
        &["--compare", input, output, "--entry=k", &inputs, "--rtol=1e-5"],
    );
    if ok {
        return None;
    }
    let verify = format!("--verify-semantics=random:{seed}");
    let (_, named) = run(LF_OPT, &[input, &pass_flag, &verify, "-o", "/dev/null"]);
    Some(format!(
        "seed {seed}: {pipeline} changed the results:\n{text}\n--verify-semantics says:\n{named}"
    ))
}

#[test]
fn every_pass_is_registered() {
    let registry = lf_transforms::all_passes();
    let missing: Vec<&str> = PASSES
        .iter()
        .map(|p| pass_name(p))
        .filter(|name| registry.lookup(name).is_none() && registry.lookup_pipeline(name).is_none())
        .collect();
    assert!(missing.is_empty(), "passes not registered: {missing:?}");
}

#[test]
fn random_pass_sequences_keep_results() {
    run_cases(CASES, SECONDS, |seed, dir| match case(seed, dir) {
        None => Ok(false),
        Some(failure) => Err(failure),
    });
}
