//! Robustness of `lf-opt` on hostile input: a few thousand mutated inputs, deep nesting,
//! huge numbers, long identifiers and invalid UTF-8, each run through the built binary with
//! `--allow-unregistered-dialect` under a time limit.
//!
//! For every input, lf-opt must either
//! - exit 0 with a non-empty print, and print with locations (`--print-debuginfo`) a text that
//!   parses back to the same text (see [`check_reparse`]), or
//! - exit 1 with a diagnostic on stderr that has an `error:` and a `:LINE:COL` position, and,
//!   when run with `-o OUT`, leave no `OUT` behind;
//!
//! never crash (a signal), hang (killed after [`TIMEOUT`]), report an internal error (exit 2)
//! or exit with any other code.
//!
//! The mutations start from every `test/**/*.lfir` file plus the [`SAMPLES`] below, and come
//! from a deterministic generator: `LF_ROBUSTNESS_SEED=N` (decimal or 0x-hex) picks another
//! seed and `LF_ROBUSTNESS_CASES=N` another number of cases. A failure prints the seed, the
//! case, its mutations and the input, and saves each failing input under
//! `target/tmp/robustness-failures/` with the command line that reproduces it.
//!
//! `cargo test -p lf-tools --test robustness`

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

const LF_OPT: &str = env!("CARGO_BIN_EXE_lf-opt");

/// How long one run of lf-opt may take before it counts as a hang. Wall
/// time, on a debug build, while the other tests of this file run beside it
/// (the 100k-block case needs 2.4 s of CPU and took over 10 s of wall time
/// on two cores shared with other builds): generous, since a hang or a
/// quadratic case (100k blocks printed in about 50 s before the fix) is
/// far above it.
const TIMEOUT: Duration = Duration::from_secs(30);

/// The seed of the mutation generator unless `LF_ROBUSTNESS_SEED` says otherwise.
const DEFAULT_SEED: u64 = 0x1f0b_5eed_2026_0001;

/// How many mutated inputs [`mutated_inputs_never_crash_or_hang`] runs unless
/// `LF_ROBUSTNESS_CASES` says otherwise.
const DEFAULT_CASES: usize = 5000;

/// Nesting depth of the deep-nesting inputs.
const DEEP: usize = 10_000;

/// Length of the very long identifiers.
const LONG: usize = 100_000;

/// Valid inputs that the mutations start from, besides the test files: regions, blocks,
/// successors, block arguments, multiple results, attributes of every kind, types, aliases,
/// properties and locations.
const SAMPLES: &[(&str, &str)] = &[
    (
        "types",
        r#""t.types"() {a = i1, b = si8, c = ui64, d = index, e = f16, f = bf16, g = f64, h = none, i = complex<f32>, j = tuple<>, k = tuple<i32, tuple<f32, index>>, l = vector<4x[8]xf32>, m = tensor<*xf32>, n = tensor<?x3xi8>, o = memref<2x?xf32, strided<[?, 1], offset: ?>>, p = memref<*xf32, 1>, q = memref<4xf32, affine_map<(d0) -> (d0 + 1)>>, r = (i32, f32) -> (), s = () -> (i1, i2), t = !t.opaque<"x">, u = !t.ty<[1, {a}]>, x = vector<f32>, y = tensor<2x?x4xcomplex<f64>>, z = memref<4x4xf32, 3>} : () -> ()
"#,
    ),
    (
        "attributes",
        r#"#alias = {inner = [1 : i8, 2.5 : f64, "s"]}
!alias = memref<4x4xf32>
"t.attrs"() {
  ints = [0, -1, 127 : i8, 255 : ui8, -128 : si8, 0x7f : i32, 18446744073709551615 : ui64, 170141183460469231731687303715884105727 : i128],
  floats = [0.0, -0.0, 1.0e10 : f32, 0x7FC00000 : f32, 1.5 : bf16, 3.25 : f16, 2.0 : f64, 0x7F800000 : f32],
  strs = ["", "a\"b", "\t\n\\", "\00\7F", "unicode é"],
  dense = dense<1.0> : tensor<2x2xf32>,
  dense2 = dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>,
  dense3 = dense<"0x01020304"> : tensor<4xi8>,
  darr = array<i32: 1, 2, 3>,
  darr2 = array<f64>,
  bools = array<i1: true, false>,
  t = !alias,
  a = #alias,
  sym = @a::@b::@"c d",
  unit,
  "quoted key" = 1,
  dialect_attr = #t.attr<"opaque" : i32>,
  typed = 5 : index,
  empty_dict = {},
  empty_arr = [],
  map = affine_map<(d0, d1)[s0] -> (d0 floordiv 4, d1 mod s0, d0 ceildiv 2, -d1 + 3)>,
  map0 = affine_map<() -> ()>,
  set = affine_set<(d0)[s0] : (d0 - s0 == 0, d0 >= 0)>,
  layout = strided<[4, 1], offset: 2>
} : () -> ()
"#,
    ),
    (
        "cfg",
        r#"module {
  "t.func"() <{sym_name = "f", function_type = (i32) -> i32}> ({
  ^entry(%a: i32, %b: i1):
    "t.cond_br"(%b, %a)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
  ^bb1(%x: i32):
    "t.br"()[^bb3] : () -> ()
  ^bb2:
    "t.br"(%a)[^bb1] : (i32) -> ()
  ^bb3:
    %r:3 = "t.multi"() : () -> (i32, f32, index)
    "t.return"(%r#2, %r#0) : (index, i32) -> ()
  }, {
  }, {
    "t.inner"() : () -> ()
  }) : () -> ()
}
"#,
    ),
    (
        "locations",
        r#"#loc0 = loc("file.c":1:2)
module @named attributes {t.attr} {
  %0 = "t.a"() : () -> i32 loc(#loc0)
  "t.b"(%0) : (i32) -> () loc(unknown)
  "t.c"() : () -> () loc(callsite("a.c":1:1 at "b.c":2:2))
  "t.d"() : () -> () loc(fused["a.c":1:1, "b.c":2:2])
  "t.e"() : () -> () loc(fused<"meta">["a.c":1:1])
  "t.f"() : () -> () loc("name"("x.c":3:4))
  "t.g"() : () -> () loc("justname")
  "t.h"() ({
  ^bb0(%arg: i32 loc("arg.c":5:6)):
    "t.yield"(%arg) : (i32) -> () loc(#loc1)
  }) : () -> ()
} loc(unknown)
#loc1 = loc("late.c":9:9)
"#,
    ),
    (
        "nested",
        r#""t.outer"() ({
  %c = "t.c"() : () -> i64
  "t.mid"() ({
    ^bb0(%i: index):
      "t.inner"(%c, %i) ({
        "t.leaf"(%c) : (i64) -> ()
      }) : (i64, index) -> ()
  }) : () -> ()
}) : () -> ()
"t.isolated"() ({
  ^bb0:
    %x = "t.x"() : () -> f32
}) {t.isolated_from_above} : () -> ()
"#,
    ),
    (
        "modules",
        r#"module @outer {
  module @inner attributes {t.a = 1} {
    "t.y"() : () -> ()
  }
  module {
    %0:2 = "t.x"() : () -> (i32, i32)
    "t.z"(%0#1, %0#0) : (i32, i32) -> ()
  }
}
"#,
    ),
    ("empty", ""),
];

// ---------------------------------------------------------------------------------------
// Running lf-opt
// ---------------------------------------------------------------------------------------

/// The result of one run of a program.
struct Run {
    /// `None` if it was killed after [`TIMEOUT`].
    status: Option<ExitStatus>,
    stdout: Vec<u8>,
    stderr: String,
}

/// Runs `cmd` with stdout and stderr sent to files in `scratch` (so that a large output can
/// never block the child), killing it after [`TIMEOUT`].
fn run_with_timeout(mut cmd: Command, scratch: &Path, tag: &str) -> Run {
    let out_path = scratch.join(format!("{tag}.stdout"));
    let err_path = scratch.join(format!("{tag}.stderr"));
    let out = std::fs::File::create(&out_path).expect("create stdout file");
    let err = std::fs::File::create(&err_path).expect("create stderr file");
    cmd.stdout(Stdio::from(out)).stderr(Stdio::from(err));
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot run {LF_OPT}: {e}"));
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait for lf-opt") {
            break Some(st);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    };
    let stdout = std::fs::read(&out_path).unwrap_or_default();
    let stderr = String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned();
    let _ = std::fs::remove_file(&out_path);
    let _ = std::fs::remove_file(&err_path);
    Run { status, stdout, stderr }
}

fn lf_opt(args: &[&str]) -> Command {
    let mut cmd = Command::new(LF_OPT);
    cmd.arg("--allow-unregistered-dialect").args(args).stdin(Stdio::null());
    cmd
}

/// mlir-opt-22 or mlir-opt, when installed (only consulted to tell lf bugs from behaviour
/// that copies MLIR's).
fn mlir_opt() -> Option<&'static Path> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let path = std::env::var_os("PATH")?;
            ["mlir-opt-22", "mlir-opt"]
                .iter()
                .find_map(|name| std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file()))
        })
        .as_deref()
}

