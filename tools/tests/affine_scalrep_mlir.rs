//! `lf-opt --affine-scalrep` and `--affine-loop-invariant-code-motion`
//! against mlir-opt-22 on seeded random affine programs
//! ([`lf_lit::affine_gen`] with [`Options::reuse_percent`] on, so that
//! loads and stores repeat earlier accesses), outputs compared byte for
//! byte (custom form; the generic form on the first batch).
//!
//! `LF_SCALREP_PROGRAMS=N` sets how many programs (default: the CI count
//! below), `LF_SCALREP_SEED=S` the first seed. A module that differs is
//! split into its functions to name the first program that differs.
//!
//! For `affine-loop-invariant-code-motion` lf differs from MLIR 22 on
//! purpose where MLIR 22's hoist is wrong (an affine load or store moved out
//! of a loop that may run zero times: see
//! `docs/design/affine-scalrep-licm.md`). One test generates only loops
//! that run at least once (`Options::loops_run`), where every output must
//! be mlir-opt's; the other generates any bounds and counts (skips) the
//! functions that differ and have a loop whose bounds are not two constants.

use lf_lit::affine_gen::{function, Options, Rng};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const LF_OPT: &str = env!("CARGO_BIN_EXE_lf-opt");

/// Programs compared in CI per pass.
const CI_PROGRAMS: usize = 160;

/// Functions per module given to the tools.
const BATCH: usize = 40;

fn run(tool: &Path, args: &[&str], input: &Path) -> Result<String, String> {
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

/// What the runs gave.
#[derive(Default)]
struct Outcome {
    compared: usize,
    /// Lines of the printed input that the pass changed (in identical outputs).
    changed_lines: usize,
    /// LICM functions where lf refused MLIR 22's hoist out of a loop that may not run.
    unsafe_in_mlir: usize,
    failures: Vec<String>,
}

/// Whether `func` has an `affine.for` whose bounds are not two constants
/// with a positive difference (where lf's LICM keeps loads and stores).
fn has_loop_that_may_not_run(func: &str) -> bool {
    func.lines()
        .map(str::trim)
        .filter(|l| l.contains("affine.for "))
        .any(|l| {
            let Some((_, rest)) = l.split_once(" = ") else {
                return true;
            };
            let rest = rest.split(" step ").next().unwrap_or(rest).trim_end_matches(" {");
            let rest = rest.split(" iter_args").next().unwrap_or(rest);
            match rest.split_once(" to ") {
                Some((lb, ub)) => match (lb.trim().parse::<i64>(), ub.trim().parse::<i64>()) {
                    (Ok(lb), Ok(ub)) => ub <= lb,
                    _ => true,
                },
                None => true,
            }
        })
}

fn check(mlir: &Path, pass: &str, funcs: &[String], generic: bool, dir: &Path, tag: &str, out: &mut Outcome) {
    let path = dir.join(format!("{tag}.mlir"));
    std::fs::write(&path, funcs.concat()).expect("write input");
    let flag = format!("--{pass}");
    let (mflags, lflags): (Vec<&str>, Vec<&str>) = if generic {
        (
            vec![&flag, "--mlir-print-op-generic"],
            vec![&flag, "--print-op-generic"],
        )
    } else {
        (vec![&flag], vec![&flag])
    };
    let m = run(mlir, &mflags, &path);
    let l = run(Path::new(LF_OPT), &lflags, &path);
    match (m, l) {
        (Ok(m), Ok(l)) if m == l => {
            out.compared += funcs.len();
            if let Ok(before) = run(Path::new(LF_OPT), &lflags[1..], &path) {
                let (a, b): (Vec<&str>, Vec<&str>) = (before.lines().collect(), m.lines().collect());
                let same = a.iter().filter(|x| b.contains(x)).count();
                out.changed_lines += a.len() - same;
            }
        }
        (m, l) if funcs.len() > 1 => {
            let _ = (m, l);
            for (i, f) in funcs.iter().enumerate() {
                check(
                    mlir,
                    pass,
                    std::slice::from_ref(f),
                    generic,
                    dir,
                    &format!("{tag}-{i}"),
                    out,
                );
            }
        }
        (Ok(_), Ok(_)) if pass == "affine-loop-invariant-code-motion" && has_loop_that_may_not_run(&funcs[0]) => {
            out.unsafe_in_mlir += 1
        }
        (Ok(m), Ok(l)) => out.failures.push(format!(
            "{pass}: outputs differ on\n{}\n{}",
            funcs[0],
            lf_lit::tools::first_difference(&m, &l)
        )),
        (Ok(_), Err(e)) => out.failures.push(format!("{pass}: lf-opt fails on\n{}\n{e}", funcs[0])),
        (Err(e), Ok(_)) => out
            .failures
            .push(format!("{pass}: mlir-opt fails (generator bug?) on\n{}\n{e}", funcs[0])),
        (Err(m), Err(l)) => out
            .failures
            .push(format!("{pass}: both fail on\n{}\n{m}\n{l}", funcs[0])),
    }
}

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The generator's options: accesses that repeat earlier ones; for LICM,
/// loops that run (`loops_run`), or only those where lf and MLIR agree
/// (`loops_run = false`, differences skipped).
fn options(loops_run: bool) -> Options {
    Options {
        reuse_percent: 35,
        loops_run,
        ..Options::default()
    }
}

fn differential(test: &str, pass: &str, loops_run: bool) {
    let Some(mlir) = lf_lit::tools::require(&["mlir-opt-22", "mlir-opt"], test) else {
        return;
    };
    let n = env_num("LF_SCALREP_PROGRAMS", CI_PROGRAMS as u64) as usize;
    let seed = env_num("LF_SCALREP_SEED", 1);
    let dir: PathBuf = tempfile::tempdir().expect("temp dir").keep();
    let opts = options(loops_run);
    let outcomes: Vec<Outcome> = (0..n.div_ceil(BATCH))
        .into_par_iter()
        .map(|b| {
            let mut rng = Rng::new(seed.wrapping_add(b as u64));
            let funcs: Vec<String> = (0..BATCH).map(|i| function(&mut rng, i, &opts)).collect();
            let mut out = Outcome::default();
            check(&mlir, pass, &funcs, b == 0, &dir, &format!("{test}-b{b}"), &mut out);
            out
        })
        .collect();
    let compared: usize = outcomes.iter().map(|o| o.compared).sum();
    let skipped: usize = outcomes.iter().map(|o| o.unsafe_in_mlir).sum();
    let changed: usize = outcomes.iter().map(|o| o.changed_lines).sum();
    let failures: Vec<&String> = outcomes.iter().flat_map(|o| &o.failures).collect();
    eprintln!(
        "{test}: {compared} identical ({changed} input lines changed), {skipped} where lf refuses MLIR 22's hoist out of a loop that may not run, {} failures",
        failures.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(f) = failures.first() {
        panic!("{} of the programs differ; the first:\n{f}", failures.len());
    }
}

#[test]
fn affine_scalrep_matches_mlir_opt() {
    differential("affine_scalrep_matches_mlir_opt", "affine-scalrep", false);
}

/// Loops that run at least once: lf hoists what MLIR 22 hoists.
#[test]
fn affine_licm_matches_mlir_opt_on_loops_that_run() {
    differential(
        "affine_licm_matches_mlir_opt_on_loops_that_run",
        "affine-loop-invariant-code-motion",
        true,
    );
}

#[test]
fn affine_licm_matches_mlir_opt() {
    differential(
        "affine_licm_matches_mlir_opt",
        "affine-loop-invariant-code-motion",
        false,
    );
}
