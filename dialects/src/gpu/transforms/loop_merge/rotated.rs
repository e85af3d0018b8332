//! The rotated merged loop (`form=rotated`): each trip runs one inner
//! iteration when the current inner loop has one left, then, in the same
//! trip, the transition when the inner loop has just ended. The inner
//! condition is carried from trip to trip (each evaluation of it is the
//! original's: once per inner iteration and once at its exit), so a
//! zero-trip inner loop takes a trip of its own, and a lane does body work
//! on almost every trip instead of idling through transition trips.
//!
//! The loop is split where the trip's work changes kind: the `before`
//! region runs the inner iteration, the inner epilogue and the outer step
//! and tests for the end; the `after` region runs the next inner prologue.
//! The split matters on a GPU: the prologue's values (prefetched one outer
//! iteration ahead with `prefetch=true`) are then read after the next
//! iteration's body instead of at the top of the trip, where the warp would
//! wait for the load (docs/design/loop-merge.md, "What the merged loop
//! costs").
//!
//! ```text
//! (c1, F1) = cond1(init1); (L, S0) = P0(F1); (c0, F0) = cond0(S0); [Pf = loads of P0(F1 + 1)]
//! while (true) {                       // state: F1, L, S0, c0, [F0,] [Pf]
//!   if (c0) { S0 = body0(F0); (c0, F0) = cond0(S0) }
//!   ended = !c0
//!   if (ended) { Y = E0(F1, L, results0(F0)); (c1, F1) = cond1(next1(F1, Y)) }
//!   if (ended && !c1) break
//!   if (ended) { (L, S0) = P0(F1) [loads from Pf; Pf = loads of P0(F1 + 1)]; (c0, F0) = cond0(S0) }
//! }
//! ```
//!
//! When the outer loop may run zero times, the entry's `c1` also guards
//! `ended` and the exit test (the state then holds zeros).

use super::merge::{
    clone_prologue_map, emit_iteration, enter_outer, plan_prefetch, replace_outer, split, step_outer, types, Merged,
    Split,
};
use super::prefetch::{self, Prefetch};
use super::shape::LoopForm;
use crate::arith::{ArithAndiOp, ArithConstantOp, ArithOriOp, ArithXoriOp};
use crate::scf::{ScfIfOp, ScfWhileOp};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{Type, Value};

/// Runs the prologue for the outer arguments `args` (the prefetched loads
/// given by `prefetched`) and the inner condition on the new state: the
/// live values, the inner state, the condition and (for a `while` inner
/// loop) the forwarded values.
fn enter(
    b: &mut Builder<'_>,
    s: &Split,
    inner: LoopForm,
    args: &[Value],
    prefetched: Option<(&Prefetch, &[Value])>,
) -> ValueList {
    let (mut out, mut m) = clone_prologue_map(b, s, inner, args, prefetched);
    let state: Vec<Value> = out[s.live.len()..].to_vec();
    let (c, fwd) = inner.emit_cond(b, &state, &mut m);
    out.push(c);
    if matches!(inner, LoopForm::While(_)) {
        out.extend(fwd);
    }
    out
}

