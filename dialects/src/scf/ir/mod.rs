//! The `scf` dialect: structured control flow (`for`, `if`, `while`,
//! `execute_region`, `parallel`/`reduce`) with MLIR 22's syntax, properties and verifier messages.

#[rustfmt::skip]
mod views;
pub use views::*;

pub mod canonicalize;
mod ops;

pub use ops::{FOR_LOOP_LIKE, PARALLEL_LOOP_LIKE, WHILE_LOOP_LIKE};

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
(or `scf.condition`), which may be left out of the custom form when it yields nothing.\n\n\
**`lf.merge_loop = N`** (lf's discardable attribute, on an `scf.for`, `scf.while` or `affine.for` inside \
a GPU kernel; written after the loop's region, `} {lf.merge_loop = 1 : i64}` or `} attributes \
{lf.merge_loop = 2 : i64}` for `scf.while`): the `.lfir` form of seed 001's `#pragma merge loop(N)`. \
`loop-merge` merges the loop with its N enclosing loops (an integer from 1 to 64; any other value is an \
error) into one `scf.while` and drops the attribute; other passes keep it as it is \
(`docs/design/loop-merge.md`).";

/// Every op of the dialect.
pub static OPS: &[&OpDef] = &[
    &FOR,
    &IF,
    &WHILE,
    &CONDITION,
    &EXECUTE_REGION,
    &YIELD,
    &PARALLEL,
    &REDUCE,
    &REDUCE_RETURN,
];

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
    traits: Traits::SINGLE_BLOCK
        .with(Traits::SINGLE_BLOCK_IMPLICIT_TERMINATOR)
        .with(Traits::RECURSIVE_MEMORY_EFFECTS),
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
    loop_like: Some(&ops::FOR_LOOP_LIKE),
    ..OpDef::declared("scf.for")
};

