//! Passes on the `affine` dialect.

pub mod affine_licm;
pub mod affine_loop_distribute;
pub mod affine_loop_interchange;
pub mod affine_loop_normalize;
pub mod affine_loop_strip_mine;
pub mod affine_loop_tile;
pub mod affine_loop_unroll;
pub mod affine_loop_unroll_jam;
pub mod affine_parallelize;
pub mod affine_scalrep;
pub mod ihop_pre;
pub mod loop_fusion;
pub mod lower_affine;
pub mod print_dependence_graph;
