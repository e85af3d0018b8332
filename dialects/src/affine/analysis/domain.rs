//! Iteration domains: the `affine.for`, `affine.if` and `affine.parallel`
//! ops around an op and the constraint system of their bounds and
//! conditions (MLIR's `getEnclosingAffineOps`, `getIndexSet`,
//! `addAffineForOpDomain`, `addAffineIfOpDomain`,
//! `addAffineParallelOpDomain`, `addBound` from a map).

use super::cst::{Bound, BuildError, ValueCst};
use crate::affine::ir::canonicalize::if_condition::canonicalize_set_and_operands;
use crate::affine::utils::canonicalize_map_and_operands;
use crate::affine::utils::validity::is_affine_scope;
use crate::affine::{AffineForOp, AffineIfOp, AffineParallelOp};
use lf_ir::affine::AffineMap;
use lf_ir::attrs::AttrData;
use lf_ir::constants::constant_value;
use lf_ir::view::{IrRef, OpView};
use lf_ir::{Body, Context, OpId, Value, ValueDef};
use lf_presburger::VarKind;
use smallvec::SmallVec;

/// The `affine.for`, `affine.if` and `affine.parallel` ops around `op`,
/// outermost first: the unbroken chain of them from `op`'s parent up (MLIR's
/// `getEnclosingAffineOps`).
pub fn enclosing_affine_ops(ctx: &Context, body: &Body, op: OpId) -> SmallVec<[OpId; 8]> {
    let mut out = SmallVec::new();
    let mut cur = body.parent_op(op);
    while let Some(p) = cur {
        if !is_affine_region_op(ctx, body, p) {
            break;
        }
        out.push(p);
        cur = body.parent_op(p);
    }
    out.reverse();
    out
}

pub(crate) fn is_affine_region_op(ctx: &Context, body: &Body, op: OpId) -> bool {
    let ir = (ctx, body);
    AffineForOp::isa(&ir, op) || AffineIfOp::isa(&ir, op) || AffineParallelOp::isa(&ir, op)
}

/// The `affine.for` ops around `op`, outermost first, inside its affine
/// scope (MLIR's `getAffineForIVs`).
pub fn surrounding_for_ops(ctx: &Context, body: &Body, op: OpId) -> SmallVec<[OpId; 8]> {
    let ir = (ctx, body);
    let mut out = SmallVec::new();
    let mut cur = body.parent_op(op);
    while let Some(p) = cur {
        if is_affine_scope(ctx, body, p) {
            break;
        }
        if AffineForOp::isa(&ir, p) {
            out.push(p);
        }
        cur = body.parent_op(p);
    }
    out.reverse();
    out
}

/// The induction variables of the `affine.for` and `affine.parallel` ops
/// around `op` inside its affine scope, outermost first (an
/// `affine.parallel` gives all of its own, in order; MLIR's `getAffineIVs`).
pub fn surrounding_ivs(ctx: &Context, body: &Body, op: OpId) -> Vec<Value> {
    let ir = (ctx, body);
    let mut groups: Vec<Vec<Value>> = Vec::new();
    let mut cur = body.parent_op(op);
    while let Some(p) = cur {
        if is_affine_scope(ctx, body, p) {
            break;
        }
        if let Some(f) = AffineForOp::cast(&ir, p) {
            groups.push(vec![f.iv(&ir)]);
        } else if let Some(par) = AffineParallelOp::cast(&ir, p) {
            groups.push(par.ivs(&ir).into_iter().collect());
        }
        cur = body.parent_op(p);
    }
    groups.into_iter().rev().flatten().collect()
}

/// The number of loops around `op` (an `affine.parallel` counts once per
/// induction variable; MLIR's `getNestingDepth`).
pub fn nesting_depth(ctx: &Context, body: &Body, op: OpId) -> usize {
    let ir = (ctx, body);
    let mut depth = 0;
    let mut cur = body.parent_op(op);
    while let Some(p) = cur {
        if AffineForOp::isa(&ir, p) {
            depth += 1;
        } else if let Some(par) = AffineParallelOp::cast(&ir, p) {
            depth += par.ivs(&ir).len();
        }
        cur = body.parent_op(p);
    }
    depth
}

/// The loop (`affine.for` or `affine.parallel`) whose induction variable `v` is.
pub(crate) fn iv_owner(ctx: &Context, body: &Body, v: Value) -> Option<OpId> {
    let ValueDef::BlockArg { block, .. } = body.value_def(v) else {
        return None;
    };
    let op = body.region_parent(body.block_region(block)?)?;
    let ir = (ctx, body);
    if AffineForOp::cast(&ir, op).is_some_and(|f| f.iv(&ir) == v)
        || AffineParallelOp::cast(&ir, op).is_some_and(|p| p.ivs(&ir).contains(&v))
    {
        Some(op)
    } else {
        None
    }
}

