//! `affine-loop-invariant-code-motion`: ops of an `affine.for` body that do
//! not depend on the loop move before the loop, as
//! `mlir-opt --affine-loop-invariant-code-motion` does
//! (`AffineLoopInvariantCodeMotion.cpp`).
//!
//! Loops are visited innermost first (post-order), so what leaves an inner
//! loop may leave the outer one next. An op of the body is invariant when
//! none of its operands is the loop's induction variable, one of its
//! `iter_args`, or the result of an op of the body that stays; an
//! `affine.for`, `affine.if` or `affine.parallel` when every op nested in
//! it is (operands from inside it are fine); an op with memory effects only
//! when it is an affine load or store (scalar or vector) whose memref no
//! other op in the loop writes (for a store: reads or writes). Invariant
//! ops move before the loop in their order.
//!
//! MLIR 22's pass does not check that the loop runs, nor what an op with
//! unknown effects does; lf does, so that a hoist is never wrong (see
//! [`INFO`]'s description and `docs/design/affine-scalrep-licm.md`).

use crate::affine::utils::intervening_effects::affine_access_memref;
use crate::affine::utils::memref_alias::is_memref;
use crate::affine::utils::validity::is_affine_scope;
use crate::affine::{AffineForOp, AffineIfOp, AffineParallelOp, AffineStoreOp, AffineVectorStoreOp, AffineYieldOp};
use lf_ir::affine::AffineExpr;
use lf_ir::builder::Builder;
use lf_ir::interfaces::{is_memory_effect_free, is_speculatable, memory_effects, Effect};
use lf_ir::view::OpView;
use lf_ir::walk::{walk, walk_regions, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, RegionId, Traits, Value};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use rustc_hash::{FxHashMap, FxHashSet};

/// The registration record of `affine-loop-invariant-code-motion`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-loop-invariant-code-motion",
    summary: "Hoist loop invariant instructions outside of affine loops",
    description: "Moves the ops of each `affine.for` body that do not depend on the loop right \
before the loop, innermost loops first (so that they may leave the enclosing loops next), as \
`mlir-opt --affine-loop-invariant-code-motion` does. An op is invariant when no operand is the \
loop's induction variable, one of its `iter_args`, or a result of an op of the body that stays; \
an `affine.for`, `affine.if` or `affine.parallel` when all the ops nested in it are; an op with \
memory effects only when it is an affine load or store (scalar or vector) and no other op in \
the loop writes its memref (for a store: reads or writes it).\n\n\
Two rules keep lf's hoists correct where MLIR 22's are not: an op that is not pure \
(speculatable and effect-free: loads, stores, divisions, nested loops or conditionals holding \
them) moves only out of a loop known to run at least once (every upper bound minus every \
lower bound a positive constant), as later MLIR does; and an affine load or store stays when \
the loop holds an op with unknown memory effects (a call, an unregistered op), an effect on \
unnamed memory, or an op that uses the memref without being a plain access (a view of it, a \
region op taking it). Distinct memref values are taken not to alias, as by MLIR. With \
`remarks`, an op left in the loop by these rules gets a remark saying why (lf only).",
    anchor: Anchor::Op("func.func"),
    options: &[PassOption {
        name: "remarks",
        kind: OptionKind::Bool,
        default: "false",
        help: "Remark on each op left in its loop by lf's safety rules, saying why (lf only)",
    }],
    create: |opts| {
        Ok(Box::new(AffineLicm {
            remarks: opts.bool("remarks"),
        }))
    },
};

/// The `affine-loop-invariant-code-motion` pass.
pub struct AffineLicm {
    /// Whether ops kept by lf's safety rules get remarks.
    pub remarks: bool,
}

impl Pass for AffineLicm {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let moved = {
            let mut b = op.builder();
            hoist_invariant_code(&mut b, &regions, self.remarks)
        };
        op.add_statistic("num-hoisted", "Ops moved out of their loop", moved);
        if moved == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}

