//! Text buffers with line tables, and diagnostics printed the way LLVM's `SourceMgr` does:
//! `file:line:col: error: message`, the line, and a caret line.

use std::fmt::Write as _;

/// A named, canonicalized text buffer (the check file, the input, or a command-line pattern).
#[derive(Debug, Clone)]
pub(crate) struct SourceFile {
    /// The name printed in diagnostics (`<stdin>`, a path, `command line`).
    pub name: String,
    /// The text, after [`canonicalize`].
    pub text: String,
    /// Byte offset of the first character of every line.
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Wraps `text` (already canonicalized) under `name`.
    pub fn new(name: impl Into<String>, text: String) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// 0-based line index of the line holding byte `offset`.
    pub fn line_index(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset) - 1
    }

    /// 1-based line and column (in bytes, as LLVM counts) of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line_index(offset);
        (line + 1, offset - self.line_starts[line] + 1)
    }

    /// Number of lines (a final line without a newline counts; an empty last line does not).
    pub fn line_count(&self) -> usize {
        if self.text.ends_with('\n') || self.text.is_empty() {
            self.line_starts.len() - 1
        } else {
            self.line_starts.len()
        }
    }

    /// Byte range of 0-based line `line`, without its newline.
    pub fn line_range(&self, line: usize) -> (usize, usize) {
        let start = self.line_starts[line];
        let end = self
            .line_starts
            .get(line + 1)
            .map(|&next| next - 1)
            .unwrap_or(self.text.len());
        (start, end)
    }

    /// Appends a diagnostic at byte `offset` to `out`, underlining `range` (a byte range of
    /// this buffer) with `~` where it falls on the same line.
    pub fn message(&self, out: &mut String, offset: usize, kind: Severity, msg: &str, range: Option<(usize, usize)>) {
        let offset = offset.min(self.text.len());
        let (line, col) = self.line_col(offset);
        let _ = writeln!(out, "{}:{}:{}: {}: {}", self.name, line, col, kind.as_str(), msg);
        let (start, end) = self.line_range(line - 1);
        let text = &self.text[start..end];
        // One mark per byte of the line (and one past its end), as LLVM builds it.
        let mut marks = vec![' '; text.len() + 1];
        if let Some((lo, hi)) = range {
            let (lo, hi) = (lo.max(start) - start, hi.min(end).saturating_sub(start));
            for m in marks.iter_mut().take(hi).skip(lo) {
                *m = '~';
            }
        }
        marks[offset - start] = '^';
        // Show the line with tabs expanded; a tab's mark fills the tab's columns.
        let (mut shown, mut caret) = (String::new(), String::new());
        let mut col = 0;
        for (i, ch) in text.char_indices() {
            let width = if ch == '\t' { 8 - col % 8 } else { 1 };
            if ch == '\t' {
                shown.extend(std::iter::repeat_n(' ', width));
            } else {
                shown.push(ch);
            }
            caret.extend(std::iter::repeat_n(marks[i], width));
            col += width;
        }
        caret.push(marks[text.len()]);
        out.push_str(&shown);
        out.push('\n');
        out.push_str(caret.trim_end());
        out.push('\n');
    }
}

/// The kind of a diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Severity {
    /// `error:`
    Error,
    /// `note:`
    Note,
}

impl Severity {
    fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Note => "note",
        }
    }
}

/// FileCheck's canonicalization of a buffer: `\r\n` becomes `\n`, and unless `strict` every
/// run of spaces and tabs becomes a single space.
pub(crate) fn canonicalize(text: &str, strict: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            ' ' | '\t' if !strict => {
                out.push(' ');
                while matches!(chars.peek(), Some(' ' | '\t')) {
                    chars.next();
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonicalizes_whitespace_and_crlf() {
        assert_eq!(canonicalize("a \t b\r\nc\t", false), "a b\nc ");
        assert_eq!(canonicalize("a \t b\r\n", true), "a \t b\n");
    }

    #[test]
    fn line_col_and_message() {
        let f = SourceFile::new("f", "ab\ncd\n".to_string());
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(6), (3, 1));
        assert_eq!(f.line_count(), 2);
        let mut out = String::new();
        f.message(&mut out, 4, Severity::Note, "here", Some((3, 5)));
        assert_eq!(out, "f:2:2: note: here\ncd\n~^\n");
    }

    #[test]
    fn tabs_are_expanded_in_caret_lines() {
        let f = SourceFile::new("f", "\tx".to_string());
        let mut out = String::new();
        f.message(&mut out, 1, Severity::Error, "e", None);
        assert_eq!(out, "f:1:2: error: e\n        x\n        ^\n");
        let mut out = String::new();
        f.message(&mut out, 0, Severity::Error, "e", None);
        assert_eq!(out, "f:1:1: error: e\n        x\n^^^^^^^^\n");
    }
}
