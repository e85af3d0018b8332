//! Exact integer feasibility: does a system have an integer point, and
//! which one.
//!
//! 1. The rows are normalized by the gcd of their coefficients (an equality
//!    whose gcd does not divide its constant has no integer solution; an
//!    inequality's constant is rounded down, which keeps its integer points).
//! 2. The equalities are eliminated exactly: unimodular column operations
//!    (Euclid on the coefficients) give one coefficient ±1, and that
//!    variable is substituted away. The integer points of the result map
//!    one-to-one onto those of the original through the accumulated affine
//!    transform.
//! 3. The rational simplex decides rational emptiness; if its sample point
//!    is integral, done (the common case for dependence systems).
//! 4. Otherwise the recession cone `{d : A d >= 0}` of the inequalities
//!    `A y + b >= 0` is examined: the cone constraints that are zero on the
//!    whole cone (its implicit equalities) span the *bounded* directions. A
//!    unimodular change of variables puts them first: the first `k`
//!    variables are bounded over the polyhedron, and for every fixed value
//!    of them the rest has a full-dimensional recession cone, so it has an
//!    integer point as soon as it has a rational one.
//! 5. The first `k` variables are searched (a bounded search: it
//!    terminates; [`MAX_BRANCH_NODES`] caps it): branch and bound on the
//!    coordinates for a few nodes, then a depth-first search over a basis
//!    reduced by generalized basis reduction, whose ranges stay short on
//!    thin, skewed polytopes. It finds integer values of them with a
//!    rational completion, or proves there are none.
//! 6. For a sample point, the rest is completed by rounding up a rational
//!    point of the *shrunken* slice (each inequality tightened by the sum of
//!    its negative coefficients), which a full-dimensional cone makes
//!    non-empty and whose rounding up stays in the slice.

use crate::arith::{add, ceil_div, floor_div, mul, neg, row_gcd, sub};
use crate::error::{Error, Limit, Result, MAX_BRANCH_NODES, MAX_CONSTRAINTS, MAX_VARS};
use crate::relation::IntegerRelation;
use crate::simplex::{RationalOpt, Simplex};

/// Checks the size limits of a query on `rel`.
pub(crate) fn check_limits(rel: &IntegerRelation) -> Result<()> {
    if rel.num_vars() > MAX_VARS {
        return Err(Error::LimitExceeded(Limit::Variables { found: rel.num_vars() }));
    }
    if rel.num_constraints() > MAX_CONSTRAINTS {
        return Err(Error::LimitExceeded(Limit::Constraints {
            found: rel.num_constraints(),
        }));
    }
    Ok(())
}

/// Rows of `w` entries (coefficients, then the constant), flat.
#[derive(Clone, Debug, Default)]
struct Rows {
    w: usize,
    data: Vec<i128>,
}

impl Rows {
    fn new(w: usize) -> Rows {
        Rows { w, data: Vec::new() }
    }
    #[inline]
    fn len(&self) -> usize {
        self.data.len() / self.w
    }
    #[inline]
    fn row(&self, i: usize) -> &[i128] {
        &self.data[i * self.w..(i + 1) * self.w]
    }
    #[inline]
    fn row_mut(&mut self, i: usize) -> &mut [i128] {
        &mut self.data[i * self.w..(i + 1) * self.w]
    }
    fn iter(&self) -> impl Iterator<Item = &[i128]> {
        self.data.chunks_exact(self.w)
    }
    fn push(&mut self, row: &[i128]) {
        debug_assert_eq!(row.len(), self.w);
        self.data.extend_from_slice(row);
    }
    /// `col[k] -= q * col[j]` in every row.
    fn col_sub(&mut self, k: usize, j: usize, q: i128) -> Result<()> {
        for r in self.data.chunks_exact_mut(self.w) {
            if r[j] != 0 {
                r[k] = sub(r[k], mul(q, r[j])?)?;
            }
        }
        Ok(())
    }
    fn swap_cols(&mut self, a: usize, b: usize) {
        for r in self.data.chunks_exact_mut(self.w) {
            r.swap(a, b);
        }
    }
    /// `row -= f * e` for every row, with `f = row[k] * e[k]` (`e[k] = ±1`):
    /// afterwards column `k` is 0 everywhere.
    fn eliminate(&mut self, k: usize, e: &[i128]) -> Result<()> {
        let ek = e[k];
        debug_assert!(ek == 1 || ek == -1);
        for r in self.data.chunks_exact_mut(self.w) {
            if r[k] == 0 {
                continue;
            }
            let f = mul(r[k], ek)?;
            for (x, &y) in r.iter_mut().zip(e) {
                if y != 0 {
                    *x = sub(*x, mul(f, y)?)?;
                }
            }
        }
        Ok(())
    }
    fn remove_col(&mut self, k: usize) {
        let w = self.w;
        let mut out = 0;
        for i in 0..self.data.len() {
            if i % w != k {
                self.data[out] = self.data[i];
                out += 1;
            }
        }
        self.data.truncate(out);
        self.w -= 1;
    }
}

