//! The band a kernel is made of: its loops, their induction variables and
//! bounds over the thread counters ([`CounterSpace`]), the largest trip
//! count of each loop over the band (the grid; triangular nests take the
//! maximum of their outer-dependent bounds) and the guards of the launch
//! and of the body.

use super::band_loops::BandLoop;
use super::counter_space::CounterSpace;
use lf_ir::affine::AffineExpr;

/// A band of `affine.for` loops (outermost first) expressed over its
/// thread counters.
#[derive(Clone, Debug)]
pub struct BandBounds {
    /// The expression space: counters then host values.
    pub space: CounterSpace,
    /// Induction variable `p` as `lb_p + step_p · t_p`.
    pub ivs: Vec<AffineExpr>,
    /// The steps.
    pub steps: Vec<i64>,
    /// The body guard: `iv_p < ub_pk` for every loop `p` and upper-bound
    /// result `k`, as `ub_pk - iv_p - 1 >= 0`.
    pub body_guard: Vec<AffineExpr>,
    /// Per loop, per upper-bound result, an upper bound of `ub_pk - lb_p`
    /// over the band (free of counters): its largest extent.
    pub max_extents: Vec<Vec<AffineExpr>>,
}

impl BandBounds {
    /// The bounds of `band` (`band[p]` is loop `p`, each nested in the one
    /// before), or why the band cannot be mapped.
    pub fn of(band: &[BandLoop]) -> Result<BandBounds, String> {
        let depth = band.len();
        let mut space = CounterSpace::new(depth);
        let mut ivs: Vec<AffineExpr> = Vec::with_capacity(depth);
        let mut steps = Vec::with_capacity(depth);
        let mut body_guard = Vec::new();
        let mut max_extents: Vec<Vec<AffineExpr>> = Vec::with_capacity(depth);
        let band_ivs: Vec<_> = band.iter().map(|l| l.iv).collect();
        for (p, f) in band.iter().enumerate() {
            let outer_ivs = &band_ivs[..p];
            let known_ivs = &ivs;
            let known = |v| outer_ivs.iter().position(|&x| x == v).map(|m| known_ivs[m].clone());
            let lb = &f.lb;
            if lb.map.num_results() != 1 {
                return Err(format!("the lower bound of loop {p} is a max of several results"));
            }
            let step = f.step;
            let lb_p = space.apply(&lb.map, 0, &lb.operands, &known);
            let iv = lb_p.add(&space.counter(p).mul_const(step));
            let ub = &f.ub;
            let mut extents = Vec::with_capacity(ub.map.num_results());
            for k in 0..ub.map.num_results() {
                let ub_pk = space.apply(&ub.map, k, &ub.operands, &known);
                body_guard.push(ub_pk.sub(&iv).add_const(-1));
                let extent = ub_pk.sub(&lb_p);
                extents.push(maximize(&space, &extent, &max_extents, &steps).ok_or_else(|| {
                    format!("the bounds of loop {p} are not linear in the counters of the loops around it")
                })?);
            }
            max_extents.push(extents);
            ivs.push(iv);
            steps.push(step);
        }
        Ok(BandBounds {
            space,
            ivs,
            steps,
            body_guard,
            max_extents,
        })
    }

    /// The band's depth.
    pub fn depth(&self) -> usize {
        self.ivs.len()
    }

    /// The largest trip count of loop `p` over the band, as the upper
    /// bounds `ceildiv(extent, step · per)` (one per upper-bound result;
    /// their minimum is the count), divided by `per` threads.
    pub fn grid(&self, p: usize, per: i64) -> Vec<AffineExpr> {
        self.max_extents[p]
            .iter()
            .map(|e| e.ceil_div_const(self.steps[p] * per))
            .collect()
    }

    /// The launch guard: every loop runs at least once somewhere in the
    /// band (`max extent - 1 >= 0` for every loop and bound).
    pub fn launch_guard(&self) -> Vec<AffineExpr> {
        self.max_extents.iter().flatten().map(|e| e.add_const(-1)).collect()
    }
}

/// An upper bound of `extent` (over the counters of loops `0..p` and host
/// values) when each counter `t_m` ranges over `[0, T_m)`, `T_m` at most
/// `ceildiv(max_extents[m][0], steps[m])`: each counter with a positive
/// coefficient is replaced by its largest value, one with a negative
/// coefficient by 0. `None` when `extent` is not linear in the counters.
fn maximize(
    space: &CounterSpace,
    extent: &AffineExpr,
    max_extents: &[Vec<AffineExpr>],
    steps: &[i64],
) -> Option<AffineExpr> {
    let (coefs, rest) = space.split_counters(extent)?;
    let mut out = rest;
    for (m, &c) in coefs.iter().enumerate() {
        if c > 0 {
            let largest = max_extents[m][0].ceil_div_const(steps[m]).add_const(-1);
            out = out.add(&largest.mul_const(c));
        }
    }
    Some(out)
}
