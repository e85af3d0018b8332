//! A recursive-descent parser for affine maps, integer sets and the SSA-id
//! expression lists of MLIR's custom affine op syntax, following MLIR's
//! `AffineParser` (grammar, construction order, error messages and error
//! locations).
//!
//! Expressions are built left to right through the simplifying
//! constructors, exactly in the order MLIR builds them, so the printed
//! result matches mlir-opt's.

use std::fmt;
use std::ops::Range;

use crate::expr::{AffineExpr, BinaryOp};
use crate::lexer::{integer_value, Lexer, Tok, Token};
use crate::map::AffineMap;
use crate::set::IntegerSet;

/// The deepest nesting of parentheses, negations and `symbol(...)` the
/// parser accepts, and the deepest [`AffineExpr::nesting`] of an expression
/// it builds (a chain such as `d0 floordiv 2 floordiv 2` nests one level per
/// operator, a sum of any length does not nest); deeper input is rejected
/// with "nesting too deep" instead of overflowing the stack. The print of an
/// expression nests parentheses at most one less than its nesting (MLIR
/// parenthesises chains such as `((d0 floordiv 2) floordiv 2) floordiv 2`),
/// so whatever the parser builds it can read back from its print.
pub const MAX_NESTING: u32 = 512;

/// The deepest expression tree the parser builds: a sum of `n` terms is `n`
/// deep as a tree although it does not nest, and mlir-opt reads sums of
/// tens of thousands of terms. Beyond this, parsing fails with "affine
/// expression too deep". The recursive algorithms (printing,
/// simplification, evaluation, composition, comparison) on such an
/// expression take under 512 bytes of stack per level in unoptimised builds
/// (32 MiB at this depth, less when optimised); lf's tools give their
/// threads 256 MiB or more, and a program that handles expressions this
/// deep on threads of its own must give them enough.
pub const MAX_EXPR_DEPTH: u32 = 1 << 16;

/// A parse error: a byte offset into the parsed text and an MLIR-style
/// message such as "expected ')' in affine map range" or "use of
/// undeclared identifier".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineParseError {
    /// Byte offset into the text given to the parser where MLIR would
    /// report the error: the offending token, or, for "expected ..." errors
    /// about a missing token, just after the previous token (MLIR's
    /// `emitWrongTokenError` skips back over whitespace and comments).
    pub offset: usize,
    /// The message, worded as MLIR words it.
    pub message: String,
}

impl fmt::Display for AffineParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for AffineParseError {}

/// The result of [`parse_affine_map_or_set`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AffineMapOrSet {
    /// An affine map `(..)[..] -> (..)`.
    Map(AffineMap),
    /// An integer set `(..)[..] : (..)`.
    Set(IntegerSet),
}

type PResult<T> = Result<T, AffineParseError>;

fn err<T>(offset: usize, message: &str) -> PResult<T> {
    Err(AffineParseError {
        offset,
        message: message.to_string(),
    })
}

/// The high precedence operators (`*`, `floordiv`, `ceildiv`, `mod`).
fn high_prec_op(kind: Tok, spelling: &str) -> Option<BinaryOp> {
    match kind {
        Tok::Star => Some(BinaryOp::Mul),
        Tok::Ident => match spelling {
            "floordiv" => Some(BinaryOp::FloorDiv),
            "ceildiv" => Some(BinaryOp::CeilDiv),
            "mod" => Some(BinaryOp::Mod),
            _ => None,
        },
        _ => None,
    }
}

/// What an identifier is bound to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Id {
    Dim(u32),
    Symbol(u32),
}

impl Id {
    fn expr(self) -> AffineExpr {
        match self {
            Id::Dim(p) => AffineExpr::dim(p),
            Id::Symbol(p) => AffineExpr::symbol(p),
        }
    }
}

