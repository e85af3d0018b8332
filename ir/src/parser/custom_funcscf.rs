//! Parser primitives for the `func` and `scf` dialects: attribute
//! dictionaries as values (argument and result attributes), trailing
//! locations of region arguments, and the location of an operand reference.

use super::ops::{CustomParser, UnresolvedOperand};
use super::ParseResult;
use crate::{Attribute, Location};

impl<'p, 'a> CustomParser<'p, 'a> {
    /// Parses a `{...}` attribute dictionary if one is next and returns it as
    /// a dictionary attribute (for argument and result attributes).
    pub fn parse_optional_dict_attr(&mut self) -> ParseResult<Option<Attribute>> {
        if !self.p.at(super::lexer::TokenKind::LBrace) {
            return Ok(None);
        }
        let entries = self.p.parse_attr_dict_entries()?;
        Ok(Some(self.p.ctx.dict_attr(entries)))
    }

    /// Parses an optional trailing `loc(...)` (after a region argument).
    pub fn parse_optional_location(&mut self) -> ParseResult<Option<Location>> {
        self.p.parse_optional_trailing_loc()
    }

    /// The location of an operand reference's token (the default location of
    /// a region argument declared in a custom syntax).
    pub fn operand_loc(&self, r: &UnresolvedOperand<'a>) -> Location {
        self.p.loc_of(r.tok)
    }

    /// The location of the current token.
    pub fn current_loc(&self) -> Location {
        self.p.loc_of(self.p.tok)
    }
}

impl<'p, 'a> CustomParser<'p, 'a> {
    /// Adds an empty region to the op (a function declaration's body).
    pub fn add_empty_region(&mut self) -> crate::RegionId {
        if self.pending.isolated && self.pending.state.nested.is_none() {
            self.pending.state.nested = Some(Box::default());
        }
        let body: &mut crate::Body = match self.pending.state.nested.as_deref_mut() {
            Some(b) => b,
            None => self.p.body(),
        };
        let r = body.create_region();
        self.pending.state.regions.push(r);
        r
    }

    /// An error at an operand reference parsed earlier.
    pub fn error_at_operand(&self, r: &UnresolvedOperand<'a>, msg: impl Into<String>) -> super::ParseError {
        self.p.error_at(r.tok, msg)
    }

    /// Whether the op's region parsed last is empty (no blocks). A region
    /// handed to a worker thread is never empty (see the parser's
    /// `parallel` module).
    pub fn region_is_empty(&mut self, r: crate::RegionId) -> bool {
        if r == crate::RegionId(crate::entity::NONE) {
            return false;
        }
        let body: &crate::Body = match self.pending.state.nested.as_deref() {
            Some(b) => b,
            None => self.p.body(),
        };
        body.region_is_empty(r)
    }
}

impl<'p, 'a> CustomParser<'p, 'a> {
    /// MLIR's `ensureTerminator` for a single-block region of the op being
    /// parsed: gives an empty region a block, and appends an op named
    /// `terminator` (no operands, no results) to its last block unless that
    /// block already ends with a registered terminator.
    pub fn ensure_terminator(&mut self, r: crate::RegionId, terminator: &str) {
        let ctx = self.p.ctx;
        let loc = self.pending.state.loc;
        let name = ctx.op_name(terminator);
        let body: &mut crate::Body = match self.pending.state.nested.as_deref_mut() {
            Some(b) if self.pending.isolated => b,
            _ => self.p.body(),
        };
        if body.region_is_empty(r) {
            let b = body.create_block();
            body.append_block(r, b);
        }
        let Some(b) = body.region_blocks(r).last() else { return };
        if let Some(last) = body.last_op(b) {
            if ctx
                .op_def(body.op_name(last))
                .is_some_and(|d| d.has(crate::Traits::TERMINATOR))
            {
                return;
            }
        }
        let op = body.create_op(crate::body::OperationState::new(name, loc));
        body.append_op(b, op);
    }
}
