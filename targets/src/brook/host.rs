//! Host code in C++ against the Brook+ runtime: a device buffer
//! (`gpu.alloc`) is a `brook::Stream<T>` of the memref's shape (`dims[0]`
//! is the last, fastest memref dimension), copies are `read`/`write`, and a
//! launch is a kernel call over the plan's domain ([`super::map_style`])
//! followed by an error check of its outputs and, for outputs that are not
//! a `domain()` view of their buffer, the unpacking of the output streams
//! into the buffer (a round trip through host memory).

use super::kernel::{element_type, stream_type};
use super::map_style::{self, KernelPlan, OutStream, Subscript};
use crate::emit::{Emitter, MemView, Space, Val};
use crate::host;
use crate::module::{op_label, FuncRef};
use lf_dialects::func::FuncCallOp;
use lf_dialects::gpu::{GpuAllocOp, GpuDeallocOp, GpuLaunchFuncOp, GpuMemcpyOp, GpuWaitOp};
use lf_ir::view::{IrRef, OpView};
use lf_ir::OpId;

/// Brook+ streams of rank 1 and 2 hold at most this many elements per dimension.
const MAX_STREAM_DIM: i64 = 8192;

/// Host ops of the gpu dialect (and calls) against the Brook+ runtime.
pub fn host_op(em: &mut Emitter<'_>, op: OpId) {
    let ir = IrRef::new(em.ctx, em.body);
    if let Some(call) = FuncCallOp::cast(&ir, op) {
        host::call_op(em, call);
    } else if let Some(alloc) = GpuAllocOp::cast(&ir, op) {
        let Some((r, n, m)) = host::device_alloc(em, alloc) else {
            return;
        };
        let Some(t) = element_type(em.ctx, m.elem) else {
            em.error(op, "this element type has no Brook+ stream type (no 64-bit integers)");
            return;
        };
        let dims: Vec<i64> = m.dims.iter().rev().map(|d| d.parse().unwrap_or(0)).collect();
        if dims.len() <= 2 && dims.iter().any(|&d| d > MAX_STREAM_DIM) {
            em.error(
                op,
                format!(
                    "[stream-size] Brook+ streams of rank 1 and 2 hold at most {MAX_STREAM_DIM} elements per dimension"
                ),
            );
            return;
        }
        let list: Vec<String> = dims.iter().map(|d| format!("{d}u")).collect();
        let rank = dims.len().max(1);
        let list = if list.is_empty() {
            "1u".to_string()
        } else {
            list.join(", ")
        };
        em.stmt(&format!("unsigned int {n}_dims[{rank}] = {{{list}}};"));
        em.stmt(&format!("brook::Stream<{t}> {n}({rank}, {n}_dims);"));
        em.vals.insert(r, Val::Mem(m));
    } else if let Some(dealloc) = GpuDeallocOp::cast(&ir, op) {
        if let Some(m) = em.mem(op, dealloc.memref(&ir)) {
            em.stmt(&format!(
                "/* gpu.dealloc {}: the stream is released at the end of its scope */",
                m.ptr
            ));
        }
    } else if let Some(copy) = GpuMemcpyOp::cast(&ir, op) {
        let (Some(d), Some(s)) = (em.mem(op, copy.dst(&ir)), em.mem(op, copy.src(&ir))) else {
            return;
        };
        match (d.space, s.space) {
            (Space::Device, Space::Host) => em.stmt(&format!("{}.read({});", d.ptr, s.ptr)),
            (Space::Host, Space::Device) => em.stmt(&format!("{}.write({});", s.ptr, d.ptr)),
            (Space::Device, Space::Device) => {
                let t = element_type(em.ctx, d.elem).unwrap_or("double");
                em.stmt("{");
                em.stmt(&format!("  {t}* lf_tmp = ({t}*)lf_host_alloc({});", host::bytes(&d, t)));
                em.stmt(&format!("  {}.write(lf_tmp);", s.ptr));
                em.stmt(&format!("  {}.read(lf_tmp);", d.ptr));
                em.stmt("  free(lf_tmp);");
                em.stmt("}");
            }
            _ => {
                let t = em.elem_cty(op, d.elem);
                em.stmt(&format!("memcpy({}, {}, {});", d.ptr, s.ptr, host::bytes(&d, t)));
            }
        }
    } else if GpuWaitOp::isa(&ir, op) {
        em.stmt("/* gpu.wait: Brook+ kernel calls complete before the next stream read */");
    } else if let Some(l) = GpuLaunchFuncOp::cast(&ir, op) {
        launch(em, l);
    } else {
        let name = op_label(em.ctx, em.body, op);
        em.error(op, format!("'{name}' is not supported by the Brook+ emitter"));
    }
}

