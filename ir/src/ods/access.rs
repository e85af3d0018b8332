//! Reading and writing an op's operand groups, result groups and
//! properties through its declaration: what the generated op views
//! ([`super::views`]) call. Groups are named by their index in the
//! declaration and attributes by their [`AttrDef`], so no name is spelled
//! twice.
//!
//! Views assume verified IR: a getter of a required part that is missing
//! panics with a message naming the op and the part.

use super::{segment_sizes, ArgDef, Arity, AttrDef, AttrKind, IntWidth, TypeRule};
use crate::affine::{AffineMap, IntegerSet};
use crate::attrs::{AttrData, DenseValues};
use crate::view::ValueList;
use crate::{Attribute, Body, Context, OpDef, OpId, Type, Value};
use std::ops::Range;

fn missing(def: &OpDef, what: &str) -> ! {
    panic!("'{}' op has no {what} (views read verified IR)", def.name)
}

/// The operand range of group `group`.
fn operand_range(ctx: &Context, body: &Body, op: OpId, def: &OpDef, group: usize) -> Range<usize> {
    super::operand_group_range(ctx, body, op, def, group)
}

/// The values of operand group `group` of `op`.
pub fn operands(ctx: &Context, body: &Body, op: OpId, def: &OpDef, group: usize) -> ValueList {
    operand_range(ctx, body, op, def, group)
        .map(|i| body.operand(op, i))
        .collect()
}

/// The value of single operand group `group`.
pub fn operand(ctx: &Context, body: &Body, op: OpId, def: &OpDef, group: usize) -> Value {
    // With one value per group before it, the common case needs no segment sizes.
    if def.operands[..=group].iter().all(|g| g.arity == Arity::Single) {
        if group < body.num_operands(op) {
            return body.operand(op, group);
        }
        missing(def, &format!("operand '{}'", def.operands[group].name));
    }
    let r = operand_range(ctx, body, op, def, group);
    if r.len() != 1 {
        missing(def, &format!("operand '{}'", def.operands[group].name));
    }
    body.operand(op, r.start)
}

/// The value of optional operand group `group`, if present.
pub fn optional_operand(ctx: &Context, body: &Body, op: OpId, def: &OpDef, group: usize) -> Option<Value> {
    let r = operand_range(ctx, body, op, def, group);
    (r.len() == 1).then(|| body.operand(op, r.start))
}

/// The result range of group `group`.
fn result_range(ctx: &Context, body: &Body, op: OpId, def: &OpDef, group: usize) -> Range<usize> {
    super::result_group_range(ctx, body, op, def, group)
}

/// The values of result group `group` of `op`.
pub fn results(ctx: &Context, body: &Body, op: OpId, def: &OpDef, group: usize) -> ValueList {
    result_range(ctx, body, op, def, group)
        .map(|i| body.result(op, i))
        .collect()
}

/// The value of single result group `group`.
pub fn result(ctx: &Context, body: &Body, op: OpId, def: &OpDef, group: usize) -> Value {
    if def.results[..=group].iter().all(|g| g.arity == Arity::Single) && group < body.num_results(op) {
        return body.result(op, group);
    }
    let r = result_range(ctx, body, op, def, group);
    if r.len() != 1 {
        missing(def, &format!("result '{}'", def.results[group].name));
    }
    body.result(op, r.start)
}

/// The value of optional result group `group`, if present.
pub fn optional_result(ctx: &Context, body: &Body, op: OpId, def: &OpDef, group: usize) -> Option<Value> {
    let r = result_range(ctx, body, op, def, group);
    (r.len() == 1).then(|| body.result(op, r.start))
}

