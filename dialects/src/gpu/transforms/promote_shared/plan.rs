//! Which global arrays of a kernel loop `gpu-promote-shared` stages
//! through shared memory, and the box each chunk of the loop copies.
//!
//! For a loop `L` that every thread of the block reaches (only constant-
//! bound `affine.for` loops around it, or a bound guard it can leave) and
//! an array `A` that the kernel
//! does not write, the loads of `A` directly in `L`'s body are written as
//! `uniform_d + thread_d + c_d·iv + k_d` per subscript `d`: a part the
//! same for every thread (block ids, enclosing loops, values from outside
//! the launch), a part in the thread ids, the loop's index and a constant.
//! When every load of `A` has the same uniform part and loop coefficient
//! per subscript, the elements the block reads over `C` iterations of `L`
//! lie in one box whose corner is `uniform_d + c_d·i + lo_d` (`i` the
//! chunk's first iteration) and whose side `d` spans the smallest and
//! largest `thread_d + c_d·step·j + k_d` over the block's threads, the
//! chunk's iterations `j` and the loads. The box is copied when the block
//! reads its elements at least `min-reuse` times each on average and fits
//! the shared-memory budget; where it cannot be shown inside the array,
//! the copy checks the array's bounds.

use crate::affine::{AffineForOp, AffineIfOp, AffineLoadOp};
use crate::gpu::analysis::kernel_access::{
    kernel_accesses, KernelAccess, KernelLoop, LaunchIds, LinearIndex, MemorySpace, Term,
};
use crate::gpu::utils::kernel_writes::nested_writes;
use crate::gpu::utils::workgroup_buffer::{memref_bytes, memref_element_bytes};
use crate::gpu::GpuLaunchOp;
use lf_ir::interfaces::{is_memory_effect_free, memory_effects};
use lf_ir::view::{collect_ops, Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{OpId, Value};

/// The options that shape a plan.
#[derive(Clone, Copy, Debug)]
pub struct PlanOptions {
    /// The most iterations of the loop one copy covers.
    pub tile: i64,
    /// The fewest reads per copied element.
    pub min_reuse: i64,
    /// The shared-memory budget of the block, in bytes.
    pub max_shared_bytes: i64,
    /// Whether the innermost side of a box of rank 2 or more is padded by one element.
    pub pad: bool,
    /// Whether a side read at `thread + multiples of the block size` is
    /// laid out so that each thread's reads are neighbours (wide reads).
    pub thread_contiguous: bool,
    /// Whether copies read 16 bytes at once where alignment is proven.
    pub vector_copy: bool,
    /// Whether a loop of two or more chunks gets two buffers per array,
    /// the next chunk's loads in registers during the computation.
    pub double_buffer: bool,
}

/// The most values one thread holds for the next chunk of a
/// double-buffered loop (its loads in flight during the computation); a
/// loop whose copies need more stays single-buffered.
pub const MAX_PREFETCH_VALUES: i64 = 32;

/// A side of the box stored in thread-contiguous order, innermost in the
/// buffer: box position `ρ` goes to
/// `(ρ floordiv (S·V))·S·V + (ρ mod S)·V + (ρ floordiv S) mod V`, so that the
/// reads `t + S·r` of thread `t` for `r = 0..V-1` are the `V` neighbours
/// from `t·V` (a bijection on the side, whose extent `S·V` divides).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadContiguous {
    /// The box side.
    pub side: usize,
    /// The block size `S` along the thread id the side reads.
    pub threads: i64,
    /// The elements one wide read takes, `V` (16 bytes' worth).
    pub width: i64,
}

/// One side of a copied box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxSide {
    /// The part of the subscript that every thread shares (block ids,
    /// enclosing loops, outside values), without its constant.
    pub uniform: LinearIndex,
    /// The coefficient of the staged loop's index.
    pub loop_coef: i64,
    /// The smallest thread-and-constant offset from `uniform + loop_coef·i`.
    pub lo: i64,
    /// The number of elements along this side.
    pub extent: i64,
}

