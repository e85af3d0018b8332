//! The condition of `affine.if`, canonicalized as MLIR's `AffineIfOp::fold`
//! does: when an operand comes from `affine.apply`, the set's constraints
//! are composed with the producers like a map's results
//! (`composeSetAndOperands`, which simplifies them); then, in every case,
//! `canonicalizeSetAndOperands`: dimensions that are valid symbols become
//! symbols, constant symbols fold into the constraints, repeated operands
//! merge and unused ones go (without simplifying the constraints further).
//! Also MLIR's `SimplifyDeadElse` (an `else` that only yields nothing goes)
//! and `AlwaysTrueOrFalseIf` (a condition that is trivially true or empty
//! leaves the branch taken in place of the op).

use crate::affine::utils::map_composition::{apply_producer, canonicalize_map_and_operands, renumber_operands};
use crate::affine::AffineIfOp;
use crate::scf::ir::canonicalize::replace_with_region;
use lf_ir::affine::{AffineMap, IntegerSet};
use lf_ir::attrs::AttrData;
use lf_ir::view::OpView;
use lf_ir::{Body, Context, OpId, Value};
use lf_pass::rewrite::PatternRewriter;

/// The `affine.if` condition pattern.
pub fn canonicalize_if_condition(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let (ctx, body) = (rw.ctx(), rw.body());
    let set = AffineIfOp::from_op_unchecked(op).condition(rw);
    let operands: Vec<Value> = body.operands(op).collect();
    if operands.len() != set.num_inputs() as usize {
        return false;
    }
    let (composed, composed_operands) = compose(ctx, body, set, &operands);
    let (new_set, new_operands) = canonicalize_set_and_operands(ctx, body, &composed, &composed_operands);
    if new_set == *set && new_operands == operands {
        return false;
    }
    let attr = ctx.get_attr(AttrData::IntegerSet(new_set));
    rw.modify_in_place(op, |ctx, body| {
        body.set_operands(op, &new_operands);
        lf_ir::ods::access::set_property(ctx, body, op, AffineIfOp::condition_attr_def(), Some(attr));
    });
    true
}

/// MLIR's `composeSetAndOperands`: the constraints composed with the
/// `affine.apply` producers of the operands, as the results of a map.
fn compose(ctx: &Context, body: &Body, set: &IntegerSet, operands: &[Value]) -> (IntegerSet, Vec<Value>) {
    if !operands.iter().any(|&v| apply_producer(ctx, body, v).is_some()) {
        return (set.clone(), operands.to_vec());
    }
    let as_map = AffineMap::new(set.num_dims(), set.num_symbols(), set.constraints().to_vec());
    match canonicalize_map_and_operands(ctx, body, &as_map, operands) {
        Some((map, new_operands)) => (
            IntegerSet::new(
                map.num_dims(),
                map.num_symbols(),
                map.results().to_vec(),
                set.eq_flags().to_vec(),
            ),
            new_operands,
        ),
        None => (set.clone(), operands.to_vec()),
    }
}

/// MLIR's `canonicalizeSetAndOperands`: the operands renumbered as a
/// map's are, the constraints rebuilt without further simplification.
pub(crate) fn canonicalize_set_and_operands(
    ctx: &Context,
    body: &Body,
    set: &IntegerSet,
    operands: &[Value],
) -> (IntegerSet, Vec<Value>) {
    let nd = set.num_dims() as usize;
    let r = renumber_operands(ctx, body, set.constraints(), &operands[..nd], &operands[nd..]);
    let new_set = set.replace_dims_and_symbols(&r.dim_repl, &r.sym_repl, r.dims.len() as u32, r.syms.len() as u32);
    let mut kept = r.dims;
    kept.extend(r.syms);
    (new_set, kept)
}

/// MLIR's `SimplifyDeadElse`: the `else` block of an `affine.if` without
/// results that holds only its terminator is removed.
pub fn remove_dead_else(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let body = rw.body();
    if body.num_results(op) != 0 || body.num_regions(op) < 2 {
        return false;
    }
    let Some(block) = body.entry_block(body.region(op, 1)) else {
        return false;
    };
    let mut ops = body.block_ops(block);
    let (Some(only), None) = (ops.next(), ops.next()) else {
        return false;
    };
    if body.next_block(block).is_some() {
        return false;
    }
    rw.erase_op(only);
    rw.modify_in_place(op, |_, body| body.detach_block(block));
    true
}

/// MLIR's `AlwaysTrueOrFalseIf`: an empty condition set (`1 == 0`) leaves
/// the `else` branch (or nothing), a condition that is only `0 == 0` the
/// `then` branch.
pub fn fold_trivial_condition(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let body = rw.body();
    let set = AffineIfOp::from_op_unchecked(op).condition(rw);
    let always_true =
        set.num_equalities() == 1 && set.num_inequalities() == 0 && set.constraint(0).as_constant() == Some(0);
    let branch = if set.is_empty_integer_set() {
        1
    } else if always_true {
        0
    } else {
        return false;
    };
    if body.num_regions(op) <= branch {
        rw.erase_op(op);
        return true;
    }
    replace_with_region(rw, op, branch, &[]);
    true
}
