//! The single-level merge of DIGEST §001.3: an inner loop and the loop
//! whose body holds it become one `scf.while`, each trip of which runs
//! either one inner iteration or one transition (the inner epilogue, the
//! outer increment and condition, and the next inner prologue).
//!
//! With `P0` the ops of the outer body before the inner loop, `E0` those
//! after it, and `F1` the outer body's arguments:
//!
//! ```text
//! (c1, F1) = cond1(init1)
//! (L, S0) = c1 ? P0(F1) : zeros          // no `if` when the outer loop runs
//! while (active) {                       // state: F1, L, S0, active
//!   (c0, F0) = cond0(S0)
//!   if (c0) { S0 = body0(F0) }           // one inner iteration
//!   else {                               // the transition
//!     Y = E0(F1, L, results0(F0)); (c1, F1) = cond1(next1(F1, Y))
//!     if (c1) { (L, S0) = P0(F1) }       // the next inner prologue
//!     active = c1
//!   }
//! }
//! results of the outer loop = results1(F1)
//! ```
//!
//! `L` holds the values of `P0` used later (by the inner loop's condition
//! and body, `E0` and the outer yield). A zero-trip inner loop takes the
//! transition on its first trip; a `while` inner loop's exit (a break) is
//! its condition. The result is itself an `scf.while` whose prologue is the
//! code before it, so merging with N loops repeats this from the inside out.

use super::prefetch::{self, Prefetch};
use super::shape::LoopForm;
use crate::arith::ArithConstantOp;
use crate::scf::{ScfIfOp, ScfWhileOp};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{OpId, Type, Value};

/// The ops of a merged loop that the select form rewrites.
pub struct Merged {
    /// The merged `scf.while`.
    pub while_op: OpId,
    /// The `scf.if` choosing between an inner iteration and a transition
    /// (rotated form: the one running the inner epilogue and the outer
    /// step when the inner loop has ended).
    pub trip_if: OpId,
    /// The `scf.if` running the next inner prologue (inside the transition;
    /// rotated form: in the `after` region).
    pub prologue_if: OpId,
    /// The `scf.if` loading the prefetched values inside the transition.
    pub prefetch_if: Option<OpId>,
    /// How many prologue loads are prefetched.
    pub prefetched: usize,
    /// The `scf.if`s running one inner iteration each (rotated form).
    pub body_ifs: Vec<OpId>,
}

/// The pieces of the outer loop's body around the inner loop.
pub(super) struct Split {
    /// The outer body's arguments (what its condition forwards).
    pub(super) args: Vec<Value>,
    /// The ops before the inner loop.
    pub(super) prologue: Vec<OpId>,
    /// The ops after it, before the terminator.
    pub(super) epilogue: Vec<OpId>,
    /// The outer body's terminator.
    pub(super) terminator: OpId,
    /// The values of the prologue used after it.
    pub(super) live: Vec<Value>,
}

/// The types of a value list.
pub(super) fn types(b: &Builder<'_>, vs: &[Value]) -> Vec<Type> {
    vs.iter().map(|&v| b.body().value_type(v)).collect()
}

/// Splits the body of `outer` around `inner`.
pub(super) fn split(b: &Builder<'_>, outer: LoopForm, inner: LoopForm) -> Result<Split, String> {
    let body = b.body();
    let block = outer
        .body_block(b)
        .ok_or("the enclosing loop's body has several blocks")?;
    let ops: Vec<OpId> = body.block_ops(block).collect();
    let pos = ops
        .iter()
        .position(|&o| o == inner.op())
        .ok_or("the loop is not directly in the body of the enclosing loop (it is nested in another op)")?;
    let (&terminator, rest) = ops.split_last().ok_or("an empty loop body")?;
    let prologue = rest[..pos].to_vec();
    let epilogue = rest[pos + 1..].to_vec();
    let trip_operands = inner.trip_operands(b);
    let later = |u: OpId| (u == inner.op()) || epilogue.iter().chain([&terminator]).any(|&o| body.is_ancestor(o, u));
    let mut live = Vec::new();
    for &op in &prologue {
        for r in body.results(op) {
            let used_later = body.uses(r).any(|u| {
                let owner = body.use_owner(u);
                if owner == inner.op() {
                    trip_operands.contains(&r)
                } else {
                    later(owner) || body.is_ancestor(inner.op(), owner)
                }
            });
            if used_later {
                live.push(r);
            }
        }
    }
    Ok(Split {
        args: body.block_args(block).to_vec(),
        prologue,
        epilogue,
        terminator,
        live,
    })
}

