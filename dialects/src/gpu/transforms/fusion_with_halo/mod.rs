//! `affine-fusion-with-halo`: seed 000's GPU loop fusion (DIGEST
//! §000.3-§000.9). A run of sibling parallel nests, one definition each,
//! becomes one `gpu.launch` whose blocks recompute the halo iterations
//! they need, so that no block waits for another; values cross threads
//! through one workgroup buffer per definition (`swap-array-alloc` then
//! shares them). See `docs/design/fusion-with-halo.md`.

pub mod emit;
pub mod group;
pub mod grouped;
pub mod halo;
pub mod nests;

use crate::affine::analysis::DependenceAnalysis;
use crate::affine::AffineForOp;
use crate::gpu::GpuLaunchOp;
use group::{plan_group, GroupOptions, GroupPlan, Refusal};
use halo::HaloRule;
use lf_ir::diag::Diagnostic;
use lf_ir::interfaces::{memory_effects, LoopLikeOp};
use lf_ir::view::OpView;
use lf_ir::{BlockId, Body, Context, OpId, RegionId};
use lf_pass::options::OptionValue;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use nests::{candidate, Nest};

/// The registration record of `affine-fusion-with-halo`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-fusion-with-halo",
    summary: "Fuse chains of parallel loop nests into one GPU kernel with redundant halo iterations",
    description: "Seed 000's GPU loop fusion. A run of sibling `affine.for` nests (1 to 3 parallel \
levels, constant bounds, step 1, one `affine.store` per nest: run `affine-loop-distribute{mode=one-statement}` \
first) with only side-effect-free ops between them is split into groups, and each group of two or \
more nests becomes one inline `gpu.launch`. Every parallel level is strip-mined with one strip size \
(`tile-sizes`, listed x first: the innermost level; by default 256 for 1-D nests, 32,16 for 2-D, \
32,4,4 for 3-D, the 1-D strip then shortened by the halo so that the block stays a multiple of \
the warp, 32); a block runs one strip plus the largest halo on each side, one thread \
per iteration (the innermost level on x). Without `tile-sizes` and `outer-threads`, a 1-D group whose first \
nest has at least 65536 iterations takes a 1024-iteration extent (the strip 1024 less the halo) on 128 threads \
that loop over 8 iterations each (`t, t + 128, ...`: coalesced, and 8 loads in flight per thread). The loop dependence graph has an edge per read of a \
definition of the group (its reaching definition: the last earlier nest that writes what it \
reads), weighted by the constant distance between the producer's and the consumer's iterations; \
the halo each nest computes beyond the strip follows from the weights (`halo-rule=sound`, interval \
propagation; `halo-rule=paper`, the seed's rule, unsound when an extension crosses zero). Each nest \
is one phase of the kernel, guarded by its widened range; a definition read by a later phase is \
stored to a workgroup buffer and read from it (a `gpu.barrier` at the top level of the kernel \
after the phase); it is stored to global memory only from the block's own strip, and only when its \
array may be read after the group (`keep-intermediates=live`: a function argument, or an allocation \
used elsewhere; `all` stores every definition).\n\n\
Groups: `group=all` fuses each run greedily as far as the rules allow; `group=auto` (default) \
chooses the split of each run that moves the fewest global bytes in the traffic model (reads of \
arrays not in buffers once per computed iteration, kept stores once per iteration) under \
`max-shared-bytes` per block. `outer-threads=N` (lf's addition, default 0: the seed's one \
thread per iteration) gives the outermost level N threads that each loop over several of its \
iterations (`t, t + N, ...`), so that a block can cover a larger tile than 1024 threads would. \
`vector-width=W` (lf's addition; 2 or 4, default 1) lays a 1-D group out for vector accesses: each of T threads (`outer-threads`, else one per W iterations of the strip; the strip is made a multiple of W*T) computes strip/(W*T) groups of W neighbouring iterations of each phase's strip-long interior, the copies of the nest's body interleaved op by op (all of a thread's loads before its stores), and the phase's halo iterations outside the interior one per thread; where the interior starts, and a padding of the lower halo by up to W-1 idle slots, are chosen so that the most global accesses (then buffer accesses) can start aligned vectors. `vectorize-access{width=W}` after `swap-array-alloc` merges them (fig. 3: float4 loads and stores throughout). 2-D and 3-D groups keep one iteration per thread, with a remark. Without `tile-sizes` and `outer-threads`, a 2-D group takes a 64x32 strip with 4 threads along \
y when that cuts the modelled global traffic by a tenth or the redundant iterations by 10 \
points against the seed's 32x16 layout (wide halos), and the seed's layout otherwise. A remark per fused kernel gives the strip, the block, the halo per \
nest, side and level, the redundant iterations, the shared bytes and the modelled global bytes \
before and after. Not fused, with a remark saying which rule stopped it: nests that are not \
parallel, have several or no definitions, other memory effects, or non-constant bounds; a \
distance that is not constant; a read that may see a value from before the group; a cycle \
through an enclosing loop; a nest overwriting what another block's halo reads (renaming is not \
done) or two nests storing one element from different iterations; a halo larger than the strip; \
a block over 1024 threads; buffers over `max-shared-bytes`.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "tile-sizes",
            kind: OptionKind::List(&OptionKind::UInt),
            default: "",
            help:
                "Strip size per level, x (innermost) first; default 256 less the halo (1-D), 32,16 (2-D), 32,4,4 (3-D)",
        },
        PassOption {
            name: "halo-rule",
            kind: OptionKind::Enum(&["sound", "paper"]),
            default: "sound",
            help: "Halo propagation: sound interval rule, or the seed's (unsound) rule",
        },
        PassOption {
            name: "max-shared-bytes",
            kind: OptionKind::UInt,
            default: "49152",
            help: "Shared memory one fused kernel's buffers may take per block",
        },
        PassOption {
            name: "group",
            kind: OptionKind::Enum(&["auto", "all"]),
            default: "auto",
            help: "auto: the split of each run with the least modelled traffic; all: fuse as far as legal",
        },
        PassOption {
            name: "keep-intermediates",
            kind: OptionKind::Enum(&["live", "all"]),
            default: "live",
            help: "Store a definition to global memory only when it may be read after the group, or always",
        },
        PassOption {
            name: "outer-threads",
            kind: OptionKind::UInt,
            default: "0",
            help: "Threads along the outermost level, each looping over several of its iterations (0: one per iteration)",
        },
        PassOption {
            name: "vector-width",
            kind: OptionKind::UInt,
            default: "1",
            help: "1-D groups: each thread computes groups of this many neighbouring iterations (1, 2 or 4), laid out for vectorize-access",
        },
        PassOption {
            name: "remarks",
            kind: OptionKind::Bool,
            default: "true",
            help: "Emit the remarks (fused kernels, nests left alone and why)",
        },
    ],
    create,
};

