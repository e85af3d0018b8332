//! The dependence check between two affine accesses (MLIR's
//! `checkMemrefAccessDependence`, `addOrderingConstraints`,
//! `computeDirectionVector`): the dependence polyhedron is the composition
//! of the source's access relation with the inverse of the destination's,
//! with "source before destination at depth d" constraints; it is empty
//! (no dependence) or each common loop gets the range of its distance.

use super::access::{AccessInfo, AccessRelation};
use super::domain::{is_affine_region_op, iv_owner};
use super::{DependenceComponent, DependenceResult, MemRefAccesses, Precision};
use crate::affine::utils::validity::is_affine_scope;
use crate::affine::AffineForOp;
use lf_ir::view::OpView;
use lf_ir::{BlockId, Body, Context, OpId, RegionId, Value};
use lf_presburger::{BoundKind, IntegerRelation, VarKind};

/// The region an access is analysed in: the closest region not held by an
/// `affine.for`/`affine.if`/`affine.parallel` (MLIR's
/// `getAffineAnalysisScope`; `None` for the body's root region).
fn analysis_scope(ctx: &Context, body: &Body, op: OpId) -> Option<RegionId> {
    let mut cur = op;
    while let Some(p) = body.parent_op(cur) {
        if !is_affine_region_op(ctx, body, p) {
            return body.op_block(cur).and_then(|b| body.block_region(b));
        }
        cur = p;
    }
    body.op_block(cur).and_then(|b| body.block_region(b))
}

/// The blocks holding `op`, innermost first, up to and including the block
/// of the closest affine scope.
fn ancestor_blocks(ctx: &Context, body: &Body, op: OpId) -> Vec<BlockId> {
    let mut out = Vec::new();
    let mut cur = body.op_block(op);
    while let Some(b) = cur {
        out.push(b);
        let parent = body.block_region(b).and_then(|r| body.region_parent(r));
        match parent {
            Some(p) if !is_affine_scope(ctx, body, p) => cur = body.op_block(p),
            _ => break,
        }
    }
    out
}

/// The closest block around both ops within their affine scope.
fn common_block(ctx: &Context, body: &Body, a: OpId, b: OpId) -> Option<BlockId> {
    let (ca, cb) = (ancestor_blocks(ctx, body, a), ancestor_blocks(ctx, body, b));
    let mut common = None;
    for (x, y) in ca.iter().rev().zip(cb.iter().rev()) {
        if x != y {
            break;
        }
        common = Some(*x);
    }
    common
}

fn ancestor_in_block(body: &Body, block: BlockId, op: OpId) -> Option<OpId> {
    let mut cur = op;
    loop {
        if body.op_block(cur) == Some(block) {
            return Some(cur);
        }
        cur = body.parent_op(cur)?;
    }
}

/// How many leading loop variables the two domains share (MLIR's
/// `getNumCommonLoops`): the count stops at the first dimension that
/// differs or is not a loop variable (a value an `affine.if` condition uses
/// is a dimension of the domain too).
pub(super) fn num_common_loops(ctx: &Context, body: &Body, src: &[Value], dst: &[Value]) -> usize {
    src.iter()
        .zip(dst)
        .take_while(|(a, b)| a == b && iv_owner(ctx, body, **a).is_some())
        .count()
}

