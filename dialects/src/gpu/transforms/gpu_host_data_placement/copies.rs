//! Copies: IHOP's mixed scheme, then the sinking optimizer (DIGEST §003.4).
//!
//! **Initial copies.** A host-to-device `gpu.memcpy` right after every host
//! statement that writes a shared buffer (the innermost op: an
//! `affine.store` in a host loop, a call, a launch left on the host), and a
//! device-to-host one right after every placed launch that writes its device
//! buffer; arguments and globals also get one at the function's start (made
//! with their device buffer, [`super::alloc`]).
//!
//! **Sinking.** Each copy `C` of `x` from side 1 to side 2, in turn:
//! - while an op `S` follows `C` in its block: if `S` (or an op nested in
//!   it) has an occurrence of `x` on side 2 (a read, a write, an
//!   allocation or a deallocation), or deallocates `x` on side 1, `C`
//!   stops; otherwise `C` moves after `S`;
//! - at the end of a block (only its terminator follows) of a parent `P`:
//!   a loop (`affine.for`, `scf.for`, `scf.while`, `affine.parallel`,
//!   `scf.parallel`) is left when it has no occurrence of `x` on side 2
//!   anywhere (through its back edge everything in it is reachable); an
//!   `scf.if` or `affine.if` is left when its other branches have no write
//!   of `x` on side 2 (nothing in them is reachable from `C`, but `C` then
//!   runs on their paths too, and must not overwrite side 2's newer data
//!   there: a stricter rule than the seed's, which is unsound there);
//!   `C` stops at the function body's end, at a launch, at any other op,
//!   and where `x` (either side) is defined inside `P`, its scope.
//!
//! Copies identical to `C` (same direction, same buffers) are no
//! occurrence for it: `C` moves past them, so that the two copies after a
//! pair of launches in a loop leave it together; when all have moved,
//! identical copies next to each other are merged into one, and a copy
//! whose destination is freed later in its block before any occurrence of
//! it (a host-to-device copy before the `gpu.dealloc`, a device-to-host
//! one before the `memref.dealloc`) is dead and removed.

use super::alloc::Device;
use crate::affine::{AffineForOp, AffineIfOp, AffineParallelOp};
use crate::gpu::analysis::buffers::{access_except, is_terminator, key, shallow_access, Access, Key};
use crate::gpu::{GpuDeallocOp, GpuLaunchOp, GpuMemcpyOp};
use crate::memref::MemrefDeallocOp;
use crate::scf::{ScfForOp, ScfIfOp, ScfParallelOp, ScfWhileOp};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, RegionId, Value};

/// A copy placement made, and where the scheme put it first.
#[derive(Clone, Debug)]
pub struct Copy {
    /// The `gpu.memcpy`.
    pub op: OpId,
    /// The op it was first inserted after.
    pub anchor: OpId,
    /// Host to device (otherwise device to host).
    pub h2d: bool,
    /// Index of the buffer in the device list.
    pub dev: usize,
}

/// Inserts the mixed scheme's copies in the function whose regions are
/// `regions`; `placed` are the placed launches.
pub fn insert_initial(
    b: &mut Builder<'_>,
    regions: &[RegionId],
    devices: &[Device],
    keys: &[(Key, Key)],
    placed: &[OpId],
) -> Vec<Copy> {
    let ctx = b.ctx();
    let created: Vec<OpId> = devices.iter().flat_map(|d| d.created.iter().copied()).collect();
    let mut anchors: Vec<(OpId, bool, usize)> = Vec::new();
    {
        let body = b.body();
        let ir = (ctx, body);
        walk_regions(body, regions, WalkOrder::PreOrder, &mut |bb, op| {
            if !std::ptr::eq(bb, body) || created.contains(&op) {
                return WalkControl::Skip;
            }
            if GpuLaunchOp::isa(&ir, op) {
                for (i, (hk, dk)) in keys.iter().enumerate() {
                    if placed.contains(&op) && full_access(ctx, body, op, dk, &[]).write {
                        anchors.push((op, false, i));
                    }
                    if full_access(ctx, body, op, hk, &[]).write {
                        anchors.push((op, true, i));
                    }
                }
                return WalkControl::Skip;
            }
            if is_terminator(ctx, body, op) {
                return WalkControl::Advance;
            }
            for (i, (hk, dk)) in keys.iter().enumerate() {
                if shallow_access(ctx, body, op, hk).write {
                    anchors.push((op, true, i));
                }
                if shallow_access(ctx, body, op, dk).write {
                    anchors.push((op, false, i));
                }
            }
            WalkControl::Advance
        });
    }
    let mut out: Vec<Copy> = devices
        .iter()
        .enumerate()
        .filter_map(|(i, d)| {
            d.entry_copy.map(|c| Copy {
                op: c,
                anchor: d.alloc,
                h2d: true,
                dev: i,
            })
        })
        .collect();
    for (anchor, h2d, i) in anchors {
        let d = &devices[i];
        b.set_insertion_point_after(anchor);
        b.set_loc_of(anchor);
        let (dst, src) = if h2d { (d.buf, d.host) } else { (d.host, d.buf) };
        let c = GpuMemcpyOp::build(b, &[], dst, src, None);
        out.push(Copy {
            op: c.op(),
            anchor,
            h2d,
            dev: i,
        });
    }
    out
}

/// The buffers of a copy: (destination, source).
fn ends(d: &Device, h2d: bool) -> (Value, Value) {
    if h2d {
        (d.buf, d.host)
    } else {
        (d.host, d.buf)
    }
}

