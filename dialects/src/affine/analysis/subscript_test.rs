//! A quick independence test on the subscripts alone, run before the
//! dependence polyhedron is built.
//!
//! A subscript whose access-relation row has no local variable is an affine
//! form of the loop variables and symbols. For two accesses at a loop
//! depth, the dependence polyhedron equates the common loops outside the
//! depth, asks the one at the depth to advance (`dst >= src + 1`), and
//! equates the subscripts pairwise. Those subscript equalities (the ones
//! without locals) form a small linear system over the rationals. When it
//! has no solution, or when it fixes `dst - src` of the advancing loop to a
//! constant below 1, the polyhedron has no rational point: the accesses
//! never touch the same element in that order (the classical ZIV and SIV
//! tests, and their multi-subscript generalisation).
//!
//! Such a system is empty for both precisions: exact emptiness finds no
//! integer point, and MLIR's elimination (Gaussian elimination of every
//! equality before any Fourier–Motzkin step) turns the order constraint into
//! a negative constant, since `dst - src` is a constant function on the
//! solutions of the equalities. So the test answers "no dependence" exactly
//! where the full check would, without composing the two relations; every
//! other pair goes to the full check.

use super::access::AccessRelation;
use lf_ir::Value;
use smallvec::{smallvec, SmallVec};

/// A row of a pair's linear system: coefficients, then the constant.
type Row = SmallVec<[i64; 16]>;

/// One subscript of an access as an affine form of the access's loop
/// variables (its domain dimensions) and symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SubscriptForm {
    /// The coefficient of each domain dimension, outermost first.
    dims: Vec<i64>,
    /// The coefficient of each symbol of the relation.
    symbols: Vec<i64>,
    /// The constant term.
    constant: i64,
}

/// The subscripts of an access relation (domain dimensions, then one range
/// variable per subscript, symbols, locals) that an equality gives as an
/// affine form without locals; `None` for the others.
pub(crate) fn subscript_forms(rel: &AccessRelation) -> Vec<Option<SubscriptForm>> {
    let r = &rel.rel;
    let (nd, nr, ns) = (r.num_domain_vars(), r.num_range_vars(), r.num_symbol_vars());
    let locals = nd + nr + ns..r.num_cols() - 1;
    (0..nr)
        .map(|k| {
            let col = nd + k;
            r.equalities().find_map(|row| {
                let sign = row[col];
                let defines = (sign == 1 || sign == -1)
                    && (nd..nd + nr).all(|c| c == col || row[c] == 0)
                    && row[locals.clone()].iter().all(|&x| x == 0);
                if !defines {
                    return None;
                }
                // sign * subscript + rest = 0, so subscript = -sign * rest.
                let neg = |x: &i64| x.checked_mul(-sign);
                Some(SubscriptForm {
                    dims: row[..nd].iter().map(neg).collect::<Option<_>>()?,
                    symbols: row[nd + nr..nd + nr + ns].iter().map(neg).collect::<Option<_>>()?,
                    constant: neg(&row[r.num_cols() - 1])?,
                })
            })
        })
        .collect()
}

/// One side of a pair: the subscript forms of an access, the values of its
/// symbols (`None`: a symbol without a value, matching no other) and its
/// number of loop variables.
pub(crate) struct Side<'a> {
    /// The subscripts' forms ([`subscript_forms`]).
    pub forms: &'a [Option<SubscriptForm>],
    /// The values of the relation's symbols.
    pub symbols: &'a [Option<Value>],
    /// The number of domain dimensions.
    pub dims: usize,
}

/// Whether the subscripts alone show that `src` and `dst` never touch the
/// same element when their first `equal_loops` loop variables are equal
/// and, with `advancing = Some(l)`, loop `l` (common to both) is later in
/// `dst` than in `src`.
pub(crate) fn independent(src: &Side, dst: &Side, equal_loops: usize, advancing: Option<usize>) -> bool {
    let Some(columns) = Columns::new(src, dst, equal_loops) else {
        return false;
    };
    let mut rows: SmallVec<[Row; 4]> = SmallVec::new();
    for pair in src.forms.iter().zip(dst.forms) {
        if let (Some(s), Some(d)) = pair {
            match columns.row(s, d) {
                Some(row) => rows.push(row),
                None => return false,
            }
        }
    }
    if rows.is_empty() {
        return false;
    }
    // The advancing loop's `dst - src` as a row with a zero constant.
    let target = advancing.map(|l| {
        let mut t: Row = smallvec![0; columns.width + 1];
        t[columns.src_dim(l)] -= 1;
        t[columns.dst_dim(l)] += 1;
        t
    });
    eliminate(&mut rows, target, columns.width).unwrap_or(false)
}

