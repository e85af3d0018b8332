//! Dead state of a merged loop: a carried value whose result is unused and
//! whose value only feeds its own next value (through pure ops of the
//! `after` block). The outer loop's copies of values the inner loop carries
//! are such values once the inner loop's state holds them (SYN-LM's four
//! accumulators): each would cost a register and a select per trip.

use crate::scf::{ScfConditionOp, ScfIfOp, ScfWhileOp, ScfYieldOp};
use lf_ir::builder::Builder;
use lf_ir::interfaces::memory_effects;
use lf_ir::view::OpView;
use lf_ir::{BlockId, OpId, Type, Value};
use rustc_hash::FxHashSet;

/// Removes the dead carried values of `w` (an `scf.while` whose condition
/// forwards its `before` arguments unchanged, as merged loops do); returns
/// the loop (rebuilt when anything was removed) and how many were removed.
pub fn prune_dead_state(b: &mut Builder<'_>, w: ScfWhileOp) -> (ScfWhileOp, usize) {
    let Some((before, after, cond, yield_op)) = parts(b, w) else {
        return (w, 0);
    };
    let n = b.body().block_args(before).len();
    let mut dead = Vec::new();
    let mut doomed: Vec<OpId> = Vec::new();
    let mut dropped: Vec<(OpId, usize)> = Vec::new();
    for k in 0..n {
        if let Some((ops, ifs)) = dead_component(b, w, before, after, cond, yield_op, k) {
            dead.push(k);
            doomed.extend(ops);
            dropped.extend(ifs);
        }
    }
    if dead.is_empty() {
        return (w, 0);
    }
    let keep: Vec<usize> = (0..n).filter(|k| !dead.contains(k)).collect();
    let inits = w.inits(b);
    let kept_inits: Vec<Value> = keep.iter().map(|&k| inits[k]).collect();
    let types: Vec<Type> = kept_inits.iter().map(|&v| b.body().value_type(v)).collect();
    b.set_insertion_point_before(w.op());
    b.set_loc_of(w.op());
    let new = ScfWhileOp::build_empty(b, &kept_inits, &types);
    let nb = b.create_block(new.before(b), &types);
    let na = b.create_block(new.after(b), &types);
    move_block(b, before, nb, &keep);
    move_block(b, after, na, &keep);
    b.set_insertion_point_to_end(nb);
    let c = ScfConditionOp::cast(b, cond).expect("checked");
    let (cv, cargs) = (c.condition(b), c.args(b));
    let kept: Vec<Value> = keep.iter().map(|&k| cargs[k]).collect();
    ScfConditionOp::build(b, cv, &kept);
    b.set_insertion_point_to_end(na);
    let yielded: Vec<Value> = b.body().operands(yield_op).collect();
    let kept: Vec<Value> = keep.iter().map(|&k| yielded[k]).collect();
    ScfYieldOp::build(b, &kept);
    b.erase_op(cond);
    b.erase_op(yield_op);
    let mut ifs: Vec<OpId> = dropped.iter().map(|&(i, _)| i).collect();
    ifs.dedup();
    for i in ifs {
        let n = b.body().num_results(i);
        let kept: Vec<usize> = (0..n).filter(|&p| !dropped.contains(&(i, p))).collect();
        let if_op = ScfIfOp::cast(b, i).expect("an scf.if");
        super::select::rebuild(b, if_op, &kept);
    }
    doomed.sort_unstable();
    doomed.dedup();
    let mut doomed: Vec<OpId> = doomed;
    doomed.sort_by_key(|&o| b.body().block_ops(na).position(|x| x == o));
    for &op in doomed.iter().rev() {
        b.erase_op(op);
    }
    let old: Vec<Value> = b.body().results(w.op()).collect();
    for (i, &k) in keep.iter().enumerate() {
        let r = b.body().result(new.op(), i);
        b.replace_all_uses_with(old[k], r);
    }
    b.erase_op(w.op());
    (new, dead.len())
}

