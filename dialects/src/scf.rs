//! The `scf` dialect: structured control flow (`for`, `if`, `while`,
//! `execute_region`) with MLIR 22's syntax, properties and verifier messages.

use crate::support::op_error;
use lf_ir::diag::Diagnostic;
use lf_ir::ods::constraints::*;
use lf_ir::ods::{operand_group, prop, ArgDef, AttrDef, RegionDef, TypeRule};
use lf_ir::parser::{CustomParser, ParseResult, UnresolvedOperand};
use lf_ir::printer::{type_to_string, CustomPrinter};
use lf_ir::{Body, Context, Location, OpDef, OpId, Traits, Type};

/// Introduction of the op reference.
pub const INTRO: &str = "The `scf` dialect: structured control flow. Loops (`scf.for`, \
`scf.while`) and conditionals (`scf.if`) hold single-block regions ended by `scf.yield` \
(or `scf.condition`), which may be left out of the custom form when it yields nothing.";

/// Every op of the dialect.
pub static OPS: &[&OpDef] = &[&FOR, &IF, &WHILE, &CONDITION, &EXECUTE_REGION, &YIELD];

const ONE_BLOCK: RegionDef = RegionDef {
    name: "region",
    single_block: true,
    may_be_empty: false,
};

/// `scf.for`.
pub static FOR: OpDef = OpDef {
    summary: "for operation",
    description: "A loop from `lowerBound` to `upperBound` (exclusive) by `step`, all of one \
        index or signless integer type. The body's block arguments are the induction \
        variable and the loop-carried values (`iter_args`), initialized by `initArgs`; \
        `scf.yield` gives their next values, and the op's results are their final values. \
        `unsigned` compares the bounds as unsigned integers.\n\n\
        ```mlir\n%sum = scf.for %i = %lb to %ub step %s iter_args(%acc = %zero) -> (f32) {\n  \
        %n = arith.addf %acc, %x : f32\n  scf.yield %n : f32\n}\n```",
    traits: Traits::SINGLE_BLOCK.with(Traits::SINGLE_BLOCK_IMPLICIT_TERMINATOR),
    operands: &[
        ArgDef::one("lowerBound", &SIGNLESS_INTEGER_OR_INDEX),
        ArgDef::one("upperBound", &SIGNLESS_INTEGER_OR_INDEX),
        ArgDef::one("step", &SIGNLESS_INTEGER_OR_INDEX),
        ArgDef::variadic("initArgs", &ANY_TYPE),
    ],
    results: &[ArgDef::variadic("results", &ANY_TYPE)],
    attributes: &[AttrDef::optional("unsignedCmp", &UNIT_ATTR)],
    regions: &[ONE_BLOCK],
    type_rules: &[TypeRule::AllMatch(&["lowerBound", "upperBound", "step"])],
    parse: Some(parse_for),
    print: Some(print_for),
    verify: Some(verify_for),
    ..OpDef::declared("scf.for")
};

/// `scf.if`.
pub static IF: OpDef = OpDef {
    summary: "if-then-else operation",
    description: "Runs the `then` region if `condition` holds, else the `else` region (which \
        may be empty when the op has no results). Each region yields the op's results.\n\n\
        ```mlir\n%r = scf.if %c -> (i32) {\n  scf.yield %a : i32\n} else {\n  scf.yield %b : i32\n}\n```",
    traits: Traits::SINGLE_BLOCK.with(Traits::SINGLE_BLOCK_IMPLICIT_TERMINATOR),
    operands: &[ArgDef::one("condition", &I1)],
    results: &[ArgDef::variadic("results", &ANY_TYPE)],
    regions: &[
        RegionDef {
            name: "thenRegion",
            single_block: true,
            may_be_empty: false,
        },
        RegionDef {
            name: "elseRegion",
            single_block: true,
            may_be_empty: true,
        },
    ],
    parse: Some(parse_if),
    print: Some(print_if),
    verify: Some(verify_if),
    ..OpDef::declared("scf.if")
};

