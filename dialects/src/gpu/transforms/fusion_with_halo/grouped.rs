//! The phases of a 1-D fused kernel under `vector-width=W` (W = 2 or 4):
//! each thread computes `rounds` groups of `W` neighbouring iterations of
//! the phase's interior (as long as the strip), the copies of the nest's
//! body interleaved op by op (every load of the thread before any store),
//! so that `vectorize-access{width=W}` (run after `swap-array-alloc`) can
//! merge their neighbouring accesses into vector accesses once it proves
//! them aligned; the few iterations of the phase's halos outside that
//! interior are computed one each by the first threads. The fusion proves
//! nothing about alignment: it only chooses where each phase's interior
//! starts (and pads the lower halo) so that the most accesses can be
//! aligned. See docs/design/fusion-with-halo.md, "Groups of neighbouring
//! iterations".
//!
//! A thread runs its copies without per-iteration guards when the phase's
//! guard holds at its first and its last iteration (the guard's
//! constraints are affine in the iteration and the slot, which grow
//! together from copy to copy, so they hold in between too): in every
//! block but those at the ends of the arrays. Otherwise it computes each
//! group the same way when the guard holds at both of its ends, else the
//! group's iterations one by one, each under its own guard.

use super::emit::{
    fill_phase_here, guard_stores, guarded_phase, integer_set, iteration_value, owned_guard, phase_guard,
};
use super::group::GroupPlan;
use crate::affine::{AffineApplyOp, AffineBound, AffineForOp, AffineIfOp, AffineLoadOp, AffineStoreOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::{Builder, InsertPoint};
use lf_ir::types::TypeData;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{BlockId, Body, Context, OpId, Value};

/// Where a phase's interior lies in the block's slots.
#[derive(Clone, Copy, Debug)]
struct PhaseLayout {
    /// The first slot the phase computes (its lower halo's first).
    first: i64,
    /// The first slot of the interior (as long as the strip).
    start: i64,
    /// Slots the phase computes before the interior...
    left: i64,
    /// ...and after it.
    right: i64,
    /// What the interior's start makes aligned ([`residue_scores`]).
    score: i64,
}

/// The layout of nest `k`'s phase: its slots are `lmax - lower ..
/// lmax + strip + upper - 1` (its halo); the interior starts at the slot
/// of that range, with `strip` slots after it, whose residue modulo W
/// scores best (ties: the first).
fn phase_layout(ctx: &Context, body: &Body, plan: &GroupPlan, k: usize) -> PhaseLayout {
    let w = plan.vector_width;
    let h = &plan.halos[k];
    let first = plan.lmax[0] - h.lower[0];
    let room = h.lower[0] + h.upper[0];
    let scores = residue_scores(ctx, body, plan, k);
    let mut best: Option<PhaseLayout> = None;
    for start in first..=first + room.min(w - 1) {
        let score = scores[start.rem_euclid(w) as usize];
        if best.is_none_or(|b| score > b.score) {
            best = Some(PhaseLayout {
                first,
                start,
                left: start - first,
                right: room - (start - first),
                score,
            });
        }
    }
    best.expect("at least one start")
}

/// Pads the lower halo of a 1-D plan under `vector-width` by 0 to W - 1
/// slots, the padding under which the phases' aligned accesses weigh the
/// most (ties: the least padding). The padding moves every iteration's
/// slot, so that, for instance, `X[i]` and the buffer slot of `i` can both
/// start a vector (the padded slots are idle).
pub fn pad_for_alignment(ctx: &Context, body: &Body, plan: &mut GroupPlan) {
    let w = plan.vector_width;
    let lmax = plan.lmax[0];
    let mut best = (i64::MIN, 0);
    for pad in 0..w {
        plan.lmax[0] = lmax + pad;
        let total: i64 = (0..plan.nests.len())
            .map(|k| phase_layout(ctx, body, plan, k).score)
            .sum();
        if total > best.0 {
            best = (total, pad);
        }
    }
    plan.lmax[0] = lmax + best.1;
}

/// Nest `k`'s phase at the insertion point, for thread `tid` of block
/// `bid`: its groups (slots `start + W*tid + W*T*r + m`, T threads, `r`
/// below the rounds, `m < W`), then the halo slots outside the interior.
pub fn grouped_phase(
    b: &mut Builder<'_>,
    plan: &GroupPlan,
    k: usize,
    bid: Value,
    tid: Value,
    buffer_of: &[Option<Value>],
) {
    let w = plan.vector_width;
    let threads = plan.block()[0];
    let rounds = plan.outer_steps();
    let layout = phase_layout(b.ctx(), b.body(), plan, k);
    let first_slot = AffineMap::new(1, 0, vec![AffineExpr::dim(0).mul_const(w).add_const(layout.start)]);
    let s0 = AffineApplyOp::build(b, &[tid], first_slot).result(b);
    let i0 = iteration_value(b, plan, 0, bid, s0);
    let offsets: Vec<i64> = (0..rounds)
        .flat_map(|r| (0..w).map(move |m| r * w * threads + m))
        .collect();
    let guard = phase_guard(plan, k);
    let whole = at_both_ends(&guard, *offsets.last().expect("rounds >= 1"));
    // The halo slots go in both branches: one top-level op per phase, so
    // that swap-array-alloc sees one phase (and puts no barrier between the
    // interior's and the halos' stores to the buffer).
    let halos = |b: &mut Builder<'_>| {
        for (count, base) in [
            (layout.left, layout.first),
            (layout.right, layout.start + plan.strip[0]),
        ] {
            if count > 0 {
                halo_slots(b, plan, k, (bid, tid), base, count, buffer_of);
            }
        }
    };
    if whole.is_empty() {
        together(b, plan, k, layout.start, i0, s0, &offsets, buffer_of);
        halos(b);
        return;
    }
    let (set, operands) = integer_set(&whole, &[i0], &[s0]);
    AffineIfOp::build(
        b,
        set,
        &operands,
        &[],
        |b| {
            together(b, plan, k, layout.start, i0, s0, &offsets, buffer_of);
            halos(b);
            ValueList::new()
        },
        Some(&mut |b: &mut Builder<'_>| {
            group_by_group(b, plan, k, layout.start, bid, s0, buffer_of);
            halos(b);
            ValueList::new()
        }),
    );
}

