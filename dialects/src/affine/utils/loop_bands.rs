//! Bands of perfectly nested `affine.for` loops (MLIR's
//! `getPerfectlyNestedLoops`, `isPerfectlyNested` and
//! `getTopLevelTileableBands` in `Affine/Utils/LoopUtils.cpp`), and whether
//! a band's iteration space is a hyper-rectangle (no loop's bounds depend
//! on another loop of the band).

use super::map_composition::canonicalize_map_and_operands;
use crate::affine::{AffineBound, AffineForOp};
use lf_ir::view::{Ir, OpView};
use lf_ir::{RegionId, Value};

/// The perfect nest from `root` down: `root`, then the loop that is the only
/// op (besides the terminator) of its body, and so on (MLIR's
/// `getPerfectlyNestedLoops`).
pub fn perfectly_nested_loops<'c>(ir: &impl Ir<'c>, root: AffineForOp) -> Vec<AffineForOp> {
    let body = ir.body();
    let mut band = vec![root];
    let mut cur = root;
    loop {
        let block = cur.region_block(ir);
        let Some(first) = body.first_op(block) else { break };
        let second = body.next_op(first);
        if second.is_none() || second != body.last_op(block) {
            break;
        }
        match AffineForOp::cast(ir, first) {
            Some(inner) => {
                band.push(inner);
                cur = inner;
            }
            None => break,
        }
    }
    band
}

/// Whether `loops` (outermost first) are successively nested, each the only
/// op besides the terminator in the body of the one before (MLIR's
/// `isPerfectlyNested`).
pub fn is_perfectly_nested<'c>(ir: &impl Ir<'c>, loops: &[AffineForOp]) -> bool {
    let body = ir.body();
    loops.windows(2).all(|w| {
        let block = w[0].region_block(ir);
        body.parent_op(w[1].op()) == Some(w[0].op())
            && body.first_op(block) == Some(w[1].op())
            && body.next_op(w[1].op()) == body.last_op(block)
    })
}

/// The maximal perfect nest of every `affine.for` directly in the blocks of
/// `regions` (a function's body), in order (MLIR's
/// `getTopLevelTileableBands`).
pub fn top_level_bands<'c>(ir: &impl Ir<'c>, regions: &[RegionId]) -> Vec<Vec<AffineForOp>> {
    let body = ir.body();
    let mut bands = Vec::new();
    for &r in regions {
        for block in body.region_blocks(r) {
            for op in body.block_ops(block) {
                if let Some(f) = AffineForOp::cast(ir, op) {
                    bands.push(perfectly_nested_loops(ir, f));
                }
            }
        }
    }
    bands
}

/// `bound` composed with the `affine.apply` ops that produce its operands.
fn composed<'c>(ir: &impl Ir<'c>, bound: AffineBound) -> AffineBound {
    match canonicalize_map_and_operands(ir.ctx(), ir.body(), &bound.map, &bound.operands) {
        Some((m, o)) => AffineBound::map(m, &o),
        None => bound,
    }
}

/// The first loop of `band` (with its position) whose lower or upper bound
/// uses the induction variable of an outer loop of the band, once composed
/// with the `affine.apply` ops that compute its operands: such a band is not
/// a hyper-rectangle (MLIR's `checkIfHyperRectangular`).
pub fn non_rectangular_loop<'c>(ir: &impl Ir<'c>, band: &[AffineForOp]) -> Option<(usize, AffineForOp)> {
    let ivs: Vec<Value> = band.iter().map(|l| l.iv(ir)).collect();
    for (k, l) in band.iter().enumerate().skip(1) {
        for bound in [l.lower_bound(ir), l.upper_bound(ir)] {
            let c = composed(ir, bound);
            let used = uses_inputs(&c);
            if c.operands.iter().zip(&used).any(|(v, u)| *u && ivs[..k].contains(v)) {
                return Some((k, *l));
            }
        }
    }
    None
}

/// Which inputs (dims, then symbols) of the bound's map its results use.
fn uses_inputs(b: &AffineBound) -> Vec<bool> {
    let mut used = b.map.used_dims();
    used.extend(b.map.used_symbols());
    used
}
