//! Folders of `arith` and `math`: unit tests of what each op folds to, and
//! an oracle test that compares every fold with `mlir-opt-22 --canonicalize`
//! on thousands of small functions (skipped when mlir-opt is not installed,
//! unless `LF_REQUIRE_TOOLS=1`).

use lf_dialects::fold::fold_op;
use lf_ir::printer::attr_to_string;
use lf_ir::{Body, Context, FoldResult, OpId, ValueDef};
use std::fmt::Write as _;

fn ctx() -> Context {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    ctx
}

/// The functions of a module: (name, body, ops of the entry block).
fn funcs(ctx: &Context, body: &Body, module: OpId) -> Vec<(String, Vec<OpId>)> {
    let rb = body.regions_body(module);
    let mut out = Vec::new();
    for &r in body.regions(module) {
        for b in rb.region_blocks(r) {
            for f in rb.block_ops(b) {
                let name = lf_ir::ods::prop(ctx, rb, f, "sym_name")
                    .map(|a| attr_to_string(ctx, a))
                    .unwrap_or_default();
                out.push((name, vec![f]));
            }
        }
    }
    out
}

/// What the value `v` is: a constant, a block argument, or the result of another op.
fn describe(ctx: &Context, body: &Body, v: lf_ir::Value) -> String {
    match body.value_def(v) {
        ValueDef::BlockArg { index, .. } => format!("arg{index}"),
        ValueDef::OpResult { op, .. } => {
            let name = ctx.op_name_str(body.op_name(op));
            if name == "arith.constant" {
                let a = lf_ir::ods::prop(ctx, body, op, "value").expect("constant value");
                format!("const {}", attr_to_string(ctx, a))
            } else {
                format!("op {name}")
            }
        }
    }
}

/// lf's view of each function: the fold of the op that feeds `return`.
fn lf_results(ctx: &Context, src: &str) -> Vec<(String, String)> {
    let m = lf_ir::parse_source(ctx, src, "in.mlir").expect("lf parses the cases");
    let mut out = Vec::new();
    for (name, fs) in funcs(ctx, &m.body, m.op) {
        let mb = m.body.regions_body(m.op);
        let fbody = mb.regions_body(fs[0]);
        let region = mb.region(fs[0], 0);
        let entry = fbody.entry_block(region).expect("function body");
        let ret = fbody.last_op(entry).expect("return");
        let v = fbody.operand(ret, 0);
        let desc = match fbody.defining_op(v) {
            Some(op) if ctx.op_name_str(fbody.op_name(op)) != "arith.constant" => match fold_op(ctx, fbody, op) {
                Some(rs) => match rs[0] {
                    FoldResult::Attr(a) => format!("const {}", attr_to_string(ctx, a)),
                    FoldResult::Value(v) => describe(ctx, fbody, v),
                },
                None => "none".to_string(),
            },
            _ => describe(ctx, fbody, v),
        };
        out.push((name, desc));
    }
    out
}

