//! Elimination for 1-D grids (DIGEST §004.8, method 1): the loop that
//! sweeps the camping dimension starts, in block `bidx`, `bidx * PW`
//! elements further and wraps around: `i' = L + ((i - L) + bidx * PW) mod w`
//! for `affine.for %i = L to L + w step s` (PW and `w` multiples of `s`),
//! so every block still visits every `i` exactly once.

use crate::affine::analysis::reductions::loop_reduction;
use crate::affine::{AffineApplyOp, AffineForOp};
use crate::gpu::utils::kernel_writes::nested_writes;
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::Value;

/// What a rotation did.
#[derive(Clone, Debug)]
pub struct Rotation {
    /// The loop's lower bound.
    pub lower: i64,
    /// The loop's extent `w` (upper minus lower bound).
    pub extent: i64,
    /// The rotation per block in elements (a multiple of the step).
    pub offset: i64,
    /// How many reductions the loop carries (their order changes).
    pub reductions: usize,
}

/// Whether `for_op` may be rotated: `(lower, extent)`, or why not.
pub fn check(b: &Builder<'_>, for_op: AffineForOp) -> Result<(i64, i64), String> {
    let (Some(lower), Some(upper)) = (for_op.constant_lower_bound(b), for_op.constant_upper_bound(b)) else {
        return Err("the loop bounds are not constants (w must be constant)".into());
    };
    let step = for_op.step(b);
    let extent = upper - lower;
    if extent <= 0 {
        return Err("the loop runs no iteration".into());
    }
    if extent % step != 0 {
        return Err(format!("the extent {extent} is not a multiple of the step {step}"));
    }
    for k in 0..for_op.region_iter_args(b).len() {
        if loop_reduction(b, for_op, k).is_none() {
            return Err(format!(
                "iter_arg #{k} is not a reduction (the loop carries a dependence)"
            ));
        }
    }
    let (ctx, body) = (b.ctx(), b.body());
    if let Some(e) = nested_writes(ctx, body, for_op.op())?.first() {
        return Err(format!(
            "the loop writes memory ('{}'): a dependence through memory may be carried",
            ctx.op_name_str(body.op_name(e.op))
        ));
    }
    Ok((lower, extent))
}

/// Rotates `for_op` by `bidx * pw` elements (rounded up to a multiple of
/// the step), or says why not (then unchanged).
pub fn rotate(b: &mut Builder<'_>, for_op: AffineForOp, bidx: Value, pw: i64) -> Result<Rotation, String> {
    let (lower, extent) = check(b, for_op)?;
    let step = for_op.step(b);
    let offset = (pw.max(1) + step - 1) / step * step;
    if offset % extent == 0 {
        return Err(format!(
            "a rotation by {offset} elements per block is the identity on a loop of extent {extent}"
        ));
    }
    let iv = for_op.iv(b);
    let expr = AffineExpr::dim(0)
        .add_const(-lower)
        .add(&AffineExpr::dim(1).mul_const(offset))
        .modulo_const(extent)
        .add_const(lower);
    let block = for_op.region_block(b);
    let apply = b.guarded(|b| {
        b.set_insertion_point_to_start(block);
        b.set_loc_of(for_op.op());
        AffineApplyOp::build(b, &[iv, bidx], AffineMap::new(2, 0, vec![expr]))
    });
    let rotated = apply.result(b);
    b.replace_uses_if(iv, rotated, |_, user| user != apply.op());
    Ok(Rotation {
        lower,
        extent,
        offset,
        reductions: for_op.region_iter_args(b).len(),
    })
}