/// `scf.while`.
pub static WHILE: OpDef = OpDef {
    summary: "a generic 'while' loop",
    description: "A loop with a `before` region, which computes the condition and ends with \
        `scf.condition`, and an `after` region (the body), which ends with `scf.yield`. The \
        values forwarded by `scf.condition` are the `after` region's arguments, or the op's \
        results when the loop ends.\n\n\
        ```mlir\n%r = scf.while (%x = %init) : (i32) -> i32 {\n  \
        %c = \"test.cond\"(%x) : (i32) -> i1\n  scf.condition(%c) %x : i32\n} do {\n\
        ^bb0(%y: i32):\n  scf.yield %y : i32\n}\n```",
    operands: &[ArgDef::variadic("inits", &ANY_TYPE)],
    results: &[ArgDef::variadic("results", &ANY_TYPE)],
    regions: &[
        RegionDef {
            name: "before",
            single_block: false,
            may_be_empty: false,
        },
        RegionDef {
            name: "after",
            single_block: false,
            may_be_empty: false,
        },
    ],
    parse: Some(parse_while),
    print: Some(print_while),
    verify: Some(verify_while),
    ..OpDef::declared("scf.while")
};

/// `scf.condition`.
pub static CONDITION: OpDef = OpDef {
    summary: "loop continuation condition",
    description: "Ends the `before` region of `scf.while`: if `condition` holds, `args` go to \
        the `after` region, else they become the loop's results.\n\n\
        ```mlir\nscf.condition(%c) %x : i32\n```",
    traits: Traits::TERMINATOR.with(Traits::PURE),
    parents: &["scf.while"],
    operands: &[ArgDef::one("condition", &I1), ArgDef::variadic("args", &ANY_TYPE)],
    format: Some("`(` $condition `)` attr-dict ($args^ `:` type($args))?"),
    ..OpDef::declared("scf.condition")
};

/// `scf.execute_region`.
pub static EXECUTE_REGION: OpDef = OpDef {
    summary: "operation that executes its region exactly once",
    description: "Runs its region (which may have several blocks) once; the `scf.yield`s of \
        the region give the op's results. `no_inline` keeps it from being inlined.\n\n\
        ```mlir\n%r = scf.execute_region -> i32 {\n  scf.yield %a : i32\n}\n```",
    results: &[ArgDef::variadic("results", &ANY_TYPE)],
    attributes: &[AttrDef::optional("no_inline", &UNIT_ATTR)],
    regions: &[RegionDef {
        name: "region",
        single_block: false,
        may_be_empty: false,
    }],
    parse: Some(parse_execute_region),
    print: Some(print_execute_region),
    verify: Some(verify_execute_region),
    ..OpDef::declared("scf.execute_region")
};

/// `scf.yield`.
pub static YIELD: OpDef = OpDef {
    summary: "loop yield and termination operation",
    description: "Ends the regions of `scf.for`, `scf.if`, `scf.while` (`after` region) and \
        `scf.execute_region`, giving the values the parent op carries on or returns. \
        Without operands it may be left out of `scf.for` and `scf.if` bodies.\n\n\
        ```mlir\nscf.yield %a, %b : i32, f32\n```",
    traits: Traits::TERMINATOR.with(Traits::PURE).with(Traits::RETURN_LIKE),
    parents: &[
        "scf.execute_region",
        "scf.for",
        "scf.if",
        "scf.index_switch",
        "scf.while",
    ],
    operands: &[ArgDef::variadic("results", &ANY_TYPE)],
    format: Some("attr-dict ($results^ `:` type($results))?"),
    ..OpDef::declared("scf.yield")
};

type EntryArg<'a> = (UnresolvedOperand<'a>, Type, Location);

/// Parses `(%a = %x, %b = %y)` after the keyword (if any); returns the
/// region arguments and the initial values.
#[allow(clippy::type_complexity)]
fn parse_assignment_list<'a>(
    p: &mut CustomParser<'_, 'a>,
) -> ParseResult<(Vec<UnresolvedOperand<'a>>, Vec<UnresolvedOperand<'a>>)> {
    p.parse_literal("(")?;
    let (mut args, mut inits) = (Vec::new(), Vec::new());
    if p.parse_optional_literal(")") {
        return Ok((args, inits));
    }
    loop {
        args.push(p.parse_operand()?);
        p.parse_literal("=")?;
        inits.push(p.parse_operand()?);
        if !p.parse_optional_literal(",") {
            break;
        }
    }
    p.parse_literal(")")?;
    Ok((args, inits))
}

