//! Whether a sequence of nests can be one fused kernel, and its plan: the
//! loop dependence graph with reaching definitions (DIGEST §000.4), the
//! halos (§000.5), the cross-block safety checks (§000.3 item 6), the
//! limits of a thread block, and the traffic model of the remark.

use super::halo::{propagate, Edge, Halo, HaloRule};
use super::nests::Nest;
use crate::affine::analysis::sibling::{sibling_distance, SiblingDistance};
use crate::affine::analysis::DependenceAnalysis;
use crate::affine::utils::memory_footprint::element_bytes;
use crate::affine::{AffineApplyOp, AffineLoadOp, AffineStoreOp};
use crate::memref::MemrefDeallocOp;
use crate::support::at;
use lf_ir::affine::{simplify_affine_expr, AffineExpr};
use lf_ir::types::TypeData;
use lf_ir::view::OpView;
use lf_ir::{Body, Context, OpId, Value, ValueDef};
use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;

/// The most threads of a block, and along z.
const MAX_THREADS: i64 = 1024;
/// Threads of a warp.
const WARP: i64 = 32;
/// The elements the strips of the innermost level are aligned to.
const SEGMENT: i64 = 32;
const MAX_Z: i64 = 64;

/// What shapes a group's plan.
#[derive(Clone, Debug)]
pub struct GroupOptions {
    /// Strip size per level, outermost first.
    pub strip: Vec<i64>,
    /// Whether the strips are the defaults, to adjust so that a 1-D block
    /// is a multiple of the warp size.
    pub warp_aligned: bool,
    /// The halo rule.
    pub rule: HaloRule,
    /// The shared-memory budget of one block, in bytes.
    pub max_shared_bytes: u64,
    /// Whether every definition is stored to global memory.
    pub keep_all: bool,
    /// Whether the group is inside a loop (reads may see a later nest's
    /// value from the previous iteration).
    pub in_loop: bool,
    /// Threads along the outermost level, each looping over its
    /// iterations (0: one thread per iteration, the seed's layout).
    pub outer_threads: i64,
    /// The number of the group's first nest in its run, from 0 (remarks
    /// number nests from 1 in the run).
    pub first: usize,
    /// Iterations a thread computes side by side in a 1-D group (1: one
    /// at a time; 2 or 4: groups of neighbouring iterations for
    /// `vectorize-access`).
    pub vector_width: i64,
}

/// A read of a definition of the group, served by its buffer.
#[derive(Clone, Debug)]
pub struct ServedRead {
    /// The `affine.load`.
    pub read: OpId,
    /// The nest of the group that produces the value.
    pub producer: usize,
    /// The producer's iteration minus the reader's, per level.
    pub w: Vec<i64>,
    /// Whether some reader iterations fall outside the producer's bounds
    /// (those read the array in global memory, which no nest of the group
    /// writes there).
    pub partial: bool,
}

/// A group that can be fused, and how.
#[derive(Clone, Debug)]
pub struct GroupPlan {
    /// The nests, in textual order.
    pub nests: Vec<Nest>,
    /// Reads served by a buffer.
    pub served: Vec<ServedRead>,
    /// The LDG's edges.
    pub edges: Vec<Edge>,
    /// Halo per nest.
    pub halos: Vec<Halo>,
    /// Per nest: whether its definition is stored to global memory.
    pub keep: Vec<bool>,
    /// Per nest: whether its definition has a consumer in the group.
    pub communicates: Vec<bool>,
    /// Strip size per level.
    pub strip: Vec<i64>,
    /// The largest lower / upper halo per level.
    pub lmax: Vec<i64>,
    /// See `lmax`.
    pub rmax: Vec<i64>,
    /// The first strip's origin per level.
    pub origin: Vec<i64>,
    /// Blocks per level.
    pub grid: Vec<i64>,
    /// Bytes of the buffers of one block.
    pub shared_bytes: u64,
    /// The traffic model: global bytes one kernel per nest moves.
    pub bytes_before: u64,
    /// The traffic model: global bytes the fused kernel moves.
    pub bytes_after: u64,
    /// Iterations computed in all, and in the original nests.
    pub iterations: (u64, u64),
    /// Threads along the outermost level (0: one per iteration).
    pub outer_threads: i64,
    /// Neighbouring iterations a thread computes together (1, or the
    /// option's 2 or 4 for a 1-D group).
    pub vector_width: i64,
}

