//! Construction of binary expressions with MLIR 22's construction-time
//! simplifications (the rules behind MLIR's `operator+`, `operator*`,
//! `floorDiv`, `ceilDiv` and `operator%` on `AffineExpr`).
//!
//! # Overflow
//!
//! Folding two constants uses checked arithmetic: when the result does not
//! fit in `i64` (or is a division of `i64::MIN` by -1) the node is kept
//! unfolded, e.g. `9223372036854775807 + 1` stays as written. This is what
//! MLIR 22 does. Folding a constant into an existing chain,
//! `(x + c1) + c2 -> x + (c1 + c2)`, `(x * c1) * c2 -> x * (c1 * c2)` and
//! `x * c1 + x * c2 -> x * (c1 + c2)`, wraps in two's complement, again as
//! MLIR 22 does; this agrees with the wrapping semantics of `index`
//! arithmetic in lowered code, but [`AffineExpr::evaluate`] reports such an
//! overflow as `None`. Where MLIR would trap (`(x * i64::MIN) floordiv -1`
//! crashes mlir-opt 22 with SIGFPE), the node is kept unfolded.

use crate::eval::{ceil_div, floor_div};
use crate::expr::{AffineExpr, BinaryOp, ExprView};

impl AffineExpr {
    /// Builds `lhs op rhs` with MLIR's construction-time simplification
    /// (MLIR's `getAffineBinaryOpExpr`).
    pub fn binary(op: BinaryOp, lhs: &AffineExpr, rhs: &AffineExpr) -> AffineExpr {
        let simplified = match op {
            BinaryOp::Add => simplify_add(lhs, rhs),
            BinaryOp::Mul => simplify_mul(lhs, rhs),
            BinaryOp::FloorDiv => simplify_floor_div(lhs, rhs),
            BinaryOp::CeilDiv => simplify_ceil_div(lhs, rhs),
            BinaryOp::Mod => simplify_mod(lhs, rhs),
        };
        simplified.unwrap_or_else(|| AffineExpr::raw_binary(op, lhs.clone(), rhs.clone()))
    }

    /// `self + rhs`, simplified.
    pub fn add(&self, rhs: &AffineExpr) -> AffineExpr {
        AffineExpr::binary(BinaryOp::Add, self, rhs)
    }

    /// `self + c`, simplified.
    pub fn add_const(&self, c: i64) -> AffineExpr {
        self.add(&AffineExpr::constant(c))
    }

    /// `self - rhs`, built as `self + rhs * -1` like MLIR.
    pub fn sub(&self, rhs: &AffineExpr) -> AffineExpr {
        self.add(&rhs.neg())
    }

    /// `self * rhs`, simplified. MLIR requires one operand to be symbolic or
    /// constant for the result to be affine; if neither is, the product is
    /// still built (a non-affine node).
    pub fn mul(&self, rhs: &AffineExpr) -> AffineExpr {
        AffineExpr::binary(BinaryOp::Mul, self, rhs)
    }

    /// `self * c`, simplified.
    pub fn mul_const(&self, c: i64) -> AffineExpr {
        self.mul(&AffineExpr::constant(c))
    }

    /// `-self`, built as `self * -1` like MLIR.
    pub fn neg(&self) -> AffineExpr {
        self.mul_const(-1)
    }

    /// `self floordiv rhs`, simplified.
    pub fn floor_div(&self, rhs: &AffineExpr) -> AffineExpr {
        AffineExpr::binary(BinaryOp::FloorDiv, self, rhs)
    }

    /// `self floordiv c`, simplified.
    pub fn floor_div_const(&self, c: i64) -> AffineExpr {
        self.floor_div(&AffineExpr::constant(c))
    }

    /// `self ceildiv rhs`, simplified.
    pub fn ceil_div(&self, rhs: &AffineExpr) -> AffineExpr {
        AffineExpr::binary(BinaryOp::CeilDiv, self, rhs)
    }

    /// `self ceildiv c`, simplified.
    pub fn ceil_div_const(&self, c: i64) -> AffineExpr {
        self.ceil_div(&AffineExpr::constant(c))
    }

    /// `self mod rhs`, simplified.
    pub fn modulo(&self, rhs: &AffineExpr) -> AffineExpr {
        AffineExpr::binary(BinaryOp::Mod, self, rhs)
    }

    /// `self mod c`, simplified.
    pub fn modulo_const(&self, c: i64) -> AffineExpr {
        self.modulo(&AffineExpr::constant(c))
    }
}

/// `(x, c)` if `e` is `x * c` with a constant `c`.
#[inline]
fn mul_by_const(e: &AffineExpr) -> Option<(&AffineExpr, i64)> {
    let (x, c) = e.as_op(BinaryOp::Mul)?;
    Some((x, c.as_constant()?))
}

