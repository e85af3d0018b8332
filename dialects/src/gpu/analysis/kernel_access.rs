//! The memory accesses of an inline `gpu.launch` kernel as seed 004's
//! compiler sees them (DIGEST §004.3): every subscript of every
//! `affine.load`/`affine.store`/`memref.load`/`memref.store` in the body
//! as a linear combination of **thread ids** (`tidx`, `tidy`, `tidz`),
//! **block ids** (`bidx`, ...), **loop indices** (induction variables of
//! `affine.for`/`scf.for` inside the kernel), **kernel invariants**
//! (index values defined outside the launch: sizes passed in) and a
//! constant; or *unresolved* (an index loaded from memory, a division, a
//! product of two ids), with the reason.
//!
//! The absolute ids of the seed are not separate terms: `idx = bidx *
//! blockDim.x + tidx` as `gpu-map-loops` computes it becomes `bidx * 64 +
//! tidx` with the launch's constant block size. [`LinearIndex::coef`] reads
//! the coefficient of any term.
//!
//! Every kernel pass of issue 30 (coalescing analysis, coalesce-via-shared,
//! block and thread merge, partition camping, vectorization) starts from
//! [`kernel_accesses`].

use crate::affine::utils::memory_footprint::element_bytes;
use crate::affine::{AffineApplyOp, AffineForOp, AffineLoadOp, AffineStoreOp};
use crate::arith::{ArithAddiOp, ArithConstantOp, ArithIndexCastOp, ArithMuliOp, ArithSubiOp};
use crate::gpu::{AddressSpace, GpuLaunchOp};
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use crate::scf::ScfForOp;
use lf_ir::affine::AffineMap;
use lf_ir::attrs::AttrData;
use lf_ir::view::{Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, TypeData, Value, DYNAMIC};
use std::fmt;

/// One variable a subscript can depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    /// `threadIdx` along dimension 0 (x), 1 (y) or 2 (z).
    Thread(usize),
    /// `blockIdx` along dimension 0, 1 or 2.
    Block(usize),
    /// The induction variable of a loop inside the kernel.
    Loop(Value),
    /// An index value defined outside the launch (same for every thread).
    Invariant(Value),
}

/// The seed's index classes (DIGEST §004.3), for the terms of a subscript.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexClass {
    /// A compile-time constant.
    Constant,
    /// A thread or block id (the seed's predefined indices).
    Predefined,
    /// A loop iterator.
    Loop,
    /// A value the same for all threads but not known at compile time.
    Invariant,
}

impl Term {
    /// The class of this term.
    pub fn class(self) -> IndexClass {
        match self {
            Term::Thread(_) | Term::Block(_) => IndexClass::Predefined,
            Term::Loop(_) => IndexClass::Loop,
            Term::Invariant(_) => IndexClass::Invariant,
        }
    }
}

/// `constant + Σ coef · term`, terms sorted, no zero coefficient.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LinearIndex {
    /// The terms with their non-zero coefficients, sorted by term.
    pub terms: Vec<(Term, i64)>,
    /// The constant part.
    pub constant: i64,
}

impl LinearIndex {
    /// The constant `c`.
    pub fn constant(c: i64) -> Self {
        LinearIndex {
            terms: Vec::new(),
            constant: c,
        }
    }

    /// `1 · term`.
    pub fn term(t: Term) -> Self {
        LinearIndex {
            terms: vec![(t, 1)],
            constant: 0,
        }
    }

    /// The coefficient of `t` (0 when absent).
    pub fn coef(&self, t: Term) -> i64 {
        self.terms.iter().find(|(u, _)| *u == t).map_or(0, |(_, c)| *c)
    }

    /// Whether it is a constant.
    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// Whether any thread or block id along `dim` occurs.
    pub fn uses_dim(&self, dim: usize) -> bool {
        self.terms
            .iter()
            .any(|(t, _)| matches!(t, Term::Thread(d) | Term::Block(d) if *d == dim))
    }

