//! Op declarations (lf's counterpart of MLIR's ODS).
//!
//! An op is declared once, as a `static` [`OpDef`](crate::OpDef): besides its
//! name, docs, traits and hooks it lists its operand and result groups
//! ([`ArgDef`]), its inherent attributes ([`AttrDef`], stored as properties),
//! its regions and successors, and optionally a declarative assembly format in
//! MLIR's notation (`$lhs `,` $rhs attr-dict `:` type($result)`). From that
//! one declaration lf derives:
//!
//! - the custom syntax parser and printer ([`format`]), when the op gives a
//!   format and no hand-written hooks;
//! - the generic verifier ([`verify`]): operand/result counts and type
//!   constraints, required attributes, region and successor counts, with
//!   MLIR's messages;
//! - named accessors for operand groups ([`operand_group`]);
//! - the op reference in `docs/dialects/` ([`doc`]).

pub mod access;
pub mod constraints;
pub mod doc;
pub mod enums;
pub mod format;
pub mod verify;
pub mod views;

use crate::attrs::AttrData;
use crate::{Attribute, Body, Context, OpDef, OpId, Type, Value};
use std::ops::Range;

/// How many values an operand or result group holds.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Arity {
    /// Exactly one.
    Single,
    /// Zero or one.
    Optional,
    /// Any number.
    Variadic,
}

/// A type constraint: a predicate with the description MLIR's messages use.
#[derive(Debug)]
pub struct TypeConstraint {
    /// What the constraint accepts, as in "must be `summary`, but got 'f32'".
    pub summary: &'static str,
    /// The predicate.
    pub check: fn(&Context, Type) -> bool,
    /// The one type the constraint allows, if it allows exactly one (`index`,
    /// `i1`); the format engine uses it when the syntax omits the type.
    pub build: Option<fn(&Context) -> Type>,
}

/// A named operand or result group.
#[derive(Debug)]
pub struct ArgDef {
    /// The name used in formats, docs and accessors.
    pub name: &'static str,
    /// How many values the group holds.
    pub arity: Arity,
    /// The constraint on each value's type.
    pub constraint: &'static TypeConstraint,
    /// The memory effects of the op on the memory each value names (MLIR's
    /// `Arg<AnyMemRef, "", [MemRead]>`): see [`crate::interfaces`].
    pub effects: crate::interfaces::Effects,
}

impl ArgDef {
    /// One value.
    pub const fn one(name: &'static str, constraint: &'static TypeConstraint) -> ArgDef {
        ArgDef {
            name,
            arity: Arity::Single,
            constraint,
            effects: crate::interfaces::Effects::NONE,
        }
    }
    /// Zero or one value.
    pub const fn optional(name: &'static str, constraint: &'static TypeConstraint) -> ArgDef {
        ArgDef {
            arity: Arity::Optional,
            ..ArgDef::one(name, constraint)
        }
    }
    /// Any number of values.
    pub const fn variadic(name: &'static str, constraint: &'static TypeConstraint) -> ArgDef {
        ArgDef {
            arity: Arity::Variadic,
            ..ArgDef::one(name, constraint)
        }
    }
    /// The same group, with the op reading the memory its values name.
    pub const fn reads(self) -> ArgDef {
        self.with_effects(crate::interfaces::Effects::READ)
    }
    /// The same group, with the op writing the memory its values name.
    pub const fn writes(self) -> ArgDef {
        self.with_effects(crate::interfaces::Effects::WRITE)
    }
    /// The same group, with its values naming memory the op allocates.
    pub const fn allocates(self) -> ArgDef {
        self.with_effects(crate::interfaces::Effects::ALLOC)
    }
    /// The same group, with the op freeing the memory its values name.
    pub const fn frees(self) -> ArgDef {
        self.with_effects(crate::interfaces::Effects::FREE)
    }
    /// The same group with `effects` added.
    pub const fn with_effects(self, effects: crate::interfaces::Effects) -> ArgDef {
        ArgDef {
            effects: self.effects.with(effects),
            ..self
        }
    }
}

