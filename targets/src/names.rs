//! C identifiers for SSA values, taken from the names the IR printer gives
//! them (`%arg0` -> `arg0`, `%thread_id_x` -> `thread_id_x`, `%3` -> `v3`).

use lf_ir::printer::Names;
use lf_ir::{Body, Context, OpId, Value};

/// Names of the values of one function.
pub struct ValueNames<'a> {
    names: Names,
    body: &'a Body,
}

const RESERVED: &[&str] = &[
    "auto", "bool", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "int", "long", "register", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "half", "kernel", "global", "local",
    "constant", "private", "main", "new", "delete", "class", "this", "true", "false",
];

impl<'a> ValueNames<'a> {
    /// Names the values of function `op` stored in `parent`.
    pub fn new(ctx: &Context, parent: &'a Body, op: OpId) -> ValueNames<'a> {
        ValueNames {
            names: Names::compute(Some(ctx), parent, op, false),
            body: parent.regions_body(op),
        }
    }

    /// The C identifier of `v`.
    pub fn get(&self, v: Value) -> String {
        let mut s = String::new();
        self.names.write_value(&mut s, self.body, v);
        let raw = s.trim_start_matches('%').replace('#', "_");
        let mut out: String = raw
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
            .collect();
        if out.chars().next().is_none_or(|c| c.is_ascii_digit()) {
            out.insert(0, 'v');
        }
        if RESERVED.contains(&out.as_str()) || out.starts_with("lf_") || out.starts_with("__") {
            out.insert_str(0, "v_");
        }
        out
    }
}
