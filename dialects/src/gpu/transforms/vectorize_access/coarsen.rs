//! Aggressive mode's first half: thread coarsening along x by `w`. Each
//! thread of the new kernel does the work of `w` neighbouring threads of
//! the old one, `tidx = w * tidx' + k` for `k = 0..w-1`, one copy of the
//! body after the other; the block shrinks to `B / w` threads along x.
//! Strict mode then merges the copies' neighbouring accesses (`A[idx + c]`
//! became `A[w * idx' + k + c]`) into vector accesses; the rest stays
//! replicated as scalars. The copies are interleaved op by op (top-level
//! ops of the body, nested regions whole): one of the interleavings of the
//! `w` threads the old kernel allowed when it has no barrier, under which a
//! race-free kernel computes the same.

use crate::affine::AffineApplyOp;
use crate::arith::ArithConstantOp;
use crate::gpu::analysis::kernel_access::{const_index, kernel_accesses};
use crate::gpu::{GpuBarrierOp, GpuBlockDimOp, GpuGlobalIdOp, GpuLaneIdOp, GpuLaunchOp, GpuThreadIdOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::interfaces::memory_effects;
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId};

/// The block size along x of `launch` when it can be coarsened by `w`, or why not.
pub fn check(ctx: &Context, body: &Body, launch: GpuLaunchOp, w: i64) -> Result<i64, String> {
    let ir = (ctx, body);
    let Some(bx) = const_index(ctx, body, launch.block_size_x(&ir)) else {
        return Err("the block size along x is not a constant".into());
    };
    if bx % w != 0 {
        return Err(format!("the block size along x, {bx}, is not a multiple of {w}"));
    }
    if body.region_blocks(launch.body(&ir)).count() != 1 {
        return Err("the kernel body has several blocks".into());
    }
    if !launch.workgroup_attributions(&ir).is_empty() || !launch.private_attributions(&ir).is_empty() {
        return Err("the kernel has workgroup or private memory".into());
    }
    if launch.cluster_size_x(&ir).is_some() {
        return Err("the launch has clusters".into());
    }
    let mut why: Option<String> = None;
    walk(body, launch.op(), WalkOrder::PreOrder, &mut |b, op| {
        if op == launch.op() || why.is_some() {
            return WalkControl::Advance;
        }
        let ir = (ctx, b);
        if GpuBarrierOp::isa(&ir, op) {
            why = Some("the kernel has barriers".into());
        } else if GpuThreadIdOp::isa(&ir, op)
            || GpuBlockDimOp::isa(&ir, op)
            || GpuGlobalIdOp::isa(&ir, op)
            || GpuLaneIdOp::isa(&ir, op)
        {
            why = Some("the kernel reads thread ids or sizes other than through the launch's arguments".into());
        } else if memory_effects(ctx, b, op).is_none() {
            why = Some(format!(
                "'{}' has unknown memory effects (atomics, calls)",
                ctx.op_name_str(b.op_name(op))
            ));
        }
        WalkControl::Advance
    });
    if let Some(w) = why {
        return Err(w);
    }
    if let Some(a) = kernel_accesses(&ir, launch).iter().find(|a| a.unresolved().is_some()) {
        return Err(format!(
            "an unresolved subscript ({})",
            a.unresolved().unwrap_or_default()
        ));
    }
    Ok(bx)
}

/// Coarsens `launch` (block size `bx` along x) by `w`.
pub fn coarsen(b: &mut Builder<'_>, launch: GpuLaunchOp, bx: i64, w: i64) -> Vec<OpId> {
    b.set_insertion_point_before(launch.op());
    let smaller = ArithConstantOp::index(b, bx / w);
    launch.set_block_size_x(b, smaller);
    let tidx = launch.thread_ids(b)[0];
    let bdx = launch.block_size_args(b)[0];
    let block = b.body().entry_block(launch.body(b)).expect("checked: one block");
    let ops: Vec<OpId> = b.body().block_ops(block).collect();
    let (term, ops) = ops.split_last().expect("a terminator");
    b.set_insertion_point_before(*term);
    let old_bx = ArithConstantOp::index(b, bx);
    let mut maps: Vec<ValueMap> = (0..w)
        .map(|k| {
            let map = AffineMap::new(1, 0, vec![AffineExpr::dim(0).mul_const(w).add_const(k)]);
            let t = AffineApplyOp::build(b, &[tidx], map).result(b);
            let mut vm = ValueMap::default();
            vm.map(tidx, t);
            vm.map(bdx, old_bx);
            vm
        })
        .collect();
    // Op by op, the w copies next to each other (the loads of neighbouring
    // threads end up side by side): an interleaving of the w threads, which
    // a race-free kernel without barriers computes the same under.
    for &op in ops {
        for vm in maps.iter_mut() {
            b.clone_op(op, vm);
        }
    }
    for &op in ops.iter().rev() {
        b.erase_op(op);
    }
    ops.to_vec()
}
