//! Integer semantics of the affine operators and evaluation of expressions.

use crate::expr::{AffineExpr, BinaryOp, ExprView};

/// The greatest common divisor of `a` and `b` (`gcd(0, b) == b`).
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `a floordiv b`: the quotient rounded towards negative infinity. `None`
/// when `b` is 0 or the result overflows (`i64::MIN floordiv -1`).
pub fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        Some(q - 1)
    } else {
        Some(q)
    }
}

/// `a ceildiv b`: the quotient rounded towards positive infinity. `None`
/// when `b` is 0 or the result overflows (`i64::MIN ceildiv -1`).
pub fn ceil_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if (a % b != 0) && ((a < 0) == (b < 0)) {
        Some(q + 1)
    } else {
        Some(q)
    }
}

/// `a mod b` = `a - b * (a floordiv b)`. For a positive divisor (the only
/// case MLIR defines) the result is in `[0, b)`. For a negative divisor MLIR
/// leaves `mod` undefined; we keep the identity
/// `a == b * (a floordiv b) + a mod b`, so the result is in `(b, 0]`, which
/// also makes MLIR's rewrite `x - (x floordiv q) * q -> x mod q` exact for
/// any `q`. `None` when `b` is 0.
pub fn modulo(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    if b == -1 {
        return Some(0);
    }
    let r = a % b;
    if r != 0 && ((r < 0) != (b < 0)) {
        Some(r + b)
    } else {
        Some(r)
    }
}

impl AffineExpr {
    /// Evaluates the expression for the given dimension and symbol values.
    ///
    /// Returns `None` when a dimension or symbol position is out of range,
    /// on division or `mod` by zero, and when any intermediate result
    /// overflows `i64` (evaluation uses checked arithmetic throughout).
    /// `floordiv`/`ceildiv` round towards -inf/+inf; `mod` follows
    /// [`modulo`]: non-negative for a positive divisor.
    pub fn evaluate(&self, dims: &[i64], symbols: &[i64]) -> Option<i64> {
        match self.view() {
            ExprView::Dim(p) => dims.get(p as usize).copied(),
            ExprView::Symbol(p) => symbols.get(p as usize).copied(),
            ExprView::Constant(c) => Some(c),
            ExprView::Binary(op, l, r) => {
                let a = l.evaluate(dims, symbols)?;
                let b = r.evaluate(dims, symbols)?;
                match op {
                    BinaryOp::Add => a.checked_add(b),
                    BinaryOp::Mul => a.checked_mul(b),
                    BinaryOp::FloorDiv => floor_div(a, b),
                    BinaryOp::CeilDiv => ceil_div(a, b),
                    BinaryOp::Mod => modulo(a, b),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_semantics() {
        assert_eq!(floor_div(7, 2), Some(3));
        assert_eq!(floor_div(-7, 2), Some(-4));
        assert_eq!(floor_div(7, -2), Some(-4));
        assert_eq!(floor_div(-7, -2), Some(3));
        assert_eq!(floor_div(-8, 2), Some(-4));
        assert_eq!(ceil_div(7, 2), Some(4));
        assert_eq!(ceil_div(-7, 2), Some(-3));
        assert_eq!(ceil_div(7, -2), Some(-3));
        assert_eq!(ceil_div(-7, -2), Some(4));
        assert_eq!(ceil_div(8, 2), Some(4));
        assert_eq!(modulo(7, 3), Some(1));
        assert_eq!(modulo(-7, 3), Some(2));
        assert_eq!(modulo(7, -3), Some(-2));
        assert_eq!(modulo(-7, -3), Some(-1));
        assert_eq!(modulo(i64::MIN, -1), Some(0));
        assert_eq!(floor_div(i64::MIN, -1), None);
        assert_eq!(ceil_div(i64::MIN, -1), None);
        assert_eq!(floor_div(1, 0), None);
        assert_eq!(ceil_div(1, 0), None);
        assert_eq!(modulo(1, 0), None);
        assert_eq!(floor_div(i64::MIN, 1), Some(i64::MIN));
        assert_eq!(modulo(i64::MIN, i64::MAX), Some(i64::MAX - 1));
        for a in -20..=20 {
            for b in -6..=6 {
                if b == 0 {
                    continue;
                }
                let q = floor_div(a, b).unwrap();
                let r = modulo(a, b).unwrap();
                assert_eq!(a, b * q + r);
                let exact = a as f64 / b as f64;
                assert_eq!(q, exact.floor() as i64);
                assert_eq!(ceil_div(a, b).unwrap(), exact.ceil() as i64);
            }
        }
    }
}
