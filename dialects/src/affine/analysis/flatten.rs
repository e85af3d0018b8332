//! Flattening affine expressions into rows of coefficients, as MLIR's
//! `SimpleAffineExprFlattener` and `AffineExprFlattener` do: a row is
//! `[dims, symbols, locals, constant]`; each `floordiv`, `ceildiv` and `mod`
//! by a constant introduces a local `q = dividend floordiv divisor` (with
//! the gcd of dividend and divisor cancelled), shared with any earlier
//! division of the same dividend and divisor, in post-order (left operand,
//! right operand, then the operation). The locals' defining inequalities
//! are collected in a set over the same columns, in the order the locals
//! were created.

use lf_ir::affine::{AffineExpr, BinaryOp, ExprView};
use lf_presburger::{IntegerRelation, VarKind};

/// A flattened expression: coefficients of the dims and symbols, of the
/// locals created so far (shorter than the final count means zeros), and
/// the constant.
#[derive(Clone, Debug, Default)]
struct Flat {
    inputs: Vec<i64>,
    locals: Vec<i64>,
    constant: i64,
}

/// Why an expression could not be flattened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlattenError {
    /// A product of two non-constants, or a division or modulo by a
    /// non-constant (MLIR's semi-affine expressions).
    SemiAffine,
    /// A division or modulo by zero or a negative constant.
    BadDivisor,
    /// A coefficient overflowed `i64`.
    Overflow,
}

/// The result of flattening the results of a map (or the constraints of a
/// set) with one flattener: one row per expression, and the set of the
/// locals' defining inequalities.
pub struct Flattened {
    /// One row per expression: `[dims, symbols, locals, constant]`.
    pub rows: Vec<Vec<i64>>,
    /// `num_dims` dimensions, `num_symbols` symbols and the locals, with the
    /// two inequalities of each local (lower bound first), in creation order.
    pub local_cst: IntegerRelation,
}

/// The identity of a local: ceil or floor, the dividend's coefficients
/// (inputs and locals, trailing zero locals dropped), its constant, the
/// divisor.
type Key = (bool, Vec<i64>, i64, i64);

fn key_of(ceil: bool, full: &[i64], divisor: i64) -> Key {
    let (c, coeffs) = full.split_last().expect("a flat row has a constant");
    let mut v = coeffs.to_vec();
    while v.last() == Some(&0) {
        v.pop();
    }
    (ceil, v, *c, divisor)
}

struct Flattener {
    num_inputs: usize,
    /// Identity of each local: (ceil, dividend as a flat row over the
    /// inputs, locals and constant, divisor).
    keys: Vec<Key>,
    cst: IntegerRelation,
}

fn ck(v: Option<i64>) -> Result<i64, FlattenError> {
    v.ok_or(FlattenError::Overflow)
}

/// MLIR's `addLocalFloorDiv`: appends a local `q = dividend floordiv
/// divisor` (`dividend` over the columns before it) with its lower-bound
/// row `-dividend + divisor q + divisor - 1 >= 0`, then its upper-bound row
/// `dividend - divisor q >= 0` (the order MLIR's elimination sees them in);
/// returns the local's column.
pub(super) fn add_local_floordiv(
    rel: &mut IntegerRelation,
    mut dividend: Vec<i64>,
    divisor: i64,
) -> Result<usize, FlattenError> {
    let q = rel.append_vars(VarKind::Local, 1);
    dividend.insert(q, 0);
    let mut lower: Vec<i64> = dividend
        .iter()
        .map(|v| v.checked_neg())
        .collect::<Option<_>>()
        .ok_or(FlattenError::Overflow)?;
    lower[q] = divisor;
    let last = lower.len() - 1;
    lower[last] = ck(lower[last].checked_add(divisor - 1))?;
    let mut upper = dividend;
    upper[q] = -divisor;
    rel.add_inequality(&lower);
    rel.add_inequality(&upper);
    Ok(q)
}