/// Runs the pass on the loops under `regions`; returns how many ops moved.
pub fn hoist_invariant_code(b: &mut Builder<'_>, regions: &[RegionId], remarks: bool) -> u64 {
    let (ctx, body) = (b.ctx(), b.body());
    let mut loops = Vec::new();
    walk_regions(body, regions, WalkOrder::PostOrder, &mut |inner, op| {
        if !std::ptr::eq(inner, body) {
            return WalkControl::Skip;
        }
        if let Some(f) = AffineForOp::cast(&(ctx, inner), op) {
            loops.push(f);
        }
        WalkControl::Advance
    });
    let mut moved = 0;
    let mut unknown_users = FxHashMap::default();
    for for_op in loops {
        moved += hoist_from(b, for_op, remarks, &mut unknown_users);
    }
    moved
}

/// Whether `for_op` runs at least once: each upper bound minus each lower
/// bound (same operands) is a positive constant.
pub fn runs_at_least_once<'c>(ir: &impl lf_ir::view::Ir<'c>, for_op: AffineForOp) -> bool {
    let (lb, ub) = (for_op.lower_bound(ir), for_op.upper_bound(ir));
    if lb.operands != ub.operands || lb.map.num_dims() != ub.map.num_dims() {
        return false;
    }
    let diffs = ub
        .map
        .results()
        .iter()
        .flat_map(|u| lb.map.results().iter().map(move |l| u.sub(l)));
    let map = lf_ir::affine::AffineMap::new(
        lb.map.num_dims(),
        lb.map.num_symbols().max(ub.map.num_symbols()),
        diffs.collect::<Vec<AffineExpr>>(),
    );
    let simplified = map.simplify();
    !simplified.results().is_empty()
        && simplified
            .results()
            .iter()
            .all(|e| e.as_constant().is_some_and(|c| c >= 1))
}

