//! The canonicalization patterns a context knows, by dialect (MLIR's
//! `getCanonicalizationPatterns` of the registered ops).
//!
//! A dialect registers a function that adds its patterns to a
//! [`PatternSet`] when it is registered in a [`Context`] (lf-dialects'
//! `register_all` does it for lf's dialects; an out-of-tree dialect calls
//! [`register_canonicalization_patterns`] the same way). The `canonicalize`
//! pass collects them with [`canonicalization_patterns`], in registration
//! order: patterns of equal benefit are tried in that order.

use super::PatternSet;
use lf_ir::Context;
use parking_lot::RwLock;

/// Adds a dialect's canonicalization patterns to a set.
pub type AddPatternsFn = fn(&mut PatternSet);

/// The per-context list behind [`register_canonicalization_patterns`].
#[derive(Default)]
struct Registered {
    providers: RwLock<Vec<(&'static str, AddPatternsFn)>>,
}

/// Registers `add` as the canonicalization patterns of `dialect` in `ctx`.
/// Registering a dialect again replaces its function (keeping its place).
pub fn register_canonicalization_patterns(ctx: &Context, dialect: &'static str, add: AddPatternsFn) {
    let reg = ctx.extension::<Registered>();
    let mut providers = reg.providers.write();
    match providers.iter_mut().find(|(d, _)| *d == dialect) {
        Some(slot) => slot.1 = add,
        None => providers.push((dialect, add)),
    }
}

/// Every canonicalization pattern registered in `ctx`, dialect by dialect in
/// registration order.
pub fn canonicalization_patterns(ctx: &Context) -> PatternSet {
    let reg = ctx.extension::<Registered>();
    let mut set = PatternSet::new();
    for (_, add) in reg.providers.read().iter() {
        add(&mut set);
    }
    set
}