/// The thread's groups one after the other: each with its copies
/// interleaved when the phase's guard holds at both of its ends, else one
/// iteration at a time under its own guard.
fn group_by_group(
    b: &mut Builder<'_>,
    plan: &GroupPlan,
    k: usize,
    start: i64,
    bid: Value,
    s0: Value,
    buffer_of: &[Option<Value>],
) {
    let w = plan.vector_width;
    let threads = plan.block()[0];
    let guard = phase_guard(plan, k);
    let copies: Vec<i64> = (0..w).collect();
    AffineForOp::build(
        b,
        AffineBound::constant(0),
        AffineBound::constant(plan.outer_steps()),
        1,
        &[],
        |b, r, _| {
            let round = AffineMap::new(
                2,
                0,
                vec![AffineExpr::dim(0).add(&AffineExpr::dim(1).mul_const(w * threads))],
            );
            let s = AffineApplyOp::build(b, &[s0, r], round).result(b);
            let i = iteration_value(b, plan, 0, bid, s);
            let (set, operands) = integer_set(&at_both_ends(&guard, w - 1), &[i], &[s]);
            AffineIfOp::build(
                b,
                set,
                &operands,
                &[],
                |b| {
                    together(b, plan, k, start, i, s, &copies, buffer_of);
                    ValueList::new()
                },
                Some(&mut |b: &mut Builder<'_>| {
                    one_by_one(b, plan, k, bid, s, buffer_of);
                    ValueList::new()
                }),
            );
            ValueList::new()
        },
    );
}