/// An array whose loads in one loop read a shared copy.
#[derive(Clone, Debug)]
pub struct Promotion {
    /// The global memref.
    pub memref: Value,
    /// Its loads directly in the loop's body, in program order.
    pub loads: Vec<AffineLoadOp>,
    /// The thread-and-constant part of every subscript of every load
    /// (`loads[n]`'s subscript `d` is `uniform_d + loop_coef_d·iv + local[n][d]`).
    pub local: Vec<Vec<LinearIndex>>,
    /// The box, one side per subscript.
    pub sides: Vec<BoxSide>,
    /// The side stored in thread-contiguous order, if any (it is then
    /// the buffer's innermost dimension).
    pub contiguous: Option<ThreadContiguous>,
    /// Whether the box may reach outside the array in some block or chunk:
    /// each copied unit is then loaded only where it lies inside the
    /// array, and zero is stored elsewhere (no thread's load reads there).
    pub bounds_guard: bool,
    /// The array's shape.
    pub shape: Vec<i64>,
    /// Elements each thread copies with one vector load (1: scalar
    /// loads): 16 bytes' worth when every copied run along the array's
    /// innermost subscript provably starts 16-byte aligned and the box
    /// has no thread-contiguous side (whose runs are stored wide instead).
    pub copy_width: i64,
    /// The shape of the workgroup buffer (the box's sides, the
    /// thread-contiguous side moved innermost, padded).
    pub buffer_shape: Vec<i64>,
    /// Reads per copied element over one chunk.
    pub reuse: f64,
}

/// A loop with the arrays it stages.
#[derive(Clone, Debug)]
pub struct LoopPlan {
    /// The staged loop.
    pub for_op: AffineForOp,
    /// Iterations per chunk ([`chunk_for`]; the last chunk may be shorter).
    pub chunk: i64,
    /// The bound guard (`affine.if` directly in the kernel) whose then
    /// block holds the loop: the loop and the side-effect-free ops before
    /// it move before the guard, so that every thread reaches the barriers.
    pub guard: Option<OpId>,
    /// The arrays read through shared copies.
    pub arrays: Vec<Promotion>,
    /// Whether each array has two buffers and the next chunk is loaded
    /// during the computation of the current one (`double-buffer`).
    pub double_buffered: bool,
}

impl Promotion {
    /// The elements of one copy unit: a thread-contiguous side's run of
    /// `width` (stored with one wide store), else `copy_width`
    /// neighbours (loaded with one wide load).
    pub fn unit_elements(&self) -> i64 {
        self.contiguous.map_or(self.copy_width, |c| c.width)
    }

    /// The copy units of the box.
    pub fn units(&self) -> i64 {
        self.sides.iter().map(|s| s.extent).product::<i64>() / self.unit_elements()
    }

    /// The units each of `threads` threads copies (the last round may
    /// leave some threads idle).
    pub fn rounds(&self, threads: i64) -> i64 {
        (self.units() + threads - 1) / threads
    }

    /// The elements each of `threads` threads copies per chunk (in
    /// registers between load and store when double-buffered).
    pub fn values_per_thread(&self, threads: i64) -> i64 {
        self.rounds(threads) * self.unit_elements()
    }
}

impl LaunchPlan {
    /// The threads of a block.
    pub fn threads(&self) -> i64 {
        self.block.iter().product()
    }
}

/// The promotions of one launch.
#[derive(Clone, Debug)]
pub struct LaunchPlan {
    /// The launch.
    pub launch: GpuLaunchOp,
    /// Its ids and constant sizes.
    pub ids: LaunchIds,
    /// The threads of a block along x, y and z.
    pub block: [i64; 3],
    /// The loops that are staged.
    pub loops: Vec<LoopPlan>,
}

