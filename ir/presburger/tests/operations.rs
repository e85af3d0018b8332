//! Unit tests of each operation of lf-presburger through its public API:
//! emptiness, samples, lexicographic optima, constant bounds, projection,
//! simplification, comparison, divisions, printing and the limits.

use lf_presburger::{BoundKind, BoundType, Error, IntegerRelation, Limit, Optimum, VarKind, MAX_CONSTRAINTS, MAX_VARS};

/// `{ [x, y] : lo_x <= x <= hi_x and lo_y <= y <= hi_y }`.
fn rect(lo_x: i64, hi_x: i64, lo_y: i64, hi_y: i64) -> IntegerRelation {
    let mut s = IntegerRelation::new(2, 0);
    s.add_bound(0, BoundType::Lower, lo_x).unwrap();
    s.add_bound(0, BoundType::Upper, hi_x).unwrap();
    s.add_bound(1, BoundType::Lower, lo_y).unwrap();
    s.add_bound(1, BoundType::Upper, hi_y).unwrap();
    s
}

/// `{ [x, y] : 1 <= 10007x - 10000y <= 5 and 0 <= x <= max_x }`: a thin,
/// skewed slab whose first integer point has x = 1429 (y = 1430).
fn slab(max_x: i64) -> IntegerRelation {
    let mut s = IntegerRelation::new(2, 0);
    s.add_inequality(&[10007, -10000, -1]);
    s.add_inequality(&[-10007, 10000, 5]);
    s.add_bound(0, BoundType::Lower, 0).unwrap();
    s.add_bound(0, BoundType::Upper, max_x).unwrap();
    s
}

fn satisfies(rel: &IntegerRelation, point: &[i64]) -> bool {
    let eval = |r: &[i64]| -> i128 {
        r[..point.len()]
            .iter()
            .zip(point)
            .map(|(&a, &x)| a as i128 * x as i128)
            .sum::<i128>()
            + r[point.len()] as i128
    };
    rel.equalities().all(|r| eval(r) == 0) && rel.inequalities().all(|r| eval(r) >= 0)
}

// ------------------------------------------------------------ emptiness

#[test]
fn integer_emptiness_is_not_rational_emptiness() {
    // 2x == 1.
    let mut s = IntegerRelation::new(1, 0);
    s.add_equality(&[2, -1]);
    assert!(s.is_empty().unwrap());
    assert!(!s.is_rationally_empty().unwrap());
    // 1 <= 3x <= 2: rationally x in [1/3, 2/3].
    let mut s = IntegerRelation::new(1, 0);
    s.add_inequality(&[3, -1]);
    s.add_inequality(&[-3, 2]);
    assert!(s.is_empty().unwrap());
    assert!(!s.is_rationally_empty().unwrap());
    // x >= 2, y >= x, y <= 1: rationally empty too.
    let mut s = IntegerRelation::new(2, 0);
    s.add_inequality(&[1, 0, -2]);
    s.add_inequality(&[-1, 1, 0]);
    s.add_inequality(&[0, -1, 1]);
    assert!(s.is_rationally_empty().unwrap());
    assert!(s.is_empty().unwrap());
    // The universe and a box are not empty.
    assert!(!IntegerRelation::new(3, 1).is_empty().unwrap());
    assert!(!rect(0, 0, -5, -5).is_empty().unwrap());
}

#[test]
fn emptiness_with_equalities_and_gcds() {
    // 4x + 6y == 7: gcd 2 does not divide 7.
    let mut s = IntegerRelation::new(2, 0);
    s.add_equality(&[4, 6, -7]);
    assert!(s.is_empty().unwrap());
    // 4x + 6y == 8 and 0 <= x <= 1, 0 <= y <= 1: 4x + 6y is 0, 4, 6 or 10.
    let mut s = rect(0, 1, 0, 1);
    s.add_equality(&[4, 6, -8]);
    assert!(s.is_empty().unwrap());
    // x == 3y + 1, x == 5z + 2, 0 <= x <= 100: x = 7, 22, ... (x = 7 mod 15).
    let mut s = IntegerRelation::new(3, 0);
    s.add_equality(&[1, -3, 0, -1]);
    s.add_equality(&[1, 0, -5, -2]);
    s.add_bound(0, BoundType::Lower, 0).unwrap();
    s.add_bound(0, BoundType::Upper, 6).unwrap();
    assert!(s.is_empty().unwrap());
    s.remove_inequality(1);
    s.add_bound(0, BoundType::Upper, 7).unwrap();
    assert!(!s.is_empty().unwrap());
}

