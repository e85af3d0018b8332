//! The `.lfir` parser: MLIR's textual syntax, generic and custom forms.
//!
//! Recursive descent over the hand-written [`lexer`]. The first error stops
//! parsing and is returned as a [`Diagnostic`] with the position of the
//! offending token. Nesting (regions, types, attributes) is bounded by
//! [`MAX_NESTING`] so that no input can overflow the stack.

mod attrs;
mod bracket_scan;
mod custom_affine;
mod custom_funcscf;
pub mod lexer;
mod ops;
mod parallel;
mod scope;
pub mod spec;
mod types;

pub use ops::{CustomParser, UnresolvedOperand};

use crate::{Attribute, Body, Context, Ident, Location, OpId, Type};
use lexer::{Lexer, Token, TokenKind};
use lf_diag::{Diagnostic, SourcePos};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// How deep regions, types and attributes may nest.
pub const MAX_NESTING: u32 = 512;

/// The error of a parse: the diagnostic to show.
pub type ParseError = Box<Diagnostic>;
/// Result of parser functions.
pub type ParseResult<T> = Result<T, ParseError>;

/// A parsed top-level operation (normally a `builtin.module`) and the body
/// that stores it.
#[derive(Debug, Clone)]
pub struct OwnedOp {
    /// The body holding the op (and, for non-isolated ops, its regions).
    pub body: Body,
    /// The op.
    pub op: OpId,
}

/// Options of a parse.
#[derive(Clone, Debug, Default)]
pub struct ParseOptions {
    /// The line number of the first line of `src` (for split input files).
    pub first_line: u32,
    /// Called now and then with a byte range of `src` that the parser has
    /// gone past (lf-opt lets the OS drop those pages of its mapped input).
    pub on_progress: Option<ProgressHook>,
    /// Threads parsing the regions of isolated-from-above ops (functions) in
    /// parallel with the rest; 0 or 1 parses everything on the calling
    /// thread. The result, errors included, is the same for any number.
    pub threads: usize,
}

/// A callback told which part of the source the parser is done with:
/// `hook(from, to)` means the parser will not need bytes `from..to` again,
/// except to look up names defined there (so the bytes must stay readable).
#[derive(Clone)]
pub struct ProgressHook(std::sync::Arc<dyn Fn(usize, usize) + Send + Sync>);

impl ProgressHook {
    /// Wraps a callback.
    pub fn new(f: impl Fn(usize, usize) + Send + Sync + 'static) -> Self {
        ProgressHook(std::sync::Arc::new(f))
    }
}

impl std::fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressHook")
    }
}

/// How many bytes the parser advances between two calls of the progress hook.
const PROGRESS_STEP: u32 = 4 << 20;

/// Parses a whole source buffer into a top-level op. Ops that are not a single
/// `builtin.module` are wrapped into an implicit one, as mlir-opt does.
pub fn parse_source(ctx: &Context, src: &str, file_name: &str) -> ParseResult<OwnedOp> {
    parse_source_with(ctx, src, file_name, &ParseOptions::default())
}

/// [`parse_source`] with options.
pub fn parse_source_with(ctx: &Context, src: &str, file_name: &str, opts: &ParseOptions) -> ParseResult<OwnedOp> {
    if src.len() >= u32::MAX as usize {
        let p = Parser::new(ctx, src, file_name, opts);
        return Err(p.error_here("input files of 4 GiB or more are not supported"));
    }
    if opts.threads > 1 {
        return parallel::parse(ctx, src, file_name, opts);
    }
    Parser::new(ctx, src, file_name, opts).parse_top_level()
}

