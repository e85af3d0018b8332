//! What a directive asks for: its kind (`CHECK`, `CHECK-NEXT`, ...), `-COUNT-N` and
//! `{LITERAL}`, and how FileCheck names it in messages and dumps.

/// What a directive asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum CheckKind {
    /// `CHECK:` (and `CHECK-COUNT-N:`)
    Plain,
    /// `CHECK-NEXT:`
    Next,
    /// `CHECK-SAME:`
    Same,
    /// `CHECK-NOT:`
    Not,
    /// `CHECK-DAG:`
    Dag,
    /// `CHECK-LABEL:`
    Label,
    /// `CHECK-EMPTY:`
    Empty,
    /// The implicit end-of-input check that carries trailing DAG/NOT directives.
    Eof,
}

/// A directive's kind with its count and modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CheckType {
    pub kind: CheckKind,
    /// `N` of `-COUNT-N` (1 otherwise).
    pub count: usize,
    /// `{LITERAL}` modifier.
    pub literal: bool,
}

impl CheckType {
    /// A plain type of `kind` without count or modifiers.
    pub fn new(kind: CheckKind) -> Self {
        CheckType {
            kind,
            count: 1,
            literal: false,
        }
    }

    /// The directive's name as FileCheck prints it: `CHECK-NEXT`, `CHECK-COUNT`, ...
    pub fn describe(&self, prefix: &str) -> String {
        let suffix = match self.kind {
            CheckKind::Plain if self.count > 1 => "-COUNT",
            CheckKind::Plain => "",
            CheckKind::Next => "-NEXT",
            CheckKind::Same => "-SAME",
            CheckKind::Not => "-NOT",
            CheckKind::Dag => "-DAG",
            CheckKind::Label => "-LABEL",
            CheckKind::Empty => "-EMPTY",
            CheckKind::Eof => return "implicit EOF".to_string(),
        };
        let modifiers = if self.literal { "{LITERAL}" } else { "" };
        format!("{prefix}{suffix}{modifiers}")
    }

    /// The short name used to label input-dump annotations.
    pub fn abbrev(&self) -> &'static str {
        match self.kind {
            CheckKind::Plain if self.count > 1 => "count",
            CheckKind::Plain => "check",
            CheckKind::Next => "next",
            CheckKind::Same => "same",
            CheckKind::Not => "not",
            CheckKind::Dag => "dag",
            CheckKind::Label => "label",
            CheckKind::Empty => "empty",
            CheckKind::Eof => "eof",
        }
    }
}
