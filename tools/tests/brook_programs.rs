//! The Brook+ that `lf-translate --target=brook` writes, checked by
//! execution (issue 32; no Brook+ compiler exists here): every CPU driver
//! of `examples/run/` goes through the naive GPU pipeline (and through
//! `thread-granularity` at 2N, 4N and 8N for the mgrid drivers), is
//! emitted as Brook+, passes `lf-translate --check-brook`, is translated to
//! C++ by `lf-translate --brook-to-cpp`, built with g++ against lf's
//! emulation of the Brook+ runtime, run, and must print what mlir-runner
//! printed for the CPU program (`examples/run/expected/NAME.out`).
//!
//! A driver whose kernels are not map-style is refused with diagnostics at
//! file:line:col; the drivers listed in [`MUST_EMIT`] must be accepted, so
//! that the test cannot pass by refusing everything.
//!
//! g++ missing: a loud `SKIPPED` line, unless `LF_REQUIRE_TOOLS=1`.

use lf_tools::tune::reference::normalize;
use std::path::{Path, PathBuf};
use std::process::Command;

const LF_OPT: &str = env!("CARGO_BIN_EXE_lf-opt");
const LF_TRANSLATE: &str = env!("CARGO_BIN_EXE_lf-translate");

/// The naive pipeline: one thread per iteration.
const NAIVE: &str = "builtin.module(func.func(gpu-map-loops,gpu-host-data-placement),gpu-kernel-outlining)";

/// Drivers whose kernels are map-style after the naive pipeline.
const MUST_EMIT: &[&str] = &[
    "rprj3",
    "interp",
    "jacobi_2d",
    "fdtd_2d",
    "ll18",
    "fig3_chain",
    "stencil4_chain",
    "matvec",
    "transpose",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn gxx() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("g++"))
        .find(|p| p.is_file())
}

fn skip(test: &str) {
    if std::env::var("LF_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
        panic!("{test}: g++ is missing and LF_REQUIRE_TOOLS=1 (apt-get install g++)");
    }
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: g++ not installed ({test}; set LF_REQUIRE_TOOLS=1 to fail instead)"
    );
}

/// What happened to one program.
enum Outcome {
    /// Emitted, checked, built and run: its standard output.
    Ran(String),
    /// lf-translate refused it: its diagnostics.
    Refused(String),
}

