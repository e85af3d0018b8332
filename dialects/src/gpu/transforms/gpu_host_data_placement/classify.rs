//! The shared variables of each launch (DIGEST §003.4's classification, in
//! SSA terms) and whether the launch can be placed.
//!
//! A launch captures the values it uses that are defined outside it.
//! Scalars (`index`, `f32`, ...) are type 1: passed by value, nothing to do.
//! In SSA a scalar the kernel modifies (type 2) can only be a rank-0 or
//! one-element memref, so it is placed like an array (type 3). Memrefs in
//! the workgroup or private address space, and memrefs allocated inside the
//! launch, are not shared; nor are `gpu.alloc` buffers (and views of them),
//! device memory already. A shared memref must be the buffer itself (not a
//! view of it: placement copies whole buffers), with an identity layout,
//! made by a function argument, `memref.alloc`, `memref.alloca` or
//! `memref.get_global`, and must not escape where the analysis cannot
//! follow it (yielded from a region, passed as a loop's `iter_args`).

use crate::func::FuncReturnOp;
use crate::gpu::analysis::buffers::{is_memref, is_terminator, is_view, key, line_col, root, Key};
use crate::gpu::{AddressSpace, GpuAllocOp, GpuLaunchOp};
use crate::memref::{MemrefAllocOp, MemrefAllocaOp, MemrefGetGlobalOp};
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{BlockId, Body, Context, OpId, Type, TypeData, Value};

/// How the host buffer of a shared memref is made (where its device buffer
/// is allocated and freed follows from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A function argument: device buffer for the whole function.
    Argument,
    /// `memref.alloc` (heap): device buffer from it to its `memref.dealloc`.
    Alloc(OpId),
    /// `memref.alloca` (stack): device buffer for its block.
    Alloca(OpId),
    /// `memref.get_global @name`: device buffer for the whole function.
    Global(String),
}

/// A host buffer shared with at least one placed launch.
#[derive(Clone, Debug)]
pub struct Shared {
    /// The buffer.
    pub key: Key,
    /// A host value of it (for a global, the first `get_global` seen;
    /// placement makes its own at the function's start).
    pub host: Value,
    /// How it is made.
    pub origin: Origin,
    /// Its memref type.
    pub ty: Type,
    /// The location to give the device buffer's ops.
    pub loc_op: OpId,
}

/// A launch that can be placed: its captured memrefs and their buffers.
#[derive(Clone, Debug)]
pub struct LaunchPlan {
    /// The launch.
    pub launch: GpuLaunchOp,
    /// Captured memref value, index in the shared list.
    pub captured: Vec<(Value, usize)>,
}

/// The outcome: shared buffers, placed launches, launches left alone (why).
#[derive(Default)]
pub struct Classification {
    /// Shared buffers.
    pub shared: Vec<Shared>,
    /// Launches to place.
    pub plans: Vec<LaunchPlan>,
    /// Launches left unchanged, with the reason.
    pub declined: Vec<(OpId, String)>,
}

/// Classifies the shared memrefs of `launches` (the outermost launches of
/// the function whose entry block is `entry`).
pub fn classify(ctx: &Context, body: &Body, entry: BlockId, launches: &[GpuLaunchOp]) -> Classification {
    let mut out = Classification::default();
    for &launch in launches {
        match plan_launch(ctx, body, entry, launch, &mut out.shared) {
            Ok(plan) => out.plans.push(plan),
            Err(why) => out.declined.push((launch.op(), why)),
        }
    }
    // Buffers only declined launches wanted.
    out
}

/// The memref values `launch` captures (defined outside it, used inside),
/// in order of first use, less workgroup and private memory.
pub fn captured_memrefs(ctx: &Context, body: &Body, launch: OpId) -> Vec<Value> {
    let mut vals: Vec<Value> = Vec::new();
    walk(body, launch, WalkOrder::PreOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) || op == launch {
            return WalkControl::Advance;
        }
        for v in body.operands(op) {
            if !body.is_defined_inside(v, launch) && is_memref(ctx, body, v) && !vals.contains(&v) {
                vals.push(v);
            }
        }
        WalkControl::Advance
    });
    vals.retain(|&v| match ctx.type_data(body.value_type(v)) {
        TypeData::MemRef { memory_space, .. } | TypeData::UnrankedMemRef { memory_space, .. } => !matches!(
            memory_space.and_then(|a| AddressSpace::from_attr(ctx, a)),
            Some(AddressSpace::Workgroup) | Some(AddressSpace::Private)
        ),
        _ => false,
    });
    vals
}

fn op_name(ctx: &Context, body: &Body, op: OpId) -> String {
    format!("'{}' at {}", ctx.op_name_str(body.op_name(op)), line_col(ctx, body, op))
}

