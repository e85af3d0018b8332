//! Which values may be the dimensions and symbols of an affine map (MLIR's
//! `isValidDim` and `isValidSymbol` in `AffineOps.cpp`), as the affine ops'
//! verifiers check them and as passes that build affine ops need them.
//!
//! A symbol is a top-level value of the enclosing affine scope (a region of
//! a function, kernel or module, or of a `gpu.launch`, which MLIR declares
//! `AffineScope`: its block and thread ids and sizes are symbols in it), a
//! constant, `affine.apply` / `memref.dim` of symbols, or (in the scope of
//! a `gpu.launch`) a symbol where the launch is; a dimension is also a loop
//! induction variable or `affine.apply` of dimensions. lf relaxes one rule:
//! inside a GPU kernel (`gpu.launch` or `gpu.func`), the results of
//! `gpu.thread_id`, `gpu.block_id`, `gpu.block_dim` and `gpu.grid_dim` are
//! valid dimensions.

use crate::affine::{AffineApplyOp, AffineForOp, AffineParallelOp};
use crate::gpu::{GpuBlockDimOp, GpuBlockIdOp, GpuFuncOp, GpuGridDimOp, GpuLaunchOp, GpuThreadIdOp};
use crate::memref::MemrefDimOp;
use lf_ir::view::{is_op, OpView};
use lf_ir::{Body, Context, OpId, RegionId, Traits, Value, ValueDef};

/// Whether an op opens an affine scope (its regions' top-level values are
/// symbols, MLIR's `AffineScope` trait): ops isolated from above
/// (functions, kernels, modules) and `gpu.launch`.
pub fn is_affine_scope(ctx: &Context, body: &Body, op: OpId) -> bool {
    is_isolated(ctx, body, op) || is_op(ctx, body, op, GpuLaunchOp::def())
}

fn is_isolated(ctx: &Context, body: &Body, op: OpId) -> bool {
    ctx.op_def(body.op_name(op))
        .is_some_and(|d| d.has(Traits::ISOLATED_FROM_ABOVE))
}

/// The region of the closest affine scope holding `op` (`None`: the body's
/// root region, which is the scope of a pass's function).
pub fn affine_scope_region(ctx: &Context, body: &Body, op: OpId) -> Option<RegionId> {
    let mut cur = op;
    loop {
        let b = body.op_block(cur)?;
        let r = body.block_region(b)?;
        match body.region_parent(r) {
            None => return Some(r),
            Some(parent) if is_affine_scope(ctx, body, parent) => return Some(r),
            Some(parent) => cur = parent,
        }
    }
}

fn value_region(body: &Body, v: Value) -> Option<RegionId> {
    match body.value_def(v) {
        ValueDef::OpResult { op, .. } => body.op_block(op).and_then(|b| body.block_region(b)),
        ValueDef::BlockArg { block, .. } => body.block_region(block),
    }
}

/// Whether `v` is defined directly in the scope region `scope`, or at a body's root.
pub fn is_top_level(body: &Body, v: Value, scope: Option<RegionId>) -> bool {
    let Some(r) = value_region(body, v) else {
        return false;
    };
    Some(r) == scope || body.region_parent(r).is_none()
}

/// MLIR's `isTopLevelValue(value)`: whether `v` is defined directly in a
/// region of an affine scope (or at a body's root, the region of the
/// function or module a pass works on).
pub fn is_top_level_of_its_scope(ctx: &Context, body: &Body, v: Value) -> bool {
    let Some(r) = value_region(body, v) else {
        return false;
    };
    body.region_parent(r)
        .is_none_or(|parent| is_affine_scope(ctx, body, parent))
}

/// For the scope region `scope` of a `gpu.launch` (an affine scope that is
/// not isolated from above), the region holding the launch, where the
/// values the launch sees are defined (MLIR's `isValidSymbol` looks there
/// for values that dominate the scope's op).
fn outer_region(ctx: &Context, body: &Body, scope: Option<RegionId>) -> Option<RegionId> {
    let parent = body.region_parent(scope?)?;
    if is_isolated(ctx, body, parent) {
        return None;
    }
    body.op_block(parent).and_then(|b| body.block_region(b))
}

/// Whether `v` has type `index`.
pub fn is_index(ctx: &Context, body: &Body, v: Value) -> bool {
    // `index` is uniqued: comparing ids spares a look at the type's data.
    body.value_type(v) == ctx.common().index
}

/// Whether `v` is the induction variable of an `affine.for` or `affine.parallel`.
pub fn is_induction_var(ctx: &Context, body: &Body, v: Value) -> bool {
    let ValueDef::BlockArg { block, .. } = body.value_def(v) else {
        return false;
    };
    let Some(parent) = body.block_region(block).and_then(|r| body.region_parent(r)) else {
        return false;
    };
    is_op(ctx, body, parent, AffineForOp::def()) || is_op(ctx, body, parent, AffineParallelOp::def())
}

