//! `lower-affine`: affine ops to `scf`, `arith` and `memref`, as
//! `mlir-opt --lower-affine` does.
//!
//! Affine expressions expand into `arith` ops exactly as MLIR's
//! `expandAffineExpr`: `+` is `arith.addi`, `*` is `arith.muli overflow<nsw>`,
//! `mod` is `remsi` corrected to be non-negative, `floordiv` and `ceildiv`
//! are `divsi` with sign corrections; every constant is a fresh
//! `arith.constant` at its use (run `canonicalize` or `cse` afterwards).

use crate::affine::analysis::reductions::AtomicRmwKind;
use crate::affine::utils::reduction_ops::{combine, identity_attr};
use crate::affine::{
    AffineApplyOp, AffineForOp, AffineIfOp, AffineLoadOp, AffineMaxOp, AffineMinOp, AffineParallelOp, AffineStoreOp,
    AffineYieldOp,
};
use crate::arith::{
    ArithAddiOp, ArithAndiOp, ArithCmpiOp, ArithConstantOp, ArithDivsiOp, ArithMaxsiOp, ArithMinsiOp, ArithMuliOp,
    ArithRemsiOp, ArithSelectOp, ArithSubiOp, CmpIPredicate, IntegerOverflowFlags,
};
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use crate::scf::{ScfForOp, ScfIfOp, ScfParallelOp, ScfReduceOp, ScfYieldOp};
use lf_ir::affine::{AffineExpr, AffineMap, BinaryOp, ExprView};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::{Attribute, BlockId, Context, OpId, RegionId, Type, Value};
use lf_pass::pass::{Anchor, Pass, PassInfo, PassOptions, PassResult, PassTarget};
use lf_pass::rewrite::{
    apply_conversion, for_each_body_par, ConversionMode, ConversionTarget, FnPattern, PatternRewriter, PatternSet,
};
use lf_pass::AnalysisManager;

/// The registration record of `lower-affine`.
pub static INFO: PassInfo = PassInfo {
    name: "lower-affine",
    summary: "Lower Affine operations to a combination of Arith and SCF operations",
    description: "Converts `affine.for` to `scf.for` (lower bound: `arith.maxsi` of the \
lower-bound map's results, upper bound: `arith.minsi` of the upper-bound map's, step: an \
`arith.constant`), `affine.parallel` to `scf.parallel` (each induction variable's bounds the \
`arith.maxsi`/`arith.minsi` of its group of the bound maps' results, the steps \
`arith.constant`s; each result starts from its reduction's identity, an `arith.constant`, \
and the `affine.yield` becomes an `scf.reduce` combining with the reduction's `arith` op: \
`addf`, `mulf`, `maximumf`, `minimumf`, `addi`, `muli`, `ori`, `andi`), `affine.if` to `scf.if` on the conjunction (`arith.andi`) of its \
constraints (`expr >= 0` is `arith.cmpi sge`, `expr == 0` is `arith.cmpi eq`), `affine.load` \
and `affine.store` to `memref.load` and `memref.store` on the expanded subscripts, \
`affine.apply` to its expanded expression, `affine.min`/`affine.max` to chains of \
`arith.minsi`/`arith.maxsi`, and `affine.yield` to `scf.yield`. Expressions expand as in \
MLIR: `*` becomes `arith.muli overflow<nsw>`, `mod`, `floordiv` and `ceildiv` become \
`arith.remsi`/`arith.divsi` with sign corrections, and every constant is materialized where \
it is used (follow with `canonicalize` or `cse`). Nests of any depth lower.\n\n\
The output matches `mlir-opt --lower-affine`, except that lf does not fold the affine ops \
before lowering them, as MLIR's conversion driver does (so lf does not compose \
`affine.apply` operands into the integer set of an `affine.if`, nor turn constant operands \
of bounds, `affine.apply`, `affine.min` and `affine.max` into new `arith.constant`s; the \
results are the same values). An affine op that cannot be lowered is an error, `failed to \
legalize operation` naming it: an expression with a non-constant or non-positive divisor, \
an `affine.parallel` with no induction variable (mlir-opt makes an invalid `scf.parallel`), \
with an `assign` reduction (no identity value; mlir-opt crashes) or with a reduction of a \
signed or unsigned integer type (mlir-opt makes an invalid `arith.constant`).",
    anchor: Anchor::Any,
    options: &[],
    create,
};