#[test]
fn thin_skewed_polytope() {
    // Branch and bound on the coordinates wanders through this slab; the
    // search with basis reduction answers at once.
    assert!(slab(1428).is_empty().unwrap());
    assert!(!slab(1428).is_rationally_empty().unwrap());
    let s = slab(20000);
    let p = s.find_integer_sample().unwrap().unwrap();
    assert!(satisfies(&s, &p), "{p:?}");
    assert_eq!(s.lexmin().unwrap(), Optimum::Bounded(vec![1429, 1430]));
}

#[test]
fn unbounded_sets_with_and_without_points() {
    // { [x, y] : 2x + 3y == 7, x >= 0 }: unbounded, integer points.
    let mut s = IntegerRelation::new(2, 0);
    s.add_equality(&[2, 3, -7]);
    s.add_bound(0, BoundType::Lower, 0).unwrap();
    let p = s.find_integer_sample().unwrap().unwrap();
    assert!(satisfies(&s, &p));
    // { [x, y] : 1 <= 2x - 2y <= 1 } unbounded, no integer point.
    let mut s = IntegerRelation::new(2, 0);
    s.add_inequality(&[2, -2, -1]);
    s.add_inequality(&[-2, 2, 1]);
    assert!(s.is_empty().unwrap());
    // { [x, y] : 3 <= 3x + 5y <= 3 + 1/2 ... } : a line x + y in a strip
    // that contains integer points far away only along the line.
    let mut s = IntegerRelation::new(3, 0);
    s.add_inequality(&[3, 5, 0, -1]);
    s.add_inequality(&[-3, -5, 0, 1]);
    s.add_inequality(&[0, 0, 1, 0]);
    let p = s.find_integer_sample().unwrap().unwrap();
    assert!(satisfies(&s, &p), "{p:?}");
}

// ------------------------------------------------------------ samples

#[test]
fn samples_satisfy_the_constraints_locals_included() {
    // { [x] : exists q : x == 3q + 2 and 10 <= x <= 12 }: x = 11, q = 3.
    let mut s = IntegerRelation::new(1, 0);
    s.append_vars(VarKind::Local, 1);
    s.add_equality(&[1, -3, -2]);
    s.add_bound(0, BoundType::Lower, 10).unwrap();
    s.add_bound(0, BoundType::Upper, 12).unwrap();
    let p = s.find_integer_sample().unwrap().unwrap();
    assert_eq!(p, vec![11, 3]);
    assert!(s.contains_point(&[11]).unwrap());
    assert!(!s.contains_point(&[10]).unwrap());
    // Empty: no sample.
    let mut e = s.clone();
    e.add_bound(0, BoundType::Upper, 10).unwrap();
    assert_eq!(e.find_integer_sample().unwrap(), None);
}

// ------------------------------------------------------------ optima

#[test]
fn lexmin_and_lexmax() {
    // { [x, y] : 0 <= x <= 10, 0 <= y <= 10, x + y >= 7, x - y <= 2 }
    let mut s = rect(0, 10, 0, 10);
    s.add_inequality(&[1, 1, -7]);
    s.add_inequality(&[-1, 1, 2]);
    assert_eq!(s.lexmin().unwrap(), Optimum::Bounded(vec![0, 7]));
    assert_eq!(s.lexmax().unwrap(), Optimum::Bounded(vec![10, 10]));
    // Unbounded below in the second variable once the first is fixed.
    let mut u = IntegerRelation::new(2, 0);
    u.add_bound(0, BoundType::Lower, 3).unwrap();
    assert_eq!(u.lexmin().unwrap(), Optimum::Unbounded);
    u.add_bound(1, BoundType::Lower, -4).unwrap();
    assert_eq!(u.lexmin().unwrap(), Optimum::Bounded(vec![3, -4]));
    assert_eq!(u.lexmax().unwrap(), Optimum::Unbounded);
    // Empty.
    let mut e = IntegerRelation::new(1, 0);
    e.add_equality(&[2, -1]);
    assert_eq!(e.lexmin().unwrap(), Optimum::Empty);
    assert_eq!(e.lexmax().unwrap(), Optimum::Empty);
}

