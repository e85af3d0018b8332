//! Parsing of builtin types.

use super::lexer::TokenKind as T;
use super::{ParseResult, Parser};
use crate::attrs::AttrData;
use crate::types::{Signedness, TypeData, DYNAMIC};
use crate::{Attribute, Type};

impl<'a> Parser<'a> {
    /// Parses a type.
    pub(crate) fn parse_type(&mut self) -> ParseResult<Type> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    /// Parses a type if the current token can start one.
    pub(crate) fn parse_optional_type(&mut self) -> ParseResult<Option<Type>> {
        match self.tok.kind {
            T::BareIdent if self.keyword_type_start() => self.parse_type().map(Some),
            T::BangIdent | T::LParen => self.parse_type().map(Some),
            _ => Ok(None),
        }
    }

    fn keyword_type_start(&self) -> bool {
        let t = self.text();
        matches!(
            t,
            "index" | "f16" | "bf16" | "f32" | "f64" | "none" | "memref" | "tensor" | "vector" | "tuple" | "complex"
        ) || int_type_width(t).is_some()
    }

    fn parse_type_inner(&mut self) -> ParseResult<Type> {
        let ctx = self.ctx;
        match self.tok.kind {
            T::LParen => self.parse_function_type(),
            T::BangIdent => self.parse_bang_type(),
            T::BareIdent => {
                let text = self.text();
                let tok = self.tok;
                if let Some((signedness, width)) = int_type_width(text) {
                    let width = width.map_err(|m| self.error_here(m))?;
                    self.bump();
                    let _ = tok;
                    return Ok(match signedness {
                        Signedness::Signless => ctx.integer_type(width),
                        s => ctx.get_type(TypeData::Integer { width, signedness: s }),
                    });
                }
                let simple = match text {
                    "index" => Some(ctx.common().index),
                    "f16" => Some(ctx.common().f16),
                    "bf16" => Some(ctx.common().bf16),
                    "f32" => Some(ctx.common().f32),
                    "f64" => Some(ctx.common().f64),
                    "none" => Some(ctx.common().none),
                    _ => None,
                };
                if let Some(t) = simple {
                    self.bump();
                    return Ok(t);
                }
                match text {
                    "memref" => self.parse_memref_type(),
                    "tensor" => self.parse_tensor_type(),
                    "vector" => self.parse_vector_type(),
                    "tuple" => {
                        self.bump();
                        self.expect(T::Less, "'<' in tuple type")?;
                        let elems = self.parse_comma_list(T::Greater, "'>' in tuple type", |p| p.parse_type())?;
                        Ok(ctx.get_type(TypeData::Tuple(elems.into())))
                    }
                    "complex" => {
                        self.bump();
                        self.expect(T::Less, "'<' in complex type")?;
                        let elem_tok = self.tok;
                        let e = self.parse_type()?;
                        if !matches!(ctx.type_data(e), TypeData::Integer { .. } | TypeData::Float(_)) {
                            return Err(self.error_at(elem_tok, "invalid element type for complex"));
                        }
                        self.expect(T::Greater, "'>' in complex type")?;
                        Ok(ctx.get_type(TypeData::Complex(e)))
                    }
                    _ => Err(self.error_here(format!("unknown type '{text}'"))),
                }
            }
            _ => Err(self.error_here("expected non-function type")),
        }
    }

    /// Parses `(inputs) -> results`.
    pub(crate) fn parse_function_type(&mut self) -> ParseResult<Type> {
        self.expect(T::LParen, "'(' in function type")?;
        let inputs = self.parse_type_list_until_rparen()?;
        self.expect(T::Arrow, "'->' in function type")?;
        let results = self.parse_function_result_types()?;
        Ok(self.ctx.function_type(&inputs, &results))
    }

    /// Parses the result part of a function type: a single type or `(types)`.
    pub(crate) fn parse_function_result_types(&mut self) -> ParseResult<Vec<Type>> {
        if self.at(T::LParen) {
            // `(i32)` or `()` or a function type `(i32) -> i32`?
            let save = (self.tok, self.lexer.clone());
            self.bump();
            let list = self.parse_type_list_until_rparen()?;
            if self.at(T::Arrow) {
                // It was a function type used as the single result.
                self.tok = save.0;
                self.lexer = save.1;
                return Ok(vec![self.parse_type()?]);
            }
            Ok(list)
        } else {
            Ok(vec![self.parse_type()?])
        }
    }

    /// Parses `type, type, ... )` after a consumed `(`, consuming the `)`.
    pub(crate) fn parse_type_list_until_rparen(&mut self) -> ParseResult<Vec<Type>> {
        self.parse_comma_list(T::RParen, "')' in type list", |p| p.parse_type())
    }