/// Parses the custom form of an attribute used as a format variable
/// (`$predicate`), e.g. an enum case written as a bare keyword.
pub type AttrParseFn = fn(&mut crate::parser::CustomParser<'_, '_>) -> crate::parser::ParseResult<Attribute>;
/// Prints the custom form of an attribute used as a format variable.
pub type AttrPrintFn = fn(&mut crate::printer::CustomPrinter<'_, '_>, Attribute);

/// An attribute constraint.
#[derive(Debug)]
pub struct AttrConstraint {
    /// What the constraint accepts ("attribute 'x' failed to satisfy constraint: `summary`").
    pub summary: &'static str,
    /// The predicate.
    pub check: fn(&Context, Attribute) -> bool,
    /// Custom parser when the attribute appears as a format variable
    /// (default: a full attribute).
    pub parse: Option<AttrParseFn>,
    /// Custom printer when the attribute appears as a format variable.
    pub print: Option<AttrPrintFn>,
    /// Whether the attribute is a `unit` flag (a format anchor that prints nothing).
    pub is_unit: bool,
    /// The Rust value the attribute decodes to in the generated op views.
    pub kind: AttrKind,
}

/// The integer type of an [`AttrKind::Int`] or [`AttrKind::DenseIntArray`]
/// attribute.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IntWidth {
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `index`.
    Index,
}

impl IntWidth {
    /// The type.
    pub fn ty(self, ctx: &Context) -> Type {
        let c = ctx.common();
        match self {
            IntWidth::I32 => c.i32,
            IntWidth::I64 => c.i64,
            IntWidth::Index => c.index,
        }
    }
}

