//! The `func` dialect: functions, calls and returns, with MLIR 22's syntax,
//! properties and verifier messages.

#[rustfmt::skip]
mod views;
pub use views::*;

mod ops;

use crate::support::op_error;
use lf_ir::attrs::AttrData;
use lf_ir::diag::Diagnostic;
use lf_ir::ods::constraints::*;
use lf_ir::ods::{prop, ArgDef, AttrDef, RegionDef};
use lf_ir::parser::{CustomParser, ParseResult, UnresolvedOperand};
use lf_ir::printer::{type_to_string, CustomPrinter};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Attribute, Body, Context, Location, OpDef, OpId, OpName, Traits, Type, TypeData};

/// Introduction of the op reference.
pub const INTRO: &str = "The `func` dialect: function definitions and declarations (`func.func`), \
direct and indirect calls, function constants and `func.return`. Inside a `func.func` body the \
`func.` prefix may be left out (`return`, `call`), as in MLIR.";

/// Every op of the dialect.
pub static OPS: &[&OpDef] = &[&FUNC, &RETURN, &CALL, &CALL_INDIRECT, &CONSTANT];

/// `func.func`.
pub static FUNC: OpDef = OpDef {
    summary: "An operation with a name containing a single `SSACFG` region",
    description: "A function: a symbol with a `function_type`, optional argument and result \
        attributes, and a body region whose entry block arguments are the function's \
        arguments. A function without a body is a declaration (it must not be public).\n\n\
        ```mlir\nfunc.func private @decl(i32, f32 {test.a}) -> (i32 {test.b})\n\
        func.func @f(%arg0: i32) -> i32 attributes {test.x} {\n  return %arg0 : i32\n}\n```",
    traits: Traits::ISOLATED_FROM_ABOVE.with(Traits::SYMBOL),
    attributes: &[
        AttrDef::required("sym_name", &STRING_ATTR),
        AttrDef::required("function_type", &FUNCTION_TYPE_ATTR),
        AttrDef::optional("sym_visibility", &STRING_ATTR),
        AttrDef::optional("arg_attrs", &DICT_ARRAY_ATTR),
        AttrDef::optional("res_attrs", &DICT_ARRAY_ATTR),
        AttrDef::optional("no_inline", &UNIT_ATTR),
    ],
    regions: &[RegionDef {
        name: "body",
        single_block: false,
        may_be_empty: true,
    }],
    parse: Some(parse_func),
    print: Some(print_func),
    verify: Some(verify_func),
    verify_regions: Some(verify_symbol_uses),
    ..OpDef::declared("func.func")
};

/// `func.return`.
pub static RETURN: OpDef = OpDef {
    summary: "Function return operation",
    description: "Ends a function body, returning its operands, whose types must be the \
        function's result types.\n\n```mlir\nfunc.return %a, %b : i32, f32\n```",
    traits: Traits::TERMINATOR.with(Traits::PURE).with(Traits::RETURN_LIKE),
    parents: &["func.func"],
    operands: &[ArgDef::variadic("operands", &ANY_TYPE)],
    format: Some("attr-dict ($operands^ `:` type($operands))?"),
    ..OpDef::declared("func.return")
};

/// `func.call`.
pub static CALL: OpDef = OpDef {
    summary: "call operation",
    description: "Calls the function named by `callee` (a symbol of the enclosing symbol \
        table) with the operands; operand and result types must match the callee's type.\n\n\
        ```mlir\n%r = func.call @f(%a) : (i32) -> i32\n```",
    operands: &[ArgDef::variadic("operands", &ANY_TYPE)],
    results: &[ArgDef::variadic("results", &ANY_TYPE)],
    attributes: &[
        AttrDef::required("callee", &FLAT_SYMBOL_REF),
        AttrDef::optional("arg_attrs", &DICT_ARRAY_ATTR),
        AttrDef::optional("res_attrs", &DICT_ARRAY_ATTR),
        AttrDef::optional("no_inline", &UNIT_ATTR),
    ],
    format: Some("$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)"),
    verify_symbol_uses: Some(verify_call_uses),
    ..OpDef::declared("func.call")
};

