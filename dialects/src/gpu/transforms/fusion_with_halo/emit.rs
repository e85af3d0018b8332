//! Builds the fused kernel of a group (DIGEST §000.7 steps 1-5, in the form
//! `docs/design/fusion-with-halo.md` fixes): one `gpu.launch` whose block
//! covers strip + halo per level, one guarded phase per nest, one
//! workgroup buffer per communicating definition, stores to global memory
//! only from the block's own strip.

use super::group::GroupPlan;
use super::grouped;
use crate::affine::{AffineApplyOp, AffineBound, AffineForOp, AffineIfOp, AffineLoadOp, AffineStoreOp};
use crate::arith::ArithConstantOp;
use crate::gpu::{AddressSpace, GpuBarrierOp, GpuLaunchOp};
use lf_ir::affine::{simplify_affine_expr, AffineExpr, AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::types::TypeData;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{OpId, Type, Value};

/// Replaces the group's nests by the fused launch (before the last nest,
/// after every op the nests use); returns the launch.
pub fn emit(b: &mut Builder<'_>, plan: &GroupPlan) -> OpId {
    let depth = plan.strip.len();
    let last = plan.nests.last().expect("a group has nests").root();
    b.set_insertion_point_before(last);
    b.set_loc_of(plan.nests[0].root());
    let block = plan.block();
    let mut grid_v = Vec::new();
    let mut block_v = Vec::new();
    let one = ArithConstantOp::index(b, 1);
    for a in 0..3 {
        if a < depth {
            let d = depth - 1 - a;
            grid_v.push(ArithConstantOp::index(b, plan.grid[d]));
            block_v.push(ArithConstantOp::index(b, block[d]));
        } else {
            grid_v.push(one);
            block_v.push(one);
        }
    }
    let ctx = b.ctx();
    let space = AddressSpace::Workgroup.attr(ctx);
    let buffer_types: Vec<Type> = plan
        .nests
        .iter()
        .enumerate()
        .filter(|&(j, _)| plan.communicates[j])
        .map(|(_, n)| {
            let element = match ctx.type_data(b.body().value_type(n.array)) {
                TypeData::MemRef { element, .. } => *element,
                _ => unreachable!("a store writes a memref"),
            };
            ctx.get_type(TypeData::MemRef {
                shape: plan.extent().into_boxed_slice(),
                element,
                layout: None,
                memory_space: Some(space),
            })
        })
        .collect();
    let launch = GpuLaunchOp::build_with_workgroup(
        b,
        [grid_v[0], grid_v[1], grid_v[2]],
        [block_v[0], block_v[1], block_v[2]],
        &buffer_types,
        |b, launch| fill_kernel(b, launch, plan),
    );
    for n in &plan.nests {
        b.erase_op(n.root());
    }
    launch.op()
}

/// The kernel's body: iteration values, then one phase per nest.
fn fill_kernel(b: &mut Builder<'_>, launch: GpuLaunchOp, plan: &GroupPlan) {
    let depth = plan.strip.len();
    let bids = launch.block_ids(b);
    let tids = launch.thread_ids(b);
    // Level d runs on axis depth - 1 - d (the innermost on x).
    let bid: Vec<Value> = (0..depth).map(|d| bids[depth - 1 - d]).collect();
    let t: Vec<Value> = (0..depth).map(|d| tids[depth - 1 - d]).collect();
    let steps = plan.outer_steps();
    // With one thread per iteration, every level's iteration value is
    // computed once; else the outermost one in each phase's loop.
    let first = usize::from(steps > 1);
    let mut i: Vec<Value> = t.clone();
    for d in first..depth {
        i[d] = iteration_value(b, plan, d, bid[d], t[d]);
    }
    let buffers = launch.workgroup_attributions(b);
    let mut buffer_of = vec![None; plan.nests.len()];
    let mut next = 0;
    for (j, slot) in buffer_of.iter_mut().enumerate() {
        if plan.communicates[j] {
            *slot = Some(buffers[next]);
            next += 1;
        }
    }
    for k in 0..plan.nests.len() {
        if plan.vector_width > 1 {
            grouped::grouped_phase(b, plan, k, bid[0], t[0], &buffer_of);
        } else if steps == 1 {
            guarded_phase(b, plan, k, &i, &t, &[], &buffer_of);
        } else {
            // Each thread of the outermost level computes the iterations
            // `t, t + B, t + 2B, ...` of its block's extent.
            let threads = plan.block()[0];
            let extent = plan.extent()[0];
            AffineForOp::build(
                b,
                AffineBound::constant(0),
                AffineBound::constant(steps),
                1,
                &[],
                |b, r, _| {
                    let slot_map = AffineMap::new(
                        2,
                        0,
                        vec![AffineExpr::dim(0).add(&AffineExpr::dim(1).mul_const(threads))],
                    );
                    let slot = AffineApplyOp::build(b, &[t[0], r], slot_map).result(b);
                    let (mut i, mut t) = (i.clone(), t.clone());
                    i[0] = iteration_value(b, plan, 0, bid[0], slot);
                    t[0] = slot;
                    let mut extra = Vec::new();
                    if steps * threads > extent {
                        extra.push(AffineExpr::dim(depth as u32).neg().add_const(extent - 1));
                    }
                    guarded_phase(b, plan, k, &i, &t, &extra, &buffer_of);
                    ValueList::new()
                },
            );
        }
        if plan.communicates[k] {
            GpuBarrierOp::build(b);
        }
    }
}

/// `i_d = o_d + block * S_d - Lmax_d + slot`: the iteration of level `d`
/// the thread's `slot` (its position in the block's extent) computes.
pub(super) fn iteration_value(b: &mut Builder<'_>, plan: &GroupPlan, d: usize, block: Value, slot: Value) -> Value {
    let expr = AffineExpr::dim(0)
        .mul_const(plan.strip[d])
        .add(&AffineExpr::dim(1))
        .add_const(plan.origin[d] - plan.lmax[d]);
    AffineApplyOp::build(b, &[block, slot], AffineMap::new(2, 0, vec![expr])).result(b)
}

/// Nest `k`'s phase at the insertion point, under its guard (and the
/// `extra` constraints over `[i.., t..]`) when it needs one.
pub(super) fn guarded_phase(
    b: &mut Builder<'_>,
    plan: &GroupPlan,
    k: usize,
    i: &[Value],
    t: &[Value],
    extra: &[AffineExpr],
    buffer_of: &[Option<Value>],
) {
    let mut guard = phase_guard(plan, k);
    guard.extend_from_slice(extra);
    if guard.is_empty() {
        fill_phase(b, plan, k, i, t, buffer_of);
        return;
    }
    let (set, operands) = integer_set(&guard, i, t);
    AffineIfOp::build(
        b,
        set,
        &operands,
        &[],
        |b| {
            fill_phase(b, plan, k, i, t, buffer_of);
            ValueList::new()
        },
        None,
    );
}

/// The constraints (`>= 0`) over `[i_0.., t_0..]` keeping nest `k` to its
/// widened range: its bounds and the strip widened by its halo, without
/// those every thread of the grid satisfies.
pub(super) fn phase_guard(plan: &GroupPlan, k: usize) -> Vec<AffineExpr> {
    let depth = plan.strip.len();
    let n = &plan.nests[k];
    let h = &plan.halos[k];
    let mut out = Vec::new();
    for d in 0..depth {
        let iv = AffineExpr::dim(d as u32);
        let tv = AffineExpr::dim((depth + d) as u32);
        let first = plan.origin[d] - plan.lmax[d];
        let last = plan.origin[d] + plan.grid[d] * plan.strip[d] + plan.rmax[d] - 1;
        if first < n.lo[d] {
            out.push(iv.add_const(-n.lo[d]));
        }
        if last > n.hi[d] - 1 {
            out.push(iv.neg().add_const(n.hi[d] - 1));
        }
        if h.lower[d] < plan.lmax[d] {
            out.push(tv.add_const(-(plan.lmax[d] - h.lower[d])));
        }
        if h.upper[d] < plan.rmax[d] {
            out.push(tv.neg().add_const(plan.lmax[d] + plan.strip[d] + h.upper[d] - 1));
        }
    }
    out
}

/// The constraints keeping a thread of nest `k`'s phase to its block's
/// own strip (those its phase guard does not already hold).
pub(super) fn owned_guard(plan: &GroupPlan, k: usize) -> Vec<AffineExpr> {
    let depth = plan.strip.len();
    let h = &plan.halos[k];
    let mut out = Vec::new();
    for d in 0..depth {
        let tv = AffineExpr::dim((depth + d) as u32);
        if h.lower[d] > 0 {
            out.push(tv.add_const(-plan.lmax[d]));
        }
        if h.upper[d] > 0 {
            out.push(tv.neg().add_const(plan.lmax[d] + plan.strip[d] - 1));
        }
    }
    out
}

/// `exprs >= 0` over `[i.., t..]` as an integer set on the values used.
pub(super) fn integer_set(exprs: &[AffineExpr], i: &[Value], t: &[Value]) -> (IntegerSet, Vec<Value>) {
    let all: Vec<Value> = i.iter().chain(t).copied().collect();
    let mut used = vec![false; all.len()];
    for e in exprs {
        e.mark_used_dims(&mut used);
    }
    let mut renumber = Vec::with_capacity(all.len());
    let mut operands = Vec::new();
    for (p, &u) in used.iter().enumerate() {
        renumber.push(AffineExpr::dim(operands.len() as u32));
        if u {
            operands.push(all[p]);
        }
    }
    let nd = operands.len() as u32;
    let constraints: Vec<AffineExpr> = exprs
        .iter()
        .map(|e| simplify_affine_expr(&e.replace_dims(&renumber), nd, 0))
        .collect();
    let n = constraints.len();
    (IntegerSet::new(nd, 0, constraints, vec![false; n]), operands)
}

/// Nest `k`'s body at the insertion point, with its induction variables
/// replaced by the iteration values, served reads by buffer loads, and its
/// definition stored to its buffer and (from the strip, when kept) to
/// global memory.
fn fill_phase(b: &mut Builder<'_>, plan: &GroupPlan, k: usize, i: &[Value], t: &[Value], buffer_of: &[Option<Value>]) {
    b.guarded(|b| fill_phase_here(b, plan, k, i, t, buffer_of, true));
}

/// Nest `k`'s body at the insertion point (see [`fill_phase`]); the
/// global store of a kept definition is put under the block's own strip
/// guard when `owned_guard_here`, else left unguarded for the caller to
/// guard, and returned.
pub(super) fn fill_phase_here(
    b: &mut Builder<'_>,
    plan: &GroupPlan,
    k: usize,
    i: &[Value],
    t: &[Value],
    buffer_of: &[Option<Value>],
    owned_guard_here: bool,
) -> Option<OpId> {
    let depth = plan.strip.len();
    let nest = &plan.nests[k];
    let mut map = ValueMap::default();
    for (d, f) in nest.loops.iter().enumerate() {
        map.map(f.iv(b), i[d]);
    }
    let ops: Vec<OpId> = b.body().block_ops(nest.body).collect();
    let mut store = None;
    for &op in &ops[..ops.len() - 1] {
        let new = b.clone_op(op, &mut map);
        if op == nest.store {
            store = Some(new);
        }
    }
    let served: Vec<_> = plan
        .served
        .iter()
        .filter(|s| body_holds(b, nest.root(), s.read))
        .collect();
    for s in served {
        let old = AffineLoadOp::cast(b, s.read).expect("a load").result(b);
        let new = map.lookup(old);
        let new_op = b.body().defining_op(new).expect("a cloned load");
        b.set_insertion_point_before(new_op);
        let index: Vec<AffineExpr> = (0..depth)
            .map(|d| AffineExpr::dim(d as u32).add_const(s.w[d]))
            .collect();
        let buffer = buffer_of[s.producer].expect("a producer with a consumer has a buffer");
        let index = AffineMap::new(depth as u32, 0, index);
        if !s.partial {
            let load = AffineLoadOp::build(b, buffer, t, index).result(b);
            b.replace_all_uses_with(new, load);
            b.erase_op(new_op);
            continue;
        }
        // Iterations whose producer iteration is outside the producer's
        // bounds read the array (no nest of the group writes it there).
        let producer = &plan.nests[s.producer];
        let mut inside = Vec::new();
        for d in 0..depth {
            let shifted = AffineExpr::dim(d as u32).add_const(s.w[d]);
            if nest.lo[d] + s.w[d] < producer.lo[d] {
                inside.push(shifted.add_const(-producer.lo[d]));
            }
            if nest.hi[d] + s.w[d] > producer.hi[d] {
                inside.push(shifted.neg().add_const(producer.hi[d] - 1));
            }
        }
        let (set, operands) = integer_set(&inside, i, t);
        let ty = b.body().value_type(new);
        let choice = AffineIfOp::build(
            b,
            set,
            &operands,
            &[ty],
            |b| {
                let load = AffineLoadOp::build(b, buffer, t, index).result(b);
                [load].into_iter().collect()
            },
            Some(&mut |b: &mut Builder<'_>| {
                b.move_op_to_insertion_point(new_op);
                [new].into_iter().collect()
            }),
        );
        let value = choice.results(b)[0];
        let if_op = choice.op();
        b.replace_uses_if(new, value, |body, user| !body.is_ancestor(if_op, user));
    }
    let store = store.expect("the nest's store was cloned");
    let value = AffineStoreOp::cast(b, store).expect("a store").value(b);
    b.set_insertion_point_before(store);
    if let Some(buffer) = buffer_of[k] {
        let identity = AffineMap::new(depth as u32, 0, (0..depth).map(|d| AffineExpr::dim(d as u32)).collect());
        AffineStoreOp::build(b, value, buffer, t, identity);
    }
    if !plan.keep[k] {
        b.erase_op(store);
        return None;
    }
    if owned_guard_here {
        let owned = owned_guard(plan, k);
        if !owned.is_empty() {
            guard_stores(b, &owned, i, t, &[store]);
        }
    }
    Some(store)
}

/// Moves `stores` (in order) into one `affine.if` of `constraints` over
/// `[i.., t..]` built at the insertion point.
pub(super) fn guard_stores(b: &mut Builder<'_>, constraints: &[AffineExpr], i: &[Value], t: &[Value], stores: &[OpId]) {
    let (set, operands) = integer_set(constraints, i, t);
    let guard = AffineIfOp::build(b, set, &operands, &[], |_| ValueList::new(), None);
    let then = guard.then_block(b);
    let end = b
        .body()
        .terminator(then)
        .expect("affine.if's block ends in affine.yield");
    for &store in stores {
        b.move_op_before(store, end);
    }
}

/// Whether `op` is inside the nest rooted at `root`.
fn body_holds(b: &Builder<'_>, root: OpId, op: OpId) -> bool {
    b.body().is_ancestor(root, op)
}
