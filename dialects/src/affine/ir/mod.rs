//! The `affine` dialect: loops, conditionals and memory accesses whose
//! bounds, conditions and subscripts are affine functions of loop induction
//! variables and symbols, with MLIR 22's syntax, properties and verifier
//! messages.
//!
//! Dimension and symbol operands follow MLIR's rules (see
//! [`crate::affine::utils::validity`]), with one documented relaxation: inside a GPU
//! kernel (an op nested in `gpu.launch` or `gpu.func`), the results of
//! `gpu.thread_id`, `gpu.block_id`, `gpu.block_dim` and `gpu.grid_dim`, and
//! affine combinations of them, are valid dimensions.

#[rustfmt::skip]
mod views;
pub use views::*;

pub mod canonicalize;
mod ops;

use crate::affine::utils::validity::{
    affine_scope_region, is_index, is_induction_var, is_valid_dim_in, is_valid_symbol,
};
use lf_ir::view::is_op;

pub use ops::{AffineBound, FOR_LOOP_LIKE, PARALLEL_LOOP_LIKE};

use crate::support::{element_type, op_error};
use lf_ir::affine::{AffineMap, IntegerSet};
use lf_ir::attrs::AttrData;
use lf_ir::diag::Diagnostic;
use lf_ir::ods::constraints::*;
use lf_ir::ods::{prop, segment_sizes_attr, ArgDef, AttrConstraint, AttrDef, AttrKind, RegionDef, TypeRule};
use lf_ir::parser::{CustomParser, ParseResult, UnresolvedOperand};
use lf_ir::printer::{type_to_string, CustomPrinter};
use lf_ir::{Attribute, Body, Context, OpDef, OpId, Traits, Type, TypeData, Value};

/// Introduction of the op reference.
pub const INTRO: &str = "The `affine` dialect: `affine.for` loops and `affine.if` \
conditionals whose bounds and conditions are affine maps and integer sets of loop \
induction variables and symbols, and memory accesses (`affine.load`, `affine.store`) whose \
subscripts are affine expressions of them. Syntax, properties and verifier messages follow \
MLIR 22.\n\n**Dimensions and symbols.** An operand bound to a map dimension must be a valid \
dimension: a loop induction variable of `affine.for`/`affine.parallel`, a valid symbol, \
the result of `affine.apply` of valid dimensions, or of `memref.dim` of a top-level memref. \
An operand bound to a symbol must be a valid symbol: a value defined at the top level of an \
affine scope (a function, a kernel, a module, or the body of a `gpu.launch`, which MLIR \
declares an affine scope: its block and thread ids and sizes are symbols in it), a \
constant, `affine.apply`/`memref.dim` of symbols, or, inside a `gpu.launch`, a symbol of \
the region that holds the launch. `canonicalize` turns dimensions that are valid symbols \
into symbols, inside launches too, as MLIR.\n\n\
**lf's relaxation.** Inside a GPU kernel (an op nested in `gpu.launch` or `gpu.func`), the \
results of `gpu.thread_id`, `gpu.block_id`, `gpu.block_dim` and `gpu.grid_dim` (and \
`affine.apply` of them) are valid dimensions wherever they are defined, so that a kernel \
can index memory with `affine.load %A[%i + %tx]` inside an `scf.for`. MLIR accepts them only \
where they are symbols (at the top level of the kernel or launch body) and rejects them \
elsewhere (\"operand cannot be used as a dimension id\"); lf accepts them.";

// ------------------------------------------------------------ dims and symbols

/// MLIR's `verifyDimAndSymbolIdentifiers`: `operands` bind `num_dims`
/// dimensions then symbols.
fn verify_dims_and_symbols(
    ctx: &Context,
    body: &Body,
    op: OpId,
    operands: &[Value],
    num_dims: usize,
) -> Result<(), Diagnostic> {
    // Most dimensions are loop variables, valid without the scope: it is
    // looked up (a walk to the enclosing scope) only when needed.
    let scope = std::cell::OnceCell::new();
    let scope = || *scope.get_or_init(|| affine_scope_region(ctx, body, op));
    for (i, v) in operands.iter().enumerate() {
        if i < num_dims {
            if is_index(ctx, body, *v) && is_induction_var(ctx, body, *v) {
                continue;
            }
            if !is_valid_dim_in(ctx, body, *v, &scope) {
                return Err(op_error(ctx, body, op, "operand cannot be used as a dimension id"));
            }
        } else if !is_valid_symbol(ctx, body, *v, scope()) {
            return Err(op_error(ctx, body, op, "operand cannot be used as a symbol"));
        }
    }
    Ok(())
}

// ------------------------------------------------------------ helpers

fn map_of(ctx: &Context, a: Option<Attribute>) -> Option<&AffineMap> {
    match ctx.attr_data(a?) {
        AttrData::AffineMap(m) => Some(m),
        _ => None,
    }
}

fn set_of(ctx: &Context, a: Option<Attribute>) -> Option<&IntegerSet> {
    match ctx.attr_data(a?) {
        AttrData::IntegerSet(s) => Some(s),
        _ => None,
    }
}

fn map_attr(ctx: &Context, m: AffineMap) -> Attribute {
    ctx.get_attr(AttrData::AffineMap(m))
}

/// Parses `(%d, ...)[%s, ...]` (the brackets optional).
fn parse_dim_and_symbol_list<'a>(
    p: &mut CustomParser<'_, 'a>,
) -> ParseResult<(Vec<UnresolvedOperand<'a>>, Vec<UnresolvedOperand<'a>>)> {
    let mut dims = Vec::new();
    if p.parse_optional_literal("(") {
        dims = p.parse_operand_list()?;
        p.parse_literal(")")?;
    }
    let mut syms = Vec::new();
    if p.parse_optional_literal("[") {
        syms = p.parse_operand_list()?;
        p.parse_literal("]")?;
    }
    Ok((dims, syms))
}

/// Prints `(%d, ...)` and, if there are symbols, `[%s, ...]`.
fn print_dim_and_symbol_list(p: &mut CustomPrinter<'_, '_>, operands: &[Value], num_dims: usize) {
    let num_dims = num_dims.min(operands.len());
    p.write("(");
    p.value_list(&operands[..num_dims]);
    p.write(")");
    if operands.len() > num_dims {
        p.write("[");
        p.value_list(&operands[num_dims..]);
        p.write("]");
    }
}

/// Prints the results of `map` with its dimensions and symbols named by `operands`
/// (`%i + 1, symbol(%n)`), as MLIR's `printAffineMapOfSSAIds`.
fn print_map_of_ssa_ids(p: &mut CustomPrinter<'_, '_>, map: &AffineMap, operands: &[Value]) {
    let nd = (map.num_dims() as usize).min(operands.len());
    let (dims, syms) = operands.split_at(nd);
    for (i, e) in map.results().iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.affine_expr_of_values(e, dims, syms);
    }
}

fn index_ty(p: &CustomParser<'_, '_>) -> Type {
    p.ctx().common().index
}

fn add_index_operands<'a>(p: &mut CustomParser<'_, 'a>, refs: &[UnresolvedOperand<'a>]) -> ParseResult<()> {
    let t = index_ty(p);
    for r in refs {
        p.add_operand(*r, t)?;
    }
    Ok(())
}

// ------------------------------------------------------------ affine.apply / min / max