/// `scf.if`.
pub static IF: OpDef = OpDef {
    summary: "if-then-else operation",
    description: "Runs the `then` region if `condition` holds, else the `else` region (which \
        may be empty when the op has no results). Each region yields the op's results.\n\n\
        ```mlir\n%r = scf.if %c -> (i32) {\n  scf.yield %a : i32\n} else {\n  scf.yield %b : i32\n}\n```",
    traits: Traits::SINGLE_BLOCK
        .with(Traits::SINGLE_BLOCK_IMPLICIT_TERMINATOR)
        .with(Traits::RECURSIVE_MEMORY_EFFECTS),
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
    traits: Traits::RECURSIVE_MEMORY_EFFECTS,
    loop_like: Some(&ops::WHILE_LOOP_LIKE),
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
    traits: Traits::RECURSIVE_MEMORY_EFFECTS,
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

/// The terminator of the last block of region `index`, if any.
fn region_terminator(body: &Body, op: OpId, index: usize) -> Option<OpId> {
    let rb = body.regions_body(op);
    let b = rb.region_blocks(body.region(op, index)).last()?;
    rb.last_op(b)
}

fn quoted(ctx: &Context, t: Type) -> String {
    format!("'{}'", type_to_string(ctx, t))
}

/// MLIR 22's RegionBranchOpInterface check of one control flow edge: the
/// operands of terminator `term` (in the op's regions) against the inputs of
/// the successor `to` (`parent` or `Region #N`), with a note at the terminator.
fn check_edge(ctx: &Context, body: &Body, op: OpId, term: OpId, to: &str, inputs: &[Type]) -> Result<(), Diagnostic> {
    let rb = body.regions_body(op);
    let name = ctx.op_name_str(rb.op_name(term));
    let tys: Vec<Type> = rb.operands(term).map(|v| rb.value_type(v)).collect();
    let fail = |msg: String| {
        Err(op_error(
            ctx,
            body,
            op,
            format!("along control flow edge from Operation {name} to {to}: {msg}"),
        )
        .with_note(rb.op_loc(term).source_pos(ctx), "region branch point".to_string()))
    };
    if tys.len() != inputs.len() {
        return fail(format!(
            "region branch point has {} operands, but region successor needs {} inputs",
            tys.len(),
            inputs.len()
        ));
    }
    for (i, (a, b)) in tys.iter().zip(inputs).enumerate() {
        if a != b {
            return fail(format!(
                "successor operand type #{i} {} should match successor input type #{i} {}",
                quoted(ctx, *a),
                quoted(ctx, *b)
            ));
        }
    }
    Ok(())
}

/// The edge from the `scf.yield` ending region `index` (if it ends so) to `to`.
fn check_yield_edge(
    ctx: &Context,
    body: &Body,
    op: OpId,
    index: usize,
    to: &str,
    inputs: &[Type],
) -> Result<(), Diagnostic> {
    match region_terminator(body, op, index) {
        Some(t) if ctx.op_name_str(body.regions_body(op).op_name(t)) == "scf.yield" => {
            check_edge(ctx, body, op, t, to, inputs)
        }
        _ => Ok(()),
    }
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
    // LoopLikeOpInterface.
    let iter_args = args.get(1..).unwrap_or(&[]);
    if inits.len() != iter_args.len() {
        return err(format!(
            "different number of inits and region iter_args: {} != {}",
            inits.len(),
            iter_args.len()
        ));
    }
    let yielded: Vec<Type> = region_terminator(body, op, 0)
        .filter(|t| ctx.op_name_str(rb.op_name(*t)) == "scf.yield")
        .map(|t| rb.operands(t).map(|v| rb.value_type(v)).collect())
        .unwrap_or_default();
    if !yielded.is_empty() && yielded.len() != iter_args.len() {
        return err(format!(
            "different number of region iter_args and yielded values: {} != {}",
            iter_args.len(),
            yielded.len()
        ));
    }
    let arg_tys: Vec<Type> = iter_args.iter().map(|a| rb.value_type(*a)).collect();
    for (i, (init, a)) in inits.iter().zip(&arg_tys).enumerate() {
        let t = body.value_type(*init);
        if t != *a {
            return err(format!(
                "{i}-th init and {i}-th region iter_arg have different type: {} != {}",
                quoted(ctx, t),
                quoted(ctx, *a)
            ));
        }
    }
    for (i, (a, y)) in arg_tys.iter().zip(&yielded).enumerate() {
        if a != y {
            return err(format!(
                "{i}-th region iter_arg and {i}-th yielded value have different type: {} != {}",
                quoted(ctx, *a),
                quoted(ctx, *y)
            ));
        }
    }
    for (i, (a, r)) in arg_tys.iter().zip(&results).enumerate() {
        if a != r {
            return err(format!(
                "{i}-th region iter_arg and {i}-th loop result have different type: {} != {}",
                quoted(ctx, *a),
                quoted(ctx, *r)
            ));
        }
    }
    let lbt = body.value_type(body.operand(op, 0));
    if args.is_empty() || rb.value_type(args[0]) != lbt {
        return err("expected induction variable to be same type as bounds and step".into());
    }
    check_yield_edge(ctx, body, op, 0, "Region #0", &arg_tys)?;
    check_yield_edge(ctx, body, op, 0, "parent", &results)
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
    check_yield_edge(ctx, body, op, 0, "parent", &results)?;
    if !else_empty {
        check_yield_edge(ctx, body, op, 1, "parent", &results)?;
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
    let expect = |index: usize, name: &str, what: &str| -> Result<Option<OpId>, Diagnostic> {
        match region_terminator(body, op, index) {
            Some(t) if ctx.op_name_str(rb.op_name(t)) == name => Ok(Some(t)),
            Some(t) => Err(op_error(
                ctx,
                body,
                op,
                format!("expects the '{what}' region to terminate with '{name}'"),
            )
            .with_note(rb.op_loc(t).source_pos(ctx), "terminator here".to_string())),
            None => Ok(None),
        }
    };
    let cond = expect(0, "scf.condition", "before")?;
    let yld = expect(1, "scf.yield", "after")?;
    let arg_types = |index: usize| -> Vec<Type> {
        rb.entry_block(body.region(op, index))
            .map(|b| rb.block_args(b).iter().map(|a| rb.value_type(*a)).collect())
            .unwrap_or_default()
    };
    if let Some(c) = cond {
        // The condition operand itself is not forwarded.
        let fwd: Vec<Type> = rb.operands(c).skip(1).map(|v| rb.value_type(v)).collect();
        let results = result_types(body, op);
        let after = arg_types(1);
        for (to, inputs) in [("parent", &results), ("Region #1", &after)] {
            let fail = |msg: String| {
                Err(op_error(
                    ctx,
                    body,
                    op,
                    format!("along control flow edge from Operation scf.condition to {to}: {msg}"),
                )
                .with_note(rb.op_loc(c).source_pos(ctx), "region branch point".to_string()))
            };
            if fwd.len() != inputs.len() {
                return fail(format!(
                    "region branch point has {} operands, but region successor needs {} inputs",
                    fwd.len(),
                    inputs.len()
                ));
            }
            for (i, (a, b)) in fwd.iter().zip(inputs.iter()).enumerate() {
                if a != b {
                    return fail(format!(
                        "successor operand type #{i} {} should match successor input type #{i} {}",
                        quoted(ctx, *a),
                        quoted(ctx, *b)
                    ));
                }
            }
        }
    }
    if let Some(y) = yld {
        check_edge(ctx, body, op, y, "Region #0", &arg_types(0))?;
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
    let results = result_types(body, op);
    for b in rb.region_blocks(r) {
        if let Some(t) = rb.last_op(b).filter(|t| ctx.op_name_str(rb.op_name(*t)) == "scf.yield") {
            check_edge(ctx, body, op, t, "parent", &results)?;
        }
    }
    Ok(())
}

// ------------------------------------------------------------- scf.parallel

/// `scf.parallel`.
pub static PARALLEL: OpDef = OpDef {
    summary: "parallel for operation",
    description: "A parallel loop nest: one induction variable per tuple element of \
        `lowerBound`, `upperBound` and `step` (all `index`). Iterations may run in any order. \
        The body ends with `scf.reduce`, whose operands (one per `initVals` value) are combined \
        across iterations by its reduction regions into the op's results; without results the \
        terminator is a plain `scf.reduce`.\n\n\
        ```mlir\n%sum = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) init (%zero) -> f32 {\n  \
        %x = memref.load %A[%i, %j] : memref<?x?xf32>\n  scf.reduce(%x : f32) {\n  \
        ^bb0(%a: f32, %b: f32):\n    %s = arith.addf %a, %b : f32\n    scf.reduce.return %s : f32\n  }\n}\n```",
    traits: Traits::SINGLE_BLOCK
        .with(Traits::SINGLE_BLOCK_IMPLICIT_TERMINATOR)
        .with(Traits::RECURSIVE_MEMORY_EFFECTS),
    operands: &[
        ArgDef::variadic("lowerBound", &INDEX),
        ArgDef::variadic("upperBound", &INDEX),
        ArgDef::variadic("step", &INDEX),
        ArgDef::variadic("initVals", &ANY_TYPE),
    ],
    results: &[ArgDef::variadic("results", &ANY_TYPE)],
    regions: &[ONE_BLOCK],
    parse: Some(parse_parallel),
    print: Some(print_parallel),
    verify: Some(verify_parallel),
    loop_like: Some(&ops::PARALLEL_LOOP_LIKE),
    ..OpDef::declared("scf.parallel")
};

/// `scf.reduce`.
pub static REDUCE: OpDef = OpDef {
    summary: "reduce operation for scf.parallel",
    description: "Ends the body of `scf.parallel`. Each operand is reduced across the \
        iterations by the matching region, whose block takes two values of the operand's \
        type and ends with `scf.reduce.return` of the combined value. Without operands it \
        has no regions.\n\n```mlir\nscf.reduce(%x, %n : f32, i32) {\n^bb0(%a: f32, %b: f32):\n  \
        %s = arith.addf %a, %b : f32\n  scf.reduce.return %s : f32\n}, {\n^bb0(%a: i32, %b: i32):\n  \
        %m = arith.maxsi %a, %b : i32\n  scf.reduce.return %m : i32\n}\n```",
    traits: Traits::TERMINATOR,
    parents: &["scf.parallel"],
    operands: &[ArgDef::variadic("operands", &ANY_TYPE)],
    parse: Some(parse_reduce),
    print: Some(print_reduce),
    verify: Some(verify_reduce),
    // The regions are variadic (one per operand): counted by `verify_reduce`.
    ..OpDef::new("scf.reduce")
};

/// `scf.reduce.return`.
pub static REDUCE_RETURN: OpDef = OpDef {
    summary: "terminator for reduce operation",
    description: "Ends a reduction region of `scf.reduce` with the combined value, of the \
        type of the region's arguments.\n\n```mlir\nscf.reduce.return %s : f32\n```",
    traits: Traits::TERMINATOR.with(Traits::PURE),
    parents: &["scf.reduce"],
    operands: &[ArgDef::one("result", &ANY_TYPE)],
    format: Some("$result attr-dict `:` type($result)"),
    verify: Some(verify_reduce_return),
    ..OpDef::declared("scf.reduce.return")
};

/// Parses `(%a, ...)` with exactly `n` operands (any number when `None`).
fn parse_paren_operands<'a>(p: &mut CustomParser<'_, 'a>, n: Option<usize>) -> ParseResult<Vec<UnresolvedOperand<'a>>> {
    // MLIR reports a wrong count at the opening parenthesis.
    let count_error = n.map(|n| p.error(format!("expected {n} operands")));
    p.parse_literal("(")?;
    let v = p.parse_operand_list()?;
    p.parse_literal(")")?;
    if let (Some(n), Some(e)) = (n, count_error) {
        if v.len() != n {
            return Err(e);
        }
    }
    Ok(v)
}

/// An error at the op's name (where MLIR reports what it checks after parsing).
fn error_at_op(p: &CustomParser<'_, '_>, msg: String) -> lf_ir::parser::ParseError {
    Box::new(Diagnostic::error(p.op_loc().source_pos(p.ctx()), msg))
}

fn parse_parallel(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    let index = ctx.common().index;
    let ivs = parse_paren_operands(p, None)?;
    p.parse_literal("=")?;
    let lbs = parse_paren_operands(p, Some(ivs.len()))?;
    p.parse_keyword("to")?;
    let ubs = parse_paren_operands(p, Some(ivs.len()))?;
    p.parse_keyword("step")?;
    let steps = parse_paren_operands(p, Some(ivs.len()))?;
    let inits = if p.parse_optional_keyword("init") {
        parse_paren_operands(p, None)?
    } else {
        Vec::new()
    };
    let types = parse_optional_arrow_types(p)?;
    for r in lbs.iter().chain(&ubs).chain(&steps) {
        p.add_operand(*r, index)?;
    }
    let entry: Vec<EntryArg<'_>> = ivs.iter().map(|a| (*a, index, p.operand_loc(a))).collect();
    let r = p.parse_region(&entry)?;
    p.set_prop(
        "operandSegmentSizes",
        lf_ir::ods::segment_sizes_attr(ctx, &[lbs.len(), ubs.len(), steps.len(), inits.len()]),
    );
    p.parse_optional_attr_dict()?;
    if inits.len() != types.len() {
        return Err(error_at_op(
            p,
            format!(
                "number of operands and types do not match: got {} operands and {} types",
                inits.len(),
                types.len()
            ),
        ));
    }
    for (r, t) in inits.iter().zip(&types) {
        p.add_operand(*r, *t)?;
    }
    p.add_result_types(&types);
    p.ensure_terminator(r, "scf.reduce");
    Ok(())
}

fn print_parallel(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    let ivs = entry_args(body, op, 0);
    p.write(" (");
    p.value_list(&ivs);
    p.write(") = (");
    p.value_list(&operand_group(ctx, body, op, "lowerBound"));
    p.write(") to (");
    p.value_list(&operand_group(ctx, body, op, "upperBound"));
    p.write(") step (");
    p.value_list(&operand_group(ctx, body, op, "step"));
    p.write(")");
    let inits = operand_group(ctx, body, op, "initVals");
    if !inits.is_empty() {
        p.write(" init (");
        p.value_list(&inits);
        p.write(")");
    }
    print_optional_arrow_types(p, &result_types(body, op));
    p.write(" ");
    p.region(op, 0, false, true);
    p.attr_dict_with_props(op, &["operandSegmentSizes"], false);
    Ok(())
}

/// MLIR's `printOptionalArrowTypeList`: ` -> t` or ` -> (t, u)`, nothing when empty.
fn print_optional_arrow_types(p: &mut CustomPrinter<'_, '_>, types: &[Type]) {
    if types.is_empty() {
        return;
    }
    p.write(" -> ");
    let parens = types.len() > 1 || matches!(p.ctx().type_data(types[0]), lf_ir::TypeData::Function { .. });
    if parens {
        p.write("(");
    }
    p.type_list(types);
    if parens {
        p.write(")");
    }
}

fn verify_parallel(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let err = |m: String| Err(op_error(ctx, body, op, m));
    let steps = operand_group(ctx, body, op, "step");
    if steps.is_empty() {
        return err("needs at least one tuple element for lowerBound, upperBound and step".into());
    }
    for s in &steps {
        if let Some(c) = crate::fold::constant_value(ctx, body, *s) {
            if lf_ir::ods::constraints::int_value(ctx, c).is_some_and(|v| v <= 0) {
                return err("constant step operand must be positive".into());
            }
        }
    }
    let rb = body.regions_body(op);
    let ivs = entry_args(body, op, 0);
    if ivs.len() != steps.len() {
        return err(format!(
            "expects the same number of induction variables: {} as bound and step values: {}",
            ivs.len(),
            steps.len()
        ));
    }
    if ivs.iter().any(|v| !ctx.type_data(rb.value_type(*v)).is_index()) {
        return err("expects arguments for the induction variable to be of index type".into());
    }
    let Some(block) = rb.entry_block(body.region(op, 0)) else {
        return Ok(());
    };
    let reduce = match rb.last_op(block) {
        Some(t) if ctx.op_name_str(rb.op_name(t)) == "scf.reduce" => t,
        Some(t) => {
            return Err(op_error(ctx, body, op, "expects body to terminate with 'scf.reduce'")
                .with_note(rb.op_loc(t).source_pos(ctx), "terminator here".to_string()))
        }
        None => return Ok(()),
    };
    let results = result_types(body, op);
    let reductions = rb.num_regions(reduce);
    let inits = operand_group(ctx, body, op, "initVals");
    if results.len() != reductions {
        return err(format!(
            "expects number of results: {} to be the same as number of reductions: {reductions}",
            results.len()
        ));
    }
    if results.len() != inits.len() {
        return err(format!(
            "expects number of results: {} to be the same as number of initial values: {}",
            results.len(),
            inits.len()
        ));
    }
    if rb.num_operands(reduce) != inits.len() {
        return Ok(());
    }
    for (i, (r, v)) in results.iter().zip(rb.operands(reduce)).enumerate() {
        let t = rb.value_type(v);
        if *r != t {
            return Err(op_error(
                ctx,
                rb,
                reduce,
                format!(
                    "expects type of {i}-th reduction operand: {} to be the same as the {i}-th result type: {}",
                    quoted(ctx, t),
                    quoted(ctx, *r)
                ),
            ));
        }
    }
    Ok(())
}

fn parse_reduce(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    if p.parse_optional_literal("(") {
        let ops = p.parse_operand_list()?;
        p.parse_literal(":")?;
        let types = p.parse_type_list()?;
        p.parse_literal(")")?;
        if ops.len() != types.len() {
            return Err(p.error(format!("{} operands present, but expected {}", ops.len(), types.len())));
        }
        for (r, t) in ops.iter().zip(&types) {
            p.add_operand(*r, *t)?;
        }
    }
    if p.at_literal("{") {
        loop {
            p.parse_region(&[])?;
            if !p.parse_optional_literal(",") {
                break;
            }
        }
    }
    p.parse_optional_attr_dict()?;
    Ok(())
}

fn print_reduce(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let body = p.body();
    let ops: Vec<_> = body.operands(op).collect();
    if !ops.is_empty() {
        p.write("(");
        p.value_list(&ops);
        p.write(" : ");
        let tys: Vec<Type> = ops.iter().map(|v| body.value_type(*v)).collect();
        p.type_list(&tys);
        p.write(")");
    }
    // As mlir-tblgen's printer: a space before the (possibly empty) region list.
    p.write(" ");
    for i in 0..body.num_regions(op) {
        if i > 0 {
            p.write(", ");
        }
        p.region(op, i, true, true);
    }
    p.attr_dict_with_props(op, &[], false);
    Ok(())
}

fn verify_reduce(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let err = |m: String| Err(op_error(ctx, body, op, m));
    let n = body.num_regions(op);
    let operands: Vec<_> = body.operands(op).collect();
    if n != operands.len() {
        return err(format!(
            "expects number of reduction regions: {n} to be the same as number of reduction operands: {}",
            operands.len()
        ));
    }
    let rb = body.regions_body(op);
    for (i, v) in operands.iter().enumerate() {
        let ty = body.value_type(*v);
        let r = body.region(op, i);
        let Some(block) = rb.entry_block(r) else {
            return err(format!("{i}-th reduction has an empty body"));
        };
        if rb.region_blocks(r).nth(1).is_some() {
            return err("expects region to have 0 or 1 blocks".into());
        }
        if rb.first_op(block).is_none() {
            // The region verifier reports it first ("empty block: expect at least a terminator").
            return Ok(());
        }
        let args = rb.block_args(block);
        if args.len() != 2 || args.iter().any(|a| rb.value_type(*a) != ty) {
            return err(format!(
                "expected two block arguments with type {} in the {i}-th reduction region",
                quoted(ctx, ty)
            ));
        }
        let last = rb.last_op(block).expect("non-empty block");
        if ctx.op_name_str(rb.op_name(last)) != "scf.reduce.return" {
            return err("reduction bodies must be terminated with an 'scf.reduce.return' op".into());
        }
    }
    Ok(())
}

fn verify_reduce_return(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let Some(block) = body.op_block(op) else {
        return Ok(());
    };
    let Some(&first) = body.block_args(block).first() else {
        return Ok(());
    };
    let expected = body.value_type(first);
    let got = body.value_type(body.operand(op, 0));
    if expected != got {
        return Err(op_error(
            ctx,
            body,
            op,
            format!(
                "must have type {} (the type of the reduction inputs)",
                quoted(ctx, expected)
            ),
        ));
    }
    Ok(())
}
