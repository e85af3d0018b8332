//! `thread-granularity{factor=F dim=x|y|z vector-width=v output-streams=m}`:
//! seed 002's thread-granularity tuning (DIGEST §002.3): each thread of an
//! inline `gpu.launch` computes `F = v*m` points of the old launch along
//! one dimension, `v` neighbouring points (the lanes of a Brook+ `double2`)
//! in each of `m` chunks (output streams), with the loads and sub-
//! expressions the points have in common computed once. See
//! `docs/design/thread-granularity.md`.
//!
//! - [`options`]: how `factor`, `vector-width` and `output-streams` combine;
//! - [`mapping`]: which points a new thread computes, the new sizes;
//! - [`legality`]: when a launch is declined, and the roots of the global id;
//! - [`rewrite`]: the copies per point;
//! - [`share`]: the loads and pure ops common to the copies.

pub mod legality;
pub mod mapping;
pub mod options;
pub mod rewrite;
pub mod share;

use crate::affine::AffineLoadOp;
use crate::gpu::analysis::kernel_access::LaunchIds;
use crate::gpu::analysis::sharing::register_estimate;
use crate::gpu::GpuLaunchOp;
use crate::memref::MemrefLoadOp;
use legality::Plan;
use lf_ir::builder::Builder;
use lf_ir::diag::Diagnostic;
use lf_ir::view::{collect_ops, Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_pass::pass::{Anchor, Pass, PassInfo, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use options::Granularity;

/// The registration record of `thread-granularity`.
pub static INFO: PassInfo = PassInfo {
    name: "thread-granularity",
    summary:
        "Make each thread of a gpu.launch compute vector-width x output-streams points along one dimension (seed 002)",
    description: "Seed 002's thread-granularity tuning (Brook+ `double2` lanes times output streams). For every \
inline `gpu.launch` with constant sizes, let E be its thread count along `dim` and F = v*m the factor \
(`factor` alone: v = 1, m = F; with `vector-width`: m = F / v; at most 8 output streams, the Brook+ limit). \
The E points are cut into m chunks of C = ceil(E/m) points rounded up to a multiple of v; the launch gets \
C/v threads along `dim` (the block size kept when it divides that, else the largest smaller one that does) \
and new thread g computes the points v*g + l + j*C (j < m outer, l < v), the old global id \
`block_id*B + thread_id` replaced by each point. Ops that do not depend on the point and have no side \
effects (or only load memrefs the kernel never stores to) are kept once; the others are copied per point; \
copies of points that may be past E are guarded by an `affine.if`, the others are not. Then loads of one \
memref at equal subscripts in different points are merged when nothing in the kernel stores to it, and \
equal pure ops are merged. A remark per launch gives the factor, the thread counts, the loads and the \
register estimate before and after. Left unchanged, with a remark: sizes that are not constant, fewer \
threads than the factor, barriers or workgroup/private attributions, atomics or ops with unknown \
effects, the thread or block id along `dim` used other than through the global id. `factor=1` changes \
nothing. The lanes of one chunk store to neighbouring elements: `vectorize-access` can make them vector \
accesses for CUDA and OpenCL.",
    anchor: Anchor::Op("func.func"),
    options: options::OPTIONS,
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(ThreadGranularity(Granularity::from_options(opts)?)))
}

/// The `thread-granularity` pass.
pub struct ThreadGranularity(pub Granularity);

/// The load ops of a launch.
fn count_loads<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> usize {
    let mut n = 0;
    walk(ir.body(), launch.op(), WalkOrder::PreOrder, &mut |b, op| {
        let irb = (ir.ctx(), b);
        if AffineLoadOp::isa(&irb, op) || MemrefLoadOp::isa(&irb, op) {
            n += 1;
        }
        WalkControl::Advance
    });
    n
}

/// Coarsens `launch` as `plan` says; returns the remark.
pub fn apply(b: &mut Builder<'_>, launch: GpuLaunchOp, plan: &Plan) -> String {
    let copy_of = rewrite::rewrite(b, launch, plan);
    share::share_points(b, launch, &copy_of);
    let ids = LaunchIds::of(b, launch);
    let threads: i64 = ids
        .block_size
        .iter()
        .chain(ids.grid_size.iter())
        .map(|s| s.unwrap_or(1))
        .product();
    let g = plan.granularity;
    format!(
        "thread granularity {} ({} lanes x {} streams) along {}: {} threads -> {} threads; loads {} -> {} (shared between points); register estimate {} -> {}",
        g.factor,
        g.vector_width,
        g.streams,
        g.axis(),
        plan.old_threads,
        threads,
        plan.loads_before * g.factor as usize,
        count_loads(b, launch),
        plan.registers_before,
        register_estimate(b, launch, None).total()
    )
}

impl Pass for ThreadGranularity {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        if self.0.factor == 1 {
            am.preserve_all();
            return Ok(());
        }
        let regions = op.regions().to_vec();
        let launches: Vec<GpuLaunchOp> = collect_ops::<GpuLaunchOp>(op.ctx(), op.body(), &regions);
        let mut changed = false;
        for launch in launches {
            let ctx = op.ctx();
            let decided = legality::plan(&(ctx, op.body()), launch, &self.0);
            let pos = op.body().op_loc(launch.op()).source_pos(ctx);
            let message = match decided {
                Ok(plan) => {
                    changed = true;
                    apply(&mut op.builder(), launch, &plan)
                }
                Err(why) => format!("thread-granularity: not coarsened: {why}"),
            };
            op.emit(Diagnostic::remark(pos, message));
        }
        if !changed {
            am.preserve_all();
        }
        Ok(())
    }
}
