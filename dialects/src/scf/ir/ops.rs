//! What the generated `scf` views lack: induction variables and
//! loop-carried block arguments, builders that fill the regions of
//! `scf.for` and `scf.if`, and the loops' loop-like interfaces.

use super::views::{ScfForOp, ScfIfOp, ScfParallelOp, ScfWhileOp, ScfYieldOp};
use lf_ir::builder::Builder;
use lf_ir::interfaces::{Bound, LoopLike};
use lf_ir::view::{Ir, OpView, ValueList};
use lf_ir::{BlockId, OpId, Type, Value};
use smallvec::SmallVec;

/// The arguments of the entry block of region `index` of `op`.
fn entry_args<'c>(ir: &impl Ir<'c>, op: OpId, index: usize) -> ValueList {
    let body = ir.body();
    let rb = body.regions_body(op);
    rb.entry_block(body.region(op, index))
        .map_or_else(ValueList::new, |b| rb.block_args(b).iter().copied().collect())
}

/// The operands of the terminator of the entry block of region `index`.
fn yielded<'c>(ir: &impl Ir<'c>, op: OpId, index: usize) -> ValueList {
    let body = ir.body();
    body.entry_block(body.region(op, index))
        .and_then(|b| body.terminator(b))
        .map_or_else(ValueList::new, |t| body.operands(t).collect())
}

impl ScfForOp {
    /// The induction variable.
    pub fn iv<'c>(self, ir: &impl Ir<'c>) -> Value {
        entry_args(ir, self.op(), 0)[0]
    }

    /// The block arguments carrying the loop-carried values.
    pub fn region_iter_args<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        entry_args(ir, self.op(), 0).into_iter().skip(1).collect()
    }

    /// Creates `scf.for %iv = lb to ub step step iter_args(inits)` at the
    /// builder's insertion point; `body` fills the loop's block given the
    /// induction variable and the loop-carried arguments and returns the
    /// values to yield (the `scf.yield` is added).
    pub fn build(
        b: &mut Builder<'_>,
        lb: Value,
        ub: Value,
        step: Value,
        inits: &[Value],
        body: impl FnOnce(&mut Builder<'_>, Value, &[Value]) -> ValueList,
    ) -> ScfForOp {
        let types: Vec<Type> = inits.iter().map(|v| b.body().value_type(*v)).collect();
        let iv_ty = b.body().value_type(lb);
        let for_op = ScfForOp::build_empty(b, lb, ub, step, inits, &types);
        let mut arg_types = vec![iv_ty];
        arg_types.extend_from_slice(&types);
        let block = b.create_block(for_op.region(b), &arg_types);
        let args: ValueList = b.body().block_args(block).iter().copied().collect();
        fill(b, block, |b| body(b, args[0], &args[1..]));
        for_op
    }
}

/// Fills `block` with `f` and ends it with `scf.yield` of what `f` returns.
fn fill(b: &mut Builder<'_>, block: BlockId, f: impl FnOnce(&mut Builder<'_>) -> ValueList) {
    b.guarded(|b| {
        b.set_insertion_point_to_end(block);
        let values = f(b);
        ScfYieldOp::build(b, &values);
    });
}

