//! Which accesses `vectorize-access` (strict mode) merges: groups of `w`
//! accesses of one thread to neighbouring elements, with the proof that
//! the vector is aligned, or the reason why not.

use crate::gpu::analysis::kernel_access::{
    kernel_accesses, loop_lower_linear, KernelAccess, LaunchIds, LinearIndex, Term,
};
use crate::gpu::GpuLaunchOp;
use lf_ir::dominance::properly_dominates;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::{BlockId, Body, Context, FloatKind, OpId, Type, TypeData, Value};
use std::collections::{BTreeSet, HashSet};

/// `w` accesses to make one vector access.
#[derive(Clone, Debug)]
pub struct Group {
    /// The memref.
    pub memref: Value,
    /// Stores (else loads).
    pub is_store: bool,
    /// The accesses of each lane (one per lane for stores; loads of one
    /// element may repeat).
    pub lanes: Vec<Vec<OpId>>,
    /// Where the vector access goes: before the first load, or before
    /// the last store.
    pub anchor: OpId,
    /// `vector<wxT>`.
    pub vector_ty: Type,
}

/// Accesses that differ only in the constant of the innermost subscript.
struct Family<'k> {
    memref: Value,
    is_store: bool,
    block: BlockId,
    outer: Vec<LinearIndex>,
    inner_terms: Vec<(Term, i64)>,
    items: Vec<(i64, &'k KernelAccess)>,
}

/// Plans the groups of the kernel of `launch`; remarks for the
/// neighbouring accesses left scalar, and for the groups made.
pub fn plan_launch(
    ctx: &Context,
    body: &Body,
    launch: GpuLaunchOp,
    w: i64,
    groups: &mut Vec<Group>,
    remarks: &mut Vec<(OpId, String)>,
) {
    let accesses = kernel_accesses(&(ctx, body), launch);
    let ids = LaunchIds::of(&(ctx, body), launch);
    let mut families: Vec<Family<'_>> = Vec::new();
    for a in &accesses {
        if a.shape.is_empty() || a.unresolved().is_some() {
            continue;
        }
        let subs: Vec<LinearIndex> = a.subscripts.iter().filter_map(|s| s.linear().cloned()).collect();
        let Some(block) = body.op_block(a.op) else { continue };
        let (inner, outer) = subs.split_last().expect("rank >= 1");
        let found = families.iter_mut().find(|f| {
            f.memref == a.memref
                && f.is_store == a.is_store
                && f.block == block
                && f.outer == outer
                && f.inner_terms == inner.terms
        });
        match found {
            Some(f) => f.items.push((inner.constant, a)),
            None => families.push(Family {
                memref: a.memref,
                is_store: a.is_store,
                block,
                outer: outer.to_vec(),
                inner_terms: inner.terms.clone(),
                items: vec![(inner.constant, a)],
            }),
        }
    }
    for f in &families {
        let consts: BTreeSet<i64> = f.items.iter().map(|&(c, _)| c).collect();
        let run = |n: i64| (0..w).all(|k| consts.contains(&(n + k)));
        let mut covered: HashSet<i64> = HashSet::new();
        for &n in &consts {
            if n.rem_euclid(w) != 0 || !run(n) {
                continue;
            }
            covered.extend(n..n + w);
            let first = f.items.iter().find(|&&(c, _)| c == n).expect("in the run").1;
            match make_group(ctx, body, &ids, f, n, w) {
                Ok(g) => {
                    remarks.push((
                        g.anchor,
                        format!(
                            "vectorize-access: {} {} merged into one {} access (aligned: flat offset {})",
                            w,
                            kind(f.is_store),
                            lf_ir::printer::type_to_string(ctx, g.vector_ty),
                            show(&first.flat_offset().unwrap_or_default())
                        ),
                    ));
                    groups.push(g);
                }
                Err(why) => remarks.push((
                    first.op,
                    format!(
                        "vectorize-access: {w} neighbouring {} not vectorized: {why}",
                        kind(f.is_store)
                    ),
                )),
            }
        }
        for &n in &consts {
            if n.rem_euclid(w) == 0 || !run(n) || (n..n + w).any(|c| covered.contains(&c)) {
                continue;
            }
            covered.extend(n..n + w);
            let first = f.items.iter().find(|&&(c, _)| c == n).expect("in the run").1;
            remarks.push((
                first.op,
                format!(
                    "vectorize-access: {w} neighbouring {} not vectorized: the innermost offset N = {n} is not a multiple of {w} (unaligned)",
                    kind(f.is_store)
                ),
            ));
        }
    }
}

fn kind(is_store: bool) -> &'static str {
    if is_store {
        "stores"
    } else {
        "loads"
    }
}

fn show(l: &LinearIndex) -> String {
    l.display_with(|t| t.to_string())
}

