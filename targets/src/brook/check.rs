//! The Brook+ rule checker: every rule of docs/design/brook.md ("Rules the
//! checker enforces"), each diagnostic at the offending token, its message
//! starting with the rule's name in brackets (`[strict-float] ...`).
//! Besides the named rules there are `[syntax]` (not in the subset),
//! `[type]` (other type errors) and `[redefinition]`.
//!
//! ```
//! let src = "kernel void k(float a<>, out float b<>) { b = a * 2; }";
//! let d = lf_targets::brook::check::check(src, "k.br");
//! assert_eq!(d.len(), 1);
//! assert!(d[0].to_string().starts_with("k.br:1:51: error: [strict-float]"));
//! ```

mod expr;

use super::syntax::ast::*;
use super::syntax::{self, lexer, SourceMap};
use lf_diag::Diagnostic;

/// Brook+'s limit on output streams per kernel.
pub const MAX_OUTPUT_STREAMS: usize = 8;
/// Brook+'s limit on inputs (input streams and gather arrays) per kernel.
pub const MAX_INPUTS: usize = 128;

/// Names a kernel may not use: Brook+'s keywords and reserved words.
pub const RESERVED: &[&str] = &[
    "kernel",
    "reduce",
    "out",
    "iter",
    "vout",
    "indexof",
    "instance",
    "line",
    "transpose",
    "shared",
    "Attribute",
];

/// Checks the Brook+ file `source` (named `file` in positions): the syntax
/// errors and the rule violations of all its kernels, sorted by position.
/// An empty result means the file is in lf's Brook+ subset and follows the
/// rules.
pub fn check(source: &str, file: &str) -> Vec<Diagnostic> {
    let (unit, mut diags) = syntax::parse(source, file);
    let map = SourceMap::new(source, file);
    if let Ok(toks) = lexer::lex(source) {
        for t in toks.iter().filter(|t| t.kind == lexer::TokKind::Directive) {
            let words: Vec<&str> = t.span.text(source)[1..].split_whitespace().take(1).collect();
            if words == ["define"] {
                diags.push(map.error(
                    t.span,
                    "[define] '#define' needs brcc's '-pp' (preprocessor) option; write the value out or use a scalar parameter",
                ));
            }
        }
    }
    let kernels: Vec<&Kernel> = unit.kernels();
    for (i, k) in kernels.iter().enumerate() {
        if let Some(first) = kernels[..i].iter().find(|f| f.name.name == k.name.name) {
            let at = map.pos(first.name.span.start);
            diags.push(
                map.error(
                    k.name.span,
                    format!("[redefinition] kernel '{}' is defined twice", k.name.name),
                )
                .with_note(at, "first defined here"),
            );
        }
    }
    for item in &unit.items {
        if let Item::Kernel(k) = item {
            let mut c = Checker {
                src: source,
                map: &map,
                kernel: k,
                scopes: Vec::new(),
                loops: 0,
                diags: Vec::new(),
            };
            c.kernel();
            diags.append(&mut c.diags);
        }
    }
    lf_diag::sort_by_position(&mut diags);
    diags
}

/// A local variable in scope.
struct Local {
    name: String,
    ty: Type,
}

/// What a name in a kernel body means.
#[derive(Copy, Clone)]
enum Binding<'k> {
    Param(&'k Param),
    Local(Type),
}

/// The checker of one kernel.
struct Checker<'a> {
    src: &'a str,
    map: &'a SourceMap,
    kernel: &'a Kernel,
    /// Blocks' locals, innermost last.
    scopes: Vec<Vec<Local>>,
    /// How many loops enclose the current statement.
    loops: u32,
    diags: Vec<Diagnostic>,
}

impl<'a> Checker<'a> {
    fn err(&mut self, span: Span, message: String) {
        self.diags.push(self.map.error(span, message));
    }

