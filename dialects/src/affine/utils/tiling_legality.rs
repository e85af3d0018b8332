//! Whether reordering the iterations of a band of perfectly nested loops
//! into tiles keeps every memory dependence (the band is fully permutable:
//! every dependence's distance along every loop of the band is
//! non-negative), decided with lf's dependence analysis
//! ([`crate::affine::analysis`]).

use crate::affine::analysis::{DependenceResult, MemRefAccesses, Precision};
use crate::affine::{AffineForOp, AffineIfOp, AffineLoadOp, AffineStoreOp, AffineYieldOp};
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId};

/// The ops inside `root` that touch memory: affine loads and stores, and
/// any other op with memory effects other than allocation (or unknown
/// effects), loops, conditionals and their terminators excepted.
pub fn memory_ops(ctx: &Context, body: &Body, root: OpId) -> Vec<OpId> {
    let mut ops = Vec::new();
    walk(body, root, WalkOrder::PreOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        let ir = (ctx, b);
        if AffineLoadOp::isa(&ir, op) || AffineStoreOp::isa(&ir, op) {
            ops.push(op);
        } else if !(AffineForOp::isa(&ir, op) || AffineIfOp::isa(&ir, op) || AffineYieldOp::isa(&ir, op)) {
            let touches = match memory_effects(ctx, b, op) {
                None => true,
                Some(e) => e.iter().any(|e| e.effect != Effect::Alloc),
            };
            if touches {
                ops.push(op);
            }
        }
        WalkControl::Advance
    });
    ops
}

/// Why tiling `band` (outermost first, perfectly nested) could change the
/// program's meaning, or `None` when it cannot: a dependence carried by a
/// loop of the band whose distance along a deeper loop of the band may be
/// negative, or a memory access the analysis cannot see through. A band of
/// one loop is always legal (strip-mining keeps the order of iterations).
pub fn tiling_violation(ctx: &Context, body: &Body, accesses: &MemRefAccesses, band: &[AffineForOp]) -> Option<String> {
    if band.len() < 2 {
        return None;
    }
    let ops = memory_ops(ctx, body, band[0].op());
    for &src in &ops {
        for &dst in &ops {
            for depth in 1..band.len() {
                // MLIR's over-approximation first (its answers are cached for
                // `mlir_tiling_valid`); an exact check only where it objects.
                let first = accesses.check(ctx, body, src, dst, depth, Precision::MlirCompatible, true);
                if !violates(&first, depth, band.len()) {
                    continue;
                }
                match accesses.check(ctx, body, src, dst, depth, Precision::Exact, true) {
                    DependenceResult::NoDependence => {}
                    DependenceResult::Failure { reason } => {
                        return Some(format!("the dependences in the band cannot be analysed: {reason}"))
                    }
                    DependenceResult::HasDependence { components } => {
                        for (j, c) in components.iter().enumerate().take(band.len()).skip(depth) {
                            if c.lb.is_none_or(|lb| lb < 0) {
                                let (s, d) = (op_name(ctx, body, src), op_name(ctx, body, dst));
                                let dist = match c.lb {
                                    Some(lb) => format!("as low as {lb}"),
                                    None => "unbounded below".into(),
                                };
                                return Some(format!(
                                    "tiling would reverse a dependence from '{s}' to '{d}' carried by loop {depth} \
of the band (its distance along loop {} is {dist})",
                                    j + 1
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    None
}

/// Whether a dependence found at `depth` may have a negative distance
/// along a loop of the band deeper than `depth`, or could not be analysed.
fn violates(r: &DependenceResult, depth: usize, band_len: usize) -> bool {
    match r {
        DependenceResult::NoDependence => false,
        DependenceResult::Failure { .. } => true,
        DependenceResult::HasDependence { components } => components
            .iter()
            .take(band_len)
            .skip(depth)
            .any(|c| c.lb.is_none_or(|lb| lb < 0)),
    }
}

/// MLIR's `isTilingValid`, which `affine-loop-tile` applies before tiling a
/// band: for every pair of affine loads and stores inside the band and every
/// depth from 1 to one more than the band's length, a dependence (decided
/// as MLIR decides it) must have no component, along any loop common to the
/// two accesses, with a range `[lb, ub]` where `lb < ub < 0` (an unbounded
/// `lb` counts as `i64::MIN`, as MLIR stores it). (This is not a
/// legality test: it lets exact negative distances and ranges that reach 0
/// or above through; lf checks legality with [`tiling_violation`].)
pub fn mlir_tiling_valid(ctx: &Context, body: &Body, accesses: &MemRefAccesses, band: &[AffineForOp]) -> bool {
    let mut ops = Vec::new();
    walk(body, band[0].op(), WalkOrder::PreOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        let ir = (ctx, b);
        if AffineLoadOp::isa(&ir, op) || AffineStoreOp::isa(&ir, op) {
            ops.push(op);
        }
        WalkControl::Advance
    });
    for depth in 1..=band.len() + 1 {
        for &src in &ops {
            for &dst in &ops {
                if let DependenceResult::HasDependence { components } =
                    accesses.check(ctx, body, src, dst, depth, Precision::MlirCompatible, true)
                {
                    // MLIR stores an unbounded side as INT64_MIN / INT64_MAX.
                    let bad = components.iter().any(|c| {
                        let (lb, ub) = (c.lb.unwrap_or(i64::MIN), c.ub.unwrap_or(i64::MAX));
                        lb < ub && ub < 0
                    });
                    if bad {
                        return false;
                    }
                }
            }
        }
    }
    true
}

fn op_name<'a>(ctx: &'a Context, body: &Body, op: OpId) -> &'a str {
    ctx.op_name_str(body.op_name(op))
}
