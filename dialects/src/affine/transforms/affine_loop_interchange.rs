//! `affine-loop-interchange` (lf's own pass; MLIR has only the utilities
//! `permuteLoops` and `isValidLoopInterchangePermutation`): permutes the
//! outermost perfect band of each loop nest, by a given permutation or by a
//! cost model that makes the innermost loop's accesses unit-stride.
//!
//! Legality: every dependence carried by a band loop, as a vector of
//! distance ranges along the band (lf's exact dependence analysis), must
//! stay lexicographically positive after the permutation; bounds that use
//! an outer band loop's induction variable keep that loop outside; no band
//! loop carries values; no `affine.if` and no non-affine memory access in
//! the band. A nest that fails any of these is left as it is, with a remark
//! at its outermost loop. See `docs/design/interchange-distribute.md`.

use crate::affine::analysis::{DependenceAnalysis, DependenceResult, Precision};
use crate::affine::utils::loop_band::{
    band_dependences, bound_conflict, is_permutation, memory_ops_in, permutation_keeps_dependences, permute_band,
    BandDependence,
};
use crate::affine::utils::loop_bands::perfectly_nested_loops;
use crate::affine::{AffineForOp, AffineIfOp, AffineLoadOp, AffineStoreOp};
use crate::support::at;
use lf_ir::affine::{AffineExpr, AffineMap, BinaryOp};
use lf_ir::builder::Builder;
use lf_ir::diag::Diagnostic;
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, RegionId, Value};
use lf_pass::options::OptionValue;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `affine-loop-interchange`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-loop-interchange",
    summary: "Permute the loops of the outermost perfect band of each affine loop nest",
    description: "Permutes the outermost perfect band of each `affine.for` nest (the outermost loop, then \
each loop that is the only op of the previous one's body). With `permutation=p0,p1,...` (MLIR's \
`permuteLoops` convention: loop `i` of the band, outermost first, moves to position `p[i]`), the \
outermost `len(p)` loops of each band are permuted; a nest whose perfect band is shorter gets a remark. \
With `auto=true`, the pass chooses which band loop goes innermost: each candidate loop scores +1 per \
`affine.load`/`affine.store` in the band whose last subscript has coefficient ±1 in that loop's \
induction variable and whose other subscripts do not use it (unit stride), and -1 per access that uses \
it any other way (strided); zero for accesses that do not use it. The loop with the best score moves \
innermost (the others keep their order); ties keep the original order. Without either option the pass \
changes nothing.\n\n\
A permutation is applied only when it is legal: every dependence carried by a band loop (lf's exact \
dependence analysis, as distance ranges along the band's loops) stays lexicographically positive in \
the new order, no band loop carries values (`iter_args`), the band has no `affine.if` and no memory \
access other than `affine.load`/`affine.store` (a `memref.load`, a call), and no loop's bounds use the \
induction variable of a band loop that the permutation moves inside it. Otherwise the nest is left \
unchanged with a remark at its outermost loop saying why (with `auto`, only when a better order was \
found but is not legal). Design notes: `docs/design/interchange-distribute.md`.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "permutation",
            kind: OptionKind::List(&OptionKind::UInt),
            default: "",
            help: "Loop i of each band (outermost first) moves to position permutation[i] (MLIR's permuteLoops convention)",
        },
        PassOption {
            name: "auto",
            kind: OptionKind::Bool,
            default: "false",
            help: "Choose the legal order that makes the innermost loop's accesses unit-stride",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let perm: Vec<usize> = opts
        .list("permutation")
        .iter()
        .map(|v| match v {
            OptionValue::Int(i) => *i as usize,
            _ => usize::MAX,
        })
        .collect();
    let auto = opts.bool("auto");
    if auto && !perm.is_empty() {
        return Err("permutation and auto=true exclude each other: give one of them".into());
    }
    if !is_permutation(&perm) {
        let list: Vec<String> = perm.iter().map(|p| p.to_string()).collect();
        return Err(format!(
            "permutation: {} is not a permutation of 0..{} (each position once)",
            list.join(","),
            perm.len()
        ));
    }
    Ok(Box::new(AffineLoopInterchange { perm, auto }))
}

/// The `affine-loop-interchange` pass.
pub struct AffineLoopInterchange {
    /// The permutation to apply (MLIR's convention), or empty.
    pub perm: Vec<usize>,
    /// Whether the pass chooses the permutation.
    pub auto: bool,
}