// ---------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------

/// One input to try.
#[derive(Clone)]
struct Case {
    /// Where it comes from and how it was mutated.
    label: String,
    input: Vec<u8>,
    /// Feed it on standard input instead of naming a file.
    stdin: bool,
    /// Pass `-o OUT`.
    output_file: bool,
}

impl Case {
    fn new(label: impl Into<String>, input: impl Into<Vec<u8>>) -> Case {
        Case {
            label: label.into(),
            input: input.into(),
            stdin: false,
            output_file: false,
        }
    }
}

/// Does `stderr` have a line `...:LINE:COL: error: ...`? Returns the first such position
/// (the file part, line, column).
fn positioned_error(stderr: &str) -> Option<(String, u64, u64)> {
    stderr.lines().find_map(|line| {
        let at = line.find(": error:")?;
        let mut parts = line[..at].rsplitn(3, ':');
        let col = parts.next()?.parse().ok()?;
        let row = parts.next()?.parse().ok()?;
        let file = parts.next()?.to_string();
        Some((file, row, col))
    })
}

/// Runs one case and checks every property; `Err` says what went wrong.
fn check_case(case: &Case, scratch: &Path, id: usize) -> Result<(), String> {
    let input_path = scratch.join(format!("case{id}.mlir"));
    let output_path = scratch.join(format!("case{id}.out.mlir"));
    std::fs::write(&input_path, &case.input).expect("write input");
    let _ = std::fs::remove_file(&output_path);
    let input_str = input_path.to_str().expect("UTF-8 temp path");
    let output_str = output_path.to_str().expect("UTF-8 temp path");
    let mut args: Vec<&str> = Vec::new();
    if !case.stdin {
        args.push(input_str);
    }
    if case.output_file {
        args.extend(["-o", output_str]);
    }
    let mut cmd = lf_opt(&args);
    if case.stdin {
        cmd.stdin(std::fs::File::open(&input_path).expect("open input"));
    }
    let run = run_with_timeout(cmd, scratch, &format!("case{id}"));
    let result = check_run(case, &run, &input_path, &output_path).and_then(|accepted| {
        if accepted {
            check_reparse(&input_path, scratch, id)
        } else {
            Ok(())
        }
    });
    let _ = std::fs::remove_file(&input_path);
    let _ = std::fs::remove_file(&output_path);
    result
}

/// Checks the exit status and outputs of the first run; `Ok(true)` when the input was
/// accepted.
fn check_run(case: &Case, run: &Run, input_path: &Path, output_path: &Path) -> Result<bool, String> {
    let Some(status) = run.status else {
        return Err(format!("hang: lf-opt was killed after {TIMEOUT:?}"));
    };
    let stderr_excerpt = excerpt(run.stderr.as_bytes(), 1500);
    match status.code() {
        Some(0) => {
            let printed = if case.output_file {
                std::fs::read(output_path).map_err(|e| format!("exit 0 but no output file: {e}"))?
            } else {
                run.stdout.clone()
            };
            if printed.is_empty() {
                return Err("exit 0 with an empty output".into());
            }
            Ok(true)
        }
        Some(1) => {
            let Some((file, line, col)) = positioned_error(&run.stderr) else {
                // An op with an explicit location other than file:line:col (`loc(unknown)`,
                // `loc("name")`) has its verifier errors reported there, as in mlir-opt:
                // `<unknown>:0: error: ...`.
                if run.stderr.contains(": error:") && case.input.windows(4).any(|w| w == b"loc(") {
                    return Ok(false);
                }
                return Err(format!(
                    "exit 1 without an `error:` with a :LINE:COL position; stderr:\n{stderr_excerpt}"
                ));
            };
            let name = if case.stdin {
                "<stdin>".to_string()
            } else {
                input_path.display().to_string()
            };
            if file == name {
                let lines = case.input.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
                if line == 0 || line > lines || col == 0 {
                    return Err(format!(
                        "the error position {line}:{col} is outside the input ({lines} lines); stderr:\n{stderr_excerpt}"
                    ));
                }
            }
            if case.output_file && output_path.exists() {
                return Err("exit 1 but the output file was written".into());
            }
            Ok(false)
        }
        Some(2) => Err(format!("internal error (exit 2); stderr:\n{stderr_excerpt}")),
        Some(code) => Err(format!("unexpected exit code {code}; stderr:\n{stderr_excerpt}")),
        None => Err(format!(
            "crash: {}; stderr:\n{stderr_excerpt}",
            describe_signal(&status)
        )),
    }
}

#[cfg(unix)]
fn describe_signal(status: &ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    format!("killed by signal {}", status.signal().unwrap_or(-1))
}

#[cfg(not(unix))]
fn describe_signal(status: &ExitStatus) -> String {
    format!("no exit code ({status})")
}

/// An accepted input, printed with locations, must parse back to the same print (so that
/// the printer never writes what the parser cannot read, locations included). Where
/// mlir-opt is installed and has the same defect on this input, the difference is MLIR's
/// own behaviour, copied, and is not counted.
fn check_reparse(input_path: &Path, scratch: &Path, id: usize) -> Result<(), String> {
    let input = input_path.to_str().expect("UTF-8 path");
    let first = run_with_timeout(lf_opt(&["--print-debuginfo", input]), scratch, &format!("case{id}-dbg"));
    match first.status.map(|s| s.code()) {
        Some(Some(0)) => {}
        None => return Err("hang with --print-debuginfo".into()),
        _ => {
            return Err(format!(
                "accepted without --print-debuginfo but not with it; stderr:\n{}",
                excerpt(first.stderr.as_bytes(), 1500)
            ))
        }
    }
    let printed_path = scratch.join(format!("case{id}.printed.mlir"));
    std::fs::write(&printed_path, &first.stdout).expect("write print");
    let printed = printed_path.to_str().expect("UTF-8 path");
    let second = run_with_timeout(
        lf_opt(&["--print-debuginfo", printed]),
        scratch,
        &format!("case{id}-re"),
    );
    let _ = std::fs::remove_file(&printed_path);
    let problem = match second.status.map(|s| s.code()) {
        None => "hang when re-parsing the print".to_string(),
        Some(Some(0)) if second.stdout == first.stdout => return Ok(()),
        Some(Some(0)) => format!(
            "print(parse(print(x))) != print(x):\n{}",
            first_difference(&first.stdout, &second.stdout)
        ),
        Some(_) => format!(
            "the print does not parse back:\n{}",
            excerpt(second.stderr.as_bytes(), 1500)
        ),
    };
    if mlir_has_same_defect(input_path, scratch, id) {
        return Ok(());
    }
    Err(format!(
        "{problem}\n--- lf-opt --print-debuginfo printed:\n{}",
        excerpt(&first.stdout, 2000)
    ))
}

/// Does mlir-opt fail to round-trip this input too (it prints, with locations, something it
/// cannot read back or reads back differently)? `false` where mlir-opt is not installed or
/// rejects the input (then lf should have rejected it as well).
fn mlir_has_same_defect(input_path: &Path, scratch: &Path, id: usize) -> bool {
    let Some(mlir) = mlir_opt() else { return false };
    let run = |path: &Path, tag: &str| {
        let mut cmd = Command::new(mlir);
        cmd.args(["--allow-unregistered-dialect", "--mlir-print-debuginfo"])
            .arg(path)
            .stdin(Stdio::null());
        run_with_timeout(cmd, scratch, &format!("case{id}-{tag}"))
    };
    let first = run(input_path, "mlir1");
    if first.status.and_then(|s| s.code()) != Some(0) {
        return false;
    }
    let printed = scratch.join(format!("case{id}.mlir-printed.mlir"));
    std::fs::write(&printed, &first.stdout).expect("write mlir-opt print");
    let second = run(&printed, "mlir2");
    let _ = std::fs::remove_file(&printed);
    second.status.and_then(|s| s.code()) != Some(0) || second.stdout != first.stdout
}

/// An lf bug that this suite found, reported and not fixed yet.
struct KnownBug {
    /// Short name; the `#[ignore]`d test `known_bug_<id>` reproduces it.
    id: &'static str,
    what: &'static str,
    /// Does a failure (the case and the failure message) come from this bug?
    matches: fn(&Case, &str) -> bool,
}

/// The lf bugs that this suite found. A failure that matches one is listed (`KNOWN LF BUG`
/// on stderr) instead of failing the test; the `#[ignore]`d `known_bug_*` tests reproduce
/// each. Once a bug is fixed, its test passes: delete its entry and its `#[ignore]`.
const KNOWN_BUGS: &[KnownBug] = &[];

// ---------------------------------------------------------------------------------------
// Running many cases
// ---------------------------------------------------------------------------------------