/// Results of parsing text that repeats verbatim, by the text itself:
/// operation names, properties dictionaries (`<{...}>`) and types that end
/// a line (the generic form's trailing function types `: (index) -> f32`,
/// the custom form's `: memref<32x32xf32>`). Parsing the same text again
/// gives the same uniqued value (aliases cannot be redefined), so a hit skips
/// the lexing, parsing and uniquing. Keys are owned copies, so the memo never
/// keeps pages of the source alive.
///
/// Props and types also record how deep their parse nested (relative to where
/// it started, aliases expanded): a hit is used only where it would not reach
/// a new maximum depth, so nesting limits and their errors stay exact.
#[derive(Default)]
pub(crate) struct Memo {
    /// Op names with their definitions (looked up once: the registry's
    /// locks are shared by all threads).
    pub(crate) op_names: FxHashMap<Box<str>, (crate::OpName, Option<&'static crate::OpDef>)>,
    pub(crate) props: FxHashMap<Box<str>, (Attribute, u32)>,
    /// Types that end their line, by the rest of the line.
    pub(crate) types: FxHashMap<Box<str>, (Type, u32)>,
    /// Maps of affine expressions of SSA ids (`affine.load %A[%i + 1, %j]`),
    /// by their shape (see [`crate::affine::ssa_list_shape`]).
    pub(crate) ssa_maps: FxHashMap<Box<[u8]>, SsaMapMemo>,
    /// Room for the shape being looked up and its names' ranges, kept
    /// between uses so that a lookup allocates nothing.
    pub(crate) shape_key: Vec<u8>,
    pub(crate) shape_names: Vec<std::ops::Range<usize>>,
}

/// A memoized map of affine expressions of SSA ids: the map and, for each of
/// its dimensions and symbols, the number of the distinct name (in order of
/// first occurrence) bound to it.
pub(crate) struct SsaMapMemo {
    pub(crate) map: Attribute,
    pub(crate) dims: smallvec::SmallVec<[u8; 6]>,
    pub(crate) syms: smallvec::SmallVec<[u8; 6]>,
}

impl Memo {
    /// Longest text memoized.
    pub(crate) const MAX_LEN: usize = 256;
    /// Entries per table before it is emptied (bounds its memory on inputs
    /// where nothing repeats).
    pub(crate) const MAX_ENTRIES: usize = 1 << 16;

    /// Inserts into a memo table, emptying it first when it is full.
    pub(crate) fn insert<K, T>(table: &mut FxHashMap<Box<K>, T>, key: &K, value: T)
    where
        K: ?Sized + Eq + std::hash::Hash,
        for<'k> Box<K>: From<&'k K>,
    {
        if table.len() >= Self::MAX_ENTRIES {
            table.clear();
        }
        table.insert(key.into(), value);
    }
}

/// The alias definitions seen so far, by name (without `#` or `!`).
#[derive(Clone, Default)]
pub(crate) struct AliasTables<'a> {
    pub(crate) attrs: FxHashMap<&'a str, Attribute>,
    pub(crate) types: FxHashMap<&'a str, Type>,
    /// The nesting depth of each alias's value (`true` for attribute aliases): a use at
    /// depth `d` prints `d - 1 + depth` deep.
    pub(crate) depths: FxHashMap<(bool, &'a str), u32>,
}

/// A parser's [`AliasTables`]: owned while definitions are added, shared
/// (copy on write) once the tasks of a parallel parse see them.
///
/// Adding a definition to tables behind an `Arc` that the parser alone
/// holds still takes an atomic read-modify-write of the count (`make_mut`),
/// a full fence that waits for the parse's outstanding cache misses: an
/// eighth of the time spent parsing alias definitions.
pub(crate) enum Aliases<'a> {
    Owned(AliasTables<'a>),
    Shared(Arc<AliasTables<'a>>),
}

impl Default for Aliases<'_> {
    fn default() -> Self {
        Aliases::Owned(AliasTables::default())
    }
}

impl<'a> std::ops::Deref for Aliases<'a> {
    type Target = AliasTables<'a>;
    #[inline]
    fn deref(&self) -> &AliasTables<'a> {
        match self {
            Aliases::Owned(t) => t,
            Aliases::Shared(t) => t,
        }
    }
}

