//! Passes on the `affine` dialect.

pub mod affine_loop_normalize;
pub mod affine_loop_strip_mine;
pub mod affine_loop_tile;
pub mod affine_parallelize;
pub mod lower_affine;
pub mod print_dependence_graph;
