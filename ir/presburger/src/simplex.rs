//! A rational simplex tableau over checked 128-bit integers.
//!
//! The tableau keeps every *unknown* (a variable or a constraint) either in a
//! column (its value at the current sample point is 0) or in a row, where it
//! is an affine function of the column unknowns:
//! `den * row_unknown = konst + sum_j coeff_j * column_unknown_j`, with a
//! positive per-row denominator and all entries integers (divided by their
//! gcd after every change). Variables are unrestricted in sign; constraints
//! (`expr >= 0`) are restricted to non-negative values. The tableau is
//! *feasible* when every restricted row has a non-negative constant: the
//! sample point (columns at 0) then satisfies every constraint.
//!
//! Adding a constraint whose row is negative at the sample pivots it up
//! (`restore_row`); when no column can raise it, the system is rationally
//! empty. Optimizing an expression adds it as an unrestricted row and pivots
//! it up while the other rows stay feasible. Pivot choice follows Bland's
//! rule (smallest unknown index, for the entering column and for ties in the
//! ratio test), which rules out cycling; [`MAX_PIVOTS`] is a second guard.

use crate::arith::{add, gcd, mul, mul_add, neg};
use crate::error::{Error, Limit, Result, MAX_PIVOTS};

/// The unknown index of a temporary objective row (never a pivot row).
const OBJECTIVE: u32 = u32::MAX;

/// The optimum of a linear expression over a rational polyhedron.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RationalOpt {
    /// The polyhedron is empty.
    Empty,
    /// The expression is unbounded in the asked direction.
    Unbounded,
    /// The optimum `num / den` (`den > 0`).
    Bounded(i128, i128),
}

/// A feasible simplex tableau (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct Simplex {
    nvars: usize,
    /// `2 + nvars`: denominator, constant, one coefficient per column.
    width: usize,
    tab: Vec<i128>,
    row_unknown: Vec<u32>,
    col_unknown: Vec<u32>,
    /// Per unknown: `r >= 0` for row `r`, `-(c + 1)` for column `c`.
    pos: Vec<i32>,
    empty: bool,
    pivots: usize,
}

impl Simplex {
    /// The tableau of `nvars` unconstrained variables.
    pub(crate) fn new(nvars: usize, capacity_rows: usize) -> Simplex {
        let width = nvars + 2;
        let mut tab = Vec::with_capacity(width * capacity_rows);
        tab.clear();
        Simplex {
            nvars,
            width,
            tab,
            row_unknown: Vec::with_capacity(capacity_rows),
            col_unknown: (0..nvars as u32).collect(),
            pos: (0..nvars as i32).map(|c| -(c + 1)).collect(),
            empty: false,
            pivots: 0,
        }
    }

    /// The number of variables.
    #[inline]
    pub(crate) fn num_vars(&self) -> usize {
        self.nvars
    }

