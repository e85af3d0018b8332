//! What the generated `affine` views lack: the meaning of the loops'
//! blocks and bounds (induction variables, bounds as map and operands,
//! constant bounds and trip counts), builders that fill the regions of
//! `affine.for`, `affine.if` and `affine.parallel`, and their loop-like
//! interfaces.

use super::views::{AffineForOp, AffineIfOp, AffineParallelOp, AffineYieldOp};
use lf_ir::affine::{AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::interfaces::{Bound, LoopLike};
use lf_ir::view::{entry_args, Ir, OpView, ValueList};
use lf_ir::{BlockId, Context, Type, Value};
use smallvec::SmallVec;

/// A loop bound of `affine.for`: a map and its dimension and symbol
/// operands (the lower bound is the maximum of the map's results, the upper
/// bound the minimum).
#[derive(Clone, Debug, PartialEq)]
pub struct AffineBound {
    /// The map.
    pub map: AffineMap,
    /// Its operands: dimensions, then symbols.
    pub operands: ValueList,
}

impl AffineBound {
    /// The constant bound `c`.
    pub fn constant(c: i64) -> AffineBound {
        AffineBound {
            map: AffineMap::get_constant_map(c),
            operands: ValueList::new(),
        }
    }

    /// The bound `v` (an index value that is a valid dimension or symbol
    /// where the loop goes): the map `(d0) -> (d0)`.
    pub fn value(v: Value) -> AffineBound {
        AffineBound {
            map: AffineMap::get_multi_dim_identity(1),
            operands: std::iter::once(v).collect(),
        }
    }

    /// The bound `map(operands)`.
    pub fn map(map: AffineMap, operands: &[Value]) -> AffineBound {
        AffineBound {
            map,
            operands: operands.iter().copied().collect(),
        }
    }

    /// The constant value, when the map is one constant.
    pub fn as_constant(&self) -> Option<i64> {
        self.map.single_constant_result()
    }

    /// As a single value or constant, when the map has one result that is a
    /// constant or one of its inputs.
    pub fn as_single(&self) -> Option<Bound> {
        if self.map.num_results() != 1 {
            return None;
        }
        let r = self.map.result(0);
        if let Some(c) = r.as_constant() {
            return Some(Bound::Const(c));
        }
        let pos = match (r.as_dim(), r.as_symbol()) {
            (Some(d), _) => d as usize,
            (None, Some(s)) => self.map.num_dims() as usize + s as usize,
            _ => return None,
        };
        self.operands.get(pos).map(|v| Bound::Value(*v))
    }
}

impl AffineForOp {
    /// The induction variable.
    pub fn iv<'c>(self, ir: &impl Ir<'c>) -> Value {
        let b = self.region_block(ir);
        ir.body().block_args(b)[0]
    }

    /// The block arguments carrying the loop-carried values (after the
    /// induction variable).
    pub fn region_iter_args<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        entry_args(ir, self.op(), 0).into_iter().skip(1).collect()
    }

    /// The body's terminator.
    pub fn yield_op<'c>(self, ir: &impl Ir<'c>) -> AffineYieldOp {
        let b = self.region_block(ir);
        let t = ir.body().terminator(b).expect("affine.for body ends with affine.yield");
        AffineYieldOp::from_op_unchecked(t)
    }

    /// The lower bound.
    pub fn lower_bound<'c>(self, ir: &impl Ir<'c>) -> AffineBound {
        AffineBound {
            map: self.lower_bound_map(ir).clone(),
            operands: self.lower_bound_operands(ir),
        }
    }

    /// The upper bound.
    pub fn upper_bound<'c>(self, ir: &impl Ir<'c>) -> AffineBound {
        AffineBound {
            map: self.upper_bound_map(ir).clone(),
            operands: self.upper_bound_operands(ir),
        }
    }

    /// The lower bound, when it is a constant.
    pub fn constant_lower_bound<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        self.lower_bound_map(ir).single_constant_result()
    }

    /// The upper bound, when it is a constant.
    pub fn constant_upper_bound<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        self.upper_bound_map(ir).single_constant_result()
    }

    /// The number of iterations, when both bounds are constants.
    pub fn constant_trip_count<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        let (lb, ub) = (self.constant_lower_bound(ir)?, self.constant_upper_bound(ir)?);
        let step = self.step(ir);
        Some(if ub <= lb { 0 } else { (ub - lb + step - 1) / step })
    }

    /// Replaces the lower bound.
    pub fn set_lower_bound(self, b: &mut Builder<'_>, bound: AffineBound) {
        self.set_lower_bound_operands(b, &bound.operands);
        self.set_lower_bound_map(b, bound.map);
    }

    /// Replaces the upper bound.
    pub fn set_upper_bound(self, b: &mut Builder<'_>, bound: AffineBound) {
        self.set_upper_bound_operands(b, &bound.operands);
        self.set_upper_bound_map(b, bound.map);
    }

    /// Creates `affine.for %iv = lb to ub step step iter_args(inits)` at the
    /// builder's insertion point. `body` fills the loop's block (the
    /// builder's insertion point is at its end) given the induction
    /// variable and the loop-carried block arguments, and returns the values
    /// to yield (one per init); the `affine.yield` is added after them.
    pub fn build(
        b: &mut Builder<'_>,
        lb: AffineBound,
        ub: AffineBound,
        step: i64,
        inits: &[Value],
        body: impl FnOnce(&mut Builder<'_>, Value, &[Value]) -> ValueList,
    ) -> AffineForOp {
        let types: Vec<Type> = inits.iter().map(|v| b.body().value_type(*v)).collect();
        let ctx = b.ctx();
        let for_op = AffineForOp::build_empty(b, &lb.operands, &ub.operands, inits, &types, lb.map, ub.map, step);
        let region = for_op.region(b);
        let mut arg_types = vec![ctx.common().index];
        arg_types.extend_from_slice(&types);
        let block = b.create_block(region, &arg_types);
        let args: ValueList = b.body().block_args(block).iter().copied().collect();
        let yielded = b.guarded(|b| {
            b.set_insertion_point_to_end(block);
            body(b, args[0], &args[1..])
        });
        b.guarded(|b| {
            b.set_insertion_point_to_end(block);
            AffineYieldOp::build(b, &yielded);
        });
        for_op
    }
}

