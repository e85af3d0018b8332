//! `gpu-map-loops`: IHOP's mapping of parallel loop nests to GPU threads
//! (DIGEST §003.3, §003.6). Each outermost band of 1 to `max-depth`
//! perfectly nested `affine.for` loops that the dependence analysis proves
//! parallel becomes an inline `gpu.launch`, wherever it is (a nest inside a
//! sequential host loop becomes a kernel launched from that loop). The
//! permutation of counters onto x/y/z and the power-of-two block shape of
//! the fixed block volume are chosen by the static coalescing cost model
//! ([`cost_table`], [`search`]). See `docs/design/gpu-map-loops.md`.

pub mod accesses;
pub mod band;
pub mod band_loops;
pub mod cost_table;
pub mod counter_space;
pub mod hoist;
pub mod launch;
pub mod search;
mod straight_line;

use crate::affine::analysis::loop_parallel::is_parallel_cached;
use crate::affine::analysis::{
    dependence_kind, parallel_blocker, DependenceAnalysis, DependenceResult, ParallelBlocker, Precision,
};
use crate::affine::utils::loop_band::permute_band;
use crate::affine::utils::loop_bands::perfectly_nested_loops;
use crate::affine::utils::validity::{affine_scope_region, is_valid_dim};
use crate::affine::{AffineForOp, AffineParallelOp};
use crate::gpu::GpuLaunchOp;
use crate::scf::ScfParallelOp;
use crate::support::at;
use band::BandBounds;
use band_loops::Band;
use lf_ir::diag::Diagnostic;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::view::OpView;
use lf_ir::walk::{walk, walk_regions, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId};
use lf_pass::options::OptionValue;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use search::{Candidate, SearchSpace};

/// The registration record of `gpu-map-loops`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-map-loops",
    summary: "Map parallel affine loop nests to GPU threads with IHOP's coalescing cost model",
    description: "Turns each outermost band of 1 to `max-depth` perfectly nested `affine.for` loops \
whose iterations the dependence analysis proves independent into an inline `gpu.launch` (one \
thread per iteration), wherever the band is: a band inside a sequential host loop (a time loop, \
LU's `k` loop) becomes a kernel launched from that loop. The band is the longest prefix of \
parallel loops of the perfect nest; loops inside it that are not mapped (reductions, inner \
sequential loops) stay loops in the kernel body. Before that, loops of a perfect nest along \
which every dependence has distance 0 move to the front of the nest (in their order) when that \
maps more loops: after `ihop-pre`'s interchange a matrix product runs `i, k, j`, and `j` moves \
above `k`. A loop that is not parallel stays on the host with a remark naming the blocking \
dependence, and the pass looks for bands inside it.\n\n\
The permutation γ of the band's counters onto x, y, z and the power-of-two block shape of \
`block-volume` threads are chosen by IHOP's static coalescing model (DIGEST §003.6): for each \
`affine.load`/`affine.store`/`memref.load`/`memref.store` of global memory in the band, the \
coefficients of its linearized element offset along the counters on x, y and z are classified as \
zero, small (|c| below the elements of a `cache-line-bytes` line) or large (or unknown), and cost \
per thread from the seed's 2-D/3-D `t` tables (the ambiguous \"two small coefficients\" entries \
by counting the threads of one block on the first line), times the access's execution count \
(product of inner trip counts; 16 for an unknown one). The cheapest (γ, shape) wins; among equal costs, the \
shape whose smallest side is largest, then the identity-first permutation order, then the smaller \
x side. A block side never exceeds the \
constant trip count of its loop rounded up to a power of two, when there is a shape that \
respects this. `mapping=identity` keeps γ the identity, `mapping=p0,p1[,p2]` maps at most that \
many loops and puts band loop `p0` (0 = outermost) on x, `p1` on y, `p2` on z (a shorter band \
keeps the order of the loops it has); `block-sizes=bx[,by[,bz]]` forces the shape \
(entries past the band's depth are ignored, missing ones are 1). A remark per band lists every \
candidate (γ, shape) with its cost and the choice.\n\n\
The launch: the grid is `ceildiv(max trip count, block side)` per axis, where the maximum of a \
bound that depends on outer band counters (triangular nests) is taken over the band (bounds \
must be linear in those counters); an `affine.if` guards the launch so that every loop runs at \
least once; the kernel computes each counter as `blockIdx * blockDim + threadIdx`, each \
induction variable as `lb + step * counter`, and runs the body under an `affine.if` keeping \
every induction variable below its upper bounds (left out when constant bounds make it always \
true). Kernels use the host's memrefs directly: run `gpu-host-data-placement` next for device \
buffers and copies.\n\n\
With `fragments=nests-and-straight-line`, runs of host statements between kernels that touch \
memrefs the function's kernels use, without regions and with results used only inside the run, \
become single-thread kernels (IHOP's second kind of fragment), so that their data can stay on \
the device.\n\n\
Declined with a remark (the band stays on the host): a loop carrying a memory dependence or a \
value (`iter_args`), ops with memory effects the analysis cannot see (calls, non-affine \
accesses), allocations inside the band, a lower bound that is a `max`, bounds not linear in \
outer band counters. Distinct function arguments are assumed not to alias (IHOP's and MLIR's \
assumption); views of one buffer in the function are known to alias.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "block-volume",
            kind: OptionKind::UInt,
            default: "256",
            help: "Threads per block (a power of two, at most 1024)",
        },
        PassOption {
            name: "cache-line-bytes",
            kind: OptionKind::UInt,
            default: "128",
            help: "Bytes per global-memory cache line in the cost model",
        },
        PassOption {
            name: "mapping",
            kind: OptionKind::String,
            default: "auto",
            help: "auto (cost model), identity, or p0,p1[,p2]: the band loops on x, y, z",
        },
        PassOption {
            name: "block-sizes",
            kind: OptionKind::List(&OptionKind::UInt),
            default: "",
            help: "Force the block shape bx[,by[,bz]] instead of searching",
        },
        PassOption {
            name: "max-depth",
            kind: OptionKind::UInt,
            default: "3",
            help: "The most loops of a band mapped to threads (1 to 3)",
        },
        PassOption {
            name: "fragments",
            kind: OptionKind::Enum(&["nests", "nests-and-straight-line"]),
            default: "nests",
            help: "Also run host statements between kernels that touch device data as single-thread kernels",
        },
        PassOption {
            name: "remarks",
            kind: OptionKind::Bool,
            default: "true",
            help: "Emit the remarks (mapping candidates and choices, loops left on the host)",
        },
    ],
    create,
};

