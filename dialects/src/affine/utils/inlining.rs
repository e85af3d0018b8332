//! The affine dialect's rules for inlining (MLIR's `AffineInlinerInterface`
//! in `AffineOps.cpp`), for the `inline` pass:
//!
//! - an op of the affine dialect may be inlined only into a region whose op
//!   is an affine scope (a function, a `gpu.launch`) or an `affine.for`,
//!   `affine.parallel` or `affine.if` ([`affine_op_may_go_into`]);
//! - a callee may be inlined into the region of an `affine.for`,
//!   `affine.parallel` or `affine.if` only when the affine rules still hold
//!   there ([`callee_fits_affine_region`]): each op of its body has no
//!   memory effect, or is an `affine.load` or `affine.store` whose map
//!   operands stay valid dimensions and symbols once the callee's arguments
//!   are replaced by the call's operands (or are constants or `memref.dim`s
//!   of the callee). Any other op (a call, a loop, a `memref.store`)
//!   refuses the inline: MLIR cannot tell whether the affine ops around
//!   would stay valid.
//!
//! MLIR checks a replaced operand against the region of the construct
//! (`isValidSymbol(value, affineForBody)`), where every index value the
//! call sees counts as a symbol (a value defined in that region or in one
//! around it), and relies on `canonicalize` to turn a symbol that is a loop
//! variable back into a dimension (`legalizeDemotedDims`). So
//! `mlir-opt --inline` inlines `affine.load %M[%k + 1]` with `%k` a
//! `memref.load` result in the loop body, and its verifier then fails. lf
//! checks a replaced operand where the call is (its affine scope, as the
//! affine ops' verifiers do): a dimension must be a valid dimension there, a
//! symbol a valid symbol or a valid dimension, which the inliner then makes
//! a dimension of the inlined op ([`legalize_demoted_dims`]). What lf
//! inlines, MLIR inlines too, with the same result after `canonicalize`;
//! what MLIR would inline into invalid IR, lf leaves as a call.

use super::validity::{affine_scope_region, is_affine_scope, is_valid_dim, is_valid_symbol};
use crate::affine::{AffineForOp, AffineIfOp, AffineLoadOp, AffineParallelOp, AffineStoreOp};
use crate::memref::MemrefDimOp;
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{BlockId, Body, Context, OpId, RegionId, Traits, Value, ValueDef};

/// Whether `op` is an `affine.for`, `affine.parallel` or `affine.if`.
pub fn is_affine_construct(ctx: &Context, body: &Body, op: OpId) -> bool {
    let ir = (ctx, body);
    AffineForOp::isa(&ir, op) || AffineParallelOp::isa(&ir, op) || AffineIfOp::isa(&ir, op)
}

/// Whether `op` belongs to the affine dialect.
pub fn is_affine_op(ctx: &Context, body: &Body, op: OpId) -> bool {
    ctx.op_def(body.op_name(op))
        .is_some_and(|d| crate::affine::OPS.iter().any(|a| std::ptr::eq(*a, d)))
}

/// Whether an op of the affine dialect may be inlined into a region of
/// `parent` (`None`: the region of the function being inlined into).
pub fn affine_op_may_go_into(ctx: &Context, body: &Body, parent: Option<OpId>) -> bool {
    parent.is_none_or(|p| is_affine_scope(ctx, body, p) || is_affine_construct(ctx, body, p))
}

/// The map and map operands of an `affine.load` or `affine.store`.
fn access_map<'c>(ctx: &'c Context, body: &Body, op: OpId) -> Option<(&'c AffineMap, Vec<Value>)> {
    let ir = (ctx, body);
    if let Some(load) = AffineLoadOp::cast(&ir, op) {
        return Some((load.map(&ir), load.indices(&ir).to_vec()));
    }
    let store = AffineStoreOp::cast(&ir, op)?;
    Some((store.map(&ir), store.indices(&ir).to_vec()))
}