/// `(x, c)` if `e` is `x + c` with a constant `c`.
#[inline]
fn add_const(e: &AffineExpr) -> Option<(&AffineExpr, i64)> {
    let (x, c) = e.as_op(BinaryOp::Add)?;
    Some((x, c.as_constant()?))
}

/// True for `d<i> op d<j>` or `s<i> op s<j>` with `i > j`: MLIR 22 orders
/// the operands of a commutative operation on two dimensions (or two
/// symbols) by position, so `d1 + d0` becomes `d0 + d1`.
#[inline]
fn leaves_out_of_order(lhs: &AffineExpr, rhs: &AffineExpr) -> bool {
    match (lhs.view(), rhs.view()) {
        (ExprView::Dim(a), ExprView::Dim(b)) | (ExprView::Symbol(a), ExprView::Symbol(b)) => a > b,
        _ => false,
    }
}

fn simplify_add(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let lc = lhs.as_constant();
    let rc = rhs.as_constant();
    if let (Some(a), Some(b)) = (lc, rc) {
        return a.checked_add(b).map(AffineExpr::constant);
    }
    // Constants go to the right; a symbolic operand goes to the right of a
    // non-symbolic one.
    if lc.is_some() || (lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant()) {
        return Some(rhs.add(lhs));
    }
    if leaves_out_of_order(lhs, rhs) {
        return Some(rhs.add(lhs));
    }
    if rc == Some(0) {
        return Some(lhs.clone());
    }
    // (x + c1) + c2 -> x + (c1 + c2).
    if let (Some(c2), Some((x, c1))) = (rc, add_const(lhs)) {
        return Some(x.add(&AffineExpr::constant(c1.wrapping_add(c2))));
    }
    // x * c1 + x * c2 -> x * (c1 + c2), where a missing factor counts as 1.
    let (first, c1) = mul_by_const(lhs).unwrap_or((lhs, 1));
    let (second, c2) = mul_by_const(rhs).unwrap_or((rhs, 1));
    if first == second {
        return Some(first.mul(&AffineExpr::constant(c1.wrapping_add(c2))));
    }
    // (x + c) + y -> (x + y) + c.
    if let Some((x, c)) = add_const(lhs) {
        return Some(x.add(rhs).add(&AffineExpr::constant(c)));
    }
    // x + ((x floordiv q) * q) * -1 -> x mod q, for any symbolic q.
    let (rl, rr) = rhs.as_op(BinaryOp::Mul)?;
    if let (Some(-1), Some((rll, q))) = (rr.as_constant(), rl.as_op(BinaryOp::Mul)) {
        let (x, q2) = rll.as_op(BinaryOp::FloorDiv)?;
        if q2 == q && x == lhs {
            return Some(lhs.modulo(q));
        }
    }
    // x + (x floordiv c) * -c -> x mod c, for a positive constant c.
    let (x, q) = rl.as_op(BinaryOp::FloorDiv)?;
    if let (Some(c), Some(minus_c)) = (q.as_constant(), rr.as_constant()) {
        if c > 0 && minus_c == -c && x == lhs {
            return Some(lhs.modulo(q));
        }
    }
    // (a + b) + (x floordiv q) * k -> a + (b + (x floordiv q) * k) when the
    // inner sum simplifies (MLIR 22 looks for the `mod` pattern inside the
    // left sum this way).
    let (a, b) = lhs.as_op(BinaryOp::Add)?;
    let inner = simplify_add(b, rhs)?;
    Some(a.add(&inner))
}

fn simplify_mul(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let lc = lhs.as_constant();
    let rc = rhs.as_constant();
    if let (Some(a), Some(b)) = (lc, rc) {
        return a.checked_mul(b).map(AffineExpr::constant);
    }
    if !lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant() {
        return None;
    }
    // The constant or symbolic operand goes to the right.
    if !rhs.is_symbolic_or_constant() || lc.is_some() {
        return Some(rhs.mul(lhs));
    }
    if leaves_out_of_order(lhs, rhs) {
        return Some(rhs.mul(lhs));
    }
    match rc {
        Some(1) => return Some(lhs.clone()),
        Some(0) => return Some(rhs.clone()),
        _ => {}
    }
    if let Some((x, c1)) = mul_by_const(lhs) {
        // (x * c1) * c2 -> x * (c1 * c2).
        if let Some(c2) = rc {
            return Some(x.mul(&AffineExpr::constant(c1.wrapping_mul(c2))));
        }
        // (x * c) * y -> (x * y) * c.
        return Some(x.mul(rhs).mul(&AffineExpr::constant(c1)));
    }
    None
}