/// How the permutation is chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mapping {
    /// By the cost model.
    Auto,
    /// Band loop `p` on axis `p`.
    Identity,
    /// `perm[a]` is the band loop on axis `a`.
    Fixed(Vec<usize>),
}

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let volume = opts.int("block-volume");
    if !(1..=1024).contains(&volume) || (volume as u64).count_ones() != 1 {
        return Err(format!(
            "block-volume: {volume} is not a power of two between 1 and 1024"
        ));
    }
    let line = opts.int("cache-line-bytes");
    if line < 1 {
        return Err("cache-line-bytes: must be at least 1".into());
    }
    let max_depth = opts.int("max-depth");
    if !(1..=3).contains(&max_depth) {
        return Err(format!("max-depth: {max_depth} is not between 1 and 3"));
    }
    let mapping = parse_mapping(opts.str("mapping"))?;
    let sizes: Vec<u64> = opts
        .list("block-sizes")
        .iter()
        .map(|v| match v {
            OptionValue::Int(i) => *i as u64,
            _ => 0,
        })
        .collect();
    if sizes.len() > 3 || sizes.contains(&0) {
        return Err("block-sizes: one to three positive sizes (x, y, z)".into());
    }
    let mut block = None;
    if !sizes.is_empty() {
        let mut b = [1u64; 3];
        b[..sizes.len()].copy_from_slice(&sizes);
        let (xy, z) = (search::MAX_BLOCK_XY, search::MAX_BLOCK_Z);
        if b[0] > xy || b[1] > xy || b[2] > z || b.iter().product::<u64>() > xy {
            return Err("block-sizes: at most 1024 threads per block, 1024 along x and y, 64 along z".into());
        }
        block = Some(b);
    }
    Ok(Box::new(GpuMapLoops {
        block_volume: volume as u64,
        cache_line_bytes: line as u64,
        mapping,
        block_sizes: block,
        max_depth: max_depth as usize,
        straight_line: opts.str("fragments") == "nests-and-straight-line",
        remarks: opts.bool("remarks"),
    }))
}

fn parse_mapping(text: &str) -> Result<Mapping, String> {
    match text.trim() {
        "auto" | "" => Ok(Mapping::Auto),
        "identity" => Ok(Mapping::Identity),
        list => {
            let perm = list
                .split(',')
                .map(|p| p.trim().parse::<usize>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| format!("mapping: '{list}' is not auto, identity or a list of loop numbers"))?;
            let mut seen = perm.clone();
            seen.sort_unstable();
            if perm.is_empty() || perm.len() > 3 || seen != (0..perm.len()).collect::<Vec<_>>() {
                return Err(format!("mapping: '{list}' is not a permutation of 0..{}", perm.len()));
            }
            Ok(Mapping::Fixed(perm))
        }
    }
}

