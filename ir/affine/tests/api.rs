//! Unit tests of the public API: construction, queries, simplification,
//! composition, evaluation, SSA-id parsing, errors and robustness.

use std::collections::HashSet;
use std::fmt::Write;

use lf_affine::*;

fn d(i: u32) -> AffineExpr {
    AffineExpr::dim(i)
}
fn s(i: u32) -> AffineExpr {
    AffineExpr::symbol(i)
}
fn c(v: i64) -> AffineExpr {
    AffineExpr::constant(v)
}
fn map(text: &str) -> AffineMap {
    parse_affine_map(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}
fn set(text: &str) -> IntegerSet {
    parse_integer_set(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

// ---------------------------------------------------------------- construction

#[test]
fn constant_folding() {
    assert_eq!(c(2) + c(3), c(5));
    assert_eq!(c(2) * c(-3), c(-6));
    assert_eq!(c(7).floor_div(&c(-2)), c(-4));
    assert_eq!(c(-7).ceil_div(&c(2)), c(-3));
    assert_eq!(c(-7) % c(3), c(2));
    // Not folded: MLIR keeps these as written.
    assert_eq!((c(7) % c(-3)).to_string(), "7 mod -3");
    assert_eq!(c(5).floor_div(&c(0)).to_string(), "5 floordiv 0");
    assert_eq!((c(i64::MAX) + c(1)).to_string(), "9223372036854775807 + 1");
    assert_eq!((c(i64::MAX) * c(2)).to_string(), "9223372036854775807 * 2");
    assert_eq!(
        c(i64::MIN).floor_div(&c(-1)).to_string(),
        "-9223372036854775808 floordiv -1"
    );
}

#[test]
fn identities_and_canonical_order() {
    assert_eq!(&d(0) + 0, d(0));
    assert_eq!(&d(0) * 1, d(0));
    assert_eq!(d(0).mul_const(0), c(0));
    assert_eq!(c(0) + d(0), d(0));
    assert_eq!((c(4) + d(0)).to_string(), "d0 + 4");
    assert_eq!((s(0) + d(0)).to_string(), "d0 + s0");
    assert_eq!((s(0) * d(0)).to_string(), "d0 * s0");
    assert_eq!((c(2) * s(0)).to_string(), "s0 * 2");
    assert_eq!((d(1) + d(0)).to_string(), "d0 + d1");
    assert_eq!((s(1) * s(0)).to_string(), "s0 * s1");
    assert_eq!(d(0).floor_div_const(1), d(0));
    assert_eq!(d(0).ceil_div_const(1), d(0));
    assert_eq!(d(0).modulo_const(1), c(0));
}

#[test]
fn chained_constants_and_like_terms() {
    assert_eq!((d(0) + 2 + 3).to_string(), "d0 + 5");
    assert_eq!((d(0) * 2 * 3).to_string(), "d0 * 6");
    assert_eq!(((d(0) + 2) + d(1)).to_string(), "d0 + d1 + 2");
    assert_eq!(((d(0) * 2) * s(0)).to_string(), "(d0 * s0) * 2");
    assert_eq!((&d(0) + &d(0) * 2).to_string(), "d0 * 3");
    assert_eq!((&d(0) * 2 - &d(0) * 2), c(0));
    assert_eq!((d(0) - d(0)), c(0));
    // The chained folds wrap, as in MLIR.
    assert_eq!(((&d(0) * i64::MAX) * 2).to_string(), "d0 * -2");
}

#[test]
fn subtraction_and_negation() {
    assert_eq!((d(0) - d(1)).to_string(), "d0 - d1");
    assert_eq!((-d(0)).to_string(), "-d0");
    assert_eq!(-(-d(0)), d(0));
    assert_eq!((d(0) - 1).to_string(), "d0 - 1");
    assert_eq!((d(0) - (d(1) + 2)).to_string(), "d0 - (d1 + 2)");
    assert_eq!((d(0) - &d(1) * 3).to_string(), "d0 - d1 * 3");
    assert_eq!((-(d(0) + d(1))).to_string(), "-(d0 + d1)");
    // s0 - d0 - 2: the symbol moves right of the dimension.
    assert_eq!((s(0) - d(0) - 2).to_string(), "-d0 + s0 - 2");
}

#[test]
fn division_rules() {
    assert_eq!((&d(0) * 4).floor_div_const(2).to_string(), "d0 * 2");
    assert_eq!((&d(0) * 4).floor_div_const(-2).to_string(), "d0 * -2");
    assert_eq!((&d(0) * 4).ceil_div_const(2).to_string(), "d0 * 2");
    assert_eq!((&d(0) * 3).ceil_div_const(2).to_string(), "(d0 * 3) ceildiv 2");
    assert_eq!(
        (&d(0) * 4 + d(1)).floor_div_const(2).to_string(),
        "d0 * 2 + d1 floordiv 2"
    );
    assert_eq!(
        (&d(0) * 4 + d(1)).ceil_div_const(2).to_string(),
        "(d0 * 4 + d1) ceildiv 2"
    );
    assert_eq!((&d(0) * 4 + d(1)).modulo_const(2).to_string(), "d1 mod 2");
    assert_eq!((&d(0) * 4).modulo_const(2), c(0));
    assert_eq!(d(0).modulo_const(4).modulo_const(2).to_string(), "d0 mod 2");
    assert_eq!(d(0).modulo_const(2).modulo_const(4).to_string(), "(d0 mod 2) mod 4");
    assert_eq!((&d(0) * 4).modulo_const(-2).to_string(), "(d0 * 4) mod -2");
    // x - (x floordiv c) * c is x mod c.
    assert_eq!((d(0) - &d(0).floor_div_const(4) * 4).to_string(), "d0 mod 4");
    assert_eq!((d(0) - d(0).floor_div(&s(0)) * s(0)).to_string(), "d0 mod s0");
    assert_eq!(
        (d(0) + &d(0).floor_div_const(-4) * 4).to_string(),
        "d0 + (d0 floordiv -4) * 4"
    );
    // ... also at the end of a longer sum (MLIR 22).
    let e = d(0) + d(2) - &d(2).floor_div_const(4) * 4;
    assert_eq!(e.to_string(), "d0 + d2 mod 4");
}

#[test]
fn largest_known_divisor() {
    assert_eq!(d(0).get_largest_known_divisor(), 1);
    assert_eq!(c(-12).get_largest_known_divisor(), 12);
    assert_eq!(c(0).get_largest_known_divisor(), 0);
    assert_eq!((&d(0) * 6).get_largest_known_divisor(), 6);
    assert_eq!((&d(0) * 6 + &d(1) * 4).get_largest_known_divisor(), 2);
    let m = (&d(0) * 4).modulo_const(8);
    assert_eq!(m.get_largest_known_divisor(), 4);
    assert_eq!(m.floor_div_const(2).get_largest_known_divisor(), 2);
    assert_eq!(m.floor_div_const(-2).get_largest_known_divisor(), 2);
    assert!((&d(0) * 6).is_multiple_of(3));
    assert!(!(&d(0) * 6).is_multiple_of(4));
    assert!(d(0).is_multiple_of(-1));
}

#[test]
fn kinds_and_queries() {
    let e = (&d(0) * 2 + s(1)).floor_div_const(3);
    assert_eq!(e.kind(), AffineExprKind::FloorDiv);
    let (op, l, r) = e.as_binary().unwrap();
    assert_eq!(op, BinaryOp::FloorDiv);
    assert_eq!(r.as_constant(), Some(3));
    assert_eq!(l.kind(), AffineExprKind::Add);
    assert!(matches!(e.view(), ExprView::Binary(BinaryOp::FloorDiv, _, _)));
    assert!(e.is_pure_affine());
    assert!(!e.is_symbolic_or_constant());
    assert!((s(0) * s(1)).is_symbolic_or_constant());
    assert!(!(s(0) * s(1)).is_pure_affine());
    assert!(!d(0).floor_div(&s(0)).is_pure_affine());
    assert!(e.is_function_of_dim(0) && !e.is_function_of_dim(1));
    assert!(e.is_function_of_symbol(1) && !e.is_function_of_symbol(0));
    assert_eq!(e.num_dims_used(), 1);
    assert_eq!(e.num_symbols_used(), 2);
    assert_eq!(d(3).as_dim(), Some(3));
    assert_eq!(s(2).as_symbol(), Some(2));
    assert!(c(1).lhs().is_none());
    let mut kinds = Vec::new();
    e.walk(&mut |n| kinds.push(n.kind()));
    use AffineExprKind::*;
    assert_eq!(kinds, vec![DimId, Constant, Mul, SymbolId, Add, Constant, FloorDiv]);
}

#[test]
fn equality_and_hashing_are_structural() {
    let a = (&d(0) * 2 + s(0)).floor_div_const(3);
    // Built on another thread, the equal expression has nodes of its own.
    let b = std::thread::spawn(|| {
        parse_affine_map("(d0)[s0] -> ((d0 * 2 + s0) floordiv 3)")
            .unwrap()
            .results()[0]
            .clone()
    })
    .join()
    .unwrap();
    assert_eq!(a, b);
    assert!(!a.ptr_eq(&b));
    let mut h = HashSet::new();
    h.insert(a.clone());
    assert!(h.contains(&b));
    assert_ne!(a, (&d(0) * 2 + s(0)).floor_div_const(4));
    let m1 = map("(d0, d1) -> (d0 + d1)");
    let m2 = map("(i, j) -> (j + i)");
    assert_eq!(m1, m2);
    let mut maps = HashSet::new();
    maps.insert(m1);
    assert!(maps.contains(&m2));
    assert!(!maps.contains(&map("(d0, d1)[s0] -> (d0 + d1)")));
    fn send_sync<T: Send + Sync + Clone + Eq + std::hash::Hash + std::fmt::Debug>() {}
    send_sync::<AffineExpr>();
    send_sync::<AffineMap>();
    send_sync::<IntegerSet>();
}

// --------------------------------------------------------------- evaluation

#[test]
fn evaluation() {
    let m = map("(d0, d1)[s0] -> (d0 + d1 * 2 - s0, d0 floordiv 4, d0 ceildiv 4, d0 mod 4, d1 mod s0)");
    assert_eq!(m.evaluate(&[-7, 3], &[5]), Some(vec![-6, -2, -1, 1, 3]));
    assert_eq!(m.evaluate(&[7, 3], &[0]), None); // d1 mod 0
    assert_eq!(m.evaluate(&[7], &[1]), None); // too few dims
    let e = d(0).floor_div(&s(0));
    assert_eq!(e.evaluate(&[7], &[-2]), Some(-4));
    assert_eq!(d(0).modulo(&s(0)).evaluate(&[7], &[-3]), Some(-2));
    assert_eq!(d(0).ceil_div(&s(0)).evaluate(&[7], &[-2]), Some(-3));
    assert_eq!((&d(0) * 2).evaluate(&[i64::MAX], &[]), None);
    assert_eq!((&d(0) + 1).evaluate(&[i64::MAX], &[]), None);
    assert_eq!(d(0).floor_div_const(-1).evaluate(&[i64::MIN], &[]), None);
    assert_eq!(d(5).evaluate(&[1], &[]), None);
    let st = set("(d0)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0, d0 mod 2 == 0)");
    assert_eq!(st.contains(&[4], &[10]), Some(true));
    assert_eq!(st.contains(&[5], &[10]), Some(false));
    assert_eq!(st.contains(&[10], &[10]), Some(false));
    assert_eq!(st.contains(&[-2], &[10]), Some(false));
    assert_eq!(set("(d0) : (d0 mod 0 == 0)").contains(&[1], &[]), None);
    assert_eq!(IntegerSet::empty_set(1, 0).contains(&[0], &[]), Some(false));
}

// ----------------------------------------------------------- simplification

#[test]
fn simplification() {
    let cases = [
        (
            "(d0, d1) -> ((d0 * 4 + d1 * 2) floordiv 2)",
            "(d0, d1) -> (d0 * 2 + d1)",
        ),
        ("(d0) -> (d0 - (d0 floordiv 8) * 8)", "(d0) -> (d0 mod 8)"),
        ("(d0) -> ((d0 floordiv 4) * 4 + d0 mod 4)", "(d0) -> (d0)"),
        (
            "(d0, d1, d2) -> (d2 * 3 + d0 - d1 + d2 - d0 * 2 + 7 - 3)",
            "(d0, d1, d2) -> (-d0 - d1 + d2 * 4 + 4)",
        ),
        ("(d0) -> ((d0 * 6) floordiv 4)", "(d0) -> ((d0 * 3) floordiv 2)"),
        (
            "(d0) -> ((d0 floordiv 2) floordiv 3)",
            "(d0) -> ((d0 floordiv 2) floordiv 3)",
        ),
        (
            "(d0)[s0] -> ((d0 * s0) floordiv s0, (d0 * s0) mod s0)",
            "(d0)[s0] -> (d0, 0)",
        ),
        ("(d0) -> (d0 floordiv 0)", "(d0) -> (d0 floordiv 0)"),
    ];
    for (input, expected) in cases {
        assert_eq!(map(input).simplify().to_string(), expected, "{input}");
    }
    // Out-of-range positions leave the expression alone.
    let e = &d(3) * 2 + &d(3) * 2;
    assert_eq!(simplify_affine_expr(&e, 1, 0), e);
    assert_eq!(e.simplify(4, 0).to_string(), "d3 * 4");
    // Integer sets: per-constraint simplification.
    let st = set("(d0) : ((d0 * 4) floordiv 2 - d0 >= 0)").simplify_constraint_exprs();
    assert_eq!(st.to_string(), "(d0) : (d0 >= 0)");
}

// ------------------------------------------------------------- composition

#[test]
fn composition() {
    let f = map("(d0, d1)[s0] -> (d0 + d1 + s0, d0 * 2)");
    let g = map("(d0)[s0] -> (d0 * 2, s0)");
    assert_eq!(f.compose(&g).to_string(), "(d0)[s0, s1] -> (d0 * 2 + s1 + s0, d0 * 4)");
    let id = AffineMap::get_multi_dim_identity(2);
    assert_eq!(f.compose(&id), f);
    let perm = AffineMap::get_permutation_map(&[1, 0]);
    assert_eq!(f.compose(&perm).to_string(), "(d0, d1)[s0] -> (d0 + d1 + s0, d1 * 2)");
    let k = AffineMap::get_multi_constant_map(&[3, 4]);
    assert_eq!(f.compose(&k).to_string(), "()[s0] -> (s0 + 7, 6)");
    assert_eq!(d(0).compose(&g), &d(0) * 2);
}

#[test]
fn substitution_and_shifts() {
    let e = &d(0) + &d(1) * 2 + s(0);
    assert_eq!(
        e.replace_dims_and_symbols(&[c(1), d(0)], &[c(3)]).to_string(),
        "d0 * 2 + 4"
    );
    assert_eq!(e.replace_dims(&[d(1)]).to_string(), "d1 * 3 + s0");
    assert_eq!(e.replace_symbols(&[d(0)]).to_string(), "d0 + d1 * 2 + d0");
    assert_eq!(e.replace(&(&d(1) * 2), &c(5)).to_string(), "d0 + s0 + 5");
    assert_eq!(e.shift_dims(2, 3, 1).to_string(), "d0 + d4 * 2 + s0");
    assert_eq!(e.shift_symbols(1, 2, 0).to_string(), "d0 + d1 * 2 + s2");
    let m = map("(d0, d1)[s0] -> (d0 + s0, d1)");
    assert_eq!(m.shift_dims(2, 0).to_string(), "(d0, d1, d2, d3)[s0] -> (d2 + s0, d3)");
    assert_eq!(m.shift_symbols(1, 0).to_string(), "(d0, d1)[s0, s1] -> (d0 + s1, d1)");
    let r = m.replace_dims_and_symbols(&[c(1), c(2)], &[d(0)], 1, 0);
    assert_eq!(r.to_string(), "(d0) -> (d0 + 1, 2)");
    let p = m.partial_constant_fold(&[Some(5), None], &[Some(1)]);
    assert_eq!(p.to_string(), "(d0, d1)[s0] -> (6, d1)");
}

// ----------------------------------------------------------- map & set API

#[test]
fn map_helpers() {
    let id = AffineMap::get_multi_dim_identity(3);
    assert_eq!(id.to_string(), "(d0, d1, d2) -> (d0, d1, d2)");
    assert!(id.is_identity() && id.is_permutation() && id.is_projected_permutation());
    assert!(map("(d0)[s0] -> (d0)").is_identity());
    assert!(!map("(d0, d1) -> (d1, d0)").is_identity());
    assert!(map("(d0, d1) -> (d1, d0)").is_permutation());
    assert!(map("(d0, d1, d2) -> (d2, d0)").is_projected_permutation());
    assert!(!map("(d0, d1, d2) -> (d2, d2)").is_projected_permutation());
    assert!(map("(d0, d1, d2) -> (d1, d2)").is_minor_identity());
    assert_eq!(
        AffineMap::get_minor_identity(3, 2).to_string(),
        "(d0, d1, d2) -> (d1, d2)"
    );
    let k = AffineMap::get_constant_map(42);
    assert_eq!(k.to_string(), "() -> (42)");
    assert!(k.is_constant() && k.is_single_constant());
    assert_eq!(k.single_constant_result(), Some(42));
    assert_eq!(map("(d0) -> (1, 2)").constant_results(), Some(vec![1, 2]));
    assert_eq!(map("(d0) -> (1, d0)").constant_results(), None);
    assert!(AffineMap::empty().is_empty());
    assert_eq!(AffineMap::empty().to_string(), "() -> ()");
    assert_eq!(AffineMap::get_empty_with_inputs(1, 0).to_string(), "(d0) -> ()");
    let m = map("(d0, d1, d2)[s0, s1] -> (d0 + s1, d0 * 2)");
    assert_eq!(m.used_dims(), vec![true, false, false]);
    assert_eq!(m.used_symbols(), vec![false, true]);
    assert_eq!(m.num_inputs(), 5);
    assert_eq!(m.dim_position(0), None);
    assert!(m.is_pure_affine() && !m.is_symbolic_or_constant());
    assert!(m.is_function_of_dim(0) && !m.is_function_of_dim(1) && m.is_function_of_symbol(1));
    assert_eq!(m.get_sub_map(&[1]).to_string(), "(d0, d1, d2)[s0, s1] -> (d0 * 2)");
    assert_eq!(m.drop_result(0).to_string(), "(d0, d1, d2)[s0, s1] -> (d0 * 2)");
    assert_eq!(format!("{m:?}"), "AffineMap((d0, d1, d2)[s0, s1] -> (d0 + s1, d0 * 2))");
}

#[test]
fn set_helpers() {
    let st = set("(d0, d1)[s0] : (d0 - s0 >= 0, d1 == 0, d0 + d1 >= 0)");
    assert_eq!(st.num_constraints(), 3);
    assert_eq!((st.num_equalities(), st.num_inequalities()), (1, 2));
    assert!(st.is_eq(1) && !st.is_eq(0));
    assert_eq!(st.eq_flags(), &[false, true, false]);
    assert_eq!(st.constraint(0).to_string(), "d0 - s0");
    let e = IntegerSet::empty_set(2, 1);
    assert_eq!(e.to_string(), "(d0, d1)[s0] : (1 == 0)");
    assert!(e.is_empty_integer_set());
    assert!(!st.is_empty_integer_set());
    assert_eq!(set("(d0) : ()").to_string(), "(d0) : (0 == 0)");
    let r = st.replace_dims_and_symbols(&[d(0), c(0)], &[c(2)], 1, 0);
    assert_eq!(r.to_string(), "(d0) : (d0 - 2 >= 0, 0 == 0, d0 >= 0)");
    let programmatic = IntegerSet::new(1, 0, vec![], vec![]);
    assert_eq!(programmatic.to_string(), "(d0) : ()");
}

#[test]
fn map_or_set() {
    assert!(matches!(
        parse_affine_map_or_set("(d0) -> (d0)"),
        Ok(AffineMapOrSet::Map(_))
    ));
    assert!(matches!(
        parse_affine_map_or_set("(d0) : (d0 >= 0)"),
        Ok(AffineMapOrSet::Set(_))
    ));
    let e = parse_affine_map("(d0) : (d0 >= 0)").unwrap_err();
    assert_eq!(
        (e.offset, e.message.as_str()),
        (0, "expected AffineMap, but got IntegerSet")
    );
    let e = parse_integer_set("(d0) -> (d0)").unwrap_err();
    assert_eq!(
        (e.offset, e.message.as_str()),
        (0, "expected IntegerSet, but got AffineMap")
    );
    // Whitespace and comments are fine around and inside.
    assert_eq!(
        map("  (d0)\n -> // c\n (d0 + 1) // trailing\n  ").to_string(),
        "(d0) -> (d0 + 1)"
    );
}

#[test]
fn prefix_parsing() {
    let text = "(d0)[s0] -> (d0 + s0)> {other}";
    let (m, n) = parse_affine_map_prefix(text).unwrap();
    assert_eq!(m.to_string(), "(d0)[s0] -> (d0 + s0)");
    assert_eq!(&text[n..], "> {other}");
    let text = "(d0) : (d0 >= 0)  >";
    let (st, n) = parse_integer_set_prefix(text).unwrap();
    assert_eq!(st.to_string(), "(d0) : (d0 >= 0)");
    assert_eq!(n, 16);
    let (any, n) = parse_affine_map_or_set_prefix("() -> ()>").unwrap();
    assert_eq!((any, n), (AffineMapOrSet::Map(AffineMap::empty()), 8));
}

#[test]
fn custom_names_printing() {
    let m = map("(d0, d1)[s0] -> (d0 + s0 * 2 - 1, (d1 + s0) floordiv 4, -d0)");
    let names = ["%i", "%j"];
    let mut out = String::new();
    for (k, e) in m.results().iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        print_affine_expr_with(&mut out, e, &mut |o: &mut String, pos, is_sym| {
            if is_sym {
                write!(o, "symbol(%n{pos})")
            } else {
                o.write_str(names[pos as usize])
            }
        })
        .unwrap();
    }
    assert_eq!(out, "%i + symbol(%n0) * 2 - 1, (%j + symbol(%n0)) floordiv 4, -%i");
}

// ------------------------------------------------------------------ SSA ids

#[test]
fn ssa_id_lists() {
    let (m, dims, syms, n) = parse_affine_exprs_of_ssa_ids("%i + 1, symbol(%n) * 2, %j]", ']').unwrap();
    assert_eq!(m.to_string(), "(d0, d1)[s0] -> (d0 + 1, s0 * 2, d1)");
    assert_eq!(dims, ["%i", "%j"]);
    assert_eq!(syms, ["%n"]);
    assert_eq!(n, 27);

    let (m, dims, syms, n) = parse_affine_exprs_of_ssa_ids("] : memref<4xf32>", ']').unwrap();
    assert_eq!(
        (m.to_string(), dims.len(), syms.len(), n),
        ("() -> ()".to_string(), 0, 0, 1)
    );

    // Repeated names reuse their dimension; `%0#1` is one name.
    let (m, dims, _, n) = parse_affine_exprs_of_ssa_ids(" %0#1 * 4 + %arg0, %0#1 floordiv 2 )", ')').unwrap();
    assert_eq!(m.to_string(), "(d0, d1) -> (d0 * 4 + d1, d0 floordiv 2)");
    assert_eq!(dims, ["%0#1", "%arg0"]);
    assert_eq!(n, 36);

    // A name keeps the role of its first use (as in MLIR).
    let (m, dims, syms, _) = parse_affine_exprs_of_ssa_ids("symbol(%n) + %n, %i * %n]", ']').unwrap();
    assert_eq!(m.to_string(), "(d0)[s0] -> (s0 * 2, d0 * s0)");
    assert_eq!((dims, syms), (vec!["%i".to_string()], vec!["%n".to_string()]));

    let err = |t: &str| {
        let e = parse_affine_exprs_of_ssa_ids(t, ']').unwrap_err();
        (e.offset, e.message)
    };
    assert_eq!(
        err("%i * %j]"),
        (
            3,
            "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"
                .into()
        )
    );
    assert_eq!(err("%i + 1"), (6, "expected ']' in affine map".into()));
    assert_eq!(err("%i, %j)"), (6, "expected ']' in affine map".into()));
    assert_eq!(err("d0]"), (0, "use of undeclared identifier".into()));
    assert_eq!(err("symbol(d0)]"), (7, "expected ssa identifier".into()));
    assert_eq!(err("symbol %n]"), (6, "expected '(' at start of SSA symbol".into()));
    assert_eq!(err("symbol(%n]"), (9, "expected ')' at end of SSA symbol".into()));
    assert_eq!(
        err("%i floordiv %j]"),
        (
            3,
            "non-affine expression: right operand of floordiv has to be either a constant or symbolic".into()
        )
    );
}

// ------------------------------------------------------------------- errors

#[test]
fn error_offsets() {
    let err = |t: &str| {
        let e = parse_affine_map_or_set(t).unwrap_err();
        (e.offset, e.message)
    };
    assert_eq!(err("(d0) -> (d1)"), (9, "use of undeclared identifier".into()));
    assert_eq!(err("(d0) -> (d0 1)"), (11, "expected ')' in affine map range".into()));
    assert_eq!(err("(d0) -> (d0"), (11, "expected ')' in affine map range".into()));
    assert_eq!(err("(d0) -> (d0   "), (11, "expected ')' in affine map range".into()));
    assert_eq!(err("(d0) -> (d0)\n\n  x"), (12, "expected '>' in affine map".into()));
    assert_eq!(err("(d0) -> (d0) // c\n  x"), (12, "expected '>' in affine map".into()));
    assert_eq!(
        err("(d0) -> (99999999999999999999)"),
        (9, "constant too large for index".into())
    );
    // i64::MIN, as the printer writes it, does not read back: MLIR negates
    // 9223372036854775808, which is too large (and the error is there).
    assert_eq!(
        err("(d0) -> (-9223372036854775808)"),
        (10, "constant too large for index".into())
    );
    assert_eq!(
        err("(d0) -> (d0 floordiv -9223372036854775808)"),
        (22, "constant too large for index".into())
    );
    assert_eq!(
        map("(d0) -> (-9223372036854775807)").to_string(),
        "(d0) -> (-9223372036854775807)"
    );
    assert_eq!(err("(d0) -> (d0 é)"), (11, "expected ')' in affine map range".into()));
    assert_eq!(err(""), (0, "expected '(' in dimensional identifier list".into()));
    let e = parse_affine_map("(d0) -> (d0 * d0)").unwrap_err();
    assert_eq!(e.to_string(), "at byte 12: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for open in ["(", "-", "-(", "(-"] {
        let n = 100_000;
        let text = format!("(d0) -> ({}d0{})", open.repeat(n), ")".repeat(n));
        let e = parse_affine_map(&text).unwrap_err();
        assert_eq!(e.message, "nesting too deep", "{open}");
    }
    // The limit itself is fine.
    let depth = MAX_NESTING as usize - 1;
    let text = format!("(d0) -> ({}d0{})", "(".repeat(depth), ")".repeat(depth));
    assert_eq!(map(&text).to_string(), "(d0) -> (d0)");
    // A chain of operators nests (its print parenthesises each step):
    // rejected beyond MAX_NESTING, which keeps every print readable.
    let chain = |n: usize| format!("(d0) -> (d0{})", " floordiv 2".repeat(n));
    assert_eq!(
        parse_affine_map(&chain(MAX_NESTING as usize)).unwrap_err().message,
        "nesting too deep"
    );
    let m = map(&chain(MAX_NESTING as usize - 1));
    assert_eq!(m.results()[0].nesting(), MAX_NESTING);
    assert_eq!(map(&m.to_string()), m);
}

/// A flat sum does not nest: mlir-opt reads `d0 + d1 + ... + d999`, and so
/// does lf, up to MAX_EXPR_DEPTH terms (a tree that deep).
#[test]
fn long_flat_sums_are_not_nesting() {
    let dims = |n: usize| (0..n).map(|i| format!("d{i}")).collect::<Vec<_>>().join(", ");
    let sum = |n: usize| (0..n).map(|i| format!("d{i}")).collect::<Vec<_>>().join(" + ");
    let m = map(&format!("({}) -> ({})", dims(1000), sum(1000)));
    assert_eq!(m.num_dims(), 1000);
    assert_eq!(m.results()[0].depth(), 1000);
    assert_eq!(m.results()[0].nesting(), 1);
    let vals: Vec<i64> = (0..1000).collect();
    assert_eq!(m.evaluate(&vals, &[]), Some(vec![(0..1000).sum()]));
    assert_eq!(map(&m.to_string()), m);
    // Sums of products and differences nest one level, however long.
    let terms = (0..1000)
        .map(|i| format!("d{i} * {}", i % 7 - 3))
        .collect::<Vec<_>>()
        .join(" - ");
    let m = map(&format!("({}) -> (({terms}) floordiv 3)", dims(1000)));
    assert!(m.results()[0].nesting() <= 3, "{}", m.results()[0].nesting());
    assert_eq!(map(&m.to_string()), m);
    let n = MAX_EXPR_DEPTH as usize;
    // Everything on the deepest sum works on a thread with the stack lf's
    // tools give theirs, even unoptimised.
    let text = format!("({}) -> ({})", dims(n), sum(n));
    std::thread::Builder::new()
        .stack_size(32 << 20)
        .spawn(move || {
            let m = map(&text);
            assert_eq!(m.results()[0].depth(), MAX_EXPR_DEPTH);
            let s = m.to_string();
            assert_eq!(s, text);
            assert_eq!(map(&s), m);
            let simplified = m.simplify();
            assert_eq!(simplified.results()[0].depth(), MAX_EXPR_DEPTH);
            let vals: Vec<i64> = (0..n as i64).collect();
            assert_eq!(m.evaluate(&vals, &[]), Some(vec![(0..n as i64).sum()]));
            assert_eq!(m.compose(&AffineMap::get_multi_dim_identity(n as u32)), m);
            drop((m, simplified));
            // Beyond MAX_EXPR_DEPTH terms, a sum is too deep.
            let e = parse_affine_map(&format!("({}) -> ({} + d0)", dims(n), sum(n))).unwrap_err();
            assert_eq!(e.message, "affine expression too deep");
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn huge_constants_do_not_panic() {
    let m = map(
        "(d0) -> (9223372036854775807 * 9223372036854775807 + 9223372036854775807, \
         (d0 * 9223372036854775807 + d0 * 9223372036854775807) floordiv 3, \
         (-9223372036854775807 - 1) floordiv -1 mod 9223372036854775807)",
    );
    let _ = m.simplify().to_string();
    assert_eq!(m.evaluate(&[1], &[]), None);
    let e = (&d(0) * i64::MIN).floor_div_const(-1);
    assert_eq!(e.to_string(), "(d0 * -9223372036854775808) floordiv -1");
    let _ = e.simplify(1, 0);
    let _ = (c(i64::MIN) % c(3)).to_string();
}

#[test]
fn building_an_expression_again_on_a_thread_shares_its_nodes() {
    let a = (&d(0) * 2 + s(0)).floor_div_const(3);
    let b = parse_affine_map("(d0)[s0] -> ((d0 * 2 + s0) floordiv 3)")
        .unwrap()
        .results()[0]
        .clone();
    assert!(a.ptr_eq(&b));
    // Different operands never share a node.
    let c = (&d(0) * 2 + s(1)).floor_div_const(3);
    assert!(!a.ptr_eq(&c));
    assert_ne!(a, c);
}
