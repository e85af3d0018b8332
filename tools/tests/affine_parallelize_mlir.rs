//! `lf-opt --affine-parallelize` against `mlir-opt-22 --affine-parallelize` on
//! seeded random affine programs ([`lf_lit::affine_gen`]), with MLIR's option
//! sets, output compared byte for byte (custom form; the generic form on
//! the first batch).
//!
//! `LF_PARALLELIZE_PROGRAMS=N` sets how many programs (default: the CI
//! count below), `LF_PARALLELIZE_SEED=S` the first seed. Programs go to the
//! tools in modules of [`BATCH`] functions; a module that differs is split
//! into its functions to name the first program that differs.
//!
//! Where mlir-opt rejects its own output (it parallelizes a reduction whose
//! kind `affine.parallel`'s verifier refuses for the type: `xori`,
//! `maxnumf`, `minsi` on `i32`, ...) lf leaves the loop sequential; such
//! functions are counted, not compared, and lf's output must still be
//! valid.
//!
//! Where a function has an `affine.if` with an else block, MLIR gives the
//! else block's accesses the then block's condition as their domain and
//! misses their dependences (it parallelizes loops that race; see
//! docs/design/dependence.md). lf does not: such a function may have fewer
//! `affine.parallel` ops in lf's output, with the rest identical; those are
//! counted, not failures.

use lf_lit::affine_gen::{function, Options, Rng};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const LF_OPT: &str = env!("CARGO_BIN_EXE_lf-opt");

/// Programs compared in CI (each under every option set), by the main test
/// and by the test of every reduction kind.
const CI_PROGRAMS: (usize, usize) = (160, 80);

/// Functions per module given to the tools.
const BATCH: usize = 40;

/// MLIR's option sets (`affine-parallelize{...}`).
const OPTION_SETS: [&str; 4] = [
    "",
    "parallel-reductions=true",
    "max-nested=1",
    "max-nested=2 parallel-reductions=true",
];

/// mlir-opt's message when the `affine.parallel` it built fails its verifier.
const MLIR_REJECTS_ITSELF: &str = "result type cannot match reduction attribute";

fn run(tool: &Path, args: &[String], input: &Path) -> Result<String, String> {
    let out = Command::new(tool)
        .args(args)
        .arg(input)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.display()));
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn pass_flag(options: &str) -> String {
    if options.is_empty() {
        "--affine-parallelize".into()
    } else {
        format!("--affine-parallelize={options}")
    }
}

/// What one module gave.
#[derive(Default)]
struct Outcome {
    compared: usize,
    rejected_by_mlir: usize,
    else_domain: usize,
    failures: Vec<String>,
}

/// The function of `funcs` (concatenated) holding line `line` (1-based).
fn function_at_line(funcs: &[String], line: usize) -> Option<usize> {
    let mut first = 1;
    for (i, f) in funcs.iter().enumerate() {
        let n = f.lines().count();
        if line < first + n {
            return Some(i);
        }
        first += n;
    }
    None
}

/// The line of mlir-opt's first `FILE:LINE:COL: error: ... result type
/// cannot match reduction attribute`.
fn self_rejected_line(stderr: &str) -> Option<usize> {
    let l = stderr.lines().find(|l| l.contains(MLIR_REJECTS_ITSELF))?;
    let mut parts = l.split(':');
    parts.next()?;
    parts.next()?.parse().ok()
}

/// Whether lf's output `l` differs from mlir-opt's `m` on `func` only in
/// which loops are parallel, in a function with an `affine.if ... else`
/// (MLIR's else-block domain misses dependences there): as many loops
/// (`affine.for` plus `affine.parallel`) in both, and no other kind of op
/// in one output only. (With `max-nested`, a loop lf keeps sequential can
/// let an inner one be converted, so the counts of `affine.parallel` may
/// go either way.)
fn fewer_parallel_loops_only(func: &str, m: &str, l: &str) -> bool {
    let count = |s: &str, op: &str| s.matches(op).count();
    let ops = |s: &str| -> std::collections::BTreeSet<String> {
        s.lines()
            .filter_map(|line| {
                let t = line.trim_start();
                let t = t.split_once(" = ").map_or(t, |(_, r)| r);
                t.split_whitespace()
                    .next()
                    .filter(|w| w.contains('.'))
                    .map(str::to_string)
            })
            .collect()
    };
    func.contains("} else {")
        && count(l, "affine.parallel") + count(l, "affine.for") == count(m, "affine.parallel") + count(m, "affine.for")
        && l != m
        && ops(m)
            .iter()
            .filter(|o| o.as_str() != "affine.parallel" && o.as_str() != "affine.for")
            .eq(ops(l)
                .iter()
                .filter(|o| o.as_str() != "affine.parallel" && o.as_str() != "affine.for"))
}

