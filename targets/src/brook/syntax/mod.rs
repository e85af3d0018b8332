//! The syntax of the Brook+ subset (docs/design/brook.md): a lexer, the AST
//! and a recursive-descent parser of kernels. Host code is kept as source
//! ranges, never parsed.
//!
//! ```
//! use lf_targets::brook::syntax::{parse, ast::Item};
//! let src = "#include <cstdio>\nkernel void k(float a<>, out float b<>) { b = a * 2.0f; }\nint main() { return 0; }\n";
//! let (unit, diags) = parse(src, "k.br");
//! assert!(diags.is_empty());
//! assert!(matches!(unit.items[1], Item::Kernel(ref k) if k.name.name == "k"));
//! ```

pub mod ast;
pub mod lexer;
pub mod parser;

use ast::{Span, Unit};
use lf_diag::{Diagnostic, FileId, SourceMgr, SourcePos};

/// Maps byte offsets of one source text to `file:line:col` positions.
pub struct SourceMap {
    sm: SourceMgr,
    id: FileId,
}

impl SourceMap {
    /// The map of `src`, named `file` in positions.
    pub fn new(src: &str, file: &str) -> SourceMap {
        let mut sm = SourceMgr::new();
        let id = sm.add(file, src);
        SourceMap { sm, id }
    }

    /// The position of byte `offset`.
    pub fn pos(&self, offset: u32) -> SourcePos {
        self.sm.pos(self.id, offset as usize)
    }

    /// An error at `span` (underlining the span's first line).
    pub fn error(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        let text = self.sm.text(self.id);
        let s = &text[span.start as usize..(span.end as usize).min(text.len())];
        let width = s.find('\n').unwrap_or(s.len()) as u32;
        Diagnostic::error(self.pos(span.start), message).with_width(width)
    }

    /// The source manager (to render diagnostics with snippets).
    pub fn source_mgr(&self) -> &SourceMgr {
        &self.sm
    }
}

/// Parses `src` (named `file` in diagnostics): the unit, and the syntax
/// errors (`[syntax] ...`) as diagnostics. A kernel with a syntax error is
/// left out of the unit.
pub fn parse(src: &str, file: &str) -> (Unit, Vec<Diagnostic>) {
    let map = SourceMap::new(src, file);
    let toks = match lexer::lex(src) {
        Ok(t) => t,
        Err(e) => {
            let d = map.error(
                Span::new(e.at as usize, e.at as usize + 1),
                format!("[syntax] {}", e.message),
            );
            return (Unit { items: Vec::new() }, vec![d]);
        }
    };
    let (unit, errors) = parser::parse_tokens(src, &toks);
    let diags = errors.into_iter().map(|e| map.error(e.span, e.message)).collect();
    (unit, diags)
}

#[cfg(test)]
mod tests {
    use super::ast::*;
    use super::*;

    fn kernel(src: &str) -> Kernel {
        let (unit, d) = parse(src, "t.br");
        assert!(d.is_empty(), "{d:?}");
        unit.items
            .into_iter()
            .find_map(|i| match i {
                Item::Kernel(k) => Some(k),
                Item::Host(_) => None,
            })
            .unwrap()
    }

    #[test]
    fn host_and_kernels() {
        let src = "int f() { kernel(); return 1; }\nkernel void k(float a<>, out float b<>) { b = a; }\nint g;";
        let (unit, d) = parse(src, "t.br");
        assert!(d.is_empty());
        assert_eq!(unit.items.len(), 3);
        let Item::Host(h) = unit.items[0] else { panic!() };
        assert_eq!(h.text(src), "int f() { kernel(); return 1; }\n");
        let Item::Host(h) = unit.items[2] else { panic!() };
        assert_eq!(h.text(src), "\nint g;");
    }