/// The most nests `group=auto` considers for one kernel.
const MAX_AUTO_GROUP: usize = 16;
/// The other default layout of a 2-D group: its strip (y, x) and the
/// threads along y.
const WIDE_STRIP: [i64; 2] = [32, 64];
const WIDE_OUTER_THREADS: i64 = 4;
/// The default layout of a long 1-D group: an extent of this many
/// iterations (the strip shortened by the halo)...
const LONG_EXTENT: i64 = 1024;
/// ...covered by this many threads, each looping over `LONG_EXTENT /
/// LONG_THREADS` of them (8 loads in flight per thread before the barrier).
const LONG_THREADS: i64 = 128;
/// The fewest iterations of a 1-D group's first nest for the long layout:
/// 64 of its blocks (smaller groups keep the seed's one thread per iteration,
/// which gives them more blocks).
const LONG_MIN_ITERATIONS: u64 = 64 * LONG_EXTENT as u64;

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let sizes: Vec<i64> = opts
        .list("tile-sizes")
        .iter()
        .map(|v| match v {
            OptionValue::Int(i) => *i,
            _ => 0,
        })
        .collect();
    if sizes.len() > 3 || sizes.iter().any(|&s| !(1..=1024).contains(&s)) {
        return Err("tile-sizes: one to three strip sizes between 1 and 1024 (x first)".into());
    }
    let outer_threads = opts.int("outer-threads");
    if !(0..=1024).contains(&outer_threads) {
        return Err("outer-threads: between 0 (one thread per iteration) and 1024".into());
    }
    let vector_width = opts.int("vector-width");
    if ![1, 2, 4].contains(&vector_width) {
        return Err(format!("vector-width: must be 1, 2 or 4, got {vector_width}"));
    }
    let shared = opts.int("max-shared-bytes");
    if shared < 1 {
        return Err("max-shared-bytes: must be at least 1".into());
    }
    Ok(Box::new(AffineFusionWithHalo {
        tile_sizes: sizes,
        rule: if opts.str("halo-rule") == "paper" {
            HaloRule::Paper
        } else {
            HaloRule::Sound
        },
        max_shared_bytes: shared as u64,
        group_all: opts.str("group") == "all",
        keep_all: opts.str("keep-intermediates") == "all",
        outer_threads,
        vector_width,
        remarks: opts.bool("remarks"),
    }))
}

