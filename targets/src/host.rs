//! Host code shared by the CUDA and OpenCL emitters: function signatures,
//! calls (to other host functions and to the runner-utils print functions),
//! launch dimensions.

use crate::ctypes::Flavor;
use crate::emit::{Emitter, MemView, Space, Val};
use crate::module::{op_error, FuncRef, Program};
use crate::runtime;
use lf_diag::Diagnostic;
use lf_dialects::func::{FuncCallOp, FuncFuncOp};
use lf_dialects::gpu::{GpuAllocOp, GpuLaunchFuncOp};
use lf_ir::view::{IrRef, OpView};
use lf_ir::{AttrData, Context, TypeData};

/// The C name of host function `name` in `program` (`main` becomes
/// `lf_main`; see [`crate::names`]).
fn c_name(program: &Program<'_>, name: &str) -> String {
    program.names.func(name).unwrap_or(name).to_string()
}

/// Emits every host function of `program`: all prototypes first (appended to
/// `out`), then all definitions, so that functions may call each other in any
/// order. Errors are collected into `errors`. Returns whether there is a
/// `main` function (which the caller wraps in the C `main`). With
/// `profile_launches`, kernel launches are timed ([`Emitter::profile_launches`]).
pub fn emit_functions(
    ctx: &Context,
    program: &Program<'_>,
    flavor: Flavor,
    profile_launches: bool,
    out: &mut String,
    errors: &mut Vec<Diagnostic>,
) -> bool {
    let mut has_main = false;
    let mut defs = String::new();
    for f in &program.host_funcs {
        has_main |= f.name == "main";
        match emit_function(ctx, program, *f, flavor, profile_launches) {
            Ok((proto, def)) => {
                out.push_str(&proto);
                out.push_str(";\n");
                defs.push('\n');
                defs.push_str(&def);
            }
            Err(e) => errors.extend(e),
        }
    }
    out.push_str(&defs);
    has_main
}

/// Emits one host function: signature and body (kernel launches timed
/// with `profile_launches`).
pub fn emit_function<'a>(
    ctx: &'a Context,
    program: &'a Program<'a>,
    f: FuncRef<'a>,
    flavor: Flavor,
    profile_launches: bool,
) -> Result<(String, String), Vec<Diagnostic>> {
    // Returns the prototype and the definition.
    let mut em = Emitter::new(ctx, f.body, f.op, flavor);
    em.profile_launches = profile_launches;
    em.at_func = true;
    em.program = Some(program);
    em.names.avoid(&program.names);
    let ir = IrRef::new(ctx, f.body);
    let Some(func) = FuncFuncOp::cast(&ir, f.op) else {
        return Err(vec![op_error(
            ctx,
            f.body,
            f.op,
            format!("host functions must be '{}' ops", FuncFuncOp::def().name),
        )]);
    };
    let (inputs, results) = (func.input_types(&ir), func.result_types(&ir));
    if results.len() > 1 {
        return Err(vec![op_error(
            ctx,
            f.body,
            f.op,
            "host functions with more than one result are not supported",
        )]);
    }
    let ret = match results.first() {
        Some(t) => em.cty(f.op, *t),
        None => "void",
    };
    let rb = f.body.regions_body(f.op);
    let Some(entry) = func.entry_block(&ir) else {
        return Err(vec![op_error(ctx, f.body, f.op, "function without a body")]);
    };
    if rb.region_blocks(func.body(&ir)).count() > 1 {
        return Err(vec![op_error(
            ctx,
            f.body,
            f.op,
            "functions with several blocks are not supported (use scf ops)",
        )]);
    }
    let mut params = Vec::new();
    for (i, &a) in rb.block_args(entry).to_vec().iter().enumerate() {
        let n = em.names.get(a);
        let t = inputs.get(i).copied().unwrap_or_else(|| rb.value_type(a));
        if matches!(ctx.type_data(t), TypeData::MemRef { .. }) {
            if let Some(m) = em.view_of_type(f.op, t, n.clone(), Space::Host) {
                let ct = em.elem_cty(f.op, m.elem);
                params.push(format!("{ct}* {n}"));
                em.vals.insert(a, Val::Mem(m));
            }
        } else {
            let ct = em.cty(f.op, t);
            params.push(format!("{ct} {n}"));
            em.vals.insert(a, Val::Expr(n));
        }
    }
    let params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    em.at_func = false;
    em.block(entry, results.is_empty());
    if !em.errors.is_empty() {
        return Err(em.errors);
    }
    let proto = format!("static {ret} {}({params})", c_name(program, f.name));
    Ok((proto.clone(), format!("{proto} {{\n{}}}\n", em.out)))
}

