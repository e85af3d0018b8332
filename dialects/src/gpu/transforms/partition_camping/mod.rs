//! `gpu-partition-camping{partition-bytes=256 partitions=8}`: detection of
//! partition camping on the global accesses of a kernel, and its
//! elimination on 1-D grids by the offset rotation of the loop that sweeps
//! the camping dimension (DIGEST §004.8; `docs/design/kernel-optimizer.md`).

pub mod detect;
pub mod rotate;

use crate::affine::AffineForOp;
use crate::gpu::analysis::kernel_access::{kernel_accesses, LaunchIds};
use crate::gpu::GpuLaunchOp;
use detect::Verdict;
use lf_ir::builder::Builder;
use lf_ir::view::{collect_ops, OpView};
use lf_ir::{Location, OpId};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use rustc_hash::FxHashSet;

/// The registration record of `gpu-partition-camping`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-partition-camping",
    summary: "Detect partition camping on gpu.launch kernels and remove it on 1-D grids by rotating the swept loop",
    description: "Global memory is split into `partitions` partitions of `partition-bytes` bytes, interleaved \
across the address space; blocks running at the same time that hit the same partition serialize (DIGEST \
§004.8). Blocks along x are assumed to run together, so only accesses whose address involves `bidx` are \
considered.\n\n\
**Detection.** For every global access of an inline `gpu.launch` whose row-major address (from the \
kernel-access analysis) involves `bidx`, a remark gives the stride in bytes between the same thread of \
blocks `bidx` and `bidx + 1` in the same iteration, and says **partition camping** when it is a multiple of \
`partition-bytes * partitions`. Accesses with an unresolved subscript or a layout that is not row-major \
with static inner sizes get a remark saying they were skipped.\n\n\
**Elimination on 1-D grids** (`gridDim.y = gridDim.z = 1`, constants). For each camping access, the \
innermost kernel `affine.for %i = L to L + w step s` whose induction variable occurs in its address sweeps \
the camping dimension. Each block starts that sweep at a different partition and wraps around: every use of \
`%i` in the loop becomes `i' = L + ((i - L) + bidx * PW) mod w` (an `affine.apply` at the top of the body; \
`mod` is allowed in affine maps), with `PW = partition-bytes / element size` elements rounded up to a \
multiple of `s`. Since `w` and `PW` are multiples of `s`, every block visits every `i` exactly once, in a \
rotated order. The remark on the loop gives the rotation and notes that the **order of the reductions** \
the loop carries changes (floating-point sums may round differently). Declined with a remark: bounds that \
are not constants (`w` unknown), an extent that is not a multiple of the step, a loop-carried value that \
is not a reduction, a loop that writes memory or has ops with unknown effects (a dependence through memory \
may be carried), a rotation that is the identity (`w` divides it). On 2-D grids the remark points to \
`diagonal-reorder`. Bad options (`partition-bytes` or `partitions` not positive) are an error.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "partition-bytes",
            kind: OptionKind::UInt,
            default: "256",
            help: "Width of one memory partition in bytes",
        },
        PassOption {
            name: "partitions",
            kind: OptionKind::UInt,
            default: "8",
            help: "Number of memory partitions",
        },
    ],
    create: |opts| {
        let partition_bytes = opts.int("partition-bytes");
        let partitions = opts.int("partitions");
        if partition_bytes <= 0 {
            return Err(format!("partition-bytes: must be positive, got {partition_bytes}"));
        }
        if partitions <= 0 {
            return Err(format!("partitions: must be positive, got {partitions}"));
        }
        if partition_bytes.checked_mul(partitions).is_none() {
            return Err("partition-bytes: partition-bytes * partitions overflows".into());
        }
        Ok(Box::new(PartitionCamping {
            partition_bytes,
            partitions,
        }))
    },
};

/// The `gpu-partition-camping` pass.
pub struct PartitionCamping {
    /// Width of a partition in bytes.
    pub partition_bytes: i64,
    /// Number of partitions.
    pub partitions: i64,
}