fn gcd(a: u64, b: u64) -> u64 {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Flat {
    fn full(&self, num_locals: usize) -> Vec<i64> {
        // Sized once: a clone of the inputs would grow when the rest is added.
        let mut v = Vec::with_capacity(self.inputs.len() + num_locals + 1);
        v.extend_from_slice(&self.inputs);
        v.extend_from_slice(&self.locals);
        v.extend(std::iter::repeat_n(0, num_locals - self.locals.len()));
        v.push(self.constant);
        v
    }

    fn entries(&self) -> impl Iterator<Item = i64> + '_ {
        self.inputs
            .iter()
            .chain(&self.locals)
            .copied()
            .chain(std::iter::once(self.constant))
    }

    fn is_constant(&self) -> bool {
        self.inputs.iter().chain(&self.locals).all(|&v| v == 0)
    }

    fn scale(&mut self, k: i64) -> Result<(), FlattenError> {
        for v in self.inputs.iter_mut().chain(self.locals.iter_mut()) {
            *v = ck(v.checked_mul(k))?;
        }
        self.constant = ck(self.constant.checked_mul(k))?;
        Ok(())
    }

    fn add(&mut self, o: &Flat) -> Result<(), FlattenError> {
        for (a, b) in self.inputs.iter_mut().zip(&o.inputs) {
            *a = ck(a.checked_add(*b))?;
        }
        if self.locals.len() < o.locals.len() {
            self.locals.resize(o.locals.len(), 0);
        }
        for (a, b) in self.locals.iter_mut().zip(&o.locals) {
            *a = ck(a.checked_add(*b))?;
        }
        self.constant = ck(self.constant.checked_add(o.constant))?;
        Ok(())
    }
}

impl Flattener {
    fn new(num_dims: usize, num_symbols: usize) -> Flattener {
        Flattener {
            num_inputs: num_dims + num_symbols,
            keys: Vec::new(),
            cst: IntegerRelation::new(num_dims, num_symbols),
        }
    }

    fn leaf(&self) -> Flat {
        Flat {
            inputs: vec![0; self.num_inputs],
            locals: Vec::new(),
            constant: 0,
        }
    }

    /// The local for `key` (created with its inequalities when new).
    fn local(&mut self, key: Key, dividend: Vec<i64>) -> Result<usize, FlattenError> {
        if let Some(i) = self.keys.iter().position(|k| *k == key) {
            return Ok(i);
        }
        let divisor = key.3;
        self.keys.push(key);
        // `dividend` is over the columns as they are before the new local.
        debug_assert_eq!(dividend.len(), self.cst.num_cols());
        add_local_floordiv(&mut self.cst, dividend, divisor)?;
        Ok(self.keys.len() - 1)
    }

    fn walk(&mut self, e: &AffineExpr) -> Result<Flat, FlattenError> {
        match e.view() {
            ExprView::Dim(p) => {
                let mut f = self.leaf();
                f.inputs[p as usize] = 1;
                Ok(f)
            }
            ExprView::Symbol(p) => {
                let mut f = self.leaf();
                let nd = self.cst.num_dim_vars();
                f.inputs[nd + p as usize] = 1;
                Ok(f)
            }
            ExprView::Constant(c) => {
                let mut f = self.leaf();
                f.constant = c;
                Ok(f)
            }
            ExprView::Binary(op, l, r) => {
                let mut lhs = self.walk(l)?;
                let rhs = self.walk(r)?;
                match op {
                    BinaryOp::Add => {
                        lhs.add(&rhs)?;
                        Ok(lhs)
                    }
                    BinaryOp::Mul => {
                        if rhs.is_constant() {
                            lhs.scale(rhs.constant)?;
                            Ok(lhs)
                        } else if lhs.is_constant() {
                            let mut rhs = rhs;
                            rhs.scale(lhs.constant)?;
                            Ok(rhs)
                        } else {
                            Err(FlattenError::SemiAffine)
                        }
                    }
                    BinaryOp::Mod => {
                        if !rhs.is_constant() {
                            return Err(FlattenError::SemiAffine);
                        }
                        self.modulo(lhs, rhs.constant)
                    }
                    BinaryOp::FloorDiv | BinaryOp::CeilDiv => {
                        if !rhs.is_constant() {
                            return Err(FlattenError::SemiAffine);
                        }
                        self.div(lhs, rhs.constant, op == BinaryOp::CeilDiv)
                    }
                }
            }
        }
    }

