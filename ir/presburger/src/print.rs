//! The ISL-like text of a system, for debugging, remarks and the islpy
//! tests (ISL parses it back).
//!
//! A set prints as `[s0, s1] -> { [d0, d1] : exists (e0 = floor((d0 + 1)/4),
//! e1 : d0 - 4e0 >= 0 and ...) }`; a relation as `{ [i0] -> [o0] : ... }`.
//! Each constraint is `expr >= 0` or `expr = 0`; a local with a known
//! division shows it (its defining inequalities are printed too).

use std::fmt::{self, Write};

use crate::relation::{IntegerRelation, VarKind};

impl IntegerRelation {
    /// The name of the variable in column `pos` in the printed form: `d<i>`
    /// for a set's dimensions, `i<i>` and `o<i>` for a relation's domain and
    /// range, `s<i>` for symbols and `e<i>` for locals.
    pub fn var_name(&self, pos: usize) -> String {
        let kind = self.var_kind(pos);
        let i = pos - self.var_offset(kind);
        match kind {
            VarKind::Domain => format!("i{i}"),
            VarKind::Range if self.num_domain_vars() == 0 => format!("d{i}"),
            VarKind::Range => format!("o{i}"),
            VarKind::Symbol => format!("s{i}"),
            VarKind::Local => format!("e{i}"),
        }
    }

    /// Writes `row . (vars, 1)` as an affine expression (`0` when zero).
    pub(crate) fn write_expr(&self, f: &mut impl Write, row: &[i64]) -> fmt::Result {
        let n = self.num_vars();
        let mut first = true;
        for (pos, &c) in row[..n].iter().enumerate() {
            if c == 0 {
                continue;
            }
            let sign = if c < 0 { "-" } else { "+" };
            if first {
                if c < 0 {
                    f.write_str("-")?;
                }
            } else {
                write!(f, " {sign} ")?;
            }
            let a = c.unsigned_abs();
            if a != 1 {
                write!(f, "{a}")?;
            }
            f.write_str(&self.var_name(pos))?;
            first = false;
        }
        let k = row[n];
        if first {
            write!(f, "{k}")?;
        } else if k != 0 {
            write!(f, " {} {}", if k < 0 { "-" } else { "+" }, k.unsigned_abs())?;
        }
        Ok(())
    }

    fn write_tuple(&self, f: &mut fmt::Formatter<'_>, kind: VarKind) -> fmt::Result {
        f.write_str("[")?;
        let o = self.var_offset(kind);
        for i in 0..self.num_vars_of(kind) {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&self.var_name(o + i))?;
        }
        f.write_str("]")
    }
}

impl fmt::Display for IntegerRelation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.num_symbol_vars() > 0 {
            self.write_tuple(f, VarKind::Symbol)?;
            f.write_str(" -> ")?;
        }
        f.write_str("{ ")?;
        if self.num_domain_vars() > 0 {
            self.write_tuple(f, VarKind::Domain)?;
            f.write_str(" -> ")?;
        }
        self.write_tuple(f, VarKind::Range)?;
        if self.num_constraints() == 0 && self.num_local_vars() == 0 {
            return f.write_str(" }");
        }
        f.write_str(" : ")?;
        let nl = self.num_local_vars();
        if nl > 0 {
            f.write_str("exists (")?;
            let o = self.var_offset(VarKind::Local);
            for l in 0..nl {
                if l > 0 {
                    f.write_str(", ")?;
                }
                f.write_str(&self.var_name(o + l))?;
                if let Some(d) = self.division(l) {
                    f.write_str(" = floor((")?;
                    self.write_expr(f, &d.dividend)?;
                    write!(f, ")/{})", d.divisor)?;
                }
            }
            f.write_str(" : ")?;
        }
        let mut first = true;
        let mut sep = |f: &mut fmt::Formatter<'_>| {
            let s = if first { "" } else { " and " };
            first = false;
            f.write_str(s)
        };
        for row in self.equalities() {
            sep(f)?;
            self.write_expr(f, row)?;
            f.write_str(" = 0")?;
        }
        for row in self.inequalities() {
            sep(f)?;
            self.write_expr(f, row)?;
            f.write_str(" >= 0")?;
        }
        if self.num_constraints() == 0 {
            f.write_str("0 = 0")?;
        }
        if nl > 0 {
            f.write_str(")")?;
        }
        f.write_str(" }")
    }
}