/// The threads of a 1-D block whose threads compute groups of `w`
/// neighbouring iterations of a strip of `strip`: `outer_threads` (when not
/// 0) or one per group, at most as many as the strip has groups; `None`
/// when the strip holds fewer than two groups.
pub fn grouped_threads(strip: i64, outer_threads: i64, w: i64) -> Option<i64> {
    let groups = strip / w;
    if groups < 2 {
        return None;
    }
    Some(if outer_threads > 0 {
        outer_threads.min(groups)
    } else {
        groups
    })
}

/// Threads per block, per level, for a strip of `strip` iterations and
/// `extent` iterations with the halos: one per iteration, one per group of
/// `vector_width` iterations of the strip along a 1-D group's only level,
/// and at most `outer_threads` (when not 0) along the outermost level.
fn block_shape(strip: &[i64], extent: &[i64], outer_threads: i64, vector_width: i64) -> Vec<i64> {
    let mut b = extent.to_vec();
    if vector_width > 1 {
        b[0] = grouped_threads(strip[0], outer_threads, vector_width).unwrap_or(1);
    } else if outer_threads > 0 && outer_threads < b[0] {
        b[0] = outer_threads;
    }
    b
}

impl GroupPlan {
    /// Iterations per block (strip plus halos), per level: the extents of
    /// the buffers.
    pub fn extent(&self) -> Vec<i64> {
        (0..self.strip.len())
            .map(|d| self.strip[d] + self.lmax[d] + self.rmax[d])
            .collect()
    }

    /// Threads per block, per level: one per iteration, but for the
    /// outermost level when `outer_threads` threads loop over it.
    pub fn block(&self) -> Vec<i64> {
        block_shape(&self.strip, &self.extent(), self.outer_threads, self.vector_width)
    }

    /// How many iterations (of the strip: groups of `vector_width`
    /// iterations) of the outermost level each thread computes.
    pub fn outer_steps(&self) -> i64 {
        let w = self.vector_width;
        if w > 1 {
            return self.strip[0] / (w * self.block()[0]);
        }
        let (e, b) = (self.extent()[0], self.block()[0]);
        (e + b - 1) / b
    }

    /// Redundant iterations as a percentage of the original ones.
    pub fn redundant_percent(&self) -> f64 {
        let (all, orig) = self.iterations;
        if orig == 0 {
            return 0.0;
        }
        (all as f64 - orig as f64) * 100.0 / orig as f64
    }
}

/// Why a group cannot be fused: the nest (index into the group) the rule
/// stops at, and the rule.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// The nest the remark goes to.
    pub at: usize,
    /// The reason.
    pub why: String,
}

fn refuse<T>(at: usize, why: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal { at, why: why.into() })
}

