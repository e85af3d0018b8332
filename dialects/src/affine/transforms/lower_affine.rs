//! `lower-affine`: affine ops to `scf`, `arith` and `memref`, as
//! `mlir-opt --lower-affine` does.
//!
//! Affine expressions expand into `arith` ops exactly as MLIR's
//! `expandAffineExpr`: `+` is `arith.addi`, `*` is `arith.muli overflow<nsw>`,
//! `mod` is `remsi` corrected to be non-negative, `floordiv` and `ceildiv`
//! are `divsi` with sign corrections; every constant is a fresh
//! `arith.constant` at its use (run `canonicalize` or `cse` afterwards).

use crate::affine::ir::canonicalize::map_of;
use lf_ir::affine::{AffineExpr, AffineMap, BinaryOp, ExprView};
use lf_ir::attrs::AttrData;
use lf_ir::{BlockId, Location, OpId, OperationState, Type, Value};
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
`arith.constant`), `affine.if` to `scf.if` on the conjunction (`arith.andi`) of its \
constraints (`expr >= 0` is `arith.cmpi sge`, `expr == 0` is `arith.cmpi eq`), `affine.load` \
and `affine.store` to `memref.load` and `memref.store` on the expanded subscripts, \
`affine.apply` to its expanded expression, `affine.min`/`affine.max` to chains of \
`arith.minsi`/`arith.maxsi`, and `affine.yield` to `scf.yield`. Expressions expand as in \
MLIR: `*` becomes `arith.muli overflow<nsw>`, `mod`, `floordiv` and `ceildiv` become \
`arith.remsi`/`arith.divsi` with sign corrections, and every constant is materialized where \
it is used (follow with `canonicalize` or `cse`).\n\n\
The output matches `mlir-opt --lower-affine`, except that lf does not first compose \
`affine.apply` operands into the integer set of an `affine.if` (the conditions compute the \
same values). An affine op that cannot be lowered (an expression with a non-constant or \
non-positive divisor) is an error: `failed to legalize operation`.",
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
    set.add(FnPattern::new("affine-for-lowering", Some("affine.for"), lower_for));
    set.add(FnPattern::new("affine-if-lowering", Some("affine.if"), lower_if));
    set.add(FnPattern::new(
        "affine-apply-lowering",
        Some("affine.apply"),
        lower_apply,
    ));
    set.add(FnPattern::new("affine-min-lowering", Some("affine.min"), lower_min_max));
    set.add(FnPattern::new("affine-max-lowering", Some("affine.max"), lower_min_max));
    set.add(FnPattern::new("affine-load-lowering", Some("affine.load"), lower_load));
    set.add(FnPattern::new(
        "affine-store-lowering",
        Some("affine.store"),
        lower_store,
    ));
    set.add(FnPattern::new(
        "affine-yield-lowering",
        Some("affine.yield"),
        lower_yield,
    ));
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
                "affine.for",
                "affine.if",
                "affine.apply",
                "affine.min",
                "affine.max",
                "affine.load",
                "affine.store",
                "affine.yield",
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

fn binary(rw: &mut PatternRewriter<'_>, name: &str, loc: Location, a: Value, b: Value, nsw: bool) -> Value {
    let ty = rw.body().value_type(a);
    let props: Vec<(&str, lf_ir::Attribute)> = if nsw {
        let ctx = rw.ctx();
        vec![(
            "overflowFlags",
            ctx.get_attr(AttrData::Dialect {
                dialect: ctx.intern("arith"),
                body: ".overflow<nsw>".into(),
            }),
        )]
    } else {
        Vec::new()
    };
    let op = rw.build(name, loc, &[a, b], &[ty], &props);
    rw.body().result(op, 0)
}