fn parse_map_op(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let a = p.parse_attribute()?;
    let Some(m) = map_of(p.ctx(), Some(a)).cloned() else {
        return Err(p.error("expected affine map"));
    };
    let (dims, syms) = parse_dim_and_symbol_list(p)?;
    if dims.len() != m.num_dims() as usize {
        return Err(p.error("dimension operand count does not equal affine map dimension count"));
    }
    if syms.len() != m.num_symbols() as usize {
        return Err(p.error("symbol operand count does not equal affine map symbol count"));
    }
    p.set_prop("map", a);
    add_index_operands(p, &dims)?;
    add_index_operands(p, &syms)?;
    p.parse_optional_attr_dict()?;
    let t = index_ty(p);
    p.add_result_types(&[t]);
    Ok(())
}

fn print_map_op(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    let a = prop(ctx, body, op, "map");
    p.write(" ");
    if let Some(a) = a {
        p.attr(a);
    }
    let nd = map_of(ctx, a).map_or(0, |m| m.num_dims() as usize);
    let ops: Vec<Value> = body.operands(op).collect();
    print_dim_and_symbol_list(p, &ops, nd);
    p.attr_dict_with_props(op, &["map"], false);
    Ok(())
}

fn verify_map_op(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let Some(m) = map_of(ctx, prop(ctx, body, op, "map")) else {
        return Ok(());
    };
    let ops: Vec<Value> = body.operands(op).collect();
    if ops.len() != m.num_inputs() as usize {
        return Err(op_error(
            ctx,
            body,
            op,
            "operand count and affine map dimension and symbol count must match",
        ));
    }
    let is_apply = is_op(ctx, body, op, &APPLY);
    if is_apply && m.num_results() != 1 {
        return Err(op_error(ctx, body, op, "mapping must produce one value"));
    }
    if !is_apply && m.num_results() == 0 {
        return Err(op_error(ctx, body, op, "affine map expect at least one result"));
    }
    // MLIR does not check the dimension/symbol rules for these ops.
    Ok(())
}

static MAP_OPERANDS: &[ArgDef] = &[ArgDef::variadic("mapOperands", &INDEX)];
static INDEX_RESULT: &[ArgDef] = &[ArgDef::one("result", &INDEX)];
static MAP_ATTR: &[AttrDef] = &[AttrDef::required("map", &AFFINE_MAP_ATTR)];

/// `affine.apply`.
pub static APPLY: OpDef = OpDef {
    summary: "affine apply operation",
    description: "Applies a one-result affine map to dimension and symbol operands.\n\n\
        ```mlir\n%r = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0)>(%i)[%n]\n```",
    traits: Traits::PURE,
    operands: MAP_OPERANDS,
    results: INDEX_RESULT,
    attributes: MAP_ATTR,
    parse: Some(parse_map_op),
    print: Some(print_map_op),
    verify_local: Some(verify_map_op),
    ..OpDef::declared("affine.apply")
};

/// `affine.min`.
pub static MIN: OpDef = OpDef {
    summary: "min operation",
    description: "The minimum of the results of an affine map.\n\n\
        ```mlir\n%r = affine.min affine_map<(d0)[s0] -> (1000, d0 + 512, s0)>(%i)[%n]\n```",
    traits: Traits::PURE,
    operands: MAP_OPERANDS,
    results: INDEX_RESULT,
    attributes: MAP_ATTR,
    parse: Some(parse_map_op),
    print: Some(print_map_op),
    verify_local: Some(verify_map_op),
    ..OpDef::declared("affine.min")
};

/// `affine.max`.
pub static MAX: OpDef = OpDef {
    summary: "max operation",
    description: "The maximum of the results of an affine map.\n\n\
        ```mlir\n%r = affine.max affine_map<(d0) -> (d0, 0)>(%i)\n```",
    traits: Traits::PURE,
    operands: MAP_OPERANDS,
    results: INDEX_RESULT,
    attributes: MAP_ATTR,
    parse: Some(parse_map_op),
    print: Some(print_map_op),
    verify_local: Some(verify_map_op),
    ..OpDef::declared("affine.max")
};

// ------------------------------------------------------------ loads and stores

/// Parses `%A[exprs]`; adds the memref and map operands, sets `map`, and
/// returns the memref type after `:` (and the vector type after `,` when `vector`).
fn parse_affine_access(p: &mut CustomParser<'_, '_>, vector: bool) -> ParseResult<(Type, Option<Type>)> {
    let m = p.parse_operand()?;
    p.parse_literal("[")?;
    let (a, dims, syms) = p.parse_affine_map_attr_of_ssa_ids(']')?;
    p.parse_optional_attr_dict()?;
    p.parse_literal(":")?;
    let t = p.parse_type()?;
    if !matches!(p.ctx().type_data(t), TypeData::MemRef { .. }) {
        return Err(p.error("expected memref type"));
    }
    let vt = if vector {
        p.parse_literal(",")?;
        Some(p.parse_type()?)
    } else {
        None
    };
    p.add_operand(m, t)?;
    add_index_operands(p, &dims)?;
    add_index_operands(p, &syms)?;
    p.set_prop("map", a);
    Ok((t, vt))
}

fn parse_load(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let (t, _) = parse_affine_access(p, false)?;
    let e = p.ctx().type_data(t).element_type().expect("memref");
    p.add_result_types(&[e]);
    Ok(())
}

fn parse_vector_load(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let (_, vt) = parse_affine_access(p, true)?;
    p.add_result_types(&[vt.expect("vector")]);
    Ok(())
}

fn parse_store_like(p: &mut CustomParser<'_, '_>, vector: bool) -> ParseResult<()> {
    let v = p.parse_operand()?;
    p.parse_literal(",")?;
    // The value is the first operand: parse the rest, then put the value first.
    let mark = p.num_pending_operands();
    let (t, vt) = parse_affine_access(p, vector)?;
    let vty = match vt {
        Some(vt) => vt,
        None => p.ctx().type_data(t).element_type().expect("memref"),
    };
    p.insert_operand(mark, v, vty)?;
    Ok(())
}

fn print_affine_access(p: &mut CustomPrinter<'_, '_>, op: OpId, first: usize, vector: Option<Type>) {
    let ctx = p.ctx();
    let body = p.body();
    let ops: smallvec::SmallVec<[Value; 8]> = body.operands(op).collect();
    p.value(ops[first]);
    p.write("[");
    // The map is printed inline (never as an alias): a dry run skips it.
    if let Some(m) = map_of(ctx, prop(ctx, body, op, "map")).filter(|_| !p.is_dry_run()) {
        print_map_of_ssa_ids(p, m, &ops[first + 1..]);
    }
    p.write("]");
    p.attr_dict_with_props(op, &["map"], false);
    p.write(" : ");
    p.ty(body.value_type(ops[first]));
    if let Some(v) = vector {
        p.write(", ");
        p.ty(v);
    }
}

fn print_load(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    p.write(" ");
    print_affine_access(p, op, 0, None);
    Ok(())
}

fn print_vector_load(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    p.write(" ");
    let vt = p.body().value_type(p.body().result(op, 0));
    print_affine_access(p, op, 0, Some(vt));
    Ok(())
}

fn print_store(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    p.write(" ");
    let v = p.body().operand(op, 0);
    p.value(v);
    p.write(", ");
    print_affine_access(p, op, 1, None);
    Ok(())
}

