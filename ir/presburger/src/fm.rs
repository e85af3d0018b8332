//! MLIR-compatible elimination: Gaussian elimination and Fourier–Motzkin with
//! GCD tightening, exactly as MLIR's `IntegerRelation` does them
//! (`isEmpty`, `projectOut`, `getConstantBound`, `removeRedundantLocalVars`,
//! `mergeLocalVars`).
//!
//! These are **over-approximations** over the integers: Fourier–Motzkin
//! computes the rational shadow, tightened by the gcd of each row, so
//! [`is_empty_fm`](IntegerRelation::is_empty_fm) may answer "not empty" for a
//! set without integer points, and
//! [`constant_bound_fm`](IntegerRelation::constant_bound_fm) may answer a
//! looser bound than the exact one ([`IntegerRelation::is_empty`] and
//! [`IntegerRelation::constant_bound`] are exact). They exist for one
//! reason: passes that carry MLIR's names (`test-memref-dependence-check`,
//! `affine-parallelize`) must print what `mlir-opt` prints, and MLIR's
//! answers depend on the order of variables and constraints and on where
//! tightening happens. Every step here follows MLIR's order of rows and
//! columns, its tie-breaks and its constraint-explosion guard
//! ([`FM_EXPLOSION_FACTOR`]).
//!
//! Unlike MLIR (arbitrary precision), coefficients are `i64` and every
//! combination is computed in checked `i128`: a result that does not fit
//! returns [`Limit::Overflow`](crate::Limit::Overflow) instead of wrapping.
//! A system that grows past [`FM_MAX_ROWS`] rows in a projection returns
//! [`Limit::Constraints`](crate::Limit::Constraints).

use std::hash::Hasher;

use crate::arith::{ceil_div, floor_div, gcd, to_i64};
use crate::error::{Error, Limit, Result, OVERFLOW};
use crate::matrix::Matrix;
use crate::query::BoundKind;
use crate::relation::{IntegerRelation, VarKind};

/// MLIR's `kExplosionFactor`: the emptiness test gives up (answers "not
/// empty") once the system has this many constraints per variable of the
/// input.
pub const FM_EXPLOSION_FACTOR: usize = 32;

/// The most rows one Fourier–Motzkin step may create. Past it a projection
/// stops with [`Limit::Constraints`] (MLIR has no such limit in
/// `projectOut`: it goes on, for minutes or until memory runs out), and
/// the emptiness test answers "not empty" as MLIR's explosion guard would.
pub const FM_MAX_ROWS: usize = 1 << 16;

/// The division representation of a local, as MLIR's `DivisionRepr`: the
/// local equals `floor(dividend . (vars, 1) / denominator)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalRepr {
    /// One coefficient per column (constant last); the local's own is 0.
    pub dividend: Vec<i64>,
    /// Positive.
    pub denominator: i64,
}

impl LocalRepr {
    /// The same division in a relation of `cols` columns (constant
    /// included) whose column `map[c]` holds column `c` of this one's, as
    /// [`IntegerRelation::remap_columns`] lays a relation out.
    pub fn remap(&self, cols: usize, map: &[usize]) -> LocalRepr {
        assert_eq!(map.len(), self.dividend.len(), "one target column per column");
        let mut dividend = vec![0; cols];
        for (&c, &v) in map.iter().zip(&self.dividend) {
            if c != usize::MAX {
                dividend[c] = v;
            } else {
                assert_eq!(v, 0, "a dropped column holds a coefficient");
            }
        }
        LocalRepr {
            dividend,
            denominator: self.denominator,
        }
    }
}

/// A fast hasher for constraint rows (multiply-rotate, as rustc's FxHash).
#[derive(Default)]
struct RowHasher(u64);