/// What Rust value an attribute constraint's attributes decode to in the
/// generated op views ([`views`]): the getter's return type and the
/// setter's argument type.
#[derive(Copy, Clone, Debug)]
pub enum AttrKind {
    /// Kept as an [`Attribute`] (arrays, dictionaries, typed attributes, ...).
    Any,
    /// `affine_map<...>`: `&AffineMap`.
    AffineMap,
    /// `affine_set<...>`: `&IntegerSet`.
    IntegerSet,
    /// An integer attribute of a fixed type: `i64`.
    Int(IntWidth),
    /// `true`/`false`: `bool`.
    Bool,
    /// A `unit` flag: `bool` (present or not).
    Unit,
    /// A string: `&str`.
    Str,
    /// A flat symbol reference (`@f`): its name as `&str`.
    FlatSymbolRef,
    /// A type attribute: [`crate::Type`].
    Type,
    /// `array<i64: ...>` or `array<i32: ...>`: `Vec<i64>`.
    DenseIntArray(IntWidth),
    /// An [`enums::IntEnum`] case: the generated Rust enum.
    IntEnum(&'static enums::IntEnum),
    /// An [`enums::FlagsAttr`] bit set: the generated flag set.
    Flags(&'static enums::FlagsAttr),
    /// A [`enums::DialectEnum`] case: the generated Rust enum.
    DialectEnum(&'static enums::DialectEnum),
}

/// An inherent attribute (stored in the op's properties).
#[derive(Debug)]
pub struct AttrDef {
    /// The name.
    pub name: &'static str,
    /// The constraint.
    pub constraint: &'static AttrConstraint,
    /// Whether the op may lack it.
    pub optional: bool,
    /// The value an absent attribute takes (printed in the generic form, as
    /// MLIR materializes default-valued properties).
    pub default: Option<fn(&Context) -> Attribute>,
}

impl AttrDef {
    /// The value this attribute takes when absent, if it has a default. Made
    /// once per thread and context (ops ask for it on every parse and print).
    pub fn default_value(&self, ctx: &Context) -> Option<Attribute> {
        type Cache = std::cell::RefCell<rustc_hash::FxHashMap<(u64, usize), Attribute>>;
        thread_local!(static DEFAULTS: Cache = Cache::default());
        /// Entries kept per thread before the cache is emptied (contexts come and go).
        const MAX_DEFAULTS: usize = 4096;
        let make = self.default?;
        let key = (ctx.uid(), make as usize);
        if let Some(a) = DEFAULTS.with(|c| c.borrow().get(&key).copied()) {
            return Some(a);
        }
        let a = make(ctx);
        DEFAULTS.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() >= MAX_DEFAULTS {
                c.clear();
            }
            c.insert(key, a);
        });
        Some(a)
    }

    /// A required attribute.
    pub const fn required(name: &'static str, constraint: &'static AttrConstraint) -> AttrDef {
        AttrDef {
            name,
            constraint,
            optional: false,
            default: None,
        }
    }
    /// An optional attribute.
    pub const fn optional(name: &'static str, constraint: &'static AttrConstraint) -> AttrDef {
        AttrDef {
            name,
            constraint,
            optional: true,
            default: None,
        }
    }
    /// An attribute with a default value.
    pub const fn with_default(
        name: &'static str,
        constraint: &'static AttrConstraint,
        default: fn(&Context) -> Attribute,
    ) -> AttrDef {
        AttrDef {
            name,
            constraint,
            optional: true,
            default: Some(default),
        }
    }
}

/// A region of an op.
#[derive(Debug)]
pub struct RegionDef {
    /// The name used in formats and docs.
    pub name: &'static str,
    /// Whether the region must have exactly one block.
    pub single_block: bool,
    /// Whether the region may be empty (`AnyRegion` vs `SizedRegion<1>`).
    pub may_be_empty: bool,
}

/// How the format engine finds a type the custom syntax leaves out.
#[derive(Debug)]
pub enum TypeRule {
    /// The named operands/results all have one type (MLIR's `AllTypesMatch`,
    /// `SameOperandsAndResultType`, `SameTypeOperands`).
    AllMatch(&'static [&'static str]),
    /// `target`'s type (every value of the group) is computed from `source`'s
    /// (the first value of that group).
    Derived {
        /// The operand or result group whose type is computed.
        target: &'static str,
        /// The group it is computed from.
        source: &'static str,
        /// The computation (`None`: the source type does not allow one, an error).
        derive: fn(&Context, Type) -> Option<Type>,
        /// What the rule says, for the verifier's message ("failed to verify that ...").
        description: &'static str,
    },
}

/// Suggests names for an op's results when printing (`%c0`, `%cst`), like
/// MLIR's `OpAsmOpInterface::getAsmResultNames`. Returns one name per
/// result group start; `None` keeps the number.
pub type ResultNamesFn = fn(&Context, &Body, OpId) -> Option<String>;

/// A `custom<Name>(...)` directive of a declarative format.
#[derive(Debug)]
pub struct CustomDirective {
    /// The directive's name (`DynamicIndexList`).
    pub name: &'static str,
    /// Parses it; `args` are the format's arguments (`$offsets`, `$static_offsets`).
    pub parse: format::CustomParseFn,
    /// Prints it.
    pub print: format::CustomPrintFn,
}

/// The range of operand indices of group `index` of an op.
///
/// With one non-single group, the segment sizes follow from the operand
/// count; with more, from the `operandSegmentSizes` property (MLIR's
/// `AttrSizedOperandSegments`).
pub fn operand_group_range(ctx: &Context, body: &Body, op: OpId, def: &OpDef, index: usize) -> Range<usize> {
    group_range(
        ctx,
        body.op_props(op),
        "operandSegmentSizes",
        def.operands,
        body.num_operands(op),
        index,
    )
}

/// The ranges of operand indices of every operand group of an op, in
/// order (empty if its segment sizes cannot be determined): one read of
/// `operandSegmentSizes` for all groups.
pub fn operand_group_ranges(
    ctx: &Context,
    body: &Body,
    op: OpId,
    def: &OpDef,
) -> smallvec::SmallVec<[Range<usize>; 6]> {
    let Some(sizes) = segment_sizes(
        ctx,
        body.op_props(op),
        "operandSegmentSizes",
        def.operands,
        body.num_operands(op),
    ) else {
        return smallvec::SmallVec::new();
    };
    let mut start = 0;
    sizes
        .iter()
        .map(|&n| {
            start += n;
            start - n..start
        })
        .collect()
}

