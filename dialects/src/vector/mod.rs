//! The `vector` dialect (a subset): 1-D vectors loaded from and stored to
//! memrefs, their elements, and building them from scalars.
//!
//! Laid out as MLIR's `Dialect/<D>/` folders: [`ir`] holds the op declarations
//! (syntax, verifiers, folders).

pub mod ir;

pub use ir::*;
