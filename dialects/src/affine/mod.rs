//! The `affine` dialect: loops, conditions and memory accesses whose bounds and subscripts are affine maps of dimensions and symbols.
//!
//! Laid out as MLIR's `Dialect/<D>/` folders: [`ir`] holds the op declarations
//! (syntax, verifiers, folders, canonicalization patterns),
//! [`transforms`] the dialect's passes, [`utils`] what passes and patterns
//! share (map composition, dimension and symbol rules).

pub mod analysis;
pub mod ir;
pub mod transforms;
pub mod utils;

pub use ir::*;
