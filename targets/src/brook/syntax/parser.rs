//! A recursive-descent parser of the Brook+ subset's kernels. The file is cut
//! into kernels (`kernel void` / `reduce void` at the top level) and host code
//! in between, which is kept as a source range and never parsed.

use super::ast::*;
use super::lexer::{TokKind, Token};

/// A syntax error: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The offending token.
    pub span: Span,
    /// What was expected or found.
    pub message: String,
}

type PResult<T> = Result<T, ParseError>;

/// Cuts the tokens of `src` into kernels and host code and parses the
/// kernels. A kernel with a syntax error is left out of the unit; its error
/// is reported and parsing goes on after its closing brace.
pub fn parse_tokens(src: &str, toks: &[Token]) -> (Unit, Vec<ParseError>) {
    let mut items = Vec::new();
    let mut errors = Vec::new();
    let mut host_start = 0u32;
    let mut depth = 0i32;
    let mut i = 0;
    while toks[i].kind != TokKind::Eof {
        let t = toks[i];
        let text = t.span.text(src);
        if t.kind == TokKind::Punct {
            match text {
                "{" | "(" | "[" => depth += 1,
                "}" | ")" | "]" => depth -= 1,
                _ => {}
            }
        }
        let next_is_void = toks[i + 1].kind == TokKind::Ident && toks[i + 1].span.text(src) == "void";
        if depth == 0 && t.kind == TokKind::Ident && (text == "kernel" || text == "reduce") && next_is_void {
            let Some(end) = kernel_end(src, toks, i) else {
                errors.push(ParseError {
                    span: t.span,
                    message: "[syntax] kernel without a body: expected '(' parameters ')' and '{' ... '}'".into(),
                });
                break;
            };
            if host_start < t.span.start {
                items.push(Item::Host(Span {
                    start: host_start,
                    end: t.span.start,
                }));
            }
            let mut p = Parser {
                src,
                toks,
                pos: i,
                end,
                depth: 0,
                in_expr: false,
            };
            match p.kernel() {
                Ok(k) => items.push(Item::Kernel(k)),
                Err(e) => errors.push(e),
            }
            host_start = toks[end - 1].span.end;
            i = end;
            continue;
        }
        i += 1;
    }
    let len = src.len() as u32;
    if host_start < len {
        items.push(Item::Host(Span {
            start: host_start,
            end: len,
        }));
    }
    (Unit { items }, errors)
}

/// The token index one past the closing brace of the kernel whose keyword is
/// token `i`, or `None` when its braces do not close.
fn kernel_end(src: &str, toks: &[Token], i: usize) -> Option<usize> {
    let mut j = i;
    // The first `{` outside parentheses opens the body.
    let mut parens = 0i32;
    loop {
        let t = toks[j];
        if t.kind == TokKind::Eof {
            return None;
        }
        if t.kind == TokKind::Punct {
            match t.span.text(src) {
                "(" => parens += 1,
                ")" => parens -= 1,
                "{" if parens == 0 => break,
                ";" if parens == 0 => return None,
                _ => {}
            }
        }
        j += 1;
    }
    let mut depth = 0i32;
    loop {
        let t = toks[j];
        if t.kind == TokKind::Eof {
            return None;
        }
        if t.kind == TokKind::Punct {
            match t.span.text(src) {
                "{" => depth += 1,
                "}" => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(j + 1);
                    }
                }
                _ => {}
            }
        }
        j += 1;
    }
}

struct Parser<'a> {
    src: &'a str,
    toks: &'a [Token],
    pos: usize,
    /// One past the kernel's last token: tokens from here on read as the end.
    end: usize,
    /// The current nesting of statements and expressions.
    depth: u32,
    /// True while an expression is being parsed.
    in_expr: bool,
}

/// The height of an expression tree (computed without recursion: left-deep
/// operator chains inside parentheses can make trees deeper than the
/// parser's nesting).
fn height(e: &Expr) -> usize {
    let mut max = 0;
    let mut stack = vec![(e, 1usize)];
    while let Some((e, h)) = stack.pop() {
        max = max.max(h);
        match &e.kind {
            ExprKind::Int { .. } | ExprKind::Float { .. } | ExprKind::Name(_) => {}
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) | ExprKind::Member(a, _) | ExprKind::Arrow(a, _) => {
                stack.push((a, h + 1))
            }
            ExprKind::Binary(_, _, a, b) | ExprKind::Index(a, b) => {
                stack.push((a, h + 1));
                stack.push((b, h + 1));
            }
            ExprKind::Cond(_, c, a, b) => {
                stack.extend([(&**c, h + 1), (&**a, h + 1), (&**b, h + 1)]);
            }
            ExprKind::Call(_, args) | ExprKind::Construct(_, args) => stack.extend(args.iter().map(|a| (a, h + 1))),
        }
    }
    max
}