/// Runs the cases on a few threads; panics with a report of every failure.
/// Failures that match one of [`KNOWN_BUGS`] are listed but do not fail the test unless
/// `tolerate_known` is false.
fn run_cases(what: &str, cases: &[Case], seed: Option<u64>, tolerate_known: bool) {
    let scratch = tempfile::tempdir().expect("temp dir");
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 4);
    let next = AtomicUsize::new(0);
    let failures: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
    let known: Mutex<Vec<(usize, &'static str)>> = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                if let Err(msg) = check_case(case, scratch.path(), i) {
                    match KNOWN_BUGS.iter().find(|b| (b.matches)(case, &msg)) {
                        Some(bug) if tolerate_known => known.lock().unwrap().push((i, bug.id)),
                        _ => failures.lock().unwrap().push((i, msg)),
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort_by_key(|f| f.0);
    eprintln!(
        "{what}: {} cases in {:.1?} on {workers} threads, {} failed{}",
        cases.len(),
        start.elapsed(),
        failures.len(),
        seed.map(|s| format!(" (seed {s:#x})")).unwrap_or_default()
    );
    let mut known = known.into_inner().unwrap();
    known.sort();
    for bug in KNOWN_BUGS {
        let hits: Vec<String> = known
            .iter()
            .filter(|k| k.1 == bug.id)
            .map(|k| k.0.to_string())
            .collect();
        if !hits.is_empty() {
            eprintln!(
                "KNOWN LF BUG {} (not counted as a failure; test known_bug_{}): {} cases: {}\n  {}",
                bug.id,
                bug.id,
                hits.len(),
                hits.join(", "),
                bug.what
            );
        }
    }
    if failures.is_empty() {
        return;
    }
    let save_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("robustness-failures");
    let _ = std::fs::create_dir_all(&save_dir);
    let mut report = format!("{what}: {} of {} cases failed", failures.len(), cases.len());
    if let Some(seed) = seed {
        report += &format!(" (seed {seed:#x}: rerun with LF_ROBUSTNESS_SEED={seed:#x})");
    }
    report.push('\n');
    const SHOWN: usize = 15;
    for (i, msg) in failures.iter().take(SHOWN) {
        let case = &cases[*i];
        let stem = match seed {
            Some(seed) => format!("{what}-{seed:x}-case{i}"),
            None => format!("{what}-case{i}"),
        };
        let saved = save_dir.join(format!("{stem}.mlir"));
        let _ = std::fs::write(&saved, &case.input);
        let mut repro = format!("{LF_OPT} --allow-unregistered-dialect");
        if case.stdin {
            repro += &format!(" < {}", saved.display());
        } else {
            repro += &format!(" {}", saved.display());
        }
        if case.output_file {
            repro += " -o OUT";
        }
        report += &format!(
            "\n=== case {i}: {}\n{msg}\n--- input ({} bytes): {}\n--- saved as {}\n--- reproduce: {repro}\n",
            case.label,
            case.input.len(),
            excerpt(&case.input, 800),
            saved.display()
        );
    }
    if failures.len() > SHOWN {
        report += &format!("\n... and {} more failing cases\n", failures.len() - SHOWN);
    }
    panic!("{report}");
}

/// A printable excerpt of `bytes`: lossy UTF-8, escaped, the middle of long inputs left out.
fn excerpt(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let chars: Vec<char> = text.chars().collect();
    let shown: String = if chars.len() > max {
        let head: String = chars[..max * 3 / 4].iter().collect();
        let tail: String = chars[chars.len() - max / 4..].iter().collect();
        format!("{head}[... {} chars left out ...]{tail}", chars.len() - max)
    } else {
        text.into_owned()
    };
    format!("{shown:?}")
}

/// The first differing line of two prints.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    for i in 0..la.len().max(lb.len()) {
        let (x, y) = (
            la.get(i).copied().unwrap_or("<end>"),
            lb.get(i).copied().unwrap_or("<end>"),
        );
        if x != y {
            return format!(
                "line {}:\n  first:  {}\n  second: {}",
                i + 1,
                excerpt(x.as_bytes(), 300),
                excerpt(y.as_bytes(), 300)
            );
        }
    }
    "the prints differ only in line endings".into()
}

// ---------------------------------------------------------------------------------------
// The corpus and the mutations
// ---------------------------------------------------------------------------------------

/// Every `*.lfir` under `test/` (at run time, so new test files take part at once).
fn test_files() -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
                continue;
            }
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "lfir") {
                if let Ok(bytes) = std::fs::read(&path) {
                    let name = path.strip_prefix(root).unwrap_or(&path).display().to_string();
                    out.push((name, bytes));
                }
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut corpus: Vec<(String, Vec<u8>)> = SAMPLES
        .iter()
        .map(|(name, text)| (format!("sample:{name}"), text.as_bytes().to_vec()))
        .collect();
    corpus.extend(
        test_files()
            .into_iter()
            .map(|(name, bytes)| (format!("test/{name}"), bytes)),
    );
    corpus
}

/// SplitMix64: small, fast and deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

const BRACKETS: &[u8] = b"()[]{}<>";

const HUGE_NUMBERS: &[&str] = &[
    "99999999999999999999999999999999999",
    "-99999999999999999999999999999999999",
    "18446744073709551616",
    "9223372036854775808",
    "-9223372036854775809",
    "4294967296",
    "0x10000000000000000",
    "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
    "1.0e99999",
    "1e-99999",
    "340282366920938463463374607431768211456",
];

const HUGE_TYPES: &[&str] = &[
    "i99999999",
    "i16777216",
    "si99999999999999999999",
    "ui4294967296",
    "memref<99999999999999999999xf32>",
    "tensor<9999999999x9999999999xi8>",
    "vector<99999999999999999999xf32>",
    "memref<4294967296x4294967296x4294967296xf32>",
    "tensor<18446744073709551615xf32>",
    "vector<[99999999999]xf32>",
    "f99999",
];

const INVALID_UTF8: &[&[u8]] = &[
    b"\xff",
    b"\xfe\xff",
    b"\xc3",
    b"\x80",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xe2\x82",
    b"\xf0\x9f\x98",
];

const TOKENS: &[&str] = &[
    " ",
    "\n",
    "%0",
    "%",
    "^bb0",
    "^",
    "@",
    "#",
    "!",
    "\"",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ",",
    ":",
    "=",
    "->",
    "::",
    "...",
    "loc(",
    "loc(unknown)",
    "#loc",
    "#loc9",
    "#map",
    "!t.x",
    "module",
    "module {",
    "attributes",
    "affine_map<",
    "affine_set<",
    "dense<",
    "array<",
    "tuple<",
    "i32",
    "f32",
    "index",
    "unit",
    "true",
    "0x",
    "-",
    "+",
    "*",
    "?",
    "x",
    "// -----\n",
    "//",
    "\"t.x\"()",
    "({",
    "})",
    " : () -> ()",
    "%0:2 = ",
    "%0#1",
    "^bb1:",
    "^bb1(%z: i32):",
    "<{",
    "}>",
    "floordiv",
    "mod",
    "d0",
    "s0",
    "strided<[",
    "offset:",
    "callsite(",
    " at ",
    "fused[",
    "\\",
    "\t",
    "\r",
    "\0",
    "\u{feff}",
    "é",
    "0.5",
    "-0",
    "1e5",
    "@sym",
    "#t.a<",
    "!t.b<",
];

/// Sigils that start identifiers, and the op-name quote.
const SIGILS: &[u8] = b"%^@#!";

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$' | b'-')
}