impl AffineIfOp {
    /// The block of the `then` region.
    pub fn then_block<'c>(self, ir: &impl Ir<'c>) -> BlockId {
        let body = ir.body();
        body.regions_body(self.op())
            .entry_block(self.then_region(ir))
            .expect("affine.if has a then block")
    }

    /// The block of the `else` region, if it has one.
    pub fn else_block<'c>(self, ir: &impl Ir<'c>) -> Option<BlockId> {
        ir.body().regions_body(self.op()).entry_block(self.else_region(ir))
    }

    /// Creates `affine.if condition(operands)` at the builder's insertion
    /// point, with result types `results`. `then` fills the then block and
    /// returns the values to yield; `otherwise`, when given, makes and fills
    /// the else block.
    pub fn build(
        b: &mut Builder<'_>,
        condition: IntegerSet,
        operands: &[Value],
        results: &[Type],
        then: impl FnOnce(&mut Builder<'_>) -> ValueList,
        otherwise: Option<&mut dyn FnMut(&mut Builder<'_>) -> ValueList>,
    ) -> AffineIfOp {
        let if_op = AffineIfOp::build_empty(b, operands, results, condition);
        let then_block = b.create_block(if_op.then_region(b), &[]);
        fill(b, then_block, then);
        if let Some(f) = otherwise {
            let else_block = b.create_block(if_op.else_region(b), &[]);
            fill(b, else_block, f);
        }
        if_op
    }
}

/// Fills `block` with `f` and ends it with `affine.yield` of what `f` returns.
fn fill(b: &mut Builder<'_>, block: BlockId, f: impl FnOnce(&mut Builder<'_>) -> ValueList) {
    b.fill_block(block, f, |b, values| {
        AffineYieldOp::build(b, values);
    });
}

/// The values of an `array<i32/i64>`, `[1, 2]` or `dense<...> : tensor<Nxi32>` attribute.
fn int_list(ctx: &Context, a: lf_ir::Attribute) -> Vec<i64> {
    use lf_ir::attrs::{AttrData, DenseValues};
    match ctx.attr_data(a) {
        AttrData::Array(items) => items
            .iter()
            .filter_map(|x| lf_ir::ods::constraints::int_value(ctx, *x))
            .map(|v| v as i64)
            .collect(),
        AttrData::DenseElements { ty, values } => {
            let n = ctx.type_data(*ty).shape().and_then(|s| s.first().copied()).unwrap_or(0) as usize;
            match values {
                DenseValues::Int(v) if v.len() == n => v.iter().map(|x| *x as i64).collect(),
                DenseValues::Int(v) => vec![v.first().copied().unwrap_or(0) as i64; n],
                DenseValues::Float(_) => Vec::new(),
            }
        }
        AttrData::DenseArray {
            values: DenseValues::Int(v),
            ..
        } => v.iter().map(|x| *x as i64).collect(),
        _ => Vec::new(),
    }
}

