//! Whether a kernel is map-style Brook+ (docs/design/brook.md, "What the
//! emitter writes"), and the plan that turns it into one: the domain, the
//! gather arrays, and the output streams that its stores become.
//!
//! A store's subscripts are linearized in the thread's global position
//! `(gx, gy, gz)` (`block_id * block_dim + thread_id` with the kernel's
//! known launch sizes); each must be `a_r * g_{d_r} + c` or a constant, the
//! launch dimensions used once each, every dimension with more than one
//! thread used, and no two (thread, store) pairs may hit one element.

use crate::emit::GpuId;
use crate::module::{op_error, FuncRef};
use lf_diag::Diagnostic;
use lf_dialects::affine::{AffineApplyOp, AffineIfOp, AffineLoadOp, AffineStoreOp};
use lf_dialects::arith::{ArithAddiOp, ArithConstantOp, ArithIndexCastOp, ArithMuliOp, ArithSubiOp};
use lf_dialects::gpu::{GpuBlockDimOp, GpuBlockIdOp, GpuFuncOp, GpuGlobalIdOp, GpuGridDimOp, GpuThreadIdOp};
use lf_dialects::memref::{MemrefLoadOp, MemrefStoreOp};
use lf_ir::view::{IrRef, OpView};
use lf_ir::{AttrData, Body, Context, OpId, Type, TypeData, Value};
use rustc_hash::FxHashMap;

/// The component of the position in launch dimension `d`.
const XYZ: [&str; 3] = ["x", "y", "z"];

/// What the kernel emitter needs while writing a Brook+ kernel body.
#[derive(Clone, Debug)]
pub struct KernelContext {
    /// Threads per block in x, y, z.
    pub block: [i64; 3],
    /// Blocks in x, y, z.
    pub grid: [i64; 3],
    /// The global position of instance 0 (the low corner of the guard's
    /// box; zero without a guard).
    pub origin: [i64; 3],
    /// The C lvalue each store assigns (an output stream or a lane of a
    /// vector local that is copied to its stream at the end).
    pub stores: FxHashMap<OpId, String>,
    /// Stores whose bound checks admit no position: they never run (the
    /// points of thread-granularity's last chunks past a small domain).
    pub never: Vec<OpId>,
}

impl KernelContext {
    /// The Brook+ expression of a gpu id in dimension `d`, from the
    /// instance position `lf_pos` (a block is a run of `block[d]` positions).
    pub(crate) fn id_expr(&self, id: GpuId, d: usize) -> String {
        let (c, b) = (XYZ[d], self.block[d]);
        let one_block = self.grid[d] == 1;
        match id {
            GpuId::Thread if b == 1 => "0".into(),
            GpuId::Thread if one_block => format!("lf_pos.{c}"),
            GpuId::Block if one_block => "0".into(),
            GpuId::Thread => format!("lf_pos.{c} % {b}"),
            GpuId::Block if b == 1 => format!("lf_pos.{c}"),
            GpuId::Block => format!("lf_pos.{c} / {b}"),
            GpuId::BlockDim => b.to_string(),
            GpuId::GridDim => self.grid[d].to_string(),
            GpuId::Global => format!("lf_pos.{c}"),
        }
    }
}

/// A memref subscript as a function of the position: `coef * g[dim] +
/// offset`, or the constant `offset` when `dim` is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subscript {
    /// The launch dimension it follows.
    pub dim: Option<usize>,
    /// Its coefficient (0 without `dim`).
    pub coef: i64,
    /// The constant part.
    pub offset: i64,
}

/// One output stream of a kernel.
#[derive(Clone, Debug)]
pub struct OutStream {
    /// The kernel argument (memref) it writes.
    pub arg: usize,
    /// Its name in the kernel signature.
    pub name: String,
    /// The memref's element type.
    pub elem: Type,
    /// Lanes per element (1: a scalar stream; 2 or 4: a vector stream).
    pub lanes: usize,
    /// Where lane `l` of the element at position `g` lands in the memref:
    /// one subscript per memref dimension, per lane.
    pub lane_subscripts: Vec<Vec<Subscript>>,
    /// Per lane, the box of domain positions at which the kernel assigns
    /// it (its bound checks), or `None` for the whole domain.
    pub lane_boxes: Vec<Option<Box3>>,
    /// Written straight into the buffer's stream through `domain(start,
    /// end)`: the start, in memref dimension order.
    pub direct_start: Option<Vec<i64>>,
}