    /// Whether the loop with induction variable `iv` occurs.
    pub fn uses_loop(&self, iv: Value) -> bool {
        self.coef(Term::Loop(iv)) != 0
    }

    /// The classes of its terms (and `Constant` when the constant part is
    /// non-zero or there is nothing else), without repetition.
    pub fn classes(&self) -> Vec<IndexClass> {
        let mut out: Vec<IndexClass> = Vec::new();
        if self.constant != 0 || self.terms.is_empty() {
            out.push(IndexClass::Constant);
        }
        for (t, _) in &self.terms {
            if !out.contains(&t.class()) {
                out.push(t.class());
            }
        }
        out
    }

    /// `self + k · other`, `None` on overflow.
    pub fn add_scaled(&self, other: &LinearIndex, k: i64) -> Option<LinearIndex> {
        let mut terms = self.terms.clone();
        for &(t, c) in &other.terms {
            let add = c.checked_mul(k)?;
            match terms.iter_mut().find(|(u, _)| *u == t) {
                Some(slot) => slot.1 = slot.1.checked_add(add)?,
                None => terms.push((t, add)),
            }
        }
        terms.retain(|(_, c)| *c != 0);
        terms.sort_by_key(|(t, _)| *t);
        let constant = self.constant.checked_add(other.constant.checked_mul(k)?)?;
        Some(LinearIndex { terms, constant })
    }

    /// `k · self`, `None` on overflow.
    pub fn scaled(&self, k: i64) -> Option<LinearIndex> {
        LinearIndex::default().add_scaled(self, k)
    }

    /// Its value with every term given a value by `value_of`.
    pub fn eval(&self, mut value_of: impl FnMut(Term) -> i64) -> i64 {
        self.terms.iter().fold(self.constant, |acc, &(t, c)| {
            acc.wrapping_add(c.wrapping_mul(value_of(t)))
        })
    }

    /// Writes it with `name` naming the terms (`tidx`, `bidy`, loop and
    /// invariant names from the caller).
    pub fn display_with(&self, mut name: impl FnMut(Term) -> String) -> String {
        let mut s = String::new();
        for &(t, c) in &self.terms {
            let n = name(t);
            let (sign, mag) = if c < 0 { ("-", -(c as i128)) } else { ("+", c as i128) };
            if s.is_empty() {
                if c < 0 {
                    s.push('-');
                }
            } else {
                s.push_str(&format!(" {sign} "));
            }
            if mag == 1 {
                s.push_str(&n);
            } else {
                s.push_str(&format!("{mag}*{n}"));
            }
        }
        if s.is_empty() {
            return self.constant.to_string();
        }
        if self.constant > 0 {
            s.push_str(&format!(" + {}", self.constant));
        } else if self.constant < 0 {
            s.push_str(&format!(" - {}", -(self.constant as i128)));
        }
        s
    }
}

/// The seed's name for a thread or block id term.
pub fn id_name(t: Term) -> Option<&'static str> {
    const T: [&str; 3] = ["tidx", "tidy", "tidz"];
    const B: [&str; 3] = ["bidx", "bidy", "bidz"];
    match t {
        Term::Thread(d) => T.get(d).copied(),
        Term::Block(d) => B.get(d).copied(),
        _ => None,
    }
}

/// A subscript: linear in the terms, or unresolved with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subscript {
    /// A linear combination of the terms.
    Linear(LinearIndex),
    /// Not linear in the terms (class 4 of the seed: skipped by every pass).
    Unresolved(String),
}

impl Subscript {
    /// The linear form, if resolved.
    pub fn linear(&self) -> Option<&LinearIndex> {
        match self {
            Subscript::Linear(l) => Some(l),
            Subscript::Unresolved(_) => None,
        }
    }
}

