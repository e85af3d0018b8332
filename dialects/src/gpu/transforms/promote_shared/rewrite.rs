//! The rewrite of one planned loop: the loop staged by its chunk
//! (`gpu/utils/staged_loop.rs`), a cooperative copy per promoted array at
//! the top of each chunk, and the array's loads reading the copy.
//!
//! ```text
//! affine.for %i = lb to ub step C*st {
//!   affine.for %q = 0 to ceil(U/P) {          // U units, P threads
//!     // u = linear thread id + P*q: a unit of W neighbours (box element
//!     // u*W on, row-major), or a thread-contiguous run ([`Unit`])
//!     affine.if (u < U) {                     // only when P does not divide U
//!       // W neighbours: one vector.load (W > 1) or affine.load, stored one
//!       // by one; a run: one affine.load per element, one vector.store.
//!       // A load that may leave the array: under affine.if, zero else.
//!       %v = affine.load %A[corner_d(%i) + coord_d(e)]
//!       affine.store %v, %sA[position_d(coord(e))]
//!     }
//!   }
//!   gpu.barrier
//!   affine.for %j = 0 to C { ... affine.load %sA[local_d + c_d*st*%j - lo_d] ... }
//!   gpu.barrier
//! }
//! ```
//!
//! Double-buffered (`LoopPlan::double_buffered`): the buffers get a
//! leading dimension of 2, the rounds are unrolled, and
//! `stage_loop_pipelined` places the loads of the next chunk before the
//! computation and their stores after it (one barrier per chunk).

use super::plan::{LaunchPlan, LoopPlan, Promotion, ThreadContiguous};
use crate::affine::{AffineApplyOp, AffineBound, AffineForOp, AffineIfOp, AffineLoadOp, AffineStoreOp};
use crate::arith::ArithConstantOp;
use crate::gpu::analysis::kernel_access::{LaunchIds, LinearIndex, Term};
use crate::gpu::utils::staged_loop::{stage_loop, stage_loop_pipelined, Slot};
use crate::gpu::utils::workgroup_buffer::add_workgroup_buffer;
use crate::vector::{vector_type, VectorExtractOp, VectorFromElementsOp, VectorLoadOp, VectorStoreOp};
use lf_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use lf_ir::builder::Builder;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{OpId, Type, TypeData, Value};

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
                .map(|a| {
                    let slots = if l.double_buffered { vec![2] } else { Vec::new() };
                    add_workgroup_buffer(b, plan.launch, a.memref, &[slots, a.buffer_shape.clone()].concat())
                })
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
    let (staged, slot) = if l.double_buffered {
        let pipelined = stage_loop_pipelined(
            b,
            l.for_op,
            l.chunk,
            |b, start| l.arrays.iter().flat_map(|p| emit_prefetch(b, plan, p, start)).collect(),
            |b, values, slot| {
                let mut rest = values;
                for (p, &buf) in l.arrays.iter().zip(buffers) {
                    let n = p.values_per_thread(plan.threads()) as usize;
                    emit_stores(b, plan, p, buf, &rest[..n], slot);
                    rest = &rest[n..];
                }
            },
        );
        (pipelined.staged, Some(pipelined.slot))
    } else {
        let staged = stage_loop(b, l.for_op, l.chunk, |b, i| {
            for (p, &buf) in l.arrays.iter().zip(buffers) {
                emit_copy(b, plan, p, buf, i);
            }
        });
        (staged, None)
    };
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
                        read_position(c, ops.linear(&plan.ids, &thread), r)
                    }
                    _ => ops
                        .linear(&plan.ids, loc)
                        .add(&jd.mul_const(s.loop_coef * step))
                        .add_const(-s.lo),
                })
                .collect();
            let slot_dim = slot.map(|s| ops.dim(s));
            let map = ops.map(slot_dim.into_iter().chain(buffer_order(p, coords)).collect());
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

/// Buffer subscripts from box-side subscripts: the thread-contiguous side
/// (if any) moved innermost.
fn buffer_order(p: &Promotion, mut coords: Vec<AffineExpr>) -> Vec<AffineExpr> {
    if let Some(c) = p.contiguous {
        let e = coords.remove(c.side);
        coords.push(e);
    }
    coords
}