/// The `gpu-map-loops` pass.
pub struct GpuMapLoops {
    /// Threads per block in the search.
    pub block_volume: u64,
    /// Line size of the cost model.
    pub cache_line_bytes: u64,
    /// How γ is chosen.
    pub mapping: Mapping,
    /// A forced block shape.
    pub block_sizes: Option<[u64; 3]>,
    /// The most loops mapped.
    pub max_depth: usize,
    /// Whether straight-line host statements become single-thread kernels.
    pub straight_line: bool,
    /// Whether remarks are emitted.
    pub remarks: bool,
}

/// A band chosen for mapping, with its bounds and mapping.
struct Plan {
    band: Band,
    bounds: BandBounds,
    choice: Candidate,
}

impl GpuMapLoops {
    /// The most loops one kernel maps: `max-depth`, or fewer when a fixed
    /// `mapping=` names fewer.
    fn depth_limit(&self) -> usize {
        match &self.mapping {
            Mapping::Fixed(p) => p.len().min(self.max_depth),
            _ => self.max_depth,
        }
    }

    /// The bands to map, outer first, with remarks on what is left alone.
    fn plan(
        &self,
        ctx: &Context,
        body: &Body,
        regions: &[lf_ir::RegionId],
        deps: &DependenceAnalysis,
        remarks: &mut Vec<(OpId, String)>,
    ) -> Vec<Plan> {
        let ir = (ctx, body);
        let mut plans = Vec::new();
        walk_regions(body, regions, WalkOrder::PreOrder, &mut |b, op| {
            if !std::ptr::eq(b, body) || GpuLaunchOp::isa(&ir, op) {
                return WalkControl::Skip;
            }
            let limit = self.depth_limit();
            let parallel = if let Some(p) = AffineParallelOp::cast(&ir, op) {
                Some(Band::of_affine_parallel(&ir, p, limit))
            } else {
                ScfParallelOp::cast(&ir, op).map(|p| Band::of_scf_parallel(&ir, p, limit))
            };
            if let Some(band) = parallel {
                return self.plan_parallel(&ir, op, band, limit, &mut plans, remarks);
            }
            let Some(root) = AffineForOp::cast(&ir, op) else {
                return WalkControl::Advance;
            };
            let nest = perfectly_nested_loops(&ir, root);
            let mut band = Vec::new();
            for (p, &f) in nest.iter().take(self.max_depth).enumerate() {
                if is_parallel_cached(&deps.accesses, &ir, f, Precision::Exact) {
                    band.push(f);
                    continue;
                }
                let why = why_sequential(ctx, body, f, deps);
                let text = if p == 0 {
                    format!("not mapped to the GPU: {why}; the loop stays on the host")
                } else {
                    format!("loop i{p} stays a loop in the kernel: {why}")
                };
                remarks.push((f.op(), text));
                break;
            }
            if band.is_empty() {
                return WalkControl::Advance;
            }
            if let Mapping::Fixed(p) = &self.mapping {
                band.truncate(p.len());
            }
            match self.plan_band(&ir, Band::of_for_ops(&ir, &band), remarks) {
                Ok(plan) => {
                    plans.push(plan);
                    WalkControl::Skip
                }
                Err(why) => {
                    remarks.push((root.op(), format!("not mapped to the GPU: {why}")));
                    WalkControl::Advance
                }
            }
        });
        plans
    }

