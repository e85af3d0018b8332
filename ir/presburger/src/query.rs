//! The integer queries: emptiness, a sample point, lexicographic optimum,
//! constant bounds, membership.

use crate::arith::{add, ceil_div, floor_div, mul, neg, to_i64};
use crate::error::{Error, Result};
use crate::relation::{BoundType, IntegerRelation};
use crate::sample::{integer_sample, rational_opt, rationally_empty};
use crate::simplex::RationalOpt;

/// The outcome of an optimization over the integer points of a system.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Optimum<T> {
    /// The system has no integer point.
    Empty,
    /// The objective has no optimum: it improves without end.
    Unbounded,
    /// The optimum.
    Bounded(T),
}

impl<T> Optimum<T> {
    /// The optimum, if bounded.
    pub fn bounded(self) -> Option<T> {
        match self {
            Optimum::Bounded(v) => Some(v),
            _ => None,
        }
    }
}

/// Which constant bound [`IntegerRelation::constant_bound`] asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoundKind {
    /// The largest `c` with `var >= c` at every integer point (the minimum).
    Lower,
    /// The smallest `c` with `var <= c` at every integer point (the maximum).
    Upper,
}

impl IntegerRelation {
    /// Whether the system has no integer point (exact: a rational solution
    /// without an integer one, as `2x == 1`, is empty).
    pub fn is_empty(&self) -> Result<bool> {
        Ok(integer_sample(self, false)?.is_none())
    }

    /// Whether the system has no rational point (a quick necessary test for
    /// [`is_empty`](Self::is_empty): rationally empty implies empty).
    pub fn is_rationally_empty(&self) -> Result<bool> {
        rationally_empty(self)
    }

    /// An integer point of the system: values of all variables, locals
    /// included, in column order; `None` when it is empty.
    pub fn find_integer_sample(&self) -> Result<Option<Vec<i64>>> {
        match integer_sample(self, true)? {
            None => Ok(None),
            Some(p) => p.into_iter().map(to_i64).collect::<Result<Vec<_>>>().map(Some),
        }
    }

    /// The lexicographically smallest integer point of the non-local
    /// variables (domain, range, symbols, in column order; locals are
    /// existential).
    pub fn lexmin(&self) -> Result<Optimum<Vec<i64>>> {
        self.lex_opt(false)
    }

    /// The lexicographically largest integer point of the non-local
    /// variables (see [`lexmin`](Self::lexmin)).
    pub fn lexmax(&self) -> Result<Optimum<Vec<i64>>> {
        self.lex_opt(true)
    }

    fn lex_opt(&self, maximize: bool) -> Result<Optimum<Vec<i64>>> {
        let Some(mut sample) = integer_sample(self, true)? else {
            return Ok(Optimum::Empty);
        };
        let mut sys = self.clone();
        let n = self.num_non_local_vars();
        for v in 0..n {
            match int_opt(&sys, v, maximize, &mut sample)? {
                None => return Ok(Optimum::Unbounded),
                Some(value) => sys.add_bound(v, BoundType::Eq, to_i64(value)?)?,
            }
        }
        sample[..n]
            .iter()
            .map(|&v| to_i64(v))
            .collect::<Result<Vec<_>>>()
            .map(Optimum::Bounded)
    }

    /// The minimum (`maximize == false`) or maximum of variable `var` over
    /// the integer points.
    pub fn optimize_var(&self, var: usize, maximize: bool) -> Result<Optimum<i64>> {
        assert!(var < self.num_vars(), "variable {var} out of range");
        let Some(mut sample) = integer_sample(self, true)? else {
            return Ok(Optimum::Empty);
        };
        match int_opt(self, var, maximize, &mut sample)? {
            None => Ok(Optimum::Unbounded),
            Some(v) => Ok(Optimum::Bounded(to_i64(v)?)),
        }
    }

    /// The tightest constant bound of variable `var` over the integer points
    /// (its minimum for [`BoundKind::Lower`], its maximum for
    /// [`BoundKind::Upper`]); `None` when the variable is unbounded that way
    /// or the system is empty (tell them apart with
    /// [`optimize_var`](Self::optimize_var)).
    pub fn constant_bound(&self, var: usize, kind: BoundKind) -> Result<Option<i64>> {
        Ok(self.optimize_var(var, kind == BoundKind::Upper)?.bounded())
    }

    /// Whether the point (values of the non-local variables, in column
    /// order) belongs to the set: some integer locals satisfy the
    /// constraints with it.
    pub fn contains_point(&self, point: &[i64]) -> Result<bool> {
        let n = self.num_non_local_vars();
        assert_eq!(point.len(), n, "one value per non-local variable");
        if self.num_local_vars() == 0 {
            let eval = |row: &[i64]| -> Result<i128> {
                let mut v = row[n] as i128;
                for (&a, &x) in row[..n].iter().zip(point) {
                    v = add(v, mul(a as i128, x as i128)?)?;
                }
                Ok(v)
            };
            for row in self.equalities() {
                if eval(row)? != 0 {
                    return Ok(false);
                }
            }
            for row in self.inequalities() {
                if eval(row)? < 0 {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        let mut sys = self.clone();
        for (v, &x) in point.iter().enumerate() {
            sys.add_bound(v, BoundType::Eq, x)?;
        }
        Ok(!sys.is_empty()?)
    }
}

/// The integer optimum of variable `v` over `sys`, given a sample integer
/// point (updated to a point at the optimum); `None` when unbounded.
///
/// The rational optimum over the normalized system bounds the integer one;
/// when the rational one is unbounded so is the integer one (a rational
/// polyhedron with an integer point has the same recession cone as its
/// integer hull). The rest is a search between that bound and the sample's
/// value, each step an integer emptiness test that also moves the sample:
/// the bound itself first (usually the answer), then steps doubling away
/// from it, capped at the middle of the range (bisection).
fn int_opt(sys: &IntegerRelation, v: usize, maximize: bool, sample: &mut Vec<i128>) -> Result<Option<i128>> {
    let mut objective = vec![0; sys.num_cols()];
    objective[v] = 1;
    // Work with t = x_v (minimizing) or t = -x_v (maximizing): minimize t.
    let sign: i128 = if maximize { -1 } else { 1 };
    let mut lo = match rational_opt(sys, &objective, maximize)? {
        RationalOpt::Unbounded => return Ok(None),
        RationalOpt::Empty => {
            return Err(Error::Unsupported(
                "internal: a system with an integer point is rationally empty",
            ))
        }
        RationalOpt::Bounded(num, den) => {
            if maximize {
                neg(floor_div(num, den))?
            } else {
                ceil_div(num, den)
            }
        }
    };
    // No point has t < lo; the sample has t == hi.
    let mut hi = mul(sign, sample[v])?;
    let mut step: i128 = 1;
    let mut probe = sys.clone();
    while lo < hi {
        let mid = add(lo, (step - 1).min((hi - lo) / 2))?;
        probe.clone_from(sys);
        // Is there a point with t <= mid?
        if maximize {
            probe.add_bound(v, BoundType::Lower, to_i64(neg(mid)?)?)?;
        } else {
            probe.add_bound(v, BoundType::Upper, to_i64(mid)?)?;
        }
        match integer_sample(&probe, true)? {
            Some(p) => {
                hi = mul(sign, p[v])?;
                *sample = p;
            }
            None => {
                lo = add(mid, 1)?;
                step = step.saturating_mul(2);
            }
        }
    }
    Ok(Some(mul(sign, hi)?))
}
