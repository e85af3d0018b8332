//! Analyses and the [`AnalysisManager`]: computed on demand, cached per
//! anchored op, dropped after a pass unless the pass preserves them.
//!
//! An analysis is a type implementing [`Analysis`]; it is computed from a
//! [`PassTarget`] (the op's body and regions) and must not keep borrows of
//! the IR (ids only). Two analyses come with lf: [`DominanceInfo`] and
//! [`LoopNestInfo`].

use crate::pass::PassTarget;
use lf_ir::dominance::RegionDominance;
use lf_ir::{BlockId, Body, OpId, RegionId};
use rustc_hash::FxHashMap;
use std::any::{Any, TypeId};
use std::sync::Arc;

/// An analysis of one anchored op.
pub trait Analysis: Send + Sync + 'static {
    /// A short name (for debugging output).
    const NAME: &'static str;
    /// Computes the analysis of the op.
    fn compute(op: &PassTarget<'_>) -> Self
    where
        Self: Sized;
}

type Cached = Arc<dyn Any + Send + Sync>;

/// The cache of analyses of one anchored op. Passes get it in
/// [`Pass::run`](crate::Pass::run); see the module docs.
#[derive(Default)]
pub struct AnalysisManager {
    cache: FxHashMap<TypeId, Cached>,
    preserved_all: bool,
    preserved: Vec<TypeId>,
    computed: u64,
}

impl AnalysisManager {
    /// An empty cache.
    pub fn new() -> AnalysisManager {
        AnalysisManager::default()
    }

    /// The analysis `A` of `op`: cached, or computed now and cached.
    pub fn get<A: Analysis>(&mut self, op: &PassTarget<'_>) -> Arc<A> {
        if let Some(a) = self.cached::<A>() {
            return a;
        }
        let a = Arc::new(A::compute(op));
        self.computed += 1;
        self.cache.insert(TypeId::of::<A>(), a.clone() as Cached);
        a
    }

    /// The analysis `A` if it is cached (never computes).
    pub fn cached<A: Analysis>(&self) -> Option<Arc<A>> {
        self.cache
            .get(&TypeId::of::<A>())
            .and_then(|a| a.clone().downcast::<A>().ok())
    }

    /// Declares that the running pass keeps analysis `A` valid.
    pub fn preserve<A: Analysis>(&mut self) {
        self.preserved.push(TypeId::of::<A>());
    }

    /// Declares that the running pass keeps every analysis valid (it did not
    /// change the IR).
    pub fn preserve_all(&mut self) {
        self.preserved_all = true;
    }

    /// Whether the running pass called [`AnalysisManager::preserve_all`].
    pub fn all_preserved(&self) -> bool {
        self.preserved_all
    }

    /// How many analyses this cache computed so far (for tests and statistics).
    pub fn num_computed(&self) -> u64 {
        self.computed
    }

    /// Number of cached analyses.
    pub fn num_cached(&self) -> usize {
        self.cache.len()
    }

    /// Forgets the preservation declarations (before a pass runs).
    pub fn begin_pass(&mut self) {
        self.preserved_all = false;
        self.preserved.clear();
    }

    /// Drops the analyses the pass did not preserve (after a pass ran);
    /// returns whether everything was preserved.
    pub fn end_pass(&mut self) -> bool {
        if self.preserved_all {
            return true;
        }
        let keep = std::mem::take(&mut self.preserved);
        self.cache.retain(|k, _| keep.contains(k));
        false
    }

    /// Drops everything.
    pub fn clear(&mut self) {
        self.cache.clear();
    }
}

/// Calls `f` on each op of the regions `roots` of `body`, and of the regions
/// of those ops that are not isolated (pre-order). Nested bodies are not entered.
pub fn for_each_op_in(body: &Body, roots: &[RegionId], f: &mut dyn FnMut(OpId, usize)) {
    fn region(body: &Body, r: RegionId, depth: usize, f: &mut dyn FnMut(OpId, usize)) {
        for b in body.region_blocks(r) {
            for op in body.block_ops(b) {
                f(op, depth);
                if body.nested_body(op).is_none() {
                    for &sub in body.regions(op) {
                        region(body, sub, depth + 1, f);
                    }
                }
            }
        }
    }
    for &r in roots {
        region(body, r, 0, f);
    }
}

/// Dominance of the blocks of every region of an anchored op (its regions
/// and those of the non-isolated ops nested in them).
pub struct DominanceInfo {
    regions: FxHashMap<RegionId, RegionDominance>,
}

impl Analysis for DominanceInfo {
    const NAME: &'static str = "dominance";
    fn compute(op: &PassTarget<'_>) -> Self {
        DominanceInfo::compute_for(op.body(), op.regions())
    }
}

impl DominanceInfo {
    /// Dominance of the regions `roots` of `body` and the regions nested in them.
    pub fn compute_for(body: &Body, roots: &[RegionId]) -> DominanceInfo {
        let mut regions = FxHashMap::default();
        for &r in roots {
            regions.insert(r, RegionDominance::compute(body, r));
        }
        for_each_op_in(body, roots, &mut |op, _| {
            if body.nested_body(op).is_none() {
                for &r in body.regions(op) {
                    if body.region_blocks(r).nth(1).is_some() {
                        regions.insert(r, RegionDominance::compute(body, r));
                    }
                }
            }
        });
        DominanceInfo { regions }
    }

