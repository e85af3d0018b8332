//! [`canonicalize_map_and_operands`](super::canonicalize_map_and_operands)
//! on coefficients: when the map's results and the maps of the
//! `affine.apply` ops composed into it are linear (no division or `mod`
//! that stays one, no product of two non-constants), composing, folding
//! constants, promoting symbols, merging duplicates and dropping unused
//! operands are additions of coefficient vectors, and the map is rebuilt
//! once at the end, instead of substituting expression trees at every step
//! and flattening them again to simplify.
//!
//! The result is what the tree path gives, by construction: simplifying a
//! linear expression rebuilds its linear form
//! ([`lf_ir::affine::linear_form`]), the operands are numbered in the same
//! order, and the cases where the two could differ fall back to the tree
//! path (see [`canonicalize_linear`]).

use super::map_composition::{compose_producers, renumber_positions, Positions, Renumbered};
use lf_ir::affine::{expr_from_linear_form, linear_form, AffineMap};
use lf_ir::{Body, Context, Value};
use smallvec::SmallVec;

/// A short list kept inline (most maps have a few operands and results):
/// the lists of a composition then cost no allocation.
type Short<T> = SmallVec<[T; 8]>;

/// The canonical map and operands found on coefficients.
pub(crate) struct Canonical {
    pub map: AffineMap,
    pub operands: Vec<Value>,
}

/// Coefficients and constants at most this large (in magnitude) keep
/// every intermediate value of the tree path far from overflow; larger
/// ones take the tree path, which leaves an overflowing expression as it
/// is.
const MAX_MAGNITUDE: i64 = 1 << 24;

/// One result of the map: coefficients of the dims and symbols as the
/// composition has extended them, and the constant.
struct LinearResult {
    dims: Short<i64>,
    syms: Short<i64>,
    constant: i64,
}

/// `x + c * y`, if it stays small (see [`MAX_MAGNITUDE`]).
fn add_scaled(x: i64, c: i64, y: i64) -> Option<i64> {
    let r = x.checked_add(c.checked_mul(y)?)?;
    (r.unsigned_abs() <= MAX_MAGNITUDE.unsigned_abs()).then_some(r)
}

/// The linear form of every result of `map`, split into dims, symbols and
/// constant; `None` if one is not linear or has a large coefficient.
fn linear_results(map: &AffineMap) -> Option<SmallVec<[LinearResult; 2]>> {
    let (nd, ns) = (map.num_dims() as usize, map.num_symbols() as usize);
    map.results()
        .iter()
        .map(|r| {
            let row = linear_form(r, nd as u32, ns as u32)?;
            if row.iter().any(|c| c.unsigned_abs() > MAX_MAGNITUDE.unsigned_abs()) {
                return None;
            }
            Some(LinearResult {
                dims: Short::from_slice(&row[..nd]),
                syms: Short::from_slice(&row[nd..nd + ns]),
                constant: row[nd + ns],
            })
        })
        .collect()
}

