//! Typed pass options: declarations ([`PassOption`]), values ([`OptionValue`])
//! and the parsed set of one pass instance ([`PassOptions`]).
//!
//! Syntax (inside `pass{...}` in a pipeline, or `--pass=...`-style flags):
//! `name=value` pairs separated by spaces; a bool may be given bare (`name`
//! means `name=true`); list elements are separated by commas (`ids=1,2,3`);
//! a string with spaces or `,{}=` is written in double quotes.

use crate::pass::PassInfo;
use std::fmt;

/// The type of an option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A signed 64-bit integer.
    Int,
    /// A non-negative integer.
    UInt,
    /// `true`/`false` (also `1`/`0`); bare `name` means true.
    Bool,
    /// Any text.
    String,
    /// One of a fixed set of words.
    Enum(&'static [&'static str]),
    /// A comma-separated list of elements of a kind.
    List(&'static OptionKind),
}

impl OptionKind {
    /// The kind as shown in `--list-passes` (`int`, `list<string>`, `normal|aggressive`).
    pub fn describe(&self) -> String {
        match self {
            OptionKind::Int => "int".into(),
            OptionKind::UInt => "uint".into(),
            OptionKind::Bool => "bool".into(),
            OptionKind::String => "string".into(),
            OptionKind::Enum(words) => words.join("|"),
            OptionKind::List(k) => format!("list<{}>", k.describe()),
        }
    }

    /// Parses `text` as a value of this kind.
    pub fn parse(&self, text: &str) -> Result<OptionValue, String> {
        match self {
            OptionKind::Int => text
                .parse::<i64>()
                .map(OptionValue::Int)
                .map_err(|_| format!("expected an integer, found '{text}'")),
            OptionKind::UInt => text
                .parse::<u64>()
                .ok()
                .and_then(|v| i64::try_from(v).ok())
                .map(OptionValue::Int)
                .ok_or_else(|| format!("expected a non-negative integer, found '{text}'")),
            OptionKind::Bool => match text {
                "true" | "1" => Ok(OptionValue::Bool(true)),
                "false" | "0" => Ok(OptionValue::Bool(false)),
                _ => Err(format!("expected 'true' or 'false', found '{text}'")),
            },
            OptionKind::String => Ok(OptionValue::Str(unquote(text).to_string())),
            OptionKind::Enum(words) => match words.iter().find(|w| **w == text) {
                Some(w) => Ok(OptionValue::Enum(w)),
                None => Err(format!("expected one of {}, found '{text}'", quoted_list(words))),
            },
            OptionKind::List(elem) => {
                if text.is_empty() || text == "\"\"" {
                    return Ok(OptionValue::List(Vec::new()));
                }
                split_list(text)
                    .into_iter()
                    .map(|e| elem.parse(e.trim()))
                    .collect::<Result<Vec<_>, _>>()
                    .map(OptionValue::List)
            }
        }
    }
}

fn quoted_list(words: &[&str]) -> String {
    words.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(", ")
}

/// Removes one level of double quotes.
fn unquote(text: &str) -> &str {
    if text.len() >= 2 && text.starts_with('"') && text.ends_with('"') {
        &text[1..text.len() - 1]
    } else {
        text
    }
}

/// Splits a list value at commas outside quotes and braces.
fn split_list(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quoted, mut start) = (0i32, false, 0);
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '{' if !quoted => depth += 1,
            '}' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// A value of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// An `int` or `uint` value.
    Int(i64),
    /// A `bool` value.
    Bool(bool),
    /// A `string` value.
    Str(String),
    /// An `enum` value (one of the declared words).
    Enum(&'static str),
    /// A list.
    List(Vec<OptionValue>),
}

impl fmt::Display for OptionValue {
    /// Prints the value so that [`OptionKind::parse`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Int(v) => write!(f, "{v}"),
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Str(s) => {
                if s.is_empty() || s.contains(|c: char| c.is_whitespace() || ",{}=\"".contains(c)) {
                    write!(f, "\"{s}\"")
                } else {
                    f.write_str(s)
                }
            }
            OptionValue::Enum(w) => f.write_str(w),
            OptionValue::List(items) => {
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                Ok(())
            }
        }
    }
}

/// The declaration of one option of a pass.
#[derive(Debug)]
pub struct PassOption {
    /// Name (`max-iterations`).
    pub name: &'static str,
    /// Type.
    pub kind: OptionKind,
    /// Default value, in the option syntax (`""` is the empty list/string).
    pub default: &'static str,
    /// One-line help.
    pub help: &'static str,
}

/// Why setting an option failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// The pass has no option of that name; the nearest declared name, if close.
    Unknown {
        /// The closest option name.
        suggestion: Option<&'static str>,
    },
    /// The value does not parse as the option's type.
    BadValue(String),
}