/// The columns of a pair's linear system: the equal loops (one column for
/// both sides), each side's other loops, the symbols by value.
struct Columns {
    equal_loops: usize,
    src_dims: usize,
    dst_dims: usize,
    /// The column of each of the source's and the destination's symbols.
    src_symbols: SmallVec<[usize; 8]>,
    dst_symbols: SmallVec<[usize; 8]>,
    width: usize,
}

impl Columns {
    fn new(src: &Side, dst: &Side, equal_loops: usize) -> Option<Columns> {
        if equal_loops > src.dims.min(dst.dims) {
            return None;
        }
        let base = src.dims + dst.dims - equal_loops;
        let mut values: SmallVec<[Option<Value>; 8]> = SmallVec::new();
        let mut column_of = |v: &Option<Value>| -> usize {
            let at = v.and_then(|_| values.iter().position(|w| w == v)).unwrap_or_else(|| {
                values.push(*v);
                values.len() - 1
            });
            base + at
        };
        let src_symbols = src.symbols.iter().map(&mut column_of).collect();
        let dst_symbols = dst.symbols.iter().map(&mut column_of).collect();
        Some(Columns {
            equal_loops,
            src_dims: src.dims,
            dst_dims: dst.dims,
            src_symbols,
            dst_symbols,
            width: base + values.len(),
        })
    }

    fn src_dim(&self, i: usize) -> usize {
        i
    }

    fn dst_dim(&self, i: usize) -> usize {
        if i < self.equal_loops {
            i
        } else {
            self.src_dims + i - self.equal_loops
        }
    }

    /// The equality `s(src) = d(dst)` as `[coefficients | constant]` with
    /// `coefficients . z = constant`.
    fn row(&self, s: &SubscriptForm, d: &SubscriptForm) -> Option<Row> {
        let mut row: Row = smallvec![0; self.width + 1];
        debug_assert_eq!((s.dims.len(), d.dims.len()), (self.src_dims, self.dst_dims));
        let mut add = |col: usize, c: i64| -> Option<()> {
            row[col] = row[col].checked_add(c)?;
            Some(())
        };
        for (i, &c) in s.dims.iter().enumerate() {
            add(self.src_dim(i), c)?;
        }
        for (i, &c) in d.dims.iter().enumerate() {
            add(self.dst_dim(i), c.checked_neg()?)?;
        }
        for (&col, &c) in self.src_symbols.iter().zip(&s.symbols) {
            add(col, c)?;
        }
        for (&col, &c) in self.dst_symbols.iter().zip(&d.symbols) {
            add(col, c.checked_neg()?)?;
        }
        row[self.width] = d.constant.checked_sub(s.constant)?;
        Some(row)
    }
}

/// Fraction-free Gaussian elimination of `rows` (`[a | b]`: `a . z = b`).
/// `Some(true)` when the rows have no rational solution, or when `target`
/// (`t . z`) is constant on their solutions and below 1; `None` on
/// overflow.
fn eliminate(rows: &mut [Row], target: Option<Row>, width: usize) -> Option<bool> {
    // The target as `t . z + r = s * value` (`s > 0`), reduced alongside.
    let mut target = target.map(|t| (t, 0i64, 1i64));
    let mut next = 0;
    for col in 0..width {
        let Some(p) = (next..rows.len()).find(|&r| rows[r][col] != 0) else {
            continue;
        };
        rows.swap(next, p);
        let (pivot_rows, rest) = rows.split_at_mut(next + 1);
        let pivot = &pivot_rows[next];
        let pv = pivot[col];
        for row in rest.iter_mut() {
            let q = row[col];
            if q != 0 {
                for (x, &y) in row.iter_mut().zip(pivot) {
                    *x = x.checked_mul(pv)?.checked_sub(q.checked_mul(y)?)?;
                }
                normalize(row);
            }
        }
        if let Some((t, r, s)) = target.as_mut() {
            let q = t[col];
            if q != 0 {
                let (scale, sign) = (pv.checked_abs()?, pv.signum());
                for (x, &y) in t.iter_mut().zip(&pivot[..width]) {
                    *x = x
                        .checked_mul(scale)?
                        .checked_sub(sign.checked_mul(q)?.checked_mul(y)?)?;
                }
                *r = r
                    .checked_mul(scale)?
                    .checked_add(sign.checked_mul(q)?.checked_mul(pivot[width])?)?;
                *s = s.checked_mul(scale)?;
                let g = t.iter().chain([&*r, &*s]).fold(0, |g, &x| gcd(g, x));
                if g > 1 {
                    t.iter_mut().for_each(|x| *x /= g);
                    *r /= g;
                    *s /= g;
                }
            }
        }
        next += 1;
    }
    // A row left without coefficients but with a constant: no solution.
    if rows[next..].iter().any(|row| row[width] != 0) {
        return Some(true);
    }
    Some(matches!(target, Some((t, r, s)) if t.iter().all(|&x| x == 0) && r < s))
}

