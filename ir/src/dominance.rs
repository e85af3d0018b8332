//! Block dominance within regions (Cooper, Harvey and Kennedy's iterative
//! algorithm on the CFG given by successors).

use crate::{BlockId, Body, RegionId};
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