/// `-> (t, ...)` or `-> t` if an arrow is next.
fn parse_optional_arrow_types(p: &mut CustomParser<'_, '_>) -> ParseResult<Vec<Type>> {
    if !p.parse_optional_literal("->") {
        return Ok(Vec::new());
    }
    if p.parse_optional_literal("(") {
        let v = p.parse_type_list()?;
        p.parse_literal(")")?;
        return Ok(v);
    }
    Ok(vec![p.parse_type()?])
}

fn print_assignment_list(p: &mut CustomPrinter<'_, '_>, args: &[lf_ir::Value], inits: &[lf_ir::Value]) {
    p.write("(");
    for (i, (a, v)) in args.iter().zip(inits).enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.value(*a);
        p.write(" = ");
        p.value(*v);
    }
    p.write(")");
}

fn result_types(body: &Body, op: OpId) -> Vec<Type> {
    body.results(op).map(|v| body.value_type(v)).collect()
}

fn entry_args(body: &Body, op: OpId, index: usize) -> Vec<lf_ir::Value> {
    let rb = body.regions_body(op);
    rb.entry_block(body.region(op, index))
        .map(|b| rb.block_args(b).to_vec())
        .unwrap_or_default()
}

// ------------------------------------------------------------------ scf.for

fn parse_for(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    if p.parse_optional_keyword("unsigned") {
        p.set_prop("unsignedCmp", ctx.get_attr(lf_ir::AttrData::Unit));
    }
    let iv = p.parse_operand()?;
    p.parse_literal("=")?;
    let lb = p.parse_operand()?;
    p.parse_keyword("to")?;
    let ub = p.parse_operand()?;
    p.parse_keyword("step")?;
    let step = p.parse_operand()?;
    let (mut args, mut inits, mut types) = (Vec::new(), Vec::new(), Vec::new());
    if p.parse_optional_keyword("iter_args") {
        (args, inits) = parse_assignment_list(p)?;
        types = parse_optional_arrow_types(p)?;
    }
    if args.len() != types.len() {
        return Err(p.error("mismatch in number of loop-carried values and defined values"));
    }
    let ty = if p.parse_optional_literal(":") {
        p.parse_type()?
    } else {
        ctx.common().index
    };
    p.add_operand(lb, ty)?;
    p.add_operand(ub, ty)?;
    p.add_operand(step, ty)?;
    for (r, t) in inits.iter().zip(&types) {
        p.add_operand(*r, *t)?;
    }
    p.add_result_types(&types);
    let mut entry: Vec<EntryArg<'_>> = vec![(iv, ty, p.operand_loc(&iv))];
    for (a, t) in args.iter().zip(&types) {
        entry.push((*a, *t, p.operand_loc(a)));
    }
    let r = p.parse_region(&entry)?;
    p.ensure_terminator(r, "scf.yield");
    p.parse_optional_attr_dict()?;
    Ok(())
}

fn print_for(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    let args = entry_args(body, op, 0);
    p.write(" ");
    if prop(ctx, body, op, "unsignedCmp").is_some() {
        p.write("unsigned ");
    }
    let ops: Vec<_> = body.operands(op).collect();
    if let Some(iv) = args.first() {
        p.value(*iv);
    }
    p.write(" = ");
    p.value(ops[0]);
    p.write(" to ");
    p.value(ops[1]);
    p.write(" step ");
    p.value(ops[2]);
    let inits = &ops[3..];
    if !inits.is_empty() {
        p.write(" iter_args");
        print_assignment_list(p, args.get(1..).unwrap_or(&[]), inits);
        p.write(" -> (");
        let tys: Vec<Type> = inits.iter().map(|v| body.value_type(*v)).collect();
        p.type_list(&tys);
        p.write(")");
    }
    let ivt = body.value_type(ops[0]);
    if !ctx.type_data(ivt).is_index() {
        p.write("  : ");
        p.ty(ivt);
    }
    p.write(" ");
    p.region(op, 0, false, !inits.is_empty());
    p.attr_dict_with_props(op, &["unsignedCmp"], false);
    Ok(())
}

