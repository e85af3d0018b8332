//! Helpers shared by the gpu dialect's passes.

pub mod phase_barriers;
pub mod kernel_writes;
