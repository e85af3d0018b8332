//! The `vector` dialect, the subset lf's GPU passes use: `load`, `store`,
//! `extract` and `insert` (static positions), `broadcast` (scalar to vector)
//! and `from_elements`, on 1-D vectors (`vector<4xf32>`), with MLIR 22's
//! syntax. Arithmetic on vectors is `arith`'s and `math`'s, elementwise.

#[rustfmt::skip]
mod views;
pub use views::*;

pub mod fold;

use crate::memref::{dense_i64_values, DYNAMIC_INDEX_LIST};
use crate::support::op_error;
use lf_ir::diag::Diagnostic;
use lf_ir::ods::constraints::*;
use lf_ir::ods::{prop, ArgDef, AttrDef, TypeConstraint, TypeRule};
use lf_ir::{Body, Context, OpDef, OpId, Traits, Type, TypeData};

/// Introduction of the op reference.
pub const INTRO: &str = "A subset of MLIR's `vector` dialect: 1-D vectors (`vector<4xf32>`) \
loaded from and stored to memrefs (`load`, `store`), read and written one element at a static \
position (`extract`, `insert`) and built from scalars (`broadcast`, `from_elements`). \
Arithmetic on vectors is `arith`'s and `math`'s, elementwise. Syntax follows MLIR 22; lf accepts \
only static positions and 1-D vectors.";

/// `memref<...>` of any element type.
static MEMREF: TypeConstraint = TypeConstraint {
    summary: "memref of any type values",
    check: |ctx, t| matches!(ctx.type_data(t), TypeData::MemRef { .. }),
    build: None,
};

/// A fixed-length 1-D vector: its length and element type.
pub fn vector_shape(ctx: &Context, t: Type) -> Option<(i64, Type)> {
    match ctx.type_data(t) {
        TypeData::Vector {
            shape,
            scalable,
            element,
        } if shape.len() == 1 && !scalable[0] => Some((shape[0], *element)),
        _ => None,
    }
}

/// `vector<NxT>`.
pub fn vector_type(ctx: &Context, n: i64, element: Type) -> Type {
    ctx.get_type(TypeData::Vector {
        shape: vec![n].into(),
        scalable: vec![false].into(),
        element,
    })
}

fn one_d(ctx: &Context, body: &Body, op: OpId, t: Type) -> Result<(i64, Type), Diagnostic> {
    vector_shape(ctx, t).ok_or_else(|| op_error(ctx, body, op, "lf supports only fixed-length 1-D vectors"))
}

/// `vector.load`.
pub static LOAD: OpDef = OpDef {
    summary: "reads an n-D slice of memory into an n-D vector",
    description: "Reads `N` consecutive elements along the innermost dimension of `base`, starting \
        at the given indices (one `index` per dimension), into a `vector<NxT>`; `T` is the memref's \
        element type. lf-run and the GPU emitters require the flat element offset to be a \
        multiple of `N` (an aligned access).\n\n```mlir\n\
        %v = vector.load %A[%i, %j] : memref<8x16xf32>, vector<4xf32>\n```",
    traits: Traits::MEMORY_EFFECTS,
    operands: &[
        ArgDef::one("base", &MEMREF).reads(),
        ArgDef::variadic("indices", &INDEX),
    ],
    results: &[ArgDef::one("result", &ANY_VECTOR)],
    format: Some("$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)"),
    verify_local: Some(verify_load),
    ..OpDef::declared("vector.load")
};

