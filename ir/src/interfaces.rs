//! Op interfaces declared on op declarations, so that generic passes and
//! analyses ask an op what it is instead of matching its name:
//!
//! - **loop-like** ([`LoopLike`], MLIR's `LoopLikeOpInterface`): the loop's
//!   body regions, induction variables, bounds and steps, loop-carried
//!   values. Declared with [`OpDef::loop_like`]; read with [`loop_like`].
//! - **memory effects** ([`Effects`], MLIR's `MemoryEffectOpInterface`):
//!   which operands and results an op reads, writes, allocates or frees
//!   ([`ArgDef::effects`](crate::ods::ArgDef::effects)), plus effects on
//!   memory no operand names ([`OpDef::other_effects`]); read with
//!   [`memory_effects`]. Ops with the `RECURSIVE_MEMORY_EFFECTS` trait have
//!   the effects of the ops in their regions.
//! - **speculatability** ([`OpDef::speculatable`], MLIR's
//!   `ConditionallySpeculatable`): whether an effect-free op may run where
//!   it would not have run (a division by a divisor that may be zero may not).

use crate::view::{Ir, ValueList};
use crate::{Body, Context, OpDef, OpId, RegionId, Traits, Value};
use smallvec::SmallVec;

/// A loop bound or step: a constant, or a value (MLIR's `OpFoldResult`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// A constant.
    Const(i64),
    /// An SSA value.
    Value(Value),
}

/// Answers a question about a loop op.
pub type LoopFn<T> = fn(&Context, &Body, OpId) -> T;

/// The loop-like interface of an op (MLIR's `LoopLikeOpInterface`).
#[derive(Debug)]
pub struct LoopLike {
    /// The regions that form the loop body (both of an `scf.while`).
    pub regions: LoopFn<SmallVec<[RegionId; 2]>>,
    /// The induction variables, outermost first (none for an `scf.while`).
    pub induction_vars: LoopFn<ValueList>,
    /// The lower bound of each induction variable, when each is a single
    /// constant or value (`None` for a bound such as an affine map with
    /// several results).
    pub lower_bounds: LoopFn<Option<SmallVec<[Bound; 3]>>>,
    /// The upper bound (exclusive) of each induction variable, as `lower_bounds`.
    pub upper_bounds: LoopFn<Option<SmallVec<[Bound; 3]>>>,
    /// The step of each induction variable, as `lower_bounds`.
    pub steps: LoopFn<Option<SmallVec<[Bound; 3]>>>,
    /// The initial values of the loop-carried values.
    pub inits: LoopFn<ValueList>,
    /// The block arguments that carry them in the body.
    pub region_iter_args: LoopFn<ValueList>,
    /// The values the body yields for the next iteration.
    pub yielded_values: LoopFn<ValueList>,
    /// The op's results (the loop-carried values at the end).
    pub results: LoopFn<ValueList>,
}

/// The loop-like interface of `op`, if its declaration has one.
pub fn loop_like(ctx: &Context, body: &Body, op: OpId) -> Option<&'static LoopLike> {
    ctx.op_def(body.op_name(op))?.loop_like
}

/// An op with the loop-like interface, as a view.
#[derive(Copy, Clone, Debug)]
pub struct LoopLikeOp {
    /// The op.
    pub op: OpId,
    /// Its interface.
    pub iface: &'static LoopLike,
}

impl LoopLikeOp {
    /// The view of `op` if it is loop-like.
    pub fn cast<'c>(ir: &impl Ir<'c>, op: OpId) -> Option<LoopLikeOp> {
        loop_like(ir.ctx(), ir.body(), op).map(|iface| LoopLikeOp { op, iface })
    }
    /// The body regions.
    pub fn regions<'c>(self, ir: &impl Ir<'c>) -> SmallVec<[RegionId; 2]> {
        (self.iface.regions)(ir.ctx(), ir.body(), self.op)
    }
    /// The induction variables.
    pub fn induction_vars<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        (self.iface.induction_vars)(ir.ctx(), ir.body(), self.op)
    }
    /// The lower bounds (see [`LoopLike::lower_bounds`]).
    pub fn lower_bounds<'c>(self, ir: &impl Ir<'c>) -> Option<SmallVec<[Bound; 3]>> {
        (self.iface.lower_bounds)(ir.ctx(), ir.body(), self.op)
    }
    /// The upper bounds (see [`LoopLike::upper_bounds`]).
    pub fn upper_bounds<'c>(self, ir: &impl Ir<'c>) -> Option<SmallVec<[Bound; 3]>> {
        (self.iface.upper_bounds)(ir.ctx(), ir.body(), self.op)
    }
    /// The steps (see [`LoopLike::steps`]).
    pub fn steps<'c>(self, ir: &impl Ir<'c>) -> Option<SmallVec<[Bound; 3]>> {
        (self.iface.steps)(ir.ctx(), ir.body(), self.op)
    }
    /// The initial values of the loop-carried values.
    pub fn inits<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        (self.iface.inits)(ir.ctx(), ir.body(), self.op)
    }
    /// The block arguments carrying them.
    pub fn region_iter_args<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        (self.iface.region_iter_args)(ir.ctx(), ir.body(), self.op)
    }
    /// The values yielded for the next iteration.
    pub fn yielded_values<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        (self.iface.yielded_values)(ir.ctx(), ir.body(), self.op)
    }
    /// The results.
    pub fn results<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        (self.iface.results)(ir.ctx(), ir.body(), self.op)
    }
    /// Whether `v` is defined outside the loop (MLIR's `isDefinedOutsideOfLoop`).
    pub fn is_defined_outside<'c>(self, ir: &impl Ir<'c>, v: Value) -> bool {
        !ir.body().is_defined_inside(v, self.op)
    }
}