/// Where the memory an access touches lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemorySpace {
    /// Global (device) memory: no address space, or `#gpu.address_space<global>`.
    Global,
    /// `#gpu.address_space<workgroup>` (shared memory).
    Workgroup,
    /// `#gpu.address_space<private>` (registers / local memory).
    Private,
}

/// A loop inside the kernel that encloses an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelLoop {
    /// The `affine.for` or `scf.for`.
    pub op: OpId,
    /// Its induction variable.
    pub iv: Value,
    /// Its lower bound, when constant.
    pub lower: Option<i64>,
    /// Its step, when constant.
    pub step: Option<i64>,
    /// Its trip count, when constant.
    pub trip_count: Option<i64>,
}

/// One load or store in the kernel.
#[derive(Clone, Debug)]
pub struct KernelAccess {
    /// The load or store op.
    pub op: OpId,
    /// The memref it accesses.
    pub memref: Value,
    /// Whether it writes.
    pub is_store: bool,
    /// The memref's memory space.
    pub space: MemorySpace,
    /// One subscript per dimension of the memref.
    pub subscripts: Vec<Subscript>,
    /// The memref's shape ([`DYNAMIC`] for `?`).
    pub shape: Vec<i64>,
    /// Bytes per element (`None` for element types without a size).
    pub element_bytes: Option<u64>,
    /// Whether the memref has the identity (row-major) layout.
    pub row_major: bool,
    /// The kernel loops around it, outermost first.
    pub loops: Vec<KernelLoop>,
}

impl KernelAccess {
    /// The row-major element offset `Σ s_k · stride_k`, when every
    /// subscript is linear and the layout is the identity with static
    /// sizes past the first dimension.
    pub fn flat_offset(&self) -> Option<LinearIndex> {
        if !self.row_major {
            return None;
        }
        let mut offset = LinearIndex::default();
        let mut stride: i64 = 1;
        for (k, s) in self.subscripts.iter().enumerate().rev() {
            offset = offset.add_scaled(s.linear()?, stride)?;
            if k > 0 {
                let size = self.shape[k];
                if size == DYNAMIC {
                    return None;
                }
                stride = stride.checked_mul(size)?;
            }
        }
        Some(offset)
    }

    /// The row pitch in elements (the product of the sizes past the
    /// first dimension), when static.
    pub fn row_pitch(&self) -> Option<i64> {
        self.shape
            .iter()
            .skip(1)
            .try_fold(1i64, |acc, &s| (s != DYNAMIC).then(|| acc.checked_mul(s)).flatten())
    }

    /// The first unresolved subscript's reason, if any.
    pub fn unresolved(&self) -> Option<&str> {
        self.subscripts.iter().find_map(|s| match s {
            Subscript::Unresolved(why) => Some(why.as_str()),
            Subscript::Linear(_) => None,
        })
    }
}

/// The ids and sizes of a launch.
#[derive(Clone, Copy, Debug)]
pub struct LaunchIds {
    /// The launch.
    pub launch: OpId,
    /// `threadIdx.{x,y,z}` block arguments.
    pub thread: [Value; 3],
    /// `blockIdx.{x,y,z}` block arguments.
    pub block: [Value; 3],
    /// `blockDim.{x,y,z}` block arguments (their value is `block_size`).
    pub block_dim: [Value; 3],
    /// `gridDim.{x,y,z}` block arguments.
    pub grid_dim: [Value; 3],
    /// The constant block size per dimension, when known.
    pub block_size: [Option<i64>; 3],
    /// The constant grid size per dimension, when known.
    pub grid_size: [Option<i64>; 3],
}

impl LaunchIds {
    /// The ids of `launch`.
    pub fn of<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> Self {
        let (ctx, body) = (ir.ctx(), ir.body());
        let consts = |vals: [Value; 3]| vals.map(|v| const_index(ctx, body, v));
        LaunchIds {
            launch: launch.op(),
            thread: launch.thread_ids(ir),
            block: launch.block_ids(ir),
            block_dim: launch.block_size_args(ir),
            grid_dim: launch.grid_size_args(ir),
            block_size: consts(launch.block_size(ir)),
            grid_size: consts(launch.grid_size(ir)),
        }
    }

