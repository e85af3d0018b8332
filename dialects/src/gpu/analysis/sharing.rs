//! Data sharing between the blocks of a kernel (seed 004, DIGEST §004.5)
//! and a per-thread register estimate, the inputs of `block-merge`,
//! `thread-merge` and `gpu-merge-policy`.
//!
//! Every global load is **G2S** (its value is only stored into workgroup
//! memory) or **G2R** (its value feeds the computation). Two blocks share
//! a load when the **segments** it reads (the addresses the threads of one
//! block read at one point of the kernel: the linear subscripts with the
//! thread ids ranging over the block, loops and invariants fixed) overlap:
//! the load is independent of the block id along that dimension, or the
//! shift `s · coef(bid)` of a neighbour `s` blocks away stays within the
//! span of the thread terms in every subscript (a bounding-box test).
//!
//! [`dependent_values`] is the exact data-flow side of the same question:
//! the values of a kernel that depend on the block id along one dimension
//! (what `thread-merge` must replicate per merged block, and what it may
//! keep once).

use super::kernel_access::{kernel_accesses, KernelAccess, LaunchIds, MemorySpace, Term};
use crate::affine::{AffineApplyOp, AffineForOp, AffineLoadOp, AffineStoreOp, AffineYieldOp};
use crate::gpu::GpuLaunchOp;
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use lf_ir::affine::AffineMap;
use lf_ir::view::{Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, TypeData, Value};
use rustc_hash::FxHashSet;

/// Where a global load's value goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadKind {
    /// Global to shared: the value is only stored into workgroup memory.
    G2S,
    /// Global to register: the value is used in computation.
    G2R,
}

/// The sharing verdict of one global load.
#[derive(Clone, Debug)]
pub struct SharedLoad {
    /// The load op.
    pub op: OpId,
    /// G2S or G2R.
    pub kind: LoadKind,
    /// Per dimension (x, y): whether the address does not depend on the
    /// block id along it (every block along it loads the same segment).
    pub independent: [bool; 2],
    /// Per dimension (x, y): whether neighbouring blocks along it load
    /// overlapping segments.
    pub shares: [bool; 2],
    /// The access as the kernel-access analysis sees it.
    pub access: KernelAccess,
}

impl SharedLoad {
    /// Whether blocks `stride` apart along `dim` load overlapping segments
    /// (`None` when a subscript is unresolved: sharing unknown).
    pub fn shares_at_stride(&self, ids: &LaunchIds, dim: usize, stride: i64) -> Option<bool> {
        segments_overlap(&self.access, ids, dim, stride)
    }
}

/// Whether blocks `stride` apart along `dim` read overlapping segments
/// through `access` (bounding boxes of the thread terms per subscript).
pub fn segments_overlap(access: &KernelAccess, ids: &LaunchIds, dim: usize, stride: i64) -> Option<bool> {
    for s in &access.subscripts {
        let l = s.linear()?;
        let shift = l.coef(Term::Block(dim)).checked_mul(stride)?.checked_abs()?;
        let span: i64 = l
            .terms
            .iter()
            .filter_map(|&(t, c)| match t {
                Term::Thread(d) => Some(c.abs().saturating_mul(ids.block_size[d].unwrap_or(1).max(1) - 1)),
                _ => None,
            })
            .sum();
        if shift > span {
            return Some(false);
        }
    }
    Some(true)
}

/// Whether the value of load `op` (result `v`) only goes into stores to
/// workgroup memory.
fn only_stored_to_shared(ctx: &Context, body: &Body, v: Value) -> bool {
    let ir = (ctx, body);
    let mut any = false;
    for u in body.uses(v) {
        let user = body.use_owner(u);
        let ok = if let Some(s) = AffineStoreOp::cast(&ir, user) {
            s.value(&ir) == v && super::kernel_access::memory_space(ctx, body, s.memref(&ir)) == MemorySpace::Workgroup
        } else if let Some(s) = MemrefStoreOp::cast(&ir, user) {
            s.value(&ir) == v && super::kernel_access::memory_space(ctx, body, s.memref(&ir)) == MemorySpace::Workgroup
        } else {
            false
        };
        if !ok {
            return false;
        }
        any = true;
    }
    any
}