/// Which round of a copy a unit belongs to: the index of the loop over
/// rounds, or a constant round (the unrolled copies of a double-buffered
/// loop).
#[derive(Clone, Copy)]
enum Round {
    Loop(Value),
    Constant(i64),
}

/// One copy unit: its id and, per element, where it lies in the box and
/// in the buffer.
///
/// Without a thread-contiguous side, unit `u` is the `copy_width`
/// neighbours from box element `u*copy_width` on (row-major, the
/// innermost side contiguous): one wide load, stored element by element.
/// With one (block size `S`, width `V` along side `c`), the units run
/// over the box with side `c` counted in runs of `V`: unit coordinate `q`
/// on that side holds the elements `ρ_m = (q floordiv S)·S·V + q mod S +
/// S·m`, `m < V`, which the thread-contiguous layout stores at `q·V + m`:
/// loaded one by one, stored with one wide store. Neighbouring threads
/// then store neighbouring 16-byte runs (no bank conflicts), where
/// scattering a wide load's elements would put four threads on each bank.
struct Unit {
    /// `l + P*round` (`l` the linear thread id, `P` the block's threads).
    id: AffineExpr,
    /// Per element, its box coordinates.
    elements: Vec<Vec<AffineExpr>>,
    /// Per element, its buffer subscripts (without a slot).
    positions: Vec<Vec<AffineExpr>>,
}

impl Unit {
    fn of(ops: &mut Operands, plan: &LaunchPlan, p: &Promotion, round: Round) -> Unit {
        let threads = plan.threads();
        let round = match round {
            Round::Loop(q) => ops.dim(q),
            Round::Constant(q) => AffineExpr::constant(q),
        };
        let id = linear_thread_id(ops, &plan.ids, plan.block).add(&round.mul_const(threads));
        let (elements, positions) = match p.contiguous {
            None => {
                let first = row_major(p.sides.iter().map(|s| s.extent), &id.mul_const(p.copy_width));
                let elements: Vec<Vec<AffineExpr>> = (0..p.copy_width)
                    .map(|k| {
                        let mut at = first.clone();
                        let last = at.len() - 1;
                        at[last] = at[last].add_const(k);
                        at
                    })
                    .collect();
                let positions = elements.iter().map(|e| buffer_order(p, e.clone())).collect();
                (elements, positions)
            }
            Some(c) => {
                let extents = p
                    .sides
                    .iter()
                    .enumerate()
                    .map(|(d, s)| if d == c.side { s.extent / c.width } else { s.extent });
                let q = row_major(extents, &id);
                let run = q[c.side].clone();
                (0..c.width)
                    .map(|m| {
                        let mut element = q.clone();
                        element[c.side] = run_element(c, &run, m);
                        let mut position = q.clone();
                        position[c.side] = run.mul_const(c.width).add_const(m);
                        (element, buffer_order(p, position))
                    })
                    .unzip()
            }
        };
        Unit {
            id,
            elements,
            positions,
        }
    }

    /// The constraint that the unit is one of `p`'s (`id <= units - 1`),
    /// when the threads do not divide the units.
    fn exists(&self, p: &Promotion, threads: i64) -> Option<AffineExpr> {
        (p.units() % threads != 0).then(|| self.id.neg().add_const(p.units() - 1))
    }
}

/// The box position along a thread-contiguous side of element `m` of
/// run `q`: `(q floordiv S)·S·V + q mod S + S·m` (stored at `q·V + m`).
fn run_element(c: ThreadContiguous, q: &AffineExpr, m: i64) -> AffineExpr {
    q.floor_div_const(c.threads)
        .mul_const(c.threads * c.width)
        .add(&q.modulo_const(c.threads))
        .add_const(c.threads * m)
}

/// The buffer position of thread `t`'s read `t + S·r` along a
/// thread-contiguous side: `(r floordiv V)·S·V + t·V + r mod V`, so that
/// the reads for `V` consecutive `r` are neighbours.
fn read_position(c: ThreadContiguous, t: AffineExpr, r: i64) -> AffineExpr {
    t.mul_const(c.width)
        .add_const(r.div_euclid(c.width) * c.threads * c.width + r.rem_euclid(c.width))
}

