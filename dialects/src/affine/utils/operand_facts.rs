//! Simplifying a map with what the loops of its operands tell (MLIR's
//! `simplifyMapWithOperands`, which the affine ops' canonicalization runs
//! after composing and canonicalizing their maps).
//!
//! An operand that is the induction variable of an `affine.for` has the
//! loop's constant bounds, when it has them, and a known divisor (the step
//! when the loop starts at 0). With these, a `floordiv`, `ceildiv` or `mod`
//! by a positive constant folds: to a constant when its left side stays in
//! one period of the divisor; `x mod c` to `x` when `0 <= x < c`;
//! `(q + r) floordiv c` to `q floordiv c` and `(q + r) mod c` to `r mod c`
//! when `q` is a known multiple of `k` and `0 <= r < k` (with `k` dividing
//! `c`, respectively `c` dividing `k`); `x floordiv c` to 0 when
//! `0 <= x < c`, and `x mod c` to 0 when `x` is a known multiple of `c`.

use crate::affine::AffineForOp;
use lf_ir::affine::{affine_expr_bounds, ceil_div, floor_div, gcd, AffineExpr, AffineMap, BinaryOp, ExprView};
use lf_ir::view::OpView;

use lf_ir::{Body, Context, Value, ValueDef};

/// What the `affine.for` whose induction variable an operand is tells
/// about it (MLIR's `getLowerBound`/`getUpperBound` of a value and the
/// loop part of `getLargestKnownDivisor`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct LoopFacts {
    /// The constant lower bound.
    lower: Option<i64>,
    /// The largest value taken, when the upper bound is constant
    /// (inclusive, and exact for a step above 1 when the lower bound is
    /// constant too).
    upper: Option<i64>,
    /// The constant upper bound as written (exclusive).
    upper_exclusive: Option<i64>,
    /// A number every value is a multiple of.
    divisor: i64,
}

/// The facts of operand `v`, if it is the induction variable of an
/// `affine.for`.
fn loop_facts(ctx: &Context, body: &Body, v: Value) -> Option<LoopFacts> {
    let ValueDef::BlockArg { block, index: 0 } = body.value_def(v) else {
        return None;
    };
    let op = body.region_parent(body.block_region(block)?)?;
    let ir = (ctx, body);
    let for_op = AffineForOp::cast(&ir, op)?;
    let lb_map = for_op.lower_bound_map(&ir);
    let ub_map = for_op.upper_bound_map(&ir);
    let step = for_op.step(&ir);
    if step <= 0 {
        return None;
    }
    let lower = lb_map.single_constant_result();
    let upper_exclusive = ub_map.single_constant_result();
    let upper = upper_exclusive.and_then(|ub| match lower {
        // The last value the loop takes: ub - 1 - (ub - lb - 1) % step.
        Some(lb) => ub
            .checked_sub(1)?
            .checked_sub(ub.checked_sub(lb)?.checked_sub(1)?.checked_rem(step)?),
        None => ub.checked_sub(1),
    });
    let divisor = match lower {
        Some(0) => step,
        _ => gcd(largest_known_divisor_of_results(lb_map), step.unsigned_abs()) as i64,
    };
    Some(LoopFacts {
        lower,
        upper,
        upper_exclusive,
        divisor,
    })
}

/// Whether one of `operands` is the induction variable of an `affine.for`.
pub fn any_loop_variable(ctx: &Context, body: &Body, operands: &[Value]) -> bool {
    operands.iter().any(|&v| loop_facts(ctx, body, v).is_some())
}

/// MLIR's `AffineMap::getLargestKnownDivisorOfMapExprs`: the gcd of the
/// results' largest known divisors (`u64::MAX` for no results).
fn largest_known_divisor_of_results(map: &AffineMap) -> u64 {
    map.results()
        .iter()
        .map(|e| e.get_largest_known_divisor() as u64)
        .reduce(gcd)
        .unwrap_or(u64::MAX)
}

/// A map's operands, with their facts looked up when first needed.
struct Operands<'a> {
    ctx: &'a Context,
    body: &'a Body,
    values: &'a [Value],
    num_dims: u32,
    num_symbols: u32,
    facts: Vec<std::cell::OnceCell<Option<LoopFacts>>>,
}