/// The operands of the terminator of the single block of region `index`.
fn yield_types(body: &Body, op: OpId, index: usize) -> Option<(OpId, Vec<Type>)> {
    let rb = body.regions_body(op);
    let b = rb.entry_block(body.region(op, index))?;
    let t = rb.last_op(b)?;
    Some((t, rb.operands(t).map(|v| rb.value_type(v)).collect()))
}

/// MLIR's check of a region's terminator operands against the parent's
/// results (RegionBranchOpInterface).
fn check_yield(
    ctx: &Context,
    body: &Body,
    op: OpId,
    index: usize,
    results: &[Type],
    edge: &str,
) -> Result<(), Diagnostic> {
    let Some((t, tys)) = yield_types(body, op, index) else {
        return Ok(());
    };
    if ctx.op_name_str(body.op_name(t)) != "scf.yield" {
        return Ok(());
    }
    if tys.len() != results.len() {
        return Err(op_error(
            ctx,
            body,
            op,
            format!(
                " along control flow edge from {edge} to parent results: source has {} operands, but target successor <to parent> needs {}",
                tys.len(),
                results.len()
            ),
        ));
    }
    for (i, (a, b)) in tys.iter().zip(results).enumerate() {
        if a != b {
            return Err(op_error(
                ctx,
                body,
                op,
                format!(
                    " along control flow edge from {edge} to parent results: source type #{i} {} should match input type #{i} {}",
                    type_to_string(ctx, *a),
                    type_to_string(ctx, *b)
                ),
            ));
        }
    }
    Ok(())
}

fn verify_for(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let err = |m: String| Err(op_error(ctx, body, op, m));
    let inits = operand_group(ctx, body, op, "initArgs");
    let results = result_types(body, op);
    if inits.len() != results.len() {
        return err("mismatch in number of loop-carried values and defined values".into());
    }
    let args = entry_args(body, op, 0);
    let rb = body.regions_body(op);
    let lbt = body.value_type(body.operand(op, 0));
    if args.is_empty() || rb.value_type(args[0]) != lbt {
        return err("expected induction variable to be same type as bounds and step".into());
    }
    if args.len() - 1 != results.len() {
        return err("mismatch in number of basic block args and defined values".into());
    }
    for (i, ((init, arg), res)) in inits.iter().zip(&args[1..]).zip(&results).enumerate() {
        if body.value_type(*init) != *res {
            return err(format!("types mismatch between {i}th iter operand and defined value"));
        }
        if rb.value_type(*arg) != *res {
            return err(format!(
                "types mismatch between {i}th iter region arg and defined value"
            ));
        }
    }
    check_yield(ctx, body, op, 0, &results, "Region #0")
}

// ------------------------------------------------------------------- scf.if

fn parse_if(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    let c = p.parse_operand()?;
    p.add_operand(c, ctx.common().i1)?;
    let types = parse_optional_arrow_types(p)?;
    p.add_result_types(&types);
    let r = p.parse_region(&[])?;
    p.ensure_terminator(r, "scf.yield");
    if p.parse_optional_keyword("else") {
        let r = p.parse_region(&[])?;
        p.ensure_terminator(r, "scf.yield");
    } else {
        p.add_empty_region();
    }
    p.parse_optional_attr_dict()?;
    Ok(())
}

fn print_if(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let body = p.body();
    p.write(" ");
    p.value(body.operand(op, 0));
    let results = result_types(body, op);
    if !results.is_empty() {
        p.write(" -> (");
        p.type_list(&results);
        p.write(")");
    }
    p.write(" ");
    p.region(op, 0, false, !results.is_empty());
    if body.num_regions(op) > 1 && !body.regions_body(op).region_is_empty(body.region(op, 1)) {
        p.write(" else ");
        p.region(op, 1, false, !results.is_empty());
    }
    p.attr_dict_with_props(op, &[], false);
    Ok(())
}

fn verify_if(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let results = result_types(body, op);
    let else_empty = body.regions_body(op).region_is_empty(body.region(op, 1));
    if !results.is_empty() && else_empty {
        return Err(op_error(ctx, body, op, "must have an else block if defining values"));
    }
    check_yield(ctx, body, op, 0, &results, "Region #0")?;
    if !else_empty {
        check_yield(ctx, body, op, 1, &results, "Region #1")?;
    }
    Ok(())
}

