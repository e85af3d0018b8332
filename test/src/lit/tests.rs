//! The runner on a scratch suite: passing, failing, crashing and hanging tests, `not`,
//! pipes, substitutions, tools, `REQUIRES:`/`UNSUPPORTED:`, and the report.

use super::*;

/// Writes `files` (path, content) under a fresh directory `<tmp>/suite`.
fn suite(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("suite");
    for (name, text) in files {
        let p = root.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    (dir, root)
}

fn run_suite(config: &Config) -> (Vec<TestResult>, String) {
    let tests = discover::discover(&config.root, &config.extension).unwrap();
    let mut out = Vec::new();
    let results = run_tests(config, &tests, &mut out).unwrap();
    (results, String::from_utf8(out).unwrap())
}

fn outcome<'a>(results: &'a [TestResult], name: &str) -> &'a Outcome {
    &results
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no test {name}"))
        .outcome
}

#[track_caller]
fn assert_fails(results: &[TestResult], name: &str, message: &str) -> Failure {
    match outcome(results, name) {
        Outcome::Fail(f) => {
            assert!(f.message.contains(message), "{name}: {f:?}");
            f.clone()
        }
        other => panic!("{name} should fail, got {other:?}"),
    }
}

const FILES: &[(&str, &str)] = &[
    (
        "pass.lfir",
        "// RUN: echo hello | grep -q hello\n// RUN: grep -q 'unique-marker' %s\n// unique-marker\n",
    ),
    (
        "fail.lfir",
        "// RUN: true\n// RUN: echo out; echo err >&2; exit 3\n// RUN: echo never\n",
    ),
    (
        "not.lfir",
        "// RUN: not false\n// RUN: not sh -c 'exit 2'\n// RUN: not not true\n",
    ),
    ("not_true.lfir", "// RUN: not true\n"),
    ("not_crash.lfir", "// RUN: not sh -c 'kill -SEGV $$'\n"),
    ("not_panic.lfir", "// RUN: not sh -c 'exit 101'\n"),
    (
        "crash_flag.lfir",
        "// RUN: not --crash sh -c 'kill -ABRT $$'\n// RUN: not not --crash sh -c 'exit 1'\n",
    ),
    ("crash.lfir", "// RUN: sh -c 'kill -SEGV $$'\n"),
    ("hang.lfir", "// RUN: (sleep 30 &); sleep 30\n"),
    ("pipefail.lfir", "// RUN: false | cat\n"),
    ("requires.lfir", "// REQUIRES: mlir-opt\n// RUN: mlir-opt --version\n"),
    ("requires_ok.lfir", "// REQUIRES: linux && !windows\n// RUN: true\n"),
    ("unsupported.lfir", "// UNSUPPORTED: linux\n// RUN: false\n"),
    ("tool.lfir", "// RUN: mytool hi there | grep -q 'hi there'\n"),
    (
        "dir/subst.lfir",
        "// RUN: echo data > %t && test -f %t && test -d %T && test \"%S\" = \"$(pwd)\"\n\
         // RUN: test \"$(basename %s)\" = subst.lfir && echo 100%% | grep -q '^100%$'\n\
         // RUN: echo a \\\n\
         // RUN:   b | grep -q '^a b$'\n",
    ),
    ("no_run.lfir", "// CHECK: nothing to run\n"),
    ("bad.lfir", "// RUN: echo \\\n"),
    ("Inputs/helper.lfir", "// RUN: false\n"),
    ("notes.txt", "// RUN: false\n"),
];

fn config(root: &Path) -> Config {
    let mut c = Config::new(root);
    c.timeout = Duration::from_secs(2);
    c.features.insert("linux".into());
    c.tools.insert("mytool".into(), PathBuf::from("/bin/echo"));
    c
}