/// `func.call`: another host function, or a runner-utils print function.
pub fn call_op(em: &mut Emitter<'_>, call: FuncCallOp) {
    let ir = IrRef::new(em.ctx, em.body);
    let op = call.op();
    let callee = call.callee(&ir).to_string();
    let args = call.operands(&ir);
    let defined = em
        .program
        .is_some_and(|p| p.host_funcs.iter().any(|f| f.name == callee));
    // A function of the module with a body is called, even when it has a
    // runtime function's name (it is renamed, see crate::names).
    if let Some(elem) = runtime::runtime_function(&callee).filter(|_| !defined) {
        match elem {
            Some(_) => {
                let Some(m) = em.mem(op, args[0]) else { return };
                if m.space != Space::Host {
                    em.error(
                        op,
                        format!("'{callee}' of a device buffer: copy it to host memory with gpu.memcpy first"),
                    );
                    return;
                }
                let sizes = if m.dims.is_empty() {
                    "0".to_string()
                } else {
                    m.dims.join(", ")
                };
                let rank = m.dims.len();
                em.stmt(&format!(
                    "{{ const int64_t lf_sizes[] = {{{sizes}}}; {callee}({}, {rank}, lf_sizes); }}",
                    m.ptr
                ));
            }
            None => {
                let a: Vec<String> = args.iter().map(|v| em.expr(*v)).collect();
                em.stmt(&format!("{callee}({});", a.join(", ")));
            }
        }
        return;
    }
    let program = em.program.filter(|p| p.host_funcs.iter().any(|f| f.name == callee));
    let Some(program) = program else {
        em.error(
            op,
            format!(
                "call to '{callee}', which is neither a host function of this module nor a runner-utils print function"
            ),
        );
        return;
    };
    let mut a = Vec::new();
    for v in &args {
        match em.vals.get(v).cloned() {
            Some(Val::Mem(m)) => {
                if m.space != Space::Host {
                    em.error(op, "passing a device buffer to a host function is not supported");
                    return;
                }
                a.push(m.ptr)
            }
            _ => a.push(em.expr(*v)),
        }
    }
    let text = format!("{}({})", c_name(program, &callee), a.join(", "));
    match call.results(&ir).first().copied() {
        Some(r) => {
            let t = em.cty(op, em.body.value_type(r));
            let n = em.names.get(r);
            em.stmt(&format!("{t} {n} = {text};"));
            em.vals.insert(r, Val::Expr(n));
        }
        None => em.stmt(&format!("{text};")),
    }
}

/// The grid and block sizes of a `gpu.launch_func` as C expressions, the
/// kernel operands, and the dynamic shared memory size (if any).
pub struct Launch {
    /// The kernel's C name.
    pub kernel: String,
    /// Grid sizes x, y, z.
    pub grid: [String; 3],
    /// Block sizes x, y, z.
    pub block: [String; 3],
    /// Dynamic shared memory bytes.
    pub shared: Option<String>,
    /// Kernel operands.
    pub args: Vec<lf_ir::Value>,
}

/// The `(module, kernel)` names of the kernel a `gpu.launch_func` launches,
/// if it names one as `@module::@kernel`.
pub fn launched_kernel<'c>(
    ctx: &'c Context,
    body: &lf_ir::Body,
    launch: GpuLaunchFuncOp,
) -> Option<(&'c str, &'c str)> {
    let ir = IrRef::new(ctx, body);
    match ctx.attr_data(launch.kernel(&ir)) {
        AttrData::SymbolRef { nested, .. } if nested.len() == 1 => {
            Some((launch.kernel_module(&ir), launch.kernel_name(&ir)))
        }
        _ => None,
    }
}

/// Reads a `gpu.launch_func`.
pub fn launch(em: &mut Emitter<'_>, launch: GpuLaunchFuncOp) -> Option<Launch> {
    let ir = IrRef::new(em.ctx, em.body);
    let op = launch.op();
    let Some((module, kernel)) = launched_kernel(em.ctx, em.body, launch) else {
        em.error(op, "launch without a '@module::@kernel' reference");
        return None;
    };
    let Some(kernel) = em.program.and_then(|p| p.kernel_c_name(module, kernel)) else {
        em.error(
            op,
            format!("launch of '@{module}::@{kernel}', which is not a kernel of this module"),
        );
        return None;
    };
    if launch.cluster_size_x(&ir).is_some() {
        em.error(op, "thread-block clusters are not supported by the emitter");
        return None;
    }
    let exprs = |vs: [lf_ir::Value; 3]| vs.map(|v| em.expr(v));
    Some(Launch {
        kernel: kernel.to_string(),
        grid: exprs(launch.grid_size(&ir)),
        block: exprs(launch.block_size(&ir)),
        shared: launch.dynamic_shared_memory_size(&ir).map(|v| em.expr(v)),
        args: launch.kernel_operands(&ir).to_vec(),
    })
}

/// The result of a `gpu.alloc` (static sizes only, else an error at it),
/// its C name and its view as device memory; the caller declares it.
pub fn device_alloc(em: &mut Emitter<'_>, alloc: GpuAllocOp) -> Option<(lf_ir::Value, String, MemView)> {
    let ir = IrRef::new(em.ctx, em.body);
    let op = alloc.op();
    if !alloc.dynamic_sizes(&ir).is_empty() {
        em.error(
            op,
            format!(
                "{} with dynamic sizes is not supported by the emitter",
                GpuAllocOp::def().name
            ),
        );
        return None;
    }
    let r = alloc.memref(&ir);
    let n = em.names.get(r);
    let ty = em.body.value_type(r);
    let m = em.view_of_type(op, ty, n.clone(), Space::Device)?;
    Some((r, n, m))
}

/// Whether a memref operand of the launch `op` lives in `space` = device
/// memory; reports it at `op` otherwise.
pub fn require_device_operand(em: &mut Emitter<'_>, op: lf_ir::OpId, space: Space) -> bool {
    if space != Space::Device {
        em.error(
            op,
            "kernel operand is host memory: allocate it with gpu.alloc and copy it with gpu.memcpy",
        );
    }
    space == Space::Device
}

/// The byte size of a memref as a C expression.
pub fn bytes(m: &MemView, elem_c: &str) -> String {
    format!("(size_t)({}) * sizeof({elem_c})", m.count())
}
