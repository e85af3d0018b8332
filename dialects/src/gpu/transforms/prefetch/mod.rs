//! `prefetch`: the next iteration's global loads of a kernel loop issued
//! into registers before the current iteration's computation, with the
//! guard that makes no load past the last iteration (DIGEST §004.7, seed
//! Fig. 8; `docs/design/kernel-optimizer.md`).

pub mod segment;
pub mod transform;

use crate::affine::AffineForOp;
use crate::gpu::analysis::kernel_access::{kernel_accesses, memory_space, KernelAccess, MemorySpace};
use crate::gpu::utils::kernel_writes::nested_writes;
use crate::gpu::{GpuBarrierOp, GpuLaunchOp};
use crate::scf::ScfForOp;
use lf_ir::builder::Builder;
use lf_ir::view::{collect_ops, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::OpId;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `prefetch`.
pub static INFO: PassInfo = PassInfo {
    name: "prefetch",
    summary: "Prefetch the next iteration's global loads of gpu.launch kernel loops into registers (seed 004 Fig. 8)",
    description: "On every `affine.for` inside an inline `gpu.launch` whose body starts with **G2S** statements \
(an `affine.load` of global memory whose only use is an `affine.store` into a workgroup array, in the same \
block; `docs/design/kernel-optimizer.md`) and whose body has a `gpu.barrier` at its top level (the shape of \
seed Fig. 8a: loader loops such as Fig. 3b's 16-iteration G2S loop are left alone), possibly with **G2R** loads (global `affine.load`s used by the \
computation) and the pure `affine.apply`/`arith.constant` ops their addresses need, before anything else \
(DIGEST §004.7, seed Fig. 8). G2S statements inside a leading `affine.if` without else or results whose \
condition uses only the induction variable and values from outside the loop (block merge's `tidx < \
old blockDim.x` guard, seed Fig. 5) count too: their prefetching loads go under a copy of that condition.\n\n\
1. The first iteration's values are loaded before the loop, under `affine.if (ub - lb - 1 >= 0)` (yielding \
zeros otherwise) unless the trip count is a constant of at least 1, and carried as new `iter_args`.\n\
2. At the top of each iteration the G2S stores store the carried values (the G2R uses use them).\n\
3. Before the computation (after a `gpu.barrier` that directly follows the statements, as in Fig. 8b) the \
next iteration's loads are issued under `affine.if (i + step < ub)`, which yields the loaded values or the \
carried ones: no load past the last iteration. The loop yields them.\n\n\
A remark on the loop says how many G2S and G2R loads were prefetched. Skipped with a remark: registers \
already hold reused data (the loop's `iter_args` plus the prefetched values exceed `register-limit`, as \
after thread merge), a load with an unresolved address, an address computed from a loop-carried value or \
an op with effects, a loop that writes global memory or has ops with unknown effects (a prefetched value \
could be stale), bounds with several results (min/max), an element type without a zero constant when the \
loop may run zero times, and `scf.for` loops (only `affine.for`, whose step is a constant, is handled). \
Loops whose body does not start with G2S statements are left alone silently.",
    anchor: Anchor::Op("func.func"),
    options: &[PassOption {
        name: "register-limit",
        kind: OptionKind::UInt,
        default: "16",
        help: "Skip a loop when its iter_args plus the prefetched values exceed this many registers",
    }],
    create: |opts| {
        let limit = opts.int("register-limit");
        if limit <= 0 {
            return Err(format!("register-limit: must be positive, got {limit}"));
        }
        Ok(Box::new(Prefetch {
            register_limit: limit as usize,
        }))
    },
};

/// The `prefetch` pass.
pub struct Prefetch {
    /// The register estimate above which a loop is skipped.
    pub register_limit: usize,
}

impl Pass for Prefetch {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, _am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let mut b = op.builder();
        let launches = collect_ops::<GpuLaunchOp>(b.ctx(), b.body(), &regions);
        for launch in launches {
            let accesses = kernel_accesses(&b, launch);
            for l in kernel_loops(&b, launch) {
                if b.body().is_erased(l) {
                    continue;
                }
                if let Some(f) = AffineForOp::cast(&b, l) {
                    if let Some(message) = self.run_loop(&mut b, f, &accesses) {
                        b.remark(l, message);
                    }
                } else if starts_with_global_load(&b, l) {
                    b.remark(
                        l,
                        "not prefetched: an scf.for (prefetch handles affine.for loops, whose step is a constant)",
                    );
                }
            }
        }
        Ok(())
    }
}

