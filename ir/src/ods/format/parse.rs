//! The parser side of declarative formats.

use super::{CustomArg, Element, Format, RuleGroups, TypeTarget};
use crate::ods::{Arity, GroupRef, TypeRule};
use crate::parser::{CustomParser, ParseResult, UnresolvedOperand};
use crate::{Attribute, Context, OpDef, Type};
use smallvec::{smallvec, SmallVec};

/// Operand references of one operand group (inline: groups are small).
pub type OperandRefs<'a> = SmallVec<[UnresolvedOperand<'a>; 2]>;
/// The types of one operand or result group, or of a few groups together.
pub type GroupTypes = SmallVec<[Type; 4]>;
/// One entry per operand group, result group or attribute of an op.
pub type PerGroup<T> = SmallVec<[T; 4]>;

/// Parses a `custom<Name>(...)` directive, filling `state` for its arguments.
pub type CustomParseFn =
    for<'p, 'a> fn(&mut CustomParser<'p, 'a>, &mut FormatState<'a>, &[CustomArg]) -> ParseResult<()>;

/// What the format parser has collected for the op so far.
#[derive(Debug)]
pub struct FormatState<'a> {
    /// Operand references, per operand group.
    pub operands: PerGroup<OperandRefs<'a>>,
    /// Types given in the text, per operand group.
    pub operand_types: PerGroup<Option<GroupTypes>>,
    /// Types given in the text, per result group.
    pub result_types: PerGroup<Option<GroupTypes>>,
    /// `type(operands)`, before it is split into groups.
    pub all_operand_types: Option<GroupTypes>,
    /// `type(results)`, before it is split into groups.
    pub all_result_types: Option<GroupTypes>,
    /// Inherent attributes, per declared attribute.
    pub attrs: PerGroup<Option<Attribute>>,
}

impl<'a> FormatState<'a> {
    fn new(def: &OpDef) -> Self {
        FormatState {
            operands: smallvec![OperandRefs::new(); def.operands.len()],
            operand_types: smallvec![None; def.operands.len()],
            result_types: smallvec![None; def.results.len()],
            all_operand_types: None,
            all_result_types: None,
            attrs: smallvec![None; def.attributes.len()],
        }
    }

    /// Records the types parsed for a target.
    pub fn set_types(&mut self, target: TypeTarget, tys: GroupTypes) {
        match target {
            TypeTarget::Operand(i) => self.operand_types[i] = Some(tys),
            TypeTarget::Result(i) => self.result_types[i] = Some(tys),
            TypeTarget::AllOperands => self.all_operand_types = Some(tys),
            TypeTarget::AllResults => self.all_result_types = Some(tys),
        }
    }
}

/// Parses an op's custom form with its compiled format and completes the op
/// (operands resolved, result types known, properties set).
pub fn parse_with_format(p: &mut CustomParser<'_, '_>, fmt: &Format) -> ParseResult<()> {
    let def = p.def();
    let mut st = FormatState::new(def);
    for e in &fmt.elements {
        parse_element(p, &mut st, e, def)?;
    }
    // By reference: the state is large (a few hundred bytes) and a move
    // is a copy of all of it.
    finish(p, &mut st, def, fmt)
}

