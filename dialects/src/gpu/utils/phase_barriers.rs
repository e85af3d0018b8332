//! Barriers between the top-level *phases* of a `gpu.launch` (the step-5
//! rules of DIGEST §000.7, as `docs/design/fusion-with-halo.md` fixes them).
//!
//! The body of a fused launch is a sequence of top-level ops (phases, most
//! of them `affine.if`s guarding one statement) that pass values between
//! threads through workgroup memory. [`place_barriers`] erases the
//! `gpu.barrier`s at the top level of the body and puts back exactly those
//! the workgroup accesses need: walking the top-level ops in order, with the
//! set of buffers read and the set written by the ops since the last barrier,
//! a barrier goes before op `q` when `q` reads a buffer written since the
//! last barrier (read after write), or writes one read (write after read) or
//! written (write after write) since it. Barriers are only ever at the top
//! level (every thread reaches them), and there is none before the first
//! write to a buffer.
//!
//! Only workgroup memory is ordered: global memory must be accessed by one
//! thread per element across phases (the cross-block rule of the fusion
//! makes it so). What the rules cannot see makes [`analyze`] fail, and the
//! launch is left alone: an attribution used by anything other than
//! `affine.load`, `affine.store`, `memref.load` and `memref.store` (a view,
//! a call), a `gpu.barrier` nested in a top-level op, a body of several
//! blocks.

use crate::affine::{AffineLoadOp, AffineStoreOp};
use crate::gpu::{GpuBarrierOp, GpuLaunchOp};
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use crate::support::at;
use lf_ir::builder::Builder;
use lf_ir::view::{Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{BlockId, Body, Context, OpId, Value};
use std::collections::{HashMap, HashSet};

/// One access to a workgroup attribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkgroupAccess {
    /// The load or store.
    pub op: OpId,
    /// The top-level op of the launch body that holds it.
    pub top: OpId,
    /// The attribution accessed.
    pub buffer: Value,
    /// Whether it is a store.
    pub write: bool,
}

/// The top-level ops of a launch and the accesses to its workgroup memory.
#[derive(Clone, Debug)]
pub struct PhaseAccesses {
    /// The body's block.
    pub block: BlockId,
    /// Its ops, in order (the terminator included).
    pub tops: Vec<OpId>,
    /// Every access to a workgroup attribution, in no particular order.
    pub accesses: Vec<WorkgroupAccess>,
}

impl PhaseAccesses {
    /// The buffers `top` reads and the buffers it writes.
    pub fn effects_of(&self, top: OpId) -> (HashSet<Value>, HashSet<Value>) {
        let (mut reads, mut writes) = (HashSet::new(), HashSet::new());
        for a in self.accesses.iter().filter(|a| a.top == top) {
            if a.write {
                writes.insert(a.buffer);
            } else {
                reads.insert(a.buffer);
            }
        }
        (reads, writes)
    }
}

/// The top-level op of the body of `launch` that holds `op`.
pub fn top_level_ancestor(body: &Body, launch: OpId, op: OpId) -> Option<OpId> {
    let mut cur = op;
    loop {
        let parent = body.parent_op(cur)?;
        if parent == launch {
            return Some(cur);
        }
        cur = parent;
    }
}

/// Whether `op` reads or writes `buffer` as one of the four accesses the
/// rules understand: `Some(true)` a store to it, `Some(false)` a load from
/// it, `None` any other use.
pub fn access_kind<'c>(ir: &impl Ir<'c>, op: OpId, buffer: Value) -> Option<bool> {
    if let Some(l) = AffineLoadOp::cast(ir, op) {
        return (l.memref(ir) == buffer).then_some(false);
    }
    if let Some(l) = MemrefLoadOp::cast(ir, op) {
        return (l.memref(ir) == buffer).then_some(false);
    }
    if let Some(s) = AffineStoreOp::cast(ir, op) {
        return (s.memref(ir) == buffer && s.value(ir) != buffer).then_some(true);
    }
    if let Some(s) = MemrefStoreOp::cast(ir, op) {
        return (s.memref(ir) == buffer && s.value(ir) != buffer).then_some(true);
    }
    None
}

