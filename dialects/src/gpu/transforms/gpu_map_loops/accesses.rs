//! The global-memory accesses of a mapped band as the cost model sees
//! them: for each `affine.load`/`affine.store`/`memref.load`/
//! `memref.store` in the body, the coefficient of its linearized element
//! offset along each thread counter (DIGEST §003.6's address model:
//! `M = e0·d1·…·dk + … + ek`, or the memref's own strides), the line size
//! in elements, and how often one thread executes it.

use super::band_loops::Band;
use super::counter_space::CounterSpace;
use crate::affine::utils::memory_footprint::element_bytes;
use crate::affine::utils::trip_count_bound::constant_trip_count;
use crate::affine::{AffineApplyOp, AffineForOp, AffineLoadOp, AffineStoreOp};
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::attrs::AttrData;
use lf_ir::view::{Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{OpId, TypeData, Value, DYNAMIC};

/// How many times a loop whose trip count is not a known constant is
/// assumed to run, for execution counts (the seed leaves it open).
pub const DEFAULT_TRIP_COUNT: u64 = 16;

/// One access of the band's body.
#[derive(Clone, Debug, PartialEq)]
pub struct Access {
    /// The load or store.
    pub op: OpId,
    /// The coefficient of the element offset along each counter (`None`:
    /// not known at compile time).
    pub coefs: Vec<Option<i64>>,
    /// Elements per cache line.
    pub line_elems: u64,
    /// How many times one thread executes it.
    pub count: u64,
}

/// The accesses to non-local memory in the body of `band`, with `ivs[p]`
/// the induction variable of loop `p` over `space`'s counters.
pub fn band_accesses<'c>(
    ir: &impl Ir<'c>,
    band: &Band,
    ivs: &[AffineExpr],
    space: &CounterSpace,
    cache_line_bytes: u64,
) -> Vec<Access> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let band_ivs: Vec<Value> = band.ivs();
    let mut out = Vec::new();
    walk(body, band.inner, WalkOrder::PreOrder, &mut |b, op| {
        let ir = (ctx, b);
        let access = if let Some(l) = AffineLoadOp::cast(&ir, op) {
            Some((l.memref(&ir), Some(l.map(&ir).clone()), l.indices(&ir)))
        } else if let Some(s) = AffineStoreOp::cast(&ir, op) {
            Some((s.memref(&ir), Some(s.map(&ir).clone()), s.indices(&ir)))
        } else if let Some(l) = MemrefLoadOp::cast(&ir, op) {
            Some((l.memref(&ir), None, l.indices(&ir)))
        } else {
            MemrefStoreOp::cast(&ir, op).map(|s| (s.memref(&ir), None, s.indices(&ir)))
        };
        if let Some((memref, map, indices)) = access {
            let Some(layout) = Layout::of(ctx, b.value_type(memref), cache_line_bytes) else {
                return WalkControl::Advance;
            };
            let mut scope = OffsetScope {
                ir: &ir,
                space: space.clone(),
                band_ivs: &band_ivs,
                ivs,
                band_root: band.root,
            };
            let subscripts: Vec<Option<AffineExpr>> = match map {
                Some(map) => (0..map.num_results())
                    .map(|k| scope.map_result(&map, k, &indices))
                    .collect(),
                None => indices.iter().map(|&v| scope.value(v)).collect(),
            };
            let coefs = layout.coefficients(&scope.space, &subscripts);
            out.push(Access {
                op,
                coefs,
                line_elems: layout.line_elems,
                count: execution_count(&ir, op, band.inner),
            });
        }
        WalkControl::Advance
    });
    out
}

/// The strides and line size of a memref type.
struct Layout {
    /// Stride of each dimension in elements (`None`: dynamic).
    strides: Vec<Option<i64>>,
    /// Elements per line (at least 1).
    line_elems: u64,
}

impl Layout {
    /// The layout of a memref type in global memory (`None` for other
    /// memory spaces, whose accesses do not go to global memory).
    fn of(ctx: &lf_ir::Context, ty: lf_ir::Type, cache_line_bytes: u64) -> Option<Layout> {
        let TypeData::MemRef {
            shape,
            element,
            layout,
            memory_space,
        } = ctx.type_data(ty)
        else {
            return None;
        };
        if memory_space.is_some_and(|s| {
            crate::gpu::AddressSpace::from_attr(ctx, s).is_some_and(|a| a != crate::gpu::AddressSpace::Global)
        }) {
            return None;
        }
        let strides = match layout.map(|l| ctx.attr_data(l)) {
            None => row_major(shape),
            Some(AttrData::AffineMap(m)) if m.is_identity() => row_major(shape),
            Some(AttrData::Strided { strides, .. }) => strides.iter().map(|&s| (s != DYNAMIC).then_some(s)).collect(),
            Some(_) => vec![None; shape.len()],
        };
        let bytes = element_bytes(ctx, *element).unwrap_or(8).max(1);
        Some(Layout {
            strides,
            line_elems: (cache_line_bytes / bytes).max(1),
        })
    }

