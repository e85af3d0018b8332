//! `loop-invariant-code-motion`: hoists effect-free, speculatable ops whose
//! operands are defined outside `scf.for`, `affine.for`, `scf.parallel`
//! and `affine.parallel` loops to right before the loop, as MLIR's pass.

use lf_ir::interfaces::LoopLikeOp;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId};
use lf_pass::pass::{Anchor, Pass, PassInfo, PassOptions, PassResult, PassTarget};
use lf_pass::rewrite::effects::is_speculatable;
use lf_pass::rewrite::for_each_body_par;
use lf_pass::AnalysisManager;
use std::collections::VecDeque;

/// The registration record of `loop-invariant-code-motion`.
pub static INFO: PassInfo = PassInfo {
    name: "loop-invariant-code-motion",
    summary: "Hoist loop invariant instructions outside of the loop",
    description: "For each loop (`scf.for`, `affine.for`, `scf.parallel`, `affine.parallel`), \
innermost first, moves the ops of the loop body that have no side effects, are speculatable \
(not a division by a value that might be zero) and whose operands are all defined outside the \
loop to right before the loop, in their order; an op becomes invariant when the ops it uses \
are hoisted. Ops with regions stay. Like MLIR's pass, ops are hoisted even if the loop may run \
zero times, which is why only speculatable ops move.",
    anchor: Anchor::Any,
    options: &[],
    create,
};

fn create(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(Licm))
}

/// The `loop-invariant-code-motion` pass.
pub struct Licm;

impl Pass for Licm {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn class_name(&self) -> std::borrow::Cow<'static, str> {
        // MLIR's name of the pass, in IR dump headers.
        "LoopInvariantCodeMotion".into()
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let counts = for_each_body_par(op.body_mut(), &regions, &|body, regions| {
            Ok::<usize, ()>(hoist_in_body(ctx, body, regions))
        })
        .unwrap_or_default();
        let n: usize = counts.iter().sum();
        op.add_statistic("num-moved", "Ops hoisted out of loops", n as u64);
        if n == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}

/// Whether `op` is a loop: its declaration has the loop-like interface.
fn is_loop(ctx: &Context, body: &Body, op: OpId) -> bool {
    lf_ir::interfaces::loop_like(ctx, body, op).is_some()
}

/// Hoists invariant code out of every loop in `regions` of `body` (not in
/// nested isolated bodies); returns the number of ops moved.
pub fn hoist_in_body(ctx: &Context, body: &mut Body, regions: &[lf_ir::RegionId]) -> usize {
    let mut loops = Vec::new();
    for &r in regions {
        for b in body.region_blocks(r) {
            for op in body.block_ops(b) {
                walk(body, op, WalkOrder::PostOrder, &mut |wb, o| {
                    if std::ptr::eq(wb, &*body) && is_loop(ctx, wb, o) {
                        loops.push(o);
                    }
                    WalkControl::Advance
                });
            }
        }
    }
    loops.into_iter().map(|l| hoist_from_loop(ctx, body, l)).sum()
}

fn hoist_from_loop(ctx: &Context, body: &mut Body, lp: OpId) -> usize {
    let mut moved = 0;
    let mut work: VecDeque<OpId> = VecDeque::new();
    let regions = LoopLikeOp::cast(&(ctx, &*body), lp)
        .expect("a loop")
        .regions(&(ctx, &*body));
    for r in regions {
        for b in body.region_blocks(r) {
            work.extend(body.block_ops(b));
        }
    }
    while let Some(op) = work.pop_front() {
        if body.is_erased(op) || body.parent_op(op) != Some(lp) {
            continue;
        }
        let terminator = ctx
            .op_def(body.op_name(op))
            .is_some_and(|d| d.has(lf_ir::Traits::TERMINATOR));
        if terminator || body.num_regions(op) != 0 || !is_speculatable(ctx, body, op) {
            continue;
        }
        if body.operands(op).any(|v| body.is_defined_inside(v, lp)) {
            continue;
        }
        body.move_op_before(op, lp);
        moved += 1;
        for r in body.results(op).collect::<Vec<_>>() {
            for u in body.uses(r).collect::<Vec<_>>() {
                let user = body.use_owner(u);
                if body.parent_op(user) == Some(lp) {
                    work.push_back(user);
                }
            }
        }
    }
    moved
}
