//! The rewrite of a planned launch:
//!
//! ```text
//! gpu.launch ... threads(LANES, ROWS, 1)             (old idx = ROWS*bidx + tidy)
//!   workgroup(%sh : memref<ROWS x LANES x T>) {
//!   <pre>
//!   %p = affine.for %k = lb + tidx*s to ub step s*LANES iter_args(%acc = <neutral>) {...}
//!   affine.store %p, %sh[tidy, tidx]
//!   gpu.barrier
//!   affine.if (tidx < LANES/2) { %sh[tidy, tidx] = %sh[tidy, tidx] <kind> %sh[tidy, tidx + LANES/2] }
//!   gpu.barrier
//!   ...                                               (log2(LANES) steps)
//!   affine.if (tidx == 0) {
//!     %r = %init <kind> %sh[tidy, 0]
//!     <post, reading %r>
//!   }
//! }
//! ```
//!
//! With a bound guard, the guard's part up to the loop becomes an
//! `affine.if` with results (the partial values and the values the post
//! part needs; its else block yields neutral values and zeros), the
//! combining steps follow outside any guard (every thread of the block
//! reaches the barriers), and the post part stays in the guard under the
//! `tidx == 0` condition.

use super::plan::SplitPlan;
use crate::affine::utils::loop_unroll::loop_unroll_by_factor;
use crate::affine::utils::reduction_ops::{combine, identity_attr};
use crate::affine::{AffineBound, AffineIfOp, AffineLoadOp, AffineStoreOp};
use crate::arith::ArithConstantOp;
use crate::gpu::transforms::coalesce_via_shared::reblock::rewrite_id_applies;
use crate::gpu::{AddressSpace, GpuBarrierOp};
use lf_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{OpId, Type, TypeData, Value};

/// Rewrites the launch configuration and the id applies: old `idx = ROWS
/// * bidx + tidy`, `idy = bidy`, `idz = bidz`; `tidx` is the lane.
fn reblock_rows(b: &mut Builder<'_>, plan: &SplitPlan) {
    let launch = plan.launch;
    b.set_insertion_point_before(launch.op());
    b.set_loc_of(launch.op());
    let grid: Vec<Value> = plan
        .reblock
        .new_grid
        .iter()
        .map(|&n| ArithConstantOp::index(b, n))
        .collect();
    let lanes = ArithConstantOp::index(b, plan.lanes);
    let rows = ArithConstantOp::index(b, plan.rows);
    let one = ArithConstantOp::index(b, 1);
    launch.set_sizes(b, [grid[0], grid[1], grid[2]], [lanes, rows, one]);
    let [_, ty, _] = launch.thread_ids(b);
    let [bidx, bidy, bidz] = launch.block_ids(b);
    rewrite_id_applies(b, &plan.reblock.applies, &[bidx, ty, bidy, bidz], |[cx, cy, cz, c]| {
        AffineExpr::dim(0)
            .mul_const(cx * plan.rows)
            .add(&AffineExpr::dim(1).mul_const(cx))
            .add(&AffineExpr::dim(2).mul_const(cy))
            .add(&AffineExpr::dim(3).mul_const(cz))
            .add_const(c)
    });
}

/// `arith.constant` of the neutral value of reduction `i`.
fn neutral(b: &mut Builder<'_>, plan: &SplitPlan, i: usize) -> Value {
    let r = plan.reductions[i];
    let attr = identity_attr(b.ctx(), r.kind, r.ty).expect("checked by the plan");
    ArithConstantOp::of(b, attr).result(b)
}

/// The loop now starts at `lb + tidx * step` and steps `step * lanes`,
/// from the neutral values; returns its old initial values.
fn stride_loop(b: &mut Builder<'_>, plan: &SplitPlan, lane: Value) -> ValueList {
    let f = plan.for_op;
    let inits: ValueList = f.inits(&*b).iter().copied().collect();
    let step = f.step(&*b);
    let lb = f.lower_bound(&*b);
    let (nd, ns) = (lb.map.num_dims(), lb.map.num_symbols());
    let lane_term = AffineExpr::dim(nd).mul_const(step);
    let results = lb.map.results().iter().map(|e| e.add(&lane_term)).collect();
    let map = AffineMap::new(nd + 1, ns, results);
    let mut operands: Vec<Value> = lb.operands[..nd as usize].to_vec();
    operands.push(lane);
    operands.extend_from_slice(&lb.operands[nd as usize..]);
    f.set_lower_bound(b, AffineBound::map(map, &operands));
    f.set_step(b, step * plan.lanes);
    b.set_insertion_point_before(f.op());
    b.set_loc_of(f.op());
    let fresh: Vec<Value> = (0..inits.len()).map(|i| neutral(b, plan, i)).collect();
    f.set_inits(b, &fresh);
    inits
}