/// Runs `cmd`, returning its output; panics when it cannot start.
fn output(cmd: &mut Command) -> std::process::Output {
    cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

/// `input` through `pipeline`, then Brook+ (checked by `--check-brook`) and
/// its C++ translation, in `dir`: the `.cpp`, or the diagnostics of a
/// refused translation.
fn brook_cpp(input: &Path, pipeline: &str, dir: &Path, tag: &str) -> Result<PathBuf, String> {
    let gpu = dir.join(format!("{tag}.lfir"));
    let o = output(
        Command::new(LF_OPT)
            .arg(input)
            .arg(format!("--pass-pipeline={pipeline}"))
            .arg("-o")
            .arg(&gpu),
    );
    assert!(
        o.status.success(),
        "{tag}: lf-opt failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let br = dir.join(format!("{tag}.br"));
    let o = output(
        Command::new(LF_TRANSLATE)
            .arg(&gpu)
            .arg("--target=brook")
            .arg("-o")
            .arg(&br),
    );
    if !o.status.success() {
        assert!(!br.exists(), "{tag}: a refused translation wrote its output");
        return Err(String::from_utf8_lossy(&o.stderr).into_owned());
    }
    let o = output(Command::new(LF_TRANSLATE).arg("--check-brook").arg(&br));
    assert!(
        o.status.success(),
        "{tag}: the emitted Brook+ breaks a rule:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let cpp = dir.join(format!("{tag}.cpp"));
    let o = output(
        Command::new(LF_TRANSLATE)
            .arg("--brook-to-cpp")
            .arg(&br)
            .arg("-o")
            .arg(&cpp),
    );
    assert!(
        o.status.success(),
        "{tag}: --brook-to-cpp failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    Ok(cpp)
}

/// g++ with lf's Brook+ runtime emulation (written into `dir/runtime`).
fn gxx_command(dir: &Path) -> Command {
    let runtime = dir.join("runtime");
    lf_targets::brook::cpp::write_runtime(&runtime).expect("write the Brook+ runtime emulation");
    let mut cmd = Command::new("g++");
    cmd.args(["-std=c++11", "-O1", "-ffp-contract=off", "-w", "-I"])
        .arg(runtime);
    cmd
}

/// `input` through `pipeline` as Brook+, built and run (see [`brook_cpp`]).
fn brook_run(input: &Path, pipeline: &str, dir: &Path, tag: &str) -> Outcome {
    let cpp = match brook_cpp(input, pipeline, dir, tag) {
        Ok(cpp) => cpp,
        Err(diags) => return Outcome::Refused(diags),
    };
    let exe = dir.join(tag);
    let o = output(gxx_command(dir).arg(&cpp).arg("-o").arg(&exe).arg("-lm"));
    assert!(
        o.status.success(),
        "{tag}: g++ failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = output(&mut Command::new(&exe));
    assert!(
        o.status.success(),
        "{tag}: the program failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    Outcome::Ran(String::from_utf8_lossy(&o.stdout).into_owned())
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(root().join(format!("examples/run/expected/{name}.out"))).unwrap()
}

fn drivers() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("examples/run"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_example_driver_runs_as_brook_like_mlir_runner_or_is_refused_with_a_located_diagnostic() {
    if gxx().is_none() {
        return skip("brook_programs");
    }
    let dir = tempfile::tempdir().unwrap();
    let mut emitted = Vec::new();
    for input in drivers() {
        let name = input.file_stem().unwrap().to_string_lossy().into_owned();
        match brook_run(&input, NAIVE, dir.path(), &name) {
            Outcome::Ran(out) => {
                assert_eq!(
                    normalize(&out),
                    expected(&name),
                    "{name}: the Brook+ program prints something else than mlir-runner"
                );
                emitted.push(name);
            }
            Outcome::Refused(diags) => {
                assert!(
                    diags.contains(".lfir:") && diags.contains(": error: "),
                    "{name}: refused without a located diagnostic:\n{diags}"
                );
            }
        }
    }
    for must in MUST_EMIT {
        assert!(
            emitted.iter().any(|e| e == must),
            "{must} must be emitted as Brook+ (emitted: {emitted:?})"
        );
    }
}

#[test]
fn map_style_examples_at_full_size_pass_the_checker_and_build() {
    if gxx().is_none() {
        return skip("brook_programs (examples)");
    }
    let dir = tempfile::tempdir().unwrap();
    for name in ["rprj3", "interp", "jacobi_2d", "fdtd_2d", "ll18", "stencil4_chain"] {
        let input = root().join(format!("examples/{name}.lfir"));
        let cpp = brook_cpp(&input, NAIVE, dir.path(), name).unwrap_or_else(|d| panic!("{name}: refused:\n{d}"));
        let o = output(gxx_command(dir.path()).arg("-fsyntax-only").arg(&cpp));
        assert!(
            o.status.success(),
            "{name}: g++ failed:\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// thread-granularity's variants of seed 002 (DIGEST §002.3): 2N (`double2`),
/// 4N (`double2` x 2 streams), 8N (`double2` x 4 streams).
const GRANULARITIES: [&str; 3] = [
    "factor=2 vector-width=2",
    "factor=4 vector-width=2 output-streams=2",
    "factor=8 vector-width=2 output-streams=4",
];

#[test]
fn mgrid_drivers_at_every_granularity_run_as_brook_like_mlir_runner() {
    if gxx().is_none() {
        return skip("brook_programs (granularity)");
    }
    let dir = tempfile::tempdir().unwrap();
    let mut ran = 0;
    for name in ["rprj3", "interp"] {
        let input = root().join(format!("examples/run/{name}.mlir"));
        for (k, g) in GRANULARITIES.iter().enumerate() {
            let pipeline = format!(
                "builtin.module(func.func(gpu-map-loops,thread-granularity{{{g}}},gpu-host-data-placement),gpu-kernel-outlining)"
            );
            let tag = format!("{name}_g{k}");
            match brook_run(&input, &pipeline, dir.path(), &tag) {
                Outcome::Ran(out) => {
                    assert_eq!(normalize(&out), expected(name), "{tag}: differs from mlir-runner");
                    ran += 1;
                }
                // Interp writes eight fine points per coarse point: at 4N and
                // more a thread needs more than Brook+'s 8 output streams.
                Outcome::Refused(diags) => assert!(
                    name == "interp" && diags.contains("[out-streams]"),
                    "{tag}: refused:\n{diags}"
                ),
            }
        }
    }
    assert!(ran >= 4, "only {ran} granularity variants ran");
}