impl<'a> Operands<'a> {
    /// The operands of `map`, none of their facts looked up yet.
    fn new(ctx: &'a Context, body: &'a Body, map: &AffineMap, values: &'a [Value]) -> Self {
        Operands {
            ctx,
            body,
            values,
            num_dims: map.num_dims(),
            num_symbols: map.num_symbols(),
            facts: values.iter().map(|_| std::cell::OnceCell::new()).collect(),
        }
    }

    fn facts(&self, i: usize) -> Option<LoopFacts> {
        let cell = self.facts.get(i)?;
        *cell.get_or_init(|| loop_facts(self.ctx, self.body, self.values[i]))
    }

    fn facts_of_dim(&self, e: &AffineExpr) -> Option<LoopFacts> {
        match e.view() {
            ExprView::Dim(p) => self.facts(p as usize),
            _ => None,
        }
    }

    /// MLIR's `getLargestKnownDivisor(expr, operands)`.
    fn largest_known_divisor(&self, e: &AffineExpr) -> i64 {
        match e.view() {
            ExprView::Dim(_) => self.facts_of_dim(e).map_or(1, |f| f.divisor),
            _ => e.get_largest_known_divisor(),
        }
    }

    /// MLIR's `isNonNegativeBoundedBy`: `0 <= e < k` for a constant or a
    /// loop variable with constant bounds.
    fn is_non_negative_bounded_by(&self, e: &AffineExpr, k: i64) -> bool {
        if let Some(c) = e.as_constant() {
            return c >= 0 && c < k;
        }
        self.facts_of_dim(e)
            .is_some_and(|f| f.lower.is_some_and(|lb| lb >= 0) && f.upper_exclusive.is_some_and(|ub| ub <= k))
    }

    /// MLIR's `isQTimesDPlusR`: `e` is `q + r` (either order) with `q` a
    /// known multiple of `d` and `0 <= r < d`; returns `(d, q, r)`.
    fn q_times_d_plus_r<'e>(&self, e: &'e AffineExpr) -> Option<(i64, &'e AffineExpr, &'e AffineExpr)> {
        let ExprView::Binary(BinaryOp::Add, l, r) = e.view() else {
            return None;
        };
        let d = self.largest_known_divisor(l);
        if self.is_non_negative_bounded_by(r, d) {
            return Some((d, l, r));
        }
        let d = self.largest_known_divisor(r);
        self.is_non_negative_bounded_by(l, d).then_some((d, r, l))
    }

    /// MLIR's `getLowerBound`/`getUpperBound` of an expression.
    fn bounds(&self, e: &AffineExpr) -> (Option<i64>, Option<i64>) {
        match e.as_constant() {
            Some(c) => (Some(c), Some(c)),
            None => {
                let input = |i: usize| self.facts(i).map_or((None, None), |f| (f.lower, f.upper));
                affine_expr_bounds(e, self.num_dims, self.num_symbols, &input)
            }
        }
    }

    /// MLIR's `simplifyExprAndOperands`; `None` when `e` stays as it is.
    fn simplify(&self, e: &AffineExpr) -> Option<AffineExpr> {
        // Only the divisions by constants change (a node rebuilt from the
        // same sides is the same node).
        if !e.divides_by_constant() {
            return None;
        }
        let ExprView::Binary(op, l, r) = e.view() else {
            return None;
        };
        let (new_l, new_r) = (self.simplify(l), self.simplify(r));
        // Rebuilt (with the construction rules) only when a side changed:
        // building the same node again gives it back.
        let rebuilt = (new_l.is_some() || new_r.is_some())
            .then(|| AffineExpr::binary(op, new_l.as_ref().unwrap_or(l), new_r.as_ref().unwrap_or(r)));
        let expr = rebuilt.as_ref().unwrap_or(e);
        match self.fold_division(expr) {
            Some(folded) => Some(folded),
            None => rebuilt,
        }
    }

    /// The last steps of `simplifyExprAndOperands`, on a node whose sides
    /// are simplified already.
    fn fold_division(&self, e: &AffineExpr) -> Option<AffineExpr> {
        let ExprView::Binary(op, lhs, rhs) = e.view() else {
            return None;
        };
        if !matches!(op, BinaryOp::FloorDiv | BinaryOp::CeilDiv | BinaryOp::Mod) {
            return None;
        }
        let c = rhs.as_constant().filter(|c| *c > 0)?;
        if let (Some(lb), Some(ub)) = self.bounds(lhs) {
            match op {
                BinaryOp::FloorDiv if floor_div(lb, c) == floor_div(ub, c) => {
                    return Some(AffineExpr::constant(floor_div(lb, c)?));
                }
                BinaryOp::CeilDiv if ceil_div(lb, c) == ceil_div(ub, c) => {
                    return Some(AffineExpr::constant(ceil_div(lb, c)?));
                }
                BinaryOp::Mod if lb >= 0 && lb < c && ub < c => return Some(lhs.clone()),
                _ => {}
            }
        }
        if let Some((d, q, r)) = self.q_times_d_plus_r(lhs) {
            let c_expr = AffineExpr::constant(c);
            // MLIR's `%` on int64_t; d is never 0 here (0 <= r < d).
            return match op {
                BinaryOp::FloorDiv if c.checked_rem(d) == Some(0) => Some(q.floor_div(&c_expr)),
                BinaryOp::Mod if d.checked_rem(c) == Some(0) => Some(r.modulo(&c_expr)),
                _ => None,
            };
        }
        let zero = match op {
            BinaryOp::FloorDiv => self.is_non_negative_bounded_by(lhs, c),
            BinaryOp::Mod => self.largest_known_divisor(lhs).checked_rem(c) == Some(0),
            _ => false,
        };
        zero.then(|| AffineExpr::constant(0))
    }
}

