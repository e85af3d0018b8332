//! Rendering diagnostics as text with source snippets (codespan-reporting).
//!
//! See [`render()`] for the format.

use std::io::{self, Write};
use std::ops::Range;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::termcolor::{Buffer, WriteColor};
use codespan_reporting::term::{self, Chars, Config, Styles};

use crate::diagnostic::{Diagnostic, Severity, UNKNOWN_POS};
use crate::source::{FileId, SourceMgr};

/// Rendering settings.
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    /// Emit ANSI color escapes.
    pub color: bool,
    /// Print only the header lines (no snippets), like [`Diagnostic`]'s
    /// `Display`.
    pub short: bool,
}

/// Renders one diagnostic and its notes, without color.
///
/// Each diagnostic, and then each of its notes, is one block. A block starts
/// with a header line in the format of mlir-opt (and clang): `FILE:LINE:COL:
/// SEVERITY: MESSAGE`. When the position's file is a buffer of the
/// [`SourceMgr`] and the line exists, codespan-reporting's snippet follows,
/// drawn with ASCII characters: a `-->` line repeating the position, the
/// source line, a caret (`^`, or `^^^` over [`Diagnostic::width`] bytes) under
/// the column, and a blank line. Without a snippet the block is just the
/// header line. A diagnostic without a position uses `<unknown>:0` for the
/// position.
///
/// ```
/// use lf_diag::{render, Diagnostic, SourceMgr, SourcePos};
/// let mut sm = SourceMgr::new();
/// sm.add("a.mlir", "%0 = \"test.a\"() : () -> i32\n%0 = \"test.a\"() : () -> i32\n");
/// let d = Diagnostic::error(SourcePos::new("a.mlir", 2, 1), "redefinition of SSA value '%0'")
///     .with_note(SourcePos::new("a.mlir", 1, 1), "previously defined here")
///     .with_note(SourcePos::new("other.mlir", 3, 4), "not in the SourceMgr: no snippet")
///     .with_note(None, "no position");
/// assert_eq!(render(&d, &sm), "\
/// a.mlir:2:1: error: redefinition of SSA value '%0'
///   --> a.mlir:2:1
///   |
/// 2 | %0 = \"test.a\"() : () -> i32
///   | ^
///
/// a.mlir:1:1: note: previously defined here
///   --> a.mlir:1:1
///   |
/// 1 | %0 = \"test.a\"() : () -> i32
///   | ^
///
/// other.mlir:3:4: note: not in the SourceMgr: no snippet
/// <unknown>:0: note: no position
/// ");
/// ```
///
/// Colors are used only when asked for ([`RenderOptions::color`]);
/// [`emit_to_stderr`] asks for them only when stderr is a terminal and
/// `NO_COLOR` is not set, so tests can FileCheck the output.
pub fn render(diag: &Diagnostic, sm: &SourceMgr) -> String {
    render_all(std::slice::from_ref(diag), sm)
}

/// Renders several diagnostics, in order, without color.
pub fn render_all(diags: &[Diagnostic], sm: &SourceMgr) -> String {
    render_with(diags, sm, &RenderOptions::default())
}

/// Renders several diagnostics with the given options.
pub fn render_with(diags: &[Diagnostic], sm: &SourceMgr, opts: &RenderOptions) -> String {
    let mut buf = if opts.color { Buffer::ansi() } else { Buffer::no_color() };
    // Writing into memory cannot fail.
    let _ = write_all(&mut buf, diags, sm, opts);
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}

/// Writes diagnostics to any termcolor writer.
pub fn write_all(w: &mut dyn WriteColor, diags: &[Diagnostic], sm: &SourceMgr, opts: &RenderOptions) -> io::Result<()> {
    for d in diags {
        write_block(w, d, sm, opts)?;
        for n in &d.notes {
            write_block(w, n, sm, opts)?;
        }
    }
    Ok(())
}