impl Hasher for RowHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_i64(&mut self, v: i64) {
        self.write_u64(v as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The gcd of two magnitudes (binary gcd: no division; hot in elimination).
fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// The gcd of the entries' magnitudes (0 for an all-zero row).
fn row_gcd64(row: &[i64]) -> u64 {
    let mut g = 0u64;
    for &v in row {
        if v != 0 {
            g = gcd_u64(g, v.unsigned_abs());
            if g == 1 {
                return 1;
            }
        }
    }
    g
}

/// MLIR's `normalizeRange`: divides the entries by their gcd when it is
/// above 1; returns the gcd (0 for an all-zero range). A gcd of 2^63 (rows
/// of `i64::MIN` only) is left alone.
fn normalize_range(row: &mut [i64]) -> u64 {
    let g = row_gcd64(row);
    if g > 1 {
        if let Ok(d) = i64::try_from(g) {
            row.iter_mut().for_each(|v| *v /= d);
        } else {
            return 1;
        }
    }
    g
}

fn normalize_all(m: &mut Matrix) {
    for i in 0..m.rows() {
        normalize_range(m.row_mut(i));
    }
}

fn first_nonzero(m: &Matrix, col: usize) -> Option<usize> {
    (0..m.rows()).find(|&r| m.row(r)[col] != 0)
}

fn lcm(a: i128, b: i128) -> Result<i128> {
    let (a, b) = (a.abs(), b.abs());
    let g = match (u64::try_from(a), u64::try_from(b)) {
        (Ok(x), Ok(y)) => gcd_u64(x, y) as i128,
        _ => gcd(a, b),
    };
    if g == 0 {
        return Ok(0);
    }
    (a / g).checked_mul(b).ok_or(OVERFLOW)
}

/// `a * x + b * y` exactly, or an overflow error when it does not fit
/// `i64` (the `i64` products are tried first; `i128` only when one
/// overflows).
#[inline]
fn combine(a: i64, x: i64, b: i64, y: i64) -> Result<i64> {
    if let (Some(p), Some(q)) = (a.checked_mul(x), b.checked_mul(y)) {
        if let Some(v) = p.checked_add(q) {
            return Ok(v);
        }
    }
    to_i64(a as i128 * x as i128 + b as i128 * y as i128)
}

/// The multipliers of MLIR's `eliminateFromConstraint` for a row whose
/// entry in the pivot column is `lead` and a pivot equality whose entry
/// there is `pivot`: `(pivot_mult, row_mult)`.
fn elimination_multipliers(pivot: i64, lead: i64) -> Result<(i64, i64)> {
    let (pivot, lead) = (pivot as i128, lead as i128);
    let sign: i128 = if lead * pivot > 0 { -1 } else { 1 };
    let l = lcm(pivot, lead)?;
    Ok((to_i64(sign * (l / pivot.abs()))?, to_i64(l / lead.abs())?))
}

/// MLIR's `eliminateFromConstraint`: removes column `pivot_col` from `row`
/// with the equality `pivot`; columns in `elim_start..pivot_col` are left
/// as they are.
fn eliminate_from_row(row: &mut [i64], pivot: &[i64], pivot_col: usize, elim_start: usize) -> Result<()> {
    let lead = row[pivot_col];
    if lead == 0 {
        return Ok(());
    }
    let (pivot_mult, row_mult) = elimination_multipliers(pivot[pivot_col], lead)?;
    for (j, (t, &p)) in row.iter_mut().zip(pivot).enumerate() {
        if j >= elim_start && j < pivot_col {
            continue;
        }
        *t = combine(pivot_mult, p, row_mult, *t)?;
    }
    Ok(())
}

/// [`eliminate_from_row`] on every row of `m`, each row then normalized
/// when `normalize` (MLIR's `normalizeRange`) and, when `tighten`,
/// gcd-tightened as an inequality (both per row, as the whole-matrix passes
/// would). With `all` false, rows without the pivot column are skipped
/// (the caller knows they are already normalized and tightened).
fn eliminate_from_all(
    m: &mut Matrix,
    pivot: &[i64],
    pivot_col: usize,
    elim_start: usize,
    all: bool,
    normalize: bool,
    tighten: bool,
) -> Result<()> {
    let n = m.cols() - 1;
    for i in 0..m.rows() {
        let row = m.row_mut(i);
        if !all && row[pivot_col] == 0 {
            continue;
        }
        eliminate_from_row(row, pivot, pivot_col, elim_start)?;
        if normalize {
            normalize_range(row);
        }
        if tighten {
            tighten_row(row, n);
        }
    }
    Ok(())
}

/// MLIR's `gcdTightenInequalities` on one row with `n` coefficients.
#[inline]
fn tighten_row(row: &mut [i64], n: usize) {
    let g = normalize_range(&mut row[..n]);
    if g > 1 {
        // g fits i64 here (normalize_range divided by it).
        row[n] = row[n].div_euclid(g as i64);
    }
}

fn check_rows(rel: &IntegerRelation) -> Result<()> {
    let n = rel.num_constraints();
    if n > FM_MAX_ROWS {
        return Err(Error::LimitExceeded(Limit::Constraints { found: n }));
    }
    Ok(())
}

impl IntegerRelation {
    /// MLIR's `gcdTightenInequalities`: each inequality's coefficients are
    /// divided by their gcd and its constant rounded down.
    pub fn gcd_tighten_inequalities_fm(&mut self) {
        let n = self.num_cols() - 1;
        for i in 0..self.ineqs.rows() {
            tighten_row(self.ineqs.row_mut(i), n);
        }
    }

    /// MLIR's `normalizeConstraintsByGCD`: every row divided by the gcd of
    /// all its entries (constant included).
    pub fn normalize_constraints_by_gcd_fm(&mut self) {
        normalize_all(&mut self.eqs);
        normalize_all(&mut self.ineqs);
    }

    /// MLIR's `hasInvalidConstraint`: a row without variables that is false
    /// (`c == 0` with `c != 0`, `c >= 0` with `c < 0`).
    pub fn has_invalid_constraint_fm(&self) -> bool {
        let n = self.num_cols() - 1;
        self.eqs.iter().any(|r| r[..n].iter().all(|&v| v == 0) && r[n] != 0)
            || self.ineqs.iter().any(|r| r[..n].iter().all(|&v| v == 0) && r[n] < 0)
    }

    /// MLIR's `isEmptyByGCDTest`: an equality whose coefficients' gcd does
    /// not divide its constant.
    pub fn is_empty_by_gcd_test_fm(&self) -> bool {
        let n = self.num_cols() - 1;
        self.eqs.iter().any(|r| {
            let g = row_gcd64(&r[..n]);
            g > 0 && r[n].unsigned_abs() % g != 0
        })
    }

    /// MLIR's `gaussianEliminateVars(start, limit)`: eliminates the
    /// variables from column `start` on with equalities while each has one
    /// (a variable that appears nowhere is dropped too), stopping at the
    /// first that only inequalities use or at `limit`; returns how many were
    /// eliminated. `limit <= start` does nothing.
    pub fn gaussian_eliminate_vars_fm(&mut self, start: usize, limit: usize) -> Result<usize> {
        self.gaussian_eliminate(start, limit, false)
    }

    /// [`gaussian_eliminate_vars_fm`](Self::gaussian_eliminate_vars_fm);
    /// `tightened` says every inequality is already gcd-tightened.
    fn gaussian_eliminate(&mut self, start: usize, limit: usize, tightened: bool) -> Result<usize> {
        if start >= limit {
            return Ok(0);
        }
        let limit = limit.min(self.num_vars());
        if !tightened {
            self.gcd_tighten_inequalities_fm();
        }
        let mut pivot_col = start;
        let mut first_pivot = true;
        while pivot_col < limit {
            let pivot_row = match first_nonzero(&self.eqs, pivot_col) {
                Some(r) => r,
                None => {
                    if first_nonzero(&self.ineqs, pivot_col).is_none() {
                        pivot_col += 1;
                        continue;
                    }
                    break;
                }
            };
            // Row by row: elimination, normalization, then (inequalities)
            // the tightening MLIR does over all rows after the pivot.
            // MLIR normalizes the pivot row in this loop before the rows
            // after it use it (the rows before it do not use the column).
            let mut pivot = self.eqs.take_row(pivot_row);
            normalize_range(&mut pivot);
            // After the first pivot every row is normalized (and the
            // inequalities tightened): a row without the pivot column is
            // then left as it is by the later ones.
            let all = first_pivot;
            first_pivot = false;
            eliminate_from_all(&mut self.eqs, &pivot, pivot_col, start, all, true, false)?;
            eliminate_from_all(&mut self.ineqs, &pivot, pivot_col, start, all, true, true)?;
            pivot_col += 1;
        }
        self.remove_vars(start, pivot_col);
        Ok(pivot_col - start)
    }

    /// MLIR's `removeTrivialRedundancy`: tightening and normalization, then
    /// inequalities that are trivially true, and among those that differ
    /// only in their constant all but the tightest, are removed.
    pub fn remove_trivial_redundancy_fm(&mut self) {
        self.gcd_tighten_inequalities_fm();
        self.normalize_constraints_by_gcd_fm();
        self.remove_trivially_redundant_rows();
    }

    /// The removal step of [`remove_trivial_redundancy_fm`](Self::remove_trivial_redundancy_fm).
    fn remove_trivially_redundant_rows(&mut self) {
        let n = self.num_cols() - 1;
        let rows = self.ineqs.rows();
        let mut redundant = vec![false; rows];
        // Open addressing over the rows' coefficients (a hash map of
        // slices costs more than the rows here): each slot holds the row
        // kept so far for its coefficients, the one with the smallest
        // constant (the first among equals).
        let cap = (2 * rows).next_power_of_two().max(2);
        let mut slots = vec![u32::MAX; cap];
        for r in 0..rows {
            let row = self.ineqs.row(r);
            let coefs = &row[..n];
            if coefs.iter().all(|&v| v == 0) && row[n] >= 0 {
                redundant[r] = true;
                continue;
            }
            let mut h = RowHasher::default();
            for &v in coefs {
                h.write_i64(v);
            }
            let mut i = h.finish() as usize & (cap - 1);
            loop {
                let kept = slots[i];
                if kept == u32::MAX {
                    slots[i] = r as u32;
                    break;
                }
                let other = self.ineqs.row(kept as usize);
                if other[..n] == *coefs {
                    if other[n] > row[n] {
                        redundant[kept as usize] = true;
                        slots[i] = r as u32;
                    } else {
                        redundant[r] = true;
                    }
                    break;
                }
                i = (i + 1) & (cap - 1);
            }
        }
        self.ineqs.retain_rows(|i, _| !redundant[i]);
    }

    /// MLIR's `fourierMotzkinEliminate(pos)`: through an equality when one
    /// uses the variable (Gaussian elimination), otherwise every pair of a
    /// lower and an upper bound combined (rational shadow), then tightened
    /// and trivially redundant rows removed.
    pub fn fourier_motzkin_eliminate_fm(&mut self, pos: usize) -> Result<()> {
        if first_nonzero(&self.eqs, pos).is_some() {
            self.gaussian_eliminate_vars_fm(pos, pos + 1)?;
            return Ok(());
        }
        self.gcd_tighten_inequalities_fm();
        if first_nonzero(&self.ineqs, pos).is_none() {
            self.remove_var(pos);
            return Ok(());
        }
        let rows = rows_by_sign(&self.ineqs, pos);
        let (lbs, ubs, nbs) = (rows.lower(), rows.upper(), rows.unbounded());
        let new_rows = lbs.len().checked_mul(ubs.len()).ok_or(OVERFLOW)? + nbs.len();
        if new_rows + self.eqs.rows() > FM_MAX_ROWS {
            return Err(Error::LimitExceeded(Limit::Constraints { found: new_rows }));
        }
        let cols = self.num_cols();
        let mut ineqs = Matrix::new(cols - 1);
        ineqs.reserve_rows(new_rows);
        let mut buf = Vec::with_capacity(cols - 1);
        for &u in ubs {
            for &l in lbs {
                let (lrow, urow) = (self.ineqs.row(l), self.ineqs.row(u));
                let lc = lrow[pos] as i128;
                let uc = -(urow[pos] as i128);
                let m = lcm(lc, uc)?;
                let (um, lm) = (to_i64(m / uc)?, to_i64(m / lc)?);
                buf.clear();
                for j in (0..cols).filter(|&j| j != pos) {
                    buf.push(combine(urow[j], um, lrow[j], lm)?);
                }
                ineqs.push_row(&buf);
            }
        }
        for &r in nbs {
            let row = self.ineqs.row(r);
            buf.clear();
            buf.extend(row[..pos].iter().chain(&row[pos + 1..]).copied());
            ineqs.push_row(&buf);
        }
        // Drop the column from the equalities (zero there) and the space.
        self.ineqs.clear();
        self.remove_var(pos);
        self.ineqs = ineqs;
        self.gcd_tighten_inequalities_fm();
        self.normalize_constraints_by_gcd_fm();
        // removeTrivialRedundancy's own tightening and normalization would
        // change nothing here (both are idempotent and were just done).
        self.remove_trivially_redundant_rows();
        Ok(())
    }

    /// MLIR's `projectOut(pos, num)`: Gaussian elimination of as many of the
    /// variables `pos..pos + num` as equalities allow, Fourier–Motzkin for
    /// the rest (each time the one with the fewest lower times upper
    /// bounds), then tightening and normalization. An over-approximation of
    /// the integer projection (see the module docs).
    pub fn project_out_fm(&mut self, pos: usize, num: usize) -> Result<()> {
        if num == 0 {
            return Ok(());
        }
        assert!(pos + num <= self.num_vars(), "projected variables out of range");
        let mut current = pos;
        // Signed: MLIR's unsigned counter wraps below zero, after which its
        // calls eliminate nothing; a negative count does the same here.
        let mut to_eliminate = num as i64;
        let mut gaussian = 0usize;
        while current < self.num_vars() {
            let limit = current as i64 + to_eliminate;
            let done = if limit > current as i64 {
                self.gaussian_eliminate_vars_fm(current, limit as usize)?
            } else {
                0
            };
            current += 1;
            to_eliminate -= done as i64 + 1;
            gaussian += done;
        }
        let remaining = num - gaussian;
        for i in 0..remaining {
            let n = remaining - i;
            let best = self.best_var_to_eliminate(pos, pos + n);
            self.fourier_motzkin_eliminate_fm(best)?;
            check_rows(self)?;
        }
        self.gcd_tighten_inequalities_fm();
        self.normalize_constraints_by_gcd_fm();
        Ok(())
    }

    /// MLIR's `getBestVarToEliminate`: the first variable in `start..end`
    /// with the fewest (lower bounds × upper bounds).
    fn best_var_to_eliminate(&self, start: usize, end: usize) -> usize {
        let product = |c: usize| {
            let (mut lb, mut ub) = (0usize, 0usize);
            for r in self.ineqs.iter() {
                if r[c] > 0 {
                    lb += 1;
                } else if r[c] < 0 {
                    ub += 1;
                }
            }
            lb * ub
        };
        let mut best = start;
        let mut min = product(start);
        for c in start + 1..end {
            let p = product(c);
            if p < min {
                min = p;
                best = c;
            }
        }
        best
    }

    /// MLIR's `isEmpty`: gcd test and invalid rows, then the locals that an
    /// equality defines substituted, Gaussian elimination of every variable
    /// it can, and Fourier–Motzkin for the rest. `true` proves the set has
    /// no integer point; `false` may be wrong (the rational shadow, or the
    /// constraint-explosion guard).
    pub fn is_empty_fm(&self) -> Result<bool> {
        if self.is_empty_by_gcd_test_fm() || self.has_invalid_constraint_fm() {
            return Ok(true);
        }
        self.clone().into_is_empty_fm()
    }

    /// [`is_empty_fm`](Self::is_empty_fm) on a system that is not needed
    /// afterwards (no copy).
    pub fn into_is_empty_fm(self) -> Result<bool> {
        if self.is_empty_by_gcd_test_fm() || self.has_invalid_constraint_fm() {
            return Ok(true);
        }
        let limit = FM_EXPLOSION_FACTOR * self.num_vars();
        let mut tmp = self;
        tmp.remove_redundant_local_vars_fm()?;
        if tmp.is_empty_by_gcd_test_fm() || tmp.has_invalid_constraint_fm() {
            return Ok(true);
        }
        let mut current = 0;
        while current < tmp.num_vars() {
            let n = tmp.num_vars();
            // Each call tightens every inequality first; after the first
            // they all stay tightened (pivots tighten what they change, and
            // only all-zero columns are removed), so later calls skip it.
            tmp.gaussian_eliminate(current, n, current > 0)?;
            current += 1;
            if tmp.has_invalid_constraint_fm() || tmp.is_empty_by_gcd_test_fm() {
                return Ok(true);
            }
        }
        for _ in 0..tmp.num_vars() {
            let best = tmp.best_var_to_eliminate(0, tmp.num_vars());
            match tmp.fourier_motzkin_eliminate_fm(best) {
                // A step past FM_MAX_ROWS is far past MLIR's explosion
                // guard too: answer as the guard does.
                Err(Error::LimitExceeded(Limit::Constraints { .. })) => return Ok(false),
                r => r?,
            }
            if tmp.num_constraints() >= limit {
                return Ok(false);
            }
            if tmp.has_invalid_constraint_fm() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// MLIR's `removeRedundantLocalVars`: equalities normalized, then while
    /// some equality has a local with coefficient ±1 (the first such
    /// equality, its first such local), that local is substituted in every
    /// other row and removed with the equality.
    pub fn remove_redundant_local_vars_fm(&mut self) -> Result<()> {
        normalize_all(&mut self.eqs);
        // A substituted local's column is zero everywhere afterwards (so it
        // is never picked again); the columns are removed together at the
        // end, contiguous runs at a time, from the last.
        let mut removed: Vec<usize> = Vec::new();
        loop {
            let first_local = self.num_non_local_vars();
            let found = (0..self.eqs.rows()).find_map(|i| {
                let row = self.eqs.row(i);
                (first_local..self.num_vars())
                    .find(|&j| row[j].abs() == 1)
                    .map(|j| (i, j))
            });
            let Some((i, j)) = found else {
                removed.sort_unstable();
                while let Some(&last) = removed.last() {
                    let mut first = last;
                    while removed.len() > 1 && removed[removed.len() - 2] + 1 == first {
                        removed.pop();
                        first -= 1;
                    }
                    removed.pop();
                    self.remove_vars(first, last + 1);
                }
                return Ok(());
            };
            let pivot = self.eqs.row(i).to_vec();
            // Rows without the local are left alone (not normalized).
            for k in 0..self.eqs.rows() {
                if k != i && self.eqs.row(k)[j] != 0 {
                    let row = self.eqs.row_mut(k);
                    eliminate_from_row(row, &pivot, j, j)?;
                    normalize_range(row);
                }
            }
            eliminate_from_all(&mut self.ineqs, &pivot, j, j, true, false, false)?;
            removed.push(j);
            self.eqs.remove_row(i);
        }
    }

    /// MLIR's `pruneOrthogonalConstraints(pos)`: removes the constraints
    /// not connected to variable `pos` through shared variables.
    fn prune_orthogonal_constraints_fm(&mut self, pos: usize) {
        let ni = self.ineqs.rows();
        let total = ni + self.eqs.rows();
        if total == 0 {
            return;
        }
        let nv = self.num_vars();
        let at = |s: &Self, r: usize, c: usize| {
            if r < ni {
                s.ineqs.row(r)[c]
            } else {
                s.eqs.row(r - ni)[c]
            }
        };
        let mut related_cols = vec![false; nv];
        let mut related_rows = vec![false; total];
        related_cols[pos] = true;
        let (mut row_stack, mut col_stack) = (Vec::new(), vec![pos]);
        while !row_stack.is_empty() || !col_stack.is_empty() {
            if let Some(r) = row_stack.pop() {
                for (c, seen) in related_cols.iter_mut().enumerate() {
                    if at(self, r, c) != 0 && !*seen {
                        *seen = true;
                        col_stack.push(c);
                    }
                }
            } else if let Some(c) = col_stack.pop() {
                for (r, seen) in related_rows.iter_mut().enumerate() {
                    if at(self, r, c) != 0 && !*seen {
                        *seen = true;
                        row_stack.push(r);
                    }
                }
            }
        }
        self.ineqs.retain_rows(|i, _| related_rows[i]);
        self.eqs.retain_rows(|i, _| related_rows[ni + i]);
    }

    /// MLIR's `findEqualityToConstant(pos, symbolic = false)`.
    fn equality_to_constant(&self, pos: usize) -> Option<usize> {
        let n = self.num_vars();
        (0..self.eqs.rows()).find(|&r| {
            let row = self.eqs.row(r);
            row[pos].abs() == 1 && (0..n).all(|c| c == pos || row[c] == 0)
        })
    }

    /// MLIR's `getConstantBound(LB | UB, pos)`: the other variables
    /// projected out with [`project_out_fm`](Self::project_out_fm) (after
    /// pruning the constraints not connected to the variable), then the
    /// tightest constant bound among the remaining rows. An
    /// over-approximation: the exact bound may be tighter.
    pub fn constant_bound_fm(&self, pos: usize, kind: BoundKind) -> Result<Option<i64>> {
        assert!(pos < self.num_vars(), "variable {pos} out of range");
        let mut s = self.clone();
        s.prune_orthogonal_constraints_fm(pos);
        s.project_out_fm(0, pos)?;
        s.prune_orthogonal_constraints_fm(0);
        let n = s.num_vars();
        s.project_out_fm(1, n - 1)?;
        let last = s.num_cols() - 1;
        if let Some(r) = s.equality_to_constant(0) {
            let row = s.eqs.row(r);
            return Ok(Some(to_i64(-(row[last] as i128) / row[0] as i128)?));
        }
        let mut best: Option<i128> = None;
        for row in s.ineqs.iter() {
            let c = row[0] as i128;
            let is_bound = match kind {
                BoundKind::Lower => c > 0,
                BoundKind::Upper => c < 0,
            };
            if !is_bound || row[1..last].iter().any(|&v| v != 0) {
                continue;
            }
            let k = row[last] as i128;
            let v = match kind {
                BoundKind::Lower => ceil_div(-k, c),
                BoundKind::Upper => floor_div(k, -c),
            };
            best = Some(match (best, kind) {
                (None, _) => v,
                (Some(b), BoundKind::Lower) => b.max(v),
                (Some(b), BoundKind::Upper) => b.min(v),
            });
        }
        best.map(to_i64).transpose()
    }

    /// MLIR's `getLocalReprs`: for each local, a division it provably
    /// equals, found from a pair of inequalities or an equality, using only
    /// variables whose values are known (dimensions, symbols, locals found
    /// before), repeated until nothing new is found.
    pub fn local_reprs_fm(&self) -> Vec<Option<LocalRepr>> {
        let nl = self.num_local_vars();
        let off = self.var_offset(VarKind::Local);
        let mut found: Vec<bool> = (0..self.num_vars()).map(|c| c < off).collect();
        let mut reprs: Vec<Option<LocalRepr>> = vec![None; nl];
        loop {
            let mut changed = false;
            for i in 0..nl {
                if found[off + i] {
                    continue;
                }
                if let Some(r) = self.single_var_repr(&found, off + i) {
                    found[off + i] = true;
                    reprs[i] = Some(r);
                    changed = true;
                }
            }
            if !changed {
                return reprs;
            }
        }
    }

    fn single_var_repr(&self, found: &[bool], pos: usize) -> Option<LocalRepr> {
        let n = self.num_vars();
        let explicit = |d: &[i64]| (0..n).all(|c| c == pos || found[c] || d[c] == 0);
        let rows = rows_by_sign(&self.ineqs, pos);
        for &u in rows.upper() {
            for &l in rows.lower() {
                if let Some(r) = self.div_repr_from_pair(pos, u, l) {
                    if explicit(&r.dividend) {
                        return Some(r);
                    }
                }
            }
        }
        for e in 0..self.eqs.rows() {
            let row = self.eqs.row(e);
            let t = row[pos] as i128;
            if t == 0 {
                continue;
            }
            let sign: i128 = if t < 0 { -1 } else { 1 };
            let mut d = vec![0i64; n + 1];
            let mut ok = true;
            for c in 0..=n {
                if c != pos {
                    match i64::try_from(-sign * row[c] as i128) {
                        Ok(v) => d[c] = v,
                        Err(_) => ok = false,
                    }
                }
            }
            let Ok(mut denom) = i64::try_from(t * sign) else {
                continue;
            };
            if !ok {
                continue;
            }
            normalize_division(&mut d, &mut denom);
            if explicit(&d) {
                return Some(LocalRepr {
                    dividend: d,
                    denominator: denom,
                });
            }
        }
        None
    }

    fn div_repr_from_pair(&self, pos: usize, ub: usize, lb: usize) -> Option<LocalRepr> {
        let n = self.num_vars();
        let (u, l) = (self.ineqs.row(ub), self.ineqs.row(lb));
        let divisor = l[pos] as i128;
        if (0..n).any(|i| u[i] as i128 != -(l[i] as i128)) {
            return None;
        }
        let sum = l[n] as i128 + u[n] as i128;
        let c = divisor - 1 - sum;
        if !(0 <= c && c < divisor) {
            return None;
        }
        let mut d = vec![0i64; n + 1];
        for i in 0..n {
            if i != pos {
                d[i] = u[i];
            }
        }
        d[n] = i64::try_from(u[n] as i128 + c).ok()?;
        let mut denom = i64::try_from(divisor).ok()?;
        normalize_division(&mut d, &mut denom);
        Some(LocalRepr {
            dividend: d,
            denominator: denom,
        })
    }

    /// MLIR's `eliminateRedundantLocalVar(a, b)`: local `b` is known to
    /// equal local `a` (positions among the locals): its column is added to
    /// `a`'s and removed.
    fn merge_local_columns(&mut self, a: usize, b: usize) -> Result<()> {
        let off = self.var_offset(VarKind::Local);
        let (a, b) = (off + a, off + b);
        for m in [&mut self.eqs, &mut self.ineqs] {
            for r in 0..m.rows() {
                let row = m.row_mut(r);
                row[a] = row[a].checked_add(row[b]).ok_or(OVERFLOW)?;
            }
        }
        self.remove_var(b);
        Ok(())
    }

    /// MLIR's `IntegerRelation::mergeLocalVars(other)`: both systems get
    /// this one's locals followed by `other`'s, and a local of `other` whose
    /// division representation equals an earlier local's is merged into it
    /// (in both systems). The two must have the same non-local space.
    pub fn merge_local_vars_fm(&mut self, other: &mut IntegerRelation) -> Result<()> {
        assert!(self.has_same_space(other), "merging locals of different spaces");
        let init_a = self.num_local_vars();
        let nb = other.num_local_vars();
        self.insert_vars(VarKind::Local, init_a, nb);
        other.insert_vars(VarKind::Local, 0, init_a);
        self.merge_laid_out_local_vars_fm(other, init_a)
    }

    /// [`merge_local_vars_fm`](Self::merge_local_vars_fm) once both systems
    /// have the same locals laid out: this system's `init_a` own locals
    /// first (zero in `other`), then `other`'s (zero here).
    pub fn merge_laid_out_local_vars_fm(&mut self, other: &mut IntegerRelation, init_a: usize) -> Result<()> {
        assert!(self.has_same_space(other), "merging locals of different spaces");
        if self.num_local_vars() == 0 {
            return Ok(());
        }
        let divs = self.laid_out_local_reprs_fm(other, init_a);
        self.merge_laid_out_local_vars_with_reprs_fm(other, init_a, divs)
    }

    /// The division representations [`merge_laid_out_local_vars_fm`]
    /// (Self::merge_laid_out_local_vars_fm) merges by: this system's
    /// ([`local_reprs_fm`](Self::local_reprs_fm)) for its own `init_a`
    /// locals, `other`'s for the rest. A local's representation depends
    /// only on the rows of the system that owns it (the other side's locals
    /// are zero columns there), so a caller that laid both systems out from
    /// systems whose representations it knows may remap those instead
    /// ([`LocalRepr::remap`]).
    pub fn laid_out_local_reprs_fm(&self, other: &IntegerRelation, init_a: usize) -> Vec<Option<LocalRepr>> {
        let mut divs = self.local_reprs_fm();
        let divs_b = other.local_reprs_fm();
        for (i, d) in divs_b.into_iter().enumerate().skip(init_a) {
            divs[i] = d;
        }
        divs
    }

    /// [`merge_laid_out_local_vars_fm`](Self::merge_laid_out_local_vars_fm)
    /// given the representations of the locals
    /// ([`laid_out_local_reprs_fm`](Self::laid_out_local_reprs_fm)).
    pub fn merge_laid_out_local_vars_with_reprs_fm(
        &mut self,
        other: &mut IntegerRelation,
        init_a: usize,
        mut divs: Vec<Option<LocalRepr>>,
    ) -> Result<()> {
        assert!(self.has_same_space(other), "merging locals of different spaces");
        assert_eq!(divs.len(), self.num_local_vars(), "one representation per local");
        if self.num_local_vars() == 0 {
            return Ok(());
        }
        // DivisionRepr::removeDuplicateDivs, after normalizing each.
        let off = self.var_offset(VarKind::Local);
        for d in divs.iter_mut().flatten() {
            normalize_division(&mut d.dividend, &mut d.denominator);
        }
        let mut i = 0;
        while i < divs.len() {
            if divs[i].is_none() {
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < divs.len() {
                let same = matches!((&divs[i], &divs[j]), (Some(a), Some(b)) if a == b);
                // merge(i, j) refuses to merge two of this system's locals.
                if !same || j < init_a {
                    j += 1;
                    continue;
                }
                self.merge_local_columns(i, j)?;
                other.merge_local_columns(i, j)?;
                for d in divs.iter_mut().flatten() {
                    let v = d.dividend[off + j];
                    d.dividend[off + i] = d.dividend[off + i].checked_add(v).ok_or(OVERFLOW)?;
                    d.dividend.remove(off + j);
                }
                divs.remove(j);
            }
            i += 1;
        }
        Ok(())
    }

    /// MLIR's `convertVarKind(src, start, limit, dst, pos)`: the variables
    /// `start..limit` of kind `src` become variables of kind `dst` at
    /// position `pos` among them (columns moved, constraint order kept).
    pub fn move_vars_fm(&mut self, src: VarKind, start: usize, limit: usize, dst: VarKind, pos: usize) {
        assert!(limit <= self.num_vars_of(src) && pos <= self.num_vars_of(dst));
        if start >= limit {
            return;
        }
        let n = limit - start;
        let src_first = self.var_offset(src) + start;
        let dst_at = self.var_offset(dst) + pos;
        // The block of columns moves to where `dst`'s position `pos` lands
        // once the block is gone: a rotation of the columns in between.
        for m in [&mut self.eqs, &mut self.ineqs] {
            if dst_at > src_first {
                m.rotate_cols_left(src_first, dst_at, n);
            } else {
                m.rotate_cols_left(dst_at, src_first + n, src_first - dst_at);
            }
        }
        *count_of(self, src) -= n;
        *count_of(self, dst) += n;
        // Division records do not survive a reshuffle of the space.
        self.divs = vec![None; self.num_locals];
    }
}

fn count_of(s: &mut IntegerRelation, k: VarKind) -> &mut usize {
    match k {
        VarKind::Domain => &mut s.num_domain,
        VarKind::Range => &mut s.num_range,
        VarKind::Symbol => &mut s.num_symbols,
        VarKind::Local => &mut s.num_locals,
    }
}

/// MLIR's `normalizeDivisionByGCD`: the gcd of the denominator and the
/// dividend's coefficients (constant excluded) divides both, the constant
/// rounded down.
fn normalize_division(d: &mut [i64], denom: &mut i64) {
    if *denom == 0 || d.is_empty() {
        return;
    }
    let n = d.len() - 1;
    let mut g = gcd(d[0] as i128, *denom as i128);
    for &v in &d[1..n] {
        g = gcd(v as i128, g);
        if g == 1 {
            return;
        }
    }
    if g <= 1 {
        return;
    }
    for v in d.iter_mut() {
        *v = floor_div(*v as i128, g) as i64;
    }
    *denom = (*denom as i128 / g) as i64;
}

/// The rows of a matrix of inequalities split by the sign of their
/// coefficient at one column, each part in row order (see [`rows_by_sign`]).
struct RowsBySign {
    /// Lower bounds (positive coefficient), then upper bounds (negative),
    /// then the rows without the variable.
    rows: Vec<usize>,
    num_lower: usize,
    num_upper: usize,
}

impl RowsBySign {
    fn lower(&self) -> &[usize] {
        &self.rows[..self.num_lower]
    }

    fn upper(&self) -> &[usize] {
        &self.rows[self.num_lower..self.num_lower + self.num_upper]
    }

    fn unbounded(&self) -> &[usize] {
        &self.rows[self.num_lower + self.num_upper..]
    }
}

/// Splits the rows of `ineqs` by the sign of their coefficient at column
/// `pos`, in one allocation (the three lists used to grow one push at a
/// time, for every variable eliminated).
fn rows_by_sign(ineqs: &Matrix, pos: usize) -> RowsBySign {
    let n = ineqs.rows();
    let mut rows = Vec::with_capacity(n);
    rows.extend((0..n).filter(|&r| ineqs.row(r)[pos] > 0));
    let num_lower = rows.len();
    rows.extend((0..n).filter(|&r| ineqs.row(r)[pos] < 0));
    let num_upper = rows.len() - num_lower;
    rows.extend((0..n).filter(|&r| ineqs.row(r)[pos] == 0));
    RowsBySign {
        rows,
        num_lower,
        num_upper,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relation::BoundType;

    #[test]
    fn step_two_loop_distance_is_the_rational_shadow() {
        // src, dst even in [0, 99] (locals q = x floordiv 2 with x = 2q),
        // dst >= src + 1; d = dst - src. The exact range is [2, 98]; FM
        // with tightening finds it here too.
        let mut s = IntegerRelation::new(2, 0);
        for v in 0..2 {
            let mut div = vec![0; s.num_cols()];
            div[v] = 1;
            let q = s.add_local_floordiv(&div, 2).unwrap();
            let mut eq = vec![0; s.num_cols()];
            eq[v] = 1;
            eq[q] = -2;
            s.add_equality(&eq);
            s.add_bound(v, BoundType::Lower, 0).unwrap();
            s.add_bound(v, BoundType::Upper, 99).unwrap();
        }
        s.add_inequality(&[-1, 1, 0, 0, -1]);
        s.insert_vars(VarKind::Range, 0, 1);
        s.add_equality(&[1, 1, -1, 0, 0, 0]);
        assert!(!s.is_empty_fm().unwrap());
        s.project_out_fm(1, 4).unwrap();
        assert_eq!(s.constant_bound_fm(0, BoundKind::Lower).unwrap(), Some(2));
        assert_eq!(s.constant_bound_fm(0, BoundKind::Upper).unwrap(), Some(98));
    }

    #[test]
    fn tightening_finds_integer_emptiness() {
        // 4 <= 3x <= 5 has no integer x: tightening finds it.
        let mut s = IntegerRelation::new(1, 0);
        s.add_inequality(&[3, -4]);
        s.add_inequality(&[-3, 5]);
        assert!(s.is_empty_fm().unwrap());
        // x - 3y >= 1, x - 3y <= 2, 0 <= x <= 0: y in [-2/3, -1/3]: empty over Z.
        let mut t = IntegerRelation::new(2, 0);
        t.add_inequality(&[1, -3, -1]);
        t.add_inequality(&[-1, 3, 2]);
        t.add_bound(0, BoundType::Eq, 0).unwrap();
        assert!(t.is_empty().unwrap());
        assert!(t.is_empty_fm().unwrap());
    }

    #[test]
    fn agrees_with_exact_on_a_non_empty_set() {
        // 1 <= 4x - 3y <= 2, 0 <= y <= 1 holds at (1, 1).
        let mut s = IntegerRelation::new(2, 0);
        s.add_inequality(&[4, -3, -1]);
        s.add_inequality(&[-4, 3, 2]);
        s.add_bound(1, BoundType::Lower, 0).unwrap();
        s.add_bound(1, BoundType::Upper, 1).unwrap();
        assert!(!s.is_empty().unwrap());
        assert!(!s.is_empty_fm().unwrap());
    }

    #[test]
    fn overflow_is_an_error_not_a_wrap() {
        // Combining the two bounds of x multiplies i64::MAX / 2 by 3.
        let mut s = IntegerRelation::new(2, 0);
        s.add_inequality(&[3, i64::MAX / 2, 0]);
        s.add_inequality(&[-7, i64::MAX / 2, 5]);
        assert_eq!(s.project_out_fm(0, 1), Err(Error::LimitExceeded(Limit::Overflow)));
    }

    #[test]
    fn explosion_guard_answers_not_empty() {
        // An empty system (x >= 1, x <= 0) is still found empty quickly.
        let mut s = IntegerRelation::new(3, 0);
        s.add_bound(0, BoundType::Lower, 1).unwrap();
        s.add_bound(0, BoundType::Upper, 0).unwrap();
        assert!(s.is_empty_fm().unwrap());
    }

    #[test]
    fn merge_locals_with_same_division() {
        // Both systems define q = floor(x / 2).
        let mut a = IntegerRelation::new(1, 0);
        a.add_local_floordiv(&[1, 0], 2).unwrap();
        let mut b = a.clone();
        a.merge_local_vars_fm(&mut b).unwrap();
        assert_eq!(a.num_local_vars(), 1);
        assert_eq!(b.num_local_vars(), 1);
        let mut c = IntegerRelation::new(1, 0);
        c.add_local_floordiv(&[1, 0], 3).unwrap();
        a.merge_local_vars_fm(&mut c).unwrap();
        assert_eq!(a.num_local_vars(), 2);
    }

    #[test]
    fn move_vars_keeps_rows() {
        let mut s = IntegerRelation::new_relation(2, 1, 0);
        s.add_equality(&[1, 2, 3, 4]);
        s.move_vars_fm(VarKind::Domain, 0, 2, VarKind::Range, 1);
        assert_eq!(s.num_range_vars(), 3);
        assert_eq!(s.equality(0), &[3, 1, 2, 4]);
        s.move_vars_fm(VarKind::Range, 0, 1, VarKind::Local, 0);
        assert_eq!(s.equality(0), &[1, 2, 3, 4]);
        assert_eq!(s.num_local_vars(), 1);
    }
}
