//! Whether two affine accesses touch the same element in every execution
//! (MLIR's `MemRefAccess::operator==`): the same memref, and access maps
//! whose difference is zero once both are composed with their
//! `affine.apply` producers, canonicalized and simplified
//! (`AffineValueMap::difference`).

use super::access::{access_map, affine_access};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::{Body, Context, OpId, Value};
use rustc_hash::FxHashMap;

/// The memref and composed access map (with its operands) of an access.
type Composed = Option<(Value, AffineMap, Vec<Value>)>;

/// [`same_access`] with each access's composed map computed once: valid
/// while the accesses' operands (and their `affine.apply` producers) do
/// not change.
#[derive(Default)]
pub struct AccessMaps {
    maps: FxHashMap<OpId, Composed>,
}

impl AccessMaps {
    /// An empty cache.
    pub fn new() -> AccessMaps {
        AccessMaps::default()
    }

    fn composed(&mut self, ctx: &Context, body: &Body, op: OpId) -> &Composed {
        self.maps.entry(op).or_insert_with(|| {
            let (memref, _, map, indices) = affine_access(ctx, body, op)?;
            if map.num_inputs() as usize != indices.len() {
                return None;
            }
            let (m, o) = access_map(ctx, body, &map, &indices);
            Some((memref, m, o))
        })
    }

    /// [`same_access`], cached.
    pub fn same(&mut self, ctx: &Context, body: &Body, a: OpId, b: OpId) -> bool {
        let Some((ma, map_a, oa)) = self.composed(ctx, body, a).clone() else {
            return false;
        };
        let Some((mb, map_b, ob)) = self.composed(ctx, body, b) else {
            return false;
        };
        if ma != *mb || map_a.num_results() != map_b.num_results() {
            return false;
        }
        is_zero_difference(ctx, body, (&map_a, &oa), (map_b, ob))
    }
}

/// Whether the affine accesses `a` and `b` (`affine.load` or
/// `affine.store`) name the same element of the same memref for every
/// value of their operands. `false` for other ops.
pub fn same_access(ctx: &Context, body: &Body, a: OpId, b: OpId) -> bool {
    let (Some((ma, _, map_a, ia)), Some((mb, _, map_b, ib))) =
        (affine_access(ctx, body, a), affine_access(ctx, body, b))
    else {
        return false;
    };
    if ma != mb || map_a.num_results() != map_b.num_results() {
        return false;
    }
    if map_a.num_inputs() as usize != ia.len() || map_b.num_inputs() as usize != ib.len() {
        return false;
    }
    let (ca, oa) = access_map(ctx, body, &map_a, &ia);
    let (cb, ob) = access_map(ctx, body, &map_b, &ib);
    is_zero_difference(ctx, body, (&ca, &oa), (&cb, &ob))
}

/// Whether `a - b` (maps with their operands) simplifies to all zeros, as
/// MLIR's `AffineValueMap::difference` followed by a check that every
/// result is the constant 0.
fn is_zero_difference(ctx: &Context, body: &Body, a: (&AffineMap, &[Value]), b: (&AffineMap, &[Value])) -> bool {
    let (ma, oa) = a;
    let (mb, ob) = b;
    let (nda, nsa) = (ma.num_dims(), ma.num_symbols());
    let (ndb, nsb) = (mb.num_dims(), mb.num_symbols());
    // b's dims after a's, b's symbols after a's.
    let shifted = mb.shift_dims(nda, 0).shift_symbols(nsa, 0);
    let results: Vec<AffineExpr> = ma
        .results()
        .iter()
        .zip(shifted.results())
        .map(|(x, y)| x.sub(y))
        .collect();
    let diff = AffineMap::new(nda + ndb, nsa + nsb, results);
    let mut operands: Vec<Value> = oa[..nda as usize].to_vec();
    operands.extend_from_slice(&ob[..ndb as usize]);
    operands.extend_from_slice(&oa[nda as usize..]);
    operands.extend_from_slice(&ob[ndb as usize..]);
    let map = match crate::affine::utils::canonicalize_map_and_operands(ctx, body, &diff, &operands) {
        Some((m, _)) => m,
        None => diff,
    };
    map.simplify().results().iter().all(|e| e.as_constant() == Some(0))
}
