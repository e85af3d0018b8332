//! Property tests: printing round-trips through the parser, and the
//! construction-time rules, `simplify_affine_expr` and `compose` preserve
//! the value of expressions.

use lf_affine::{
    ceil_div, expr_from_linear_form, floor_div, linear_form, modulo, parse_affine_map, parse_integer_set,
    simplify_affine_expr, AffineExpr, AffineMap, BinaryOp, IntegerSet,
};
use proptest::prelude::*;

const NUM_DIMS: u32 = 3;
const NUM_SYMBOLS: u32 = 2;

/// An expression tree as written, before any simplification.
#[derive(Clone, Debug)]
enum Raw {
    Dim(u32),
    Sym(u32),
    Const(i64),
    Neg(Box<Raw>),
    Bin(BinaryOp, Box<Raw>, Box<Raw>),
}

fn raw_strategy() -> impl Strategy<Value = Raw> {
    let leaf = prop_oneof![
        3 => (0..NUM_DIMS).prop_map(Raw::Dim),
        2 => (0..NUM_SYMBOLS).prop_map(Raw::Sym),
        2 => (-9i64..=9).prop_map(Raw::Const),
        1 => prop::sample::select(vec![16i64, 32, 64, 12, -8, 100, 0, 1, -1]).prop_map(Raw::Const),
    ];
    leaf.prop_recursive(6, 48, 2, |inner| {
        let op = prop::sample::select(vec![
            BinaryOp::Add,
            BinaryOp::Add,
            BinaryOp::Mul,
            BinaryOp::Mul,
            BinaryOp::FloorDiv,
            BinaryOp::CeilDiv,
            BinaryOp::Mod,
        ]);
        prop_oneof![
            4 => (op, inner.clone(), inner.clone()).prop_map(|(op, a, b)| Raw::Bin(op, Box::new(a), Box::new(b))),
            1 => inner.prop_map(|a| Raw::Neg(Box::new(a))),
        ]
    })
}

/// Builds the expression through the simplifying constructors. Where the
/// tree is not affine (a product of two dimension-dependent operands, a
/// division by one), the right operand is replaced by a constant so that
/// the result can always be printed and parsed back.
fn build(raw: &Raw) -> AffineExpr {
    match raw {
        Raw::Dim(p) => AffineExpr::dim(*p),
        Raw::Sym(p) => AffineExpr::symbol(*p),
        Raw::Const(c) => AffineExpr::constant(*c),
        Raw::Neg(a) => -build(a),
        Raw::Bin(op, a, b) => {
            let (x, y) = (build(a), build(b));
            let y = match op {
                BinaryOp::Add => y,
                BinaryOp::Mul if x.is_symbolic_or_constant() || y.is_symbolic_or_constant() => y,
                BinaryOp::Mul => AffineExpr::constant(3),
                _ if y.is_symbolic_or_constant() => y,
                _ => AffineExpr::constant(4),
            };
            AffineExpr::binary(*op, &x, &y)
        }
    }
}

/// Evaluates the tree exactly as written (with the same repairs as
/// [`build`]), without any simplification.
fn eval_raw(raw: &Raw, dims: &[i64], syms: &[i64]) -> Option<i64> {
    fn symbolic(raw: &Raw) -> bool {
        // Mirrors `build`: whether the built operand is symbolic or constant
        // is decided on the built expression.
        build(raw).is_symbolic_or_constant()
    }
    match raw {
        Raw::Dim(p) => Some(dims[*p as usize]),
        Raw::Sym(p) => Some(syms[*p as usize]),
        Raw::Const(c) => Some(*c),
        Raw::Neg(a) => eval_raw(a, dims, syms)?.checked_mul(-1),
        Raw::Bin(op, a, b) => {
            let x = eval_raw(a, dims, syms)?;
            let y = match op {
                BinaryOp::Add => eval_raw(b, dims, syms)?,
                BinaryOp::Mul if symbolic(a) || symbolic(b) => eval_raw(b, dims, syms)?,
                BinaryOp::Mul => 3,
                _ if symbolic(b) => eval_raw(b, dims, syms)?,
                _ => 4,
            };
            match op {
                BinaryOp::Add => x.checked_add(y),
                BinaryOp::Mul => x.checked_mul(y),
                BinaryOp::FloorDiv => floor_div(x, y),
                BinaryOp::CeilDiv => ceil_div(x, y),
                BinaryOp::Mod => modulo(x, y),
            }
        }
    }
}

/// True unless printing loses structure: MLIR prints `a + (b + c)` as
/// `a + b + c`, which reads back as `(a + b) + c`, and `i64::MIN` prints as
/// `-9223372036854775808`, which does not read back at all (mlir-opt 22
/// behaves the same way).
fn prints_unambiguously(e: &AffineExpr) -> bool {
    let mut ok = true;
    e.walk(&mut |n| {
        if let Some((BinaryOp::Add, _, r)) = n.as_binary() {
            ok &= !matches!(r.as_binary(), Some((BinaryOp::Add, _, _)));
        }
        ok &= n.as_constant() != Some(i64::MIN);
    });
    ok
}