fn simplify_floor_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let c = rhs.as_constant().filter(|&c| c != 0)?;
    if let Some(a) = lhs.as_constant() {
        return floor_div(a, c).map(AffineExpr::constant);
    }
    if c == 1 {
        return Some(lhs.clone());
    }
    match lhs.view() {
        // (x * k) floordiv c -> x * (k / c) when c divides k.
        ExprView::Binary(BinaryOp::Mul, x, k) => {
            let k = k.as_constant()?;
            if c == -1 && k == i64::MIN {
                return None;
            }
            (k % c == 0).then(|| x.mul(&AffineExpr::constant(k / c)))
        }
        // (a + b) floordiv c -> a floordiv c + b floordiv c when c is known
        // to divide a or b.
        ExprView::Binary(BinaryOp::Add, a, b) => {
            (a.is_multiple_of(c) || b.is_multiple_of(c)).then(|| a.floor_div(rhs).add(&b.floor_div(rhs)))
        }
        _ => None,
    }
}

fn simplify_ceil_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let c = rhs.as_constant().filter(|&c| c != 0)?;
    if let Some(a) = lhs.as_constant() {
        return ceil_div(a, c).map(AffineExpr::constant);
    }
    if c == 1 {
        return Some(lhs.clone());
    }
    // (x * k) ceildiv c -> x * (k / c) when c divides k.
    let (x, k) = mul_by_const(lhs)?;
    if c == -1 && k == i64::MIN {
        return None;
    }
    (k % c == 0).then(|| x.mul(&AffineExpr::constant(k / c)))
}

fn simplify_mod(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let c = rhs.as_constant().filter(|&c| c >= 1)?;
    if let Some(a) = lhs.as_constant() {
        return Some(AffineExpr::constant(a.rem_euclid(c)));
    }
    if lhs.is_multiple_of(c) {
        return Some(AffineExpr::constant(0));
    }
    match lhs.view() {
        // (a + b) mod c -> b mod c when c is known to divide a (or the
        // other way around).
        ExprView::Binary(BinaryOp::Add, a, b) => {
            if a.is_multiple_of(c) {
                Some(b.modulo(rhs))
            } else if b.is_multiple_of(c) {
                Some(a.modulo(rhs))
            } else {
                None
            }
        }
        // (x mod k) mod c -> x mod c when c divides k.
        ExprView::Binary(BinaryOp::Mod, x, k) => {
            let k = k.as_constant()?;
            (k >= 1 && k % c == 0).then(|| x.modulo(rhs))
        }
        _ => None,
    }
}

macro_rules! impl_binop {
    ($trait:ident, $method:ident, $build:ident) => {
        impl std::ops::$trait<AffineExpr> for AffineExpr {
            type Output = AffineExpr;
            fn $method(self, rhs: AffineExpr) -> AffineExpr {
                AffineExpr::$build(&self, &rhs)
            }
        }
        impl std::ops::$trait<&AffineExpr> for AffineExpr {
            type Output = AffineExpr;
            fn $method(self, rhs: &AffineExpr) -> AffineExpr {
                AffineExpr::$build(&self, rhs)
            }
        }
        impl std::ops::$trait<AffineExpr> for &AffineExpr {
            type Output = AffineExpr;
            fn $method(self, rhs: AffineExpr) -> AffineExpr {
                AffineExpr::$build(self, &rhs)
            }
        }
        impl std::ops::$trait<&AffineExpr> for &AffineExpr {
            type Output = AffineExpr;
            fn $method(self, rhs: &AffineExpr) -> AffineExpr {
                AffineExpr::$build(self, rhs)
            }
        }
        impl std::ops::$trait<i64> for AffineExpr {
            type Output = AffineExpr;
            fn $method(self, rhs: i64) -> AffineExpr {
                AffineExpr::$build(&self, &AffineExpr::constant(rhs))
            }
        }
        impl std::ops::$trait<i64> for &AffineExpr {
            type Output = AffineExpr;
            fn $method(self, rhs: i64) -> AffineExpr {
                AffineExpr::$build(self, &AffineExpr::constant(rhs))
            }
        }
    };
}

impl_binop!(Add, add, add);
impl_binop!(Sub, sub, sub);
impl_binop!(Mul, mul, mul);
// `%` is MLIR's `mod` (non-negative for a positive divisor), not Rust's
// truncating remainder.
impl_binop!(Rem, rem, modulo);

impl std::ops::Neg for AffineExpr {
    type Output = AffineExpr;
    fn neg(self) -> AffineExpr {
        AffineExpr::neg(&self)
    }
}

impl std::ops::Neg for &AffineExpr {
    type Output = AffineExpr;
    fn neg(self) -> AffineExpr {
        AffineExpr::neg(self)
    }
}
