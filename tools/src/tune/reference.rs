//! The output every variant must print: the input run by lf's interpreter
//! (as `lf-run INPUT` does), the first variant's output, or a file; and the
//! comparison of a variant's output with it.

use std::path::{Path, PathBuf};

/// Where the reference output comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The input's `@main` run by lf's interpreter (lf-run, simulated GPU).
    Interpreter,
    /// The output of the first variant that runs.
    First,
    /// The contents of a file.
    File(PathBuf),
}

/// What the input's `@main` prints under lf's interpreter; an error is
/// lf-run's message (a fault, a missing `@main`).
pub fn interpret(input: &Path) -> Result<Vec<u8>, String> {
    let opts = lf_interp::Options {
        entry: "main".to_string(),
        ..lf_interp::Options::default()
    };
    let out = lf_interp::run_file(&input.to_string_lossy(), &opts);
    if out.code != 0 {
        return Err(format!(
            "the reference run (lf-run {}) failed:\n{}",
            input.display(),
            out.stderr.trim_end()
        ));
    }
    Ok(out.stdout)
}

/// The reference output for `reference`: `None` for [`Reference::First`]
/// (known only once a variant ran).
pub fn load(reference: &Reference, input: &Path) -> Result<Option<Vec<u8>>, String> {
    match reference {
        Reference::Interpreter => interpret(input).map(Some),
        Reference::First => Ok(None),
        Reference::File(p) => std::fs::read(p)
            .map(Some)
            .map_err(|e| format!("could not read the reference file '{}': {e}", p.display())),
    }
}

/// `text` with the base addresses that the memref print functions show
/// (`base@ = 0x7ffd...`) written as `0x0`: they differ from run to run and
/// between lf-run and a compiled program.
pub fn normalize(text: &str) -> String {
    const MARK: &str = "base@ = 0x";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(MARK) {
        out.push_str(&rest[..i + MARK.len()]);
        out.push('0');
        let after = &rest[i + MARK.len()..];
        let end = after.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(after.len());
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// `None` if `output` equals `reference` (base addresses aside, see
/// [`normalize`]), else where they first differ (`line N`, counted from 1,
/// with both lines).
pub fn difference(reference: &[u8], output: &[u8]) -> Option<String> {
    let r = normalize(&String::from_utf8_lossy(reference));
    let o = normalize(&String::from_utf8_lossy(output));
    if r == o {
        return None;
    }
    // Long lines (a row of a printed memref) are cut for the message.
    let cut = |l: &str| match l.char_indices().nth(48) {
        Some((i, _)) => format!("{}...", &l[..i]),
        None => l.to_string(),
    };
    let (mut rl, mut ol) = (r.lines(), o.lines());
    let mut n = 1;
    loop {
        match (rl.next(), ol.next()) {
            (Some(a), Some(b)) if a == b => n += 1,
            (Some(a), Some(b)) => return Some(format!("line {n}: expected '{}', got '{}'", cut(a), cut(b))),
            (Some(a), None) => return Some(format!("line {n}: expected '{}', the output ended", cut(a))),
            (None, Some(b)) => return Some(format!("line {n}: expected the end, got '{}'", cut(b))),
            // Same lines, different line endings or final newline.
            (None, None) => return Some(format!("line {n}: the line endings differ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_the_first_line() {
        assert_eq!(difference(b"a\nb\n", b"a\nb\n"), None);
        assert_eq!(
            difference(b"a\nb\n", b"a\nc\n").as_deref(),
            Some("line 2: expected 'b', got 'c'")
        );
        assert!(difference(b"a\nb\n", b"a\n").unwrap().starts_with("line 2"));
        assert!(difference(b"a\n", b"a\nb\n").unwrap().starts_with("line 2"));
        assert!(difference(b"a\n", b"a").is_some());
        assert_eq!(difference(b"x base@ = 0x1f0 rank\n", b"x base@ = 0xabc0 rank\n"), None);
        assert_eq!(normalize("base@ = 0x12 a base@ = 0x"), "base@ = 0x0 a base@ = 0x0");
    }
}
