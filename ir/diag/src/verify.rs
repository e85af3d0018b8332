//! `--verify-diagnostics`: checking emitted diagnostics against `expected-*`
//! comments, with mlir-opt 22's rules and messages.
//!
//! Rules (observed with `mlir-opt-22 --verify-diagnostics`):
//! - Each emitted diagnostic, and then each of its notes, is checked on its
//!   own. A diagnostic positioned in file F at line L is compared with F's
//!   expectations for line L, in file order; one without a position with the
//!   `@unknown` expectations. The first whose text matches and whose severity
//!   is the same marks that expectation as seen. Expectations are **not
//!   consumed**: one `expected-error` accepts any number of matching errors on
//!   its line, and of two identical expectations on one line the second is
//!   never seen.
//! - No match: `unexpected SEVERITY: MESSAGE`, an error at the diagnostic's
//!   position. A text match with another severity instead gives
//!   `'SEVERITY' diagnostic emitted when expecting a 'SEVERITY'` at the
//!   expectation (the last such one on the line).
//! - At the end, every expectation not seen gives
//!   `expected SEVERITY "TEXT" was not produced` at its `expected-`, the text
//!   underlined (width = length of TEXT). Positioned ones first (in file
//!   order), then `@unknown` ones (mlir-opt 22 prints the `@unknown` ones
//!   twice; we print them once).
//! - [`VerifyMode::OnlyExpected`] (`--verify-diagnostics=only-expected`)
//!   reports neither unexpected diagnostics nor severity near misses.
//! - Errors in the comments themselves ([`Expectations::errors`]) come first.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::expect::{parse_expected, Expectations};
use crate::source::SourceMgr;

/// What to check.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum VerifyMode {
    /// Every diagnostic must be expected, and every expectation produced.
    #[default]
    All,
    /// Only that every expectation is produced; extra diagnostics are fine.
    OnlyExpected,
}

/// Incremental checker: feed it emitted diagnostics as they come, then call
/// [`Verifier::finish`].
///
/// ```
/// use lf_diag::{parse_expected, Diagnostic, SourcePos, Verifier, VerifyMode};
/// let text = "// expected-error @+1 {{bad}}\nop\n// expected-warning {{never}}\n";
/// let mut v = Verifier::new(VerifyMode::All);
/// v.add(parse_expected("a.mlir", text));
/// v.check(&Diagnostic::error(SourcePos::new("a.mlir", 2, 1), "a bad op"));
/// v.check(&Diagnostic::error(SourcePos::new("a.mlir", 2, 1), "other"));
/// let out: Vec<String> = v.finish().iter().map(|d| d.to_string()).collect();
/// assert_eq!(out, [
///     "a.mlir:2:1: error: unexpected error: other",
///     "a.mlir:3:4: error: expected warning \"never\" was not produced",
/// ]);
/// ```
#[derive(Debug, Default)]
pub struct Verifier {
    mode: VerifyMode,
    files: Vec<FileState>,
    out: Vec<Diagnostic>,
}

/// One buffer's expectations, whether each was seen, and their indices by
/// line (`None`: `@unknown`), in file order.
#[derive(Debug)]
struct FileState {
    exp: Expectations,
    seen: Vec<bool>,
    by_line: HashMap<Option<u32>, Vec<usize>>,
}

impl Verifier {
    /// A verifier with no expectations yet.
    pub fn new(mode: VerifyMode) -> Verifier {
        Verifier {
            mode,
            files: Vec::new(),
            out: Vec::new(),
        }
    }

    /// Adds one buffer's expectations; their parse errors are reported first.
    pub fn add(&mut self, expectations: Expectations) {
        self.out.extend(expectations.errors.iter().cloned());
        let seen = vec![false; expectations.diags.len()];
        let mut by_line: HashMap<Option<u32>, Vec<usize>> = HashMap::new();
        for (i, e) in expectations.diags.iter().enumerate() {
            by_line.entry(e.line).or_default().push(i);
        }
        self.files.push(FileState {
            exp: expectations,
            seen,
            by_line,
        });
    }