/// Whether output to stderr should be colored: stderr is a terminal and the
/// `NO_COLOR` environment variable is unset or empty.
pub fn stderr_wants_color() -> bool {
    use std::io::IsTerminal;
    io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Renders diagnostics to stderr with snippets, colored only when
/// [`stderr_wants_color`].
///
/// The text is rendered in memory and written with one call: stderr is
/// unbuffered, and codespan-reporting writes a snippet in many small pieces
/// (hundreds of remarks took thousands of system calls).
pub fn emit_to_stderr(diags: &[Diagnostic], sm: &SourceMgr) -> io::Result<()> {
    let color = stderr_wants_color();
    let mut buf = if color { Buffer::ansi() } else { Buffer::no_color() };
    write_all(&mut buf, diags, sm, &RenderOptions { color, short: false })?;
    let stderr = io::stderr();
    let mut lock = stderr.lock();
    lock.write_all(buf.as_slice())?;
    lock.flush()
}

fn cs_severity(s: Severity) -> cs::Severity {
    match s {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
        Severity::Remark => cs::Severity::Help,
    }
}

fn write_header(w: &mut dyn WriteColor, d: &Diagnostic, opts: &RenderOptions) -> io::Result<()> {
    match &d.pos {
        Some(p) => write!(w, "{p}: ")?,
        None => write!(w, "{UNKNOWN_POS}: ")?,
    }
    let styles = Styles::default();
    if opts.color {
        w.set_color(styles.header(cs_severity(d.severity)))?;
    }
    w.write_all(d.severity.as_str().as_bytes())?;
    if opts.color {
        w.set_color(&styles.header_message)?;
    }
    write!(w, ": {}", d.message)?;
    if opts.color {
        w.reset()?;
    }
    writeln!(w)
}

fn write_block(w: &mut dyn WriteColor, d: &Diagnostic, sm: &SourceMgr, opts: &RenderOptions) -> io::Result<()> {
    write_header(w, d, opts)?;
    if opts.short {
        return Ok(());
    }
    if let Some(body) = snippet(d, sm, opts.color) {
        w.write_all(&body)?;
    }
    Ok(())
}

/// The longest source line a snippet shows whole, in bytes; a longer one
/// is cut around the caret.
const MAX_LINE: usize = 160;

/// How much of a cut line is shown before the caret and after the
/// underlined part, in characters.
const CONTEXT_CHARS: usize = 60;

/// The longest underline shown in a cut line, in characters.
const MAX_UNDERLINE_CHARS: usize = 40;

/// What a cut line shows where text was left out.
const ELLIPSIS: &str = "...";

/// codespan's rich rendering of `d`'s position, minus codespan's own header
/// line (ours is written by `write_header`). A line longer than
/// [`MAX_LINE`] bytes is shown cut to [`CONTEXT_CHARS`] characters on either
/// side of the caret, with `...` where text was left out.
fn snippet(d: &Diagnostic, sm: &SourceMgr, color: bool) -> Option<Vec<u8>> {
    let pos = d.pos.as_ref()?;
    let id = sm.find(&pos.file)?;
    let line = sm.line_range(id, pos.line)?;
    let text = sm.text(id);
    // Inside the line as shown: a position at the end of a line whose
    // terminator is a `\r` (dropped from the line) is its end.
    let start = floor_char_boundary(text, sm.offset(id, pos.line, pos.col)?.clamp(line.start, line.end));
    let end = ceil_char_boundary(text, start.saturating_add(d.width as usize).min(line.end).max(start));
    let config = Config {
        chars: Chars::ascii(),
        ..Config::default()
    };
    let mut buf = if color { Buffer::ansi() } else { Buffer::no_color() };
    if line.len() > MAX_LINE {
        let cut = CutLine::new(sm, id, pos.line, line, start..end);
        let label = cs::Label::primary((), cut.label.clone());
        let diag = cs::Diagnostic::new(cs_severity(d.severity)).with_labels(vec![label]);
        term::emit(&mut buf, &config, &cut, &diag).ok()?;
    } else {
        let label = cs::Label::primary(id, start..end);
        let diag = cs::Diagnostic::new(cs_severity(d.severity)).with_labels(vec![label]);
        term::emit(&mut buf, &config, &CsFiles(sm), &diag).ok()?;
    }
    let bytes = buf.into_inner();
    let nl = bytes.iter().position(|&b| b == b'\n')?;
    Some(bytes[nl + 1..].to_vec())
}

/// A long source line cut around a label: the one-line "file" codespan
/// renders instead of the whole line, which keeps the line's number and the
/// label's real column.
struct CutLine<'a> {
    name: &'a str,
    line: u32,
    /// The part of the line shown, with `...` where text was left out and a
    /// line terminator.
    text: String,
    /// The label's bytes in `text`.
    label: Range<usize>,
    /// The column (1-based, bytes) of the line at which `text` starts,
    /// less the length of a leading `...`.
    col_base: usize,
    /// The length of a leading `...` (0 if the line is shown from its start).
    prefix: usize,
}

