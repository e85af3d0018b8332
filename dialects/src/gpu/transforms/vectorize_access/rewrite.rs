//! The rewrite of one planned group: one `vector.load` and an extract per
//! lane, or a `vector.from_elements` and one `vector.store`.

use super::plan::Group;
use crate::affine::{AffineApplyOp, AffineLoadOp, AffineStoreOp};
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use crate::vector::{VectorExtractOp, VectorFromElementsOp, VectorLoadOp, VectorStoreOp};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::Value;

/// The index values of access `op` (affine maps applied with one
/// `affine.apply` per result), built at the builder's insertion point.
fn indices(b: &mut Builder<'_>, op: lf_ir::OpId) -> Vec<Value> {
    let (map, operands) = if let Some(l) = AffineLoadOp::cast(b, op) {
        (l.map(b).clone(), l.indices(b))
    } else if let Some(s) = AffineStoreOp::cast(b, op) {
        (s.map(b).clone(), s.indices(b))
    } else if let Some(l) = MemrefLoadOp::cast(b, op) {
        return l.indices(b).to_vec();
    } else if let Some(s) = MemrefStoreOp::cast(b, op) {
        return s.indices(b).to_vec();
    } else {
        unreachable!("kernel accesses are loads and stores")
    };
    (0..map.num_results())
        .map(|i| AffineApplyOp::build(b, &operands, map.get_sub_map(&[i])).result(b))
        .collect()
}

/// Rewrites group `g`.
pub fn apply(b: &mut Builder<'_>, g: &Group) {
    let base = g.lanes[0][0];
    let loc = b.body().op_loc(base);
    b.set_loc(loc);
    b.set_insertion_point_before(g.anchor);
    let idx = indices(b, base);
    if g.is_store {
        let values: Vec<Value> = g.lanes.iter().map(|l| b.body().operand(l[0], 0)).collect();
        let v = VectorFromElementsOp::build(b, &values, g.vector_ty).dest(b);
        VectorStoreOp::build(b, v, g.memref, &idx);
        for l in &g.lanes {
            b.erase_op(l[0]);
        }
    } else {
        let v = VectorLoadOp::build(b, g.memref, &idx, g.vector_ty).result(b);
        // Every extract first (the anchor, a load, is still there), then the
        // loads go.
        let extracts: Vec<Value> = (0..g.lanes.len())
            .map(|k| VectorExtractOp::build(b, v, &[], &[k as i64]).result(b))
            .collect();
        for (l, &e) in g.lanes.iter().zip(&extracts) {
            for &op in l {
                let old = b.body().result(op, 0);
                b.replace_all_uses_with(old, e);
                b.erase_op(op);
            }
        }
    }
}