/// The top-level ops of `launch` and its workgroup accesses, or why the
/// barrier rules cannot apply to it.
pub fn analyze(ctx: &Context, body: &Body, launch: GpuLaunchOp) -> Result<PhaseAccesses, String> {
    let ir = (ctx, body);
    let region = launch.body(&ir);
    let mut blocks = body.region_blocks(region);
    let block = blocks.next().ok_or("the launch has no body")?;
    if blocks.next().is_some() {
        return Err("its body has several blocks".into());
    }
    let tops: Vec<OpId> = body.block_ops(block).collect();
    for &top in &tops {
        if body.num_regions(top) == 0 {
            continue;
        }
        let mut nested = None;
        walk(body, top, WalkOrder::PreOrder, &mut |b, op| {
            if op != top && GpuBarrierOp::isa(&(ctx, b), op) {
                nested = Some(op);
                return WalkControl::Interrupt;
            }
            WalkControl::Advance
        });
        if let Some(bar) = nested {
            return Err(format!(
                "a gpu.barrier{} is nested in a top-level op (barriers are placed only between top-level ops)",
                at(ctx, body, bar)
            ));
        }
    }
    let mut accesses = Vec::new();
    for (k, buffer) in launch.workgroup_attributions(&ir).into_iter().enumerate() {
        for u in body.uses(buffer) {
            let op = body.use_owner(u);
            let Some(write) = access_kind(&ir, op, buffer) else {
                return Err(format!(
                    "workgroup attribution #{k} is used by '{}'{}, not only by loads and stores",
                    ctx.op_name_str(body.op_name(op)),
                    at(ctx, body, op)
                ));
            };
            let top = top_level_ancestor(body, launch.op(), op).ok_or("an attribution is used outside its launch")?;
            accesses.push(WorkgroupAccess { op, top, buffer, write });
        }
    }
    Ok(PhaseAccesses { block, tops, accesses })
}

/// Where barriers go: the indices `q` into `phases` before which a barrier
/// is needed, given each phase's (reads, writes) of workgroup buffers.
pub fn barrier_positions(phases: &[(HashSet<Value>, HashSet<Value>)]) -> Vec<usize> {
    let mut out = Vec::new();
    let (mut read, mut written): (HashSet<Value>, HashSet<Value>) = Default::default();
    for (q, (reads, writes)) in phases.iter().enumerate() {
        let raw = reads.iter().any(|v| written.contains(v));
        let war_waw = writes.iter().any(|v| read.contains(v) || written.contains(v));
        if raw || war_waw {
            out.push(q);
            read.clear();
            written.clear();
        }
        read.extend(reads.iter().copied());
        written.extend(writes.iter().copied());
    }
    out
}

/// Erases the `gpu.barrier`s at the top level of the body of `launch` and
/// inserts the ones the workgroup accesses need (see the module doc).
/// Leaves the launch unchanged and returns why when the rules cannot apply.
pub fn place_barriers(b: &mut Builder<'_>, launch: GpuLaunchOp) -> Result<(), String> {
    place_barriers_ordering(b, launch, &HashMap::new())
}

/// [`place_barriers`], with more memrefs to order: `extra` gives, per
/// top-level op, the other memrefs (global ones a thread may read from
/// another thread of its block) it reads and writes.
pub fn place_barriers_ordering(
    b: &mut Builder<'_>,
    launch: GpuLaunchOp,
    extra: &HashMap<OpId, (HashSet<Value>, HashSet<Value>)>,
) -> Result<(), String> {
    let info = analyze(b.ctx(), b.body(), launch)?;
    let mut phases = Vec::new();
    let mut ops = Vec::new();
    for &top in &info.tops {
        if GpuBarrierOp::isa(b, top) {
            b.erase_op(top);
            continue;
        }
        let (mut reads, mut writes) = info.effects_of(top);
        if let Some((r, w)) = extra.get(&top) {
            reads.extend(r.iter().copied());
            writes.extend(w.iter().copied());
        }
        phases.push((reads, writes));
        ops.push(top);
    }
    for q in barrier_positions(&phases) {
        b.set_insertion_point_before(ops[q]);
        b.set_loc_of(ops[q]);
        GpuBarrierOp::build(b);
    }
    Ok(())
}

/// The buffers each top-level op reads and writes, by op.
pub fn effects_by_op(info: &PhaseAccesses) -> HashMap<OpId, (HashSet<Value>, HashSet<Value>)> {
    info.tops.iter().map(|&t| (t, info.effects_of(t))).collect()
}

#[cfg(test)]
mod tests {
    use super::barrier_positions;
    use lf_ir::Value;
    use std::collections::HashSet;

    fn set(v: &[usize]) -> HashSet<Value> {
        v.iter().map(|&i| Value::from_index(i)).collect()
    }

    #[test]
    fn chain_needs_barriers_after_writes_and_before_reuse() {
        // 0: write A; 1: read A, write B; 2: read B, write A; 3: read A
        let phases = vec![
            (set(&[]), set(&[1])),
            (set(&[1]), set(&[2])),
            (set(&[2]), set(&[1])),
            (set(&[1]), set(&[])),
        ];
        assert_eq!(barrier_positions(&phases), vec![1, 2, 3]);
    }

    #[test]
    fn no_barrier_before_first_writes() {
        // Two independent first writes, then reads of both.
        let phases = vec![(set(&[]), set(&[1])), (set(&[]), set(&[2])), (set(&[1, 2]), set(&[]))];
        assert_eq!(barrier_positions(&phases), vec![2]);
    }

    #[test]
    fn reads_only_need_no_barrier() {
        let phases = vec![(set(&[1]), set(&[])), (set(&[1]), set(&[]))];
        assert!(barrier_positions(&phases).is_empty());
    }
}