/// Plans `launch`; remarks about loads left alone go to `remarks`.
pub fn plan_launch<'c>(
    ir: &impl Ir<'c>,
    launch: GpuLaunchOp,
    opts: PlanOptions,
    remarks: &mut Vec<(OpId, String)>,
) -> Result<LaunchPlan, String> {
    if !launch.private_attributions(ir).is_empty() {
        return Err("the launch has private attributions".into());
    }
    let ids = LaunchIds::of(ir, launch);
    let (Some(bx), Some(by), Some(bz)) = (ids.block_size[0], ids.block_size[1], ids.block_size[2]) else {
        return Err("the block size is not constant".into());
    };
    let block = [bx, by, bz];
    let writes = nested_writes(ir.ctx(), ir.body(), launch.op())?;
    let accesses = kernel_accesses(ir, launch);
    let mut budget = opts.max_shared_bytes - existing_shared_bytes(ir, launch);
    let mut loops = Vec::new();
    for f in collect_ops::<AffineForOp>(ir.ctx(), ir.body(), &[launch.body(ir)]) {
        let candidates: Vec<&KernelAccess> = accesses
            .iter()
            .filter(|a| {
                !a.is_store
                    && a.space == MemorySpace::Global
                    && ir.body().parent_op(a.op) == Some(f.op())
                    && AffineLoadOp::isa(ir, a.op)
            })
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let first = candidates[0].op;
        let (trip, chunk, guard) = match staged_chunk(ir, launch, f, opts.tile) {
            Ok(c) => c,
            Err(why) => {
                remarks.push((first, format!("not promoted to shared memory: {why}")));
                continue;
            }
        };
        let mut arrays: Vec<Promotion> = Vec::new();
        let mut memrefs: Vec<Value> = Vec::new();
        for a in &candidates {
            if !memrefs.contains(&a.memref) {
                memrefs.push(a.memref);
            }
        }
        for memref in memrefs {
            let group: Vec<&KernelAccess> = candidates.iter().copied().filter(|a| a.memref == memref).collect();
            let at = group[0].op;
            if writes.iter().any(|w| w.value.is_none_or(|v| v == memref)) {
                remarks.push((at, "not promoted to shared memory: the kernel writes this array".into()));
                continue;
            }
            match plan_array(ir, &ids, block, f, trip, chunk, &group, opts) {
                Ok(p) => {
                    let bytes = shared_bytes(ir, &p);
                    if bytes > budget {
                        remarks.push((
                            at,
                            format!(
                                "not promoted to shared memory: its copy needs {bytes} bytes, {budget} left of max-shared-bytes={}",
                                opts.max_shared_bytes
                            ),
                        ));
                        continue;
                    }
                    budget -= bytes;
                    arrays.push(p);
                }
                Err(why) => remarks.push((at, format!("not promoted to shared memory: {why}"))),
            }
        }
        if arrays.is_empty() {
            continue;
        }
        if guard.is_some() {
            if let Err(why) = only_promoted_accesses(ir, f, &arrays) {
                remarks.push((first, format!("not promoted to shared memory: {why}")));
                continue;
            }
        }
        let double_buffered = opts.double_buffer
            && match double_buffering(ir, &arrays, block, trip, chunk, budget) {
                Ok(extra) => {
                    budget -= extra;
                    true
                }
                Err(why) => {
                    remarks.push((first, format!("not double-buffered: {why}")));
                    false
                }
            };
        loops.push(LoopPlan {
            for_op: f,
            chunk,
            guard,
            arrays,
            double_buffered,
        });
    }
    if loops.is_empty() {
        return Err("no load promoted".into());
    }
    Ok(LaunchPlan {
        launch,
        ids,
        block,
        loops,
    })
}

/// The bytes of the workgroup buffers `launch` already has.
fn existing_shared_bytes<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> i64 {
    launch
        .workgroup_attributions(ir)
        .iter()
        .map(|&v| memref_bytes(ir, v))
        .sum()
}

/// The extra shared bytes of a second buffer per array of a loop, when
/// double buffering applies: two or more chunks, at most
/// [`MAX_PREFETCH_VALUES`] values per thread in flight, and the second
/// buffers within what is left of the budget.
fn double_buffering<'c>(
    ir: &impl Ir<'c>,
    arrays: &[Promotion],
    block: [i64; 3],
    trip: i64,
    chunk: i64,
    budget: i64,
) -> Result<i64, String> {
    if trip <= chunk {
        return Err(format!(
            "the loop's {trip} iteration(s) are one chunk: there is no next chunk to load during the computation"
        ));
    }
    let threads: i64 = block.iter().product();
    let values: i64 = arrays.iter().map(|p| p.values_per_thread(threads)).sum();
    if values > MAX_PREFETCH_VALUES {
        return Err(format!(
            "each thread would hold {values} values of the next chunk, more than {MAX_PREFETCH_VALUES}"
        ));
    }
    let extra: i64 = arrays.iter().map(|p| shared_bytes(ir, p)).sum();
    if extra > budget {
        return Err(format!(
            "the second buffers need {extra} bytes, {budget} left of max-shared-bytes"
        ));
    }
    Ok(extra)
}

