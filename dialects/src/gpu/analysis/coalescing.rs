//! The coalescing check of seed 004 (DIGEST §004.3) on the accesses of an
//! inline `gpu.launch` kernel, as [`kernel_access`](super::kernel_access)
//! describes them, and the 32-byte sector count of current GPUs.
//!
//! **Half-warp rule.** The lanes of a half-warp are `lanes` (16)
//! consecutive threads in the block's linear order `tidx + bdx·(tidy +
//! bdy·tidz)`: with `blockDim.x >= 16` they are `tidx = 16q + t` at one
//! `tidy`; with a narrower block, threads of the next rows along y join
//! the half-warp (so `a[idy][…]` varies across it). An access is
//! *coalesced* iff, for every half-warp of the block, every value of the
//! block ids and the first 16 iterations of each enclosing kernel loop:
//! lane `t` accesses element `base + t` (offsets 1..15 words), and `base`
//! is a multiple of `lanes` elements (64 bytes for 4-byte words; for an
//! element of `e` bytes the segment is `16·e` bytes and must be `16·e`-byte
//! aligned, the scaling of the seed's 4-byte rule). Allocations are taken
//! 256-byte aligned, so alignment is a property of the element offset.
//! When the offsets fail and a subscript other than the innermost differs
//! between lanes, the reason given is rule (a) of the seed ("higher
//! dimension varies across the half-warp"); a row change inside the
//! half-warp whose flat addresses are still `base + t` (rows exactly as
//! wide as the lanes) is coalesced, as the hardware sees it.
//! Subscripts are linear, so "every value" is checked term by term: a term
//! `c·v` keeps the base aligned iff `c·step` is a multiple of `lanes`.
//!
//! **Sector model.** Under `sector32`, a 32-lane warp request touches the
//! 32-byte sectors of its lanes' bytes; [`sector_count`] gives the most
//! sectors over the warps of a block, the first block ids and the first
//! iterations, with the ideal count (the distinct bytes touched, rounded
//! up to sectors) at the same point.

use super::kernel_access::{id_name, KernelAccess, LaunchIds, LinearIndex, Subscript, Term};
use std::collections::BTreeSet;

/// The seed's half-warp: 16 lanes.
pub const HALF_WARP: i64 = 16;
/// The iterations of a loop the seed checks.
pub const CHECKED_ITERATIONS: i64 = 16;
/// The alignment of allocations assumed (bytes).
pub const ALLOCATION_ALIGN: u64 = 256;
/// Lanes of a warp in the sector model.
pub const WARP: i64 = 32;
/// Bytes of a sector in the sector model.
pub const SECTOR_BYTES: i64 = 32;
/// The most threads per block the rules enumerate.
const MAX_THREADS: i64 = 4096;
/// The most points (block ids × iterations) the sector model evaluates.
const MAX_POINTS: usize = 4096;

/// The verdict of the half-warp rule on one access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// One aligned segment per half-warp.
    Coalesced,
    /// Not coalesced, with the rule that fails.
    NotCoalesced(String),
    /// Not checked (an unresolved index, an unknown layout), with why.
    Skipped(String),
}

impl Verdict {
    /// The verdict as the remarks write it.
    pub fn describe(&self) -> String {
        match self {
            Verdict::Coalesced => "coalesced".into(),
            Verdict::NotCoalesced(why) => format!("not coalesced ({why})"),
            Verdict::Skipped(why) => format!("skipped ({why})"),
        }
    }
}

/// The sectors one warp request touches at its worst point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectorCount {
    /// The most 32-byte sectors of one warp request.
    pub sectors: u64,
    /// The fewest sectors that could hold the bytes it reads at that point.
    pub ideal: u64,
}