impl<'a> CutLine<'a> {
    /// Cuts `line` (a byte range of file `id`, without its terminator)
    /// around `label` (a byte range inside it, or at its end).
    fn new(sm: &'a SourceMgr, id: FileId, line_no: u32, line: Range<usize>, label: Range<usize>) -> Self {
        let text = &sm.text(id)[line.clone()];
        let (s, e) = (label.start - line.start, label.end - line.start);
        // Back CONTEXT_CHARS characters from the caret, forward from the
        // (shortened) underline.
        let from = text[..s]
            .char_indices()
            .rev()
            .nth(CONTEXT_CHARS - 1)
            .map_or(0, |(i, _)| i);
        let e = text[s..e]
            .char_indices()
            .nth(MAX_UNDERLINE_CHARS)
            .map_or(e, |(i, _)| s + i);
        let to = text[e..]
            .char_indices()
            .nth(CONTEXT_CHARS)
            .map_or(text.len(), |(i, _)| e + i);
        let prefix = if from > 0 { ELLIPSIS.len() } else { 0 };
        let mut shown = String::with_capacity(to - from + 2 * ELLIPSIS.len() + 1);
        if from > 0 {
            shown.push_str(ELLIPSIS);
        }
        shown.push_str(&text[from..to]);
        if to < text.len() {
            shown.push_str(ELLIPSIS);
        }
        shown.push('\n');
        CutLine {
            name: sm.name(id),
            line: line_no,
            text: shown,
            label: prefix + s - from..prefix + e - from,
            col_base: from + 1,
            prefix,
        }
    }
}

