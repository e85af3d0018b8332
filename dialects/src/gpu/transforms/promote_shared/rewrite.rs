//! The rewrite of one planned loop: the loop staged by its chunk
//! (`gpu/utils/staged_loop.rs`), a cooperative copy per promoted array at
//! the top of each chunk, and the array's loads reading the copy.
//!
//! ```text
//! affine.for %i = lb to ub step C*st {
//!   affine.for %q = 0 to ceil(U/P) {          // U units of W elements, P threads
//!     // u = linear thread id + P*q; box coordinates of e = u*W: (e floordiv S_d) mod E_d
//!     affine.if (u < U) {                     // only when P does not divide U
//!       // W = 1: affine.load; W > 1: vector.load and W extracts. With a
//!       // bounds guard: under affine.if (unit inside the array), zeros else.
//!       %v = affine.load %A[corner_d(%i) + coord_d(e)]
//!       affine.store %v, %sA[position_d(coord(e))]
//!     }
//!   }
//!   gpu.barrier
//!   affine.for %j = 0 to C { ... affine.load %sA[local_d + c_d*st*%j - lo_d] ... }
//!   gpu.barrier
//! }
//! ```

use super::plan::{BoxSide, LaunchPlan, LoopPlan, Promotion};
use crate::affine::{AffineApplyOp, AffineBound, AffineForOp, AffineIfOp, AffineLoadOp, AffineStoreOp};
use crate::arith::ArithConstantOp;
use crate::gpu::analysis::kernel_access::{LaunchIds, LinearIndex, Term};
use crate::gpu::utils::staged_loop::stage_loop;
use crate::gpu::utils::workgroup_buffer::add_workgroup_buffer;
use crate::vector::{vector_type, VectorExtractOp, VectorLoadOp};
use lf_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{OpId, TypeData, Value};

/// The operands of the maps the rewrite builds: dims first, then symbols
/// (thread and block ids, as the kernel passes write them).
#[derive(Default)]
struct Operands {
    dims: Vec<Value>,
    symbols: Vec<Value>,
}

impl Operands {
    /// The expression of dim `v`, adding it when new.
    fn dim(&mut self, v: Value) -> AffineExpr {
        let pos = self.dims.iter().position(|&d| d == v).unwrap_or_else(|| {
            self.dims.push(v);
            self.dims.len() - 1
        });
        AffineExpr::dim(pos as u32)
    }

    /// The expression of symbol `v`, adding it when new.
    fn symbol(&mut self, v: Value) -> AffineExpr {
        let pos = self.symbols.iter().position(|&d| d == v).unwrap_or_else(|| {
            self.symbols.push(v);
            self.symbols.len() - 1
        });
        AffineExpr::symbol(pos as u32)
    }

    /// `l` as an expression: thread and block ids as symbols, loop
    /// indices as dims.
    fn linear(&mut self, ids: &LaunchIds, l: &LinearIndex) -> AffineExpr {
        let mut e = AffineExpr::constant(l.constant);
        for &(t, c) in &l.terms {
            let x = match t {
                Term::Thread(d) => self.symbol(ids.thread[d]),
                Term::Block(d) => self.symbol(ids.block[d]),
                Term::Loop(v) => self.dim(v),
                Term::Invariant(v) => self.symbol(v),
            };
            e = e.add(&x.mul_const(c));
        }
        e
    }

    /// A map of `results` over these operands.
    fn map(&self, results: Vec<AffineExpr>) -> AffineMap {
        AffineMap::new(self.dims.len() as u32, self.symbols.len() as u32, results)
    }

    /// The operand list, dims then symbols.
    fn values(&self) -> Vec<Value> {
        [self.dims.as_slice(), self.symbols.as_slice()].concat()
    }
}

/// Applies `plan`: a workgroup buffer per promoted array, then every
/// planned loop rewritten to copy into them and read them.
pub fn rewrite_launch(b: &mut Builder<'_>, plan: &LaunchPlan) {
    let buffers: Vec<Vec<Value>> = plan
        .loops
        .iter()
        .map(|l| {
            l.arrays
                .iter()
                .map(|a| add_workgroup_buffer(b, plan.launch, a.memref, &a.buffer_shape))
                .collect()
        })
        .collect();
    for (l, bufs) in plan.loops.iter().zip(&buffers) {
        rewrite_loop(b, plan, l, bufs);
    }
}