/// The kernel (and its plan) a launch calls.
fn launched<'a>(em: &Emitter<'a>, l: GpuLaunchFuncOp) -> Option<(FuncRef<'a>, KernelPlan)> {
    let (module, kernel) = host::launched_kernel(em.ctx, em.body, l)?;
    let program = em.program?;
    let f = program
        .kernels
        .iter()
        .find(|(m, k)| *m == module && k.name == kernel)
        .map(|(_, k)| *k)?;
    let plan = map_style::plan(em.ctx, f).ok()?;
    Some((f, plan))
}

/// The C++ expression of subscript `s` at the position `lf_x`, `lf_y`, `lf_z`.
fn subscript_expr(s: &Subscript) -> String {
    match s.dim {
        None => s.offset.to_string(),
        Some(d) => {
            let p = ["lf_x", "lf_y", "lf_z"][d];
            let term = if s.coef == 1 {
                p.to_string()
            } else {
                format!("{} * {p}", s.coef)
            };
            match s.offset {
                0 => term,
                o if o < 0 => format!("{term} - {}", -o),
                o => format!("{term} + {o}"),
            }
        }
    }
}

fn launch(em: &mut Emitter<'_>, l: GpuLaunchFuncOp) {
    let op = l.op();
    let Some(info) = host::launch(em, l) else { return };
    let Some((_, plan)) = launched(em, l) else {
        // The kernel's own diagnostics say why it has no plan.
        return;
    };
    if info.shared.is_some() {
        em.error(op, "dynamic shared memory is not supported by the Brook+ emitter");
        return;
    }
    let k = info.kernel.clone();
    let dims = plan.domain_dims().to_vec();
    let rank = dims.len();
    let dim_list: Vec<String> = dims.iter().map(|d| format!("{d}u")).collect();
    let mut call_args = Vec::new();
    let mut homes: Vec<(usize, MemView)> = Vec::new();
    em.stmt("{");
    em.stmt(&format!(
        "  unsigned int {k}_domain[{rank}] = {{{}}};",
        dim_list.join(", ")
    ));
    for (i, v) in info.args.iter().enumerate() {
        let usage = plan.args.get(i).cloned().unwrap_or_default();
        match em.vals.get(v).cloned() {
            Some(Val::Mem(m)) => {
                if !host::require_device_operand(em, op, m.space) {
                    return;
                }
                if usage.gather {
                    call_args.push(m.ptr.clone());
                }
                for &o in &usage.outputs {
                    let s = &plan.outputs[o];
                    let name = format!("{k}_{}", s.name);
                    let t = element_type(em.ctx, s.elem).unwrap_or("double");
                    match (&s.direct_start, usage.gather) {
                        (Some(start), false) => {
                            // Brook+ order: dims[0] is the last memref dimension.
                            let st: Vec<String> = start.iter().rev().map(|x| format!("{x}u")).collect();
                            let en: Vec<String> = start
                                .iter()
                                .rev()
                                .zip(&dims)
                                .map(|(x, e)| format!("{}u", x + e))
                                .collect();
                            em.stmt(&format!("  unsigned int {name}_start[{rank}] = {{{}}};", st.join(", ")));
                            em.stmt(&format!("  unsigned int {name}_end[{rank}] = {{{}}};", en.join(", ")));
                            em.stmt(&format!(
                                "  brook::Stream<{t}> {name} = {}.domain({name}_start, {name}_end);",
                                m.ptr
                            ));
                        }
                        _ => {
                            let st = stream_type(t, s.lanes);
                            em.stmt(&format!("  brook::Stream<{st}> {name}({rank}, {k}_domain);"));
                            if !homes.iter().any(|(a, _)| *a == i) {
                                homes.push((i, m.clone()));
                            }
                        }
                    }
                    call_args.push(name);
                }
            }
            _ => {
                let e = em.expr(*v);
                call_args.push(e);
            }
        }
    }
    em.stmt(&format!("  {k}({});", call_args.join(", ")));
    for s in &plan.outputs {
        em.stmt(&format!("  lf_brook_check({k}_{}, \"{k}\", __LINE__);", s.name));
    }
    for (i, m) in homes {
        let outs: Vec<&OutStream> = plan.outputs.iter().filter(|s| s.arg == i).collect();
        unpack(em, &k, &m, &outs, &dims);
    }
    em.stmt("}");
}