/// The outcome of normalizing one row.
enum Norm {
    Keep,
    /// Always true: drop it.
    Trivial,
    /// Never true: the system is empty.
    Infeasible,
}

/// Divides an equality by the gcd of its coefficients.
fn normalize_eq(row: &mut [i128]) -> Norm {
    let n = row.len() - 1;
    let g = row_gcd(&row[..n]);
    if g == 0 {
        return if row[n] == 0 { Norm::Trivial } else { Norm::Infeasible };
    }
    if row[n] % g != 0 {
        return Norm::Infeasible;
    }
    if g > 1 {
        row.iter_mut().for_each(|v| *v /= g);
    }
    Norm::Keep
}

/// Divides an inequality by the gcd of its coefficients, rounding its
/// constant down (exact over the integers).
fn normalize_ineq(row: &mut [i128]) -> Norm {
    let n = row.len() - 1;
    let g = row_gcd(&row[..n]);
    if g == 0 {
        return if row[n] >= 0 { Norm::Trivial } else { Norm::Infeasible };
    }
    if g > 1 {
        row[..n].iter_mut().for_each(|v| *v /= g);
        row[n] = floor_div(row[n], g);
    }
    Norm::Keep
}

/// The working system: inequalities over `m` variables `y`, and the affine
/// map `x = T (y, 1)` back to the original variables.
struct Reduced {
    ineqs: Rows,
    t: Rows,
}

impl Reduced {
    fn m(&self) -> usize {
        self.ineqs.w - 1
    }
}

/// Normalizes the rows and eliminates the equalities (steps 1 and 2).
/// `None` when that already shows there is no integer point.
fn reduce(rel: &IntegerRelation) -> Result<Option<Reduced>> {
    let n = rel.num_vars();
    let w = n + 1;
    let mut eqs = Rows::new(w);
    let mut ineqs = Rows::new(w);
    let mut buf: Vec<i128> = vec![0; w];
    for row in rel.equalities() {
        buf.iter_mut().zip(row).for_each(|(b, &v)| *b = v as i128);
        match normalize_eq(&mut buf) {
            Norm::Keep => eqs.push(&buf),
            Norm::Trivial => {}
            Norm::Infeasible => return Ok(None),
        }
    }
    for row in rel.inequalities() {
        buf.iter_mut().zip(row).for_each(|(b, &v)| *b = v as i128);
        match normalize_ineq(&mut buf) {
            Norm::Keep => ineqs.push(&buf),
            Norm::Trivial => {}
            Norm::Infeasible => return Ok(None),
        }
    }
    let mut t = Rows::new(w);
    for i in 0..n {
        buf.iter_mut().for_each(|b| *b = 0);
        buf[i] = 1;
        t.push(&buf);
    }
    // Eliminate the equalities one at a time.
    let mut e: Vec<i128> = Vec::with_capacity(w);
    while eqs.len() > 0 {
        let last = eqs.len() - 1;
        e.clear();
        e.extend_from_slice(eqs.row(last));
        eqs.data.truncate(last * eqs.w);
        match normalize_eq(&mut e) {
            Norm::Keep => {}
            Norm::Trivial => continue,
            Norm::Infeasible => return Ok(None),
        }
        let nv = e.len() - 1;
        // Euclid on the columns until one coefficient is ±1 (the gcd is 1).
        let k = loop {
            let j = (0..nv)
                .filter(|&j| e[j] != 0)
                .min_by_key(|&j| (e[j].unsigned_abs(), j))
                .expect("a normalized equality has a nonzero coefficient");
            if e[j].abs() == 1 {
                break j;
            }
            for k in 0..nv {
                if k != j && e[k] != 0 {
                    let q = e[k] / e[j];
                    // x_j := x_j - q x_k (unimodular): column k -= q * column j.
                    e[k] = sub(e[k], mul(q, e[j])?)?;
                    eqs.col_sub(k, j, q)?;
                    ineqs.col_sub(k, j, q)?;
                    t.col_sub(k, j, q)?;
                }
            }
        };
        eqs.eliminate(k, &e)?;
        ineqs.eliminate(k, &e)?;
        t.eliminate(k, &e)?;
        eqs.remove_col(k);
        ineqs.remove_col(k);
        t.remove_col(k);
    }
    // Renormalize the inequalities over the remaining variables.
    let mut out = Rows::new(ineqs.w);
    for i in 0..ineqs.len() {
        let row = ineqs.row_mut(i);
        match normalize_ineq(row) {
            Norm::Keep => out.push(ineqs.row(i)),
            Norm::Trivial => {}
            Norm::Infeasible => return Ok(None),
        }
    }
    Ok(Some(Reduced { ineqs: out, t }))
}