    fn kernel(&mut self) {
        let k = self.kernel;
        self.name_rule(&k.name);
        let mut outputs = 0;
        let mut inputs = 0;
        let mut scatters = 0;
        for (i, p) in k.params.iter().enumerate() {
            self.name_rule(&p.name);
            self.type_rule(&p.ty);
            if let Some(c) = p.const_kw {
                self.err(
                    c,
                    format!(
                        "[const-param] parameter '{}' is const: Brook+ refuses const parameters (inputs are read-only anyway)",
                        p.name.name
                    ),
                );
            }
            if let Some(s) = p.pointer {
                self.err(
                    s,
                    format!(
                        "[no-pointers] parameter '{}' is a pointer: Brook+ has no pointers",
                        p.name.name
                    ),
                );
            }
            if k.params[..i].iter().any(|q| q.name.name == p.name.name) {
                self.err(
                    p.name.span,
                    format!("[redefinition] parameter '{}' is declared twice", p.name.name),
                );
            }
            match p.kind {
                ParamKind::OutStream => {
                    outputs += 1;
                    if outputs == MAX_OUTPUT_STREAMS + 1 {
                        let n = k.params.iter().filter(|q| q.kind == ParamKind::OutStream).count();
                        self.err(
                            p.span,
                            format!(
                                "[out-streams] kernel '{}' has {n} output streams; Brook+ allows at most {MAX_OUTPUT_STREAMS} (brcc splits more into two passes)",
                                k.name.name
                            ),
                        );
                    }
                }
                ParamKind::Scatter(_) => {
                    scatters += 1;
                    if scatters == 2 {
                        self.err(
                            p.span,
                            format!(
                                "[scatter] kernel '{}' has a second scatter output '{}'; Brook+ allows one per kernel",
                                k.name.name, p.name.name
                            ),
                        );
                    }
                }
                ParamKind::Stream | ParamKind::Gather(_) => {
                    inputs += 1;
                    if inputs == MAX_INPUTS + 1 {
                        let n = k
                            .params
                            .iter()
                            .filter(|q| matches!(q.kind, ParamKind::Stream | ParamKind::Gather(_)))
                            .count();
                        self.err(
                            p.span,
                            format!(
                                "[inputs] kernel '{}' has {n} input streams and gather arrays; Brook+ allows at most {MAX_INPUTS}",
                                k.name.name
                            ),
                        );
                    }
                }
                ParamKind::Reduce if !k.reduce => self.err(
                    p.span,
                    format!(
                        "[syntax] 'reduce' parameter '{}' in kernel '{}', which is not a reduce kernel",
                        p.name.name, k.name.name
                    ),
                ),
                ParamKind::Reduce | ParamKind::Scalar => {}
            }
        }
        if k.reduce && !k.params.iter().any(|p| p.kind == ParamKind::Reduce) {
            self.err(
                k.name.span,
                format!("[syntax] reduce kernel '{}' has no 'reduce' parameter", k.name.name),
            );
        }
        self.block(&k.body);
    }

    /// `reserved-name`: `line`, `transpose` and Brook+'s keywords.
    fn name_rule(&mut self, id: &Ident) {
        if RESERVED.contains(&id.name.as_str()) {
            self.err(
                id.span,
                format!(
                    "[reserved-name] '{}' is reserved in Brook+ and cannot name anything",
                    id.name
                ),
            );
        }
    }

    /// `double-vector`: of the double vectors only `double2` exists.
    fn type_rule(&mut self, t: &TypeName) {
        if t.ty.scalar == Scalar::Double && t.ty.width > 2 {
            self.err(
                t.span,
                format!(
                    "[double-vector] '{}' does not exist in Brook+: the only double vector is double2",
                    t.ty.name()
                ),
            );
        }
    }

