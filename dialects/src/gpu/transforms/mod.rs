//! Passes on the `gpu` dialect.

pub mod block_tile;
pub mod coalesce_via_shared;
pub mod diagonal_reorder;
pub mod fuse_halo_gpu;
pub mod fusion_with_halo;
pub mod gpu_coalescing_analysis;
pub mod gpu_host_data_placement;
pub mod gpu_kernel_outlining;
pub mod gpu_launch_sink_index_computations;
pub mod gpu_map_loops;
pub mod gpu_optimize_kernels;
pub mod gpu_verify_transfers;
pub mod ihop_gpu;
pub mod kernel_merge;
pub mod loop_merge;
pub mod partition_camping;
pub mod prefetch;
pub mod promote_shared;
pub mod split_reduction;
pub mod swap_array_alloc;
pub mod thread_granularity;
pub mod unroll_shared_reads;
pub mod vectorize_access;
