//! The memory footprint of a loop body (MLIR's `getMemoryFootprintBytes`
//! in `Affine/Analysis/Utils.cpp`), which `affine-loop-tile`'s cache model
//! reads.
//!
//! For each affine load and store in a loop nest at the top of a function,
//! the region of its memref it touches over the whole nest is a box: per
//! memref dimension a lower and an upper bound, affine in the function's
//! symbols (MLIR's `MemRefRegion::compute` at loop depth 0, the nesting
//! depth of the loop's own block, which projects every loop variable out). The boxes of one memref are united (MLIR's
//! `unionBoundingBox`), and the footprint is the sum over memrefs of the
//! box's elements times the element size in bytes.
//!
//! lf computes the boxes directly from the subscripts instead of with
//! Fourier–Motzkin elimination: a subscript `sum(c_k * x_k) + c` whose inner
//! loop variables `x_k` have single-result bounds in terms of symbols gives
//! the bounds MLIR finds; a subscript with a division or `mod`, or an inner
//! loop with `max`/`min` or triangular bounds, gets the memref's extent
//! along that dimension (where MLIR's elimination may find tighter bounds).
//! See `docs/design/loop-tiling.md`.

use super::map_composition::canonicalize_map_and_operands;
use crate::affine::{AffineForOp, AffineLoadOp, AffineStoreOp};
use crate::arith::ArithConstantOp;
use lf_ir::affine::linear_form;
use lf_ir::view::{Ir, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{AttrData, FloatKind, Type, TypeData, Value, DYNAMIC};
use std::collections::BTreeMap;

/// An affine function of symbols: coefficients by value, and a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Sym {
    coeffs: BTreeMap<Value, i64>,
    c: i64,
}

impl Sym {
    fn constant(c: i64) -> Sym {
        Sym {
            coeffs: BTreeMap::new(),
            c,
        }
    }
    fn add_scaled(&mut self, other: &Sym, k: i64) -> Option<()> {
        for (v, x) in &other.coeffs {
            let e = self.coeffs.entry(*v).or_insert(0);
            *e = e.checked_add(x.checked_mul(k)?)?;
            if *e == 0 {
                self.coeffs.remove(v);
            }
        }
        self.c = self.c.checked_add(other.c.checked_mul(k)?)?;
        Some(())
    }
    fn same_symbols(&self, other: &Sym) -> bool {
        self.coeffs == other.coeffs
    }
}

/// The bounds of a region along one memref dimension: the pair of lower
/// and upper bound (inclusive) that MLIR's `getConstantBoundOnDimSize`
/// would pick, `None` when the subscript is not understood (then only the
/// memref's own extent bounds it).
#[derive(Clone, Debug)]
struct DimRegion {
    bounds: Option<(Sym, Sym)>,
}

/// The inclusive bounds of a region dimension with the memref's extent
/// `size` (`DYNAMIC` when unknown) as MLIR's `getConstantBoundOnDimSize`
/// chooses them: of the pairs of a lower bound (the region's, or 0) and an
/// upper bound (the region's, or `size - 1`) that differ by a constant, the
/// one of smallest extent (the first such in MLIR's row order).
fn best_pair(d: &DimRegion, size: i64) -> Option<(Sym, Sym, i64)> {
    let mut los: Vec<Sym> = Vec::new();
    let mut his: Vec<Sym> = Vec::new();
    if let Some((lo, hi)) = &d.bounds {
        los.push(lo.clone());
        his.push(hi.clone());
    }
    los.push(Sym::constant(0));
    if size != DYNAMIC {
        his.push(Sym::constant(size - 1));
    }
    let mut best: Option<(Sym, Sym, i64)> = None;
    for hi in &his {
        for lo in &los {
            if !lo.same_symbols(hi) {
                continue;
            }
            let diff = (hi.c - lo.c + 1).max(0);
            if best.as_ref().is_none_or(|b| diff < b.2) {
                best = Some((lo.clone(), hi.clone(), diff));
            }
        }
    }
    best
}

/// The region of one memref (so far).
struct Region {
    memref: Value,
    shape: Vec<i64>,
    dims: Vec<DimRegion>,
}

