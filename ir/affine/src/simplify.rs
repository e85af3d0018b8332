//! Simplification by flattening, as MLIR's `simplifyAffineExpr`.
//!
//! An expression is flattened into a linear form over the dimensions, the
//! symbols and "local" variables, one per distinct `floordiv`/`ceildiv` by a
//! constant (and, for semi-affine expressions, one per product, division or
//! `mod` whose right operand is not a constant), then rebuilt. `mod` by a
//! constant `c` becomes `x - c * (x floordiv c)`, common factors of a
//! division are cancelled, and like terms are collected, so e.g.
//! `(d0 * 4 + d1 * 2) floordiv 2` becomes `d0 * 2 + d1` and
//! `d0 - (d0 floordiv 8) * 8` becomes `d0 mod 8`.
//!
//! Semi-affine expressions first go through MLIR's `simplifySemiAffine`
//! rules (division of an expression that is a multiple of a symbol by that
//! symbol), then are rebuilt with their terms ordered as MLIR's
//! `getSemiAffineExprFromFlatForm` orders them.
//!
//! Differences from MLIR 22, all where MLIR's result is wrong:
//! * MLIR rewrites `(x - x mod q) floordiv q` and `ceildiv q` to 0; only the
//!   `mod` form (which is 0) is rewritten here.
//! * MLIR divides some expressions by a symbol that are not multiples of it
//!   (see `simplify_semi_affine`); here only exact rewrites are done.
//! * MLIR's semi-affine rebuild loses a term when two products or divisions
//!   share the same (dimension, symbol) operands, e.g. `d0 * s0 + d0 mod s0`
//!   becomes `(d0 * s0) * 2`; here both terms are kept.
//! * Arithmetic overflow in the linear form leaves the expression as it is
//!   (MLIR wraps).
//!
//! Like MLIR, the semi-affine rules assume that a symbol used as a divisor
//! is positive (e.g. `((d0 * s0) floordiv 4) floordiv s0` becomes
//! `d0 floordiv 4`).

use crate::eval::gcd;
use crate::expr::{AffineExpr, BinaryOp, ExprView};
use smallvec::SmallVec;

/// A row of the linear form: dims, symbols and locals of most expressions
/// fit inline, so flattening allocates nothing for them.
type Row = SmallVec<[i64; 8]>;

/// Simplifies `expr`, an expression over `num_dims` dimensions and
/// `num_symbols` symbols, by flattening it to a linear form and rebuilding
/// it (see the module documentation). Returns the expression unchanged if it
/// uses a position out of range, divides or takes `mod` by a non-positive
/// constant, or if the linear form overflows.
///
/// The result evaluates to the same value as `expr` wherever `expr` can be
/// evaluated, for positive symbol values used as divisors.
///
/// ```
/// use lf_affine::{parse_affine_map, simplify_affine_expr};
/// let m = parse_affine_map("(d0, d1) -> ((d0 * 4 + d1 * 2) floordiv 2 + (d0 * 6 + 3) mod 4)").unwrap();
/// let s = simplify_affine_expr(&m.results()[0], 2, 0);
/// assert_eq!(s.to_string(), "d0 * 8 + d1 - ((d0 * 6 + 3) floordiv 4) * 4 + 3");
/// ```
pub fn simplify_affine_expr(expr: &AffineExpr, num_dims: u32, num_symbols: u32) -> AffineExpr {
    // A dimension, symbol or constant is its own simplest form (one out of
    // range is left as it is too).
    if !matches!(expr.view(), ExprView::Binary(..)) {
        return expr.clone();
    }
    let slot = memo_slot(expr, num_dims, num_symbols);
    let found = SIMPLIFIED.try_with(|memo| {
        let memo = memo.borrow();
        memo[slot]
            .as_ref()
            .filter(|m| m.num_dims == num_dims && m.num_symbols == num_symbols && m.input == *expr)
            .map(|m| m.output.clone())
    });
    if let Ok(Some(simplified)) = found {
        return simplified;
    }
    let simplified = simplify_uncached(expr, num_dims, num_symbols);
    let _ = SIMPLIFIED.try_with(|memo| {
        memo.borrow_mut()[slot] = Some(Simplified {
            input: expr.clone(),
            num_dims,
            num_symbols,
            output: simplified.clone(),
        })
    });
    simplified
}