/// The `affine-fusion-with-halo` pass.
pub struct AffineFusionWithHalo {
    /// Strip sizes, x first (empty: the defaults).
    pub tile_sizes: Vec<i64>,
    /// The halo rule.
    pub rule: HaloRule,
    /// The shared-memory budget.
    pub max_shared_bytes: u64,
    /// `group=all`.
    pub group_all: bool,
    /// `keep-intermediates=all`.
    pub keep_all: bool,
    /// Threads along the outermost level (0: one per iteration).
    pub outer_threads: i64,
    /// Neighbouring iterations a thread of a 1-D group computes together.
    pub vector_width: i64,
    /// Whether remarks are emitted.
    pub remarks: bool,
}

/// A run of candidate nests, with whether it is inside a loop.
struct Run {
    nests: Vec<Nest>,
    in_loop: bool,
}

impl AffineFusionWithHalo {
    /// Strip size per level (outermost first) for nests of `depth` levels.
    fn strips(&self, depth: usize) -> Vec<i64> {
        let defaults: &[i64] = match depth {
            1 => &[256],
            2 => &[32, 16],
            _ => &[32, 4, 4],
        };
        // Listed x first; level d is on axis depth - 1 - d.
        (0..depth)
            .map(|d| {
                let axis = depth - 1 - d;
                self.tile_sizes
                    .get(axis)
                    .copied()
                    .or_else(|| (self.tile_sizes.is_empty()).then(|| defaults[axis]))
                    .unwrap_or(1)
            })
            .collect()
    }

    fn options(&self, depth: usize, in_loop: bool, first: usize) -> GroupOptions {
        GroupOptions {
            first,
            strip: self.strips(depth),
            warp_aligned: self.tile_sizes.is_empty(),
            outer_threads: self.outer_threads,
            vector_width: self.vector_width,
            rule: self.rule,
            max_shared_bytes: self.max_shared_bytes,
            keep_all: self.keep_all,
            in_loop,
        }
    }

