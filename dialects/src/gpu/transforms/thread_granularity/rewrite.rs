//! The rewrite of one launch (see the module documentation of
//! `thread_granularity`), in three steps:
//!
//! 1. **global id**: `G = block_id*B + thread_id` is computed once at the
//!    top of the kernel and every root `a*(block_id*B + thread_id) + rest`
//!    becomes `affine.apply(a*G + rest)`; the ops on the raw ids die and go.
//!    The old `blockDim`/`gridDim` along the dimension become constants.
//! 2. **copies**: the kernel's top-level ops that depend on `G` or have
//!    side effects (other than loads of memrefs nothing in the kernel
//!    stores to) are cloned once per point with `G` replaced by the point
//!    `p(j, l) = v*G' + l + j*C` (`G'` the new global id); the others are
//!    kept once and shared by all copies. Copies of points that may be past
//!    the end go, whole, into an `affine.if p < E` at the end of the kernel.
//! 3. the launch gets its new sizes, then [`super::share`] merges loads
//!    and pure ops common to the copies.

use super::legality::Plan;
use crate::affine::{AffineApplyOp, AffineIfOp, AffineLoadOp, AffineStoreOp};
use crate::arith::ArithConstantOp;
use crate::gpu::analysis::kernel_access::{LaunchIds, LinearIndex, Term};
use crate::gpu::transforms::kernel_merge::{entry_block, resize_launch};
use crate::gpu::GpuLaunchOp;
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use lf_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::view::{Ir, OpView, ValueList};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{OpId, Value};
use lf_pass::rewrite::effects;
use rustc_hash::{FxHashMap, FxHashSet};

/// The copy (point index, `j*v + l`) each cloned top-level op belongs to.
pub type CopyOf = FxHashMap<OpId, usize>;

/// `affine.apply` of `expr` over `operands` at the insertion point.
fn apply(b: &mut Builder<'_>, expr: AffineExpr, operands: &[Value]) -> Value {
    let map = AffineMap::new(operands.len() as u32, 0, vec![expr]);
    AffineApplyOp::build(b, operands, map).result(b)
}

/// `a*G + rest` for a root's linear form, at the insertion point.
fn rebuild_root(b: &mut Builder<'_>, ids: &LaunchIds, dim: usize, g: Value, form: &LinearIndex) -> Value {
    let a = form.coef(Term::Thread(dim));
    let mut operands = vec![g];
    let mut expr = AffineExpr::dim(0).mul_const(a);
    for &(t, c) in &form.terms {
        let v = match t {
            Term::Thread(d) if d == dim => continue,
            Term::Block(d) if d == dim => continue,
            Term::Thread(d) => ids.thread[d],
            Term::Block(d) => ids.block[d],
            Term::Loop(v) | Term::Invariant(v) => v,
        };
        expr = expr.add(&AffineExpr::dim(operands.len() as u32).mul_const(c));
        operands.push(v);
    }
    if a == 1 && operands.len() == 1 && form.constant == 0 {
        return g;
    }
    apply(b, expr.add_const(form.constant), &operands)
}

/// Step 1: the global id `G` and the roots rewritten over it.
fn normalize(b: &mut Builder<'_>, launch: GpuLaunchOp, plan: &Plan) -> Value {
    let dim = plan.granularity.dim;
    let ids = LaunchIds::of(b, launch);
    let entry = entry_block(b, launch);
    let g = b.guarded(|b| {
        b.set_insertion_point_to_start(entry);
        for (arg, value) in [(ids.block_dim[dim], plan.old_block), (ids.grid_dim[dim], plan.old_grid)] {
            if b.body().has_uses(arg) {
                let c = ArithConstantOp::index(b, value);
                b.replace_all_uses_with(arg, c);
            }
        }
        let expr = AffineExpr::dim(0).mul_const(plan.old_block).add(&AffineExpr::dim(1));
        apply(b, expr, &[ids.block[dim], ids.thread[dim]])
    });
    for root in &plan.roots {
        let new = b.guarded(|b| {
            b.set_insertion_point_before(root.op);
            rebuild_root(b, &ids, dim, g, &root.form)
        });
        let old = b.body().result(root.op, 0);
        b.replace_all_uses_with(old, new);
    }
    for &op in plan.id_ops.iter().rev() {
        if b.body().results(op).all(|v| !b.body().has_uses(v)) {
            b.erase_op(op);
        }
    }
    g
}

/// The memrefs some store of the kernel writes.
fn stored_memrefs<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> FxHashSet<Value> {
    let mut out = FxHashSet::default();
    walk(ir.body(), launch.op(), WalkOrder::PreOrder, &mut |b, op| {
        let irb = (ir.ctx(), b);
        if let Some(s) = AffineStoreOp::cast(&irb, op) {
            out.insert(s.memref(&irb));
        } else if let Some(s) = MemrefStoreOp::cast(&irb, op) {
            out.insert(s.memref(&irb));
        }
        WalkControl::Advance
    });
    out
}

