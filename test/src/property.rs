//! The driver of lf's property tests (`tools/tests/*_properties.rs`):
//! numbered cases run in parallel under a time budget, each given its seed
//! and a directory for its files, with the environment variables every
//! such test reads: `LF_PROPERTY_CASES=N` (the number of cases),
//! `LF_PROPERTY_SEED=S` (the first seed, 1 by default),
//! `LF_PROPERTY_SECONDS=T` (no new case starts after T seconds) and
//! `LF_PROPERTY_DIR=DIR` (keep the files there instead of a temporary
//! directory).

use rayon::prelude::*;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The value of the environment variable `name`, or `default`.
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Runs `tool` with `args`: whether it succeeded, and its stdout and
/// stderr.
pub fn run_tool(tool: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {tool}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// What a run of cases found.
#[derive(Debug)]
pub struct Summary {
    /// Cases started within the budget.
    pub done: usize,
    /// Cases that held and reported something of note (`Ok(true)`).
    pub noted: usize,
    /// What the failing cases said.
    pub failures: Vec<String>,
}

/// Runs `cases` cases (or `LF_PROPERTY_CASES`) within `seconds` (or
/// `LF_PROPERTY_SECONDS`): `case(seed, dir)` gives `Ok(noted)` when the
/// property held, `Err(message)` when not.
pub fn run_cases(cases: usize, seconds: u64, case: impl Fn(u64, &Path) -> Result<bool, String> + Sync) -> Summary {
    let cases = env_or("LF_PROPERTY_CASES", cases);
    let first = env_or("LF_PROPERTY_SEED", 1u64);
    let budget = Duration::from_secs(env_or("LF_PROPERTY_SECONDS", seconds));
    let temp = tempfile::tempdir().expect("a temporary directory");
    let kept = std::env::var_os("LF_PROPERTY_DIR").map(std::path::PathBuf::from);
    let dir = kept.as_deref().unwrap_or(temp.path());
    std::fs::create_dir_all(dir).expect("the cases' directory");
    let start = Instant::now();
    let (done, noted) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let failures: Vec<String> = (0..cases as u64)
        .into_par_iter()
        .filter_map(|i| {
            if start.elapsed() > budget {
                return None;
            }
            done.fetch_add(1, Ordering::Relaxed);
            match case(first + i, dir) {
                Ok(n) => {
                    noted.fetch_add(usize::from(n), Ordering::Relaxed);
                    None
                }
                Err(e) => Some(e),
            }
        })
        .collect();
    let summary = Summary {
        done: done.into_inner(),
        noted: noted.into_inner(),
        failures,
    };
    eprintln!(
        "{} of {cases} cases run in {:.0?} ({} noted)",
        summary.done,
        start.elapsed(),
        summary.noted
    );
    assert!(
        summary.done >= cases.min(50),
        "only {} cases ran within the time budget",
        summary.done
    );
    assert!(
        summary.failures.is_empty(),
        "{} failing cases:\n{}",
        summary.failures.len(),
        summary.failures.join("\n\n")
    );
    summary
}