/// The options of one pass instance: every declared option with its value
/// (defaults filled in), in declaration order.
#[derive(Clone, Debug)]
pub struct PassOptions {
    info: &'static PassInfo,
    values: Vec<OptionValue>,
    explicit: Vec<bool>,
}

impl PassOptions {
    /// The defaults of a pass's options.
    pub fn defaults(info: &'static PassInfo) -> Result<PassOptions, String> {
        let values = info
            .options
            .iter()
            .map(|o| o.kind.parse(o.default).map_err(|e| format!("option '{}': {e}", o.name)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PassOptions {
            info,
            explicit: vec![false; values.len()],
            values,
        })
    }

    /// The pass these options belong to.
    pub fn info(&self) -> &'static PassInfo {
        self.info
    }

    /// Sets option `name` from its text; `value` is `None` for a bare name
    /// (allowed for bools only).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let Some(i) = self.info.options.iter().position(|o| o.name == name) else {
            let names = self.info.options.iter().map(|o| o.name);
            return Err(OptionError::Unknown {
                suggestion: crate::suggest::nearest(name, names),
            });
        };
        let decl = &self.info.options[i];
        let v = match (value, decl.kind) {
            (None, OptionKind::Bool) => OptionValue::Bool(true),
            (None, k) => {
                return Err(OptionError::BadValue(format!(
                    "option '{name}' needs a value ({}): write {name}=VALUE",
                    k.describe()
                )))
            }
            (Some(t), k) => k.parse(t).map_err(OptionError::BadValue)?,
        };
        self.values[i] = v;
        self.explicit[i] = true;
        Ok(())
    }

    fn value(&self, name: &str) -> &OptionValue {
        match self.info.options.iter().position(|o| o.name == name) {
            Some(i) => &self.values[i],
            None => panic!("pass '{}' declares no option '{name}'", self.info.name),
        }
    }

    /// The value of an `int`/`uint` option.
    ///
    /// # Panics
    /// If the pass declares no such option of that type (a bug in the pass).
    pub fn int(&self, name: &str) -> i64 {
        match self.value(name) {
            OptionValue::Int(v) => *v,
            v => panic!("option '{name}' is not an integer: {v:?}"),
        }
    }

    /// The value of a `bool` option (panics like [`PassOptions::int`]).
    pub fn bool(&self, name: &str) -> bool {
        match self.value(name) {
            OptionValue::Bool(v) => *v,
            v => panic!("option '{name}' is not a bool: {v:?}"),
        }
    }

    /// The value of a `string` or enum option (panics like [`PassOptions::int`]).
    pub fn str(&self, name: &str) -> &str {
        match self.value(name) {
            OptionValue::Str(v) => v,
            OptionValue::Enum(v) => v,
            v => panic!("option '{name}' is not a string: {v:?}"),
        }
    }

    /// The elements of a list option (panics like [`PassOptions::int`]).
    pub fn list(&self, name: &str) -> &[OptionValue] {
        match self.value(name) {
            OptionValue::List(v) => v,
            v => panic!("option '{name}' is not a list: {v:?}"),
        }
    }

    /// The elements of a `list<string>` option, as text.
    pub fn strings(&self, name: &str) -> Vec<String> {
        self.list(name).iter().map(|v| v.to_string()).collect()
    }

    /// Whether option `name` was given explicitly (not left at its default).
    pub fn is_explicit(&self, name: &str) -> bool {
        self.info
            .options
            .iter()
            .position(|o| o.name == name)
            .is_some_and(|i| self.explicit[i])
    }
}

impl fmt::Display for PassOptions {
    /// `{a=1 b=true}` with every option (nothing when the pass has none), so
    /// that the text pasted back gives the same pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.values.is_empty() {
            return Ok(());
        }
        f.write_str("{")?;
        for (i, (o, v)) in self.info.options.iter().zip(&self.values).enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}={v}", o.name)?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_and_print_back() {
        let k = OptionKind::List(&OptionKind::Int);
        let v = k.parse("1,-2,3").unwrap();
        assert_eq!(v.to_string(), "1,-2,3");
        assert_eq!(k.parse("").unwrap(), OptionValue::List(vec![]));
        assert!(k.parse("1,x").unwrap_err().contains("expected an integer, found 'x'"));
        assert!(OptionKind::UInt.parse("-1").is_err());
        let e = OptionKind::Enum(&["normal", "aggressive"]);
        assert_eq!(e.parse("aggressive").unwrap(), OptionValue::Enum("aggressive"));
        assert_eq!(
            e.parse("fast").unwrap_err(),
            "expected one of 'normal', 'aggressive', found 'fast'"
        );
        let s = OptionKind::String.parse("\"a b\"").unwrap();
        assert_eq!(s, OptionValue::Str("a b".into()));
        assert_eq!(s.to_string(), "\"a b\"");
        assert_eq!(OptionKind::Bool.parse("0").unwrap(), OptionValue::Bool(false));
    }
}