/// Row-major coordinates of `e` in a box of `extents`.
fn row_major(extents: impl DoubleEndedIterator<Item = i64> + ExactSizeIterator, e: &AffineExpr) -> Vec<AffineExpr> {
    let n = extents.len();
    let mut stride = 1i64;
    let mut out = vec![AffineExpr::constant(0); n];
    for (d, extent) in extents.enumerate().rev() {
        let q = if stride == 1 {
            e.clone()
        } else {
            e.floor_div_const(stride)
        };
        out[d] = if d == 0 { q } else { q.modulo_const(extent) };
        stride *= extent;
    }
    out
}

/// The array subscripts of the box element at `coords` for the chunk
/// starting at `start`.
fn global_subscripts(
    ops: &mut Operands,
    plan: &LaunchPlan,
    p: &Promotion,
    start: &AffineExpr,
    coords: &[AffineExpr],
) -> Vec<AffineExpr> {
    p.sides
        .iter()
        .zip(coords)
        .map(|(s, c)| {
            ops.linear(&plan.ids, &s.uniform)
                .add(&start.mul_const(s.loop_coef))
                .add_const(s.lo)
                .add(c)
        })
        .collect()
}

/// The constraints that `width` elements from the array subscripts
/// `global` on lie inside the array (`0 <= g_d <= size_d - 1`).
fn inside_array(p: &Promotion, global: &[AffineExpr], width: i64) -> Vec<AffineExpr> {
    let mut cons = Vec::new();
    for (d, g) in global.iter().enumerate() {
        let last = if d + 1 == p.sides.len() { width - 1 } else { 0 };
        cons.push(g.clone());
        cons.push(g.neg().add_const(p.shape[d] - 1 - last));
    }
    cons
}

/// The set of `cons` (all inequalities) over `ops`.
fn set_of(ops: &Operands, cons: Vec<AffineExpr>) -> IntegerSet {
    let n = cons.len();
    IntegerSet::new(ops.dims.len() as u32, ops.symbols.len() as u32, cons, vec![false; n])
}

/// The element type of `p`'s array.
fn element_type(b: &Builder<'_>, p: &Promotion) -> Type {
    match b.ctx().type_data(b.body().value_type(p.memref)) {
        TypeData::MemRef { element, .. } => *element,
        _ => unreachable!("a promoted array is a memref"),
    }
}

/// Emits the cooperative copy of `p`'s box for the chunk starting at `i`
/// into `buf`: a loop over the rounds, each thread's unit of the round
/// loaded ([`emit_unit_loads`]) and stored ([`emit_unit_stores`]), under
/// one `affine.if` when the last round has fewer units than threads.
fn emit_copy(b: &mut Builder<'_>, plan: &LaunchPlan, p: &Promotion, buf: Value, i: Value) {
    let threads = plan.threads();
    AffineForOp::build(
        b,
        AffineBound::constant(0),
        AffineBound::constant(p.rounds(threads)),
        1,
        &[],
        |b, q, _| {
            let round = Round::Loop(q);
            let copy = |b: &mut Builder<'_>| -> ValueList {
                let values = emit_unit_loads(b, plan, p, i, round, false);
                emit_unit_stores(b, (plan, p, buf), &values, None, round, false);
                ValueList::new()
            };
            let mut ops = Operands::default();
            match Unit::of(&mut ops, plan, p, round).exists(p, threads) {
                None => {
                    copy(b);
                }
                Some(cond) => {
                    AffineIfOp::build(b, set_of(&ops, vec![cond]), &ops.values(), &[], copy, None);
                }
            }
            ValueList::new()
        },
    );
}

/// The loads of `p`'s units for the chunk starting at `start` in a
/// double-buffered loop: every round's unit, its elements as scalars.
fn emit_prefetch(b: &mut Builder<'_>, plan: &LaunchPlan, p: &Promotion, start: Value) -> Vec<Value> {
    let threads = plan.threads();
    (0..p.rounds(threads))
        .flat_map(|q| emit_unit_loads(b, plan, p, start, Round::Constant(q), true))
        .collect()
}

