//! lf's test harness, in the manner of LLVM's `lit` and `FileCheck`.
//!
//! * [`filecheck`] checks a text (usually a tool's output) against the `CHECK:` directives
//!   of a check file, with FileCheck's rules and error messages. The `lf-filecheck` binary
//!   is a thin wrapper around [`filecheck::main`].
//! * [`lit`] finds the `*.lfir` tests of a directory tree, runs their `RUN:` lines through
//!   `bash` (in parallel, with a timeout each) and prints a report ending in
//!   `lit: N passed, N failed, N skipped`.
//! * [`affine_gen`] writes seeded random affine programs for differential tests against
//!   `mlir-opt`, [`runnable_gen`] writes seeded random affine programs that `lf-run` can
//!   run (property tests of loop transformations), and [`tools`] finds the external tools
//!   those tests need.

#![warn(missing_docs)]

pub mod affine_gen;
pub mod chain_gen;
pub mod filecheck;
pub mod lit;
pub mod property;
pub mod runnable_gen;
pub mod tools;