/// The blocks and terminators of `w`, when its condition forwards the
/// `before` arguments in order.
fn parts(b: &Builder<'_>, w: ScfWhileOp) -> Option<(BlockId, BlockId, OpId, OpId)> {
    let body = b.body();
    let before = body.entry_block(w.before(b))?;
    let after = body.entry_block(w.after(b))?;
    let cond = body.terminator(before)?;
    let yield_op = body.terminator(after)?;
    let c = ScfConditionOp::cast(b, cond)?;
    let forwards = c.args(b).as_slice() == body.block_args(before);
    forwards.then_some((before, after, cond, yield_op))
}

/// What removing a dead component takes: the pure ops of the `after` block
/// that only compute it, and the `scf.if` results (if, position) it passes
/// through.
type DeadComponent = (Vec<OpId>, Vec<(OpId, usize)>);

/// The pure ops that only compute component `k`'s next value from its own
/// value, when component `k` is dead (its result unused, its `before`
/// argument only forwarded).
fn dead_component(
    b: &Builder<'_>,
    w: ScfWhileOp,
    before: BlockId,
    after: BlockId,
    cond: OpId,
    yield_op: OpId,
    k: usize,
) -> Option<DeadComponent> {
    let body = b.body();
    if body.has_uses(body.result(w.op(), k)) {
        return None;
    }
    let barg = body.block_args(before)[k];
    if body.uses(barg).any(|u| body.use_owner(u) != cond) || body.uses(barg).count() != 1 {
        return None;
    }
    let yielded: Vec<Value> = body.operands(yield_op).collect();
    let mut closure: Vec<OpId> = Vec::new();
    let mut if_results: Vec<(OpId, usize)> = Vec::new();
    let mut values = vec![body.block_args(after)[k]];
    let mut seen: FxHashSet<Value> = FxHashSet::default();
    while let Some(v) = values.pop() {
        if !seen.insert(v) {
            continue;
        }
        for u in body.uses(v) {
            let owner = body.use_owner(u);
            if owner == yield_op {
                let only_at_k = yielded.iter().enumerate().all(|(i, &y)| y != v || i == k);
                if !only_at_k {
                    return None;
                }
                continue;
            }
            // Passed through a branch of an `scf.if` of the after block: the
            // if's result goes on.
            if ScfYieldOp::isa(b, owner) {
                let parent = body
                    .parent_op(owner)
                    .filter(|&p| ScfIfOp::isa(b, p) && body.op_block(p) == Some(after))?;
                let pos = body.operands(owner).position(|x| x == v)?;
                if body.operands(owner).filter(|&x| x == v).count() != 1 {
                    return None;
                }
                if !if_results.contains(&(parent, pos)) {
                    if_results.push((parent, pos));
                    values.push(body.result(parent, pos));
                }
                continue;
            }
            let pure = body.op_block(owner) == Some(after)
                && body.num_regions(owner) == 0
                && body.num_results(owner) == 1
                && memory_effects(b.ctx(), body, owner).is_some_and(|e| e.is_empty());
            if !pure {
                return None;
            }
            if !closure.contains(&owner) {
                closure.push(owner);
                values.push(body.result(owner, 0));
            }
        }
    }
    closure.sort_by_key(|&o| body.block_ops(after).position(|x| x == o));
    Some((closure, if_results))
}

/// Moves the ops of `from` (but its terminator) to the end of `to`, whose
/// arguments stand for the arguments `keep` of `from`.
fn move_block(b: &mut Builder<'_>, from: BlockId, to: BlockId, keep: &[usize]) {
    let old: Vec<Value> = b.body().block_args(from).to_vec();
    let new: Vec<Value> = b.body().block_args(to).to_vec();
    for (i, &k) in keep.iter().enumerate() {
        b.replace_all_uses_with(old[k], new[i]);
    }
    let mut ops: Vec<OpId> = b.body().block_ops(from).collect();
    ops.pop();
    b.set_insertion_point_to_end(to);
    for op in ops {
        b.move_op_to_insertion_point(op);
    }
}
