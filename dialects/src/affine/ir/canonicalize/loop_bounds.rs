//! The bounds of `affine.for` loops, canonicalized as MLIR's
//! `AffineForOp::fold` does (`foldLoopBounds`, then
//! `canonicalizeLoopBounds`): a bound whose operands are all constants
//! becomes a constant; `affine.apply` producers are composed into the bound
//! maps, which are canonicalized like any other map; results of the lower
//! (upper) bound that can never be the maximum (minimum) are dropped, and
//! repeated neighbouring results merged.

use crate::affine::utils::map_composition::{
    canonical_form, canonicalize_map_and_operands, const_index, map_attr, map_of,
};
use crate::affine::utils::operand_facts::{any_loop_variable, simplify_min_or_max_with_operands};
use crate::affine::AffineForOp;
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::ods::access;
use lf_ir::view::OpView;
use lf_ir::{Attribute, Body, Context, OpId, Value};
use lf_pass::rewrite::PatternRewriter;

/// One bound of a loop: its map (and the attribute holding it, while it
/// is the op's) and operands.
#[derive(Clone, PartialEq)]
struct Bound {
    map: AffineMap,
    attr: Option<Attribute>,
    operands: Vec<Value>,
}

/// The `affine.for` bounds pattern.
pub fn canonicalize_for_bounds(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let (ctx, body) = (rw.ctx(), rw.body());
    let for_op = AffineForOp::from_op_unchecked(op);
    let ir = (ctx, body);
    let (lb_attr, ub_attr) = (for_op.lower_bound_map_attr(&ir), for_op.upper_bound_map_attr(&ir));
    let (lb_map, ub_map) = (for_op.lower_bound_map(&ir), for_op.upper_bound_map(&ir));
    // Most loops have constant bounds: nothing to do.
    let constant = |m: &AffineMap| m.is_single_constant() && m.num_inputs() == 0;
    if constant(lb_map) && constant(ub_map) {
        return false;
    }
    let bound = |map: &AffineMap, attr: Attribute, operands: lf_ir::view::ValueList| Bound {
        map: map.clone(),
        attr: Some(attr),
        operands: operands.to_vec(),
    };
    let lb = bound(lb_map, lb_attr, for_op.lower_bound_operands(&ir));
    let ub = bound(ub_map, ub_attr, for_op.upper_bound_operands(&ir));
    if lb.operands.len() != lb.map.num_inputs() as usize || ub.operands.len() != ub.map.num_inputs() as usize {
        return false;
    }
    // foldLoopBounds.
    let folded_lb = (!lb.map.is_single_constant())
        .then(|| fold_constant_bound(ctx, body, &lb, true))
        .flatten();
    let folded_ub = (!ub.map.is_single_constant())
        .then(|| fold_constant_bound(ctx, body, &ub, false))
        .flatten();
    let folded = folded_lb.is_some() || folded_ub.is_some();
    let lb = folded_lb.unwrap_or(lb);
    let ub = folded_ub.unwrap_or(ub);
    // canonicalizeLoopBounds (MLIR simplifies the upper bound's min before
    // composing it, the lower bound's max after).
    let mut new_lb = canonicalized(ctx, body, &lb);
    new_lb.map = min_or_max(ctx, body, &new_lb, true);
    let ub_min = Bound {
        map: min_or_max(ctx, body, &ub, false),
        attr: None,
        operands: ub.operands.clone(),
    };
    let ub_min = if ub_min.map == ub.map { ub.clone() } else { ub_min };
    new_lb.map = without_repeated_neighbours(&new_lb.map);
    let mut new_ub = canonicalized(ctx, body, &ub_min);
    new_ub.map = without_repeated_neighbours(&new_ub.map);
    // As MLIR, a change shows in the maps.
    let lb_changed = new_lb.map != lb.map;
    let ub_changed = new_ub.map != ub.map;
    let (lb, ub) = (
        if lb_changed { new_lb } else { lb },
        if ub_changed { new_ub } else { ub },
    );
    if !(lb_changed || ub_changed || folded) {
        return false;
    }
    let inits = for_op.inits(&ir);
    let (lb_attr, ub_attr) = (map_attr(ctx, lb.map), map_attr(ctx, ub.map));
    rw.modify_in_place(op, |ctx, body| {
        access::set_operand_groups(ctx, body, op, AffineForOp::def(), &[&lb.operands, &ub.operands, &inits]);
        access::set_property(ctx, body, op, AffineForOp::lower_bound_map_attr_def(), Some(lb_attr));
        access::set_property(ctx, body, op, AffineForOp::upper_bound_map_attr_def(), Some(ub_attr));
    });
    true
}