/// Replaces the values of operand group `group` of `op` with `values`,
/// keeping the other groups and `operandSegmentSizes` right.
pub fn set_operands(ctx: &Context, body: &mut Body, op: OpId, def: &OpDef, group: usize, values: &[Value]) {
    let g = &def.operands[group];
    assert!(
        g.arity == Arity::Variadic || values.len() == 1 || (g.arity == Arity::Optional && values.is_empty()),
        "'{}': operand group '{}' takes {} value(s), got {}",
        def.name,
        g.name,
        if g.arity == Arity::Single {
            "exactly one"
        } else {
            "at most one"
        },
        values.len()
    );
    let ranges: Vec<Range<usize>> = (0..def.operands.len())
        .map(|i| operand_range(ctx, body, op, def, i))
        .collect();
    let mut all: Vec<Value> = Vec::with_capacity(body.num_operands(op) + values.len());
    for (i, r) in ranges.iter().enumerate() {
        if i == group {
            all.extend_from_slice(values);
        } else {
            all.extend(r.clone().map(|k| body.operand(op, k)));
        }
    }
    body.set_operands(op, &all);
    if def.operands.iter().filter(|g| g.arity != Arity::Single).count() > 1 {
        let sizes: Vec<usize> = ranges
            .iter()
            .enumerate()
            .map(|(i, r)| if i == group { values.len() } else { r.len() })
            .collect();
        set_named_property(
            ctx,
            body,
            op,
            "operandSegmentSizes",
            Some(super::segment_sizes_attr(ctx, &sizes)),
        );
    }
}

/// Replaces all operands of `op` with `groups` (one slice per operand group
/// of the declaration, in order), setting `operandSegmentSizes` when the
/// declaration needs it.
pub fn set_operand_groups(ctx: &Context, body: &mut Body, op: OpId, def: &OpDef, groups: &[&[Value]]) {
    assert_eq!(
        groups.len(),
        def.operands.len(),
        "'{}': one slice per operand group",
        def.name
    );
    let all: Vec<Value> = groups.iter().flat_map(|g| g.iter().copied()).collect();
    body.set_operands(op, &all);
    if def.operands.iter().filter(|g| g.arity != Arity::Single).count() > 1 {
        let sizes: Vec<usize> = groups.iter().map(|g| g.len()).collect();
        set_named_property(
            ctx,
            body,
            op,
            "operandSegmentSizes",
            Some(super::segment_sizes_attr(ctx, &sizes)),
        );
    }
}

/// Sets operand `index` of group `group` (which must exist) to `value`.
pub fn set_operand_in_group(
    ctx: &Context,
    body: &mut Body,
    op: OpId,
    def: &OpDef,
    group: usize,
    index: usize,
    value: Value,
) {
    let r = operand_range(ctx, body, op, def, group);
    assert!(
        index < r.len(),
        "'{}': operand group '{}' has no value {index}",
        def.name,
        def.operands[group].name
    );
    body.set_operand(op, r.start + index, value);
}

/// The inherent attribute `attr` of `op` (its declared default when absent).
pub fn property(ctx: &Context, body: &Body, op: OpId, attr: &AttrDef) -> Option<Attribute> {
    super::dict_get(ctx, body.op_props(op), attr.name).or_else(|| attr.default_value(ctx))
}

/// The required inherent attribute `attr` of `op`.
pub fn required_property(ctx: &Context, body: &Body, op: OpId, def: &OpDef, attr: &AttrDef) -> Attribute {
    property(ctx, body, op, attr).unwrap_or_else(|| missing(def, &format!("attribute '{}'", attr.name)))
}

/// Sets (or with `None` removes) the inherent attribute `attr` of `op`.
pub fn set_property(ctx: &Context, body: &mut Body, op: OpId, attr: &AttrDef, value: Option<Attribute>) {
    set_named_property(ctx, body, op, attr.name, value);
}

fn set_named_property(ctx: &Context, body: &mut Body, op: OpId, name: &str, value: Option<Attribute>) {
    let key = ctx.intern(name);
    let mut entries: crate::DictEntries = match body.op_props(op) {
        Some(p) => ctx.attr_data(p).dict_entries().iter().copied().collect(),
        None => crate::DictEntries::new(),
    };
    entries.retain(|(k, _)| *k != key);
    if let Some(v) = value {
        entries.push((key, v));
    }
    let props = (!entries.is_empty()).then(|| ctx.dict_attr_from(entries));
    body.set_op_props(op, props);
}

