//! Integer sets and relations (Presburger arithmetic) for lf's affine
//! analyses.
//!
//! An [`IntegerRelation`] is a system of linear equalities and inequalities
//! with integer coefficients over integer variables in ordered columns:
//! domain and range dimensions, symbols, and local (existentially
//! quantified) variables, then the constant. A set is a relation without
//! domain variables ([`IntegerRelation::new`]).
//!
//! Every query is exact over the integers:
//! * emptiness ([`IntegerRelation::is_empty`]) and a sample point
//!   ([`IntegerRelation::find_integer_sample`]): exact equality elimination,
//!   rational simplex, then a search over the bounded directions of the
//!   recession cone (branch and bound, then generalized basis reduction; see
//!   `docs/design/presburger.md`);
//! * lexicographic optimum ([`IntegerRelation::lexmin`],
//!   [`IntegerRelation::lexmax`]) and constant bounds
//!   ([`IntegerRelation::constant_bound`]);
//! * projection ([`IntegerRelation::project_out`]): the projected variables
//!   become locals, eliminated by substitution or Fourier–Motzkin where that
//!   is exact and kept as existentials otherwise;
//! * simplification ([`IntegerRelation::simplify`]) and comparison
//!   ([`IntegerRelation::is_subset_of`], [`IntegerRelation::is_equal`]).
//!
//! A query that cannot be answered within the documented limits
//! ([`MAX_VARS`], [`MAX_CONSTRAINTS`], [`MAX_BRANCH_NODES`], [`MAX_PIVOTS`],
//! checked 128-bit arithmetic) returns [`Error::LimitExceeded`]; it never
//! panics on a large input and never answers wrongly.
//!
//! ```
//! use lf_presburger::{BoundKind, BoundType, IntegerRelation, Optimum};
//! // { [x, y] : 0 <= x <= 10 and 2y = x + 1 }
//! let mut s = IntegerRelation::new(2, 0);
//! s.add_bound(0, BoundType::Lower, 0).unwrap();
//! s.add_bound(0, BoundType::Upper, 10).unwrap();
//! s.add_equality(&[1, -2, 1]);
//! assert!(!s.is_empty().unwrap());
//! assert_eq!(s.lexmin().unwrap(), Optimum::Bounded(vec![1, 1]));
//! assert_eq!(s.constant_bound(1, BoundKind::Upper).unwrap(), Some(5));
//! s.add_bound(0, BoundType::Eq, 4).unwrap(); // 2y = 5: no integer point
//! assert!(s.is_empty().unwrap());
//! assert!(!s.is_rationally_empty().unwrap());
//! ```

#![warn(missing_docs)]

mod arith;
mod compare;
mod error;
mod fm;
mod matrix;
mod print;
mod project;
mod query;
mod relation;
mod sample;
mod simplex;

pub use error::{Error, Limit, Result, MAX_BRANCH_NODES, MAX_CONSTRAINTS, MAX_PIVOTS, MAX_VARS};
pub use fm::{LocalRepr, FM_EXPLOSION_FACTOR, FM_MAX_ROWS};
pub use query::{BoundKind, Optimum};
pub use relation::{BoundType, Division, IntegerRelation, VarKind};
