//! `print-dependence-graph`: writes the dependence graph of each function
//! (statements or loop nests as nodes, dependences as edges labelled with
//! their kind and distances) as Graphviz dot or JSON, to stderr or a file.
//! The graph is [`crate::affine::analysis::graph`]'s; this pass renders it.

use crate::affine::analysis::graph::{dependence_graph, DepEdge, DepNode, DependenceGraph, Granularity, Range};
use crate::affine::analysis::DependenceAnalysis;
use lf_pass::analysis::AnalysisManager;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use petgraph::visit::EdgeRef;
use serde_json::{json, Value as Json};
use std::path::PathBuf;

/// Registration of `print-dependence-graph`.
pub static INFO: PassInfo = PassInfo {
    name: "print-dependence-graph",
    summary: "Write each function's memory dependence graph as Graphviz dot or JSON",
    description: "Builds the memory dependence graph of each function with exact integer answers and writes \
it to stderr (or to the file `out`). With `granularity=statement` a node is an op that reads or writes memory \
(numbered in program order, as test-memref-dependence-check numbers them) and an edge is a dependence at one \
loop depth, labelled with its kind (flow, anti, output) and its distance along each common loop (destination's \
iteration minus source's, `[min, max]` when not constant). With `granularity=loop` a node is a top-level op of \
the function that touches memory (a loop nest) and an edge from a nest to a later one is seed 000's loop \
dependence graph edge: its kind and the weights w (source's iteration minus destination's) along the loops \
aligned between the two nests, the distinct constant weight vectors and their range. Dependences that are \
assumed rather than proven (non-affine accesses, calls, unknown effects) are drawn dashed with the reason. \
Several functions give several graphs: one dot `digraph` each, or one JSON object per line. It changes \
nothing and preserves every analysis.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "granularity",
            kind: OptionKind::Enum(&["statement", "loop"]),
            default: "statement",
            help: "Nodes are statements (memory accesses) or top-level loop nests",
        },
        PassOption {
            name: "format",
            kind: OptionKind::Enum(&["dot", "json"]),
            default: "dot",
            help: "Graphviz dot or JSON (one object per function and line)",
        },
        PassOption {
            name: "out",
            kind: OptionKind::String,
            default: "",
            help: "The file to write (stderr when empty)",
        },
    ],
    create,
};

fn create(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(PrintDependenceGraph {
        granularity: match o.str("granularity") {
            "loop" => Granularity::Loop,
            _ => Granularity::Statement,
        },
        json: o.str("format") == "json",
        out: Some(o.str("out")).filter(|p| !p.is_empty()).map(PathBuf::from),
    }))
}

struct PrintDependenceGraph {
    granularity: Granularity,
    json: bool,
    out: Option<PathBuf>,
}

impl Pass for PrintDependenceGraph {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        am.preserve_all();
        // A declaration (no body) has no graph.
        let has_body = op
            .regions()
            .iter()
            .any(|&r| op.body().region_blocks(r).next().is_some());
        if !has_body {
            return Ok(());
        }
        let analysis = am.get::<DependenceAnalysis>(op);
        let ctx = op.ctx();
        let name = op.symbol_name().map_or("", |n| ctx.ident_str(n)).to_string();
        let graph = dependence_graph(ctx, op.body(), op.regions(), self.granularity, &analysis.accesses);
        let text = if self.json {
            let mut line = render_json(&name, &graph).to_string();
            line.push('\n');
            line
        } else {
            render_dot(&name, &graph)
        };
        op.add_statistic("num-nodes", "Number of nodes", graph.graph.node_count() as u64);
        op.add_statistic("num-edges", "Number of edges", graph.graph.edge_count() as u64);
        op.write_output(self.out.clone(), text);
        Ok(())
    }
}

fn granularity_name(g: Granularity) -> &'static str {
    match g {
        Granularity::Statement => "statement",
        Granularity::Loop => "loop",
    }
}

fn bound(b: Option<i64>, unbounded: &str) -> String {
    b.map_or_else(|| unbounded.to_string(), |v| v.to_string())
}

/// `1` for a constant range, else `[min, max]` with `-inf`/`+inf`.
fn range_text(r: &Range) -> String {
    match r.constant() {
        Some(v) => v.to_string(),
        None => format!("[{}, {}]", bound(r.min, "-inf"), bound(r.max, "+inf")),
    }
}

fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

fn node_prefix(g: Granularity) -> &'static str {
    match g {
        Granularity::Statement => "S",
        Granularity::Loop => "L",
    }
}

