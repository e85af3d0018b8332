//! `thread-merge{dim=x|y factor=N}`: each thread does the work of the N
//! threads with its thread id in N neighbouring blocks along `dim`
//! (DIGEST §004.6, Fig. 6/7); the block keeps its size, the grid shrinks
//! N times.
//!
//! Copy `c` of the work sees the old block id `bid'·N + c`. The kernel
//! is rebuilt op by op from the values that depend on the merged block id
//! ([`dependent_values`]): an op that does not depend on it (the loads that
//! cause the sharing, address arithmetic, barriers) is emitted **once** and
//! its value reused by every copy; a loop whose bounds do not depend on it
//! is emitted once with its dependent `iter_args` replicated (one
//! accumulator per copy), likewise an `affine.if` with an independent
//! condition; every other op is emitted N times with its operands renamed
//! per copy. A workgroup array written with a dependent value or index
//! gets one copy per merged block (Fig. 7's `shared0_0 .. shared0_31`).
//! Control flow that depends on the merged index is replicated whole when
//! it holds no barrier, and the kernel is left alone otherwise.
//!
//! With `within-block=true` the N threads are those of the thread's own
//! block at `tid + c·(B/N)` (`B` the block size along `dim`): the block
//! shrinks N times, the grid keeps its size, and the copies are rebuilt
//! from the values that depend on the thread id. Workgroup arrays are never
//! replicated (they are the block's: the copies write the elements their
//! threads wrote), and `blockDim` reads the old size. Running the N
//! threads' work one after the other between the same barriers is one of
//! the schedules the block could already run, so the result is the same
//! for any kernel without races (lf-run checks for them).

use super::{axis, contains_barrier, parse_merge_options, resize_launch, unsupported_op, DIM_OPTION, FACTOR_OPTION};
use crate::affine::{AffineApplyOp, AffineForOp, AffineIfOp};
use crate::arith::ArithConstantOp;
use crate::gpu::analysis::kernel_access::LaunchIds;
use crate::gpu::analysis::sharing::{dependent_values, values_depending_on};
use crate::gpu::{GpuLaunchOp, WORKGROUP_ATTRIBUTIONS_ATTR};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::view::{Ir, OpView, ValueList};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{BlockId, Body, Context, OpId, Value};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use rustc_hash::FxHashSet;

/// The registration record of `thread-merge`.
pub static INFO: PassInfo = PassInfo {
    name: "thread-merge",
    summary: "Make each thread of a gpu.launch do the work of N threads of neighbouring blocks (seed 004 step 5)",
    description: "Seed 004's thread merge (register tiling). Every inline `gpu.launch` with constant sizes \
whose grid along `dim` divides by `factor` N gets a grid N times smaller along `dim` (the block keeps \
its size); each thread does the work of the threads with its thread id in the N old blocks \
`bid*N + c` (c = 0..N-1). Ops that do not depend on the merged block id (the loads that cause the \
sharing, address arithmetic, barriers, loop control) are kept once and their values reused by the N \
copies; loops with independent bounds are kept once with their dependent `iter_args` replicated \
(one accumulator per copy), likewise `affine.if` with an independent condition; every other op is \
replicated N times with its values renamed; a workgroup array written with a dependent value or \
index is replicated per copy (seed Fig. 7). Control flow depending on the merged id is replicated \
whole when it holds no barrier. Left unchanged, with a remark: sizes that are not constant, a grid \
that does not divide, atomics or other ops with unknown effects, a barrier under control flow \
that depends on the merged id, private attributions (per-thread arrays the copies would share). \
With `within-block=true` the N threads are those of the thread's own block at `tid + c*(B/N)`: the \
block shrinks N times along `dim` (it must divide by N), the grid keeps its size, workgroup arrays are \
not replicated and `blockDim` reads the old size (on coalesce-via-shared's 32x32 transposed tile: the \
hand-written tiled transpose, 32x8 threads of four rows each).",
    anchor: Anchor::Op("func.func"),
    options: THREAD_MERGE_OPTIONS,
    create,
};

