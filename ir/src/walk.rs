//! Walking nested operations, across nested bodies.

use crate::{Body, OpId};

/// The order in which [`walk`] visits an op relative to the ops nested in it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum WalkOrder {
    /// Parents before the ops in their regions.
    PreOrder,
    /// The ops in regions before their parent.
    PostOrder,
}

/// What the walk callback asks for next.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum WalkControl {
    /// Go on.
    Advance,
    /// Do not enter this op's regions (pre-order only).
    Skip,
    /// Stop the whole walk.
    Interrupt,
}

/// Visits `op` and every op nested in it. The callback gets the body that
/// stores each op (nested bodies of isolated ops included).
pub fn walk(body: &Body, op: OpId, order: WalkOrder, f: &mut dyn FnMut(&Body, OpId) -> WalkControl) -> WalkControl {
    if order == WalkOrder::PreOrder {
        match f(body, op) {
            WalkControl::Advance => {}
            WalkControl::Skip => return WalkControl::Advance,
            WalkControl::Interrupt => return WalkControl::Interrupt,
        }
    }
    let rb = body.regions_body(op);
    for &r in body.regions(op) {
        for b in rb.region_blocks(r) {
            let mut cur = rb.first_op(b);
            while let Some(o) = cur {
                cur = rb.next_op(o);
                if walk(rb, o, order, f) == WalkControl::Interrupt {
                    return WalkControl::Interrupt;
                }
            }
        }
    }
    if order == WalkOrder::PostOrder {
        return f(body, op);
    }
    WalkControl::Advance
}

/// Calls `f` on `body` and every nested body, mutably (parents first).
pub fn for_each_body_mut(body: &mut Body, f: &mut dyn FnMut(&mut Body)) {
    f(body);
    for (_, nested) in body.nested_bodies_mut() {
        for_each_body_mut(nested, f);
    }
}

/// Counts the ops nested in `op` (itself included).
pub fn count_ops(body: &Body, op: OpId) -> usize {
    let mut n = 0;
    walk(body, op, WalkOrder::PreOrder, &mut |_, _| {
        n += 1;
        WalkControl::Advance
    });
    n
}

/// Visits every op in `regions` of `body` (the regions of an op that
/// `body` holds, or a nested body's root regions, as a pass gets them) and
/// every op nested in those, in `order`, blocks and ops in program order.
/// Like [`walk`], the callback gets the body that stores each op (nested
/// bodies of isolated ops included); [`WalkControl::Interrupt`] stops the
/// walk and is returned.
pub fn walk_regions(
    body: &Body,
    regions: &[crate::RegionId],
    order: WalkOrder,
    f: &mut dyn FnMut(&Body, OpId) -> WalkControl,
) -> WalkControl {
    for &r in regions {
        for b in body.region_blocks(r) {
            let mut cur = body.first_op(b);
            while let Some(o) = cur {
                cur = body.next_op(o);
                if walk(body, o, order, f) == WalkControl::Interrupt {
                    return WalkControl::Interrupt;
                }
            }
        }
    }
    WalkControl::Advance
}
