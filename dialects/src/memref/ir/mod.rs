//! The `memref` dialect: allocation, loads and stores, views and globals of
//! memory buffers, with MLIR 22's syntax, properties and verifier messages.

#[rustfmt::skip]
mod views;
pub use views::*;

pub mod canonicalize;

use crate::support::{element_type, op_error};
use lf_ir::attrs::AttrData;
use lf_ir::diag::Diagnostic;
use lf_ir::ods::constraints::*;
use lf_ir::ods::format::{CustomArg, FormatState};
use lf_ir::ods::{
    operand_group_range, prop, ArgDef, AttrConstraint, AttrDef, AttrKind, CustomDirective, TypeConstraint, TypeRule,
};
use lf_ir::parser::{CustomParser, ParseResult};
use lf_ir::printer::{type_to_string, CustomPrinter};
use lf_ir::{Attribute, Body, Context, DenseValues, OpDef, OpId, Traits, Type, TypeData, DYNAMIC};

/// Introduction of the op reference.
pub const INTRO: &str = "The `memref` dialect: memory buffers (`memref<4x?xf32>`), their \
allocation (`alloc`, `alloca`, `global`), element access (`load`, `store`) and views \
(`subview`, `view`, `reinterpret_cast`, `cast`). Syntax, properties and verifier messages \
follow MLIR 22.";

/// `memref<...>` of any element type, ranked or not.
pub static MEMREF_ANY: TypeConstraint = TypeConstraint {
    summary: "memref of any type values",
    check: |ctx, t| matches!(ctx.type_data(t), TypeData::MemRef { .. }),
    build: None,
};

/// Ranked or unranked memref.
pub static MEMREF_RANKED_OR_UNRANKED: TypeConstraint = TypeConstraint {
    summary: "ranked or unranked memref of any type values",
    check: |ctx, t| {
        matches!(
            ctx.type_data(t),
            TypeData::MemRef { .. } | TypeData::UnrankedMemRef { .. }
        )
    },
    build: None,
};

/// A memref that is unranked or has a non-zero rank (`memref.dim`'s source).
pub static MEMREF_NON0_RANKED_OR_UNRANKED: TypeConstraint = TypeConstraint {
    summary: "unranked.memref of any type values or non-0-ranked.memref of any type values",
    check: |ctx, t| match ctx.type_data(t) {
        TypeData::MemRef { shape, .. } => !shape.is_empty(),
        TypeData::UnrankedMemRef { .. } => true,
        _ => false,
    },
    build: None,
};

/// A statically shaped memref.
pub static STATIC_MEMREF: TypeConstraint = TypeConstraint {
    summary: "statically shaped memref of any type values",
    check: |ctx, t| matches!(ctx.type_data(t), TypeData::MemRef { shape, .. } if !shape.contains(&DYNAMIC)),
    build: None,
};

/// A 1-D memref of `i8` (`memref.view`'s source).
pub static MEMREF_1D_I8: TypeConstraint = TypeConstraint {
    summary: "1D memref of 8-bit signless integer values",
    check: |ctx, t| matches!(ctx.type_data(t), TypeData::MemRef { shape, element, .. } if shape.len() == 1 && *element == ctx.integer_type(8)),
    build: None,
};

/// `alignment` of allocations: a non-negative `i64`.
pub static ALIGNMENT_ATTR: AttrConstraint = AttrConstraint {
    summary: "64-bit signless integer attribute whose minimum value is 0",
    check: |ctx, a| matches!(ctx.attr_data(a), AttrData::Integer { ty, value } if *ty == ctx.common().i64 && *value >= 0),
    parse: None,
    print: None,
    is_unit: false,
    kind: AttrKind::Int(lf_ir::ods::IntWidth::I64),
};

/// `alignment` of loads and stores: a positive power of two.
pub static ACCESS_ALIGNMENT_ATTR: AttrConstraint = AttrConstraint {
    summary: "64-bit signless integer attribute whose value is positive and whose value is a power of two > 0",
    check: |ctx, a| matches!(ctx.attr_data(a), AttrData::Integer { ty, value } if *ty == ctx.common().i64 && *value > 0 && (*value & (*value - 1)) == 0),
    parse: None,
    print: None,
    is_unit: false,
    kind: AttrKind::Int(lf_ir::ods::IntWidth::I64),
};

/// The number of symbols of a memref type's layout (an affine map's, or one
/// per dynamic value of a `strided` layout).
fn layout_symbols(ctx: &Context, t: Type) -> usize {
    let TypeData::MemRef { layout: Some(l), .. } = ctx.type_data(t) else {
        return 0;
    };
    match ctx.attr_data(*l) {
        AttrData::AffineMap(m) => m.num_symbols() as usize,
        AttrData::Strided { strides, offset } => {
            strides.iter().filter(|&&s| s == DYNAMIC).count() + usize::from(*offset == DYNAMIC)
        }
        _ => 0,
    }
}

fn shape_of(ctx: &Context, t: Type) -> Option<&[i64]> {
    match ctx.type_data(t) {
        TypeData::MemRef { shape, .. } => Some(shape),
        _ => None,
    }
}