/// Stages one loop and points its promoted loads at `buffers`.
fn rewrite_loop(b: &mut Builder<'_>, plan: &LaunchPlan, l: &LoopPlan, buffers: &[Value]) {
    if let Some(g) = l.guard {
        leave_guard(b, g, l.for_op.op());
    }
    let step = l.for_op.step(b);
    let staged = stage_loop(b, l.for_op, l.chunk, |b, i| {
        for (p, &buf) in l.arrays.iter().zip(buffers) {
            emit_copy(b, plan, p, buf, i);
        }
    });
    let j = staged.inner.iv(b);
    for (p, &buf) in l.arrays.iter().zip(buffers) {
        for (load, local) in p.loads.iter().zip(&p.local) {
            let at = load.op();
            b.set_insertion_point_before(at);
            b.set_loc_of(at);
            let mut ops = Operands::default();
            let jd = ops.dim(j);
            let coords: Vec<AffineExpr> = p
                .sides
                .iter()
                .zip(local)
                .enumerate()
                .map(|(d, (s, loc))| match p.contiguous {
                    Some(c) if c.side == d => {
                        // t + S·r goes to (r floordiv V)·S·V + t·V + r mod V.
                        let r = (loc.constant - s.lo) / c.threads;
                        let thread = LinearIndex {
                            terms: loc.terms.clone(),
                            constant: 0,
                        };
                        ops.linear(&plan.ids, &thread)
                            .mul_const(c.width)
                            .add_const(r.div_euclid(c.width) * c.threads * c.width + r.rem_euclid(c.width))
                    }
                    _ => ops
                        .linear(&plan.ids, loc)
                        .add(&jd.mul_const(s.loop_coef * step))
                        .add_const(-s.lo),
                })
                .collect();
            let map = ops.map(buffer_order(p, coords));
            let new = AffineLoadOp::build(b, buf, &ops.values(), map).result(b);
            let old = load.result(b);
            b.replace_all_uses_with(old, new);
            b.erase_op(at);
        }
    }
}

/// Moves loop `f` out of the bound guard `g` (its parent), with the ops
/// before it in the guard's then block (side-effect free, checked by the
/// plan): they now run for every thread, the ops after the loop stay
/// guarded.
pub fn leave_guard(b: &mut Builder<'_>, g: OpId, f: OpId) {
    let then = AffineIfOp::cast(b, g)
        .expect("a planned guard is an affine.if")
        .then_block(b);
    let before: Vec<OpId> = b.body().block_ops(then).take_while(|&o| o != f).collect();
    for o in before {
        b.move_op_before(o, g);
    }
    b.move_op_before(f, g);
}

/// The linear id of a thread in its block, `tx + bx*(ty + by*tz)`.
fn linear_thread_id(ops: &mut Operands, ids: &LaunchIds, block: [i64; 3]) -> AffineExpr {
    let [tx, ty, tz] = ids.thread;
    let mut e = ops.symbol(tx);
    if block[1] > 1 {
        e = e.add(&ops.symbol(ty).mul_const(block[0]));
    }
    if block[2] > 1 {
        e = e.add(&ops.symbol(tz).mul_const(block[0] * block[1]));
    }
    e
}

/// The box coordinates of element `e` (row-major, the innermost side
/// contiguous).
fn coordinates(sides: &[BoxSide], e: &AffineExpr) -> Vec<AffineExpr> {
    let mut stride = 1i64;
    let mut out = vec![AffineExpr::constant(0); sides.len()];
    for (d, s) in sides.iter().enumerate().rev() {
        let q = if stride == 1 {
            e.clone()
        } else {
            e.floor_div_const(stride)
        };
        out[d] = if d == 0 { q } else { q.modulo_const(s.extent) };
        stride *= s.extent;
    }
    out
}

