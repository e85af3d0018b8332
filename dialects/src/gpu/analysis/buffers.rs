//! Buffers and their occurrences, shared by `gpu-host-data-placement` and
//! `gpu-verify-transfers`.
//!
//! A memref value names a **buffer**: the value it is a view of
//! (`memref.subview`, `memref.cast`, `memref.reinterpret_cast`,
//! `memref.view`, followed to their source), its [`root`]. Buffers are
//! compared by [`Key`]: the root value, or the global's name for a
//! `memref.get_global` (two `get_global`s of one global are one buffer).
//! Two different keys never overlap: the seed's precondition (no
//! aliasing, DIGEST §003.4), which lf does not check.
//!
//! An **occurrence** of a buffer in an op ([`access`]) is any read or
//! write of it by the op or an op nested in it, by the ops' declared memory
//! effects; an op whose effects are unknown, a call, a `func.return` of an
//! argument or a global, or an op that takes the memref and says nothing
//! about it (a `scf.yield` of it) reads and writes it; allocation and
//! deallocation are occurrences too ([`Access::other`]).

use crate::func::{FuncCallIndirectOp, FuncCallOp, FuncReturnOp};
use crate::gpu::{GpuAllocOp, GpuDeallocOp, GpuLaunchOp, GpuMemcpyOp};
use crate::memref::{
    MemrefAllocOp, MemrefAllocaOp, MemrefCastOp, MemrefDeallocOp, MemrefDimOp, MemrefGetGlobalOp,
    MemrefReinterpretCastOp, MemrefSubviewOp, MemrefViewOp,
};
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::registry::Traits;
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, Value};

/// Which buffer a memref names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// The root value (a function argument, a `memref.alloc`, ...).
    Value(Value),
    /// A `memref.global`, by name.
    Global(String),
}

/// The value `v` is a view of, following view ops to their source.
pub fn root(ctx: &Context, body: &Body, v: Value) -> Value {
    let ir = (ctx, body);
    let mut v = v;
    for _ in 0..1000 {
        let Some(op) = body.defining_op(v) else { return v };
        v = if let Some(x) = MemrefSubviewOp::cast(&ir, op) {
            x.source(&ir)
        } else if let Some(x) = MemrefCastOp::cast(&ir, op) {
            x.source(&ir)
        } else if let Some(x) = MemrefReinterpretCastOp::cast(&ir, op) {
            x.source(&ir)
        } else if let Some(x) = MemrefViewOp::cast(&ir, op) {
            x.source(&ir)
        } else {
            return v;
        };
    }
    v
}

/// Whether `op` makes a view of its first operand (see [`root`]).
pub fn is_view(ctx: &Context, body: &Body, op: OpId) -> bool {
    let ir = (ctx, body);
    MemrefSubviewOp::isa(&ir, op)
        || MemrefCastOp::isa(&ir, op)
        || MemrefReinterpretCastOp::isa(&ir, op)
        || MemrefViewOp::isa(&ir, op)
}

/// The buffer of memref value `v` (`None` for a value of another type).
pub fn key(ctx: &Context, body: &Body, v: Value) -> Option<Key> {
    if !is_memref(ctx, body, v) {
        return None;
    }
    let r = root(ctx, body, v);
    let ir = (ctx, body);
    if let Some(g) = body.defining_op(r).and_then(|op| MemrefGetGlobalOp::cast(&ir, op)) {
        return Some(Key::Global(g.name(&ir).to_string()));
    }
    Some(Key::Value(r))
}

/// Whether `v` is a memref (ranked or not).
pub fn is_memref(ctx: &Context, body: &Body, v: Value) -> bool {
    matches!(
        ctx.type_data(body.value_type(v)),
        lf_ir::TypeData::MemRef { .. } | lf_ir::TypeData::UnrankedMemRef { .. }
    )
}

/// What an op does to a buffer.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// Reads it.
    pub read: bool,
    /// Writes it.
    pub write: bool,
    /// Allocates or frees it.
    pub other: bool,
}

impl Access {
    /// Reads and writes.
    pub const RW: Access = Access {
        read: true,
        write: true,
        other: false,
    };
    /// Whether the op touches the buffer at all.
    pub fn any(self) -> bool {
        self.read || self.write || self.other
    }
    /// The union.
    pub fn join(self, o: Access) -> Access {
        Access {
            read: self.read || o.read,
            write: self.write || o.write,
            other: self.other || o.other,
        }
    }
}

/// Whether `op` is a terminator.
pub fn is_terminator(ctx: &Context, body: &Body, op: OpId) -> bool {
    ctx.op_def(body.op_name(op)).is_some_and(|d| d.has(Traits::TERMINATOR))
}

/// Whether buffer `k` is visible to a caller (an argument, a global).
fn caller_visible(body: &Body, k: &Key) -> bool {
    match k {
        Key::Global(_) => true,
        Key::Value(v) => body.defining_op(*v).is_none(),
    }
}

/// What `op` alone (not the ops nested in it) does to buffer `k`.
pub fn shallow_access(ctx: &Context, body: &Body, op: OpId, k: &Key) -> Access {
    let in_kernel = is_in_kernel(body, op, &(ctx, body));
    shallow_access_in(ctx, body, op, k, in_kernel)
}

/// Whether `op` is a `gpu.launch` or inside one.
fn is_in_kernel(body: &Body, op: OpId, ir: &(&Context, &Body)) -> bool {
    let mut cur = Some(op);
    while let Some(o) = cur {
        if GpuLaunchOp::isa(ir, o) {
            return true;
        }
        cur = body.parent_op(o);
    }
    false
}