/// `dim`, `factor`, and `within-block`.
static THREAD_MERGE_OPTIONS: &[PassOption] = &[
    DIM_OPTION,
    FACTOR_OPTION,
    PassOption {
        name: "within-block",
        kind: OptionKind::Bool,
        default: "false",
        help: "Merge the threads of the thread's own block at tid + c*(B/N) instead of those of N neighbouring blocks: the block shrinks N times, the grid keeps its size, workgroup arrays are not replicated",
    },
];

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let (dim, factor) = parse_merge_options(opts)?;
    let within_block = opts.bool("within-block");
    Ok(Box::new(ThreadMerge {
        dim,
        factor,
        within_block,
    }))
}

/// The `thread-merge` pass.
pub struct ThreadMerge {
    /// 0 for x, 1 for y.
    pub dim: usize,
    /// How many threads each thread does the work of.
    pub factor: i64,
    /// Merge threads of the same block (`within-block=true`).
    pub within_block: bool,
}

/// What thread merge does to one launch, decided before changing it.
#[derive(Debug)]
pub struct ThreadMergePlan {
    dim: usize,
    factor: i64,
    old_grid: i64,
    /// The block size along `dim` before the merge.
    old_block: i64,
    /// The merged threads are the thread's own block's.
    within_block: bool,
    /// Values depending on the merged block id (thread id within a block).
    dep: FxHashSet<Value>,
    /// Ops that are or contain something dependent.
    touched: FxHashSet<OpId>,
    /// Workgroup arrays to replicate.
    replicated: Vec<Value>,
    /// Ops emitted once.
    kept_once: usize,
    /// Ops replicated.
    replicated_ops: usize,
}

impl ThreadMergePlan {
    /// The remark describing the merge.
    pub fn describe(&self) -> String {
        if self.within_block {
            let stride = self.old_block / self.factor;
            return format!(
                "thread-merge: each thread does the work of {} threads of its block along {} (t{a} + {stride}*c): block {} -> {}; {} op(s) kept once, {} replicated",
                self.factor,
                axis(self.dim),
                self.old_block,
                stride,
                self.kept_once,
                self.replicated_ops,
                a = axis(self.dim),
            );
        }
        format!(
            "thread-merge: each thread does the work of {} blocks along {}: grid {} -> {}; {} op(s) kept once, {} replicated, {} workgroup array(s) replicated",
            self.factor,
            axis(self.dim),
            self.old_grid,
            self.old_grid / self.factor,
            self.kept_once,
            self.replicated_ops,
            self.replicated.len()
        )
    }
}

/// Whether the op's own operands (bounds, conditions, inputs) depend on
/// the merged id.
fn operands_dep(body: &Body, op: OpId, dep: &FxHashSet<Value>) -> bool {
    body.operands(op).any(|v| dep.contains(&v))
}

/// Decides whether `launch` can be thread-merged along `dim` by `factor`
/// (threads of neighbouring blocks).
pub fn plan_thread_merge<'c>(
    ir: &impl Ir<'c>,
    launch: GpuLaunchOp,
    dim: usize,
    factor: i64,
) -> Result<ThreadMergePlan, String> {
    plan(ir, launch, dim, factor, false)
}

