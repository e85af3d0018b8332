//! Dependence graphs of a function, for people to look at and for passes
//! that walk them (fusion, seed 000's loop dependence graph): nodes are
//! statements (memory accesses) or top-level loop nests, edges carry the
//! dependence kind and its distances. Built on the dependence check
//! ([`MemRefAccesses`]) with exact answers ([`Precision::Exact`]).
//!
//! The graph is a [`petgraph`] `DiGraph`, so the usual graph algorithms
//! (topological order, cycles, components) apply to it directly. Rendering
//! (Graphviz dot, JSON) is the `print-dependence-graph` pass's job.

use super::access::AccessInfo;
use super::dependence::{dependence_polyhedron, direction_vector, num_common_loops};
use super::{dependence_kind, DependenceComponent, DependenceKind, DependenceResult, MemRefAccesses, Precision};
use lf_diag::SourcePos;
use lf_ir::interfaces::{memory_effects, Effect, LoopLikeOp};
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, RegionId, Value, ValueDef};
use petgraph::graph::{DiGraph, NodeIndex};

/// What a node of a [`DependenceGraph`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Granularity {
    /// One node per statement: an op that reads or writes memory
    /// (`affine.load`, `affine.store`, and any other op with memory
    /// effects, or unknown ones, on a memref).
    Statement,
    /// One node per top-level op of the function that touches memory
    /// (a loop nest, usually): seed 000's loop dependence graph.
    Loop,
}

/// A distance range: the smallest and largest value (`None`: unbounded
/// that way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Range {
    /// The smallest value, if bounded below.
    pub min: Option<i64>,
    /// The largest value, if bounded above.
    pub max: Option<i64>,
}

impl Range {
    /// The single value of the range, if it has one.
    pub fn constant(&self) -> Option<i64> {
        match (self.min, self.max) {
            (Some(a), Some(b)) if a == b => Some(a),
            _ => None,
        }
    }

    fn from_component(c: &DependenceComponent) -> Range {
        Range { min: c.lb, max: c.ub }
    }

    /// The range of `-x` for `x` in this range (checked: `i64::MIN` has no
    /// negation and becomes unbounded).
    fn negated(self) -> Range {
        Range {
            min: self.max.and_then(i64::checked_neg),
            max: self.min.and_then(i64::checked_neg),
        }
    }

    /// The smallest range holding both.
    fn union(self, other: Range) -> Range {
        Range {
            min: self.min.zip(other.min).map(|(a, b)| a.min(b)),
            max: self.max.zip(other.max).map(|(a, b)| a.max(b)),
        }
    }
}

/// A node: a statement, or a top-level op (loop nest).
#[derive(Clone, Debug)]
pub struct DepNode {
    /// The op (in the function's body).
    pub op: OpId,
    /// Its name (`affine.store`, `affine.for`).
    pub name: String,
    /// Where it is in the source, if known.
    pub pos: Option<SourcePos>,
    /// The memrefs it (or what is nested in it) reads, as labels
    /// ([`value_label`]), without repetition.
    pub reads: Vec<String>,
    /// The memrefs it writes.
    pub writes: Vec<String>,
    /// Loop granularity: the depth of the nest (loops around its deepest
    /// access, within the node). Statement granularity: the loops around it.
    pub depth: usize,
    /// Loop granularity: whether the node's outermost loop is parallel as
    /// far as memory goes (`None` when the node is not an affine loop).
    pub parallel: Option<bool>,
}

/// An edge: a dependence from the source node to the destination node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepEdge {
    /// Flow, anti or output.
    pub kind: DependenceKind,
    /// Statement granularity: the loop depth at which the dependence
    /// exists, as MLIR counts it (`d` = carried by the `d`-th common loop;
    /// one more than the number of common loops = loop-independent).
    pub depth: Option<usize>,
    /// Statement granularity: per common loop, the distance (destination's
    /// iteration minus source's, MLIR's direction vector). Loop granularity:
    /// per aligned loop (the `k`-th loop of each nest), seed 000's weight
    /// `w` (source's iteration minus destination's: "the destination's
    /// iteration `i` needs the source's iteration `i + w`"), its minimum
    /// and maximum over every pair of accesses.
    pub ranges: Vec<Range>,
    /// Loop granularity: the distinct constant weight vectors of the pairs
    /// of accesses, in increasing order (empty when a pair's distance is
    /// not constant: see `ranges`).
    pub weights: Vec<Vec<i64>>,
    /// Why a dependence is assumed rather than proven (an access that is
    /// not affine, an op with unknown effects, a system over the limits).
    pub assumed: Option<String>,
}

