//! Kernels: one `gpu.func` to one `__global__` (CUDA) or `__kernel` (OpenCL C)
//! function, with workgroup attributions as `__shared__`/`__local` arrays.

use crate::ctypes::Flavor;
use crate::emit::{has_space, Emitter, Space, Val};
use crate::module::{op_error, FuncRef};
use lf_diag::Diagnostic;
use lf_ir::{AttrData, Context, TypeData};

/// Whether kernel argument `i` of `f` carries the `lf.constant` argument attribute.
pub fn is_constant_arg(ctx: &Context, f: FuncRef<'_>, i: usize) -> bool {
    let Some(a) = lf_ir::ods::prop(ctx, f.body, f.op, "arg_attrs") else {
        return false;
    };
    match ctx.attr_data(a) {
        AttrData::Array(dicts) => dicts
            .get(i)
            .is_some_and(|d| lf_ir::ods::dict_get(ctx, Some(*d), "lf.constant").is_some()),
        _ => false,
    }
}

/// Number of workgroup attributions of a `gpu.func`.
pub fn workgroup_count(ctx: &Context, f: FuncRef<'_>) -> usize {
    lf_ir::ods::discardable_attr(ctx, f.body, f.op, "workgroup_attributions")
        .and_then(|a| lf_ir::ods::constraints::int_value(ctx, a))
        .unwrap_or(0) as usize
}

/// The number of function arguments of a `gpu.func` (from its type).
pub fn arg_count(ctx: &Context, f: FuncRef<'_>) -> usize {
    match lf_ir::ods::prop(ctx, f.body, f.op, "function_type").map(|a| ctx.attr_data(a)) {
        Some(AttrData::Type(t)) => match ctx.type_data(*t) {
            TypeData::Function { inputs, .. } => inputs.len(),
            _ => 0,
        },
        _ => 0,
    }
}

/// Emits the kernel `f` for a device flavor.
pub fn emit_kernel(ctx: &Context, f: FuncRef<'_>, flavor: Flavor) -> Result<String, Vec<Diagnostic>> {
    if lf_ir::ods::discardable_attr(ctx, f.body, f.op, "gpu.kernel").is_none() {
        return Err(vec![op_error(
            ctx,
            f.body,
            f.op,
            format!(
                "'gpu.func' @{} is not a kernel: device functions are not supported by the emitter",
                f.name
            ),
        )]);
    }
    let mut em = Emitter::new(ctx, f.body, f.op, flavor);
    em.at_func = true;
    let rb = f.body.regions_body(f.op);
    let Some(entry) = f.body.regions(f.op).first().and_then(|&r| rb.entry_block(r)) else {
        return Err(vec![op_error(ctx, f.body, f.op, "kernel without a body")]);
    };
    if rb.region_blocks(f.body.region(f.op, 0)).count() > 1 {
        return Err(vec![op_error(
            ctx,
            f.body,
            f.op,
            "kernels with several blocks are not supported (use scf ops)",
        )]);
    }
    let nargs = arg_count(ctx, f);
    let nwg = workgroup_count(ctx, f);
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
                    let ct = em.cty(f.op, m.elem);
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
            if workgroup && !has_space(ctx, t, "workgroup") {
                em.error(f.op, "workgroup attribution without the workgroup address space");
            }
            if let Some(m) = em.view_of_type(f.op, t, n.clone(), space) {
                let ct = em.cty(f.op, m.elem);
                let count = m.count();
                let shape = m.dims.join("x");
                let qual = match (flavor, workgroup) {
                    (Flavor::OclDevice, true) => "__local ",
                    (_, true) => "__shared__ ",
                    _ => "",
                };
                locals.push(format!("{qual}{ct} {n}[{count}]; /* {shape} */"));
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
        Flavor::OclDevice => "__kernel void",
        _ => "extern \"C\" __global__ void",
    };
    Ok(format!("{head} {}({params}) {{\n{}}}\n", f.name, em.out))
}
