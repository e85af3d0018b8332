//! Reductions carried by the `iter_args` of an `affine.for`, detected as
//! MLIR's `getSupportedReductions` (`AffineAnalysis.cpp`) and
//! `matchReduction` (`SliceAnalysis.cpp`) detect them.
//!
//! Loop-carried value number `i` is a reduction when
//!
//! 1. its block argument has exactly one use, by an op (the *combiner*)
//!    with two operands; the other operand is the *reduced value*, which
//!    must not itself be a loop-carried block argument of the loop;
//! 2. the combiner has no memory effects, one result with exactly one use,
//!    and sits directly in the loop's body;
//! 3. that one use is operand `i` of the loop's `affine.yield`;
//! 4. the combiner is one of the `arith` ops of [`combiner_kind`]
//!    (floating-point combiners are taken as associative and commutative,
//!    as MLIR takes them).
//!
//! MLIR checks (1)'s "does not depend on loop-carried values" with a
//! backward slice filtered to ops *outside* the loop, so in effect only the
//! reduced value itself is compared with the loop-carried arguments; lf
//! does the same, so that `reduction_kind` answers what MLIR answers. (A
//! reduced value computed from another carried value makes that other
//! value fail (1) or (3), so the loop is never parallelized either way.)
//!
//! Where MLIR's matcher would accept a combiner whose one use is the
//! terminator of a *nested* region (and then build invalid IR), lf requires
//! the loop's own `affine.yield` (3) and declines.

use crate::affine::{AffineForOp, REDUCTION_KINDS};
use crate::arith::{
    ArithAddfOp, ArithAddiOp, ArithAndiOp, ArithMaximumfOp, ArithMaxnumfOp, ArithMaxsiOp, ArithMaxuiOp,
    ArithMinimumfOp, ArithMinnumfOp, ArithMinsiOp, ArithMinuiOp, ArithMulfOp, ArithMuliOp, ArithOriOp, ArithXoriOp,
};
use lf_ir::interfaces::is_memory_effect_free;
use lf_ir::view::{Ir, OpView};
use lf_ir::{OpId, Type, Value};

/// The kind of a reduction: MLIR's `arith::AtomicRMWKind`, numbered as the
/// `reductions` attribute of `affine.parallel` numbers it (the values of
/// [`REDUCTION_KINDS`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomicRmwKind {
    /// `addf`: floating-point sum.
    Addf = 0,
    /// `addi`: integer sum.
    Addi = 1,
    /// `andi`: bitwise and.
    Andi = 2,
    /// `assign`: the last value.
    Assign = 3,
    /// `maximumf`: floating-point maximum, NaN-propagating.
    Maximumf = 4,
    /// `maxnumf`: floating-point maximum, NaN-ignoring.
    Maxnumf = 5,
    /// `maxs`: signed integer maximum.
    Maxs = 6,
    /// `maxu`: unsigned integer maximum.
    Maxu = 7,
    /// `minimumf`: floating-point minimum, NaN-propagating.
    Minimumf = 8,
    /// `minnumf`: floating-point minimum, NaN-ignoring.
    Minnumf = 9,
    /// `mins`: signed integer minimum.
    Mins = 10,
    /// `minu`: unsigned integer minimum.
    Minu = 11,
    /// `mulf`: floating-point product.
    Mulf = 12,
    /// `muli`: integer product.
    Muli = 13,
    /// `ori`: bitwise or.
    Ori = 14,
    /// `xori`: bitwise exclusive or.
    Xori = 15,
}

impl AtomicRmwKind {
    /// Every kind, in the order of their values.
    pub const ALL: [AtomicRmwKind; 16] = [
        AtomicRmwKind::Addf,
        AtomicRmwKind::Addi,
        AtomicRmwKind::Andi,
        AtomicRmwKind::Assign,
        AtomicRmwKind::Maximumf,
        AtomicRmwKind::Maxnumf,
        AtomicRmwKind::Maxs,
        AtomicRmwKind::Maxu,
        AtomicRmwKind::Minimumf,
        AtomicRmwKind::Minnumf,
        AtomicRmwKind::Mins,
        AtomicRmwKind::Minu,
        AtomicRmwKind::Mulf,
        AtomicRmwKind::Muli,
        AtomicRmwKind::Ori,
        AtomicRmwKind::Xori,
    ];

    /// The value stored in `affine.parallel`'s `reductions` attribute.
    pub fn value(self) -> i64 {
        self as i64
    }

    /// The kind stored as `v`, if `v` names one.
    pub fn from_value(v: i64) -> Option<AtomicRmwKind> {
        usize::try_from(v).ok().and_then(|i| Self::ALL.get(i).copied())
    }