/// [`shallow_access`], for an op known to be in a kernel (`in_kernel`:
/// the `gpu.launch` itself or an op inside it) or not. A kernel reaches a
/// global only through a `memref.get_global` it uses: its other ops
/// (calls are not allowed there) do not touch host globals.
pub fn shallow_access_in(ctx: &Context, body: &Body, op: OpId, k: &Key, in_kernel: bool) -> Access {
    let ir = (ctx, body);
    let rooted: Vec<Value> = body
        .operands(op)
        .chain(body.results(op))
        .filter(|&v| key(ctx, body, v).as_ref() == Some(k))
        .collect();
    let global = matches!(k, Key::Global(_)) && !in_kernel;
    if FuncReturnOp::isa(&ir, op) {
        return if caller_visible(body, k) || !rooted.is_empty() {
            Access::RW
        } else {
            Access::default()
        };
    }
    if FuncCallOp::isa(&ir, op) || FuncCallIndirectOp::isa(&ir, op) {
        return if global || !rooted.is_empty() {
            Access::RW
        } else {
            Access::default()
        };
    }
    if rooted.is_empty() && !global {
        return Access::default();
    }
    let own_memory_only = GpuAllocOp::isa(&ir, op)
        || GpuDeallocOp::isa(&ir, op)
        || GpuMemcpyOp::isa(&ir, op)
        || MemrefDeallocOp::isa(&ir, op)
        || MemrefAllocOp::isa(&ir, op)
        || MemrefAllocaOp::isa(&ir, op)
        || MemrefGetGlobalOp::isa(&ir, op);
    if rooted.is_empty() && own_memory_only {
        // These touch only the memory their operands and results name.
        return Access::default();
    }
    if !rooted.is_empty()
        && (GpuAllocOp::isa(&ir, op)
            || GpuDeallocOp::isa(&ir, op)
            || MemrefDeallocOp::isa(&ir, op)
            || MemrefAllocOp::isa(&ir, op)
            || MemrefAllocaOp::isa(&ir, op))
    {
        return Access {
            other: true,
            ..Access::default()
        };
    }
    let recursive = ctx
        .op_def(body.op_name(op))
        .is_some_and(|d| d.has(Traits::RECURSIVE_MEMORY_EFFECTS));
    let effects = memory_effects(ctx, body, op).or_else(|| {
        // Unknown only through the ops nested in it (which the callers
        // visit themselves): its own effects are those it declares.
        (recursive && !body.regions(op).is_empty()).then(Default::default)
    });
    let Some(effects) = effects else {
        // Unknown effects: anything it can reach (its operands, globals).
        return if !rooted.is_empty() || global {
            Access::RW
        } else {
            Access::default()
        };
    };
    let mut acc = Access::default();
    let mut seen: Vec<Value> = Vec::new();
    for e in effects.iter().filter(|e| e.op == op) {
        let hit = match e.value {
            Some(v) => {
                let h = rooted.contains(&v);
                if h {
                    seen.push(v);
                }
                h
            }
            // Memory no operand names: a global, or anything the op's
            // memref operands reach.
            None => global || !rooted.is_empty(),
        };
        if hit {
            match e.effect {
                Effect::Read => acc.read = true,
                Effect::Write => acc.write = true,
                Effect::Alloc | Effect::Free => acc.other = true,
            }
        }
    }
    let passive = is_view(ctx, body, op) || MemrefDimOp::isa(&ir, op) || MemrefGetGlobalOp::isa(&ir, op);
    if !passive && rooted.iter().any(|v| !seen.contains(v)) && body.operands(op).any(|v| rooted.contains(&v)) {
        // Takes the memref without saying what it does with it.
        acc = acc.join(Access::RW);
    }
    acc
}

/// What `op` and the ops nested in it do to buffer `k`.
pub fn access(ctx: &Context, body: &Body, op: OpId, k: &Key) -> Access {
    access_except(ctx, body, op, k, &[])
}

/// [`access`], less the ops `skip` (and the ops nested in them).
pub fn access_except(ctx: &Context, body: &Body, op: OpId, k: &Key, skip: &[OpId]) -> Access {
    let ir = (ctx, body);
    let mut acc = Access::default();
    let outer_kernel = is_in_kernel(body, op, &ir);
    let mut kernel_depth: Vec<OpId> = Vec::new();
    walk(body, op, WalkOrder::PreOrder, &mut |b, o| {
        if !std::ptr::eq(b, body) || skip.contains(&o) {
            return WalkControl::Skip;
        }
        let in_kernel = outer_kernel || GpuLaunchOp::isa(&ir, o) || {
            while let Some(&l) = kernel_depth.last() {
                if body.is_ancestor(l, o) {
                    break;
                }
                kernel_depth.pop();
            }
            !kernel_depth.is_empty()
        };
        if GpuLaunchOp::isa(&ir, o) {
            kernel_depth.push(o);
        }
        acc = acc.join(shallow_access_in(ctx, body, o, k, in_kernel));
        WalkControl::Advance
    });
    acc
}

/// "L:C" of `op`'s location ("?" when unknown).
pub fn line_col(ctx: &Context, body: &Body, op: OpId) -> String {
    match body.op_loc(op).source_pos(ctx) {
        Some(p) => format!("{}:{}", p.line, p.col),
        None => "?".into(),
    }
}