fn parse_element<'a>(
    p: &mut CustomParser<'_, 'a>,
    st: &mut FormatState<'a>,
    e: &Element,
    def: &'static OpDef,
) -> ParseResult<()> {
    match e {
        Element::Literal { text, .. } => p.parse_literal(text),
        Element::Whitespace { .. } => Ok(()),
        Element::Operand { group, .. } => {
            st.operands[*group] = match def.operands[*group].arity {
                Arity::Single => smallvec![p.parse_operand()?],
                Arity::Optional => p.parse_optional_operand()?.into_iter().collect(),
                Arity::Variadic => OperandRefs::from_vec(p.parse_operand_list()?),
            };
            Ok(())
        }
        Element::AllOperands { .. } => {
            let all = p.parse_operand_list()?;
            if def.operands.len() != 1 {
                return Err(p.error("'operands' in a format needs exactly one operand group"));
            }
            st.operands[0] = OperandRefs::from_vec(all);
            Ok(())
        }
        Element::Attr { index, .. } => {
            let a = &def.attributes[*index];
            let value = match a.constraint.parse {
                Some(f) => f(p)?,
                None => p.parse_attribute()?,
            };
            st.attrs[*index] = Some(value);
            Ok(())
        }
        Element::Region { .. } => {
            p.parse_region(&[])?;
            Ok(())
        }
        Element::AllRegions { .. } => {
            while p.at(crate::parser::lexer::TokenKind::LBrace) {
                p.parse_region(&[])?;
                if !p.parse_optional_punct(crate::parser::lexer::TokenKind::Comma) {
                    break;
                }
            }
            Ok(())
        }
        Element::Type { target, .. } => {
            let tys = match target {
                TypeTarget::Operand(g) if def.operands[*g].arity == Arity::Single => smallvec![p.parse_type()?],
                TypeTarget::Result(g) if def.results[*g].arity == Arity::Single => smallvec![p.parse_type()?],
                TypeTarget::Operand(g) if def.operands[*g].arity == Arity::Optional => {
                    p.parse_optional_type()?.into_iter().collect()
                }
                TypeTarget::Result(g) if def.results[*g].arity == Arity::Optional => {
                    p.parse_optional_type()?.into_iter().collect()
                }
                _ => GroupTypes::from_vec(p.parse_type_list()?),
            };
            st.set_types(*target, tys);
            Ok(())
        }
        Element::FunctionalType { inputs, results, .. } => {
            let (ins, outs) = p.parse_function_type_parts()?;
            st.set_types(*inputs, GroupTypes::from_vec(ins));
            st.set_types(*results, GroupTypes::from_vec(outs));
            Ok(())
        }
        Element::AttrDict { with_keyword } => {
            if *with_keyword {
                p.parse_optional_attr_dict_with_keyword()
            } else {
                p.parse_optional_attr_dict()
            }
        }
        Element::Custom { directive, args, .. } => (def.custom_directives[*directive].parse)(p, st, args),
        Element::Optional { then, els, anchor } => {
            // The first element that parses decides (leading `` `` `` is skipped).
            let first = then
                .iter()
                .find(|e| !matches!(e, Element::Whitespace { .. }))
                .unwrap_or(&then[0]);
            let present = group_present(p, first, def);
            if present {
                for (i, e) in then.iter().enumerate() {
                    if i == *anchor {
                        if let Element::Attr { index, .. } = e {
                            if def.attributes[*index].constraint.is_unit {
                                st.attrs[*index] = Some(p.ctx().common().unit);
                                continue;
                            }
                        }
                    }
                    parse_element(p, st, e, def)?;
                }
            } else {
                for e in els {
                    parse_element(p, st, e, def)?;
                }
            }
            Ok(())
        }
    }
}

/// Whether an optional group is present, judged by its first element.
fn group_present(p: &CustomParser<'_, '_>, first: &Element, def: &OpDef) -> bool {
    use crate::parser::lexer::TokenKind as T;
    match first {
        Element::Literal { text, .. } => p.at_literal(text),
        Element::Operand { .. } | Element::AllOperands { .. } => p.at(T::PercentIdent),
        Element::Region { .. } | Element::AllRegions { .. } => p.at(T::LBrace),
        Element::Type { .. } | Element::FunctionalType { .. } => p.at_type_start(),
        Element::Attr { index, .. } => {
            if def.attributes[*index].constraint.parse.is_some() {
                p.at(T::BareIdent) || p.at(T::Less)
            } else {
                p.at_attribute_start()
            }
        }
        Element::AttrDict { .. } => p.at(T::LBrace) || p.at_keyword("attributes"),
        Element::Custom { .. } => p.at(T::PercentIdent) || p.at(T::LSquare) || p.at(T::LParen),
        Element::Whitespace { .. } | Element::Optional { .. } => false,
    }
}