    /// The fused groups of `run`, and remarks on what was not fused.
    fn groups(
        &self,
        ctx: &Context,
        body: &Body,
        deps: &DependenceAnalysis,
        run: &Run,
        remarks: &mut Vec<(OpId, String)>,
    ) -> Vec<GroupPlan> {
        let nests = &run.nests;
        let plan = |a: usize, b: usize| -> Result<GroupPlan, Refusal> {
            let depth = nests[a].depth();
            let seed = plan_group(ctx, body, deps, &nests[a..b], &self.options(depth, run.in_loop, a));
            if !self.tile_sizes.is_empty() || self.outer_threads != 0 || b - a < 2 {
                return seed;
            }
            if depth == 1 {
                // The default layout of a long 1-D group: an extent of 1024
                // iterations (the strip shortened by the halo) on 128 threads
                // that loop over 8 each, so that every thread has 8 loads in
                // flight before the barrier (fig. 3 with 64M elements on an
                // H200: 0.26 -> 0.17 ms, 1.6x -> 2.4x over one kernel per
                // nest; 4 or 16 per thread: 0.17-0.20 ms).
                if nests[a].iterations() < LONG_MIN_ITERATIONS {
                    return seed;
                }
                let mut long = self.options(depth, run.in_loop, a);
                long.strip = vec![LONG_EXTENT];
                long.outer_threads = LONG_THREADS;
                return match plan_group(ctx, body, deps, &nests[a..b], &long) {
                    Ok(l) => Ok(l),
                    Err(_) => seed,
                };
            }
            if depth != 2 {
                return seed;
            }
            // The default layout of a 2-D group: the seed's (one thread per
            // iteration of a 32x16 strip plus halos), or a 64x32 strip with 4
            // threads along y looping over its rows when that cuts the
            // modelled traffic by a tenth or the redundant iterations by 10
            // points (wide halos: the 4-stencil chain 1.49x -> 2.89x over one
            // kernel per nest on an H200; narrow ones lose to the loop: LL18
            // 1.15x -> 0.98x).
            let mut wide = self.options(depth, run.in_loop, a);
            wide.strip = WIDE_STRIP.to_vec();
            wide.outer_threads = WIDE_OUTER_THREADS;
            wide.warp_aligned = false;
            match (seed, plan_group(ctx, body, deps, &nests[a..b], &wide)) {
                (Ok(s), Ok(w))
                    if w.bytes_after * 10 < s.bytes_after * 9
                        || w.redundant_percent() + 10.0 < s.redundant_percent() =>
                {
                    Ok(w)
                }
                (Err(_), Ok(w)) => Ok(w),
                (seed, _) => seed,
            }
        };
        let mut out = Vec::new();
        let refused = |r: &Refusal, a: usize, remarks: &mut Vec<(OpId, String)>| {
            remarks.push((
                nests[a + r.at].root(),
                format!("not fused with the nests before it: {}", r.why),
            ));
        };
        if self.group_all {
            let mut a = 0;
            while a < nests.len() {
                let mut best = None;
                let mut b = a + 1;
                while b <= nests.len() {
                    match plan(a, b) {
                        Ok(p) => best = Some(p),
                        Err(r) => {
                            refused(&r, a, remarks);
                            break;
                        }
                    }
                    b += 1;
                }
                let size = best.as_ref().map_or(1, |p| p.nests.len()).max(1);
                if let Some(p) = best.filter(|p| p.nests.len() > 1) {
                    out.push(p);
                }
                a += size;
            }
            return out;
        }
        // group=auto: the partition into consecutive groups with the least
        // modelled traffic (ties: fewer kernels).
        let n = nests.len();
        let mut best: Vec<Option<(u64, usize, usize)>> = vec![None; n + 1];
        best[0] = Some((0, 0, 0));
        let mut plans: Vec<Vec<Option<GroupPlan>>> = vec![vec![None; n + 1]; n + 1];
        for b in 1..=n {
            for a in b.saturating_sub(MAX_AUTO_GROUP)..b {
                let Some((base, kernels, _)) = best[a] else { continue };
                let cost = match plan(a, b) {
                    Ok(p) => {
                        let c = if b - a == 1 { p.bytes_before } else { p.bytes_after };
                        plans[a][b] = Some(p);
                        c
                    }
                    Err(_) => continue,
                };
                let candidate = (base + cost, kernels + 1, a);
                if best[b].is_none_or(|(c, k, _)| (candidate.0, candidate.1) < (c, k)) {
                    best[b] = Some(candidate);
                }
            }
        }
        let mut cuts = Vec::new();
        let mut b = n;
        while b > 0 {
            let (_, _, a) = best[b].expect("a single nest is always a group");
            cuts.push((a, b));
            b = a;
        }
        cuts.reverse();
        for (g, &(a, b)) in cuts.iter().enumerate() {
            if let Some(&(_, next_b)) = cuts.get(g + 1) {
                match plan(a, next_b) {
                    Err(r) => refused(&r, a, remarks),
                    Ok(merged) => {
                        let apart =
                            plans[a][b].as_ref().map_or(0, cost_of) + plans[b][next_b].as_ref().map_or(0, cost_of);
                        remarks.push((
                            nests[b].root(),
                            format!(
                                "not fused with the nests before it: fusing them would move more global memory in the traffic model ({} bytes instead of {apart})",
                                merged.bytes_after
                            ),
                        ));
                    }
                }
            }
            if b - a > 1 {
                out.push(plans[a][b].take().expect("the chosen group has a plan"));
            }
        }
        out
    }
}