#[test]
fn lexmin_orders_dims_then_symbols_and_ignores_locals() {
    // [n] -> { [x] : exists q : x == 4q + 1 and n <= x and 2 <= n <= 5 }:
    // lexmin over (x, n): x = 5 (n = 2..5 all allow it), then n = 2.
    let mut s = IntegerRelation::new(1, 1);
    s.append_vars(VarKind::Local, 1);
    s.add_equality(&[1, 0, -4, -1]);
    s.add_inequality(&[1, -1, 0, 0]);
    s.add_bound(1, BoundType::Lower, 2).unwrap();
    s.add_bound(1, BoundType::Upper, 5).unwrap();
    assert_eq!(s.lexmin().unwrap(), Optimum::Bounded(vec![5, 2]));
    assert_eq!(s.lexmax().unwrap(), Optimum::Unbounded);
}

#[test]
fn constant_bounds() {
    // { [x, y] : 2y == x + 1, 0 <= x <= 10 }: y in 1..=5, x odd in 1..=9.
    let mut s = IntegerRelation::new(2, 0);
    s.add_bound(0, BoundType::Lower, 0).unwrap();
    s.add_bound(0, BoundType::Upper, 10).unwrap();
    s.add_equality(&[1, -2, 1]);
    assert_eq!(s.constant_bound(0, BoundKind::Lower).unwrap(), Some(1));
    assert_eq!(s.constant_bound(0, BoundKind::Upper).unwrap(), Some(9));
    assert_eq!(s.constant_bound(1, BoundKind::Lower).unwrap(), Some(1));
    assert_eq!(s.constant_bound(1, BoundKind::Upper).unwrap(), Some(5));
    // Unbounded and empty both give None; optimize_var tells them apart.
    let mut u = IntegerRelation::new(1, 0);
    u.add_bound(0, BoundType::Lower, -3).unwrap();
    assert_eq!(u.constant_bound(0, BoundKind::Lower).unwrap(), Some(-3));
    assert_eq!(u.constant_bound(0, BoundKind::Upper).unwrap(), None);
    assert_eq!(u.optimize_var(0, true).unwrap(), Optimum::Unbounded);
    let mut e = u.clone();
    e.add_bound(0, BoundType::Upper, -4).unwrap();
    assert_eq!(e.constant_bound(0, BoundKind::Lower).unwrap(), None);
    assert_eq!(e.optimize_var(0, false).unwrap(), Optimum::Empty);
    // The bound of a thin slab's variable.
    assert_eq!(slab(20000).constant_bound(0, BoundKind::Lower).unwrap(), Some(1429));
}

// ------------------------------------------------------------ projection

#[test]
fn projection_by_exact_fourier_motzkin() {
    // { [x, y] : 0 <= x <= 10, x <= y <= x + 3 } projected on y: 0 <= y <= 13.
    let mut s = IntegerRelation::new(2, 0);
    s.add_bound(0, BoundType::Lower, 0).unwrap();
    s.add_bound(0, BoundType::Upper, 10).unwrap();
    s.add_inequality(&[-1, 1, 0]);
    s.add_inequality(&[1, -1, 3]);
    s.project_out(0, 1).unwrap();
    assert_eq!(s.num_dim_vars(), 1);
    assert_eq!(s.num_local_vars(), 0);
    let mut expected = IntegerRelation::new(1, 0);
    expected.add_bound(0, BoundType::Lower, 0).unwrap();
    expected.add_bound(0, BoundType::Upper, 13).unwrap();
    assert!(s.is_equal(&expected).unwrap());
}