/// A simplex of the inequalities `rows` over their variables.
fn simplex_of(rows: &Rows) -> Result<Simplex> {
    let m = rows.w - 1;
    let mut s = Simplex::new(m, rows.len() + 2 * m + 4);
    for r in rows.iter() {
        s.add_inequality(&r[..m], r[m])?;
        if s.is_empty() {
            break;
        }
    }
    Ok(s)
}

/// The integer sample of a simplex's first `k` variables, or the first
/// variable below `k` whose value is fractional (with `floor` and `ceil`).
fn first_fractional(s: &Simplex, k: usize) -> Option<(usize, i128, i128)> {
    (0..k).find_map(|j| {
        let (num, den) = s.var_value(j);
        (num % den != 0).then(|| (j, floor_div(num, den), ceil_div(num, den)))
    })
}

/// The sample value of variable `j`, known to be an integer.
fn int_value(s: &Simplex, j: usize) -> i128 {
    let (num, den) = s.var_value(j);
    debug_assert_eq!(num % den, 0);
    num / den
}

/// Whether `rel` has an integer point; with `want_point`, one such point
/// (values of all variables, locals included, as `i128`).
///
/// `Ok(None)`: no integer point. `Ok(Some(vec![]))` without `want_point`:
/// there is one.
pub(crate) fn integer_sample(rel: &IntegerRelation, want_point: bool) -> Result<Option<Vec<i128>>> {
    check_limits(rel)?;
    let Some(red) = reduce(rel)? else {
        return Ok(None);
    };
    let m = red.m();
    if red.ineqs.len() == 0 {
        return map_back(&red.t, &vec![0; m], want_point).map(Some);
    }
    // Step 3: the rational relaxation.
    let s = simplex_of(&red.ineqs)?;
    if s.is_empty() {
        return Ok(None);
    }
    if first_fractional(&s, m).is_none() {
        let y: Vec<i128> = (0..m).map(|j| int_value(&s, j)).collect();
        return map_back(&red.t, &y, want_point).map(Some);
    }
    // Step 4: bounded and unbounded directions.
    let Reduced { mut ineqs, mut t } = red;
    let k = bounded_prefix(&mut ineqs, &mut t)?;
    // Step 5: search the bounded variables: branch and bound first, the
    // search with basis reduction when that takes long.
    let found = match branch_and_bound(simplex_of(&ineqs)?, k, BB_BUDGET)? {
        Ok(Some(leaf)) => Some((0..k).map(|j| int_value(&leaf, j)).collect()),
        Ok(None) => None,
        Err(()) => search(&ineqs, k)?,
    };
    let Some(fixed) = found else {
        return Ok(None);
    };
    if !want_point {
        return Ok(Some(Vec::new()));
    }
    // Step 6: complete the unbounded variables.
    let y = complete(&ineqs, fixed)?;
    map_back(&t, &y, true).map(Some)
}