/// Slots of the per-thread memory of simplified expressions (a power of two).
const SIMPLIFIED_SLOTS: usize = 4096;

/// An expression [`simplify_affine_expr`] simplified, with the dimension
/// and symbol counts it was simplified for, and the result.
struct Simplified {
    input: AffineExpr,
    num_dims: u32,
    num_symbols: u32,
    output: AffineExpr,
}

thread_local! {
    /// Simplifications done lately on this thread, direct-mapped by the
    /// input's structural hash. The results of maps recur far more often
    /// than whole maps do (`d0 * 2 + 1` is a result of many maps), and
    /// flattening and rebuilding costs microseconds. Simplification is a
    /// function of the expression's structure and the counts alone, so an
    /// entry holds for any equal expression, on any context.
    static SIMPLIFIED: std::cell::RefCell<Vec<Option<Simplified>>> =
        std::cell::RefCell::new((0..SIMPLIFIED_SLOTS).map(|_| None).collect());
}

/// The memo slot of `expr` simplified for `num_dims` and `num_symbols`.
fn memo_slot(expr: &AffineExpr, num_dims: u32, num_symbols: u32) -> usize {
    let hash = expr.structural_hash() ^ ((num_dims as u64) << 40) ^ ((num_symbols as u64) << 52);
    (hash ^ (hash >> 29)) as usize % SIMPLIFIED_SLOTS
}

/// [`simplify_affine_expr`] without the memo.
fn simplify_uncached(expr: &AffineExpr, num_dims: u32, num_symbols: u32) -> AffineExpr {
    // Most expressions are sums of multiples: their linear form is what
    // the flattener would find, without its row per node.
    let (nd, ns) = (num_dims as usize, num_symbols as usize);
    let mut row: LinearForm = smallvec::smallvec![0; nd + ns + 1];
    if accumulate_linear(expr, 1, nd, ns, &mut row) == Some(true) {
        return expr_from_flat(&row, nd, ns, &[]);
    }
    let expr = if expr.is_pure_affine() {
        expr.clone()
    } else {
        simplify_semi_affine(expr, num_dims, num_symbols)
    };
    let mut flattener = Flattener::new(num_dims as usize, num_symbols as usize);
    if flattener.walk(&expr).is_none() {
        return expr;
    }
    let Some(flat) = flattener.stack.pop() else {
        return expr;
    };
    let (nd, ns) = (num_dims as usize, num_symbols as usize);
    if expr.is_pure_affine() {
        return expr_from_flat(&flat, nd, ns, &flattener.locals);
    }
    if expr_from_flat(&flat, nd, ns, &flattener.locals) == expr {
        return expr;
    }
    semi_affine_expr_from_flat(&flat, nd, ns, &flattener.locals)
}

impl AffineExpr {
    /// Shorthand for [`simplify_affine_expr`]`(self, num_dims, num_symbols)`.
    pub fn simplify(&self, num_dims: u32, num_symbols: u32) -> AffineExpr {
        simplify_affine_expr(self, num_dims, num_symbols)
    }
}

/// The coefficients of `expr` over `[dims.., symbols.., constant]`, if it
/// flattens without local variables (no division or `mod` that stays one,
/// no product of two non-constants); `None` also on overflow or an
/// out-of-range position. A division or `mod` whose left side is a multiple
/// of the divisor flattens away, as in MLIR's `SimpleAffineExprFlattener`.
pub(crate) fn flatten_without_locals(expr: &AffineExpr, num_dims: u32, num_symbols: u32) -> Option<Row> {
    let mut flattener = Flattener::new(num_dims as usize, num_symbols as usize);
    flattener.walk(expr)?;
    if !flattener.locals.is_empty() {
        return None;
    }
    flattener.stack.pop()
}

