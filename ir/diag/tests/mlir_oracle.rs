//! Differential tests against `mlir-opt-22` (override with `MLIR_OPT`).
//!
//! For every `tests/oracle/*.mlir` file:
//! 1. run mlir-opt with `--split-input-file` (no verification) and read the
//!    diagnostics it emits;
//! 2. feed them to our [`Verifier`] with the file's `expected-*` comments;
//! 3. run mlir-opt with `--verify-diagnostics --split-input-file` and compare
//!    its failure lines (header text and underline width) with ours;
//! 4. compare our split (number of chunks, near-miss warnings, errors falling
//!    inside chunks) with mlir-opt's.
//!
//! Skipped, loudly, when mlir-opt is missing, unless `LF_REQUIRE_TOOLS=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

use lf_diag::*;
use regex::Regex;

fn mlir_opt() -> Option<String> {
    let bin = std::env::var("MLIR_OPT").unwrap_or_else(|_| "mlir-opt-22".to_string());
    match Command::new(&bin).arg("--version").output() {
        Ok(o) if o.status.success() => Some(bin),
        _ => {
            if std::env::var("LF_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
                panic!("{bin} not found and LF_REQUIRE_TOOLS=1");
            }
            eprintln!("SKIPPED: {bin} not found; the mlir-opt oracle tests did not run");
            None
        }
    }
}

fn corpus() -> (PathBuf, Vec<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".mlir"))
        .collect();
    names.sort();
    (dir, names)
}

/// (stdout, stderr) of mlir-opt on `name` (run in `dir`, so that positions
/// say `name`).
fn run(bin: &str, dir: &Path, name: &str, verify: bool) -> (String, String) {
    let mut cmd = Command::new(bin);
    cmd.current_dir(dir).args([
        "--allow-unregistered-dialect",
        "--split-input-file",
        "--mlir-print-op-on-diagnostic=false",
    ]);
    if verify {
        cmd.arg("--verify-diagnostics");
    }
    let o = cmd.arg(name).output().unwrap();
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A header line: (diagnostic, underline length if a snippet follows).
fn parse_output(stderr: &str) -> Vec<(Diagnostic, Option<usize>)> {
    let header = Regex::new(r"^(?:(.+?):(\d+):(\d+)|<unknown>:0): (error|warning|note|remark): (.*)$").unwrap();
    let caret = Regex::new(r"^ *(\^~*)$").unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(c) = header.captures(l) else { continue };
        let pos = c
            .get(1)
            .map(|f| SourcePos::new(f.as_str(), c[2].parse().unwrap(), c[3].parse().unwrap()));
        let sev = Severity::from_word(&c[4]).unwrap();
        let d = Diagnostic::new(sev, pos, &c[5]);
        let width = lines.get(i + 2).and_then(|l2| caret.captures(l2)).map(|c| c[1].len());
        out.push((d, width));
    }
    out
}

fn is_verifier_message(m: &str) -> bool {
    (m.starts_with("expected ") && m.ends_with(" was not produced"))
        || m.starts_with("found start of regex")
        || m.starts_with("invalid regex:")
}

const NEAR_MISS: &str = "near miss with file split marker";

/// The diagnostics mlir-opt emits while processing the file (notes attached
/// to the diagnostic before them), and the splitter's near-miss warnings.
fn emitted(stderr: &str) -> (Vec<Diagnostic>, Vec<String>) {
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut near = Vec::new();
    for (d, _) in parse_output(stderr) {
        if d.message == NEAR_MISS {
            near.push(d.to_string());
        } else if is_verifier_message(&d.message) {
            // mlir-opt 22 checks expected-* comments even without
            // --verify-diagnostics; those lines are not emitted diagnostics.
        } else if d.severity == Severity::Note && !diags.is_empty() {
            diags.last_mut().unwrap().notes.push(d);
        } else {
            diags.push(d);
        }
    }
    (diags, near)
}

/// Our failures as mlir-opt 22 prints them: it reports failures about
/// `@unknown` expectations at `<unknown>:0` (we point at the comment), and
/// prints the unmet ones twice (the caller duplicates them).
fn mlir_view(text: &str, name: &str, failures: &[Diagnostic]) -> Vec<Diagnostic> {
    let unknown: Vec<SourcePos> = parse_expected(name, text)
        .diags
        .into_iter()
        .filter(|e| e.line.is_none())
        .map(|e| e.pos)
        .collect();
    failures
        .iter()
        .map(|d| {
            let mut d = d.clone();
            if d.pos.as_ref().is_some_and(|p| unknown.contains(p)) && !d.message.starts_with("unexpected ") {
                d.pos = None;
            }
            d
        })
        .collect()
}

