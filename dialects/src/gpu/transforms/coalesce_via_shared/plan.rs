//! What `coalesce-via-shared` does to one kernel: which global loads are
//! converted (case B of DIGEST §004.4: a loop index in the innermost
//! subscript, with or without `idx` in a higher dimension; case A with
//! `idx` in a higher dimension and `idy` in the innermost: the transposed
//! tile of `transpose.rs`), the unroll factor of each loop, and why the
//! others are left alone.

use super::reblock::{reblock_plan, Reblock};
use super::transpose::{only_guarded_effects, plan_transpose, transpose_shape, TransposeTile};
use crate::affine::{AffineForOp, AffineLoadOp};
use crate::gpu::analysis::coalescing::{check_half_warp, Verdict, HALF_WARP};
use crate::gpu::analysis::kernel_access::{kernel_accesses, KernelAccess, LaunchIds, MemorySpace, Term};
use crate::gpu::utils::barriers::contains_barrier;
use crate::gpu::GpuLaunchOp;
use lf_ir::view::{Ir, OpView};
use lf_ir::OpId;
use std::collections::BTreeSet;

/// How the segment of a converted load is laid out in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// No subscript depends on `idx`: the block's 16 lanes read the same
    /// row; `sA[16g + tidx] = A[...][s(i) + 16g + tidx]` for `g <
    /// m·U/16`, and copy `k` reads `sA[m·k]`.
    Row,
    /// `idx` in higher dimension `dim` (coefficient 1), the loop index in
    /// the innermost (`m = 1`): the 16-iteration loader `for l: sA[l][tidx]
    /// = A[.. idx - tidx + l ..][s(i) + tidx]`, and copy `k` reads
    /// `sA[tidx][k]` (Fig. 3b).
    Tile {
        /// The dimension holding `idx`.
        dim: usize,
    },
}

/// One load to convert.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The `affine.load`.
    pub load: AffineLoadOp,
    /// Elements of the innermost subscript per iteration of the loop (`m`
    /// times the loop step).
    pub m: i64,
    /// The layout in shared memory.
    pub shape: Shape,
}

/// One loop whose body gets G2S statements.
#[derive(Clone, Debug)]
pub struct LoopPlan {
    /// The loop.
    pub for_op: AffineForOp,
    /// Its unroll factor `U` (16/gcd(m, 16), the largest over its loads).
    pub unroll: i64,
    /// The loads converted.
    pub conversions: Vec<Conversion>,
}

/// What happens to one launch.
#[derive(Clone, Debug)]
pub struct LaunchPlan {
    /// The launch.
    pub launch: GpuLaunchOp,
    /// The re-blocking to 16 threads along x (case B) or to the square
    /// block of the transposed tiles.
    pub reblock: Reblock,
    /// The loops to rewrite (case B).
    pub loops: Vec<LoopPlan>,
    /// The loads read through a transposed tile (case A; only when there
    /// is no case-B loop: the two need different blocks).
    pub tiles: Vec<TransposeTile>,
}

