//! Analyses of host and device buffers: which buffer a memref names and
//! where it occurs ([`buffers`]), and the copy-correctness check of
//! DIGEST §003.4 ([`transfers`]).

pub mod buffers;
pub mod transfers;
