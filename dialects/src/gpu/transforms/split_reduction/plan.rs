//! Which kernels `gpu-split-reduction` can rewrite, and how: the checks
//! that make the rewrite legal (each a reason in the decline remark) and
//! the plan the rewrite follows.
//!
//! The kernel shape (what `gpu-map-loops` makes of a nest whose inner loop
//! reduces, e.g. matvec's `c[i] = sum_j A[i][j] * b[j]`):
//!
//! ```text
//! gpu.launch ... threads(X, Y, 1) {
//!   <pre: ops without memory writes>
//!   [affine.if <bound guard> {]           (optional; no else, no results)
//!     <pre: ops without memory writes>
//!     %r:n = affine.for %k = lb to ub step s iter_args(%acc = %init) {
//!       <no memory writes, no barrier>
//!       %v = arith.<kind> %acc, %x        (every carried value a reduction)
//!       affine.yield %v
//!     }
//!     <post: anything without a barrier, reading %r>
//!   [}]
//! }
//! ```

use crate::affine::analysis::reductions::{loop_reduction, AtomicRmwKind};
use crate::affine::utils::reduction_ops::{identity_attr, is_exactly_reassociable};
use crate::affine::{AffineForOp, AffineIfOp};
use crate::arith::ArithConstantOp;
use crate::gpu::analysis::kernel_access::LaunchIds;
use crate::gpu::transforms::coalesce_via_shared::reblock::{reblock_plan, Reblock};
use crate::gpu::utils::barriers::contains_barrier;
use crate::gpu::utils::kernel_writes::nested_writes;
use crate::gpu::GpuLaunchOp;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::view::{Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{BlockId, OpId, Type, Value};

/// CUDA's largest grid size along y.
const MAX_GRID_Y: i64 = 65_535;
/// The threads per block the rewrite aims at (lanes times rows).
const TARGET_BLOCK_THREADS: i64 = 256;

/// The options that shape a plan.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Threads sharing one reduction (a power of two).
    pub lanes: i64,
    /// Kernels with more threads than this are left alone.
    pub max_threads: i64,
    /// Whether float sums and products may be reassociated.
    pub reassociate_float: bool,
    /// Consecutive iterations per lane and turn (1, 2 or 4).
    pub chunk: i64,
}

/// One reduction of the loop.
#[derive(Clone, Copy, Debug)]
pub struct Reduction {
    /// How values combine.
    pub kind: AtomicRmwKind,
    /// The carried value's type.
    pub ty: Type,
}

/// The rewrite of one launch.
#[derive(Clone, Debug)]
pub struct SplitPlan {
    /// The launch.
    pub launch: GpuLaunchOp,
    /// The reduction loop.
    pub for_op: AffineForOp,
    /// The bound guard around it, if any.
    pub guard: Option<AffineIfOp>,
    /// The ops after the loop in its block, its terminator left out.
    pub post: Vec<OpId>,
    /// The reductions, in `iter_args` order.
    pub reductions: Vec<Reduction>,
    /// Values defined in the guard before the loop and used after it (or as
    /// the loop's initial values): carried out of the guard.
    pub carried: Vec<Value>,
    /// Lanes per reduction.
    pub lanes: i64,
    /// Reductions (old threads) per block.
    pub rows: i64,
    /// Consecutive iterations each lane runs per turn (the loop is unrolled
    /// by it first).
    pub chunk: i64,
    /// Why the requested chunk was not used, if it was not.
    pub chunk_note: Option<String>,
    /// The new launch configuration and the id applies to rewrite.
    pub reblock: Reblock,
}

/// The top-level ops of `block`, its terminator left out.
fn ops_of<'c>(ir: &impl Ir<'c>, block: BlockId) -> Vec<OpId> {
    let body = ir.body();
    let term = body.terminator(block);
    body.block_ops(block).filter(|&o| Some(o) != term).collect()
}

