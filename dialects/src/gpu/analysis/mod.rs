//! Analyses of host and device buffers: which buffer a memref names and
//! where it occurs ([`buffers`]), and the copy-correctness check of
//! DIGEST §003.4 ([`transfers`]), and the kernel accesses of seed 004
//! ([`kernel_access`]).

pub mod buffers;
pub mod coalescing;
pub mod kernel_access;
pub mod sharing;
pub mod transfers;