/// The `count` slots from `base` (a halo outside the interior), one per
/// thread from the first (`ids`: block and thread), each under the phase's
/// guard.
fn halo_slots(
    b: &mut Builder<'_>,
    plan: &GroupPlan,
    k: usize,
    ids: (Value, Value),
    base: i64,
    count: i64,
    buffer_of: &[Option<Value>],
) {
    let (bid, tid) = ids;
    let threads = plan.block()[0];
    let within = [AffineExpr::dim(1).neg().add_const(base + count - 1)];
    let trips = (count + threads - 1) / threads;
    guarded_slots(b, plan, k, bid, (tid, threads, base), trips, &within, buffer_of);
}

/// Slots `first + stride * r + base` for `r < trips` (`from` = `(first,
/// stride, base)`), one after the other, each under the phase's guard and
/// the `extra` constraints over `[i, t]`.
#[allow(clippy::too_many_arguments)]
fn guarded_slots(
    b: &mut Builder<'_>,
    plan: &GroupPlan,
    k: usize,
    bid: Value,
    from: (Value, i64, i64),
    trips: i64,
    extra: &[AffineExpr],
    buffer_of: &[Option<Value>],
) {
    let (first, stride, base) = from;
    AffineForOp::build(
        b,
        AffineBound::constant(0),
        AffineBound::constant(trips),
        1,
        &[],
        |b, r, _| {
            let slot = AffineMap::new(
                2,
                0,
                vec![AffineExpr::dim(0)
                    .add(&AffineExpr::dim(1).mul_const(stride))
                    .add_const(base)],
            );
            let s = AffineApplyOp::build(b, &[first, r], slot).result(b);
            let i = iteration_value(b, plan, 0, bid, s);
            guarded_phase(b, plan, k, &[i], &[s], extra, buffer_of);
            ValueList::new()
        },
    );
}

/// Constraints (`>= 0`, affine over `[i, t]`) that hold at `[i, t]` and
/// at `[i + last, t + last]`: of each constraint and its shifted copy,
/// which differ by a constant (the constraint is linear), the stronger.
fn at_both_ends(constraints: &[AffineExpr], last: i64) -> Vec<AffineExpr> {
    let shift = [AffineExpr::dim(0).add_const(last), AffineExpr::dim(1).add_const(last)];
    constraints
        .iter()
        .flat_map(|e| {
            let shifted = e.replace_dims(&shift);
            match (e.evaluate(&[0, 0], &[]), shifted.evaluate(&[0, 0], &[])) {
                (Some(a), Some(z)) if a <= z => vec![e.clone()],
                (Some(_), Some(_)) => vec![shifted],
                _ => vec![e.clone(), shifted],
            }
        })
        .collect()
}

/// The group's iterations one after the other, each under the phase's
/// guard.
fn one_by_one(b: &mut Builder<'_>, plan: &GroupPlan, k: usize, bid: Value, s0: Value, buffer_of: &[Option<Value>]) {
    guarded_slots(b, plan, k, bid, (s0, 1, 0), plan.vector_width, &[], buffer_of);
}