    #[test]
    fn params() {
        let k = kernel(
            "reduce void r(float a<>, reduce float b<>) { b += a; }\nkernel void k(int2 a<>, float g[][], double s, out double2 b<>, out float o[]) { b = double2(s, s); }",
        );
        let kinds: Vec<ParamKind> = k.params.iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            [ParamKind::Stream, ParamKind::Reduce],
            "the first kernel is the reduce kernel"
        );
        let (unit, _) = parse(
            "kernel void k(int2 a<>, float g[][], double s, out double2 b<>, out float o[]) { b = double2(s, s); }",
            "t.br",
        );
        let Item::Kernel(k) = &unit.items[0] else { panic!() };
        let kinds: Vec<ParamKind> = k.params.iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            [
                ParamKind::Stream,
                ParamKind::Gather(2),
                ParamKind::Scalar,
                ParamKind::OutStream,
                ParamKind::Scatter(1)
            ]
        );
        assert_eq!(k.params[3].ty.ty, Type::from_name("double2").unwrap());
    }

    #[test]
    fn precedence_and_casts() {
        let k = kernel("kernel void k(out float b<>) { b = 1.0f + 2.0f * (float)instance().x < 3.0f ? 1.0f : -2.0f; }");
        let BlockItem::Stmt(Stmt {
            kind: StmtKind::Assign { rhs, .. },
            ..
        }) = &k.body.items[0]
        else {
            panic!()
        };
        let ExprKind::Cond(_, c, _, e) = &rhs.kind else {
            panic!()
        };
        let ExprKind::Binary(BinOp::Lt, _, l, _) = &c.kind else {
            panic!()
        };
        let ExprKind::Binary(BinOp::Add, _, _, m) = &l.kind else {
            panic!()
        };
        assert!(matches!(m.kind, ExprKind::Binary(BinOp::Mul, ..)));
        assert!(matches!(e.kind, ExprKind::Unary(UnOp::Neg, _)));
    }

    /// Positions map to the right line and column.
    #[test]
    fn positions() {
        let src = "// c\nkernel void k(out float b<>)\n{\n  float t;\n  t = 1.0f;\n  b = t;\n}\n";
        let k = kernel(src);
        let map = SourceMap::new(src, "t.br");
        let BlockItem::Decl(d) = &k.body.items[0] else { panic!() };
        assert_eq!(map.pos(d.vars[0].0.span.start).to_string(), "t.br:4:9");
        let BlockItem::Stmt(s) = &k.body.items[2] else { panic!() };
        assert_eq!(map.pos(s.span.start).to_string(), "t.br:6:3");
        assert_eq!(map.pos(k.name.span.start).to_string(), "t.br:2:13");
    }

    #[test]
    fn syntax_errors_recover() {
        let src = "kernel void a(out float b<>) { b = ; }\nkernel void c(out float b<>) { b = 1.0f; }\n";
        let (unit, d) = parse(src, "t.br");
        assert_eq!(d.len(), 1);
        assert_eq!(
            d[0].to_string(),
            "t.br:1:36: error: [syntax] expected an expression, found ';'"
        );
        assert_eq!(unit.items.iter().filter(|i| matches!(i, Item::Kernel(_))).count(), 1);
        let (_, d) = parse("kernel void a(out float b<>) { b++; }", "t.br");
        assert!(d[0].message.contains("'i += 1'"), "{}", d[0].message);
        let deep = format!(
            "kernel void k(out float b<>) {{ b = {}1.0f{}; }}",
            "(".repeat(5000),
            ")".repeat(5000)
        );
        let (_, d) = parse(&deep, "t.br");
        assert!(d[0].message.contains("nested more than"), "{}", d[0].message);
        let deep = format!("kernel void k(out float b<>) {{ b = {}1.0f; }}", "- ".repeat(5000));
        assert!(parse(&deep, "t.br").1[0].message.contains("nested more than"));
        let deep = format!("kernel void k(out float b<>) {{ b = 1.0f{}; }}", " + 1.0f".repeat(5000));
        assert!(parse(&deep, "t.br").1[0].message.contains("nested more than"));
        let deep = format!("kernel void k(out float b<>) {{ {} }}", "if (1) ".repeat(5000));
        assert!(parse(&deep, "t.br").1[0].message.contains("nested more than"));
        let (_, d) = parse("x /* y", "t.br");
        assert_eq!(d[0].to_string(), "t.br:1:3: error: [syntax] unterminated /* comment");
    }
}