    /// Adds the expectations of every buffer of a source manager.
    pub fn add_all(&mut self, sm: &SourceMgr) {
        for id in sm.ids() {
            self.add(parse_expected(sm.name(id).clone(), sm.text(id)));
        }
    }

    /// Checks one emitted diagnostic, then its notes.
    pub fn check(&mut self, diag: &Diagnostic) {
        self.check_one(diag);
        for n in &diag.notes {
            self.check(n);
        }
    }

    /// Checks several emitted diagnostics, in order.
    pub fn check_all<'a>(&mut self, diags: impl IntoIterator<Item = &'a Diagnostic>) {
        for d in diags {
            self.check(d);
        }
    }

    fn check_one(&mut self, diag: &Diagnostic) {
        let mut near_miss: Option<(usize, usize)> = None;
        let file_idx: Vec<usize> = match &diag.pos {
            // The most recently added expectations for that file name.
            Some(p) => self
                .files
                .iter()
                .rposition(|f| *f.exp.file == *p.file)
                .into_iter()
                .collect(),
            None => (0..self.files.len()).collect(),
        };
        let line = diag.pos.as_ref().map(|p| p.line);
        for fi in file_idx {
            let f = &mut self.files[fi];
            let Some(candidates) = f.by_line.get(&line) else {
                continue;
            };
            for &i in candidates {
                let e = &f.exp.diags[i];
                if !e.matches(&diag.message) {
                    continue;
                }
                if e.severity == diag.severity {
                    f.seen[i] = true;
                    return;
                }
                near_miss = Some((fi, i));
            }
        }
        if self.mode == VerifyMode::OnlyExpected {
            return;
        }
        let report = match near_miss {
            Some((fi, i)) => {
                let e = &self.files[fi].exp.diags[i];
                Diagnostic::error(
                    e.pos.clone(),
                    format!(
                        "'{}' diagnostic emitted when expecting a '{}'",
                        diag.severity, e.severity
                    ),
                )
            }
            None => Diagnostic::error(
                diag.pos.clone(),
                format!("unexpected {}: {}", diag.severity, diag.message),
            ),
        };
        self.out.push(report);
    }

    /// Reports the expectations never seen and returns every failure, in
    /// order. Empty means the check passed.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        let mut unknown = Vec::new();
        for f in &self.files {
            for (e, &s) in f.exp.diags.iter().zip(&f.seen) {
                if s {
                    continue;
                }
                let d = Diagnostic::error(
                    e.pos.clone(),
                    format!("expected {} \"{}\" was not produced", e.severity, e.text),
                )
                .with_width(e.text.len() as u32);
                if e.line.is_some() {
                    self.out.push(d);
                } else {
                    unknown.push(d);
                }
            }
        }
        self.out.extend(unknown);
        self.out
    }
}

/// Checks `emitted` (with their notes) against one buffer's expectations, as
/// `mlir-opt --verify-diagnostics` does; returns the failures (empty: pass).
///
/// ```
/// use lf_diag::{parse_expected, verify, Diagnostic, SourcePos};
/// let exp = parse_expected("a.mlir", "x // expected-error {{bad}}\n");
/// assert!(verify(&exp, &[Diagnostic::error(SourcePos::new("a.mlir", 1, 1), "bad thing")]).is_empty());
/// let failures = verify(&exp, &[]);
/// assert_eq!(failures[0].to_string(), "a.mlir:1:6: error: expected error \"bad\" was not produced");
/// ```
pub fn verify(expected: &Expectations, emitted: &[Diagnostic]) -> Vec<Diagnostic> {
    verify_with(std::slice::from_ref(expected), emitted, VerifyMode::All)
}

