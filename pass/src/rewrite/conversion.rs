//! A small dialect-conversion helper for lowering passes.
//!
//! A [`ConversionTarget`] says which ops are legal (by dialect, by op
//! declaration, or by a predicate); [`apply_conversion`] visits the ops in program order
//! (pre-order, as MLIR's conversion driver) and rewrites each illegal op with
//! the first pattern that applies, then legalizes the ops that pattern
//! created, recursively. Ops moved by a pattern (a loop body inlined into
//! the new loop) keep their place in the visiting order.
//!
//! Unlike MLIR's driver there is no rollback: a pattern must decide whether
//! it applies before it changes anything (the [`RewritePattern`] contract).
//! In [`ConversionMode::Full`] every op left illegal is an error; in
//! [`ConversionMode::Partial`] only ops the target marks illegal explicitly
//! are. The error is MLIR's: `failed to legalize operation 'affine.for'`.
//!
//! [`RewritePattern`]: super::RewritePattern

use super::rewriter::{PatternRewriter, RewriteListener};
use super::FrozenPatternSet;
use lf_ir::diag::Diagnostic;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpDef, OpId, RegionId};

/// Whether an op is legal for a [`ConversionTarget`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Legality {
    /// Must stay as it is.
    Legal,
    /// Must be converted.
    Illegal,
    /// The target says nothing about it.
    Unknown,
}

