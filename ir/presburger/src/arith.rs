//! Checked integer arithmetic: every operation returns
//! [`Limit::Overflow`](crate::Limit::Overflow) instead of wrapping.
//!
//! `i128::MIN` counts as an overflow too: every value stays in the
//! symmetric range `-(2^127 - 1)..=2^127 - 1`, so `abs`, negation and the
//! gcd of any two values never overflow.

use crate::error::{Result, OVERFLOW};

/// `a + b`, checked.
#[inline]
pub(crate) fn add(a: i128, b: i128) -> Result<i128> {
    a.checked_add(b).filter(|&v| v != i128::MIN).ok_or(OVERFLOW)
}

/// `a - b`, checked.
#[inline]
pub(crate) fn sub(a: i128, b: i128) -> Result<i128> {
    a.checked_sub(b).filter(|&v| v != i128::MIN).ok_or(OVERFLOW)
}

/// `a * b`, checked.
#[inline]
pub(crate) fn mul(a: i128, b: i128) -> Result<i128> {
    a.checked_mul(b).filter(|&v| v != i128::MIN).ok_or(OVERFLOW)
}

/// `a * b + c * d`, checked.
#[inline]
pub(crate) fn mul_add(a: i128, b: i128, c: i128, d: i128) -> Result<i128> {
    add(mul(a, b)?, mul(c, d)?)
}

/// `-a`, checked.
#[inline]
pub(crate) fn neg(a: i128) -> Result<i128> {
    a.checked_neg().filter(|&v| v != i128::MIN).ok_or(OVERFLOW)
}

/// The value as an `i64`, or the overflow error.
#[inline]
pub(crate) fn to_i64(a: i128) -> Result<i64> {
    i64::try_from(a).map_err(|_| OVERFLOW)
}

/// The greatest common divisor of `|a|` and `|b|` (`gcd(0, 0) == 0`).
#[inline]
pub(crate) fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    // Only i128::MIN has the magnitude 2^127, and no checked operation
    // produces it (see the module documentation); were it given, 1 divides
    // everything and only weakens a normalization.
    i128::try_from(a).unwrap_or(1)
}

/// `floor(a / b)` for `b > 0`.
#[inline]
pub(crate) fn floor_div(a: i128, b: i128) -> i128 {
    debug_assert!(b > 0);
    a.div_euclid(b)
}

/// `ceil(a / b)` for `b > 0`.
#[inline]
pub(crate) fn ceil_div(a: i128, b: i128) -> i128 {
    debug_assert!(b > 0);
    -((-a).div_euclid(b))
}

/// The gcd of the entries of `row` (0 for an all-zero row).
#[inline]
pub(crate) fn row_gcd(row: &[i128]) -> i128 {
    let mut g = 0;
    for &v in row {
        if v != 0 {
            g = gcd(g, v);
            if g == 1 {
                break;
            }
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisions_round_the_right_way() {
        assert_eq!(floor_div(7, 2), 3);
        assert_eq!(floor_div(-7, 2), -4);
        assert_eq!(ceil_div(7, 2), 4);
        assert_eq!(ceil_div(-7, 2), -3);
        assert_eq!(ceil_div(6, 3), 2);
    }

    #[test]
    fn overflow_is_detected() {
        assert!(mul(i128::MAX, 2).is_err());
        assert!(add(i128::MAX, 1).is_err());
        assert!(to_i64(i64::MAX as i128 + 1).is_err());
        // i128::MIN is out of range: negation and abs stay safe.
        assert!(sub(-i128::MAX, 1).is_err());
        assert!(mul(i128::MIN / 2, 2).is_err());
        assert_eq!(gcd(i128::MIN, 0), 1);
    }
}