    /// The coefficient of `Σ subscript_k · stride_k` along each counter.
    fn coefficients(&self, space: &CounterSpace, subscripts: &[Option<AffineExpr>]) -> Vec<Option<i64>> {
        let mut coefs: Vec<Option<i64>> = vec![Some(0); space.depth];
        for (k, sub) in subscripts.iter().enumerate() {
            let stride = self.strides.get(k).copied().flatten();
            let split = sub.as_ref().and_then(|e| space.split_counters(e));
            for (p, c) in coefs.iter_mut().enumerate() {
                let uses = match sub {
                    Some(e) => e.is_function_of_dim(p as u32),
                    None => true,
                };
                if !uses {
                    continue;
                }
                let term = match (&split, stride) {
                    (Some((cs, _)), Some(s)) => cs[p].checked_mul(s),
                    _ => None,
                };
                *c = c.zip(term).and_then(|(a, b)| a.checked_add(b));
            }
        }
        coefs
    }
}

fn row_major(shape: &[i64]) -> Vec<Option<i64>> {
    let mut strides = vec![Some(1i64); shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        strides[k] = match (strides[k + 1], shape[k + 1]) {
            (Some(s), n) if n != DYNAMIC => s.checked_mul(n),
            _ => None,
        };
    }
    strides
}

/// Subscripts of one access as expressions over the counters.
struct OffsetScope<'a, I> {
    ir: &'a I,
    space: CounterSpace,
    band_ivs: &'a [Value],
    ivs: &'a [AffineExpr],
    band_root: OpId,
}

impl<'c, I: Ir<'c>> OffsetScope<'_, I> {
    /// The expression of `v`: a band induction variable's, an
    /// `affine.apply` in the band composed, a fresh dimension for a value
    /// that does not depend on the counters (defined outside the band, or
    /// the induction variable of a loop inside it); `None` for a value
    /// computed inside the band some other way.
    fn value(&mut self, v: Value) -> Option<AffineExpr> {
        if let Some(p) = self.band_ivs.iter().position(|&x| x == v) {
            return Some(self.ivs[p].clone());
        }
        let body = self.ir.body();
        if !body.is_defined_inside(v, self.band_root) {
            return Some(self.space.input(v));
        }
        if let Some(apply) = AffineApplyOp::defining(self.ir, v) {
            let map = apply.map(self.ir).clone();
            return self.map_result(&map, 0, &apply.map_operands(self.ir));
        }
        if let lf_ir::ValueDef::BlockArg { block, index: 0 } = body.value_def(v) {
            let owner = body.block_region(block).and_then(|r| body.region_parent(r));
            if owner.is_some_and(|o| AffineForOp::isa(self.ir, o)) {
                return Some(self.space.input(v));
            }
        }
        None
    }

    /// Result `k` of `map` over `operands`.
    fn map_result(&mut self, map: &AffineMap, k: usize, operands: &[Value]) -> Option<AffineExpr> {
        let exprs = operands.iter().map(|&v| self.value(v)).collect::<Option<Vec<_>>>()?;
        let nd = map.num_dims() as usize;
        Some(map.result(k).replace_dims_and_symbols(&exprs[..nd], &exprs[nd..]))
    }
}

/// How many times one thread runs `op`: the product of the trip counts of
/// the loops between it and `inner` (the band's innermost loop), a loop
/// with an unknown count counting [`DEFAULT_TRIP_COUNT`].
fn execution_count<'c>(ir: &impl Ir<'c>, op: OpId, inner: OpId) -> u64 {
    let body = ir.body();
    let mut count: u64 = 1;
    let mut cur = body.parent_op(op);
    while let Some(p) = cur {
        if p == inner {
            break;
        }
        if let Some(f) = AffineForOp::cast(ir, p) {
            count = count.saturating_mul(constant_trip_count(ir, f).unwrap_or(DEFAULT_TRIP_COUNT));
        } else if lf_ir::interfaces::LoopLikeOp::cast(ir, p).is_some() {
            count = count.saturating_mul(DEFAULT_TRIP_COUNT);
        }
        cur = body.parent_op(p);
    }
    count
}