/// The box coordinates with the thread-contiguous side (if any) mapped to
/// its position, `(ρ floordiv (S·V))·S·V + (ρ mod S)·V + (ρ floordiv S) mod V`.
fn stored_coordinates(p: &Promotion, mut coords: Vec<AffineExpr>) -> Vec<AffineExpr> {
    if let Some(c) = p.contiguous {
        let rho = coords[c.side].clone();
        let group = c.threads * c.width;
        coords[c.side] = rho
            .floor_div_const(group)
            .mul_const(group)
            .add(&rho.modulo_const(c.threads).mul_const(c.width))
            .add(&rho.floor_div_const(c.threads).modulo_const(c.width));
    }
    coords
}

/// Buffer subscripts from box-side subscripts: the thread-contiguous side
/// (if any) moved innermost.
fn buffer_order(p: &Promotion, mut coords: Vec<AffineExpr>) -> Vec<AffineExpr> {
    if let Some(c) = p.contiguous {
        let e = coords.remove(c.side);
        coords.push(e);
    }
    coords
}

/// Emits the cooperative copy of `p`'s box for the chunk starting at `i`:
/// unit `u = l + P*q` of the box (`l` the linear thread id, `P` the
/// threads) is its `copy_width` elements from `u*copy_width` on, read with
/// one load (a `vector.load` when wider than 1) and stored one by one.
fn emit_copy(b: &mut Builder<'_>, plan: &LaunchPlan, p: &Promotion, buf: Value, i: Value) {
    let threads: i64 = plan.block.iter().product();
    let width = p.copy_width;
    let units: i64 = p.sides.iter().map(|s| s.extent).product::<i64>() / width;
    let rounds = (units + threads - 1) / threads;
    AffineForOp::build(
        b,
        AffineBound::constant(0),
        AffineBound::constant(rounds),
        1,
        &[],
        |b, q, _| {
            let mut ops = Operands::default();
            let (chunk_start, qd) = (ops.dim(i), ops.dim(q));
            let unit = linear_thread_id(&mut ops, &plan.ids, plan.block).add(&qd.mul_const(threads));
            let coords = coordinates(&p.sides, &unit.mul_const(width));
            let global: Vec<AffineExpr> = p
                .sides
                .iter()
                .zip(&coords)
                .map(|(s, c)| {
                    ops.linear(&plan.ids, &s.uniform)
                        .add(&chunk_start.mul_const(s.loop_coef))
                        .add_const(s.lo)
                        .add(c)
                })
                .collect();
            let load_map = ops.map(global);
            let store_maps: Vec<AffineMap> = (0..width)
                .map(|k| {
                    let mut at = coords.clone();
                    let last = at.len() - 1;
                    at[last] = at[last].add_const(k);
                    ops.map(buffer_order(p, stored_coordinates(p, at)))
                })
                .collect();
            let bounds = p.bounds_guard.then(|| {
                // 0 <= g_d <= size_d - 1, and the unit's last element inside.
                let mut cons = Vec::new();
                for (d, g) in load_map.results().iter().enumerate() {
                    let last = if d + 1 == p.sides.len() { p.copy_width - 1 } else { 0 };
                    cons.push(g.clone());
                    cons.push(g.neg().add_const(p.shape[d] - 1 - last));
                }
                let n = cons.len();
                IntegerSet::new(ops.dims.len() as u32, ops.symbols.len() as u32, cons, vec![false; n])
            });
            let operands = ops.values();
            let copy = |b: &mut Builder<'_>| {
                emit_unit(b, p, buf, &operands, &load_map, &store_maps, bounds.clone());
                ValueList::new()
            };
            if units % threads == 0 {
                copy(b);
            } else {
                // unit <= units - 1
                let cond = unit.neg().add_const(units - 1);
                let set = IntegerSet::new(ops.dims.len() as u32, ops.symbols.len() as u32, vec![cond], vec![false]);
                AffineIfOp::build(b, set, &ops.values(), &[], copy, None);
            }
            ValueList::new()
        },
    );
}