    fn parse_bang_type(&mut self) -> ParseResult<Type> {
        let text = &self.text()[1..];
        if let Some(t) = self.aliases.types.get(text) {
            let t = *t;
            self.use_alias(false, text)?;
            self.bump();
            return Ok(t);
        }
        if !text.contains('.') && !self.src[self.tok.end as usize..].starts_with('<') {
            // As MLIR, the error points just after the alias.
            return Err(self.error_after(self.tok, format!("undefined symbol alias id '{text}'")));
        }
        let (dialect, rest) = text.split_once('.').map_or((text, ""), |(d, r)| (d, r));
        self.check_dialect_allowed(dialect)?;
        let mut body = String::new();
        if !rest.is_empty() {
            body.push('.');
            body.push_str(rest);
        }
        let end = self.tok.end as usize;
        let body_end = if self.src[end..].starts_with('<') {
            self.balanced_end(end)?
        } else {
            end
        };
        body.push_str(&self.src[end..body_end]);
        self.skip_raw_to(body_end);
        let dialect = self.ctx.intern(dialect);
        Ok(self.ctx.get_type(TypeData::Dialect {
            dialect,
            body: body.into(),
        }))
    }

    /// Checks that an unregistered dialect may be used.
    pub(crate) fn check_dialect_allowed(&self, dialect: &str) -> ParseResult<()> {
        if self.ctx.is_dialect_registered(dialect) || self.ctx.allows_unregistered_dialects() {
            Ok(())
        } else {
            Err(self.error_here(format!(
                "dialect '{dialect}' is unknown; use --allow-unregistered-dialect to accept it"
            )))
        }
    }

