//! The permutation of perfect loop bands (MLIR's `permuteLoops` in
//! `Affine/LoopUtils`; the bands come from [`super::loop_bands`]), the memory ops of a loop body,
//! and the dependences of a band as distance ranges along its loops.
//!
//! Used by `affine-loop-interchange`; the dependence part also by
//! `affine-loop-distribute`.

use crate::affine::analysis::domain::enclosing_affine_ops;
use crate::affine::analysis::{
    dependence_kind, DependenceComponent, DependenceKind, DependenceResult, MemRefAccesses, Precision,
};
use crate::affine::ir::AffineBound;
use crate::affine::{AffineForOp, AffineParallelOp};
use lf_ir::builder::Builder;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::view::{Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, Value};

/// Whether `op` is a statement for the dependence checks: an op without
/// regions that reads, writes or frees memory, or whose effects are unknown.
pub fn touches_memory(ctx: &Context, body: &Body, op: OpId) -> bool {
    if !body.regions(op).is_empty() {
        return false;
    }
    match memory_effects(ctx, body, op) {
        None => true,
        Some(effects) => effects
            .iter()
            .any(|e| matches!(e.effect, Effect::Read | Effect::Write | Effect::Free)),
    }
}

/// The ops nested in `op` (not `op` itself) that touch memory
/// ([`touches_memory`]), in program order.
pub fn memory_ops_in(ctx: &Context, body: &Body, op: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    walk(body, op, WalkOrder::PreOrder, &mut |b, o| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        if o != op && touches_memory(ctx, body, o) {
            out.push(o);
        }
        WalkControl::Advance
    });
    out
}

/// The loop variables of the iteration domain of `op`, outermost first, as
/// the dependence analysis numbers them: the induction variables of the
/// unbroken chain of `affine.for`/`affine.parallel`/`affine.if` ops around
/// it (MLIR's `getEnclosingAffineOps`; an `affine.if` adds none).
pub fn domain_loop_vars(ctx: &Context, body: &Body, op: OpId) -> Vec<Value> {
    let ir = (ctx, body);
    let mut out = Vec::new();
    for p in enclosing_affine_ops(ctx, body, op) {
        if let Some(f) = AffineForOp::cast(&ir, p) {
            out.push(f.iv(&ir));
        } else if let Some(par) = AffineParallelOp::cast(&ir, p) {
            out.extend(par.ivs(&ir));
        }
    }
    out
}

/// A dependence carried by a loop of a band: the pair of ops, the depth
/// asked (as [`MemRefAccesses::check`] numbers it), where the band's loops
/// start among the common loops, and the distance ranges along the band.
#[derive(Clone, Debug)]
pub struct BandDependence {
    /// The source op.
    pub src: OpId,
    /// The destination op.
    pub dst: OpId,
    /// The depth of the check.
    pub depth: usize,
    /// The position of the band's outermost loop among the common loops.
    pub offset: usize,
    /// The distance ranges along the band's loops, outermost first.
    pub components: Vec<DependenceComponent>,
}

/// Why the dependences of a band could not be computed: the op and the
/// reason (for a remark).
pub type BandDependenceError = (OpId, String);

/// The dependences carried by the loops of `band` (induction variables
/// `band_ivs`, outermost first, consecutive loops of the nest) between the
/// ops `ops` inside it: for each ordered pair of ops that touch memory and
/// each depth carried by a band loop, the distance ranges along the band's
/// loops, answered with `precision` ([`Precision::MlirCompatible`] is
/// faster and sound: its ranges contain the exact ones). Dependences carried by loops inside the band or
/// loop-independent ones have zero distance along every band loop and are
/// left out.
pub fn band_dependences(
    cache: &MemRefAccesses,
    ctx: &Context,
    body: &Body,
    band_ivs: &[Value],
    ops: &[OpId],
    precision: Precision,
) -> Result<Vec<BandDependence>, BandDependenceError> {
    let n = band_ivs.len();
    let dims: Vec<Vec<Value>> = ops.iter().map(|&o| domain_loop_vars(ctx, body, o)).collect();
    let mut out = Vec::new();
    for (i, &src) in ops.iter().enumerate() {
        for (j, &dst) in ops.iter().enumerate() {
            match dependence_kind(ctx, body, src, dst) {
                None | Some(DependenceKind::Input) => continue,
                Some(_) => {}
            }
            // The band's loops must be the same common loops of both.
            let idx = match dims[i].iter().position(|&v| v == band_ivs[0]) {
                Some(k) if dims[i].get(k..k + n) == Some(band_ivs) && dims[j].get(k..k + n) == Some(band_ivs) => k,
                _ => {
                    return Err((
                        src,
                        "the access is not inside the band's loops as the dependence analysis sees them".into(),
                    ))
                }
            };
            for depth in idx + 1..=idx + n {
                match cache.check(ctx, body, src, dst, depth, precision, true) {
                    DependenceResult::NoDependence => {}
                    DependenceResult::HasDependence { components } => {
                        let Some(c) = components.get(idx..idx + n) else {
                            return Err((src, "a dependence without distances along the band".into()));
                        };
                        out.push(BandDependence {
                            src,
                            dst,
                            depth,
                            offset: idx,
                            components: c.to_vec(),
                        });
                    }
                    DependenceResult::Failure { reason } => return Err((src, reason)),
                }
            }
        }
    }
    Ok(out)
}