#[test]
fn runs_a_suite() {
    let (_dir, root) = suite(FILES);
    let start = Instant::now();
    let (results, report) = run_suite(&config(&root));
    let names: Vec<&str> = results.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "suite/bad.lfir",
            "suite/crash.lfir",
            "suite/crash_flag.lfir",
            "suite/dir/subst.lfir",
            "suite/fail.lfir",
            "suite/hang.lfir",
            "suite/no_run.lfir",
            "suite/not.lfir",
            "suite/not_crash.lfir",
            "suite/not_panic.lfir",
            "suite/not_true.lfir",
            "suite/pass.lfir",
            "suite/pipefail.lfir",
            "suite/requires.lfir",
            "suite/requires_ok.lfir",
            "suite/tool.lfir",
            "suite/unsupported.lfir",
        ]
    );
    for pass in ["pass", "not", "crash_flag", "dir/subst", "tool", "requires_ok"] {
        assert_eq!(
            outcome(&results, &format!("suite/{pass}.lfir")),
            &Outcome::Pass,
            "{pass}:\n{report}"
        );
    }
    let f = assert_fails(&results, "suite/fail.lfir", "Command failed: exit code 3");
    let run = f.command.unwrap();
    assert_eq!((run.line, run.command.as_str()), (2, "echo out; echo err >&2; exit 3"));
    assert_eq!((f.stdout.as_str(), f.stderr.as_str()), ("out\n", "err\n"));
    assert_fails(&results, "suite/not_true.lfir", "exit code 1");
    assert_fails(&results, "suite/not_crash.lfir", "exit code 1");
    assert_fails(&results, "suite/not_panic.lfir", "exit code 1");
    assert_fails(&results, "suite/crash.lfir", "crashed with SIGSEGV (signal 11)");
    assert_fails(&results, "suite/hang.lfir", "timed out after 2 s");
    assert_fails(&results, "suite/pipefail.lfir", "exit code 1");
    assert_fails(&results, "suite/no_run.lfir", "no RUN: line");
    assert_fails(&results, "suite/bad.lfir", "invalid lit directives");
    assert_eq!(
        outcome(&results, "suite/requires.lfir"),
        &Outcome::Skip("mlir-opt not installed".into())
    );
    assert_eq!(
        outcome(&results, "suite/unsupported.lfir"),
        &Outcome::Skip("UNSUPPORTED: linux".into())
    );
    // The hanging test (and its background child) were killed at the deadline, and the
    // tests ran in parallel.
    assert!(start.elapsed() < Duration::from_secs(20), "{:?}", start.elapsed());

    // The report: results in path order, failure details, loud skips.
    assert!(report.contains("PASS: suite/pass.lfir ("), "{report}");
    assert!(
        report.contains("SKIPPED (mlir-opt not installed): suite/requires.lfir\n"),
        "{report}"
    );
    let fail_block = &report[report.find("FAIL: suite/fail.lfir").unwrap()..];
    assert!(fail_block.contains(
        "Command failed: exit code 3\nRUN: at line 2: echo out; echo err >&2; exit 3\n\n\
         Command output (stdout):\n--\nout\n--\n\nCommand output (stderr):\n--\nerr\n--\n"
    ));
    let positions: Vec<usize> = names.iter().map(|n| report.find(&format!(": {n}")).unwrap()).collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "report out of order:\n{report}"
    );
    let summary = report::format_summary(&results);
    assert!(summary.ends_with("\nlit: 6 passed, 9 failed, 2 skipped\n"), "{summary}");
    assert!(summary.contains("Failed tests (9):\n  suite/bad.lfir\n"));
}

#[test]
fn substitutes_absolute_paths_in_failure_reports() {
    let (_dir, root) = suite(&[("t.lfir", "// RUN: tr a-z A-Z < %s | grep -q lower\n")]);
    let (results, _) = run_suite(&config(&root));
    let f = assert_fails(&results, "suite/t.lfir", "exit code 1");
    let abs = std::path::absolute(root.join("t.lfir")).unwrap();
    assert_eq!(
        f.command.unwrap().command,
        format!("tr a-z A-Z < {} | grep -q lower", abs.display())
    );
}

#[test]
fn required_features_can_be_mandatory() {
    let (_dir, root) = suite(&[("r.lfir", "// REQUIRES: mlir-opt\n// RUN: true\n")]);
    let mut c = config(&root);
    c.require_features = true;
    let (results, _) = run_suite(&c);
    assert_fails(
        &results,
        "suite/r.lfir",
        "mlir-opt not installed, and LF_REQUIRE_TOOLS=1",
    );
    c.features.insert("mlir-opt".into());
    let (results, _) = run_suite(&c);
    assert_eq!(results[0].outcome, Outcome::Pass);
}

#[test]
fn selects_tests_by_filters() {
    let args = cli::DriverArgs {
        filters: vec!["affine".into(), "scf".into()],
        ..Default::default()
    };
    assert!(selected(&args, None, "test/affine/a.lfir", "affine/a.lfir"));
    assert!(!selected(&args, None, "test/arith/a.lfir", "arith/a.lfir"));
    assert!(!selected(&args, Some("loops"), "test/affine/a.lfir", "affine/a.lfir"));
    assert!(selected(&args, Some("loops"), "test/scf/loops.lfir", "scf/loops.lfir"));
    let skip = cli::DriverArgs {
        skip: vec!["slow".into()],
        ..Default::default()
    };
    assert!(!selected(&skip, None, "test/slow.lfir", "slow.lfir"));
    let exact = cli::DriverArgs {
        filters: vec!["a.lfir".into()],
        exact: true,
        ..Default::default()
    };
    assert!(selected(&exact, None, "test/a.lfir", "a.lfir"));
    assert!(!selected(&exact, None, "test/ba.lfir", "ba.lfir"));
}

#[test]
fn finds_programs_on_path() {
    assert!(find_program(&["no-such-program-xyz", "sh"]).is_some_and(|p| p.ends_with("sh")));
    assert!(find_program(&["no-such-program-xyz"]).is_none());
}
