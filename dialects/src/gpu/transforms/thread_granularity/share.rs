//! What the points of one thread share, after the copies are emitted:
//!
//! - **loads**: two loads of one memref at subscripts equal as linear forms
//!   of the new ids ([`kernel_accesses`]) are one load when nothing in the
//!   kernel stores to that memref and they belong to different points (or
//!   one is shared by all). Different points are different old threads: if
//!   the old kernel was race free, an element two old threads read is
//!   written by no thread of the launch, so the second load reads what the
//!   first did. Loads within one point are left as they were.
//! - **pure ops** equal to an earlier one (same name, operands, in any
//!   order for commutative ops, result types, attributes and properties)
//!   are replaced by it, the common sub-expressions of the points.
//!
//! Both look at the top-level ops of the kernel and at the guards of the
//! copies past the end (which see the top-level ops before them).

use super::rewrite::CopyOf;
use crate::affine::AffineIfOp;
use crate::gpu::analysis::kernel_access::{kernel_accesses, LinearIndex};
use crate::gpu::transforms::kernel_merge::entry_block;
use crate::gpu::GpuLaunchOp;
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{Attribute, BlockId, OpId, OpName, Traits, Type, Value};
use lf_pass::rewrite::effects;
use rustc_hash::{FxHashMap, FxHashSet};

/// What makes two pure ops equal.
#[derive(Clone, PartialEq, Eq, Hash)]
struct PureKey {
    name: OpName,
    operands: Vec<Value>,
    types: Vec<Type>,
    attrs: Option<Attribute>,
    props: Option<Attribute>,
}

/// The loads seen so far and the pure ops seen so far.
#[derive(Clone, Default)]
struct Tables {
    loads: FxHashMap<(Value, Vec<LinearIndex>), (OpId, Option<usize>)>,
    pure: FxHashMap<PureKey, OpId>,
}

/// The loads that may be shared: op -> (memref, subscripts).
type Shareable = FxHashMap<OpId, (Value, Vec<LinearIndex>)>;

/// Merges the loads and pure ops the points of `launch` have in common;
/// returns how many ops went.
pub fn share_points(b: &mut Builder<'_>, launch: GpuLaunchOp, copy_of: &CopyOf) -> usize {
    let accesses = kernel_accesses(b, launch);
    let stored: FxHashSet<Value> = accesses.iter().filter(|a| a.is_store).map(|a| a.memref).collect();
    let shareable: Shareable = accesses
        .into_iter()
        .filter(|a| !a.is_store && !stored.contains(&a.memref))
        .filter_map(|a| {
            let subs: Option<Vec<LinearIndex>> = a.subscripts.iter().map(|s| s.linear().cloned()).collect();
            Some((a.op, (a.memref, subs?)))
        })
        .collect();
    let entry = entry_block(b, launch);
    let mut gone = 0;
    block(b, entry, &mut Tables::default(), &shareable, copy_of, &mut gone);
    gone
}

fn block(
    b: &mut Builder<'_>,
    blk: BlockId,
    tables: &mut Tables,
    shareable: &Shareable,
    copy_of: &CopyOf,
    gone: &mut usize,
) {
    let ops: Vec<OpId> = b.body().block_ops(blk).collect();
    for op in ops {
        if let Some(guard) = AffineIfOp::cast(b, op) {
            if b.body().results(op).next().is_none() {
                let then = guard.then_block(b);
                // A copy's guard: its ops see the tables so far, and add to a copy of them.
                if b.body().block_ops(then).any(|o| copy_of.contains_key(&o)) {
                    block(b, then, &mut tables.clone(), shareable, copy_of, gone);
                }
            }
            continue;
        }
        if let Some(existing) = same_load(tables, shareable, copy_of, op) {
            replace(b, op, existing);
            *gone += 1;
            continue;
        }
        if let Some(key) = pure_key(b, op) {
            match tables.pure.get(&key) {
                Some(&existing) => {
                    replace(b, op, existing);
                    *gone += 1;
                }
                None => {
                    tables.pure.insert(key, op);
                }
            }
        }
    }
}

/// An earlier load `op` may be replaced by (recording `op` otherwise).
fn same_load(tables: &mut Tables, shareable: &Shareable, copy_of: &CopyOf, op: OpId) -> Option<OpId> {
    let key = shareable.get(&op)?;
    let copy = copy_of.get(&op).copied();
    match tables.loads.get(key) {
        Some(&(existing, c)) if c.is_none() || copy.is_none() || c != copy => Some(existing),
        Some(_) => None,
        None => {
            tables.loads.insert(key.clone(), (op, copy));
            None
        }
    }
}

/// The key of a pure op with results and no regions.
fn pure_key(b: &Builder<'_>, op: OpId) -> Option<PureKey> {
    let (ctx, body) = (b.ctx(), b.body());
    let def = ctx.op_def(body.op_name(op))?;
    if body.num_regions(op) > 0
        || body.num_results(op) == 0
        || def.has(Traits::TERMINATOR)
        || !effects::is_effect_free(ctx, body, op)
    {
        return None;
    }
    let mut operands: Vec<Value> = body.operands(op).collect();
    if def.has(Traits::COMMUTATIVE) {
        operands.sort_unstable();
    }
    Some(PureKey {
        name: body.op_name(op),
        operands,
        types: body.results(op).map(|v| body.value_type(v)).collect(),
        attrs: body.op_attrs(op),
        props: body.op_props(op),
    })
}

/// Replaces `op`'s results by `by`'s and erases `op`.
fn replace(b: &mut Builder<'_>, op: OpId, by: OpId) {
    let pairs: Vec<(Value, Value)> = b.body().results(op).zip(b.body().results(by)).collect();
    for (old, new) in pairs {
        b.replace_all_uses_with(old, new);
    }
    b.erase_op(op);
}