fn node_label(g: Granularity, index: usize, n: &DepNode) -> String {
    let mut label = format!("{}{index}: {}", node_prefix(g), n.name);
    if let Some(p) = &n.pos {
        label.push_str(&format!(" @ {}:{}", p.line, p.col));
    }
    if !n.writes.is_empty() {
        label.push_str(&format!("\\nwrites {}", n.writes.join(", ")));
    }
    if !n.reads.is_empty() {
        label.push_str(&format!("\\nreads {}", n.reads.join(", ")));
    }
    if g == Granularity::Loop {
        label.push_str(&format!("\\ndepth {}", n.depth));
        if let Some(p) = n.parallel {
            label.push_str(if p { ", parallel" } else { ", not parallel" });
        }
    }
    label
}

fn edge_label(g: Granularity, e: &DepEdge) -> String {
    let mut label = e.kind.name().to_string();
    if let Some(d) = e.depth {
        label.push_str(&format!(" @{d}"));
    }
    match g {
        Granularity::Statement if !e.ranges.is_empty() => {
            let parts: Vec<String> = e.ranges.iter().map(range_text).collect();
            label.push_str(&format!(" ({})", parts.join(", ")));
        }
        Granularity::Loop if !e.weights.is_empty() => {
            let parts: Vec<String> = e
                .weights
                .iter()
                .map(|w| match w.as_slice() {
                    [v] => signed(*v),
                    _ => format!("({})", w.iter().map(|v| signed(*v)).collect::<Vec<_>>().join(",")),
                })
                .collect();
            label.push_str(&format!(" w={}", parts.join(" ")));
        }
        Granularity::Loop if !e.ranges.is_empty() => {
            let parts: Vec<String> = e.ranges.iter().map(range_text).collect();
            label.push_str(&format!(" w in ({})", parts.join(", ")));
        }
        _ => {}
    }
    if let Some(reason) = &e.assumed {
        label.push_str(&format!("\\nassumed: {reason}"));
    }
    label
}

/// Escapes a label for a dot double-quoted string (`\n` line breaks kept).
fn dot_escape(s: &str) -> String {
    s.replace('"', "\\\"")
}

/// The graph as a Graphviz `digraph` named after the function.
pub fn render_dot(function: &str, g: &DependenceGraph) -> String {
    let gr = g.granularity;
    let mut out = format!(
        "digraph \"{}\" {{\n  // print-dependence-graph granularity={}\n  node [shape=box, fontname=\"monospace\"];\n",
        dot_escape(function),
        granularity_name(gr)
    );
    for idx in g.graph.node_indices() {
        let label = node_label(gr, idx.index(), &g.graph[idx]);
        out.push_str(&format!(
            "  {}{} [label=\"{}\"];\n",
            node_prefix(gr),
            idx.index(),
            dot_escape(&label)
        ));
    }
    for e in g.graph.edge_references() {
        let w = e.weight();
        let style = if w.assumed.is_some() { ", style=dashed" } else { "" };
        out.push_str(&format!(
            "  {p}{} -> {p}{} [label=\"{}\"{style}];\n",
            e.source().index(),
            e.target().index(),
            dot_escape(&edge_label(gr, w)),
            p = node_prefix(gr),
        ));
    }
    out.push_str("}\n");
    out
}

fn range_json(r: &Range) -> Json {
    json!({ "min": r.min, "max": r.max })
}

/// The graph as one JSON object: `function`, `granularity`, `nodes` (id,
/// op, loc, reads, writes, depth, parallel) and `edges` (from, to, kind,
/// depth, ranges, weights, assumed).
pub fn render_json(function: &str, g: &DependenceGraph) -> Json {
    let nodes: Vec<Json> = g
        .graph
        .node_indices()
        .map(|idx| {
            let n = &g.graph[idx];
            json!({
                "id": idx.index(),
                "op": n.name,
                "loc": n.pos.as_ref().map(|p| p.to_string()),
                "reads": n.reads,
                "writes": n.writes,
                "depth": n.depth,
                "parallel": n.parallel,
            })
        })
        .collect();
    let edges: Vec<Json> = g
        .graph
        .edge_references()
        .map(|e| {
            let w = e.weight();
            json!({
                "from": e.source().index(),
                "to": e.target().index(),
                "kind": w.kind.name(),
                "depth": w.depth,
                "ranges": w.ranges.iter().map(range_json).collect::<Vec<_>>(),
                "weights": w.weights,
                "assumed": w.assumed,
            })
        })
        .collect();
    json!({
        "function": function,
        "granularity": granularity_name(g.granularity),
        "nodes": nodes,
        "edges": edges,
    })
}
