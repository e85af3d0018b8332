//! The `math` dialect: mathematical functions on floats and integers.
//!
//! Laid out as MLIR's `Dialect/<D>/` folders: [`ir`] holds the op declarations
//! (syntax, verifiers, folders).

pub mod ir;

pub use ir::*;
