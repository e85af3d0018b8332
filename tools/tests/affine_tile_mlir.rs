//! `lf-opt` against `mlir-opt-22` for `affine-loop-normalize` and
//! `affine-loop-tile` on seeded random affine programs
//! ([`lf_lit::affine_gen`]), with several option sets each, output compared
//! byte for byte.
//!
//! `LF_TILE_PROGRAMS=N` sets how many programs (default: the CI count
//! below), `LF_TILE_SEED=S` the first seed. Programs go to the tools in
//! modules of [`BATCH`] functions; a module that differs is split into its
//! functions to name the first program that differs.
//!
//! Two kinds of difference are expected and counted, not failed:
//! - lf declines to tile a band whose tiling would reverse a dependence (or
//!   whose dependences it cannot analyse: a `memref.load` in the band), with
//!   a remark; mlir-opt tiles it anyway (its `isTilingValid` only rejects
//!   distance ranges `[lb, ub]` with `lb < ub < 0`). Such functions must
//!   carry lf's remark.
//! - With no tile size given, the tile sizes come from the memory footprint
//!   of the band, which lf computes from the subscripts where MLIR uses
//!   Fourier–Motzkin elimination (see `docs/design/loop-tiling.md`): a
//!   function whose output differs only under that option set is counted;
//!   at most [`MAX_MODEL_DIFFERENCES_PERCENT`] of them may.
//!
//! mlir-opt's `isTilingValid` runs its Fourier–Motzkin elimination without
//! a size guard and can run out of memory (`LLVM ERROR: out of memory`) on
//! functions with many accesses: the programs have at most
//! [`MAX_ACCESSES`] accesses, and a function mlir-opt crashes on is counted
//! (at most [`MAX_MLIR_CRASHES_PERCENT`] of them), lf's output must still be
//! produced.

use lf_lit::affine_gen::{function, Options, Rng};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const LF_OPT: &str = env!("CARGO_BIN_EXE_lf-opt");

/// Programs compared in CI (each under every option set).
const CI_PROGRAMS: usize = 40;

/// Affine accesses per generated function (see the module documentation).
const MAX_ACCESSES: usize = 10;

/// The most functions (in percent) mlir-opt may crash on.
const MAX_MLIR_CRASHES_PERCENT: usize = 10;

/// Functions per module given to the tools.
const BATCH: usize = 40;

/// The pass and its options (`pass{...}`), and whether the tile sizes come
/// from the footprint model.
const OPTION_SETS: [(&str, &str, bool); 9] = [
    ("affine-loop-normalize", "", false),
    ("affine-loop-normalize", "promote-single-iter=true", false),
    ("affine-loop-tile", "tile-size=4", false),
    ("affine-loop-tile", "tile-sizes=3,5", false),
    ("affine-loop-tile", "tile-size=32", false),
    ("affine-loop-tile", "", true),
    ("affine-loop-tile", "cache-size=1", true),
    ("affine-loop-tile", "tile-size=4 separate=true", false),
    ("affine-loop-tile", "tile-sizes=3,5 separate=true", false),
];

/// The most functions (in percent of those compared under a model option
/// set) whose tile sizes may differ from mlir-opt's.
const MAX_MODEL_DIFFERENCES_PERCENT: usize = 25;

/// lf's remarks when it declines to tile a band MLIR tiles.
const LF_DECLINES: [&str; 2] = [
    "tiling would reverse a dependence",
    "the dependences in the band cannot be analysed",
];

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

fn run(tool: &Path, args: &[String], input: &Path) -> Run {
    let out = Command::new(tool)
        .args(args)
        .arg(input)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.display()));
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn pipeline(pass: &str, options: &str) -> String {
    if options.is_empty() {
        format!("--pass-pipeline=builtin.module(func.func({pass}))")
    } else {
        format!("--pass-pipeline=builtin.module(func.func({pass}{{{options}}}))")
    }
}

/// What one module gave.
#[derive(Default)]
struct Outcome {
    compared: usize,
    declined_by_lf: usize,
    model_differences: usize,
    mlir_crashes: usize,
    failures: Vec<String>,
}

