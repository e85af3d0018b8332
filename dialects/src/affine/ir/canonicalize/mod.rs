//! Canonicalization patterns of the `affine` dialect: composition of
//! `affine.apply` chains into the maps of their users, constant operands
//! folded into maps, valid symbols promoted from dimensions to symbols,
//! duplicate and unused operands dropped, maps simplified (also with what
//! the operands' loops tell: [`operand_facts`]); `affine.apply`
//! of a constant or of an identity map folded; `affine.min`/`affine.max`
//! of constants folded; trivial `affine.for` loops removed; the bounds of
//! `affine.for` ([`loop_bounds`]) and the conditions of `affine.if`
//! ([`if_condition`]) canonicalized. The map utilities they use are the
//! dialect's ([`crate::affine::utils`]).

pub(crate) mod if_condition;
mod loop_bounds;

use crate::affine::utils::map_composition::{canonical_form, map_attr, map_of};
use crate::affine::utils::operand_facts;
use crate::affine::{AffineApplyOp, AffineForOp, AffineIfOp, AffineLoadOp, AffineMaxOp, AffineMinOp, AffineStoreOp};
use crate::arith::ArithConstantOp;
use crate::scf::ir::canonicalize::replace_with_region;
use lf_ir::ods::AttrDef;
use lf_ir::view::OpView;
use lf_ir::{Attribute, Body, Context, OpId, Value};
use lf_pass::rewrite::{FnPattern, PatternRewriter, PatternSet};
use smallvec::SmallVec;

/// Adds the patterns.
pub fn add_patterns(set: &mut PatternSet) {
    set.add(FnPattern::on::<AffineApplyOp>(
        "affine-apply-canonicalize",
        canonicalize_map_op,
    ));
    set.add(FnPattern::on::<AffineMinOp>(
        "affine-min-canonicalize",
        canonicalize_map_op,
    ));
    set.add(FnPattern::on::<AffineMaxOp>(
        "affine-max-canonicalize",
        canonicalize_map_op,
    ));
    set.add(FnPattern::on::<AffineLoadOp>(
        "affine-load-canonicalize",
        canonicalize_map_op,
    ));
    set.add(FnPattern::on::<AffineStoreOp>(
        "affine-store-canonicalize",
        canonicalize_map_op,
    ));
    set.add(FnPattern::on::<AffineApplyOp>("affine-apply-fold", fold_apply).with_benefit(2));
    set.add(FnPattern::on::<AffineMinOp>("affine-min-max-fold", fold_min_max).with_benefit(2));
    set.add(FnPattern::on::<AffineMaxOp>("affine-min-max-fold", fold_min_max).with_benefit(2));
    set.add(FnPattern::on::<AffineIfOp>(
        "affine-if-condition",
        if_condition::canonicalize_if_condition,
    ));
    set.add(FnPattern::on::<AffineIfOp>(
        "affine-if-dead-else",
        if_condition::remove_dead_else,
    ));
    set.add(FnPattern::on::<AffineIfOp>(
        "affine-if-trivial-condition",
        if_condition::fold_trivial_condition,
    ));
    // Before the trivial-loop pattern, as MLIR folds bounds first.
    set.add(FnPattern::on::<AffineForOp>("affine-for-bounds", loop_bounds::canonicalize_for_bounds).with_benefit(2));
    set.add(FnPattern::on::<AffineForOp>("affine-for-trivial-loop", for_trivial));
}

/// The map attribute of an op that applies a map to its last operands
/// (`affine.apply`, `min`, `max`, `load`, `store`), the declaration of that
/// attribute, and the index of the first map operand.
fn map_and_operands_start(ctx: &Context, body: &Body, op: OpId) -> Option<(Attribute, &'static AttrDef, usize)> {
    // One look at the op's declaration (this runs for every access and apply).
    let def = ctx.op_def(body.op_name(op))?;
    let (attr_def, start) = if std::ptr::eq(def, AffineLoadOp::def()) {
        (AffineLoadOp::map_attr_def(), 1)
    } else if std::ptr::eq(def, AffineStoreOp::def()) {
        (AffineStoreOp::map_attr_def(), 2)
    } else if std::ptr::eq(def, AffineApplyOp::def()) {
        (AffineApplyOp::map_attr_def(), 0)
    } else if std::ptr::eq(def, AffineMinOp::def()) {
        (AffineMinOp::map_attr_def(), 0)
    } else if std::ptr::eq(def, AffineMaxOp::def()) {
        (AffineMaxOp::map_attr_def(), 0)
    } else {
        return None;
    };
    let attr = lf_ir::ods::access::property(ctx, body, op, attr_def)?;
    Some((attr, attr_def, start))
}

