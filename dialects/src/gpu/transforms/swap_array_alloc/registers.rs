//! Zero-distance uses in registers (DIGEST §000.7, last notes): a load of
//! a thread's own slot of a buffer in a later phase reads the value the same
//! thread stored in the producer phase, so the producer's `affine.if`
//! yields it and the load goes. Then buffers that no load reads lose their
//! stores and their attribution.

use crate::affine::{AffineIfOp, AffineLoadOp, AffineStoreOp, AffineYieldOp};
use crate::arith::ArithConstantOp;
use crate::gpu::utils::phase_barriers::PhaseAccesses;
use crate::gpu::GpuLaunchOp;
use lf_ir::affine::{AffineMap, ExprView};
use lf_ir::attrs::AttrData;
use lf_ir::builder::Builder;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{OpId, Type, Value};
use std::collections::HashMap;

/// Whether `map(operands)` is the thread's own slot of a buffer of its
/// rank: `[%tx]`, `[%ty, %tx]`, `[%tz, %ty, %tx]` (own to one thread only
/// when the block has no more dimensions than the buffer: see
/// [`block_rank`]).
fn is_own_slot(map: &AffineMap, operands: &[Value], threads: [Value; 3]) -> bool {
    let rank = map.results().len();
    if rank == 0 || rank > 3 {
        return false;
    }
    let nd = map.num_dims() as usize;
    map.results().iter().enumerate().all(|(j, e)| {
        let expected = threads[rank - 1 - j];
        let pos = match e.view() {
            ExprView::Dim(d) => d as usize,
            ExprView::Symbol(s) => nd + s as usize,
            _ => return false,
        };
        operands.get(pos) == Some(&expected)
    })
}

/// How many thread dimensions the block really has: 3, less the outer
/// ones (z, then y) whose size is the constant 1. A slot indexed by fewer
/// thread ids is shared by several threads, so it is no thread's own.
fn block_rank(b: &Builder<'_>, launch: GpuLaunchOp) -> usize {
    let sizes = launch.block_size(b);
    let is_one = |v: Value| {
        lf_ir::constants::constant_value(b.ctx(), b.body(), v)
            .is_some_and(|a| matches!(b.ctx().attr_data(a), AttrData::Integer { value: 1, .. }))
    };
    let mut rank = 3;
    while rank > 1 && is_one(sizes[rank - 1]) {
        rank -= 1;
    }
    rank
}

/// One forwarding: the loads of `loads` read what `store` (in the then
/// block of the top-level `producer`) stored.
struct Forward {
    producer: AffineIfOp,
    store: AffineStoreOp,
    loads: Vec<AffineLoadOp>,
}

/// The zero-distance loads that can be forwarded, grouped by buffer.
fn find(b: &Builder<'_>, launch: GpuLaunchOp, info: &PhaseAccesses) -> Vec<Forward> {
    let threads = launch.thread_ids(b);
    let rank = block_rank(b, launch);
    let position: HashMap<OpId, usize> = info.tops.iter().enumerate().map(|(k, &t)| (t, k)).collect();
    let mut out = Vec::new();
    for buffer in launch.workgroup_attributions(b) {
        let mine: Vec<_> = info.accesses.iter().filter(|a| a.buffer == buffer).collect();
        let stores: Vec<_> = mine.iter().filter(|a| a.write).collect();
        let [store] = stores.as_slice() else { continue };
        let Some(st) = AffineStoreOp::cast(b, store.op) else {
            continue;
        };
        let Some(producer) = AffineIfOp::cast(b, store.top) else {
            continue;
        };
        let body = b.body();
        if producer.else_block(b).is_some()
            || !producer.results(b).is_empty()
            || body.op_block(st.op()) != Some(producer.then_block(b))
            || st.map(b).results().len() < rank
            || !is_own_slot(st.map(b), &st.indices(b), threads)
        {
            continue;
        }
        let loads: Vec<AffineLoadOp> = mine
            .iter()
            .filter(|a| !a.write && position[&a.top] > position[&store.top])
            .filter_map(|a| AffineLoadOp::cast(b, a.op))
            .filter(|l| is_own_slot(l.map(b), &l.indices(b), threads))
            .filter(|l| b.body().value_type(l.result(b)) == b.body().value_type(st.value(b)))
            .collect();
        if !loads.is_empty() {
            out.push(Forward {
                producer,
                store: st,
                loads,
            });
        }
    }
    out
}

/// Gives `producer` one result per value of `values` (its then block
/// yields them, a new else block yields zeros); returns the new op's results.
fn add_results(b: &mut Builder<'_>, producer: AffineIfOp, values: &[Value]) -> ValueList {
    let types: Vec<Type> = values.iter().map(|&v| b.body().value_type(v)).collect();
    let condition = producer.condition(b).clone();
    let operands = producer.operands(b);
    b.set_insertion_point_before(producer.op());
    b.set_loc_of(producer.op());
    let new_if = AffineIfOp::build_empty(b, &operands, &types, condition);
    let then_block = b.create_block(new_if.then_region(b), &[]);
    let old_then = producer.then_block(b);
    let old_ops: Vec<OpId> = b.body().block_ops(old_then).collect();
    if let Some((_yield, moved)) = old_ops.split_last() {
        for &op in moved {
            b.move_op_to_end(op, then_block);
        }
    }
    b.set_insertion_point_to_end(then_block);
    AffineYieldOp::build(b, values);
    let else_block = b.create_block(new_if.else_region(b), &[]);
    b.set_insertion_point_to_end(else_block);
    let zeros: ValueList = types.iter().filter_map(|&t| ArithConstantOp::zero(b, t)).collect();
    AffineYieldOp::build(b, &zeros);
    b.erase_op(producer.op());
    new_if.results(b)
}

/// Forwards every zero-distance load of the launch; returns how many loads
/// now read a register.
pub fn forward_zero_distance(b: &mut Builder<'_>, launch: GpuLaunchOp, info: &PhaseAccesses) -> usize {
    let forwards: Vec<Forward> = find(b, launch, info)
        .into_iter()
        .filter(|f| ArithConstantOp::has_zero(b.ctx(), b.body().value_type(f.store.value(b))))
        .collect();
    let mut by_producer: Vec<(AffineIfOp, Vec<&Forward>)> = Vec::new();
    for f in &forwards {
        match by_producer.iter_mut().find(|(p, _)| *p == f.producer) {
            Some((_, list)) => list.push(f),
            None => by_producer.push((f.producer, vec![f])),
        }
    }
    let mut count = 0;
    for (producer, list) in by_producer {
        let values: Vec<Value> = list.iter().map(|f| f.store.value(b)).collect();
        let results = add_results(b, producer, &values);
        for (f, &r) in list.iter().zip(results.iter()) {
            for l in &f.loads {
                let v = l.result(b);
                b.replace_all_uses_with(v, r);
                b.erase_op(l.op());
                count += 1;
            }
        }
    }
    count
}

/// Erases the stores of every workgroup buffer that no op loads; returns
/// those buffers (their attributions are erased with the others later).
pub fn drop_unread(b: &mut Builder<'_>, launch: GpuLaunchOp, info: &PhaseAccesses) -> Vec<Value> {
    let mut dead = Vec::new();
    for buffer in launch.workgroup_attributions(b) {
        let mine: Vec<_> = info.accesses.iter().filter(|a| a.buffer == buffer).collect();
        if mine.iter().any(|a| !a.write) {
            continue;
        }
        for a in mine {
            b.erase_op(a.op);
        }
        dead.push(buffer);
    }
    dead
}