/// The tallest expression tree the parser accepts.
const MAX_HEIGHT: usize = 200;

/// The deepest nesting of statements and expressions the parser accepts.
const MAX_DEPTH: u32 = 100;

/// Binary operators by precedence level (lowest first).
const LEVELS: &[&[(&str, BinOp)]] = &[
    &[("||", BinOp::Or)],
    &[("&&", BinOp::And)],
    &[("|", BinOp::BitOr)],
    &[("^", BinOp::BitXor)],
    &[("&", BinOp::BitAnd)],
    &[("==", BinOp::Eq), ("!=", BinOp::Ne)],
    &[("<", BinOp::Lt), ("<=", BinOp::Le), (">", BinOp::Gt), (">=", BinOp::Ge)],
    &[("<<", BinOp::Shl), (">>", BinOp::Shr)],
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)],
];

/// Assignment operators.
const ASSIGN_OPS: &[(&str, AssignOp)] = &[
    ("=", AssignOp::Set),
    ("+=", AssignOp::Compound(BinOp::Add)),
    ("-=", AssignOp::Compound(BinOp::Sub)),
    ("*=", AssignOp::Compound(BinOp::Mul)),
    ("/=", AssignOp::Compound(BinOp::Div)),
    ("%=", AssignOp::Compound(BinOp::Rem)),
    ("&=", AssignOp::Compound(BinOp::BitAnd)),
    ("|=", AssignOp::Compound(BinOp::BitOr)),
    ("^=", AssignOp::Compound(BinOp::BitXor)),
    ("<<=", AssignOp::Compound(BinOp::Shl)),
    (">>=", AssignOp::Compound(BinOp::Shr)),
];

impl<'a> Parser<'a> {
    fn tok(&self) -> Token {
        if self.pos < self.end {
            self.toks[self.pos]
        } else {
            let at = self.toks[self.end - 1].span.end as usize;
            Token {
                kind: TokKind::Eof,
                span: Span::new(at, at),
            }
        }
    }

    /// The token `k` places ahead (the end, past the kernel).
    fn peek(&self, k: usize) -> Token {
        if self.pos + k < self.end {
            self.toks[self.pos + k]
        } else {
            let at = self.toks[self.end - 1].span.end as usize;
            Token {
                kind: TokKind::Eof,
                span: Span::new(at, at),
            }
        }
    }