/// `vector.store`.
pub static STORE: OpDef = OpDef {
    summary: "writes an n-D vector to an n-D slice of memory",
    description: "Writes the `N` elements of `valueToStore` to `N` consecutive elements along the \
        innermost dimension of `base`, starting at the given indices. Aligned as `vector.load`.\n\n\
        ```mlir\nvector.store %v, %A[%i, %j] : memref<8x16xf32>, vector<4xf32>\n```",
    traits: Traits::MEMORY_EFFECTS,
    operands: &[
        ArgDef::one("valueToStore", &ANY_VECTOR),
        ArgDef::one("base", &MEMREF).writes(),
        ArgDef::variadic("indices", &INDEX),
    ],
    format: Some("$valueToStore `,` $base `[` $indices `]` attr-dict `:` type($base) `,` type($valueToStore)"),
    verify_local: Some(verify_store),
    ..OpDef::declared("vector.store")
};

fn verify_access(ctx: &Context, body: &Body, op: OpId, base: usize, vector: Type) -> Result<(), Diagnostic> {
    let mt = body.value_type(body.operand(op, base));
    let TypeData::MemRef { shape, element, .. } = ctx.type_data(mt) else {
        return Err(op_error(ctx, body, op, "base operand must be a memref"));
    };
    let (_, e) = one_d(ctx, body, op, vector)?;
    if e != *element {
        return Err(op_error(
            ctx,
            body,
            op,
            "base and valueToStore element type should match",
        ));
    }
    let n = body.num_operands(op) - base - 1;
    if n != shape.len() {
        return Err(op_error(ctx, body, op, format!("requires {} indices", shape.len())));
    }
    if shape.is_empty() {
        return Err(op_error(ctx, body, op, "lf requires a memref of rank >= 1"));
    }
    Ok(())
}

fn verify_load(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    verify_access(ctx, body, op, 0, body.value_type(body.result(op, 0)))
}

fn verify_store(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    verify_access(ctx, body, op, 1, body.value_type(body.operand(op, 0)))
}

/// The static position of an `extract`/`insert` (checked by the verifier
/// to be one in-range index).
pub fn static_position(ctx: &Context, body: &Body, op: OpId) -> Option<i64> {
    let v = dense_i64_values(ctx, prop(ctx, body, op, "static_position"));
    (v.len() == 1 && v[0] >= 0).then(|| v[0])
}

fn verify_position(ctx: &Context, body: &Body, op: OpId, dynamic: usize, vector: Type) -> Result<(), Diagnostic> {
    let (n, _) = one_d(ctx, body, op, vector)?;
    if body.num_operands(op) != dynamic {
        return Err(op_error(ctx, body, op, "lf supports only static positions"));
    }
    let pos = dense_i64_values(ctx, prop(ctx, body, op, "static_position"));
    if pos.len() != 1 {
        return Err(op_error(
            ctx,
            body,
            op,
            "expected position attribute of rank no greater than vector rank",
        ));
    }
    if pos[0] < 0 || pos[0] >= n {
        return Err(op_error(
            ctx,
            body,
            op,
            format!("expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension ({n})"),
        ));
    }
    Ok(())
}

/// `vector.extract`.
pub static EXTRACT: OpDef = OpDef {
    summary: "extract operation",
    description: "The element of `source` at a static position.\n\n```mlir\n\
        %e = vector.extract %v[3] : f32 from vector<4xf32>\n```",
    traits: Traits::PURE,
    operands: &[
        ArgDef::one("source", &ANY_VECTOR),
        ArgDef::variadic("dynamic_position", &INDEX),
    ],
    results: &[ArgDef::one("result", &ANY_TYPE)],
    attributes: &[AttrDef::required("static_position", &DENSE_I64_ARRAY_ATTR)],
    format: Some(
        "$source `` custom<DynamicIndexList>($dynamic_position, $static_position) attr-dict `:` \
         type($result) `from` type($source)",
    ),
    custom_directives: DYNAMIC_INDEX_LIST,
    type_rules: &[TypeRule::Derived {
        target: "result",
        source: "source",
        derive: crate::support::element_type,
        description: "result type matches element type of 'source'",
    }],
    verify_local: Some(verify_extract),
    fold: Some(fold::fold_extract),
    ..OpDef::declared("vector.extract")
};