/// [`plan_thread_merge`], or with `within_block` the merge of `factor`
/// threads of the thread's own block along `dim`.
fn plan<'c>(
    ir: &impl Ir<'c>,
    launch: GpuLaunchOp,
    dim: usize,
    factor: i64,
    within_block: bool,
) -> Result<ThreadMergePlan, String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let ids = LaunchIds::of(ir, launch);
    let (old_block, old_grid) = if within_block {
        super::block_merge_sizes(&ids, dim, factor)?
    } else {
        super::merge_sizes(&ids, dim, factor)?
    };
    if let Some(why) = unsupported_op(ir, launch) {
        return Err(format!("not merged: {why}"));
    }
    let (dep, replicated) = if within_block {
        (values_depending_on(ir, launch, launch.thread_ids(ir)[dim]), Vec::new())
    } else {
        let dep = dependent_values(ir, launch, dim);
        let replicated: Vec<Value> = launch
            .workgroup_attributions(ir)
            .into_iter()
            .filter(|w| dep.contains(w))
            .collect();
        (dep, replicated)
    };
    if !launch.private_attributions(ir).is_empty() {
        // A per-thread array would be shared by the merged copies of a thread.
        return Err(
            "not merged: the kernel has private attributions (per-thread arrays the merged copies would share)".into(),
        );
    }
    // Touched ops: dependent operands or results, or containing one.
    let mut touched: FxHashSet<OpId> = FxHashSet::default();
    let mut err = None;
    walk(body, launch.op(), WalkOrder::PostOrder, &mut |b, op| {
        if op == launch.op() {
            return WalkControl::Advance;
        }
        let own = operands_dep(b, op, &dep) || b.results(op).any(|v| dep.contains(&v));
        if own {
            let mut p = Some(op);
            while let Some(o) = p {
                if o == launch.op() || !touched.insert(o) {
                    break;
                }
                p = b.parent_op(o);
            }
        }
        WalkControl::Advance
    });
    let (mut once, mut many) = (0usize, 0usize);
    let entry = super::entry_block(ir, launch);
    classify_block(ctx, body, entry, &dep, &touched, &mut once, &mut many, &mut err);
    if let Some(e) = err {
        return Err(e);
    }
    Ok(ThreadMergePlan {
        dim,
        factor,
        old_grid,
        old_block,
        within_block,
        dep,
        touched,
        replicated,
        kept_once: once,
        replicated_ops: many,
    })
}

/// How an op is emitted.
#[derive(PartialEq, Eq)]
enum Emit {
    Once,
    Loop,
    If,
    Replicate,
}

fn how<'c>(ir: &impl Ir<'c>, op: OpId, dep: &FxHashSet<Value>, touched: &FxHashSet<OpId>) -> Emit {
    let body = ir.body();
    if !touched.contains(&op) {
        return Emit::Once;
    }
    if body.num_regions(op) == 0 {
        return Emit::Replicate;
    }
    if AffineForOp::isa(ir, op) && !operands_dep_bounds(ir, op, dep) {
        return Emit::Loop;
    }
    if AffineIfOp::isa(ir, op) && body.results(op).next().is_none() && !operands_dep(body, op, dep) {
        return Emit::If;
    }
    Emit::Replicate
}

/// Whether an `affine.for`'s bounds depend on the merged id.
fn operands_dep_bounds<'c>(ir: &impl Ir<'c>, op: OpId, dep: &FxHashSet<Value>) -> bool {
    let f = AffineForOp::cast(ir, op).expect("an affine.for");
    f.lower_bound(ir)
        .operands
        .iter()
        .chain(f.upper_bound(ir).operands.iter())
        .any(|v| dep.contains(v))
}

#[allow(clippy::too_many_arguments)]
fn classify_block(
    ctx: &Context,
    body: &Body,
    block: BlockId,
    dep: &FxHashSet<Value>,
    touched: &FxHashSet<OpId>,
    once: &mut usize,
    many: &mut usize,
    err: &mut Option<String>,
) {
    let ir = (ctx, body);
    for op in body.block_ops(block) {
        match how(&ir, op, dep, touched) {
            Emit::Once => *once += 1,
            Emit::Loop | Emit::If => {
                *once += 1;
                for &r in body.regions(op) {
                    for blk in body.region_blocks(r) {
                        classify_block(ctx, body, blk, dep, touched, once, many, err);
                    }
                }
            }
            Emit::Replicate => {
                *many += 1;
                if body.num_regions(op) > 0 && contains_barrier(ctx, body, op) {
                    *err = Some(format!(
                        "not merged: a barrier under a '{}' whose control depends on the merged block index",
                        ctx.op_name_str(body.op_name(op))
                    ));
                }
            }
        }
    }
}

