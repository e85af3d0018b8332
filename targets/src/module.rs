//! What a module holds for the emitters: the kernels of its `gpu.module`s and
//! its host functions. Inline `gpu.launch` ops are refused here (they must be
//! outlined first).

use crate::names::Symbols;
use lf_diag::Diagnostic;
use lf_dialects::builtin::BuiltinModuleOp;
use lf_dialects::func::FuncFuncOp;
use lf_dialects::gpu::{GpuFuncOp, GpuLaunchOp, GpuModuleOp};
use lf_ir::view::{IrRef, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, RegionId};

/// A function to emit: the body that stores the op, and the op.
#[derive(Copy, Clone)]
pub struct FuncRef<'a> {
    /// The body storing the op.
    pub body: &'a Body,
    /// The `gpu.func` or `func.func` op.
    pub op: OpId,
    /// Its symbol name.
    pub name: &'a str,
}

/// The C names the kernels `kernels` (`(gpu.module, kernel)`) get when they
/// are emitted together ([`crate::names`]), in order: the entry points of
/// [`crate::cuda::kernel_file`] and [`crate::opencl::kernel_program`].
pub fn kernel_c_names(kernels: &[(&str, FuncRef<'_>)]) -> Vec<String> {
    let names = Symbols::new(kernels.iter().map(|(m, k)| (*m, k.name)), []);
    kernels
        .iter()
        .map(|(m, k)| names.kernel(m, k.name).unwrap_or(k.name).to_string())
        .collect()
}

/// A module split into kernels, host functions and external declarations.
pub struct Program<'a> {
    /// The C names of the kernels and host functions.
    pub names: Symbols,
    /// `gpu.func`s of all `gpu.module`s, in program order, with their module's name.
    pub kernels: Vec<(&'a str, FuncRef<'a>)>,
    /// `func.func`s with a body.
    pub host_funcs: Vec<FuncRef<'a>>,
    /// `func.func`s without a body (runtime functions such as `printMemrefF32`).
    pub declarations: Vec<FuncRef<'a>>,
}

/// The error position of an op.
pub fn op_pos(ctx: &Context, body: &Body, op: OpId) -> Option<lf_diag::SourcePos> {
    body.op_loc(op).source_pos(ctx)
}

/// An error diagnostic at an op.
pub fn op_error(ctx: &Context, body: &Body, op: OpId, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(op_pos(ctx, body, op), msg.into())
}

/// The name of `op` (`dialect.op`) as diagnostics quote it. The emitters
/// recognize ops by their views; the name is for messages, and for the one
/// rule about ops that are never registered (RV770's no atomics, see
/// [`crate::rv770`]).
pub fn op_label<'a>(ctx: &'a Context, body: &Body, op: OpId) -> &'a str {
    ctx.op_name_str(body.op_name(op))
}

/// The ops of region `region` of the isolated op `op` (stored in `body`),
/// each with the body that stores it.
fn region_ops(body: &Body, op: OpId, region: RegionId) -> Vec<(&Body, OpId)> {
    let rb = body.regions_body(op);
    rb.region_blocks(region)
        .flat_map(|blk| rb.block_ops(blk).map(move |o| (rb, o)))
        .collect()
}

fn name_of<'a>(ctx: &'a Context, body: &Body, op: OpId) -> &'a str {
    lf_ir::symbols::symbol_name(ctx, body, op).map_or("", |i| ctx.ident_str(i))
}

impl<'a> Program<'a> {
    /// Collects the parts of module `op`; inline `gpu.launch` and unknown
    /// top-level ops are errors.
    pub fn collect(ctx: &'a Context, body: &'a Body, op: OpId) -> Result<Program<'a>, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        walk(body, op, WalkOrder::PreOrder, &mut |b, o| {
            if GpuLaunchOp::isa(&IrRef::new(ctx, b), o) {
                errors.push(op_error(
                    ctx,
                    b,
                    o,
                    format!(
                        "inline '{}' cannot be translated: outline the kernel first \
                         (run lf-opt --pass-pipeline='builtin.module(gpu-kernel-outlining)')",
                        GpuLaunchOp::def().name
                    ),
                ));
            }
            WalkControl::Advance
        });
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut p = Program {
            names: Symbols::default(),
            kernels: Vec::new(),
            host_funcs: Vec::new(),
            declarations: Vec::new(),
        };
        let top = match BuiltinModuleOp::cast(&IrRef::new(ctx, body), op) {
            Some(m) => region_ops(body, m.op(), m.body_region(&IrRef::new(ctx, body))),
            None => vec![(body, op)],
        };
        for (b, o) in top {
            let ir = IrRef::new(ctx, b);
            if let Some(m) = GpuModuleOp::cast(&ir, o) {
                let mname = name_of(ctx, b, o);
                for (mb, k) in region_ops(b, o, m.body_region(&ir)) {
                    if GpuFuncOp::isa(&IrRef::new(ctx, mb), k) {
                        p.kernels.push((
                            mname,
                            FuncRef {
                                body: mb,
                                op: k,
                                name: name_of(ctx, mb, k),
                            },
                        ));
                    } else {
                        let other = op_label(ctx, mb, k);
                        errors.push(op_error(
                            ctx,
                            mb,
                            k,
                            format!("'{other}' in a gpu.module is not supported by the emitters"),
                        ));
                    }
                }
            } else if let Some(func) = FuncFuncOp::cast(&ir, o) {
                let f = FuncRef {
                    body: b,
                    op: o,
                    name: name_of(ctx, b, o),
                };
                if func.is_external(&ir) {
                    p.declarations.push(f);
                } else {
                    p.host_funcs.push(f);
                }
            } else {
                let other = op_label(ctx, b, o);
                errors.push(op_error(
                    ctx,
                    b,
                    o,
                    format!("'{other}' at module level is not supported by the emitters"),
                ));
            }
        }
        // Any number of kernels may share a name (one per gpu.module, as
        // gpu-kernel-outlining makes them of the launches of one function):
        // each gets a C name of its own.
        p.names = Symbols::new(
            p.kernels.iter().map(|(m, k)| (*m, k.name)),
            p.host_funcs.iter().map(|f| f.name),
        );
        if errors.is_empty() {
            Ok(p)
        } else {
            Err(errors)
        }
    }

    /// The C name of kernel `@module::@name` (see [`crate::names`]).
    pub fn kernel_c_name(&self, module: &str, name: &str) -> Option<&str> {
        self.names.kernel(module, name)
    }

    /// The kernel `@module::@name`.
    pub fn kernel(&self, module: &str, name: &str) -> Option<FuncRef<'a>> {
        self.kernels
            .iter()
            .find(|(m, k)| *m == module && k.name == name)
            .map(|(_, k)| *k)
    }
}