/// Whether `op` is inside a GPU kernel (`gpu.launch` or `gpu.func`) of `body`.
fn in_gpu_kernel(ctx: &Context, body: &Body, op: OpId) -> bool {
    let mut cur = body.parent_op(op);
    while let Some(p) = cur {
        if is_op(ctx, body, p, GpuLaunchOp::def()) || is_op(ctx, body, p, GpuFuncOp::def()) {
            return true;
        }
        cur = body.parent_op(p);
    }
    false
}

/// MLIR's `isValidSymbol(value, region)`: a top-level value of the affine
/// scope `scope`, a constant, or `affine.apply`/`memref.dim` of valid symbols.
pub fn is_valid_symbol(ctx: &Context, body: &Body, v: Value, scope: Option<RegionId>) -> bool {
    if !is_index(ctx, body, v) {
        return false;
    }
    if is_top_level(body, v, scope) {
        return true;
    }
    if let ValueDef::OpResult { op, .. } = body.value_def(v) {
        let def = ctx.op_def(body.op_name(op));
        if def.is_some_and(|d| d.has(Traits::CONSTANT_LIKE)) {
            return true;
        }
        if is_op(ctx, body, op, AffineApplyOp::def()) {
            return body.operands(op).all(|o| is_valid_symbol(ctx, body, o, scope));
        }
        if is_op(ctx, body, op, MemrefDimOp::def()) {
            let memref = body.operand(op, 0);
            return is_top_level(body, memref, scope) || is_top_level_of_its_scope(ctx, body, memref);
        }
    }
    // In a gpu.launch, the symbols of the region that holds the launch are
    // symbols too (MLIR: values dominating the scope's op).
    match outer_region(ctx, body, scope) {
        Some(outer) => is_valid_symbol(ctx, body, v, Some(outer)),
        None => false,
    }
}

/// MLIR's `isValidDim(value, region)`, with lf's GPU relaxation: a valid
/// symbol, an induction variable, `affine.apply` of valid dimensions,
/// `memref.dim` of a top-level memref, or (inside a GPU kernel) a GPU id.
pub fn is_valid_dim(ctx: &Context, body: &Body, v: Value, scope: Option<RegionId>) -> bool {
    is_valid_dim_in(ctx, body, v, &|| scope)
}

/// [`is_valid_dim`] with the scope region computed by `scope` only when the
/// answer depends on it: induction variables, and `affine.apply` ops inside
/// a loop or condition whose operands are, are valid dimensions in any
/// scope (an op's verifier asks this for every subscript, and finding the
/// scope walks up to the enclosing function).
pub fn is_valid_dim_in(ctx: &Context, body: &Body, v: Value, scope: &dyn Fn() -> Option<RegionId>) -> bool {
    if !is_index(ctx, body, v) {
        return false;
    }
    if is_induction_var(ctx, body, v) {
        return true;
    }
    // An `affine.apply` below the scope's top level is a valid symbol only
    // when its operands are (also through the scope's outer region), and
    // every valid symbol is a valid dimension: its operands being valid
    // dimensions decides, without asking the symbol question first.
    if let ValueDef::OpResult { op, .. } = body.value_def(v) {
        if is_op(ctx, body, op, AffineApplyOp::def()) && !is_top_level_in(ctx, body, v, scope) {
            return body.operands(op).all(|o| is_valid_dim_in(ctx, body, o, scope));
        }
    }
    let scope = scope();
    if is_valid_symbol(ctx, body, v, scope) {
        return true;
    }
    let ValueDef::OpResult { op, .. } = body.value_def(v) else {
        return false;
    };
    if is_op(ctx, body, op, AffineApplyOp::def()) {
        return body.operands(op).all(|o| is_valid_dim(ctx, body, o, scope));
    }
    if is_op(ctx, body, op, MemrefDimOp::def()) {
        let memref = body.operand(op, 0);
        return is_top_level(body, memref, scope) || is_top_level_of_its_scope(ctx, body, memref);
    }
    let is_gpu_id = [
        GpuThreadIdOp::def(),
        GpuBlockIdOp::def(),
        GpuBlockDimOp::def(),
        GpuGridDimOp::def(),
    ]
    .into_iter()
    .any(|d| is_op(ctx, body, op, d));
    is_gpu_id && (in_gpu_kernel(ctx, body, op) || body.parent_op(op).is_none())
}

/// [`is_top_level`] in the scope region `scope` computes, asked only when
/// the region holding `v` could be that scope: a region held by an op that
/// is no affine scope (a loop, a condition) is never one.
fn is_top_level_in(ctx: &Context, body: &Body, v: Value, scope: &dyn Fn() -> Option<RegionId>) -> bool {
    let Some(r) = value_region(body, v) else {
        return false;
    };
    match body.region_parent(r) {
        None => true,
        Some(parent) if !is_affine_scope(ctx, body, parent) => false,
        Some(_) => scope() == Some(r),
    }
}
