//! `loop-merge{auto=true}`'s static profitability check (DIGEST §001.5):
//! factor 1, an inner trip count that is provably the same for every lane
//! of a warp (merging cannot help and costs about 9%), and factor 3, a
//! transition that is large next to the inner body (its divergent
//! execution costs more than reconvergence saves). Factor 2 (the variance
//! of the merged trip count) needs the data and is not estimated.

use super::shape::LoopForm;
use crate::affine::{AffineLoadOp, AffineStoreOp};
use crate::arith::ArithConstantOp;
use crate::gpu::{GpuBlockDimOp, GpuBlockIdOp, GpuGridDimOp, GpuLaunchOp, GpuThreadIdOp};
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use lf_ir::interfaces::memory_effects;
use lf_ir::view::{Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{OpId, Value};
use rustc_hash::FxHashMap;

/// The default largest transition-to-body size ratio `auto=true` merges
/// at (option `max-ratio`): on an H200, SYN-LM's nests with ratios 0.17 to
/// 0.28 (32-FMA bodies) lose 0-30% in every merged form lf writes, those
/// with 1.25 (4-FMA bodies) 50-65%; the seed's applications that gain the
/// most have ratios of 0.04 (MCX) and 0.07 (GPU-MCML)
/// (`docs/design/loop-merge.md`, `bench/gpu/RESULTS.md`).
pub const MAX_RATIO: &str = "0.1";

/// The size estimate of a merge.
pub struct Estimate {
    /// Weighted ops per inner iteration (its body and loop control).
    pub body: u32,
    /// Weighted ops per transition (epilogue, outer control, prologue).
    pub transition: u32,
}

impl Estimate {
    /// Transition size over body size.
    pub fn ratio(&self) -> f64 {
        f64::from(self.transition) / f64::from(self.body.max(1))
    }
}

/// The weight of one op: memory accesses 4, constants 0, others 1.
fn weight<'c>(ir: &impl Ir<'c>, op: OpId) -> u32 {
    if ArithConstantOp::isa(ir, op) {
        0
    } else if AffineLoadOp::isa(ir, op)
        || AffineStoreOp::isa(ir, op)
        || MemrefLoadOp::isa(ir, op)
        || MemrefStoreOp::isa(ir, op)
    {
        4
    } else {
        1
    }
}

/// The weighted size of `ops` and everything nested in them (nested loops
/// counted once: their trip counts are unknown here).
fn size<'c>(ir: &impl Ir<'c>, ops: &[OpId]) -> u32 {
    let mut n = 0;
    for &op in ops {
        walk(ir.body(), op, WalkOrder::PreOrder, &mut |body, o| {
            n += weight(&(ir.ctx(), body), o);
            WalkControl::Advance
        });
    }
    n
}

/// The estimate for merging `inner` with `outer` (whose body holds it).
pub fn estimate<'c>(ir: &impl Ir<'c>, outer: LoopForm, inner: LoopForm) -> Estimate {
    let body = ir.body();
    let ops_of =
        |blk: Option<lf_ir::BlockId>| -> Vec<OpId> { blk.map(|b| body.block_ops(b).collect()).unwrap_or_default() };
    let inner_ops = ops_of(inner.body_block(ir));
    let outer_ops: Vec<OpId> = ops_of(outer.body_block(ir))
        .into_iter()
        .filter(|&o| o != inner.op())
        .collect();
    // Loop control: an increment and a compare per `for`, the condition
    // block of a `while`; and the merged loop's branch per trip.
    let control = |l: LoopForm| match l {
        LoopForm::While(w) => ops_of(body.entry_block(w.before(ir)))
            .iter()
            .map(|&o| size(ir, &[o]))
            .sum(),
        _ => 2,
    };
    Estimate {
        body: size(ir, &inner_ops) + control(inner) + 1,
        transition: size(ir, &outer_ops) + control(outer) + 1,
    }
}

