//! One map-style `gpu.func` kernel as a Brook+ kernel: gather arrays for
//! the memrefs it reads, `out` streams for the ones it writes (see
//! [`super::map_style`]), scalars as they are; a C89 body (declarations
//! first) whose ids come from `instance()`.

use super::map_style::KernelPlan;
use crate::ctypes::{self, Flavor};
use crate::emit::{Emitter, Space, Val};
use crate::module::{op_error, FuncRef};
use lf_diag::Diagnostic;
use lf_dialects::gpu::GpuFuncOp;
use lf_ir::view::OpView;
use lf_ir::{Context, TypeData};

/// The Brook+ type of the elements of an output stream: the scalar, or
/// its vector of `lanes`.
pub fn stream_type(scalar: &str, lanes: usize) -> String {
    if lanes == 1 {
        scalar.to_string()
    } else {
        format!("{scalar}{lanes}")
    }
}

/// Emits the kernel `f` under the name `cname` following `plan`.
pub fn emit_kernel(ctx: &Context, f: FuncRef<'_>, cname: &str, plan: &KernelPlan) -> Result<String, Vec<Diagnostic>> {
    let ir = (ctx, f.body);
    let Some(g) = GpuFuncOp::cast(&ir, f.op).filter(|g| g.is_kernel(&ir)) else {
        return Err(vec![op_error(
            ctx,
            f.body,
            f.op,
            "device functions are not supported by the Brook+ emitter",
        )]);
    };
    let mut em = Emitter::new(ctx, f.body, f.op, Flavor::BrookKernel);
    em.c89_decls = Some(Vec::new());
    em.brook = Some(plan.context.clone());
    em.at_func = true;
    let rb = f.body.regions_body(f.op);
    let Some(entry) = rb.entry_block(g.body(&ir)) else {
        return Err(vec![op_error(ctx, f.body, f.op, "kernel without a body")]);
    };
    let args = rb.block_args(entry).to_vec();
    let mut params = Vec::new();
    let mut finals = Vec::new();
    let mut inits = Vec::new();
    for (i, &a) in args.iter().enumerate().take(g.num_inputs(&ir)) {
        let n = em.names.get(a);
        let t = rb.value_type(a);
        if !matches!(ctx.type_data(t), TypeData::MemRef { .. }) {
            let ct = em.cty(f.op, t);
            params.push(format!("{ct} {n}"));
            em.vals.insert(a, Val::Expr(n));
            continue;
        }
        let Some(m) = em.view_of_type(f.op, t, n.clone(), Space::Global) else {
            continue;
        };
        let ct = em.elem_cty(f.op, m.elem);
        let usage = &plan.args[i];
        if usage.gather {
            let dims = "[]".repeat(m.dims.len().max(1));
            params.push(format!("{ct} {n}{dims}"));
        }
        for &k in &usage.outputs {
            let s = &plan.outputs[k];
            let st = stream_type(ct, s.lanes);
            params.push(format!("out {st} {}<>", s.name));
            if s.lanes > 1 {
                let local = format!("lf_{}", s.name);
                em.declare(&st, &local, None);
                if s.lane_boxes.iter().any(Option::is_some) {
                    // Lanes under bound checks may stay unassigned: start from zeros.
                    let zeros = vec![crate::expr::float_literal(0.0, ct == "float"); s.lanes].join(", ");
                    inits.push(format!("{local} = {st}({zeros});"));
                }
                finals.push(format!("{} = {local};", s.name));
            }
        }
        em.vals.insert(a, Val::Mem(m));
    }
    em.at_func = false;
    for l in &inits {
        em.stmt(l);
    }
    em.declare("int4", "lf_pos", Some("instance()"));
    for (d, c) in ["x", "y", "z"].iter().enumerate() {
        let o = plan.context.origin[d];
        if o != 0 {
            em.stmt(&format!("lf_pos.{c} = lf_pos.{c} + {o};"));
        }
    }
    em.block(entry, true);
    for l in &finals {
        em.stmt(l);
    }
    if !em.errors.is_empty() {
        return Err(em.errors);
    }
    let decls: String = em
        .c89_decls
        .take()
        .unwrap_or_default()
        .iter()
        .map(|d| format!("  {d}\n"))
        .collect();
    Ok(format!(
        "kernel void {cname}({})\n{{\n{decls}{}}}\n",
        params.join(", "),
        em.out
    ))
}

/// The scalar C type of a memref's elements in a Brook+ kernel, for the
/// host code's stream declarations.
pub fn element_type(ctx: &Context, t: lf_ir::Type) -> Option<&'static str> {
    ctypes::element(ctx, t, Flavor::BrookKernel)
}