/// Runs both tools on `funcs` (one module) with option set `o`.
fn check(mlir: &Path, funcs: &[String], o: usize, dir: &Path, tag: &str, out: &mut Outcome) {
    let (pass, options, model) = OPTION_SETS[o];
    let path = dir.join(format!("{tag}.mlir"));
    std::fs::write(&path, funcs.concat()).expect("write input");
    let flags = vec![pipeline(pass, options)];
    let m = run(mlir, &flags, &path);
    let l = run(Path::new(LF_OPT), &flags, &path);
    if m.ok && l.ok && m.stdout == l.stdout {
        out.compared += funcs.len();
        return;
    }
    if funcs.len() > 1 {
        for (i, f) in funcs.iter().enumerate() {
            check(mlir, std::slice::from_ref(f), o, dir, &format!("{tag}-{i}"), out);
        }
        return;
    }
    let what = format!("{pass}{{{options}}}");
    match (m.ok, l.ok) {
        (true, true) if LF_DECLINES.iter().any(|d| l.stderr.contains(d)) => out.declined_by_lf += 1,
        (true, true) if model => out.model_differences += 1,
        (true, true) => out.failures.push(format!(
            "{what}: outputs differ on\n{}\n{}",
            funcs[0],
            lf_lit::tools::first_difference(&m.stdout, &l.stdout)
        )),
        (true, false) => out
            .failures
            .push(format!("{what}: lf-opt fails on\n{}\n{}", funcs[0], l.stderr)),
        (false, true) if m.stderr.contains("LLVM ERROR") || m.stderr.contains("Stack dump") => out.mlir_crashes += 1,
        (false, true) => out.failures.push(format!(
            "{what}: mlir-opt fails (generator bug?) on\n{}\n{}",
            funcs[0], m.stderr
        )),
        (false, false) => out.failures.push(format!(
            "{what}: both fail on\n{}\n{}\n{}",
            funcs[0], m.stderr, l.stderr
        )),
    }
}

fn programs_from_env() -> (usize, u64) {
    let n = std::env::var("LF_TILE_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CI_PROGRAMS);
    let seed = std::env::var("LF_TILE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    (n, seed)
}

/// The random programs of batch `b`: `BATCH` functions from seed `seed + b`.
fn batch(seed: u64, b: usize) -> Vec<String> {
    let mut rng = Rng::new(seed.wrapping_add(b as u64));
    let opts = Options {
        max_accesses: MAX_ACCESSES,
        ..Options::default()
    };
    (0..BATCH).map(|i| function(&mut rng, i, &opts)).collect()
}

#[test]
fn affine_normalize_and_tile_match_mlir_opt() {
    let test = "affine_normalize_and_tile_match_mlir_opt";
    let Some(mlir) = lf_lit::tools::require(&["mlir-opt-22", "mlir-opt"], test) else {
        return;
    };
    let (n, seed) = programs_from_env();
    let dir: PathBuf = tempfile::tempdir().expect("temp dir").keep();
    let batches = n.div_ceil(BATCH);
    let jobs: Vec<(usize, usize)> = (0..batches)
        .flat_map(|b| (0..OPTION_SETS.len()).map(move |o| (b, o)))
        .collect();
    let outcomes: Vec<(usize, Outcome)> = jobs
        .par_iter()
        .map(|&(b, o)| {
            let mut out = Outcome::default();
            check(&mlir, &batch(seed, b), o, &dir, &format!("{test}-b{b}-o{o}"), &mut out);
            (o, out)
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    let mut failures: Vec<&String> = Vec::new();
    for (o, (pass, options, _)) in OPTION_SETS.iter().enumerate() {
        let of: Vec<&Outcome> = outcomes.iter().filter(|(k, _)| *k == o).map(|(_, x)| x).collect();
        let compared: usize = of.iter().map(|x| x.compared).sum();
        let declined: usize = of.iter().map(|x| x.declined_by_lf).sum();
        let model: usize = of.iter().map(|x| x.model_differences).sum();
        let crashes: usize = of.iter().map(|x| x.mlir_crashes).sum();
        eprintln!(
            "{pass}{{{options}}}: {} programs: {compared} identical, {declined} declined by lf (illegal for lf, tiled by mlir-opt), {model} other tile sizes (footprint model), {crashes} crashes of mlir-opt",
            batches * BATCH
        );
        assert!(
            crashes * 100 <= MAX_MLIR_CRASHES_PERCENT * (batches * BATCH),
            "{pass}{{{options}}}: mlir-opt crashed on {crashes} functions"
        );
        assert!(
            model * 100 <= MAX_MODEL_DIFFERENCES_PERCENT * (batches * BATCH),
            "{pass}{{{options}}}: {model} functions with other tile sizes than mlir-opt's (more than {MAX_MODEL_DIFFERENCES_PERCENT}%)"
        );
        failures.extend(of.iter().flat_map(|x| &x.failures));
    }
    if let Some(f) = failures.first() {
        panic!("{} of the runs differ; the first:\n{f}", failures.len());
    }
}