/// The range of result indices of group `index` of an op.
pub fn result_group_range(ctx: &Context, body: &Body, op: OpId, def: &OpDef, index: usize) -> Range<usize> {
    group_range(
        ctx,
        body.op_props(op),
        "resultSegmentSizes",
        def.results,
        body.num_results(op),
        index,
    )
}

/// The sizes of an op's operand or result groups (inline: ops have few).
pub(crate) type SegmentSizes = smallvec::SmallVec<[usize; 6]>;

/// The segment sizes of all groups, or `None` if they cannot be determined.
pub(crate) fn segment_sizes(
    ctx: &Context,
    props: Option<Attribute>,
    prop_name: &str,
    groups: &[ArgDef],
    total: usize,
) -> Option<SegmentSizes> {
    let non_single = groups.iter().filter(|g| g.arity != Arity::Single).count();
    if non_single <= 1 {
        let rest = total.checked_sub(groups.len() - non_single)?;
        return groups.iter().map(|g| implied_size(g, rest)).collect();
    }
    let a = dict_get(ctx, props, prop_name)?;
    let AttrData::DenseArray {
        values: crate::DenseValues::Int(sizes),
        ..
    } = ctx.attr_data(a)
    else {
        return None;
    };
    if sizes.len() != groups.len() {
        return None;
    }
    let v: SegmentSizes = sizes.iter().map(|&s| usize::try_from(s).ok()).collect::<Option<_>>()?;
    (v.iter().try_fold(0usize, |sum, &s| sum.checked_add(s)) == Some(total)).then_some(v)
}

fn group_range(
    ctx: &Context,
    props: Option<Attribute>,
    prop_name: &str,
    groups: &[ArgDef],
    total: usize,
    index: usize,
) -> Range<usize> {
    let non_single = groups.iter().filter(|g| g.arity != Arity::Single).count();
    if non_single > 1 {
        return match segment_sizes(ctx, props, prop_name, groups, total) {
            Some(sizes) => {
                let start: usize = sizes[..index].iter().sum();
                start..start + sizes[index]
            }
            None => 0..0,
        };
    }
    // At most one variadic group: the sizes follow from the count alone.
    let Some(rest) = total.checked_sub(groups.len() - non_single) else {
        return 0..0;
    };
    let mut start = 0;
    for g in &groups[..index] {
        match implied_size(g, rest) {
            Some(n) => start += n,
            None => return 0..0,
        }
    }
    match groups.get(index).map(|g| implied_size(g, rest)) {
        Some(Some(n)) if groups[index + 1..].iter().all(|g| implied_size(g, rest).is_some()) => start..start + n,
        _ => 0..0,
    }
}

/// The size of group `g` of an op with at most one variadic group, where
/// `rest` values are left for that group once each single group has one:
/// `None` for an optional group given more than one.
fn implied_size(g: &ArgDef, rest: usize) -> Option<usize> {
    match g.arity {
        Arity::Single => Some(1),
        Arity::Optional if rest > 1 => None,
        _ => Some(rest),
    }
}

/// The values of operand group `name` of an op (empty if the op has no such group).
pub fn operand_group(ctx: &Context, body: &Body, op: OpId, name: &str) -> Vec<Value> {
    let Some(def) = ctx.op_def(body.op_name(op)) else {
        return Vec::new();
    };
    let Some(i) = def.operands.iter().position(|g| g.name == name) else {
        return Vec::new();
    };
    operand_group_range(ctx, body, op, def, i)
        .map(|k| body.operand(op, k))
        .collect()
}

/// An operand or result group of an op, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupRef {
    /// Operand group `i`.
    Operand(usize),
    /// Result group `i`.
    Result(usize),
}

