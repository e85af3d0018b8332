//! Constant bounds of expressions from constant bounds of their inputs
//! (MLIR's `getBoundForAffineExpr`).

use crate::eval::{ceil_div, floor_div, modulo};
use crate::expr::{AffineExpr, BinaryOp, ExprView};
use crate::simplify::flatten_without_locals;

/// Constant bounds of `expr`, inclusive (lower, upper), given optional
/// constant bounds of its inputs: `input(i)` gives those of dimension `i`,
/// and of symbol `j` at `num_dims + j` (asked only for inputs the bound
/// depends on). This is MLIR's
/// `getBoundForAffineExpr`, asked for both sides at once (one flattening).
///
/// As MLIR: a `floordiv`/`ceildiv` by a positive constant divides the
/// bounds of its left side; a `mod` by a positive constant is bounded by the
/// remainders of its left side's bounds when both lie in one period of the
/// divisor, else by `0` and `c - 1` (MLIR's lower bound of a `mod` is the
/// remainder of its left side's lower bound whenever that exists, and so is
/// this one); anything else is flattened, and a bound exists when the
/// flattened form has no local variables and every input with a non-zero
/// coefficient has the bound its sign calls for.
///
/// `None` where MLIR's would wrap around in `int64_t`.
pub fn affine_expr_bounds(
    expr: &AffineExpr,
    num_dims: u32,
    num_symbols: u32,
    input: &dyn Fn(usize) -> (Option<i64>, Option<i64>),
) -> (Option<i64>, Option<i64>) {
    if let ExprView::Binary(op, lhs, rhs) = expr.view() {
        let divisor = rhs.as_constant().filter(|c| *c >= 1);
        let of_lhs = || affine_expr_bounds(lhs, num_dims, num_symbols, input);
        match (op, divisor) {
            (BinaryOp::FloorDiv | BinaryOp::CeilDiv, None) => return (None, None),
            (BinaryOp::FloorDiv, Some(c)) => {
                let (lo, hi) = of_lhs();
                return (lo.and_then(|v| floor_div(v, c)), hi.and_then(|v| floor_div(v, c)));
            }
            (BinaryOp::CeilDiv, Some(c)) => {
                let (lo, hi) = of_lhs();
                return (lo.and_then(|v| ceil_div(v, c)), hi.and_then(|v| ceil_div(v, c)));
            }
            (BinaryOp::Mod, Some(c)) => {
                let (lo, hi) = of_lhs();
                let low = lo.map_or(Some(0), |v| modulo(v, c));
                let high = match (lo, hi) {
                    (Some(l), Some(h)) if floor_div(l, c) == floor_div(h, c) => modulo(h, c),
                    _ => Some(c - 1),
                };
                return (low, high);
            }
            _ => {}
        }
    }
    let Some(flat) = flatten_without_locals(expr, num_dims, num_symbols) else {
        return (None, None);
    };
    let side = |is_upper: bool| -> Option<i64> {
        let inputs = (num_dims + num_symbols) as usize;
        let mut bound: i64 = 0;
        for (i, &coefficient) in flat.iter().take(inputs).enumerate() {
            let use_upper = match coefficient.signum() {
                0 => continue,
                1 => is_upper,
                _ => !is_upper,
            };
            let (lo, hi) = input(i);
            let input_bound = if use_upper { hi } else { lo };
            bound = bound.checked_add(input_bound?.checked_mul(coefficient)?)?;
        }
        bound.checked_add(*flat.last()?)
    };
    (side(false), side(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_affine_map;

    fn bound(text: &str, lower: &[Option<i64>], upper: &[Option<i64>], is_upper: bool) -> Option<i64> {
        let map = parse_affine_map(text).expect("map parses");
        let input = |i: usize| (lower.get(i).copied().flatten(), upper.get(i).copied().flatten());
        let (lo, hi) = affine_expr_bounds(map.result(0), map.num_dims(), map.num_symbols(), &input);
        if is_upper {
            hi
        } else {
            lo
        }
    }

    #[test]
    fn linear_expressions_take_the_bound_their_signs_call_for() {
        // 0 <= d0 <= 9, 2 <= d1 <= 5.
        let (lo, hi) = ([Some(0), Some(2)], [Some(9), Some(5)]);
        assert_eq!(bound("(d0, d1) -> (d0 * 2 - d1 + 1)", &lo, &hi, true), Some(17));
        assert_eq!(bound("(d0, d1) -> (d0 * 2 - d1 + 1)", &lo, &hi, false), Some(-4));
        // An unbounded input with a non-zero coefficient: no bound.
        assert_eq!(bound("(d0, d1) -> (d0 + d1)", &lo, &[None, Some(5)], true), None);
        assert_eq!(bound("(d0, d1) -> (d0 + d1)", &lo, &[None, Some(5)], false), Some(2));
        // A product of two inputs is a local variable: no bound.
        assert_eq!(bound("(d0)[s0] -> (d0 * s0)", &lo, &hi, true), None);
    }

    #[test]
    fn divisions_and_mod_by_constants() {
        let (lo, hi) = ([Some(0)], [Some(9)]);
        assert_eq!(bound("(d0) -> (d0 floordiv 4)", &lo, &hi, true), Some(2));
        assert_eq!(bound("(d0) -> (d0 ceildiv 4)", &lo, &hi, true), Some(3));
        // 0..9 spans several periods of 4: the generic bounds of a mod.
        assert_eq!(bound("(d0) -> (d0 mod 4)", &lo, &hi, true), Some(3));
        assert_eq!(bound("(d0) -> (d0 mod 4)", &lo, &hi, false), Some(0));
        // 5..6 lies in one period of 4.
        assert_eq!(bound("(d0) -> (d0 mod 4)", &[Some(5)], &[Some(6)], true), Some(2));
        // A division inside a sum is a local variable.
        assert_eq!(bound("(d0) -> (d0 floordiv 4 + 1)", &lo, &hi, true), None);
        // ... unless it divides exactly.
        assert_eq!(bound("(d0) -> ((d0 * 4) floordiv 2 + 1)", &lo, &hi, true), Some(19));
    }
}