/// Runs both tools on `funcs` (one module) with `flags`.
fn check(mlir: &Path, funcs: &[String], flags: &[String], dir: &Path, tag: &str, out: &mut Outcome) {
    let path = dir.join(format!("{tag}.mlir"));
    std::fs::write(&path, funcs.concat()).expect("write input");
    let m = run(mlir, flags, &path);
    let lf_flags: Vec<String> = flags
        .iter()
        .map(|f| {
            if f == "--mlir-print-op-generic" {
                "--print-op-generic".into()
            } else {
                f.clone()
            }
        })
        .collect();
    let l = run(Path::new(LF_OPT), &lf_flags, &path);
    match (m, l) {
        (Ok(m), Ok(l)) if m == l => out.compared += funcs.len(),
        // mlir-opt rejects what it built for one function: lf (which
        // succeeded on the module) left that loop alone; compare the rest.
        (Err(e), Ok(_))
            if self_rejected_line(&e)
                .and_then(|l| function_at_line(funcs, l))
                .is_some() =>
        {
            let bad = self_rejected_line(&e)
                .and_then(|l| function_at_line(funcs, l))
                .expect("checked");
            out.rejected_by_mlir += 1;
            let rest: Vec<String> = funcs
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != bad)
                .map(|(_, f)| f.clone())
                .collect();
            if !rest.is_empty() {
                check(mlir, &rest, flags, dir, tag, out);
            }
        }
        (m, l) if funcs.len() > 1 => {
            let _ = (m, l);
            for (i, f) in funcs.iter().enumerate() {
                check(mlir, std::slice::from_ref(f), flags, dir, &format!("{tag}-{i}"), out);
            }
        }
        (Ok(m), Ok(l)) if fewer_parallel_loops_only(&funcs[0], &m, &l) => out.else_domain += 1,
        (Ok(m), Ok(l)) => out.failures.push(format!(
            "{flags:?}: outputs differ on\n{}\n{}",
            funcs[0],
            lf_lit::tools::first_difference(&m, &l)
        )),
        (Ok(_), Err(e)) => out
            .failures
            .push(format!("{flags:?}: lf-opt fails on\n{}\n{e}", funcs[0])),
        (Err(e), Ok(_)) => out.failures.push(format!(
            "{flags:?}: mlir-opt fails (generator bug?) on\n{}\n{e}",
            funcs[0]
        )),
        (Err(m), Err(l)) => out
            .failures
            .push(format!("{flags:?}: both fail on\n{}\n{m}\n{l}", funcs[0])),
    }
}

fn programs_from_env(ci: usize) -> (usize, u64) {
    let n = std::env::var("LF_PARALLELIZE_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ci);
    let seed = std::env::var("LF_PARALLELIZE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    (n, seed)
}

/// The random programs of batch `b`: `BATCH` functions from seed `seed + b`.
fn batch(seed: u64, b: usize, opts: &Options) -> Vec<String> {
    let mut rng = Rng::new(seed.wrapping_add(b as u64));
    (0..BATCH).map(|i| function(&mut rng, i, opts)).collect()
}

fn differential(test: &str, opts: Options, generic_first: bool, ci_programs: usize) {
    let Some(mlir) = lf_lit::tools::require(&["mlir-opt-22", "mlir-opt"], test) else {
        return;
    };
    let (n, seed) = programs_from_env(ci_programs);
    let dir: PathBuf = tempfile::tempdir().expect("temp dir").keep();
    let batches = n.div_ceil(BATCH);
    let jobs: Vec<(usize, usize)> = (0..batches)
        .flat_map(|b| (0..OPTION_SETS.len()).map(move |o| (b, o)))
        .collect();
    let outcomes: Vec<Outcome> = jobs
        .par_iter()
        .map(|&(b, o)| {
            let funcs = batch(seed, b, &opts);
            let mut flags = vec![pass_flag(OPTION_SETS[o])];
            if generic_first && b == 0 {
                flags.push("--mlir-print-op-generic".into());
            }
            let mut out = Outcome::default();
            check(&mlir, &funcs, &flags, &dir, &format!("{test}-b{b}-o{o}"), &mut out);
            out
        })
        .collect();
    let compared: usize = outcomes.iter().map(|o| o.compared).sum();
    let rejected: usize = outcomes.iter().map(|o| o.rejected_by_mlir).sum();
    let else_domain: usize = outcomes.iter().map(|o| o.else_domain).sum();
    let failures: Vec<&String> = outcomes.iter().flat_map(|o| &o.failures).collect();
    eprintln!(
        "{test}: {} programs x {} option sets: {compared} identical, {rejected} rejected by mlir-opt's verifier, \
         {else_domain} left sequential by lf only (MLIR's else-block domain), {} failures",
        batches * BATCH,
        OPTION_SETS.len(),
        failures.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(f) = failures.first() {
        panic!("{} of the runs differ; the first:\n{f}", failures.len());
    }
}

/// Random programs whose reductions are of the kinds MLIR's verifier accepts.
#[test]
fn affine_parallelize_matches_mlir_opt() {
    differential(
        "affine_parallelize_matches_mlir_opt",
        Options::default(),
        true,
        CI_PROGRAMS.0,
    );
}

/// Random programs with reductions of every kind, including those where
/// mlir-opt builds an `affine.parallel` its verifier rejects.
#[test]
fn affine_parallelize_every_reduction_kind() {
    let opts = Options {
        rejected_kinds_percent: 25,
        ..Options::default()
    };
    differential("affine_parallelize_every_reduction_kind", opts, false, CI_PROGRAMS.1);
}

/// Writes batch 0 to `$LF_PARALLELIZE_DUMP` (for looking at the programs).
#[test]
fn dump_programs() {
    if let Ok(p) = std::env::var("LF_PARALLELIZE_DUMP") {
        let (_, seed) = programs_from_env(0);
        std::fs::write(p, batch(seed, 0, &Options::default()).concat()).expect("write");
    }
}