/// MLIR's `simplifyMapWithOperands`: `map` with each result simplified
/// using the facts of `operands` (dimensions, then symbols); `None` when
/// nothing changes. The map keeps its dimensions and symbols (an operand
/// that is no longer used goes the next time the op is canonicalized).
pub fn simplify_map_with_operands(
    ctx: &Context,
    body: &Body,
    map: &AffineMap,
    operands: &[Value],
) -> Option<AffineMap> {
    if operands.len() != map.num_inputs() as usize || !map.results().iter().any(AffineExpr::divides_by_constant) {
        return None;
    }
    let info = Operands::new(ctx, body, map, operands);
    let new: Vec<Option<AffineExpr>> = map.results().iter().map(|r| info.simplify(r)).collect();
    if new.iter().all(Option::is_none) {
        return None;
    }
    let results = new
        .into_iter()
        .zip(map.results())
        .map(|(n, old)| n.unwrap_or_else(|| old.clone()))
        .collect();
    let simplified = AffineMap::new(map.num_dims(), map.num_symbols(), results);
    (simplified != *map).then_some(simplified)
}

/// MLIR's `simplifyMinOrMaxExprWithOperands`: the results of `map`, a
/// maximum (`is_max`, a loop's lower bound) or minimum (an upper bound) of
/// its results, with each result whose bounds meet replaced by that
/// constant and the results that can never be the maximum (minimum)
/// dropped, judged by the constant bounds of the operands' loops. Of two
/// results that are equal constants, the first stays.
pub fn simplify_min_or_max_with_operands(
    ctx: &Context,
    body: &Body,
    map: &AffineMap,
    operands: &[Value],
    is_max: bool,
) -> AffineMap {
    if operands.is_empty() || operands.len() != map.num_inputs() as usize {
        return map.clone();
    }
    let info = Operands::new(ctx, body, map, operands);
    let (lower, upper): (Vec<Option<i64>>, Vec<Option<i64>>) = map.results().iter().map(|e| info.bounds(e)).unzip();
    let mut kept = Vec::new();
    for (i, e) in map.results().iter().enumerate() {
        let e = match (lower[i], upper[i]) {
            (Some(lo), Some(hi)) if lo == hi => AffineExpr::constant(lo),
            _ => e.clone(),
        };
        let exact = |k: usize| lower[k].is_some() && lower[k] == upper[k];
        // Whether another result always beats this one.
        let beaten = if is_max {
            upper[i].is_some_and(|hi| {
                lower.iter().enumerate().any(|(pos, other)| match *other {
                    Some(other) if pos != i => {
                        other > hi || (other == hi && !(exact(i) && upper[pos] == Some(other) && i < pos))
                    }
                    _ => false,
                })
            })
        } else {
            lower[i].is_some_and(|lo| {
                upper.iter().enumerate().any(|(pos, other)| match *other {
                    Some(other) if pos != i => {
                        other < lo || (other == lo && !(exact(i) && lower[pos] == Some(other) && i < pos))
                    }
                    _ => false,
                })
            })
        };
        if !beaten {
            kept.push(e);
        }
    }
    if kept.is_empty() {
        return map.clone();
    }
    AffineMap::new(map.num_dims(), map.num_symbols(), kept)
}
