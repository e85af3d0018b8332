//! `gpu-block-tile`: kernels whose loop reads some arrays along rows and
//! others along columns (an outer product per iteration: mm's `a[idy][k]`
//! and `b[k][idx]`) get a square block, an `F x F` register tile per
//! thread and their operands staged through shared memory, a chunk of the
//! loop at a time: the re-blocking of `coalesce-via-shared`, two
//! `thread-merge`s and `gpu-promote-shared`, chosen together (lf's step of
//! the kernel optimizer; `docs/design/kernel-optimizer.md`).

use crate::gpu::analysis::kernel_access::LaunchIds;
use crate::gpu::transforms::coalesce_via_shared::reblock::{reblock, reblock_plan};
use crate::gpu::transforms::kernel_merge::register_tile::innermost_loads;
use crate::gpu::transforms::kernel_merge::thread_merge::{apply_thread_merge, plan_thread_merge};
use crate::gpu::transforms::promote_shared::plan::{plan_launch, PlanOptions};
use crate::gpu::transforms::promote_shared::rewrite::rewrite_launch;
use crate::gpu::utils::barriers::contains_barrier;
use crate::gpu::utils::workgroup_buffer::add_workgroup_buffer;
use crate::gpu::GpuLaunchOp;
use lf_ir::diag::Diagnostic;
use lf_ir::view::{collect_ops, Ir, OpView};
use lf_ir::OpId;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `gpu-block-tile`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-block-tile",
    summary: "Give kernels with row- and column-reused loads a square block, a register tile per thread and shared-memory operands (lf)",
    description: "On every inline two-dimensional `gpu.launch` with constant sizes, no workgroup memory and no \
barrier, whose loops without nested loops read at least one global array independently of the block id along x \
(reused by the threads along x: mm's `a[idy][k]`) and one independently of the block id along y (`b[k][idx]`): the \
block becomes `block` x `block` threads (the threads keep their absolute ids, as in `coalesce-via-shared`'s \
re-blocking: the kernel must read its ids only through `idx = bidx*bdx + tidx`, `idy = bidy*bdy + tidy`), each \
thread does the work of `factor` blocks along x and along y (`thread-merge` twice: an FxF register tile, each \
loaded value used F times from a register), and `gpu-promote-shared{tile=chunk}` stages the loop's operands \
through shared memory, stored thread-contiguous so that a thread's reads are 128-bit wide. The factor is the \
largest power of two up to `factor` that divides the grid along both dimensions. On the H200, mm 4096^3 runs \
3.4 ms this way (80% of cuBLAS) against 4.8 ms for the seed's steps (bench/gpu/RESULTS.md).\n\n\
Not changed, with a remark at the launch: no such pair of loads; `gpu-promote-shared` would not promote the \
kernel's loads as it is (checked first, with its remark: a loop under a bound guard, an array the kernel writes, \
a box that could reach outside its array); a block that cannot be re-blocked (ids used otherwise, thread counts \
not multiples of `block`); a grid that no factor of at least 2 divides; ops that thread-merge refuses.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "block",
            kind: OptionKind::UInt,
            default: "16",
            help: "Threads of the square block along x and y",
        },
        PassOption {
            name: "factor",
            kind: OptionKind::UInt,
            default: "8",
            help: "The register tile's side: blocks merged into each thread along x and y (the largest power of two up to this that divides the grid)",
        },
        PassOption {
            name: "chunk",
            kind: OptionKind::UInt,
            default: "8",
            help: "Loop iterations per shared-memory copy (gpu-promote-shared's tile)",
        },
        PassOption {
            name: "remarks",
            kind: OptionKind::Bool,
            default: "true",
            help: "Emit the remarks (tiled kernels, and why others are left alone)",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let block = opts.int("block");
    if !(2..=32).contains(&block) {
        return Err(format!("block: between 2 and 32, got {block}"));
    }
    let factor = opts.int("factor");
    if !(2..=16).contains(&factor) {
        return Err(format!("factor: between 2 and 16, got {factor}"));
    }
    let chunk = opts.int("chunk");
    if !(1..=64).contains(&chunk) {
        return Err(format!("chunk: between 1 and 64, got {chunk}"));
    }
    Ok(Box::new(GpuBlockTile {
        block,
        factor,
        promote: PlanOptions {
            tile: chunk,
            min_reuse: 2,
            max_shared_bytes: 49152,
            pad: true,
            thread_contiguous: true,
            vector_copy: true,
        },
        remarks: opts.bool("remarks"),
    }))
}

/// The `gpu-block-tile` pass.
pub struct GpuBlockTile {
    /// Threads of the square block per dimension.
    pub block: i64,
    /// The largest register-tile side.
    pub factor: i64,
    /// The promotion's options.
    pub promote: PlanOptions,
    /// Whether remarks are emitted.
    pub remarks: bool,
}

/// What `gpu-block-tile` does to one launch.
struct TilePlan {
    launch: GpuLaunchOp,
    factor: i64,
}

