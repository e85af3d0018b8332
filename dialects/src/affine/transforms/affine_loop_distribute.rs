//! `affine-loop-distribute` (lf's own pass): splits the body of each
//! `affine.for` into the finest legal groups of statements, each in a copy
//! of the loop, as loop distribution (fission) does.
//!
//! A *statement* is an op of the loop's body that writes or frees memory,
//! has unknown effects, or has regions (a nested loop or `affine.if`),
//! together with the ops of the body that compute its operands (and the
//! operands of the ops nested in it). Ops used by several statements are
//! recomputed in each group when they are pure or only read memory (their
//! dependences count for every group they join); any other shared op
//! (an allocation) makes the pass decline. Statements linked by an SSA
//! value (a nested loop's result used by another statement) stay together.
//!
//! Groups are the strongly connected components of the statement
//! dependence graph: an edge from statement `S` to `T` when an access of
//! `S` may touch what an access of `T` touches later, either in the same
//! iteration of the loop (`S` first in the body) or in a later one (carried
//! by the loop); dependences carried by loops outside it do not matter.
//! Components go out in a topological order, the original order where the
//! graph allows. Loops are visited innermost first, so a nest distributes
//! at every level. `mode=one-statement` (seed 000's precondition) declines a
//! loop, with a remark, unless every statement can get a loop of its own.
//! See `docs/design/interchange-distribute.md`.

use crate::affine::analysis::{dependence_kind, DependenceKind, DependenceResult, MemRefAccesses, Precision};
use crate::affine::utils::loop_band::{domain_loop_vars, memory_ops_in, touches_memory};
use crate::affine::{AffineForOp, AffineYieldOp};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::diag::Diagnostic;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::view::OpView;
use lf_ir::walk::{walk, walk_regions, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, RegionId};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The registration record of `affine-loop-distribute`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-loop-distribute",
    summary: "Distribute affine.for loops over the strongly connected components of their statements",
    description: "Splits the body of each `affine.for` (innermost first) into the finest legal groups of \
statements, each group in its own copy of the loop (same bounds, step and location). A statement is an \
op of the body that writes or frees memory, has unknown effects or has regions (a nested loop, an \
`affine.if`), with the ops of the body that compute its operands; pure ops and reads used by several \
statements are recomputed in each group. The groups are the strongly connected components of the \
statement dependence graph (lf's exact dependence analysis: a dependence in the same iteration or \
carried by the loop; a non-affine access depends on everything that touches memory), emitted in \
topological order, the original order where the dependences allow.\n\n\
With `mode=one-statement` (seed 000's precondition: one defining statement per loop, always legal for \
a parallel loop), a loop is distributed only if every statement gets a loop of its own; otherwise it is \
left as it is with a remark saying which statements cannot be separated. A loop that carries values \
(`iter_args`) and has several statements is left as it is with a remark, and so is one whose \
statements share an op that can be neither recomputed nor kept in one group (an allocation). Design notes: `docs/design/interchange-distribute.md`.",
    anchor: Anchor::Op("func.func"),
    options: &[PassOption {
        name: "mode",
        kind: OptionKind::Enum(&["scc", "one-statement"]),
        default: "scc",
        help: "scc: the finest legal groups (strongly connected components); one-statement: one statement per loop or none",
    }],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(AffineLoopDistribute {
        one_statement: opts.str("mode") == "one-statement",
    }))
}

/// The `affine-loop-distribute` pass.
pub struct AffineLoopDistribute {
    /// `mode=one-statement`.
    pub one_statement: bool,
}

/// How an op of the loop's body takes part in the statements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A statement's own op.
    Root,
    /// Recomputable in every group that needs it (pure, or only reads).
    Clonable,
    /// Must be in exactly one group (an allocation).
    Single,
}

fn role(ctx: &Context, body: &Body, op: OpId) -> Role {
    if !body.regions(op).is_empty() {
        return Role::Root;
    }
    match memory_effects(ctx, body, op) {
        None => Role::Root,
        Some(e) if e.iter().any(|e| matches!(e.effect, Effect::Write | Effect::Free)) => Role::Root,
        Some(e) if e.iter().any(|e| e.effect == Effect::Alloc) => Role::Single,
        Some(_) => Role::Clonable,
    }
}

