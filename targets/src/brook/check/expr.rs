//! The type checker of kernel expressions: Brook+'s strict typing (no
//! implicit int<->float or float<->double conversion; integer literals
//! convert to integer types only), vectors componentwise, and the rules that
//! live in expressions (`vector-condition`, `double-select`, `indexof`,
//! `no-pointers`, `unknown-name`, `unknown-function`).

use super::{Binding, Checker};
use crate::brook::syntax::ast::*;

/// Whether an expression is a literal, for the conversions literals allow
/// and for messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Lit {
    /// Not a literal.
    No,
    /// An integer literal (possibly negated): converts to any integer type.
    Int,
    /// A `double` literal (`2.0`).
    Double,
    /// A `float` literal (`2.0f`).
    Float,
}

/// The type of an expression.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Ty {
    /// The type.
    pub ty: Type,
    /// Whether (and which) literal the expression is.
    pub lit: Lit,
}

impl Ty {
    /// A non-literal value of type `ty`.
    pub fn of(ty: Type) -> Ty {
        Ty { ty, lit: Lit::No }
    }
}

/// Built-in functions of one or two arguments and the element types they
/// take.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Takes {
    /// `float`/`double` scalars and vectors.
    Float,
    /// Any number.
    Any,
}

const BUILTINS: &[(&str, usize, Takes)] = &[
    ("abs", 1, Takes::Any),
    ("fabs", 1, Takes::Float),
    ("sqrt", 1, Takes::Float),
    ("rsqrt", 1, Takes::Float),
    ("sin", 1, Takes::Float),
    ("cos", 1, Takes::Float),
    ("exp", 1, Takes::Float),
    ("log", 1, Takes::Float),
    ("floor", 1, Takes::Float),
    ("ceil", 1, Takes::Float),
    ("pow", 2, Takes::Float),
    ("fmod", 2, Takes::Float),
    ("min", 2, Takes::Any),
    ("max", 2, Takes::Any),
];

/// The names of all built-in functions (`instance` and `indexof` included).
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    ["instance", "indexof"].into_iter().chain(BUILTINS.iter().map(|b| b.0))
}

/// Splits `g[i][j]` into `g` and its subscripts `[i, j]`.
pub(super) fn index_chain(e: &Expr) -> (&Expr, Vec<&Expr>) {
    let mut subs = Vec::new();
    let mut cur = e;
    while let ExprKind::Index(b, i) = &cur.kind {
        subs.push(&**i);
        cur = b;
    }
    subs.reverse();
    (cur, subs)
}

fn int() -> Ty {
    Ty::of(Type::scalar(Scalar::Int))
}

