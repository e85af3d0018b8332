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

/// The number of function arguments of a `gpu.func` (from its type).
pub fn arg_count(ctx: &Context, f: FuncRef<'_>) -> usize {
    gpu_func(ctx, f).map_or(0, |g| g.num_inputs(&(ctx, f.body)))
}

/// C and OpenCL C keywords and the OpenCL C 1.1 built-in functions a kernel
/// name would clash with (the emitted kernel keeps the gpu.func's name, which
/// the host code uses to find it).
#[rustfmt::skip]
const CLASHING_NAMES: &[&str] = &[
    "auto", "bool", "break", "case", "char", "const", "constant", "continue", "default", "do",
    "double", "else", "enum", "extern", "float", "for", "global", "goto", "half", "if",
    "image2d_t", "image3d_t", "inline", "int", "kernel", "local", "long", "private", "register", "restrict",
    "return", "sampler_t", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "uchar",
    "uint", "ulong", "union", "unsigned", "ushort", "void", "volatile", "while", "main", "get_work_dim",
    "get_global_size", "get_global_id", "get_local_size", "get_local_id", "get_num_groups", "get_group_id", "get_global_offset", "barrier", "mem_fence", "read_mem_fence",
    "write_mem_fence", "async_work_group_copy", "async_work_group_strided_copy", "wait_group_events", "prefetch", "acos", "acosh", "acospi", "asin", "asinh",
    "asinpi", "atan", "atan2", "atanh", "atanpi", "atan2pi", "cbrt", "ceil", "copysign", "cos",
    "cosh", "cospi", "erfc", "erf", "exp", "exp2", "exp10", "expm1", "fabs", "fdim",
    "floor", "fma", "fmax", "fmin", "fmod", "fract", "frexp", "hypot", "ilogb", "ldexp",
    "lgamma", "lgamma_r", "log", "log2", "log10", "log1p", "logb", "mad", "maxmag", "minmag",
    "modf", "nan", "nextafter", "pow", "pown", "powr", "remainder", "remquo", "rint", "rootn",
    "round", "rsqrt", "sin", "sincos", "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi",
    "tgamma", "trunc", "abs", "abs_diff", "add_sat", "hadd", "rhadd", "clamp", "clz", "mad_hi",
    "mad_sat", "max", "min", "mul_hi", "rotate", "sub_sat", "upsample", "mad24", "mul24", "degrees",
    "mix", "radians", "step", "smoothstep", "sign", "cross", "dot", "distance", "length", "normalize",
    "fast_distance", "fast_length", "fast_normalize", "isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal", "islessgreater",
    "isfinite", "isinf", "isnan", "isnormal", "isordered", "isunordered", "signbit", "any", "all", "bitselect",
    "select", "vload2", "vload4", "vload8", "vload16", "vstore2", "vstore4", "vstore8", "vstore16", "vload_half",
    "vstore_half",
];

/// Why a kernel named `name` cannot be emitted as is, if it cannot.
fn clashing_kernel_name(name: &str, flavor: Flavor) -> Option<&'static str> {
    if name.starts_with("lf_") || name.starts_with("__") {
        return Some("is reserved for lf's generated code");
    }
    let clashes = CLASHING_NAMES.contains(&name);
    match flavor {
        Flavor::OclDevice if clashes => Some("is an OpenCL C keyword or built-in function"),
        _ if clashes => Some("is a C keyword or a CUDA/OpenCL built-in function"),
        _ => None,
    }
}

/// Appends each of `kernels` to `out` as `source` emits it, after a comment
/// naming its `gpu.module` and `gpu.func`; returns `out`, or the errors of
/// every kernel that failed.
pub fn append_kernels(
    mut out: String,
    kernels: &[(&str, FuncRef<'_>)],
    mut source: impl FnMut(FuncRef<'_>) -> Result<String, Vec<Diagnostic>>,
) -> Result<String, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    for (module, k) in kernels {
        match source(*k) {
            Ok(s) => {
                out.push_str(&format!("\n/* gpu.module @{module}, gpu.func @{} */\n", k.name));
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

/// Emits the kernel `f` for a device flavor.
pub fn emit_kernel(ctx: &Context, f: FuncRef<'_>, flavor: Flavor) -> Result<String, Vec<Diagnostic>> {
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
    if let Some(why) = clashing_kernel_name(f.name, flavor) {
        return Err(vec![op_error(
            ctx,
            f.body,
            f.op,
            format!("kernel name '{}' {why}: rename the gpu.func", f.name),
        )]);
    }
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