/// How a kernel argument appears in the Brook+ kernel.
#[derive(Clone, Debug, Default)]
pub struct ArgUse {
    /// A memref the kernel reads: a gather array.
    pub gather: bool,
    /// The output streams writing this memref (indices into `outputs`).
    pub outputs: Vec<usize>,
}

/// The map-style plan of one kernel.
#[derive(Clone, Debug)]
pub struct KernelPlan {
    /// Launch sizes and stores, for the body emitter.
    pub context: KernelContext,
    /// Positions per launch dimension: `block * grid`, or the guard's box.
    pub extent: [i64; 3],
    /// The rank of the domain: the last launch dimension with more than
    /// one position, plus one.
    pub rank: usize,
    /// Per kernel argument.
    pub args: Vec<ArgUse>,
    /// The output streams, in signature order.
    pub outputs: Vec<OutStream>,
}

impl KernelPlan {
    /// The domain's sizes in Brook+ order (`dims[0]` = x).
    pub fn domain_dims(&self) -> &[i64] {
        &self.extent[..self.rank]
    }
}

/// Brook+ allows at most this many output streams per kernel.
pub const MAX_OUTPUT_STREAMS: usize = 8;

/// A linear function of the ids: per launch dimension the coefficients of
/// the thread id, the block id and the global id, and a constant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct IdLinear {
    thread: [i64; 3],
    block: [i64; 3],
    global: [i64; 3],
    constant: i64,
}

impl IdLinear {
    fn constant(c: i64) -> Self {
        IdLinear {
            constant: c,
            ..Default::default()
        }
    }

    fn add_scaled(&self, o: &IdLinear, k: i64) -> Option<IdLinear> {
        let mut r = *self;
        for d in 0..3 {
            r.thread[d] = r.thread[d].checked_add(o.thread[d].checked_mul(k)?)?;
            r.block[d] = r.block[d].checked_add(o.block[d].checked_mul(k)?)?;
            r.global[d] = r.global[d].checked_add(o.global[d].checked_mul(k)?)?;
        }
        r.constant = r.constant.checked_add(o.constant.checked_mul(k)?)?;
        Some(r)
    }

    fn is_constant(&self) -> bool {
        self.thread == [0; 3] && self.block == [0; 3] && self.global == [0; 3]
    }
}

/// The linearizer of one kernel's index values.
struct Linearizer<'a> {
    ir: IrRef<'a, 'a>,
    block: [i64; 3],
    grid: [i64; 3],
}

