//! `reorder=true` (the seed's future work 2): reorders the phases of a
//! launch to lower the number of swap arrays.
//!
//! Legal orders are the topological orders of the phases' dependences:
//! two phases that touch a common memref (workgroup or global) where one of
//! them writes keep their relative order, and a phase that uses a value
//! another phase yields comes after it. Among them, a greedy list scheduling
//! picks at each step the ready phase that frees the most buffers minus the
//! buffers it makes live (a buffer is live from the first phase that touches
//! it to the last one), ties broken by textual order. The new order is kept
//! only when it needs fewer arrays than the textual order.

use super::allocate::{array_count, LiveRange};
use crate::affine::{AffineApplyOp, AffineIfOp};
use crate::arith::ArithConstantOp;
use crate::gpu::utils::phase_barriers::top_level_ancestor;
use crate::gpu::{GpuBarrierOp, GpuLaunchOp, GpuTerminatorOp};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{OpId, Value};
use std::collections::{HashMap, HashSet};

/// The phases of a launch body and what constrains their order.
pub struct Phases {
    /// The phases (top-level `affine.if`s), in textual order.
    pub ops: Vec<OpId>,
    /// `preds[q]`: the phases that must run before phase `q`.
    pub preds: Vec<Vec<usize>>,
}

/// The phases of the launch (`tops` are its top-level ops), or why it is not
/// a sequence of `affine.if` phases between constants and `affine.apply`s.
pub fn phases(
    b: &Builder<'_>,
    launch: GpuLaunchOp,
    tops: &[OpId],
    effects: &HashMap<OpId, (HashSet<Value>, HashSet<Value>)>,
) -> Result<Phases, String> {
    let body = b.body();
    let mut ops = Vec::new();
    for &t in tops {
        if AffineIfOp::isa(b, t) {
            ops.push(t);
        } else if !(GpuBarrierOp::isa(b, t)
            || GpuTerminatorOp::isa(b, t)
            || ArithConstantOp::isa(b, t)
            || AffineApplyOp::isa(b, t))
        {
            return Err(format!(
                "'{}' at the top level of the body is not a phase",
                b.ctx().op_name_str(body.op_name(t))
            ));
        }
    }
    let index: HashMap<OpId, usize> = ops.iter().enumerate().map(|(k, &t)| (t, k)).collect();
    let mut preds = vec![Vec::new(); ops.len()];
    let none = (HashSet::new(), HashSet::new());
    for (p, &po) in ops.iter().enumerate() {
        // Values yielded by a phase: their users' phases come after it.
        for r in body.results(po) {
            for u in body.uses(r) {
                let user = top_level_ancestor(body, launch.op(), body.use_owner(u));
                match user.and_then(|o| index.get(&o)) {
                    Some(&q) if q != p => preds[q].push(p),
                    Some(_) => {}
                    None => return Err("a value a phase yields is used outside the phases".into()),
                }
            }
        }
        let (pr, pw) = effects.get(&po).unwrap_or(&none);
        for (q, qo) in ops.iter().enumerate().skip(p + 1) {
            let (qr, qw) = effects.get(qo).unwrap_or(&none);
            let conflict = pw.iter().any(|m| qr.contains(m) || qw.contains(m)) || pr.iter().any(|m| qw.contains(m));
            if conflict {
                preds[q].push(p);
            }
        }
    }
    for (q, list) in preds.iter_mut().enumerate() {
        list.sort_unstable();
        list.dedup();
        if list.iter().any(|&p| p >= q) {
            return Err("a phase uses a value of a later phase".into());
        }
    }
    Ok(Phases { ops, preds })
}

/// The live ranges of `buffers` (each given by its type and the phases
/// that touch it) under `order` (a permutation of the phases).
pub fn ranges<T: Copy>(buffers: &[(T, Vec<usize>)], order: &[usize]) -> Vec<LiveRange<T>> {
    let mut pos = vec![0; order.len()];
    for (k, &p) in order.iter().enumerate() {
        pos[p] = k;
    }
    buffers
        .iter()
        .map(|(ty, touch)| LiveRange {
            ty: *ty,
            first: touch.iter().map(|&p| pos[p]).min().unwrap_or(0),
            last: touch.iter().map(|&p| pos[p]).max().unwrap_or(0),
        })
        .collect()
}

/// The greedy list scheduling of the module doc: a legal order of the
/// phases.
pub fn schedule<T>(preds: &[Vec<usize>], buffers: &[(T, Vec<usize>)]) -> Vec<usize> {
    let n = preds.len();
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    // Unscheduled phases touching each buffer, and whether it started.
    let mut left: Vec<usize> = buffers.iter().map(|(_, t)| t.len()).collect();
    let mut started = vec![false; buffers.len()];
    while order.len() < n {
        let mut best: Option<(i64, usize)> = None;
        for q in (0..n).filter(|&q| !done[q] && preds[q].iter().all(|&p| done[p])) {
            let mut score = 0i64;
            for (i, (_, touch)) in buffers.iter().enumerate() {
                if !touch.contains(&q) {
                    continue;
                }
                let ends = left[i] == 1;
                match (started[i], ends) {
                    (true, true) => score += 1,
                    (false, false) => score -= 1,
                    _ => {}
                }
            }
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, q));
            }
        }
        let Some((_, q)) = best else { break };
        done[q] = true;
        order.push(q);
        for (i, (_, touch)) in buffers.iter().enumerate() {
            if touch.contains(&q) {
                left[i] -= 1;
                started[i] = true;
            }
        }
    }
    order
}

/// The order to use and the array counts before and after, when the
/// scheduling lowers the count; `None` when it does not.
pub fn better_order<T: Copy + Eq + std::hash::Hash>(
    preds: &[Vec<usize>],
    buffers: &[(T, Vec<usize>)],
) -> Option<(Vec<usize>, usize, usize)> {
    let textual: Vec<usize> = (0..preds.len()).collect();
    let before = array_count(&ranges(buffers, &textual));
    let order = schedule(preds, buffers);
    if order.len() != preds.len() {
        return None;
    }
    let after = array_count(&ranges(buffers, &order));
    (after < before).then_some((order, before, after))
}

/// Moves the phases to the end of the body (before its terminator) in
/// `order`; the constants and `affine.apply`s stay in front of them.
pub fn apply(b: &mut Builder<'_>, terminator: OpId, phases: &[OpId], order: &[usize]) {
    for &p in order {
        b.move_op_before(phases[p], terminator);
    }
}

#[cfg(test)]
mod tests {
    use super::{better_order, schedule};

    #[test]
    fn independent_definitions_are_consumed_early() {
        // Phases 0,1,2 define A,B,C; phases 3,4,5 read A,B,C.
        // Textual order needs 3 arrays; 0,3,1,4,2,5 needs 1.
        let ty = 0u8;
        let buffers = vec![(ty, vec![0, 3]), (ty, vec![1, 4]), (ty, vec![2, 5])];
        let preds = vec![vec![], vec![], vec![], vec![0], vec![1], vec![2]];
        assert_eq!(schedule(&preds, &buffers), vec![0, 3, 1, 4, 2, 5]);
        let (_, before, after) = better_order(&preds, &buffers).unwrap();
        assert_eq!((before, after), (3, 1));
    }

    #[test]
    fn dependences_are_kept() {
        let ty = 0u8;
        let buffers = vec![(ty, vec![0, 1]), (ty, vec![1, 2])];
        let preds = vec![vec![], vec![0], vec![1]];
        assert_eq!(schedule(&preds, &buffers), vec![0, 1, 2]);
        assert!(better_order(&preds, &buffers).is_none());
    }
}
