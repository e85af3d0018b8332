//! The diagnostic value type: severity, message, position and notes.

use std::fmt;
use std::sync::Arc;

/// How bad a diagnostic is. The order is MLIR's: `Note < Warning < Error`,
/// with `Remark` the mildest.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Severity {
    /// `remark:` informational output requested by the user (e.g. a pass's
    /// decisions).
    Remark,
    /// `note:` extra information attached to another diagnostic.
    Note,
    /// `warning:` something suspicious that does not stop compilation.
    Warning,
    /// `error:` the input is invalid or the transformation failed.
    Error,
}

impl Severity {
    /// The lowercase word used in rendered output and in `expected-*`
    /// comments: `error`, `warning`, `note` or `remark`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }

    /// Parses the word produced by [`Severity::as_str`].
    pub fn from_word(word: &str) -> Option<Severity> {
        Some(match word {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            "note" => Severity::Note,
            "remark" => Severity::Remark,
            _ => return None,
        })
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `file:line:col` position; line and column are 1-based, and the column
/// counts bytes (as in MLIR's `FileLineColLoc`).
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct SourcePos {
    /// The buffer's name, as given to [`crate::SourceMgr::add`] or written in
    /// a `loc("file":line:col)`.
    pub file: Arc<str>,
    /// 1-based line.
    pub line: u32,
    /// 1-based byte column.
    pub col: u32,
}

impl SourcePos {
    /// A position in `file`.
    pub fn new(file: impl Into<Arc<str>>, line: u32, col: u32) -> SourcePos {
        SourcePos {
            file: file.into(),
            line,
            col,
        }
    }
}

/// `file:line:col`.
impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// What the renderer prints where a diagnostic has no position (it is also
/// what mlir-opt prints for `loc(unknown)`).
pub const UNKNOWN_POS: &str = "<unknown>:0";

/// One diagnostic with its notes.
///
/// ```
/// use lf_diag::{Diagnostic, Severity, SourcePos};
/// let d = Diagnostic::error(SourcePos::new("a.mlir", 3, 5), "redefinition of SSA value '%0'")
///     .with_note(SourcePos::new("a.mlir", 2, 5), "previously defined here");
/// assert_eq!(d.severity, Severity::Error);
/// assert_eq!(d.notes[0].severity, Severity::Note);
/// assert_eq!(d.to_string(), "a.mlir:3:5: error: redefinition of SSA value '%0'\n\
///                            a.mlir:2:5: note: previously defined here");
/// // No position: pass `None` (or `Option<SourcePos>`).
/// let d = Diagnostic::warning(None, "unused");
/// assert_eq!(d.to_string(), "<unknown>:0: warning: unused");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// The message, without position or severity.
    pub message: String,
    /// Where it points; `None` for an unknown location.
    pub pos: Option<SourcePos>,
    /// How many bytes from `pos` the snippet underlines; 0 (the default) draws
    /// a single caret.
    pub width: u32,
    /// Attached notes (their own `notes` are normally empty).
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    /// A diagnostic without notes.
    pub fn new(severity: Severity, pos: impl Into<Option<SourcePos>>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            message: message.into(),
            pos: pos.into(),
            width: 0,
            notes: Vec::new(),
        }
    }

    /// An error.
    pub fn error(pos: impl Into<Option<SourcePos>>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, pos, message)
    }

    /// A warning.
    pub fn warning(pos: impl Into<Option<SourcePos>>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, pos, message)
    }

    /// A note (usually attached to another diagnostic with
    /// [`Diagnostic::with_note`]).
    pub fn note(pos: impl Into<Option<SourcePos>>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Note, pos, message)
    }

    /// A remark.
    pub fn remark(pos: impl Into<Option<SourcePos>>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Remark, pos, message)
    }

    /// Attaches a note.
    pub fn with_note(mut self, pos: impl Into<Option<SourcePos>>, message: impl Into<String>) -> Diagnostic {
        self.notes.push(Diagnostic::note(pos, message));
        self
    }

    /// Attaches a note in place.
    pub fn add_note(&mut self, pos: impl Into<Option<SourcePos>>, message: impl Into<String>) -> &mut Diagnostic {
        self.notes.push(Diagnostic::note(pos, message));
        self
    }

    /// Sets how many bytes the snippet underlines.
    pub fn with_width(mut self, width: u32) -> Diagnostic {
        self.width = width;
        self
    }

    /// True for [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The header line: `file:line:col: severity: message`, or
    /// `<unknown>:0: severity: message` without a position.
    pub fn header(&self) -> String {
        match &self.pos {
            Some(p) => format!("{p}: {}: {}", self.severity, self.message),
            None => format!("{UNKNOWN_POS}: {}: {}", self.severity, self.message),
        }
    }
}

/// The header line of the diagnostic and of each note, one per line, without
/// source snippets (the short form; see [`crate::render()`] for snippets).
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.header())?;
        for n in &self.notes {
            write!(f, "\n{n}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders() {
        let p = SourcePos::new("f", 1, 2);
        let d = Diagnostic::remark(p.clone(), "r").with_note(None, "n").with_width(3);
        assert_eq!(d.severity, Severity::Remark);
        assert_eq!(d.pos, Some(p.clone()));
        assert_eq!(d.width, 3);
        assert_eq!(d.notes, vec![Diagnostic::note(None, "n")]);
        assert!(!d.is_error());
        let mut e = Diagnostic::error(Some(p), "e");
        e.add_note(SourcePos::new("g", 4, 5), "m");
        assert!(e.is_error());
        assert_eq!(e.to_string(), "f:1:2: error: e\ng:4:5: note: m");
        assert_eq!(d.to_string(), "f:1:2: remark: r\n<unknown>:0: note: n");
    }

    #[test]
    fn severity_words() {
        for s in [Severity::Error, Severity::Warning, Severity::Note, Severity::Remark] {
            assert_eq!(Severity::from_word(s.as_str()), Some(s));
        }
        assert_eq!(Severity::from_word("fatal"), None);
        assert!(Severity::Error > Severity::Warning && Severity::Warning > Severity::Note);
    }

    #[test]
    fn thread_safe() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Diagnostic>();
        assert_send_sync::<crate::SourceMgr>();
        assert_send_sync::<crate::DiagEngine>();
    }
}