/// The copies of nest `k`'s body for the iterations `i0 + o` (slots
/// `s0 + o`), `o` in `offsets` (W consecutive ones per round), interleaved
/// op by op: an order of the iterations' ops that keeps each iteration's
/// own order, which a parallel nest allows. The stores of a kept
/// definition go under one guard per round when each round's iterations
/// are all in the block's strip or all out of it (the groups start at the
/// slots `start` modulo W).
#[allow(clippy::too_many_arguments)]
fn together(
    b: &mut Builder<'_>,
    plan: &GroupPlan,
    k: usize,
    start: i64,
    i0: Value,
    s0: Value,
    offsets: &[i64],
    buffer_of: &[Option<Value>],
) {
    let w = plan.vector_width;
    let block = insertion_block(b);
    let shift_by = |b: &mut Builder<'_>, v: Value, m: i64| {
        AffineApplyOp::build(b, &[v], AffineMap::new(1, 0, vec![AffineExpr::dim(0).add_const(m)])).result(b)
    };
    let owned = owned_guard(plan, k);
    let uniform = (plan.lmax[0] - start).rem_euclid(w) == 0 && plan.strip[0] % w == 0;
    let one_guard = plan.keep[k] && !owned.is_empty() && uniform && store_is_last(b.body(), plan, k);
    let mut copies: Vec<Vec<OpId>> = Vec::new();
    let mut stores = Vec::new();
    let mut points = Vec::new();
    for &o in offsets {
        let before: Vec<OpId> = b.body().block_ops(block).collect();
        let (i, s) = (shift_by(b, i0, o), shift_by(b, s0, o));
        points.push((i, s));
        let store = b.guarded(|b| fill_phase_here(b, plan, k, &[i], &[s], buffer_of, !one_guard));
        stores.extend(store);
        let made: Vec<OpId> = b.body().block_ops(block).filter(|o| !before.contains(o)).collect();
        copies.push(made);
    }
    if copies.iter().all(|c| c.len() == copies[0].len()) {
        for p in 0..copies[0].len() {
            for c in &copies {
                b.move_op_to_insertion_point(c[p]);
            }
        }
    }
    if one_guard {
        for (round, chunk) in stores.chunks(w as usize).enumerate() {
            let (i, s) = points[round * w as usize];
            guard_stores(b, &owned, &[i], &[s], chunk);
        }
    }
}

/// The block new ops go into.
fn insertion_block(b: &Builder<'_>) -> BlockId {
    match b.insertion_point() {
        InsertPoint::End(block) => block,
        InsertPoint::Before(op) => b.body().op_block(op).expect("the insertion point is in a block"),
        InsertPoint::Detached => unreachable!("phases are built inside the kernel"),
    }
}

/// Whether nest `k`'s store is the last op of its body (so that it can
/// move after the other ops of its iteration).
fn store_is_last(body: &Body, plan: &GroupPlan, k: usize) -> bool {
    let nest = &plan.nests[k];
    let ops: Vec<OpId> = body.block_ops(nest.body).collect();
    ops.len() >= 2 && ops[ops.len() - 2] == nest.store
}

/// An array a phase accesses (a buffer by its producer nest), and
/// whether by stores.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FamilyKey {
    Global(Value, bool),
    Buffer(usize, bool),
}

/// The accesses of a phase to one array in one direction: the weight of
/// an aligned window, and the offsets of the group's first copy (from the
/// slot, for a buffer; from the iteration's residue, for global memory).
struct Family {
    key: FamilyKey,
    weight: i64,
    offsets: Vec<i64>,
}

/// How much of nest `k`'s accesses could be made vector accesses when its
/// groups start at the slots `s = r mod W`, per `r`: the aligned windows of
/// `W` elements that the group's accesses cover, per array (the `W` copies
/// of `X[i + c]` cover `c .. c + W - 1` from the group's first iteration,
/// and several reads of one array cover the union), a window of global
/// memory counting 4 and one of a buffer 1 (vector accesses matter most to
/// global memory).
fn residue_scores(ctx: &Context, body: &Body, plan: &GroupPlan, k: usize) -> Vec<i64> {
    let w = plan.vector_width;
    let nest = &plan.nests[k];
    let mut families: Vec<Family> = Vec::new();
    let mut add = |key: FamilyKey, weight: i64, offset: i64| match families.iter_mut().find(|f| f.key == key) {
        Some(f) => f.offsets.push(offset),
        None => families.push(Family {
            key,
            weight,
            offsets: vec![offset],
        }),
    };
    // The iteration at slot s is `origin + block * strip + s`, and the
    // strip is a multiple of W: a global access whose flat offset is
    // `c + i` touches `c + origin + s` modulo W.
    let origin = plan.origin[0] - plan.lmax[0];
    let ir = (ctx, body);
    for op in body.block_ops(nest.body) {
        let is_store = op == nest.store;
        if is_store && plan.communicates[k] {
            add(FamilyKey::Buffer(k, true), 1, 0);
        }
        if is_store && !plan.keep[k] {
            continue;
        }
        if !is_store && !AffineLoadOp::isa(&ir, op) {
            continue;
        }
        match plan.served.iter().find(|s| s.read == op) {
            Some(s) if !s.partial => add(FamilyKey::Buffer(s.producer, false), 1, s.w[0]),
            Some(_) => {}
            None => {
                if let Some(c) = unit_stride_offset(ctx, body, op) {
                    let memref = body.operand(op, usize::from(is_store));
                    add(FamilyKey::Global(memref, is_store), 4, c + origin);
                }
            }
        }
    }
    (0..w)
        .map(|r| {
            families
                .iter()
                .map(|f| {
                    let covered: std::collections::BTreeSet<i64> =
                        f.offsets.iter().flat_map(|&c| (0..w).map(move |m| r + c + m)).collect();
                    let first = covered.iter().next().copied().unwrap_or(0);
                    let last = covered.iter().next_back().copied().unwrap_or(0);
                    let windows = (first.div_euclid(w)..=last.div_euclid(w))
                        .filter(|n| (0..w).all(|m| covered.contains(&(n * w + m))))
                        .count() as i64;
                    f.weight * windows
                })
                .sum()
        })
        .collect()
}