/// MLIR's `checkMemrefAccessDependence` for two affine accesses.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check(
    memo: &MemRefAccesses,
    ctx: &Context,
    body: &Body,
    src: &AccessInfo,
    dst: &AccessInfo,
    loop_depth: usize,
    precision: Precision,
    want_components: bool,
) -> DependenceResult {
    if src.memref != dst.memref {
        return DependenceResult::NoDependence;
    }
    if !src.is_write && !dst.is_write {
        return DependenceResult::NoDependence;
    }
    if analysis_scope(ctx, body, src.op) != analysis_scope(ctx, body, dst.op) {
        return failure("the accesses are in different affine scopes");
    }
    let Some(block) = common_block(ctx, body, src.op, dst.op) else {
        return failure("the accesses have no common block in their affine scope");
    };
    let (src_rel, dst_rel) = match (&src.relation, &dst.relation) {
        (Ok(s), Ok(d)) => (s, d),
        (Err(e), _) | (_, Err(e)) => return failure(&super::describe(e)),
    };
    let common = num_common_loops(ctx, body, &src.dims, &dst.dims);
    if loop_depth > common {
        let (a, b) = (
            ancestor_in_block(body, block, src.op),
            ancestor_in_block(body, block, dst.op),
        );
        let before = match (a, b) {
            (Some(a), Some(b)) => a != b && body.is_before_in_block(a, b),
            _ => false,
        };
        if !before {
            return DependenceResult::NoDependence;
        }
    }
    let poly = memo
        .composed(src.op, dst.op, || compose(src_rel, dst_rel))
        .and_then(|mut poly| {
            add_ordering_constraints(&mut poly, src.dims.len(), common, loop_depth)?;
            Ok(poly)
        });
    match poly {
        Err(e) => failure(&solver_failure(&e)),
        Ok(poly) => {
            let keep = want_components && common > 0;
            let (empty, mut poly) = match precision {
                Precision::MlirCompatible if !keep => (poly.into_is_empty_fm(), None),
                Precision::MlirCompatible => (poly.is_empty_fm(), Some(poly)),
                Precision::Exact => (poly.is_empty(), Some(poly)),
            };
            match empty {
                Err(e) => failure(&solver_failure(&e)),
                Ok(true) => DependenceResult::NoDependence,
                Ok(false) => {
                    let Some(poly) = poly.as_mut().filter(|_| keep) else {
                        return DependenceResult::HasDependence { components: Vec::new() };
                    };
                    match direction_vector(ctx, body, poly, &src.dims, common, precision) {
                        Ok(components) => DependenceResult::HasDependence { components },
                        Err(e) => failure(&solver_failure(&e)),
                    }
                }
            }
        }
    }
}

/// The reason for a failure of the constraint solver.
fn solver_failure(e: &lf_presburger::Error) -> String {
    match e {
        lf_presburger::Error::LimitExceeded(lf_presburger::Limit::Constraints { found }) => format!(
            "Fourier-Motzkin elimination would create {found} constraints (limit {})",
            lf_presburger::FM_MAX_ROWS
        ),
        e => e.to_string(),
    }
}

fn failure(reason: &str) -> DependenceResult {
    DependenceResult::Failure {
        reason: reason.to_string(),
    }
}

/// The source's access relation composed with the inverse of the
/// destination's (MLIR's `inverse` and `mergeAndCompose`), as a set over
/// `[src loop vars, dst loop vars, symbols, locals]`, with the ordering
/// constraints of `loop_depth`.
pub(super) fn dependence_polyhedron(
    src: &AccessRelation,
    dst: &AccessRelation,
    num_src_dims: usize,
    common: usize,
    loop_depth: usize,
) -> lf_presburger::Result<IntegerRelation> {
    let mut poly = compose(src, dst)?;
    add_ordering_constraints(&mut poly, num_src_dims, common, loop_depth)?;
    Ok(poly)
}

/// The dependence polyhedron without its ordering constraints: the same for
/// every depth, so [`MemRefAccesses`] keeps it for the pair.
pub(super) fn compose(src: &AccessRelation, dst: &AccessRelation) -> lf_presburger::Result<IntegerRelation> {
    // dst.inverse(): [results] -> [dst dims].
    let mut this = dst.rel.clone();
    let mut this_syms = dst.symbols.clone();
    let r = this.num_range_vars();
    let dd = this.num_domain_vars();
    this.move_vars_fm(VarKind::Domain, 0, dd, VarKind::Range, r);
    this.move_vars_fm(VarKind::Range, 0, r, VarKind::Domain, 0);
    // mergeAndCompose(src).
    let mut result = src.rel.clone();
    let mut result_syms = src.symbols.clone();
    let (this_domain, this_range) = (this.num_domain_vars(), this.num_range_vars());
    let (other_domain, other_range) = (result.num_domain_vars(), result.num_range_vars());
    this.insert_vars(VarKind::Domain, 0, other_domain);
    this.insert_vars(VarKind::Range, 0, other_range);
    result.insert_vars(VarKind::Domain, other_domain, this_domain);
    result.insert_vars(VarKind::Range, other_range, this_range);
    merge_and_align_symbols(&mut this, &mut this_syms, &mut result, &mut result_syms);
    this.merge_local_vars_fm(&mut result)?;
    let off = result.var_offset(VarKind::Domain);
    result.remove_vars(off + other_domain, off + other_domain + this_domain);
    let nl = result.num_local_vars();
    result.move_vars_fm(VarKind::Range, 0, other_range, VarKind::Local, nl);
    let nl = this.num_local_vars();
    this.move_vars_fm(
        VarKind::Domain,
        other_domain,
        other_domain + this_domain,
        VarKind::Local,
        nl,
    );
    let off = this.var_offset(VarKind::Range);
    this.remove_vars(off, off + other_range);
    for row in this.inequalities() {
        result.add_inequality(row);
    }
    for row in this.equalities() {
        result.add_equality(row);
    }
    result.remove_redundant_local_vars_fm()?;
    let d = result.num_domain_vars();
    result.move_vars_fm(VarKind::Domain, 0, d, VarKind::Range, 0);
    Ok(result)
}

