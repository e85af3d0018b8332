//! Comparing systems: inclusion and equality of their integer points.

use crate::error::{Error, Result, OVERFLOW};
use crate::relation::{IntegerRelation, VarKind};

impl IntegerRelation {
    /// Whether every integer point of `self` is a point of `other` (same
    /// space; panics otherwise).
    ///
    /// Exact when every local of `other` is a division of earlier columns
    /// (recorded, or found by
    /// [`recover_divisions`](Self::recover_divisions)): then `other`'s
    /// locals are functions of the point and `self ⊆ other` holds iff, for
    /// each constraint of `other`, `self` with those divisions and the
    /// negated constraint has no integer point. Otherwise
    /// [`Error::Unsupported`].
    pub fn is_subset_of(&self, other: &IntegerRelation) -> Result<bool> {
        assert!(self.has_same_space(other), "is_subset_of: spaces differ");
        let mut o = other.clone();
        o.recover_divisions();
        if o.divs.iter().any(|d| d.is_none()) {
            return Err(Error::Unsupported(
                "subset test against a set with a local that is not a division",
            ));
        }
        if self.is_empty()? {
            return Ok(true);
        }
        // `self` with `other`'s locals, defined by their divisions only.
        let mut base = self.clone();
        let first = base.var_offset(VarKind::Local) + base.num_local_vars();
        let nl = o.num_non_local_vars();
        let map = |row: &[i64], cols: usize| -> Vec<i64> {
            let mut r = vec![0; cols];
            r[..nl].copy_from_slice(&row[..nl]);
            for l in 0..o.num_local_vars() {
                if first + l < cols - 1 {
                    r[first + l] = row[nl + l];
                }
            }
            r[cols - 1] = row[row.len() - 1];
            r
        };
        for l in 0..o.num_local_vars() {
            let d = o.division(l).expect("checked above");
            let dividend = map(&d.dividend, base.num_cols());
            base.add_local_floordiv(&dividend, d.divisor)?;
        }
        let cols = base.num_cols();
        let mut probe = base.clone();
        let mut outside = |row: Vec<i64>| -> Result<bool> {
            // Is there a point of `base` with row <= -1, i.e. -row - 1 >= 0?
            let mut neg: Vec<i64> = row
                .iter()
                .map(|&v| v.checked_neg().ok_or(OVERFLOW))
                .collect::<Result<_>>()?;
            let last = neg.len() - 1;
            neg[last] = neg[last].checked_sub(1).ok_or(OVERFLOW)?;
            probe.clone_from(&base);
            probe.add_inequality(&neg);
            Ok(!probe.is_empty()?)
        };
        for row in o.inequalities() {
            if outside(map(row, cols))? {
                return Ok(false);
            }
        }
        for row in o.equalities() {
            let r = map(row, cols);
            let negated: Vec<i64> = r
                .iter()
                .map(|&v| v.checked_neg().ok_or(OVERFLOW))
                .collect::<Result<_>>()?;
            if outside(r)? || outside(negated)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether the two systems have the same integer points (inclusion both
    /// ways; see [`is_subset_of`](Self::is_subset_of) for when it is
    /// supported).
    pub fn is_equal(&self, other: &IntegerRelation) -> Result<bool> {
        Ok(self.is_subset_of(other)? && other.is_subset_of(self)?)
    }
}