/// `x = T (y, 1)`; nothing unless `want_point`.
fn map_back(t: &Rows, y: &[i128], want_point: bool) -> Result<Vec<i128>> {
    if !want_point {
        return Ok(Vec::new());
    }
    let m = y.len();
    t.iter()
        .map(|tr| {
            let mut v = tr[m];
            for (a, b) in tr[..m].iter().zip(y) {
                if *a != 0 && *b != 0 {
                    v = add(v, mul(*a, *b)?)?;
                }
            }
            Ok(v)
        })
        .collect()
}

/// Finds the implicit equalities of the recession cone of `ineqs` and
/// changes variables (unimodularly, in `ineqs` and `t`) so that they only
/// involve the first `k` variables, which are then bounded; returns `k`.
fn bounded_prefix(ineqs: &mut Rows, t: &mut Rows) -> Result<usize> {
    let m = ineqs.w - 1;
    let rows = ineqs.len();
    // The cone {d : A d >= 0}; a row is an implicit equality of the cone
    // when its maximum over {cone, row <= 1} is 0.
    let mut cone = Simplex::new(m, 2 * rows + 2);
    for r in ineqs.iter() {
        cone.add_inequality(&r[..m], 0)?;
    }
    let mut positive = vec![false; rows];
    let mut equalities: Vec<usize> = Vec::new();
    let mut neg_row: Vec<i128> = vec![0; m];
    for i in 0..rows {
        let r = ineqs.row(i);
        if positive[i] || r[..m].iter().all(|&a| a == 0) {
            continue;
        }
        for (n, &a) in neg_row.iter_mut().zip(&r[..m]) {
            *n = neg(a)?;
        }
        cone.add_inequality(&neg_row, 1)?;
        match cone.optimize(&r[..m], 0, true)? {
            RationalOpt::Bounded(num, _) if num > 0 => {
                for (j, p) in positive.iter_mut().enumerate() {
                    if !*p && cone.constraint_value(j).0 > 0 {
                        *p = true;
                    }
                }
                positive[i] = true;
            }
            RationalOpt::Bounded(..) => equalities.push(i),
            RationalOpt::Unbounded | RationalOpt::Empty => {
                // The cone with `row <= 1` contains 0 and bounds the row.
                return Err(Error::Unsupported("internal: unbounded row over the bounded cone"));
            }
        }
    }
    // Column Hermite form of the equality rows: unimodular column
    // operations give each independent row one pivot column, moved to the
    // front.
    let mut e = Rows::new(m + 1);
    for &i in &equalities {
        e.push(ineqs.row(i));
    }
    // Fully bounded (the cone is {0}): no change of variables needed; it
    // would only skew the polytope.
    if rank_is_full(&e)? {
        return Ok(m);
    }
    let mut p = 0;
    for ri in 0..e.len() {
        if p == m {
            break;
        }
        loop {
            let row = e.row(ri);
            let nz: Vec<usize> = (p..m).filter(|&j| row[j] != 0).collect();
            if nz.len() <= 1 {
                if let Some(&j) = nz.first() {
                    if j != p {
                        e.swap_cols(j, p);
                        ineqs.swap_cols(j, p);
                        t.swap_cols(j, p);
                    }
                    p += 1;
                }
                break;
            }
            let j = *nz.iter().min_by_key(|&&j| (row[j].unsigned_abs(), j)).unwrap();
            let aj = row[j];
            let qs: Vec<(usize, i128)> = nz.iter().filter(|&&k| k != j).map(|&k| (k, row[k] / aj)).collect();
            for (k, q) in qs {
                if q != 0 {
                    e.col_sub(k, j, q)?;
                    ineqs.col_sub(k, j, q)?;
                    t.col_sub(k, j, q)?;
                }
            }
        }
    }
    Ok(p)
}

/// Whether the rows span the whole space (fraction-free Gaussian
/// elimination on a copy).
fn rank_is_full(e: &Rows) -> Result<bool> {
    let m = e.w - 1;
    let mut rows: Vec<Vec<i128>> = e.iter().map(|r| r[..m].to_vec()).collect();
    let mut rank = 0;
    for c in 0..m {
        let Some(p) = (rank..rows.len()).find(|&i| rows[i][c] != 0) else {
            continue;
        };
        rows.swap(rank, p);
        let pivot = rows[rank].clone();
        for r in rows.iter_mut().skip(rank + 1) {
            if r[c] != 0 {
                let (a, b) = (pivot[c], r[c]);
                for j in c..m {
                    r[j] = sub(mul(r[j], a)?, mul(pivot[j], b)?)?;
                }
                let g = row_gcd(r);
                if g > 1 {
                    r.iter_mut().for_each(|v| *v /= g);
                }
            }
        }
        rank += 1;
    }
    Ok(rank == m)
}

