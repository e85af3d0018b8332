//! The loops a kernel is made of, whatever op they come from: a perfect
//! band of `affine.for` loops, the dimensions of an `affine.parallel`, or
//! those of an `scf.parallel` (both already parallel by their semantics).

use crate::affine::utils::trip_count_bound::constant_trip_count;
use crate::affine::{AffineBound, AffineForOp, AffineParallelOp};
use crate::scf::ScfParallelOp;
use lf_ir::affine::AffineMap;
use lf_ir::attrs::AttrData;
use lf_ir::constants::constant_value;
use lf_ir::registry::Traits;
use lf_ir::view::{Ir, OpView};
use lf_ir::{BlockId, OpId, Value};

/// One loop of a band.
#[derive(Clone, Debug)]
pub struct BandLoop {
    /// Its induction variable.
    pub iv: Value,
    /// The lower bound (a map with several results is a `max`).
    pub lb: AffineBound,
    /// The upper bound (a map with several results is a `min`).
    pub ub: AffineBound,
    /// The step.
    pub step: i64,
    /// The trip count when it is a known constant.
    pub trip_count: Option<u64>,
}

impl BandLoop {
    /// A loop from `lb` to `ub` by `step` (its constant trip count when
    /// both bounds are single constants).
    fn new(iv: Value, lb: AffineBound, ub: AffineBound, step: i64) -> BandLoop {
        let trip_count = constant_count(&lb, &ub, step);
        BandLoop {
            iv,
            lb,
            ub,
            step,
            trip_count,
        }
    }
}

/// A band to map: its loops, outermost first, the op that holds them all
/// (replaced by the launch) and the block whose ops are the body.
#[derive(Clone, Debug)]
pub struct Band {
    /// The loops.
    pub loops: Vec<BandLoop>,
    /// The outermost op of the band.
    pub root: OpId,
    /// The op whose block is the body (the innermost loop).
    pub inner: OpId,
    /// The body's block.
    pub body: BlockId,
    /// Constants between nested parallel ops, to move before `root` (the
    /// inner ops' bounds may use them).
    pub hoist: Vec<OpId>,
}

