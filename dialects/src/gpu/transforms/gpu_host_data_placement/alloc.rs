//! Device buffers: `gpu.alloc` and `gpu.dealloc` of each shared buffer by
//! the seed's stack/heap rules (DIGEST §003.4), and the host-to-device copy
//! of the data an argument or a global holds on entry.
//!
//! | host buffer | `gpu.alloc` | `gpu.dealloc` |
//! |---|---|---|
//! | function argument, `memref.get_global` | start of the function | before its `func.return` |
//! | `memref.alloca` | start of its block (right after it when its sizes are dynamic) | before its block's terminator |
//! | `memref.alloc` | right after it | right after each of its `memref.dealloc`; with none, before its block's terminator |
//!
//! Dynamic sizes are the `memref.dim`s of the host memref. A global gets a
//! `memref.get_global` of its own at the function's start (the host value
//! the copies use).

use super::classify::{Origin, Shared};
use crate::arith::ArithConstantOp;
use crate::gpu::analysis::buffers::{key, shallow_access};
use crate::gpu::{GpuAllocOp, GpuDeallocOp, GpuMemcpyOp};
use crate::memref::{MemrefDeallocOp, MemrefDimOp, MemrefGetGlobalOp};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{BlockId, OpId, TypeData, Value};

/// A shared buffer's device side.
#[derive(Clone, Debug)]
pub struct Device {
    /// The host memref the copies use.
    pub host: Value,
    /// The device buffer.
    pub buf: Value,
    /// Its `gpu.alloc`.
    pub alloc: OpId,
    /// The host-to-device copy of the data held on entry, if any.
    pub entry_copy: Option<OpId>,
    /// Every op placement created (not host statements).
    pub created: Vec<OpId>,
}

/// Creates the device buffer of `s` in the function whose entry block is
/// `entry`; `entry_after` is the last op placement put at the function's
/// start so far (updated).
pub fn create(b: &mut Builder<'_>, entry: BlockId, s: &Shared, entry_after: &mut Option<OpId>) -> Device {
    let ctx = b.ctx();
    b.set_loc_of(s.loc_op);
    let mut created = Vec::new();
    let at_entry = matches!(s.origin, Origin::Argument | Origin::Global(_));
    match &s.origin {
        Origin::Argument | Origin::Global(_) => match *entry_after {
            Some(o) => b.set_insertion_point_after(o),
            None => b.set_insertion_point_to_start(entry),
        },
        Origin::Alloc(d) => b.set_insertion_point_after(*d),
        Origin::Alloca(d) => {
            let dynamic = b.body().num_operands(*d) > 0;
            match b.body().op_block(*d) {
                Some(blk) if !dynamic => b.set_insertion_point_to_start(blk),
                _ => b.set_insertion_point_after(*d),
            }
        }
    }
    let host = match &s.origin {
        Origin::Global(name) => {
            let g = MemrefGetGlobalOp::build(b, s.ty, name);
            created.push(g.op());
            g.result(b)
        }
        _ => s.host,
    };
    let shape: Vec<i64> = match ctx.type_data(s.ty) {
        TypeData::MemRef { shape, .. } => shape.to_vec(),
        _ => Vec::new(),
    };
    let mut sizes = Vec::new();
    for (i, &d) in shape.iter().enumerate() {
        if d < 0 {
            let c = ArithConstantOp::index(b, i as i64);
            created.extend(b.body().defining_op(c));
            let dim = MemrefDimOp::build(b, host, c);
            created.push(dim.op());
            sizes.push(dim.result(b));
        }
    }
    let alloc = GpuAllocOp::build(b, &[], &sizes, &[], s.ty, None);
    created.push(alloc.op());
    let buf = alloc.memref(b);
    let mut last = alloc.op();
    let mut entry_copy = None;
    if at_entry {
        let c = GpuMemcpyOp::build(b, &[], buf, host, None);
        created.push(c.op());
        entry_copy = Some(c.op());
        last = c.op();
        *entry_after = Some(last);
    }
    let _ = last;
    // Deallocations.
    let ends: Vec<(OpId, bool)> = match &s.origin {
        Origin::Argument | Origin::Global(_) => terminator(b, entry).into_iter().map(|t| (t, true)).collect(),
        Origin::Alloca(d) => block_end(b, *d),
        Origin::Alloc(d) => {
            let body = b.body();
            let ir = (ctx, body);
            let frees: Vec<OpId> = body
                .live_ops()
                .filter(|&o| {
                    MemrefDeallocOp::isa(&ir, o)
                        && shallow_access(ctx, body, o, &s.key).other
                        && key(ctx, body, body.operand(o, 0)).as_ref() == Some(&s.key)
                })
                .collect();
            if frees.is_empty() {
                block_end(b, *d)
            } else {
                frees.into_iter().map(|f| (f, false)).collect()
            }
        }
    };
    for (at, before) in ends {
        if before {
            b.set_insertion_point_before(at);
        } else {
            b.set_insertion_point_after(at);
        }
        let d = GpuDeallocOp::build(b, &[], buf, None);
        created.push(d.op());
    }
    Device {
        host,
        buf,
        alloc: alloc.op(),
        entry_copy,
        created,
    }
}

fn terminator(b: &Builder<'_>, blk: BlockId) -> Option<OpId> {
    b.body().last_op(blk)
}

/// Before the terminator of the block of `op`.
fn block_end(b: &Builder<'_>, op: OpId) -> Vec<(OpId, bool)> {
    b.body()
        .op_block(op)
        .and_then(|blk| terminator(b, blk))
        .map(|t| (t, true))
        .into_iter()
        .collect()
}