/// The linear form of an expression: its coefficients over
/// `[dims.., symbols.., constant]` (see [`linear_form`]).
pub type LinearForm = SmallVec<[i64; 8]>;

/// The linear form of `expr` over `num_dims` dimensions and `num_symbols`
/// symbols, if it is linear as written: sums, products by a constant,
/// dimensions, symbols and constants, no position out of range, no
/// overflow. (An expression with a division or `mod`, even one that
/// flattens away such as `(d0 * 2) floordiv 2`, gets `None`: finding out
/// takes the flattener's work, which this spares.)
///
/// When it is `Some(row)`, [`simplify_affine_expr`]`(expr, num_dims,
/// num_symbols)` is [`expr_from_linear_form`]`(&row, num_dims,
/// num_symbols)`, and that expression simplifies to itself: passes can
/// compose and renumber linear expressions on their coefficients and get
/// exactly what simplifying the rebuilt trees would give.
///
/// ```
/// use lf_affine::{expr_from_linear_form, linear_form, parse_affine_map};
/// let m = parse_affine_map("(d0)[s0] -> (d0 * 4 - (d0 - 1) * 4 + s0 * 2)").unwrap();
/// let row = linear_form(&m.results()[0], 1, 1).unwrap();
/// assert_eq!(row.as_slice(), &[0, 2, 4]);
/// assert_eq!(expr_from_linear_form(&row, 1, 1).to_string(), "s0 * 2 + 4");
/// assert!(linear_form(&parse_affine_map("(d0) -> (d0 floordiv 2)").unwrap().results()[0], 1, 0).is_none());
/// ```
pub fn linear_form(expr: &AffineExpr, num_dims: u32, num_symbols: u32) -> Option<LinearForm> {
    let (nd, ns) = (num_dims as usize, num_symbols as usize);
    let mut row: LinearForm = smallvec::smallvec![0; nd + ns + 1];
    match accumulate_linear(expr, 1, nd, ns, &mut row) {
        Some(true) => Some(row),
        // No division or `mod` at all: not linear (or one that flattens
        // away, which the flattener finds).
        Some(false) => None,
        None => flatten_without_locals(expr, num_dims, num_symbols),
    }
}

/// Values at most this large (in magnitude) in [`accumulate_linear`]
/// cannot overflow, whatever order the flattener multiplies them in.
const SMALL_LINEAR: i64 = 1 << 30;

/// Adds `scale * expr` to `row` for an expression of sums, products by a
/// constant, dimensions, symbols and constants: `Some(true)` when done,
/// `Some(false)` when `expr` has a division, a `mod` or a product of two
/// non-constants, `None` when a value grows large or a position is out of
/// range (the caller then asks the flattener, which knows these cases).
fn accumulate_linear(expr: &AffineExpr, scale: i64, nd: usize, ns: usize, row: &mut LinearForm) -> Option<bool> {
    let small = |v: i64| (v.unsigned_abs() <= SMALL_LINEAR.unsigned_abs()).then_some(v);
    let (col, value) = match expr.view() {
        ExprView::Dim(p) if (p as usize) < nd => (p as usize, scale),
        ExprView::Symbol(p) if (p as usize) < ns => (nd + p as usize, scale),
        ExprView::Dim(_) | ExprView::Symbol(_) => return None,
        ExprView::Constant(c) => (nd + ns, small(c)?.checked_mul(scale)?),
        ExprView::Binary(BinaryOp::Add, l, r) => {
            return Some(accumulate_linear(l, scale, nd, ns, row)? && accumulate_linear(r, scale, nd, ns, row)?);
        }
        ExprView::Binary(BinaryOp::Mul, l, r) => {
            let (x, c) = match (l.as_constant(), r.as_constant()) {
                (_, Some(c)) => (l, c),
                (Some(c), None) => (r, c),
                (None, None) => return Some(false),
            };
            return accumulate_linear(x, small(small(c)?.checked_mul(scale)?)?, nd, ns, row);
        }
        ExprView::Binary(..) => return Some(false),
    };
    row[col] = small(row[col].checked_add(small(value)?)?)?;
    Some(true)
}

