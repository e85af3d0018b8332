//! Canonicalization patterns of the `scf` dialect: `scf.if` on a constant
//! condition, and `scf.for` loops that run zero times or once.

use crate::scf::{ScfForOp, ScfIfOp};
use lf_ir::attrs::AttrData;
use lf_ir::view::OpView;
use lf_ir::{OpId, Value};
use lf_pass::rewrite::{constant_value, FnPattern, PatternRewriter, PatternSet};

/// Adds the patterns.
pub fn add_patterns(set: &mut PatternSet) {
    set.add(FnPattern::on::<ScfIfOp>("scf-if-constant-condition", if_constant));
    set.add(FnPattern::on::<ScfForOp>("scf-for-trivial-loop", for_trivial));
}

/// Replaces `op` by the ops of the single block of its region `index`:
/// the block's arguments become `args`, the op's results the terminator's
/// operands. With an empty region, the op must have no results.
pub(crate) fn replace_with_region(rw: &mut PatternRewriter<'_>, op: OpId, index: usize, args: &[Value]) {
    let body = rw.body();
    let region = body.region(op, index);
    let Some(block) = body.entry_block(region) else {
        rw.erase_op(op);
        return;
    };
    let term = rw.inline_block_before(block, op, args, true);
    let yielded: Vec<Value> = term.map(|t| rw.body().operands(t).collect()).unwrap_or_default();
    rw.replace_op(op, &yielded);
}

fn const_int(rw: &PatternRewriter<'_>, v: Value) -> Option<i128> {
    let a = constant_value(rw.ctx(), rw.body(), v)?;
    match rw.ctx().attr_data(a) {
        AttrData::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

/// `scf.if %true` -> the `then` ops; `scf.if %false` -> the `else` ops (or nothing).
fn if_constant(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let body = rw.body();
    let Some(c) = const_int(rw, body.operand(op, 0)) else {
        return false;
    };
    let index = if c != 0 { 0 } else { 1 };
    let region = body.region(op, index);
    if body.region_is_empty(region) && body.num_results(op) != 0 {
        return false;
    }
    replace_with_region(rw, op, index, &[]);
    true
}

/// Zero-trip `scf.for` -> its initial values; one-trip -> its body.
fn for_trivial(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let body = rw.body();
    let for_op = ScfForOp::from_op_unchecked(op);
    let (Some(lb), Some(ub), Some(step)) = (
        const_int(rw, for_op.lower_bound(rw)),
        const_int(rw, for_op.upper_bound(rw)),
        const_int(rw, for_op.step(rw)),
    ) else {
        return false;
    };
    let unsigned = for_op.unsigned_cmp(rw);
    let ty = body.value_type(for_op.lower_bound(rw));
    let (lb, ub) = if unsigned {
        let width = match rw.ctx().type_data(ty) {
            lf_ir::TypeData::Integer { width, .. } => *width,
            _ => 64,
        };
        let mask = if width >= 128 { -1 } else { (1i128 << width) - 1 };
        (lb & mask, ub & mask)
    } else {
        (lb, ub)
    };
    let inits: Vec<Value> = for_op.init_args(rw).to_vec();
    if lb >= ub {
        rw.replace_op(op, &inits);
        return true;
    }
    if step <= 0 || lb.checked_add(step).is_none_or(|n| n < ub) {
        return false;
    }
    let mut args = vec![for_op.lower_bound(rw)];
    args.extend(inits);
    replace_with_region(rw, op, 0, &args);
    true
}