/// The global loads of `launch` with their kind and sharing.
pub fn shared_loads<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp) -> Vec<SharedLoad> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let ids = LaunchIds::of(ir, launch);
    kernel_accesses(ir, launch)
        .into_iter()
        .filter(|a| !a.is_store && a.space == MemorySpace::Global)
        .map(|a| {
            let result = body.results(a.op).next();
            let kind = match result {
                Some(v) if only_stored_to_shared(ctx, body, v) => LoadKind::G2S,
                _ => LoadKind::G2R,
            };
            let resolved = a.unresolved().is_none();
            let independent = [0, 1].map(|d| {
                resolved
                    && a.subscripts
                        .iter()
                        .all(|s| s.linear().is_some_and(|l| l.coef(Term::Block(d)) == 0))
            });
            let shares = [0, 1].map(|d| segments_overlap(&a, &ids, d, 1).unwrap_or(false));
            SharedLoad {
                op: a.op,
                kind,
                independent,
                shares,
                access: a,
            }
        })
        .collect()
}

/// The values inside `launch` that depend on the block id along `dim`
/// (data flow through ops, loop-carried values, and workgroup arrays
/// stored with a dependent value or index: the array then depends on it
/// too). Values computed under control flow that depends on it (a loop
/// bound, an `affine.if` condition) are included through the op's
/// operands, not its nested ops: callers check those ops themselves.
pub fn dependent_values<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp, dim: usize) -> FxHashSet<Value> {
    values_depending_on(ir, launch, launch.block_ids(ir)[dim])
}

/// The values inside `launch` that depend on `seed` (a block argument of
/// its body: a block or thread id), as [`dependent_values`] finds them.
pub fn values_depending_on<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp, seed: Value) -> FxHashSet<Value> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let mut dep: FxHashSet<Value> = FxHashSet::default();
    dep.insert(seed);
    let wg: FxHashSet<Value> = launch.workgroup_attributions(ir).into_iter().collect();
    loop {
        let before = dep.len();
        walk(body, launch.op(), WalkOrder::PreOrder, &mut |b, op| {
            if op == launch.op() {
                return WalkControl::Advance;
            }
            let irb = (ctx, b);
            let any_in = used_operands(&irb, op).iter().any(|v| dep.contains(v));
            if let Some(f) = AffineForOp::cast(&irb, op) {
                let inits = f.inits(&irb);
                let args = f.region_iter_args(&irb);
                let results: Vec<Value> = b.results(op).collect();
                for (k, init) in inits.iter().enumerate() {
                    if dep.contains(init) {
                        dep.insert(args[k]);
                        dep.insert(results[k]);
                    }
                }
                // A loop whose bounds depend on it: everything carried does.
                let bounds_dep = f
                    .lower_bound(&irb)
                    .operands
                    .iter()
                    .chain(f.upper_bound(&irb).operands.iter())
                    .any(|v| dep.contains(v));
                if bounds_dep {
                    dep.extend(args.iter().copied());
                    dep.extend(results.iter().copied());
                }
                return WalkControl::Advance;
            }
            if AffineYieldOp::isa(&irb, op) {
                if let Some(p) = b.parent_op(op) {
                    let results: Vec<Value> = b.results(p).collect();
                    let args: Vec<Value> = AffineForOp::cast(&irb, p)
                        .map(|f| f.region_iter_args(&irb).to_vec())
                        .unwrap_or_default();
                    for (k, v) in b.operands(op).enumerate() {
                        if dep.contains(&v) {
                            if let Some(&r) = results.get(k) {
                                dep.insert(r);
                            }
                            if let Some(&a) = args.get(k) {
                                dep.insert(a);
                            }
                        }
                    }
                }
                return WalkControl::Advance;
            }
            let store = AffineStoreOp::cast(&irb, op)
                .map(|s| s.memref(&irb))
                .or_else(|| MemrefStoreOp::cast(&irb, op).map(|s| s.memref(&irb)));
            if let Some(m) = store {
                if any_in && wg.contains(&m) {
                    dep.insert(m);
                }
                return WalkControl::Advance;
            }
            if any_in {
                dep.extend(b.results(op));
            }
            WalkControl::Advance
        });
        if dep.len() == before {
            break;
        }
    }
    dep
}