/// The bytes the loads and stores in `for_op` (a loop at the top of a
/// function) touch, as MLIR's
/// `getMemoryFootprintBytes(forOp)` computes them; `None` when unknown
/// (a memref of unknown extent the accesses do not bound, an element type
/// that is not an integer, float or vector of them, or boxes that cannot
/// be united).
pub fn memory_footprint_bytes<'c>(ir: &impl Ir<'c>, for_op: AffineForOp) -> Option<u64> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let mut accesses: Vec<(Value, lf_ir::affine::AffineMap, Vec<Value>)> = Vec::new();
    walk(body, for_op.op(), WalkOrder::PreOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        let ir = (ctx, b);
        if let Some(l) = AffineLoadOp::cast(&ir, op) {
            accesses.push((l.memref(&ir), l.map(&ir).clone(), l.indices(&ir).to_vec()));
        } else if let Some(s) = AffineStoreOp::cast(&ir, op) {
            accesses.push((s.memref(&ir), s.map(&ir).clone(), s.indices(&ir).to_vec()));
        }
        WalkControl::Advance
    });
    let mut regions: Vec<Region> = Vec::new();
    for (memref, map, indices) in accesses {
        let shape = match ctx.type_data(body.value_type(memref)) {
            TypeData::MemRef { shape, .. } => shape.to_vec(),
            _ => return None,
        };
        let dims = access_region(ir, for_op, &map, &indices, shape.len());
        match regions.iter_mut().find(|r| r.memref == memref) {
            None => regions.push(Region { memref, shape, dims }),
            Some(r) => union_box(ir, for_op, r, &dims)?,
        }
    }
    let mut total: u64 = 0;
    for r in &regions {
        total = total.checked_add(region_size(ir, r)?)?;
    }
    Some(total)
}

/// The size of a region in bytes (MLIR's `MemRefRegion::getRegionSize`).
fn region_size<'c>(ir: &impl Ir<'c>, r: &Region) -> Option<u64> {
    let ctx = ir.ctx();
    let (element, layout) = match ctx.type_data(ir.body().value_type(r.memref)) {
        TypeData::MemRef { element, layout, .. } => (*element, *layout),
        _ => return None,
    };
    if let Some(l) = layout {
        let identity = matches!(ctx.attr_data(l), AttrData::AffineMap(m) if m.is_identity());
        if !identity {
            return Some(0); // MLIR returns `false` here, read as the size 0
        }
    }
    let mut elements: i64 = 1;
    for (d, size) in r.dims.iter().zip(&r.shape) {
        let extent = match best_pair(d, *size) {
            Some((_, _, diff)) => diff,
            None if *size != DYNAMIC => *size,
            None => return None,
        };
        elements = elements.wrapping_mul(extent);
    }
    let bytes = element_bytes(ctx, element)?;
    Some((bytes as i64).wrapping_mul(elements) as u64)
}

/// The size in bytes of an integer, float, or vector of them (MLIR's
/// `getMemRefIntOrFloatEltSizeInBytes`); `index` has none.
pub fn element_bytes(ctx: &lf_ir::Context, t: Type) -> Option<u64> {
    let bits = |t: Type| -> Option<u64> {
        match ctx.type_data(t) {
            TypeData::Integer { width, .. } => Some(u64::from(*width)),
            TypeData::Float(k) => Some(u64::from(FloatKind::width(*k))),
            _ => None,
        }
    };
    let b = match ctx.type_data(t) {
        TypeData::Vector { shape, element, .. } => bits(*element)? * shape.iter().product::<i64>() as u64,
        _ => bits(t)?,
    };
    Some(b.div_ceil(8))
}

/// The box one access touches over the iterations of `root`.
fn access_region<'c>(
    ir: &impl Ir<'c>,
    root: AffineForOp,
    map: &lf_ir::affine::AffineMap,
    indices: &[Value],
    rank: usize,
) -> Vec<DimRegion> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let (map, operands) = match canonicalize_map_and_operands(ctx, body, map, indices) {
        Some((m, o)) => (m, o),
        None => (map.clone(), indices.to_vec()),
    };
    let (nd, ns) = (map.num_dims(), map.num_symbols());
    (0..rank)
        .map(|k| {
            let bounds = map
                .results()
                .get(k)
                .and_then(|e| linear_form(e, nd, ns))
                .and_then(|row| subscript_bounds(ir, root, &row, &operands));
            DimRegion { bounds }
        })
        .collect()
}

/// The bounds of `row · operands + c` over the iterations of `root` and
/// the loops inside it: symbols stay, each loop variable takes its range.
fn subscript_bounds<'c>(ir: &impl Ir<'c>, root: AffineForOp, row: &[i64], operands: &[Value]) -> Option<(Sym, Sym)> {
    let body = ir.body();
    let mut lo = Sym::constant(row[row.len() - 1]);
    let mut hi = lo.clone();
    for (v, c) in operands.iter().zip(row) {
        if *c == 0 {
            continue;
        }
        match inner_loop_of(ir, root, *v) {
            Some(l) => {
                let (l_lo, l_hi) = iv_range(ir, root, l)?;
                if *c > 0 {
                    lo.add_scaled(&l_lo, *c)?;
                    hi.add_scaled(&l_hi, *c)?;
                } else {
                    lo.add_scaled(&l_hi, *c)?;
                    hi.add_scaled(&l_lo, *c)?;
                }
            }
            None => {
                let s = symbol(ir, *v);
                lo.add_scaled(&s, *c)?;
                hi.add_scaled(&s, *c)?;
            }
        }
    }
    let _ = body;
    Some((lo, hi))
}

