//! Enumerated attributes, declared once as data (MLIR's `EnumAttr`,
//! `BitEnumAttr` and dialect enum attributes):
//!
//! - [`IntEnum`]: cases stored as an integer attribute and written as a
//!   keyword in an op's custom form (`arith.cmpi`'s `slt`);
//! - [`FlagsAttr`]: a bit set kept as the dialect attribute
//!   `#<dialect>.<mnemonic><flags>` (`#arith.fastmath<nnan, ninf>`);
//! - [`DialectEnum`]: cases kept as a dialect attribute spelled
//!   `#<dialect><prefix><case><suffix>` (`#gpu<dim x>`,
//!   `#gpu.address_space<workgroup>`).
//!
//! Each declares the Rust type the generated op views decode it to
//! (`name`, MLIR's C++ name such as `arith::CmpIPredicate`): the view
//! generator ([`crate::ods::views`]) makes a Rust `enum` (or a flag set) of
//! the cases, so passes read and write these attributes as typed values.

use crate::attrs::AttrData;
use crate::parser::{CustomParser, ParseResult};
use crate::printer::CustomPrinter;
use crate::{Attribute, Context};

/// The cases of an integer enum attribute (stored as an integer of
/// `width` bits, written as a keyword in the custom form, like
/// `arith.cmpi`'s predicate).
#[derive(Debug)]
pub struct IntEnum {
    /// MLIR's name of the enum (`arith::CmpIPredicate`), for messages; the
    /// part after `::` names the generated Rust type.
    pub name: &'static str,
    /// Keyword and value of each case.
    pub cases: &'static [(&'static str, i64)],
    /// Bit width of the integer attribute that stores the case (64 or 32).
    pub width: u32,
}

impl IntEnum {
    /// The keyword of a value.
    pub fn keyword(&self, v: i64) -> Option<&'static str> {
        self.cases.iter().find(|c| c.1 == v).map(|c| c.0)
    }
    /// The value of a keyword.
    pub fn value(&self, kw: &str) -> Option<i64> {
        self.cases.iter().find(|c| c.0 == kw).map(|c| c.1)
    }
    /// The attribute storing case value `v`.
    pub fn attr(&self, ctx: &Context, v: i64) -> Attribute {
        ctx.integer_attr(v as i128, ctx.integer_type(self.width))
    }
    /// The case value an attribute stores, if it is one of the cases.
    pub fn decode(&self, ctx: &Context, a: Attribute) -> Option<i64> {
        match ctx.attr_data(a) {
            AttrData::Integer { value, ty } if *ty == ctx.integer_type(self.width) => {
                i64::try_from(*value).ok().filter(|v| self.keyword(*v).is_some())
            }
            _ => None,
        }
    }
    /// Whether an attribute is an integer of the enum's width holding one of the cases.
    pub fn check(&self, ctx: &Context, a: Attribute) -> bool {
        self.decode(ctx, a).is_some()
    }
    /// Parses a case keyword into its attribute.
    pub fn parse(&self, p: &mut CustomParser<'_, '_>) -> ParseResult<Attribute> {
        let kw = p.parse_bare_ident_with(|| {
            let list = self.cases.iter().map(|c| c.0).collect::<Vec<_>>().join(", ");
            format!("{} to be one of: {list}", self.name)
        })?;
        match self.value(kw) {
            Some(v) => Ok(self.attr(p.ctx(), v)),
            None => Err(p.error(format!("invalid {} value: {kw}", self.name))),
        }
    }
    /// Prints the keyword of an attribute.
    pub fn print(&self, p: &mut CustomPrinter<'_, '_>, a: Attribute) {
        let ctx = p.ctx();
        match ctx.attr_data(a) {
            AttrData::Integer { value, .. } => match i64::try_from(*value).ok().and_then(|v| self.keyword(v)) {
                Some(k) => p.write(k),
                None => p.attr(a),
            },
            _ => p.attr(a),
        }
    }
}

/// Declares an [`IntEnum`] with its attribute constraint.
#[macro_export]
macro_rules! int_enum {
    ($(#[$m:meta])* $name:ident, $constraint:ident, $mlir_name:expr, $summary:expr, $width:expr, [$(($kw:expr, $v:expr)),* $(,)?]) => {
        $(#[$m])*
        pub static $name: $crate::ods::enums::IntEnum = $crate::ods::enums::IntEnum {
            name: $mlir_name,
            cases: &[$(($kw, $v)),*],
            width: $width,
        };
        #[doc = concat!("The attribute constraint of [`", stringify!($name), "`].")]
        pub static $constraint: $crate::ods::AttrConstraint = $crate::ods::AttrConstraint {
            summary: $summary,
            check: |ctx, a| $name.check(ctx, a),
            parse: Some(|p| $name.parse(p)),
            print: Some(|p, a| $name.print(p, a)),
            is_unit: false,
            kind: $crate::ods::AttrKind::IntEnum(&$name),
        };
    };
}

/// A bit-flag attribute of a dialect, such as `#arith.fastmath<nnan, ninf>`,
/// kept as the dialect attribute `#<dialect>.<mnemonic><flags>`.
#[derive(Debug)]
pub struct FlagsAttr {
    /// MLIR's name of the flag set (`arith::FastMathFlags`); the part after
    /// `::` names the generated Rust type.
    pub name: &'static str,
    /// Dialect namespace.
    pub dialect: &'static str,
    /// Mnemonic (`fastmath`).
    pub mnemonic: &'static str,
    /// Flag keywords in canonical order (bit i is `flags[i]`).
    pub flags: &'static [&'static str],
    /// Keywords naming several flags at once (`fast`), with their bit sets.
    pub groups: &'static [(&'static str, u32)],
    /// What goes between flags when printing (`,` or `, `).
    pub separator: &'static str,
}

