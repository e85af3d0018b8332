//! [`PatternRewriter`]: the one way patterns change the IR. It is lf-ir's
//! [`Builder`](lf_ir::builder::Builder) (MLIR's `OpBuilder` and
//! `RewriterBase` in one type) with the driver's [`RewriteListener`], which
//! hears of every change (insert, erase, replace, modify in place, move) so
//! that a driver can keep its worklist exact. Passes that are not pattern
//! drivers use the same builder.

pub use lf_ir::builder::{attr_type, fill_default_props, InsertPoint, Listener as RewriteListener, NoListener};

/// The builder patterns get: an [`lf_ir::builder::Builder`] reporting to
/// the driver's listener.
pub type PatternRewriter<'a> = lf_ir::builder::Builder<'a>;