/// Byte ranges of `sigil ident` tokens (`%x`, `^bb1`, `@f`, `#map`, `!alias`) and quoted
/// dotted op names (`"t.op"`).
fn identifiers(input: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if SIGILS.contains(&b) || b == b'"' {
            let mut j = i + 1;
            while j < input.len() && is_ident_byte(input[j]) {
                j += 1;
            }
            let dotted = b != b'"' || (j < input.len() && input[j] == b'"' && input[i + 1..j].contains(&b'.'));
            if j > i + 1 && dotted {
                out.push((i, if b == b'"' { j + 1 } else { j }));
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// Maximal runs of `pred` bytes.
fn runs(input: &[u8], pred: impl Fn(u8) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < input.len() {
        if pred(input[i]) && (i == 0 || !is_ident_byte(input[i - 1]) || input[i - 1].is_ascii_digit()) {
            let start = i;
            while i < input.len() && pred(input[i]) {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// Words that look like builtin types (`i32`, `f16`, `index`, ...).
fn type_words(input: &[u8]) -> Vec<(usize, usize)> {
    runs(input, |b| b.is_ascii_alphanumeric())
        .into_iter()
        .filter(|&(s, e)| {
            let w = &input[s..e];
            let rest = |p: usize| w.len() > p && w[p..].iter().all(u8::is_ascii_digit);
            w == b"index"
                || ((w[0] == b'i' || w[0] == b'f') && rest(1))
                || ((w.starts_with(b"si") || w.starts_with(b"ui")) && rest(2))
        })
        .collect()
}

fn splice(input: &mut Vec<u8>, range: (usize, usize), with: &[u8]) {
    input.splice(range.0..range.1, with.iter().copied());
}

/// Openers and closers of the deep-nesting mutation.
const NESTINGS: &[(&str, &str)] = &[
    ("[", "]"),
    ("(", ")"),
    ("{a = ", "}"),
    ("tuple<", ">"),
    ("\"t.n\"() ({\n", "}) : () -> ()\n"),
    ("<", ">"),
    ("loc(callsite(", " at unknown))"),
];

/// Applies one random mutation to `input`; returns its description.
fn mutate_once(rng: &mut Rng, input: &mut Vec<u8>, corpus: &[(String, Vec<u8>)]) -> String {
    let len = input.len();
    match rng.below(15) {
        0 => {
            let at = rng.below(len + 1);
            input.truncate(at);
            format!("truncate at {at}")
        }
        1 => {
            let n = 1 + rng.below(3);
            for _ in 0..n {
                let at = rng.below(input.len() + 1);
                input.insert(at, *rng.pick(BRACKETS));
            }
            format!("insert {n} stray brackets")
        }
        2 => {
            let n = 1 + rng.below(8);
            for _ in 0..n {
                if !input.is_empty() {
                    let at = rng.below(input.len());
                    input.remove(at);
                }
            }
            format!("delete {n} chars")
        }
        3 => {
            let at = rng.below(len + 1);
            let n = rng.below(64).min(len - at);
            input.drain(at..at + n);
            format!("delete {n} chars at {at}")
        }
        4 => {
            let huge = *rng.pick(HUGE_NUMBERS);
            let numbers = runs(input, |b| b.is_ascii_digit());
            if numbers.is_empty() || rng.one_in(4) {
                let at = rng.below(len + 1);
                splice(input, (at, at), huge.as_bytes());
                format!("insert huge number {huge} at {at}")
            } else {
                let r = *rng.pick(&numbers);
                splice(input, r, huge.as_bytes());
                format!("replace a number at {} with {huge}", r.0)
            }
        }
        5 => {
            let huge = *rng.pick(HUGE_TYPES);
            let types = type_words(input);
            if types.is_empty() || rng.one_in(4) {
                let at = rng.below(len + 1);
                splice(input, (at, at), huge.as_bytes());
                format!("insert huge type {huge} at {at}")
            } else {
                let r = *rng.pick(&types);
                splice(input, r, huge.as_bytes());
                format!("replace type at {} with {huge}", r.0)
            }
        }
        6 => {
            let bad = *rng.pick(INVALID_UTF8);
            let at = rng.below(len + 1);
            splice(input, (at, at), bad);
            format!("insert invalid UTF-8 {bad:x?} at {at}")
        }
        7 => {
            let ids = identifiers(input);
            let n = LONG / (1 + rng.below(10));
            if ids.is_empty() || rng.one_in(4) {
                let sigil = *rng.pick(SIGILS) as char;
                let at = rng.below(len + 1);
                splice(input, (at, at), format!("{sigil}{}", "v".repeat(n)).as_bytes());
                format!("insert a {n}-char identifier at {at}")
            } else {
                // Rename every occurrence, so the input may stay valid.
                let (s, e) = *rng.pick(&ids);
                let old = input[s..e].to_vec();
                let new = if old[0] == b'"' {
                    format!("\"t.{}\"", "o".repeat(n)).into_bytes()
                } else {
                    let mut v = vec![old[0]];
                    v.extend(std::iter::repeat_n(b'x', n));
                    v
                };
                *input = replace_all(input, &old, &new);
                format!("rename {} to a {n}-char identifier", String::from_utf8_lossy(&old))
            }
        }
        8 => {
            let a = rng.below(len + 1);
            let b = (a + rng.below(200)).min(len);
            let piece = input[a..b].to_vec();
            let at = rng.below(len + 1);
            splice(input, (at, at), &piece);
            format!("duplicate {a}..{b} at {at}")
        }
        9 => {
            let mut lines: Vec<Vec<u8>> = input.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
            let what = match rng.below(3) {
                0 => {
                    lines.swap(i, j);
                    format!("swap lines {} and {}", i + 1, j + 1)
                }
                1 => {
                    lines.remove(i);
                    format!("delete line {}", i + 1)
                }
                _ => {
                    let l = lines[i].clone();
                    lines.insert(j, l);
                    format!("copy line {} before line {}", i + 1, j + 1)
                }
            };
            *input = lines.join(&b'\n');
            what
        }
        10 => {
            let tok = *rng.pick(TOKENS);
            let at = rng.below(len + 1);
            splice(input, (at, at), tok.as_bytes());
            format!("insert {tok:?} at {at}")
        }
        11 => {
            if len == 0 {
                return "nothing to replace".into();
            }
            let at = rng.below(len);
            let b = *rng.pick(b"!\"#%&'()*+,-./:;<=>?@[\\]^_`{|}~0aZ \n\t");
            input[at] = b;
            format!("set byte {at} to {:?}", b as char)
        }
        12 => {
            let (name, other) = rng.pick(corpus);
            let cut = rng.below(len + 1);
            let from = rng.below(other.len() + 1);
            input.truncate(cut);
            input.extend_from_slice(&other[from..]);
            format!("splice {cut}.. with {name}[{from}..]")
        }
        13 => {
            let (open, close) = *rng.pick(NESTINGS);
            let depth = [100, 511, 512, 513, 2000, DEEP][rng.below(6)];
            let at = rng.below(len + 1);
            let end = (at + rng.below(100)).min(len);
            let mut v = input[..at].to_vec();
            v.extend(open.repeat(depth).bytes());
            v.extend_from_slice(&input[at..end]);
            if !rng.one_in(4) {
                v.extend(close.repeat(depth).bytes());
            }
            v.extend_from_slice(&input[end..]);
            *input = v;
            format!("nest {depth} x {open:?} at {at}")
        }
        _ => {
            // Mix line endings and whitespace.
            let crlf = replace_all(input, b"\n", if rng.one_in(2) { b"\r\n" } else { b"\r" });
            *input = crlf;
            "change line endings".into()
        }
    }
}

fn replace_all(input: &[u8], old: &[u8], new: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        if !old.is_empty() && input[i..].starts_with(old) {
            out.extend_from_slice(new);
            i += old.len();
        } else {
            out.push(input[i]);
            i += 1;
        }
    }
    out
}

/// `n` mutated cases from the corpus.
fn mutated_cases(seed: u64, n: usize) -> Vec<Case> {
    let corpus = corpus();
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            let (name, base) = rng.pick(&corpus);
            let mut input = base.clone();
            let count = 1 + rng.below(3);
            let steps: Vec<String> = (0..count).map(|_| mutate_once(&mut rng, &mut input, &corpus)).collect();
            Case {
                label: format!("{name}: {}", steps.join("; ")),
                input,
                stdin: rng.one_in(8),
                output_file: rng.one_in(4),
            }
        })
        .collect()
}

fn env_number(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

// ---------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------

/// The embedded samples are valid: the mutations start from real programs.
#[test]
fn samples_are_accepted() {
    let scratch = tempfile::tempdir().unwrap();
    for (name, text) in SAMPLES {
        let path = scratch.path().join(format!("{name}.mlir"));
        std::fs::write(&path, text).unwrap();
        let run = run_with_timeout(lf_opt(&[path.to_str().unwrap()]), scratch.path(), name);
        assert_eq!(
            run.status.and_then(|s| s.code()),
            Some(0),
            "sample {name} is rejected:\n{}",
            run.stderr
        );
    }
}

/// A few thousand mutated inputs: truncations, stray brackets, deletions, huge numbers and
/// types, invalid UTF-8, long identifiers, splices, deep nesting, line-ending changes.
#[test]
fn mutated_inputs_never_crash_or_hang() {
    let seed = env_number("LF_ROBUSTNESS_SEED").unwrap_or(DEFAULT_SEED);
    let n = env_number("LF_ROBUSTNESS_CASES").map_or(DEFAULT_CASES, |n| n as usize);
    eprintln!("mutated inputs: seed {seed:#x} (set LF_ROBUSTNESS_SEED to change it), {n} cases");
    let cases = mutated_cases(seed, n);
    run_cases("mutated", &cases, Some(seed), true);
}

/// A region of `n + 1` blocks, each branching to the next.
fn chained_blocks(n: usize) -> String {
    let blocks: String = (0..n)
        .map(|i| format!("^bb{i}:\n  \"t.br\"()[^bb{}] : () -> ()\n", i + 1))
        .collect();
    format!("\"t.a\"() ({{\n{blocks}^bb{n}:\n  \"t.end\"() : () -> ()\n}}) : () -> ()\n")
}

fn nest(open: &str, inner: &str, close: &str, depth: usize) -> String {
    format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
}

fn attr_case(label: &str, attr: &str) -> Case {
    Case::new(label, format!("\"t.a\"() {{v = {attr}}} : () -> ()\n"))
}

/// 10k nested regions, brackets, tuples, parentheses in affine maps and more; also just at
/// and around the nesting limit, and unclosed.
#[test]
fn deep_nesting() {
    let mut cases = Vec::new();
    for depth in [DEEP, 100_000, 511, 512, 513] {
        let d = depth;
        cases.extend([
            Case::new(
                format!("{d} nested regions"),
                nest("\"t.a\"() ({\n", "", "}) : () -> ()\n", d),
            ),
            Case::new(format!("{d} unclosed regions"), "\"t.a\"() ({\n".repeat(d)),
            Case::new(format!("{d} nested modules"), nest("module {\n", "", "}\n", d)),
            attr_case(&format!("{d} nested arrays"), &nest("[", "", "]", d)),
            attr_case(&format!("{d} unclosed arrays"), &"[".repeat(d)),
            attr_case(&format!("{d} nested tuples"), &nest("tuple<", "i32", ">", d)),
            attr_case(
                &format!("{d} parens in affine_map"),
                &format!("affine_map<(d0) -> ({})>", nest("(", "d0", ")", d)),
            ),
            attr_case(
                &format!("{d} unclosed parens in affine_map"),
                &format!("affine_map<(d0) -> ({}", "(".repeat(d)),
            ),
            attr_case(
                &format!("{d} negations in affine_map"),
                &format!("affine_map<(d0) -> ({}d0)>", "-".repeat(d)),
            ),
            attr_case(
                &format!("{d} sums in affine_map"),
                &format!("affine_map<(d0) -> (d0{})>", " + d0".repeat(d)),
            ),
            attr_case(
                &format!("{d} floordivs in affine_map"),
                &format!("affine_map<(d0) -> (d0{})>", " floordiv 2".repeat(d)),
            ),
            attr_case(
                &format!("{d} parens in affine_set"),
                &format!("affine_set<(d0) : ({} >= 0)>", nest("(", "d0", ")", d)),
            ),
            attr_case(&format!("{d} nested dicts"), &nest("{a = ", "1", "}", d)),
            attr_case(&format!("{d} nested function types"), &nest("() -> (", "i32", ")", d)),
            attr_case(
                &format!("{d} nested dialect type"),
                &format!("!t.x{}", nest("<", "", ">", d)),
            ),
            attr_case(
                &format!("{d} nested dialect attr"),
                &format!("#t.x{}", nest("<", "", ">", d)),
            ),
            attr_case(
                &format!("{d} nested dense"),
                &format!("dense<{}> : tensor<1xi32>", nest("[", "1", "]", d)),
            ),
            attr_case(&format!("{d} nested complex"), &nest("complex<", "f32", ">", d)),
            attr_case(&format!("{d} nested memrefs"), &nest("memref<1x", "f32", ">", d)),
            attr_case(
                &format!("{d} nested vector in tuple"),
                &nest("tuple<vector<1x", "f32", ">>", d),
            ),
            Case::new(
                format!("{d} nested callsite locations"),
                format!(
                    "\"t.a\"() : () -> () loc({})\n",
                    nest("callsite(", "\"a\":1:1", " at \"b\":1:1)", d)
                ),
            ),
            Case::new(
                format!("{d} nested fused locations"),
                format!("\"t.a\"() : () -> () loc({})\n", nest("fused[", "\"a\":1:1", "]", d)),
            ),
            Case::new(
                format!("{d} nested name locations"),
                format!("\"t.a\"() : () -> () loc({})\n", nest("\"n\"(", "\"a\":1:1", ")", d)),
            ),
        ]);
    }
    cases.push(Case::new(format!("{DEEP} chained blocks"), chained_blocks(DEEP)));
    run_cases("deep", &cases, None, true);
}

/// `-o OUT` gets the permissions mlir-opt gives it: read and write for all
/// less the umask for a new file, and those of the file already there
/// otherwise (lf writes a temporary file and renames it, where mlir-opt
/// writes the file in place), also when that file is large (removed on
/// another thread) and for lf-translate.
#[cfg(unix)]
#[test]
fn output_files_get_the_umask_or_the_old_mode() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("in.mlir");
    // With a @main: lf-translate writes a host program of it (with a warning).
    std::fs::write(&input, "func.func @main() {\n  return\n}\n").unwrap();
    let out = scratch.path().join("out.mlir");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let run = |umask: &str, tool: &str, extra: &[&str]| {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
            .arg(tool)
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .args(extra)
            .stdin(Stdio::null());
        let r = run_with_timeout(cmd, scratch.path(), "mode");
        assert_eq!(r.status.and_then(|s| s.code()), Some(0), "{}", r.stderr);
    };
    let lf_translate = env!("CARGO_BIN_EXE_lf-translate");
    for (umask, want) in [("022", 0o644), ("027", 0o640), ("077", 0o600), ("002", 0o664)] {
        let _ = std::fs::remove_file(&out);
        run(umask, LF_OPT, &[]);
        assert_eq!(mode(&out), want, "new file, umask {umask}");
        let _ = std::fs::remove_file(&out);
        run(umask, lf_translate, &["--target=cuda"]);
        assert_eq!(mode(&out), want, "lf-translate, new file, umask {umask}");
    }
    for (old, size) in [(0o644, 10), (0o604, 10), (0o640, 3 << 20)] {
        std::fs::write(&out, vec![b'x'; size]).unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(old)).unwrap();
        run("077", LF_OPT, &[]);
        assert_eq!(mode(&out), old, "existing file of mode {old:o}, {size} bytes");
        assert_eq!(
            std::fs::read(&out).unwrap(),
            b"module {\n  func.func @main() {\n    return\n  }\n}\n\n"
        );
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(old)).unwrap();
        run("077", LF_OPT, &["--split-input-file"]);
        assert_eq!(mode(&out), old, "--split-input-file, existing file of mode {old:o}");
    }
}

/// An output file that cannot be written is named as the user gave it;
/// the temporary file lf-opt and lf-translate write first (and its made-up
/// name) never shows in the error.
#[test]
fn output_errors_name_the_users_path() {
    // Not named `.tmpXXXX` as tempfile's files are.
    let scratch = tempfile::Builder::new().prefix("lf-output-errors").tempdir().unwrap();
    let input = scratch.path().join("in.mlir");
    // With a @main, which lf-translate emits as a host program.
    std::fs::write(&input, "func.func @main() {\n  return\n}\n").unwrap();
    let out = scratch.path().join("missing-dir").join("out.mlir");
    let (input, out) = (input.to_str().unwrap(), out.to_str().unwrap());
    let lf_translate = env!("CARGO_BIN_EXE_lf-translate");
    let runs: [(&str, Vec<&str>); 3] = [
        (LF_OPT, vec![input, "-o", out]),
        (LF_OPT, vec![input, "--split-input-file", "-o", out]),
        (lf_translate, vec![input, "--target=cuda", "-o", out]),
    ];
    for (tool, args) in runs {
        let mut cmd = Command::new(tool);
        cmd.args(&args).stdin(Stdio::null());
        let run = run_with_timeout(cmd, scratch.path(), "out");
        let what = format!("{tool} {}", args.join(" "));
        assert_eq!(run.status.and_then(|s| s.code()), Some(1), "{what}: {}", run.stderr);
        assert!(run.stderr.contains(&format!("'{out}'")), "{what}: {}", run.stderr);
        assert!(
            !run.stderr.contains(".tmp") && !run.stderr.contains("at path"),
            "{what}: {}",
            run.stderr
        );
    }
}

/// Every command-line error of the tools (an unknown flag, a bad number,
/// boolean or enum value) exits with status 1, as every other error does,
/// with the error on stderr; an unknown flag near a pass's name (or a flag)
/// gets it as a suggestion. `--help` and `--version` exit 0.
#[test]
fn command_line_errors_exit_1() {
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("in.mlir");
    std::fs::write(&path, "module {}\n").unwrap();
    let input = path.to_str().unwrap();
    let lf_run = env!("CARGO_BIN_EXE_lf-run");
    let lf_translate = env!("CARGO_BIN_EXE_lf-translate");
    let cases: &[(&str, &[&str], Option<&str>)] = &[
        (LF_OPT, &["--csee"], Some("'--cse'")),
        (LF_OPT, &["--canonicalise=max-iterations=3"], Some("'--canonicalize'")),
        (LF_OPT, &["--frobnicate"], None),
        (LF_OPT, &["--threads=0"], None),
        (LF_OPT, &["--threads=many"], None),
        (LF_OPT, &["--verify-each=maybe"], None),
        (LF_OPT, &["--verify-semantics-rtol=x"], None),
        (LF_OPT, &["-x"], None),
        (LF_OPT, &["second-input.mlir"], None),
        (lf_translate, &["--target=cudaa"], Some("'cuda'")),
        (lf_translate, &["--target=cuda", "--emit=nothing"], None),
        (lf_translate, &[], None),
        (lf_run, &["--block-order=sideways"], None),
        (lf_run, &["--max-steps=-1"], None),
        (lf_run, &["--entyr=main"], Some("'--entry'")),
        (lf_run, &["--compare-traces"], Some("--compare")),
        (lf_run, &["--profile-out=p.txt"], Some("--profile-divergence")),
        (
            lf_run,
            &["--profile-divergence", "--gpu-backend=cuda"],
            Some("--gpu-backend=sim"),
        ),
    ];
    for (tool, args, hint) in cases {
        let mut cmd = Command::new(tool);
        cmd.arg(input).args(*args).stdin(Stdio::null());
        let run = run_with_timeout(cmd, scratch.path(), "cli");
        let what = format!("{tool} {}", args.join(" "));
        assert_eq!(run.status.and_then(|s| s.code()), Some(1), "{what}: {}", run.stderr);
        assert!(run.stderr.contains("error"), "{what}: {}", run.stderr);
        if let Some(hint) = hint {
            assert!(run.stderr.contains(hint), "{what}: no {hint} in\n{}", run.stderr);
        }
    }
    for tool in [LF_OPT, lf_run, lf_translate] {
        for flag in ["--help", "--version"] {
            let mut cmd = Command::new(tool);
            cmd.arg(flag).stdin(Stdio::null());
            let run = run_with_timeout(cmd, scratch.path(), "cli");
            assert_eq!(
                run.status.and_then(|s| s.code()),
                Some(0),
                "{tool} {flag}: {}",
                run.stderr
            );
            assert!(!run.stdout.is_empty(), "{tool} {flag}");
        }
    }
}

/// `--threads=N` for a huge N does not start N threads (lf-opt uses at most
/// `lf_tools::opt::MAX_THREADS`): an empty module takes no longer than on a
/// few threads, and a module of functions prints as on one.
#[test]
fn huge_thread_counts_are_capped() {
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("in.mlir");
    let funcs: String = (0..40)
        .map(|i| format!("  \"t.f\"() ({{\n    \"t.op{i}\"() : () -> ()\n  }}) {{t.isolated}} : () -> ()\n"))
        .collect();
    for input in ["module {}\n".to_string(), format!("module {{\n{funcs}}}\n")] {
        std::fs::write(&path, &input).unwrap();
        let one = run_with_timeout(lf_opt(&[path.to_str().unwrap(), "--threads=1"]), scratch.path(), "one");
        assert_eq!(one.status.and_then(|s| s.code()), Some(0), "{}", one.stderr);
        for n in ["16000", "4294967295"] {
            let start = Instant::now();
            let flag = format!("--threads={n}");
            let run = run_with_timeout(lf_opt(&[path.to_str().unwrap(), &flag]), scratch.path(), "many");
            let took = start.elapsed();
            assert_eq!(run.status.and_then(|s| s.code()), Some(0), "{flag}: {}", run.stderr);
            assert_eq!(run.stdout, one.stdout, "{flag}");
            assert!(took < Duration::from_secs(5), "{flag} took {took:?}");
        }
    }
}

/// A flat affine sum does not nest: a map of 1000 (and 20000, which mlir-opt
/// reads too) dimensions that adds them all up reads and prints back as
/// written, while an operator chain as long still nests too deep and a sum
/// of more than 65536 terms is too deep a tree; both are positioned errors.
#[test]
fn long_affine_sums() {
    let scratch = tempfile::tempdir().unwrap();
    let sum_map = |n: usize, extra: &str| {
        let dims: Vec<String> = (0..n).map(|i| format!("d{i}")).collect();
        format!("affine_map<({}) -> ({}{extra})>", dims.join(", "), dims.join(" + "))
    };
    for n in [513, 1000, 20_000] {
        let input = format!(
            "#map = {}\nmodule {{\n  \"t.a\"() {{m = #map}} : () -> ()\n}}\n\n",
            sum_map(n, "")
        );
        let path = scratch.path().join("sum.mlir");
        std::fs::write(&path, &input).unwrap();
        let run = run_with_timeout(lf_opt(&[path.to_str().unwrap()]), scratch.path(), "sum");
        assert_eq!(
            run.status.and_then(|s| s.code()),
            Some(0),
            "{n} terms: {}",
            excerpt(run.stderr.as_bytes(), 300)
        );
        assert_eq!(String::from_utf8_lossy(&run.stdout), input, "{n} terms");
    }
    let cases = vec![
        attr_case("sum of 65537 dims", &sum_map(65_536, " + d0")),
        attr_case(
            "1000 floordivs of a sum",
            &format!("affine_map<(d0, d1) -> (d0 + d1{})>", " floordiv 2".repeat(1000)),
        ),
    ];
    run_cases("long affine sums", &cases, None, false);
}

/// A function whose body is an affine nest `depth` deep: level `k` opens
/// `opener(k, v)`, `v` the innermost loop variable so far (the function's
/// argument `%i0` at first), which says whether it defines `%iK`; the
/// innermost level loads and stores through the innermost loop variable.
fn affine_nest(depth: usize, opener: impl Fn(usize, &str) -> (String, bool)) -> String {
    let mut text = String::from("func.func @deep(%A: memref<4xf32>, %i0: index, %n: index) {\n");
    let mut var = "%i0".to_string();
    for k in 1..=depth {
        let (open, defines) = opener(k, &var);
        text.push_str(&open);
        if defines {
            var = format!("%i{k}");
        }
    }
    text.push_str(&format!(
        "%v = affine.load %A[{var} mod 4] : memref<4xf32>\naffine.store %v, %A[({var} + 1) mod 4] : memref<4xf32>\n"
    ));
    text.push_str(&"}\n".repeat(depth));
    text.push_str("return\n}\n");
    text
}

/// Affine nests of any depth the parser accepts (512 levels) lower with
/// `--lower-affine` (they once failed past 64 levels: issue 25, item 10),
/// without deep recursion: `affine.for`, `affine.parallel` and mixed nests
/// with `affine.if`, 200 and 500 deep, give what mlir-opt gives, byte for
/// byte, when mlir-opt is installed.
#[test]
fn deep_affine_nests_lower() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let for_level = |k: usize, v: &str| {
        let open = format!(
            "affine.for %i{k} = max affine_map<(d0) -> (d0, 1)>({v}) to min affine_map<(d0)[s0] -> (d0 + 2, s0)>({v})[%n] {{\n"
        );
        (open, true)
    };
    let parallel_level = |k: usize, v: &str| (format!("affine.parallel (%i{k}) = ({v}) to (%n) step (2) {{\n"), true);
    let mixed_level = |k: usize, v: &str| match k % 3 {
        0 => (
            format!("affine.if affine_set<(d0)[s0] : (s0 - d0 - 1 >= 0)>({v})[%n] {{\n"),
            false,
        ),
        1 => for_level(k, v),
        _ => parallel_level(k, v),
    };
    let mut failures = Vec::new();
    let (mut lowered, mut compared) = (0, 0);
    for depth in [200, 500] {
        let cases = [
            ("affine.for", affine_nest(depth, for_level)),
            ("affine.parallel", affine_nest(depth, parallel_level)),
            ("mixed", affine_nest(depth, mixed_level)),
        ];
        for (kind, input) in cases {
            let label = format!("{depth} nested {kind}");
            let path = scratch
                .path()
                .join(format!("deep-{depth}-{}.mlir", kind.replace('.', "-")));
            std::fs::write(&path, &input).expect("write input");
            let run = run_with_timeout(
                lf_opt(&["--lower-affine", path.to_str().expect("utf-8 path")]),
                scratch.path(),
                "deep-lower",
            );
            if !run.status.is_some_and(|s| s.success()) {
                failures.push(format!(
                    "{label}: lf-opt --lower-affine failed ({:?}):\n{}",
                    run.status, run.stderr
                ));
                continue;
            }
            let out = String::from_utf8_lossy(&run.stdout);
            if out.contains("affine.") {
                failures.push(format!("{label}: affine ops left after --lower-affine"));
                continue;
            }
            lowered += 1;
            if let Some(mlir) = mlir_opt() {
                let want = Command::new(mlir)
                    .arg("--lower-affine")
                    .arg(&path)
                    .output()
                    .expect("run mlir-opt");
                if want.status.success() {
                    compared += 1;
                    if want.stdout != run.stdout {
                        failures.push(format!(
                            "{label}: lf-opt and mlir-opt --lower-affine differ: {}",
                            first_difference(&run.stdout, &want.stdout)
                        ));
                    }
                }
            }
        }
    }
    if mlir_opt().is_none() {
        if std::env::var("LF_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
            panic!("deep_affine_nests_lower: mlir-opt-22 (or mlir-opt) is not on PATH and LF_REQUIRE_TOOLS=1");
        }
        eprintln!("SKIPPED: mlir-opt not installed; deep nests not compared with mlir-opt");
    }
    eprintln!("deep affine nests: {lowered} of 6 lowered, {compared} compared with mlir-opt");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Huge numbers and types, overflowing shapes and affine arithmetic.
#[test]
fn huge_numbers() {
    let mut cases: Vec<Case> = Vec::new();
    for n in HUGE_NUMBERS {
        cases.push(attr_case(&format!("number {n}"), n));
        for ty in [
            "i1", "i8", "i32", "i64", "i128", "si64", "ui64", "index", "f16", "bf16", "f32", "f64",
        ] {
            cases.push(attr_case(&format!("number {n} : {ty}"), &format!("{n} : {ty}")));
        }
        cases.push(attr_case(&format!("array<i64: {n}>"), &format!("array<i64: {n}>")));
        cases.push(attr_case(&format!("dense {n}"), &format!("dense<{n}> : tensor<2xi32>")));
        cases.push(attr_case(
            &format!("affine constant {n}"),
            &format!("affine_map<(d0) -> (d0 * {n})>"),
        ));
        cases.push(attr_case(
            &format!("strided {n}"),
            &format!("strided<[{n}], offset: {n}>"),
        ));
        cases.push(Case::new(
            format!("location {n}"),
            format!("\"t.a\"() : () -> () loc(\"f\":{n}:{n})\n"),
        ));
        cases.push(Case::new(
            format!("result count {n}"),
            format!("%0:{n} = \"t.a\"() : () -> (i32)\n"),
        ));
        cases.push(Case::new(
            format!("result number {n}"),
            format!("%0:2 = \"t.a\"() : () -> (i32, i32)\n\"t.b\"(%0#{n}) : (i32) -> ()\n"),
        ));
        cases.push(Case::new(
            format!("value name %{n}"),
            format!("%{n} = \"t.a\"() : () -> i32\n\"t.b\"(%{n}) : (i32) -> ()\n"),
        ));
        cases.push(Case::new(
            format!("block name ^bb{n}"),
            format!("\"t.a\"() ({{\n  \"t.b\"()[^bb{n}] : () -> ()\n^bb{n}:\n  \"t.b\"()[^bb{n}] : () -> ()\n}}) : () -> ()\n"),
        ));
    }
    for ty in HUGE_TYPES {
        cases.push(attr_case(&format!("type {ty}"), ty));
        cases.push(attr_case(&format!("dense splat of {ty}"), &format!("dense<1> : {ty}")));
        cases.push(Case::new(
            format!("result type {ty}"),
            format!("%0 = \"t.a\"() : () -> {ty}\n"),
        ));
    }
    for shape in [
        "9999999999x9999999999",
        "4294967296x4294967296",
        "3037000500x3037000500",
        "9223372036854775807",
        "0x9223372036854775807",
    ] {
        for elt in ["i1", "i8", "f32", "complex<f64>"] {
            cases.push(attr_case(
                &format!("dense splat tensor<{shape}x{elt}>"),
                &format!("dense<1> : tensor<{shape}x{elt}>"),
            ));
            cases.push(attr_case(
                &format!("dense list tensor<{shape}x{elt}>"),
                &format!("dense<[1, 2]> : tensor<{shape}x{elt}>"),
            ));
            cases.push(attr_case(
                &format!("dense hex tensor<{shape}x{elt}>"),
                &format!("dense<\"0x01\"> : tensor<{shape}x{elt}>"),
            ));
            cases.push(attr_case(
                &format!("type tensor<{shape}x{elt}>"),
                &format!("tensor<{shape}x{elt}>"),
            ));
            cases.push(attr_case(
                &format!("type memref<{shape}x{elt}>"),
                &format!("memref<{shape}x{elt}>"),
            ));
            cases.push(attr_case(
                &format!("type vector<{shape}x{elt}>"),
                &format!("vector<{shape}x{elt}>"),
            ));
        }
    }
    for e in [
        "9223372036854775807 * 2",
        "9223372036854775807 + 1",
        "(0 - 9223372036854775807 - 1) floordiv -1",
        "(0 - 9223372036854775807 - 1) mod -1",
        "(0 - 9223372036854775807 - 1) ceildiv -1",
        "d0 * 9223372036854775807 * 9223372036854775807",
        "d0 floordiv 0",
        "d0 mod 0",
        "d0 ceildiv 0",
        "7 floordiv 0",
        "7 mod 0",
        "(d0 * 4611686018427387904) mod 3",
        "d0 floordiv -9223372036854775807",
        "-(0 - 9223372036854775807 - 1)",
    ] {
        cases.push(attr_case(&format!("affine {e}"), &format!("affine_map<(d0) -> ({e})>")));
        cases.push(attr_case(
            &format!("affine set {e}"),
            &format!("affine_set<(d0) : ({e} >= 0)>"),
        ));
    }
    run_cases("huge", &cases, None, true);
}

/// Identifiers of 100k characters in every place that has one.
#[test]
fn long_identifiers() {
    let id = "x".repeat(LONG);
    let cases = vec![
        Case::new(
            "long value name",
            format!("%{id} = \"t.a\"() : () -> i32\n\"t.b\"(%{id}) : (i32) -> ()\n"),
        ),
        Case::new("long op name", format!("\"t.{id}\"() : () -> ()\n")),
        Case::new("long dialect name", format!("\"{id}.a\"() : () -> ()\n")),
        Case::new(
            "long block name",
            format!(
                "\"t.a\"() ({{\n  \"t.b\"()[^{id}] : () -> ()\n^{id}:\n  \"t.b\"()[^{id}] : () -> ()\n}}) : () -> ()\n"
            ),
        ),
        Case::new(
            "long attribute alias",
            format!("#{id} = 1\n\"t.a\"() {{v = #{id}}} : () -> ()\n"),
        ),
        Case::new(
            "long type alias",
            format!("!{id} = i32\n\"t.a\"() {{v = !{id}}} : () -> ()\n"),
        ),
        Case::new("long symbol", format!("module @{id} {{\n}}\n")),
        attr_case("long symbol ref", &format!("@{id}::@{id}")),
        attr_case("long string", &format!("\"{id}\"")),
        attr_case("long dialect type", &format!("!t.{id}")),
        attr_case("long dialect attr", &format!("#t.{id}<{id}>")),
        Case::new("long attribute name", format!("\"t.a\"() {{{id} = 1}} : () -> ()\n")),
        Case::new("long unit attribute name", format!("\"t.a\"() {{{id}}} : () -> ()\n")),
        attr_case("long affine dim name", &format!("affine_map<({id}) -> ({id})>")),
        Case::new(
            "long location file",
            format!("\"t.a\"() : () -> () loc(\"{id}\":1:2)\n"),
        ),
        Case::new("long bare word", format!("{id}\n")),
        Case::new(
            "long line of spaces",
            format!("{}\"t.a\"() : () -> ()\n", " ".repeat(1 << 20)),
        ),
        Case::new("long comment", format!("// {id}\n\"t.a\"() : () -> ()\n")),
        Case::new(
            "many operands",
            format!(
                "%0 = \"t.a\"() : () -> i32\n\"t.b\"({}%0) : ({}i32) -> ()\n",
                "%0, ".repeat(50_000),
                "i32, ".repeat(50_000)
            ),
        ),
        Case::new(
            "many results",
            format!("%0:50000 = \"t.a\"() : () -> ({}i32)\n", "i32, ".repeat(49_999)),
        ),
        attr_case("many array elements", &format!("[{}1]", "1, ".repeat(200_000))),
    ];
    run_cases("long", &cases, None, true);
}

/// Invalid UTF-8 anywhere: the error names the position of the first bad byte.
#[test]
fn invalid_utf8() {
    let base = SAMPLES[1].1.as_bytes();
    let mut cases = Vec::new();
    for (k, bad) in INVALID_UTF8.iter().enumerate() {
        for at in [0, 1, base.len() / 3, base.len() / 2, base.len()] {
            let mut input = base.to_vec();
            splice(&mut input, (at, at), bad);
            let mut case = Case::new(format!("invalid UTF-8 {bad:x?} at {at}"), input);
            case.stdin = k % 2 == 1;
            case.output_file = at % 2 == 0;
            cases.push(case);
        }
    }
    cases.push(Case::new("only a bad byte", b"\xff".to_vec()));
    cases.push(Case::new("NUL bytes", b"\0\0\0".to_vec()));
    cases.push(Case::new("byte order mark", "\u{feff}\"t.a\"() : () -> ()\n"));
    cases.push(Case::new(
        "lone carriage returns",
        "\"t.a\"() : () -> ()\r\"t.b\"() : () -> ()\r",
    ));
    run_cases("utf8", &cases, None, true);
}

/// With `-o OUT`, a failing input writes nothing (and a valid one writes the print).
#[test]
fn failing_input_writes_no_output_file() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("out.mlir");
    let out_str = out.to_str().unwrap();
    for (name, input) in [
        ("syntax error", "\"t.a\"( : () -> ()\n"),
        ("verifier error", "module attributes {a = 1} {\n}\n"),
        ("unregistered op without the flag", "\"t.a\"() : () -> ()\n"),
        ("truncated", "module {\n  \"t.a\"() ({\n"),
    ] {
        let input_path = scratch.path().join("in.mlir");
        std::fs::write(&input_path, input).unwrap();
        let mut cmd = Command::new(LF_OPT);
        cmd.arg(&input_path).args(["-o", out_str]).stdin(Stdio::null());
        if name != "unregistered op without the flag" {
            cmd.arg("--allow-unregistered-dialect");
        }
        let run = run_with_timeout(cmd, scratch.path(), "run");
        assert_eq!(
            run.status.and_then(|s| s.code()),
            Some(1),
            "{name}: expected exit 1; stderr:\n{}",
            run.stderr
        );
        assert!(
            positioned_error(&run.stderr).is_some(),
            "{name}: no positioned error:\n{}",
            run.stderr
        );
        assert!(!out.exists(), "{name}: {out_str} was written although lf-opt failed");
    }
    let (printed, written) = print_valid_sample(scratch.path(), out_str);
    assert!(written.stdout.is_empty(), "-o OUT also printed to stdout");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        printed.stdout,
        "-o OUT differs from the standard output"
    );
}