/// A group's modelled traffic (one kernel for a single nest).
fn cost_of(p: &GroupPlan) -> u64 {
    if p.nests.len() == 1 {
        p.bytes_before
    } else {
        p.bytes_after
    }
}

/// The remark of a fused kernel.
fn describe(plan: &GroupPlan, first: usize) -> String {
    let depth = plan.strip.len();
    let axes = ["x", "y", "z"];
    let by_axis = |v: &[i64]| -> String { (0..depth).rev().map(|d| v[d].to_string()).collect::<Vec<_>>().join("x") };
    let halos: Vec<String> = plan
        .halos
        .iter()
        .enumerate()
        .map(|(k, h)| {
            let sides: Vec<String> = (0..depth)
                .rev()
                .map(|d| format!("{} -{}/+{}", axes[depth - 1 - d], h.lower[d], h.upper[d]))
                .collect();
            format!("nest {} {}", first + k + 1, sides.join(" "))
        })
        .collect();
    let buffers = plan.communicates.iter().filter(|&&c| c).count();
    let steps = plan.outer_steps();
    let w = plan.vector_width;
    let looped = if w > 1 {
        format!(
            " ({steps} group(s) of {w} neighbouring iterations each along {})",
            axes[depth - 1]
        )
    } else if steps > 1 {
        format!(" ({steps} iterations each along {})", axes[depth - 1])
    } else {
        String::new()
    };
    format!(
        "fused nests {}-{} into one gpu.launch: strip {}, block {} threads{looped}; halo {}; redundant iterations {:.1}%; shared memory {} bytes in {} buffer(s); global memory (model) {} -> {} bytes",
        first + 1,
        first + plan.nests.len(),
        by_axis(&plan.strip),
        by_axis(&plan.block()),
        halos.join(", "),
        plan.redundant_percent(),
        plan.shared_bytes,
        buffers,
        plan.bytes_before,
        plan.bytes_after
    )
}

/// Collects the runs of candidate nests in the blocks of `regions` (not
/// inside kernels), with remarks on nests next to them that are not
/// candidates.
fn collect_runs(
    ctx: &Context,
    body: &Body,
    regions: &[RegionId],
    deps: &DependenceAnalysis,
    in_loop: bool,
    runs: &mut Vec<Run>,
    remarks: &mut Vec<(OpId, String)>,
) {
    for &r in regions {
        let blocks: Vec<BlockId> = body.region_blocks(r).collect();
        for block in blocks {
            collect_in_block(ctx, body, block, deps, in_loop, runs, remarks);
        }
    }
}

