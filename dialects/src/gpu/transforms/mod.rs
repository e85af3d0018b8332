//! Passes on the `gpu` dialect.

pub mod gpu_kernel_outlining;
