//! The two-dimensional thread merge of `gpu-merge-policy` (lf's extension
//! of seed 004's rule 2, option `shared-reuse`): the thread factors along
//! both grid dimensions chosen together, a register tile per thread.
//!
//! The seed thread-merges along one dimension, the one along which a G2R
//! load is independent of the block id (mm: `b[i+k][idx]` along y, 32 sums
//! per thread). After the G2S block merge, the reads of the shared array
//! (mm: the row segment of `a`) are independent of the block id along the
//! *other* dimension: merging threads along it too reuses each shared value
//! from a register, as the merge along y reuses the global one. The thread
//! then computes an `fx x fy` tile, and per innermost iteration issues
//! `fx` global and `fy` shared loads for `fx * fy` results instead of one
//! global and `fy` shared loads for `fy`.
//!
//! The factors minimise the weighted loads per unit of work in the
//! innermost loops, `sum(w * prod(f_d over the dimensions the load depends
//! on)) / (fx * fy)`, global loads weighing [`GLOBAL_LOAD_WEIGHT`] and
//! shared ones 1, among the powers of two that divide the grid and keep
//! [`register_estimate_merged`] within the budget; ties go to the smaller
//! estimate, then to the larger factor along the seed's dimension.

use crate::gpu::analysis::kernel_access::{kernel_accesses, LaunchIds, MemorySpace};
use crate::gpu::analysis::sharing::{dependent_values, register_estimate_merged};
use crate::gpu::GpuLaunchOp;
use lf_ir::view::Ir;
use lf_ir::OpId;

/// How much more a global load costs than a shared-memory load in the
/// factor choice (an L1 or L2 round trip against a shared-memory one).
pub const GLOBAL_LOAD_WEIGHT: u64 = 2;

/// A load in an innermost loop, as the factor choice counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InnerLoad {
    /// The load op.
    pub op: OpId,
    /// Whether it reads workgroup (shared) memory.
    pub shared: bool,
    /// Whether it is used in computation (not only stored to shared memory).
    pub computes: bool,
    /// Per dimension (x, y): whether its value depends on the block id.
    pub depends: [bool; 2],
}

/// The chosen tile: factors per dimension (1: no merge) and the estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterTile {
    /// Thread-merge factor per dimension (x, y).
    pub factors: [u64; 2],
    /// The register estimate of the merged kernel.
    pub registers: u64,
    /// Weighted loads per innermost iteration before the division by the
    /// work (`fx * fy`), for the remark.
    pub weighted_loads: u64,
}

/// The loads of `launch` that sit in loops without nested loops, with
/// their dependence on the block ids.
pub fn innermost_loads<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> Vec<InnerLoad> {
    let body = ir.body();
    let accesses = kernel_accesses(ir, launch);
    // A loop is innermost when no access lies in a loop nested in it.
    let inner_loop = |loops: &[crate::gpu::analysis::kernel_access::KernelLoop]| loops.last().map(|l| l.op);
    let outer_loops: Vec<OpId> = accesses
        .iter()
        .flat_map(|a| a.loops.iter().rev().skip(1).map(|l| l.op))
        .collect();
    let deps = [dependent_values(ir, launch, 0), dependent_values(ir, launch, 1)];
    accesses
        .iter()
        .filter(|a| !a.is_store && a.space != MemorySpace::Private)
        .filter(|a| inner_loop(&a.loops).is_some_and(|l| !outer_loops.contains(&l)))
        .filter_map(|a| {
            let v = body.results(a.op).next()?;
            let only_to_shared = body.uses(v).all(|u| {
                let user = body.use_owner(u);
                accesses
                    .iter()
                    .any(|s| s.op == user && s.is_store && s.space == MemorySpace::Workgroup)
            });
            Some(InnerLoad {
                op: a.op,
                shared: a.space == MemorySpace::Workgroup,
                computes: !only_to_shared,
                depends: [deps[0].contains(&v), deps[1].contains(&v)],
            })
        })
        .collect()
}

/// Whether merging along `dim` would reuse a shared-memory value from a
/// register: a shared read in an innermost loop, used in computation,
/// whose value does not depend on the block id along `dim`.
pub fn reuses_shared_along(loads: &[InnerLoad], dim: usize) -> bool {
    loads.iter().any(|l| l.shared && l.computes && !l.depends[dim])
}

/// Weighted loads per innermost iteration of the kernel merged by
/// `factors` (each load counted once per merged copy of what it depends on).
fn weighted_loads(loads: &[InnerLoad], factors: [u64; 2]) -> u64 {
    loads
        .iter()
        .map(|l| {
            let w = if l.shared { 1 } else { GLOBAL_LOAD_WEIGHT };
            (0..2).filter(|&d| l.depends[d]).fold(w, |acc, d| acc * factors[d])
        })
        .sum()
}