// ------------------------------------------------------------- decoding

fn bad(kind: &str, a: Attribute, ctx: &Context) -> ! {
    panic!("expected {kind}, got {:?} (views read verified IR)", ctx.attr_data(a))
}

/// An `affine_map<...>` attribute's map.
pub fn as_affine_map(ctx: &Context, a: Attribute) -> &AffineMap {
    match ctx.attr_data(a) {
        AttrData::AffineMap(m) => m,
        _ => bad("an affine map", a, ctx),
    }
}

/// An `affine_set<...>` attribute's set.
pub fn as_integer_set(ctx: &Context, a: Attribute) -> &IntegerSet {
    match ctx.attr_data(a) {
        AttrData::IntegerSet(s) => s,
        _ => bad("an integer set", a, ctx),
    }
}

/// An integer attribute's value.
pub fn as_int(ctx: &Context, a: Attribute) -> i64 {
    match ctx.attr_data(a) {
        AttrData::Integer { value, .. } => *value as i64,
        _ => bad("an integer", a, ctx),
    }
}

/// A `true`/`false` attribute's value.
pub fn as_bool(ctx: &Context, a: Attribute) -> bool {
    as_int(ctx, a) != 0
}

/// A string attribute's text.
pub fn as_str(ctx: &Context, a: Attribute) -> &str {
    match ctx.attr_data(a) {
        AttrData::String { value, .. } => value,
        _ => bad("a string", a, ctx),
    }
}

/// A flat symbol reference's name (`@f` gives `f`).
pub fn as_symbol(ctx: &Context, a: Attribute) -> &str {
    match ctx.attr_data(a) {
        AttrData::SymbolRef { root, .. } => ctx.ident_str(*root),
        _ => bad("a symbol reference", a, ctx),
    }
}

/// A type attribute's type.
pub fn as_type(ctx: &Context, a: Attribute) -> Type {
    match ctx.attr_data(a) {
        AttrData::Type(t) => *t,
        _ => bad("a type", a, ctx),
    }
}

/// A dense integer array's values.
pub fn as_int_array(ctx: &Context, a: Attribute) -> Vec<i64> {
    match ctx.attr_data(a) {
        AttrData::DenseArray {
            values: DenseValues::Int(v),
            ..
        } => v.iter().map(|x| *x as i64).collect(),
        _ => bad("a dense integer array", a, ctx),
    }
}

// ------------------------------------------------------------- encoding

/// `affine_map<map>`.
pub fn affine_map_attr(ctx: &Context, map: AffineMap) -> Attribute {
    ctx.get_attr(AttrData::AffineMap(map))
}

/// `affine_set<set>`.
pub fn integer_set_attr(ctx: &Context, set: IntegerSet) -> Attribute {
    ctx.get_attr(AttrData::IntegerSet(set))
}

/// An integer attribute of `width`.
pub fn int_attr(ctx: &Context, width: IntWidth, v: i64) -> Attribute {
    ctx.integer_attr(v as i128, width.ty(ctx))
}

/// `true` or `false`.
pub fn bool_attr(ctx: &Context, v: bool) -> Attribute {
    ctx.integer_attr(v as i128, ctx.common().i1)
}

/// `unit`.
pub fn unit_attr(ctx: &Context) -> Attribute {
    ctx.get_attr(AttrData::Unit)
}

/// A string attribute.
pub fn str_attr(ctx: &Context, s: &str) -> Attribute {
    ctx.string_attr(s)
}

/// `@name`.
pub fn symbol_attr(ctx: &Context, name: &str) -> Attribute {
    ctx.get_attr(AttrData::SymbolRef {
        root: ctx.intern(name),
        nested: Box::new([]),
    })
}

