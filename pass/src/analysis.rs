//! Analyses and the [`AnalysisManager`]: computed on demand, cached per
//! anchored op, dropped after a pass unless the pass preserves them.
//!
//! An analysis is a type implementing [`Analysis`]; it is computed from a
//! [`PassTarget`] (the op's body and regions) and must not keep borrows of
//! the IR (ids only). Two analyses come with lf: [`DominanceInfo`] and
//! [`LoopNestInfo`].

use crate::pass::PassTarget;

use lf_ir::{Body, OpId, RegionId};
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

pub use lf_ir::dominance::DominanceInfo;

impl Analysis for DominanceInfo {
    const NAME: &'static str = "dominance";
    fn compute(op: &PassTarget<'_>) -> Self {
        DominanceInfo::compute_for(op.body(), op.regions())
    }
}

/// The loops of an anchored op, as a forest (outer loops are roots): the
/// ops whose declaration has the loop-like interface
/// ([`lf_ir::interfaces::LoopLike`]).
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
                    if lf_ir::interfaces::loop_like(ctx, body, op).is_some() {
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