/// A value as a symbol: a constant folds.
fn symbol<'c>(ir: &impl Ir<'c>, v: Value) -> Sym {
    if let Some(c) = ArithConstantOp::defining(ir, v) {
        if let Some(n) = lf_ir::ods::constraints::int_value(ir.ctx(), c.value(ir)) {
            return Sym::constant(n as i64);
        }
    }
    let mut coeffs = BTreeMap::new();
    coeffs.insert(v, 1);
    Sym { coeffs, c: 0 }
}

/// The loop (`root` or one inside it) whose induction variable `v` is.
fn inner_loop_of<'c>(ir: &impl Ir<'c>, root: AffineForOp, v: Value) -> Option<AffineForOp> {
    let body = ir.body();
    let block = body.value_block(v)?;
    let owner = body.block_region(block).and_then(|r| body.region_parent(r))?;
    let l = AffineForOp::cast(ir, owner)?;
    (l.iv(ir) == v && body.is_ancestor(root.op(), owner)).then_some(l)
}

/// The inclusive range of an inner loop's variable in terms of symbols,
/// when its bounds are single results over symbols.
fn iv_range<'c>(ir: &impl Ir<'c>, root: AffineForOp, l: AffineForOp) -> Option<(Sym, Sym)> {
    let one = |bound: crate::affine::AffineBound| -> Option<Sym> {
        let (ctx, body) = (ir.ctx(), ir.body());
        let (map, operands) = match canonicalize_map_and_operands(ctx, body, &bound.map, &bound.operands) {
            Some((m, o)) => (m, o),
            None => (bound.map.clone(), bound.operands.to_vec()),
        };
        if map.num_results() != 1 {
            return None;
        }
        let row = linear_form(map.result(0), map.num_dims(), map.num_symbols())?;
        let mut s = Sym::constant(row[row.len() - 1]);
        for (v, c) in operands.iter().zip(&row) {
            if *c == 0 {
                continue;
            }
            if inner_loop_of(ir, root, *v).is_some() {
                return None;
            }
            s.add_scaled(&symbol(ir, *v), *c)?;
        }
        Some(s)
    };
    let lo = one(l.lower_bound(ir))?;
    let mut hi = one(l.upper_bound(ir))?;
    let step = l.step(ir);
    if step > 1 && lo.coeffs.is_empty() && hi.coeffs.is_empty() {
        // The last iteration of a constant range with a step.
        let n = (hi.c - lo.c + step - 1).div_euclid(step);
        hi.c = lo.c + (n - 1).max(0) * step;
    } else {
        hi.c = hi.c.checked_sub(1)?;
    }
    Some((lo, hi))
}

/// The constant of a bound without symbols (symbols have no known range).
fn constant_bound<'c>(_ir: &impl Ir<'c>, _root: AffineForOp, s: &Sym, _lower: bool) -> Option<i64> {
    s.coeffs.is_empty().then_some(s.c)
}

/// Unites `other` into `r` (MLIR's `unionBoundingBox`); `None` when it
/// cannot (MLIR then gives up on the footprint).
fn union_box<'c>(ir: &impl Ir<'c>, root: AffineForOp, r: &mut Region, other: &[DimRegion]) -> Option<()> {
    let mut out = Vec::with_capacity(r.dims.len());
    for ((d, o), size) in r.dims.iter().zip(other).zip(&r.shape) {
        let (lo1, hi1, _) = best_pair(d, *size)?;
        let (lo2, hi2, _) = best_pair(o, *size)?;
        let lo = if lo1.same_symbols(&lo2) {
            if lo1.c <= lo2.c {
                lo1
            } else {
                lo2
            }
        } else {
            let a = constant_bound(ir, root, &lo1, true).unwrap_or(0).max(0);
            let b = constant_bound(ir, root, &lo2, true).unwrap_or(0).max(0);
            Sym::constant(a.min(b))
        };
        let hi = if hi1.same_symbols(&hi2) {
            if hi1.c >= hi2.c {
                hi1
            } else {
                hi2
            }
        } else {
            let cap = |s: &Sym| -> Option<i64> {
                match (constant_bound(ir, root, s, false), *size != DYNAMIC) {
                    (Some(x), true) => Some(x.min(size - 1)),
                    (Some(x), false) => Some(x),
                    (None, true) => Some(size - 1),
                    (None, false) => None,
                }
            };
            Sym::constant(cap(&hi1)?.max(cap(&hi2)?))
        };
        out.push(DimRegion { bounds: Some((lo, hi)) });
    }
    r.dims = out;
    Some(())
}
