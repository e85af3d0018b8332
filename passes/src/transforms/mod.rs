//! The generic transforms. Each file declares one pass (a `pub static INFO:
//! PassInfo` and its `Pass` type); add it to [`register_all`] to make it
//! available to pipelines, `lf-opt` flags and `docs/passes.md`.

use crate::PassRegistry;

pub mod canonicalize;
pub mod cse;
pub mod dce;
pub mod gpu_outline;
pub mod inline;
pub mod licm;
pub mod lower_affine;
pub mod symbol_dce;

/// Registers every generic transform.
pub fn register_all(r: &mut PassRegistry) {
    r.register(&cse::INFO);
    r.register(&dce::INFO);
    r.register(&symbol_dce::INFO);
    r.register(&canonicalize::INFO);
    r.register(&licm::INFO);
    r.register(&inline::INFO);
    r.register(&lower_affine::INFO);
    r.register(&gpu_outline::INFO);
}