/// The identifiers in scope, in order of definition. The first few live
/// inline, so parsing a typical map allocates nothing for them; a long list
/// (a map of a thousand dimensions) is also indexed by name.
struct Names<'a> {
    inline: [(&'a str, Id); 8],
    len: usize,
    spill: Vec<(&'a str, Id)>,
    /// The first binding of each name, once there are more than
    /// [`Names::INDEX_FROM`] of them.
    index: std::collections::HashMap<&'a str, Id>,
}

impl Default for Names<'_> {
    fn default() -> Self {
        Names {
            inline: [("", Id::Dim(0)); 8],
            len: 0,
            spill: Vec::new(),
            index: std::collections::HashMap::new(),
        }
    }
}

impl<'a> Names<'a> {
    /// How many names are searched one by one before they are indexed.
    const INDEX_FROM: usize = 32;

    fn find(&self, name: &str) -> Option<Id> {
        if self.len > Self::INDEX_FROM {
            return self.index.get(name).copied();
        }
        let n = self.len.min(self.inline.len());
        self.inline[..n]
            .iter()
            .chain(&self.spill)
            .find(|(k, _)| *k == name)
            .map(|(_, id)| *id)
    }

    fn push(&mut self, name: &'a str, id: Id) {
        if self.len < self.inline.len() {
            self.inline[self.len] = (name, id);
        } else {
            self.spill.push((name, id));
        }
        self.len += 1;
        if self.len > Self::INDEX_FROM {
            if self.index.is_empty() {
                let n = self.len.min(self.inline.len());
                for &(k, v) in self.inline[..n].iter().chain(&self.spill) {
                    self.index.entry(k).or_insert(v);
                }
            } else {
                self.index.entry(name).or_insert(id);
            }
        }
    }

    fn for_each(&self, mut f: impl FnMut(&'a str, Id)) {
        let n = self.len.min(self.inline.len());
        for &(name, id) in self.inline[..n].iter().chain(&self.spill) {
            f(name, id);
        }
    }
}

/// Low precedence operators: `+` and `-`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LowOp {
    Add,
    Sub,
}

struct Parser<'a> {
    text: &'a str,
    lexer: Lexer<'a>,
    tok: Token,
    /// End of the previous token (what a prefix parse has consumed).
    prev_end: usize,
    /// Identifiers in scope: dimension and symbol names, or SSA names.
    names: Names<'a>,
    /// SSA-id mode: `%x` and `symbol(%x)` operands create dims and symbols.
    ssa: bool,
    num_dims: u32,
    num_symbols: u32,
    nesting: u32,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, start: usize) -> Parser<'a> {
        let mut lexer = Lexer::new(text, start);
        let tok = lexer.next_token();
        Parser {
            text,
            lexer,
            tok,
            prev_end: start,
            names: Names::default(),
            ssa: false,
            num_dims: 0,
            num_symbols: 0,
            nesting: 0,
        }
    }

    #[inline]
    fn spelling(&self) -> &'a str {
        &self.text[self.tok.start..self.tok.end]
    }

    #[inline]
    fn advance(&mut self) {
        self.prev_end = self.tok.end;
        self.tok = self.lexer.next_token();
    }

    #[inline]
    fn consume_if(&mut self, kind: Tok) -> bool {
        if self.tok.kind == kind {
            self.advance();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, kind: Tok, message: &str) -> PResult<()> {
        if self.consume_if(kind) {
            Ok(())
        } else {
            self.wrong_token(message)
        }
    }

    /// An error about the current token being the wrong one. As MLIR's
    /// `emitWrongTokenError`, it is reported right after the previous
    /// token: whitespace, blank lines and `//` comments before the current
    /// token are skipped backwards.
    fn wrong_token<T>(&self, message: &str) -> PResult<T> {
        let bytes = self.text.as_bytes();
        let original = self.tok.start;
        let mut p = original;
        loop {
            while p > 0 && matches!(bytes[p - 1], b' ' | b'\t') {
                p -= 1;
            }
            if p == 0 {
                return err(original, message);
            }
            if !matches!(bytes[p - 1], b'\n' | b'\r') {
                return err(p, message);
            }
            p -= 1;
            // Skip a `//` comment at the end of the previous line.
            let line_start = bytes[..p]
                .iter()
                .rposition(|&b| b == b'\n' || b == b'\r')
                .map_or(0, |i| i + 1);
            if let Some(c) = self.text[line_start..p].find("//") {
                p = line_start + c;
            }
        }
    }

    fn is_identifier(&self) -> bool {
        self.tok.kind == Tok::Ident
    }

    fn check_depth(&self, e: AffineExpr, offset: usize) -> PResult<AffineExpr> {
        if e.nesting() > MAX_NESTING {
            return err(offset, "nesting too deep");
        }
        if e.depth() > MAX_EXPR_DEPTH {
            return err(offset, "affine expression too deep");
        }
        Ok(e)
    }

    /// `lhs op rhs` for a high precedence operator, with MLIR's affinity
    /// checks; errors are reported at `op_loc`.
    fn high_binary(&self, op: BinaryOp, lhs: &AffineExpr, rhs: &AffineExpr, op_loc: usize) -> PResult<AffineExpr> {
        let msg = match op {
            BinaryOp::Mul if !lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant() => {
                "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"
            }
            BinaryOp::FloorDiv if !rhs.is_symbolic_or_constant() => {
                "non-affine expression: right operand of floordiv has to be either a constant or symbolic"
            }
            BinaryOp::CeilDiv if !rhs.is_symbolic_or_constant() => {
                "non-affine expression: right operand of ceildiv has to be either a constant or symbolic"
            }
            BinaryOp::Mod if !rhs.is_symbolic_or_constant() => {
                "non-affine expression: right operand of mod has to be either a constant or symbolic"
            }
            _ => return self.check_depth(AffineExpr::binary(op, lhs, rhs), op_loc),
        };
        err(op_loc, msg)
    }

    fn low_binary(&self, op: LowOp, lhs: &AffineExpr, rhs: &AffineExpr, loc: usize) -> PResult<AffineExpr> {
        let e = match op {
            LowOp::Add => lhs.add(rhs),
            LowOp::Sub => lhs.sub(rhs),
        };
        self.check_depth(e, loc)
    }

    fn consume_low_op(&mut self) -> Option<LowOp> {
        let op = match self.tok.kind {
            Tok::Plus => LowOp::Add,
            Tok::Minus => LowOp::Sub,
            _ => return None,
        };
        self.advance();
        Some(op)
    }

    fn consume_high_op(&mut self) -> Option<BinaryOp> {
        let op = high_prec_op(self.tok.kind, self.spelling())?;
        self.advance();
        Some(op)
    }

    /// affine-expr: a `+`/`-` separated list of high precedence chains,
    /// folded left to right.
    fn parse_expr(&mut self) -> PResult<AffineExpr> {
        let mut acc: Option<(AffineExpr, LowOp)> = None;
        loop {
            let loc = self.tok.start;
            let operand = self.parse_operand(acc.is_some())?;
            let term = match self.tok.kind {
                Tok::Plus | Tok::Minus => operand,
                _ => {
                    let op_loc = self.tok.start;
                    match self.consume_high_op() {
                        Some(op) => self.parse_high_chain(operand, op, op_loc)?,
                        None => operand,
                    }
                }
            };
            let value = match &acc {
                Some((lhs, op)) => self.low_binary(*op, lhs, &term, loc)?,
                None => term,
            };
            match self.consume_low_op() {
                Some(op) => acc = Some((value, op)),
                None => return Ok(value),
            }
        }
    }

    /// The rest of a `*`/`floordiv`/`ceildiv`/`mod` chain after `lhs op`,
    /// folded left to right. As in MLIR, an affinity error for an operator
    /// that is followed by another high precedence operator is reported at
    /// that next operator.
    fn parse_high_chain(&mut self, mut lhs: AffineExpr, mut op: BinaryOp, mut op_loc: usize) -> PResult<AffineExpr> {
        loop {
            let rhs = self.parse_operand(true)?;
            let next_loc = self.tok.start;
            match self.consume_high_op() {
                Some(next) => {
                    lhs = self.high_binary(op, &lhs, &rhs, next_loc)?;
                    op = next;
                    op_loc = next_loc;
                }
                None => return self.high_binary(op, &lhs, &rhs, op_loc),
            }
        }
    }

    /// An operand: identifier, SSA id, `symbol(%x)`, integer, parenthesised
    /// expression or negation. `after_op` selects MLIR's "missing right
    /// operand" messages.
    fn parse_operand(&mut self, after_op: bool) -> PResult<AffineExpr> {
        let start = self.tok.start;
        match self.tok.kind {
            Tok::Ident if self.spelling() == "symbol" => self.nested(|p| p.parse_symbol_ssa_id()),
            Tok::Ident => self.parse_bare_id(),
            Tok::SsaId => self.parse_ssa_id(false),
            Tok::Integer => {
                let v = integer_value(self.spelling()).and_then(|v| i64::try_from(v).ok());
                match v {
                    Some(v) => {
                        self.advance();
                        Ok(AffineExpr::constant(v))
                    }
                    None => err(start, "constant too large for index"),
                }
            }
            Tok::LParen => self.nested(|p| {
                p.advance();
                if p.tok.kind == Tok::RParen {
                    return err(p.tok.start, "no expression inside parentheses");
                }
                let e = p.parse_expr()?;
                p.expect(Tok::RParen, "expected ')'")?;
                Ok(e)
            }),
            Tok::Minus => self.nested(|p| {
                p.advance();
                // As MLIR: `-9223372036854775808` negates a constant too large
                // for `i64` and is an error, although the printer writes
                // i64::MIN so (mlir-opt cannot read that print back either).
                let operand = p.parse_operand(after_op)?;
                p.check_depth(operand.neg(), start)
            }),
            Tok::Plus | Tok::Star => err(
                start,
                if after_op {
                    "missing right operand of binary operator"
                } else {
                    "missing left operand of binary operator"
                },
            ),
            _ => err(
                start,
                if after_op {
                    "missing right operand of binary operator"
                } else {
                    "expected affine expression"
                },
            ),
        }
    }

    fn nested(&mut self, f: impl FnOnce(&mut Self) -> PResult<AffineExpr>) -> PResult<AffineExpr> {
        if self.nesting >= MAX_NESTING {
            return err(self.tok.start, "nesting too deep");
        }
        self.nesting += 1;
        let r = f(self);
        self.nesting -= 1;
        r
    }

    fn parse_bare_id(&mut self) -> PResult<AffineExpr> {
        let name = self.spelling();
        match self.names.find(name) {
            Some(id) => {
                self.advance();
                Ok(id.expr())
            }
            None => self.wrong_token("use of undeclared identifier"),
        }
    }

    /// `%x`: the dimension (or symbol) already bound to that name, or a new
    /// dimension (`is_symbol == false`) or symbol.
    fn parse_ssa_id(&mut self, is_symbol: bool) -> PResult<AffineExpr> {
        if !self.ssa {
            return self.wrong_token("unexpected ssa identifier");
        }
        if self.tok.kind != Tok::SsaId {
            return self.wrong_token("expected ssa identifier");
        }
        let name = self.spelling();
        if let Some(id) = self.names.find(name) {
            self.advance();
            return Ok(id.expr());
        }
        let id = if is_symbol {
            self.num_symbols += 1;
            Id::Symbol(self.num_symbols - 1)
        } else {
            self.num_dims += 1;
            Id::Dim(self.num_dims - 1)
        };
        self.names.push(name, id);
        self.advance();
        Ok(id.expr())
    }

    /// `symbol(%x)`.
    fn parse_symbol_ssa_id(&mut self) -> PResult<AffineExpr> {
        self.advance();
        self.expect(Tok::LParen, "expected '(' at start of SSA symbol")?;
        let e = self.parse_ssa_id(true)?;
        self.expect(Tok::RParen, "expected ')' at end of SSA symbol")?;
        Ok(e)
    }

    /// A comma separated list delimited by `open`/`close`, as MLIR's
    /// `parseCommaSeparatedList`; `what` completes the error messages.
    fn comma_list(
        &mut self,
        open: (Tok, &str),
        close: (Tok, &str),
        mut elt: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        self.expect(open.0, open.1)?;
        if self.consume_if(close.0) {
            return Ok(());
        }
        elt(self)?;
        while self.consume_if(Tok::Comma) {
            elt(self)?;
        }
        self.expect(close.0, close.1)
    }

    fn define_identifier(&mut self, id: Id) -> PResult<()> {
        if !self.is_identifier() {
            return self.wrong_token("expected bare identifier");
        }
        let name = self.spelling();
        if self.names.find(name).is_some() {
            return Err(AffineParseError {
                offset: self.tok.start,
                message: format!("redefinition of identifier '{name}'"),
            });
        }
        self.names.push(name, id);
        self.advance();
        Ok(())
    }

    /// `(d0, ..)` and the optional `[s0, ..]`.
    fn parse_dims_and_symbols(&mut self) -> PResult<(u32, u32)> {
        let mut num_dims = 0u32;
        self.comma_list(
            (Tok::LParen, "expected '(' in dimensional identifier list"),
            (Tok::RParen, "expected ')' in dimensional identifier list"),
            |p| {
                num_dims += 1;
                p.define_identifier(Id::Dim(num_dims - 1))
            },
        )?;
        let mut num_symbols = 0u32;
        if self.tok.kind == Tok::LSquare {
            self.comma_list(
                (Tok::LSquare, "expected '[' in symbol list"),
                (Tok::RSquare, "expected ']' in symbol list"),
                |p| {
                    num_symbols += 1;
                    p.define_identifier(Id::Symbol(num_symbols - 1))
                },
            )?;
        }
        Ok((num_dims, num_symbols))
    }

    fn parse_map_or_set(&mut self) -> PResult<AffineMapOrSet> {
        let (num_dims, num_symbols) = self.parse_dims_and_symbols()?;
        if self.consume_if(Tok::Arrow) {
            let mut results = Vec::new();
            self.comma_list(
                (Tok::LParen, "expected '(' in affine map range"),
                (Tok::RParen, "expected ')' in affine map range"),
                |p| {
                    results.push(p.parse_expr()?);
                    Ok(())
                },
            )?;
            return Ok(AffineMapOrSet::Map(AffineMap::new(num_dims, num_symbols, results)));
        }
        self.expect(Tok::Colon, "expected '->' or ':'")?;
        let mut constraints = Vec::new();
        let mut eq_flags = Vec::new();
        self.comma_list(
            (Tok::LParen, "expected '(' in integer set constraint list"),
            (Tok::RParen, "expected ')' in integer set constraint list"),
            |p| {
                let (e, eq) = p.parse_constraint()?;
                constraints.push(e);
                eq_flags.push(eq);
                Ok(())
            },
        )?;
        if constraints.is_empty() {
            // MLIR reads an empty constraint list as the universe `0 == 0`.
            constraints.push(AffineExpr::constant(0));
            eq_flags.push(true);
        }
        Ok(AffineMapOrSet::Set(IntegerSet::new(
            num_dims,
            num_symbols,
            constraints,
            eq_flags,
        )))
    }

    /// `a >= b` (as `a - b >= 0`), `a <= b` (as `b - a >= 0`) or `a == b`
    /// (as `a - b == 0`). As in MLIR, the operators are two tokens each and
    /// are matched greedily one token at a time.
    fn parse_constraint(&mut self) -> PResult<(AffineExpr, bool)> {
        let lhs = self.parse_expr()?;
        if self.consume_if(Tok::Greater) && self.consume_if(Tok::Equal) {
            let loc = self.tok.start;
            let rhs = self.parse_expr()?;
            return Ok((self.low_binary(LowOp::Sub, &lhs, &rhs, loc)?, false));
        }
        if self.consume_if(Tok::Less) && self.consume_if(Tok::Equal) {
            let loc = self.tok.start;
            let rhs = self.parse_expr()?;
            return Ok((self.low_binary(LowOp::Sub, &rhs, &lhs, loc)?, false));
        }
        if self.consume_if(Tok::Equal) && self.consume_if(Tok::Equal) {
            let loc = self.tok.start;
            let rhs = self.parse_expr()?;
            return Ok((self.low_binary(LowOp::Sub, &lhs, &rhs, loc)?, true));
        }
        err(
            self.tok.start,
            "expected '== affine-expr' or '>= affine-expr' at end of affine constraint",
        )
    }

    /// Requires that only whitespace follows.
    fn expect_end(&mut self, what: &str) -> PResult<()> {
        if self.tok.kind == Tok::Eof {
            Ok(())
        } else {
            self.wrong_token(what)
        }
    }
}