fn print_vector_store(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    p.write(" ");
    let v = p.body().operand(op, 0);
    p.value(v);
    p.write(", ");
    let vt = p.body().value_type(v);
    print_affine_access(p, op, 1, Some(vt));
    Ok(())
}

/// The checks of MLIR's `verifyMemoryOpIndexing` for a load or store
/// (memref operand `memref_index`) that read only the op itself: its map
/// against the memref's rank and the subscripts (its `verify_local`).
fn verify_access_local(ctx: &Context, body: &Body, op: OpId, memref_index: usize) -> Result<(), Diagnostic> {
    let err = |m: &str| Err(op_error(ctx, body, op, m));
    let Some(map) = map_of(ctx, prop(ctx, body, op, "map")) else {
        return Ok(());
    };
    let mt = body.value_type(body.operand(op, memref_index));
    let rank = ctx.type_data(mt).shape().map_or(0, <[i64]>::len);
    if map.num_results() != rank {
        return err("affine map num results must equal memref rank");
    }
    if map.num_inputs() as usize != body.num_operands(op) - (memref_index + 1) {
        return err("expects as many subscripts as affine map inputs");
    }
    if !body.operands(op).skip(memref_index + 1).all(|v| is_index(ctx, body, v)) {
        return err("index to load must have 'index' type");
    }
    Ok(())
}

/// The rest of a load's or store's checks, after [`verify_access_local`]:
/// its subscripts are valid dimensions and symbols where they are defined.
fn verify_access_operands(ctx: &Context, body: &Body, op: OpId, memref_index: usize) -> Result<(), Diagnostic> {
    let Some(map) = map_of(ctx, prop(ctx, body, op, "map")) else {
        return Ok(());
    };
    let idx: smallvec::SmallVec<[Value; 8]> = body.operands(op).skip(memref_index + 1).collect();
    verify_dims_and_symbols(ctx, body, op, &idx, map.num_dims() as usize)
}

static LOAD_OPERANDS: &[ArgDef] = &[
    ArgDef::one("memref", &ANY_MEMREF).reads(),
    ArgDef::variadic("indices", &INDEX),
];
static STORE_OPERANDS: &[ArgDef] = &[
    ArgDef::one("value", &ANY_TYPE),
    ArgDef::one("memref", &ANY_MEMREF).writes(),
    ArgDef::variadic("indices", &INDEX),
];

/// `affine.load`.
pub static LOAD: OpDef = OpDef {
    summary: "affine load operation",
    description: "Reads an element of a memref at subscripts that are affine expressions of \
        dimensions (loop induction variables, top-level values) and symbols (written \
        `symbol(%n)`). The expressions are kept as the `map` property; its operands follow \
        the memref.\n\n```mlir\n%v = affine.load %A[%i + 1, %j * 2 + symbol(%n)] : memref<100x100xf32>\n```",
    traits: Traits::MEMORY_EFFECTS,
    operands: LOAD_OPERANDS,
    results: &[ArgDef::one("result", &ANY_TYPE)],
    attributes: MAP_ATTR,
    type_rules: &[TypeRule::Derived {
        target: "result",
        source: "memref",
        derive: element_type,
        description: "result type matches element type of 'memref'",
    }],
    parse: Some(parse_load),
    print: Some(print_load),
    verify_local: Some(|ctx, body, op| verify_access_local(ctx, body, op, 0)),
    verify: Some(|ctx, body, op| verify_access_operands(ctx, body, op, 0)),
    ..OpDef::declared("affine.load")
};

/// `affine.store`.
pub static STORE: OpDef = OpDef {
    summary: "affine store operation",
    description: "Writes `value` to a memref element at affine subscripts (as in \
        `affine.load`).\n\n```mlir\naffine.store %v, %A[%i, %j + 1] : memref<100x100xf32>\n```",
    traits: Traits::MEMORY_EFFECTS,
    operands: STORE_OPERANDS,
    attributes: MAP_ATTR,
    type_rules: &[TypeRule::Derived {
        target: "value",
        source: "memref",
        derive: element_type,
        description: "value type matches element type of 'memref'",
    }],
    parse: Some(|p| parse_store_like(p, false)),
    print: Some(print_store),
    verify_local: Some(|ctx, body, op| verify_access_local(ctx, body, op, 1)),
    verify: Some(|ctx, body, op| verify_access_operands(ctx, body, op, 1)),
    ..OpDef::declared("affine.store")
};

/// `affine.vector_load`.
pub static VECTOR_LOAD: OpDef = OpDef {
    summary: "affine vector load operation",
    description: "Reads a vector of consecutive elements starting at affine subscripts.\n\n\
        ```mlir\n%v = affine.vector_load %A[%i, %j * 8] : memref<100x100xf32>, vector<8xf32>\n```",
    traits: Traits::MEMORY_EFFECTS,
    operands: LOAD_OPERANDS,
    results: &[ArgDef::one("result", &ANY_VECTOR)],
    attributes: MAP_ATTR,
    parse: Some(parse_vector_load),
    print: Some(print_vector_load),
    verify_local: Some(|ctx, body, op| verify_access_local(ctx, body, op, 0)),
    verify: Some(|ctx, body, op| verify_access_operands(ctx, body, op, 0)),
    ..OpDef::declared("affine.vector_load")
};

/// `affine.vector_store`.
pub static VECTOR_STORE: OpDef = OpDef {
    summary: "affine vector store operation",
    description: "Writes a vector to consecutive elements starting at affine subscripts.\n\n\
        ```mlir\naffine.vector_store %v, %A[%i, %j * 8] : memref<100x100xf32>, vector<8xf32>\n```",
    traits: Traits::MEMORY_EFFECTS,
    operands: &[
        ArgDef::one("value", &ANY_VECTOR),
        ArgDef::one("memref", &ANY_MEMREF).writes(),
        ArgDef::variadic("indices", &INDEX),
    ],
    attributes: MAP_ATTR,
    parse: Some(|p| parse_store_like(p, true)),
    print: Some(print_vector_store),
    verify_local: Some(|ctx, body, op| verify_access_local(ctx, body, op, 1)),
    verify: Some(|ctx, body, op| verify_access_operands(ctx, body, op, 1)),
    ..OpDef::declared("affine.vector_store")
};

// ------------------------------------------------------------ affine.yield

/// `affine.yield`.
pub static YIELD: OpDef = OpDef {
    summary: "Yield values to parent operation",
    description: "Ends the body of `affine.for`, `affine.if` and `affine.parallel`, passing \
        values to the parent (loop-carried values, results). Without operands it may be left \
        out of the custom form.\n\n```mlir\naffine.yield %sum : f32\n```",
    traits: Traits::TERMINATOR.with(Traits::PURE).with(Traits::RETURN_LIKE),
    parents: &["affine.for", "affine.if", "affine.parallel"],
    operands: &[ArgDef::variadic("operands", &ANY_TYPE)],
    format: Some("attr-dict ($operands^ `:` type($operands))?"),
    ..OpDef::declared("affine.yield")
};

// ------------------------------------------------------------ affine.for

/// One parsed loop bound: the map and its dimension and symbol operands.
type Bound<'a> = (AffineMap, Vec<UnresolvedOperand<'a>>);

