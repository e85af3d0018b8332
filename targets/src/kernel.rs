//! Kernels: one `gpu.func` to one `__global__` (CUDA) or `__kernel` (OpenCL C)
//! function, with workgroup attributions as `__shared__`/`__local` arrays.

use crate::ctypes::Flavor;
use crate::emit::{has_space, Emitter, Space, Val};
use crate::module::{op_error, FuncRef};
use lf_diag::Diagnostic;
use lf_dialects::gpu::{AddressSpace, GpuFuncOp};
use lf_ir::view::OpView;
use lf_ir::{AttrData, Context, TypeData};

/// The argument attribute that puts a kernel's memref argument in constant
/// memory (`__constant` in OpenCL C, `const __restrict__` in CUDA).
pub const CONSTANT_ARG_ATTR: &str = "lf.constant";

/// The `gpu.func` view of `f`, if it is one.
fn gpu_func(ctx: &Context, f: FuncRef<'_>) -> Option<GpuFuncOp> {
    GpuFuncOp::cast(&(ctx, f.body), f.op)
}

/// Whether kernel argument `i` of `f` carries the `lf.constant` argument attribute.
pub fn is_constant_arg(ctx: &Context, f: FuncRef<'_>, i: usize) -> bool {
    let Some(a) = gpu_func(ctx, f).and_then(|g| g.arg_attrs(&(ctx, f.body))) else {
        return false;
    };
    match ctx.attr_data(a) {
        AttrData::Array(dicts) => dicts
            .get(i)
            .is_some_and(|d| lf_ir::ods::dict_get(ctx, Some(*d), CONSTANT_ARG_ATTR).is_some()),
        _ => false,
    }
}

/// ` __launch_bounds__(N)` for a kernel whose `known_block_size` gives N
/// threads per block (empty without it): ptxas then keeps the kernel's
/// registers within what N threads may hold (64K per block), so that a
/// kernel with large blocks launches instead of failing with "too many
/// resources requested" (it may spill instead).
fn launch_bounds(ctx: &Context, f: FuncRef<'_>) -> String {
    let threads = gpu_func(ctx, f)
        .and_then(|g| g.known_block_size(&(ctx, f.body)))
        .filter(|sizes| !sizes.is_empty() && sizes.iter().all(|&n| n > 0))
        .and_then(|sizes| sizes.iter().try_fold(1i64, |acc, &n| acc.checked_mul(n)));
    match threads {
        Some(n) if n <= 1024 => format!(" __launch_bounds__({n})"),
        _ => String::new(),
    }
}

/// The number of function arguments of a `gpu.func` (from its type).
pub fn arg_count(ctx: &Context, f: FuncRef<'_>) -> usize {
    gpu_func(ctx, f).map_or(0, |g| g.num_inputs(&(ctx, f.body)))
}

/// The comment above an emitted kernel: its `gpu.module` and `gpu.func`.
pub fn kernel_comment(module: &str, kernel: &str) -> String {
    crate::names::comment_safe(&format!("gpu.module @{module}, gpu.func @{kernel}"))
}

