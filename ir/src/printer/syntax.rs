//! Text of types and attributes in MLIR's syntax.

use super::aliases::Aliases;
use crate::attrs::{AttrData, DenseValues, LocationData};
use crate::floatfmt::format_float;
use crate::types::{FloatKind, Signedness, TypeData, DYNAMIC};
use crate::{Attribute, Context, Type};
use std::fmt::Write;

/// Formats types and attributes, substituting aliases when given.
pub(crate) struct SyntaxWriter<'c> {
    pub(crate) ctx: &'c Context,
    pub(crate) aliases: Option<&'c Aliases>,
}

/// Whether `s` can be printed as a bare identifier.
pub(crate) fn is_bare_ident(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
}

/// Writes `s` as a quoted MLIR string literal.
pub(crate) fn write_escaped(out: &mut String, s: &str) {
    out.push('"');
    for &c in s.as_bytes() {
        match c {
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7E if c != b'"' => out.push(c as char),
            _ => {
                let _ = write!(out, "\\{c:02X}");
            }
        }
    }
    out.push('"');
}

fn write_dims(out: &mut String, shape: &[i64], scalable: Option<&[bool]>) {
    for (i, d) in shape.iter().enumerate() {
        let sc = scalable.is_some_and(|s| s.get(i).copied().unwrap_or(false));
        if sc {
            out.push('[');
        }
        if *d == DYNAMIC {
            out.push('?');
        } else {
            super::push_int(out, *d);
        }
        if sc {
            out.push(']');
        }
        out.push('x');
    }
}