    /// The total number of threads per block, when constant.
    pub fn threads_per_block(&self) -> Option<i64> {
        self.block_size.iter().try_fold(1i64, |acc, s| acc.checked_mul((*s)?))
    }
}

/// The integer value of a constant index or integer.
pub fn const_index(ctx: &Context, body: &Body, v: Value) -> Option<i64> {
    let op = body.defining_op(v)?;
    let c = ArithConstantOp::cast(&(ctx, body), op)?;
    match ctx.attr_data(c.value(&(ctx, body))) {
        AttrData::Integer { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

/// `v` as a linear combination of the launch's terms.
pub fn linearize(ctx: &Context, body: &Body, ids: &LaunchIds, v: Value) -> Subscript {
    match linearize_value(ctx, body, ids, v, 0) {
        Ok(l) => Subscript::Linear(l),
        Err(why) => Subscript::Unresolved(why),
    }
}

/// How deep chains of `affine.apply`/`arith` are followed.
const MAX_DEPTH: u32 = 64;

fn linearize_value(ctx: &Context, body: &Body, ids: &LaunchIds, v: Value, depth: u32) -> Result<LinearIndex, String> {
    if depth > MAX_DEPTH {
        return Err("the index computation is too deep".into());
    }
    for d in 0..3 {
        if v == ids.thread[d] {
            return Ok(LinearIndex::term(Term::Thread(d)));
        }
        if v == ids.block[d] {
            return Ok(LinearIndex::term(Term::Block(d)));
        }
        if v == ids.block_dim[d] {
            if let Some(s) = ids.block_size[d] {
                return Ok(LinearIndex::constant(s));
            }
        }
        if v == ids.grid_dim[d] {
            if let Some(s) = ids.grid_size[d] {
                return Ok(LinearIndex::constant(s));
            }
        }
    }
    if let Some(c) = const_index(ctx, body, v) {
        return Ok(LinearIndex::constant(c));
    }
    if !body.is_defined_inside(v, ids.launch) {
        return Ok(LinearIndex::term(Term::Invariant(v)));
    }
    let ir = (ctx, body);
    let Some(op) = body.defining_op(v) else {
        // A block argument inside the kernel: a loop's induction variable?
        let owner = body
            .value_block(v)
            .and_then(|blk| body.block_region(blk))
            .and_then(|r| body.region_parent(r));
        if let Some(f) = owner.and_then(|o| AffineForOp::cast(&ir, o)) {
            if f.iv(&ir) == v {
                return Ok(LinearIndex::term(Term::Loop(v)));
            }
        }
        if let Some(f) = owner.and_then(|o| ScfForOp::cast(&ir, o)) {
            if f.iv(&ir) == v {
                return Ok(LinearIndex::term(Term::Loop(v)));
            }
        }
        return Err("a block argument that is not a loop index".into());
    };
    let rec = |w: Value| linearize_value(ctx, body, ids, w, depth + 1);
    if let Some(a) = AffineApplyOp::cast(&ir, op) {
        let operands: Vec<LinearIndex> = a.map_operands(&ir).iter().map(|&w| rec(w)).collect::<Result<_, _>>()?;
        return apply_linear(a.map(&ir), &operands).ok_or_else(|| "a non-linear affine.apply".to_string());
    }
    let overflow = || "the index overflows".to_string();
    if let Some(o) = ArithAddiOp::cast(&ir, op) {
        return rec(o.lhs(&ir))?.add_scaled(&rec(o.rhs(&ir))?, 1).ok_or_else(overflow);
    }
    if let Some(o) = ArithSubiOp::cast(&ir, op) {
        return rec(o.lhs(&ir))?.add_scaled(&rec(o.rhs(&ir))?, -1).ok_or_else(overflow);
    }
    if let Some(o) = ArithMuliOp::cast(&ir, op) {
        let (l, r) = (rec(o.lhs(&ir))?, rec(o.rhs(&ir))?);
        return match (l.is_constant(), r.is_constant()) {
            (_, true) => l.scaled(r.constant).ok_or_else(overflow),
            (true, false) => r.scaled(l.constant).ok_or_else(overflow),
            _ => Err("a product of two non-constant indices".into()),
        };
    }
    if let Some(o) = ArithIndexCastOp::cast(&ir, op) {
        return rec(o.in_(&ir));
    }
    Err(format!("an index computed by '{}'", ctx.op_name_str(body.op_name(op))))
}

/// The single result of `map` applied to linear operands, when linear.
fn apply_linear(map: &AffineMap, operands: &[LinearIndex]) -> Option<LinearIndex> {
    let [result] = map.results() else { return None };
    let (nd, ns) = (map.num_dims(), map.num_symbols());
    let row = lf_ir::affine::linear_form(result, nd, ns)?;
    let mut out = LinearIndex::constant(*row.last()?);
    for (k, operand) in operands.iter().enumerate() {
        if row[k] != 0 {
            out = out.add_scaled(operand, row[k])?;
        }
    }
    Some(out)
}

/// The subscripts of an affine access: its map applied to its operands.
fn affine_subscripts(
    ctx: &Context,
    body: &Body,
    ids: &LaunchIds,
    map: &AffineMap,
    operands: &[Value],
) -> Vec<Subscript> {
    let linear: Result<Vec<LinearIndex>, String> = operands
        .iter()
        .map(|&v| linearize(ctx, body, ids, v))
        .map(|s| match s {
            Subscript::Linear(l) => Ok(l),
            Subscript::Unresolved(why) => Err(why),
        })
        .collect();
    (0..map.num_results())
        .map(|r| {
            let single = map.get_sub_map(&[r]);
            match &linear {
                Err(why) => Subscript::Unresolved(why.clone()),
                Ok(ops) => match apply_linear(&single, ops) {
                    Some(l) => Subscript::Linear(l),
                    None => Subscript::Unresolved("a non-linear subscript".into()),
                },
            }
        })
        .collect()
}

/// The lower bound of kernel loop `loop_op` (an `affine.for` with a
/// single-result lower bound, or an `scf.for`) as a linear form of ids,
/// loop indices and invariants, when it is one.
pub fn loop_lower_linear(ctx: &Context, body: &Body, ids: &LaunchIds, loop_op: OpId) -> Option<LinearIndex> {
    let ir = (ctx, body);
    if let Some(f) = AffineForOp::cast(&ir, loop_op) {
        let lb = f.lower_bound(&ir);
        if lb.map.num_results() != 1 {
            return None;
        }
        return match affine_subscripts(ctx, body, ids, &lb.map, &lb.operands).pop()? {
            Subscript::Linear(l) => Some(l),
            Subscript::Unresolved(_) => None,
        };
    }
    let f = ScfForOp::cast(&ir, loop_op)?;
    match linearize(ctx, body, ids, f.lower_bound(&ir)) {
        Subscript::Linear(l) => Some(l),
        Subscript::Unresolved(_) => None,
    }
}

/// The memory space of a memref value.
pub fn memory_space(ctx: &Context, body: &Body, memref: Value) -> MemorySpace {
    match ctx.type_data(body.value_type(memref)) {
        TypeData::MemRef { memory_space, .. } | TypeData::UnrankedMemRef { memory_space, .. } => {
            match memory_space.and_then(|a| AddressSpace::from_attr(ctx, a)) {
                Some(AddressSpace::Workgroup) => MemorySpace::Workgroup,
                Some(AddressSpace::Private) => MemorySpace::Private,
                _ => MemorySpace::Global,
            }
        }
        _ => MemorySpace::Global,
    }
}

/// The kernel loops enclosing `op` inside the launch, outermost first.
pub fn enclosing_loops(ctx: &Context, body: &Body, launch: OpId, op: OpId) -> Vec<KernelLoop> {
    let ir = (ctx, body);
    let mut out = Vec::new();
    let mut cur = body.parent_op(op);
    while let Some(p) = cur {
        if p == launch {
            break;
        }
        if let Some(f) = AffineForOp::cast(&ir, p) {
            out.push(KernelLoop {
                op: p,
                iv: f.iv(&ir),
                lower: f.constant_lower_bound(&ir),
                step: Some(f.step(&ir)),
                trip_count: f.constant_trip_count(&ir),
            });
        } else if let Some(f) = ScfForOp::cast(&ir, p) {
            let (lb, ub, st) = (
                const_index(ctx, body, f.lower_bound(&ir)),
                const_index(ctx, body, f.upper_bound(&ir)),
                const_index(ctx, body, f.step(&ir)),
            );
            let trip = match (lb, ub, st) {
                (Some(l), Some(u), Some(s)) if s > 0 => Some(if u > l { (u - l + s - 1) / s } else { 0 }),
                _ => None,
            };
            out.push(KernelLoop {
                op: p,
                iv: f.iv(&ir),
                lower: lb,
                step: st,
                trip_count: trip,
            });
        }
        cur = body.parent_op(p);
    }
    out.reverse();
    out
}

/// Every load and store in the body of `launch`, in program order.
pub fn kernel_accesses<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> Vec<KernelAccess> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let ids = LaunchIds::of(ir, launch);
    let mut out = Vec::new();
    walk(body, launch.op(), WalkOrder::PreOrder, &mut |b, op| {
        if op == launch.op() {
            return WalkControl::Advance;
        }
        let ir = (ctx, b);
        let found = if let Some(l) = AffineLoadOp::cast(&ir, op) {
            Some((
                l.memref(&ir),
                false,
                affine_subscripts(ctx, b, &ids, l.map(&ir), &l.indices(&ir)),
            ))
        } else if let Some(s) = AffineStoreOp::cast(&ir, op) {
            Some((
                s.memref(&ir),
                true,
                affine_subscripts(ctx, b, &ids, s.map(&ir), &s.indices(&ir)),
            ))
        } else if let Some(l) = MemrefLoadOp::cast(&ir, op) {
            let subs = l.indices(&ir).iter().map(|&v| linearize(ctx, b, &ids, v)).collect();
            Some((l.memref(&ir), false, subs))
        } else {
            MemrefStoreOp::cast(&ir, op).map(|s| {
                let subs = s.indices(&ir).iter().map(|&v| linearize(ctx, b, &ids, v)).collect();
                (s.memref(&ir), true, subs)
            })
        };
        if let Some((memref, is_store, subscripts)) = found {
            let (shape, elem, row_major) = match ctx.type_data(b.value_type(memref)) {
                TypeData::MemRef {
                    shape, element, layout, ..
                } => {
                    let identity =
                        layout.is_none_or(|a| matches!(ctx.attr_data(a), AttrData::AffineMap(m) if m.is_identity()));
                    (shape.to_vec(), element_bytes(ctx, *element), identity)
                }
                _ => (Vec::new(), None, false),
            };
            out.push(KernelAccess {
                op,
                memref,
                is_store,
                space: memory_space(ctx, b, memref),
                subscripts,
                shape,
                element_bytes: elem,
                row_major,
                loops: enclosing_loops(ctx, b, launch.op(), op),
            });
        }
        WalkControl::Advance
    });
    out
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match id_name(*self) {
            Some(n) => f.write_str(n),
            None => match self {
                Term::Loop(_) => f.write_str("loop"),
                _ => f.write_str("invariant"),
            },
        }
    }
}