    /// The perfect nests whose loops that carry no dependence should move
    /// outward before mapping ([`hoist`]), with their permutations and a
    /// remark each.
    fn hoists(
        &self,
        ctx: &Context,
        body: &Body,
        regions: &[lf_ir::RegionId],
        deps: &DependenceAnalysis,
        remarks: &mut Vec<(OpId, String)>,
    ) -> Vec<(Vec<AffineForOp>, Vec<usize>)> {
        let ir = (ctx, body);
        let mut out = Vec::new();
        let limit = self.depth_limit();
        walk_regions(body, regions, WalkOrder::PreOrder, &mut |b, op| {
            if !std::ptr::eq(b, body) || GpuLaunchOp::isa(&ir, op) {
                return WalkControl::Skip;
            }
            let Some(root) = AffineForOp::cast(&ir, op) else {
                return WalkControl::Advance;
            };
            let nest = perfectly_nested_loops(&ir, root);
            let prefix = nest
                .iter()
                .take(limit)
                .take_while(|&&f| is_parallel_cached(&deps.accesses, &ir, f, Precision::Exact))
                .count();
            match hoist::hoisting_permutation(&deps.accesses, ctx, body, &nest, prefix, limit) {
                Some(perm) => {
                    let order: Vec<String> = {
                        let mut inv = vec![0; nest.len()];
                        for (q, &p) in perm.iter().enumerate() {
                            inv[p] = q;
                        }
                        inv.iter().map(|q| format!("i{q}")).collect()
                    };
                    remarks.push((
                        root.op(),
                        format!(
                            "loops that carry no dependence move outward to be mapped: the nest runs as {}",
                            order.join(", ")
                        ),
                    ));
                    out.push((nest, perm));
                    WalkControl::Skip
                }
                None => WalkControl::Advance,
            }
        });
        out
    }

    /// Plans an `affine.parallel` or `scf.parallel` (`band`, or why it
    /// cannot be a band) as one kernel.
    fn plan_parallel(
        &self,
        ir: &(&Context, &Body),
        op: OpId,
        band: Result<Band, String>,
        limit: usize,
        plans: &mut Vec<Plan>,
        remarks: &mut Vec<(OpId, String)>,
    ) -> WalkControl {
        let planned = band.and_then(|band| {
            if band.loops.len() > limit {
                return Err(format!(
                    "it has {} dimensions, more than the {limit} a kernel maps (max-depth, mapping)",
                    band.loops.len()
                ));
            }
            self.plan_band(ir, band, remarks)
        });
        match planned {
            Ok(plan) => {
                plans.push(plan);
                WalkControl::Skip
            }
            Err(why) => {
                remarks.push((op, format!("not mapped to the GPU: {why}")));
                WalkControl::Advance
            }
        }
    }

    /// Bounds, cost search and choice for `band`.
    fn plan_band(&self, ir: &(&Context, &Body), band: Band, remarks: &mut Vec<(OpId, String)>) -> Result<Plan, String> {
        if let Some(op) = unmappable_op(ir.0, ir.1, band.inner) {
            let name = ir.0.op_name_str(ir.1.op_name(op));
            return Err(format!("'{name}'{} cannot run in a kernel", at(ir.0, ir.1, op)));
        }
        let bounds = BandBounds::of(&band.loops)?;
        let scope = affine_scope_region(ir.0, ir.1, band.root);
        if let Some(&v) = bounds
            .space
            .inputs
            .iter()
            .find(|&&v| !is_valid_dim(ir.0, ir.1, v, scope))
        {
            let what = match ir.1.defining_op(v) {
                Some(def) => format!(
                    "the result of '{}'{}",
                    ir.0.op_name_str(ir.1.op_name(def)),
                    at(ir.0, ir.1, def)
                ),
                None => "a block argument".to_string(),
            };
            return Err(format!(
                "its bounds use {what}, which is not a valid affine dimension (map loops before lower-affine)"
            ));
        }
        let launch_guard = bounds.launch_guard();
        if launch_guard.iter().any(|e| e.as_constant().is_some_and(|c| c < 0)) {
            return Err("the nest never runs".into());
        }
        let depth = band.loops.len();
        let accesses = accesses::band_accesses(ir, &band, &bounds.ivs, &bounds.space, self.cache_line_bytes);
        let trips: Vec<Option<u64>> = band.loops.iter().map(|l| l.trip_count).collect();
        let space = SearchSpace {
            gamma: match &self.mapping {
                Mapping::Auto => None,
                Mapping::Identity => Some((0..depth).collect()),
                Mapping::Fixed(p) => Some(p.iter().copied().filter(|&l| l < depth).collect()),
            },
            block: self.block_sizes.map(|b| {
                let mut shape = [1u64; 3];
                shape[..depth].copy_from_slice(&b[..depth]);
                shape
            }),
        };
        let (all, best) = search::search(&accesses, depth, self.block_volume, &trips, &space)
            .ok_or_else(|| "no block shape fits".to_string())?;
        let choice = all[best].clone();
        if self.remarks {
            remarks.push((band.root, describe(&all, best)));
        }
        Ok(Plan { band, bounds, choice })
    }
}

