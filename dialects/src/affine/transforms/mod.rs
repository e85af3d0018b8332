//! Passes on the `affine` dialect.

pub mod affine_loop_distribute;
pub mod affine_loop_interchange;
pub mod affine_parallelize;
pub mod ihop_pre;
pub mod lower_affine;
pub mod print_dependence_graph;
