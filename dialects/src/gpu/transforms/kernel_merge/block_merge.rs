//! `block-merge{dim=x|y factor=N}`: N neighbouring blocks along `dim`
//! become one block N times larger (DIGEST §004.6, Fig. 4/5).
//!
//! A thread `t'` of merged block `b'` runs the old thread `t' mod B` of
//! the old block `b'·N + t' floordiv B` (B the old block size): the ids are
//! recovered with `affine.apply`, and an `affine.apply` computing the
//! absolute id `c·(B·bid + tid)` is rewritten to `c·(N·B·bid' + tid')`
//! (the same value, linear for the later passes). The G2S statements that
//! cause the sharing (a global load whose value is only stored into a
//! workgroup array, neither depending on the merged block index) are
//! guarded by `affine.if (tid' < B)`: the first B threads load the data
//! once for the whole merged block; shared arrays keep their size.
//! Barriers stay unguarded. A workgroup array written any other way (its
//! contents depend on the old block) gets one copy per merged block: a
//! leading dimension of size N indexed by `t' floordiv B`, so each old
//! block keeps its own (lf's completion of the seed's rule; the kernel is
//! left alone when the copies would exceed `max-shared-bytes`' 48 KiB or
//! the array is used other than by loads and stores).

use super::{
    axis, contains_barrier, kernel_constant, parse_merge_options, resize_launch, unsupported_op, MERGE_OPTIONS,
};
use crate::affine::{AffineApplyOp, AffineIfOp, AffineLoadOp, AffineStoreOp};
use crate::gpu::analysis::kernel_access::LaunchIds;
use crate::gpu::analysis::sharing::dependent_values;
use crate::gpu::utils::workgroup_buffer::memref_bytes;
use crate::gpu::GpuLaunchOp;
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use lf_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::interfaces::memory_effects;
use lf_ir::view::{collect_ops, Ir, OpView, ValueList};
use lf_ir::{OpId, Value};
use lf_pass::pass::{Anchor, Pass, PassInfo, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use rustc_hash::FxHashSet;

/// The registration record of `block-merge`.
pub static INFO: PassInfo = PassInfo {
    name: "block-merge",
    summary: "Merge N neighbouring thread blocks of a gpu.launch into one (seed 004 step 5)",
    description: "Seed 004's thread-block merge. Every inline `gpu.launch` with constant sizes whose grid \
along `dim` divides by `factor` N gets blocks N times larger along `dim` and a grid N times smaller; \
a thread `t'` of block `b'` runs the old thread `t' mod B` of the old block `b'*N + t' floordiv B` \
(B the old block size; `affine.apply` recovers them, and the absolute id `bid*B + tid` becomes \
`bid'*N*B + t'`). The statements that cause the sharing (a global load whose value is only stored \
into a workgroup array, neither depending on the merged block index: G2S) are guarded by \
`affine.if (tid' < B)` so the merged block loads the data once; shared arrays keep their size; \
barriers stay unguarded. Kernels without shared memory are only re-blocked. A workgroup array \
written any other way (its contents depend on the old block) gets one copy per merged block: a leading \
dimension of size N indexed by `tid' floordiv B`. Left unchanged, with a remark: sizes that are not \
constant, a grid that does not divide, more than 1024 threads, atomics or other ops with unknown \
effects, copies over 48 KiB of shared memory, an array to copy with a layout map or used other than \
by loads and stores.",
    anchor: Anchor::Op("func.func"),
    options: MERGE_OPTIONS,
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let (dim, factor) = parse_merge_options(opts)?;
    Ok(Box::new(BlockMerge { dim, factor }))
}

/// The `block-merge` pass.
pub struct BlockMerge {
    /// 0 for x, 1 for y.
    pub dim: usize,
    /// How many blocks are merged.
    pub factor: i64,
}

/// A G2S statement: the global load and the workgroup store of its value.
#[derive(Clone, Copy, Debug)]
struct G2S {
    load: OpId,
    store: OpId,
}

/// What block merge does to one launch, decided before changing it.
#[derive(Debug)]
pub struct BlockMergePlan {
    dim: usize,
    factor: i64,
    old_block: i64,
    old_grid: i64,
    g2s: Vec<G2S>,
    /// Workgroup arrays whose contents depend on the old block: one copy
    /// per merged block.
    replicate: Vec<Value>,
}

impl BlockMergePlan {
    /// The remark describing the merge.
    pub fn describe(&self) -> String {
        format!(
            "block-merge: merged {} blocks along {}: block {} -> {} threads along {}, grid {} -> {}; {} G2S statement(s) guarded by tid{} < {}; {} workgroup array(s) replicated per merged block",
            self.factor,
            axis(self.dim),
            self.old_block,
            self.old_block * self.factor,
            axis(self.dim),
            self.old_grid,
            self.old_grid / self.factor,
            self.g2s.len(),
            axis(self.dim),
            self.old_block,
            self.replicate.len()
        )
    }
}

/// The memref and the stored value of a store op.
fn store_parts<'c>(ir: &impl Ir<'c>, op: OpId) -> Option<(Value, Value)> {
    if let Some(s) = AffineStoreOp::cast(ir, op) {
        return Some((s.memref(ir), s.value(ir)));
    }
    MemrefStoreOp::cast(ir, op).map(|s| (s.memref(ir), s.value(ir)))
}

