//! `affine-scalrep`: store-to-load forwarding, dead store elimination and
//! redundant load elimination on `affine.load`/`affine.store`, as
//! `mlir-opt --affine-scalrep` does (`AffineScalarReplacement.cpp`,
//! `affineScalarReplace` in `Affine/Utils`).
//!
//! Four sweeps over the function, in MLIR's order:
//! 1. **Forwarding**: a load takes the value of a store when both access
//!    the same element (`same_access`), the store dominates the load, the
//!    dependence analysis finds the store reaching the load within their
//!    innermost common loop, and no op on the paths between them may write
//!    that element ([`has_no_intervening_effect`]).
//! 2. **Dead stores**: a store is erased when a later store to the same
//!    element in the same region post-dominates it with no possible read in
//!    between.
//! 3. **Dead memrefs**: a memref some load was forwarded from, allocated in
//!    the function and now only stored to (or deallocated), goes with its
//!    stores.
//! 4. **Redundant loads**: a load takes the value of an earlier load of the
//!    same element that dominates it with no possible write in between (of
//!    the candidates, the one that dominates the others).
//!
//! Dependences are decided as MLIR decides them ([`Precision::MlirCompatible`]).
//! Where lf differs: vector loads and stores are never forwarded or erased
//! (lf's dependence analysis does not model them) and count as possibly
//! touching any element of their memref; post-dominance is only found in
//! one block (a store in another block of a multi-block region is never
//! dead). Both only make lf do less.

use crate::affine::analysis::same_access::AccessMaps;
use crate::affine::analysis::{MemRefAccesses, Precision};
use crate::affine::utils::intervening_effects::{has_no_intervening_effect, num_common_surrounding_loops};
use crate::affine::{AffineLoadOp, AffineStoreOp, AffineVectorStoreOp};
use lf_ir::builder::Builder;
use lf_ir::dominance::DominanceInfo;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, RegionId, Value};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use rustc_hash::FxHashSet;

/// The registration record of `affine-scalrep`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-scalrep",
    summary: "Replace affine memref accesses by scalars by forwarding stores to loads and eliminating redundant loads",
    description: "Forwards the value of an `affine.store` to an `affine.load` of the same element \
(same memref, access maps equal after composing their `affine.apply` operands) when the store \
dominates the load, the dependence analysis finds that the store reaches the load, and no op \
between them may write that element; erases a store followed, in the same region, by a store \
to the same element that post-dominates it with no possible read in between; erases a memref \
allocated in the function (`memref.alloc`, `memref.alloca`) that a forwarded load read and that \
is now only stored to or deallocated; and replaces a load by an earlier load of the same \
element that dominates it with no possible write in between. An op between two accesses may \
write (read) the element when it has unknown memory effects, a write (read) effect on a memref \
that may alias (MLIR's local alias analysis: distinct allocations do not alias, an allocation \
does not alias a value from outside its scope, anything else may), or is an affine access with \
a dependence to the second access. The output is mlir-opt's. lf never forwards through vector \
loads and stores (they count as touching their whole memref). With `remarks`, a load left \
alone although a store to the same element dominates it gets a remark saying why (lf only).",
    anchor: Anchor::Op("func.func"),
    options: &[PassOption {
        name: "remarks",
        kind: OptionKind::Bool,
        default: "false",
        help: "Remark on each load not forwarded from a dominating store to the same element, saying why (lf only)",
    }],
    create: |opts| {
        Ok(Box::new(AffineScalRep {
            remarks: opts.bool("remarks"),
        }))
    },
};

/// The `affine-scalrep` pass.
pub struct AffineScalRep {
    /// Whether loads left alone get remarks.
    pub remarks: bool,
}

impl Pass for AffineScalRep {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let stats = {
            let mut b = op.builder();
            affine_scalar_replace(&mut b, &regions, self.remarks)
        };
        op.add_statistic("num-forwarded", "Loads replaced by a stored value", stats.forwarded);
        op.add_statistic("num-dead-stores", "Stores erased as overwritten", stats.dead_stores);
        op.add_statistic(
            "num-dead-memrefs",
            "Allocations erased with their stores",
            stats.dead_memrefs,
        );
        op.add_statistic(
            "num-redundant-loads",
            "Loads replaced by an earlier load",
            stats.redundant_loads,
        );
        if stats.forwarded + stats.dead_stores + stats.dead_memrefs + stats.redundant_loads == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}

/// What [`affine_scalar_replace`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScalRepStats {
    /// Loads replaced by a stored value.
    pub forwarded: u64,
    /// Stores erased because a later store overwrites them.
    pub dead_stores: u64,
    /// Allocations erased with their stores.
    pub dead_memrefs: u64,
    /// Loads replaced by an earlier load.
    pub redundant_loads: u64,
}