impl ScfIfOp {
    /// Creates `scf.if condition` with result types `results` at the
    /// builder's insertion point. `then` fills the then block and returns
    /// the values to yield; `otherwise`, when given, makes and fills the
    /// else block.
    pub fn build(
        b: &mut Builder<'_>,
        condition: Value,
        results: &[Type],
        then: impl FnOnce(&mut Builder<'_>) -> ValueList,
        otherwise: Option<&mut dyn FnMut(&mut Builder<'_>) -> ValueList>,
    ) -> ScfIfOp {
        let if_op = ScfIfOp::build_empty(b, condition, results);
        let then_block = b.create_block(if_op.then_region(b), &[]);
        fill(b, then_block, then);
        if let Some(f) = otherwise {
            let else_block = b.create_block(if_op.else_region(b), &[]);
            fill(b, else_block, f);
        }
        if_op
    }
}

impl ScfParallelOp {
    /// The induction variables.
    pub fn ivs<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        entry_args(ir, self.op(), 0)
    }
}

fn values(v: ValueList) -> SmallVec<[Bound; 3]> {
    v.into_iter().map(Bound::Value).collect()
}

/// The loop-like interface of `scf.for`.
pub static FOR_LOOP_LIKE: LoopLike = LoopLike {
    regions: |_, body, op| SmallVec::from_slice(&[body.region(op, 0)]),
    induction_vars: |ctx, body, op| std::iter::once(ScfForOp::from_op_unchecked(op).iv(&(ctx, body))).collect(),
    lower_bounds: |ctx, body, op| {
        Some(SmallVec::from_slice(&[Bound::Value(
            ScfForOp::from_op_unchecked(op).lower_bound(&(ctx, body)),
        )]))
    },
    upper_bounds: |ctx, body, op| {
        Some(SmallVec::from_slice(&[Bound::Value(
            ScfForOp::from_op_unchecked(op).upper_bound(&(ctx, body)),
        )]))
    },
    steps: |ctx, body, op| {
        Some(SmallVec::from_slice(&[Bound::Value(
            ScfForOp::from_op_unchecked(op).step(&(ctx, body)),
        )]))
    },
    inits: |ctx, body, op| ScfForOp::from_op_unchecked(op).init_args(&(ctx, body)),
    region_iter_args: |ctx, body, op| ScfForOp::from_op_unchecked(op).region_iter_args(&(ctx, body)),
    yielded_values: |ctx, body, op| yielded(&(ctx, body), op, 0),
    results: |ctx, body, op| ScfForOp::from_op_unchecked(op).results(&(ctx, body)),
};

/// The loop-like interface of `scf.parallel`.
pub static PARALLEL_LOOP_LIKE: LoopLike = LoopLike {
    regions: |_, body, op| SmallVec::from_slice(&[body.region(op, 0)]),
    induction_vars: |ctx, body, op| ScfParallelOp::from_op_unchecked(op).ivs(&(ctx, body)),
    lower_bounds: |ctx, body, op| Some(values(ScfParallelOp::from_op_unchecked(op).lower_bound(&(ctx, body)))),
    upper_bounds: |ctx, body, op| Some(values(ScfParallelOp::from_op_unchecked(op).upper_bound(&(ctx, body)))),
    steps: |ctx, body, op| Some(values(ScfParallelOp::from_op_unchecked(op).step(&(ctx, body)))),
    inits: |ctx, body, op| ScfParallelOp::from_op_unchecked(op).init_vals(&(ctx, body)),
    region_iter_args: |_, _, _| ValueList::new(),
    yielded_values: |_, _, _| ValueList::new(),
    results: |ctx, body, op| ScfParallelOp::from_op_unchecked(op).results(&(ctx, body)),
};

/// The loop-like interface of `scf.while` (no induction variables; its
/// `before` region's arguments carry the loop-carried values).
pub static WHILE_LOOP_LIKE: LoopLike = LoopLike {
    regions: |_, body, op| SmallVec::from_slice(&[body.region(op, 0), body.region(op, 1)]),
    induction_vars: |_, _, _| ValueList::new(),
    lower_bounds: |_, _, _| None,
    upper_bounds: |_, _, _| None,
    steps: |_, _, _| None,
    inits: |ctx, body, op| ScfWhileOp::from_op_unchecked(op).inits(&(ctx, body)),
    region_iter_args: |ctx, body, op| entry_args(&(ctx, body), op, 0),
    yielded_values: |ctx, body, op| yielded(&(ctx, body), op, 1),
    results: |ctx, body, op| ScfWhileOp::from_op_unchecked(op).results(&(ctx, body)),
};
