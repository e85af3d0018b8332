//! An out-of-tree lf project: a dialect of its own ([`demo`]), a pass of its
//! own ([`strength_reduce`], [`strip_mine`]) and a `my-opt` tool (`src/bin/my-opt.rs`) that is
//! lf-opt with both added. lf's `docs/writing-a-pass.md` walks through it.

pub mod demo;
pub mod strength_reduce;
pub mod strip_mine;

use lf_ir::Context;
use lf_pass::PassRegistry;

/// A context that knows lf's dialects and the `demo` dialect.
pub fn context() -> Context {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    demo::register(&ctx);
    ctx
}

/// lf's passes plus this crate's `strength-reduce` and `tutorial-strip-mine`.
pub fn registry() -> PassRegistry {
    let mut registry = lf_transforms::all_passes();
    registry.register(&strength_reduce::INFO);
    registry.register(&strip_mine::INFO);
    registry
}
