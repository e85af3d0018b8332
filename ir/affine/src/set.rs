//! Integer sets: `(d0, ..)[s0, ..] : (expr >= 0, expr == 0, ..)`.

use std::fmt;

use crate::expr::AffineExpr;
use crate::simplify::simplify_affine_expr;

/// A set of integer points given by affine constraints, as MLIR's
/// `IntegerSet`: constraint `i` is `constraints[i] == 0` if `eq_flags[i]`,
/// else `constraints[i] >= 0`.
///
/// Equality and hashing are structural, so sets can be uniqued.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IntegerSet {
    num_dims: u32,
    num_symbols: u32,
    constraints: Vec<AffineExpr>,
    eq_flags: Vec<bool>,
}

impl IntegerSet {
    /// The set `(dims)[symbols] : (constraints)`. `constraints` and
    /// `eq_flags` must have the same length (asserted) and the constraints
    /// must only use dimensions and symbols within range (debug-asserted).
    pub fn new(num_dims: u32, num_symbols: u32, constraints: Vec<AffineExpr>, eq_flags: Vec<bool>) -> IntegerSet {
        assert_eq!(constraints.len(), eq_flags.len(), "one eq flag per constraint");
        debug_assert!(
            constraints
                .iter()
                .all(|e| e.num_dims_used() <= num_dims && e.num_symbols_used() <= num_symbols),
            "integer set constraint uses an out-of-range dimension or symbol"
        );
        IntegerSet {
            num_dims,
            num_symbols,
            constraints,
            eq_flags,
        }
    }

    /// The canonical empty set `(dims)[symbols] : (1 == 0)`, as MLIR's
    /// `IntegerSet::getEmptySet`.
    pub fn empty_set(num_dims: u32, num_symbols: u32) -> IntegerSet {
        IntegerSet::new(num_dims, num_symbols, vec![AffineExpr::constant(1)], vec![true])
    }

    /// True if this is the canonical empty set `(..) : (1 == 0)` (MLIR's
    /// `isEmptyIntegerSet`; other unsatisfiable sets are not detected).
    pub fn is_empty_integer_set(&self) -> bool {
        self.eq_flags == [true] && self.constraints[0].as_constant() == Some(1)
    }

    /// The number of dimensions.
    #[inline]
    pub fn num_dims(&self) -> u32 {
        self.num_dims
    }

    /// The number of symbols.
    #[inline]
    pub fn num_symbols(&self) -> u32 {
        self.num_symbols
    }

    /// The number of inputs: dimensions plus symbols.
    #[inline]
    pub fn num_inputs(&self) -> u32 {
        self.num_dims + self.num_symbols
    }

    /// The number of constraints.
    #[inline]
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// The constraint expressions (each compared with 0).
    #[inline]
    pub fn constraints(&self) -> &[AffineExpr] {
        &self.constraints
    }

    /// Constraint `i`'s expression. Panics if out of range.
    #[inline]
    pub fn constraint(&self, i: usize) -> &AffineExpr {
        &self.constraints[i]
    }

    /// For each constraint, true for `== 0` and false for `>= 0`.
    #[inline]
    pub fn eq_flags(&self) -> &[bool] {
        &self.eq_flags
    }

    /// True if constraint `i` is an equality. Panics if out of range.
    #[inline]
    pub fn is_eq(&self, i: usize) -> bool {
        self.eq_flags[i]
    }

    /// The number of equality constraints.
    pub fn num_equalities(&self) -> usize {
        self.eq_flags.iter().filter(|&&e| e).count()
    }

    /// The number of inequality constraints.
    pub fn num_inequalities(&self) -> usize {
        self.eq_flags.iter().filter(|&&e| !e).count()
    }

    /// Whether the point satisfies every constraint. `None` if a constraint
    /// cannot be evaluated (see [`AffineExpr::evaluate`]) or if fewer values
    /// than dimensions or symbols are given.
    pub fn contains(&self, dims: &[i64], symbols: &[i64]) -> Option<bool> {
        if dims.len() < self.num_dims as usize || symbols.len() < self.num_symbols as usize {
            return None;
        }
        let mut all = true;
        for (e, &eq) in self.constraints.iter().zip(&self.eq_flags) {
            let v = e.evaluate(dims, symbols)?;
            all &= if eq { v == 0 } else { v >= 0 };
        }
        Some(all)
    }

    /// Replaces dimensions and symbols in every constraint (see
    /// [`AffineExpr::replace_dims_and_symbols`]) and gives the new set
    /// `new_num_dims` dimensions and `new_num_symbols` symbols.
    pub fn replace_dims_and_symbols(
        &self,
        dims: &[AffineExpr],
        symbols: &[AffineExpr],
        new_num_dims: u32,
        new_num_symbols: u32,
    ) -> IntegerSet {
        IntegerSet::new(
            new_num_dims,
            new_num_symbols,
            self.constraints
                .iter()
                .map(|e| e.replace_dims_and_symbols(dims, symbols))
                .collect(),
            self.eq_flags.clone(),
        )
    }

    /// Simplifies each constraint expression with [`simplify_affine_expr`].
    ///
    /// This is not MLIR's `simplifyIntegerSet` (used by
    /// `-affine-simplify-structures`), which also removes redundant
    /// constraints and detects emptiness with a Fourier-Motzkin based
    /// constraint system.
    pub fn simplify_constraint_exprs(&self) -> IntegerSet {
        IntegerSet {
            num_dims: self.num_dims,
            num_symbols: self.num_symbols,
            constraints: self
                .constraints
                .iter()
                .map(|e| simplify_affine_expr(e, self.num_dims, self.num_symbols))
                .collect(),
            eq_flags: self.eq_flags.clone(),
        }
    }
}

impl fmt::Debug for IntegerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IntegerSet({self})")
    }
}