fn cmpi(rw: &mut PatternRewriter<'_>, pred: i64, loc: Location, a: Value, b: Value) -> Value {
    let ctx = rw.ctx();
    let p = ctx.integer_attr(pred as i128, ctx.integer_type(64));
    let op = rw.build("arith.cmpi", loc, &[a, b], &[ctx.common().i1], &[("predicate", p)]);
    rw.body().result(op, 0)
}

fn select(rw: &mut PatternRewriter<'_>, loc: Location, c: Value, a: Value, b: Value) -> Value {
    let ty = rw.body().value_type(a);
    let op = rw.build("arith.select", loc, &[c, a, b], &[ty], &[]);
    rw.body().result(op, 0)
}

const SLT: i64 = 2;
const SLE: i64 = 3;
const SGE: i64 = 5;
const EQ: i64 = 0;

/// Expands `e` over `dims` and `syms` into arith ops at the insertion
/// point (MLIR's `expandAffineExpr`); `None` for a divisor that is not a
/// positive constant.
pub fn expand(
    rw: &mut PatternRewriter<'_>,
    loc: Location,
    e: &AffineExpr,
    dims: &[Value],
    syms: &[Value],
) -> Option<Value> {
    match e.view() {
        ExprView::Dim(d) => dims.get(d as usize).copied(),
        ExprView::Symbol(s) => syms.get(s as usize).copied(),
        ExprView::Constant(c) => Some(rw.constant_index(loc, c)),
        ExprView::Binary(op, lhs, rhs) => {
            if matches!(op, BinaryOp::Mod | BinaryOp::FloorDiv | BinaryOp::CeilDiv)
                && rhs.as_constant().is_none_or(|c| c <= 0)
            {
                return None;
            }
            let a = expand(rw, loc, lhs, dims, syms)?;
            let b = expand(rw, loc, rhs, dims, syms)?;
            Some(match op {
                BinaryOp::Add => binary(rw, "arith.addi", loc, a, b, false),
                BinaryOp::Mul => binary(rw, "arith.muli", loc, a, b, true),
                BinaryOp::Mod => {
                    let rem = binary(rw, "arith.remsi", loc, a, b, false);
                    let zero = rw.constant_index(loc, 0);
                    let neg = cmpi(rw, SLT, loc, rem, zero);
                    let fixed = binary(rw, "arith.addi", loc, rem, b, false);
                    select(rw, loc, neg, fixed, rem)
                }
                BinaryOp::FloorDiv => {
                    let zero = rw.constant_index(loc, 0);
                    let m1 = rw.constant_index(loc, -1);
                    let neg = cmpi(rw, SLT, loc, a, zero);
                    let negated = binary(rw, "arith.subi", loc, m1, a, false);
                    let dividend = select(rw, loc, neg, negated, a);
                    let q = binary(rw, "arith.divsi", loc, dividend, b, false);
                    let corrected = binary(rw, "arith.subi", loc, m1, q, false);
                    select(rw, loc, neg, corrected, q)
                }
                BinaryOp::CeilDiv => {
                    let zero = rw.constant_index(loc, 0);
                    let one = rw.constant_index(loc, 1);
                    let nonpos = cmpi(rw, SLE, loc, a, zero);
                    let negated = binary(rw, "arith.subi", loc, zero, a, false);
                    let dec = binary(rw, "arith.subi", loc, a, one, false);
                    let dividend = select(rw, loc, nonpos, negated, dec);
                    let q = binary(rw, "arith.divsi", loc, dividend, b, false);
                    let negq = binary(rw, "arith.subi", loc, zero, q, false);
                    let incq = binary(rw, "arith.addi", loc, q, one, false);
                    select(rw, loc, nonpos, negq, incq)
                }
            })
        }
    }
}

/// Expands every result of `map` applied to `operands`.
fn expand_map(rw: &mut PatternRewriter<'_>, loc: Location, map: &AffineMap, operands: &[Value]) -> Option<Vec<Value>> {
    if operands.len() != map.num_inputs() as usize {
        return None;
    }
    let (dims, syms) = operands.split_at(map.num_dims() as usize);
    map.results().iter().map(|e| expand(rw, loc, e, dims, syms)).collect()
}

