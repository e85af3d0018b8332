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

fn op_name<'a>(ctx: &'a Context, body: &Body, op: OpId) -> &'a str {
    ctx.op_name_str(body.op_name(op))
}
