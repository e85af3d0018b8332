//! IHOP's mapping search (DIGEST §003.6): every permutation γ of the
//! band's counters onto x, y, z and every power-of-two block shape of the
//! fixed block volume, costed as Σ over accesses of execution count × the
//! cost table's entry for the coefficients along the counters on x, y, z.

use super::accesses::Access;
use super::cost_table::{thread_cost, Coef};

/// The largest block side CUDA allows along z (x and y allow 1024).
pub const MAX_BLOCK_Z: u64 = 64;
/// The largest block side along x and y.
pub const MAX_BLOCK_XY: u64 = 1024;

/// One candidate mapping: `gamma[a]` is the counter on axis `a` (x, y, z).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The counter mapped to each axis.
    pub gamma: Vec<usize>,
    /// Block sizes along x, y, z (1 past the band's depth).
    pub block: [u64; 3],
    /// The model's memory time per thread.
    pub cost: f64,
}

/// Which permutations and shapes the search tries.
#[derive(Clone, Debug, Default)]
pub struct SearchSpace {
    /// `Some(γ)`: only this permutation (identity or user-given).
    pub gamma: Option<Vec<usize>>,
    /// `Some(shape)`: only this block shape.
    pub block: Option<[u64; 3]>,
}

/// Every permutation of `0..n`, identity first, in lexicographic order.
pub fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn go(prefix: &mut Vec<usize>, n: usize, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == n {
            out.push(prefix.clone());
            return;
        }
        for i in 0..n {
            if !prefix.contains(&i) {
                prefix.push(i);
                go(prefix, n, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(&mut Vec::new(), n, &mut out);
    out
}

/// The power-of-two block shapes of `depth` sides whose product is
/// `volume` (a power of two), smaller x first, within CUDA's limits per
/// side and, when `extents[a]` is a known constant trip count of the
/// counter on axis `a`, no side larger than that count rounded up to a
/// power of two (such a side only adds idle threads).
pub fn block_shapes(depth: usize, volume: u64, side_limit: &dyn Fn(usize) -> u64) -> Vec<[u64; 3]> {
    let log = volume.trailing_zeros();
    let mut out = Vec::new();
    let fits = |shape: [u64; 3]| (0..3).all(|a| shape[a] <= side_limit(a));
    match depth {
        1 => out.push([volume, 1, 1]),
        2 => {
            for e in 0..=log {
                let s = [1u64 << e, volume >> e, 1];
                if fits(s) {
                    out.push(s);
                }
            }
        }
        _ => {
            for e0 in 0..=log {
                for e1 in 0..=log - e0 {
                    let s = [1u64 << e0, 1u64 << e1, volume >> (e0 + e1)];
                    if fits(s) {
                        out.push(s);
                    }
                }
            }
        }
    }
    out
}

/// The cost of mapping with `gamma` and `block`.
pub fn mapping_cost(accesses: &[Access], gamma: &[usize], block: [u64; 3]) -> f64 {
    accesses
        .iter()
        .map(|a| {
            let coefs: Vec<Coef> = gamma
                .iter()
                .map(|&p| Coef::classify(a.coefs[p], a.line_elems))
                .collect();
            a.count as f64 * thread_cost(&coefs, block, a.line_elems)
        })
        .sum()
}

/// Every candidate of `space` for a band of `depth` counters, in search
/// order, and the index of the chosen one: the cheapest; among equal
/// costs, the shape whose smallest side is largest (no degenerate sides
/// when the model cannot tell), then the first in search order
/// (permutations identity first, then shapes with the smaller x side). `trip_counts[p]`: the constant trip count of
/// counter `p` when known. `None` when no shape fits.
pub fn search(
    accesses: &[Access],
    depth: usize,
    volume: u64,
    trip_counts: &[Option<u64>],
    space: &SearchSpace,
) -> Option<(Vec<Candidate>, usize)> {
    let gammas = match &space.gamma {
        Some(g) => vec![g.clone()],
        None => permutations(depth),
    };
    let mut all = Vec::new();
    for gamma in gammas {
        let shapes = match space.block {
            Some(b) => vec![b],
            None => {
                let limit = |a: usize| {
                    let cuda = if a == 2 { MAX_BLOCK_Z } else { MAX_BLOCK_XY };
                    match gamma.get(a).and_then(|&p| trip_counts[p]) {
                        Some(n) => cuda.min(n.max(1).next_power_of_two()),
                        None => cuda,
                    }
                };
                let fitting = block_shapes(depth, volume, &limit);
                if fitting.is_empty() {
                    let cuda = |a: usize| if a == 2 { MAX_BLOCK_Z } else { MAX_BLOCK_XY };
                    block_shapes(depth, volume, &cuda)
                } else {
                    fitting
                }
            }
        };
        for block in shapes {
            let cost = mapping_cost(accesses, &gamma, block);
            all.push(Candidate {
                gamma: gamma.clone(),
                block,
                cost,
            });
        }
    }
    let smallest_side = |c: &Candidate| c.block[..depth.clamp(1, 3)].iter().copied().min().unwrap_or(1);
    let best = (0..all.len()).min_by(|&a, &b| {
        let (x, y) = (all[a].cost, all[b].cost);
        if (x - y).abs() <= 1e-12 * x.abs().max(y.abs()) {
            smallest_side(&all[b]).cmp(&smallest_side(&all[a])).then(a.cmp(&b))
        } else {
            x.total_cmp(&y)
        }
    })?;
    Some((all, best))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(coefs: &[Option<i64>], line: u64, count: u64) -> Access {
        Access {
            op: lf_ir::OpId::from_index(0),
            coefs: coefs.to_vec(),
            line_elems: line,
            count,
        }
    }

    #[test]
    fn shapes_have_the_volume_and_respect_limits() {
        let big = |a: usize| if a == 2 { MAX_BLOCK_Z } else { MAX_BLOCK_XY };
        assert_eq!(block_shapes(1, 256, &big), vec![[256, 1, 1]]);
        assert_eq!(block_shapes(2, 256, &big).len(), 9);
        let three = block_shapes(3, 256, &big);
        assert!(three.iter().all(|s| s[0] * s[1] * s[2] == 256 && s[2] <= 64));
        assert_eq!(three.len(), 45 - 3, "b2 = 256 and 128 (twice) exceed z's limit");
    }

    /// LU's second nest (DIGEST §003.5), f64 (16 per line): A[i][j] read
    /// and written, A[i][k], A[k][j]; i is counter 0, j counter 1. The
    /// model puts j on x with a 64x4 block (the seed's printed example has
    /// i on x, which its own model rejects).
    #[test]
    fn lu_puts_j_on_x() {
        let n = 128;
        let accesses = [
            access(&[Some(n), Some(1)], 16, 1),
            access(&[Some(n), Some(1)], 16, 1),
            access(&[Some(n), Some(0)], 16, 1),
            access(&[Some(0), Some(1)], 16, 1),
        ];
        let (all, best) = search(&accesses, 2, 256, &[None, None], &SearchSpace::default()).unwrap();
        assert_eq!(all[best].gamma, vec![1, 0]);
        assert_eq!(all[best].block, [64, 4, 1]);
    }

    /// A 3-D nest whose unit-stride counter is the outermost one gets it
    /// on x: the best γ is not the identity.
    #[test]
    fn three_d_best_gamma_is_not_identity() {
        // A[i2][i1][i0] laid out with i0... here the offset is
        // i0 * 1 + i1 * 4096 + i2 * 64: counter 0 unit stride, counter 2
        // next, counter 1 largest.
        let accesses = [access(&[Some(1), Some(4096), Some(64)], 32, 1)];
        let (all, best) = search(&accesses, 3, 256, &[None, None, None], &SearchSpace::default()).unwrap();
        assert_eq!(all[best].gamma[0], 0);
        let accesses = [access(&[Some(64 * 64), Some(64), Some(1)], 32, 1)];
        let (all, best) = search(&accesses, 3, 256, &[None, None, None], &SearchSpace::default()).unwrap();
        assert_eq!(all[best].gamma[0], 2, "the unit-stride counter goes on x");
        assert_ne!(all[best].gamma, vec![0, 1, 2]);
    }

    #[test]
    fn fixed_gamma_and_block_are_honoured() {
        let accesses = [access(&[Some(100), Some(1)], 32, 1)];
        let space = SearchSpace {
            gamma: Some(vec![0, 1]),
            block: Some([256, 1, 1]),
        };
        let (all, best) = search(&accesses, 2, 256, &[None, None], &space).unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[best].gamma, vec![0, 1]);
    }

    #[test]
    fn small_trip_counts_limit_the_block_side() {
        let accesses = [access(&[Some(0), Some(1)], 32, 1)];
        let (all, best) = search(&accesses, 2, 256, &[Some(3), None], &SearchSpace::default()).unwrap();
        assert!(all
            .iter()
            .all(|c| c.block[c.gamma.iter().position(|&p| p == 0).unwrap()] <= 4));
        assert!(all[best].cost > 0.0);
    }
}