/// ` at LINE:COL` of an op.
fn at(ctx: &Context, body: &Body, op: OpId) -> String {
    body.op_loc(op)
        .source_pos(ctx)
        .map_or_else(String::new, |p| format!("{}:{}", p.line, p.col))
}

fn find(parent: &mut [usize], x: usize) -> usize {
    let mut r = x;
    while parent[r] != r {
        r = parent[r];
    }
    let mut c = x;
    while parent[c] != r {
        let n = parent[c];
        parent[c] = r;
        c = n;
    }
    r
}

/// A statement (after merging statements linked by SSA values): its ops
/// (positions in the body), its roots, and the ops in it that touch memory.
struct Unit {
    ops: Vec<usize>,
    roots: Vec<usize>,
    memory: Vec<OpId>,
}

/// What distributing one loop gives.
enum Outcome {
    /// Nothing to do (fewer than two statements, or one group).
    Nothing,
    /// Left as it is, with a remark.
    Declined(String),
    /// The groups, in order: positions of body ops.
    Groups(Vec<Vec<usize>>),
}

impl AffineLoopDistribute {
    fn plan(&self, ctx: &Context, body: &Body, cache: &MemRefAccesses, l: AffineForOp) -> Outcome {
        let ir = (ctx, body);
        let block = l.region_block(&ir);
        let ops: Vec<OpId> = body.block_ops(block).filter(|&o| !AffineYieldOp::isa(&ir, o)).collect();
        let pos: FxHashMap<OpId, usize> = ops.iter().enumerate().map(|(i, &o)| (o, i)).collect();
        let roles: Vec<Role> = ops.iter().map(|&o| role(ctx, body, o)).collect();
        let roots: Vec<usize> = (0..ops.len()).filter(|&i| roles[i] == Role::Root).collect();
        if roots.len() < 2 {
            return Outcome::Nothing;
        }
        if !l.inits(&ir).is_empty() {
            return Outcome::Declined("not distributed: the loop carries values (iter_args)".into());
        }
        // The body ops each op uses (directly, or in its regions).
        let uses_of = |i: usize| -> Vec<usize> {
            let mut out = Vec::new();
            walk(body, ops[i], WalkOrder::PreOrder, &mut |b, o| {
                if std::ptr::eq(b, body) {
                    for v in b.operands(o) {
                        if let Some(d) = b.defining_op(v) {
                            if let Some(&p) = pos.get(&d) {
                                if p != i && !out.contains(&p) {
                                    out.push(p);
                                }
                            }
                        }
                    }
                }
                WalkControl::Advance
            });
            out
        };
        let deps: Vec<Vec<usize>> = (0..ops.len()).map(uses_of).collect();
        // Statements linked through values stay together; members by closure.
        let mut parent: Vec<usize> = (0..ops.len()).collect();
        let closure = |start: usize, owner: usize, parent: &mut Vec<usize>| -> FxHashSet<usize> {
            let mut set = FxHashSet::default();
            set.insert(start);
            let mut stack = vec![start];
            while let Some(x) = stack.pop() {
                for &d in &deps[x] {
                    if roles[d] == Role::Root {
                        let (a, b) = (find(parent, owner), find(parent, d));
                        parent[a] = b;
                    } else if set.insert(d) {
                        stack.push(d);
                    }
                }
            }
            set
        };
        let mut members: FxHashMap<usize, FxHashSet<usize>> = FxHashMap::default();
        for &r in &roots {
            let set = closure(r, r, &mut parent);
            members.insert(r, set);
        }
        // Ops no statement uses go with the next statement (or the last).
        let used: FxHashSet<usize> = members.values().flatten().copied().collect();
        for i in 0..ops.len() {
            if !used.contains(&i) {
                let r = roots.iter().copied().find(|&r| r > i).unwrap_or(roots[roots.len() - 1]);
                let set = closure(i, r, &mut parent);
                members.get_mut(&r).expect("root").extend(set);
            }
        }
        // Units: merged statements.
        let mut unit_of_root: FxHashMap<usize, usize> = FxHashMap::default();
        let mut units: Vec<Unit> = Vec::new();
        for &r in &roots {
            let rep = find(&mut parent, r);
            let u = *unit_of_root.entry(rep).or_insert_with(|| {
                units.push(Unit {
                    ops: Vec::new(),
                    roots: Vec::new(),
                    memory: Vec::new(),
                });
                units.len() - 1
            });
            units[u].roots.push(r);
            for &m in &members[&r] {
                if !units[u].ops.contains(&m) {
                    units[u].ops.push(m);
                }
            }
        }
        if units.len() < 2 {
            return if self.one_statement {
                Outcome::Declined(format!(
                    "not distributed: the statements at {} are linked by the values they compute",
                    self.roots_text(ctx, body, &ops, &units[0].roots)
                ))
            } else {
                Outcome::Nothing
            };
        }
        for u in &mut units {
            u.ops.sort_unstable();
            u.roots.sort_unstable();
        }
        // An op that must be in one group cannot be in several.
        for i in 0..ops.len() {
            if roles[i] == Role::Single && units.iter().filter(|u| u.ops.contains(&i)).count() > 1 {
                let name = ctx.op_name_str(body.op_name(ops[i]));
                return Outcome::Declined(format!(
                    "not distributed: '{name}' at {} is used by several statements and cannot be recomputed in each",
                    at(ctx, body, ops[i])
                ));
            }
        }
        for u in &mut units {
            for &i in &u.ops {
                let o = ops[i];
                if touches_memory(ctx, body, o) {
                    u.memory.push(o);
                } else if !body.regions(o).is_empty() {
                    u.memory.extend(memory_ops_in(ctx, body, o));
                }
            }
        }
        // The statement dependence graph.
        let iv = l.iv(&ir);
        let mut graph: DiGraph<usize, ()> = DiGraph::new();
        let nodes: Vec<NodeIndex> = (0..units.len()).map(|u| graph.add_node(u)).collect();
        for a in 0..units.len() {
            for b in 0..units.len() {
                if a != b && depends(ctx, body, cache, iv, &units[a].memory, &units[b].memory) {
                    graph.add_edge(nodes[a], nodes[b], ());
                }
            }
        }
        let sccs = petgraph::algo::tarjan_scc(&graph);
        if self.one_statement {
            if let Some(c) = sccs.iter().find(|c| c.len() > 1) {
                let mut rs: Vec<usize> = c.iter().flat_map(|n| units[graph[*n]].roots.clone()).collect();
                rs.sort_unstable();
                return Outcome::Declined(format!(
                    "not distributed: the statements at {} depend on each other (a dependence cycle) and cannot get loops of their own",
                    self.roots_text(ctx, body, &ops, &rs)
                ));
            }
            if let Some(u) = units.iter().find(|u| u.roots.len() > 1) {
                return Outcome::Declined(format!(
                    "not distributed: the statements at {} are linked by the values they compute",
                    self.roots_text(ctx, body, &ops, &u.roots)
                ));
            }
        }
        if sccs.len() < 2 {
            return Outcome::Declined("not distributed: every statement is in one dependence cycle".into());
        }
        // Topological order of the components, the earliest first.
        let mut comp_of = vec![0usize; units.len()];
        for (c, scc) in sccs.iter().enumerate() {
            for n in scc {
                comp_of[graph[*n]] = c;
            }
        }
        let first_op = |c: usize| sccs[c].iter().map(|n| units[graph[*n]].ops[0]).min().unwrap_or(0);
        let mut indegree = vec![0usize; sccs.len()];
        let mut succ: Vec<FxHashSet<usize>> = vec![FxHashSet::default(); sccs.len()];
        for e in graph.edge_indices() {
            let (s, t) = graph.edge_endpoints(e).expect("edge");
            let (cs, ct) = (comp_of[graph[s]], comp_of[graph[t]]);
            if cs != ct && succ[cs].insert(ct) {
                indegree[ct] += 1;
            }
        }
        let mut ready: BinaryHeap<Reverse<(usize, usize)>> = (0..sccs.len())
            .filter(|&c| indegree[c] == 0)
            .map(|c| Reverse((first_op(c), c)))
            .collect();
        let mut groups = Vec::new();
        while let Some(Reverse((_, c))) = ready.pop() {
            let mut g: Vec<usize> = sccs[c].iter().flat_map(|n| units[graph[*n]].ops.clone()).collect();
            g.sort_unstable();
            g.dedup();
            groups.push(g);
            for &t in &succ[c] {
                indegree[t] -= 1;
                if indegree[t] == 0 {
                    ready.push(Reverse((first_op(t), t)));
                }
            }
        }
        Outcome::Groups(groups)
    }