    /// Whether the constraints added so far have no rational solution.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.empty
    }

    #[inline]
    fn nrows(&self) -> usize {
        self.row_unknown.len()
    }

    #[inline]
    fn row(&self, r: usize) -> &[i128] {
        &self.tab[r * self.width..(r + 1) * self.width]
    }

    #[inline]
    fn at(&self, r: usize, k: usize) -> i128 {
        self.tab[r * self.width + k]
    }

    #[inline]
    fn restricted(u: u32, nvars: usize) -> bool {
        u != OBJECTIVE && u as usize >= nvars
    }

    /// Appends the row of `konst + sum_v coeffs[v] * x_v` in terms of the
    /// current column unknowns, for unknown `unknown`; returns its index.
    fn push_row(&mut self, coeffs: &[i128], konst: i128, unknown: u32) -> Result<usize> {
        debug_assert_eq!(coeffs.len(), self.nvars);
        let w = self.width;
        let r = self.nrows();
        self.tab.resize((r + 1) * w, 0);
        self.tab[r * w] = 1;
        self.tab[r * w + 1] = konst;
        for (v, &a) in coeffs.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let p = self.pos[v];
            if p < 0 {
                let k = r * w + 2 + (-(p + 1)) as usize;
                self.tab[k] = add(self.tab[k], mul(a, self.tab[r * w])?)?;
            } else {
                // new = new * (d_p / g) + a * (D / g) * row_p, over lcm(D, d_p).
                let p = p as usize;
                let (dn, dp) = (self.tab[r * w], self.tab[p * w]);
                let g = gcd(dn, dp);
                let (sn, sp) = (dp / g, mul(a, dn / g)?);
                self.tab[r * w] = mul(dn, sn)?;
                for k in 1..w {
                    let v = mul_add(self.tab[r * w + k], sn, self.tab[p * w + k], sp)?;
                    self.tab[r * w + k] = v;
                }
            }
        }
        self.normalize_row(r);
        self.row_unknown.push(unknown);
        Ok(r)
    }

    /// Divides row `r` (denominator included) by the gcd of its entries.
    #[inline]
    fn normalize_row(&mut self, r: usize) {
        let w = self.width;
        let row = &mut self.tab[r * w..(r + 1) * w];
        let mut g = 0;
        for &v in row.iter() {
            if v != 0 {
                g = gcd(g, v);
                if g == 1 {
                    return;
                }
            }
        }
        if g > 1 {
            for v in row.iter_mut() {
                *v /= g;
            }
        }
    }

    /// Adds `konst + coeffs . x >= 0`. Marks the tableau empty when the
    /// constraints have no rational solution any more.
    pub(crate) fn add_inequality(&mut self, coeffs: &[i128], konst: i128) -> Result<()> {
        if self.empty {
            return Ok(());
        }
        let u = self.pos.len() as u32;
        let r = self.push_row(coeffs, konst, u)?;
        self.pos.push(r as i32);
        if self.at(r, 1) < 0 && !self.restore_row(r)? {
            self.empty = true;
        }
        Ok(())
    }

    /// Adds `konst + coeffs . x == 0` (as two inequalities).
    pub(crate) fn add_equality(&mut self, coeffs: &[i128], konst: i128) -> Result<()> {
        self.add_inequality(coeffs, konst)?;
        let negated: Vec<i128> = coeffs.iter().map(|&a| neg(a)).collect::<Result<_>>()?;
        self.add_inequality(&negated, neg(konst)?)
    }

    /// The column that raises row `r`, by Bland's rule, with the direction
    /// (+1 or -1) its unknown moves in.
    fn entering_column(&self, r: usize) -> Option<(usize, i128)> {
        let mut best: Option<(usize, i128)> = None;
        for c in 0..self.nvars {
            let a = self.at(r, 2 + c);
            if a == 0 {
                continue;
            }
            let u = self.col_unknown[c];
            let dir = if Self::restricted(u, self.nvars) {
                if a < 0 {
                    continue;
                }
                1
            } else {
                a.signum()
            };
            if best.is_none_or(|(b, _)| u < self.col_unknown[b]) {
                best = Some((c, dir));
            }
        }
        best
    }

    /// The restricted row (other than `skip`) that first reaches 0 when
    /// column `c` moves in direction `dir`, with its ratio `konst / |coeff|`
    /// as a fraction; ties go to the smallest unknown index.
    fn leaving_row(&self, skip: usize, c: usize, dir: i128) -> Result<Option<(usize, i128, i128)>> {
        let mut best: Option<(usize, i128, i128)> = None;
        for i in 0..self.nrows() {
            if i == skip || !Self::restricted(self.row_unknown[i], self.nvars) {
                continue;
            }
            let a = self.at(i, 2 + c);
            if a == 0 || (a > 0) == (dir > 0) {
                continue;
            }
            let (num, den) = (self.at(i, 1), a.abs());
            let better = match best {
                None => true,
                Some((b, bn, bd)) => {
                    let (lhs, rhs) = (mul(num, bd)?, mul(bn, den)?);
                    lhs < rhs || (lhs == rhs && self.row_unknown[i] < self.row_unknown[b])
                }
            };
            if better {
                best = Some((i, num, den));
            }
        }
        Ok(best)
    }

    /// Pivots until row `r` (a restricted row with a negative sample value)
    /// is non-negative. Returns false when no column can raise it: the
    /// constraints are rationally infeasible.
    fn restore_row(&mut self, r: usize) -> Result<bool> {
        loop {
            if self.at(r, 1) >= 0 {
                return Ok(true);
            }
            let Some((c, dir)) = self.entering_column(r) else {
                return Ok(false);
            };
            // Row r reaches 0 after a move of -konst / |a|.
            let (own_num, own_den) = (neg(self.at(r, 1))?, self.at(r, 2 + c).abs());
            match self.leaving_row(r, c, dir)? {
                Some((i, num, den)) if mul(num, own_den)? < mul(own_num, den)? => self.pivot(i, c)?,
                _ => {
                    self.pivot(r, c)?;
                    return Ok(true);
                }
            }
        }
    }

    /// Makes the unknown of row `r` a column unknown and that of column `c`
    /// a row unknown.
    fn pivot(&mut self, r: usize, c: usize) -> Result<()> {
        self.pivots += 1;
        if self.pivots > MAX_PIVOTS {
            return Err(Error::LimitExceeded(Limit::Pivots));
        }
        let w = self.width;
        // The pivot row, solved for the column unknown:
        // a * u_c = d_r * u_r - konst_r - sum_{j != c} a_j u_j.
        let a = self.at(r, 2 + c);
        let d = self.at(r, 0);
        {
            let row = &mut self.tab[r * w..(r + 1) * w];
            if a > 0 {
                row[0] = a;
                for v in row[1..].iter_mut() {
                    *v = neg(*v)?;
                }
                row[2 + c] = d;
            } else {
                row[0] = neg(a)?;
                row[2 + c] = neg(d)?;
            }
        }
        self.normalize_row(r);
        let (pivot_den, pivot_c) = (self.at(r, 0), self.at(r, 2 + c));
        for i in 0..self.nrows() {
            if i == r {
                continue;
            }
            let aic = self.at(i, 2 + c);
            if aic == 0 {
                continue;
            }
            // den_i * P_den; konst_i * P_den + a_ic * P_konst; a_ic * P_c at
            // column c; a_ij * P_den + a_ic * P_j elsewhere.
            for k in 0..w {
                let v = if k == 0 {
                    mul(self.at(i, 0), pivot_den)?
                } else if k == 2 + c {
                    mul(aic, pivot_c)?
                } else {
                    mul_add(self.at(i, k), pivot_den, aic, self.at(r, k))?
                };
                self.tab[i * w + k] = v;
            }
            self.normalize_row(i);
        }
        let (ur, uc) = (self.row_unknown[r], self.col_unknown[c]);
        self.row_unknown[r] = uc;
        self.col_unknown[c] = ur;
        if uc != OBJECTIVE {
            self.pos[uc as usize] = r as i32;
        }
        if ur != OBJECTIVE {
            self.pos[ur as usize] = -(c as i32 + 1);
        }
        Ok(())
    }

    /// The optimum of `konst + coeffs . x`, maximized or minimized, over the
    /// constraints added so far. The tableau stays feasible (its sample may
    /// move to the optimum).
    pub(crate) fn optimize(&mut self, coeffs: &[i128], konst: i128, maximize: bool) -> Result<RationalOpt> {
        Ok(self.optimize_with_duals(coeffs, konst, maximize, &[])?.0)
    }

    /// [`optimize`](Self::optimize), and at a bounded optimum the dual value
    /// (shadow price) of each equality named in `equalities` by the index of
    /// its first inequality (equality `e == 0` added as `e >= 0`, then
    /// `-e >= 0`): the derivative `lambda` of the optimum when the equality
    /// becomes `e == t`, as `(num, den)`. Then the optimum equals the
    /// optimum of `objective - lambda * e` without that equality (LP
    /// duality), which is what basis reduction needs.
    pub(crate) fn optimize_with_duals(
        &mut self,
        coeffs: &[i128],
        konst: i128,
        maximize: bool,
        equalities: &[usize],
    ) -> Result<(RationalOpt, Vec<(i128, i128)>)> {
        if self.empty {
            return Ok((RationalOpt::Empty, Vec::new()));
        }
        let r = if maximize {
            self.push_row(coeffs, konst, OBJECTIVE)?
        } else {
            let negated: Vec<i128> = coeffs.iter().map(|&a| neg(a)).collect::<Result<_>>()?;
            self.push_row(&negated, neg(konst)?, OBJECTIVE)?
        };
        let result = self.maximize_row(r);
        let mut duals = Vec::with_capacity(equalities.len());
        if let Ok(RationalOpt::Bounded(..)) = result {
            let den = self.at(r, 0);
            for &k in equalities {
                // Relaxing `e >= 0` (a column unknown u with objective
                // coefficient d <= 0) to `e >= -t` moves the optimum by
                // -d t, so lambda = d; relaxing `-e >= 0` moves it by -d' t
                // for e = t, so lambda = -d'.
                let (g1, g2) = (self.pos[self.nvars + k], self.pos[self.nvars + k + 1]);
                let num = if g1 < 0 {
                    self.at(r, 2 + (-(g1 + 1)) as usize)
                } else if g2 < 0 {
                    neg(self.at(r, 2 + (-(g2 + 1)) as usize))?
                } else {
                    0
                };
                let g = gcd(num, den).max(1);
                duals.push((num / g, den / g));
            }
        }
        // The objective row is never a pivot row: it is still row r, the last.
        debug_assert_eq!(r, self.nrows() - 1);
        self.row_unknown.pop();
        self.tab.truncate(r * self.width);
        let opt = match result? {
            RationalOpt::Bounded(num, den) if !maximize => RationalOpt::Bounded(neg(num)?, den),
            other => other,
        };
        Ok((opt, duals))
    }

    /// The number of constraints added (an equality counts as two).
    #[inline]
    pub(crate) fn num_constraints(&self) -> usize {
        self.pos.len() - self.nvars
    }

    /// Pivots row `r` up to its maximum.
    fn maximize_row(&mut self, r: usize) -> Result<RationalOpt> {
        loop {
            let Some((c, dir)) = self.entering_column(r) else {
                return Ok(RationalOpt::Bounded(self.at(r, 1), self.at(r, 0)));
            };
            match self.leaving_row(r, c, dir)? {
                None => return Ok(RationalOpt::Unbounded),
                Some((i, _, _)) => self.pivot(i, c)?,
            }
        }
    }

    /// The sample value of variable `v` as a reduced fraction `(num, den)`,
    /// `den > 0`.
    #[inline]
    pub(crate) fn var_value(&self, v: usize) -> (i128, i128) {
        let p = self.pos[v];
        if p < 0 {
            (0, 1)
        } else {
            let row = self.row(p as usize);
            let g = gcd(row[1], row[0]);
            (row[1] / g, row[0] / g)
        }
    }

    /// The sample value of constraint `k` (in the order added, equalities
    /// counting twice) as `(num, den)`.
    #[inline]
    pub(crate) fn constraint_value(&self, k: usize) -> (i128, i128) {
        self.var_value(self.nvars + k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_optimum() {
        // 0 <= x <= 3, 0 <= y <= 5, x + y <= 6.
        let mut s = Simplex::new(2, 8);
        s.add_inequality(&[1, 0], 0).unwrap();
        s.add_inequality(&[-1, 0], 3).unwrap();
        s.add_inequality(&[0, 1], 0).unwrap();
        s.add_inequality(&[0, -1], 5).unwrap();
        s.add_inequality(&[-1, -1], 6).unwrap();
        assert!(!s.is_empty());
        assert_eq!(s.optimize(&[2, 1], 0, true).unwrap(), RationalOpt::Bounded(9, 1));
        assert_eq!(s.optimize(&[1, 1], 0, false).unwrap(), RationalOpt::Bounded(0, 1));
        assert_eq!(s.optimize(&[1, -1], 0, false).unwrap(), RationalOpt::Bounded(-5, 1));
    }

    #[test]
    fn rational_optimum_and_unbounded() {
        // 2x >= 1, y free.
        let mut s = Simplex::new(2, 4);
        s.add_inequality(&[2, 0], -1).unwrap();
        assert_eq!(s.optimize(&[1, 0], 0, false).unwrap(), RationalOpt::Bounded(1, 2));
        assert_eq!(s.optimize(&[1, 0], 0, true).unwrap(), RationalOpt::Unbounded);
        assert_eq!(s.optimize(&[0, 1], 0, false).unwrap(), RationalOpt::Unbounded);
    }

    #[test]
    fn infeasible() {
        // x >= 2, y >= x, y <= 1.
        let mut s = Simplex::new(2, 4);
        s.add_inequality(&[1, 0], -2).unwrap();
        s.add_inequality(&[-1, 1], 0).unwrap();
        assert!(!s.is_empty());
        s.add_inequality(&[0, -1], 1).unwrap();
        assert!(s.is_empty());
        assert_eq!(s.optimize(&[1, 0], 0, true).unwrap(), RationalOpt::Empty);
    }

    #[test]
    fn equalities() {
        // 2x = 1: rationally feasible at x = 1/2.
        let mut s = Simplex::new(1, 4);
        s.add_equality(&[2], -1).unwrap();
        assert!(!s.is_empty());
        assert_eq!(s.var_value(0), (1, 2));
    }
}

#[cfg(test)]
mod dual_tests {
    use super::*;

    #[test]
    fn dual_of_an_equality_is_the_shadow_price() {
        // max a s.t. a - b == 0, b <= 7, a <= 10: 7; with a - b == t the
        // optimum is 7 + t, so lambda = 1.
        let mut s = Simplex::new(2, 8);
        s.add_inequality(&[0, -1], 7).unwrap();
        s.add_inequality(&[-1, 0], 10).unwrap();
        let k = s.num_constraints();
        s.add_equality(&[1, -1], 0).unwrap();
        let (opt, duals) = s.optimize_with_duals(&[1, 0], 0, true, &[k]).unwrap();
        assert_eq!(opt, RationalOpt::Bounded(7, 1));
        assert_eq!(duals, vec![(1, 1)]);
        // Same with the equality written the other way: b - a == 0, so
        // b - a == t gives 7 - t... no: a = b - t <= 7 - t: lambda = -1.
        let mut s = Simplex::new(2, 8);
        s.add_inequality(&[0, -1], 7).unwrap();
        s.add_inequality(&[-1, 0], 10).unwrap();
        let k = s.num_constraints();
        s.add_equality(&[-1, 1], 0).unwrap();
        let (_, duals) = s.optimize_with_duals(&[1, 0], 0, true, &[k]).unwrap();
        assert_eq!(duals, vec![(-1, 1)]);
    }
}