/// `func.call_indirect`.
pub static CALL_INDIRECT: OpDef = OpDef {
    summary: "indirect call operation",
    description: "Calls the function value `callee` (of function type) with the remaining \
        operands.\n\n```mlir\n%f = func.constant @g : (i32) -> i32\n\
        %r = func.call_indirect %f(%a) : (i32) -> i32\n```",
    operands: &[
        ArgDef::one("callee", &FUNCTION_TYPE),
        ArgDef::variadic("callee_operands", &ANY_TYPE),
    ],
    results: &[ArgDef::variadic("results", &ANY_TYPE)],
    attributes: &[
        AttrDef::optional("arg_attrs", &DICT_ARRAY_ATTR),
        AttrDef::optional("res_attrs", &DICT_ARRAY_ATTR),
    ],
    parse: Some(parse_call_indirect),
    print: Some(print_call_indirect),
    verify: Some(verify_call_indirect),
    ..OpDef::declared("func.call_indirect")
};

/// `func.constant`.
pub static CONSTANT: OpDef = OpDef {
    summary: "constant",
    description: "The function named by `value` as an SSA value of function type.\n\n\
        ```mlir\n%f = func.constant @g : (i32) -> i32\n```",
    traits: Traits::PURE.with(Traits::CONSTANT_LIKE),
    results: &[ArgDef::one("result", &ANY_TYPE)],
    attributes: &[AttrDef::required("value", &FLAT_SYMBOL_REF)],
    format: Some("$value attr-dict `:` type(results)"),
    result_names: Some(|_, _, _| Some("f".to_string())),
    verify_symbol_uses: Some(verify_constant_uses),
    ..OpDef::declared("func.constant")
};

// ------------------------------------------------------------------ func.func

/// One argument of a function signature as parsed.
type SigArg<'a> = (Option<UnresolvedOperand<'a>>, Type, Option<Attribute>, Location);

fn parse_func(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    for kw in ["public", "private", "nested"] {
        if p.parse_optional_keyword(kw) {
            p.set_prop("sym_visibility", ctx.string_attr(kw));
            break;
        }
    }
    let Some(name) = p.parse_optional_symbol_name()? else {
        return Err(p.error("expected valid '@'-identifier for symbol name"));
    };
    p.set_prop("sym_name", ctx.string_attr(ctx.ident_str(name)));
    // Arguments.
    p.parse_literal("(")?;
    let mut args: Vec<SigArg<'_>> = Vec::new();
    if !p.parse_optional_literal(")") {
        loop {
            let named = args.first().map(|a| a.0.is_some());
            match p.parse_optional_operand()? {
                Some(r) => {
                    if named == Some(false) {
                        return Err(p.error_at_operand(&r, "expected type instead of SSA identifier"));
                    }
                    p.parse_literal(":")?;
                    let ty = p.parse_type()?;
                    let attrs = p.parse_optional_dict_attr()?;
                    let loc = p.parse_optional_location()?.unwrap_or(p.operand_loc(&r));
                    args.push((Some(r), ty, attrs, loc));
                }
                None => {
                    if named == Some(true) {
                        return Err(p.error("expected SSA identifier"));
                    }
                    let loc = p.current_loc();
                    let ty = p.parse_type()?;
                    let attrs = p.parse_optional_dict_attr()?;
                    let loc = p.parse_optional_location()?.unwrap_or(loc);
                    args.push((None, ty, attrs, loc));
                }
            }
            if !p.parse_optional_literal(",") {
                break;
            }
        }
        p.parse_literal(")")?;
    }
    // Results.
    let mut results: Vec<(Type, Option<Attribute>)> = Vec::new();
    if p.parse_optional_literal("->") {
        if p.parse_optional_literal("(") {
            if !p.parse_optional_literal(")") {
                loop {
                    let ty = p.parse_type()?;
                    let attrs = p.parse_optional_dict_attr()?;
                    results.push((ty, attrs));
                    if !p.parse_optional_literal(",") {
                        break;
                    }
                }
                p.parse_literal(")")?;
            }
        } else {
            results.push((p.parse_type()?, None));
        }
    }
    let inputs: Vec<Type> = args.iter().map(|a| a.1).collect();
    let outputs: Vec<Type> = results.iter().map(|r| r.0).collect();
    let fty = ctx.function_type(&inputs, &outputs);
    p.set_prop("function_type", ctx.get_attr(AttrData::Type(fty)));
    let empty = ctx.dict_attr(Vec::new());
    if args.iter().any(|a| a.2.is_some_and(|d| d != empty)) {
        let v: Vec<Attribute> = args.iter().map(|a| a.2.unwrap_or(empty)).collect();
        p.set_prop("arg_attrs", ctx.get_attr(AttrData::Array(v.into())));
    }
    if results.iter().any(|r| r.1.is_some_and(|d| d != empty)) {
        let v: Vec<Attribute> = results.iter().map(|r| r.1.unwrap_or(empty)).collect();
        p.set_prop("res_attrs", ctx.get_attr(AttrData::Array(v.into())));
    }
    p.parse_optional_attr_dict_with_keyword()?;
    if p.at_literal("{") {
        if args.first().is_some_and(|a| a.0.is_none()) {
            return Err(p.error("expected named arguments for a function with a body"));
        }
        let entry: Vec<_> = args.iter().map(|a| (a.0.expect("named"), a.1, a.3)).collect();
        p.push_default_dialect("func");
        let r = p.parse_region(&entry);
        p.pop_default_dialect();
        let r = r?;
        if p.region_is_empty(r) {
            return Err(p.error("expected non-empty function body"));
        }
    } else {
        p.add_empty_region();
    }
    Ok(())
}