/// The expression of a linear form `[dims.., symbols.., constant]` over
/// `num_dims` dimensions and `num_symbols` symbols, in the canonical form
/// [`simplify_affine_expr`] gives (terms in column order, then the
/// constant). `row` must have `num_dims + num_symbols + 1` entries.
pub fn expr_from_linear_form(row: &[i64], num_dims: usize, num_symbols: usize) -> AffineExpr {
    debug_assert_eq!(row.len(), num_dims + num_symbols + 1);
    expr_from_flat(row, num_dims, num_symbols, &[])
}

/// Flattens expressions into rows `[dims.., symbols.., locals.., constant]`
/// (MLIR's `SimpleAffineExprFlattener`).
struct Flattener {
    num_dims: usize,
    num_symbols: usize,
    locals: Vec<AffineExpr>,
    stack: Vec<Row>,
}

impl Flattener {
    fn new(num_dims: usize, num_symbols: usize) -> Flattener {
        Flattener {
            num_dims,
            num_symbols,
            locals: Vec::new(),
            stack: Vec::new(),
        }
    }

    fn local_start(&self) -> usize {
        self.num_dims + self.num_symbols
    }

    fn push_unit(&mut self, col: usize, value: i64) {
        let mut row: Row = smallvec::smallvec![0; self.local_start() + self.locals.len() + 1];
        let last = row.len() - 1;
        row[if col == usize::MAX { last } else { col }] = value;
        self.stack.push(row);
    }

    /// Post-order walk; `None` on failure (out-of-range position,
    /// non-positive constant divisor, overflow).
    fn walk(&mut self, e: &AffineExpr) -> Option<()> {
        match e.view() {
            ExprView::Dim(p) => {
                let p = p as usize;
                (p < self.num_dims).then(|| self.push_unit(p, 1))
            }
            ExprView::Symbol(p) => {
                let p = p as usize;
                (p < self.num_symbols).then(|| self.push_unit(self.num_dims + p, 1))
            }
            ExprView::Constant(c) => {
                self.push_unit(usize::MAX, c);
                Some(())
            }
            ExprView::Binary(op, l, r) => {
                self.walk(l)?;
                self.walk(r)?;
                let rhs = self.stack.pop()?;
                match op {
                    BinaryOp::Add => {
                        let lhs = self.stack.last_mut()?;
                        for (a, b) in lhs.iter_mut().zip(&rhs) {
                            *a = a.checked_add(*b)?;
                        }
                        Some(())
                    }
                    BinaryOp::Mul => match r.as_constant() {
                        Some(_) => {
                            let c = *rhs.last()?;
                            for a in self.stack.last_mut()? {
                                *a = a.checked_mul(c)?;
                            }
                            Some(())
                        }
                        None => self.semi_affine(op, &rhs),
                    },
                    BinaryOp::Mod => match r.as_constant() {
                        Some(_) => self.visit_mod(*rhs.last()?),
                        None => self.semi_affine(op, &rhs),
                    },
                    BinaryOp::FloorDiv | BinaryOp::CeilDiv => match r.as_constant() {
                        Some(_) => self.visit_div(*rhs.last()?, op == BinaryOp::CeilDiv),
                        None => self.semi_affine(op, &rhs),
                    },
                }
            }
        }
    }

    fn expr_of(&self, row: &[i64]) -> AffineExpr {
        expr_from_flat(row, self.num_dims, self.num_symbols, &self.locals)
    }

    fn find_local(&self, e: &AffineExpr) -> Option<usize> {
        self.locals.iter().position(|l| l == e)
    }

    /// Adds a local variable column (before the constant column) to every
    /// row on the stack.
    fn add_local(&mut self, e: AffineExpr) {
        let at = self.local_start() + self.locals.len();
        for row in &mut self.stack {
            row.insert(at, 0);
        }
        self.locals.push(e);
    }

