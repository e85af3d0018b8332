//! The `demo` dialect: one op, `demo.square`, declared the way lf's own
//! dialects declare theirs (see lf's `docs/design/ods.md`).
//!
//! ```mlir
//! %y = demo.square %x : i32    // %y = %x * %x, wrapping at the bit width
//! ```
//!
//! The declaration gives the op its custom syntax, its verifier (operand and
//! result types), its documentation and a folder. Because it is `PURE` and
//! has a folder, lf's generic passes handle it with no extra code:
//! `canonicalize` folds `demo.square` of a constant, `cse` merges duplicates,
//! `dce` erases unused ones.

use lf_ir::ods::constraints::SIGNLESS_INTEGER_LIKE;
use lf_ir::ods::{ArgDef, TypeRule};
use lf_ir::{AttrData, Attribute, Body, Context, FoldResult, OpDef, OpId, Traits, TypeData};

/// `demo.square`: the square of an integer.
pub static SQUARE: OpDef = OpDef {
    summary: "integer square",
    description: "`%x * %x`, wrapping around at the bit width like `arith.muli`.\n\n\
        ```mlir\n%y = demo.square %x : i32\n```",
    traits: Traits::PURE.with(Traits::SAME_OPERANDS_AND_RESULT_TYPE),
    operands: &[ArgDef::one("input", &SIGNLESS_INTEGER_LIKE)],
    results: &[ArgDef::one("result", &SIGNLESS_INTEGER_LIKE)],
    format: Some("$input attr-dict `:` type($result)"),
    type_rules: &[TypeRule::AllMatch(&["input", "result"])],
    fold: Some(fold_square),
    ..OpDef::declared("demo.square")
};

/// Every op of the dialect.
pub static OPS: &[&OpDef] = &[&SQUARE];

/// Registers the `demo` dialect's ops in `ctx`.
pub fn register(ctx: &Context) {
    for op in OPS {
        ctx.register_op(op);
    }
    // What `demo` ops fold to becomes an `arith.constant` (MLIR's `materializeConstant`).
    lf_ir::constants::register_constant_materializer(ctx, "demo", lf_dialects::arith::ArithConstantOp::materialize);
}

/// Folds `demo.square` of a scalar integer constant to the constant's square.
fn fold_square(ctx: &Context, _body: &Body, _op: OpId, operands: &[Option<Attribute>]) -> Option<lf_ir::FoldResults> {
    let AttrData::Integer { value, ty } = ctx.attr_data((*operands.first()?)?) else {
        return None;
    };
    let width = match ctx.type_data(*ty) {
        TypeData::Integer { width, .. } => *width,
        TypeData::Index => 64,
        _ => return None,
    };
    // Attributes hold integers sign-extended from their width: wrap the
    // product to `width` bits the same way.
    let shift = 128 - width.min(128);
    let square = (value.wrapping_mul(*value) << shift) >> shift;
    Some([FoldResult::Attr(ctx.integer_attr(square, *ty))].into_iter().collect())
}
