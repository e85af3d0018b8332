//! The op reference, generated from op declarations.

use super::Arity;
use crate::registry::Traits;
use crate::OpDef;
use std::fmt::Write;

const TRAIT_NAMES: &[(Traits, &str)] = &[
    (Traits::TERMINATOR, "Terminator"),
    (Traits::ISOLATED_FROM_ABOVE, "IsolatedFromAbove"),
    (Traits::SYMBOL_TABLE, "SymbolTable"),
    (Traits::SYMBOL, "Symbol"),
    (Traits::NO_TERMINATOR, "NoTerminator"),
    (Traits::GRAPH_REGION, "GraphRegion"),
    (Traits::SINGLE_BLOCK, "SingleBlock"),
    (
        Traits::SINGLE_BLOCK_IMPLICIT_TERMINATOR,
        "SingleBlockImplicitTerminator",
    ),
    (Traits::PURE, "Pure"),
    (Traits::CONSTANT_LIKE, "ConstantLike"),
    (Traits::SAME_OPERANDS_AND_RESULT_TYPE, "SameOperandsAndResultType"),
    (Traits::MEMORY_EFFECTS, "MemoryEffects"),
    (Traits::RETURN_LIKE, "ReturnLike"),
    (Traits::COMMUTATIVE, "Commutative"),
    (Traits::RECURSIVE_MEMORY_EFFECTS, "RecursiveMemoryEffects"),
];

/// MLIR's names of memory effects, as the op reference shows them on an
/// operand or result (`MemRead`, `MemWrite`, ...).
fn effect_names(e: crate::interfaces::Effects) -> String {
    use crate::interfaces::Effect;
    let names: Vec<&str> = e
        .each()
        .map(|x| match x {
            Effect::Read => "MemRead",
            Effect::Write => "MemWrite",
            Effect::Alloc => "MemAlloc",
            Effect::Free => "MemFree",
        })
        .collect();
    names.join(", ")
}

/// Markdown reference of one dialect's ops (sorted by name).
pub fn dialect_markdown(dialect: &str, intro: &str, ops: &[&OpDef]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# `{dialect}` dialect\n");
    let _ = writeln!(
        out,
        "<!-- Generated from the op declarations (`LF_UPDATE_DOCS=1 cargo test -p lf-dialects --test op_docs`); do not edit. -->\n"
    );
    if !intro.is_empty() {
        let _ = writeln!(out, "{intro}\n");
    }
    let mut ops: Vec<&&OpDef> = ops.iter().collect();
    ops.sort_by_key(|d| d.name);
    for d in &ops {
        let _ = writeln!(out, "- [`{}`](#{}): {}", d.name, anchor(d.name), d.summary);
    }
    out.push('\n');
    for d in ops {
        op_markdown(&mut out, d);
    }
    out
}

fn anchor(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric() || *c == '_')
        .collect::<String>()
        .to_lowercase()
}

fn op_markdown(out: &mut String, d: &OpDef) {
    let _ = writeln!(out, "## `{}`\n", d.name);
    if !d.summary.is_empty() {
        let _ = writeln!(out, "_{}_\n", d.summary);
    }
    if !d.description.is_empty() {
        let _ = writeln!(out, "{}\n", d.description.trim());
    }
    match (d.format, d.print.is_some()) {
        (Some(f), _) => {
            let _ = writeln!(out, "Syntax (declarative format):\n\n```\n{}\n```\n", f);
        }
        (None, true) => {
            let _ = writeln!(out, "Syntax: custom (see the examples above).\n");
        }
        (None, false) => {
            let _ = writeln!(out, "Syntax: generic form only.\n");
        }
    }
    let traits: Vec<&str> = TRAIT_NAMES
        .iter()
        .filter(|(t, _)| d.traits.contains(*t))
        .map(|(_, n)| *n)
        .collect();
    if !traits.is_empty() {
        let _ = writeln!(out, "Traits: {}\n", traits.join(", "));
    }
    if !d.other_effects.is_empty() {
        let _ = writeln!(out, "Memory effects: {}\n", effect_names(d.other_effects));
    }
    if d.loop_like.is_some() {
        let _ = writeln!(out, "Interfaces: LoopLikeOpInterface\n");
    }
    if !d.parents.is_empty() {
        let p: Vec<String> = d.parents.iter().map(|p| format!("`{p}`")).collect();
        let _ = writeln!(out, "Parent ops: {}\n", p.join(", "));
    }
    if !d.attributes.is_empty() {
        let _ = writeln!(out, "| Attribute | Constraint | |\n| --- | --- | --- |");
        for a in d.attributes {
            let note = if a.default.is_some() {
                "default-valued"
            } else if a.optional {
                "optional"
            } else {
                "required"
            };
            let _ = writeln!(out, "| `{}` | {} | {} |", a.name, a.constraint.summary, note);
        }
        out.push('\n');
    }
    for (title, groups) in [("Operand", d.operands), ("Result", d.results)] {
        if groups.is_empty() {
            continue;
        }
        let _ = writeln!(out, "| {title} | Type |\n| --- | --- |");
        for g in groups {
            let prefix = match g.arity {
                Arity::Single => "",
                Arity::Optional => "optional ",
                Arity::Variadic => "variadic of ",
            };
            let effects = if g.effects.is_empty() {
                String::new()
            } else {
                format!(" ({})", effect_names(g.effects))
            };
            let _ = writeln!(out, "| `{}` | {prefix}{}{effects} |", g.name, g.constraint.summary);
        }
        out.push('\n');
    }
    if !d.regions.is_empty() {
        let names: Vec<String> = d
            .regions
            .iter()
            .map(|r| {
                let kind = if r.single_block { "single block" } else { "any blocks" };
                format!("`{}` ({kind})", r.name)
            })
            .collect();
        let _ = writeln!(out, "Regions: {}\n", names.join(", "));
    }
    if !d.successors.is_empty() {
        let _ = writeln!(out, "Successors: {}\n", d.successors.join(", "));
    }
}
