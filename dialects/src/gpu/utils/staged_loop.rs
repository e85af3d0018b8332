//! A kernel loop split into chunks that are staged through shared memory:
//! the shape `coalesce-via-shared` and `gpu-promote-shared` give the loop
//! whose loads they read from workgroup buffers.
//!
//! ```text
//! affine.for %i = lb to ub step C*st iter_args(...) {
//!   <loaders: fill the buffers for iterations %i .. %i + (C-1)*st>
//!   gpu.barrier
//!   affine.for %k = 0 to C iter_args(...) {     // min(C, (ub - %i) ceildiv st) for a last partial chunk
//!     %iv = %i + %k*st
//!     <the original body>
//!   }
//!   gpu.barrier
//! }
//! ```

use crate::affine::{AffineApplyOp, AffineBound, AffineForOp};
use crate::gpu::GpuBarrierOp;
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::{OpView, ValueList};
use lf_ir::Value;

/// The two loops that replace a staged loop.
#[derive(Clone, Copy, Debug)]
pub struct StagedLoop {
    /// The loop over chunks (`%i`, stepping `chunk` iterations).
    pub outer: AffineForOp,
    /// The loop over the iterations of one chunk (`%k`, 0 to `chunk`).
    pub inner: AffineForOp,
}

/// Replaces `f` (constant bounds) by the staged shape (when `chunk` does
/// not divide the trip count, the last chunk's inner loop stops at the
/// loop's end): `emit_loaders` is called once, with the insertion
/// point in the outer loop's body before the first barrier and the outer
/// loop's index; the original body moves into the inner loop, where the
/// old index becomes `%i + %k*step`. Iteration arguments and results are
/// carried through both loops.
pub fn stage_loop(
    b: &mut Builder<'_>,
    f: AffineForOp,
    chunk: i64,
    mut emit_loaders: impl FnMut(&mut Builder<'_>, Value),
) -> StagedLoop {
    let (lb, ub) = (
        f.constant_lower_bound(b).expect("staged loops have constant bounds"),
        f.constant_upper_bound(b).expect("staged loops have constant bounds"),
    );
    let step = f.step(b);
    let trip = f.constant_trip_count(b).expect("staged loops have constant bounds");
    let inits: Vec<Value> = f.inits(b).to_vec();
    let loop_iv = f.iv(b);
    b.set_insertion_point_before(f.op());
    b.set_loc_of(f.op());
    let mut inner_slot: Option<(AffineForOp, Value, ValueList)> = None;
    let outer = AffineForOp::build(
        b,
        AffineBound::constant(lb),
        AffineBound::constant(ub),
        step * chunk,
        &inits,
        |b, i, args| {
            emit_loaders(b, i);
            GpuBarrierOp::build(b);
            let mut k_slot = None;
            // A trip count that `chunk` does not divide: the last chunk
            // runs min(chunk, ceil((ub - i) / step)) iterations.
            let upper = if trip % chunk == 0 {
                AffineBound::constant(chunk)
            } else {
                let left = AffineExpr::constant(ub).sub(&AffineExpr::dim(0)).ceil_div_const(step);
                AffineBound::map(AffineMap::new(1, 0, vec![AffineExpr::constant(chunk), left]), &[i])
            };
            let inner = AffineForOp::build(b, AffineBound::constant(0), upper, 1, args, |b, k, kargs| {
                let map = AffineMap::new(2, 0, vec![AffineExpr::dim(0).add(&AffineExpr::dim(1).mul_const(step))]);
                let iv = AffineApplyOp::build(b, &[i, k], map).result(b);
                k_slot = Some((iv, kargs.iter().copied().collect::<ValueList>()));
                kargs.iter().copied().collect()
            });
            let (iv, kargs) = k_slot.expect("the inner loop's body was built");
            inner_slot = Some((inner, iv, kargs));
            GpuBarrierOp::build(b);
            inner.results(b)
        },
    );
    let (inner, iv, kargs) = inner_slot.expect("the outer loop's body was built");
    // Move the original body into the inner loop.
    let old_block = f.region_block(b);
    let old_yield = b
        .body()
        .terminator(old_block)
        .expect("a loop body ends with affine.yield");
    let yielded: Vec<Value> = b.body().operands(old_yield).collect();
    let inner_yield = b
        .body()
        .terminator(inner.region_block(b))
        .expect("the inner loop ends with affine.yield");
    if let Some(first) = b.body().first_op(old_block) {
        if first != old_yield {
            b.set_insertion_point_before(inner_yield);
            b.splice_rest_of_block(first, true);
        }
    }
    b.replace_all_uses_with(loop_iv, iv);
    for (a, v) in f.region_iter_args(b).iter().zip(&kargs) {
        b.replace_all_uses_with(*a, *v);
    }
    b.modify_in_place(inner_yield, |_, body| body.set_operands(inner_yield, &yielded));
    let old_results: Vec<Value> = f.results(b).to_vec();
    let new_results: Vec<Value> = outer.results(b).to_vec();
    for (o, n) in old_results.iter().zip(&new_results) {
        b.replace_all_uses_with(*o, *n);
    }
    b.erase_op(f.op());
    StagedLoop { outer, inner }
}