    fn modulo(&mut self, mut lhs: Flat, c: i64) -> Result<Flat, FlattenError> {
        if c <= 0 {
            return Err(FlattenError::BadDivisor);
        }
        if lhs.entries().all(|v| v % c == 0) {
            return Ok(Flat {
                inputs: vec![0; self.num_inputs],
                locals: Vec::new(),
                constant: 0,
            });
        }
        let mut g = c.unsigned_abs();
        for v in lhs.entries() {
            g = gcd(g, v.unsigned_abs());
        }
        let g = g as i64;
        let mut dividend = lhs.clone();
        if g != 1 {
            for v in dividend.inputs.iter_mut().chain(dividend.locals.iter_mut()) {
                *v /= g;
            }
            dividend.constant /= g;
        }
        let divisor = c / g;
        let n = self.keys.len();
        let full = dividend.full(n);
        let at = self.local(key_of(false, &full, divisor), full)?;
        if lhs.locals.len() <= at {
            lhs.locals.resize(at + 1, 0);
        }
        lhs.locals[at] = ck(lhs.locals[at].checked_sub(c))?;
        Ok(lhs)
    }

    fn div(&mut self, mut lhs: Flat, c: i64, ceil: bool) -> Result<Flat, FlattenError> {
        if c <= 0 {
            return Err(FlattenError::BadDivisor);
        }
        let mut g = c.unsigned_abs();
        for v in lhs.entries() {
            g = gcd(g, v.unsigned_abs());
        }
        let g = g as i64;
        if g != 1 {
            for v in lhs.inputs.iter_mut().chain(lhs.locals.iter_mut()) {
                *v /= g;
            }
            lhs.constant /= g;
        }
        let divisor = c / g;
        if divisor == 1 {
            return Ok(lhs);
        }
        let n = self.keys.len();
        let key_row = lhs.full(n);
        let mut dividend = key_row.clone();
        if ceil {
            let last = dividend.len() - 1;
            dividend[last] = ck(dividend[last].checked_add(divisor - 1))?;
        }
        let at = self.local(key_of(ceil, &key_row, divisor), dividend)?;
        let mut f = Flat {
            inputs: vec![0; self.num_inputs],
            locals: vec![0; at + 1],
            constant: 0,
        };
        f.locals[at] = 1;
        Ok(f)
    }
}

/// Flattens `exprs` (over `num_dims` dimensions and `num_symbols` symbols)
/// with one flattener, so that equal divisions share a local.
pub fn flatten_exprs(exprs: &[AffineExpr], num_dims: usize, num_symbols: usize) -> Result<Flattened, FlattenError> {
    let mut f = Flattener::new(num_dims, num_symbols);
    let mut flats = Vec::with_capacity(exprs.len());
    for e in exprs {
        flats.push(f.walk(e)?);
    }
    let n = f.keys.len();
    Ok(Flattened {
        rows: flats.iter().map(|x| x.full(n)).collect(),
        local_cst: f.cst,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mod_and_floordiv_share_a_local() {
        let d0 = AffineExpr::dim(0);
        let exprs = [d0.modulo_const(4), d0.floor_div_const(4), d0.ceil_div_const(4)];
        let f = flatten_exprs(&exprs, 1, 0).unwrap();
        assert_eq!(f.rows[0], vec![1, -4, 0, 0]);
        assert_eq!(f.rows[1], vec![0, 1, 0, 0]);
        assert_eq!(f.rows[2], vec![0, 0, 1, 0]);
        assert_eq!(f.local_cst.num_local_vars(), 2);
        assert_eq!(f.local_cst.num_inequalities(), 4);
        // ceil: (d0 + 3) floordiv 4: lower row -d0 + 4q - 3 + 3 >= 0.
        assert_eq!(f.local_cst.inequality(2), &[-1, 0, 4, 0]);
    }

    #[test]
    fn semi_affine_fails() {
        let e = AffineExpr::dim(0) * AffineExpr::symbol(0);
        assert_eq!(flatten_exprs(&[e], 1, 1).err(), Some(FlattenError::SemiAffine));
    }
}
