//! `affine-loop-normalize`: every `affine.for` and `affine.parallel` gets
//! lower bound 0 and step 1, as `mlir-opt --affine-loop-normalize` does
//! (`AffineLoopNormalize.cpp`, `normalizeAffineFor` and
//! `normalizeAffineParallel` in `Affine/Utils/Utils.cpp`).
//!
//! Loops are visited in post-order (inner loops first). A loop
//! `for %i = lb to ub step s` becomes `for %n = 0 to (ub - lb) ceildiv s`,
//! with `%i = lb + %n * s` computed by an `affine.apply` at the start of
//! its body (the map composed and canonicalized as MLIR's
//! `AffineValueMap::difference` does). With `promote-single-iter`, a loop
//! that runs exactly once is replaced by its body first.

use crate::affine::utils::promote_single_iteration::promote_if_single_iteration;
use crate::affine::utils::trip_count_bound::bound_difference;
use crate::affine::{AffineApplyOp, AffineBound, AffineForOp, AffineParallelOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{OpId, Value};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `affine-loop-normalize`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-loop-normalize",
    summary: "Apply normalization transformations to affine loop-like ops",
    description: "Rewrites every `affine.for` and `affine.parallel` (inner loops first) to run from 0 \
with step 1, as `mlir-opt --affine-loop-normalize` does; the output is mlir-opt's. \
`affine.for %i = lb to ub step s` becomes `affine.for %n = 0 to (ub - lb) ceildiv s` (one result \
per result of a `min` upper bound), and an `affine.apply` at the start of the body computes \
`%i = lb + %n * s` for the body's uses. A loop already normalized is left alone, and so is a \
loop whose lower bound is a `max` of several results (no remark: MLIR's behaviour; lf emits a \
remark with `remarks`). An `affine.parallel` is normalized the same way per dimension (its \
`affine.apply` ops are not canonicalized, as in MLIR), unless one of its bounds is a `min` or \
`max`. With `promote-single-iter`, an `affine.for` that runs exactly once (its trip count, \
computed from the difference of its bounds, is 1) is replaced by its body: the induction \
variable becomes the lower bound (an `arith.constant` at the start of the function for a \
constant one).",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "promote-single-iter",
            kind: OptionKind::Bool,
            default: "false",
            help: "Promote single iteration loops",
        },
        PassOption {
            name: "remarks",
            kind: OptionKind::Bool,
            default: "false",
            help: "Remark on each loop left unnormalized, saying why (lf only)",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(AffineLoopNormalize {
        promote_single_iter: opts.bool("promote-single-iter"),
        remarks: opts.bool("remarks"),
    }))
}

/// The `affine-loop-normalize` pass.
pub struct AffineLoopNormalize {
    /// Whether loops that run once are replaced by their body.
    pub promote_single_iter: bool,
    /// Whether loops left alone get a remark.
    pub remarks: bool,
}

impl Pass for AffineLoopNormalize {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let mut loops: Vec<OpId> = Vec::new();
        let ctx = op.ctx();
        walk_regions(op.body(), &regions, WalkOrder::PostOrder, &mut |b, o| {
            let ir = (ctx, b);
            if AffineForOp::isa(&ir, o) || AffineParallelOp::isa(&ir, o) {
                loops.push(o);
            }
            WalkControl::Advance
        });
        let mut changed = 0u64;
        {
            let mut b = op.builder();
            for l in loops {
                if b.body().is_erased(l) {
                    continue;
                }
                if let Some(p) = AffineParallelOp::cast(&b, l) {
                    changed += u64::from(normalize_affine_parallel(&mut b, p));
                } else if let Some(f) = AffineForOp::cast(&b, l) {
                    match normalize_affine_for(&mut b, f, self.promote_single_iter) {
                        Normalized::Changed => changed += 1,
                        Normalized::Already => {}
                        Normalized::MaxLowerBound if self.remarks => {
                            b.remark(l, "not normalized: the lower bound is a max of several results")
                        }
                        Normalized::MaxLowerBound => {}
                    }
                }
            }
        }
        op.add_statistic("num-normalized", "Loops normalized or promoted", changed);
        if changed == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}

/// What [`normalize_affine_for`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Normalized {
    /// The loop was normalized (or promoted).
    Changed,
    /// The loop was already normalized.
    Already,
    /// The lower bound has several results: left alone.
    MaxLowerBound,
}

