//! Unroll-and-jam of `affine.for` loops (MLIR's `loopUnrollJamByFactor`),
//! with the dependence check MLIR does not make.
//!
//! Unrolling a loop by `F` and jamming the copies makes each run of ops
//! without an `affine.for` (a *sub-block*, in the loop's body or in the
//! bodies of the `affine.for` ops nested in it, loop in loop) hold `F`
//! copies, copy `i` for iteration `iv + i * step`; the nested loops stay
//! single loops (their bounds must not depend on the unrolled loop), each
//! carrying `F` times its `iter_args`. The iterations of the unrolled loop
//! are no longer run one after the other: iteration `iv + step` of a nested
//! loop's body runs before iteration `iv` of what follows that loop. This
//! is legal only when no dependence between two iterations less than
//! `F * step` apart is reversed: see [`unroll_jam_legality`].

use super::loop_unroll::{bump_iv, generate_cleanup_loop, Declined};
use super::promote_single_iteration::promote_if_single_iteration;
use super::reduction_ops::combine;
use super::trip_count_bound::{constant_trip_count, largest_divisor_of_trip_count};
use crate::affine::analysis::reductions::{supported_reductions, AtomicRmwKind, LoopReduction};
use crate::affine::analysis::{enclosing_affine_ops, DependenceResult, MemRefAccesses, Precision};
use crate::affine::{AffineForOp, AffineIfOp, AffineLoadOp, AffineParallelOp, AffineStoreOp, AffineYieldOp};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::interfaces::Effect;
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, Type, Value};

/// A run of ops (first, last) of one block, with no `affine.for` among them.
type SubBlock = (OpId, OpId);

/// The sub-blocks to jam, in program order (MLIR's `JamBlockGatherer`):
/// the runs of ops other than `affine.for` in the body of `for_op` and,
/// recursively, in the bodies of the `affine.for` ops among them.
pub fn jam_sub_blocks(ctx: &Context, body: &Body, for_op: OpId) -> Vec<SubBlock> {
    let mut out = Vec::new();
    gather_sub_blocks(ctx, body, for_op, &mut out);
    out
}

fn gather_sub_blocks(ctx: &Context, body: &Body, op: OpId, out: &mut Vec<SubBlock>) {
    let ir = (ctx, body);
    for &r in body.regions(op) {
        for block in body.region_blocks(r) {
            let term = body.terminator(block);
            let mut run: Option<SubBlock> = None;
            for o in body.block_ops(block) {
                if Some(o) == term {
                    break;
                }
                if AffineForOp::isa(&ir, o) {
                    out.extend(run.take());
                    gather_sub_blocks(ctx, body, o, out);
                } else {
                    run = Some(run.map_or((o, o), |(f, _)| (f, o)));
                }
            }
            out.extend(run.take());
        }
    }
}

/// Whether every bound operand of every `affine.for` in `for_op` (itself
/// included) is defined outside `for_op` (MLIR's `areInnerBoundsInvariant`).
pub fn inner_bounds_invariant(ctx: &Context, body: &Body, for_op: AffineForOp) -> bool {
    let mut ok = true;
    walk(body, for_op.op(), WalkOrder::PreOrder, &mut |b, o| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        if let Some(f) = AffineForOp::cast(&(ctx, b), o) {
            let ir = (ctx, b);
            let controls = f
                .lower_bound_operands(&ir)
                .into_iter()
                .chain(f.upper_bound_operands(&ir));
            for v in controls {
                if body.is_defined_inside(v, for_op.op()) {
                    ok = false;
                    return WalkControl::Interrupt;
                }
            }
        }
        WalkControl::Advance
    });
    ok
}