/// Runs lf-opt on a valid sample written in `dir`, to standard output and
/// then with `-o out` (checking that this one succeeded); returns both runs.
fn print_valid_sample(dir: &Path, out: &str) -> (Run, Run) {
    let input_path = dir.join("ok.mlir");
    std::fs::write(&input_path, SAMPLES[2].1).unwrap();
    let printed = run_with_timeout(lf_opt(&[input_path.to_str().unwrap()]), dir, "stdout");
    let written = run_with_timeout(lf_opt(&[input_path.to_str().unwrap(), "-o", out]), dir, "file");
    assert_eq!(written.status.and_then(|s| s.code()), Some(0), "{}", written.stderr);
    (printed, written)
}

/// A large file already at `-o OUT` (which lf-opt removes on another thread
/// once printing starts) is replaced by exactly the print, and stays as it
/// was when the input fails before anything is printed.
#[test]
fn large_existing_output_is_replaced_or_kept() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("out.mlir");
    let out_str = out.to_str().unwrap();
    let old: Vec<u8> = (0..3 << 20).map(|i| b'a' + (i % 26) as u8).collect();
    let bad = scratch.path().join("bad.mlir");
    std::fs::write(&bad, "\"t.a\"( : () -> ()\n").unwrap();
    std::fs::write(&out, &old).unwrap();
    let failed = run_with_timeout(lf_opt(&[bad.to_str().unwrap(), "-o", out_str]), scratch.path(), "bad");
    assert_eq!(failed.status.and_then(|s| s.code()), Some(1), "{}", failed.stderr);
    assert!(
        std::fs::read(&out).unwrap() == old,
        "a failed parse changed the existing output"
    );
    let (printed, _) = print_valid_sample(scratch.path(), out_str);
    assert_eq!(std::fs::read(&out).unwrap(), printed.stdout, "-o OUT is not the print");
}