/// Stores `values` ([`emit_prefetch`]'s, in its order) into slot `slot`
/// of `p`'s double buffer `buf`.
fn emit_stores(b: &mut Builder<'_>, plan: &LaunchPlan, p: &Promotion, buf: Value, values: &[Value], slot: Slot) {
    for (q, unit_values) in values.chunks(p.unit_elements() as usize).enumerate() {
        emit_unit_stores(
            b,
            (plan, p, buf),
            unit_values,
            Some(slot),
            Round::Constant(q as i64),
            true,
        );
    }
}

/// The elements of the thread's unit of `round` for the chunk starting at
/// `start`, as scalars: one wide load (`vector.load` and its elements)
/// when the unit is `copy_width > 1` neighbours, else one `affine.load`
/// per element. A load that may fall outside the array runs under its own
/// `affine.if` and gives zero there; with `check_exists`, a unit that may
/// be past the box's last loads under one `affine.if` that gives zeros
/// otherwise (the emitters take no vector-valued `affine.if`: the guards
/// yield the elements).
fn emit_unit_loads(
    b: &mut Builder<'_>,
    plan: &LaunchPlan,
    p: &Promotion,
    start: Value,
    round: Round,
    check_exists: bool,
) -> Vec<Value> {
    let threads = plan.threads();
    let element = element_type(b, p);
    let mut ops = Operands::default();
    let start = ops.dim(start);
    let unit = Unit::of(&mut ops, plan, p, round);
    // One wide load of the first element, or one load per element.
    let (width, firsts) = if p.contiguous.is_none() && p.copy_width > 1 {
        (p.copy_width, &unit.elements[..1])
    } else {
        (1, &unit.elements[..])
    };
    let loads: Vec<Vec<AffineExpr>> = firsts
        .iter()
        .map(|e| global_subscripts(&mut ops, plan, p, &start, e))
        .collect();
    let operands = ops.values();
    let types = vec![element; p.unit_elements() as usize];
    let zeros = |b: &mut Builder<'_>, n: usize| -> ValueList {
        let z = ArithConstantOp::zero(b, element).expect("promoted arrays hold numbers");
        std::iter::repeat_n(z, n).collect()
    };
    let unit_loads = |b: &mut Builder<'_>| -> ValueList {
        let mut out = ValueList::new();
        for global in &loads {
            let inside = p.bounds_guard.then(|| set_of(&ops, inside_array(p, global, width)));
            let map = ops.map(global.clone());
            let load = |b: &mut Builder<'_>| load_elements(b, p.memref, element, width, &operands, &map);
            match inside {
                None => out.extend(load(b)),
                Some(set) => {
                    let mut outside = |b: &mut Builder<'_>| zeros(b, width as usize);
                    let guard =
                        AffineIfOp::build(b, set, &operands, &types[..width as usize], load, Some(&mut outside));
                    out.extend(b.body().results(guard.op()));
                }
            }
        }
        out
    };
    match unit.exists(p, threads).filter(|_| check_exists) {
        None => unit_loads(b).into_iter().collect(),
        Some(cond) => {
            let mut past_last = |b: &mut Builder<'_>| zeros(b, types.len());
            let guard = AffineIfOp::build(
                b,
                set_of(&ops, vec![cond]),
                &operands,
                &types,
                unit_loads,
                Some(&mut past_last),
            );
            b.body().results(guard.op()).collect()
        }
    }
}

/// `width` elements of `memref` from `map`'s position on: one
/// `affine.load`, or a `vector.load` and its elements.
fn load_elements(
    b: &mut Builder<'_>,
    memref: Value,
    element: Type,
    width: i64,
    operands: &[Value],
    map: &AffineMap,
) -> ValueList {
    if width == 1 {
        return std::iter::once(AffineLoadOp::build(b, memref, operands, map.clone()).result(b)).collect();
    }
    let indices = map_indices(b, operands, map);
    let ty = vector_type(b.ctx(), width, element);
    let v = VectorLoadOp::build(b, memref, &indices, ty).result(b);
    (0..width)
        .map(|k| VectorExtractOp::build(b, v, &[], &[k]).result(b))
        .collect()
}

