//! The select form of a merged loop's branches: speculatable ops hoisted
//! out of an `scf.if`, and each result whose two yielded values are then
//! available above it turned into an `arith.select`.
//!
//! Why: ptxas (nvcc 13.0, 13.5) miscompiles the textbook merged loop, whose
//! per-thread outer counter is advanced inside the divergent transition
//! branch: it keeps the counter in a warp-uniform register
//! (`../shared/BENCHMARKS.md`). A counter updated by a select on a
//! per-thread condition is not mistaken for a uniform one (the verified
//! form of `anchors-gpu/synlm.cu`, `merged_sel`). Only the side effects
//! (loads, stores) and the ops a policy keeps (the inner body's floating
//! point work) stay under the branch.

use crate::arith::ArithSelectOp;
use crate::scf::ScfIfOp;
use lf_ir::builder::Builder;
use lf_ir::interfaces::is_speculatable;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{BlockId, OpId, Type, Value};

/// Which ops of a branch may be computed on every trip.
pub type HoistPolicy = fn(&Builder<'_>, OpId) -> bool;

/// Any speculatable op.
pub fn any_op(_: &Builder<'_>, _: OpId) -> bool {
    true
}

/// Speculatable ops whose results are integers, indices or `i1`: counter
/// and address arithmetic, not the loop body's floating-point work.
pub fn integer_only(b: &Builder<'_>, op: OpId) -> bool {
    b.body().results(op).all(|r| is_integer(b, b.body().value_type(r)))
}

/// Which results of an `scf.if` may become `arith.select`s.
pub type ResultPolicy = fn(&Builder<'_>, Type) -> bool;

/// Every result.
pub fn any_type(_: &Builder<'_>, _: Type) -> bool {
    true
}

/// Integers, indices and `i1` (the values ptxas's uniform datapath holds,
/// where the miscompiled counter lived); floating-point state stays
/// assigned in the branches, which costs no instructions.
pub fn is_integer(b: &Builder<'_>, ty: Type) -> bool {
    let d = b.ctx().type_data(ty);
    d.is_integer() || d.is_index()
}

/// Rewrites `if_op` into its select form (see the module documentation):
/// the ops of its `then` and `else` blocks that `then_policy` and
/// `else_policy` allow and that are speculatable, have no regions and read
/// only values from above the `if`, move above it; results of the types
/// `results_policy` allows that both branches then yield from above become
/// `arith.select`s, which it returns. The `if` is
/// rebuilt with the other results, or erased when nothing is left in it.
pub fn to_select_form(
    b: &mut Builder<'_>,
    if_op: ScfIfOp,
    then_policy: HoistPolicy,
    else_policy: HoistPolicy,
    results_policy: ResultPolicy,
) -> Vec<OpId> {
    let mut selects = Vec::new();
    let then_block = if_op.then_region_block(b);
    let Some(else_block) = if_op.else_region_block(b) else {
        return selects;
    };
    hoist(b, if_op.op(), then_block, then_policy);
    hoist(b, if_op.op(), else_block, else_policy);
    let cond = if_op.condition(b);
    let (tv, ev) = (yielded(b, then_block), yielded(b, else_block));
    let results: Vec<Value> = b.body().results(if_op.op()).collect();
    let mut kept = Vec::new();
    b.set_insertion_point_after(if_op.op());
    b.set_loc_of(if_op.op());
    for (k, r) in results.iter().enumerate() {
        if !b.body().has_uses(*r) {
            continue; // dropped when the if is rebuilt
        }
        let outside = |v: Value| !b.body().is_defined_inside(v, if_op.op());
        let same = tv[k] == ev[k];
        if outside(tv[k]) && outside(ev[k]) && (same || results_policy(b, b.body().value_type(*r))) {
            let v = if same {
                tv[k]
            } else {
                let sel = ArithSelectOp::build(b, cond, tv[k], ev[k]);
                selects.push(sel.op());
                sel.result(b)
            };
            b.replace_all_uses_with(*r, v);
        } else {
            kept.push(k);
        }
    }
    if kept.len() == results.len() {
        return selects;
    }
    let only_yields = [then_block, else_block]
        .iter()
        .all(|&blk| b.body().block_ops(blk).count() == 1);
    if kept.is_empty() && only_yields {
        b.erase_op(if_op.op());
        return selects;
    }
    rebuild(b, if_op, &kept);
    selects
}

/// After [`to_select_form`] of a branch whose results are all dropped
/// when its condition is false (a speculated copy of a loop body): each
/// `select` of `selects` whose kept value an op of `then_ops` (the ops the
/// `then` block held) defines moves right after that definition, and the
/// other readers of the value read the select instead. Where the
/// condition holds, the two are equal; where it does not, everything those
/// readers compute is dropped anyway. The value then has the select as its
/// only reader, so a GPU compiler can write it straight into the carried
/// register under the condition (a predicated instruction) instead of
/// keeping both and selecting: on SYN-LM's 32-FMA bodies, 8 of the 159
/// instructions of a trip (docs/design/loop-merge.md).
pub fn read_kept_values(b: &mut Builder<'_>, then_ops: &[OpId], selects: &[OpId]) {
    for &sel in selects {
        let body = b.body();
        let operands: Vec<Value> = body.operands(sel).collect();
        let (kept, block) = (operands[1], body.op_block(sel));
        let Some(def) = body.defining_op(kept).filter(|d| then_ops.contains(d)) else {
            continue;
        };
        if body.op_block(def) != block {
            continue;
        }
        // After the definition and after the condition and the other value
        // when they are defined in the same block.
        let mut anchor = def;
        for v in [operands[0], operands[2]] {
            if let Some(d) = body.defining_op(v).filter(|&d| body.op_block(d) == block) {
                if body.is_before_in_block(anchor, d) {
                    anchor = d;
                }
            }
        }
        b.move_op_after(sel, anchor);
        let to = b.body().result(sel, 0);
        b.replace_uses_if(kept, to, |body, user| {
            let mut at = user;
            while body.op_block(at) != block {
                match body.parent_op(at) {
                    Some(p) => at = p,
                    None => return false,
                }
            }
            at != sel && !selects.contains(&at) && body.is_before_in_block(sel, at)
        });
    }
}

/// Moves the allowed speculatable ops of `block` above `if_op`, in order
/// (an op whose operands an earlier moved op defines moves too).
fn hoist(b: &mut Builder<'_>, if_op: OpId, block: BlockId, policy: HoistPolicy) {
    let mut ops: Vec<OpId> = b.body().block_ops(block).collect();
    ops.pop(); // the terminator stays
    for op in ops {
        let body = b.body();
        let movable = body.num_regions(op) == 0
            && is_speculatable(b.ctx(), body, op)
            && body.operands(op).all(|v| !body.is_defined_inside(v, if_op))
            && policy(b, op);
        if movable {
            b.move_op_before(op, if_op);
        }
    }
}

/// The operands of the terminator of `block`.
fn yielded(b: &Builder<'_>, block: BlockId) -> Vec<Value> {
    b.body()
        .terminator(block)
        .map(|t| b.body().operands(t).collect())
        .unwrap_or_default()
}

/// Replaces `if_op` by an `scf.if` with only the results `kept` (its ops
/// moved over; the other results must be unused once the old if is gone).
pub fn rebuild(b: &mut Builder<'_>, if_op: ScfIfOp, kept: &[usize]) {
    let cond = if_op.condition(b);
    let results: Vec<Value> = b.body().results(if_op.op()).collect();
    let types: Vec<Type> = kept.iter().map(|&k| b.body().value_type(results[k])).collect();
    b.set_insertion_point_before(if_op.op());
    b.set_loc_of(if_op.op());
    let (then_block, else_block) = (if_op.then_region_block(b), if_op.else_region_block(b));
    let move_ops = |b: &mut Builder<'_>, blk: BlockId| -> ValueList {
        let ops: Vec<OpId> = b.body().block_ops(blk).collect();
        let (&term, rest) = ops.split_last().expect("a terminator");
        for &op in rest {
            b.move_op_to_insertion_point(op);
        }
        let vals: Vec<Value> = b.body().operands(term).collect();
        kept.iter().map(|&k| vals[k]).collect()
    };
    let else_block = else_block.expect("an else block");
    let new_if = ScfIfOp::build(
        b,
        cond,
        &types,
        |b| move_ops(b, then_block),
        Some(&mut |b: &mut Builder<'_>| move_ops(b, else_block)),
    );
    for (i, &k) in kept.iter().enumerate() {
        let v = b.body().result(new_if.op(), i);
        b.replace_all_uses_with(results[k], v);
    }
    b.erase_op(if_op.op());
}
