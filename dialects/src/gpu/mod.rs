//! The `gpu` dialect: kernels, launches, thread and block ids, barriers, device memory.
//!
//! Laid out as MLIR's `Dialect/<D>/` folders: [`ir`] holds the op declarations
//! (syntax, verifiers, folders),
//! [`transforms`] the dialect's passes.

pub mod ir;
pub mod transforms;

pub use ir::*;