/// Divides a row by the gcd of its entries.
fn normalize(row: &mut [i64]) {
    let g = row.iter().fold(0, |g, &x| gcd(g, x));
    if g > 1 {
        row.iter_mut().for_each(|x| *x /= g);
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    // Only a row holding i64::MIN alone has a gcd past i64: left as is.
    i64::try_from(lf_ir::affine::gcd(a.unsigned_abs(), b.unsigned_abs())).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(dims: &[i64], constant: i64) -> Option<SubscriptForm> {
        Some(SubscriptForm {
            dims: dims.to_vec(),
            symbols: Vec::new(),
            constant,
        })
    }

    fn side(forms: &[Option<SubscriptForm>]) -> Side<'_> {
        let dims = forms.iter().flatten().map(|f| f.dims.len()).next().unwrap_or(0);
        Side {
            forms,
            symbols: &[],
            dims,
        }
    }

    fn indep(s: &[Option<SubscriptForm>], d: &[Option<SubscriptForm>], equal: usize, adv: Option<usize>) -> bool {
        independent(&side(s), &side(d), equal, adv)
    }

    #[test]
    fn strong_siv_at_the_advancing_loop() {
        // a[i][j] written, a[i][j + c] read, at depth 2 (loop j advancing).
        let store = [form(&[1, 0], 0), form(&[0, 1], 0)];
        for (c, dependent) in [(0, false), (1, false), (-1, true), (-3, true), (5, false)] {
            let load = [form(&[1, 0], 0), form(&[0, 1], c)];
            // store -> load: j_s = j_l + c, so j_l - j_s = -c must be >= 1.
            assert_eq!(!indep(&store, &load, 1, Some(1)), dependent, "c = {c}");
        }
    }

    #[test]
    fn scaled_and_negative_coefficients() {
        // 2*i + 1 vs 2*i: dst - src = 1/2 is not >= 1.
        let d = [form(&[2], 0)];
        assert!(indep(&[form(&[2], 1)], &d, 0, Some(0)));
        // 2*i + 2 vs 2*i: dst - src = 1, a dependence.
        assert!(!indep(&[form(&[2], 2)], &d, 0, Some(0)));
        // -i vs -i' + 1: i' = i + 1, a dependence; the other way round,
        // i' = i - 1: none.
        let (s, d) = ([form(&[-1], 0)], [form(&[-1], 1)]);
        assert!(!indep(&s, &d, 0, Some(0)));
        assert!(indep(&d, &s, 0, Some(0)));
    }

    #[test]
    fn subscripts_together() {
        // a[2i - j][j + 2] at depth 1: the second subscript fixes j, the
        // first then fixes i. Neither alone does.
        let s = [form(&[2, -1], 0), form(&[0, 1], 2)];
        assert!(indep(&s, &s, 0, Some(0)));
        assert!(!indep(&s[..1], &s[..1], 0, Some(0)));
        // a[i + j] at depth 1: loop j is free, nothing can be said.
        let s = [form(&[1, 1], 0)];
        assert!(!indep(&s, &s, 0, Some(0)));
        // a[i][2i] vs a[i'][2i' + 1]: no solution at all.
        let s = [form(&[1], 0), form(&[2], 0)];
        let d = [form(&[1], 0), form(&[2], 1)];
        assert!(indep(&s, &d, 0, Some(0)));
    }

    #[test]
    fn locals_and_other_coefficients_decline() {
        // Different coefficients on the advancing loop: i = 2i' has
        // solutions with i' > i.
        assert!(!indep(&[form(&[1, 0], 0)], &[form(&[2, 0], 0)], 0, Some(0)));
        // A subscript with a local has no form.
        assert!(!indep(&[None], &[None], 0, Some(0)));
    }

    #[test]
    fn ziv_without_an_advancing_loop() {
        let s = [form(&[1, 0], 0), form(&[0, 0], 3)];
        let d = [form(&[1, 0], 0), form(&[0, 0], 4)];
        assert!(indep(&s, &d, 1, None));
        assert!(!indep(&s, &s, 1, None));
    }

    #[test]
    fn symbols_match_by_value() {
        let v = Value::from_index(7);
        let w = Value::from_index(8);
        let with = |sym: i64, c: i64| {
            Some(SubscriptForm {
                dims: vec![1],
                symbols: vec![sym],
                constant: c,
            })
        };
        let (s, d) = ([with(1, 0)], [with(1, 0)]);
        let side_of = |f, ids| Side {
            forms: f,
            symbols: ids,
            dims: 1,
        };
        let vs = [Some(v)];
        let ws = [Some(w)];
        let none = [None];
        // a[i + n] and a[i + n]: i fixed.
        assert!(independent(&side_of(&s, &vs), &side_of(&d, &vs), 0, Some(0)));
        // a[i + n] and a[i + m]: i - i' = m - n, free.
        assert!(!independent(&side_of(&s, &vs), &side_of(&d, &ws), 0, Some(0)));
        // Symbols without a value match nothing, not even each other.
        assert!(!independent(&side_of(&s, &none), &side_of(&d, &none), 0, Some(0)));
    }

    /// A small deterministic generator (no dependency for one test).
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }

        fn int(&mut self, lo: i64, hi: i64) -> i64 {
            lo + self.below((hi - lo + 1) as u64) as i64
        }
    }

    /// A random access relation: `dims` loop variables in `[0, 9]`, one
    /// equality per subscript (small coefficients, sometimes zero), symbols
    /// drawn from a pool of three values (so two sides share some).
    fn random_relation(rng: &mut Lcg, dims: usize, subs: usize) -> AccessRelation {
        use lf_presburger::IntegerRelation;
        let nsym = rng.below(3) as usize;
        let symbols: Vec<Option<Value>> = (0..nsym)
            .map(|k| match rng.below(4) {
                0 => None,
                _ => Some(Value::from_index(k + rng.below(2) as usize)),
            })
            .collect();
        // One relation never names a value twice (as the analysis builds them).
        let mut seen = Vec::new();
        let symbols: Vec<Option<Value>> = symbols
            .into_iter()
            .map(|v| match v {
                Some(v) if seen.contains(&v) => None,
                Some(v) => {
                    seen.push(v);
                    Some(v)
                }
                None => None,
            })
            .collect();
        let cols = dims + subs + nsym + 1;
        let mut rel = IntegerRelation::new_relation(dims, subs, nsym);
        for k in 0..subs {
            let mut row = vec![0; cols];
            for c in row.iter_mut().take(dims) {
                *c = if rng.below(3) == 0 { 0 } else { rng.int(-2, 2) };
            }
            for c in &mut row[dims + subs..dims + subs + nsym] {
                *c = if rng.below(2) == 0 { 0 } else { rng.int(-2, 2) };
            }
            row[cols - 1] = rng.int(-3, 3);
            row[dims + k] = -1;
            rel.add_equality(&row);
        }
        for d in 0..dims {
            let mut lo = vec![0; cols];
            lo[d] = 1;
            rel.add_inequality(&lo);
            let mut hi = vec![0; cols];
            hi[d] = -1;
            hi[cols - 1] = 9;
            rel.add_inequality(&hi);
        }
        AccessRelation::new(rel, symbols)
    }

    #[test]
    fn agrees_with_the_full_check_on_random_pairs() {
        use super::super::dependence::{dependence_polyhedron, ordering};
        let mut rng = Lcg(0x5eed_0001);
        let (mut claimed, mut empty_either_way) = (0, 0);
        for _ in 0..6000 {
            let subs = 1 + rng.below(3) as usize;
            let (sd, dd) = (1 + rng.below(3) as usize, 1 + rng.below(3) as usize);
            let (src, dst) = (random_relation(&mut rng, sd, subs), random_relation(&mut rng, dd, subs));
            let common = rng.below(sd.min(dd) as u64 + 1) as usize;
            let depth = 1 + rng.below(common as u64 + 1) as usize;
            let (equal, advancing) = ordering(common, depth);
            let says = independent(&src.subscript_side(), &dst.subscript_side(), equal, advancing);
            let poly = dependence_polyhedron(&src, &dst, sd, common, depth).expect("a small system");
            let (fm, exact) = (poly.is_empty_fm().expect("fm"), poly.is_empty().expect("exact"));
            if says {
                claimed += 1;
                assert!(
                    fm && exact,
                    "claimed independent, the full check disagrees: {src:?} {dst:?} depth {depth} common {common}"
                );
            } else if fm && exact {
                empty_either_way += 1;
            }
        }
        // The test decides a fair share, and leaves some empty systems to the full check.
        assert!(claimed > 400, "only {claimed} pairs decided");
        assert!(empty_either_way > 0);
    }
}