static ALLOC_OPERANDS: &[ArgDef] = &[
    ArgDef::variadic("dynamicSizes", &INDEX),
    ArgDef::variadic("symbolOperands", &INDEX),
];
static ALLOC_RESULTS: &[ArgDef] = &[ArgDef::one("memref", &MEMREF_ANY).allocates()];
static ALLOC_ATTRS: &[AttrDef] = &[AttrDef::optional("alignment", &ALIGNMENT_ATTR)];

const fn alloc_like(name: &'static str, summary: &'static str, description: &'static str) -> OpDef {
    OpDef {
        summary,
        description,
        traits: Traits::MEMORY_EFFECTS,
        operands: ALLOC_OPERANDS,
        results: ALLOC_RESULTS,
        attributes: ALLOC_ATTRS,
        format: Some("`(`$dynamicSizes`)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)"),
        verify_local: Some(verify_alloc),
        ..OpDef::declared(name)
    }
}

/// `memref.alloc`.
pub static ALLOC: OpDef = OpDef {
    result_names: Some(|_, _, _| Some("alloc".into())),
    ..alloc_like(
        "memref.alloc",
        "memory allocation operation",
        "Allocates a buffer on the heap. One `index` operand per dynamic dimension of the \
         result type, in parentheses; one per symbol of its layout map, in brackets. The \
         optional `alignment` asks for an aligned address.\n\n```mlir\n\
         %a = memref.alloc() : memref<4x8xf32>\n\
         %b = memref.alloc(%n)[%s] : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>\n\
         %c = memref.alloc() {alignment = 64 : i64} : memref<16xf32>\n```",
    )
};

/// `memref.alloca`.
pub static ALLOCA: OpDef = OpDef {
    result_names: Some(|_, _, _| Some("alloca".into())),
    ..alloc_like(
        "memref.alloca",
        "stack memory allocation operation",
        "Allocates a buffer on the stack; it is freed when control leaves the closest \
         enclosing op with automatic allocation scope (a function). Operands as for \
         `memref.alloc`.\n\n```mlir\n%a = memref.alloca(%n) : memref<?xf32>\n```",
    )
};

fn verify_alloc(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let t = body.value_type(body.result(op, 0));
    let Some(shape) = shape_of(ctx, t) else {
        return Err(op_error(ctx, body, op, "result must be a memref"));
    };
    let def = ctx.op_def(body.op_name(op)).expect("registered");
    let dyn_sizes = operand_group_range(ctx, body, op, def, 0).len();
    let syms = operand_group_range(ctx, body, op, def, 1).len();
    let want = shape.iter().filter(|&&d| d == DYNAMIC).count();
    if dyn_sizes != want {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("incorrect number of dynamic sizes, has {dyn_sizes}, expected {want}"),
        ));
    }
    let want = layout_symbols(ctx, t);
    if syms != want {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("symbol operand count does not equal memref symbol count: expected {want}, got {syms}"),
        ));
    }
    Ok(())
}

/// `memref.dealloc`.
pub static DEALLOC: OpDef = OpDef {
    summary: "memory deallocation operation",
    description: "Frees a buffer allocated by `memref.alloc`.\n\n```mlir\n\
        memref.dealloc %a : memref<4x8xf32>\n```",
    traits: Traits::MEMORY_EFFECTS,
    operands: &[ArgDef::one("memref", &MEMREF_RANKED_OR_UNRANKED).frees()],
    format: Some("$memref attr-dict `:` type($memref)"),
    ..OpDef::declared("memref.dealloc")
};

/// `memref.load`.
pub static LOAD: OpDef = OpDef {
    summary: "load operation",
    description: "Reads the element at the given indices (one `index` per dimension). \
        `nontemporal` hints that the data will not be reused soon; `alignment` promises an \
        aligned address.\n\n```mlir\n%v = memref.load %A[%i, %j] : memref<4x8xf32>\n\
        %w = memref.load %A[%i, %j] {nontemporal = true} : memref<4x8xf32>\n```",
    traits: Traits::MEMORY_EFFECTS,
    operands: &[
        ArgDef::one("memref", &MEMREF_ANY).reads(),
        ArgDef::variadic("indices", &INDEX),
    ],
    results: &[ArgDef::one("result", &ANY_TYPE)],
    attributes: &[
        AttrDef::optional("nontemporal", &BOOL_ATTR),
        AttrDef::optional("alignment", &ACCESS_ALIGNMENT_ATTR),
    ],
    type_rules: &[TypeRule::Derived {
        target: "result",
        source: "memref",
        derive: element_type,
        description: "result type matches element type of 'memref'",
    }],
    parse: Some(parse_load),
    print: Some(print_load),
    verify_local: Some(verify_load),
    ..OpDef::declared("memref.load")
};

/// `memref.store`.
pub static STORE: OpDef = OpDef {
    summary: "store operation",
    description: "Writes `value` to the element at the given indices.\n\n```mlir\n\
        memref.store %v, %A[%i, %j] : memref<4x8xf32>\n```",
    traits: Traits::MEMORY_EFFECTS,
    operands: &[
        ArgDef::one("value", &ANY_TYPE),
        ArgDef::one("memref", &MEMREF_ANY).writes(),
        ArgDef::variadic("indices", &INDEX),
    ],
    attributes: &[
        AttrDef::optional("nontemporal", &BOOL_ATTR),
        AttrDef::optional("alignment", &ACCESS_ALIGNMENT_ATTR),
    ],
    type_rules: &[TypeRule::Derived {
        target: "value",
        source: "memref",
        derive: element_type,
        description: "type of 'value' matches element type of 'memref'",
    }],
    parse: Some(parse_store),
    print: Some(print_store),
    verify_local: Some(verify_store),
    ..OpDef::declared("memref.store")
};