/// The workgroup arrays, one per reduction: `memref<ROWS x LANES x T>`.
fn add_buffers(b: &mut Builder<'_>, plan: &SplitPlan) -> Vec<Value> {
    let ctx = b.ctx();
    plan.reductions
        .iter()
        .map(|r| {
            let ty = ctx.get_type(TypeData::MemRef {
                shape: vec![plan.rows, plan.lanes].into_boxed_slice(),
                element: r.ty,
                layout: None,
                memory_space: Some(AddressSpace::Workgroup.attr(ctx)),
            });
            plan.launch
                .add_workgroup_attribution(b, ty)
                .expect("planned launches have no private attributions")
        })
        .collect()
}

/// What the combining steps read: the plan, the workgroup arrays (one per
/// reduction) and the new thread ids.
struct Lanes<'p> {
    plan: &'p SplitPlan,
    buffers: Vec<Value>,
    /// `tidx`: the lane.
    lane: Value,
    /// `tidy`: which of the block's reductions.
    row: Value,
}

/// Stores the partial values, then combines them in log2(lanes) steps;
/// lane 0 of each row ends with the row's total in `buffers[i][row][0]`.
fn combine_lanes(b: &mut Builder<'_>, l: &Lanes<'_>, partials: &[Value]) {
    let (plan, buffers, lane, row) = (l.plan, &l.buffers, l.lane, l.row);
    let id2 = AffineMap::get_multi_dim_identity(2);
    for (&p, &buf) in partials.iter().zip(buffers) {
        AffineStoreOp::build(b, p, buf, &[row, lane], id2.clone());
    }
    GpuBarrierOp::build(b);
    let mut stride = plan.lanes / 2;
    while stride >= 1 {
        // tidx < stride: stride - 1 - tidx >= 0
        let set = IntegerSet::new(1, 0, vec![AffineExpr::dim(0).neg().add_const(stride - 1)], vec![false]);
        let shifted = AffineMap::new(2, 0, vec![AffineExpr::dim(0), AffineExpr::dim(1).add_const(stride)]);
        let id2 = id2.clone();
        AffineIfOp::build(
            b,
            set,
            &[lane],
            &[],
            |b| {
                for (i, &buf) in buffers.iter().enumerate() {
                    let mine = AffineLoadOp::build(b, buf, &[row, lane], id2.clone()).result(b);
                    let other = AffineLoadOp::build(b, buf, &[row, lane], shifted.clone()).result(b);
                    let sum = combine(b, plan.reductions[i].kind, mine, other).expect("checked by the plan");
                    AffineStoreOp::build(b, sum, buf, &[row, lane], id2.clone());
                }
                ValueList::new()
            },
            None,
        );
        if stride > 1 {
            GpuBarrierOp::build(b);
        }
        stride /= 2;
    }
}

/// Builds `affine.if (tidx == 0)` at the insertion point; inside it, the
/// totals combined with the initial values, then `post` moved in; uses of
/// the loop's results in `post` read the totals.
fn lane_zero_tail(b: &mut Builder<'_>, l: &Lanes<'_>, inits: &[Value], results: &[Value], post: &[OpId]) -> OpId {
    let (plan, buffers, lane, row) = (l.plan, &l.buffers, l.lane, l.row);
    let set = IntegerSet::new(1, 0, vec![AffineExpr::dim(0)], vec![true]);
    let first = AffineMap::new(1, 0, vec![AffineExpr::dim(0), AffineExpr::constant(0)]);
    let mut totals = Vec::new();
    let if_op = AffineIfOp::build(
        b,
        set,
        &[lane],
        &[],
        |b| {
            for (i, &buf) in buffers.iter().enumerate() {
                let total = AffineLoadOp::build(b, buf, &[row], first.clone()).result(b);
                let r = combine(b, plan.reductions[i].kind, inits[i], total).expect("checked by the plan");
                totals.push(r);
            }
            ValueList::new()
        },
        None,
    );
    let then = if_op.then_block(&*b);
    let term = b.body().terminator(then).expect("a then block ends with affine.yield");
    for &o in post {
        b.move_op_before(o, term);
    }
    let if_id = if_op.op();
    for (&old, &new) in results.iter().zip(&totals) {
        b.replace_uses_if(old, new, |body, user| body.is_ancestor(if_id, user));
    }
    if_id
}