/// Attribute, type and location aliases: forward references, cycles, redefinitions.
#[test]
fn aliases() {
    let op = "\"t.a\"() : () -> ()";
    let cases = vec![
        Case::new(
            "loc alias used before it is defined",
            format!("{op} loc(#loc)\n#loc = loc(\"a\":1:1)\n"),
        ),
        Case::new("loc alias never defined", format!("{op} loc(#loc)\n")),
        Case::new("loc alias of itself", format!("{op} loc(#loc)\n#loc = loc(#loc)\n")),
        Case::new(
            "loc aliases in a cycle",
            format!("{op} loc(#loc)\n#loc = loc(#loc1)\n#loc1 = loc(#loc)\n"),
        ),
        Case::new(
            "loc alias fusing itself",
            format!("{op} loc(#loc)\n#loc = loc(fused[#loc, #loc1])\n#loc1 = loc(\"a\":1:1)\n"),
        ),
        Case::new(
            "loc alias naming a later alias",
            format!("{op} loc(#loc)\n#loc = loc(\"x\"(#loc1))\n#loc1 = loc(\"a\":1:1)\n"),
        ),
        Case::new(
            "loc aliases through callsite",
            format!("{op} loc(#loc)\n#loc = loc(\"x\"(#loc2))\n#loc2 = loc(callsite(#loc at #loc))\n"),
        ),
        Case::new("loc alias that is no location", format!("#loc = 1\n{op} loc(#loc)\n")),
        Case::new(
            "attribute aliases in a cycle",
            "#a = #b\n#b = #a\n\"t.a\"() {v = #a} : () -> ()\n",
        ),
        Case::new("attribute alias redefined", format!("#a = 1\n#a = 2\n{op}\n")),
        Case::new("type alias of itself", format!("!a = !a\n{op}\n")),
        Case::new(
            "type alias used as attribute alias",
            "!a = i32\n\"t.a\"() {v = #a} : () -> ()\n",
        ),
        Case::new("alias after the ops", format!("{op}\n#a = 1\n")),
        Case::new(
            "alias named like a builtin",
            "#loc = 1\n!i32 = f32\n\"t.a\"() {v = #loc, w = !i32} : () -> ()\n",
        ),
        Case::new(
            "dotted alias",
            "#a.b = 1\n!c.d = i32\n\"t.a\"() {v = #a.b, w = !c.d} : () -> ()\n",
        ),
        Case::new("alias without a value", "#a =\n"),
        Case::new(
            "block argument loc alias",
            "\"t.a\"() ({\n^bb0(%x: i32 loc(#l)):\n}) : () -> ()\n#l = loc(\"a\":1:1)\n",
        ),
    ];
    run_cases("aliases", &cases, None, true);
}