/// Merges `inner` with `outer` in the rotated form (see the module
/// documentation), replacing `outer`; each trip runs up to `unroll` (>= 1)
/// inner iterations before the transition. With `with_prefetch`, the
/// prologue's loads that allow it are issued one outer iteration ahead
/// ([`prefetch`]).
pub fn merge_rotated(
    b: &mut Builder<'_>,
    outer: LoopForm,
    inner: LoopForm,
    unroll: usize,
    with_prefetch: bool,
) -> Result<Merged, String> {
    let s = split(b, outer, inner)?;
    let pf = plan_prefetch(b, outer, &s, with_prefetch);
    let pf_types = pf.as_ref().map(|p| p.types(b)).unwrap_or_default();
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
    let (nf, nl, ns, nw, np) = (
        s.args.len(),
        s.live.len(),
        s0_types.len(),
        fwd_types.len(),
        pf_types.len(),
    );
    // What entering an inner loop yields: L, S0, c0, [F0].
    let mut entered_types = types(b, &s.live);
    entered_types.extend(s0_types.iter().copied());
    entered_types.push(i1);
    entered_types.extend(fwd_types.iter().copied());

    let runs = outer.runs_at_least_once(b);
    let (f1, entered, entry_c1) = enter_outer(b, outer, &entered_types, &|b, f1| enter(b, &s, inner, f1, None));
    // With a constant-true entry the guard is not needed.
    let guard = (!runs).then_some(entry_c1);
    let mut inits: Vec<Value> = f1.clone();
    inits.extend(entered.iter().copied());
    if let Some(pf) = &pf {
        inits.extend(prefetch::emit_first(b, pf, outer, (s.args[0], f1[0])));
    }
    // The state (F1, L, S0, c0, F0, Pf); the forwarded values add `ended`.
    let mut state_types = types(b, &s.args);
    state_types.extend(entered_types.iter().copied());
    state_types.extend(pf_types.iter().copied());
    let mut forwarded_types = state_types.clone();
    forwarded_types.push(i1);

    let (mut step_if, mut prologue_if, mut prefetch_if) = (None, None, None);
    let mut body_ifs = Vec::new();
    let w = ScfWhileOp::build(
        b,
        &inits,
        &forwarded_types,
        |b, args| {
            let (fa, rest) = args.split_at(nf);
            let (la, rest) = rest.split_at(nl);
            let (sa, rest) = rest.split_at(ns);
            let ca = rest[0];
            let (wa, pa) = rest[1..].split_at(nw);
            let mut m = ValueMap::default();
            for (a, v) in s.args.iter().zip(fa) {
                m.map(*a, *v);
            }
            for (l, v) in s.live.iter().zip(la) {
                m.map(*l, *v);
            }
            // Up to `unroll` inner iterations, each with the next test.
            let mut iter_types = s0_types.clone();
            iter_types.push(i1);
            iter_types.extend(fwd_types.iter().copied());
            let (mut s_cur, mut c_cur, mut w_cur) = (sa.to_vec(), ca, wa.to_vec());
            // A `for` inner loop's tests as distances from the trip's first
            // induction variable: copy k tests `(k + 1) * step <u ub - iv`
            // (one compare each, no chain of adds).
            let to_end = if is_while || unroll == 1 {
                None
            } else {
                inner.emit_distance_to_end(b, sa[0], &m, unroll)
            };
            for k in 0..unroll {
                let mut body_map = m.clone();
                let (s_in, w_in) = (s_cur.clone(), w_cur.clone());
                let iteration = ScfIfOp::build(
                    b,
                    c_cur,
                    &iter_types,
                    |b| {
                        let f0: Vec<Value> = if is_while { w_in.clone() } else { s_in.clone() };
                        let next = emit_iteration(b, inner, &f0, &mut body_map);
                        let (c, fwd) = match to_end {
                            Some(d) => (LoopForm::emit_ahead_test(b, d, k + 1), next.clone()),
                            None => inner.emit_cond(b, &next, &mut body_map),
                        };
                        let mut out: ValueList = next.into_iter().collect();
                        out.push(c);
                        if is_while {
                            out.extend(fwd);
                        }
                        out
                    },
                    Some(&mut |_: &mut Builder<'_>| {
                        let mut out: ValueList = s_in.iter().copied().collect();
                        out.push(c_cur);
                        out.extend(w_in.iter().copied());
                        out
                    }),
                );
                body_ifs.push(iteration.op());
                let it: Vec<Value> = b.body().results(iteration.op()).collect();
                s_cur = it[..ns].to_vec();
                c_cur = it[ns];
                w_cur = it[ns + 1..].to_vec();
                if !is_while && unroll > 1 {
                    // The next copy's induction variable, on every trip: it
                    // is only read where the iterations before it ran (else
                    // the copy's results are dropped), and the trip carries
                    // it on only when all ran (else the transition resets
                    // it). No select per copy.
                    s_cur[0] = inner.emit_next(b, &s_in[..1], &[], &m)[0];
                }
            }
            let (s1, c0, w1) = (&s_cur[..], c_cur, &w_cur[..]);
            // The inner loop has ended: its epilogue and the outer step.
            let t = ArithConstantOp::int(b, 1, i1);
            let mut ended = ArithXoriOp::build(b, c0, t).result(b);
            if let Some(g) = guard {
                ended = ArithAndiOp::build(b, ended, g).result(b);
            }
            let mut step_types = types(b, fa);
            step_types.push(i1);
            let step = ScfIfOp::build(
                b,
                ended,
                &step_types,
                |b| {
                    let f0: Vec<Value> = if is_while { w1.to_vec() } else { s1.to_vec() };
                    let (c1n, f1n) = step_outer(b, &s, outer, inner, &m, fa, &inner.results_of(&f0));
                    let mut out: ValueList = f1n.into_iter().collect();
                    out.push(c1n);
                    out
                },
                Some(&mut |_: &mut Builder<'_>| {
                    let mut out: ValueList = fa.iter().copied().collect();
                    out.push(t);
                    out
                }),
            );
            step_if = Some(step.op());
            let st: Vec<Value> = b.body().results(step.op()).collect();
            let (f1n, c1n) = (&st[..nf], st[nf]);
            // Go on unless the inner loop ended and the outer one too.
            let mut go = ArithOriOp::build(b, c0, c1n).result(b);
            if let Some(g) = guard {
                go = ArithAndiOp::build(b, go, g).result(b);
            }
            let mut fwd: ValueList = f1n.iter().chain(la).chain(s1).copied().collect();
            fwd.push(c0);
            fwd.extend(w1.iter().chain(pa).copied());
            fwd.push(ended);
            (go, fwd)
        },
        |b, args| {
            let (fa, rest) = args.split_at(nf);
            let (kept, rest) = rest.split_at(nl + ns + 1 + nw);
            let (pa, rest) = rest.split_at(np);
            let ended = rest[0];
            // The next inner prologue when the inner loop has ended.
            let pro = ScfIfOp::build(
                b,
                ended,
                &entered_types,
                |b| enter(b, &s, inner, fa, pf.as_ref().map(|p| (p, pa))),
                Some(&mut |_: &mut Builder<'_>| kept.iter().copied().collect()),
            );
            prologue_if = Some(pro.op());
            let mut out: ValueList = fa.iter().copied().collect();
            out.extend(b.body().results(pro.op()));
            if let Some(pf) = &pf {
                // The loads of the outer iteration after the next, after
                // every read of the values they replace (so the loads can
                // write the carried registers: no copy that would wait for
                // them in this trip).
                let next = prefetch::emit(b, pf, outer, (s.args[0], fa[0]), pa, Some(ended));
                prefetch_if = b.body().defining_op(next[0]);
                out.extend(next);
            }
            out
        },
    );
    replace_outer(b, outer, w.op(), nf);
    Ok(Merged {
        while_op: w.op(),
        trip_if: step_if.expect("the outer step's if was built"),
        prologue_if: prologue_if.expect("the prologue's if was built"),
        prefetch_if,
        prefetched: np,
        body_ifs,
    })
}
