//! Whether an op between two affine accesses may read or write the memory
//! the second one accesses (MLIR's `hasNoInterveningEffect` in
//! `Affine/Utils`), the check behind store-to-load forwarding, redundant
//! load elimination and dead store elimination (`affine-scalrep`).
//!
//! Every op on a path from `start` to `mem_op` is asked: one with unknown
//! effects has the effect; one with declared effects has it when one of
//! them is of the kind asked on memory that may alias `mem_op`'s memref
//! ([`super::memref_alias::may_alias`]) or on unnamed memory; an affine
//! access with such an effect has it unless the dependence analysis proves
//! that it cannot reach `mem_op` (MLIR's `mayHaveEffect`, asked at every
//! depth deeper than the loops common to `start` and `mem_op`); an op
//! whose effects are its nested ops' is looked into. As MLIR does, a
//! region holding `mem_op` is checked whole (not only the paths to it).

use super::memref_alias::may_alias;
use crate::affine::analysis::{surrounding_ivs, DependenceResult, MemRefAccesses, Precision};
use crate::affine::{AffineLoadOp, AffineStoreOp, AffineVectorLoadOp, AffineVectorStoreOp};
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::view::OpView;
use lf_ir::{BlockId, Body, Context, OpId, Traits, Value};
use rustc_hash::FxHashSet;

/// The memref an affine access (scalar or vector) reads or writes.
pub fn affine_access_memref(ctx: &Context, body: &Body, op: OpId) -> Option<Value> {
    let ir = (ctx, body);
    if let Some(l) = AffineLoadOp::cast(&ir, op) {
        return Some(l.memref(&ir));
    }
    if let Some(s) = AffineStoreOp::cast(&ir, op) {
        return Some(s.memref(&ir));
    }
    if let Some(l) = AffineVectorLoadOp::cast(&ir, op) {
        return Some(l.memref(&ir));
    }
    AffineVectorStoreOp::cast(&ir, op).map(|s| s.memref(&ir))
}

/// How many loops (`affine.for` and `affine.parallel` induction variables)
/// surround both ops (MLIR's `getNumCommonSurroundingLoops`).
pub fn num_common_surrounding_loops(ctx: &Context, body: &Body, a: OpId, b: OpId) -> usize {
    let (la, lb) = (surrounding_ivs(ctx, body, a), surrounding_ivs(ctx, body, b));
    la.iter().zip(&lb).take_while(|(x, y)| x == y).count()
}

/// The checker of one question: may an op between `start` and `mem_op`
/// have `effect` on `mem_op`'s memory?
struct Checker<'a> {
    ctx: &'a Context,
    body: &'a Body,
    deps: &'a MemRefAccesses,
    mem_op: OpId,
    memref: Value,
    effect: Effect,
    /// The loops common to `start` and `mem_op`.
    min_loops: usize,
    found: bool,
}

impl Checker<'_> {
    fn check_op(&mut self, op: OpId) {
        if self.found {
            return;
        }
        let (ctx, body) = (self.ctx, self.body);
        let Some(def) = ctx.op_def(body.op_name(op)) else {
            self.found = true;
            return;
        };
        if def.has(Traits::PURE) {
            return;
        }
        if def.has(Traits::MEMORY_EFFECTS) && body.regions(op).is_empty() {
            let Some(effects) = memory_effects(ctx, body, op) else {
                self.found = true;
                return;
            };
            let touches = effects.iter().any(|e| {
                e.effect == self.effect
                    && match e.value {
                        Some(v) => v == self.memref || may_alias(ctx, body, v, self.memref),
                        None => true,
                    }
            });
            if !touches {
                return;
            }
            if affine_access_memref(ctx, body, op).is_some() {
                if may_have_effect(ctx, body, self.deps, op, self.mem_op, self.min_loops) {
                    self.found = true;
                }
                return;
            }
            self.found = true;
            return;
        }
        if def.has(Traits::RECURSIVE_MEMORY_EFFECTS) && body.nested_body(op).is_none() {
            for &r in body.regions(op) {
                for b in body.region_blocks(r) {
                    for inner in body.block_ops(b) {
                        self.check_op(inner);
                    }
                }
            }
            return;
        }
        self.found = true;
    }

    /// Every op on the paths from `from` to `until` (`from`'s region holds
    /// `until`, maybe deeply).
    fn paths(&mut self, from: OpId, until: OpId) {
        let body = self.body;
        let region_of = |op: OpId| body.op_block(op).and_then(|b| body.block_region(b));
        if region_of(from) != region_of(until) {
            let Some(parent) = body.parent_op(until) else {
                self.found = true; // `from` does not enclose `until`: assume the worst
                return;
            };
            self.paths(from, parent);
            self.check_op(parent);
            return;
        }
        let (Some(from_block), Some(until_block)) = (body.op_block(from), body.op_block(until)) else {
            self.found = true;
            return;
        };
        let mut cur = body.next_op(from);
        while let Some(op) = cur {
            if op == until || self.found {
                break;
            }
            self.check_op(op);
            cur = body.next_op(op);
        }
        if until_block == from_block {
            return;
        }
        let mut todo: Vec<BlockId> = successors(body, from_block);
        let mut done = FxHashSet::default();
        while let Some(block) = todo.pop() {
            if self.found {
                return;
            }
            if !done.insert(block) {
                continue;
            }
            for op in body.block_ops(block) {
                if op == until {
                    break;
                }
                self.check_op(op);
                if body.terminator(block) == Some(op) {
                    todo.extend(body.successors(op).iter().copied());
                }
            }
        }
    }
}

fn successors(body: &Body, block: BlockId) -> Vec<BlockId> {
    body.terminator(block)
        .map(|t| body.successors(t).to_vec())
        .unwrap_or_default()
}

/// Whether the affine access `src` may access what `dst` accesses within
/// the outermost `min_loops` loops around them (MLIR's `mayHaveEffect`): a
/// dependence, or a failure to decide, at some depth from one more than
/// their common loops down to `min_loops + 1`. Different memrefs: yes.
pub fn may_have_effect(
    ctx: &Context,
    body: &Body,
    deps: &MemRefAccesses,
    src: OpId,
    dst: OpId,
    min_loops: usize,
) -> bool {
    if affine_access_memref(ctx, body, src) != affine_access_memref(ctx, body, dst) {
        return true;
    }
    let common = num_common_surrounding_loops(ctx, body, src, dst);
    (min_loops + 1..=common + 1)
        .rev()
        .any(|d| deps.check(ctx, body, src, dst, d, Precision::MlirCompatible, false) != DependenceResult::NoDependence)
}

/// Whether no op on a path from `start` to `mem_op` (an affine access) may
/// have `effect` (`Read` or `Write`) on the memory `mem_op` accesses
/// (MLIR's `hasNoInterveningEffect`). `start`'s region must hold `mem_op`.
pub fn has_no_intervening_effect(
    ctx: &Context,
    body: &Body,
    deps: &MemRefAccesses,
    start: OpId,
    mem_op: OpId,
    effect: Effect,
) -> bool {
    let Some(memref) = affine_access_memref(ctx, body, mem_op) else {
        return false;
    };
    let mut c = Checker {
        ctx,
        body,
        deps,
        mem_op,
        memref,
        effect,
        min_loops: num_common_surrounding_loops(ctx, body, start, mem_op),
        found: false,
    };
    c.paths(start, mem_op);
    !c.found
}