    /// Given the offset of a `<`, returns the offset just after its matching
    /// `>`, skipping nested brackets and strings (for dialect types and
    /// attributes kept as text).
    pub(crate) fn balanced_end(&self, open: usize) -> ParseResult<usize> {
        let b = self.src.as_bytes();
        let mut stack: Vec<u8> = Vec::new();
        let mut i = open;
        while i < b.len() {
            let c = b[i];
            match c {
                b'<' | b'(' | b'[' | b'{' => {
                    if stack.len() as u32 > super::MAX_NESTING {
                        return Err(self.error_here("nesting too deep in dialect attribute or type"));
                    }
                    stack.push(c)
                }
                // `->` and `>=` are operators, not closers: a `>` closes only
                // an open `<` and never right after a `-`.
                b'>' if (i > 0 && b[i - 1] == b'-') || stack.last() != Some(&b'<') => {}
                b'>' | b')' | b']' | b'}' => {
                    let want = match c {
                        b'>' => b'<',
                        b')' => b'(',
                        b']' => b'[',
                        _ => b'{',
                    };
                    if stack.pop() != Some(want) {
                        return Err(Box::new(lf_diag::Diagnostic::error(
                            Some(self.pos_of_offset(i)),
                            "unbalanced brackets in dialect attribute or type".to_string(),
                        )));
                    }
                    if stack.is_empty() {
                        return Ok(i + 1);
                    }
                }
                b'"' => {
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        if b[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Err(Box::new(lf_diag::Diagnostic::error(
            Some(self.pos_of_offset(open)),
            "unbalanced '<' in dialect attribute or type".to_string(),
        )))
    }

    /// Parses `4x?x8x` style dimensions (each followed by `x`); stops before
    /// the element type. `allow_scalable` accepts `[4]` (vectors).
    fn parse_dimension_list(
        &mut self,
        allow_dynamic: bool,
        allow_scalable: bool,
    ) -> ParseResult<(Vec<i64>, Vec<bool>)> {
        let mut dims = Vec::new();
        let mut scalable = Vec::new();
        loop {
            let (dim, sc) = match self.tok.kind {
                T::Integer if !self.text().starts_with("0x") => {
                    let v: i64 = self.text().parse().map_err(|_| self.error_here("invalid dimension"))?;
                    (v, false)
                }
                // As in MLIR, `0xf32` (lexed as a hex integer) is `0`, `x`, `f32` here.
                T::Integer => (0, false),
                T::Question if allow_dynamic => (DYNAMIC, false),
                T::LSquare if allow_scalable => {
                    self.bump();
                    if !self.at(T::Integer) {
                        return Err(self.error_here("expected integer value in scalable dimension"));
                    }
                    let v: i64 = self.text().parse().map_err(|_| self.error_here("invalid dimension"))?;
                    self.bump();
                    if !self.at(T::RSquare) {
                        return Err(self.error_here("missing ']' closing scalable dimension"));
                    }
                    (v, true)
                }
                T::Question => return Err(self.error_here("expected static shape")),
                _ => return Ok((dims, scalable)),
            };
            dims.push(dim);
            scalable.push(sc);
            // Expect an `x`, possibly glued to what follows (`4xf32`).
            let after = if self.at(T::Integer) && self.text().starts_with("0x") {
                self.tok.start as usize + 1
            } else {
                self.tok.end as usize
            };
            let b = self.src.as_bytes();
            if b.get(after) == Some(&b'x') {
                self.reset_to(after + 1);
            } else {
                self.bump();
                if self.at(T::BareIdent) && self.text().starts_with('x') {
                    let s = self.tok.start as usize;
                    self.reset_to(s + 1);
                } else {
                    return Err(self.error_here("expected 'x' in dimension list"));
                }
            }
        }
    }

    fn parse_memref_type(&mut self) -> ParseResult<Type> {
        let memref_tok = self.tok;
        self.bump();
        self.expect(T::Less, "'<' in memref type")?;
        let ctx = self.ctx;
        if self.at(T::Star) {
            self.expect_x_after_star()?;
            let elem_tok = self.tok;
            let element = self.parse_type()?;
            self.check_element_type(element, elem_tok, false)?;
            let memory_space = if self.eat(T::Comma) {
                self.parse_memory_space(memref_tok)?
            } else {
                None
            };
            self.expect(T::Greater, "'>' in memref type")?;
            return Ok(ctx.get_type(TypeData::UnrankedMemRef { element, memory_space }));
        }
        let (shape, _) = self.parse_dimension_list(true, false)?;
        let elem_tok = self.tok;
        let element = self.parse_type()?;
        self.check_element_type(element, elem_tok, false)?;
        let mut layout = None;
        let mut memory_space = None;
        if self.eat(T::Comma) {
            let tok = self.tok;
            let a = self.parse_attribute()?;
            if is_layout(ctx.attr_data(a)) {
                layout = self.normalize_layout(a, shape.len(), tok)?;
                if self.eat(T::Comma) {
                    memory_space = self.parse_memory_space(memref_tok)?;
                }
            } else {
                self.check_memory_space(a, memref_tok)?;
                memory_space = normalize_memory_space(ctx, a);
            }
        }
        self.expect(T::Greater, "'>' in memref type")?;
        Ok(ctx.get_type(TypeData::MemRef {
            shape: shape.into(),
            element,
            layout,
            memory_space,
        }))
    }

    fn expect_x_after_star(&mut self) -> ParseResult<()> {
        let after = self.tok.end as usize;
        if self.src.as_bytes().get(after) == Some(&b'x') {
            self.reset_to(after + 1);
            Ok(())
        } else {
            Err(self.error_here("expected 'x' in dimension list"))
        }
    }

    fn parse_memory_space(&mut self, memref_tok: super::lexer::Token) -> ParseResult<Option<Attribute>> {
        let a = self.parse_attribute()?;
        self.check_memory_space(a, memref_tok)?;
        Ok(normalize_memory_space(self.ctx, a))
    }

    /// MLIR's `isSupportedMemorySpace`: integers, strings, dictionaries and attributes of
    /// registered dialects other than builtin (registered in lf, or in mlir-opt: those of
    /// unregistered dialects are builtin opaque attributes there); the error points at
    /// `memref`.
    fn check_memory_space(&self, a: Attribute, memref_tok: super::lexer::Token) -> ParseResult<()> {
        let ok = match self.ctx.attr_data(a) {
            AttrData::Integer { .. } | AttrData::String { .. } | AttrData::Dictionary(_) => true,
            AttrData::Dialect { dialect, .. } => {
                let d = self.ctx.ident_str(*dialect);
                self.ctx.is_dialect_registered(d) || MLIR_DIALECTS.contains(&d)
            }
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(self.error_at(memref_tok, "unsupported memory space Attribute"))
        }
    }

    /// MLIR's element type rules of tensors (`TensorType::isValidElementType`) and, when
    /// `!tensor`, of memrefs (`MemRefType::isValidElementType`).
    fn check_element_type(&self, element: Type, tok: super::lexer::Token, tensor: bool) -> ParseResult<()> {
        let ok = match self.ctx.type_data(element) {
            TypeData::Integer { .. }
            | TypeData::Index
            | TypeData::Float(_)
            | TypeData::Complex(_)
            | TypeData::Vector { .. } => true,
            TypeData::MemRef { .. } | TypeData::UnrankedMemRef { .. } => !tensor,
            // Types of other dialects: any in a tensor; in a memref, those of registered
            // dialects (unregistered ones lack MLIR's `MemRefElementTypeInterface`).
            TypeData::Dialect { dialect, .. } => tensor || self.ctx.is_dialect_registered(self.ctx.ident_str(*dialect)),
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            let what = if tensor { "tensor" } else { "memref" };
            Err(self.error_at(tok, format!("invalid {what} element type")))
        }
    }

    fn normalize_layout(&self, a: Attribute, rank: usize, tok: super::lexer::Token) -> ParseResult<Option<Attribute>> {
        if let AttrData::AffineMap(m) = self.ctx.attr_data(a) {
            if m.num_dims() as usize != rank {
                return Err(self.error_at(
                    tok,
                    "memref layout mismatch between rank and affine map: ".to_string()
                        + &format!("{} != {}", rank, m.num_dims()),
                ));
            }
            if m.is_identity() {
                return Ok(None);
            }
        }
        Ok(Some(a))
    }

    fn parse_tensor_type(&mut self) -> ParseResult<Type> {
        self.bump();
        self.expect(T::Less, "'<' in tensor type")?;
        let ctx = self.ctx;
        if self.at(T::Star) {
            self.expect_x_after_star()?;
            let elem_tok = self.tok;
            let element = self.parse_type()?;
            self.check_element_type(element, elem_tok, true)?;
            self.expect(T::Greater, "'>' in tensor type")?;
            return Ok(ctx.get_type(TypeData::UnrankedTensor { element }));
        }
        let (shape, _) = self.parse_dimension_list(true, false)?;
        let elem_tok = self.tok;
        let element = self.parse_type()?;
        self.check_element_type(element, elem_tok, true)?;
        let encoding = if self.eat(T::Comma) {
            Some(self.parse_attribute()?)
        } else {
            None
        };
        self.expect(T::Greater, "'>' in tensor type")?;
        Ok(ctx.get_type(TypeData::Tensor {
            shape: shape.into(),
            element,
            encoding,
        }))
    }

    fn parse_vector_type(&mut self) -> ParseResult<Type> {
        self.bump();
        self.expect(T::Less, "'<' in vector type")?;
        let (shape, scalable) = self.parse_dimension_list(false, true)?;
        let tok = self.tok;
        let element = self.parse_type()?;
        match self.ctx.type_data(element) {
            TypeData::Integer { .. } | TypeData::Index | TypeData::Float(_) => {}
            _ => return Err(self.error_at(tok, "vector elements must be int/index/float type")),
        }
        if shape.iter().any(|d| *d <= 0) {
            return Err(self.error_at(tok, "vector types must have positive constant sizes"));
        }
        self.expect(T::Greater, "'>' in vector type")?;
        Ok(self.ctx.get_type(TypeData::Vector {
            shape: shape.into(),
            scalable: scalable.into(),
            element,
        }))
    }
}

/// The dialects mlir-opt 22 registers besides builtin: their attributes may be memory
/// spaces even where lf does not register the dialect (`#gpu.address_space<workgroup>`).
const MLIR_DIALECTS: &[&str] = &[
    "acc",
    "affine",
    "amdgpu",
    "amx",
    "arith",
    "arm_neon",
    "arm_sme",
    "arm_sve",
    "async",
    "bufferization",
    "cf",
    "complex",
    "dlti",
    "emitc",
    "func",
    "gpu",
    "index",
    "irdl",
    "linalg",
    "llvm",
    "math",
    "memref",
    "ml_program",
    "mpi",
    "nvgpu",
    "nvvm",
    "omp",
    "pdl",
    "pdl_interp",
    "ptr",
    "quant",
    "rocdl",
    "scf",
    "shape",
    "shard",
    "smt",
    "sparse_tensor",
    "spirv",
    "tensor",
    "tosa",
    "transform",
    "ub",
    "vector",
    "wasmssa",
    "x86vector",
    "xegpu",
    "xevm",
];

/// `i32` → (Signless, Ok(32)); `si8`, `ui16`; `None` if not an integer type keyword.
pub(crate) fn int_type_width(t: &str) -> Option<(Signedness, Result<u32, String>)> {
    let (s, digits) = if let Some(d) = t.strip_prefix("si") {
        (Signedness::Signed, d)
    } else if let Some(d) = t.strip_prefix("ui") {
        (Signedness::Unsigned, d)
    } else if let Some(d) = t.strip_prefix('i') {
        (Signedness::Signless, d)
    } else {
        return None;
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let w = match digits.parse::<u32>() {
        Ok(w) if (1..=128).contains(&w) => Ok(w),
        Ok(0) => Err("invalid integer width: 0".to_string()),
        _ => Err(format!(
            "integer bitwidth {digits} is not supported (lf supports 1 to 128 bits)"
        )),
    };
    Some((s, w))
}

fn is_layout(a: &AttrData) -> bool {
    matches!(a, AttrData::AffineMap(_) | AttrData::Strided { .. })
}

/// MLIR drops an integer memory space of 0.
fn normalize_memory_space(ctx: &crate::Context, a: Attribute) -> Option<Attribute> {
    match ctx.attr_data(a) {
        AttrData::Integer { value: 0, .. } => None,
        _ => Some(a),
    }
}
