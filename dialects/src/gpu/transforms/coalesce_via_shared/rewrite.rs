//! The rewrite of one planned loop into the shape of seed Fig. 3a/3b:
//!
//! ```text
//! affine.for %i = lb to ub step U*st iter_args(...) {
//!   G2S: sA[16g + tidx] = A[..][s(%i) + 16g + tidx]              (Row)
//!        affine.for %l = 0 to 16 { sT[l][tidx] = A[..idx - tidx + l..][s(%i) + tidx] }  (Tile)
//!   gpu.barrier
//!   affine.for %k = 0 to U iter_args(...) {
//!     %iv = %i + %k*st
//!     <the original body, the converted loads reading sA[m*k] / sT[tidx][k]>
//!   }
//!   gpu.barrier
//! }
//! ```

use super::plan::{Conversion, LoopPlan, Shape};
use crate::affine::{AffineApplyOp, AffineBound, AffineForOp, AffineLoadOp, AffineStoreOp};
use crate::gpu::analysis::coalescing::HALF_WARP;
use crate::gpu::{GpuBarrierOp, GpuLaunchOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::{OpView, ValueList};
use lf_ir::Value;

/// Emits the G2S statements of `c` into `buf` at the insertion point, for
/// the chunk starting at iteration value `i`.
fn emit_loader(b: &mut Builder<'_>, c: &Conversion, buf: Value, loop_iv: Value, i: Value, tidx: Value, unroll: i64) {
    let map = c.load.map(b).clone();
    let (nd, ns) = (map.num_dims(), map.num_symbols());
    let operands: Vec<Value> = c
        .load
        .indices(b)
        .iter()
        .map(|&v| if v == loop_iv { i } else { v })
        .collect();
    let (dims, syms) = operands.split_at(nd as usize);
    let memref = c.load.memref(b);
    let rank = map.num_results();
    let t = AffineExpr::dim(nd);
    match c.shape {
        Shape::Row => {
            let segments = c.m * unroll / HALF_WARP;
            for g in 0..segments {
                let mut results = map.results().to_vec();
                results[rank - 1] = results[rank - 1].add(&t).add_const(g * HALF_WARP);
                let m = AffineMap::new(nd + 1, ns, results);
                let mut ops = dims.to_vec();
                ops.push(tidx);
                ops.extend_from_slice(syms);
                let v = AffineLoadOp::build(b, memref, &ops, m).result(b);
                let at = AffineMap::new(1, 0, vec![AffineExpr::dim(0).add_const(g * HALF_WARP)]);
                AffineStoreOp::build(b, v, buf, &[tidx], at);
            }
        }
        Shape::Tile { dim } => {
            let (dims, syms) = (dims.to_vec(), syms.to_vec());
            AffineForOp::build(
                b,
                AffineBound::constant(0),
                AffineBound::constant(HALF_WARP),
                1,
                &[],
                |b, l, _| {
                    let mut results = map.results().to_vec();
                    let lexpr = AffineExpr::dim(nd + 1);
                    results[dim] = results[dim].sub(&t).add(&lexpr);
                    results[rank - 1] = results[rank - 1].add(&t);
                    let m = AffineMap::new(nd + 2, ns, results);
                    let mut ops = dims.clone();
                    ops.push(tidx);
                    ops.push(l);
                    ops.extend_from_slice(&syms);
                    let v = AffineLoadOp::build(b, memref, &ops, m).result(b);
                    AffineStoreOp::build(b, v, buf, &[l, tidx], AffineMap::get_multi_dim_identity(2));
                    ValueList::new()
                },
            );
        }
    }
}

/// Rewrites the loop of `plan`, its converted loads reading `buffers`
/// (one per conversion, in order).
pub fn rewrite_loop(b: &mut Builder<'_>, launch: GpuLaunchOp, plan: &LoopPlan, buffers: &[Value]) {
    let f = plan.for_op;
    let (lb, ub) = (
        f.constant_lower_bound(b).expect("planned loops have constant bounds"),
        f.constant_upper_bound(b).expect("planned loops have constant bounds"),
    );
    let step = f.step(b);
    let unroll = plan.unroll;
    let inits: Vec<Value> = f.inits(b).to_vec();
    let loop_iv = f.iv(b);
    let [tidx, _, _] = launch.thread_ids(b);
    b.set_insertion_point_before(f.op());
    b.set_loc_of(f.op());
    let mut inner_slot: Option<(AffineForOp, Value, ValueList)> = None;
    let outer = AffineForOp::build(
        b,
        AffineBound::constant(lb),
        AffineBound::constant(ub),
        step * unroll,
        &inits,
        |b, i, args| {
            for (c, &buf) in plan.conversions.iter().zip(buffers) {
                emit_loader(b, c, buf, loop_iv, i, tidx, unroll);
            }
            GpuBarrierOp::build(b);
            let mut k_slot = None;
            let inner = AffineForOp::build(
                b,
                AffineBound::constant(0),
                AffineBound::constant(unroll),
                1,
                args,
                |b, k, kargs| {
                    let map = AffineMap::new(2, 0, vec![AffineExpr::dim(0).add(&AffineExpr::dim(1).mul_const(step))]);
                    let iv = AffineApplyOp::build(b, &[i, k], map).result(b);
                    k_slot = Some((k, iv, kargs.iter().copied().collect::<ValueList>()));
                    kargs.iter().copied().collect()
                },
            );
            let (k, iv, kargs) = k_slot.expect("the inner loop's body was built");
            let _ = k;
            inner_slot = Some((inner, iv, kargs));
            GpuBarrierOp::build(b);
            inner.results(b)
        },
    );
    let (inner, iv, kargs) = inner_slot.expect("the outer loop's body was built");
    let k = inner.iv(b);
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
    // The converted loads read shared memory.
    for (c, &buf) in plan.conversions.iter().zip(buffers) {
        let load = c.load.op();
        b.set_insertion_point_before(load);
        b.set_loc_of(load);
        let new = match c.shape {
            Shape::Row => {
                let map = AffineMap::new(1, 0, vec![AffineExpr::dim(0).mul_const(c.m)]);
                AffineLoadOp::build(b, buf, &[k], map).result(b)
            }
            Shape::Tile { .. } => {
                AffineLoadOp::build(b, buf, &[tidx, k], AffineMap::get_multi_dim_identity(2)).result(b)
            }
        };
        let old = c.load.result(b);
        b.replace_all_uses_with(old, new);
        b.erase_op(load);
    }
}