/// A set of memory effects.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Effects(pub u8);

impl Effects {
    /// None.
    pub const NONE: Effects = Effects(0);
    /// Reads.
    pub const READ: Effects = Effects(1);
    /// Writes.
    pub const WRITE: Effects = Effects(2);
    /// Allocates (the value is new memory).
    pub const ALLOC: Effects = Effects(4);
    /// Frees.
    pub const FREE: Effects = Effects(8);

    /// Union.
    pub const fn with(self, other: Effects) -> Effects {
        Effects(self.0 | other.0)
    }
    /// Whether every effect of `other` is in the set.
    pub const fn contains(self, other: Effects) -> bool {
        self.0 & other.0 == other.0
    }
    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The single effects in the set.
    pub fn each(self) -> impl Iterator<Item = Effect> {
        [Effect::Read, Effect::Write, Effect::Alloc, Effect::Free]
            .into_iter()
            .filter(move |e| self.contains(e.bit()))
    }
}

/// One memory effect.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Effect {
    /// Reads memory.
    Read,
    /// Writes memory.
    Write,
    /// Allocates memory.
    Alloc,
    /// Frees memory.
    Free,
}

impl Effect {
    /// The effect as a one-element set.
    pub fn bit(self) -> Effects {
        match self {
            Effect::Read => Effects::READ,
            Effect::Write => Effects::WRITE,
            Effect::Alloc => Effects::ALLOC,
            Effect::Free => Effects::FREE,
        }
    }
}

/// An effect of an op on the memory a value names, or on any memory.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct EffectInstance {
    /// What the op does.
    pub effect: Effect,
    /// The memref operand or result it does it to (`None`: memory no
    /// operand names, which may alias anything).
    pub value: Option<Value>,
    /// The op that has the effect (the op asked, or an op nested in it).
    pub op: OpId,
}

/// The memory effects of `op` (and of the ops nested in it, for ops with
/// recursive effects), or `None` when they are unknown (an op declaring no
/// effects but the `MEMORY_EFFECTS` trait, an op with neither trait nor
/// `PURE`, an unregistered op).
pub fn memory_effects(ctx: &Context, body: &Body, op: OpId) -> Option<SmallVec<[EffectInstance; 4]>> {
    let mut out = SmallVec::new();
    visit_effects(ctx, body, op, &mut |e| {
        out.push(e);
        true
    })?;
    Some(out)
}

/// Calls `f` on each memory effect of `op` (and of the ops nested in it,
/// for ops with recursive effects) until `f` returns `false`. `Some(true)`:
/// every effect was visited; `Some(false)`: `f` stopped the visit; `None`:
/// an op with unknown effects was reached first. Questions that one effect
/// answers ("is this op effect-free?") stop at it instead of collecting the
/// effects of a whole loop nest.
pub fn visit_effects(ctx: &Context, body: &Body, op: OpId, f: &mut dyn FnMut(EffectInstance) -> bool) -> Option<bool> {
    let def: &OpDef = ctx.op_def(body.op_name(op))?;
    if def.has(Traits::PURE) {
        return Some(true);
    }
    let recursive = def.has(Traits::RECURSIVE_MEMORY_EFFECTS);
    let declared = def.has(Traits::MEMORY_EFFECTS);
    if !declared && !recursive {
        return None;
    }
    if declared {
        let mut any = false;
        let go_on = declared_effects(ctx, body, op, def, &mut |e| {
            any = true;
            f(e)
        });
        if !go_on {
            return Some(false);
        }
        if !any && !recursive {
            // The op says it has effects, but not which.
            return None;
        }
    }
    if recursive {
        if body.nested_body(op).is_some() {
            // The ops of an isolated op's own body: not ids of `body`.
            return None;
        }
        for &r in body.regions(op) {
            for b in body.region_blocks(r) {
                for inner in body.block_ops(b) {
                    if !visit_effects(ctx, body, inner, f)? {
                        return Some(false);
                    }
                }
            }
        }
    }
    Some(true)
}