/// Decides whether `launch` can be block-merged along `dim` by `factor`.
pub fn plan_block_merge<'c>(
    ir: &impl Ir<'c>,
    launch: GpuLaunchOp,
    dim: usize,
    factor: i64,
) -> Result<BlockMergePlan, String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let ids = LaunchIds::of(ir, launch);
    let (old_block, old_grid) = super::merge_sizes(&ids, dim, factor)?;
    let threads = ids.threads_per_block().unwrap_or(i64::MAX);
    if threads.saturating_mul(factor) > 1024 {
        return Err(format!(
            "not merged: {} threads per block would exceed 1024",
            threads.saturating_mul(factor)
        ));
    }
    if let Some(why) = unsupported_op(ir, launch) {
        return Err(format!("not merged: {why}"));
    }
    let dep = dependent_values(ir, launch, dim);
    let wg: Vec<Value> = launch.workgroup_attributions(ir).to_vec();
    let mut g2s = Vec::new();
    let mut stores = Vec::new();
    lf_ir::walk::walk(body, launch.op(), lf_ir::walk::WalkOrder::PreOrder, &mut |b, op| {
        if let Some((m, _)) = store_parts(&(ctx, b), op) {
            if wg.contains(&m) {
                stores.push(op);
            }
        }
        lf_ir::walk::WalkControl::Advance
    });
    let mut copies: Vec<(Value, G2S)> = Vec::new();
    let mut replicate: Vec<Value> = Vec::new();
    for store in stores {
        let (memref, value) = store_parts(ir, store).expect("a store");
        match g2s_copy(ir, launch, &wg, &dep, dim, store, value) {
            Ok(c) => copies.push((memref, c)),
            Err(why) => {
                if !replicate.contains(&memref) {
                    if let Some(use_why) = non_access_use(ir, memref) {
                        return Err(format!(
                            "not merged: workgroup array #{} is written by a statement that {why} (its contents depend on the old block) and {use_why}, so it cannot be replicated",
                            wg.iter().position(|w| *w == memref).unwrap_or(0)
                        ));
                    }
                    replicate.push(memref);
                }
            }
        }
    }
    g2s.extend(
        copies
            .into_iter()
            .filter(|(m, _)| !replicate.contains(m))
            .map(|(_, c)| c),
    );
    let bytes: i64 = wg
        .iter()
        .map(|&m| memref_bytes(ir, m).saturating_mul(if replicate.contains(&m) { factor } else { 1 }))
        .sum();
    if bytes > MAX_SHARED_BYTES {
        return Err(format!(
            "not merged: the replicated workgroup arrays would take {bytes} bytes of shared memory (more than {MAX_SHARED_BYTES})"
        ));
    }
    Ok(BlockMergePlan {
        dim,
        factor,
        old_block,
        old_grid,
        g2s,
        replicate,
    })
}

