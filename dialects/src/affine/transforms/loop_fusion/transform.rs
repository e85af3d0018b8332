//! Carrying out a fusion plan: moving a nest's body into another (merge),
//! or computing a producer's slice inside the consumer (clone, slice
//! bounds, single-iteration loops promoted, as MLIR's
//! `fuseLoops` + `promoteIfSingleIteration`), then private buffers, and
//! keeping the block's index up to date.

use super::nests::{nest_info, BlockState};
use super::LoopFusion;
use crate::affine::utils::loop_slice::{
    perfect_band, promote_single_iteration, redirect_access, set_slice_bounds, shifted_value,
};
use crate::affine::{AffineForOp, AffineLoadOp, AffineStoreOp, AffineYieldOp};
use crate::memref::MemrefAllocOp;
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{OpId, Type, Value};

/// How one loop of the producer's perfect band is sliced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SliceLoop {
    /// Iterations `j_l + lo ..= j_l + hi` for the consumer's band loop `l`,
    /// clipped to the loop's own constant bounds where `clip` says.
    Mapped {
        l: usize,
        lo: i64,
        hi: i64,
        clip: (bool, bool),
    },
    /// All its iterations.
    Full,
}

/// A memref that becomes a private buffer of the fused nest.
#[derive(Clone, Debug)]
pub(super) struct Private {
    pub memref: Value,
    /// The buffer's type.
    pub ty: Type,
    /// Per dimension, what is subtracted from a subscript: a consumer loop
    /// variable plus a constant, or a constant.
    pub offsets: Vec<(Option<Value>, i64)>,
}

/// What to do with a pair of nests.
#[derive(Clone, Debug)]
pub(super) enum Plan {
    /// The moving nest's body goes into the host's loop at `depth`.
    Merge { depth: usize, privates: Vec<Private> },
    /// The producer's slice is computed at the start of the consumer's loop
    /// at `depth`.
    Slice {
        depth: usize,
        mapping: Vec<SliceLoop>,
        remove_src: bool,
        privates: Vec<Private>,
    },
}

