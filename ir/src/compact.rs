//! Compacting a body after passes rewrote it.
//!
//! A body's arenas only grow: an erased op keeps its record, and an operand
//! list that grows moves to the end of the use arena, leaving its old slots
//! behind. After canonicalize on the benchmark's 1M-op program, 13% of the
//! op records and 15% of the uses were such leftovers, held until the
//! program ends. [`Body::compact_if_wasteful`] drops them: the live ops
//! keep their relative order (so everything that walks the arena, such as
//! [`Body::live_ops`], sees the same sequence) and get new, dense ids;
//! uses are renumbered the same way. Values, blocks and regions keep their
//! ids.
//!
//! Ids change, so nothing may hold an [`OpId`](crate::OpId) of the body (or a
//! use index) across a compaction: the pass manager compacts a body only
//! after the pass that changed it has finished, and drops its analyses.

use crate::body::Body;
use crate::entity::NONE;

/// Leftover fraction (1/`WASTE_DIVISOR` of an arena) from which
/// [`Body::compact_if_wasteful`] compacts.
const WASTE_DIVISOR: usize = 8;

impl Body {
    /// Compacts this body (see the module docs) when erased op records,
    /// abandoned uses or unused capacity make up at least an eighth of its
    /// op or use arena; returns whether it did. Nested bodies are not
    /// entered (they are compacted when a pass runs on them).
    pub fn compact_if_wasteful(&mut self) -> bool {
        // One walk: erasing an op sets its operand count to 0.
        let (erased, live_uses) = self.ops.iter().fold((0, 0), |(erased, uses), o| {
            (erased + o.is_erased() as usize, uses + o.num_operands as usize)
        });
        let spare_ops = self.ops.capacity() - self.ops.len() + erased;
        let spare_uses = self.uses.capacity() - live_uses;
        let wasteful = spare_ops * WASTE_DIVISOR >= self.ops.capacity().max(1)
            || spare_uses * WASTE_DIVISOR >= self.uses.capacity().max(1);
        if !wasteful || self.ops.len() < WASTE_DIVISOR {
            return false;
        }
        self.compact();
        true
    }

    /// Drops erased op records and unused use slots, renumbering ops and
    /// uses densely in their present order, and frees spare capacity.
    pub fn compact(&mut self) {
        let op_map = self.compact_ops();
        self.declared_ok.renumber(&op_map, self.ops.len());
        self.order.clear();
        self.compact_uses();
        for b in &mut self.blocks {
            b.first_op = remap(&op_map, b.first_op);
            b.last_op = remap(&op_map, b.last_op);
        }
        for r in &mut self.regions {
            r.parent = remap(&op_map, r.parent);
        }
        for v in &mut self.values {
            // Results of erased ops are owned by nothing, like a parser
            // placeholder; block arguments are owned by a block.
            if !v.is_block_arg() {
                v.owner = remap(&op_map, v.owner);
            }
        }
        for n in &mut self.nested {
            n.op = remap(&op_map, n.op);
        }
        self.ops.shrink_to_fit();
        self.uses.shrink_to_fit();
        self.values.shrink_to_fit();
        self.sized = true;
    }

    /// Moves the live op records down over the erased ones; returns the new
    /// id of each old op ([`NONE`] for an erased one). Links between ops are
    /// renumbered; uses are not yet.
    fn compact_ops(&mut self) -> Vec<u32> {
        let mut op_map = vec![NONE; self.ops.len()];
        let mut next = 0u32;
        for (old, d) in self.ops.iter().enumerate() {
            if !d.is_erased() {
                op_map[old] = next;
                next += 1;
            }
        }
        let mut kept = 0usize;
        for old in 0..self.ops.len() {
            if op_map[old] == NONE {
                continue;
            }
            let mut d = self.ops[old].clone();
            d.prev = remap(&op_map, d.prev);
            d.next = remap(&op_map, d.next);
            self.ops[kept] = d;
            kept += 1;
        }
        self.ops.truncate(kept);
        op_map
    }

    /// Keeps only the operand slots of live ops, in op order, renumbering
    /// the use lists, and gives each use its owner's new id.
    fn compact_uses(&mut self) {
        let mut use_map = vec![NONE; self.uses.len()];
        let mut uses = Vec::with_capacity(self.ops.iter().map(|d| d.num_operands as usize).sum());
        for (new_id, d) in self.ops.iter_mut().enumerate() {
            let start = d.operands_start as usize;
            let new_start = uses.len() as u32;
            for (k, old) in (start..start + d.num_operands as usize).enumerate() {
                use_map[old] = new_start + k as u32;
                let mut u = self.uses[old].clone();
                u.owner = new_id as u32;
                uses.push(u);
            }
            d.operands_start = new_start;
        }
        for u in &mut uses {
            u.prev = remap(&use_map, u.prev);
            u.next = remap(&use_map, u.next);
        }
        for v in &mut self.values {
            v.first_use = remap(&use_map, v.first_use);
        }
        debug_assert!(
            self.uses
                .iter()
                .zip(&use_map)
                .all(|(u, m)| u.value == NONE || *m != NONE),
            "a linked use outside every live op's operands"
        );
        self.uses = uses;
    }
}

/// The new id of `old` under `map` ([`NONE`] stays [`NONE`]).
#[inline]
fn remap(map: &[u32], old: u32) -> u32 {
    if old == NONE {
        NONE
    } else {
        map[old as usize]
    }
}
