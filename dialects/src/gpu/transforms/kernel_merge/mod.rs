//! Seed 004's step 5 (DIGEST §004.6): `block-merge` (N neighbouring
//! blocks become one block N times larger, the statements that cause
//! the sharing guarded so that global data is loaded once), `thread-merge`
//! (each thread does the work of N threads of N neighbouring blocks, the
//! sharing statements kept once) and `gpu-merge-policy` (which of the two,
//! along which dimension, by which factor). See
//! `docs/design/kernel-optimizer.md`.

pub mod block_merge;
pub mod policy;
pub mod register_tile;
pub mod thread_merge;

use crate::affine::{AffineForOp, AffineIfOp, AffineLoadOp, AffineStoreOp, AffineYieldOp};
use crate::arith::ArithConstantOp;
pub(crate) use crate::gpu::utils::barriers::contains_barrier;
use crate::gpu::{GpuBarrierOp, GpuLaunchOp, GpuTerminatorOp};
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use crate::scf::{ScfForOp, ScfIfOp, ScfYieldOp};
use lf_ir::builder::Builder;
use lf_ir::interfaces::memory_effects;
use lf_ir::view::{Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::Value;
use lf_pass::pass::{OptionKind, PassOption, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The `dim` option of the merges.
pub(crate) const DIM_OPTION: PassOption = PassOption {
    name: "dim",
    kind: OptionKind::Enum(&["x", "y"]),
    default: "x",
    help: "The dimension along which neighbouring blocks are merged",
};

/// The `factor` option of the merges.
pub(crate) const FACTOR_OPTION: PassOption = PassOption {
    name: "factor",
    kind: OptionKind::UInt,
    default: "2",
    help: "How many neighbouring blocks are merged (at least 2)",
};

/// The `dim` and `factor` options both merges take.
pub(crate) static MERGE_OPTIONS: &[PassOption] = &[DIM_OPTION, FACTOR_OPTION];

/// Parses `dim` and `factor`.
pub(crate) fn parse_merge_options(opts: &lf_pass::pass::PassOptions) -> Result<(usize, i64), String> {
    let dim = if opts.str("dim") == "y" { 1 } else { 0 };
    let factor = opts.int("factor");
    if !(2..=1024).contains(&factor) {
        return Err("factor: between 2 and 1024".into());
    }
    Ok((dim, factor))
}

/// The axis name of `dim`.
pub(crate) fn axis(dim: usize) -> &'static str {
    ["x", "y", "z"][dim.min(2)]
}

/// Why a kernel cannot be merged at all: an op that is not a load, a
/// store, a barrier, side-effect free, or the control flow the merges
/// know (atomics, calls, allocations, early exits).
pub(crate) fn unsupported_op<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> Option<String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let mut why = None;
    walk(body, launch.op(), WalkOrder::PreOrder, &mut |b, op| {
        if op == launch.op() {
            return WalkControl::Advance;
        }
        let irb = (ctx, b);
        let known = AffineLoadOp::isa(&irb, op)
            || AffineStoreOp::isa(&irb, op)
            || MemrefLoadOp::isa(&irb, op)
            || MemrefStoreOp::isa(&irb, op)
            || GpuBarrierOp::isa(&irb, op)
            || AffineForOp::isa(&irb, op)
            || AffineIfOp::isa(&irb, op)
            || ScfForOp::isa(&irb, op)
            || ScfIfOp::isa(&irb, op)
            || AffineYieldOp::isa(&irb, op)
            || ScfYieldOp::isa(&irb, op)
            || GpuTerminatorOp::isa(&irb, op);
        let pure = b.num_regions(op) == 0 && memory_effects(ctx, b, op).is_some_and(|e| e.is_empty());
        if !known && !pure {
            why = Some(format!(
                "the kernel has a '{}' (atomics, calls, allocations and early exits are not merged)",
                ctx.op_name_str(b.op_name(op))
            ));
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    why
}

/// Sets the launch's grid size along `dim` to `grid` and its block size
/// along `dim` to `block`, with new constants before the launch.
pub(crate) fn resize_launch(b: &mut Builder<'_>, launch: GpuLaunchOp, dim: usize, grid: i64, block: i64) {
    b.guarded(|b| {
        b.set_insertion_point_before(launch.op());
        let g = ArithConstantOp::index(b, grid);
        let t = ArithConstantOp::index(b, block);
        match dim {
            0 => {
                launch.set_grid_size_x(b, g);
                launch.set_block_size_x(b, t);
            }
            1 => {
                launch.set_grid_size_y(b, g);
                launch.set_block_size_y(b, t);
            }
            _ => {
                launch.set_grid_size_z(b, g);
                launch.set_block_size_z(b, t);
            }
        }
    });
}

/// An index constant at the start of the kernel body.
pub(crate) fn kernel_constant(b: &mut Builder<'_>, launch: GpuLaunchOp, value: i64) -> Value {
    let entry = entry_block(b, launch);
    b.guarded(|b| {
        b.set_insertion_point_to_start(entry);
        ArithConstantOp::index(b, value)
    })
}

/// The kernel's (single) block.
pub(crate) fn entry_block<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> lf_ir::BlockId {
    let body = ir.body();
    body.region_blocks(launch.body(ir))
        .next()
        .expect("gpu.launch has a body block")
}

/// Runs one merge on every `gpu.launch` of the pass target: `plan` decides
/// (an error is the reason it declines), `apply` rewrites, `describe` says
/// what was done; each launch gets a remark prefixed by `pass` when
/// declined. Preserves all analyses when nothing changed.
pub(crate) fn merge_each_launch<P>(
    op: &mut PassTarget<'_>,
    am: &mut AnalysisManager,
    pass: &str,
    plan: impl Fn(&(&lf_ir::Context, &lf_ir::Body), GpuLaunchOp) -> Result<P, String>,
    apply: impl Fn(&mut Builder<'_>, GpuLaunchOp, &P),
    describe: impl Fn(&P) -> String,
) -> PassResult {
    let regions = op.regions().to_vec();
    let launches: Vec<GpuLaunchOp> = lf_ir::view::collect_ops::<GpuLaunchOp>(op.ctx(), op.body(), &regions);
    let mut changed = false;
    for launch in launches {
        let ctx = op.ctx();
        let decided = plan(&(ctx, op.body()), launch);
        let pos = op.body().op_loc(launch.op()).source_pos(ctx);
        match decided {
            Ok(p) => {
                apply(&mut op.builder(), launch, &p);
                op.emit(lf_ir::diag::Diagnostic::remark(pos, describe(&p)));
                changed = true;
            }
            Err(why) => op.emit(lf_ir::diag::Diagnostic::remark(pos, format!("{pass}: {why}"))),
        }
    }
    if !changed {
        am.preserve_all();
    }
    Ok(())
}

/// The constant block and grid sizes along `dim` of a launch whose grid
/// divides by `factor`, or why a merge along `dim` is declined.
pub(crate) fn merge_sizes(
    ids: &crate::gpu::analysis::kernel_access::LaunchIds,
    dim: usize,
    factor: i64,
) -> Result<(i64, i64), String> {
    let (block, grid) = constant_sizes(ids, dim)?;
    if grid % factor != 0 {
        return Err(format!(
            "not merged: the grid ({grid} blocks along {}) does not divide by {factor}",
            axis(dim)
        ));
    }
    Ok((block, grid))
}

/// The constant block and grid sizes along `dim` of a launch whose block
/// divides by `factor`, or why a merge within the block is declined.
pub(crate) fn block_merge_sizes(
    ids: &crate::gpu::analysis::kernel_access::LaunchIds,
    dim: usize,
    factor: i64,
) -> Result<(i64, i64), String> {
    let (block, grid) = constant_sizes(ids, dim)?;
    if block % factor != 0 {
        return Err(format!(
            "not merged: the block ({block} threads along {}) does not divide by {factor}",
            axis(dim)
        ));
    }
    Ok((block, grid))
}

/// The block and grid sizes along `dim`, when both are constants.
fn constant_sizes(ids: &crate::gpu::analysis::kernel_access::LaunchIds, dim: usize) -> Result<(i64, i64), String> {
    match (ids.block_size[dim], ids.grid_size[dim]) {
        (Some(block), Some(grid)) => Ok((block, grid)),
        _ => Err(format!(
            "not merged: the block or grid size along {} is not a constant",
            axis(dim)
        )),
    }
}