impl<'a> Aliases<'a> {
    /// The tables, to change (copied first if a task still shares them).
    pub(crate) fn to_mut(&mut self) -> &mut AliasTables<'a> {
        if let Aliases::Shared(shared) = self {
            *self = Aliases::Owned(Arc::unwrap_or_clone(std::mem::take(shared)));
        }
        match self {
            Aliases::Owned(t) => t,
            Aliases::Shared(_) => unreachable!("made owned above"),
        }
    }

    /// The tables, to hand to a task.
    pub(crate) fn share(&mut self) -> Arc<AliasTables<'a>> {
        if let Aliases::Owned(owned) = self {
            *self = Aliases::Shared(Arc::new(std::mem::take(owned)));
        }
        match self {
            Aliases::Shared(t) => Arc::clone(t),
            Aliases::Owned(_) => unreachable!("made shared above"),
        }
    }

    /// The tables, taken out.
    pub(crate) fn into_owned(self) -> AliasTables<'a> {
        match self {
            Aliases::Owned(t) => t,
            Aliases::Shared(t) => Arc::unwrap_or_clone(t),
        }
    }
}

/// The parser state shared by all parts of the grammar.
pub(crate) struct Parser<'a> {
    pub(crate) ctx: &'a Context,
    pub(crate) src: &'a str,
    pub(crate) file: Ident,
    file_name: &'a str,
    line_offset: u32,
    lexer: Lexer<'a>,
    pub(crate) tok: Token,
    /// The aliases defined so far.
    pub(crate) aliases: Aliases<'a>,
    pub(crate) depth: u32,
    /// The deepest nesting reached so far (aliases counted expanded, as they print), and
    /// the token where it was first reached.
    pub(crate) max_depth: (u32, Token),
    pub(crate) bodies: Vec<Body>,
    pub(crate) scopes: Vec<scope::IsolatedScope<'a>>,
    /// Placeholders of location aliases used before their definition, with their first use.
    pub(crate) deferred_locs: FxHashMap<&'a str, (Attribute, Token)>,
    pub(crate) default_dialects: Vec<&'static str>,
    on_progress: Option<ProgressHook>,
    /// Memo of generic-form op pieces that repeat verbatim (see [`Memo`]).
    pub(crate) memo: Memo,
    /// Start of the range the progress hook is told about next (`u32::MAX`
    /// until the first operation).
    progress_from: u32,
    /// Offset past which the progress hook is called next.
    progress_next: u32,
    /// The hand-off to the worker threads of a parallel parse.
    pub(crate) par: Option<parallel::Par<'a>>,
    /// Emptied states of ops already created, whose lists keep their room:
    /// the next ops reuse them instead of allocating (see
    /// [`Body::create_op_from`]).
    pub(crate) spare_states: Vec<crate::body::OperationState>,
}

impl<'a> Parser<'a> {
    fn new(ctx: &'a Context, src: &'a str, file_name: &'a str, opts: &ParseOptions) -> Self {
        let mut lexer = Lexer::new(src);
        let tok = lexer.next_token();
        Parser {
            ctx,
            src,
            file: ctx.intern(file_name),
            file_name,
            line_offset: opts.first_line.saturating_sub(1),
            lexer,
            tok,
            aliases: Aliases::default(),
            depth: 0,
            max_depth: (0, tok),
            bodies: Vec::new(),
            scopes: Vec::new(),
            deferred_locs: FxHashMap::default(),
            default_dialects: Vec::new(),
            on_progress: opts.on_progress.clone(),
            memo: Memo::default(),
            progress_from: u32::MAX,
            progress_next: 0,
            par: None,
            spare_states: Vec::new(),
        }
    }

    /// Tells the progress hook (if any) about the text parsed since the last
    /// call; cheap enough to call before every operation.
    #[inline]
    pub(crate) fn note_progress(&mut self) {
        if self.tok.start >= self.progress_next {
            self.note_progress_slow();
        }
    }