/// Parses `%m[%i, ...] attr-dict : type`; adds the memref and index operands
/// and returns the memref type.
fn parse_access(p: &mut CustomParser<'_, '_>) -> ParseResult<Type> {
    let m = p.parse_operand()?;
    p.parse_literal("[")?;
    let idx = p.parse_operand_list()?;
    p.parse_literal("]")?;
    p.parse_optional_attr_dict()?;
    p.parse_literal(":")?;
    let t = p.parse_type()?;
    if !matches!(p.ctx().type_data(t), TypeData::MemRef { .. }) {
        return Err(p.error("expected memref type"));
    }
    p.add_operand(m, t)?;
    let index = p.ctx().common().index;
    for i in idx {
        p.add_operand(i, index)?;
    }
    Ok(t)
}

fn parse_load(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let t = parse_access(p)?;
    let e = p.ctx().type_data(t).element_type().expect("memref");
    p.add_result_types(&[e]);
    Ok(())
}

fn parse_store(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let v = p.parse_operand()?;
    p.parse_literal(",")?;
    let m = p.parse_operand()?;
    p.parse_literal("[")?;
    let idx = p.parse_operand_list()?;
    p.parse_literal("]")?;
    p.parse_optional_attr_dict()?;
    p.parse_literal(":")?;
    let t = p.parse_type()?;
    let Some(e) = p
        .ctx()
        .type_data(t)
        .element_type()
        .filter(|_| matches!(p.ctx().type_data(t), TypeData::MemRef { .. }))
    else {
        return Err(p.error("expected memref type"));
    };
    p.add_operand(v, e)?;
    p.add_operand(m, t)?;
    let index = p.ctx().common().index;
    for i in idx {
        p.add_operand(i, index)?;
    }
    Ok(())
}

/// The attributes a memory access leaves out of its dictionary
/// (`nontemporal = false`, the default).
fn access_elided(ctx: &Context, body: &Body, op: OpId) -> &'static [&'static str] {
    let is_false = prop(ctx, body, op, "nontemporal").is_some_and(|a| a == ctx.integer_attr(0, ctx.common().i1));
    if is_false {
        &["nontemporal"]
    } else {
        &[]
    }
}

fn print_access(p: &mut CustomPrinter<'_, '_>, op: OpId, first: usize) {
    let body = p.body();
    let ops: Vec<_> = body.operands(op).collect();
    p.value(ops[first]);
    p.write("[");
    p.value_list(&ops[first + 1..]);
    p.write("]");
    let elide = access_elided(p.ctx(), body, op);
    p.attr_dict_with_props(op, elide, false);
    p.write(" : ");
    p.ty(body.value_type(ops[first]));
}

fn print_load(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    p.write(" ");
    print_access(p, op, 0);
    Ok(())
}

fn print_store(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    p.write(" ");
    let v = p.body().operand(op, 0);
    p.value(v);
    p.write(", ");
    print_access(p, op, 1);
    Ok(())
}

fn rank_of(ctx: &Context, body: &Body, v: lf_ir::Value) -> usize {
    shape_of(ctx, body.value_type(v)).map_or(0, <[i64]>::len)
}

fn verify_load(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let rank = rank_of(ctx, body, body.operand(op, 0));
    let n = body.num_operands(op) - 1;
    if n != rank {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("incorrect number of indices for load, expected {rank} but got {n}"),
        ));
    }
    Ok(())
}

fn verify_store(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let rank = rank_of(ctx, body, body.operand(op, 1));
    if body.num_operands(op) - 2 != rank {
        return Err(op_error(
            ctx,
            body,
            op,
            "store index operand count not equal to memref rank",
        ));
    }
    Ok(())
}

/// `memref.dim`.
pub static DIM: OpDef = OpDef {
    summary: "dimension index operation",
    description: "The size of dimension `index` of a memref.\n\n```mlir\n\
        %d = memref.dim %A, %c0 : memref<?x8xf32>\n```",
    traits: Traits::PURE,
    operands: &[
        ArgDef::one("source", &MEMREF_NON0_RANKED_OR_UNRANKED),
        ArgDef::one("index", &INDEX),
    ],
    results: &[ArgDef::one("result", &INDEX)],
    format: Some("attr-dict $source `,` $index `:` type($source)"),
    result_names: Some(|_, _, _| Some("dim".into())),
    speculatable: Some(dim_in_rank),
    ..OpDef::declared("memref.dim")
};

/// Whether a `memref.dim` may run where it would not have (MLIR's
/// `DimOp::getSpeculatability`): its index is a constant below the rank of
/// a ranked memref.
fn dim_in_rank(ctx: &Context, body: &Body, op: OpId) -> bool {
    if body.num_operands(op) < 2 {
        return false;
    }
    let index = lf_ir::constants::constant_value(ctx, body, body.operand(op, 1));
    let Some(AttrData::Integer { value, .. }) = index.map(|a| ctx.attr_data(a)) else {
        return false;
    };
    match ctx.type_data(body.value_type(body.operand(op, 0))) {
        TypeData::MemRef { shape, .. } => *value >= 0 && (*value as u128) < shape.len() as u128,
        _ => false,
    }
}