fn function_type(ctx: &Context, body: &Body, op: OpId) -> Option<(Vec<Type>, Vec<Type>)> {
    let a = prop(ctx, body, op, "function_type")?;
    let AttrData::Type(t) = ctx.attr_data(a) else {
        return None;
    };
    match ctx.type_data(*t) {
        TypeData::Function { inputs, results } => Some((inputs.to_vec(), results.to_vec())),
        _ => None,
    }
}

fn string_prop(ctx: &Context, body: &Body, op: OpId, name: &str) -> Option<String> {
    match ctx.attr_data(prop(ctx, body, op, name)?) {
        AttrData::String { value, .. } => Some(value.to_string()),
        _ => None,
    }
}

fn array_prop(ctx: &Context, body: &Body, op: OpId, name: &str) -> Option<Vec<Attribute>> {
    match ctx.attr_data(prop(ctx, body, op, name)?) {
        AttrData::Array(v) => Some(v.to_vec()),
        _ => None,
    }
}

fn print_func(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    p.write(" ");
    if let Some(v) = string_prop(ctx, body, op, "sym_visibility") {
        p.write(&v);
        p.write(" ");
    }
    let name = string_prop(ctx, body, op, "sym_name").unwrap_or_default();
    let sym = ctx.get_attr(AttrData::SymbolRef {
        root: ctx.intern(&name),
        nested: Box::new([]),
    });
    p.attr(sym);
    let (inputs, results) = function_type(ctx, body, op).unwrap_or_default();
    let arg_attrs = array_prop(ctx, body, op, "arg_attrs");
    let res_attrs = array_prop(ctx, body, op, "res_attrs");
    let rb = body.regions_body(op);
    let region = body.regions(op).first().copied();
    let entry = region.and_then(|r| rb.entry_block(r));
    let entry_args: Vec<_> = entry.map(|b| rb.block_args(b).to_vec()).unwrap_or_default();
    let external = entry.is_none();
    p.write("(");
    for (i, t) in inputs.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        let attrs = arg_attrs.as_ref().and_then(|a| a.get(i).copied());
        match entry_args.get(i) {
            Some(&v) if !external => p.region_argument(op, v, attrs),
            _ => {
                p.ty(*t);
                p.optional_dict(attrs);
            }
        }
    }
    p.write(")");
    if !results.is_empty() {
        p.write(" -> ");
        let first_has_attrs = res_attrs
            .as_ref()
            .and_then(|a| a.first())
            .is_some_and(|d| !ctx.attr_data(*d).dict_entries().is_empty());
        let parens =
            results.len() > 1 || matches!(ctx.type_data(results[0]), TypeData::Function { .. }) || first_has_attrs;
        if parens {
            p.write("(");
        }
        for (i, t) in results.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.ty(*t);
            p.optional_dict(res_attrs.as_ref().and_then(|a| a.get(i).copied()));
        }
        if parens {
            p.write(")");
        }
    }
    p.attr_dict_with_props(
        op,
        &["sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"],
        true,
    );
    if !external {
        p.write(" ");
        p.region_with_default_dialect(op, 0, false, true, "func");
    }
    Ok(())
}