fn collect_in_block(
    ctx: &Context,
    body: &Body,
    block: BlockId,
    deps: &DependenceAnalysis,
    in_loop: bool,
    runs: &mut Vec<Run>,
    remarks: &mut Vec<(OpId, String)>,
) {
    let ir = (ctx, body);
    let mut current: Vec<Nest> = Vec::new();
    let mut rejected: Vec<(OpId, String)> = Vec::new();
    let mut any_candidate = false;
    let flush = |current: &mut Vec<Nest>, runs: &mut Vec<Run>| {
        if current.len() > 1 {
            runs.push(Run {
                nests: std::mem::take(current),
                in_loop,
            });
        }
        current.clear();
    };
    let ops: Vec<OpId> = body.block_ops(block).collect();
    for op in ops {
        if let Some(f) = AffineForOp::cast(&ir, op) {
            match candidate(ctx, body, f, deps) {
                Ok(nest) => {
                    if current.last().is_some_and(|p| p.depth() != nest.depth()) {
                        rejected.push((
                            op,
                            format!(
                                "not fused with the nest before it: its band has {} levels, that one {}",
                                nest.depth(),
                                current.last().map_or(0, |p| p.depth())
                            ),
                        ));
                        flush(&mut current, runs);
                    }
                    any_candidate = true;
                    current.push(nest);
                    continue;
                }
                Err(why) => {
                    rejected.push((op, format!("not fused: {why}")));
                    flush(&mut current, runs);
                    let regions: Vec<RegionId> = body.regions(op).to_vec();
                    collect_runs(ctx, body, &regions, deps, true, runs, remarks);
                    continue;
                }
            }
        }
        let effect_free = body.num_regions(op) == 0 && memory_effects(ctx, body, op).is_some_and(|e| e.is_empty());
        if effect_free {
            continue;
        }
        flush(&mut current, runs);
        if GpuLaunchOp::isa(&ir, op) {
            continue;
        }
        let regions: Vec<RegionId> = body.regions(op).to_vec();
        if !regions.is_empty() {
            let looped = in_loop || LoopLikeOp::cast(&ir, op).is_some();
            collect_runs(ctx, body, &regions, deps, looped, runs, remarks);
        }
    }
    flush(&mut current, runs);
    if any_candidate {
        remarks.extend(rejected);
    }
}

impl Pass for AffineFusionWithHalo {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let deps = am.get::<DependenceAnalysis>(op);
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let mut remarks = Vec::new();
        let mut runs = Vec::new();
        collect_runs(ctx, op.body(), &regions, &deps, false, &mut runs, &mut remarks);
        let mut plans = Vec::new();
        for run in &runs {
            let groups = self.groups(ctx, op.body(), &deps, run, &mut remarks);
            for g in groups {
                let first = run
                    .nests
                    .iter()
                    .position(|n| n.root() == g.nests[0].root())
                    .unwrap_or(0);
                let mut message = describe(&g, first);
                if self.vector_width > 1 && g.vector_width == 1 {
                    message += &format!(
                        "; vector-width={} not applied: {}",
                        self.vector_width,
                        if g.strip.len() > 1 {
                            "only 1-D groups compute neighbouring iterations together"
                        } else {
                            "the strip is shorter than two groups"
                        }
                    );
                }
                remarks.push((g.nests[0].root(), message));
                plans.push(g);
            }
        }
        let remarks: Vec<_> = remarks
            .into_iter()
            .map(|(at, message)| (op.body().op_loc(at).source_pos(ctx), message))
            .collect();
        {
            let mut b = op.builder();
            for plan in &plans {
                emit::emit(&mut b, plan);
            }
        }
        if self.remarks {
            for (pos, message) in remarks {
                op.emit(Diagnostic::remark(pos, message));
            }
        }
        op.add_statistic(
            "num-fused-kernels",
            "Groups of nests fused into one gpu.launch",
            plans.len() as u64,
        );
        if plans.is_empty() {
            am.preserve_all();
        }
        Ok(())
    }
}
