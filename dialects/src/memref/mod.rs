//! The `memref` dialect: memory buffers, their allocation, loads, stores and views.
//!
//! Laid out as MLIR's `Dialect/<D>/` folders: [`ir`] holds the op declarations
//! (syntax, verifiers, folders, canonicalization patterns).

pub mod ir;

pub use ir::*;
