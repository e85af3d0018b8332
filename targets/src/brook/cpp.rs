//! The translation of a `.br` file to C++ (brcc's job, for lf's subset): host
//! code is copied through; every kernel becomes a C++ function of the same
//! name that loops over its output domain (z, y, x; x fastest) and runs the
//! kernel body once per element, against lf's emulation of the Brook+
//! runtime, [`RUNTIME_HEADER`] (`brook/Stream.h`).
//!
//! Parameters map to runtime types: `const brook::Stream<T>&` for input
//! streams and gather arrays, `T` for scalars, `brook::Stream<T>` (a view, by
//! value) for output streams and scatter outputs. In the body, an output
//! stream's name is a reference to its element, an input stream's name the
//! element's value, a gather's name a bounds-checked `brook::Gather` (an index
//! outside the stream prints the kernel, the array and the indices and
//! aborts).
//!
//! ```
//! let src = "kernel void twice(float a<>, out float b<>) { b = a * 2.0f; }\n";
//! let cpp = lf_targets::brook::cpp::to_cpp(src, "t.br").unwrap();
//! assert!(cpp.starts_with("#include \"brook/Stream.h\"\n"));
//! assert!(cpp.contains("void twice(const ::brook::Stream<float>& lf_arg_a, ::brook::Stream<float> lf_arg_b)"));
//! ```

use super::check;
use super::syntax::ast::*;
use super::syntax::{self, SourceMap};
use lf_diag::Diagnostic;
use std::fmt::Write as _;
use std::path::Path;

/// lf's emulation of the Brook+ runtime, `brook/Stream.h`.
pub const RUNTIME_HEADER: &str = include_str!("runtime/brook/Stream.h");

/// Writes [`RUNTIME_HEADER`] to `dir/brook/Stream.h` (creating `dir/brook`),
/// for `g++ -I dir`.
pub fn write_runtime(dir: &Path) -> std::io::Result<()> {
    let d = dir.join("brook");
    std::fs::create_dir_all(&d)?;
    std::fs::write(d.join("Stream.h"), RUNTIME_HEADER)
}

/// C++ keywords that are not C keywords: kernel names using them are renamed.
const CPP_KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "bitand",
    "bitor",
    "bool",
    "catch",
    "char16_t",
    "char32_t",
    "class",
    "compl",
    "constexpr",
    "const_cast",
    "decltype",
    "delete",
    "dynamic_cast",
    "explicit",
    "export",
    "false",
    "friend",
    "inline",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "reinterpret_cast",
    "static_assert",
    "static_cast",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typeid",
    "typename",
    "using",
    "virtual",
    "wchar_t",
    "xor",
    "xor_eq",
];

/// The C++ name of a kernel-local name (parameter or local).
fn cname(n: &str) -> String {
    if CPP_KEYWORDS.contains(&n) || n.starts_with("lf_") {
        format!("lf_v_{n}")
    } else {
        n.to_string()
    }
}

/// Translates the Brook+ file `source` (named `file` in diagnostics) to C++.
/// The file must pass [`check::check`]; reduce kernels are refused
/// (`[reduce]`: lf does not emit them). `#include "brookgenfiles/..."` lines
/// of the host code become comments: the kernels' declarations, which that
/// header holds for brcc's output, follow the runtime's `#include`.
pub fn to_cpp(source: &str, file: &str) -> Result<String, Vec<Diagnostic>> {
    let mut diags = check::check(source, file);
    if !diags.is_empty() {
        return Err(diags);
    }
    let (unit, _) = syntax::parse(source, file);
    let map = SourceMap::new(source, file);
    for item in &unit.items {
        if let Item::Kernel(k) = item {
            if k.reduce {
                diags.push(map.error(
                    k.keyword,
                    format!(
                        "[reduce] reduce kernel '{}': lf's C++ translation does not run reductions (lf does not emit them)",
                        k.name.name
                    ),
                ));
            }
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let kernels: Vec<&Kernel> = unit.kernels();
    let mut out = String::from("#include \"brook/Stream.h\"\n");
    let _ = writeln!(out, "// Translated from {file} by lf (lf-translate --brook-to-cpp).");
    if !kernels.is_empty() {
        out.push_str("\n// The kernels (brcc's brookgenfiles header).\n");
        for k in &kernels {
            let _ = writeln!(out, "{};", signature(k));
        }
    }
    for item in &unit.items {
        match item {
            Item::Host(span) => out.push_str(&host(span.text(source))),
            Item::Kernel(k) => KernelWriter { out: &mut out }.kernel(k),
        }
    }
    Ok(out)
}

/// Host code with `#include "brookgenfiles/..."` lines commented out.
fn host(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with('#') && t[1..].trim_start().starts_with("include") && t.contains("brookgenfiles/") {
            s.push_str("// (lf: the kernels are declared at the top) ");
        }
        s.push_str(line);
    }
    s
}

/// The C++ type of a Brook+ type (`float4` is a typedef of the runtime).
fn ctype(t: Type) -> String {
    t.name()
}

/// The C++ declaration of a kernel.
fn signature(k: &Kernel) -> String {
    let params: Vec<String> = k
        .params
        .iter()
        .map(|p| {
            let t = ctype(p.ty.ty);
            let n = &p.name.name;
            match p.kind {
                ParamKind::Stream | ParamKind::Gather(_) => format!("const ::brook::Stream<{t}>& lf_arg_{n}"),
                ParamKind::OutStream | ParamKind::Scatter(_) | ParamKind::Reduce => {
                    format!("::brook::Stream<{t}> lf_arg_{n}")
                }
                ParamKind::Scalar => format!("{t} {}", cname(n)),
            }
        })
        .collect();
    format!("void {}({})", k.name.name, params.join(", "))
}

/// Writes one kernel's C++ function.
struct KernelWriter<'o> {
    out: &'o mut String,
}