/// The most shared memory a block may use (bytes): CUDA's static limit,
/// also `gpu-block-tile`'s budget for its promoted operands.
pub const MAX_SHARED_BYTES: i64 = 48 * 1024;

/// Why `memref` cannot get a leading dimension: a use that is not the
/// memref operand of a load or store (`None` when every use is).
fn non_access_use<'c>(ir: &impl Ir<'c>, memref: Value) -> Option<String> {
    let body = ir.body();
    if let lf_ir::TypeData::MemRef { layout: Some(_), .. } = ir.ctx().type_data(body.value_type(memref)) {
        return Some("has a layout map".to_string());
    }
    for u in body.uses(memref) {
        let user = body.use_owner(u);
        let ok = AffineLoadOp::cast(ir, user).is_some_and(|l| l.memref(ir) == memref)
            || AffineStoreOp::cast(ir, user).is_some_and(|s| s.memref(ir) == memref && s.value(ir) != memref)
            || MemrefLoadOp::cast(ir, user).is_some_and(|l| l.memref(ir) == memref)
            || MemrefStoreOp::cast(ir, user).is_some_and(|s| s.memref(ir) == memref && s.value(ir) != memref);
        if !ok {
            return Some(format!("is used by '{}'", ir.ctx().op_name_str(body.op_name(user))));
        }
    }
    None
}

/// The G2S statement `store` is part of, when it is a plain copy of a
/// global load that does not depend on the merged block index; else why not.
#[allow(clippy::too_many_arguments)]
fn g2s_copy<'c>(
    ir: &impl Ir<'c>,
    launch: GpuLaunchOp,
    wg: &[Value],
    dep: &FxHashSet<Value>,
    dim: usize,
    store: OpId,
    value: Value,
) -> Result<G2S, String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    {
        let bad = |why: &str| Err(why.to_string());
        let Some(load) = body.defining_op(value) else {
            return bad("does not store a loaded value");
        };
        let global_load = AffineLoadOp::cast(ir, load)
            .map(|l| l.memref(ir))
            .or_else(|| MemrefLoadOp::cast(ir, load).map(|l| l.memref(ir)))
            .filter(|m| !wg.contains(m) && !launch.private_attributions(ir).contains(m));
        if global_load.is_none() {
            return bad("does not store a value loaded from global memory");
        }
        if body.uses(value).count() != 1 || body.op_block(load) != body.op_block(store) {
            return bad("is not a plain copy (the loaded value has other uses or is in another block)");
        }
        // Nothing between the load and the store that writes or syncs.
        let mut cur = body.next_op(load);
        while let Some(o) = cur {
            if o == store {
                break;
            }
            let writes = body.num_regions(o) > 0
                || contains_barrier(ctx, body, o)
                || !memory_effects(ctx, body, o).is_some_and(|e| e.is_empty());
            if writes && !(AffineLoadOp::isa(ir, o) || MemrefLoadOp::isa(ir, o)) {
                return bad("has a write or barrier between its load and its store");
            }
            cur = body.next_op(o);
        }
        let op_dep = |o: OpId| body.operands(o).any(|v| dep.contains(&v));
        if op_dep(load) || op_dep(store) {
            return bad(&format!("depends on the block index along {}", axis(dim)));
        }
        // Enclosing control flow must not depend on it either.
        let mut p = body.parent_op(store);
        while let Some(o) = p {
            if o == launch.op() {
                break;
            }
            if op_dep(o) {
                return bad(&format!(
                    "is under control flow that depends on the block index along {}",
                    axis(dim)
                ));
            }
            p = body.parent_op(o);
        }
        Ok(G2S { load, store })
    }
}