/// `memref.cast`.
pub static CAST: OpDef = OpDef {
    summary: "memref cast operation",
    description: "Converts a memref to a type with the same element type and memory space \
        whose static sizes, strides and offset agree where both are static; ranked to \
        unranked and back.\n\n```mlir\n%c = memref.cast %A : memref<?x8xf32> to memref<4x8xf32>\n```",
    traits: Traits::PURE,
    operands: &[ArgDef::one("source", &MEMREF_RANKED_OR_UNRANKED)],
    results: &[ArgDef::one("dest", &MEMREF_RANKED_OR_UNRANKED)],
    format: Some("$source attr-dict `:` type($source) `to` type($dest)"),
    verify: Some(verify_cast),
    result_names: Some(|_, _, _| Some("cast".into())),
    ..OpDef::declared("memref.cast")
};

fn cast_compatible(ctx: &Context, a: Type, b: Type) -> bool {
    match (ctx.type_data(a), ctx.type_data(b)) {
        (
            TypeData::MemRef {
                shape: sa,
                element: ea,
                layout: la,
                memory_space: ma,
            },
            TypeData::MemRef {
                shape: sb,
                element: eb,
                layout: lb,
                memory_space: mb,
            },
        ) => {
            if ea != eb || ma != mb || sa.len() != sb.len() {
                return false;
            }
            if sa
                .iter()
                .zip(sb.iter())
                .any(|(x, y)| *x != DYNAMIC && *y != DYNAMIC && x != y)
            {
                return false;
            }
            if la == lb {
                return true;
            }
            match (strided_of(ctx, *la, sa), strided_of(ctx, *lb, sb)) {
                (Some((sta, oa)), Some((stb, ob))) => {
                    let ok = |x: i64, y: i64| x == DYNAMIC || y == DYNAMIC || x == y;
                    ok(oa, ob) && sta.iter().zip(&stb).all(|(x, y)| ok(*x, *y))
                }
                _ => false,
            }
        }
        (
            TypeData::MemRef {
                element: ea,
                memory_space: ma,
                ..
            },
            TypeData::UnrankedMemRef {
                element: eb,
                memory_space: mb,
            },
        )
        | (
            TypeData::UnrankedMemRef {
                element: ea,
                memory_space: ma,
            },
            TypeData::MemRef {
                element: eb,
                memory_space: mb,
                ..
            },
        ) => ea == eb && ma == mb,
        _ => false,
    }
}

/// The strides and offset of a memref layout (identity or `strided<...>`).
fn strided_of(ctx: &Context, layout: Option<Attribute>, shape: &[i64]) -> Option<(Vec<i64>, i64)> {
    match layout.map(|l| ctx.attr_data(l)) {
        None => Some((identity_strides(shape), 0)),
        Some(AttrData::Strided { strides, offset }) => Some((strides.to_vec(), *offset)),
        Some(AttrData::AffineMap(m)) if m.is_identity() => Some((identity_strides(shape), 0)),
        _ => None,
    }
}

fn identity_strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; shape.len()];
    let mut running = 1i64;
    for i in (0..shape.len()).rev() {
        strides[i] = running;
        running = if running == DYNAMIC || shape[i] == DYNAMIC {
            DYNAMIC
        } else {
            running.saturating_mul(shape[i])
        };
    }
    strides
}

fn verify_cast(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let a = body.value_type(body.operand(op, 0));
    let b = body.value_type(body.result(op, 0));
    if !cast_compatible(ctx, a, b) {
        return Err(op_error(
            ctx,
            body,
            op,
            format!(
                "operand type '{}' and result type '{}' are cast incompatible",
                type_to_string(ctx, a),
                type_to_string(ctx, b)
            ),
        ));
    }
    Ok(())
}

/// `memref.copy`.
pub static COPY: OpDef = OpDef {
    summary: "copies the data from the source to the destination memref",
    description: "Copies all elements of `source` into `target`; both have the same shape \
        and element type (layouts may differ).\n\n```mlir\n\
        memref.copy %a, %b : memref<4xf32> to memref<4xf32, strided<[2]>>\n```",
    traits: Traits::MEMORY_EFFECTS,
    operands: &[
        ArgDef::one("source", &MEMREF_RANKED_OR_UNRANKED).reads(),
        ArgDef::one("target", &MEMREF_RANKED_OR_UNRANKED).writes(),
    ],
    format: Some("$source `,` $target attr-dict `:` type($source) `to` type($target)"),
    verify: Some(verify_copy),
    ..OpDef::declared("memref.copy")
};

fn verify_copy(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let a = body.value_type(body.operand(op, 0));
    let b = body.value_type(body.operand(op, 1));
    if ctx.type_data(a).element_type() != ctx.type_data(b).element_type() {
        return Err(op_error(
            ctx,
            body,
            op,
            "requires the same element type for all operands",
        ));
    }
    if let (Some(sa), Some(sb)) = (shape_of(ctx, a), shape_of(ctx, b)) {
        let compatible =
            sa.len() == sb.len() && sa.iter().zip(sb).all(|(x, y)| *x == DYNAMIC || *y == DYNAMIC || x == y);
        if !compatible {
            return Err(op_error(ctx, body, op, "requires the same shape for all operands"));
        }
    }
    Ok(())
}

