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
//! 5. Branch and bound on the first `k` variables only (a bounded search:
//!    it terminates; [`MAX_BRANCH_NODES`] caps it) finds integer values of
//!    them with a rational completion, or proves there are none.
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
    // Step 5: branch and bound on the bounded variables.
    let Some(leaf) = branch_and_bound(simplex_of(&ineqs)?, k)? else {
        return Ok(None);
    };
    if !want_point {
        return Ok(Some(Vec::new()));
    }
    // Step 6: complete the unbounded variables.
    let y = complete(&ineqs, &leaf, k)?;
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
                unreachable!("the cone with a bounded row is feasible and bounded in that row")
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

/// Depth-first branch and bound on the first `k` variables of `root`.
/// Returns a feasible tableau whose first `k` sample values are integers.
fn branch_and_bound(root: Simplex, k: usize) -> Result<Option<Simplex>> {
    let m = root.num_vars();
    let mut stack = vec![root];
    let mut nodes = 0usize;
    let mut unit: Vec<i128> = vec![0; m];
    while let Some(mut s) = stack.pop() {
        nodes += 1;
        if nodes > MAX_BRANCH_NODES {
            return Err(Error::LimitExceeded(Limit::BranchNodes));
        }
        if s.is_empty() {
            continue;
        }
        let Some((j, lo, hi)) = first_fractional(&s, k) else {
            return Ok(Some(s));
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
    Ok(None)
}

/// Completes the integer values of the first `k` variables of `leaf`'s
/// sample with integer values of the others (step 6).
fn complete(ineqs: &Rows, leaf: &Simplex, k: usize) -> Result<Vec<i128>> {
    let m = ineqs.w - 1;
    let fixed: Vec<i128> = (0..k).map(|j| int_value(leaf, j)).collect();
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
