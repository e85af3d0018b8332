//! Canonicalization patterns of the `memref` dialect.

use crate::memref::{MemrefAllocOp, MemrefAllocaOp, MemrefDeallocOp, MemrefStoreOp};
use lf_ir::view::OpView;
use lf_ir::OpId;
use lf_pass::rewrite::{FnPattern, PatternRewriter, PatternSet};

/// Adds the patterns.
pub fn add_patterns(set: &mut PatternSet) {
    set.add(FnPattern::on::<MemrefAllocOp>("memref-dead-alloc", erase_dead_alloc));
    set.add(FnPattern::on::<MemrefAllocaOp>("memref-dead-alloc", erase_dead_alloc));
}

/// MLIR's `SimplifyDeadAlloc`: an allocation that is only stored into
/// (`memref.store` with it as the destination) and deallocated is erased
/// with those users: nothing can read what is stored.
fn erase_dead_alloc(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let body = rw.body();
    if body.num_results(op) != 1 {
        return false;
    }
    let memref = body.result(op, 0);
    let mut users = Vec::new();
    for u in body.uses(memref) {
        let user = body.use_owner(u);
        let only_written =
            MemrefDeallocOp::isa(rw, user) || MemrefStoreOp::cast(rw, user).is_some_and(|s| s.value(rw) != memref);
        if !only_written {
            return false;
        }
        if !users.contains(&user) {
            users.push(user);
        }
    }
    for user in users {
        rw.erase_op(user);
    }
    rw.erase_op(op);
    true
}