/// Clones one iteration of `inner`'s body with arguments `f0` at the
/// insertion point (other values read through `map`, which the clone
/// extends); returns the next state.
pub(super) fn emit_iteration(b: &mut Builder<'_>, inner: LoopForm, f0: &[Value], map: &mut ValueMap) -> Vec<Value> {
    let block = inner.body_block(b).expect("checked: one block");
    let bargs: Vec<Value> = b.body().block_args(block).to_vec();
    for (a, v) in bargs.into_iter().zip(f0) {
        map.map(a, *v);
    }
    b.clone_block_ops(block, map, true);
    let term = b.body().terminator(block).expect("a terminator");
    let yielded: Vec<Value> = b.body().operands(term).map(|v| map.lookup(v)).collect();
    inner.emit_next(b, f0, &yielded, map)
}

/// The prologue loads of the outer loop's body (split as `s`) to issue one
/// outer iteration ahead, when `enabled` and any can be ([`prefetch::plan`]).
pub(super) fn plan_prefetch(b: &Builder<'_>, outer: LoopForm, s: &Split, enabled: bool) -> Option<Prefetch> {
    let iv = *s.args.first()?;
    enabled.then(|| prefetch::plan(b, outer, &s.prologue, iv)).flatten()
}

/// The types the entry needs zeros of when the outer loop may not run:
/// `Err` names one without a zero constant.
pub fn check_entry(b: &Builder<'_>, outer: LoopForm, inner: LoopForm) -> Result<(), String> {
    let s = split(b, outer, inner)?;
    if outer.runs_at_least_once(b) {
        return Ok(());
    }
    let mut tys = types(b, &s.live);
    tys.extend(inner.state_types(b));
    let ctx = b.ctx();
    for t in tys {
        if !ArithConstantOp::has_zero(ctx, t) {
            return Err(format!(
                "a value of type {} lives across the transition and the enclosing loop may run zero times \
(no zero constant of that type for the entry)",
                lf_ir::printer::type_to_string(ctx, t)
            ));
        }
    }
    Ok(())
}

/// Clones the prologue for the outer arguments `args`; returns the live
/// values and the inner loop's initial state. With `prefetched`, the
/// prefetched loads are not cloned: their values are given.
fn clone_prologue(
    b: &mut Builder<'_>,
    s: &Split,
    inner: LoopForm,
    args: &[Value],
    prefetched: Option<(&Prefetch, &[Value])>,
) -> ValueList {
    clone_prologue_map(b, s, inner, args, prefetched).0
}

/// [`clone_prologue`], also returning the map of the clone (the prologue's
/// values to their copies).
pub(super) fn clone_prologue_map(
    b: &mut Builder<'_>,
    s: &Split,
    inner: LoopForm,
    args: &[Value],
    prefetched: Option<(&Prefetch, &[Value])>,
) -> (ValueList, ValueMap) {
    let mut m = ValueMap::default();
    for (a, v) in s.args.iter().zip(args) {
        m.map(*a, *v);
    }
    if let Some((pf, values)) = prefetched {
        for (k, &v) in values.iter().enumerate() {
            m.map(b.body().result(pf.carried_op(k), 0), v);
        }
    }
    for &op in &s.prologue {
        if !prefetched.is_some_and(|(pf, _)| pf.computes(op)) {
            b.clone_op(op, &mut m);
        }
    }
    let mut out: ValueList = s.live.iter().map(|&v| m.lookup(v)).collect();
    out.extend(inner.emit_init(b, &m));
    (out, m)
}