/// Parses a map or a set from the start of `text` and returns it with the
/// number of bytes consumed (up to and including its closing `)`); whatever
/// follows is left alone. This is the form to use from a larger parser: for
/// `affine_map<(d0) -> (d0)>`, pass the text after `<` and expect `>` at the
/// returned offset.
pub fn parse_affine_map_or_set_prefix(text: &str) -> Result<(AffineMapOrSet, usize), AffineParseError> {
    let mut p = Parser::new(text, 0);
    let r = p.parse_map_or_set()?;
    Ok((r, p.prev_end))
}

/// Like [`parse_affine_map_or_set_prefix`], but requires a map ("expected
/// AffineMap, but got IntegerSet" otherwise, at offset 0).
pub fn parse_affine_map_prefix(text: &str) -> Result<(AffineMap, usize), AffineParseError> {
    match parse_affine_map_or_set_prefix(text)? {
        (AffineMapOrSet::Map(m), n) => Ok((m, n)),
        (AffineMapOrSet::Set(_), _) => err(0, "expected AffineMap, but got IntegerSet"),
    }
}

/// Like [`parse_affine_map_or_set_prefix`], but requires a set ("expected
/// IntegerSet, but got AffineMap" otherwise, at offset 0).
pub fn parse_integer_set_prefix(text: &str) -> Result<(IntegerSet, usize), AffineParseError> {
    match parse_affine_map_or_set_prefix(text)? {
        (AffineMapOrSet::Set(s), n) => Ok((s, n)),
        (AffineMapOrSet::Map(_), _) => err(0, "expected IntegerSet, but got AffineMap"),
    }
}

