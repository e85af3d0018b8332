//! The `gpu` dialect: GPU kernels (`gpu.module`, `gpu.func`), their launch
//! (`gpu.launch`, `gpu.launch_func`), thread and block ids, barriers and
//! device memory management with async tokens, with MLIR 22's syntax.

#[rustfmt::skip]
mod views;
pub use views::*;

mod ops;

pub use ops::{CONTAINER_MODULE_ATTR, KERNEL_ATTR, WORKGROUP_ATTRIBUTIONS_ATTR};

use crate::support::op_error;
use lf_ir::attrs::AttrData;
use lf_ir::diag::Diagnostic;
use lf_ir::ods::constraints::*;
use lf_ir::ods::enums::DialectEnum;
use lf_ir::ods::{
    operand_group, prop, segment_sizes_attr, ArgDef, AttrConstraint, AttrDef, AttrKind, RegionDef, TypeConstraint,
};
use lf_ir::parser::{CustomParser, ParseResult, UnresolvedOperand};
use lf_ir::printer::CustomPrinter;
use lf_ir::{Attribute, Body, Context, Location, OpDef, OpId, Traits, Type, TypeData, Value};

/// `!gpu.async.token`.
pub fn async_token_type(ctx: &Context) -> Type {
    ctx.get_type(TypeData::Dialect {
        dialect: ctx.intern("gpu"),
        body: ".async.token".into(),
    })
}

/// Whether `t` is `!gpu.async.token`.
pub fn is_async_token(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_data(t), TypeData::Dialect { dialect, body } if ctx.ident_str(*dialect) == "gpu" && &**body == ".async.token")
}

/// `!gpu.async.token`.
pub static ASYNC_TOKEN: TypeConstraint = TypeConstraint {
    summary: "async token type",
    check: is_async_token,
    build: Some(async_token_type),
};

/// `index`, `i32` or `i64` (launch sizes of `gpu.launch_func`).
pub static LAUNCH_INDEX: TypeConstraint = TypeConstraint {
    summary: "index or 32-bit signless integer or 64-bit signless integer",
    check: |ctx, t| {
        let c = ctx.common();
        t == c.index || t == c.i32 || t == c.i64
    },
    build: None,
};

/// `i32`.
pub static I32_TYPE: TypeConstraint = TypeConstraint {
    summary: "32-bit signless integer",
    check: |ctx, t| t == ctx.common().i32,
    build: Some(|ctx| ctx.common().i32),
};

/// The dimensions of a grid or block: `#gpu<dim x|y|z>`.
pub static DIMENSION: DialectEnum = DialectEnum {
    name: "gpu::Dimension",
    dialect: "gpu",
    prefix: "<dim ",
    suffix: ">",
    cases: &["x", "y", "z"],
};

/// The address spaces of GPU memory: `#gpu.address_space<global|workgroup|private>`
/// (a memref type's memory space).
pub static ADDRESS_SPACE: DialectEnum = DialectEnum {
    name: "gpu::AddressSpace",
    dialect: "gpu",
    prefix: ".address_space<",
    suffix: ">",
    cases: &["global", "workgroup", "private"],
};

fn dim_of(ctx: &Context, a: Attribute) -> Option<&'static str> {
    DIMENSION.decode(ctx, a).map(|i| DIMENSION.cases[i])
}

fn dim_attr(ctx: &Context, d: &str) -> Attribute {
    let i = DIMENSION
        .cases
        .iter()
        .position(|c| *c == d)
        .expect("a dimension keyword");
    DIMENSION.attr(ctx, i)
}

/// `#gpu<dim x|y|z>`.
pub static DIMENSION_ATTR: AttrConstraint = AttrConstraint {
    summary: "a dimension, either 'x', 'y', or 'z'",
    check: |ctx, a| DIMENSION.check(ctx, a),
    parse: None,
    print: None,
    is_unit: false,
    kind: AttrKind::DialectEnum(&DIMENSION),
};

/// `!gpu.async.token` helpers: parses `async`? `[%deps]`?.
fn parse_async<'a>(p: &mut CustomParser<'_, 'a>) -> ParseResult<(bool, Vec<UnresolvedOperand<'a>>)> {
    let is_async = p.parse_optional_keyword("async");
    let mut deps = Vec::new();
    if p.parse_optional_literal("[") {
        deps = p.parse_operand_list()?;
        p.parse_literal("]")?;
    }
    Ok((is_async, deps))
}

fn add_deps<'a>(p: &mut CustomParser<'_, 'a>, deps: Vec<UnresolvedOperand<'a>>) -> ParseResult<()> {
    let t = async_token_type(p.ctx());
    for d in deps {
        p.add_operand(d, t)?;
    }
    Ok(())
}

/// Prints MLIR's `custom<AsyncDependencies>`: `async`, then ` [deps]`.
fn print_async(p: &mut CustomPrinter<'_, '_>, has_token: bool, deps: &[Value]) {
    if has_token {
        p.write("async");
    }
    if has_token && !deps.is_empty() {
        p.write(" ");
    }
    if !deps.is_empty() {
        p.write("[");
        p.value_list(deps);
        p.write("]");
    }
}

fn has_async_result(ctx: &Context, body: &Body, op: OpId) -> bool {
    body.results(op).any(|r| is_async_token(ctx, body.value_type(r)))
}

fn set_segments(p: &mut CustomParser<'_, '_>, sizes: &[usize]) {
    let a = segment_sizes_attr(p.ctx(), sizes);
    p.set_prop("operandSegmentSizes", a);
}

// ---------------------------------------------------------------------------
// gpu.module
// ---------------------------------------------------------------------------

/// `gpu.module`.
pub static MODULE: OpDef = OpDef {
    summary: "A top level compilation unit containing code to be run on a GPU.",
    description: "A symbol table holding the `gpu.func` kernels (and other device code) that \
        `gpu.launch_func` launches. It may name compilation targets and an offloading \
        handler.\n\n```mlir\ngpu.module @kernels [#nvvm.target] {\n  gpu.func @k() kernel {\n    gpu.return\n  }\n}\n```",
    traits: Traits::ISOLATED_FROM_ABOVE
        .with(Traits::SYMBOL_TABLE)
        .with(Traits::SYMBOL)
        .with(Traits::NO_TERMINATOR)
        .with(Traits::SINGLE_BLOCK),
    attributes: &[
        AttrDef::required("sym_name", &STRING_ATTR),
        AttrDef::optional("targets", &ARRAY_ATTR),
        AttrDef::optional("offloadingHandler", &ANY_ATTR),
    ],
    regions: &[RegionDef {
        name: "bodyRegion",
        single_block: true,
        may_be_empty: false,
    }],
    parse: Some(parse_module),
    print: Some(print_module),
    verify: Some(verify_module),
    ..OpDef::declared("gpu.module")
};

fn parse_module(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let Some(name) = p.parse_optional_symbol_name()? else {
        return Err(p.error("expected valid '@'-identifier for symbol name"));
    };
    let ctx = p.ctx();
    p.set_prop("sym_name", ctx.string_attr(ctx.ident_str(name)));
    if p.parse_optional_literal("<") {
        let h = p.parse_attribute()?;
        p.set_prop("offloadingHandler", h);
        p.parse_literal(">")?;
    }
    if p.at_literal("[") {
        let t = p.parse_attribute()?;
        p.set_prop("targets", t);
    }
    p.parse_optional_attr_dict_with_keyword()?;
    p.parse_region(&[])?;
    p.ensure_entry_blocks();
    Ok(())
}

fn print_module(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    if let Some(n) = prop(ctx, body, op, "sym_name") {
        if let AttrData::String { value, .. } = ctx.attr_data(n) {
            let sym = ctx.get_attr(AttrData::SymbolRef {
                root: ctx.intern(value),
                nested: Box::new([]),
            });
            p.write(" ");
            p.attr(sym);
        }
    }
    if let Some(h) = prop(ctx, body, op, "offloadingHandler") {
        p.write("<");
        p.attr(h);
        p.write(">");
    }
    if let Some(t) = prop(ctx, body, op, "targets") {
        p.write(" ");
        p.attr(t);
    }
    p.attr_dict_with_props(op, &["sym_name", "offloadingHandler", "targets"], true);
    p.write(" ");
    p.region(op, 0, false, false);
    Ok(())
}

