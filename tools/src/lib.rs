//! lf's command-line tools as a library, so that out-of-tree projects can
//! build their own `my-opt` on top of [`opt::main_with`].

pub mod affinity;
pub mod cli;
pub mod opt;
pub mod output;
mod timing;
pub mod tune;
pub mod verify_semantics;
