//! A pattern compiled to a regex: its pieces (literal text, `{{regex}}`, variable
//! definitions and uses, numeric blocks), the regex text built from them, and the
//! FileCheck-style regex text the fuzzy matcher compares with.

use std::cell::RefCell;

use super::numeric::NumBlock;
use super::pattern::{Loc, MatchError};

/// A piece of a regex pattern.
#[derive(Debug, Clone)]
pub(crate) enum Piece {
    /// Text to match literally.
    Literal(String),
    /// A user regex (from `{{...}}`), already translated.
    Regex { re: String, orig: String },
    /// `[[NAME:regex]]`: captures into group `group`.
    Def {
        name: String,
        group: String,
        regex: String,
        orig: String,
    },
    /// `[[NAME]]` of a variable defined on an earlier line.
    Use { name: String, loc: Loc },
    /// `[[NAME]]` of a variable defined earlier on the same line: a backreference.
    Backref { group: String },
    /// `[[#...]]` or `[[@LINE...]]`.
    Num {
        block: NumBlock,
        group: Option<String>,
        loc: Loc,
        raw: String,
    },
}

#[derive(Debug, Clone)]
pub(crate) struct Template {
    pub pieces: Vec<Piece>,
    pub full_lines: bool,
    pub strict: bool,
    pub ignore_case: bool,
    /// Needs backreferences (fancy-regex).
    pub fancy: bool,
    /// Compiled once when the regex does not depend on variable values.
    pub fixed: Option<Compiled>,
    /// Last compiled regex for variable-dependent patterns.
    pub cache: RefCell<Option<(String, Compiled)>>,
}

#[derive(Debug, Clone)]
pub(crate) enum Compiled {
    Std(regex::Regex),
    Fancy(Box<fancy_regex::Regex>),
}

/// The capture group a piece defines, if any.
pub(crate) fn group_of(p: &Piece) -> Option<&str> {
    match p {
        Piece::Def { group, .. } => Some(group),
        Piece::Num { group: Some(g), .. } => Some(g),
        _ => None,
    }
}

impl Template {
    /// Builds the regex text; `dynamic` renders `Use` pieces and numeric expressions.
    pub fn render(&self, dynamic: &mut dyn FnMut(&Piece) -> Result<String, MatchError>) -> Result<String, MatchError> {
        let mut s = String::from("(?m)");
        if self.ignore_case {
            s.push_str("(?i)");
        }
        if self.full_lines {
            s.push('^');
            if !self.strict {
                s.push_str(" *");
            }
        }
        for p in &self.pieces {
            match p {
                Piece::Literal(l) => s.push_str(&regex_escape(l, self.fancy)),
                Piece::Regex { re: r, .. } => {
                    s.push_str("(?:");
                    s.push_str(r);
                    s.push(')');
                }
                Piece::Def { group, regex, .. } => {
                    s.push_str(&format!("(?P<{group}>{regex})"));
                }
                Piece::Backref { group } => s.push_str(&format!("\\k<{group}>")),
                Piece::Use { .. } => {
                    s.push_str("(?:");
                    s.push_str(&dynamic(p)?);
                    s.push(')');
                }
                Piece::Num { block, group, .. } => {
                    let inner = match &block.expr {
                        None => block.format.unwrap_or_default().wildcard(),
                        Some(_) => dynamic(p)?,
                    };
                    match group {
                        Some(g) => s.push_str(&format!("(?P<{g}>{inner})")),
                        None => {
                            s.push_str("(?:");
                            s.push_str(&inner);
                            s.push(')');
                        }
                    }
                }
            }
        }
        if self.full_lines {
            if !self.strict {
                s.push_str(" *");
            }
            s.push('$');
        }
        Ok(s)
    }
}

impl Template {
    /// The regex as FileCheck would have written it (POSIX style, no substitutions), which
    /// its fuzzy matcher compares with the input.
    pub fn example(&self) -> String {
        let mut s = String::new();
        if self.full_lines {
            s.push_str(if self.strict { "^" } else { "^ *" });
        }
        let mut group = 0;
        for p in &self.pieces {
            match p {
                Piece::Literal(l) => {
                    for c in l.chars() {
                        if "()^$|*+?.[]\\{}".contains(c) {
                            s.push('\\');
                        }
                        s.push(c);
                    }
                }
                Piece::Regex { orig, .. } | Piece::Def { orig, .. } => {
                    group += 1;
                    s.push('(');
                    s.push_str(orig);
                    s.push(')');
                }
                Piece::Backref { .. } => s.push_str(&format!("\\{}", group.max(1))),
                Piece::Num { block, group: g, .. } => {
                    if g.is_some() && block.expr.is_none() {
                        group += 1;
                        s.push('(');
                        s.push_str(&block.format.unwrap_or_default().wildcard());
                        s.push(')');
                    }
                }
                Piece::Use { .. } => {}
            }
        }
        if self.full_lines {
            s.push_str(if self.strict { "$" } else { " *$" });
        }
        s
    }
}

/// Escapes `s` for the regex engine in use.
pub(crate) fn regex_escape(s: &str, fancy: bool) -> String {
    if fancy {
        fancy_regex::escape(s).into_owned()
    } else {
        regex::escape(s)
    }
}

/// Compiles a regex with `regex`, or with `fancy-regex` when it has backreferences.
pub(crate) fn compile(text: &str, fancy: bool) -> Result<Compiled, String> {
    if fancy {
        fancy_regex::Regex::new(text)
            .map(|r| Compiled::Fancy(Box::new(r)))
            .map_err(|e| e.to_string())
    } else {
        regex::Regex::new(text).map(Compiled::Std).map_err(|e| e.to_string())
    }
}