/// Depth-first branch and bound on the first `k` variables of `root`, on
/// the coordinates, within `budget` nodes. Returns a feasible tableau whose
/// first `k` sample values are integers, `Ok(None)` when there is none, or
/// `Err(())` when the budget ran out (the search with basis reduction
/// takes over).
fn branch_and_bound(root: Simplex, k: usize, budget: usize) -> Result<std::result::Result<Option<Simplex>, ()>> {
    let m = root.num_vars();
    let mut stack = vec![root];
    let mut nodes = 0usize;
    let mut unit: Vec<i128> = vec![0; m];
    while let Some(mut s) = stack.pop() {
        nodes += 1;
        if nodes > budget {
            return Ok(Err(()));
        }
        if s.is_empty() {
            continue;
        }
        let Some((j, lo, hi)) = first_fractional(&s, k) else {
            return Ok(Ok(Some(s)));
        };
        // y_j >= hi, explored second.
        let mut up = s.clone();
        unit.iter_mut().for_each(|u| *u = 0);
        unit[j] = 1;
        up.add_inequality(&unit, neg(hi)?)?;
        stack.push(up);
        // y_j <= lo, explored first.
        unit[j] = -1;
        s.add_inequality(&unit, lo)?;
        stack.push(s);
    }
    Ok(Ok(None))
}

/// The nodes branch and bound may use before the search with basis
/// reduction takes over: enough for the usual dependence systems, whose
/// relaxations are close to integral; thin, skewed polytopes (large
/// coefficients) go to the reduction quickly.
const BB_BUDGET: usize = 64;

/// A fraction `num / den` with `den > 0`.
type Frac = (i128, i128);

/// `a < b` for fractions, checked.
fn frac_lt(a: Frac, b: Frac) -> Result<bool> {
    Ok(mul(a.0, b.1)? < mul(b.0, a.1)?)
}

/// The linear programs of basis reduction: the width of a direction `d`
/// over the current polytope `Q` (the inequalities and the equalities of
/// the levels fixed so far), `max d.(x - y)` over `x, y` in `Q`, with
/// `b.(x - y) == 0` for each direction `b` in `eqs`.
struct WidthLp<'a> {
    ineqs: &'a Rows,
    fixed: &'a [(Vec<i128>, i128)],
    eqs: Vec<Vec<i128>>,
}

impl WidthLp<'_> {
    /// The width of `dir` and, with `dual_of_last`, the dual value of the
    /// last equality of `eqs` (see [`Simplex::optimize_with_duals`]).
    fn width(&self, dir: &[i128], dual_of_last: bool) -> Result<(Frac, Frac)> {
        let m = self.ineqs.w - 1;
        let k = dir.len();
        let mut s = Simplex::new(
            2 * m,
            2 * (self.ineqs.len() + 2 * self.fixed.len() + 2 * self.eqs.len()),
        );
        let mut row = vec![0i128; 2 * m];
        for r in self.ineqs.iter() {
            row.iter_mut().for_each(|v| *v = 0);
            row[..m].copy_from_slice(&r[..m]);
            s.add_inequality(&row, r[m])?;
            row.iter_mut().for_each(|v| *v = 0);
            row[m..].copy_from_slice(&r[..m]);
            s.add_inequality(&row, r[m])?;
        }
        for (d, v) in self.fixed {
            let nv = neg(*v)?;
            row.iter_mut().for_each(|v| *v = 0);
            row[..d.len()].copy_from_slice(d);
            s.add_equality(&row, nv)?;
            row.iter_mut().for_each(|v| *v = 0);
            row[m..m + d.len()].copy_from_slice(d);
            s.add_equality(&row, nv)?;
        }
        let mut last = 0;
        for d in &self.eqs {
            row.iter_mut().for_each(|v| *v = 0);
            for j in 0..d.len() {
                row[j] = d[j];
                row[m + j] = neg(d[j])?;
            }
            last = s.num_constraints();
            s.add_equality(&row, 0)?;
        }
        if s.is_empty() {
            return Ok(((0, 1), (0, 1)));
        }
        row.iter_mut().for_each(|v| *v = 0);
        for j in 0..k {
            row[j] = dir[j];
            row[m + j] = neg(dir[j])?;
        }
        let wanted: &[usize] = if dual_of_last && !self.eqs.is_empty() {
            &[last]
        } else {
            &[]
        };
        let (opt, duals) = s.optimize_with_duals(&row, 0, true, wanted)?;
        match opt {
            RationalOpt::Bounded(num, den) => Ok(((num, den), duals.first().copied().unwrap_or((0, 1)))),
            // The directions span bounded variables only.
            _ => Err(Error::Unsupported("internal: unbounded width in basis reduction")),
        }
    }
}

