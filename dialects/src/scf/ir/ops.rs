//! What the generated `scf` views lack: induction variables and
//! loop-carried block arguments, builders that fill the regions of
//! `scf.for`, `scf.if`, `scf.while`, `scf.execute_region`, `scf.parallel`
//! and `scf.reduce`, and the loops' loop-like interfaces.

use super::views::{
    ScfConditionOp, ScfExecuteRegionOp, ScfForOp, ScfIfOp, ScfParallelOp, ScfReduceOp, ScfReduceReturnOp, ScfWhileOp,
    ScfYieldOp,
};
use lf_ir::builder::Builder;
use lf_ir::interfaces::{Bound, LoopLike};
use lf_ir::view::{entry_args, Ir, OpView, ValueList};
use lf_ir::{BlockId, OpId, Type, Value};
use smallvec::SmallVec;

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
    b.fill_block(block, f, |b, values| {
        ScfYieldOp::build(b, values);
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

impl ScfWhileOp {
    /// Creates `scf.while (inits) : (types of inits) -> results` at the
    /// builder's insertion point. `before` fills the `before` block given its
    /// arguments (one per init) and returns the condition and the values it
    /// forwards (one per result), for the `scf.condition` added after them;
    /// `after` fills the `after` block given its arguments (one per result)
    /// and returns the values for the `scf.yield` added after them (one per
    /// init).
    pub fn build(
        b: &mut Builder<'_>,
        inits: &[Value],
        results: &[Type],
        before: impl FnOnce(&mut Builder<'_>, &[Value]) -> (Value, ValueList),
        after: impl FnOnce(&mut Builder<'_>, &[Value]) -> ValueList,
    ) -> ScfWhileOp {
        let types: Vec<Type> = inits.iter().map(|v| b.body().value_type(*v)).collect();
        let while_op = ScfWhileOp::build_empty(b, inits, results);
        let before_block = b.create_block(while_op.before(b), &types);
        let args: ValueList = b.body().block_args(before_block).iter().copied().collect();
        b.guarded(|b| {
            b.set_insertion_point_to_end(before_block);
            let (condition, forwarded) = before(b, &args);
            ScfConditionOp::build(b, condition, &forwarded);
        });
        let after_block = b.create_block(while_op.after(b), results);
        let args: ValueList = b.body().block_args(after_block).iter().copied().collect();
        fill(b, after_block, |b| after(b, &args));
        while_op
    }
}

impl ScfExecuteRegionOp {
    /// Creates `scf.execute_region -> results` at the builder's insertion
    /// point; `body` fills its block and returns the values for the
    /// `scf.yield` added after them.
    pub fn build(
        b: &mut Builder<'_>,
        results: &[Type],
        body: impl FnOnce(&mut Builder<'_>) -> ValueList,
    ) -> ScfExecuteRegionOp {
        let op = ScfExecuteRegionOp::build_empty(b, results);
        let block = b.create_block(op.region(b), &[]);
        fill(b, block, body);
        op
    }
}

impl ScfParallelOp {
    /// The induction variables.
    pub fn ivs<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        entry_args(ir, self.op(), 0)
    }

    /// Creates `scf.parallel (ivs) = (lbs) to (ubs) step (steps) init
    /// (inits)` at the builder's insertion point, with results of the
    /// inits' types. `body` fills the loop's block given the induction
    /// variables and returns the values to reduce, one per init; they end
    /// the block as the operands of an `scf.reduce` whose region `i`
    /// `combine(b, i, lhs, rhs)` fills (see [`ScfReduceOp::build_reductions`]).
    pub fn build(
        b: &mut Builder<'_>,
        lbs: &[Value],
        ubs: &[Value],
        steps: &[Value],
        inits: &[Value],
        body: impl FnOnce(&mut Builder<'_>, &[Value]) -> ValueList,
        combine: impl FnMut(&mut Builder<'_>, usize, Value, Value) -> Value,
    ) -> ScfParallelOp {
        let types: Vec<Type> = inits.iter().map(|v| b.body().value_type(*v)).collect();
        let op = ScfParallelOp::build_empty(b, lbs, ubs, steps, inits, &types);
        let index = b.ctx().common().index;
        let block = b.create_block(op.region(b), &vec![index; lbs.len()]);
        let ivs: ValueList = b.body().block_args(block).iter().copied().collect();
        b.guarded(|b| {
            b.set_insertion_point_to_end(block);
            let values = body(b, &ivs);
            ScfReduceOp::build_reductions(b, &values, combine);
        });
        op
    }
}

impl ScfReduceOp {
    /// Creates `scf.reduce(operands)` at the builder's insertion point with
    /// one reduction region per operand (the generated
    /// [`ScfReduceOp::build`] makes none: it suits only the operand-less
    /// form). Each region has a block taking two values of its operand's
    /// type; `combine(b, i, lhs, rhs)` fills the block of region `i` and
    /// returns the combined value for the `scf.reduce.return` added after it.
    pub fn build_reductions(
        b: &mut Builder<'_>,
        operands: &[Value],
        mut combine: impl FnMut(&mut Builder<'_>, usize, Value, Value) -> Value,
    ) -> ScfReduceOp {
        let mut st = b.op_state(ScfReduceOp::def());
        st.operands(operands).regions(operands.len());
        let op = st.create(b);
        for (i, &v) in operands.iter().enumerate() {
            let ty = b.body().value_type(v);
            let region = b.body().region(op, i);
            let block = b.create_block(region, &[ty, ty]);
            let (lhs, rhs) = (b.body().block_args(block)[0], b.body().block_args(block)[1]);
            b.guarded(|b| {
                b.set_insertion_point_to_end(block);
                let combined = combine(b, i, lhs, rhs);
                ScfReduceReturnOp::build(b, combined);
            });
        }
        ScfReduceOp::from_op_unchecked(op)
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
