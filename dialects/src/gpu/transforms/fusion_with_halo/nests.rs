//! The nests `affine-fusion-with-halo` fuses (DIGEST §000.3): a perfect
//! band of 1 to 3 parallel `affine.for` loops with constant bounds and step
//! 1 whose body has exactly one defining statement, an `affine.store` at
//! its top level, and otherwise only reads.

use crate::affine::analysis::loop_parallel::is_parallel_cached;
use crate::affine::analysis::{DependenceAnalysis, Precision};
use crate::affine::utils::loop_bands::perfectly_nested_loops;
use crate::affine::{AffineForOp, AffineLoadOp, AffineStoreOp};
use crate::gpu::transforms::gpu_map_loops::why_sequential;
use lf_ir::interfaces::memory_effects;
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{BlockId, Body, Context, OpId, Value};

/// The most parallel levels a fused kernel maps (x, y, z).
pub const MAX_LEVELS: usize = 3;

/// One candidate nest.
#[derive(Clone, Debug)]
pub struct Nest {
    /// The loops of the band, outermost first.
    pub loops: Vec<AffineForOp>,
    /// Constant lower bound per level.
    pub lo: Vec<i64>,
    /// Constant upper bound (exclusive) per level.
    pub hi: Vec<i64>,
    /// The innermost loop's body.
    pub body: BlockId,
    /// The defining `affine.store`.
    pub store: OpId,
    /// The array it defines.
    pub array: Value,
    /// Every `affine.load` in the body, in order.
    pub reads: Vec<OpId>,
}

impl Nest {
    /// The outermost loop.
    pub fn root(&self) -> OpId {
        self.loops[0].op()
    }

    /// The number of parallel levels.
    pub fn depth(&self) -> usize {
        self.loops.len()
    }

    /// The number of iterations.
    pub fn iterations(&self) -> u64 {
        self.lo
            .iter()
            .zip(&self.hi)
            .map(|(l, h)| (h - l).max(0) as u64)
            .product()
    }
}

/// The nest rooted at `root`, or why it cannot be fused.
pub fn candidate(ctx: &Context, body: &Body, root: AffineForOp, deps: &DependenceAnalysis) -> Result<Nest, String> {
    let ir = (ctx, body);
    let loops = perfectly_nested_loops(&ir, root);
    if loops.len() > MAX_LEVELS {
        return Err(format!(
            "its perfect band has {} loops, more than the {MAX_LEVELS} a kernel maps",
            loops.len()
        ));
    }
    let (mut lo, mut hi) = (Vec::new(), Vec::new());
    for (p, &f) in loops.iter().enumerate() {
        let (Some(l), Some(h)) = (f.constant_lower_bound(&ir), f.constant_upper_bound(&ir)) else {
            return Err(format!("loop i{p} does not have constant bounds"));
        };
        if f.step(&ir) != 1 {
            return Err(format!("loop i{p} has step {} (normalize it first)", f.step(&ir)));
        }
        if !is_parallel_cached(&deps.accesses, &ir, f, Precision::Exact) {
            return Err(format!(
                "loop i{p} is not parallel: {}",
                why_sequential(ctx, body, f, deps)
            ));
        }
        lo.push(l);
        hi.push(h);
    }
    let inner = *loops.last().expect("a band has a loop");
    let block = inner.region_block(&ir);
    let stores: Vec<OpId> = body
        .block_ops(block)
        .filter(|&op| AffineStoreOp::isa(&ir, op))
        .collect();
    let [store] = stores[..] else {
        return Err(format!(
            "its body has {} defining statements at its top level, not one (distribute it first)",
            stores.len()
        ));
    };
    let mut reads = Vec::new();
    let mut blocker = None;
    walk(body, inner.op(), WalkOrder::PreOrder, &mut |b, op| {
        if op == inner.op() || op == store {
            return WalkControl::Advance;
        }
        if AffineLoadOp::isa(&(ctx, b), op) {
            reads.push(op);
            return WalkControl::Advance;
        }
        if b.num_regions(op) > 0 {
            // Its own ops are visited next.
            return WalkControl::Advance;
        }
        if memory_effects(ctx, b, op).is_none_or(|e| !e.is_empty()) {
            blocker = Some(op);
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    if let Some(op) = blocker {
        return Err(format!(
            "'{}' in its body touches memory other than through affine.load",
            ctx.op_name_str(body.op_name(op))
        ));
    }
    let array = AffineStoreOp::cast(&ir, store).expect("a store").memref(&ir);
    Ok(Nest {
        loops,
        lo,
        hi,
        body: block,
        store,
        array,
        reads,
    })
}