/// The name of a term in remarks: `tidx`, `bidy`, `i0` for the outermost
/// kernel loop around the access, `i1` for the next, `n0`, … for
/// invariants.
pub fn term_name(access: &KernelAccess, invariants: &mut Vec<lf_ir::Value>, t: Term) -> String {
    if let Some(n) = id_name(t) {
        return n.to_string();
    }
    match t {
        Term::Loop(iv) => match access.loops.iter().position(|l| l.iv == iv) {
            Some(k) => format!("i{k}"),
            None => "i?".into(),
        },
        Term::Invariant(v) => {
            let k = invariants.iter().position(|&w| w == v).unwrap_or_else(|| {
                invariants.push(v);
                invariants.len() - 1
            });
            format!("n{k}")
        }
        _ => "?".into(),
    }
}

/// `[s0][s1] (classes of s0)(classes of s1)` for a remark.
pub fn describe_subscripts(access: &KernelAccess) -> String {
    let mut invariants = Vec::new();
    let mut subs = String::new();
    let mut classes = String::new();
    for s in &access.subscripts {
        match s {
            Subscript::Linear(l) => {
                subs.push_str(&format!(
                    "[{}]",
                    l.display_with(|t| term_name(access, &mut invariants, t))
                ));
                let names: Vec<&str> = l
                    .classes()
                    .iter()
                    .map(|c| match c {
                        super::kernel_access::IndexClass::Constant => "constant",
                        super::kernel_access::IndexClass::Predefined => "predefined",
                        super::kernel_access::IndexClass::Loop => "loop",
                        super::kernel_access::IndexClass::Invariant => "invariant",
                    })
                    .collect();
                classes.push_str(&format!("[{}]", names.join(", ")));
            }
            Subscript::Unresolved(_) => {
                subs.push_str("[?]");
                classes.push_str("[unresolved]");
            }
        }
    }
    format!("{subs}, index classes {classes}")
}

/// The thread ids `(tidx, tidy, tidz)` of the thread with linear id `lin`.
pub fn lane_ids(block: [i64; 3], lin: i64) -> [i64; 3] {
    [lin % block[0], (lin / block[0]) % block[1], lin / (block[0] * block[1])]
}

/// The value of the thread-id part of `l` on the thread `tid`.
fn thread_part(l: &LinearIndex, tid: [i64; 3]) -> i64 {
    l.terms.iter().fold(0i64, |acc, &(t, c)| match t {
        Term::Thread(d) if d < 3 => acc.wrapping_add(c.wrapping_mul(tid[d])),
        _ => acc,
    })
}

/// The constant block size, or why not.
fn block_of(ids: &LaunchIds) -> Result<[i64; 3], String> {
    let mut out = [1; 3];
    for (slot, size) in out.iter_mut().zip(ids.block_size) {
        match size {
            Some(s) if s >= 1 => *slot = s,
            _ => return Err("the block size is not a constant".into()),
        }
    }
    if out
        .iter()
        .try_fold(1i64, |acc, &s| acc.checked_mul(s))
        .is_none_or(|n| n > MAX_THREADS)
    {
        return Err(format!("more than {MAX_THREADS} threads per block"));
    }
    Ok(out)
}

/// The linear subscripts and the flat element offset of a global access,
/// or the reason it is skipped.
fn resolved(access: &KernelAccess) -> Result<(Vec<LinearIndex>, LinearIndex, u64), String> {
    if let Some(why) = access.unresolved() {
        return Err(format!("unresolved index: {why}"));
    }
    let elem = access.element_bytes.ok_or("an element type without a size")?;
    let flat = access
        .flat_offset()
        .ok_or("the memref is not row-major with static inner sizes")?;
    let subs = access.subscripts.iter().filter_map(|s| s.linear().cloned()).collect();
    Ok((subs, flat, elem))
}