/// The induction variables of the loops among `ops`, in order.
pub(crate) fn loop_ivs(ctx: &Context, body: &Body, ops: &[OpId]) -> Vec<Value> {
    let ir = (ctx, body);
    let mut ivs = Vec::new();
    for &op in ops {
        if let Some(f) = AffineForOp::cast(&ir, op) {
            ivs.push(f.iv(&ir));
        } else if let Some(p) = AffineParallelOp::cast(&ir, op) {
            ivs.extend(p.ivs(&ir));
        }
    }
    ivs
}

/// The iteration domain of `inner`, inside the ops `ops` (its enclosing
/// affine ops, outermost first): one dimension per induction variable, the
/// bounds and conditions in order (MLIR's `getIndexSet`). An `affine.if`
/// whose else block holds `inner` adds no condition with `sound_else`:
/// MLIR adds the then block's condition there too (as without
/// `sound_else`), which leaves out iterations that run the else block and
/// hides their dependences (a parallelized loop that races); the negated
/// condition is a disjunction, so lf keeps the domain without it (a
/// superset, sound for dependences).
pub(crate) fn index_set(
    ctx: &Context,
    body: &Body,
    ops: &[OpId],
    inner: OpId,
    sound_else: bool,
) -> Result<ValueCst, BuildError> {
    let ivs = loop_ivs(ctx, body, ops);
    let mut cst = ValueCst::new_set(&ivs);
    let ir = (ctx, body);
    for (k, &op) in ops.iter().enumerate() {
        if let Some(f) = AffineForOp::cast(&ir, op) {
            add_for_domain(&mut cst, ctx, body, f)?;
        } else if let Some(i) = AffineIfOp::cast(&ir, op) {
            let child = ops.get(k + 1).copied().unwrap_or(inner);
            let in_else = body
                .op_block(child)
                .and_then(|b| body.block_region(b))
                .is_some_and(|r| r == i.else_region(&ir));
            if !(in_else && sound_else) {
                add_if_domain(&mut cst, ctx, body, i)?;
            }
        } else if let Some(p) = AffineParallelOp::cast(&ir, op) {
            add_parallel_domain(&mut cst, ctx, body, p)?;
        }
        super::check_size(&cst.rel)?;
    }
    Ok(cst)
}

fn add_for_domain(cst: &mut ValueCst, ctx: &Context, body: &Body, f: AffineForOp) -> Result<(), BuildError> {
    let ir = IrRef { ctx, body };
    let iv = f.iv(&ir);
    let pos = cst
        .find_var(iv, 0)
        .ok_or(BuildError::Unsupported("a loop outside the system"))?;
    let step = f.step(&ir);
    let clb = f.constant_lower_bound(&ir);
    if step != 1 {
        if let Some(lb) = clb {
            let mut dividend = vec![0; cst.rel.num_cols()];
            dividend[pos] = 1;
            let last = dividend.len() - 1;
            dividend[last] = lb.checked_neg().ok_or(BuildError::Unsupported("bound overflow"))?;
            cst.add_local_floordiv(&dividend, step)?;
            let mut eq = vec![0; cst.rel.num_cols()];
            eq[pos] = 1;
            let last = eq.len() - 1;
            eq[last] = dividend[dividend.len() - 1];
            eq[last - 1] = -step;
            cst.rel.add_equality(&eq);
        }
    }
    match clb {
        Some(lb) => cst.add_const_bound(Bound::Lower, pos, lb)?,
        None => {
            let b = f.lower_bound(&ir);
            add_bound_from_map(cst, ctx, body, Bound::Lower, pos, &b.map, &b.operands)?
        }
    }
    match f.constant_upper_bound(&ir) {
        Some(ub) => cst.add_const_bound(
            Bound::Upper,
            pos,
            ub.checked_sub(1).ok_or(BuildError::Unsupported("bound overflow"))?,
        ),
        None => {
            let b = f.upper_bound(&ir);
            add_bound_from_map(cst, ctx, body, Bound::Upper, pos, &b.map, &b.operands)
        }
    }
}