/// The ops of kind `T` under `regions` of the builder's body, in program order.
fn collect<T: OpView>(b: &Builder<'_>, regions: &[RegionId]) -> Vec<OpId> {
    let (ctx, body) = (b.ctx(), b.body());
    let mut out = Vec::new();
    walk_regions(body, regions, WalkOrder::PreOrder, &mut |inner, op| {
        if !std::ptr::eq(inner, body) {
            return WalkControl::Skip;
        }
        if T::isa(&(ctx, inner), op) {
            out.push(op);
        }
        WalkControl::Advance
    });
    out
}

/// The distinct ops using `v`, in use-list order.
fn users(body: &Body, v: Value) -> Vec<OpId> {
    let mut out: Vec<OpId> = Vec::new();
    for u in body.uses(v) {
        let owner = body.use_owner(u);
        if !out.contains(&owner) {
            out.push(owner);
        }
    }
    out
}

/// Whether `a` dominates `b` (MLIR's `DominanceInfo::dominates` on ops).
fn dominates(dom: &DominanceInfo, body: &Body, a: OpId, b: OpId) -> bool {
    a == b || dom.op_properly_dominates(body, a, b)
}

/// Whether `a` post-dominates `b`, two ops of one region: lf finds it in
/// one block only (`a` after `b`).
fn post_dominates(body: &Body, a: OpId, b: OpId) -> bool {
    a == b || (body.op_block(a) == body.op_block(b) && body.is_before_in_block(b, a))
}

/// Whether the dependence analysis finds that `store` reaches `load` within
/// their innermost common loop (MLIR's `mustReachAtInnermost`).
fn must_reach_at_innermost(ctx: &Context, body: &Body, deps: &MemRefAccesses, store: OpId, load: OpId) -> bool {
    let common = num_common_surrounding_loops(ctx, body, store, load);
    deps.check(ctx, body, store, load, common + 1, Precision::MlirCompatible, false)
        .has_dependence()
}

/// Why a store does not forward to a load, or `None` if it does.
fn forward_blocker(
    ctx: &Context,
    body: &Body,
    (deps, maps): (&MemRefAccesses, &mut AccessMaps),
    dom: &DominanceInfo,
    store: OpId,
    load: OpId,
) -> Result<(), &'static str> {
    if !dominates(dom, body, store, load) || !maps.same(ctx, body, store, load) {
        return Err("");
    }
    if !must_reach_at_innermost(ctx, body, deps, store, load) {
        return Err("the dependence analysis does not find that the store reaches the load");
    }
    if !has_no_intervening_effect(ctx, body, deps, store, load, Effect::Write) {
        return Err("an op between the store and the load may write to the memref");
    }
    Ok(())
}

