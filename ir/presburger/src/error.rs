//! Errors and the documented limits of the queries.

use std::fmt;

/// The most variables (columns, constant excluded) a query accepts.
///
/// Dependence systems have 5 to 20; a query on a system with more returns
/// [`Error::LimitExceeded`]`(`[`Limit::Variables`]`)` before doing any work.
pub const MAX_VARS: usize = 128;

/// The most constraints (equalities plus inequalities) a query accepts, and
/// the most a projection may produce.
pub const MAX_CONSTRAINTS: usize = 1024;

/// The most search nodes (values tried for a search direction, and steps of
/// basis reduction) one integer feasibility test may explore before it
/// gives up with
/// [`Error::LimitExceeded`]`(`[`Limit::BranchNodes`]`)`.
pub const MAX_BRANCH_NODES: usize = 8192;

/// The most simplex pivots one rational solve may make (a guard against
/// cycling; Bland's rule already prevents it).
pub const MAX_PIVOTS: usize = 100_000;

/// Which documented limit a query reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// More than [`MAX_VARS`] variables.
    Variables {
        /// The number of variables of the system.
        found: usize,
    },
    /// More than [`MAX_CONSTRAINTS`] constraints (given, or produced by a
    /// projection).
    Constraints {
        /// The number of constraints of the system.
        found: usize,
    },
    /// More than [`MAX_BRANCH_NODES`] search nodes.
    BranchNodes,
    /// More than [`MAX_PIVOTS`] pivots in one simplex solve.
    Pivots,
    /// An intermediate value left the 128-bit range, or a result (a sample
    /// point, a bound, a projected coefficient) does not fit in an `i64`.
    /// Every operation is checked: values never wrap.
    Overflow,
}

/// The error of a query: it could not be answered exactly within the limits.
///
/// A caller that needs a conservative answer (the dependence analysis)
/// assumes the worst (a dependence) and says why with this error's
/// [`Display`](fmt::Display).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A documented limit was reached (see [`Limit`]).
    LimitExceeded(Limit),
    /// The operation is not supported on this input (for example
    /// [`is_subset_of`](crate::IntegerRelation::is_subset_of) against a
    /// system with a local variable that is not a known division).
    Unsupported(&'static str),
}

/// The result type of the queries.
pub type Result<T> = std::result::Result<T, Error>;

/// The overflow error.
pub(crate) const OVERFLOW: Error = Error::LimitExceeded(Limit::Overflow);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::LimitExceeded(Limit::Variables { found }) => {
                write!(f, "integer set too large: {found} variables (limit {MAX_VARS})")
            }
            Error::LimitExceeded(Limit::Constraints { found }) => {
                write!(
                    f,
                    "integer set too large: {found} constraints (limit {MAX_CONSTRAINTS})"
                )
            }
            Error::LimitExceeded(Limit::BranchNodes) => {
                write!(f, "integer feasibility gave up after {MAX_BRANCH_NODES} search nodes")
            }
            Error::LimitExceeded(Limit::Pivots) => {
                write!(f, "simplex gave up after {MAX_PIVOTS} pivots")
            }
            Error::LimitExceeded(Limit::Overflow) => {
                write!(f, "integer set arithmetic overflow (coefficients too large)")
            }
            Error::Unsupported(what) => write!(f, "unsupported integer set operation: {what}"),
        }
    }
}

impl std::error::Error for Error {}