/// Appends each of `kernels` to `out` as `source` emits it under its C name
/// ([`crate::module::kernel_c_names`]), after a comment naming its
/// `gpu.module` and `gpu.func`; returns `out`, or the errors of every kernel
/// that failed.
pub fn append_kernels(
    mut out: String,
    kernels: &[(&str, FuncRef<'_>)],
    mut source: impl FnMut(FuncRef<'_>, &str) -> Result<String, Vec<Diagnostic>>,
) -> Result<String, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let names = crate::module::kernel_c_names(kernels);
    for ((module, k), cname) in kernels.iter().zip(&names) {
        match source(*k, cname) {
            Ok(s) => {
                out.push_str(&format!("\n/* {} */\n", kernel_comment(module, k.name)));
                out.push_str(&s);
            }
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Emits the kernel `f` for a device flavor, as the C function `cname`.
pub fn emit_kernel(ctx: &Context, f: FuncRef<'_>, cname: &str, flavor: Flavor) -> Result<String, Vec<Diagnostic>> {
    let ir = (ctx, f.body);
    let Some(g) = gpu_func(ctx, f).filter(|g| g.is_kernel(&ir)) else {
        return Err(vec![op_error(
            ctx,
            f.body,
            f.op,
            format!(
                "'{}' @{} is not a kernel: device functions are not supported by the emitter",
                GpuFuncOp::def().name,
                f.name
            ),
        )]);
    };
    let mut em = Emitter::new(ctx, f.body, f.op, flavor);
    em.at_func = true;
    let rb = f.body.regions_body(f.op);
    let Some(entry) = rb.entry_block(g.body(&ir)) else {
        return Err(vec![op_error(ctx, f.body, f.op, "kernel without a body")]);
    };
    if rb.region_blocks(g.body(&ir)).count() > 1 {
        return Err(vec![op_error(
            ctx,
            f.body,
            f.op,
            "kernels with several blocks are not supported (use scf ops)",
        )]);
    }
    let nargs = g.num_inputs(&ir);
    let nwg = g.num_workgroup_attributions(&ir);
    let args = rb.block_args(entry).to_vec();
    let mut params = Vec::new();
    let mut locals = Vec::new();
    for (i, &a) in args.iter().enumerate() {
        let n = em.names.get(a);
        let t = rb.value_type(a);
        let is_mem = matches!(ctx.type_data(t), TypeData::MemRef { .. });
        if i < nargs {
            if is_mem {
                let constant = is_constant_arg(ctx, f, i);
                let space = if constant { Space::Constant } else { Space::Global };
                if let Some(m) = em.view_of_type(f.op, t, n.clone(), space) {
                    let ct = em.elem_cty(f.op, m.elem);
                    params.push(match (flavor, constant) {
                        (Flavor::OclDevice, true) => format!("__constant {ct}* {n}"),
                        (Flavor::OclDevice, false) => format!("__global {ct}* {n}"),
                        (_, true) => format!("const {ct}* __restrict__ {n}"),
                        _ => format!("{ct}* {n}"),
                    });
                    em.vals.insert(a, Val::Mem(m));
                }
            } else {
                let ct = em.cty(f.op, t);
                params.push(format!("{ct} {n}"));
                em.vals.insert(a, Val::Expr(n));
            }
        } else {
            // Attributions: workgroup first, then private.
            let workgroup = i < nargs + nwg;
            let space = if workgroup { Space::Shared } else { Space::Private };
            if workgroup && !has_space(ctx, t, AddressSpace::Workgroup) {
                em.error(f.op, "workgroup attribution without the workgroup address space");
            }
            if let Some(m) = em.view_of_type(f.op, t, n.clone(), space) {
                let ct = em.elem_cty(f.op, m.elem);
                let count = m.count();
                let shape = m.dims.join("x");
                let qual = match (flavor, workgroup) {
                    (Flavor::OclDevice, true) => "__local ",
                    (_, true) => "__shared__ ",
                    _ => "",
                };
                // Workgroup arrays 16-byte aligned: the device compiler may
                // then combine neighbouring scalar reads into one 128-bit read
                // (ld.shared.v4 after unrolling), as for vector types.
                let align = if workgroup { " __attribute__((aligned(16)))" } else { "" };
                locals.push(format!("{qual}{ct} {n}[{count}]{align}; /* {shape} */"));
                em.vals.insert(a, Val::Mem(m));
            }
        }
    }
    em.at_func = false;
    for l in &locals {
        em.stmt(l);
    }
    em.block(entry, true);
    if !em.errors.is_empty() {
        return Err(em.errors);
    }
    let params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    let head = match flavor {
        Flavor::OclDevice => "__kernel void".to_string(),
        _ => format!("extern \"C\" __global__ void{}", launch_bounds(ctx, f)),
    };
    Ok(format!("{head} {cname}({params}) {{\n{}}}\n", em.out))
}