/// Why `op` (with what it nests) cannot run once per lane instead of once
/// per thread: a memory write, an op of unknown effects; `None` if it only
/// reads.
fn write_in<'c>(ir: &impl Ir<'c>, op: OpId) -> Option<String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let name = || ctx.op_name_str(body.op_name(op)).to_string();
    if body.num_regions(op) == 0 {
        match memory_effects(ctx, body, op) {
            None => return Some(format!("'{}' has unknown memory effects", name())),
            Some(e) if e.iter().any(|e| e.effect == Effect::Write) => {
                return Some(format!("'{}' writes memory", name()))
            }
            Some(_) => {}
        }
    }
    match nested_writes(ctx, body, op) {
        Err(why) => Some(why),
        Ok(w) => w
            .first()
            .map(|e| format!("'{}' writes memory", ctx.op_name_str(body.op_name(e.op)))),
    }
}

/// The reduction loop among `ops`: the only `affine.for` with results.
fn find_loop<'c>(ir: &impl Ir<'c>, ops: &[OpId]) -> Result<Option<AffineForOp>, String> {
    let mut found = None;
    for &o in ops {
        if let Some(f) = AffineForOp::cast(ir, o) {
            if !f.results(ir).is_empty() {
                if found.is_some() {
                    return Err("the kernel has more than one loop with results".into());
                }
                found = Some(f);
            }
        }
    }
    Ok(found)
}

