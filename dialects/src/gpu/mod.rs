//! The `gpu` dialect: kernels, launches, thread and block ids, barriers, device memory.
//!
//! Laid out as MLIR's `Dialect/<D>/` folders: [`ir`] holds the op declarations
//! (syntax, verifiers, folders), [`analysis`] the analyses of host and device buffers,
//! [`transforms`] the dialect's passes, [`utils`] helpers they share.

pub mod analysis;
pub mod ir;
pub mod transforms;
pub mod utils;

pub use ir::*;