/// Applies a plan made by [`plan_block_merge`] to `launch`.
pub fn apply_block_merge(b: &mut Builder<'_>, launch: GpuLaunchOp, plan: &BlockMergePlan) {
    let (dim, n, bsz, gsz) = (plan.dim, plan.factor, plan.old_block, plan.old_grid);
    let tid = launch.thread_ids(b)[dim];
    let bid = launch.block_ids(b)[dim];
    let bdim = launch.block_size_args(b)[dim];
    let gdim = launch.grid_size_args(b)[dim];
    resize_launch(b, launch, dim, gsz / n, bsz * n);
    // 1. The guards around the G2S statements.
    let mut guards = Vec::new();
    for s in &plan.g2s {
        let set = IntegerSet::new(1, 0, vec![AffineExpr::dim(0).neg().add_const(bsz - 1)], vec![false]);
        let guard = b.guarded(|b| {
            b.set_insertion_point_before(s.store);
            AffineIfOp::build(b, set, &[tid], &[], |_| ValueList::new(), None)
        });
        let then = guard.then_block(b);
        let term = b.body().terminator(then).expect("affine.if has a yield");
        b.move_op_before(s.load, term);
        b.move_op_before(s.store, term);
        guards.push(guard.op());
    }
    // 2. `c*(B*bid + tid)` applies become `c*(N*B*bid' + tid')`.
    let entry = super::entry_block(b, launch);
    let applies: Vec<AffineApplyOp> = collect_ops::<AffineApplyOp>(b.ctx(), b.body(), &[launch.body(b)]);
    let mut rewritten: FxHashSet<OpId> = FxHashSet::default();
    for a in applies {
        let operands = a.map_operands(b);
        let map = a.map(b).clone();
        let (Some(pb), Some(pt)) = (
            operands.iter().position(|v| *v == bid),
            operands.iter().position(|v| *v == tid),
        ) else {
            continue;
        };
        let [result] = map.results() else { continue };
        let (nd, ns) = (map.num_dims(), map.num_symbols());
        let Some(row) = lf_ir::affine::linear_form(result, nd, ns) else {
            continue;
        };
        if operands.iter().filter(|v| **v == bid || **v == tid).count() != 2 || row[pb] != bsz * row[pt] {
            continue;
        }
        let mut dims: Vec<AffineExpr> = (0..nd).map(AffineExpr::dim).collect();
        let mut syms: Vec<AffineExpr> = (0..ns).map(AffineExpr::symbol).collect();
        let pos = pb;
        if pos < nd as usize {
            dims[pos] = AffineExpr::dim(pos as u32).mul_const(n);
        } else {
            syms[pos - nd as usize] = AffineExpr::symbol((pos - nd as usize) as u32).mul_const(n);
        }
        let new_map = map.replace_dims_and_symbols(&dims, &syms, nd, ns).simplify();
        a.set_map(b, new_map);
        rewritten.insert(a.op());
    }
    // 3. The old ids for every other use.
    let (tid_old, bid_old) = b.guarded(|b| {
        b.set_insertion_point_to_start(entry);
        let t = AffineApplyOp::build(
            b,
            &[tid],
            AffineMap::new(1, 0, vec![AffineExpr::dim(0).modulo_const(bsz)]),
        );
        let o = AffineApplyOp::build(
            b,
            &[bid, tid],
            AffineMap::new(
                2,
                0,
                vec![AffineExpr::dim(0)
                    .mul_const(n)
                    .add(&AffineExpr::dim(1).floor_div_const(bsz))],
            ),
        );
        (t, o)
    });
    let (tv, bv) = (tid_old.result(b), bid_old.result(b));
    let (top, bop) = (tid_old.op(), bid_old.op());
    let in_guard = |body: &lf_ir::Body, user: OpId| guards.iter().any(|&g| g == user || body.is_ancestor(g, user));
    b.replace_uses_if(tid, tv, |body, user| {
        user != top && user != bop && !rewritten.contains(&user) && !in_guard(body, user)
    });
    b.replace_uses_if(bid, bv, |_, user| {
        user != top && user != bop && !rewritten.contains(&user)
    });
    let bc = kernel_constant(b, launch, bsz);
    b.replace_all_uses_with(bdim, bc);
    let gc = kernel_constant(b, launch, gsz);
    b.replace_all_uses_with(gdim, gc);
    // 4. One copy per merged block of the arrays that depend on the old block.
    if !plan.replicate.is_empty() {
        let copy = b.guarded(|b| {
            b.set_insertion_point_to_start(entry);
            AffineApplyOp::build(
                b,
                &[tid],
                AffineMap::new(1, 0, vec![AffineExpr::dim(0).floor_div_const(bsz)]),
            )
            .result(b)
        });
        for &m in &plan.replicate {
            replicate_array(b, m, n, copy);
        }
    }
    // What no access needed.
    for v in [tv, bv, bc, gc] {
        if !b.body().has_uses(v) {
            if let Some(d) = b.body().defining_op(v) {
                b.erase_op(d);
            }
        }
    }
}

