//! The RV770 profile (AMD Radeon HD 4870/4850, ATI Stream SDK 2.x): rules the
//! OpenCL emitter enforces before writing code. Each violation is an error at
//! the op that breaks the rule, naming the rule:
//!
//! | rule | checked on |
//! | --- | --- |
//! | `work-group size <= 256` | `gpu.launch_func` (constant block sizes) |
//! | `work-group size <= 64 with barrier()` | `gpu.launch_func` of a kernel with `gpu.barrier` |
//! | `no atomics` | any op of a kernel whose name contains `atomic` |
//! | `no byte-addressable stores` | stores of elements narrower than 32 bits |
//! | `no images` | kernel arguments of image or sampler types |
//! | `fp64 only through cl_amd_fp64` | `f64` in a kernel, unless `--opencl-amd-fp64` |
//! | `at most 8 constant arguments` | kernels with more than 8 `lf.constant` arguments |
//! | `constant memory <= 64 KB` | `lf.constant` arguments larger than 64 KB in total |

use crate::host::launched_kernel;
use crate::kernel::{arg_count, is_constant_arg};
use crate::module::{op_error, op_label, FuncRef, Program};
use crate::{ctypes, Options};
use lf_diag::Diagnostic;
use lf_dialects::affine::AffineStoreOp;
use lf_dialects::arith::ArithConstantOp;
use lf_dialects::gpu::{GpuBarrierOp, GpuLaunchFuncOp};
use lf_dialects::memref::MemrefStoreOp;
use lf_ir::view::{IrRef, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{AttrData, Body, Context, OpId, Type, TypeData};

/// Largest work-group.
pub const MAX_WORKGROUP: i64 = 256;
/// Largest work-group of a kernel that calls `barrier()` (one wavefront).
pub const MAX_WORKGROUP_WITH_BARRIER: i64 = 64;
/// Most `__constant` arguments per kernel.
pub const MAX_CONSTANT_ARGS: usize = 8;
/// Constant memory in bytes.
pub const CONSTANT_MEMORY: i64 = 64 * 1024;

fn rule(ctx: &Context, body: &Body, op: OpId, rule: &str, detail: String) -> Diagnostic {
    let name = op_label(ctx, body, op);
    op_error(
        ctx,
        body,
        op,
        format!("RV770 rule '{rule}' broken by '{name}': {detail}"),
    )
}

fn mentions_f64(ctx: &Context, t: Type) -> bool {
    if ctypes::is_f64(ctx, t) {
        return true;
    }
    ctx.type_data(t).element_type().is_some_and(|e| ctypes::is_f64(ctx, e))
}

fn is_image(ctx: &Context, t: Type) -> bool {
    match ctx.type_data(t) {
        TypeData::Dialect { body, .. } => body.contains("image") || body.contains("sampler"),
        _ => false,
    }
}

/// Whether kernel `f` contains a `gpu.barrier`.
pub fn uses_barrier(ctx: &Context, f: FuncRef<'_>) -> bool {
    let mut found = false;
    walk(f.body, f.op, WalkOrder::PreOrder, &mut |b, o| {
        if GpuBarrierOp::isa(&IrRef::new(ctx, b), o) {
            found = true;
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    found
}

/// Checks one kernel against the rules that concern its own code.
pub fn check_kernel(ctx: &Context, f: FuncRef<'_>, opts: &Options) -> Vec<Diagnostic> {
    let mut errs = Vec::new();
    let rb = f.body.regions_body(f.op);
    if let Some(entry) = f.body.regions(f.op).first().and_then(|&r| rb.entry_block(r)) {
        for &a in rb.block_args(entry) {
            let t = rb.value_type(a);
            if is_image(ctx, t) {
                let ts = lf_ir::printer::type_to_string(ctx, t);
                errs.push(rule(ctx, f.body, f.op, "no images", format!("argument of type '{ts}'")));
            }
            if !opts.amd_fp64 && mentions_f64(ctx, t) {
                errs.push(rule(
                    ctx,
                    f.body,
                    f.op,
                    "fp64 only through cl_amd_fp64",
                    "an argument uses f64; pass --opencl-amd-fp64 to emit it under the cl_amd_fp64 extension".into(),
                ));
            }
        }
    }
    let mut nconst = 0;
    let mut const_bytes = 0i64;
    for i in 0..arg_count(ctx, f) {
        if is_constant_arg(ctx, f, i) {
            nconst += 1;
            if let Some(entry) = f.body.regions(f.op).first().and_then(|&r| rb.entry_block(r)) {
                let t = rb.value_type(rb.block_args(entry)[i]);
                let d = ctx.type_data(t);
                if let (Some(shape), Some(e)) = (d.shape(), d.element_type()) {
                    let n: i64 = shape.iter().product();
                    const_bytes += n.max(0) * ctypes::byte_size(ctx, e).unwrap_or(4) as i64;
                }
            }
        }
    }
    if nconst > MAX_CONSTANT_ARGS {
        errs.push(rule(
            ctx,
            f.body,
            f.op,
            "at most 8 constant arguments",
            format!("kernel @{} has {nconst} lf.constant arguments", f.name),
        ));
    }
    if const_bytes > CONSTANT_MEMORY {
        errs.push(rule(
            ctx,
            f.body,
            f.op,
            "constant memory <= 64 KB",
            format!("kernel @{} has {const_bytes} bytes of lf.constant arguments", f.name),
        ));
    }
    walk(f.body, f.op, WalkOrder::PreOrder, &mut |b, o| {
        let ir = IrRef::new(ctx, b);
        // No atomic op is registered: an atomic is an op of another
        // dialect (allowed as unregistered), known only by its name.
        if op_label(ctx, b, o).contains("atomic") {
            errs.push(rule(
                ctx,
                b,
                o,
                "no atomics",
                "RV770 has no global or local atomics".into(),
            ));
        }
        let stored = MemrefStoreOp::cast(&ir, o)
            .map(|st| st.value(&ir))
            .or_else(|| AffineStoreOp::cast(&ir, o).map(|st| st.value(&ir)));
        if let Some(v) = stored {
            let t = b.value_type(v);
            let narrow = match ctx.type_data(t) {
                TypeData::Integer { width, .. } => *width < 32,
                TypeData::Float(k) => k.width() < 32,
                _ => false,
            };
            if narrow {
                let ts = lf_ir::printer::type_to_string(ctx, t);
                // An i1 element is a byte in every buffer (see ctypes::element).
                let byte = if matches!(ctx.type_data(t), TypeData::Integer { width: 1, .. }) {
                    ", one byte in memory"
                } else {
                    ""
                };
                errs.push(rule(
                    ctx,
                    b,
                    o,
                    "no byte-addressable stores",
                    format!("stores a '{ts}' element{byte} (only 32-bit and wider stores)"),
                ));
            }
        }
        if !opts.amd_fp64 && b.results(o).any(|r| mentions_f64(ctx, b.value_type(r))) {
            errs.push(rule(
                ctx,
                b,
                o,
                "fp64 only through cl_amd_fp64",
                "the op computes f64; pass --opencl-amd-fp64 to emit it under the cl_amd_fp64 extension".into(),
            ));
        }
        WalkControl::Advance
    });
    errs
}

fn constant_index(ctx: &Context, body: &Body, v: lf_ir::Value) -> Option<i64> {
    let ir = IrRef::new(ctx, body);
    let c = ArithConstantOp::defining(&ir, v)?;
    match ctx.attr_data(c.value(&ir)) {
        AttrData::Integer { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

/// Checks the launches of the host functions: work-group sizes.
pub fn check_launches(ctx: &Context, program: &Program<'_>) -> Vec<Diagnostic> {
    let mut errs = Vec::new();
    for f in &program.host_funcs {
        walk(f.body, f.op, WalkOrder::PreOrder, &mut |b, o| {
            let ir = IrRef::new(ctx, b);
            let Some(launch) = GpuLaunchFuncOp::cast(&ir, o) else {
                return WalkControl::Advance;
            };
            let sizes: Vec<Option<i64>> = launch
                .block_size(&ir)
                .iter()
                .map(|v| constant_index(ctx, b, *v))
                .collect();
            if sizes.iter().any(|s| s.is_none()) {
                errs.push(rule(
                    ctx,
                    b,
                    o,
                    "work-group size <= 256",
                    format!(
                        "the block sizes must be {} values so that the limit can be checked",
                        ArithConstantOp::def().name
                    ),
                ));
                return WalkControl::Advance;
            }
            let s: Vec<i64> = sizes.into_iter().flatten().collect();
            let total = s[0] * s[1] * s[2];
            let kernel = launched_kernel(ctx, b, launch).and_then(|(m, k)| program.kernel(m, k));
            let barrier = kernel.is_some_and(|k| uses_barrier(ctx, k));
            let shape = format!("{}x{}x{} = {total} threads", s[0], s[1], s[2]);
            if total > MAX_WORKGROUP {
                errs.push(rule(ctx, b, o, "work-group size <= 256", format!("block of {shape}")));
            } else if barrier && total > MAX_WORKGROUP_WITH_BARRIER {
                let k = kernel.map_or("", |k| k.name);
                errs.push(rule(
                    ctx,
                    b,
                    o,
                    "work-group size <= 64 with barrier()",
                    format!(
                        "kernel @{k} calls {} and is launched with a block of {shape}",
                        GpuBarrierOp::def().name
                    ),
                ));
            }
            WalkControl::Advance
        });
    }
    errs
}