    fn roots_text(&self, ctx: &Context, body: &Body, ops: &[OpId], roots: &[usize]) -> String {
        roots
            .iter()
            .map(|&r| at(ctx, body, ops[r]))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Whether an access of `src` may touch what an access of `dst` touches
/// later in the same iteration of the loop of `iv` or in a later one.
fn depends(ctx: &Context, body: &Body, cache: &MemRefAccesses, iv: lf_ir::Value, src: &[OpId], dst: &[OpId]) -> bool {
    for &s in src {
        let ds = domain_loop_vars(ctx, body, s);
        for &d in dst {
            match dependence_kind(ctx, body, s, d) {
                None | Some(DependenceKind::Input) => continue,
                Some(_) => {}
            }
            if s == d {
                continue;
            }
            let dd = domain_loop_vars(ctx, body, d);
            let idx = match (ds.iter().position(|&v| v == iv), dd.iter().position(|&v| v == iv)) {
                (Some(a), Some(b)) if a == b => a,
                // Not analysable along this loop: assume a dependence.
                _ => return true,
            };
            let common = ds.iter().zip(&dd).take_while(|(a, b)| a == b).count();
            for depth in idx + 1..=common + 1 {
                // MLIR's Fourier–Motzkin answer first (fast, and "no
                // dependence" there is exact too), then the exact one.
                let found = |precision| {
                    !matches!(
                        cache.check(ctx, body, s, d, depth, precision, false),
                        DependenceResult::NoDependence
                    )
                };
                if found(Precision::MlirCompatible) && found(Precision::Exact) {
                    return true;
                }
            }
        }
    }
    false
}

/// Replaces `l` by one copy per group, in order, each keeping the body ops
/// (positions, yield excluded) of its group.
fn distribute(b: &mut Builder<'_>, l: AffineForOp, groups: &[Vec<usize>]) {
    for g in groups {
        b.set_insertion_point_before(l.op());
        let mut map = ValueMap::default();
        let copy = b.clone_op(l.op(), &mut map);
        let copy = AffineForOp::cast(&*b, copy).expect("a clone of an affine.for");
        let block = copy.region_block(&*b);
        let ops: Vec<OpId> = b
            .body()
            .block_ops(block)
            .filter(|&o| !AffineYieldOp::isa(&*b, o))
            .collect();
        for (i, &o) in ops.iter().enumerate().rev() {
            if !g.contains(&i) {
                b.erase_op(o);
            }
        }
    }
    b.erase_op(l.op());
}

/// The `affine.for` ops of the function, innermost first (post-order).
fn loops_post_order(ctx: &Context, body: &Body, regions: &[RegionId]) -> Vec<AffineForOp> {
    let mut out = Vec::new();
    walk_regions(body, regions, WalkOrder::PostOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        if let Some(f) = AffineForOp::cast(&(ctx, b), op) {
            out.push(f);
        }
        WalkControl::Advance
    });
    out
}

impl Pass for AffineLoopDistribute {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let loops = loops_post_order(ctx, op.body(), &regions);
        let mut remarks = Vec::new();
        let mut distributed = 0u64;
        let cache = MemRefAccesses::new();
        {
            let (ctx, body) = op.parts();
            let mut b = Builder::new(ctx, body);
            for l in loops {
                // The loops are distinct ops: an inner loop distributed
                // earlier is erased from inside its parent, never the parent.
                if b.body().is_erased(l.op()) {
                    continue;
                }
                match self.plan(ctx, b.body(), &cache, l) {
                    Outcome::Nothing => {}
                    Outcome::Declined(message) => {
                        remarks.push((b.body().op_loc(l.op()).source_pos(ctx), message));
                    }
                    Outcome::Groups(groups) => {
                        distribute(&mut b, l, &groups);
                        distributed += 1;
                        // The cache stays valid: op ids are never reused,
                        // the ops of `l` are gone (their clones are new
                        // ids) and the ops outside it keep their loops.
                    }
                }
            }
        }
        for (pos, message) in remarks {
            op.emit(Diagnostic::remark(pos, message));
        }
        op.add_statistic("num-distributed", "Loops distributed", distributed);
        if distributed == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}
