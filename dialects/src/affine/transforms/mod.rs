//! Passes on the `affine` dialect.

pub mod affine_parallelize;
pub mod loop_fusion;
pub mod lower_affine;
pub mod print_dependence_graph;