/// A dependence graph of one function.
pub struct DependenceGraph {
    /// What the nodes stand for.
    pub granularity: Granularity,
    /// Nodes in program order, edges in the order they were found.
    pub graph: DiGraph<DepNode, DepEdge>,
}

/// A readable name for a memref value: `%argN` for a function argument,
/// else the defining op and where it is (`memref.alloc@3:8`).
pub fn value_label(ctx: &Context, body: &Body, func_regions: &[RegionId], v: Value) -> String {
    match body.value_def(v) {
        ValueDef::BlockArg { block, index } => {
            let entry = func_regions.first().and_then(|&r| body.region_blocks(r).next());
            if entry == Some(block) {
                format!("%arg{index}")
            } else {
                format!("block argument {index}")
            }
        }
        ValueDef::OpResult { op, index } => {
            let name = ctx.op_name_str(body.op_name(op));
            let suffix = if index > 0 { format!("#{index}") } else { String::new() };
            match body.op_loc(op).source_pos(ctx) {
                Some(p) => format!("{name}{suffix}@{}:{}", p.line, p.col),
                None => format!("{name}{suffix}"),
            }
        }
    }
}

/// Whether `op` is a statement: an op without regions that reads, writes
/// or frees memory, or whose effects are unknown.
fn is_statement(ctx: &Context, body: &Body, op: OpId) -> bool {
    if !body.regions(op).is_empty() {
        return false;
    }
    match memory_effects(ctx, body, op) {
        None => true,
        Some(effects) => effects
            .iter()
            .any(|e| matches!(e.effect, Effect::Read | Effect::Write | Effect::Free)),
    }
}

/// The statements in `regions` of `body`, in program order (nested
/// isolated ops, which have bodies of their own, are left out).
fn statements(ctx: &Context, body: &Body, regions: &[RegionId]) -> Vec<OpId> {
    let mut out = Vec::new();
    walk_regions(body, regions, WalkOrder::PreOrder, &mut |b, op| {
        if std::ptr::eq(b, body) && is_statement(ctx, body, op) {
            out.push(op);
        }
        WalkControl::Advance
    });
    out
}

/// The memrefs an op reads and writes (labels, without repetition).
fn reads_and_writes(ctx: &Context, body: &Body, regions: &[RegionId], ops: &[OpId]) -> (Vec<String>, Vec<String>) {
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    let add = |list: &mut Vec<String>, label: String| {
        if !list.contains(&label) {
            list.push(label);
        }
    };
    for &op in ops {
        match memory_effects(ctx, body, op) {
            None => {
                add(&mut reads, "unknown memory".to_string());
                add(&mut writes, "unknown memory".to_string());
            }
            Some(effects) => {
                for e in effects {
                    let label = e
                        .value
                        .map_or_else(|| "unknown memory".to_string(), |v| value_label(ctx, body, regions, v));
                    match e.effect {
                        Effect::Read => add(&mut reads, label),
                        Effect::Write | Effect::Free => add(&mut writes, label),
                        Effect::Alloc => {}
                    }
                }
            }
        }
    }
    (reads, writes)
}

/// Whether `a` and `b` are both inside one loop (any loop-like op).
fn share_a_loop(ctx: &Context, body: &Body, a: OpId, b: OpId) -> bool {
    let ir = (ctx, body);
    let mut cur = body.parent_op(a);
    while let Some(p) = cur {
        if LoopLikeOp::cast(&ir, p).is_some() && body.is_ancestor(p, b) {
            return true;
        }
        cur = body.parent_op(p);
    }
    false
}

/// The dependence graph of the function whose root regions (in `body`)
/// are `regions`, at `granularity`. `cache` is the function's access cache
/// (the analysis manager's [`super::DependenceAnalysis`]).
pub fn dependence_graph(
    ctx: &Context,
    body: &Body,
    regions: &[RegionId],
    granularity: Granularity,
    cache: &MemRefAccesses,
) -> DependenceGraph {
    match granularity {
        Granularity::Statement => statement_graph(ctx, body, regions, cache),
        Granularity::Loop => loop_graph(ctx, body, regions, cache),
    }
}