fn create(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(LowerAffine))
}

/// The `lower-affine` pass.
pub struct LowerAffine;

/// The lowering patterns.
pub fn patterns() -> PatternSet {
    let mut set = PatternSet::new();
    set.add(FnPattern::on::<AffineForOp>("affine-for-lowering", lower_for));
    set.add(FnPattern::on::<AffineParallelOp>(
        "affine-parallel-lowering",
        lower_parallel,
    ));
    set.add(FnPattern::on::<AffineIfOp>("affine-if-lowering", lower_if));
    set.add(FnPattern::on::<AffineApplyOp>("affine-apply-lowering", lower_apply));
    set.add(FnPattern::on::<AffineMinOp>("affine-min-lowering", lower_min_max));
    set.add(FnPattern::on::<AffineMaxOp>("affine-max-lowering", lower_min_max));
    set.add(FnPattern::on::<AffineLoadOp>("affine-load-lowering", lower_load));
    set.add(FnPattern::on::<AffineStoreOp>("affine-store-lowering", lower_store));
    set.add(FnPattern::on::<AffineYieldOp>("affine-yield-lowering", lower_yield));
    set
}

impl Pass for LowerAffine {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, _am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let patterns = patterns().freeze(ctx);
        let target = ConversionTarget::new()
            .legal_dialects(&["arith", "memref", "scf", "func", "builtin"])
            .illegal_ops(&[
                AffineForOp::def(),
                AffineParallelOp::def(),
                AffineIfOp::def(),
                AffineApplyOp::def(),
                AffineMinOp::def(),
                AffineMaxOp::def(),
                AffineLoadOp::def(),
                AffineStoreOp::def(),
                AffineYieldOp::def(),
            ]);
        let regions = op.regions().to_vec();
        let counts = for_each_body_par(op.body_mut(), &regions, &|body, regions| {
            apply_conversion(ctx, body, regions, &target, &patterns, ConversionMode::Partial)
        })?;
        op.add_statistic("num-lowered", "Affine ops lowered", counts.iter().sum::<usize>() as u64);
        Ok(())
    }
}

// ------------------------------------------------------------------ expansion

/// An `arith` op of two index values (MLIR's lowering marks products `nsw`).
#[derive(Copy, Clone)]
enum Arith {
    Add,
    Sub,
    MulNsw,
    RemS,
    DivS,
    MaxS,
    MinS,
    And,
}

fn binary(b: &mut Builder<'_>, op: Arith, x: Value, y: Value) -> Value {
    match op {
        Arith::Add => ArithAddiOp::build(b, x, y).result(b),
        Arith::Sub => ArithSubiOp::build(b, x, y).result(b),
        Arith::MulNsw => {
            let m = ArithMuliOp::build(b, x, y);
            m.set_overflow_flags(b, IntegerOverflowFlags::NSW);
            m.result(b)
        }
        Arith::RemS => ArithRemsiOp::build(b, x, y).result(b),
        Arith::DivS => ArithDivsiOp::build(b, x, y).result(b),
        Arith::MaxS => ArithMaxsiOp::build(b, x, y).result(b),
        Arith::MinS => ArithMinsiOp::build(b, x, y).result(b),
        Arith::And => ArithAndiOp::build(b, x, y).result(b),
    }
}

fn cmpi(b: &mut Builder<'_>, pred: CmpIPredicate, x: Value, y: Value) -> Value {
    ArithCmpiOp::build(b, x, y, pred).result(b)
}

fn select(b: &mut Builder<'_>, c: Value, x: Value, y: Value) -> Value {
    ArithSelectOp::build(b, c, x, y).result(b)
}

