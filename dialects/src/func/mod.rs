//! The `func` dialect: functions, calls and returns.
//!
//! Laid out as MLIR's `Dialect/<D>/` folders: [`ir`] holds the op declarations
//! (syntax, verifiers, folders).

pub mod ir;

pub use ir::*;