/// mlir-opt's view: after `--canonicalize`, what each function returns
/// (`none` when it is neither a constant nor an argument nor a value lf folds to).
fn mlir_results(ctx: &Context, src: &str) -> Option<Vec<(String, String)>> {
    let tool = ["mlir-opt-22", "mlir-opt"]
        .into_iter()
        .find(|t| std::process::Command::new(t).arg("--version").output().is_ok())?;
    let dir = std::env::temp_dir().join(format!("lf-fold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let input = dir.join(format!("cases-{}.mlir", src.len()));
    std::fs::write(&input, src).ok()?;
    let out = std::process::Command::new(tool)
        .arg("--canonicalize")
        .arg(&input)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "mlir-opt failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).ok()?;
    let m = lf_ir::parse_source(ctx, &text, "mlir-out.mlir").expect("lf parses mlir-opt's output");
    let mut res = Vec::new();
    for (name, fs) in funcs(ctx, &m.body, m.op) {
        let mb = m.body.regions_body(m.op);
        let fbody = mb.regions_body(fs[0]);
        let region = mb.region(fs[0], 0);
        let entry = fbody.entry_block(region).expect("function body");
        let ret = fbody.last_op(entry).expect("return");
        res.push((name, describe(ctx, fbody, fbody.operand(ret, 0))));
    }
    Some(res)
}

fn require_tools() -> bool {
    std::env::var("LF_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

/// Compares lf's folds with mlir-opt's canonicalization, case by case. A
/// case where mlir-opt's result is produced by another op is `none` for lf
/// unless lf folds to that op too.
fn compare_with_mlir(src: &str) {
    let ctx = ctx();
    let lf = lf_results(&ctx, src);
    let Some(mlir) = mlir_results(&ctx, src) else {
        assert!(!require_tools(), "mlir-opt not installed and LF_REQUIRE_TOOLS=1");
        eprintln!("SKIPPED: mlir-opt not installed");
        return;
    };
    assert_eq!(lf.len(), mlir.len());
    let mut bad = String::new();
    let mut n_bad = 0;
    for ((name, l), (_, m)) in lf.iter().zip(&mlir) {
        let m_norm = if m.starts_with("op ") && !l.starts_with("op ") {
            "none"
        } else {
            m.as_str()
        };
        if l != m_norm {
            n_bad += 1;
            if n_bad <= 40 {
                let _ = writeln!(bad, "{name}: lf {l:?}, mlir-opt {m:?}");
            }
        }
    }
    assert!(n_bad == 0, "{n_bad} of {} folds differ from mlir-opt:\n{bad}", lf.len());
}

// ------------------------------------------------------------------ cases

struct Cases {
    src: String,
    n: usize,
}

impl Cases {
    fn new() -> Self {
        Cases {
            src: String::new(),
            n: 0,
        }
    }
    /// A function with arguments `args` (types) whose body is `body` and returns `%r : rty`.
    fn add(&mut self, args: &[&str], body: &str, rty: &str) {
        let params: Vec<String> = args.iter().enumerate().map(|(i, t)| format!("%x{i}: {t}")).collect();
        let _ = writeln!(
            self.src,
            "func.func @f{}({}) -> {rty} {{\n{body}\n  return %r : {rty}\n}}",
            self.n,
            params.join(", ")
        );
        self.n += 1;
    }
}

const INT_TYPES: &[(&str, u32)] = &[("i1", 1), ("i8", 8), ("i32", 32), ("i64", 64), ("index", 64)];

fn int_values(w: u32) -> Vec<i128> {
    let mut v = vec![0, 1, -1, 2, 3, -3, 7, -8, 100];
    if w < 128 {
        v.push(-(1i128 << (w - 1)));
        v.push((1i128 << (w - 1)) - 1);
        v.push((1i128 << (w - 1)) - 2);
    }
    v.sort();
    v.dedup();
    v.into_iter()
        .map(|x| lf_dialects::fold::int::sval(x, w))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

fn int_lit(v: i128, ty: &str) -> String {
    if ty == "i1" {
        return if v != 0 { "true".into() } else { "false".into() };
    }
    format!("{v} : {ty}")
}

const INT_BINARY: &[&str] = &[
    "addi",
    "subi",
    "muli",
    "divsi",
    "divui",
    "remsi",
    "remui",
    "ceildivsi",
    "ceildivui",
    "floordivsi",
    "maxsi",
    "maxui",
    "minsi",
    "minui",
    "andi",
    "ori",
    "xori",
    "shli",
    "shrsi",
    "shrui",
];

#[test]
fn integer_binary_ops_fold_like_mlir() {
    let mut c = Cases::new();
    for op in INT_BINARY {
        for (ty, w) in INT_TYPES {
            let vals = int_values(*w);
            for a in &vals {
                for b in &vals {
                    let body = format!(
                        "  %a = arith.constant {}\n  %b = arith.constant {}\n  %r = arith.{op} %a, %b : {ty}",
                        int_lit(*a, ty),
                        int_lit(*b, ty)
                    );
                    c.add(&[], &body, ty);
                }
                // Identities: a constant on one side, an argument on the other.
                let body = format!(
                    "  %b = arith.constant {}\n  %r = arith.{op} %x0, %b : {ty}",
                    int_lit(*a, ty)
                );
                c.add(&[ty], &body, ty);
                let body = format!(
                    "  %b = arith.constant {}\n  %r = arith.{op} %b, %x0 : {ty}",
                    int_lit(*a, ty)
                );
                c.add(&[ty], &body, ty);
            }
            c.add(&[ty], &format!("  %r = arith.{op} %x0, %x0 : {ty}"), ty);
        }
    }
    compare_with_mlir(&c.src);
}

#[test]
fn integer_vector_ops_fold_like_mlir() {
    let mut c = Cases::new();
    for op in INT_BINARY {
        for (a, b) in [
            ("dense<[1, -2, 3, 0]>", "dense<[5, 7, -1, 0]>"),
            ("dense<[1, -2, 3, 8]>", "dense<3>"),
            ("dense<6>", "dense<4>"),
            ("dense<6>", "dense<[0, 1, 2, 3]>"),
        ] {
            let body = format!(
                "  %a = arith.constant {a} : vector<4xi32>\n  %b = arith.constant {b} : vector<4xi32>\n  %r = arith.{op} %a, %b : vector<4xi32>"
            );
            c.add(&[], &body, "vector<4xi32>");
        }
        let body = format!("  %b = arith.constant dense<0> : vector<4xi32>\n  %r = arith.{op} %x0, %b : vector<4xi32>");
        c.add(&["vector<4xi32>"], &body, "vector<4xi32>");
        let body = format!("  %b = arith.constant dense<1> : vector<4xi32>\n  %r = arith.{op} %x0, %b : vector<4xi32>");
        c.add(&["vector<4xi32>"], &body, "vector<4xi32>");
    }
    compare_with_mlir(&c.src);
}

/// Float values as bits per type: zeros, ones, fractions, large, subnormal, infinities, NaN.
fn float_values(ty: &str) -> Vec<u64> {
    let f64s = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        -1.5,
        3.25,
        2.5,
        1.0e30,
        -7.0e-40,
        65504.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let kind = match ty {
        "f16" => lf_ir::FloatKind::F16,
        "bf16" => lf_ir::FloatKind::BF16,
        "f32" => lf_ir::FloatKind::F32,
        _ => lf_ir::FloatKind::F64,
    };
    let mut v: Vec<u64> = f64s.iter().map(|x| lf_dialects::fold::float::round(kind, *x)).collect();
    v.sort();
    v.dedup();
    v
}

fn float_lit(bits: u64, ty: &str) -> String {
    let digits = match ty {
        "f16" | "bf16" => 4,
        "f32" => 8,
        _ => 16,
    };
    format!("0x{bits:0digits$X} : {ty}")
}

const FLOAT_TYPES: &[&str] = &["f16", "bf16", "f32", "f64"];

#[test]
fn float_binary_ops_fold_like_mlir() {
    let mut c = Cases::new();
    for op in [
        "addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf",
    ] {
        for ty in FLOAT_TYPES {
            let vals = float_values(ty);
            for a in &vals {
                for b in &vals {
                    let body = format!(
                        "  %a = arith.constant {}\n  %b = arith.constant {}\n  %r = arith.{op} %a, %b : {ty}",
                        float_lit(*a, ty),
                        float_lit(*b, ty)
                    );
                    c.add(&[], &body, ty);
                }
                let body = format!(
                    "  %b = arith.constant {}\n  %r = arith.{op} %x0, %b : {ty}",
                    float_lit(*a, ty)
                );
                c.add(&[ty], &body, ty);
                let body = format!(
                    "  %b = arith.constant {}\n  %r = arith.{op} %b, %x0 : {ty}",
                    float_lit(*a, ty)
                );
                c.add(&[ty], &body, ty);
            }
            c.add(&[ty], &format!("  %r = arith.{op} %x0, %x0 : {ty}"), ty);
        }
    }
    compare_with_mlir(&c.src);
}

#[test]
fn comparisons_and_select_fold_like_mlir() {
    let mut c = Cases::new();
    let ipreds = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];
    for p in ipreds {
        for (ty, w) in INT_TYPES {
            let vals = int_values(*w);
            for a in &vals {
                for b in &vals {
                    let body = format!(
                        "  %a = arith.constant {}\n  %b = arith.constant {}\n  %r = arith.cmpi {p}, %a, %b : {ty}",
                        int_lit(*a, ty),
                        int_lit(*b, ty)
                    );
                    c.add(&[], &body, "i1");
                }
            }
            c.add(&[ty], &format!("  %r = arith.cmpi {p}, %x0, %x0 : {ty}"), "i1");
        }
        c.add(
            &["i1"],
            &format!("  %b = arith.constant false\n  %r = arith.cmpi {p}, %x0, %b : i1"),
            "i1",
        );
        c.add(
            &["i1"],
            &format!("  %b = arith.constant true\n  %r = arith.cmpi {p}, %x0, %b : i1"),
            "i1",
        );
        c.add(
            &["i1"],
            &format!("  %z = arith.constant 0 : i32\n  %e = arith.extui %x0 : i1 to i32\n  %r = arith.cmpi {p}, %e, %z : i32"),
            "i1",
        );
        c.add(
            &["i1"],
            &format!("  %z = arith.constant 0 : i32\n  %e = arith.extsi %x0 : i1 to i32\n  %r = arith.cmpi {p}, %e, %z : i32"),
            "i1",
        );
        c.add(
            &["i1"],
            &format!("  %b = arith.constant false\n  %r = arith.cmpi {p}, %b, %x0 : i1"),
            "i1",
        );
        c.add(
            &["i1"],
            &format!("  %b = arith.constant true\n  %r = arith.cmpi {p}, %b, %x0 : i1"),
            "i1",
        );
        c.add(
            &["vector<2xi32>"],
            &format!("  %r = arith.cmpi {p}, %x0, %x0 : vector<2xi32>"),
            "vector<2xi1>",
        );
    }
    let fpreds = [
        "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno",
        "true",
    ];
    for p in fpreds {
        for ty in ["f16", "f32", "f64"] {
            let vals = float_values(ty);
            for a in &vals {
                for b in &vals {
                    let body = format!(
                        "  %a = arith.constant {}\n  %b = arith.constant {}\n  %r = arith.cmpf {p}, %a, %b : {ty}",
                        float_lit(*a, ty),
                        float_lit(*b, ty)
                    );
                    c.add(&[], &body, "i1");
                }
                let body = format!(
                    "  %b = arith.constant {}\n  %r = arith.cmpf {p}, %x0, %b : {ty}",
                    float_lit(*a, ty)
                );
                c.add(&[ty], &body, "i1");
            }
        }
    }
    // select
    for cond in ["true", "false"] {
        c.add(
            &["i32", "i32"],
            &format!("  %c = arith.constant {cond}\n  %r = arith.select %c, %x0, %x1 : i32"),
            "i32",
        );
    }
    c.add(&["i1", "i32"], "  %r = arith.select %x0, %x1, %x1 : i32", "i32");
    c.add(
        &["i1"],
        "  %t = arith.constant true\n  %f = arith.constant false\n  %r = arith.select %x0, %t, %f : i1",
        "i1",
    );
    c.add(
        &["i1"],
        "  %t = arith.constant true\n  %f = arith.constant false\n  %r = arith.select %x0, %f, %t : i1",
        "i1",
    );
    for p in ["eq", "ne", "slt"] {
        c.add(
            &["i32", "i32"],
            &format!("  %c = arith.cmpi {p}, %x0, %x1 : i32\n  %r = arith.select %c, %x0, %x1 : i32"),
            "i32",
        );
        c.add(
            &["i32", "i32"],
            &format!("  %c = arith.cmpi {p}, %x1, %x0 : i32\n  %r = arith.select %c, %x0, %x1 : i32"),
            "i32",
        );
    }
    c.add(
        &[],
        "  %c = arith.constant dense<[true, false, true, false]> : vector<4xi1>\n  %a = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>\n  %b = arith.constant dense<[5, 6, 7, 8]> : vector<4xi32>\n  %r = arith.select %c, %a, %b : vector<4xi1>, vector<4xi32>",
        "vector<4xi32>",
    );
    c.add(
        &["vector<4xi32>", "vector<4xi32>"],
        "  %c = arith.constant dense<true> : vector<4xi1>\n  %r = arith.select %c, %x0, %x1 : vector<4xi1>, vector<4xi32>",
        "vector<4xi32>",
    );
    compare_with_mlir(&c.src);
}

#[test]
fn casts_fold_like_mlir() {
    let mut c = Cases::new();
    let ints = [("i1", 1), ("i8", 8), ("i16", 16), ("i32", 32), ("i64", 64)];
    for (from, wf) in ints {
        for (to, wt) in ints {
            for v in int_values(wf) {
                let k = int_lit(v, from);
                if wt > wf {
                    for op in ["extsi", "extui"] {
                        c.add(
                            &[],
                            &format!("  %a = arith.constant {k}\n  %r = arith.{op} %a : {from} to {to}"),
                            to,
                        );
                    }
                }
                if wt < wf {
                    c.add(
                        &[],
                        &format!("  %a = arith.constant {k}\n  %r = arith.trunci %a : {from} to {to}"),
                        to,
                    );
                }
            }
        }
        for v in int_values(wf) {
            let k = int_lit(v, from);
            for op in ["index_cast", "index_castui"] {
                c.add(
                    &[],
                    &format!("  %a = arith.constant {k}\n  %r = arith.{op} %a : {from} to index"),
                    "index",
                );
            }
            for fty in FLOAT_TYPES {
                for op in ["sitofp", "uitofp"] {
                    c.add(
                        &[],
                        &format!("  %a = arith.constant {k}\n  %r = arith.{op} %a : {from} to {fty}"),
                        fty,
                    );
                }
            }
        }
    }
    for v in int_values(64) {
        for (to, _) in ints {
            for op in ["index_cast", "index_castui"] {
                c.add(
                    &[],
                    &format!("  %a = arith.constant {v} : index\n  %r = arith.{op} %a : index to {to}"),
                    to,
                );
            }
        }
    }
    // Large integers to floats (rounding).
    for v in [
        16777217i128,
        16777219,
        (1 << 53) + 1,
        i64::MAX as i128,
        -(1i128 << 62) - 1,
        65519,
        65520,
        2049,
        2051,
    ] {
        for fty in FLOAT_TYPES {
            for op in ["sitofp", "uitofp"] {
                c.add(
                    &[],
                    &format!("  %a = arith.constant {v} : i64\n  %r = arith.{op} %a : i64 to {fty}"),
                    fty,
                );
            }
        }
    }
    for fty in FLOAT_TYPES {
        let mut vals = float_values(fty);
        let kind = match *fty {
            "f16" => lf_ir::FloatKind::F16,
            "bf16" => lf_ir::FloatKind::BF16,
            "f32" => lf_ir::FloatKind::F32,
            _ => lf_ir::FloatKind::F64,
        };
        for x in [
            127.9,
            128.0,
            -128.5,
            -129.0,
            255.5,
            256.0,
            -0.5,
            2147483647.0,
            2147483648.0,
            -2147483648.0,
            4294967295.0,
        ] {
            vals.push(lf_dialects::fold::float::round(kind, x));
        }
        for v in &vals {
            for (to, _) in ints {
                for op in ["fptosi", "fptoui"] {
                    c.add(
                        &[],
                        &format!(
                            "  %a = arith.constant {}\n  %r = arith.{op} %a : {fty} to {to}",
                            float_lit(*v, fty)
                        ),
                        to,
                    );
                }
            }
            for to in FLOAT_TYPES {
                let (wf, wt) = (
                    kind.width(),
                    if to.ends_with("16") {
                        16
                    } else if *to == "f32" {
                        32
                    } else {
                        64
                    },
                );
                let op = if wt > wf {
                    "extf"
                } else if wt < wf {
                    "truncf"
                } else {
                    continue;
                };
                c.add(
                    &[],
                    &format!(
                        "  %a = arith.constant {}\n  %r = arith.{op} %a : {fty} to {to}",
                        float_lit(*v, fty)
                    ),
                    to,
                );
            }
        }
    }
    for (bits, from, to) in [
        ("0x3F800000 : f32", "f32", "i32"),
        ("-1 : i32", "i32", "f32"),
        ("0x7FC00000 : f32", "f32", "i32"),
        ("0x3C00 : f16", "f16", "bf16"),
        ("-2 : i64", "i64", "f64"),
        (
            "dense<[1065353216, 0]> : vector<2xi32>",
            "vector<2xi32>",
            "vector<2xf32>",
        ),
    ] {
        c.add(
            &[],
            &format!("  %a = arith.constant {bits}\n  %r = arith.bitcast %a : {from} to {to}"),
            to,
        );
    }
    // truncf(extf(x)) and trunci(ext(x)).
    c.add(
        &["f32"],
        "  %a = arith.extf %x0 : f32 to f64\n  %r = arith.truncf %a : f64 to f32",
        "f32",
    );
    c.add(
        &["f16"],
        "  %a = arith.extf %x0 : f16 to f64\n  %r = arith.truncf %a : f64 to f32",
        "f32",
    );
    c.add(
        &["i8"],
        "  %a = arith.extsi %x0 : i8 to i32\n  %r = arith.trunci %a : i32 to i8",
        "i8",
    );
    c.add(
        &["i8"],
        "  %a = arith.extui %x0 : i8 to i32\n  %r = arith.trunci %a : i32 to i8",
        "i8",
    );
    compare_with_mlir(&c.src);
}

#[test]
fn math_ops_fold_like_mlir() {
    let mut c = Cases::new();
    for ty in FLOAT_TYPES {
        let vals = float_values(ty);
        for op in ["absf", "floor", "ceil", "sqrt"] {
            for v in &vals {
                c.add(
                    &[],
                    &format!(
                        "  %a = arith.constant {}\n  %r = math.{op} %a : {ty}",
                        float_lit(*v, ty)
                    ),
                    ty,
                );
            }
        }
        for a in &vals {
            for b in [1.5f64, -0.5, 3.0] {
                let kind = match *ty {
                    "f16" => lf_ir::FloatKind::F16,
                    "bf16" => lf_ir::FloatKind::BF16,
                    "f32" => lf_ir::FloatKind::F32,
                    _ => lf_ir::FloatKind::F64,
                };
                let b = lf_dialects::fold::float::round(kind, b);
                let cc = lf_dialects::fold::float::round(kind, 0.1);
                c.add(
                    &[],
                    &format!(
                        "  %a = arith.constant {}\n  %b = arith.constant {}\n  %c = arith.constant {}\n  %r = math.fma %a, %b, %c : {ty}",
                        float_lit(*a, ty),
                        float_lit(b, ty),
                        float_lit(cc, ty)
                    ),
                    ty,
                );
            }
        }
    }
    for (ty, w) in INT_TYPES.iter().filter(|t| t.0 != "index") {
        for v in int_values(*w) {
            c.add(
                &[],
                &format!("  %a = arith.constant {}\n  %r = math.absi %a : {ty}", int_lit(v, ty)),
                ty,
            );
        }
    }
    compare_with_mlir(&c.src);
}

// --------------------------------------------------------- unit tests

/// Folds the op feeding `return` in a one-function module.
fn fold_of(src: &str) -> String {
    let ctx = ctx();
    lf_results(&ctx, src).remove(0).1
}

#[test]
fn integer_arithmetic_wraps_at_the_type_width() {
    let f = |op: &str, a: &str, b: &str, ty: &str| {
        fold_of(&format!(
            "func.func @f() -> {ty} {{\n %a = arith.constant {a} : {ty}\n %b = arith.constant {b} : {ty}\n %r = arith.{op} %a, %b : {ty}\n return %r : {ty}\n}}"
        ))
    };
    assert_eq!(f("addi", "127", "1", "i8"), "const -128 : i8");
    assert_eq!(f("muli", "16", "16", "i8"), "const 0 : i8");
    assert_eq!(f("subi", "0", "1", "index"), "const -1 : index");
    assert_eq!(f("divui", "-1", "2", "i8"), "const 127 : i8");
    assert_eq!(f("divsi", "-7", "2", "i32"), "const -3 : i32");
    assert_eq!(f("floordivsi", "-7", "2", "i32"), "const -4 : i32");
    assert_eq!(f("ceildivsi", "7", "2", "i32"), "const 4 : i32");
    assert_eq!(f("remsi", "-7", "2", "i32"), "const -1 : i32");
    assert_eq!(f("shrsi", "-16", "2", "i32"), "const -4 : i32");
    assert_eq!(f("shrui", "-16", "28", "i32"), "const 15 : i32");
}

#[test]
fn division_by_zero_overflow_and_wide_shifts_do_not_fold() {
    let f = |op: &str, a: &str, b: &str| {
        fold_of(&format!(
            "func.func @f() -> i32 {{\n %a = arith.constant {a} : i32\n %b = arith.constant {b} : i32\n %r = arith.{op} %a, %b : i32\n return %r : i32\n}}"
        ))
    };
    for op in [
        "divsi",
        "divui",
        "remsi",
        "remui",
        "ceildivsi",
        "ceildivui",
        "floordivsi",
    ] {
        assert_eq!(f(op, "5", "0"), "none", "{op} by zero");
    }
    assert_eq!(f("divsi", "-2147483648", "-1"), "none");
    assert_eq!(f("floordivsi", "-2147483648", "-1"), "none");
    assert_eq!(f("ceildivsi", "-2147483648", "2"), "none");
    assert_eq!(f("shli", "1", "32"), "none");
    assert_eq!(f("remsi", "-2147483648", "-1"), "const 0 : i32");
}

#[test]
fn identities_return_existing_values() {
    let f = |body: &str| {
        fold_of(&format!(
            "func.func @f(%x: i32, %y: i32) -> i32 {{\n{body}\n return %r : i32\n}}"
        ))
    };
    assert_eq!(f(" %c = arith.constant 0 : i32\n %r = arith.addi %x, %c : i32"), "arg0");
    assert_eq!(f(" %c = arith.constant 0 : i32\n %r = arith.addi %c, %x : i32"), "arg0");
    assert_eq!(f(" %c = arith.constant 1 : i32\n %r = arith.muli %x, %c : i32"), "arg0");
    assert_eq!(
        f(" %c = arith.constant 0 : i32\n %r = arith.muli %x, %c : i32"),
        "const 0 : i32"
    );
    assert_eq!(f(" %r = arith.subi %x, %x : i32"), "const 0 : i32");
    assert_eq!(f(" %r = arith.xori %x, %x : i32"), "const 0 : i32");
    assert_eq!(f(" %r = arith.andi %x, %x : i32"), "arg0");
    assert_eq!(
        f(" %c = arith.constant -1 : i32\n %r = arith.ori %x, %c : i32"),
        "const -1 : i32"
    );
    assert_eq!(
        f(" %s = arith.subi %x, %y : i32\n %r = arith.addi %s, %y : i32"),
        "arg0"
    );
    assert_eq!(
        f(" %s = arith.addi %x, %y : i32\n %r = arith.subi %s, %x : i32"),
        "arg1"
    );
    assert_eq!(
        f(" %c = arith.constant true\n %r = arith.select %c, %x, %y : i32"),
        "arg0"
    );
    assert_eq!(
        f(" %c = arith.cmpi ne, %x, %y : i32\n %r = arith.select %c, %x, %y : i32"),
        "arg0"
    );
    assert_eq!(f(" %r = arith.maxsi %x, %x : i32"), "arg0");
}

#[test]
fn floats_are_computed_in_their_own_precision() {
    let f = |op: &str, a: &str, b: &str, ty: &str| {
        fold_of(&format!(
            "func.func @f() -> {ty} {{\n %a = arith.constant {a} : {ty}\n %b = arith.constant {b} : {ty}\n %r = arith.{op} %a, %b : {ty}\n return %r : {ty}\n}}"
        ))
    };
    // 0.1 + 0.2 rounds to the f32 nearest 0.3 in f32, but not in f64.
    assert_eq!(f("addf", "0.1", "0.2", "f32"), "const 3.000000e-01 : f32");
    assert_eq!(f("addf", "0.1", "0.2", "f64"), "const 0.30000000000000004 : f64");
    assert_eq!(f("addf", "0x7F800000", "0xFF800000", "f32"), "const 0x7FC00000 : f32");
    assert_eq!(f("maximumf", "-0.0", "0.0", "f32"), "const 0.000000e+00 : f32");
    assert_eq!(f("minimumf", "0.0", "-0.0", "f32"), "const -0.000000e+00 : f32");
    assert_eq!(f("divf", "1.0", "3.0", "f16"), "const 3.332520e-01 : f16");
}

#[test]
fn materialize_constant_builds_arith_constant() {
    let ctx = ctx();
    let mut body = Body::new();
    let i32t = ctx.common().i32;
    let a = ctx.integer_attr(42, i32t);
    let op = lf_dialects::arith::materialize_constant(&ctx, &mut body, a, i32t, lf_ir::Location::Unknown)
        .expect("an i32 constant");
    assert_eq!(ctx.op_name_str(body.op_name(op)), "arith.constant");
    assert_eq!(body.value_type(body.result(op, 0)), i32t);
    assert_eq!(lf_ir::ods::prop(&ctx, &body, op, "value"), Some(a));
    // A type that does not match the attribute's is refused.
    assert!(
        lf_dialects::arith::materialize_constant(&ctx, &mut body, a, ctx.common().i64, lf_ir::Location::Unknown)
            .is_none()
    );
    // So is a non-constant attribute.
    let s = ctx.string_attr("x");
    assert!(lf_dialects::arith::materialize_constant(&ctx, &mut body, s, i32t, lf_ir::Location::Unknown).is_none());
}

#[test]
fn vector_floats_and_casts_fold_like_mlir() {
    let mut c = Cases::new();
    let v = "vector<4xf32>";
    for op in [
        "addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf",
    ] {
        for (a, b) in [
            ("dense<[1.0, -2.5, 0.0, 3.0]>", "dense<[0.5, 0.5, -0.0, 0x7FC00000]>"),
            ("dense<1.5>", "dense<[0.5, 1.0, 2.0, 0x7F800000]>"),
            ("dense<2.0>", "dense<3.0>"),
        ] {
            c.add(
                &[],
                &format!(
                    "  %a = arith.constant {a} : {v}\n  %b = arith.constant {b} : {v}\n  %r = arith.{op} %a, %b : {v}"
                ),
                v,
            );
        }
    }
    for (src, op, from, to) in [
        ("dense<[1, -2, 300, 0]>", "sitofp", "vector<4xi32>", "vector<4xf32>"),
        ("dense<[1, -2, 300, 0]>", "uitofp", "vector<4xi32>", "vector<4xf16>"),
        (
            "dense<[1, -2, 300, 0]>",
            "index_cast",
            "vector<4xi32>",
            "vector<4xindex>",
        ),
        ("dense<[1, -2, 300, 0]>", "trunci", "vector<4xi32>", "vector<4xi8>"),
        ("dense<[1, -2, 300, 0]>", "extsi", "vector<4xi32>", "vector<4xi64>"),
        (
            "dense<[1.5, -2.5, 1.0e10, 0.0]>",
            "fptosi",
            "vector<4xf32>",
            "vector<4xi32>",
        ),
        (
            "dense<[1.5, -2.5, 1.0e10, 0.0]>",
            "fptosi",
            "vector<4xf32>",
            "vector<4xi64>",
        ),
        (
            "dense<[1.5, -2.5, 1.0e10, 0.0]>",
            "extf",
            "vector<4xf32>",
            "vector<4xf64>",
        ),
        (
            "dense<[1.5, -2.5, 1.0e10, 0.0]>",
            "truncf",
            "vector<4xf32>",
            "vector<4xf16>",
        ),
        (
            "dense<[1.5, -2.5, 4.0, 0.0]>",
            "truncf",
            "vector<4xf32>",
            "vector<4xf16>",
        ),
    ] {
        c.add(
            &[],
            &format!("  %a = arith.constant {src} : {from}\n  %r = arith.{op} %a : {from} to {to}"),
            to,
        );
    }
    for op in ["absf", "floor", "ceil", "sqrt"] {
        c.add(
            &[],
            &format!("  %a = arith.constant dense<[1.5, -2.5, 4.0, 0.0]> : {v}\n  %r = math.{op} %a : {v}"),
            v,
        );
    }
    c.add(
        &[],
        "  %a = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>\n  %b = arith.constant dense<[4, 2, 1, 4]> : vector<4xi32>\n  %r = arith.cmpi slt, %a, %b : vector<4xi32>",
        "vector<4xi1>",
    );
    compare_with_mlir(&c.src);
}