/// Expands `e` over `dims` and `syms` into arith ops at the insertion
/// point (MLIR's `expandAffineExpr`); `None` for a divisor that is not a
/// positive constant.
pub fn expand(b: &mut Builder<'_>, e: &AffineExpr, dims: &[Value], syms: &[Value]) -> Option<Value> {
    match e.view() {
        ExprView::Dim(d) => dims.get(d as usize).copied(),
        ExprView::Symbol(s) => syms.get(s as usize).copied(),
        ExprView::Constant(c) => Some(ArithConstantOp::index(b, c)),
        ExprView::Binary(op, lhs, rhs) => {
            if matches!(op, BinaryOp::Mod | BinaryOp::FloorDiv | BinaryOp::CeilDiv)
                && rhs.as_constant().is_none_or(|c| c <= 0)
            {
                return None;
            }
            let x = expand(b, lhs, dims, syms)?;
            let y = expand(b, rhs, dims, syms)?;
            Some(match op {
                BinaryOp::Add => binary(b, Arith::Add, x, y),
                BinaryOp::Mul => binary(b, Arith::MulNsw, x, y),
                BinaryOp::Mod => {
                    let rem = binary(b, Arith::RemS, x, y);
                    let zero = ArithConstantOp::index(b, 0);
                    let neg = cmpi(b, CmpIPredicate::Slt, rem, zero);
                    let fixed = binary(b, Arith::Add, rem, y);
                    select(b, neg, fixed, rem)
                }
                BinaryOp::FloorDiv => {
                    let zero = ArithConstantOp::index(b, 0);
                    let m1 = ArithConstantOp::index(b, -1);
                    let neg = cmpi(b, CmpIPredicate::Slt, x, zero);
                    let negated = binary(b, Arith::Sub, m1, x);
                    let dividend = select(b, neg, negated, x);
                    let q = binary(b, Arith::DivS, dividend, y);
                    let corrected = binary(b, Arith::Sub, m1, q);
                    select(b, neg, corrected, q)
                }
                BinaryOp::CeilDiv => {
                    let zero = ArithConstantOp::index(b, 0);
                    let one = ArithConstantOp::index(b, 1);
                    let nonpos = cmpi(b, CmpIPredicate::Sle, x, zero);
                    let negated = binary(b, Arith::Sub, zero, x);
                    let dec = binary(b, Arith::Sub, x, one);
                    let dividend = select(b, nonpos, negated, dec);
                    let q = binary(b, Arith::DivS, dividend, y);
                    let negq = binary(b, Arith::Sub, zero, q);
                    let incq = binary(b, Arith::Add, q, one);
                    select(b, nonpos, negq, incq)
                }
            })
        }
    }
}

/// Expands every result of `map` applied to `operands`.
fn expand_map(b: &mut Builder<'_>, map: &AffineMap, operands: &[Value]) -> Option<Vec<Value>> {
    if operands.len() != map.num_inputs() as usize {
        return None;
    }
    let (dims, syms) = operands.split_at(map.num_dims() as usize);
    map.results().iter().map(|e| expand(b, e, dims, syms)).collect()
}

/// Expands `map` and reduces its results with `arith.maxsi`/`arith.minsi`.
fn expand_reduced(b: &mut Builder<'_>, map: &AffineMap, operands: &[Value], reduce: Arith) -> Option<Value> {
    let vals = expand_map(b, map, operands)?;
    let mut it = vals.into_iter();
    let mut acc = it.next()?;
    for v in it {
        acc = binary(b, reduce, acc, v);
    }
    Some(acc)
}

/// Whether `map` over `operands` can be expanded (divisors positive constants).
fn expandable(map: &AffineMap) -> bool {
    fn ok(e: &AffineExpr) -> bool {
        match e.as_binary() {
            Some((op, l, r)) => {
                (!matches!(op, BinaryOp::Mod | BinaryOp::FloorDiv | BinaryOp::CeilDiv)
                    || r.as_constant().is_some_and(|c| c > 0))
                    && ok(l)
                    && ok(r)
            }
            None => true,
        }
    }
    map.results().iter().all(ok)
}

/// Creates a one-block region for a new op, with arguments of `types`, and
/// moves the ops of `from` into it (their uses of `from`'s arguments become
/// uses of the new arguments).
fn move_block_into_new_region(rw: &mut PatternRewriter<'_>, from: BlockId) -> RegionId {
    let body = rw.body_mut();
    let region = body.create_region();
    let block = body.create_block();
    let args: Vec<Value> = body.block_args(from).to_vec();
    for (i, a) in args.iter().enumerate() {
        let (ty, loc) = (body.value_type(*a), body.block_arg_loc(from, i));
        let na = body.add_block_arg(block, ty, loc);
        body.replace_all_uses(*a, na);
    }
    body.append_block(region, block);
    let ops: Vec<OpId> = rw.body().block_ops(from).collect();
    for o in ops {
        rw.move_op_to_end(o, block);
    }
    region
}

