//! `unroll-shared-reads`: innermost kernel loops that read shared memory at
//! consecutive addresses unrolled by a small factor, so that the device
//! compiler combines each group of reads into one wide read (lf's step of
//! the kernel optimizer; `docs/design/kernel-optimizer.md`).
//!
//! After `coalesce-via-shared` and the merges, the mm kernel's innermost
//! loop reads `a_shared[r][k]` for each of its rows per iteration. The
//! emitters declare workgroup arrays 16-byte aligned; once the loop is
//! unrolled by 4 from a multiple of 4, nvcc's load combining turns the four
//! reads of a row into one `ld.shared.v4` (a quarter of the shared-memory
//! instructions). Unrolling is always legal; this pass only chooses where it
//! pays: an `affine.for` inside an inline `gpu.launch`, with no loop and no
//! barrier inside, step 1, a constant lower bound and trip count that the
//! factor divides (no cleanup loop), and at least one workgroup read whose
//! element offset is the loop's index plus a multiple of the factor.

use crate::affine::utils::loop_unroll::loop_unroll_by_factor;
use crate::affine::AffineForOp;
use crate::gpu::analysis::kernel_access::{kernel_accesses, KernelAccess, MemorySpace, Term};
use crate::gpu::{GpuBarrierOp, GpuLaunchOp};
use crate::scf::{ScfForOp, ScfWhileOp};
use lf_ir::builder::Builder;
use lf_ir::view::{collect_ops, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::OpId;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `unroll-shared-reads`.
pub static INFO: PassInfo = PassInfo {
    name: "unroll-shared-reads",
    summary: "Unroll innermost gpu.launch loops whose shared-memory reads are consecutive, for wide reads (lf)",
    description: "On every innermost `affine.for` inside an inline `gpu.launch` (no loop and no `gpu.barrier` \
inside it) with step 1, a constant lower bound and a constant trip count that `factor` divides, and with at \
least one read of workgroup memory whose element offset (row-major, from the array's start) is the loop \
index with coefficient 1 plus a part that `factor` divides (a constant and other terms, multiples of it): unroll \
by `factor`. The emitters declare workgroup arrays 16-byte aligned, so the device compiler can then read \
`factor` neighbouring elements at once (for f32 and factor 4, one 128-bit `ld.shared.v4` instead of four \
reads). A remark per unrolled loop gives the number of such reads; a loop with such reads that cannot be \
unrolled (trip count, lower bound) gets a remark saying why. On the H200, mm 4096^3 after \
`gpu-optimize-kernels` went from 6.9 ms to 5.8 ms (bench/gpu/RESULTS.md).",
    anchor: Anchor::Op("func.func"),
    options: &[PassOption {
        name: "factor",
        kind: OptionKind::UInt,
        default: "4",
        help: "Unroll factor (the number of neighbouring reads combined: 4 for 128-bit reads of f32)",
    }],
    create: |opts| {
        let factor = opts.int("factor");
        if !(2..=16).contains(&factor) {
            return Err(format!("factor: between 2 and 16, got {factor}"));
        }
        Ok(Box::new(UnrollSharedReads { factor }))
    },
};

/// The `unroll-shared-reads` pass.
pub struct UnrollSharedReads {
    /// The unroll factor.
    pub factor: i64,
}

impl Pass for UnrollSharedReads {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let mut b = op.builder();
        let launches = collect_ops::<GpuLaunchOp>(b.ctx(), b.body(), &regions);
        let mut changed = false;
        for launch in launches {
            let accesses = kernel_accesses(&b, launch);
            for l in innermost_loops(&b, launch) {
                let Some(f) = AffineForOp::cast(&b, l) else { continue };
                let reads = consecutive_shared_reads(&b, f, &accesses, self.factor);
                if reads == 0 {
                    continue;
                }
                match self.unroll(&mut b, f) {
                    Ok(()) => {
                        changed = true;
                        b.remark(
                            l,
                            format!(
                                "unrolled by {}: {reads} workgroup read(s) at consecutive addresses (each {} neighbouring reads of a 16-byte aligned array can become one wide read)",
                                self.factor, self.factor
                            ),
                        );
                    }
                    Err(why) => b.remark(
                        l,
                        format!("not unrolled: {reads} workgroup read(s) at consecutive addresses, but {why}"),
                    ),
                }
            }
        }
        if !changed {
            am.preserve_all();
        }
        Ok(())
    }
}

impl UnrollSharedReads {
    /// Unrolls `f` by the factor, or says why not.
    fn unroll(&self, b: &mut Builder<'_>, f: AffineForOp) -> Result<(), String> {
        if f.step(&*b) != 1 {
            return Err("the step is not 1".into());
        }
        let Some(lower) = f.constant_lower_bound(&*b) else {
            return Err("the lower bound is not a constant".into());
        };
        if lower % self.factor != 0 {
            return Err(format!("the lower bound {lower} is not a multiple of {}", self.factor));
        }
        match f.constant_trip_count(&*b) {
            Some(n) if n > 0 && n % self.factor == 0 => {}
            Some(n) => {
                return Err(format!(
                    "the trip count {n} is not a positive multiple of {}",
                    self.factor
                ))
            }
            None => return Err("the trip count is not a constant".into()),
        }
        loop_unroll_by_factor(b, f, self.factor as u64, false, false).map_err(|d| d.to_string())
    }
}

/// The `affine.for`/`scf.for`/`scf.while` ops inside `launch` with no loop
/// and no barrier inside them.
fn innermost_loops(b: &Builder<'_>, launch: GpuLaunchOp) -> Vec<OpId> {
    let ctx = b.ctx();
    let is_loop = |body: &lf_ir::Body, op: OpId| {
        let ir = (ctx, body);
        AffineForOp::isa(&ir, op) || ScfForOp::isa(&ir, op) || ScfWhileOp::isa(&ir, op)
    };
    let mut out = Vec::new();
    walk(b.body(), launch.op(), WalkOrder::PreOrder, &mut |body, op| {
        if op != launch.op() && is_loop(body, op) {
            let mut inner = false;
            walk(body, op, WalkOrder::PreOrder, &mut |bb, o| {
                if o != op && (is_loop(bb, o) || GpuBarrierOp::isa(&(ctx, bb), o)) {
                    inner = true;
                    return WalkControl::Interrupt;
                }
                WalkControl::Advance
            });
            if !inner {
                out.push(op);
            }
        }
        WalkControl::Advance
    });
    out
}

/// The number of workgroup reads directly in loop `f` whose element offset
/// (row-major, from the array's start) is `iv + rest` with `rest` a
/// multiple of `factor`: groups of `factor` reads start aligned.
fn consecutive_shared_reads<'c>(b: &Builder<'c>, f: AffineForOp, accesses: &[KernelAccess], factor: i64) -> usize {
    let iv = f.iv(b);
    accesses
        .iter()
        .filter(|a| !a.is_store && a.space == MemorySpace::Workgroup && a.loops.last().is_some_and(|l| l.op == f.op()))
        .filter(|a| {
            a.flat_offset().is_some_and(|l| {
                l.coef(Term::Loop(iv)) == 1
                    && l.constant % factor == 0
                    && l.terms.iter().all(|&(t, c)| t == Term::Loop(iv) || c % factor == 0)
            })
        })
        .count()
}
