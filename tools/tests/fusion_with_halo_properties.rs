//! Property test of `affine-fusion-with-halo` and `fuse-halo-gpu` on random
//! chains of parallel nests ([`lf_lit::chain_gen`]): each chain goes
//! through the pass with random options and must keep its results under
//! `lf-run --compare` (random inputs, random block orders, lf-run's race
//! and bounds checks on every launch). Cases where the pass fuses nothing
//! still count: declining is the pass's answer to the bad inputs the
//! generator also makes (anti dependences, several writers, reads of
//! values from before the chain, time loops).
//!
//! `LF_PROPERTY_CASES=N` (default [`CASES`]), `LF_PROPERTY_SEED=S`,
//! `LF_PROPERTY_SECONDS=T` (default [`SECONDS`]) and `LF_PROPERTY_DIR=DIR`
//! as in every property test ([`lf_lit::property`]).

use lf_lit::affine_gen::Rng;
use lf_lit::chain_gen::chain;
use lf_lit::property::{run_cases, run_tool as run};
use std::path::Path;

const LF_OPT: &str = env!("CARGO_BIN_EXE_lf-opt");
const LF_RUN: &str = env!("CARGO_BIN_EXE_lf-run");

/// Cases run in CI.
const CASES: usize = 300;
/// CI's time budget in seconds.
const SECONDS: u64 = 150;

/// The option sets a case draws from.
const PIPELINES: &[&str] = &[
    "builtin.module(func.func(affine-fusion-with-halo{remarks=false tile-sizes=4,2}))",
    "builtin.module(func.func(affine-fusion-with-halo{remarks=false tile-sizes=8,3 group=all}))",
    "builtin.module(func.func(affine-fusion-with-halo{remarks=false tile-sizes=5 keep-intermediates=all}))",
    "builtin.module(func.func(affine-fusion-with-halo{remarks=false tile-sizes=3,3 group=all max-shared-bytes=200}))",
    "builtin.module(func.func(affine-fusion-with-halo{remarks=false}))",
    "builtin.module(func.func(affine-fusion-with-halo{remarks=false outer-threads=3 tile-sizes=8,6}))",
    "builtin.module(func.func(affine-fusion-with-halo{remarks=false outer-threads=2 group=all}))",
    "builtin.module(fuse-halo-gpu)",
];

/// One case: whether it fused a kernel, or what went wrong.
fn case(seed: u64, dir: &Path) -> Result<bool, String> {
    let mut rng = Rng::new(seed ^ 0x00c0_ffee);
    let pipeline = *rng.pick(PIPELINES);
    let input = dir.join(format!("c{seed}.mlir"));
    let output = dir.join(format!("c{seed}.out.mlir"));
    std::fs::write(&input, chain(seed)).expect("write the program");
    let (input, output) = (input.to_str().expect("path"), output.to_str().expect("path"));
    let inputs = format!("--random-inputs={seed}");
    let (ok, text) = run(LF_RUN, &[input, "--entry=k", &inputs]);
    if !ok {
        return Err(format!("seed {seed}: the generated chain does not run:\n{text}"));
    }
    let flag = format!("--pass-pipeline={pipeline}");
    let (ok, text) = run(LF_OPT, &[input, &flag, "-o", output]);
    if !ok {
        return Err(format!("seed {seed}: lf-opt failed on {pipeline}:\n{text}"));
    }
    let order = format!("--block-order=random:{seed}");
    let mut compare = vec!["--compare", input, output, "--entry=k", &inputs, &order];
    if pipeline.contains("fuse-halo-gpu") {
        compare.push("--separate-memory");
    }
    let (ok, text) = run(LF_RUN, &compare);
    if !ok {
        return Err(format!("seed {seed}: {pipeline} changed the results:\n{text}"));
    }
    let fused = std::fs::read_to_string(output).is_ok_and(|s| s.contains("workgroup("));
    Ok(fused)
}

#[test]
fn random_chains_keep_results() {
    let summary = run_cases(CASES, SECONDS, case);
    assert!(
        summary.noted * 4 >= summary.done,
        "only {} of {} chains were fused: the generator drifted",
        summary.noted,
        summary.done
    );
}
