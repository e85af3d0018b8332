//! Passes, analyses, the interpreter and the emitters read ops through the
//! typed views generated from the op declarations, never by name: this test
//! fails when a string lookup of an op, a property, an operand group or a
//! dialect attribute appears outside the declarations, the parser and the
//! printer.
//!
//! What counts as a lookup, in the code (comments and doc comments are
//! skipped) of every crate's `src/`:
//!
//! - a string literal that is the name of a registered op (`"affine.for"`);
//! - `prop(..., "name")`, `operand_group(..., "name")` or
//!   `discardable_attr(..., "name")` with a string literal;
//! - `op_name("...")` (interning an op name from a literal);
//! - `op_name_str(...)` compared with, or matched against, a literal.
//!
//! Allowed: the op declarations with their syntax and verifiers
//! (`dialects/src/<dialect>/ir/mod.rs`, `ir/src/builtin.rs`), the generated
//! views, the declaration machinery (`ir/src/ods/`), the parser and the
//! printer (`ir/src/parser/`, `ir/src/printer/`), unit-test modules
//! (`tests.rs`, which check printed text), and the anchors of passes and
//! pipelines (`Anchor::Op("func.func")`, `pipeline_from_flags(ctx,
//! "builtin.module", ...)`), which are op names by nature: a pipeline is
//! text (`builtin.module(func.func(cse))`).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The source directories scanned.
const SCANNED: &[&str] = &[
    "ir/src",
    "pass/src",
    "dialects/src",
    "transforms/src",
    "interp/src",
    "devices/src",
    "targets/src",
    "tools/src",
];

/// Whether a file (path relative to the repository) may name ops and attributes.
fn allowed(rel: &str) -> bool {
    let declaration = rel.starts_with("dialects/src/") && rel.ends_with("/ir/mod.rs");
    declaration
        || rel.ends_with("/ir/views.rs")
        || rel == "ir/src/builtin.rs"
        || rel.starts_with("ir/src/ods/")
        || rel.starts_with("ir/src/parser/")
        || rel.starts_with("ir/src/printer/")
        || rel.ends_with("/tests.rs")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a line: without a `//` comment (outside string literals).
fn code_of(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut in_str = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'/' if !in_str && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
        i += 1;
    }
    line
}

/// The string literals of a line of code.
fn literals(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut start = None;
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], start) {
            (b'\\', Some(_)) => i += 1,
            (b'"', None) => start = Some(i + 1),
            (b'"', Some(s)) => {
                out.push(&code[s..i]);
                start = None;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn op_names() -> Vec<String> {
    let ctx = lf_ir::Context::new();
    lf_dialects::register_all(&ctx);
    ctx.registered_ops().iter().map(|d| d.name.to_string()).collect()
}

/// The lookups in one file's text, as `line: text` items.
fn lookups(text: &str, ops: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = code_of(line);
        let anchors = ["Anchor::Op(", "pipeline_from_flags(", "OpPassManager::new("];
        if code.trim().is_empty() || anchors.iter().any(|a| code.contains(a)) {
            continue;
        }
        let lits = literals(code);
        let op_literal = lits.iter().any(|l| ops.iter().any(|o| o == l));
        let with_literal = |call: &str| code.contains(call) && code[code.find(call).unwrap_or(0)..].contains('"');
        let keyed = ["prop(", "operand_group(", "discardable_attr(", "op_name(\""]
            .iter()
            .any(|c| with_literal(c));
        let compared = code.contains("op_name_str(")
            && ["== \"", "!= \"", "with(\"", "strip_prefix(\"", "strip_suffix(\""]
                .iter()
                .any(|c| code.contains(c));
        if op_literal || keyed || compared {
            found.push(format!("{}: {}", n + 1, line.trim()));
        }
    }
    found
}

#[test]
fn no_op_or_attribute_name_lookups_outside_the_declarations() {
    let ops = op_names();
    assert!(ops.len() > 100, "the dialects register their ops");
    let mut bad = Vec::new();
    for dir in SCANNED {
        let mut files = Vec::new();
        rust_files(&root().join(dir), &mut files);
        for f in files {
            let rel = f
                .strip_prefix(root())
                .unwrap_or(&f)
                .to_string_lossy()
                .replace('\\', "/");
            if allowed(&rel) {
                continue;
            }
            let text = std::fs::read_to_string(&f).expect("source file");
            for l in lookups(&text, &ops) {
                bad.push(format!("{rel}:{l}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "string lookups of ops or attributes outside the declarations ({}); use the typed views:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_check_finds_each_kind_of_lookup() {
    let ops = vec!["affine.for".to_string(), "arith.addi".to_string()];
    for (src, hits) in [
        ("if name == \"affine.for\" {", 1),
        ("let m = prop(ctx, body, op, \"map\");", 1),
        ("let g = operand_group(ctx, body, op, \"inits\");", 1),
        ("let k = discardable_attr(ctx, body, op, \"gpu.kernel\");", 1),
        ("let n = ctx.op_name(\"arith.addi\");", 1),
        ("if ctx.op_name_str(body.op_name(op)).ends_with(\"cmpi\") {", 1),
        ("// a comment naming \"affine.for\"", 0),
        ("let msg = \"'affine.for' op needs a body\";", 0),
        ("let v = AffineForOp::cast(&ir, op);", 0),
    ] {
        assert_eq!(lookups(src, &ops).len(), hits, "{src}");
    }
}
