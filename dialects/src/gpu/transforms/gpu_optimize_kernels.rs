//! The `gpu-optimize-kernels` pipeline: seed 004's steps from a naive
//! kernel to a tuned one, on the inline `gpu.launch` ops of a function.

use lf_pass::pass::Anchor;
use lf_pass::registry::PipelineInfo;

/// The registration record of `gpu-optimize-kernels`.
pub static GPU_OPTIMIZE_KERNELS: PipelineInfo = PipelineInfo {
    name: "gpu-optimize-kernels",
    summary: "Seed 004: naive GPU kernels to tuned ones (vectorize, block tile, coalesce via shared memory, merge, prefetch, partition camping)",
    description: "Seed 004 (Yang et al., PLDI 2010) on the inline `gpu.launch` ops of a function, after \
`gpu-map-loops`: `vectorize-access` (the strict float2 rule: a thread's neighbouring \
`A[2*idx+N]`, `A[2*idx+N+1]` as one `vector<2xf32>` access, with an alignment proof), \
`gpu-block-tile` (lf's step: a kernel whose loop reads one array along rows and another along columns, mm's \
`a[idy][k]` and `b[k][idx]`, gets a 16x16 block, an 8x8 register tile per thread and both operands staged \
through shared memory 8 iterations at a time, double-buffered; on the H200 mm 4096^3 runs 3.15 ms this way, 85% of cuBLAS, against \
4.8 ms with the seed's steps that follow, which then leave the kernel alone), \
`coalesce-via-shared` (the idx/idy swap when it coalesces more accesses; then each global load \
the half-warp rule finds uncoalesced, and whose data is reused, loaded through a workgroup array by \
coalesced G2S statements; the block becomes one half-warp), `gpu-merge-policy{max-registers=96}` (thread-block merge for sharing through shared memory or too few \
threads, thread merge for sharing through registers, with lf's 2-D register tile, within a register estimate of 96: \
on the H200 mm's 4x16 tile with wide shared reads beat the 64-register 4x8 one, 4.7 ms against 5.8), `prefetch` \
(the next iteration's G2S loads into registers before the computation, unless registers already \
hold reused data), `unroll-shared-reads` (innermost loops reading shared memory at consecutive addresses \
unrolled by 4, for 128-bit reads), `gpu-partition-camping` (detection, and the offset rotation for 1-D grids), \
then `canonicalize` and `cse`. Every step declines with a remark where it cannot prove its \
rewrite legal or profitable; `diagonal-reorder` (2-D grids) is not in the pipeline: on an H200 the \
hand-written tiled transpose gains nothing from the diagonal order (bench/gpu/RESULTS.md), so it is \
a pass to apply by hand. Use: \
`builtin.module(func.func(gpu-map-loops,gpu-optimize-kernels,gpu-host-data-placement),gpu-kernel-outlining)`.",
    anchor: Anchor::Op("func.func"),
    pipeline: "vectorize-access,gpu-block-tile,coalesce-via-shared,gpu-merge-policy{max-registers=96},prefetch,unroll-shared-reads,gpu-partition-camping,canonicalize,cse",
};
