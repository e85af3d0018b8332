//! Building blocks shared by the dialect declarations: type derivations
//! for [`TypeRule::Derived`](lf_ir::ods::TypeRule) and a diagnostic helper
//! for op verifiers. (Enum and flag attributes are declared with
//! [`lf_ir::ods::enums`].)

use lf_ir::diag::Diagnostic;
use lf_ir::{Body, Context, OpId, Type, TypeData};

/// An error on `op` in MLIR's style: `'dialect.op' op message`.
pub fn op_error(ctx: &Context, body: &Body, op: OpId, msg: impl std::fmt::Display) -> Diagnostic {
    let name = ctx.op_name_str(body.op_name(op));
    Diagnostic::error(body.op_loc(op).source_pos(ctx), format!("'{name}' op {msg}"))
}

/// ` at LINE:COL` of `op` for a remark or message, or nothing when it has
/// no source position.
pub fn at(ctx: &Context, body: &Body, op: OpId) -> String {
    match body.op_loc(op).source_pos(ctx) {
        Some(p) => format!(" at {}:{}", p.line, p.col),
        None => String::new(),
    }
}

pub use lf_ir::ods::enums::{FlagsAttr, IntEnum};

/// `i1`, or a vector/tensor of `i1` of the same shape as `t`.
pub fn i1_like(ctx: &Context, t: Type) -> Option<Type> {
    let i1 = ctx.common().i1;
    Some(match ctx.type_data(t) {
        TypeData::Vector { shape, scalable, .. } => ctx.get_type(TypeData::Vector {
            shape: shape.clone(),
            scalable: scalable.clone(),
            element: i1,
        }),
        TypeData::Tensor { shape, encoding, .. } => ctx.get_type(TypeData::Tensor {
            shape: shape.clone(),
            element: i1,
            encoding: *encoding,
        }),
        TypeData::UnrankedTensor { .. } => ctx.get_type(TypeData::UnrankedTensor { element: i1 }),
        _ => i1,
    })
}

/// The element type of a memref (or other shaped type).
pub fn element_type(ctx: &Context, t: Type) -> Option<Type> {
    ctx.type_data(t).element_type()
}
