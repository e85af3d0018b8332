//! Deciding a fusion: where the fused computation may go and whether it
//! keeps the program's results, proven with the exact dependence analysis.
//!
//! Two kinds of plan:
//! * **Merge** at depth `d` (producer-consumer or sibling): the first `d`
//!   loops of both nests have the same bounds and steps; the moving nest's
//!   body runs in the host's loop at depth `d`, each of its iterations
//!   exactly once. Legal when no pair of conflicting accesses (same element,
//!   one a write) has the source's iteration after the destination's in
//!   the first `d` loops (the fused order would reverse it).
//! * **Slice** at depth `d` (producer-consumer): each consumer iteration of
//!   the first `d` loops runs the producer iterations it needs, a box
//!   `j_l + [lo, hi]` per producer band loop (recomputed where boxes
//!   overlap). Legal when the producer's values cannot change between
//!   recomputations (it reads nothing it or the consumer writes, writes no
//!   element twice, and the consumer writes nothing it touches) and every
//!   consumer read of a producer write is covered by the box of its
//!   iteration (checked exactly).

use super::nests::{BlockState, Nest};
use super::transform::{self, Plan, Private, SliceLoop};
use super::LoopFusion;
use crate::affine::analysis::{nesting_depth, ConflictSystem, MemRefAccesses, Precision};
use crate::affine::utils::loop_slice::perfect_band;
use crate::affine::{AffineForOp, AffineLoadOp, AffineStoreOp};
use crate::memref::{MemrefAllocOp, MemrefAllocaOp, MemrefDeallocOp};
use lf_ir::affine::{AffineExpr, AffineMap, BinaryOp};
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, TypeData, Value, ValueDef};

/// `file:line:col`-free position of an op for messages (`line:col`).
pub(super) fn at(ctx: &Context, body: &Body, op: OpId) -> String {
    match body.op_loc(op).source_pos(ctx) {
        Some(p) => format!("{}:{}", p.line, p.col),
        None => "?".into(),
    }
}

/// Tries to fuse the nest at `src` with the later nest at `dst`:
/// producer-consumer (`src` into `dst`) or sibling (`dst` into `src`).
/// `Err` with the reason (for a remark at the nest left alone).
pub(super) fn try_fuse(
    st: &mut BlockState,
    pass: &LoopFusion,
    b: &mut Builder<'_>,
    src: usize,
    dst: usize,
    producer: bool,
) -> Result<(), String> {
    let (ctx, body) = (b.ctx(), b.body());
    let (s, d) = (&st.nests[&src], &st.nests[&dst]);
    let prefix = if producer {
        format!("not fused into the loop nest at {}", at(ctx, body, d.root.op()))
    } else {
        format!("not fused with the sibling loop nest at {}", at(ctx, body, s.root.op()))
    };
    let plan = plan(st, pass, ctx, body, src, dst, producer).map_err(|e| format!("{prefix}: {e}"))?;
    transform::apply(st, pass, b, src, dst, producer, plan);
    Ok(())
}

/// The plan for one pair, or why there is none.
fn plan(
    st: &BlockState,
    pass: &LoopFusion,
    ctx: &Context,
    body: &Body,
    src: usize,
    dst: usize,
    producer: bool,
) -> Result<Plan, String> {
    let (s, d) = (&st.nests[&src], &st.nests[&dst]);
    intervening(st, ctx, body, src, dst, producer)?;
    let sband = perfect_band(ctx, body, s.root);
    let dband = perfect_band(ctx, body, d.root);
    let ir = (ctx, body);
    let same = |a: AffineForOp, c: AffineForOp| {
        a.step(&ir) == c.step(&ir)
            && a.lower_bound(&ir) == c.lower_bound(&ir)
            && a.upper_bound(&ir) == c.upper_bound(&ir)
    };
    let mut exact = 0;
    while exact < sband.len().min(dband.len()) && same(sband[exact], dband[exact]) {
        exact += 1;
    }
    let cache = MemRefAccesses::new();
    let mut why = if exact == 0 {
        "the outermost loops have different bounds or steps".to_string()
    } else {
        String::new()
    };
    for depth in (1..=exact).rev() {
        match order_test(&cache, ctx, body, s, d, &sband, &dband, depth) {
            Ok(()) => {
                let mapping: Vec<SliceLoop> = (0..depth)
                    .map(|k| SliceLoop::Mapped {
                        l: k,
                        lo: 0,
                        hi: 0,
                        clip: (false, false),
                    })
                    .collect();
                let privates = if producer {
                    privatizable(st, pass, ctx, body, &cache, s, d, &sband, &dband, &mapping)
                } else {
                    Vec::new()
                };
                return Ok(Plan::Merge { depth, privates });
            }
            Err(e) => {
                if why.is_empty() {
                    why = e;
                }
            }
        }
    }
    if !producer {
        return Err(why);
    }
    match slice_plan(st, pass, ctx, body, &cache, s, d, &sband, &dband) {
        Ok(p) => Ok(p),
        Err(e) if why.is_empty() => Err(e),
        Err(e) => Err(format!("{why}; {e}")),
    }
}