impl<'a> Files<'a> for CutLine<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), _byte_index: usize) -> Result<usize, FilesError> {
        Ok(self.line as usize - 1)
    }

    fn column_number(&'a self, (): (), _line_index: usize, byte_index: usize) -> Result<usize, FilesError> {
        Ok(byte_index.saturating_sub(self.prefix) + self.col_base)
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, FilesError> {
        if line_index + 1 == self.line as usize {
            Ok(0..self.text.len())
        } else {
            Err(FilesError::LineTooLarge {
                given: line_index,
                max: self.line as usize - 1,
            })
        }
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The view of a [`SourceMgr`] that codespan needs; columns are bytes.
struct CsFiles<'a>(&'a SourceMgr);

impl<'a> Files<'a> for CsFiles<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.0
            .contains(id)
            .then(|| &**self.0.name(id))
            .ok_or(FilesError::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.0
            .contains(id)
            .then(|| &**self.0.text(id))
            .ok_or(FilesError::FileMissing)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        if !self.0.contains(id) {
            return Err(FilesError::FileMissing);
        }
        Ok(self.0.line_col(id, byte_index).0 as usize - 1)
    }

    fn column_number(&'a self, id: FileId, line_index: usize, byte_index: usize) -> Result<usize, FilesError> {
        let r = self.line_range(id, line_index)?;
        Ok(byte_index.saturating_sub(r.start) + 1)
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        if !self.0.contains(id) {
            return Err(FilesError::FileMissing);
        }
        let max = self.0.line_count(id) as usize;
        let line = u32::try_from(line_index + 1).map_err(|_| FilesError::LineTooLarge { given: line_index, max })?;
        let r = self
            .0
            .line_range(id, line)
            .ok_or(FilesError::LineTooLarge { given: line_index, max })?;
        // codespan wants the line with its terminator.
        let text = self.0.text(id).as_bytes();
        let mut end = r.end;
        while end < text.len() && (text[end] == b'\r' || text[end] == b'\n') {
            end += 1;
            if text[end - 1] == b'\n' {
                break;
            }
        }
        Ok(r.start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourcePos;

    fn sm(name: &str, text: &str) -> SourceMgr {
        let mut sm = SourceMgr::new();
        sm.add(name, text);
        sm
    }

    #[test]
    fn caret_under_column() {
        let text = "func.func @f() {\n  %0 = \"test.a\"() : () -> i32\n  \"func.return\"(%0) : (i32) -> ()\n}\n";
        let sm = sm("a.mlir", text);
        let d = Diagnostic::error(
            SourcePos::new("a.mlir", 3, 3),
            "'func.return' op has 1 operands, but enclosing function (@f) returns 0",
        );
        assert_eq!(
            render(&d, &sm),
            "a.mlir:3:3: error: 'func.return' op has 1 operands, but enclosing function (@f) returns 0\n\
             \x20 --> a.mlir:3:3\n\
             \x20 |\n\
             3 |   \"func.return\"(%0) : (i32) -> ()\n\
             \x20 |   ^\n\
             \n"
        );
    }

    #[test]
    fn width_underlines_and_severities() {
        let sm = sm("w.mlir", "// expected-error @+1 {{has 1 operands}}\n");
        let d = Diagnostic::warning(
            SourcePos::new("w.mlir", 1, 4),
            "expected error \"has 1 operands\" was not produced",
        )
        .with_width(14);
        let out = render(&d, &sm);
        assert_eq!(
            out,
            "w.mlir:1:4: warning: expected error \"has 1 operands\" was not produced\n\
             \x20 --> w.mlir:1:4\n\
             \x20 |\n\
             1 | // expected-error @+1 {{has 1 operands}}\n\
             \x20 |    ^^^^^^^^^^^^^^\n\
             \n"
        );
        let r = render(&Diagnostic::remark(SourcePos::new("w.mlir", 1, 1), "r"), &sm);
        assert!(r.starts_with("w.mlir:1:1: remark: r\n"), "{r}");
        let n = render(&Diagnostic::note(SourcePos::new("w.mlir", 1, 1), "n"), &sm);
        assert!(n.starts_with("w.mlir:1:1: note: n\n"), "{n}");
    }

    #[test]
    fn position_past_a_line_that_ends_in_a_lone_cr() {
        // A file with `\r` line endings has one line (lines end at `\n`);
        // its trailing `\r` is not shown, and an error at the very end of
        // the buffer (past that `\r`) is drawn at the end of the line, long
        // line or not.
        for body in ["x = \"abc".to_string(), "y; ".repeat(2000) + "x = \"abc"] {
            let text = format!("module {{\r  {body}\r");
            let sm = sm("cr.mlir", &text);
            let col = text.len() as u32 + 1;
            let out = render(
                &Diagnostic::error(SourcePos::new("cr.mlir", 1, col), "expected '\"'"),
                &sm,
            );
            assert!(
                out.starts_with(&format!("cr.mlir:1:{col}: error: expected '\"'")),
                "{out}"
            );
            assert!(out.contains("x = \"abc"), "{out}");
        }
    }

    #[test]
    fn utf8_crlf_and_tabs() {
        // Column 14 (bytes) is `x` after "é€" (5 bytes, 2 chars): the caret
        // must be under `x`, one column per char in the rendered line.
        let sm = sm("u.mlir", "a\r\n\"test.é€\" x\r\n");
        let d = Diagnostic::error(SourcePos::new("u.mlir", 2, 14), "here");
        assert_eq!(
            render(&d, &sm),
            "u.mlir:2:14: error: here\n\
             \x20 --> u.mlir:2:14\n\
             \x20 |\n\
             2 | \"test.é€\" x\n\
             \x20 |           ^\n\
             \n"
        );
        // A column inside a multi-byte char, or past the end of the line, must
        // not panic.
        let out = render(
            &Diagnostic::error(SourcePos::new("u.mlir", 2, 8), "mid-char").with_width(2),
            &sm,
        );
        assert!(out.contains("u.mlir:2:8: error: mid-char"), "{out}");
        let out = render(
            &Diagnostic::error(SourcePos::new("u.mlir", 2, 99), "past end").with_width(5),
            &sm,
        );
        assert!(out.contains("2 | \"test.é€\" x\n"), "{out}");
        // Tabs are expanded; the caret follows.
        let sm = self::sm("t.mlir", "\tx\n");
        let out = render(&Diagnostic::error(SourcePos::new("t.mlir", 1, 2), "tab"), &sm);
        assert!(out.contains("1 |     x\n  |     ^\n"), "{out}");
    }

    #[test]
    fn unknown_file_line_or_position() {
        let sm = sm("a.mlir", "x\n");
        let d = Diagnostic::error(SourcePos::new("other.mlir", 3, 4), "elsewhere");
        assert_eq!(render(&d, &sm), "other.mlir:3:4: error: elsewhere\n");
        let d = Diagnostic::error(SourcePos::new("a.mlir", 30, 4), "no such line");
        assert_eq!(render(&d, &sm), "a.mlir:30:4: error: no such line\n");
        let d = Diagnostic::error(None, "nowhere").with_note(None, "n");
        assert_eq!(render(&d, &sm), "<unknown>:0: error: nowhere\n<unknown>:0: note: n\n");
        // The empty last line (after the final '\n') exists.
        let out = render(&Diagnostic::error(SourcePos::new("a.mlir", 2, 1), "eof"), &sm);
        assert!(out.starts_with("a.mlir:2:1: error: eof\n  --> a.mlir:2:1\n"), "{out}");
    }

    #[test]
    fn notes_with_snippets_and_many_lines() {
        let text: String = (1..=120).map(|i| format!("line {i}\n")).collect();
        let sm = sm("big.mlir", &text);
        let d = Diagnostic::error(SourcePos::new("big.mlir", 100, 6), "main")
            .with_note(SourcePos::new("big.mlir", 7, 1), "see here");
        assert_eq!(
            render(&d, &sm),
            "big.mlir:100:6: error: main\n\
             \x20   --> big.mlir:100:6\n\
             \x20   |\n\
             100 | line 100\n\
             \x20   |      ^\n\
             \n\
             big.mlir:7:1: note: see here\n\
             \x20 --> big.mlir:7:1\n\
             \x20 |\n\
             7 | line 7\n\
             \x20 | ^\n\
             \n"
        );
    }

    /// A line of 100k characters is shown cut around the caret, with its
    /// number and the real column, not echoed whole.
    #[test]
    fn long_lines_are_cut_around_the_caret() {
        let long = format!(
            "%x = \"t.a\"() {{v = {}é BAD {}}} : () -> ()\n",
            "a".repeat(50_000),
            "b".repeat(50_000)
        );
        let col = long.find("BAD").unwrap() as u32 + 1;
        let sm = sm("long.mlir", &format!("module {{\n{long}}}\n"));
        let d = Diagnostic::error(SourcePos::new("long.mlir", 2, col), "bad").with_width(3);
        let out = render(&d, &sm);
        let context = "a".repeat(CONTEXT_CHARS - 2);
        let after = "b".repeat(CONTEXT_CHARS - 1);
        assert_eq!(
            out,
            format!(
                "long.mlir:2:{col}: error: bad\n\
                 \x20 --> long.mlir:2:{col}\n\
                 \x20 |\n\
                 2 | ...{context}é BAD {after}...\n\
                 \x20 | {}^^^\n\
                 \n",
                " ".repeat(3 + CONTEXT_CHARS)
            )
        );
        // At the start and at the end of the line; a long underline is
        // shortened.
        let out = render(
            &Diagnostic::error(SourcePos::new("long.mlir", 2, 1), "start").with_width(99_999),
            &sm,
        );
        assert!(
            out.contains(&format!(
                "2 | %x = \"t.a\"() {{v = {}...\n",
                "a".repeat(MAX_UNDERLINE_CHARS + CONTEXT_CHARS - 18)
            )),
            "{out}"
        );
        assert!(
            out.contains(&format!("  | {}\n", "^".repeat(MAX_UNDERLINE_CHARS))),
            "{out}"
        );
        let end = long.len() as u32;
        let out = render(&Diagnostic::error(SourcePos::new("long.mlir", 2, end), "end"), &sm);
        assert!(out.contains(&format!("--> long.mlir:2:{end}\n")), "{out}");
        assert!(
            out.contains(&format!("2 | ...{}}} : () -> ()\n", "b".repeat(CONTEXT_CHARS - 12))),
            "{out}"
        );
        assert!(out.len() < 600, "{out}");
    }

    #[test]
    fn short_and_color() {
        let sm = sm("a.mlir", "x\n");
        let d = Diagnostic::error(SourcePos::new("a.mlir", 1, 1), "m").with_note(None, "n");
        let short = render_with(
            std::slice::from_ref(&d),
            &sm,
            &RenderOptions {
                color: false,
                short: true,
            },
        );
        assert_eq!(short, "a.mlir:1:1: error: m\n<unknown>:0: note: n\n");
        assert_eq!(short.trim_end(), d.to_string());
        let colored = render_with(
            std::slice::from_ref(&d),
            &sm,
            &RenderOptions {
                color: true,
                short: false,
            },
        );
        assert!(colored.contains("\x1b["), "{colored:?}");
        assert!(!render(&d, &sm).contains('\x1b'));
    }
}
