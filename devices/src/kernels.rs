//! The source of every kernel of a module, made by lf-targets' emitters.

use crate::GpuBackend;
use lf_diag::SourceMgr;
use lf_dialects::builtin::BuiltinModuleOp;
use lf_dialects::gpu::{GpuFuncOp, GpuModuleOp};
use lf_interp::device::{KernelCode, KernelSource};
use lf_ir::view::{IrRef, OpView};
use lf_ir::{Body, Context, OpId};
use rustc_hash::FxHashMap;

/// The `gpu.func`s of a module: `(module name, kernel ref)`.
fn gpu_funcs<'a>(ctx: &'a Context, body: &'a Body, op: OpId) -> Vec<(&'a str, lf_targets::module::FuncRef<'a>)> {
    let name = |b: &Body, o: OpId| lf_ir::symbols::symbol_name(ctx, b, o).map_or("", |i| ctx.ident_str(i));
    let mut out = Vec::new();
    let Some(module) = BuiltinModuleOp::cast(&IrRef::new(ctx, body), op) else {
        return out;
    };
    let rb = body.regions_body(op);
    let top = IrRef::new(ctx, rb);
    for blk in rb.region_blocks(module.body_region(&IrRef::new(ctx, body))) {
        for m in rb.block_ops(blk) {
            let Some(gpu_module) = GpuModuleOp::cast(&top, m) else {
                continue;
            };
            let mname = name(rb, m);
            let mb = rb.regions_body(m);
            for mblk in mb.region_blocks(gpu_module.body_region(&top)) {
                for k in mb.block_ops(mblk) {
                    if GpuFuncOp::isa(&IrRef::new(ctx, mb), k) {
                        let fref = lf_targets::module::FuncRef {
                            body: mb,
                            op: k,
                            name: name(mb, k),
                        };
                        out.push((mname, fref));
                    }
                }
            }
        }
    }
    out
}

/// The source of every kernel of the module for `backend`, by the decoded
/// program's function index (`find` maps `module::name` to it). OpenCL
/// kernels use the generic profile: the device is whatever OpenCL device is
/// present, not necessarily an RV770.
pub fn kernels(
    ctx: &Context,
    body: &Body,
    op: OpId,
    backend: GpuBackend,
    sources: &SourceMgr,
    find: &dyn Fn(&str) -> Option<u32>,
) -> FxHashMap<u32, KernelSource> {
    let mut out = FxHashMap::default();
    if backend == GpuBackend::Sim {
        return out;
    }
    for (module, k) in gpu_funcs(ctx, body, op) {
        let Some(idx) = find(&format!("{module}::{}", k.name)) else {
            continue;
        };
        let one = [(module, k)];
        let src = match backend {
            GpuBackend::OpenCl => {
                let mut opts = lf_targets::Options::new(lf_targets::Target::OpenCl);
                opts.profile = lf_targets::OpenClProfile::Generic;
                lf_targets::opencl::kernel_program(ctx, &one, &opts)
            }
            _ => lf_targets::cuda::kernel_file(ctx, &one),
        };
        let entry = lf_targets::module::kernel_c_names(&one).remove(0);
        let code = src.map(|source| KernelCode { source, entry });
        out.insert(idx, code.map_err(|d| lf_diag::render_all(&d, sources)));
    }
    out
}
