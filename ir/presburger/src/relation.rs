//! [`IntegerRelation`]: the constraint system, its variables and how to build
//! and rearrange it.

use crate::error::{Result, OVERFLOW};
use crate::matrix::Matrix;

/// The kind of a variable (a column) of an [`IntegerRelation`].
///
/// Columns are ordered by kind: domain, range, symbols, locals, then the
/// constant column. A set is a relation without domain variables: its
/// dimensions are the range variables ([`VarKind::SET_DIM`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarKind {
    /// An input dimension of a relation.
    Domain,
    /// An output dimension of a relation; the dimensions of a set.
    Range,
    /// A symbol (a parameter): fixed but unknown, as MLIR's symbols.
    Symbol,
    /// A local variable, existentially quantified: the system describes the
    /// points of the other variables for which some integer locals satisfy
    /// the constraints. Locals come from `floordiv`, `mod` and `ceildiv`
    /// ([`IntegerRelation::add_local_floordiv`]) and from projection.
    Local,
}

impl VarKind {
    /// The kind of a set's dimensions.
    pub const SET_DIM: VarKind = VarKind::Range;

    const ALL: [VarKind; 4] = [VarKind::Domain, VarKind::Range, VarKind::Symbol, VarKind::Local];
}

/// Which bound [`IntegerRelation::add_bound`] adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoundType {
    /// `var >= value`.
    Lower,
    /// `var <= value`.
    Upper,
    /// `var == value`.
    Eq,
}

/// A local variable known to equal `floor(dividend . columns / divisor)`.
///
/// `dividend` has one entry per column of the system (constant last) and may
/// only use columns before the local's own; `divisor > 0`. The defining
/// inequalities `0 <= dividend - divisor * local <= divisor - 1` are among
/// the system's constraints; this record only names them, for printing,
/// for [`IntegerRelation::is_subset_of`] and for reading a local's value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Division {
    /// The coefficients of the dividend, one per column (constant last).
    pub dividend: Vec<i64>,
    /// The divisor, positive.
    pub divisor: i64,
}

/// A system of linear equalities (`row . (vars, 1) == 0`) and inequalities
/// (`row . (vars, 1) >= 0`) with integer coefficients over integer
/// variables of four kinds ([`VarKind`]).
///
/// It describes the set (or relation) of integer points of the domain, range
/// and symbol variables for which integer values of the locals exist that
/// satisfy every constraint. Coefficients are stored as `i64`; all
/// arithmetic on them is checked (in `i128` where it combines rows), so a
/// query either answers exactly or returns an [`Error`](crate::Error).
///
/// The type is plain data: `Send + Sync`, no interior mutability, no global
/// state; every query is deterministic.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntegerRelation {
    pub(crate) num_domain: usize,
    pub(crate) num_range: usize,
    pub(crate) num_symbols: usize,
    pub(crate) num_locals: usize,
    pub(crate) eqs: Matrix,
    pub(crate) ineqs: Matrix,
    /// One entry per local.
    pub(crate) divs: Vec<Option<Division>>,
}

impl IntegerRelation {
    /// The universe set of `num_dims` dimensions (range variables) and
    /// `num_symbols` symbols, without constraints.
    pub fn new(num_dims: usize, num_symbols: usize) -> IntegerRelation {
        IntegerRelation::new_relation(0, num_dims, num_symbols)
    }

    /// The universe relation `[num_domain] -> [num_range]` with
    /// `num_symbols` symbols, without constraints.
    pub fn new_relation(num_domain: usize, num_range: usize, num_symbols: usize) -> IntegerRelation {
        let cols = num_domain + num_range + num_symbols + 1;
        IntegerRelation {
            num_domain,
            num_range,
            num_symbols,
            num_locals: 0,
            eqs: Matrix::new(cols),
            ineqs: Matrix::new(cols),
            divs: Vec::new(),
        }
    }

    // ------------------------------------------------------------ the space

    /// The number of variables of `kind`.
    pub fn num_vars_of(&self, kind: VarKind) -> usize {
        match kind {
            VarKind::Domain => self.num_domain,
            VarKind::Range => self.num_range,
            VarKind::Symbol => self.num_symbols,
            VarKind::Local => self.num_locals,
        }
    }