// ------------------------------------------------------------------ patterns

fn lower_for(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let for_op = AffineForOp::from_op_unchecked(op);
    let (lbm, ubm) = (for_op.lower_bound_map(rw).clone(), for_op.upper_bound_map(rw).clone());
    if !expandable(&lbm) || !expandable(&ubm) {
        return false;
    }
    let step = for_op.step(rw);
    let lb_ops = for_op.lower_bound_operands(rw);
    let ub_ops = for_op.upper_bound_operands(rw);
    let inits = for_op.inits(rw);
    let block = for_op.region_block(rw);
    let body = rw.body();
    let result_types: Vec<Type> = body.results(op).map(|r| body.value_type(r)).collect();
    let bounds_ok = |m: &AffineMap, ops: &[Value]| ops.len() == m.num_inputs() as usize && m.num_results() > 0;
    if !bounds_ok(&lbm, &lb_ops) || !bounds_ok(&ubm, &ub_ops) {
        return false;
    }
    // Checked above: the maps expand.
    let (Some(lb), Some(ub)) = (
        expand_reduced(rw, &lbm, &lb_ops, Arith::MaxS),
        expand_reduced(rw, &ubm, &ub_ops, Arith::MinS),
    ) else {
        return false;
    };
    let step = ArithConstantOp::index(rw, step);
    let region = move_block_into_new_region(rw, block);
    let mut st = rw.op_state(ScfForOp::def());
    st.operands(&[lb]).operands(&[ub]).operands(&[step]).operands(&inits);
    st.results(&result_types).existing_regions(&[region]);
    let new = st.create(rw);
    rw.replace_op_with_op(op, new);
    true
}

/// A reduction kind of `affine.parallel` (a value of
/// [`super::super::REDUCTION_KINDS`]) that the lowering supports, with the
/// value it starts from (MLIR's `arith::getIdentityValueAttr`) for a float
/// or signless integer type. `assign` has no identity (MLIR: "Reduction
/// operation type not supported"); `maxs`, `mins`, `maxu` and `minu` reduce
/// signed and unsigned integers, which `arith` does not take; `xori`,
/// `maxnumf` and `minnumf` match no result type (the verifier refuses them,
/// as MLIR's); `index` is not a float or signless integer.
fn lowerable_reduction(ctx: &Context, kind: i64, ty: Type) -> Option<(AtomicRmwKind, Attribute)> {
    use AtomicRmwKind as K;
    let kind = AtomicRmwKind::from_value(kind).filter(|k| {
        matches!(
            k,
            K::Addf | K::Mulf | K::Maximumf | K::Minimumf | K::Addi | K::Muli | K::Ori | K::Andi
        )
    })?;
    if ctx.type_data(ty).is_index() {
        return None;
    }
    Some((kind, identity_attr(ctx, kind, ty)?))
}

/// The results of `map` from `start`, `count` of them, as a map of the same
/// inputs (MLIR's `AffineMap::getSliceMap`).
fn slice_map(map: &AffineMap, start: usize, count: usize) -> Option<AffineMap> {
    let results = map.results().get(start..start.checked_add(count)?)?;
    Some(AffineMap::new(map.num_dims(), map.num_symbols(), results.to_vec()))
}

/// The bound maps of each induction variable of an `affine.parallel`: the
/// results of `map` cut in `groups`.
fn group_maps(map: &AffineMap, groups: &[i64]) -> Option<Vec<AffineMap>> {
    let mut start = 0usize;
    let mut out = Vec::with_capacity(groups.len());
    for &g in groups {
        let g = usize::try_from(g).ok().filter(|&g| g > 0)?;
        out.push(slice_map(map, start, g)?);
        start += g;
    }
    (start == map.num_results()).then_some(out)
}