impl Checker<'_> {
    /// The type of `e`, or `None` after reporting why it has none.
    pub(super) fn expr(&mut self, e: &Expr) -> Option<Ty> {
        match &e.kind {
            ExprKind::Int { value, unsigned } => {
                let limit = if *unsigned { u32::MAX as u64 } else { i32::MAX as u64 };
                if *value > limit {
                    let msg = format!(
                        "[type] integer literal '{}' does not fit in {}",
                        e.span.text(self.src),
                        if *unsigned {
                            "32 bits (uint)"
                        } else {
                            "int; write a 'u' suffix for uint"
                        }
                    );
                    self.err(e.span, msg);
                    return None;
                }
                Some(if *unsigned {
                    Ty::of(Type::scalar(Scalar::UInt))
                } else {
                    Ty {
                        ty: Type::scalar(Scalar::Int),
                        lit: Lit::Int,
                    }
                })
            }
            ExprKind::Float { single, .. } => Some(if *single {
                Ty {
                    ty: Type::scalar(Scalar::Float),
                    lit: Lit::Float,
                }
            } else {
                Ty {
                    ty: Type::scalar(Scalar::Double),
                    lit: Lit::Double,
                }
            }),
            ExprKind::Name(n) => self.name_value(n, e.span),
            ExprKind::Unary(op, a) => self.unary(*op, a, e.span),
            ExprKind::Binary(op, op_span, a, b) => {
                let ta = self.expr(a);
                let tb = self.expr(b);
                self.binary(*op, *op_span, (ta?, a), (tb?, b))
            }
            ExprKind::Cond(q, c, a, b) => {
                self.condition(c);
                let ta = self.expr(a);
                let tb = self.expr(b);
                let (ta, tb) = (ta?, tb?);
                if ta.ty.width != tb.ty.width {
                    let msg = format!(
                        "[type] '?:' chooses between a {} and a {}: both must have the same number of components",
                        ta.ty.name(),
                        tb.ty.name()
                    );
                    self.err(*q, msg);
                    return None;
                }
                let t = self.unify("?:", *q, (ta, a), (tb, b))?;
                if t.ty.scalar == Scalar::Double {
                    self.err(
                        *q,
                        format!(
                            "[double-select] '?:' on {} values breaks brcc's code generation; use if/else",
                            t.ty.name()
                        ),
                    );
                }
                Some(t)
            }
            ExprKind::Cast(t, a) => {
                self.type_rule(t);
                let ta = self.expr(a)?;
                if ta.ty.width != t.ty.width {
                    let msg = format!(
                        "[type] cannot cast a {} to a {}: casts keep the number of components",
                        ta.ty.name(),
                        t.ty.name()
                    );
                    self.err(t.span, msg);
                    return None;
                }
                Some(Ty::of(t.ty))
            }
            ExprKind::Construct(t, args) => self.construct(t, args, e.span),
            ExprKind::Call(f, args) => self.call(f, args, e.span),
            ExprKind::Index(..) => self.index(e),
            ExprKind::Member(base, comp) => {
                let t = self.expr(base)?;
                self.component(t.ty, comp)
            }
            ExprKind::Arrow(_, m) => {
                self.err(
                    m.span,
                    "[no-pointers] '->' needs a pointer: Brook+ has no pointers".into(),
                );
                None
            }
        }
    }

    /// The value of the name `n` in an expression.
    fn name_value(&mut self, n: &str, span: Span) -> Option<Ty> {
        match self.lookup(n) {
            Some(Binding::Local(t)) => Some(Ty::of(t)),
            Some(Binding::Param(p)) => match p.kind {
                ParamKind::Gather(d) => {
                    let msg = format!(
                        "[type] gather array '{n}' is read through {d} subscript{}: '{n}{}'",
                        if d == 1 { "" } else { "s" },
                        "[i]".repeat(d as usize)
                    );
                    self.err(span, msg);
                    None
                }
                ParamKind::Scatter(_) => {
                    self.err(span, format!("[type] scatter output '{n}' is write-only"));
                    None
                }
                _ => Some(Ty::of(p.ty.ty)),
            },
            None => {
                let is_fn = builtin_names().any(|b| b == n);
                if is_fn {
                    self.err(span, format!("[type] built-in '{n}' must be called: '{n}(...)'"));
                } else {
                    self.unknown_name(n, span);
                }
                None
            }
        }
    }

    fn unary(&mut self, op: UnOp, a: &Expr, span: Span) -> Option<Ty> {
        let op_span = Span::new(span.start as usize, span.start as usize + 1);
        match op {
            UnOp::Deref | UnOp::AddrOf => {
                let _ = self.expr(a);
                self.err(
                    op_span,
                    format!(
                        "[no-pointers] unary '{}' needs pointers: Brook+ has no pointers",
                        if op == UnOp::Deref { "*" } else { "&" }
                    ),
                );
                None
            }
            UnOp::Not => {
                self.condition(a);
                Some(int())
            }
            UnOp::Neg | UnOp::Plus => self.expr(a),
            UnOp::BitNot => {
                let t = self.expr(a)?;
                if t.ty.scalar.is_float() {
                    let msg = format!("[type] '~' needs an integer operand, found {}", t.ty.name());
                    self.err(op_span, msg);
                    return None;
                }
                Some(Ty::of(t.ty))
            }
        }
    }

    /// Checks that `e` is a scalar (a condition).
    pub(super) fn condition(&mut self, e: &Expr) {
        if let Some(t) = self.expr(e) {
            if t.ty.width > 1 {
                let msg = format!(
                    "[vector-condition] a {} is not a condition in Brook+; test a component (e.g. 'v.x > 0.0f')",
                    t.ty.name()
                );
                self.err(e.span, msg);
            }
        }
    }

    /// The common type of two operands (`what` names the operator), with
    /// Brook+'s strict conversions: same element types, or an integer
    /// literal with an integer type, or two integer types; a scalar combines
    /// with a vector of its element type.
    fn unify(&mut self, what: &str, op_span: Span, (a, ae): (Ty, &Expr), (b, be): (Ty, &Expr)) -> Option<Ty> {
        let width = a.ty.width.max(b.ty.width);
        if a.ty.width != b.ty.width && a.ty.width > 1 && b.ty.width > 1 {
            let msg = format!(
                "[type] '{what}' of a {} and a {}: vectors of different widths",
                a.ty.name(),
                b.ty.name()
            );
            self.err(op_span, msg);
            return None;
        }
        let (sa, sb) = (a.ty.scalar, b.ty.scalar);
        let (scalar, lit) = if sa == sb {
            (sa, if a.lit == b.lit { a.lit } else { Lit::No })
        } else if !sa.is_float() && !sb.is_float() {
            let s = match (a.lit, b.lit) {
                (Lit::Int, _) => sb,
                (_, Lit::Int) => sa,
                _ if width > 1 => {
                    let msg = format!(
                        "[type] '{what}' of a {} and a {}: a vector combines with values of its own element type only; write a cast",
                        a.ty.name(),
                        b.ty.name()
                    );
                    self.err(op_span, msg);
                    return None;
                }
                _ if sa == Scalar::UInt || sb == Scalar::UInt => Scalar::UInt,
                _ => Scalar::Int,
            };
            (s, Lit::No)
        } else {
            // Float involved, element types differ: find the culprit.
            for (t, e, other) in [(a, ae, sb), (b, be, sa)] {
                if let Some(msg) = self.literal_mismatch(t, e, other) {
                    self.err(e.span, msg);
                    return None;
                }
            }
            let msg = format!(
                "[strict-float] '{what}' mixes {} and {}: Brook+ has no implicit int/float/double conversion; cast one operand",
                a.ty.name(),
                b.ty.name()
            );
            self.err(op_span, msg);
            return None;
        };
        Some(Ty {
            ty: Type { scalar, width },
            lit,
        })
    }

    /// The message for a literal `e` (of type `t`) used where element type
    /// `want` is expected, when that is the mistake.
    fn literal_mismatch(&self, t: Ty, e: &Expr, want: Scalar) -> Option<String> {
        let text = e.span.text(self.src);
        let fix = |s: &str| match want {
            Scalar::Float => format!("{s}f"),
            _ => s.to_string(),
        };
        match (t.lit, want) {
            (Lit::Int, Scalar::Float | Scalar::Double) => {
                let digits = text.trim_start_matches(['-', '+', ' ']);
                Some(format!(
                    "[strict-float] integer literal '{text}' where {} is expected: write {}",
                    want.name(),
                    fix(&format!("{digits}.0"))
                ))
            }
            (Lit::Double, Scalar::Float) => Some(format!(
                "[strict-float] double literal '{text}' where float is expected: write {}",
                fix(text)
            )),
            (Lit::Float, Scalar::Double) => Some(format!(
                "[strict-float] float literal '{text}' where double is expected: write {}",
                text.trim_end_matches(['f', 'F'])
            )),
            _ => None,
        }
    }

    /// Checks that a value of type `t` (the expression `e`) can be stored in
    /// a place of type `target`.
    pub(super) fn assign_to(&mut self, target: Type, t: Ty, e: &Expr) {
        if target.width != t.ty.width {
            let msg = format!("[type] a {} value where a {} is expected", t.ty.name(), target.name());
            self.err(e.span, msg);
            return;
        }
        let (want, have) = (target.scalar, t.ty.scalar);
        let integers = !want.is_float() && !have.is_float();
        if want == have || (integers && target.width == 1) {
            return;
        }
        if integers {
            let msg = format!(
                "[type] a {} value where a {} is expected: vectors convert only through a cast ({})",
                t.ty.name(),
                target.name(),
                target.name()
            );
            self.err(e.span, msg);
            return;
        }
        let msg = self.literal_mismatch(t, e, want).unwrap_or_else(|| {
            format!(
                "[strict-float] a {} value where {} is expected: Brook+ has no implicit int/float/double conversion; write a cast ({})",
                t.ty.name(),
                target.name(),
                target.name()
            )
        });
        self.err(e.span, msg);
    }

    /// The type of `a op b`.
    pub(super) fn binary(&mut self, op: BinOp, op_span: Span, a: (Ty, &Expr), b: (Ty, &Expr)) -> Option<Ty> {
        if matches!(op, BinOp::And | BinOp::Or) {
            for (t, e) in [a, b] {
                if t.ty.width > 1 {
                    let msg = format!(
                        "[vector-condition] a {} is not a condition in Brook+ ('{}' needs scalars); test a component",
                        t.ty.name(),
                        op.text()
                    );
                    self.err(e.span, msg);
                    return None;
                }
            }
            return Some(int());
        }
        let t = self.unify(op.text(), op_span, a, b)?;
        let integer_only = matches!(
            op,
            BinOp::Rem | BinOp::Shl | BinOp::Shr | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor
        );
        if integer_only && t.ty.scalar.is_float() {
            let msg = format!(
                "[type] '{}' needs integer operands, found {}{}",
                op.text(),
                t.ty.name(),
                if op == BinOp::Rem { " (use fmod)" } else { "" }
            );
            self.err(op_span, msg);
            return None;
        }
        if op.is_comparison() {
            if t.ty.width > 1 {
                let msg = format!(
                    "[type] '{}' of {} vectors: compare components (componentwise comparisons are outside lf's Brook+ subset)",
                    op.text(),
                    t.ty.name()
                );
                self.err(op_span, msg);
                return None;
            }
            return Some(int());
        }
        Some(t)
    }

    /// The type of the read swizzle `.comp` of a `t` value.
    pub(super) fn component(&mut self, t: Type, comp: &Ident) -> Option<Ty> {
        if t.width == 1 {
            let msg = format!(
                "[type] '.{}' of a {}: components belong to vectors",
                comp.name,
                t.name()
            );
            self.err(comp.span, msg);
            return None;
        }
        let ok = comp.name.len() <= 4
            && comp
                .name
                .bytes()
                .all(|c| matches!(c, b'x' | b'y' | b'z' | b'w') && "xyzw".find(c as char).unwrap() < t.width as usize);
        if !ok {
            let comps = &"xyzw"[..t.width as usize];
            let msg = format!(
                "[type] '.{}' is not a swizzle of a {} (components {})",
                comp.name,
                t.name(),
                comps.chars().map(|c| format!(".{c}")).collect::<Vec<_>>().join(" ")
            );
            self.err(comp.span, msg);
            return None;
        }
        Some(Ty::of(Type {
            scalar: t.scalar,
            width: comp.name.len() as u8,
        }))
    }

    /// Checks `d` integer subscripts of the gather or scatter `p`.
    pub(super) fn subscripts(&mut self, p: &Param, d: u8, subs: &[&Expr], span: Span) {
        if subs.len() != d as usize {
            let msg = format!(
                "[type] '{}' has {d} dimension{} but {} subscript{}",
                p.name.name,
                if d == 1 { "" } else { "s" },
                subs.len(),
                if subs.len() == 1 { "" } else { "s" }
            );
            self.err(span, msg);
        }
        for s in subs {
            if let Some(t) = self.expr(s) {
                if t.ty.width != 1 || t.ty.scalar.is_float() {
                    let msg = format!(
                        "[type] subscripts of '{}' are int (lf's Brook+ subset), found {}",
                        p.name.name,
                        t.ty.name()
                    );
                    self.err(s.span, msg);
                }
            }
        }
    }

    /// A gather read `g[i][j]`.
    fn index(&mut self, e: &Expr) -> Option<Ty> {
        let (base, subs) = index_chain(e);
        if let ExprKind::Name(n) = &base.kind {
            match self.lookup(n) {
                Some(Binding::Param(p)) if matches!(p.kind, ParamKind::Gather(_)) => {
                    let ParamKind::Gather(d) = p.kind else { unreachable!() };
                    self.subscripts(p, d, &subs, e.span);
                    return Some(Ty::of(p.ty.ty));
                }
                Some(Binding::Param(p)) if matches!(p.kind, ParamKind::Scatter(_)) => {
                    self.err(base.span, format!("[type] scatter output '{n}' is write-only"));
                    return None;
                }
                None => {
                    self.unknown_name(n, base.span);
                    return None;
                }
                _ => {}
            }
        }
        self.err(
            e.span,
            format!(
                "[type] '{}' is not a gather array: only gathers are read through '[...]'",
                base.span.text(self.src)
            ),
        );
        None
    }

    /// A vector constructor `float4(a, b, c, d)`: one scalar of the element
    /// type per component.
    fn construct(&mut self, t: &TypeName, args: &[Expr], span: Span) -> Option<Ty> {
        self.type_rule(t);
        let mut ok = true;
        if t.ty.width == 1 || args.len() != t.ty.width as usize {
            let msg = format!(
                "[type] '{}(...)' takes {} {} argument{}, found {}",
                t.ty.name(),
                t.ty.width,
                t.ty.scalar.name(),
                if t.ty.width == 1 {
                    " (write a cast '(T)e' for scalars)"
                } else {
                    "s"
                },
                args.len()
            );
            self.err(span, msg);
            ok = false;
        }
        for a in args {
            if let Some(at) = self.expr(a) {
                self.assign_to(Type::scalar(t.ty.scalar), at, a);
            }
        }
        ok.then_some(Ty::of(t.ty))
    }

    /// A call of a built-in.
    fn call(&mut self, f: &Ident, args: &[Expr], span: Span) -> Option<Ty> {
        let arity = |c: &mut Self, n: usize| {
            if args.len() != n {
                let msg = format!(
                    "[type] '{}' takes {n} argument{}, found {}",
                    f.name,
                    if n == 1 { "" } else { "s" },
                    args.len()
                );
                c.err(span, msg);
                false
            } else {
                true
            }
        };
        match f.name.as_str() {
            "instance" => arity(self, 0).then_some(Ty::of(Type {
                scalar: Scalar::Int,
                width: 4,
            })),
            "indexof" => {
                if self.kernel.reduce {
                    let msg = format!(
                        "[indexof] 'indexof' is not allowed in reduce kernel '{}'",
                        self.kernel.name.name
                    );
                    self.err(f.span, msg);
                }
                if !arity(self, 1) {
                    return None;
                }
                let arg = &args[0];
                let param = match &arg.kind {
                    ExprKind::Name(n) => match self.lookup(n) {
                        Some(Binding::Param(p)) => Some(p),
                        Some(Binding::Local(_)) => None,
                        None => {
                            self.unknown_name(n, arg.span);
                            return None;
                        }
                    },
                    _ => None,
                };
                match param.map(|p| p.kind) {
                    Some(ParamKind::Stream | ParamKind::OutStream | ParamKind::Reduce) => {}
                    Some(ParamKind::Gather(_)) => {
                        let msg = format!(
                            "[indexof] 'indexof' of gather array '{}': Brook+ allows it on streams only",
                            arg.span.text(self.src)
                        );
                        self.err(arg.span, msg);
                    }
                    _ => {
                        let msg = format!(
                            "[type] 'indexof' takes a stream parameter, found '{}'",
                            arg.span.text(self.src)
                        );
                        self.err(arg.span, msg);
                    }
                }
                Some(Ty::of(Type {
                    scalar: Scalar::Float,
                    width: 4,
                }))
            }
            name => {
                let Some(&(_, n, takes)) = BUILTINS.iter().find(|b| b.0 == name) else {
                    for a in args {
                        let _ = self.expr(a);
                    }
                    let hint = lf_diag::suggest::nearest(name, builtin_names())
                        .map(|s| format!("; did you mean '{s}'?"))
                        .unwrap_or_default();
                    self.err(
                        f.span,
                        format!("[unknown-function] '{name}' is not a Brook+ built-in function{hint}"),
                    );
                    return None;
                };
                let types: Vec<Option<Ty>> = args.iter().map(|a| self.expr(a)).collect();
                if !arity(self, n) {
                    return None;
                }
                let mut t = types[0]?;
                if n == 2 {
                    t = self.unify(name, f.span, (t, &args[0]), (types[1]?, &args[1]))?;
                }
                if takes == Takes::Float && !t.ty.scalar.is_float() {
                    let culprit = args
                        .iter()
                        .zip(&types)
                        .find(|(_, t)| t.is_some_and(|t| !t.ty.scalar.is_float()));
                    let (a, at) = culprit.map(|(a, t)| (a, t.unwrap())).unwrap_or((&args[0], t));
                    let msg = match self.literal_mismatch(at, a, Scalar::Float) {
                        Some(m) => format!("{m} ('{name}' takes float or double)"),
                        None => format!(
                            "[strict-float] '{name}' takes float or double, found {}: write a cast",
                            at.ty.name()
                        ),
                    };
                    self.err(a.span, msg);
                    return None;
                }
                Some(Ty::of(t.ty))
            }
        }
    }
}