/// Runs the cases of one known bug without tolerating it: passes once it is fixed. A fixed
/// bug's test stays as a regression test (without `#[ignore]` and `KNOWN_BUGS` entry).
fn known_bug(id: &str, cases: Vec<Case>) {
    run_cases(id, &cases, None, false);
}

#[test]
fn known_bug_dense_shape_overflow() {
    known_bug(
        "dense_shape_overflow",
        vec![
            attr_case("splat", "dense<1> : tensor<9999999999x9999999999xi8>"),
            attr_case("list", "dense<[1, 2]> : tensor<4294967296x4294967296xi1>"),
            attr_case("hex", "dense<\"0x01\"> : tensor<4294967296x4294967296x4xi8>"),
        ],
    );
}

#[test]
fn known_bug_print_exceeds_nesting_limit() {
    known_bug(
        "print_exceeds_nesting_limit",
        vec![
            Case::new("512 nested regions", nest("\"t.a\"() ({\n", "", "}) : () -> ()\n", 512)),
            attr_case("512 nested arrays", &nest("[", "", "]", 512)),
            attr_case(
                "511 floordivs",
                &format!("affine_map<(d0) -> (d0{})>", " floordiv 2".repeat(511)),
            ),
        ],
    );
}

#[test]
fn known_bug_entry_block_predecessors() {
    known_bug(
        "entry_block_predecessors",
        vec![Case::new(
            "branch to entry",
            "\"t.a\"() ({\n^bb0:\n  \"t.b\"()[^bb0] : () -> ()\n}) : () -> ()\n",
        )],
    );
}

