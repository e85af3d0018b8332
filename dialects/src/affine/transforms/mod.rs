//! Passes on the `affine` dialect.

pub mod lower_affine;
pub mod print_dependence_graph;
