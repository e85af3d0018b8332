//! What a module holds for the emitters: the kernels of its `gpu.module`s and
//! its host functions. Inline `gpu.launch` ops are refused here (they must be
//! outlined first).

use lf_diag::Diagnostic;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId};

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

/// A module split into kernels, host functions and external declarations.
pub struct Program<'a> {
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

fn name_of<'a>(ctx: &'a Context, body: &Body, op: OpId) -> &'a str {
    lf_ir::symbols::symbol_name(ctx, body, op).map_or("", |i| ctx.ident_str(i))
}

impl<'a> Program<'a> {
    /// Collects the parts of module `op`; inline `gpu.launch` and unknown
    /// top-level ops are errors.
    pub fn collect(ctx: &'a Context, body: &'a Body, op: OpId) -> Result<Program<'a>, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        walk(body, op, WalkOrder::PreOrder, &mut |b, o| {
            if ctx.op_name_str(b.op_name(o)) == "gpu.launch" {
                errors.push(op_error(
                    ctx,
                    b,
                    o,
                    "inline 'gpu.launch' cannot be translated: outline the kernel first \
                     (run lf-opt --pass-pipeline='builtin.module(gpu-kernel-outlining)')",
                ));
            }
            WalkControl::Advance
        });
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut p = Program {
            kernels: Vec::new(),
            host_funcs: Vec::new(),
            declarations: Vec::new(),
        };
        let top = if ctx.op_name_str(body.op_name(op)) == "builtin.module" {
            let rb = body.regions_body(op);
            let mut ops = Vec::new();
            for &r in body.regions(op) {
                for blk in rb.region_blocks(r) {
                    ops.extend(rb.block_ops(blk).map(|o| (rb, o)));
                }
            }
            ops
        } else {
            vec![(body, op)]
        };
        for (b, o) in top {
            match ctx.op_name_str(b.op_name(o)) {
                "gpu.module" => {
                    let mname = name_of(ctx, b, o);
                    let mb = b.regions_body(o);
                    for &r in b.regions(o) {
                        for blk in mb.region_blocks(r) {
                            for k in mb.block_ops(blk) {
                                match ctx.op_name_str(mb.op_name(k)) {
                                    "gpu.func" => p.kernels.push((
                                        mname,
                                        FuncRef {
                                            body: mb,
                                            op: k,
                                            name: name_of(ctx, mb, k),
                                        },
                                    )),
                                    "gpu.module_end" => {}
                                    other => errors.push(op_error(
                                        ctx,
                                        mb,
                                        k,
                                        format!("'{other}' in a gpu.module is not supported by the emitters"),
                                    )),
                                }
                            }
                        }
                    }
                }
                "func.func" => {
                    let f = FuncRef {
                        body: b,
                        op: o,
                        name: name_of(ctx, b, o),
                    };
                    let rb = b.regions_body(o);
                    if b.regions(o).iter().all(|&r| rb.region_is_empty(r)) {
                        p.declarations.push(f);
                    } else {
                        p.host_funcs.push(f);
                    }
                }
                other => errors.push(op_error(
                    ctx,
                    b,
                    o,
                    format!("'{other}' at module level is not supported by the emitters"),
                )),
            }
        }
        let mut seen = rustc_hash::FxHashSet::default();
        for (_, k) in &p.kernels {
            if !seen.insert(k.name) {
                errors.push(op_error(
                    ctx,
                    k.body,
                    k.op,
                    format!(
                        "two kernels are named '{}': kernel names must be unique across gpu.modules",
                        k.name
                    ),
                ));
            }
        }
        if errors.is_empty() {
            Ok(p)
        } else {
            Err(errors)
        }
    }

    /// The kernel `@module::@name`.
    pub fn kernel(&self, module: &str, name: &str) -> Option<FuncRef<'a>> {
        self.kernels
            .iter()
            .find(|(m, k)| *m == module && k.name == name)
            .map(|(_, k)| *k)
    }
}