/// Generalized basis reduction (Lovász and Scarf; Cook, Rutherford, Scarf
/// and Shallcross) of `basis[level..]` over the polytope of `lp`: afterwards
/// each direction's width, with the earlier directions held fixed, is at
/// most 4/3 of the next one's, so few integer values of each direction
/// need to be tried. Only unimodular row operations among
/// `basis[level..]`.
fn reduce_basis(lp: &mut WidthLp<'_>, basis: &mut [Vec<i128>], level: usize, steps: &mut usize) -> Result<()> {
    let n = basis.len();
    if level + 1 >= n {
        return Ok(());
    }
    lp.eqs.clear();
    // widths[j - level] = F_j(b_j): the width of b_j with b_level..b_{j-1}
    // held fixed (lp.eqs holds b_level..b_{i-1}).
    let mut widths: Vec<Frac> = Vec::new();
    let mut i = level;
    while i + 1 < n {
        *steps += 1;
        if *steps > MAX_BRANCH_NODES {
            return Err(Error::LimitExceeded(Limit::BranchNodes));
        }
        if widths.len() <= i - level {
            widths.push(lp.width(&basis[i], false)?.0);
        }
        // F_{i+1}(b_{i+1}) and the dual lambda of b_i's equality:
        // F_{i+1}(b_{i+1}) = F_i(b_{i+1} - lambda b_i).
        lp.eqs.push(basis[i].clone());
        let (next_width, (ln, ld)) = lp.width(&basis[i + 1], true)?;
        lp.eqs.pop();
        // The best integer multiple is next to -lambda.
        let (lo, hi) = (floor_div(neg(ln)?, ld), ceil_div(neg(ln)?, ld));
        let mut best: Option<(i128, Frac)> = None;
        for u in [lo, hi] {
            if best.is_some_and(|(b, _)| b == u) {
                continue;
            }
            let cand = add_multiple(&basis[i + 1], &basis[i], u)?;
            let w = lp.width(&cand, false)?.0;
            if best.is_none_or(|(_, bw)| frac_lt(w, bw).unwrap_or(false)) {
                best = Some((u, w));
            }
        }
        let (u, cand_width) = best.expect("two candidates");
        if u != 0 {
            basis[i + 1] = add_multiple(&basis[i + 1], &basis[i], u)?;
        }
        // Swap when F_i(b_{i+1}) < 3/4 F_i(b_i).
        let w = widths[i - level];
        if frac_lt((mul(cand_width.0, 4)?, cand_width.1), (mul(w.0, 3)?, w.1))? {
            basis.swap(i, i + 1);
            widths[i - level] = cand_width;
            widths.truncate(i - level + 1);
            if i > level {
                lp.eqs.pop();
                i -= 1;
            }
        } else {
            lp.eqs.push(basis[i].clone());
            i += 1;
            // F_i(b_i + u b_{i-1}) = F_i(b_i) with b_{i-1} held fixed.
            if widths.len() <= i - level {
                widths.push(next_width);
            }
        }
    }
    Ok(())
}

/// `a + u * b`, checked.
fn add_multiple(a: &[i128], b: &[i128], u: i128) -> Result<Vec<i128>> {
    a.iter().zip(b).map(|(&x, &y)| add(x, mul(u, y)?)).collect()
}

