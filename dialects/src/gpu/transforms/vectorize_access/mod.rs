//! `vectorize-access{width=2|4 mode=strict|aggressive}`: seed 004's first
//! step (DIGEST §004.2). In `strict` mode (the float2 rule), `w` accesses of
//! one thread to one memref, `A[..., s + N + k]` for `k = 0..w-1` with `N` a
//! multiple of `w`, in one block, become one `vector.load` (its elements
//! `vector.extract`ed) or one `vector.store` (of a `vector.from_elements`),
//! when the alignment of the vector can be proved: the flat element offset
//! of the first access is `w * (...) + N` for every value of the thread,
//! block and loop ids (which needs the innermost dimension's size, the row
//! pitch, to be a multiple of `w`). Otherwise a remark and no change.
//! `aggressive` mode first coarsens the kernel along x by `w`
//! ([`coarsen`]), then merges the same way.
//! See docs/design/kernel-optimizer.md, "vectorize-access".

pub mod coarsen;
pub mod lanes;
pub mod plan;
pub mod rewrite;

use crate::gpu::GpuLaunchOp;
use lf_ir::diag::Diagnostic;
use lf_ir::view::collect_ops;
use lf_ir::view::OpView;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `vectorize-access`.
pub static INFO: PassInfo = PassInfo {
    name: "vectorize-access",
    summary: "Merge neighbouring scalar accesses of a GPU thread into float2/float4 accesses (seed 004's step 1)",
    description: "Acts on the inline `gpu.launch` kernels of a function. `mode=strict` (seed 004's float2 \
rule, DIGEST §004.2): the `width` loads (or stores) of one thread to `A[..., s + N + k]`, `k = 0..width-1`, \
`N` a multiple of `width`, with equal outer subscripts and in one block, become one `vector.load` and \
`vector.extract`s (one `vector.from_elements` and `vector.store`). Loads are merged when no op between \
them may write memory; stores when no op between them touches memory. The vector must be aligned: the \
flat element offset of its first element, as a linear form in thread ids, block ids, loop indices and \
invariants, must have every coefficient and its constant a multiple of `width` (so the row pitch too); \
otherwise a remark says why (unaligned `N`, odd pitch, unproved offset) and the accesses stay scalar. \
Element types: `f32` (width 2 or 4) and `f64` (width 2). `mode=aggressive` (the AMD rule: grouping \
neighbouring threads along x) first coarsens each kernel along x by `width` (block x size `B` becomes \
`B/width`; each thread runs the body for `tidx = width*tidx' + k`, `k = 0..width-1`, the copies \
interleaved op by op, a legal schedule of a race-free kernel without barriers), then merges as in strict \
mode: `A[..., idx + c]` with `c` and the row pitch multiples of `width` become vector accesses, the rest \
stays replicated as scalars; `w` neighbouring `arith.addf/subf/mulf/divf` on the lanes of vectors \
become one op on vectors. Kernels are left unchanged, \
with a remark, when the block x size is not a constant multiple of `width`, or they have barriers, \
workgroup or private attributions, `gpu.thread_id`-like ops, ops of unknown memory effects (atomics, \
calls) or unresolved subscripts.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "width",
            kind: OptionKind::UInt,
            default: "2",
            help: "Elements per vector access: 2 (float2, double2) or 4 (float4)",
        },
        PassOption {
            name: "mode",
            kind: OptionKind::Enum(&["strict", "aggressive"]),
            default: "strict",
            help: "strict: one thread's neighbouring accesses (seed 004's float2 rule); aggressive: first coarsen threads along x by width (the AMD rule)",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let width = opts.int("width");
    if width != 2 && width != 4 {
        return Err(format!("width: must be 2 or 4, got {width}"));
    }
    Ok(Box::new(VectorizeAccess {
        width,
        aggressive: opts.str("mode") == "aggressive",
    }))
}

/// The `vectorize-access` pass.
pub struct VectorizeAccess {
    /// Elements per vector access.
    pub width: i64,
    /// `mode=aggressive`.
    pub aggressive: bool,
}

impl Pass for VectorizeAccess {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let mut launches = collect_ops::<GpuLaunchOp>(ctx, op.body(), &regions);
        let mut remarks = Vec::new();
        let mut changed = false;
        if self.aggressive {
            let mut ok = Vec::new();
            for l in launches {
                match coarsen::check(ctx, op.body(), l, self.width) {
                    Ok(bx) => ok.push((l, bx)),
                    Err(why) => remarks.push((
                        op.body().op_loc(l.op()).source_pos(ctx),
                        format!("vectorize-access (aggressive): kernel left unchanged: {why}"),
                    )),
                }
            }
            for &(l, bx) in &ok {
                remarks.push((
                    op.body().op_loc(l.op()).source_pos(ctx),
                    format!(
                        "vectorize-access (aggressive): threads coarsened along x by {}: block x {bx} -> {}",
                        self.width,
                        bx / self.width
                    ),
                ));
            }
            if !ok.is_empty() {
                changed = true;
                let mut b = op.builder();
                for &(l, bx) in &ok {
                    coarsen::coarsen(&mut b, l, bx, self.width);
                }
            }
            launches = ok.into_iter().map(|(l, _)| l).collect();
        }
        let mut groups = Vec::new();
        let mut planned = Vec::new();
        for &l in &launches {
            plan::plan_launch(ctx, op.body(), l, self.width, &mut groups, &mut planned);
        }
        remarks.extend(
            planned
                .into_iter()
                .map(|(at, message)| (op.body().op_loc(at).source_pos(ctx), message)),
        );
        if !groups.is_empty() {
            changed = true;
            let mut b = op.builder();
            for g in &groups {
                rewrite::apply(&mut b, g);
            }
            if self.aggressive {
                for &l in &launches {
                    let region = l.body(&b);
                    if let Some(block) = b.body().entry_block(region) {
                        lanes::lift(&mut b, block, self.width as usize);
                    }
                }
            }
        }
        for (pos, message) in remarks {
            op.emit(Diagnostic::remark(pos, message));
        }
        op.add_statistic(
            "num-vector-accesses",
            "Groups of scalar accesses made one vector access",
            groups.len() as u64,
        );
        if !changed {
            am.preserve_all();
        }
        Ok(())
    }
}
