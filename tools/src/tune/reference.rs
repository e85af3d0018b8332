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

/// How far a printed number may be from the reference's:
/// `|got - expected| <= atol + rtol * |expected|` (both 0: the text must be
/// the same).
pub use lf_interp::observe::Tolerance;

/// The words of a line: maximal runs of letters, digits and `.+-_@`
/// (numbers such as `-1.5e-05` are one word), and each other character
/// alone.
fn words(line: &str) -> Vec<&str> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_' | '@');
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (is_word(c), start) {
            (true, None) => start = Some(i),
            (true, Some(_)) => {}
            (false, s) => {
                if let Some(s) = s {
                    out.push(&line[s..i]);
                }
                start = None;
                if !c.is_whitespace() {
                    out.push(&line[i..i + c.len_utf8()]);
                }
            }
        }
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}

/// Whether a printed line matches the reference's: the same text, or (with
/// a tolerance) the same words where every word that differs is a number
/// within `tol` of the reference's. Spacing between words is not compared
/// then.
fn line_matches(expected: &str, got: &str, tol: Tolerance) -> bool {
    if expected == got {
        return true;
    }
    if tol.rtol == 0.0 && tol.atol == 0.0 {
        return false;
    }
    let (e, g) = (words(expected), words(got));
    e.len() == g.len()
        && e.iter().zip(&g).all(|(a, b)| {
            a == b
                || match (a.parse::<f64>(), b.parse::<f64>()) {
                    (Ok(x), Ok(y)) if x.is_nan() || y.is_nan() => x.is_nan() && y.is_nan(),
                    (Ok(x), Ok(y)) => x == y || (x - y).abs() <= tol.atol + tol.rtol * x.abs(),
                    _ => false,
                }
        })
}

/// `None` if `output` equals `reference` (base addresses aside, see
/// [`normalize`]; printed numbers within `tol`), else where they first
/// differ (`line N`, counted from 1, with both lines).
pub fn difference(reference: &[u8], output: &[u8], tol: Tolerance) -> Option<String> {
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
            (Some(a), Some(b)) if line_matches(a, b, tol) => n += 1,
            (Some(a), Some(b)) => return Some(format!("line {n}: expected '{}', got '{}'", cut(a), cut(b))),
            (Some(a), None) => return Some(format!("line {n}: expected '{}', the output ended", cut(a))),
            (None, Some(b)) => return Some(format!("line {n}: expected the end, got '{}'", cut(b))),
            // Same lines, different line endings or final newline.
            (None, None) if tol.rtol == 0.0 && tol.atol == 0.0 => {
                return Some(format!("line {n}: the line endings differ"))
            }
            (None, None) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXACT: Tolerance = Tolerance { rtol: 0.0, atol: 0.0 };

    fn difference(r: &[u8], o: &[u8]) -> Option<String> {
        super::difference(r, o, EXACT)
    }

    #[test]
    fn numbers_within_the_tolerance_match() {
        let tol = Tolerance { rtol: 1e-3, atol: 0.0 };
        let (r, o) = (
            b"[[1.5,   2e-05], \n [nan, -3]]\n",
            b"[[1.5001,   2.00001e-05], \n [nan, -3]]\n",
        );
        assert_eq!(super::difference(r, o, tol), None);
        assert!(super::difference(r, o, EXACT).is_some());
        assert!(super::difference(b"[1.5]\n", b"[1.6]\n", tol).is_some());
        assert!(super::difference(b"[1.5, 2]\n", b"[1.5]\n", tol).is_some());
        // Every number counts, integers too.
        assert_eq!(
            super::difference(b"rank = 1\n", b"rank = 2\n", Tolerance { rtol: 0.0, atol: 5.0 }),
            None
        );
        assert!(super::difference(b"a = 1\n", b"b = 1\n", Tolerance { rtol: 0.0, atol: 5.0 }).is_some());
        assert_eq!(words("[-1.5e-05,  nan]"), ["[", "-1.5e-05", ",", "nan", "]"]);
    }

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