fn verify_func(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let err = |m: String| Err(op_error(ctx, body, op, m));
    if let Some(v) = string_prop(ctx, body, op, "sym_visibility") {
        if !matches!(v.as_str(), "public" | "private" | "nested") {
            return err(format!(
                "visibility expected to be one of [\"public\", \"private\", \"nested\"], but got \"{v}\""
            ));
        }
    }
    let Some((inputs, results)) = function_type(ctx, body, op) else {
        return Ok(());
    };
    for (what, name, n) in [
        ("argument", "arg_attrs", inputs.len()),
        ("result", "res_attrs", results.len()),
    ] {
        if let Some(a) = array_prop(ctx, body, op, name) {
            if a.len() != n {
                let whats = if what == "argument" { "arguments" } else { "results" };
                return err(format!(
                    "expects {what} attribute array to have the same number of elements as the number of function {whats}, got {}, but expected {n}",
                    a.len()
                ));
            }
        }
    }
    let rb = body.regions_body(op);
    let region = body.region(op, 0);
    let Some(entry) = rb.entry_block(region) else {
        let vis = string_prop(ctx, body, op, "sym_visibility");
        if vis.is_none_or(|v| v == "public") {
            return err("symbol declaration cannot have public visibility".into());
        }
        return Ok(());
    };
    let args = rb.block_args(entry);
    if args.len() != inputs.len() {
        return err(format!(
            "entry block must have {} arguments to match function signature",
            inputs.len()
        ));
    }
    for (i, (&a, &t)) in args.iter().zip(&inputs).enumerate() {
        let at = rb.value_type(a);
        if at != t {
            return err(format!(
                "type of entry block argument #{i}('{}') must match the type of the corresponding argument in function signature('{}')",
                type_to_string(ctx, at),
                type_to_string(ctx, t)
            ));
        }
    }
    let name = string_prop(ctx, body, op, "sym_name").unwrap_or_default();
    // `func.return`s of the body (HasParent<FuncOp>: they are in the body's blocks).
    for b in rb.region_blocks(region) {
        let Some(t) = rb.last_op(b) else { continue };
        if ctx.op_name_str(rb.op_name(t)) != "func.return" {
            continue;
        }
        verify_return(ctx, rb, t, &name, &results)?;
    }
    Ok(())
}

fn verify_return(ctx: &Context, body: &Body, op: OpId, fname: &str, results: &[Type]) -> Result<(), Diagnostic> {
    let n = body.num_operands(op);
    if n != results.len() {
        return Err(op_error(
            ctx,
            body,
            op,
            format!(
                "has {n} operands, but enclosing function (@{fname}) returns {}",
                results.len()
            ),
        ));
    }
    for (i, (v, &t)) in body.operands(op).zip(results).enumerate() {
        let vt = body.value_type(v);
        if vt != t {
            return Err(Diagnostic::error(
                body.op_loc(op).source_pos(ctx),
                format!(
                    "type of return operand {i} ('{}') doesn't match function result type ('{}') in function @{fname}",
                    type_to_string(ctx, vt),
                    type_to_string(ctx, t)
                ),
            ));
        }
    }
    Ok(())
}

