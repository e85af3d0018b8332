//! `lf-opt` against `mlir-opt-22` for `affine-loop-unroll` and
//! `affine-loop-unroll-jam` on seeded random affine programs
//! ([`lf_lit::affine_gen`]), under several option sets, outputs compared
//! byte for byte.
//!
//! `LF_UNROLL_PROGRAMS=N` sets how many programs (default: the CI count
//! below), `LF_UNROLL_SEED=S` the first seed. Programs go to the tools in
//! modules of [`BATCH`] functions; a module that differs is split into its
//! functions to name the first program that differs.
//!
//! Unroll-and-jam: where mlir-opt 22 produces a wrong program (it reverses a
//! dependence, or restarts a non-reduction carried value in every copy) lf
//! leaves the loop alone with a remark; such functions are counted, not
//! compared. So are the functions where mlir-opt crashes (a division by
//! zero on `unroll-up-to-factor` with a loop that never runs).

use lf_lit::affine_gen::{function, Options, Rng};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const LF_OPT: &str = env!("CARGO_BIN_EXE_lf-opt");

/// Programs compared in CI, each under every option set.
const CI_PROGRAMS: usize = 120;

/// Functions per module given to the tools.
const BATCH: usize = 40;

/// Option sets of `affine-loop-unroll`.
const UNROLL_OPTIONS: [&str; 7] = [
    "",
    "unroll-factor=2",
    "unroll-factor=3 unroll-num-reps=2",
    "unroll-factor=5 cleanup-unroll=true",
    "unroll-factor=6 unroll-up-to-factor=true",
    "unroll-factor=-1 unroll-full-threshold=5",
    "unroll-factor=1",
];

/// Option sets of `affine-loop-unroll-jam`.
const JAM_OPTIONS: [&str; 3] = ["", "unroll-jam-factor=2", "unroll-jam-factor=3"];

/// Remarks of lf's own refusals to unroll-and-jam (where mlir-opt's output
/// would be a wrong program).
const LF_ONLY_DECLINES: [&str; 5] = [
    "would reverse a dependence",
    "reduction",
    "touches memory and is not an affine access",
    "nested in a non-affine op",
    "could not be placed",
];

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

fn run(tool: &Path, pipeline: &str, input: &Path) -> Run {
    let out = Command::new(tool)
        .arg(format!("--pass-pipeline={pipeline}"))
        .arg(input)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.display()));
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[derive(Default)]
struct Outcome {
    compared: usize,
    declined_by_lf: usize,
    mlir_crashed: usize,
    failures: Vec<String>,
}

/// Runs mlir-opt with `pipeline` and lf-opt with the same pipeline and
/// `assume-nonnegative-trip-count=true` (MLIR's cleanup bounds: the
/// generated programs' symbolic trip counts may be negative, where lf's
/// default bounds differ from MLIR's on purpose) on `funcs`.
fn check(mlir: &Path, funcs: &[String], pipeline: &str, dir: &Path, tag: &str, out: &mut Outcome) {
    let path = dir.join(format!("{tag}.mlir"));
    std::fs::write(&path, funcs.concat()).expect("write input");
    let m = run(mlir, pipeline, &path);
    let lf_pipeline = pipeline.replacen("}))", " assume-nonnegative-trip-count=true}))", 1);
    let l = run(Path::new(LF_OPT), &lf_pipeline, &path);
    if m.ok && l.ok && m.stdout == l.stdout {
        out.compared += funcs.len();
        return;
    }
    if funcs.len() > 1 {
        for (i, f) in funcs.iter().enumerate() {
            check(mlir, std::slice::from_ref(f), pipeline, dir, &format!("{tag}-{i}"), out);
        }
        return;
    }
    if l.ok && LF_ONLY_DECLINES.iter().any(|d| l.stderr.contains(d)) {
        out.declined_by_lf += 1;
        return;
    }
    // mlir-opt 22 divides by zero on `unroll-up-to-factor` with a loop that
    // never runs; lf leaves that loop alone with a remark.
    if l.ok && !m.ok && m.stderr.contains("Stack dump") && l.stderr.contains("the loop never runs") {
        out.mlir_crashed += 1;
        return;
    }
    let what = match (m.ok, l.ok) {
        (true, true) => lf_lit::tools::first_difference(&m.stdout, &l.stdout),
        (true, false) => format!("lf-opt fails:\n{}", l.stderr),
        (false, true) => format!("mlir-opt fails:\n{}", m.stderr),
        (false, false) => format!("both fail:\n{}\n{}", m.stderr, l.stderr),
    };
    out.failures.push(format!("{pipeline}: on\n{}\n{what}", funcs[0]));
}

fn programs_from_env() -> (usize, u64) {
    let n = std::env::var("LF_UNROLL_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CI_PROGRAMS);
    let seed = std::env::var("LF_UNROLL_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    (n, seed)
}

fn batch(seed: u64, b: usize, opts: &Options) -> Vec<String> {
    let mut rng = Rng::new(seed.wrapping_add(b as u64));
    (0..BATCH).map(|i| function(&mut rng, i, opts)).collect()
}

fn differential(test: &str, pass: &str, option_sets: &[&str]) {
    let Some(mlir) = lf_lit::tools::require(&["mlir-opt-22", "mlir-opt"], test) else {
        return;
    };
    let (n, seed) = programs_from_env();
    let opts = Options::default();
    let dir: PathBuf = tempfile::tempdir().expect("temp dir").keep();
    let batches = n.div_ceil(BATCH);
    let jobs: Vec<(usize, usize)> = (0..batches)
        .flat_map(|b| (0..option_sets.len()).map(move |o| (b, o)))
        .collect();
    let outcomes: Vec<Outcome> = jobs
        .par_iter()
        .map(|&(b, o)| {
            let funcs = batch(seed, b, &opts);
            let pipeline = format!("builtin.module(func.func({pass}{{{}}}))", option_sets[o]);
            let mut out = Outcome::default();
            check(&mlir, &funcs, &pipeline, &dir, &format!("{test}-b{b}-o{o}"), &mut out);
            out
        })
        .collect();
    let compared: usize = outcomes.iter().map(|o| o.compared).sum();
    let declined: usize = outcomes.iter().map(|o| o.declined_by_lf).sum();
    let crashed: usize = outcomes.iter().map(|o| o.mlir_crashed).sum();
    let failures: Vec<&String> = outcomes.iter().flat_map(|o| &o.failures).collect();
    eprintln!(
        "{test}: {} programs x {} option sets: {compared} identical, {declined} left alone by lf only, {crashed} where mlir-opt crashes, {} failures",
        batches * BATCH,
        option_sets.len(),
        failures.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(f) = failures.first() {
        panic!("{} of the runs differ; the first:\n{f}", failures.len());
    }
}

#[test]
fn affine_loop_unroll_matches_mlir_opt() {
    differential(
        "affine_loop_unroll_matches_mlir_opt",
        "affine-loop-unroll",
        &UNROLL_OPTIONS,
    );
}

#[test]
fn affine_loop_unroll_jam_matches_mlir_opt() {
    differential(
        "affine_loop_unroll_jam_matches_mlir_opt",
        "affine-loop-unroll-jam",
        &JAM_OPTIONS,
    );
}
