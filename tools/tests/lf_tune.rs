//! `lf-tune` and `lf-translate --profile-launches` end to end: programs
//! built with gcc and run on the first OpenCL device (PoCL in CI).
//!
//! Without an OpenCL ICD with headers or gcc, the tests that need them print
//! a loud `SKIPPED` line and pass, unless `LF_REQUIRE_TOOLS=1`. The errors
//! found before anything is built (a bad grid or pipeline) need no tools.

use lf_lit::tools::{find_on_path, skip_or_fail};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn on_path(name: &str) -> Option<PathBuf> {
    find_on_path(&[name])
}

fn opencl_available(test: &str) -> bool {
    let ok = Path::new("/usr/include/CL/cl.h").exists()
        && std::fs::read_dir("/etc/OpenCL/vendors").is_ok_and(|mut d| d.next().is_some())
        && on_path("gcc").is_some();
    if !ok {
        skip_or_fail(
            test,
            "an OpenCL ICD (PoCL) with headers and gcc",
            "apt-get install pocl-opencl-icd ocl-icd-opencl-dev",
        );
    }
    ok
}

/// The jacobi_2d driver and a pipeline mapping its nests with block sizes $B.
const JACOBI: &str = "examples/run/jacobi_2d.mlir";
const MAP_B: &str = "builtin.module(func.func(gpu-map-loops{block-sizes=$B},gpu-host-data-placement))";

/// lf-tune on the jacobi driver for OpenCL (gcc, PoCL), `runs` runs per
/// variant, with the other arguments `rest`.
fn jacobi_on_pocl(runs: &str, rest: &[&str]) -> Output {
    let mut args = vec![JACOBI, "--backend", "opencl", "--cc", "gcc", "--runs", runs];
    args.extend_from_slice(rest);
    lf_tune(&args)
}

fn lf_tune(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lf-tune"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("lf-tune runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The table rows (lines starting with `| ` after the separator).
fn table_rows(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("|---"))
        .skip(1)
        .take_while(|l| l.starts_with("| "))
        .map(str::to_string)
        .collect()
}

#[test]
fn profiled_opencl_program_prints_one_line_per_launch_on_pocl() {
    let test = "profiled_opencl_program_prints_one_line_per_launch_on_pocl";
    if !opencl_available(test) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = root().join("test/Target/profile-launches.lfir");
    let mut outputs = Vec::new();
    for profile in [false, true] {
        let c = dir.path().join(format!("p{profile}.c"));
        let exe = dir.path().join(format!("p{profile}"));
        let mut t = Command::new(env!("CARGO_BIN_EXE_lf-translate"));
        t.arg(&input).args(["--target=opencl", "-o"]).arg(&c);
        if profile {
            t.arg("--profile-launches");
        }
        assert!(t.status().unwrap().success());
        let cc = Command::new("gcc")
            .args(["-std=c99", "-O1", "-Wall", "-Werror", "-Wno-unused-function", "-o"])
            .arg(&exe)
            .arg(&c)
            .args(["-lOpenCL", "-lm"])
            .output()
            .unwrap();
        assert!(cc.status.success(), "gcc: {}", text(&cc.stderr));
        let out = Command::new(&exe).output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        outputs.push(out);
    }
    // Same results (base addresses aside); the profiled run names each launch with its time.
    let normalize = lf_tools::tune::reference::normalize;
    assert_eq!(
        normalize(&text(&outputs[0].stdout)),
        normalize(&text(&outputs[1].stdout))
    );
    assert!(text(&outputs[0].stdout).contains("[9,  9,"));
    assert!(!text(&outputs[0].stderr).contains("lf-profile"));
    let lines: Vec<String> = text(&outputs[1].stderr).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (line, kernel) in lines.iter().zip(["f_kernel", "lf_f_kernel_0_f_kernel"]) {
        let prefix = format!("lf-profile: launch {kernel} ms=");
        let ms = line.strip_prefix(&prefix).unwrap_or_else(|| panic!("{line}"));
        assert!(ms.parse::<f64>().is_ok_and(|t| t >= 0.0), "{line}");
        assert_eq!(ms.split_once('.').map(|(_, f)| f.len()), Some(6), "{line}");
    }
}