/// Powers of two from `least` up to `most` that divide `grid`.
fn candidate_factors(least: u64, most: u64, grid: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut f = least.max(1);
    while f <= most && f <= grid {
        if grid.is_multiple_of(f) {
            out.push(f);
        }
        f *= 2;
    }
    out
}

/// The register tile for a thread merge along `primary` (at least 2) and
/// `secondary` (1 or more), or `None` when no pair fits `max_registers`
/// and leaves at least `min_blocks` blocks.
pub fn choose_register_tile<'c>(
    ir: &impl Ir<'c>,
    launch: GpuLaunchOp,
    (primary, secondary): (usize, usize),
    max_factor: u64,
    max_registers: u64,
    min_blocks: u64,
) -> Option<RegisterTile> {
    let ids = LaunchIds::of(ir, launch);
    let grid = |d: usize| ids.grid_size[d].map_or(1, |g| g.max(1) as u64);
    let blocks: u64 = (0..3).map(grid).product();
    let loads = innermost_loads(ir, launch);
    let mut best: Option<RegisterTile> = None;
    for fp in candidate_factors(2, max_factor, grid(primary)) {
        for fs in candidate_factors(1, max_factor, grid(secondary)) {
            let mut factors = [1u64; 2];
            factors[primary] = fp;
            factors[secondary] = fs;
            if blocks / (fp * fs) < min_blocks {
                continue;
            }
            let merges: Vec<(usize, u64)> = (0..2).filter(|&d| factors[d] > 1).map(|d| (d, factors[d])).collect();
            let registers = register_estimate_merged(ir, launch, &merges).total();
            if registers > max_registers {
                continue;
            }
            let tile = RegisterTile {
                factors,
                registers,
                weighted_loads: weighted_loads(&loads, factors),
            };
            if best.is_none_or(|b| better(&tile, &b, primary)) {
                best = Some(tile);
            }
        }
    }
    best
}

/// Whether `a` beats `b`: fewer weighted loads per unit of work, then
/// fewer registers, then the larger factor along `primary`.
fn better(a: &RegisterTile, b: &RegisterTile, primary: usize) -> bool {
    let work = |t: &RegisterTile| t.factors[0] * t.factors[1];
    // a.loads / a.work < b.loads / b.work, without division.
    let (lhs, rhs) = (a.weighted_loads * work(b), b.weighted_loads * work(a));
    if lhs != rhs {
        return lhs < rhs;
    }
    if a.registers != b.registers {
        return a.registers < b.registers;
    }
    a.factors[primary] > b.factors[primary]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(shared: bool, depends: [bool; 2]) -> InnerLoad {
        InnerLoad {
            op: OpId::from_index(0),
            shared,
            computes: true,
            depends,
        }
    }

    #[test]
    fn matmul_loads_prefer_the_balanced_tile_with_fewer_global_loads() {
        // b[k][idx] (global, depends on x), a_shared[r][k] (shared, depends on y).
        let loads = [load(false, [true, false]), load(true, [false, true])];
        let tile = |fx, fy| RegisterTile {
            factors: [fx, fy],
            registers: 0,
            weighted_loads: weighted_loads(&loads, [fx, fy]),
        };
        // 4x8: (2*4 + 8) / 32 = 0.5 beats 8x4: (16 + 4) / 32 and 1x32: (2 + 32) / 32.
        assert!(better(&tile(4, 8), &tile(8, 4), 1));
        assert!(better(&tile(4, 8), &tile(1, 32), 1));
        assert!(better(&tile(4, 8), &tile(2, 16), 1));
        assert!(!better(&tile(1, 32), &tile(4, 8), 1));
    }

    #[test]
    fn shared_reuse_needs_a_computing_shared_read_independent_of_the_dimension() {
        let loads = [load(false, [true, false]), load(true, [false, true])];
        assert!(reuses_shared_along(&loads, 0));
        assert!(!reuses_shared_along(&loads, 1));
        let mut only_stored = load(true, [false, true]);
        only_stored.computes = false;
        assert!(!reuses_shared_along(&[only_stored], 0));
    }

    #[test]
    fn candidate_factors_are_powers_of_two_dividing_the_grid() {
        assert_eq!(candidate_factors(1, 32, 24), vec![1, 2, 4, 8]);
        assert_eq!(candidate_factors(2, 8, 256), vec![2, 4, 8]);
        assert_eq!(candidate_factors(2, 32, 1), Vec::<u64>::new());
    }
}