/// Parses the text of an `affine_map<...>` or `affine_set<...>` (what is
/// between the angle brackets). All of `text` must be consumed; trailing
/// whitespace and `//` comments are fine.
pub fn parse_affine_map_or_set(text: &str) -> Result<AffineMapOrSet, AffineParseError> {
    let mut p = Parser::new(text, 0);
    let r = p.parse_map_or_set()?;
    p.expect_end(match r {
        AffineMapOrSet::Map(_) => "expected '>' in affine map",
        AffineMapOrSet::Set(_) => "expected '>' in integer set",
    })?;
    Ok(r)
}

/// Parses the text of an `affine_map<...>`, e.g.
/// `(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)`. All of `text` must be
/// consumed (trailing whitespace is fine).
///
/// ```
/// let m = lf_affine::parse_affine_map("(i, j)[n] -> (i + j * 2 - n)").unwrap();
/// assert_eq!(m.to_string(), "(d0, d1)[s0] -> (d0 + d1 * 2 - s0)");
/// let e = lf_affine::parse_affine_map("(d0) -> (d0 * d0)").unwrap_err();
/// assert_eq!(e.offset, 12);
/// ```
pub fn parse_affine_map(text: &str) -> Result<AffineMap, AffineParseError> {
    match parse_affine_map_or_set(text)? {
        AffineMapOrSet::Map(m) => Ok(m),
        AffineMapOrSet::Set(_) => err(0, "expected AffineMap, but got IntegerSet"),
    }
}

