//! The dependence check between two affine accesses (MLIR's
//! `checkMemrefAccessDependence`, `addOrderingConstraints`,
//! `computeDirectionVector`): the dependence polyhedron is the composition
//! of the source's access relation with the inverse of the destination's,
//! with "source before destination at depth d" constraints; it is empty
//! (no dependence) or each common loop gets the range of its distance.

use super::access::{AccessInfo, AccessRelation};
use super::alias::distinct_memrefs;
use super::domain::{is_affine_region_op, iv_owner};
use super::subscript_test;
use super::{DependenceComponent, DependenceResult, MemRefAccesses, Precision};
use crate::affine::utils::validity::is_affine_scope;
use crate::affine::AffineForOp;
use lf_ir::view::OpView;
use lf_ir::{BlockId, Body, Context, OpId, RegionId, Value};
use lf_presburger::{BoundKind, IntegerRelation, LocalRepr, VarKind};

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
fn ancestor_blocks(ctx: &Context, body: &Body, op: OpId) -> smallvec::SmallVec<[BlockId; 8]> {
    let mut out = smallvec::SmallVec::new();
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
    if src.memref != dst.memref && distinct_memrefs(ctx, body, src.memref, dst.memref) {
        return DependenceResult::NoDependence;
    }
    if !src.is_write && !dst.is_write {
        return DependenceResult::NoDependence;
    }
    if src.memref != dst.memref {
        return failure("the accesses go through different views of one memref");
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
    // The subscripts alone may contradict the ordering constraints.
    let (equal_loops, advancing) = ordering(common, loop_depth);
    if subscript_test::independent(
        &src_rel.subscript_side(),
        &dst_rel.subscript_side(),
        equal_loops,
        advancing,
    ) {
        // Debug builds (the tests) check the claim against the full system.
        #[cfg(debug_assertions)]
        if let Ok(poly) = dependence_polyhedron(src_rel, dst_rel, src.dims.len(), common, loop_depth) {
            let empty = match precision {
                Precision::MlirCompatible => poly.is_empty_fm(),
                Precision::Exact => poly.is_empty(),
            };
            debug_assert!(
                !matches!(empty, Ok(false)),
                "the subscript test found no dependence where the full check finds one"
            );
        }
        return DependenceResult::NoDependence;
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
///
/// MLIR's steps are `dst.inverse()`, then `mergeAndCompose(src)`: both
/// relations get each other's variables as zero columns, symbols aligned
/// by value, locals merged, then the subscripts become locals equated by
/// the two relations' rows. The columns of the first steps are laid out
/// here in one pass per relation ([`IntegerRelation::remap_columns`]), the
/// same layout MLIR's step-by-step moves and inserts give.
pub(super) fn compose(src: &AccessRelation, dst: &AccessRelation) -> lf_presburger::Result<IntegerRelation> {
    let (s, d) = (&src.rel, &dst.rel);
    let (sd, sr, ss, sl) = counts(s);
    let (dd, dr, ds, dl) = counts(d);
    let (symbols, src_symbol_at) = align_symbols(&dst.symbols, &src.symbols);
    let ns = symbols.len();
    // Both relations: domain [src dims, dst subscripts], range [src
    // subscripts, dst dims], the symbols, locals [dst's, src's].
    let (domain, range, locals) = (sd + dr, sr + dd, dl + sl);
    let (sym0, loc0) = (domain + range, domain + range + ns);
    let konst = loc0 + locals;
    // `this`: the inverse of dst.
    let this_map: Vec<usize> = (0..dd)
        .map(|c| domain + sr + c)
        .chain((0..dr).map(|r| sd + r))
        .chain((0..ds).map(|k| sym0 + k))
        .chain((0..dl).map(|l| loc0 + l))
        .chain([konst])
        .collect();
    let result_map: Vec<usize> = (0..sd)
        .chain((0..sr).map(|r| domain + r))
        .chain((0..ss).map(|k| sym0 + src_symbol_at[k]))
        .chain((0..sl).map(|l| loc0 + dl + l))
        .chain([konst])
        .collect();
    // Then each subscript column becomes a local after the merged locals
    // (src's and dst's the same column), the zero columns inserted for the
    // other side's subscripts go, and the rows of both are joined:
    // [src dims, dst dims, symbols, locals, subscripts].
    let final_maps = |l: usize| {
        let (f_sym0, f_loc0) = (sd + dd, sd + dd + ns);
        let f_konst = f_loc0 + l + sr;
        let tail = move || {
            (0..ns)
                .map(move |k| f_sym0 + k)
                .chain((0..l).map(move |j| f_loc0 + j))
                .chain([f_konst])
        };
        let result: Vec<usize> = (0..sd)
            .chain(std::iter::repeat_n(usize::MAX, dr))
            .chain((0..sr).map(|r| f_loc0 + l + r))
            .chain((0..dd).map(|c| sd + c))
            .chain(tail())
            .collect();
        let this: Vec<usize> = (0..sd)
            .chain((0..dr).map(|r| f_loc0 + l + r))
            .chain(std::iter::repeat_n(usize::MAX, sr))
            .chain((0..dd).map(|c| sd + c))
            .chain(tail())
            .collect();
        (result, this)
    };
    let (mut result, this) = if locals == 0 {
        // Nothing to merge: straight to the final columns.
        let (result_post, this_post) = final_maps(0);
        let through = |pre: &[usize], post: &[usize]| -> Vec<usize> { pre.iter().map(|&c| post[c]).collect() };
        (
            s.remap_columns(sd, dd, ns, sr, &through(&result_map, &result_post)),
            d.remap_columns(sd, dd, ns, sr, &through(&this_map, &this_post)),
        )
    } else {
        let mut this = d.remap_columns(domain, range, ns, locals, &this_map);
        let mut result = s.remap_columns(domain, range, ns, locals, &result_map);
        // The locals' representations, found once per access and laid out
        // as the columns are: what searching the laid-out systems finds.
        let cols = konst + 1;
        let lay = |reprs: &[Option<LocalRepr>], map: &[usize]| -> Vec<Option<LocalRepr>> {
            reprs.iter().map(|r| r.as_ref().map(|r| r.remap(cols, map))).collect()
        };
        let divs: Vec<Option<LocalRepr>> = lay(dst.local_reprs(), &this_map)
            .into_iter()
            .chain(lay(src.local_reprs(), &result_map))
            .collect();
        debug_assert_eq!(
            divs,
            this.laid_out_local_reprs_fm(&result, dl),
            "local representations laid out differ from those of the laid-out systems"
        );
        this.merge_laid_out_local_vars_with_reprs_fm(&mut result, dl, divs)?;
        let l = this.num_local_vars();
        let (result_post, this_post) = final_maps(l);
        (
            result.remap_columns(sd, dd, ns, l + sr, &result_post),
            this.remap_columns(sd, dd, ns, l + sr, &this_post),
        )
    };
    result.append_constraints(&this);
    result.remove_redundant_local_vars_fm()?;
    let d = result.num_domain_vars();
    result.move_vars_fm(VarKind::Domain, 0, d, VarKind::Range, 0);
    Ok(result)
}

/// The numbers of domain, range, symbol and local variables of `r`.
fn counts(r: &IntegerRelation) -> (usize, usize, usize, usize) {
    (
        r.num_domain_vars(),
        r.num_range_vars(),
        r.num_symbol_vars(),
        r.num_local_vars(),
    )
}

/// MLIR's `IntegerRelation::mergeAndAlignSymbols(a, b)` on the symbols'
/// values: `a`'s symbols keep their places, each of `b`'s is swapped into
/// the place of the same value in `a` (a symbol without a value matches
/// none), `a` gets `b`'s others appended. Gives the merged symbols and the
/// place of each of `b`'s.
fn align_symbols(a: &[Option<Value>], b: &[Option<Value>]) -> (Vec<Option<Value>>, Vec<usize>) {
    let mut b_ids = b.to_vec();
    let mut b_orig: Vec<Option<usize>> = (0..b.len()).map(Some).collect();
    for (i, &id) in a.iter().enumerate() {
        match (i..b_ids.len()).find(|&k| id.is_some() && b_ids[k] == id) {
            Some(k) => {
                b_ids.swap(i, k);
                b_orig.swap(i, k);
            }
            None => {
                b_ids.insert(i, id);
                b_orig.insert(i, None);
            }
        }
    }
    let mut place = vec![0; b.len()];
    for (p, o) in b_orig.iter().enumerate() {
        if let Some(k) = o {
            place[*k] = p;
        }
    }
    (b_ids, place)
}

/// The ordering constraints at `loop_depth` (1-based; `common` loops shared):
/// how many leading loops are equal in source and destination, and the loop
/// that is later in the destination, when it is common.
pub(super) fn ordering(common: usize, loop_depth: usize) -> (usize, Option<usize>) {
    if loop_depth <= common {
        (loop_depth.saturating_sub(1), loop_depth.checked_sub(1))
    } else {
        (common, None)
    }
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
    let (equal, advancing) = ordering(common, loop_depth);
    for i in 0..equal {
        let mut row = vec![0; cols];
        row[i] = -1;
        row[i + num_src_dims] = 1;
        result.add_equality(&row);
    }
    if let Some(l) = advancing {
        let mut row = vec![0; cols];
        row[l] = -1;
        row[l + num_src_dims] = 1;
        row[cols - 1] = -1;
        result.add_inequality(&row);
    }
    super::check_size(result).map_err(|_| {
        lf_presburger::Error::LimitExceeded(lf_presburger::Limit::Variables {
            found: result.num_vars(),
        })
    })
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