/// Whether `op` may run where it would not have: effect-free and, with the
/// ops nested in it, speculatable (the region ops of the affine dialect
/// count as speculatable themselves).
fn is_pure_tree(ctx: &Context, body: &Body, op: OpId) -> bool {
    let mut ok = true;
    walk(body, op, WalkOrder::PreOrder, &mut |b, o| {
        let ir = (ctx, b);
        let structural = AffineForOp::isa(&ir, o) || AffineIfOp::isa(&ir, o) || AffineParallelOp::isa(&ir, o);
        let fine = if structural {
            // Their own effects are their nested ops'.
            ctx.op_def(b.op_name(o))
                .and_then(lf_ir::interfaces::own_effect_kinds)
                .is_some_and(|k| k.all().is_empty())
        } else {
            AffineYieldOp::isa(&ir, o) || is_speculatable(ctx, b, o)
        };
        if !fine {
            ok = false;
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    ok
}

/// What lf's safety rules and the memref checks need to know of a loop,
/// found in one walk of its ops (in the loop's body, not in nested bodies).
#[derive(Default)]
struct LoopFacts {
    /// An op with unknown effects, or an effect on unnamed memory: (op, writes?).
    /// The first that writes, in program order; else the first that reads.
    opaque: Option<(OpId, bool)>,
    /// The ops in the loop (as [`encloses_in_scope`] counts them: not inside
    /// an affine scope nested in the loop) using each memref.
    users: FxHashMap<Value, Vec<OpId>>,
}

fn loop_facts(ctx: &Context, body: &Body, for_op: OpId) -> LoopFacts {
    let mut facts = LoopFacts::default();
    let (mut first_write, mut first_read) = (None, None);
    let mut visit = |o: OpId, in_scope: bool| {
        if in_scope {
            for v in body.operands(o) {
                if is_memref(ctx, body, v) {
                    let list = facts.users.entry(v).or_default();
                    if list.last() != Some(&o) {
                        list.push(o);
                    }
                }
            }
        }
        if first_write.is_none() {
            match opaque_effect(ctx, body, o) {
                Some(true) => first_write = Some(o),
                Some(false) if first_read.is_none() => first_read = Some(o),
                _ => {}
            }
        }
    };
    visit_nested(body, for_op, true, &mut |o, in_scope| {
        visit(o, in_scope);
        // Below an affine scope the ops no longer count as in the loop.
        in_scope && !is_affine_scope(ctx, body, o)
    });
    facts.opaque = first_write.map(|o| (o, true)).or(first_read.map(|o| (o, false)));
    facts
}

/// Calls `f` on every op nested in `op` in program order (parents first),
/// with the flag `f` returned for the op around it (`in_scope` for the
/// ops directly in `op`); ops in nested bodies are not visited.
fn visit_nested(body: &Body, op: OpId, in_scope: bool, f: &mut dyn FnMut(OpId, bool) -> bool) {
    if body.nested_body(op).is_some() {
        return;
    }
    for &r in body.regions(op) {
        for blk in body.region_blocks(r) {
            for o in body.block_ops(blk) {
                let inner = f(o, in_scope);
                visit_nested(body, o, inner, f);
            }
        }
    }
}

/// Whether `o` has unknown effects or an effect on unnamed memory:
/// `Some(true)` when it may write, `Some(false)` when it only reads.
fn opaque_effect(ctx: &Context, body: &Body, o: OpId) -> Option<bool> {
    let Some(def) = ctx.op_def(body.op_name(o)) else {
        return Some(true);
    };
    if def.has(Traits::PURE) {
        return None;
    }
    if !def.has(Traits::MEMORY_EFFECTS) {
        // A recursive-effects op's own effects are its nested ops'.
        return (!def.has(Traits::RECURSIVE_MEMORY_EFFECTS)).then_some(true);
    }
    let Some(effects) = memory_effects(ctx, body, o) else {
        return Some(true);
    };
    let mut reads = false;
    for e in effects.iter().filter(|e| e.value.is_none() && e.op == o) {
        if matches!(e.effect, Effect::Write | Effect::Free) {
            return Some(true);
        }
        reads |= e.effect == Effect::Read;
    }
    reads.then_some(false)
}

/// The state of one loop's analysis (MLIR's `opsWithUsers`, `opsToHoist`).
struct Hoisting<'a> {
    ctx: &'a Context,
    body: &'a Body,
    for_op: AffineForOp,
    iv: Value,
    iter_args: Vec<Value>,
    with_users: FxHashSet<OpId>,
    to_hoist: FxHashSet<OpId>,
    /// Computed when an access first needs them.
    facts: Option<LoopFacts>,
    /// Per memref of the function: the ops using it whose effects on it are
    /// unknown ([`Hoisting::conflicts`] answers `None`). The pass only moves
    /// ops, so the lists hold for all its loops.
    unknown_users: &'a mut FxHashMap<Value, Vec<OpId>>,
    /// Whether kept accesses get remarks (then the first user in use order
    /// that keeps an access must be found, for its remark).
    remarks: bool,
    /// Why lf's rules kept an access (for a remark).
    kept: Option<(OpId, String)>,
}

impl Hoisting<'_> {
    fn all_invariant(&mut self, region: RegionId) -> bool {
        let body = self.body;
        for blk in body.region_blocks(region) {
            for op in body.block_ops(blk) {
                if !self.is_invariant(op) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `user`, an op using `memref`, conflicts with an access that
    /// writes (`writes`) or only reads: MLIR's rule, plus lf's for users
    /// that are not plain accesses.
    fn conflicts(&self, user: OpId, memref: Value, writes: bool) -> Option<bool> {
        let (ctx, body) = (self.ctx, self.body);
        // An affine load or store touches only the memref it accesses: its
        // effects are known without being listed.
        if affine_access_memref(ctx, body, user) == Some(memref) {
            let ir = (ctx, body);
            let user_writes = AffineStoreOp::isa(&ir, user) || AffineVectorStoreOp::isa(&ir, user);
            return Some(user_writes || writes);
        }
        let def = ctx.op_def(body.op_name(user));
        let plain = def.is_some_and(|d| d.has(Traits::MEMORY_EFFECTS) && body.regions(user).is_empty());
        if !plain {
            let is_view =
                def.is_some_and(|d| d.has(Traits::PURE)) && body.results(user).any(|r| is_memref(ctx, body, r));
            if def.is_some_and(|d| d.has(Traits::PURE)) && !is_view {
                return Some(false); // memref.dim and the like
            }
            return None; // lf: a view or a region op or an unknown op: anything may happen
        }
        let effects = memory_effects(ctx, body, user)?;
        let on = |k: Effect| effects.iter().any(|e| e.effect == k && e.value == Some(memref));
        Some(on(Effect::Write) || (on(Effect::Read) && writes))
    }

    fn is_invariant(&mut self, op: OpId) -> bool {
        let (ctx, body) = (self.ctx, self.body);
        let ir = (ctx, body);
        if let Some(if_op) = AffineIfOp::cast(&ir, op) {
            for r in [if_op.then_region(&ir), if_op.else_region(&ir)] {
                if !self.all_invariant(r) {
                    return false;
                }
            }
        } else if let Some(f) = AffineForOp::cast(&ir, op) {
            if !self.all_invariant(f.region(&ir)) {
                return false;
            }
        } else if let Some(p) = AffineParallelOp::cast(&ir, op) {
            if !self.all_invariant(p.region(&ir)) {
                return false;
            }
        } else if let Some(memref) = affine_access_memref(ctx, body, op) {
            self.with_users.insert(op);
            let writes = AffineStoreOp::isa(&ir, op) || AffineVectorStoreOp::isa(&ir, op);
            let for_op = self.for_op.op();
            let facts = self.facts.get_or_insert_with(|| loop_facts(ctx, body, for_op));
            if let Some((o, w)) = facts.opaque {
                if w || writes {
                    let name = ctx.op_name_str(body.op_name(o));
                    self.kept = Some((op, format!("not hoisted: '{name}' in the loop may access any memory")));
                    return false;
                }
            }
            if !self.remarks || self.unknown_users_of(memref).is_empty() {
                return self.no_conflict_in_loop(op, memref, writes) && self.operands_invariant(op);
            }
            // A user with several uses of the memref is looked at once per
            // use: the answer is the same each time.
            for u in body.uses(memref) {
                let user = body.use_owner(u);
                if user == op {
                    continue;
                }
                let conflict = self.conflicts(user, memref, writes);
                if conflict == Some(false) {
                    continue;
                }
                let inside = encloses_in_scope(ctx, body, self.for_op.op(), user)
                    || (conflict.is_none() && body.is_ancestor(self.for_op.op(), user));
                if conflict.is_none() && !inside {
                    // lf: a view made outside the loop may be accessed inside it.
                    let name = ctx.op_name_str(body.op_name(user));
                    if body.results(user).any(|r| is_memref(ctx, body, r)) {
                        self.kept = Some((op, format!("not hoisted: the memref has a view ('{name}')")));
                        return false;
                    }
                    continue;
                }
                if inside {
                    if conflict.is_none() {
                        let name = ctx.op_name_str(body.op_name(user));
                        self.kept = Some((op, format!("not hoisted: '{name}' in the loop uses the memref")));
                    }
                    return false;
                }
            }
        } else if !is_memory_effect_free(ctx, body, op) {
            return false;
        }
        self.operands_invariant(op)
    }

    /// The last step of [`Self::is_invariant`]: no operand is the induction
    /// variable, an `iter_arg` or a result of a body op that stays; if so,
    /// `op` is marked to move.
    fn operands_invariant(&mut self, op: OpId) -> bool {
        let body = self.body;
        for v in body.operands(op) {
            if v == self.iv || self.iter_args.contains(&v) {
                return false;
            }
            if let Some(d) = body.defining_op(v) {
                if self.with_users.contains(&d) && !self.to_hoist.contains(&d) {
                    return false;
                }
            }
        }
        self.to_hoist.insert(op);
        true
    }

    /// The ops using `memref` whose effects on it are unknown.
    fn unknown_users_of(&mut self, memref: Value) -> &[OpId] {
        if !self.unknown_users.contains_key(&memref) {
            let body = self.body;
            // `conflicts` answers `None` or not whatever the access writes.
            let mut unknown: Vec<OpId> = body
                .uses(memref)
                .map(|u| body.use_owner(u))
                .filter(|&user| self.conflicts(user, memref, false).is_none())
                .collect();
            unknown.dedup();
            self.unknown_users.insert(memref, unknown);
        }
        &self.unknown_users[&memref]
    }

    /// Whether no user of `memref` other than `op` keeps `op` in the loop:
    /// the answer of the walk over all users in [`Self::is_invariant`],
    /// without its remark. Only the users in the loop and the users of
    /// unknown effects can keep it (those inside the loop, or making a view
    /// of the memref anywhere), so only those are asked.
    fn no_conflict_in_loop(&mut self, op: OpId, memref: Value, writes: bool) -> bool {
        let (ctx, body, for_op) = (self.ctx, self.body, self.for_op.op());
        let unknown_ok = self
            .unknown_users_of(memref)
            .iter()
            .all(|&u| u == op || !(body.is_ancestor(for_op, u) || body.results(u).any(|r| is_memref(ctx, body, r))));
        if !unknown_ok {
            return false;
        }
        self.facts.get_or_insert_with(|| loop_facts(ctx, body, for_op));
        let users = self.facts.as_ref().and_then(|f| f.users.get(&memref));
        users.is_none_or(|users| {
            users
                .iter()
                .all(|&u| u == op || self.conflicts(u, memref, writes) == Some(false))
        })
    }
}

/// Whether `for_op` is one of the loops around `user` inside its affine scope
/// (MLIR's `getAffineForIVs(user)` holds its induction variable), found by
/// walking up from `user` without listing the loops.
fn encloses_in_scope(ctx: &Context, body: &Body, for_op: OpId, user: OpId) -> bool {
    let mut cur = body.parent_op(user);
    while let Some(p) = cur {
        if p == for_op {
            return true;
        }
        if is_affine_scope(ctx, body, p) {
            return false;
        }
        cur = body.parent_op(p);
    }
    false
}

/// Moves the invariant ops of `for_op`'s body before it; returns how many.
fn hoist_from(
    b: &mut Builder<'_>,
    for_op: AffineForOp,
    remarks: bool,
    unknown_users: &mut FxHashMap<Value, Vec<OpId>>,
) -> u64 {
    let (ctx, body) = (b.ctx(), b.body());
    let ir = (ctx, body);
    let guaranteed = runs_at_least_once(&ir, for_op);
    let mut h = Hoisting {
        ctx,
        body,
        for_op,
        iv: for_op.iv(&ir),
        iter_args: for_op.region_iter_args(&ir).to_vec(),
        with_users: FxHashSet::default(),
        to_hoist: FxHashSet::default(),
        facts: None,
        unknown_users,
        remarks,
        kept: None,
    };
    let mut to_move = Vec::new();
    let mut notes = Vec::new();
    let block = for_op.region_block(&ir);
    for op in body.block_ops(block) {
        if body.results(op).any(|r| body.has_uses(r)) {
            h.with_users.insert(op);
        }
        if AffineYieldOp::isa(&ir, op) {
            continue;
        }
        if !guaranteed && !is_pure_tree(ctx, body, op) {
            if remarks && h.is_invariant(op) {
                notes.push((
                    op,
                    "not hoisted: the loop may run zero times and the op is not pure".to_string(),
                ));
            }
            // lf: not hoisted, so its results are not invariant.
            h.to_hoist.remove(&op);
            h.with_users.insert(op);
            continue;
        }
        h.kept = None;
        if h.is_invariant(op) {
            to_move.push(op);
        } else if let Some(k) = h.kept.take().filter(|_| remarks) {
            notes.push(k);
        }
    }
    for op in &to_move {
        b.move_op_before(*op, for_op.op());
    }
    for (op, message) in notes {
        b.remark(op, message);
    }
    to_move.len() as u64
}
