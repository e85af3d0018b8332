//! The rotated merged loop (`form=rotated`): each trip runs one inner
//! iteration when the current inner loop has one left, then, in the same
//! trip, the transition when the inner loop has just ended. The inner
//! condition is carried from trip to trip (each evaluation of it is the
//! original's: once per inner iteration and once at its exit), so a
//! zero-trip inner loop takes a trip of its own, and a lane does body work
//! on almost every trip instead of idling through its transition trips: the
//! shape of the hand-written `merged_sel` SYN-LM kernel, for any loops.
//!
//! ```text
//! (c1, F1) = cond1(init1); (L, S0) = P0(F1); (c0, F0) = cond0(S0)
//! while (active) {                    // state: F1, L, S0, [F0,] c0, active
//!   if (c0) { S0 = body0(F0); (c0, F0) = cond0(S0) }
//!   if (!c0) {
//!     Y = E0(F1, L, results0(F0)); (c1, F1) = cond1(next1(F1, Y))
//!     if (c1) { (L, S0) = P0(F1); (c0, F0) = cond0(S0) }
//!     active = c1
//!   }
//! }
//! ```

use super::merge::{clone_prologue_map, enter_outer, replace_outer, split, step_outer, types, Merged, Split};
use super::shape::LoopForm;
use crate::arith::{ArithConstantOp, ArithXoriOp};
use crate::scf::{ScfIfOp, ScfWhileOp};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{Type, Value};

/// Runs the prologue for the outer arguments `args` and the inner
/// condition on the new state: the live values, the inner state, the
/// condition and (for a `while` inner loop) the forwarded values.
fn enter(b: &mut Builder<'_>, s: &Split, inner: LoopForm, args: &[Value]) -> ValueList {
    let (mut out, mut m) = clone_prologue_map(b, s, inner, args, None);
    let state: Vec<Value> = out[s.live.len()..].to_vec();
    let (c, fwd) = inner.emit_cond(b, &state, &mut m);
    out.push(c);
    if matches!(inner, LoopForm::While(_)) {
        out.extend(fwd);
    }
    out
}