fn verify_module(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    if let Some(t) = prop(ctx, body, op, "targets") {
        if let AttrData::Array(v) = ctx.attr_data(t) {
            if v.is_empty() {
                return Err(op_error(
                    ctx,
                    body,
                    op,
                    "attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements",
                ));
            }
        }
    }
    Ok(())
}

/// The `gpu.container_module` rule, checked from each `builtin.module` (see
/// [`crate::builtin::MODULE`]): a `gpu.launch_func` must have a closest
/// surrounding `builtin.module` with the `gpu.container_module` attribute,
/// and, as MLIR's attribute verifier does for launches in the module's
/// functions, its kernel must resolve to a kernel function of a `gpu.module`
/// of that module, taking operands of the kernel's argument types.
pub fn verify_container_module(ctx: &Context, body: &Body, module: OpId) -> Result<(), Diagnostic> {
    let names = WalkNames {
        module: ctx.op_name("builtin.module"),
        launch: ctx.op_name("gpu.launch_func"),
        attr: ctx.intern("gpu.container_module"),
    };
    let is_container = lf_ir::ods::discardable_attr(ctx, body, module, "gpu.container_module").is_some();
    let mb = body.regions_body(module);
    let Some(&region) = body.regions(module).first() else {
        return Ok(());
    };
    let Some(block) = mb.entry_block(region) else {
        return Ok(());
    };
    // Every op of the module is visited: the functions are walked in
    // parallel, and the first error in program order is reported.
    use rayon::prelude::*;
    let tops: Vec<OpId> = mb.block_ops(block).collect();
    match tops
        .par_iter()
        .filter(|&&top| may_concern_launches(ctx, &names, mb, top))
        .find_map_first(|&top| walk_launches(ctx, &names, (mb, block), mb, top, 1, is_container).err())
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Whether [`walk_launches`] could find anything in `top`: false when `top`
/// and every op of its nested body (one linear scan of the arena) are
/// neither a launch nor a module nor carry the container attribute, as is
/// the case for plain functions.
fn may_concern_launches(ctx: &Context, names: &WalkNames, body: &Body, top: OpId) -> bool {
    let concerns = |b: &Body, o: OpId| {
        let n = b.op_name(o);
        n == names.launch
            || n == names.module
            || b.op_attrs(o)
                .is_some_and(|a| ctx.attr_data(a).dict_entries().iter().any(|(k, _)| *k == names.attr))
    };
    if concerns(body, top) {
        return true;
    }
    match body.nested_body(top) {
        // Isolated ops nested deeper are walked the usual way.
        Some(nb) => nb.live_ops().any(|o| concerns(nb, o) || nb.nested_body(o).is_some()),
        None => !body.regions(top).is_empty(),
    }
}

/// What [`walk_launches`] compares against, interned once per module.
struct WalkNames {
    module: lf_ir::OpName,
    launch: lf_ir::OpName,
    attr: lf_ir::Ident,
}

/// Checks the ops nested in `op` (of `body`, `depth` ops below the module
/// whose block is `module`): `gpu.launch_func` ops, and that no other op
/// carries `gpu.container_module`. Nested modules check their own ops.
fn walk_launches(
    ctx: &Context,
    names: &WalkNames,
    module: (&Body, lf_ir::BlockId),
    body: &Body,
    op: OpId,
    depth: usize,
    is_container: bool,
) -> Result<(), Diagnostic> {
    let name = body.op_name(op);
    if name == names.module {
        return Ok(());
    }
    if let Some(attrs) = body.op_attrs(op) {
        if ctx
            .attr_data(attrs)
            .dict_entries()
            .iter()
            .any(|(k, _)| *k == names.attr)
        {
            return Err(Diagnostic::error(
                body.op_loc(op).source_pos(ctx),
                "expected 'gpu.container_module' attribute to be attached to 'builtin.module'",
            ));
        }
    }
    if name == names.launch {
        if !is_container {
            return Err(op_error(
                ctx,
                body,
                op,
                "expected the closest surrounding module to have the 'gpu.container_module' attribute",
            ));
        }
        // MLIR checks the symbols of launches in the module's functions only.
        if depth == 2 {
            check_launch_func(ctx, module.0, module.1, body, op)?;
        }
    }
    let rb = body.regions_body(op);
    for &r in body.regions(op) {
        for b in rb.region_blocks(r) {
            for o in rb.block_ops(b) {
                walk_launches(ctx, names, module, rb, o, depth + 1, is_container)?;
            }
        }
    }
    Ok(())
}

fn find_symbol(ctx: &Context, body: &Body, block: lf_ir::BlockId, name: lf_ir::Ident) -> Option<OpId> {
    body.block_ops(block)
        .find(|o| lf_ir::symbols::symbol_name(ctx, body, *o) == Some(name))
}

fn check_launch_func(
    ctx: &Context,
    module_body: &Body,
    module_block: lf_ir::BlockId,
    body: &Body,
    op: OpId,
) -> Result<(), Diagnostic> {
    let Some(kernel) = prop(ctx, body, op, "kernel") else {
        return Ok(());
    };
    let AttrData::SymbolRef { root, nested } = ctx.attr_data(kernel) else {
        return Ok(());
    };
    let Some(gm) = find_symbol(ctx, module_body, module_block, *root) else {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("kernel container '{}' is undefined", ctx.ident_str(*root)),
        ));
    };
    match ctx.op_name_str(module_body.op_name(gm)) {
        "gpu.binary" => return Ok(()),
        "gpu.module" => {}
        _ => {
            return Err(op_error(
                ctx,
                body,
                op,
                format!("kernel module '{}' is undefined", ctx.ident_str(*root)),
            ))
        }
    }
    let kernel_str = lf_ir::printer::attr_to_string(ctx, kernel);
    let mb = module_body.regions_body(gm);
    let Some(fname) = nested.first() else { return Ok(()) };
    let Some(kblock) = mb.entry_block(module_body.region(gm, 0)) else {
        return Ok(());
    };
    let Some(f) = find_symbol(ctx, mb, kblock, *fname) else {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("kernel function '{kernel_str}' is undefined"),
        ));
    };
    let fname_str = ctx.op_name_str(mb.op_name(f));
    if !matches!(fname_str, "gpu.func" | "func.func" | "llvm.func") {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("referenced kernel '{kernel_str}' is not a function"),
        )
        .with_note(
            mb.op_loc(f).source_pos(ctx),
            "see the kernel definition here".to_string(),
        ));
    }
    if lf_ir::ods::discardable_attr(ctx, mb, f, "gpu.kernel").is_none() {
        return Err(op_error(
            ctx,
            body,
            op,
            "kernel function is missing the 'gpu.kernel' attribute",
        ));
    }
    if fname_str != "gpu.func" {
        return Ok(());
    }
    let Some((inputs, _)) = func_signature(ctx, mb, f) else {
        return Ok(());
    };
    let operands = operand_group(ctx, body, op, "kernelOperands");
    if operands.len() != inputs.len() {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("got {} kernel operands but expected {}", operands.len(), inputs.len()),
        ));
    }
    for (i, (v, t)) in operands.iter().zip(inputs.iter()).enumerate() {
        if body.value_type(*v) != *t {
            return Err(op_error(
                ctx,
                body,
                op,
                format!("type of function argument {i} does not match"),
            ));
        }
    }
    Ok(())
}