fn statement_graph(ctx: &Context, body: &Body, regions: &[RegionId], cache: &MemRefAccesses) -> DependenceGraph {
    let stmts = statements(ctx, body, regions);
    let mut graph = DiGraph::new();
    let nodes: Vec<NodeIndex> = stmts
        .iter()
        .map(|&op| {
            let (reads, writes) = reads_and_writes(ctx, body, regions, &[op]);
            graph.add_node(DepNode {
                op,
                name: ctx.op_name_str(body.op_name(op)).to_string(),
                pos: body.op_loc(op).source_pos(ctx),
                reads,
                writes,
                depth: super::nesting_depth(ctx, body, op),
                parallel: None,
            })
        })
        .collect();
    let infos: Vec<Option<std::sync::Arc<AccessInfo>>> = stmts.iter().map(|&op| cache.info(ctx, body, op)).collect();
    for (i, &src) in stmts.iter().enumerate() {
        for (j, &dst) in stmts.iter().enumerate() {
            let Some(kind) = dependence_kind(ctx, body, src, dst) else {
                continue;
            };
            if kind == DependenceKind::Input {
                continue;
            }
            match (&infos[i], &infos[j]) {
                (Some(s), Some(d)) => {
                    let common = num_common_loops(ctx, body, &s.dims, &d.dims);
                    for depth in 1..=common + 1 {
                        match cache.check(ctx, body, src, dst, depth, Precision::Exact, true) {
                            DependenceResult::NoDependence => {}
                            DependenceResult::HasDependence { components } => {
                                let edge = DepEdge {
                                    kind,
                                    depth: Some(depth),
                                    ranges: components.iter().map(Range::from_component).collect(),
                                    weights: Vec::new(),
                                    assumed: None,
                                };
                                graph.add_edge(nodes[i], nodes[j], edge);
                            }
                            DependenceResult::Failure { reason } => {
                                graph.add_edge(nodes[i], nodes[j], assumed_edge(kind, Some(depth), reason));
                            }
                        }
                    }
                }
                _ => {
                    // Not both affine: ordered by program order, or
                    // repeated by a loop around both.
                    if i >= j && !share_a_loop(ctx, body, src, dst) {
                        continue;
                    }
                    if let DependenceResult::Failure { reason } =
                        cache.check(ctx, body, src, dst, 1, Precision::Exact, false)
                    {
                        graph.add_edge(nodes[i], nodes[j], assumed_edge(kind, None, reason));
                    }
                }
            }
        }
    }
    DependenceGraph {
        granularity: Granularity::Statement,
        graph,
    }
}

fn assumed_edge(kind: DependenceKind, depth: Option<usize>, reason: String) -> DepEdge {
    DepEdge {
        kind,
        depth,
        ranges: Vec::new(),
        weights: Vec::new(),
        assumed: Some(reason),
    }
}

/// What one pair of accesses of two nests contributes to their edge.
enum PairDependence {
    None,
    /// Per aligned loop, the range of the weight (source's iteration minus
    /// destination's).
    Weights(Vec<Range>),
    Assumed(String),
}

/// The dependence between an access of one nest and an access of a later
/// nest, with the first `aligned` loops of each lined up: the weights
/// `w_k = i_src,k - i_dst,k` over the pairs of iterations that touch the
/// same element (exact integer bounds).
fn aligned_pair(ctx: &Context, body: &Body, src: &AccessInfo, dst: &AccessInfo) -> PairDependence {
    if src.memref != dst.memref || (!src.is_write && !dst.is_write) {
        return PairDependence::None;
    }
    let (s, d) = match (&src.relation, &dst.relation) {
        (Ok(s), Ok(d)) => (s, d),
        (Err(e), _) | (_, Err(e)) => return PairDependence::Assumed(super::describe(e)),
    };
    let aligned = src.dims.len().min(dst.dims.len());
    // No common loops: the system is the pairs of iterations touching the
    // same element, without ordering constraints (the nests run one after
    // the other).
    let mut poly = match dependence_polyhedron(s, d, src.dims.len(), 0, 1) {
        Ok(p) => p,
        Err(e) => return PairDependence::Assumed(e.to_string()),
    };
    match poly.is_empty() {
        Err(e) => return PairDependence::Assumed(e.to_string()),
        Ok(true) => return PairDependence::None,
        Ok(false) => {}
    }
    if aligned == 0 {
        return PairDependence::Weights(Vec::new());
    }
    // The distances (destination minus source) along the aligned loops,
    // negated into seed 000's weights.
    match direction_vector(ctx, body, &mut poly, &src.dims, aligned, Precision::Exact) {
        Ok(cs) => PairDependence::Weights(cs.iter().map(|c| Range::from_component(c).negated()).collect()),
        Err(e) => PairDependence::Assumed(e.to_string()),
    }
}