/// Plans the split of `launch`'s reduction loop, or says why not.
pub fn plan<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp, limits: Limits) -> Result<SplitPlan, String> {
    let body = ir.body();
    let ids = LaunchIds::of(ir, launch);
    let mut threads = 1i64;
    for d in 0..3 {
        let (Some(g), Some(bl)) = (ids.grid_size[d], ids.block_size[d]) else {
            return Err("the grid or block size is not a constant".into());
        };
        threads = threads.saturating_mul(g.saturating_mul(bl));
    }
    if threads > limits.max_threads {
        return Err(format!(
            "the kernel already has {threads} threads (more than max-threads = {})",
            limits.max_threads
        ));
    }
    if ids.block_size[2] != Some(1) {
        return Err("the block has threads along z".into());
    }
    if !launch.workgroup_attributions(ir).is_empty() || !launch.private_attributions(ir).is_empty() {
        return Err("the kernel has workgroup or private memory attributions".into());
    }
    if contains_barrier(ir.ctx(), body, launch.op()) {
        return Err("the kernel has a gpu.barrier".into());
    }
    let entry = body
        .region_blocks(launch.body(ir))
        .next()
        .ok_or("the launch has no body")?;
    let top = ops_of(ir, entry);
    // The loop at the top level, or in a top-level bound guard.
    let (container, guard) = match find_loop(ir, &top)? {
        Some(_) => (entry, None),
        None => {
            let guards: Vec<AffineIfOp> = top.iter().filter_map(|&o| AffineIfOp::cast(ir, o)).collect();
            let [g] = guards.as_slice() else {
                return Err(
                    "no reduction loop (an affine.for with results) at the kernel's top level or in one bound guard"
                        .into(),
                );
            };
            if !g.results(ir).is_empty() || g.else_region_block(ir).is_some() {
                return Err("the bound guard has results or an else block".into());
            }
            let after: Vec<OpId> = top.iter().copied().skip_while(|&o| o != g.op()).skip(1).collect();
            if !after.is_empty() {
                return Err("ops after the bound guard".into());
            }
            for &o in top.iter().take_while(|&&o| o != g.op()) {
                if let Some(why) = write_in(ir, o) {
                    return Err(format!("{why} before the reduction loop (each lane would repeat it)"));
                }
            }
            (g.then_block(ir), Some(*g))
        }
    };
    let ops = ops_of(ir, container);
    let for_op = find_loop(ir, &ops)?.ok_or("no reduction loop (an affine.for with results)")?;
    let pos = ops.iter().position(|&o| o == for_op.op()).expect("found among them");
    for &o in &ops[..pos] {
        if let Some(why) = write_in(ir, o) {
            return Err(format!("{why} before the reduction loop (each lane would repeat it)"));
        }
    }
    if let Some(why) = write_in(ir, for_op.op()) {
        return Err(format!("{why} in the reduction loop"));
    }
    let mut reductions = Vec::new();
    for i in 0..for_op.inits(ir).len() {
        let r = loop_reduction(ir, for_op, i).ok_or_else(|| {
            format!("loop-carried value #{i} is not a reduction (one combining op, its result yielded)")
        })?;
        if !is_exactly_reassociable(r.kind) && !limits.reassociate_float {
            return Err(format!(
                "loop-carried value #{i} is a '{}' reduction: splitting it changes floating-point rounding (reassociate-float=true allows it)",
                r.kind.keyword()
            ));
        }
        let ty = body.value_type(for_op.inits(ir)[i]);
        if identity_attr(ir.ctx(), r.kind, ty).is_none() {
            return Err(format!(
                "no neutral value of a '{}' reduction of this type",
                r.kind.keyword()
            ));
        }
        reductions.push(Reduction { kind: r.kind, ty });
    }
    let trips = for_op.constant_trip_count(ir);
    if let Some(n) = trips {
        if n < 2 * limits.lanes {
            return Err(format!(
                "{n} iterations: fewer than two per lane ({} lanes)",
                limits.lanes
            ));
        }
    }
    let (chunk, chunk_note) = match trips {
        _ if limits.chunk == 1 => (1, None),
        Some(n) if n % limits.chunk == 0 && n >= 2 * limits.lanes * limits.chunk => (limits.chunk, None),
        Some(n) => (
            1,
            Some(format!(
                "chunk {} not used: {n} iterations are not a multiple of it or fewer than two chunks per lane",
                limits.chunk
            )),
        ),
        None => (
            1,
            Some(format!(
                "chunk {} not used: the trip count is not a constant",
                limits.chunk
            )),
        ),
    };
    // Values of the guard's ops before the loop that the rewritten kernel
    // needs after the reduction (outside the first guard).
    let mut carried = Vec::new();
    if guard.is_some() {
        let pre = &ops[..pos];
        let defined_in_pre = |v: Value| {
            body.defining_op(v)
                .is_some_and(|d| pre.iter().any(|&p| p == d || body.is_ancestor(p, d)))
        };
        let mut needed: Vec<Value> = for_op.inits(ir).to_vec();
        for &o in &ops[pos + 1..] {
            walk(body, o, WalkOrder::PreOrder, &mut |b, inner| {
                needed.extend(b.operands(inner));
                WalkControl::Advance
            });
        }
        for v in needed {
            if defined_in_pre(v) && !carried.contains(&v) {
                if !ArithConstantOp::has_zero(ir.ctx(), body.value_type(v)) {
                    return Err(
                        "a value defined before the loop and used after it has a type without a zero constant".into(),
                    );
                }
                carried.push(v);
            }
        }
    }
    let x_threads = ids.grid_size[0].unwrap_or(1) * ids.block_size[0].unwrap_or(1);
    let mut rows = (TARGET_BLOCK_THREADS / limits.lanes).max(1);
    while rows > 1 && x_threads % rows != 0 {
        rows /= 2;
    }
    let reblock = reblock_plan(ir, launch, &ids, [rows, 1], false)?;
    if reblock.new_grid[1] > MAX_GRID_Y {
        return Err(format!(
            "the threads along y ({}) would exceed the largest grid along y",
            reblock.new_grid[1]
        ));
    }
    if reblock.new_grid[0] > i64::from(i32::MAX) {
        return Err("the grid along x would be too large".into());
    }
    Ok(SplitPlan {
        launch,
        for_op,
        guard,
        post: ops[pos + 1..].to_vec(),
        reductions,
        carried,
        lanes: limits.lanes,
        rows,
        chunk,
        chunk_note,
        reblock,
    })
}
