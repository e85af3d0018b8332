//! Parsing of builtin attributes and locations.

use super::lexer::TokenKind as T;
use super::{unescape_string, ParseResult, Parser};
use crate::attrs::{AttrData, DenseValues, LocationData};
use crate::floatfmt;
use crate::types::{Signedness, TypeData, DYNAMIC};
use crate::{Attribute, Ident, Location, Type};

/// A scalar literal inside `dense<...>` or `array<...>`.
#[derive(Clone, Copy)]
enum Lit<'a> {
    Int { neg: bool, text: &'a str },
    Float { neg: bool, text: &'a str },
    Bool(bool),
}

impl<'a> Parser<'a> {
    /// Parses an attribute.
    pub(crate) fn parse_attribute(&mut self) -> ParseResult<Attribute> {
        self.enter()?;
        let r = self.parse_attribute_inner();
        self.leave();
        r
    }

    fn parse_attribute_inner(&mut self) -> ParseResult<Attribute> {
        let ctx = self.ctx;
        match self.tok.kind {
            T::Integer | T::Float | T::Minus => self.parse_number_attr(),
            T::String => {
                let v = self.string_value()?;
                self.bump();
                let ty = if self.eat(T::Colon) {
                    Some(self.parse_type()?)
                } else {
                    None
                };
                Ok(ctx.get_attr(AttrData::String { value: v.into(), ty }))
            }
            T::LSquare => {
                self.bump();
                let v =
                    self.parse_comma_list(T::RSquare, "']' to close an array attribute", |p| p.parse_attribute())?;
                Ok(ctx.get_attr(AttrData::Array(v.into())))
            }
            T::LBrace => {
                let entries = self.parse_attr_dict_entries()?;
                Ok(ctx.dict_attr(entries))
            }
            T::AtIdent => self.parse_symbol_ref(),
            T::HashIdent => self.parse_hash_attr(),
            T::BareIdent => match self.text() {
                "unit" => {
                    self.bump();
                    Ok(ctx.common().unit)
                }
                "true" | "false" => {
                    let v = self.text() == "true";
                    self.bump();
                    Ok(ctx.integer_attr(v as i128, ctx.common().i1))
                }
                "array" => self.parse_dense_array(),
                "dense" => self.parse_dense_elements(),
                "affine_map" | "affine_set" => self.parse_affine_attr(),
                "strided" => self.parse_strided(),
                "loc" => {
                    self.bump();
                    let l = self.parse_location_body_in_parens()?;
                    Ok(l)
                }
                _ => {
                    let t = self.parse_type()?;
                    Ok(ctx.get_attr(AttrData::Type(t)))
                }
            },
            T::BangIdent | T::LParen => {
                let t = self.parse_type()?;
                Ok(ctx.get_attr(AttrData::Type(t)))
            }
            _ => Err(self.error_here("expected attribute value")),
        }
    }

    /// Parses `{name = attr, name, ...}` (the braces included) into entries,
    /// rejecting duplicate names.
    pub(crate) fn parse_attr_dict_entries(&mut self) -> ParseResult<Vec<(Ident, Attribute)>> {
        self.expect(T::LBrace, "'{'")?;
        let mut entries: Vec<(Ident, Attribute)> = Vec::new();
        if self.eat(T::RBrace) {
            return Ok(entries);
        }
        loop {
            let name_tok = self.tok;
            let name = match self.tok.kind {
                T::BareIdent => self.text().to_string(),
                T::String => self.string_value()?,
                _ => return Err(self.error_here("expected attribute name")),
            };
            if name.is_empty() {
                return Err(self.error_here("expected valid attribute name"));
            }
            self.bump();
            let value = if self.eat(T::Equal) {
                self.parse_attribute()?
            } else {
                self.ctx.common().unit
            };
            let id = self.ctx.intern(&name);
            if entries.iter().any(|(n, _)| *n == id) {
                return Err(self.error_at(name_tok, format!("duplicate key '{name}' in dictionary attribute")));
            }
            entries.push((id, value));
            if !self.eat(T::Comma) {
                break;
            }
        }
        self.expect(T::RBrace, "'}' in attribute dictionary")?;
        Ok(entries)
    }

    fn parse_symbol_ref(&mut self) -> ParseResult<Attribute> {
        let root = self.symbol_name()?;
        self.bump();
        let mut nested = Vec::new();
        while self.at(T::ColonColon) {
            self.bump();
            if !self.at(T::AtIdent) {
                return Err(self.error_here("expected nested symbol reference identifier"));
            }
            nested.push(self.symbol_name()?);
            self.bump();
        }
        Ok(self.ctx.get_attr(AttrData::SymbolRef {
            root,
            nested: nested.into(),
        }))
    }

    /// The symbol named by the current `@` token.
    pub(crate) fn symbol_name(&self) -> ParseResult<Ident> {
        let t = &self.text()[1..];
        let name = if t.starts_with('"') {
            unescape_string(&t[1..t.len() - 1]).map_err(|m| self.error_here(m))?
        } else {
            t.to_string()
        };
        Ok(self.ctx.intern(&name))
    }

    fn parse_hash_attr(&mut self) -> ParseResult<Attribute> {
        let name = &self.text()[1..];
        let glued_angle = self.src[self.tok.end as usize..].starts_with('<');
        if !name.contains('.') && !glued_angle {
            if let Some(a) = self.aliases.attrs.get(name) {
                let a = *a;
                self.use_alias(true, name)?;
                self.bump();
                return Ok(a);
            }
            // As MLIR, the error points just after the alias.
            return Err(self.error_after(self.tok, format!("undefined symbol alias id '{name}'")));
        }
        let (dialect, rest) = name.split_once('.').unwrap_or((name, ""));
        self.check_dialect_allowed(dialect)?;
        let mut body = String::new();
        if !rest.is_empty() {
            body.push('.');
            body.push_str(rest);
        }
        let end = self.tok.end as usize;
        let body_end = if glued_angle { self.balanced_end(end)? } else { end };
        body.push_str(&self.src[end..body_end]);
        self.skip_raw_to(body_end);
        let dialect = self.ctx.intern(dialect);
        Ok(self.ctx.get_attr(AttrData::Dialect {
            dialect,
            body: body.into(),
        }))
    }

    fn parse_number_attr(&mut self) -> ParseResult<Attribute> {
        let start_tok = self.tok;
        let neg = self.eat(T::Minus);
        let lit_tok = self.tok;
        let lit = match self.tok.kind {
            T::Integer => Lit::Int { neg, text: self.text() },
            T::Float => Lit::Float { neg, text: self.text() },
            _ => return Err(self.error_here("expected integer or floating point literal")),
        };
        self.bump();
        let ctx = self.ctx;
        let ty = if self.eat(T::Colon) {
            self.parse_type()?
        } else if matches!(lit, Lit::Float { .. }) {
            ctx.common().f64
        } else {
            ctx.common().i64
        };
        let _ = start_tok;
        self.scalar_attr(lit, ty, lit_tok)
    }

    fn scalar_attr(&self, lit: Lit<'_>, ty: Type, tok: super::lexer::Token) -> ParseResult<Attribute> {
        let ctx = self.ctx;
        match ctx.type_data(ty) {
            TypeData::Float(_) => {
                let bits = self.float_bits(lit, ty, tok)?;
                Ok(ctx.get_attr(AttrData::Float { bits, ty }))
            }
            TypeData::Integer { .. } | TypeData::Index => {
                let value = self.int_value(lit, ty, tok)?;
                Ok(ctx.integer_attr(value, ty))
            }
            _ => Err(self.error_at(tok, "integer or float literal needs an integer, index or float type")),
        }
    }

    /// The stored value of an integer literal of type `ty` (range-checked).
    fn int_value(&self, lit: Lit<'_>, ty: Type, tok: super::lexer::Token) -> ParseResult<i128> {
        let (neg, text) = match lit {
            Lit::Int { neg, text } => (neg, text),
            Lit::Bool(b) => (false, if b { "1" } else { "0" }),
            Lit::Float { .. } => return Err(self.error_at(tok, "expected integer value")),
        };
        let mag: u128 = if let Some(h) = text.strip_prefix("0x") {
            u128::from_str_radix(h, 16)
        } else {
            text.parse::<u128>()
        }
        .map_err(|_| self.error_at(tok, "integer constant out of range for attribute"))?;
        let (width, signedness, index) = match self.ctx.type_data(ty) {
            TypeData::Integer { width, signedness } => (*width, *signedness, false),
            _ => (64, Signedness::Signless, true),
        };
        let out_of_range = || self.error_at(tok, "integer constant out of range for attribute");
        if neg && signedness == Signedness::Unsigned {
            return Err(self.error_at(tok, "negative integer literal not valid for unsigned integer type"));
        }
        let max_unsigned: u128 = if width == 128 { u128::MAX } else { (1u128 << width) - 1 };
        // As MLIR's `buildAttributeAPInt`: a positive signed or index value
        // must leave the sign bit clear (`9223372036854775808 : index` is
        // out of range, as `128 : si8`); a signless one may use all bits.
        let max_pos: u128 = match signedness {
            Signedness::Signed => max_unsigned >> 1,
            _ if index => max_unsigned >> 1,
            _ => max_unsigned,
        };
        if neg {
            // MLIR negates the value and requires the sign bit set after, so
            // `-0` is out of range whatever the type.
            let min_mag = 1u128 << (width - 1);
            if mag > min_mag || mag == 0 {
                return Err(out_of_range());
            }
        } else if mag > max_pos {
            return Err(out_of_range());
        }
        let raw = if neg { (mag as i128).wrapping_neg() } else { mag as i128 };
        Ok(normalize_int(raw, width, signedness))
    }

    fn float_bits(&self, lit: Lit<'_>, ty: Type, tok: super::lexer::Token) -> ParseResult<u64> {
        let kind = match self.ctx.type_data(ty) {
            TypeData::Float(k) => *k,
            _ => return Err(self.error_at(tok, "expected float type")),
        };
        match lit {
            Lit::Float { neg, text } => {
                let full = if neg { format!("-{text}") } else { text.to_string() };
                floatfmt::parse_decimal(kind, &full).ok_or_else(|| self.error_at(tok, "invalid floating point literal"))
            }
            Lit::Int { neg, text } if text.starts_with("0x") => {
                if neg {
                    return Err(self.error_at(tok, "hexadecimal float literal should not have a leading minus"));
                }
                let v = u128::from_str_radix(&text[2..], 16)
                    .map_err(|_| self.error_at(tok, "hexadecimal float constant out of range for type"))?;
                if v >> kind.width() != 0 {
                    return Err(self.error_at(tok, "hexadecimal float constant out of range for type"));
                }
                Ok(v as u64)
            }
            Lit::Int { .. } => Err(Box::new(
                lf_diag::Diagnostic::error(
                    Some(self.pos_of(tok)),
                    "unexpected decimal integer literal for a floating point value".to_string(),
                )
                .with_note(
                    Some(self.pos_of(tok)),
                    "add a trailing dot to make the literal a float".to_string(),
                ),
            )),
            Lit::Bool(_) => Err(self.error_at(tok, "expected floating point literal")),
        }
    }

    fn parse_scalar_lit(&mut self) -> ParseResult<(Lit<'a>, super::lexer::Token)> {
        let neg = self.eat(T::Minus);
        let tok = self.tok;
        let lit = match self.tok.kind {
            T::Integer => Lit::Int { neg, text: self.text() },
            T::Float => Lit::Float { neg, text: self.text() },
            T::BareIdent if !neg && (self.text() == "true" || self.text() == "false") => {
                Lit::Bool(self.text() == "true")
            }
            _ => return Err(self.error_here("expected integer or float literal")),
        };
        self.bump();
        Ok((lit, tok))
    }

    fn parse_dense_array(&mut self) -> ParseResult<Attribute> {
        self.bump();
        self.expect(T::Less, "'<' after 'array'")?;
        let elem_tok = self.tok;
        let element = self.parse_type()?;
        let mut lits = Vec::new();
        if self.eat(T::Colon) {
            loop {
                lits.push(self.parse_scalar_lit()?);
                if !self.eat(T::Comma) {
                    break;
                }
            }
        }
        self.expect(T::Greater, "'>' to close an array attribute")?;
        let values = self.dense_values(&lits, element, elem_tok)?;
        Ok(self.ctx.get_attr(AttrData::DenseArray { element, values }))
    }

    fn dense_values(
        &self,
        lits: &[(Lit<'_>, super::lexer::Token)],
        element: Type,
        tok: super::lexer::Token,
    ) -> ParseResult<DenseValues> {
        match self.ctx.type_data(element) {
            TypeData::Float(_) => {
                let mut v = Vec::with_capacity(lits.len());
                for (l, t) in lits {
                    v.push(self.float_bits(*l, element, *t)?);
                }
                Ok(DenseValues::Float(v.into()))
            }
            TypeData::Integer { .. } | TypeData::Index => {
                let mut v = Vec::with_capacity(lits.len());
                for (l, t) in lits {
                    v.push(self.int_value(*l, element, *t)?);
                }
                Ok(DenseValues::Int(v.into()))
            }
            _ => Err(self.error_at(tok, "expected integer or float type")),
        }
    }

    fn parse_dense_elements(&mut self) -> ParseResult<Attribute> {
        self.bump();
        self.expect(T::Less, "'<' after 'dense'")?;
        let lit_tok = self.tok;
        let mut lits = Vec::new();
        let mut shape: Option<Vec<i64>> = None;
        let mut splat = false;
        let mut hex: Option<&'a str> = None;
        if self.at(T::Greater) {
            shape = Some(vec![0]);
        } else if self.at(T::LSquare) {
            let s = self.parse_dense_list(&mut lits, 0)?;
            shape = Some(s);
        } else if self.at(T::String) {
            hex = Some(self.text());
            self.bump();
        } else {
            lits.push(self.parse_scalar_lit()?);
            splat = true;
        }
        self.expect(T::Greater, "'>'")?;
        self.expect(T::Colon, "':' after dense elements literal")?;
        let ty_tok = self.tok;
        let ty = self.parse_type()?;
        let (tshape, element) = match self.ctx.type_data(ty) {
            TypeData::Tensor { shape, element, .. } | TypeData::Vector { shape, element, .. } => {
                (shape.to_vec(), *element)
            }
            _ => return Err(self.error_at(ty_tok, "elements literal must be a shaped type")),
        };
        if tshape.contains(&DYNAMIC) {
            return Err(self.error_at(ty_tok, "elements literal type must have static shape"));
        }
        // The element count; a shape whose count overflows i64 saturates (only a splat can
        // match it, as in MLIR).
        let count: i64 = if tshape.contains(&0) {
            0
        } else {
            tshape
                .iter()
                .try_fold(1i64, |acc, &d| acc.checked_mul(d))
                .unwrap_or(i64::MAX)
        };
        if let Some(h) = hex {
            return self.dense_from_hex(h, ty, element, count, lit_tok);
        }
        if let Some(s) = shape {
            let matches = if s == [0] && lits.is_empty() {
                count == 0
            } else {
                s == tshape
            };
            if !matches {
                return Err(self.error_at(
                    lit_tok,
                    format!(
                        "inferred shape of elements literal ({}) does not match type ({})",
                        fmt_shape(&s),
                        fmt_shape(&tshape)
                    ),
                ));
            }
        }
        let mut values = self.dense_values(&lits, element, lit_tok)?;
        if !splat {
            values = splat_if_uniform(values);
        }
        Ok(self.ctx.get_attr(AttrData::DenseElements { ty, values }))
    }

    fn dense_from_hex(
        &self,
        h: &str,
        ty: Type,
        element: Type,
        count: i64,
        tok: super::lexer::Token,
    ) -> ParseResult<Attribute> {
        let raw = &h[1..h.len() - 1];
        let hexd = raw
            .strip_prefix("0x")
            .ok_or_else(|| self.error_at(tok, "expected hex string"))?;
        if !hexd.len().is_multiple_of(2) || !hexd.bytes().all(|c| c.is_ascii_hexdigit()) {
            return Err(self.error_at(tok, "malformed hex string in dense elements literal"));
        }
        let bytes: Vec<u8> = (0..hexd.len() / 2)
            .map(|i| u8::from_str_radix(&hexd[2 * i..2 * i + 2], 16).unwrap_or(0))
            .collect();
        let (width, is_float) = match self.ctx.type_data(element) {
            TypeData::Float(k) => (k.width(), true),
            TypeData::Integer { width, .. } => (*width, false),
            TypeData::Index => (64, false),
            _ => return Err(self.error_at(tok, "unsupported element type for hex dense literal")),
        };
        let esize = (width as usize).div_ceil(8);
        if esize == 0
            || !bytes.len().is_multiple_of(esize)
            || (bytes.len() / esize != count as usize && bytes.len() != esize)
        {
            return Err(self.error_at(tok, "elements hex data size is invalid for provided type"));
        }
        let words: Vec<u128> = bytes
            .chunks(esize)
            .map(|c| c.iter().rev().fold(0u128, |acc, b| (acc << 8) | *b as u128))
            .collect();
        let values = if is_float {
            DenseValues::Float(words.iter().map(|w| *w as u64).collect())
        } else {
            let sg = match self.ctx.type_data(element) {
                TypeData::Integer { signedness, .. } => *signedness,
                _ => Signedness::Signless,
            };
            DenseValues::Int(words.iter().map(|w| normalize_int(*w as i128, width, sg)).collect())
        };
        Ok(self.ctx.get_attr(AttrData::DenseElements {
            ty,
            values: splat_if_uniform(values),
        }))
    }

    /// Parses a nested `[...]` list of scalars, returning its shape.
    fn parse_dense_list(&mut self, out: &mut Vec<(Lit<'a>, super::lexer::Token)>, depth: u32) -> ParseResult<Vec<i64>> {
        if depth > super::MAX_NESTING {
            return Err(self.error_here("nesting too deep in dense literal"));
        }
        self.expect(T::LSquare, "'['")?;
        let mut count = 0i64;
        let mut inner: Option<Vec<i64>> = None;
        if !self.eat(T::RSquare) {
            loop {
                if self.at(T::LSquare) {
                    let s = self.parse_dense_list(out, depth + 1)?;
                    match &inner {
                        Some(prev) if *prev != s => {
                            return Err(
                                self.error_here("tensor literal is invalid; ranks are not consistent between elements")
                            )
                        }
                        _ => inner = Some(s),
                    }
                } else {
                    if inner.as_ref().is_some_and(|v| !v.is_empty()) {
                        return Err(
                            self.error_here("tensor literal is invalid; ranks are not consistent between elements")
                        );
                    }
                    out.push(self.parse_scalar_lit()?);
                    inner = Some(Vec::new());
                }
                count += 1;
                if !self.eat(T::Comma) {
                    break;
                }
            }
            self.expect(T::RSquare, "']'")?;
        }
        let mut shape = vec![count];
        shape.extend(inner.unwrap_or_default());
        Ok(shape)
    }

    fn parse_affine_attr(&mut self) -> ParseResult<Attribute> {
        let is_map = self.text() == "affine_map";
        self.bump();
        if !self.at(T::Less) {
            return Err(self.error_here("expected '<'"));
        }
        let open = self.tok.start as usize;
        let end = self.balanced_end(open)?;
        let text = &self.src[open + 1..end - 1];
        let ctx = self.ctx;
        let attr = if is_map {
            let m =
                crate::affine::parse_affine_map(text).map_err(|e| self.affine_error(open + 1 + e.offset, e.message))?;
            ctx.get_attr(AttrData::AffineMap(m))
        } else {
            let s = crate::affine::parse_integer_set(text)
                .map_err(|e| self.affine_error(open + 1 + e.offset, e.message))?;
            ctx.get_attr(AttrData::IntegerSet(s))
        };
        self.skip_raw_to(end);
        Ok(attr)
    }

    fn affine_error(&self, offset: usize, msg: String) -> super::ParseError {
        Box::new(lf_diag::Diagnostic::error(Some(self.pos_of_offset(offset)), msg))
    }

    fn parse_strided(&mut self) -> ParseResult<Attribute> {
        self.bump();
        self.expect(T::Less, "'<' after 'strided'")?;
        self.expect(T::LSquare, "'['")?;
        let strides = self.parse_comma_list(T::RSquare, "']'", |p| p.parse_static_or_dynamic())?;
        let mut offset = 0;
        if self.eat(T::Comma) {
            if !self.eat_keyword("offset") {
                return Err(self.error_here("expected 'offset' after comma"));
            }
            self.expect(T::Colon, "':' after 'offset'")?;
            offset = self.parse_static_or_dynamic()?;
        }
        self.expect(T::Greater, "'>'")?;
        Ok(self.ctx.get_attr(AttrData::Strided {
            strides: strides.into(),
            offset,
        }))
    }

    fn parse_static_or_dynamic(&mut self) -> ParseResult<i64> {
        if self.eat(T::Question) {
            return Ok(DYNAMIC);
        }
        let neg = self.eat(T::Minus);
        if !self.at(T::Integer) {
            return Err(self.error_here("expected a 64-bit signed integer or '?'"));
        }
        let v: i64 = self
            .text()
            .parse()
            .map_err(|_| self.error_here("expected a 64-bit signed integer or '?'"))?;
        self.bump();
        Ok(if neg { -v } else { v })
    }

    // ------------------------------------------------------------ locations

    /// Parses `( location )` after the `loc` keyword, returning a location attribute.
    pub(crate) fn parse_location_body_in_parens(&mut self) -> ParseResult<Attribute> {
        self.expect(T::LParen, "'(' in location")?;
        let l = self.parse_location_body()?;
        self.expect(T::RParen, "')' in location")?;
        Ok(l)
    }

    /// Parses an optional trailing `loc(...)` into a [`Location`].
    pub(crate) fn parse_optional_trailing_loc(&mut self) -> ParseResult<Option<Location>> {
        if !self.at_keyword("loc") {
            return Ok(None);
        }
        self.bump();
        // `loc(#alias)` with the alias defined later in the file: resolved at the end.
        let a = if self.at(T::LParen) && self.lexer.clone().next_token().kind == T::HashIdent {
            self.bump();
            let name = &self.text()[1..];
            let a = if self.aliases.attrs.contains_key(name) || name.contains('.') {
                self.parse_location_body()?
            } else {
                let placeholder = self.deferred_loc_placeholder(name);
                self.bump();
                placeholder
            };
            self.expect(T::RParen, "')' in location")?;
            a
        } else {
            self.parse_location_body_in_parens()?
        };
        Ok(Some(Location::from_attr(self.ctx, a)))
    }

    fn parse_location_body(&mut self) -> ParseResult<Attribute> {
        self.enter()?;
        let r = self.parse_location_body_inner();
        self.leave();
        r
    }

    fn parse_location_body_inner(&mut self) -> ParseResult<Attribute> {
        let ctx = self.ctx;
        match self.tok.kind {
            T::BareIdent if self.text() == "unknown" => {
                self.bump();
                Ok(ctx.common().unknown_loc)
            }
            T::BareIdent if self.text() == "callsite" => {
                self.bump();
                self.expect(T::LParen, "'(' in callsite location")?;
                let callee = self.parse_location_body()?;
                if !self.eat_keyword("at") {
                    return Err(self.error_here("expected 'at' in callsite"));
                }
                let caller = self.parse_location_body()?;
                self.expect(T::RParen, "')' in callsite location")?;
                Ok(ctx.get_attr(AttrData::Location(LocationData::CallSite { callee, caller })))
            }
            T::BareIdent if self.text() == "fused" => {
                self.bump();
                let metadata = if self.eat(T::Less) {
                    let m = self.parse_attribute()?;
                    self.expect(T::Greater, "'>' after fused location metadata")?;
                    Some(m)
                } else {
                    None
                };
                self.expect(T::LSquare, "'[' in fused location")?;
                let locations =
                    self.parse_comma_list(T::RSquare, "']' in fused location", |p| p.parse_location_body())?;
                Ok(ctx.get_attr(AttrData::Location(LocationData::Fused {
                    metadata,
                    locations: locations.into(),
                })))
            }
            T::String => {
                let s = self.string_value()?;
                self.bump();
                if self.eat(T::Colon) {
                    let line = self.parse_u32("expected integer line number in FileLineColLoc")?;
                    self.expect(T::Colon, "':' in FileLineColLoc")?;
                    let col = self.parse_u32("expected integer column number in FileLineColLoc")?;
                    let file = ctx.intern(&s);
                    return Ok(ctx.file_loc(file, line, col));
                }
                let name = ctx.intern(&s);
                let child = if self.eat(T::LParen) {
                    let c = self.parse_location_body()?;
                    self.expect(T::RParen, "')' after child location of NameLoc")?;
                    Some(c)
                } else {
                    None
                };
                Ok(ctx.get_attr(AttrData::Location(LocationData::Name { name, child })))
            }
            T::HashIdent => {
                let name = &self.text()[1..];
                if let Some(a) = self.aliases.attrs.get(name).copied() {
                    if !ctx.attr_data(a).is_location() {
                        return Err(self.error_here("expected location, but found non-location attribute alias"));
                    }
                    self.use_alias(true, name)?;
                    self.bump();
                    return Ok(a);
                }
                // As MLIR, an alias inside a location must be defined before (only an op's or
                // block argument's `loc(#alias)` may refer forward); the error points after it.
                Err(self.error_after(self.tok, format!("undefined symbol alias id '{name}'")))
            }
            _ => Err(self.error_here("expected location instance")),
        }
    }

    fn parse_u32(&mut self, msg: &str) -> ParseResult<u32> {
        if !self.at(T::Integer) {
            return Err(self.error_here(msg.to_string()));
        }
        let v = self
            .text()
            .parse::<u32>()
            .map_err(|_| self.error_here(msg.to_string()))?;
        self.bump();
        Ok(v)
    }

    fn deferred_loc_placeholder(&mut self, name: &'a str) -> Attribute {
        if let Some((a, _)) = self.deferred_locs.get(name) {
            return *a;
        }
        let ctx = self.ctx;
        let a = ctx.get_attr(AttrData::Dialect {
            dialect: ctx.intern(DEFERRED_LOC_DIALECT),
            body: name.into(),
        });
        self.deferred_locs.insert(name, (a, self.tok));
        a
    }
}

/// Dialect name of the placeholders used for location aliases defined after use.
pub(crate) const DEFERRED_LOC_DIALECT: &str = "lf.deferred_loc";

/// Truncates `v` to `width` bits and extends it back per the signedness.
pub(crate) fn normalize_int(v: i128, width: u32, s: Signedness) -> i128 {
    if width >= 128 {
        return v;
    }
    let shift = 128 - width;
    match s {
        Signedness::Unsigned => (((v as u128) << shift) >> shift) as i128,
        _ if width == 1 => v & 1,
        _ => (v << shift) >> shift,
    }
}

fn fmt_shape(s: &[i64]) -> String {
    s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
}

fn splat_if_uniform(v: DenseValues) -> DenseValues {
    match v {
        DenseValues::Int(x) if x.len() > 1 && x.iter().all(|e| *e == x[0]) => DenseValues::Int(Box::new([x[0]])),
        DenseValues::Float(x) if x.len() > 1 && x.iter().all(|e| *e == x[0]) => DenseValues::Float(Box::new([x[0]])),
        other => other,
    }
}