/// The function named `name` in the symbol table holding `func` (an op of `body`).
/// The type of the function `name` in the symbol table `table` (see
/// [`lf_ir::registry::SymbolUsesFn`]).
fn lookup_function(ctx: &Context, table: Option<(&Body, OpId)>, name: &str) -> Option<(Vec<Type>, Vec<Type>)> {
    let (body, anchor) = table?;
    let region = body.op_block(anchor).and_then(|b| body.block_region(b))?;
    let target = lf_ir::symbols::lookup_symbol(ctx, body, region, name)?;
    if ctx.op_name_str(body.op_name(target)) != "func.func" {
        return None;
    }
    function_type(ctx, body, target)
}

fn flat_symbol(ctx: &Context, a: Option<Attribute>) -> Option<String> {
    match ctx.attr_data(a?) {
        AttrData::SymbolRef { root, nested } if nested.is_empty() => Some(ctx.ident_str(*root).to_string()),
        _ => None,
    }
}

fn type_list(ctx: &Context, tys: impl Iterator<Item = Type>) -> String {
    tys.map(|t| format!("'{}'", type_to_string(ctx, t)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// MLIR's `verifySymbolUses` of the symbol users (`func.call`,
/// `func.constant`, `memref.get_global`) in the body of `func`, against the
/// symbol table holding `func`. Runs after the body verified (as in MLIR,
/// where the symbol table checks its users after its regions), on the
/// thread that verified it. The symbol users outside functions are checked
/// by their module.
fn verify_symbol_uses(ctx: &Context, body: &Body, func: OpId) -> Result<(), Diagnostic> {
    let mut result = Ok(());
    // Compared by id: this visits every op of every function.
    let (func_name, call, constant, get_global) = (
        ctx.op_name("func.func"),
        ctx.op_name("func.call"),
        ctx.op_name("func.constant"),
        ctx.op_name("memref.get_global"),
    );
    // Most functions hold no symbol use at all: a scan of their op arenas
    // (contiguous) says so faster than the walk through the op lists.
    if body
        .nested_body(func)
        .is_some_and(|nested| !holds_op_named(nested, &[call, constant, get_global]))
    {
        return Ok(());
    }
    walk(body, func, WalkOrder::PreOrder, &mut |b, o| {
        if o == func && std::ptr::eq(b, body) {
            return WalkControl::Advance;
        }
        let name = b.op_name(o);
        if name == func_name || ctx.op_def(name).is_some_and(|d| d.has(Traits::SYMBOL_TABLE)) {
            return WalkControl::Skip;
        }
        let hook = if name == call || name == constant || name == get_global {
            ctx.op_def(name).and_then(|d| d.verify_symbol_uses)
        } else {
            None
        };
        let r = match hook {
            Some(f) => f(ctx, Some((body, func)), b, o),
            None => Ok(()),
        };
        match r {
            Ok(()) => WalkControl::Advance,
            Err(e) => {
                result = Err(e);
                WalkControl::Interrupt
            }
        }
    });
    result
}

/// Whether `body` or a body nested in it holds a live op named one of `names`.
fn holds_op_named(body: &Body, names: &[OpName]) -> bool {
    body.live_ops().any(|o| {
        names.contains(&body.op_name(o)) || body.nested_body(o).is_some_and(|nested| holds_op_named(nested, names))
    })
}

fn verify_call_uses(ctx: &Context, table: Option<(&Body, OpId)>, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let err = |m: String| Err(op_error(ctx, body, op, m));
    let Some(callee) = flat_symbol(ctx, prop(ctx, body, op, "callee")) else {
        return err("requires a 'callee' symbol reference attribute".into());
    };
    let Some((inputs, results)) = lookup_function(ctx, table, &callee) else {
        return err(format!("'{callee}' does not reference a valid function"));
    };
    if inputs.len() != body.num_operands(op) {
        return err("incorrect number of operands for callee".into());
    }
    for (i, (v, &t)) in body.operands(op).zip(&inputs).enumerate() {
        let vt = body.value_type(v);
        if vt != t {
            return err(format!(
                "operand type mismatch: expected operand type '{}', but provided '{}' for operand number {i}",
                type_to_string(ctx, t),
                type_to_string(ctx, vt)
            ));
        }
    }
    if results.len() != body.num_results(op) {
        return err("incorrect number of results for callee".into());
    }
    for (i, (v, &t)) in body.results(op).zip(&results).enumerate() {
        if body.value_type(v) != t {
            let pos = body.op_loc(op).source_pos(ctx);
            let d = op_error(ctx, body, op, format!("result type mismatch at index {i}"))
                .with_note(
                    pos.clone(),
                    format!(
                        "      op result types: {}",
                        type_list(ctx, body.results(op).map(|v| body.value_type(v)))
                    ),
                )
                .with_note(
                    pos,
                    format!("function result types: {}", type_list(ctx, results.iter().copied())),
                );
            return Err(d);
        }
    }
    Ok(())
}

fn verify_constant_uses(ctx: &Context, table: Option<(&Body, OpId)>, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let Some(name) = flat_symbol(ctx, prop(ctx, body, op, "value")) else {
        return Ok(());
    };
    let Some((inputs, results)) = lookup_function(ctx, table, &name) else {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("reference to undefined function '{name}'"),
        ));
    };
    let want = ctx.function_type(&inputs, &results);
    if body.num_results(op) == 1 && body.value_type(body.result(op, 0)) != want {
        return Err(op_error(ctx, body, op, "reference to function with mismatched type"));
    }
    Ok(())
}

// --------------------------------------------------------- func.call_indirect

fn parse_call_indirect(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let callee = p.parse_operand()?;
    p.parse_literal("(")?;
    let args = p.parse_operand_list()?;
    p.parse_literal(")")?;
    p.parse_optional_attr_dict()?;
    p.parse_literal(":")?;
    let fty = p.parse_type()?;
    let ctx = p.ctx();
    let (inputs, results) = match ctx.type_data(fty) {
        TypeData::Function { inputs, results } => (inputs.to_vec(), results.to_vec()),
        _ => return Err(p.error("expected function type")),
    };
    p.add_operand(callee, fty)?;
    if inputs.len() != args.len() {
        let at = args.first().copied().unwrap_or(callee);
        return Err(p.error_at_operand(
            &at,
            format!(
                "number of operands and types do not match: got {} operands and {} types",
                args.len(),
                inputs.len()
            ),
        ));
    }
    for (r, t) in args.into_iter().zip(inputs) {
        p.add_operand(r, t)?;
    }
    p.add_result_types(&results);
    Ok(())
}

fn print_call_indirect(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let body = p.body();
    let callee = body.operand(op, 0);
    p.write(" ");
    p.value(callee);
    p.write("(");
    let args: Vec<_> = body.operands(op).skip(1).collect();
    p.value_list(&args);
    p.write(")");
    p.attr_dict_with_props(op, &[], false);
    p.write(" : ");
    p.ty(body.value_type(callee));
    Ok(())
}

fn verify_call_indirect(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let callee = body.value_type(body.operand(op, 0));
    let TypeData::Function { inputs, results } = ctx.type_data(callee) else {
        return Ok(());
    };
    let args: Vec<Type> = body.operands(op).skip(1).map(|v| body.value_type(v)).collect();
    if args != inputs.to_vec() {
        return Err(op_error(
            ctx,
            body,
            op,
            "failed to verify that callee input types match argument types",
        ));
    }
    let res: Vec<Type> = body.results(op).map(|v| body.value_type(v)).collect();
    if res != results.to_vec() {
        return Err(op_error(
            ctx,
            body,
            op,
            "failed to verify that callee result types match result types",
        ));
    }
    Ok(())
}