impl Pass for BlockMerge {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        super::merge_each_launch(
            op,
            am,
            "block-merge",
            |ir, launch| plan_block_merge(ir, launch, self.dim, self.factor),
            apply_block_merge,
            |plan| plan.describe(),
        )
    }
}

/// Gives workgroup array `m` a leading dimension of `n` copies, every
/// access indexed by `copy` there.
fn replicate_array(b: &mut Builder<'_>, m: Value, n: i64, copy: Value) {
    let ctx = b.ctx();
    let ty = b.body().value_type(m);
    let lf_ir::TypeData::MemRef {
        shape,
        element,
        layout,
        memory_space,
    } = ctx.type_data(ty).clone()
    else {
        return;
    };
    let mut new_shape = vec![n];
    new_shape.extend_from_slice(&shape);
    let new_ty = ctx.get_type(lf_ir::TypeData::MemRef {
        shape: new_shape.into(),
        element,
        layout,
        memory_space,
    });
    let users: Vec<OpId> = b.body().uses(m).map(|u| b.body().use_owner(u)).collect();
    let Some(&first) = users.first() else { return };
    b.modify_in_place(first, |_, body| body.set_value_type(m, new_ty));
    // With a leading result `d_new` and `copy` as that dimension's operand.
    let widen = |map: &AffineMap| -> AffineMap {
        let nd = map.num_dims();
        let mut results = vec![AffineExpr::dim(nd)];
        results.extend(map.results().iter().cloned());
        AffineMap::new(nd + 1, map.num_symbols(), results)
    };
    for user in users {
        if let Some(l) = AffineLoadOp::cast(b, user) {
            let (map, idx) = (l.map(b).clone(), l.indices(b));
            let nd = map.num_dims() as usize;
            let mut ops: Vec<Value> = idx[..nd].to_vec();
            ops.push(copy);
            ops.extend_from_slice(&idx[nd..]);
            l.set_indices(b, &ops);
            l.set_map(b, widen(&map));
        } else if let Some(s) = AffineStoreOp::cast(b, user) {
            let (map, idx) = (s.map(b).clone(), s.indices(b));
            let nd = map.num_dims() as usize;
            let mut ops: Vec<Value> = idx[..nd].to_vec();
            ops.push(copy);
            ops.extend_from_slice(&idx[nd..]);
            s.set_indices(b, &ops);
            s.set_map(b, widen(&map));
        } else if let Some(l) = MemrefLoadOp::cast(b, user) {
            let mut ops = vec![copy];
            ops.extend(l.indices(b));
            l.set_indices(b, &ops);
        } else if let Some(s) = MemrefStoreOp::cast(b, user) {
            let mut ops = vec![copy];
            ops.extend(s.indices(b));
            s.set_indices(b, &ops);
        }
    }
}