/// The merged loop's entry: the outer condition on its initial state and,
/// when it holds, `enter` (the first prologue) on the forwarded values;
/// zeros of `entered_types` when the outer loop may not run and does not.
/// Returns the forwarded values, what `enter` gave, and the initial
/// `active` flag.
pub(super) fn enter_outer(
    b: &mut Builder<'_>,
    outer: LoopForm,
    entered_types: &[Type],
    enter: &dyn Fn(&mut Builder<'_>, &[Value]) -> ValueList,
) -> (Vec<Value>, ValueList, Value) {
    let i1 = b.ctx().common().i1;
    let init1 = outer.emit_init(b, &ValueMap::default());
    let (c1, f1) = outer.emit_cond(b, &init1, &mut ValueMap::default());
    if outer.runs_at_least_once(b) {
        // The outer loop runs: its entry test is not needed.
        if !b.body().has_uses(c1) {
            if let Some(test) = b.body().defining_op(c1) {
                b.erase_op(test);
            }
        }
        let t = ArithConstantOp::int(b, 1, i1);
        let entered = enter(b, &f1);
        return (f1, entered, t);
    }
    let entry = ScfIfOp::build(
        b,
        c1,
        entered_types,
        |b| enter(b, &f1),
        Some(&mut |b: &mut Builder<'_>| {
            entered_types
                .iter()
                .map(|&t| ArithConstantOp::zero(b, t).expect("checked by check_entry"))
                .collect()
        }),
    );
    let entered = b.body().results(entry.op()).collect();
    (f1, entered, c1)
}

/// The head of a transition: the inner loop's results are `results0`, the
/// epilogue runs (reading through `m`), the outer loop steps from `fa`;
/// returns the outer condition and forwarded values of the next iteration.
pub(super) fn step_outer(
    b: &mut Builder<'_>,
    s: &Split,
    outer: LoopForm,
    inner: LoopForm,
    m: &ValueMap,
    fa: &[Value],
    results0: &[Value],
) -> (Value, Vec<Value>) {
    let mut mt = m.clone();
    let results: Vec<Value> = b.body().results(inner.op()).collect();
    for (r, v) in results.into_iter().zip(results0) {
        mt.map(r, *v);
    }
    for &op in &s.epilogue {
        b.clone_op(op, &mut mt);
    }
    let yielded: Vec<Value> = b.body().operands(s.terminator).map(|v| mt.lookup(v)).collect();
    let next1 = outer.emit_next(b, fa, &yielded, &mt);
    outer.emit_cond(b, &next1, &mut mt)
}

/// Replaces the outer loop's results by the forwarded values among the
/// first `nf` results of the merged loop `w`, and erases the outer loop.
pub(super) fn replace_outer(b: &mut Builder<'_>, outer: LoopForm, w: OpId, nf: usize) {
    let results: Vec<Value> = b.body().results(w).take(nf).collect();
    let outer_results: Vec<Value> = b.body().results(outer.op()).collect();
    for (r, v) in outer_results.into_iter().zip(outer.results_of(&results)) {
        b.replace_all_uses_with(r, v);
    }
    b.erase_op(outer.op());
}