/// The seed's half-warp rule on `access` in the launch `ids`, with
/// `lanes` lanes per half-warp (16 in the seed).
pub fn check_half_warp(access: &KernelAccess, ids: &LaunchIds, lanes: i64) -> Verdict {
    let (subs, flat, elem) = match resolved(access) {
        Ok(r) => r,
        Err(why) => return Verdict::Skipped(why),
    };
    let block = match block_of(ids) {
        Ok(b) => b,
        Err(why) => return Verdict::Skipped(why),
    };
    let seg_bytes = lanes as u64 * elem;
    if seg_bytes > ALLOCATION_ALIGN {
        return Verdict::Skipped(format!(
            "a {seg_bytes}-byte segment is more than the {ALLOCATION_ALIGN}-byte alignment of allocations"
        ));
    }
    let threads = block[0] * block[1] * block[2];
    let half_warps = (threads + lanes - 1) / lanes;
    // Lane t at base + t; when not, rule (a) names the cause when a higher
    // dimension varies across the half-warp.
    let rank = subs.len();
    for q in 0..half_warps {
        let lane_range = (q * lanes)..((q + 1) * lanes).min(threads);
        let first = thread_part(&flat, lane_ids(block, q * lanes));
        let offs: Vec<i64> = lane_range
            .clone()
            .map(|lin| thread_part(&flat, lane_ids(block, lin)).wrapping_sub(first))
            .collect();
        if offs.iter().enumerate().all(|(t, &o)| o == t as i64) {
            continue;
        }
        let higher_varies = subs.iter().take(rank.saturating_sub(1)).any(|s| {
            let vals: BTreeSet<i64> = lane_range
                .clone()
                .map(|lin| thread_part(s, lane_ids(block, lin)))
                .collect();
            vals.len() > 1
        });
        let why = if higher_varies {
            "higher dimension varies across the half-warp".to_string()
        } else if offs.iter().all(|&o| o == 0) {
            "offsets not 1..15 words: every lane reads the same word".to_string()
        } else if offs.len() > 1
            && offs
                .iter()
                .enumerate()
                .all(|(t, &o)| o == offs[1].wrapping_mul(t as i64))
        {
            format!("offsets not 1..15 words: lane t reads base + {}*t", offs[1])
        } else {
            "offsets not 1..15 words".to_string()
        };
        return Verdict::NotCoalesced(why);
    }
    // The base: aligned at the first point of every half-warp...
    let mut invariants = Vec::new();
    let mut start = flat.constant;
    for &(t, c) in &flat.terms {
        match t {
            Term::Loop(iv) => {
                let Some(lower) = access.loops.iter().find(|l| l.iv == iv).and_then(|l| l.lower) else {
                    return Verdict::Skipped("a loop with a non-constant lower bound".into());
                };
                start = start.wrapping_add(c.wrapping_mul(lower));
            }
            Term::Invariant(_) if c % lanes != 0 => {
                return Verdict::Skipped("unresolved index: the base alignment depends on a run-time value".into())
            }
            _ => {}
        }
    }
    let align = format!("base not {seg_bytes}-byte aligned");
    for q in 0..half_warps {
        let base = start.wrapping_add(thread_part(&flat, lane_ids(block, q * lanes)));
        if base.rem_euclid(lanes) != 0 {
            let at = if q == 0 {
                "at the first iteration".to_string()
            } else {
                let [x, y, z] = lane_ids(block, q * lanes);
                format!("for the half-warp at tidx = {x}, tidy = {y}, tidz = {z}")
            };
            return Verdict::NotCoalesced(format!("{align} {at}"));
        }
    }
    // ... and as every other term moves.
    for &(t, c) in &flat.terms {
        let (step, first, count) = match t {
            Term::Loop(iv) => {
                let Some(l) = access.loops.iter().find(|l| l.iv == iv) else {
                    continue;
                };
                let Some(step) = l.step else {
                    return Verdict::Skipped("a loop with a non-constant step".into());
                };
                let n = l.trip_count.unwrap_or(CHECKED_ITERATIONS).min(CHECKED_ITERATIONS);
                (step, l.lower.unwrap_or(0), n)
            }
            Term::Block(d) if d < 3 => (
                1,
                0,
                ids.grid_size[d].unwrap_or(CHECKED_ITERATIONS).min(CHECKED_ITERATIONS),
            ),
            _ => continue,
        };
        if let Some(k) = (1..count).find(|&k| c.wrapping_mul(step).wrapping_mul(k).rem_euclid(lanes) != 0) {
            let name = term_name(access, &mut invariants, t);
            return Verdict::NotCoalesced(format!(
                "{align} at {name} = {}",
                first.wrapping_add(k.wrapping_mul(step))
            ));
        }
    }
    Verdict::Coalesced
}

