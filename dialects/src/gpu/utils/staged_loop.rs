//! A kernel loop split into chunks that are staged through shared memory:
//! the shape `coalesce-via-shared` and `gpu-promote-shared` give the loop
//! whose loads they read from workgroup buffers.
//!
//! ```text
//! affine.for %i = lb to ub step C*st iter_args(...) {
//!   <loaders: fill the buffers for iterations %i .. %i + (C-1)*st>
//!   gpu.barrier
//!   affine.for %k = 0 to C iter_args(...) {     // min(C, (ub - %i) ceildiv st) for a last partial chunk
//!     %iv = %i + %k*st
//!     <the original body>
//!   }
//!   gpu.barrier
//! }
//! ```

use crate::affine::{AffineApplyOp, AffineBound, AffineForOp, AffineIfOp};
use crate::arith::ArithConstantOp;
use crate::gpu::GpuBarrierOp;
use lf_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{Type, Value};

/// The two loops that replace a staged loop.
#[derive(Clone, Copy, Debug)]
pub struct StagedLoop {
    /// The loop over chunks (`%i`, stepping `chunk` iterations).
    pub outer: AffineForOp,
    /// The loop over the iterations of one chunk (`%k`, 0 to `chunk`).
    pub inner: AffineForOp,
}

/// Replaces `f` (constant bounds) by the staged shape (when `chunk` does
/// not divide the trip count, the last chunk's inner loop stops at the
/// loop's end): `emit_loaders` is called once, with the insertion
/// point in the outer loop's body before the first barrier and the outer
/// loop's index; the original body moves into the inner loop, where the
/// old index becomes `%i + %k*step`. Iteration arguments and results are
/// carried through both loops.
pub fn stage_loop(
    b: &mut Builder<'_>,
    f: AffineForOp,
    chunk: i64,
    mut emit_loaders: impl FnMut(&mut Builder<'_>, Value),
) -> StagedLoop {
    let shape = LoopShape::of(b, f, chunk);
    b.set_insertion_point_before(f.op());
    b.set_loc_of(f.op());
    let mut inner_slot = None;
    let outer = AffineForOp::build(
        b,
        AffineBound::constant(shape.lb),
        AffineBound::constant(shape.ub),
        shape.span(),
        &shape.inits,
        |b, i, args| {
            emit_loaders(b, i);
            GpuBarrierOp::build(b);
            let inner = shape.build_inner(b, i, args);
            let results = inner.0.results(b);
            inner_slot = Some(inner);
            GpuBarrierOp::build(b);
            results
        },
    );
    let inner = inner_slot.expect("the outer loop's body was built");
    move_body(b, f, &inner, outer);
    StagedLoop { outer, inner: inner.0 }
}

/// A slot of a double buffer: the first (before the loop) or the one an
/// index value inside the loop names.
#[derive(Clone, Copy, Debug)]
pub enum Slot {
    /// Slot 0, which the prologue fills.
    First,
    /// The slot `0` or `1` this index value holds.
    At(Value),
}

/// The two loops of a double-buffered staged loop and the buffer slot
/// the inner loop reads.
#[derive(Clone, Copy, Debug)]
pub struct PipelinedLoop {
    /// The loop over chunks and the loop over one chunk's iterations.
    pub staged: StagedLoop,
    /// The slot (0 or 1) of the buffers that holds the current chunk, an
    /// index value defined in the outer loop's body before the inner loop.
    pub slot: Value,
}

/// Replaces `f` (constant bounds, at least two chunks) by the
/// double-buffered staged shape, in which the next chunk's global loads
/// are in flight while the current chunk is computed and one barrier per
/// chunk suffices:
///
/// ```text
/// %v = load(lb); store(%v, slot 0); gpu.barrier
/// affine.for %i = lb to ub step C*st iter_args(...) {
///   %s = ((%i - lb) floordiv (C*st)) mod 2
///   %n = affine.if (%i + C*st <= ub - 1) { yield load(%i + C*st) } else { yield zeros }
///   affine.for %k ... { the original body, reading slot %s }
///   affine.if (%i + C*st <= ub - 1) { store(%n, slot (%s + 1) mod 2) }
///   gpu.barrier
/// }
/// ```
///
/// `load(b, start)` emits the global loads of the chunk from iteration
/// `start` on and returns the loaded scalars; `store(b, values, slot)`
/// stores them into the buffers' slot `slot` ([`Slot::First`] before the
/// loop: a constant, so that no index value crosses into the kernel). In chunk `c` the threads
/// read slot `c mod 2` and write slot `(c + 1) mod 2`, which every thread
/// finished reading before the barrier that ended chunk `c - 1`.
pub fn stage_loop_pipelined(
    b: &mut Builder<'_>,
    f: AffineForOp,
    chunk: i64,
    load: impl Fn(&mut Builder<'_>, Value) -> Vec<Value>,
    store: impl Fn(&mut Builder<'_>, &[Value], Slot),
) -> PipelinedLoop {
    let shape = LoopShape::of(b, f, chunk);
    let span = shape.span();
    b.set_insertion_point_before(f.op());
    b.set_loc_of(f.op());
    let start = ArithConstantOp::index(b, shape.lb);
    let first = load(b, start);
    let types: Vec<Type> = first.iter().map(|&v| b.body().value_type(v)).collect();
    store(b, &first, Slot::First);
    GpuBarrierOp::build(b);
    // i + span <= ub - 1: a next chunk exists.
    let more = IntegerSet::new(
        1,
        0,
        vec![AffineExpr::dim(0).neg().add_const(shape.ub - 1 - span)],
        vec![false],
    );
    let ordinal = AffineExpr::dim(0).add_const(-shape.lb).floor_div_const(span);
    let mut inner_slot = None;
    let mut slot_value = None;
    let outer = AffineForOp::build(
        b,
        AffineBound::constant(shape.lb),
        AffineBound::constant(shape.ub),
        span,
        &shape.inits,
        |b, i, args| {
            let slot = AffineApplyOp::build(b, &[i], AffineMap::new(1, 0, vec![ordinal.modulo_const(2)])).result(b);
            slot_value = Some(slot);
            let mut zeros = |b: &mut Builder<'_>| -> ValueList {
                types
                    .iter()
                    .map(|&t| ArithConstantOp::zero(b, t).expect("staged values are numbers"))
                    .collect()
            };
            let next = AffineIfOp::build(
                b,
                more.clone(),
                &[i],
                &types,
                |b| {
                    let at =
                        AffineApplyOp::build(b, &[i], AffineMap::new(1, 0, vec![AffineExpr::dim(0).add_const(span)]))
                            .result(b);
                    load(b, at).into_iter().collect()
                },
                Some(&mut zeros),
            );
            let values: Vec<Value> = b.body().results(next.op()).collect();
            let inner = shape.build_inner(b, i, args);
            let results = inner.0.results(b);
            inner_slot = Some(inner);
            AffineIfOp::build(
                b,
                more.clone(),
                &[i],
                &[],
                |b| {
                    let map = AffineMap::new(1, 0, vec![ordinal.add_const(1).modulo_const(2)]);
                    let other = AffineApplyOp::build(b, &[i], map).result(b);
                    store(b, &values, Slot::At(other));
                    ValueList::new()
                },
                None,
            );
            GpuBarrierOp::build(b);
            results
        },
    );
    let inner = inner_slot.expect("the outer loop's body was built");
    move_body(b, f, &inner, outer);
    PipelinedLoop {
        staged: StagedLoop { outer, inner: inner.0 },
        slot: slot_value.expect("the outer loop's body was built"),
    }
}

/// The bounds, step, trip count and carried values of a loop to stage.
struct LoopShape {
    lb: i64,
    ub: i64,
    step: i64,
    trip: i64,
    chunk: i64,
    inits: Vec<Value>,
}

/// The inner loop, the original index's replacement and the inner
/// loop's iteration arguments.
type InnerLoop = (AffineForOp, Value, ValueList);

impl LoopShape {
    fn of(b: &Builder<'_>, f: AffineForOp, chunk: i64) -> LoopShape {
        LoopShape {
            lb: f.constant_lower_bound(b).expect("staged loops have constant bounds"),
            ub: f.constant_upper_bound(b).expect("staged loops have constant bounds"),
            step: f.step(b),
            trip: f.constant_trip_count(b).expect("staged loops have constant bounds"),
            chunk,
            inits: f.inits(b).to_vec(),
        }
    }

    /// The outer loop's step.
    fn span(&self) -> i64 {
        self.step * self.chunk
    }

    /// Builds the (empty) loop over the iterations of the chunk from `i`.
    fn build_inner(&self, b: &mut Builder<'_>, i: Value, args: &[Value]) -> InnerLoop {
        let (chunk, step, ub) = (self.chunk, self.step, self.ub);
        // A trip count that `chunk` does not divide: the last chunk
        // runs min(chunk, ceil((ub - i) / step)) iterations.
        let upper = if self.trip % chunk == 0 {
            AffineBound::constant(chunk)
        } else {
            let left = AffineExpr::constant(ub).sub(&AffineExpr::dim(0)).ceil_div_const(step);
            AffineBound::map(AffineMap::new(1, 0, vec![AffineExpr::constant(chunk), left]), &[i])
        };
        let mut k_slot = None;
        let inner = AffineForOp::build(b, AffineBound::constant(0), upper, 1, args, |b, k, kargs| {
            let map = AffineMap::new(2, 0, vec![AffineExpr::dim(0).add(&AffineExpr::dim(1).mul_const(step))]);
            let iv = AffineApplyOp::build(b, &[i, k], map).result(b);
            k_slot = Some((iv, kargs.iter().copied().collect::<ValueList>()));
            kargs.iter().copied().collect()
        });
        let (iv, kargs) = k_slot.expect("the inner loop's body was built");
        (inner, iv, kargs)
    }
}

/// Moves `f`'s body into the inner loop, its index and iteration
/// arguments replaced, its results by `outer`'s; erases `f`.
fn move_body(b: &mut Builder<'_>, f: AffineForOp, (inner, iv, kargs): &InnerLoop, outer: AffineForOp) {
    let loop_iv = f.iv(b);
    let old_block = f.region_block(b);
    let old_yield = b
        .body()
        .terminator(old_block)
        .expect("a loop body ends with affine.yield");
    let yielded: Vec<Value> = b.body().operands(old_yield).collect();
    let inner_yield = b
        .body()
        .terminator(inner.region_block(b))
        .expect("the inner loop ends with affine.yield");
    if let Some(first) = b.body().first_op(old_block) {
        if first != old_yield {
            b.set_insertion_point_before(inner_yield);
            b.splice_rest_of_block(first, true);
        }
    }
    b.replace_all_uses_with(loop_iv, *iv);
    for (a, v) in f.region_iter_args(b).iter().zip(kargs) {
        b.replace_all_uses_with(*a, *v);
    }
    b.modify_in_place(inner_yield, |_, body| body.set_operands(inner_yield, &yielded));
    let old_results: Vec<Value> = f.results(b).to_vec();
    let new_results: Vec<Value> = outer.results(b).to_vec();
    for (o, n) in old_results.iter().zip(&new_results) {
        b.replace_all_uses_with(*o, *n);
    }
    b.erase_op(f.op());
}
