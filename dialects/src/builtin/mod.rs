//! The `builtin` dialect's ops that lf-dialects declares (`builtin.module` is part of the IR core).
//!
//! Laid out as MLIR's `Dialect/<D>/` folders: [`ir`] holds the op declarations
//! (syntax, verifiers, folders).

pub mod ir;

pub use ir::*;
