//! A constraint system whose dimensions and symbols are SSA values (MLIR's
//! `FlatAffineValueConstraints`): an [`IntegerRelation`] plus the value of
//! each non-local column, and the operations that build iteration domains
//! and access relations in MLIR's order of columns and rows.

use super::flatten::{add_local_floordiv, flatten_exprs, FlattenError};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::Value;
use lf_presburger::{IntegerRelation, VarKind};

/// Which bound a row adds (MLIR's `BoundType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Lower,
    Upper,
    Eq,
}

/// Why a system could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BuildError {
    /// An expression that is not affine (or divides by a non-positive
    /// constant, or overflows).
    Flatten(FlattenError),
    /// Too many variables or constraints (the documented limits).
    TooLarge(String),
    /// Something the analysis does not model (with why).
    Unsupported(&'static str),
}

impl From<FlattenError> for BuildError {
    fn from(e: FlattenError) -> BuildError {
        BuildError::Flatten(e)
    }
}

impl From<lf_presburger::Error> for BuildError {
    fn from(e: lf_presburger::Error) -> BuildError {
        BuildError::TooLarge(e.to_string())
    }
}

/// A system with values attached to its dimensions and symbols.
#[derive(Clone, Debug)]
pub(crate) struct ValueCst {
    pub rel: IntegerRelation,
    /// One entry per non-local column (domain, range, symbols).
    pub ids: Vec<Option<Value>>,
}

impl ValueCst {
    /// The set of dimensions `dims` (no constraint).
    pub fn new_set(dims: &[Value]) -> ValueCst {
        ValueCst {
            rel: IntegerRelation::new(dims.len(), 0),
            ids: dims.iter().map(|&v| Some(v)).collect(),
        }
    }

    pub fn num_dims(&self) -> usize {
        self.rel.num_dim_vars()
    }

    pub fn num_symbols(&self) -> usize {
        self.rel.num_symbol_vars()
    }

    /// Inserts non-local variables of `kind` at `pos` among them with the
    /// given values; returns the column of the first.
    pub fn insert_var(&mut self, kind: VarKind, pos: usize, ids: &[Option<Value>]) -> usize {
        debug_assert!(kind != VarKind::Local);
        let col = self.rel.insert_vars(kind, pos, ids.len());
        self.ids.splice(col..col, ids.iter().copied());
        col
    }

    /// The first non-local column at or after `from` holding `v`.
    pub fn find_var(&self, v: Value, from: usize) -> Option<usize> {
        (from..self.ids.len()).find(|&i| self.ids[i] == Some(v))
    }

    /// Swaps two columns (and their values when both are non-local).
    pub fn swap_var(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        self.rel.swap_vars(a, b);
        let n = self.ids.len();
        if a < n && b < n {
            self.ids.swap(a, b);
        }
    }

    /// MLIR's `addBound(type, pos, value)`.
    pub fn add_const_bound(&mut self, kind: Bound, pos: usize, value: i64) -> Result<(), BuildError> {
        let mut row = vec![0; self.rel.num_cols()];
        let last = row.len() - 1;
        let neg = value.checked_neg().ok_or(FlattenError::Overflow)?;
        match kind {
            Bound::Eq => {
                row[pos] = 1;
                row[last] = neg;
                self.rel.add_equality(&row);
            }
            Bound::Lower => {
                row[pos] = 1;
                row[last] = neg;
                self.rel.add_inequality(&row);
            }
            Bound::Upper => {
                row[pos] = -1;
                row[last] = value;
                self.rel.add_inequality(&row);
            }
        }
        Ok(())
    }

    /// MLIR's `addLocalFloorDiv`: a local `q = dividend floordiv divisor`
    /// with its lower-bound row, then its upper-bound row; returns its column.
    pub fn add_local_floordiv(&mut self, dividend: &[i64], divisor: i64) -> Result<usize, BuildError> {
        Ok(add_local_floordiv(&mut self.rel, dividend.to_vec(), divisor)?)
    }