/// The plan of `nests` as one kernel, or why not.
pub fn plan_group(
    ctx: &Context,
    body: &Body,
    deps: &DependenceAnalysis,
    nests: &[Nest],
    opts: &GroupOptions,
) -> Result<GroupPlan, Refusal> {
    let n = nests.len();
    let depth = nests[0].depth();
    let name = |j: usize| opts.first + j + 1;
    if let Some(k) = nests.iter().position(|x| x.depth() != depth) {
        return refuse(
            k,
            format!("its band has {} levels, the group's {depth}", nests[k].depth()),
        );
    }
    let distance = |src: OpId, dst: OpId, at: usize| {
        sibling_distance(&deps.accesses, ctx, body, src, dst, depth).map_err(|e| Refusal { at, why: e })
    };
    // Reaching definitions: each read's producer is the last earlier nest
    // of the group that may write what it reads.
    let mut served = Vec::new();
    let mut global_reads: Vec<(usize, OpId)> = Vec::new();
    for (k, nest) in nests.iter().enumerate() {
        for &read in &nest.reads {
            let mut producer = None;
            for j in (0..k).rev() {
                match distance(nests[j].store, read, k)? {
                    SiblingDistance::Independent => continue,
                    SiblingDistance::Distances(ranges) => {
                        let w: Option<Vec<i64>> = ranges.iter().map(|r| r.constant()).collect();
                        let Some(w) = w else {
                            return refuse(
                                k,
                                format!(
                                    "a read{} depends on nest {} at a distance that is not constant",
                                    at(ctx, body, read),
                                    name(j)
                                ),
                            );
                        };
                        producer = Some((j, w));
                        break;
                    }
                }
            }
            match producer {
                Some((j, w)) => {
                    let Some(partial) = coverage(ctx, body, &nests[j], nests[j].store, nest, read, &w) else {
                        return refuse(
                            k,
                            format!(
                                "the read{} and the store of nest {} touch the same elements through different subscripts",
                                at(ctx, body, read),
                                name(j)
                            ),
                        );
                    };
                    if partial {
                        // The rest comes from global memory: no earlier nest
                        // of the group may have written it.
                        for e in 0..j {
                            if nests[e].array == nests[j].array
                                && distance(nests[e].store, read, k)? != SiblingDistance::Independent
                            {
                                return refuse(
                                    k,
                                    format!(
                                        "the read{} sees values of nests {} and {} (several reaching definitions)",
                                        at(ctx, body, read),
                                        name(e),
                                        name(j)
                                    ),
                                );
                            }
                        }
                        global_reads.push((k, read));
                    }
                    served.push(ServedRead {
                        read,
                        producer: j,
                        w,
                        partial,
                    });
                }
                None => global_reads.push((k, read)),
            }
        }
    }
    let mut edges: Vec<Edge> = Vec::new();
    for s in &served {
        let k = nest_of(nests, body, s.read);
        match edges.iter_mut().find(|e| e.producer == s.producer && e.consumer == k) {
            Some(e) => e.weights.push(s.w.clone()),
            None => edges.push(Edge {
                producer: s.producer,
                consumer: k,
                weights: vec![s.w.clone()],
            }),
        }
    }
    check_cycles(ctx, body, nests, &edges, &global_reads, opts)?;
    let halos = propagate(n, depth, &edges, opts.rule);
    let lmax: Vec<i64> = (0..depth)
        .map(|d| halos.iter().map(|h| h.lower[d]).max().unwrap_or(0))
        .collect();
    let rmax: Vec<i64> = (0..depth)
        .map(|d| halos.iter().map(|h| h.upper[d]).max().unwrap_or(0))
        .collect();
    let mut strip = opts.strip.clone();
    let vector_threads = (depth == 1 && opts.vector_width > 1)
        .then(|| grouped_threads(strip[0], opts.outer_threads, opts.vector_width))
        .flatten();
    if let Some(t) = vector_threads {
        // Groups of neighbouring iterations: the strip is `rounds` groups
        // of W iterations for each of the block's threads (the halos are
        // computed apart, by a few threads each).
        let w = opts.vector_width;
        strip[0] = strip[0] / (w * t) * (w * t);
    } else if opts.warp_aligned && depth == 1 {
        // The default strip of a 1-D group: the block (strip plus halos)
        // is made a multiple of the warp, so that no warp is partly idle
        // (measured: 1.68x -> 1.77x over one kernel per nest for fig. 3 on
        // an H200; for 2-D groups the longer strip's lower redundancy
        // matters more, bench/gpu/RESULTS.md).
        let x = depth - 1;
        let halo = lmax[x] + rmax[x];
        let side = ((strip[x] + halo) / WARP * WARP).max(WARP);
        if side - halo >= lmax[x].max(rmax[x]).max(1) {
            strip[x] = side - halo;
        }
    }
    let vector_width = if vector_threads.is_some() { opts.vector_width } else { 1 };
    for d in 0..depth {
        if lmax[d] > strip[d] || rmax[d] > strip[d] {
            let k = halos
                .iter()
                .position(|h| h.lower[d] == lmax[d].max(rmax[d]) || h.upper[d] == lmax[d].max(rmax[d]))
                .unwrap_or(0);
            return refuse(
                k,
                format!(
                    "a halo of {} iterations at level {d} is larger than the strip of {}",
                    lmax[d].max(rmax[d]),
                    strip[d]
                ),
            );
        }
    }
    let extent: Vec<i64> = (0..depth).map(|d| strip[d] + lmax[d] + rmax[d]).collect();
    let block = block_shape(&strip, &extent, opts.outer_threads, vector_width);
    let threads: i64 = block.iter().product();
    // A single nest is not fused (it stays a loop nest): no block to fit.
    if n > 1 && (threads > MAX_THREADS || (depth == 3 && block[0] > MAX_Z)) {
        let shape: Vec<String> = block.iter().rev().map(|b| b.to_string()).collect();
        return refuse(
            n - 1,
            format!(
                "the block would have {threads} threads ({}), more than a GPU block holds ({MAX_THREADS}, {MAX_Z} along z)",
                shape.join("x")
            ),
        );
    }
    let communicates: Vec<bool> = (0..n).map(|j| served.iter().any(|s| s.producer == j)).collect();
    // Bytes of the buffers per slot; under vector-width the lower halo may
    // be padded by up to W - 1 slots (`pad_for_alignment`).
    let slot_bytes: u64 = (0..n)
        .filter(|&j| communicates[j])
        .map(|j| array_element_bytes(ctx, body, nests[j].array))
        .sum();
    let slots: i64 = extent.iter().product::<i64>() + (vector_width - 1);
    let shared_bytes = slots as u64 * slot_bytes;
    if shared_bytes > opts.max_shared_bytes {
        return refuse(
            n - 1,
            format!(
                "the buffers would take {shared_bytes} bytes of shared memory, more than max-shared-bytes={}",
                opts.max_shared_bytes
            ),
        );
    }
    let keep: Vec<bool> = (0..n)
        .map(|j| {
            opts.keep_all || (live_after(ctx, body, nests, nests[j].array) && !overwritten(ctx, body, deps, nests, j))
        })
        .collect();
    check_cross_block(ctx, body, deps, nests, &halos, &keep, &global_reads, opts.first)?;
    let mut origin: Vec<i64> = (0..depth)
        .map(|d| nests.iter().map(|x| x.lo[d]).min().unwrap_or(0))
        .collect();
    if let Some(c) = store_offset(ctx, body, &nests[n - 1]) {
        // Strips start where the last nest's stores start a 128-byte
        // segment (32 elements of 4 bytes): after normalization a loop from
        // 1 stores `X[i + 1]`, and strips from 0 would split every warp's
        // stores over two segments.
        let x = depth - 1;
        origin[x] -= (origin[x] + c).rem_euclid(SEGMENT);
    }
    let top: Vec<i64> = (0..depth)
        .map(|d| nests.iter().map(|x| x.hi[d]).max().unwrap_or(0))
        .collect();
    let grid: Vec<i64> = (0..depth)
        .map(|d| ((top[d] - origin[d]).max(1) + strip[d] - 1) / strip[d])
        .collect();
    let mut plan = GroupPlan {
        nests: nests.to_vec(),
        served,
        edges,
        halos,
        keep,
        communicates,
        strip,
        lmax,
        rmax,
        origin,
        grid,
        shared_bytes,
        bytes_before: 0,
        bytes_after: 0,
        iterations: (0, 0),
        outer_threads: opts.outer_threads,
        vector_width,
    };
    if vector_width > 1 {
        super::grouped::pad_for_alignment(ctx, body, &mut plan);
        plan.shared_bytes = plan.extent().iter().product::<i64>() as u64 * slot_bytes;
    }
    traffic(ctx, body, &mut plan, &global_reads);
    Ok(plan)
}