impl KernelWriter<'_> {
    fn line(&mut self, depth: usize, text: &str) {
        for _ in 0..depth {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn kernel(&mut self, k: &Kernel) {
        let kn = &k.name.name;
        self.line(0, "#pragma GCC diagnostic push");
        // Brook+ kernels are C: unused locals and signed/unsigned comparisons
        // are fine there.
        for w in ["-Wunused-variable", "-Wunused-but-set-variable", "-Wsign-compare"] {
            self.line(0, &format!("#pragma GCC diagnostic ignored \"{w}\""));
        }
        self.line(0, &signature(k));
        self.line(0, "{");
        self.line(1, &format!("::brook::detail::Launch lf_launch(\"{kn}\");"));
        // Outputs first: they set the domain and receive the errors.
        for p in &k.params {
            let n = &p.name.name;
            match p.kind {
                ParamKind::OutStream => self.line(1, &format!("lf_launch.output(lf_arg_{n}, \"{n}\");")),
                ParamKind::Scatter(d) => self.line(1, &format!("lf_launch.scatter(lf_arg_{n}, \"{n}\", {d});")),
                _ => {}
            }
        }
        for p in &k.params {
            let n = &p.name.name;
            match p.kind {
                ParamKind::Stream => self.line(1, &format!("lf_launch.input(lf_arg_{n}, \"{n}\");")),
                ParamKind::Gather(d) => self.line(1, &format!("lf_launch.gather(lf_arg_{n}, \"{n}\", {d});")),
                _ => {}
            }
        }
        self.line(1, "if (!lf_launch.ok()) return;");
        for p in &k.params {
            let (n, t) = (&p.name.name, ctype(p.ty.ty));
            match p.kind {
                ParamKind::Stream => self.line(
                    1,
                    &format!("const ::brook::Stream<{t}> lf_in_{n} = lf_launch.source(lf_arg_{n});"),
                ),
                ParamKind::Gather(d) => self.line(
                    1,
                    &format!(
                        "const ::brook::Gather<{t}, {d}> {}(lf_launch.source(lf_arg_{n}), \"{kn}\", \"{n}\");",
                        cname(n)
                    ),
                ),
                ParamKind::Scatter(d) => self.line(
                    1,
                    &format!(
                        "const ::brook::Scatter<{t}, {d}> {}(lf_arg_{n}, \"{kn}\", \"{n}\");",
                        cname(n)
                    ),
                ),
                _ => {}
            }
        }
        self.line(1, "for (unsigned lf_z = 0; lf_z < lf_launch.extent(2); ++lf_z)");
        self.line(1, "for (unsigned lf_y = 0; lf_y < lf_launch.extent(1); ++lf_y)");
        self.line(1, "for (unsigned lf_x = 0; lf_x < lf_launch.extent(0); ++lf_x) {");
        self.line(2, "::brook::detail::Launch::at(lf_x, lf_y, lf_z);");
        for p in &k.params {
            let (n, t) = (&p.name.name, ctype(p.ty.ty));
            match p.kind {
                ParamKind::OutStream => self.line(2, &format!("{t}& {} = lf_arg_{n}.at(lf_x, lf_y, lf_z);", cname(n))),
                ParamKind::Stream => self.line(2, &format!("const {t} {} = lf_in_{n}.at(lf_x, lf_y, lf_z);", cname(n))),
                _ => {}
            }
        }
        // A lambda: the kernel's `return;` ends this instance only.
        self.line(2, "[&]() {");
        for item in &k.body.items {
            self.item(3, item);
        }
        self.line(2, "}();");
        self.line(1, "}");
        self.line(0, "}");
        self.line(0, "#pragma GCC diagnostic pop");
    }

    fn item(&mut self, depth: usize, item: &BlockItem) {
        match item {
            BlockItem::Decl(d) => {
                for (name, init) in &d.vars {
                    let t = ctype(d.ty.ty);
                    match init {
                        Some(e) => self.line(depth, &format!("{t} {} = {};", cname(&name.name), expr(e))),
                        None => self.line(depth, &format!("{t} {};", cname(&name.name))),
                    }
                }
            }
            BlockItem::Stmt(s) => self.stmt(depth, s),
        }
    }

    /// A statement as a C++ statement; `depth` is the indentation.
    fn stmt(&mut self, depth: usize, s: &Stmt) {
        match &s.kind {
            StmtKind::Assign { .. } => {
                let a = simple(s);
                self.line(depth, &format!("{a};"));
            }
            StmtKind::If { cond, then, els } => {
                self.line(depth, &format!("if ({}) {{", expr(cond)));
                self.nested(depth, then);
                match els {
                    Some(e) => {
                        self.line(depth, "} else {");
                        self.nested(depth, e);
                        self.line(depth, "}");
                    }
                    None => self.line(depth, "}"),
                }
            }
            StmtKind::While { cond, body } => {
                self.line(depth, &format!("while ({}) {{", expr(cond)));
                self.nested(depth, body);
                self.line(depth, "}");
            }
            StmtKind::For { init, cond, step, body } => {
                let i = match init.as_deref() {
                    Some(BlockItem::Stmt(s)) => simple(s),
                    // The checker refuses declarations here.
                    _ => String::new(),
                };
                let c = cond.as_ref().map(expr).unwrap_or_default();
                let st = step.as_deref().map(simple).unwrap_or_default();
                self.line(depth, &format!("for ({i}; {c}; {st}) {{"));
                self.nested(depth, body);
                self.line(depth, "}");
            }
            StmtKind::Block(b) => {
                self.line(depth, "{");
                for item in &b.items {
                    self.item(depth + 1, item);
                }
                self.line(depth, "}");
            }
            StmtKind::Break => self.line(depth, "break;"),
            StmtKind::Continue => self.line(depth, "continue;"),
            StmtKind::Return => self.line(depth, "return;"),
            StmtKind::Empty => self.line(depth, ";"),
            // Refused by the checker.
            StmtKind::Goto | StmtKind::Switch => {}
        }
    }

    /// The body of an `if`/loop, without a second pair of braces for a block.
    fn nested(&mut self, depth: usize, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(b) => {
                for item in &b.items {
                    self.item(depth + 1, item);
                }
            }
            _ => self.stmt(depth + 1, s),
        }
    }
}

