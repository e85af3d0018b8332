//! How results are printed: one line per test, a block per failure, and the summary line
//! `lit: N passed, N failed, N skipped` that CI tooling parses.

use std::fmt::Write as _;

use super::exec::{signal_name, Status};
use super::{Outcome, TestResult};

/// Streams shown in a failure report are cut to this many bytes (head and tail kept).
pub const MAX_SHOWN_OUTPUT: usize = 12_000;

/// Counts of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Tests whose RUN lines all succeeded.
    pub passed: usize,
    /// Tests that failed (including unmet requirements under `LF_REQUIRE_TOOLS=1`).
    pub failed: usize,
    /// Tests skipped for missing or unsupported features.
    pub skipped: usize,
}

impl Summary {
    /// Counts `results`.
    pub fn of(results: &[TestResult]) -> Self {
        let mut s = Summary::default();
        for r in results {
            match r.outcome {
                Outcome::Pass => s.passed += 1,
                Outcome::Fail(_) => s.failed += 1,
                Outcome::Skip(_) => s.skipped += 1,
            }
        }
        s
    }

    /// The summary line (without newline): `lit: 3 passed, 1 failed, 0 skipped`.
    pub fn line(&self) -> String {
        format!(
            "lit: {} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )
    }
}

/// Keeps the head and the tail of `s` when it is longer than `max` bytes.
pub fn truncate_middle(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let head_len = max / 4;
    let mut head = head_len;
    while !s.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = s.len() - (max - head_len);
    while !s.is_char_boundary(tail) {
        tail += 1;
    }
    format!(
        "{}\n... [{} bytes omitted] ...\n{}",
        &s[..head],
        tail - head,
        &s[tail..]
    )
}

/// Describes how a command ended, e.g. `exit code 1` or `crashed with SIGSEGV (signal 11)`.
pub fn describe_status(status: Status, timeout_secs: u64) -> String {
    match status {
        // bash reports a child killed by signal N as status 128 + N.
        Status::Exited(c) if c > 128 && c <= 128 + 64 => {
            format!(
                "crashed with {} (signal {}, exit code {c})",
                signal_name(c - 128),
                c - 128
            )
        }
        Status::Exited(c) => format!("exit code {c}"),
        Status::Signaled(s) => format!("crashed with {} (signal {s})", signal_name(s)),
        Status::TimedOut => format!("timed out after {timeout_secs} s (process group killed)"),
    }
}

/// The text printed for one finished test (one line, plus a block for a failure).
pub fn format_result(r: &TestResult, quiet: bool) -> String {
    let mut out = String::new();
    match &r.outcome {
        Outcome::Pass => {
            if !quiet {
                let _ = writeln!(out, "PASS: {} ({:.2}s)", r.name, r.elapsed.as_secs_f64());
            }
        }
        Outcome::Skip(reason) => {
            let _ = writeln!(out, "SKIPPED ({reason}): {}", r.name);
        }
        Outcome::Fail(f) => {
            let _ = writeln!(out, "FAIL: {} ({:.2}s)", r.name, r.elapsed.as_secs_f64());
            let _ = writeln!(out, "{} TEST '{}' FAILED {}", "*".repeat(20), r.name, "*".repeat(20));
            let _ = writeln!(out, "{}", f.message);
            if let Some(run) = &f.command {
                let _ = writeln!(out, "RUN: at line {}: {}", run.line, run.command);
            }
            for (name, text) in [("stdout", &f.stdout), ("stderr", &f.stderr)] {
                if text.is_empty() {
                    continue;
                }
                let _ = writeln!(out, "\nCommand output ({name}):\n--");
                let shown = truncate_middle(text, MAX_SHOWN_OUTPUT);
                out.push_str(&shown);
                if !shown.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str("--\n");
            }
            let _ = writeln!(out, "{}", "*".repeat(20));
        }
    }
    out
}

/// The closing lines: the list of failed tests, then the summary line.
pub fn format_summary(results: &[TestResult]) -> String {
    let mut out = String::new();
    let failed: Vec<&TestResult> = results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Fail(_)))
        .collect();
    if !failed.is_empty() {
        let _ = writeln!(out, "\nFailed tests ({}):", failed.len());
        for r in failed {
            let _ = writeln!(out, "  {}", r.name);
        }
    }
    let _ = writeln!(out, "\n{}", Summary::of(results).line());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncates_in_the_middle() {
        let s = "a".repeat(50) + &"b".repeat(50);
        let t = truncate_middle(&s, 40);
        assert!(t.starts_with("aaaaaaaaaa\n... [60 bytes omitted] ...\nbbbb"), "{t}");
        assert!(t.ends_with(&"b".repeat(30)));
        assert_eq!(truncate_middle("short", 40), "short");
    }

    #[test]
    fn summary_line_format() {
        let s = Summary {
            passed: 3,
            failed: 1,
            skipped: 2,
        };
        assert_eq!(s.line(), "lit: 3 passed, 1 failed, 2 skipped");
    }
}
