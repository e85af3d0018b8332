//! Whether a launch can be coarsened, decided before anything changes.
//!
//! Declined (the reason becomes the remark): launch sizes that are not
//! constants; fewer threads along the dimension than the factor; a kernel
//! body of several blocks;
//! workgroup or private attributions and barriers (a thread's points come
//! from different blocks and different threads of a block); atomics and
//! ops with unknown memory effects; the thread or block id along the
//! dimension used other than through the global id `block_id*B +
//! thread_id`.
//!
//! The last check finds the **roots**: the values computed from the raw
//! ids whose linear form ([`linearize`]) gives `Block(dim)` exactly `B`
//! times the coefficient of `Thread(dim)`, i.e. `a*(block_id*B +
//! thread_id) + rest`. Values computed from the raw ids that are not of
//! that form (`block_id*B` alone, `thread_id / 2`) may only feed roots:
//! any other use (an index, a store, a loop bound) declines the launch.

use super::mapping::PointMapping;
use super::options::Granularity;
use crate::affine::{AffineForOp, AffineIfOp, AffineLoadOp, AffineStoreOp, AffineYieldOp};
use crate::gpu::analysis::kernel_access::{linearize, LaunchIds, LinearIndex, Subscript, Term};
use crate::gpu::analysis::sharing::register_estimate;
use crate::gpu::{GpuBarrierOp, GpuLaunchOp, GpuTerminatorOp};
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use crate::scf::{ScfForOp, ScfIfOp, ScfYieldOp};
use lf_ir::view::{Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{OpId, Value};
use lf_pass::rewrite::effects;
use rustc_hash::FxHashSet;

/// A value of the form `a*(block_id*B + thread_id) + rest` computed
/// directly from the raw ids.
#[derive(Clone, Debug)]
pub struct Root {
    /// The op computing it (single result, no side effects).
    pub op: OpId,
    /// Its linear form in the launch's terms.
    pub form: LinearIndex,
}

/// Everything the rewrite needs, decided by [`plan`].
#[derive(Clone, Debug)]
pub struct Plan {
    /// The options.
    pub granularity: Granularity,
    /// Which points each new thread computes.
    pub mapping: PointMapping,
    /// The old block size along the dimension (`B`).
    pub old_block: i64,
    /// The old grid size along the dimension.
    pub old_grid: i64,
    /// All threads of the launch before.
    pub old_threads: i64,
    /// The roots, in program order.
    pub roots: Vec<Root>,
    /// Ops computing the roots and the other values of raw ids, in
    /// program order: all dead once the roots are rewritten.
    pub id_ops: Vec<OpId>,
    /// Load ops in the kernel before.
    pub loads_before: usize,
    /// `register_estimate` of the kernel before.
    pub registers_before: u64,
}

/// Why an op is not supported, or `None`.
fn unsupported<'c>(ir: &impl Ir<'c>, op: OpId) -> Option<String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    if GpuBarrierOp::isa(ir, op) {
        return Some("the kernel has a gpu.barrier (a thread's points come from different blocks)".into());
    }
    let known = AffineLoadOp::isa(ir, op)
        || AffineStoreOp::isa(ir, op)
        || MemrefLoadOp::isa(ir, op)
        || MemrefStoreOp::isa(ir, op)
        || AffineForOp::isa(ir, op)
        || AffineIfOp::isa(ir, op)
        || ScfForOp::isa(ir, op)
        || ScfIfOp::isa(ir, op)
        || AffineYieldOp::isa(ir, op)
        || ScfYieldOp::isa(ir, op)
        || GpuTerminatorOp::isa(ir, op);
    let pure = body.num_regions(op) == 0 && effects::is_effect_free(ctx, body, op);
    (!known && !pure).then(|| {
        format!(
            "the kernel has a '{}' (atomics, calls and ops with unknown memory effects are not coarsened)",
            ctx.op_name_str(body.op_name(op))
        )
    })
}