/// `memref.get_global`.
pub static GET_GLOBAL: OpDef = OpDef {
    summary: "get the memref pointing to a global variable",
    description: "The memref of the `memref.global` named `name`; the result type is the \
        global's type.\n\n```mlir\n%g = memref.get_global @table : memref<4xf32>\n```",
    traits: Traits::PURE,
    results: &[ArgDef::one("result", &STATIC_MEMREF)],
    attributes: &[AttrDef::required("name", &FLAT_SYMBOL_REF)],
    format: Some("$name `:` type($result) attr-dict"),
    verify_symbol_uses: Some(verify_get_global_uses),
    ..OpDef::declared("memref.get_global")
};

/// MLIR's `GetGlobalOp::verifySymbolUses`: `name` is a `memref.global` of
/// the result's type.
fn verify_get_global_uses(
    ctx: &Context,
    table: Option<(&Body, OpId)>,
    body: &Body,
    op: OpId,
) -> Result<(), Diagnostic> {
    let Some(AttrData::SymbolRef { root, nested }) = prop(ctx, body, op, "name").map(|a| ctx.attr_data(a)) else {
        return Ok(());
    };
    let name = ctx.ident_str(*root);
    let global = table.filter(|_| nested.is_empty()).and_then(|(tb, anchor)| {
        let region = tb.op_block(anchor).and_then(|b| tb.block_region(b))?;
        let g = lf_ir::symbols::lookup_symbol(ctx, tb, region, name)?;
        (ctx.op_name_str(tb.op_name(g)) == "memref.global").then_some((tb, g))
    });
    let Some((tb, g)) = global else {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("'{name}' does not reference a valid global memref"),
        ));
    };
    let result = body.value_type(body.result(op, 0));
    if let Some(AttrData::Type(t)) = prop(ctx, tb, g, "type").map(|a| ctx.attr_data(a)) {
        if *t != result {
            return Err(op_error(
                ctx,
                body,
                op,
                format!(
                    "result type '{}' does not match type '{}' of the global memref @{name}",
                    type_to_string(ctx, result),
                    type_to_string(ctx, *t)
                ),
            ));
        }
    }
    Ok(())
}

/// `memref.global`.
pub static GLOBAL: OpDef = OpDef {
    summary: "declare or define a global memref variable",
    description: "A global buffer: a symbol with a statically shaped memref `type`, an \
        optional `initial_value` (a dense elements attribute of the matching tensor type, \
        or `uninitialized`), `constant` when it is never written, an optional \
        `alignment`. Without `= ...` it is an external declaration.\n\n```mlir\n\
        memref.global \"private\" constant @c : memref<2xf32> = dense<[1.0, 2.0]>\n\
        memref.global @buf : memref<16xi32> = uninitialized\n\
        memref.global @ext : memref<4xf32>\n```",
    traits: Traits::SYMBOL,
    attributes: &[
        AttrDef::required("sym_name", &STRING_ATTR),
        AttrDef::optional("sym_visibility", &STRING_ATTR),
        AttrDef::required("type", &MEMREF_TYPE_ATTR),
        AttrDef::optional("initial_value", &ANY_ATTR),
        AttrDef::optional("constant", &UNIT_ATTR),
        AttrDef::optional("alignment", &ALIGNMENT_ATTR),
    ],
    parse: Some(parse_global),
    print: Some(print_global),
    verify: Some(verify_global),
    ..OpDef::declared("memref.global")
};

/// A memref type, as a type attribute.
pub static MEMREF_TYPE_ATTR: AttrConstraint = AttrConstraint {
    summary: "memref type attribute",
    check: |ctx, a| matches!(ctx.attr_data(a), AttrData::Type(t) if matches!(ctx.type_data(*t), TypeData::MemRef { .. })),
    parse: None,
    print: None,
    is_unit: false,
    kind: AttrKind::Type,
};

/// The tensor type of a memref's contents (`memref<4xf32>` -> `tensor<4xf32>`).
fn tensor_of(ctx: &Context, t: Type) -> Option<Type> {
    match ctx.type_data(t) {
        TypeData::MemRef { shape, element, .. } => Some(ctx.get_type(TypeData::Tensor {
            shape: shape.clone(),
            element: *element,
            encoding: None,
        })),
        _ => None,
    }
}

fn parse_global(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let ctx = p.ctx();
    if p.at(lf_ir::parser::lexer::TokenKind::String) {
        let v = p.parse_attribute()?;
        p.set_prop("sym_visibility", v);
    }
    if p.parse_optional_keyword("constant") {
        p.set_prop("constant", ctx.common().unit);
    }
    let Some(name) = p.parse_optional_symbol_name()? else {
        return Err(p.error("expected valid '@'-identifier for symbol name"));
    };
    p.set_prop("sym_name", ctx.string_attr(ctx.ident_str(name)));
    p.parse_literal(":")?;
    let t = p.parse_type()?;
    let Some(tensor) = tensor_of(ctx, t).filter(|_| !shape_of(ctx, t).is_some_and(|s| s.contains(&DYNAMIC))) else {
        return Err(p.error(format!(
            "type should be static shaped memref, but got '{}'",
            type_to_string(ctx, t)
        )));
    };
    p.set_prop("type", ctx.get_attr(AttrData::Type(t)));
    if p.parse_optional_literal("=") {
        if p.parse_optional_keyword("uninitialized") {
            p.set_prop("initial_value", ctx.common().unit);
        } else {
            let v = p.parse_attribute_of_type(tensor)?;
            p.set_prop("initial_value", v);
        }
    }
    p.parse_optional_attr_dict()?;
    Ok(())
}

