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

use super::affine::{canonicalize_map_and_operands, const_index, is_top_level_symbol, set_prop};
use super::scf::replace_with_region;
use crate::rewrite::PatternRewriter;
use lf_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use lf_ir::attrs::AttrData;
use lf_ir::{Body, Context, OpId, Value};

/// The `affine.if` condition pattern.
pub fn canonicalize_if_condition(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let (ctx, body) = (rw.ctx(), rw.body());
    let Some(AttrData::IntegerSet(set)) = lf_ir::ods::prop(ctx, body, op, "condition").map(|a| ctx.attr_data(a)) else {
        return false;
    };
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
    rw.modify_in_place(op, |body| {
        body.set_operands(op, &new_operands);
        set_prop(ctx, body, op, "condition", attr);
    });
    true
}

/// MLIR's `composeSetAndOperands`: the constraints composed with the
/// `affine.apply` producers of the operands, as the results of a map.
fn compose(ctx: &Context, body: &Body, set: &IntegerSet, operands: &[Value]) -> (IntegerSet, Vec<Value>) {
    let from_apply = |v: &Value| {
        body.defining_op(*v)
            .is_some_and(|o| ctx.op_name_str(body.op_name(o)) == "affine.apply")
    };
    if !operands.iter().any(from_apply) {
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

/// MLIR's `canonicalizeSetAndOperands`.
fn canonicalize_set_and_operands(
    ctx: &Context,
    body: &Body,
    set: &IntegerSet,
    operands: &[Value],
) -> (IntegerSet, Vec<Value>) {
    let nd = set.num_dims() as usize;
    // Dimensions that are valid symbols become symbols, after the others.
    let is_symbol = |v: Value| is_top_level_symbol(ctx, body, v) || const_index(ctx, body, v).is_some();
    let mut dims: Vec<Value> = Vec::new();
    let mut syms: Vec<Value> = operands[nd..].to_vec();
    let mut dim_remap: Vec<AffineExpr> = Vec::with_capacity(nd);
    for &v in &operands[..nd] {
        if is_symbol(v) {
            dim_remap.push(AffineExpr::symbol(syms.len() as u32));
            syms.push(v);
        } else {
            dim_remap.push(AffineExpr::dim(dims.len() as u32));
            dims.push(v);
        }
    }
    let set = set.replace_dims_and_symbols(&dim_remap, &[], dims.len() as u32, syms.len() as u32);
    // Which are used.
    let mut used_dims = vec![false; dims.len()];
    let mut used_syms = vec![false; syms.len()];
    for c in set.constraints() {
        c.mark_used_dims(&mut used_dims);
        c.mark_used_symbols(&mut used_syms);
    }
    // Used dimensions, each value once; used symbols likewise, constants
    // folded in.
    let mut kept: Vec<Value> = Vec::new();
    let mut dim_repl: Vec<AffineExpr> = Vec::with_capacity(dims.len());
    for (i, &v) in dims.iter().enumerate() {
        dim_repl.push(if used_dims[i] {
            AffineExpr::dim(position_or_push(&mut kept, v) as u32)
        } else {
            AffineExpr::constant(0)
        });
    }
    let kept_dims = kept.len();
    let mut kept_syms: Vec<Value> = Vec::new();
    let mut sym_repl: Vec<AffineExpr> = Vec::with_capacity(syms.len());
    for (i, &v) in syms.iter().enumerate() {
        sym_repl.push(match (used_syms[i], const_index(ctx, body, v)) {
            (false, _) => AffineExpr::constant(0),
            (true, Some(c)) => AffineExpr::constant(c),
            (true, None) => AffineExpr::symbol(position_or_push(&mut kept_syms, v) as u32),
        });
    }
    let new_set = set.replace_dims_and_symbols(&dim_repl, &sym_repl, kept_dims as u32, kept_syms.len() as u32);
    kept.extend(kept_syms);
    (new_set, kept)
}

/// The position of `v` in `list`, appended if absent.
fn position_or_push(list: &mut Vec<Value>, v: Value) -> usize {
    match list.iter().position(|x| *x == v) {
        Some(i) => i,
        None => {
            list.push(v);
            list.len() - 1
        }
    }
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
    rw.modify_in_place(op, |body| body.detach_block(block));
    true
}

/// MLIR's `AlwaysTrueOrFalseIf`: an empty condition set (`1 == 0`) leaves
/// the `else` branch (or nothing), a condition that is only `0 == 0` the
/// `then` branch.
pub fn fold_trivial_condition(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let (ctx, body) = (rw.ctx(), rw.body());
    let Some(AttrData::IntegerSet(set)) = lf_ir::ods::prop(ctx, body, op, "condition").map(|a| ctx.attr_data(a)) else {
        return false;
    };
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
