//! Folders of the `vector` ops: an `extract` of an element that is known
//! without reading the vector.

use super::{BROADCAST, FROM_ELEMENTS, INSERT};
use lf_ir::registry::{FoldResult, FoldResults};
use lf_ir::view::is_op;
use lf_ir::{Attribute, Body, Context, OpId};

/// `vector.extract`: of a `broadcast` (its scalar), of a `from_elements`
/// (the element at the position), of an `insert` at the same position (the
/// inserted value).
pub fn fold_extract(ctx: &Context, body: &Body, op: OpId, _: &[Option<Attribute>]) -> Option<FoldResults> {
    let pos = super::static_position(ctx, body, op)?;
    let src = body.operand(op, 0);
    let def = body.defining_op(src)?;
    let v = if is_op(ctx, body, def, &BROADCAST) {
        body.operand(def, 0)
    } else if is_op(ctx, body, def, &FROM_ELEMENTS) {
        *body.operands(def).collect::<Vec<_>>().get(pos as usize)?
    } else if is_op(ctx, body, def, &INSERT) && super::static_position(ctx, body, def) == Some(pos) {
        body.operand(def, 0)
    } else {
        return None;
    };
    Some(smallvec::smallvec![FoldResult::Value(v)])
}