impl GpuBlockTile {
    /// Whether `launch` is tiled, and with which factor.
    fn plan<'c>(&self, ir: &impl Ir<'c>, launch: GpuLaunchOp) -> Result<TilePlan, String> {
        if launch.num_workgroup_attributions(ir) != 0 || contains_barrier(ir.ctx(), ir.body(), launch.op()) {
            return Err("the kernel already uses workgroup memory or barriers".into());
        }
        let ids = LaunchIds::of(ir, launch);
        if ids.block_size[2] != Some(1) || ids.grid_size[2] != Some(1) {
            return Err("not a two-dimensional launch".into());
        }
        let loads = innermost_loads(ir, launch);
        let along = |d: [bool; 2]| loads.iter().any(|l| !l.shared && l.computes && l.depends == d);
        if !(along([false, true]) && along([true, false])) {
            return Err(
                "no loop reads one array independently of the block id along x and another independently of it along y (no outer-product reuse)"
                    .into(),
            );
        }
        let mut promote_remarks = Vec::new();
        plan_launch(ir, launch, self.promote, &mut promote_remarks).map_err(|why| {
            let first = promote_remarks
                .first()
                .map_or(String::new(), |(_, m)| format!(" ({m})"));
            format!("gpu-promote-shared would not stage its loads: {why}{first}")
        })?;
        let re = reblock_plan(ir, launch, &ids, [self.block, self.block], false)
            .map_err(|why| format!("the block cannot become {0}x{0}: {why}", self.block))?;
        // The largest power of two up to `factor`.
        let mut factor = 1i64 << (63 - self.factor.leading_zeros());
        while factor >= 2 && (re.new_grid[0] % factor != 0 || re.new_grid[1] % factor != 0) {
            factor /= 2;
        }
        if factor < 2 {
            return Err(format!(
                "the grid of {}x{} blocks of {n}x{n} threads is not divisible by 2 along both dimensions",
                re.new_grid[0],
                re.new_grid[1],
                n = self.block
            ));
        }
        Ok(TilePlan { launch, factor })
    }
}

impl Pass for GpuBlockTile {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let mut remarks: Vec<(OpId, String)> = Vec::new();
        let mut plans = Vec::new();
        {
            let ir = (ctx, op.body());
            for launch in collect_ops::<GpuLaunchOp>(ctx, op.body(), &regions) {
                match self.plan(&ir, launch) {
                    Ok(p) => plans.push(p),
                    Err(why) => remarks.push((launch.op(), format!("gpu-block-tile: kernel not changed: {why}"))),
                }
            }
        }
        let mut tiled = 0u64;
        for p in &plans {
            let at = p.launch.op();
            match self.apply(op, p) {
                Ok(what) => {
                    tiled += 1;
                    remarks.push((at, what));
                }
                Err(why) => remarks.push((at, format!("gpu-block-tile: {why}"))),
            }
        }
        if self.remarks {
            for (o, m) in remarks {
                let pos = op.body().op_loc(o).source_pos(ctx);
                op.emit(Diagnostic::remark(pos, m));
            }
        }
        op.add_statistic("num-tiled-kernels", "Kernels given a block and register tile", tiled);
        if plans.is_empty() {
            am.preserve_all();
        }
        Ok(())
    }
}

impl GpuBlockTile {
    /// Re-blocks, merges and promotes `p.launch`; the remark, or why a
    /// step stopped (the steps before it stay: each keeps the program's
    /// results).
    fn apply(&self, op: &mut PassTarget<'_>, p: &TilePlan) -> Result<String, String> {
        let ctx = op.ctx();
        let launch = p.launch;
        let old = {
            let ir = (ctx, op.body());
            let ids = LaunchIds::of(&ir, launch);
            let re = reblock_plan(&ir, launch, &ids, [self.block, self.block], false)?;
            reblock(&mut op.builder(), launch, &re);
            ids.block_size
        };
        for dim in 0..2 {
            let plan = plan_thread_merge(&(ctx, op.body()), launch, dim, p.factor)
                .map_err(|why| format!("re-blocked only: thread merge along {}: {why}", ["x", "y"][dim]))?;
            apply_thread_merge(&mut op.builder(), launch, &plan);
        }
        let mut promote_remarks = Vec::new();
        let plan = plan_launch(&(ctx, op.body()), launch, self.promote, &mut promote_remarks)
            .map_err(|why| format!("re-blocked and thread-merged only: gpu-promote-shared: {why}"))?;
        let boxes: Vec<String> = plan
            .loops
            .iter()
            .flat_map(|l| &l.arrays)
            .map(|a| {
                let sides: Vec<String> = a.sides.iter().map(|s| s.extent.to_string()).collect();
                sides.join("x")
            })
            .collect();
        let chunk = plan.loops.first().map_or(0, |l| l.chunk);
        let mut b = op.builder();
        let buffers: Vec<Vec<lf_ir::Value>> = plan
            .loops
            .iter()
            .map(|l| {
                l.arrays
                    .iter()
                    .map(|a| add_workgroup_buffer(&mut b, launch, a.memref, &a.buffer_shape))
                    .collect()
            })
            .collect();
        rewrite_launch(&mut b, &plan, &buffers);
        let [bx, by, _] = old.map(|s| s.unwrap_or(0));
        let f = p.factor;
        Ok(format!(
            "gpu-block-tile: block {bx}x{by} -> {n}x{n}, a {f}x{f} register tile per thread ({t}x{t} outputs per block), operands staged in shared memory {chunk} iterations at a time ({} box(es): {})",
            boxes.len(),
            boxes.join(", "),
            n = self.block,
            t = self.block * f,
        ))
    }
}