/// A type attribute.
pub fn type_attr(ctx: &Context, t: Type) -> Attribute {
    ctx.get_attr(AttrData::Type(t))
}

/// `array<i64: ...>` (or `i32`).
pub fn int_array_attr(ctx: &Context, width: IntWidth, v: &[i64]) -> Attribute {
    ctx.get_attr(AttrData::DenseArray {
        element: width.ty(ctx),
        values: DenseValues::Int(v.iter().map(|x| *x as i128).collect()),
    })
}

// ------------------------------------------------------- result inference

/// How the type of single result group `group` follows from the
/// declaration, if it does: from an operand group of one value (the
/// operand's own type, or derived from it by a [`TypeRule::Derived`]) or
/// from a constraint that allows one type. The generated builders leave
/// such results out of their parameters.
pub fn inferable_result(def: &OpDef, group: usize) -> bool {
    inference(def, group).is_some()
}

enum Inference {
    Built(fn(&Context) -> Type),
    SameAs(usize),
    Derived(usize, fn(&Context, Type) -> Option<Type>),
}

fn single_operand_group(def: &OpDef, name: &str) -> Option<usize> {
    def.operands
        .iter()
        .position(|g| g.name == name && g.arity == Arity::Single)
}

fn inference(def: &OpDef, group: usize) -> Option<Inference> {
    let g: &ArgDef = def.results.get(group)?;
    if g.arity != Arity::Single {
        return None;
    }
    if let Some(b) = g.constraint.build {
        return Some(Inference::Built(b));
    }
    for rule in def.type_rules {
        match rule {
            TypeRule::AllMatch(names) if names.contains(&g.name) => {
                if let Some(i) = names.iter().find_map(|n| single_operand_group(def, n)) {
                    return Some(Inference::SameAs(i));
                }
            }
            TypeRule::Derived {
                target, source, derive, ..
            } if *target == g.name => {
                if let Some(i) = single_operand_group(def, source) {
                    return Some(Inference::Derived(i, *derive));
                }
            }
            _ => {}
        }
    }
    if def.has(crate::Traits::SAME_OPERANDS_AND_RESULT_TYPE)
        && def.operands.first().is_some_and(|o| o.arity == Arity::Single)
    {
        return Some(Inference::SameAs(0));
    }
    None
}

/// The type of result group `group` for an op of `def` whose operands so
/// far are `operands` in groups of `segments` values (see
/// [`inferable_result`]).
pub fn infer_result(
    ctx: &Context,
    body: &Body,
    def: &OpDef,
    operands: &[Value],
    segments: &[usize],
    group: usize,
) -> Option<Type> {
    let operand_of = |g: usize| -> Option<Value> {
        let start: usize = segments.get(..g)?.iter().sum();
        (segments.get(g) == Some(&1)).then(|| operands[start])
    };
    match inference(def, group)? {
        Inference::Built(b) => Some(b(ctx)),
        Inference::SameAs(g) => Some(body.value_type(operand_of(g)?)),
        Inference::Derived(g, f) => f(ctx, body.value_type(operand_of(g)?)),
    }
}

/// Whether `kind` values are decoded by reference to the context (the
/// getter returns `&'c T`).
pub fn borrows_context(kind: AttrKind) -> bool {
    matches!(
        kind,
        AttrKind::AffineMap | AttrKind::IntegerSet | AttrKind::Str | AttrKind::FlatSymbolRef
    )
}

/// Segment sizes of all operand groups of `op` (for tests and tools).
pub fn operand_segment_sizes(ctx: &Context, body: &Body, op: OpId, def: &OpDef) -> Option<Vec<usize>> {
    segment_sizes(
        ctx,
        body.op_props(op),
        "operandSegmentSizes",
        def.operands,
        body.num_operands(op),
    )
    .map(|s| s.to_vec())
}
