//! The builtin ops: `builtin.module` (declared by the IR core; the dialects
//! add the module-level rules of their attributes, such as
//! `gpu.container_module`) and `builtin.unrealized_conversion_cast`.

#[rustfmt::skip]
mod views;
pub use views::*;

mod ops;

use lf_ir::diag::Diagnostic;
use lf_ir::ods::constraints::ANY_TYPE;
use lf_ir::ods::ArgDef;
use lf_ir::{Body, Context, OpDef, OpId, Traits};

/// `builtin.module` as the IR core declares it, with a verifier that also
/// checks the rules dialects attach to modules (MLIR checks them in its
/// dialect attribute verifiers): `gpu.launch_func` needs a closest
/// surrounding module with `gpu.container_module`, whose symbols resolve its
/// kernel ([`crate::gpu::verify_container_module`]). [`crate::register_all`]
/// registers it in place of the core's declaration.
pub static MODULE: OpDef = OpDef {
    verify: Some(verify_module),
    ..lf_ir::builtin::MODULE
};

fn verify_module(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    if let Some(core) = lf_ir::builtin::MODULE.verify {
        core(ctx, body, op)?;
    }
    crate::gpu::verify_container_module(ctx, body, op)
}

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
pub static OPS: &[&OpDef] = &[&MODULE, &UNREALIZED_CONVERSION_CAST];

/// What the op reference says about the dialect.
pub const INTRO: &str = "The builtin dialect's ops. `builtin.module` (the top-level container, a symbol \
    table with one block and no terminator) is declared by the IR core; the custom form may leave out the \
    `builtin.` prefix.";