impl AffineParallelOp {
    /// The induction variables.
    pub fn ivs<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        entry_args(ir, self.op(), 0)
    }

    /// Replaces the steps (one per induction variable).
    pub fn set_step_values(self, b: &mut Builder<'_>, steps: &[i64]) {
        let attr = super::i64_array_attr(b.ctx(), steps);
        self.set_steps(b, attr);
    }

    /// The steps, one per induction variable.
    pub fn step_values<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        int_list(ir.ctx(), self.steps(ir))
    }

    /// How many results of `lowerBoundsMap` each induction variable's lower
    /// bound takes the maximum of.
    pub fn lower_bound_groups<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        int_list(ir.ctx(), self.lower_bounds_groups(ir))
    }

    /// How many results of `upperBoundsMap` each upper bound takes the minimum of.
    pub fn upper_bound_groups<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        int_list(ir.ctx(), self.upper_bounds_groups(ir))
    }

    /// The reduction kinds of the results (values of [`super::REDUCTION_KINDS`]).
    pub fn reduction_kinds<'c>(self, ir: &impl Ir<'c>) -> Vec<i64> {
        int_list(ir.ctx(), self.reductions(ir))
    }

    /// The operands of `lowerBoundsMap` and of `upperBoundsMap`.
    pub fn bound_operands<'c>(self, ir: &impl Ir<'c>) -> (ValueList, ValueList) {
        let all = self.map_operands(ir);
        let n = (self.lower_bounds_map(ir).num_inputs() as usize).min(all.len());
        (all[..n].iter().copied().collect(), all[n..].iter().copied().collect())
    }

    /// Creates `affine.parallel (ivs) = (lbs) to (ubs) step (steps) reduce
    /// (reductions) -> results` at the builder's insertion point, as MLIR's
    /// builder: one lower and one upper bound map per induction variable
    /// (a map with several results is a `max`/`min` of them), the lower
    /// ones all taking `lb_operands` (dimensions, then symbols) and the
    /// upper ones `ub_operands`; `reductions` are values of
    /// [`super::REDUCTION_KINDS`], one per result. `body` fills the loop's
    /// block given the induction variables and returns the values for the
    /// `affine.yield` added after them (one per result).
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        b: &mut Builder<'_>,
        results: &[Type],
        reductions: &[i64],
        lbs: &[AffineMap],
        lb_operands: &[Value],
        ubs: &[AffineMap],
        ub_operands: &[Value],
        steps: &[i64],
        body: impl FnOnce(&mut Builder<'_>, &[Value]) -> ValueList,
    ) -> AffineParallelOp {
        let op = Self::build_without_block(b, results, reductions, lbs, lb_operands, ubs, ub_operands, steps);
        let ctx = b.ctx();
        let block = b.create_block(op.region(b), &vec![ctx.common().index; steps.len()]);
        let ivs: ValueList = b.body().block_args(block).iter().copied().collect();
        fill(b, block, |b| body(b, &ivs));
        op
    }

    /// Creates the op as [`AffineParallelOp::build`] does, but with `block`
    /// as its body: the block is unlinked from the region holding it (MLIR's
    /// `Region::takeBody`) and keeps its ops and arguments, which the
    /// caller makes the induction variables (one `index` argument per
    /// step) and ends with `affine.yield` of one value per result.
    #[allow(clippy::too_many_arguments)]
    pub fn build_with_block(
        b: &mut Builder<'_>,
        results: &[Type],
        reductions: &[i64],
        lbs: &[AffineMap],
        lb_operands: &[Value],
        ubs: &[AffineMap],
        ub_operands: &[Value],
        steps: &[i64],
        block: BlockId,
    ) -> AffineParallelOp {
        let op = Self::build_without_block(b, results, reductions, lbs, lb_operands, ubs, ub_operands, steps);
        let region = op.region(b);
        b.modify_in_place(op.op(), |_, body| {
            body.detach_block(block);
            body.append_block(region, block);
        });
        op
    }

    /// The op with its bounds, steps and reductions and an empty region.
    #[allow(clippy::too_many_arguments)]
    fn build_without_block(
        b: &mut Builder<'_>,
        results: &[Type],
        reductions: &[i64],
        lbs: &[AffineMap],
        lb_operands: &[Value],
        ubs: &[AffineMap],
        ub_operands: &[Value],
        steps: &[i64],
    ) -> AffineParallelOp {
        assert!(
            lbs.len() == steps.len() && ubs.len() == steps.len(),
            "affine.parallel: one lower bound, upper bound and step per induction variable"
        );
        let ctx = b.ctx();
        let (lb_map, lb_groups) = concat_maps(lbs);
        let (ub_map, ub_groups) = concat_maps(ubs);
        let operands: Vec<Value> = lb_operands.iter().chain(ub_operands).copied().collect();
        AffineParallelOp::build_empty(
            b,
            &operands,
            results,
            super::i64_array_attr(ctx, reductions),
            lb_map,
            super::i32_tensor_attr(ctx, &lb_groups),
            ub_map,
            super::i32_tensor_attr(ctx, &ub_groups),
            super::i64_array_attr(ctx, steps),
        )
    }
}