impl SyntaxWriter<'_> {
    /// Writes a type.
    pub(crate) fn ty(&self, out: &mut String, t: Type) {
        match self.ctx.type_data(t) {
            TypeData::Integer { width, signedness } => {
                let p = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                out.push_str(p);
                super::push_int(out, *width);
            }
            TypeData::Index => out.push_str("index"),
            TypeData::Float(k) => out.push_str(k.keyword()),
            TypeData::None => out.push_str("none"),
            TypeData::Function { inputs, results } => {
                out.push('(');
                self.type_list(out, inputs);
                out.push_str(") -> ");
                self.result_types(out, results);
            }
            TypeData::MemRef {
                shape,
                element,
                layout,
                memory_space,
            } => {
                out.push_str("memref<");
                write_dims(out, shape, None);
                self.ty(out, *element);
                if let Some(l) = layout {
                    out.push_str(", ");
                    self.attr(out, *l);
                }
                if let Some(m) = memory_space {
                    out.push_str(", ");
                    self.memory_space(out, *m);
                }
                out.push('>');
            }
            TypeData::UnrankedMemRef { element, memory_space } => {
                out.push_str("memref<*x");
                self.ty(out, *element);
                if let Some(m) = memory_space {
                    out.push_str(", ");
                    self.memory_space(out, *m);
                }
                out.push('>');
            }
            TypeData::Vector {
                shape,
                scalable,
                element,
            } => {
                out.push_str("vector<");
                write_dims(out, shape, Some(scalable));
                self.ty(out, *element);
                out.push('>');
            }
            TypeData::Tensor {
                shape,
                element,
                encoding,
            } => {
                out.push_str("tensor<");
                write_dims(out, shape, None);
                self.ty(out, *element);
                if let Some(e) = encoding {
                    out.push_str(", ");
                    self.attr(out, *e);
                }
                out.push('>');
            }
            TypeData::UnrankedTensor { element } => {
                out.push_str("tensor<*x");
                self.ty(out, *element);
                out.push('>');
            }
            TypeData::Tuple(elems) => {
                out.push_str("tuple<");
                self.type_list(out, elems);
                out.push('>');
            }
            TypeData::Complex(e) => {
                out.push_str("complex<");
                self.ty(out, *e);
                out.push('>');
            }
            TypeData::Dialect { dialect, body } => {
                out.push('!');
                out.push_str(self.ctx.ident_str(*dialect));
                out.push_str(body);
            }
        }
    }

    /// Writes `a, b, c`.
    pub(crate) fn type_list(&self, out: &mut String, tys: &[Type]) {
        for (i, t) in tys.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.ty(out, *t);
        }
    }

    /// Writes the results of a function type: `i32`, `()`, `(i32, f32)`.
    pub(crate) fn result_types(&self, out: &mut String, results: &[Type]) {
        if results.len() == 1 && !matches!(self.ctx.type_data(results[0]), TypeData::Function { .. }) {
            self.ty(out, results[0]);
        } else {
            out.push('(');
            self.type_list(out, results);
            out.push(')');
        }
    }

    fn memory_space(&self, out: &mut String, a: Attribute) {
        match self.ctx.attr_data(a) {
            AttrData::Integer { value, ty } if *ty == self.ctx.common().i64 => {
                super::push_int(out, *value);
            }
            _ => self.attr(out, a),
        }
    }

    /// Writes an attribute.
    pub(crate) fn attr(&self, out: &mut String, a: Attribute) {
        if self.aliases.is_some_and(|al| al.write_alias(self.ctx, out, a)) {
            return;
        }
        self.attr_no_alias(out, a);
    }

    /// Writes an attribute without substituting an alias at the top level.
    pub(crate) fn attr_no_alias(&self, out: &mut String, a: Attribute) {
        let ctx = self.ctx;
        match ctx.attr_data(a) {
            AttrData::Unit => out.push_str("unit"),
            AttrData::Integer { value, ty } => {
                if *ty == ctx.common().i1 {
                    out.push_str(if *value != 0 { "true" } else { "false" });
                } else {
                    self.int_value(out, *value, *ty);
                    out.push_str(" : ");
                    self.ty(out, *ty);
                }
            }
            AttrData::Float { bits, ty } => {
                out.push_str(&format_float(float_kind(ctx, *ty), *bits));
                out.push_str(" : ");
                self.ty(out, *ty);
            }
            AttrData::String { value, ty } => {
                write_escaped(out, value);
                if let Some(t) = ty {
                    out.push_str(" : ");
                    self.ty(out, *t);
                }
            }
            AttrData::Array(elems) => {
                out.push('[');
                for (i, e) in elems.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.attr_elide_default_type(out, *e);
                }
                out.push(']');
            }
            AttrData::Dictionary(entries) => {
                out.push('{');
                self.dict_entries(out, entries, &[]);
                out.push('}');
            }
            AttrData::DenseArray { element, values } => {
                out.push_str("array<");
                self.ty(out, *element);
                let n = match values {
                    DenseValues::Int(v) => v.len(),
                    DenseValues::Float(v) => v.len(),
                };
                if n > 0 {
                    out.push_str(": ");
                    self.dense_scalars(out, values, *element, 0, n);
                }
                out.push('>');
            }
            AttrData::DenseElements { ty, values } => {
                out.push_str("dense<");
                let elem = ctx.type_data(*ty).element_type().unwrap_or(ctx.common().i64);
                let shape = ctx.type_data(*ty).shape().unwrap_or(&[]).to_vec();
                let n = match values {
                    DenseValues::Int(v) => v.len(),
                    DenseValues::Float(v) => v.len(),
                };
                // A single stored value is a splat (also of one element, as MLIR prints it).
                if n == 1 {
                    self.dense_scalars(out, values, elem, 0, 1);
                } else if n == 0 || shape.contains(&0) {
                } else {
                    self.dense_nested(out, values, elem, &shape, 0);
                }
                out.push_str("> : ");
                self.ty(out, *ty);
            }
            AttrData::Type(t) => self.ty(out, *t),
            AttrData::SymbolRef { root, nested } => {
                self.symbol(out, ctx.ident_str(*root));
                for n in nested.iter() {
                    out.push_str("::");
                    self.symbol(out, ctx.ident_str(*n));
                }
            }
            AttrData::AffineMap(m) => {
                let _ = write!(out, "affine_map<{m}>");
            }
            AttrData::IntegerSet(s) => {
                let _ = write!(out, "affine_set<{s}>");
            }
            AttrData::Strided { strides, offset } => {
                out.push_str("strided<[");
                for (i, s) in strides.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    dyn_int(out, *s);
                }
                out.push(']');
                if *offset != 0 {
                    out.push_str(", offset: ");
                    dyn_int(out, *offset);
                }
                out.push('>');
            }
            AttrData::Location(_) => {
                out.push_str("loc(");
                self.location_body(out, a);
                out.push(')');
            }
            AttrData::Dialect { dialect, body } => {
                out.push('#');
                out.push_str(ctx.ident_str(*dialect));
                out.push_str(body);
            }
        }
    }

    /// Writes an attribute, leaving out the type of `i64` integers and `f64`
    /// floats (as MLIR does for array elements).
    pub(crate) fn attr_elide_default_type(&self, out: &mut String, a: Attribute) {
        let c = self.ctx.common();
        match self.ctx.attr_data(a) {
            AttrData::Integer { value, ty } if *ty == c.i64 => {
                super::push_int(out, *value);
            }
            // As MLIR, the type stays after a value printed in hex (it would read back as an integer).
            AttrData::Float { bits, ty } if *ty == c.f64 => {
                let text = format_float(FloatKind::F64, *bits);
                out.push_str(&text);
                if text.starts_with("0x") {
                    out.push_str(" : f64");
                }
            }
            _ => self.attr(out, a),
        }
    }

    /// Writes `name = value, ...` entries, skipping names in `elide`.
    pub(crate) fn dict_entries(&self, out: &mut String, entries: &[(crate::Ident, Attribute)], elide: &[&str]) {
        let mut first = true;
        for (name, value) in entries {
            let n = self.ctx.ident_str(*name);
            if elide.contains(&n) {
                continue;
            }
            if !first {
                out.push_str(", ");
            }
            first = false;
            if is_bare_ident(n) {
                out.push_str(n);
            } else {
                write_escaped(out, n);
            }
            if *value != self.ctx.common().unit {
                out.push_str(" = ");
                self.attr(out, *value);
            }
        }
    }

    fn symbol(&self, out: &mut String, s: &str) {
        out.push('@');
        if is_bare_ident(s) {
            out.push_str(s);
        } else {
            write_escaped(out, s);
        }
    }

    fn int_value(&self, out: &mut String, value: i128, ty: Type) {
        match self.ctx.type_data(ty) {
            TypeData::Integer {
                width,
                signedness: Signedness::Unsigned,
            } => {
                let v = if *width >= 128 {
                    value as u128
                } else {
                    (value as u128) & ((1u128 << width) - 1)
                };
                super::push_int(out, v);
            }
            _ => {
                super::push_int(out, value);
            }
        }
    }

    fn dense_scalars(&self, out: &mut String, values: &DenseValues, elem: Type, start: usize, n: usize) {
        for i in start..start + n {
            if i > start {
                out.push_str(", ");
            }
            self.dense_scalar(out, values, elem, i);
        }
    }

    fn dense_scalar(&self, out: &mut String, values: &DenseValues, elem: Type, i: usize) {
        match values {
            DenseValues::Int(v) => {
                if elem == self.ctx.common().i1 {
                    out.push_str(if v[i] != 0 { "true" } else { "false" });
                } else {
                    self.int_value(out, v[i], elem);
                }
            }
            DenseValues::Float(v) => out.push_str(&format_float(float_kind(self.ctx, elem), v[i])),
        }
    }

    fn dense_nested(&self, out: &mut String, values: &DenseValues, elem: Type, shape: &[i64], offset: usize) {
        out.push('[');
        let inner: usize = shape[1..].iter().product::<i64>() as usize;
        for i in 0..shape[0] as usize {
            if i > 0 {
                out.push_str(", ");
            }
            if shape.len() == 1 {
                self.dense_scalar(out, values, elem, offset + i);
            } else {
                self.dense_nested(out, values, elem, &shape[1..], offset + i * inner);
            }
        }
        out.push(']');
    }

    /// Writes a location nested in another: its alias if it has one.
    fn nested_location(&self, out: &mut String, a: Attribute) {
        if !self.aliases.is_some_and(|al| al.write_alias(self.ctx, out, a)) {
            self.location_body(out, a);
        }
    }

    /// Writes the inside of `loc(...)`.
    pub(crate) fn location_body(&self, out: &mut String, a: Attribute) {
        let ctx = self.ctx;
        match ctx.attr_data(a) {
            AttrData::Location(LocationData::Unknown) => out.push_str("unknown"),
            AttrData::Location(LocationData::FileLineCol { file, line, col }) => {
                write_escaped(out, ctx.ident_str(*file));
                let _ = write!(out, ":{line}:{col}");
            }
            AttrData::Location(LocationData::Name { name, child }) => {
                write_escaped(out, ctx.ident_str(*name));
                if let Some(c) = child {
                    out.push('(');
                    self.nested_location(out, *c);
                    out.push(')');
                }
            }
            AttrData::Location(LocationData::CallSite { callee, caller }) => {
                out.push_str("callsite(");
                self.nested_location(out, *callee);
                out.push_str(" at ");
                self.nested_location(out, *caller);
                out.push(')');
            }
            AttrData::Location(LocationData::Fused { metadata, locations }) => {
                out.push_str("fused");
                if let Some(m) = metadata {
                    out.push('<');
                    self.attr(out, *m);
                    out.push('>');
                }
                out.push('[');
                for (i, l) in locations.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.nested_location(out, *l);
                }
                out.push(']');
            }
            _ => self.attr(out, a),
        }
    }
}

fn dyn_int(out: &mut String, v: i64) {
    if v == DYNAMIC {
        out.push('?');
    } else {
        super::push_int(out, v);
    }
}

fn float_kind(ctx: &Context, ty: Type) -> FloatKind {
    match ctx.type_data(ty) {
        TypeData::Float(k) => *k,
        _ => FloatKind::F64,
    }
}
