//! Loops that can run in parallel but are not outermost in their perfect
//! nest (after `ihop-pre`'s interchange has put the unit-stride loop
//! innermost, `C[i][j] += A[i][k] * B[k][j]` runs as `i, k, j`, and only
//! `i` is a parallel prefix) move outward before mapping, so that the band
//! holds every loop that can be mapped.
//!
//! A loop of the nest moves when every dependence between the nest's
//! memory ops has distance exactly 0 along it (lf's exact dependence
//! analysis, distances along all the nest's loops): such a loop can run
//! its iterations on different threads whatever the loops around it do,
//! and moving it outward keeps every dependence vector as it was with a 0
//! in front. The moved loops keep their order, and so do the others; a
//! nest whose bounds do not allow it (a moved loop's bounds use the
//! induction variable of a loop it would move above), whose loops carry
//! values, or whose dependences cannot be analysed is left as it is.

use crate::affine::analysis::{MemRefAccesses, Precision};
use crate::affine::utils::loop_band::{band_dependences, bound_conflict, memory_ops_in, permutation_keeps_dependences};
use crate::affine::AffineForOp;
use lf_ir::view::OpView;
use lf_ir::{Body, Context, Value};

/// The permutation (MLIR's `permuteLoops` convention: loop `i` moves to
/// position `perm[i]`) that moves up to `max_depth` loops of the perfect
/// nest `nest` that carry no dependence to its front, when it maps more
/// loops than the nest's parallel prefix of `prefix` loops.
pub fn hoisting_permutation(
    accesses: &MemRefAccesses,
    ctx: &Context,
    body: &Body,
    nest: &[AffineForOp],
    prefix: usize,
    max_depth: usize,
) -> Option<Vec<usize>> {
    let ir = (ctx, body);
    if nest.len() < 2 || prefix >= max_depth.min(nest.len()) || nest.iter().any(|f| !f.inits(&ir).is_empty()) {
        return None;
    }
    let ivs: Vec<Value> = nest.iter().map(|f| f.iv(&ir)).collect();
    let ops = memory_ops_in(ctx, body, nest[0].op());
    let deps = band_dependences(accesses, ctx, body, &ivs, &ops, Precision::Exact).ok()?;
    let free: Vec<usize> = (0..nest.len())
        .filter(|&q| {
            deps.iter()
                .all(|d| d.components[q].lb == Some(0) && d.components[q].ub == Some(0))
        })
        .take(max_depth)
        .collect();
    if free.len() <= prefix {
        return None;
    }
    let order: Vec<usize> = free
        .iter()
        .copied()
        .chain((0..nest.len()).filter(|q| !free.contains(q)))
        .collect();
    let mut perm = vec![0; nest.len()];
    for (pos, &q) in order.iter().enumerate() {
        perm[q] = pos;
    }
    let components: Vec<Vec<_>> = deps.iter().map(|d| d.components.clone()).collect();
    (bound_conflict(&ir, nest, &perm).is_none() && permutation_keeps_dependences(&components, &perm)).then_some(perm)
}