/// The nest (index) holding `op`.
fn nest_of(nests: &[Nest], body: &Body, op: OpId) -> usize {
    nests
        .iter()
        .position(|x| body.is_ancestor(x.root(), op))
        .expect("the op is in a nest of the group")
}

/// The subscripts of the access `op` of `nest` as expressions over the
/// nest's levels (`shift[d]` added to level `d`) and `symbols` (values
/// from outside the nest, shared by the accesses compared); `None` when an
/// operand is a value of the nest other than its band's induction
/// variables.
fn subscripts(
    ctx: &Context,
    body: &Body,
    nest: &Nest,
    op: OpId,
    shift: &[i64],
    symbols: &mut Vec<Value>,
) -> Option<Vec<AffineExpr>> {
    let ir = (ctx, body);
    let (map, operands) = if let Some(l) = AffineLoadOp::cast(&ir, op) {
        (l.map(&ir), l.indices(&ir))
    } else {
        let s = AffineStoreOp::cast(&ir, op)?;
        (s.map(&ir), s.indices(&ir))
    };
    apply_map(ctx, body, nest, map, &operands, shift, symbols)
}

/// `map`'s results over `operands`, each operand an expression over the
/// nest's levels and `symbols` ([`operand_expr`]).
fn apply_map(
    ctx: &Context,
    body: &Body,
    nest: &Nest,
    map: &lf_ir::affine::AffineMap,
    operands: &[Value],
    shift: &[i64],
    symbols: &mut Vec<Value>,
) -> Option<Vec<AffineExpr>> {
    let nd = map.num_dims() as usize;
    let replacement = operands
        .iter()
        .map(|&v| operand_expr(ctx, body, nest, v, shift, symbols))
        .collect::<Option<Vec<_>>>()?;
    let (dims, syms) = replacement.split_at(nd);
    Some(
        map.results()
            .iter()
            .map(|e| e.replace_dims_and_symbols(dims, syms))
            .collect(),
    )
}