/// Merges `inner` with `outer` in the rotated form (see the module
/// documentation), replacing `outer`.
pub fn merge_rotated(b: &mut Builder<'_>, outer: LoopForm, inner: LoopForm) -> Result<Merged, String> {
    let s = split(b, outer, inner)?;
    let outer_op = outer.op();
    b.set_insertion_point_before(outer_op);
    b.set_loc_of(outer_op);
    let i1 = b.ctx().common().i1;
    let is_while = matches!(inner, LoopForm::While(_));
    let fwd_types: Vec<Type> = if is_while {
        let blk = inner.body_block(b).ok_or("the inner loop's body has several blocks")?;
        let args: Vec<Value> = b.body().block_args(blk).to_vec();
        types(b, &args)
    } else {
        Vec::new()
    };
    let s0_types = inner.state_types(b);
    let (nf, nl, ns, nw) = (s.args.len(), s.live.len(), s0_types.len(), fwd_types.len());
    // What entering an inner loop yields: L, S0, c0, [F0].
    let mut entered_types = types(b, &s.live);
    entered_types.extend(s0_types.iter().copied());
    entered_types.push(i1);
    entered_types.extend(fwd_types.iter().copied());

    let (f1, entered, active) = enter_outer(b, outer, &entered_types, &|b, f1| enter(b, &s, inner, f1));
    let mut inits: Vec<Value> = f1.clone();
    inits.extend(entered.iter().copied());
    inits.push(active);
    let mut state_types = types(b, &s.args);
    state_types.extend(entered_types.iter().copied());
    state_types.push(i1);

    let (mut trip_if, mut prologue_if, mut body_if) = (None, None, None);
    let w = ScfWhileOp::build(
        b,
        &inits,
        &state_types,
        |_, args| (*args.last().expect("the active flag"), args.iter().copied().collect()),
        |b, args| {
            let (fa, rest) = args.split_at(nf);
            let (la, rest) = rest.split_at(nl);
            let (sa, rest) = rest.split_at(ns);
            let ca = rest[0];
            let wa = &rest[1..1 + nw];
            let mut m = ValueMap::default();
            for (a, v) in s.args.iter().zip(fa) {
                m.map(*a, *v);
            }
            for (l, v) in s.live.iter().zip(la) {
                m.map(*l, *v);
            }
            // One inner iteration and the next test.
            let mut iter_types = s0_types.clone();
            iter_types.push(i1);
            iter_types.extend(fwd_types.iter().copied());
            let mut body_map = m.clone();
            let iteration = ScfIfOp::build(
                b,
                ca,
                &iter_types,
                |b| {
                    let f0: Vec<Value> = if is_while { wa.to_vec() } else { sa.to_vec() };
                    let block = inner.body_block(b).expect("checked: one block");
                    let bargs: Vec<Value> = b.body().block_args(block).to_vec();
                    for (a, v) in bargs.into_iter().zip(&f0) {
                        body_map.map(a, *v);
                    }
                    b.clone_block_ops(block, &mut body_map, true);
                    let term = b.body().terminator(block).expect("a terminator");
                    let yielded: Vec<Value> = b.body().operands(term).map(|v| body_map.lookup(v)).collect();
                    let next = inner.emit_next(b, &f0, &yielded, &body_map);
                    let (c, fwd) = inner.emit_cond(b, &next, &mut body_map);
                    let mut out: ValueList = next.into_iter().collect();
                    out.push(c);
                    if is_while {
                        out.extend(fwd);
                    }
                    out
                },
                Some(&mut |_: &mut Builder<'_>| {
                    let mut out: ValueList = sa.iter().copied().collect();
                    out.push(ca);
                    out.extend(wa.iter().copied());
                    out
                }),
            );
            body_if = Some(iteration.op());
            let it: Vec<Value> = b.body().results(iteration.op()).collect();
            let (s1, rest) = it.split_at(ns);
            let c0 = rest[0];
            let w1 = &rest[1..];
            // The transition when the inner loop has ended.
            let t = ArithConstantOp::int(b, 1, i1);
            let ended = ArithXoriOp::build(b, c0, t).result(b);
            let trans = ScfIfOp::build(
                b,
                ended,
                &state_types,
                |b| {
                    let f0: Vec<Value> = if is_while { w1.to_vec() } else { s1.to_vec() };
                    let (c1n, f1n) = step_outer(b, &s, outer, inner, &m, fa, &inner.results_of(&f0));
                    let mut keep: Vec<Value> = la.to_vec();
                    keep.extend(s1.iter().copied());
                    keep.push(c0);
                    keep.extend(w1.iter().copied());
                    let pro = ScfIfOp::build(
                        b,
                        c1n,
                        &entered_types,
                        |b| enter(b, &s, inner, &f1n),
                        Some(&mut |_: &mut Builder<'_>| keep.iter().copied().collect()),
                    );
                    prologue_if = Some(pro.op());
                    let mut out: ValueList = f1n.iter().copied().collect();
                    out.extend(b.body().results(pro.op()));
                    out.push(c1n);
                    out
                },
                Some(&mut |_: &mut Builder<'_>| {
                    let mut out: ValueList = fa.iter().chain(la).copied().collect();
                    out.extend(s1.iter().copied());
                    out.push(c0);
                    out.extend(w1.iter().copied());
                    out.push(t);
                    out
                }),
            );
            trip_if = Some(trans.op());
            b.body().results(trans.op()).collect()
        },
    );
    replace_outer(b, outer, w.op(), nf);
    Ok(Merged {
        while_op: w.op(),
        trip_if: trip_if.expect("the transition's if was built"),
        prologue_if: prologue_if.expect("the prologue's if was built"),
        prefetch_if: None,
        prefetched: 0,
        body_if,
    })
}