#[test]
fn block_sizes_of_jacobi_tuned_on_pocl() {
    let test = "block_sizes_of_jacobi_tuned_on_pocl";
    if !opencl_available(test) {
        return;
    }
    let keep = tempfile::tempdir().unwrap();
    let out = jacobi_on_pocl(
        "3",
        &[
            "--pipeline",
            MAP_B,
            "--grid",
            "B=8,8:16,8:32,4",
            "--keep",
            keep.path().to_str().unwrap(),
        ],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.starts_with("| B | kernel ms (median) | kernel ms (min) | speedup | status |\n|---|---|---|---|---|\n"),
        "{stdout}"
    );
    let rows = table_rows(&stdout);
    assert_eq!(rows.len(), 3, "{stdout}");
    for (row, b) in rows.iter().zip(["8,8", "16,8", "32,4"]) {
        assert!(row.starts_with(&format!("| `{b}` | ")), "{row}");
        assert!(row.ends_with(" | ok |"), "{row}");
    }
    assert!(rows[0].contains(" | 1.00x | "), "{}", rows[0]);
    let best = stdout.lines().last().unwrap();
    assert!(best.starts_with("best: B="), "{stdout}");
    // One progress line per variant, in order, as they go.
    let progress: Vec<&str> = stderr.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(progress.len(), 3, "{stderr}");
    for (i, (l, b)) in progress.iter().zip(["8,8", "16,8", "32,4"]).enumerate() {
        assert!(
            l.starts_with(&format!("[{}/3] B={b}: built, 3 runs, median ", i + 1)) && l.ends_with(" ms"),
            "{l}"
        );
    }
    // The pass remarks of each variant are shown.
    assert!(stderr.contains("remark: mapped to a gpu.launch"), "{stderr}");
    // --keep: the profiled source and executable of each variant.
    for i in 1..=3 {
        let c = std::fs::read_to_string(keep.path().join(format!("variant-{i}.c"))).unwrap();
        assert!(c.contains("lf-profile: launch "));
        assert!(keep.path().join(format!("variant-{i}")).is_file());
    }
}