/// The integer range `[ceil(min), floor(max)]` of `dir . y` over `s`
/// (`None` when `s` is empty).
fn integer_range(s: &mut Simplex, dir: &[i128]) -> Result<Option<(i128, i128)>> {
    let m = s.num_vars();
    let mut row = vec![0i128; m];
    row[..dir.len()].copy_from_slice(dir);
    let lo = match s.optimize(&row, 0, false)? {
        RationalOpt::Bounded(num, den) => ceil_div(num, den),
        RationalOpt::Empty => return Ok(None),
        RationalOpt::Unbounded => return Err(Error::Unsupported("internal: unbounded direction in the search")),
    };
    let hi = match s.optimize(&row, 0, true)? {
        RationalOpt::Bounded(num, den) => floor_div(num, den),
        RationalOpt::Empty => return Ok(None),
        RationalOpt::Unbounded => return Err(Error::Unsupported("internal: unbounded direction in the search")),
    };
    Ok(Some((lo, hi)))
}

/// Integer values of the first `k` variables of `ineqs` (which are bounded)
/// with a rational completion, or `None` when there are none (step 5).
///
/// A depth-first search over the directions of a basis of `Z^k`: at level
/// `l` every integer value of `b_l . y` in its range (with the earlier
/// directions fixed) is tried. Before a level's range is enumerated, the
/// remaining directions are reduced (generalized basis reduction), which
/// makes the ranges short even for thin, skewed polytopes, where branching
/// on the coordinates would try values without end.
fn search(ineqs: &Rows, k: usize) -> Result<Option<Vec<i128>>> {
    let root = simplex_of(ineqs)?;
    if root.is_empty() {
        return Ok(None);
    }
    if k == 0 {
        return Ok(Some(Vec::new()));
    }
    let mut basis: Vec<Vec<i128>> = (0..k)
        .map(|i| {
            let mut b = vec![0; k];
            b[i] = 1;
            b
        })
        .collect();
    // Per level entered: the simplex before its direction is fixed, the
    // next value to try and the last one.
    let mut stack: Vec<(Simplex, i128, i128)> = Vec::new();
    // The equalities `b_l . y == v_l` of the levels above.
    let mut fixed: Vec<(Vec<i128>, i128)> = Vec::new();
    let mut current = root;
    let mut steps = 0usize;
    loop {
        let level = fixed.len();
        if level == k {
            if !current.is_empty() {
                let mut y = Vec::with_capacity(k);
                for j in 0..k {
                    let (num, den) = current.var_value(j);
                    if num % den != 0 {
                        return Err(Error::Unsupported("internal: fractional value of a fixed variable"));
                    }
                    y.push(num / den);
                }
                return Ok(Some(y));
            }
        } else if stack.len() == level {
            // Entering the level. When the rational sample is already
            // integral in the first k variables, done.
            if !current.is_empty() && first_fractional(&current, k).is_none() {
                return Ok(Some((0..k).map(|j| int_value(&current, j)).collect()));
            }
            // Otherwise the level's range, after reduction when it holds
            // more than one value.
            steps += 1;
            if steps > MAX_BRANCH_NODES {
                return Err(Error::LimitExceeded(Limit::BranchNodes));
            }
            match integer_range(&mut current, &basis[level])? {
                Some((lo, hi)) if lo <= hi => {
                    let (lo, hi) = if lo < hi {
                        let mut lp = WidthLp {
                            ineqs,
                            fixed: &fixed,
                            eqs: Vec::new(),
                        };
                        reduce_basis(&mut lp, &mut basis, level, &mut steps)?;
                        integer_range(&mut current, &basis[level])?.unwrap_or((1, 0))
                    } else {
                        (lo, hi)
                    };
                    stack.push((current.clone(), lo, hi));
                }
                _ => stack.push((current.clone(), 1, 0)),
            }
        }
        // Try the level's next value, or go back up.
        let level = stack.len() - 1;
        fixed.truncate(level);
        let (s, next, hi) = stack.last_mut().expect("a level");
        if *next > *hi {
            // Exhausted: back to the level above, to its next value.
            stack.pop();
            if stack.is_empty() {
                return Ok(None);
            }
            fixed.truncate(stack.len() - 1);
            continue;
        }
        steps += 1;
        if steps > MAX_BRANCH_NODES {
            return Err(Error::LimitExceeded(Limit::BranchNodes));
        }
        let value = *next;
        *next = add(*next, 1)?;
        current = s.clone();
        let mut row = vec![0i128; current.num_vars()];
        row[..k].copy_from_slice(&basis[level]);
        current.add_equality(&row, neg(value)?)?;
        fixed.push((basis[level].clone(), value));
    }
}