fn plan_launch(
    ctx: &Context,
    body: &Body,
    entry: BlockId,
    launch: GpuLaunchOp,
    shared: &mut Vec<Shared>,
) -> Result<LaunchPlan, String> {
    let ir = (ctx, body);
    if !launch.async_dependencies(&ir).is_empty() || launch.async_token(&ir).is_some() {
        return Err("not placed: an asynchronous launch (placement inserts synchronous copies)".into());
    }
    if let Some(g) = global_inside(ctx, body, launch.op()) {
        return Err(format!(
            "not placed: the kernel reads a host global through {} inside it",
            op_name(ctx, body, g)
        ));
    }
    let mut captured = Vec::new();
    for (n, v) in captured_memrefs(ctx, body, launch.op()).into_iter().enumerate() {
        let which = format!(
            "memref #{} it captures (of type {})",
            n + 1,
            lf_ir::printer::type_to_string(ctx, body.value_type(v))
        );
        let r = root(ctx, body, v);
        if body.defining_op(r).is_some_and(|d| GpuAllocOp::isa(&ir, d)) {
            // Already device memory (a placement by hand): nothing to share.
            continue;
        }
        if r != v {
            let view = body.defining_op(v).map(|o| op_name(ctx, body, o)).unwrap_or_default();
            return Err(format!(
                "not placed: the {which} is a view ({view}) of a host buffer; placement copies whole buffers only"
            ));
        }
        let origin = match body.defining_op(r) {
            None if body.value_block(r) == Some(entry) => Origin::Argument,
            None => {
                return Err(format!(
                    "not placed: the {which} is a block argument of a region (a loop's iter_args), which placement \
                     cannot follow"
                ))
            }
            Some(d) if MemrefAllocOp::isa(&ir, d) => Origin::Alloc(d),
            Some(d) if MemrefAllocaOp::isa(&ir, d) => Origin::Alloca(d),
            Some(d) if MemrefGetGlobalOp::isa(&ir, d) => {
                Origin::Global(MemrefGetGlobalOp::cast(&ir, d).expect("checked").name(&ir).to_string())
            }
            Some(d) => {
                return Err(format!(
                    "not placed: the {which} is made by {}, not by an argument, memref.alloc, memref.alloca or \
                     memref.get_global",
                    op_name(ctx, body, d)
                ))
            }
        };
        let ty = body.value_type(r);
        if !matches!(ctx.type_data(ty), TypeData::MemRef { .. }) {
            return Err(format!(
                "not placed: the {which} is unranked; placement allocates ranked device buffers only"
            ));
        }
        if let TypeData::MemRef {
            layout, memory_space, ..
        } = ctx.type_data(ty)
        {
            if layout.is_some() {
                return Err(format!(
                    "not placed: the {which} has a layout; placement allocates device buffers of identity layout only"
                ));
            }
            if memory_space.is_some_and(|a| AddressSpace::from_attr(ctx, a) != Some(AddressSpace::Global)) {
                return Err(format!(
                    "not placed: the {which} is in a memory space other than the default"
                ));
            }
        }
        if let Some(why) = escape(ctx, body, r) {
            return Err(format!("not placed: the {which} {why}"));
        }
        let k = key(ctx, body, r).expect("a memref");
        if matches!(k, Key::Global(_)) {
            // Every get_global of that global must be followable too.
            let mut bad = None;
            for op in body.live_ops() {
                if let Some(g) = MemrefGetGlobalOp::cast(&ir, op) {
                    if key(ctx, body, g.result(&ir)).as_ref() == Some(&k) {
                        bad = bad.or_else(|| escape(ctx, body, g.result(&ir)));
                    }
                }
            }
            if let Some(why) = bad {
                return Err(format!("not placed: the {which} (a global) {why}"));
            }
        }
        let idx = match shared.iter().position(|s| s.key == k) {
            Some(i) => i,
            None => {
                shared.push(Shared {
                    key: k,
                    host: r,
                    origin,
                    ty,
                    loc_op: body.defining_op(r).unwrap_or(launch.op()),
                });
                shared.len() - 1
            }
        };
        captured.push((v, idx));
    }
    Ok(LaunchPlan { launch, captured })
}

/// Why memref `r` (or a view of it) escapes the analysis, if it does: a
/// use by a terminator other than `func.return` (its value flows into a
/// region's results) or by an op with regions other than a launch (a
/// loop's `iter_args`).
fn escape(ctx: &Context, body: &Body, r: Value) -> Option<String> {
    let ir = (ctx, body);
    let mut work = vec![r];
    let mut seen = 0;
    while let Some(v) = work.pop() {
        seen += 1;
        if seen > 10_000 {
            return Some("has too many views to follow".into());
        }
        for u in body.uses(v) {
            let o = body.use_owner(u);
            if is_view(ctx, body, o) {
                work.extend(body.results(o));
            } else if is_terminator(ctx, body, o) && !FuncReturnOp::isa(&ir, o) {
                return Some(format!("escapes through {}", op_name(ctx, body, o)));
            } else if !body.regions(o).is_empty() && !GpuLaunchOp::isa(&ir, o) {
                return Some(format!(
                    "is an operand of {}, which placement cannot follow",
                    op_name(ctx, body, o)
                ));
            }
        }
    }
    None
}

/// A `memref.get_global` inside `launch`, if any (a host global the kernel
/// would use directly).
fn global_inside(ctx: &Context, body: &Body, launch: OpId) -> Option<OpId> {
    let ir = (ctx, body);
    let mut found = None;
    walk(body, launch, WalkOrder::PreOrder, &mut |b, op| {
        if std::ptr::eq(b, body) && MemrefGetGlobalOp::isa(&ir, op) {
            found = Some(op);
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    found
}