/// Applies a plan made by [`plan_thread_merge`] to `launch`.
pub fn apply_thread_merge(b: &mut Builder<'_>, launch: GpuLaunchOp, plan: &ThreadMergePlan) {
    let (dim, n) = (plan.dim, plan.factor as usize);
    if plan.within_block {
        resize_launch(b, launch, dim, plan.old_grid, plan.old_block / plan.factor);
    } else {
        resize_launch(b, launch, dim, plan.old_grid / plan.factor, plan.old_block);
    }
    let entry = super::entry_block(b, launch);
    let old_ops: Vec<OpId> = b.body().block_ops(entry).collect();
    // Replicated workgroup arrays: new attributions at the end.
    let mut maps: Vec<ValueMap> = vec![ValueMap::default(); n];
    let loc = b.body().op_loc(launch.op());
    let old_count = launch.num_workgroup_attributions(b);
    for &w in &plan.replicated {
        let ty = b.body().value_type(w);
        for m in maps.iter_mut().skip(1) {
            let arg = b.body_mut().add_block_arg(entry, ty, loc);
            m.map(w, arg);
        }
    }
    if !plan.replicated.is_empty() {
        let count = old_count + plan.replicated.len() * (n - 1);
        let ctx = b.ctx();
        let attr = ctx.integer_attr(count as i128, ctx.common().i64);
        b.set_discardable_attr(launch.op(), WORKGROUP_ATTRIBUTIONS_ATTR, Some(attr));
    }
    b.guarded(|b| {
        b.set_insertion_point_before(old_ops[0]);
        if plan.within_block {
            // Copy c is the old thread tid + c*(B/N); blockDim the old B.
            let tid = launch.thread_ids(b)[dim];
            let bdim = launch.block_size_args(b)[dim];
            let old_b = ArithConstantOp::index(b, plan.old_block);
            let stride = plan.old_block / plan.factor;
            for (c, m) in maps.iter_mut().enumerate() {
                if c > 0 {
                    let map = AffineMap::new(1, 0, vec![AffineExpr::dim(0).add_const(c as i64 * stride)]);
                    let old = AffineApplyOp::build(b, &[tid], map).result(b);
                    m.map(tid, old);
                }
                m.map(bdim, old_b);
            }
        } else {
            let bid = launch.block_ids(b)[dim];
            let gdim = launch.grid_size_args(b)[dim];
            let g = ArithConstantOp::index(b, plan.old_grid);
            for (c, m) in maps.iter_mut().enumerate() {
                let map = AffineMap::new(
                    1,
                    0,
                    vec![AffineExpr::dim(0).mul_const(plan.factor).add_const(c as i64)],
                );
                let old = AffineApplyOp::build(b, &[bid], map).result(b);
                m.map(bid, old);
                m.map(gdim, g);
            }
        }
        let ops: Vec<OpId> = old_ops[..old_ops.len() - 1].to_vec();
        let mut em = Emitter { plan, maps: &mut maps };
        em.ops(b, &ops);
    });
    for &op in old_ops[..old_ops.len() - 1].iter().rev() {
        b.erase_op(op);
    }
    // The old grid (block) size, when nothing used `gridDim` (`blockDim`).
    let entry_first = b.body().block_ops(entry).next();
    if let Some(first) = entry_first {
        if ArithConstantOp::isa(b, first) && b.body().results(first).all(|v| !b.body().has_uses(v)) {
            b.erase_op(first);
        }
    }
}

struct Emitter<'p, 'm> {
    plan: &'p ThreadMergePlan,
    maps: &'m mut Vec<ValueMap>,
}

impl Emitter<'_, '_> {
    fn n(&self) -> usize {
        self.maps.len()
    }

    /// Emits `ops` (no terminator) at the builder's insertion point.
    fn ops(&mut self, b: &mut Builder<'_>, ops: &[OpId]) {
        for &op in ops {
            match how(b, op, &self.plan.dep, &self.plan.touched) {
                Emit::Once => {
                    let new = b.clone_op(op, &mut self.maps[0]);
                    let pairs: Vec<(Value, Value)> = b.body().results(op).zip(b.body().results(new)).collect();
                    for m in self.maps.iter_mut().skip(1) {
                        for &(o, nv) in &pairs {
                            m.map(o, nv);
                        }
                    }
                }
                Emit::Replicate => {
                    for c in 0..self.n() {
                        b.clone_op(op, &mut self.maps[c]);
                    }
                }
                Emit::Loop => self.emit_loop(b, op),
                Emit::If => self.emit_if(b, op),
            }
        }
    }

    /// The ops of `block` but its terminator, and the terminator.
    fn block_ops(b: &Builder<'_>, block: BlockId) -> (Vec<OpId>, OpId) {
        let mut ops: Vec<OpId> = b.body().block_ops(block).collect();
        let term = ops.pop().expect("a terminator");
        (ops, term)
    }