/// The ops in `for_op` that touch memory (affine accesses, and any other op
/// with a memory effect other than allocation or unknown effects).
fn memory_ops(ctx: &Context, body: &Body, for_op: OpId) -> Result<Vec<OpId>, Declined> {
    let mut out = Vec::new();
    let mut bad = None;
    walk(body, for_op, WalkOrder::PreOrder, &mut |b, o| {
        let ir = (ctx, b);
        if o == for_op {
            return WalkControl::Advance;
        }
        if !std::ptr::eq(b, body) {
            bad = Some("an op nested in an isolated region");
            return WalkControl::Interrupt;
        }
        if AffineLoadOp::isa(&ir, o) || AffineStoreOp::isa(&ir, o) {
            out.push(o);
            return WalkControl::Advance;
        }
        // The structural ops: what they contain is looked at op by op.
        if AffineForOp::isa(&ir, o)
            || AffineIfOp::isa(&ir, o)
            || AffineYieldOp::isa(&ir, o)
            || AffineParallelOp::isa(&ir, o)
        {
            return WalkControl::Advance;
        }
        let touches = match lf_ir::interfaces::memory_effects(ctx, b, o) {
            None => true,
            Some(effects) => effects.iter().any(|e| e.effect != Effect::Alloc),
        };
        if touches {
            bad = Some(ctx.op_name_str(b.op_name(o)));
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    match bad {
        Some(name) => Err(format!(
            "not unroll-jammed: '{name}' in the loop touches memory and is not an affine access"
        )),
        None => Ok(out),
    }
}

/// Where an op sits in the jammed structure of `for_op`: the `affine.for`
/// ops it is in, each directly in the body of the previous (starting in
/// `for_op`'s body), then the op of the innermost of those bodies that holds
/// it (or is it).
struct JamPath {
    loops: Vec<OpId>,
    element: OpId,
}

fn jam_path(ctx: &Context, body: &Body, for_op: OpId, op: OpId) -> JamPath {
    let mut chain = vec![op];
    let mut cur = op;
    while let Some(p) = body.parent_op(cur) {
        if p == for_op {
            break;
        }
        chain.push(p);
        cur = p;
    }
    chain.reverse();
    let ir = (ctx, body);
    let mut loops = Vec::new();
    for &o in &chain {
        if o != op && AffineForOp::isa(&ir, o) {
            loops.push(o);
        } else {
            return JamPath { loops, element: o };
        }
    }
    JamPath { loops, element: op }
}

/// Whether `a` and `b` (ops of one block) are in one run of ops with no
/// `affine.for` between them.
fn same_sub_block(ctx: &Context, body: &Body, a: OpId, b: OpId) -> bool {
    let ir = (ctx, body);
    if AffineForOp::isa(&ir, a) || AffineForOp::isa(&ir, b) {
        return false;
    }
    let (first, last) = if body.is_before_in_block(a, b) { (a, b) } else { (b, a) };
    let mut cur = first;
    while cur != last {
        cur = match body.next_op(cur) {
            Some(n) => n,
            None => return false,
        };
        if AffineForOp::isa(&ir, cur) {
            return false;
        }
    }
    true
}

/// Checks that unroll-and-jam of `for_op` by `factor` keeps every memory
/// dependence (lf's check; MLIR makes none). For each pair of accesses in
/// the loop with a dependence carried by it at a distance below
/// `factor * step`, the source's instance must still run first in the
/// jammed loop: along the `affine.for` loops common to both in the jammed
/// structure the distance must be lexicographically non-negative, and when
/// it may be zero throughout, the two accesses must be in one sub-block or
/// the source's part of the innermost common body must come first.
/// Dependences are decided exactly ([`Precision::Exact`]).
pub fn unroll_jam_legality(
    ctx: &Context,
    body: &Body,
    for_op: AffineForOp,
    factor: u64,
    deps: &MemRefAccesses,
) -> Result<(), Declined> {
    let ir = (ctx, body);
    let accesses = memory_ops(ctx, body, for_op.op())?;
    if accesses.is_empty() {
        return Ok(());
    }
    let step = for_op.step(&ir);
    let span = step.saturating_mul(i64::try_from(factor).unwrap_or(i64::MAX));
    // The loop's depth in the accesses' iteration domains.
    let mut depth = 1;
    for p in enclosing_affine_ops(ctx, body, for_op.op()) {
        if AffineForOp::isa(&ir, p) {
            depth += 1;
        } else if let Some(par) = AffineParallelOp::cast(&ir, p) {
            depth += par.ivs(&ir).len();
        }
    }
    for &a in &accesses {
        if !enclosing_affine_ops(ctx, body, a).contains(&for_op.op()) {
            return Err(
                "not unroll-jammed: an access is nested in a non-affine op inside the loop (dependences unknown)"
                    .into(),
            );
        }
    }
    let paths: Vec<JamPath> = accesses.iter().map(|&a| jam_path(ctx, body, for_op.op(), a)).collect();
    for (si, &src) in accesses.iter().enumerate() {
        for (di, &dst) in accesses.iter().enumerate() {
            let components = match deps.check(ctx, body, src, dst, depth, Precision::Exact, true) {
                DependenceResult::NoDependence => continue,
                DependenceResult::Failure { reason } => return Err(format!("not unroll-jammed: {reason}")),
                DependenceResult::HasDependence { components } => components,
            };
            let Some(own) = components.get(depth - 1).filter(|c| c.loop_op == Some(for_op.op())) else {
                return Err("not unroll-jammed: a dependence could not be placed on the loop".into());
            };
            if own.lb.is_some_and(|lb| lb >= span) {
                continue;
            }
            let (ps, pd) = (&paths[si], &paths[di]);
            let common = ps.loops.iter().zip(&pd.loops).take_while(|(x, y)| x == y).count();
            let mut decided = false;
            for k in 0..common {
                let Some(c) = components.get(depth + k) else {
                    break;
                };
                match c.lb {
                    Some(lb) if lb >= 1 => {
                        decided = true;
                        break;
                    }
                    Some(lb) if lb >= 0 => {}
                    _ => return Err(reversed(ctx, body, src, dst)),
                }
            }
            if decided {
                continue;
            }
            let es = ps.loops.get(common).copied().unwrap_or(ps.element);
            let ed = pd.loops.get(common).copied().unwrap_or(pd.element);
            if es == ed || same_sub_block(ctx, body, es, ed) || body.is_before_in_block(es, ed) {
                continue;
            }
            return Err(reversed(ctx, body, src, dst));
        }
    }
    Ok(())
}

fn reversed(ctx: &Context, body: &Body, src: OpId, dst: OpId) -> String {
    let name = |o: OpId| ctx.op_name_str(body.op_name(o));
    let line = |o: OpId| {
        body.op_loc(o)
            .source_pos(ctx)
            .map(|p| format!(" (line {})", p.line))
            .unwrap_or_default()
    };
    format!(
        "not unroll-jammed: the jammed loop would reverse a dependence from '{}'{} to '{}'{} carried by the loop",
        name(src),
        line(src),
        name(dst),
        line(dst)
    )
}

/// Why the copies' partial results of reduction `r` (initial value
/// `init`) cannot be combined into the loop's result exactly, if they
/// cannot: MLIR starts every copy from `init` and combines the copies'
/// results in another order. That is exact for the idempotent kinds (`max`,
/// `min`, `andi`, `ori`), and for `addi` and `muli` (wrapping integer
/// arithmetic is associative) when `init` is their neutral constant; a
/// floating-point sum or product would change (rounding depends on the
/// order), and MLIR has no combining op for `xori`.
fn recombination_problem(ctx: &Context, body: &Body, r: &LoopReduction, init: Value) -> Option<&'static str> {
    use AtomicRmwKind as K;
    let constant = || match lf_ir::constants::constant_value(ctx, body, init).map(|a| ctx.attr_data(a)) {
        Some(lf_ir::AttrData::Integer { value, .. }) => Some(*value),
        _ => None,
    };
    match r.kind {
        K::Maximumf
        | K::Minimumf
        | K::Maxnumf
        | K::Minnumf
        | K::Maxs
        | K::Mins
        | K::Maxu
        | K::Minu
        | K::Andi
        | K::Ori => None,
        K::Addi if constant() == Some(0) => None,
        K::Muli if constant() == Some(1) => None,
        K::Addi | K::Muli => Some("each copy would start from the initial value, which is not the neutral constant"),
        K::Addf | K::Mulf => Some("combining the copies' partial results would change floating-point rounding"),
        K::Xori | K::Assign => Some("there is no op to combine the copies' results with"),
    }
}

/// Replaces `old` by a copy that carries `extra_inits` after its own
/// `iter_args` and yields `extra_yields` after its own values (MLIR's
/// `replaceWithAdditionalYields`); the body moves to the new loop, the old
/// loop's results become the first ones of the new.
pub fn with_additional_yields(
    b: &mut Builder<'_>,
    old: AffineForOp,
    extra_inits: &[Value],
    extra_yields: &[Value],
) -> AffineForOp {
    let op = old.op();
    let (lb, ub, step) = (old.lower_bound(b), old.upper_bound(b), old.step(b));
    let mut inits: Vec<Value> = old.inits(b).to_vec();
    inits.extend_from_slice(extra_inits);
    let types: Vec<Type> = inits.iter().map(|v| b.body().value_type(*v)).collect();
    let loc = b.body().op_loc(op);
    let new = b.guarded(|b| {
        b.set_insertion_point_before(op);
        b.set_loc(loc);
        AffineForOp::build_empty(b, &lb.operands, &ub.operands, &inits, &types, lb.map, ub.map, step)
    });
    let yield_op = old.yield_op(b).op();
    b.modify_in_place(yield_op, |_, body| {
        let mut ops: Vec<Value> = body.operands(yield_op).collect();
        ops.extend_from_slice(extra_yields);
        body.set_operands(yield_op, &ops);
    });
    let block = old.region_block(b);
    let region = new.region(b);
    let body = b.body_mut();
    body.detach_block(block);
    body.append_block(region, block);
    for ty in &types[types.len() - extra_inits.len()..] {
        body.add_block_arg(block, *ty, loc);
    }
    let old_results: Vec<Value> = b.body().results(op).collect();
    let new_results: Vec<Value> = b.body().results(new.op()).collect();
    for (o, n) in old_results.iter().zip(&new_results) {
        b.replace_all_uses_with(*o, *n);
    }
    b.erase_op(op);
    new
}

/// Unroll-and-jams `for_op` by `factor` (MLIR's `loopUnrollJamByFactor`),
/// after checking what MLIR checks (trip count at least `factor`, inner
/// bounds invariant, an affine cleanup bound when one is needed) and what
/// it does not: that every carried value of `for_op` is a reduction MLIR
/// can recombine (otherwise MLIR's result is wrong) and that no dependence
/// is reversed ([`unroll_jam_legality`]). The iterations a factor does not
/// divide go to a cleanup loop; the copies' partial reductions are combined
/// after the loop; a loop left with one iteration is promoted.
/// `assume_nonnegative`: see [`generate_cleanup_loop`].
pub fn loop_unroll_jam_by_factor(
    b: &mut Builder<'_>,
    mut for_op: AffineForOp,
    factor: u64,
    deps: &MemRefAccesses,
    assume_nonnegative: bool,
) -> Result<(), Declined> {
    assert!(factor > 0, "unroll-jam factor must be positive");
    let (ctx, op) = (b.ctx(), for_op.op());
    let trip_count = constant_trip_count(b, for_op);
    if factor == 1 {
        if trip_count == Some(1) && !promote_if_single_iteration(b, for_op) {
            return Err("not promoted: the single-iteration loop has a max lower bound".into());
        }
        return Ok(());
    }
    let block = for_op.region_block(b);
    if b.body().block_ops(block).nth(1).is_none() {
        return Ok(());
    }
    if let Some(tc) = trip_count.filter(|&tc| tc < factor) {
        return Err(format!(
            "not unroll-jammed: trip count {tc} is less than the unroll-jam factor {factor}"
        ));
    }
    if !inner_bounds_invariant(ctx, b.body(), for_op) {
        return Err("not unroll-jammed: a bound of a nested loop depends on a value defined in the loop".into());
    }
    let needs_cleanup = !largest_divisor_of_trip_count(b, for_op).is_multiple_of(factor);
    if needs_cleanup && (for_op.lower_bound_map(b).num_results() != 1 || for_op.upper_bound_map(b).num_results() != 1) {
        return Err(format!(
            "not unroll-jammed: the trip count may not be a multiple of {factor} and a max lower bound or min upper \
             bound leaves no affine cleanup loop bound"
        ));
    }
    let reductions: Vec<LoopReduction> = supported_reductions(b, for_op);
    let num_carried = for_op.inits(b).len();
    if let Some(i) = (0..num_carried).find(|i| !reductions.iter().any(|r| r.iter_arg == *i)) {
        return Err(format!(
            "not unroll-jammed: loop-carried value #{i} is not a reduction the copies' results can be combined with"
        ));
    }
    let inits = for_op.inits(b);
    for r in &reductions {
        if let Some(why) = recombination_problem(ctx, b.body(), r, inits[r.iter_arg]) {
            return Err(format!(
                "not unroll-jammed: loop-carried value #{} is a '{}' reduction: {why}",
                r.iter_arg,
                r.kind.keyword()
            ));
        }
    }
    unroll_jam_legality(ctx, b.body(), for_op, factor, deps)?;
    let step = for_op.step(b);
    let Some(new_step) = i64::try_from(factor).ok().and_then(|f| step.checked_mul(f)) else {
        return Err(format!("not unroll-jammed: step {step} times {factor} overflows"));
    };

    let sub_blocks = jam_sub_blocks(ctx, b.body(), op);
    // The loops carrying values, inner loops first (MLIR's post-order walk).
    let mut carrying: Vec<AffineForOp> = Vec::new();
    let whole: &Body = b.body();
    walk(whole, op, WalkOrder::PostOrder, &mut |body, o| {
        if !std::ptr::eq(body, whole) {
            return WalkControl::Skip;
        }
        if let Some(f) = AffineForOp::cast(&(ctx, body), o) {
            if !f.inits(&(ctx, body)).is_empty() {
                carrying.push(f);
            }
        }
        WalkControl::Advance
    });
    if needs_cleanup {
        generate_cleanup_loop(b, for_op, factor, assume_nonnegative)
            .expect("single-result bounds have a trip count map");
    }
    let copies = (factor - 1) as usize;
    let mut maps: Vec<ValueMap> = vec![ValueMap::default(); copies];
    let mut new_carrying = Vec::with_capacity(carrying.len());
    for old in carrying {
        let inits = old.inits(b);
        let yielded: Vec<Value> = b.body().operands(old.yield_op(b).op()).collect();
        let (mut extra_inits, mut extra_yields) = (Vec::new(), Vec::new());
        for _ in 0..copies {
            extra_inits.extend_from_slice(&inits);
            extra_yields.extend_from_slice(&yielded);
        }
        let was_outer = old == for_op;
        let new = with_additional_yields(b, old, &extra_inits, &extra_yields);
        if was_outer {
            for_op = new;
        }
        let args = new.region_iter_args(b);
        let results: Vec<Value> = b.body().results(new.op()).collect();
        let n = inits.len();
        for i in (1..=copies).rev() {
            for j in 0..n {
                maps[i - 1].map(args[j], args[i * n + j]);
                maps[i - 1].map(results[j], results[i * n + j]);
            }
        }
        new_carrying.push(new);
    }
    for_op.set_step(b, new_step);
    let iv = for_op.iv(b);
    let loc = b.body().op_loc(for_op.op());
    for i in (1..=copies).rev() {
        for &(first, last) in &sub_blocks {
            b.guarded(|b| {
                b.set_insertion_point_after(last);
                if b.body().has_uses(iv) {
                    b.set_loc(loc);
                    let v = bump_iv(b, iv, i as i64 * step);
                    maps[i - 1].map(iv, v);
                }
                let mut cur = first;
                loop {
                    let next = b.body().next_op(cur);
                    b.clone_op(cur, &mut maps[i - 1]);
                    if cur == last {
                        break;
                    }
                    cur = next.expect("a sub-block's ops are consecutive");
                }
            });
        }
        for &l in &new_carrying {
            let total = l.inits(b).len();
            let n = total / factor as usize;
            let num_control = b.body().num_operands(l.op()) - total;
            let y = l.yield_op(b).op();
            let map = &maps[i - 1];
            for j in 0..n {
                let init = map.lookup(b.body().operand(l.op(), num_control + j));
                let yv = map.lookup(b.body().operand(y, j));
                let lop = l.op();
                b.modify_in_place(lop, |_, body| body.set_operand(lop, num_control + i * n + j, init));
                b.modify_in_place(y, |_, body| body.set_operand(y, i * n + j, yv));
            }
        }
    }
    let num_results = b.body().num_results(for_op.op());
    if num_results > 0 {
        let n = num_results / factor as usize;
        let results: Vec<Value> = b.body().results(for_op.op()).collect();
        b.guarded(|b| {
            b.set_insertion_point_after(for_op.op());
            b.set_loc(loc);
            for r in &reductions {
                let pos = r.iter_arg;
                let mut lhs = results[pos];
                let mut new_ops = Vec::new();
                for i in (1..=copies).rev() {
                    lhs = combine(b, r.kind, lhs, results[i * n + pos]).expect("checked by `combinable`");
                    new_ops.push(b.body().defining_op(lhs).expect("a combining op"));
                }
                b.replace_uses_if(results[pos], lhs, |_, owner| !new_ops.contains(&owner));
            }
        });
    }
    promote_if_single_iteration(b, for_op);
    Ok(())
}