#[test]
fn verify_diagnostics_matches_mlir_opt() {
    let Some(bin) = mlir_opt() else { return };
    let (dir, names) = corpus();
    assert!(names.len() >= 10);
    let mut compared = 0;
    for name in &names {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let (_, raw) = run(&bin, &dir, name, false);
        let (diags, _) = emitted(&raw);
        let (_, verified) = run(&bin, &dir, name, true);
        let theirs: Vec<(String, Option<usize>)> = parse_output(&verified)
            .into_iter()
            .filter(|(d, _)| d.message != NEAR_MISS)
            .map(|(d, w)| (d.to_string(), w))
            .collect();

        let mut sm = SourceMgr::new();
        sm.add(name.as_str(), text.as_str());
        let mut v = Verifier::new(VerifyMode::All);
        v.add_all(&sm);
        v.check_all(&diags);
        let failures = v.finish();
        let mut ours: Vec<(String, Option<usize>)> = mlir_view(&text, name, &failures)
            .iter()
            .map(|d| (d.to_string(), d.pos.as_ref().map(|_| (d.width as usize).max(1))))
            .collect();
        let unknown: Vec<_> = ours
            .iter()
            .filter(|(s, _)| s.starts_with("<unknown>:0: error: expected "))
            .cloned()
            .collect();
        ours.extend(unknown);
        // No snippet for positions in other files or without position.
        for (o, t) in ours.iter_mut().zip(&theirs) {
            if t.1.is_none() {
                o.1 = None;
            }
        }
        assert_eq!(
            ours, theirs,
            "{name}: ours vs mlir-opt --verify-diagnostics\nemitted: {diags:#?}"
        );
        compared += theirs.len();
    }
    assert!(compared > 40, "only {compared} lines compared");
}

#[test]
fn only_expected_mode_matches_mlir_opt() {
    let Some(bin) = mlir_opt() else { return };
    let (dir, names) = corpus();
    for name in &names {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let (_, raw) = run(&bin, &dir, name, false);
        let (diags, _) = emitted(&raw);
        let o = Command::new(&bin)
            .current_dir(&dir)
            .args([
                "--allow-unregistered-dialect",
                "--split-input-file",
                "--mlir-print-op-on-diagnostic=false",
                "--verify-diagnostics=only-expected",
                name,
            ])
            .output()
            .unwrap();
        let theirs: Vec<String> = parse_output(&String::from_utf8_lossy(&o.stderr))
            .into_iter()
            .filter(|(d, _)| d.message != NEAR_MISS)
            .map(|(d, _)| d.to_string())
            .collect();
        let exp = parse_expected(name.as_str(), &text);
        let failures = verify_with(&[exp], &diags, VerifyMode::OnlyExpected);
        let mut ours: Vec<String> = mlir_view(&text, name, &failures)
            .iter()
            .map(|d| d.to_string())
            .collect();
        let unknown: Vec<_> = ours
            .iter()
            .filter(|s| s.starts_with("<unknown>:0: error: expected "))
            .cloned()
            .collect();
        ours.extend(unknown);
        assert_eq!(ours, theirs, "{name}");
    }
}

#[test]
fn split_matches_mlir_opt() {
    let Some(bin) = mlir_opt() else { return };
    let (dir, names) = corpus();
    for name in &names {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let (stdout, raw) = run(&bin, &dir, name, false);
        let (diags, near) = emitted(&raw);
        let split = split_input_file_checked(&text, DEFAULT_SPLIT_MARKER);
        // Chunk outputs are joined by the output marker, also for chunks that
        // failed (and print nothing).
        let separators = stdout.lines().filter(|l| *l == DEFAULT_OUTPUT_SPLIT_MARKER).count();
        assert_eq!(split.chunks.len().saturating_sub(1), separators, "{name}: chunks");
        let ours: Vec<String> = split
            .near_miss_warnings(name, &text)
            .iter()
            .map(|d| d.to_string())
            .collect();
        assert_eq!(ours, near, "{name}: near misses");
        // Every diagnostic mlir-opt reports in this file lies inside one of
        // our chunks (positions are file positions).
        let mut sm = SourceMgr::new();
        let id = sm.add(name.as_str(), text.as_str());
        for d in &diags {
            let Some(p) = &d.pos else { continue };
            if *p.file != **name {
                continue;
            }
            let off = sm.offset(id, p.line, p.col).unwrap();
            assert!(
                split
                    .chunks
                    .iter()
                    .any(|c| c.offset <= off && off <= c.offset + c.text.len()),
                "{name}: {d} is outside every chunk {:?}",
                split.chunks
            );
        }
    }
}