/// Why the trip count of `inner` is the same for every lane of a warp, if
/// it provably is: its bounds (or, for a `while`, every value its
/// condition and body read from outside and no memory they read) depend
/// only on constants, values from outside the kernel, block ids and sizes,
/// thread ids that are constant across a warp, and loops with such bounds.
pub fn uniform_trip_count<'c>(ir: &impl Ir<'c>, launch: Option<GpuLaunchOp>, inner: LoopForm) -> Option<String> {
    let mut u = Uniformity {
        launch,
        memo: FxHashMap::default(),
    };
    let values: Vec<Value> = match inner {
        LoopForm::While(w) => {
            let mut reads = false;
            let mut outside = Vec::new();
            walk(ir.body(), w.op(), WalkOrder::PreOrder, &mut |body, o| {
                if o != w.op() {
                    reads |= memory_effects(ir.ctx(), body, o).is_none_or(|e| !e.is_empty());
                }
                for v in body.operands(o) {
                    if !body.is_defined_inside(v, w.op()) {
                        outside.push(v);
                    }
                }
                WalkControl::Advance
            });
            if reads {
                return None;
            }
            outside
        }
        _ => {
            let mut v = inner.trip_operands(ir);
            v.extend(match inner {
                LoopForm::ScfFor(f) => vec![f.lower_bound(ir)],
                LoopForm::AffineFor(f) => f.lower_bound(ir).operands.to_vec(),
                LoopForm::While(_) => Vec::new(),
            });
            v
        }
    };
    values.iter().all(|&v| u.is_uniform(ir, v)).then(|| {
        "its bounds depend only on constants, kernel arguments, block ids and sizes, thread ids that are the same across a warp, and loops with such bounds".into()
    })
}

/// Warp-uniformity of values, memoized.
struct Uniformity {
    launch: Option<GpuLaunchOp>,
    memo: FxHashMap<Value, bool>,
}

impl Uniformity {
    fn is_uniform<'c>(&mut self, ir: &impl Ir<'c>, v: Value) -> bool {
        if let Some(&u) = self.memo.get(&v) {
            return u;
        }
        self.memo.insert(v, false); // cycles (loop-carried values) are not uniform
        let u = self.compute(ir, v);
        self.memo.insert(v, u);
        u
    }

    fn compute<'c>(&mut self, ir: &impl Ir<'c>, v: Value) -> bool {
        let body = ir.body();
        if let Some(l) = self.launch {
            if !body.is_defined_inside(v, l.op()) {
                return true;
            }
            let bs = l.block_size(ir);
            let tids = l.thread_ids(ir);
            if l.block_ids(ir).contains(&v) || l.grid_size_args(ir).contains(&v) || l.block_size_args(ir).contains(&v) {
                return true;
            }
            if let Some(k) = tids.iter().position(|&t| t == v) {
                // Thread id k is constant across a warp when the block's
                // lower dimensions hold a multiple of 32 threads.
                let c = |x: Value| lf_ir::constants::constant_int(ir.ctx(), body, x);
                let lower: Option<i128> = bs[..k].iter().try_fold(1i128, |acc, &d| Some(acc * c(d)?));
                return k > 0 && lower.is_some_and(|n| n % 32 == 0);
            }
        }
        let Some(def) = body.defining_op(v) else {
            // A block argument: the induction variable of a loop with
            // uniform bounds.
            return self.loop_iv_uniform(ir, v);
        };
        let ir2 = ir;
        if GpuBlockIdOp::isa(ir2, def) || GpuBlockDimOp::isa(ir2, def) || GpuGridDimOp::isa(ir2, def) {
            return true;
        }
        if GpuThreadIdOp::isa(ir2, def) || body.num_regions(def) > 0 {
            return false;
        }
        let pure = memory_effects(ir.ctx(), body, def).is_some_and(|e| e.is_empty());
        if !pure {
            return false;
        }
        let operands: Vec<Value> = body.operands(def).collect();
        operands.into_iter().all(|o| self.is_uniform(ir, o))
    }

    fn loop_iv_uniform<'c>(&mut self, ir: &impl Ir<'c>, v: Value) -> bool {
        let body = ir.body();
        let Some(block) = body.value_block(v) else { return false };
        let Some(region) = body.block_region(block) else {
            return false;
        };
        let Some(owner) = body.region_parent(region) else {
            return false;
        };
        let Some(l) = LoopForm::of(ir, owner) else { return false };
        let iv = match l {
            LoopForm::ScfFor(f) => f.iv(ir),
            LoopForm::AffineFor(f) => f.iv(ir),
            LoopForm::While(_) => return false,
        };
        if iv != v {
            return false;
        }
        let mut bounds = l.trip_operands(ir);
        bounds.extend(l.entry_operands(ir).into_iter().take(match l {
            LoopForm::ScfFor(_) => 1,
            LoopForm::AffineFor(f) => f.lower_bound(ir).operands.len(),
            LoopForm::While(_) => 0,
        }));
        bounds.into_iter().all(|b| self.is_uniform(ir, b))
    }
}