/// [`simplify_min_or_max_with_operands`] of a bound. A single result
/// without divisions can only become a constant through the bounds of the
/// operands' loops: without any, it stays (checked first, as it is cheap).
fn min_or_max(ctx: &Context, body: &Body, bound: &Bound, is_max: bool) -> AffineMap {
    let lone_linear = bound.map.num_results() == 1 && !bound.map.result(0).divides_by_constant();
    if lone_linear && !any_loop_variable(ctx, body, &bound.operands) {
        return bound.map.clone();
    }
    simplify_min_or_max_with_operands(ctx, body, &bound.map, &bound.operands, is_max)
}

/// MLIR's `foldLowerOrUpperBound`: when every operand the bound's results
/// read is a constant, the bound becomes the constant maximum (lower
/// bound) or minimum (upper bound) of its results.
fn fold_constant_bound(ctx: &Context, body: &Body, bound: &Bound, lower: bool) -> Option<Bound> {
    let values: Vec<Option<i64>> = bound.operands.iter().map(|&v| const_index(ctx, body, v)).collect();
    let nd = bound.map.num_dims() as usize;
    let as_expr = |c: Option<i64>, var: AffineExpr| c.map_or(var, AffineExpr::constant);
    let dims: Vec<AffineExpr> = (0..nd).map(|i| as_expr(values[i], AffineExpr::dim(i as u32))).collect();
    let syms: Vec<AffineExpr> = (nd..values.len())
        .map(|i| as_expr(values[i], AffineExpr::symbol((i - nd) as u32)))
        .collect();
    let results: Option<Vec<i64>> = bound
        .map
        .results()
        .iter()
        .map(|r| r.replace_dims_and_symbols(&dims, &syms).as_constant())
        .collect();
    let results = results?;
    let value = if lower {
        results.iter().max()
    } else {
        results.iter().min()
    };
    Some(Bound {
        map: AffineMap::new(0, 0, vec![AffineExpr::constant(*value?)]),
        attr: None,
        operands: Vec::new(),
    })
}

/// `composeAffineMapAndOperands` and `canonicalizeMapAndOperands` of a
/// bound (remembered per map when the operands need no substitution).
fn canonicalized(ctx: &Context, body: &Body, bound: &Bound) -> Bound {
    let changed = match bound.attr {
        Some(attr) => canonical_form(ctx, body, attr, &bound.map, &bound.operands).map(|(a, operands)| Bound {
            map: map_of(ctx, Some(a)).expect("a map attribute").clone(),
            attr: Some(a),
            operands,
        }),
        None => canonicalize_map_and_operands(ctx, body, &bound.map, &bound.operands).map(|(map, operands)| Bound {
            map,
            attr: None,
            operands,
        }),
    };
    changed.unwrap_or_else(|| bound.clone())
}

/// MLIR's `removeDuplicateExprs`: repeated neighbouring results merged
/// (`std::unique`; equal results apart stay).
fn without_repeated_neighbours(map: &AffineMap) -> AffineMap {
    let mut results = map.results().to_vec();
    results.dedup();
    if results.len() == map.num_results() {
        return map.clone();
    }
    AffineMap::new(map.num_dims(), map.num_symbols(), results)
}