fn parse_bound<'a>(p: &mut CustomParser<'_, 'a>, is_lower: bool) -> ParseResult<Bound<'a>> {
    let kw = if is_lower { "max" } else { "min" };
    let has_kw = p.parse_optional_keyword(kw);
    if !has_kw {
        if let Some(r) = p.parse_optional_operand()? {
            return Ok((
                AffineMap::new(0, 1, vec![lf_ir::affine::AffineExpr::symbol(0)]),
                vec![r],
            ));
        }
        if p.at(lf_ir::parser::lexer::TokenKind::Integer) || p.at(lf_ir::parser::lexer::TokenKind::Minus) {
            let v = p.parse_integer()?;
            return Ok((AffineMap::get_constant_map(v as i64), Vec::new()));
        }
    }
    // As MLIR's: the errors of the bound itself point at it, the others at
    // the op's name.
    let attr_loc = p.current_location();
    let a = p.parse_attribute()?;
    let Some(m) = map_of(p.ctx(), Some(a)).cloned() else {
        return Err(p.emit_error(
            p.name_location(),
            "expected valid affine map representation for loop bounds",
        ));
    };
    let (dims, syms) = parse_dim_and_symbol_list(p)?;
    if dims.len() != m.num_dims() as usize {
        return Err(p.emit_error(
            p.name_location(),
            "dim operand count and affine map dim count must match",
        ));
    }
    if syms.len() != m.num_symbols() as usize {
        return Err(p.emit_error(
            p.name_location(),
            "symbol operand count and affine map symbol count must match",
        ));
    }
    if m.num_results() > 1 && !has_kw {
        return Err(p.emit_error(
            attr_loc,
            format!(
                "{} loop bound affine map with multiple results requires '{kw}' prefix",
                if is_lower { "lower" } else { "upper" }
            ),
        ));
    }
    if m.num_results() == 0 {
        return Err(p.error("expected a map with at least one result"));
    }
    let mut ops = dims;
    ops.extend(syms);
    Ok((m, ops))
}

fn parse_for(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    let index = ctx.common().index;
    let iv = p.parse_operand()?;
    // MLIR's parseArgument: the induction variable may carry its location.
    let iv_loc = p.parse_optional_location()?.unwrap_or(p.operand_loc(&iv));
    p.parse_literal("=")?;
    let (lb_map, lb_ops) = parse_bound(p, true)?;
    p.parse_keyword("to")?;
    let (ub_map, ub_ops) = parse_bound(p, false)?;
    let mut step = 1i128;
    if p.parse_optional_keyword("step") {
        let step_loc = p.current_location();
        step = p.parse_integer()?;
        if step <= 0 {
            return Err(p.emit_error(
                step_loc,
                "expected step to be representable as a positive signed integer",
            ));
        }
    }
    let (mut args, mut inits, mut types) = (Vec::new(), Vec::new(), Vec::new());
    if p.parse_optional_keyword("iter_args") {
        p.parse_literal("(")?;
        if !p.parse_optional_literal(")") {
            loop {
                args.push(p.parse_operand()?);
                p.parse_literal("=")?;
                inits.push(p.parse_operand()?);
                if !p.parse_optional_literal(",") {
                    break;
                }
            }
            p.parse_literal(")")?;
        }
        p.parse_literal("->")?;
        if p.parse_optional_literal("(") {
            types = p.parse_type_list()?;
            p.parse_literal(")")?;
        } else {
            types.push(p.parse_type()?);
        }
        if types.len() != args.len() {
            return Err(p.emit_error(
                p.name_location(),
                "mismatch between the number of loop-carried values and results",
            ));
        }
    }
    add_index_operands(p, &lb_ops)?;
    add_index_operands(p, &ub_ops)?;
    for (r, t) in inits.iter().zip(&types) {
        p.add_operand(*r, *t)?;
    }
    p.set_prop("lowerBoundMap", map_attr(ctx, lb_map));
    p.set_prop("upperBoundMap", map_attr(ctx, ub_map));
    p.set_prop("step", ctx.integer_attr(step, index));
    p.set_prop(
        "operandSegmentSizes",
        segment_sizes_attr(ctx, &[lb_ops.len(), ub_ops.len(), inits.len()]),
    );
    p.add_result_types(&types);
    let mut entry = vec![(iv, index, iv_loc)];
    for (a, t) in args.iter().zip(&types) {
        entry.push((*a, *t, p.operand_loc(a)));
    }
    let r = p.parse_region(&entry)?;
    p.ensure_terminator(r, "affine.yield");
    p.parse_optional_attr_dict()?;
    Ok(())
}

fn print_bound(p: &mut CustomPrinter<'_, '_>, map: &AffineMap, a: Attribute, operands: &[Value], prefix: &str) {
    if map.num_results() == 1 {
        let e = &map.results()[0];
        if map.num_dims() == 0 && map.num_symbols() == 0 {
            if let Some(c) = e.as_constant() {
                p.write(&c.to_string());
                return;
            }
        }
        if map.num_dims() == 0 && map.num_symbols() == 1 && e.as_symbol().is_some() {
            if let Some(v) = operands.first() {
                p.value(*v);
                return;
            }
        }
    } else {
        p.write(prefix);
        p.write(" ");
    }
    p.attr(a);
    print_dim_and_symbol_list(p, operands, map.num_dims() as usize);
}

/// The operands of each operand group of a registered op, in order (none
/// if its segment sizes are malformed): the segment sizes are read once.
fn operand_groups(ctx: &Context, body: &Body, op: OpId) -> smallvec::SmallVec<[smallvec::SmallVec<[Value; 8]>; 3]> {
    let def = ctx.op_def(body.op_name(op)).expect("registered");
    // The groups follow each other from the first operand on.
    let mut operands = body.operands(op);
    lf_ir::ods::operand_group_ranges(ctx, body, op, def)
        .into_iter()
        .map(|r| operands.by_ref().take(r.len()).collect())
        .collect()
}

/// The arguments of the entry block of region `index` of `op` (none if
/// the region is empty).
fn entry_args(body: &Body, op: OpId, index: usize) -> &[Value] {
    let rb = body.regions_body(op);
    rb.entry_block(body.region(op, index)).map_or(&[], |b| rb.block_args(b))
}

fn print_for(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    let args = entry_args(body, op, 0);
    let groups = operand_groups(ctx, body, op);
    let group = |g: usize| groups.get(g).map_or(&[][..], |ops| ops.as_slice());
    p.write(" ");
    if let Some(iv) = args.first() {
        // MLIR's printRegionArgument with the type omitted.
        p.region_argument_untyped(op, *iv);
    }
    p.write(" = ");
    for (k, (name, prefix)) in [("lowerBoundMap", "max"), ("upperBoundMap", "min")].iter().enumerate() {
        if k == 1 {
            p.write(" to ");
        }
        let a = prop(ctx, body, op, name);
        if let (Some(a), Some(m)) = (a, map_of(ctx, a)) {
            let ops = group(k);
            print_bound(p, m, a, ops, prefix);
        }
    }
    if let Some(s) = prop(ctx, body, op, "step").and_then(|a| int_value(ctx, a)) {
        if s != 1 {
            p.write(&format!(" step {s}"));
        }
    }
    let inits = group(2);
    if !inits.is_empty() {
        p.write(" iter_args(");
        for (i, (a, v)) in args.iter().skip(1).zip(inits).enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.value(*a);
            p.write(" = ");
            p.value(*v);
        }
        p.write(") -> (");
        let tys: Vec<Type> = inits.iter().map(|v| body.value_type(*v)).collect();
        p.type_list(&tys);
        p.write(")");
    }
    p.write(" ");
    p.region(op, 0, false, !inits.is_empty());
    p.attr_dict_with_props(
        op,
        &["lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"],
        false,
    );
    Ok(())
}

