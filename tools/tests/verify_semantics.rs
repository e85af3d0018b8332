//! `lf-opt --verify-semantics` on every runnable program lf has (the drivers
//! of `examples/run/` and the programs of `test/gpu-programs/`), with every
//! registered pass and the pipelines of the pass tests:
//!
//! - with the flag lf-opt exits, prints and reports exactly as without it
//!   (the flag only checks; a pass that changed a program's results would
//!   make the run with the flag fail where the run without succeeds);
//! - every pass and pipeline keeps the results of every program.
//!
//! The passes come from the registry, so a new pass is checked here as soon
//! as it is registered: as a flag (nested under its anchor) and, for a pass
//! that runs on any op, on every function and every kernel.
//! `test-break-semantics` breaks programs on purpose and is left out (the
//! lit test `test/Transforms/verify-semantics.lfir` checks that it is caught).

use lf_pass::Anchor;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pipelines of `test/Transforms/examples-semantics.lfir` and
/// `gpu-programs-semantics.lfir`; each must keep every program's results.
const PIPELINES: &[&str] = &[
    "canonicalize",
    "lower-affine,canonicalize",
    "func.func(loop-invariant-code-motion)",
    "lower-affine,loop-invariant-code-motion,canonicalize,cse",
    "inline{max-callee-ops=100000}",
    "func.func(loop-invariant-code-motion),gpu.module(gpu.func(loop-invariant-code-motion))",
    "gpu.module(gpu.func(canonicalize,cse)),gpu-kernel-outlining,symbol-dce",
    "func.func(canonicalize,cse,lower-affine,loop-invariant-code-motion,dce),symbol-dce",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The runnable programs: every driver and GPU test program, sorted.
fn programs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (dir, ext) in [("examples/run", "mlir"), ("test/gpu-programs", "lfir")] {
        for e in std::fs::read_dir(root().join(dir)).expect("the programs' directory") {
            let p = e.expect("a directory entry").path();
            if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(
        out.len() >= 18,
        "expected the 14 drivers and 4 GPU programs, found {out:?}"
    );
    out
}

/// The pass arguments of lf-opt to try: each registered pass as a flag,
/// and a pass that runs on any op also on every function and kernel.
fn pass_arguments() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for info in lf_transforms::all_passes().all() {
        if info.name == "test-break-semantics" {
            continue;
        }
        out.push(vec![format!("--{}", info.name)]);
        if info.anchor == Anchor::Any {
            for nest in ["func.func({})", "gpu.module(gpu.func({}))"] {
                let inner = nest.replace("{}", info.name);
                out.push(vec![format!("--pass-pipeline=builtin.module({inner})")]);
            }
        }
    }
    out
}

struct Run {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

fn lf_opt(program: &Path, args: &[String], check: bool) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_lf-opt"));
    cmd.arg(program).args(args).arg("--threads=1");
    if check {
        cmd.arg("--verify-semantics");
    }
    let out = cmd.output().expect("lf-opt runs");
    Run {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: out.stderr,
    }
}

/// Runs every (program, arguments) case with and without the flag, on two
/// threads; returns the failures, and how many cases ran and succeeded.
fn check_all(cases: &[(PathBuf, Vec<String>, bool)]) -> (Vec<String>, usize) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let succeeded = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((program, args, must_succeed)) = cases.get(i) else {
                    break;
                };
                let name = format!(
                    "lf-opt {} {}",
                    program.strip_prefix(root()).unwrap_or(program).display(),
                    args.join(" ")
                );
                let plain = lf_opt(program, args, false);
                let checked = lf_opt(program, args, true);
                let mut problems = Vec::new();
                if checked.code != plain.code {
                    problems.push(format!(
                        "exit status {:?} with --verify-semantics, {:?} without",
                        checked.code, plain.code
                    ));
                }
                if checked.stdout != plain.stdout {
                    problems.push("the output differs with --verify-semantics".to_string());
                }
                if checked.stderr != plain.stderr {
                    problems.push("stderr differs with --verify-semantics".to_string());
                }
                if *must_succeed && checked.code != Some(0) {
                    problems.push("it must succeed".to_string());
                }
                if checked.code == Some(0) {
                    succeeded.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                if !problems.is_empty() {
                    failures.lock().unwrap().push(format!(
                        "{name}: {}\n--- stderr with --verify-semantics:\n{}",
                        problems.join("; "),
                        String::from_utf8_lossy(&checked.stderr)
                    ));
                }
            });
        }
    });
    (failures.into_inner().unwrap(), succeeded.into_inner())
}

#[test]
fn every_pass_keeps_every_programs_results_and_the_flag_changes_no_byte() {
    let mut cases = Vec::new();
    for program in programs() {
        for args in pass_arguments() {
            // A pass placed where it cannot run fails the same way with and without the flag.
            cases.push((program.clone(), args, false));
        }
        for p in PIPELINES {
            cases.push((
                program.clone(),
                vec![format!("--pass-pipeline=builtin.module({p})")],
                true,
            ));
        }
    }
    let (failures, succeeded) = check_all(&cases);
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    // Nearly all cases run passes to the end (the exceptions: a pass nested
    // where its anchor excludes it).
    assert!(
        succeeded * 10 >= cases.len() * 9,
        "only {succeeded} of {} cases succeeded",
        cases.len()
    );
}