fn func_signature(ctx: &Context, body: &Body, op: OpId) -> Option<(Vec<Type>, Vec<Type>)> {
    let ft = prop(ctx, body, op, "function_type")?;
    let AttrData::Type(t) = ctx.attr_data(ft) else {
        return None;
    };
    match ctx.type_data(*t) {
        TypeData::Function { inputs, results } => Some((inputs.to_vec(), results.to_vec())),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// gpu.func
// ---------------------------------------------------------------------------

/// `gpu.func`.
pub static FUNC: OpDef = OpDef {
    summary: "Function executable on a GPU",
    description: "A function of a `gpu.module`; with the `kernel` keyword (the `gpu.kernel` \
        attribute) it is a kernel that `gpu.launch_func` can launch. Memory attributions \
        `workgroup(...)` and `private(...)` declare buffers in workgroup (shared) and private \
        memory; they become extra arguments of the entry block, after the function \
        arguments.\n\n```mlir\ngpu.func @k(%a: memref<?xf32>) workgroup(%w : memref<32xf32, \
        #gpu.address_space<workgroup>>) kernel {\n  gpu.return\n}\n```",
    traits: Traits::ISOLATED_FROM_ABOVE.with(Traits::SYMBOL),
    parents: &["gpu.module"],
    attributes: &[
        AttrDef::required("function_type", &FUNCTION_TYPE_ATTR),
        AttrDef::optional("arg_attrs", &DICT_ARRAY_ATTR),
        AttrDef::optional("res_attrs", &DICT_ARRAY_ATTR),
        AttrDef::optional("workgroup_attrib_attrs", &DICT_ARRAY_ATTR),
        AttrDef::optional("private_attrib_attrs", &DICT_ARRAY_ATTR),
        AttrDef::optional("known_block_size", &DENSE_I32_ARRAY_ATTR),
        AttrDef::optional("known_grid_size", &DENSE_I32_ARRAY_ATTR),
        AttrDef::optional("known_cluster_size", &DENSE_I32_ARRAY_ATTR),
    ],
    regions: &[RegionDef {
        name: "body",
        single_block: false,
        may_be_empty: true,
    }],
    parse: Some(parse_func),
    print: Some(print_func),
    verify: Some(verify_func),
    ..OpDef::declared("gpu.func")
};

type RegionArg<'a> = (UnresolvedOperand<'a>, Type, Location);

/// Parses `(%a : T, ...)` attributions (after the keyword).
fn parse_attributions<'a>(p: &mut CustomParser<'_, 'a>, out: &mut Vec<RegionArg<'a>>) -> ParseResult<usize> {
    p.parse_literal("(")?;
    let mut n = 0;
    if p.parse_optional_literal(")") {
        return Ok(0);
    }
    loop {
        let r = p.parse_operand()?;
        p.parse_literal(":")?;
        let t = p.parse_type()?;
        let loc = match p.parse_optional_location()? {
            Some(l) => l,
            None => p.operand_loc(&r),
        };
        out.push((r, t, loc));
        n += 1;
        if !p.parse_optional_literal(",") {
            break;
        }
    }
    p.parse_literal(")")?;
    Ok(n)
}

fn dict_array(ctx: &Context, dicts: &[Option<Attribute>]) -> Option<Attribute> {
    if dicts.iter().all(|d| d.is_none()) {
        return None;
    }
    let empty = ctx.dict_attr(Vec::new());
    Some(ctx.get_attr(AttrData::Array(dicts.iter().map(|d| d.unwrap_or(empty)).collect())))
}

fn parse_func(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    let Some(name) = p.parse_optional_symbol_name()? else {
        return Err(p.error("expected valid '@'-identifier for symbol name"));
    };
    p.add_attr("sym_name", ctx.string_attr(ctx.ident_str(name)));
    let mut args: Vec<RegionArg<'_>> = Vec::new();
    let mut arg_attrs = Vec::new();
    p.parse_literal("(")?;
    if !p.parse_optional_literal(")") {
        loop {
            let r = p.parse_operand()?;
            p.parse_literal(":")?;
            let t = p.parse_type()?;
            arg_attrs.push(p.parse_optional_dict_attr()?);
            let loc = match p.parse_optional_location()? {
                Some(l) => l,
                None => p.operand_loc(&r),
            };
            args.push((r, t, loc));
            if !p.parse_optional_literal(",") {
                break;
            }
        }
        p.parse_literal(")")?;
    }
    let mut results = Vec::new();
    let mut res_attrs = Vec::new();
    if p.parse_optional_literal("->") {
        if p.parse_optional_literal("(") {
            if !p.parse_optional_literal(")") {
                loop {
                    results.push(p.parse_type()?);
                    res_attrs.push(p.parse_optional_dict_attr()?);
                    if !p.parse_optional_literal(",") {
                        break;
                    }
                }
                p.parse_literal(")")?;
            }
        } else {
            results.push(p.parse_type()?);
        }
    }
    let inputs: Vec<Type> = args.iter().map(|a| a.1).collect();
    let ft = ctx.function_type(&inputs, &results);
    p.set_prop("function_type", ctx.get_attr(AttrData::Type(ft)));
    if let Some(a) = dict_array(ctx, &arg_attrs) {
        p.set_prop("arg_attrs", a);
    }
    if let Some(a) = dict_array(ctx, &res_attrs) {
        p.set_prop("res_attrs", a);
    }
    let mut nworkgroup = 0;
    if p.parse_optional_keyword("workgroup") {
        nworkgroup = parse_attributions(p, &mut args)?;
    }
    if p.parse_optional_keyword("private") {
        parse_attributions(p, &mut args)?;
    }
    if p.parse_optional_keyword("kernel") {
        p.add_attr("gpu.kernel", ctx.get_attr(AttrData::Unit));
    }
    p.parse_optional_attr_dict_with_keyword()?;
    p.add_attr(
        "workgroup_attributions",
        ctx.integer_attr(nworkgroup as i128, ctx.common().i64),
    );
    p.parse_region(&args)?;
    Ok(())
}

fn int_attr_value(ctx: &Context, a: Option<Attribute>) -> Option<usize> {
    int_value(ctx, a?).and_then(|v| usize::try_from(v).ok())
}

fn array_entry(ctx: &Context, a: Option<Attribute>, i: usize) -> Option<Attribute> {
    match ctx.attr_data(a?) {
        AttrData::Array(v) => v.get(i).copied(),
        _ => None,
    }
}

/// Writes ` keyword(%a : T, ...)` for attributions.
fn print_attributions(p: &mut CustomPrinter<'_, '_>, op: OpId, keyword: &str, values: &[Value]) {
    if values.is_empty() {
        return;
    }
    let rb = p.body().regions_body(op);
    p.write(" ");
    p.write(keyword);
    p.write("(");
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.region_value(op, *v);
        p.write(" : ");
        p.ty(rb.value_type(*v));
    }
    p.write(")");
}

fn print_func(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    if let Some(n) = lf_ir::symbols::symbol_name(ctx, body, op) {
        let sym = ctx.get_attr(AttrData::SymbolRef {
            root: n,
            nested: Box::new([]),
        });
        p.write(" ");
        p.attr(sym);
    }
    let (inputs, results) = func_signature(ctx, body, op).unwrap_or_default();
    let rb = body.regions_body(op);
    let entry_args: Vec<Value> = rb
        .entry_block(body.region(op, 0))
        .map(|b| rb.block_args(b).to_vec())
        .unwrap_or_default();
    let arg_attrs = prop(ctx, body, op, "arg_attrs");
    p.write("(");
    for (i, t) in inputs.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        match entry_args.get(i) {
            Some(v) => p.region_argument(op, *v, array_entry(ctx, arg_attrs, i)),
            None => p.ty(*t),
        }
    }
    p.write(")");
    let res_attrs = prop(ctx, body, op, "res_attrs");
    if !results.is_empty() {
        p.write(" -> ");
        let any_attrs = (0..results.len())
            .any(|i| array_entry(ctx, res_attrs, i).is_some_and(|d| !ctx.attr_data(d).dict_entries().is_empty()));
        let paren = results.len() > 1 || any_attrs || matches!(ctx.type_data(results[0]), TypeData::Function { .. });
        if paren {
            p.write("(");
        }
        for (i, t) in results.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.ty(*t);
            p.optional_dict(array_entry(ctx, res_attrs, i));
        }
        if paren {
            p.write(")");
        }
    }
    let nw = int_attr_value(
        ctx,
        lf_ir::ods::discardable_attr(ctx, body, op, "workgroup_attributions"),
    )
    .unwrap_or(0);
    let start = inputs.len().min(entry_args.len());
    let wend = (start + nw).min(entry_args.len());
    print_attributions(p, op, "workgroup", &entry_args[start..wend]);
    print_attributions(p, op, "private", &entry_args[wend..]);
    if lf_ir::ods::discardable_attr(ctx, body, op, "gpu.kernel").is_some() {
        p.write(" kernel");
    }
    p.attr_dict_with_props(
        op,
        &[
            "sym_name",
            "function_type",
            "arg_attrs",
            "res_attrs",
            "gpu.kernel",
            "workgroup_attributions",
            "workgroup_attrib_attrs",
            "private_attrib_attrs",
        ],
        true,
    );
    p.write(" ");
    p.region(op, 0, false, true);
    Ok(())
}