/// Completes the integer values `fixed` of the first `k` variables with
/// integer values of the others (step 6).
fn complete(ineqs: &Rows, fixed: Vec<i128>) -> Result<Vec<i128>> {
    let m = ineqs.w - 1;
    let k = fixed.len();
    if k == m {
        return Ok(fixed);
    }
    let rest = m - k;
    // The slice at `fixed`, shrunk: a z - sum_{a_j < 0} |a_j| + c >= 0.
    let mut shrunk = Simplex::new(rest, ineqs.len() + 2);
    for r in ineqs.iter() {
        let mut c = r[m];
        for (a, f) in r[..k].iter().zip(&fixed) {
            c = add(c, mul(*a, *f)?)?;
        }
        for &a in &r[k..m] {
            if a < 0 {
                c = add(c, a)?;
            }
        }
        shrunk.add_inequality(&r[k..m], c)?;
    }
    debug_assert!(
        !shrunk.is_empty(),
        "the shrunken slice of a full-dimensional cone is not empty"
    );
    if shrunk.is_empty() {
        return Err(Error::Unsupported("internal: empty shrunken slice"));
    }
    let mut y = fixed;
    for j in 0..rest {
        let (num, den) = shrunk.var_value(j);
        y.push(ceil_div(num, den));
    }
    // The rounding argument guarantees this; check it anyway.
    for r in ineqs.iter() {
        let mut v = r[m];
        for (a, b) in r[..m].iter().zip(&y) {
            v = add(v, mul(*a, *b)?)?;
        }
        if v < 0 {
            debug_assert!(false, "rounded point violates a constraint");
            return Err(Error::Unsupported("internal: rounded point outside the set"));
        }
    }
    Ok(y)
}

/// Whether `rel` has no rational point (its rows as given, no integer
/// normalization).
pub(crate) fn rationally_empty(rel: &IntegerRelation) -> Result<bool> {
    check_limits(rel)?;
    let n = rel.num_vars();
    let mut s = Simplex::new(n, rel.num_inequalities() + 2 * rel.num_equalities());
    let mut buf: Vec<i128> = vec![0; n + 1];
    for row in rel.equalities() {
        buf.iter_mut().zip(row).for_each(|(b, &v)| *b = v as i128);
        s.add_equality(&buf[..n], buf[n])?;
    }
    for row in rel.inequalities() {
        buf.iter_mut().zip(row).for_each(|(b, &v)| *b = v as i128);
        s.add_inequality(&buf[..n], buf[n])?;
    }
    Ok(s.is_empty())
}

/// The rational optimum of `objective . (vars, 1)` over `rel` after the
/// integer normalization of its rows and the exact elimination of its
/// equalities (so at least as tight as over the rows as given, and still
/// a bound on the integer optimum). `Empty` when that normalization, or the
/// simplex, finds no point.
pub(crate) fn rational_opt(rel: &IntegerRelation, objective: &[i64], maximize: bool) -> Result<RationalOpt> {
    check_limits(rel)?;
    let Some(red) = reduce(rel)? else {
        return Ok(RationalOpt::Empty);
    };
    let m = red.m();
    // objective(x) with x = T (y, 1).
    let mut obj: Vec<i128> = vec![0; m + 1];
    obj[m] = objective[rel.num_vars()] as i128;
    for (tr, &c) in red.t.iter().zip(objective) {
        if c == 0 {
            continue;
        }
        for (o, &a) in obj.iter_mut().zip(tr) {
            *o = add(*o, mul(c as i128, a)?)?;
        }
    }
    let mut s = simplex_of(&red.ineqs)?;
    if s.is_empty() {
        return Ok(RationalOpt::Empty);
    }
    s.optimize(&obj[..m], obj[m], maximize)
}
