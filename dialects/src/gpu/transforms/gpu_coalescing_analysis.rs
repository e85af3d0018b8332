//! `gpu-coalescing-analysis`: a remark at every global access of every
//! inline `gpu.launch` of a function, with its index classes and the
//! verdict of seed 004's half-warp rule (DIGEST §004.3), or under
//! `model=sector32` the 32-byte sectors a warp request touches. The rules
//! are in [`crate::gpu::analysis::coalescing`].

use crate::gpu::analysis::coalescing::{check_half_warp, describe_subscripts, sector_count, HALF_WARP};
use crate::gpu::analysis::kernel_access::{kernel_accesses, LaunchIds, MemorySpace};
use crate::gpu::GpuLaunchOp;
use crate::support::at;
use lf_ir::diag::Diagnostic;
use lf_ir::view::collect_ops;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `gpu-coalescing-analysis`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-coalescing-analysis",
    summary: "Remark on every global access of inline gpu.launch kernels whether it is coalesced",
    description: "Seed 004's coalescing check (DIGEST §004.3), an analysis: the IR is unchanged. At \
every `affine.load`/`affine.store`/`memref.load`/`memref.store` of global memory in an inline \
`gpu.launch` of the function, a remark gives the subscripts as linear forms (`tidx`, `bidy`, `i0` \
for the outermost kernel loop around the access, `i1` for the next, `n0` for values defined \
outside the launch) with their index classes (constant, predefined, loop, invariant, unresolved), \
then the verdict. `model=half-warp` (default), the seed's rule: the 16 lanes of a half-warp are 16 \
consecutive threads in the block's linear order (`tidx = 16q + t`; with `blockDim.x < 16`, threads \
of the next rows along y join the half-warp); for every half-warp, every block id and the first 16 \
iterations of each enclosing loop, lane t must access element base + t, every subscript but the \
innermost must be the same on all lanes, and base must be a multiple of 16 elements (64 bytes for \
4-byte words, 16·e bytes for e-byte elements), allocations being 256-byte aligned: `coalesced`, \
`not coalesced (higher dimension varies across the half-warp)`, `not coalesced (offsets not 1..15 \
words...)`, `not coalesced (base not 64-byte aligned at i0 = 1)`, or `skipped (unresolved index: \
...)` (an index loaded from memory, a product of ids; also a layout that is not row-major with \
static inner sizes, a run-time base offset, a non-constant block size). `model=sector32`: the most \
32-byte sectors one 32-lane warp request touches over the warps of the block, the first 16 block \
ids and the first 16 iterations of each loop (bounded to 4096 points), and the ideal count (the \
distinct bytes it reads, in sectors), as on current GPUs.",
    anchor: Anchor::Op("func.func"),
    options: &[PassOption {
        name: "model",
        kind: OptionKind::Enum(&["half-warp", "sector32"]),
        default: "half-warp",
        help: "half-warp: the seed's 16-lane rule; sector32: 32-byte sectors per 32-lane warp request",
    }],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(GpuCoalescingAnalysis {
        sector32: opts.str("model") == "sector32",
    }))
}

/// The `gpu-coalescing-analysis` pass.
pub struct GpuCoalescingAnalysis {
    /// `model=sector32`.
    pub sector32: bool,
}

impl Pass for GpuCoalescingAnalysis {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        am.preserve_all();
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let mut remarks = Vec::new();
        {
            let body = op.body();
            let ir = (ctx, body);
            for launch in collect_ops::<GpuLaunchOp>(ctx, body, &regions) {
                let ids = LaunchIds::of(&ir, launch);
                for acc in kernel_accesses(&ir, launch) {
                    if acc.space != MemorySpace::Global {
                        continue;
                    }
                    let kind = if acc.is_store { "store" } else { "load" };
                    let loops: Vec<String> = acc
                        .loops
                        .iter()
                        .enumerate()
                        .filter(|(_, l)| {
                            acc.subscripts
                                .iter()
                                .any(|s| s.linear().is_some_and(|x| x.uses_loop(l.iv)))
                        })
                        .map(|(k, l)| format!("i{k}: the loop{}", at(ctx, body, l.op)))
                        .collect();
                    let verdict = check_half_warp(&acc, &ids, HALF_WARP);
                    let result = match (self.sector32, &verdict) {
                        (_, v @ crate::gpu::analysis::coalescing::Verdict::Skipped(_)) => v.describe(),
                        (true, _) => match sector_count(&acc, &ids) {
                            Some(s) => format!(
                                "sector32: {} sector{} per warp request (ideal {})",
                                s.sectors,
                                if s.sectors == 1 { "" } else { "s" },
                                s.ideal
                            ),
                            None => "sector32: not counted".into(),
                        },
                        (false, v) => v.describe(),
                    };
                    let mut msg = format!("global {kind} {}: {result}", describe_subscripts(&acc));
                    if !loops.is_empty() {
                        msg.push_str(&format!(" ({})", loops.join(", ")));
                    }
                    remarks.push((body.op_loc(acc.op).source_pos(ctx), msg));
                }
            }
        }
        for (pos, msg) in remarks {
            op.emit(Diagnostic::remark(pos, msg));
        }
        Ok(())
    }
}