fn print_global(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let body = p.body();
    p.write(" ");
    if let Some(v) = prop(ctx, body, op, "sym_visibility") {
        p.attr(v);
        p.write(" ");
    }
    if prop(ctx, body, op, "constant").is_some() {
        p.write("constant ");
    }
    if let Some(AttrData::String { value, .. }) = prop(ctx, body, op, "sym_name").map(|a| ctx.attr_data(a)) {
        let r = ctx.get_attr(AttrData::SymbolRef {
            root: ctx.intern(value),
            nested: Box::new([]),
        });
        p.attr(r);
    }
    p.write(" : ");
    let ty = match prop(ctx, body, op, "type").map(|a| ctx.attr_data(a)) {
        Some(AttrData::Type(t)) => Some(*t),
        _ => None,
    };
    if let Some(t) = ty {
        p.ty(t);
    }
    if let Some(v) = prop(ctx, body, op, "initial_value") {
        p.write(" = ");
        match ctx.attr_data(v) {
            AttrData::Unit => p.write("uninitialized"),
            AttrData::DenseElements { ty: vt, .. } => {
                let s = lf_ir::printer::attr_to_string(ctx, v);
                let suffix = format!(" : {}", type_to_string(ctx, *vt));
                match s.strip_suffix(&suffix) {
                    Some(x) => p.write(x),
                    None => p.attr(v),
                }
            }
            _ => p.attr(v),
        }
    }
    p.attr_dict_with_props(
        op,
        &["sym_name", "sym_visibility", "constant", "type", "initial_value"],
        false,
    );
    Ok(())
}

fn verify_global(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let Some(AttrData::Type(t)) = prop(ctx, body, op, "type").map(|a| ctx.attr_data(a)) else {
        return Ok(());
    };
    if shape_of(ctx, *t).is_none_or(|s| s.contains(&DYNAMIC)) {
        return Err(op_error(
            ctx,
            body,
            op,
            format!(
                "type should be static shaped memref, but got '{}'",
                type_to_string(ctx, *t)
            ),
        ));
    }
    if let Some(v) = prop(ctx, body, op, "initial_value") {
        match ctx.attr_data(v) {
            AttrData::Unit => {}
            AttrData::DenseElements { ty: vt, .. } => {
                let want = tensor_of(ctx, *t).expect("memref");
                if *vt != want {
                    return Err(op_error(
                        ctx,
                        body,
                        op,
                        format!(
                            "initial value expected to be of type '{}', but was of type '{}'",
                            type_to_string(ctx, want),
                            type_to_string(ctx, *vt)
                        ),
                    ));
                }
            }
            _ => {
                return Err(op_error(
                    ctx,
                    body,
                    op,
                    format!(
                        "initial value should be a unit or elements attribute, but got {}",
                        lf_ir::printer::attr_to_string(ctx, v)
                    ),
                ))
            }
        }
    }
    Ok(())
}

// ------------------------------------------------------------ views

fn dense_i64(ctx: &Context, v: &[i64]) -> Attribute {
    ctx.get_attr(AttrData::DenseArray {
        element: ctx.common().i64,
        values: DenseValues::Int(v.iter().map(|&x| x as i128).collect()),
    })
}

pub(crate) fn dense_i64_values(ctx: &Context, a: Option<Attribute>) -> Vec<i64> {
    match a.map(|a| ctx.attr_data(a)) {
        Some(AttrData::DenseArray {
            values: DenseValues::Int(v),
            ..
        }) => v.iter().map(|&x| x as i64).collect(),
        _ => Vec::new(),
    }
}

/// Parses MLIR's `custom<DynamicIndexList>($values, $static_values)`:
/// `[%a, 4, %b]`, an SSA value standing for a dynamic entry.
fn parse_dynamic_index_list<'a>(
    p: &mut CustomParser<'_, 'a>,
    st: &mut FormatState<'a>,
    args: &[CustomArg],
) -> ParseResult<()> {
    let (CustomArg::Operand(g), CustomArg::Attr(a)) = (args[0], args[1]) else {
        return Err(p.error("DynamicIndexList needs an operand group and an attribute"));
    };
    p.parse_literal("[")?;
    let mut statics = Vec::new();
    if !p.parse_optional_literal("]") {
        loop {
            if let Some(r) = p.parse_optional_operand()? {
                st.operands[g].push(r);
                statics.push(DYNAMIC);
            } else {
                let v = p.parse_integer()?;
                statics.push(v as i64);
            }
            if !p.parse_optional_literal(",") {
                break;
            }
        }
        p.parse_literal("]")?;
    }
    st.attrs[a] = Some(dense_i64(p.ctx(), &statics));
    Ok(())
}

