//! Order numbers of the ops of a block, for [`Body::is_before_in_block`]
//! in amortized O(1) (as Cranelift's `Layout` and MLIR's
//! `Operation::isBeforeInBlock` do it).
//!
//! A block is numbered on the first query after it changed: its ops get
//! numbers [`STRIDE`] apart, in order, and the block is marked valid. An
//! op inserted into a valid block takes a number between its neighbours'
//! when there is room (so inserting before or after an op keeps the block
//! valid most of the time); otherwise the block is marked invalid and
//! renumbered at its next query. Removing an op keeps the order of the
//! others. Numbering is lazy: a body nobody queries pays one branch per
//! insertion.
//!
//! Queries go through `&Body` (analyses read bodies shared between
//! threads), so the numbers sit behind a mutex, uncontended in practice;
//! changes go through `&mut Body` and take no lock.

use crate::body::Body;
use crate::{BlockId, OpId};
use parking_lot::Mutex;

/// The distance between neighbours' numbers after a block is renumbered.
const STRIDE: u32 = 16;

#[derive(Default, Debug)]
struct OrderData {
    /// The number of each op (by id) in a valid block; stale elsewhere.
    number: Vec<u32>,
    /// Whether each block (by id) is numbered and unchanged since.
    valid: Vec<bool>,
}

/// The order numbers of a body's ops (see the module docs).
#[derive(Default, Debug)]
pub(crate) struct OpOrder(Mutex<OrderData>);

impl Clone for OpOrder {
    fn clone(&self) -> Self {
        // A copy is renumbered on its first query.
        OpOrder::default()
    }
}

impl OpOrder {
    /// Forgets every number (ids were renumbered by a compaction).
    pub(crate) fn clear(&mut self) {
        *self.0.get_mut() = OrderData::default();
    }

    /// Notes that `op` was inserted into `block` between `prev` and `next`.
    #[inline]
    pub(crate) fn inserted(&mut self, block: BlockId, op: OpId, prev: Option<OpId>, next: Option<OpId>) {
        let d = self.0.get_mut();
        if !d.valid.get(block.index()).copied().unwrap_or(false) {
            return;
        }
        let lo = prev.map_or(0, |p| d.number[p.index()]);
        let hi = match next {
            Some(n) => d.number[n.index()],
            None => lo.saturating_add(2 * STRIDE),
        };
        if hi > lo + 1 {
            if d.number.len() <= op.index() {
                d.number.resize(op.index() + 1, 0);
            }
            d.number[op.index()] = lo + (hi - lo) / 2;
        } else {
            d.valid[block.index()] = false;
        }
    }
}

impl Body {
    /// Whether `a` comes before `b` in their block (both must be in the
    /// same block; `false` when `a == b`). Amortized O(1): see
    /// [`crate::order`].
    pub fn is_before_in_block(&self, a: OpId, b: OpId) -> bool {
        let block = self.op_block(a).expect("is_before_in_block: op is not in a block");
        debug_assert_eq!(
            self.op_block(b),
            Some(block),
            "is_before_in_block: ops in different blocks"
        );
        let mut d = self.order.0.lock();
        if !d.valid.get(block.index()).copied().unwrap_or(false) {
            self.renumber(block, &mut d);
        }
        d.number[a.index()] < d.number[b.index()]
    }

    fn renumber(&self, block: BlockId, d: &mut OrderData) {
        if d.number.len() < self.ops.len() {
            d.number.resize(self.ops.len(), 0);
        }
        if d.valid.len() <= block.index() {
            d.valid.resize(block.index() + 1, false);
        }
        let mut n = 0u32;
        for op in self.block_ops(block) {
            n += STRIDE;
            d.number[op.index()] = n;
        }
        d.valid[block.index()] = true;
    }
}