    /// Replaces the top row by the local variable for `e` (reused if `e` is
    /// already a local).
    fn set_top_to_local(&mut self, e: AffineExpr) -> Option<()> {
        let loc = match self.find_local(&e) {
            Some(loc) => loc,
            None => {
                self.add_local(e);
                self.locals.len() - 1
            }
        };
        let col = self.local_start() + loc;
        let top = self.stack.last_mut()?;
        top.fill(0);
        top[col] = 1;
        Some(())
    }

    /// A product, division or `mod` whose right operand is not a constant:
    /// one opaque local variable.
    fn semi_affine(&mut self, op: BinaryOp, rhs: &[i64]) -> Option<()> {
        let a = self.expr_of(self.stack.last()?);
        let b = self.expr_of(rhs);
        self.set_top_to_local(AffineExpr::binary(op, &a, &b))
    }

    /// `x mod c` = `x - c * q` with `q = x floordiv c` (after cancelling the
    /// gcd of `x` and `c` inside `q`).
    fn visit_mod(&mut self, c: i64) -> Option<()> {
        if c <= 0 {
            return None;
        }
        let lhs = self.stack.last()?;
        if lhs.iter().all(|&v| v % c == 0) {
            self.stack.last_mut()?.fill(0);
            return Some(());
        }
        let g = lhs.iter().fold(c as u64, |g, &v| gcd(g, v.unsigned_abs())) as i64;
        let dividend: Row = lhs.iter().map(|&v| v / g).collect();
        let q = self.expr_of(&dividend).floor_div_const(c / g);
        let loc = match self.find_local(&q) {
            Some(loc) => loc,
            None => {
                self.add_local(q);
                self.locals.len() - 1
            }
        };
        let col = self.local_start() + loc;
        self.stack.last_mut()?[col] = -c;
        Some(())
    }

    /// `x floordiv c` / `x ceildiv c`: cancel the gcd; if the divisor
    /// becomes 1 the row is the result, else one local variable.
    fn visit_div(&mut self, c: i64, ceil: bool) -> Option<()> {
        if c <= 0 {
            return None;
        }
        let lhs = self.stack.last_mut()?;
        let g = lhs.iter().fold(c as u64, |g, &v| gcd(g, v.unsigned_abs())) as i64;
        if g != 1 {
            for v in lhs.iter_mut() {
                *v /= g;
            }
        }
        let divisor = c / g;
        if divisor == 1 {
            return Some(());
        }
        let a = self.expr_of(self.stack.last()?);
        let b = AffineExpr::constant(divisor);
        let q = if ceil { a.ceil_div(&b) } else { a.floor_div(&b) };
        self.set_top_to_local(q)
    }
}

/// Rebuilds `sum(coef * id) + sum(coef * local) + constant` in column order
/// (MLIR's `getAffineExprFromFlatForm`).
fn expr_from_flat(flat: &[i64], nd: usize, ns: usize, locals: &[AffineExpr]) -> AffineExpr {
    let mut expr = AffineExpr::constant(0);
    for (j, &c) in flat[..nd + ns].iter().enumerate() {
        if c != 0 {
            let id = if j < nd {
                AffineExpr::dim(j as u32)
            } else {
                AffineExpr::symbol((j - nd) as u32)
            };
            expr = expr.add(&id.mul_const(c));
        }
    }
    for (local, &c) in locals.iter().zip(&flat[nd + ns..flat.len() - 1]) {
        if c != 0 {
            expr = expr.add(&local.mul_const(c));
        }
    }
    match flat.last() {
        Some(&c) if c != 0 => expr.add_const(c),
        _ => expr,
    }
}