#[test]
fn projection_by_substitution_and_existentials() {
    // { [x, y, z] : y == 2x, z == x + y, 0 <= x <= 5 } projected on (y, z):
    // y even in 0..=10 and z == 3y/2. Substituting x = z - y leaves no local.
    let mut s = IntegerRelation::new(3, 0);
    s.add_equality(&[2, -1, 0, 0]);
    s.add_equality(&[1, 1, -1, 0]);
    s.add_bound(0, BoundType::Lower, 0).unwrap();
    s.add_bound(0, BoundType::Upper, 5).unwrap();
    s.project_out(0, 1).unwrap();
    assert_eq!((s.num_dim_vars(), s.num_local_vars()), (2, 0));
    assert!(s.contains_point(&[4, 6]).unwrap());
    assert!(!s.contains_point(&[4, 5]).unwrap());
    assert!(!s.contains_point(&[12, 18]).unwrap());
    // { [x, y] : y == 2x, 0 <= x <= 5 } projected on y: the evenness needs
    // an existential (a division), not a convex set without locals.
    let mut s = IntegerRelation::new(2, 0);
    s.add_equality(&[2, -1, 0]);
    s.add_bound(0, BoundType::Lower, 0).unwrap();
    s.add_bound(0, BoundType::Upper, 5).unwrap();
    s.project_out(0, 1).unwrap();
    assert_eq!(s.num_dim_vars(), 1);
    for y in -2..13 {
        let member = (0..=10).contains(&y) && y % 2 == 0;
        assert_eq!(s.contains_point(&[y]).unwrap(), member, "y = {y}: {s}");
    }
}

#[test]
fn projection_keeps_the_other_kinds() {
    // [n] -> { [x, y] : 0 <= x <= n, y == x + 1 } projected on y:
    // [n] -> { [y] : 1 <= y <= n + 1 }.
    let mut s = IntegerRelation::new(2, 1);
    s.add_inequality(&[1, 0, 0, 0]);
    s.add_inequality(&[-1, 0, 1, 0]);
    s.add_equality(&[1, -1, 0, 1]);
    s.project_out(0, 1).unwrap();
    assert_eq!(
        (s.num_dim_vars(), s.num_symbol_vars(), s.num_local_vars()),
        (1, 1, 0),
        "{s}"
    );
    let mut expected = IntegerRelation::new(1, 1);
    expected.add_inequality(&[1, 0, -1]);
    expected.add_inequality(&[-1, 1, 1]);
    assert!(s.is_equal(&expected).unwrap(), "{s}");
    // { [i] -> [o, p] : o == i + 2, p == 2o, 0 <= i <= 3 } projected on
    // (i, p): the domain stays a domain.
    let mut r = IntegerRelation::new_relation(1, 2, 0);
    r.add_equality(&[1, -1, 0, 2]);
    r.add_equality(&[0, 2, -1, 0]);
    r.add_bound(0, BoundType::Lower, 0).unwrap();
    r.add_bound(0, BoundType::Upper, 3).unwrap();
    r.project_out(1, 2).unwrap();
    assert_eq!(
        (r.num_domain_vars(), r.num_range_vars(), r.num_local_vars()),
        (1, 1, 0),
        "{r}"
    );
    assert!(r.contains_point(&[3, 10]).unwrap());
    assert!(!r.contains_point(&[3, 9]).unwrap());
    // Symbols and dimensions at once, a division local kept.
    let mut t = IntegerRelation::new(2, 2);
    t.add_local_floordiv(&[1, 1, 0, 0, 0], 2).unwrap();
    t.add_inequality(&[1, 0, -1, 0, 0, 0]);
    t.project_out(1, 3).unwrap();
    assert_eq!((t.num_dim_vars(), t.num_symbol_vars()), (1, 1), "{t}");
    assert!(!t.is_empty().unwrap());
}

#[test]
fn projection_of_symbols_keeps_divisions() {
    // [n] -> { [x] : q = floor(x / 3), x == 3q, 0 <= x <= n, n <= 7 }:
    // projecting n out gives the multiples of 3 in 0..=7.
    let mut s = IntegerRelation::new(1, 1);
    let q = s.add_local_floordiv(&[1, 0, 0], 3).unwrap();
    let mut row = vec![0; s.num_cols()];
    row[0] = 1;
    row[q] = -3;
    s.add_equality(&row);
    s.add_inequality(&[1, 0, 0, 0]);
    s.add_inequality(&[-1, 1, 0, 0]);
    s.add_inequality(&[0, -1, 0, 7]);
    s.project_out(1, 2).unwrap();
    assert_eq!(s.num_symbol_vars(), 0);
    for x in -3..10 {
        assert_eq!(
            s.contains_point(&[x]).unwrap(),
            (0..=7).contains(&x) && x % 3 == 0,
            "x = {x}: {s}"
        );
    }
}

// ------------------------------------------------------------ divisions

