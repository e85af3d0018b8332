//! Halo widths (DIGEST §000.5): how many iterations each nest of a fused
//! group computes beyond its strip, on the lower and the upper side of
//! every level, so that every block computes all its consumers read.

/// Which propagation rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HaloRule {
    /// Interval propagation with every edge's smallest and largest weight.
    Sound,
    /// The seed's rule (unsound when an extension crosses zero).
    Paper,
}

/// An LDG edge: the consumer's iteration `i` reads the producer's
/// iterations `i + w` for weights `w` per level in `[wmin, wmax]` (only the
/// weights that occur, `weights`).
#[derive(Clone, Debug)]
pub struct Edge {
    /// The producer (an index into the group).
    pub producer: usize,
    /// The consumer.
    pub consumer: usize,
    /// Every weight vector of a read served by the producer.
    pub weights: Vec<Vec<i64>>,
}

/// Halo widths of one nest: `lower[d]` iterations below the strip and
/// `upper[d]` above it, per level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Halo {
    /// Extension below the strip, per level (>= 0).
    pub lower: Vec<i64>,
    /// Extension above the strip, per level (>= 0).
    pub upper: Vec<i64>,
}

/// The halos of the `n` nests of a group, producers before consumers
/// (every edge goes from a lower to a higher index), for `depth` levels.
pub fn propagate(n: usize, depth: usize, edges: &[Edge], rule: HaloRule) -> Vec<Halo> {
    // pos[v][d] >= 0: extension above; neg[v][d] <= 0: extension below.
    let mut pos = vec![vec![0i64; depth]; n];
    let mut neg = vec![vec![0i64; depth]; n];
    // Reverse textual order is a topological order of the reversed graph.
    for consumer in (0..n).rev() {
        for e in edges.iter().filter(|e| e.consumer == consumer) {
            for d in 0..depth {
                let ws = e.weights.iter().map(|w| w[d]);
                let (px, nx) = (pos[consumer][d], neg[consumer][d]);
                let (py, ny) = (&mut pos[e.producer][d], &mut neg[e.producer][d]);
                match rule {
                    HaloRule::Sound => {
                        let wmax = ws.clone().max().unwrap_or(0);
                        let wmin = ws.min().unwrap_or(0);
                        *py = (*py).max(px + wmax);
                        *ny = (*ny).min(nx + wmin);
                    }
                    HaloRule::Paper => {
                        // The paper's merge: one edge per sign, the extreme weight.
                        let most_positive = ws.clone().filter(|&w| w > 0).max();
                        let most_negative = ws.clone().filter(|&w| w < 0).min();
                        if let Some(w) = most_positive {
                            *py = (*py).max(px + w);
                        }
                        if let Some(w) = most_negative {
                            *ny = (*ny).min(nx + w);
                        }
                        if ws.clone().any(|w| w == 0) {
                            *py = (*py).max(px);
                            *ny = (*ny).min(nx);
                        }
                    }
                }
            }
        }
    }
    (0..n)
        .map(|v| Halo {
            lower: neg[v].iter().map(|&x| (-x).max(0)).collect(),
            upper: pos[v].iter().map(|&x| x.max(0)).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(producer: usize, consumer: usize, weights: &[i64]) -> Edge {
        Edge {
            producer,
            consumer,
            weights: weights.iter().map(|&w| vec![w]).collect(),
        }
    }

    #[test]
    fn fig3_needs_one_iteration_on_each_side() {
        let h = propagate(2, 1, &[edge(0, 1, &[-1, 1])], HaloRule::Sound);
        assert_eq!(
            h[0],
            Halo {
                lower: vec![1],
                upper: vec![1]
            }
        );
        assert_eq!(
            h[1],
            Halo {
                lower: vec![0],
                upper: vec![0]
            }
        );
    }

    #[test]
    fn digest_counter_example_sound_and_paper() {
        // L1 -> L2 w = -1, L2 -> L3 w = +3.
        let edges = [edge(0, 1, &[-1]), edge(1, 2, &[3])];
        let sound = propagate(3, 1, &edges, HaloRule::Sound);
        assert_eq!(
            sound[1],
            Halo {
                lower: vec![0],
                upper: vec![3]
            }
        );
        // L1 must cover [s - 1, s + S + 2).
        assert_eq!(
            sound[0],
            Halo {
                lower: vec![1],
                upper: vec![2]
            }
        );
        let paper = propagate(3, 1, &edges, HaloRule::Paper);
        assert_eq!(
            paper[0],
            Halo {
                lower: vec![1],
                upper: vec![0]
            }
        );
    }

    #[test]
    fn chains_accumulate() {
        let edges = [edge(0, 1, &[-1, 0, 1]), edge(1, 2, &[-1, 0, 1]), edge(2, 3, &[-1, 1])];
        let h = propagate(4, 1, &edges, HaloRule::Sound);
        assert_eq!(h[0].lower, vec![3]);
        assert_eq!(h[2].upper, vec![1]);
    }
}
