//! Projection, local elimination and simplification. Every transformation
//! here keeps the set of integer points exactly.

use std::cmp::Ordering;

use crate::arith::{add, floor_div, gcd, mul, sub, to_i64};
use crate::error::{Result, MAX_CONSTRAINTS};
use crate::relation::{Division, IntegerRelation, VarKind};
use crate::sample::check_limits;
use crate::simplex::{RationalOpt, Simplex};

/// The most rows one exact Fourier–Motzkin step may create, as a multiple of
/// the rows it removes (a projection that would grow more keeps the
/// variable as a local instead: still exact).
const FM_GROWTH: usize = 4;

/// The outcome of normalizing a stored row.
enum RowNorm {
    Keep,
    Trivial,
    Infeasible,
}

/// Divides an equality by the gcd of its coefficients.
fn normalize_eq(row: &mut [i64]) -> RowNorm {
    let n = row.len() - 1;
    let g = row[..n].iter().fold(0i128, |g, &v| gcd(g, v as i128));
    if g == 0 {
        return if row[n] == 0 {
            RowNorm::Trivial
        } else {
            RowNorm::Infeasible
        };
    }
    if row[n] as i128 % g != 0 {
        return RowNorm::Infeasible;
    }
    if g > 1 {
        let g = g as i64;
        row.iter_mut().for_each(|v| *v /= g);
    }
    // Canonical sign: first nonzero coefficient positive.
    if row[..n].iter().find(|&&v| v != 0).is_some_and(|&v| v < 0) && row.iter().all(|&v| v != i64::MIN) {
        row.iter_mut().for_each(|v| *v = -*v);
    }
    RowNorm::Keep
}

/// Divides an inequality by the gcd of its coefficients, rounding the
/// constant down.
fn normalize_ineq(row: &mut [i64]) -> RowNorm {
    let n = row.len() - 1;
    let g = row[..n].iter().fold(0i128, |g, &v| gcd(g, v as i128));
    if g == 0 {
        return if row[n] >= 0 {
            RowNorm::Trivial
        } else {
            RowNorm::Infeasible
        };
    }
    if g > 1 {
        let k = floor_div(row[n] as i128, g) as i64;
        let g = g as i64;
        row[..n].iter_mut().for_each(|v| *v /= g);
        row[n] = k;
    }
    RowNorm::Keep
}

/// `a * x + b * y` per entry, checked, as an `i64` row.
fn combine(x: &[i64], a: i128, y: &[i64], b: i128) -> Result<Vec<i64>> {
    x.iter()
        .zip(y)
        .map(|(&u, &v)| to_i64(add(mul(a, u as i128)?, mul(b, v as i128)?)?))
        .collect()
}

impl IntegerRelation {
    /// Projects out the variables in columns `start..end` (of any kinds):
    /// afterwards the system has no such variables and describes exactly the
    /// integer points of the others for which integer values of the removed
    /// ones existed.
    ///
    /// The variables become locals; each local that can be eliminated
    /// exactly is (substitution through an equality with a ±1 coefficient;
    /// dropping it when it is bounded on one side only; Fourier–Motzkin when
    /// all its lower or all its upper bounds have coefficient 1), and the
    /// others stay as existentials.
    ///
    /// A system over the size limits ([`MAX_VARS`](crate::MAX_VARS),
    /// [`MAX_CONSTRAINTS`](crate::MAX_CONSTRAINTS)) is left unchanged with
    /// [`Error::LimitExceeded`](crate::Error::LimitExceeded). An overflow
    /// during the elimination leaves a system that still describes the
    /// projection, with more locals.
    pub fn project_out(&mut self, start: usize, end: usize) -> Result<()> {
        assert!(
            start <= end && end <= self.num_vars(),
            "variables {start}..{end} out of range"
        );
        check_limits(self)?;
        let local0 = self.var_offset(VarKind::Local);
        self.make_leading_locals(start.min(local0), end.min(local0));
        self.eliminate_locals()
    }

    /// Makes the non-local variables in columns `start..end` locals, placed
    /// before the existing locals, whose division records stay valid (they
    /// only use earlier columns).
    fn make_leading_locals(&mut self, start: usize, end: usize) {
        let moved = end - start;
        if moved == 0 {
            return;
        }
        let n = self.num_vars();
        let local0 = self.var_offset(VarKind::Local);
        // New column i is old column from[i].
        let mut from: Vec<usize> = (0..local0).filter(|c| !(start..end).contains(c)).collect();
        from.extend(start..end);
        from.extend(local0..n);
        let mut cols = from;
        cols.push(n);
        self.eqs.permute_cols(&cols);
        self.ineqs.permute_cols(&cols);
        // How many of each kind move, from the offsets before any change.
        let removed = [VarKind::Domain, VarKind::Range, VarKind::Symbol].map(|kind| {
            let (o, k) = (self.var_offset(kind), self.num_vars_of(kind));
            end.min(o + k).saturating_sub(start.max(o))
        });
        self.num_domain -= removed[0];
        self.num_range -= removed[1];
        self.num_symbols -= removed[2];
        self.num_locals += moved;
        let old = std::mem::take(&mut self.divs);
        self.divs = std::iter::repeat_n(None, moved)
            .chain(old.into_iter().map(|d| {
                d.map(|mut d| {
                    d.dividend = cols.iter().map(|&f| d.dividend[f]).collect();
                    d
                })
            }))
            .collect();
    }