/// [`verify()`] over several buffers' expectations, with a mode.
pub fn verify_with(expected: &[Expectations], emitted: &[Diagnostic], mode: VerifyMode) -> Vec<Diagnostic> {
    let mut v = Verifier::new(mode);
    for e in expected {
        v.add(e.clone());
    }
    v.check_all(emitted);
    v.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Severity, SourcePos};

    const FILE: &str = "t.mlir";

    fn at(line: u32, col: u32) -> SourcePos {
        SourcePos::new(FILE, line, col)
    }

    fn run(text: &str, emitted: &[Diagnostic]) -> Vec<String> {
        verify(&parse_expected(FILE, text), emitted)
            .iter()
            .map(|d| d.to_string())
            .collect()
    }

    #[test]
    fn match_on_same_line_and_severity() {
        let text = "op1 // expected-error {{bad op}}\nop2\n";
        assert!(run(text, &[Diagnostic::error(at(1, 1), "a bad op here")]).is_empty());
        // Wrong line.
        assert_eq!(
            run(text, &[Diagnostic::error(at(2, 1), "a bad op here")]),
            [
                "t.mlir:2:1: error: unexpected error: a bad op here",
                "t.mlir:1:8: error: expected error \"bad op\" was not produced",
            ]
        );
        // Wrong text.
        assert_eq!(
            run(text, &[Diagnostic::error(at(1, 1), "fine op")]),
            [
                "t.mlir:1:1: error: unexpected error: fine op",
                "t.mlir:1:8: error: expected error \"bad op\" was not produced",
            ]
        );
        // Wrong file.
        assert_eq!(
            run(text, &[Diagnostic::error(SourcePos::new("u.mlir", 1, 1), "bad op")])[0],
            "u.mlir:1:1: error: unexpected error: bad op"
        );
    }

    #[test]
    fn severity_near_miss() {
        let text = "op // expected-warning {{x}}\n";
        assert_eq!(
            run(text, &[Diagnostic::error(at(1, 1), "x")]),
            [
                "t.mlir:1:7: error: 'error' diagnostic emitted when expecting a 'warning'",
                "t.mlir:1:7: error: expected warning \"x\" was not produced",
            ]
        );
        // A near miss is not reported when another expectation matches.
        let text = "op // expected-warning {{x}}\n// expected-error @-1 {{x}}\n";
        assert_eq!(
            run(text, &[Diagnostic::error(at(1, 1), "x")]),
            ["t.mlir:1:7: error: expected warning \"x\" was not produced"]
        );
        // Each severity word.
        for (sev, word) in [
            (Severity::Warning, "warning"),
            (Severity::Note, "note"),
            (Severity::Remark, "remark"),
        ] {
            let text = format!("op // expected-{word} {{{{m}}}}\n");
            assert!(run(&text, &[Diagnostic::new(sev, at(1, 1), "m")]).is_empty());
            assert_eq!(
                run("op\n", &[Diagnostic::new(sev, at(1, 1), "m")]),
                [format!("t.mlir:1:1: error: unexpected {word}: m")]
            );
        }
    }

    #[test]
    fn notes_are_checked_like_diagnostics() {
        let text = "a // expected-note {{defined here}}\nb // expected-error {{redefinition}}\n";
        let d = Diagnostic::error(at(2, 1), "redefinition of %0").with_note(at(1, 1), "previously defined here");
        assert!(run(text, std::slice::from_ref(&d)).is_empty());
        // Without the expected-note, the note is unexpected.
        assert_eq!(
            run("a\nb // expected-error {{redefinition}}\n", &[d]),
            ["t.mlir:1:1: error: unexpected note: previously defined here"]
        );
    }

    #[test]
    fn expectations_are_not_consumed() {
        // mlir-opt 22: one expectation accepts several diagnostics; of two
        // identical ones the second is never matched.
        let e1 = Diagnostic::error(at(2, 1), "has 1 operands (@a)");
        let e2 = Diagnostic::error(at(2, 9), "has 1 operands (@b)");
        assert!(run(
            "// expected-error @+1 {{has 1 operands}}\nx\n",
            &[e1.clone(), e2.clone()]
        )
        .is_empty());
        let e1 = Diagnostic::error(at(3, 1), "has 1 operands (@a)");
        let e2 = Diagnostic::error(at(3, 9), "has 1 operands (@b)");
        assert_eq!(
            run(
                "// expected-error @+2 {{has 1 operands}}\n// expected-error @+1 {{has 1 operands}}\nx\n",
                &[e1, e2]
            ),
            ["t.mlir:2:4: error: expected error \"has 1 operands\" was not produced"]
        );
    }

    #[test]
    fn unknown_positions() {
        let text = "// expected-error @unknown {{lost}}\n// expected-warning @unknown {{never}}\n";
        assert_eq!(
            run(
                text,
                &[Diagnostic::error(None, "lost op"), Diagnostic::error(None, "other")]
            ),
            [
                "<unknown>:0: error: unexpected error: other",
                "t.mlir:2:4: error: expected warning \"never\" was not produced",
            ]
        );
        // A positioned diagnostic does not match `@unknown`.
        assert_eq!(
            run(text, &[Diagnostic::error(at(1, 1), "lost")])[0],
            "t.mlir:1:1: error: unexpected error: lost"
        );
        // Unmet `@unknown` expectations come after positioned ones.
        let text = "// expected-error @unknown {{u}}\n// expected-error {{p}}\n";
        assert_eq!(
            run(text, &[]),
            [
                "t.mlir:2:4: error: expected error \"p\" was not produced",
                "t.mlir:1:4: error: expected error \"u\" was not produced",
            ]
        );
    }

    #[test]
    fn comment_errors_come_first_and_widths() {
        let text = "// expected-error-re {{a {{b}}\nx // expected-error {{abc}}\n";
        let f = verify(&parse_expected(FILE, text), &[Diagnostic::error(at(2, 1), "zzz")]);
        let s: Vec<String> = f.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            s,
            [
                "t.mlir:1:4: error: found start of regex with no end '}}'",
                "t.mlir:2:1: error: unexpected error: zzz",
                "t.mlir:2:6: error: expected error \"abc\" was not produced",
            ]
        );
        assert_eq!(f[0].width, 5); // "a {{b"
        assert_eq!(f[1].width, 0);
        assert_eq!(f[2].width, 3);
    }

    #[test]
    fn only_expected_mode() {
        let exp = parse_expected(FILE, "a // expected-warning {{w}}\nb // expected-error {{e}}\n");
        let emitted = [
            Diagnostic::error(at(1, 1), "w"),
            Diagnostic::error(at(2, 1), "e"),
            Diagnostic::error(at(3, 1), "extra"),
        ];
        let f = verify_with(&[exp], &emitted, VerifyMode::OnlyExpected);
        let s: Vec<String> = f.iter().map(|d| d.to_string()).collect();
        assert_eq!(s, ["t.mlir:1:6: error: expected warning \"w\" was not produced"]);
    }

    #[test]
    fn several_files_and_source_mgr() {
        let mut sm = SourceMgr::new();
        sm.add("a.mlir", "x // expected-error {{in a}}\n");
        sm.add("b.mlir", "y // expected-error {{in b}}\n");
        let mut v = Verifier::new(VerifyMode::All);
        v.add_all(&sm);
        v.check(&Diagnostic::error(SourcePos::new("b.mlir", 1, 1), "in b"));
        v.check(&Diagnostic::error(SourcePos::new("a.mlir", 1, 1), "in b"));
        let s: Vec<String> = v.finish().iter().map(|d| d.to_string()).collect();
        assert_eq!(
            s,
            [
                "a.mlir:1:1: error: unexpected error: in b",
                "a.mlir:1:6: error: expected error \"in a\" was not produced",
            ]
        );
    }
}