    /// MLIR's `FlatLinearConstraints::addBound(type, pos, map)` for a map
    /// whose inputs are the columns `cols` of this system: the map's
    /// locals are inserted before the existing ones with their defining
    /// rows, then one row per result (`Upper` bounds are exclusive).
    pub fn add_map_bound(
        &mut self,
        kind: Bound,
        pos: usize,
        map: &AffineMap,
        cols: &[usize],
    ) -> Result<(), BuildError> {
        let nd = map.num_dims() as usize;
        let ns = map.num_symbols() as usize;
        let f = flatten_exprs(map.results(), nd, ns)?;
        let ni = nd + ns;
        let new_locals = f.local_cst.num_local_vars();
        if new_locals > 0 {
            self.rel.insert_vars(VarKind::Local, 0, new_locals);
        }
        let local0 = self.rel.var_offset(VarKind::Local);
        let width = self.rel.num_cols();
        let scatter = |src: &[i64]| -> Vec<i64> {
            let mut row = vec![0; width];
            for j in 0..ni {
                row[cols[j]] = src[j];
            }
            row[local0..local0 + new_locals].copy_from_slice(&src[ni..ni + new_locals]);
            row[width - 1] = src[src.len() - 1];
            row
        };
        for r in f.local_cst.inequalities() {
            self.rel.add_inequality(&scatter(r));
        }
        let lower = kind != Bound::Upper;
        for flat in &f.rows {
            let mut row = scatter(flat);
            if row[pos] != 0 {
                continue;
            }
            let last = width - 1;
            for (j, v) in row.iter_mut().enumerate() {
                if lower && j != last {
                    *v = v.checked_neg().ok_or(FlattenError::Overflow)?;
                }
            }
            row[pos] = if lower { 1 } else { -1 };
            row[last] = if lower {
                flat[flat.len() - 1].checked_neg().ok_or(FlattenError::Overflow)?
            } else {
                flat[flat.len() - 1].checked_sub(1).ok_or(FlattenError::Overflow)?
            };
            if kind == Bound::Eq {
                self.rel.add_equality(&row);
            } else {
                self.rel.add_inequality(&row);
            }
        }
        Ok(())
    }

    /// The system of an integer set over `operands` (MLIR's
    /// `FlatAffineValueConstraints(set, operands)`): one row per constraint,
    /// then the locals' defining rows.
    pub fn from_set(
        num_dims: usize,
        num_symbols: usize,
        constraints: &[AffineExpr],
        eq_flags: &[bool],
        operands: &[Value],
    ) -> Result<ValueCst, BuildError> {
        let f = flatten_exprs(constraints, num_dims, num_symbols)?;
        let mut rel = IntegerRelation::new(num_dims, num_symbols);
        rel.append_vars(VarKind::Local, f.local_cst.num_local_vars());
        for (row, &eq) in f.rows.iter().zip(eq_flags) {
            if eq {
                rel.add_equality(row);
            } else {
                rel.add_inequality(row);
            }
        }
        for r in f.local_cst.inequalities() {
            rel.add_inequality(r);
        }
        Ok(ValueCst {
            rel,
            ids: operands.iter().map(|&v| Some(v)).collect(),
        })
    }

    /// Appends `other`'s rows (inequalities, then equalities); the spaces
    /// must be aligned.
    pub fn append(&mut self, other: &IntegerRelation) {
        self.rel
            .reserve_constraints(other.num_inequalities(), other.num_equalities());
        for r in other.inequalities() {
            self.rel.add_inequality(r);
        }
        for r in other.equalities() {
            self.rel.add_equality(r);
        }
    }

    /// MLIR's `mergeSymbolVars` / `mergeAndAlignSymbols`: `other`'s symbols
    /// are reordered (and missing ones inserted) to follow this system's,
    /// then `other`'s remaining symbols are appended to this system's.
    pub fn merge_symbols(&mut self, other: &mut ValueCst) {
        let my_syms: Vec<Option<Value>> = self.ids[self.num_dims()..].to_vec();
        let od = other.num_dims();
        for (s, v) in (od..).zip(my_syms) {
            let found = v
                .and_then(|v| other.find_var(v, s))
                .filter(|&l| l < od + other.num_symbols());
            match found {
                Some(l) => other.swap_var(s, l),
                None => {
                    other.insert_var(VarKind::Symbol, s - od, &[v]);
                }
            }
        }
        let start = od + self.num_symbols();
        let extra: Vec<Option<Value>> = other.ids[start..od + other.num_symbols()].to_vec();
        for v in extra {
            let n = self.num_symbols();
            self.insert_var(VarKind::Symbol, n, &[v]);
        }
    }

    /// MLIR's `mergeAndAlignVars(0, self, other)` for two sets: dimensions,
    /// then symbols, then locals aligned.
    pub fn merge_and_align_vars(&mut self, other: &mut ValueCst) -> Result<(), BuildError> {
        let my_dims: Vec<Option<Value>> = self.ids[..self.num_dims()].to_vec();
        for (d, v) in my_dims.into_iter().enumerate() {
            match v.and_then(|v| other.find_var(v, d)) {
                Some(l) if l < other.num_dims() => other.swap_var(d, l),
                Some(_) => return Err(BuildError::Unsupported("a loop variable used as a symbol")),
                None => {
                    other.insert_var(VarKind::Range, d, &[v]);
                }
            }
        }
        for t in self.num_dims()..other.num_dims() {
            let v = other.ids[t];
            let n = self.num_dims();
            self.insert_var(VarKind::Range, n, &[v]);
        }
        self.merge_symbols(other);
        self.rel.merge_local_vars_fm(&mut other.rel)?;
        Ok(())
    }
}
