//! Substitution in expressions: replacing dimensions, symbols or
//! subexpressions, shifting positions, composing with a map.

use crate::expr::{AffineExpr, ExprView};
use crate::map::AffineMap;

impl AffineExpr {
    /// Replaces dimension `i` by `dims[i]` and symbol `j` by `symbols[j]`
    /// (positions past the end of a slice are left alone) and rebuilds the
    /// tree with the construction-time simplifications, as MLIR's
    /// `replaceDimsAndSymbols`. Unchanged subtrees are shared, not copied.
    pub fn replace_dims_and_symbols(&self, dims: &[AffineExpr], symbols: &[AffineExpr]) -> AffineExpr {
        self.rebuild(&mut |e| match e.view() {
            ExprView::Dim(p) => dims.get(p as usize).cloned(),
            ExprView::Symbol(p) => symbols.get(p as usize).cloned(),
            _ => None,
        })
    }

    /// Replaces dimension `i` by `dims[i]` (see
    /// [`Self::replace_dims_and_symbols`]).
    pub fn replace_dims(&self, dims: &[AffineExpr]) -> AffineExpr {
        self.replace_dims_and_symbols(dims, &[])
    }

    /// Replaces symbol `j` by `symbols[j]` (see
    /// [`Self::replace_dims_and_symbols`]).
    pub fn replace_symbols(&self, symbols: &[AffineExpr]) -> AffineExpr {
        self.replace_dims_and_symbols(&[], symbols)
    }

    /// Replaces every occurrence of the subexpression `from` by `to`
    /// (outermost matches first) and rebuilds with the construction-time
    /// simplifications, as MLIR's sparse `replace`.
    pub fn replace(&self, from: &AffineExpr, to: &AffineExpr) -> AffineExpr {
        self.rebuild(&mut |e| (e == from).then(|| to.clone()))
    }

    /// Rebuilds the tree bottom-up; `f` may replace a node (then its
    /// children are not visited).
    fn rebuild(&self, f: &mut impl FnMut(&AffineExpr) -> Option<AffineExpr>) -> AffineExpr {
        self.rebuild_marking_changes(f).0
    }

    /// [`Self::rebuild`], also telling whether the result differs from this
    /// tree. A subtree that does not is kept as it is (as MLIR, which
    /// returns the very same expression); a changed node is built again
    /// with the construction-time simplifications.
    fn rebuild_marking_changes(&self, f: &mut impl FnMut(&AffineExpr) -> Option<AffineExpr>) -> (AffineExpr, bool) {
        if let Some(r) = f(self) {
            let same = r.ptr_eq(self) || (r.depth() == 1 && r == *self);
            return (r, !same);
        }
        match self.view() {
            ExprView::Binary(op, l, r) => {
                let (nl, l_changed) = l.rebuild_marking_changes(f);
                let (nr, r_changed) = r.rebuild_marking_changes(f);
                if l_changed || r_changed {
                    (AffineExpr::binary(op, &nl, &nr), true)
                } else {
                    (self.clone(), false)
                }
            }
            // Leaves are inline words (or, for huge constants, a node).
            ExprView::Dim(_) | ExprView::Symbol(_) | ExprView::Constant(_) => (self.clone(), false),
        }
    }

    /// Renumbers dimensions `offset..num_dims` to `offset + shift..`, as
    /// MLIR's `shiftDims`.
    pub fn shift_dims(&self, num_dims: u32, shift: u32, offset: u32) -> AffineExpr {
        let dims: Vec<AffineExpr> = (0..num_dims)
            .map(|i| AffineExpr::dim(if i < offset { i } else { i + shift }))
            .collect();
        self.replace_dims(&dims)
    }

    /// Renumbers symbols `offset..num_symbols` to `offset + shift..`, as
    /// MLIR's `shiftSymbols`.
    pub fn shift_symbols(&self, num_symbols: u32, shift: u32, offset: u32) -> AffineExpr {
        let symbols: Vec<AffineExpr> = (0..num_symbols)
            .map(|i| AffineExpr::symbol(if i < offset { i } else { i + shift }))
            .collect();
        self.replace_symbols(&symbols)
    }

    /// Substitutes `map`'s results for this expression's dimensions (MLIR's
    /// `AffineExpr::compose`). Symbols are left as they are.
    pub fn compose(&self, map: &AffineMap) -> AffineExpr {
        self.replace_dims(map.results())
    }
}
