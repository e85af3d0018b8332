//! Passes on the `affine` dialect.

pub mod lower_affine;