/// Whether `op` (and everything in it) may run once for all points: no
/// side effects but loads of memrefs the kernel never stores to.
fn shareable<'c>(ir: &impl Ir<'c>, op: OpId, stored: &FxHashSet<Value>) -> bool {
    let ctx = ir.ctx();
    let mut ok = true;
    walk(ir.body(), op, WalkOrder::PreOrder, &mut |b, o| {
        let irb = (ctx, b);
        let load_of = AffineLoadOp::cast(&irb, o)
            .map(|l| l.memref(&irb))
            .or_else(|| MemrefLoadOp::cast(&irb, o).map(|l| l.memref(&irb)));
        let fine = match load_of {
            Some(m) => !stored.contains(&m),
            None => b.num_regions(o) > 0 || effects::is_effect_free(ctx, b, o),
        };
        if !fine {
            ok = false;
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    ok
}

/// The values `op` and the ops nested in it read from outside `op`.
fn outside_operands<'c>(ir: &impl Ir<'c>, op: OpId) -> Vec<Value> {
    let body = ir.body();
    let mut out = Vec::new();
    walk(body, op, WalkOrder::PreOrder, &mut |b, o| {
        out.extend(b.operands(o).filter(|v| o == op || !b.is_defined_inside(*v, op)));
        WalkControl::Advance
    });
    out
}

/// Step 2 and the new sizes; returns the copy of each cloned op.
pub fn rewrite(b: &mut Builder<'_>, launch: GpuLaunchOp, plan: &Plan) -> CopyOf {
    let mapping = plan.mapping;
    let dim = plan.granularity.dim;
    let g = normalize(b, launch, plan);
    let g_def = b.body().defining_op(g).expect("G is an affine.apply");
    let entry = entry_block(b, launch);
    let stored = stored_memrefs(b, launch);
    // Which top-level ops are per point.
    let mut ops: Vec<OpId> = b.body().block_ops(entry).collect();
    let terminator = ops.pop().expect("the kernel ends with gpu.terminator");
    let mut per_point_values: FxHashSet<Value> = [g].into_iter().collect();
    let mut per_point: Vec<OpId> = Vec::new();
    for &op in &ops {
        if op == g_def {
            continue;
        }
        let depends = outside_operands(b, op).iter().any(|v| per_point_values.contains(v));
        if depends || !shareable(b, op, &stored) {
            per_point.push(op);
            per_point_values.extend(b.body().results(op));
        }
    }
    // The new global id and the points.
    resize_launch(b, launch, dim, mapping.grid, mapping.block);
    let ids = LaunchIds::of(b, launch);
    let copies: Vec<(i64, i64)> = mapping.copies().collect();
    let (g_new, points) = b.guarded(|b| {
        b.set_insertion_point_after(g_def);
        let expr = AffineExpr::dim(0).mul_const(mapping.block).add(&AffineExpr::dim(1));
        let g_new = apply(b, expr, &[ids.block[dim], ids.thread[dim]]);
        let points: Vec<Value> = copies
            .iter()
            .map(|&(j, l)| match (mapping.lanes, mapping.offset(j, l)) {
                (1, 0) => g_new,
                (v, off) => apply(b, AffineExpr::dim(0).mul_const(v).add_const(off), &[g_new]),
            })
            .collect();
        (g_new, points)
    });
    let mut maps: Vec<ValueMap> = points
        .iter()
        .map(|&p| {
            let mut m = ValueMap::default();
            m.map(g, p);
            m
        })
        .collect();
    let guarded: Vec<bool> = copies.iter().map(|&(j, l)| mapping.guarded(j, l)).collect();
    let mut copy_of = CopyOf::default();
    for &op in &per_point {
        b.guarded(|b| {
            b.set_insertion_point_before(op);
            for (c, map) in maps.iter_mut().enumerate() {
                if !guarded[c] {
                    let new = b.clone_op(op, map);
                    copy_of.insert(new, c);
                }
            }
        });
    }
    for (c, &(j, l)) in copies.iter().enumerate() {
        if !guarded[c] {
            continue;
        }
        // p = v*G' + off < E  <=>  E - 1 - off - v*G' >= 0
        let bound = mapping.extent - 1 - mapping.offset(j, l);
        let set = IntegerSet::new(
            1,
            0,
            vec![AffineExpr::dim(0).mul_const(-mapping.lanes).add_const(bound)],
            vec![false],
        );
        let map = &mut maps[c];
        b.guarded(|b| {
            b.set_insertion_point_before(terminator);
            AffineIfOp::build(
                b,
                set,
                &[g_new],
                &[],
                |b| {
                    for &op in &per_point {
                        let new = b.clone_op(op, map);
                        copy_of.insert(new, c);
                    }
                    ValueList::new()
                },
                None,
            );
        });
    }
    for &op in per_point.iter().rev() {
        b.erase_op(op);
    }
    if !b.body().has_uses(g) {
        b.erase_op(g_def);
    }
    copy_of
}
