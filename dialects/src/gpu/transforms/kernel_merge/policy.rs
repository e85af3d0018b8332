//! `gpu-merge-policy`: seed 004's choice between thread-block merge and
//! thread merge (DIGEST §004.6), with the factors the seed leaves open.
//!
//! Per launch, in order:
//! 1. **G2S sharing** (a global load only stored into shared memory, the
//!    same for neighbouring blocks along a dimension, x first): block merge
//!    along it, factor `block-factor` or the smallest power of two that
//!    brings the block to `min-threads` (at least 2), within 1024 threads
//!    and dividing the grid.
//! 2. **G2R sharing** (a global load feeding the computation, independent
//!    of the block id along a dimension, y first as the seed's mm): thread
//!    merge along it, factor `thread-factor` or the largest power of two
//!    <= `max-thread-factor` that divides the grid and whose register
//!    estimate ([`register_estimate`]) stays within `max-registers`; when
//!    even 2 does not fit, no thread merge (the remark says so: the data
//!    would have to go through shared memory, `coalesce-via-shared`'s job).
//!    Without a fixed `thread-factor`, a kernel of at least `min-blocks`
//!    blocks (default [`MIN_BLOCKS_AFTER_MERGE`]) must keep that many (lf's
//!    floor, as rule 4's): merging trades parallelism for reuse, and a
//!    kernel that no longer fills the GPU loses more than the reuse gains
//!    (on the H200, `gpu-split-reduction`'s matvec of 2048 blocks would
//!    have been thread-merged by 32 to 64 blocks, a quarter of the
//!    threads an H200 keeps busy). Smaller kernels follow the seed's rule.
//!    **Register tile** (lf's extension, option `shared-reuse`, on by
//!    default; not with a fixed `thread-factor`): when a shared-memory read
//!    in an innermost loop feeds the computation and is independent of the
//!    block id along the other dimension (mm after the G2S block merge: the
//!    row segment of `a`), the threads are merged along both dimensions,
//!    the factors chosen together ([`super::register_tile`]): on the H200,
//!    4096^3 mm went from 15.5 ms (32x1 per thread) to 7.0 ms (4x8).
//! 3. **Too few threads** (fewer than `min-threads` per block): block merge
//!    along x (else y) without sharing, the smallest power of two reaching
//!    `min-threads` that divides the grid.
//! 4. **Little work per thread** (lf's addition; none of the above applied):
//!    a kernel without loops, whose threads each issue their few loads and
//!    wait, is thread-merged along y (else x) by `ilp-factor`, so that each
//!    thread has that many independent loads in flight, when the factor
//!    divides the grid, at least [`MIN_BLOCKS_AFTER_MERGE`] blocks remain
//!    and the register estimate stays within `max-registers`. On the H200,
//!    the transposed 16x16 tile of `coalesce-via-shared` went from 0.311 ms
//!    to 0.161 ms with factor 4 (bench/gpu/RESULTS.md).
//!
//! A remark per decision gives the reason and the estimate.