/// The nest that moves must not cross an op that conflicts with it: the
/// producer moves down to the consumer, a sibling up to the earlier one.
fn intervening(
    st: &BlockState,
    ctx: &Context,
    body: &Body,
    src: usize,
    dst: usize,
    producer: bool,
) -> Result<(), String> {
    if let Some(&p) = st.barriers.range(src + 1..dst).next() {
        let name = ctx.op_name_str(body.op_name(st.ops[p]));
        return Err(format!(
            "'{name}' at {} between the nests has effects the analysis does not follow",
            at(ctx, body, st.ops[p])
        ));
    }
    let mover = &st.nests[&if producer { src } else { dst }];
    for (m, a) in &mover.by_memref {
        let Some(u) = st.index.get(m) else { continue };
        let mut hits = u.writers.range(src + 1..dst).next().copied();
        if !a.writes.is_empty() {
            let r = u.readers.range(src + 1..dst).next().copied();
            hits = match (hits, r) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            };
        }
        if let Some(p) = hits {
            return Err(format!(
                "'{}' at {} between the nests accesses a memref the moving nest uses",
                ctx.op_name_str(body.op_name(st.ops[p])),
                at(ctx, body, st.ops[p])
            ));
        }
    }
    if !producer {
        // The later nest moves up: what it uses must be defined before the
        // earlier one.
        let mover_op = mover.root.op();
        let mut bad = None;
        walk(body, mover_op, WalkOrder::PreOrder, &mut |bd, op| {
            for v in bd.operands(op) {
                if let ValueDef::OpResult { op: def, .. } = bd.value_def(v) {
                    if let Some(&p) = ancestor_position(st, bd, def).as_ref() {
                        if p > src && p < dst {
                            bad = Some(def);
                            return WalkControl::Interrupt;
                        }
                    }
                }
            }
            WalkControl::Advance
        });
        if let Some(def) = bad {
            return Err(format!(
                "the later nest uses a value defined at {} between the nests",
                at(ctx, body, def)
            ));
        }
    }
    Ok(())
}

fn ancestor_position(st: &BlockState, body: &Body, op: OpId) -> Option<usize> {
    let mut cur = op;
    loop {
        if body.op_block(cur) == Some(st.block) {
            return st.position.get(&cur).copied();
        }
        cur = body.parent_op(cur)?;
    }
}

/// A row of `sys`'s width.
fn row(sys: &ConflictSystem) -> Vec<i64> {
    vec![0; sys.num_cols()]
}

fn name_at(ctx: &Context, body: &Body, op: OpId) -> String {
    format!("'{}' at {}", ctx.op_name_str(body.op_name(op)), at(ctx, body, op))
}