/// `c` when access `op` (of a 1-D nest) touches the flat element `c + i`
/// of a statically shaped memref at iteration `i`.
fn unit_stride_offset(ctx: &Context, body: &Body, op: OpId) -> Option<i64> {
    let ir = (ctx, body);
    let (memref, map, indices) = if let Some(l) = AffineLoadOp::cast(&ir, op) {
        (l.memref(&ir), l.map(&ir).clone(), l.indices(&ir))
    } else {
        let s = AffineStoreOp::cast(&ir, op)?;
        (s.memref(&ir), s.map(&ir).clone(), s.indices(&ir))
    };
    if indices.len() != 1 || map.num_symbols() != 0 {
        return None;
    }
    let TypeData::MemRef {
        shape, layout: None, ..
    } = ctx.type_data(body.value_type(memref))
    else {
        return None;
    };
    if shape.iter().any(|&d| d < 0) {
        return None;
    }
    let flat = |x: i64| -> Option<i64> {
        let mut offset = 0i64;
        for (j, e) in map.results().iter().enumerate() {
            offset = offset.checked_mul(shape[j])?.checked_add(e.evaluate(&[x], &[])?)?;
        }
        Some(offset)
    };
    let c = flat(0)?;
    // Unit stride on a few points (the choice is a heuristic: the proof of
    // alignment is vectorize-access's).
    (1..8).all(|x| flat(x) == Some(c + x)).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::at_both_ends;
    use lf_ir::affine::AffineExpr;

    /// Whether `e >= 0` holds at `[i, t]`.
    fn holds(e: &AffineExpr, i: i64, t: i64) -> bool {
        e.evaluate(&[i, t], &[]).expect("no symbols") >= 0
    }

    #[test]
    fn both_ends_hold_exactly_when_every_point_between_does() {
        // i - 1 >= 0, -i + 99 >= 0, t - 3 >= 0, -t + 40 >= 0, and a
        // constraint mixing both.
        let i = AffineExpr::dim(0);
        let t = AffineExpr::dim(1);
        let constraints = vec![
            i.add_const(-1),
            i.neg().add_const(99),
            t.add_const(-3),
            t.neg().add_const(40),
            i.add(&t.mul_const(-2)).add_const(7),
        ];
        for last in [1, 3, 7, 515] {
            let ends = at_both_ends(&constraints, last);
            assert_eq!(ends.len(), constraints.len(), "one constraint each");
            for i0 in -5..110 {
                for t0 in -5..50 {
                    let all = (0..=last).all(|m| constraints.iter().all(|e| holds(e, i0 + m, t0 + m)));
                    let checked = ends.iter().all(|e| holds(e, i0, t0));
                    assert_eq!(all, checked, "at i = {i0}, t = {t0}, last {last}");
                }
            }
        }
    }
}