impl Linearizer<'_> {
    /// `v` as a linear function of the ids, or why not.
    fn value(&self, v: Value, depth: u32) -> Result<IdLinear, String> {
        if depth > 64 {
            return Err("the index computation is too deep".into());
        }
        let ir = &self.ir;
        let Some(op) = ir.body.defining_op(v) else {
            return Err("an index that is a kernel argument or a loop variable".into());
        };
        let id = |d: usize, f: fn(&mut IdLinear) -> &mut [i64; 3]| {
            let mut l = IdLinear::default();
            f(&mut l)[d] = 1;
            Ok(l)
        };
        if let Some(x) = GpuThreadIdOp::cast(ir, op) {
            return id(x.dimension(ir).index(), |l| &mut l.thread);
        }
        if let Some(x) = GpuBlockIdOp::cast(ir, op) {
            return id(x.dimension(ir).index(), |l| &mut l.block);
        }
        if let Some(x) = GpuGlobalIdOp::cast(ir, op) {
            return id(x.dimension(ir).index(), |l| &mut l.global);
        }
        if let Some(x) = GpuBlockDimOp::cast(ir, op) {
            return Ok(IdLinear::constant(self.block[x.dimension(ir).index()]));
        }
        if let Some(x) = GpuGridDimOp::cast(ir, op) {
            return Ok(IdLinear::constant(self.grid[x.dimension(ir).index()]));
        }
        if let Some(c) = ArithConstantOp::cast(ir, op) {
            return match ir.ctx.attr_data(c.value(ir)) {
                AttrData::Integer { value, .. } => i64::try_from(*value)
                    .map(IdLinear::constant)
                    .map_err(|_| "a constant out of range".into()),
                _ => Err("a non-integer constant".into()),
            };
        }
        let rec = |w: Value| self.value(w, depth + 1);
        let overflow = || "the index overflows".to_string();
        if let Some(a) = AffineApplyOp::cast(ir, op) {
            let map = a.map(ir);
            let [result] = map.results() else {
                return Err("an affine.apply with several results".into());
            };
            let row = lf_ir::affine::linear_form(result, map.num_dims(), map.num_symbols())
                .ok_or_else(|| "a non-linear affine.apply".to_string())?;
            let mut out = IdLinear::constant(*row.last().unwrap_or(&0));
            for (k, &w) in a.map_operands(ir).iter().enumerate() {
                if row[k] != 0 {
                    out = out.add_scaled(&rec(w)?, row[k]).ok_or_else(overflow)?;
                }
            }
            return Ok(out);
        }
        if let Some(o) = ArithAddiOp::cast(ir, op) {
            return rec(o.lhs(ir))?.add_scaled(&rec(o.rhs(ir))?, 1).ok_or_else(overflow);
        }
        if let Some(o) = ArithSubiOp::cast(ir, op) {
            return rec(o.lhs(ir))?.add_scaled(&rec(o.rhs(ir))?, -1).ok_or_else(overflow);
        }
        if let Some(o) = ArithMuliOp::cast(ir, op) {
            let (l, r) = (rec(o.lhs(ir))?, rec(o.rhs(ir))?);
            return match (l.is_constant(), r.is_constant()) {
                (_, true) => IdLinear::default().add_scaled(&l, r.constant).ok_or_else(overflow),
                (true, false) => IdLinear::default().add_scaled(&r, l.constant).ok_or_else(overflow),
                _ => Err("a product of two ids".into()),
            };
        }
        if let Some(o) = ArithIndexCastOp::cast(ir, op) {
            return rec(o.in_(ir));
        }
        Err(format!(
            "an index computed by '{}'",
            ir.ctx.op_name_str(ir.body.op_name(op))
        ))
    }

    /// `v` as a subscript of the position, or why it is not one.
    fn subscript(&self, v: &IdLinear) -> Result<Subscript, String> {
        let mut coef = [0i64; 3];
        for d in 0..3 {
            let (t, b) = (v.thread[d], v.block[d]);
            // The position is block * B + thread: a thread id alone is the
            // position when there is one block, a block id alone when
            // blocks have one thread.
            let c = if self.block[d] == 1 {
                b
            } else if self.grid[d] == 1 || b == t * self.block[d] {
                t
            } else {
                return Err(format!(
                    "it uses the thread and block ids of {} apart (not through the global position)",
                    XYZ[d]
                ));
            };
            coef[d] = c + v.global[d];
        }
        let used: Vec<usize> = (0..3).filter(|&d| coef[d] != 0).collect();
        match used.as_slice() {
            [] => Ok(Subscript {
                dim: None,
                coef: 0,
                offset: v.constant,
            }),
            [d] => Ok(Subscript {
                dim: Some(*d),
                coef: coef[*d],
                offset: v.constant,
            }),
            _ => Err("a subscript depends on two launch dimensions".into()),
        }
    }
}

/// The element type of a memref type.
fn memref_elem(ctx: &Context, t: Type) -> Option<(Type, usize)> {
    match ctx.type_data(t) {
        TypeData::MemRef { element, shape, .. } => Some((*element, shape.len())),
        _ => None,
    }
}

/// The lanes of a Brook+ vector of `elem` with at most `want` lanes
/// (`float2`/`float4`, `double2`), or 1.
fn vector_lanes(ctx: &Context, elem: Type, want: i64) -> usize {
    match ctx.type_data(elem) {
        TypeData::Float(lf_ir::FloatKind::F32) if want >= 4 => 4,
        TypeData::Float(lf_ir::FloatKind::F32 | lf_ir::FloatKind::F64) if want >= 2 => 2,
        _ => 1,
    }
}

