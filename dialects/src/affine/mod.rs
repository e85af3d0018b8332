//! The `affine` dialect: loops, conditions and memory accesses whose bounds and subscripts are affine maps of dimensions and symbols.
//!
//! Laid out as MLIR's `Dialect/<D>/` folders: [`ir`] holds the op declarations
//! (syntax, verifiers, folders, canonicalization patterns),
//! [`transforms`] the dialect's passes.

pub mod ir;
pub mod transforms;

pub use ir::*;
