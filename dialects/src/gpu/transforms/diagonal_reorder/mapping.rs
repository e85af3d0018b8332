//! The block-id mappings of diagonal block reordering (DIGEST §004.8) as
//! affine maps of `(bidx, bidy)` for a constant grid `gx × gy`.

use lf_ir::affine::{AffineExpr, AffineMap};

/// The general bijective form the pass emits, as two single-result maps
/// `(bidx, bidy) -> newbidx` and `(bidx, bidy) -> newbidy`:
///
/// ```text
/// bid     = bidx + gx * bidy
/// newbidy = bid mod gy
/// newbidx = ((bid floordiv gy) + newbidy) mod gx
/// ```
///
/// It is a permutation of the `gx × gy` blocks for every grid: from
/// `(newbidx, newbidy)`, `bid floordiv gy = (newbidx - newbidy) mod gx` and
/// `bid = (bid floordiv gy) * gy + newbidy`.
pub fn general_maps(gx: i64, gy: i64) -> (AffineMap, AffineMap) {
    let bid = AffineExpr::dim(0).add(&AffineExpr::dim(1).mul_const(gx));
    let new_y = bid.modulo_const(gy);
    let new_x = bid.floor_div_const(gy).add(&new_y).modulo_const(gx);
    (AffineMap::new(2, 0, vec![new_x]), AffineMap::new(2, 0, vec![new_y]))
}

/// The seed's square form (`newbidy = bidx`, `newbidx = (bidx + bidy) mod
/// gx`), which is a permutation only when `gx == gy`. Not emitted by the
/// pass; kept to test that claim.
pub fn square_maps(gx: i64) -> (AffineMap, AffineMap) {
    let new_x = AffineExpr::dim(0).add(&AffineExpr::dim(1)).modulo_const(gx);
    (
        AffineMap::new(2, 0, vec![new_x]),
        AffineMap::new(2, 0, vec![AffineExpr::dim(0)]),
    )
}

/// Whether `maps` sends the blocks of a `gx × gy` grid one-to-one onto the
/// blocks of the same grid (evaluating the maps).
pub fn is_bijection(maps: &(AffineMap, AffineMap), gx: i64, gy: i64) -> bool {
    let mut seen = vec![false; (gx * gy) as usize];
    for by in 0..gy {
        for bx in 0..gx {
            let eval = |m: &AffineMap| m.evaluate(&[bx, by], &[]).and_then(|r| r.first().copied());
            let (Some(nx), Some(ny)) = (eval(&maps.0), eval(&maps.1)) else {
                return false;
            };
            if !(0..gx).contains(&nx) || !(0..gy).contains(&ny) {
                return false;
            }
            let slot = &mut seen[(ny * gx + nx) as usize];
            if *slot {
                return false;
            }
            *slot = true;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn general_form_is_a_bijection_on_every_grid_up_to_64x64() {
        for gy in 1..=64 {
            for gx in 1..=64 {
                assert!(is_bijection(&general_maps(gx, gy), gx, gy), "{gx}x{gy}");
            }
        }
    }

    #[test]
    fn square_form_is_a_bijection_only_on_square_grids() {
        for gy in 1..=64 {
            for gx in 1..=64 {
                assert_eq!(is_bijection(&square_maps(gx), gx, gy), gx == gy, "{gx}x{gy}");
            }
        }
    }
}