/// Calls `f` on the effects `def` declares on the operands and results of
/// `op` and on other memory, until it returns `false`; returns whether it
/// never did.
fn declared_effects(
    ctx: &Context,
    body: &Body,
    op: OpId,
    def: &OpDef,
    f: &mut dyn FnMut(EffectInstance) -> bool,
) -> bool {
    let groups = [(def.operands, true), (def.results, false)];
    for (defs, operands) in groups {
        if !defs.iter().any(|g| !g.effects.is_empty()) {
            continue;
        }
        for (i, g) in defs.iter().enumerate() {
            if g.effects.is_empty() {
                continue;
            }
            let count = if operands {
                body.num_operands(op)
            } else {
                body.num_results(op)
            };
            // A group with one value before any group of several (a load's
            // memref, a store's) is at its own index: no segment sizes to read.
            let single = defs[..=i].iter().all(|g| g.arity == crate::ods::Arity::Single) && i < count;
            let range = if single {
                i..i + 1
            } else if operands {
                crate::ods::operand_group_range(ctx, body, op, def, i)
            } else {
                crate::ods::result_group_range(ctx, body, op, def, i)
            };
            for k in range {
                let v = if operands {
                    body.operand(op, k)
                } else {
                    body.result(op, k)
                };
                for effect in g.effects.each() {
                    if !f(EffectInstance {
                        effect,
                        value: Some(v),
                        op,
                    }) {
                        return false;
                    }
                }
            }
        }
    }
    def.other_effects.each().all(|effect| {
        f(EffectInstance {
            effect,
            value: None,
            op,
        })
    })
}

/// The kinds of memory effects an op's declaration gives, by where they
/// fall: a summary that answers "does this op write?" without reading the
/// op's operands (the effects of a non-recursive op depend on its
/// declaration only; which values they touch does not matter then).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct EffectKinds {
    /// On the memory the operands name.
    pub operands: Effects,
    /// On the memory the results name (`Alloc`: the op returns new memory).
    pub results: Effects,
    /// On memory no operand or result names.
    pub other: Effects,
}

impl EffectKinds {
    /// All kinds, wherever they fall.
    pub fn all(self) -> Effects {
        self.operands.with(self.results).with(self.other)
    }
}

/// The effect kinds `op`'s own declaration gives (its nested ops' not
/// included): `Some(empty)` for `PURE` ops and for ops whose effects are
/// only their nested ops' (`RECURSIVE_MEMORY_EFFECTS` alone); `None` when
/// unknown (see [`memory_effects`]).
pub fn own_effect_kinds(def: &OpDef) -> Option<EffectKinds> {
    if def.has(Traits::PURE) {
        return Some(EffectKinds::default());
    }
    let declared = def.has(Traits::MEMORY_EFFECTS);
    if !declared && !def.has(Traits::RECURSIVE_MEMORY_EFFECTS) {
        return None;
    }
    let union = |groups: &[crate::ods::ArgDef]| groups.iter().fold(Effects::NONE, |e, g| e.with(g.effects));
    let kinds = EffectKinds {
        operands: union(def.operands),
        results: union(def.results),
        other: def.other_effects,
    };
    if declared && kinds.all().is_empty() && !def.has(Traits::RECURSIVE_MEMORY_EFFECTS) {
        // The op says it has effects, but not which.
        return None;
    }
    Some(kinds)
}

/// Whether every op in `op` (itself and, for recursive effects, every op
/// nested in it) has known effect kinds that satisfy `ok`: the quick form of
/// questions that need no values ("is it effect-free?", "does it only
/// read?").
pub fn all_effect_kinds(ctx: &Context, body: &Body, op: OpId, ok: &mut dyn FnMut(EffectKinds) -> bool) -> bool {
    let Some((def, kinds)) = ctx.op_def_and_effects(body.op_name(op)) else {
        return false;
    };
    if def.has(Traits::PURE) {
        return true;
    }
    let Some(kinds) = kinds else {
        return false;
    };
    if !ok(kinds) {
        return false;
    }
    if !def.has(Traits::RECURSIVE_MEMORY_EFFECTS) {
        return true;
    }
    if body.nested_body(op).is_some() {
        return false;
    }
    body.regions(op).iter().all(|&r| {
        body.region_blocks(r)
            .all(|b| body.block_ops(b).all(|inner| all_effect_kinds(ctx, body, inner, ok)))
    })
}

/// Whether `op` has no memory effect (nor nested ops with one).
pub fn is_memory_effect_free(ctx: &Context, body: &Body, op: OpId) -> bool {
    all_effect_kinds(ctx, body, op, &mut |k| k.all().is_empty())
}

/// Whether `op` (an effect-free op) may run where it would not have run,
/// as its declaration says ([`OpDef::speculatable`]; yes by default).
pub fn is_speculatable(ctx: &Context, body: &Body, op: OpId) -> bool {
    match ctx.op_def(body.op_name(op)) {
        Some(def) => def.has(Traits::PURE) && def.speculatable.is_none_or(|f| f(ctx, body, op)),
        None => false,
    }
}