fn verify_extract(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    verify_position(ctx, body, op, 1, body.value_type(body.operand(op, 0)))
}

/// `vector.insert`.
pub static INSERT: OpDef = OpDef {
    summary: "insert operation",
    description: "`dest` with the element at a static position replaced by `valueToStore`.\n\n\
        ```mlir\n%w = vector.insert %e, %v [0] : f32 into vector<4xf32>\n```",
    traits: Traits::PURE,
    operands: &[
        ArgDef::one("valueToStore", &ANY_TYPE),
        ArgDef::one("dest", &ANY_VECTOR),
        ArgDef::variadic("dynamic_position", &INDEX),
    ],
    results: &[ArgDef::one("result", &ANY_VECTOR)],
    attributes: &[AttrDef::required("static_position", &DENSE_I64_ARRAY_ATTR)],
    format: Some(
        "$valueToStore `,` $dest custom<DynamicIndexList>($dynamic_position, $static_position) \
         attr-dict `:` type($valueToStore) `into` type($dest)",
    ),
    custom_directives: DYNAMIC_INDEX_LIST,
    type_rules: &[
        TypeRule::AllMatch(&["dest", "result"]),
        TypeRule::Derived {
            target: "valueToStore",
            source: "dest",
            derive: crate::support::element_type,
            description: "valueToStore type matches element type of 'dest'",
        },
    ],
    verify_local: Some(verify_insert),
    ..OpDef::declared("vector.insert")
};

fn verify_insert(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    verify_position(ctx, body, op, 2, body.value_type(body.operand(op, 1)))
}

/// `vector.broadcast`.
pub static BROADCAST: OpDef = OpDef {
    summary: "broadcast operation",
    description: "A vector whose every element is the scalar `source`.\n\n```mlir\n\
        %b = vector.broadcast %s : f32 to vector<4xf32>\n```",
    traits: Traits::PURE,
    operands: &[ArgDef::one("source", &ANY_TYPE)],
    results: &[ArgDef::one("vector", &ANY_VECTOR)],
    format: Some("$source attr-dict `:` type($source) `to` type($vector)"),
    verify_local: Some(verify_broadcast),
    ..OpDef::declared("vector.broadcast")
};

fn verify_broadcast(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let (_, e) = one_d(ctx, body, op, body.value_type(body.result(op, 0)))?;
    if body.value_type(body.operand(op, 0)) != e {
        return Err(op_error(
            ctx,
            body,
            op,
            "lf broadcasts only a scalar of the result's element type",
        ));
    }
    Ok(())
}

/// `vector.from_elements`.
pub static FROM_ELEMENTS: OpDef = OpDef {
    summary: "operation that defines a vector from scalar elements",
    description: "The vector of the given scalars, one per element.\n\n```mlir\n\
        %v = vector.from_elements %a, %b, %c, %d : vector<4xf32>\n```",
    traits: Traits::PURE,
    operands: &[ArgDef::variadic("elements", &ANY_TYPE)],
    results: &[ArgDef::one("dest", &ANY_VECTOR)],
    format: Some("$elements attr-dict `:` type($dest)"),
    type_rules: &[TypeRule::Derived {
        target: "elements",
        source: "dest",
        derive: crate::support::element_type,
        description: "operand types match result element type",
    }],
    verify_local: Some(verify_from_elements),
    ..OpDef::declared("vector.from_elements")
};

fn verify_from_elements(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let (n, _) = one_d(ctx, body, op, body.value_type(body.result(op, 0)))?;
    if body.num_operands(op) as i64 != n {
        return Err(op_error(
            ctx,
            body,
            op,
            format!(
                "'dest' vector has {n} elements but {} were given",
                body.num_operands(op)
            ),
        ));
    }
    Ok(())
}

/// All ops of the dialect.
pub static OPS: &[&OpDef] = &[&BROADCAST, &EXTRACT, &FROM_ELEMENTS, &INSERT, &LOAD, &STORE];