/// Rebuilds a semi-affine flat form with MLIR's term order: terms are keyed
/// by (position, rank) so that a dimension comes before its products and
/// divisions, which come before the symbols with the same position (MLIR's
/// `getSemiAffineExprFromFlatForm`).
fn semi_affine_expr_from_flat(flat: &[i64], nd: usize, ns: usize, locals: &[AffineExpr]) -> AffineExpr {
    let mut entries: Vec<((u32, i64), i64, AffineExpr)> = Vec::new();
    let max_ns = nd.max(ns) as i64;
    let mut offset_sym: i64 = 0;
    let mut offset_dim: i64 = -1;
    for (pos, &c) in flat[nd..nd + ns].iter().enumerate() {
        if c != 0 {
            let pos = pos as u32;
            entries.push(((pos, max_ns + offset_sym), c, AffineExpr::symbol(pos)));
            offset_sym += 1;
        }
    }
    let mut added = vec![false; locals.len()];
    for (i, local) in locals.iter().enumerate() {
        let coef = flat[nd + ns + i];
        if coef == 0 {
            continue;
        }
        let Some((_, l, r)) = local.as_binary() else {
            continue;
        };
        let key = match (l.view(), r.view()) {
            (ExprView::Dim(lp), ExprView::Constant(_)) => {
                offset_dim -= 1;
                (lp, offset_dim + 1)
            }
            (ExprView::Symbol(lp), ExprView::Constant(_)) => {
                offset_sym += 1;
                (lp, max_ns + offset_sym - 1)
            }
            (ExprView::Dim(lp), ExprView::Symbol(rp) | ExprView::Dim(rp)) => (lp, rp as i64),
            (ExprView::Symbol(lp), ExprView::Symbol(_) | ExprView::Dim(_)) => {
                offset_sym += 1;
                (lp, max_ns + offset_sym - 1)
            }
            _ => continue,
        };
        entries.push((key, coef, local.clone()));
        added[i] = true;
    }
    for (j, &c) in flat[..nd].iter().enumerate() {
        if c != 0 {
            entries.push(((j as u32, offset_dim), c, AffineExpr::dim(j as u32)));
            offset_dim -= 1;
        }
    }
    // Stable: entries with equal keys keep their order (MLIR drops all but
    // one of them).
    entries.sort_by_key(|e| e.0);
    let mut expr = AffineExpr::constant(0);
    for (_, coef, e) in &entries {
        expr = expr.add(&e.mul_const(*coef));
    }
    for (i, local) in locals.iter().enumerate() {
        let coef = flat[nd + ns + i];
        if coef != 0 && !added[i] {
            expr = expr.add(&local.mul_const(coef));
        }
    }
    match flat.last() {
        Some(&c) if c != 0 => expr.add_const(c),
        _ => expr,
    }
}

/// MLIR's `simplifySemiAffine`: recursively, a division or `mod` whose
/// right operand simplifies to a symbol `s` and whose left operand is a
/// multiple of `s` is divided out (or is 0 for `mod`), and
/// `(x - x mod q) mod q` is 0.
///
/// MLIR decides "multiple of `s`" with `isDivisibleBySymbol`, which also
/// accepts some expressions whose division by `s` it then rewrites wrongly
/// (e.g. `(((d0 * s0) floordiv 4) * s0) floordiv s0` becomes
/// `(d0 floordiv 4) * s0`, and `(a floordiv 4 + b floordiv 2) floordiv s0`
/// is split into two divisions). Here a division is only rewritten when the
/// rewrite is exact: see [`is_exact_multiple`] and [`can_sink_division`].
fn simplify_semi_affine(expr: &AffineExpr, nd: u32, ns: u32) -> AffineExpr {
    let ExprView::Binary(op, l, r) = expr.view() else {
        return expr.clone();
    };
    let sl = simplify_semi_affine(l, nd, ns);
    let sr = simplify_semi_affine(r, nd, ns);
    if matches!(op, BinaryOp::Add | BinaryOp::Mul) {
        return AffineExpr::binary(op, &sl, &sr);
    }
    if op == BinaryOp::Mod && is_mod_of_mod_subtraction(&sl, &sr, nd, ns) {
        return AffineExpr::constant(0);
    }
    let Some(sym) = sr.as_symbol() else {
        return AffineExpr::binary(op, &sl, &sr);
    };
    if op == BinaryOp::Mod {
        if is_exact_multiple(l, sym) {
            return AffineExpr::constant(0);
        }
    } else if can_sink_division(l, sym, op) {
        if let Some(q) = sink_division(&sl, sym, op) {
            return q;
        }
    }
    AffineExpr::binary(op, &sl, &sr)
}

