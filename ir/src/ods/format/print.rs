//! The printer side of declarative formats.

use super::{CustomArg, Element, Format, TypeTarget};
use crate::ods::{operand_group_range, prop, result_group_range};
use crate::printer::CustomPrinter;
use crate::registry::Traits;
use crate::{OpDef, OpId, Type};

/// Prints a `custom<Name>(...)` directive.
pub type CustomPrintFn = fn(&mut CustomPrinter<'_, '_>, OpId, &[CustomArg]);

/// Prints an op's custom form with its compiled format.
pub fn print_with_format(p: &mut CustomPrinter<'_, '_>, op: OpId, fmt: &Format) {
    let def = p
        .ctx()
        .op_def(p.body().op_name(op))
        .expect("formats belong to registered ops");
    for e in &fmt.elements {
        print_element(p, op, def, e, &fmt.printed_attrs);
    }
}

/// The names of the attributes a format prints itself (left out of `attr-dict`).
pub(super) fn format_attr_names(def: &OpDef, elements: &[Element]) -> Vec<&'static str> {
    let mut out = Vec::new();
    collect_attr_names(def, elements, &mut out);
    out.push("operandSegmentSizes");
    out.push("resultSegmentSizes");
    out
}

fn collect_attr_names(def: &OpDef, elements: &[Element], out: &mut Vec<&'static str>) {
    for e in elements {
        match e {
            Element::Attr { index, .. } => out.push(def.attributes[*index].name),
            Element::Custom { args, .. } => {
                for a in args {
                    if let CustomArg::Attr(i) = a {
                        out.push(def.attributes[*i].name);
                    }
                }
            }
            Element::Optional { then, els, .. } => {
                collect_attr_names(def, then, out);
                collect_attr_names(def, els, out);
            }
            _ => {}
        }
    }
}

/// Types or values of one format target (inline: targets are small).
type Few<T> = smallvec::SmallVec<[T; 4]>;

/// The types of a format type target.
pub(crate) fn target_types(p: &CustomPrinter<'_, '_>, op: OpId, def: &OpDef, t: TypeTarget) -> Few<Type> {
    let (ctx, body) = (p.ctx(), p.body());
    match t {
        TypeTarget::Operand(g) => operand_group_range(ctx, body, op, def, g)
            .map(|i| body.value_type(body.operand(op, i)))
            .collect(),
        TypeTarget::Result(g) => result_group_range(ctx, body, op, def, g)
            .map(|i| body.value_type(body.result(op, i)))
            .collect(),
        TypeTarget::AllOperands => body.operands(op).map(|v| body.value_type(v)).collect(),
        TypeTarget::AllResults => body.results(op).map(|v| body.value_type(v)).collect(),
    }
}

fn space(p: &mut CustomPrinter<'_, '_>, s: bool) {
    if s {
        p.write(" ");
    }
}

fn print_element(p: &mut CustomPrinter<'_, '_>, op: OpId, def: &'static OpDef, e: &Element, elided: &[&str]) {
    let (ctx, body) = (p.ctx(), p.body());
    match e {
        Element::Literal { text, space: s } => {
            space(p, *s);
            p.write(text);
        }
        Element::Whitespace { space: s } => space(p, *s),
        Element::Operand { group, space: s } => {
            space(p, *s);
            let vals: Few<_> = operand_group_range(ctx, body, op, def, *group)
                .map(|i| body.operand(op, i))
                .collect();
            p.value_list(&vals);
        }
        Element::AllOperands { space: s } => {
            space(p, *s);
            let vals: Few<_> = body.operands(op).collect();
            p.value_list(&vals);
        }
        Element::Attr { index, space: s } => {
            let a = &def.attributes[*index];
            space(p, *s);
            if let Some(v) = prop(ctx, body, op, a.name) {
                match a.constraint.print {
                    Some(f) => f(p, v),
                    None => p.attr(v),
                }
            }
        }
        Element::Region { index, space: s } => {
            space(p, *s);
            print_region(p, op, def, *index);
        }
        Element::AllRegions { space: s } => {
            space(p, *s);
            for i in 0..body.num_regions(op) {
                if i > 0 {
                    p.write(", ");
                }
                print_region(p, op, def, i);
            }
        }
        Element::Type { target, space: s } => {
            space(p, *s);
            let tys = target_types(p, op, def, *target);
            p.type_list(&tys);
        }
        Element::FunctionalType {
            inputs,
            results,
            space: s,
        } => {
            space(p, *s);
            let ins = target_types(p, op, def, *inputs);
            let outs = target_types(p, op, def, *results);
            p.functional_type(&ins, &outs);
        }
        Element::AttrDict { with_keyword } => p.attr_dict_with_props(op, elided, *with_keyword),
        Element::Custom {
            directive,
            args,
            space: s,
        } => {
            space(p, *s);
            (def.custom_directives[*directive].print)(p, op, args);
        }
        Element::Optional { then, els, anchor } => {
            if anchor_present(p, op, def, &then[*anchor]) {
                for (i, e) in then.iter().enumerate() {
                    if i == *anchor {
                        if let Element::Attr { index, .. } = e {
                            if def.attributes[*index].constraint.is_unit {
                                continue;
                            }
                        }
                    }
                    print_element(p, op, def, e, elided);
                }
            } else {
                for e in els {
                    print_element(p, op, def, e, elided);
                }
            }
        }
    }
}

fn print_region(p: &mut CustomPrinter<'_, '_>, op: OpId, def: &OpDef, index: usize) {
    let body = p.body();
    let mut terminators = true;
    if def.has(Traits::SINGLE_BLOCK_IMPLICIT_TERMINATOR) {
        let rb = body.regions_body(op);
        let r = body.region(op, index);
        if let Some(t) = rb.entry_block(r).and_then(|b| rb.terminator(b)) {
            terminators = rb.num_operands(t) != 0
                || rb.num_results(t) != 0
                || rb
                    .op_attrs(t)
                    .is_some_and(|a| !p.ctx().attr_data(a).dict_entries().is_empty());
        }
    }
    p.region(op, index, true, terminators);
}

/// Whether the anchor of an optional group is present (so the group prints).
fn anchor_present(p: &CustomPrinter<'_, '_>, op: OpId, def: &OpDef, anchor: &Element) -> bool {
    let (ctx, body) = (p.ctx(), p.body());
    match anchor {
        Element::Operand { group, .. } => !operand_group_range(ctx, body, op, def, *group).is_empty(),
        Element::AllOperands { .. } => body.num_operands(op) > 0,
        Element::Attr { index, .. } => {
            let a = &def.attributes[*index];
            match prop(ctx, body, op, a.name) {
                None => false,
                Some(v) => a.default_value(ctx).is_none_or(|d| d != v),
            }
        }
        Element::Region { index, .. } => {
            let rb = body.regions_body(op);
            !rb.region_is_empty(body.region(op, *index))
        }
        Element::AllRegions { .. } => body.num_regions(op) > 0,
        Element::Type { target, .. } => !target_types(p, op, def, *target).is_empty(),
        Element::FunctionalType { .. } => true,
        Element::Custom { args, .. } => match args.first() {
            Some(CustomArg::Operand(g)) => !operand_group_range(ctx, body, op, def, *g).is_empty(),
            Some(CustomArg::Attr(i)) => prop(ctx, body, op, def.attributes[*i].name).is_some(),
            _ => true,
        },
        Element::Literal { .. } | Element::Whitespace { .. } | Element::AttrDict { .. } | Element::Optional { .. } => {
            true
        }
    }
}
