//! Whether two memref values may name the same memory.
//!
//! MLIR's affine analysis compares memref SSA values: accesses through two
//! different values never depend, even when one is a `memref.subview` or
//! `memref.cast` of the other, which makes `affine-parallelize` turn a loop
//! that reads `subview(A)[i]` and writes `A[i]` into a racy parallel loop.
//! lf follows view-like ops (`memref.cast`, `memref.subview`,
//! `memref.reinterpret_cast`, `memref.view`: effect-free ops that make a
//! memref from one, see `underlying_memref`) to the memref they view, and
//! takes two `memref.get_global` of one symbol as one memref; accesses whose
//! roots are the same are assumed to depend (their subscripts are in
//! different index spaces). This holds in both precisions: it is one of
//! the few places where lf's MLIR-compatible answers differ from mlir-opt's,
//! on purpose (docs/design/dependence.md). Distinct function arguments and
//! distinct allocations are distinct memory, as in MLIR.

use crate::affine::utils::memref_alias::underlying_memref;
use crate::memref::MemrefGetGlobalOp;
use lf_ir::view::OpView;
use lf_ir::{Body, Context, Value};

/// The memory a memref value views: the value no view-like op defines
/// ([`underlying_memref`]), or a global's symbol.
#[derive(PartialEq, Eq, Debug)]
enum Root<'c> {
    Value(Value),
    Global(&'c str),
}

fn root<'c>(ctx: &'c Context, body: &Body, v: Value) -> Root<'c> {
    let v = underlying_memref(ctx, body, v);
    let ir = (ctx, body);
    match body.defining_op(v).and_then(|d| MemrefGetGlobalOp::cast(&ir, d)) {
        Some(g) => Root::Global(g.name(&ir)),
        None => Root::Value(v),
    }
}

/// Whether accesses to `a` and `b` are known to touch different memory
/// (see the module docs).
pub(crate) fn distinct_memrefs(ctx: &Context, body: &Body, a: Value, b: Value) -> bool {
    a != b && root(ctx, body, a) != root(ctx, body, b)
}