/// An access operand as an expression: a band induction variable is its
/// level (plus `shift`), an `affine.apply` in the nest its map over its
/// operands, a value from outside the nest a symbol; `None` otherwise.
fn operand_expr(
    ctx: &Context,
    body: &Body,
    nest: &Nest,
    v: Value,
    shift: &[i64],
    symbols: &mut Vec<Value>,
) -> Option<AffineExpr> {
    let ir = (ctx, body);
    if let Some(d) = nest.loops.iter().position(|f| f.iv(&ir) == v) {
        return Some(AffineExpr::dim(d as u32).add_const(shift[d]));
    }
    let inside = match body.value_def(v) {
        ValueDef::OpResult { op, .. } => body.is_ancestor(nest.root(), op),
        ValueDef::BlockArg { block, .. } => body
            .block_region(block)
            .and_then(|r| body.region_parent(r))
            .is_some_and(|o| body.is_ancestor(nest.root(), o)),
    };
    if inside {
        let apply = AffineApplyOp::defining(&ir, v)?;
        let results = apply_map(
            ctx,
            body,
            nest,
            apply.map(&ir),
            &apply.map_operands(&ir),
            shift,
            symbols,
        )?;
        return results.into_iter().next();
    }
    let s = match symbols.iter().position(|&x| x == v) {
        Some(s) => s,
        None => {
            symbols.push(v);
            symbols.len() - 1
        }
    };
    Some(AffineExpr::symbol(s as u32))
}

/// The constant `c` when the last subscript of `nest`'s store is its
/// innermost level plus `c` (the element the iteration `i` stores is
/// `i + c` along the memref's contiguous dimension).
fn store_offset(ctx: &Context, body: &Body, nest: &Nest) -> Option<i64> {
    let depth = nest.depth() as u32;
    let mut symbols = Vec::new();
    let subs = subscripts(ctx, body, nest, nest.store, &vec![0; nest.depth()], &mut symbols)?;
    let last = simplify_affine_expr(subs.last()?, depth, symbols.len() as u32);
    let c = simplify_affine_expr(&last.sub(&AffineExpr::dim(depth - 1)), depth, symbols.len() as u32);
    c.as_constant()
}

/// Whether `reader`'s access `read` touches, at the reader's iteration
/// `x`, the element `writer`'s access `write` stores at iteration `x + w`
/// (the same subscripts after the shift): `None` when not; else whether
/// the coverage is partial (some shifted iterations are outside the
/// writer's bounds).
fn coverage(
    ctx: &Context,
    body: &Body,
    writer: &Nest,
    write: OpId,
    reader: &Nest,
    read: OpId,
    w: &[i64],
) -> Option<bool> {
    let depth = w.len();
    let mut symbols = Vec::new();
    let g = subscripts(ctx, body, writer, write, w, &mut symbols)?;
    let f = subscripts(ctx, body, reader, read, &vec![0; depth], &mut symbols)?;
    let (nd, ns) = (depth as u32, symbols.len() as u32);
    let same = g.len() == f.len()
        && g.iter()
            .zip(&f)
            .all(|(a, b)| simplify_affine_expr(&a.sub(b), nd, ns).as_constant() == Some(0));
    if !same {
        return None;
    }
    let inside = (0..depth).all(|d| reader.lo[d] + w[d] >= writer.lo[d] && reader.hi[d] + w[d] <= writer.hi[d]);
    Some(!inside)
}

/// The bytes of an element of the memref `v`.
fn array_element_bytes(ctx: &Context, body: &Body, v: Value) -> u64 {
    match ctx.type_data(body.value_type(v)) {
        TypeData::MemRef { element, .. } => element_bytes(ctx, *element).unwrap_or(4),
        _ => 4,
    }
}