/// The values each non-thread term of `flat` takes in the sector model:
/// the first iterations of loops, the first block ids, 0 for invariants.
fn term_points(access: &KernelAccess, ids: &LaunchIds, flat: &LinearIndex) -> Option<Vec<(Term, Vec<i64>)>> {
    let mut ranges = Vec::new();
    for &(t, _) in &flat.terms {
        let vals: Vec<i64> = match t {
            Term::Thread(_) => continue,
            Term::Loop(iv) => {
                let l = access.loops.iter().find(|l| l.iv == iv)?;
                let (lower, step) = (l.lower?, l.step?);
                let n = l.trip_count.unwrap_or(CHECKED_ITERATIONS).min(CHECKED_ITERATIONS);
                (0..n.max(1))
                    .map(|k| lower.wrapping_add(k.wrapping_mul(step)))
                    .collect()
            }
            Term::Block(d) => {
                let n = ids.grid_size.get(d).copied().flatten().unwrap_or(CHECKED_ITERATIONS);
                (0..n.clamp(1, CHECKED_ITERATIONS)).collect()
            }
            Term::Invariant(_) => vec![0],
        };
        ranges.push((t, vals));
    }
    // Keep the number of points bounded: shorten the longest range.
    while ranges.iter().map(|(_, v)| v.len()).product::<usize>() > MAX_POINTS {
        let longest = ranges.iter_mut().max_by_key(|(_, v)| v.len())?;
        let keep = longest.1.len() / 2;
        longest.1.truncate(keep.max(1));
    }
    Some(ranges)
}

/// The 32-byte sectors a 32-lane warp request of `access` touches, the
/// most over the warps of the block and the points of [`term_points`]
/// (`None` when the access is skipped by the half-warp rule's
/// preconditions).
pub fn sector_count(access: &KernelAccess, ids: &LaunchIds) -> Option<SectorCount> {
    let (_, flat, elem) = resolved(access).ok()?;
    let block = block_of(ids).ok()?;
    let elem = elem as i64;
    let threads = block[0] * block[1] * block[2];
    let ranges = term_points(access, ids, &flat)?;
    let mut best = SectorCount { sectors: 0, ideal: 0 };
    let mut point = vec![0usize; ranges.len()];
    loop {
        let base = ranges.iter().zip(&point).fold(flat.constant, |acc, ((t, vals), &k)| {
            acc.wrapping_add(flat.coef(*t).wrapping_mul(vals[k]))
        });
        for w in 0..(threads + WARP - 1) / WARP {
            let mut sectors = BTreeSet::new();
            let mut words = BTreeSet::new();
            for lin in (w * WARP)..((w + 1) * WARP).min(threads) {
                let off = base.wrapping_add(thread_part(&flat, lane_ids(block, lin)));
                let byte = off.wrapping_mul(elem);
                words.insert(off);
                sectors.insert(byte.div_euclid(SECTOR_BYTES));
                sectors.insert(byte.wrapping_add(elem - 1).div_euclid(SECTOR_BYTES));
            }
            let ideal = ((words.len() as i64 * elem + SECTOR_BYTES - 1) / SECTOR_BYTES) as u64;
            let count = sectors.len() as u64;
            if count > best.sectors || (count == best.sectors && ideal < best.ideal) {
                best = SectorCount { sectors: count, ideal };
            }
        }
        // The next point, mixed radix.
        let mut k = 0;
        loop {
            if k == point.len() {
                return Some(best);
            }
            point[k] += 1;
            if point[k] < ranges[k].1.len() {
                break;
            }
            point[k] = 0;
            k += 1;
        }
    }
}
