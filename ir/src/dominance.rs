//! Dominance: of blocks within a region (Cooper, Harvey and Kennedy's
//! iterative algorithm on the CFG given by successors, [`RegionDominance`]),
//! and of ops and values across nested regions ([`DominanceInfo`],
//! [`properly_dominates`]), with MLIR's rules: a value defined in a block
//! dominates the ops after it in that block and the blocks its block
//! dominates, including ops nested in their regions.

use crate::{BlockId, Body, OpId, RegionId, Value};
use rustc_hash::FxHashMap;

/// Immediate dominators of the blocks of one region.
#[derive(Debug, Clone)]
pub struct RegionDominance {
    /// Blocks in reverse post-order from the entry; unreachable blocks last.
    order: Vec<BlockId>,
    /// Position of each block in `order`.
    index: FxHashMap<BlockId, usize>,
    /// Immediate dominator (as an index into `order`); `usize::MAX` if unreachable.
    idom: Vec<usize>,
}

impl RegionDominance {
    /// Computes dominance for a region of `body`.
    pub fn compute(body: &Body, region: RegionId) -> RegionDominance {
        let blocks: Vec<BlockId> = body.region_blocks(region).collect();
        let mut succs: FxHashMap<BlockId, Vec<BlockId>> = FxHashMap::default();
        for &b in &blocks {
            let s = body.last_op(b).map(|t| body.successors(t).to_vec()).unwrap_or_default();
            succs.insert(b, s);
        }
        // Iterative DFS for post-order.
        let mut post = Vec::new();
        let mut seen: FxHashMap<BlockId, bool> = FxHashMap::default();
        if let Some(&entry) = blocks.first() {
            let mut stack = vec![(entry, 0usize)];
            seen.insert(entry, true);
            while let Some((b, i)) = stack.pop() {
                let s = &succs[&b];
                if i < s.len() {
                    stack.push((b, i + 1));
                    let n = s[i];
                    if succs.contains_key(&n) && !seen.contains_key(&n) {
                        seen.insert(n, true);
                        stack.push((n, 0));
                    }
                } else {
                    post.push(b);
                }
            }
        }
        let mut order: Vec<BlockId> = post.iter().rev().copied().collect();
        let reachable = order.len();
        for &b in &blocks {
            if !seen.contains_key(&b) {
                order.push(b);
            }
        }
        let index: FxHashMap<BlockId, usize> = order.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
        for &b in &order[..reachable] {
            for s in &succs[&b] {
                if let Some(&si) = index.get(s) {
                    preds[si].push(index[&b]);
                }
            }
        }
        let mut idom = vec![usize::MAX; order.len()];
        if reachable > 0 {
            idom[0] = 0;
            let mut changed = true;
            while changed {
                changed = false;
                for i in 1..reachable {
                    let mut new = usize::MAX;
                    for &p in &preds[i] {
                        if idom[p] == usize::MAX {
                            continue;
                        }
                        new = if new == usize::MAX { p } else { intersect(&idom, p, new) };
                    }
                    if new != idom[i] {
                        idom[i] = new;
                        changed = true;
                    }
                }
            }
        }
        RegionDominance { order, index, idom }
    }

    /// Whether block `a` dominates block `b` (reflexive). Unreachable blocks
    /// are dominated by everything, as in MLIR.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        if a == b {
            return true;
        }
        let (Some(&ai), Some(&bi)) = (self.index.get(&a), self.index.get(&b)) else {
            return false;
        };
        if self.idom[bi] == usize::MAX {
            return true;
        }
        let mut cur = bi;
        loop {
            if cur == ai {
                return true;
            }
            let next = self.idom[cur];
            if next == cur || next == usize::MAX {
                return false;
            }
            cur = next;
        }
    }

    /// The immediate dominator of a block; `None` for the entry block and
    /// for unreachable blocks.
    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        let &i = self.index.get(&b)?;
        let d = self.idom[i];
        (d != usize::MAX && d != i).then(|| self.order[d])
    }

    /// Whether a block is reachable from the entry.
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.index.get(&b).is_some_and(|&i| self.idom[i] != usize::MAX)
    }

    /// Blocks in reverse post-order (reachable ones first).
    pub fn blocks(&self) -> &[BlockId] {
        &self.order
    }
}

fn intersect(idom: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while a > b {
            a = idom[a];
        }
        while b > a {
            b = idom[b];
        }
    }
    a
}

/// Dominance of the blocks of every multi-block region under some regions of
/// a body (single-block regions need none): computed once, then queried.
#[derive(Debug, Clone, Default)]
pub struct DominanceInfo {
    regions: FxHashMap<RegionId, RegionDominance>,
}

impl DominanceInfo {
    /// Dominance of the regions `roots` of `body` and of the regions of the
    /// non-isolated ops nested in them.
    pub fn compute_for(body: &Body, roots: &[RegionId]) -> DominanceInfo {
        let mut regions = FxHashMap::default();
        let mut stack: Vec<RegionId> = roots.to_vec();
        while let Some(r) = stack.pop() {
            if body.region_blocks(r).nth(1).is_some() {
                regions.insert(r, RegionDominance::compute(body, r));
            }
            for b in body.region_blocks(r) {
                for op in body.block_ops(b) {
                    if body.nested_body(op).is_none() {
                        stack.extend_from_slice(body.regions(op));
                    }
                }
            }
        }
        DominanceInfo { regions }
    }