/// Merges `inner` with `outer` (whose body holds it directly), replacing
/// `outer` by the merged `scf.while` at the same place. With
/// `with_prefetch`, the prologue's loads that allow it are issued one outer
/// iteration ahead ([`prefetch`]); the result says how many.
pub fn merge(b: &mut Builder<'_>, outer: LoopForm, inner: LoopForm, with_prefetch: bool) -> Result<Merged, String> {
    let s = split(b, outer, inner)?;
    let pf = plan_prefetch(b, outer, &s, with_prefetch);
    let pf_types = pf.as_ref().map(|p| p.types(b)).unwrap_or_default();
    let np = pf_types.len();
    let outer_op = outer.op();
    b.set_insertion_point_before(outer_op);
    b.set_loc_of(outer_op);
    let i1 = b.ctx().common().i1;
    let arg_types = types(b, &s.args);
    let mut carried_types = types(b, &s.live);
    carried_types.extend(inner.state_types(b));
    let (nf, nl) = (s.args.len(), s.live.len());

    // Entry: the outer condition on its initial state, the first prologue.
    let (f1, carried, active) = enter_outer(b, outer, &carried_types, &|b, f1| {
        clone_prologue(b, &s, inner, f1, None)
    });
    let mut inits: Vec<Value> = f1.clone();
    inits.extend(carried.iter().copied());
    if let Some(pf) = &pf {
        inits.extend(prefetch::emit_first(b, pf, outer, (s.args[0], f1[0])));
    }
    inits.push(active);
    let mut state_types = arg_types.clone();
    state_types.extend(carried_types.iter().copied());
    state_types.extend(pf_types.iter().copied());
    state_types.push(i1);

    let (mut trip_if, mut prologue_if, mut prefetch_if) = (None, None, None);
    let w = ScfWhileOp::build(
        b,
        &inits,
        &state_types,
        |_, args| (*args.last().expect("the active flag"), args.iter().copied().collect()),
        |b, args| {
            let (fa, rest) = args.split_at(nf);
            let (la, rest) = rest.split_at(nl);
            let (sa, rest) = rest.split_at(rest.len() - 1 - np);
            let pa = &rest[..np];
            let mut m = ValueMap::default();
            for (a, v) in s.args.iter().zip(fa) {
                m.map(*a, *v);
            }
            for (l, v) in s.live.iter().zip(la) {
                m.map(*l, *v);
            }
            let (c0, f0) = inner.emit_cond(b, sa, &mut m);
            let mut then_map = m.clone();
            let trip = ScfIfOp::build(
                b,
                c0,
                &state_types,
                |b| {
                    let next = emit_iteration(b, inner, &f0, &mut then_map);
                    let t = ArithConstantOp::int(b, 1, i1);
                    let mut out: ValueList = fa.iter().chain(la).copied().collect();
                    out.extend(next);
                    out.extend(pa.iter().copied());
                    out.push(t);
                    out
                },
                Some(&mut |b: &mut Builder<'_>| {
                    let (c1n, f1n) = step_outer(b, &s, outer, inner, &m, fa, &inner.results_of(&f0));
                    let keep: Vec<Value> = la.iter().chain(sa).copied().collect();
                    let pro = ScfIfOp::build(
                        b,
                        c1n,
                        &carried_types,
                        |b| clone_prologue(b, &s, inner, &f1n, pf.as_ref().map(|p| (p, pa))),
                        Some(&mut |_: &mut Builder<'_>| keep.iter().copied().collect()),
                    );
                    prologue_if = Some(pro.op());
                    let mut out: ValueList = f1n.iter().copied().collect();
                    out.extend(b.body().results(pro.op()));
                    if let Some(pf) = &pf {
                        // The loads of the outer iteration after the next.
                        let next = prefetch::emit(b, pf, outer, (s.args[0], f1n[0]), pa, None);
                        prefetch_if = b.body().defining_op(next[0]);
                        out.extend(next);
                    }
                    out.push(c1n);
                    out
                }),
            );
            trip_if = Some(trip.op());
            b.body().results(trip.op()).collect()
        },
    );
    replace_outer(b, outer, w.op(), nf);
    Ok(Merged {
        while_op: w.op(),
        trip_if: trip_if.expect("the trip's if was built"),
        prologue_if: prologue_if.expect("the prologue's if was built"),
        prefetch_if,
        prefetched: np,
        body_ifs: Vec::new(),
    })
}