use super::axis;
use super::block_merge::{apply_block_merge, plan_block_merge};
use super::register_tile::{choose_register_tile, innermost_loads, reuses_shared_along};
use super::thread_merge::{apply_thread_merge, plan_thread_merge};
use crate::affine::{AffineForOp, AffineParallelOp};
use crate::gpu::analysis::kernel_access::LaunchIds;
use crate::gpu::analysis::sharing::{register_estimate, shared_loads, LoadKind};
use crate::gpu::GpuLaunchOp;
use crate::scf::{ScfForOp, ScfParallelOp, ScfWhileOp};
use lf_ir::diag::Diagnostic;
use lf_ir::view::{collect_ops, Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `gpu-merge-policy`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-merge-policy",
    summary: "Choose block merge or thread merge and their factors per gpu.launch (seed 004 step 5)",
    description: "Seed 004's rule for step 5, on every inline `gpu.launch`: (1) a G2S load (its value only \
stored into shared memory) that neighbouring blocks along x (else y) share -> `block-merge` along it, \
factor `block-factor`, or the smallest power of two bringing the block to `min-threads` (at least 2); \
(2) a G2R load (its value used in computation) independent of the block id along y (else x) -> \
`thread-merge` along it, factor `thread-factor`, or the largest power of two <= `max-thread-factor` \
dividing the grid whose per-thread register estimate (live values: pointers and ids, loop-carried \
values, values live across loops, loaded temporaries; each value depending on the merged block counted \
once per copy) is at most `max-registers`; no thread merge when even 2 does not fit; without a fixed \
`thread-factor`, a kernel of at least `min-blocks` blocks must keep that many after the merge (and lf's register tile), \
since a kernel that no longer fills the GPU loses more than the reuse gains; (3) fewer than \
`min-threads` threads per block -> `block-merge` along x (else y) even without sharing. Every factor \
must divide the grid and keep the block within 1024 threads; (4, lf) when none of these applied, a kernel \
without loops is thread-merged along y (else x) by `ilp-factor` (more independent loads in flight per \
thread), when the factor divides the grid, at least `min-blocks` blocks remain and the register estimate fits. \
With `shared-reuse` (lf, default on; not with a fixed `thread-factor`), rule 2 also merges along the other \
dimension when a shared-memory read in an innermost loop feeds the computation and is independent of its block \
id (a 2-D register tile): both factors are chosen together, powers of two dividing the grid within the register \
budget, with the fewest loads per result in the innermost loops (global loads weighing twice shared ones). \
A remark per decision gives the reason and the estimate; what the merges decline is remarked as they do.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "max-registers",
            kind: OptionKind::UInt,
            default: "64",
            help: "Register budget per thread for thread merge (the estimate must stay within it)",
        },
        PassOption {
            name: "min-threads",
            kind: OptionKind::UInt,
            default: "128",
            help: "Blocks with fewer threads are block-merged (and G2S block merges aim at it)",
        },
        PassOption {
            name: "block-factor",
            kind: OptionKind::UInt,
            default: "0",
            help: "Fixed block-merge factor (0: from min-threads)",
        },
        PassOption {
            name: "thread-factor",
            kind: OptionKind::UInt,
            default: "0",
            help: "Fixed thread-merge factor (0: the largest power of two within the register budget)",
        },
        PassOption {
            name: "max-thread-factor",
            kind: OptionKind::UInt,
            default: "32",
            help: "Largest thread-merge factor tried",
        },
        PassOption {
            name: "shared-reuse",
            kind: OptionKind::Bool,
            default: "true",
            help: "Rule 2 also thread-merges along the other dimension when a shared read is independent of its block id (2-D register tile)",
        },
        PassOption {
            name: "min-blocks",
            kind: OptionKind::UInt,
            default: "1024",
            help: "Thread merges of rules 2 and 4 keep at least this many blocks in a kernel that has them (0: no floor)",
        },
        PassOption {
            name: "ilp-factor",
            kind: OptionKind::UInt,
            default: "4",
            help: "Thread-merge factor for kernels without loops that no other rule merged (0: never)",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let max_registers = opts.int("max-registers");
    if !(8..=255).contains(&max_registers) {
        return Err("max-registers: between 8 and 255".into());
    }
    let min_threads = opts.int("min-threads");
    if !(1..=1024).contains(&min_threads) {
        return Err("min-threads: between 1 and 1024".into());
    }
    let block_factor = opts.int("block-factor");
    if block_factor == 1 || block_factor > 1024 {
        return Err("block-factor: 0 (automatic) or between 2 and 1024".into());
    }
    let thread_factor = opts.int("thread-factor");
    if thread_factor == 1 || thread_factor > 1024 {
        return Err("thread-factor: 0 (automatic) or between 2 and 1024".into());
    }
    let max_thread_factor = opts.int("max-thread-factor");
    if !(2..=1024).contains(&max_thread_factor) {
        return Err("max-thread-factor: between 2 and 1024".into());
    }
    let ilp_factor = opts.int("ilp-factor");
    if ilp_factor == 1 || ilp_factor > 64 {
        return Err("ilp-factor: 0 (never) or between 2 and 64".into());
    }
    Ok(Box::new(MergePolicy {
        max_registers: max_registers as u64,
        min_threads,
        block_factor,
        thread_factor,
        max_thread_factor,
        ilp_factor,
        shared_reuse: opts.bool("shared-reuse"),
        min_blocks: opts.int("min-blocks"),
    }))
}

/// Blocks a launch must keep after the thread merges of rules 2 and 4:
/// enough to fill a large GPU (an H200 runs about 1000 blocks of 256
/// threads at once).
pub const MIN_BLOCKS_AFTER_MERGE: i64 = 1024;