/// The address space of a memref type (`#gpu.address_space<...>` keyword), if any.
fn address_space(ctx: &Context, t: Type) -> Option<Option<Attribute>> {
    match ctx.type_data(t) {
        TypeData::MemRef { memory_space, .. } => Some(*memory_space),
        _ => None,
    }
}

/// The keyword of a `#gpu.address_space<...>` attribute.
fn gpu_space(ctx: &Context, space: Option<Attribute>) -> Option<&str> {
    match ctx.attr_data(space?) {
        AttrData::Dialect { dialect, body } if ctx.ident_str(*dialect) == "gpu" => {
            body.strip_prefix(".address_space<")?.strip_suffix('>')
        }
        _ => None,
    }
}

/// Checks the attributions of a `gpu.func` or `gpu.launch` (MLIR's `verifyAttributions`).
fn verify_attributions(
    ctx: &Context,
    body: &Body,
    op: OpId,
    values: &[Value],
    rb: &Body,
    space: &str,
) -> Result<(), Diagnostic> {
    for v in values {
        match address_space(ctx, rb.value_type(*v)) {
            None => return Err(op_error(ctx, body, op, "expected memref type in attribution")),
            Some(s) if gpu_space(ctx, s).is_some_and(|k| k != space) => {
                return Err(op_error(
                    ctx,
                    body,
                    op,
                    format!("expected memory space {space} in attribution"),
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

fn verify_func(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let Some((inputs, results)) = func_signature(ctx, body, op) else {
        return Ok(());
    };
    let is_kernel = lf_ir::ods::discardable_attr(ctx, body, op, "gpu.kernel").is_some();
    if is_kernel && !results.is_empty() {
        return Err(op_error(ctx, body, op, "expected void return type for kernel function"));
    }
    let rb = body.regions_body(op);
    let Some(entry) = rb.entry_block(body.region(op, 0)) else {
        return Ok(());
    };
    let args = rb.block_args(entry);
    let nw = int_attr_value(
        ctx,
        lf_ir::ods::discardable_attr(ctx, body, op, "workgroup_attributions"),
    )
    .unwrap_or(0);
    if args.len() < inputs.len() + nw {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("expected at least {} arguments to body region", inputs.len() + nw),
        ));
    }
    for (i, (a, t)) in args.iter().zip(inputs.iter()).enumerate() {
        if rb.value_type(*a) != *t {
            return Err(op_error(
                ctx,
                body,
                op,
                format!(
                    "expected body region argument #{i} to be of type {}, got {}",
                    lf_ir::printer::type_to_string(ctx, *t),
                    lf_ir::printer::type_to_string(ctx, rb.value_type(*a))
                ),
            ));
        }
    }
    let w = &args[inputs.len()..inputs.len() + nw];
    verify_attributions(ctx, body, op, w, rb, "workgroup")?;
    verify_attributions(ctx, body, op, &args[inputs.len() + nw..], rb, "private")?;
    Ok(())
}

// ---------------------------------------------------------------------------
// Terminators
// ---------------------------------------------------------------------------

/// `gpu.return`.
pub static RETURN: OpDef = OpDef {
    summary: "Terminator for GPU functions.",
    description: "Returns from a `gpu.func`; its operands match the function's results.\n\n\
        ```mlir\ngpu.return %x : f32\n```",
    traits: Traits::TERMINATOR.with(Traits::RETURN_LIKE).with(Traits::PURE),
    parents: &["gpu.func"],
    operands: &[ArgDef::variadic("operands", &ANY_TYPE)],
    format: Some("attr-dict ($operands^ `:` type($operands))?"),
    verify: Some(verify_return),
    ..OpDef::declared("gpu.return")
};

fn verify_return(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    // The enclosing gpu.func is the owner of this nested body's root region;
    // without a link to it, only the operands can be looked at here.
    let _ = (ctx, body, op);
    Ok(())
}

/// `gpu.terminator`.
pub static TERMINATOR: OpDef = OpDef {
    summary: "Terminator for GPU launch regions.",
    description: "Ends the body of a `gpu.launch`.\n\n```mlir\ngpu.terminator\n```",
    traits: Traits::TERMINATOR.with(Traits::PURE),
    parents: &["gpu.launch"],
    format: Some("attr-dict"),
    ..OpDef::declared("gpu.terminator")
};

/// `gpu.yield`.
pub static YIELD: OpDef = OpDef {
    summary: "GPU yield operation",
    description: "Yields values from the region of a GPU op (such as `gpu.all_reduce` or \
        `gpu.warp_execute_on_lane_0`) to the op.\n\n```mlir\ngpu.yield %x : f32\n```",
    traits: Traits::TERMINATOR.with(Traits::RETURN_LIKE).with(Traits::PURE),
    operands: &[ArgDef::variadic("values", &ANY_TYPE)],
    format: Some("attr-dict ($values^ `:` type($values))?"),
    ..OpDef::declared("gpu.yield")
};

// ---------------------------------------------------------------------------
// Index ops
// ---------------------------------------------------------------------------

fn parse_index_op(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    let has_dim = p.def().attributes.iter().any(|a| a.name == "dimension");
    if has_dim {
        let d = p.parse_bare_ident("a dimension")?;
        if !matches!(d, "x" | "y" | "z") {
            return Err(p.error(format!("expected one of [x, y, z] for a dimension, but got: {d}")));
        }
        p.set_prop("dimension", dim_attr(ctx, d));
    }
    if p.parse_optional_keyword("upper_bound") {
        let v = p.parse_integer()?;
        p.set_prop("upper_bound", ctx.integer_attr(v, ctx.common().index));
    }
    p.parse_optional_attr_dict()?;
    p.add_result_types(&[ctx.common().index]);
    Ok(())
}

fn print_index_op(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    if let Some(d) = prop(ctx, body, op, "dimension") {
        p.write(" ");
        match dim_of(ctx, d) {
            Some(s) => {
                p.write(" ");
                p.write(s);
            }
            None => p.attr(d),
        }
    }
    if let Some(u) = prop(ctx, body, op, "upper_bound") {
        p.write(" upper_bound ");
        match int_value(ctx, u) {
            Some(v) => p.write(&v.to_string()),
            None => p.attr(u),
        }
    }
    p.attr_dict_with_props(op, &["dimension", "upper_bound"], false);
    Ok(())
}

fn index_result_name(ctx: &Context, body: &Body, op: OpId) -> Option<String> {
    let name = ctx.op_name_str(body.op_name(op));
    let d = dim_of(ctx, prop(ctx, body, op, "dimension")?)?;
    Some(format!("{}_{d}", name.strip_prefix("gpu.")?))
}

/// Declares the `gpu.thread_id`-like ops.
macro_rules! index_ops {
    ($(($stat:ident, $name:expr, $summary:expr, $desc:expr)),* $(,)?) => {
        $(
            #[doc = concat!("`", $name, "`.")]
            pub static $stat: OpDef = OpDef {
                summary: $summary,
                description: concat!($desc, " An optional `upper_bound` promises a bound on the value.\n\n```mlir\n%t = ", $name, " x\n```"),
                traits: Traits::PURE,
                results: &[ArgDef::one("result", &INDEX)],
                attributes: &[
                    AttrDef::required("dimension", &DIMENSION_ATTR),
                    AttrDef::optional("upper_bound", &INDEX_ATTR),
                ],
                parse: Some(parse_index_op),
                print: Some(print_index_op),
                result_names: Some(index_result_name),
                ..OpDef::declared($name)
            };
        )*
    };
}

index_ops!(
    (
        THREAD_ID,
        "gpu.thread_id",
        "Returns the thread id along a dimension",
        "The id of the current thread within its block."
    ),
    (
        BLOCK_ID,
        "gpu.block_id",
        "Returns the block id along a dimension",
        "The id of the current block within the grid."
    ),
    (
        BLOCK_DIM,
        "gpu.block_dim",
        "Returns the number of threads in the thread block (aka the block size) along a dimension",
        "The size of a block."
    ),
    (
        GRID_DIM,
        "gpu.grid_dim",
        "Returns the number of thread blocks in the grid along a dimension",
        "The size of the grid."
    ),
    (
        GLOBAL_ID,
        "gpu.global_id",
        "Returns the unique global thread id along a dimension",
        "`block_id * block_dim + thread_id`."
    ),
);

/// `gpu.lane_id`.
pub static LANE_ID: OpDef = OpDef {
    summary: "Returns the id of the thread within a subgroup",
    description: "The lane of the current thread in its subgroup (warp, wavefront). An \
        optional `upper_bound` promises a bound on the value.\n\n```mlir\n%l = gpu.lane_id\n```",
    traits: Traits::PURE,
    results: &[ArgDef::one("result", &INDEX)],
    attributes: &[AttrDef::optional("upper_bound", &INDEX_ATTR)],
    parse: Some(parse_index_op),
    print: Some(print_index_op),
    ..OpDef::declared("gpu.lane_id")
};

/// `gpu.barrier`.
pub static BARRIER: OpDef = OpDef {
    summary: "Synchronizes all work items of a workgroup.",
    description: "Waits until all threads of the block reach the barrier; memory accesses \
        before it are visible to the block's threads after it.\n\n```mlir\ngpu.barrier\n```",
    format: Some("attr-dict"),
    ..OpDef::declared("gpu.barrier")
};

// ---------------------------------------------------------------------------
// gpu.launch
// ---------------------------------------------------------------------------

/// `gpu.launch`.
pub static LAUNCH: OpDef = OpDef {
    summary: "GPU kernel launch operation",
    description: "Launches its body as a kernel on a grid of blocks of threads. The body's \
        entry block has, in order, the block ids, thread ids, grid sizes and block sizes (3 \
        each, `index`), then (with `clusters`) the cluster ids and sizes, then the workgroup \
        and private attributions.\n\n```mlir\ngpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, \
        %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {\n  \
        gpu.terminator\n}\n```",
    operands: &[
        ArgDef::variadic("asyncDependencies", &ASYNC_TOKEN),
        ArgDef::one("gridSizeX", &INDEX),
        ArgDef::one("gridSizeY", &INDEX),
        ArgDef::one("gridSizeZ", &INDEX),
        ArgDef::one("blockSizeX", &INDEX),
        ArgDef::one("blockSizeY", &INDEX),
        ArgDef::one("blockSizeZ", &INDEX),
        ArgDef::optional("clusterSizeX", &INDEX),
        ArgDef::optional("clusterSizeY", &INDEX),
        ArgDef::optional("clusterSizeZ", &INDEX),
        ArgDef::optional("dynamicSharedMemorySize", &I32_TYPE),
    ],
    results: &[ArgDef::optional("asyncToken", &ASYNC_TOKEN)],
    attributes: &[
        AttrDef::optional("module", &FLAT_SYMBOL_REF),
        AttrDef::optional("function", &FLAT_SYMBOL_REF),
    ],
    regions: &[RegionDef {
        name: "body",
        single_block: false,
        may_be_empty: false,
    }],
    parse: Some(parse_launch),
    print: Some(print_launch),
    verify: Some(verify_launch),
    ..OpDef::declared("gpu.launch")
};

/// Parses `(%a, %b, %c) in (%x = %v, %y = %w, %z = %u)`: three ids, three
/// sizes (region arguments) and three size operands.
#[allow(clippy::type_complexity)]
fn parse_size_assignment<'a>(
    p: &mut CustomParser<'_, 'a>,
) -> ParseResult<(
    Vec<UnresolvedOperand<'a>>,
    Vec<UnresolvedOperand<'a>>,
    Vec<UnresolvedOperand<'a>>,
)> {
    let mut ids = Vec::new();
    p.parse_literal("(")?;
    for i in 0..3 {
        if i > 0 {
            p.parse_literal(",")?;
        }
        ids.push(p.parse_operand()?);
    }
    p.parse_literal(")")?;
    p.parse_keyword("in")?;
    p.parse_literal("(")?;
    let (mut sizes, mut vals) = (Vec::new(), Vec::new());
    for i in 0..3 {
        if i > 0 {
            p.parse_literal(",")?;
        }
        sizes.push(p.parse_operand()?);
        p.parse_literal("=")?;
        vals.push(p.parse_operand()?);
    }
    p.parse_literal(")")?;
    Ok((ids, sizes, vals))
}

fn parse_launch(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    let index = ctx.common().index;
    let (is_async, deps) = parse_async(p)?;
    let ndeps = deps.len();
    add_deps(p, deps)?;
    let cluster = if p.parse_optional_keyword("clusters") {
        Some(parse_size_assignment(p)?)
    } else {
        None
    };
    p.parse_keyword("blocks")?;
    let blocks = parse_size_assignment(p)?;
    p.parse_keyword("threads")?;
    let threads = parse_size_assignment(p)?;
    for v in blocks.2.iter().chain(threads.2.iter()) {
        p.add_operand(*v, index)?;
    }
    if let Some(c) = &cluster {
        for v in &c.2 {
            p.add_operand(*v, index)?;
        }
    }
    let mut has_dsm = false;
    if p.parse_optional_keyword("dynamic_shared_memory_size") {
        let v = p.parse_operand()?;
        p.add_operand(v, ctx.common().i32)?;
        has_dsm = true;
    }
    for key in ["module", "function"] {
        if p.parse_optional_keyword(key) {
            p.parse_literal("(")?;
            let Some(s) = p.parse_optional_symbol_name()? else {
                return Err(p.error("expected attribute value"));
            };
            let a = ctx.get_attr(AttrData::SymbolRef {
                root: s,
                nested: Box::new([]),
            });
            p.set_prop(key, a);
            p.parse_literal(")")?;
        }
    }
    let mut args: Vec<RegionArg<'_>> = Vec::new();
    let mut order: Vec<UnresolvedOperand<'_>> = Vec::new();
    order.extend(&blocks.0);
    order.extend(&threads.0);
    order.extend(&blocks.1);
    order.extend(&threads.1);
    if let Some(c) = &cluster {
        order.extend(&c.0);
        order.extend(&c.1);
    }
    for r in order {
        let loc = p.operand_loc(&r);
        args.push((r, index, loc));
    }
    let mut nworkgroup = 0;
    if p.parse_optional_keyword("workgroup") {
        nworkgroup = parse_attributions(p, &mut args)?;
    }
    if p.parse_optional_keyword("private") {
        parse_attributions(p, &mut args)?;
    }
    p.parse_region(&args)?;
    p.parse_optional_attr_dict()?;
    p.add_attr(
        "workgroup_attributions",
        ctx.integer_attr(nworkgroup as i128, ctx.common().i64),
    );
    let c = usize::from(cluster.is_some());
    set_segments(p, &[ndeps, 1, 1, 1, 1, 1, 1, c, c, c, usize::from(has_dsm)]);
    if is_async {
        p.add_result_types(&[async_token_type(ctx)]);
    }
    Ok(())
}

fn print_launch(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    let group = |n: &str| operand_group(ctx, body, op, n);
    let rb = body.regions_body(op);
    let args: Vec<Value> = rb
        .entry_block(body.region(op, 0))
        .map(|b| rb.block_args(b).to_vec())
        .unwrap_or_default();
    let deps = group("asyncDependencies");
    if has_async_result(ctx, body, op) {
        p.write(" async");
        if !deps.is_empty() {
            p.write(" [");
            p.value_list(&deps);
            p.write("]");
        }
    } else if !deps.is_empty() {
        p.write(" [");
        p.value_list(&deps);
        p.write("]");
    }
    let has_cluster = !group("clusterSizeX").is_empty();
    let nfixed = if has_cluster { 18 } else { 12 };
    if args.len() < nfixed {
        // Malformed (the verifier reports it): fall back to the generic form's content.
        p.write(" <malformed>");
        return Ok(());
    }
    let assignment = |p: &mut CustomPrinter<'_, '_>, kw: &str, ids: &[Value], sizes: &[Value], vals: [&str; 3]| {
        p.write(" ");
        p.write(kw);
        p.write("(");
        for (i, v) in ids.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.region_value(op, *v);
        }
        p.write(") in (");
        for (i, v) in sizes.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.region_value(op, *v);
            p.write(" = ");
            if let Some(x) = group(vals[i]).first() {
                p.value(*x);
            }
        }
        p.write(")");
    };
    if has_cluster {
        assignment(
            p,
            "clusters",
            &args[12..15],
            &args[15..18],
            ["clusterSizeX", "clusterSizeY", "clusterSizeZ"],
        );
    }
    assignment(
        p,
        "blocks",
        &args[0..3],
        &args[6..9],
        ["gridSizeX", "gridSizeY", "gridSizeZ"],
    );
    assignment(
        p,
        "threads",
        &args[3..6],
        &args[9..12],
        ["blockSizeX", "blockSizeY", "blockSizeZ"],
    );
    if let Some(d) = group("dynamicSharedMemorySize").first() {
        p.write(" dynamic_shared_memory_size ");
        p.value(*d);
    }
    for key in ["module", "function"] {
        if let Some(a) = prop(ctx, body, op, key) {
            p.write(" ");
            p.write(key);
            p.write("(");
            p.attr(a);
            p.write(")");
        }
    }
    let nw = int_attr_value(
        ctx,
        lf_ir::ods::discardable_attr(ctx, body, op, "workgroup_attributions"),
    )
    .unwrap_or(0);
    let wend = (nfixed + nw).min(args.len());
    print_attributions(p, op, "workgroup", &args[nfixed..wend]);
    print_attributions(p, op, "private", &args[wend..]);
    p.write(" ");
    p.region(op, 0, false, true);
    p.attr_dict_with_props(
        op,
        &["operandSegmentSizes", "workgroup_attributions", "module", "function"],
        false,
    );
    Ok(())
}

fn verify_launch(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let rb = body.regions_body(op);
    let r = body.region(op, 0);
    let Some(entry) = rb.entry_block(r) else { return Ok(()) };
    let args = rb.block_args(entry);
    let has_cluster = !operand_group(ctx, body, op, "clusterSizeX").is_empty();
    let nfixed = if has_cluster { 18 } else { 12 };
    let nw = int_attr_value(
        ctx,
        lf_ir::ods::discardable_attr(ctx, body, op, "workgroup_attributions"),
    )
    .unwrap_or(0);
    if args.len() < nfixed + nw {
        return Err(op_error(ctx, body, op, "unexpected number of region arguments"));
    }
    for b in rb.region_blocks(r) {
        if let Some(last) = rb.last_op(b) {
            let def = ctx.op_def(rb.op_name(last));
            if def.is_some_and(|d| d.has(Traits::TERMINATOR)) && ctx.op_name_str(rb.op_name(last)) != "gpu.terminator" {
                return Err(op_error(
                    ctx,
                    body,
                    op,
                    "expected 'gpu.terminator' or a terminator with successors",
                ));
            }
        }
    }
    verify_attributions(ctx, body, op, &args[nfixed..nfixed + nw], rb, "workgroup")?;
    verify_attributions(ctx, body, op, &args[nfixed + nw..], rb, "private")?;
    Ok(())
}

// ---------------------------------------------------------------------------
// gpu.launch_func
// ---------------------------------------------------------------------------

/// `gpu.launch_func`.
pub static LAUNCH_FUNC: OpDef = OpDef {
    summary: "Launches a function as a GPU kernel",
    description: "Launches the kernel `@module::@func` (a `gpu.func` with the `kernel` \
        attribute in a `gpu.module`) on a grid of blocks of threads, passing `args(...)`. The \
        enclosing module must have the `gpu.container_module` attribute.\n\n```mlir\n\
        gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) \
        args(%m : memref<?xf32>)\n```",
    operands: &[
        ArgDef::variadic("asyncDependencies", &ASYNC_TOKEN),
        ArgDef::one("gridSizeX", &LAUNCH_INDEX),
        ArgDef::one("gridSizeY", &LAUNCH_INDEX),
        ArgDef::one("gridSizeZ", &LAUNCH_INDEX),
        ArgDef::one("blockSizeX", &LAUNCH_INDEX),
        ArgDef::one("blockSizeY", &LAUNCH_INDEX),
        ArgDef::one("blockSizeZ", &LAUNCH_INDEX),
        ArgDef::optional("clusterSizeX", &LAUNCH_INDEX),
        ArgDef::optional("clusterSizeY", &LAUNCH_INDEX),
        ArgDef::optional("clusterSizeZ", &LAUNCH_INDEX),
        ArgDef::optional("dynamicSharedMemorySize", &I32_TYPE),
        ArgDef::variadic("kernelOperands", &ANY_TYPE),
        ArgDef::optional("asyncObject", &ANY_TYPE),
    ],
    results: &[ArgDef::optional("asyncToken", &ASYNC_TOKEN)],
    attributes: &[AttrDef::required("kernel", &SYMBOL_REF)],
    parse: Some(parse_launch_func),
    print: Some(print_launch_func),
    verify: Some(verify_launch_func),
    ..OpDef::declared("gpu.launch_func")
};

fn parse_three<'a>(p: &mut CustomParser<'_, 'a>) -> ParseResult<Vec<UnresolvedOperand<'a>>> {
    p.parse_keyword("in")?;
    p.parse_literal("(")?;
    let mut v = Vec::new();
    for i in 0..3 {
        if i > 0 {
            p.parse_literal(",")?;
        }
        v.push(p.parse_operand()?);
    }
    p.parse_literal(")")?;
    Ok(v)
}

fn parse_launch_func(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    let (is_async, deps) = parse_async(p)?;
    let ndeps = deps.len();
    add_deps(p, deps)?;
    let mut object = None;
    if p.parse_optional_literal("<") {
        let o = p.parse_operand()?;
        p.parse_literal(":")?;
        let t = p.parse_type()?;
        p.parse_literal(">")?;
        object = Some((o, t));
    }
    let kernel = p.parse_attribute()?;
    if !matches!(ctx.attr_data(kernel), AttrData::SymbolRef { .. }) {
        return Err(p.error("invalid kind of attribute specified"));
    }
    p.set_prop("kernel", kernel);
    let clusters = if p.parse_optional_keyword("clusters") {
        Some(parse_three(p)?)
    } else {
        None
    };
    p.parse_keyword("blocks")?;
    let grid = parse_three(p)?;
    p.parse_keyword("threads")?;
    let block = parse_three(p)?;
    let ty = if p.parse_optional_literal(":") {
        p.parse_type()?
    } else {
        ctx.common().index
    };
    for v in grid.iter().chain(block.iter()).chain(clusters.iter().flatten()) {
        p.add_operand(*v, ty)?;
    }
    let mut has_dsm = false;
    if p.parse_optional_keyword("dynamic_shared_memory_size") {
        let v = p.parse_operand()?;
        p.add_operand(v, ctx.common().i32)?;
        has_dsm = true;
    }
    let mut nargs = 0;
    if p.parse_optional_keyword("args") {
        p.parse_literal("(")?;
        if !p.parse_optional_literal(")") {
            loop {
                let v = p.parse_operand()?;
                p.parse_literal(":")?;
                let t = p.parse_type()?;
                p.add_operand(v, t)?;
                nargs += 1;
                if !p.parse_optional_literal(",") {
                    break;
                }
            }
            p.parse_literal(")")?;
        }
    }
    p.parse_optional_attr_dict()?;
    if let Some((o, t)) = object {
        p.add_operand(o, t)?;
    }
    let c = usize::from(clusters.is_some());
    set_segments(
        p,
        &[
            ndeps,
            1,
            1,
            1,
            1,
            1,
            1,
            c,
            c,
            c,
            usize::from(has_dsm),
            nargs,
            usize::from(object.is_some()),
        ],
    );
    if is_async {
        p.add_result_types(&[async_token_type(ctx)]);
    }
    Ok(())
}

fn print_launch_func(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    let group = |n: &str| operand_group(ctx, body, op, n);
    p.write(" ");
    print_async(p, has_async_result(ctx, body, op), &group("asyncDependencies"));
    if let Some(o) = group("asyncObject").first() {
        p.write(" <");
        p.value(*o);
        p.write(" : ");
        p.ty(body.value_type(*o));
        p.write(">");
    }
    p.write(" ");
    if let Some(k) = prop(ctx, body, op, "kernel") {
        p.attr(k);
    }
    let three = |p: &mut CustomPrinter<'_, '_>, kw: &str, names: [&str; 3]| {
        p.write(" ");
        p.write(kw);
        p.write(" in (");
        let vals: Vec<Value> = names.iter().filter_map(|n| group(n).first().copied()).collect();
        p.value_list(&vals);
        p.write(")");
    };
    if !group("clusterSizeX").is_empty() {
        three(p, "clusters", ["clusterSizeX", "clusterSizeY", "clusterSizeZ"]);
    }
    three(p, "blocks", ["gridSizeX", "gridSizeY", "gridSizeZ"]);
    three(p, "threads", ["blockSizeX", "blockSizeY", "blockSizeZ"]);
    p.write(" ");
    if let Some(g) = group("gridSizeX").first() {
        let t = body.value_type(*g);
        if t != ctx.common().index {
            p.write(": ");
            p.ty(t);
        }
    }
    if let Some(d) = group("dynamicSharedMemorySize").first() {
        p.write(" dynamic_shared_memory_size ");
        p.value(*d);
    }
    p.write(" ");
    let args = group("kernelOperands");
    if !args.is_empty() {
        p.write("args(");
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.value(*a);
            p.write(" : ");
            p.ty(body.value_type(*a));
        }
        p.write(")");
    }
    p.attr_dict_with_props(op, &["operandSegmentSizes", "kernel"], false);
    Ok(())
}