fn verify_for(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let err = |m: String| Err(op_error(ctx, body, op, m));
    let groups = operand_groups(ctx, body, op);
    let group = |g: usize| groups.get(g).map_or(&[][..], |ops| ops.as_slice());
    if let Some(s) = prop(ctx, body, op, "step").and_then(|a| int_value(ctx, a)) {
        if s <= 0 {
            return err("expected step to be representable as a positive signed integer".into());
        }
    }
    for (k, name) in ["lowerBoundMap", "upperBoundMap"].iter().enumerate() {
        let Some(m) = map_of(ctx, prop(ctx, body, op, name)) else {
            continue;
        };
        let ops = group(k);
        if ops.len() != m.num_inputs() as usize {
            return err(format!(
                "{} bound operand count does not equal map dimension and symbol count",
                if k == 0 { "lower" } else { "upper" }
            ));
        }
        if m.num_results() == 0 {
            return err(format!(
                "{} loop bound affine map must have at least one result",
                if k == 0 { "lower" } else { "upper" }
            ));
        }
        verify_dims_and_symbols(ctx, body, op, ops, m.num_dims() as usize)?;
    }
    let inits = group(2);
    let rb = body.regions_body(op);
    let args = entry_args(body, op, 0);
    if body.num_results(op) != inits.len() {
        return err("mismatch between the number of loop-carried values and results".into());
    }
    if args.len() != inits.len() + 1 {
        return err("mismatch between the number of basic block args and results".into());
    }
    if let Some(iv) = args.first() {
        if !ctx.type_data(rb.value_type(*iv)).is_index() {
            return err("expected body first argument to be an index argument for the induction variable".into());
        }
    }
    check_yield(
        ctx,
        body,
        op,
        0,
        &body
            .results(op)
            .map(|v| body.value_type(v))
            .collect::<smallvec::SmallVec<[Type; 4]>>(),
    )
}

/// Checks the `affine.yield` ending region `index` against the op's results.
fn check_yield(ctx: &Context, body: &Body, op: OpId, index: usize, results: &[Type]) -> Result<(), Diagnostic> {
    let rb = body.regions_body(op);
    let Some(b) = rb.entry_block(body.region(op, index)) else {
        return Ok(());
    };
    let Some(t) = rb.last_op(b) else {
        return Ok(());
    };
    if !is_op(ctx, rb, t, &YIELD) {
        return Ok(());
    }
    let tys: smallvec::SmallVec<[Type; 4]> = rb.operands(t).map(|v| rb.value_type(v)).collect();
    if tys.len() != results.len() {
        return Err(op_error(
            ctx,
            rb,
            t,
            "parent of yield must have same number of results as the yield operands",
        ));
    }
    for (a, r) in tys.iter().zip(results) {
        if a != r {
            return Err(op_error(
                ctx,
                rb,
                t,
                format!(
                    "types mismatch between yield op: {} and its parent: {}",
                    type_to_string(ctx, *a),
                    type_to_string(ctx, *r)
                ),
            ));
        }
    }
    Ok(())
}

/// `affine.for`.
pub static FOR: OpDef = OpDef {
    summary: "for operation",
    description: "A loop from a lower to an upper bound (exclusive) with a positive constant \
        `step`. Each bound is a constant, an SSA symbol, or an affine map applied to \
        dimension and symbol operands; a map with several results needs `max` (lower bound) \
        or `min` (upper bound). `iter_args` carry values through iterations; the body ends \
        with `affine.yield`, left out when it yields nothing.\n\n```mlir\n\
        affine.for %i = 0 to 10 {\n  affine.for %j = #map(%i) to min #ub(%i)[%n] step 2 {\n  }\n}\n\
        %s = affine.for %i = 0 to %n iter_args(%acc = %zero) -> (f32) {\n  \
        %x = affine.load %A[%i] : memref<?xf32>\n  %t = arith.addf %acc, %x : f32\n  \
        affine.yield %t : f32\n}\n```",
    traits: Traits::SINGLE_BLOCK
        .with(Traits::SINGLE_BLOCK_IMPLICIT_TERMINATOR)
        .with(Traits::RECURSIVE_MEMORY_EFFECTS),
    operands: &[
        ArgDef::variadic("lowerBoundOperands", &INDEX),
        ArgDef::variadic("upperBoundOperands", &INDEX),
        ArgDef::variadic("inits", &ANY_TYPE),
    ],
    results: &[ArgDef::variadic("results", &ANY_TYPE)],
    attributes: &[
        AttrDef::required("lowerBoundMap", &AFFINE_MAP_ATTR),
        AttrDef::required("upperBoundMap", &AFFINE_MAP_ATTR),
        AttrDef::required("step", &INDEX_ATTR),
    ],
    regions: &[RegionDef {
        name: "region",
        single_block: true,
        may_be_empty: false,
    }],
    parse: Some(parse_for),
    print: Some(print_for),
    verify: Some(verify_for),
    loop_like: Some(&ops::FOR_LOOP_LIKE),
    ..OpDef::declared("affine.for")
};

// ------------------------------------------------------------ affine.if

fn parse_if(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let a = p.parse_attribute()?;
    let Some(s) = set_of(p.ctx(), Some(a)).cloned() else {
        return Err(p.error("expected integer set"));
    };
    let (dims, syms) = parse_dim_and_symbol_list(p)?;
    if dims.len() != s.num_dims() as usize {
        return Err(p.error("dim operand count and integer set dim count must match"));
    }
    if syms.len() != s.num_symbols() as usize {
        return Err(p.error("symbol operand count and integer set symbol count must match"));
    }
    p.set_prop("condition", a);
    add_index_operands(p, &dims)?;
    add_index_operands(p, &syms)?;
    let mut types = Vec::new();
    if p.parse_optional_literal("->") {
        if p.parse_optional_literal("(") {
            types = p.parse_type_list()?;
            p.parse_literal(")")?;
        } else {
            types.push(p.parse_type()?);
        }
    }
    p.add_result_types(&types);
    let r = p.parse_region(&[])?;
    p.ensure_terminator(r, "affine.yield");
    if p.parse_optional_keyword("else") {
        let r = p.parse_region(&[])?;
        p.ensure_terminator(r, "affine.yield");
    } else {
        p.add_empty_region();
    }
    p.parse_optional_attr_dict()?;
    Ok(())
}

fn print_if(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    let a = prop(ctx, body, op, "condition");
    p.write(" ");
    if let Some(a) = a {
        p.attr(a);
    }
    let nd = set_of(ctx, a).map_or(0, |s| s.num_dims() as usize);
    let ops: Vec<Value> = body.operands(op).collect();
    print_dim_and_symbol_list(p, &ops, nd);
    let results: Vec<Type> = body.results(op).map(|v| body.value_type(v)).collect();
    if !results.is_empty() {
        p.write(" -> ");
        let single_plain = results.len() == 1 && !matches!(ctx.type_data(results[0]), TypeData::Function { .. });
        if single_plain {
            p.ty(results[0]);
        } else {
            p.write("(");
            p.type_list(&results);
            p.write(")");
        }
    }
    p.write(" ");
    p.region(op, 0, false, !results.is_empty());
    let rb = body.regions_body(op);
    if body.num_regions(op) > 1 && !rb.region_is_empty(body.region(op, 1)) {
        p.write(" else ");
        p.region(op, 1, false, !results.is_empty());
    }
    p.attr_dict_with_props(op, &["condition"], false);
    Ok(())
}