#[test]
fn known_bug_deferred_location_aliases() {
    let op = "\"t.a\"() : () -> ()";
    known_bug(
        "deferred_location_aliases",
        vec![
            Case::new(
                "forward",
                format!("{op} loc(#loc)\n#loc = loc(\"x\"(#loc1))\n#loc1 = loc(\"a\":1:1)\n"),
            ),
            Case::new(
                "self",
                format!("{op} loc(#loc)\n#loc = loc(fused[#loc, #loc1])\n#loc1 = loc(\"a\":1:1)\n"),
            ),
            Case::new(
                "cycle",
                format!("{op} loc(#loc)\n#loc = loc(\"x\"(#loc2))\n#loc2 = loc(callsite(#loc at #loc))\n"),
            ),
        ],
    );
}

#[test]
fn known_bug_hex_f64_type_elided_in_array() {
    known_bug(
        "hex_f64_type_elided_in_array",
        vec![attr_case(
            "-inf and NaN in an array",
            "[0xFFF0000000000000 : f64, 0x7FF8000000000000 : f64]",
        )],
    );
}

#[test]
fn known_bug_min_int_affine_constant() {
    known_bug(
        "min_int_affine_constant",
        vec![attr_case(
            "i64::MIN",
            "affine_map<(d0) -> ((0 - 9223372036854775807 - 1) floordiv -1)>",
        )],
    );
}

/// 100k blocks: lf-opt used to find each block's predecessors by a linear search
/// (`OpPrinter::block_header`, ir/src/printer/mod.rs), so printing was quadratic in the
/// number of blocks: 40k blocks took 8 s in a debug build (mlir-opt: 0.2 s).
#[test]
fn known_bug_quadratic_block_printing() {
    run_cases(
        "blocks",
        &[Case::new("100k chained blocks", chained_blocks(100_000))],
        None,
        false,
    );
}
