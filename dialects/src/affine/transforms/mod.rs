//! Passes on the `affine` dialect.

pub mod affine_parallelize;
pub mod lower_affine;
pub mod print_dependence_graph;