/// `affine.parallel` to `scf.parallel`, as MLIR's `AffineParallelLowering`:
/// each lower bound is the `arith.maxsi` of its group of the lower-bound
/// map's results, each upper bound the `arith.minsi` of its group of the
/// upper-bound map's, the steps `arith.constant`s; the results start from
/// the identity of their reduction (`arith.constant`) and the
/// `affine.yield` becomes an `scf.reduce` combining with the reduction's
/// `arith` op. Not lowered (an error): an `affine.parallel` with no
/// induction variable (MLIR makes an invalid `scf.parallel` of it), a
/// reduction with no identity (`assign`; MLIR crashes) or of a signed or
/// unsigned integer type (MLIR makes an invalid `arith.constant`).
fn lower_parallel(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let ctx = rw.ctx();
    let par = AffineParallelOp::from_op_unchecked(op);
    let steps = par.step_values(rw);
    let n = steps.len();
    if n == 0 {
        return false;
    }
    let (lbm, ubm) = (par.lower_bounds_map(rw).clone(), par.upper_bounds_map(rw).clone());
    let (Some(lbs), Some(ubs)) = (
        group_maps(&lbm, &par.lower_bound_groups(rw)),
        group_maps(&ubm, &par.upper_bound_groups(rw)),
    ) else {
        return false;
    };
    if lbs.len() != n || ubs.len() != n || !expandable(&lbm) || !expandable(&ubm) {
        return false;
    }
    let (lb_ops, ub_ops) = par.bound_operands(rw);
    if lb_ops.len() != lbm.num_inputs() as usize || ub_ops.len() != ubm.num_inputs() as usize {
        return false;
    }
    let body = rw.body();
    let result_types: Vec<Type> = body.results(op).map(|r| body.value_type(r)).collect();
    let kinds = par.reduction_kinds(rw);
    if kinds.len() != result_types.len() {
        return false;
    }
    let mut reductions = Vec::with_capacity(kinds.len());
    for (&k, &ty) in kinds.iter().zip(&result_types) {
        match lowerable_reduction(ctx, k, ty) {
            Some(r) => reductions.push(r),
            None => return false,
        }
    }
    let block = par.region_block(rw);
    let Some(term) = rw.body().last_op(block).filter(|&t| AffineYieldOp::isa(rw, t)) else {
        return false;
    };
    let yielded: Vec<Value> = rw.body().operands(term).collect();
    if yielded.len() != reductions.len() {
        return false;
    }
    let mut lower = Vec::with_capacity(n);
    let mut upper = Vec::with_capacity(n);
    for (lb, ub) in lbs.iter().zip(&ubs) {
        let (Some(l), Some(u)) = (
            expand_reduced(rw, lb, &lb_ops, Arith::MaxS),
            expand_reduced(rw, ub, &ub_ops, Arith::MinS),
        ) else {
            return false;
        };
        lower.push(l);
        upper.push(u);
    }
    let steps: Vec<Value> = steps.iter().map(|&s| ArithConstantOp::index(rw, s)).collect();
    let inits: Vec<Value> = reductions
        .iter()
        .map(|&(_, identity)| ArithConstantOp::of(rw, identity).result(rw))
        .collect();
    let region = move_block_into_new_region(rw, block);
    let mut st = rw.op_state(ScfParallelOp::def());
    st.operands(&lower).operands(&upper).operands(&steps).operands(&inits);
    st.results(&result_types).existing_regions(&[region]);
    let new = st.create(rw);
    // The affine.yield becomes an scf.reduce at the yield's location (its
    // regions' arguments too), the ops in its regions at the loop's, as in
    // MLIR.
    let (loc, term_loc) = (rw.body().op_loc(op), rw.body().op_loc(term));
    rw.set_insertion_point_before(term);
    rw.set_loc(term_loc);
    ScfReduceOp::build_reductions(rw, &yielded, |b, i, x, y| {
        b.set_loc(loc);
        combine(b, reductions[i].0, x, y).expect("lowerable kinds combine")
    });
    rw.set_loc(loc);
    rw.erase_op(term);
    rw.replace_op_with_op(op, new);
    true
}