/// The options that shape a plan.
#[derive(Clone, Copy, Debug)]
pub struct PlanOptions {
    /// The largest `m` converted (8 in the seed).
    pub max_stride: i64,
    /// The side `T` of a transposed tile (16, the seed's half-warp, or 32).
    pub tile: i64,
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// The seed's unroll factor for `m` elements per iteration: `16/gcd(m,16)`.
pub fn unroll_factor(m: i64) -> i64 {
    HALF_WARP / gcd(m, HALF_WARP)
}

/// The reuse rule (DIGEST §004.5), on one fill of the segment (16 lanes ×
/// `unroll` iterations): the segment serves at least as many reads as it
/// loads elements, and more than one of its elements is read (a segment of
/// which one word is read is a broadcast: nothing is reused).
pub fn reused(shape: Shape, m: i64, unroll: i64) -> bool {
    let (loaded, reads, distinct): (i64, i64, usize) = match shape {
        Shape::Row => {
            let read: BTreeSet<i64> = (0..unroll).map(|k| m * k).collect();
            (m * unroll, HALF_WARP * unroll, read.len())
        }
        Shape::Tile { .. } => {
            let read: BTreeSet<(i64, i64)> = (0..HALF_WARP).flat_map(|t| (0..unroll).map(move |k| (t, k))).collect();
            (HALF_WARP * HALF_WARP, HALF_WARP * unroll, read.len())
        }
    };
    reads >= loaded && distinct >= 2
}

/// The plan for `launch`, or why it is left alone; `remarks` gets one
/// line per global load not converted.
pub fn plan_launch<'c>(
    ir: &impl Ir<'c>,
    launch: GpuLaunchOp,
    opts: PlanOptions,
    remarks: &mut Vec<(OpId, String)>,
) -> Result<LaunchPlan, String> {
    if !launch.private_attributions(ir).is_empty() {
        return Err("the launch has private attributions".into());
    }
    if launch.num_workgroup_attributions(ir) != 0 || contains_barrier(ir.ctx(), ir.body(), launch.op()) {
        // Re-blocking would split threads that share a block's memory.
        return Err("the kernel already uses workgroup memory or barriers".into());
    }
    let ids = LaunchIds::of(ir, launch);
    let accesses = kernel_accesses(ir, launch);
    for acc in accesses.iter().filter(|a| a.space == MemorySpace::Global && a.is_store) {
        if let Verdict::NotCoalesced(why) = check_half_warp(acc, &ids, HALF_WARP) {
            remarks.push((
                acc.op,
                format!("not converted: a store ({why}); only loads are converted"),
            ));
        }
    }
    let mut loops: Vec<LoopPlan> = Vec::new();
    let mut tiles: Vec<TransposeTile> = Vec::new();
    let mut candidates = 0;
    for acc in accesses
        .iter()
        .filter(|a| a.space == MemorySpace::Global && !a.is_store)
    {
        match check_half_warp(acc, &ids, HALF_WARP) {
            Verdict::Coalesced => continue,
            Verdict::Skipped(why) => {
                remarks.push((
                    acc.op,
                    format!("not converted: skipped by the coalescing check ({why})"),
                ));
                continue;
            }
            Verdict::NotCoalesced(_) => {}
        }
        candidates += 1;
        if let Some(dim) = transpose_shape(acc, &ids) {
            match plan_transpose(ir, &ids, acc, dim, &accesses, opts.tile) {
                Ok(t) => tiles.push(t),
                Err(why) => remarks.push((acc.op, format!("not converted: {why}"))),
            }
            continue;
        }
        match convertible(ir, &ids, acc, &accesses, opts) {
            Ok((for_op, conv)) => {
                let u = unroll_factor(conv.m);
                match loops.iter_mut().find(|l| l.for_op == for_op) {
                    Some(l) => {
                        l.unroll = l.unroll.max(u);
                        l.conversions.push(conv);
                    }
                    None => loops.push(LoopPlan {
                        for_op,
                        unroll: u,
                        conversions: vec![conv],
                    }),
                }
            }
            Err(why) => remarks.push((acc.op, format!("not converted: {why}"))),
        }
    }
    if candidates == 0 {
        return Err("every global load is coalesced or skipped".into());
    }
    // Every loop's trip count must be a multiple of its unroll factor, and
    // the segments must stay inside the arrays.
    let mut kept = Vec::new();
    for mut l in loops {
        let trip = l.for_op.constant_trip_count(ir).unwrap_or(0);
        if trip % l.unroll != 0 {
            for c in &l.conversions {
                remarks.push((
                    c.load.op(),
                    format!(
                        "not converted: the loop's trip count {trip} is not a multiple of the unroll factor {}",
                        l.unroll
                    ),
                ));
            }
            continue;
        }
        let lb = l.for_op.constant_lower_bound(ir).unwrap_or(0);
        let step = l.for_op.step(ir);
        let last_chunk = lb.wrapping_add((trip / l.unroll - 1).wrapping_mul(l.unroll).wrapping_mul(step));
        let unroll = l.unroll;
        l.conversions.retain(|c| {
            let acc = accesses.iter().find(|a| a.op == c.load.op()).expect("a planned load is an access");
            let inner = acc.subscripts.last().and_then(|s| s.linear()).expect("linear");
            let first = inner.eval(|t| if matches!(t, Term::Loop(_)) { last_chunk } else { 0 });
            let span = match c.shape {
                Shape::Row => c.m * unroll,
                Shape::Tile { .. } => HALF_WARP,
            };
            let size = *acc.shape.last().unwrap_or(&0);
            let ok = first >= 0 && first.checked_add(span).is_some_and(|end| end <= size);
            if !ok {
                remarks.push((
                    c.load.op(),
                    format!("not converted: the {span}-element segment of the last iterations would read past the array (size {size})"),
                ));
            }
            ok
        });
        if !l.conversions.is_empty() {
            kept.push(l);
        }
    }
    if !kept.is_empty() {
        for t in tiles.drain(..) {
            remarks.push((
                t.load.op(),
                format!(
                    "not converted: case A (transposed tile) needs a {0}x{0} block, the kernel's case-B conversions make it 16x1",
                    opts.tile
                ),
            ));
        }
    }
    if kept.is_empty() && tiles.is_empty() {
        return Err("no global load can be converted".into());
    }
    let new_block = if kept.is_empty() {
        [opts.tile, opts.tile]
    } else {
        [HALF_WARP, 1]
    };
    // With transposed tiles, a grid that does not divide is rounded up
    // when the extra threads can be kept out of every memory access.
    let round_up = !tiles.is_empty() && only_guarded_effects(ir, launch);
    let reblock = reblock_plan(ir, launch, &ids, new_block, round_up)?;
    Ok(LaunchPlan {
        launch,
        reblock,
        loops: kept,
        tiles,
    })
}