fn print_dynamic_index_list(p: &mut CustomPrinter<'_, '_>, op: OpId, args: &[CustomArg]) {
    let (CustomArg::Operand(g), CustomArg::Attr(a)) = (args[0], args[1]) else {
        return;
    };
    let ctx = p.ctx();
    let body = p.body();
    let def = ctx.op_def(body.op_name(op)).expect("registered");
    let values: Vec<_> = operand_group_range(ctx, body, op, def, g)
        .map(|i| body.operand(op, i))
        .collect();
    let statics = dense_i64_values(ctx, prop(ctx, body, op, def.attributes[a].name));
    p.write("[");
    let mut dynamic = values.iter();
    for (i, s) in statics.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        if *s == DYNAMIC {
            if let Some(v) = dynamic.next() {
                p.value(*v);
            }
        } else {
            p.write(&s.to_string());
        }
    }
    p.write("]");
}

pub(crate) static DYNAMIC_INDEX_LIST: &[CustomDirective] = &[CustomDirective {
    name: "DynamicIndexList",
    parse: parse_dynamic_index_list,
    print: print_dynamic_index_list,
}];

const OFFSETS_SIZES_STRIDES: [ArgDef; 4] = [
    ArgDef::one("source", &MEMREF_ANY),
    ArgDef::variadic("offsets", &INDEX),
    ArgDef::variadic("sizes", &INDEX),
    ArgDef::variadic("strides", &INDEX),
];

const STATIC_ATTRS: [AttrDef; 3] = [
    AttrDef::required("static_offsets", &DENSE_I64_ARRAY_ATTR),
    AttrDef::required("static_sizes", &DENSE_I64_ARRAY_ATTR),
    AttrDef::required("static_strides", &DENSE_I64_ARRAY_ATTR),
];

/// `memref.subview`.
pub static SUBVIEW: OpDef = OpDef {
    summary: "memref subview operation",
    description: "A strided view of a part of a memref: one offset, size and stride per \
        dimension, each a constant or an `index` value. The result's layout carries the \
        combined strides and offset; dimensions of size 1 may be dropped \
        (rank reduction).\n\n```mlir\n\
        %s = memref.subview %A[%o, 0] [4, %n] [1, 1] : memref<8x16xf32> to memref<4x?xf32, strided<[16, 1], offset: ?>>\n```",
    traits: Traits::PURE,
    operands: &OFFSETS_SIZES_STRIDES,
    results: &[ArgDef::one("result", &MEMREF_ANY)],
    attributes: &STATIC_ATTRS,
    format: Some(
        "$source `` custom<DynamicIndexList>($offsets, $static_offsets) \
         custom<DynamicIndexList>($sizes, $static_sizes) \
         custom<DynamicIndexList>($strides, $static_strides) \
         attr-dict `:` type($source) `to` type($result)",
    ),
    custom_directives: DYNAMIC_INDEX_LIST,
    verify: Some(verify_subview),
    result_names: Some(|_, _, _| Some("subview".into())),
    ..OpDef::declared("memref.subview")
};

/// `memref.reinterpret_cast`.
pub static REINTERPRET_CAST: OpDef = OpDef {
    summary: "memref reinterpret cast operation",
    description: "A view of the source's buffer with the given offset, sizes and strides \
        (each a constant or an `index` value), which must agree with the result type.\n\n\
        ```mlir\n%r = memref.reinterpret_cast %A to offset: [0], sizes: [%n, 4], strides: [4, 1] : memref<8x16xf32> to memref<?x4xf32>\n```",
    traits: Traits::PURE,
    operands: &[
        ArgDef::one("source", &MEMREF_RANKED_OR_UNRANKED),
        ArgDef::variadic("offsets", &INDEX),
        ArgDef::variadic("sizes", &INDEX),
        ArgDef::variadic("strides", &INDEX),
    ],
    results: &[ArgDef::one("result", &MEMREF_ANY)],
    attributes: &STATIC_ATTRS,
    format: Some(
        "$source `to` `offset` `` `:` custom<DynamicIndexList>($offsets, $static_offsets) \
         `` `,` `sizes` `` `:` custom<DynamicIndexList>($sizes, $static_sizes) \
         `` `,` `strides` `` `:` custom<DynamicIndexList>($strides, $static_strides) \
         attr-dict `:` type($source) `to` type($result)",
    ),
    custom_directives: DYNAMIC_INDEX_LIST,
    verify: Some(verify_reinterpret_cast),
    result_names: Some(|_, _, _| Some("reinterpret_cast".into())),
    ..OpDef::declared("memref.reinterpret_cast")
};

/// Checks the static lists against the dynamic operands (MLIR's
/// `verifyOffsetSizeAndStrideOp`), with `ranks` the expected lengths.
fn check_static_lists(ctx: &Context, body: &Body, op: OpId, ranks: [Option<usize>; 3]) -> Result<(), Diagnostic> {
    let def = ctx.op_def(body.op_name(op)).expect("registered");
    let err = |m: String| Err(Diagnostic::error(body.op_loc(op).source_pos(ctx), m));
    for (k, what) in ["offset", "size", "stride"].iter().enumerate() {
        let statics = dense_i64_values(ctx, prop(ctx, body, op, def.attributes[k].name));
        if let Some(r) = ranks[k] {
            if statics.len() != r {
                return err(format!("expected {r} {what} values, got {}", statics.len()));
            }
        }
        let dynamic = operand_group_range(ctx, body, op, def, k + 1).len();
        let want = statics.iter().filter(|&&s| s == DYNAMIC).count();
        if dynamic != want {
            return err(format!("expected {want} dynamic {what} values"));
        }
    }
    Ok(())
}