#[test]
fn a_variant_that_changes_the_results_is_wrong_and_never_best() {
    let test = "a_variant_that_changes_the_results_is_wrong_and_never_best";
    if !opencl_available(test) {
        return;
    }
    // $P selects a pass: cse keeps the results, test-break-semantics turns
    // the first addition into a subtraction. The first variant is the reference.
    let out = jacobi_on_pocl(
        "2",
        &[
            "--reference",
            "first",
            "--pipeline",
            "builtin.module(func.func($P,gpu-map-loops{block-sizes=$B},gpu-host-data-placement))",
            "--grid",
            "P=cse:test-break-semantics",
            "--grid",
            "B=8,8:16,8",
        ],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let rows = table_rows(&stdout);
    assert_eq!(rows.len(), 4, "{stdout}");
    assert!(rows[0].starts_with("| `cse` | `8,8` |") && rows[0].ends_with(" | ok |"));
    assert!(rows[1].starts_with("| `cse` | `16,8` |") && rows[1].ends_with(" | ok |"));
    for r in &rows[2..] {
        assert!(r.starts_with("| `test-break-semantics` |"), "{r}");
        assert!(r.contains(" | WRONG: line "), "{r}");
    }
    let best = stdout.lines().last().unwrap();
    assert!(best.starts_with("best: P=cse B="), "{best}");
    assert!(stderr.contains("[3/4] P=test-break-semantics B=8,8: built, 2 runs, median "));
    assert!(stderr.contains(", WRONG: line "), "{stderr}");

    // Against a reference file no variant prints: all WRONG, no best, status 1.
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("expected.txt");
    std::fs::write(&reference, "something else\n").unwrap();
    let out = jacobi_on_pocl(
        "1",
        &[
            "--reference-file",
            reference.to_str().unwrap(),
            "--pipeline",
            MAP_B,
            "--grid",
            "B=8,8",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(table_rows(&stdout)[0].contains(" | WRONG: line 1: "), "{stdout}");
    assert!(stdout.contains("best: none"), "{stdout}");
}

#[test]
fn a_variant_the_emitter_refuses_fails_and_the_others_run() {
    let test = "a_variant_the_emitter_refuses_fails_and_the_others_run";
    if !opencl_available(test) {
        return;
    }
    // 512x2 threads break the RV770 work-group limit of 256.
    let out = jacobi_on_pocl("1", &["--pipeline", MAP_B, "--grid", "B=512,2:8,8"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let rows = table_rows(&stdout);
    assert!(
        rows[0].starts_with("| `512,2` | - | - | - | failed: translation failed: RV770 rule"),
        "{stdout}"
    );
    assert!(rows[1].ends_with(" | ok |"), "{stdout}");
    let best = stdout.lines().last().unwrap();
    assert!(best.starts_with("best: B=8,8 (median "), "{best}");
    assert!(best.ends_with("; the first variant, B=512,2, has no time)"), "{best}");
    assert!(stderr.contains("[1/2] B=512,2: failed: translation failed"), "{stderr}");
}

/// A bad grid or pipeline: exit status 1, a diagnostic, nothing on stdout,
/// before any compiler is looked for (`--cc` names none that exists).
#[test]
fn bad_grids_and_pipelines_fail_with_status_1() {
    let cases: [(&[&str], &str); 6] = [
        (&["--grid", "B=8,8::32,4"], "<--grid>:1:7: error: --grid B: empty value"),
        (
            &["--grid", "B"],
            "<--grid>:1:1: error: --grid 'B': expected NAME=VALUE1:VALUE2:...",
        ),
        (
            &["--grid", "B=1", "--grid", "B=2"],
            "<--grid>:2:1: error: --grid: variable 'B' is given twice",
        ),
        (
            &["--grid", "C=1"],
            "error: the pipeline uses $B, which no --grid flag defines",
        ),
        (
            &["--grid", "B=8,8", "--grid", "F=1:2"],
            "<--grid>:2:1: error: --grid variable 'F' is not used in the pipeline",
        ),
        (
            &["--grid", "B=8,8:x"],
            "error: bad value for option 'block-sizes' of pass 'gpu-map-loops'",
        ),
    ];
    for (grid, message) in cases {
        let mut args = vec![
            JACOBI,
            "--backend",
            "opencl",
            "--cc",
            "/nonexistent/cc",
            "--pipeline",
            MAP_B,
        ];
        args.extend(grid);
        let out = lf_tune(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{grid:?}: {stderr}");
        assert!(stderr.contains(message), "{grid:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{grid:?}");
    }
    let out = lf_tune(&[
        JACOBI,
        "--backend",
        "opencl",
        "--pipeline",
        "builtin.module(func.func(gpu-map-loopz{block-sizes=$B}))",
        "--grid",
        "B=1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("unknown pass 'gpu-map-loopz'; did you mean 'gpu-map-loops'?"));
    // A grid and pipeline that are fine, and a compiler that is missing.
    let out = lf_tune(&[
        JACOBI,
        "--backend",
        "opencl",
        "--cc",
        "/nonexistent/cc",
        "--pipeline",
        MAP_B,
        "--grid",
        "B=8,8",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("lf-tune: error: the C compiler '/nonexistent/cc' was not found"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn printed_numbers_may_differ_within_the_tolerance() {
    let test = "printed_numbers_may_differ_within_the_tolerance";
    if !opencl_available(test) {
        return;
    }
    // lf-run's output with one number moved by 1e-4 relative.
    let lf_run = Command::new(env!("CARGO_BIN_EXE_lf-run"))
        .current_dir(root())
        .arg(JACOBI)
        .output()
        .unwrap();
    assert!(lf_run.status.success());
    let expected = text(&lf_run.stdout);
    assert!(expected.contains(" 1.252, "), "{expected}");
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("expected.txt");
    std::fs::write(&reference, expected.replacen(" 1.252, ", " 1.2521, ", 1)).unwrap();
    let tune = |tol: &[&str]| {
        let mut args = vec![
            JACOBI,
            "--backend",
            "opencl",
            "--cc",
            "gcc",
            "--runs",
            "1",
            "--reference-file",
            reference.to_str().unwrap(),
            "--pipeline",
            MAP_B,
            "--grid",
            "B=8,8",
        ];
        args.extend(tol);
        lf_tune(&args)
    };
    let exact = tune(&[]);
    assert_eq!(exact.status.code(), Some(1));
    assert!(
        text(&exact.stdout).contains(" | WRONG: line 3: "),
        "{}",
        text(&exact.stdout)
    );
    let close = tune(&["--rtol", "1e-3"]);
    assert!(close.status.success(), "{}", text(&close.stdout));
    assert!(table_rows(&text(&close.stdout))[0].ends_with(" | ok |"));
    let far = tune(&["--atol", "1e-5"]);
    assert_eq!(far.status.code(), Some(1));
    let bad = tune(&["--rtol=-1"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        text(&bad.stderr).contains("is not a tolerance"),
        "{}",
        text(&bad.stderr)
    );
}
