//! What the `builders_<dialect>` tests share: a context, a module and
//! functions to build ops into, and [`check`], which asserts that a module
//! built through the ops' builders has every op of a dialect, verifies, and
//! prints byte for byte as mlir-opt 22 prints it (custom and generic forms).
//!
//! Without `mlir-opt-22` (or `mlir-opt`) on `PATH` the comparison with
//! mlir-opt is skipped with a `SKIPPED: ...` note on stderr, unless
//! `LF_REQUIRE_TOOLS=1`, which makes it a failure. `LF_BUILDERS_PRINT=1`
//! shows what a test built (`cargo test --test builders_scf -- --nocapture`).

#![allow(dead_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use lf_dialects::builtin::BuiltinModuleOp;
use lf_dialects::func::{FuncFuncOp, FuncReturnOp};
use lf_ir::affine::{AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::view::{OpView, ValueList};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Attribute, Body, Context, OpId, PrintOptions, Type, TypeData, Value};

/// A context with every lf dialect registered.
pub fn context() -> Context {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    ctx
}

/// A detached `builtin.module` in a new body, filled by `fill` through a
/// builder on the module's body whose insertion point is the end of its block.
pub fn module(ctx: &Context, fill: impl FnOnce(&mut Builder<'_>)) -> (Body, OpId) {
    let mut body = Body::new();
    let mut b = Builder::new(ctx, &mut body);
    let m = BuiltinModuleOp::build(&mut b);
    let block = m.body_region_block(&b);
    let mut mb = b.nested(m.op()).expect("a module has a nested body");
    mb.set_insertion_point_to_end(block);
    fill(&mut mb);
    (body, m.op())
}

/// `func.func @name(inputs) -> results` at the builder's insertion point:
/// `fill` builds its body given the arguments (through a builder at the end
/// of the entry block) and returns the values for the `func.return` added
/// after them.
pub fn func(
    b: &mut Builder<'_>,
    name: &str,
    inputs: &[Type],
    results: &[Type],
    fill: impl FnOnce(&mut Builder<'_>, &[Value]) -> ValueList,
) -> FuncFuncOp {
    let f = FuncFuncOp::build(b, name, inputs, results);
    let entry = f.entry_block(b).expect("func.func::build makes an entry block");
    let args = f.arguments(b);
    let mut fb = b.nested(f.op()).expect("a function has a nested body");
    fb.set_insertion_point_to_end(entry);
    let values = fill(&mut fb, &args);
    FuncReturnOp::build(&mut fb, &values);
    f
}

/// `memref<shape x element>` (`DYNAMIC` for `?`), with the identity layout
/// in the default memory space.
pub fn memref(ctx: &Context, shape: &[i64], element: Type) -> Type {
    memref_in(ctx, shape, element, None, None)
}

/// `memref<shape x element, layout, memory_space>`.
pub fn memref_in(
    ctx: &Context,
    shape: &[i64],
    element: Type,
    layout: Option<Attribute>,
    memory_space: Option<Attribute>,
) -> Type {
    ctx.get_type(TypeData::MemRef {
        shape: shape.into(),
        element,
        layout,
        memory_space,
    })
}

/// `vector<shape x element>`.
pub fn vector(ctx: &Context, shape: &[i64], element: Type) -> Type {
    ctx.get_type(TypeData::Vector {
        shape: shape.into(),
        scalable: vec![false; shape.len()].into(),
        element,
    })
}

/// The affine map `text` (`(d0)[s0] -> (d0 + s0)`).
pub fn map(text: &str) -> AffineMap {
    lf_ir::affine::parse_affine_map(text).unwrap_or_else(|e| panic!("bad affine map `{text}`: {e:?}"))
}

/// The integer set `text` (`(d0)[s0] : (s0 - d0 - 1 >= 0)`).
pub fn set(text: &str) -> IntegerSet {
    lf_ir::affine::parse_integer_set(text).unwrap_or_else(|e| panic!("bad integer set `{text}`: {e:?}"))
}

/// The checks of a test that built every op of `dialect` into `module`:
///
/// 1. every op the dialect declares occurs in the module (a new op without
///    a builder test fails here);
/// 2. the module verifies;
/// 3. mlir-opt, given lf's custom print, prints it back unchanged, and in
///    the generic form (`--mlir-print-op-generic`) prints lf's generic print;
///    given lf's generic print, it prints both again.
pub fn check(ctx: &Context, body: &Body, module: OpId, dialect: &str) {
    let d = lf_dialects::DIALECTS
        .iter()
        .find(|d| d.name == dialect)
        .unwrap_or_else(|| panic!("no dialect `{dialect}`"));
    let missing: Vec<&str> = d
        .ops
        .iter()
        .filter(|def| !contains_op(ctx, body, module, def))
        .map(|def| def.name)
        .collect();
    assert!(
        missing.is_empty(),
        "ops of `{dialect}` that the test does not build: {missing:?}"
    );

    let custom = lf_ir::op_to_string(ctx, body, module, &PrintOptions::default());
    if let Err(e) = lf_ir::verify(ctx, body, module) {
        panic!("the built module does not verify: {e}\n{custom}");
    }
    let generic = lf_ir::op_to_string(
        ctx,
        body,
        module,
        &PrintOptions {
            generic: true,
            ..PrintOptions::default()
        },
    );

    if std::env::var_os("LF_BUILDERS_PRINT").is_some() {
        eprintln!("{custom}\n{generic}");
    }
    let Some(tool) = require_mlir_opt(dialect) else {
        return;
    };
    let mut failures = Vec::new();
    for (input_form, input) in [("custom", &custom), ("generic", &generic)] {
        for (output_form, flags, want) in [
            ("custom", &[][..], &custom),
            ("generic", &["--mlir-print-op-generic"][..], &generic),
        ] {
            match run_mlir_opt(&tool, flags, input) {
                Err(e) => failures.push(format!("mlir-opt rejects lf's {input_form} print: {e}")),
                Ok(got) if got != *want => failures.push(format!(
                    "mlir-opt's {output_form} print of lf's {input_form} print differs from lf's:\n{}",
                    first_difference(want, &got)
                )),
                Ok(_) => {}
            }
        }
    }
    assert!(
        failures.is_empty(),
        "`{dialect}`: lf and mlir-opt print differently:\n\n{}\n\nlf's custom print:\n{custom}",
        failures.join("\n\n")
    );
}

/// Whether an op of `def` is nested in `op` (or is `op`).
fn contains_op(ctx: &Context, body: &Body, op: OpId, def: &'static lf_ir::OpDef) -> bool {
    let mut found = false;
    walk(body, op, WalkOrder::PreOrder, &mut |b, o| {
        if lf_ir::view::is_op(ctx, b, o, def) {
            found = true;
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    found
}

/// mlir-opt-22, or mlir-opt, on `PATH`.
fn mlir_opt() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["mlir-opt-22", "mlir-opt"]
        .iter()
        .find_map(|name| std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file()))
}

/// mlir-opt, or `None` after saying loudly (past the test harness's capture)
/// that the comparison is skipped; a failure instead when `LF_REQUIRE_TOOLS=1`.
fn require_mlir_opt(test: &str) -> Option<PathBuf> {
    if let Some(p) = mlir_opt() {
        return Some(p);
    }
    if std::env::var("LF_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
        panic!("builders_{test}: mlir-opt-22 (or mlir-opt) is not on PATH and LF_REQUIRE_TOOLS=1");
    }
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: mlir-opt not installed (builders_{test}: the comparison with mlir-opt; \
         install mlir-opt-22, or set LF_REQUIRE_TOOLS=1 to fail instead)"
    );
    None
}

/// Runs `tool flags...` on `input` (from stdin): its output, or why it failed.
fn run_mlir_opt(tool: &Path, flags: &[&str], input: &str) -> Result<String, String> {
    let mut child = Command::new(tool)
        .args(flags)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    writer
        .join()
        .expect("writer thread")
        .map_err(|e| format!("cannot write to mlir-opt: {e}"))?;
    if !out.status.success() {
        return Err(format!("{}: {}", out.status, String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The first line where `got` differs from `want`, with the lines around it.
fn first_difference(want: &str, got: &str) -> String {
    // Split on '\n' (not `lines`), so that a missing or extra final newline
    // shows as a difference in the last line.
    let (w, g): (Vec<&str>, Vec<&str>) = (want.split('\n').collect(), got.split('\n').collect());
    let i = w.iter().zip(&g).take_while(|(a, b)| a == b).count();
    let from = i.saturating_sub(2);
    let show = |lines: &[&str]| {
        lines[from.min(lines.len())..(i + 3).min(lines.len())]
            .iter()
            .map(|l| format!("    {l:?}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!(
        "  at line {} (lf's print, then mlir-opt's):\n{}\n  ---\n{}",
        i + 1,
        show(&w),
        show(&g)
    )
}
