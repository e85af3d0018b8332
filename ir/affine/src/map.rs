//! Affine maps: `(d0, ..)[s0, ..] -> (expr, ..)`.

use std::fmt;

use crate::expr::AffineExpr;
use crate::simplify::simplify_affine_expr;

/// An affine map from `num_dims` dimensions and `num_symbols` symbols to a
/// list of result expressions, as MLIR's `AffineMap`.
///
/// Results may only use dimensions `< num_dims` and symbols `< num_symbols`
/// (checked in debug builds by [`AffineMap::new`]). Equality and hashing are
/// structural, so maps can be uniqued.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct AffineMap {
    num_dims: u32,
    num_symbols: u32,
    results: Vec<AffineExpr>,
}

impl AffineMap {
    /// The map `(d0 .. d<num_dims-1>)[s0 ..] -> (results)`.
    ///
    /// The results must only use dimensions and symbols within range
    /// (debug-asserted).
    pub fn new(num_dims: u32, num_symbols: u32, results: Vec<AffineExpr>) -> AffineMap {
        debug_assert!(
            results
                .iter()
                .all(|e| e.num_dims_used() <= num_dims && e.num_symbols_used() <= num_symbols),
            "affine map result uses an out-of-range dimension or symbol"
        );
        AffineMap {
            num_dims,
            num_symbols,
            results,
        }
    }

    /// The map `() -> ()`.
    pub fn empty() -> AffineMap {
        AffineMap::new(0, 0, Vec::new())
    }

    /// The map `(d0 .. d<n-1>) -> ()` with no results.
    pub fn get_empty_with_inputs(num_dims: u32, num_symbols: u32) -> AffineMap {
        AffineMap::new(num_dims, num_symbols, Vec::new())
    }

    /// The identity `(d0, .., d<n-1>) -> (d0, .., d<n-1>)`.
    pub fn get_multi_dim_identity(num_dims: u32) -> AffineMap {
        AffineMap::new(num_dims, 0, (0..num_dims).map(AffineExpr::dim).collect())
    }

    /// The minor identity `(d0, .., d<dims-1>) -> (d<dims-results>, .., d<dims-1>)`
    /// (the last `num_results` dimensions). Requires `num_results <= num_dims`.
    pub fn get_minor_identity(num_dims: u32, num_results: u32) -> AffineMap {
        assert!(num_results <= num_dims, "minor identity needs results <= dims");
        AffineMap::new(
            num_dims,
            0,
            (num_dims - num_results..num_dims).map(AffineExpr::dim).collect(),
        )
    }

    /// The constant map `() -> (value)`.
    pub fn get_constant_map(value: i64) -> AffineMap {
        AffineMap::new(0, 0, vec![AffineExpr::constant(value)])
    }

    /// The map `() -> (v0, v1, ..)` with constant results.
    pub fn get_multi_constant_map(values: &[i64]) -> AffineMap {
        AffineMap::new(0, 0, values.iter().map(|&v| AffineExpr::constant(v)).collect())
    }