    /// Eliminates the locals that can be eliminated exactly (see
    /// [`project_out`](Self::project_out)) and normalizes the rows.
    pub fn eliminate_locals(&mut self) -> Result<()> {
        check_limits(self)?;
        loop {
            if !self.normalize_rows() {
                self.mark_empty();
                return Ok(());
            }
            let mut changed = false;
            let local0 = self.var_offset(VarKind::Local);
            for l in (0..self.num_local_vars()).rev() {
                if self.try_eliminate(local0 + l)? {
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.remove_duplicates();
        Ok(())
    }

    /// Eliminates the variable in column `col` if that is exact; returns
    /// whether it did.
    fn try_eliminate(&mut self, col: usize) -> Result<bool> {
        let used_eq = self.eqs.iter().any(|r| r[col] != 0);
        let used_ineq = self.ineqs.iter().any(|r| r[col] != 0);
        if !used_eq && !used_ineq {
            self.remove_var(col);
            return Ok(true);
        }
        if used_eq {
            let Some(i) = (0..self.num_equalities()).find(|&i| self.eqs.row(i)[col].unsigned_abs() == 1) else {
                return Ok(false);
            };
            let e = self.eqs.row(i).to_vec();
            // All or nothing: an overflow half-way leaves the system as it was.
            let saved = (self.eqs.clone(), self.ineqs.clone(), self.divs.clone());
            self.eqs.remove_row(i);
            if let Err(err) = self.substitute(col, &e) {
                (self.eqs, self.ineqs, self.divs) = saved;
                return Err(err);
            }
            self.remove_var(col);
            return Ok(true);
        }
        let (mut lowers, mut uppers) = (Vec::new(), Vec::new());
        for (i, r) in self.ineqs.iter().enumerate() {
            match r[col].cmp(&0) {
                Ordering::Greater => lowers.push(i),
                Ordering::Less => uppers.push(i),
                Ordering::Equal => {}
            }
        }
        let exact = lowers.is_empty()
            || uppers.is_empty()
            || lowers.iter().all(|&i| self.ineqs.row(i)[col] == 1)
            || uppers.iter().all(|&i| self.ineqs.row(i)[col] == -1);
        let created = lowers.len() * uppers.len();
        if !exact
            || created > FM_GROWTH * (lowers.len() + uppers.len())
            || self.num_constraints() + created > MAX_CONSTRAINTS
        {
            return Ok(false);
        }
        let mut combos = Vec::with_capacity(created);
        for &li in &lowers {
            for &ui in &uppers {
                let (l, u) = (self.ineqs.row(li), self.ineqs.row(ui));
                // b * L + a * U cancels the variable (L: a > 0, U: -b < 0).
                let (a, b) = (l[col] as i128, -(u[col] as i128));
                let mut r = combine(l, b, u, a)?;
                if let RowNorm::Infeasible = normalize_ineq(&mut r) {
                    self.mark_empty();
                    return Ok(true);
                }
                combos.push(r);
            }
        }
        self.ineqs.retain_rows(|_, r| r[col] == 0);
        for r in &combos {
            self.ineqs.push_row(r);
        }
        self.remove_var(col);
        Ok(true)
    }

    /// Replaces the variable in column `col` using the equality `e`
    /// (`e[col] == ±1`) in every constraint and division record.
    fn substitute(&mut self, col: usize, e: &[i64]) -> Result<()> {
        let ec = e[col];
        debug_assert!(ec == 1 || ec == -1);
        let apply = |r: &mut [i64]| -> Result<()> {
            if r[col] == 0 {
                return Ok(());
            }
            let f = r[col] as i128 * ec as i128;
            for (x, &y) in r.iter_mut().zip(e) {
                if y != 0 {
                    *x = to_i64(sub(*x as i128, mul(f, y as i128)?)?)?;
                }
            }
            Ok(())
        };
        for i in 0..self.num_equalities() {
            apply(self.eqs.row_mut(i))?;
        }
        for i in 0..self.num_inequalities() {
            apply(self.ineqs.row_mut(i))?;
        }
        // A division whose dividend used the variable now uses its value;
        // the record must still only use earlier columns.
        let local0 = self.var_offset(VarKind::Local);
        for l in 0..self.divs.len() {
            if let Some(d) = &mut self.divs[l] {
                if d.dividend[col] != 0 {
                    let mut dividend = d.dividend.clone();
                    apply(&mut dividend)?;
                    let n = dividend.len() - 1;
                    if dividend[local0 + l..n].iter().any(|&c| c != 0) {
                        self.divs[l] = None;
                    } else if let Some(d) = &mut self.divs[l] {
                        d.dividend = dividend;
                    }
                }
            }
        }
        Ok(())
    }

    /// Normalizes every row by its gcd (rounding inequality constants down)
    /// and drops the rows that always hold; false when a row never holds.
    fn normalize_rows(&mut self) -> bool {
        let mut ok = true;
        let mut drop = Vec::new();
        for i in 0..self.num_equalities() {
            match normalize_eq(self.eqs.row_mut(i)) {
                RowNorm::Keep => {}
                RowNorm::Trivial => drop.push(i),
                RowNorm::Infeasible => ok = false,
            }
        }
        self.eqs.retain_rows(|i, _| !drop.contains(&i));
        drop.clear();
        for i in 0..self.num_inequalities() {
            match normalize_ineq(self.ineqs.row_mut(i)) {
                RowNorm::Keep => {}
                RowNorm::Trivial => drop.push(i),
                RowNorm::Infeasible => ok = false,
            }
        }
        self.ineqs.retain_rows(|i, _| !drop.contains(&i));
        ok
    }

    /// Normalizes the rows and removes duplicate constraints: equal
    /// equalities, inequalities with the same coefficients (the tightest
    /// stays), inequality pairs `e >= 0`, `-e >= 0` (they become `e = 0`),
    /// and rows that always hold. A row that never holds, or an opposite
    /// pair that cannot both hold, makes the system `1 = 0`. The order of
    /// the kept rows is kept.
    pub fn remove_duplicates(&mut self) {
        if !self.normalize_rows() {
            self.mark_empty();
            return;
        }
        let n = self.num_vars();
        // Equalities: keep the first of equal rows.
        let mut order: Vec<usize> = (0..self.num_equalities()).collect();
        order.sort_by(|&a, &b| self.eqs.row(a).cmp(self.eqs.row(b)).then(a.cmp(&b)));
        let mut drop = vec![false; self.num_equalities()];
        for w in order.windows(2) {
            if self.eqs.row(w[0]) == self.eqs.row(w[1]) {
                drop[w[1]] = true;
            }
        }
        self.eqs.retain_rows(|i, _| !drop[i]);
        // Inequalities: by coefficients, then constant (tightest first).
        let mut order: Vec<usize> = (0..self.num_inequalities()).collect();
        order.sort_by(|&a, &b| {
            let (ra, rb) = (self.ineqs.row(a), self.ineqs.row(b));
            ra[..n].cmp(&rb[..n]).then(ra[n].cmp(&rb[n])).then(a.cmp(&b))
        });
        let mut drop = vec![false; self.num_inequalities()];
        for w in order.windows(2) {
            if self.ineqs.row(w[0])[..n] == self.ineqs.row(w[1])[..n] {
                drop[w[1]] = true;
            }
        }
        // Opposite pairs among the kept rows.
        let kept: Vec<usize> = order.iter().copied().filter(|&i| !drop[i]).collect();
        let mut new_eqs = Vec::new();
        let mut negated = vec![0i64; n];
        for &i in &kept {
            if drop[i] {
                continue;
            }
            let r = self.ineqs.row(i);
            if r[..n].contains(&i64::MIN) {
                continue;
            }
            negated.iter_mut().zip(&r[..n]).for_each(|(x, &v)| *x = -v);
            let found = kept.binary_search_by(|&j| self.ineqs.row(j)[..n].cmp(&negated[..]));
            let Ok(p) = found else { continue };
            let j = kept[p];
            if drop[j] || j == i {
                continue;
            }
            let sum = r[n] as i128 + self.ineqs.row(j)[n] as i128;
            match sum.cmp(&0) {
                Ordering::Less => {
                    self.mark_empty();
                    return;
                }
                Ordering::Equal => {
                    new_eqs.push(r.to_vec());
                    drop[i] = true;
                    drop[j] = true;
                }
                Ordering::Greater => {}
            }
        }
        self.ineqs.retain_rows(|i, _| !drop[i]);
        for mut e in new_eqs {
            normalize_eq(&mut e);
            if !self.eqs.iter().any(|r| r == e.as_slice()) {
                self.eqs.push_row(&e);
            }
        }
    }

    /// Removes the constraints implied by the others (exact: a row whose
    /// rational minimum over the other rows is above -1 is non-negative at
    /// every integer point of them). Rows are tested in order, each against
    /// the rows kept so far and the rows not yet tested. A rationally empty
    /// system becomes `1 = 0`.
    pub fn remove_redundant_constraints(&mut self) -> Result<()> {
        check_limits(self)?;
        let n = self.num_vars();
        let ne = self.num_equalities();
        let total = ne + self.num_inequalities();
        let row = |s: &IntegerRelation, k: usize| -> Vec<i128> {
            let r = if k < ne { s.eqs.row(k) } else { s.ineqs.row(k - ne) };
            r.iter().map(|&v| v as i128).collect()
        };
        let mut removed = vec![false; total];
        for k in 0..total {
            let mut simplex = Simplex::new(n, total * 2);
            for j in (0..total).filter(|&j| j != k && !removed[j]) {
                let r = row(self, j);
                if j < ne {
                    simplex.add_equality(&r[..n], r[n])?;
                } else {
                    simplex.add_inequality(&r[..n], r[n])?;
                }
            }
            if simplex.is_empty() {
                self.mark_empty();
                return Ok(());
            }
            let r = row(self, k);
            let above = |opt: RationalOpt, max: bool| match opt {
                RationalOpt::Bounded(num, den) if !max => num > -den,
                RationalOpt::Bounded(num, den) => num < den,
                RationalOpt::Empty => true,
                RationalOpt::Unbounded => false,
            };
            let mut redundant = above(simplex.optimize(&r[..n], r[n], false)?, false);
            if redundant && k < ne {
                redundant = above(simplex.optimize(&r[..n], r[n], true)?, true);
            }
            removed[k] = redundant;
        }
        self.eqs.retain_rows(|i, _| !removed[i]);
        self.ineqs.retain_rows(|i, _| !removed[ne + i]);
        Ok(())
    }

    /// Simplifies the system without changing its integer points: removes
    /// duplicate and redundant constraints, eliminates the locals that can
    /// be eliminated exactly, and finds the division records of locals
    /// defined by a pair of inequalities. A system without integer points
    /// becomes `1 = 0`.
    pub fn simplify(&mut self) -> Result<()> {
        self.eliminate_locals()?;
        if self.is_empty()? {
            self.mark_empty();
            return Ok(());
        }
        self.remove_redundant_constraints()?;
        self.recover_divisions();
        Ok(())
    }

    /// Records, for each local without a division record, a division that
    /// the constraints define: inequalities `e - d q >= 0` and
    /// `-e + d q + d - 1 >= 0` (or tighter), or an equality `e - d q = 0`,
    /// where `e` only uses columns before `q`.
    pub fn recover_divisions(&mut self) {
        let n = self.num_vars();
        let local0 = self.var_offset(VarKind::Local);
        for l in 0..self.num_local_vars() {
            if self.divs[l].is_some() {
                continue;
            }
            let q = local0 + l;
            let usable = |r: &[i64]| r[q + 1..n].iter().all(|&c| c == 0) && r[q] != i64::MIN;
            let mut found: Option<Division> = None;
            for r in self.eqs.iter() {
                if r[q] != 0 && usable(r) && r.iter().all(|&v| v != i64::MIN) {
                    // e - d q = 0: q = e / d, an exact (so floor) division.
                    let (mut e, d) = if r[q] < 0 {
                        (r.to_vec(), -r[q])
                    } else {
                        (r.iter().map(|&v| -v).collect(), r[q])
                    };
                    e[q] = 0;
                    found = Some(Division {
                        dividend: e,
                        divisor: d,
                    });
                    break;
                }
            }
            if found.is_none() {
                'outer: for lo in self.ineqs.iter() {
                    // lo = e - d q >= 0
                    if lo[q] >= 0 || !usable(lo) {
                        continue;
                    }
                    let d = -lo[q];
                    for hi in self.ineqs.iter() {
                        if hi[q] != d || !usable(hi) {
                            continue;
                        }
                        // hi = -e + d q + k with 0 <= k <= d - 1 defines q
                        // as floor(e / d) (k = d - 1) or tighter ones; only
                        // accept the exact floor form.
                        let opposite = (0..n).filter(|&c| c != q).all(|c| hi[c] as i128 == -(lo[c] as i128));
                        if opposite && lo[n] as i128 + hi[n] as i128 == d as i128 - 1 {
                            let mut e = lo.to_vec();
                            e[q] = 0;
                            found = Some(Division {
                                dividend: e,
                                divisor: d,
                            });
                            break 'outer;
                        }
                    }
                }
            }
            self.divs[l] = found;
        }
    }
}