    fn lookup(&self, name: &str) -> Option<Binding<'a>> {
        for scope in self.scopes.iter().rev() {
            if let Some(l) = scope.iter().rev().find(|l| l.name == name) {
                return Some(Binding::Local(l.ty));
            }
        }
        self.kernel
            .params
            .iter()
            .find(|p| p.name.name == name)
            .map(Binding::Param)
    }

    /// Every name visible here (for "did you mean").
    fn visible_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.kernel.params.iter().map(|p| p.name.name.as_str()).collect();
        for s in &self.scopes {
            v.extend(s.iter().map(|l| l.name.as_str()));
        }
        v
    }

    fn block(&mut self, b: &Block) {
        self.scopes.push(Vec::new());
        let mut first_stmt: Option<Span> = None;
        for item in &b.items {
            match item {
                BlockItem::Decl(d) => {
                    if first_stmt.is_some() {
                        self.err(
                            d.ty.span,
                            format!(
                                "[c89-declarations] declaration of '{}' after a statement: Brook+ (C89) declares locals at the start of a block",
                                d.vars[0].0.name
                            ),
                        );
                    }
                    self.decl(d);
                }
                BlockItem::Stmt(s) => {
                    first_stmt.get_or_insert(s.span);
                    self.stmt(s);
                }
            }
        }
        self.scopes.pop();
    }

    fn decl(&mut self, d: &Decl) {
        self.type_rule(&d.ty);
        if let Some(s) = d.pointer {
            self.err(s, "[no-pointers] Brook+ has no pointers".into());
        }
        for (name, init) in &d.vars {
            self.name_rule(name);
            if let Some(e) = init {
                if let Some(t) = self.expr(e) {
                    self.assign_to(d.ty.ty, t, e);
                }
            }
            let scope = self.scopes.last_mut().expect("a block is open");
            if scope.iter().any(|l| l.name == name.name) {
                let msg = format!("[redefinition] '{}' is declared twice in one block", name.name);
                self.err(name.span, msg);
            } else if self.kernel.params.iter().any(|p| p.name.name == name.name) && self.scopes.len() == 1 {
                let msg = format!("[redefinition] local '{}' has the name of a parameter", name.name);
                self.err(name.span, msg);
            }
            self.scopes.last_mut().expect("a block is open").push(Local {
                name: name.name.clone(),
                ty: d.ty.ty,
            });
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Assign { lhs, op, op_span, rhs } => {
                let target = self.lvalue(lhs);
                let value = self.expr(rhs);
                let (Some(target), Some(value)) = (target, value) else {
                    return;
                };
                match op {
                    AssignOp::Set => self.assign_to(target, value, rhs),
                    AssignOp::Compound(b) => {
                        let t = expr::Ty::of(target);
                        if let Some(r) = self.binary(*b, *op_span, (t, lhs), (value, rhs)) {
                            if r.ty != target {
                                let msg = format!(
                                    "[type] '{}=' makes a {} value, which cannot be stored in the {} '{}'",
                                    b.text(),
                                    r.ty.name(),
                                    target.name(),
                                    lhs.span.text(self.src)
                                );
                                self.err(*op_span, msg);
                            }
                        }
                    }
                }
            }
            StmtKind::If { cond, then, els } => {
                self.condition(cond);
                self.stmt(then);
                if let Some(e) = els {
                    self.stmt(e);
                }
            }
            StmtKind::While { cond, body } => {
                self.condition(cond);
                self.loops += 1;
                self.stmt(body);
                self.loops -= 1;
            }
            StmtKind::For { init, cond, step, body } => {
                // The scope of a declaration in the initialization (refused).
                self.scopes.push(Vec::new());
                match init.as_deref() {
                    Some(BlockItem::Decl(d)) => {
                        self.err(
                            d.ty.span,
                            format!(
                                "[c89-declarations] 'for ({} {} = ...)' declares in the loop: Brook+ (C89) needs '{1}' declared at the start of the block",
                                d.ty.ty.name(),
                                d.vars[0].0.name
                            ),
                        );
                        self.decl(d);
                    }
                    Some(BlockItem::Stmt(s)) => self.stmt(s),
                    None => {}
                }
                if let Some(c) = cond {
                    self.condition(c);
                }
                if let Some(st) = step {
                    self.stmt(st);
                }
                self.loops += 1;
                self.stmt(body);
                self.loops -= 1;
                self.scopes.pop();
            }
            StmtKind::Block(b) => self.block(b),
            StmtKind::Break | StmtKind::Continue if self.loops == 0 => {
                let msg = format!(
                    "[syntax] '{}' outside a loop",
                    s.span.text(self.src).trim_end_matches(';')
                );
                self.err(s.span, msg);
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Return | StmtKind::Empty => {}
            StmtKind::Goto => self.err(s.span, "[no-goto] Brook+ has no 'goto' (nor labels)".into()),
            StmtKind::Switch => self.err(
                s.span,
                "[no-switch] Brook+ has no 'switch' (nor 'case'/'default'); use if/else".into(),
            ),
        }
    }

    /// The type of the place `e` assigns, reporting what cannot be assigned.
    fn lvalue(&mut self, e: &Expr) -> Option<Type> {
        match &e.kind {
            ExprKind::Name(n) => match self.lookup(n) {
                Some(Binding::Local(t)) => Some(t),
                Some(Binding::Param(p)) => match p.kind {
                    ParamKind::OutStream | ParamKind::Reduce => Some(p.ty.ty),
                    ParamKind::Scatter(d) => {
                        let msg = format!(
                            "[type] scatter output '{n}' is assigned element-wise: write '{n}{}'",
                            "[i]".repeat(d as usize)
                        );
                        self.err(e.span, msg);
                        None
                    }
                    kind => {
                        let what = match kind {
                            ParamKind::Stream => "an input stream",
                            ParamKind::Gather(_) => "a gather array",
                            _ => "a scalar parameter",
                        };
                        self.err(e.span, format!("[read-only] '{n}' is {what}, which is read-only"));
                        None
                    }
                },
                None => {
                    self.unknown_name(n, e.span);
                    None
                }
            },
            ExprKind::Member(base, comp) => {
                let t = self.lvalue(base)?;
                if comp.name.len() != 1 {
                    let msg = format!(
                        "[type] '.{}' writes several components: assign them one at a time ('.x', '.y', ...)",
                        comp.name
                    );
                    self.err(comp.span, msg);
                    return None;
                }
                self.component(t, comp).map(|t| t.ty)
            }
            ExprKind::Index(..) => {
                let (base, subs) = expr::index_chain(e);
                if let ExprKind::Name(n) = &base.kind {
                    if let Some(Binding::Param(p)) = self.lookup(n) {
                        match p.kind {
                            ParamKind::Scatter(d) => {
                                self.subscripts(p, d, &subs, e.span);
                                return Some(p.ty.ty);
                            }
                            ParamKind::Gather(_) => {
                                self.err(
                                    base.span,
                                    format!("[read-only] '{n}' is a gather array, which is read-only"),
                                );
                                return None;
                            }
                            _ => {}
                        }
                    }
                }
                self.err(
                    e.span,
                    "[type] only a scatter output's elements can be assigned through '[...]'".into(),
                );
                None
            }
            _ => {
                let msg = format!(
                    "[type] '{}' cannot be assigned: assign a local, an output stream, a component or a scatter element",
                    e.span.text(self.src)
                );
                self.err(e.span, msg);
                None
            }
        }
    }

    fn unknown_name(&mut self, n: &str, span: Span) {
        let hint = lf_diag::suggest::nearest(n, self.visible_names())
            .map(|s| format!("; did you mean '{s}'?"))
            .unwrap_or_default();
        self.err(span, format!("[unknown-name] unknown name '{n}'{hint}"));
    }
}