/// True if `expr` is structurally `s<sym> * q` for an expression `q`
/// ([`exact_divide`] computes `q`).
fn is_exact_multiple(expr: &AffineExpr, sym: u32) -> bool {
    match expr.view() {
        ExprView::Constant(c) => c == 0,
        ExprView::Dim(_) => false,
        ExprView::Symbol(p) => p == sym,
        ExprView::Binary(BinaryOp::Add | BinaryOp::Mod, l, r) => is_exact_multiple(l, sym) && is_exact_multiple(r, sym),
        ExprView::Binary(BinaryOp::Mul, l, r) => is_exact_multiple(l, sym) || is_exact_multiple(r, sym),
        ExprView::Binary(BinaryOp::FloorDiv | BinaryOp::CeilDiv, _, _) => false,
    }
}

/// `expr / s<sym>` for an [`is_exact_multiple`] expression.
fn exact_divide(expr: &AffineExpr, sym: u32) -> Option<AffineExpr> {
    match expr.view() {
        ExprView::Constant(0) => Some(AffineExpr::constant(0)),
        ExprView::Symbol(p) if p == sym => Some(AffineExpr::constant(1)),
        ExprView::Binary(op @ (BinaryOp::Add | BinaryOp::Mod), l, r) => {
            Some(AffineExpr::binary(op, &exact_divide(l, sym)?, &exact_divide(r, sym)?))
        }
        ExprView::Binary(BinaryOp::Mul, l, r) => {
            if is_exact_multiple(l, sym) {
                Some(exact_divide(l, sym)?.mul(r))
            } else {
                Some(l.mul(&exact_divide(r, sym)?))
            }
        }
        _ => None,
    }
}

/// True if `expr op s<sym>` (`op` is `floordiv` or `ceildiv`, the symbol
/// assumed positive) can be rewritten without a division by the symbol at
/// the top: `expr` is an exact multiple; or `x op c` with `x` an exact
/// multiple (`(x floordiv c) floordiv s = (x / s) floordiv c` for any `c`),
/// or with `c` a positive constant or a symbol and `x` itself qualifying;
/// or a sum of one qualifying term and exact multiples.
fn can_sink_division(expr: &AffineExpr, sym: u32, op: BinaryOp) -> bool {
    if is_exact_multiple(expr, sym) {
        return true;
    }
    match expr.view() {
        ExprView::Binary(kind, l, r) if kind == op => {
            is_exact_multiple(l, sym) || (divisor_is_positive(r) && can_sink_division(l, sym, op))
        }
        ExprView::Binary(BinaryOp::Add, l, r) => {
            (can_sink_division(l, sym, op) && is_exact_multiple(r, sym))
                || (is_exact_multiple(l, sym) && can_sink_division(r, sym, op))
        }
        _ => false,
    }
}

fn divisor_is_positive(e: &AffineExpr) -> bool {
    match e.as_constant() {
        Some(c) => c > 0,
        None => e.as_symbol().is_some(),
    }
}

/// `expr op s<sym>` rewritten as [`can_sink_division`] allows.
fn sink_division(expr: &AffineExpr, sym: u32, op: BinaryOp) -> Option<AffineExpr> {
    if is_exact_multiple(expr, sym) {
        return exact_divide(expr, sym);
    }
    match expr.view() {
        ExprView::Binary(kind, l, r) if kind == op && (is_exact_multiple(l, sym) || divisor_is_positive(r)) => {
            Some(AffineExpr::binary(kind, &sink_division(l, sym, op)?, r))
        }
        ExprView::Binary(BinaryOp::Add, l, r) => {
            if is_exact_multiple(r, sym) {
                Some(sink_division(l, sym, op)?.add(&exact_divide(r, sym)?))
            } else if is_exact_multiple(l, sym) {
                Some(exact_divide(l, sym)?.add(&sink_division(r, sym, op)?))
            } else {
                None
            }
        }
        _ => None,
    }
}

