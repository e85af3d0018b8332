//! The `arith` dialect: integer and floating-point arithmetic, comparisons and casts.
//!
//! Laid out as MLIR's `Dialect/<D>/` folders: [`ir`] holds the op declarations
//! (syntax, verifiers, folders, canonicalization patterns).

pub mod ir;

pub use ir::*;