    /// The column of the first variable of `kind`.
    pub fn var_offset(&self, kind: VarKind) -> usize {
        match kind {
            VarKind::Domain => 0,
            VarKind::Range => self.num_domain,
            VarKind::Symbol => self.num_domain + self.num_range,
            VarKind::Local => self.num_domain + self.num_range + self.num_symbols,
        }
    }

    /// The kind of the variable in column `pos` (panics past the variables).
    pub fn var_kind(&self, pos: usize) -> VarKind {
        for kind in VarKind::ALL {
            if pos < self.var_offset(kind) + self.num_vars_of(kind) {
                return kind;
            }
        }
        panic!("variable {pos} out of range ({} variables)", self.num_vars());
    }

    /// The number of domain variables.
    #[inline]
    pub fn num_domain_vars(&self) -> usize {
        self.num_domain
    }

    /// The number of range variables (a set's dimensions).
    #[inline]
    pub fn num_range_vars(&self) -> usize {
        self.num_range
    }

    /// The number of dimensions: domain plus range variables.
    #[inline]
    pub fn num_dim_vars(&self) -> usize {
        self.num_domain + self.num_range
    }

    /// The number of symbols.
    #[inline]
    pub fn num_symbol_vars(&self) -> usize {
        self.num_symbols
    }

    /// The number of local (existential) variables.
    #[inline]
    pub fn num_local_vars(&self) -> usize {
        self.num_locals
    }

    /// The number of dimensions and symbols: the variables a point gives
    /// (locals excluded).
    #[inline]
    pub fn num_non_local_vars(&self) -> usize {
        self.num_domain + self.num_range + self.num_symbols
    }

    /// The number of variables (columns without the constant).
    #[inline]
    pub fn num_vars(&self) -> usize {
        self.num_non_local_vars() + self.num_locals
    }

    /// The number of columns: the variables and the constant.
    #[inline]
    pub fn num_cols(&self) -> usize {
        self.num_vars() + 1
    }

    /// Whether the relation has the same domain, range and symbol counts as
    /// `other` (locals may differ).
    pub fn has_same_space(&self, other: &IntegerRelation) -> bool {
        self.num_domain == other.num_domain
            && self.num_range == other.num_range
            && self.num_symbols == other.num_symbols
    }

    // ------------------------------------------------------------ constraints

    /// The number of equalities.
    #[inline]
    pub fn num_equalities(&self) -> usize {
        self.eqs.rows()
    }

    /// The number of inequalities.
    #[inline]
    pub fn num_inequalities(&self) -> usize {
        self.ineqs.rows()
    }

    /// The number of constraints.
    #[inline]
    pub fn num_constraints(&self) -> usize {
        self.eqs.rows() + self.ineqs.rows()
    }

    /// Equality `i` (`row . (vars, 1) == 0`), one entry per column.
    #[inline]
    pub fn equality(&self, i: usize) -> &[i64] {
        self.eqs.row(i)
    }

    /// Inequality `i` (`row . (vars, 1) >= 0`), one entry per column.
    #[inline]
    pub fn inequality(&self, i: usize) -> &[i64] {
        self.ineqs.row(i)
    }

