//! The prefetching rewrite of one kernel loop (seed Fig. 8): the first
//! iteration's loads before the loop, carried as `iter_args`; in each
//! iteration the G2S stores store the carried values and the next
//! iteration's loads are issued under `affine.if (i + step < ub)` before
//! the computation.

use super::segment::Segment;
use crate::affine::utils::loop_unroll_jam::with_additional_yields;
use crate::affine::{AffineApplyOp, AffineBound, AffineForOp, AffineIfOp};
use crate::arith::ArithConstantOp;
use lf_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::view::OpView;
use lf_ir::{OpId, Type, Value};

/// A zero constant of `ty` (the pass checks [`ArithConstantOp::has_zero`]
/// first: the else branch of the guard before a loop that may run zero
/// times yields it).
fn zero(b: &mut Builder<'_>, ty: Type) -> Value {
    ArithConstantOp::zero(b, ty).expect("checked: the type has a zero constant")
}

/// Clones the address chains and the loads of `seg` at the insertion
/// point with the induction variable `iv` replaced by `at`; the loaded
/// values. A load under a block-merge guard is cloned under a copy of the
/// guard, which yields `fallback(k)` for the threads it excludes.
fn clone_loads(
    b: &mut Builder<'_>,
    seg: &Segment,
    iv: Value,
    at: Value,
    fallback: &mut dyn FnMut(&mut Builder<'_>, usize) -> Value,
) -> Vec<Value> {
    let mut out = Vec::new();
    for (k, l) in seg.loads.iter().enumerate() {
        let mut map = ValueMap::default();
        map.map(iv, at);
        let load = |b: &mut Builder<'_>, map: &mut ValueMap| {
            for &op in &l.chain {
                b.clone_op(op, map);
            }
            let load = b.clone_op(l.load, map);
            b.body().result(load, 0)
        };
        let Some(guard) = l.guard.and_then(|g| AffineIfOp::cast(b, g)) else {
            out.push(load(b, &mut map));
            continue;
        };
        let set = guard.condition(b).clone();
        let operands: Vec<Value> = b.body().operands(guard.op()).map(|v| map.lookup(v)).collect();
        let ty = b.body().value_type(b.body().result(l.load, 0));
        let mut otherwise = |b: &mut Builder<'_>| std::iter::once(fallback(b, k)).collect();
        let inner = AffineIfOp::build(
            b,
            set,
            &operands,
            &[ty],
            |b| std::iter::once(load(b, &mut map)).collect(),
            Some(&mut otherwise),
        );
        out.push(b.body().result(inner.op(), 0));
    }
    out
}

/// `bound`'s single result as an expression over `dims ++ syms` positions
/// shifted by `(dim_shift, sym_shift)` in a space of `nd` dims.
fn shifted(bound: &AffineBound, dim_shift: u32, sym_shift: u32, nd: u32) -> AffineExpr {
    let map = &bound.map;
    let dims: Vec<AffineExpr> = (0..map.num_dims()).map(|d| AffineExpr::dim(d + dim_shift)).collect();
    let syms: Vec<AffineExpr> = (0..map.num_symbols())
        .map(|s| AffineExpr::symbol(s + sym_shift))
        .collect();
    map.replace_dims_and_symbols(&dims, &syms, nd, sym_shift + map.num_symbols())
        .result(0)
        .clone()
}

/// The operands of `bound` split into dims and symbols.
fn split(bound: &AffineBound) -> (Vec<Value>, Vec<Value>) {
    let nd = bound.map.num_dims() as usize;
    (bound.operands[..nd].to_vec(), bound.operands[nd..].to_vec())
}