/// Canonicalizes the map and map operands of `affine.apply`, `min`, `max`,
/// `load`, `store`.
fn canonicalize_map_op(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let (ctx, body) = (rw.ctx(), rw.body());
    let Some((attr, attr_def, start)) = map_and_operands_start(ctx, body, op) else {
        return false;
    };
    let Some(map) = map_of(ctx, Some(attr)) else {
        return false;
    };
    let all: SmallVec<[Value; 8]> = body.operands(op).collect();
    if all.len() < start || all.len() - start != map.num_inputs() as usize {
        return false;
    }
    let canonical = canonical_form(ctx, body, attr, map, &all[start..]);
    // Then, as MLIR, what the operands' loops tell.
    let (canonical_attr, canonical_ops) = match &canonical {
        Some((a, ops)) => (*a, ops.as_slice()),
        None => (attr, &all[start..]),
    };
    let with_loops = map_of(ctx, Some(canonical_attr))
        .and_then(|m| operand_facts::simplify_map_with_operands(ctx, body, m, canonical_ops));
    let (new_attr, new_ops) = match (with_loops, canonical) {
        (Some(m), Some((_, ops))) => (map_attr(ctx, m), ops),
        (Some(m), None) => (map_attr(ctx, m), all[start..].to_vec()),
        (None, Some(c)) => c,
        (None, None) => return false,
    };
    let mut operands = SmallVec::<[Value; 8]>::from_slice(&all[..start]);
    operands.extend(new_ops);
    rw.modify_in_place(op, |ctx, body| {
        body.set_operands(op, &operands);
        lf_ir::ods::access::set_property(ctx, body, op, attr_def, Some(new_attr));
    });
    true
}

/// `affine.apply` of a constant map -> `arith.constant`; of `(d0) -> (d0)`
/// or `()[s0] -> (s0)` -> its operand.
fn fold_apply(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let body = rw.body();
    let map = AffineApplyOp::from_op_unchecked(op).map(rw).clone();
    if map.num_results() != 1 {
        return false;
    }
    let r = map.result(0);
    if let Some(c) = r.as_constant() {
        rw.set_loc_of(op);
        let v = ArithConstantOp::index(rw, c);
        rw.replace_op(op, &[v]);
        return true;
    }
    let pos = match (r.as_dim(), r.as_symbol()) {
        (Some(d), _) => d as usize,
        (_, Some(s)) => map.num_dims() as usize + s as usize,
        _ => return false,
    };
    if pos >= body.num_operands(op) {
        return false;
    }
    let v = body.operand(op, pos);
    rw.replace_op(op, &[v]);
    true
}

/// `affine.min`/`affine.max` whose results are all constant -> the min/max.
fn fold_min_max(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let min = AffineMinOp::cast(rw, op);
    let map = match min {
        Some(m) => m.map(rw),
        None => AffineMaxOp::from_op_unchecked(op).map(rw),
    };
    let Some(cs) = map.constant_results() else {
        return false;
    };
    let is_min = min.is_some();
    let v = if is_min { cs.iter().min() } else { cs.iter().max() };
    let Some(&v) = v else {
        return false;
    };
    rw.set_loc_of(op);
    let c = ArithConstantOp::index(rw, v);
    rw.replace_op(op, &[c]);
    true
}

/// The constant bounds and step of an `affine.for` (lower: max of the lower
/// map's results, upper: min of the upper map's), if all are constant.
pub fn constant_bounds(ctx: &Context, body: &Body, op: AffineForOp) -> Option<(i64, i64, i64)> {
    let ir = (ctx, body);
    let lb = op.lower_bound_map(&ir).constant_results()?;
    let ub = op.upper_bound_map(&ir).constant_results()?;
    Some((*lb.iter().max()?, *ub.iter().min()?, op.step(&ir)))
}

/// Zero-trip `affine.for` -> its initial values; one-trip -> its body.
fn for_trivial(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let (ctx, body) = (rw.ctx(), rw.body());
    let for_op = AffineForOp::from_op_unchecked(op);
    let Some((lb, ub, step)) = constant_bounds(ctx, body, for_op) else {
        return false;
    };
    let inits = for_op.inits(rw);
    if inits.len() != body.num_results(op) {
        return false;
    }
    if lb >= ub {
        rw.replace_op(op, &inits);
        return true;
    }
    if step <= 0 || lb.checked_add(step).is_none_or(|n| n < ub) {
        return false;
    }
    rw.set_loc_of(op);
    let iv = ArithConstantOp::index(rw, lb);
    let mut args = vec![iv];
    args.extend(inits);
    replace_with_region(rw, op, 0, &args);
    true
}