    /// The permutation map `(d0, .., d<n-1>) -> (d<p0>, d<p1>, ..)`, where
    /// `n` is `permutation.len()`.
    pub fn get_permutation_map(permutation: &[u32]) -> AffineMap {
        let n = u32::try_from(permutation.len()).unwrap_or(u32::MAX);
        AffineMap::new(n, 0, permutation.iter().map(|&p| AffineExpr::dim(p)).collect())
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

    /// The number of results.
    #[inline]
    pub fn num_results(&self) -> usize {
        self.results.len()
    }

    /// The result expressions.
    #[inline]
    pub fn results(&self) -> &[AffineExpr] {
        &self.results
    }

    /// Result `i`. Panics if out of range.
    #[inline]
    pub fn result(&self, i: usize) -> &AffineExpr {
        &self.results[i]
    }

    /// Consumes the map, returning its result expressions.
    pub fn into_results(self) -> Vec<AffineExpr> {
        self.results
    }

    /// True for `() -> ()` (no dimensions, symbols or results), as MLIR's
    /// `isEmpty`.
    pub fn is_empty(&self) -> bool {
        self.num_dims == 0 && self.num_symbols == 0 && self.results.is_empty()
    }

    /// True if the map is `(d0, .., d<n-1>) -> (d0, .., d<n-1>)`, with any
    /// number of symbols (MLIR's `isIdentity`).
    pub fn is_identity(&self) -> bool {
        self.results.len() == self.num_dims as usize
            && self
                .results
                .iter()
                .enumerate()
                .all(|(i, e)| e.as_dim() == Some(i as u32))
    }

    /// True if the results are the last dimensions in order, e.g.
    /// `(d0, d1, d2) -> (d1, d2)` (MLIR's `isMinorIdentity`).
    pub fn is_minor_identity(&self) -> bool {
        let n = self.results.len();
        let d = self.num_dims as usize;
        n <= d
            && self
                .results
                .iter()
                .enumerate()
                .all(|(i, e)| e.as_dim() == Some((d - n + i) as u32))
    }

    /// True if every result is a constant (MLIR's `isConstant`); true for a
    /// map with no results.
    pub fn is_constant(&self) -> bool {
        self.results.iter().all(AffineExpr::is_constant)
    }

    /// True if the map has exactly one result and it is a constant.
    pub fn is_single_constant(&self) -> bool {
        self.results.len() == 1 && self.results[0].is_constant()
    }

    /// The value of the single constant result, if [`Self::is_single_constant`].
    pub fn single_constant_result(&self) -> Option<i64> {
        match self.results.as_slice() {
            [e] => e.as_constant(),
            _ => None,
        }
    }

    /// The constant results, if every result is a constant.
    pub fn constant_results(&self) -> Option<Vec<i64>> {
        self.results.iter().map(AffineExpr::as_constant).collect()
    }

    /// True if every result is a pure affine expression.
    pub fn is_pure_affine(&self) -> bool {
        self.results.iter().all(AffineExpr::is_pure_affine)
    }

    /// True if no result uses a dimension.
    pub fn is_symbolic_or_constant(&self) -> bool {
        self.results.iter().all(AffineExpr::is_symbolic_or_constant)
    }

    /// The dimension position of result `i` if it is a plain dimension.
    pub fn dim_position(&self, i: usize) -> Option<u32> {
        self.results.get(i).and_then(AffineExpr::as_dim)
    }

    /// True if some result uses dimension `pos`.
    pub fn is_function_of_dim(&self, pos: u32) -> bool {
        self.results.iter().any(|e| e.is_function_of_dim(pos))
    }

    /// True if some result uses symbol `pos`.
    pub fn is_function_of_symbol(&self, pos: u32) -> bool {
        self.results.iter().any(|e| e.is_function_of_symbol(pos))
    }

    /// For each dimension, whether some result uses it.
    pub fn used_dims(&self) -> Vec<bool> {
        let mut used = vec![false; self.num_dims as usize];
        for e in &self.results {
            e.mark_used_dims(&mut used);
        }
        used
    }

    /// For each symbol, whether some result uses it.
    pub fn used_symbols(&self) -> Vec<bool> {
        let mut used = vec![false; self.num_symbols as usize];
        for e in &self.results {
            e.mark_used_symbols(&mut used);
        }
        used
    }

    /// True if the results are distinct dimensions, one per input
    /// dimension, and there are no symbols (MLIR's `isPermutation`).
    pub fn is_permutation(&self) -> bool {
        self.num_symbols == 0 && self.results.len() == self.num_dims as usize && self.is_projected_permutation()
    }

    /// True if every result is a distinct dimension and there are no
    /// symbols (MLIR's `isProjectedPermutation` without broadcasts).
    pub fn is_projected_permutation(&self) -> bool {
        if self.num_symbols != 0 || self.results.len() > self.num_dims as usize {
            return false;
        }
        let mut seen = vec![false; self.num_dims as usize];
        self.results
            .iter()
            .all(|e| match e.as_dim().and_then(|p| seen.get_mut(p as usize)) {
                Some(slot) => !std::mem::replace(slot, true),
                None => false,
            })
    }

    /// The map with only the results at `positions`, in that order (MLIR's
    /// `getSubMap`). Panics if a position is out of range.
    pub fn get_sub_map(&self, positions: &[usize]) -> AffineMap {
        AffineMap::new(
            self.num_dims,
            self.num_symbols,
            positions.iter().map(|&i| self.results[i].clone()).collect(),
        )
    }

    /// The map without result `pos` (MLIR's `dropResult`). Panics if out of
    /// range.
    pub fn drop_result(&self, pos: usize) -> AffineMap {
        let mut results = self.results.clone();
        results.remove(pos);
        AffineMap::new(self.num_dims, self.num_symbols, results)
    }

    /// Replaces dimension `i` by `dims[i]` and symbol `j` by `symbols[j]` in
    /// every result (positions past the slices are kept), re-applying the
    /// construction-time simplifications, and gives the new map
    /// `new_num_dims` dimensions and `new_num_symbols` symbols (MLIR's
    /// `AffineMap::replaceDimsAndSymbols`).
    pub fn replace_dims_and_symbols(
        &self,
        dims: &[AffineExpr],
        symbols: &[AffineExpr],
        new_num_dims: u32,
        new_num_symbols: u32,
    ) -> AffineMap {
        AffineMap::new(
            new_num_dims,
            new_num_symbols,
            self.results
                .iter()
                .map(|e| e.replace_dims_and_symbols(dims, symbols))
                .collect(),
        )
    }

    /// Renumbers dimensions `offset..` to `offset + shift..` and adds `shift`
    /// dimensions (MLIR's `shiftDims`). Requires `offset <= num_dims`.
    pub fn shift_dims(&self, shift: u32, offset: u32) -> AffineMap {
        AffineMap::new(
            self.num_dims + shift,
            self.num_symbols,
            self.results
                .iter()
                .map(|e| e.shift_dims(self.num_dims, shift, offset))
                .collect(),
        )
    }

    /// Renumbers symbols `offset..` to `offset + shift..` and adds `shift`
    /// symbols (MLIR's `shiftSymbols`). Requires `offset <= num_symbols`.
    pub fn shift_symbols(&self, shift: u32, offset: u32) -> AffineMap {
        AffineMap::new(
            self.num_dims,
            self.num_symbols + shift,
            self.results
                .iter()
                .map(|e| e.shift_symbols(self.num_symbols, shift, offset))
                .collect(),
        )
    }

    /// The composition `self ∘ other`: `other`'s results are substituted for
    /// `self`'s dimensions, as MLIR's `AffineMap::compose`. The result has
    /// `other`'s dimensions and `self.num_symbols + other.num_symbols`
    /// symbols: `self`'s symbols first, then `other`'s (shifted).
    ///
    /// Requires `self.num_dims() == other.num_results()` (asserted).
    ///
    /// ```
    /// use lf_affine::parse_affine_map;
    /// let f = parse_affine_map("(d0, d1)[s0] -> (d0 + d1 + s0)").unwrap();
    /// let g = parse_affine_map("(d0)[s0] -> (d0 * 2, s0)").unwrap();
    /// assert_eq!(f.compose(&g).to_string(), "(d0)[s0, s1] -> (d0 * 2 + s1 + s0)");
    /// ```
    pub fn compose(&self, other: &AffineMap) -> AffineMap {
        assert_eq!(
            self.num_dims as usize,
            other.results.len(),
            "compose: number of dims of the outer map must equal the number of results of the inner map"
        );
        let num_dims = other.num_dims;
        let num_symbols = self.num_symbols + other.num_symbols;
        let dims: Vec<AffineExpr> = (0..num_dims).map(AffineExpr::dim).collect();
        let symbols: Vec<AffineExpr> = (self.num_symbols..num_symbols).map(AffineExpr::symbol).collect();
        let inner = other.replace_dims_and_symbols(&dims, &symbols, num_dims, num_symbols);
        AffineMap::new(
            num_dims,
            num_symbols,
            self.results
                .iter()
                .map(|e| e.replace_dims_and_symbols(inner.results(), &[]))
                .collect(),
        )
    }

    /// Simplifies every result with [`simplify_affine_expr`] (MLIR's
    /// `simplifyAffineMap`).
    pub fn simplify(&self) -> AffineMap {
        AffineMap::new(
            self.num_dims,
            self.num_symbols,
            self.results
                .iter()
                .map(|e| simplify_affine_expr(e, self.num_dims, self.num_symbols))
                .collect(),
        )
    }

    /// Evaluates every result; `None` if any result fails (see
    /// [`AffineExpr::evaluate`]) or if fewer values than dimensions or
    /// symbols are given.
    pub fn evaluate(&self, dims: &[i64], symbols: &[i64]) -> Option<Vec<i64>> {
        if dims.len() < self.num_dims as usize || symbols.len() < self.num_symbols as usize {
            return None;
        }
        self.results.iter().map(|e| e.evaluate(dims, symbols)).collect()
    }

    /// Substitutes the given constant values for the dimensions and symbols
    /// and folds with the construction-time rules; the result keeps the
    /// map's dimension and symbol counts. Unlike [`Self::evaluate`], results
    /// that cannot be folded (division by zero, overflow) are kept as
    /// expressions.
    pub fn partial_constant_fold(&self, dims: &[Option<i64>], symbols: &[Option<i64>]) -> AffineMap {
        let sub = |v: &[Option<i64>], n: u32, mk: fn(u32) -> AffineExpr| -> Vec<AffineExpr> {
            (0..n)
                .map(|i| match v.get(i as usize).copied().flatten() {
                    Some(c) => AffineExpr::constant(c),
                    None => mk(i),
                })
                .collect()
        };
        let d = sub(dims, self.num_dims, AffineExpr::dim);
        let s = sub(symbols, self.num_symbols, AffineExpr::symbol);
        self.replace_dims_and_symbols(&d, &s, self.num_dims, self.num_symbols)
    }
}

impl fmt::Debug for AffineMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AffineMap({self})")
    }
}