    /// The dominance of one region (`None` for single-block regions, where
    /// it is trivial, and regions of other bodies).
    pub fn region(&self, r: RegionId) -> Option<&RegionDominance> {
        self.regions.get(&r)
    }

    /// The immediate dominator of a block in its region.
    pub fn idom(&self, body: &Body, b: BlockId) -> Option<BlockId> {
        let r = body.block_region(b)?;
        self.regions.get(&r)?.idom(b)
    }

    /// Whether block `a` dominates block `b` (reflexive); `b` may be in a
    /// region nested below `a`'s.
    pub fn block_dominates(&self, body: &Body, a: BlockId, b: BlockId) -> bool {
        let Some(ra) = body.block_region(a) else { return false };
        let mut b = b;
        loop {
            let Some(rb) = body.block_region(b) else { return false };
            if rb == ra {
                return match self.regions.get(&ra) {
                    Some(d) => d.dominates(a, b),
                    None => a == b,
                };
            }
            // Climb to the block holding the op that owns b's region.
            match body.region_parent(rb).and_then(|p| body.op_block(p)) {
                Some(pb) => b = pb,
                None => return false,
            }
        }
    }

    /// Whether the block is reachable from its region's entry.
    pub fn is_reachable(&self, body: &Body, b: BlockId) -> bool {
        match body.block_region(b).and_then(|r| self.regions.get(&r)) {
            Some(d) => d.is_reachable(b),
            None => true,
        }
    }
}

/// The loops of an anchored op, as a forest (outer loops are roots).
pub struct LoopNestInfo {
    loops: Vec<LoopInfo>,
    roots: Vec<usize>,
    by_op: FxHashMap<OpId, usize>,
}

/// One loop of a [`LoopNestInfo`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInfo {
    /// The loop op.
    pub op: OpId,
    /// The enclosing loop (index into [`LoopNestInfo::loops`]).
    pub parent: Option<usize>,
    /// Loops directly inside this one.
    pub children: Vec<usize>,
    /// Nesting depth (outermost: 1).
    pub depth: u32,
}

/// The ops the loop-nest analysis counts as loops.
pub const LOOP_OPS: &[&str] = &[
    "scf.for",
    "scf.while",
    "scf.parallel",
    "scf.forall",
    "affine.for",
    "affine.parallel",
];

impl Analysis for LoopNestInfo {
    const NAME: &'static str = "loop-nest";
    fn compute(op: &PassTarget<'_>) -> Self {
        LoopNestInfo::compute_for(op.ctx(), op.body(), op.regions())
    }
}

impl LoopNestInfo {
    /// The loops in the regions `roots` of `body`.
    pub fn compute_for(ctx: &lf_ir::Context, body: &Body, roots: &[RegionId]) -> LoopNestInfo {
        let mut info = LoopNestInfo {
            loops: Vec::new(),
            roots: Vec::new(),
            by_op: FxHashMap::default(),
        };
        fn visit(ctx: &lf_ir::Context, body: &Body, r: RegionId, parent: Option<usize>, info: &mut LoopNestInfo) {
            for b in body.region_blocks(r) {
                for op in body.block_ops(b) {
                    if body.nested_body(op).is_some() {
                        continue;
                    }
                    let mut inner = parent;
                    if LOOP_OPS.contains(&ctx.op_name_str(body.op_name(op))) {
                        let idx = info.loops.len();
                        let depth = parent.map_or(1, |p| info.loops[p].depth + 1);
                        info.loops.push(LoopInfo {
                            op,
                            parent,
                            children: Vec::new(),
                            depth,
                        });
                        info.by_op.insert(op, idx);
                        match parent {
                            Some(p) => info.loops[p].children.push(idx),
                            None => info.roots.push(idx),
                        }
                        inner = Some(idx);
                    }
                    for &sub in body.regions(op) {
                        visit(ctx, body, sub, inner, info);
                    }
                }
            }
        }
        for &r in roots {
            visit(ctx, body, r, None, &mut info);
        }
        info
    }

    /// All loops, outer before inner, in program order.
    pub fn loops(&self) -> &[LoopInfo] {
        &self.loops
    }

    /// The outermost loops.
    pub fn roots(&self) -> &[usize] {
        &self.roots
    }

    /// The loop record of a loop op.
    pub fn loop_of(&self, op: OpId) -> Option<&LoopInfo> {
        self.by_op.get(&op).map(|&i| &self.loops[i])
    }

    /// The deepest nesting (0 without loops).
    pub fn max_depth(&self) -> u32 {
        self.loops.iter().map(|l| l.depth).max().unwrap_or(0)
    }

    /// Loops with no loop inside (innermost), in program order.
    pub fn innermost(&self) -> impl Iterator<Item = &LoopInfo> {
        self.loops.iter().filter(|l| l.children.is_empty())
    }
}