#[test]
fn floordiv_ceildiv_and_mod() {
    // { [x] : 0 <= x <= 20, x floordiv 4 == 3 }: x in 12..=15.
    let base = || {
        let mut s = IntegerRelation::new(1, 0);
        s.add_bound(0, BoundType::Lower, 0).unwrap();
        s.add_bound(0, BoundType::Upper, 20).unwrap();
        s
    };
    let mut s = base();
    let q = s.add_local_floordiv(&[1, 0], 4).unwrap();
    s.add_bound(q, BoundType::Eq, 3).unwrap();
    assert_eq!(s.lexmin().unwrap(), Optimum::Bounded(vec![12]));
    assert_eq!(s.lexmax().unwrap(), Optimum::Bounded(vec![15]));
    assert_eq!(s.division(0).unwrap().divisor, 4);
    // (x - 1) ceildiv 4 == 3: x - 1 in 9..=12, x in 10..=13.
    let mut s = base();
    let q = s.add_local_ceildiv(&[1, -1], 4).unwrap();
    s.add_bound(q, BoundType::Eq, 3).unwrap();
    assert_eq!(s.lexmin().unwrap(), Optimum::Bounded(vec![10]));
    assert_eq!(s.lexmax().unwrap(), Optimum::Bounded(vec![13]));
    // (x + 1) mod 4 == 3: x in {2, 6, 10, 14, 18}.
    let mut s = base();
    let mut m = s.add_local_mod(&[1, 1], 4).unwrap();
    *m.last_mut().unwrap() -= 3;
    s.add_equality(&m);
    assert_eq!(s.lexmin().unwrap(), Optimum::Bounded(vec![2]));
    assert_eq!(s.lexmax().unwrap(), Optimum::Bounded(vec![18]));
    for x in 0..=20 {
        assert_eq!(s.contains_point(&[x]).unwrap(), (x + 1) % 4 == 3);
    }
    // Negative dividends round toward minus infinity: floor(-5 / 4) == -2.
    let mut s = IntegerRelation::new(1, 0);
    s.add_bound(0, BoundType::Eq, -5).unwrap();
    let q = s.add_local_floordiv(&[1, 0], 4).unwrap();
    assert_eq!(s.find_integer_sample().unwrap().unwrap()[q], -2);
}

// ------------------------------------------------------------ simplify, compare

#[test]
fn simplify_removes_redundancy_and_finds_divisions() {
    let mut s = rect(0, 10, 0, 10);
    s.add_inequality(&[1, 0, 5]); // x >= -5: redundant
    s.add_inequality(&[-1, 0, 10]); // duplicate of x <= 10
    s.add_inequality(&[1, 1, 0]); // x + y >= 0: redundant
    let before = s.clone();
    s.simplify().unwrap();
    assert_eq!(s.num_inequalities(), 4, "{s}");
    assert!(s.is_equal(&before).unwrap());
    // An empty system becomes 1 == 0.
    let mut e = IntegerRelation::new(1, 0);
    e.add_equality(&[2, -1]);
    e.simplify().unwrap();
    assert_eq!((e.num_equalities(), e.num_inequalities()), (1, 0));
    assert_eq!(e.equality(0), &[0, 1]);
    // A local defined by its two inequalities gets its division back.
    let mut d = IntegerRelation::new(1, 0);
    d.append_vars(VarKind::Local, 1);
    d.add_inequality(&[1, -3, 0]); // x - 3q >= 0
    d.add_inequality(&[-1, 3, 2]); // -x + 3q + 2 >= 0
    d.recover_divisions();
    let div = d.division(0).unwrap();
    assert_eq!((div.dividend.as_slice(), div.divisor), (&[1, 0, 0][..], 3));
}

