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
pub mod vector;

use lf_ir::ods::views::EnumDecl;
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
    /// The enums and flag sets it declares, each with the name of its
    /// `static` in the dialect's `ir` module (for the generated views).
    pub enums: &'static [(&'static str, EnumDecl)],
}

/// Every dialect of lf-dialects.
pub static DIALECTS: &[Dialect] = &[
    Dialect {
        name: "affine",
        intro: affine::INTRO,
        ops: affine::OPS,
        enums: &[],
    },
    Dialect {
        name: "arith",
        intro: arith::INTRO,
        ops: arith::OPS,
        enums: &[
            ("CMPI_PREDICATE", EnumDecl::Int(&arith::CMPI_PREDICATE)),
            ("CMPF_PREDICATE", EnumDecl::Int(&arith::CMPF_PREDICATE)),
            ("ROUNDING_MODE", EnumDecl::Int(&arith::ROUNDING_MODE)),
            ("FASTMATH", EnumDecl::Flags(&arith::FASTMATH)),
            ("OVERFLOW", EnumDecl::Flags(&arith::OVERFLOW)),
        ],
    },
    Dialect {
        name: "builtin",
        intro: builtin::INTRO,
        ops: builtin::OPS,
        enums: &[],
    },
    Dialect {
        name: "func",
        intro: func::INTRO,
        ops: func::OPS,
        enums: &[],
    },
    Dialect {
        name: "gpu",
        intro: gpu::INTRO,
        ops: gpu::OPS,
        enums: &[
            ("DIMENSION", EnumDecl::Dialect(&gpu::DIMENSION)),
            ("ADDRESS_SPACE", EnumDecl::Dialect(&gpu::ADDRESS_SPACE)),
        ],
    },
    Dialect {
        name: "math",
        intro: math::INTRO,
        ops: math::OPS,
        enums: &[],
    },
    Dialect {
        name: "memref",
        intro: memref::INTRO,
        ops: memref::OPS,
        enums: &[],
    },
    Dialect {
        name: "scf",
        intro: scf::INTRO,
        ops: scf::OPS,
        enums: &[],
    },
    Dialect {
        name: "vector",
        intro: vector::INTRO,
        ops: vector::OPS,
        enums: &[],
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
    // lf's dialects fold to `arith.constant`s (MLIR's affine, math and scf
    // dialects materialize constants the same way).
    for d in DIALECTS {
        lf_ir::constants::register_constant_materializer(ctx, d.name, arith::ArithConstantOp::materialize);
    }
    // The order in which `canonicalize` tries patterns of equal benefit.
    register_canonicalization_patterns(ctx, "arith", arith::canonicalize::add_patterns);
    register_canonicalization_patterns(ctx, "scf", scf::canonicalize::add_patterns);
    register_canonicalization_patterns(ctx, "affine", affine::canonicalize::add_patterns);
    register_canonicalization_patterns(ctx, "memref", memref::canonicalize::add_patterns);
}

/// Registers the dialects' passes (`affine-parallelize`, `lower-affine`,
/// `gpu-kernel-outlining`).
pub fn register_passes(r: &mut PassRegistry) {
    r.register(&affine::transforms::affine_loop_distribute::INFO);
    r.register(&affine::transforms::affine_loop_interchange::INFO);
    r.register(&affine::transforms::affine_loop_unroll::INFO);
    r.register(&affine::transforms::affine_loop_unroll_jam::INFO);
    r.register(&affine::transforms::affine_parallelize::INFO);
    r.register(&affine::transforms::affine_licm::INFO);
    r.register(&affine::transforms::affine_loop_normalize::INFO);
    r.register(&affine::transforms::affine_loop_strip_mine::INFO);
    r.register(&affine::transforms::affine_loop_tile::INFO);
    r.register(&affine::transforms::affine_scalrep::INFO);
    r.register(&affine::transforms::loop_fusion::INFO);
    r.register(&affine::transforms::lower_affine::INFO);
    r.register(&affine::transforms::print_dependence_graph::INFO);
    r.register(&gpu::transforms::gpu_coalescing_analysis::INFO);
    r.register(&gpu::transforms::coalesce_via_shared::INFO);
    r.register(&gpu::transforms::gpu_host_data_placement::INFO);
    r.register(&gpu::transforms::gpu_kernel_outlining::INFO);
    r.register(&gpu::transforms::gpu_map_loops::INFO);
    r.register(&gpu::transforms::fusion_with_halo::INFO);
    r.register(&gpu::transforms::gpu_verify_transfers::INFO);
    r.register(&gpu::transforms::swap_array_alloc::INFO);
    r.register(&gpu::transforms::diagonal_reorder::INFO);
    r.register(&gpu::transforms::kernel_merge::block_merge::INFO);
    r.register(&gpu::transforms::kernel_merge::policy::INFO);
    r.register(&gpu::transforms::kernel_merge::thread_merge::INFO);
    r.register(&gpu::transforms::thread_granularity::INFO);
    r.register(&gpu::transforms::partition_camping::INFO);
    r.register(&gpu::transforms::prefetch::INFO);
    r.register(&gpu::transforms::unroll_shared_reads::INFO);
    r.register(&gpu::transforms::promote_shared::INFO);
    r.register(&gpu::transforms::block_tile::INFO);
    r.register(&gpu::transforms::split_reduction::INFO);
    r.register(&gpu::transforms::loop_merge::INFO);
    r.register(&gpu::transforms::gpu_launch_sink_index_computations::INFO);
    r.register(&gpu::transforms::vectorize_access::INFO);
    r.register_pipeline(&affine::transforms::ihop_pre::IHOP_PRE);
    r.register_pipeline(&gpu::transforms::ihop_gpu::IHOP_GPU);
    r.register_pipeline(&gpu::transforms::fuse_halo_gpu::FUSE_HALO_GPU);
    r.register_pipeline(&gpu::transforms::gpu_optimize_kernels::GPU_OPTIMIZE_KERNELS);
}

/// The op reference of one dialect as markdown (`docs/dialects/<name>.md`).
pub fn dialect_doc(d: &Dialect) -> String {
    lf_ir::ods::doc::dialect_markdown(d.name, d.intro, d.ops)
}

/// The Rust source of the typed views of dialect `d` (the checked-in
/// `dialects/src/<dialect>/ir/views.rs`; see [`lf_ir::ods::views`]).
pub fn dialect_views(d: &Dialect) -> String {
    let enums: Vec<(String, EnumDecl)> = d.enums.iter().map(|(n, e)| (format!("super::{n}"), *e)).collect();
    let enums: Vec<(&str, EnumDecl)> = enums.iter().map(|(n, e)| (n.as_str(), *e)).collect();
    lf_ir::ods::views::generate(&lf_ir::ods::views::ViewSource {
        dialect: d.name,
        ops: d.ops,
        ops_path: "super::OPS",
        enums: &enums,
        foreign_enum: &|mlir_name| {
            let (dialect, name) = mlir_name.split_once("::").unwrap_or(("", mlir_name));
            format!("crate::{dialect}::{name}")
        },
        ir_crate: "lf_ir",
    })
}