/// The group of `def` named `name`, operands first (as a [`TypeRule`]
/// reads its names).
pub fn group_named(def: &OpDef, name: &str) -> Option<GroupRef> {
    if let Some(i) = def.operands.iter().position(|g| g.name == name) {
        return Some(GroupRef::Operand(i));
    }
    def.results.iter().position(|g| g.name == name).map(GroupRef::Result)
}

/// An entry of a dictionary attribute.
pub fn dict_get(ctx: &Context, dict: Option<Attribute>, name: &str) -> Option<Attribute> {
    let d = dict?;
    // Names of one length mostly differ at their first byte: checked
    // before the comparison of the whole text (a call to `memcmp`).
    let first = name.as_bytes().first().copied();
    ctx.attr_data(d)
        .dict_entries()
        .iter()
        .find(|(k, _)| {
            let key = ctx.ident_str(*k);
            key.len() == name.len() && key.as_bytes().first().copied() == first && key == name
        })
        .map(|(_, v)| *v)
}

/// The inherent attribute `name` of an op (from its properties).
pub fn prop(ctx: &Context, body: &Body, op: OpId, name: &str) -> Option<Attribute> {
    dict_get(ctx, body.op_props(op), name)
}

/// A discardable attribute of an op.
pub fn discardable_attr(ctx: &Context, body: &Body, op: OpId, name: &str) -> Option<Attribute> {
    dict_get(ctx, body.op_attrs(op), name)
}

/// Adds to `entries` the default of every default-valued inherent attribute
/// of `def` that they lack; returns whether any was added.
pub fn add_missing_defaults(ctx: &Context, def: &OpDef, entries: &mut crate::DictEntries) -> bool {
    let before = entries.len();
    for a in def.attributes {
        if let Some(d) = a.default_value(ctx) {
            let k = ctx.intern(a.name);
            if !entries.iter().any(|(e, _)| *e == k) {
                entries.push((k, d));
            }
        }
    }
    entries.len() != before
}

/// `array<i32: ...>`, the form of `operandSegmentSizes`.
pub fn segment_sizes_attr(ctx: &Context, sizes: &[usize]) -> Attribute {
    ctx.get_attr(AttrData::DenseArray {
        element: ctx.common().i32,
        values: crate::DenseValues::Int(sizes.iter().map(|&s| s as i128).collect()),
    })
}

/// Puts a declared op's inherent attributes into its properties, as MLIR
/// does on creation: entries of the attribute dictionary named like a
/// declared attribute move to the properties (unless `<{...}>` already set
/// them, which wins), properties set by a custom parser are merged in, and
/// absent default-valued attributes take their default.
pub(crate) fn normalize_properties(
    ctx: &Context,
    def: &OpDef,
    props: &mut Option<Attribute>,
    set_props: &mut crate::DictEntries,
    attrs: &mut Vec<(crate::Ident, Attribute)>,
) {
    if def.attributes.is_empty()
        && set_props.is_empty()
        && def.operands.iter().filter(|g| g.arity != Arity::Single).count() <= 1
    {
        return;
    }
    let mut entries: crate::DictEntries = match props {
        Some(p) => ctx.attr_data(*p).dict_entries().iter().copied().collect(),
        None => crate::DictEntries::new(),
    };
    for (k, v) in set_props.drain(..) {
        if !entries.iter().any(|(e, _)| *e == k) {
            entries.push((k, v));
        }
    }
    let is_inherent = |name: &str| {
        def.attributes.iter().any(|a| a.name == name) || name == "operandSegmentSizes" || name == "resultSegmentSizes"
    };
    attrs.retain(|(k, v)| {
        if !is_inherent(ctx.ident_str(*k)) {
            return true;
        }
        if !entries.iter().any(|(e, _)| e == k) {
            entries.push((*k, *v));
        }
        false
    });
    add_missing_defaults(ctx, def, &mut entries);
    *props = if entries.is_empty() {
        None
    } else {
        Some(ctx.dict_attr_from(entries))
    };
}