#[test]
fn subset_and_equality() {
    let small = rect(1, 3, 1, 3);
    let big = rect(0, 5, 0, 5);
    assert!(small.is_subset_of(&big).unwrap());
    assert!(!big.is_subset_of(&small).unwrap());
    assert!(!small.is_equal(&big).unwrap());
    // The even numbers in 0..=10, written twice differently.
    let mut a = IntegerRelation::new(1, 0);
    let q = a.add_local_floordiv(&[1, 0], 2).unwrap();
    let mut row = vec![0; a.num_cols()];
    row[0] = 1;
    row[q] = -2;
    a.add_equality(&row);
    a.add_bound(0, BoundType::Lower, 0).unwrap();
    a.add_bound(0, BoundType::Upper, 10).unwrap();
    let mut b = IntegerRelation::new(1, 0);
    let m = b.add_local_mod(&[1, 0], 2).unwrap();
    b.add_equality(&m);
    b.add_bound(0, BoundType::Lower, -1).unwrap();
    b.add_bound(0, BoundType::Upper, 11).unwrap();
    assert!(a.is_equal(&b).unwrap());
    // The odd numbers in 0..=10 are neither a subset nor a superset.
    let mut odd = IntegerRelation::new(1, 0);
    let mut m = odd.add_local_mod(&[1, 0], 2).unwrap();
    *m.last_mut().unwrap() -= 1;
    odd.add_equality(&m);
    odd.add_bound(0, BoundType::Lower, 0).unwrap();
    odd.add_bound(0, BoundType::Upper, 10).unwrap();
    assert!(!odd.is_subset_of(&a).unwrap());
    assert!(!a.is_subset_of(&odd).unwrap());
    assert!(!odd.is_empty().unwrap());
    // The empty set is a subset of everything.
    let mut e = IntegerRelation::new(1, 0);
    e.add_equality(&[2, -1]);
    assert!(e.is_subset_of(&a).unwrap());
    // A local that is not a division on the right: unsupported.
    let mut x = IntegerRelation::new(1, 0);
    x.append_vars(VarKind::Local, 1);
    x.add_inequality(&[1, -2, 0]);
    x.add_inequality(&[-1, 3, 0]);
    assert!(matches!(a.is_subset_of(&x), Err(Error::Unsupported(_))));
}

#[test]
fn intersection_and_printing() {
    let a = rect(0, 5, 0, 5);
    let mut b = IntegerRelation::new(2, 0);
    b.add_local_floordiv(&[1, 1, 0], 2).unwrap();
    let i = a.intersect(&b);
    assert_eq!(i.num_local_vars(), 1);
    assert_eq!(i.num_constraints(), 6);
    assert!(!i.is_empty().unwrap());
    assert_eq!(
        i.to_string(),
        "{ [d0, d1] : exists (e0 = floor((d0 + d1)/2) : d0 >= 0 and -d0 + 5 >= 0 and d1 >= 0 and -d1 + 5 >= 0 \
         and d0 + d1 - 2e0 >= 0 and -d0 - d1 + 2e0 + 1 >= 0) }"
    );
    let mut r = IntegerRelation::new_relation(1, 1, 1);
    r.add_equality(&[1, -1, 1, 0]);
    assert_eq!(r.to_string(), "[s0] -> { [i0] -> [o0] : i0 - o0 + s0 = 0 }");
    assert_eq!(IntegerRelation::new(0, 0).to_string(), "{ [] }");
}

// ------------------------------------------------------------ limits

#[test]
fn a_thousand_dimensions_stop_at_the_variable_limit() {
    let n = 1000;
    let mut s = IntegerRelation::new(n, 0);
    for v in 0..n {
        s.add_bound(v, BoundType::Lower, 0).unwrap();
        let mut row = vec![0; n + 1];
        row[v] = -1;
        if v + 1 < n {
            row[v + 1] = 1;
        }
        s.add_inequality(&row);
    }
    let limit = Error::LimitExceeded(Limit::Variables { found: n });
    assert_eq!(s.is_empty(), Err(limit));
    assert_eq!(s.find_integer_sample(), Err(limit));
    assert_eq!(s.lexmin(), Err(limit));
    assert_eq!(s.constant_bound(0, BoundKind::Upper), Err(limit));
    assert_eq!(s.is_rationally_empty(), Err(limit));
    let before = s.clone();
    assert_eq!(s.project_out(0, 10), Err(limit));
    assert_eq!(s, before, "a refused projection changes nothing");
    assert_eq!(s.simplify(), Err(limit));
    assert!(limit.to_string().contains(&format!("limit {MAX_VARS}")), "{limit}");
    // Just under the limit it is answered.
    let mut ok = IntegerRelation::new(MAX_VARS, 0);
    for v in 0..MAX_VARS {
        ok.add_bound(v, BoundType::Lower, v as i64).unwrap();
        ok.add_bound(v, BoundType::Upper, v as i64 + 1).unwrap();
    }
    assert_eq!(ok.lexmin().unwrap(), Optimum::Bounded((0..MAX_VARS as i64).collect()));
}