/// MLIR's `affineScalarReplace` on the function under `regions` of the
/// builder's body. Remarks (with `remarks`) go to the builder.
pub fn affine_scalar_replace(b: &mut Builder<'_>, regions: &[RegionId], remarks: bool) -> ScalRepStats {
    let mut stats = ScalRepStats::default();
    let dom = DominanceInfo::compute_for(b.body(), regions);
    let ctx = b.ctx();

    // 1. Store-to-load forwarding.
    let mut deps = MemRefAccesses::new();
    let mut maps = AccessMaps::new();
    let mut erase: Vec<OpId> = Vec::new();
    let mut forwarded_memrefs: Vec<Value> = Vec::new();
    let mut notes: Vec<(OpId, String)> = Vec::new();
    for load in collect::<AffineLoadOp>(b, regions) {
        let body = b.body();
        let ir = (ctx, body);
        let l = AffineLoadOp::cast(&ir, load).expect("a load");
        let memref = l.memref(&ir);
        let mut chosen = None;
        let mut blocked = None;
        for user in users(body, memref) {
            let Some(s) = AffineStoreOp::cast(&ir, user) else {
                continue;
            };
            if s.memref(&ir) != memref {
                continue;
            }
            match forward_blocker(ctx, body, (&deps, &mut maps), &dom, user, load) {
                Ok(()) => {
                    chosen = Some(s);
                    break;
                }
                Err(why) if !why.is_empty() => blocked = Some(why),
                Err(_) => {}
            }
        }
        let result = l.result(&ir);
        match chosen {
            Some(s) => {
                let value = s.value(&ir);
                if body.value_type(value) != body.value_type(result) {
                    continue;
                }
                let index = ctx.type_data(body.value_type(result)).is_index();
                b.replace_all_uses_with(result, value);
                if index {
                    // The value may be an operand of an access map or bound: drop what was cached.
                    deps = MemRefAccesses::new();
                    maps = AccessMaps::new();
                }
                if !forwarded_memrefs.contains(&memref) {
                    forwarded_memrefs.push(memref);
                }
                erase.push(load);
                stats.forwarded += 1;
            }
            None => {
                if let Some(why) = blocked.filter(|_| remarks) {
                    notes.push((
                        load,
                        format!("load not forwarded from a store to the same element: {why}"),
                    ));
                }
            }
        }
    }
    for op in erase.drain(..) {
        b.erase_op(op);
    }

    // 2. Dead stores.
    let deps = MemRefAccesses::new();
    let mut maps = AccessMaps::new();
    for write_a in collect::<AffineStoreOp>(b, regions) {
        let body = b.body();
        let ir = (ctx, body);
        let memref = AffineStoreOp::cast(&ir, write_a).expect("a store").memref(&ir);
        let region_of = |op: OpId| body.op_block(op).and_then(|blk| body.block_region(blk));
        for write_b in users(body, memref) {
            let Some(s) = AffineStoreOp::cast(&ir, write_b) else {
                continue;
            };
            if write_b == write_a || s.memref(&ir) != memref || region_of(write_b) != region_of(write_a) {
                continue;
            }
            if !post_dominates(body, write_b, write_a) || !maps.same(ctx, body, write_b, write_a) {
                continue;
            }
            if !has_no_intervening_effect(ctx, body, &deps, write_a, write_b, Effect::Read) {
                continue;
            }
            erase.push(write_a);
            break;
        }
    }
    stats.dead_stores = erase.len() as u64;
    for op in erase.drain(..) {
        b.erase_op(op);
    }

    // 3. Memrefs now only stored to.
    for memref in forwarded_memrefs {
        let body = b.body();
        let Some(def) = body.defining_op(memref) else { continue };
        if !has_single_effect(ctx, body, def, memref, Effect::Alloc) {
            continue;
        }
        let owners = users(body, memref);
        let removable = owners.iter().all(|&u| {
            let ir = (ctx, body);
            AffineStoreOp::cast(&ir, u).is_some_and(|s| s.memref(&ir) == memref && s.value(&ir) != memref)
                || AffineVectorStoreOp::cast(&ir, u).is_some_and(|s| s.memref(&ir) == memref && s.value(&ir) != memref)
                || has_single_effect(ctx, body, u, memref, Effect::Free)
        });
        if !removable || owners.iter().any(|&u| body.results(u).any(|r| body.has_uses(r))) {
            continue;
        }
        for u in owners {
            b.erase_op(u);
        }
        b.erase_op(def);
        stats.dead_memrefs += 1;
    }

    // 4. Redundant loads.
    let mut deps = MemRefAccesses::new();
    let mut maps = AccessMaps::new();
    let mut erased: FxHashSet<OpId> = FxHashSet::default();
    for load_a in collect::<AffineLoadOp>(b, regions) {
        let body = b.body();
        let ir = (ctx, body);
        let la = AffineLoadOp::cast(&ir, load_a).expect("a load");
        let memref = la.memref(&ir);
        let result_a = la.result(&ir);
        let mut candidates: Vec<OpId> = Vec::new();
        for load_b in users(body, memref) {
            let Some(lb) = AffineLoadOp::cast(&ir, load_b) else {
                continue;
            };
            if load_b == load_a || lb.memref(&ir) != memref {
                continue;
            }
            if !dominates(&dom, body, load_b, load_a) || !maps.same(ctx, body, load_b, load_a) {
                continue;
            }
            if !has_no_intervening_effect(ctx, body, &deps, load_b, load_a, Effect::Write) {
                continue;
            }
            if body.value_type(lb.result(&ir)) != body.value_type(result_a) {
                continue;
            }
            candidates.push(load_b);
        }
        let best = candidates
            .iter()
            .copied()
            .find(|&c| candidates.iter().all(|&o| o == c || dominates(&dom, body, c, o)));
        let Some(best) = best.filter(|c| !erased.contains(c)) else {
            continue;
        };
        let value = AffineLoadOp::cast(&ir, best).expect("a load").result(&ir);
        let index = ctx.type_data(body.value_type(value)).is_index();
        b.replace_all_uses_with(result_a, value);
        if index {
            deps = MemRefAccesses::new();
            maps = AccessMaps::new();
        }
        erased.insert(load_a);
        erase.push(load_a);
        stats.redundant_loads += 1;
    }
    for op in erase.drain(..) {
        b.erase_op(op);
    }
    for (op, message) in notes {
        if !erased.contains(&op) {
            b.remark(op, message);
        }
    }
    stats
}

/// Whether every effect of `op` on `value` is `effect`, and there is one
/// (MLIR's `hasSingleEffect`).
fn has_single_effect(ctx: &Context, body: &Body, op: OpId, value: Value, effect: Effect) -> bool {
    let Some(effects) = memory_effects(ctx, body, op) else {
        return false;
    };
    let mut found = false;
    for e in effects.iter().filter(|e| e.value == Some(value)) {
        if e.effect != effect {
            return false;
        }
        found = true;
    }
    found
}
