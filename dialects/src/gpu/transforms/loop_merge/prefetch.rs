//! The next outer iteration's prologue loads, issued one transition ahead.
//!
//! In a merged loop the lanes of a warp take their transitions at different
//! trips, so a load in the inner prologue (typically the next inner trip
//! count) stalls the warp once per lane instead of once per outer
//! iteration. When the nest writes no memory, the loads of the prologue
//! whose addresses depend only on the outer induction variable and values
//! from outside the nest are loaded for iteration `o + 1` while iteration
//! `o` runs (carried in the merged loop's state), under the guard `o + step
//! < ub`, so no load goes past the last iteration (what the hand-written
//! SYN-LM kernels do; DIGEST §004.7 for the same idea in seed 004).

use super::shape::LoopForm;
use crate::affine::AffineLoadOp;
use crate::memref::MemrefLoadOp;
use crate::scf::ScfIfOp;
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::view::{OpView, ValueList};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{OpId, Type, Value};

/// The prologue loads to prefetch and the pure ops their addresses need.
pub struct Prefetch {
    /// The loads, in order.
    pub loads: Vec<OpId>,
    /// The address ops, in order.
    pub slice: Vec<OpId>,
    /// Per load, the pure ops of the prologue that only convert it (each
    /// the single use of the previous value, its other operands from
    /// outside the nest: SYN-LM's `extui` and `index_cast` of the loaded
    /// `i8` trip count). The merged loop carries the last one's value: a
    /// narrow loaded value carried instead would be widened again on every
    /// trip (measured 8% slower on an H200).
    pub chains: Vec<Vec<OpId>>,
}

impl Prefetch {
    /// The op whose result the merged loop carries for load `k`.
    pub fn carried_op(&self, k: usize) -> OpId {
        self.chains[k].last().copied().unwrap_or(self.loads[k])
    }

    /// The carried types.
    pub fn types(&self, b: &Builder<'_>) -> Vec<Type> {
        (0..self.loads.len())
            .map(|k| b.body().value_type(b.body().result(self.carried_op(k), 0)))
            .collect()
    }

    /// Whether `op` is computed by the prefetch (a load or a conversion of
    /// one), so a prologue clone that is given the carried values skips it.
    pub fn computes(&self, op: OpId) -> bool {
        self.loads.contains(&op) || self.chains.iter().any(|c| c.contains(&op))
    }
}

/// The pure ops after `load` in `prologue` that only convert its value:
/// each the single use of the previous value, with one result and its
/// other operands defined outside `outer`.
fn conversion_chain(b: &Builder<'_>, outer: OpId, prologue: &[OpId], load: OpId) -> Vec<OpId> {
    let (ctx, body) = (b.ctx(), b.body());
    let mut chain = Vec::new();
    let mut cur = body.result(load, 0);
    loop {
        let mut uses = body.uses(cur);
        let (Some(u), None) = (uses.next(), uses.next()) else {
            break;
        };
        let user = body.use_owner(u);
        let converts = prologue.contains(&user)
            && body.num_regions(user) == 0
            && body.num_results(user) == 1
            && memory_effects(ctx, body, user).is_some_and(|e| e.is_empty())
            && body
                .operands(user)
                .all(|v| v == cur || !body.is_defined_inside(v, outer))
            && crate::arith::ArithConstantOp::has_zero(ctx, body.value_type(body.result(user, 0)));
        if !converts {
            break;
        }
        chain.push(user);
        cur = body.result(user, 0);
    }
    chain
}

