//! Whether two memref values may name the same memory.
//!
//! MLIR's affine analysis compares memref SSA values: accesses through two
//! different values never depend, even when one is a `memref.subview` or
//! `memref.cast` of the other, which makes `affine-parallelize` turn a loop
//! that reads `subview(A)[i]` and writes `A[i]` into a racy parallel loop.
//! lf follows view-like ops (`memref.cast`, `memref.subview`,
//! `memref.reinterpret_cast`, `memref.view`) to the memref they view, and
//! takes two `memref.get_global` of one symbol as one memref; accesses whose
//! roots are the same are assumed to depend (their subscripts are in
//! different index spaces). This holds in both precisions: it is one of
//! the few places where lf's MLIR-compatible answers differ from mlir-opt's,
//! on purpose (docs/design/dependence.md). Distinct function arguments and
//! distinct allocations are distinct memory, as in MLIR.

use crate::memref::{MemrefCastOp, MemrefGetGlobalOp, MemrefReinterpretCastOp, MemrefSubviewOp, MemrefViewOp};
use lf_ir::view::OpView;
use lf_ir::{Body, Context, Value};

/// The memory a memref value views: the value no view-like op defines, or
/// a global's symbol.
#[derive(PartialEq, Eq, Debug)]
enum Root<'c> {
    Value(Value),
    Global(&'c str),
}

fn root<'c>(ctx: &'c Context, body: &Body, mut v: Value) -> Root<'c> {
    let ir = (ctx, body);
    loop {
        let Some(def) = body.defining_op(v) else {
            return Root::Value(v);
        };
        v = if let Some(c) = MemrefCastOp::cast(&ir, def) {
            c.source(&ir)
        } else if let Some(s) = MemrefSubviewOp::cast(&ir, def) {
            s.source(&ir)
        } else if let Some(r) = MemrefReinterpretCastOp::cast(&ir, def) {
            r.source(&ir)
        } else if let Some(w) = MemrefViewOp::cast(&ir, def) {
            w.source(&ir)
        } else if let Some(g) = MemrefGetGlobalOp::cast(&ir, def) {
            return Root::Global(g.name(&ir));
        } else {
            return Root::Value(v);
        };
    }
}

/// Whether accesses to `a` and `b` are known to touch different memory
/// (see the module docs).
pub(crate) fn distinct_memrefs(ctx: &Context, body: &Body, a: Value, b: Value) -> bool {
    a != b && root(ctx, body, a) != root(ctx, body, b)
}