/// Expands `map` and reduces its results with `arith.maxsi`/`arith.minsi`.
fn expand_reduced(
    rw: &mut PatternRewriter<'_>,
    loc: Location,
    map: &AffineMap,
    operands: &[Value],
    reduce: &str,
) -> Option<Value> {
    let vals = expand_map(rw, loc, map, operands)?;
    let mut it = vals.into_iter();
    let mut acc = it.next()?;
    for v in it {
        acc = binary(rw, reduce, loc, acc, v, false);
    }
    Some(acc)
}

fn map_prop(rw: &PatternRewriter<'_>, op: OpId, name: &str) -> Option<AffineMap> {
    map_of(rw.ctx(), lf_ir::ods::prop(rw.ctx(), rw.body(), op, name)).cloned()
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
fn move_block_into_new_region(rw: &mut PatternRewriter<'_>, from: BlockId) -> lf_ir::RegionId {
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
    let ctx = rw.ctx();
    let (Some(lbm), Some(ubm)) = (map_prop(rw, op, "lowerBoundMap"), map_prop(rw, op, "upperBoundMap")) else {
        return false;
    };
    if !expandable(&lbm) || !expandable(&ubm) {
        return false;
    }
    let body = rw.body();
    let step = match lf_ir::ods::prop(ctx, body, op, "step").map(|a| ctx.attr_data(a)) {
        Some(AttrData::Integer { value, .. }) => *value as i64,
        _ => return false,
    };
    let lb_ops = lf_ir::ods::operand_group(ctx, body, op, "lowerBoundOperands");
    let ub_ops = lf_ir::ods::operand_group(ctx, body, op, "upperBoundOperands");
    let inits = lf_ir::ods::operand_group(ctx, body, op, "inits");
    let Some(block) = body.entry_block(body.region(op, 0)) else {
        return false;
    };
    let loc = body.op_loc(op);
    let result_types: Vec<Type> = body.results(op).map(|r| body.value_type(r)).collect();
    let lb = expand_reduced(rw, loc, &lbm, &lb_ops, "arith.maxsi").expect("checked");
    let ub = expand_reduced(rw, loc, &ubm, &ub_ops, "arith.minsi").expect("checked");
    let step = rw.constant_index(loc, step);
    let region = move_block_into_new_region(rw, block);
    let mut st = OperationState::new(ctx.op_name("scf.for"), loc);
    st.operands = vec![lb, ub, step];
    st.operands.extend(inits);
    st.result_types = result_types;
    st.regions = vec![region];
    let new = rw.create(st);
    let results: Vec<Value> = rw.body().results(new).collect();
    rw.replace_op(op, &results);
    true
}

fn lower_if(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let ctx = rw.ctx();
    let body = rw.body();
    let Some(set) = lf_ir::ods::prop(ctx, body, op, "condition").and_then(|a| match ctx.attr_data(a) {
        AttrData::IntegerSet(s) => Some(s.clone()),
        _ => None,
    }) else {
        return false;
    };
    let as_map = AffineMap::new(set.num_dims(), set.num_symbols(), set.constraints().to_vec());
    if !expandable(&as_map) {
        return false;
    }
    let operands: Vec<Value> = body.operands(op).collect();
    if operands.len() != set.num_inputs() as usize {
        return false;
    }
    let loc = body.op_loc(op);
    let result_types: Vec<Type> = body.results(op).map(|r| body.value_type(r)).collect();
    let (then_r, else_r) = (body.region(op, 0), body.region(op, 1));
    let (then_b, else_b) = (body.entry_block(then_r), body.entry_block(else_r));
    let zero = rw.constant_index(loc, 0);
    let (dims, syms) = operands.split_at(set.num_dims() as usize);
    let mut cond: Option<Value> = None;
    for (i, e) in set.constraints().iter().enumerate() {
        let v = expand(rw, loc, e, dims, syms).expect("checked");
        let pred = if set.is_eq(i) { EQ } else { SGE };
        let c = cmpi(rw, pred, loc, v, zero);
        cond = Some(match cond {
            None => c,
            Some(prev) => binary(rw, "arith.andi", loc, prev, c, false),
        });
    }
    let cond = match cond {
        Some(c) => c,
        None => {
            let t = ctx.integer_attr(1, ctx.common().i1);
            rw.constant(loc, t)
        }
    };
    let mut regions = Vec::new();
    for b in [then_b, else_b] {
        regions.push(match b {
            Some(b) => move_block_into_new_region(rw, b),
            None => rw.body_mut().create_region(),
        });
    }
    let mut st = OperationState::new(ctx.op_name("scf.if"), loc);
    st.operands = vec![cond];
    st.result_types = result_types;
    st.regions = regions;
    let new = rw.create(st);
    let results: Vec<Value> = rw.body().results(new).collect();
    rw.replace_op(op, &results);
    true
}

fn lower_apply(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let Some(map) = map_prop(rw, op, "map") else {
        return false;
    };
    if !expandable(&map) || map.num_results() != 1 {
        return false;
    }
    let operands: Vec<Value> = rw.body().operands(op).collect();
    let loc = rw.body().op_loc(op);
    let Some(v) = expand_map(rw, loc, &map, &operands) else {
        return false;
    };
    rw.replace_op(op, &v);
    true
}

fn lower_min_max(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let Some(map) = map_prop(rw, op, "map") else {
        return false;
    };
    if !expandable(&map) || map.num_results() == 0 {
        return false;
    }
    let is_min = rw.ctx().op_name_str(rw.body().op_name(op)) == "affine.min";
    let operands: Vec<Value> = rw.body().operands(op).collect();
    let loc = rw.body().op_loc(op);
    let reduce = if is_min { "arith.minsi" } else { "arith.maxsi" };
    let Some(v) = expand_reduced(rw, loc, &map, &operands, reduce) else {
        return false;
    };
    rw.replace_op(op, &[v]);
    true
}

/// Lowers `affine.load` (`first` = 1) and `affine.store` (`first` = 2).
fn lower_access(op: OpId, rw: &mut PatternRewriter<'_>, first: usize, new_name: &str) -> bool {
    let Some(map) = map_prop(rw, op, "map") else {
        return false;
    };
    if !expandable(&map) {
        return false;
    }
    let body = rw.body();
    let all: Vec<Value> = body.operands(op).collect();
    if all.len() < first {
        return false;
    }
    let loc = body.op_loc(op);
    let attrs = body.op_attrs(op);
    let result_types: Vec<Type> = body.results(op).map(|r| body.value_type(r)).collect();
    let Some(indices) = expand_map(rw, loc, &map, &all[first..]) else {
        return false;
    };
    let mut st = OperationState::new(rw.ctx().op_name(new_name), loc);
    st.operands = all[..first].to_vec();
    st.operands.extend(indices);
    st.result_types = result_types;
    st.attrs = attrs;
    let new = rw.create(st);
    let results: Vec<Value> = rw.body().results(new).collect();
    rw.replace_op(op, &results);
    true
}

fn lower_load(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    lower_access(op, rw, 1, "memref.load")
}

fn lower_store(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    lower_access(op, rw, 2, "memref.store")
}

fn lower_yield(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let body = rw.body();
    let parent = body.parent_op(op).map(|p| rw.ctx().op_name_str(body.op_name(p)));
    if !matches!(parent, Some("scf.for" | "scf.if")) {
        return false;
    }
    let operands: Vec<Value> = body.operands(op).collect();
    let loc = body.op_loc(op);
    let mut st = OperationState::new(rw.ctx().op_name("scf.yield"), loc);
    st.operands = operands;
    rw.create(st);
    rw.erase_op(op);
    true
}
