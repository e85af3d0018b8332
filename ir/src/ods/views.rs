//! The generator of typed op views: from a dialect's op declarations, the
//! Rust source of one view type per op (`affine.for` gives `AffineForOp`)
//! and of the enums and flag sets its attributes decode to.
//!
//! For each op the source has:
//!
//! - the view type, an [`OpId`](crate::OpId) wrapper implementing
//!   [`OpView`](crate::view::OpView) (`cast`, `isa`, `op`, `def`);
//! - a getter per operand group (`Value`, `Option<Value>` or a
//!   [`ValueList`](crate::view::ValueList) by arity) and a setter that keeps
//!   `operandSegmentSizes` right;
//! - a getter per result group;
//! - a getter and a setter per inherent attribute, decoded by its
//!   constraint's [`AttrKind`]: `&AffineMap`, `i64`, `bool`, `&str`, an enum;
//! - a getter per region (its [`RegionId`](crate::RegionId)) and, for
//!   single-block regions, its block;
//! - a builder that creates the op at a [`Builder`](crate::builder::Builder)'s
//!   insertion point from its operands, the result types the declaration
//!   cannot derive (see [`access::inferable_result`](super::access::inferable_result))
//!   and its required attributes: `build` for ops without regions,
//!   `build_empty` (regions without blocks) for the others, whose dialects
//!   write a `build` that fills the body.
//!
//! Everything a view reads or writes goes through [`super::access`] with
//! the group's index or the attribute's [`AttrDef`](super::AttrDef) in the
//! declaration, so names are spelled only in the declaration, and a
//! misspelled getter does not compile. The generated file is checked in;
//! lf-dialects' `generated_views` test fails when it is stale
//! (`LF_UPDATE_VIEWS=1 cargo test -p lf-dialects --test generated_views`
//! writes it). An out-of-tree dialect can generate views for its own ops
//! with [`generate`].

use super::enums::{rust_type_name, DialectEnum, FlagsAttr, IntEnum};
use super::{access, Arity, AttrDef, AttrKind, IntWidth};
use crate::OpDef;
use std::fmt::Write;

/// An enum declared by a dialect, to generate a Rust type for.
#[derive(Copy, Clone, Debug)]
pub enum EnumDecl {
    /// An [`IntEnum`] (`arith::CmpIPredicate`).
    Int(&'static IntEnum),
    /// A [`FlagsAttr`] (`arith::FastMathFlags`).
    Flags(&'static FlagsAttr),
    /// A [`DialectEnum`] (`gpu::Dimension`).
    Dialect(&'static DialectEnum),
}

impl EnumDecl {
    /// MLIR's name of the enum (`arith::CmpIPredicate`).
    pub fn mlir_name(self) -> &'static str {
        match self {
            EnumDecl::Int(e) => e.name,
            EnumDecl::Flags(f) => f.name,
            EnumDecl::Dialect(d) => d.name,
        }
    }
}

/// What [`generate`] makes views for.
pub struct ViewSource<'a> {
    /// The dialect's namespace (`affine`).
    pub dialect: &'a str,
    /// Its ops, in the order of the slice named by `ops_path`.
    pub ops: &'a [&'static OpDef],
    /// The Rust path of that slice (`&[&OpDef]`) from the generated module
    /// (`super::OPS`).
    pub ops_path: &'a str,
    /// The enums the dialect declares, each with the Rust path of its
    /// `static` from the generated module (`super::CMPI_PREDICATE`).
    pub enums: &'a [(&'a str, EnumDecl)],
    /// The Rust path of the generated type of an enum declared by another
    /// dialect, from its MLIR name (`arith::FastMathFlags` gives
    /// `crate::arith::FastMathFlags`).
    pub foreign_enum: &'a dyn Fn(&str) -> String,
    /// The path of the crate `lf-ir` from the generated module (`lf_ir`,
    /// or `crate` inside lf-ir itself).
    pub ir_crate: &'a str,
}