    /// Enters one level of statement or expression nesting; deep nesting is
    /// an error, not a stack overflow.
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.error(format!(
                "[syntax] statements or expressions nested more than {MAX_DEPTH} deep"
            ));
        }
        Ok(())
    }

    fn text(&self) -> &'a str {
        self.tok().span.text(self.src)
    }

    fn is(&self, s: &str) -> bool {
        let t = self.tok();
        t.kind != TokKind::Eof && t.kind != TokKind::Str && t.span.text(self.src) == s
    }

    fn bump(&mut self) -> Token {
        let t = self.tok();
        if self.pos < self.end {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, s: &str) -> Option<Span> {
        if self.is(s) {
            Some(self.bump().span)
        } else {
            None
        }
    }

    fn error<T>(&self, message: String) -> PResult<T> {
        Err(ParseError {
            span: self.tok().span,
            message,
        })
    }

    /// What the current token is, for messages.
    fn found(&self) -> String {
        match self.tok().kind {
            TokKind::Eof => "the end of the kernel".into(),
            _ => format!("'{}'", self.text()),
        }
    }

    fn expect(&mut self, s: &str, context: &str) -> PResult<Span> {
        match self.eat(s) {
            Some(sp) => Ok(sp),
            None => self.error(format!("[syntax] expected '{s}' {context}, found {}", self.found())),
        }
    }

    fn ident(&mut self, what: &str) -> PResult<Ident> {
        let t = self.tok();
        if t.kind == TokKind::Ident {
            self.bump();
            Ok(Ident {
                name: t.span.text(self.src).to_string(),
                span: t.span,
            })
        } else {
            self.error(format!("[syntax] expected {what}, found {}", self.found()))
        }
    }

    /// A type name at the current token, if it is one.
    fn type_here(&self) -> Option<TypeName> {
        let t = self.tok();
        if t.kind != TokKind::Ident {
            return None;
        }
        Type::from_name(t.span.text(self.src)).map(|ty| TypeName { ty, span: t.span })
    }

    fn type_name(&mut self, context: &str) -> PResult<TypeName> {
        match self.type_here() {
            Some(t) => {
                self.bump();
                Ok(t)
            }
            None => {
                let hint = if ["unsigned", "signed", "long"].contains(&self.text()) {
                    " (Brook+ spells the unsigned types uint, ushort and uchar; there is no long)"
                } else {
                    ""
                };
                self.error(format!(
                    "[syntax] expected a type {context}, found {}{hint}",
                    self.found()
                ))
            }
        }
    }

    fn kernel(&mut self) -> PResult<Kernel> {
        let kw = self.bump();
        let reduce = kw.span.text(self.src) == "reduce";
        self.bump(); // `void`
        let name = self.ident("the kernel's name")?;
        self.expect("(", "after the kernel's name")?;
        let mut params = Vec::new();
        if self.eat(")").is_none() {
            loop {
                params.push(self.param()?);
                if self.eat(")").is_some() {
                    break;
                }
                self.expect(",", "or ')' after a parameter")?;
            }
        }
        let body = self.block()?;
        Ok(Kernel {
            reduce,
            keyword: kw.span,
            name,
            span: kw.span.to(body.span),
            params,
            body,
        })
    }

    fn param(&mut self) -> PResult<Param> {
        let start = self.tok().span;
        let mut const_kw = self.eat("const");
        let out = self.eat("out").is_some();
        let reduce = !out && self.eat("reduce").is_some();
        if const_kw.is_none() {
            const_kw = self.eat("const");
        }
        let ty = self.type_name("for the parameter")?;
        let pointer = self.eat("*");
        let name = self.ident("the parameter's name")?;
        let mut dims = 0u8;
        let mut stream = false;
        if self.eat("<").is_some() {
            self.expect(
                ">",
                "after '<' of a stream parameter (lf's subset has no fixed-size streams)",
            )?;
            stream = true;
        } else {
            while self.eat("[").is_some() {
                self.expect("]", "after '[' of a gather or scatter array (sizes are not written)")?;
                dims += 1;
            }
        }
        if dims > 3 {
            return Err(ParseError {
                span: name.span,
                message: format!("[syntax] '{}' has {dims} dimensions; streams have at most 3", name.name),
            });
        }
        let kind = match (out, reduce, stream, dims) {
            (true, _, true, _) => ParamKind::OutStream,
            (true, _, false, d) if d > 0 => ParamKind::Scatter(d),
            (true, _, false, _) => {
                return Err(ParseError {
                    span: name.span,
                    message: format!(
                        "[syntax] output '{}' must be a stream 'out T {0}<>' or a scatter array 'out T {0}[]'",
                        name.name
                    ),
                })
            }
            (_, true, _, 0) => ParamKind::Reduce,
            (_, true, _, _) => {
                return Err(ParseError {
                    span: name.span,
                    message: format!("[syntax] reduce output '{}' cannot be an array", name.name),
                })
            }
            (_, _, true, _) => ParamKind::Stream,
            (_, _, false, 0) => ParamKind::Scalar,
            (_, _, false, d) => ParamKind::Gather(d),
        };
        let span = start.to(self.toks[self.pos - 1].span);
        Ok(Param {
            kind,
            ty,
            name,
            const_kw,
            pointer,
            span,
        })
    }

    fn block(&mut self) -> PResult<Block> {
        let open = self.expect("{", "to open a block")?;
        let mut items = Vec::new();
        while !self.is("}") {
            if self.tok().kind == TokKind::Eof {
                return self.error("[syntax] expected '}' to close the block".into());
            }
            items.push(self.block_item()?);
        }
        let close = self.bump().span;
        Ok(Block {
            items,
            span: open.to(close),
        })
    }

    /// True when the current token starts a declaration (a type name not
    /// followed by `(`, which would be a vector constructor).
    fn at_decl(&self) -> bool {
        (self.type_here().is_some() && self.peek(1).span.text(self.src) != "(") || self.is("const")
    }

    fn block_item(&mut self) -> PResult<BlockItem> {
        if self.at_decl() {
            Ok(BlockItem::Decl(self.decl()?))
        } else {
            Ok(BlockItem::Stmt(self.stmt()?))
        }
    }

    fn decl(&mut self) -> PResult<Decl> {
        if self.is("const") {
            return self.error("[syntax] 'const' locals are outside lf's Brook+ subset".into());
        }
        let ty = self.type_name("")?;
        let pointer = self.eat("*");
        let mut vars = Vec::new();
        loop {
            let name = self.ident("a name in the declaration")?;
            if self.is("[") {
                return self.error("[syntax] local arrays are outside lf's Brook+ subset".into());
            }
            let init = if self.eat("=").is_some() {
                Some(self.expr()?)
            } else {
                None
            };
            vars.push((name, init));
            if self.eat(",").is_none() {
                break;
            }
        }
        let semi = self.expect(";", "after the declaration")?;
        Ok(Decl {
            span: ty.span.to(semi),
            ty,
            vars,
            pointer,
        })
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let s = self.stmt_inner();
        self.depth -= 1;
        s
    }

    fn stmt_inner(&mut self) -> PResult<Stmt> {
        let start = self.tok().span;
        let word = if self.tok().kind == TokKind::Ident {
            self.text()
        } else {
            ""
        };
        let kind = match word {
            "if" => {
                self.bump();
                let cond = self.paren_expr("if")?;
                let then = Box::new(self.stmt()?);
                let els = if self.eat("else").is_some() {
                    Some(Box::new(self.stmt()?))
                } else {
                    None
                };
                StmtKind::If { cond, then, els }
            }
            "while" => {
                self.bump();
                let cond = self.paren_expr("while")?;
                StmtKind::While {
                    cond,
                    body: Box::new(self.stmt()?),
                }
            }
            "for" => {
                self.bump();
                self.expect("(", "after 'for'")?;
                let init = if self.eat(";").is_some() {
                    None
                } else if self.at_decl() {
                    Some(Box::new(BlockItem::Decl(self.decl()?)))
                } else {
                    let s = self.assign()?;
                    self.expect(";", "after the loop's initialization")?;
                    Some(Box::new(BlockItem::Stmt(s)))
                };
                let cond = if self.is(";") { None } else { Some(self.expr()?) };
                self.expect(";", "after the loop's condition")?;
                let step = if self.is(")") {
                    None
                } else {
                    Some(Box::new(self.assign()?))
                };
                self.expect(")", "after the loop's step")?;
                StmtKind::For {
                    init,
                    cond,
                    step,
                    body: Box::new(self.stmt()?),
                }
            }
            "break" | "continue" | "return" => {
                self.bump();
                if word == "return" && !self.is(";") {
                    return self.error("[syntax] a kernel returns no value: expected ';' after 'return'".into());
                }
                self.expect(";", &format!("after '{word}'"))?;
                match word {
                    "break" => StmtKind::Break,
                    "continue" => StmtKind::Continue,
                    _ => StmtKind::Return,
                }
            }
            "goto" => {
                self.bump();
                self.ident("a label after 'goto'")?;
                self.expect(";", "after the goto's label")?;
                StmtKind::Goto
            }
            "switch" | "case" | "default" => {
                self.skip_switch()?;
                StmtKind::Switch
            }
            _ if self.is("{") => StmtKind::Block(self.block()?),
            _ if self.is(";") => {
                self.bump();
                StmtKind::Empty
            }
            _ if self.tok().kind == TokKind::Ident && self.peek(1).span.text(self.src) == ":" => {
                // A label (only `goto` needs one).
                self.bump();
                self.bump();
                StmtKind::Goto
            }
            _ => {
                let s = self.assign()?;
                self.expect(";", "after the assignment")?;
                return Ok(Stmt {
                    span: s.span.to(self.toks[self.pos - 1].span),
                    kind: s.kind,
                });
            }
        };
        let end = self.toks[self.pos - 1].span;
        Ok(Stmt {
            kind,
            span: start.to(end),
        })
    }

    /// Skips a `switch` statement (or a stray `case x:` / `default:` label):
    /// the checker reports it, nothing else needs its contents.
    fn skip_switch(&mut self) -> PResult<()> {
        let word = self.bump();
        if word.span.text(self.src) != "switch" {
            while !self.is(":") {
                if self.tok().kind == TokKind::Eof {
                    return self.error("[syntax] expected ':' after a case label".into());
                }
                self.bump();
            }
            self.bump();
            return Ok(());
        }
        self.paren_expr("switch")?;
        self.stmt().map(|_| ())
    }

    fn paren_expr(&mut self, after: &str) -> PResult<Expr> {
        self.expect("(", &format!("after '{after}'"))?;
        let e = self.expr()?;
        self.expect(")", &format!("after the condition of '{after}'"))?;
        Ok(e)
    }

    /// `LVALUE op EXPR` (without the `;`).
    fn assign(&mut self) -> PResult<Stmt> {
        let lhs = self.unary()?;
        let t = self.tok();
        let op = ASSIGN_OPS
            .iter()
            .find(|(s, _)| t.kind == TokKind::Punct && t.span.text(self.src) == *s)
            .map(|&(_, op)| op);
        let Some(op) = op else {
            let what = if ["++", "--"].contains(&self.text()) {
                format!(
                    "found '{}' (lf's Brook+ subset writes 'i += 1' instead of '++' and '--')",
                    self.text()
                )
            } else {
                format!("found {}", self.found())
            };
            return self.error(format!(
                "[syntax] expected an assignment ('=', '+=', ...): a statement is an assignment, {what}"
            ));
        };
        let op_span = self.bump().span;
        let rhs = self.expr()?;
        Ok(Stmt {
            span: lhs.span.to(rhs.span),
            kind: StmtKind::Assign { lhs, op, op_span, rhs },
        })
    }

    /// An expression (no assignments: they are statements).
    fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let outermost = !self.in_expr;
        self.in_expr = true;
        let e = self.expr_inner();
        self.depth -= 1;
        if outermost {
            self.in_expr = false;
            if let Ok(e) = &e {
                if height(e) > MAX_HEIGHT {
                    return Err(ParseError {
                        span: e.span,
                        message: format!("[syntax] expression nested more than {MAX_HEIGHT} deep"),
                    });
                }
            }
        }
        e
    }

    fn expr_inner(&mut self) -> PResult<Expr> {
        let c = self.binary(0)?;
        if let Some(q) = self.eat("?") {
            let a = self.expr()?;
            self.expect(":", "in '?:'")?;
            let b = self.expr()?;
            return Ok(Expr {
                span: c.span.to(b.span),
                kind: ExprKind::Cond(q, Box::new(c), Box::new(a), Box::new(b)),
            });
        }
        Ok(c)
    }

    /// The binary operator at the current token and its precedence level.
    fn binop(&self) -> Option<(usize, BinOp)> {
        let t = self.tok();
        if t.kind != TokKind::Punct {
            return None;
        }
        let text = t.span.text(self.src);
        LEVELS
            .iter()
            .enumerate()
            .find_map(|(level, ops)| ops.iter().find(|(s, _)| *s == text).map(|&(_, op)| (level, op)))
    }

    /// Operators of level `min_level` and above (precedence climbing; all
    /// are left-associative).
    fn binary(&mut self, min_level: usize) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        // Each operator of a chain nests the tree one level deeper.
        let mut chain = 0;
        while let Some((level, op)) = self.binop().filter(|&(l, _)| l >= min_level) {
            self.enter()?;
            chain += 1;
            let op_span = self.bump().span;
            let rhs = self.binary(level + 1)?;
            lhs = Expr {
                span: lhs.span.to(rhs.span),
                kind: ExprKind::Binary(op, op_span, Box::new(lhs), Box::new(rhs)),
            };
        }
        self.depth -= chain;
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let t = self.tok();
        let op = match (t.kind, t.span.text(self.src)) {
            (TokKind::Punct, "-") => Some(UnOp::Neg),
            (TokKind::Punct, "+") => Some(UnOp::Plus),
            (TokKind::Punct, "!") => Some(UnOp::Not),
            (TokKind::Punct, "~") => Some(UnOp::BitNot),
            (TokKind::Punct, "*") => Some(UnOp::Deref),
            (TokKind::Punct, "&") => Some(UnOp::AddrOf),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            self.enter()?;
            let e = self.unary();
            self.depth -= 1;
            let e = e?;
            return Ok(Expr {
                span: t.span.to(e.span),
                kind: ExprKind::Unary(op, Box::new(e)),
            });
        }
        // A cast `(T)e`.
        if self.is("(") && self.peek(2).span.text(self.src) == ")" {
            let t1 = self.peek(1);
            if let Some(ty) = (t1.kind == TokKind::Ident)
                .then(|| Type::from_name(t1.span.text(self.src)))
                .flatten()
            {
                self.bump();
                self.bump();
                self.bump();
                self.enter()?;
                let e = self.unary();
                self.depth -= 1;
                let e = e?;
                return Ok(Expr {
                    span: t.span.to(e.span),
                    kind: ExprKind::Cast(TypeName { ty, span: t1.span }, Box::new(e)),
                });
            }
        }
        self.postfix()
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        loop {
            if self.eat("[").is_some() {
                let i = self.expr()?;
                let close = self.expect("]", "after the subscript")?;
                e = Expr {
                    span: e.span.to(close),
                    kind: ExprKind::Index(Box::new(e), Box::new(i)),
                };
            } else if self.eat(".").is_some() {
                let m = self.ident("a component name after '.'")?;
                e = Expr {
                    span: e.span.to(m.span),
                    kind: ExprKind::Member(Box::new(e), m),
                };
            } else if self.eat("->").is_some() {
                let m = self.ident("a member name after '->'")?;
                e = Expr {
                    span: e.span.to(m.span),
                    kind: ExprKind::Arrow(Box::new(e), m),
                };
            } else {
                return Ok(e);
            }
        }
    }

    fn args(&mut self) -> PResult<(Vec<Expr>, Span)> {
        self.expect("(", "")?;
        let mut args = Vec::new();
        if let Some(close) = self.eat(")") {
            return Ok((args, close));
        }
        loop {
            args.push(self.expr()?);
            if let Some(close) = self.eat(")") {
                return Ok((args, close));
            }
            self.expect(",", "or ')' after an argument")?;
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let t = self.tok();
        let text = t.span.text(self.src);
        match t.kind {
            TokKind::Int => {
                self.bump();
                let (digits, unsigned) = match text.strip_suffix(['u', 'U']) {
                    Some(d) => (d, true),
                    None => (text, false),
                };
                let value = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
                    Some(h) => u64::from_str_radix(h, 16).ok(),
                    None if digits.len() > 1 && digits.starts_with('0') => u64::from_str_radix(digits, 8).ok(),
                    None => digits.parse().ok(),
                };
                match value {
                    Some(value) => Ok(Expr {
                        kind: ExprKind::Int { value, unsigned },
                        span: t.span,
                    }),
                    None => Err(ParseError {
                        span: t.span,
                        message: format!(
                            "[syntax] bad integer literal '{text}' (the subset has decimal, octal and hex literals with an optional 'u')"
                        ),
                    }),
                }
            }
            TokKind::Float => {
                self.bump();
                let (digits, single) = match text.strip_suffix(['f', 'F']) {
                    Some(d) => (d, true),
                    None => (text, false),
                };
                if digits.parse::<f64>().is_err() {
                    return Err(ParseError {
                        span: t.span,
                        message: format!(
                            "[syntax] bad floating-point literal '{text}' (write 2.0f for float, 2.0 for double)"
                        ),
                    });
                }
                Ok(Expr {
                    kind: ExprKind::Float {
                        text: text.to_string(),
                        single,
                    },
                    span: t.span,
                })
            }
            TokKind::Ident => {
                self.bump();
                if let Some(ty) = Type::from_name(text) {
                    if !self.is("(") {
                        return Err(ParseError {
                            span: t.span,
                            message: format!("[syntax] expected '(' after the type '{text}' in an expression"),
                        });
                    }
                    let (args, close) = self.args()?;
                    return Ok(Expr {
                        span: t.span.to(close),
                        kind: ExprKind::Construct(TypeName { ty, span: t.span }, args),
                    });
                }
                let id = Ident {
                    name: text.to_string(),
                    span: t.span,
                };
                if self.is("(") {
                    let (args, close) = self.args()?;
                    return Ok(Expr {
                        span: t.span.to(close),
                        kind: ExprKind::Call(id, args),
                    });
                }
                Ok(Expr {
                    kind: ExprKind::Name(id.name),
                    span: t.span,
                })
            }
            TokKind::Punct if text == "(" => {
                self.bump();
                let e = self.expr()?;
                let close = self.expect(")", "to close the parenthesis")?;
                Ok(Expr {
                    span: t.span.to(close),
                    kind: e.kind,
                })
            }
            _ => self.error(format!("[syntax] expected an expression, found {}", self.found())),
        }
    }
}