fn verify_if(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let Some(s) = set_of(ctx, prop(ctx, body, op, "condition")) else {
        return Err(op_error(
            ctx,
            body,
            op,
            "requires an integer set attribute named 'condition'",
        ));
    };
    let ops: Vec<Value> = body.operands(op).collect();
    if ops.len() != s.num_inputs() as usize {
        return Err(op_error(
            ctx,
            body,
            op,
            "operand count and condition integer set dimension and symbol count must match",
        ));
    }
    verify_dims_and_symbols(ctx, body, op, &ops, s.num_dims() as usize)?;
    let results: Vec<Type> = body.results(op).map(|v| body.value_type(v)).collect();
    check_yield(ctx, body, op, 0, &results)?;
    let rb = body.regions_body(op);
    if !results.is_empty() && rb.region_is_empty(body.region(op, 1)) {
        return Err(op_error(ctx, body, op, "must have an else block if defining values"));
    }
    check_yield(ctx, body, op, 1, &results)
}

/// `affine.if`.
pub static IF: OpDef = OpDef {
    summary: "if-then-else operation",
    description: "Runs the `then` region if the integer set `condition` holds for the \
        dimension and symbol operands, else the optional `else` region. With results, both \
        regions end with `affine.yield` of the result values.\n\n```mlir\n\
        affine.if affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 >= 0)>(%i)[%n] {\n  \
        affine.store %v, %A[%i] : memref<?xf32>\n}\n\
        %r = affine.if #set(%i) -> f32 {\n  affine.yield %a : f32\n} else {\n  affine.yield %b : f32\n}\n```",
    traits: Traits::SINGLE_BLOCK
        .with(Traits::SINGLE_BLOCK_IMPLICIT_TERMINATOR)
        .with(Traits::RECURSIVE_MEMORY_EFFECTS),
    operands: &[ArgDef::variadic("operands", &INDEX)],
    results: &[ArgDef::variadic("results", &ANY_TYPE)],
    attributes: &[AttrDef::required("condition", &INTEGER_SET_ATTR)],
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
    ..OpDef::declared("affine.if")
};

/// Every op of the dialect.
pub static OPS: &[&OpDef] = &[
    &APPLY,
    &FOR,
    &IF,
    &LOAD,
    &MAX,
    &MIN,
    &PARALLEL,
    &STORE,
    &VECTOR_LOAD,
    &VECTOR_STORE,
    &YIELD,
];

// ------------------------------------------------------------ affine.parallel

/// The reduction kinds of `affine.parallel` (MLIR's `arith::AtomicRMWKind`).
pub const REDUCTION_KINDS: &[(&str, i64)] = &[
    ("addf", 0),
    ("addi", 1),
    ("andi", 2),
    ("assign", 3),
    ("maximumf", 4),
    ("maxnumf", 5),
    ("maxs", 6),
    ("maxu", 7),
    ("minimumf", 8),
    ("minnumf", 9),
    ("mins", 10),
    ("minu", 11),
    ("mulf", 12),
    ("muli", 13),
    ("ori", 14),
    ("xori", 15),
];

fn reduction_name(v: i64) -> Option<&'static str> {
    REDUCTION_KINDS.iter().find(|k| k.1 == v).map(|k| k.0)
}