/// The loops of the function that are not inside another `affine.for`,
/// in program order.
pub(crate) fn outermost_loops(ctx: &Context, body: &Body, regions: &[RegionId]) -> Vec<AffineForOp> {
    let mut out = Vec::new();
    walk_regions(body, regions, WalkOrder::PreOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        match AffineForOp::cast(&(ctx, b), op) {
            Some(f) => {
                out.push(f);
                WalkControl::Skip
            }
            None => WalkControl::Advance,
        }
    });
    out
}

/// Why the band cannot be permuted at all (whatever the permutation), if so.
fn structural_problem(ctx: &Context, body: &Body, band: &[AffineForOp]) -> Option<String> {
    let ir = (ctx, body);
    if let Some(p) = band.iter().position(|l| !l.inits(&ir).is_empty()) {
        return Some(format!("the loop at depth {p} of the band carries values (iter_args)"));
    }
    let root = band[0].op();
    let mut found_if = None;
    lf_ir::walk::walk(body, root, WalkOrder::PreOrder, &mut |b, op| {
        if std::ptr::eq(b, body) && AffineIfOp::isa(&(ctx, b), op) {
            found_if = Some(op);
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    if let Some(op) = found_if {
        return Some(format!("the band contains an affine.if{}", at(ctx, body, op)));
    }
    for op in memory_ops_in(ctx, body, root) {
        if !AffineLoadOp::isa(&ir, op) && !AffineStoreOp::isa(&ir, op) {
            let name = ctx.op_name_str(body.op_name(op));
            return Some(format!(
                "'{name}'{} touches memory and is not an affine access",
                at(ctx, body, op)
            ));
        }
    }
    None
}

type Components = Vec<crate::affine::analysis::DependenceComponent>;

/// The band's dependences for legality checks, computed when first needed
/// with MLIR's Fourier–Motzkin answers (fast; their distance ranges contain
/// the exact ones, so a permutation they allow is legal); a dependence they
/// say a permutation reverses is asked again with exact answers (cached).
struct LazyDeps<'a> {
    ctx: &'a Context,
    body: &'a Body,
    deps: &'a DependenceAnalysis,
    band: &'a [AffineForOp],
    fast: Option<Result<Vec<BandDependence>, String>>,
    exact: rustc_hash::FxHashMap<(OpId, OpId, usize), Option<Components>>,
}

impl<'a> LazyDeps<'a> {
    fn new(ctx: &'a Context, body: &'a Body, deps: &'a DependenceAnalysis, band: &'a [AffineForOp]) -> Self {
        LazyDeps {
            ctx,
            body,
            deps,
            band,
            fast: None,
            exact: Default::default(),
        }
    }

    /// The first dependence `perm` reverses (exact answers), or why the
    /// dependences could not be computed; `Ok(None)` when `perm` is legal.
    fn reversed(&mut self, perm: &[usize]) -> Result<Option<Components>, String> {
        let (ctx, body, deps, band) = (self.ctx, self.body, self.deps, self.band);
        let fast = self.fast.get_or_insert_with(|| {
            let ir = (ctx, body);
            let ivs: Vec<Value> = band.iter().map(|l| l.iv(&ir)).collect();
            let ops = memory_ops_in(ctx, body, band[band.len() - 1].op());
            band_dependences(&deps.accesses, ctx, body, &ivs, &ops, Precision::MlirCompatible)
                .map_err(|(op, reason)| format!("dependence analysis failed{}: {reason}", at(ctx, body, op)))
        });
        let fast = fast.as_ref().map_err(|e| e.clone())?;
        let n = band.len();
        for d in fast {
            if permutation_keeps_dependences(std::slice::from_ref(&d.components), perm) {
                continue;
            }
            let exact = self.exact.entry((d.src, d.dst, d.depth)).or_insert_with(|| {
                match deps
                    .accesses
                    .check(ctx, body, d.src, d.dst, d.depth, Precision::Exact, true)
                {
                    DependenceResult::NoDependence => None,
                    DependenceResult::HasDependence { components } => Some(
                        components
                            .get(d.offset..d.offset + n)
                            .map_or_else(Vec::new, <[_]>::to_vec),
                    ),
                    // Not decided exactly: keep the fast answer.
                    DependenceResult::Failure { .. } => Some(d.components.clone()),
                }
            });
            match exact {
                None => {}
                Some(c) if c.len() != n => return Err("a dependence without distances along the band".into()),
                Some(c) if !permutation_keeps_dependences(std::slice::from_ref(c), perm) => return Ok(Some(c.clone())),
                Some(_) => {}
            }
        }
        Ok(None)
    }
}

/// Why `perm` cannot be applied to `band`, or `None` when it is legal
/// (`band_deps`: the band's dependences, computed when needed).
fn illegal(
    ctx: &Context,
    body: &Body,
    band: &[AffineForOp],
    perm: &[usize],
    band_deps: &mut LazyDeps<'_>,
) -> Option<String> {
    let ir = (ctx, body);
    if let Some((outer, inner)) = bound_conflict(&ir, band, perm) {
        return Some(format!(
            "the bounds of the loop at depth {inner} use the induction variable of the loop at depth {outer}, \
             which the permutation moves inside it (non-rectangular band)"
        ));
    }
    match band_deps.reversed(perm) {
        Err(why) => Some(why),
        Ok(None) => None,
        Ok(Some(c)) => Some(format!(
            "the permutation would reverse the dependence with distances {}",
            describe_vector(&c)
        )),
    }
}

/// `(1, [0, 2], *)`: a dependence's distance ranges along the band.
fn describe_vector(comps: &[crate::affine::analysis::DependenceComponent]) -> String {
    let parts: Vec<String> = comps
        .iter()
        .map(|c| match (c.lb, c.ub) {
            (Some(a), Some(b)) if a == b => a.to_string(),
            (Some(a), Some(b)) => format!("[{a}, {b}]"),
            (Some(a), None) => format!("[{a}, inf]"),
            (None, Some(b)) => format!("[-inf, {b}]"),
            (None, None) => "*".into(),
        })
        .collect();
    format!("({})", parts.join(", "))
}

/// The coefficient of the inputs `targets` (positions among the map's
/// dimensions then symbols) in `e`, when `e` is linear in them (`None`
/// otherwise).
fn coefficient(e: &AffineExpr, num_dims: u32, targets: &[u32]) -> Option<i64> {
    if let Some(d) = e.as_dim() {
        return Some(i64::from(targets.contains(&d)));
    }
    if let Some(s) = e.as_symbol() {
        return Some(i64::from(targets.contains(&(num_dims + s))));
    }
    if e.as_constant().is_some() {
        return Some(0);
    }
    let (op, l, r) = e.as_binary()?;
    let (cl, cr) = (coefficient(l, num_dims, targets)?, coefficient(r, num_dims, targets)?);
    match op {
        BinaryOp::Add => cl.checked_add(cr),
        BinaryOp::Mul => match (l.as_constant(), r.as_constant()) {
            (_, Some(c)) => cl.checked_mul(c),
            (Some(c), _) => cr.checked_mul(c),
            _ => (cl == 0 && cr == 0).then_some(0),
        },
        BinaryOp::Mod | BinaryOp::FloorDiv | BinaryOp::CeilDiv => (cl == 0 && cr == 0).then_some(0),
    }
}

/// How one access uses `iv`: +1 unit stride in the last subscript, -1 any
/// other use, 0 none.
fn access_score(map: &AffineMap, operands: &[Value], iv: Value) -> i64 {
    let targets: Vec<u32> = operands
        .iter()
        .enumerate()
        .filter(|(_, v)| **v == iv)
        .map(|(i, _)| i as u32)
        .collect();
    let n = map.num_results();
    if n == 0 {
        return 0;
    }
    let coeffs: Vec<Option<i64>> = map
        .results()
        .iter()
        .map(|e| coefficient(e, map.num_dims(), &targets))
        .collect();
    if coeffs.iter().all(|c| *c == Some(0)) {
        return 0;
    }
    let others_zero = coeffs[..n - 1].iter().all(|c| *c == Some(0));
    if others_zero && matches!(coeffs[n - 1], Some(1) | Some(-1)) {
        1
    } else {
        -1
    }
}

/// The cost model's score of `iv` as the innermost loop variable: the sum
/// of [`access_score`] over the affine accesses in `root`.
fn score(ctx: &Context, body: &Body, root: OpId, iv: Value) -> i64 {
    let ir = (ctx, body);
    memory_ops_in(ctx, body, root)
        .into_iter()
        .map(|op| {
            if let Some(l) = AffineLoadOp::cast(&ir, op) {
                access_score(l.map(&ir), &l.indices(&ir), iv)
            } else if let Some(s) = AffineStoreOp::cast(&ir, op) {
                access_score(s.map(&ir), &s.indices(&ir), iv)
            } else {
                0
            }
        })
        .sum()
}

/// The permutation moving loop `k` of an `n`-loop band innermost, the
/// others keeping their order.
fn sink_permutation(n: usize, k: usize) -> Vec<usize> {
    (0..n)
        .map(|q| match q.cmp(&k) {
            std::cmp::Ordering::Less => q,
            std::cmp::Ordering::Equal => n - 1,
            std::cmp::Ordering::Greater => q - 1,
        })
        .collect()
}

/// What to do with one nest.
enum Plan {
    Permute(Vec<AffineForOp>, Vec<usize>),
    Remark(OpId, String),
}

impl AffineLoopInterchange {
    fn plan_given(&self, ctx: &Context, body: &Body, deps: &DependenceAnalysis, root: AffineForOp) -> Option<Plan> {
        let k = self.perm.len();
        if k <= 1 || self.perm.iter().enumerate().all(|(i, &p)| i == p) {
            return None;
        }
        let band = perfectly_nested_loops(&(ctx, body), root);
        if band.len() < k {
            return Some(Plan::Remark(
                root.op(),
                format!(
                    "not interchanged: the nest's perfect band has {} loop(s), the permutation {k} \
                     (the loop at depth {} holds other ops than one affine.for)",
                    band.len(),
                    band.len() - 1
                ),
            ));
        }
        let band = band[..k].to_vec();
        if let Some(why) = structural_problem(ctx, body, &band) {
            return Some(Plan::Remark(root.op(), format!("not interchanged: {why}")));
        }
        let mut band_deps = LazyDeps::new(ctx, body, deps, &band);
        match illegal(ctx, body, &band, &self.perm, &mut band_deps) {
            Some(why) => Some(Plan::Remark(root.op(), format!("not interchanged: {why}"))),
            None => Some(Plan::Permute(band, self.perm.clone())),
        }
    }

    fn plan_auto(&self, ctx: &Context, body: &Body, deps: &DependenceAnalysis, root: AffineForOp) -> Option<Plan> {
        let ir = (ctx, body);
        let band = perfectly_nested_loops(&ir, root);
        let n = band.len();
        if n <= 1 {
            return None;
        }
        let scores: Vec<i64> = band.iter().map(|l| score(ctx, body, root.op(), l.iv(&ir))).collect();
        let current = scores[n - 1];
        // Better candidates, best first; ties keep the loop closest to
        // the innermost position.
        let mut order: Vec<usize> = (0..n - 1).filter(|&k| scores[k] > current).collect();
        order.sort_by(|&a, &b| scores[b].cmp(&scores[a]).then(b.cmp(&a)));
        let best = *order.first()?;
        if let Some(why) = structural_problem(ctx, body, &band) {
            return Some(Plan::Remark(root.op(), self.auto_remark(&band, &scores, best, &why)));
        }
        let mut first_reason = None;
        let mut band_deps = LazyDeps::new(ctx, body, deps, &band);
        for &k in &order {
            let perm = sink_permutation(n, k);
            match illegal(ctx, body, &band, &perm, &mut band_deps) {
                None => return Some(Plan::Permute(band, perm)),
                Some(why) => {
                    first_reason.get_or_insert(why);
                }
            }
        }
        let why = first_reason.unwrap_or_default();
        Some(Plan::Remark(root.op(), self.auto_remark(&band, &scores, best, &why)))
    }

    fn auto_remark(&self, band: &[AffineForOp], scores: &[i64], best: usize, why: &str) -> String {
        format!(
            "not interchanged: the loop at depth {best} would make a better innermost loop \
             (unit-stride score {} against {}), but {why}",
            scores[best],
            scores[band.len() - 1]
        )
    }
}

impl Pass for AffineLoopInterchange {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        if self.perm.is_empty() && !self.auto {
            am.preserve_all();
            return Ok(());
        }
        let deps = am.get::<DependenceAnalysis>(op);
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let plans: Vec<Plan> = {
            let body = op.body();
            outermost_loops(ctx, body, &regions)
                .into_iter()
                .filter_map(|root| {
                    if self.auto {
                        self.plan_auto(ctx, body, &deps, root)
                    } else {
                        self.plan_given(ctx, body, &deps, root)
                    }
                })
                .collect()
        };
        let mut remarks = Vec::new();
        let mut permuted = 0u64;
        {
            let (ctx, body) = op.parts();
            let mut b = Builder::new(ctx, body);
            for plan in plans {
                match plan {
                    Plan::Permute(band, perm) => {
                        permute_band(&mut b, &band, &perm);
                        permuted += 1;
                    }
                    Plan::Remark(at, message) => remarks.push((b.body().op_loc(at).source_pos(ctx), message)),
                }
            }
        }
        for (pos, message) in remarks {
            op.emit(Diagnostic::remark(pos, message));
        }
        op.add_statistic("num-interchanged", "Loop bands permuted", permuted);
        if permuted == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}