    fn emit_loop(&mut self, b: &mut Builder<'_>, op: OpId) {
        let f = AffineForOp::cast(b, op).expect("an affine.for");
        let mut lb = f.lower_bound(b);
        let mut ub = f.upper_bound(b);
        lb.operands = lb.operands.iter().map(|v| self.maps[0].lookup(*v)).collect();
        ub.operands = ub.operands.iter().map(|v| self.maps[0].lookup(*v)).collect();
        let step = f.step(b);
        let iv = f.iv(b);
        let args: Vec<Value> = f.region_iter_args(b).to_vec();
        let inits: Vec<Value> = f.inits(b).to_vec();
        let results: Vec<Value> = b.body().results(op).collect();
        let dep = &self.plan.dep;
        let per: Vec<bool> = args.iter().map(|a| dep.contains(a)).collect();
        let mut new_inits = Vec::new();
        for (k, init) in inits.iter().enumerate() {
            if per[k] {
                for c in 0..self.n() {
                    new_inits.push(self.maps[c].lookup(*init));
                }
            } else {
                new_inits.push(self.maps[0].lookup(*init));
            }
        }
        let block = f.region_block(b);
        let (inner, yield_op) = Self::block_ops(b, block);
        let yields: Vec<Value> = b.body().operands(yield_op).collect();
        let n = self.n();
        let saved_loc = b.loc();
        b.set_loc_of(op);
        let new_for = AffineForOp::build(b, lb, ub, step, &new_inits, |b, niv, nargs| {
            let mut k = 0;
            for (a, &is_dep) in args.iter().zip(&per) {
                if is_dep {
                    for c in 0..n {
                        self.maps[c].map(*a, nargs[k]);
                        k += 1;
                    }
                } else {
                    for m in self.maps.iter_mut() {
                        m.map(*a, nargs[k]);
                    }
                    k += 1;
                }
            }
            for m in self.maps.iter_mut() {
                m.map(iv, niv);
            }
            self.ops(b, &inner);
            let mut out = ValueList::new();
            for (y, &is_dep) in yields.iter().zip(&per) {
                if is_dep {
                    for c in 0..n {
                        out.push(self.maps[c].lookup(*y));
                    }
                } else {
                    out.push(self.maps[0].lookup(*y));
                }
            }
            out
        });
        b.set_loc(saved_loc);
        let new_results: Vec<Value> = b.body().results(new_for.op()).collect();
        let mut k = 0;
        for (r, &is_dep) in results.iter().zip(&per) {
            if is_dep {
                for c in 0..n {
                    self.maps[c].map(*r, new_results[k]);
                    k += 1;
                }
            } else {
                for m in self.maps.iter_mut() {
                    m.map(*r, new_results[k]);
                }
                k += 1;
            }
        }
    }

    fn emit_if(&mut self, b: &mut Builder<'_>, op: OpId) {
        let i = AffineIfOp::cast(b, op).expect("an affine.if");
        let set = i.condition(b).clone();
        let operands: Vec<Value> = i.operands(b).iter().map(|v| self.maps[0].lookup(*v)).collect();
        let then_block = i.then_block(b);
        let else_block = i.else_block(b);
        let (then_ops, _) = Self::block_ops(b, then_block);
        let else_ops = else_block.map(|e| Self::block_ops(b, e).0);
        let new_if = AffineIfOp::build(b, set, &operands, &[], |_| ValueList::new(), None);
        let then_new = new_if.then_block(b);
        let term = b.body().terminator(then_new).expect("a yield");
        b.guarded(|b| {
            b.set_insertion_point_before(term);
            self.ops(b, &then_ops);
        });
        if let Some(ops) = else_ops {
            let else_region = new_if.else_region(b);
            let blk = b.create_block(else_region, &[]);
            b.guarded(|b| {
                b.set_insertion_point_to_end(blk);
                self.ops(b, &ops);
                crate::affine::AffineYieldOp::build(b, &[]);
            });
        }
    }
}

impl Pass for ThreadMerge {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        super::merge_each_launch(
            op,
            am,
            "thread-merge",
            |ir, launch| plan(ir, launch, self.dim, self.factor, self.within_block),
            apply_thread_merge,
            |plan| plan.describe(),
        )
    }
}