fn map_of(e: AffineExpr) -> AffineMap {
    AffineMap::new(NUM_DIMS, NUM_SYMBOLS, vec![e])
}

fn point() -> impl Strategy<Value = (Vec<i64>, Vec<i64>)> {
    (
        prop::collection::vec(-40i64..=40, NUM_DIMS as usize),
        // Symbols used as divisors are assumed positive by the semi-affine
        // simplification rules (as in MLIR).
        prop::collection::vec(1i64..=12, NUM_SYMBOLS as usize),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// print(parse(print(x))) == print(x), for maps and sets whose printed
    /// form is unambiguous (see [`prints_unambiguously`]).
    #[test]
    fn print_parse_round_trip(raw in raw_strategy(), raw2 in raw_strategy(), eq in any::<bool>()) {
        let (e, e2) = (build(&raw), build(&raw2));
        prop_assume!(prints_unambiguously(&e) && prints_unambiguously(&e2));
        let map = AffineMap::new(NUM_DIMS, NUM_SYMBOLS, vec![e.clone(), e2.clone()]);
        let printed = map.to_string();
        let reparsed = parse_affine_map(&printed).unwrap_or_else(|err| panic!("{printed}: {err}"));
        prop_assert_eq!(reparsed.to_string(), printed);

        let set = IntegerSet::new(NUM_DIMS, NUM_SYMBOLS, vec![e, e2], vec![eq, !eq]);
        let printed = set.to_string();
        let reparsed = parse_integer_set(&printed).unwrap_or_else(|err| panic!("{printed}: {err}"));
        prop_assert_eq!(reparsed.to_string(), printed);
    }

    /// For any expression, reading the printed form back gives an
    /// expression with the same values, and repeated print/parse reaches a
    /// fixed point (MLIR's printer drops the parentheses of `a + (b + c)`,
    /// so the first re-read may reassociate).
    #[test]
    fn print_parse_preserves_value_and_stabilises(raw in raw_strategy(), points in prop::collection::vec(point(), 4)) {
        let e = build(&raw);
        let mut text = map_of(e.clone()).to_string();
        let mut stable = false;
        for _ in 0..6 {
            let m = parse_affine_map(&text).unwrap_or_else(|err| panic!("{text}: {err}"));
            for (dims, syms) in &points {
                if let Some(v) = e.evaluate(dims, syms) {
                    prop_assert_eq!(m.result(0).evaluate(dims, syms), Some(v), "{} read back as {}", e, m);
                }
            }
            let next = m.to_string();
            if next == text {
                stable = true;
                break;
            }
            text = next;
        }
        prop_assert!(stable, "no fixed point for {}", e);
    }

    /// The construction-time rules do not change the value of an expression
    /// wherever the expression as written can be evaluated.
    #[test]
    fn construction_preserves_value(raw in raw_strategy(), (dims, syms) in point()) {
        if let Some(v) = eval_raw(&raw, &dims, &syms) {
            let e = build(&raw);
            prop_assert_eq!(e.evaluate(&dims, &syms), Some(v), "{}", e);
        }
    }

    /// The key property of simplification: the simplified expression has
    /// the value of the original wherever the original can be evaluated.
    #[test]
    fn simplification_preserves_value(raw in raw_strategy(), points in prop::collection::vec(point(), 8)) {
        let e = build(&raw);
        let s = simplify_affine_expr(&e, NUM_DIMS, NUM_SYMBOLS);
        for (dims, syms) in &points {
            if let Some(v) = e.evaluate(dims, syms) {
                prop_assert_eq!(s.evaluate(dims, syms), Some(v), "{} simplified to {}", e, s);
            }
        }
        // The simplified form reads back (with the same values).
        let printed = map_of(s).to_string();
        let reparsed = parse_affine_map(&printed).unwrap_or_else(|err| panic!("{printed}: {err}"));
        for (dims, syms) in &points {
            if let Some(v) = e.evaluate(dims, syms) {
                prop_assert_eq!(reparsed.result(0).evaluate(dims, syms), Some(v));
            }
        }
    }

    /// Simplifications are remembered per thread, keyed by the expression
    /// and the dimension and symbol counts: asking again, and for other
    /// counts (here some positions fall out of range), gives what a thread
    /// that never simplified anything computes.
    #[test]
    fn remembered_simplification_matches_a_fresh_one(raw in raw_strategy()) {
        let e = build(&raw);
        let counts = [(NUM_DIMS, NUM_SYMBOLS), (1, 1), (NUM_DIMS, NUM_SYMBOLS), (1, 1)];
        let here: Vec<String> = counts.iter().map(|&(d, s)| simplify_affine_expr(&e, d, s).to_string()).collect();
        let e_text = e.to_string();
        for (i, &(d, s)) in counts.iter().enumerate() {
            let e = e.clone();
            let fresh = std::thread::spawn(move || simplify_affine_expr(&e, d, s).to_string()).join().unwrap();
            prop_assert_eq!(&here[i], &fresh, "{} over ({}, {})", e_text, d, s);
        }
    }

    /// Where an expression has a linear form, rebuilding the form is what
    /// simplifying the expression gives, the rebuilt expression simplifies
    /// to itself and has the same form (what canonicalize's composition on
    /// coefficients relies on).
    #[test]
    fn linear_form_rebuilds_the_simplified_expression(raw in raw_strategy()) {
        let e = build(&raw);
        if let Some(row) = linear_form(&e, NUM_DIMS, NUM_SYMBOLS) {
            let (nd, ns) = (NUM_DIMS as usize, NUM_SYMBOLS as usize);
            let rebuilt = expr_from_linear_form(&row, nd, ns);
            prop_assert_eq!(rebuilt.to_string(), simplify_affine_expr(&e, NUM_DIMS, NUM_SYMBOLS).to_string(), "{}", e);
            prop_assert_eq!(simplify_affine_expr(&rebuilt, NUM_DIMS, NUM_SYMBOLS).to_string(), rebuilt.to_string());
            prop_assert_eq!(linear_form(&rebuilt, NUM_DIMS, NUM_SYMBOLS), Some(row));
        }
    }

    /// Substituting into an expression built on another thread (a map
    /// parsed there) gives what substituting into one built here gives:
    /// leaves taken from this thread's cache count as unchanged.
    #[test]
    fn substitution_does_not_depend_on_the_building_thread(raw in raw_strategy(), by in raw_strategy()) {
        let here = build(&raw);
        let raw_there = raw.clone();
        let there = std::thread::spawn(move || build(&raw_there)).join().unwrap();
        let by = build(&by);
        // Identity, a swap, and one dimension replaced by an expression.
        let substitutions: [Vec<AffineExpr>; 3] = [
            (0..NUM_DIMS).map(AffineExpr::dim).collect(),
            vec![AffineExpr::dim(1), AffineExpr::dim(0), AffineExpr::dim(2)],
            vec![AffineExpr::dim(0), by, AffineExpr::dim(2)],
        ];
        let syms: Vec<AffineExpr> = (0..NUM_SYMBOLS).map(AffineExpr::symbol).collect();
        for dims in &substitutions {
            let a = here.replace_dims_and_symbols(dims, &syms).to_string();
            let b = there.replace_dims_and_symbols(dims, &syms).to_string();
            prop_assert_eq!(&a, &b, "{}", here);
        }
        // The identity keeps the expression as it is.
        prop_assert_eq!(there.replace_dims_and_symbols(&substitutions[0], &syms).to_string(), here.to_string());
    }

    /// (f ∘ g)(x) == f(g(x)), with f's symbols first, then g's.
    #[test]
    fn composition_evaluates_as_function_composition(
        f_raw in prop::collection::vec(raw_strategy(), 1..3),
        g_raw in prop::collection::vec(raw_strategy(), NUM_DIMS as usize),
        (dims, syms) in point(),
        f_syms in prop::collection::vec(1i64..=12, NUM_SYMBOLS as usize),
    ) {
        let f = AffineMap::new(NUM_DIMS, NUM_SYMBOLS, f_raw.iter().map(build).collect());
        let g = AffineMap::new(NUM_DIMS, NUM_SYMBOLS, g_raw.iter().map(build).collect());
        let fg = f.compose(&g);
        prop_assert_eq!(fg.num_dims(), NUM_DIMS);
        prop_assert_eq!(fg.num_symbols(), 2 * NUM_SYMBOLS);
        if let Some(inner) = g.evaluate(&dims, &syms) {
            if let Some(expected) = f.evaluate(&inner, &f_syms) {
                let all_syms: Vec<i64> = f_syms.iter().chain(&syms).copied().collect();
                prop_assert_eq!(fg.evaluate(&dims, &all_syms), Some(expected), "{} o {} = {}", f, g, fg);
            }
        }
    }

    /// `IntegerSet::contains` agrees with evaluating the constraints.
    #[test]
    fn set_contains(raw in raw_strategy(), eq in any::<bool>(), (dims, syms) in point()) {
        let e = build(&raw);
        let set = IntegerSet::new(NUM_DIMS, NUM_SYMBOLS, vec![e.clone()], vec![eq]);
        let expected = e.evaluate(&dims, &syms).map(|v| if eq { v == 0 } else { v >= 0 });
        prop_assert_eq!(set.contains(&dims, &syms), expected);
    }
}