/// The bytes of `p`'s workgroup buffer.
fn shared_bytes<'c>(ir: &impl Ir<'c>, p: &Promotion) -> i64 {
    p.buffer_shape
        .iter()
        .product::<i64>()
        .saturating_mul(memref_element_bytes(ir, p.memref))
}

/// The trip count of `f`, the chunk it is staged by ([`chunk_for`]) and
/// the bound guard it must leave,
/// when every thread of the block reaches `f` (inside nothing but
/// constant-bound `affine.for` loops) or reaches it once out of a guard
/// (`f` directly in the then block of an `affine.if` directly in the
/// kernel, without results or else block, with only side-effect-free ops
/// before `f`), and its bounds are constant.
fn staged_chunk<'c>(
    ir: &impl Ir<'c>,
    launch: GpuLaunchOp,
    f: AffineForOp,
    tile: i64,
) -> Result<(i64, i64, Option<OpId>), String> {
    let body = ir.body();
    let mut guard = None;
    let mut cur = body.parent_op(f.op());
    while let Some(p) = cur {
        if p == launch.op() {
            break;
        }
        if AffineIfOp::isa(ir, p) && body.parent_op(f.op()) == Some(p) && body.parent_op(p) == Some(launch.op()) {
            hoistable_guard(ir, AffineIfOp::cast(ir, p).expect("checked"), f)?;
            guard = Some(p);
            cur = body.parent_op(p);
            continue;
        }
        let Some(outer) = AffineForOp::cast(ir, p) else {
            return Err(format!(
                "the loop is inside '{}': the barriers would not be reached by every thread of the block",
                ir.ctx().op_name_str(body.op_name(p))
            ));
        };
        if outer.constant_lower_bound(ir).is_none() || outer.constant_upper_bound(ir).is_none() {
            return Err("the loop is inside a loop without constant bounds".into());
        }
        cur = body.parent_op(p);
    }
    let Some(trip) = f.constant_trip_count(ir) else {
        return Err("the loop's bounds are not constant".into());
    };
    if trip < 2 {
        return Err(format!(
            "the loop runs {trip} iteration(s): nothing to reuse across iterations"
        ));
    }
    Ok((trip, chunk_for(trip, tile), guard))
}

/// The chunk of a loop of `trip` iterations: `tile` when it divides the
/// trip count, else its largest divisor up to `tile` when that is at
/// least half of `tile` (no partial chunk), else `tile` with a shorter
/// last chunk (a prime trip count would otherwise copy one iteration at
/// a time).
pub fn chunk_for(trip: i64, tile: i64) -> i64 {
    let tile = tile.min(trip).max(1);
    let divisor = (1..=tile).rev().find(|c| trip % c == 0).unwrap_or(1);
    if 2 * divisor >= tile {
        divisor
    } else {
        tile
    }
}

/// Whether loop `f` can leave the bound guard `g` (its direct parent):
/// `g` has no results and no else block, and the ops before `f` in its
/// then block have no regions and no memory effects (they may run for
/// every thread).
fn hoistable_guard<'c>(ir: &impl Ir<'c>, g: AffineIfOp, f: AffineForOp) -> Result<(), String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let inside = "the loop is inside 'affine.if'";
    if body.num_results(g.op()) != 0 {
        return Err(format!(
            "{inside} with results: the barriers would not be reached by every thread of the block"
        ));
    }
    if let Some(e) = g.else_block(ir) {
        if body.block_ops(e).any(|o| Some(o) != body.terminator(e)) {
            return Err(format!(
                "{inside} with an else block: the barriers would not be reached by every thread of the block"
            ));
        }
    }
    for o in body.block_ops(g.then_block(ir)) {
        if o == f.op() {
            return Ok(());
        }
        let pure = body.num_regions(o) == 0 && is_memory_effect_free(ctx, body, o);
        if !pure {
            return Err(format!(
                "{inside} after '{}', which cannot run for the threads the guard excludes: the loop cannot leave the guard",
                ctx.op_name_str(body.op_name(o))
            ));
        }
    }
    Ok(())
}