/// Whether every loop from `op` up to the launch is an `affine.for` with
/// constant bounds (uniform control flow: every thread of a block
/// reaches a barrier placed there), and the innermost one.
fn uniform_loop<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp, op: OpId) -> Result<AffineForOp, String> {
    let body = ir.body();
    let parent = body.parent_op(op).ok_or("a load outside any op")?;
    let Some(innermost) = AffineForOp::cast(ir, parent) else {
        let mut cur = Some(parent);
        while let Some(p) = cur {
            if p == launch.op() {
                break;
            }
            if AffineForOp::isa(ir, p) {
                return Err("not directly in the body of an affine.for".into());
            }
            cur = body.parent_op(p);
        }
        return Err("case A (no loop index): the segment would not be reused (§004.5)".into());
    };
    let mut cur = Some(parent);
    while let Some(p) = cur {
        if p == launch.op() {
            return Ok(innermost);
        }
        let Some(f) = AffineForOp::cast(ir, p) else {
            return Err(format!(
                "inside '{}': the barriers would not be reached by every thread of the block",
                ir.ctx().op_name_str(body.op_name(p))
            ));
        };
        if f.constant_lower_bound(ir).is_none() || f.constant_upper_bound(ir).is_none() {
            return Err("inside a loop without constant bounds".into());
        }
        cur = body.parent_op(p);
    }
    Err("not inside the launch".into())
}