// ------------------------------------------------------------ loop-like

/// The loop-like interface of `affine.for`.
pub static FOR_LOOP_LIKE: LoopLike = LoopLike {
    regions: |_, body, op| SmallVec::from_slice(&[body.region(op, 0)]),
    induction_vars: |ctx, body, op| std::iter::once(AffineForOp::from_op_unchecked(op).iv(&(ctx, body))).collect(),
    lower_bounds: |ctx, body, op| {
        let b = AffineForOp::from_op_unchecked(op)
            .lower_bound(&(ctx, body))
            .as_single()?;
        Some(SmallVec::from_slice(&[b]))
    },
    upper_bounds: |ctx, body, op| {
        let b = AffineForOp::from_op_unchecked(op)
            .upper_bound(&(ctx, body))
            .as_single()?;
        Some(SmallVec::from_slice(&[b]))
    },
    steps: |ctx, body, op| {
        let s = AffineForOp::from_op_unchecked(op).step(&(ctx, body));
        Some(SmallVec::from_slice(&[Bound::Const(s)]))
    },
    inits: |ctx, body, op| AffineForOp::from_op_unchecked(op).inits(&(ctx, body)),
    region_iter_args: |ctx, body, op| AffineForOp::from_op_unchecked(op).region_iter_args(&(ctx, body)),
    yielded_values: |ctx, body, op| {
        let ir = (ctx, body);
        AffineForOp::from_op_unchecked(op).yield_op(&ir).operands(&ir)
    },
    results: |ctx, body, op| AffineForOp::from_op_unchecked(op).results(&(ctx, body)),
};

/// The loop-like interface of `affine.parallel` (bounds as single values
/// only when each group has one result).
pub static PARALLEL_LOOP_LIKE: LoopLike = LoopLike {
    regions: |_, body, op| SmallVec::from_slice(&[body.region(op, 0)]),
    induction_vars: |ctx, body, op| AffineParallelOp::from_op_unchecked(op).ivs(&(ctx, body)),
    lower_bounds: |ctx, body, op| {
        let ir = (ctx, body);
        let p = AffineParallelOp::from_op_unchecked(op);
        single_bounds(
            p.lower_bounds_map(&ir),
            &p.lower_bound_groups(&ir),
            &p.bound_operands(&ir).0,
        )
    },
    upper_bounds: |ctx, body, op| {
        let ir = (ctx, body);
        let p = AffineParallelOp::from_op_unchecked(op);
        single_bounds(
            p.upper_bounds_map(&ir),
            &p.upper_bound_groups(&ir),
            &p.bound_operands(&ir).1,
        )
    },
    steps: |ctx, body, op| {
        let s = AffineParallelOp::from_op_unchecked(op).step_values(&(ctx, body));
        Some(s.into_iter().map(Bound::Const).collect())
    },
    inits: |_, _, _| ValueList::new(),
    region_iter_args: |_, _, _| ValueList::new(),
    yielded_values: |_, _, _| ValueList::new(),
    results: |ctx, body, op| AffineParallelOp::from_op_unchecked(op).results(&(ctx, body)),
};

/// The results of `maps` (all of one input space) as one map, and how many
/// results each map gives (MLIR's `concatMapsSameInput`).
fn concat_maps(maps: &[AffineMap]) -> (AffineMap, Vec<i64>) {
    let Some(first) = maps.first() else {
        return (AffineMap::empty(), Vec::new());
    };
    let (dims, symbols) = (first.num_dims(), first.num_symbols());
    assert!(
        maps.iter().all(|m| m.num_dims() == dims && m.num_symbols() == symbols),
        "affine.parallel: bound maps of one kind take the same dimensions and symbols"
    );
    let groups = maps.iter().map(|m| m.num_results() as i64).collect();
    let results = maps.iter().flat_map(|m| m.results().iter().cloned()).collect();
    (AffineMap::new(dims, symbols, results), groups)
}

/// The bound of each group of `map`'s results, when every group has one
/// result that is a constant or an operand.
fn single_bounds(map: &AffineMap, groups: &[i64], operands: &[Value]) -> Option<SmallVec<[Bound; 3]>> {
    if groups.iter().any(|g| *g != 1) || groups.len() != map.num_results() {
        return None;
    }
    (0..map.num_results())
        .map(|i| {
            AffineBound {
                map: map.get_sub_map(&[i]),
                operands: operands.iter().copied().collect(),
            }
            .as_single()
        })
        .collect()
}
