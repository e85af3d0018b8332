//! lf-dialects: the dialects lf's passes read and write, declared once with
//! [`lf_ir::ods`] (operands, results, attributes, traits, verifiers, custom
//! syntax, docs), with MLIR 22's syntax so IR moves freely between lf-opt and
//! mlir-opt.
//!
//! Each dialect is one folder laid out as MLIR's `Dialect/<D>/`: `ir`
//! (declarations, syntax, verifiers, folders, canonicalization patterns),
//! `transforms` (its passes), and, where it has them, `analysis` and
//! `utils`. [`fold`] holds what the constant folders share.

pub mod affine;
pub mod arith;
pub mod builtin;
pub mod fold;
pub mod func;
pub mod gpu;
pub mod math;
pub mod memref;
pub mod scf;
pub mod support;

use lf_ir::{Context, OpDef};
use lf_pass::rewrite::register_canonicalization_patterns;
use lf_pass::PassRegistry;

/// A dialect: its namespace, the text that opens its op reference, and its ops.
pub struct Dialect {
    /// The namespace (`arith`).
    pub name: &'static str,
    /// Introduction for the op reference.
    pub intro: &'static str,
    /// The ops.
    pub ops: &'static [&'static OpDef],
}

/// Every dialect of lf-dialects.
pub static DIALECTS: &[Dialect] = &[
    Dialect {
        name: "affine",
        intro: affine::INTRO,
        ops: affine::OPS,
    },
    Dialect {
        name: "arith",
        intro: arith::INTRO,
        ops: arith::OPS,
    },
    Dialect {
        name: "builtin",
        intro: builtin::INTRO,
        ops: builtin::OPS,
    },
    Dialect {
        name: "func",
        intro: func::INTRO,
        ops: func::OPS,
    },
    Dialect {
        name: "gpu",
        intro: gpu::INTRO,
        ops: gpu::OPS,
    },
    Dialect {
        name: "math",
        intro: math::INTRO,
        ops: math::OPS,
    },
    Dialect {
        name: "memref",
        intro: memref::INTRO,
        ops: memref::OPS,
    },
    Dialect {
        name: "scf",
        intro: scf::INTRO,
        ops: scf::OPS,
    },
];

/// Registers every dialect's ops in `ctx` (and the core's `builtin.module`),
/// with their canonicalization patterns.
pub fn register_all(ctx: &Context) {
    lf_ir::builtin::register(ctx);
    for d in DIALECTS {
        ctx.register_dialect(d.name);
        for op in d.ops {
            ctx.register_op(op);
        }
    }
    // The order in which `canonicalize` tries patterns of equal benefit.
    register_canonicalization_patterns(ctx, "arith", arith::canonicalize::add_patterns);
    register_canonicalization_patterns(ctx, "scf", scf::canonicalize::add_patterns);
    register_canonicalization_patterns(ctx, "affine", affine::canonicalize::add_patterns);
    register_canonicalization_patterns(ctx, "memref", memref::canonicalize::add_patterns);
}

/// Registers the dialects' passes (`lower-affine`, `gpu-kernel-outlining`).
pub fn register_passes(r: &mut PassRegistry) {
    r.register(&affine::transforms::lower_affine::INFO);
    r.register(&gpu::transforms::gpu_kernel_outlining::INFO);
}

/// The op reference of one dialect as markdown (`docs/dialects/<name>.md`).
pub fn dialect_doc(d: &Dialect) -> String {
    lf_ir::ods::doc::dialect_markdown(d.name, d.intro, d.ops)
}