    /// The dominance of one region (`None` for single-block regions, where
    /// it is trivial, and regions not computed).
    pub fn region(&self, r: RegionId) -> Option<&RegionDominance> {
        self.regions.get(&r)
    }

    /// The immediate dominator of a block in its region.
    pub fn idom(&self, body: &Body, b: BlockId) -> Option<BlockId> {
        let r = body.block_region(b)?;
        self.regions.get(&r)?.idom(b)
    }

    /// Whether the block is reachable from its region's entry.
    pub fn is_reachable(&self, body: &Body, b: BlockId) -> bool {
        match body.block_region(b).and_then(|r| self.regions.get(&r)) {
            Some(d) => d.is_reachable(b),
            None => true,
        }
    }

    /// Whether block `a` dominates block `b` (reflexive); `b` may be in a
    /// region nested below `a`'s.
    pub fn block_dominates(&self, body: &Body, a: BlockId, b: BlockId) -> bool {
        block_dominates_with(body, a, b, &mut |r, a, b| {
            self.regions.get(&r).is_some_and(|d| d.dominates(a, b))
        })
    }

    /// Whether `v` properly dominates `op`: `op` may use `v` (see
    /// [`properly_dominates`]).
    pub fn properly_dominates(&self, body: &Body, v: Value, op: OpId) -> bool {
        properly_dominates_with(body, v, op, &mut |r, a, b| {
            self.regions.get(&r).is_some_and(|d| d.dominates(a, b))
        })
    }

    /// Whether op `a` properly dominates op `b`: `a` comes before `b` (or
    /// before the op holding `b` in its regions) in a block that dominates.
    pub fn op_properly_dominates(&self, body: &Body, a: OpId, b: OpId) -> bool {
        op_properly_dominates_with(body, a, b, &mut |r, a, b| {
            self.regions.get(&r).is_some_and(|d| d.dominates(a, b))
        })
    }
}

/// Whether `v` properly dominates `op` in `body` (MLIR's
/// `DominanceInfo::properlyDominates(Value, Operation*)`): `v` is defined
/// in a block that dominates the block of `op` (or of the op holding `op`
/// in its regions), and, in the same block, before it; a block argument
/// dominates its whole block. A value defined inside `op` does not
/// dominate it. Dominance of multi-block regions is computed on the way;
/// keep a [`DominanceInfo`] for many queries.
pub fn properly_dominates(body: &Body, v: Value, op: OpId) -> bool {
    properly_dominates_with(body, v, op, &mut |r, a, b| {
        RegionDominance::compute(body, r).dominates(a, b)
    })
}

/// The ancestor of `op` (itself or an op holding it in its regions) that
/// is in a block of `region`.
fn ancestor_in_region(body: &Body, region: RegionId, mut op: OpId) -> Option<OpId> {
    loop {
        let b = body.op_block(op)?;
        if body.block_region(b) == Some(region) {
            return Some(op);
        }
        op = body.parent_op(op)?;
    }
}

/// Answers whether block `a` dominates block `b` of a multi-block region.
type BlockDom<'a> = dyn FnMut(RegionId, BlockId, BlockId) -> bool + 'a;

fn properly_dominates_with(body: &Body, v: Value, op: OpId, dom: &mut BlockDom<'_>) -> bool {
    match body.value_def(v) {
        crate::ValueDef::OpResult { op: def, .. } => op_properly_dominates_with(body, def, op, dom),
        crate::ValueDef::BlockArg { block, .. } => {
            let Some(ob) = body.op_block(op) else { return false };
            block_dominates_with(body, block, ob, dom)
        }
    }
}

fn op_properly_dominates_with(body: &Body, a: OpId, b: OpId, dom: &mut BlockDom<'_>) -> bool {
    let Some(ablock) = body.op_block(a) else { return false };
    let Some(region) = body.block_region(ablock) else {
        return false;
    };
    let Some(anc) = ancestor_in_region(body, region, b) else {
        return false;
    };
    if anc == a {
        // `b` is `a` or nested in it.
        return false;
    }
    let bblock = body.op_block(anc).expect("ancestor is in a block");
    if bblock == ablock {
        return body.is_before_in_block(a, anc);
    }
    dom(region, ablock, bblock)
}

fn block_dominates_with(body: &Body, a: BlockId, b: BlockId, dom: &mut BlockDom<'_>) -> bool {
    let Some(ra) = body.block_region(a) else { return false };
    let mut b = b;
    loop {
        let Some(rb) = body.block_region(b) else { return false };
        if rb == ra {
            if a == b {
                return true;
            }
            return dom(ra, a, b);
        }
        // Climb to the block holding the op that owns b's region.
        match body.region_parent(rb).and_then(|p| body.op_block(p)) {
            Some(pb) => b = pb,
            None => return false,
        }
    }
}