/// Whether `array` may be read after the group: a block argument (the
/// caller sees it), or a value with a use outside the group's nests other
/// than a `memref.dealloc`.
fn live_after(ctx: &Context, body: &Body, nests: &[Nest], array: Value) -> bool {
    if matches!(body.value_def(array), ValueDef::BlockArg { .. }) {
        return true;
    }
    let ir = (ctx, body);
    let defining = body.defining_op(array);
    let allocates = defining.is_some_and(|op| {
        lf_ir::interfaces::memory_effects(ctx, body, op).is_some_and(|e| {
            e.iter()
                .any(|e| matches!(e.effect, lf_ir::interfaces::Effect::Alloc) && e.value == Some(array))
        })
    });
    if !allocates {
        return true;
    }
    body.uses(array).any(|u| {
        let user = body.use_owner(u);
        !MemrefDeallocOp::isa(&ir, user) && !nests.iter().any(|x| body.is_ancestor(x.root(), user))
    })
}

/// Whether a later nest of the group overwrites every element nest `j`
/// writes (so `j`'s values never reach global memory in the original).
fn overwritten(ctx: &Context, body: &Body, deps: &DependenceAnalysis, nests: &[Nest], j: usize) -> bool {
    let depth = nests[j].depth();
    (j + 1..nests.len()).any(|m| {
        if nests[m].array != nests[j].array {
            return false;
        }
        let Ok(SiblingDistance::Distances(r)) =
            sibling_distance(&deps.accesses, ctx, body, nests[m].store, nests[j].store, depth)
        else {
            return false;
        };
        let Some(w) = r.iter().map(|x| x.constant()).collect::<Option<Vec<i64>>>() else {
            return false;
        };
        coverage(ctx, body, &nests[m], nests[m].store, &nests[j], nests[j].store, &w) == Some(false)
    })
}

/// Rejects a cyclic LDG: with the group inside a loop, a read of an array
/// a later nest writes sees that nest's value of the previous iteration.
fn check_cycles(
    ctx: &Context,
    body: &Body,
    nests: &[Nest],
    edges: &[Edge],
    global_reads: &[(usize, OpId)],
    opts: &GroupOptions,
) -> Result<(), Refusal> {
    if !opts.in_loop {
        return Ok(());
    }
    let ir = (ctx, body);
    let mut g: DiGraph<usize, ()> = DiGraph::new();
    let nodes: Vec<_> = (0..nests.len()).map(|k| g.add_node(k)).collect();
    for e in edges {
        g.update_edge(nodes[e.producer], nodes[e.consumer], ());
    }
    for &(k, read) in global_reads {
        let memref = AffineLoadOp::cast(&ir, read).expect("a load").memref(&ir);
        for (m, later) in nests.iter().enumerate().skip(k + 1) {
            if later.array == memref {
                g.update_edge(nodes[m], nodes[k], ());
            }
        }
    }
    for scc in tarjan_scc(&g) {
        if scc.len() > 1 {
            let mut members: Vec<usize> = scc.iter().map(|&x| g[x]).collect();
            members.sort_unstable();
            let names: Vec<String> = members.iter().map(|k| format!("nest {}", opts.first + k + 1)).collect();
            let last = *members.last().expect("a cycle has nests");
            return refuse(
                last,
                format!(
                    "the loop dependence graph has a cycle through {} -> {} (a value of the enclosing loop's previous iteration)",
                    names.join(" -> "),
                    names[0]
                ),
            );
        }
    }
    Ok(())
}