impl Band {
    /// A band of `affine.for` loops, each nested in the one before.
    pub fn of_for_ops<'c>(ir: &impl Ir<'c>, fors: &[AffineForOp]) -> Band {
        let loops = fors
            .iter()
            .map(|&f| BandLoop {
                iv: f.iv(ir),
                lb: f.lower_bound(ir),
                ub: f.upper_bound(ir),
                step: f.step(ir),
                trip_count: constant_trip_count(ir, f),
            })
            .collect();
        let inner = *fors.last().expect("a band has a loop");
        Band {
            loops,
            root: fors[0].op(),
            inner: inner.op(),
            body: inner.region_block(ir),
            hoist: Vec::new(),
        }
    }

    /// The dimensions of an `affine.parallel` without reductions, and of
    /// the ones perfectly nested in it (each the only op of the one
    /// before's body, as `affine-parallelize` makes them) while the band
    /// has at most `limit` loops.
    pub fn of_affine_parallel<'c>(ir: &impl Ir<'c>, p: AffineParallelOp, limit: usize) -> Result<Band, String> {
        let first = Band::of_one_affine_parallel(ir, p)?;
        Ok(first.with_nested(ir, limit, &|op| {
            AffineParallelOp::cast(ir, op).and_then(|p| Band::of_one_affine_parallel(ir, p).ok())
        }))
    }

    /// The dimensions of one `affine.parallel` without reductions.
    fn of_one_affine_parallel<'c>(ir: &impl Ir<'c>, p: AffineParallelOp) -> Result<Band, String> {
        if !p.results(ir).is_empty() {
            return Err("the affine.parallel reduces values".into());
        }
        let (lb_ops, ub_ops) = p.bound_operands(ir);
        let steps = p.step_values(ir);
        let groups = |m: &AffineMap, sizes: Vec<i64>| -> Vec<AffineMap> {
            let mut at = 0usize;
            sizes
                .into_iter()
                .map(|n| {
                    let results = m.results()[at..at + n as usize].to_vec();
                    at += n as usize;
                    AffineMap::new(m.num_dims(), m.num_symbols(), results)
                })
                .collect()
        };
        let lbs = groups(&p.lower_bounds_map(ir).clone(), p.lower_bound_groups(ir));
        let ubs = groups(&p.upper_bounds_map(ir).clone(), p.upper_bound_groups(ir));
        let loops = p
            .ivs(ir)
            .iter()
            .enumerate()
            .map(|(k, &iv)| {
                let lb = AffineBound::map(lbs[k].clone(), &lb_ops);
                let ub = AffineBound::map(ubs[k].clone(), &ub_ops);
                BandLoop::new(iv, lb, ub, steps[k])
            })
            .collect();
        Ok(Band::of_one_op(p.op(), p.region_block(ir), loops))
    }

    /// The band of one op holding all `loops` with body `block`.
    fn of_one_op(op: OpId, block: BlockId, loops: Vec<BandLoop>) -> Band {
        Band {
            loops,
            root: op,
            inner: op,
            body: block,
            hoist: Vec::new(),
        }
    }

    /// The dimensions of an `scf.parallel` without reductions and with
    /// constant steps, and of the ones perfectly nested in it while the
    /// band has at most `limit` loops.
    pub fn of_scf_parallel<'c>(ir: &impl Ir<'c>, p: ScfParallelOp, limit: usize) -> Result<Band, String> {
        let first = Band::of_one_scf_parallel(ir, p)?;
        Ok(first.with_nested(ir, limit, &|op| {
            ScfParallelOp::cast(ir, op).and_then(|p| Band::of_one_scf_parallel(ir, p).ok())
        }))
    }

    /// The dimensions of one `scf.parallel`.
    fn of_one_scf_parallel<'c>(ir: &impl Ir<'c>, p: ScfParallelOp) -> Result<Band, String> {
        if !p.init_vals(ir).is_empty() {
            return Err("the scf.parallel reduces values".into());
        }
        let (ctx, body) = (ir.ctx(), ir.body());
        let constant = |v: Value| match constant_value(ctx, body, v).map(|a| ctx.attr_data(a)) {
            Some(AttrData::Integer { value, .. }) => i64::try_from(*value).ok(),
            _ => None,
        };
        let (lbs, ubs, steps) = (p.lower_bound(ir), p.upper_bound(ir), p.step(ir));
        let mut loops = Vec::new();
        for (k, &iv) in p.ivs(ir).iter().enumerate() {
            let step = constant(steps[k])
                .filter(|&s| s > 0)
                .ok_or_else(|| format!("the step of dimension {k} is not a positive constant"))?;
            let bound = |v: Value| match constant(v) {
                Some(c) => AffineBound::constant(c),
                None => AffineBound::value(v),
            };
            loops.push(BandLoop::new(iv, bound(lbs[k]), bound(ubs[k]), step));
        }
        Ok(Band::of_one_op(p.op(), p.region_block(ir), loops))
    }

    /// This band with the bands `one` makes of the ops perfectly nested in
    /// it appended, while it has at most `limit` loops.
    fn with_nested<'c>(mut self, ir: &impl Ir<'c>, limit: usize, one: &dyn Fn(OpId) -> Option<Band>) -> Band {
        while let Some((op, consts)) = only_op(ir, self.body) {
            match one(op) {
                Some(b) if self.loops.len() + b.loops.len() <= limit => self.nest(b, consts),
                _ => break,
            }
        }
        self
    }

    /// Appends `inner` (nested as the only op of this band's body besides
    /// the constants `consts`).
    fn nest(&mut self, inner: Band, consts: Vec<OpId>) {
        self.hoist.extend(consts);
        self.loops.extend(inner.loops);
        self.inner = inner.inner;
        self.body = inner.body;
    }

    /// The induction variables.
    pub fn ivs(&self) -> Vec<Value> {
        self.loops.iter().map(|l| l.iv).collect()
    }
}

/// The only op of `block` besides its terminator and constants (which
/// `lower-affine` puts there), with those constants.
fn only_op<'c>(ir: &impl Ir<'c>, block: BlockId) -> Option<(OpId, Vec<OpId>)> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let ops: Vec<OpId> = body.block_ops(block).collect();
    let (_, rest) = ops.split_last()?;
    let is_constant = |o: OpId| {
        body.regions(o).is_empty()
            && body.num_operands(o) == 0
            && ctx
                .op_def(body.op_name(o))
                .is_some_and(|d| d.has(Traits::CONSTANT_LIKE))
    };
    let mut others = rest.iter().copied().filter(|&o| !is_constant(o));
    let op = others.next()?;
    if others.next().is_some() {
        return None;
    }
    Some((op, rest.iter().copied().filter(|&o| o != op).collect()))
}

/// `ceildiv(ub - lb, step)` (at least 0) when both bounds are single
/// constants.
fn constant_count(lb: &AffineBound, ub: &AffineBound, step: i64) -> Option<u64> {
    let (l, u) = (lb.map.single_constant_result()?, ub.map.single_constant_result()?);
    let n = u.saturating_sub(l).max(0);
    Some((n as u64).div_ceil(step.max(1) as u64))
}
