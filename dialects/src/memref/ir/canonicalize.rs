//! Canonicalization patterns of the `memref` dialect.

use lf_ir::OpId;
use lf_pass::rewrite::{FnPattern, PatternRewriter, PatternSet};

/// Adds the patterns.
pub fn add_patterns(set: &mut PatternSet) {
    for root in ["memref.alloc", "memref.alloca"] {
        set.add(FnPattern::new("memref-dead-alloc", Some(root), erase_dead_alloc));
    }
}

/// MLIR's `SimplifyDeadAlloc`: an allocation that is only stored into
/// (`memref.store` with it as the destination) and deallocated is erased
/// with those users: nothing can read what is stored.
fn erase_dead_alloc(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let (ctx, body) = (rw.ctx(), rw.body());
    if body.num_results(op) != 1 {
        return false;
    }
    let memref = body.result(op, 0);
    let mut users = Vec::new();
    for u in body.uses(memref) {
        let user = body.use_owner(u);
        let only_written = match ctx.op_name_str(body.op_name(user)) {
            "memref.dealloc" => true,
            // The stored value is operand 0, the memref operand 1.
            "memref.store" => body.use_operand_index(u) != 0,
            _ => false,
        };
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
