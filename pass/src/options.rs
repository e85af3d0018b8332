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
            OptionKind::Enum(words) => words
                .iter()
                .map(|w| if w.is_empty() { "\"\"" } else { w })
                .collect::<Vec<_>>()
                .join("|"),
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
                if s.is_empty() || needs_quotes(s, true) {
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

/// Whether a string value must be quoted to read back: it holds
/// whitespace or a quote, starts with `{` (braces around a value are
/// dropped), has unbalanced braces, or, as a list element (`in_list`), a
/// comma outside braces.
fn needs_quotes(s: &str, in_list: bool) -> bool {
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return true,
            '}' => depth -= 1,
            ',' if in_list && depth == 0 => return true,
            c if c.is_whitespace() || c == '"' => return true,
            _ => {}
        }
    }
    depth != 0 || s.starts_with('{')
}

impl OptionValue {
    /// The value as MLIR prints it in a pipeline (`{a,b}` for a list, an
    /// empty string as nothing), quoted only where it would not read back.
    fn write_mlir(&self, out: &mut String, in_list: bool) {
        match self {
            OptionValue::Str(s) if needs_quotes(s, in_list) || (in_list && s.is_empty()) => {
                out.push('"');
                out.push_str(s);
                out.push('"');
            }
            OptionValue::Str(s) => out.push_str(s),
            OptionValue::List(items) => {
                out.push('{');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write_mlir(out, true);
                }
                out.push('}');
            }
            v => out.push_str(&v.to_string()),
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

impl PassOptions {
    /// The options as MLIR prints them in a pipeline (`{a=1 b=true}`,
    /// nothing when the pass has none): sorted by name, separated by one
    /// space each, a list as `name={a,b}` and an empty list as nothing (its
    /// space stays: `canonicalize{  max-iterations=10 ...}`), an empty
    /// string as `name=`. The options named in `lf_options` (those lf adds
    /// to an MLIR pass) are left out while at their default. Pasted back
    /// into a pipeline, the text gives the same options.
    pub fn to_mlir_string(&self, lf_options: &[&str]) -> String {
        let mut shown: Vec<(&PassOption, &OptionValue)> = self
            .info
            .options
            .iter()
            .zip(&self.values)
            .enumerate()
            .filter(|(i, (o, _))| !lf_options.contains(&o.name) || self.differs_from_default(*i))
            .map(|(_, ov)| ov)
            .collect();
        if shown.is_empty() {
            return String::new();
        }
        shown.sort_by(|a, b| a.0.name.cmp(b.0.name));
        let mut out = String::from("{");
        for (i, (o, v)) in shown.into_iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            // As MLIR, an empty list prints nothing; where that would read
            // back as a default that is not empty, it is `name={}`.
            if matches!(v, OptionValue::List(items) if items.is_empty()) {
                if o.default.is_empty() || o.default == "\"\"" {
                    continue;
                }
                out.push_str(o.name);
                out.push_str("={}");
                continue;
            }
            out.push_str(o.name);
            out.push('=');
            v.write_mlir(&mut out, false);
        }
        out.push('}');
        out
    }

    /// Whether option number `i` holds other than its declared default.
    fn differs_from_default(&self, i: usize) -> bool {
        let decl = &self.info.options[i];
        decl.kind.parse(decl.default).map_or(true, |d| d != self.values[i])
    }
}

impl fmt::Display for PassOptions {
    /// [`PassOptions::to_mlir_string`] with every option.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_mlir_string(&[]))
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