/// One unit of a copy: the load at `load_map`, its elements stored at
/// `store_maps` (one per element); under `bounds`, zeros are stored where
/// the unit lies outside them (a guard without results: the emitters
/// take no vector-valued `affine.if`).
fn emit_unit(
    b: &mut Builder<'_>,
    p: &Promotion,
    buf: Value,
    operands: &[Value],
    load_map: &AffineMap,
    store_maps: &[AffineMap],
    bounds: Option<IntegerSet>,
) {
    let element = match b.ctx().type_data(b.body().value_type(p.memref)) {
        TypeData::MemRef { element, .. } => *element,
        _ => unreachable!("a promoted array is a memref"),
    };
    let width = p.copy_width;
    let copy = |b: &mut Builder<'_>| -> ValueList {
        if width == 1 {
            let v = AffineLoadOp::build(b, p.memref, operands, load_map.clone()).result(b);
            AffineStoreOp::build(b, v, buf, operands, store_maps[0].clone());
            return ValueList::new();
        }
        let indices: Vec<Value> = (0..load_map.num_results())
            .map(|d| AffineApplyOp::build(b, operands, load_map.get_sub_map(&[d])).result(b))
            .collect();
        let ty = vector_type(b.ctx(), width, element);
        let v = VectorLoadOp::build(b, p.memref, &indices, ty).result(b);
        for (k, map) in store_maps.iter().enumerate() {
            let x = VectorExtractOp::build(b, v, &[], &[k as i64]).result(b);
            AffineStoreOp::build(b, x, buf, operands, map.clone());
        }
        ValueList::new()
    };
    match bounds {
        None => {
            copy(b);
        }
        Some(set) => {
            let mut zeros = |b: &mut Builder<'_>| -> ValueList {
                let z = ArithConstantOp::zero(b, element).expect("promoted arrays hold numbers");
                for map in store_maps {
                    AffineStoreOp::build(b, z, buf, operands, map.clone());
                }
                ValueList::new()
            };
            AffineIfOp::build(b, set, operands, &[], copy, Some(&mut zeros));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::transforms::promote_shared::plan::ThreadContiguous;

    /// A promotion with one thread-contiguous side of `s * r` elements.
    fn promotion(s: i64, width: i64, r: i64) -> Promotion {
        Promotion {
            memref: Value::from_index(0),
            loads: Vec::new(),
            local: Vec::new(),
            sides: vec![BoxSide {
                uniform: LinearIndex::default(),
                loop_coef: 0,
                lo: 0,
                extent: s * r,
            }],
            contiguous: Some(ThreadContiguous {
                side: 0,
                threads: s,
                width,
            }),
            copy_width: 1,
            bounds_guard: false,
            shape: vec![s * r],
            buffer_shape: vec![s * r],
            reuse: 1.0,
        }
    }

    #[test]
    fn thread_contiguous_layout_is_a_bijection_with_neighbouring_reads() {
        for s in [2, 4, 8, 16, 32] {
            for width in [2, 4] {
                for r in (width..=16).step_by(width as usize) {
                    let p = promotion(s, width, r);
                    let pos = stored_coordinates(&p, vec![AffineExpr::dim(0)]).remove(0);
                    let at = |rho: i64| pos.evaluate(&[rho], &[]).expect("defined");
                    let mut seen = vec![false; (s * r) as usize];
                    for rho in 0..s * r {
                        let q = at(rho);
                        assert!((0..s * r).contains(&q), "s={s} width={width} r={r}: {rho} -> {q}");
                        assert!(!seen[q as usize], "s={s} width={width} r={r}: {q} twice");
                        seen[q as usize] = true;
                    }
                    // Thread t's reads t + s*k, k = 0..r, come in runs of `width` neighbours,
                    // the first of each run aligned to `width`.
                    for t in 0..s {
                        for k in (0..r).step_by(width as usize) {
                            let first = at(t + s * k);
                            assert_eq!(first % width, 0);
                            for v in 1..width {
                                assert_eq!(at(t + s * (k + v)), first + v);
                            }
                        }
                    }
                }
            }
        }
    }
}
