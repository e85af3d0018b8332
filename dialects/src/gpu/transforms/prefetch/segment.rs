//! The leading G2S/G2R statements of a kernel loop's body (the contract of
//! `docs/design/kernel-optimizer.md`): global `affine.load`s at the top of
//! the body, each either stored into a workgroup array by its only user
//! (G2S) or used by the computation (G2R), with the pure index arithmetic
//! their addresses need.

use crate::affine::{AffineApplyOp, AffineForOp, AffineIfOp, AffineLoadOp, AffineStoreOp};
use crate::arith::ArithConstantOp;
use crate::gpu::analysis::kernel_access::{memory_space, MemorySpace};
use crate::gpu::GpuBarrierOp;
use lf_ir::builder::Builder;
use lf_ir::interfaces::is_memory_effect_free;
use lf_ir::view::OpView;
use lf_ir::{BlockId, OpId, Value};

/// One load to prefetch.
#[derive(Clone, Debug)]
pub struct Prefetched {
    /// The global `affine.load`.
    pub load: OpId,
    /// The `affine.store` into a workgroup array (G2S), or `None` (G2R).
    pub store: Option<OpId>,
    /// The ops of the loop body its address depends on, in program order.
    pub chain: Vec<OpId>,
    /// The `affine.if` (without else or results) it sits in, as block merge
    /// guards G2S statements with `tidx < old blockDim.x` (seed Fig. 5).
    pub guard: Option<OpId>,
}

/// The loads at the top of the body of `for_op`, and the op before which the
/// computation starts (the next iteration's loads go before it; after a
/// `gpu.barrier` that directly follows the statements, as in seed Fig. 8b).
pub struct Segment {
    /// The loads, in program order.
    pub loads: Vec<Prefetched>,
    /// The first op of the computation.
    pub compute: OpId,
}

impl Segment {
    /// How many of the loads are G2S.
    pub fn g2s(&self) -> usize {
        self.loads.iter().filter(|l| l.store.is_some()).count()
    }
}

/// The leading segment of `for_op`'s body.
pub fn leading(b: &Builder<'_>, for_op: AffineForOp) -> Result<Segment, String> {
    let body = b.body();
    let block = for_op.region_block(b);
    let mut loads: Vec<Prefetched> = Vec::new();
    let mut compute = None;
    for op in body.block_ops(block) {
        if AffineApplyOp::isa(b, op) || ArithConstantOp::isa(b, op) {
            continue;
        }
        if let Some(g2s) = g2s_load(b, op, block) {
            loads.push(Prefetched {
                load: op,
                store: g2s,
                chain: Vec::new(),
                guard: None,
            });
            continue;
        }
        if let Some(guarded) = guarded_g2s(b, for_op, op) {
            loads.extend(guarded);
            continue;
        }
        if loads.iter().any(|l| l.store == Some(op)) {
            continue;
        }
        compute = Some(op);
        break;
    }
    let mut compute = compute.ok_or("the loop body has no computation")?;
    if GpuBarrierOp::isa(b, compute) {
        if let Some(next) = body.next_op(compute) {
            compute = next;
        }
    }
    let iv = for_op.iv(b);
    for l in &mut loads {
        l.chain = address_chain(b, for_op, iv, l.load)?;
    }
    Ok(Segment { loads, compute })
}

/// `Some(store)` when `op` is a global `affine.load` (`store`: the
/// workgroup `affine.store` in `block` that is its only use, if it is one).
fn g2s_load(b: &Builder<'_>, op: OpId, block: BlockId) -> Option<Option<OpId>> {
    let (ctx, body) = (b.ctx(), b.body());
    let l = AffineLoadOp::cast(b, op)?;
    if memory_space(ctx, body, l.memref(b)) != MemorySpace::Global {
        return None;
    }
    let v = l.result(b);
    let mut uses = body.uses(v);
    let only = uses.next().map(|u| body.use_owner(u)).filter(|_| uses.next().is_none());
    Some(only.filter(|&u| {
        AffineStoreOp::cast(b, u).is_some_and(|s| {
            s.value(b) == v
                && memory_space(ctx, body, s.memref(b)) == MemorySpace::Workgroup
                && body.op_block(u) == Some(block)
        })
    }))
}

/// The G2S statements of `op` when it is an `affine.if` without else or
/// results, whose condition depends only on the induction variable and
/// values defined outside the loop, and whose then block holds only G2S
/// statements and index arithmetic (block merge's guard).
fn guarded_g2s(b: &Builder<'_>, for_op: AffineForOp, op: OpId) -> Option<Vec<Prefetched>> {
    let body = b.body();
    let if_op = AffineIfOp::cast(b, op)?;
    if body.num_results(op) != 0 || if_op.else_block(b).is_some() {
        return None;
    }
    let iv = for_op.iv(b);
    if body
        .operands(op)
        .any(|v| v != iv && body.is_defined_inside(v, for_op.op()))
    {
        return None;
    }
    let then = if_op.then_block(b);
    let mut out: Vec<Prefetched> = Vec::new();
    for inner in body.block_ops(then) {
        if body.terminator(then) == Some(inner)
            || AffineApplyOp::isa(b, inner)
            || ArithConstantOp::isa(b, inner)
            || out.iter().any(|l| l.store == Some(inner))
        {
            continue;
        }
        match g2s_load(b, inner, then) {
            Some(Some(store)) => out.push(Prefetched {
                load: inner,
                store: Some(store),
                chain: Vec::new(),
                guard: Some(op),
            }),
            _ => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The pure ops of the loop body the address operands of `load` depend on,
/// in program order; an error when an operand is a loop-carried value or
/// comes from an op with effects.
fn address_chain(b: &Builder<'_>, for_op: AffineForOp, iv: Value, load: OpId) -> Result<Vec<OpId>, String> {
    let (ctx, body) = (b.ctx(), b.body());
    let mut chain: Vec<OpId> = Vec::new();
    let mut work: Vec<Value> = AffineLoadOp::cast(b, load)
        .map(|l| l.indices(b).to_vec())
        .unwrap_or_default();
    while let Some(v) = work.pop() {
        if v == iv || !body.is_defined_inside(v, for_op.op()) {
            continue;
        }
        let Some(def) = body.defining_op(v) else {
            return Err("an address depends on a loop-carried value".into());
        };
        if !(AffineApplyOp::isa(b, def) || ArithConstantOp::isa(b, def)) || !is_memory_effect_free(ctx, body, def) {
            return Err(format!(
                "an address is computed by '{}' inside the loop",
                ctx.op_name_str(body.op_name(def))
            ));
        }
        if !chain.contains(&def) {
            chain.push(def);
            work.extend(body.operands(def));
        }
    }
    let top = for_op.region_block(b);
    chain.sort_by(|&x, &y| {
        let (bx, by) = (body.op_block(x) != Some(top), body.op_block(y) != Some(top));
        if x == y {
            std::cmp::Ordering::Equal
        } else if bx != by {
            bx.cmp(&by)
        } else if body.is_before_in_block(x, y) {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        }
    });
    Ok(chain)
}
