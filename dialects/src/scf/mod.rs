//! The `scf` dialect: structured control flow (loops and conditionals with regions).
//!
//! Laid out as MLIR's `Dialect/<D>/` folders: [`ir`] holds the op declarations
//! (syntax, verifiers, folders, canonicalization patterns).

pub mod ir;

pub use ir::*;
