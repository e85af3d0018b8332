//! `gpu-block-tile`: kernels whose loop reads some arrays along rows and
//! others along columns (an outer product per iteration: mm's `a[idy][k]`
//! and `b[k][idx]`) get a square block, an `F x F` register tile per
//! thread and their operands staged through shared memory, a chunk of the
//! loop at a time: the re-blocking of `coalesce-via-shared`, two
//! `thread-merge`s and `gpu-promote-shared`, chosen together (lf's step of
//! the kernel optimizer; `docs/design/kernel-optimizer.md`).

use crate::affine::{AffineForOp, AffineIfOp};
use crate::gpu::analysis::kernel_access::LaunchIds;
use crate::gpu::transforms::coalesce_via_shared::reblock::{reblock, reblock_plan, Reblock};
use crate::gpu::transforms::coalesce_via_shared::transpose::{exclude_extra_threads, only_guarded_effects};
use crate::gpu::transforms::kernel_merge::block_merge::MAX_SHARED_BYTES;
use crate::gpu::transforms::kernel_merge::register_tile::innermost_loads;
use crate::gpu::transforms::kernel_merge::thread_merge::{apply_thread_merge, plan_thread_merge};
use crate::gpu::transforms::promote_shared::plan::{
    only_promoted_accesses, plan_launch, LaunchPlan, PlanOptions, Promotion,
};
use crate::gpu::transforms::promote_shared::rewrite::{leave_guard, rewrite_launch};
use crate::gpu::utils::barriers::contains_barrier;
use crate::gpu::GpuLaunchOp;
use lf_ir::clone::ValueMap;
use lf_ir::diag::Diagnostic;
use lf_ir::interfaces::is_memory_effect_free;
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
through shared memory, stored thread-contiguous so that a thread's reads are 128-bit wide, double-buffered \
(`double-buffer`, default: the next chunk loads during the computation, one barrier per chunk). The factor is the \
largest power of two up to `factor` that divides the grid along both dimensions; when none of at least 2 does \
(or the threads are not multiples of `block`), the grid is rounded up to whole register tiles and the extra \
threads are kept out by the kernel's bound guards (every memory access of the kernel must be under such a guard, \
as `gpu-map-loops` makes them for sizes the block does not divide), the loop leaves its guard before the merges \
and every memory access left outside the guards must end as a read of a promoted copy, whose copy checks the \
arrays' bounds; otherwise the launch is put back as it was. On the H200, mm 4096^3 runs \
3.15 ms this way (85% of cuBLAS; 3.36 ms single-buffered) against 4.8 ms for the seed's steps \
(bench/gpu/RESULTS.md).\n\n\
Not changed, with a remark at the launch: no such pair of loads; `gpu-promote-shared` would not promote the \
kernel's loads as it is (checked first, with its remark: a loop under a guard it cannot leave, an array the \
kernel writes); a block that cannot be re-blocked (ids used otherwise than through the absolute ids); extra \
threads needed but a memory access outside the bound guards; a grid with fewer than 2 blocks along a dimension; \
ops that thread-merge refuses; a step that fails after the first (the launch is copied before and put back).",
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
            name: "double-buffer",
            kind: OptionKind::Bool,
            default: "true",
            help: "Double-buffer the shared copies (gpu-promote-shared's double-buffer): the next chunk loads during the computation",
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
            max_shared_bytes: MAX_SHARED_BYTES,
            pad: true,
            thread_contiguous: true,
            vector_copy: true,
            double_buffer: opts.bool("double-buffer"),
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
    /// The re-blocking; with `rounded_up` set (the block does not divide
    /// the threads, or the register tile does not divide the grid), the
    /// grid is rounded up to whole tiles and the extra threads are kept
    /// out by the kernel's bound guards.
    reblock: Reblock,
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
        let top = 1i64 << (63 - self.factor.leading_zeros());
        if let Ok(re) = reblock_plan(ir, launch, &ids, [self.block, self.block], false) {
            // The largest power of two up to `factor` that divides the grid.
            let mut factor = top;
            while factor >= 2 && (re.new_grid[0] % factor != 0 || re.new_grid[1] % factor != 0) {
                factor /= 2;
            }
            if factor >= 2 {
                return Ok(TilePlan {
                    launch,
                    factor,
                    reblock: re,
                });
            }
        }
        // Round the grid up: every memory access must be under a bound guard.
        if !only_guarded_effects(ir, launch) {
            return Err(format!(
                "the block cannot become {0}x{0} with whole register tiles without extra threads, and not every memory access of the kernel is under a bound guard that could keep them out",
                self.block
            ));
        }
        let mut re = reblock_plan(ir, launch, &ids, [self.block, self.block], true)
            .map_err(|why| format!("the block cannot become {0}x{0}: {why}", self.block))?;
        let mut factor = top;
        while factor >= 2 && (re.new_grid[0] < factor || re.new_grid[1] < factor) {
            factor /= 2;
        }
        if factor < 2 {
            return Err(format!(
                "the grid of {}x{} blocks of {n}x{n} threads has fewer than 2 blocks along a dimension",
                re.new_grid[0],
                re.new_grid[1],
                n = self.block
            ));
        }
        // Whole register tiles: the grid a multiple of the factor, the
        // threads beyond the old ones (grid times block) kept out.
        for g in &mut re.new_grid[..2] {
            *g = (*g + factor - 1) / factor * factor;
        }
        re.rounded_up = Some([0, 1].map(|d| ids.grid_size[d].unwrap_or(0) * ids.block_size[d].unwrap_or(0)));
        Ok(TilePlan {
            launch,
            factor,
            reblock: re,
        })
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
    /// step stopped. The launch is copied first and the copy put back
    /// when a step fails: a loop taken out of its bound guard must end with
    /// every memory access a promoted load, or the threads the guard
    /// excludes would read outside the arrays.
    fn apply(&self, op: &mut PassTarget<'_>, p: &TilePlan) -> Result<String, String> {
        let launch = p.launch;
        let backup = {
            let mut b = op.builder();
            b.set_insertion_point_before(launch.op());
            b.clone_op(launch.op(), &mut ValueMap::default())
        };
        match self.transform(op, p) {
            Ok(remark) => {
                op.builder().erase_op(backup);
                Ok(remark)
            }
            Err(why) => {
                op.builder().erase_op(launch.op());
                Err(format!("kernel not changed: {why}"))
            }
        }
    }

    /// The steps of [`GpuBlockTile::apply`] on `p.launch`, in place.
    fn transform(&self, op: &mut PassTarget<'_>, p: &TilePlan) -> Result<String, String> {
        let ctx = op.ctx();
        let launch = p.launch;
        let f = p.factor;
        let re = &p.reblock;
        {
            let mut b = op.builder();
            reblock(&mut b, launch, re);
            if let Some(extents) = re.rounded_up {
                exclude_extra_threads(&mut b, launch, extents, &mut []);
            }
        }
        // Loops leave their bound guards before the merges, so that the
        // merged copies share one loop (checked again after the promotion).
        let mut hoisted = 0;
        {
            let mut promote_remarks = Vec::new();
            let plan = plan_launch(&(ctx, op.body()), launch, self.promote, &mut promote_remarks)
                .map_err(|why| format!("gpu-promote-shared after re-blocking: {why}"))?;
            let mut b = op.builder();
            for l in &plan.loops {
                if let Some(g) = l.guard {
                    leave_guard(&mut b, g, l.for_op.op());
                    hoisted += 1;
                }
            }
        }
        for dim in 0..2 {
            let plan = plan_thread_merge(&(ctx, op.body()), launch, dim, f)
                .map_err(|why| format!("thread merge along {}: {why}", ["x", "y"][dim]))?;
            apply_thread_merge(&mut op.builder(), launch, &plan);
        }
        let mut promote_remarks = Vec::new();
        let plan = plan_launch(&(ctx, op.body()), launch, self.promote, &mut promote_remarks)
            .map_err(|why| format!("gpu-promote-shared after the merges: {why}"))?;
        if hoisted > 0 || re.rounded_up.is_some() {
            unguarded_accesses_promoted(&(ctx, op.body()), launch, &plan)?;
        }
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
        rewrite_launch(&mut op.builder(), &plan);
        let [bx, by, _] = re.old_block;
        let rounded = if re.rounded_up.is_some() {
            "; grid rounded up, the extra threads kept out by the bound guards, the loop out of its guard"
        } else {
            ""
        };
        Ok(format!(
            "gpu-block-tile: block {bx}x{by} -> {n}x{n}, a {f}x{f} register tile per thread ({t}x{t} outputs per block), operands staged in shared memory {chunk} iterations at a time ({} box(es): {}){rounded}",
            boxes.len(),
            boxes.join(", "),
            n = self.block,
            t = self.block * f,
        ))
    }
}

/// Whether every memory access that no bound guard of the kernel encloses
/// is a load `plan` promotes: the threads the guards exclude (the extra
/// threads of a rounded-up grid, those past the arrays' ends) then only
/// read shared memory, which the copies fill.
fn unguarded_accesses_promoted<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp, plan: &LaunchPlan) -> Result<(), String> {
    let body = ir.body();
    let block = body
        .regions_body(launch.op())
        .entry_block(launch.body(ir))
        .ok_or("a launch without a body")?;
    let arrays: Vec<Promotion> = plan.loops.iter().flat_map(|l| l.arrays.iter().cloned()).collect();
    for o in body.block_ops(block) {
        if AffineIfOp::isa(ir, o) || body.terminator(block) == Some(o) {
            continue;
        }
        if let Some(f) = AffineForOp::cast(ir, o) {
            only_promoted_accesses(ir, f, &arrays)?;
        } else if body.num_regions(o) != 0 || !is_memory_effect_free(ir.ctx(), body, o) {
            return Err(format!(
                "'{}' outside the bound guards would run for the threads they exclude",
                ir.ctx().op_name_str(body.op_name(o))
            ));
        }
    }
    Ok(())
}
