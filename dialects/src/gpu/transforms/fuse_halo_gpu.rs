//! The `fuse-halo-gpu` pipeline: seed 000 from chains of CPU loop nests to
//! a program whose fused kernels run on a GPU.

use lf_pass::pass::Anchor;
use lf_pass::registry::PipelineInfo;

/// The registration record of `fuse-halo-gpu`.
pub static FUSE_HALO_GPU: PipelineInfo = PipelineInfo {
    name: "fuse-halo-gpu",
    summary: "Seed 000: chains of parallel loop nests fused into GPU kernels with halos and swap arrays",
    description: "Seed 000 end to end, on a module: in each function, `affine-loop-normalize` and `canonicalize` (which folds the index arithmetic \
normalization leaves between the loops of a band back into the accesses), \
`affine-loop-distribute{mode=one-statement}` (one definition per nest, the seed's \
precondition), `affine-fusion-with-halo` (each chain of parallel nests to one `gpu.launch` with \
redundant halo iterations and a workgroup buffer per communicating definition), \
`swap-array-alloc` (buffers shared by the free-queue allocation, zero-distance uses in \
registers, barriers), `gpu-map-loops` (the nests left unfused become one kernel each: lf's \
addition, so that no nest stays on the host), `gpu-host-data-placement`, \
`gpu-verify-transfers`, `canonicalize` and `cse`; then `gpu-kernel-outlining`. The result goes \
to `lf-translate --target=cuda` (or `opencl`) as a program that runs.",
    anchor: Anchor::Op("builtin.module"),
    pipeline: "func.func(affine-loop-normalize,canonicalize,affine-loop-distribute{mode=one-statement},affine-fusion-with-halo,swap-array-alloc,gpu-map-loops,gpu-host-data-placement,gpu-verify-transfers,canonicalize,cse),gpu-kernel-outlining",
};