fn i64_array(ctx: &Context, a: Option<Attribute>) -> Option<Vec<i64>> {
    match ctx.attr_data(a?) {
        AttrData::Array(items) => items
            .iter()
            .map(|x| match ctx.attr_data(*x) {
                AttrData::Integer { value, ty } if *ty == ctx.common().i64 => i64::try_from(*value).ok(),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// The `reductions` constraint: an array of `AtomicRMWKind` cases.
pub static REDUCTIONS_ATTR: AttrConstraint = AttrConstraint {
    summary: "Reduction ops",
    check: |ctx, a| i64_array(ctx, Some(a)).is_some_and(|v| v.iter().all(|k| reduction_name(*k).is_some())),
    parse: None,
    print: None,
    is_unit: false,
    kind: AttrKind::Any,
};

/// `I64ArrayAttr`.
pub static I64_ARRAY_ATTR: AttrConstraint = AttrConstraint {
    summary: "64-bit integer array attribute",
    check: |ctx, a| i64_array(ctx, Some(a)).is_some(),
    parse: None,
    print: None,
    is_unit: false,
    kind: AttrKind::Any,
};

fn i32_elements(ctx: &Context, a: Option<Attribute>) -> Option<Vec<i64>> {
    let AttrData::DenseElements { ty, values } = ctx.attr_data(a?) else {
        return None;
    };
    let TypeData::Tensor { shape, element, .. } = ctx.type_data(*ty) else {
        return None;
    };
    if *element != ctx.common().i32 || shape.len() != 1 {
        return None;
    }
    let lf_ir::DenseValues::Int(v) = values else {
        return None;
    };
    // A group per loop dimension: a splat of a huge shape is malformed, not a reason to allocate.
    let n = usize::try_from(shape[0]).ok().filter(|n| *n <= 1 << 16)?;
    Some(if v.len() == n {
        v.iter().map(|x| *x as i64).collect()
    } else {
        vec![*v.first()? as i64; n]
    })
}

/// `I32ElementsAttr`.
pub static I32_ELEMENTS_ATTR: AttrConstraint = AttrConstraint {
    summary: "32-bit signless integer elements attribute",
    check: |ctx, a| i32_elements(ctx, Some(a)).is_some(),
    parse: None,
    print: None,
    is_unit: false,
    kind: AttrKind::Any,
};

/// `dense<[...]> : tensor<Nxi32>` (a splat when all values are equal, as MLIR).
fn i32_tensor_attr(ctx: &Context, values: &[i64]) -> Attribute {
    let ty = ctx.get_type(TypeData::Tensor {
        shape: vec![values.len() as i64].into(),
        element: ctx.common().i32,
        encoding: None,
    });
    let uniform = values.windows(2).all(|w| w[0] == w[1]);
    let vals: Vec<i128> = if uniform && !values.is_empty() {
        vec![values[0] as i128]
    } else {
        values.iter().map(|v| *v as i128).collect()
    };
    ctx.get_attr(AttrData::DenseElements {
        ty,
        values: lf_ir::DenseValues::Int(vals.into()),
    })
}

fn i64_array_attr(ctx: &Context, values: &[i64]) -> Attribute {
    let items: Vec<Attribute> = values
        .iter()
        .map(|v| ctx.integer_attr(*v as i128, ctx.common().i64))
        .collect();
    ctx.get_attr(AttrData::Array(items.into()))
}

/// One parsed `affine.parallel` bound list: the flat map, the group sizes,
/// and the (deduplicated) dimension then symbol operands.
type ParallelBounds<'a> = (AffineMap, Vec<i64>, Vec<UnresolvedOperand<'a>>);

/// MLIR's `parseAffineMapWithMinMax`: `(e, max(e, e), ...)`.
fn parse_parallel_bounds<'a>(p: &mut CustomParser<'_, 'a>, kw: &str) -> ParseResult<ParallelBounds<'a>> {
    p.parse_literal("(")?;
    if p.parse_optional_literal(")") {
        return Ok((AffineMap::empty(), Vec::new(), Vec::new()));
    }
    type Flat<'a> = (
        lf_ir::affine::AffineExpr,
        Vec<UnresolvedOperand<'a>>,
        Vec<UnresolvedOperand<'a>>,
    );
    let mut flat: Vec<Flat<'a>> = Vec::new();
    let mut groups = Vec::new();
    loop {
        if p.parse_optional_keyword(kw) {
            p.parse_literal("(")?;
            let (m, d, s) = p.parse_affine_map_of_ssa_ids(')')?;
            for e in m.results() {
                flat.push((e.clone(), d.clone(), s.clone()));
            }
            groups.push(m.num_results() as i64);
        } else {
            let (m, d, s) = p.parse_affine_expr_of_ssa_ids()?;
            flat.push((m.results()[0].clone(), d, s));
            groups.push(1);
        }
        if !p.parse_optional_literal(",") {
            break;
        }
    }
    p.parse_literal(")")?;
    // Deduplicate the operands (in order of first use) and renumber each expression.
    let same = |a: &UnresolvedOperand<'_>, b: &UnresolvedOperand<'_>| a.name == b.name && a.number == b.number;
    let (mut dims, mut syms): (Vec<UnresolvedOperand<'a>>, Vec<UnresolvedOperand<'a>>) = (Vec::new(), Vec::new());
    let pos = |list: &mut Vec<UnresolvedOperand<'a>>, r: &UnresolvedOperand<'a>| -> u32 {
        match list.iter().position(|x| same(x, r)) {
            Some(i) => i as u32,
            None => {
                list.push(*r);
                (list.len() - 1) as u32
            }
        }
    };
    let mut exprs = Vec::with_capacity(flat.len());
    let mut repl = Vec::with_capacity(flat.len());
    for (e, d, s) in &flat {
        let dr: Vec<_> = d
            .iter()
            .map(|r| lf_ir::affine::AffineExpr::dim(pos(&mut dims, r)))
            .collect();
        let sr: Vec<_> = s
            .iter()
            .map(|r| lf_ir::affine::AffineExpr::symbol(pos(&mut syms, r)))
            .collect();
        repl.push((e, dr, sr));
    }
    for (e, dr, sr) in repl {
        exprs.push(e.replace_dims_and_symbols(&dr, &sr));
    }
    let map = AffineMap::new(dims.len() as u32, syms.len() as u32, exprs);
    let mut operands = dims;
    operands.extend(syms);
    Ok((map, groups, operands))
}

fn parse_parallel(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    let index = ctx.common().index;
    p.parse_literal("(")?;
    let ivs = p.parse_operand_list()?;
    p.parse_literal(")")?;
    p.parse_literal("=")?;
    let (lb_map, lb_groups, lb_ops) = parse_parallel_bounds(p, "max")?;
    p.parse_keyword("to")?;
    let (ub_map, ub_groups, ub_ops) = parse_parallel_bounds(p, "min")?;
    let steps = if p.parse_optional_keyword("step") {
        p.parse_literal("(")?;
        let (m, _, _) = p.parse_affine_map_of_ssa_ids(')')?;
        let mut steps = Vec::new();
        for e in m.results() {
            match e.as_constant() {
                Some(c) => steps.push(c),
                None => {
                    return Err(Box::new(Diagnostic::error(
                        p.op_loc().source_pos(ctx),
                        "steps must be constant integers",
                    )))
                }
            }
        }
        steps
    } else {
        vec![1; ivs.len()]
    };
    let mut reductions = Vec::new();
    if p.parse_optional_keyword("reduce") {
        p.parse_literal("(")?;
        loop {
            let at = p.error("");
            let a = p.parse_attribute()?;
            let kind = match ctx.attr_data(a) {
                AttrData::String { value, .. } => REDUCTION_KINDS.iter().find(|k| k.0 == &**value).map(|k| k.1),
                _ => None,
            };
            match kind {
                Some(k) => reductions.push(k),
                None => {
                    let mut e = at;
                    e.message = format!("invalid reduction value: {}", lf_ir::printer::attr_to_string(ctx, a));
                    return Err(e);
                }
            }
            if !p.parse_optional_literal(",") {
                break;
            }
        }
        p.parse_literal(")")?;
    }
    let types = if p.parse_optional_literal("->") {
        if p.parse_optional_literal("(") {
            let v = p.parse_type_list()?;
            p.parse_literal(")")?;
            v
        } else {
            vec![p.parse_type()?]
        }
    } else {
        Vec::new()
    };
    add_index_operands(p, &lb_ops)?;
    add_index_operands(p, &ub_ops)?;
    p.set_prop("lowerBoundsMap", map_attr(ctx, lb_map));
    p.set_prop("lowerBoundsGroups", i32_tensor_attr(ctx, &lb_groups));
    p.set_prop("upperBoundsMap", map_attr(ctx, ub_map));
    p.set_prop("upperBoundsGroups", i32_tensor_attr(ctx, &ub_groups));
    p.set_prop("steps", i64_array_attr(ctx, &steps));
    p.set_prop("reductions", i64_array_attr(ctx, &reductions));
    p.add_result_types(&types);
    let entry: Vec<_> = ivs.iter().map(|a| (*a, index, p.operand_loc(a))).collect();
    let r = p.parse_region(&entry)?;
    p.parse_optional_attr_dict()?;
    p.ensure_terminator(r, "affine.yield");
    Ok(())
}

/// MLIR's `printMinMaxBound`.
fn print_parallel_bounds(p: &mut CustomPrinter<'_, '_>, map: &AffineMap, groups: &[i64], operands: &[Value], kw: &str) {
    let mut start = 0usize;
    for (i, &g) in groups.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        let g = g.max(0) as usize;
        let end = (start + g).min(map.num_results());
        let sub = AffineMap::new(
            map.num_dims(),
            map.num_symbols(),
            map.results()[start.min(end)..end].to_vec(),
        );
        if g == 1 {
            print_map_of_ssa_ids(p, &sub, operands);
        } else {
            p.write(kw);
            p.write("(");
            print_map_of_ssa_ids(p, &sub, operands);
            p.write(")");
        }
        start = end;
    }
}

/// The lower-bound operands (the first `lowerBoundsMap` inputs) and the upper-bound ones.
fn parallel_operands(ctx: &Context, body: &Body, op: OpId) -> (Vec<Value>, Vec<Value>) {
    let all: Vec<Value> = body.operands(op).collect();
    let n = map_of(ctx, prop(ctx, body, op, "lowerBoundsMap")).map_or(0, |m| m.num_inputs() as usize);
    let n = n.min(all.len());
    (all[..n].to_vec(), all[n..].to_vec())
}

fn print_parallel(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    let ivs = entry_args(body, op, 0);
    p.write(" (");
    p.value_list(ivs);
    p.write(") = (");
    let (lb_ops, ub_ops) = parallel_operands(ctx, body, op);
    for (k, (map_name, groups_name, kw, ops)) in [
        ("lowerBoundsMap", "lowerBoundsGroups", "max", &lb_ops),
        ("upperBoundsMap", "upperBoundsGroups", "min", &ub_ops),
    ]
    .into_iter()
    .enumerate()
    {
        if k == 1 {
            p.write(") to (");
        }
        let m = map_of(ctx, prop(ctx, body, op, map_name)).cloned();
        let g = i32_elements(ctx, prop(ctx, body, op, groups_name)).unwrap_or_default();
        if let Some(m) = m {
            print_parallel_bounds(p, &m, &g, ops, kw);
        }
    }
    p.write(")");
    let steps = i64_array(ctx, prop(ctx, body, op, "steps")).unwrap_or_default();
    if steps.iter().any(|s| *s != 1) {
        let list: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
        p.write(&format!(" step ({})", list.join(", ")));
    }
    let results: Vec<Type> = body.results(op).map(|v| body.value_type(v)).collect();
    if !results.is_empty() {
        let reds = i64_array(ctx, prop(ctx, body, op, "reductions")).unwrap_or_default();
        let names: Vec<String> = reds
            .iter()
            .map(|k| format!("\"{}\"", reduction_name(*k).unwrap_or("?")))
            .collect();
        p.write(&format!(" reduce ({}) -> (", names.join(", ")));
        p.type_list(&results);
        p.write(")");
    }
    p.write(" ");
    p.region(op, 0, false, !results.is_empty());
    p.attr_dict_with_props(
        op,
        &[
            "reductions",
            "lowerBoundsMap",
            "lowerBoundsGroups",
            "upperBoundsMap",
            "upperBoundsGroups",
            "steps",
        ],
        false,
    );
    Ok(())
}

/// Whether an `affine.parallel` result of type `t` may be reduced with
/// reduction kind `kind` (a value of [`REDUCTION_KINDS`]): MLIR's
/// `isResultTypeMatchAtomicRMWKind`, which the verifier applies.
pub fn reduction_matches_type(ctx: &Context, kind: i64, t: Type) -> bool {
    let d = ctx.type_data(t);
    let int_of = |s: lf_ir::Signedness| matches!(d, TypeData::Integer { signedness, .. } if *signedness == s);
    match reduction_name(kind) {
        Some("addf" | "mulf" | "maximumf" | "minimumf") => d.is_float(),
        Some("addi" | "muli" | "ori" | "andi") => d.is_integer(),
        Some("assign") => true,
        Some("maxs" | "mins") => int_of(lf_ir::Signedness::Signed),
        Some("maxu" | "minu") => int_of(lf_ir::Signedness::Unsigned),
        _ => false,
    }
}

fn verify_parallel(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let err = |m: String| Err(op_error(ctx, body, op, m));
    let steps = i64_array(ctx, prop(ctx, body, op, "steps")).unwrap_or_default();
    let lbg = i32_elements(ctx, prop(ctx, body, op, "lowerBoundsGroups")).unwrap_or_default();
    let ubg = i32_elements(ctx, prop(ctx, body, op, "upperBoundsGroups")).unwrap_or_default();
    let nargs = entry_args(body, op, 0).len();
    let n = steps.len();
    if lbg.len() != n || ubg.len() != n || nargs != n {
        return err(format!(
            "the number of region arguments ({nargs}) and the number of map groups for lower ({}) and upper bound ({}), and the number of steps ({n}) must all match",
            lbg.len(),
            ubg.len()
        ));
    }
    for (groups, map_name, which) in [(&lbg, "lowerBoundsMap", "lower"), (&ubg, "upperBoundsMap", "upper")] {
        let mut expected = 0;
        for g in groups.iter() {
            if *g == 0 {
                return err(format!("expected {which} bound map to have at least one result"));
            }
            expected += *g as usize;
        }
        let got = map_of(ctx, prop(ctx, body, op, map_name)).map_or(0, |m| m.num_results());
        if expected != got {
            return err(format!("expected {which} bounds map to have {expected} results"));
        }
    }
    let reds = i64_array(ctx, prop(ctx, body, op, "reductions")).unwrap_or_default();
    if reds.len() != body.num_results(op) {
        return err("a reduction must be specified for each output".into());
    }
    for (k, r) in reds.iter().zip(body.results(op)) {
        if reduction_name(*k).is_none() {
            return err("invalid reduction attribute".into());
        }
        if !reduction_matches_type(ctx, *k, body.value_type(r)) {
            return err("result type cannot match reduction attribute".into());
        }
    }
    let (lb_ops, ub_ops) = parallel_operands(ctx, body, op);
    let n_ub = map_of(ctx, prop(ctx, body, op, "upperBoundsMap")).map_or(0, |m| m.num_inputs() as usize);
    // MLIR ignores extra operands (the bounds use the first ones); too few
    // would leave map inputs unbound.
    if ub_ops.len() < n_ub {
        return err("upper bound operand count does not equal map dimension and symbol count".into());
    }
    let ub_ops = &ub_ops[..n_ub];
    for (ops, name) in [(&lb_ops[..], "lowerBoundsMap"), (ub_ops, "upperBoundsMap")] {
        let nd = map_of(ctx, prop(ctx, body, op, name)).map_or(0, |m| m.num_dims() as usize);
        verify_dims_and_symbols(ctx, body, op, ops, nd)?;
    }
    check_yield(
        ctx,
        body,
        op,
        0,
        &body.results(op).map(|v| body.value_type(v)).collect::<Vec<_>>(),
    )
}

/// `affine.parallel`.
pub static PARALLEL: OpDef = OpDef {
    summary: "multi-index parallel band operation",
    description: "A band of parallel loops, one induction variable per dimension. Each \
        dimension's lower bound is the maximum of its group of results of \
        `lowerBoundsMap`, the upper bound the minimum of its group of `upperBoundsMap` \
        (written `max(...)`/`min(...)` when a group has several results), and it steps by a \
        positive constant. Results are reduced across iterations with the named `reduce` \
        kinds (`\"addf\"`, `\"maximumf\"`, `\"addi\"`, ...) from the values `affine.yield` \
        gives.\n\n```mlir\naffine.parallel (%i, %j) = (0, 0) to (%n, min(%m, 64)) step (1, 4) {\n  \
        %x = affine.load %A[%i, %j] : memref<?x?xf32>\n}\n\
        %s = affine.parallel (%i) = (0) to (100) reduce (\"addf\") -> (f32) {\n  \
        %x = affine.load %B[%i] : memref<100xf32>\n  affine.yield %x : f32\n}\n```",
    traits: Traits::SINGLE_BLOCK
        .with(Traits::SINGLE_BLOCK_IMPLICIT_TERMINATOR)
        .with(Traits::RECURSIVE_MEMORY_EFFECTS),
    operands: &[ArgDef::variadic("mapOperands", &INDEX)],
    results: &[ArgDef::variadic("results", &ANY_TYPE)],
    attributes: &[
        AttrDef::required("reductions", &REDUCTIONS_ATTR),
        AttrDef::required("lowerBoundsMap", &AFFINE_MAP_ATTR),
        AttrDef::required("lowerBoundsGroups", &I32_ELEMENTS_ATTR),
        AttrDef::required("upperBoundsMap", &AFFINE_MAP_ATTR),
        AttrDef::required("upperBoundsGroups", &I32_ELEMENTS_ATTR),
        AttrDef::required("steps", &I64_ARRAY_ATTR),
    ],
    regions: &[RegionDef {
        name: "region",
        single_block: true,
        may_be_empty: false,
    }],
    parse: Some(parse_parallel),
    print: Some(print_parallel),
    verify: Some(verify_parallel),
    loop_like: Some(&ops::PARALLEL_LOOP_LIKE),
    ..OpDef::declared("affine.parallel")
};
