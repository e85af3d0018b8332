//! Unrolling `affine.for` loops (MLIR's `loopUnrollByFactor`,
//! `loopUnrollFull`, `loopUnrollUpToFactor` and the helpers they share:
//! cloning a loop body with its induction variable remapped, and the
//! cleanup loop for the iterations a factor does not divide).
//!
//! Each function returns `Err(reason)` where MLIR's returns `failure()`
//! (the loop is left as it was), with a sentence for a remark.

use super::promote_single_iteration::promote_if_single_iteration;
use super::trip_count::cleanup_loop_lower_bound;
use super::trip_count_bound::{constant_trip_count, largest_divisor_of_trip_count};
use crate::affine::{AffineApplyOp, AffineBound, AffineForOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::view::OpView;
use lf_ir::{BlockId, OpId, Value};

/// Why a loop was left as it was.
pub type Declined = String;

/// Appends `factor - 1` copies of the ops of `block` (all but its
/// terminator) before the terminator, as MLIR's `generateUnrolledLoop`:
/// copy `i` reads `iv_remap(b, i)` instead of `iv` (asked only while `iv`
/// has uses; new ops go before the terminator) and the values the previous
/// copy yields instead of the carried block arguments `iter_args`; the
/// terminator finally yields the last copy's values.
pub fn clone_body_with_iv_remapped(
    b: &mut Builder<'_>,
    block: BlockId,
    iv: Value,
    factor: u64,
    iter_args: &[Value],
    mut iv_remap: impl FnMut(&mut Builder<'_>, u64) -> Value,
) {
    let term = b
        .body()
        .terminator(block)
        .expect("a loop body ends with its terminator");
    let originals: Vec<OpId> = b.body().block_ops(block).filter(|&o| o != term).collect();
    let yielded: Vec<Value> = b.body().operands(term).collect();
    let mut last = yielded.clone();
    // Room for every copy at once: a parsed body grows by a quarter past its
    // estimate, and unrolling by 4 would otherwise copy the arenas five times.
    let per_copy: usize = originals.iter().map(|&o| lf_ir::walk::count_ops(b.body(), o)).sum();
    b.body_mut()
        .reserve_ops(per_copy.saturating_mul(factor.saturating_sub(1) as usize));
    b.guarded(|b| {
        b.set_insertion_point_before(term);
        // Each copy maps the results of the ops it clones (and the iv and iter_args).
        let mapped = per_copy + iter_args.len() + 1;
        for i in 1..factor {
            let mut map = ValueMap::with_capacity(mapped);
            for (a, v) in iter_args.iter().zip(&last) {
                map.map(*a, *v);
            }
            if b.body().has_uses(iv) {
                let v = iv_remap(b, i);
                map.map(iv, v);
            }
            for &op in &originals {
                b.clone_op(op, &mut map);
            }
            for (j, y) in yielded.iter().enumerate() {
                let defined_here = b
                    .body()
                    .defining_op(*y)
                    .is_some_and(|d| b.body().op_block(d) == Some(block));
                if defined_here {
                    last[j] = map.lookup(*y);
                }
            }
        }
    });
    b.modify_in_place(term, |_, body| body.set_operands(term, &last));
}

/// `affine.apply (d0) -> (d0 + offset)` of `iv` at the insertion point.
pub fn bump_iv(b: &mut Builder<'_>, iv: Value, offset: i64) -> Value {
    let map = AffineMap::new(1, 0, vec![AffineExpr::dim(0).add_const(offset)]);
    AffineApplyOp::build(b, &[iv], map).result(b)
}

/// Splits off the last `trip count mod factor` iterations of `for_op` into
/// a copy of it right after it (MLIR's `generateCleanupLoopForUnroll`): the
/// copy starts at [`cleanup_loop_lower_bound`] (never below the loop's own
/// lower bound, where MLIR's may start), takes the loop's results as
/// its initial values and gives the results the loop's users now read; the
/// loop stops where the copy starts. The copy is promoted when it runs
/// once. `None` (nothing changed) without a trip count map.
///
/// Unless `assume_nonnegative` (MLIR's bound, for callers that know the
/// trip count is not negative), a cleanup loop of a loop without a constant
/// trip count starts at `max(lb, MLIR's bound)`.
pub fn generate_cleanup_loop(
    b: &mut Builder<'_>,
    for_op: AffineForOp,
    factor: u64,
    assume_nonnegative: bool,
) -> Option<()> {
    let op = for_op.op();
    // The bound first: it needs the loop as it is, and changes nothing.
    // Unlike MLIR, the cleanup loop never starts below the loop's lower
    // bound unless the trip count is a known constant (a symbolic one may
    // be negative: see `cleanup_loop_lower_bound`).
    // The unrolled loop stops at MLIR's bound (below the lower bound, it
    // runs no iteration either way).
    let keep_lower_bound = !assume_nonnegative && constant_trip_count(b, for_op).is_none();
    let lb = cleanup_loop_lower_bound(b, for_op, factor, keep_lower_bound)?;
    let stop = if keep_lower_bound {
        cleanup_loop_lower_bound(b, for_op, factor, false)?
    } else {
        lb.clone()
    };
    let cleanup = b.guarded(|b| {
        b.set_insertion_point_after(op);
        let mut map = ValueMap::default();
        AffineForOp::from_op_unchecked(b.clone_op(op, &mut map))
    });
    let results: Vec<Value> = b.body().results(op).collect();
    let cleanup_results: Vec<Value> = b.body().results(cleanup.op()).collect();
    let num_control = b.body().num_operands(cleanup.op()) - results.len();
    for (i, (r, cr)) in results.iter().zip(&cleanup_results).enumerate() {
        b.replace_all_uses_with(*r, *cr);
        // MLIR's `replaceUsesOfWith(init, result)` on the copy's operands.
        let init = b.body().operand(cleanup.op(), num_control + i);
        let c = cleanup.op();
        b.modify_in_place(c, |_, body| {
            for k in 0..body.num_operands(c) {
                if body.operand(c, k) == init {
                    body.set_operand(c, k, *r);
                }
            }
        });
    }
    cleanup.set_lower_bound(b, AffineBound::map(lb.map, &lb.operands));
    promote_if_single_iteration(b, cleanup);
    for_op.set_upper_bound(b, AffineBound::map(stop.map, &stop.operands));
    Some(())
}

/// Unrolls `for_op` by `factor` (MLIR's `loopUnrollByFactor`): the step is
/// multiplied by `factor` and the body holds `factor` copies, copy `i`
/// reading `iv + i * step` and the values the previous copy yields; the
/// iterations a factor does not divide go to a cleanup loop (fully unrolled
/// instead when `cleanup_unroll`); a loop left with one iteration is
/// promoted. A factor of 1 only promotes a single-iteration loop; an empty
/// body is left alone. `assume_nonnegative`: see [`generate_cleanup_loop`].
pub fn loop_unroll_by_factor(
    b: &mut Builder<'_>,
    for_op: AffineForOp,
    factor: u64,
    cleanup_unroll: bool,
    assume_nonnegative: bool,
) -> Result<(), Declined> {
    assert!(factor > 0, "unroll factor must be positive");
    let trip_count = constant_trip_count(b, for_op);
    if factor == 1 {
        if trip_count == Some(1) && !promote_if_single_iteration(b, for_op) {
            return Err("not promoted: the single-iteration loop has a max lower bound".into());
        }
        return Ok(());
    }
    let block = for_op.region_block(b);
    if b.body().block_ops(block).nth(1).is_none() {
        return Ok(());
    }
    if let Some(tc) = trip_count.filter(|&tc| tc < factor) {
        if cleanup_unroll {
            return loop_unroll_full(b, for_op);
        }
        return Err(format!(
            "not unrolled: trip count {tc} is less than the unroll factor {factor}"
        ));
    }
    if !largest_divisor_of_trip_count(b, for_op).is_multiple_of(factor) {
        if for_op.lower_bound_map(b).num_results() != 1 || for_op.upper_bound_map(b).num_results() != 1 {
            return Err(format!(
                "not unrolled: the trip count may not be a multiple of {factor} and a max lower bound or min \
                 upper bound leaves no affine cleanup loop bound"
            ));
        }
        if cleanup_unroll {
            return loop_unroll_full(b, for_op);
        }
        generate_cleanup_loop(b, for_op, factor, assume_nonnegative)
            .expect("single-result bounds have a trip count map");
    }
    let step = for_op.step(b);
    let Some(new_step) = i64::try_from(factor).ok().and_then(|f| step.checked_mul(f)) else {
        return Err(format!("not unrolled: step {step} times {factor} overflows"));
    };
    let iter_args = for_op.region_iter_args(b);
    let iv = for_op.iv(b);
    let loc = b.body().op_loc(for_op.op());
    for_op.set_step(b, new_step);
    clone_body_with_iv_remapped(b, block, iv, factor, &iter_args, |b, i| {
        b.set_loc(loc);
        bump_iv(b, iv, i as i64 * step)
    });
    promote_if_single_iteration(b, for_op);
    Ok(())
}

/// Unrolls `for_op` completely (MLIR's `loopUnrollFull`): a loop with a
/// constant trip count `n > 1` is unrolled by `n`, one of a single
/// iteration promoted, one that never runs left alone.
pub fn loop_unroll_full(b: &mut Builder<'_>, for_op: AffineForOp) -> Result<(), Declined> {
    match constant_trip_count(b, for_op) {
        None => Err("not unrolled: the trip count is not a known constant".into()),
        Some(0) => Ok(()),
        Some(1) => match promote_if_single_iteration(b, for_op) {
            true => Ok(()),
            false => Err("not promoted: the single-iteration loop has a max lower bound".into()),
        },
        Some(n) => loop_unroll_by_factor(b, for_op, n, false, false),
    }
}

/// Unrolls `for_op` by `factor`, or by its constant trip count when that is
/// smaller (MLIR's `loopUnrollUpToFactor`). `assume_nonnegative`: see
/// [`generate_cleanup_loop`].
pub fn loop_unroll_up_to_factor(
    b: &mut Builder<'_>,
    for_op: AffineForOp,
    factor: u64,
    assume_nonnegative: bool,
) -> Result<(), Declined> {
    match constant_trip_count(b, for_op) {
        Some(0) => Err("not unrolled: the loop never runs".into()),
        Some(tc) if tc < factor => loop_unroll_by_factor(b, for_op, tc, false, assume_nonnegative),
        _ => loop_unroll_by_factor(b, for_op, factor, false, assume_nonnegative),
    }
}