/// The Rust source of the views of `src` (see the module docs).
pub fn generate(src: &ViewSource<'_>) -> String {
    let mut g = Gen {
        src,
        out: String::new(),
    };
    g.header();
    for (path, e) in src.enums {
        match e {
            EnumDecl::Int(e) => g.int_enum(path, e),
            EnumDecl::Flags(f) => g.flags(path, f),
            EnumDecl::Dialect(d) => g.dialect_enum(path, d),
        }
    }
    for (i, def) in src.ops.iter().enumerate() {
        g.op(i, def);
    }
    g.out
}

/// The view type name of an op (`affine.for` gives `AffineForOp`,
/// `gpu.launch_func` gives `GpuLaunchFuncOp`).
pub fn view_type_name(op_name: &str) -> String {
    let mut s = camel(&op_name.replace('.', "_"));
    s.push_str("Op");
    s
}

/// `lower_bound_map` from `lowerBoundMap`, `sym_name` from `sym_name`.
pub fn snake(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    out
}

/// `LaunchFunc` from `launch_func`, `Addi` from `addi`.
fn camel(name: &str) -> String {
    name.split(['_', '.'])
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super",
    "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box",
    "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Method names a view has already (the [`OpView`](crate::view::OpView) trait's).
const TAKEN: &[&str] = &[
    "op",
    "def",
    "isa",
    "cast",
    "from_op_unchecked",
    "defining",
    "parent_of",
    "build",
    "build_empty",
];

/// Names the generated code uses for its own locals and parameters.
const LOCALS: &[&str] = &["b", "ctx", "st", "ty", "v", "value", "values", "on", "ir", "a"];

fn ident(name: &str) -> String {
    let s = snake(name);
    if KEYWORDS.contains(&s.as_str()) {
        format!("{s}_")
    } else {
        s
    }
}

/// A parameter name for a group or attribute named `name` (not one of the
/// generated code's locals).
fn param(name: &str) -> String {
    let s = ident(name);
    if LOCALS.contains(&s.as_str()) {
        format!("{s}_")
    } else {
        s
    }
}

/// A case keyword as a Rust variant name (`slt` gives `Slt`).
fn variant(kw: &str) -> String {
    let c = camel(kw);
    if c.chars().next().is_some_and(|ch| ch.is_ascii_digit()) {
        format!("V{c}")
    } else {
        c
    }
}

/// A flag keyword as a constant name (`nnan` gives `NNAN`).
fn constant_name(kw: &str) -> String {
    kw.to_ascii_uppercase()
}

/// How an attribute of `kind` reads and writes in Rust.
struct AttrRust {
    /// Getter return type (for a present value).
    get_ty: String,
    /// Setter parameter type.
    set_ty: String,
    /// Decodes `a` (an `Attribute`) with `ctx` in scope.
    decode: String,
    /// Encodes `v` (the setter parameter) with `ctx` in scope.
    encode: String,
}

struct Gen<'a, 'b> {
    src: &'a ViewSource<'b>,
    out: String,
}

impl Gen<'_, '_> {
    fn w(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn header(&mut self) {
        let ir = self.src.ir_crate;
        let d = self.src.dialect;
        self.w(&format!(
            "//! Typed views of the `{d}` ops, generated from their declarations by\n\
             //! `lf_ir::ods::views`: do not edit. Regenerate with\n\
             //! `LF_UPDATE_VIEWS=1 cargo test -p lf-dialects --test generated_views`."
        ));
        self.w("");
        self.w("#![allow(unused_imports)]");
        self.w("");
        self.w(&format!("use {ir}::affine::{{AffineMap, IntegerSet}};"));
        self.w(&format!("use {ir}::builder::Builder;"));
        self.w(&format!("use {ir}::ods::access;"));
        self.w(&format!("use {ir}::ods::IntWidth;"));
        self.w(&format!("use {ir}::view::{{Ir, OpView, ValueList}};"));
        self.w(&format!(
            "use {ir}::{{Attribute, BlockId, Context, OpDef, OpId, RegionId, Type, Value}};"
        ));
        self.w(&format!("use {ir}::ods::AttrDef;"));
    }

    fn enum_path(&self, mlir_name: &str) -> String {
        let own = mlir_name.split("::").next() == Some(self.src.dialect);
        if own {
            rust_type_name(mlir_name).to_string()
        } else {
            (self.src.foreign_enum)(mlir_name)
        }
    }

    fn int_enum(&mut self, path: &str, e: &IntEnum) {
        let name = rust_type_name(e.name);
        self.w("");
        self.w(&format!("/// The cases of `{}` (declared by [`{path}`]).", e.name));
        self.w("#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]");
        self.w(&format!("pub enum {name} {{"));
        for (kw, v) in e.cases {
            self.w(&format!("    /// `{kw}` ({v})."));
            self.w(&format!("    {},", variant(kw)));
        }
        self.w("}");
        self.w("");
        self.w(&format!("impl {name} {{"));
        self.w("    /// Every case, in declaration order.");
        self.w(&format!("    pub const ALL: [{name}; {}] = [", e.cases.len()));
        for (kw, _) in e.cases {
            self.w(&format!("        {name}::{},", variant(kw)));
        }
        self.w("    ];");
        self.w("");
        self.w("    /// The value the attribute stores.");
        self.w("    pub fn value(self) -> i64 {");
        self.w("        match self {");
        for (kw, v) in e.cases {
            self.w(&format!("            {name}::{} => {v},", variant(kw)));
        }
        self.w("        }");
        self.w("    }");
        self.w("");
        self.w("    /// The case storing `value`.");
        self.w("    pub fn from_value(value: i64) -> Option<Self> {");
        self.w("        Self::ALL.into_iter().find(|c| c.value() == value)");
        self.w("    }");
        self.w("");
        self.w("    /// The keyword of the case in the custom syntax.");
        self.w("    pub fn keyword(self) -> &'static str {");
        self.w("        match self {");
        for (kw, _) in e.cases {
            self.w(&format!("            {name}::{} => \"{kw}\",", variant(kw)));
        }
        self.w("        }");
        self.w("    }");
        self.w("");
        self.w("    /// The attribute holding the case.");
        self.w("    pub fn attr(self, ctx: &Context) -> Attribute {");
        self.w(&format!("        {path}.attr(ctx, self.value())"));
        self.w("    }");
        self.w("");
        self.w("    /// The case an attribute holds.");
        self.w("    pub fn from_attr(ctx: &Context, a: Attribute) -> Option<Self> {");
        self.w(&format!("        {path}.decode(ctx, a).and_then(Self::from_value)"));
        self.w("    }");
        self.w("}");
    }

    fn flags(&mut self, path: &str, f: &FlagsAttr) {
        let name = rust_type_name(f.name);
        self.w("");
        self.w(&format!(
            "/// A set of `{}` flags (`#{}.{}<...>`, declared by [`{path}`]).",
            f.name, f.dialect, f.mnemonic
        ));
        self.w("#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]");
        self.w(&format!("pub struct {name}(pub u32);"));
        self.w("");
        self.w(&format!("impl {name} {{"));
        self.w("    /// No flag (`none`).");
        self.w(&format!("    pub const NONE: {name} = {name}(0);"));
        for (i, kw) in f.flags.iter().enumerate() {
            self.w(&format!("    /// `{kw}`."));
            self.w(&format!(
                "    pub const {}: {name} = {name}(1 << {i});",
                constant_name(kw)
            ));
        }
        for (kw, bits) in f.groups {
            self.w(&format!("    /// `{kw}`: several flags at once."));
            self.w(&format!(
                "    pub const {}: {name} = {name}({bits:#x});",
                constant_name(kw)
            ));
        }
        self.w("");
        self.w("    /// Whether every flag of `other` is set.");
        self.w("    pub fn contains(self, other: Self) -> bool {");
        self.w("        self.0 & other.0 == other.0");
        self.w("    }");
        self.w("");
        self.w("    /// The attribute holding the flags.");
        self.w("    pub fn attr(self, ctx: &Context) -> Attribute {");
        self.w(&format!("        {path}.attr(ctx, self.0)"));
        self.w("    }");
        self.w("");
        self.w("    /// The flags an attribute holds.");
        self.w("    pub fn from_attr(ctx: &Context, a: Attribute) -> Option<Self> {");
        self.w(&format!("        {path}.bits(ctx, a).map({name})"));
        self.w("    }");
        self.w("}");
        self.w("");
        self.w(&format!("impl std::ops::BitOr for {name} {{"));
        self.w("    type Output = Self;");
        self.w("    fn bitor(self, other: Self) -> Self {");
        self.w(&format!("        {name}(self.0 | other.0)"));
        self.w("    }");
        self.w("}");
    }

    fn dialect_enum(&mut self, path: &str, d: &DialectEnum) {
        let name = rust_type_name(d.name);
        self.w("");
        self.w(&format!(
            "/// The cases of `{}` (`#{}{}...{}`, declared by [`{path}`]).",
            d.name, d.dialect, d.prefix, d.suffix
        ));
        self.w("#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]");
        self.w(&format!("pub enum {name} {{"));
        for kw in d.cases {
            self.w(&format!("    /// `{kw}`."));
            self.w(&format!("    {},", variant(kw)));
        }
        self.w("}");
        self.w("");
        self.w(&format!("impl {name} {{"));
        self.w("    /// Every case, in declaration order.");
        self.w(&format!("    pub const ALL: [{name}; {}] = [", d.cases.len()));
        for kw in d.cases {
            self.w(&format!("        {name}::{},", variant(kw)));
        }
        self.w("    ];");
        self.w("");
        self.w("    /// The case's position in the declaration.");
        self.w("    pub fn index(self) -> usize {");
        self.w("        self as usize");
        self.w("    }");
        self.w("");
        self.w("    /// The keyword of the case.");
        self.w("    pub fn keyword(self) -> &'static str {");
        self.w(&format!("        {path}.cases[self as usize]"));
        self.w("    }");
        self.w("");
        self.w("    /// The attribute holding the case.");
        self.w("    pub fn attr(self, ctx: &Context) -> Attribute {");
        self.w(&format!("        {path}.attr(ctx, self as usize)"));
        self.w("    }");
        self.w("");
        self.w("    /// The case an attribute holds.");
        self.w("    pub fn from_attr(ctx: &Context, a: Attribute) -> Option<Self> {");
        self.w(&format!("        {path}.decode(ctx, a).map(|i| Self::ALL[i])"));
        self.w("    }");
        self.w("}");
    }

    fn attr_rust(&self, kind: AttrKind) -> AttrRust {
        let r = |get: &str, set: &str, dec: &str, enc: &str| AttrRust {
            get_ty: get.into(),
            set_ty: set.into(),
            decode: dec.into(),
            encode: enc.into(),
        };
        let width = |w: IntWidth| match w {
            IntWidth::I32 => "IntWidth::I32",
            IntWidth::I64 => "IntWidth::I64",
            IntWidth::Index => "IntWidth::Index",
        };
        match kind {
            AttrKind::Any => r("Attribute", "Attribute", "a", "v"),
            AttrKind::AffineMap => r(
                "&'c AffineMap",
                "AffineMap",
                "access::as_affine_map(ctx, a)",
                "access::affine_map_attr(ctx, v)",
            ),
            AttrKind::IntegerSet => r(
                "&'c IntegerSet",
                "IntegerSet",
                "access::as_integer_set(ctx, a)",
                "access::integer_set_attr(ctx, v)",
            ),
            AttrKind::Int(w) => AttrRust {
                get_ty: "i64".into(),
                set_ty: "i64".into(),
                decode: "access::as_int(ctx, a)".into(),
                encode: format!("access::int_attr(ctx, {}, v)", width(w)),
            },
            AttrKind::Bool => r("bool", "bool", "access::as_bool(ctx, a)", "access::bool_attr(ctx, v)"),
            AttrKind::Unit => r("bool", "bool", "true", "access::unit_attr(ctx)"),
            AttrKind::Str => r("&'c str", "&str", "access::as_str(ctx, a)", "access::str_attr(ctx, v)"),
            AttrKind::FlatSymbolRef => r(
                "&'c str",
                "&str",
                "access::as_symbol(ctx, a)",
                "access::symbol_attr(ctx, v)",
            ),
            AttrKind::Type => r("Type", "Type", "access::as_type(ctx, a)", "access::type_attr(ctx, v)"),
            AttrKind::DenseIntArray(w) => AttrRust {
                get_ty: "Vec<i64>".into(),
                set_ty: "&[i64]".into(),
                decode: "access::as_int_array(ctx, a)".into(),
                encode: format!("access::int_array_attr(ctx, {}, v)", width(w)),
            },
            AttrKind::IntEnum(e) => self.enum_rust(e.name),
            AttrKind::Flags(f) => self.enum_rust(f.name),
            AttrKind::DialectEnum(d) => self.enum_rust(d.name),
        }
    }

    fn enum_rust(&self, mlir_name: &str) -> AttrRust {
        let t = self.enum_path(mlir_name);
        AttrRust {
            get_ty: t.clone(),
            set_ty: t.clone(),
            decode: format!("{t}::from_attr(ctx, a).expect(\"a case of {mlir_name}\")"),
            encode: "v.attr(ctx)".into(),
        }
    }

    fn op(&mut self, index: usize, def: &'static OpDef) {
        let ty = view_type_name(def.name);
        let ops = self.src.ops_path;
        // Method names, made unique across groups, attributes and regions.
        let mut used: Vec<String> = TAKEN.iter().map(|s| s.to_string()).collect();
        let mut unique = |base: String, kind: &str| -> String {
            let mut n = base;
            if used.contains(&n) {
                n = format!("{n}_{kind}");
            }
            used.push(n.clone());
            n
        };
        let operand_names: Vec<String> = def.operands.iter().map(|g| unique(ident(g.name), "operand")).collect();
        let result_names: Vec<String> = def.results.iter().map(|g| unique(ident(g.name), "result")).collect();
        let attr_names: Vec<String> = def.attributes.iter().map(|a| unique(ident(a.name), "attr")).collect();
        let region_names: Vec<String> = def.regions.iter().map(|r| unique(ident(r.name), "region")).collect();

        self.w("");
        let summary = if def.summary.is_empty() { "" } else { def.summary };
        self.w(&format!(
            "/// A view of an `{}` op: {}.",
            def.name,
            summary.trim_end_matches('.')
        ));
        self.w("#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]");
        self.w(&format!("pub struct {ty}(OpId);"));
        self.w("");
        self.w(&format!("impl OpView for {ty} {{"));
        self.w("    #[inline]");
        self.w("    fn def() -> &'static OpDef {");
        self.w(&format!("        {ops}[{index}]"));
        self.w("    }");
        self.w("    #[inline]");
        self.w("    fn from_op_unchecked(op: OpId) -> Self {");
        self.w(&format!("        {ty}(op)"));
        self.w("    }");
        self.w("    #[inline]");
        self.w("    fn op(self) -> OpId {");
        self.w("        self.0");
        self.w("    }");
        self.w("}");
        self.w("");
        self.w(&format!("impl {ty} {{"));
        for (i, g) in def.operands.iter().enumerate() {
            self.operand_accessors(i, g, &operand_names[i]);
        }
        for (i, g) in def.results.iter().enumerate() {
            let n = &result_names[i];
            match g.arity {
                Arity::Single => {
                    self.w(&format!("    /// Result `{}`.", g.name));
                    self.w(&format!("    pub fn {n}<'c>(self, ir: &impl Ir<'c>) -> Value {{"));
                    self.w(&format!(
                        "        access::result(ir.ctx(), ir.body(), self.0, Self::def(), {i})"
                    ));
                }
                Arity::Optional => {
                    self.w(&format!("    /// Result `{}`, if present.", g.name));
                    self.w(&format!(
                        "    pub fn {n}<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {{"
                    ));
                    self.w(&format!(
                        "        access::optional_result(ir.ctx(), ir.body(), self.0, Self::def(), {i})"
                    ));
                }
                Arity::Variadic => {
                    self.w(&format!("    /// Results `{}`.", g.name));
                    self.w(&format!("    pub fn {n}<'c>(self, ir: &impl Ir<'c>) -> ValueList {{"));
                    self.w(&format!(
                        "        access::results(ir.ctx(), ir.body(), self.0, Self::def(), {i})"
                    ));
                }
            }
            self.w("    }");
        }
        for (i, a) in def.attributes.iter().enumerate() {
            self.attr_accessors(i, a, &attr_names[i]);
        }
        for (i, r) in def.regions.iter().enumerate() {
            let n = &region_names[i];
            self.w(&format!(
                "    /// Region `{}` (held by `ir.body().regions_body(op)`).",
                r.name
            ));
            self.w(&format!("    pub fn {n}<'c>(self, ir: &impl Ir<'c>) -> RegionId {{"));
            self.w(&format!("        ir.body().region(self.0, {i})"));
            self.w("    }");
            if r.single_block {
                if r.may_be_empty {
                    self.w(&format!("    /// The block of region `{}`, if it has one.", r.name));
                    self.w(&format!(
                        "    pub fn {}_block<'c>(self, ir: &impl Ir<'c>) -> Option<BlockId> {{",
                        n.trim_end_matches('_')
                    ));
                    self.w("        let b = ir.body();");
                    self.w(&format!(
                        "        b.regions_body(self.0).entry_block(b.region(self.0, {i}))"
                    ));
                } else {
                    self.w(&format!("    /// The block of region `{}`.", r.name));
                    self.w(&format!(
                        "    pub fn {}_block<'c>(self, ir: &impl Ir<'c>) -> BlockId {{",
                        n.trim_end_matches('_')
                    ));
                    self.w("        let b = ir.body();");
                    self.w(&format!(
                        "        b.regions_body(self.0).entry_block(b.region(self.0, {i})).expect(\"a block\")"
                    ));
                }
                self.w("    }");
            }
        }
        self.builder(def, &operand_names);
        self.w("}");
    }

    fn operand_accessors(&mut self, i: usize, g: &super::ArgDef, n: &str) {
        match g.arity {
            Arity::Single => {
                self.w(&format!("    /// Operand `{}`.", g.name));
                self.w(&format!("    pub fn {n}<'c>(self, ir: &impl Ir<'c>) -> Value {{"));
                self.w(&format!(
                    "        access::operand(ir.ctx(), ir.body(), self.0, Self::def(), {i})"
                ));
                self.w("    }");
                self.w(&format!("    /// Sets operand `{}`.", g.name));
                self.w(&format!(
                    "    pub fn set_{}(self, b: &mut Builder<'_>, value: Value) {{",
                    n.trim_end_matches('_')
                ));
                self.w(&format!(
                    "        b.modify_in_place(self.0, |ctx, body| access::set_operand_in_group(ctx, body, self.0, Self::def(), {i}, 0, value));"
                ));
                self.w("    }");
            }
            Arity::Optional => {
                self.w(&format!("    /// Operand `{}`, if present.", g.name));
                self.w(&format!(
                    "    pub fn {n}<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {{"
                ));
                self.w(&format!(
                    "        access::optional_operand(ir.ctx(), ir.body(), self.0, Self::def(), {i})"
                ));
                self.w("    }");
                self.w(&format!("    /// Sets or removes operand `{}`.", g.name));
                self.w(&format!(
                    "    pub fn set_{}(self, b: &mut Builder<'_>, value: Option<Value>) {{",
                    n.trim_end_matches('_')
                ));
                self.w("        let values: ValueList = value.into_iter().collect();");
                self.w(&format!(
                    "        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), {i}, &values));"
                ));
                self.w("    }");
            }
            Arity::Variadic => {
                self.w(&format!("    /// Operands `{}`.", g.name));
                self.w(&format!("    pub fn {n}<'c>(self, ir: &impl Ir<'c>) -> ValueList {{"));
                self.w(&format!(
                    "        access::operands(ir.ctx(), ir.body(), self.0, Self::def(), {i})"
                ));
                self.w("    }");
                self.w(&format!("    /// Replaces operands `{}`.", g.name));
                self.w(&format!(
                    "    pub fn set_{}(self, b: &mut Builder<'_>, values: &[Value]) {{",
                    n.trim_end_matches('_')
                ));
                self.w(&format!(
                    "        b.modify_in_place(self.0, |ctx, body| access::set_operands(ctx, body, self.0, Self::def(), {i}, values));"
                ));
                self.w("    }");
            }
        }
    }

    fn attr_accessors(&mut self, i: usize, a: &AttrDef, n: &str) {
        let rust = self.attr_rust(a.constraint.kind);
        // Names derived from `n` (`type_` gives `type_attr`, `set_type`).
        let base = n.trim_end_matches('_');
        let lt = "<'c>";
        let attr = format!("&Self::def().attributes[{i}]");
        if matches!(a.constraint.kind, AttrKind::Unit) {
            self.w(&format!("    /// The declaration of attribute `{}`.", a.name));
            self.w(&format!("    pub fn {base}_attr_def() -> &'static AttrDef {{"));
            self.w(&format!("        {attr}"));
            self.w("    }");
            self.w(&format!("    /// Whether the `{}` flag is set.", a.name));
            self.w(&format!("    pub fn {n}{lt}(self, ir: &impl Ir<'c>) -> bool {{"));
            self.w(&format!(
                "        access::property(ir.ctx(), ir.body(), self.0, {attr}).is_some()"
            ));
            self.w("    }");
            self.w(&format!("    /// Sets or clears the `{}` flag.", a.name));
            self.w(&format!(
                "    pub fn set_{base}(self, b: &mut Builder<'_>, on: bool) {{"
            ));
            self.w("        let ctx = b.ctx();");
            self.w("        let value = on.then(|| access::unit_attr(ctx));");
            self.w(&format!(
                "        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, {attr}, value));"
            ));
            self.w("    }");
            return;
        }
        let present = !a.optional || a.default.is_some();
        self.w(&format!("    /// The declaration of attribute `{}`.", a.name));
        self.w(&format!("    pub fn {base}_attr_def() -> &'static AttrDef {{"));
        self.w(&format!("        {attr}"));
        self.w("    }");
        if !matches!(a.constraint.kind, AttrKind::Any) {
            if present {
                self.w(&format!("    /// Attribute `{}`, undecoded.", a.name));
                self.w(&format!(
                    "    pub fn {base}_attr<'c>(self, ir: &impl Ir<'c>) -> Attribute {{"
                ));
                self.w(&format!(
                    "        access::required_property(ir.ctx(), ir.body(), self.0, Self::def(), {attr})"
                ));
            } else {
                self.w(&format!("    /// Attribute `{}`, undecoded, if set.", a.name));
                self.w(&format!(
                    "    pub fn {base}_attr<'c>(self, ir: &impl Ir<'c>) -> Option<Attribute> {{"
                ));
                self.w(&format!(
                    "        access::property(ir.ctx(), ir.body(), self.0, {attr})"
                ));
            }
            self.w("    }");
        }
        if present {
            self.w(&format!("    /// Attribute `{}`.", a.name));
            self.w(&format!(
                "    pub fn {n}{lt}(self, ir: &impl Ir<'c>) -> {} {{",
                rust.get_ty
            ));
            self.w("        let ctx = ir.ctx();");
            self.w(&format!(
                "        let a = access::required_property(ctx, ir.body(), self.0, Self::def(), {attr});"
            ));
            self.w(&format!("        {}", rust.decode));
        } else {
            self.w(&format!("    /// Attribute `{}`, if set.", a.name));
            self.w(&format!(
                "    pub fn {n}{lt}(self, ir: &impl Ir<'c>) -> Option<{}> {{",
                rust.get_ty
            ));
            self.w("        let ctx = ir.ctx();");
            let map = if rust.decode == "a" {
                String::new()
            } else {
                format!(".map(|a| {})", rust.decode)
            };
            self.w(&format!(
                "        access::property(ctx, ir.body(), self.0, {attr}){map}"
            ));
        }
        self.w("    }");
        if present {
            self.w(&format!("    /// Sets attribute `{}`.", a.name));
            self.w(&format!(
                "    pub fn set_{base}(self, b: &mut Builder<'_>, v: {}) {{",
                rust.set_ty
            ));
            if rust.encode.contains("ctx") {
                self.w("        let ctx = b.ctx();");
            }
            self.w(&format!("        let value = Some({});", rust.encode));
        } else {
            self.w(&format!("    /// Sets or removes attribute `{}`.", a.name));
            self.w(&format!(
                "    pub fn set_{base}(self, b: &mut Builder<'_>, v: Option<{}>) {{",
                rust.set_ty
            ));
            if rust.encode.contains("ctx") {
                self.w("        let ctx = b.ctx();");
            }
            if rust.encode == "v" {
                self.w("        let value = v;");
            } else {
                self.w(&format!("        let value = v.map(|v| {});", rust.encode));
            }
        }
        self.w(&format!(
            "        b.modify_in_place(self.0, |ctx, body| access::set_property(ctx, body, self.0, {attr}, value));"
        ));
        self.w("    }");
    }

    fn builder(&mut self, def: &'static OpDef, operand_names: &[String]) {
        let mut params: Vec<String> = Vec::new();
        let mut doc: Vec<String> = Vec::new();
        let mut body: Vec<String> = Vec::new();
        body.push("let mut st = b.op_state(Self::def());".into());
        for (i, g) in def.operands.iter().enumerate() {
            let n = &param(&operand_names[i]);
            match g.arity {
                Arity::Single => {
                    params.push(format!("{n}: Value"));
                    body.push(format!("st.operands(&[{n}]);"));
                }
                Arity::Optional => {
                    params.push(format!("{n}: Option<Value>"));
                    body.push(format!("st.operands({n}.as_slice());"));
                }
                Arity::Variadic => {
                    params.push(format!("{n}: &[Value]"));
                    body.push(format!("st.operands({n});"));
                }
            }
        }
        for (i, g) in def.results.iter().enumerate() {
            let n = format!("{}_ty", ident(g.name).trim_end_matches('_'));
            let _ = &operand_names;
            if access::inferable_result(def, i) {
                body.push(format!("let ty = st.inferred_result(b.ctx(), b.body(), {i});"));
                body.push("st.results(&[ty]);".into());
                doc.push(format!("the type of `{}` is derived", g.name));
                continue;
            }
            match g.arity {
                Arity::Single => {
                    params.push(format!("{n}: Type"));
                    body.push(format!("st.results(&[{n}]);"));
                }
                Arity::Optional => {
                    params.push(format!("{n}: Option<Type>"));
                    body.push(format!("st.results({n}.as_slice());"));
                }
                Arity::Variadic => {
                    params.push(format!("{n}: &[Type]"));
                    body.push(format!("st.results({n});"));
                }
            }
        }
        let mut need_ctx = false;
        for (i, a) in def.attributes.iter().enumerate() {
            if a.optional || a.default.is_some() {
                continue;
            }
            let rust = self.attr_rust(a.constraint.kind);
            let n = param(a.name);
            params.push(format!("{n}: {}", rust.set_ty));
            need_ctx |= rust.encode.contains("ctx");
            body.push(format!("let v = {n};"));
            body.push(format!("st.property(&Self::def().attributes[{i}], {});", rust.encode));
        }
        if !def.regions.is_empty() {
            body.push(format!("st.regions({});", def.regions.len()));
        }
        if body.len() == 1 {
            body[0] = "let st = b.op_state(Self::def());".into();
        }
        body.push("Self(st.create(b))".into());
        let name = if def.regions.is_empty() { "build" } else { "build_empty" };
        self.w(&format!(
            "    /// Creates an `{}` at the builder's insertion point and location{}{}.",
            def.name,
            if def.regions.is_empty() {
                ""
            } else {
                ", with regions that have no block yet"
            },
            if doc.is_empty() {
                String::new()
            } else {
                format!(" ({})", doc.join(", "))
            }
        ));
        if params.len() > 6 {
            self.w("    #[allow(clippy::too_many_arguments)]");
        }
        let sig = std::iter::once("b: &mut Builder<'_>".to_string())
            .chain(params)
            .collect::<Vec<_>>()
            .join(", ");
        self.w(&format!("    pub fn {name}({sig}) -> Self {{"));
        if need_ctx {
            self.w("        let ctx = b.ctx();");
        }
        for line in body {
            let _ = writeln!(self.out, "        {line}");
        }
        self.w("    }");
    }
}