/// The results of `map` on `operands` as index values (one `affine.apply`
/// each), for the `vector` ops, which take indices rather than a map.
fn map_indices(b: &mut Builder<'_>, operands: &[Value], map: &AffineMap) -> Vec<Value> {
    (0..map.num_results())
        .map(|d| AffineApplyOp::build(b, operands, map.get_sub_map(&[d])).result(b))
        .collect()
}

/// Stores `values` (the elements of the thread's unit of `round`) into
/// `buf`, at `slot` when the buffer is double: one wide
/// `vector.store` for a thread-contiguous unit, else one `affine.store`
/// per element; under `affine.if` when `check_exists` and the unit may be
/// past the box's last.
fn emit_unit_stores(
    b: &mut Builder<'_>,
    (plan, p, buf): (&LaunchPlan, &Promotion, Value),
    values: &[Value],
    slot: Option<Slot>,
    round: Round,
    check_exists: bool,
) {
    let threads = plan.threads();
    let mut ops = Operands::default();
    let slot = slot.map(|s| match s {
        Slot::First => AffineExpr::constant(0),
        Slot::At(v) => ops.dim(v),
    });
    let unit = Unit::of(&mut ops, plan, p, round);
    let maps: Vec<AffineMap> = unit
        .positions
        .iter()
        .map(|at| ops.map(slot.iter().cloned().chain(at.iter().cloned()).collect()))
        .collect();
    let operands = ops.values();
    let store = |b: &mut Builder<'_>| -> ValueList {
        if p.contiguous.is_some() {
            let element = element_type(b, p);
            let ty = vector_type(b.ctx(), values.len() as i64, element);
            let v = VectorFromElementsOp::build(b, values, ty).dest(b);
            let indices = map_indices(b, &operands, &maps[0]);
            VectorStoreOp::build(b, v, buf, &indices);
        } else {
            for (&v, map) in values.iter().zip(&maps) {
                AffineStoreOp::build(b, v, buf, &operands, map.clone());
            }
        }
        ValueList::new()
    };
    match unit.exists(p, threads).filter(|_| check_exists) {
        None => {
            store(b);
        }
        Some(cond) => {
            AffineIfOp::build(b, set_of(&ops, vec![cond]), &operands, &[], store, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_contiguous_runs_are_a_bijection_stored_where_threads_read_them() {
        for s in [2, 4, 8, 16, 32] {
            for width in [2, 4] {
                for r in (width..=16).step_by(width as usize) {
                    let c = ThreadContiguous {
                        side: 0,
                        threads: s,
                        width,
                    };
                    let extent = s * r;
                    let mut seen = vec![false; extent as usize];
                    for q in 0..extent / width {
                        for m in 0..width {
                            // Run q's element m is box position rho, stored at q*V + m.
                            let rho = run_element(c, &AffineExpr::dim(0), m)
                                .evaluate(&[q], &[])
                                .expect("defined");
                            assert!(
                                (0..extent).contains(&rho),
                                "s={s} width={width} r={r}: run {q} reaches {rho}"
                            );
                            assert!(!seen[rho as usize], "s={s} width={width} r={r}: {rho} copied twice");
                            seen[rho as usize] = true;
                            // The thread that reads rho = t + s*k finds it there.
                            let (t, k) = (rho % s, rho / s);
                            let read = read_position(c, AffineExpr::constant(t), k)
                                .evaluate(&[], &[])
                                .expect("defined");
                            assert_eq!(read, q * width + m, "s={s} width={width} r={r}: element {rho}");
                        }
                    }
                    // Thread t's reads t + s*k for V consecutive k from a multiple of V are
                    // the V neighbours from an aligned position.
                    for t in 0..s {
                        for k in (0..r).step_by(width as usize) {
                            let at = |k: i64| {
                                read_position(c, AffineExpr::constant(t), k)
                                    .evaluate(&[], &[])
                                    .expect("defined")
                            };
                            assert_eq!(at(k) % width, 0);
                            for v in 1..width {
                                assert_eq!(at(k + v), at(k) + v);
                            }
                        }
                    }
                }
            }
        }
    }
}