/// The operand groups of `gpu.launch` and `gpu.launch_func` that give the
/// grid and block sizes, in the order x, y, z of the grid, then of the block.
pub const LAUNCH_SIZE_OPERANDS: [&str; 6] = [
    "gridSizeX",
    "gridSizeY",
    "gridSizeZ",
    "blockSizeX",
    "blockSizeY",
    "blockSizeZ",
];

fn verify_launch_func(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let Some(kernel) = prop(ctx, body, op, "kernel") else {
        return Ok(());
    };
    if let AttrData::SymbolRef { nested, .. } = ctx.attr_data(kernel) {
        if nested.len() != 1 {
            return Err(op_error(
                ctx,
                body,
                op,
                "expected symbol reference @module::@function for the kernel",
            ));
        }
    }
    let clusters = ["clusterSizeX", "clusterSizeY", "clusterSizeZ"];
    let tys: Vec<Type> = LAUNCH_SIZE_OPERANDS
        .iter()
        .chain(clusters.iter())
        .flat_map(|n| operand_group(ctx, body, op, n))
        .map(|v| body.value_type(v))
        .collect();
    if tys.iter().any(|t| *t != tys[0]) {
        return Err(op_error(
            ctx,
            body,
            op,
            "failed to verify that all of {gridSizeX, gridSizeY, gridSizeZ, blockSizeX, blockSizeY, blockSizeZ} have same type",
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Memory ops
// ---------------------------------------------------------------------------

/// `gpu.alloc`.
pub static ALLOC: OpDef = OpDef {
    summary: "GPU memory allocation operation.",
    description: "Allocates a memref on the device (or, with `host_shared`, memory visible \
        to host and device), with the dynamic sizes in `(...)` and the symbols of its layout \
        in `[...]`. With `async`, it also returns a token.\n\n```mlir\n%m, %t = gpu.alloc \
        async [%dep] (%n) : memref<?xf32>\n```",
    operands: &[
        ArgDef::variadic("asyncDependencies", &ASYNC_TOKEN),
        ArgDef::variadic("dynamicSizes", &INDEX),
        ArgDef::variadic("symbolOperands", &INDEX),
    ],
    results: &[
        ArgDef::one("memref", &ANY_MEMREF),
        ArgDef::optional("asyncToken", &ASYNC_TOKEN),
    ],
    attributes: &[AttrDef::optional("hostShared", &UNIT_ATTR)],
    parse: Some(parse_alloc),
    print: Some(print_alloc),
    verify: Some(verify_alloc),
    // `%memref`, or `%memref, %asyncToken` with `async` (when the printer
    // names results one by one, see `lf_ir::printer::names::Names::compute_with`).
    result_names: Some(|_, body, op| {
        Some(
            if body.num_results(op) == 2 {
                "memref,asyncToken"
            } else {
                "memref"
            }
            .into(),
        )
    }),
    ..OpDef::declared("gpu.alloc")
};

fn parse_alloc(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    let index = ctx.common().index;
    let (is_async, deps) = parse_async(p)?;
    let ndeps = deps.len();
    add_deps(p, deps)?;
    if p.parse_optional_keyword("host_shared") {
        p.set_prop("hostShared", ctx.get_attr(AttrData::Unit));
    }
    p.parse_literal("(")?;
    let sizes = p.parse_operand_list()?;
    p.parse_literal(")")?;
    let mut syms = Vec::new();
    if p.parse_optional_literal("[") {
        syms = p.parse_operand_list()?;
        p.parse_literal("]")?;
    }
    p.parse_optional_attr_dict()?;
    p.parse_literal(":")?;
    let t = p.parse_type()?;
    let (ns, nsym) = (sizes.len(), syms.len());
    for v in sizes.into_iter().chain(syms) {
        p.add_operand(v, index)?;
    }
    set_segments(p, &[ndeps, ns, nsym]);
    p.add_result_types(&[t]);
    if is_async {
        p.add_result_types(&[async_token_type(ctx)]);
    }
    Ok(())
}

fn print_alloc(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    p.write(" ");
    print_async(
        p,
        body.num_results(op) > 1,
        &operand_group(ctx, body, op, "asyncDependencies"),
    );
    if prop(ctx, body, op, "hostShared").is_some() {
        p.write(" host_shared");
    }
    p.write(" (");
    p.value_list(&operand_group(ctx, body, op, "dynamicSizes"));
    p.write(")");
    let syms = operand_group(ctx, body, op, "symbolOperands");
    if !syms.is_empty() {
        p.write("[");
        p.value_list(&syms);
        p.write("]");
    }
    p.attr_dict_with_props(op, &["operandSegmentSizes", "hostShared"], false);
    p.write(" : ");
    p.ty(body.value_type(body.result(op, 0)));
    Ok(())
}

fn verify_alloc(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let t = body.value_type(body.result(op, 0));
    let TypeData::MemRef { shape, layout, .. } = ctx.type_data(t) else {
        return Ok(());
    };
    let dynamic = shape.iter().filter(|d| **d < 0).count();
    let nsizes = operand_group(ctx, body, op, "dynamicSizes").len();
    if nsizes != dynamic {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("incorrect number of dynamic sizes, has {nsizes}, expected {dynamic}"),
        ));
    }
    let nsyms = match layout.map(|l| ctx.attr_data(l)) {
        Some(AttrData::AffineMap(m)) => m.num_symbols() as usize,
        _ => 0,
    };
    if operand_group(ctx, body, op, "symbolOperands").len() != nsyms {
        return Err(op_error(
            ctx,
            body,
            op,
            "symbol operand count does not equal memref symbol count",
        ));
    }
    Ok(())
}

/// Parses `async`? `[deps]`? and adds the dependencies; returns whether `async` was given.
fn parse_async_prefix(p: &mut CustomParser<'_, '_>) -> ParseResult<bool> {
    let (is_async, deps) = parse_async(p)?;
    add_deps(p, deps)?;
    Ok(is_async)
}

fn finish_async(p: &mut CustomParser<'_, '_>, is_async: bool) {
    if is_async {
        let t = async_token_type(p.ctx());
        p.add_result_types(&[t]);
    }
}

/// The operands after the async dependencies.
fn non_dep_operands(ctx: &Context, body: &Body, op: OpId) -> Vec<Value> {
    let n = operand_group(ctx, body, op, "asyncDependencies").len();
    body.operands(op).skip(n).collect()
}

fn print_async_prefix(p: &mut CustomPrinter<'_, '_>, op: OpId) {
    let ctx = p.ctx();
    let body = p.body();
    p.write(" ");
    print_async(
        p,
        body.num_results(op) > 0,
        &operand_group(ctx, body, op, "asyncDependencies"),
    );
}

/// `gpu.dealloc`.
pub static DEALLOC: OpDef = OpDef {
    summary: "GPU memory deallocation operation",
    description: "Frees memory allocated by `gpu.alloc`.\n\n```mlir\ngpu.dealloc %m : memref<?xf32>\n```",
    operands: &[
        ArgDef::variadic("asyncDependencies", &ASYNC_TOKEN),
        ArgDef::one("memref", &ANY_MEMREF),
    ],
    results: &[ArgDef::optional("asyncToken", &ASYNC_TOKEN)],
    parse: Some(|p| {
        let a = parse_async_prefix(p)?;
        let m = p.parse_operand()?;
        p.parse_optional_attr_dict()?;
        p.parse_literal(":")?;
        let t = p.parse_type()?;
        p.add_operand(m, t)?;
        finish_async(p, a);
        Ok(())
    }),
    print: Some(|p, op| {
        print_async_prefix(p, op);
        let v = non_dep_operands(p.ctx(), p.body(), op);
        p.write(" ");
        p.value(v[0]);
        p.attr_dict_with_props(op, &[], false);
        p.write(" : ");
        p.ty(p.body().value_type(v[0]));
        Ok(())
    }),
    ..OpDef::declared("gpu.dealloc")
};

/// `gpu.memcpy`.
pub static MEMCPY: OpDef = OpDef {
    summary: "GPU memcpy operation",
    description: "Copies the contents of `src` into `dst`.\n\n```mlir\n%t = gpu.memcpy async \
        [%dep] %dst, %src : memref<?xf32, 1>, memref<?xf32>\n```",
    operands: &[
        ArgDef::variadic("asyncDependencies", &ASYNC_TOKEN),
        ArgDef::one("dst", &ANY_MEMREF),
        ArgDef::one("src", &ANY_MEMREF),
    ],
    results: &[ArgDef::optional("asyncToken", &ASYNC_TOKEN)],
    parse: Some(parse_two_operand_op),
    print: Some(print_two_operand_op),
    verify: Some(verify_memcpy),
    ..OpDef::declared("gpu.memcpy")
};

/// `gpu.memset`.
pub static MEMSET: OpDef = OpDef {
    summary: "GPU memset operation",
    description: "Sets every element of `dst` to `value`.\n\n```mlir\n%t = gpu.memset async \
        [%dep] %dst, %value : memref<?xf32, 1>, f32\n```",
    operands: &[
        ArgDef::variadic("asyncDependencies", &ASYNC_TOKEN),
        ArgDef::one("dst", &ANY_MEMREF),
        ArgDef::one("value", &ANY_TYPE),
    ],
    results: &[ArgDef::optional("asyncToken", &ASYNC_TOKEN)],
    parse: Some(parse_two_operand_op),
    print: Some(print_two_operand_op),
    verify: Some(verify_memset),
    ..OpDef::declared("gpu.memset")
};

fn parse_two_operand_op(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let a = parse_async_prefix(p)?;
    let x = p.parse_operand()?;
    p.parse_literal(",")?;
    let y = p.parse_operand()?;
    p.parse_optional_attr_dict()?;
    p.parse_literal(":")?;
    let tx = p.parse_type()?;
    p.parse_literal(",")?;
    let ty = p.parse_type()?;
    p.add_operand(x, tx)?;
    p.add_operand(y, ty)?;
    finish_async(p, a);
    Ok(())
}

fn print_two_operand_op(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    print_async_prefix(p, op);
    let v = non_dep_operands(p.ctx(), p.body(), op);
    p.write(" ");
    p.value_list(&v);
    p.attr_dict_with_props(op, &[], false);
    p.write(" : ");
    let tys: Vec<Type> = v.iter().map(|x| p.body().value_type(*x)).collect();
    p.type_list(&tys);
    Ok(())
}

fn verify_memcpy(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let v = non_dep_operands(ctx, body, op);
    let (d, s) = (body.value_type(v[0]), body.value_type(v[1]));
    let (ed, es) = (ctx.type_data(d).element_type(), ctx.type_data(s).element_type());
    if ed != es {
        return Err(op_error(ctx, body, op, "arguments have incompatible element type"));
    }
    if let (Some(a), Some(b)) = (ctx.type_data(d).shape(), ctx.type_data(s).shape()) {
        if a.len() != b.len() || a.iter().zip(b).any(|(x, y)| *x >= 0 && *y >= 0 && x != y) {
            return Err(op_error(ctx, body, op, "arguments have incompatible shape"));
        }
    }
    Ok(())
}

fn verify_memset(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let v = non_dep_operands(ctx, body, op);
    let (d, val) = (body.value_type(v[0]), body.value_type(v[1]));
    if ctx.type_data(d).element_type() != Some(val) {
        return Err(op_error(
            ctx,
            body,
            op,
            "failed to verify that all of {dst, value} have same element type",
        ));
    }
    Ok(())
}

/// `gpu.wait`.
pub static WAIT: OpDef = OpDef {
    summary: "Wait for async gpu ops to complete.",
    description: "Without `async`, blocks the host until the dependencies complete; with \
        `async`, returns a token that completes when they do.\n\n```mlir\n%t = gpu.wait async \
        [%t1, %t2]\ngpu.wait [%t]\n```",
    operands: &[ArgDef::variadic("asyncDependencies", &ASYNC_TOKEN)],
    results: &[ArgDef::optional("asyncToken", &ASYNC_TOKEN)],
    parse: Some(|p| {
        let a = parse_async_prefix(p)?;
        p.parse_optional_attr_dict()?;
        finish_async(p, a);
        Ok(())
    }),
    print: Some(|p, op| {
        print_async_prefix(p, op);
        p.attr_dict_with_props(op, &[], false);
        Ok(())
    }),
    ..OpDef::declared("gpu.wait")
};

/// All ops of the dialect.
pub static OPS: &[&OpDef] = &[
    &MODULE,
    &FUNC,
    &RETURN,
    &TERMINATOR,
    &YIELD,
    &THREAD_ID,
    &BLOCK_ID,
    &BLOCK_DIM,
    &GRID_DIM,
    &GLOBAL_ID,
    &LANE_ID,
    &BARRIER,
    &LAUNCH,
    &LAUNCH_FUNC,
    &ALLOC,
    &DEALLOC,
    &MEMCPY,
    &MEMSET,
    &WAIT,
];

/// What the op reference says about the dialect.
pub const INTRO: &str = "GPU kernels and their launch, as in MLIR's `gpu` dialect: `gpu.module`s \
    hold `gpu.func` kernels that `gpu.launch_func` launches on a grid of blocks of threads \
    (or `gpu.launch` runs its body as a kernel), with thread/block ids, barriers, device \
    memory ops and `!gpu.async.token` dependencies. A module with `gpu.launch_func` ops must \
    have the `gpu.container_module` attribute.";
