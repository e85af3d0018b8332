//! Parser primitives for the `affine` and `memref` dialects: affine
//! expressions of SSA ids (`affine.load %A[%i + 1, symbol(%n)]`) and
//! attributes whose type the syntax leaves out (`memref.global`'s
//! `= dense<...>`).

use super::lexer::{Token, TokenKind as T};
use super::ops::{CustomParser, UnresolvedOperand};
use super::{ParseOptions, ParseResult, Parser};
use crate::affine::AffineMap;
use crate::{Attribute, Type};
use lf_diag::Diagnostic;
use std::ops::Range;

/// An affine map parsed from expressions of SSA ids, with the operands bound
/// to its dimensions and symbols.
pub type SsaAffineMap<'a> = (AffineMap, Vec<UnresolvedOperand<'a>>, Vec<UnresolvedOperand<'a>>);

/// The shape of a list of affine expressions of SSA ids (see
/// [`crate::affine::ssa_list_shape`]): its length, key and the ranges of its
/// distinct names.
#[derive(Clone, Copy)]
struct ListShape<'s> {
    len: usize,
    key: &'s [u8],
    names: &'s [Range<usize>],
}

/// As [`SsaAffineMap`], with the map as its uniqued attribute.
pub type SsaAffineMapAttr<'a> = (Attribute, Vec<UnresolvedOperand<'a>>, Vec<UnresolvedOperand<'a>>);

/// Affine expressions of SSA ids as parsed: the map, the byte ranges of the
/// dimension and symbol names, and the bytes read.
type SsaIdExprs = (AffineMap, Vec<Range<usize>>, Vec<Range<usize>>, usize);