fn verify_reinterpret_cast(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let rt = body.value_type(body.result(op, 0));
    let rank = shape_of(ctx, rt).map_or(0, <[i64]>::len);
    check_static_lists(ctx, body, op, [Some(1), Some(rank), Some(rank)])
}

fn verify_subview(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let def = ctx.op_def(body.op_name(op)).expect("registered");
    let st = |k: usize| dense_i64_values(ctx, prop(ctx, body, op, def.attributes[k].name));
    let (offsets, sizes, strides) = (st(0), st(1), st(2));
    if offsets.len() != sizes.len() {
        return Err(Diagnostic::error(
            body.op_loc(op).source_pos(ctx),
            format!(
                "expected mixed offsets rank to match mixed sizes rank ({} vs {}) so the rank of the result type is well-formed.",
                offsets.len(),
                sizes.len()
            ),
        ));
    }
    if sizes.len() != strides.len() {
        return Err(Diagnostic::error(
            body.op_loc(op).source_pos(ctx),
            format!(
                "expected mixed sizes rank to match mixed strides rank ({} vs {}) so the rank of the result type is well-formed.",
                sizes.len(),
                strides.len()
            ),
        ));
    }
    let src = body.value_type(body.operand(op, 0));
    let rank = shape_of(ctx, src).map_or(0, <[i64]>::len);
    check_static_lists(ctx, body, op, [Some(rank), Some(rank), Some(rank)])?;
    // The type without rank reduction.
    let TypeData::MemRef {
        shape,
        element,
        layout,
        memory_space,
    } = ctx.type_data(src)
    else {
        return Ok(());
    };
    let Some((src_strides, src_offset)) = strided_of(ctx, *layout, shape) else {
        return Ok(());
    };
    let mul = |a: i64, b: i64| {
        if a == DYNAMIC || b == DYNAMIC {
            DYNAMIC
        } else {
            a.saturating_mul(b)
        }
    };
    let mut offset = src_offset;
    for (o, s) in offsets.iter().zip(&src_strides) {
        let t = mul(*o, *s);
        offset = if offset == DYNAMIC || t == DYNAMIC {
            DYNAMIC
        } else {
            offset.saturating_add(t)
        };
    }
    let new_strides: Vec<i64> = strides.iter().zip(&src_strides).map(|(a, b)| mul(*a, *b)).collect();
    let layout_attr = if offset == 0 && new_strides == identity_strides(&sizes) {
        None
    } else {
        Some(ctx.get_attr(AttrData::Strided {
            strides: new_strides.into(),
            offset,
        }))
    };
    let expected = ctx.get_type(TypeData::MemRef {
        shape: sizes.clone().into(),
        element: *element,
        layout: layout_attr,
        memory_space: *memory_space,
    });
    let rt = body.value_type(body.result(op, 0));
    let rrank = shape_of(ctx, rt).map_or(0, <[i64]>::len);
    if rrank == sizes.len() && rt != expected {
        let reason = match ctx.type_data(rt) {
            TypeData::MemRef { element: e, .. } if e != element => "element type",
            TypeData::MemRef { memory_space: m, .. } if m != memory_space => "memory space",
            TypeData::MemRef { shape: s, .. } if **s != *sizes => "result sizes",
            _ => "result layout",
        };
        return Err(Diagnostic::error(
            body.op_loc(op).source_pos(ctx),
            format!(
                "expected result type to be '{}' or a rank-reduced version. (mismatch of {reason}), but got '{}'",
                type_to_string(ctx, expected),
                type_to_string(ctx, rt)
            ),
        ));
    }
    Ok(())
}

/// `memref.view`.
pub static VIEW: OpDef = OpDef {
    summary: "memref view operation",
    description: "A view with an identity layout into a 1-D `i8` buffer, starting \
        `byte_shift` bytes in; one `index` operand per dynamic size of the result.\n\n\
        ```mlir\n%v = memref.view %buf[%c0][%n] : memref<2048xi8> to memref<?x4xf32>\n```",
    traits: Traits::PURE,
    operands: &[
        ArgDef::one("source", &MEMREF_1D_I8),
        ArgDef::one("byte_shift", &INDEX),
        ArgDef::variadic("sizes", &INDEX),
    ],
    results: &[ArgDef::one("result", &MEMREF_ANY)],
    format: Some("$source `[` $byte_shift `]` `` `[` $sizes `]` attr-dict `:` type($source) `to` type(results)"),
    verify: Some(verify_view),
    result_names: Some(|_, _, _| Some("view".into())),
    ..OpDef::declared("memref.view")
};

fn verify_view(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let rt = body.value_type(body.result(op, 0));
    let shape = shape_of(ctx, rt).unwrap_or(&[]);
    let want = shape.iter().filter(|&&d| d == DYNAMIC).count();
    let n = body.num_operands(op) - 2;
    if n != want {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("incorrect number of dynamic sizes, has {n}, expected {want}"),
        ));
    }
    Ok(())
}

/// Every op of the dialect.
pub static OPS: &[&OpDef] = &[
    &ALLOC,
    &ALLOCA,
    &DEALLOC,
    &LOAD,
    &STORE,
    &DIM,
    &CAST,
    &COPY,
    &GET_GLOBAL,
    &GLOBAL,
    &SUBVIEW,
    &VIEW,
    &REINTERPRET_CAST,
];