/// Resolves types, adds operands and results and sets properties.
fn finish<'a>(
    p: &mut CustomParser<'_, 'a>,
    st: &mut FormatState<'a>,
    def: &'static OpDef,
    fmt: &Format,
) -> ParseResult<()> {
    let ctx = p.ctx();
    // Split `type(operands)` / `type(results)` into groups.
    if let Some(all) = st.all_operand_types.take() {
        let counts: PerGroup<usize> = st.operands.iter().map(|g| g.len()).collect();
        let total: usize = counts.iter().sum();
        if all.len() != total {
            return Err(p.error(format!("{total} operands present, but expected {}", all.len())));
        }
        let mut it = all.into_iter();
        for (g, n) in counts.into_iter().enumerate() {
            st.operand_types[g] = Some(it.by_ref().take(n).collect());
        }
    }
    if let Some(all) = st.all_result_types.take() {
        split_results(p, st, def, all)?;
    }
    resolve_by_rules(ctx, st, def, fmt);
    // Operands.
    let mut sizes = PerGroup::<usize>::new();
    for (g, refs) in st.operands.iter().enumerate() {
        let tys = match st.operand_types[g].take() {
            Some(t) => t,
            None => match def.operands[g].constraint.build {
                Some(b) => smallvec![b(ctx); refs.len()],
                None if refs.is_empty() => GroupTypes::new(),
                None => {
                    return Err(p.error(format!(
                        "cannot infer the type of operand group '{}' of '{}'",
                        def.operands[g].name, def.name
                    )))
                }
            },
        };
        if tys.len() != refs.len() {
            return Err(p.error(format!("{} operands present, but expected {}", refs.len(), tys.len())));
        }
        sizes.push(refs.len());
        for (&r, t) in refs.iter().zip(tys) {
            p.add_operand(r, t)?;
        }
    }
    if def.operands.iter().filter(|g| g.arity != Arity::Single).count() > 1 {
        p.set_prop("operandSegmentSizes", crate::ods::segment_sizes_attr(ctx, &sizes));
    }
    // Results.
    for (g, r) in def.results.iter().enumerate() {
        match st.result_types[g].take() {
            Some(t) => p.add_result_types(&t),
            None => match r.constraint.build {
                Some(b) if r.arity == Arity::Single => p.add_result_types(&[b(ctx)]),
                _ if r.arity != Arity::Single => {}
                _ => {
                    return Err(p.error(format!(
                        "cannot infer the type of result '{}' of '{}'",
                        r.name, def.name
                    )))
                }
            },
        }
    }
    // Properties.
    for (i, a) in st.attrs.iter().enumerate() {
        if let Some(a) = *a {
            p.set_prop(def.attributes[i].name, a);
        }
    }
    Ok(())
}

fn split_results(p: &CustomParser<'_, '_>, st: &mut FormatState<'_>, def: &OpDef, all: GroupTypes) -> ParseResult<()> {
    let fixed = def.results.iter().filter(|r| r.arity == Arity::Single).count();
    let flexible = def.results.len() - fixed;
    if flexible > 1 {
        return Err(p.error("type(results) needs at most one variadic result group"));
    }
    let rest = all.len().checked_sub(fixed).ok_or_else(|| {
        p.error(format!(
            "'{}' op expected at least {fixed} result types, but found {}",
            def.name,
            all.len()
        ))
    })?;
    let mut it = all.into_iter();
    for (g, r) in def.results.iter().enumerate() {
        let n = if r.arity == Arity::Single { 1 } else { rest };
        st.result_types[g] = Some(it.by_ref().take(n).collect());
    }
    Ok(())
}

/// Fills unknown types from the op's [`TypeRule`]s until nothing changes.
fn resolve_by_rules(ctx: &Context, st: &mut FormatState<'_>, def: &OpDef, fmt: &Format) {
    let get = |st: &FormatState<'_>, g: Option<GroupRef>| -> Option<Type> {
        match g? {
            GroupRef::Operand(i) => st.operand_types[i].as_ref().and_then(|v| v.first().copied()),
            GroupRef::Result(i) => st.result_types[i].as_ref().and_then(|v| v.first().copied()),
        }
    };
    let set = |st: &mut FormatState<'_>, g: Option<GroupRef>, t: Type| -> bool {
        match g {
            Some(GroupRef::Operand(i)) if st.operand_types[i].is_none() => {
                let n = st.operands[i].len();
                st.operand_types[i] = Some(smallvec![t; n]);
                true
            }
            Some(GroupRef::Result(i)) if st.result_types[i].is_none() => {
                st.result_types[i] = Some(smallvec![t]);
                true
            }
            _ => false,
        }
    };
    loop {
        let mut changed = false;
        for (rule, groups) in def.type_rules.iter().zip(&fmt.rule_groups) {
            match (rule, groups) {
                (TypeRule::AllMatch(_), RuleGroups::AllMatch(groups)) => {
                    if let Some(t) = groups.iter().find_map(|&g| get(st, g)) {
                        for &g in groups {
                            changed |= set(st, g, t);
                        }
                    }
                }
                (TypeRule::Derived { derive, .. }, &RuleGroups::Derived { target, source }) => {
                    if get(st, target).is_none() {
                        if let Some(t) = get(st, source).and_then(|s| derive(ctx, s)) {
                            changed |= set(st, target, t);
                        }
                    }
                }
                _ => unreachable!("rule groups are made from the rules"),
            }
        }
        if !changed {
            break;
        }
    }
}
