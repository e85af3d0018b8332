//! The `ihop-gpu` pipeline: seed 003 (IHOP) from CPU loop nests to a
//! program whose kernels run on a GPU.

use lf_pass::pass::Anchor;
use lf_pass::registry::PipelineInfo;

/// The registration record of `ihop-gpu`.
pub static IHOP_GPU: PipelineInfo = PipelineInfo {
    name: "ihop-gpu",
    summary: "IHOP (seed 003): CPU loop nests to GPU kernels with device buffers and placed copies",
    description: "Seed 003 end to end, on a module: in each function, `ihop-pre` (normalize, \
canonicalize, distribute, interchange for unit stride), `gpu-map-loops` (parallel nests to \
`gpu.launch` with IHOP's coalescing cost model), `gpu-host-data-placement` (device buffers, \
copies placed by IHOP's mixed scheme and sunk out of loops), `gpu-verify-transfers` (the copy \
rule on every path), `canonicalize` and `cse`; then `gpu-kernel-outlining`. The result goes to \
`lf-translate --target=cuda` (or `opencl`) as a program that runs. Every step keeps the \
program's results and leaves what it cannot prove on the host, with a remark.",
    anchor: Anchor::Op("builtin.module"),
    pipeline: "func.func(ihop-pre,gpu-map-loops,gpu-host-data-placement,gpu-verify-transfers,canonicalize,cse),gpu-kernel-outlining",
};