#[test]
fn too_many_constraints_stop_at_the_constraint_limit() {
    let mut s = IntegerRelation::new(2, 0);
    for k in 0..=MAX_CONSTRAINTS as i64 {
        s.add_inequality(&[1, k, k]);
    }
    assert_eq!(
        s.is_empty(),
        Err(Error::LimitExceeded(Limit::Constraints {
            found: MAX_CONSTRAINTS + 1
        }))
    );
}

#[test]
fn huge_coefficients_overflow_with_an_error_never_a_panic_or_a_wrong_answer() {
    let big = i64::MAX;
    // Each query either answers (correctly) or reports the overflow.
    let check = |s: &IntegerRelation| {
        for r in [s.is_empty().map(|_| ()), s.lexmin().map(|_| ()), s.lexmax().map(|_| ())] {
            if let Err(e) = r {
                assert_eq!(e, Error::LimitExceeded(Limit::Overflow));
            }
        }
        let mut p = s.clone();
        if let Err(e) = p.project_out(0, 1) {
            assert_eq!(e, Error::LimitExceeded(Limit::Overflow));
        }
        let mut p = s.clone();
        if let Err(e) = p.simplify() {
            assert_eq!(e, Error::LimitExceeded(Limit::Overflow));
        }
    };
    // big x - (big - 1) y >= 1, (big - 1) x - big y <= -1, ...
    let mut s = IntegerRelation::new(3, 0);
    s.add_inequality(&[big, -(big - 1), 0, -1]);
    s.add_inequality(&[-(big - 1), big, 0, -1]);
    s.add_inequality(&[big, big, big, big]);
    s.add_equality(&[big - 2, 0, big, 3]);
    check(&s);
    // The rational point x = 1/big: the sample needs exact arithmetic.
    let mut t = IntegerRelation::new(2, 0);
    t.add_inequality(&[big, -1, -1]);
    t.add_inequality(&[-big, 1, big - 1]);
    t.add_inequality(&[i64::MIN, i64::MIN, i64::MAX]);
    check(&t);
    // A result that does not fit an i64: x == 2 * 2^62 * y, y == 2^62.
    let mut u = IntegerRelation::new(2, 0);
    u.add_equality(&[1, -(1 << 62), 0]);
    u.add_bound(1, BoundType::Eq, 4).unwrap();
    assert_eq!(u.lexmin(), Err(Error::LimitExceeded(Limit::Overflow)));
    assert_eq!(u.find_integer_sample(), Err(Error::LimitExceeded(Limit::Overflow)));
    // A lower bound of i64::MIN has no row.
    let mut v = IntegerRelation::new(1, 0);
    assert_eq!(
        v.add_bound(0, BoundType::Lower, i64::MIN),
        Err(Error::LimitExceeded(Limit::Overflow))
    );
    assert_eq!(v.num_constraints(), 0);
}

#[test]
fn relations_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<IntegerRelation>();
    check::<Error>();
}

#[test]
fn remap_columns_moves_inserts_and_drops_columns() {
    // [d0] -> [r0] : r0 = 2 d0 + 1, d0 >= 0, with a zero column to drop
    // after it becomes a symbol.
    let mut r = IntegerRelation::new_relation(1, 2, 0);
    r.add_equality(&[2, -1, 0, 1]);
    r.add_inequality(&[1, 0, 0, 0]);
    // d0 -> range 1, r0 -> domain 0, r1 (all zero) dropped, a new symbol
    // column between.
    let m = r.remap_columns(1, 1, 1, 0, &[1, 0, usize::MAX, 3]);
    assert_eq!(
        (m.num_domain_vars(), m.num_range_vars(), m.num_symbol_vars()),
        (1, 1, 1)
    );
    assert_eq!(m.equalities().collect::<Vec<_>>(), vec![&[-1, 2, 0, 1][..]]);
    assert_eq!(m.inequalities().collect::<Vec<_>>(), vec![&[0, 1, 0, 0][..]]);
    let mut both = m.clone();
    both.append_constraints(&m);
    assert_eq!((both.num_equalities(), both.num_inequalities()), (2, 2));
}