    /// The equalities, in order.
    pub fn equalities(&self) -> impl ExactSizeIterator<Item = &[i64]> + '_ {
        self.eqs.iter()
    }

    /// The inequalities, in order.
    pub fn inequalities(&self) -> impl ExactSizeIterator<Item = &[i64]> + '_ {
        self.ineqs.iter()
    }

    /// Adds `row . (vars, 1) == 0`. Panics unless `row` has
    /// [`num_cols`](Self::num_cols) entries.
    pub fn add_equality(&mut self, row: &[i64]) {
        self.eqs.push_row(row);
    }

    /// Adds `row . (vars, 1) >= 0`. Panics unless `row` has
    /// [`num_cols`](Self::num_cols) entries.
    pub fn add_inequality(&mut self, row: &[i64]) {
        self.ineqs.push_row(row);
    }

    /// Makes room for `ineqs` more inequalities and `eqs` more equalities,
    /// so that adding them one at a time does not grow the storage again
    /// and again.
    pub fn reserve_constraints(&mut self, ineqs: usize, eqs: usize) {
        self.ineqs.reserve_rows(ineqs);
        self.eqs.reserve_rows(eqs);
    }

    /// Adds every constraint of `other` (same space), after this one's:
    /// its inequalities after the inequalities, its equalities after the
    /// equalities.
    pub fn append_constraints(&mut self, other: &IntegerRelation) {
        assert!(self.has_same_space(other), "constraints of another space");
        self.ineqs.append(&other.ineqs);
        self.eqs.append(&other.eqs);
    }

    /// Adds `var >= value`, `var <= value` or `var == value`.
    ///
    /// Fails with [`Limit::Overflow`](crate::Limit::Overflow) only for a
    /// lower bound of `i64::MIN` (its row `var - value` has no `i64`
    /// constant).
    pub fn add_bound(&mut self, var: usize, kind: BoundType, value: i64) -> Result<()> {
        assert!(var < self.num_vars(), "variable {var} out of range");
        let mut row = vec![0; self.num_cols()];
        let last = row.len() - 1;
        match kind {
            BoundType::Lower => {
                row[var] = 1;
                row[last] = value.checked_neg().ok_or(OVERFLOW)?;
                self.add_inequality(&row);
            }
            BoundType::Upper => {
                row[var] = -1;
                row[last] = value;
                self.add_inequality(&row);
            }
            BoundType::Eq => {
                row[var] = -1;
                row[last] = value;
                self.add_equality(&row);
            }
        }
        Ok(())
    }

    /// Removes equality `i`.
    pub fn remove_equality(&mut self, i: usize) {
        self.eqs.remove_row(i);
    }

    /// Removes inequality `i`.
    pub fn remove_inequality(&mut self, i: usize) {
        self.ineqs.remove_row(i);
    }

    /// Removes every constraint (the result is the universe; the division
    /// records of the locals are dropped too, as their constraints are gone).
    pub fn clear_constraints(&mut self) {
        self.eqs.clear();
        self.ineqs.clear();
        self.divs.iter_mut().for_each(|d| *d = None);
    }

    /// Makes the system the empty set of its space: the single constraint
    /// `1 == 0`.
    pub fn mark_empty(&mut self) {
        self.clear_constraints();
        let mut row = vec![0; self.num_cols()];
        *row.last_mut().unwrap() = 1;
        self.add_equality(&row);
    }

    /// The division a local is known to equal (`local` counts from the
    /// first local: 0 is column [`var_offset`](Self::var_offset)`(Local)`).
    pub fn division(&self, local: usize) -> Option<&Division> {
        self.divs[local].as_ref()
    }

    // ------------------------------------------------------------ variables

    /// Appends `n` variables of `kind` after the existing ones of that kind;
    /// returns the column of the first. Their coefficients are 0 everywhere.
    pub fn append_vars(&mut self, kind: VarKind, n: usize) -> usize {
        self.insert_vars(kind, self.num_vars_of(kind), n)
    }

    /// Inserts `n` variables of `kind` at position `pos` among the variables
    /// of that kind (`0..=num_vars_of(kind)`); returns the column of the
    /// first. Their coefficients are 0 everywhere.
    pub fn insert_vars(&mut self, kind: VarKind, pos: usize, n: usize) -> usize {
        assert!(pos <= self.num_vars_of(kind), "insert position {pos} out of range");
        let col = self.var_offset(kind) + pos;
        self.eqs.insert_cols(col, n);
        self.ineqs.insert_cols(col, n);
        for d in self.divs.iter_mut().flatten() {
            d.dividend.splice(col..col, std::iter::repeat_n(0, n));
        }
        match kind {
            VarKind::Domain => self.num_domain += n,
            VarKind::Range => self.num_range += n,
            VarKind::Symbol => self.num_symbols += n,
            VarKind::Local => {
                self.num_locals += n;
                self.divs.splice(pos..pos, std::iter::repeat_n(None, n));
            }
        }
        col
    }

    /// The relation with `domain`, `range`, `symbols` and `locals`
    /// variables whose column `map[c]` holds column `c` of this one (the
    /// constant column too), every other column zero: one pass over the
    /// constraints for any mix of variable moves and inserted variables.
    /// A column mapped to `usize::MAX` is dropped (it must hold only
    /// zeros). Constraint order is kept; division records are dropped.
    pub fn remap_columns(
        &self,
        domain: usize,
        range: usize,
        symbols: usize,
        locals: usize,
        map: &[usize],
    ) -> IntegerRelation {
        let cols = domain + range + symbols + locals + 1;
        assert_eq!(map.len(), self.num_cols(), "one target column per column");
        assert!(
            map.iter().all(|&c| c < cols || c == usize::MAX),
            "target column out of range"
        );
        IntegerRelation {
            num_domain: domain,
            num_range: range,
            num_symbols: symbols,
            num_locals: locals,
            eqs: self.eqs.remap(cols, map),
            ineqs: self.ineqs.remap(cols, map),
            divs: vec![None; locals],
        }
    }

    /// Removes the variable in column `pos` and its coefficients (this is
    /// not a projection: constraints that used the variable now use 0
    /// instead; see [`project_out`](Self::project_out)).
    pub fn remove_var(&mut self, pos: usize) {
        self.remove_vars(pos, pos + 1);
    }

    /// Removes the variables in columns `start..end` and their coefficients
    /// (see [`remove_var`](Self::remove_var)).
    pub fn remove_vars(&mut self, start: usize, end: usize) {
        assert!(
            start <= end && end <= self.num_vars(),
            "variables {start}..{end} out of range"
        );
        if start == end {
            return;
        }
        self.eqs.remove_cols(start, end);
        self.ineqs.remove_cols(start, end);
        let local0 = self.var_offset(VarKind::Local);
        // Divisions whose dividend uses a removed column lose their record.
        for d in self.divs.iter_mut() {
            if let Some(div) = d {
                if div.dividend[start..end].iter().any(|&c| c != 0) {
                    *d = None;
                } else {
                    div.dividend.drain(start..end);
                }
            }
        }
        let (ls, le) = (start.max(local0) - local0, end.max(local0) - local0);
        self.divs.drain(ls..le);
        for kind in [VarKind::Local, VarKind::Symbol, VarKind::Range, VarKind::Domain] {
            let (o, n) = (self.var_offset(kind), self.num_vars_of(kind));
            let removed = end.min(o + n).saturating_sub(start.max(o));
            match kind {
                VarKind::Domain => self.num_domain -= removed,
                VarKind::Range => self.num_range -= removed,
                VarKind::Symbol => self.num_symbols -= removed,
                VarKind::Local => self.num_locals -= removed,
            }
        }
    }

    /// Swaps the columns of variables `a` and `b` (of any kinds: the kinds
    /// stay with the positions).
    pub fn swap_vars(&mut self, a: usize, b: usize) {
        assert!(a < self.num_vars() && b < self.num_vars(), "variable out of range");
        if a == b {
            return;
        }
        let mut from: Vec<usize> = (0..self.num_vars()).collect();
        from.swap(a, b);
        self.permute_vars(&from);
    }

    /// Reorders the variables: the variable in column `i` afterwards is the
    /// one that was in column `from[i]`. `from` must be a permutation of
    /// `0..num_vars()`. The kinds stay with the positions (a variable moved
    /// into the symbol columns becomes a symbol); a local keeps its division
    /// record while it stays a local, unless the record would use a column
    /// after its own.
    pub fn permute_vars(&mut self, from: &[usize]) {
        let n = self.num_vars();
        assert_eq!(from.len(), n, "permutation length");
        let mut seen = vec![false; n];
        for &f in from {
            assert!(f < n && !seen[f], "not a permutation of the variables");
            seen[f] = true;
        }
        let mut cols: Vec<usize> = from.to_vec();
        cols.push(n);
        self.eqs.permute_cols(&cols);
        self.ineqs.permute_cols(&cols);
        let local0 = self.var_offset(VarKind::Local);
        let old_divs = std::mem::take(&mut self.divs);
        let mut divs = Vec::with_capacity(self.num_locals);
        for &f in &from[local0..] {
            let d = if f >= local0 {
                old_divs[f - local0].clone()
            } else {
                None
            };
            divs.push(d.map(|mut d| {
                let mut permuted = vec![0; n + 1];
                for (i, &f) in cols.iter().enumerate() {
                    permuted[i] = d.dividend[f];
                }
                d.dividend = permuted;
                d
            }));
        }
        for (l, d) in divs.iter_mut().enumerate() {
            if d.as_ref()
                .is_some_and(|d| d.dividend[local0 + l..n].iter().any(|&c| c != 0))
            {
                *d = None;
            }
        }
        self.divs = divs;
    }

    /// Moves `n` variables of kind `from_kind`, starting at position `start`
    /// among that kind, to the end of the variables of kind `to_kind`, and
    /// makes them of that kind (for example symbols to dimensions, or
    /// dimensions to locals: existential quantification).
    pub fn convert_var_kind(&mut self, from_kind: VarKind, start: usize, n: usize, to_kind: VarKind) {
        assert!(start + n <= self.num_vars_of(from_kind), "variables out of range");
        if n == 0 || from_kind == to_kind {
            return;
        }
        let first = self.var_offset(from_kind) + start;
        let total = self.num_vars();
        let moved: Vec<usize> = (first..first + n).collect();
        let mut rest: Vec<usize> = (0..total).filter(|c| !(first..first + n).contains(c)).collect();
        // Insertion point among the remaining columns: after the last of
        // `to_kind` in the remaining order.
        let to_end = {
            let o = self.var_offset(to_kind) + self.num_vars_of(to_kind);
            if to_kind > from_kind {
                o - n
            } else {
                o
            }
        };
        let mut from: Vec<usize> = rest.drain(..to_end).collect();
        from.extend_from_slice(&moved);
        from.extend(rest);
        // Keep the kind counts of the current layout for the permutation,
        // then change the counts.
        let mut cols = from.clone();
        cols.push(total);
        self.eqs.permute_cols(&cols);
        self.ineqs.permute_cols(&cols);
        let old_divs = std::mem::take(&mut self.divs);
        let old_local0 = self.var_offset(VarKind::Local);
        match from_kind {
            VarKind::Domain => self.num_domain -= n,
            VarKind::Range => self.num_range -= n,
            VarKind::Symbol => self.num_symbols -= n,
            VarKind::Local => self.num_locals -= n,
        }
        match to_kind {
            VarKind::Domain => self.num_domain += n,
            VarKind::Range => self.num_range += n,
            VarKind::Symbol => self.num_symbols += n,
            VarKind::Local => self.num_locals += n,
        }
        let local0 = self.var_offset(VarKind::Local);
        let mut divs = Vec::with_capacity(self.num_locals);
        for &f in &from[local0..] {
            let d = if f >= old_local0 {
                old_divs[f - old_local0].clone()
            } else {
                None
            };
            divs.push(d.map(|mut d| {
                d.dividend = cols.iter().map(|&f| d.dividend[f]).collect();
                d
            }));
        }
        for (l, d) in divs.iter_mut().enumerate() {
            if d.as_ref()
                .is_some_and(|d| d.dividend[local0 + l..total].iter().any(|&c| c != 0))
            {
                *d = None;
            }
        }
        self.divs = divs;
    }

    /// Adds a local `q = floor(dividend . (vars, 1) / divisor)` with its two
    /// defining inequalities `dividend - divisor * q >= 0` and
    /// `divisor * q - dividend + divisor - 1 >= 0`; returns the column of
    /// `q`. `dividend` has one entry per column (before `q` is added);
    /// `divisor` must be positive (panics otherwise).
    ///
    /// `e ceildiv d` is `(e + d - 1) floordiv d`
    /// ([`add_local_ceildiv`](Self::add_local_ceildiv)) and `e mod d` is
    /// `e - d * (e floordiv d)` ([`add_local_mod`](Self::add_local_mod)).
    /// Fails with [`Limit::Overflow`](crate::Limit::Overflow), adding
    /// nothing, when a defining row has no `i64` coefficients.
    pub fn add_local_floordiv(&mut self, dividend: &[i64], divisor: i64) -> Result<usize> {
        assert!(divisor > 0, "divisor must be positive");
        assert_eq!(dividend.len(), self.num_cols(), "dividend length");
        let pos = self.num_vars();
        let mut e = dividend.to_vec();
        e.insert(pos, 0);
        // e - d q >= 0
        let mut lower = e.clone();
        lower[pos] = -divisor;
        // d q - e + d - 1 >= 0
        let mut upper: Vec<i64> = e
            .iter()
            .map(|&c| c.checked_neg().ok_or(OVERFLOW))
            .collect::<Result<_>>()?;
        upper[pos] = divisor;
        let last = upper.len() - 1;
        upper[last] = upper[last].checked_add(divisor - 1).ok_or(OVERFLOW)?;
        let q = self.append_vars(VarKind::Local, 1);
        debug_assert_eq!(q, pos);
        self.add_inequality(&lower);
        self.add_inequality(&upper);
        self.divs[self.num_locals - 1] = Some(Division { dividend: e, divisor });
        Ok(q)
    }

    /// Adds a local `q = ceil(dividend / divisor)` (as
    /// `floor((dividend + divisor - 1) / divisor)`); returns its column.
    pub fn add_local_ceildiv(&mut self, dividend: &[i64], divisor: i64) -> Result<usize> {
        assert!(divisor > 0, "divisor must be positive");
        let mut e = dividend.to_vec();
        let last = e.len() - 1;
        e[last] = e[last].checked_add(divisor - 1).ok_or(OVERFLOW)?;
        self.add_local_floordiv(&e, divisor)
    }

    /// Adds the local `q = floor(dividend / divisor)` and returns the row of
    /// `dividend mod divisor = dividend - divisor * q` over the new columns
    /// (to use in constraints, e.g. `add_equality` of it for
    /// "divisible by").
    pub fn add_local_mod(&mut self, dividend: &[i64], divisor: i64) -> Result<Vec<i64>> {
        let q = self.add_local_floordiv(dividend, divisor)?;
        let mut e = dividend.to_vec();
        e.insert(q, -divisor);
        Ok(e)
    }

    // ------------------------------------------------------------ combining

    /// The intersection of two systems of the same space (same domain,
    /// range and symbol counts; panics otherwise): `self`'s constraints and
    /// `other`'s, with `other`'s locals appended after `self`'s.
    pub fn intersect(&self, other: &IntegerRelation) -> IntegerRelation {
        assert!(self.has_same_space(other), "intersect: spaces differ");
        let mut out = self.clone();
        let first_new = out.append_vars(VarKind::Local, other.num_locals);
        let map = |row: &[i64], out: &IntegerRelation| -> Vec<i64> {
            let mut r = vec![0; out.num_cols()];
            let nl = other.num_non_local_vars();
            r[..nl].copy_from_slice(&row[..nl]);
            r[first_new..first_new + other.num_locals].copy_from_slice(&row[nl..nl + other.num_locals]);
            *r.last_mut().unwrap() = *row.last().unwrap();
            r
        };
        for row in other.eqs.iter() {
            let r = map(row, &out);
            out.add_equality(&r);
        }
        for row in other.ineqs.iter() {
            let r = map(row, &out);
            out.add_inequality(&r);
        }
        for (l, d) in other.divs.iter().enumerate() {
            out.divs[self.num_locals + l] = d.as_ref().map(|d| Division {
                dividend: map(&d.dividend, &out),
                divisor: d.divisor,
            });
        }
        out
    }

    /// Aligns the symbols of two systems by identity: afterwards both have
    /// the same symbols in the same order, `a`'s first (in its order), then
    /// those only `b` has (in `b`'s order); `a_ids` and `b_ids` (one
    /// identity per symbol, e.g. an SSA value) are updated to match and end
    /// equal. A symbol a system did not have is added unconstrained.
    /// Identities must be distinct within each list.
    pub fn align_symbols<T: PartialEq + Clone>(
        a: &mut IntegerRelation,
        a_ids: &mut Vec<T>,
        b: &mut IntegerRelation,
        b_ids: &mut Vec<T>,
    ) {
        assert_eq!(a_ids.len(), a.num_symbols, "one identity per symbol of a");
        assert_eq!(b_ids.len(), b.num_symbols, "one identity per symbol of b");
        let mut merged: Vec<T> = a_ids.clone();
        for id in b_ids.iter() {
            if !merged.contains(id) {
                merged.push(id.clone());
            }
        }
        a.append_vars(VarKind::Symbol, merged.len() - a.num_symbols);
        // b: append the missing symbols, then permute its symbol columns
        // into the merged order.
        let mut b_order: Vec<T> = b_ids.clone();
        for id in &merged {
            if !b_order.contains(id) {
                b_order.push(id.clone());
            }
        }
        b.append_vars(VarKind::Symbol, b_order.len() - b.num_symbols);
        let s0 = b.var_offset(VarKind::Symbol);
        let mut from: Vec<usize> = (0..b.num_vars()).collect();
        for (i, id) in merged.iter().enumerate() {
            let old = b_order.iter().position(|x| x == id).unwrap();
            from[s0 + i] = s0 + old;
        }
        b.permute_vars(&from);
        *a_ids = merged.clone();
        *b_ids = merged;
    }
}