/// Whether every dependence (distance ranges along the band's loops,
/// outermost first) stays lexicographically positive when loop `i` moves to
/// position `perm[i]` (MLIR's `checkLoopInterchangeDependences`: in the new
/// order, the first component whose lower bound is positive makes the
/// vector positive; a negative or unbounded lower bound before it makes the
/// permutation illegal).
pub fn permutation_keeps_dependences(deps: &[Vec<DependenceComponent>], perm: &[usize]) -> bool {
    let inv = inverse(perm);
    deps.iter().all(|comps| {
        for &q in &inv {
            match comps[q].lb {
                None => return false,
                Some(lb) if lb > 0 => return true,
                Some(lb) if lb < 0 => return false,
                Some(_) => {}
            }
        }
        true
    })
}

/// The inverse of a permutation: `inv[perm[i]] = i`.
pub fn inverse(perm: &[usize]) -> Vec<usize> {
    let mut inv = vec![0; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inv[p] = i;
    }
    inv
}

/// Whether `perm` is a permutation of `0..perm.len()`.
pub fn is_permutation(perm: &[usize]) -> bool {
    let mut seen = vec![false; perm.len()];
    perm.iter()
        .all(|&p| p < perm.len() && !std::mem::replace(&mut seen[p], true))
}

/// The first pair `(outer, inner)` of band positions such that loop
/// `inner`'s bounds use the induction variable of loop `outer` and the
/// permutation puts `inner` outside `outer` (a non-rectangular band the
/// permutation cannot keep), if any.
pub fn bound_conflict<'c>(ir: &impl Ir<'c>, band: &[AffineForOp], perm: &[usize]) -> Option<(usize, usize)> {
    let ivs: Vec<Value> = band.iter().map(|l| l.iv(ir)).collect();
    for (inner, l) in band.iter().enumerate() {
        let operands = l.lower_bound_operands(ir).into_iter().chain(l.upper_bound_operands(ir));
        for v in operands {
            if let Some(outer) = ivs.iter().position(|&iv| iv == v) {
                if perm[outer] > perm[inner] {
                    return Some((outer, inner));
                }
            }
        }
    }
    None
}

/// Permutes the perfect band `band` (outermost first): loop `i` moves to
/// position `perm[i]` (MLIR's `permuteLoops` convention). The loop ops stay
/// where they are and exchange their headers: the op at position `p` takes
/// the bounds, step and location of loop `perm⁻¹[p]`, and the uses of each
/// induction variable move with it. The caller checks legality
/// ([`permutation_keeps_dependences`], [`bound_conflict`]) and that no
/// band loop carries values.
pub fn permute_band(b: &mut Builder<'_>, band: &[AffineForOp], perm: &[usize]) {
    let n = band.len();
    debug_assert!(n == perm.len() && is_permutation(perm));
    let inv = inverse(perm);
    let ivs: Vec<Value> = band.iter().map(|l| l.iv(b)).collect();
    let band_ops: Vec<OpId> = band.iter().map(|l| l.op()).collect();
    let map_iv = |v: Value| match ivs.iter().position(|&iv| iv == v) {
        Some(q) => ivs[perm[q]],
        None => v,
    };
    let remap = |bound: AffineBound| AffineBound {
        map: bound.map,
        operands: bound.operands.into_iter().map(map_iv).collect(),
    };
    // Everything is read before anything changes.
    let headers: Vec<(AffineBound, AffineBound, i64, lf_ir::Location)> = band
        .iter()
        .map(|l| {
            (
                remap(l.lower_bound(b)),
                remap(l.upper_bound(b)),
                l.step(b),
                b.body().op_loc(l.op()),
            )
        })
        .collect();
    let uses: Vec<Vec<(OpId, usize)>> = ivs
        .iter()
        .map(|&iv| {
            let body = b.body();
            body.uses(iv)
                .map(|u| (body.use_owner(u), body.use_operand_index(u)))
                .filter(|(owner, _)| !band_ops.contains(owner))
                .collect()
        })
        .collect();
    for p in 0..n {
        let (lb, ub, step, loc) = headers[inv[p]].clone();
        let l = band[p];
        l.set_lower_bound(b, lb);
        l.set_upper_bound(b, ub);
        l.set_step(b, step);
        b.modify_in_place(l.op(), |_, body| body.set_op_loc(l.op(), loc));
    }
    for (q, list) in uses.iter().enumerate() {
        let new_iv = ivs[perm[q]];
        for &(owner, index) in list {
            b.modify_in_place(owner, |_, body| body.set_operand(owner, index, new_iv));
        }
    }
}