/// The prologue loads of `outer`'s body (`prologue`, whose first body
/// argument is the induction variable `iv`) that can be issued one
/// iteration ahead, if any: `outer` is a `for` loop, the nest writes no
/// memory and has no op of unknown effects, and the load's address is
/// computed by pure ops of the prologue from `iv` and values from outside.
pub fn plan(b: &Builder<'_>, outer: LoopForm, prologue: &[OpId], iv: Value) -> Option<Prefetch> {
    if matches!(outer, LoopForm::While(_)) || !writes_nothing(b, outer.op()) {
        return None;
    }
    let (ctx, body) = (b.ctx(), b.body());
    let mut slice: Vec<OpId> = Vec::new();
    let mut loads = Vec::new();
    for &op in prologue {
        let is_load = MemrefLoadOp::isa(b, op) || AffineLoadOp::isa(b, op);
        if !is_load {
            continue;
        }
        let mut needed = Vec::new();
        let mut uses_iv = false;
        let mut ok = true;
        let mut work: Vec<Value> = body.operands(op).collect();
        while let Some(v) = work.pop() {
            if v == iv {
                uses_iv = true;
                continue;
            }
            if !body.is_defined_inside(v, outer.op()) {
                continue;
            }
            match body.defining_op(v) {
                Some(d) if prologue.contains(&d) => {
                    let pure = body.num_regions(d) == 0 && memory_effects(ctx, body, d).is_some_and(|e| e.is_empty());
                    if !pure {
                        ok = false;
                        break;
                    }
                    if !needed.contains(&d) {
                        needed.push(d);
                        work.extend(body.operands(d));
                    }
                }
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        if ok && uses_iv {
            loads.push(op);
            for d in needed {
                if !slice.contains(&d) {
                    slice.push(d);
                }
            }
        }
    }
    if loads.is_empty() {
        return None;
    }
    let slice = prologue.iter().copied().filter(|o| slice.contains(o)).collect();
    let chains = loads
        .iter()
        .map(|&l| conversion_chain(b, outer.op(), prologue, l))
        .collect();
    let pf = Prefetch { loads, slice, chains };
    let zeroable = pf
        .types(b)
        .into_iter()
        .all(|t| crate::arith::ArithConstantOp::has_zero(ctx, t));
    zeroable.then_some(pf)
}

/// The loads of the outer iteration after the first one (at induction
/// variable `iv`; `body_iv` is the body's) for a merged loop's initial state,
/// zeros when the outer loop has no second iteration.
pub fn emit_first(b: &mut Builder<'_>, pf: &Prefetch, outer: LoopForm, (body_iv, iv): (Value, Value)) -> ValueList {
    let zeros: Vec<Value> = pf
        .types(b)
        .into_iter()
        .map(|t| crate::arith::ArithConstantOp::zero(b, t).expect("plan checks the types"))
        .collect();
    emit(b, pf, outer, (body_iv, iv), &zeros, None)
}

/// Whether nothing in `op` writes or frees memory (and every op's effects
/// are known).
fn writes_nothing(b: &Builder<'_>, op: OpId) -> bool {
    let mut ok = true;
    walk(b.body(), op, WalkOrder::PreOrder, &mut |body, o| {
        if o == op || body.num_regions(o) > 0 {
            return WalkControl::Advance;
        }
        match memory_effects(b.ctx(), body, o) {
            Some(es) if es.iter().all(|e| matches!(e.effect, Effect::Read | Effect::Alloc)) => WalkControl::Advance,
            _ => {
                ok = false;
                WalkControl::Interrupt
            }
        }
    });
    ok
}

/// Emits at the insertion point the loads of `pf` (and their conversions)
/// for the outer iteration
/// after the one at induction variable `iv` (of loop `outer`, whose body's
/// induction variable is `body_iv`), under `next < ub`; `fallback` is what
/// the guard yields when there is no next iteration (or `when`, if given,
/// does not hold). Returns the carried values.
pub fn emit(
    b: &mut Builder<'_>,
    pf: &Prefetch,
    outer: LoopForm,
    (body_iv, iv): (Value, Value),
    fallback: &[Value],
    when: Option<Value>,
) -> ValueList {
    let next = outer.emit_next(b, &[iv], &[], &ValueMap::default())[0];
    let (mut guard, _) = outer.emit_cond(b, &[next], &mut ValueMap::default());
    if let Some(w) = when {
        guard = crate::arith::ArithAndiOp::build(b, w, guard).result(b);
    }
    let types = pf.types(b);
    let fallback = fallback.to_vec();
    let guarded = ScfIfOp::build(
        b,
        guard,
        &types,
        |b| {
            let mut m = ValueMap::default();
            m.map(body_iv, next);
            for &op in &pf.slice {
                b.clone_op(op, &mut m);
            }
            (0..pf.loads.len())
                .map(|k| {
                    for &op in std::iter::once(&pf.loads[k]).chain(&pf.chains[k]) {
                        b.clone_op(op, &mut m);
                    }
                    m.lookup(b.body().result(pf.carried_op(k), 0))
                })
                .collect()
        },
        Some(&mut |_: &mut Builder<'_>| fallback.iter().copied().collect()),
    );
    b.body().results(guarded.op()).collect()
}