/// Rewrites the planned launch.
pub fn rewrite(b: &mut Builder<'_>, plan: &SplitPlan) {
    reblock_rows(b, plan);
    let [lane, row, _] = plan.launch.thread_ids(&*b);
    let lanes = Lanes {
        plan,
        buffers: add_buffers(b, plan),
        lane,
        row,
    };
    let f = plan.for_op;
    let loc = b.body().op_loc(f.op());
    if plan.chunk > 1 {
        // Each lane's turn runs `chunk` consecutive iterations: unrolled
        // first (no cleanup: the plan checked the trip count), the stride
        // below then counts in steps of the unrolled loop.
        loop_unroll_by_factor(b, f, plan.chunk as u64, false, false).expect("checked by the plan");
    }
    let inits = stride_loop(b, plan, lane);
    let results: Vec<Value> = f.results(&*b).to_vec();
    let post = &plan.post;
    b.set_loc(loc);
    match plan.guard {
        None => {
            b.set_insertion_point_after(f.op());
            combine_lanes(b, &lanes, &results);
            match post.first() {
                Some(&first) => b.set_insertion_point_before(first),
                None => {
                    let block = b.body().op_block(f.op()).expect("the loop is in a block");
                    let term = b
                        .body()
                        .terminator(block)
                        .expect("a kernel block ends with gpu.terminator");
                    b.set_insertion_point_before(term);
                }
            }
            lane_zero_tail(b, &lanes, &inits, &results, post);
        }
        Some(guard) => {
            // The guard's part up to the loop, as an affine.if with results.
            let n = results.len();
            let types: Vec<Type> = results
                .iter()
                .chain(&plan.carried)
                .map(|&v| b.body().value_type(v))
                .collect();
            let condition = guard.condition(&*b).clone();
            let operands: ValueList = guard.operands(&*b).iter().copied().collect();
            b.set_insertion_point_before(guard.op());
            let mut otherwise = |b: &mut Builder<'_>| -> ValueList {
                let mut out: ValueList = (0..n).map(|i| neutral(b, plan, i)).collect();
                for &v in &plan.carried {
                    let ty = b.body().value_type(v);
                    out.push(ArithConstantOp::zero(b, ty).expect("checked by the plan"));
                }
                out
            };
            let head = AffineIfOp::build(
                b,
                condition,
                &operands,
                &types,
                |_| results.iter().chain(&plan.carried).copied().collect(),
                Some(&mut otherwise),
            );
            let head_then = head.then_block(&*b);
            let head_yield = b
                .body()
                .terminator(head_then)
                .expect("a then block ends with affine.yield");
            // Everything up to the loop moves, with the neutral constants
            // `stride_loop` put before it.
            let guard_then = guard.then_block(&*b);
            while let Some(o) = b.body().first_op(guard_then) {
                b.move_op_before(o, head_yield);
                if o == f.op() {
                    break;
                }
            }
            let head_results: Vec<Value> = head.results(&*b).to_vec();
            // Outside the head, the post part and the initial values read
            // the head's results.
            let head_id = head.op();
            for (&old, &new) in plan.carried.iter().zip(&head_results[n..]) {
                b.replace_uses_if(old, new, |body, user| !body.is_ancestor(head_id, user));
            }
            let inits: Vec<Value> = inits
                .iter()
                .map(|v| {
                    plan.carried
                        .iter()
                        .position(|c| c == v)
                        .map_or(*v, |i| head_results[n + i])
                })
                .collect();
            b.set_insertion_point_after(head_id);
            combine_lanes(b, &lanes, &head_results[..n]);
            let tail_at = b.body().first_op(guard_then).expect("the guard's yield is left");
            b.set_insertion_point_before(tail_at);
            lane_zero_tail(b, &lanes, &inits, &results, post);
            // The barriers run outside the guard: move it after them.
            let launch_block = b.body().op_block(guard.op()).expect("the guard is in a block");
            let launch_term = b
                .body()
                .terminator(launch_block)
                .expect("a kernel block ends with gpu.terminator");
            b.move_op_before(guard.op(), launch_term);
        }
    }
}
