//! Distances between accesses of two sibling loop nests (DIGEST §000.4): for
//! a source access in one nest and a destination access in a later nest of
//! the same block, the range of `i_src - i_dst` along the first `depth`
//! loops of each nest, over the pairs of iterations that touch the same
//! element. Loops around both nests (a time loop) are common: they are
//! equated, so the answer is for one iteration of them.
//!
//! The system is the dependence polyhedron of the pair (the same one the
//! dependence check builds, [`super::dependence::compose`]) with one
//! variable per level equated to the difference of the two induction
//! variables; its constant bounds come from lf-presburger's exact integer
//! optimization, so a distance is reported constant only when it is.

use super::alias::distinct_memrefs;
use super::dependence::{compose, num_common_loops};
use super::MemRefAccesses;
use lf_ir::{Body, Context, OpId};
use lf_presburger::{BoundKind, VarKind};

/// The range of the distance along one level: `None` ends are unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistanceRange {
    /// The smallest `i_src - i_dst`.
    pub min: Option<i64>,
    /// The largest `i_src - i_dst`.
    pub max: Option<i64>,
}

impl DistanceRange {
    /// The distance when it is one constant.
    pub fn constant(&self) -> Option<i64> {
        match (self.min, self.max) {
            (Some(a), Some(b)) if a == b => Some(a),
            _ => None,
        }
    }
}

/// What two accesses of sibling nests share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiblingDistance {
    /// They never touch the same element.
    Independent,
    /// They may: the distance range per level, outermost first.
    Distances(Vec<DistanceRange>),
}

/// The distances from `src` to `dst` (both `affine.load`/`affine.store`,
/// in different nests of one block) along the first `depth` loops of their
/// nests; an error (a reason for a remark) when the analysis cannot tell.
pub fn sibling_distance(
    accesses: &MemRefAccesses,
    ctx: &Context,
    body: &Body,
    src: OpId,
    dst: OpId,
    depth: usize,
) -> Result<SiblingDistance, String> {
    let (Some(s), Some(d)) = (accesses.info(ctx, body, src), accesses.info(ctx, body, dst)) else {
        return Err("not an affine access".into());
    };
    if s.memref != d.memref {
        if distinct_memrefs(ctx, body, s.memref, d.memref) {
            return Ok(SiblingDistance::Independent);
        }
        return Err("the accesses go through different views of one memref".into());
    }
    let (sr, dr) = match (&s.relation, &d.relation) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return Err(super::describe(e)),
    };
    let common = num_common_loops(ctx, body, &s.dims, &d.dims);
    let (sd, dd) = (s.dims.len(), d.dims.len());
    if sd < common + depth || dd < common + depth {
        return Err(format!("the accesses are not inside {depth} loops of their nests"));
    }
    let solver = |e: lf_presburger::Error| format!("the constraint solver gave up ({e})");
    let mut poly = accesses.composed(src, dst, || compose(sr, dr)).map_err(solver)?;
    // Columns: [src dims, dst dims, ...]; the common loops are one iteration.
    let cols = poly.num_cols();
    for c in 0..common {
        let mut row = vec![0i64; cols];
        row[c] = 1;
        row[sd + c] = -1;
        poly.add_equality(&row);
    }
    let first = poly.append_vars(VarKind::Range, depth);
    let cols = poly.num_cols();
    for l in 0..depth {
        let mut row = vec![0i64; cols];
        row[first + l] = 1;
        row[common + l] = -1;
        row[sd + common + l] = 1;
        poly.add_equality(&row);
    }
    if poly.is_empty().map_err(solver)? {
        return Ok(SiblingDistance::Independent);
    }
    let mut out = Vec::with_capacity(depth);
    for l in 0..depth {
        out.push(DistanceRange {
            min: poly.constant_bound(first + l, BoundKind::Lower).map_err(solver)?,
            max: poly.constant_bound(first + l, BoundKind::Upper).map_err(solver)?,
        });
    }
    Ok(SiblingDistance::Distances(out))
}