/// Parses the text of an `affine_set<...>`, e.g.
/// `(d0)[s0] : (d0 - s0 >= 0, d0 == 0)`. All of `text` must be consumed
/// (trailing whitespace is fine). An empty constraint list `()` reads as
/// `(0 == 0)`, as in MLIR.
pub fn parse_integer_set(text: &str) -> Result<IntegerSet, AffineParseError> {
    match parse_affine_map_or_set(text)? {
        AffineMapOrSet::Set(s) => Ok(s),
        AffineMapOrSet::Map(_) => err(0, "expected IntegerSet, but got AffineMap"),
    }
}

/// Parses MLIR's custom affine op operand form, e.g. the inside of
/// `affine.load %A[%i + 1, symbol(%n) * 2, %j]`. `text` starts right after
/// the opening bracket; comma separated expressions are parsed up to the
/// `closing` character (`]` or `)`, any ASCII punctuation works), which may
/// also follow immediately (an empty list).
///
/// Each distinct SSA name used as an operand becomes a dimension, in order
/// of first use; names used as `symbol(%x)` become symbols. As in MLIR, a
/// name keeps the role of its first use. Returns the map, the SSA names of
/// the dimensions and of the symbols (as spelled, with `%` and any `#n`
/// suffix), and the number of bytes consumed including the closing
/// character.
///
/// ```
/// let (map, dims, syms, n) =
///     lf_affine::parse_affine_exprs_of_ssa_ids("%i + 1, symbol(%n) * 2, %j] {x}", ']').unwrap();
/// assert_eq!(map.to_string(), "(d0, d1)[s0] -> (d0 + 1, s0 * 2, d1)");
/// assert_eq!((dims, syms, n), (vec!["%i".to_string(), "%j".to_string()], vec!["%n".to_string()], 27));
/// ```
#[allow(clippy::type_complexity)]
pub fn parse_affine_exprs_of_ssa_ids(
    text: &str,
    closing: char,
) -> Result<(AffineMap, Vec<String>, Vec<String>, usize), AffineParseError> {
    let (map, dims, syms, consumed) = parse_affine_exprs_of_ssa_id_ranges(text, closing)?;
    let spell = |r: Vec<Range<usize>>| r.into_iter().map(|r| text[r].to_string()).collect();
    Ok((map, spell(dims), spell(syms), consumed))
}

