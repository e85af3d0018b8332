//! `gpu-split-reduction`: a kernel whose threads each reduce a long loop
//! (matvec's one thread per row) gets `lanes` threads per reduction, each
//! summing every `lanes`-th iteration, and the lanes' partial values
//! combined through workgroup memory (lf's pass, beyond seed 004; the
//! `rfactor` of Halide schedules). Neighbouring lanes read neighbouring
//! elements, so a row-major `A[i][k]` read along `k` becomes coalesced, and
//! the kernel gets `lanes` times the threads. `docs/design/kernel-optimizer.md`.

pub mod plan;
pub mod rewrite;

use crate::gpu::GpuLaunchOp;
use lf_ir::view::{collect_ops, OpView};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use plan::Limits;

/// The registration record of `gpu-split-reduction`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-split-reduction",
    summary: "Split each thread's reduction loop across lanes combined through shared memory, for kernels with few threads (lf)",
    description: "Acts on the inline `gpu.launch` ops of a function with constant sizes, at most `max-threads` \
threads, no threads along z, no barrier and no memory attributions. The kernel's reduction loop (the only \
`affine.for` with results, at the kernel's top level or in one bound guard, every carried value a reduction: one \
`arith` combining op whose result is yielded, MLIR's supported reductions) must not write memory, nor may the ops \
before it; at least two iterations per lane when the trip count is constant. Each old thread becomes `lanes` \
threads along x (the old threads move to y: the block becomes `lanes` x R, R = 256/lanes halved until it divides \
the threads along x, and the old ids are rewritten as `idx = R*bidx + tidy`). Lane `l` runs the iterations `lb + \
(l + lanes*j)*step` from the reduction's neutral value (with `chunk` = c > 1, the loop is first unrolled by c, when \
c divides its constant trip count, and lane `l` runs iterations `c*(l + lanes*j) + 0..c`: c neighbouring elements \
per turn, which `vectorize-access{width=c}` can read as one vector); the partial values meet in a `R x lanes` workgroup array, \
combined in log2(lanes) steps with a barrier between them; lane 0 combines the total with the initial value and runs \
the ops after the loop. With a bound guard, the part up to the loop becomes an `affine.if` with results (its else \
block yields neutral values and zeros) and the barriers run outside it. Integer reductions and `maximumf`/`minimumf` \
give the same result in any order; float sums and products (and `maxnumf`/`minnumf`) are split only with \
`reassociate-float=true`, since the lanes' order changes rounding. A remark at each launch says what was done or why \
not.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "lanes",
            kind: OptionKind::UInt,
            default: "32",
            help: "Threads per reduction (a power of two from 2 to 256)",
        },
        PassOption {
            name: "max-threads",
            kind: OptionKind::UInt,
            default: "65536",
            help: "Leave kernels with more threads than this alone (they have parallelism enough)",
        },
        PassOption {
            name: "chunk",
            kind: OptionKind::UInt,
            default: "1",
            help: "Consecutive iterations per lane and turn (1, 2 or 4; e.g. 4 for float4 reads after vectorize-access{width=4})",
        },
        PassOption {
            name: "reassociate-float",
            kind: OptionKind::Bool,
            default: "false",
            help: "Also split float sums and products (changes rounding)",
        },
    ],
    create: |opts| {
        let lanes = opts.int("lanes");
        if !(2..=256).contains(&lanes) || lanes & (lanes - 1) != 0 {
            return Err(format!("lanes: a power of two from 2 to 256, got {lanes}"));
        }
        let chunk = opts.int("chunk");
        if ![1, 2, 4].contains(&chunk) {
            return Err(format!("chunk: 1, 2 or 4, got {chunk}"));
        }
        Ok(Box::new(SplitReduction {
            limits: Limits {
                lanes,
                max_threads: opts.int("max-threads"),
                reassociate_float: opts.bool("reassociate-float"),
                chunk,
            },
        }))
    },
};

/// The `gpu-split-reduction` pass.
pub struct SplitReduction {
    /// What the plans may do.
    pub limits: Limits,
}

impl Pass for SplitReduction {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let mut b = op.builder();
        let launches = collect_ops::<GpuLaunchOp>(b.ctx(), b.body(), &regions);
        let mut changed = false;
        for launch in launches {
            match plan::plan(&b, launch, self.limits) {
                Ok(p) => {
                    let [ox, oy, _] = p.reblock.old_block;
                    let [gx, gy, gz] = p.reblock.new_grid;
                    let kinds: Vec<&str> = p.reductions.iter().map(|r| r.kind.keyword()).collect();
                    let mut notes = String::new();
                    if p.chunk > 1 {
                        notes.push_str(&format!("; {} consecutive iterations per lane and turn", p.chunk));
                    }
                    if let Some(n) = &p.chunk_note {
                        notes.push_str(&format!("; {n}"));
                    }
                    if p.guard.is_some() {
                        notes.push_str("; the bound guard split around the barriers");
                    }
                    rewrite::rewrite(&mut b, &p);
                    changed = true;
                    b.remark(
                        launch.op(),
                        format!(
                            "reduction split across {} lanes ({}): block {ox}x{oy}x1 -> {}x{}x1, grid {gx}x{gy}x{gz}; partial values combined in a {}x{} workgroup array in {} steps{notes}",
                            p.lanes,
                            kinds.join(", "),
                            p.lanes,
                            p.rows,
                            p.rows,
                            p.lanes,
                            p.lanes.trailing_zeros()
                        ),
                    );
                }
                Err(why) => b.remark(launch.op(), format!("reduction not split: {why}")),
            }
        }
        if !changed {
            am.preserve_all();
        }
        Ok(())
    }
}