impl FlagsAttr {
    /// The attribute for a bit set.
    pub fn attr(&self, ctx: &Context, bits: u32) -> Attribute {
        let body = format!(".{}<{}>", self.mnemonic, self.spell(bits));
        ctx.get_attr(AttrData::Dialect {
            dialect: ctx.intern(self.dialect),
            body: body.into(),
        })
    }

    /// The canonical spelling of a bit set (`none`, `fast`, `nnan,ninf`).
    fn spell(&self, bits: u32) -> String {
        if bits == 0 {
            return "none".into();
        }
        if let Some((g, _)) = self.groups.iter().find(|(_, b)| *b == bits) {
            return (*g).into();
        }
        self.flags
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & (1 << i) != 0)
            .map(|(_, f)| *f)
            .collect::<Vec<_>>()
            .join(self.separator)
    }

    /// The bit set of an attribute of this kind.
    pub fn bits(&self, ctx: &Context, a: Attribute) -> Option<u32> {
        let AttrData::Dialect { dialect, body } = ctx.attr_data(a) else {
            return None;
        };
        if ctx.ident_str(*dialect) != self.dialect {
            return None;
        }
        let inner = body
            .strip_prefix('.')?
            .strip_prefix(self.mnemonic)?
            .strip_prefix('<')?
            .strip_suffix('>')?;
        self.parse_list(inner)
    }

    fn parse_list(&self, inner: &str) -> Option<u32> {
        let mut bits = 0;
        for w in inner.split(',').map(str::trim) {
            if w == "none" {
                continue;
            }
            if let Some((_, b)) = self.groups.iter().find(|(g, _)| *g == w) {
                bits |= b;
            } else {
                bits |= 1 << self.flags.iter().position(|f| *f == w)?;
            }
        }
        Some(bits)
    }

    /// Parses `<flag, ...>` (the form inside an op's custom syntax).
    pub fn parse(&self, p: &mut CustomParser<'_, '_>) -> ParseResult<Attribute> {
        p.parse_literal("<")?;
        let mut bits = 0;
        loop {
            let w = p.parse_bare_ident_with(|| format!("a {} flag", self.mnemonic))?;
            match self.parse_list(w) {
                Some(b) => bits |= b,
                None => return Err(p.error(format!("unknown {} flag '{w}'", self.mnemonic))),
            }
            if !p.parse_optional_literal(",") {
                break;
            }
        }
        p.parse_literal(">")?;
        Ok(self.attr(p.ctx(), bits))
    }

    /// Prints `<flag, ...>`.
    pub fn print(&self, p: &mut CustomPrinter<'_, '_>, a: Attribute) {
        match self.bits(p.ctx(), a) {
            Some(b) => {
                let s = format!("<{}>", self.spell(b));
                p.write(&s);
            }
            None => p.attr(a),
        }
    }
}

/// An enum kept as a dialect attribute spelled
/// `#<dialect><prefix><case><suffix>`: `#gpu<dim x>` (prefix `<dim `,
/// suffix `>`), `#gpu.address_space<workgroup>` (prefix `.address_space<`).
#[derive(Debug)]
pub struct DialectEnum {
    /// MLIR's name of the enum (`gpu::Dimension`); the part after `::`
    /// names the generated Rust type.
    pub name: &'static str,
    /// Dialect namespace.
    pub dialect: &'static str,
    /// What comes before the case keyword in the attribute's body.
    pub prefix: &'static str,
    /// What comes after it.
    pub suffix: &'static str,
    /// The case keywords; a case's value is its position.
    pub cases: &'static [&'static str],
}

impl DialectEnum {
    /// The attribute of case number `i`.
    pub fn attr(&self, ctx: &Context, i: usize) -> Attribute {
        ctx.get_attr(AttrData::Dialect {
            dialect: ctx.intern(self.dialect),
            body: format!("{}{}{}", self.prefix, self.cases[i], self.suffix).into(),
        })
    }
    /// The case number of an attribute, if it is one of the cases.
    pub fn decode(&self, ctx: &Context, a: Attribute) -> Option<usize> {
        let AttrData::Dialect { dialect, body } = ctx.attr_data(a) else {
            return None;
        };
        if ctx.ident_str(*dialect) != self.dialect {
            return None;
        }
        let kw = body.strip_prefix(self.prefix)?.strip_suffix(self.suffix)?;
        self.cases.iter().position(|c| *c == kw)
    }
    /// Whether an attribute is one of the cases.
    pub fn check(&self, ctx: &Context, a: Attribute) -> bool {
        self.decode(ctx, a).is_some()
    }
}

/// The Rust type name of an enum or flag set whose MLIR name is `mlir_name`
/// (`arith::CmpIPredicate` gives `CmpIPredicate`).
pub fn rust_type_name(mlir_name: &str) -> &str {
    mlir_name.rsplit("::").next().unwrap_or(mlir_name)
}