/// Whether the only memory accesses in `f` are loads of `arrays`: a
/// loop taken out of its bound guard runs for every thread, and reads of
/// shared copies are the only accesses that stay inside what exists.
pub fn only_promoted_accesses<'c>(ir: &impl Ir<'c>, f: AffineForOp, arrays: &[Promotion]) -> Result<(), String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let promoted: Vec<OpId> = arrays.iter().flat_map(|p| p.loads.iter().map(|l| l.op())).collect();
    let mut other = None;
    walk(body, f.op(), WalkOrder::PreOrder, &mut |b, o| {
        if o == f.op() || b.num_regions(o) > 0 || promoted.contains(&o) {
            return WalkControl::Advance;
        }
        if memory_effects(ctx, b, o).is_none_or(|e| !e.is_empty()) {
            other = Some(ctx.op_name_str(b.op_name(o)).to_string());
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    match other {
        Some(name) => Err(format!(
            "the loop is under a bound guard and also has '{name}', which would run for the threads the guard excludes once the loop leaves it"
        )),
        None => Ok(()),
    }
}

/// The range `[min, max]` of `t` over the block's threads, the grid's
/// blocks and the enclosing loops' iterations; `None` for a value from
/// outside the launch or a size that is not constant.
fn term_range(t: Term, ids: &LaunchIds, block: [i64; 3], loops: &[KernelLoop]) -> Option<(i64, i64)> {
    match t {
        Term::Thread(d) => Some((0, block[d] - 1)),
        Term::Block(d) => ids.grid_size[d].map(|g| (0, g - 1)),
        Term::Loop(v) => {
            let l = loops.iter().find(|l| l.iv == v)?;
            let (lo, step, trip) = (l.lower?, l.step?, l.trip_count?);
            let last = lo.checked_add(step.checked_mul(trip.checked_sub(1)?)?)?;
            Some((lo.min(last), lo.max(last)))
        }
        Term::Invariant(_) => None,
    }
}

/// The smallest and largest value of `l` over the ranges of its terms.
fn linear_range(l: &LinearIndex, mut range: impl FnMut(Term) -> Option<(i64, i64)>) -> Option<(i64, i64)> {
    let (mut lo, mut hi) = (l.constant, l.constant);
    for &(t, c) in &l.terms {
        let (a, b) = range(t)?;
        let (x, y) = (c.checked_mul(a)?, c.checked_mul(b)?);
        lo = lo.checked_add(x.min(y))?;
        hi = hi.checked_add(x.max(y))?;
    }
    Some((lo, hi))
}

/// The plan for the loads `group` of one array in loop `f`.
#[allow(clippy::too_many_arguments)]
fn plan_array<'c>(
    ir: &impl Ir<'c>,
    ids: &LaunchIds,
    block: [i64; 3],
    f: AffineForOp,
    trip: i64,
    chunk: i64,
    group: &[&KernelAccess],
    opts: PlanOptions,
) -> Result<Promotion, String> {
    let iv = f.iv(ir);
    let step = f.step(ir);
    let first = group[0];
    let rank = first.subscripts.len();
    if rank == 0 || first.shape.len() != rank || first.shape.iter().any(|&s| s < 0) {
        return Err("the array does not have a static shape".into());
    }
    if !first.row_major {
        return Err("the array has a layout map".into());
    }
    // Split every subscript into its uniform, loop and local parts.
    let mut sides: Vec<Option<(LinearIndex, i64)>> = vec![None; rank];
    let mut local: Vec<Vec<LinearIndex>> = Vec::new();
    for acc in group {
        let mut parts = Vec::new();
        for (d, s) in acc.subscripts.iter().enumerate() {
            let l = s.linear().ok_or("an unresolved subscript")?;
            let mut uniform = LinearIndex::default();
            let mut loc = LinearIndex::constant(l.constant);
            let mut loop_coef = 0;
            for &(t, c) in &l.terms {
                match t {
                    Term::Thread(_) => loc.terms.push((t, c)),
                    Term::Loop(v) if v == iv => loop_coef = c,
                    Term::Loop(v)
                        if !acc
                            .loops
                            .iter()
                            .any(|k| k.iv == v && ir.body().is_ancestor(k.op, f.op())) =>
                    {
                        return Err("a subscript uses a loop inside the staged loop".into());
                    }
                    _ => uniform.terms.push((t, c)),
                }
            }
            match &sides[d] {
                None => sides[d] = Some((uniform, loop_coef)),
                Some((u, c)) if *u == uniform && *c == loop_coef => {}
                Some(_) => {
                    return Err(format!(
                        "its loads differ in subscript {d} by more than the thread ids and a constant"
                    ))
                }
            }
            parts.push(loc);
        }
        local.push(parts);
    }
    let sides: Vec<(LinearIndex, i64)> = sides.into_iter().map(|s| s.expect("every subscript seen")).collect();
    if sides.iter().all(|(_, c)| *c == 0) {
        return Err("no subscript uses the loop's index: the loads read the same elements every iteration".into());
    }
    // The box: per subscript, the smallest and largest local part plus the chunk's loop offsets.
    let thread_range = |t: Term| match t {
        Term::Thread(d) => Some((0, block[d] - 1)),
        _ => None,
    };
    // The first and last chunk's first iterations, for the corner's range.
    let first_chunk = f.constant_lower_bound(ir).expect("staged loops have constant bounds");
    let chunks = (trip + chunk - 1) / chunk;
    let last_chunk = step
        .checked_mul(chunk)
        .and_then(|c| c.checked_mul(chunks - 1))
        .and_then(|c| c.checked_add(first_chunk))
        .ok_or("a subscript overflows")?;
    let mut boxes = Vec::new();
    let mut bounds_guard = false;
    for (d, (uniform, loop_coef)) in sides.iter().enumerate() {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for parts in &local {
            let (a, b) = linear_range(&parts[d], thread_range).ok_or("a subscript overflows")?;
            lo = lo.min(a);
            hi = hi.max(b);
        }
        let span = loop_coef
            .checked_mul(step)
            .and_then(|s| s.checked_mul(chunk - 1))
            .ok_or("a subscript overflows")?;
        let (lo, hi) = (lo + span.min(0), hi + span.max(0));
        // The corner over the grid, the enclosing loops and the chunks.
        let (c0, c1) = (loop_coef * first_chunk, loop_coef * last_chunk);
        let inside = linear_range(uniform, |t| term_range(t, ids, block, &first.loops))
            .and_then(|(ulo, uhi)| {
                Some((
                    ulo.checked_add(c0.min(c1))?.checked_add(lo)?,
                    uhi.checked_add(c0.max(c1))?.checked_add(hi)?,
                ))
            })
            .is_some_and(|(min, max)| min >= 0 && max < first.shape[d]);
        bounds_guard |= !inside;
        boxes.push(BoxSide {
            uniform: uniform.clone(),
            loop_coef: *loop_coef,
            lo,
            extent: hi - lo + 1,
        });
    }
    let elements: i64 = boxes.iter().map(|s| s.extent).product();
    let threads: i64 = block.iter().product();
    let reads = (group.len() as i64) * threads * chunk;
    let reuse = reads as f64 / elements as f64;
    if reads < opts.min_reuse.saturating_mul(elements) {
        return Err(format!(
            "the block reads the {elements} elements of its box {reads} times over {chunk} iterations: {reuse:.2} reads per element, below min-reuse={}",
            opts.min_reuse
        ));
    }
    let contiguous = if opts.thread_contiguous {
        thread_contiguous_side(&boxes, &local, block, wide_read_width(first))
    } else {
        None
    };
    let mut buffer_shape: Vec<i64> = boxes.iter().map(|s| s.extent).collect();
    if let Some(c) = contiguous {
        let e = buffer_shape.remove(c.side);
        buffer_shape.push(e);
    }
    if opts.pad && rank >= 2 {
        // One element against bank conflicts; a wide read's worth to keep
        // thread-contiguous rows aligned.
        *buffer_shape.last_mut().expect("rank >= 2") += contiguous.map_or(1, |c| c.width);
    }
    Ok(Promotion {
        memref: first.memref,
        loads: group
            .iter()
            .map(|a| AffineLoadOp::cast(ir, a.op).expect("candidates are affine.load"))
            .collect(),
        local,
        bounds_guard,
        shape: first.shape.clone(),
        // A thread-contiguous side is copied in runs that are stored wide.
        copy_width: if opts.vector_copy && contiguous.is_none() {
            copy_width(&boxes, first, f, ir, chunk, bounds_guard)
        } else {
            1
        },
        sides: boxes,
        contiguous,
        buffer_shape,
        reuse,
    })
}

/// The side of the box (innermost first) whose reads are `t + S·r` for
/// one thread id `t` of block size `S` and at least `width` values of `r`
/// per load group, not moved by the loop, and whose extent `S·width`
/// divides: the side worth storing in thread-contiguous order.
fn thread_contiguous_side(
    sides: &[BoxSide],
    local: &[Vec<LinearIndex>],
    block: [i64; 3],
    width: i64,
) -> Option<ThreadContiguous> {
    if width < 2 {
        return None;
    }
    (0..sides.len()).rev().find_map(|d| {
        let side = &sides[d];
        if side.loop_coef != 0 {
            return None;
        }
        let first = &local[0][d];
        let [(Term::Thread(t), 1)] = first.terms.as_slice() else {
            return None;
        };
        let s = block[*t];
        let same_thread = local.iter().all(|parts| parts[d].terms == first.terms);
        let multiples = local
            .iter()
            .all(|parts| (parts[d].constant - side.lo).rem_euclid(s) == 0);
        let fits = s > 1 && side.extent % (s * width) == 0;
        (same_thread && multiples && fits).then_some(ThreadContiguous {
            side: d,
            threads: s,
            width,
        })
    })
}

/// The vector width of the copy of a box with `sides` of the array of
/// `acc` staged over chunks of `chunk` iterations of `f`: 16 bytes' worth
/// of elements when the box's innermost side is a multiple of it and its
/// start is a multiple of it in every block and chunk (every coefficient of
/// the corner's terms, its offset, and the array's row length: a flat
/// offset from the array's start, which the device allocates aligned);
/// 1 otherwise. With a `bounds_guard`, the array's innermost size must be a
/// multiple of it too, so that a unit lies wholly inside or wholly outside
/// the array (a unit the guard drops must hold no element a thread reads).
fn copy_width<'c>(
    sides: &[BoxSide],
    acc: &KernelAccess,
    f: AffineForOp,
    ir: &impl Ir<'c>,
    chunk: i64,
    bounds_guard: bool,
) -> i64 {
    let w = wide_read_width(acc);
    let (Some(last), Some(&row)) = (sides.last(), acc.shape.last()) else {
        return 1;
    };
    let step = f.step(ir);
    let lb = f.constant_lower_bound(ir).unwrap_or(1);
    let aligned = w >= 2
        && last.extent % w == 0
        && ((acc.shape.len() == 1 && !bounds_guard) || row % w == 0)
        && last.lo.rem_euclid(w) == 0
        && last.uniform.terms.iter().all(|(_, c)| c % w == 0)
        && (last.loop_coef * lb) % w == 0
        && (last.loop_coef * step * chunk) % w == 0;
    if aligned {
        w
    } else {
        1
    }
}

/// The elements of `acc`'s array in 16 bytes (one 128-bit access; 1 when
/// the element size is unknown).
fn wide_read_width(acc: &KernelAccess) -> i64 {
    acc.element_bytes.map_or(1, |b| 16 / (b as i64).clamp(1, 16))
}