/// Rejects what would make two blocks touch one global element: a global
/// read of an array a nest of the group (the same or a later one) stores,
/// unless the reader has no halo and reads only what the same iteration
/// writes; two stores of one array unless by the same iteration.
#[allow(clippy::too_many_arguments)]
fn check_cross_block(
    ctx: &Context,
    body: &Body,
    deps: &DependenceAnalysis,
    nests: &[Nest],
    halos: &[Halo],
    keep: &[bool],
    global_reads: &[(usize, OpId)],
    first: usize,
) -> Result<(), Refusal> {
    let ir = (ctx, body);
    let depth = nests[0].depth();
    let same_iteration = |d: &SiblingDistance| match d {
        SiblingDistance::Independent => true,
        SiblingDistance::Distances(r) => r.iter().all(|x| x.constant() == Some(0)),
    };
    for &(j, read) in global_reads {
        let memref = AffineLoadOp::cast(&ir, read).expect("a load").memref(&ir);
        let no_halo = halos[j].lower.iter().chain(&halos[j].upper).all(|&h| h == 0);
        for k in j..nests.len() {
            if !keep[k] || nests[k].array != memref {
                continue;
            }
            let safe = if k == j {
                // A parallel nest reads what the same iteration writes.
                no_halo
            } else {
                let d = sibling_distance(&deps.accesses, ctx, body, read, nests[k].store, depth)
                    .map_err(|e| Refusal { at: k, why: e })?;
                no_halo && same_iteration(&d)
            };
            if !safe {
                return refuse(
                    k,
                    format!(
                        "nest {} overwrites elements of its array that nest {} reads{} in other blocks (an anti dependence across blocks; renaming is not done)",
                        first + k + 1,
                        first + j + 1,
                        at(ctx, body, read)
                    ),
                );
            }
        }
    }
    for j in 0..nests.len() {
        for k in j + 1..nests.len() {
            if !keep[j] || !keep[k] || nests[j].array != nests[k].array {
                continue;
            }
            let d = sibling_distance(&deps.accesses, ctx, body, nests[j].store, nests[k].store, depth)
                .map_err(|e| Refusal { at: k, why: e })?;
            if !same_iteration(&d) {
                return refuse(
                    k,
                    format!(
                        "nests {} and {} store to the same elements from different iterations (an output dependence across blocks)",
                        first + j + 1,
                        first + k + 1
                    ),
                );
            }
        }
    }
    Ok(())
}

/// The iterations of `[lo, hi)` the blocks compute with the strip widened
/// by `lower` and `upper`, summed over the blocks of one level.
fn widened_count(lo: i64, hi: i64, origin: i64, strip: i64, grid: i64, lower: i64, upper: i64) -> u64 {
    (0..grid)
        .map(|b| {
            let s = origin + b * strip;
            let (a, z) = ((s - lower).max(lo), (s + strip + upper).min(hi));
            (z - a).max(0) as u64
        })
        .sum()
}

/// Fills the traffic model: one kernel per nest reads each distinct array
/// its nest reads and writes its array once per iteration; the fused
/// kernel reads the arrays not served by buffers once per computed
/// iteration (halos included) and writes the kept definitions once per
/// iteration.
fn traffic(ctx: &Context, body: &Body, plan: &mut GroupPlan, global_reads: &[(usize, OpId)]) {
    let ir = (ctx, body);
    let depth = plan.strip.len();
    let (mut before, mut after, mut all, mut orig) = (0u64, 0u64, 0u64, 0u64);
    for (k, nest) in plan.nests.iter().enumerate() {
        let iterations = nest.iterations();
        let widened: u64 = (0..depth)
            .map(|d| {
                widened_count(
                    nest.lo[d],
                    nest.hi[d],
                    plan.origin[d],
                    plan.strip[d],
                    plan.grid[d],
                    plan.halos[k].lower[d],
                    plan.halos[k].upper[d],
                )
            })
            .product();
        orig += iterations;
        all += widened;
        let mut read_arrays: Vec<Value> = Vec::new();
        for &r in &nest.reads {
            let m = AffineLoadOp::cast(&ir, r).expect("a load").memref(&ir);
            if !read_arrays.contains(&m) {
                read_arrays.push(m);
            }
        }
        let bytes = |v: Value| array_element_bytes(ctx, body, v);
        before += read_arrays.iter().map(|&m| bytes(m) * iterations).sum::<u64>() + bytes(nest.array) * iterations;
        let mut global: Vec<Value> = Vec::new();
        for &(j, r) in global_reads {
            // A partly served read touches global memory only at the
            // bounds: the model leaves it out.
            if plan.served.iter().any(|s| s.read == r) {
                continue;
            }
            let m = AffineLoadOp::cast(&ir, r).expect("a load").memref(&ir);
            if j == k && !global.contains(&m) {
                global.push(m);
            }
        }
        after += global.iter().map(|&m| bytes(m) * widened).sum::<u64>();
        if plan.keep[k] {
            after += bytes(nest.array) * iterations;
        }
    }
    plan.bytes_before = before;
    plan.bytes_after = after;
    plan.iterations = (all, orig);
}