/// The operands `op`'s result depends on: for `affine.apply`, the operands
/// its map uses (a map may take an id it does not read); for affine loads
/// and stores, the memref, the stored value and the indices their map
/// uses; else all operands.
fn used_operands<'c>(ir: &impl Ir<'c>, op: OpId) -> Vec<Value> {
    let used = |map: &AffineMap, operands: &[Value]| -> Vec<Value> {
        let nd = map.num_dims() as usize;
        operands
            .iter()
            .enumerate()
            .filter(|&(k, _)| {
                if k < nd {
                    map.is_function_of_dim(k as u32)
                } else {
                    map.is_function_of_symbol((k - nd) as u32)
                }
            })
            .map(|(_, &v)| v)
            .collect()
    };
    if let Some(a) = AffineApplyOp::cast(ir, op) {
        return used(a.map(ir), &a.map_operands(ir));
    }
    if let Some(l) = AffineLoadOp::cast(ir, op) {
        let mut out = vec![l.memref(ir)];
        out.extend(used(l.map(ir), &l.indices(ir)));
        return out;
    }
    if let Some(s) = AffineStoreOp::cast(ir, op) {
        let mut out = vec![s.value(ir), s.memref(ir)];
        out.extend(used(s.map(ir), &s.indices(ir)));
        return out;
    }
    ir.body().operands(op).collect()
}

/// A register-pressure estimate per thread (32-bit registers).
///
/// The model (an estimate, not what ptxas allocates): `base` = 2 per
/// global memref (a 64-bit pointer) + the ids used (1 each, at most 6);
/// `carried` = the loop-carried values (`iter_args`, 1 per 32-bit scalar,
/// 2 per 64-bit or index; an inner loop carrying an outer loop's value
/// reuses its register); `live_across` = values defined outside a loop and
/// used inside it (not constants nor workgroup arrays, each once); `temporaries` = the values
/// loaded in the busiest loop body plus 2 for an address. Under a thread
/// merge of factor `N` along `dim`, a dependent value counts `N` times,
/// except index values: the copies' addresses differ by constants that
/// ptxas folds into immediate offsets; loaded temporaries count once (each
/// is consumed by its use). Not calibrated against `ptxas -v` here; by
/// hand it gives the naive mm about 20 and the Fig. 7 kernel (32 partial
/// sums) about 55, the order the seed reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegisterEstimate {
    /// Pointers and ids.
    pub base: u64,
    /// Loop-carried values.
    pub carried: u64,
    /// Values live across a loop.
    pub live_across: u64,
    /// Loaded values in the busiest loop body, plus an address.
    pub temporaries: u64,
}

impl RegisterEstimate {
    /// The estimate.
    pub fn total(&self) -> u64 {
        self.base + self.carried + self.live_across + self.temporaries
    }
}

fn regs_of(ctx: &Context, body: &Body, v: Value) -> u64 {
    match ctx.type_data(body.value_type(v)) {
        TypeData::Float(k) if k.width() > 32 => 2,
        TypeData::Integer { width, .. } if *width > 32 => 2,
        TypeData::Index => 2,
        _ => 1,
    }
}

/// The register estimate of `launch`'s kernel, or of the kernel a thread
/// merge of `factor` along `dim` would make (`merge = Some((dim, factor))`).
pub fn register_estimate<'c>(ir: &impl Ir<'c>, launch: GpuLaunchOp, merge: Option<(usize, u64)>) -> RegisterEstimate {
    register_estimate_merged(ir, launch, merge.as_slice())
}