/// Whether `op` is a `gpu.memcpy` from `src` to `dst`.
fn is_copy_of(ctx: &Context, body: &Body, op: OpId, dst: Value, src: Value) -> bool {
    let ir = (ctx, body);
    GpuMemcpyOp::cast(&ir, op).is_some_and(|c| c.dst(&ir) == dst && c.src(&ir) == src)
}

/// What `op` and the ops nested in it do to buffer `k`, less the ops `skip`.
fn full_access(ctx: &Context, body: &Body, op: OpId, k: &Key, skip: &[OpId]) -> Access {
    access_except(ctx, body, op, k, skip)
}

/// The copies identical to one from `src` to `dst` (itself included).
fn identical(ctx: &Context, body: &Body, copies: &[Copy], dst: Value, src: Value) -> Vec<OpId> {
    copies
        .iter()
        .map(|c| c.op)
        .filter(|&o| !body.is_erased(o) && is_copy_of(ctx, body, o, dst, src))
        .collect()
}

/// Sinks every copy in turn (see the module docs).
pub fn sink_all(b: &mut Builder<'_>, copies: &[Copy], devices: &[Device], keys: &[(Key, Key)]) {
    for c in copies {
        sink(b, c, copies, devices, keys);
    }
}

fn sink(b: &mut Builder<'_>, c: &Copy, copies: &[Copy], devices: &[Device], keys: &[(Key, Key)]) {
    let ctx = b.ctx();
    let (dst, src) = ends(&devices[c.dev], c.h2d);
    let (hk, dk) = &keys[c.dev];
    let (to, from) = if c.h2d { (dk, hk) } else { (hk, dk) };
    for _ in 0..100_000 {
        let body = b.body();
        let ir = (ctx, body);
        let same = identical(ctx, body, copies, dst, src);
        let Some(next) = body.next_op(c.op) else { return };
        if !is_terminator(ctx, body, next) {
            if !same.contains(&next) {
                let a = full_access(ctx, body, next, to, &same);
                if a.any() || full_access(ctx, body, next, from, &same).other {
                    return;
                }
            }
            b.move_op_after(c.op, next);
            continue;
        }
        let Some(p) = body.parent_op(c.op) else { return };
        if GpuLaunchOp::isa(&ir, p) || body.is_defined_inside(dst, p) || body.is_defined_inside(src, p) {
            return;
        }
        let is_loop = AffineForOp::isa(&ir, p)
            || ScfForOp::isa(&ir, p)
            || ScfWhileOp::isa(&ir, p)
            || AffineParallelOp::isa(&ir, p)
            || ScfParallelOp::isa(&ir, p);
        let is_branch = ScfIfOp::isa(&ir, p) || AffineIfOp::isa(&ir, p);
        if is_loop {
            if full_access(ctx, body, p, to, &same).any() {
                return;
            }
        } else if is_branch {
            let own = body.op_block(c.op).and_then(|blk| body.block_region(blk));
            for &r in body.regions(p) {
                if Some(r) == own {
                    continue;
                }
                for blk in body.region_blocks(r) {
                    for o in body.block_ops(blk) {
                        if full_access(ctx, body, o, to, &same).write {
                            return;
                        }
                    }
                }
            }
        } else {
            return;
        }
        b.move_op_after(c.op, p);
    }
}

/// Merges identical copies next to each other and removes dead copies
/// (whose destination is freed, later in the block, before any occurrence
/// of it); returns the number of copies left.
pub fn merge(b: &mut Builder<'_>, copies: &[Copy], devices: &[Device], keys: &[(Key, Key)]) -> usize {
    let ctx = b.ctx();
    let mut left = 0;
    for c in copies {
        let body = b.body();
        if body.is_erased(c.op) {
            continue;
        }
        let (dst, src) = ends(&devices[c.dev], c.h2d);
        let next = body.next_op(c.op);
        let dup = next.is_some_and(|n| is_copy_of(ctx, body, n, dst, src));
        let (hk, dk) = &keys[c.dev];
        let to = if c.h2d { dk } else { hk };
        if dup || dead(ctx, body, c.op, dst, to) {
            b.erase_op(c.op);
        } else {
            left += 1;
        }
    }
    left
}

/// Whether the copy `op` into `dst` (buffer `to`) is dead: a dealloc of
/// `dst` follows in its block before any other occurrence of `to`.
fn dead(ctx: &Context, body: &Body, op: OpId, dst: Value, to: &Key) -> bool {
    let ir = (ctx, body);
    let mut cur = body.next_op(op);
    while let Some(o) = cur {
        let freed = GpuDeallocOp::cast(&ir, o).is_some_and(|d| d.memref(&ir) == dst)
            || MemrefDeallocOp::cast(&ir, o).is_some_and(|d| d.memref(&ir) == dst);
        if freed {
            return true;
        }
        if shallow_or_nested(ctx, body, o, to) {
            return false;
        }
        cur = body.next_op(o);
    }
    false
}

fn shallow_or_nested(ctx: &Context, body: &Body, op: OpId, k: &Key) -> bool {
    access_except(ctx, body, op, k, &[]).any() || is_terminator(ctx, body, op)
}

/// Puts every copy back right after its anchor (the unsunk mixed scheme).
pub fn unsink(b: &mut Builder<'_>, copies: &[Copy]) {
    for c in copies {
        if !b.body().is_erased(c.op) {
            b.move_op_after(c.op, c.anchor);
        }
    }
}

/// The buffer of a memref value, for the key pairs.
pub fn key_of(ctx: &Context, body: &Body, v: Value) -> Key {
    key(ctx, body, v).expect("a memref")
}