/// No pair of conflicting accesses (one of `s`, one of `d`) may have the
/// source iteration after the destination's in the first `depth` loops.
#[allow(clippy::too_many_arguments)]
fn order_test(
    cache: &MemRefAccesses,
    ctx: &Context,
    body: &Body,
    s: &Nest,
    d: &Nest,
    sband: &[AffineForOp],
    dband: &[AffineForOp],
    depth: usize,
) -> Result<(), String> {
    let ir = (ctx, body);
    // The memrefs both touch, looked up from the smaller nest (a nest that
    // has absorbed many siblings touches many memrefs).
    let shared: Vec<Value> = if s.by_memref.len() <= d.by_memref.len() {
        s.by_memref
            .keys()
            .filter(|m| d.by_memref.contains_key(m))
            .copied()
            .collect()
    } else {
        d.by_memref
            .keys()
            .filter(|m| s.by_memref.contains_key(m))
            .copied()
            .collect()
    };
    for m in &shared {
        let (sa, da) = (&s.by_memref[m], &d.by_memref[m]);
        // Pairs with a write (reads of a memref nobody writes cost nothing).
        let mut pairs: Vec<(OpId, OpId)> = Vec::new();
        if !sa.writes.is_empty() {
            for a in &sa.writes {
                pairs.extend(da.reads.iter().chain(&da.writes).map(|x| (*a, *x)));
            }
        }
        if !da.writes.is_empty() {
            for a in &sa.reads {
                pairs.extend(da.writes.iter().map(|x| (*a, *x)));
            }
        }
        for (a, x) in pairs {
            let sys = cache.conflict_system(ctx, body, a, x).map_err(|e| {
                format!(
                    "a dependence from {} to {} must be assumed: {e}",
                    name_at(ctx, body, a),
                    name_at(ctx, body, x)
                )
            })?;
            let Some(sys) = sys else { continue };
            let cols: Option<Vec<(usize, usize)>> = (0..depth)
                .map(|k| Some((sys.src_col(sband[k].iv(&ir))?, sys.dst_col(dband[k].iv(&ir))?)))
                .collect();
            let cols = cols.ok_or("an access is not inside the fused loops")?;
            for k in 0..depth {
                let mut eqs = Vec::new();
                for &(i, j) in &cols[..k] {
                    let mut r = row(&sys);
                    r[i] = 1;
                    r[j] = -1;
                    eqs.push(r);
                }
                let mut r = row(&sys);
                let n = r.len();
                r[cols[k].0] = 1;
                r[cols[k].1] = -1;
                r[n - 1] = -1;
                if sys
                    .feasible_with(&eqs, &[r])
                    .map_err(|e| format!("the dependence check failed: {e}"))?
                {
                    return Err(format!(
                        "fusing at depth {depth} would reverse the dependence from {} to {} (carried at depth {})",
                        name_at(ctx, body, a),
                        name_at(ctx, body, x),
                        k + 1
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Every read by `d` of an element `s` writes (memrefs `memrefs`) is
/// covered by the slice of its iteration.
#[allow(clippy::too_many_arguments)]
fn coverage(
    cache: &MemRefAccesses,
    ctx: &Context,
    body: &Body,
    s: &Nest,
    d: &Nest,
    sband: &[AffineForOp],
    dband: &[AffineForOp],
    mapping: &[SliceLoop],
    memrefs: &[Value],
) -> Result<(), String> {
    let ir = (ctx, body);
    for m in memrefs {
        let (Some(sa), Some(da)) = (s.by_memref.get(m), d.by_memref.get(m)) else {
            continue;
        };
        for &w in &sa.writes {
            for &r in &da.reads {
                let sys = cache
                    .conflict_system(ctx, body, w, r)
                    .map_err(|e| format!("a dependence from {} must be assumed: {e}", name_at(ctx, body, w)))?;
                let Some(sys) = sys else { continue };
                for (k, sl) in mapping.iter().enumerate() {
                    let SliceLoop::Mapped { l, lo, hi, .. } = *sl else {
                        continue;
                    };
                    let (Some(i), Some(j)) = (sys.src_col(sband[k].iv(&ir)), sys.dst_col(dband[l].iv(&ir))) else {
                        return Err("an access is not inside the fused loops".into());
                    };
                    let n = sys.num_cols();
                    // i < j + lo  or  i > j + hi
                    let mut below = row(&sys);
                    below[j] = 1;
                    below[i] = -1;
                    below[n - 1] = lo - 1;
                    let mut above = row(&sys);
                    above[i] = 1;
                    above[j] = -1;
                    above[n - 1] = -hi - 1;
                    for extra in [below, above] {
                        if sys
                            .feasible_with(&[], &[extra])
                            .map_err(|e| format!("the dependence check failed: {e}"))?
                        {
                            return Err(format!(
                                "{} reads a value {} writes outside the slice of its iteration",
                                name_at(ctx, body, r),
                                name_at(ctx, body, w)
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// `v + c` for an access subscript that is a map operand plus a constant.
fn operand_plus_const(e: &AffineExpr, map: &AffineMap, operands: &[Value]) -> Option<(Value, i64)> {
    let pos = |e: &AffineExpr| -> Option<usize> {
        match (e.as_dim(), e.as_symbol()) {
            (Some(d), _) => Some(d as usize),
            (_, Some(s)) => Some(map.num_dims() as usize + s as usize),
            _ => None,
        }
    };
    if let Some(p) = pos(e) {
        return Some((operands[p], 0));
    }
    let (op, l, r) = e.as_binary()?;
    if op != BinaryOp::Add {
        return None;
    }
    let c = r.as_constant()?;
    Some((operands[pos(l)?], c))
}

/// The map and operands of an affine access.
fn access_map(ctx: &Context, body: &Body, op: OpId) -> Option<(AffineMap, Vec<Value>)> {
    let ir = (ctx, body);
    if let Some(l) = AffineLoadOp::cast(&ir, op) {
        return Some((l.map(&ir).clone(), l.indices(&ir).to_vec()));
    }
    let s = AffineStoreOp::cast(&ir, op)?;
    Some((s.map(&ir).clone(), s.indices(&ir).to_vec()))
}

/// The memrefs `s` writes and `d` reads, in a fixed order.
fn flowing(s: &Nest, d: &Nest) -> Vec<Value> {
    let mut v: Vec<Value> = s
        .by_memref
        .keys()
        .filter(|m| s.writes(**m) && d.reads(**m))
        .copied()
        .collect();
    v.sort_unstable_by_key(|m| m.index());
    v
}

/// The cost of a nest: ops weighted by the trip counts of the loops around
/// them (an unknown trip count counts as 100; both sides of a comparison
/// use the same estimate). An op with regions other than a loop counts as
/// one op.
fn nest_cost(ctx: &Context, body: &Body, f: AffineForOp, trip_of: &dyn Fn(AffineForOp) -> Option<f64>) -> f64 {
    let ir = (ctx, body);
    let trip = trip_of(f).unwrap_or(100.0);
    let mut c = 0.0;
    for op in body.block_ops(f.region_block(&ir)) {
        c += match AffineForOp::cast(&ir, op) {
            Some(g) => nest_cost(ctx, body, g, trip_of),
            None => 1.0,
        };
    }
    trip * c
}

/// The slice plan of a producer-consumer pair.
#[allow(clippy::too_many_arguments)]
fn slice_plan(
    st: &BlockState,
    pass: &LoopFusion,
    ctx: &Context,
    body: &Body,
    cache: &MemRefAccesses,
    s: &Nest,
    d: &Nest,
    sband: &[AffineForOp],
    dband: &[AffineForOp],
) -> Result<Plan, String> {
    let ir = (ctx, body);
    // The producer's values must not change between recomputations.
    for (m, a) in &s.by_memref {
        if !a.reads.is_empty() && (s.writes(*m) || d.writes(*m)) {
            return Err(format!(
                "recomputing the producer is not safe: the nests write the memref {} reads",
                name_at(ctx, body, a.reads[0])
            ));
        }
        if !a.writes.is_empty() && d.by_memref.get(m).is_some_and(|x| !x.writes.is_empty()) {
            return Err(format!(
                "recomputing the producer is not safe: both nests write the memref of {}",
                name_at(ctx, body, a.writes[0])
            ));
        }
        for (i, &w1) in a.writes.iter().enumerate() {
            for &w2 in &a.writes[i..] {
                for (x, y) in [(w1, w2), (w2, w1)] {
                    let outer = nesting_depth(ctx, body, s.root.op());
                    for depth in outer + 1..=nesting_depth(ctx, body, x) + 1 {
                        let r = cache.check(ctx, body, x, y, depth, Precision::Exact, false);
                        if r.may_depend() {
                            return Err(format!(
                                "recomputing the producer is not safe: {} may write an element twice",
                                name_at(ctx, body, x)
                            ));
                        }
                    }
                }
            }
        }
    }
    let flows = flowing(s, d);
    let cons = |f: AffineForOp| -> Option<(i64, i64)> {
        (f.step(&ir) == 1).then_some(())?;
        Some((f.constant_lower_bound(&ir)?, f.constant_upper_bound(&ir)?))
    };
    let trip = |f: AffineForOp| f.constant_trip_count(&ir).map(|t| t as f64);
    let src_cost = nest_cost(ctx, body, s.root, &trip);
    let dst_cost = nest_cost(ctx, body, d.root, &trip);
    let mut last = String::from("no depth is legal");
    for depth in (1..=dband.len()).rev() {
        // The box of each producer band loop, from the subscripts.
        let mut boxes: Vec<Option<(usize, i64, i64)>> = vec![None; sband.len()];
        let mut mixed = vec![false; sband.len()];
        for m in &flows {
            for &w in &s.by_memref[m].writes {
                for &r in &d.by_memref[m].reads {
                    let (Some((wm, wo)), Some((rm, ro))) = (access_map(ctx, body, w), access_map(ctx, body, r)) else {
                        continue;
                    };
                    for k in 0..wm.num_results().min(rm.num_results()) {
                        let Some((wv, wc)) = operand_plus_const(wm.result(k), &wm, &wo) else {
                            continue;
                        };
                        let Some(sk) = sband.iter().position(|f| f.iv(&ir) == wv) else {
                            continue;
                        };
                        let target = operand_plus_const(rm.result(k), &rm, &ro)
                            .and_then(|(rv, rc)| Some((dband[..depth].iter().position(|f| f.iv(&ir) == rv)?, rc)));
                        match target {
                            Some((l, rc)) => {
                                let o = rc - wc;
                                boxes[sk] = match boxes[sk] {
                                    None => Some((l, o, o)),
                                    Some((l2, lo, hi)) if l2 == l => Some((l, lo.min(o), hi.max(o))),
                                    Some(_) => {
                                        mixed[sk] = true;
                                        None
                                    }
                                };
                            }
                            None => mixed[sk] = true,
                        }
                    }
                }
            }
        }
        let mut mapping = Vec::new();
        let mut removable = true;
        let mut used_l = vec![false; depth];
        let mut per_j_factor = 1.0;
        for (k, bx) in boxes.iter().enumerate() {
            let sl = match (bx, mixed[k]) {
                (Some((l, lo, hi)), false) => match (cons(sband[k]), cons(dband[*l])) {
                    (Some((ls, us)), Some((ld, ud))) if ud > ld && us > ls => {
                        if used_l[*l] || ld + lo > ls || ud + hi < us {
                            removable = false;
                        }
                        used_l[*l] = true;
                        per_j_factor *= (hi - lo + 1) as f64 / (us - ls) as f64;
                        SliceLoop::Mapped {
                            l: *l,
                            lo: *lo,
                            hi: *hi,
                            clip: (ld + lo < ls, ud + hi > us),
                        }
                    }
                    _ => SliceLoop::Full,
                },
                _ => SliceLoop::Full,
            };
            mapping.push(sl);
        }
        if let Err(e) = coverage(cache, ctx, body, s, d, sband, dband, &mapping, &flows) {
            last = e;
            continue;
        }
        let n_j: f64 = dband[..depth].iter().map(|f| trip(*f).unwrap_or(100.0)).product();
        let privates = privatizable(st, pass, ctx, body, cache, s, d, sband, dband, &mapping);
        let all_private = s
            .by_memref
            .iter()
            .filter(|(_, a)| !a.writes.is_empty())
            .all(|(m, _)| privates.iter().any(|p| p.memref == *m));
        let remove = removable || all_private;
        let fused = src_cost * per_j_factor * n_j + dst_cost + if remove { 0.0 } else { src_cost };
        let extra = fused / (src_cost + dst_cost) - 1.0;
        if !pass.maximal && extra > pass.tolerance {
            last = format!(
                "the slice at depth {depth} would add {:.0}% computation (compute-tolerance {})",
                extra * 100.0,
                pass.tolerance
            );
            continue;
        }
        return Ok(Plan::Slice {
            depth,
            mapping,
            remove_src: remove,
            privates,
        });
    }
    Err(last)
}

/// The memrefs written by `s` that may become private buffers of the fused
/// nest: allocated in the function, used by nothing but the two nests (and
/// deallocations), written only by `s`, read by `d`, each read covered by
/// the slice of its iteration; with their shapes and offsets.
#[allow(clippy::too_many_arguments)]
fn privatizable(
    st: &BlockState,
    pass: &LoopFusion,
    ctx: &Context,
    body: &Body,
    cache: &MemRefAccesses,
    s: &Nest,
    d: &Nest,
    sband: &[AffineForOp],
    dband: &[AffineForOp],
    mapping: &[SliceLoop],
) -> Vec<Private> {
    let ir = (ctx, body);
    let mut out = Vec::new();
    for m in flowing(s, d) {
        if s.reads(m) || d.writes(m) {
            continue;
        }
        let ValueDef::OpResult { op: alloc, .. } = body.value_def(m) else {
            continue;
        };
        if !MemrefAllocOp::isa(&ir, alloc) && !MemrefAllocaOp::isa(&ir, alloc) {
            continue;
        }
        if body.num_operands(alloc) > 0 {
            continue;
        }
        let only_nests = body.uses(m).all(|u| {
            let user = body.use_owner(u);
            if MemrefDeallocOp::isa(&ir, user) {
                return true;
            }
            body.is_ancestor(s.root.op(), user) || body.is_ancestor(d.root.op(), user)
        });
        if !only_nests {
            continue;
        }
        if coverage(cache, ctx, body, s, d, sband, dband, mapping, &[m]).is_err() {
            continue;
        }
        let TypeData::MemRef {
            shape,
            element,
            memory_space,
            layout,
        } = ctx.type_data(body.value_type(m)).clone()
        else {
            continue;
        };
        if layout.is_some() {
            continue;
        }
        // Per dimension: the box of the band loop the producer's stores
        // index it with, or the whole dimension.
        let mut dims: Vec<Option<(usize, i64, i64)>> = vec![None; shape.len()];
        let mut agree = vec![true; shape.len()];
        for (i, &w) in s.by_memref[&m].writes.iter().enumerate() {
            let Some((wm, wo)) = access_map(ctx, body, w) else {
                continue;
            };
            for r in 0..shape.len() {
                let this = operand_plus_const(wm.result(r), &wm, &wo).and_then(|(v, c)| {
                    let k = sband.iter().position(|f| f.iv(&ir) == v)?;
                    match mapping.get(k)? {
                        SliceLoop::Mapped { l, lo, hi, .. } => Some((*l, lo + c, hi - lo + 1)),
                        SliceLoop::Full => None,
                    }
                });
                if i == 0 {
                    dims[r] = this;
                } else if dims[r] != this {
                    agree[r] = false;
                }
            }
        }
        let mut new_shape = Vec::new();
        let mut offsets = Vec::new();
        let mut ok = true;
        for r in 0..shape.len() {
            match (dims[r], agree[r]) {
                (Some((l, off, size)), true) => {
                    new_shape.push(size);
                    offsets.push((Some(dband[l].iv(&ir)), off));
                }
                _ => {
                    if shape[r] < 0 {
                        ok = false;
                    }
                    new_shape.push(shape[r]);
                    offsets.push((None, 0));
                }
            }
        }
        // Every read of the consumer must fall inside the buffer: on a
        // boxed dimension, the loop variable of the box plus a constant in
        // range.
        let inside = d.by_memref[&m].reads.iter().all(|&r| {
            let Some((rm, ro)) = access_map(ctx, body, r) else {
                return false;
            };
            (0..shape.len()).all(|k| match offsets[k] {
                (None, _) => true,
                (Some(v), off) => operand_plus_const(rm.result(k), &rm, &ro)
                    .is_some_and(|(rv, rc)| rv == v && rc - off >= 0 && rc - off < new_shape[k]),
            })
        });
        if !ok || !inside {
            continue;
        }
        let bytes = new_shape.iter().fold(element_bytes(ctx, element), |acc, &d| {
            acc.saturating_mul(d.max(0) as u64)
        });
        let space = if pass.local_buf_threshold > 0 && bytes <= pass.local_buf_threshold.saturating_mul(1024) {
            Some(ctx.integer_attr(i128::from(pass.fast_mem_space), ctx.common().i64))
        } else {
            memory_space
        };
        let ty = ctx.get_type(TypeData::MemRef {
            shape: new_shape.into_boxed_slice(),
            element,
            layout: None,
            memory_space: space,
        });
        out.push(Private { memref: m, ty, offsets });
    }
    let _ = st;
    out
}

/// The size of an element in bytes (4 when unknown).
fn element_bytes(ctx: &Context, t: lf_ir::Type) -> u64 {
    match ctx.type_data(t) {
        TypeData::Integer { width, .. } => u64::from(*width).div_ceil(8).max(1),
        TypeData::Float(k) => (k.width() as u64).div_ceil(8),
        TypeData::Index => 8,
        _ => 4,
    }
}
