//! Helpers shared by the gpu dialect's passes.

pub mod kernel_writes;
pub mod phase_barriers;