/// The `affine.for` and `scf.for` ops inside `launch`, outermost first.
fn kernel_loops(b: &Builder<'_>, launch: GpuLaunchOp) -> Vec<OpId> {
    let mut out = Vec::new();
    walk(b.body(), launch.op(), WalkOrder::PreOrder, &mut |body, op| {
        let ir = (b.ctx(), body);
        if AffineForOp::isa(&ir, op) || ScfForOp::isa(&ir, op) {
            out.push(op);
        }
        WalkControl::Advance
    });
    out
}

/// Whether the first op of the body of scf.for `l` is a global load.
fn starts_with_global_load(b: &Builder<'_>, l: OpId) -> bool {
    let Some(f) = ScfForOp::cast(b, l) else { return false };
    let block = f.region_block(b);
    let first = b.body().block_ops(block).next();
    first.is_some_and(|op| {
        crate::affine::AffineLoadOp::cast(b, op)
            .is_some_and(|ld| memory_space(b.ctx(), b.body(), ld.memref(b)) == MemorySpace::Global)
    })
}

impl Prefetch {
    /// Prefetches one loop; the remark, or `None` when the loop does not
    /// start with G2S statements.
    fn run_loop(&self, b: &mut Builder<'_>, f: AffineForOp, accesses: &[KernelAccess]) -> Option<String> {
        let block = f.region_block(b);
        if !b.body().block_ops(block).any(|op| GpuBarrierOp::isa(b, op)) {
            // A loader loop (seed Fig. 3b's 16-iteration G2S loop) or a loop
            // without the store / barrier / compute shape of Fig. 8a.
            return None;
        }
        let seg = match segment::leading(b, f) {
            Ok(seg) if seg.g2s() > 0 => seg,
            Ok(_) => return None,
            Err(why) => {
                return starts_with_load(b, f).then(|| format!("not prefetched: {why}"));
            }
        };
        if let Err(why) = self.check(b, f, &seg, accesses) {
            return Some(format!("not prefetched: {why}"));
        }
        let (g2s, g2r) = (seg.g2s(), seg.loads.len() - seg.g2s());
        let step = f.step(b);
        let guarded = f.constant_trip_count(b).is_none_or(|t| t < 1);
        transform::prefetch(b, f, &seg);
        Some(format!(
            "prefetched {g2s} G2S and {g2r} G2R load(s) of the next iteration into registers, guarded by \
i + {step} < ub; the first iteration's loads are before the loop{}",
            if guarded {
                " (guarded: the loop may run zero times)"
            } else {
                ""
            }
        ))
    }

    /// Why `f` cannot be prefetched, if it cannot.
    fn check(
        &self,
        b: &Builder<'_>,
        f: AffineForOp,
        seg: &segment::Segment,
        accesses: &[KernelAccess],
    ) -> Result<(), String> {
        let carried = f.region_iter_args(b).len();
        let estimate = carried + seg.loads.len();
        if estimate > self.register_limit {
            return Err(format!(
                "registers already hold reused data: the loop carries {carried} value(s), {estimate} registers \
with the prefetched ones > register-limit={}",
                self.register_limit
            ));
        }
        for l in &seg.loads {
            if let Some(why) = accesses.iter().find(|a| a.op == l.load).and_then(|a| a.unresolved()) {
                return Err(format!("a load's address is unresolved ({why})"));
            }
        }
        if f.lower_bound(b).map.num_results() != 1 || f.upper_bound(b).map.num_results() != 1 {
            return Err("a loop bound has several results (min/max)".into());
        }
        let (ctx, body) = (b.ctx(), b.body());
        for e in nested_writes(ctx, body, f.op())? {
            let global = e
                .value
                .is_none_or(|v| memory_space(ctx, body, v) == MemorySpace::Global);
            if global {
                return Err(format!(
                    "the loop writes global memory ('{}'): a prefetched value could be stale",
                    ctx.op_name_str(body.op_name(e.op))
                ));
            }
        }
        let may_skip = f.constant_trip_count(b).is_none_or(|t| t < 1);
        for l in &seg.loads {
            let ty = body.value_type(body.result(l.load, 0));
            if (may_skip || l.guard.is_some()) && !crate::arith::ArithConstantOp::has_zero(b.ctx(), ty) {
                return Err("a loaded type has no zero constant for a loop that may run zero times".into());
            }
        }
        Ok(())
    }
}

/// Whether the body of `f` starts with a load (to decide whether a failed
/// analysis deserves a remark).
fn starts_with_load(b: &Builder<'_>, f: AffineForOp) -> bool {
    let block = f.region_block(b);
    b.body()
        .block_ops(block)
        .next()
        .is_some_and(|op| crate::affine::AffineLoadOp::isa(b, op))
}