    #[cold]
    fn note_progress_slow(&mut self) {
        let here = self.tok.start;
        self.progress_next = here.saturating_add(PROGRESS_STEP);
        if self.progress_from == u32::MAX {
            // Text before the first operation (alias definitions) stays.
            self.progress_from = here;
            return;
        }
        if let Some(h) = &self.on_progress {
            // Keep a margin behind the current token for look-backs, and
            // the text of regions that worker threads still parse.
            let mut to = here.saturating_sub(1 << 16);
            if let Some(oldest) = self.par.as_ref().and_then(|p| p.oldest_pending()) {
                to = to.min(oldest);
            }
            if to > self.progress_from {
                (h.0)(self.progress_from as usize, to as usize);
                self.progress_from = to;
            }
        }
    }

    // ------------------------------------------------------------ tokens

    /// Moves to the next token.
    #[inline]
    pub(crate) fn bump(&mut self) {
        self.tok = self.lexer.next_token();
    }

    /// The text of the current token.
    #[inline]
    pub(crate) fn text(&self) -> &'a str {
        &self.src[self.tok.start as usize..self.tok.end as usize]
    }

    /// Whether the current token is of `kind`.
    #[inline]
    pub(crate) fn at(&self, kind: TokenKind) -> bool {
        self.tok.kind == kind
    }

    /// Whether the current token is the bare identifier `kw`.
    #[inline]
    pub(crate) fn at_keyword(&self, kw: &str) -> bool {
        self.tok.kind == TokenKind::BareIdent && self.text() == kw
    }

    /// Consumes a token of `kind` if present.
    #[inline]
    pub(crate) fn eat(&mut self, kind: TokenKind) -> bool {
        if self.tok.kind == kind {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes the keyword `kw` if present.
    pub(crate) fn eat_keyword(&mut self, kw: &str) -> bool {
        if self.at_keyword(kw) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes a token of `kind` or fails with "expected `what`".
    pub(crate) fn expect(&mut self, kind: TokenKind, what: &str) -> ParseResult<()> {
        if self.eat(kind) {
            Ok(())
        } else {
            Err(self.error_here(format!("expected {what}")))
        }
    }

    /// Parses `item (, item)* close` or just `close` (the opening token is
    /// already consumed); fails with "expected `what`" if `close` is missing.
    pub(crate) fn parse_comma_list<T>(
        &mut self,
        close: TokenKind,
        what: &str,
        mut item: impl FnMut(&mut Self) -> ParseResult<T>,
    ) -> ParseResult<Vec<T>> {
        let mut v = Vec::new();
        self.parse_comma_list_with(close, what, |p| {
            v.push(item(p)?);
            Ok(())
        })?;
        Ok(v)
    }

    /// Like [`Parser::parse_comma_list`], but hands each item to `each`
    /// (which keeps it where it likes: an op's operands go to a list on
    /// the stack instead of a new vector per op).
    pub(crate) fn parse_comma_list_with(
        &mut self,
        close: TokenKind,
        what: &str,
        mut each: impl FnMut(&mut Self) -> ParseResult<()>,
    ) -> ParseResult<()> {
        if self.eat(close) {
            return Ok(());
        }
        loop {
            each(self)?;
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(close, what)
    }

    /// Re-lexes from byte `offset`, which must lie on the current token's line.
    pub(crate) fn reset_to(&mut self, offset: usize) {
        let (line, line_start) = (self.tok.line, self.tok.start as usize - (self.tok.col as usize - 1));
        self.lexer.reset(offset, line, line_start);
        self.bump();
    }

    /// Skips raw text up to byte `offset` (which may span lines) and re-lexes.
    pub(crate) fn skip_raw_to(&mut self, offset: usize) {
        let line_start = self.tok.start as usize - (self.tok.col as usize - 1);
        self.lexer.reset(self.tok.start as usize, self.tok.line, line_start);
        self.lexer.advance_to(offset);
        self.bump();
    }

    /// Parses a type, memoized by the rest of the line when the type ends
    /// it (as an op's trailing type usually does): see [`Memo`].
    pub(crate) fn parse_type_ending_line(&mut self) -> ParseResult<Type> {
        let start = self.tok.start as usize;
        let eol = memchr::memchr(b'\n', &self.src.as_bytes()[start..]).map_or(self.src.len(), |i| start + i);
        let key = &self.src[start..eol];
        let memo_ok = key.len() <= Memo::MAX_LEN;
        let hit = self
            .memo
            .types
            .get(key)
            .copied()
            .filter(|&(_, rel)| memo_ok && self.memo_hit_ok(rel));
        if let Some((t, _)) = hit {
            self.skip_raw_to(eol);
            return Ok(t);
        }
        let (t, rel) = self.with_rel_depth(|p| p.parse_type())?;
        if memo_ok && self.tok.start as usize >= eol {
            Memo::insert(&mut self.memo.types, key, (t, rel));
        }
        Ok(t)
    }

    /// Whether a memoized parse that nested `rel` levels deeper than here
    /// may be reused: it must not reach a new maximum depth.
    #[inline]
    pub(crate) fn memo_hit_ok(&self, rel: u32) -> bool {
        self.depth + rel <= self.max_depth.0
    }

    /// Runs `f` and returns its result with how many levels deeper than the
    /// current depth it nested (for [`Memo`]).
    pub(crate) fn with_rel_depth<T>(&mut self, f: impl FnOnce(&mut Self) -> ParseResult<T>) -> ParseResult<(T, u32)> {
        let outer = std::mem::replace(&mut self.max_depth, (0, self.tok));
        let r = f(self);
        let inner = self.max_depth.0;
        if inner <= outer.0 {
            self.max_depth = outer;
        }
        Ok((r?, inner.saturating_sub(self.depth)))
    }

    // ------------------------------------------------------------ errors

    /// The source position of the current token.
    pub(crate) fn pos_here(&self) -> SourcePos {
        self.pos_of(self.tok)
    }

    /// The source position of a token.
    pub(crate) fn pos_of(&self, tok: Token) -> SourcePos {
        SourcePos::new(self.file_name, tok.line + self.line_offset, tok.col)
    }

    /// The source position of byte `offset` (slow path, for errors).
    pub(crate) fn pos_of_offset(&self, offset: usize) -> SourcePos {
        let before = &self.src[..offset.min(self.src.len())];
        let line = before.bytes().filter(|&b| b == b'\n').count() as u32 + 1;
        let col = (offset - before.rfind('\n').map_or(0, |i| i + 1)) as u32 + 1;
        SourcePos::new(self.file_name, line + self.line_offset, col)
    }

    /// The location of a token, for the IR.
    pub(crate) fn loc_of(&self, tok: Token) -> Location {
        Location::FileLineCol {
            file: self.file,
            line: tok.line + self.line_offset,
            col: tok.col,
        }
    }

    /// An error at the current token.
    pub(crate) fn error_here(&self, msg: impl Into<String>) -> ParseError {
        let pos = if self.tok.kind == TokenKind::Eof {
            self.pos_of_eof()
        } else {
            self.pos_here()
        };
        Box::new(Diagnostic::error(Some(pos), msg.into()))
    }

    /// An error at a token.
    pub(crate) fn error_at(&self, tok: Token, msg: impl Into<String>) -> ParseError {
        Box::new(Diagnostic::error(Some(self.pos_of(tok)), msg.into()))
    }

    /// An error just after a token (which never spans lines).
    pub(crate) fn error_after(&self, tok: Token, msg: impl Into<String>) -> ParseError {
        let pos = SourcePos::new(
            self.file_name,
            tok.line + self.line_offset,
            tok.col + (tok.end - tok.start),
        );
        Box::new(Diagnostic::error(Some(pos), msg.into()))
    }

    /// The error MLIR's lexer reports for the current token when it is a
    /// malformed string literal (`"...` or `@"...`): an unterminated one
    /// ("expected '\"' in string literal", at the end of the line or file)
    /// or one with an unknown escape (at the backslash). MLIR reports it as
    /// it reads the token, ahead of whatever error the parser then finds at
    /// that token, so it takes that error's place.
    pub(crate) fn lexer_error(&self) -> Option<ParseError> {
        if !matches!(self.tok.kind, TokenKind::Error | TokenKind::String | TokenKind::AtIdent) {
            return None;
        }
        let b = self.src.as_bytes();
        let start = self.tok.start as usize;
        let quote = match (b.get(start), b.get(start + 1)) {
            (Some(b'"'), _) => start,
            (Some(b'@'), Some(b'"')) => start + 1,
            _ => return None,
        };
        let mut p = quote + 1;
        let (at, msg) = loop {
            match b.get(p) {
                None | Some(b'\n' | 0x0b | 0x0c) => break (p, "expected '\"' in string literal"),
                Some(b'"') => return None,
                Some(b'\\') => match b.get(p + 1) {
                    Some(b'"' | b'\\' | b'n' | b't') => p += 2,
                    Some(c) if c.is_ascii_hexdigit() && b.get(p + 2).is_some_and(u8::is_ascii_hexdigit) => p += 3,
                    _ => break (p, "unknown escape in string literal"),
                },
                Some(_) => p += 1,
            }
        };
        Some(Box::new(Diagnostic::error(Some(self.pos_of_offset(at)), msg)))
    }

    fn pos_of_eof(&self) -> SourcePos {
        // Point at the end of the last non-empty line, as MLIR does.
        let trimmed = self.src.trim_end();
        self.pos_of_offset(trimmed.len())
    }

    /// Enters one level of nesting, failing beyond [`MAX_NESTING`].
    pub(crate) fn enter(&mut self) -> ParseResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error_here(format!("nesting too deep (more than {MAX_NESTING} levels)")));
        }
        if self.depth > self.max_depth.0 {
            self.max_depth = (self.depth, self.tok);
        }
        Ok(())
    }

    /// Accounts for the use of an alias (attribute alias when `is_attr`) named `name` at
    /// the current depth: the printer writes its value in place, so the value's nesting
    /// counts from here.
    pub(crate) fn use_alias(&mut self, is_attr: bool, name: &str) -> ParseResult<()> {
        let inner = self.aliases.depths.get(&(is_attr, name)).copied().unwrap_or(1);
        let depth = self.depth.saturating_sub(1) + inner;
        if depth > MAX_NESTING {
            return Err(self.error_here(format!(
                "nesting too deep (more than {MAX_NESTING} levels with aliases expanded)"
            )));
        }
        if depth > self.max_depth.0 {
            self.max_depth = (depth, self.tok);
        }
        Ok(())
    }

    /// Leaves one level of nesting.
    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    // ------------------------------------------------------------ literals

    /// Parses the current string token into its value (escapes resolved).
    pub(crate) fn string_value(&self) -> ParseResult<String> {
        unescape_string(&self.text()[1..self.text().len() - 1]).map_err(|m| self.error_here(m))
    }

    /// The current body being filled.
    #[inline]
    pub(crate) fn body(&mut self) -> &mut Body {
        self.bodies.last_mut().expect("a body is open")
    }
}

/// Resolves MLIR string escapes: `\"`, `\\`, `\n`, `\t`, and `\XX` (two hex digits).
pub fn unescape_string(raw: &str) -> Result<String, String> {
    if !raw.contains('\\') {
        return Ok(raw.to_string());
    }
    let b = raw.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let next = *b.get(i + 1).ok_or("unknown escape in string literal")?;
        match next {
            b'"' | b'\\' => out.push(next),
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            _ if next.is_ascii_hexdigit() && b.get(i + 2).is_some_and(|c| c.is_ascii_hexdigit()) => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("00");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(0));
                i += 1;
            }
            _ => return Err("unknown escape in string literal".into()),
        }
        i += 2;
    }
    String::from_utf8(out).map_err(|_| "string literal is not valid UTF-8 after escapes".to_string())
}