/// Which ops a conversion must remove.
#[derive(Default)]
pub struct ConversionTarget {
    legal_dialects: Vec<&'static str>,
    illegal_dialects: Vec<&'static str>,
    legal_ops: Vec<&'static OpDef>,
    illegal_ops: Vec<&'static OpDef>,
    dynamic: Vec<(&'static OpDef, LegalityFn)>,
}

/// Decides the legality of one op (for [`ConversionTarget::add_dynamic`]).
pub type LegalityFn = fn(&Context, &Body, OpId) -> bool;

impl ConversionTarget {
    /// A target that says nothing about any op.
    pub fn new() -> Self {
        Self::default()
    }
    /// Ops of these dialects are legal.
    pub fn legal_dialects(mut self, d: &[&'static str]) -> Self {
        self.legal_dialects.extend_from_slice(d);
        self
    }
    /// Ops of these dialects are illegal.
    pub fn illegal_dialects(mut self, d: &[&'static str]) -> Self {
        self.illegal_dialects.extend_from_slice(d);
        self
    }
    /// These ops are legal (overrides their dialect).
    pub fn legal_ops(mut self, ops: &[&'static OpDef]) -> Self {
        self.legal_ops.extend_from_slice(ops);
        self
    }
    /// These ops are illegal (overrides their dialect).
    pub fn illegal_ops(mut self, ops: &[&'static OpDef]) -> Self {
        self.illegal_ops.extend_from_slice(ops);
        self
    }
    /// The op is legal when `f` holds (overrides everything else).
    pub fn add_dynamic(mut self, op: &'static OpDef, f: LegalityFn) -> Self {
        self.dynamic.push((op, f));
        self
    }

    /// The legality of `op`.
    pub fn legality(&self, ctx: &Context, body: &Body, op: OpId) -> Legality {
        let name = ctx.op_name_str(body.op_name(op));
        let def = ctx.op_def(body.op_name(op));
        let is = |d: &&'static OpDef| def.is_some_and(|def| std::ptr::eq(def, *d));
        if let Some((_, f)) = self.dynamic.iter().find(|(d, _)| is(d)) {
            return if f(ctx, body, op) {
                Legality::Legal
            } else {
                Legality::Illegal
            };
        }
        if self.illegal_ops.iter().any(is) {
            return Legality::Illegal;
        }
        if self.legal_ops.iter().any(is) {
            return Legality::Legal;
        }
        let dialect = name.split_once('.').map_or(name, |(d, _)| d);
        if self.illegal_dialects.contains(&dialect) {
            return Legality::Illegal;
        }
        if self.legal_dialects.contains(&dialect) {
            return Legality::Legal;
        }
        Legality::Unknown
    }
}

/// How strict [`apply_conversion`] is about ops it could not convert.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ConversionMode {
    /// Only explicitly illegal ops must go.
    Partial,
    /// Every op must end up legal.
    Full,
}

/// Records the ops a pattern creates.
#[derive(Default)]
struct Created {
    ops: Vec<OpId>,
}

impl RewriteListener for Created {
    fn op_inserted(&mut self, _body: &Body, op: OpId) {
        self.ops.push(op);
    }
    fn op_moved(&mut self, _body: &Body, _op: OpId) {}
}

/// Converts the illegal ops in `regions` of `body` (not entering nested
/// isolated bodies; the pass manager runs the pass on those) with
/// `patterns`. Returns the number of ops converted.
pub fn apply_conversion(
    ctx: &Context,
    body: &mut Body,
    regions: &[RegionId],
    target: &ConversionTarget,
    patterns: &FrozenPatternSet,
    mode: ConversionMode,
) -> Result<usize, Box<Diagnostic>> {
    let mut order = Vec::new();
    for &r in regions {
        for b in body.region_blocks(r) {
            for op in body.block_ops(b) {
                walk(body, op, WalkOrder::PreOrder, &mut |wb, o| {
                    if std::ptr::eq(wb, &*body) {
                        order.push(o);
                        WalkControl::Advance
                    } else {
                        WalkControl::Skip
                    }
                });
            }
        }
    }
    let mut converted = 0;
    for op in order {
        legalize(ctx, body, op, target, patterns, mode, &mut converted)?;
    }
    Ok(converted)
}

/// How many rewrites may lead from an op to one it legalizes: a pattern
/// that keeps making ops it must convert again fails there instead of
/// looping. The ops a rewrite moves (a loop body into the new loop) are not
/// counted: nesting depth is not limited.
const MAX_REWRITE_CHAIN: u32 = 64;

/// Legalizes `root`, then the ops the rewrites create, depth first (as the
/// recursion of MLIR's driver), with an explicit stack: a nest of any depth
/// converts without deep recursion.
fn legalize(
    ctx: &Context,
    body: &mut Body,
    root: OpId,
    target: &ConversionTarget,
    patterns: &FrozenPatternSet,
    mode: ConversionMode,
    converted: &mut usize,
) -> Result<(), Box<Diagnostic>> {
    // (op, rewrites that led to it, whether it is an op a pattern updated in
    // place, to convert again only if it is still illegal).
    let mut stack = vec![(root, 0u32, false)];
    while let Some((op, depth, recheck)) = stack.pop() {
        if body.is_erased(op) || body.op_block(op).is_none() {
            continue;
        }
        let legality = target.legality(ctx, body, op);
        if recheck && legality != Legality::Illegal {
            continue;
        }
        if legality == Legality::Legal || (legality == Legality::Unknown && mode == ConversionMode::Partial) {
            continue;
        }
        let fail = |body: &Body| {
            let name = ctx.op_name_str(body.op_name(op));
            Box::new(Diagnostic::error(
                body.op_loc(op).source_pos(ctx),
                format!("failed to legalize operation '{name}'"),
            ))
        };
        if depth > MAX_REWRITE_CHAIN {
            return Err(fail(body));
        }
        // Ops with ids from here on are the pattern's own; the others it
        // reports (the ops of a region it moved into a new op) were in the
        // body before and are visited in their own turn.
        let first_new = body.op_slots();
        let mut created = Created::default();
        let mut applied = false;
        {
            let mut rw = PatternRewriter::with_listener(ctx, body, &mut created);
            for p in patterns.for_op(rw.body().op_name(op)) {
                rw.set_insertion_point_before(op);
                rw.set_loc_of(op);
                if p.match_and_rewrite(op, &mut rw) {
                    applied = true;
                    break;
                }
            }
        }
        if !applied {
            if legality == Legality::Unknown && mode == ConversionMode::Partial {
                continue;
            }
            return Err(fail(body));
        }
        *converted += 1;
        // The op itself last (a pattern may update it in place; it must
        // then be legal), after the ops the pattern created, in order.
        stack.push((op, depth + 1, true));
        for &c in created.ops.iter().rev() {
            if c.index() >= first_new {
                stack.push((c, depth + 1, false));
            }
        }
    }
    Ok(())
}