/// The store ops of `body`'s block `block` and what they store to.
struct StoreInfo {
    op: OpId,
    arg: usize,
    subs: Vec<Subscript>,
    /// The positions `[lo, hi)` per launch dimension at which it runs.
    bx: Box3,
}

/// A box of positions: `[lo, hi)` per launch dimension.
pub type Box3 = [(i64, i64); 3];

/// Plans the Brook+ form of the kernel `f`, or the reasons it is not
/// map-style (each a diagnostic naming the rule).
pub fn plan(ctx: &Context, f: FuncRef<'_>) -> Result<KernelPlan, Vec<Diagnostic>> {
    let outer = (ctx, f.body);
    let err = |op: OpId, body: &Body, msg: String| op_error(ctx, body, op, msg);
    let Some(g) = GpuFuncOp::cast(&outer, f.op) else {
        return Err(vec![err(f.op, f.body, "not a gpu.func".into())]);
    };
    let (Some(block), Some(grid)) = (g.known_block_size(&outer), g.known_grid_size(&outer)) else {
        return Err(vec![err(
            f.op,
            f.body,
            "[launch-size] a Brook+ kernel needs constant launch sizes (known_block_size and known_grid_size, \
             which gpu-kernel-outlining sets when the launch's sizes are constants)"
                .into(),
        )]);
    };
    let to3 = |v: &[i64]| [0, 1, 2].map(|d| v.get(d).copied().unwrap_or(1).max(1));
    let (block, grid) = (to3(&block), to3(&grid));
    if g.num_workgroup_attributions(&outer) > 0 {
        return Err(vec![err(
            f.op,
            f.body,
            "[workgroup-memory] workgroup memory is not supported by the Brook+ emitter (Brook+ has only the RV770 LDS form)"
                .into(),
        )]);
    }
    let body = f.body.regions_body(f.op);
    let ir = IrRef::new(ctx, body);
    let Some(entry) = body.entry_block(g.body(&outer)) else {
        return Err(vec![err(f.op, f.body, "kernel without a body".into())]);
    };
    let params: Vec<Value> = body.block_args(entry).to_vec();
    let nargs = g.num_inputs(&outer);
    let arg_of = |v: Value| params[..nargs.min(params.len())].iter().position(|&p| p == v);
    let lin = Linearizer { ir, block, grid };
    let extent = [0, 1, 2].map(|d| block[d] * grid[d]);
    let mut errors = Vec::new();
    let mut args = vec![ArgUse::default(); nargs];
    let mut stores: Vec<StoreInfo> = Vec::new();
    let mut never = Vec::new();
    let mut all = Vec::new();
    lf_ir::walk::walk(f.body, f.op, lf_ir::walk::WalkOrder::PreOrder, &mut |b, op| {
        if std::ptr::eq(b, body) {
            all.push(op);
        }
        lf_ir::walk::WalkControl::Advance
    });
    for op in all {
        let access = if let Some(s) = AffineStoreOp::cast(&ir, op) {
            Some((s.memref(&ir), Some(Access::Affine(s.map(&ir), s.indices(&ir).to_vec()))))
        } else if let Some(s) = MemrefStoreOp::cast(&ir, op) {
            Some((s.memref(&ir), Some(Access::Direct(s.indices(&ir).to_vec()))))
        } else if let Some(l) = AffineLoadOp::cast(&ir, op) {
            Some((l.memref(&ir), None))
        } else {
            MemrefLoadOp::cast(&ir, op).map(|l| (l.memref(&ir), None))
        };
        let Some((memref, access)) = access else { continue };
        let Some(arg) = arg_of(memref) else {
            errors.push(err(
                op,
                body,
                "[map-style] the memref is not a kernel argument (Brook+ streams are kernel arguments)".into(),
            ));
            continue;
        };
        let Some(access) = access else {
            args[arg].gather = true;
            continue;
        };
        // Only bound checks may enclose a store: it writes the box of
        // positions they admit.
        let bx = match store_box(&lin, entry, op, &extent) {
            Ok(Some(bx)) => bx,
            Ok(None) => {
                never.push(op);
                continue;
            }
            Err(why) => {
                errors.push(err(op, body, format!("[map-style] {why}")));
                continue;
            }
        };
        let linear: Vec<Result<IdLinear, String>> = match &access {
            Access::Direct(indices) => indices.iter().map(|&v| lin.value(v, 0)).collect(),
            Access::Affine(map, operands) => (0..map.num_results())
                .map(|r| affine_result(&lin, map, r, operands))
                .collect(),
        };
        let subs: Result<Vec<Subscript>, String> = linear
            .into_iter()
            .enumerate()
            .map(|(r, l)| {
                l.and_then(|l| lin.subscript(&l))
                    .map_err(|why| format!("subscript {r} is not an affine function of the thread's position: {why}"))
            })
            .collect();
        match subs {
            Ok(subs) => stores.push(StoreInfo { op, arg, subs, bx }),
            Err(why) => errors.push(err(op, body, format!("[map-style] {why}"))),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // The domain: the hull of the stores' boxes; positions count from its
    // low corner (`origin`), and each store keeps its box relative to it.
    let mut origin = [0i64; 3];
    let mut extent = extent;
    if !stores.is_empty() {
        for d in 0..3 {
            let lo = stores.iter().map(|s| s.bx[d].0).min().unwrap_or(0);
            let hi = stores.iter().map(|s| s.bx[d].1).max().unwrap_or(extent[d]);
            origin[d] = lo;
            extent[d] = hi - lo;
        }
    }
    for st in &mut stores {
        for x in &mut st.subs {
            if let Some(d) = x.dim {
                x.offset += x.coef * origin[d];
            }
        }
        for (b, o) in st.bx.iter_mut().zip(origin) {
            *b = (b.0 - o, b.1 - o);
        }
    }
    let rank = (0..3).rev().find(|&d| extent[d] > 1).map_or(1, |d| d + 1);
    let mut outputs = Vec::new();
    let mut targets = FxHashMap::default();
    for arg in 0..nargs {
        let mine: Vec<&StoreInfo> = stores.iter().filter(|s| s.arg == arg).collect();
        let Some(first) = mine.first() else { continue };
        let ty = body.value_type(params[arg]);
        let Some((elem, mrank)) = memref_elem(ctx, ty) else {
            continue;
        };
        if let Err(why) = check_coverage(&mine, &extent) {
            errors.push(err(first.op, body, format!("[map-style] {why}")));
            continue;
        }
        let name = format!(
            "{}_s",
            crate::names::ValueNames::new(ctx, f.body, f.op).get(params[arg])
        );
        for group in group_lanes(ctx, &mine, elem, mrank) {
            let k = outputs.len();
            let sname = format!("{name}{}", args[arg].outputs.len());
            let lanes = group.len();
            for (l, s) in group.iter().enumerate() {
                let lvalue = if lanes == 1 {
                    sname.clone()
                } else {
                    format!("lf_{sname}.{}", crate::ctypes::component(l))
                };
                targets.insert(s.op, lvalue);
            }
            let lane_subscripts: Vec<Vec<Subscript>> = group.iter().map(|s| s.subs.clone()).collect();
            let full = |b: &Box3| (0..3).all(|d| b[d] == (0, extent[d]));
            let lane_boxes: Vec<Option<Box3>> = group.iter().map(|s| (!full(&s.bx)).then_some(s.bx)).collect();
            let direct = (lanes == 1 && mrank == rank && mine.len() == 1 && lane_boxes[0].is_none())
                .then(|| {
                    let s = &lane_subscripts[0];
                    (0..mrank)
                        .all(|r| s[r].dim == Some(mrank - 1 - r) && s[r].coef == 1)
                        .then(|| s.iter().map(|x| x.offset).collect())
                })
                .flatten();
            outputs.push(OutStream {
                arg,
                name: sname,
                elem,
                lanes,
                lane_subscripts,
                lane_boxes,
                direct_start: direct,
            });
            args[arg].outputs.push(k);
        }
    }
    if outputs.len() > MAX_OUTPUT_STREAMS {
        errors.push(err(
            f.op,
            f.body,
            format!(
                "[out-streams] the kernel needs {} output streams; Brook+ allows at most {MAX_OUTPUT_STREAMS} per kernel \
                 (brcc splits more into two passes)",
                outputs.len()
            ),
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(KernelPlan {
        context: KernelContext {
            block,
            grid,
            origin,
            stores: targets,
            never,
        },
        extent,
        rank,
        args,
        outputs,
    })
}

/// The box of positions (within `[0, extent)`) at which `store` runs
/// (`None` when there is none): the
/// ops enclosing it up to the kernel's `entry` block must be `affine.if`s
/// without `else` whose constraints each bound one launch dimension.
fn store_box(
    lin: &Linearizer<'_>,
    entry: lf_ir::BlockId,
    store: OpId,
    extent: &[i64; 3],
) -> Result<Option<Box3>, String> {
    let body = lin.ir.body;
    let mut bx: Box3 = [0, 1, 2].map(|d| (0, extent[d]));
    let mut op = store;
    while body.op_block(op) != Some(entry) {
        let parent = body
            .parent_op(op)
            .ok_or_else(|| "a store outside the kernel body".to_string())?;
        let guard = AffineIfOp::cast(&lin.ir, parent).filter(|g| g.else_region_block(&lin.ir).is_none());
        let Some(guard) = guard else {
            return Err(
                "a store under a loop or a branch: a Brook+ kernel assigns each output element once, \
                        unconditionally or under bound checks"
                    .into(),
            );
        };
        let (lo, hi) = guard_box(lin, guard, extent)?;
        for d in 0..3 {
            bx[d] = (bx[d].0.max(lo[d]), bx[d].1.min(hi[d]));
        }
        op = parent;
    }
    // `None`: the store never runs.
    Ok((0..3).all(|d| bx[d].0 < bx[d].1).then_some(bx))
}

/// The box `[lo, hi)` of positions (within `[0, extent)`) that the guard
/// `g` admits: each constraint must bound one launch dimension.
fn guard_box(lin: &Linearizer<'_>, g: AffineIfOp, extent: &[i64; 3]) -> Result<([i64; 3], [i64; 3]), String> {
    let ir = &lin.ir;
    let set = g.condition(ir);
    let operands = g.operands(ir);
    let (nd, ns) = (set.num_dims(), set.num_symbols());
    let (mut lo, mut hi) = ([0i64; 3], *extent);
    for k in 0..set.num_constraints() {
        let row = lf_ir::affine::linear_form(set.constraint(k), nd, ns)
            .ok_or_else(|| "the guard is not linear".to_string())?;
        let mut e = IdLinear::constant(*row.last().unwrap_or(&0));
        for (j, &w) in operands.iter().enumerate() {
            if row[j] != 0 {
                e = e
                    .add_scaled(&lin.value(w, 0)?, row[j])
                    .ok_or_else(|| "the guard overflows".to_string())?;
            }
        }
        let s = lin
            .subscript(&e)
            .map_err(|why| format!("the guard is not a box of positions: {why}"))?;
        let Some(d) = s.dim else {
            return Err("the guard has a constraint on no position".into());
        };
        // coef * p + offset >= 0 (or == 0).
        let (a, c) = (s.coef, s.offset);
        let lower = (a > 0).then(|| (-c).div_euclid(a) + i64::from((-c).rem_euclid(a) != 0));
        let upper = (a < 0).then(|| c.div_euclid(-a));
        if set.is_eq(k) {
            if c % a != 0 {
                return Err("the guard admits no position".into());
            }
            lo[d] = lo[d].max(-c / a);
            hi[d] = hi[d].min(-c / a + 1);
        }
        if let Some(l) = lower {
            lo[d] = lo[d].max(l);
        }
        if let Some(u) = upper {
            hi[d] = hi[d].min(u + 1);
        }
    }
    Ok((lo, hi))
}

/// The subscripts of a store: an affine map of operands, or the indices.
enum Access<'a> {
    Affine(&'a lf_ir::affine::AffineMap, Vec<Value>),
    Direct(Vec<Value>),
}

/// Result `r` of an affine access map applied to `operands`.
fn affine_result(
    lin: &Linearizer<'_>,
    map: &lf_ir::affine::AffineMap,
    r: usize,
    operands: &[Value],
) -> Result<IdLinear, String> {
    let row = lf_ir::affine::linear_form(&map.results()[r], map.num_dims(), map.num_symbols())
        .ok_or_else(|| "a non-linear subscript".to_string())?;
    let mut out = IdLinear::constant(*row.last().unwrap_or(&0));
    for (k, &w) in operands.iter().enumerate() {
        if row[k] != 0 {
            out = out
                .add_scaled(&lin.value(w, 0)?, row[k])
                .ok_or_else(|| "the index overflows".to_string())?;
        }
    }
    Ok(out)
}

/// Whether the stores `mine` of one memref write distinct elements from
/// distinct (position, store) pairs, and every launch dimension with more
/// than one position is followed by some subscript (else several threads
/// would write one element).
fn check_coverage(mine: &[&StoreInfo], extent: &[i64; 3]) -> Result<(), String> {
    let pattern = |s: &StoreInfo| s.subs.iter().map(|x| (x.dim, x.coef)).collect::<Vec<_>>();
    let p0 = pattern(mine[0]);
    if mine.iter().any(|s| pattern(s) != p0) {
        return Err("the stores of one memref follow the position differently".into());
    }
    let mut seen = [false; 3];
    for (dim, coef) in &p0 {
        if let Some(d) = dim {
            if seen[*d] || *coef == 0 {
                return Err("one launch dimension is followed by two subscripts".into());
            }
            seen[*d] = true;
        }
    }
    if let Some(d) = (0..3).find(|&d| extent[d] > 1 && !seen[d]) {
        return Err(format!(
            "no subscript follows launch dimension {}: several threads write one element",
            XYZ[d]
        ));
    }
    // Two stores k != k' collide when some positions g, g' give equal
    // subscripts: per subscript, the offsets' difference is a multiple of
    // the coefficient within the dimension's extent (or zero for a
    // constant subscript).
    for (i, a) in mine.iter().enumerate() {
        for b in &mine[i + 1..] {
            let collide = a.subs.iter().zip(&b.subs).all(|(x, y)| {
                let delta = y.offset - x.offset;
                match x.dim {
                    None => delta == 0,
                    Some(d) => delta % x.coef == 0 && (delta / x.coef).abs() < extent[d],
                }
            });
            if collide {
                return Err("two stores may write one element".into());
            }
        }
    }
    Ok(())
}

/// Groups the stores of one memref into output streams: stores whose
/// fastest-dimension offsets are `c, c+1, ..` (as many as the vector type
/// has lanes, at most the coefficient there) and whose other offsets are
/// equal share a vector stream; any other store is a scalar stream.
fn group_lanes<'s>(ctx: &Context, mine: &[&'s StoreInfo], elem: Type, mrank: usize) -> Vec<Vec<&'s StoreInfo>> {
    let mut sorted: Vec<&StoreInfo> = mine.to_vec();
    let key = |s: &StoreInfo| s.subs.iter().map(|x| x.offset).collect::<Vec<_>>();
    sorted.sort_by_key(|s| key(s));
    let fast = mrank.checked_sub(1);
    let want = fast.map_or(1, |r| sorted[0].subs[r].coef.abs());
    let lanes = if fast.is_some_and(|r| sorted[0].subs[r].dim.is_some()) {
        vector_lanes(ctx, elem, want)
    } else {
        1
    };
    let mut used = vec![false; sorted.len()];
    let mut groups = Vec::new();
    for i in 0..sorted.len() {
        if used[i] {
            continue;
        }
        let mut group = vec![i];
        if let (Some(r), true) = (fast, lanes > 1) {
            let base = key(sorted[i]);
            for l in 1..lanes as i64 {
                let mut want = base.clone();
                want[r] += l;
                let same = |j: usize| key(sorted[j]) == want && sorted[j].bx == sorted[i].bx;
                match (0..sorted.len()).find(|&j| !used[j] && !group.contains(&j) && same(j)) {
                    Some(j) => group.push(j),
                    None => break,
                }
            }
            if group.len() != lanes {
                group.truncate(1);
            }
        }
        for &j in &group {
            used[j] = true;
        }
        groups.push(group.into_iter().map(|j| sorted[j]).collect());
    }
    groups
}