/// Rewrites `for_op` (whose body starts with `seg`); the new loop.
pub fn prefetch(b: &mut Builder<'_>, for_op: AffineForOp, seg: &Segment) -> AffineForOp {
    let op = for_op.op();
    let (lb, ub, step) = (for_op.lower_bound(b), for_op.upper_bound(b), for_op.step(b));
    let iv = for_op.iv(b);
    let types: Vec<Type> = seg
        .loads
        .iter()
        .map(|l| b.body().value_type(b.body().result(l.load, 0)))
        .collect();
    let runs = for_op.constant_trip_count(b).is_some_and(|t| t >= 1);
    let loc = b.body().op_loc(op);
    // The first iteration's loads, before the loop.
    let first = b.guarded(|b| {
        b.set_insertion_point_before(op);
        b.set_loc(loc);
        let at = match lb.map.single_constant_result() {
            Some(c) => ArithConstantOp::index(b, c),
            None => AffineApplyOp::build(b, &lb.operands, lb.map.clone()).result(b),
        };
        let tys = types.clone();
        let mut zeros = |b: &mut Builder<'_>, k: usize| zero(b, tys[k]);
        if runs {
            return clone_loads(b, seg, iv, at, &mut zeros);
        }
        // ub - lb - 1 >= 0 over (lb dims, ub dims)[lb syms, ub syms].
        let (ld, ls) = split(&lb);
        let (ud, us) = split(&ub);
        let nd = (ld.len() + ud.len()) as u32;
        let lo = shifted(&lb, 0, 0, nd);
        let hi = shifted(&ub, ld.len() as u32, ls.len() as u32, nd);
        let cond = hi.sub(&lo).add_const(-1);
        let set = IntegerSet::new(nd, (ls.len() + us.len()) as u32, vec![cond], vec![false]);
        let operands: Vec<Value> = [ld, ud, ls, us].concat();
        let mut otherwise = |b: &mut Builder<'_>| types.iter().map(|&t| zero(b, t)).collect();
        let guard = AffineIfOp::build(
            b,
            set,
            &operands,
            &types,
            |b| clone_loads(b, seg, iv, at, &mut zeros).into_iter().collect(),
            Some(&mut otherwise),
        );
        b.body().results(guard.op()).collect()
    });
    let new = with_additional_yields(b, for_op, &first, &first);
    let carried: Vec<Value> = new
        .region_iter_args(b)
        .iter()
        .rev()
        .take(first.len())
        .rev()
        .copied()
        .collect();
    // The next iteration's loads, guarded by i + step < ub.
    let next: Vec<Value> = b.guarded(|b| {
        b.set_insertion_point_before(seg.compute);
        b.set_loc(loc);
        let at = AffineApplyOp::build(b, &[iv], AffineMap::new(1, 0, vec![AffineExpr::dim(0).add_const(step)]));
        let at = at.result(b);
        let (ud, us) = split(&ub);
        let nd = 1 + ud.len() as u32;
        let hi = shifted(&ub, 1, 0, nd);
        let cond = hi.sub(&AffineExpr::dim(0)).add_const(-step - 1);
        let set = IntegerSet::new(nd, us.len() as u32, vec![cond], vec![false]);
        let operands: Vec<Value> = [vec![iv], ud, us].concat();
        let old = carried.clone();
        let mut otherwise = |_: &mut Builder<'_>| old.iter().copied().collect();
        let mut keep = |_: &mut Builder<'_>, k: usize| carried[k];
        let guard = AffineIfOp::build(
            b,
            set,
            &operands,
            &types,
            |b| clone_loads(b, seg, iv, at, &mut keep).into_iter().collect(),
            Some(&mut otherwise),
        );
        b.body().results(guard.op()).collect()
    });
    // The loads of this iteration become the carried values.
    for (l, &c) in seg.loads.iter().zip(&carried) {
        let v = b.body().result(l.load, 0);
        b.replace_all_uses_with(v, c);
        b.erase_op(l.load);
    }
    for l in &seg.loads {
        erase_dead_chain(b, &l.chain);
    }
    let yield_op = new.yield_op(b).op();
    let n = b.body().num_operands(yield_op);
    b.modify_in_place(yield_op, |_, body| {
        let mut ops: Vec<Value> = body.operands(yield_op).collect();
        ops.truncate(n - next.len());
        ops.extend_from_slice(&next);
        body.set_operands(yield_op, &ops);
    });
    new
}

/// Erases the ops of `chain` left without uses (last first).
fn erase_dead_chain(b: &mut Builder<'_>, chain: &[OpId]) {
    for &op in chain.iter().rev() {
        if !b.body().is_erased(op) && b.body().results(op).all(|r| !b.body().has_uses(r)) {
            b.erase_op(op);
        }
    }
}