/// [`canonicalize_map_and_operands`](super::canonicalize_map_and_operands)
/// of a linear map with linear producers: `Some(None)` when nothing
/// changes, `Some(Some(..))` with the new map and operands, `None` when the
/// map or a producer is not linear (or has large coefficients), or when an
/// operand repeats with a coefficient that cancels at one of its places
/// (the tree path numbers such an operand where it is first written,
/// cancelled or not).
pub(crate) fn canonicalize_linear(
    ctx: &Context,
    body: &Body,
    map: &AffineMap,
    operands: &[Value],
) -> Option<Option<Canonical>> {
    let mut results = linear_results(map)?;
    let nd = map.num_dims() as usize;
    let mut dims: Vec<Value> = operands[..nd].to_vec();
    let mut syms: Vec<Value> = operands[nd..].to_vec();
    compose_producers(ctx, body, &mut dims, &mut syms, |step| {
        let producer = linear_results(step.map)?.pop()?;
        for r in &mut results {
            r.dims.resize(step.num_dims, 0);
            r.syms.resize(step.num_syms, 0);
            let c = std::mem::take(if step.is_dim {
                &mut r.dims[step.pos]
            } else {
                &mut r.syms[step.pos]
            });
            if c == 0 {
                continue;
            }
            let into = if step.is_dim { &mut r.dims } else { &mut r.syms };
            for (k, &pc) in producer.dims.iter().enumerate() {
                let at = step.dims_at + k;
                into[at] = add_scaled(into[at], c, pc)?;
            }
            for (k, &pc) in producer.syms.iter().enumerate() {
                let at = step.syms_at + k;
                r.syms[at] = add_scaled(r.syms[at], c, pc)?;
            }
            r.constant = add_scaled(r.constant, c, producer.constant)?;
        }
        Some(())
    })?;
    for r in &mut results {
        r.dims.resize(dims.len(), 0);
        r.syms.resize(syms.len(), 0);
    }
    let used_d: Short<bool> = (0..dims.len())
        .map(|i| results.iter().any(|r| r.dims[i] != 0))
        .collect();
    let used_s: Short<bool> = (0..syms.len())
        .map(|i| results.iter().any(|r| r.syms[i] != 0))
        .collect();
    if repeats_where_cancelled(&dims, &used_d, &syms, &used_s) {
        return None;
    }
    let Positions {
        dim_to,
        sym_to,
        dims: new_dims,
        syms: new_syms,
    } = renumber_positions(ctx, body, &dims, &syms, &used_d, &used_s);
    // The rows over the new operands, then without the unused ones.
    let (nd2, ns2) = (new_dims.len(), new_syms.len());
    let mut rows: SmallVec<[Short<i64>; 2]> = SmallVec::with_capacity(results.len());
    for r in &results {
        let mut row: Short<i64> = smallvec::smallvec![0i64; nd2 + ns2 + 1];
        for (&c, to) in r.dims.iter().zip(&dim_to).chain(r.syms.iter().zip(&sym_to)) {
            let at = match *to {
                Renumbered::Constant(k) => {
                    row[nd2 + ns2] = add_scaled(row[nd2 + ns2], c, k)?;
                    continue;
                }
                Renumbered::Dim(j) => j as usize,
                Renumbered::Symbol(j) => nd2 + j as usize,
            };
            row[at] = add_scaled(row[at], c, 1)?;
        }
        row[nd2 + ns2] = add_scaled(row[nd2 + ns2], 1, r.constant)?;
        rows.push(row);
    }
    let kept: Short<bool> = (0..nd2 + ns2).map(|j| rows.iter().any(|row| row[j] != 0)).collect();
    let (nd3, ns3) = (
        kept[..nd2].iter().filter(|k| **k).count(),
        kept[nd2..].iter().filter(|k| **k).count(),
    );
    let exprs = rows
        .iter()
        .map(|row| {
            let dense: Short<i64> = row[..nd2 + ns2]
                .iter()
                .zip(&kept)
                .filter(|(_, k)| **k)
                .map(|(c, _)| *c)
                .chain([row[nd2 + ns2]])
                .collect();
            expr_from_linear_form(&dense, nd3, ns3)
        })
        .collect();
    let new_map = AffineMap::new(nd3 as u32, ns3 as u32, exprs);
    let out: Vec<Value> = new_dims
        .iter()
        .chain(&new_syms)
        .zip(&kept)
        .filter(|(_, k)| **k)
        .map(|(v, _)| *v)
        .collect();
    if new_map == *map && out == operands {
        return Some(None);
    }
    Some(Some(Canonical {
        map: new_map,
        operands: out,
    }))
}

/// Whether a value sits at two places of the operands (dims, then
/// symbols), one of them with a cancelled (zero) coefficient and another
/// one used: the tree path would number it at its first place.
fn repeats_where_cancelled(dims: &[Value], used_d: &[bool], syms: &[Value], used_s: &[bool]) -> bool {
    let all: Short<(Value, bool)> = dims
        .iter()
        .copied()
        .zip(used_d.iter().copied())
        .chain(syms.iter().copied().zip(used_s.iter().copied()))
        .collect();
    all.iter()
        .enumerate()
        .any(|(i, &(v, used))| !used && all.iter().enumerate().any(|(j, &(w, u))| j != i && w == v && u))
}
