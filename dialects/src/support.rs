//! Building blocks shared by the dialect declarations: enum attributes
//! written as keywords, bit-flag attributes (`#arith.fastmath<fast>`), type
//! derivations for [`TypeRule::Derived`](lf_ir::ods::TypeRule), and a
//! diagnostic helper for op verifiers.

use lf_ir::attrs::AttrData;
use lf_ir::diag::Diagnostic;
use lf_ir::parser::{CustomParser, ParseResult};
use lf_ir::printer::CustomPrinter;
use lf_ir::{Attribute, Body, Context, OpId, Type, TypeData};

/// An error on `op` in MLIR's style: `'dialect.op' op message`.
pub fn op_error(ctx: &Context, body: &Body, op: OpId, msg: impl std::fmt::Display) -> Diagnostic {
    let name = ctx.op_name_str(body.op_name(op));
    Diagnostic::error(body.op_loc(op).source_pos(ctx), format!("'{name}' op {msg}"))
}

/// The cases of an integer enum attribute (stored as an `i64` integer, written
/// as a keyword in the custom form, like `arith.cmpi`'s predicate).
pub struct IntEnum {
    /// MLIR's name of the enum, for messages.
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
    /// Whether an attribute is an `i64` holding one of the cases.
    pub fn check(&self, ctx: &Context, a: Attribute) -> bool {
        matches!(ctx.attr_data(a), AttrData::Integer { value, ty } if *ty == ctx.integer_type(self.width) && i64::try_from(*value).is_ok_and(|v| self.keyword(v).is_some()))
    }
    /// Parses a case keyword into its `i64` attribute.
    pub fn parse(&self, p: &mut CustomParser<'_, '_>) -> ParseResult<Attribute> {
        let kw = p.parse_bare_ident_with(|| {
            let list = self.cases.iter().map(|c| c.0).collect::<Vec<_>>().join(", ");
            format!("{} to be one of: {list}", self.name)
        })?;
        match self.value(kw) {
            Some(v) => {
                let ctx = p.ctx();
                Ok(ctx.integer_attr(v as i128, ctx.integer_type(self.width)))
            }
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
        pub static $name: $crate::support::IntEnum = $crate::support::IntEnum {
            name: $mlir_name,
            cases: &[$(($kw, $v)),*],
            width: $width,
        };
        #[doc = concat!("The attribute constraint of [`", stringify!($name), "`].")]
        pub static $constraint: lf_ir::ods::AttrConstraint = lf_ir::ods::AttrConstraint {
            summary: $summary,
            check: |ctx, a| $name.check(ctx, a),
            parse: Some(|p| $name.parse(p)),
            print: Some(|p, a| $name.print(p, a)),
            is_unit: false,
        };
    };
}

/// A bit-flag attribute of a dialect, such as `#arith.fastmath<nnan, ninf>`,
/// kept as the dialect attribute `#<dialect>.<mnemonic><flags>`.
pub struct FlagsAttr {
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

/// `i1`, or a vector/tensor of `i1` of the same shape as `t`.
pub fn i1_like(ctx: &Context, t: Type) -> Option<Type> {
    let i1 = ctx.common().i1;
    Some(match ctx.type_data(t) {
        TypeData::Vector { shape, scalable, .. } => ctx.get_type(TypeData::Vector {
            shape: shape.clone(),
            scalable: scalable.clone(),
            element: i1,
        }),
        TypeData::Tensor { shape, encoding, .. } => ctx.get_type(TypeData::Tensor {
            shape: shape.clone(),
            element: i1,
            encoding: *encoding,
        }),
        TypeData::UnrankedTensor { .. } => ctx.get_type(TypeData::UnrankedTensor { element: i1 }),
        _ => i1,
    })
}

/// The element type of a memref (or other shaped type).
pub fn element_type(ctx: &Context, t: Type) -> Option<Type> {
    ctx.type_data(t).element_type()
}
