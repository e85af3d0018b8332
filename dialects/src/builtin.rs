//! The builtin ops besides `builtin.module` (which the IR core declares):
//! `builtin.unrealized_conversion_cast`.

use lf_ir::ods::constraints::ANY_TYPE;
use lf_ir::ods::ArgDef;
use lf_ir::{OpDef, Traits};

/// `builtin.unrealized_conversion_cast`.
pub static UNREALIZED_CONVERSION_CAST: OpDef = OpDef {
    summary: "An unrealized conversion from one set of types to another",
    description: "A placeholder that converts values of some types to values of other types \
        while a lowering is in progress; a later pass must remove it. It has no defined \
        semantics.\n\n```mlir\n%1 = builtin.unrealized_conversion_cast %0 : i32 to i64\n\
        %2:2 = builtin.unrealized_conversion_cast %a, %b : i32, i32 to i64, f32\n```",
    traits: Traits::PURE,
    operands: &[ArgDef::variadic("inputs", &ANY_TYPE)],
    results: &[ArgDef::variadic("outputs", &ANY_TYPE)],
    format: Some("($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict"),
    ..OpDef::declared("builtin.unrealized_conversion_cast")
};

/// The builtin ops (`builtin.module` is declared by the core).
pub static OPS: &[&OpDef] = &[&lf_ir::builtin::MODULE, &UNREALIZED_CONVERSION_CAST];

/// What the op reference says about the dialect.
pub const INTRO: &str = "The builtin dialect's ops. `builtin.module` (the top-level container, a symbol \
    table with one block and no terminator) is declared by the IR core; the custom form may leave out the \
    `builtin.` prefix.";
