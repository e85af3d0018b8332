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
use crate::affine::{AffineBound, AffineForOp, AffineLoadOp, AffineStoreOp};
use crate::gpu::analysis::coalescing::HALF_WARP;
use crate::gpu::utils::staged_loop::stage_loop;
use crate::gpu::GpuLaunchOp;
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
    let unroll = plan.unroll;
    let loop_iv = f.iv(b);
    let [tidx, _, _] = launch.thread_ids(b);
    let staged = stage_loop(b, f, unroll, |b, i| {
        for (c, &buf) in plan.conversions.iter().zip(buffers) {
            emit_loader(b, c, buf, loop_iv, i, tidx, unroll);
        }
    });
    let k = staged.inner.iv(b);
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