impl<'p, 'a> CustomParser<'p, 'a> {
    /// Parses comma-separated affine expressions of SSA ids up to and
    /// including `closing` (`]` or `)`), the opening bracket having been
    /// consumed: MLIR's `parseAffineMapOfSSAIds`. Each distinct SSA id
    /// becomes a dimension (or a symbol when written `symbol(%x)`), in order
    /// of first use; returns the map and the operands of its dimensions and
    /// symbols.
    pub fn parse_affine_map_of_ssa_ids(&mut self, closing: char) -> ParseResult<SsaAffineMap<'a>> {
        let start = self.p.tok.start as usize;
        let (map, dims, syms, consumed) = self.parse_ssa_id_exprs_at(start, closing)?;
        let end = start + consumed;
        let (dim_ops, sym_ops) = self.bind_ssa_ids(start, end, &dims, &syms)?;
        Ok((map, dim_ops, sym_ops))
    }

    /// As [`Self::parse_affine_map_of_ssa_ids`], but returns the map as its
    /// uniqued attribute. A list of the same shape as one parsed before (the
    /// same text but for the SSA names, see
    /// [`crate::affine::ssa_list_shape`]) is not parsed again: its map and
    /// the binding of its names are taken from the parser's memo.
    pub fn parse_affine_map_attr_of_ssa_ids(&mut self, closing: char) -> ParseResult<SsaAffineMapAttr<'a>> {
        let start = self.p.tok.start as usize;
        let text = &self.p.src[start..];
        let mut key = std::mem::take(&mut self.p.memo.shape_key);
        let mut names = std::mem::take(&mut self.p.memo.shape_names);
        let shape = crate::affine::ssa_list_shape(text, closing, &mut key, &mut names);
        let shape = shape.map(|len| ListShape {
            len,
            key: &key,
            names: &names,
        });
        let r = self.map_attr_of_shape(start, shape, closing);
        self.p.memo.shape_key = key;
        self.p.memo.shape_names = names;
        r
    }

    /// The affine expressions of SSA ids from byte `start` of the source up
    /// to `closing`: the map, the byte ranges of the dimension and symbol
    /// names, and the bytes read; an error at its source position.
    fn parse_ssa_id_exprs_at(&self, start: usize, closing: char) -> ParseResult<SsaIdExprs> {
        crate::affine::parse_affine_exprs_of_ssa_id_ranges(&self.p.src[start..], closing).map_err(|e| {
            let pos = self.p.pos_of_offset(start + e.offset);
            Box::new(Diagnostic::error(Some(pos), e.message))
        })
    }

    /// [`Self::parse_affine_map_attr_of_ssa_ids`] once the shape of the list
    /// (its length, key and names) is known, if it has one.
    fn map_attr_of_shape(
        &mut self,
        start: usize,
        shape: Option<ListShape<'_>>,
        closing: char,
    ) -> ParseResult<SsaAffineMapAttr<'a>> {
        type Ranges = smallvec::SmallVec<[Range<usize>; 6]>;
        if let Some(ListShape { len, key, names }) = shape {
            if let Some(m) = self.p.memo.ssa_maps.get(key) {
                let map = m.map;
                let dims: Ranges = m.dims.iter().map(|&n| names[n as usize].clone()).collect();
                let syms: Ranges = m.syms.iter().map(|&n| names[n as usize].clone()).collect();
                let (dim_ops, sym_ops) = self.bind_ssa_ids(start, start + len, &dims, &syms)?;
                return Ok((map, dim_ops, sym_ops));
            }
        }
        let (map, dims, syms, consumed) = self.parse_ssa_id_exprs_at(start, closing)?;
        let map = self.p.ctx.get_attr(crate::attrs::AttrData::AffineMap(map));
        // Memoize only where the parse read what the shape saw: the same
        // names, and up to the same closing character.
        let read_alike = |s: &ListShape<'_>| s.len == consumed && s.names.len() == dims.len() + syms.len();
        if let Some(ListShape { len, key, names }) = shape.filter(read_alike) {
            let slots = |rs: &[Range<usize>]| -> Option<smallvec::SmallVec<[u8; 6]>> {
                rs.iter()
                    .map(|r| names.iter().position(|n| n == r).map(|k| k as u8))
                    .collect()
            };
            if let (Some(d), Some(s)) = (slots(&dims), slots(&syms)) {
                debug_assert_eq!(len, consumed);
                let entry = super::SsaMapMemo { map, dims: d, syms: s };
                super::Memo::insert(&mut self.p.memo.ssa_maps, key, entry);
            }
        }
        let end = start + consumed;
        let (dim_ops, sym_ops) = self.bind_ssa_ids(start, end, &dims, &syms)?;
        Ok((map, dim_ops, sym_ops))
    }

    /// Parses one affine expression of SSA ids that ends before the next
    /// top-level `,` or closing bracket, which is not consumed: MLIR's
    /// `parseAffineExprOfSSAIds` (the bounds of `affine.parallel`). Returns
    /// a one-result map and the operands of its dimensions and symbols.
    pub fn parse_affine_expr_of_ssa_ids(&mut self) -> ParseResult<SsaAffineMap<'a>> {
        let start = self.p.tok.start as usize;
        let bytes = self.p.src.as_bytes();
        let (mut end, mut depth) = (start, 0i32);
        while end < bytes.len() {
            match bytes[end] {
                b'(' | b'[' => depth += 1,
                b')' | b']' if depth == 0 => break,
                b')' | b']' => depth -= 1,
                b',' if depth == 0 => break,
                _ => {}
            }
            end += 1;
        }
        // Parse the expression's text as a list closed by a `)` of our own.
        let text = format!("{})", &self.p.src[start..end]);
        let (map, dims, syms, _) = match crate::affine::parse_affine_exprs_of_ssa_id_ranges(&text, ')') {
            Ok(r) if r.0.num_results() == 1 => r,
            Ok(_) => return Err(self.p.error_here("expected a single affine expression")),
            Err(e) => {
                let pos = self.p.pos_of_offset(start + e.offset.min(end - start));
                return Err(Box::new(Diagnostic::error(Some(pos), e.message)));
            }
        };
        let (dim_ops, sym_ops) = self.bind_ssa_ids(start, end, &dims, &syms)?;
        Ok((map, dim_ops, sym_ops))
    }

    /// The operand references (`%x`, `%x#1`) at the ranges of
    /// `src[start..end]` where the affine parser found the names of `dims`
    /// and `syms`; moves the parser past `end`.
    fn bind_ssa_ids(
        &mut self,
        start: usize,
        end: usize,
        dims: &[Range<usize>],
        syms: &[Range<usize>],
    ) -> ParseResult<(Vec<UnresolvedOperand<'a>>, Vec<UnresolvedOperand<'a>>)> {
        let src = self.p.src;
        let (line, col) = (self.p.tok.line, self.p.tok.col);
        let line_start = start - (col as usize - 1);
        // Most subscripts are on one line: then a name's column is its offset.
        let one_line = memchr::memchr(b'\n', &src.as_bytes()[start..end]).is_none();
        let operand = |r: &Range<usize>| {
            let (s, e) = (start + r.start, start + r.end);
            // `%x#1` is result 1 of `%x` (the lexer's token is `%x`).
            let spelled = &src[s + 1..e];
            let (name, number) = match spelled.bytes().position(|b| b == b'#') {
                Some(k) => (&spelled[..k], spelled[k + 1..].parse().unwrap_or(0)),
                None => (spelled, 0),
            };
            let before = &src.as_bytes()[start..s];
            let newline = if one_line { None } else { memchr::memrchr(b'\n', before) };
            let (line, col) = match newline {
                None => (line, col + (s - start) as u32),
                Some(nl) => {
                    let lines = memchr::memchr_iter(b'\n', before).count() as u32;
                    (line + lines, (s - (start + nl + 1)) as u32 + 1)
                }
            };
            let tok = Token {
                kind: T::PercentIdent,
                start: s as u32,
                end: (s + 1 + name.len()) as u32,
                line,
                col,
            };
            UnresolvedOperand { name, number, tok }
        };
        let dim_ops = dims.iter().map(operand).collect();
        let sym_ops = syms.iter().map(operand).collect();
        // Move the main lexer past the consumed text.
        self.p.lexer.reset(start, line, line_start);
        self.p.lexer.advance_to(end);
        self.p.bump();
        Ok((dim_ops, sym_ops))
    }

    /// Parses an attribute written without its type, giving it type `ty`
    /// (`dense<[1.0, 2.0]>` in `memref.global`, typed `tensor<2xf32>`).
    pub fn parse_attribute_of_type(&mut self, ty: Type) -> ParseResult<Attribute> {
        let start = self.p.tok.start as usize;
        let src = self.p.src;
        // The attribute's text: up to the end of its balanced `<...>`/`[...]`.
        let bytes = src.as_bytes();
        let mut i = start;
        let mut depth = 0i32;
        let mut in_str = false;
        while i < bytes.len() {
            let c = bytes[i];
            if in_str {
                if c == b'\\' {
                    i += 1;
                } else if c == b'"' {
                    in_str = false;
                }
            } else {
                match c {
                    b'"' => in_str = true,
                    b'<' | b'[' | b'(' => depth += 1,
                    b'>' | b']' | b')' => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    b' ' | b'\n' | b'\t' | b'{' | b',' if depth == 0 => break,
                    _ => {}
                }
            }
            i += 1;
        }
        let text = format!(
            "{} : {}",
            &src[start..i],
            crate::printer::type_to_string(self.p.ctx, ty)
        );
        let attr = {
            let mut sub = Parser::new(self.p.ctx, &text, "", &ParseOptions::default());
            sub.parse_attribute()
                .map_err(|e| self.p.error_here(e.message.clone()))?
        };
        let line_start = start - (self.p.tok.col as usize - 1);
        self.p.lexer.reset(start, self.p.tok.line, line_start);
        self.p.lexer.advance_to(i);
        self.p.bump();
        Ok(attr)
    }

    /// How many operands the op being parsed has so far.
    pub fn num_pending_operands(&self) -> usize {
        self.pending.state.operands.len()
    }

    /// Resolves an operand to a value of type `ty` and inserts it at
    /// position `index` of the op's operands (for syntaxes that write an
    /// operand before the type that resolves the ones parsed earlier).
    pub fn insert_operand(&mut self, index: usize, r: UnresolvedOperand<'a>, ty: Type) -> ParseResult<crate::Value> {
        let v = self.p.resolve_operand(r, ty)?;
        self.pending.state.operands.insert(index, v);
        Ok(v)
    }
}