    /// The keyword printed in `reduce ("addf")`.
    pub fn keyword(self) -> &'static str {
        REDUCTION_KINDS[self as usize].0
    }

    /// Whether `affine.parallel` accepts a result of type `ty` reduced with
    /// this kind (MLIR's `isResultTypeMatchAtomicRMWKind`, which the
    /// `affine.parallel` verifier applies).
    pub fn matches_type(self, ctx: &lf_ir::Context, ty: Type) -> bool {
        crate::affine::reduction_matches_type(ctx, self.value(), ty)
    }
}

/// The kind of reduction an op combines with, when it is one of the
/// combiners MLIR's `getSupportedReductions` knows: `arith.addf`, `mulf`,
/// `addi`, `andi`, `ori`, `xori`, `muli`, `minimumf`, `maximumf`,
/// `minnumf`, `maxnumf`, `minsi`, `maxsi`, `minui`, `maxui`.
pub fn combiner_kind<'c>(ir: &impl Ir<'c>, op: OpId) -> Option<AtomicRmwKind> {
    use AtomicRmwKind as K;
    let table: [(&'static lf_ir::OpDef, K); 15] = [
        (ArithAddfOp::def(), K::Addf),
        (ArithMulfOp::def(), K::Mulf),
        (ArithAddiOp::def(), K::Addi),
        (ArithAndiOp::def(), K::Andi),
        (ArithOriOp::def(), K::Ori),
        (ArithXoriOp::def(), K::Xori),
        (ArithMuliOp::def(), K::Muli),
        (ArithMinimumfOp::def(), K::Minimumf),
        (ArithMaximumfOp::def(), K::Maximumf),
        (ArithMinnumfOp::def(), K::Minnumf),
        (ArithMaxnumfOp::def(), K::Maxnumf),
        (ArithMinsiOp::def(), K::Mins),
        (ArithMaxsiOp::def(), K::Maxs),
        (ArithMinuiOp::def(), K::Minu),
        (ArithMaxuiOp::def(), K::Maxu),
    ];
    let (ctx, body) = (ir.ctx(), ir.body());
    table
        .iter()
        .find(|(def, _)| lf_ir::view::is_op(ctx, body, op, def))
        .map(|(_, k)| *k)
}

/// One reduction of an `affine.for` (MLIR's `LoopReduction`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LoopReduction {
    /// How the values are combined.
    pub kind: AtomicRmwKind,
    /// Which loop-carried value (`iter_args` position).
    pub iter_arg: usize,
    /// The value combined into the carried value in each iteration.
    pub value: Value,
    /// The op combining them (the one `affine.yield` yields at `iter_arg`).
    pub combiner: OpId,
}

/// The reduction carried by `iter_args` position `iter_arg` of `for_op`, if
/// it is one MLIR's `matchReduction` and `getSupportedReductions` accept
/// (see the module docs).
pub fn loop_reduction<'c>(ir: &impl Ir<'c>, for_op: AffineForOp, iter_arg: usize) -> Option<LoopReduction> {
    let body = ir.body();
    let carried = for_op.region_iter_args(ir);
    let arg = *carried.get(iter_arg)?;
    let mut uses = body.uses(arg);
    let combiner = body.use_owner(uses.next()?);
    if uses.next().is_some() || body.num_operands(combiner) != 2 {
        return None;
    }
    let value = match body.operand(combiner, 0) {
        a if a == arg => body.operand(combiner, 1),
        other => other,
    };
    if carried.contains(&value) {
        return None;
    }
    if body.parent_op(combiner) != Some(for_op.op())
        || body.num_results(combiner) != 1
        || !is_memory_effect_free(ir.ctx(), body, combiner)
    {
        return None;
    }
    let result = body.result(combiner, 0);
    let mut result_uses = body.uses(result);
    let user = body.use_owner(result_uses.next()?);
    let yield_op = for_op.yield_op(ir).op();
    if result_uses.next().is_some() || user != yield_op {
        return None;
    }
    if body.operands(yield_op).nth(iter_arg) != Some(result) {
        return None;
    }
    let kind = combiner_kind(ir, combiner)?;
    Some(LoopReduction {
        kind,
        iter_arg,
        value,
        combiner,
    })
}

/// The kind of the reduction carried by `iter_args` position `iter_arg` of
/// `for_op`, if it is a reduction MLIR's affine analysis supports.
pub fn reduction_kind<'c>(ir: &impl Ir<'c>, for_op: AffineForOp, iter_arg: usize) -> Option<AtomicRmwKind> {
    loop_reduction(ir, for_op, iter_arg).map(|r| r.kind)
}

/// The supported reductions of `for_op`, in `iter_args` order (MLIR's
/// `getSupportedReductions`: the loop-carried values that are not
/// reductions are left out).
pub fn supported_reductions<'c>(ir: &impl Ir<'c>, for_op: AffineForOp) -> Vec<LoopReduction> {
    let n = for_op.inits(ir).len();
    (0..n).filter_map(|i| loop_reduction(ir, for_op, i)).collect()
}

#[cfg(test)]
mod tests;