/// An assignment statement without its `;`.
fn simple(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Assign { lhs, op, rhs, .. } => {
            let op = match op {
                AssignOp::Set => "=".to_string(),
                AssignOp::Compound(b) => format!("{}=", b.text()),
            };
            format!("{} {op} {}", expr(lhs), expr(rhs))
        }
        _ => String::new(),
    }
}

/// An expression as C++ (binary and conditional operators parenthesized).
fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int { value, unsigned } => format!("{value}{}", if *unsigned { "u" } else { "" }),
        ExprKind::Float { text, .. } => text.clone(),
        ExprKind::Name(n) => cname(n),
        ExprKind::Unary(op, a) => {
            let o = match op {
                UnOp::Neg => "-",
                UnOp::Plus => "+",
                UnOp::Not => "!",
                UnOp::BitNot => "~",
                UnOp::Deref => "*",
                UnOp::AddrOf => "&",
            };
            format!("({o}{})", expr(a))
        }
        ExprKind::Binary(op, _, a, b) => format!("({} {} {})", expr(a), op.text(), expr(b)),
        ExprKind::Cond(_, c, a, b) => format!("({} ? {} : {})", expr(c), expr(a), expr(b)),
        ExprKind::Cast(t, a) => format!("(({}){})", ctype(t.ty), expr(a)),
        ExprKind::Construct(t, args) => {
            let a: Vec<String> = args.iter().map(expr).collect();
            format!("{}({})", ctype(t.ty), a.join(", "))
        }
        ExprKind::Call(f, args) => {
            if f.name == "indexof" {
                if let Some(ExprKind::Name(n)) = args.first().map(|a| &a.kind) {
                    return format!("::brook::indexof(lf_arg_{n})");
                }
            }
            let a: Vec<String> = args.iter().map(expr).collect();
            format!("::brook::{}({})", f.name, a.join(", "))
        }
        ExprKind::Index(b, i) => format!("{}[{}]", expr(b), expr(i)),
        ExprKind::Member(b, m) => {
            if m.name.len() == 1 {
                format!("{}.{}", expr(b), m.name)
            } else {
                let idx: Vec<String> = m
                    .name
                    .chars()
                    .map(|c| "xyzw".find(c).unwrap_or(0).to_string())
                    .collect();
                format!("::brook::swizzle<{}>({})", idx.join(", "), expr(b))
            }
        }
        ExprKind::Arrow(b, m) => format!("{}->{}", expr(b), m.name),
    }
}
