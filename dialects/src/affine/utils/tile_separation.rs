//! Full and partial tiles separated (MLIR's `separateFullTiles`, the
//! `separate` option of `affine-loop-tile`): the point loops of one tile
//! are versioned with an `affine.if` whose condition holds when the tile
//! is full; the then block runs a copy of them with the full tile's
//! constant-extent bounds, the else block the original (partial) loops.
//!
//! For each point loop (step 1, one lower bound `lb`), the full tile's
//! upper bound is the upper-bound result `lb + c` with a constant
//! distance `c` from `lb`; the condition requires every other
//! upper-bound result `r` to be at least as large: `r - lb - c >= 0`.
//! Constraints are made as MLIR's constraint system makes them: linear
//! ones divided by the gcd of their coefficients (the constant rounded
//! down), duplicates and those implied by a tighter one with the same
//! coefficients dropped, trivially true ones dropped; an empty condition
//! is MLIR's `() : (0 == 0)`. The set's dimensions are the operands that
//! are not valid symbols, its symbols the others, each in the order they
//! first appear in the loops' bounds.

use super::map_composition::canonicalize_map_and_operands;
use super::validity::{affine_scope_region, is_valid_symbol};
use crate::affine::{AffineBound, AffineForOp, AffineIfOp};
use lf_ir::affine::{gcd, linear_form, simplify_affine_expr, AffineExpr, AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{OpId, Value};

/// Separates the full tiles of the point loops `intra` (outermost first,
/// each the only op of the one before): `Err` with the reason, and no
/// change, when a loop has a step other than 1, a `max` lower bound, or no
/// upper bound at a constant distance from its lower bound.
pub fn separate_full_tiles(b: &mut Builder<'_>, intra: &[AffineForOp]) -> Result<OpId, String> {
    let mut operands = Operands::default();
    let mut full = Vec::with_capacity(intra.len());
    let mut constraints: Vec<AffineExpr> = Vec::new();
    for (k, &l) in intra.iter().enumerate() {
        if l.step(b) != 1 {
            return Err(format!("point loop {k} has a step other than 1"));
        }
        let lb = l.lower_bound(b);
        if lb.map.num_results() != 1 {
            return Err(format!("point loop {k} has a max lower bound"));
        }
        let ub = l.upper_bound(b);
        let lb_e = operands.expr(&lb, 0);
        let results: Vec<AffineExpr> = (0..ub.map.num_results()).map(|r| operands.expr(&ub, r)).collect();
        let n = operands.values.len() as u32;
        let extent = |e: &AffineExpr| simplify_affine_expr(&e.sub(&lb_e), n, 0).as_constant();
        let Some((full_at, c)) = results.iter().enumerate().find_map(|(i, e)| extent(e).map(|c| (i, c))) else {
            return Err(format!(
                "point loop {k} has no upper bound at a constant distance from its lower bound"
            ));
        };
        for (i, r) in results.iter().enumerate() {
            if i != full_at {
                constraints.push(r.sub(&lb_e).add_const(-c));
            }
        }
        let full_ub = AffineMap::new(
            lb.map.num_dims(),
            lb.map.num_symbols(),
            vec![lb.map.result(0).add_const(c)],
        );
        full.push((lb.clone(), AffineBound::map(full_ub, &lb.operands)));
    }
    let constraints = tidy(constraints, operands.values.len() as u32);
    let (set, set_operands) = operands.set(b, intra[0].op(), constraints);
    let first = intra[0];
    let loc = b.body().op_loc(first.op());
    let if_op = b.guarded(|b| {
        b.set_loc(loc);
        b.set_insertion_point_before(first.op());
        AffineIfOp::build(
            b,
            set,
            &set_operands,
            &[],
            |_| ValueList::new(),
            Some(&mut |_| ValueList::new()),
        )
    });
    // The then block: the full tile, the body cloned.
    let then_end = b
        .body()
        .terminator(if_op.then_block(b))
        .expect("an affine.if block ends in a yield");
    let mut map = ValueMap::default();
    let mut at = then_end;
    let mut innermost = None;
    for (&l, (lb, ub)) in intra.iter().zip(&full) {
        let (lb, ub) = (canonical(b, lb), canonical(b, ub));
        let f = b.guarded(|b| {
            b.set_loc(b.body().op_loc(l.op()));
            b.set_insertion_point_before(at);
            AffineForOp::build(b, lb, ub, 1, &[], |_, _, _| ValueList::new())
        });
        map.map(l.iv(b), f.iv(b));
        at = f.yield_op(b).op();
        innermost = Some(f);
    }
    let body_ops: Vec<OpId> = b.body().block_ops(intra[intra.len() - 1].region_block(b)).collect();
    b.guarded(|b| {
        b.set_insertion_point_before(at);
        for &op in &body_ops[..body_ops.len() - 1] {
            b.clone_op(op, &mut map);
        }
    });
    let _ = innermost;
    // The else block: the original loops.
    let else_block = if_op.else_block(b).expect("the affine.if has an else block");
    let else_end = b
        .body()
        .terminator(else_block)
        .expect("an affine.if block ends in a yield");
    b.move_op_before(first.op(), else_end);
    Ok(if_op.op())
}

/// A bound with its map and operands canonicalized (as MLIR's
/// `createCanonicalizedAffineForOp` does).
fn canonical(b: &Builder<'_>, bound: &AffineBound) -> AffineBound {
    match canonicalize_map_and_operands(b.ctx(), b.body(), &bound.map, &bound.operands) {
        Some((map, operands)) => AffineBound::map(map, &operands),
        None => bound.clone(),
    }
}

/// Constraints (`e >= 0`) as MLIR's `removeTrivialRedundancy` leaves them:
/// linear ones divided by the gcd of their coefficients, duplicates and
/// ones with the same coefficients but a looser constant dropped, ones
/// that always hold dropped.
fn tidy(constraints: Vec<AffineExpr>, n: u32) -> Vec<AffineExpr> {
    let mut rows: Vec<(Vec<i64>, i64, Option<AffineExpr>)> = Vec::new();
    for e in constraints {
        let e = simplify_affine_expr(&e, n, 0);
        match linear_form(&e, n, 0) {
            Some(row) => {
                let (coefs, c) = row.split_at(row.len() - 1);
                let mut coefs = coefs.to_vec();
                let mut c = c[0];
                let g = coefs.iter().fold(0u64, |g, &x| gcd(g, x.unsigned_abs())) as i64;
                if g == 0 {
                    if c >= 0 {
                        continue;
                    }
                } else if g > 1 {
                    coefs.iter_mut().for_each(|x| *x /= g);
                    c = c.div_euclid(g);
                }
                match rows.iter_mut().find(|r| r.2.is_none() && r.0 == coefs) {
                    Some(r) => r.1 = r.1.min(c),
                    None => rows.push((coefs, c, None)),
                }
            }
            None => {
                if !rows.iter().any(|r| r.2.as_ref() == Some(&e)) {
                    rows.push((Vec::new(), 0, Some(e)));
                }
            }
        }
    }
    rows.into_iter()
        .map(|(coefs, c, e)| match e {
            Some(e) => e,
            None => {
                let mut row = coefs;
                row.push(c);
                lf_ir::affine::expr_from_linear_form(&row, n as usize, 0)
            }
        })
        .collect()
}

/// The values the constraints use, each a dimension of the expressions in
/// the order they first appear.
#[derive(Default)]
struct Operands {
    values: Vec<Value>,
}

impl Operands {
    /// Result `r` of `bound` over these values (adding new ones).
    fn expr(&mut self, bound: &AffineBound, r: usize) -> AffineExpr {
        let exprs: Vec<AffineExpr> = bound
            .operands
            .iter()
            .map(|&v| {
                let i = match self.values.iter().position(|&x| x == v) {
                    Some(i) => i,
                    None => {
                        self.values.push(v);
                        self.values.len() - 1
                    }
                };
                AffineExpr::dim(i as u32)
            })
            .collect();
        let nd = bound.map.num_dims() as usize;
        bound.map.result(r).replace_dims_and_symbols(&exprs[..nd], &exprs[nd..])
    }

    /// The integer set of `constraints` (each `>= 0`) and its operands:
    /// values that are not valid symbols as dimensions, the others as
    /// symbols, unused ones dropped; `() : (0 == 0)` when there are none.
    fn set(&self, b: &Builder<'_>, at: OpId, constraints: Vec<AffineExpr>) -> (IntegerSet, Vec<Value>) {
        if constraints.is_empty() {
            return (
                IntegerSet::new(0, 0, vec![AffineExpr::constant(0)], vec![true]),
                Vec::new(),
            );
        }
        let (ctx, body) = (b.ctx(), b.body());
        let mut used = vec![false; self.values.len()];
        for e in &constraints {
            e.mark_used_dims(&mut used);
        }
        let scope = affine_scope_region(ctx, body, at);
        let symbol = |v: Value| is_valid_symbol(ctx, body, v, scope);
        let dims: Vec<usize> = (0..self.values.len())
            .filter(|&i| used[i] && !symbol(self.values[i]))
            .collect();
        let syms: Vec<usize> = (0..self.values.len())
            .filter(|&i| used[i] && symbol(self.values[i]))
            .collect();
        let mut repl = vec![AffineExpr::constant(0); self.values.len()];
        for (k, &i) in dims.iter().enumerate() {
            repl[i] = AffineExpr::dim(k as u32);
        }
        for (k, &i) in syms.iter().enumerate() {
            repl[i] = AffineExpr::symbol(k as u32);
        }
        let (nd, ns) = (dims.len() as u32, syms.len() as u32);
        let exprs: Vec<AffineExpr> = constraints
            .iter()
            .map(|e| simplify_affine_expr(&e.replace_dims(&repl), nd, ns))
            .collect();
        let operands: Vec<Value> = dims.iter().chain(&syms).map(|&i| self.values[i]).collect();
        let n = exprs.len();
        (IntegerSet::new(nd, ns, exprs, vec![false; n]), operands)
    }
}