/// Whether `c` times the index of kernel loop `iv` (around `access`) is
/// always a multiple of `w`: the loop's step and its lower bound (a linear
/// form: every coefficient and the constant) times `c` are. A loop that a
/// pass strided across threads (`gpu-split-reduction`: `lb + 4*tidx` step
/// 128) has such an index even though it is not a multiple of `w` term
/// by term.
fn loop_term_aligned(
    ctx: &Context,
    body: &Body,
    ids: &LaunchIds,
    access: &KernelAccess,
    iv: Value,
    c: i64,
    w: i64,
) -> bool {
    let Some(l) = access.loops.iter().find(|l| l.iv == iv) else {
        return false;
    };
    let step_ok = l.step.and_then(|s| s.checked_mul(c)).is_some_and(|v| v % w == 0);
    step_ok
        && loop_lower_linear(ctx, body, ids, l.op).is_some_and(|lb| {
            let times = |k: i64| k.checked_mul(c).is_some_and(|v| v % w == 0);
            times(lb.constant) && lb.terms.iter().all(|&(_, k)| times(k))
        })
}

/// The group of family `f` at innermost offsets `n..n + w`, or why not.
fn make_group(ctx: &Context, body: &Body, ids: &LaunchIds, f: &Family<'_>, n: i64, w: i64) -> Result<Group, String> {
    let mt = body.value_type(f.memref);
    let TypeData::MemRef { element, shape, .. } = ctx.type_data(mt) else {
        return Err("not a memref".into());
    };
    let ok_type = match ctx.type_data(*element) {
        TypeData::Float(FloatKind::F32) => true,
        TypeData::Float(FloatKind::F64) => w == 2,
        _ => false,
    };
    if !ok_type {
        return Err(format!(
            "elements of type {} have no {w}-wide vector type in CUDA and OpenCL (f32: 2 or 4; f64: 2)",
            lf_ir::printer::type_to_string(ctx, *element)
        ));
    }
    let lanes: Vec<Vec<&KernelAccess>> = (0..w)
        .map(|k| f.items.iter().filter(|&&(c, _)| c == n + k).map(|&(_, a)| a).collect())
        .collect();
    if f.is_store && lanes.iter().any(|l| l.len() != 1) {
        return Err("two stores to one element".into());
    }
    let base = lanes[0][0];
    // The alignment proof.
    let pitch = *shape.last().expect("rank >= 1");
    let pitch_ok = shape.len() == 1 || (pitch != lf_ir::DYNAMIC && pitch % w == 0);
    let Some(flat) = base.flat_offset() else {
        return Err("the flat offset is not a linear form (dynamic sizes or a non-identity layout)".into());
    };
    let misaligned_coef = flat.terms.iter().find(|&&(t, c)| {
        c % w != 0 && !matches!(t, Term::Loop(iv) if loop_term_aligned(ctx, body, ids, base, iv, c, w))
    });
    if let Some(&(t, c)) = misaligned_coef {
        if !pitch_ok && f.outer.iter().any(|o| o.coef(t) != 0) {
            return Err(format!("the row pitch {pitch} is not a multiple of {w}"));
        }
        return Err(format!(
            "the flat offset {} is not {w}-aligned (coefficient {c} of {t})",
            show(&flat)
        ));
    }
    if flat.constant.rem_euclid(w) != 0 {
        if !pitch_ok {
            return Err(format!("the row pitch {pitch} is not a multiple of {w}"));
        }
        return Err(format!(
            "the flat offset {} is not {w}-aligned (constant {})",
            show(&flat),
            flat.constant
        ));
    }
    // The span of the group in its block, and what lies between.
    let members: HashSet<OpId> = lanes.iter().flatten().map(|a| a.op).collect();
    let ops: Vec<OpId> = body.block_ops(f.block).collect();
    let pos: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, o)| members.contains(o))
        .map(|(i, _)| i)
        .collect();
    let (first, last) = (ops[pos[0]], ops[*pos.last().expect("members")]);
    for &o in &ops[pos[0]..=*pos.last().expect("members")] {
        if members.contains(&o) {
            continue;
        }
        let Some(effects) = memory_effects(ctx, body, o) else {
            return Err(format!(
                "an op with unknown memory effects lies between the {}",
                kind(f.is_store)
            ));
        };
        let writes = effects.iter().any(|e| e.effect == Effect::Write);
        let touches = effects.iter().any(|e| matches!(e.effect, Effect::Read | Effect::Write));
        if f.is_store && touches {
            return Err("a memory access lies between the stores".into());
        }
        if !f.is_store && writes {
            return Err("a write to memory lies between the loads".into());
        }
    }
    let anchor = if f.is_store { last } else { first };
    if !f.is_store {
        for v in body.operands(base.op) {
            if v != f.memref && !properly_dominates(body, v, anchor) {
                return Err("the indices of the first element are computed after the first load".into());
            }
        }
    }
    Ok(Group {
        memref: f.memref,
        is_store: f.is_store,
        lanes: lanes.iter().map(|l| l.iter().map(|a| a.op).collect()).collect(),
        anchor,
        vector_ty: crate::vector::vector_type(ctx, w, *element),
    })
}