/// Whether the callee block `block` of `callee` (its arguments bound to
/// `args`, values of `body`) may be inlined before `call`, in the region of
/// an affine construct: see the module documentation.
pub fn callee_fits_affine_region(
    ctx: &Context,
    callee: &Body,
    block: BlockId,
    body: &Body,
    call: OpId,
    args: &[Value],
) -> bool {
    let scope = affine_scope_region(ctx, body, call);
    let cir = (ctx, callee);
    // A map operand of a callee op stays valid when it is a constant or a
    // `memref.dim` of the callee (inlined along), or an argument replaced by
    // a valid dimension at the call (for a symbol: a valid symbol, or a
    // valid dimension that the inlined op takes as a dimension).
    let stays_valid = |v: Value, dim: bool| match callee.value_def(v) {
        ValueDef::BlockArg { block: b, index } if b == block => args
            .get(index as usize)
            .is_some_and(|&a| is_valid_dim(ctx, body, a, scope) || (!dim && is_valid_symbol(ctx, body, a, scope))),
        ValueDef::BlockArg { .. } => false,
        ValueDef::OpResult { op, .. } => {
            ctx.op_def(callee.op_name(op))
                .is_some_and(|d| d.has(Traits::CONSTANT_LIKE))
                || MemrefDimOp::isa(&cir, op)
        }
    };
    callee.block_ops(block).all(|op| {
        // Effect-free ops (`affine.apply` among them, as in MLIR: an apply
        // is valid anywhere; a load or store using its result is refused
        // below) move freely.
        let no_effect = ctx.op_def(callee.op_name(op)).is_some_and(|d| d.has(Traits::PURE));
        if no_effect {
            return true;
        }
        match access_map(ctx, callee, op) {
            Some((map, operands)) => {
                let nd = map.num_dims() as usize;
                operands.iter().enumerate().all(|(i, &v)| stays_valid(v, i < nd))
            }
            None => false,
        }
    })
}

/// MLIR's `legalizeDemotedDims` on an `affine.load` or `affine.store` of
/// the affine scope `scope` (a call's operands replaced its callee's
/// arguments): each symbol operand that is a valid dimension but not a
/// valid symbol there (a loop variable) becomes a dimension, after the
/// existing ones. Returns whether the op changed.
pub fn legalize_demoted_dims(b: &mut Builder<'_>, op: OpId, scope: Option<RegionId>) -> bool {
    let ctx = b.ctx();
    let Some((map, operands)) = access_map(ctx, b.body(), op) else {
        return false;
    };
    let nd = map.num_dims() as usize;
    let body = b.body();
    let demote: Vec<bool> = operands[nd..]
        .iter()
        .map(|&v| !is_valid_symbol(ctx, body, v, scope) && is_valid_dim(ctx, body, v, scope))
        .collect();
    if !demote.contains(&true) {
        return false;
    }
    let mut dims: Vec<Value> = operands[..nd].to_vec();
    let mut syms = Vec::new();
    let mut sym_repl = Vec::with_capacity(demote.len());
    for (&v, &d) in operands[nd..].iter().zip(&demote) {
        if d {
            sym_repl.push(AffineExpr::dim(dims.len() as u32));
            dims.push(v);
        } else {
            sym_repl.push(AffineExpr::symbol(syms.len() as u32));
            syms.push(v);
        }
    }
    let new_map = map.replace_dims_and_symbols(&[], &sym_repl, dims.len() as u32, syms.len() as u32);
    dims.extend(syms);
    let ir = (ctx, b.body());
    if let Some(load) = AffineLoadOp::cast(&ir, op) {
        load.set_map(b, new_map);
        load.set_indices(b, &dims);
    } else if let Some(store) = AffineStoreOp::cast(&ir, op) {
        store.set_map(b, new_map);
        store.set_indices(b, &dims);
    }
    true
}
