//! Which old threads (points) a new thread computes.
//!
//! Along the coarsened dimension the launch has `E` threads (grid x
//! block). The points are split into `m` chunks of `C` points, `C =
//! ceil(E / m)` rounded up to a multiple of `v`; the new launch has `C /
//! v` threads along the dimension and new thread `g'` computes the points
//! `p(j, l) = v*g' + l + j*C` for `j` in `[0, m)` (outer) and `l` in `[0,
//! v)`. The `v` lanes of one chunk are neighbours (contiguous stores, a
//! Brook+ `double2`); chunk `j` is one output stream. Points `p >= E`
//! exist only when `m*C > E` and are skipped by a guard.

/// The point mapping of one launch along the coarsened dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointMapping {
    /// Old threads along the dimension (`E`).
    pub extent: i64,
    /// Lanes per chunk (`v`).
    pub lanes: i64,
    /// Chunks (`m`).
    pub streams: i64,
    /// Points per chunk (`C`, a multiple of `v`).
    pub chunk: i64,
    /// New block size along the dimension.
    pub block: i64,
    /// New grid size along the dimension.
    pub grid: i64,
}

impl PointMapping {
    /// The mapping of `extent` old threads, old block size `old_block`,
    /// onto threads computing `lanes x streams` points each. The new block
    /// size is the old one when it divides the new thread count, else the
    /// largest size below it that does (no thread is ever padded: only
    /// points are).
    pub fn new(extent: i64, old_block: i64, lanes: i64, streams: i64) -> PointMapping {
        let per_stream = (extent + streams - 1) / streams;
        let chunk = (per_stream + lanes - 1) / lanes * lanes;
        let threads = chunk / lanes;
        let block = (1..=old_block.min(threads).max(1))
            .rev()
            .find(|b| threads % b == 0)
            .unwrap_or(1);
        PointMapping {
            extent,
            lanes,
            streams,
            chunk,
            block,
            grid: threads / block,
        }
    }

    /// New threads along the dimension.
    pub fn threads(&self) -> i64 {
        self.chunk / self.lanes
    }

    /// The points of one thread in order: `(j, l)` pairs, `j` outer.
    pub fn copies(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        (0..self.streams).flat_map(move |j| (0..self.lanes).map(move |l| (j, l)))
    }

    /// The constant part of point `(j, l)`: `p = lanes * g' + offset`.
    pub fn offset(&self, j: i64, l: i64) -> i64 {
        l + j * self.chunk
    }

    /// Whether point `(j, l)` is past the end for some thread (`p >= E`
    /// for the last thread): that copy needs a guard.
    pub fn guarded(&self, j: i64, l: i64) -> bool {
        self.lanes * (self.threads() - 1) + self.offset(j, l) >= self.extent
    }
}

#[cfg(test)]
mod tests {
    use super::PointMapping;

    /// Every old point is computed exactly once, by the copies not past the end.
    fn covers_once(m: &PointMapping) {
        let mut seen = vec![0u32; m.extent as usize];
        for g in 0..m.threads() {
            for (j, l) in m.copies() {
                let p = m.lanes * g + m.offset(j, l);
                if p < m.extent {
                    seen[p as usize] += 1;
                } else {
                    assert!(m.guarded(j, l), "{m:?}: point {p} unguarded");
                }
            }
        }
        assert!(seen.iter().all(|&s| s == 1), "{m:?}: {seen:?}");
    }

    #[test]
    fn exact_division_needs_no_guard() {
        let m = PointMapping::new(32, 16, 2, 4);
        assert_eq!((m.chunk, m.threads(), m.block, m.grid), (8, 4, 4, 1));
        assert!(m.copies().all(|(j, l)| !m.guarded(j, l)));
        covers_once(&m);
    }

    #[test]
    fn remainders_are_guarded_and_covered() {
        for e in 1..70 {
            for (v, s) in [(1, 1), (1, 3), (2, 1), (2, 3), (4, 2), (2, 4), (1, 8), (4, 5)] {
                for b in [1, 4, 16, 32] {
                    let m = PointMapping::new(e, b, v, s);
                    assert_eq!(m.block * m.grid, m.threads());
                    assert!(m.block <= b);
                    covers_once(&m);
                }
            }
        }
        let m = PointMapping::new(32, 16, 2, 3);
        assert_eq!((m.chunk, m.threads()), (12, 6));
        assert_eq!(m.copies().filter(|&(j, l)| m.guarded(j, l)).count(), 2);
    }
}