/// Whether `form` is `a*(block_id*B + thread_id) + rest` along `dim`.
fn is_global_form(form: &LinearIndex, dim: usize, block: i64) -> bool {
    block.checked_mul(form.coef(Term::Thread(dim))) == Some(form.coef(Term::Block(dim)))
}

/// Decides whether `launch` can be coarsened as `g` asks.
pub fn plan<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp, g: &Granularity) -> Result<Plan, String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let ids = LaunchIds::of(ir, launch);
    let dim = g.dim;
    let sizes: Option<Vec<i64>> = ids.block_size.iter().chain(ids.grid_size.iter()).copied().collect();
    let Some(sizes) = sizes else {
        return Err("the launch's grid or block sizes are not constants".into());
    };
    let (old_block, old_grid) = (sizes[dim], sizes[3 + dim]);
    let old_threads = sizes
        .iter()
        .try_fold(1i64, |acc, s| acc.checked_mul(*s))
        .unwrap_or(i64::MAX);
    let extent = old_block.saturating_mul(old_grid);
    if extent < g.factor {
        return Err(format!(
            "{extent} thread(s) along {}, fewer than the factor {}",
            g.axis(),
            g.factor
        ));
    }
    if body.region_blocks(launch.body(ir)).nth(1).is_some() {
        return Err("the kernel body has more than one block (unstructured control flow)".into());
    }
    if !launch.workgroup_attributions(ir).is_empty() || !launch.private_attributions(ir).is_empty() {
        return Err(
            "the kernel has workgroup or private attributions (a thread's points come from different blocks)".into(),
        );
    }
    let mut why = None;
    let mut loads_before = 0usize;
    walk(body, launch.op(), WalkOrder::PreOrder, &mut |b, op| {
        if op == launch.op() {
            return WalkControl::Advance;
        }
        let irb = (ctx, b);
        if AffineLoadOp::isa(&irb, op) || MemrefLoadOp::isa(&irb, op) {
            loads_before += 1;
        }
        why = unsupported(&irb, op);
        if why.is_some() {
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    if let Some(w) = why {
        return Err(w);
    }
    // Roots and the values of raw ids.
    let mut raw: FxHashSet<Value> = [ids.thread[dim], ids.block[dim]].into_iter().collect();
    let mut roots = Vec::new();
    let mut id_ops = Vec::new();
    let mut err = None;
    walk(body, launch.op(), WalkOrder::PreOrder, &mut |b, op| {
        if op == launch.op() {
            return WalkControl::Advance;
        }
        let Some(used) = b.operands(op).find(|v| raw.contains(v)) else {
            return WalkControl::Advance;
        };
        let scalar = b.num_regions(op) == 0 && b.num_results(op) == 1 && effects::is_effect_free(ctx, b, op);
        if !scalar {
            let what = if used == ids.thread[dim] {
                "the thread id"
            } else if used == ids.block[dim] {
                "the block id"
            } else {
                "a value computed from the thread or block id"
            };
            err = Some(format!(
                "{what} along {} is used other than through the global id block_id*{old_block} + thread_id (by '{}')",
                g.axis(),
                ctx.op_name_str(b.op_name(op))
            ));
            return WalkControl::Interrupt;
        }
        let result = b.result(op, 0);
        id_ops.push(op);
        match linearize(ctx, b, &ids, result) {
            Subscript::Linear(form) if is_global_form(&form, dim, old_block) => roots.push(Root { op, form }),
            _ => {
                raw.insert(result);
            }
        }
        WalkControl::Advance
    });
    if let Some(e) = err {
        return Err(e);
    }
    Ok(Plan {
        granularity: *g,
        mapping: PointMapping::new(extent, old_block, g.vector_width, g.streams),
        old_block,
        old_grid,
        old_threads,
        roots,
        id_ops,
        loads_before,
        registers_before: register_estimate(ir, launch, None).total(),
    })
}