/// Host code that writes the output streams `outs` of kernel call `k`
/// into their buffer's stream `home`: the buffer comes to host memory,
/// every lane of every position lands at its subscripts, and the buffer
/// goes back.
fn unpack(em: &mut Emitter<'_>, k: &str, home: &MemView, outs: &[&OutStream], dims: &[i64]) {
    let t = element_type(em.ctx, home.elem).unwrap_or("double");
    let count = home.count();
    let positions: i64 = dims.iter().product();
    em.stmt("  {");
    em.stmt(&format!("    /* {k}: unpack the output streams into {} */", home.ptr));
    em.stmt(&format!(
        "    {t}* lf_home = ({t}*)lf_host_alloc((size_t)({count}) * sizeof({t}));"
    ));
    em.stmt(&format!("    {}.write(lf_home);", home.ptr));
    let strides: Vec<i64> = (0..home.dims.len())
        .map(|r| {
            home.dims[r + 1..]
                .iter()
                .map(|d| d.parse::<i64>().unwrap_or(0))
                .product()
        })
        .collect();
    for s in outs {
        em.stmt("    {");
        em.stmt(&format!(
            "    {t}* lf_vals = ({t}*)lf_host_alloc((size_t){} * sizeof({t}));",
            positions * s.lanes as i64
        ));
        em.stmt(&format!("    {k}_{}.write(lf_vals);", s.name));
        let axes = ["lf_x", "lf_y", "lf_z"];
        let mut indent = String::from("    ");
        for d in (0..dims.len()).rev() {
            let a = axes[d];
            em.stmt(&format!("{indent}for (int64_t {a} = 0; {a} < {}; {a}++)", dims[d]));
            indent.push_str("  ");
        }
        em.stmt(&format!("{indent}{{"));
        let q: String = (0..dims.len()).rev().fold(String::new(), |acc, d| {
            if acc.is_empty() {
                axes[d].to_string()
            } else {
                format!("({acc}) * {} + {}", dims[d], axes[d])
            }
        });
        em.stmt(&format!("{indent}  int64_t lf_q = {q};"));
        for (lane, subs) in s.lane_subscripts.iter().enumerate() {
            let lin: Vec<String> = subs
                .iter()
                .zip(&strides)
                .map(|(x, st)| {
                    let e = subscript_expr(x);
                    if *st == 1 {
                        format!("({e})")
                    } else {
                        format!("({e}) * {st}")
                    }
                })
                .collect();
            let lin = if lin.is_empty() {
                "0".to_string()
            } else {
                lin.join(" + ")
            };
            // A lane assigned under bound checks lands only where they hold.
            let guard = s.lane_boxes[lane].map(|bx| {
                let conds: Vec<String> = (0..dims.len())
                    .filter(|&d| bx[d] != (0, dims[d]))
                    .map(|d| format!("{a} >= {} && {a} < {}", bx[d].0, bx[d].1, a = axes[d]))
                    .collect();
                format!("if ({}) ", conds.join(" && "))
            });
            em.stmt(&format!(
                "{indent}  {}lf_home[{lin}] = lf_vals[lf_q * {} + {lane}];",
                guard.unwrap_or_default(),
                s.lanes
            ));
        }
        em.stmt(&format!("{indent}}}"));
        em.stmt("    free(lf_vals);");
        em.stmt("    }");
    }
    em.stmt(&format!("    {}.read(lf_home);", home.ptr));
    em.stmt("    free(lf_home);");
    em.stmt("  }");
}