/// The register estimate of the kernel that thread merges by each
/// `(dim, factor)` of `merges` would make (none: the kernel as it is): a
/// value counts once per merged copy of every dimension it depends on.
pub fn register_estimate_merged<'c>(
    ir: &impl Ir<'c>,
    launch: GpuLaunchOp,
    merges: &[(usize, u64)],
) -> RegisterEstimate {
    let (ctx, body) = (ir.ctx(), ir.body());
    let deps: Vec<(FxHashSet<Value>, u64)> = merges
        .iter()
        .map(|&(d, f)| (dependent_values(ir, launch, d), f.max(1)))
        .collect();
    // Index values that depend on a merged block differ between the
    // copies by a constant (`bid*N + c`): ptxas folds it into the load's
    // immediate offset, so they count once; other dependent values (the
    // accumulators, loaded data) once per copy.
    let index = ctx.common().index;
    let copies = |b: &Body, v: &Value| {
        if b.value_type(*v) == index {
            return 1;
        }
        deps.iter()
            .filter(|(dep, _)| dep.contains(v))
            .map(|(_, n)| *n)
            .product::<u64>()
    };
    let mut est = RegisterEstimate::default();
    let accesses = kernel_accesses(ir, launch);
    let mut memrefs: Vec<Value> = accesses
        .iter()
        .filter(|a| a.space == MemorySpace::Global)
        .map(|a| a.memref)
        .collect();
    memrefs.sort();
    memrefs.dedup();
    est.base = 2 * memrefs.len() as u64;
    let ids = LaunchIds::of(ir, launch);
    let used_ids = ids
        .thread
        .iter()
        .chain(ids.block.iter())
        .filter(|v| body.has_uses(**v))
        .count();
    est.base += used_ids.min(6) as u64;
    let mut busiest = 0u64;
    // Loop-carried values of every loop (an inner loop carrying an outer
    // loop's value reuses its register).
    let mut carried_regs: FxHashSet<Value> = FxHashSet::default();
    let mut seen: FxHashSet<Value> = FxHashSet::default();
    walk(body, launch.op(), WalkOrder::PreOrder, &mut |b, op| {
        let irb = (ctx, b);
        if let Some(f) = AffineForOp::cast(&irb, op) {
            let inits = f.inits(&irb);
            for (k, a) in f.region_iter_args(&irb).into_iter().enumerate() {
                carried_regs.insert(a);
                if inits.get(k).is_some_and(|i| carried_regs.contains(i)) {
                    continue;
                }
                est.carried += regs_of(ctx, b, a) * copies(b, &a);
            }
            // Values from outside the loop used inside it (once each).
            walk(b, op, WalkOrder::PreOrder, &mut |bb, inner| {
                for v in bb.operands(inner) {
                    let outside = !bb.is_defined_inside(v, op) && bb.is_defined_inside(v, launch.op());
                    let constant = bb.defining_op(v).is_some_and(|d| bb.num_operands(d) == 0);
                    // Workgroup arrays are constant offsets in shared memory.
                    let memref = matches!(ctx.type_data(bb.value_type(v)), TypeData::MemRef { .. });
                    if outside && !constant && !memref && !carried_regs.contains(&v) && seen.insert(v) {
                        est.live_across += regs_of(ctx, bb, v) * copies(bb, &v);
                    }
                }
                WalkControl::Advance
            });
            // The loads directly in its body (consumed as they come: once).
            let mut loads = 0u64;
            if let Some(blk) = b.regions(op).first().and_then(|r| b.region_blocks(*r).next()) {
                for o in b.block_ops(blk) {
                    if AffineLoadOp::isa(&irb, o) || MemrefLoadOp::isa(&irb, o) {
                        if let Some(r) = b.results(o).next() {
                            loads += regs_of(ctx, b, r);
                        }
                    }
                }
            }
            busiest = busiest.max(loads);
        }
        WalkControl::Advance
    });
    est.temporaries = busiest + 2;
    est
}