fn lower_if(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let ctx = rw.ctx();
    let if_op = AffineIfOp::from_op_unchecked(op);
    let set = if_op.condition(rw).clone();
    let as_map = AffineMap::new(set.num_dims(), set.num_symbols(), set.constraints().to_vec());
    if !expandable(&as_map) {
        return false;
    }
    let body = rw.body();
    let operands: Vec<Value> = body.operands(op).collect();
    if operands.len() != set.num_inputs() as usize {
        return false;
    }
    let result_types: Vec<Type> = body.results(op).map(|r| body.value_type(r)).collect();
    let (then_b, else_b) = (
        body.entry_block(if_op.then_region(rw)),
        body.entry_block(if_op.else_region(rw)),
    );
    let zero = ArithConstantOp::index(rw, 0);
    let (dims, syms) = operands.split_at(set.num_dims() as usize);
    let mut cond: Option<Value> = None;
    for (i, e) in set.constraints().iter().enumerate() {
        // Checked above: the constraints expand.
        let Some(v) = expand(rw, e, dims, syms) else {
            return false;
        };
        let pred = if set.is_eq(i) {
            CmpIPredicate::Eq
        } else {
            CmpIPredicate::Sge
        };
        let c = cmpi(rw, pred, v, zero);
        cond = Some(match cond {
            None => c,
            Some(prev) => binary(rw, Arith::And, prev, c),
        });
    }
    let cond = match cond {
        Some(c) => c,
        None => ArithConstantOp::of(rw, ctx.integer_attr(1, ctx.common().i1)).result(rw),
    };
    let mut regions = Vec::new();
    for b in [then_b, else_b] {
        regions.push(match b {
            Some(b) => move_block_into_new_region(rw, b),
            None => rw.body_mut().create_region(),
        });
    }
    let mut st = rw.op_state(ScfIfOp::def());
    st.operands(&[cond]).results(&result_types).existing_regions(&regions);
    let new = st.create(rw);
    rw.replace_op_with_op(op, new);
    true
}

fn lower_apply(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let map = AffineApplyOp::from_op_unchecked(op).map(rw).clone();
    if !expandable(&map) || map.num_results() != 1 {
        return false;
    }
    let operands: Vec<Value> = rw.body().operands(op).collect();
    let Some(v) = expand_map(rw, &map, &operands) else {
        return false;
    };
    rw.replace_op(op, &v);
    true
}

fn lower_min_max(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let min = AffineMinOp::cast(rw, op);
    let map = match min {
        Some(m) => m.map(rw).clone(),
        None => AffineMaxOp::from_op_unchecked(op).map(rw).clone(),
    };
    if !expandable(&map) || map.num_results() == 0 {
        return false;
    }
    let operands: Vec<Value> = rw.body().operands(op).collect();
    let reduce = if min.is_some() { Arith::MinS } else { Arith::MaxS };
    let Some(v) = expand_reduced(rw, &map, &operands, reduce) else {
        return false;
    };
    rw.replace_op(op, &[v]);
    true
}

fn lower_load(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let load = AffineLoadOp::from_op_unchecked(op);
    let map = load.map(rw).clone();
    if !expandable(&map) {
        return false;
    }
    let (memref, operands) = (load.memref(rw), load.indices(rw));
    let attrs = rw.body().op_attrs(op);
    let Some(indices) = expand_map(rw, &map, &operands) else {
        return false;
    };
    let new = MemrefLoadOp::build(rw, memref, &indices);
    rw.modify_in_place(new.op(), |_, body| body.set_op_attrs(new.op(), attrs));
    rw.replace_op_with_op(op, new.op());
    true
}

fn lower_store(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let store = AffineStoreOp::from_op_unchecked(op);
    let map = store.map(rw).clone();
    if !expandable(&map) {
        return false;
    }
    let (value, memref, operands) = (store.value(rw), store.memref(rw), store.indices(rw));
    let attrs = rw.body().op_attrs(op);
    let Some(indices) = expand_map(rw, &map, &operands) else {
        return false;
    };
    let new = MemrefStoreOp::build(rw, value, memref, &indices);
    rw.modify_in_place(new.op(), |_, body| body.set_op_attrs(new.op(), attrs));
    rw.erase_op(op);
    true
}

fn lower_yield(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let body = rw.body();
    let parent_is_scf = body
        .parent_op(op)
        .is_some_and(|p| ScfForOp::isa(rw, p) || ScfIfOp::isa(rw, p));
    if !parent_is_scf {
        return false;
    }
    let operands: Vec<Value> = body.operands(op).collect();
    ScfYieldOp::build(rw, &operands);
    rw.erase_op(op);
    true
}
