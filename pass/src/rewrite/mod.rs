//! Rewriting: the [`PatternRewriter`] API, rewrite patterns, the greedy
//! pattern driver with folding, and a dialect-conversion helper.
//!
//! - [`PatternRewriter`] changes one body (create, insert, replace, erase,
//!   modify in place, move, inline a block) and reports every change to a
//!   [`RewriteListener`].
//! - [`RewritePattern`] (or [`FnPattern`] for a plain function) matches one
//!   op and rewrites it; a [`PatternSet`] is frozen into a
//!   [`FrozenPatternSet`] indexed by root op name.
//! - [`apply_patterns_greedily`] runs patterns and op folders
//!   ([`lf_ir::FoldFn`]) to a fixed point with a convergence bound
//!   ([`GreedyConfig::max_iterations`]); [`GreedyResult::non_convergence`]
//!   turns hitting the bound into a diagnostic.
//! - [`apply_conversion`] lowers the ops a [`ConversionTarget`] marks
//!   illegal, failing with `failed to legalize operation '...'`.
//! - [`canonicalization`]: the canonicalization patterns each dialect
//!   registers in a context, which the `canonicalize` pass applies.
//! - [`effects`] says which ops are dead when unused and which may be moved.

pub mod canonicalization;
pub mod conversion;
pub mod effects;
pub mod greedy;
pub mod pattern;
pub mod rewriter;

pub use canonicalization::{canonicalization_patterns, register_canonicalization_patterns, AddPatternsFn};
pub use conversion::{apply_conversion, ConversionMode, ConversionTarget, Legality};
pub use greedy::{
    apply_patterns_greedily, constant_value, for_each_body_par, nested_bodies, GreedyConfig, GreedyResult,
};
pub use pattern::{FnPattern, FrozenPatternSet, PatternFn, PatternSet, RewritePattern};
pub use rewriter::{attr_type, fill_default_props, InsertPoint, NoListener, PatternRewriter, RewriteListener};

#[cfg(test)]
mod tests;
