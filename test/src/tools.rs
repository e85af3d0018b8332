//! External tools of the differential tests (`mlir-opt-22`, ...): found on
//! `PATH`; a missing tool skips a test loudly, or fails it when
//! `LF_REQUIRE_TOOLS=1` (as CI sets).

use std::path::PathBuf;

/// The first of `names` found on `PATH`.
pub fn find_on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names
        .iter()
        .find_map(|name| std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file()))
}

/// Whether a missing tool fails the test instead of skipping it
/// (`LF_REQUIRE_TOOLS=1`, as CI sets).
pub fn tools_required() -> bool {
    std::env::var("LF_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

/// Skips `test` with a loud `SKIPPED` line naming the missing `tool` and
/// `hint` (how to install it), written to the process's stderr past the
/// test harness's capture.
///
/// # Panics
/// When [`tools_required`].
pub fn skip_or_fail(test: &str, tool: &str, hint: &str) {
    if tools_required() {
        panic!("{test}: {tool} is missing and LF_REQUIRE_TOOLS=1 ({hint})");
    }
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {tool} not installed ({test}; {hint}; set LF_REQUIRE_TOOLS=1 to fail instead)"
    );
}

/// The first of `names` on `PATH`; otherwise `None` after printing that
/// `test` is skipped.
///
/// # Panics
/// When none is found and `LF_REQUIRE_TOOLS=1`.
pub fn require(names: &[&str], test: &str) -> Option<PathBuf> {
    if let Some(p) = find_on_path(names) {
        return Some(p);
    }
    if tools_required() {
        panic!("{test}: none of {names:?} is on PATH and LF_REQUIRE_TOOLS=1");
    }
    eprintln!(
        "SKIPPED: {} not installed ({test}; set LF_REQUIRE_TOOLS=1 to fail instead)",
        names.join(" or ")
    );
    None
}

/// Where two tools' outputs first differ, for a test failure: the line
/// number and a few lines around it from each (`mlir-opt` first, then
/// `lf-opt`).
pub fn first_difference(mlir: &str, lf: &str) -> String {
    let (la, lb): (Vec<&str>, Vec<&str>) = (mlir.lines().collect(), lf.lines().collect());
    let i = la.iter().zip(&lb).take_while(|(x, y)| x == y).count();
    let from = i.saturating_sub(3);
    let show = |l: &[&str]| l[from.min(l.len())..(i + 4).min(l.len())].join("\n");
    format!(
        "first difference at line {}\n--- mlir-opt:\n{}\n--- lf-opt:\n{}",
        i + 1,
        show(&la),
        show(&lb)
    )
}
