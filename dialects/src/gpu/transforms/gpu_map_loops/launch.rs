//! Replaces a band of `affine.for` loops by a `gpu.launch` (DIGEST §003.3's
//! template): on the host, the grid from the largest trip counts and a
//! launch guard testing that every loop runs; in the kernel, counter
//! `γ(a) = blockIdx.a · blockDim.a + threadIdx.a`, the induction variables
//! from the counters, and the body under a guard that keeps each one
//! inside its bounds.

use super::band::BandBounds;
use super::band_loops::Band;
use super::counter_space::{compact_map, CounterSpace};
use super::search::Candidate;
use crate::affine::{AffineApplyOp, AffineIfOp, AffineMinOp};
use crate::arith::ArithConstantOp;
use crate::gpu::GpuLaunchOp;
use lf_ir::affine::{simplify_affine_expr, AffineExpr, AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{OpId, Value};

/// Maps `band` onto a launch with `choice`; returns the launch.
pub fn build_launch(b: &mut Builder<'_>, band: &Band, bounds: &BandBounds, choice: &Candidate) -> OpId {
    let outer = band.root;
    for &c in &band.hoist {
        b.move_op_before(c, outer);
    }
    b.set_insertion_point_before(outer);
    b.set_loc_of(outer);
    let guard: Vec<AffineExpr> = bounds
        .launch_guard()
        .into_iter()
        .filter(|e| e.as_constant().is_none_or(|c| c < 0))
        .collect();
    let mut launch = None;
    if guard.is_empty() {
        launch = Some(emit_launch(b, bounds, choice));
    } else {
        let (set, operands) = integer_set(&guard, &bounds.space, &[]);
        AffineIfOp::build(
            b,
            set,
            &operands,
            &[],
            |b| {
                launch = Some(emit_launch(b, bounds, choice));
                ValueList::new()
            },
            None,
        );
    }
    let (launch, ivs, body_anchor) = launch.expect("the launch was built");
    // Move the innermost loop's body into the kernel.
    let ops: Vec<OpId> = b.body().block_ops(band.body).collect();
    for &op in &ops[..ops.len().saturating_sub(1)] {
        b.move_op_before(op, body_anchor);
    }
    for (l, v) in band.loops.iter().zip(ivs) {
        b.replace_all_uses_with(l.iv, v);
    }
    b.erase_op(outer);
    launch
}

/// Emits the grid sizes, the launch and its kernel prologue at the
/// builder's insertion point; gives the launch, the induction variables'
/// values in the kernel, and the op before which the body goes.
fn emit_launch(b: &mut Builder<'_>, bounds: &BandBounds, choice: &Candidate) -> (OpId, Vec<Value>, OpId) {
    let depth = bounds.depth();
    let mut constants = Constants::default();
    let one = constants.get(b, 1);
    let mut grid = [one; 3];
    let mut block = [one; 3];
    for (a, &p) in choice.gamma.iter().enumerate() {
        let side = choice.block[a] as i64;
        block[a] = constants.get(b, side);
        let extents = bounds.grid(p, side);
        grid[a] = materialize_min(b, &mut constants, &extents, &bounds.space);
    }
    let mut out = None;
    let launch = GpuLaunchOp::build(b, grid, block, |b, launch| {
        let bids = launch.block_ids(b);
        let tids = launch.thread_ids(b);
        let mut counters = vec![bids[0]; depth];
        for (a, &p) in choice.gamma.iter().enumerate() {
            let side = choice.block[a] as i64;
            let map = AffineMap::new(2, 0, vec![AffineExpr::dim(0).mul_const(side).add(&AffineExpr::dim(1))]);
            counters[p] = AffineApplyOp::build(b, &[bids[a], tids[a]], map).result(b);
        }
        let ivs: Vec<Value> = bounds
            .ivs
            .iter()
            .enumerate()
            .map(|(p, e)| match e.as_dim() {
                Some(d) if d as usize == p => counters[p],
                _ => {
                    let (map, operands) = compact_map(std::slice::from_ref(e), &bounds.space, &counters);
                    AffineApplyOp::build(b, &operands, map.simplify()).result(b)
                }
            })
            .collect();
        let guard = body_guard(bounds, choice);
        let anchor = if guard.is_empty() {
            None
        } else {
            let (set, operands) = integer_set(&guard, &bounds.space, &counters);
            let if_op = AffineIfOp::build(b, set, &operands, &[], |_| ValueList::new(), None);
            let then = if_op.then_block(b);
            b.body().terminator(then)
        };
        out = Some((ivs, anchor));
    });
    let (ivs, anchor) = out.expect("the kernel was built");
    let anchor = anchor.unwrap_or_else(|| {
        let block = b.body().entry_block(launch.body(b)).expect("a launch has a body");
        b.body()
            .terminator(block)
            .expect("a launch body ends in gpu.terminator")
    });
    (launch.op(), ivs, anchor)
}

/// The body guard without the constraints that hold for every thread of
/// the grid: with constant bounds, a loop whose trip count is a multiple
/// of its block side needs none.
fn body_guard(bounds: &BandBounds, choice: &Candidate) -> Vec<AffineExpr> {
    let space = &bounds.space;
    bounds
        .body_guard
        .iter()
        .filter(|e| {
            let Some((coefs, rest)) = space.split_counters(e) else {
                return true;
            };
            let Some(rest) = rest.as_constant() else { return true };
            // rest + Σ c_p t_p >= 0 for every thread: only one counter, with
            // a negative coefficient, and its largest value keeps it true.
            let used: Vec<usize> = (0..coefs.len()).filter(|&p| coefs[p] != 0).collect();
            let [p] = used[..] else { return true };
            let Some(a) = choice.gamma.iter().position(|&g| g == p) else {
                return true;
            };
            let side = choice.block[a] as i64;
            let grid: Vec<Option<i64>> = bounds.grid(p, side).iter().map(|g| g.as_constant()).collect();
            let Some(blocks) = grid
                .into_iter()
                .collect::<Option<Vec<_>>>()
                .and_then(|g| g.into_iter().min())
            else {
                return true;
            };
            let largest = blocks * side - 1;
            coefs[p] >= 0 || rest + coefs[p] * largest < 0
        })
        .cloned()
        .collect()
}

/// `expressions >= 0` as an integer set over the values they use.
fn integer_set(exprs: &[AffineExpr], space: &CounterSpace, counters: &[Value]) -> (IntegerSet, Vec<Value>) {
    let (map, operands) = compact_map(exprs, space, counters);
    let nd = map.num_dims();
    let mut constraints: Vec<AffineExpr> = Vec::new();
    for e in map.into_results() {
        let e = simplify_affine_expr(&e, nd, 0);
        if !constraints.contains(&e) {
            constraints.push(e);
        }
    }
    let n = constraints.len();
    (IntegerSet::new(nd, 0, constraints, vec![false; n]), operands)
}

/// The minimum of `exprs` (over host values) as an index value: a
/// constant, an `affine.apply` or an `affine.min`.
fn materialize_min(
    b: &mut Builder<'_>,
    constants: &mut Constants,
    exprs: &[AffineExpr],
    space: &CounterSpace,
) -> Value {
    if let Some(c) = exprs.iter().map(|e| e.as_constant()).collect::<Option<Vec<_>>>() {
        return constants.get(b, c.into_iter().min().unwrap_or(1).max(1));
    }
    let (map, operands) = compact_map(exprs, space, &[]);
    let map = map.simplify();
    if map.num_results() == 1 {
        AffineApplyOp::build(b, &operands, map).result(b)
    } else {
        AffineMinOp::build(b, &operands, map).result(b)
    }
}

/// The `arith.constant` index values made for one launch, one per value.
#[derive(Default)]
struct Constants(Vec<(i64, Value)>);

impl Constants {
    /// The constant `n` (made at the insertion point on first use).
    fn get(&mut self, b: &mut Builder<'_>, n: i64) -> Value {
        if let Some(&(_, v)) = self.0.iter().find(|(k, _)| *k == n) {
            return v;
        }
        let v = ArithConstantOp::index(b, n);
        self.0.push((n, v));
        v
    }
}