/// MLIR's `addOrderingConstraints`: the common loops before `loop_depth`
/// equal, the one at `loop_depth` (when common) later in the destination.
fn add_ordering_constraints(
    result: &mut IntegerRelation,
    num_src_dims: usize,
    common: usize,
    loop_depth: usize,
) -> lf_presburger::Result<()> {
    let cols = result.num_cols();
    let n = common.min(loop_depth);
    for i in 0..n {
        let mut row = vec![0; cols];
        row[i] = -1;
        row[i + num_src_dims] = 1;
        if i + 1 == loop_depth {
            row[cols - 1] = -1;
            result.add_inequality(&row);
        } else {
            result.add_equality(&row);
        }
    }
    super::check_size(result).map_err(|_| {
        lf_presburger::Error::LimitExceeded(lf_presburger::Limit::Variables {
            found: result.num_vars(),
        })
    })
}

/// MLIR's `IntegerRelation::mergeAndAlignSymbols` on relations whose
/// symbols carry values.
fn merge_and_align_symbols(
    a: &mut IntegerRelation,
    a_syms: &mut Vec<Option<Value>>,
    b: &mut IntegerRelation,
    b_syms: &mut Vec<Option<Value>>,
) {
    let mut i = 0;
    while i < a_syms.len() {
        let id = a_syms[i];
        let found = (i..b_syms.len()).find(|&k| id.is_some() && b_syms[k] == id);
        let off = b.var_offset(VarKind::Symbol);
        match found {
            Some(k) => {
                b.swap_vars(off + i, off + k);
                b_syms.swap(i, k);
            }
            None => {
                b.insert_vars(VarKind::Symbol, i, 1);
                b_syms.insert(i, id);
            }
        }
        i += 1;
    }
    while i < b_syms.len() {
        a.insert_vars(VarKind::Symbol, i, 1);
        a_syms.insert(i, b_syms[i]);
        i += 1;
    }
}

/// MLIR's `computeDirectionVector`: a variable per common loop equal to
/// the destination's loop variable minus the source's, every other
/// variable projected out, then each one's constant bounds.
pub(super) fn direction_vector(
    ctx: &Context,
    body: &Body,
    poly: &mut IntegerRelation,
    src_dims: &[Value],
    common: usize,
    precision: Precision,
) -> lf_presburger::Result<Vec<DependenceComponent>> {
    let to_eliminate = poly.num_vars();
    poly.insert_vars(VarKind::Range, 0, common);
    let ns = src_dims.len();
    for j in 0..common {
        let mut row = vec![0; poly.num_cols()];
        row[j] = 1;
        row[j + common] = 1;
        row[j + common + ns] = -1;
        poly.add_equality(&row);
    }
    if precision == Precision::MlirCompatible {
        poly.project_out_fm(common, to_eliminate)?;
    }
    let ir = (ctx, body);
    let mut out = Vec::with_capacity(common);
    for (j, &iv) in src_dims.iter().enumerate().take(common) {
        let op = iv_owner(ctx, body, iv).filter(|&o| AffineForOp::isa(&ir, o));
        let (lb, ub) = match precision {
            Precision::MlirCompatible => (
                poly.constant_bound_fm(j, BoundKind::Lower)?,
                poly.constant_bound_fm(j, BoundKind::Upper)?,
            ),
            Precision::Exact => (
                poly.constant_bound(j, BoundKind::Lower)?,
                poly.constant_bound(j, BoundKind::Upper)?,
            ),
        };
        out.push(DependenceComponent { loop_op: op, lb, ub });
    }
    Ok(out)
}