/// Why `f` is not parallel, for a remark.
pub(crate) fn why_sequential(ctx: &Context, body: &Body, f: AffineForOp, deps: &DependenceAnalysis) -> String {
    let ir = (ctx, body);
    if !f.inits(&ir).is_empty() {
        return format!(
            "the loop carries {} value(s) from one iteration to the next (iter_args)",
            f.inits(&ir).len()
        );
    }
    let name = |op: OpId| ctx.op_name_str(body.op_name(op)).to_string();
    match parallel_blocker(&deps.accesses, ctx, body, f.op(), Precision::Exact) {
        Some(ParallelBlocker::OpaqueEffects(op)) => format!(
            "'{}'{} touches memory in a way the dependence analysis cannot see",
            name(op),
            at(ctx, body, op)
        ),
        Some(ParallelBlocker::Dependence { src, dst, result }) => {
            let kind = dependence_kind(ctx, body, src, dst)
                .map(|k| k.name())
                .unwrap_or("memory");
            let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            let pair = format!(
                "'{}'{} to '{}'{}",
                name(src),
                at(ctx, body, src),
                name(dst),
                at(ctx, body, dst)
            );
            match result {
                DependenceResult::Failure { reason } => {
                    format!("{article} {kind} dependence from {pair} may be carried by the loop ({reason})")
                }
                _ => format!("{article} {kind} dependence from {pair} is carried by the loop"),
            }
        }
        Some(ParallelBlocker::NotAnalyzable) => "the loop yields a memref".into(),
        None => "the loop is not parallel".into(),
    }
}

/// The first op in `inner`'s body that cannot go into a kernel: an
/// allocation or deallocation (kernels do not allocate), or a launch.
fn unmappable_op(ctx: &Context, body: &Body, inner: OpId) -> Option<OpId> {
    let mut found = None;
    walk(body, inner, WalkOrder::PreOrder, &mut |b, op| {
        let ir = (ctx, b);
        let allocates = memory_effects(ctx, b, op)
            .is_some_and(|e| e.iter().any(|e| matches!(e.effect, Effect::Alloc | Effect::Free)));
        if allocates || GpuLaunchOp::isa(&ir, op) {
            found = Some(op);
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    found
}

/// The remark of a mapped band: the choice, then every candidate.
fn describe(all: &[Candidate], best: usize) -> String {
    let gamma = |c: &Candidate| {
        c.gamma
            .iter()
            .zip(["x", "y", "z"])
            .map(|(p, a)| format!("{a}=i{p}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let shape = |c: &Candidate| format!("{}x{}x{}", c.block[0], c.block[1], c.block[2]);
    let chosen = &all[best];
    let list: Vec<String> = all
        .iter()
        .map(|c| format!("{} {} {:.4}", gamma(c), shape(c), c.cost))
        .collect();
    format!(
        "mapped to a gpu.launch: {}, block {}, cost {:.4} per thread; candidates: {}",
        gamma(chosen),
        shape(chosen),
        chosen.cost,
        list.join(", ")
    )
}

impl Pass for GpuMapLoops {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let mut deps = am.get::<DependenceAnalysis>(op);
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let mut remarks = Vec::new();
        let hoists = self.hoists(ctx, op.body(), &regions, &deps, &mut remarks);
        if !hoists.is_empty() {
            let mut b = op.builder();
            for (nest, perm) in &hoists {
                permute_band(&mut b, nest, perm);
            }
            // The IR changed: a fresh dependence cache for the mapping.
            deps = std::sync::Arc::new(DependenceAnalysis::default());
        }
        let plans = self.plan(ctx, op.body(), &regions, &deps, &mut remarks);
        // Positions now: the mapped loops are erased below.
        let remarks: Vec<_> = remarks
            .into_iter()
            .map(|(at, message)| (op.body().op_loc(at).source_pos(ctx), message))
            .collect();
        let mut launches = Vec::new();
        {
            let mut b = op.builder();
            for plan in &plans {
                launches.push(launch::build_launch(&mut b, &plan.band, &plan.bounds, &plan.choice));
            }
        }
        let mut single = 0u64;
        if self.straight_line && !launches.is_empty() {
            let mut b = op.builder();
            single = straight_line::wrap_straight_line(&mut b, &regions, &launches);
        }
        if self.remarks {
            for (pos, message) in remarks {
                op.emit(Diagnostic::remark(pos, message));
            }
        }
        op.add_statistic("num-kernels", "Loop nests mapped to gpu.launch", plans.len() as u64);
        op.add_statistic(
            "num-single-thread",
            "Straight-line fragments run as single-thread kernels",
            single,
        );
        if plans.is_empty() && hoists.is_empty() {
            am.preserve_all();
        }
        Ok(())
    }
}