/// Whether `acc` can be converted, and how.
fn convertible<'c>(
    ir: &impl Ir<'c>,
    ids: &LaunchIds,
    acc: &KernelAccess,
    all: &[KernelAccess],
    opts: PlanOptions,
) -> Result<(AffineForOp, Conversion), String> {
    let launch = GpuLaunchOp::cast(ir, ids.launch).expect("a launch");
    let load = AffineLoadOp::cast(ir, acc.op).ok_or("not an affine.load")?;
    let for_op = uniform_loop(ir, launch, acc.op)?;
    let iv = for_op.iv(ir);
    let body = ir.body();
    // The load's operands: the loop index or values from outside the loop.
    for v in load.indices(ir) {
        if v != iv && body.is_defined_inside(v, for_op.op()) {
            return Err("a subscript computed inside the loop".into());
        }
    }
    if all.iter().any(|a| a.is_store && a.memref == acc.memref) {
        return Err("the kernel also writes this array".into());
    }
    let subs: Vec<_> = acc.subscripts.iter().filter_map(|s| s.linear().cloned()).collect();
    let rank = subs.len();
    if rank == 0 || rank != acc.subscripts.len() {
        return Err("an unresolved subscript".into());
    }
    let inner = &subs[rank - 1];
    let step = for_op.step(ir);
    let m = inner.coef(Term::Loop(iv)).saturating_mul(step);
    let bx = ids.block_size[0].unwrap_or(0);
    let other_terms = |l: &crate::gpu::analysis::kernel_access::LinearIndex| {
        l.terms.iter().any(|&(t, _)| !matches!(t, Term::Loop(v) if v == iv))
    };
    if m <= 0 {
        return Err(
            "case A (no loop index in the innermost subscript): the segment would not be reused (§004.5)".into(),
        );
    }
    if other_terms(inner) {
        return Err("the innermost subscript is not m*i + n (other ids or indices in it)".into());
    }
    if subs[..rank - 1].iter().any(|s| s.uses_loop(iv)) {
        return Err("the loop index occurs in a higher dimension".into());
    }
    if subs
        .iter()
        .any(|s| s.terms.iter().any(|&(t, _)| matches!(t, Term::Loop(v) if v != iv)))
    {
        return Err("an index of another loop in a subscript".into());
    }
    // Where idx (thread and block id along x) occurs.
    let with_x: Vec<usize> = (0..rank).filter(|&k| subs[k].uses_dim(0)).collect();
    let shape = match with_x.as_slice() {
        [] => Shape::Row,
        [h] if subs[*h].coef(Term::Thread(0)) == 1 && subs[*h].coef(Term::Block(0)) == bx => {
            if m != 1 {
                return Err(format!(
                    "idx in a higher dimension with m = {m}: only m = 1 is loaded as a tile"
                ));
            }
            Shape::Tile { dim: *h }
        }
        _ => return Err("idx occurs other than once, with coefficient 1, in a higher dimension".into()),
    };
    if m > opts.max_stride {
        return Err(format!(
            "m = {m} > {}: the loop is not unrolled (little reuse across iterations)",
            opts.max_stride
        ));
    }
    let unroll = unroll_factor(m);
    if !reused(shape, m, unroll) {
        return Err("the data loaded to shared memory would not be reused (§004.5)".into());
    }
    // Alignment of the segment: every term but the loop index (and idx
    // in a tile, whose rows the loader walks) moves it by whole segments.
    let flat = acc.flat_offset().ok_or("not row-major with static inner sizes")?;
    let lb = for_op.constant_lower_bound(ir).unwrap_or(0);
    let start = flat.constant.wrapping_add(flat.coef(Term::Loop(iv)).wrapping_mul(lb));
    for &(t, c) in &flat.terms {
        match t {
            Term::Loop(_) => {}
            _ if c % HALF_WARP != 0 => {
                return Err(format!(
                    "the segment is not 16-element aligned ({t} moves it by {c} elements)"
                ))
            }
            _ => {}
        }
    }
    if start % HALF_WARP != 0 {
        return Err(format!(
            "the segment is not 16-element aligned (n % 16 = {})",
            start.rem_euclid(HALF_WARP)
        ));
    }
    Ok((for_op, Conversion { load, m, shape }))
}