/// Like [`parse_affine_exprs_of_ssa_ids`], but gives each SSA name as the
/// byte range of its first occurrence in `text` (with the `%` and any `#n`
/// suffix), so a caller can point at it without copying it.
///
/// ```
/// let (_, dims, syms, _) = lf_affine::parse_affine_exprs_of_ssa_id_ranges("%i + symbol(%n), %i]", ']').unwrap();
/// assert_eq!((dims, syms), (vec![0..2], vec![12..14]));
/// ```
#[allow(clippy::type_complexity)]
pub fn parse_affine_exprs_of_ssa_id_ranges(
    text: &str,
    closing: char,
) -> Result<(AffineMap, Vec<Range<usize>>, Vec<Range<usize>>, usize), AffineParseError> {
    let mut p = Parser::new(text, 0);
    p.ssa = true;
    let is_close = |p: &Parser<'_>| {
        let s = p.spelling();
        s.len() == closing.len_utf8() && s.starts_with(closing) && p.tok.kind != Tok::Eof
    };
    let mut results = Vec::new();
    if !is_close(&p) {
        results.push(p.parse_expr()?);
        while p.consume_if(Tok::Comma) {
            results.push(p.parse_expr()?);
        }
        if !is_close(&p) {
            return p.wrong_token(&format!("expected '{closing}' in affine map"));
        }
    }
    let consumed = p.tok.end;
    let map = AffineMap::new(p.num_dims, p.num_symbols, results);
    // Names were bound in order of first use, so positions come in order;
    // each is a slice of `text` at its first occurrence.
    let range = |name: &str| {
        let start = name.as_ptr() as usize - text.as_ptr() as usize;
        start..start + name.len()
    };
    let mut dims = Vec::with_capacity(p.num_dims as usize);
    let mut syms = Vec::with_capacity(p.num_symbols as usize);
    p.names.for_each(|name, id| match id {
        Id::Dim(_) => dims.push(range(name)),
        Id::Symbol(_) => syms.push(range(name)),
    });
    Ok((map, dims, syms, consumed))
}
