//! Helpers shared by the gpu dialect's passes.

pub mod barriers;
pub mod kernel_writes;
pub mod launch_inputs;
pub mod phase_barriers;
pub mod staged_loop;
pub mod workgroup_buffer;
