//! `affine.load`/`affine.store` as `memref.load`/`memref.store` of
//! `affine.apply`d indices: what an affine access becomes when its
//! subscripts read a value that is no longer a valid affine dimension (an
//! induction variable turned into a block argument of the merged
//! `scf.while`). The addresses are the same; only the affine form is lost.

use crate::affine::{AffineApplyOp, AffineLoadOp, AffineStoreOp};
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use lf_ir::affine::AffineMap;
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{OpId, Value};

/// Rewrites the affine load or store `op` into its `memref` form.
pub fn to_memref_access(b: &mut Builder<'_>, op: OpId) {
    b.set_insertion_point_before(op);
    b.set_loc_of(op);
    if let Some(ld) = AffineLoadOp::cast(b, op) {
        let (memref, map, operands) = (ld.memref(b), ld.map(b).clone(), ld.indices(b));
        let indices = apply_each(b, &map, &operands);
        let new = MemrefLoadOp::build(b, memref, &indices).result(b);
        let old = ld.result(b);
        b.replace_all_uses_with(old, new);
        b.erase_op(op);
    } else if let Some(st) = AffineStoreOp::cast(b, op) {
        let (value, memref, map, operands) = (st.value(b), st.memref(b), st.map(b).clone(), st.indices(b));
        let indices = apply_each(b, &map, &operands);
        MemrefStoreOp::build(b, value, memref, &indices);
        b.erase_op(op);
    }
}

/// One `affine.apply` per result of `map` on `operands` (the operands
/// themselves for results that are one of them).
fn apply_each(b: &mut Builder<'_>, map: &AffineMap, operands: &[Value]) -> Vec<Value> {
    (0..map.num_results())
        .map(|k| {
            let single = map.get_sub_map(&[k]);
            match single.dim_position(0) {
                Some(d) => operands[d as usize],
                None => AffineApplyOp::build(b, operands, single).result(b),
            }
        })
        .collect()
}