/// Carries out `plan` for the nests at `src` and `dst` (producer-consumer:
/// `src` into `dst`; sibling: `dst` into `src`) and updates the index.
pub(super) fn apply(
    st: &mut BlockState,
    _pass: &LoopFusion,
    b: &mut Builder<'_>,
    src: usize,
    dst: usize,
    producer: bool,
    plan: Plan,
) {
    let (host, mover) = if producer { (dst, src) } else { (src, dst) };
    let host_root = st.nests[&host].root;
    let mover_root = st.nests[&mover].root;
    let privates = match plan {
        Plan::Merge { depth, privates } => {
            let hband = perfect_band(b.ctx(), b.body(), host_root);
            let mband = perfect_band(b.ctx(), b.body(), mover_root);
            for k in 0..depth {
                let (from, to) = (mband[k].iv(b), hband[k].iv(b));
                b.replace_all_uses_with(from, to);
            }
            let from_block = mband[depth - 1].region_block(b);
            let to_block = hband[depth - 1].region_block(b);
            let ops: Vec<OpId> = b.body().block_ops(from_block).collect();
            let first = b.body().first_op(to_block);
            let term = b.body().terminator(to_block);
            for op in ops {
                if AffineYieldOp::isa(b, op) {
                    continue;
                }
                // Producer first: before the host's body; sibling after it.
                match (producer, first, term) {
                    (true, Some(f), _) => b.move_op_before(op, f),
                    (false, _, Some(t)) => b.move_op_before(op, t),
                    _ => b.move_op_to_end(op, to_block),
                }
            }
            b.erase_op(mover_root.op());
            let moved = st.nests.get_mut(&mover).map(|n| {
                n.alive = false;
                n.clone()
            });
            if let Some(m) = moved {
                st.unregister(mover, &m);
                // Only the mover's memrefs change at the host's position.
                st.register(host, &m);
                let h = st.nests.get_mut(&host).expect("host nest");
                for (mem, a) in m.by_memref {
                    let e = h.by_memref.entry(mem).or_default();
                    e.reads.extend(a.reads);
                    e.writes.extend(a.writes);
                }
            }
            privates
        }
        Plan::Slice {
            depth,
            mapping,
            remove_src,
            privates,
        } => {
            let hband = perfect_band(b.ctx(), b.body(), host_root);
            let block = hband[depth - 1].region_block(b);
            let first = b.body().first_op(block).expect("a loop body has a terminator");
            let mut map = ValueMap::default();
            let clone = b.guarded(|b| {
                b.set_insertion_point_before(first);
                b.clone_op(mover_root.op(), &mut map)
            });
            let cband = perfect_band(b.ctx(), b.body(), AffineForOp::from_op_unchecked(clone));
            for (k, sl) in mapping.iter().enumerate() {
                let SliceLoop::Mapped { l, lo, hi, clip } = *sl else {
                    continue;
                };
                let f = cband[k];
                let (lb, ub) = (
                    f.constant_lower_bound(b).unwrap_or(0),
                    f.constant_upper_bound(b).unwrap_or(0),
                );
                let j = hband[l].iv(b);
                set_slice_bounds(b, f, j, (lo, hi), (lb, ub), clip);
                if lo == hi && clip == (false, false) {
                    let v = b.guarded(|b| {
                        b.set_insertion_point_before(f.op());
                        shifted_value(b, j, lo)
                    });
                    promote_single_iteration(b, f, v);
                }
            }
            if remove_src {
                b.erase_op(mover_root.op());
                let old = st.nests[&mover].clone();
                st.unregister(mover, &old);
                st.nests.get_mut(&mover).expect("mover").alive = false;
            }
            refresh(st, b, host);
            privates
        }
    };
    if privates.is_empty() {
        return;
    }
    // Private buffers: allocated at the start of the block, every access of
    // the fused nest redirected with its subscripts shifted.
    let block = st.block;
    for p in &privates {
        let buf = b.guarded(|b| {
            let loc = b.body().op_loc(host_root.op());
            b.set_loc(loc);
            match b.body().first_op(block) {
                Some(f) => b.set_insertion_point_before(f),
                None => b.set_insertion_point_to_end(block),
            }
            MemrefAllocOp::build(b, &[], &[], p.ty).memref(b)
        });
        let mut accesses = Vec::new();
        walk(b.body(), host_root.op(), WalkOrder::PreOrder, &mut |bd, op| {
            let ir = (b.ctx(), bd);
            let m = AffineLoadOp::cast(&ir, op)
                .map(|l| l.memref(&ir))
                .or_else(|| AffineStoreOp::cast(&ir, op).map(|s| s.memref(&ir)));
            if m == Some(p.memref) {
                accesses.push(op);
            }
            WalkControl::Advance
        });
        for op in accesses {
            redirect_access(b, op, buf, &p.offsets);
        }
        // The original allocation goes when nothing uses it any more.
        if let lf_ir::ValueDef::OpResult { op: alloc, .. } = b.body().value_def(p.memref) {
            if !b.body().has_uses(p.memref) {
                b.erase_op(alloc);
            }
        }
        let h = st.nests.get_mut(&host).expect("host");
        if let Some(a) = h.by_memref.remove(&p.memref) {
            h.by_memref.insert(buf, a);
        }
        if let Some(u) = st.index.get_mut(&p.memref) {
            u.readers.remove(&host);
            u.writers.remove(&host);
        }
        let h = st.nests[&host].clone();
        st.register(host, &h);
    }
}

/// Recomputes the accesses of the nest at `pos` after its body changed.
fn refresh(st: &mut BlockState, b: &Builder<'_>, pos: usize) {
    let old = st.nests[&pos].clone();
    st.unregister(pos, &old);
    let new = nest_info(b.ctx(), b.body(), old.root);
    st.register(pos, &new);
    st.nests.insert(pos, new);
}