fn add_parallel_domain(cst: &mut ValueCst, ctx: &Context, body: &Body, p: AffineParallelOp) -> Result<(), BuildError> {
    let ir = IrRef { ctx, body };
    let (lb_ops, ub_ops) = p.bound_operands(&ir);
    let (lbs, ubs) = (p.lower_bounds_map(&ir), p.upper_bounds_map(&ir));
    let (lg, ug) = (p.lower_bound_groups(&ir), p.upper_bound_groups(&ir));
    let group = |m: &AffineMap, groups: &[i64], k: usize| -> AffineMap {
        let start: usize = groups[..k].iter().map(|&g| g as usize).sum();
        let n = groups.get(k).copied().unwrap_or(0) as usize;
        let end = (start + n).min(m.num_results());
        AffineMap::new(m.num_dims(), m.num_symbols(), m.results()[start.min(end)..end].to_vec())
    };
    for (k, iv) in p.ivs(&ir).into_iter().enumerate() {
        let pos = cst
            .find_var(iv, 0)
            .ok_or(BuildError::Unsupported("a loop outside the system"))?;
        let lm = group(lbs, &lg, k);
        match lm.single_constant_result() {
            Some(c) => cst.add_const_bound(Bound::Lower, pos, c)?,
            None => add_bound_from_map(cst, ctx, body, Bound::Lower, pos, &lm, &lb_ops)?,
        }
        let um = group(ubs, &ug, k);
        match um.single_constant_result() {
            Some(c) => cst.add_const_bound(
                Bound::Upper,
                pos,
                c.checked_sub(1).ok_or(BuildError::Unsupported("bound overflow"))?,
            )?,
            None => add_bound_from_map(cst, ctx, body, Bound::Upper, pos, &um, &ub_ops)?,
        }
    }
    Ok(())
}

fn add_if_domain(cst: &mut ValueCst, ctx: &Context, body: &Body, i: AffineIfOp) -> Result<(), BuildError> {
    let ir = IrRef { ctx, body };
    let set = i.condition(&ir);
    let operands: Vec<Value> = i.operands(&ir).to_vec();
    if operands.len() != set.num_inputs() as usize {
        return Err(BuildError::Unsupported(
            "an affine.if with the wrong number of operands",
        ));
    }
    let (set, operands) = canonicalize_set_and_operands(ctx, body, set, &operands);
    let mut other = ValueCst::from_set(
        set.num_dims() as usize,
        set.num_symbols() as usize,
        set.constraints(),
        set.eq_flags(),
        &operands,
    )?;
    cst.merge_and_align_vars(&mut other)?;
    cst.append(&other.rel);
    Ok(())
}

/// MLIR's `FlatAffineValueConstraints::addBound(type, pos, map, operands)`:
/// the map composed with its `affine.apply` producers and canonicalized,
/// its operands added to the system (loop variables as dimensions with
/// their domains, other values as symbols), then the bound rows.
pub(crate) fn add_bound_from_map(
    cst: &mut ValueCst,
    ctx: &Context,
    body: &Body,
    kind: Bound,
    pos: usize,
    map: &AffineMap,
    operands: &[Value],
) -> Result<(), BuildError> {
    let (map, operands) = match canonicalize_map_and_operands(ctx, body, map, operands) {
        Some((m, o)) => (m, o),
        None => (map.clone(), operands.to_vec()),
    };
    for &v in &operands {
        add_iv_or_terminal_symbol(cst, ctx, body, v)?;
    }
    let cols: Vec<usize> = operands
        .iter()
        .map(|&v| {
            cst.find_var(v, 0)
                .ok_or(BuildError::Unsupported("a bound operand outside the system"))
        })
        .collect::<Result<_, _>>()?;
    cst.add_map_bound(kind, pos, &map, &cols)
}

fn add_iv_or_terminal_symbol(cst: &mut ValueCst, ctx: &Context, body: &Body, v: Value) -> Result<(), BuildError> {
    if cst.find_var(v, 0).is_some() {
        return Ok(());
    }
    let ir = IrRef { ctx, body };
    if let Some(owner) = iv_owner(ctx, body, v) {
        if let Some(f) = AffineForOp::cast(&ir, owner) {
            let n = cst.num_dims();
            cst.insert_var(VarKind::Range, n, &[Some(v)]);
            return add_for_domain(cst, ctx, body, f);
        }
        if let Some(p) = AffineParallelOp::cast(&ir, owner) {
            let ivs: Vec<Option<Value>> = p.ivs(&ir).into_iter().map(Some).collect();
            let n = cst.num_dims();
            cst.insert_var(VarKind::Range, n, &ivs);
            return add_parallel_domain(cst, ctx, body, p);
        }
    }
    let n = cst.num_symbols();
    let col = cst.insert_var(VarKind::Symbol, n, &[Some(v)]);
    if let Some(a) = constant_value(ctx, body, v) {
        if let AttrData::Integer { value, .. } = ctx.attr_data(a) {
            if let Ok(c) = i64::try_from(*value) {
                cst.add_const_bound(Bound::Eq, col, c)?;
            }
        }
    }
    Ok(())
}