fn collect_summands<'a>(expr: &'a AffineExpr, out: &mut Vec<&'a AffineExpr>) {
    match expr.as_op(BinaryOp::Add) {
        Some((l, r)) => {
            collect_summands(l, out);
            collect_summands(r, out);
        }
        None => out.push(expr),
    }
}

/// `x` if `e` is `x * -1` or `-1 * x`.
fn negated(e: &AffineExpr) -> Option<&AffineExpr> {
    let (l, r) = e.as_op(BinaryOp::Mul)?;
    if l.as_constant() == Some(-1) {
        Some(r)
    } else if r.as_constant() == Some(-1) {
        Some(l)
    } else {
        None
    }
}

/// True if `lhs` is `x - x mod rhs` up to simplification, so that
/// `lhs mod rhs` is 0 (MLIR's `isModOfModSubtraction`).
fn is_mod_of_mod_subtraction(lhs: &AffineExpr, rhs: &AffineExpr, nd: u32, ns: u32) -> bool {
    let mut summands = Vec::new();
    collect_summands(lhs, &mut summands);
    for (i, s) in summands.iter().enumerate() {
        let Some((x, m)) = negated(s).and_then(|n| n.as_op(BinaryOp::Mod)) else {
            continue;
        };
        if m != rhs {
            continue;
        }
        let mut diff = AffineExpr::constant(0);
        for (j, t) in summands.iter().enumerate() {
            if i != j {
                diff = diff.add(t);
            }
        }
        diff = diff.sub(x);
        if simplify_affine_expr(&diff, nd, ns).as_constant() == Some(0) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_affine_map;

    /// The direct linear form is the flattener's row, for sums of
    /// multiples, including those that cancel, repeat or nest.
    #[test]
    fn direct_linear_form_is_the_flatteners() {
        let maps = [
            "(d0, d1)[s0] -> (d0 * 4 - (d0 - 1) * 4 + s0 * 2, d1 - d1, (d0 + d1 * 3 + 2) * -5 + s0, 7, d1)",
            "(d0, d1, d2)[s0, s1] -> (((d0 + s1) * 3 + (d2 - s0) * 2) * 4 - d1, s1 * 9 - 1)",
            "(d0)[s0] -> (d0 * 1073741824 + s0 * -1073741823)",
        ];
        for text in maps {
            let m = parse_affine_map(text).unwrap();
            for r in m.results() {
                let (nd, ns) = (m.num_dims() as usize, m.num_symbols() as usize);
                let mut row: LinearForm = smallvec::smallvec![0; nd + ns + 1];
                assert_eq!(accumulate_linear(r, 1, nd, ns, &mut row), Some(true), "{r}");
                let flat = flatten_without_locals(r, m.num_dims(), m.num_symbols());
                assert_eq!(Some(row), flat, "{r}");
            }
        }
    }

    /// Divisions, `mod`, products of two non-constants, out-of-range
    /// positions and large values are left to the flattener.
    #[test]
    fn direct_linear_form_declines_what_it_does_not_know() {
        let m = parse_affine_map(
            "(d0, d1)[s0] -> (d0 floordiv 2, (d0 * 3 + d1) floordiv 2, d1 mod 3, d0 * s0, d0 * 2147483648, d0 ceildiv 4)",
        )
        .unwrap();
        let outcomes: Vec<Option<bool>> = m
            .results()
            .iter()
            .map(|r| accumulate_linear(r, 1, 2, 1, &mut smallvec::smallvec![0; 4]))
            .collect();
        assert_eq!(
            outcomes,
            [Some(false), Some(false), Some(false), Some(false), None, Some(false)]
        );
        let mut row: LinearForm = smallvec::smallvec![0; 2];
        assert_eq!(accumulate_linear(&AffineExpr::dim(3), 1, 1, 0, &mut row), None);
        // The most negative constant has no absolute value in i64.
        let most_negative = AffineExpr::dim(0).add(&AffineExpr::constant(i64::MIN));
        assert_eq!(accumulate_linear(&most_negative, 1, 1, 0, &mut row), None);
    }
}