fn loop_graph(ctx: &Context, body: &Body, regions: &[RegionId], cache: &MemRefAccesses) -> DependenceGraph {
    let ir = (ctx, body);
    // The top-level ops that touch memory, with their statements.
    let mut tops: Vec<(OpId, Vec<OpId>)> = Vec::new();
    for &r in regions {
        for b in body.region_blocks(r) {
            let mut cur = body.first_op(b);
            while let Some(op) = cur {
                cur = body.next_op(op);
                let stmts = statements(ctx, body, body.regions(op));
                let stmts = if is_statement(ctx, body, op) { vec![op] } else { stmts };
                if !stmts.is_empty() {
                    tops.push((op, stmts));
                }
            }
        }
    }
    let mut graph = DiGraph::new();
    let nodes: Vec<NodeIndex> = tops
        .iter()
        .map(|(op, stmts)| {
            let (reads, writes) = reads_and_writes(ctx, body, regions, stmts);
            let depth = stmts
                .iter()
                .map(|&s| super::nesting_depth(ctx, body, s))
                .max()
                .unwrap_or(0);
            let parallel = crate::affine::AffineForOp::cast(&ir, *op)
                .map(|f| cache.is_loop_memory_parallel(ctx, body, f.op(), Precision::Exact));
            graph.add_node(DepNode {
                op: *op,
                name: ctx.op_name_str(body.op_name(*op)).to_string(),
                pos: body.op_loc(*op).source_pos(ctx),
                reads,
                writes,
                depth,
                parallel,
            })
        })
        .collect();
    for (a, (_, src_stmts)) in tops.iter().enumerate() {
        for (b, (_, dst_stmts)) in tops.iter().enumerate().skip(a + 1) {
            for kind in [DependenceKind::Flow, DependenceKind::Anti, DependenceKind::Output] {
                if let Some(edge) = nest_edge(ctx, body, cache, src_stmts, dst_stmts, kind) {
                    graph.add_edge(nodes[a], nodes[b], edge);
                }
            }
        }
    }
    DependenceGraph {
        granularity: Granularity::Loop,
        graph,
    }
}

/// The edge of `kind` from one nest to a later one, merging every pair of
/// their accesses: the union of the weight ranges (over the loops aligned
/// in every pair) and the distinct constant weight vectors.
fn nest_edge(
    ctx: &Context,
    body: &Body,
    cache: &MemRefAccesses,
    src_stmts: &[OpId],
    dst_stmts: &[OpId],
    kind: DependenceKind,
) -> Option<DepEdge> {
    let mut found = false;
    let mut ranges: Option<Vec<Range>> = None;
    let mut weights: Vec<Vec<i64>> = Vec::new();
    let mut all_constant = true;
    let mut assumed: Option<String> = None;
    for &s in src_stmts {
        for &d in dst_stmts {
            if dependence_kind(ctx, body, s, d) != Some(kind) {
                continue;
            }
            let pair = match (cache.info(ctx, body, s), cache.info(ctx, body, d)) {
                (Some(si), Some(di)) => aligned_pair(ctx, body, &si, &di),
                _ => match cache.check(ctx, body, s, d, 1, Precision::Exact, false) {
                    DependenceResult::Failure { reason } => PairDependence::Assumed(reason),
                    _ => PairDependence::None,
                },
            };
            match pair {
                PairDependence::None => {}
                PairDependence::Assumed(reason) => {
                    found = true;
                    assumed.get_or_insert(reason);
                }
                PairDependence::Weights(r) => {
                    found = true;
                    let merged = match ranges.take() {
                        None => r.clone(),
                        Some(old) => old.iter().zip(&r).map(|(x, y)| x.union(*y)).collect(),
                    };
                    ranges = Some(merged);
                    match r.iter().map(Range::constant).collect::<Option<Vec<i64>>>() {
                        Some(w) => {
                            if !weights.contains(&w) {
                                weights.push(w);
                            }
                        }
                        None => all_constant = false,
                    }
                }
            }
        }
    }
    if !found {
        return None;
    }
    let ranges = ranges.unwrap_or_default();
    // Vectors of pairs with more aligned loops than the edge keeps are cut
    // to the edge's length.
    let mut weights: Vec<Vec<i64>> = if all_constant && assumed.is_none() {
        weights
            .into_iter()
            .map(|w| w[..ranges.len().min(w.len())].to_vec())
            .collect()
    } else {
        Vec::new()
    };
    weights.sort();
    weights.dedup();
    Some(DepEdge {
        kind,
        depth: None,
        ranges,
        weights,
        assumed,
    })
}
