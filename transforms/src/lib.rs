//! lf-transforms: the generic transforms (MLIR's `mlir/Transforms`), which
//! work on any op through its declaration and interfaces, the test passes,
//! and the registry of every pass of lf.
//!
//! One file per pass, named like the pass: [`canonicalize`], [`cse`],
//! [`dce`], [`symbol_dce`], [`inline`], [`loop_invariant_code_motion`].
//! The dialects' own passes (`lower-affine`, `gpu-kernel-outlining`, the loop
//! passes) live in their dialect's `transforms` folder in lf-dialects.

pub mod canonicalize;
pub mod cse;
pub mod dce;
pub mod inline;
pub mod loop_invariant_code_motion;
pub mod symbol_dce;
pub mod test_passes;

use lf_pass::PassRegistry;

/// Registers every generic transform.
pub fn register_transforms(r: &mut PassRegistry) {
    r.register(&cse::INFO);
    r.register(&dce::INFO);
    r.register(&symbol_dce::INFO);
    r.register(&canonicalize::INFO);
    r.register(&loop_invariant_code_motion::INFO);
    r.register(&inline::INFO);
}

/// Registers every pass of lf: the generic transforms, the dialects'
/// passes and the test passes (MLIR's `registerAllPasses`).
pub fn register_all_passes(r: &mut PassRegistry) {
    register_transforms(r);
    lf_dialects::register_passes(r);
    test_passes::register(r);
}

/// A registry holding every pass of lf ([`register_all_passes`]).
pub fn all_passes() -> PassRegistry {
    let mut r = PassRegistry::new();
    register_all_passes(&mut r);
    r
}
