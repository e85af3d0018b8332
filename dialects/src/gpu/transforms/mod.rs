//! Passes on the `gpu` dialect.

pub mod gpu_kernel_outlining;
pub mod gpu_map_loops;