/// Whether the body of `launch` holds a loop.
fn has_loops<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> bool {
    let ctx = ir.ctx();
    let mut found = false;
    walk(ir.body(), launch.op(), WalkOrder::PreOrder, &mut |b, o| {
        let ir = (ctx, b);
        if AffineForOp::isa(&ir, o)
            || AffineParallelOp::isa(&ir, o)
            || ScfForOp::isa(&ir, o)
            || ScfWhileOp::isa(&ir, o)
            || ScfParallelOp::isa(&ir, o)
        {
            found = true;
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    found
}

/// The `gpu-merge-policy` pass.
#[derive(Clone, Copy, Debug)]
pub struct MergePolicy {
    /// Register budget per thread.
    pub max_registers: u64,
    /// Threads per block below which blocks are merged.
    pub min_threads: i64,
    /// Fixed block-merge factor (0: automatic).
    pub block_factor: i64,
    /// Fixed thread-merge factor (0: automatic).
    pub thread_factor: i64,
    /// Largest automatic thread-merge factor.
    pub max_thread_factor: i64,
    /// Thread-merge factor for kernels without loops (0: never).
    pub ilp_factor: i64,
    /// Whether rule 2 may merge along both dimensions (register tile).
    pub shared_reuse: bool,
    /// The blocks rule 2's and rule 4's thread merges keep in a kernel that
    /// has at least that many.
    pub min_blocks: i64,
}

/// The blocks of the launch with `ids` (a size that is not a constant
/// counted as 1).
fn grid_blocks(ids: &LaunchIds) -> i64 {
    ids.grid_size.iter().map(|g| g.unwrap_or(1)).product()
}

impl MergePolicy {
    /// The blocks a rule-2 thread merge of a launch of `blocks` blocks
    /// must keep: `min-blocks` when it has at least that many, else none
    /// (a kernel too small to fill the GPU follows the seed's rule).
    fn floor(&self, blocks: i64) -> i64 {
        if blocks >= self.min_blocks {
            self.min_blocks
        } else {
            0
        }
    }
}

impl MergePolicy {
    /// The block-merge factor for a block of `threads` threads and a grid
    /// of `grid` blocks along the dimension: fixed, or the smallest power
    /// of two reaching `min-threads` (at least `least`), dividing the grid.
    fn block_factor(&self, threads: i64, grid: i64, least: i64) -> Option<i64> {
        if self.block_factor > 0 {
            return Some(self.block_factor);
        }
        let mut f = least.max(1);
        while threads * f < self.min_threads {
            f *= 2;
        }
        while f >= 2 && (grid % f != 0 || threads * f > 1024) {
            f /= 2;
        }
        (f >= 2).then_some(f)
    }
}

impl MergePolicy {
    /// Rule 2 as a register tile: thread merges along `d` (the G2R
    /// dimension) and the other dimension, when a shared read feeds the
    /// computation independently of the other block id; `None` when that
    /// does not apply or the best tile merges along `d` only (the seed's
    /// rule then decides), else whether the kernel changed and the remarks.
    fn merge_register_tile(
        &self,
        op: &mut PassTarget<'_>,
        launch: GpuLaunchOp,
        d: usize,
    ) -> Option<(bool, Vec<String>)> {
        if !self.shared_reuse || self.thread_factor > 0 {
            return None;
        }
        let other = 1 - d;
        let ctx = op.ctx();
        let (tile, base) = {
            let ir = (ctx, op.body());
            let ids = LaunchIds::of(&ir, launch);
            if ids.grid_size[other].is_none_or(|g| g < 2) || !reuses_shared_along(&innermost_loads(&ir, launch), other)
            {
                return None;
            }
            let tile = choose_register_tile(
                &ir,
                launch,
                (d, other),
                self.max_thread_factor as u64,
                self.max_registers,
                self.floor(grid_blocks(&ids)) as u64,
            )?;
            (tile, register_estimate(&ir, launch, None).total())
        };
        if tile.factors[other] < 2 {
            return None;
        }
        let mut remarks = vec![format!(
            "gpu-merge-policy: G2R load independent of the block id along {} and a shared read independent of the block id along {} -> register tile {}x{} (x by y) per thread: thread merge by {} along {} and by {} along {} (register estimate {base} -> {}, budget {}; {} weighted loads per {} results in the innermost loops)",
            axis(d),
            axis(other),
            tile.factors[0],
            tile.factors[1],
            tile.factors[d],
            axis(d),
            tile.factors[other],
            axis(other),
            tile.registers,
            self.max_registers,
            tile.weighted_loads,
            tile.factors[0] * tile.factors[1],
        )];
        let mut changed = false;
        for dim in [d, other] {
            let f = tile.factors[dim] as i64;
            match plan_thread_merge(&(ctx, op.body()), launch, dim, f) {
                Ok(p) => {
                    apply_thread_merge(&mut op.builder(), launch, &p);
                    changed = true;
                    remarks.push(format!("gpu-merge-policy: {}", p.describe()));
                }
                Err(why) => {
                    remarks.push(format!(
                        "gpu-merge-policy: register tile along {}, but thread-merge {why}",
                        axis(dim)
                    ));
                    break;
                }
            }
        }
        Some((changed, remarks))
    }

    /// Rule 4: a kernel without loops thread-merged by `ilp-factor`; `None`
    /// when the rule does not apply (loops, no dimension fits), else whether
    /// the kernel changed and the remark.
    fn merge_for_loads_in_flight(&self, op: &mut PassTarget<'_>, launch: GpuLaunchOp) -> Option<(bool, String)> {
        let ctx = op.ctx();
        let ir = (ctx, op.body());
        if has_loops(&ir, launch) {
            return None;
        }
        let ids = LaunchIds::of(&ir, launch);
        let f = self.ilp_factor;
        let blocks: i64 = ids.grid_size.iter().map(|g| g.unwrap_or(0)).product();
        if blocks / f < self.min_blocks {
            return None;
        }
        let d = [1, 0]
            .into_iter()
            .find(|&d| ids.grid_size[d].is_some_and(|g| g >= f && g % f == 0))?;
        let base = register_estimate(&ir, launch, None).total();
        let est = register_estimate(&ir, launch, Some((d, f as u64))).total();
        if est > self.max_registers {
            return Some((
                false,
                format!(
                    "gpu-merge-policy: a kernel without loops, but thread merge by {f} along {} would need {est} registers (budget {}): left as is",
                    axis(d),
                    self.max_registers
                ),
            ));
        }
        Some(match plan_thread_merge(&ir, launch, d, f) {
            Ok(p) => {
                apply_thread_merge(&mut op.builder(), launch, &p);
                (
                    true,
                    format!(
                        "gpu-merge-policy: a kernel without loops -> thread merge by {f} along {} for {f} independent loads in flight per thread (register estimate {base} -> {est}, budget {}): {}",
                        axis(d),
                        self.max_registers,
                        p.describe()
                    ),
                )
            }
            Err(why) => (
                false,
                format!("gpu-merge-policy: a kernel without loops, but thread-merge {why}"),
            ),
        })
    }
}

impl Pass for MergePolicy {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let launches: Vec<GpuLaunchOp> = collect_ops::<GpuLaunchOp>(op.ctx(), op.body(), &regions);
        let mut changed = false;
        for launch in launches {
            let ctx = op.ctx();
            let pos = op.body().op_loc(launch.op()).source_pos(ctx);
            let mut remarks: Vec<String> = Vec::new();
            // 1. G2S sharing -> block merge.
            let (loads, ids) = {
                let ir = (ctx, op.body());
                (shared_loads(&ir, launch), LaunchIds::of(&ir, launch))
            };
            let g2s_dim = (0..2).find(|&d| loads.iter().any(|l| l.kind == LoadKind::G2S && l.independent[d]));
            if let Some(d) = g2s_dim {
                let threads = ids.threads_per_block().unwrap_or(1024);
                match self.block_factor(threads, ids.grid_size[d].unwrap_or(1), 2) {
                    Some(f) => {
                        let plan = plan_block_merge(&(ctx, op.body()), launch, d, f);
                        match plan {
                            Ok(p) => {
                                apply_block_merge(&mut op.builder(), launch, &p);
                                changed = true;
                                remarks.push(format!(
                                    "gpu-merge-policy: G2S load shared by neighbouring blocks along {} -> block merge by {f} ({threads} -> {} threads): {}",
                                    axis(d),
                                    threads * f,
                                    p.describe()
                                ));
                            }
                            Err(why) => remarks.push(format!("gpu-merge-policy: G2S sharing along {}, but block-merge {why}", axis(d))),
                        }
                    }
                    None => remarks.push(format!(
                        "gpu-merge-policy: G2S sharing along {}, but no block-merge factor divides the grid within 1024 threads",
                        axis(d)
                    )),
                }
            }
            // 2. G2R sharing -> thread merge within the register budget.
            let (loads, ids) = {
                let ir = (ctx, op.body());
                (shared_loads(&ir, launch), LaunchIds::of(&ir, launch))
            };
            let g2r_dim = [1, 0].into_iter().find(|&d| {
                ids.grid_size[d].is_some_and(|g| g >= 2)
                    && loads.iter().any(|l| l.kind == LoadKind::G2R && l.independent[d])
            });
            let tiled = g2r_dim.and_then(|d| self.merge_register_tile(op, launch, d));
            if let Some((tile_changed, tile_remarks)) = tiled {
                changed |= tile_changed;
                remarks.extend(tile_remarks);
            } else if let Some(d) = g2r_dim {
                let grid = ids.grid_size[d].unwrap_or(1);
                let base = register_estimate(&(ctx, op.body()), launch, None).total();
                let mut chosen = None;
                let mut f = if self.thread_factor > 0 {
                    self.thread_factor
                } else {
                    let mut p = 1;
                    while p * 2 <= self.max_thread_factor {
                        p *= 2;
                    }
                    p
                };
                // The largest factor within the register budget, then the
                // largest power of two up to it that divides the grid.
                let mut fits = None;
                while f >= 2 {
                    let est = register_estimate(&(ctx, op.body()), launch, Some((d, f as u64))).total();
                    if self.thread_factor > 0 || est <= self.max_registers {
                        fits = Some((f, est));
                        break;
                    }
                    f /= 2;
                }
                let mut why_none = format!(
                    "the register estimate exceeds the budget {} even at factor 2",
                    self.max_registers
                );
                let blocks = grid_blocks(&ids);
                if let Some((mut g, _)) = fits {
                    while g >= 2 && grid % g != 0 {
                        g = if self.thread_factor > 0 { 1 } else { g / 2 };
                    }
                    let floor_from = g;
                    let floor = self.floor(blocks);
                    while self.thread_factor == 0 && g >= 2 && blocks / g < floor {
                        g /= 2;
                    }
                    if g < 2 && floor_from >= 2 {
                        why_none = format!(
                            "merging would leave fewer than {floor} blocks (the kernel has {blocks}; min-blocks)"
                        );
                    } else if g >= 2 {
                        let est = register_estimate(&(ctx, op.body()), launch, Some((d, g as u64))).total();
                        chosen = Some((g, est));
                    } else {
                        why_none = format!("no factor within the register budget divides the grid of {grid} blocks");
                    }
                }
                match chosen {
                    Some((f, est)) => match plan_thread_merge(&(ctx, op.body()), launch, d, f) {
                        Ok(p) => {
                            apply_thread_merge(&mut op.builder(), launch, &p);
                            changed = true;
                            remarks.push(format!(
                                "gpu-merge-policy: G2R load independent of the block id along {} -> thread merge by {f} (register estimate {base} -> {est}, budget {}): {}",
                                axis(d),
                                self.max_registers,
                                p.describe()
                            ));
                        }
                        Err(why) => remarks.push(format!("gpu-merge-policy: G2R sharing along {}, but thread-merge {why}", axis(d))),
                    },
                    None => remarks.push(format!(
                        "gpu-merge-policy: G2R sharing along {}, but {why_none} (register estimate {base} unmerged); not thread-merged",
                        axis(d)
                    )),
                }
            }
            // 3. Too few threads -> block merge without sharing.
            let ids = LaunchIds::of(&(ctx, op.body()), launch);
            let threads = ids.threads_per_block().unwrap_or(1024);
            if threads < self.min_threads {
                let pick = (0..2).find_map(|d| {
                    let grid = ids.grid_size[d]?;
                    let saved = self.block_factor;
                    let f = if saved > 0 && grid % saved == 0 {
                        Some(saved)
                    } else {
                        MergePolicy {
                            block_factor: 0,
                            ..*self
                        }
                        .block_factor(threads, grid, 2)
                    }?;
                    Some((d, f))
                });
                match pick {
                    Some((d, f)) => match plan_block_merge(&(ctx, op.body()), launch, d, f) {
                        Ok(p) => {
                            apply_block_merge(&mut op.builder(), launch, &p);
                            changed = true;
                            remarks.push(format!(
                                "gpu-merge-policy: {threads} threads per block < min-threads {} -> block merge by {f} along {}: {}",
                                self.min_threads,
                                axis(d),
                                p.describe()
                            ));
                        }
                        Err(why) => remarks.push(format!("gpu-merge-policy: too few threads, but block-merge {why}")),
                    },
                    None => remarks.push(format!(
                        "gpu-merge-policy: {threads} threads per block < min-threads {}, but no factor divides the grid",
                        self.min_threads
                    )),
                }
            }
            // 4. Little work per thread -> thread merge for loads in flight.
            if remarks.is_empty() && self.ilp_factor >= 2 {
                if let Some(r) = self.merge_for_loads_in_flight(op, launch) {
                    changed |= r.0;
                    remarks.push(r.1);
                }
            }
            if remarks.is_empty() {
                remarks.push(
                    "gpu-merge-policy: no sharing between blocks and enough threads per block: left as is".into(),
                );
            }
            for r in remarks {
                op.emit(Diagnostic::remark(pos.clone(), r));
            }
        }
        if !changed {
            am.preserve_all();
        }
        Ok(())
    }
}