// ---------------------------------------------------------------- scf.while

fn parse_while(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let (args, inits) = if p.at_literal("(") {
        parse_assignment_list(p)?
    } else {
        (Vec::new(), Vec::new())
    };
    p.parse_literal(":")?;
    let (inputs, outputs) = p.parse_function_type_parts()?;
    if inputs.len() != inits.len() {
        return Err(p.error(format!(
            "expected as many input types as operands (expected {} got {})",
            inits.len(),
            inputs.len()
        )));
    }
    for (r, t) in inits.iter().zip(&inputs) {
        p.add_operand(*r, *t)?;
    }
    p.add_result_types(&outputs);
    let entry: Vec<EntryArg<'_>> = args
        .iter()
        .zip(&inputs)
        .map(|(a, t)| (*a, *t, p.operand_loc(a)))
        .collect();
    p.parse_region(&entry)?;
    p.parse_keyword("do")?;
    p.parse_region(&[])?;
    p.parse_optional_attr_dict_with_keyword()?;
    Ok(())
}

fn print_while(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let body = p.body();
    let inits: Vec<_> = body.operands(op).collect();
    let args = entry_args(body, op, 0);
    p.write(" ");
    if !inits.is_empty() {
        print_assignment_list(p, &args, &inits);
        p.write(" ");
    }
    p.write(": ");
    let in_tys: Vec<Type> = inits.iter().map(|v| body.value_type(*v)).collect();
    p.functional_type(&in_tys, &result_types(body, op));
    p.write(" ");
    p.region(op, 0, false, true);
    p.write(" do ");
    p.region(op, 1, true, true);
    p.attr_dict_with_props(op, &[], true);
    Ok(())
}

fn verify_while(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let rb = body.regions_body(op);
    let before = body.region(op, 0);
    if let Some(b) = rb.region_blocks(before).last() {
        if let Some(t) = rb.last_op(b) {
            if ctx.op_name_str(rb.op_name(t)) != "scf.condition" {
                return Err(op_error(
                    ctx,
                    body,
                    op,
                    "expects the 'before' region to terminate with 'scf.condition'",
                ));
            }
        }
    }
    let after = body.region(op, 1);
    for b in rb.region_blocks(after) {
        if let Some(t) = rb.last_op(b) {
            if ctx.op_name_str(rb.op_name(t)) != "scf.yield" && ctx.op_def(rb.op_name(t)).is_some() {
                return Err(op_error(
                    ctx,
                    body,
                    op,
                    "expects the 'after' region to terminate with 'scf.yield'",
                ));
            }
        }
    }
    Ok(())
}

// ------------------------------------------------------- scf.execute_region

fn parse_execute_region(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let types = parse_optional_arrow_types(p)?;
    p.add_result_types(&types);
    if p.parse_optional_keyword("no_inline") {
        let ctx = p.ctx();
        p.set_prop("no_inline", ctx.get_attr(lf_ir::AttrData::Unit));
    }
    p.parse_region(&[])?;
    p.parse_optional_attr_dict_with_keyword()?;
    Ok(())
}

fn print_execute_region(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    let results = result_types(body, op);
    if !results.is_empty() {
        p.write(" -> ");
        let parens = results.len() > 1 || matches!(ctx.type_data(results[0]), lf_ir::TypeData::Function { .. });
        if parens {
            p.write("(");
        }
        p.type_list(&results);
        if parens {
            p.write(")");
        }
    }
    if prop(ctx, body, op, "no_inline").is_some() {
        p.write(" no_inline");
    }
    p.write(" ");
    p.region(op, 0, false, true);
    p.attr_dict_with_props(op, &["no_inline"], true);
    Ok(())
}

fn verify_execute_region(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let rb = body.regions_body(op);
    let r = body.region(op, 0);
    if rb.region_is_empty(r) {
        return Err(op_error(ctx, body, op, "region needs to have at least one block"));
    }
    if rb.entry_block(r).is_some_and(|b| !rb.block_args(b).is_empty()) {
        return Err(op_error(ctx, body, op, "region cannot have any arguments"));
    }
    Ok(())
}