impl Pass for PartitionCamping {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, _am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let mut b = op.builder();
        let launches = collect_ops::<GpuLaunchOp>(b.ctx(), b.body(), &regions);
        for launch in launches {
            self.run_launch(&mut b, launch);
        }
        Ok(())
    }
}

impl PartitionCamping {
    /// Detects camping in one launch and removes it on a 1-D grid.
    fn run_launch(&self, b: &mut Builder<'_>, launch: GpuLaunchOp) {
        let ids = LaunchIds::of(b, launch);
        let (pb, np) = (self.partition_bytes, self.partitions);
        let period = pb * np;
        let mut camping = Vec::new();
        // One remark per source access: copies made by earlier steps (a
        // thread merge replicates a store 32 times) share their location.
        let mut seen: FxHashSet<(Location, bool)> = FxHashSet::default();
        for access in kernel_accesses(b, launch) {
            let kind = if access.is_store { "store" } else { "load" };
            let first = seen.insert((b.body().op_loc(access.op), access.is_store));
            match detect::check(&access, pb, np) {
                None | Some(Verdict::NoBlockX) => {}
                Some(Verdict::Skipped(why)) if first => {
                    b.remark(
                        access.op,
                        format!("partition camping not checked for this {kind}: {why}"),
                    );
                }
                Some(Verdict::Skipped(_)) => {}
                Some(Verdict::Stride { bytes, camping: c }) => {
                    let verdict = if c {
                        "partition camping: neighbouring blocks hit the same partition"
                    } else {
                        "no partition camping"
                    };
                    if first {
                        b.remark(
                            access.op,
                            format!(
                                "{verdict}: this {kind} strides {bytes} bytes between blocks bidx and bidx+1; \
{bytes} mod ({pb}*{np}) = {}",
                                bytes.rem_euclid(period)
                            ),
                        );
                    }
                    if c {
                        camping.push(access);
                    }
                }
            }
        }
        if camping.is_empty() {
            return;
        }
        if ids.grid_size[1] != Some(1) || ids.grid_size[2] != Some(1) {
            b.remark(
                launch.op(),
                "partition camping not eliminated: the grid is not 1-D with constant sizes (use diagonal-reorder \
on 2-D grids)",
            );
            return;
        }
        let mut loops: Vec<(OpId, i64)> = Vec::new();
        for access in &camping {
            let offset = access.flat_offset().unwrap_or_default();
            let sweep = access
                .loops
                .iter()
                .rev()
                .find(|l| offset.uses_loop(l.iv) && AffineForOp::isa(b, l.op));
            let elem = access.element_bytes.unwrap_or(1) as i64;
            match sweep {
                None => b.remark(
                    access.op,
                    "partition camping not eliminated: no affine.for of the kernel sweeps this access",
                ),
                Some(_) if pb % elem != 0 => b.remark(
                    access.op,
                    format!("partition camping not eliminated: {pb} bytes is not a whole number of elements"),
                ),
                Some(l) => {
                    if !loops.iter().any(|(op, _)| *op == l.op) {
                        loops.push((l.op, pb / elem));
                    }
                }
            }
        }
        let bidx = ids.block[0];
        for (op, pw) in loops {
            let Some(for_op) = AffineForOp::cast(b, op) else {
                continue;
            };
            let message = match rotate::rotate(b, for_op, bidx, pw) {
                Ok(r) => {
                    let (l, w, o) = (r.lower, r.extent, r.offset);
                    let iv = if l == 0 {
                        format!("(i + bidx*{o}) mod {w}")
                    } else {
                        format!("{l} + ((i - {l}) + bidx*{o}) mod {w}")
                    };
                    let order = if r.reductions > 0 {
                        format!(
                            "; the order of the {} reduction(s) it carries changes (floating-point results may round differently)",
                            r.reductions
                        )
                    } else {
                        String::new()
                    };
                    format!("partition camping eliminated: the loop index is rotated to i' = {iv}{order}")
                }
                Err(why) => format!("partition camping not eliminated: {why}"),
            };
            b.remark(op, message);
        }
    }
}
