//! The variables defined while matching: string variables (`[[NAME:regex]]`, `-DNAME=V`)
//! and numeric ones (`[[#NAME:]]`, `-D#NAME=V`).

use std::collections::HashMap;

use super::numeric::NumFormat;

/// The variables known while matching.
#[derive(Debug, Default, Clone)]
pub(crate) struct Vars {
    strings: HashMap<String, String>,
    numbers: HashMap<String, (i128, NumFormat)>,
}

impl Vars {
    /// Defines string variable `name`.
    pub fn set_string(&mut self, name: &str, value: String) {
        self.strings.insert(name.to_string(), value);
    }

    /// Defines numeric variable `name`.
    pub fn set_number(&mut self, name: &str, value: i128, format: NumFormat) {
        self.numbers.insert(name.to_string(), (value, format));
    }

    /// The value of string variable `name`.
    pub fn string(&self, name: &str) -> Option<&str> {
        self.strings.get(name).map(String::as_str)
    }

    /// The value and format of numeric variable `name`.
    pub fn number(&self, name: &str) -> Option<(i128, NumFormat)> {
        self.numbers.get(name).copied()
    }

    /// Forgets every variable whose name does not start with `$` (`--enable-var-scope`).
    pub fn clear_locals(&mut self) {
        self.strings.retain(|k, _| k.starts_with('$'));
        self.numbers.retain(|k, _| k.starts_with('$'));
    }
}