/// Normalizes `for_op` (MLIR's `normalizeAffineFor`); with `promote`, a
/// loop that runs once is replaced by its body instead (constants for its
/// induction variable go at the start of the function's entry block).
pub fn normalize_affine_for(b: &mut Builder<'_>, for_op: AffineForOp, promote: bool) -> Normalized {
    if promote && promote_if_single_iteration(b, for_op) {
        return Normalized::Changed;
    }
    let step = for_op.step(b);
    if for_op.constant_lower_bound(b) == Some(0) && step == 1 {
        return Normalized::Already;
    }
    let lb = for_op.lower_bound(b);
    if lb.map.num_results() != 1 {
        return Normalized::MaxLowerBound;
    }
    let ub = for_op.upper_bound(b);
    let ctx = b.ctx();
    let splat = vec![lb.map.result(0).clone(); ub.map.num_results()];
    let padded = AffineBound::map(
        AffineMap::new(lb.map.num_dims(), lb.map.num_symbols(), splat),
        &lb.operands,
    );
    let diff = bound_difference(ctx, b.body(), &ub, &padded);
    let diff = crate::affine::utils::trip_count_bound::canonical(ctx, b.body(), diff.map, diff.operands.to_vec());
    let n = diff.map.num_results() as u32;
    let scale_down = AffineMap::new(n, 0, (0..n).map(|i| AffineExpr::dim(i).ceil_div_const(step)).collect());
    let new_ub = scale_down.compose(&diff.map);
    for_op.set_upper_bound(b, AffineBound::map(new_ub, &diff.operands));
    for_op.set_lower_bound(b, AffineBound::constant(0));
    for_op.set_step(b, 1);
    // %old = lb - (-%new * step)
    let iv = for_op.iv(b);
    let scale_iv = AffineBound::map(
        AffineMap::new(1, 0, vec![AffineExpr::dim(0).neg().mul_const(step)]),
        &[iv],
    );
    let old = bound_difference(ctx, b.body(), &lb, &scale_iv);
    let old = crate::affine::utils::trip_count_bound::canonical(ctx, b.body(), old.map, old.operands.to_vec());
    let loc = b.body().op_loc(for_op.op());
    let block = for_op.region_block(b);
    let apply = b.guarded(|b| {
        b.set_loc(loc);
        b.set_insertion_point_to_start(block);
        AffineApplyOp::build(b, &old.operands, old.map)
    });
    let v: Value = apply.result(b);
    b.replace_all_uses_except(iv, v, apply.op());
    Normalized::Changed
}

/// Normalizes an `affine.parallel` without `min`/`max` bounds (MLIR's
/// `normalizeAffineParallel`); returns whether it changed.
pub fn normalize_affine_parallel(b: &mut Builder<'_>, op: AffineParallelOp) -> bool {
    let (lg, ug) = (op.lower_bound_groups(b), op.upper_bound_groups(b));
    if lg.iter().chain(&ug).any(|g| *g != 1) {
        return false;
    }
    let lb_map = op.lower_bounds_map(b).clone();
    let steps = op.step_values(b);
    let normalized = steps
        .iter()
        .zip(lb_map.results())
        .all(|(s, e)| *s == 1 && e.as_constant() == Some(0));
    if normalized {
        return false;
    }
    let (lb_ops, ub_ops) = op.bound_operands(b);
    let ub_map = op.upper_bounds_map(b).clone();
    let ctx = b.ctx();
    let ranges = bound_difference(
        ctx,
        b.body(),
        &AffineBound::map(ub_map, &ub_ops),
        &AffineBound::map(lb_map.clone(), &lb_ops),
    );
    let ivs = op.ivs(b);
    let block = op.region_block(b);
    let loc = b.body().op_loc(op.op());
    let nd = lb_map.num_dims();
    let mut ub_exprs = Vec::new();
    let first = b.body().first_op(block);
    for (i, step) in steps.iter().enumerate() {
        ub_exprs.push(ranges.map.result(i).ceil_div_const(*step));
        let expr = lb_map.result(i).add(&AffineExpr::dim(nd).mul_const(*step));
        let map = AffineMap::new(nd + 1, lb_map.num_symbols(), vec![expr]);
        let mut operands: Vec<Value> = lb_ops[..nd as usize].to_vec();
        operands.push(ivs[i]);
        operands.extend_from_slice(&lb_ops[nd as usize..]);
        let apply = b.guarded(|b| {
            b.set_loc(loc);
            match first {
                Some(f) => b.set_insertion_point_before(f),
                None => b.set_insertion_point_to_end(block),
            }
            AffineApplyOp::build(b, &operands, map)
        });
        let v = apply.result(b);
        b.replace_all_uses_except(ivs[i], v, apply.op());
    }
    let n = steps.len();
    let ones: Vec<i64> = vec![1; n];
    op.set_step_values(b, &ones);
    op.set_lower_bounds_map(b, AffineMap::get_multi_constant_map(&vec![0; n]));
    op.set_upper_bounds_map(
        b,
        AffineMap::new(ranges.map.num_dims(), ranges.map.num_symbols(), ub_exprs),
    );
    op.set_map_operands(b, &ranges.operands);
    true
}
